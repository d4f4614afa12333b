"""Stage 1 — parse: markup → a :class:`Document` (the tree plus the parser-assigned form owners).

Two tree builders give the same forms: :mod:`.fast` (lexbor, with the form pointer recovered)
where it can vouch for the answer, :mod:`.exact` (html5lib, the reference) everywhere else.
:mod:`.sources` reads pages from where a user points; :mod:`.prefilter` skips pages without tools.
"""

from __future__ import annotations

import time
from dataclasses import replace

from formtools._parse.document import Document, Parser
from formtools._spec.referrer import policy_from_header
from formtools.errors import ParseTimeLimit, UsageProblem

__all__ = ["Document", "Parser", "parse_html"]


def parse_html(
    markup: str | bytes,
    *,
    url: str | None = None,
    content_type: str | None = None,
    source: str | None = None,
    parser: Parser = "auto",
    referrer_policy: str | None = None,
    time_limit: float | None = None,
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
    is the page's ``Referrer-Policy`` response header, which a ``<meta name=referrer>`` overrides.
    ``time_limit``: the seconds the whole parse may take, after which it raises
    :class:`~formtools.ParseTimeLimit` (the html5lib path's cost can outgrow the page, see
    :meth:`~formtools._parse.exact._OwnerRecordingTreeBuilder.check_time`; lexbor's cannot).
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        document = _parsed(markup, url, content_type, source, parser, deadline)
    except ParseTimeLimit:
        raise ParseTimeLimit(f"the page took longer than {time_limit:g} s to parse (its time limit)") from None
    header = policy_from_header(referrer_policy)
    if header is not None and document.referrer_policy is None:
        document = replace(document, referrer_policy=header)
    return document


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
