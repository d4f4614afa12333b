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

import json
import os
import random
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
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
