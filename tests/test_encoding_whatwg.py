"""Decoding as the Encoding Standard says, for every encoding it defines, in both parse paths.

Tables generated from the standard's own indexes (``src/formtools/_spec/encoding_indexes.json``,
made from ``whatwg/encoding``'s ``index-*.txt``): every byte of every single-byte encoding, every
pointer of every multi-byte index in each encoding that reaches it (the bytes computed from the
pointer by the standard's formulas, not by the decoder's code), the gb18030 ranges, and the error
cases each decoder's steps have (resynchronization, "restore byte", end-of-queue). Python's codecs
get these wrong in 27 places (``tests/test_browser_encodings.py`` compares with Chromium live).
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest
import webencodings

import formtools
from formtools._parse.fast import fast_document
from formtools._spec.decoding import decode
from formtools._spec.encoding import encode_text

INDEXES = json.loads(
    files("formtools._spec").joinpath("encoding_indexes.json").read_text("utf-8")
)["indexes"]
NULL = "\ufffe"
SINGLE_BYTE = [
    "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
    "iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14",
    "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
]  # fmt: skip
ALL_ENCODINGS = sorted({encoding for encoding in webencodings.LABELS.values()})


def test_the_data_is_the_standards() -> None:
    source = json.loads(files("formtools._spec").joinpath("encoding_indexes.json").read_text())
    assert source["source"]["repository"] == "https://github.com/whatwg/encoding"
    assert len(source["source"]["files"]) == 34  # 27 single-byte, 7 multi-byte indexes
    # spot checks, read off the index files by eye
    assert INDEXES["windows-1252"][0x81 - 0x80] == "\x81"
    assert INDEXES["windows-1252"][0x80 - 0x80] == "\u20ac"
    assert INDEXES["koi8-u"][0xAE - 0x80] == "\u045e"
    assert INDEXES["jis0208"][0] == "\u3000"
    assert INDEXES["big5"][942] == "\u43f0"
    assert INDEXES["gb18030"][0] == "\u4e02"
    assert INDEXES["gb18030-ranges"][:2] == [[0, 0x80], [36, 0xA5]]


def test_every_encoding_is_covered() -> None:
    assert len(ALL_ENCODINGS) == 40
    for encoding in ALL_ENCODINGS:
        assert isinstance(decode(b"abc", encoding), str)
    # html5lib's codecs are the standard's, except UTF-8's (Python's is exact, and fast)
    for encoding in ALL_ENCODINGS:
        codec = webencodings.lookup(encoding).codec_info.name
        python = encoding == "utf-8"
        assert codec.startswith("formtools-whatwg-") != python, (encoding, codec)


@pytest.mark.parametrize("encoding", [*SINGLE_BYTE, "x-user-defined"])
def test_single_byte_every_byte(encoding: str) -> None:
    if encoding == "x-user-defined":
        high = [chr(0xF780 + byte - 0x80) for byte in range(0x80, 0x100)]
    else:
        index = INDEXES["iso-8859-8" if encoding == "iso-8859-8-i" else encoding]
        high = ["\ufffd" if char == NULL else char for char in index]
    expected = [chr(byte) for byte in range(0x80)] + high
    assert [decode(bytes([byte]), encoding) for byte in range(256)] == expected
    assert decode(bytes(range(256)), encoding) == "".join(expected)


@pytest.mark.parametrize("encoding", SINGLE_BYTE)
def test_single_byte_encoder_agrees_with_the_index(encoding: str) -> None:
    """#single-byte-encoder: the index pointer (the first) of each code point."""
    index = INDEXES["iso-8859-8" if encoding == "iso-8859-8-i" else encoding]
    for pointer, char in enumerate(index):
        if char != NULL and index.index(char) == pointer:
            assert encode_text(char, encoding) == bytes([0x80 + pointer]), (encoding, hex(pointer))


def _entries(name: str) -> list[tuple[int, str]]:
    return [(pointer, char) for pointer, char in enumerate(INDEXES[name]) if char != NULL]


def _two(pointer: int, size: int, lead: int, low: int, high: int, split: int) -> bytes:
    trail = pointer % size
    return bytes([pointer // size + lead, trail + (low if trail < split else high)])


def _gb18030_four(pointer: int) -> bytes:
    return bytes(
        [pointer // 12600 + 0x81, pointer // 1260 % 10 + 0x30, pointer // 10 % 126 + 0x81, pointer % 10 + 0x30]
    )


def _shift_jis_bytes(pointer: int) -> bytes:
    lead = pointer // 188
    trail = pointer % 188
    return bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])


def _euc(pointer: int) -> bytes:
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def _iso_2022_jp(pointer: int) -> bytes:
    return b"\x1b$B" + bytes(byte - 0x80 for byte in _euc(pointer)) + b"\x1b(B"


# the standard: Ê̄ Ê̌ ê̄ ê̌ (U+00CA/U+00EA and U+0304/U+030C); Chromium 156, whom formtools follows,
# gives U+0093/U+00B3 and a lone low surrogate (tests/test_browser_encodings.py measures it)
BIG5_PAIRS = {1133: "\x93\udf04", 1135: "\x93\udf0c", 1164: "\xb3\udf04", 1166: "\xb3\udf0c"}
MULTI_BYTE_CASES = {
    "gb18030": ("gb18030", lambda p: _two(p, 190, 0x81, 0x40, 0x41, 0x3F)),
    "gbk": ("gb18030", lambda p: _two(p, 190, 0x81, 0x40, 0x41, 0x3F)),
    "big5": ("big5", lambda p: _two(p, 157, 0x81, 0x40, 0x62, 0x3F)),
    "euc-kr": ("euc-kr", lambda p: _two(p, 190, 0x81, 0x41, 0x41, 190)),
    "shift_jis": ("jis0208", _shift_jis_bytes),
    "euc-jp": ("jis0208", _euc),
    "euc-jp/jis0212": ("jis0212", lambda p: b"\x8f" + _euc(p)),
    "iso-2022-jp": ("jis0208", _iso_2022_jp),
}


@pytest.mark.parametrize("case", sorted(MULTI_BYTE_CASES))
def test_multi_byte_every_index_entry(case: str) -> None:
    encoding = case.split("/")[0]
    index, to_bytes = MULTI_BYTE_CASES[case]
    checked = 0
    for pointer, char in _entries(index):
        if encoding in ("euc-jp", "iso-2022-jp") and pointer >= 94 * 94:
            continue  # the rows past 94 (IBM extensions) are reached only by Shift_JIS
        if encoding == "shift_jis" and 8836 <= pointer <= 10715:
            char = chr(0xE000 - 8836 + pointer)  # EUDC wins over the index
        expected = BIG5_PAIRS.get(pointer, char) if encoding == "big5" else char
        sequence = to_bytes(pointer)
        assert decode(sequence, encoding) == expected, (case, pointer, sequence.hex())
        # the same between ASCII, at the end of a run and after another sequence
        twice = sequence + sequence
        if encoding == "iso-2022-jp":  # ESC ( B straight before ESC $ B is an error
            twice = sequence[:5] + sequence[3:]
        assert decode(b"a" + twice + b"z", encoding) == f"a{expected}{expected}z"
        checked += 1
    assert checked > 6000


def test_shift_jis_eudc_and_single_bytes() -> None:
    for pointer in range(8836, 10716):
        assert decode(_shift_jis_bytes(pointer), "shift_jis") == chr(0xE000 - 8836 + pointer)
    assert decode(bytes(range(0xA1, 0xE0)), "shift_jis") == "".join(
        chr(0xFF61 + i) for i in range(0xE0 - 0xA1)
    )
    assert decode(b"".join(b"\x8e" + bytes([b]) for b in range(0xA1, 0xE0)), "euc-jp") == "".join(
        chr(0xFF61 + i) for i in range(0xE0 - 0xA1)
    )
    assert decode(b"\x1b(I" + bytes(range(0x21, 0x60)) + b"\x1b(B", "iso-2022-jp") == "".join(
        chr(0xFF61 + i) for i in range(0x60 - 0x21)
    )


def test_gb18030_four_byte_ranges() -> None:
    ranges = INDEXES["gb18030-ranges"]
    bounds = [(pointer, code_point) for pointer, code_point in ranges]
    expected_bmp = []
    for pointer in range(39420):  # every four-byte BMP sequence
        offset, start = max((p, c) for p, c in bounds if p <= pointer)
        code_point = 0xE7C7 if pointer == 7457 else start + pointer - offset
        expected_bmp.append(chr(code_point))
    got = decode(b"".join(_gb18030_four(p) for p in range(39420)), "gb18030")
    assert got == "".join(expected_bmp)
    assert decode(_gb18030_four(39419), "gb18030") == "\uffff"
    assert decode(_gb18030_four(39420), "gb18030") == "\ufffd"
    assert decode(_gb18030_four(188999), "gb18030") == "\ufffd"
    assert decode(_gb18030_four(189000), "gb18030") == "\U00010000"
    assert decode(_gb18030_four(1237575), "gb18030") == "\U0010ffff"
    assert decode(_gb18030_four(1237576), "gb18030") == "\ufffd"
    assert decode(b"\x81\x35\xf4\x37", "gbk") == "\ue7c7"


# (encoding, bytes, text): each decoder's error steps, worked through by hand from the standard
ERROR_CASES = [
    # gb18030 (and GBK, whose decoder it is)
    ("gbk", b"\x80", "\u20ac"),
    ("gb18030", b"\xff", "\ufffd"),
    ("gb18030", b"\x81", "\ufffd"),
    ("gb18030", b"\x81\x30", "\ufffd"),
    ("gb18030", b"\x81\x30\x81", "\ufffd"),
    ("gb18030", b"\x81\x30z", "\ufffd0z"),  # restore « second, byte »
    ("gb18030", b"\x81\x30\x81z", "\ufffd0\u4e83"),  # « second, third, byte »: 81 7A
    ("gb18030", b"\x81\x7f", "\ufffd\x7f"),
    ("gb18030", b"\x81\xff", "\ufffd"),
    ("gb18030", b"\xa1\xa0", "\ue525"),
    ("gb18030", b"\x84\x31\xa5\x30", "\ufffd"),
    # Big5
    ("big5", b"\x80", "\ufffd"),
    ("big5", b"\xff", "\ufffd"),
    ("big5", b"\xa1", "\ufffd"),
    ("big5", b"\x81\x40", "\ufffd@"),
    ("big5", b"\x81\xa1", "\ufffd"),
    ("big5", b"\xa1\x7f", "\ufffd\x7f"),
    ("big5", b"\xa1\x45", "\u2027"),
    ("big5", b"\x88\x62\x88\x64", "\x93\udf04\x93\udf0c"),  # Chromium's, not the standard's
    # EUC-JP
    ("euc-jp", b"\x8e", "\ufffd"),
    ("euc-jp", b"\x8e\xe0", "\ufffd"),
    ("euc-jp", b"\x8e\x41", "\ufffdA"),
    ("euc-jp", b"\x8f", "\ufffd"),
    ("euc-jp", b"\x8f\xa1", "\ufffd"),
    ("euc-jp", b"\x8f\xa1\xa1", "\ufffd"),
    ("euc-jp", b"\x8f\xa2\xaf", "\u02d8"),
    ("euc-jp", b"\x8f\xa2\x41", "\ufffdA"),
    ("euc-jp", b"\x8f\x41", "\ufffdA"),
    ("euc-jp", b"\xa1\x41", "\ufffdA"),
    ("euc-jp", b"\xad\xa1", "\u2460"),
    ("euc-jp", b"\x80\xff", "\ufffd\ufffd"),
    # Chromium 156 clears the jis0212 flag only when it looks a pair up (measured)
    ("euc-jp", b"\x8f\xa2\x41\xb0\xa1", "\ufffdA\u4e02"),
    ("euc-jp", b"\x8f\xa2\x20\x8e\xa1\xad\xa1", "\ufffd \uff61\ufffd"),
    ("euc-jp", b"\x8f\xa2\x8f\xa2\xaf\xad\xa1", "\ufffd\u02d8\u2460"),
    ("euc-jp", b"\x8f\xa2\xa1\xa1\xb0\xa1", "\ufffd\uff3e\ufffd"),
    # Shift_JIS
    ("shift_jis", b"\x80", "\x80"),
    ("shift_jis", b"\xa0", "\ufffd"),
    ("shift_jis", b"\xfd\xfe\xff", "\ufffd\ufffd\ufffd"),
    ("shift_jis", b"\x81", "\ufffd"),
    ("shift_jis", b"\x81\x3f", "\ufffd?"),
    ("shift_jis", b"\x81\xfd", "\ufffd"),
    ("shift_jis", b"\x87\x40", "\u2460"),
    ("shift_jis", b"\xed\x40", "\u7e8a"),
    ("shift_jis", b"\xfa\x40", "\u2170"),
    ("shift_jis", b"\xf0\x40", "\ue000"),
    # EUC-KR
    ("euc-kr", b"\x80", "\ufffd"),
    ("euc-kr", b"\x81", "\ufffd"),
    ("euc-kr", b"\x81\x3a", "\ufffd:"),
    ("euc-kr", b"\x81\x41", "\uac02"),
    ("euc-kr", b"\xc9\xa1", "\ufffd"),
    ("euc-kr", b"\xa2\xe6", "\u20ac"),
    # ISO-2022-JP
    ("iso-2022-jp", b"\x0e\x0f\x80", "\ufffd\ufffd\ufffd"),
    ("iso-2022-jp", b"\x1b", "\ufffd"),
    ("iso-2022-jp", b"\x1b(", "\ufffd("),
    ("iso-2022-jp", b"\x1b$A", "\ufffd$A"),
    ("iso-2022-jp", b"\x1b(Ba", "a"),
    ("iso-2022-jp", b"\x1b(B\x1b(Ba", "\ufffda"),  # two escapes in a row
    ("iso-2022-jp", b"\x1b$B\x1b(B", "\ufffd"),
    ("iso-2022-jp", b"\x1b(J\\~\x1b(B\\~", "\u00a5\u203e\\~"),
    ("iso-2022-jp", b"\x1b(I\x21\x5f\x60", "\uff61\uff9f\ufffd"),
    ("iso-2022-jp", b"\x1b$B\x30\x21", "\u4e9c"),
    ("iso-2022-jp", b"\x1b$@\x30\x21", "\u4e9c"),
    ("iso-2022-jp", b"\x1b$B\x30", "\ufffd"),
    ("iso-2022-jp", b"\x1b$B\x30\x1b(Ba", "\ufffda"),
    ("iso-2022-jp", b"\x1b$B\x30\x0a", "\ufffd"),
    ("iso-2022-jp", b"\x1b$B\x0a", "\ufffd"),
    ("iso-2022-jp", b"\x1b$B\x2d\x21", "\u2460"),
    ("iso-2022-jp", b"\x1b$B\x22\x2f", "\ufffd"),
    ("iso-2022-jp", b"\x1b(Ja\x1b(Xb", "a\ufffd(Xb"),  # back to the output state, Roman
    # Chromium 156's departures (measured, tests/test_browser_encodings.py): the bytes a failed
    # ESC $ / ESC ( restores give no error of their own (the standard: one more U+FFFD)...
    ("iso-2022-jp", b"J\x1b$\x951", "J\ufffd$1"),
    ("iso-2022-jp", b"a\x1b(\xffb", "a\ufffd(b"),
    ("iso-2022-jp", b"a\x1b(\x0eb", "a\ufffd(b"),
    ("iso-2022-jp", b"a\x1b$\x95\x961", "a\ufffd$\ufffd1"),  # the next byte is not restored
    ("iso-2022-jp", b"\x1b(J\x1b$\x801", "\ufffd$1"),  # Roman
    ("iso-2022-jp", b"\x1b(I\x1b$\x80\x1b(B", "\ufffd\uff64"),  # katakana
    ("iso-2022-jp", b"\x1b$B\x1b(\x001\x1b(B", "\ufffd\ufffd"),  # jis0208: the pair ( 00
    ("iso-2022-jp", b"\x1b$B\x1b$\x74\x1b(B", "\ufffd"),  # an unassigned pair
    ("iso-2022-jp", b"\x1b$B\x1b$\x1b1\x1b(B", "\ufffd\ufffd\ufffd"),  # $ then ESC
    ("iso-2022-jp", b"\x1b$B\x1b$\x30", "\ufffd\u3050"),  # a pair that decodes
    ("iso-2022-jp", b"\x1b\x80", "\ufffd\ufffd"),  # a lone ESC: as the standard
    # ... and ESC $ / ESC ( at the end are U+FFFD and the byte, whatever the output state
    ("iso-2022-jp", b"\x1b(I\x1b$", "\ufffd$"),
    ("iso-2022-jp", b"\x1b$B\x1b(", "\ufffd("),
    ("iso-2022-jp", b"\x1b$B\x30\x1b$", "\ufffd\ufffd$"),
    # replacement, x-user-defined, UTF-16 (Python's decoder: these cases checked in Chromium)
    ("replacement", b"", ""),
    ("replacement", b"abc", "\ufffd"),
    ("x-user-defined", b"\x80a\xff", "\uf780a\uf7ff"),
    ("utf-16le", b"\x00\xd8\x41\x00", "\ufffdA"),
    ("utf-16le", b"\x00\xd8\x00\xd8\x00\xdc", "\ufffd\U00010000"),
    ("utf-16le", b"\x00\xdc", "\ufffd"),
    ("utf-16le", b"\x00\xd8\x41", "\ufffd"),
    ("utf-16be", b"\xd8\x00\x00\x41", "\ufffdA"),
    ("utf-8", b"\xf0\x80\x80\xed\xa0\x80\xe0\xa0", "\ufffd" * 7),
]


@pytest.mark.parametrize(("encoding", "data", "text"), ERROR_CASES)
def test_error_cases(encoding: str, data: bytes, text: str) -> None:
    assert decode(data, encoding) == text


@pytest.mark.parametrize("encoding", ALL_ENCODINGS)
def test_html5lib_codecs_stream_and_increment(encoding: str) -> None:
    """html5lib reads through the codec's stream reader; the fast path calls ``decode``."""
    import codecs
    import io

    data = bytes(range(256)) * 3 + "日本語".encode("utf-8") + b"\x1b$B\x30\x21\x1b(B"
    info = webencodings.lookup(encoding).codec_info
    whole = info.decode(data, "replace")[0]
    reader = info.streamreader(io.BytesIO(data), "replace")
    chunks = []
    while chunk := reader.read(100):
        chunks.append(chunk)
    assert "".join(chunks) == whole
    assert codecs.getincrementaldecoder  # the incremental decoder buffers until final
    incremental = info.incrementaldecoder("replace")
    assert incremental.decode(data[:10]) + incremental.decode(data[10:], final=True) == whole


def _page(encoding: str, payload: bytes) -> bytes:
    return (
        b"<!doctype html><meta charset=" + encoding.encode() + b"><form toolname=t "
        b'tooldescription="[' + payload + b']" toolautosubmit method=post action=/x>'
        b'<input type=hidden name=h value="' + payload + b'"><input name=q></form>'
    )


def _payload(encoding: str) -> bytes:
    high = bytes(byte for byte in range(0x80, 0x100) if byte != 0x22)
    return high + b"\x81\x30\x81\x30\x1b$B\x30\x21\x1b(B\x8f\xa2\xaf\x8e\xe0"


@pytest.mark.parametrize("encoding", [e for e in ALL_ENCODINGS if not e.startswith("utf-16")])
def test_both_parse_paths_decode_alike(encoding: str) -> None:
    body = _page(encoding, _payload(encoding))
    assert fast_document(body) is not None or encoding == "replacement"
    fast = formtools.extract_tools(body)
    exact = formtools.extract_tools(body, parser="html5lib")
    assert [t.to_dict() for t in fast] == [t.to_dict() for t in exact]
    if encoding == "replacement":
        assert fast == []
        return
    expected = decode(b"[" + _payload(encoding) + b"]", encoding)
    if encoding == "x-user-defined":  # a <meta> naming it means windows-1252
        expected = decode(b"[" + _payload(encoding) + b"]", "windows-1252")
    assert fast[0].description == expected.replace("\x00", "\ufffd")


def test_x_user_defined_meta_means_windows_1252_but_transport_does_not() -> None:
    body = b"<meta charset=x-user-defined>" + _page("x", b"\x80\x81")
    for parser in ("auto", "html5lib"):
        document = formtools.parse_html(body, parser=parser)  # type: ignore[arg-type]
        assert document.encoding == "windows-1252"
        (tool,) = formtools.extract_tools(body, parser=parser)  # type: ignore[arg-type]
        assert tool.description == "[\u20ac\x81]"
        plain = b"<form toolname=t tooldescription='[\x80\x81]' toolautosubmit></form>"
        document = formtools.parse_html(
            plain, content_type="text/html; charset=x-user-defined", parser=parser  # type: ignore[arg-type]
        )
        assert document.encoding == "x-user-defined"
    # a <meta> the tree builder meets later (past the prescan's 1024 bytes) follows the rule too
    late = b"<p>" + b"x" * 1100 + b"<meta charset=x-user-defined>" + _page("x", b"\x80")
    for parser in ("auto", "html5lib"):
        assert formtools.parse_html(late, parser=parser).encoding == "windows-1252"  # type: ignore[arg-type]


def test_the_adversarial_review_pages() -> None:
    """Two of the review's pages: what Chromium sent, byte for byte."""
    page = (
        b'<!doctype html><meta charset=windows-1252><form toolname=t tooldescription=d '
        b'toolautosubmit method=post action="/x"><input type=hidden name=h value="\x81\x8d"></form>'
    )
    (tool,) = formtools.extract_tools(page, base_url="http://127.0.0.1:9/")
    request = formtools.prepare_call(tool, {}).request
    assert request is not None and request.body == b"h=%81%8D"
    gbk = page.replace(b"windows-1252", b"gbk").replace(b"\x81\x8d", b"\x80")
    (tool,) = formtools.extract_tools(gbk, base_url="http://127.0.0.1:9/")
    request = formtools.prepare_call(tool, {}).request
    assert request is not None and request.body == b"h=%80"


@pytest.mark.parametrize("encoding", ["shift_jis", "euc-kr"])
def test_python_twin_fast_path_is_exact(encoding: str) -> None:
    """Shift_JIS and EUC-KR pages decode through Python's C codec where that is provably the
    same (``_twin_fixes``): every two-byte sequence, then a lead or an ASCII byte, agrees with the
    standard's decoder run on its own."""
    from formtools._spec import decoding

    exact = decoding._joined(decoding._standard(encoding))
    fast = decoding._decoder(encoding)
    assert fast is not exact
    for lead in range(0x80, 0x100):
        for trail in range(0x100):
            for after in (b"A", b"\xa1", b""):
                data = bytes([lead, trail]) + after
                assert fast(data) == exact(data), data.hex()
    assert fast(b"\xa0\xfd") == "\ufffd\ufffd" if encoding == "shift_jis" else True
