"""The encoding Chromium 156 settles on for a page's bytes, before a byte of it is decoded.

The encoding decides the text of every tool name, description and value, and the bytes a form
submits. HTML's own algorithm (a BOM, the transport, a 1,024-byte ``<meta>`` prescan, then
"change the encoding" at a later ``<meta>``), which html5lib implements, is not what Chromium
does. Chromium's ``TextResourceDecoder`` takes, in this order (each step measured in Chromium
156, ``tests/test_encoding_determination.py`` holds the measurements and
``tests/test_browser_encodings.py`` compares generated pages live):

1. a BOM (UTF-8, UTF-16BE, UTF-16LE), over everything else;
2. the ``charset`` of the ``Content-Type`` header, when it names an encoding;
3. bytes starting ``<\\0?\\0x\\0`` or ``\\0<\\0?\\0x``: UTF-16LE or UTF-16BE, and no ``<meta>``
   is read (:func:`_utf16_xml_start`);
4. the first ``<meta>`` naming an encoding that :func:`_meta_scan` finds, read the way
   Chromium's ``HTMLMetaCharsetParser`` reads it: with an HTML tokenizer, not HTML's prescan,
   and never again once the parser has started (Chromium has no "change the encoding");
5. an XML declaration at byte 0 (:func:`_xml_declared`), which a ``<meta>`` overrides;
6. else Chromium guesses from the content with its detector (compact_enc_det), which formtools
   does not reproduce: it takes windows-1252, Chromium's answer for ASCII, and says when the
   page has other bytes, or a NUL (:attr:`Settled.guessed`).

A ``<meta>`` or an XML declaration naming UTF-16 means UTF-8; a ``<meta>`` naming
x-user-defined means windows-1252, an XML declaration naming it does not.
"""

from __future__ import annotations

import codecs
import functools
import html.entities
import re
from dataclasses import dataclass
from typing import Any

import webencodings

from formtools._spec import decoding as _decoding  # noqa: F401  # installs the standard's decoders
from formtools._spec.content_type import transport_charset

__all__ = ["Settled", "lowered", "settle_encoding", "settle_xml_encoding", "transport_charset", "utf16_without_bom", "xml_content_type"]

@dataclass(frozen=True)
class Settled:
    """The page's encoding, how many bytes of BOM precede its text, and whether Chromium would
    have guessed the encoding from the content (no BOM, header, ``<meta>`` or XML declaration
    names one, and the bytes are not all ASCII or hold a NUL: an ASCII page with a NUL came out
    windows-1257), so that formtools' windows-1252 may be wrong."""

    encoding: Any  # a webencodings.Encoding
    bom_length: int = 0
    guessed: bool = False


_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16be"), (codecs.BOM_UTF16_LE, "utf-16le"))


def settle_encoding(markup: bytes, content_type: str | None) -> Settled:
    """Chromium 156's encoding for ``markup`` served with ``content_type`` (see the module)."""
    before_content = _settled_before_content(markup, content_type)
    if before_content is not None:
        return before_content
    found = _meta_scan(markup) or _xml_declared(markup)
    if found is not None:
        return Settled(found)
    guessed = not markup.isascii() or b"\0" in markup  # (an ASCII page with a NUL: windows-1257)
    return Settled(webencodings.lookup("windows-1252"), guessed=guessed)


def settle_xml_encoding(markup: bytes, content_type: str | None) -> Settled:
    """Chromium 156's encoding for an XML document's bytes (an ``application/xml``,
    ``text/xml`` or ``image/svg+xml`` answer): the steps of :func:`settle_encoding` without the
    ``<meta>`` scan, which only HTML has, and UTF-8 where nothing names an encoding (Chromium's
    default for XML, never a guess from the content). Measured live,
    tests/test_browser_landing.py."""
    return _settled_before_content(markup, content_type) or Settled(_xml_declared(markup) or webencodings.lookup("utf-8"))


def xml_content_type(markup: bytes, content_type: str) -> str:
    """``content_type``'s type with, as its charset, the encoding Chromium decodes an XML
    document's ``markup`` in (:func:`settle_xml_encoding`): an XHTML page read by the HTML steps
    with it is the text Chromium's XML parser reads (a BOM wins in both; a ``<meta>``, which XML
    does not read, and the windows-1252 guess, where XML takes UTF-8, no longer decide)."""
    return f"{content_type.partition(';')[0]}; charset={settle_xml_encoding(markup, content_type).encoding.name}"


def _settled_before_content(markup: bytes, content_type: str | None) -> Settled | None:
    """The first three steps, shared by HTML and XML: a BOM, the header's ``charset``, and
    ``<?x`` in UTF-16 at byte 0; None when none of them names the encoding."""
    for bom, name in _BOMS:
        if markup.startswith(bom):
            return Settled(webencodings.lookup(name), len(bom))
    transport = transport_charset(content_type)
    if transport is not None:
        return Settled(webencodings.lookup(transport))
    utf16 = _utf16_xml_start(markup)
    if utf16 is not None:
        return Settled(webencodings.lookup(utf16))
    return None


def utf16_without_bom(markup: bytes, content_type: str | None) -> str | None:
    """``utf-16le`` or ``utf-16be`` where Chromium decodes a page without a BOM as UTF-16
    (the header names it, or the bytes start with ``<?x`` in it), else None: the cheap part of
    :func:`settle_encoding` that a search for ASCII markers needs."""
    transport = transport_charset(content_type)
    if transport is not None:
        name: str = webencodings.lookup(transport).name
        return name if name in ("utf-16le", "utf-16be") else None
    return _utf16_xml_start(markup)


def _utf16_xml_start(markup: bytes) -> str | None:
    """Chromium reads ``<?x`` in UTF-16 at byte 0 as the start of an XML declaration in it, with
    no BOM: whatever follows, and even a ``<meta>``, the page is UTF-16 (measured; UTF-32 is
    not sniffed)."""
    if markup.startswith(b"<\0?\0x\0"):
        return "utf-16le"
    if markup.startswith(b"\0<\0?\0x"):
        return "utf-16be"
    return None


# Bytes Chromium skips around an XML declaration's ``=``: it compares signed chars with the
# space, so every byte up to 0x20 and every byte from 0x80 (measured with 0x01, 0xA0 and 0xFF).
_XML_BLANK = frozenset(range(0x21)) | frozenset(range(0x80, 0x100))
_LABEL_SPACE = " \t\n\r\f"


def _xml_declared(markup: bytes) -> Any:
    """The encoding an XML declaration names, as Chromium reads it: the bytes must start with
    ``<?xml`` (case-sensitive: no BOM, space or comment before it); the declaration runs to the
    first ``>`` in the page, and in it the first ``encoding`` (case-sensitive, anywhere: even in
    another attribute's value, which then spoils it) must be followed, past blanks, by ``=`` and,
    past blanks, by a value in ``"`` or ``'`` closed by the same quote. The label is not trimmed
    (``" koi8-r "`` names nothing). UTF-16 labels mean UTF-8; x-user-defined and the replacement
    encoding's labels stay what they are."""
    if not markup.startswith(b"<?xml"):
        return None
    end = markup.find(b">")
    if end < 0:
        return None
    declaration = markup[:end]
    at = declaration.find(b"encoding")
    if at < 0:
        return None
    at += len(b"encoding")
    while at < end and declaration[at] in _XML_BLANK:
        at += 1
    if at >= end or declaration[at] != ord("="):
        return None
    at += 1
    while at < end and declaration[at] in _XML_BLANK:
        at += 1
    if at >= end or declaration[at] not in b"\"'":
        return None
    close = declaration.find(declaration[at : at + 1], at + 1)
    if close < 0:
        return None
    label = declaration[at + 1 : close].decode("latin-1")
    if label != label.strip(_LABEL_SPACE):
        return None
    return _byte_based(webencodings.lookup(label))


def _byte_based(encoding: Any) -> Any:
    """Chromium's ``ClosestByteBasedEquivalent``: what a declaration inside the page may name
    (it was read as ASCII, so it cannot be UTF-16)."""
    if encoding is not None and encoding.name in ("utf-16le", "utf-16be"):
        return webencodings.lookup("utf-8")
    return encoding


_last_lowered: tuple[bytes, bytes] = (b"", b"")


def lowered(data: bytes) -> bytes:
    """``data.lower()``, kept for the last bytes object asked about: batch extraction prefilters
    a page (:mod:`.prefilter`), settles its encoding (the ``<meta>`` scan) and then parses it, and
    the fast parser reads the same bytes lowercased (for a UTF-8 page they are the very same
    object), so the copy is made once. Thread-safe: the pair is read
    and replaced whole."""
    global _last_lowered
    last = _last_lowered
    if last[0] is data:
        return last[1]
    low = data.lower()
    _last_lowered = (data, low)
    return low


# --- the <meta> scan: Chromium's HTMLMetaCharsetParser -------------------------------------

#: Tags that keep Chromium's scanner "in the head" (start tags: these, html and head).
_HEAD_TAGS = frozenset({"script", "noscript", "style", "link", "meta", "object", "title", "base"})
#: After this many bytes, a scanner no longer in the head gives up.
_UNCONDITIONAL = 1024
#: The text states Chromium's scanner switches its tokenizer to after a start tag. noscript is
#: not among them (its tokenizer runs without scripting: a ``<meta>`` in it counts, measured).
_RCDATA = frozenset({"title", "textarea"})
_RAWTEXT = frozenset({"style", "iframe", "xmp", "noembed", "noframes"})

_TAG_NAME = re.compile(rb"[^\t\n\f\r />]*")
_ATTRIBUTE_NAME = re.compile(rb"[^\t\n\f\r />][^\t\n\f\r />=]*")
_BLANKS = re.compile(rb"[\t\n\f\r ]*")
_BLANKS_AND_SLASHES = re.compile(rb"[\t\n\f\r /]*")
_UNQUOTED = re.compile(rb"[^\t\n\f\r >]*")
_COMMENT_END = re.compile(rb"--!?>")
# Script data: what ends or changes its state (the tokenizer's script data escape states).
_SCRIPT_DATA = re.compile(rb"</script[\t\n\f\r />]|<!--", re.IGNORECASE)
_SCRIPT_ESCAPED = re.compile(rb"-->|</script[\t\n\f\r />]|<script[\t\n\f\r />]", re.IGNORECASE)
_SCRIPT_DOUBLE_ESCAPED = re.compile(rb"-->|</script[\t\n\f\r />]", re.IGNORECASE)


def _meta_scan(markup: bytes) -> Any:
    """The encoding of the first ``<meta>`` Chromium's ``HTMLMetaCharsetParser`` obeys, or None.

    It tokenizes the bytes as Latin-1 (a byte a character) with an HTML tokenizer that switches
    to the text states after ``title``, ``textarea``, ``script``, ``style``, ``iframe``, ``xmp``,
    ``noembed``, ``noframes`` and ``plaintext`` start tags (a ``<meta>`` in them is text) but
    knows nothing of the tree (a ``<meta>`` in a template, a select or SVG counts). Every
    ``<meta>`` is read while the scanner is "in the head"; it leaves the head at a start tag other
    than ``html``, ``head`` and those of :data:`_HEAD_TAGS`, and at an end tag other than those of
    :data:`_HEAD_TAGS`; text does not end it. Once out of the head, it stops after the first
    token that ends at or past byte 1,024. A text token ends at the next ``<``; a run of only
    NUL bytes is no token (Chromium's tokenizer skips NULs there). All measured."""
    # the next "<meta" in any letter case, searched for in the ASCII-lowercased bytes (the
    # prefilter's copy) only when the walk passes the one found (a case-insensitive regex found
    # the last one by walking every byte of the page in Python's re)
    low = lowered(markup)
    ahead = low.find(b"<meta")
    if ahead < 0:
        return None
    in_head = True
    at, end = 0, len(markup)
    text_from = 0  # where the pending text token started

    def stops(token_end: int) -> bool:
        return not in_head and token_end >= _UNCONDITIONAL

    while at < end:
        opening = markup.find(b"<", at)
        if opening < 0:
            return None
        if opening > ahead:
            ahead = low.find(b"<meta", opening)
            if ahead < 0:
                return None  # no <meta> tag ahead
        # the pending text, if any, is a token that ends here
        if stops(opening) and opening > text_from and markup[text_from:opening].strip(b"\0"):
            return None
        tag = _tag_at(markup, opening)
        if tag is None:  # a "<" that opens nothing: text
            at = opening + 1
            text_from = opening
            continue
        name, attributes, closing, after = tag
        at = text_from = after
        if closing is None:  # a comment, doctype, or "</>" (which is no token at all)
            if name and stops(after):
                return None
            continue
        if not closing and name == "meta":
            found = _meta_encoding(attributes)
            if found is not None:
                return found
        if closing:
            in_head = in_head and name in _HEAD_TAGS
        else:
            in_head = in_head and (name in _HEAD_TAGS or name in ("html", "head"))
        if stops(after):
            return None
        if not closing:  # text up to the end tag, which is a token that ends later
            skipped = _text_state_end(markup, name, after)
            if skipped is not None:
                at = text_from = skipped
    return None


def _text_state_end(markup: bytes, name: str, at: int) -> int | None:
    """Where the text after a ``name`` start tag ends, for the tags whose text is not markup:
    the start of the end tag that closes it (the end of the page for plaintext); None for the
    others."""
    if name in _RCDATA or name in _RAWTEXT:
        found = _end_tag(name).search(markup, at)
        return len(markup) if found is None else found.start()
    if name == "plaintext":
        return len(markup)
    if name == "script":
        return _script_end(markup, at)
    return None


@functools.cache
def _end_tag(name: str) -> re.Pattern[bytes]:
    return re.compile(b"</" + name.encode("ascii") + b"[\t\n\f\r />]", re.IGNORECASE)


def _script_end(markup: bytes, at: int) -> int:
    """Where script data ends: its ``</script>``, through the tokenizer's escaped (after
    ``<!--``) and double-escaped (after ``<script`` there) states."""
    state = _SCRIPT_DATA
    while True:
        found = state.search(markup, at)
        if found is None:
            return len(markup)
        token = found.group().lower()
        if state is _SCRIPT_DATA:
            if token.startswith(b"</"):
                return found.start()
            state, at = _SCRIPT_ESCAPED, found.end() - 2  # "<!--" leaves its "--" for "-->"
        elif token == b"-->":
            state, at = _SCRIPT_DATA, found.end()
        elif state is _SCRIPT_ESCAPED:
            if token.startswith(b"</"):
                return found.start()
            state, at = _SCRIPT_DOUBLE_ESCAPED, found.end() - 1
        else:  # "</script" ends the double escape
            state, at = _SCRIPT_ESCAPED, found.end() - 1


def _tag_at(markup: bytes, at: int) -> tuple[str, list[tuple[str, str]], bool | None, int] | None:
    """What the tokenizer makes of the ``<`` at ``at``: None for text, else the tag's name
    (lowercased), its attributes in order, whether it is an end tag (None for a comment,
    doctype or bogus comment, whose name is then ``"#"``, and for ``</>``, named ``""``) and
    where it ends. A tag the page ends inside is no token, and the last: it is ``""`` too,
    ending at the page's end."""
    end = len(markup)
    following = markup[at + 1 : at + 2]
    if following == b"!":
        if markup.startswith(b"<!--", at):
            if markup.startswith(b">", at + 4):
                return "#", [], None, at + 5
            if markup.startswith(b"->", at + 4):
                return "#", [], None, at + 6
            comment_end = _COMMENT_END.search(markup, at + 4)
            return "#", [], None, end if comment_end is None else comment_end.end()
        return "#", [], None, _past_gt(markup, at + 2)  # doctype, CDATA (a bogus comment), other
    if following == b"?":
        return "#", [], None, _past_gt(markup, at + 2)
    closing = following == b"/"
    start = at + 2 if closing else at + 1
    if start >= end:
        return None
    first = markup[start : start + 1]
    if not first.isalpha():  # (bytes.isalpha: ASCII letters only)
        if not closing:
            return None
        if first == b">":
            return "", [], None, start + 1
        return "#", [], None, _past_gt(markup, start)
    name_end = _TAG_NAME.match(markup, start).end()  # type: ignore[union-attr]  # always matches
    name = markup[start:name_end].decode("latin-1").lower()
    attributes: list[tuple[str, str]] = []
    at = name_end
    while True:
        at = _BLANKS_AND_SLASHES.match(markup, at).end()  # type: ignore[union-attr]
        if at >= end:
            return "", [], None, end
        if markup[at] == ord(">"):
            return name, attributes, closing, at + 1
        attribute = _ATTRIBUTE_NAME.match(markup, at)
        assert attribute is not None  # the byte at `at` is none of the blanks, "/" and ">"
        attribute_name = attribute.group().decode("latin-1").lower()
        at = _BLANKS.match(markup, attribute.end()).end()  # type: ignore[union-attr]
        value = ""
        if markup.startswith(b"=", at):
            at = _BLANKS.match(markup, at + 1).end()  # type: ignore[union-attr]
            quote = markup[at : at + 1]
            if quote in (b'"', b"'"):
                close = markup.find(quote, at + 1)
                if close < 0:
                    return "", [], None, end
                raw, at = markup[at + 1 : close], close + 1
            else:
                unquoted = _UNQUOTED.match(markup, at)
                assert unquoted is not None
                raw, at = unquoted.group(), unquoted.end()
            value = _unescape_attribute(raw.decode("latin-1"))
        attributes.append((attribute_name, value))


def _past_gt(markup: bytes, at: int) -> int:
    found = markup.find(b">", at)
    return len(markup) if found < 0 else found + 1


_REFERENCE = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[0-9A-Za-z]+;?)")
_NAMED = html.entities.html5


def _unescape_attribute(value: str) -> str:
    """An attribute value's character references, as the tokenizer resolves them in one: a named
    reference without its ``;`` stays as written when ``=`` or a letter or digit follows."""
    if "&" not in value:
        return value

    def resolve(match: re.Match[str]) -> str:
        reference = match.group(1)
        if reference.startswith("#"):
            return html.unescape(match.group())
        for length in range(len(reference), 0, -1):
            name = reference[:length]
            if name in _NAMED:
                if not name.endswith(";"):
                    following = reference[length:] or value[match.end() : match.end() + 1]
                    if following[:1] == "=" or following[:1].isalnum():
                        return match.group()
                return _NAMED[name] + reference[length:]
        return match.group()

    return _REFERENCE.sub(resolve, value)


def _meta_encoding(attributes: list[tuple[str, str]]) -> Any:
    """The encoding a ``<meta>``'s attributes name for Chromium, or None (scanning goes on):
    its last ``charset`` attribute, trimmed, if it has one (then ``content`` is not read), else,
    with an ``http-equiv`` of ``content-type`` (any case, untrimmed), what
    :func:`_charset_in_content` finds in its last ``content``. x-user-defined means
    windows-1252 there, UTF-16 UTF-8 (all measured, duplicates included)."""
    charset: str | None = None
    content: str | None = None
    pragma = False
    for name, value in attributes:
        if name == "charset":
            charset = value
        elif name == "content":
            content = value
        elif name == "http-equiv" and value.lower() == "content-type":
            pragma = True
    if charset is not None:
        label = charset
    elif pragma and content is not None:
        label = _charset_in_content(content)
    else:
        return None
    encoding = webencodings.lookup(label) if label else None
    if encoding is not None and encoding.name == "x-user-defined":
        return webencodings.lookup("windows-1252")
    return _byte_based(encoding)


_CHARSET_WORD = re.compile("charset", re.IGNORECASE)


def _charset_in_content(content: str) -> str:
    """Chromium's ``ExtractCharset``: after a ``charset`` (any case, anywhere) followed, past
    characters up to U+0020, by ``=`` (else the next ``charset`` is tried), and past such
    characters, a value in ``"`` or ``'`` up to the same quote (none: nothing), or unquoted up
    to a character up to U+0020, a quote or ``;`` (``,`` does not end it). Measured."""
    at = 0
    length = len(content)
    while True:
        found = _CHARSET_WORD.search(content, at)
        if found is None:
            return ""
        at = found.end()
        while at < length and content[at] <= " ":
            at += 1
        if at >= length or content[at] != "=":
            continue
        at += 1
        while at < length and content[at] <= " ":
            at += 1
        if at < length and content[at] in "\"'":
            close = content.find(content[at], at + 1)
            return "" if close < 0 else content[at + 1 : close]
        stop = at
        while stop < length and content[stop] > " " and content[stop] not in "\"';":
            stop += 1
        return content[at:stop]
