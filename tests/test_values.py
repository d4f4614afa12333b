"""``formtools._forms.values`` against Chromium 156: recorded answers, and fresh ones from the browser.

Every row of ``fixtures/expected/value-rules.json`` (``scripts/record_value_rules.py``) is a
value assigned with ``input.value = X`` and what Chromium made of it: the sanitized value, five
validity flags and ``valueAsNumber``. A failure lists every disagreeing row, one per line.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from formtools._forms import values as _values
from scripts.record_value_rules import FLAGS, ask, random_cases
from tests.conftest import EXPECTED

RECORDED = json.loads((EXPECTED / "value-rules.json").read_text("utf-8"))
LIVE_CASES = int(os.environ.get("FORMTOOLS_VALUES_CASES", "400"))
LIVE_SEED = int(os.environ.get("FORMTOOLS_VALUES_SEED", "1"))


def ours(row: dict[str, Any]) -> dict[str, Any]:
    """What ``_values`` answers for a case, in the shape Chromium's answers are recorded in."""
    attributes = row["attributes"]
    input_type = row["type"]
    limits = {"min": attributes.get("min"), "max": attributes.get("max")}
    sanitized = _values.sanitize(
        input_type,
        row["value"],
        multiple="multiple" in attributes,
        step=attributes.get("step"),
        value_attribute=attributes.get("value"),
        **limits,
    )
    validity = {
        "typeMismatch": _values.type_mismatch(input_type, sanitized, multiple="multiple" in attributes),
        "rangeUnderflow": _values.range_underflow(input_type, sanitized, **limits),
        "rangeOverflow": _values.range_overflow(input_type, sanitized, **limits),
        "stepMismatch": _values.step_mismatch(
            input_type,
            sanitized,
            step=attributes.get("step"),
            value_attribute=attributes.get("value"),
            **limits,
        ),
        "badInput": False,  # only a user's half-typed input is bad; a script's never is
    }
    return {
        "sanitized": sanitized,
        "validity": validity,
        "valueAsNumber": _values.value_as_number(input_type, sanitized),
    }


def differences(rows: list[dict[str, Any]]) -> list[str]:
    """One readable line per row where ``_values`` and Chromium disagree."""
    lines = []
    for row in rows:
        mine = ours(row)
        wrong = []
        if mine["sanitized"] != row["sanitized"]:
            wrong.append(f"value {mine['sanitized']!r} != chromium {row['sanitized']!r}")
        for flag in FLAGS:
            if mine["validity"][flag] != row["validity"][flag]:
                wrong.append(f"{flag} {mine['validity'][flag]} != chromium {row['validity'][flag]}")
        theirs = None if row["valueAsNumber"] is None else float(row["valueAsNumber"])
        if mine["valueAsNumber"] != theirs:
            wrong.append(f"valueAsNumber {mine['valueAsNumber']!r} != chromium {row['valueAsNumber']!r}")
        if wrong:
            attributes = " ".join(f"{name}={value!r}" for name, value in row["attributes"].items())
            lines.append(
                f"<input type={row['type']} {attributes}>.value = {row['value']!r}: " + "; ".join(wrong)
            )
    return lines


def test_corpus_is_large_and_from_chromium_156() -> None:
    assert RECORDED["chromium"].startswith("156.")
    # the browser and flags every recording names (scripts/_recording.py, stamped)
    assert RECORDED["browser"] == json.loads((EXPECTED / "BROWSER.json").read_text("utf-8"))
    assert len(RECORDED["rows"]) >= 3000


@pytest.mark.spec_step("exec-fill-5.1", "exec-submit-4.2")
@pytest.mark.parametrize("input_type", sorted({row["type"] for row in RECORDED["rows"]}))
def test_recorded_rows_agree(input_type: str) -> None:
    rows = [row for row in RECORDED["rows"] if row["type"] == input_type]
    wrong = differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} {input_type} rows disagree:\n" + "\n".join(wrong)


@pytest.mark.spec_step("exec-fill-5.1")
def test_no_script_set_value_is_bad_input() -> None:
    assert not any(row["validity"]["badInput"] for row in RECORDED["rows"])


@pytest.mark.parametrize(
    ("text", "parse", "expected"),
    [
        ("1970-01-01", _values.parse_date, 0),
        ("275760-09-13", _values.parse_date, 8_640_000_000_000_000),
        ("1970-02", _values.parse_month, 1),
        ("1969-12", _values.parse_month, -1),
        ("1970-W01", _values.parse_week, -259_200_000),
        ("2015-W53", _values.parse_week, 1_451_260_800_000),
        ("23:59:59.999", _values.parse_time, 86_399_999),
        ("1970-01-02 00:00:01.5", _values.parse_datetime_local, 86_401_500),
        ("2014-W53", _values.parse_week, None),
        ("24:00", _values.parse_time, None),
    ],
)
def test_parsers_return_the_spec_numbers(text: str, parse: Any, expected: int | None) -> None:
    assert parse(text) == expected


@pytest.mark.browser
def test_fresh_random_cases_agree_with_live_chromium(chromium) -> None:
    """FORMTOOLS_VALUES_CASES cases (default 400) drawn with FORMTOOLS_VALUES_SEED (default 1)."""
    cases = random_cases(LIVE_CASES, LIVE_SEED)
    rows = [{**case, **answer} for case, answer in zip(cases, ask(chromium.page, cases), strict=True)]
    wrong = differences(rows)
    assert not wrong, f"{len(wrong)} of {len(rows)} cases (seed {LIVE_SEED}) disagree:\n" + "\n".join(wrong)
