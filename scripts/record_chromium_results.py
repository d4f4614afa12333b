"""Record what Chromium hands an *agent* as a declarative tool call's result.

The page API (``executeTool``) resolves ``null`` as soon as the form submits; the agent's answer
is the DevTools ``WebMCP.toolResponded`` event of ``WebMCP.invokeTool``: ``Completed`` with an
output (the landing document's JSON-LD blocks), ``Error`` with a text, or nothing at all (the call
stays pending: a submission into a new window, a ``javascript:`` action…). This script asks the
real browser for each case below and writes ``fixtures/expected/results.json``, stamped with the
browser's version and flags; ``tests/test_results.py`` holds formtools' results to it.

    python scripts/record_chromium_results.py

A case's pages are served from the oracle's site; ``{alt}`` in a page stands for the same server
under another origin (``http://localhost:PORT``), ``{origin}`` for its own origin and ``{host}`` for
its ``127.0.0.1:PORT``. Besides the agent's answer, each case records where the tab ended up
(``landed``: the main frame's URL once the call answered or was given up) and the navigation
requests the call started in any window (``navigations``: method and URL), with the site's origin
written as ``{origin}``: what was sent, and where, when no result says it.

    python scripts/record_chromium_results.py --only 'scheme-*'   # record some cases again
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
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

# What a form submission does with actions other than an http(s) URL of the page's own site, and
# with <base> elements a browser ignores or cannot parse (issue 12, section 2): each measured by
# the adversarial review and recorded here, then the class by the generator below.
CASES.update(
    {
        # a <base> in a template's inert contents is no base of the document
        "base-in-template": (
            '<template><base href="{alt}/elsewhere/"></template>' + _form('action="land"'),
            {"/results/land": ("text/html", _LD % "land")},
        ),
        # Chromium: an href that does not parse makes the base URL invalid, so a relative
        # action fails to parse (the standard falls back to the document's URL)
        "base-invalid": ('<base href="http://[bad/">' + _form('action="land"'), {"/results/land": ("text/html", _LD % "land")}),
        "base-invalid-absolute-action": (
            '<base href="http://[bad/">' + _form('action="{origin}/land"'),
            {"/land": ("text/html", _LD % "land")},
        ),
        "base-invalid-empty-action": ('<base href="http://[bad/">' + _form('action=""'), {}),
        "action-file": (_form('action="file:///etc/passwd"'), {}),
        "action-unparseable": (_form('action="http://1.2.3.4.5/"'), {}),
        "action-about-upper-case": (_form('action="ABOUT:BLANK"'), {}),
        "action-about-srcdoc": (_form('action="about:srcdoc"'), {}),
        "action-about-blank-post": (_form('action="about:blank" method="post"'), {}),
        "action-about-blank-target-blank": (_form('action="about:blank" target="_blank"'), {}),
        "action-ws": (_form('action="ws://{host}/ws"'), {}),
    }
)

#: the generator's actions: about: spellings, schemes a form may or may not navigate to, and URLs
#: that do not parse (``{origin}``/``{host}`` are the site's)
GENERATED_ACTIONS = {
    "about-blank": "about:blank",
    "about-blank-query": "about:blank?y=1",
    "about-blank-fragment": "about:blank#f",
    "about-blank-mixed-case": "about:Blank",
    "about-scheme-upper": "ABOUT:blank",
    "about-srcdoc": "about:srcdoc",
    "about-other": "about:version",
    "about-empty": "about:",
    "file": "file:///tmp/formtools-none",
    "file-upper": "FILE:///tmp/formtools-none",
    "ws": "ws://{host}/ws",
    "wss": "wss://{host}/ws",
    "ftp": "ftp://{host}/x",
    "blob": "blob:{origin}/00000000-0000-0000-0000-000000000000",
    "data": "data:text/html,x",
    "javascript": "javascript:void(0)",
    "javascript-upper": "JAVASCRIPT:void(0)",
    "unparseable-ipv4": "http://1.2.3.4.5/",
    "unparseable-ipv6": "http://[bad/",
    "unparseable-space": "http://exa mple.com/",
    "unknown-scheme": "web+x:y",
}
GENERATED_TARGETS = {"none": "", "self": ' target="_self"', "blank": ' target="_blank"', "named": ' target="nowhere"', "frame": ' target="frame"'}
#: <base> elements: ignored (template, noscript: raw text when scripting is on; a data: URL),
#: unparseable, or a real one; each with a relative action
GENERATED_BASES = {
    "template": '<template><base href="{alt}/elsewhere/"></template>',
    "noscript": '<noscript><base href="{alt}/elsewhere/"></noscript>',
    "data": '<base href="data:text/html,x">',
    "javascript": '<base href="javascript:void(0)">',
    "unparseable": '<base href="http://[bad/">',
    "unparseable-after-template": '<template><base href="{alt}/elsewhere/"></template><base href="http://[bad/">',
    "real": '<base href="/based/">',
}


def _generated() -> dict[str, tuple[str, dict[str, tuple[str, str]]]]:
    """action × target (methods alternate, so each action is tried with GET and POST) and
    ``<base>`` × (relative action, absolute action); every landing page is the site's."""
    cases: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {}
    frame = '<iframe name="frame"></iframe>'
    for number, (action_name, action) in enumerate(GENERATED_ACTIONS.items()):
        for turn, (target_name, target) in enumerate(GENERATED_TARGETS.items()):
            method = ("get", "post")[(number + turn) % 2]
            page = (frame if target_name == "frame" else "") + _form(f'action="{action}" method="{method}"{target}')
            cases[f"scheme-{action_name}-{target_name}-{method}"] = (page, {})
    for base_name, base in GENERATED_BASES.items():
        for action_name, action in (("relative", "land"), ("absolute", "{origin}/land")):
            for method in ("get", "post"):
                page = base + _form(f'action="{action}" method="{method}"')
                landing = {
                    "/results/land": ("text/html", _LD % "results"),
                    "/based/land": ("text/html", _LD % "based"),
                    "/land": ("text/html", _LD % "land"),
                }
                cases[f"base-{base_name}-{action_name}-{method}"] = (page, landing)
    return cases


CASES.update(_generated())

# A form's target naming an <object>'s or <embed>'s child navigable (adversarial review 12b):
# Chromium navigates it as an iframe's, when the element shows a document; by its name only.
_SHOWN = {"/blank": ("text/html", "<p>shown"), "/land": ("text/html", _LD % "frame"),
          "/img.png": ("image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"/>')}  # fmt: skip
NAVIGABLE_ELEMENTS = {
    "object": '<object name="frame" data="/blank"></object>',
    "object-html-type": '<object name="frame" data="/blank" type="text/html"></object>',
    "object-type-only": '<object name="frame" type="text/html"></object>',
    "object-no-data": '<object name="frame"></object>',
    "object-empty-data": '<object name="frame" data=""></object>',
    "object-image-type": '<object name="frame" data="/img.png" type="image/png"></object>',
    "object-plugin-type": '<object name="frame" data="/blank" type="application/x-shockwave-flash"></object>',
    "object-id": '<object id="frame" data="/blank"></object>',
    "object-hidden": '<object name="frame" data="/blank" hidden></object>',
    "object-in-template": '<template><object name="frame" data="/blank"></object></template>',
    "object-in-shown-object": '<object data="/blank"><object name="frame" data="/blank"></object></object>',
    "embed": '<embed name="frame" src="/blank">',
    "embed-type-only": '<embed name="frame" type="text/html">',
    "embed-no-src": '<embed name="frame">',
    "embed-id": '<embed id="frame" src="/blank">',
    "embed-hidden": '<embed name="frame" src="/blank" hidden>',
    "embed-in-shown-object": '<object data="/blank"><embed name="frame" src="/blank"></object>',
}
CASES.update(
    {
        f"target-{kind}": (element + _form('action="/land" target="frame"'), _SHOWN)
        for kind, element in NAVIGABLE_ELEMENTS.items()
    }
)


def _placed(text: str, origin: str) -> str:
    """A page's text with the site's placeholders filled in."""
    alt = origin.replace("127.0.0.1", "localhost")
    return text.replace("{alt}", alt).replace("{origin}", origin).replace("{host}", origin.partition("//")[2])


def _placeholders(url: str, origin: str) -> str:
    """A URL the browser reports, with the site's origins written as placeholders again."""
    alt = origin.replace("127.0.0.1", "localhost")
    host = origin.partition("//")[2]
    return url.replace(origin, "{origin}").replace(alt, "{alt}").replace(host, "{host}")


def _observed(oracle: ChromiumOracle, url: str) -> dict[str, Any]:
    """The agent's answer (:meth:`ChromiumOracle.agent_answer`) with where the tab landed and
    the navigations the call started."""
    context = oracle._context
    assert context is not None
    navigations: list[list[str]] = []
    loaded = [False]

    def on_request(request: Any) -> None:
        if loaded[0] and request.is_navigation_request():
            navigations.append([request.method, request.url])

    def on_load(page: Any) -> None:
        loaded[0] = True

    context.on("request", on_request)
    page = oracle.page
    page.once("load", on_load)
    try:
        answer, landed = oracle.agent_answer(url, "t", {"q": "x"}, pending_after=PENDING_AFTER)
    finally:
        context.remove_listener("request", on_request)
    origin = oracle.site.origin
    return {
        "answer": answer,
        "landed": _placeholders(landed, origin),
        "navigations": [[method, _placeholders(target, origin)] for method, target in navigations],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--only", metavar="GLOB", default="*", help="record only these cases; keep the others' recordings")
    only = parser.parse_args(argv).only
    # the answers nest as deep as the deepest block Chromium keeps (1,000 arrays and more, with
    # the protocol message around them): Python's json and the writer recurse once per level
    sys.setrecursionlimit(20_000)
    previous = {}
    if OUT.exists():
        previous = {case["name"]: case for case in json.loads(OUT.read_text("utf-8"))["cases"]}
    recorded = []
    with ChromiumOracle() as oracle:
        stamped(oracle)
        origin = oracle.site.origin
        for name, (page, extra) in CASES.items():
            if not fnmatch.fnmatchcase(name, only):
                if name in previous:
                    recorded.append(previous[name])
                continue
            for path, (content_type, body) in extra.items():
                oracle.site.put(path, _placed(body, origin).encode("utf-8"), f"{content_type}; charset=utf-8")
            url = oracle.site.put(f"/results/{name}", _placed(page, origin).encode("utf-8"))
            first, second = _observed(oracle, url), _observed(oracle, url)
            if first != second:
                raise SystemExit(f"{name}: unstable ({first} then {second})")
            recorded.append({"name": name, "page": page, "pages": extra, "input": {"q": "x"}, **first})
            print(name, first, flush=True)
        write_json(OUT, {"browser": oracle.stamp, "cases": recorded})


if __name__ == "__main__":
    main()
