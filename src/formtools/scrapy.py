"""Scrapy: the tools of a crawled page, and tool calls sent as Scrapy requests.

A spider reads the tools of a response with :func:`tools_of` and turns a call into a
``scrapy.Request`` with :func:`tool_request`: the execution engine (:func:`formtools.prepare_call`)
fills and validates the form and builds the request a browser would send, and this module only
carries it over. That is why the request is a plain ``scrapy.Request`` and not a
``FormRequest``: the method, URL, headers and body are final (the body in the form's charset and
enctype, multipart boundaries included), and ``FormRequest`` would encode the fields again by
its own rules. The URL is marked ``verbatim_url`` so that Scrapy sends it exactly as the browser
would, without its own percent-encoding clean-up. Cookies, redirects (303 and POST-after-302
become GET, as in browsers), throttling and retries stay Scrapy's.

The landing page of a call is read with :func:`result_of`, which gives the same
:class:`~formtools.ToolResult` as :func:`formtools.call_tool` (the page's JSON-LD).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx
import scrapy
from scrapy.http import Response

from formtools._spec.head import Head, RefusedHead
from formtools._spec.mime import why_no_tools
from formtools._execute.call import FileSource, Finishing, PreparedCall, prepare_call
from formtools._execute.fill import OMITTED
from formtools._forms.state import FormState
from formtools._parse.document import Document
from formtools._parse import DEFAULT_TIME_LIMIT, parse_html
from formtools._parse.prefilter import may_hold_tools
from formtools._synth.profile import Profile
from formtools._execute.request import NoRequest, Request
from formtools.errors import SubmissionError, ValidationError
from formtools._execute.send import ToolResult, landing_result, not_sent
from formtools._net import Response as FetchedResponse
from formtools._synth.synthesize import Extraction, synthesize
from formtools._synth.tool import Tool

__all__ = [
    "FINISHING_KEY",
    "REQUEST_KEY",
    "document_of",
    "extraction_of",
    "request_of",
    "result_of",
    "tool_request",
    "tools_of",
]

REQUEST_KEY = "formtools_request"
#: where the request's meta keeps what makes the landing page the call's result (landing,
#: masked input secrets, a sensitive output withheld): see :func:`result_of`
FINISHING_KEY = "formtools_finishing"
"""The ``Request.meta`` key holding the :class:`formtools.Request` a Scrapy request was made from."""


def _header(response: Response, name: bytes) -> str | None:
    """The header's values as one (a list header's values joined with commas), or None."""
    values = response.headers.getlist(name)
    return b", ".join(values).decode("latin-1") if values else None


def _content_type(response: Response) -> str | None:
    return _header(response, b"Content-Type")


def _chromium_head(response: Response) -> Head:
    """The response's head as formtools' own fetch reads a head (each line split into values as
    Chromium splits them: :meth:`formtools._spec.head.Head.answer_head`)."""
    lines = tuple((name, value) for name, values in response.headers.items() for value in values)
    return Head(b"HTTP/1.1 %d" % response.status, lines)


def _body(response: Response) -> bytes:
    """The response's body as Chromium reads it: none after a 1xx, 204, 205 or 304 head."""
    return response.body if _chromium_head(response).has_body else b""


def document_of(response: Response) -> Document:
    """The page of ``response``, parsed as a browser would: from its bytes, with the HTTP
    charset taking part in decoding and the response URL as document URL, within the time limit
    of every other page formtools parses (:class:`~formtools.ParseTimeLimit` past it: a page
    built to cost the html5lib path more than its size stalled the crawl's reactor). The page
    size limit is not formtools' here: Scrapy downloaded the body, within its own
    ``DOWNLOAD_MAXSIZE``, and holds it in memory."""
    return parse_html(
        _body(response),
        url=response.url,
        content_type=_content_type(response),
        referrer_policy=_header(response, b"Referrer-Policy"),
        time_limit=DEFAULT_TIME_LIMIT,
    )


def extraction_of(
    response: Response, *, profile: str | Profile = "chromium", all_forms: bool = False
) -> Extraction:
    """Tools, diagnostics and forms of ``response`` (always parsed; see :func:`tools_of` for
    the fast way to get only the tools). ``all_forms``: forms without ``toolname`` give
    inferred tools too, as with :func:`formtools.extract`."""
    return synthesize(document_of(response), profile, all_forms=all_forms)


def tools_of(
    response: Response, *, profile: str | Profile = "chromium", all_forms: bool = False
) -> list[Tool]:
    """The tools of ``response``, sorted by name. A page without a ``toolname`` attribute
    (with ``all_forms``: without ``<form``) is never parsed, by the byte prefilter of
    ``formtools batch``, so calling this on every crawled page costs little. A response a
    browser does not render as HTML (JSON, text, an image, a download, an answer of no type
    sniffed as text: see ``formtools._spec.mime``) has no tools, as with ``formtools batch``. Scrapy's ``DOWNLOAD_MAXSIZE`` bounds the body, not
    formtools' page size limit (see :func:`document_of`)."""
    head, body = _chromium_head(response), _body(response)
    try:
        head.checked()
    except RefusedHead:  # (an answer Chromium fails: differing Content-Disposition values)
        return []
    if why_no_tools(head.answer_head, body) is not None:
        return []
    if not may_hold_tools(body, _content_type(response), all_forms=all_forms):
        return []
    return list(extraction_of(response, profile=profile, all_forms=all_forms).tools)


def _scrapy_referrer_policy(request: Request) -> str:
    """The policy Scrapy's ``RefererMiddleware`` is to follow for ``request``: the page's own, so
    that it adds no ``Referer`` where the browser sends none (under ``no-referrer`` its default
    policy added the page's whole URL) and redirect hops keep the page's policy; ``no-referrer``
    for a page that is no http(s) document (no state, or one with no referrer: an opaque
    origin's, ``file:``, ``data:``), which sends none at all, as Chromium sends none."""
    state = request.referrer
    return state.policy if state is not None and state.referrer is not None else "no-referrer"


def request_of(prepared: PreparedCall, *, confirm: bool = False, **options: Any) -> scrapy.Request:
    """The Scrapy request for a prepared call. ``options`` are ``scrapy.Request`` keywords
    (``callback``, ``errback``, ``meta``, ``cb_kwargs``, ``dont_filter``, ``priority`` …).

    A form without ``toolautosubmit`` is submitted only with ``confirm=True``, as with
    :func:`formtools.submit`; a submission that makes no request (``method=dialog``,
    ``mailto:``) raises :class:`~formtools.SubmissionError`, and a confirmed one of a form that
    fails constraint validation :class:`~formtools.ValidationError`.
    """
    name = prepared.tool.name
    if isinstance(prepared.outcome, NoRequest):
        raise SubmissionError(f"tool {name!r}: {not_sent(prepared.outcome).reason}")
    if not (prepared.autosubmit or confirm):
        raise SubmissionError(
            f"tool {name!r}: the form has no toolautosubmit, so a person must confirm the "
            "submission (pass confirm=True)"
        )
    if prepared.problems:  # confirmed, but the filled form fails constraint validation
        raise ValidationError(prepared.problems)
    request: Request = prepared.outcome
    meta = {
        **(options.pop("meta", None) or {}),
        "verbatim_url": True,
        "referrer_policy": _scrapy_referrer_policy(request),
        REQUEST_KEY: request,
        FINISHING_KEY: prepared.finishing(),
    }
    return scrapy.Request(
        request.url,
        method=request.method,
        headers=list(request.headers),
        body=request.body,
        meta=meta,
        **options,
    )


def tool_request(
    tool: Tool,
    tool_input: Any = OMITTED,
    *,
    confirm: bool = False,
    submitter: str | None = None,
    state: FormState | None = None,
    files: Mapping[str, Sequence[FileSource]] | None = None,
    boundary: str | None = None,
    **options: Any,
) -> scrapy.Request:
    """A tool call as a Scrapy request: :func:`formtools.prepare_call` (which raises
    :class:`~formtools.InputError`, :class:`~formtools.ValidationError` … on a bad call, before
    anything is sent), then :func:`request_of` with ``confirm`` and the Scrapy ``options``."""
    prepared = prepare_call(
        tool, tool_input, submitter=submitter, state=state, files=files, boundary=boundary
    )
    return request_of(prepared, confirm=confirm, **options)


def result_of(response: Response) -> ToolResult:
    """The tool result of the page a call landed on, as :func:`formtools.call_tool` gives it
    (by the same function): the JSON-LD blocks of the page, the status code, the final URL and
    the redirects; no result for a download (an attachment, a zip), and a landing page that
    outlives the parse time limit withheld — for a request made by :func:`request_of`, also
    landed, masked and withheld as that call's. (It parsed any answer as HTML, a download too,
    with no time limit: one landing page could hold the crawl's reactor for ever.) A response
    tied to no request (built from a stored body, as ``scrapy shell`` or a cache may) is read as
    the answer to a plain GET: its ``meta``, which Scrapy then refuses with AttributeError, is
    taken as empty."""
    meta = response.request.meta if response.request is not None else {}
    answer = FetchedResponse(
        url=response.url,
        status=response.status,
        headers=httpx.Headers(
            [(name.decode("latin-1"), value.decode("latin-1")) for name, values in response.headers.items() for value in values]
        ),
        body=response.body,
        redirects=tuple(meta.get("redirect_urls", ())),
        method=response.request.method if response.request is not None else "GET",
    )
    result = landing_result(meta.get(REQUEST_KEY), answer)
    finishing: Finishing | None = meta.get(FINISHING_KEY)
    return finishing.apply(result) if finishing is not None else result
