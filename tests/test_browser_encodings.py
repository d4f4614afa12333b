"""Decoding and encoding against the real Chromium, live, for every encoding the standard defines.

For each encoding (one representative label each, plus ``gbk``/``gb2312``, ``x-user-defined``
named by a ``<meta>`` and by the transport), a page whose tool description, hidden input value
and action query hold the bytes where decoders go wrong: every byte 0x80–0xFF for the
single-byte encodings; for the multi-byte ones every byte as a lead, the boundary, unassigned
and error sequences of the standard's decoder (gb18030 four-byte range ends, Big5's two-code-
point pointers, Shift_JIS EUDC, EUC-JP's 0x8E/0x8F, ISO-2022-JP's escapes). Chromium's
``getTools()`` description and the request ``executeTool`` sends are compared byte for byte with
formtools' extraction and ``prepare_call`` request; the table tests are in
``tests/test_encoding_whatwg.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._spec.decoding import decode
from tests import test_encoding_determination, test_encoding_whatwg

pytestmark = pytest.mark.browser

SINGLE_BYTE = [*test_encoding_whatwg.SINGLE_BYTE, "latin1", "tis-620"]  # (and two labels of them)
HIGH = bytes(range(0x80, 0x100))
# every byte as a lead byte, followed by a space, by "A" and by the next bytes
LEADS = b" ".join(bytes([b]) + b"A" for b in range(0x80, 0x100)) + b" " + HIGH
MULTI_BYTE: dict[str, bytes] = {
    "gb18030": LEADS
    + b" \x81\x30\x81\x30 \x84\x31\xa4\x39 \x84\x31\xa5\x30 \x81\x35\xf4\x37 \x90\x30\x81\x30"
    b" \xe3\x32\x9a\x35 \xe3\x32\x9a\x36 \xfe\x39\xfe\x39 \x81\x30\x81z \x81\x30z \x81\x30\x81"
    b" \xa8\xbc \xa6\xd9 \xfe\x59 \xa1\xa0 \x80 \xff",
    "big5": LEADS + b" \xa1\x45 \xa3\xe1 \x87\x40 \xc8\x7e"
    b" \xf9\xfe \x81\x40 \xa1\x7f \xfe\xfe",
    "euc-jp": LEADS + b" \x8e\xa1\x8e\xdf\x8e\xe0\x8e\x41 \x8f\xa2\xaf\x8f\xa1\xa1\x8f\xa2\x41"
    b" \x8f\x41 \xad\xa1 \xa1\xc0 \xa2\xaf \xfe\xfe \x8f\xfe\xfe \x8f",
    "shift_jis": LEADS + b" \x80\xa0\xfd\xfe\xff \x87\x40 \xed\x40 \xfa\x40 \xf0\x40 \xf9\xfc"
    b" \x81\x5f \x81\x3f \x81\x7f \x81\xfd \xa1\xdf",
    "euc-kr": LEADS + b" \x81\x41 \xa2\xe6 \xc9\xa1 \xfe\xfe \xc8\x41 \x81\x3a \xa1\x40",
    "iso-2022-jp": HIGH
    + b"\x0e\x0f \x1b(J\\~\x1b(B \x1b(I\x21\x5f\x60\x1b(B \x1b$B\x30\x21\x2d\x21\x22\x2f\x7f"
    b"\x1b(B \x1b$@\x30\x21\x1b(B \x1b(B\x1b(B \x1b$A \x1b(X \x1b$B\x30\x1b(B \x1b( \x1b(B",
}
MULTI_BYTE["gbk"] = MULTI_BYTE["gb2312"] = MULTI_BYTE["gb18030"]
OTHERS: dict[str, bytes] = {
    "utf-8": HIGH + b" \xf0\x80\x80 \xed\xa0\x80 \xe0\xa0 \xc3\xa9 \xf4\x90\x80\x80",
    "x-user-defined": HIGH,
    "replacement": HIGH,
}
# (label, how it is named, payload)
CASES: list[tuple[str, str, bytes]] = [
    *((label, "meta", HIGH) for label in SINGLE_BYTE),
    *((label, "meta", payload) for label, payload in MULTI_BYTE.items()),
    *((label, "meta", payload) for label, payload in OTHERS.items()),
    ("x-user-defined", "header", HIGH),
    ("shift_jis", "header", MULTI_BYTE["shift_jis"]),
    ("utf-16le", "header", b"[\x00\x00\xd8A\x00\x00\xdc\xe9\x00\x00\xd8\x00\xdc"),
    ("utf-16be", "header", b"\x00[\xd8\x00\x00A\xdc\x00\x00\xe9\xd8\x00\xdc\x00"),
]


def _safe(payload: bytes) -> bytes:
    """The payload without the bytes that would end the attribute or start a reference."""
    return payload.replace(b'"', b"").replace(b"&", b"")


def page(label: str, named: str, payload: bytes) -> tuple[bytes, str]:
    if label.startswith("utf-16"):
        codec = label
        text = (
            '<form toolname=t tooldescription="X" toolautosubmit method=post action="/x?X">'
            '<input type=hidden name=h value="X"></form>'
        )
        parts = [part.encode(codec) for part in text.split("X")]
        return payload.join(parts), f"text/html; charset={label}"
    payload = _safe(payload)
    body = (
        (b"<meta charset=" + label.encode() + b">" if named == "meta" else b"")
        + b'<form toolname=t tooldescription="[' + payload + b']" toolautosubmit method=post'
        + b' action="/x?q=' + payload + b'"><input type=hidden name=h value="'
        + payload + b'"></form>'
    )
    return body, "text/html" if named == "meta" else f"text/html; charset={label}"


# getTools()'s description as code points (DevTools' copy of it is not byte-exact for every
# string, so ChromiumOracle.tools() can refuse these pages; no JSON text is involved either)
_DESCRIPTION_JS = """
async () => {
  for (let turns = 0; turns < 200; turns++) {
    const tools = await document.modelContext.getTools();
    if (tools.length) return Array.from(tools[0].description, (c) => c.codePointAt(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return null;
}
"""


def _first_difference(difference: tuple[Any, ...]) -> str:
    label, named, what, theirs, ours = difference
    if isinstance(theirs, (list, tuple)) and isinstance(ours, (list, tuple)):
        for part, (a, b) in enumerate(zip(theirs, ours) if what == "request" else [(theirs, ours)]):
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            if a != b:
                return f"{label} ({named}) {what} part {part} at {at}: Chromium {a[max(0, at - 8):at + 12]!r} formtools {b[max(0, at - 8):at + 12]!r} (lengths {len(a)}, {len(b)})"
    return f"{label} ({named}) {what}: Chromium {str(theirs)[:300]} formtools {str(ours)[:300]}"


ONLY = __import__("os").environ.get("ENC_ONLY", "").split()


def test_decoding_and_submission_match_chromium(chromium: ChromiumOracle) -> None:
    differences = []
    for number, (label, named, payload) in enumerate(CASES):
        if ONLY and label not in ONLY:
            continue
        body, content_type = page(label, named, payload)
        path = f"/enc/{number}"
        url = chromium.site.put(path, body, content_type)
        chromium.page.goto(url)
        theirs = chromium.page.evaluate(_DESCRIPTION_JS)
        document = formtools.parse_html(body, url=url, content_type=content_type)
        ours = formtools.extract_tools(document)
        our_description = [ord(c) for c in ours[0].description] if ours else None
        if theirs != our_description:
            differences.append((label, named, "description", theirs, our_description))
        if theirs is None:
            continue
        answer = chromium.execute_at(url, "t", {}, loaded=True)  # the page read above
        request = formtools.prepare_call(ours[0], {}).request if ours else None
        sent = answer.request
        if sent is None or request is None:
            if (sent is None) != (request is None):
                differences.append((label, named, "request", sent, request))
            continue
        ours_sent = (request.url.split(chromium.site.origin, 1)[-1], request.body)
        if (sent.url, sent.body) != ours_sent:
            differences.append((label, named, "request", (sent.url, sent.body), ours_sent))
    assert not differences, "\n".join(map(_first_difference, differences))
    assert ONLY or len(CASES) == 45


# the text itself, as code units: Big5's four two-code-point pointers come out of Chromium 156 as
# U+0093/U+00B3 and a lone low surrogate (a Chromium bug formtools reproduces)
_TEXT_JS = """
() => Array.from(document.querySelector("p").textContent, (c) => c.codePointAt(0))
"""


def test_big5_pairs_as_chromium_decodes_them(chromium: ChromiumOracle) -> None:
    payload = b"\x88\x62 \x88\x64 \x88\xa3 \x88\xa5"
    body = b"<meta charset=big5><p>" + payload + b"</p>"
    chromium.page.goto(chromium.site.put("/enc/big5-pairs", body, "text/html"))
    theirs = chromium.page.evaluate(_TEXT_JS)
    assert theirs == [ord(c) for c in decode(payload, "big5")] == [
        0x93, 0xDF04, 0x20, 0x93, 0xDF0C, 0x20, 0xB3, 0xDF04, 0x20, 0xB3, 0xDF0C
    ]


# ISO-2022-JP's escapes that start no escape sequence, in each output state (ASCII, Roman,
# katakana, JIS X 0208; each case ends with ESC ( B), followed by a byte ≥ 0x80, a control, a
# byte the output state decodes and one that completes a JIS X 0208 pair or not: Chromium 156
# reports no error for the bytes a failed ESC $ / ESC ( puts back (the standard does)
_ISO_2022_JP_STATES = (b"", b"\x1b(J", b"\x1b(I", b"\x1b$B")
_ISO_2022_JP_ESCAPES = (b"\x1b$", b"\x1b(", b"\x1b")
_ISO_2022_JP_BYTES = (b"\x80", b"\x95", b"\xff", b"\x95\x96", b"\x0e", b"\x0f", b"\x00", b"\x1b",
                      b"A", b"\x30", b"\x74", b"\x7f")  # fmt: skip


def test_iso_2022_jp_failed_escapes_as_chromium_decodes_them(chromium: ChromiumOracle) -> None:
    differences = []
    for number, state in enumerate(_ISO_2022_JP_STATES):
        payload = b" ".join(
            b"J" + state + escape + byte + b"1\x1b(B"
            for escape in _ISO_2022_JP_ESCAPES
            for byte in _ISO_2022_JP_BYTES
        )
        body = b'<meta charset="iso-2022-jp"><form toolname=t tooldescription="[' + payload + b']"></form>'
        chromium.page.goto(chromium.site.put(f"/enc/iso-2022-jp-escapes/{number}", body, "text/html"))
        theirs = chromium.page.evaluate(_DESCRIPTION_JS)
        tools = formtools.extract_tools(formtools.parse_html(body, content_type="text/html"))
        ours = [ord(c) for c in tools[0].description] if tools else None
        if theirs != ours:
            differences.append(("iso-2022-jp", state.decode(), "description", theirs, ours))
        # and at the end of the input, where a failed escape has no byte after it
        for escape in _ISO_2022_JP_ESCAPES:
            data = b"a" + state + escape
            body = b'<meta charset="iso-2022-jp"><p>' + data
            chromium.page.goto(chromium.site.put(f"/enc/iso-2022-jp-end/{number}", body, "text/html"))
            theirs = chromium.page.evaluate(_TEXT_JS)
            if theirs != [ord(c) for c in decode(data, "iso-2022-jp")]:
                differences.append(("iso-2022-jp", repr(data), "at the end", theirs, decode(data, "iso-2022-jp")))
    assert not differences, "\n".join(map(_first_difference, differences))


# --- which encoding: generated declarations ----------------------------------------------------
# Every way a page names its encoding (formtools._parse.charset), in every place that decides
# whether Chromium obeys it, for two pairs of encodings: the encoding the declaration under test
# names (first) and a rival another declaration names (second). The payload decodes differently
# in each, so the description, the submitted bytes and document.characterSet all show which won.
_PAIRS = (("windows-1251", "koi8-r"), ("shift_jis", "euc-jp"))
_PAYLOAD = b"\xe6\xc1\xa4\xa2\xc6\xfc"
_INPUT = {"q": "é ж 東"}
_LONG = 1100


def _declarations(named: str, rival: str) -> Iterator[tuple[str, bytes, str]]:
    """(what, bytes before the form, Content-Type) for one encoding ``named`` and its ``rival``."""
    a, b = named.encode(), rival.encode()
    meta_a, meta_b = b"<meta charset=" + a + b">", b"<meta charset=" + b + b">"
    equiv_a = b"<meta http-equiv=Content-Type content='text/html; charset=" + a + b"'>"
    for quote in (b'"', b"'"):
        yield "xml", b"<?xml version=" + quote + b"1.0" + quote + b" encoding=" + quote + a + quote + b"?>", "text/html"
    xml_a = b'<?xml version="1.0" encoding="' + a + b'"?>'
    yield "xml spaced =", b'<?xml version="1.0" encoding = "' + a + b'"?>', "text/html"
    yield "xml after a space", b" " + xml_a, "text/html"
    yield "xml after a BOM", b"\xef\xbb\xbf" + xml_a, "text/html"
    yield "xml upper case", xml_a.upper(), "text/html"
    yield "xml then meta", xml_a + meta_b, "text/html"
    yield "xml then late meta", xml_a + b"<body>" + b"x" * _LONG + meta_b, "text/html"
    yield "xml, header", xml_a, "text/html; charset=" + rival
    yield "xml utf-16", b'<?xml version="1.0" encoding="utf-16"?>', "text/html"
    yield "meta", meta_a, "text/html"
    yield "http-equiv", equiv_a, "text/html"
    for before in (b"<title>" + b"x" * 500 + b"</title>", b"<title>" + b"x" * _LONG + b"</title>",
                   b"<script>" + b"x" * _LONG + b"</script>", b"x" * _LONG):  # fmt: skip
        yield f"meta after {len(before)} bytes of head", before + meta_a, "text/html"
        yield f"http-equiv after {len(before)} bytes of head", before + equiv_a, "text/html"
        yield f"utf-16 after {len(before)} bytes of head", before + b"<meta charset=utf-16le>", "text/html"
    for opener in (b"<body>", b"<p>", b"</head>", b"<div></div>"):
        for length in (900, 1024 - len(opener) - 1, 1024 - len(opener), _LONG):
            yield f"meta after {opener.decode()} and {length} bytes", opener + b"x" * length + meta_a, "text/html"
        yield f"utf-16 after {opener.decode()}, late", opener + b"x" * _LONG + b"<meta charset=utf-16>", "text/html"
    for start, end in ((b"<script>", b"</script>"), (b"<title>", b"</title>"), (b"<noscript>", b"</noscript>"),
                       (b"<template>", b"</template>"), (b"<select>", b"</select>"), (b"<svg>", b"</svg>")):  # fmt: skip
        yield f"meta in {start.decode()}, then another", start + meta_a + end + meta_b, "text/html"
    yield "BOM and meta", b"\xef\xbb\xbf" + meta_b, "text/html"
    yield "header and meta", meta_b, "text/html; charset=" + named
    yield "unknown header and meta", meta_a, "text/html; charset=bogus"
    yield "header and BOM", b"\xef\xbb\xbf", "text/html; charset=" + named


def declaration_pages() -> Iterator[tuple[str, bytes, str]]:
    """(what, page, Content-Type): each declaration of :func:`_declarations` for each pair,
    in front of a tool whose description holds the payload, and the UTF-16 pages."""
    form = (b'<form toolname=t tooldescription="[' + _PAYLOAD + b']" toolautosubmit method=post'
            b' action="/x"><input name=q></form>')  # fmt: skip
    for pair in _PAIRS:
        for what, before, content_type in _declarations(*pair):
            yield f"{pair[0]}: {what}", before + form, content_type
    text = '<form toolname=t tooldescription="[é]" toolautosubmit method=post action="/x"><input name=q></form>'
    yield "utf-16le <?x", ("<?xml version='1.0'?>" + text).encode("utf-16le"), "text/html"
    yield "utf-16be <?x", ("<?xml version='1.0'?>" + text).encode("utf-16be"), "text/html"
    yield "utf-16le BOM", ("\ufeff" + text).encode("utf-16le"), "text/html; charset=koi8-r"


_CHARSET_JS = "() => document.characterSet"


def _how_chromium_reads(chromium: ChromiumOracle, number: int, body: bytes, content_type: str) -> tuple[bool, str | None]:
    """Whether formtools finds no declaration Chromium obeys in the page (and guesses), and
    where Chromium's document.characterSet, getTools() description or executeTool bytes differ
    from formtools' (None: nowhere)."""
    ignored = {name for pair in _PAIRS for name in pair}  # (by their document.characterSet)
    url = chromium.site.put(f"/declared/{number}", body, content_type)
    chromium.page.goto(url)
    their_charset = chromium.page.evaluate(_CHARSET_JS)
    their_description = chromium.page.evaluate(_DESCRIPTION_JS)
    document = formtools.parse_html(body, url=url, content_type=content_type)
    if document.encoding_guessed:  # every declaration ignored: Chromium's detector guesses
        if their_charset.lower() in ignored:
            return True, f"Chromium obeyed a declaration formtools ignores ({their_charset})"
        return True, None
    (tool,) = formtools.extract_tools(document)
    ours = (document.encoding.lower(), [ord(c) for c in tool.description])
    if (their_charset.lower(), their_description) != ours:
        return False, f"Chromium {their_charset} {their_description}, formtools {ours}"
    sent = chromium.execute_at(url, "t", _INPUT, loaded=True).request  # the page read above
    request = formtools.prepare_call(tool, _INPUT).request
    if sent is None or (sent.url, sent.body) != (request.url.split(chromium.site.origin, 1)[-1], request.body):
        return False, f"Chromium sent {sent}, formtools {request.url} {request.body!r}"
    return False, None


def test_declarations_as_chromium_reads_them(chromium: ChromiumOracle) -> None:
    """Generated declarations (above): Chromium's document.characterSet, getTools() description
    and the bytes executeTool submits against formtools', page by page. Where formtools finds no
    declaration Chromium obeys, Chromium guesses from the text (windows-1250 for this payload),
    which formtools does not reproduce: there it must at least not be one of the declared
    encodings, and formtools flags the page (``encoding_guessed``). A page met again (the
    UTF-16 declarations are the same bytes for both pairs: 9 of the 111) is read once."""
    differences, guessed = [], []
    read: dict[tuple[bytes, str], tuple[bool, str | None]] = {}
    for number, (what, body, content_type) in enumerate(declaration_pages()):
        if (body, content_type) not in read:
            read[body, content_type] = _how_chromium_reads(chromium, number, body, content_type)
        was_guessed, difference = read[body, content_type]
        if was_guessed:
            guessed.append(what)
        if difference is not None:
            differences.append(f"{what}: {difference}")
    assert not differences, "\n".join(differences)
    assert number + 1 == 2 * 54 + 3 and len(read) == number + 1 - 9
    # per pair: an XML declaration after a space or in upper case, and a <meta> after body
    # content from byte 1,024 on (4 openers × 2 lengths, 4 late utf-16): 2 × 14
    assert len(guessed) == 28, guessed


def test_encoding_table_as_chromium_settles_it(chromium: ChromiumOracle) -> None:
    """Every row of tests/test_encoding_determination.py's table is Chromium's own answer."""
    differences = []
    for number, (what, before, content_type, expected) in enumerate(test_encoding_determination.CASES):
        url = chromium.site.put(f"/table/{number}", before + test_encoding_determination.FORM, content_type or "text/html")
        chromium.page.goto(url)
        their_charset = chromium.page.evaluate(_CHARSET_JS)
        if their_charset.lower() != expected.lower():
            differences.append(f"{what}: Chromium {their_charset}, the table {expected}")
    assert not differences, "\n".join(differences)
