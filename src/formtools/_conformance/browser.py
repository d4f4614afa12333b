"""Ask a real Chromium which WebMCP tools a page registers.

formtools promises tool definitions byte-identical with Chromium 156, and the only authority for
that is the browser itself. This module is the test oracle: it serves HTML from a local web server
(WebMCP needs a secure context, and ``http://127.0.0.1`` is one), loads it in headless Chromium
through Playwright, and reads the tools back. It is used to record golden files and by the tests
marked ``browser``; formtools itself never needs a browser.

Two sources are combined, because neither alone has everything:

- ``document.modelContext.getTools()`` is the only one with ``title``, and gives the tools sorted
  by name. But its ``inputSchema`` is a JavaScript object, and JavaScript moves integer-like keys
  (``"0"``, ``"10"``) to the front, so its key order is not the definition's.
- The DevTools ``WebMCP`` domain is the only one with annotations (``autosubmit``) and keeps the
  definition's key order. Its ``enable`` command replays the current tools, so re-enabling after
  the page has settled yields exactly the tools of the current document, never those of an
  earlier navigation. Playwright's own DevTools sessions would not do: its driver parses every
  message in JavaScript, with the same reordering, so the oracle opens a second DevTools
  connection (``--remote-debugging-port``) whose JSON text Python parses itself.

Registration is a posted task and can still be running after the ``load`` event on large pages,
so the oracle polls ``getTools()`` until it is unchanged for a few event-loop turns.

Executing a tool (:meth:`ChromiumOracle.execute`) goes through the page API,
``document.modelContext.executeTool(tool, input)``, not DevTools ``WebMCP.invokeTool``. Both
reject with the same message texts, but only the page API can pass a non-object input (DevTools
refuses it with "Invalid parameters" before the page sees it), and only it keeps the input's key
order: DevTools re-serializes the input from a sorted dictionary, so with two bad keys it names
the alphabetically first, while an agent's JSON text (parsed by JavaScript) and the page API name
the first in JavaScript property order. The page API resolves ``null`` when the form submits,
before the navigation, so the oracle watches the Navigation API's ``navigate`` event and then
waits for the submission to arrive at :class:`LocalSite` and commit.

Number *text* is not an oracle fact: DevTools writes ``1e+20`` where JavaScript writes
``100000000000000000000``. Only the values are taken; ``formtools._spec.jsjson`` writes them.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from formtools._conformance.devtools import DevTools, DevToolsError
from formtools._conformance.site import LocalSite, RecordedRequest
from formtools._interrupts import held, holdable
from formtools._spec.jsjson import dumps

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

__all__ = [
    "BOUNDARY",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "QUIET_FEATURES",
    "BrowserUnavailable",
    "ChromiumOracle",
    "ExecuteAnswer",
    "LocalSite",
    "OracleAnswer",
    "OracleError",
    "RecordedRequest",
    "SubmittedRequest",
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
#: Chromium features the oracle turns off because they send what a page holds to another host:
#: ``AutofillServerCommunication`` (``autofill::features::debug``, "for hermetic testing") asks
#: content-autofill.googleapis.com for field-type predictions of every form a page shows, two
#: connections a load carrying the forms' signatures, which ``--disable-background-networking``
#: does not stop. Off, Autofill asks no server and still parses forms with its own heuristics; it
#: changes no form, control, WebMCP tool or navigation a page sees (Autofill fills only on a
#: person's choice), so it is not in the recordings' stamp.
QUIET_FEATURES = ("AutofillServerCommunication",)

Tool = dict[str, Any]
#: a document request's status, body and headers, as LocalSite answers it (LocalSite.served)
_Served = tuple[int, bytes, tuple[tuple[str, str], ...]]
_Answer = TypeVar("_Answer")


class OracleError(DevToolsError):
    """The browser gave no usable answer (WebMCP missing, tools never settled, sources disagree)."""


class BrowserUnavailable(OracleError):
    """Playwright or the Chromium binary is not installed."""


# --- the browser ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OracleAnswer:
    """The tools of one page, asked twice; ``stable`` is false when the two answers differ."""

    tools: list[Tool]
    stable: bool
    runs: tuple[list[Tool], ...]


@dataclass(frozen=True)
class _Document:
    """A document the tab shows, as :meth:`ChromiumOracle.execute_at`'s ``again`` may call it again."""

    url: str
    served: _Served | None  #: what the site served at ``url`` when it was loaded
    #: each input's value attribute as loaded (``_VALUE_ATTRIBUTES_JS``), read before the
    #: document's first call; None while it was only read
    value_attributes: tuple[str | None, ...] | None = None


# Polls getTools() until the main document's tools are unchanged for `quietTurns` macrotask turns.
# Tools of child frames are left out: they belong to other documents. Returns null without WebMCP.
# A document with scripting disabled (sandboxed without allow-scripts) runs none of its tasks, so
# its turns never come (the oracle waited for good, measured past 200 s): it has no tools (Chromium
# registers none; should DevTools replay some, _read_tools fails on the disagreement). Scripting is
# read from the parser, synchronously: with it disabled, <noscript> holds elements.
_SETTLE_JS = """
async ([quietTurns, maxTurns]) => {
  const modelContext = document.modelContext;
  if (!modelContext) return null;
  const probe = document.createElement("div");
  probe.innerHTML = "<noscript><p></p></noscript>";
  if (probe.querySelector("noscript p") !== null) return {settled: true, tools: "[]"};
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


# The forms and the inputs of the document and of the open shadow trees in it, in tree order root by
# root: the same ones, in the same order, for as long as nothing adds or removes one (no script runs).
_FORMS_AND_INPUTS_JS = """
  const forms = [], inputs = [];
  const roots = [document];
  for (const root of roots) {
    for (const element of root.querySelectorAll("*")) {
      if (element.shadowRoot) roots.push(element.shadowRoot);
      if (element instanceof HTMLFormElement) forms.push(element);
      if (element instanceof HTMLInputElement) inputs.push(element);
    }
  }
"""

# Each input's value attribute (null: none), read before a document's first call, for _RESET_JS.
_VALUE_ATTRIBUTES_JS = f"""
() => {{
{_FORMS_AND_INPUTS_JS}
  return inputs.map((input) => input.getAttribute("value"));
}}
"""

# Gives each input back the value attribute the page gave it (the list _VALUE_ATTRIBUTES_JS read),
# then resets every form as its reset button would: each control gets back the value, checkedness
# and selectedness the page gave it, with its dirty flags cleared, as a fresh load has them
# (HTMLFormElement's own method: a control named "reset" shadows the property). The attributes
# first: an input in value mode "default" (hidden, submit, image, reset, button) keeps its value in
# its value attribute, which a call's fill of a hidden parameter rewrites and a reset reads back.
# False, and nothing changed, if the document holds other inputs than those read.
_RESET_JS = f"""
(values) => {{
{_FORMS_AND_INPUTS_JS}
  if (inputs.length !== values.length) return false;
  inputs.forEach((input, at) => {{
    if (input.getAttribute("value") === values[at]) return;
    if (values[at] === null) input.removeAttribute("value");
    else input.setAttribute("value", values[at]);
  }});
  const reset = HTMLFormElement.prototype.reset;
  for (const form of forms) reset.call(form);
  return true;
}}
"""


BOUNDARY = "BOUNDARY"  #: what a multipart boundary is replaced with in an ExecuteAnswer


@dataclass(frozen=True)
class SubmittedRequest:
    """The form submission a tool call sent, as :class:`LocalSite` received it.

    The multipart boundary Chromium draws at random (``----WebKitFormBoundary`` and 16
    alphanumerics) is replaced by ``BOUNDARY`` in both ``content_type`` and ``body``, so answers
    can be compared.
    """

    method: str
    url: str  #: the request-target: path and query, percent-encoded as sent (no fragment)
    content_type: str | None  #: ``None`` when the request had no Content-Type (a GET)
    body: bytes


@dataclass(frozen=True)
class ExecuteAnswer:
    """What one ``executeTool`` call did.

    Exactly one of these describes the outcome: ``error`` (the call was rejected; nothing was
    sent), ``request`` (the form was submitted and this request arrived), or neither (the call
    resolved, to ``result``, without sending anything: ``method=dialog``, a ``respondWith``
    answer, or ``waiting_for_user``).
    """

    error: str | None  #: the rejection's message, exactly as Chromium words it
    request: SubmittedRequest | None
    result: Any = None  #: what the promise resolved to (``null`` for a submission)
    error_name: str | None = None  #: the rejection's ``name``: ``UnknownError``, ``TypeError``…
    #: where the call navigated, path, query and fragment (the full URL for another origin);
    #: ``None`` if it did not navigate
    navigated_to: str | None = None
    #: the call was still pending after ``wait_for_user`` seconds (a form without
    #: ``toolautosubmit`` waits for a click) and was aborted
    waiting_for_user: bool = False


# Finds the tool (polling while registration, a posted task, may still be pending), executes it
# and reports how the promise settled and which navigation it started. A call still pending
# after `waitMs` is aborted and reported as waiting (a manual form waits for a user's click).
_EXECUTE_JS = """
async ([name, input, maxTurns, waitMs]) => {
  const modelContext = document.modelContext;
  if (!modelContext) return {missing: "webmcp"};
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  let tool;
  for (let turns = 0; !tool; turns++) {
    tool = (await modelContext.getTools()).find((t) => t.name === name && t.window === window);
    if (!tool && turns === maxTurns) return {missing: "tool"};
    if (!tool) await turn();
  }
  let navigated = null;
  const onNavigate = (event) => {
    navigated ??= {url: event.destination.url, sameDocument: event.destination.sameDocument};
  };
  navigation.addEventListener("navigate", onNavigate);
  const abort = new AbortController();
  const pending = {};
  let timer;
  const waiting = new Promise((resolve) => { timer = setTimeout(() => resolve(pending), waitMs); });
  let answer;
  try {
    const call = modelContext.executeTool(tool, input, {signal: abort.signal});
    const result = await Promise.race([call, waiting]);
    if (result === pending) {
      call.catch(() => {});
      abort.abort();
      answer = {waiting: true};
    } else {
      answer = {result: result === undefined ? null : result};
    }
  } catch (error) {
    answer = {error: String(error?.message ?? error), errorName: String(error?.name ?? "")};
  } finally {
    clearTimeout(timer);
  }
  if (!answer.error && !navigated) await turn();  // a navigation might start a task later
  navigation.removeEventListener("navigate", onNavigate);
  answer.navigated = navigated;
  return answer;
}
"""


#: the name every oracle's Chromium profile directory starts with, in the temporary directory
PROFILE_PREFIX = "formtools-"
#: the symbolic links in a profile naming ``<host>-<pid>`` of the processes that use it: the
#: oracle's own (written before Chromium starts), Chromium's browser process's while it runs,
#: and the oracle's copy of that one, which outlives it: Chromium removes its lock before its
#: process ends, and wrote its profile again after the next run had removed it
_OWNERS = ("formtools-owner", "SingletonLock", "formtools-browser")


#: the switches that name Chromium features, and whether their features are turned on; Chromium
#: reads only the last of each on its command line (``base::CommandLine`` keeps one value a switch)
_FEATURE_SWITCHES = {"--enable-features": True, "--disable-features": False}


def _feature_name(entry: str) -> str:
    """The feature a feature-list entry names: ``RenderDocument:level/crashed-frame`` (with
    parameters) and ``Name<Trial`` (with a field trial) name ``RenderDocument`` and ``Name``."""
    return re.split(r"[:<]", entry, maxsplit=1)[0]


@functools.cache
def _playwright_feature_switches() -> tuple[str, ...]:
    """The ``--disable-features`` and ``--enable-features`` switches Playwright puts on the command
    line of every Chromium it launches, read from its installed chromium launcher
    (``chromiumSwitches.ts``, in the driver's ``coreBundle.js``), so that the oracle can take them
    out and name their features in its own switches: a caller's ``--disable-features`` given to
    Playwright replaced its list (``PaintHolding``, ``ThirdPartyStoragePartitioning``,
    ``OptimizationHints``… were on for that caller alone). Each list entry's last string literal is
    its value (a conditional entry, ``process.env.… ? "" : "Name"``, gives its value without the
    variable). Reading the text is cheap; asking Playwright's Node code costs 0.8 s of CPU."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    try:
        text = bundle.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise BrowserUnavailable(f"cannot read Playwright's Chromium switches: {error.strerror}: {bundle}") from error
    switches = []
    for variable, switch in (("disabledFeatures = ", "--disable-features="), ("enabledFeatures = () => ", "--enable-features=")):
        found = re.search(re.escape(variable) + r"\[(.*?)\]\.filter\(Boolean\)", text, re.S)
        if found is None:
            raise BrowserUnavailable(f"no {variable.split()[0]} list of Playwright's Chromium switches in {bundle}")
        entries = (re.findall(r'"([^"]*)"', entry) for entry in re.sub(r"//[^\n]*", "", found.group(1)).split(","))
        switches.append(switch + ",".join(literals[-1] for literals in entries if literals and literals[-1]))
    return tuple(switches)


def _launch_args(playwright_features: Sequence[str], extra_args: Sequence[str]) -> list[str]:
    """The oracle's command line after Playwright's own switches: ``CHROMIUM_ARGS`` and
    ``extra_args``, with one ``--enable-features`` and one ``--disable-features`` naming every
    feature of Playwright's feature switches (``playwright_features``, taken out of its command
    line), of the oracle's own (``CHROMIUM_ARGS``,
    :data:`QUIET_FEATURES`) and of ``extra_args``'s, in that order: Chromium reads only the last
    switch of each kind, so a second ``--enable-features`` turned WebMCP off and a caller's
    ``--disable-features`` turned Playwright's list back on. A feature named again is left in
    the list of the last switch naming it alone: Chromium enables a feature both lists name,
    whichever comes last, so a caller could not turn off one the oracle turns on."""
    given = [*playwright_features, *CHROMIUM_ARGS, "--disable-features=" + ",".join(QUIET_FEATURES), *extra_args]
    features: dict[str, tuple[str, bool]] = {}  # a feature's name -> its entry, and whether enabled
    others = []
    for switch in given:
        name, _, value = switch.partition("=")
        enabled = _FEATURE_SWITCHES.get(name)
        if enabled is None:
            others.append(switch)
            continue
        for entry in filter(None, value.split(",")):
            features.pop(_feature_name(entry), None)  # its place is its last word's
            features[_feature_name(entry)] = (entry, enabled)
    return [
        *others,
        *(f"{name}={','.join(entry for entry, on in features.values() if on is enabled)}" for name, enabled in _FEATURE_SWITCHES.items()),
    ]


def _claim_profile(profile: Path) -> None:
    """Name this process as ``profile``'s owner, as Chromium names itself in ``SingletonLock``."""
    os.symlink(f"{socket.gethostname()}-{os.getpid()}", profile / _OWNERS[0])


def _why_not_launched(error: Exception) -> str:
    """What Playwright's launch error says went wrong: Chromium's own fatal message where its log
    has one (``Socket path too long: …``, a temporary directory deeper than its singleton
    socket's 107 bytes allow), else the error's first line. The error held the whole browser
    log, every switch of the command line included, which the one-line message carried."""
    text = str(error)
    fatal = re.search(r"FATAL:[^\]\n]*\] ([^\n]+)", text)
    return fatal.group(1).strip() if fatal else text.strip().partition("\n")[0]


def _name_browser(profile: Path) -> int | None:
    """Keep the name of the Chromium that uses ``profile`` (its ``SingletonLock``) where Chromium
    does not remove it; the browser process's pid, which a close that hangs kills (None: no lock)."""
    try:
        owner = os.readlink(profile / _OWNERS[1])
        os.symlink(owner, profile / _OWNERS[2])
    except OSError:
        return None  # no lock (another Chromium build): the oracle and the lock still name the users
    pid = owner.rpartition("-")[2]
    return int(pid) if pid.isdigit() else None


#: Seconds the oracle's close (Playwright's close of Chromium, the driver's exit) may take before
#: the browser process and its children are killed: Playwright's close has no time limit, so a
#: Chromium that hung in its close (stopped, or deadlocked in its shutdown) held the command, its
#: interrupts held as it closes, until someone found it and sent kill -9
CLOSE_TIME_LIMIT = 10.0


def _descendants(root: int) -> list[int]:
    """``root`` and every process below it, from ``/proc`` (Linux); elsewhere ``root`` alone."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return [root]
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:  # ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    found, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        waiting.extend(children.get(pid, ()))
    return found


def _close_browser(context: BrowserContext, profile: Path) -> None:
    """Close Chromium, and remove its singleton socket's folder (``org.chromium.Chromium.*`` in
    the temporary directory, named by the profile's ``SingletonSocket`` link) if it is still
    there: Chromium removes it in its close, which a browser killed in a hung close never ends."""
    try:
        context.close()
    finally:
        try:
            socket_path = os.readlink(profile / "SingletonSocket")
        except OSError:  # removed by Chromium's own close
            socket_path = ""
        if os.path.basename(socket_path) == "SingletonSocket":
            shutil.rmtree(os.path.dirname(socket_path), ignore_errors=True)


def _kill_browser(browser: int) -> None:
    """Kill the browser process and every process below it, all found before any is killed (a
    child of a killed browser is handed to init and could no longer be told apart), and only
    if it is this process's own descendant (its pid could have been reused since)."""
    mine = _descendants(os.getpid())
    if browser not in mine and os.path.isdir("/proc"):
        return
    for pid in _descendants(browser):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:  # ended meanwhile
            pass


def remove_stale_profiles(directory: Path) -> None:
    """Remove the profiles that runs killed outright left behind (``kill -9``, the OOM killer):
    no handler runs then, and Playwright's driver, seeing its parent gone, closes Chromium, which
    leaves its profile behind (a few MB each, for ever).

    A profile is stale when every process it names is gone: the oracle that made it
    (``formtools-owner``) and Chromium (``SingletonLock`` while it runs, and the oracle's copy
    ``formtools-browser``, which Chromium does not remove before its process ends), each a
    symbolic link to ``<host>-<pid>``. A profile naming another host or a live process (a run in progress, or a
    reused pid: kept, as a live one must be), or naming no one (not an oracle's), is left alone."""
    host = socket.gethostname()
    for candidate in directory.glob(PROFILE_PREFIX + "*"):
        owners = []
        for link in _OWNERS:
            try:
                owners.append(os.readlink(candidate / link).rpartition("-"))
            except OSError:
                continue
        if owners and all(name == host and pid.isdigit() and not _running(int(pid)) for name, _, pid in owners):
            shutil.rmtree(candidate, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


#: Seconds a child navigable's request waits for a top-level one before it is taken for the
#: submission (see ChromiumOracle._submission)
_CHILD_GRACE = 0.3


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
        self,
        *,
        executable: str = CHROMIUM,
        quiet_turns: int = 3,
        max_turns: int = 1000,
        renew_every: int = 150,
        extra_args: Sequence[str] = (),
        close_time_limit: float = CLOSE_TIME_LIMIT,
    ) -> None:
        self.executable = executable
        #: more command-line switches (a host resolver rule, a test certificate's acceptance)
        self.extra_args = tuple(extra_args)
        self.quiet_turns = quiet_turns
        self.max_turns = max_turns
        #: pages loaded in one tab before it is replaced by a fresh one (see :meth:`renew_page`)
        self.renew_every = renew_every
        #: seconds the close may take before Chromium's processes are killed (see __exit__)
        self.close_time_limit = close_time_limit
        self._browser: int | None = None  # the browser process's pid, once it runs
        self._stack = ExitStack()
        self._site: LocalSite | None = None
        self._context: BrowserContext | None = None
        self._page: Page | None = None
        self._devtools: DevTools | None = None
        self._session_id = ""
        self._numbers = itertools.count(1)
        self._navigations = 0  # main-frame navigations committed so far in this tab
        self._loads = 0  # pages loaded in this tab, and calls made again in a loaded one
        #: the document the tab shows, while nothing but its controls' state and its inputs' value
        #: attributes differs from the page as loaded (see :meth:`execute_at`'s ``again``); None otherwise
        self._as_loaded: _Document | None = None
        self._crashed = False

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
        # Everything started is pushed onto the oracle's own stack at once, and closed here
        # if starting stops, by an interrupt too, wherever it comes: started on a stack of its
        # own that was handed over at the end, a Ctrl-C or SIGTERM after the hand-over (at
        # ``return self``) reached no ``__exit__``, Chromium was left to Playwright's driver,
        # and the profile, removed as Python exited while Chromium still wrote to it, came back
        # for ever with no owner to name (1 in 30 seeded lines of _conformance in ``diff``).
        stack = self._stack = ExitStack()
        try:
            self._site = stack.enter_context(LocalSite())
            # A profile directory of our own, so that DevToolsActivePort can be found in it.
            remove_stale_profiles(Path(tempfile.gettempdir()))
            profile = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=PROFILE_PREFIX)))
            _claim_profile(profile)
            playwright_features = _playwright_feature_switches()
            playwright = stack.enter_context(sync_playwright())
            try:
                context = playwright.chromium.launch_persistent_context(
                    profile,
                    # Playwright's own temporary folder, in the profile: it made one beside it,
                    # which a run stopped while the browser started left behind
                    artifacts_dir=profile / "playwright-artifacts",
                    executable_path=self.executable,
                    args=[*_launch_args(playwright_features, self.extra_args), "--remote-debugging-port=0"],
                    ignore_default_args=list(playwright_features),
                    headless=True,
                )
            except PlaywrightError as error:
                raise BrowserUnavailable(f"could not launch {self.executable}: {_why_not_launched(error)}") from error
            stack.callback(_close_browser, context, profile)
            self._browser = _name_browser(profile)
            self._context = context
            port, path = _devtools_endpoint(profile)
            self._devtools = DevTools(port, path)
            stack.callback(self._devtools.close)
            self._use_page(context.pages[0] if context.pages else context.new_page())
            return self
        except BaseException:
            self.__exit__(None, None, None)
            raise

    def _use_page(self, page: Page) -> None:
        """Make ``page`` the oracle's tab, with its own DevTools session."""
        context, devtools = self._context, self._devtools
        assert context is not None and devtools is not None
        page.on("framenavigated", self._count_navigation)
        page.on("crash", self._note_crash)
        session = context.new_cdp_session(page)
        target_id = session.send("Target.getTargetInfo")["targetInfo"]["targetId"]
        session.detach()
        attached, _ = devtools.command(
            "Target.attachToTarget", {"targetId": target_id, "flatten": True}
        )
        self._page, self._session_id = page, attached["sessionId"]
        self._navigations = self._loads = 0
        self._as_loaded = None
        self._crashed = False

    def renew_page(self) -> None:
        """Replace the tab by a fresh one (and so, its renderer process by a new one).

        Chromium 156's renderer keeps about 1 MB per executed tool call and crashes after a few
        hundred calls (``Page crashed``, or ``net::ERR_INSUFFICIENT_RESOURCES``), so the oracle
        renews its tab every :attr:`renew_every` page loads, and after a crash.
        """
        if self._context is None or self._devtools is None or self._page is None:
            raise RuntimeError("ChromiumOracle is not running; use it as a context manager")
        old_page, old_session = self._page, self._session_id
        self._use_page(self._context.new_page())
        try:
            self._devtools.command("Target.detachFromTarget", {"sessionId": old_session})
        except OracleError:
            pass  # the crashed or closed target is gone already
        old_page.close()

    def _load(self, url: str, timeout: float = 30.0) -> None:
        """Navigate the tab to ``url``, in a fresh tab every :attr:`renew_every` loads."""
        if self._crashed or self._loads >= self.renew_every:
            self.renew_page()
        self._loads += 1
        self._as_loaded = None
        self.page.goto(url, timeout=timeout * 1000)
        self._as_loaded = _Document(url, self._served_at(url))

    def _served_at(self, url: str) -> _Served | None:
        """What :attr:`site` serves at ``url`` now (None: no page of the site's)."""
        origin = self.site.origin
        if not url.startswith(origin + "/"):
            return None
        return self.site.served(url[len(origin) :].partition("#")[0].partition("?")[0])

    def _note_crash(self, page: Page) -> None:
        self._crashed = True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close Chromium and remove its profile, with interrupts held until they are done: a
        first Ctrl-C or SIGTERM as the browser closed (at the end of a run) cut Playwright's
        close short, and Chromium, ended by its driver instead, left its profile or its
        singleton socket's folder (``org.chromium.Chromium.*``) in the temporary directory, or
        wrote the profile as it was removed (``cannot write the output: Directory not
        empty``). The signals after the first are ignored by the command line anyway.

        The close has a total time limit, :attr:`close_time_limit`: past it the browser process
        and its children are killed, which ends Playwright's wait for them (a Chromium that hung
        in its close, with interrupts held, could only be ended by kill -9 from outside)."""
        browser = self._browser
        watchdog = None
        if browser is not None:
            watchdog = threading.Timer(self.close_time_limit, _kill_browser, (browser,))
            watchdog.daemon = True
        with holdable(), held():
            if watchdog is not None:
                watchdog.start()
            try:
                self._stack.close()
            finally:
                if watchdog is not None:
                    watchdog.cancel()
        self._site = self._context = self._page = self._devtools = None
        self._browser = None

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
        headers: Sequence[tuple[str, str]] = (),
        path: str | None = None,
    ) -> list[Tool]:
        """Load ``html`` at a fresh URL and return the tools its document registers.

        Each tool is ``{"name", "title", "description", "inputSchema", "annotations"}`` in
        ``getTools()`` order (sorted by name); ``annotations`` is ``{"autosubmit": bool}``. A
        tool a script registered is ``{"name", "title", "description", ["inputSchema"],
        "script": true}``. A ``str`` is sent as UTF-8, so ``content_type`` should then say
        ``charset=utf-8``. ``headers`` are more response headers (a saved page from elsewhere
        is served with ``Content-Security-Policy: default-src 'self'``, so that neither its
        inline handlers run nor its subresources are fetched from the network). The page is
        served at ``path`` (a fresh ``/oracle/<n>`` by default): there, a call can then be made in
        the document just read (:meth:`execute_at` with ``loaded=True``) rather than in a
        second load of it.

        With ``reevaluate``, once the tools have settled every form is made to re-evaluate its
        tool (a comment is appended and removed), and the tools are read after that. This gives
        the answer for the complete document: Chromium registers a form in a posted task that can
        run while the parser is still inside the form, and a change below the form's direct
        children (more ``<option>`` elements, say) does not re-evaluate it, so on a large page a
        tool can keep a truncated schema.

        The schema is the one DevTools reports, since ``getTools()`` moves integer-like keys to
        the front. For a schema whose text is Latin-1 with non-ASCII characters DevTools reports
        none, and ``getTools()``'s is used; if that also has integer-like keys the order cannot
        be known and :class:`OracleError` is raised.
        """
        url = self._put(html, content_type, headers, path)

        def load_and_read() -> list[Tool]:
            self._load(url)
            if reevaluate:
                self._settled_tools()
            return self._read_tools(url, reevaluate)

        return self._once_more_after_a_crash(load_and_read)

    def _put(
        self, html: str | bytes, content_type: str, headers: Sequence[tuple[str, str]], path: str | None = None
    ) -> str:
        """Serve ``html`` at ``path`` of the site (a fresh ``/oracle/<n>`` by default), and return
        its URL. A ``str`` is sent as UTF-8."""
        body = html.encode("utf-8") if isinstance(html, str) else html
        return self.site.put(path or f"/oracle/{next(self._numbers)}", body, content_type, headers)

    def _once_more_after_a_crash(self, ask: Callable[[], _Answer]) -> _Answer:
        """``ask()``, and if the tab crashed meanwhile, ``ask()`` again in a fresh tab: a crash is
        the tab's fault (see :meth:`renew_page`), not the page's."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            return ask()
        except PlaywrightError:
            if not self._crashed:
                raise
        self.renew_page()
        return ask()

    def _read_tools(self, url: str, reevaluate: bool) -> list[Tool]:
        """The loaded document's tools, once they settled; with ``reevaluate``, after every form
        was made to re-evaluate its tool (see :meth:`tools`)."""
        if reevaluate:
            self.page.evaluate(_REEVALUATE_JS)
        for _ in range(3):  # a mismatch means a tool changed between the two reads
            from_page = self._settled_tools()
            merged = self._merge(from_page, self._replayed_tools())
            if merged is not None:
                return merged
        raise OracleError(f"getTools() and DevTools kept disagreeing about the tools of {url}")

    def stable_tools(
        self,
        html: str | bytes,
        *,
        content_type: str = "text/html; charset=utf-8",
        headers: Sequence[tuple[str, str]] = (),
        reload: bool = True,
        path: str | None = None,
    ) -> OracleAnswer:
        """Ask twice and say whether the answers agree: each time with a fresh navigation, or,
        with ``reload=False``, in one (below).

        The second run re-evaluates every form (see :meth:`tools`), so a page whose answer
        depends on how the parser happened to split it is reported as unstable even when the
        race went the same way twice.

        With ``reload=False`` the page is loaded once: the second answer is read from the same
        document after every form re-evaluated its tool. The re-evaluated answer is the
        complete document's either way, and the first is the one registration raced to, so a
        page whose tool the parser's race truncated (late options) is still reported. Not
        seen: a document that differs from load to load (a script drawing a random number), and
        which of two forms sharing a tool name won (re-evaluation promotes no loser, so the
        second answer keeps the first's winner). For pages with neither (generated markup
        without such scripts, each tool name once) it costs one page load instead of two.

        ``path`` as for :meth:`tools`: the page's calls can then be made in the document read
        last (:meth:`execute` with ``loaded=True`` or ``again=True``; re-evaluation leaves the
        document as it was).
        """
        if reload:
            runs = (
                self.tools(html, content_type=content_type, headers=headers, path=path),
                self.tools(html, content_type=content_type, reevaluate=True, headers=headers, path=path),
            )
        else:
            url = self._put(html, content_type, headers, path)

            def load_and_read_twice() -> tuple[list[Tool], list[Tool]]:
                self._load(url)
                return self._read_tools(url, reevaluate=False), self._read_tools(url, reevaluate=True)

            runs = self._once_more_after_a_crash(load_and_read_twice)
        # compare the JSON text: dict equality would ignore key order and equate 1, 1.0 and true
        stable = dumps(runs[0]) == dumps(runs[1])
        return OracleAnswer(tools=runs[0], stable=stable, runs=runs)

    def execute(
        self,
        html: str | bytes,
        tool_name: str,
        tool_input: Any,
        *,
        content_type: str = "text/html; charset=utf-8",
        path: str | None = None,
        query: str = "",
        wait_for_user: float = 1.0,
        timeout: float = 10.0,
        headers: Sequence[tuple[str, str]] = (),
        landing: bool = True,
        loaded: bool = False,
        again: bool = False,
    ) -> ExecuteAnswer:
        """Load ``html`` and call ``executeTool`` on its tool ``tool_name`` with ``tool_input``.

        ``tool_input`` is any JSON value and is handed to the page as a JavaScript value (a
        ``dict`` becomes an object, keeping its key order except that JavaScript puts
        integer-like keys first); a string, ``None`` or a list shows how binding rejects it.

        The page is loaded afresh for every call, so a call never sees an earlier call's values
        (with ``again``, its forms are reset instead where that gives the same page).
        It is served at ``path`` (a fresh ``/oracle/<n>`` by default); give a fixed path when the
        answer must not depend on the call's number, since ``action=""`` submits to the page's
        own URL. ``query`` (a query and/or fragment, ``?…#…``) is appended to the URL the page is
        loaded from, which its Referer headers show. A ``str`` is sent as UTF-8, so ``content_type`` should then say
        ``charset=utf-8``; pass ``"text/html"`` to let the page's ``<meta charset>`` decide.
        ``headers`` are more response headers, as for :meth:`tools`.

        If the form is submitted, the answer's ``request`` is the submission that arrived at
        :attr:`site`: the navigation request made after the call started, the top-level one or
        that of the iframe the form targets (the favicon and other subresources are not
        navigations), and the call returns once it arrived and its navigation ended: a landing
        page the site serves (:meth:`LocalSite.put`) committed and loaded; to any other path of
        the site the submission is answered ``204 No Content``, and the tab stays on the form's
        page (nothing of a landing document is asked, and loading one cost a page load). Actions
        must therefore point at the site; relative URLs do. With ``landing=False`` the caller
        reads nothing of where the call lands, and a submission to a page the site serves is
        answered ``204 No Content`` too: the answer is the same (it is made of the call's
        promise, its ``navigate`` event and the request as it arrived, before any answer), and
        a form submitting to its own page (``action=""``) no longer loads it a second time. A
        call still pending after ``wait_for_user`` seconds (a form without ``toolautosubmit``
        waits for a click) is aborted and answered with ``waiting_for_user``. ``loaded``: the tab
        shows this page at ``path`` already, as :meth:`tools` left it (see :meth:`execute_at`).
        ``again``: the call may be made where the last load at this URL, or ``again`` call, left
        the page (see :meth:`execute_at`).

        Raises :class:`OracleError` if the page registers no such tool, or if a navigation the
        call started never arrived.
        """
        url = self._put(html, content_type, headers, path) + query
        return self.execute_at(
            url, tool_name, tool_input, wait_for_user=wait_for_user, timeout=timeout, landing=landing, loaded=loaded,
            again=again,
        )

    def execute_at(
        self,
        url: str,
        tool_name: str,
        tool_input: Any,
        *,
        wait_for_user: float = 1.0,
        timeout: float = 10.0,
        loaded: bool = False,
        landing: bool = True,
        again: bool = False,
    ) -> ExecuteAnswer:
        """:meth:`execute` on a page served elsewhere (over TLS, say): the submission must still
        go to :attr:`site`, which records it. ``landing`` as for :meth:`execute`.

        ``loaded``: the tab shows ``url`` already, loaded by the caller (``page.goto``) and only
        read since, so the call is made in that document rather than in a second load of the
        same page (a load is about 0.1 s of Chromium's CPU; a test that reads the page and then
        calls its tool paid it twice). The page is loaded afresh only to try again after a
        crash. :class:`ValueError` if the tab shows another URL.

        ``again``: the call is made in the document the tab shows when that is the one the last
        load of ``url`` made and nothing but its controls' state can differ from the page as
        loaded: the site still serves the page it was loaded from, and it was only read since,
        or only called with ``again``, each call refused or submitted without leaving its URL
        (answered ``204 No Content``, say). Its inputs then get back the value attributes they
        were loaded with (read before its first call: filling a hidden parameter rewrites its
        value attribute, where an input in value mode "default" keeps its value) and its forms
        are reset (``HTMLFormElement.prototype.reset``, open shadow trees too), which gives
        every control the value, checkedness and selectedness a fresh load gives it, and the
        call costs no page load. Otherwise (a call that landed elsewhere, navigated within the
        document, closed a dialog, waited for a user or failed; a call without ``again``;
        another page loaded since, or other content or a redirect put at the URL) the page is
        loaded afresh. Only for a page whose document holds no state of its own beyond its controls'
        (no script, event handler, nested document, refresh or closed shadow root:
        ``tests/support/parity.py::calls_may_share_a_load``), which the caller has not changed
        itself. Each such call counts as a load towards :attr:`renew_every` (the renderer's
        memory grows with calls), and a tab due for renewal is renewed by a fresh load."""
        from playwright.sync_api import Error as PlaywrightError

        if loaded and self.page.url != url:
            raise ValueError(f"the tab shows {self.page.url}, not {url}")
        served = self._served_at(url)
        reuse = (
            again
            and served is not None
            and self._as_loaded is not None
            # (the page served then is the page served now)
            and (self._as_loaded.url, self._as_loaded.served) == (url, served)
            and self.page.url == url
            and not self._crashed
            and self._loads < self.renew_every
        )
        for attempt in (1, 2):
            try:
                if attempt == 2 or not (loaded or reuse):
                    self._load(url, timeout)
                elif reuse:
                    self._loads += 1
                else:  # loaded by the caller
                    self._as_loaded = _Document(url, served)
                document, self._as_loaded = self._as_loaded, None
                document = self._as_loaded_for_again(document) if again else None
                # a submission to a path the site has no page for gets no landing document
                with self.site.without_landing(pages_too=not landing):
                    answer = self._execute(tool_name, tool_input, wait_for_user, timeout)
                # refused, or submitted and still at the page (answered 204, or landed on a new
                # load of the same URL): nothing but the controls' state changed
                left_as_loaded = answer.error is not None or (answer.request is not None and self.page.url == url)
                self._as_loaded = document if left_as_loaded else None
                return answer
            except PlaywrightError as error:
                crashed = self._crashed
                self._recover()
                if not (crashed and attempt == 1):  # a crash is the tab's fault: try again
                    raise OracleError(
                        f"executing {tool_name!r} on {url} failed: {error}"
                    ) from error
        raise AssertionError("unreachable")

    def _as_loaded_for_again(self, document: _Document | None) -> _Document:
        """``document``, the one the tab shows, as loaded before a call that may be followed by
        another in it (:meth:`execute_at`'s ``again``): called before, it gets back its inputs'
        value attributes and its forms are reset; else its inputs' value attributes are read,
        for the resets to come."""
        assert document is not None  # (loaded, or shown and left as loaded)
        if document.value_attributes is None:
            return replace(document, value_attributes=tuple(self.page.evaluate(_VALUE_ATTRIBUTES_JS)))
        if not self.page.evaluate(_RESET_JS, list(document.value_attributes)):
            raise OracleError(f"{document.url} holds other inputs than it was loaded with: a script ran")
        return document

    def _execute(self, tool_name: str, tool_input: Any, wait_for_user: float, timeout: float) -> ExecuteAnswer:
        """Call the tool in the document the tab shows. Inside
        :meth:`LocalSite.without_landing` (see :meth:`execute_at`), a submission to a path the
        site has no page for gets no landing document, redirects and all: nothing of it is
        asked, and loading it cost a page load."""
        page = self.page
        first_request = len(self.site.requests)
        navigations = self._navigations
        answered_before = self.site.no_content_answers
        # The promise can settle after the submission's response arrived; were that response
        # answered at once, the new document could replace the page before evaluate() returns.
        with self.site.holding_navigations(timeout):
            answer = page.evaluate(
                _EXECUTE_JS, [tool_name, tool_input, self.max_turns, round(wait_for_user * 1000)]
            )
        if answer.get("missing") == "webmcp":
            raise OracleError(
                "document.modelContext is missing: WebMCP is not enabled in this Chromium"
            )
        if answer.get("missing") == "tool":
            raise OracleError(f"the page registers no tool named {tool_name!r}")
        navigated = answer["navigated"]
        navigated_to = None
        request = None
        if navigated is not None:
            navigated_to = self._site_relative(navigated["url"])
            if not navigated["sameDocument"]:
                self._wait_for_landing(navigations, answered_before, timeout)
                # the window itself navigated: the submission is its top-level document request,
                # not a child navigable's load (an iframe the submit event's handler added)
                request = self._submission(first_request, navigated["url"], top_level=True)
        elif "result" in answer:
            # No navigation in this window; a submission into a new one (target=_blank) would
            # still reach the site as a document request, so give it a moment to show up.
            time.sleep(0.05)
            request = self._submission(first_request, None, required=False)
        return ExecuteAnswer(
            error=answer.get("error"),
            request=request,
            result=answer.get("result"),
            error_name=answer.get("errorName"),
            navigated_to=navigated_to,
            waiting_for_user=bool(answer.get("waiting")),
        )

    def _recover(self) -> None:
        """Leave the page on ``about:blank`` after a failed call, once navigations settled.

        A navigation the failed call started can still commit later and would interrupt the
        next ``goto``; so go to ``about:blank`` until that succeeds twice in a row.
        """
        from playwright.sync_api import Error as PlaywrightError

        if self._crashed or self.page.is_closed():
            self.renew_page()
            return
        successes = 0
        for _ in range(10):
            try:
                self.page.goto("about:blank", timeout=5000)
                self.page.wait_for_timeout(50)
            except PlaywrightError:
                successes = 0
                continue
            successes += 1
            if successes == 2:
                return

    def _count_navigation(self, frame: Any) -> None:
        if frame.parent_frame is None:
            self._navigations += 1

    def _wait_for_landing(self, navigations: int, answered_before: int, timeout: float) -> None:
        """Wait until the main frame's navigation ended: it committed a document after the
        ``navigations``-th, which is then loaded, so that the next ``goto`` cannot be
        interrupted by it; or the site answered it ``204 No Content`` (after the
        ``answered_before`` such answers it had given), after every redirect it made. Past
        ``timeout`` it raises Playwright's own timeout, so that :meth:`execute_at` leaves the tab
        as after any failed call (:meth:`_recover`)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self.page
        deadline = time.monotonic() + timeout

        def answered() -> bool:
            return self.site.no_content_answers > answered_before

        # Released, the site answers a held navigation within milliseconds: watched here first
        # without a round trip to the browser (a commit's event would wait for the next one).
        glance = time.monotonic() + 0.03
        while not answered() and time.monotonic() < glance:
            time.sleep(0.002)
        while not answered() and self._navigations == navigations:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise PlaywrightTimeout(f"the call's navigation neither committed nor ended in {timeout} s")
            try:
                page.wait_for_event(
                    "framenavigated",
                    predicate=lambda frame: frame.parent_frame is None,
                    timeout=min(remaining, 0.05) * 1000,
                )
            except PlaywrightTimeout:
                pass  # look at the site's answers again
        if self._navigations > navigations:
            page.wait_for_load_state("load", timeout=timeout * 1000)

    def _submission(
        self, first: int, url: str | None, *, required: bool = True, top_level: bool = False
    ) -> SubmittedRequest | None:
        """The first navigation request the site received since request number ``first``: a
        top-level document's (this window's, or a new one's), else (unless ``top_level``) a
        child navigable's (a form whose target is an iframe). A top-level one comes first
        whatever the order of arrival: a child a submit handler adds can load before it, so a
        child's is taken only once no top-level one came for :data:`_CHILD_GRACE` seconds after
        it (taken at once, a child's request that arrived a few milliseconds before the
        window's, on a loaded machine, was reported as the submission)."""
        deadline = time.monotonic() + 5.0
        child_since: float | None = None
        while True:
            received = self.site.requests[first:]
            found = next((request for request in received if request.is_document), None)
            if found is None and not top_level:
                child = next((request for request in received if request.is_navigation), None)
                if child is not None:
                    child_since = child_since or time.monotonic()
                    if time.monotonic() - child_since >= _CHILD_GRACE:
                        found = child
                    else:
                        time.sleep(0.002)
                        continue
            if found is not None:
                return _submitted(found)
            if not required or time.monotonic() > deadline:
                if required:
                    raise OracleError(f"the call navigated to {url} but no request arrived")
                return None
            time.sleep(0.002)

    def _site_relative(self, url: str) -> str:
        origin = self.site.origin
        return url[len(origin) :] if url.startswith(origin + "/") else url

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

    def _replayed_tools(self) -> dict[str, dict[str, Any]]:
        """The main frame's tools as DevTools replays them, by name."""
        devtools, session_id = self._devtools_connection
        tree, _ = devtools.command("Page.getFrameTree", session_id=session_id)
        # `enable` sends the replayed `toolsAdded` events before its reply.
        _, events = devtools.command("WebMCP.enable", session_id=session_id)
        devtools.command("WebMCP.disable", session_id=session_id)
        return {
            tool["name"]: tool
            for event in events
            if event.get("method") == "WebMCP.toolsAdded"
            for tool in event["params"]["tools"]
            if tool["frameId"] == tree["frameTree"]["frame"]["id"]
        }

    @staticmethod
    def _merge(from_page: list[Tool], replayed: dict[str, dict[str, Any]]) -> list[Tool] | None:
        """Join the two sources; ``None`` if they do not describe the same tools.

        The schema is DevTools' when it has one. DevTools leaves ``inputSchema`` out when the
        schema's text is Latin-1 with non-ASCII characters (it seems to read the 8-bit string as
        UTF-8); then ``getTools()``'s is used, unless integer-like keys make its order unknowable.
        When those characters happen to be valid UTF-8, DevTools gives the schema so misread:
        ``getTools()``'s is used then too.

        A tool a script registered (``document.modelContext.registerTool``: DevTools gives it a
        ``stackTrace`` instead of the form's ``backendNodeId``) is kept as ``getTools()`` lists
        it, ``inputSchema`` only if the script gave one, and marked ``"script": true``.
        """
        if replayed.keys() != {tool["name"] for tool in from_page}:
            return None
        merged = []
        for tool in from_page:
            reported = replayed[tool["name"]]
            if "backendNodeId" not in reported:  # registered by a script (registerTool), not a form
                merged.append({**tool, "script": True})  # its inputSchema is optional
                continue
            schema = reported.get("inputSchema")
            if reported["description"] != tool["description"]:
                return None
            if schema is None:
                if _has_index_keys(tool["inputSchema"]):
                    raise OracleError(
                        f"tool {tool['name']!r}: DevTools gave no schema (non-ASCII Latin-1 text)"
                        " and getTools() reorders its integer-like keys, so the key order is"
                        " unknown"
                    )
                schema = tool["inputSchema"]
            elif _as_doubles(schema) != _as_doubles(tool["inputSchema"]):
                if _as_doubles(schema) != _as_doubles(_misread_latin1(tool["inputSchema"])):
                    return None
                schema = tool["inputSchema"]  # the page's own text, which DevTools misread
            merged.append(
                {
                    **tool,
                    "inputSchema": schema,
                    "annotations": {
                        "autosubmit": reported.get("annotations", {}).get("autosubmit") is True
                    },
                }
            )
        return merged

    def agent_answer(
        self, url: str, tool_name: str, tool_input: Any, *, pending_after: float = 6.0
    ) -> tuple[dict[str, Any], str]:
        """What an *agent* is handed for a call of tool ``tool_name`` of the page at ``url``,
        and the main frame's URL at that moment (where the tab landed).

        The page API (:meth:`execute`) resolves ``null`` as soon as the form submits; an agent's
        answer is the DevTools ``WebMCP.toolResponded`` event of ``WebMCP.invokeTool``:
        ``{"status": "Completed", "output": …}`` (the landing document's JSON-LD blocks; DevTools
        gives an output nested deep as its JSON text), ``{"status": "Error", "errorText": …}``,
        or ``{"status": "pending"}`` when nothing came within ``pending_after`` seconds (a new
        window, a ``javascript:`` action…). The tab is replaced afterwards."""
        page = self.page
        page.goto(url)
        page.wait_for_function(
            "async (name) => (await document.modelContext.getTools()).some(tool => tool.name === name)",
            arg=tool_name,
        )
        devtools, session = self._devtools_connection
        tree, _ = devtools.command("Page.getFrameTree", session_id=session)
        frame = tree["frameTree"]["frame"]["id"]
        devtools.command("WebMCP.enable", session_id=session)
        try:
            _, events = devtools.command(
                "WebMCP.invokeTool",
                {"frameId": frame, "toolName": tool_name, "input": tool_input},
                session_id=session,
            )
            deadline = time.monotonic() + pending_after
            while True:
                for event in events:
                    if event.get("method") == "WebMCP.toolResponded":
                        params = event["params"]
                        answer = {"status": params["status"]}
                        answer.update({key: params[key] for key in ("output", "errorText") if key in params})
                        return answer, self._frame_url()
                if time.monotonic() > deadline:
                    return {"status": "pending"}, self._frame_url()
                time.sleep(0.05)
                _, events = devtools.command("Runtime.evaluate", {"expression": "0"}, session_id=session)
        finally:
            devtools.command("WebMCP.disable", session_id=session)
            self.renew_page()

    def _frame_url(self) -> str:
        """The main frame's committed URL, as DevTools gives it (the page's own ``url`` can lag)."""
        devtools, session = self._devtools_connection
        tree, _ = devtools.command("Page.getFrameTree", session_id=session)
        frame = tree["frameTree"]["frame"]
        return str(frame["url"]) + str(frame.get("urlFragment", ""))

    @property
    def stamp(self) -> dict[str, Any]:
        """What a recording was made with: the browser's product string (``Chrome/156.0…``) and
        the command-line flags, so that recordings of different browsers are never mixed."""
        devtools, _ = self._devtools_connection
        version, _ = devtools.command("Browser.getVersion")
        return {"product": version["product"], "flags": list(CHROMIUM_ARGS)}

    @property
    def _devtools_connection(self) -> tuple[DevTools, str]:
        if self._devtools is None:
            raise RuntimeError("ChromiumOracle is not running; use it as a context manager")
        return self._devtools, self._session_id


def _submitted(received: RecordedRequest) -> SubmittedRequest:
    """``received`` with its multipart boundary, if any, replaced by ``BOUNDARY``."""
    content_type = received.header("Content-Type")
    body = received.body
    if content_type is not None:
        kind, _, parameters = content_type.partition(";")
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if (
                key.lower() == "boundary"
                and value
                and kind.strip().lower().startswith("multipart/")
            ):
                content_type = content_type.replace(value, BOUNDARY)
                body = body.replace(value.encode("latin-1"), BOUNDARY.encode("ascii"))
    return SubmittedRequest(
        method=received.method, url=received.target, content_type=content_type, body=body
    )


def _devtools_endpoint(profile: Path, timeout: float = 10.0) -> tuple[int, str]:
    """The port and path Chromium wrote to ``DevToolsActivePort`` once it was listening."""
    active_port = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while True:
        lines = active_port.read_text("ascii").split() if active_port.exists() else []
        if len(lines) == 2:
            return int(lines[0]), lines[1]
        if time.monotonic() > deadline:
            raise OracleError(f"Chromium did not write {active_port}")
        time.sleep(0.01)


def _misread_latin1(value: Any) -> Any:
    """``value`` with every string as DevTools misreads an 8-bit string whose bytes happen to
    be valid UTF-8: decoded as UTF-8 (a page without a declared encoding, read as
    windows-1252, that holds UTF-8 bytes, say); a string it cannot misread stays as it is."""
    if isinstance(value, str):
        try:
            return value.encode("latin-1").decode("utf-8")
        except UnicodeError:
            return value
    if isinstance(value, dict):
        return {_misread_latin1(key): _misread_latin1(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_misread_latin1(item) for item in value]
    return value


def _as_doubles(value: Any) -> Any:
    """A JSON value with every number as a double, as JavaScript holds it: Playwright hands
    ``getTools()``'s 1.2345678901234568e+20 over as the integer 123456789012345680000, which
    Python does not equal to the double DevTools' JSON text gives."""
    if isinstance(value, dict):
        return {key: _as_doubles(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_doubles(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def _has_index_keys(value: Any) -> bool:
    """Whether some object in ``value`` has a key JavaScript orders first (an array index)."""
    if isinstance(value, dict):
        return any(
            (key.isascii() and key.isdigit() and key == str(int(key)) and int(key) < 2**32 - 1)
            or _has_index_keys(item)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_has_index_keys(item) for item in value)
    return False
