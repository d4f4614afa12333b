"""``formtools._spec.ecmaregex`` against Chromium's V8: does ``new RegExp(pattern, "v")`` compile?

The recorded corpus (``fixtures/expected/regex-v-flag.json``, written by
``scripts/record_regex_validity.py``) is checked without a browser. The test marked ``browser``
asks the live Chromium about random patterns that are not in the corpus.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from formtools._spec.ecmaregex import compiles_with_v_flag, v_flag_syntax_error
from scripts.record_regex_validity import (
    RECORDED_SEEDS,
    ask_chromium,
    corpus,
    dumps_rows,
    load_recording,
    load_rows,
    normalise,
    random_patterns,
)
from tests.conftest import EXPECTED

STAMP = json.loads((EXPECTED / "BROWSER.json").read_text(encoding="utf-8"))

# Fixed seeds for the live test, disjoint from RECORDED_SEEDS (no date, no clock).
LIVE_SEEDS = range(1_000_000, 1_000_400)


def _shown(pattern: str, limit: int = 100) -> str:
    text = ascii(pattern)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(pattern)} characters)"


def _mismatch_report(rows: Sequence[tuple[str, bool, str | None]]) -> str:
    """One line per disagreement: the pattern, what Chromium said, what formtools said and why."""
    lines = [f"{len(rows)} pattern(s) where formtools disagrees with Chromium:"]
    for pattern, chromium_valid, chromium_error in rows[:50]:
        ours = v_flag_syntax_error(pattern)
        chromium = "compiles" if chromium_valid else f"throws ({chromium_error or 'SyntaxError'})"
        formtools = "compiles" if ours is None else f"rejects ({ours})"
        lines.append(f"  {_shown(pattern)}: Chromium {chromium}, formtools {formtools}")
    if len(rows) > 50:
        lines.append(f"  ... and {len(rows) - 50} more")
    return "\n".join(lines)


def test_recorded_corpus_agrees_with_chromium() -> None:
    rows = load_rows()
    assert len(rows) >= 1500
    assert any(valid for _, valid in rows) and not all(valid for _, valid in rows)
    mismatches = [
        (pattern, valid, None) for pattern, valid in rows if compiles_with_v_flag(pattern) != valid
    ]
    assert not mismatches, _mismatch_report(mismatches)


def test_recorded_corpus_is_the_scripts_corpus() -> None:
    # The fixture must be re-recorded when the corpus changes.
    assert [pattern for pattern, _ in load_rows()] == corpus()


def test_fixture_text_round_trips_lone_surrogates(tmp_path: Path) -> None:
    rows = [("\ud83d", False), ("[\ude00]", True), ("é😀", True)]
    text = dumps_rows(rows, STAMP)
    assert "\\ud83d" in text and "\\ude00" in text
    text.encode("utf-8")  # no raw surrogate is left to break the file's UTF-8
    (tmp_path / "rows.json").write_text(text, encoding="utf-8")
    assert load_recording(tmp_path / "rows.json") == (STAMP, rows)


def test_the_recording_carries_the_stamp() -> None:
    browser, _ = load_recording()
    assert browser == STAMP


def test_a_recording_of_another_browser_is_refused(tmp_path: Path) -> None:
    other = {**STAMP, "flags": [flag for flag in STAMP["flags"] if "WebMCP" not in flag]}
    (tmp_path / "rows.json").write_text(dumps_rows([("a", True)], other), encoding="utf-8")
    with pytest.raises(ValueError, match="not the stamped browser"):
        load_rows(tmp_path / "rows.json")
    (tmp_path / "rows.json").write_text(dumps_rows([("a", True)], STAMP), encoding="utf-8")
    assert load_rows(tmp_path / "rows.json") == [("a", True)]


@pytest.mark.parametrize(
    "pattern",
    [
        "a{", "a}", "{", "}", "a{,5}", "a{1", "\\k<nope>", "\\k", "\\q", "\\a", "\\-", "]",
        "[\\a]", "\\c", "\\c1", "\\u{110000}", "\\u12", "\\x1", "\\8", "\\1", "(a)\\2", "\\01",
        "\\00", "(?=a)*", "\\b+", "\\q{abc}", "\\&", "\\!", "a{2,1}", "(?<a>x)(?<a>y)",
        "[^\\p{RGI_Emoji}]", "\\P{RGI_Emoji}", "[a-z&&q]", "[a&&&b]", "[!!]", "(?i-i:a)",
        "(?-:a)", "\\p{Script=Hrkt}", "(?<\\u0031>a)",
    ],
)
def test_rejects_what_regress_accepts(pattern: str) -> None:
    assert not compiles_with_v_flag(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        "", "a|", "(?<a>x)|(?<a>y)", "(?i:a)", "(?-i:a)", "(?i-s:a)", "[\\q{abc}]",
        "[^\\q{a|b}]", "[[a-z]--[aeiou]]", "[\\p{L}&&\\p{Lu}]", "\\p{RGI_Emoji}",
        "\\p{sc=Tolong_Siki}", "(?<\\uD835\\uDC9C>a)", "a{2147483648,2147483647}",
        "\\k<a>(?<a>x)", "[\\--a]", "(" * 5000 + ")" * 5000,
    ],
)
def test_accepts(pattern: str) -> None:
    assert compiles_with_v_flag(pattern), v_flag_syntax_error(pattern)


def test_surrogate_pair_is_one_code_point() -> None:
    # Python may hold a pair as two characters; JavaScript's u-mode reads one code point.
    assert compiles_with_v_flag("[\ud83d\ude00-\U0001f601]")
    assert not compiles_with_v_flag("[\U0001f601-\ud83d\ude00]")
    assert compiles_with_v_flag("[\ud83d-\ude00]")  # lone surrogates, in order


def test_live_seeds_are_fresh() -> None:
    recorded = set(random_patterns(RECORDED_SEEDS))
    fresh = [p for p in random_patterns(LIVE_SEEDS) if p not in recorded]
    assert len(set(fresh)) >= 300


@pytest.mark.browser
def test_random_patterns_agree_with_live_chromium(chromium) -> None:
    patterns = list(dict.fromkeys(normalise(p) for p in random_patterns(LIVE_SEEDS)))
    assert len(patterns) >= 300
    answers = ask_chromium(patterns, chromium.page)
    assert len(answers) == len(patterns)
    mismatches = [
        (pattern, error is None, error)
        for pattern, error in zip(patterns, answers)
        if compiles_with_v_flag(pattern) != (error is None)
    ]
    assert not mismatches, _mismatch_report(mismatches)
