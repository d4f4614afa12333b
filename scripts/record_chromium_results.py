"""Record what Chromium hands an *agent* as a declarative tool call's result.

The page API (``executeTool``) resolves ``null`` as soon as the form submits; the agent's answer
is the DevTools ``WebMCP.toolResponded`` event of ``WebMCP.invokeTool``: ``Completed`` with an
output (the landing document's JSON-LD blocks), ``Error`` with a text, or nothing at all (the call
stays pending: a submission into a new window, a ``javascript:`` action…). This script asks the
real browser for each case below and writes ``fixtures/expected/results.json``, stamped with the
browser's version and flags; ``tests/test_results.py`` holds formtools' results to it.

    python scripts/record_chromium_results.py

A case's pages are served from the oracle's site; ``{alt}`` in a page stands for the same server
under another origin (``http://localhost:PORT``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from _recording import ROOT, stamped, write_json

from formtools._conformance.browser import ChromiumOracle

OUT = ROOT / "fixtures" / "expected" / "results.json"
PENDING_AFTER = 6.0  # seconds without toolResponded: the call does not complete

_LD = '<script type="application/ld+json">{"landed": "%s"}</script>'
_FORM = '<form toolname="t" tooldescription="d" toolautosubmit {attributes}><input name="q">{extra}</form>'


def _form(attributes: str, extra: str = "") -> str:
    return _FORM.format(attributes=attributes, extra=extra)


#: name → (page, {path: (content type, body)}); every call's input is {"q": "x"}
CASES: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "landing-one-block": (_form('action="/land"'), {"/land": ("text/html", _LD % "land")}),
    "landing-blocks-in-order": (
        _form('action="/blocks"'),
        {
            "/blocks": (
                "text/html",
                _LD % "a"
                + '<script type="application/ld+json">/* c */ [1, 2]</script>'
                + '<script type="application/ld+json"></script>'
                + '<script type="application/ld+json">{bad</script>'
                + _LD % "b",
            )
        },
    ),
    # Chromium's JSON reader refuses nesting beyond its depth limit: such a block is skipped.
    # ``depth`` nested arrays, the innermost empty, or holding a number (``-scalar``): the
    # boundary is straddled whether a depth counts the arrays only or the innermost value too.
    # (DevTools gives an output nested this deep as its JSON text, a string; at 257, as a value.)
    **{
        f"landing-json-ld-depth-{depth}{suffix}": (
            _form(f'action="/deep-{depth}{suffix}"'),
            {
                f"/deep-{depth}{suffix}": (
                    "text/html",
                    '<script type="application/ld+json">'
                    + "[" * depth + inner + "]" * depth
                    + "</script>"
                    + _LD % "after",
                )
            },
        )
        for depth in (257, 999, 1000, 1001)
        for suffix, inner in (("", ""), ("-scalar", "0"))
        if depth != 257 or not suffix
    },
    "landing-without-json-ld": (_form('action="/plain"'), {"/plain": ("text/html", "<p>plain</p>")}),
    "landing-404": (_form('action="/nowhere"'), {}),
    "landing-not-html": (
        _form('action="/data.json"'),
        {"/data.json": ("application/json", '{"landed": "json"}')},
    ),
    "landing-download": (
        _form('action="/file.bin"'),
        {"/file.bin": ("application/octet-stream", "binary")},
    ),
    "landing-other-origin": (_form('action="{alt}/land"'), {"/land": ("text/html", _LD % "land")}),
    "action-about-blank": (_form('action="about:blank"'), {}),
    "action-javascript": (_form('action="javascript:void(0)"'), {}),
    "action-data": (_form('action="data:text/html,x"'), {}),
    "action-mailto": (_form('action="mailto:a@example.com"'), {}),
    "method-dialog": ("<dialog open>" + _form('method="dialog"') + "</dialog>", {}),
    "target-blank": (_form('action="/land" target="_blank"'), {"/land": ("text/html", _LD % "land")}),
    "target-self": (_form('action="/land" target="_self"'), {"/land": ("text/html", _LD % "land")}),
    "target-top": (_form('action="/land" target="_top"'), {"/land": ("text/html", _LD % "land")}),
    "target-unknown-name": (
        _form('action="/land" target="nowhere"'),
        {"/land": ("text/html", _LD % "land")},
    ),
    "target-iframe": (
        '<iframe name="frame"></iframe>' + _form('action="/land" target="frame"'),
        {"/land": ("text/html", _LD % "frame")},
    ),
    "formtarget-blank": (
        _form('action="/land"', '<button formtarget="_blank">Go</button>'),
        {"/land": ("text/html", _LD % "land")},
    ),
    "base-target-blank": (
        '<base target="_blank">' + _form('action="/land"'),
        {"/land": ("text/html", _LD % "land")},
    ),
    "base-target-overridden": (
        '<base target="_blank">' + _form('action="/land" target="_self"'),
        {"/land": ("text/html", _LD % "land")},
    ),
}


def _answer(oracle: ChromiumOracle, url: str) -> dict[str, Any]:
    """Invoke the page's tool through DevTools and wait for ``toolResponded``."""
    oracle.page.goto(url)
    oracle.page.wait_for_function(
        "async () => (await document.modelContext.getTools()).some(tool => tool.name === 't')"
    )
    devtools, session = oracle._devtools_connection
    tree, _ = devtools.command("Page.getFrameTree", session_id=session)
    frame = tree["frameTree"]["frame"]["id"]
    devtools.command("WebMCP.enable", session_id=session)
    try:
        _, events = devtools.command(
            "WebMCP.invokeTool",
            {"frameId": frame, "toolName": "t", "input": {"q": "x"}},
            session_id=session,
        )
        deadline = time.monotonic() + PENDING_AFTER
        while True:
            for event in events:
                if event.get("method") == "WebMCP.toolResponded":
                    params = event["params"]
                    answer = {"status": params["status"]}
                    for key in ("output", "errorText"):
                        if key in params:
                            answer[key] = params[key]
                    return answer
            if time.monotonic() > deadline:
                return {"status": "pending"}
            time.sleep(0.05)
            _, events = devtools.command("Runtime.evaluate", {"expression": "0"}, session_id=session)
    finally:
        devtools.command("WebMCP.disable", session_id=session)
        oracle.renew_page()


def main() -> None:
    # the answers nest as deep as the deepest block Chromium keeps (1,000 arrays and more, with
    # the protocol message around them): Python's json and the writer recurse once per level
    sys.setrecursionlimit(20_000)
    recorded = []
    with ChromiumOracle() as oracle:
        stamped(oracle)
        origin = oracle.site.origin
        alt = origin.replace("127.0.0.1", "localhost")
        for name, (page, extra) in CASES.items():
            for path, (content_type, body) in extra.items():
                oracle.site.put(path, body.encode("utf-8"), f"{content_type}; charset=utf-8")
            url = oracle.site.put(f"/results/{name}", page.replace("{alt}", alt).encode("utf-8"))
            first, second = _answer(oracle, url), _answer(oracle, url)
            if first != second:
                raise SystemExit(f"{name}: unstable ({first} then {second})")
            recorded.append({"name": name, "page": page, "pages": extra, "input": {"q": "x"}, "answer": first})
            print(name, first)
        write_json(OUT, {"browser": oracle.stamp, "cases": recorded})


if __name__ == "__main__":
    main()
