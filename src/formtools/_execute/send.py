"""Stages 8–9 — send and result: a :class:`~formtools._execute.request.Request` over HTTP → the tool result.

Chromium answers a declarative tool call that navigated with the JSON-LD of the page the form
led to: a JSON array of every ``<script type="application/ld+json">`` in it, in order, comments
allowed, empty and unparsable blocks skipped. :class:`ToolResult` carries that array plus what a
caller without a browser also wants (status code, final URL, optionally the page text).

Sending is the only I/O of execution; :func:`send_request` and :func:`asend_request` differ only in the client.
"""

from __future__ import annotations

import io
import json
import math
import re
import secrets
import sys
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any


from lxml import etree

from formtools.errors import BadURL, Blocked, FetchError, ParseTimeLimit, Refused, SendError, TooLarge, UnfollowedRedirect, quoted, require, shown

if TYPE_CHECKING:  # the fetch layer (httpx, httpcore) loads with the first send, not before:
    # a dry run or a crawler that only builds requests never pays for it
    import anyio
    import httpx

    from formtools._net import AsyncFetcher, FetchPolicy, Initiator, Response
from formtools._parse.document import Document
from formtools._parse import DEFAULT_TIME_LIMIT, parse_html
from formtools._parse.charset import settle_xml_encoding
from formtools._spec.decoding import decode_until_error
from formtools._spec.jsjson import copy_json, nests_deeper
from formtools._spec.limits import MAX_PAGE_BYTES, too_large
from formtools._spec.csp import sandbox_flags
from formtools._spec.mime import media_type, no_page, renders_as_html, shown_type
from formtools._spec.url import same_origin_urls
from formtools._execute.request import NoRequest, Request

__all__ = ["SecretReference", "ToolResult", "landed", "landing_result", "withheld_as_secret", "send_request", "asend_request", "json_ld_of", "page_text", "not_sent"]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = MAX_PAGE_BYTES  # a submission's answer is a page: the one limit


@dataclass(frozen=True)
class SecretReference:
    """What an agent is given instead of a sensitive output: the ``secret_reference`` content
    item of webmcp#110 ("tools can return opaque references instead of raw secrets").

    ``id`` is opaque (random, per call), ``label`` names the secret for a person, and
    ``redeem_url`` is where a person's user agent fetches it again with the user's credentials —
    the proposal's redemption contract is ``GET`` on a URL of the page's origin, so there is one
    only when the landing page was reached by a GET (a GET form, or a POST answered with a
    redirect); the answer to a POST itself cannot be fetched again and is only withheld.
    """

    id: str
    label: str
    redeem_url: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "secret_reference", "id": self.id, "label": self.label}
        if self.redeem_url is not None:
            data["redeemUrl"] = self.redeem_url
        return data


@dataclass(frozen=True)
class ToolResult:
    """The outcome of a tool call.

    ``status``: ``completed`` (the form was submitted; ``json_ld`` is Chromium's tool result),
    ``awaiting-user`` (the form has no ``toolautosubmit`` and the call was not confirmed; the
    prepared ``request`` is here, unsent), or ``not-sent`` (``method=dialog``, ``mailto:``,
    ``javascript:``, a scheme Chromium does not navigate to; ``result`` is then ``null``).

    ``landing`` says which browsing context the submission navigated (the form's ``target``):
    ``self`` (the page: the result is its JSON-LD), ``frame`` (an iframe of the page: the result
    is the frame's new document's JSON-LD, as Chromium gives it) or ``new`` (``_blank`` or a name
    no frame has: a new window; Chromium returns no result, so ``result`` is ``null``). A
    landing page of another origin than the form's page gives no result either (Chromium
    answers "Cannot return tool results after a cross-origin navigation").

    ``sensitive`` is set when the tool's output is sensitive (its ``sensitiveHint``, webmcp#110,
    where withholding is a processing requirement): the agent-facing views (:attr:`result`,
    :meth:`to_dict`, :attr:`shown_url`) then carry ``secret_reference`` instead of the output,
    no page text and URLs without their queries; the output stays in ``json_ld`` and ``text``
    for the caller's own code and for ``to_dict(reveal=True)``.
    """

    status: str
    request: Request | None = None
    status_code: int | None = None
    url: str | None = None
    json_ld: tuple[Any, ...] = ()
    text: str | None = None
    reason: str | None = None
    redirects: tuple[str, ...] = field(default=())
    landing: str = "self"
    withheld: bool = False  # Chromium gives the agent no result (another window, another origin)
    final_method: str = "GET"  # of the request that fetched the landing page (after redirects)
    sensitive: bool = False  # the tool's output is sensitive (sensitiveHint): withheld from agents
    secret_reference: SecretReference | None = None

    def __post_init__(self) -> None:
        """The landing URL and every redirect without user name and password. A fetch keeps a
        page URL's credentials on every hop a relative ``Location`` leads to (they go on as
        ``Authorization: Basic``), and a result is what gets shown: to an agent, on a terminal,
        in a ``repr()`` (a result of ``send_request`` printed them all)."""
        if self.url is not None:
            object.__setattr__(self, "url", shown(self.url))
        object.__setattr__(self, "redirects", tuple(map(shown, self.redirects)))

    @property
    def shown_url(self) -> str | None:
        """:attr:`url` as an agent may see it: without its query and fragment when the output
        is sensitive (a landing URL can carry the secret, ``/done?key=…``)."""
        return _without_query(self.url) if self.sensitive else self.url

    @property
    def output(self) -> list[Any] | None:
        """What Chromium hands the agent: the landing document's JSON-LD blocks, or ``None``
        when it gives no result (nothing submitted, another window, another origin, a download;
        ``fixtures/expected/results.json`` records each case from the browser)."""
        if self.status != "completed" or self.withheld:
            return None
        blocks: list[Any] = copy_json(self.json_ld)  # its own copy: an agent's changes stay out of the result
        return blocks

    @property
    def result(self) -> list[Any] | None:
        """What formtools hands an agent: :attr:`output`, unless it is sensitive (then ``None``
        and :attr:`secret_reference` stands in for it)."""
        return None if self.secret_reference is not None else self.output

    def to_dict(self, *, reveal: bool = False) -> dict[str, Any]:
        """The result as JSON-ready data for an agent; ``reveal`` puts a sensitive output back
        (for a person, e.g. ``formtools call --reveal`` at a terminal)."""
        data: dict[str, Any] = {"status": self.status}
        hide = self.sensitive and not reveal
        if self.status == "completed":
            data.update(
                status_code=self.status_code,
                url=self.shown_url if hide else self.url,
                result=self.output if reveal else self.result,
            )
            if self.sensitive:
                data["sensitive"] = True
            if self.secret_reference is not None and not reveal:
                data["secret_reference"] = self.secret_reference.to_dict()
            if self.landing != "self":
                data["landing"] = self.landing
            if self.reason is not None:
                data["reason"] = self.reason
            if self.redirects:
                data["redirects"] = [_without_query(u) if hide else u for u in self.redirects]
            if self.text is not None and not hide:
                data["text"] = self.text
        else:
            data["reason"] = self.reason
            if self.request is not None:
                data["request"] = self.request.to_dict()
        return data


def _strip_comments(text: str) -> str:
    """JSON as Chromium's reader takes it → plain JSON: ``//`` and ``/* */`` comments dropped,
    and the escape ``\\v`` in a string written ``\\u000b`` (Chromium 156 reads it as a vertical
    tab, where JSON and Python's parser refuse the block; ``\\x41`` it refuses too)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(_ESCAPE.sub(_vertical_tab, text[i : end + 1]))
            i = end + 1
        elif text.startswith("//", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            if close < 0:
                raise ValueError("unterminated comment")
            out.append(" ")
            i = close + 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


_ESCAPE = re.compile(r"\\.", re.DOTALL)


def _vertical_tab(escape: re.Match[str]) -> str:
    return "\\u000b" if escape.group() == "\\v" else escape.group()


# Chromium keeps a JSON-LD block nested up to 1,000 levels deep and skips a deeper one, as it
# skips any block it cannot parse. A level is a value: a member is one level deeper than its
# container, and the innermost value counts too, a scalar as an empty array or object (measured:
# 1,000 nested empty arrays kept; 999 arrays around a number kept, 1,000 around one skipped;
# see scripts/record_chromium_results.py). Python's parser recurses once per level.
MAX_JSON_DEPTH = 1000
def _kept(value: Any) -> bool:
    """Whether Chromium keeps a parsed block: nested no deeper than ``MAX_JSON_DEPTH`` (levels
    counted as Chromium counts them), and no string or key holding a lone surrogate (``"\\udc00"``,
    a pair written low first), which its reader refuses where Python's keeps it."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > MAX_JSON_DEPTH:
            return False
        if isinstance(item, dict):
            if any(_LONE_SURROGATE.search(key) for key in item):
                return False
            stack.extend((member, level + 1) for member in item.values())
        elif isinstance(item, list):
            stack.extend((member, level + 1) for member in item)
        elif isinstance(item, str) and _LONE_SURROGATE.search(item):
            return False
    return True


# Python's parser joins an escaped pair into one character: a surrogate left is a lone one
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _parsed(text: str) -> Any:
    """One block's JSON, or ``_SKIPPED`` where Chromium skips it (unparsable or too deep)."""
    try:
        plain = _strip_comments(text)
    except ValueError:
        return _SKIPPED
    if nests_deeper(plain, MAX_JSON_DEPTH):
        return _SKIPPED
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, MAX_JSON_DEPTH * 2 + 200))  # a block as deep as Chromium keeps
    try:
        value = json.loads(plain, parse_constant=_not_json, parse_int=_js_integer, parse_float=_js_float)
    except ValueError:
        return _SKIPPED
    finally:
        sys.setrecursionlimit(limit)
    return value if _kept(value) else _SKIPPED


_SKIPPED = object()


def _not_json(constant: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's parser accepts and JSON, and so
    Chromium's reader, does not: the block is skipped."""
    raise ValueError(f"{constant} is not JSON")


def _js_float(text: str) -> float:
    """A number with a fraction or exponent as Chromium's reader takes it: a double, and one
    beyond the doubles (``1e309``, ``-1e400``) skips the block, where Python reads ±Infinity
    (``1e-400`` is 0)."""
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"{text} is beyond the doubles")
    return number


def _js_integer(digits: str) -> int | float:
    """An integer as Chromium's reader takes it: a double, so one beyond 2**53 is rounded as
    JavaScript rounds it (``12345678901234567890`` is ``12345678901234567000``), and one beyond
    the doubles (400 digits) skips the block. Python's exact ``int`` is kept where the double is
    the same number, so that ``5`` stays ``5``."""
    number = _js_float(digits)
    exact = int(digits)  # at most 309 digits once the double is finite
    return exact if exact == number else number


def json_ld_of(document: Document) -> tuple[Any, ...]:
    """Every parsable ``application/ld+json`` block of a page, in document order."""
    found = []
    # as Chromium finds them: the type exactly as written (no other case, no white space around,
    # no parameters), and never inside a template (nor a declarative shadow root, one too),
    # whose contents are no part of the document
    walker = etree.iterwalk(document.root, events=("start",), tag=("script", "template"))
    for _, script in walker:
        if script.tag == "template":
            walker.skip_subtree()
            continue
        if script.get("type") != "application/ld+json":
            continue
        found.append(document.restore("".join(script.itertext())))
    return _blocks(found)


def _blocks(texts: list[str]) -> tuple[Any, ...]:
    """The JSON of the blocks' texts Chromium keeps, in order (an empty one it skips too)."""
    values = (_parsed(text) for text in texts if text.strip())
    return tuple(value for value in values if value is not _SKIPPED)


_XHTML = "{http://www.w3.org/1999/xhtml}"

# The types Chromium 156 renders as an XML document, whose XHTML-namespaced scripts are the
# page's (a feed, application/rss+xml or atom+xml, it shows as text, and text/foo+xml too)
# (XHTML too: Chromium parses it with its XML parser, so its JSON-LD is what that parser builds)
_XML_TYPES = re.compile(r"(?:text|application)/xml|image/svg\+xml|application/xhtml\+xml")
# an XML declaration's version and encoding pseudo-attributes, each value quoted and closed
# (XML 1.0 §2.8 and §4.3.3: S, Eq, the same quote at both ends), the encoding's value a group
_DECLARED_ENCODING = re.compile(
    r"""<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"[^"]*"|'[^']*')[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)')"""
)


def _unjudged_encoding_name(text: str) -> str:
    """``text`` with the encoding name of its XML declaration, when quoted and closed, made one
    libxml2 takes: Chromium 156 reads an ``image/svg+xml`` document whose declaration names an
    encoding by no valid name (``encoding="866"``, ``""``, ``"a b"``, ``"-x"``: XML's EncName
    begins with a letter) where it stops an ``application/xml`` or ``text/xml`` one at that
    fatal error, before any element (measured live, tests/test_browser_landing.py; an unquoted
    or unclosed value is the fatal error in both). The name decides nothing here: the text is
    already decoded, and parsed with the declaration's encoding ignored."""
    found = _DECLARED_ENCODING.match(text)
    if found is None:
        return text
    group = 1 if found.group(1) is not None else 2
    return text[: found.start(group)] + "UTF-8" + text[found.end(group) :]


def xml_json_ld_of(body: bytes, content_type: str | None) -> tuple[Any, ...]:
    """Every parsable ``application/ld+json`` block of an XML answer, in document order, as
    Chromium 156 finds them (tests/test_browser_landing.py): ``script`` elements in the XHTML
    namespace anywhere in the document (``<h:script xmlns:h=…>`` in ``application/xml``, an
    SVG's), never inside an XHTML ``template``, internal entities expanded, and the document
    built before a fatal error kept (Chromium shows the error, and the scripts before it).
    External entities and DTDs are never loaded.

    The bytes are decoded as Chromium decodes an XML document (:func:`settle_xml_encoding`: a
    BOM over the ``Content-Type`` charset over the XML declaration, else UTF-8), by the
    Encoding Standard's decoder of any label (libxml2's own, which lxml offers, know neither
    ``x-user-defined`` nor ``replacement``), up to the decoder's first error, a fatal error of
    the document; the text is then parsed with its declaration's encoding ignored, as
    Chromium's parser ignores it once the text is decoded."""
    settled = settle_xml_encoding(body, content_type)
    text = decode_until_error(body[settled.bom_length :], settled.encoding.name)
    if media_type(content_type) == "image/svg+xml":
        text = _unjudged_encoding_name(text)
    texts: list[str] = []
    inside_templates = 0
    # a lone surrogate (Big5 decodes one) passes as bytes libxml2 stops at, as Chromium's stops
    events = etree.iterparse(
        io.BytesIO(text.encode("utf-8", "surrogatepass")),
        events=("start", "end"),
        encoding="utf-8",
        resolve_entities="internal",
        no_network=True,
    )
    try:
        for event, element in events:
            if element.tag == _XHTML + "template":
                inside_templates += 1 if event == "start" else -1
            elif event == "end" and element.tag == _XHTML + "script" and not inside_templates:
                if element.get("type") == "application/ld+json":
                    texts.append("".join(element.itertext()))
    except etree.XMLSyntaxError:
        pass  # the scripts before the error are the document's
    return _blocks(texts)


_NOT_TEXT = frozenset({"script", "style", "template", "noscript", "head"})


def page_text(document: Document) -> str:
    """The page's words, whitespace collapsed, without scripts, styles and templates."""
    words: list[str] = []
    walker = etree.iterwalk(document.root, events=("start", "end"))
    for event, element in walker:
        if event == "start":
            if isinstance(element.tag, str) and element.tag in _NOT_TEXT:
                walker.skip_subtree()
            elif isinstance(element.tag, str):
                words.append(element.text or "")
        elif element is not document.root:
            words.append(element.tail or "")
    return " ".join(document.restore(" ".join(words)).split())


def _sandboxed(response: Response) -> bool:
    """Whether a ``Content-Security-Policy`` header (any of its policies) holds a ``sandbox``
    directive without ``allow-same-origin``: the document's origin is then opaque, another than
    the form's page's."""
    flags = sandbox_flags(response.headers.get_list("content-security-policy"))
    return any("allow-same-origin" not in allowed for allowed in flags)


def _why_no_result(response: Response) -> str | None:
    """Why Chromium gives the agent no result for an answer (the call still completed), or None
    when the answer is a page of the form's origin whose JSON-LD is the result."""
    if response.status in (204, 205):
        # no content: the navigation is not committed, the page stays, and the call never
        # completes (Chromium 156: no toolResponded)
        return f"the answer is HTTP {response.status}, no content: the page stays where it was and Chromium returns no result"
    if no_page(response.head, response.body) is not None:
        return "the answer is a download: Chromium returns no result for it"
    if _sandboxed(response):
        return (
            "the form was submitted and landed on a page its Content-Security-Policy sandboxes into an "
            "opaque origin, whose page no result comes from (Chromium answers such a call with the error "
            "'Cannot return tool results after a cross-origin navigation')"
        )
    return None


def landing_result(request: Request | None, response: Response, include_text: bool = False) -> ToolResult:
    """The tool result of the answer a submission landed on, as Chromium gives it: none where
    it gives none (:func:`_why_no_result`); else the page's JSON-LD (and, with ``include_text``, its words), parsed within
    :data:`~formtools._parse.DEFAULT_TIME_LIMIT`. Whoever sent the request (formtools, or a
    Scrapy spider: :func:`formtools.scrapy.result_of`) reads the answer here."""
    no_result = _why_no_result(response)
    if no_result is not None:
        return ToolResult(
            status="completed",
            request=request,
            status_code=response.status,
            url=response.url,
            redirects=response.redirects,
            withheld=True,
            reason=no_result,
        )
    completed = partial(
        ToolResult,
        status="completed",
        request=request,
        status_code=response.status,
        url=response.url,
        redirects=response.redirects,
        final_method=response.method,
    )
    try:
        document = parse_html(
            response.body, url=response.url, content_type=response.content_type, time_limit=DEFAULT_TIME_LIMIT
        )
        # a landing answer that is no HTML nor XML (text, JSON, an image, a PDF) is shown as what
        # it is, and its bytes hold no script elements, whatever they spell (Chromium 156: [])
        shown = shown_type(response.head, response.body)  # (an answer of no type sniffed)
        if _XML_TYPES.fullmatch(media_type(shown)):
            json_ld = xml_json_ld_of(response.body, shown)
        elif renders_as_html(shown):
            json_ld = json_ld_of(document)
        else:
            json_ld = ()
        text = page_text(document) if include_text else None
    except ParseTimeLimit as error:  # the form was submitted: its result is what cannot be read
        return completed(withheld=True, reason=f"the landing page could not be read: {error}")
    return completed(json_ld=json_ld, text=text)


def _policy(policy: FetchPolicy | None, timeout: float, max_bytes: int) -> FetchPolicy:
    from formtools._net import FetchPolicy

    return policy or FetchPolicy(timeout=timeout, max_bytes=max_bytes)


def _refused_or_failed(error: FetchError, max_bytes: int) -> SendError:
    """A destination the policy refuses is :class:`Refused`; anything else a :class:`SendError`,
    an answer beyond ``max_bytes`` with the page size limit's line (``formtools._spec.limits``)
    naming the answer's URL, as every entry point says of a page beyond it. (The fetch layer's
    own message stays a sentence, as every fetch error's is.)"""
    if isinstance(error, (Blocked, BadURL)):
        return Refused(str(error))
    return SendError(too_large(error.url, max_bytes) if isinstance(error, TooLarge) else str(error))


def _unfollowed(request: Request, error: UnfollowedRedirect) -> ToolResult:
    """A submission whose answer redirects to no http(s) URL (``javascript:``, ``data:``, one
    that does not parse): it was sent and answered, and Chromium goes no further (the page
    stays, or shows an error page) and gives the agent no result. Not an error: an agent told
    the call failed may submit it again."""
    why = f"the form was submitted; its answer redirects where Chromium does not go, so no result comes: {error}"
    return ToolResult(
        status="completed", request=request, url=error.url, redirects=error.redirects, withheld=True, reason=why
    )


def _initiator(request: Request) -> Initiator | None:
    """The navigation's initiator, for ``SameSite``: the form's page. Without a page (a
    request built from a form given no URL) it is judged as the user's own navigation. It
    carries the page's ``form-action`` lists, which each redirect hop must match."""
    from formtools._net import Initiator

    return Initiator(request.page, request.form_action) if request.page is not None else None


def send_request(
    request: Request,
    *,
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    policy: FetchPolicy | None = None,
) -> ToolResult:
    """Send ``request`` through the one guarded, bounded fetch (``formtools._net``: redirects
    followed as browsers follow them, 303 and POST-after-301/302 becoming GET; ``timeout`` for
    the whole exchange) and read the landing page's JSON-LD. Pass a ``client`` to keep cookies
    between calls (its cookie jar is used), a ``policy`` for other bounds or a guard."""
    from formtools._net import Fetcher

    require(request, Request, "send_request", "a formtools.Request (a prepared call's request)")
    cookies = client.cookies if client is not None else None
    with Fetcher(_policy(policy, timeout, max_bytes), cookies=cookies) as fetcher:
        try:
            response = fetcher.fetch(
                request.method,
                request.url,
                headers=list(request.headers),
                content=request.body,
                referrer=request.referrer,
                initiator=_initiator(request),
            )
        except UnfollowedRedirect as error:
            return _unfollowed(request, error)
        except FetchError as error:
            raise _refused_or_failed(error, fetcher.policy.max_bytes) from None
    return landing_result(request, response, include_text)


async def asend_request(
    request: Request,
    *,
    client: httpx.AsyncClient | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    policy: FetchPolicy | None = None,
    fetcher: AsyncFetcher | None = None,
    parsers: anyio.CapacityLimiter | None = None,
) -> ToolResult:
    """:func:`send_request` for asyncio; a ``fetcher`` of the caller's (the MCP bridge's, with
    its session's cookies and guard) is used as it is. The landing page is parsed in a worker
    thread (``parsers``: the caller's limit on how many at once; None: anyio's default), as
    parsing a hostile page takes seconds of CPU that would stall every task on the loop."""
    import anyio  # with the fetch layer, at the first send

    require(request, Request, "asend_request", "a formtools.Request (a prepared call's request)")
    owned = fetcher is None
    if fetcher is None:
        from formtools._net import AsyncFetcher

        cookies = client.cookies if client is not None else None
        fetcher = AsyncFetcher(_policy(policy, timeout, max_bytes), cookies=cookies)
    try:
        response = await fetcher.fetch(
            request.method,
            request.url,
            headers=list(request.headers),
            content=request.body,
            referrer=request.referrer,
            initiator=_initiator(request),
        )
    except UnfollowedRedirect as error:
        return _unfollowed(request, error)
    except FetchError as error:
        raise _refused_or_failed(error, fetcher.policy.max_bytes) from None
    finally:
        if owned:
            await fetcher.aclose()
    return await anyio.to_thread.run_sync(landing_result, request, response, include_text, limiter=parsers)


def not_sent(outcome: NoRequest, landing: str = "self") -> ToolResult:
    """The result of a submission that makes no request (see :class:`NoRequest`) into the
    browsing context ``landing`` (``self``, ``frame``, ``new``): the page becomes an empty
    document (``about``, ``navigation-blocked``: ``completed`` with ``[]``, as Chromium completes
    the call, at ``url``), or nothing reaches the agent (``not-sent``)."""
    if outcome.reason == "error-page" and landing == "frame" and (outcome.url or "").split("?")[0].split("#")[0] == "about:srcdoc":
        # measured: an iframe sent to about:srcdoc is left with an empty document, and Chromium
        # completes the call with its (empty) JSON-LD, where a page shows an error page
        return ToolResult(
            status="completed",
            reason="the action is about:srcdoc: the frame is left with an empty document; no "
            "request is made",
        )
    if outcome.reason == "about":
        return ToolResult(
            status="completed",
            url=outcome.url,
            reason=f"the action is {outcome.action}: the page becomes an empty document "
            f"({outcome.url}); no request is made",
        )
    if outcome.reason == "navigation-blocked":
        why = (
            f"{outcome.action!r} is not a URL Chromium can parse (against the document's base URL)"
            if outcome.action is None or not outcome.action.lower().startswith("about:")
            else f"Chromium does not load {outcome.action} for a page"
        )
        return ToolResult(
            status="completed",
            url=outcome.url,
            reason=f"the form's action {why}: the page navigates to {outcome.url}, an empty "
            "document, instead; no request is made",
        )
    reason = {
        "dialog": "method=dialog closes a dialog; no request is made",
        "mailto": f"the action is a mailto: URL ({quoted(outcome.url or '')}); a mail client would open",
        "javascript": "the action is a javascript: URL, which runs a script: formtools runs none "
        "and makes no request",
        "blocked": f"the action is {_scheme_of(outcome.url)}, which a form does not navigate "
        f"{'an http(s) page' if _scheme_of(outcome.url) == 'file:' else 'a page'} to: no request is made",
        "unresolved": f"the form's action {outcome.action!r} is relative and the page's <base href> "
        "does not parse, so it resolves to no URL: Chromium submits nothing (a POST; a GET "
        "navigates to about:blank#blocked); no request is made",
        "error-page": f"the page navigates to {outcome.url}, which Chromium cannot load: it shows "
        "an error page and the call gives no result; no request is made",
        "sandboxed": "the page's Content-Security-Policy sandboxes it without allow-forms: Chromium "
        "submits none of its forms and the call never completes; no request is made",
        "form-action": f"the page's Content-Security-Policy \"{outcome.policy}\" does not allow "
        f"its form to submit to {quoted(outcome.url or '')}: Chromium submits nothing and the call never "
        "completes; no request is made",
        "mixed-content": f"the page is https and the action {quoted(outcome.url or '')} is not secure: Chromium "
        "does not submit a form to an insecure endpoint from a secure page (Mixed Content); no "
        "request is made",
    }[outcome.reason]
    return ToolResult(status="not-sent", reason=reason)


def _scheme_of(url: str | None) -> str:
    return (url or "").partition(":")[0] + ":"


def landed(result: ToolResult, landing: str, page_url: str | None) -> ToolResult:
    """``result`` as the agent gets it from a submission into ``landing`` (``self``, ``frame``
    or ``new``) from the page at ``page_url``: Chromium returns nothing for a new window or a
    landing page of another origin."""
    if landing == "new":
        why = "the form's target is a new window: Chromium returns no result for it"
        return replace(result, landing=landing, withheld=True, reason=why)
    if result.url is not None and result.url.startswith("about:"):
        # about:blank (and Chromium's about:blank#blocked) takes the origin of the page that
        # navigated to it: Chromium completes the call with the empty document's []
        return replace(result, landing=landing)
    if page_url is not None and result.url is not None and not same_origin_urls(result.url, page_url):
        # Chromium rejects the call ("Cannot return tool results after a cross-origin
        # navigation") though the form was submitted; formtools says it was (status completed,
        # no result), as an agent told "error" may submit it again: formtools' own choice
        why = (
            "the form was submitted and landed on another origin, whose page no result comes from"
            " (Chromium answers such a call with the error 'Cannot return tool results after a"
            " cross-origin navigation')"
        )
        return replace(result, landing=landing, withheld=True, reason=why)
    return replace(result, landing=landing)


def withheld_as_secret(result: ToolResult, label: str) -> ToolResult:
    """``result`` of a tool whose output is sensitive: marked so, and an agent gets a
    :class:`SecretReference` labelled ``label`` in place of any output it would have been given.

    ``redeemUrl`` is the landing URL only when fetching it again gives the same document without
    doing the call again: a GET reached through a redirect (the POST-redirect-GET pattern of a
    site that made a key and shows it), on a URL without a query (which may hold the secret, or
    a GET form's input, whose redemption would submit the form anew)."""
    if result.output is None:
        return replace(result, sensitive=True)  # no output reaches the agent anyway
    redeemable = (
        result.final_method == "GET" and bool(result.redirects) and result.url is not None
        and result.url == _without_query(result.url)
    )
    redeem_url = result.url if redeemable else None
    reference = SecretReference(id=secrets.token_urlsafe(16), label=label, redeem_url=redeem_url)
    how = "a person can fetch it again at the redeemUrl" if redeemable else (
        "it cannot be fetched again without doing the call again; the caller's own code has it"
    )
    reason = f"the tool's output is sensitive (sensitiveHint): withheld from the agent; {how}"
    return replace(result, sensitive=True, secret_reference=reference, reason=reason)


def _without_query(url: str | None) -> str | None:
    """``url`` without its query and fragment (what may carry a secret in a landing URL)."""
    if url is None:
        return None
    return url.partition("#")[0].partition("?")[0]
