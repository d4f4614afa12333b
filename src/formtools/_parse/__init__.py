"""Stage 1 — parse: markup → a :class:`Document` (the tree plus the parser-assigned form owners).

Two tree builders give the same forms: :mod:`.fast` (lexbor, with the form pointer recovered)
where it can vouch for the answer, :mod:`.exact` (html5lib, the reference) everywhere else.
:mod:`.sources` reads pages from where a user points; :mod:`.prefilter` skips pages without tools.
"""

from __future__ import annotations

import time
from dataclasses import replace
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from formtools._parse.document import Document, Parser, require_url
from formtools._parse.charset import xml_content_type
from formtools._spec.mime import media_type
from formtools._spec.referrer import policy_from_header
from formtools._spec.xhtml import XHTML_TYPE
from formtools.errors import ParseTimeLimit, SourceError, UsageProblem

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["DEFAULT_TIME_LIMIT", "Document", "Parser", "parse_html"]

#: The seconds formtools' own readers of pages from elsewhere give one page's parse: batch and
#: Spark (``--page-time-limit``), the MCP bridge's pages, a submission's landing page.
DEFAULT_TIME_LIMIT = 60.0


def parse_html(
    markup: str | bytes,
    *,
    url: str | None = None,
    content_type: str | None = None,
    source: str | None = None,
    parser: Parser = "auto",
    referrer_policy: str | None = None,
    time_limit: float | None = None,
    security_policies: Sequence[str] = (),
) -> Document:
    """Parse markup the way a browser does and record parser-assigned form owners.

    Bytes are decoded in the encoding Chromium settles on (:mod:`.charset`): a BOM wins, then
    the ``charset`` of ``content_type`` (the HTTP header), then ``<?x`` in UTF-16 at byte 0, then
    the first ``<meta>`` Chromium's tokenizer obeys (in the head, or before byte 1,024), then an
    XML declaration, else windows-1252 (where Chromium guesses from the text, the document's
    ``encoding_guessed`` says so); with the WHATWG Encoding Standard's decoders
    (:mod:`formtools._spec.decoding`).
    ``parser="auto"`` takes the fast exact path (lexbor, see :mod:`.fast`) wherever it can
    vouch for html5lib's answer and html5lib elsewhere; ``parser="html5lib"`` always uses
    html5lib. Forms, tools and diagnostics come out the same either way. ``referrer_policy``
    is the page's ``Referrer-Policy`` response header, which a ``<meta name=referrer>`` overrides;
    ``security_policies`` its ``Content-Security-Policy`` header lines. An
    ``application/xhtml+xml`` page is decoded as Chromium decodes XML (no ``<meta>``, UTF-8
    where nothing names an encoding): :func:`~formtools._parse.charset.xml_content_type`.
    ``time_limit``: the seconds the whole parse may take, after which it raises
    :class:`~formtools.ParseTimeLimit` (the html5lib path's cost can outgrow the page, see
    :meth:`~formtools._parse.exact._OwnerRecordingTreeBuilder.check_time`; lexbor's cannot).
    """
    if not isinstance(markup, (str, bytes)):  # (a Path or a file was an AttributeError deep inside)
        raise SourceError(
            f"parse_html takes markup, str or bytes, not a {type(markup).__name__}: "
            "load_page and extract_tools read paths, files and URLs"
        )
    require_url(url)
    if isinstance(markup, bytes) and media_type(content_type) == XHTML_TYPE:
        content_type = xml_content_type(markup, str(content_type))
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        document = _parsed(markup, url, content_type, source, parser, deadline)
    except ParseTimeLimit:
        raise _over(time_limit) from None
    if time_limit is not None and document.whole is not None:
        # the whole tree (landing pages' JSON-LD and text read it) is html5lib's, parsed when
        # first asked for: under the same limit, counted from then
        document = replace(document, whole=partial(_whole, markup, url, content_type, source, time_limit))
    header = policy_from_header(referrer_policy)
    if header is not None and document.referrer_policy is None:
        document = replace(document, referrer_policy=header)
    if security_policies:
        document = replace(document, security_policies=tuple(security_policies))
    return document


def _over(time_limit: float | None) -> ParseTimeLimit:
    return ParseTimeLimit(f"the page took longer than {time_limit:g} s to parse (its time limit)")


def _whole(
    markup: str | bytes, url: str | None, content_type: str | None, source: str | None, time_limit: float
) -> etree._Element:
    from formtools._parse.exact import parse_exact

    try:
        return parse_exact(markup, url, content_type, source, time.monotonic() + time_limit).forms_root
    except ParseTimeLimit:
        raise _over(time_limit) from None


def _parsed(
    markup: str | bytes,
    url: str | None,
    content_type: str | None,
    source: str | None,
    parser: Parser,
    deadline: float | None,
) -> Document:
    if parser == "auto":
        from formtools._parse.fast import fast_document  # lexbor loads with the first parse

        document = fast_document(markup, url=url, content_type=content_type, source=source)
        if document is not None:
            return document
    elif parser != "html5lib":
        raise UsageProblem(f"unknown parser {parser!r}: use 'auto' or 'html5lib'")
    from formtools._parse.exact import parse_exact  # its tree builder loads only when needed

    return parse_exact(markup, url, content_type, source, deadline)
