"""Values are checked against every ``pattern`` Chromium compiles, or formtools says it cannot.

formtools decides whether V8 compiles a pattern with its own parser (``_spec.ecmaregex``, held to
the browser by ``test_ecmaregex.py``) and matches values with regress. regress refuses some
patterns V8 compiles: nesting deeper than 255 groups, a few property aliases, negated string
properties in set operations, huge bounds, lone surrogates. Those used to escape as tracebacks
(``RegressError`` from a call under ``chromium``, ``RecursionError`` from Python's ``re`` under
``portable``) or pass every value silently (the ``html`` schema's check). Now such a pattern is
an :class:`~formtools.Unsupported` error, one line, at validate and call time, and extraction
never fails on a pattern.

The corpus is every pattern Chromium compiled in ``fixtures/expected/regex-v-flag.json`` plus
nesting shapes generated around regress's and Python's limits; the live test asks Chromium's
``checkValidity()`` about the nesting shapes.
"""

from __future__ import annotations

import functools
import html
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import formtools
from formtools import Unsupported
from formtools._spec import microsyntax
from formtools._spec.microsyntax import compiled_pattern
from tests.conftest import ENV, EXPECTED
from tests.support.forkserve import formtools_command

RECORDED = json.loads((EXPECTED / "regex-v-flag.json").read_text("utf-8"))["rows"]
COMPILED = [row["pattern"] for row in RECORDED if row["valid"]]

#: Nesting shapes: the pattern ``depth`` levels deep, each matching "a" (and not "b").
NESTING: dict[str, Callable[[int], str]] = {
    "groups": lambda depth: "(" * depth + "a" + ")" * depth,
    "non-capturing": lambda depth: "(?:" * depth + "a" + ")" * depth,
    "lookaheads": lambda depth: "(?=a)" + "(?:" * depth + "a" + ")" * depth,
    "alternatives": lambda depth: "(c|" * depth + "a" + ")" * depth,
    "quantified": lambda depth: "(?:" * depth + "a" + "){1}" * depth,
    "classes": lambda depth: "[" * depth + "a" + "]" * depth,
}
DEPTHS = (1, 100, 101, 253, 254, 255, 256, 300, 600, 5_000)
VALUES = ("a", "b", "", "aa")


def _surrogate_free(pattern: str) -> bool:
    return not any("\ud800" <= character <= "\udfff" for character in pattern)


def _page(patterns: list[str]) -> str:
    forms = (
        f"<form toolname=t{number} tooldescription=d action=/x>"
        f"<input name=q pattern=\"{html.escape(pattern)}\"><button>go</button></form>"
        for number, pattern in enumerate(patterns)
    )
    return "".join(forms)


@functools.cache
def _document(patterns: tuple[str, ...]) -> formtools.Document:
    """The page of ``patterns``, parsed once: every profile reads the same page (the recorded
    corpus's takes html5lib's path, over a second a parse)."""
    return formtools.parse_html(_page(list(patterns)), url="https://site.example/")


@functools.cache
def _tools(patterns: tuple[str, ...], profile: str) -> dict[str, formtools.Tool]:
    """The tools of the page of ``patterns`` by name, extracted once per profile: each value
    checked reads the same tools."""
    return {tool.name: tool for tool in formtools.extract(_document(patterns), profile=profile).tools}


def _answers(patterns: list[str], profile: str, value: str) -> list[str]:
    """For each pattern, what ``prepare_call`` answers for ``value``: "valid", "invalid" or
    "unsupported"; under ``html``, ``validate_input`` must say the same (its schema is the
    contract; the ``chromium`` schema, like Chromium's, checks no pattern, and ``portable`` may
    drop one). Any other exception fails the test."""
    by_name = _tools(tuple(patterns), profile)
    answers = []
    for number in range(len(patterns)):
        tool = by_name[f"t{number}"]
        try:
            validated = "invalid" if formtools.validate_input(tool, {"q": value}) else "valid"
        except Unsupported as error:
            assert "\n" not in str(error) and len(str(error)) < 300
            validated = "unsupported"
        try:  # (the forms have no toolautosubmit: a failing one is prepared with its problems)
            called = "invalid" if formtools.prepare_call(tool, {"q": value}).problems else "valid"
        except formtools.InputError:
            called = "invalid"
        except Unsupported:
            called = "unsupported"
        if profile == "html":  # its schema is what constraint validation accepts
            assert validated == called, (profile, patterns[number][:60], value, validated, called)
        answers.append(called)
    return answers


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_every_pattern_chromium_compiles_is_checked_or_refused(profile: str) -> None:
    """All 2,066 patterns Chromium compiled (those with lone surrogates, which no HTML page can
    hold, through compiled_pattern alone): extraction never fails, validate_input and
    prepare_call agree, and only patterns regress refuses are refused."""
    patterns = [pattern for pattern in COMPILED if _surrogate_free(pattern)]
    answers = _answers(patterns, profile, "a")
    refused = {pattern for pattern, answer in zip(patterns, answers) if answer == "unsupported"}
    regress_refuses = set()
    for pattern in patterns:
        try:
            compiled_pattern(pattern)
        except Unsupported:
            regress_refuses.add(pattern)
    assert refused <= regress_refuses | {p for p in patterns if "(" * 255 in p}
    assert 30 <= len(regress_refuses) < 100  # the gap is small, and the test sees it
    assert refused, "some recorded patterns are beyond regress: they must be refused"
    for pattern in COMPILED:
        if not _surrogate_free(pattern):
            with pytest.raises(Unsupported):
                compiled_pattern(pattern)


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_deep_nesting_is_checked_or_refused(profile: str) -> None:
    """Nesting shapes up to 5,000 deep: an answer where regress compiles the anchored pattern
    (up to 254 levels of the attribute's own), "unsupported" for groups beyond, never an
    exception; the portable schema keeps a pattern only up to 100 levels."""
    cases = [(depth, shape(depth)) for shape in NESTING.values() for depth in DEPTHS]
    patterns = [pattern for _, pattern in cases]
    if profile == "portable":
        tools = formtools.extract(_page(patterns), profile=profile).tools
        kept = {tool.name for tool in tools if "pattern" in tool.input_schema["properties"]["q"]}
        too_deep = [pattern[:20] for number, (depth, pattern) in enumerate(cases) if f"t{number}" in kept and depth > 100]
        assert not too_deep
        assert kept, "shallow patterns stay in the portable schema"
    for value in VALUES:
        for (depth, pattern), answer in zip(cases, _answers(patterns, profile, value)):
            if depth <= 254:
                assert answer != "unsupported", (pattern[:40], value)
            elif pattern.startswith("(") and value:  # groups (not classes) over the limit; "" is never checked
                assert answer == "unsupported", (pattern[:40], value)


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_a_value_formtools_cannot_check_never_fails_extraction(profile: str) -> None:
    """Every pattern regress refuses (recorded and nesting shapes), on a control whose page
    gives it a value: extraction decides from that value whether the parameter is required
    (``html``) and whether the form can ever be valid (an unnamed control: no parameter), and
    raised ``Unsupported`` for the whole page under ``html`` and ``portable``. Now the page's
    tools come out, and a call keeping such a value is refused as it is validated."""
    refused = []
    for pattern in [*filter(_surrogate_free, COMPILED), *(shape(300) for shape in NESTING.values())]:
        try:
            compiled_pattern(pattern)
        except Unsupported:
            refused.append(pattern)
    assert len(refused) > 30
    forms = "".join(
        f"<form toolname=t{number} tooldescription=d toolautosubmit action=/x><input {name}pattern=\"{html.escape(pattern)}\" "
        f"value=a><input name=y><button>go</button></form>"
        for number, pattern in enumerate(refused)
        for name in ("name=q ", "")
    )
    tools = formtools.extract_tools(forms, base_url="https://site.example/", profile=profile)
    assert len(tools) == len(refused)  # (two forms each: a duplicate name registers once)
    for tool in tools:
        with pytest.raises(Unsupported):
            formtools.prepare_call(tool, {"y": "1"})


_VALIDITY_JS = """
(cases) => cases.map(([pattern, value]) => {
  const input = document.createElement("input");
  input.pattern = pattern;
  input.value = value;
  return input.checkValidity();
})
"""


@pytest.mark.browser
def test_deep_nesting_agrees_with_chromium(chromium) -> None:  # type: ignore[no-untyped-def]
    """Where formtools answers, its answer is Chromium's ``checkValidity()`` (which compiles all
    of these: V8 parses groups without recursion, and its classes up to some 1,000 deep)."""
    patterns = [shape(depth) for shape in NESTING.values() for depth in DEPTHS]
    disagreements = []
    for value in VALUES:
        answers = _answers(patterns, "chromium", value)
        browser = chromium.page.evaluate(_VALIDITY_JS, [[pattern, value] for pattern in patterns])
        for pattern, answer, valid in zip(patterns, answers, browser):
            if answer != "unsupported" and (answer == "valid") != valid:
                disagreements.append(f"{pattern[:30]}… ({len(pattern)}) {value!r}: {answer}, chromium {valid}")
    assert not disagreements, "\n".join(disagreements)


#: the characters two of which side by side make a class's reserved double punctuator (``&&``)
_PUNCTUATORS = "&!#$%*+,.:;<=>?@^`~"


def _punctuator_patterns() -> list[str]:
    """Patterns with two different punctuators side by side in a class (plain, negated, nested,
    in a class string, in a range), seeded, and the common e-mail pattern."""
    import random

    rng = random.Random("punctuators")
    pairs = [(a, b) for a in _PUNCTUATORS for b in _PUNCTUATORS if a != b]
    shapes = ["[a{}{}]+", "[^{}{}]", "[[x{}{}]--[x]]+", "[\\q{{{}{}}}x]+", "[!-{}{}]+"]
    patterns = [shape.format(*rng.choice(pairs)) for shape in shapes for _ in range(14)]
    return ["[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}", "[\\w.%+\\-]+@[\\w.\\-]+", *patterns]


@pytest.mark.browser
def test_class_punctuators_side_by_side_agree_with_chromium(chromium) -> None:  # type: ignore[no-untyped-def]
    """regress refuses two different punctuators side by side in a v-flag class, which V8
    compiles (``[a-z0-9._%+-]+@…``, the common e-mail pattern, was Unsupported): formtools hands
    regress the same class with the first escaped, and answers as ``checkValidity()`` does."""
    patterns = _punctuator_patterns()
    values = ["a", "john.doe+x@mail.example.com", "%+", "x", "!"] + [pattern[2:4] for pattern in patterns[2:12]]
    disagreements = []
    for value in values:
        answers = _answers(patterns, "chromium", value)
        browser = chromium.page.evaluate(_VALIDITY_JS, [[pattern, value] for pattern in patterns])
        for pattern, answer, valid in zip(patterns, answers, browser):
            if answer == "unsupported" or (answer == "valid") != valid:
                disagreements.append(f"{pattern!r} {value!r}: {answer}, chromium {valid}")
    assert not disagreements, f"{len(disagreements)}: " + "\n".join(disagreements[:10])


#: Patterns Chromium compiles on which regress would kill the process: a stack overflow
#: compiling some 50,000 alternatives, nested ones adding up (SIGSEGV), or memory for each of
#: a quantifier's forced iterations of a group that matches nothing (10 GB for 10^8: abort or
#: the OOM killer).
BEYOND_REGRESS = {
    "76,000 alternatives": "a|" * 76_000 + "b",
    "5,000 alternatives in each of 16 nested disjunctions": ("(?:" + "a|" * 5_000) * 16 + "b" + ")" * 16,
    "a hundred million empty iterations": "(a|){100000000}",
    "2^31 - 1 optional iterations": "(?:a?){2147483647}",
    "nested counts multiplying": "((a|){1000}){1001}",
}


@pytest.mark.parametrize("shape", list(BEYOND_REGRESS))
def test_patterns_that_would_crash_regress_are_refused_before_it_runs(shape: str, tmp_path: Path) -> None:
    """Through the real CLI, each in its own process (a regression kills only that process):
    extraction succeeds under every profile (the portable schema drops the pattern), and
    validate and call refuse in one line with exit 1."""
    page = tmp_path / "page.html"
    page.write_text(_page([BEYOND_REGRESS[shape]]), encoding="utf-8")
    for profile in ("chromium", "html", "portable"):
        done = _cli("extract", str(page), "--profile", profile)
        assert done.returncode == 0, (profile, done.returncode, done.stderr[-300:])
        if profile == "portable":
            assert '"pattern"' not in done.stdout
    for command in (["validate", str(page), "t0"], ["call", str(page), "t0", "--dry-run", "--base-url", "https://a.example/"]):
        done = _cli(*command, "--input", '{"q": "a"}')
        assert done.returncode == 1, (command[0], done.returncode, done.stderr[-300:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "formtools cannot check values against the pattern" in lines[0], done.stderr


def _cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``python -m formtools ARGUMENTS`` forked from a warm interpreter (tests/support/forkserve.py):
    still a process of its own, which a crash in regress kills alone (its launcher then dies by
    the same signal), without the import of formtools that made most of each run's CPU."""
    return subprocess.run([*formtools_command(ENV), *arguments], capture_output=True, text=True, env=ENV, timeout=120)


def test_patterns_within_the_limits_are_matched(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits leave room: 10,000 alternatives and a million forced iterations are matched
    as the browser matches them. The time budgets are lifted: the million iterations take a
    match about 0.05 s (0.12 s with its helper's start) of the 0.25 s it may take, and on a
    loaded machine (a full run on two cores) it missed the deadline now and then, an answer of
    the budget, which tests/test_pattern_budget.py holds, not of these limits. Whether the
    limits' worst case fits the budget on a given machine is a speed figure, a benchmark's."""
    monkeypatch.setattr(microsyntax, "MATCH_BUDGET", 60.0)
    monkeypatch.setattr(microsyntax, "CALL_MATCH_BUDGET", 120.0)
    patterns = ["a|" * 9_999 + "b", "(?:a?){1000000}", "(?:b|a){1000}x?"]
    assert _answers(patterns, "chromium", "b") == ["valid", "invalid", "invalid"]
    assert _answers(patterns, "chromium", "a") == ["valid", "valid", "invalid"]
    assert _answers(patterns, "chromium", "b" * 1000) == ["invalid", "invalid", "valid"]


def test_the_patterns_kept_are_bounded_by_their_length_too() -> None:
    """A compiled pattern takes about 60 bytes per source character, so the caches keep
    patterns up to a total length (review20: 4,096 patterns of 10,000 alternatives each, 1.2 MB
    compiled, kept gigabytes in a long-lived ``serve``): past it the least recently used go,
    and one longer than the whole bound is never kept."""
    from formtools._spec.microsyntax import _CACHED_CHARACTERS, PatternCache

    compiled: list[str] = []

    def compile_pattern(pattern: str) -> None:
        compiled.append(pattern)

    kept = PatternCache(compile_pattern)
    size = 20_000
    patterns = [f"{number:05}" + "a" * (size - 5) for number in range(2 * _CACHED_CHARACTERS // size)]
    for pattern in patterns:
        kept(pattern)
    kept(patterns[-1])  # the last used is kept
    kept(patterns[0])  # the first, long since evicted, is compiled again
    assert compiled == [*patterns, patterns[0]]
    huge = "b" * (_CACHED_CHARACTERS + 1)
    kept(huge)
    kept(huge)
    assert compiled[-2:] == [huge, huge]


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_a_form_of_many_patterns_compiles_each_once(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extraction, then validation and a call twice each, of a form of 1,500 distinct patterns,
    and of 20 forms each of a pattern regress refuses, compiles (or tries to) each pattern once
    in each shape it is matched in (the attribute's own for a schema, anchored for constraint
    validation): the compiled patterns' cache held 1,024, so every pattern was evicted before
    validation came back to it and compiled again (test_every_pattern_chromium_compiles_is_
    checked_or_refused's 2,066 patterns, compiled three times each); the anchored patterns'
    cache held 1,024 too; and neither kept a refusal, so a pattern beyond regress was read,
    measured and handed to regress again at every value checked against it."""
    from formtools._forms.validity import _anchored
    from formtools._spec.microsyntax import CompiledPattern, compiled_pattern

    compiled_pattern.cache_clear()  # (patterns a rerun in this process kept would compile 0 times)
    _anchored.cache_clear()
    compiled: list[str] = []
    compile_pattern = CompiledPattern.compile.__func__  # type: ignore[attr-defined]

    def counted(cls: type[CompiledPattern], source: str, flags: str) -> CompiledPattern:
        compiled.append(source)
        return compile_pattern(cls, source, flags)  # type: ignore[no-any-return]

    monkeypatch.setattr(CompiledPattern, "compile", classmethod(counted))
    count = 1_500
    inputs = "".join(f"<input name=q{number} pattern=x{number}>" for number in range(count))
    refused = ["(" * depth + "a" + ")" * depth for depth in range(300, 320)]
    lone = "".join(f"<form toolname=r{number} tooldescription=d><input name=q pattern={pattern}><button>go</button></form>"
        for number, pattern in enumerate(refused))
    tools = {tool.name: tool for tool in formtools.extract(
        f"<form toolname=t tooldescription=d>{inputs}<button>go</button></form>{lone}", base_url="https://site.example/", profile=profile
    ).tools}
    for _ in range(2):
        assert not formtools.validate_input(tools["t"], {f"q{number}": f"x{number}" for number in range(count)})
        assert not formtools.prepare_call(tools["t"], {f"q{number}": f"x{number}" for number in range(count)}).problems
        for number in range(len(refused)):
            if profile != "portable":  # (its schema drops a pattern so deep: the call alone refuses)
                with pytest.raises(Unsupported):
                    formtools.validate_input(tools[f"r{number}"], {"q": "a"})
            with pytest.raises(Unsupported):
                formtools.prepare_call(tools[f"r{number}"], {"q": "a"})
    assert len(compiled) == len(set(compiled)), f"{len(compiled) - len(set(compiled))} compiled again"
    assert {f"x{number}" for number in range(count)} <= {source.removeprefix("^(?:").removesuffix(")$") for source in compiled}
    assert len(set(compiled)) >= count + len(refused)
