"""Pages real sites served, against live Chromium: a held-out corpus of the wild web.

Why this exists: every earlier corpus was written to teach or to test. Session 11 took 1,137
pages saved from real sites by others (Formasaurus' labelled form pages, mozilla/readability's
and trafilatura's article pages, Postlight Parser's fixtures: legacy encodings declared but not
used, forms in tables, hundreds of hidden inputs, upload forms aimed at hidden iframes), made
every form a tool by a byte-level edit of the page as saved, and compared tools, calls,
``checkValidity()`` and lint with the browser. What it found is kept here as a class:

- a call on a form whose ``target`` names an iframe (the hidden upload frame of AJAX-era pages)
  was answered "no request" by the oracle, which counted only top-level navigations, so
  formtools' request went unchecked: Chromium does submit it, into the frame, and the request
  must match. Drawn here over the containers a submission can land in × method × enctype.
"""

from __future__ import annotations

import random

import pytest

from formtools._conformance.browser import ChromiumOracle
from tests.support.parity import call_differences

pytestmark = pytest.mark.browser

SEED = 11
#: the named containers a form's target can pick, and a name that matches none (a new window)
CONTAINERS = {
    "iframe": '<iframe name="sink" style="display:none"></iframe>',
    "iframe-src": '<iframe name="sink" src="/wild/blank"></iframe>',
    "object": '<object name="sink" data="/wild/blank" type="text/html"></object>',
    "no-such-frame": "",
}
ENCTYPES = ("application/x-www-form-urlencoded", "multipart/form-data", "text/plain")


def _target_pages(rng: random.Random) -> list[tuple[str, str, dict[str, str]]]:
    """(label, page, input): each container × method, the enctype, the way the target is named
    (the form's ``target`` or ``<base target>``) and the values drawn."""
    pages = []
    for container, markup in CONTAINERS.items():
        for method in ("get", "post"):
            enctype = rng.choice(ENCTYPES)
            by_base = rng.random() < 0.3
            target = "" if by_base else ' target="sink"'
            base = '<base target="sink">' if by_base else ""
            value = rng.choice(["a b", "é&=", "x\r\ny", ""])
            page = (
                f'<!doctype html><meta charset="utf-8">{base}{markup}'
                f'<form toolname="t" tooldescription="Upload" toolautosubmit method="{method}"'
                f' enctype="{enctype}" action="/wild/land?x=1"{target}>'
                '<input name="q"><input type="hidden" name="h" value="kept">'
                '<input type="file" name="f"><button name="go" value="1">Go</button></form>'
            )
            pages.append((f"{container} {method} {enctype} base={by_base}", page, {"q": value}))
    return pages


def test_submissions_into_frames_are_chromiums(chromium: ChromiumOracle) -> None:
    chromium.site.put("/wild/blank", b"<!doctype html><p>blank", "text/html")
    found = []
    for label, page, tool_input in _target_pages(random.Random(SEED)):
        found += [f"{label}: {d}" for d in call_differences(chromium, page, tool_input, "/wild/page.html")]
    assert not found, "\n".join(found)
