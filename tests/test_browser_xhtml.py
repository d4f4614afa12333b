"""``application/xhtml+xml`` pages against Chromium 156, live: Chromium parses them as XML, so a
page that is not well-formed, a form in no namespace or spelled ``<FORM>`` registers no tools.
Seeded documents (with or without an XML declaration, an XHTML or HTML doctype, ``xmlns``, HTML
named references, form elements in upper case, a break of well-formedness before, inside or
after the form) each in an iframe of one page, against what ``formtools extract URL`` finds:
formtools gives Chromium's tools, or says it does not read the document
(:func:`formtools._spec.xhtml.unread_xhtml`) and gives none.

The gap, measured here: a document broken after its form starts, whose form Chromium keeps
(its XML parser keeps the document built before the error), and a form with a field element
in another case or namespace (Chromium registers the tool without that field), formtools does
not read. A well-formed page whose form elements are XHTML ones is read as before.
"""

from __future__ import annotations

import json
import random

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._spec.jsjson import dumps
from formtools.errors import SourceError
from tests.test_browser_heads import _FRAME_TOOLS_JS
from tests.test_browser_landing import FORM, _xml_page

pytestmark = pytest.mark.browser

PROLOGS = ["", '<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
           "<!DOCTYPE html>"]  # fmt: skip
ROOTS = ['<html xmlns="http://www.w3.org/1999/xhtml">', '<html xmlns="http://www.w3.org/1999/xhtml">', "<html>"]
TEXTS = ["a", "a&amp;b", "a&nbsp;b", "a&eacute;b", "a&nosuchname;b", "<![CDATA[<p>]]>"]
FORMS = ['<form toolname="t" tooldescription="d" action="/x"><input name="q"/></form>',
         '<form toolname="t" tooldescription="d" action="/x"><input name="q"/></form>',
         '<FORM toolname="t" tooldescription="d" action="/x"><input name="q"/></FORM>',
         '<form toolname="t" tooldescription="d" action="/x"><INPUT name="q"/></form>',
         '<form toolname=t tooldescription=d action=/x><input name=q></form>',
         '<form toolname="t" tooldescription="d" action="/x"><input name="q"></form>']  # fmt: skip
BREAKS = ["", "", "", "<p>", "<br>", "a & b"]


def _document(rng: random.Random) -> bytes:
    """A seeded XHTML document, maybe with one break of well-formedness before or after its form."""
    where = rng.choice(["", "before", "after"])
    broken = rng.choice(BREAKS)
    parts = [rng.choice(PROLOGS), rng.choice(ROOTS), "<body>", rng.choice(TEXTS)]
    parts += [broken if where == "before" else "", rng.choice(FORMS), broken if where == "after" else ""]
    return "".join([*parts, "</body></html>"]).encode()


def _extracted(url: str) -> list[str] | None:
    """The tools formtools finds at ``url``, or None when it says it does not read the page."""
    try:
        return sorted(tool.name for tool in formtools.extract_tools(formtools.load_page(url)))
    except SourceError as error:
        assert "an XML document formtools does not read" in str(error), error
        return None


def test_an_xhtml_pages_tools_are_chromiums_or_none(chromium: ChromiumOracle) -> None:
    """40 seeded XHTML documents: where formtools reads one, its tools are Chromium's; where it
    does not, it says so in one line. Before ``unread_xhtml``, formtools parsed every one as HTML
    and gave tool ``t`` where Chromium registered none (not well-formed, no ``xmlns``,
    ``<FORM>``, ``&eacute;`` without an XHTML doctype): 24 of 40 differed; now none. Chromium
    registers ``t`` in 16; formtools reads 10 of them and gives up 6 (the gap: a form Chromium
    keeps before a later error, or whose ``<INPUT>`` it reads as no field)."""
    rng = random.Random(2026112923)
    documents = [_document(rng) for _ in range(40)]
    site = chromium.site
    urls = [site.put(f"/xhtml/d{n}", body, content_type="application/xhtml+xml") for n, body in enumerate(documents)]
    frames = "".join(f'<iframe src="{url}"></iframe>' for url in urls).encode()
    chromium.page.goto(site.put("/xhtml/frames", frames))
    theirs = chromium.page.evaluate(_FRAME_TOOLS_JS)
    differences, read = [], []
    for body, url, tools in zip(documents, urls, theirs, strict=True):
        ours = _extracted(url)
        read.append(ours is not None)
        if ours is not None and ours != tools:
            differences.append(f"{body!r}: Chromium {tools}, formtools {ours}")
    assert not differences, f"{len(differences)} of {len(documents)} differ:\n" + "\n".join(differences)
    assert [] in theirs and ["t"] in theirs, theirs
    assert any(read) and not all(read), "the seed draws documents formtools reads and does not"


@pytest.mark.spec_step("exec-result-3")
def test_an_xhtml_landing_pages_json_ld_is_what_chromiums_xml_parser_reads(chromium: ChromiumOracle) -> None:
    """A call landing on a seeded XHTML answer (scripts in and out of the XHTML namespace, in a
    ``template``, an internal entity, at times a fatal error): its JSON-LD is what Chromium's
    XML parser builds (:func:`formtools._execute.send.xml_json_ld_of`). Before, formtools read
    it with its HTML parser: a script in no namespace counted, the blocks after an error too."""
    rng = random.Random(2026112923)
    differences = []
    for number in range(2):
        body = _xml_page(rng)
        chromium.site.put(f"/xhtml-landing/{number}", body.encode(), "application/xhtml+xml")
        page = FORM.format(action=f"/xhtml-landing/{number}")
        url = chromium.site.put(f"/xhtml-form/{number}", page.encode())
        answer, _ = chromium.agent_answer(url, "t", {"q": "x"}, pending_after=2.0)
        theirs = answer.get("output") if answer["status"] == "Completed" else None
        theirs = json.loads(theirs) if isinstance(theirs, str) else theirs
        (tool,) = formtools.extract_tools(page, base_url=url)
        ours = formtools.call_tool(tool, {"q": "x"}).result
        if dumps(ours) != dumps(theirs):
            differences.append(f"Chromium {dumps(theirs)}, formtools {dumps(ours)}\n  {body}")
    assert not differences, "\n".join(differences)
