"""Pages nobody here wrote, damaged, against live Chromium (tests/test_mutants.py holds the fast
path to the exact path on thousands of them; this holds both to the browser on a sample).

Session 13 compared 1,500 mutants of tests/data's held-out pages (``tests/support/mutategen.py``)
with Chromium 156: tools on both parse paths and a seeded call of each. What differed:

- an empty id: ``<label for="">`` gave its text to a control with ``id=""`` as its
  description, ``form=""`` gave a form with ``id=""`` a control outside it, ``list=""`` read a
  datalist with ``id=""``; Chromium's do none of that (an empty id is no ID: DOM's attribute
  change steps unset it). ``test_an_empty_id_is_no_id`` draws the references and the elements;
- ``</br><form><frameset>``: the end tag br sets the frameset-ok flag to "not ok" as a br start
  tag does, so Chromium keeps the body and the form; the exact path threw them away (html5lib
  1.1 inserts the br only). ``test_what_keeps_a_frameset_out_is_chromiums``;
- ``<isindex>``: html5lib 1.1 expands it into a form with an ``<hr>``, a label and an input
  (and counts it special); Chromium parses an ordinary element (the standard dropped it):
  an option took the prompt as its text, a select closed early, a label stayed open.
  ``test_isindex_is_an_ordinary_element``;
- ``<form><table><button><button>``: the second button closes the first, as anywhere; html5lib
  1.1 hands the token back to be processed again, which "in table" drops, so the exact path lost
  it (and the default button whose name and value Chromium sends).
  ``test_a_button_that_closes_a_button_in_a_table_is_chromiums``;
- ``<label><main></label><input>``: figcaption, hgroup, main and summary are special (an end
  tag stops at them), which html5lib 1.1 does not know: the exact path closed the label.
  ``test_elements_special_since_html5lib_are_chromiums``;
- unclosed templates around controls (``<span><template></span><input>``: a ``</span>`` in the
  template's contents is ignored, so the rest of the form is inert), on both parse paths: left
  to the exact path's template handling (its own session), so this sample draws no mutant
  holding a ``<template``.
"""

from __future__ import annotations

import random

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from tests.support.mutategen import mutants
from tests.support.parity import call_differences, calls_the_oracle_sees, tool_differences
from tests.test_mutants import LATER_SPECIAL, button_page, frameset_page

pytestmark = pytest.mark.browser

SEED = 1313
SAMPLE = 5
#: a page's own scripts must not run, nor its subresources reach for the network
SAVED_PAGE = (("Content-Security-Policy", "default-src 'self'"),)


def test_mutants_are_chromiums(chromium: ChromiumOracle) -> None:
    """A seeded sample of mutants: tools on both parse paths, and one seeded call of a tool
    that submits (the seeds' forms have ``toolautosubmit``), as Chromium's."""
    rng = random.Random(SEED)
    sample = [(label, page) for label, page in mutants(40, SEED) if b"<template" not in page.lower()][:SAMPLE]
    found = []
    for label, page in sample:
        found += tool_differences(chromium, page, label, "text/html", SAVED_PAGE)
        path = "/mutants/page.html"
        document = formtools.parse_html(page, url=chromium.site.origin + path, content_type="text/html")
        sent = {tool.name for tool in formtools.extract(document).tools if tool.annotations["autosubmit"]}
        inputs = [(name, value) for name, value in calls_the_oracle_sees(document, rng, chromium.site.origin) if name in sent]
        for name, value in rng.sample(inputs, min(1, len(inputs))):
            found += [f"{label} {name}: {d}" for d in call_differences(chromium, page, value, path, name, "text/html", SAVED_PAGE)]
    assert not found, "\n".join(found)


# (the referring attribute, the element it may name) — each with an empty value
_EMPTY_REFERENCES = (
    ('<label for="">Named by an empty for</label>', '<input name="{n}" id="">'),
    ('<input name="{n}" list="">', '<datalist id=""><option value="listed"></datalist>'),
    ('<input name="{n}" form="">', ""),  # the other form has id=""
    ('<label for="">Empty</label>', '<input type="checkbox" name="{n}" id="">'),
    ('<input name="{n}" list="" type="range">', '<datalist id=""><option value="3"></datalist>'),
    ('<select name="{n}" form=""><option>a</select>', ""),
)


def _empty_id_page(rng: random.Random) -> str:
    """Forms each holding some of the references above in a drawn order, around a form whose
    id is empty (the ``form=""`` controls stand outside it), a fast- or exact-path page."""
    forms = ['<form id="" toolname="other" tooldescription="Has an empty id" toolautosubmit><input name="inside"></form>']
    for number in range(3):
        parts = []
        for index, (reference, element) in enumerate(rng.sample(_EMPTY_REFERENCES, 3)):
            name = f"f{number}_{index}"
            pair = [reference.format(n=name), element.format(n=name + "_target")]
            rng.shuffle(pair)
            parts += pair
        forms.append(f'<form toolname="t{number}" tooldescription="Form {number}" toolautosubmit>{"".join(parts)}</form>')
    rng.shuffle(forms)
    wrapper = rng.choice(["{}", "<div>{}</div>", "<table><tr><td>{}</td></tr></table>"])
    return '<!doctype html><meta charset="utf-8">' + wrapper.format("".join(forms))


def test_an_empty_id_is_no_id(chromium: ChromiumOracle) -> None:
    """``for=""``, ``list=""`` and ``form=""`` name no element, whatever
    has ``id=""``: tools on both parse paths as Chromium's."""
    rng = random.Random(SEED)
    found = []
    for number in range(3):
        found += tool_differences(chromium, _empty_id_page(rng), f"empty-id page {number}")
    assert not found, "\n".join(found)


def test_what_keeps_a_frameset_out_is_chromiums(chromium: ChromiumOracle) -> None:
    """tests/test_mutants.py's frameset pages: two with an end tag br (which keeps the frameset
    out, and the form in), two without; tools on both parse paths as Chromium's."""
    rng = random.Random(SEED)
    pages = [frameset_page(rng) for _ in range(200)]
    with_br = [page for page in pages if "</br" in page.lower()]
    without = [page for page in pages if "</br" not in page.lower()]
    found = []
    for page in with_br[:2] + without[:2]:
        found += tool_differences(chromium, page, repr(page))
    assert not found, "\n".join(found)


# <isindex> where html5lib 1.1 still expanded it (a form, an <hr>, a label with a prompt and an
# input): in an option, after a </form> in a select, in a label before a control, in a cell
_ISINDEX = (
    "<select name=s{n}><option>a<isindex><option>b</select>",
    "<select name=s{n}><option>a</form><isindex><option>b</select><input name=after{n}>",
    "<p><label>L<isindex prompt=x>y</label><input name=i{n}>",
    "<label>L<isindex>y</label><input name=j{n}>",
    "<table><tr><td><isindex name=x action=/y><input name=c{n}></td></tr></table>",
    "<b><isindex></b><input name=b{n}>",
)


def test_isindex_is_an_ordinary_element(chromium: ChromiumOracle) -> None:
    """The mutants' find (``<isindex><frameset>``: html5lib's expansion made a form where
    Chromium has none): ``<isindex>`` is gone from the HTML Standard and from Chromium's
    parser, an ordinary element, not special. Two seeded pages of four tool forms, each with
    one of the places above: tools on both parse paths as Chromium's."""
    rng = random.Random(SEED)
    found = []
    for page_number in range(2):
        forms = [
            f'<form toolname="t{n}" tooldescription="d" toolautosubmit>{rng.choice(_ISINDEX).format(n=n)}</form>'
            for n in range(4)
        ]
        found += tool_differences(chromium, "".join(forms), f"isindex page {page_number}")
    assert not found, "\n".join(found)


def test_a_button_that_closes_a_button_in_a_table_is_chromiums(chromium: ChromiumOracle) -> None:
    """tests/test_mutants.py's button pages with two buttons: the request a call sends (the
    default button's name and value in it) on both parse paths as Chromium's."""
    rng = random.Random(SEED)
    # the default button second: a type=button one before it, so losing it changes the request
    drawn = (button_page(rng) for _ in range(300))
    pages = [page for page in drawn if "<button type=button name=a value=1><button name=b" in page][:3]
    assert pages
    found = []
    for page in pages:
        found += [f"{page}: {d}" for d in call_differences(chromium, page, {"q": "v"}, "/mutants/button.html")]
    assert not found, "\n".join(found)


def test_elements_special_since_html5lib_are_chromiums(chromium: ChromiumOracle) -> None:
    """A label's end tag stops at each of them (they are special): the control after it is in
    the label, whose text describes it; tools on both parse paths as Chromium's."""
    found = []
    for name in LATER_SPECIAL:
        page = f'<form toolname="t" tooldescription="d" toolautosubmit><label>Label<{name}></label><input name="a"></form>'
        found += tool_differences(chromium, page, name)
    assert not found, "\n".join(found)
