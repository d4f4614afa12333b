"""Entry list → bytes: the web-platform-tests tables, Chromium's own answers, and a live sweep.

The row tables are copied from wpt ``html/semantics/forms/form-submission-0/``
(``urlencoded2.window.js``, ``multipart-formdata.window.js`` and ``text-plain.window.js`` share
their 30 inputs, so one row carries the three expectations; ``form-data-set-usv.html``), plus the
lone-surrogate filename rows Gecko runs on wpt's ``enctypes-helper.js``. Rows marked [C156] were
observed in Chromium 156 while writing ``_encode.py``; the ``browser`` tests ask it again.
"""

from __future__ import annotations

import doctest
import itertools
import random
import re
import time
from collections import Counter

import pytest

from formtools._conformance.site import RecordedRequest
from formtools._spec import encoding as _encode
from formtools._execute.encode import (
    ENCTYPES,
    File,
    content_type,
    multipart,
    new_boundary,
    text_plain,
    urlencode,
)
from formtools._spec.encoding import encode_text, form_encoding

BOUNDARY = "----WebKitFormBoundaryAbCdEfGhIjKlMnOp"


def txt(name: str) -> File:
    return File(name, "text/plain")


# (description, name, value, form encoding,
#  urlencoded2 expected, multipart-formdata expected (name, filename, value), text-plain expected)
# The multipart and text/plain expectations are byte strings written as wpt writes them: one
# character per byte ("\xC3\xA1" is two bytes).
WPT_ROWS = [
    ("Basic test", "basic", "test", "UTF-8",
     "basic=test", ("basic", None, "test"), "basic=test\r\n"),
    ("Basic File test", "basic", txt("file-test.txt"), "UTF-8",
     "basic=file-test.txt", ("basic", "file-test.txt", ""), "basic=file-test.txt\r\n"),
    ("0x00 in name", "a\0b", "c", "UTF-8",
     "a%00b=c", ("a\0b", None, "c"), "a\0b=c\r\n"),
    ("0x00 in value", "a", "b\0c", "UTF-8",
     "a=b%00c", ("a", None, "b\0c"), "a=b\0c\r\n"),
    ("0x00 in filename", "a", txt("b\0c"), "UTF-8",
     "a=b%00c", ("a", "b\0c", ""), "a=b\0c\r\n"),
    ("\\n in name", "a\nb", "c", "UTF-8",
     "a%0D%0Ab=c", ("a%0D%0Ab", None, "c"), "a\r\nb=c\r\n"),
    ("\\r in name", "a\rb", "c", "UTF-8",
     "a%0D%0Ab=c", ("a%0D%0Ab", None, "c"), "a\r\nb=c\r\n"),
    ("\\r\\n in name", "a\r\nb", "c", "UTF-8",
     "a%0D%0Ab=c", ("a%0D%0Ab", None, "c"), "a\r\nb=c\r\n"),
    ("\\n\\r in name", "a\n\rb", "c", "UTF-8",
     "a%0D%0A%0D%0Ab=c", ("a%0D%0A%0D%0Ab", None, "c"), "a\r\n\r\nb=c\r\n"),
    ("\\n in value", "a", "b\nc", "UTF-8",
     "a=b%0D%0Ac", ("a", None, "b\r\nc"), "a=b\r\nc\r\n"),
    ("\\r in value", "a", "b\rc", "UTF-8",
     "a=b%0D%0Ac", ("a", None, "b\r\nc"), "a=b\r\nc\r\n"),
    ("\\r\\n in value", "a", "b\r\nc", "UTF-8",
     "a=b%0D%0Ac", ("a", None, "b\r\nc"), "a=b\r\nc\r\n"),
    ("\\n\\r in value", "a", "b\n\rc", "UTF-8",
     "a=b%0D%0A%0D%0Ac", ("a", None, "b\r\n\r\nc"), "a=b\r\n\r\nc\r\n"),
    ("\\n in filename", "a", txt("b\nc"), "UTF-8",
     "a=b%0D%0Ac", ("a", "b%0Ac", ""), "a=b\r\nc\r\n"),
    ("\\r in filename", "a", txt("b\rc"), "UTF-8",
     "a=b%0D%0Ac", ("a", "b%0Dc", ""), "a=b\r\nc\r\n"),
    ("\\r\\n in filename", "a", txt("b\r\nc"), "UTF-8",
     "a=b%0D%0Ac", ("a", "b%0D%0Ac", ""), "a=b\r\nc\r\n"),
    ("\\n\\r in filename", "a", txt("b\n\rc"), "UTF-8",
     "a=b%0D%0A%0D%0Ac", ("a", "b%0A%0Dc", ""), "a=b\r\n\r\nc\r\n"),
    ("double quote in name", 'a"b', "c", "UTF-8",
     "a%22b=c", ("a%22b", None, "c"), 'a"b=c\r\n'),
    ("double quote in value", "a", 'b"c', "UTF-8",
     "a=b%22c", ("a", None, 'b"c'), 'a=b"c\r\n'),
    ("double quote in filename", "a", txt('b"c'), "UTF-8",
     "a=b%22c", ("a", "b%22c", ""), 'a=b"c\r\n'),
    ("single quote in name", "a'b", "c", "UTF-8",
     "a%27b=c", ("a'b", None, "c"), "a'b=c\r\n"),
    ("single quote in value", "a", "b'c", "UTF-8",
     "a=b%27c", ("a", None, "b'c"), "a=b'c\r\n"),
    ("single quote in filename", "a", txt("b'c"), "UTF-8",
     "a=b%27c", ("a", "b'c", ""), "a=b'c\r\n"),
    ("backslash in name", "a\\b", "c", "UTF-8",
     "a%5Cb=c", ("a\\b", None, "c"), "a\\b=c\r\n"),
    ("backslash in value", "a", "b\\c", "UTF-8",
     "a=b%5Cc", ("a", None, "b\\c"), "a=b\\c\r\n"),
    ("backslash in filename", "a", txt("b\\c"), "UTF-8",
     "a=b%5Cc", ("a", "b\\c", ""), "a=b\\c\r\n"),
    ("non-ASCII in name and value", "áb", "ç", "UTF-8",
     "%C3%A1b=%C3%A7", ("\xC3\xA1b", None, "\xC3\xA7"), "\xC3\xA1b=\xC3\xA7\r\n"),
    ("non-ASCII in filename", "a", txt("ə.txt"), "UTF-8",
     "a=%C9%99.txt", ("a", "\xC9\x99.txt", ""), "a=\xC9\x99.txt\r\n"),
    ("characters not in encoding in name and value", "aəb", "c\uFFFDd", "windows-1252",
     "a%26%23601%3Bb=c%26%2365533%3Bd", ("a&#601;b", None, "c&#65533;d"),
     "a&#601;b=c&#65533;d\r\n"),
    ("character not in encoding in filename", "á", txt("💩"), "windows-1252",
     "%E1=%26%23128169%3B", ("\xE1", "&#128169;", ""), "\xE1=&#128169;\r\n"),
]  # fmt: skip

WPT_IDS = [row[0] for row in WPT_ROWS]


def isomorphic(text: str) -> bytes:
    return text.encode("latin-1")


def wpt_multipart_payload(name: str, filename: str | None, value: str) -> bytes:
    """wpt's expectedPayload(): one part, then the closing delimiter."""
    disposition = f'Content-Disposition: form-data; name="{name}"'
    headers = [disposition] if filename is None else [
        f'{disposition}; filename="{filename}"', "Content-Type: text/plain"
    ]
    lines = [f"--{BOUNDARY}", *headers, "", value, f"--{BOUNDARY}--", ""]
    return isomorphic("\r\n".join(lines))


@pytest.mark.spec_step("exec-request-8")
@pytest.mark.parametrize(("description", "name", "value", "encoding", "expected", "_m", "_t"),
                         WPT_ROWS, ids=WPT_IDS)
def test_wpt_urlencoded(description, name, value, encoding, expected, _m, _t) -> None:
    assert urlencode([(name, value)], encoding) == expected


@pytest.mark.parametrize(("description", "name", "value", "encoding", "_u", "expected", "_t"),
                         WPT_ROWS, ids=WPT_IDS)
def test_wpt_multipart(description, name, value, encoding, _u, expected, _t) -> None:
    assert multipart([(name, value)], encoding, BOUNDARY) == wpt_multipart_payload(*expected)


@pytest.mark.parametrize(("description", "name", "value", "encoding", "_u", "_m", "expected"),
                         WPT_ROWS, ids=WPT_IDS)
def test_wpt_text_plain(description, name, value, encoding, _u, _m, expected) -> None:
    assert text_plain([(name, value)], encoding) == isomorphic(expected)


def test_wpt_form_data_set_usv() -> None:
    """form-data-set-usv.html: four controls named and valued ``inputN\\uDC01``, text/plain."""
    entries = [(f"input{n}\udc01", f"input{n}\udc01") for n in range(1, 5)]
    expected = bytes.fromhex(
        "69 6e 70 75 74 31 ef bf bd 3d 69 6e 70 75 74 31 ef bf bd 0d 0a"
        "69 6e 70 75 74 32 ef bf bd 3d 69 6e 70 75 74 32 ef bf bd 0d 0a"
        "69 6e 70 75 74 33 ef bf bd 3d 69 6e 70 75 74 33 ef bf bd 0d 0a"
        "69 6e 70 75 74 34 ef bf bd 3d 69 6e 70 75 74 34 ef bf bd 0d 0a"
    )
    assert text_plain(entries, "UTF-8") == expected


# A file named "a\uD800b" (Gecko's rows on wpt's enctypes-helper.js): the filename is a scalar
# value string too.
@pytest.mark.parametrize(
    ("encoding", "urlencoded", "serialized"),
    [
        ("UTF-8", "a%EF%BF%BDb", "a\xEF\xBF\xBDb"),
        ("windows-1252", "a%26%2365533%3Bb", "a&#65533;b"),
    ],
)
def test_lone_surrogate_in_filename(encoding, urlencoded, serialized) -> None:
    entries = [("a", txt("a\ud800b"))]
    assert urlencode(entries, encoding) == f"a={urlencoded}"
    assert multipart(entries, encoding, BOUNDARY) == wpt_multipart_payload("a", serialized, "")
    assert text_plain(entries, encoding) == isomorphic(f"a={serialized}\r\n")


# --- the form's encoding ------------------------------------------------------------------------

# (accept-charset, document encoding, Chromium 156 [C156], the HTML Standard's text)
FORM_ENCODINGS = [
    (None, "windows-1252", "windows-1252", "windows-1252"),
    (None, "shift_jis", "Shift_JIS", "Shift_JIS"),
    (None, "utf-16le", "UTF-8", "UTF-8"),
    (None, "x-user-defined", "x-user-defined", "x-user-defined"),
    ("", "windows-1252", "windows-1252", "UTF-8"),
    ("bogus", "windows-1252", "windows-1252", "UTF-8"),
    ("bogus", "Shift_JIS", "Shift_JIS", "UTF-8"),
    (",,", "windows-1252", "windows-1252", "UTF-8"),
    ("bogus shift_jis", "windows-1252", "Shift_JIS", "Shift_JIS"),
    ("shift_jis,euc-jp", "windows-1252", "Shift_JIS", "UTF-8"),
    ("shift_jis, euc-jp", "windows-1252", "Shift_JIS", "EUC-JP"),
    (",windows-1254", "windows-1252", "windows-1254", "UTF-8"),
    ("bogus\tshift_jis", "windows-1252", "windows-1252", "Shift_JIS"),
    ("\tshift_jis", "windows-1252", "windows-1252", "Shift_JIS"),
    ("bogus\x0bshift_jis", "UTF-8", "UTF-8", "UTF-8"),
    ("bogus\u3000shift_jis", "UTF-8", "UTF-8", "UTF-8"),
    ("  latin1  ", "UTF-8", "windows-1252", "windows-1252"),
    ("ISO-8859-1", "UTF-8", "windows-1252", "windows-1252"),
    ("ascii", "UTF-8", "windows-1252", "windows-1252"),
    ("iso-8859-9", "UTF-8", "windows-1254", "windows-1254"),
    ("tis-620", "UTF-8", "windows-874", "windows-874"),
    ("SHIFT_JIS", "UTF-8", "Shift_JIS", "Shift_JIS"),
    ("gb2312", "UTF-8", "GBK", "GBK"),
    ("big5-hkscs", "UTF-8", "Big5", "Big5"),
    ("koi8-ru", "UTF-8", "KOI8-U", "KOI8-U"),
    ("x-mac-ukrainian", "UTF-8", "x-mac-cyrillic", "x-mac-cyrillic"),
    ("iso-8859-8-i", "UTF-8", "ISO-8859-8-I", "ISO-8859-8-I"),
    ("unicode11utf8", "windows-1252", "UTF-8", "UTF-8"),
    ("utf-16", "windows-1252", "UTF-8", "UTF-8"),
    ("ucs-2", "windows-1252", "UTF-8", "UTF-8"),
    ("unicodefffe", "windows-1252", "UTF-8", "UTF-8"),
    ("iso-2022-kr", "windows-1252", "UTF-8", "UTF-8"),
    ("x-user-defined", "windows-1252", "x-user-defined", "x-user-defined"),
    ("utf-32 cp932 latin-1", "windows-1252", "windows-1252", "UTF-8"),
    ("k\u212aoi8-r", "windows-1252", "windows-1252", "UTF-8"),
]


@pytest.mark.spec_step("exec-request-4")
@pytest.mark.parametrize(("accept_charset", "document", "chromium", "standard"), FORM_ENCODINGS)
def test_form_encoding(accept_charset, document, chromium, standard) -> None:
    assert form_encoding(accept_charset, document) == chromium
    assert form_encoding(accept_charset, document, standard=True) == standard


def test_unknown_labels_are_lookup_errors() -> None:
    with pytest.raises(LookupError):
        form_encoding(None, "utf-32")
    with pytest.raises(LookupError):
        encode_text("x", "bogus")


# --- text → bytes [C156] ------------------------------------------------------------------------

ENCODED = [
    ("windows-1252", "\u20ac\u0080\u0081\u008d\u008f\u0090\u009d\u00ff",
     b"\x80&#128;\x81\x8d\x8f\x90\x9d\xff"),
    ("iso-8859-1", "\u00e9\u0259", b"\xe9&#601;"),
    ("windows-1255", "\u05ba\u0081", b"\xca\x81"),
    ("windows-874", "\u0e01\u0081\u0085\u2026", b"\xa1\x81&#133;\x85"),
    ("KOI8-U", "\u045e\u040e\u255d", b"\xae\xbe&#9565;"),
    ("x-user-defined", "a\uf780\uf7ff\u0080", b"a\x80\xff&#128;"),
    ("UTF-8", "\ud83d\ude00 \ud800 \udc00", "\U0001f600 \ufffd \ufffd".encode()),
    ("UTF-16LE", "\u00e9", b"\xc3\xa9"),
    ("replacement", "\u00e9", b"\xc3\xa9"),
    ("Shift_JIS", "\u00a5\u203e\\~\u0080", b"\x5c\x7e\x5c\x7e\x80"),
    ("Shift_JIS", "\u00a2\u00a3\u00ac\u2016\u301c", b"&#162;&#163;&#172;&#8214;&#12316;"),
    ("Shift_JIS", "\u2170\u2212\uff71\ue000\uf8f0", b"\xfa\x40\x81\x7c\xb1&#57344;&#63728;"),
    ("EUC-JP", "\u2170\u2212\uff71\u00a5\u4e02", b"\xfc\xf1\xa1\xdd\x8e\xb1\x5c&#19970;"),
    ("ISO-2022-JP", "\u00a5a\\", b"\x1b(J\\a\x1b(B\\"),
    ("ISO-2022-JP", "\u00a5\u6f22a", b"\x1b(J\\\x1b$B4A\x1b(Ba"),
    ("ISO-2022-JP", "a\u00a5\u203eb~", b"a\x1b(J\\~b\x1b(B~"),
    ("ISO-2022-JP", "\u00a5\u20ac", b"\x1b(J\\&#8364;\x1b(B"),
    ("ISO-2022-JP", "\u6f22\u20aca", b"\x1b$B4A\x1b(B&#8364;a"),
    ("ISO-2022-JP", "\u00a5\x1b", b"\x1b(J\\&#65533;\x1b(B"),
    ("ISO-2022-JP", "\u6f22\x1b", b"\x1b$B4A\x1b(B&#65533;"),
    ("ISO-2022-JP", "a\x0eb", b"a&#65533;b"),
    ("ISO-2022-JP", "\uff76\uff9e\uff77\uff9f", b"\x1b$B%+!+%-!,\x1b(B"),
    ("ISO-2022-JP", "\u2212", b"\x1b$B!]\x1b(B"),
    ("ISO-2022-JP", "a\U0001d7d8b", b"a&#120792;b"),
    ("gb18030", "\u1e3f\ue7c7\ue5e5\u20ac\U0001f600",
     b"\xa8\xbc\x81\x35\xf4\x37&#58853;\xa2\xe3\x94\x39\xfc\x36"),
    ("GBK", "\u20ac\u1e3f\ue7c7\u00e9\U0001f600", b"\x80\xa8\xbc&#59335;\xa8\xa6&#128512;"),
    ("Big5", "\u00a2\uffe0\u2400\u20ac\u00c0", b"&#162;\xa2\x46\xa3\xc0\xa3\xe1&#192;"),
    ("EUC-KR", "\uac00\u00e9", b"\xb0\xa1&#233;"),
]  # fmt: skip


@pytest.mark.parametrize(("encoding", "text", "expected"), ENCODED)
def test_encode_text(encoding, text, expected) -> None:
    assert encode_text(text, encoding) == expected


def test_urlencoded_percent_encode_set() -> None:
    # only ASCII alphanumerics and *-._ stay; a space is +, and ~ is escaped, unlike quote_plus
    assert urlencode([("a b~*'!()", "+&=%/")], "UTF-8") == "a+b%7E*%27%21%28%29=%2B%26%3D%25%2F"
    assert urlencode([("Az09-._*", "\u00e9\x7f")], "UTF-8") == "Az09-._*=%C3%A9%7F"


def test_urlencode_joins_pairs_and_uses_filenames() -> None:
    entries = [("a", "1"), ("a", "2&3=4"), ("f", File("x y.txt")), ("", "")]
    assert urlencode(entries, "UTF-8") == "a=1&a=2%263%3D4&f=x+y.txt&="
    assert urlencode([], "UTF-8") == ""


def test_multipart_parts() -> None:
    entries = [
        ("f", File('a\r\nb"c.txt', "text/plain", b"hi\r\n")),
        ("g", File("", "")),
        ("h", File("blob")),
        ("t", "x\ny"),
    ]
    assert multipart(entries, "UTF-8", BOUNDARY) == (  # [C156], for the files
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="f"; filename="a%0D%0Ab%22c.txt"\r\n'
        "Content-Type: text/plain\r\n\r\nhi\r\n\r\n"
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="g"; filename=""\r\n'
        "Content-Type: application/octet-stream\r\n\r\n\r\n"
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="h"; filename="blob"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n\r\n"
        f"--{BOUNDARY}\r\n"
        'Content-Disposition: form-data; name="t"\r\n\r\nx\r\ny\r\n'
        f"--{BOUNDARY}--\r\n"
    ).encode()
    assert multipart([], "UTF-8", BOUNDARY) == f"--{BOUNDARY}--\r\n".encode()  # [C156]


def test_multipart_escapes_encoded_bytes() -> None:
    # [C156] 唖 is JIS 0x30 0x22 in ISO-2022-JP: the escape applies to the bytes, inside it too
    body = multipart([("\u5516", "\u5516")], "ISO-2022-JP", BOUNDARY)
    assert b'name="\x1b$B0%22\x1b(B"\r\n\r\n\x1b$B0"\x1b(B\r\n' in body


def test_text_plain_encodes_names_and_values_separately() -> None:
    # [C156] the standard would encode the whole body, staying in JIS-Roman across "="
    body = text_plain([("\u00a5", "\u00a5")], "ISO-2022-JP")
    assert body == b"\x1b(J\\\x1b(B=\x1b(J\\\x1b(B\r\n"


def test_file_content_type_is_printable_ascii() -> None:
    with pytest.raises(ValueError):
        File("a", "text/plain\r\nX-Injected: 1")


def test_new_boundary_has_chromiums_shape() -> None:
    boundary = new_boundary()
    assert re.fullmatch(r"----WebKitFormBoundary[A-Za-z0-9]{16}", boundary)
    assert new_boundary(random.Random(7)) == new_boundary(random.Random(7))
    assert new_boundary() != boundary


def test_a_new_boundary_draws_each_character_alike() -> None:
    """The system's random bytes are taken modulo 62 below 248 only: all of them would draw the
    first 8 characters a quarter more often (chi-square about 800 here). 124,000 characters; the
    bound is chi-square's for 61 degrees of freedom at p = 1e-6, so a fair draw fails once in
    a million runs."""
    drawn = Counter("".join(new_boundary()[len("----WebKitFormBoundary"):] for _ in range(7_750)))
    expected = 7_750 * 16 / 62
    assert len(drawn) == 62
    assert sum((count - expected) ** 2 / expected for count in drawn.values()) < 130


def test_docstring_examples() -> None:
    results = doctest.testmod(_encode)
    assert results.attempted and not results.failed


def test_content_type() -> None:
    assert [content_type(enctype, "B") for enctype in ENCTYPES] == [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=B",
        "text/plain",
    ]
    with pytest.raises(ValueError):
        content_type("multipart/form-data")
    with pytest.raises(ValueError):
        content_type("application/json")


# --- against the live browser -------------------------------------------------------------------

_pages = itertools.count(1)


def _units(text: str) -> list[int]:
    """A string as UTF-16 code units, so that lone surrogates reach JavaScript intact."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def _js_entry(name: str, value: str | File) -> dict:
    if isinstance(value, File):
        return {
            "name": _units(name),
            "file": _units(value.filename),
            "type": value.content_type,
            "data": list(value.data),
        }
    return {"name": _units(name), "value": _units(value)}


_SUBMIT_JS = """
([entries]) => {
  const text = (units) => String.fromCharCode(...units);
  const form = document.forms[0];
  form.addEventListener("formdata", (event) => {
    for (const entry of entries) {
      if (entry.file) {
        const file = new File([new Uint8Array(entry.data)], text(entry.file), {type: entry.type});
        event.formData.append(text(entry.name), file);
      } else {
        event.formData.append(text(entry.name), text(entry.value));
      }
    }
  });
  form.submit();
}
"""


def _references(text: str) -> str:
    """An attribute value as ASCII, with character references wherever the parser could differ."""
    return "".join(
        char if " " <= char <= "~" and char not in '"&<' else f"&#{ord(char)};" for char in text
    )


def submit_in_chromium(
    chromium, *, charset, enctype, method="post", controls="", appended=(), accept_charset=None
):
    """Serve an ASCII page in ``charset`` whose form holds ``controls``, append ``appended``
    in its formdata event, submit it, and return the request Chromium sent."""
    number = next(_pages)
    action = f"/encode/sink/{number}"
    attribute = "" if accept_charset is None else f' accept-charset="{_references(accept_charset)}"'
    page = (
        f'<!doctype html><meta charset="{charset}"><title>encode</title>'
        f'<form method="{method}" enctype="{enctype}" action="{action}?old=1"{attribute}>'
        f"{controls}</form>"
    )
    content = f"text/html; charset={charset}"
    url = chromium.site.put(f"/encode/page/{number}", page.encode("ascii"), content)
    chromium.page.goto(url)
    assert chromium.page.evaluate("document.characterSet") == form_encoding(None, charset)
    return submitted(chromium, action, _SUBMIT_JS, [[_js_entry(*entry) for entry in appended]])


def submitted(chromium, action: str, script: str, argument: object) -> RecordedRequest:
    """Run ``script``, which submits the loaded page's form to ``action``, and return the
    request that arrived there. The site answers it ``204 No Content``
    (:meth:`LocalSite.without_landing`), so the tab stays on the form's page: nothing of a
    landing document is read here, and loading one cost a page load for every submission
    (89 of the file's 178 loads)."""
    site = chromium.site
    answered = site.no_content_answers
    deadline = time.monotonic() + 120  # a sweep's million entries take Chromium seconds
    with site.without_landing():
        chromium.page.evaluate(script, argument)
        while site.no_content_answers == answered:
            assert time.monotonic() < deadline, f"no submission to {action} arrived"
            time.sleep(0.005)
    [request] = [r for r in site.requests if r.path == action]
    return request


# Text inputs and textareas with awkward names and values, written with character references so
# the page is ASCII in any encoding, and the entries they give (textarea newlines become LF).
CONTROLS = (
    '<input name="a&amp;b=c+d%e f" value="x+y%z &amp; 100% *-._~!\'()">'
    "<input name='q\"uote&#13;&#10;lf&#10;cr&#13;' value=\"it's &quot;quoted&quot; \\ back\">"
    '<input name="emoji&#x1F600;" value="&#x1F4A9; &#xE9; &#x259; &#x30A2; &#xA5; &#x203E; ~">'
    '<textarea name="ta&#13;">line1&#13;&#10;line2&#10;line3&#13;end &#x20AC; &#xFF71;</textarea>'
    '<textarea name="&#xFC;n&#xEF;">  spaced  &#x2014; &#xBD; &#x5516; &#x4E02; \t tab</textarea>'
)
CONTROL_ENTRIES = [
    ("a&b=c+d%e f", "x+y%z & 100% *-._~!'()"),
    ("q\"uote\r\nlf\ncr\r", "it's \"quoted\" \\ back"),
    ("emoji\U0001f600", "\U0001f4a9 \u00e9 \u0259 \u30a2 \u00a5 \u203e ~"),
    ("ta\r", "line1\nline2\nline3\nend \u20ac \uff71"),
    ("\u00fcn\u00ef", "  spaced  \u2014 \u00bd \u5516 \u4e02 \t tab"),
]
APPENDED = [
    ("a\rb", "c\r\nd\ne\rf\n\rg"),
    ("lone\ud800", "x\udc00y\ud83d\ude00"),
    ("file", File('na"me\r\n.txt', "text/plain", b"hello\r\nworld")),
    ("empty", File("", "")),
    ("bin", File("\u00fcmlaut \u00e9\u0259.bin", "application/x-thing", bytes([0, 255, 13, 10]))),
    ("".join(map(chr, range(0x80))), "".join(map(chr, range(0x7F, -1, -1)))),
]
ENTRIES = CONTROL_ENTRIES + APPENDED


def expected_body(request, enctype: str, entries, encoding: str) -> bytes:
    """What formtools sends for ``entries``, with the boundary Chromium chose."""
    header = request.header("Content-Type") or ""
    boundary = header.partition("boundary=")[2]
    assert header == content_type(enctype, boundary)
    if enctype == "multipart/form-data":
        assert re.fullmatch(r"----WebKitFormBoundary[A-Za-z0-9]{16}", boundary)
        return multipart(entries, encoding, boundary)
    if enctype == "text/plain":
        return text_plain(entries, encoding)
    return urlencode(entries, encoding).encode("ascii")


@pytest.mark.spec_step("exec-request-8")
@pytest.mark.browser
@pytest.mark.parametrize("charset", ["UTF-8", "windows-1252", "Shift_JIS"])
@pytest.mark.parametrize(("method", "enctype"),
                         [("get", ENCTYPES[0]), *(("post", enctype) for enctype in ENCTYPES)])
def test_chromium_sends_what_we_encode(chromium, charset, method, enctype) -> None:
    request = submit_in_chromium(
        chromium, charset=charset, enctype=enctype, method=method, controls=CONTROLS,
        appended=APPENDED,
    )
    if method == "get":  # the query is replaced, and the enctype ignored
        assert request.method == "GET"
        assert request.target.partition("?")[2] == urlencode(ENTRIES, charset)
        return
    assert request.body == expected_body(request, enctype, ENTRIES, charset)


@pytest.mark.browser
def test_chromium_agrees_on_the_wpt_rows(chromium) -> None:
    for encoding in ("UTF-8", "windows-1252"):
        entries = [(name, value) for _, name, value, form, *_ in WPT_ROWS if form == encoding]
        for enctype in ENCTYPES:
            request = submit_in_chromium(
                chromium, charset=encoding, enctype=enctype, appended=entries
            )
            assert request.body == expected_body(request, enctype, entries, encoding), enctype


@pytest.mark.spec_step("exec-request-4")
@pytest.mark.browser
def test_chromium_picks_the_form_encoding(chromium) -> None:
    probe = "\u00e9\u30a2\u00a5\u0259"
    for accept_charset, document, _, _ in FORM_ENCODINGS:
        if document == "utf-16le":  # an ASCII page cannot be served in UTF-16
            continue
        expected = form_encoding(accept_charset, document)
        # [C156] _charset_ names the replacement encoding although the form submits UTF-8
        charset_name = "replacement" if accept_charset == "iso-2022-kr" else expected
        request = submit_in_chromium(
            chromium, charset=document, enctype=ENCTYPES[0], accept_charset=accept_charset,
            controls='<input type=hidden name="_charset_">', appended=[("v", probe)],
        )
        assert request.body.decode("ascii") == urlencode(
            [("_charset_", charset_name), ("v", probe)], expected
        ), (accept_charset, document)


# Every code point, one entry each, in every encoding Chromium can submit in.
SWEEP_ENCODINGS = [
    "UTF-8", "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14",
    "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
    "x-user-defined", "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR",
]  # fmt: skip
MULTI_BYTE = {"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"}

# The code points go to the page as one string of decimal numbers: a list of a million numbers
# took Playwright's Python side seconds to serialize and validate element by element (half of
# each encoding's time), a string is one value.
_SWEEP_JS = """
([codePoints]) => {
  const form = document.forms[0];
  form.addEventListener("formdata", (event) => {
    for (const codePoint of codePoints.split(",")) event.formData.append("k", String.fromCodePoint(Number(codePoint)));
  });
  form.submit();
}
"""


@pytest.mark.browser
@pytest.mark.parametrize("encoding", SWEEP_ENCODINGS)
def test_every_code_point_as_chromium_encodes_it(chromium, encoding) -> None:
    """text/plain keeps the bytes as they are: one ``k=`` line per code point (CR and LF are
    left out; the newline rows cover them)."""
    code_points = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000 and c not in (10, 13)]
    if encoding in MULTI_BYTE:
        code_points += [*range(0x10000, 0x30000), *range(0x30000, 0x110000, 97)]
    number = next(_pages)
    action = f"/encode/sweep/{number}"
    page = f'<!doctype html><form method=post enctype=text/plain action="{action}"></form>'
    content = f"text/html; charset={encoding}"
    url = chromium.site.put(f"/encode/page/{number}", page.encode("ascii"), content)
    chromium.page.goto(url)
    request = submitted(chromium, action, _SWEEP_JS, [",".join(map(str, code_points))])
    lines = request.body.split(b"\r\n")
    assert lines.pop() == b"" and len(lines) == len(code_points)
    mismatches = [
        f"U+{code_point:04X}: Chromium {line[2:]!r}, formtools {ours!r}"
        for code_point, line in zip(code_points, lines, strict=True)
        if line[2:] != (ours := encode_text(chr(code_point), encoding))
    ]
    assert not mismatches, f"{len(mismatches)} code points differ:\n" + "\n".join(mismatches[:20])
