"""Ask a real Chromium which WebMCP tools a page registers.

formtools promises tool definitions byte-identical with Chromium 156, and the only authority for
that is the browser itself. This module is the test oracle: it serves HTML from a local web server
(WebMCP needs a secure context, and ``http://127.0.0.1`` is one), loads it in headless Chromium
through Playwright, and reads the tools back. It is used to record golden files and by the tests
marked ``browser``; formtools itself never needs a browser.

Two sources are combined, because neither alone has everything:

- ``document.modelContext.getTools()`` gives name, title, description and input schema, sorted by
  name. The schema is passed through ``JSON.stringify`` in the page so that key order and number
  text reach Python unchanged.
- The DevTools ``WebMCP`` domain is the only place that reports annotations (``autosubmit``). Its
  ``enable`` command replays the current tools, so re-enabling after the page has settled yields
  exactly the tools of the current document, never those of an earlier navigation.

Registration is a posted task and can still be running after the ``load`` event on large pages,
so the oracle polls ``getTools()`` until it is unchanged for a few event-loop turns.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
from contextlib import ExitStack
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any

from formtools._jsjson import dumps

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Page

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "BrowserUnavailable",
    "ChromiumOracle",
    "LocalSite",
    "OracleAnswer",
    "OracleError",
    "RecordedRequest",
]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--enable-features=WebMCP,WebMCPTesting,DeclarativeWebmcp",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
)

Tool = dict[str, Any]


class OracleError(RuntimeError):
    """The browser gave no usable answer (WebMCP missing, tools never settled, sources disagree)."""


class BrowserUnavailable(OracleError):
    """Playwright or the Chromium binary is not installed."""


# --- the web server ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request as :class:`LocalSite` received it."""

    method: str
    target: str  #: the request-target: path and query, exactly as sent (percent-encoded)
    headers: tuple[tuple[str, str], ...]  #: in the order received, duplicates kept
    body: bytes

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]

    def header(self, name: str) -> str | None:
        """The first header called ``name`` (case-insensitive), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


_POST_RECEIVED = b"<!doctype html><title>received</title>"


class LocalSite:
    """A threaded HTTP/1.1 server on a random port of 127.0.0.1, used as a context manager.

    ``put`` maps a path to a response body; GET of an unmapped path is a 404, POST of one gets a
    small HTML page. Every request, favicon fetches included, is recorded in ``requests``.
    """

    def __init__(self) -> None:
        self._pages: dict[str, tuple[bytes, str]] = {}
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LocalSite:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        poll_interval = 0.05  # bounds how long shutdown() waits
        self._thread = threading.Thread(
            target=server.serve_forever, args=(poll_interval,), name="LocalSite", daemon=True
        )
        self._server = server
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None and self._thread is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join()
        self._server = self._thread = None

    @property
    def origin(self) -> str:
        if self._server is None:
            raise RuntimeError("LocalSite is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_port}"

    def put(self, path: str, body: bytes, content_type: str = "text/html; charset=utf-8") -> str:
        """Serve ``body`` at ``path`` (which starts with ``/``, no query) and return its URL."""
        if not path.startswith("/") or "?" in path:
            raise ValueError(f"path must start with '/' and have no query: {path!r}")
        with self._lock:
            self._pages[path] = (body, content_type)
        return self.origin + path

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """A snapshot of the requests received so far, oldest first."""
        with self._lock:
            return tuple(self._requests)

    def _answer(self, request: RecordedRequest) -> tuple[int, bytes, str]:
        with self._lock:
            self._requests.append(request)
            page = self._pages.get(request.path)
        if page is not None:
            return (200, *page)
        if request.method == "POST":
            return 200, _POST_RECEIVED, "text/html; charset=utf-8"
        return 404, b"not found", "text/plain; charset=utf-8"


def _handler_for(site: LocalSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = RecordedRequest(
                method=self.command,
                target=self.path,
                headers=tuple(self.headers.items()),
                body=self.rfile.read(length) if length else b"",
            )
            status, body, content_type = site._answer(request)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet: requests are recorded, not logged."""

    return Handler


# --- the browser ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OracleAnswer:
    """The tools of one page, asked twice; ``stable`` is false when the two answers differ."""

    tools: list[Tool]
    stable: bool
    runs: tuple[list[Tool], ...]


# Polls getTools() until the main document's tools are unchanged for `quietTurns` macrotask turns.
# Tools of child frames are left out: they belong to other documents. Returns null without WebMCP.
_SETTLE_JS = """
async ([quietTurns, maxTurns]) => {
  const modelContext = document.modelContext;
  if (!modelContext) return null;
  const snapshot = async () => JSON.stringify(
    (await modelContext.getTools())
      .filter((tool) => tool.window === window)
      .map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })));
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  let last = await snapshot();
  let calm = 0;
  for (let turns = 0; calm < quietTurns; turns++) {
    if (turns === maxTurns) return {settled: false, tools: last};
    await turn();
    const current = await snapshot();
    if (current === last) {
      calm++;
    } else {
      last = current;
      calm = 0;
    }
  }
  return {settled: true, tools: last};
}
"""

# Makes every form (shadow trees included) re-evaluate its tool: a child change does that, and
# appending then removing a comment leaves the document as it was.
_REEVALUATE_JS = """
() => {
  const roots = [document];
  for (const root of roots) {
    for (const element of root.querySelectorAll("*")) {
      if (element.shadowRoot) roots.push(element.shadowRoot);
      if (element instanceof HTMLFormElement) {
        const mark = document.createComment("");
        element.append(mark);
        mark.remove();
      }
    }
  }
}
"""


class ChromiumOracle:
    """Headless Chromium with WebMCP, launched once and reused for every page.

    >>> with ChromiumOracle() as oracle:  # doctest: +SKIP
    ...     oracle.tools("<form toolname=a tooldescription=b toolautosubmit></form>")
    [{'name': 'a', 'title': '', 'description': 'b', 'inputSchema': {'type': 'object',
      'properties': {}, 'required': []}, 'annotations': {'autosubmit': True}}]

    ``site`` and ``page`` are exposed so tests can drive the page further (execute a tool, watch
    the submission arrive at the site).
    """

    def __init__(
        self, *, executable: str = CHROMIUM, quiet_turns: int = 3, max_turns: int = 1000
    ) -> None:
        self.executable = executable
        self.quiet_turns = quiet_turns
        self.max_turns = max_turns
        self._stack = ExitStack()
        self._site: LocalSite | None = None
        self._page: Page | None = None
        self._cdp: CDPSession | None = None
        self._replayed: list[dict[str, Any]] = []
        self._numbers = itertools.count(1)

    def __enter__(self) -> ChromiumOracle:
        try:
            from playwright.sync_api import Error as PlaywrightError
            from playwright.sync_api import sync_playwright
        except ImportError as error:
            raise BrowserUnavailable(
                "playwright is not installed (pip install 'formtools[browser]')"
            ) from error
        if not (os.path.isfile(self.executable) and os.access(self.executable, os.X_OK)):
            raise BrowserUnavailable(f"no Chromium executable at {self.executable}")
        with ExitStack() as stack:
            self._site = stack.enter_context(LocalSite())
            playwright = stack.enter_context(sync_playwright())
            try:
                browser = playwright.chromium.launch(
                    executable_path=self.executable, args=list(CHROMIUM_ARGS), headless=True
                )
            except PlaywrightError as error:
                raise BrowserUnavailable(f"could not launch {self.executable}: {error}") from error
            stack.callback(browser.close)
            context = browser.new_context()
            self._page = context.new_page()
            self._cdp = context.new_cdp_session(self._page)
            self._cdp.on("WebMCP.toolsAdded", self._on_tools_added)
            self._stack = stack.pop_all()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stack.close()
        self._site = self._page = self._cdp = None

    @property
    def site(self) -> LocalSite:
        if self._site is None:
            raise RuntimeError("ChromiumOracle is not running; use it as a context manager")
        return self._site

    @property
    def page(self) -> Page:
        if self._page is None:
            raise RuntimeError("ChromiumOracle is not running; use it as a context manager")
        return self._page

    def tools(
        self,
        html: str | bytes,
        *,
        content_type: str = "text/html; charset=utf-8",
        reevaluate: bool = False,
    ) -> list[Tool]:
        """Load ``html`` at a fresh URL and return the tools its document registers.

        Each tool is ``{"name", "title", "description", "inputSchema", "annotations"}`` in
        ``getTools()`` order (sorted by name); ``annotations`` is ``{"autosubmit": bool}``. A
        ``str`` is sent as UTF-8, so ``content_type`` should then say ``charset=utf-8``.

        With ``reevaluate``, once the tools have settled every form is made to re-evaluate its
        tool (a comment is appended and removed), and the tools are read after that. This gives
        the answer for the complete document: Chromium registers a form in a posted task that can
        run while the parser is still inside the form, and a change below the form's direct
        children (more ``<option>`` elements, say) does not re-evaluate it, so on a large page a
        tool can keep a truncated schema.
        """
        body = html.encode("utf-8") if isinstance(html, str) else html
        url = self.site.put(f"/oracle/{next(self._numbers)}", body, content_type)
        self.page.goto(url)
        if reevaluate:
            self._settled_tools()
            self.page.evaluate(_REEVALUATE_JS)
        for _ in range(3):
            tools = self._settled_tools()
            autosubmit = self._replay_autosubmit(tools)
            if autosubmit is not None:
                return [
                    {**tool, "annotations": {"autosubmit": autosubmit[tool["name"]]}}
                    for tool in tools
                ]
        raise OracleError(f"getTools() and DevTools kept disagreeing about the tools of {url}")

    def stable_tools(
        self, html: str | bytes, *, content_type: str = "text/html; charset=utf-8"
    ) -> OracleAnswer:
        """Ask twice, each time with a fresh navigation, and say whether the answers agree.

        The second run re-evaluates every form (see :meth:`tools`), so a page whose answer
        depends on how the parser happened to split it is reported as unstable even when the
        race went the same way twice.
        """
        runs = (
            self.tools(html, content_type=content_type),
            self.tools(html, content_type=content_type, reevaluate=True),
        )
        # compare the JSON text: dict equality would ignore key order and equate 1, 1.0 and true
        stable = dumps(runs[0]) == dumps(runs[1])
        return OracleAnswer(tools=runs[0], stable=stable, runs=runs)

    def _settled_tools(self) -> list[Tool]:
        result = self.page.evaluate(_SETTLE_JS, [self.quiet_turns, self.max_turns])
        if result is None:
            raise OracleError(
                "document.modelContext is missing: WebMCP is not enabled in this Chromium"
            )
        if not result["settled"]:
            raise OracleError(f"the tools kept changing for {self.max_turns} event-loop turns")
        tools: list[Tool] = json.loads(result["tools"])
        return tools

    def _replay_autosubmit(self, tools: list[Tool]) -> dict[str, bool] | None:
        """Read ``autosubmit`` for ``tools`` from DevTools' replay of the main frame's tools.

        Returns ``None`` if the replay does not describe the same tools (it raced a change).
        """
        cdp = self._cdp_session
        frame_id = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        # `enable` replays the current tools as `toolsAdded` before it replies, and Playwright
        # dispatches events in order, so the replay is complete once `send` returns.
        self._replayed.clear()
        cdp.send("WebMCP.enable")
        replayed = list(self._replayed)
        cdp.send("WebMCP.disable")
        reported = {
            tool["name"]: tool
            for event in replayed
            for tool in event["tools"]
            if tool["frameId"] == frame_id
        }
        # DevTools leaves out `inputSchema` when the schema's text is Latin-1 with non-ASCII
        # characters (it seems to read the 8-bit string as UTF-8), so compare it only if present.
        same = reported.keys() == {tool["name"] for tool in tools} and all(
            reported[tool["name"]]["description"] == tool["description"]
            and reported[tool["name"]].get("inputSchema", tool["inputSchema"])
            == tool["inputSchema"]
            for tool in tools
        )
        if not same:
            return None
        return {
            name: tool.get("annotations", {}).get("autosubmit", False) is True
            for name, tool in reported.items()
        }

    def _on_tools_added(self, event: dict[str, Any]) -> None:
        self._replayed.append(event)

    @property
    def _cdp_session(self) -> CDPSession:
        if self._cdp is None:
            raise RuntimeError("ChromiumOracle is not running; use it as a context manager")
        return self._cdp
