"""A call's result as Chromium 156 hands it to an agent, live, for landing pages drawn by a
seeded generator (``FORMTOOLS_LANDING_SEED``, ``FORMTOOLS_LANDING_PAGES`` for deep runs): which
``<script>`` elements are JSON-LD blocks, which block texts its reader keeps, and which answers
are documents that can hold any. ``tests/test_results.py`` replays the recorded cases; these
are the dimensions an outside tester found formtools reading otherwise:

- the ``type`` attribute is matched exactly as written (``APPLICATION/LD+JSON``, a space around
  it or a ``charset`` parameter make no block), and a script inside a ``<template>`` or a
  declarative shadow root is no part of the document;
- numbers are doubles (a whole number beyond 2**53 rounded, one beyond the doubles skipping its
  block), a lone surrogate escape skips its block, and ``\\v`` is an escape the reader takes;
- an answer that is no HTML (text, CSS, XML, an image, a PDF) holds no script elements,
  whatever its bytes spell.
"""

from __future__ import annotations

import codecs
import json
import os
import random
from typing import Any

import pytest
import webencodings

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._spec.encoding import encode_text
from formtools._spec.jsjson import dumps

pytestmark = pytest.mark.browser

SEED = int(os.environ.get("FORMTOOLS_LANDING_SEED", "17"))
MIME_PAGES = int(os.environ.get("FORMTOOLS_LANDING_PAGES", "4"))

EXACT = "application/ld+json"
TYPES = [
    "APPLICATION/LD+JSON", "application/LD+json",
    " application/ld+json", "application/ld+json\n", "\tapplication/ld+json",
    "application/ld+json; charset=utf-8", "\u00a0application/ld+json",
]
CONTAINERS = [
    ("<template>", "</template>"), ("<div><template shadowrootmode=open>", "</template></div>"),
    ("<template><div>", "</div></template>"), ("<p>", "</p>"), ("<table><tr><td>", "</td></tr></table>"),
]
TEXTS = [
    '{"a": 1}', "[5, -0, 0.5, 1e21, 1e-400, 5e-324, 1e308]", "[12345678901234567890]", "[9007199254740993]",
    "[2147483648]", "[-9007199254740993]", "[1e309]", "[-1e400]", "[" + "9" * 400 + "]", "[" + "9" * 5000 + "]",
    '["\\udc00"]', '["\\ude00\\ud83d"]', '["\\ud83d\\ude00"]', '{"\\ud800": 1}', '["a\\vb"]', '["\\\\v"]',
    '["\\x41"]', '["\\uffff"]', '/* c */ ["\\v"] // d', '{"n": 1E400}', '{"n": 123456789012345678901234567890}',
]
MIME_TYPES = [
    "text/plain", "text/css", "text/javascript", "text/x-unknown", "application/xml", "text/xml",
    "application/rss+xml", "image/svg+xml", "image/png", "application/pdf", "multipart/x-mixed-replace",
    "text/html", "",
]
FORM = '<form toolname="t" tooldescription="d" toolautosubmit action="{action}"><input name="q"></form>'


def _script(kind: str, text: str) -> str:
    return f'<script type="{kind}">{text}</script>'


def _blocks_page(rng: random.Random, count: int = 60) -> str:
    """``count`` blocks, each a drawn text, most of them of the exact type and in no container
    (else a drawn spelling, a drawn container); Chromium's answer is the list of the blocks it
    kept, in order, so one call compares them all."""
    parts = []
    for _ in range(count):
        opening, closing = rng.choice(CONTAINERS) if rng.random() < 0.3 else ("", "")
        kind = rng.choice(TYPES) if rng.random() < 0.3 else EXACT
        parts.append(opening + _script(kind, rng.choice(TEXTS)) + closing)
    return "<!doctype html><meta charset=utf-8>" + "".join(parts) + _script(EXACT, '{"last": true}')


def _agents_and_ours(chromium: ChromiumOracle, name: str, landing: bytes, content_type: str) -> tuple[str, str]:
    """Chromium's output for an agent and formtools' result, both as JSON text, for a call whose
    form lands on ``landing`` served with ``content_type``."""
    chromium.site.put(f"/landing/{name}", landing, content_type)
    page = FORM.format(action=f"/landing/{name}")
    url = chromium.site.put(f"/landing-form/{name}", page.encode())
    answer, _ = chromium.agent_answer(url, "t", {"q": "x"})
    assert answer["status"] == "Completed", answer
    output: Any = answer["output"]
    theirs = json.loads(output) if isinstance(output, str) else output
    (tool,) = formtools.extract_tools(page, base_url=url)
    result = formtools.call_tool(tool, {"q": "x"}, confirm=True)
    return dumps(theirs), dumps(result.result)


@pytest.mark.spec_step("exec-result-3")
def test_json_ld_blocks_are_the_ones_chromium_keeps(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED)
    landing = _blocks_page(rng)
    theirs, ours = _agents_and_ours(chromium, f"blocks-{SEED}", landing.encode("utf-8"), "text/html; charset=utf-8")
    assert ours == theirs, f"seed {SEED}: {landing}"


@pytest.mark.spec_step("exec-result-3")
def test_an_answer_that_is_no_html_has_no_json_ld(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED)
    body = "<html><body>" + _script(EXACT, '{"landed": "x"}') + "</body></html>"
    differences = []
    for kind in rng.sample(MIME_TYPES, k=min(MIME_PAGES, len(MIME_TYPES))):
        content_type = f"{kind}; charset=utf-8" if kind else ""
        theirs, ours = _agents_and_ours(chromium, f"mime-{MIME_TYPES.index(kind)}", body.encode(), content_type)
        if ours != theirs:
            differences.append(f"{kind or '(no type)'}: Chromium {theirs}, formtools {ours}")
    assert not differences, f"seed {SEED}:\n" + "\n".join(differences)


#: answers that end a submission without a document of the page's origin to read: name →
#: (status, Location or None, more headers). Chromium gives the agent nothing (the call stays
#: pending, or errs as after a cross-origin navigation), or the landing page's JSON-LD
ENDINGS: dict[str, tuple[int, str | None, list[tuple[str, str]]]] = {
    "204 no content": (204, "/elsewhere", []),
    "205 reset content": (205, "/elsewhere", []),
    "redirect to javascript:": (302, "javascript:1", []),
    "redirect to data:": (302, "data:text/html,<script type=application/ld+json>1</script>", []),
    "redirect to mailto:": (303, "mailto:a@example.com", []),
    "redirect to an unparseable URL": (307, "http://[::1", []),
    "CSP sandbox": (200, None, [("Content-Security-Policy", "sandbox")]),
    "CSP SANDBOX allow-scripts": (200, None, [("Content-Security-Policy", "SANDBOX allow-scripts")]),
    "CSP sandbox in a second policy": (200, None, [("Content-Security-Policy", "default-src *, sandbox")]),
    "CSP sandbox after a directive": (200, None, [("Content-Security-Policy", "default-src *; sandbox;")]),
    "CSP sandbox Allow-Same-Origin": (200, None, [("Content-Security-Policy", "sandbox Allow-Same-Origin")]),
    "CSP report-only sandbox": (200, None, [("Content-Security-Policy-Report-Only", "sandbox")]),
    "CSP of empty directives": (200, None, [("Content-Security-Policy", ";;")]),
}
ENDINGS_DRAWN = int(os.environ.get("FORMTOOLS_LANDING_ENDINGS", "5"))


@pytest.mark.spec_step("exec-result-2", "exec-result-4")
def test_a_submission_that_lands_on_no_document_of_the_page_gives_no_result(chromium: ChromiumOracle) -> None:
    """Where Chromium hands the agent no result (a 204 or 205 leaves the page; a redirect to
    ``javascript:``, ``data:``, ``mailto:`` or no URL goes nowhere; a CSP ``sandbox`` without
    ``allow-same-origin`` makes the landing page's origin opaque), formtools' call completes
    with no result and a reason, never an error: the form was submitted. Before, formtools gave
    ``[]`` (204), the sandboxed page's JSON-LD, or raised ``Refused`` for a request it had sent."""
    site = chromium.site
    body = _script(EXACT, '{"landed": "x"}').encode()
    differences = []
    for name in random.Random(SEED).sample(sorted(ENDINGS), k=min(ENDINGS_DRAWN, len(ENDINGS))):
        status, location, headers = ENDINGS[name]
        path = f"/ending/{sorted(ENDINGS).index(name)}"
        if location is None:
            site.put(path, body, "text/html; charset=utf-8", headers)
        else:
            site.redirect(path, location, status)
        page = FORM.format(action=path)
        url = site.put(f"/ending-form/{sorted(ENDINGS).index(name)}", page.encode())
        answer, _ = chromium.agent_answer(url, "t", {"q": "x"}, pending_after=2.0)
        (tool,) = formtools.extract_tools(page, base_url=url)
        try:
            result = formtools.call_tool(tool, {"q": "x"}, confirm=True)
        except formtools.FormtoolsError as error:
            differences.append(f"{name}: Chromium {answer}, formtools raised {error!r}")
            continue
        expected = answer.get("output") if answer["status"] == "Completed" else None
        if result.status != "completed" or result.result != expected or (expected is None and not result.reason):
            differences.append(f"{name}: Chromium {answer}, formtools {result.status} {result.result} ({result.reason})")
    assert not differences, f"seed {SEED}:\n" + "\n".join(differences)


#: Unicode's White_Space characters that are no HTTP white space (U+000B, a vertical tab, is none
#: either, but h11 refuses a header holding it: formtools' fetch fails where Chromium reads on)
NOT_HTTP_WHITE_SPACE = "\u0085\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
DIRECTIVES = ["sandbox", "sandbox allow-same-origin", "sandbox allow-scripts", "SANDBOX Allow-Same-Origin", "default-src *", "img-src 'self'"]
HEADER_VALUES = [
    ("Content-Type", "{}text/html"), ("Content-Type", "text/html{}; charset=utf-8"),
    ("Content-Disposition", "{}attachment"), ("Content-Disposition", "attachment{}"), ("Content-Disposition", "x{}y"),
    ("Content-Disposition", "{}inline"), ("Content-Disposition", "form-data{};name=a"),
]
LANDING = b'<!doctype html><script type="application/ld+json">{"landed": "x"}</script>'
#: how a frame's answer is shown, as the page sees it: "opaque" (sandboxed into an opaque
#: origin: no document to reach), "download" (the frame stays on its first about:blank),
#: "text" (a document without the JSON-LD script element: no HTML) or "html"
_FRAME_JS = """() => [...document.querySelectorAll('iframe')].map(frame => {
    const page = frame.contentDocument;
    if (page === null) return 'opaque';
    if (page.URL === 'about:blank') return 'download';
    return page.querySelector('script[type="application/ld+json"]') ? 'html' : 'text';
})"""


def _answers_drawn(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` CSP policies of one to three directives (a sandbox written twice, in any case),
    most with a character that is Unicode white space and no HTTP white space (or a space or
    tab) anywhere in a directive: around it, between its words, inside one; then each
    Content-Type and Content-Disposition value with a space, and with such a character."""
    answers = []
    for _ in range(count):
        directives = [rng.choice(DIRECTIVES) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.8:
            which = rng.randrange(len(directives))
            at = rng.randint(0, len(directives[which]))
            character = rng.choice(NOT_HTTP_WHITE_SPACE + " \t")
            directives[which] = directives[which][:at] + character + directives[which][at:]
        answers.append(("Content-Security-Policy", rng.choice([";", "; ", " ;\t"]).join(directives)))
    for header, value in HEADER_VALUES:
        answers += [(header, value.format(" ")), (header, value.format(rng.choice(NOT_HTTP_WHITE_SPACE)))]
    return answers


@pytest.mark.spec_step("exec-result-2", "exec-result-4")
def test_headers_with_unicode_white_space_are_read_as_chromium_reads_them(chromium: ChromiumOracle) -> None:
    """A landing page's ``Content-Security-Policy`` (``sandbox``: an opaque origin, no result),
    ``Content-Type`` (HTML or not) and ``Content-Disposition`` (a download), each holding a
    character that is Unicode white space and no HTTP white space: Chromium 156 splits
    directives on ASCII white space alone and ignores a directive holding another character
    than ASCII white space and visible ASCII, ignores a sandbox written again, and strips tab
    and space alone around a type. Seeded pages (``FORMTOOLS_LANDING_SEED``), 44 answers in
    iframes of one page, read as the page sees them; formtools' result for each is the same
    kind of answer. Before, ``\\u00a0sandbox`` and ``sandbox allow-same-origin; sandbox``
    withheld results Chromium gives, ``\\u3000text/html`` read as HTML, and a disposition of
    another token than ``inline`` (``form-data``) was no download."""
    rng = random.Random(SEED)
    site = chromium.site
    answers = _answers_drawn(rng, 30)
    frames = []
    for number, (header, value) in enumerate(answers):
        written = value.encode("utf-8").decode("latin-1")  # as the bytes go
        content_type, headers = (written, []) if header == "Content-Type" else ("text/html; charset=utf-8", [(header, written)])
        site.put(f"/headers/{SEED}/{number}", LANDING, content_type, headers)
        frames.append(f'<iframe src="/headers/{SEED}/{number}"></iframe>')
    chromium.page.goto(site.put(f"/headers/{SEED}/frames", "".join(frames).encode()))
    theirs = chromium.page.evaluate(_FRAME_JS)
    differences = []
    for number, (header, value) in enumerate(answers):
        page = FORM.format(action=f"/headers/{SEED}/{number}")
        (tool,) = formtools.extract_tools(page, base_url=site.origin + "/headers/form")
        result = formtools.call_tool(tool, {"q": "x"})
        reason = result.reason or ""
        ours = "download" if "download" in reason else "opaque" if "sandbox" in reason else "html" if result.result else "text"
        if ours != theirs[number]:
            differences.append(f"{header}: {value!r}: Chromium {theirs[number]}, formtools {ours} ({reason})")
    assert not differences, f"seed {SEED}:\n" + "\n".join(differences)


XHTML = "http://www.w3.org/1999/xhtml"
#: answers an XML landing page may be served as: XML documents (their XHTML scripts are the
#: page's), a feed and text/…+xml (shown as text), and application/…+xml (a download)
XML_TYPES = ["application/xml", "text/xml", "image/svg+xml", "application/rss+xml", "text/foo+xml", "application/mathml+xml"]
#: a drawn XML script element: ``{text}`` is its JSON text
XML_SCRIPTS = [
    '<h:script type="application/ld+json">{text}</h:script>',
    f'<script xmlns="{XHTML}" type="application/ld+json">{{text}}</script>',
    '<script type="application/ld+json">{text}</script>',  # no namespace: no script element
    '<h:script type="APPLICATION/LD+JSON">{text}</h:script>',
    '<h:template><h:script type="application/ld+json">{text}</h:script></h:template>',
    '<h:script type="application/ld+json"><![CDATA[{text}]]></h:script>',
    '<h:div><h:script type="application/ld+json">{text}</h:script></h:div>',
    '<h:script type="application/ld+json">[&drawn;, {text}]</h:script>',
]


def _xml_page(rng: random.Random, count: int = 12) -> str:
    """An XML document of ``count`` drawn script elements, each a drawn JSON text, with an
    internal entity, and at times cut short by a fatal error (an unclosed element)."""
    scripts = "".join(rng.choice(XML_SCRIPTS).format(text=f'{{"n": {n}}}') for n in range(count))
    broken = "<unclosed>" if rng.random() < 0.4 else ""
    return f'<?xml version="1.0"?><!DOCTYPE root [<!ENTITY drawn "7">]><root xmlns:h="{XHTML}">{scripts}{broken}</root>'


@pytest.mark.spec_step("exec-result-3")
def test_an_xml_answers_xhtml_scripts_are_its_json_ld_as_chromium_reads_them(chromium: ChromiumOracle) -> None:
    """Chromium 156 reads the ``script`` elements in the XHTML namespace of an XML document
    (``application/xml``, ``text/xml``, ``image/svg+xml``) as the landing page's JSON-LD: not
    one in no namespace, nor inside an XHTML ``template``; internal entities expanded, CDATA
    read as text, and the blocks before a fatal error kept. A feed and ``text/…+xml`` are shown
    as text (``[]``), and ``application/mathml+xml`` downloads (no result). Before, formtools
    gave ``[]`` for every XML document, and ``[]`` for a download. Seeded pages
    (``FORMTOOLS_LANDING_SEED``), one for each of four drawn types."""
    rng = random.Random(SEED)
    differences = []
    for kind in rng.sample(XML_TYPES, k=4):
        body = _xml_page(rng)
        difference = landing_difference(chromium, body, kind, f"xml-{XML_TYPES.index(kind)}")
        if difference:
            differences.append(f"{kind}: {difference}")
    assert not differences, f"seed {SEED}:\n" + "\n".join(differences)


#: the encodings an XML answer's bytes may be in (the Encoding Standard's names, as webencodings
#: spells them), and characters its scripts' JSON strings draw from: ASCII, Latin, Cyrillic,
#: Greek, CJK, Hangul, and one no legacy encoding has (an escape &#…; where it lacks one)
ENCODINGS = sorted(set(webencodings.LABELS.values()))
CHARACTERS = "aZ09 é€ü жЯ Ωλ 中日 한글 ♞"
FFFD = "\ufffd"
# encoding names XML's EncName is not ([A-Za-z][A-Za-z0-9._-]*), "866" and the last an Encoding
# Standard label too: a fatal error of application/xml and text/xml, none of image/svg+xml
INVALID_NAMES = ["866", "", "a b", "-x", "8", "\u00e9", "x:y", "iso_8859-8:1988"]
BOMS = {"utf-8": codecs.BOM_UTF8, "utf-16le": codecs.BOM_UTF16_LE, "utf-16be": codecs.BOM_UTF16_BE}
#: the XHTML scripts of a frame's XML document, JSON-parsed as Chromium's page reads them
#: (an unparsable or empty block skipped), or null for a frame showing no XML document
_XML_FRAME_JS = """() => [...document.querySelectorAll('iframe')].map(frame => {
    const scripts = frame.contentDocument.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'script');
    const blocks = [];
    for (const script of scripts) {
        try { blocks.push(JSON.parse(script.textContent)); } catch (error) {}
    }
    return blocks;
})"""


def _encoded(text: str, encoding: str) -> bytes:
    """``text`` in ``encoding`` (UTF-16 as itself: the form encoder gives UTF-8 for it)."""
    return text.encode(encoding) if encoding.startswith("utf-16") else encode_text(text, encoding)


def _label_of(rng: random.Random, encoding: str) -> str:
    """A drawn label of ``encoding``, in drawn ASCII case."""
    label = rng.choice([label for label, name in webencodings.LABELS.items() if name == encoding])
    return "".join(rng.choice((c.lower(), c.upper())) for c in label)


def _xml_answer(rng: random.Random, labelled: str | None = None) -> tuple[bytes, str, str]:
    """A drawn XML answer: its bytes, Content-Type, and a description. The document's text is in
    a drawn encoding, behind a drawn BOM (then in the BOM's encoding) or none, and a drawn label
    (of any encoding) may be the header's charset and another the XML declaration's
    (``labelled``: the text is in that encoding, which the header's charset names, or GBK,
    decoded alike), or the declaration an invalid name (:data:`INVALID_NAMES`); its five
    scripts each hold a JSON string of drawn characters, the first a U+FFFD too (a character gb18030 spells, 84 31 A4 37, and UTF-8 and UTF-16; an escape
    elsewhere)."""
    bom = rng.choice([None, None, *BOMS])
    encoding = bom or rng.choice(ENCODINGS)
    header = _label_of(rng, rng.choice(ENCODINGS)) if rng.random() < 0.6 else None
    declared = _label_of(rng, rng.choice(ENCODINGS)) if rng.random() < 0.5 else None
    if rng.random() < 0.2:
        declared = rng.choice(INVALID_NAMES)
    if labelled:
        bom, encoding, header = None, labelled, _label_of(rng, rng.choice(["gbk", labelled]))
    quote = rng.choice("\"'")
    declaration = f"<?xml version='1.0' encoding={quote}{declared}{quote}?>" if declared is not None else '<?xml version="1.0"?>'
    scripts = "".join(
        f'<h:script type="application/ld+json">{{"n": {n}, "s": "{FFFD * (n == 0)}{"".join(rng.choices(CHARACTERS, k=6))}"}}</h:script>'
        for n in range(5)
    )
    body = (BOMS[bom] if bom else b"") + _encoded(f'{declaration}<root xmlns:h="{XHTML}">{scripts}</root>', encoding)
    kind = rng.choice(["application/xml", "text/xml", "image/svg+xml"])
    content_type = f"{kind}; charset={header}" if header else kind
    return body, content_type, f"{content_type}, BOM {bom}, text in {encoding}, declared {declared}"


@pytest.mark.spec_step("exec-result-3")
def test_an_xml_answer_is_decoded_as_chromium_decodes_it(chromium: ChromiumOracle) -> None:
    """An XML answer's bytes are decoded as Chromium 156 decodes an XML document: a BOM wins
    over the header's charset, which wins over the XML declaration, else UTF-8, with any label
    of the Encoding Standard (``x-user-defined``, ``x-mac-cyrillic``, ``replacement``, which
    libxml2 knows not), the text read up to the decoder's first error. Before, a label libxml2
    does not know raised ``LookupError`` out of the call, a BOM lost to the header's charset (a
    UTF-8 BOM with ``charset=iso-8859-1``: ``[]``), and a U+FFFD spelled in gb18030 was taken
    for the decoder's error (the document cut there: ``[]`` where Chromium reads on). Seeded
    answers (``FORMTOOLS_LANDING_SEED``), 42 in iframes of one page (two in gb18030 labelled
    so); formtools calls each. An invalid encoding name in the declaration (``encoding="866"``)
    stopped formtools' reading of an ``image/svg+xml`` answer (``[]``), which Chromium reads."""
    rng = random.Random(SEED)
    site = chromium.site
    answers = [_xml_answer(rng) for _ in range(40)] + [_xml_answer(rng, labelled="gb18030") for _ in range(2)]
    for number, (body, content_type, _) in enumerate(answers):
        site.put(f"/xml-encoding/{SEED}/{number}", body, content_type)
    frames = "".join(f'<iframe src="/xml-encoding/{SEED}/{number}"></iframe>' for number in range(len(answers)))
    chromium.page.goto(site.put(f"/xml-encoding/{SEED}/frames", frames.encode()))
    theirs = chromium.page.evaluate(_XML_FRAME_JS)
    differences = []
    for number, (body, content_type, description) in enumerate(answers):
        page = FORM.format(action=f"/xml-encoding/{SEED}/{number}")
        (tool,) = formtools.extract_tools(page, base_url=site.origin + "/xml-encoding/form")
        ours = formtools.call_tool(tool, {"q": "x"}).result
        if dumps(ours) != dumps(theirs[number]):
            differences.append(f"{description}: Chromium {dumps(theirs[number])}, formtools {dumps(ours)}\n  {body!r}")
    assert not differences, f"seed {SEED}:\n" + "\n".join(differences)


def landing_difference(chromium: ChromiumOracle, body: str, content_type: str, name: str) -> str | None:
    """What Chromium's agent gets from a call landing on ``body`` served as ``content_type``,
    against what formtools' call gives, or None when they agree (the page and its landing
    are put at ``/{name}-form`` and ``/{name}-landing``)."""
    chromium.site.put(f"/{name}-landing", body.encode(), content_type)
    page = FORM.format(action=f"/{name}-landing")
    url = chromium.site.put(f"/{name}-form", page.encode())
    answer, _ = chromium.agent_answer(url, "t", {"q": "x"}, pending_after=2.0)
    theirs = answer.get("output") if answer["status"] == "Completed" else None
    theirs = json.loads(theirs) if isinstance(theirs, str) else theirs
    (tool,) = formtools.extract_tools(page, base_url=url)
    ours = formtools.call_tool(tool, {"q": "x"}).result
    if dumps(ours) == dumps(theirs):
        return None
    return f"Chromium {dumps(theirs)}, formtools {dumps(ours)}\n  {body}"
