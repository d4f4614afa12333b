"""What a browser makes of an answer, by its head and first bytes: a document with forms, a
page of another kind, or a download.

One rule for every answer formtools reads from elsewhere: archived records, URL lists, Scrapy
responses, ``formtools extract URL``, the MCP bridge's pages and the answers calls land on (a
JSON API that echoes ``<form toolname…>`` is no page with tools: a browser shows it as text; an
answer without a type is sniffed, as Chromium sniffs it; an attachment is a download).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formtools._spec.constants import HTTP_WHITESPACE
from formtools._spec.csp import sandbox_flags
from formtools._spec.xhtml import XHTML_TYPE, unread_xhtml

__all__ = [
    "HTML_TYPES",
    "AnswerHead",
    "chromium_content_type",
    "may_be_a_page",
    "media_type",
    "no_page",
    "page_problem",
    "renders_as_html",
    "shown_type",
    "why_no_tools",
]

#: The media types a browser renders as a document with forms (XHTML, too, registers tools).
HTML_TYPES = ("text/html", XHTML_TYPE)


def media_type(content_type: str | None) -> str:
    """The ``type/subtype`` of an HTTP ``Content-Type``, lowercased, HTTP white space around it
    stripped and no other ("" without one)."""
    return (content_type or "").partition(";")[0].strip(HTTP_WHITESPACE).lower()


def renders_as_html(content_type: str | None) -> bool:
    """Whether a document of this type (as :func:`shown_type` gives it, sniffing done) is a
    page a browser registers tools for: HTML or XHTML. JSON, text, images are not, whatever
    their bytes hold."""
    return media_type(content_type) in HTML_TYPES


# HttpUtil's linear white space: what Chromium trims off a header value's parts
_HEADER_LWS = b" \t"
_TYPE_END = re.compile(rb"[ \t;(]")


def chromium_content_type(values: list[bytes]) -> bytes:
    """The ``Content-Type`` Chromium reads from every value of its lines
    (``HttpResponseHeaders::GetMimeTypeAndCharset`` over ``HttpUtil::ParseContentType``): the
    last value whose type part holds a slash and that is not ``*/*`` names the type (measured:
    ``text /html`` or ``x;y=a/b``, a slash in a parameter only, is ignored: the type before
    stands, or with none the answer is sniffed); a value naming a charset sets it,
    and a value of another type resets one set before, while one of the same type keeps it. It
    is spelled as that type followed by the parameters of the value the charset came from (which
    formtools._parse.charset reads as it reads one line); ``b""`` for none (then Chromium sniffs)."""
    mime, charset_from, had_charset = b"", b"", False
    for value in values:
        start = len(value) - len(value.lstrip(_HEADER_LWS))
        end = _TYPE_END.search(value, start)
        kind = value[start : end.start() if end else len(value)]
        if not value or value == b"*/*" or b"/" not in kind:
            continue
        same = bool(mime) and kind.lower() == mime
        mime = kind.lower()
        if _names_charset(value[start + len(kind) :]):
            had_charset, charset_from = True, value
        elif not same and had_charset:
            charset_from = b""
    if not mime or not charset_from:
        return mime
    return mime + b";" + charset_from.partition(b";")[2]


# a parameter after a type as ParseContentType reads it: a quoted value runs to its closing quote
_PARAMETER = re.compile(rb'(?s);[ \t]*(?P<name>[^;=]*)(?:=[ \t]*(?:(?P<quoted>"(?:\\.|[^"\\])*"?)[^;]*|(?P<bare>[^;]*)))?')


def _names_charset(parameters: bytes) -> bool:
    """Whether the first ``charset`` parameter with a value is among ``parameters`` (what
    follows a type), the way ParseContentType reads them."""
    for parameter in _PARAMETER.finditer(parameters):
        if parameter["quoted"] is not None or (parameter["bare"] or b"").strip(_HEADER_LWS):
            if parameter["name"].lower() == b"charset":
                return True
    return False


@dataclass(frozen=True)
class AnswerHead:
    """What of an answer's head decides what Chromium makes of it: ``status``, the
    ``content_type`` as Chromium reads it from all its lines (``None`` for none it reads:
    :func:`chromium_content_type`), the first ``Content-Disposition``, every
    ``X-Content-Type-Options`` line and every (enforced) ``Content-Security-Policy`` line."""

    status: int = 200
    content_type: str | None = None
    disposition: str | None = None
    type_options: tuple[str, ...] = ()
    policies: tuple[str, ...] = ()

    @property
    def scripts_sandboxed(self) -> bool:
        """Whether a policy sandboxes the page without ``allow-scripts``: Chromium 156 then
        registers none of its tools (measured: ``getTools()`` is empty; with ``allow-scripts``
        and without ``allow-forms`` they are registered, and a call is never submitted)."""
        return any("allow-scripts" not in allowed for allowed in sandbox_flags(self.policies))

    @property
    def nosniff(self) -> bool:
        """Fetch's "determine nosniff", which Chromium 156 follows (measured: ``nosniff,foo``
        and a first line ``nosniff`` before a line ``foo`` block sniffing; ``foo, nosniff`` and
        ``nosniff;`` do not): the first value of the lines' comma-separated list is
        ``nosniff``, HTTP white space trimmed, in any case."""
        first = ",".join(self.type_options).partition(",")[0].strip(HTTP_WHITESPACE)
        return first.isascii() and first.lower() == "nosniff"  # (ASCII: lower() is ASCII's)


# Chromium's net/base/mime_sniffer.cc, IsUnknownMimeType: types that say nothing (a type
# without a slash and "*/*" never get here: GetMimeTypeAndCharset reads no type from them)
_UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})
# mime_sniffer.cc's kSniffableTags: "<?xml" compared exactly, the HTML tags as a prefix in any
# ASCII case and with nothing required after them ("<pre" is "<p", "<header" is "<head")
_XML_DECLARATION = b"<?xml"
_HTML_PREFIXES = tuple(
    b"<" + tag
    for tag in (b"!doctype html", b"script", b"html", b"!--", b"head", b"iframe", b"h1", b"div", b"font",
                b"table", b"a", b"style", b"title", b"b", b"body", b"br", b"p")
)  # fmt: skip
_HTML_WINDOW = 512  # SniffForHTML: the bytes looked at, white space skipped included
_SNIFF_WINDOW = 1024  # kMaxBytesToSniff: SniffBinary's bytes
_ASCII_SPACE = b"\t\n\x0b\x0c\r "  # base::IsAsciiWhitespace, as SniffForHTML skips it
# LooksLikeBinary (the MIME Sniffing Standard's binary data bytes): C0 controls but for
# TAB, LF, FF, CR and ESC
_BINARY_BYTE = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")
_BYTE_ORDER_MARKS = (b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf")
# kMagicNumbers, in their order ("." any byte): what an answer of no type is shown as
_MAGIC_NUMBERS = (
    (b"%PDF-", "application/pdf"), (b"%!PS-Adobe-", "application/postscript"), (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"), (b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
    (b"BM", "image/bmp"), (b"#!", "text/plain"), (b"%!", "text/plain"), (b"From", "text/plain"),
    (b">From", "text/plain"), (b"\x1f\x8b\x08", "application/x-gzip"), (b".RMF", "audio/x-pn-realaudio"),
    (b"0&\xb2u\x8ef\xcf\x11\xa6\xd9\x00\xaa\x00b\xcel", "video/x-ms-asf"), (b"I I", "image/tiff"),
    (b"II*", "image/tiff"), (b"MM\x00*", "image/tiff"), (b"ID3", "audio/mpeg"),
    (b"RIFF....WEBPVP", "image/webp"), (b"\x1aE\xdf\xa3", "video/webm"), (b"PK\x03\x04", "application/zip"),
    (b"Rar!\x1a\x07\x00", "application/x-rar-compressed"), (b"\xd7\xcd\xc6\x9a", "application/x-msmetafile"),
    (b"MZ", "application/octet-stream"),
)  # fmt: skip


def _magic(body: bytes, magic: bytes) -> bool:
    """MagicCmp: ``body`` begins with ``magic``, a ``.`` there matching any byte."""
    return len(body) >= len(magic) and all(m == ord(".") or m == b for m, b in zip(magic, body))


def _sniffed_markup(body: bytes) -> str | None:
    """SniffForHTML: ``text/html`` or ``text/xml`` when the first of the 512 bytes that is no
    ASCII white space begins a tag Chromium takes for markup. A magic string is compared only
    within the bytes before a NUL (MatchMagicNumber's strlen): ``<h\\0tml`` is none."""
    window = body[:_HTML_WINDOW].lstrip(_ASCII_SPACE)
    if window.startswith(_XML_DECLARATION):
        return "text/xml"
    text = window.partition(b"\0")[0].lower()
    return "text/html" if text.startswith(_HTML_PREFIXES) else None


def _binary(body: bytes) -> bool:
    """SniffBinary: no byte order mark, and a binary byte among the first 1,024."""
    window = body[:_SNIFF_WINDOW]
    return not window.startswith(_BYTE_ORDER_MARKS) and _BINARY_BYTE.search(window) is not None


def _sniffed(mime: str, body: bytes) -> str:
    """``net::SniffMimeType`` for an http(s) answer of type ``mime`` that
    ``net::ShouldSniffMimeType`` sniffs, as far as it decides what a navigation shows: a type
    that says nothing is markup, else a magic number's type, else binary
    (``application/octet-stream``: a download) or text; ``text/plain`` turns binary only. (The
    XML types are sniffed for feeds alone, the Office types and octet-stream for what is
    downloaded either way: they keep their type here.)"""
    if mime == "text/plain":
        return "application/octet-stream" if _binary(body) else mime
    if mime not in _UNKNOWN_TYPES:
        return mime
    markup = _sniffed_markup(body)
    if markup is not None:
        return markup
    found = next((kind for magic, kind in _MAGIC_NUMBERS if _magic(body, magic)), None)
    return found or ("application/octet-stream" if _binary(body) else "text/plain")


def shown_type(head: AnswerHead, body: bytes) -> str:
    """The type Chromium 156 shows an http(s) answer as: its own, or the one sniffed from
    ``body`` when the type says nothing or is ``text/plain`` and ``X-Content-Type-Options``
    does not forbid it (the network service's ``ShouldSniffContent``); an answer of no type
    that may not be sniffed is ``text/plain`` (measured: shown as text, its tags unread).
    Parameters (a charset) are kept."""
    mime = media_type(head.content_type)
    if head.nosniff:
        return head.content_type or "text/plain"
    shown = _sniffed(mime, body)
    if shown == mime and head.content_type:
        return head.content_type
    parameters = (head.content_type or "").partition(";")[2]
    return f"{shown};{parameters}" if parameters else shown


# What a browser shows rather than downloads (formtools' approximation of Chromium's MIME
# handling, blink::IsSupportedMIMEType and the PDF viewer): a type outside these is a download;
# of the application/*+xml types Chromium 156 shows the feeds alone: application/foo+xml,
# rdf+xml, xslt+xml, mathml+xml download.
_SHOWN_TYPES = re.compile(
    r"text/.*|image/.*|audio/.*|video/.*|application/(json|xml|xhtml\+xml|pdf|.*\+json|rss\+xml|atom\+xml)|multipart/x-mixed-replace"
)
# RFC 9110's token: one or more tchar
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _attachment(disposition: str | None) -> bool:
    """Whether Chromium 156 downloads an answer for its ``Content-Disposition``
    (net::HttpContentDisposition's type, ``IsAttachment``): a type (before any ``;``, HTTP white
    space stripped) that is a token other than ``inline`` — ``attachment``, ``foo`` too; a type
    that is no token (``\\u00a0attachment``, ``"attachment"``) or none (``filename=a.html``:
    measured, shown) is ignored."""
    kind = (disposition or "").partition(";")[0].strip(HTTP_WHITESPACE)
    return bool(_TOKEN.fullmatch(kind)) and kind.lower() != "inline"  # (a token is ASCII)


def no_page(head: AnswerHead, body: bytes) -> str | None:
    """Why Chromium 156 makes no document of an answer to a navigation (``None``: it does, of
    :func:`shown_type`): a 204 or 205 is not committed (``NavigationRequest``: the page stays);
    an attachment, or a type it does not show, is downloaded."""
    if head.status in (204, 205):
        return f"HTTP {head.status}, no content: Chromium shows no page for it"
    if _attachment(head.disposition):
        return "a download (Content-Disposition): Chromium shows no page for it"
    shown = media_type(shown_type(head, body))
    if not _SHOWN_TYPES.fullmatch(shown):
        return f"a download ({shown}): Chromium shows no page for it"
    return None


def why_no_tools(head: AnswerHead, body: bytes) -> str | None:
    """Why an answer fetched as a page gives no tools in Chromium 156, in a few words, or
    ``None`` when it is a page of HTML. The body of a 4xx/5xx answer is shown as any other
    (measured: its forms register); an empty one, or one that is no page, is named by its
    status."""
    if head.status >= 400 and not body:
        return f"HTTP {head.status}"
    why = no_page(head, body)
    shown = shown_type(head, body)
    if why is None and renders_as_html(shown):
        if head.scripts_sandboxed:
            return "sandboxed without allow-scripts (Content-Security-Policy): Chromium registers no tools"
        return unread_xhtml(body, shown) if media_type(shown) == XHTML_TYPE else None
    if head.status >= 400:
        return f"HTTP {head.status}"
    if why is not None:
        return why
    if media_type(head.content_type) != media_type(shown):
        return f"not HTML ({media_type(head.content_type) or 'no type'}, sniffed as {media_type(shown)})"
    return f"not HTML ({media_type(shown)})"


def may_be_a_page(head: AnswerHead) -> bool:
    """Whether an answer with this head can be a page of HTML, its body unseen: what
    :func:`why_no_tools` says without sniffing, an answer it would sniff counted in."""
    if head.status in (204, 205) or _attachment(head.disposition) or head.scripts_sandboxed:
        return False
    mime = media_type(head.content_type)
    return renders_as_html(mime) or (not head.nosniff and mime in _UNKNOWN_TYPES)


def page_problem(url: str, head: AnswerHead, body: bytes) -> str | None:
    """:func:`why_no_tools` as the one-line error of the page at ``url`` (as shown)."""
    why = why_no_tools(head, body)
    if why is None:
        return None
    return f"{url}: {why}" + (": a browser registers no tools for it" if why.startswith("not HTML") else "")
