"""Template soups against the live Chromium 156: the tree it builds, and the tools, on both paths.

html5lib 1.1 predates ``<template>``: it parsed one as an ordinary element, so a template was no
scope boundary (``<p><template></p>`` closed the p around it), held no marker in the list of
active formatting elements, had no "in template" insertion mode and no stack of template
insertion modes (``<template><tr>`` dropped the row, ``<template><col>`` too), took no foster-
parented node into its contents, and a ``<template>`` in a table was foster-parented out of it.
The exact path now parses templates as the HTML Standard does, and where Chromium departs from
the standard, as Chromium does (each measured here): ``</form>`` in a template is "any other end
tag" (a special element open in the form stops it), a ``<form>`` in a table in a template is
inserted (the standard ignores it), and ``<title>``, ``<noframes>``, ``<base>``, ``<basefont>``,
``<bgsound>`` switch a template's contents to "in body" (a table part after them is ignored).

A seeded generator (``tests/support/templategen.py``) writes template soups; each page's tree,
as Chromium's DevTools gives it (template contents and shadow roots, closed ones too), is
compared with the exact path's (``tests/support/domtree.py``), and its tools, on both parse
paths, with Chromium's (a page whose registration is racy is counted apart).
``tests/test_fast_path.py`` holds the fast path to the exact one on more of the same soups, and
tests/test_browser_html5lib_corpus.py holds html5lib-tests' ``template.dat`` pages to Chromium.
"""

from __future__ import annotations

import difflib
import random

import pytest

from formtools._conformance.browser import ChromiumOracle
from support.domtree import chromium_tree, exact_tree
from support.parity import answer_differences, one_load_suffices
from support.templategen import SCRIPT, template_soup

pytestmark = pytest.mark.browser

SEED = 20261128
PAGES = 70


def test_template_soups_build_chromiums_tree_and_tools(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED)
    differences: list[str] = []
    unstable = 0
    for _ in range(PAGES):
        html = template_soup(rng)
        answer = chromium.stable_tools(html, reload=not one_load_suffices(html.replace(SCRIPT, "")))
        theirs, ours = chromium_tree(chromium), exact_tree(html)
        if theirs != ours:
            differences.append(html + "\n" + "\n".join(difflib.unified_diff(theirs, ours, "chromium", "exact", lineterm="")))
        if not answer.stable:  # (Chromium's registration is racy now and then: not ours to judge)
            unstable += 1
            continue
        differences += answer_differences(answer.tools, html, html)
    assert unstable <= PAGES // 10, f"{unstable} of {PAGES} pages registered their tools unstably"
    assert not differences, f"{len(differences)} differences:\n" + "\n".join(differences[:5])


#: what Chromium departs from the standard in, each shape a page of its own: where a tag in a
#: template's contents lands decides the tree
DEPARTURES = [
    "<template><form><p>o</form>x</template>", "<template><form><span>o</form>x</template>",
    "<template><form><option>o<p>s</form>x</template>", "<template><form><li>o</form>x</template>",
    "<form><template><table><form id=f5></template><input name=a>", "<template><thead><form id=f5></template>",
    "<template><title>t</title><tr></template>", "<template><noframes></noframes><td></template>",
    "<template><base><caption></template>", "<template><basefont><col></template>",
    "<template><bgsound><tr></template>", "<template><link><tr></template>",
    "<template><style></style><tr></template>", "<template><meta><td></template>",
]  # fmt: skip
#: what the soups found html5lib 1.1 getting wrong "in table": a start tag "in body" hands back
#: for reprocessing was dropped (a nested button), and an end tag a start tag implies (``</li>``,
#: ``</option>``) turned foster parenting off before the start tag's element was inserted
FOSTERED = [
    "<table><object><button name=a value=1><a><button name=b value=1>x</table>",
    "<select name=s><caption><table></a></td><li><li> </select><input name=after>",
    "<table><form id=tf><select name=s><caption><table><option selected>p<option value=v>o<input name=z>",
    "<table><li><li>x", "<table><option><option>x", "<table><dd><dt>x", "<template><table><li><li>x</template>",
]  # fmt: skip


@pytest.mark.parametrize("shape", DEPARTURES + FOSTERED)
def test_where_chromium_departs_from_the_standard_or_html5lib(chromium: ChromiumOracle, shape: str) -> None:
    html = "<!doctype html>" + shape
    chromium.tools(html)
    assert exact_tree(html) == chromium_tree(chromium)
