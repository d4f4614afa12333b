"""Which encoding a page's bytes are decoded in: Chromium 156's rules (``formtools._parse.charset``).

Every expected answer here is ``document.characterSet`` as Chromium 156 gave it for the same
bytes served by the oracle's local site (measured while writing the rules; the same kinds of page
are generated and compared live in ``tests/test_browser_encodings.py``). Both parse paths must
give it.
"""

from __future__ import annotations

import pytest

import formtools
from formtools import extract_tools

FORM = b"<form toolname=t tooldescription=d toolautosubmit><input name=q></form>"
K = b"<meta charset=koi8-r>"
W = b"<meta charset=windows-1251>"
X = b"x"

# (id, bytes before FORM, Content-Type, Chromium's document.characterSet)
CASES: list[tuple[str, bytes, str | None, str]] = [
    # --- the XML declaration: only at byte 0, "<?xml" and "encoding" in lower case, the first
    # "encoding" up to the page's first ">", blanks (bytes up to 0x20 and from 0x80) around "=",
    # a quoted label, not trimmed; a <meta> overrides it, the header and a BOM beat it
    ("xml", b'<?xml version="1.0" encoding="windows-1251"?>', None, "windows-1251"),
    ("xml single quotes", b"<?xml version='1.0' encoding='shift_jis'?>", None, "Shift_JIS"),
    ("xml no version", b'<?xml encoding="windows-1251"?>', None, "windows-1251"),
    ("xml any pi", b'<?xmlfoo encoding="windows-1251"?>', None, "windows-1251"),
    ("xml blanks", b'<?xml encoding\t=\n"windows-1251"?>', None, "windows-1251"),
    ("xml control blank", b'<?xml encoding\x01="windows-1251"?>', None, "windows-1251"),
    ("xml high blanks", b'<?xml encoding\x80 =\xff"koi8-r"?>', None, "KOI8-R"),
    ("xml label case", b'<?xml encoding="Windows-1251"?>', None, "windows-1251"),
    ("xml no >", b'<?xml encoding="windows-1251"', None, "windows-1251"),  # the form's ">"
    ("xml first of two", b'<?xml encoding="koi8-r" encoding="windows-1251"?>', None, "KOI8-R"),
    ("xml utf-16 means utf-8", b'<?xml encoding="utf-16"?>', None, "UTF-8"),
    ("xml utf-16be means utf-8", b'<?xml\nencoding="UTF-16BE"?>', None, "UTF-8"),
    ("xml x-user-defined stays", b'<?xml encoding="x-user-defined"?>', None, "x-user-defined"),
    ("xml replacement", b'<?xml encoding="iso-2022-kr"?>', None, "replacement"),
    ("xml gbk", b'<?xml encoding="gbk"?>', None, "GBK"),
    ("xml after space", b' <?xml encoding="windows-1251"?>', None, "windows-1252"),
    ("xml after newline", b'\n<?xml encoding="windows-1251"?>', None, "windows-1252"),
    ("xml after comment", b'<!-- c --><?xml encoding="windows-1251"?>', None, "windows-1252"),
    ("xml upper XML", b'<?XML encoding="windows-1251"?>', None, "windows-1252"),
    ("xml upper ENCODING", b'<?xml ENCODING="windows-1251"?>', None, "windows-1252"),
    ("xml unquoted", b"<?xml encoding=windows-1251?>", None, "windows-1252"),
    ("xml spaced label", b'<?xml encoding=" windows-1251 "?>', None, "windows-1252"),
    ("xml tab label", b'<?xml encoding="\tkoi8-r"?>', None, "windows-1252"),
    ("xml mixed quotes", b"<?xml encoding=\"windows-1251'?>", None, "windows-1252"),
    ("xml unknown label", b'<?xml encoding="bogus"?>', None, "windows-1252"),
    ("xml empty label", b'<?xml encoding=""?>', None, "windows-1252"),
    ("xml encoding in a value", b'<?xml version="encoding" encoding="koi8-r"?>', None, "windows-1252"),
    ("xml encodingx", b'<?xml encodingx="koi8-r"?>', None, "windows-1252"),
    ("xml > first", b'<?xml x=">" encoding="windows-1251"?>', None, "windows-1252"),
    ("xml two declarations", b'<?xml?><?xml encoding="koi8-r"?>', None, "windows-1252"),
    ("xml then meta", b'<?xml encoding="windows-1251"?>' + K, None, "KOI8-R"),
    ("meta then xml", K + b'<?xml encoding="windows-1251"?>', None, "KOI8-R"),
    ("xml then unknown meta", b'<?xml encoding="windows-1251"?><meta charset=bogus>', None, "windows-1251"),
    ("xml then late meta", b'<?xml encoding="windows-1251"?><body>' + X * 1100 + K, None, "windows-1251"),
    ("xml then header", b'<?xml encoding="windows-1251"?>', "text/html; charset=koi8-r", "KOI8-R"),
    ("xml then unknown header", b'<?xml encoding="koi8-r"?>', "text/html; charset=bogus", "KOI8-R"),
    ("xml after BOM", b'\xef\xbb\xbf<?xml encoding="windows-1251"?>', None, "UTF-8"),
    ("xml counts in the 1024", b'<?xml encoding="windows-1251"?><body>' + X * 986 + K, None, "KOI8-R"),
    ("xml counts in the 1024 +1", b'<?xml encoding="windows-1251"?><body>' + X * 987 + K, None, "windows-1251"),
    # --- <?x in UTF-16 at byte 0: UTF-16 without a BOM, and no <meta> is read
    ("utf-16le <?x", "<?xml?><meta charset=koi8-r>".encode("utf-16le"), None, "UTF-16LE"),
    ("utf-16be <?x", "<?xyz ".encode("utf-16be"), None, "UTF-16BE"),
    ("utf-16le <?x, header", "<?x".encode("utf-16le"), "text/html; charset=koi8-r", "KOI8-R"),
    ("utf-16le no <?x", "<p>".encode("utf-16le"), None, "windows-1252"),
    ("utf-32le <?x", "<?xml?>".encode("utf-32le"), None, "windows-1252"),
    # --- the <meta> scan: out of the head (a start tag other than html, head, script, noscript,
    # style, link, meta, object, title, base; an end tag other than those eight), it stops after
    # the first token ending at or past byte 1,024; text does not end the head
    *((f"body + {n}", b"<body>" + X * n + W, None, "windows-1251") for n in (0, 1000, 1017)),
    *((f"body + {n}", b"<body>" + X * n + W, None, "windows-1252") for n in (1018, 1100)),
    ("p + 1020", b"<p>" + X * 1020 + W, None, "windows-1251"),
    ("p + 1021", b"<p>" + X * 1021 + W, None, "windows-1252"),
    ("meta straddling 1024", b"<body>" + X * 1010 + K, None, "KOI8-R"),
    ("long text, no tag", X * 1100 + W, None, "windows-1251"),
    ("long title", b"<title>" + X * 1100 + b"</title>" + W, None, "windows-1251"),
    ("long script", b"<script>" + X * 300_000 + b"</script>" + K, None, "KOI8-R"),
    ("long comment", b"<!--" + X * 1100 + b"-->" + W, None, "windows-1251"),
    ("doctype", b"<!DOCTYPE html>" + X * 1100 + W, None, "windows-1251"),
    ("html with attributes", b"<html lang=en><head>" + X * 1100 + W, None, "windows-1251"),
    ("noscript object base link", b"<noscript></noscript><object></object><base><link>" + X * 1100 + W,
     None, "windows-1251"),  # fmt: skip
    ("end tags kept", b"</title></script></noscript></meta>" + X * 1100 + W, None, "windows-1251"),
    *((f"{tag.decode()} ends the head", tag + X * 1100 + W, None, "windows-1252")
      for tag in (b"</head>", b"</html>", b"</body>", b"<div>", b"</div>", b"</span>", b"</p>",
                  b"<template>", b"<svg>", b"<BODY>")),  # fmt: skip
    ("head ends after a long title", b"<title>" + X * 1100 + b"</title><body>" + W, None, "windows-1252"),
    ("comment past 1024 after body", b"<body><!--" + X * 1100 + b"-->" + K, None, "windows-1252"),
    ("a < b in the text", b"<body>" + X * 1000 + b"a < b" + X * 13 + K, None, "windows-1252"),
    ("bytes, not characters", b"<body>" + b"\xe9" * 1017 + K, None, "KOI8-R"),
    ("CR LF count two", b"<body>" + b"\r\n" * 508 + X + K, None, "KOI8-R"),
    ("CR LF count two +1", b"<body>" + b"\r\n" * 509 + K, None, "windows-1252"),
    ("NUL text is no token", b"<body>" + b"\0" * 3000 + K, None, "KOI8-R"),
    ("NUL then text", b"<body>" + b"\0" * 10 + X * 1100 + K, None, "windows-1252"),
    # where a <meta> is text: in the tokenizer's text states, comments and attribute values
    *((f"meta in {name}", start + W + end + K, None, "KOI8-R")
      for name, start, end in (("script", b"<script>", b"</script>"), ("style", b"<style>", b"</style>"),
                               ("title", b"<title>", b"</title>"), ("textarea", b"<textarea>", b"</textarea>"),
                               ("xmp", b"<xmp>", b"</xmp>"), ("iframe", b"<iframe>", b"</iframe>"),
                               ("noembed", b"<noembed>", b"</noembed>"), ("noframes", b"<noframes>", b"</noframes>"),
                               ("comment", b"<!--", b"-->"), ("attribute", b"<a title='", b"'>"),
                               ("svg title", b"<svg><title>", b"</title></svg>"))),  # fmt: skip
    ("meta in plaintext", b"<plaintext>" + W, None, "windows-1252"),
    ("escaped script", b"<script><!--<script>" + W + b"</script>--></script>" + K, None, "KOI8-R"),
    # ... and where it counts: the tokenizer knows no tree
    *((f"meta in {name}", start + W + end + K, None, "windows-1251")
      for name, start, end in (("noscript", b"<noscript>", b"</noscript>"),
                               ("template", b"<template>", b"</template>"), ("svg", b"<svg>", b"</svg>"),
                               ("select", b"<select>", b"</select>"))),  # fmt: skip
    # --- which <meta>, and what it says
    ("late utf-16 in the head", b"<title>" + X * 1100 + b"</title><meta charset=utf-16>", None, "UTF-8"),
    ("utf-16be", b"<meta charset=utf-16be>", None, "UTF-8"),
    ("x-user-defined", b"<meta charset=x-user-defined>", None, "windows-1252"),
    ("replacement", b"<meta charset=iso-2022-kr>", None, "replacement"),
    ("unknown, then one", b"<meta charset=bogus>" + K, None, "KOI8-R"),
    ("empty, then one", b"<meta charset=''>" + K, None, "KOI8-R"),
    ("trimmed", b"<meta charset=' koi8-r '>", None, "KOI8-R"),
    ("not trimmed of \\v", b"<meta charset='\x0bkoi8-r'>", None, "windows-1252"),
    ("the last charset", b"<meta charset=windows-1251 charset=koi8-r>", None, "KOI8-R"),
    ("the last charset, unknown", b"<meta charset=koi8-r charset=bogus>", None, "windows-1252"),
    ("charset over content", b"<meta charset=bogus http-equiv=content-type content='charset=koi8-r'>",
     None, "windows-1252"),  # fmt: skip
    ("charset after content", b"<meta http-equiv=content-type content='charset=koi8-r' charset=windows-1251>",
     None, "windows-1251"),  # fmt: skip
    ("the last content", b"<meta http-equiv=content-type content='charset=koi8-r' content='text/html'>",
     None, "windows-1252"),  # fmt: skip
    ("http-equiv any", b"<meta http-equiv=x http-equiv=CONTENT-TYPE content='charset=koi8-r'>", None, "KOI8-R"),
    ("http-equiv untrimmed", b"<meta http-equiv=' content-type' content='charset=koi8-r'>", None, "windows-1252"),
    ("content without http-equiv", b"<meta content='text/html; charset=koi8-r'>", None, "windows-1252"),
    ("late http-equiv in the head", b"<title>" + X * 1100 + b"</title>"
     b"<meta http-equiv=content-type content='charset=koi8-r'>", None, "KOI8-R"),  # fmt: skip
    ("late http-equiv in the body", b"<body>" + X * 1100 +
     b"<meta http-equiv=content-type content='charset=koi8-r'>", None, "windows-1252"),  # fmt: skip
    ("reference in a value", b"<meta charset='koi8&#45;r'>", None, "KOI8-R"),
    # --- the header and the BOM
    ("header over meta", K, "text/html; charset=windows-1251", "windows-1251"),
    # the header's charset parameter as Chromium reads it (a review's finding: a regex took the
    # label out of single quotes, another parameter's value and a name with a blank before "=")
    ("header single-quoted", W, "text/html; charset='koi8-r'", "windows-1251"),
    ("header charset in another value", W, 'text/html; foo="charset=koi8-r"', "windows-1251"),
    ("header xcharset", W, "text/html; xcharset=koi8-r", "windows-1251"),
    ("header blank before =", W, "text/html; charset =koi8-r", "windows-1251"),
    ("header first charset empty", W, 'text/html; charset=""; charset=koi8-r', "windows-1251"),
    ("header ends at a comma", W, "text/html; charset=koi8-r,shift_jis", "KOI8-R"),
    ("header double-quoted", W, 'text/html; charset="koi8-r"', "KOI8-R"),
    ("header second parameter", W, "text/html; q=1; CHARSET=koi8-r", "KOI8-R"),
    ("header blank after =", W, "text/html; charset= koi8-r", "KOI8-R"),
    ("unknown header", K, "text/html; charset=bogus", "KOI8-R"),
    ("header utf-16", K, "text/html; charset=utf-16", "UTF-16LE"),
    ("header x-user-defined", b"", "text/html; charset=x-user-defined", "x-user-defined"),
    ("BOM over header", b"\xef\xbb\xbf", "text/html; charset=koi8-r", "UTF-8"),
    ("BOM over meta", b"\xef\xbb\xbf" + K, None, "UTF-8"),
    ("nothing declared", b"", None, "windows-1252"),
]

# The content attribute (with http-equiv=content-type): Chromium's ExtractCharset.
CONTENTS: list[tuple[bytes, str]] = [
    (b"'text/html; charset = koi8-r'", "KOI8-R"),
    (b"'CHARSET=koi8-r'", "KOI8-R"),
    (b"'xcharset=koi8-r'", "KOI8-R"),
    (b"'charset=\"koi8-r\"'", "KOI8-R"),
    (b"'charset=\" koi8-r\"'", "KOI8-R"),
    (b"'charset=koi8-r;x'", "KOI8-R"),
    (b"'charset=koi8-r x'", "KOI8-R"),
    (b"'charset=koi8-r\"x'", "KOI8-R"),
    (b"\"charset=koi8-r'x\"", "KOI8-R"),
    (b"'charset=\x01koi8-r'", "KOI8-R"),
    (b"'charset=koi8-r\x01'", "KOI8-R"),
    (b"'charset koi8-r; charset=windows-1251'", "windows-1251"),
    (b"'charset=\"koi8-r'", "windows-1252"),
    (b"'charset=\"koi8-r x\"'", "windows-1252"),
    (b"'charset=;charset=koi8-r'", "windows-1252"),
    (b"'charset=\"\" charset=koi8-r'", "windows-1252"),
    (b"'charset='", "windows-1252"),
    (b"'text/html;charset=koi8-r,foo'", "windows-1252"),
    (b"'charset=koi8-r\xa0'", "windows-1252"),
]
CASES += [(f"content {value!r}", b"<meta http-equiv=content-type content=" + value + b">", None, expected)
          for value, expected in CONTENTS]  # fmt: skip


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
@pytest.mark.parametrize(("before", "content_type", "expected"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])  # fmt: skip
def test_encoding_as_chromium_settles_it(
    before: bytes, content_type: str | None, expected: str, parser: str
) -> None:
    document = formtools.parse_html(before + FORM, content_type=content_type, parser=parser)  # type: ignore[arg-type]
    assert document.encoding.lower() == expected.lower()


def test_the_settled_encoding_decodes_and_encodes() -> None:
    """The tester's page (finding 5): the XML declaration's windows-1251 decodes the page and
    encodes the submission, as Chromium sent ``q=%26%23233%3B+%E6``."""
    page = b'<?xml version="1.0" encoding="windows-1251"?>' + FORM.replace(b"tooldescription=d", b"tooldescription=\xe6")
    for parser in ("auto", "html5lib"):
        document = formtools.parse_html(page, url="http://h.test/p", parser=parser)  # type: ignore[arg-type]
        (tool,) = extract_tools(document)
        assert tool.description == "ж"
        request = formtools.prepare_call(tool, {"q": "é ж"}).request
        assert request.url.endswith("?q=%26%23233%3B+%E6")


@pytest.mark.parametrize(
    ("page", "guessed"),
    [
        ("<p>Привет, мир!</p>".encode("cp1251") + FORM, True),  # Chromium: windows-1251
        ("<p>東京</p>".encode("shift_jis") + FORM, True),  # Chromium: Shift_JIS
        (b"<body>" + X * 1017 + b"\0" + FORM, True),  # ASCII with a NUL; Chromium: windows-1257
        (FORM, False),
        (b"<meta charset=windows-1251>" + "Привет".encode("cp1251") + FORM, False),
        (b'<?xml encoding="windows-1251"?>' + "Привет".encode("cp1251") + FORM, False),
    ],
)
def test_undeclared_encoding_is_flagged(page: bytes, guessed: bool) -> None:
    """Chromium guesses an undeclared page's encoding from its text (compact_enc_det), which
    formtools does not reproduce: the page is flagged and lint says so."""
    for parser in ("auto", "html5lib"):
        document = formtools.parse_html(page, parser=parser)  # type: ignore[arg-type]
        assert document.encoding_guessed is guessed
        assert document.encoding == "windows-1252" or not guessed


def test_lint_says_the_encoding_is_guessed() -> None:
    page = "<p>Привет, мир! Поиск по сайту.</p>".encode("cp1251") + FORM
    diagnostics = formtools.extract(formtools.parse_html(page)).diagnostics
    assert [d.code for d in diagnostics if d.code == "undeclared-encoding"] == ["undeclared-encoding"]
    declared = formtools.extract(formtools.parse_html(b"<meta charset=windows-1251>" + page)).diagnostics
    assert "undeclared-encoding" not in [d.code for d in declared]


def test_a_meta_after_anything_in_the_head_is_found_in_any_case() -> None:
    """The ``<meta>`` scan stops where no ``<meta`` lies ahead, which it looks for in the page's
    lowercased bytes, again only once the walk has passed the one it found (a case-insensitive
    regex over the whole page was most of the scan). 2,000 seeded heads of what keeps the scanner
    in the head, ``<meta`` spelled in every case inside text, comments, scripts, titles and
    attribute values, then a real ``<meta charset>`` in random case: the scan must reach it."""
    import random

    from formtools._parse.charset import settle_encoding

    def spelled(rng: random.Random, word: str) -> str:
        return "".join(c.upper() if rng.random() < 0.5 else c for c in word)

    rng = random.Random(2000)
    for _ in range(2000):
        pieces = []
        for _ in range(rng.randint(0, 8)):
            meta = spelled(rng, "<meta")
            pieces.append(rng.choice([
                f"{meta} name=viewport content=x>", f"<!-- {meta} charset=koi8-r> -->",
                f"<script>var m = '{meta} charset=koi8-r>';</script>", f"<title>{meta} charset=koi8-r></title>",
                f"<link rel=x href='{meta}'>", f"{meta} http-equiv=refresh content=0>", "\n", "<style>p{}</style>",
            ]))  # fmt: skip
        label = rng.choice(["windows-1251", "shift_jis"])
        page = "".join(pieces) + f"{spelled(rng, '<meta')} {spelled(rng, 'charset')}={label}>"
        settled = settle_encoding(page.encode() + FORM, None)
        assert settled.encoding.name == label, page
