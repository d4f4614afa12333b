"""Prefilter: decide from a page's bytes, before any parsing, whether it can hold a tool.

Crawls are mostly pages without declarative tools, and parsing is the expensive stage (html5lib
runs at about 1 MB/s), so batch extraction first scans the bytes: a form registers a tool only
with a ``toolname`` attribute, and attribute names are ASCII case-insensitive and never written
with character references, so a page whose decoded text lacks ``toolname`` in any letter case
yields no tool. With ``all_forms`` (every form becomes a tool or a diagnostic) the marker is
``<form`` instead.

The scan is on bytes for every encoding a browser decodes ASCII-compatibly (UTF-8, windows-1252,
Shift_JIS, ISO-2022-JP in its ASCII mode …): there the marker's bytes are its ASCII bytes. Only
UTF-16 is not ASCII-compatible; a browser decodes a page as UTF-16 only for a UTF-16 byte order
mark, a UTF-16 charset in the HTTP ``Content-Type`` or, with neither, bytes that start with ``<?x``
in UTF-16 (a ``<meta>`` declaring UTF-16 means UTF-8; see :mod:`.charset`), and then the marker is searched as UTF-16 code units. ``bytes.lower()`` lowers every byte in
A–Z, so in UTF-16 it also changes some bytes of other characters, which can only add matches: a
false positive costs a parse, and the scan never gives a false negative.
"""

from __future__ import annotations

import codecs

from formtools._parse.charset import lowered, utf16_without_bom

__all__ = ["may_hold_tools"]

_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_UTF16 = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be"}


def _utf16_codec(body: bytes, content_type: str | None) -> str | None:
    """The UTF-16 codec a browser decodes ``body`` with, or None for an ASCII-compatible one."""
    if body.startswith(codecs.BOM_UTF8):
        return None  # a BOM wins over the header
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return codec
    utf16 = utf16_without_bom(body, content_type)
    return _UTF16[utf16] if utf16 else None


def may_hold_tools(
    body: bytes, content_type: str | None = None, *, all_forms: bool = False
) -> bool:
    """Whether the page can register a tool (``all_forms``: whether it can hold a form).

    ``content_type`` is the HTTP header, whose charset takes part in decoding as in
    :func:`~formtools.parse_html`. False means parsing the page would find none.
    """
    marker = "<form" if all_forms else "toolname"
    # bytes.lower() runs at memory speed and `in` is a fast substring search
    return marker.encode(_utf16_codec(body, content_type) or "ascii") in lowered(body)
