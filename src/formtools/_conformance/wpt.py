"""Tests another implementation can run: a web-platform-tests export and a JSON manifest.

``formtools report --format wpt --out DIR`` writes, in the layout of web-platform-tests'
``webmcp/declarative/`` (``.https``: WebMCP needs a secure context):

- ``resources/<page>.html``: each page, byte for byte;
- ``<page>.tentative.https.html``: a testharness.js test that loads the page in an iframe, reads
  ``document.modelContext.getTools()`` and checks the tools against the **HTML-exact** variant
  (the ``html`` profile: the schema accepts exactly what constraint validation accepts), without
  formtools' own ``x-formtools-*`` keywords, key order ignored (JavaScript objects reorder
  integer-like keys). One subtest for the tool names, then per tool one for its description, one
  per input-schema keyword other than ``properties`` (``type``, ``required``,
  ``additionalProperties``) and one per parameter (``properties.<name>``), so a failure names
  the one keyword or parameter that differs;
- ``<page>-calls.tentative.https.html`` for the pages with calls recorded from Chromium
  (``fixtures/expected/chromium-calls``): a sample of those calls, each on a fresh load of the
  page: ``document.modelContext.executeTool(tool, input)`` must reject where HTML-exact
  execution rejects, and otherwise resolve and navigate the iframe to the URL HTML-exact
  submission gives (path and query: all of a GET's data; a POST's body is not visible to the
  page);
- ``expectations.json``: for each subtest, whether Chromium 156 is expected to pass it. A schema
  subtest fails exactly where the conformance report lists a difference between Chromium and
  HTML-exact on that tool's keyword or parameter that is not about formtools' own keywords,
  the tool's title or annotations (:func:`spec_differences`, :func:`subtest_of`); a call subtest fails
  exactly where formtools' ``chromium`` profile (held to the recording) and its ``html``
  profile disagree on rejecting or on the URL;
- ``README.md``: the above, with the counts;
- ``lint.ignore`` (beside the manifest, outside the WPT folder): the lines WPT's root
  ``lint.ignore`` needs for pages copied into ``resources/`` that trip WPT's lint as they are
  (:data:`WPT_LINE_LINTS`); the generated tests trip none;
- ``manifest.json`` and ``manifest/<page>.json``: for implementations that are not browsers
  (polyfills, other synthesizers): each page with its expected schema per profile and every
  recorded call with Chromium's recorded outcome and the request or rejection each profile gives.

The tests name their page, tool and keyword or parameter, so a failure leads back to the
report's section for it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from formtools._conformance.report_compare import PageComparison
from formtools._conformance.report_diff import Difference
from formtools._spec.jsjson import dumps

if TYPE_CHECKING:
    from formtools._execute.call import PreparedCall
    from formtools._execute.request import Request
    from formtools._synth.tool import Tool
    from formtools.errors import FormtoolsError

    #: one profile's answer to a recorded call: the call prepared, its rejection, or None where
    #: the profile registers no such tool
    Answer = PreparedCall | FormtoolsError | None

__all__ = [
    "CallCase",
    "PreparedPage",
    "call_cases",
    "manifest_entry",
    "prepared_page",
    "request_as_recorded",
    "spec_differences",
    "stripped",
    "subtest_of",
    "write_export",
    "WPT_LINE_LINTS",
    "lint_exceptions",
]

OWN_PREFIX = "x-formtools-"
#: where the export's pages live under web-platform-tests (its default https origin)
WPT_ORIGIN = "https://web-platform.test:8443"
RESOURCES = "/webmcp/declarative/resources/"
#: where scripts/record_chromium_calls.py served each page when it recorded Chromium's answers
RECORDED_AT = "http://127.0.0.1:8000/pages/{}.html"
#: calls exported per page and kind of outcome (Chromium rejects or submits × HTML-exact rejects
#: or submits); the rest are in the manifest
CALLS_PER_KIND = 3
#: no manifest file is larger (bytes)
MANIFEST_LIMIT = 200_000
BOUNDARY = "----formtoolsBoundary"
#: WPT's file-name flags: ``.tentative`` — the tests assert the HTML-exact variant, a proposal
#: no specification requires yet (WebMCP's synthesis and execute steps are TODO), which WPT marks
#: tentative; ``.https`` — WebMCP needs a secure context
TEST_SUFFIX = ".tentative.https.html"
LONG_TIMEOUT = '<meta name="timeout" content="long">\n'

#: The head of every test. testharness.js starts a ``promise_test`` as soon as it is declared,
#: before the page has loaded, so a test's markup (``<div id="log">``, which also opens the
#: ``body`` a call test appends its frames to) comes before its script; ``{timeout}`` is a
#: ``<meta name="timeout" content="long">`` for the call tests (each subtest loads a page and
#: waits for a navigation: more than the default 10 s harness timeout in all), and WPT's lint
#: wants it before testharness.js (LATE-TIMEOUT).
_HARNESS = """<!doctype html>
<meta charset="utf-8">
<title>Declarative WebMCP: {title_html}</title>
<meta name="author" content="formtools (generated by formtools report --format wpt)">
{timeout}<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<div id="log"></div>
"""

_SCHEMA_TEST = _HARNESS + """<iframe id="page" src="resources/{file}"></iframe>
<!-- The tools HTML's constraint validation implies for the page in the frame: the HTML-exact variant
     (formtools' html profile) without formtools' own x-formtools-* keywords. "keywords" and
     "parameters" are the input-schema keywords and parameters either Chromium 156 or HTML-exact
     has; one subtest each. -->
<script type="application/json" id="expected">{expected}</script>
<script>
"use strict";
const title = {title_js};
const {{tools: expected, keywords, parameters}} = JSON.parse(document.getElementById("expected").textContent);

function canonical(value) {{
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {{
    return Object.fromEntries(Object.keys(value).sort().map(key => [key, canonical(value[key])]));
  }}
  return value;
}}

const own = (object, key) => object && Object.hasOwn(object, key) ? object[key] : undefined;

const frame = document.getElementById("page");
// The window's load event waits for the frame's page; it is the one signal without a race with
// the frame's own load (which may come before or after this script runs).
const loaded = new Promise(resolve => {{
  if (document.readyState === "complete") resolve();
  else window.addEventListener("load", resolve, {{once: true}});
}});

async function registeredTools() {{
  await loaded;
  const context = frame.contentDocument.modelContext;
  assert_true(!!context, "document.modelContext exists");
  let tools = [];
  for (let turn = 0; turn < 50; turn++) {{  // registration is a posted task
    tools = await context.getTools();
    if (tools.length >= Object.keys(expected).length) break;
    await new Promise(resolve => step_timeout(resolve, 20));
  }}
  return Object.fromEntries(tools.map(tool => [tool.name, tool]));
}}

promise_test(async () => {{
  const tools = await registeredTools();
  assert_array_equals(Object.keys(tools).sort(), Object.keys(expected).sort());
}}, `${{title}}: the registered tool names`);

for (const [name, want] of Object.entries(expected)) {{
  const check = (label, read) => promise_test(async () => {{
    const tools = await registeredTools();
    assert_true(Object.hasOwn(tools, name), `${{name}} is registered`);
    assert_equals(
      JSON.stringify(canonical(read(tools[name]))), JSON.stringify(canonical(read(want))), label);
  }}, `${{title}}: ${{name}}: ${{label}}`);
  check("description", tool => tool.description);
  for (const keyword of keywords[name]) {{
    check(`inputSchema.${{keyword}}`, tool => own(tool.inputSchema, keyword));
  }}
  for (const parameter of parameters[name]) {{
    check(`properties.${{parameter}}`, tool => own(own(tool.inputSchema, "properties"), parameter));
  }}
}}
</script>
"""

_CALL_TEST = _HARNESS + """<!-- Calls of the page's tools (a sample of those recorded from Chromium 156), each on
     a fresh load of the page, and what HTML-exact execution (formtools' html profile) does:
     reject, or submit the form, navigating the iframe to "url" (path and query). -->
<script type="application/json" id="calls">{calls}</script>
<script>
"use strict";
const calls = JSON.parse(document.getElementById("calls").textContent);
const pause = ms => new Promise(resolve => step_timeout(resolve, ms));  // WPT lint: no setTimeout

// One frame for every call, loaded afresh for each: Chromium 156's renderer now and then stalled
// for good (the harness timed out) when a frame whose page had registered tools was removed and
// another one added, so no frame is removed.
let frame = null;
async function freshPage() {{
  if (!frame) {{
    frame = document.createElement("iframe");
    document.body.append(frame);
  }}
  const loaded = new Promise(resolve => frame.addEventListener("load", resolve, {{once: true}}));
  frame.src = "resources/{file}";
  await loaded;
  return frame;
}}

async function toolNamed(frame, name) {{
  const context = frame.contentDocument.modelContext;
  assert_true(!!context, "document.modelContext exists");
  for (let turn = 0; turn < 50; turn++) {{  // registration is a posted task
    const tool = (await context.getTools()).find(
      t => t.name === name && (!("window" in t) || t.window === frame.contentWindow));
    if (tool) return [context, tool];
    await pause(20);
  }}
  assert_true(false, `${{name}} is registered`);
}}

function landedAt(frame) {{
  const location = frame.contentWindow.location;
  return location.href.slice(location.origin.length).split("#")[0];
}}

for (const call of calls) {{
  promise_test(async () => {{
    const frame = await freshPage();
    const [context, tool] = await toolNamed(frame, call.tool);
    const landed = new Promise(resolve => frame.addEventListener("load", resolve, {{once: true}}));
    let rejected = false;
    try {{
      await context.executeTool(tool, call.input);
    }} catch (error) {{
      rejected = true;
    }}
    if (call.expected.rejected) {{
      assert_true(rejected, "executeTool rejects");
      return;
    }}
    assert_true(!rejected, "executeTool resolves: the form is submitted");
    await Promise.race([landed, pause(5000)]);
    assert_equals(landedAt(frame), call.expected.url, "the submission's URL");
  }}, call.name);
}}
</script>
"""


#: web-platform-tests' line lints for an ``.html`` file (``tools/lint/rules.py``, the regexps
#: ``tools/lint/lint.py`` runs on every line). The generated tests trip none of them; a page copied
#: byte for byte into ``resources/`` may (a tab that a description keeps, a page's own
#: ``setTimeout``), and WPT takes such a file only with a line in its root ``lint.ignore``, which
#: the export writes for it (:func:`lint_exceptions`).
_TAGS = (
    "a|abbr|article|audio|b|bdi|bdo|blockquote|body|button|canvas|caption|cite|code|colgroup|data|datalist|dd|del|"
    "details|dfn|dialog|div|dl|dt|em|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|html|i|iframe|ins|"
    "kbd|label|legend|li|main|map|mark|menu|meter|nav|noscript|object|ol|optgroup|option|output|p|picture|pre|"
    "progress|q|rp|rt|ruby|s|samp|script|search|section|select|slot|small|span|strong|style|sub|summary|sup|table|"
    "tbody|td|template|textarea|tfoot|th|thead|time|title|tr|u|ul|var|video"
)
WPT_LINE_LINTS = {
    name: re.compile(pattern.encode())
    for name, pattern in {
        "TRAILING WHITESPACE": r"[ \t\f\v]$",
        "INDENT TABS": r"^\t",
        "CR AT EOL": r"\r$",
        "SET TIMEOUT": r"setTimeout\s*\(",
        "W3C-TEST.ORG": r"w3c\-test\.org",
        "WEB-PLATFORM.TEST": r"web\-platform\.test",
        "WEBIDL2.JS": r"webidl2\.js",
        "CONSOLE": r"console\.[a-zA-Z]+\s*\(",
        "GENERATE_TESTS": r"generate_tests\s*\(",
        "LAYOUTTESTS APIS": r"(eventSender|testRunner|internals)\.",
        "MISSING DEPENDENCY": r"[^\w]/gen/",
        "SPECIALPOWERS API": r"SpecialPowers",
        "ASSERT_THROWS": r"[^.]assert_throws\(",
        "PROMISE_REJECTS": r"promise_rejects\(",
        "ASSERT-PRECONDITION": r"[^.]assert_precondition\(",
        "HTML INVALID SYNTAX": rf"<({_TAGS})(\s+[^>]+)?\s*/>",
    }.items()
}


def lint_exceptions(text: bytes) -> list[str]:
    """The WPT line lints an ``.html`` file trips. WPT reads a file's lines split at LF, each with
    its LF, where ``$`` matches before it; so do these, split at LF without it."""
    lines = text.split(b"\n")
    return [name for name, rule in WPT_LINE_LINTS.items() if any(rule.search(line) for line in lines)]


def _fnmatch_literal(name: str) -> str:
    """``name`` as an fnmatch pattern that matches only itself (how ``lint.ignore`` reads paths)."""
    return re.sub(r"([*?[])", r"[\1]", name)


def stripped(value: Any) -> Any:
    """A schema without formtools' own keywords (what another implementation is held to)."""
    if isinstance(value, Mapping):
        return {k: stripped(v) for k, v in value.items() if not str(k).startswith(OWN_PREFIX)}
    if isinstance(value, (list, tuple)):
        return [stripped(v) for v in value]
    return value


def _spec_relevant(difference: Difference) -> bool:
    keyword = difference.keyword
    return not (
        keyword.startswith("annotations")
        or (keyword == "title" and difference.parameter is None)  # getTools()' title: formtools' own
        or any(part.startswith(OWN_PREFIX) for part in keyword.split("."))
    )


def spec_differences(comparison: PageComparison) -> dict[str, list[Difference]]:
    """Per tool, the differences between Chromium and HTML-exact that a browser test sees: not
    formtools' own keywords, not the tool's title, not the annotations (``getTools()`` reports
    none)."""
    found: dict[str, list[Difference]] = {}
    for difference in comparison.differences:
        if _spec_relevant(difference):
            found.setdefault(difference.tool, []).append(difference)
    return found


def _js_json(value: Any) -> str:
    """JSON for a ``<script type="application/json">`` block: ``<`` escaped, so no text of a
    page ends the script."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("<", "\\u003c")


def _names_test(title: str) -> str:
    return f"{title}: the registered tool names"


def subtest_of(title: str, difference: Difference) -> str:
    """The schema subtest a (spec-relevant) difference makes fail: the tool-level keyword's
    (``inputSchema.required``, ``inputSchema.additionalProperties``; a ``required`` member
    counts there, not at the parameter it names), else the parameter's, else the tool's
    description. A tool only one side registers fails the tool-names subtest."""
    keyword = difference.keyword
    if keyword == "tool":
        return _names_test(title)
    if keyword.startswith("inputSchema."):
        return f"{title}: {difference.tool}: inputSchema.{keyword.split('.')[1]}"
    if difference.parameter is not None:
        return f"{title}: {difference.tool}: properties.{difference.parameter}"
    return f"{title}: {difference.tool}: {keyword.split('.')[0]}"


def _schema_tests(comparison: PageComparison, title: str) -> tuple[dict[str, Any], dict[str, bool]]:
    """The expected tools, keywords and parameters of a page's schema test, and its subtests'
    expectations in Chromium."""
    chromium = {tool["name"]: tool for tool in comparison.chromium}
    tools = {
        tool["name"]: {"description": tool["description"], "inputSchema": stripped(tool["inputSchema"])}
        for tool in comparison.html
    }
    keywords: dict[str, list[str]] = {}
    parameters: dict[str, list[str]] = {name: [] for name in tools}
    for name, schema in ((n, t["inputSchema"]) for n, t in tools.items()):
        theirs = chromium.get(name, {}).get("inputSchema", {})
        keywords[name] = [k for k in dict.fromkeys([*theirs, *schema]) if k != "properties" and not k.startswith(OWN_PREFIX)]
    for tool, parameter in comparison.parameters:
        if tool in parameters:
            parameters[tool].append(parameter)
    expectations = {_names_test(title): True}
    for name in tools:
        for label in ("description", *(f"inputSchema.{k}" for k in keywords[name]), *(f"properties.{p}" for p in parameters[name])):
            expectations[f"{title}: {name}: {label}"] = True
    for differences in spec_differences(comparison).values():
        for difference in differences:
            failing = subtest_of(title, difference)
            if failing not in expectations and difference.tool not in tools:
                continue  # a tool only Chromium registers: the names subtest fails
            expectations[failing] = False
    return {"tools": tools, "keywords": keywords, "parameters": parameters}, expectations


@dataclass(frozen=True)
class CallCase:
    """A recorded call as a call subtest: ``expected`` is what HTML-exact execution does
    (``{"rejected": true}`` or ``{"url": path and query}``), ``chromium`` the same for formtools'
    ``chromium`` profile, which agrees with the recording."""

    name: str
    tool: str
    input: Any
    expected: Mapping[str, Any]
    chromium: Mapping[str, Any]

    @property
    def passes_in_chromium(self) -> bool:
        return dict(self.expected) == dict(self.chromium)


def _recorded_shape(tool: Tool, tool_input: Any) -> dict[str, Any] | None:
    """formtools' answer in the shape of ``fixtures/expected/chromium-calls`` (as
    ``tests/test_golden_calls.py`` compares them), or None for one without such a shape."""
    from formtools._execute.call import prepare_call
    from formtools.errors import FormtoolsError

    try:
        prepared = prepare_call(tool, tool_input, boundary="BOUNDARY")
    except FormtoolsError:
        return {"error": True}
    request = prepared.request
    return None if request is None else {"request": request_as_recorded(request)}


def request_as_recorded(request: Request) -> dict[str, Any]:
    """A request as ``fixtures/expected/chromium-calls`` records what Chromium sent: method,
    path and query, ``Content-Type``, and the body as UTF-8 text (else base64)."""
    import base64

    # The request-target keeps an empty query (a GET of no entries sends ``/p?``) and never the
    # fragment, which an action may carry (``action="#top"``): whether there is a query is
    # decided before the fragment, not by the URL's last character.
    parts = urlsplit(request.url)
    has_query = "?" in request.url.partition("#")[0]
    shown: dict[str, Any] = {
        "method": request.method,
        "url": parts.path + (f"?{parts.query}" if has_query else ""),
        "content_type": request.header("Content-Type"),
    }
    body = request.body or b""
    try:
        shown["body"] = body.decode("utf-8")
    except UnicodeDecodeError:
        shown["body_base64"] = base64.b64encode(body).decode("ascii")
    return shown


def _in_frame(answer: PreparedCall | FormtoolsError) -> dict[str, Any] | None:
    """What a call subtest sees of ``answer`` (a call of a tool of the page at its WPT URL, in
    an iframe): ``{"rejected": True}``, ``{"url": …}`` for a submission that navigates the
    iframe itself to the test's origin, or None (anything else: a test cannot follow it)."""
    from formtools._execute.request import Request
    from formtools._forms.model import submission_attribute
    from formtools.errors import FormtoolsError

    if isinstance(answer, FormtoolsError):
        return {"rejected": True}
    if not isinstance(answer.outcome, Request):
        return None
    tool = answer.tool
    target = submission_attribute(tool.form.attributes, answer.submitter, "target")
    if target is None:
        target = tool.page.base_target or ""
    url = answer.outcome.url
    if target.lower() not in ("", "_self") or not url.startswith(WPT_ORIGIN + "/"):
        return None
    return {"url": url[len(WPT_ORIGIN) :].split("#")[0]}


@dataclass(frozen=True)
class PreparedPage:
    """A page at its WPT URL: its tools per profile, and each call recorded from Chromium
    prepared once per profile (:data:`BOUNDARY`). The call subtests and the manifest answer
    the same calls at the same URL, so both read these answers (preparing them twice was a third
    of the export's time)."""

    source: Path
    base_url: str
    tools: Mapping[str, Sequence[Tool]]  #: profile → its tools, as synthesized
    recorded: Sequence[Mapping[str, Any]]  #: the calls recorded from Chromium, in order
    answers: Sequence[Mapping[str, Answer]]  #: per recorded call, profile → its answer


def prepared_page(page: str) -> PreparedPage:
    """``page`` loaded at its WPT URL, synthesized under every profile, and every call recorded
    for it prepared under each."""
    from formtools._execute.call import prepare_call
    from formtools._parse.sources import load_page
    from formtools._synth.synthesize import synthesize
    from formtools.errors import FormtoolsError

    def answer(tool: Tool | None, tool_input: Any) -> Answer:
        if tool is None:
            return None
        try:
            return prepare_call(tool, tool_input, boundary=BOUNDARY)
        except FormtoolsError as error:
            return error

    source = Path(page)
    base_url = WPT_ORIGIN + RESOURCES + source.name
    document = load_page(page, base_url=base_url)
    tools = {name: tuple(synthesize(document, name).tools) for name in ("chromium", "html", "portable")}
    by_name = {profile: {tool.name: tool for tool in found} for profile, found in tools.items()}
    recorded = tuple(_recording(source))
    answers = tuple(
        {profile: answer(by_name[profile].get(call["tool"]), call["input"]) for profile in tools} for call in recorded
    )
    return PreparedPage(source, base_url, tools, recorded, answers)


def call_cases(prepared: PreparedPage) -> list[CallCase]:
    """The call subtests of a page: of its recorded calls that formtools' ``chromium`` profile
    answers as the recording does and whose outcome an iframe test can observe, the first
    :data:`CALLS_PER_KIND` of each kind (Chromium rejects or submits × HTML-exact rejects or
    submits × the two agree), in the recording's order."""
    from formtools._parse.sources import load_page
    from formtools._synth.synthesize import synthesize

    page = prepared.source
    if not prepared.recorded:
        return []
    at_recording = {t.name: t for t in synthesize(load_page(str(page), base_url=RECORDED_AT.format(page.stem)), "chromium").tools}
    taken: dict[tuple[bool, bool, bool], int] = {}
    cases = []
    for index, (call, answers) in enumerate(zip(prepared.recorded, prepared.answers, strict=True)):
        outcome = call["outcome"]
        name = call["tool"]
        chromium, html = answers["chromium"], answers["html"]
        if not ({"error", "request"} & outcome.keys()) or html is None or chromium is None:
            continue
        ours = _recorded_shape(at_recording[name], call["input"])
        if ours is None or ("error" in outcome) != ("error" in ours):
            continue
        if "request" in outcome and ours["request"] != outcome["request"]:
            continue  # formtools does not reproduce this one (wrap=hard by layout): not a truth
        theirs, expected = _in_frame(chromium), _in_frame(html)
        if theirs is None or expected is None:
            continue
        kind = ("rejected" in theirs, "rejected" in expected, theirs == expected)
        if taken.get(kind, 0) >= CALLS_PER_KIND:
            continue
        taken[kind] = taken.get(kind, 0) + 1
        cases.append(CallCase(f"{page.stem}: call #{index} ({name})", name, call["input"], expected, theirs))
    return cases


def _recording(page: Path) -> list[dict[str, Any]]:
    recorded = page.parent.parent / "expected" / "chromium-calls" / f"{page.stem}.json"
    if not recorded.exists():
        return []
    calls: list[dict[str, Any]] = json.loads(recorded.read_text(encoding="utf-8"))
    return calls


_README = """# Declarative WebMCP tests (generated by formtools)

`formtools report --format wpt` wrote these files in the layout of web-platform-tests'
`webmcp/declarative/`. Every test holds the browser to the **HTML-exact** variant of the
declarative algorithms (formtools' `html` profile, `docs/spec/synthesize.md`): the schema accepts
exactly what constraint validation accepts. The expected schemas have formtools' own
`x-formtools-*` keywords removed (they say what JSON Schema cannot: value sanitization, step
bases, date bounds); key order is ignored.

- `resources/<page>.html`: the pages, byte for byte.
- `<page>.tentative.https.html`: `getTools()` against the HTML-exact tools; one subtest for the tool names,
  and per tool one for its description, one per input-schema keyword other than `properties` and
  one per parameter (`properties.<name>`).
- `<page>-calls.tentative.https.html`: `executeTool(tool, input)` on a fresh load of the page for a sample
  of the calls recorded from Chromium 156 (up to {per_kind} per kind of outcome and page): it must
  reject where HTML-exact execution rejects, else resolve and navigate the frame to the URL
  HTML-exact submission gives (path and query).
- `expectations.json`: whether Chromium 156 is expected to pass each subtest. A schema subtest
  fails exactly where formtools' conformance report lists a difference between Chromium and
  HTML-exact on that tool's keyword or parameter (formtools' own keywords, the tool's title and
  the annotations left out); a call subtest exactly where Chromium's outcome (as recorded, and as formtools'
  `chromium` profile reproduces it) differs from HTML-exact's. formtools' test suite runs the
  export in Chromium 156 and fails on any subtest that passes or fails otherwise.
- `lint.ignore`, beside `manifest.json` (outside this folder): the lines WPT's root `lint.ignore`
  needs for the pages in `resources/` that trip WPT's lint as they are (a tab a description
  keeps, a page's own `setTimeout`); the tests themselves pass it.

This export: {pages} pages, {schema_tests} schema subtests ({schema_failing} expected to fail in
Chromium 156), {call_tests} call subtests on {call_pages} pages ({call_failing} expected to fail).
"""


def write_export(comparisons: Sequence[PageComparison], pages: Sequence[str], out: Path) -> dict[str, bool]:
    """Write, page by page, the tests with their resources (:func:`_write_tests`) and the
    manifest's files (:func:`_write_manifest_files`), each page's recorded calls prepared once for
    both (:func:`prepared_page`); then ``expectations.json``, ``README.md``, ``lint.ignore`` and
    ``manifest.json``. Return the expectations (subtest name → Chromium 156 is expected to pass)."""
    folder = out / "webmcp" / "declarative"
    (folder / "resources").mkdir(parents=True, exist_ok=True)
    (out / "manifest").mkdir(parents=True, exist_ok=True)
    schema_expectations: dict[str, bool] = {}
    call_expectations: dict[str, bool] = {}
    call_pages = 0
    index = []
    for comparison, page in zip(comparisons, pages, strict=True):
        prepared = prepared_page(page)
        schema, calls = _write_tests(folder, comparison, prepared)
        schema_expectations.update(schema)
        call_expectations.update(calls)
        call_pages += bool(calls)
        index.append(_write_manifest_files(out / "manifest", prepared))
    expectations = {**schema_expectations, **call_expectations}
    ignore = [
        f"{rule}: webmcp/declarative/resources/{_fnmatch_literal(Path(page).name)}\n"
        for page in pages
        for rule in lint_exceptions(Path(page).read_bytes())
    ]
    (out / "lint.ignore").write_text("".join(ignore), encoding="utf-8")
    (folder / "expectations.json").write_text(
        dumps(
            {
                "browser": "Chromium 156 (expected to pass: true)",
                "expected": "HTML-exact (formtools' html profile; its x-formtools-* keywords removed)",
                "tests": expectations,
            },
            pretty=True,
        )
        + "\n",
        encoding="utf-8",
    )
    (folder / "README.md").write_text(
        _README.format(
            per_kind=CALLS_PER_KIND,
            pages=len(pages),
            schema_tests=len(schema_expectations),
            schema_failing=sum(not v for v in schema_expectations.values()),
            call_tests=len(call_expectations),
            call_pages=call_pages,
            call_failing=sum(not v for v in call_expectations.values()),
        ),
        encoding="utf-8",
    )
    _write_manifest_index(index, out)
    return expectations


def _write_tests(folder: Path, comparison: PageComparison, prepared: PreparedPage) -> tuple[dict[str, bool], dict[str, bool]]:
    """A page's resource, its schema test and (if it has call subtests) its call test; return
    the expectations of its schema subtests and of its call subtests."""
    source = prepared.source
    title = source.stem
    shutil.copyfile(source, folder / "resources" / source.name)
    expected, schema_expectations = _schema_tests(comparison, title)
    names = {"title_html": html.escape(title), "file": quote(source.name, safe="")}
    text = _SCHEMA_TEST.format(**names, title_js=_js_json(title), timeout="", expected=_js_json(expected))
    (folder / f"{title}{TEST_SUFFIX}").write_text(text, encoding="utf-8")
    cases = call_cases(prepared)
    if cases:
        calls = [{"name": c.name, "tool": c.tool, "input": c.input, "expected": dict(c.expected)} for c in cases]
        names["title_html"] = html.escape(f"{title}, calls")
        text = _CALL_TEST.format(**names, timeout=LONG_TIMEOUT, calls=_js_json(calls))
        (folder / f"{title}-calls{TEST_SUFFIX}").write_text(text, encoding="utf-8")
    return schema_expectations, {c.name: c.passes_in_chromium for c in cases}


def _outcome(answer: Answer) -> dict[str, Any]:
    """One profile's answer to a call: the request, the rejection, or why nothing is sent."""
    from formtools._execute.request import Request
    from formtools.errors import FormtoolsError

    if answer is None:
        return {"rejection": {"error": "no-tool", "message": "the profile registers no such tool"}}
    if isinstance(answer, FormtoolsError):
        return {"rejection": answer.to_dict()}
    if isinstance(answer.shown, Request):
        return {"request": answer.shown.to_dict()}
    return {"not_sent": answer.shown.reason}


def manifest_entry(page: str, profiles: Mapping[str, Iterable[Any]], calls: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """One page of the manifest: its tools' schemas per profile and its calls."""
    return {
        "page": page,
        "tools": {
            profile: {tool.name: tool.to_dict()["inputSchema"] for tool in tools}
            for profile, tools in profiles.items()
        },
        "calls": list(calls),
    }


def _size(value: Any) -> int:
    return len((dumps(value, pretty=True) + "\n").encode("utf-8"))


def _chunks(calls: Sequence[dict[str, Any]], first: int, later: int) -> list[list[dict[str, Any]]]:
    """``calls`` cut into files of at most :data:`MANIFEST_LIMIT` bytes: the first file
    ``first`` bytes without its calls, the others ``later``. A call's share is measured as it is
    written, one level down in a list."""
    empty = _size({"calls": []})
    chunks: list[list[dict[str, Any]]] = [[]]
    used = first
    for call in calls:
        share = _size({"calls": [call]}) - empty + 2  # its indented text, a comma and a newline
        if chunks[-1] and used + share > MANIFEST_LIMIT:
            chunks.append([])
            used = later
        chunks[-1].append(call)
        used += share
    return chunks


def _write_manifest_files(folder: Path, prepared: PreparedPage) -> dict[str, Any]:
    """``manifest/<page>.json``: the page with its schemas per profile and every call recorded
    from Chromium (``fixtures/expected/chromium-calls``): its input, Chromium's recorded
    outcome, and the request, rejection (with its reasons) or reason nothing is sent under each
    profile. A page's calls go on in ``<page>.2.json`` … where one file would pass
    :data:`MANIFEST_LIMIT` bytes. Returns the page's entry in the index."""
    source = prepared.source
    calls = [
        {
            "index": index,
            "tool": call["tool"],
            "input": call["input"],
            "recorded": call["outcome"],
            **{profile: _outcome(answer) for profile, answer in answers.items()},
        }
        for index, (call, answers) in enumerate(zip(prepared.recorded, prepared.answers, strict=True))
    ]
    entry = {"base_url": prepared.base_url, **manifest_entry(source.name, prepared.tools, [])}
    chunks = _chunks(calls, _size(entry), _size({"page": source.name, "calls": []}))
    names = []
    for number, chunk in enumerate(chunks, start=1):
        name = f"{source.stem}.json" if number == 1 else f"{source.stem}.{number}.json"
        content = {**entry, "calls": chunk} if number == 1 else {"page": source.name, "calls": chunk}
        text = dumps(content, pretty=True) + "\n"
        if len(text.encode("utf-8")) > MANIFEST_LIMIT:  # one call alone is that large
            raise ValueError(f"manifest/{name} would be larger than {MANIFEST_LIMIT} bytes")
        (folder / name).write_text(text, encoding="utf-8")
        names.append(f"manifest/{name}")
    return {"page": source.name, "files": names, "calls": len(calls)}


def _write_manifest_index(index: Sequence[Mapping[str, Any]], out: Path) -> None:
    """``manifest.json``: the profiles, where the calls were recorded, and every page's files."""
    (out / "manifest.json").write_text(
        dumps(
            {
                "version": 2,
                "profiles": {
                    "chromium": "Chromium 156 compatible",
                    "html": "HTML-exact: the schema accepts exactly what constraint validation accepts",
                    "portable": "the JSON Schema subset MCP clients and OpenAI accept",
                },
                "recorded": "Chromium 156's outcome of each call, recorded at " + RECORDED_AT.format("<page>")
                + " (fixtures/expected/chromium-calls); the profiles' outcomes are for the page at base_url",
                "calls": sum(entry["calls"] for entry in index),
                "pages": list(index),
            },
            pretty=True,
        )
        + "\n",
        encoding="utf-8",
    )
