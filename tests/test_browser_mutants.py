"""Damaged pages against live Chromium: what session 13's mutants of held-out pages found.

- an empty id: ``<label for="">`` gave its text to a control with ``id=""`` as its
  description, ``form=""`` gave a form with ``id=""`` a control outside it, ``list=""`` read a
  datalist with ``id=""``; Chromium's do none of that (an empty id is no ID: DOM's attribute
  change steps unset it). ``test_an_empty_id_is_no_id`` draws the references and the elements.
"""

from __future__ import annotations

import random

import pytest

from formtools._conformance.browser import ChromiumOracle
from tests.support.parity import tool_differences

pytestmark = pytest.mark.browser

SEED = 1313


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
