"""Action URLs as Chromium's URL parser resolves them, compared live: formtools' request path
must be the one that arrives at the site."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "action",
    [
        "a\\b\\c?x=\\y#\\z",  # a backslash is "/" before the query, itself after it
        ".\\sub\\..\\page",
        "\\root\\x",
        "/p/a b/%7e?q=a b",
        "",
    ],
)
def test_action_resolves_as_chromium_does(chromium: ChromiumOracle, action: str) -> None:
    html = (
        f'<form toolname=t tooldescription=d toolautosubmit method=post action="{action}">'
        "<input name=q></form>"
    )
    answer = chromium.execute(html, "t", {"q": "1"}, path="/p/x")
    (tool,) = formtools.extract_tools(html, base_url=f"{chromium.site.origin}/p/x")
    request = formtools.prepare_call(tool, {"q": "1"}).request
    assert answer.request is not None and request is not None
    sent = urlsplit(request.url)
    assert answer.request.url == sent.path + (f"?{sent.query}" if sent.query else "")
