"""Matching a ``pattern`` takes bounded time, and answers as regress does whenever regress
finishes within formtools' budget.

regress has no backtrack budget and holds the GIL: ``(\\d+)*$`` (web-platform-tests'
``infinite-backtracking.html``) on 39 digits and a ``!`` ran for hours in ``prepare_call``,
``validate_input``, ``formtools call`` and the MCP bridge, where Chromium answers
patternMismatch in 0.4 s. Now a match whose worst case the pattern's shape cannot bound runs in
a helper process with a deadline (``MATCH_BUDGET``; a call's matches share
``CALL_MATCH_BUDGET``, helper starts included), and one past it is a mismatch, as Chromium says
past V8's backtrack limit. The live comparison with Chromium is ``test_browser_wpt_corpus.py``; here:

- seeded random patterns (groups, alternations, quantifiers nested two deep) on adversarial
  values: every match the static check leaves in process finishes in the helper within 2 s
  (else the check let a slow one through, which would hang the process), and the bounded path
  answers as regress does whenever regress finishes well within the budget;
- a form of n and 2n catastrophic controls: one call costs one budget, helper starts included,
  not one per control, and ``validate_input`` and the call flag the same fields; a helper slow to
  start is given up on when the call's budget is spent;
- ordinary patterns on ordinary values never start a helper.
"""

from __future__ import annotations

import html
import json
import math
import os
import random
import time
from typing import Any

import pytest
import regress

import formtools
from formtools._spec import matchworker, microsyntax
from formtools._spec.matchworker import match_with_deadline
from formtools._spec.microsyntax import (
    CALL_MATCH_BUDGET,
    IN_PROCESS_PATHS,
    MATCH_BUDGET,
    CompiledPattern,
    pattern_budget,
    regex_matches,
)
from formtools.errors import ValidationError

_ATOMS = ("a", "a", "b", "[ab]", r"\w", r"\s", ".", r"\d", "(?=a)", r"[\q{a|aa}]")
_QUANTIFIERS = ("", "", "", "*", "+", "?", "{1,3}", "{2,}", "{2}", "+?")


def _regex(rng: random.Random, depth: int = 0) -> str:
    """A random pattern: one to three quantified atoms, an atom a group (of one or two
    alternatives) up to two levels deep."""
    parts = []
    for _ in range(rng.randint(1, 3)):
        if depth < 2 and rng.random() < 0.45:
            inner = "|".join(_regex(rng, depth + 1) for _ in range(rng.choice((1, 1, 2))))
            atom = rng.choice(("(", "(?:")) + inner + ")"
        else:
            atom = rng.choice(_ATOMS)
        parts.append(atom + rng.choice(_QUANTIFIERS))
    return "".join(parts)


def _value(rng: random.Random) -> str:
    """Runs of what the atoms match, ended by what they may not: where backtracking explodes
    (exponentially in short runs, polynomially in long ones)."""
    run = rng.choice(("a", "1", "ab", "a ", "aa"))
    repeats = rng.randint(0, 24) if rng.random() < 0.8 else rng.randint(100, 400)
    return run * repeats + rng.choice(("", "!", "b", " ", "c"))


def _cases(count: int) -> list[tuple[CompiledPattern, str]]:
    rng = random.Random("pattern-budget")
    cases = []
    while len(cases) < count:
        pattern = _regex(rng)
        source, flags = rng.choice(((f"^(?:{pattern})$", "v"), (pattern, "u")))
        try:
            compiled = CompiledPattern.compile(source, flags)
        except regress.RegressError:  # \q{} outside the v flag
            continue
        cases.extend((compiled, _value(rng)) for _ in range(3))
    return cases


def test_matches_left_in_process_are_fast_and_the_bounded_ones_answer_as_regress() -> None:
    in_process = bounded = compared = 0
    slow, differences = [], []
    for compiled, value in _cases(1_200):
        if compiled.shape.worst_case(len(value)) <= IN_PROCESS_PATHS:
            in_process += 1
            answer = match_with_deadline(compiled.source, compiled.flags, value, 2.0)
            if answer is None:  # run in process, it would have held the GIL that long
                slow.append(f"{compiled.source!r} on {value!r}")
            elif regex_matches(compiled, value) != answer:
                differences.append(f"{compiled.source!r} on {value!r}: regress {answer}")
            continue
        bounded += 1
        if bounded > 40:  # each overrun costs a budget: a sample is enough
            continue
        answer = match_with_deadline(compiled.source, compiled.flags, value, MATCH_BUDGET / 5)
        if answer is not None:  # well within the budget: the bounded path must agree
            compared += 1
            if regex_matches(compiled, value) != answer:
                differences.append(f"{compiled.source!r} on {value!r} (bounded): regress {answer}")
    assert not slow, f"{len(slow)} slow matches left in process:\n" + "\n".join(slow[:10])
    assert not differences, "\n".join(differences[:10])
    assert in_process > 400 and bounded > 400 and compared > 20, (in_process, bounded, compared)


def _catastrophic_form(controls: int) -> str:
    """A harmless value's flagged pattern first (answered while the budget lasts), then
    ``controls`` catastrophic ones."""
    patterns = [r"(a+)+$", r"(a|a)*$"] * controls
    return (
        "<form toolname=t tooldescription=d toolautosubmit action=/x><input name=ok pattern=\"(\\w+\\s?)*\">"
        + "".join(f'<input name=f{n} pattern="{html.escape(p)}">' for n, p in enumerate(patterns[:controls]))
        + "</form>"
    )


@pytest.mark.parametrize("profile", ["chromium", "html"])
def test_a_call_spends_one_budget_in_all_helper_starts_included(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """n and 2n catastrophic controls: each would spend MATCH_BUDGET and kill its helper. The
    replacement's start was not counted, so a call cost about a start per control past its
    budget (33 s for 40 controls at load 15). Now the call's CALL_MATCH_BUDGET covers starts
    too: it starts at most one helper per MATCH_BUDGET of it plus one, whatever n, and 2n
    controls take about as long as n (the same run's ratio, not a wall time). The harmless
    value is answered (a match), every catastrophic one is a mismatch, and validate_input
    flags the fields the call flags."""
    starts = 0
    helper_init = matchworker._Helper.__init__

    def counted(helper: matchworker._Helper) -> None:
        nonlocal starts
        starts += 1
        helper_init(helper)

    monkeypatch.setattr(matchworker._Helper, "__init__", counted)
    matches = 0
    match_in_helper = microsyntax.match_with_deadline

    def counted_match(*arguments: Any) -> bool | None:
        nonlocal matches
        matches += 1
        return match_in_helper(*arguments)

    monkeypatch.setattr(microsyntax, "match_with_deadline", counted_match)
    tried, started = [], []
    for controls in (8, 16):
        page = formtools.parse_html(_catastrophic_form(controls), url="https://example.test/")
        tool = formtools.extract(page, profile=profile).tool("t")  # type: ignore[arg-type]
        # a value of its own for each: a call answers one (pattern, value) once
        tool_input: dict[str, Any] = {f"f{n}": "a" * (40 + n) + "!" for n in range(controls)} | {"ok": "a few words"}
        starts = matches = 0
        with pytest.raises(ValidationError) as failed:
            formtools.prepare_call(tool, tool_input)
        tried.append(matches)
        started.append(starts)
        assert {problem.key for problem in failed.value.problems} == {f"f{n}" for n in range(controls)}, failed.value
        if profile == "html":
            assert {problem.field for problem in formtools.validate_input(tool, tool_input)} == {f"f{n}" for n in range(controls)}
    # counted, not timed (a wall-time ratio of the two sizes failed under load): once the
    # call's budget is spent no match is tried, so n and 2n controls try as many (or, on a
    # loaded machine, fewer: the budget is wall time) as one budget holds
    most = math.ceil(CALL_MATCH_BUDGET / MATCH_BUDGET) + 1
    assert max(started) <= most and max(tried) <= most, (started, tried)


def test_a_slow_helper_start_is_counted_in_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper that takes 120 s to start (a loaded machine, far beyond any budget): the call
    gives up on it when its budget is spent (a mismatch, as past V8's limit) instead of waiting,
    and does not call the pattern unsupported; the helper, still starting, is kept for the next
    match, and the exit does not wait for it. The bounds are hang guards: waiting for the
    helper takes 120 s, whatever the load."""
    matchworker._close_idle()
    monkeypatch.setattr(matchworker, "_WORKER", "import time; time.sleep(120)\n" + matchworker._WORKER)
    compiled = CompiledPattern.compile(r"^(?:(a+)+$)$", "v")
    try:
        begin = time.perf_counter()
        with pattern_budget():
            assert not regex_matches(compiled, "a" * 40 + "!")
        took = time.perf_counter() - begin
        assert len(matchworker._idle) == 1 and not matchworker._idle[0].ready
    finally:
        begin = time.perf_counter()
        matchworker._close_idle()  # as at exit: kills the one still starting, never waits for it
        closed = time.perf_counter() - begin
    assert took < 60 and closed < 60, (took, closed)


_ORDINARY = [
    r"[0-9]{5}", r"\d{3}-\d{3}-\d{4}", r"[A-Za-z]+", r"[a-z0-9._+\-]+@[a-z0-9.\-]+\.[a-z]{2,}",
    r"(?:\+?1[ \-]?)?\(?\d{3}\)?[ \-]?\d{3}[ \-]?\d{4}", r"[A-Z]{2}\d{2}[A-Z0-9]{4}\d{7}",
    r"https?://.+", r"red|green|blue|yellow|black|white", r"\p{L}[\p{L} '\-]*", r"\d{1,2}/\d{1,2}/\d{4}",
]


def test_ordinary_patterns_on_ordinary_values_stay_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_helper(*arguments: object) -> bool | None:
        raise AssertionError(f"a helper for {arguments[:2]}")

    monkeypatch.setattr(microsyntax, "match_with_deadline", no_helper)
    rng = random.Random("ordinary-patterns")
    alphabet = "abcxyz019 .@-+/"
    for pattern in _ORDINARY:
        compiled = CompiledPattern.compile(f"^(?:{pattern})$", "v")
        for length in range(41):
            regex_matches(compiled, "".join(rng.choice(alphabet) for _ in range(length)))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_never_uses_its_parents_helper() -> None:
    """``batch --jobs`` forks workers. A child that took its parent's idle helper wrote into
    the parent's pipe, its answer went to the parent's reader thread (the child waited out the
    budget, then killed the parent's helper), and the parent read a stale answer next."""
    compiled = CompiledPattern.compile(r"^(?:(\w+\s?)*)$", "v")
    assert regex_matches(compiled, "a few words")  # the parent has an idle helper now
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's verdicts go back through the pipe
        answers = [regex_matches(compiled, "a b c"), regex_matches(compiled, "a b!")]
        os.write(writing, json.dumps(answers).encode())
        os._exit(0)
    os.close(writing)
    os.waitpid(child, 0)
    with os.fdopen(reading) as pipe:
        assert json.loads(pipe.read()) == [True, False]
    assert [regex_matches(compiled, "x y z!"), regex_matches(compiled, "x y z")] == [False, True]


_MATCH_THEN_WAIT = """
import sys
from formtools._spec.matchworker import match_with_deadline
match_with_deadline("^(?:(a+)+b)?$", "v", "ab", 60)  # an idle helper, started and ready
print("matching", flush=True)
match_with_deadline("^(?:(a+)+b)?$", "v", "a" * 40 + "!", 1.0)
"""


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGINT"])
def test_a_helper_never_outlives_a_parent_killed_mid_match(signal_name: str) -> None:
    """A process killed while its helper matched ``(a+)+b`` on 40 ``a`` (kill -9, or Ctrl-C
    raising in the thread that waits) never killed the helper, which went on backtracking for
    hours with nobody reading its answer. The helper now ends itself a second past the match's
    deadline. The parent is killed at a seeded point of a 1 s match; its session must be empty
    within 4 s."""
    import signal
    import subprocess
    import sys

    from tests.support.processes import left_after

    rng = random.Random(signal_name)
    process = subprocess.Popen(
        [sys.executable, "-c", _MATCH_THEN_WAIT],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"matching\n"
    time.sleep(rng.uniform(0.1, 0.6))
    process.send_signal(getattr(signal, signal_name))
    process.wait(timeout=60)
    process.stdout.close()
    assert left_after(process.pid) == []
