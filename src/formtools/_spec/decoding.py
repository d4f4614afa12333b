"""The Encoding Standard's decoders, for every encoding it defines, as html5lib's codecs.

A page in a legacy encoding must become the text Chromium makes of it, because tool names,
descriptions and the values a form submits come from that text. html5lib finds encodings through
``webencodings``, which decodes with Python's codecs, and those are not the web's: Python's
``cp1252`` has no character for 0x81 (the standard: U+0081), its ``cp932`` gives 0xA0 as U+F8F0
(the standard: an error), its ``gbk`` has no 0x80 (the standard decodes GBK as gb18030: €), its
``big5hkscs``, ``euc_jp``, ``cp949``, ``koi8_u``, ``iso2022_jp``, ``gb18030`` (2005, not 2022)
and ``cp1255`` tables differ in places, and error sequences resynchronize differently. No
maintained Python package implements the standard (PyPI has none; ``webencodings`` only maps
labels to Python's codecs), so the decoders are written here, step by step as the standard
words them (https://encoding.spec.whatwg.org/, each function names its section), over the
standard's own indexes in ``encoding_indexes.json`` (``scripts/gen_encoding_indexes.py`` makes
it from ``whatwg/encoding``'s ``index-*.txt``).

:func:`install` puts an :class:`webencodings.Encoding` carrying these codecs in
``webencodings.CACHE`` for every encoding except UTF-8 (Python's UTF-8 decoder with
``"replace"`` already substitutes maximal subparts exactly as the standard does, and UTF-8 pages
keep their fast path). UTF-16BE/LE decode with Python's decoders too (exact as well;
``tests/test_encoding_whatwg.py`` checks the error cases), but as a whole: Python's stream reader,
which html5lib reads through, drops an odd last byte where the standard gives U+FFFD. Which encoding a page is in is
settled the way Chromium settles it (``formtools._parse.charset``), and html5lib is handed it: it
looks it up through ``webencodings.lookup``, which reads that cache, and decodes with the codec it
finds there. The cache is the process's, so other users
of ``webencodings`` in the process get the standard's decoders too (their whole point).

Where Chromium 156 departs from the standard, formtools does what Chromium does (both measured,
``tests/test_browser_encodings.py``): EUC-JP's jis0212 flag is cleared only when a pair is looked
up, Big5's four two-code-point pointers give a C1 control and a lone low surrogate, and an
ISO-2022-JP ``ESC $``/``ESC (`` that starts no escape sequence reports no error for the bytes it
puts back and keeps its ``$``/``(`` at the end of the input (see ``_euc_jp``, ``_BIG5_PAIRS`` and
``_iso_2022_jp``).
"""

from __future__ import annotations

import codecs
import functools
import json
import re
from bisect import bisect_right
from importlib.resources import files
from typing import Any, Callable

import webencodings

__all__ = ["decode", "decode_until_error", "install"]

_NULL = "\ufffe"  # the index has no code point for this pointer (charmap_decode's mark too)
_FFFD = "\ufffd"

Decoder = Callable[[bytes], str]


@functools.cache
def _indexes() -> dict[str, Any]:
    text = files("formtools._spec").joinpath("encoding_indexes.json").read_text("utf-8")
    indexes: dict[str, Any] = json.loads(text)["indexes"]
    return indexes


def _index(name: str) -> str:
    index: str = _indexes()[name]
    return index


# --- single-byte encodings (#single-byte-decoder) and x-user-defined -----------------------

_SINGLE_BYTE = (
    "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
    "iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14",
    "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
)  # fmt: skip
_ASCII = "".join(map(chr, range(0x80)))


@functools.cache
def _charmap_table(name: str) -> str:
    if name == "x-user-defined":  # #x-user-defined-decoder
        return _ASCII + "".join(chr(0xF780 + byte - 0x80) for byte in range(0x80, 0x100))
    return _ASCII + _index("iso-8859-8" if name == "iso-8859-8-i" else name)


def _single_byte(name: str) -> Decoder:
    """#single-byte-decoder: ASCII as itself, the rest through the index, U+FFFD where it has
    nothing (``charmap_decode`` in ``"replace"`` mode does exactly that, in C)."""

    def decode(data: bytes) -> str:
        if data.isascii():
            return data.decode("ascii")
        return codecs.charmap_decode(data, "replace", _charmap_table(name))[0]

    return decode


# --- multi-byte encodings ------------------------------------------------------------------
# Each decoder copies ASCII runs whole (every one of them maps an ASCII byte in its initial
# state to itself) and runs the standard's handler on the bytes between. "Restore byte to
# ioQueue" is "do not advance".

_NON_ASCII = re.compile(rb"[\x80-\xff]")


class _Text(list[str]):
    """A decoder's output, piece by piece, and where its first error is: the standard's
    decoders "return error" (U+FFFD in replacement mode) at chosen steps, and an XML document
    ends at the first (:func:`decode_until_error`). A U+FFFD in the text does not tell: gb18030
    spells the character itself (84 31 A4 37), which is no error."""

    first_error: int | None = None  # the piece that is the first error's U+FFFD

    def error(self) -> None:
        if self.first_error is None:
            self.first_error = len(self)
        self.append(_FFFD)

    def append_or_error(self, char: str | None) -> None:
        """``char``, or an error where there is none (the index has no code point)."""
        if char is None:
            self.error()
        else:
            self.append(char)

    def unreport(self) -> None:
        """Take back the last piece, an error (Chromium's ISO-2022-JP reports none there)."""
        if self.first_error == len(self) - 1:
            self.first_error = None
        del self[-1]

    def until_error(self) -> str:
        return "".join(self if self.first_error is None else self[: self.first_error])


Handler = Callable[[bytes, int, _Text], int]


def _ascii_runs(handler_for: Callable[[], Handler]) -> Callable[[bytes], _Text]:
    """A decoder that hands a handler each stretch starting at a non-ASCII byte; the handler
    appends what it decodes and returns where the next ASCII-state stretch begins.
    ``handler_for`` makes one handler per decode, so that a decoder with state (EUC-JP's
    JIS X 0212 flag) starts afresh each time."""

    def decode(data: bytes) -> _Text:
        if data.isascii():
            return _Text((data.decode("ascii"),))
        handler = handler_for()
        out = _Text()
        at, end = 0, len(data)
        while at < end:
            match = _NON_ASCII.search(data, at)
            if match is None:
                out.append(data[at:].decode("ascii"))
                break
            start = match.start()
            if start > at:
                out.append(data[at:start].decode("ascii"))
            at = handler(data, start, out)
        return out

    return decode


def _gb18030_ranges_code_point(pointer: int) -> str | None:
    """#index-gb18030-ranges-code-point."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return "\ue7c7"
    ranges = _gb18030_ranges()
    offset, code_point_offset = ranges[bisect_right(ranges, (pointer, 0x110000)) - 1]
    return chr(code_point_offset + pointer - offset)


@functools.cache
def _gb18030_ranges() -> list[tuple[int, int]]:
    return [(pointer, code_point) for pointer, code_point in _indexes()["gb18030-ranges"]]


def _gb18030(data: bytes, at: int, out: _Text) -> int:
    """#gb18030-decoder (GBK's decoder too), from a non-ASCII byte at ``at``."""
    index = _index("gb18030")
    end = len(data)
    first = data[at]
    if first == 0x80:
        out.append("\u20ac")
        return at + 1
    if first == 0xFF:
        out.error()
        return at + 1
    if at + 1 == end:  # end-of-queue with first set
        out.error()
        return end
    byte = data[at + 1]
    if 0x30 <= byte <= 0x39:
        second = byte
        if at + 2 == end:
            out.error()
            return end
        byte = data[at + 2]
        if not 0x81 <= byte <= 0xFE:
            out.error()  # restore « second, byte »
            return at + 1
        third = byte
        if at + 3 == end:
            out.error()
            return end
        byte = data[at + 3]
        if not 0x30 <= byte <= 0x39:
            out.error()  # restore « second, third, byte »
            return at + 1
        pointer = (
            (first - 0x81) * (10 * 126 * 10)
            + (second - 0x30) * (10 * 126)
            + (third - 0x81) * 10
            + byte
            - 0x30
        )
        code_point = _gb18030_ranges_code_point(pointer)
        out.append_or_error(code_point)
        return at + 4
    if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
        pointer = (first - 0x81) * 190 + (byte - (0x40 if byte < 0x7F else 0x41))
        char = index[pointer] if pointer < len(index) else _NULL
        if char != _NULL:
            out.append(char)
            return at + 2
    out.error()
    return at + 1 if byte < 0x80 else at + 2


# #big5-decoder's four pointers that decode to two code points (Ê̄ Ê̌ ê̄ ê̌: U+00CA or U+00EA and
# U+0304 or U+030C). Chromium 156 departs: it gives U+0093 or U+00B3 and a lone low surrogate
# (U+DF04, U+DF0C), measured in text and attribute values; a tool description holding one is
# then empty, as a lone surrogate makes it. formtools does what Chromium does.
_BIG5_PAIRS = {1133: "\x93\udf04", 1135: "\x93\udf0c", 1164: "\xb3\udf04", 1166: "\xb3\udf0c"}


def _big5(data: bytes, at: int, out: _Text) -> int:
    """#big5-decoder."""
    leading = data[at]
    if not 0x81 <= leading <= 0xFE:
        out.error()
        return at + 1
    if at + 1 == len(data):
        out.error()
        return at + 1
    byte = data[at + 1]
    if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
        pointer = (leading - 0x81) * 157 + (byte - (0x40 if byte < 0x7F else 0x62))
        if pointer in _BIG5_PAIRS:
            out.append(_BIG5_PAIRS[pointer])
            return at + 2
        index = _index("big5")
        char = index[pointer] if pointer < len(index) else _NULL
        if char != _NULL:
            out.append(char)
            return at + 2
    out.error()
    return at + 1 if byte < 0x80 else at + 2


def _euc_jp() -> Handler:
    """#euc-jp-decoder, with Chromium 156's one departure: its EUC-JP jis0212 flag is cleared
    only when a pair is looked up (both bytes in 0xA1–0xFE), not after every leading byte, so
    after ``8F A2`` and a byte that ends the sequence, the next pair is read in JIS X 0212
    (``8F A2 41 B0 A1`` is U+FFFD, A, U+4E02; the standard: U+FFFD, A, U+4E9C). Measured."""
    jis0212 = False

    def handler(data: bytes, at: int, out: _Text) -> int:
        nonlocal jis0212
        end = len(data)
        leading = data[at]
        if not (leading in (0x8E, 0x8F) or 0xA1 <= leading <= 0xFE):
            out.error()
            return at + 1
        if at + 1 == end:
            out.error()
            return end
        byte = data[at + 1]
        if leading == 0x8E and 0xA1 <= byte <= 0xDF:
            out.append(chr(0xFF61 - 0xA1 + byte))
            return at + 2
        if leading == 0x8F and 0xA1 <= byte <= 0xFE:
            jis0212, leading, at = True, byte, at + 1
            if at + 1 == end:
                out.error()
                return end
            byte = data[at + 1]
        if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
            index = _index("jis0212" if jis0212 else "jis0208")
            jis0212 = False
            pointer = (leading - 0xA1) * 94 + byte - 0xA1
            char = index[pointer] if pointer < len(index) else _NULL
            if char != _NULL:
                out.append(char)
                return at + 2
        out.error()
        return at + 1 if byte < 0x80 else at + 2

    return handler


def _shift_jis(data: bytes, at: int, out: _Text) -> int:
    """#shift_jis-decoder."""
    leading = data[at]
    if leading == 0x80:
        out.append("\x80")
        return at + 1
    if 0xA1 <= leading <= 0xDF:
        out.append(chr(0xFF61 - 0xA1 + leading))
        return at + 1
    if not (0x81 <= leading <= 0x9F or 0xE0 <= leading <= 0xFC):
        out.error()
        return at + 1
    if at + 1 == len(data):
        out.error()
        return at + 1
    byte = data[at + 1]
    if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
        offset = 0x40 if byte < 0x7F else 0x41
        pointer = (leading - (0x81 if leading < 0xA0 else 0xC1)) * 188 + byte - offset
        if 8836 <= pointer <= 10715:  # EUDC
            out.append(chr(0xE000 - 8836 + pointer))
            return at + 2
        index = _index("jis0208")
        char = index[pointer] if pointer < len(index) else _NULL
        if char != _NULL:
            out.append(char)
            return at + 2
    out.error()
    return at + 1 if byte < 0x80 else at + 2


def _euc_kr(data: bytes, at: int, out: _Text) -> int:
    """#euc-kr-decoder."""
    leading = data[at]
    if not 0x81 <= leading <= 0xFE:
        out.error()
        return at + 1
    if at + 1 == len(data):
        out.error()
        return at + 1
    byte = data[at + 1]
    if 0x41 <= byte <= 0xFE:
        index = _index("euc-kr")
        pointer = (leading - 0x81) * 190 + (byte - 0x41)
        char = index[pointer] if pointer < len(index) else _NULL
        if char != _NULL:
            out.append(char)
            return at + 2
    out.error()
    return at + 1 if byte < 0x80 else at + 2


# --- ISO-2022-JP (#iso-2022-jp-decoder): a state machine over every byte ---------------------

_ASCII_STATE, _ROMAN, _KATAKANA, _LEADING, _TRAILING, _ESCAPE_START, _ESCAPE = range(7)
_EOQ = -1  # end-of-queue


def _iso_2022_jp(data: bytes) -> _Text:
    """#iso-2022-jp-decoder, with Chromium 156's two departures. When ``ESC $`` or ``ESC (`` is not
    followed by a byte that completes an escape sequence, the two bytes the standard restores
    (``$``/``(`` and that byte) are decoded in the output state, but an error they give is not
    reported: the escape's U+FFFD stands for them (``a ESC ( FF b`` is a, U+FFFD, (, b; the
    standard: a, U+FFFD, (, U+FFFD, b; after ``ESC $ B``, ``ESC ( 00`` is one U+FFFD, the pair
    ``( 00`` none). A byte restored after a lone ``ESC`` still gives its error. And ``ESC $`` or
    ``ESC (`` at the end of the input is U+FFFD and ``$``/``(`` in every output state (the
    standard decodes the restored byte in it: after ``ESC ( I`` a katakana, after ``ESC $ B`` a
    second U+FFFD). Both measured (``tests/test_browser_encodings.py``)."""
    if b"\x1b" not in data and data.isascii() and b"\x0e" not in data and b"\x0f" not in data:
        return _Text((data.decode("ascii"),))
    jis0208 = _index("jis0208")
    out = _Text()
    state = output_state = _ASCII_STATE
    leading = 0
    output = False
    queue: list[int] = []  # restored bytes, read before the data (last first)
    muted = 0  # how many of the queue's top bytes a failed ``ESC $``/``ESC (`` restored
    mark = -1  # where the output stood before a muted byte was decoded
    at, end = 0, len(data)
    while True:
        if mark >= 0 and len(out) == mark + 1 and out[mark] == _FFFD:
            out.unreport()
        mark = -1
        if queue:
            byte = queue.pop()
            if muted:  # Chromium: an error this byte gives is the escape's (see above)
                muted -= 1
                mark = len(out)
        elif at < end:
            byte = data[at]
            at += 1
        else:
            byte = _EOQ
        if state in (_ASCII_STATE, _ROMAN, _KATAKANA, _LEADING):
            if byte == 0x1B:
                state = _ESCAPE_START
                continue
            if byte == _EOQ:
                return out
            output = False
            if state == _ASCII_STATE:
                out.append_or_error(chr(byte) if byte < 0x80 and byte not in (0x0E, 0x0F) else None)
            elif state == _ROMAN:
                if byte == 0x5C:
                    out.append("\u00a5")
                elif byte == 0x7E:
                    out.append("\u203e")
                else:
                    out.append_or_error(chr(byte) if byte < 0x80 and byte not in (0x0E, 0x0F) else None)
            elif state == _KATAKANA:
                out.append_or_error(chr(0xFF61 - 0x21 + byte) if 0x21 <= byte <= 0x5F else None)
            elif 0x21 <= byte <= 0x7E:  # leading byte
                leading, state = byte, _TRAILING
            else:
                out.error()
        elif state == _TRAILING:
            if byte == 0x1B:
                state = _ESCAPE_START
                out.error()
                continue
            state = _LEADING
            if 0x21 <= byte <= 0x7E:
                pointer = (leading - 0x21) * 94 + byte - 0x21
                char = jis0208[pointer] if pointer < len(jis0208) else _NULL
                out.append_or_error(None if char == _NULL else char)
            else:
                out.error()  # end-of-queue too; the leading-byte state then finishes
        elif state == _ESCAPE_START:
            if byte in (0x24, 0x28):
                leading, state = byte, _ESCAPE
                continue
            if byte != _EOQ:
                queue.append(byte)
            output, state = False, output_state
            out.error()
        else:  # escape
            lead, leading = leading, 0
            new_state = None
            if lead == 0x28 and byte == 0x42:
                new_state = _ASCII_STATE
            elif lead == 0x28 and byte == 0x4A:
                new_state = _ROMAN
            elif lead == 0x28 and byte == 0x49:
                new_state = _KATAKANA
            elif lead == 0x24 and byte in (0x40, 0x42):
                new_state = _LEADING
            if new_state is not None:
                state = output_state = new_state
                if output:
                    out.error()
                output = True
                continue
            if byte == _EOQ:  # Chromium: the byte itself, whatever the output state
                out.error()
                out.append(chr(lead))
                return out
            queue.extend((byte, lead))  # restored « leading, byte »: leading is read first
            muted = 2
            output, state = False, output_state
            out.error()


def _replacement(data: bytes) -> _Text:
    """#replacement-decoder: one error for any input, then nothing."""
    out = _Text()
    if data:
        out.error()
    return out


# Python's C codecs decode a page exactly wherever they decode it at all and each character they
# give for a byte sequence on which they and the standard disagree is given for no other sequence,
# always for the standard's same answer: that character is then replaced by the standard's answer.
# Every one- and two-byte sequence is compared once (``_twin_fixes``). Where the codec fails, or
# gives an ambiguous character, the standard's decoder above runs. Only for the two-byte encodings
# whose sequences Python segments as the standard does; Shift_JIS pages are common (8 % of the
# benchmark corpus) and the pure-Python decoder is 20 times slower than cp932.
_PYTHON_TWINS = {"shift_jis": "cp932", "euc-kr": "cp949"}


@functools.cache
def _twin_fixes(name: str) -> tuple[dict[int, str], str, str]:
    exact = _joined(_standard(name))
    answers: dict[str, set[str]] = {}  # Python's character → the standard's answers for it
    differing: set[str] = set()
    for lead in range(0x80, 0x100):
        for sequence in (bytes([lead]), *(bytes([lead, trail]) for trail in range(0x100))):
            try:
                python = sequence.decode(_PYTHON_TWINS[name])
            except UnicodeDecodeError:
                continue
            if len(python) != 1:
                continue  # two one-byte sequences, each compared on its own
            standard = exact(sequence)
            if python.isascii():
                answers.setdefault(python, set()).update((python, standard))  # ASCII bytes too
            else:
                answers.setdefault(python, set()).add(standard)
            if python != standard:
                differing.add(python)
    fixes = {ord(char): next(iter(answers[char])) for char in differing if len(answers.get(char, ())) == 1}
    ambiguous = "".join(sorted(char for char in differing if ord(char) not in fixes))
    return fixes, "".join(map(chr, sorted(fixes))), ambiguous


def _with_python_twin(name: str) -> Decoder:
    exact = _joined(_standard(name))
    codec = _PYTHON_TWINS[name]

    def decode(data: bytes) -> str:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            return exact(data)
        fixes, fixed, ambiguous = _twin_fixes(name)  # a few characters: `in` is fastest
        if any(char in text for char in ambiguous):
            return exact(data)
        return text.translate(fixes) if any(char in text for char in fixed) else text

    return decode


_MULTI_BYTE: dict[str, Handler] = {
    "gbk": _gb18030, "gb18030": _gb18030, "big5": _big5, "shift_jis": _shift_jis, "euc-kr": _euc_kr,
}  # fmt: skip


@functools.cache
def _standard(name: str) -> Callable[[bytes], _Text]:
    """The decoder written here for a multi-byte encoding, ISO-2022-JP or replacement, giving
    its text with its first error."""
    if name in _MULTI_BYTE:
        stateless = _MULTI_BYTE[name]
        return _ascii_runs(lambda: stateless)
    if name == "euc-jp":
        return _ascii_runs(_euc_jp)
    if name == "iso-2022-jp":
        return _iso_2022_jp
    if name == "replacement":
        return _replacement
    raise LookupError(f"the Encoding Standard defines no encoding named {name!r}")


def _joined(standard: Callable[[bytes], _Text]) -> Decoder:
    return lambda data: "".join(standard(data))


@functools.cache
def _decoder(name: str) -> Decoder:
    if name in _PYTHON_TWINS:
        return _with_python_twin(name)
    if name in _SINGLE_BYTE or name == "x-user-defined":
        return _single_byte(name)
    if name in ("utf-8", "utf-16be", "utf-16le"):
        return lambda data: data.decode(name, "replace")
    return _joined(_standard(name))


def decode(data: bytes, encoding: str) -> str:
    """``data`` decoded by the Encoding Standard's decoder for ``encoding`` (any label), errors
    as U+FFFD, with no BOM sniffing:

    >>> decode(b"\\x81\\x80", "latin1")
    '\\x81€'
    """
    found = webencodings.lookup(encoding)
    if found is None:
        raise LookupError(f"not an encoding label: {encoding!r}")
    return _decoder(found.name)(data)


def decode_until_error(data: bytes, encoding: str) -> str:
    """``data`` decoded by the Encoding Standard's decoder for ``encoding`` (any label) up to its
    first error: Chromium decodes an XML document so (its decoder stops at an error, which is
    then a fatal "Encoding error" of the document), where a page of HTML reads on with U+FFFD.
    The error is the decoder's own (Python's strict decoders for UTF-8 and UTF-16 and the
    single-byte tables, exact for them; :class:`_Text` for the others), never a U+FFFD in the
    text: gb18030 spells U+FFFD itself (84 31 A4 37), and a document spelling it was cut there
    where Chromium reads on."""
    found = webencodings.lookup(encoding)
    if found is None:
        raise LookupError(f"not an encoding label: {encoding!r}")
    name = found.name
    try:
        if name in ("utf-8", "utf-16be", "utf-16le"):
            return data.decode(name)
        if name in _SINGLE_BYTE or name == "x-user-defined":
            return codecs.charmap_decode(data, "strict", _charmap_table(name))[0]
    except UnicodeDecodeError as error:
        return data[: error.start].decode(name) if name.startswith("utf") else _decoder(name)(data[: error.start])
    return _standard(name)(data).until_error()


# --- as codecs for html5lib ------------------------------------------------------------------


def _codec_info(name: str) -> codecs.CodecInfo:
    decoder = _decoder(name)

    def decode_all(data: Any, errors: str = "strict") -> tuple[str, int]:  # any buffer
        """Always the standard's replacement mode, whatever ``errors`` asks for."""
        return decoder(bytes(data)), len(data)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        from formtools._spec.encoding import encode_text  # the form submission encoders

        return encode_text(text, name), len(text)

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        """Holds everything back until the end: the stateful decoders run on the whole input."""

        def _buffer_decode(self, data: Any, errors: str, final: bool) -> tuple[str, int]:
            return (decoder(bytes(data)), len(data)) if final else ("", 0)

    class StreamReader(codecs.StreamReader):
        """What html5lib reads a page through: decodes the whole stream at its first read."""

        _text: str | None = None

        def read(self, size: int = -1, chars: int = -1, firstline: bool = False) -> str:
            if self._text is None:
                self._text = decoder(self.stream.read())
            wanted = chars if chars >= 0 else size
            if wanted < 0:
                text, self._text = self._text, ""
            else:
                text, self._text = self._text[:wanted], self._text[wanted:]
            return text

    return codecs.CodecInfo(
        encode=encode,
        decode=decode_all,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        name=f"formtools-whatwg-{name}",
    )


_PYTHON_EXACT = ("utf-8",)


def install() -> None:
    """Make ``webencodings.lookup`` (so html5lib) give the standard's decoders; idempotent."""
    for name in set(webencodings.LABELS.values()):
        if name in _PYTHON_EXACT:
            continue
        cached = webencodings.CACHE.get(name)
        if cached is None or not cached.codec_info.name.startswith("formtools-whatwg-"):
            webencodings.CACHE[name] = webencodings.Encoding(name, _codec_info(name))


install()
