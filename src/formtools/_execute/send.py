"""Stages 8–9 — send and result: a :class:`~formtools._execute.request.Request` over HTTP → the tool result.

Chromium answers a declarative tool call that navigated with the JSON-LD of the page the form
led to: a JSON array of every ``<script type="application/ld+json">`` in it, in order, comments
allowed, empty and unparsable blocks skipped. :class:`ToolResult` carries that array plus what a
caller without a browser also wants (status code, final URL, optionally the page text).

Sending is the only I/O of execution; :func:`send_request` and :func:`asend_request` differ only in the client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from lxml import etree

from formtools.errors import SendError
from formtools._parse.document import Document
from formtools._parse import parse_html
from formtools._execute.request import NoRequest, Request

__all__ = ["ToolResult", "send_request", "asend_request", "json_ld_of", "page_text", "not_sent"]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class ToolResult:
    """The outcome of a tool call.

    ``status``: ``completed`` (the request was sent; ``json_ld`` is Chromium's tool result),
    ``awaiting-user`` (the form has no ``toolautosubmit`` and the call was not confirmed; the
    prepared ``request`` is here, unsent), or ``not-sent`` (``method=dialog``, ``mailto:``).
    """

    status: str
    request: Request | None = None
    status_code: int | None = None
    url: str | None = None
    json_ld: tuple[Any, ...] = ()
    text: str | None = None
    reason: str | None = None
    redirects: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status}
        if self.status == "completed":
            data.update(
                status_code=self.status_code, url=self.url, result=list(self.json_ld)
            )
            if self.redirects:
                data["redirects"] = list(self.redirects)
            if self.text is not None:
                data["text"] = self.text
        else:
            data["reason"] = self.reason
            if self.request is not None:
                data["request"] = self.request.to_dict()
        return data


def _strip_comments(text: str) -> str:
    """JSON with ``//`` and ``/* */`` comments (as Chromium's reader allows) → plain JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
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


def json_ld_of(document: Document) -> tuple[Any, ...]:
    """Every parsable ``application/ld+json`` block of a page, in document order."""
    found = []
    for script in document.root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        text = document.restore("".join(script.itertext()))
        if not text.strip():
            continue
        try:
            found.append(json.loads(_strip_comments(text)))
        except ValueError:
            continue
    return tuple(found)


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


def _result(request: Request, response: httpx.Response, body: bytes, include_text: bool) -> ToolResult:
    url = str(response.url)
    document = parse_html(body, url=url, content_type=response.headers.get("content-type"))
    return ToolResult(
        status="completed",
        request=request,
        status_code=response.status_code,
        url=url,
        json_ld=json_ld_of(document),
        text=page_text(document) if include_text else None,
        redirects=tuple(str(r.url) for r in response.history),
    )


def _httpx_request(request: Request) -> dict[str, Any]:
    return {
        "method": request.method,
        "url": request.url,
        "headers": list(request.headers),
        "content": request.body,
    }


def _grow(body: bytearray, chunk: bytes, request: Request, max_bytes: int) -> None:
    body += chunk
    if len(body) > max_bytes:
        raise SendError(f"{request.url}: the answer is larger than {max_bytes} bytes")


def send_request(
    request: Request,
    *,
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
) -> ToolResult:
    """Send ``request`` (following redirects, 303 and POST-after-301/302 becoming GET, as
    browsers do) and read the landing page's JSON-LD. Pass a ``client`` to keep cookies
    between calls."""
    owned = client is None
    http = client or httpx.Client(follow_redirects=True, timeout=timeout)
    try:
        with http.stream(**_httpx_request(request), follow_redirects=True, timeout=timeout) as response:
            body = bytearray()
            for chunk in response.iter_bytes():
                _grow(body, chunk, request, max_bytes)
            return _result(request, response, bytes(body), include_text)
    except httpx.HTTPError as error:
        raise SendError(f"{request.url}: {type(error).__name__}: {error}") from None
    finally:
        if owned:
            http.close()


async def asend_request(
    request: Request,
    *,
    client: httpx.AsyncClient | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
) -> ToolResult:
    """:func:`send_request` for asyncio."""
    owned = client is None
    http = client or httpx.AsyncClient(follow_redirects=True, timeout=timeout)
    try:
        async with http.stream(**_httpx_request(request), follow_redirects=True, timeout=timeout) as response:
            body = bytearray()
            async for chunk in response.aiter_bytes():
                _grow(body, chunk, request, max_bytes)
            return _result(request, response, bytes(body), include_text)
    except httpx.HTTPError as error:
        raise SendError(f"{request.url}: {type(error).__name__}: {error}") from None
    finally:
        if owned:
            await http.aclose()


def not_sent(outcome: NoRequest) -> ToolResult:
    """The result of a submission that makes no request."""
    reason = {
        "dialog": "method=dialog closes a dialog; no request is made",
        "mailto": f"the action is a mailto: URL ({outcome.url}); a mail client would open",
    }[outcome.reason]
    return ToolResult(status="not-sent", reason=reason)
