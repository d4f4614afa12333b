"""The WHATWG encoders a browser submits forms with, and the form's character encoding.

The work is in :func:`encode_text`, because
Python's codecs are not the WHATWG encoders a browser uses, and a form in a legacy encoding must
come out byte for byte as Chromium sends it. Every rule below was measured, not assumed: Chromium
156 was asked to submit every code point U+0000–U+FFFF (and planes 1–2 for the multi-byte
encodings) in each of the 37 encodings it can submit in, and Python's codec compared with it
(``tests/test_encode.py`` repeats that sweep). What had to be corrected:

- **windows-874, windows-1250 … 1258**: bytes Python leaves undefined in 0x80–0x9F are the C1
  control of the same value (U+0081 ↔ 0x81 in windows-1252, and so on); windows-1255 also has
  0xCA ↔ U+05BA.
- **KOI8-U** is KOI8-RU: 0xAE ↔ U+045E and 0xBE ↔ U+040E, not box-drawing characters.
- **x-user-defined**: 0x80–0xFF ↔ U+F780–U+F7FF (Python has no such codec).
- **Shift_JIS, EUC-JP, ISO-2022-JP** all derive from ``cp932``, less the extras the web lacks:
  its "best fit" ¢ £ ¬ ‖ 〜, its one-byte U+F8F0–U+F8F3 and its user-defined rows (lead
  0xF0–0xF9). Shift_JIS sends the IBM extensions (lead 0xFA–0xFC) where cp932 sends NEC's copies
  (lead 0xED–0xEE), and U+0080 as 0x80; EUC-JP and ISO-2022-JP keep NEC's copies. All three send
  ¥ and ‾ as JIS-Roman 0x5C and 0x7E, and EUC-JP never uses JIS X 0212. ISO-2022-JP is the
  Encoding Standard's state machine: half-width katakana go as full-width, ESC, SO and SI as
  ``&#65533;``.
- **gb18030** is GB18030-2022 (18 code points moved to two bytes, U+E7C7 to four, U+E5E5
  refused) where Python's codec is GB18030-2005; **GBK** is that without four-byte sequences,
  plus € as 0x80.
- **Big5**: Python's ``big5hkscs`` without the HKSCS rows below lead 0xA1, and 69 code points
  where its table and the web's disagree.
- IBM866, ISO-8859-*, KOI8-R, macintosh, x-mac-cyrillic, EUC-KR (as ``cp949``) and UTF-8 needed
  nothing. UTF-16 and replacement are never sent: forms in them submit UTF-8.

The sweep covers the BMP and planes 1–2 completely and every 97th code point above; what it does
not cover is inferred (above plane 2 only gb18030 and UTF-8 encode anything, algorithmically).
Python's codec tables belong to the interpreter, so the sweep is a test, not a one-off.

Characters an encoding cannot represent become ``&#NNNN;`` (decimal), the Encoding Standard's
"html" error mode, as in every browser. Lone surrogates become U+FFFD first: entry lists hold
scalar value strings.

Where Chromium departs from the standard's text, formtools does what Chromium does:
``accept-charset`` labels are separated by spaces *and commas*, and with no label it knows the
form keeps the document's encoding, not UTF-8 (``form_encoding(..., standard=True)`` gives the
standard's reading); and ``text/plain`` encodes each name and value on its own, not the whole
body at once (which differs only in ISO-2022-JP, after ¥ or ‾).
"""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from typing import Callable

import webencodings

from formtools._spec.constants import ASCII_WHITESPACE

__all__ = ["encode_text", "encoding_name", "form_encoding"]

# --- the form's encoding ----------------------------------------------------------------------

# The Encoding Standard's names, as Chromium also spells them (e.g. in ``_charset_``).
_NAMES = (
    "UTF-8", "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14",
    "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic", "GBK",
    "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR", "replacement",
    "UTF-16BE", "UTF-16LE", "x-user-defined",
)  # fmt: skip
_BY_LOWER_NAME = {name.lower(): name for name in _NAMES}
_ASCII_WHITESPACE_RUN = re.compile(f"[{ASCII_WHITESPACE}]+")


def _get_an_encoding(label: str) -> str | None:
    """#concept-encoding-get: a label (ASCII case-insensitive, ASCII whitespace trimmed) → the
    encoding's name, or None."""
    if not label.isascii():
        return None
    encoding = webencodings.lookup(label)
    return None if encoding is None else _BY_LOWER_NAME[encoding.name]


def _get_an_output_encoding(name: str) -> str:
    """#get-an-output-encoding: UTF-16 and replacement are never sent; UTF-8 is."""
    return "UTF-8" if name in ("replacement", "UTF-16BE", "UTF-16LE") else name


def encoding_name(label: str) -> str:
    """The canonical name (``UTF-8``, ``windows-1252``, ``Shift_JIS``) of an encoding label."""
    name = _get_an_encoding(label)
    if name is None:
        raise LookupError(f"not an encoding label: {label!r}")
    return name


def form_encoding(
    accept_charset: str | None, document_encoding: str, *, standard: bool = False
) -> str:
    """The encoding a form submits in (#picking-an-encoding-for-the-form), by its canonical name.

    ``accept_charset`` is the form's attribute (``None`` when absent); ``document_encoding`` is
    any label of the document's encoding. The first label the browser knows wins, and UTF-16 and
    replacement become UTF-8:

    >>> form_encoding("bogus latin1", "UTF-8")
    'windows-1252'

    By default this is Chromium 156's reading: labels are separated by U+0020 or ``,`` (a tab or
    newline is part of a label, which then matches nothing), and with no known label the
    document's encoding stays. With ``standard=True`` it is the HTML Standard's: labels are
    separated by ASCII whitespace only, and with none known the form uses UTF-8.
    """
    encoding = encoding_name(document_encoding)
    if accept_charset is not None:
        if standard:
            candidates = map(_get_an_encoding, _ASCII_WHITESPACE_RUN.split(accept_charset))
            encoding = next(filter(None, candidates), "UTF-8")
        else:
            labels = accept_charset.replace(",", " ").split(" ")
            whole = (label for label in labels if not _ASCII_WHITESPACE_RUN.search(label))
            encoding = next(filter(None, map(_get_an_encoding, whole)), encoding)
    return _get_an_output_encoding(encoding)


# --- text → bytes -----------------------------------------------------------------------------

_Encoder = Callable[[str], bytes]
_CharEncoder = Callable[[str], "bytes | None"]
_SURROGATE = re.compile("[\ud800-\udfff]")


def _scalar_values(text: str) -> str:
    """#javascript-string-convert: a surrogate pair is one code point, a lone surrogate U+FFFD."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _reference(char: str) -> bytes:
    """The "html" error mode: a character the encoding lacks, as a decimal character reference."""
    return b"&#%d;" % ord(char)


def encode_text(text: str, encoding: str) -> bytes:
    """``text`` encoded as the browser encodes form data in ``encoding`` (any label of it).

    Lone surrogates become U+FFFD, characters the encoding lacks become ``&#NNNN;``:

    >>> encode_text("a\\u0259\\u20ac", "latin1")
    b'a&#601;\\x80'
    """
    return _encoder_of_label(encoding)(_scalar_values(text))


@functools.lru_cache(maxsize=64)
def _encoder_of_label(label: str) -> _Encoder:
    """The encoder for ``label``, its name looked up once: a form encodes every value with the
    same label (the lookup was a third of encoding a short value)."""
    return _encoder(_get_an_output_encoding(encoding_name(label)))


@functools.cache
def _encoder(name: str) -> _Encoder:
    if name == "UTF-8":
        return lambda text: text.encode("utf-8")
    if name == "ISO-2022-JP":
        return _iso_2022_jp
    if name in _CHAR_ENCODERS:
        return _charwise(_CHAR_ENCODERS[name])
    return _charmap(name)


# Single-byte encodings: the Python codec's decoding table with the web's corrections, turned
# into an encoding map the way the standard library builds its own charmap codecs.
_SINGLE_BYTE_CODECS = {
    "IBM866": "cp866", "ISO-8859-2": "iso8859_2", "ISO-8859-3": "iso8859_3",
    "ISO-8859-4": "iso8859_4", "ISO-8859-5": "iso8859_5", "ISO-8859-6": "iso8859_6",
    "ISO-8859-7": "iso8859_7", "ISO-8859-8": "iso8859_8", "ISO-8859-8-I": "iso8859_8",
    "ISO-8859-10": "iso8859_10", "ISO-8859-13": "iso8859_13", "ISO-8859-14": "iso8859_14",
    "ISO-8859-15": "iso8859_15", "ISO-8859-16": "iso8859_16", "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u", "macintosh": "mac_roman", "windows-874": "cp874",
    "windows-1250": "cp1250", "windows-1251": "cp1251", "windows-1252": "cp1252",
    "windows-1253": "cp1253", "windows-1254": "cp1254", "windows-1255": "cp1255",
    "windows-1256": "cp1256", "windows-1257": "cp1257", "windows-1258": "cp1258",
    "x-mac-cyrillic": "mac_cyrillic", "x-user-defined": "ascii",
}  # fmt: skip
_UNDEFINED = "\ufffe"  # a charmap decoding table's mark for a byte with no character
_SINGLE_BYTE_FIXES = {
    "KOI8-U": {0xAE: "\u045e", 0xBE: "\u040e"},
    "windows-1255": {0xCA: "\u05ba"},
    "x-user-defined": {byte: chr(0xF780 + byte - 0x80) for byte in range(0x80, 0x100)},
}


def _decoding_table(name: str) -> str:
    table = []
    for byte in range(256):
        try:
            char = bytes([byte]).decode(_SINGLE_BYTE_CODECS[name])
        except UnicodeDecodeError:
            c1 = name.startswith("windows-") and 0x80 <= byte <= 0x9F
            char = chr(byte) if c1 else _UNDEFINED
        table.append(_SINGLE_BYTE_FIXES.get(name, {}).get(byte, char))
    return "".join(table)


@functools.cache
def _windows_1252() -> str:
    return _decoding_table("windows-1252")


def decode_windows_1252(data: bytes) -> str:
    """``data`` read as windows-1252 (#windows-1252; Blink's ``Latin1Encoding``), a character
    per byte. Chromium 156 turns a text/plain entry list it sends as a query back into text so
    (``EncodedFormData::FlattenToString``; see ``formtools._execute.request``).

    >>> decode_windows_1252(b"\\xe9\\x80\\x81")
    'é€\\x81'
    """
    return codecs.charmap_decode(data, "strict", _windows_1252())[0]


def _charmap(name: str) -> _Encoder:
    encoding_map = codecs.charmap_build(_decoding_table(name))
    return lambda text: codecs.charmap_encode(text, "xmlcharrefreplace", encoding_map)[0]


def _charwise(encode_char: _CharEncoder) -> _Encoder:
    """An encoder for an ASCII-compatible encoding, from one that encodes a single character."""
    cached = functools.lru_cache(maxsize=4096)(encode_char)

    def encode(text: str) -> bytes:
        if text.isascii():
            return text.encode("ascii")
        return b"".join(
            char.encode("ascii") if char < "\x80" else cached(char) or _reference(char)
            for char in text
        )

    return encode


def _python(char: str, codec: str) -> bytes | None:
    try:
        return char.encode(codec)
    except UnicodeEncodeError:
        return None


def _two_byte_run(first: int, lead: int, trails: str) -> dict[str, bytes]:
    """Code points from ``first`` on, each encoded as ``lead`` and the next of ``trails``."""
    return {chr(first + i): bytes([lead, trail]) for i, trail in enumerate(bytes.fromhex(trails))}


# gb18030: GB18030-2022 where Python's codec is GB18030-2005.
_GB18030_FIXES: dict[str, bytes | None] = {
    "\u1e3f": b"\xa8\xbc", "\ue7c7": b"\x81\x35\xf4\x37", "\ue5e5": None,
    **_two_byte_run(0x9FB4, 0xFE, "59 61 66 67 6d 7e 90 a0"),
    **_two_byte_run(0xFE10, 0xA6, "d9 db da dc dd de df ec ed f3"),
}  # fmt: skip


def _gb18030(char: str) -> bytes | None:
    return _GB18030_FIXES[char] if char in _GB18030_FIXES else _python(char, "gb18030")


def _gbk(char: str) -> bytes | None:
    if char == "\u20ac":
        return b"\x80"
    encoded = _gb18030(char)
    return encoded if encoded is not None and len(encoded) == 2 else None


# Big5: where Python's big5hkscs table and the web's Big5 index disagree.
_BIG5_FIXES: dict[str, bytes | None] = {
    **dict.fromkeys("\u00a2\u00a3\u00a5\u2022\u203e\u223c\u2609\u2641\uff64"),
    "\u00af": b"\xa1\xc2", "\u2027": b"\xa1\x45", "\u20ac": b"\xa3\xe1", "\u2215": b"\xa2\x41",
    "\u2295": b"\xa1\xf2", "\u2299": b"\xa1\xf3", "\u2421": b"\xa3\xe0", "\u256d": b"\xa2\x7e",
    "\u256e": b"\xa2\xa1", "\u256f": b"\xa2\xa3", "\u2570": b"\xa2\xa2", "\u4edd": b"\xc6\xdf",
    "\u5605": b"\xfb\x48", "\u5ed0": b"\xfb\xf9", "\u5ef4": b"\xc6\xcf", "\u60a4": b"\xfc\x6c",
    "\u65e0": b"\xc6\xd3", "\u732a": b"\xfe\x52", "\u7676": b"\xc6\xd5", "\u96b6": b"\xc6\xd7",
    "\ufe51": b"\xa1\x4e", "\ufe68": b"\xa2\x42", "\uff0f": b"\xa1\xfe", "\uff3c": b"\xa2\x40",
    "\uff5e": b"\xa1\xe3", "\uffe0": b"\xa2\x46", "\uffe1": b"\xa2\x47", "\uffe5": b"\xa2\x44",
    **_two_byte_run(0x2400, 0xA3, bytes(range(0xC0, 0xE0)).hex()),  # control pictures
}  # fmt: skip


def _big5(char: str) -> bytes | None:
    if char in _BIG5_FIXES:
        return _BIG5_FIXES[char]
    encoded = _python(char, "big5hkscs")
    # the encoder never uses the HKSCS rows below 0xA1 (#big5-encoder, "index Big5 pointer")
    return encoded if encoded is not None and encoded[0] >= 0xA1 else None


# cp932's mappings that the web's jis0208 index lacks: best-fit look-alikes of ¢ £ ¬ ‖ 〜.
_CP932_BEST_FIT = frozenset("\u00a2\u00a3\u00ac\u2016\u301c")
_JIS_ROMAN = {"\u00a5": b"\x5c", "\u203e": b"\x7e"}


def _jis(char: str) -> bytes | None:
    """``char`` in Shift_JIS bytes, as far as the web's jis0208 index has it (NEC's copies of
    the IBM extensions preferred, as in cp932)."""
    if char in _CP932_BEST_FIT:
        return None
    encoded = _python(char, "cp932")
    if encoded is None:
        return None
    if len(encoded) == 1:  # half-width katakana; not cp932's one-byte U+F8F0–U+F8F3
        return encoded if 0xA1 <= encoded[0] <= 0xDF else None
    return None if 0xF0 <= encoded[0] <= 0xF9 else encoded  # no user-defined rows


@functools.cache
def _ibm_extensions() -> dict[str, bytes]:
    """The IBM extensions (lead 0xFA–0xFC) by character: Shift_JIS sends these, not NEC's."""
    found: dict[str, bytes] = {}
    for lead in (0xFA, 0xFB, 0xFC):
        for trail in (*range(0x40, 0x7F), *range(0x80, 0xFD)):
            try:
                found.setdefault(bytes([lead, trail]).decode("cp932"), bytes([lead, trail]))
            except UnicodeDecodeError:
                continue
    return found


def _shift_jis(char: str) -> bytes | None:
    if char == "\x80":  # #shift_jis-encoder: U+0080 is a byte of its own
        return b"\x80"
    if char in _JIS_ROMAN:
        return _JIS_ROMAN[char]
    encoded = _jis(char)
    if encoded is not None and encoded[0] in (0xED, 0xEE):
        return _ibm_extensions()[char]
    return encoded


def _euc_jp(char: str) -> bytes | None:
    if char in _JIS_ROMAN:
        return _JIS_ROMAN[char]
    encoded = _jis(char)
    if encoded is None:
        return None
    if len(encoded) == 1:
        return b"\x8e" + encoded
    lead, trail = encoded  # Shift_JIS bytes → jis0208 pointer → EUC-JP bytes
    pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188
    row, cell = divmod(pointer + trail - (0x40 if trail < 0x7F else 0x41), 94)
    return bytes([0xA1 + row, 0xA1 + cell]) if row < 94 else None


_CHAR_ENCODERS: dict[str, _CharEncoder] = {
    "gb18030": _gb18030,
    "GBK": _gbk,
    "Big5": _big5,
    "Shift_JIS": _shift_jis,
    "EUC-JP": _euc_jp,
    "EUC-KR": functools.partial(_python, codec="cp949"),
}

# #iso-2022-jp-encoder: half-width katakana are sent as their full-width forms (NFKC, except
# that the sound marks stay spacing).
_KATAKANA_SOUND_MARKS = {"\uff9e": "\u309b", "\uff9f": "\u309c"}
_ESCAPE = {"ascii": b"\x1b(B", "roman": b"\x1b(J", "jis0208": b"\x1b$B"}


def _iso_2022_jp(text: str) -> bytes:
    """#iso-2022-jp-encoder in the "html" error mode; the string ends in the ASCII state."""
    out = bytearray()
    state = "ascii"

    def switch(to: str) -> None:
        nonlocal state
        if state != to:
            out.extend(_ESCAPE[to])
            state = to

    for char in text:
        if char in "\x0e\x0f\x1b":  # refused as U+FFFD, so no escape sequence gets through
            if state == "jis0208":
                switch("ascii")
            out.extend(_reference("\ufffd"))
        elif char < "\x80":
            if not (state == "roman" and char not in "\\~"):
                switch("ascii")
            out.extend(char.encode("ascii"))
        elif char in _JIS_ROMAN:
            switch("roman")
            out.extend(_JIS_ROMAN[char])
        else:
            if "\uff61" <= char <= "\uff9f":
                char = _KATAKANA_SOUND_MARKS.get(char) or unicodedata.normalize("NFKC", char)
            encoded = _euc_jp(char)
            if encoded is None:
                if state == "jis0208":
                    switch("ascii")
                out.extend(_reference(char))
            else:
                switch("jis0208")
                out.extend(byte - 0x80 for byte in encoded)
    switch("ascii")
    return bytes(out)
