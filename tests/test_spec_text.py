"""docs/spec and the tests, both ways: the links between an algorithm step and its evidence
cannot rot.

docs/spec/*.md give every algorithm step an anchor (``<a id="synth-3.2" …>``) and end it with a
``Tests:`` paragraph of pytest node ids (``tests/test_x.py::test_y`` or ``…::test_y[param]``).
Each cited test carries ``@pytest.mark.spec_step("synth-3.2", …)``. Checked here:

- every cited test exists (a ``[param]`` id as pytest collects it), and its marker names the step
  it is cited under;
- every ``spec_step`` marker in tests/ names an existing step, and that step cites the test;
- every step cites at least one test; step ids are unique; ``#step`` links and the fixture files
  the pages name exist;
- the figures docs/spec/open-questions.md quotes from the suite's recordings are what the
  recordings give today.
"""

from __future__ import annotations

import ast
import collections
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec"
PAGES = sorted(SPEC.glob("*.md"))

_ANCHOR = re.compile(r'<a id="((?:synth|exec)-[a-z0-9.-]+)"')
_TESTS_LINE = re.compile(r"^\s*Tests:")
_CITATION = re.compile(r"`(tests/test_\w+\.py)::(\w+)(\[[^\]`]+\])?`")
_FIXTURE = re.compile(r"`((?:fixtures|tests/data)/[\w./-]+)`")
_STEP_LINK = re.compile(r"\]\((?:([\w-]+\.md))?#((?:synth|exec)-[a-z0-9.-]+)\)")


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


@cache
def steps() -> dict[str, tuple[str, tuple[tuple[str, str, str], ...]]]:
    """step id → (page name, its citations as (file, function, param)), in page order.

    A step's citations are the ``Tests:`` paragraph (up to the next blank line) that follows its
    anchor before the next anchor."""
    found: dict[str, tuple[str, list[tuple[str, str, str]]]] = {}
    duplicates = []
    for page in PAGES:
        current: str | None = None
        collecting = False
        for line in _text(page).splitlines():
            anchor = _ANCHOR.search(line)
            if anchor:
                current = anchor.group(1)
                if current in found:
                    duplicates.append(current)
                found[current] = (page.name, [])
                collecting = False
            if current is not None and _TESTS_LINE.match(line):
                collecting = True
            elif not line.strip():
                collecting = False
            if collecting and current is not None:
                found[current][1].extend(m.groups("") for m in _CITATION.finditer(line))
    assert not duplicates, f"step ids used twice: {duplicates}"
    return {step: (page, tuple(cites)) for step, (page, cites) in found.items()}


def _decorator_steps(decorator: ast.expr) -> list[str] | None:
    """The ids of ``@pytest.mark.spec_step("a", "b")``, else None."""
    if not isinstance(decorator, ast.Call):
        return None
    func = decorator.func
    if not (isinstance(func, ast.Attribute) and func.attr == "spec_step"):
        return None
    return [arg.value for arg in decorator.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


@cache
def markers() -> dict[tuple[str, str], frozenset[str]]:
    """(test file, function) → the step ids its ``spec_step`` markers name, for every test
    function of tests/ (unmarked ones map to an empty set)."""
    found: dict[tuple[str, str], frozenset[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        relative = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                ids = [i for d in node.decorator_list for i in (_decorator_steps(d) or [])]
                found[(relative, node.name)] = found.get((relative, node.name), frozenset()) | frozenset(ids)
    return found


@cache
def collected(files: tuple[str, ...]) -> frozenset[str]:
    """The node ids pytest collects from ``files`` (to check ``[param]`` citations)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    return frozenset(line.strip() for line in done.stdout.splitlines() if "::" in line)


def test_the_spec_pages_exist() -> None:
    names = {page.name for page in PAGES}
    assert {"index.md", "synthesize.md", "execute.md", "open-questions.md"} <= names
    assert len(steps()) >= 40


def test_every_step_cites_a_test() -> None:
    uncited = [step for step, (_, cites) in steps().items() if not cites]
    assert not uncited, f"steps without a Tests: paragraph citing a test: {uncited}"


def test_every_cited_test_exists_and_names_its_step() -> None:
    known = markers()
    problems = []
    for step, (page, cites) in steps().items():
        for file, function, _ in cites:
            if (file, function) not in known:
                problems.append(f"{page} {step}: no test {file}::{function}")
            elif step not in known[(file, function)]:
                problems.append(f'{page} {step}: {file}::{function} lacks @pytest.mark.spec_step("{step}")')
    assert not problems, "\n".join(problems)


def test_cited_parameter_ids_are_collected() -> None:
    wanted = {
        f"{file}::{function}{param}"
        for _, cites in steps().values()
        for file, function, param in cites
        if param
    }
    if not wanted:
        pytest.skip("no [param] citations")
    files = tuple(sorted({node.split("::")[0] for node in wanted}))
    missing = sorted(wanted - collected(files))
    assert not missing, f"cited test ids pytest does not collect: {missing}"


def test_every_marker_names_a_step_that_cites_the_test() -> None:
    cited = {(file, function, step) for step, (_, cites) in steps().items() for file, function, _ in cites}
    problems = []
    for (file, function), ids in markers().items():
        for step in sorted(ids):
            if step not in steps():
                problems.append(f"{file}::{function}: spec_step names no step: {step}")
            elif (file, function, step) not in cited:
                problems.append(f"{file}::{function}: marked {step}, which does not cite it")
    assert not problems, "\n".join(problems)


def test_step_links_and_fixture_paths_resolve() -> None:
    problems = []
    known = steps()
    for page in PAGES:
        text = _text(page)
        for target_page, step in _STEP_LINK.findall(text):
            if step not in known or (target_page and known[step][0] != target_page):
                problems.append(f"{page.name}: link to {target_page}#{step}, which is not there")
            elif not target_page and known[step][0] != page.name:
                problems.append(f"{page.name}: #{step} is on {known[step][0]}")
        for path in _FIXTURE.findall(text):
            if not (ROOT / path).exists():
                problems.append(f"{page.name}: no file {path}")
        for file, function, _ in _CITATION.findall(text):
            if (file, function) not in markers():
                problems.append(f"{page.name}: no test {file}::{function}")
    assert not problems, "\n".join(problems)


# ---- the figures docs/spec/open-questions.md quotes ------------------------------------------------


def _kind_matches(schema: dict, value: object) -> bool:
    """Whether ``value`` is of the JSON kind ``schema``'s type names (an array: of strings)."""
    kind = schema.get("type")
    if kind == "string":
        return isinstance(value, str)
    if kind in ("number", "integer"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return True


def figures() -> dict[str, str]:
    """Each figure as the page writes it, computed from the recordings."""
    import formtools
    from formtools._spec.schema_subset import subset_violations
    from formtools._synth.parameters import parameters_of, skips_validation

    expected = ROOT / "fixtures" / "expected"
    pages = sorted((ROOT / "fixtures" / "html").glob("*.html"))
    recorded = [
        tool
        for path in sorted((expected / "chromium").glob("*.json"))
        if path.name != "UNSTABLE.json"
        for tool in json.loads(path.read_text("utf-8"))
    ]
    outside = collections.Counter()
    leaving = 0
    for tool in recorded:
        found = subset_violations(tool["inputSchema"])
        leaving += bool(found)
        outside.update(v.keyword for v in found)
    profiles = {}
    for profile in ("html", "portable"):
        tools = [t for page in pages for t in formtools.extract_tools(page.read_bytes(), profile=profile)]
        profiles[profile] = (sum(bool(subset_violations(t.to_dict()["inputSchema"])) for t in tools), len(tools))

    calls = objects = rejected = 0
    chromium_invalid_sent = chromium_valid_refused = html_valid_refused = 0
    html_refused = collections.Counter()
    call_pages = [p for p in sorted((expected / "chromium-calls").glob("*.json")) if p.name != "UNSTABLE.json"]
    for path in call_pages:
        document = formtools.parse_html(
            (ROOT / "fixtures" / "html" / f"{path.stem}.html").read_bytes(),
            url=f"http://127.0.0.1:8000/pages/{path.stem}.html",
        )
        by_profile = {p: formtools.extract(document, profile=p) for p in ("chromium", "html")}
        for case in json.loads(path.read_text("utf-8")):
            calls += 1
            sent = "request" in case["outcome"] or bool(case["outcome"].get("no_request"))
            rejected += not sent
            tool_input = case["input"]
            if not isinstance(tool_input, dict):
                continue
            objects += 1
            chromium = by_profile["chromium"].tool(case["tool"])
            valid = not formtools.validate_input(chromium, tool_input)
            chromium_invalid_sent += sent and not valid
            chromium_valid_refused += valid and not sent
            html = by_profile["html"].tool(case["tool"])
            problems = formtools.validate_input(html, tool_input)
            html_valid_refused += not problems and not sent
            if problems and sent:
                properties = html.input_schema["properties"]
                if any(k in properties and not _kind_matches(properties[k], v) for k, v in tool_input.items()):
                    html_refused["kind"] += 1
                elif any(p.flag == "badInput" for p in problems):
                    html_refused["rewritten"] += 1
                elif skips_validation(html.form, parameters_of(html.form, html.profile)):
                    html_refused["novalidate"] += 1
                else:
                    html_refused["other"] += 1
    disagreements = chromium_invalid_sent + chromium_valid_refused
    keywords = ", ".join(f"`{k}` {n}" for k, n in sorted(outside.items(), key=lambda kv: -kv[1]))
    return {
        "pages and tools": f"| {len(pages)} pages / {len(recorded)} tools |",
        "chromium outside": f"| {leaving} of {len(recorded)} |",
        "keywords": f"| {keywords} |",
        "html outside": f"| {profiles['html'][0]} of {profiles['html'][1]} |",
        "portable outside": f"| {profiles['portable'][0]} of {profiles['portable'][1]} |",
        "calls": f"({len(call_pages)} pages) / with an object input | {calls:,} / {objects:,} |",
        "rejected": f"| {rejected:,} of {calls:,} |",
        "disagreements": f"| {disagreements:,} of {objects:,} |",
        "chromium invalid sent": f"| {chromium_invalid_sent:,} |",
        "chromium valid refused": f"| {chromium_valid_refused:,} |",
        "html valid refused": f"accepts what Chromium rejects | {html_valid_refused:,} of {objects:,} |",
        "html refused": f"rejects what Chromium submits | {sum(html_refused.values()):,} of {objects:,} |",
        "html kind": f"| {html_refused['kind']:,} |",
        "html rewritten": f"| {html_refused['rewritten']:,} |",
        "html novalidate": f"| {html_refused['novalidate']:,} |",
        "html other": str(html_refused["other"]),
    }


def test_the_figures_quoted_are_the_recordings() -> None:
    table = _text(SPEC / "open-questions.md").split("## ", 2)[1]  # the "Figures from the suite" section
    found = figures()
    assert found.pop("html other") == "0", "a refusal the page does not explain: update open-questions.md"
    wrong = {name: figure for name, figure in found.items() if figure not in table}
    assert not wrong, f"open-questions.md quotes other figures than the recordings give: {wrong}"
