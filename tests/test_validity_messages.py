"""Validation messages (``formtools._forms.validity``) against Chromium 156's ``validationMessage``.

Every row of ``fixtures/expected/validation-messages.json``
(``scripts/record_validation_messages.py``) is an ``<input>`` whose value was assigned by script,
with the validity flags Chromium set and its en-US message when the input is invalid. A tool
call that fails validation is rejected with exactly these messages. A failure lists every
disagreeing row, one per line.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from formtools._forms import values as _values
from formtools._forms.validity import localize_value, value_problem
from scripts.record_validation_messages import ask, random_cases
from tests.conftest import EXPECTED

RECORDED = json.loads((EXPECTED / "validation-messages.json").read_text("utf-8"))
LIVE_CASES = int(os.environ.get("FORMTOOLS_MESSAGES_CASES", "1000"))
LIVE_SEED = int(os.environ.get("FORMTOOLS_MESSAGES_SEED", "1"))


def ours(row: dict[str, Any]) -> dict[str, Any]:
    """What formtools answers for a case, in the shape Chromium's answers are recorded in."""
    attributes = row["attributes"]
    sanitized = _values.sanitize(
        row["type"],
        row["value"],
        multiple="multiple" in attributes,
        min=attributes.get("min"),
        max=attributes.get("max"),
        step=attributes.get("step"),
        value_attribute=attributes.get("value"),
    )
    problem = value_problem(row["type"], sanitized, attributes)
    return {
        "sanitized": sanitized,
        "flag": problem[0] if problem else None,
        "message": problem[1] if problem else "",
    }


def differences(rows: list[dict[str, Any]]) -> list[str]:
    """One readable line per row where formtools and Chromium disagree."""
    lines = []
    for row in rows:
        mine = ours(row)
        wrong = []
        if mine["sanitized"] != row["sanitized"]:
            wrong.append(f"value {mine['sanitized']!r} != chromium {row['sanitized']!r}")
        first = row["flags"][0] if row["flags"] else None
        if mine["flag"] != first:
            wrong.append(f"flag {mine['flag']} != chromium {first}")
        if mine["message"] != row["message"]:
            wrong.append(f"message {mine['message']!r} != chromium {row['message']!r}")
        if wrong:
            attributes = " ".join(f"{name}={value!r}" for name, value in row["attributes"].items())
            element = f"<input type={row['type']} {attributes}>"
            lines.append(f"{element}.value = {row['value']!r}: " + "; ".join(wrong))
    return lines


def test_corpus_is_large_and_from_chromium_156() -> None:
    assert RECORDED["chromium"].startswith("156.")
    # the browser and flags every recording names (scripts/_recording.py, stamped)
    assert RECORDED["browser"] == json.loads((EXPECTED / "BROWSER.json").read_text("utf-8"))
    assert len(RECORDED["rows"]) >= 3000
    kinds = {row["message"].partition(".")[0] for row in RECORDED["rows"] if row["message"]}
    assert len(kinds) >= 12  # every kind of message is represented


@pytest.mark.spec_step("exec-submit-4.2")
@pytest.mark.parametrize("input_type", sorted({row["type"] for row in RECORDED["rows"]}))
def test_recorded_messages_agree(input_type: str) -> None:
    rows = [row for row in RECORDED["rows"] if row["type"] == input_type]
    wrong = differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} {input_type} rows disagree:\n" + "\n".join(wrong)


@pytest.mark.spec_step("exec-submit-4.2")
@pytest.mark.parametrize(
    ("input_type", "value", "attributes", "expected"),
    [
        ("time", "13:45:10", {}, ("1:45\u202fPM", "1:46\u202fPM")),
        ("time", "13:45:30.5", {"step": "1"}, ("1:45:30\u202fPM", "1:45:31\u202fPM")),
        ("time", "13:45:30.25", {"step": "0.5"}, ("1:45:30\u202fPM", "1:45:30.500\u202fPM")),
        ("time", "23:59:50", {}, ("11:59\u202fPM",)),
        ("date", "2024-02-27", {"step": "7"}, ("02/22/2024", "02/29/2024")),
        ("week", "2024-W10", {"step": "2"}, ("Week 09, 2024", "Week 11, 2024")),
        ("month", "2024-06", {"step": "5"}, ("March 2024", "August 2024")),
        (
            "datetime-local",
            "2024-06-01T08:20",
            {"step": "900"},
            ("06/01/2024, 8:15\u202fAM", "06/01/2024, 8:30\u202fAM"),
        ),
        ("number", "-1", {"step": "2"}, ("-2", "0")),
        ("number", "12345.5", {}, ("12345", "12346")),
        ("number", "8.7", {"step": "2", "min": "0", "max": "9"}, ("8",)),
        ("number", "150.5", {"min": "1e2", "step": "1e2"}, ("1e+2", "2e+2")),
    ],
)
def test_nearest_valid_values(
    input_type: str, value: str, attributes: dict[str, str], expected: tuple[str, ...]
) -> None:
    found = _values.nearest_valid_values(
        input_type,
        value,
        min=attributes.get("min"),
        max=attributes.get("max"),
        step=attributes.get("step"),
        value_attribute=attributes.get("value"),
    )
    assert tuple(localize_value(input_type, text) for text in found) == expected


@pytest.mark.browser
def test_fresh_random_cases_agree_with_live_chromium(chromium) -> None:
    """FORMTOOLS_MESSAGES_CASES cases (default 1000) drawn with FORMTOOLS_MESSAGES_SEED (default 1)."""
    cases = random_cases(LIVE_CASES, LIVE_SEED)
    rows = [{**case, **answer} for case, answer in zip(cases, ask(chromium.page, cases), strict=True)]
    wrong = differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} cases (seed {LIVE_SEED}) disagree:\n" + "\n".join(wrong)
