"""Record how Chromium sanitizes and validates input values, for ``tests/test_values.py``.

The corpus is (input type, attributes, value) cases: the rows of wpt's tables for the input
types and constraint flags (the values are wpt's; the answers are Chromium's, which sometimes
differ from wpt's expectations), hand-picked edge cases, and seeded random mutations. For each
case the browser creates an ``<input>``, sets the attributes, assigns ``.value`` by script and
reports ``.value``, five ``validity`` flags and ``valueAsNumber``. The answers go to
``fixtures/expected/value-rules.json``.

    PYTHONPATH=src python scripts/record_value_rules.py [--seed N] [--random N]
"""

from __future__ import annotations

import argparse
import random
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the shared helpers live in the scripts package
    sys.path.insert(0, str(ROOT))

from scripts._recording import evaluate_in_batches, stamped, weighted_draws  # noqa: E402

OUTPUT = ROOT / "fixtures" / "expected" / "value-rules.json"
FLAGS = ("typeMismatch", "rangeUnderflow", "rangeOverflow", "stepMismatch", "badInput")

Case = dict[str, Any]  # {"type", "attributes", "value", "source"}

# Runs in the page: one <input> per case, never attached (nothing but the value is observed).
ASK_JS = """
(cases) => cases.map((c) => {
  const input = document.createElement("input");
  input.setAttribute("type", c.type);
  for (const [name, value] of Object.entries(c.attributes)) input.setAttribute(name, value);
  input.value = c.value;
  const validity = {};
  for (const flag of %s) validity[flag] = input.validity[flag];
  const number = input.valueAsNumber;
  return {sanitized: input.value, validity, valueAsNumber: Number.isNaN(number) ? null : number};
})
""" % list(FLAGS)


def case(input_type: str, value: str, source: str, /, **attributes: str) -> Case:
    return {"type": input_type, "attributes": attributes, "value": value, "source": source}


# --- wpt's tables (html/semantics/forms/the-input-element and forms/constraints) ----------------


def wpt_cases() -> list[Case]:
    # fmt: off
    rows: list[Case] = []

    def add(input_type: str, source: str, values: list[str], **attributes: str) -> None:
        rows.extend(case(input_type, value, "wpt:" + source, **attributes) for value in values)

    add("date", "date.html", [
        "2011-11-01", "1999-01-31", "2099-01-31", "invalid-date", "2014-01-31", "2014-01-32",
        "2014-03-31", "2014-03-32", "2014-05-31", "2014-05-32", "2014-07-31", "2014-07-32",
        "2014-08-31", "2014-08-32", "2014-10-31", "2014-10-32", "2014-12-31", "2014-12-32",
        "2014-04-30", "2014-04-31", "2014-06-30", "2014-06-31", "2014-09-30", "2014-09-31",
        "2014-11-30", "2014-11-31", "2014-02-28", "2014-02-29", "2016-02-29",
    ])
    add("date", "date.html", ["2011-11-01", "1999-01-31", "2099-01-31"], min="2011-01-01", max="2011-12-31")
    add("date", "date.html", ["2011-01-01"], min="1999-1", max="2011-12-31")
    add("date", "date.html", ["2011-01-01"], min="2011-01-01", max="2011-13-162-777")
    add("date", "date.html", ["2011-01-01"], min="2099-01-01", max="2011-12-31")
    add("month", "month.html", ["2011-11", "1999-01", "2099-01", "invalid-month"],
        min="2011-01", max="2011-12")
    add("month", "month.html", ["2011-01"], min="invalid_min", max="2011-12")
    add("month", "month.html", ["2011-01"], min="2011-01", max="invalid_max")
    add("month", "month.html", ["2011-01"], min="2099-01", max="2011-12")
    add("month", "month.html", ["", "13-06", "invalid value", "2013-13", "2013-00", "2013-06"])
    add("month", "month.html", ["2013-06"], step="invalid_step_value")
    add("week", "week.html", [
        "", "2014-W52", "2014-W53", "2015-W53", "2014", "2014W", "2014W52", "-W52", "2017-w52",
        "2017-W52-", "2017-W52-12", "W52",
    ])
    add("week", "week.html", ["2014-W03", "2014-W01"], min="2014-W02")
    add("week", "week.html", ["2014-W10", "2014-W12"], max="2014-W11")
    add("time", "time-2.html", [
        "", "00:00", "00:00:00", "00:00:00.0", "00:00:00.00", "00:00:00.000", "00:00:00.0000",
        "0:00:00.000", "00:0:00.000", "00:00:0.000", "24:00:00.000", "00:60:00.000", "00:00:60.000",
    ])
    add("time", "time-2.html", ["12:00:00.001", "12:00:00.000"], min="12:00:00.000")
    add("time", "time-2.html", ["12:00:00.001", "12:00:00.000"], min="12:00:00.001")
    add("time", "time-2.html", ["12:00:00.000", "12:00:00.001"], max="12:00:00.001")
    add("time", "time-2.html", ["12:00:00.001"], max="12:00:00.000")
    add("time", "time.html", ["12:00:00.000", "hh:mi:ss.sss"])
    add("time", "time.html", ["12:00"], min="01:01:01.001", max="12:12:12.012", step="600")
    add("datetime-local", "datetime-local.html", [
        "", "2014-01-01T11:11:11.111", "2014-01-01 11:11:11.111", "2014-01-01 11:11",
        "2014-01-01 00:00:00.000", "2014-01-0 11:11", "2014-01-01 11:1", "2014-01-01 11:1d1",
        "2014-01-01H11:11", "2014-01-01 11:11:", "2014-01-01 11-11", "2014-01-01 11:11:123",
        "2014-01-01 11:11:12.1234",
    ])
    add("datetime-local", "datetime-local.html", ["2014-01-01 11:12", "2014-01-01 11:10"],
        min="2014-01-01 11:11")
    add("datetime-local", "datetime-local.html", ["2014-01-01 11:10", "2014-01-01 11:12"],
        max="2014-01-01 11:11")
    add("datetime-local", "datetime-local-trailing-zeros.html", ["2022-04-19T12:34:56.010"])
    add("number", "number.html", [
        "", "11", "11.12", "-11111", "-11111.123", "1e2", "1E2", "1e+2", "1e-2", "1d+2", "foobar",
        ".1", "1.", "-0", "Infinity", "-Infinity", "NaN", "9007199254740993", "2e308", "1e", "+1",
        "+", "-", " 1", "1trailing junk",
    ])
    add("number", "number.html", ["11", "9"], min="10")
    add("number", "number.html", ["19", "21"], max="20")
    for attributes in (
        {"min": "0", "max": "5"}, {"min": "0", "max": "5", "value": "-10"},
        {"min": "0", "max": "5", "value": "7"}, {}, {"min": "2", "max": "6"},
        {"min": "0", "max": "7", "step": "2"}, {"min": "2", "max": "-3"},
        {"min": "5", "max": "12.6", "value": "6.7"}, {"min": "5.3", "max": "12", "value": "6.7"},
        {"min": "5", "max": "12.6", "step": "0.5", "value": "6.7"},
        {"min": "5.3", "max": "12", "step": "0.5", "value": "6.7"},
        {"min": "3", "max": "14", "value": "6", "step": "3"},
        {"min": "3", "max": "11", "value": "9", "step": "3"},
        {"min": "ab", "max": "f"}, {"min": "0", "max": "5", "value": "ppp", "step": "xyz"},
    ):
        rows.append(case("range", attributes.get("value", ""), "wpt:range.html", **attributes))
    colors = [
        "", "#ffffff", "#FFFFFF", "#0F0F0F", "#fff", "#fffffff", "fffffff", "#gggggg", "foobar",
        "#ffffff\u0000", "#ffffff;", " #ffffff", "#ffffff ", " #ffffff ", "crimson", "bisque",
        "currentColor", "transparent", "inherit", "rgb(1,1,1)", "rgb(1,1,1,1)", "#FFFFF\u1F4A9",
        "hsl(150deg 100 53.5)", "color(display-p3 .5 0 0)", "color(display-p3 1 0 0)", "ActiveBorder",
    ]
    add("color", "color.html", colors)
    add("color", "color.window.js", ["#ffffff08", "rgb(1,1,1,0.5)"])
    add("email", "email.html", ["", "user2@example.com\n", "user3@example.com\r", "user4@example.com",
                                "  user@example.com  , user2@example.com  "])
    add("email", "email.html", ["user1@example.com, user2@test.com", "user,@example.com",
                                "user@e\\U000Axample.com", "user@e\\U000Dxample.com",
                                "  user1@example.com  , user2@test.com, user3@test.com  "], multiple="")
    add("email", "email-validity.window.js", [
        "a", "a@a", "a@\u00f1", "\u00f1@\u00f1", "a@123", "a@123.123.123.123", "a@123.123.123.123.123",
        "a@0xFFFFFFFFF", "a@[123.123.123.123]", "a@\ufffd", "a@[::1]",
    ])
    add("email", "form-validation-validity-typeMismatch.html", [
        "", "test@example.com", "\n\r \t test@example.com \n\r \t", "abc",
        "test1@example.com,test2@example.com",
    ])
    add("email", "form-validation-validity-typeMismatch.html",
        ["test1@example.com,test2@example.com", "test1@example.com;test2@example.com"], multiple="")
    add("email", "form-validation-validity-badInput.html", ["", "test1@example.com"])
    add("email", "form-validation-validity-badInput.html",
        ["test1@example.com,test2@eample.com", "test,1@example.com"], multiple="")
    add("url", "url.html", ["a\na", "a\ra", "a\r\na", " aa ", " a a "])
    add("url", "form-validation-validity-typeMismatch.html", [
        "", "http://www.example.com", "\n\r \t http://www.example.com \n\r \t ", "abc",
    ])
    add("datetime-local", "form-validation-validity-badInput.html", ["", "2000-01-01T12:00:00", "abc"])
    add("color", "form-validation-validity-badInput.html", ["", "#000000", "#FFFFFF", "abc"])

    def step_rows(input_type: str, rows_: list[tuple[str, str]]) -> None:
        for step, value in rows_:
            rows.append(case(input_type, value, "wpt:form-validation-validity-stepMismatch.html", step=step))

    step_rows("date", [("", "2000-01-01"), ("2", ""), ("2", "1970-01-03"), ("2", "1970-01-02")])
    step_rows("month", [("", "2000-01"), ("2", ""), ("2", "1970-03"), ("2", "1970-04")])
    step_rows("week", [("", "1970-W01"), ("2", ""), ("2", "1970-W03"), ("2", "1970-W04")])
    step_rows("time", [("", "12:00:00"), ("120", ""), ("120", "12:02:00"), ("120", "12:03:00")])
    step_rows("datetime-local", [("", "2000-01-01T12:00:00"), ("120", ""), ("120", "1970-01-01T12:02:00"),
                                 ("120", "1970-01-01T12:03:00")])
    step_rows("number", [("", "1"), ("", "-.8"), ("2", ""), ("2", "2"), ("2", "3"), ("0.003", "3.6"),
                         ("1e-12", "-12345678.9"), ("3e-15", "17")])

    def range_rows(source: str, input_type: str, rows_: list[dict[str, str]]) -> None:
        for row in rows_:
            row = dict(row)
            value = row.pop("value")
            rows.append(case(input_type, value, "wpt:" + source, **{k: v for k, v in row.items() if v != ""}))

    over = "form-validation-validity-rangeOverflow.html"
    under = "form-validation-validity-rangeUnderflow.html"
    range_rows(over, "datetime-local", [
        {"max": "", "value": "2000-01-01T12:00:00"}, {"max": "2000-01-01T12:00:00", "value": ""},
        {"max": "2000-01-01  12:00:00", "value": "2001-01-01T12:00:00"},
        {"max": "2000-01-01T12:00:00", "value": "2000-01-01T11:00:00"},
        {"max": "2000-01-01T23:59:59", "value": "2001-01-01T24:00:00"},
        {"max": "1970-01-01T12:00", "value": "80-01-01T12:00"},
        {"max": "2000-01-01T12:00:00", "value": "2001-01-01T13:00:00"},
        {"max": "2000-01-01T12:00:00.1", "value": "2000-01-01T12:00:00.2"},
        {"max": "2000-01-01T12:00:00.01", "value": "2000-01-01T12:00:00.02"},
        {"max": "2000-01-01T12:00:00.001", "value": "2000-01-01T12:00:00.002"},
        {"max": "2000-01-01T12:00:00", "value": "10000-01-01T12:00:00"},
    ])
    range_rows(over, "date", [
        {"max": "", "value": "2000-01-01"}, {"max": "2000-01-01", "value": ""},
        {"max": "2000/01/01", "value": "2002-01-01"}, {"max": "2000-01-01", "value": "2000-2-2"},
        {"max": "987-01-01", "value": "988-01-01"}, {"max": "2000-01-01", "value": "2000-13-01"},
        {"max": "2000-01-01", "value": "2000-02-30"}, {"max": "2000-12-01", "value": "2000-01-01"},
        {"max": "2000-12-01", "value": "2001-01-01"}, {"max": "9999-01-01", "value": "10000-01-01"},
    ])
    range_rows(over, "time", [
        {"max": "", "value": "12:00:00"}, {"max": "12:00:00", "value": ""},
        {"max": "12.00.00", "value": "12:00:01"},
        {"max": "12:00:00", "value": "12.00.01"}, {"max": "23:59:59", "value": "24:00:00"},
        {"max": "23:59:59", "value": "23:60:00"}, {"max": "23:59:59", "value": "23:59:60"},
        {"max": "13:00:00", "value": "12:00:00"}, {"max": "12:00:00", "value": "13"},
        {"max": "12:00:00", "value": "12:00:02"}, {"max": "12:00:00.1", "value": "12:00:00.2"},
        {"max": "12:00:00.01", "value": "12:00:00.02"}, {"max": "12:00:00.001", "value": "12:00:00.002"},
        {"max": "12:00:00", "value": "12:01"}, {"max": "12:00:00", "min": "14:00:00", "value": "12:00:00"},
        {"max": "12:00:00", "min": "14:00:00", "value": "13:00:00"},
        {"max": "12:00:00", "min": "14:00:00", "value": "14:00:00"},
        {"max": "12:00:00", "min": "14:00:00", "value": "15:00:00"},
    ])
    range_rows(over, "number", [
        {"max": "", "value": "10"}, {"max": "5", "value": ""}, {"max": "5", "value": "4"},
        {"max": "-5.5", "value": "-5.6"}, {"max": "-0", "value": "0"}, {"max": "5", "value": "1abc"},
        {"max": "5", "value": "6"}, {"max": "-5.5", "value": "-5.4"}, {"max": "-1", "value": "-.8"},
        {"max": "-5e-1", "value": "5e+2"},
    ])
    range_rows(under, "datetime-local", [
        {"min": "", "value": "2000-01-01T12:00:00"}, {"min": "2000-01-01T12:00:00", "value": ""},
        {"min": "2001-01-01  12:00:00", "value": "2000-01-01T12:00:00"},
        {"min": "2000-01-01T11:00:00", "value": "2000-01-01T12:00:00"},
        {"min": "2001-01-01T23:59:59", "value": "2000-01-01T24:00:00"},
        {"min": "1980-01-01T12:00", "value": "79-01-01T12:00"},
        {"min": "2000-01-01T13:00:00", "value": "2000-01-01T12:00:00"},
        {"min": "2000-01-01T12:00:00.2", "value": "2000-01-01T12:00:00.1"},
        {"min": "2000-01-01T12:00:00.02", "value": "2000-01-01T12:00:00.01"},
        {"min": "2000-01-01T12:00:00.002", "value": "2000-01-01T12:00:00.001"},
        {"min": "10000-01-01T12:00:00", "value": "2000-01-01T12:00:00"},
        {"max": "8593-01-01T02:09", "value": "8592-01-01T02:09"},
    ])
    range_rows(under, "date", [
        {"min": "", "value": "2000-01-01"}, {"min": "2000-01-01", "value": ""},
        {"min": "2001/01/01", "value": "2000-01-01"}, {"min": "2000-02-02", "value": "2000-1-1"},
        {"min": "988-01-01", "value": "987-01-01"}, {"min": "2001-01-01", "value": "2000-13-01"},
        {"min": "2001-01-01", "value": "2000-02-30"}, {"min": "2000-01-01", "value": "2000-12-01"},
        {"min": "2000-12-01", "value": "2000-01-01"}, {"min": "10000-01-01", "value": "9999-01-01"},
    ])
    range_rows(under, "time", [
        {"min": "", "value": "12:00:00"}, {"min": "12:00:00", "value": ""},
        {"min": "12.00.01", "value": "12:00:00"},
        {"min": "12:00:01", "value": "12.00.00"}, {"min": "12:00:00", "value": "13:00:00"},
        {"min": "13:00:00", "value": "12"}, {"min": "12:00:02", "value": "12:00:00"},
        {"min": "12:00:00.2", "value": "12:00:00.1"}, {"min": "12:00:00.02", "value": "12:00:00.01"},
        {"min": "12:00:00.002", "value": "12:00:00.001"}, {"min": "12:00:00", "value": "11:59"},
        {"min": "14:00:00", "max": "12:00:00", "value": "12:00:00"},
        {"min": "14:00:00", "max": "12:00:00", "value": "13:00:00"},
        {"min": "14:00:00", "max": "12:00:00", "value": "14:00:00"},
        {"min": "14:00:00", "max": "12:00:00", "value": "15:00:00"},
    ])
    range_rows(under, "number", [
        {"min": "", "value": "10"}, {"min": "5", "value": ""}, {"min": "4", "value": "5"},
        {"min": "-5.6", "value": "-5.5"}, {"min": "0", "value": "-0"}, {"min": "5", "value": "6abc"},
        {"min": "6", "value": "5"}, {"min": "-5.4", "value": "-5.5"}, {"min": "1", "value": "-.8"},
        {"min": "5e+2", "value": "-5e-1"},
    ])
    month_week = "form-validation-validity-range{}-weekmonth.html"
    range_rows(month_week.format("Overflow"), "month", [
        {"max": "", "value": "2000-01"}, {"max": "2000-01", "value": ""},
        {"max": "2000/01", "value": "2001-02"},
        {"max": "2000-01", "value": "2000-1"}, {"max": "987-01", "value": "988-01"},
        {"max": "2000-01", "value": "2000-13"}, {"max": "2000-12", "value": "2000-01"},
        {"max": "2000-01", "value": "2000-12"}, {"max": "9999-01", "value": "10000-01"},
    ])
    range_rows(month_week.format("Overflow"), "week", [
        {"max": "", "value": "2000-W01"}, {"max": "2000-W01", "value": ""},
        {"max": "2000/W01", "value": "2001-W02"},
        {"max": "2000-W01", "value": "2000-W2"}, {"max": "2000-W01", "value": "2000-w02"},
        {"max": "987-W01", "value": "988-W01"}, {"max": "2000-W01", "value": "2000-W57"},
        {"max": "2000-W12", "value": "2000-W01"}, {"max": "2000-W01", "value": "2000-W12"},
        {"max": "9999-W01", "value": "10000-W01"},
    ])
    range_rows(month_week.format("Underflow"), "month", [
        {"min": "", "value": "2000-01"}, {"min": "2000-01", "value": ""},
        {"min": "2001/01", "value": "2000-02"},
        {"min": "2000-02", "value": "2000-1"}, {"min": "988-01", "value": "987-01"},
        {"min": "2001-01", "value": "2000-13"}, {"min": "2000-01", "value": "2000-12"},
        {"min": "2001-01", "value": "2000-12"}, {"min": "10000-01", "value": "2000-01"},
    ])
    range_rows(month_week.format("Underflow"), "week", [
        {"min": "", "value": "2000-W01"}, {"min": "2000-W01", "value": ""},
        {"min": "2001/W02", "value": "2000-W01"},
        {"min": "2001-W02", "value": "2000-W1"}, {"min": "2001-W02", "value": "2000-w01"},
        {"min": "988-W01", "value": "987-W01"}, {"min": "2001-W01", "value": "2000-W57"},
        {"min": "2000-W01", "value": "2000-W12"}, {"min": "2000-W12", "value": "2000-W01"},
        {"min": "10000-W01", "value": "2000-W01"},
    ])
    return rows
    # fmt: on


# --- hand-picked edges --------------------------------------------------------------------------


def edge_cases() -> list[Case]:
    # fmt: off
    rows: list[Case] = []

    def add(input_type: str, values: list[str], **attributes: str) -> None:
        rows.extend(case(input_type, value, "edge", **attributes) for value in values)

    for input_type in ("text", "search", "tel", "password", "hidden", "checkbox", "radio"):
        add(input_type, ["", " a ", "a\nb", "a\r\nb", "\r", "\t a\u00a0", "a\u2028b", "x\u0000y"])
    add("number", [
        "0x10", "1e400", "1e-400", "00012", "-.5e-3", " 1 ", "\t1", "1.e5", "1.5e", "1e+", "--1", "-+1",
        ".", "-.", "0.0", "-0.0", "1_000", "\u0661", "1,5", "1e308", "1.7976931348623157e308",
        "1.7976931348623159e308", "4.9e-324", "123456789012345678901234567890",
    ])
    add("number", ["1", "1.5", "0.30000000000000004", "1e-7", "100000000000000000000"], step="0.1", min="0")
    add("number", ["0.3", "0.7", "1"], step="0.1", min="0.3")
    add("number", ["5", "-5", "5.5"], step="any", min="1")
    add("number", ["4", "5", "6"], step="2", min="abc", value="4")
    add("number", ["3", "4"], step="2", value="abc")
    add("number", ["1", "2"], step="0")
    add("number", ["1.5"], step="-1")
    add("number", ["7"], min="10", max="5")
    add("number", ["12", "3"], min="10", max="5")
    add("number", ["1e21", "1e22"], step="1e20")
    for attributes in (
        {"min": "0", "max": "10", "step": "any"}, {"min": "0", "max": "10", "step": "ANY"},
        {"min": "-10", "max": "10", "step": "2"}, {"max": "10", "step": "3", "value": "7"},
        {"min": "0", "max": "1", "step": "0.1"}, {"min": "0", "max": "100", "step": "1e2"},
        {"min": "0", "max": "1000"}, {"min": "1e1", "max": "1e3"}, {"min": "-0", "max": "-0"},
        {"min": "0.1", "max": "0.2", "step": "0.05"}, {"min": "0", "max": "100", "step": "200"},
        {"min": "-5", "max": "5", "step": "10"}, {"min": "0", "max": "1e30"}, {"min": "-1", "max": "1"},
    ):
        add("range", ["", "abc", "3.3", "-0", "1e2", "50", "5.5", "2.5", "-2.5", "1e40", "0.15", "7"],
            **attributes)
    add("date", ["0001-01-01", "0000-12-31", "275760-09-13", "275760-09-14", "275760-10-01", "02014-01-01",
                 "2014-1-01", "2014-01-1", " 2014-01-01", "2014-01-01 ", "2014-01-01T", "+2014-01-01",
                 "1900-02-29", "2000-02-29", "2100-02-29", "9999999999-01-01"])
    add("month", ["0001-01", "275760-09", "275760-10", "2014-1", "2014-001", "02014-12"])
    add("week", ["2020-W53", "2021-W53", "2026-W53", "275760-W37", "275760-W38", "0001-W01", "2004-W53",
                 "2015-W00", "2015-W1", "2015-W054", "2015-W5a"])
    add("time", ["23:59:59.999", "23:59", "12:00:00.", "12:00:.5", "12:00:5", "12:00:05.1234", "12:60",
                 "1200", "12:00:00Z", "12:00 ", "T12:00", "12:00:60", "12:00:59.9"])
    add("datetime-local", ["2014-01-01t11:11", "2014-01-01T11:11:00", "2014-01-01T11:11:00.000",
                           "2014-01-01T11:11:00.100", "2014-01-01T11:11:05.500", "275760-09-13T00:00",
                           "275760-09-13T00:00:00.001", "275760-09-12T23:59:59.999", "02014-01-01T00:00",
                           "2014-01-01T24:00", "2014-01-01  11:11"])
    add("time", ["23:00", "01:00", "12:00"], min="22:00", max="02:00")
    add("time", ["23:00"], min="22:00")
    add("time", ["00:00:00.001", "00:00:01"], step="0.001")
    add("time", ["00:00:00.5", "00:00:01"], step="0.0004")
    add("date", ["2000-01-02", "2000-01-03"], step="1.5", min="2000-01-01")
    add("week", ["1970-W02", "1970-W03"], step="2")
    add("week", ["1970-W02", "1970-W03"], step="2", value="1970-W02")
    add("month", ["1970-02", "1970-03"], step="0.4")
    add("email", ["a@b,c@d", "a@-b", "a@b-", "a@b..c", "a@b.", "a@" + "b" * 63, "a@" + "b" * 64, ".a@b",
                  "a@b_c", "\u212a@b", "a@xn--zz", "a@b\u00a0", "a\tb@c", "a@@b", "@b", "a@", "a b@c"])
    add("email", ["a@b,", "a@b,,c@d", ",", ",a@b", "a@b;c@d", "a@b , ", "\ta@b\t,\fc@d\f", "a@b,\u00a0c@d"],
        multiple="")
    add("url", [
        "a:", "http://", "http:a", "http://a b", "http://[::1", "http://[1:2]", "http://999.1.1.1",
        "http://1.2.3",
        "http://0x7f.1", "http://a:65536", "http://a:x", "http://a:", "http://@a", "http://a@", "http://a%b",
        "http://a%41", "http://a%00", "http://\u00f1.com", "http://a.1", "http://1.a", "http://08.1.1.1",
        "http://09", "http://0x", "http://0xg", "http://1.2.3.4..", "http://4294967295", "http://4294967296",
        "foo://a b", "foo://[x]", "foo://a:x", "foo://", "1a:b", "+a:b", "a b:c", "chrome:", "chrome://x",
        "file:", "file://a<b/", "file://a:1/", "filesystem:http://a/x/", "filesystem:http://a/",
        "http://\u0627b", "http://\u200d", "http://\u00ad", "http://\uff1c", "http://\u3002com",
        "http://xn--zz", "http://\U0001F600.com", "http://a\u2024b", "\u00a0http://a", "http://a%2Fb",
        "http://[::ffff:1.2.3.4]", "http://[::1.2.3.4.5]", "http://[1::2::3]", "http://a:b:c@d",
    ])
    add("color", [
        "red ", " red", "\tred\n", "RED", "Red", "#FfF", "#ffff", "#ffff0080", "#12345678", "#1234", "#12345",
        "rgb(300, -5, 127.5)", "rgb(0.5 0.5 0.5)", "rgb(1.5 1.5 1.5)", "color-mix(in srgb, red, blue)",
        "light-dark(red, blue)", "rgb(from red r g b)", "hwb(120 10% 10%)", "lab(50% 40 59.5)",
        "oklch(70% 0.1 200)", "lch(50 200 30)", "oklab(0.5 0.3 0.3)", "color(xyz 0.5 0.5 0.5)",
        "color(srgb 1.5 -1 0.5)", "rgb(50%, 0, 0)", "rgb(none 0 0)", "hsl(none 100% 50%)", "rgb(1,1,1,)",
        "rgb(1,1,1", "rgb(calc(10+5),0,0)", "rgb(calc(10 + 5),0,0)", "hsl(0.5turn 100% 50%)",
        "hsl(3.14rad 100% 50%)", "hsl(200grad 100% 50%)", "rgb(1,2,3 / 0.5)", "rgb(1,/**/1,1)",
        "/**/rgb(1,1,1)", "red/**/", "\\72 ed", "lab(calc(50) 0 0)", "color(srgb calc(0.5) 0 0)",
        "rgb(calc(infinity) 0 0)", "rgb(calc(NaN) 0 0)", "rgb(round(10.5) 0 0)", "rgb(calc(pi * 10) 0 0)",
        "color(rec2020 0.5 0.5 0.5)", "color(prophoto-rgb 0.5 0.5 0.5)", "color(a98-rgb 0.5 0.5 0.5)",
        "color(display-p3-linear 0.5 0.5 0.5)", "color(rec2100-pq 0.5 0.5 0.5)", "-webkit-link",
        "AccentColor",
    ])
    # found by fuzzing: Chromium's fast path for rgb() and hsl(), far-future datetime-local
    # milliseconds, a range's default, hosts of file and non-special URLs
    add("color", [
        "rgba(1,2,3,0)0)", "rgb(1,2,3,5)x9)", "rgb(1 2 3 / 0)0)", "hsla(120,100%,50%,0)0)", "rgb(1,2,3,0.5))",
        "rgb(1,2,3,0 )0)", "hsl(0 117.2% 11%)", "hsl(0 117.2% 11% / 50%)", " hsl(0 117.2% 11%)",
        "HSL(0 117.2% 11%)",
        "hsl(0 117.2 11)", "hsl(0, 117.2%, 11%, 0.5)x1)", "hsl(0.5turn 117.2% 11%)",
        "hsl(0 117.2% 11% / .5 )",
        "hsl(0 300 110)", "hsl(0 300 -10)", "hwb(0 50% -30%)", "hwb(218 75 109.1)", "hwb(0 2 70 / 50%)",
        "hsla(-30 107.0 80 / 1)", "hsl(calc(71.2762 + 2), 118.3%, 96%)",
    ])
    add("datetime-local", ["100000-01-01T00:01", "275759-03-04T11:30", "50000-07-02T07:47:38.352",
                           "2300-01-01T00:00:00.001"])
    add("datetime-local", ["100000-01-01T00:01"], step="0.001")
    add("range", ["x", "100", "100.4"], min="1E+2", max="100.9")
    add("range", ["x"], min="-5511392413878204495438.55")
    add("range", ["x", "4.375"], value="7", step="0.25", max="8.933333333333333333333333333")
    add("range", ["x", "4"], value="7", step="2")
    add("url", ["file://zc", "file://zc#f", "file://zc?q", "file:///#x", "mailto://:#f", "foo://a\u200db",
                "foo://a\u4e00b", "foo://a\u0140b", "foo://a\U0001F600b", "foo://a\U00010023b",
                "chrome://a:x",
                "filesystem:http://a/b", "file://1.zb0%41b.\u0627", "http://a-.\u0627"])
    # every named and system color, in an odd case, exercises the keyword tables
    from formtools._forms.values.color import _NAMED_COLORS, _SYSTEM_COLORS

    add("color", [name.capitalize() for name in sorted(_NAMED_COLORS) + sorted(_SYSTEM_COLORS)])
    return rows
    # fmt: on


# --- seeded random mutations --------------------------------------------------------------------

_NOISE = "0123456789-:.TWtw ,/+eE#%@()x\u00a0"


def _mutate(rng: random.Random, text: str, alphabet: str = _NOISE) -> str:
    operation = rng.randrange(4)
    position = rng.randrange(len(text) + 1)
    if operation == 0 or not text:
        return text[:position] + rng.choice(alphabet) + text[position:]
    if operation == 1:
        return text[:position] + text[position + 1 :]
    if operation == 2:
        return text[:position] + rng.choice(alphabet) + text[position + 1 :]
    return text[:position] + text[position : position + 2] * 2 + text[position + 2 :]


def _maybe_mutate(rng: random.Random, text: str, chance: float = 0.25) -> str:
    while rng.random() < chance:
        text = _mutate(rng, text)
    return text


def _number_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        text = str(rng.choice([rng.randint(-20, 120), rng.randint(-(10**6), 10**6), rng.randint(0, 10**20)]))
    elif roll < 0.6:
        text = f"{rng.uniform(-1000, 1000):.{rng.randint(1, 5)}f}"
    elif roll < 0.75:
        text = (
            f"{rng.choice(['', '-'])}{rng.choice(['1', '2.5', '.5', '12', '9.99'])}{rng.choice('eE')}"
            f"{rng.choice(['', '+', '-'])}{rng.randint(0, 25)}"
        )
    elif roll < 0.85:
        text = rng.choice(
            [
                "",
                "-0",
                "+1",
                " 1",
                "1 ",
                "1.",
                ".",
                "-",
                "1e",
                "0x10",
                "Infinity",
                "NaN",
                "1e400",
                "1e-400",
                "9007199254740993",
                "1,5",
                "0.1",
                "0.2",
                "0.3",
                "1e21",
                "5e-324",
            ]
        )
    else:
        text = _mutate(rng, str(rng.randint(-50, 50)), "0123456789.-+eE x")
    return text


def _random_number_case(rng: random.Random) -> Case:
    attributes: dict[str, str] = {}
    base = Decimal(rng.choice(["0", "0.1", "0.3", "-1.5", "7", "1e3", "100", "-0.25", "0.001"]))
    step = Decimal(
        rng.choice(["1", "0.1", "0.01", "0.003", "0.5", "2", "3", "1e-12", "3e-15", "1e-7", "1e20", "0.7"])
    )
    if rng.random() < 0.6:
        attributes["min" if rng.random() < 0.7 else "value"] = str(base)
    if rng.random() < 0.7:
        attributes["step"] = (
            rng.choice([str(step), format(step, "e"), "any", "0", "-1", "abc"])
            if rng.random() < 0.3
            else str(step)
        )
    if rng.random() < 0.3:
        attributes["max"] = _number_text(rng)
    if rng.random() < 0.2:
        attributes["min"] = _number_text(rng)
    if rng.random() < 0.5:
        multiple = rng.randint(-1000, 1000)
        offset = rng.choice(
            [Decimal(0), Decimal(0), step / 2, step / 3, step * Decimal("1e-8"), -step * Decimal("1e-9")]
        )
        value = base + step * multiple + offset
        text = rng.choice([str(value), format(value, "f"), format(value.normalize(), "e") if value else "0"])
    elif rng.random() < 0.8:
        text = _number_text(rng)
    else:
        text = _long_number(rng)
    return case("number", text, "random", **attributes)


def _random_range_case(rng: random.Random) -> Case:
    attributes: dict[str, str] = {}
    minimum = Decimal(rng.choice(["0", "-10", "1", "0.5", "-2.5", "3", "1e2", "0.1", "-0.3"]))
    step = Decimal(rng.choice(["1", "2", "0.5", "0.1", "3", "0.25", "7", "0.05", "10", "0.3", "1e-3"]))
    span = step * rng.randint(1, 40) + rng.choice([Decimal(0), step / 2, step / 3])
    if rng.random() < 0.8:
        attributes["min"] = (
            str(minimum) if rng.random() < 0.85 else rng.choice(["", "x", "1e", format(minimum, "e")])
        )
    if rng.random() < 0.8:
        attributes["max"] = (
            str(minimum + span) if rng.random() < 0.85 else rng.choice(["", "-5", "x", str(minimum - 1)])
        )
    if rng.random() < 0.7:
        attributes["step"] = (
            str(step) if rng.random() < 0.8 else rng.choice(["any", "0", "-1", "x", format(step, "e")])
        )
    if rng.random() < 0.3:
        attributes["value"] = rng.choice([str(minimum + step / 2), "x", str(minimum + 1), "7"])
    if rng.random() < 0.1:
        attributes[rng.choice(["min", "max", "step", "value"])] = _long_number(rng)
    roll = rng.random()
    if roll < 0.4:  # exactly between two steps: the tie rule decides
        text = str(minimum + step * rng.randint(-3, 45) + step / 2)
    elif roll < 0.7:
        text = str(minimum + Decimal(rng.randint(-200, 2000)) / 37)
    else:
        text = _number_text(rng)
    return case("range", text, "random", **attributes)


def _date_text(rng: random.Random) -> str:
    year = rng.choice(
        [rng.randint(1, 9999), rng.randint(1, 275760), 1970, 2000, 1900, 2016, 275760, 275759, 1, 0, 10000]
    )
    month = rng.choice([rng.randint(1, 12), rng.randint(1, 12), 0, 13, 2, 9])
    day = rng.choice([rng.randint(1, 28), 29, 30, 31, 32, 0, 13, 14])
    return f"{year:0{rng.choice([4, 4, 4, 5, 6])}d}-{month:02d}-{day:02d}"


def _month_text(rng: random.Random) -> str:
    year = rng.choice([rng.randint(1, 9999), 1970, 1969, 275760, 1, 0, 10000])
    return f"{year:04d}-{rng.choice([rng.randint(1, 12), 0, 13, 9, 10]):02d}"


def _week_text(rng: random.Random) -> str:
    year = rng.choice([rng.randint(1, 9999), 1970, 1969, 2015, 2020, 2026, 275760, 1, 10000])
    return f"{year:04d}-W{rng.choice([rng.randint(1, 52), 53, 0, 54, 37, 38, 1]):02d}"


def _time_text(rng: random.Random) -> str:
    hour = rng.choice([rng.randint(0, 23), 24, 0, 23])
    minute = rng.choice([rng.randint(0, 59), 60, 0])
    text = f"{hour:02d}:{minute:02d}"
    if rng.random() < 0.6:
        text += f":{rng.choice([rng.randint(0, 59), 0, 60]):02d}"
        if rng.random() < 0.5:
            text += "." + "".join(rng.choice("0123456789") for _ in range(rng.choice([1, 2, 3, 3, 4, 0])))
    return text


def _datetime_text(rng: random.Random) -> str:
    return _date_text(rng) + rng.choice(["T", "T", " ", "t", "TT", "  "]) + _time_text(rng)


_TEMPORAL = {
    "date": (_date_text, ["1", "2", "7", "0.5", "1.5", "30", "any", "0", "-1", "x", "1e1", "2.5"]),
    "month": (_month_text, ["1", "2", "3", "12", "0.4", "1.5", "any", "0", "-2", "x"]),
    "week": (_week_text, ["1", "2", "4", "0.5", "1.5", "52", "any", "0", "x"]),
    "time": (
        _time_text,
        ["60", "1", "0.001", "0.5", "0.0004", "900", "3600", "7", "any", "0", "-60", "x", "86399"],
    ),
    "datetime-local": (_datetime_text, ["60", "1", "0.001", "120", "3600", "86400", "0.25", "any", "0", "x"]),
}


def _random_temporal_case(rng: random.Random, input_type: str) -> Case:
    make, steps = _TEMPORAL[input_type]
    attributes: dict[str, str] = {}
    for name in ("min", "max", "value"):
        if rng.random() < (0.2 if name == "value" else 0.4):
            attributes[name] = _maybe_mutate(rng, make(rng), 0.15)
    if rng.random() < 0.5:
        attributes["step"] = rng.choice(steps)
    return case(input_type, _maybe_mutate(rng, make(rng), 0.3), "random", **attributes)


_LOCAL = "abcxyzABC0189.!#$%&'*+/=?^_`{|}~-"
_DOMAIN = "abcxyz0189-"


def _random_email_case(rng: random.Random) -> Case:
    def address() -> str:
        local = "".join(rng.choice(_LOCAL) for _ in range(rng.randint(1, 6)))
        labels = [
            "".join(rng.choice(_DOMAIN) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 3))
        ]
        text = local + "@" + ".".join(labels)
        if rng.random() < 0.2:
            text = _mutate(rng, text, ' \t\n\r@.,-_\u00f1\u00a0[]"\\')
        return rng.choice(["", "", " ", "\t", "\n"]) + text + rng.choice(["", "", " ", "\f", "\r\n"])

    multiple = rng.random() < 0.4
    text = (
        address()
        if not multiple or rng.random() < 0.3
        else rng.choice([",", ", ", " ,"]).join(address() for _ in range(rng.randint(2, 3)))
    )
    return case("email", text, "random", **({"multiple": ""} if multiple else {}))


_SCHEMES = [
    "http",
    "https",
    "ftp",
    "ws",
    "wss",
    "HTTP",
    "foo",
    "mailto",
    "javascript",
    "data",
    "chrome",
    "blob",
    "file",
    "a+b",
    "x-y.z",
    "1a",
    "",
]
_HOST_CHARS = [
    "a",
    "b",
    "x",
    "0",
    "9",
    "-",
    ".",
    "_",
    "%41",
    "%2e",
    "%zz",
    "%",
    " ",
    "<",
    "^",
    "|",
    "[",
    "\\",
    "\u00f1",
    "\u00df",
    "\u4e2d",
    "\u0627",
    "\u200d",
    "\u00ad",
    "\u3002",
    "\uff0e",
    "\u0378",
    "!",
    "*",
    "~",
    "'",
    "\u2024",
    "\u00a0",
    "%C3%B1",
    "%80",
]


def _random_host(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.25:
        parts = [
            rng.choice(
                [
                    str(rng.randint(0, 300)),
                    "0x" + format(rng.randint(0, 300), "x"),
                    "0" + oct(rng.randint(0, 300))[2:],
                    str(rng.randint(0, 2**32 + 5)),
                    "",
                    "08",
                ]
            )
            for _ in range(rng.randint(1, 5))
        ]
        return ".".join(parts)
    if roll < 0.35:
        pieces = [format(rng.randint(0, 0xFFFFF), "x") for _ in range(rng.randint(1, 9))]
        text = ":".join(pieces)
        if rng.random() < 0.5:
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] + "::" + text[cut:]
        if rng.random() < 0.2:
            text += ":1.2.3." + str(rng.randint(0, 300))
        return "[" + text + ("]" if rng.random() < 0.9 else "")
    labels = [
        "".join(
            rng.choice(_HOST_CHARS) if rng.random() < 0.15 else rng.choice("abcxyz019")
            for _ in range(rng.randint(1, 6))
        )
        for _ in range(rng.randint(1, 3))
    ]
    return ".".join(labels)


def _random_url_case(rng: random.Random) -> Case:
    scheme = rng.choice(_SCHEMES)
    text = scheme + (":" if rng.random() < 0.95 else "")
    slashes = rng.choice(["//", "//", "//", "", "/", "///", "\\\\"])
    text += slashes
    if rng.random() < 0.15:
        text += rng.choice(["user", "u:p", "", "a b"]) + "@"
    text += _random_host(rng)
    if rng.random() < 0.25:
        text += ":" + rng.choice(["80", "", "65535", "65536", "x", "0008", "-1"])
    if rng.random() < 0.5:
        text += rng.choice(["/", "/p a", "/%zz", "?q=1", "#f", "/\u00e9", "\\p"])
    if rng.random() < 0.1:
        text = rng.choice([" ", "\t", "\u0001", "\u00a0", "\n"]) + text + rng.choice(["", " ", "\u0001"])
    return case("url", text, "random")


def _css_number(rng: random.Random, scale: float) -> str:
    value = rng.choice([rng.uniform(-0.2, 1.2) * scale, rng.randint(0, int(scale)), 0, scale])
    text = format(value, rng.choice([".0f", ".1f", ".3f", "g"]))
    return text


def _random_color_case(rng: random.Random) -> Case:
    roll = rng.random()
    if roll < 0.2:
        digits = "".join(
            rng.choice("0123456789abcdefABCDEF") for _ in range(rng.choice([3, 4, 6, 8, 6, 5, 7, 2]))
        )
        text = rng.choice(["", "", " ", "\n"]) + "#" + digits + rng.choice(["", "", " ", "\t", ";"])
        return case("color", _maybe_mutate(rng, text, 0.1), "random")
    if roll < 0.3:
        from formtools._forms.values.color import _NAMED_COLORS, _SYSTEM_COLORS

        name = rng.choice(
            sorted(_NAMED_COLORS) + sorted(_SYSTEM_COLORS) + ["transparent", "currentcolor", "none"]
        )
        name = "".join(ch.upper() if rng.random() < 0.3 else ch for ch in name)
        return case("color", _maybe_mutate(rng, name, 0.15), "random")
    function = rng.choice(["rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color"])
    legacy = function in ("rgb", "rgba", "hsl", "hsla") and rng.random() < 0.5

    def channel(kind: str) -> str:
        pick = rng.random()
        if pick < 0.08 and not legacy:
            return "none"
        if pick < 0.14:  # within the channel's range: far outside it, float32 rounding shows
            scale = {"hue": 360, "unit": 0.3, "okab": 0.1, "ab": 50}.get(kind, 100)
            return f"calc({_css_number(rng, scale)} {rng.choice('+-*')} {rng.randint(1, 3)})"
        if kind == "hue":
            return (
                _css_number(rng, 360) + rng.choice(["", "", "deg", "turn", "grad", "rad"])
                if pick < 0.9
                else "-30"
            )
        if kind == "percent":
            return _css_number(rng, 100) + "%"
        if kind == "rgb":
            return _css_number(rng, 255) if pick < 0.6 else _css_number(rng, 100) + "%"
        scale = {"unit": 1.0, "l100": 100.0, "ab": 160.0, "okab": 0.5}[kind]
        return _css_number(rng, scale) if pick < 0.75 else _css_number(rng, 100) + "%"

    if function in ("rgb", "rgba"):
        kinds = ["rgb"] * 3
        if legacy and rng.random() < 0.85:
            kinds = ["percent"] * 3 if rng.random() < 0.3 else ["rgbnum"] * 3
    elif function in ("hsl", "hsla", "hwb"):
        kinds = (
            ["hue", "percent", "percent"] if legacy or rng.random() < 0.6 else ["hue", "unit100", "unit100"]
        )
    elif function == "lab":
        kinds = ["l100", "ab", "ab"]
    elif function == "lch":
        kinds = ["l100", "ab", "hue"]
    elif function == "oklab":
        kinds = ["unit", "okab", "okab"]
    elif function == "oklch":
        kinds = ["unit", "okab", "hue"]
    else:
        kinds = ["unit"] * 3
    values = []
    for kind in kinds:
        if kind == "rgbnum":
            values.append(_css_number(rng, 255))
        elif kind == "unit100":
            values.append(_css_number(rng, 100))
        else:
            values.append(channel(kind))
    if function == "color":
        space = rng.choice(
            [
                "srgb",
                "srgb-linear",
                "display-p3",
                "a98-rgb",
                "prophoto-rgb",
                "rec2020",
                "xyz",
                "xyz-d50",
                "xyz-d65",
                "display-p3-linear",
                "SRGB",
                "hsl",
            ]
        )
        values.insert(0, space)
    alpha = rng.choice(["", "", "0.5", "50%", "0", "1", "none"])
    if legacy:
        inner = rng.choice([",", ", ", " , "]).join(values) + (
            ", " + alpha if alpha and alpha != "none" else ""
        )
    else:
        inner = " ".join(values) + (" / " + alpha if alpha else "")
    text = f"{function}({inner})"
    return case("color", _maybe_mutate(rng, text, 0.1), "random")


def _random_text_case(rng: random.Random) -> Case:
    input_type = rng.choice(["text", "search", "tel", "password", "hidden", "checkbox", "radio"])
    text = "".join(rng.choice("ab \t\r\n\u00a0,\u2028x") for _ in range(rng.randint(0, 8)))
    return case(input_type, text, "random")


_CHAOS = "0123456789.-+eE:TW# ,%()/@ax\u00a0\t\n\u0661\u00f1"


def _long_number(rng: random.Random) -> str:
    """Numbers with more digits than Chromium's decimals keep (18), or extreme exponents."""
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(15, 30)))
    point = rng.randint(0, len(digits))
    text = (digits[:point] or "0") + ("." + digits[point:] if digits[point:] else "")
    if rng.random() < 0.3:
        text += f"e{rng.choice(['', '-'])}{rng.choice([1, 10, 100, 300, 308, 309, 324, 400])}"
    return rng.choice(["", "-"]) + text


def _random_chaos_case(rng: random.Random) -> Case:
    """Any type, any attributes, characters from every grammar: parsers must fail alike."""
    input_type = rng.choice(
        ["number", "range", "date", "month", "week", "time", "datetime-local", "email", "url", "color"]
    )
    attributes = {}
    for name in ("min", "max", "step", "value"):
        if rng.random() < 0.3:
            attributes[name] = rng.choice([_long_number(rng), _number_text(rng), "any", ""])
    text = "".join(rng.choice(_CHAOS) for _ in range(rng.randint(0, 12)))
    if rng.random() < 0.5:
        text = _long_number(rng)
    return case(input_type, text, "random", **attributes)


def random_cases(count: int, seed: int) -> list[Case]:
    """``count`` cases drawn with ``random.Random(seed)``, types weighted by their difficulty."""
    rng = random.Random(seed)
    makers = [
        (_random_number_case, 14),
        (_random_range_case, 16),
        (_random_email_case, 8),
        (_random_url_case, 12),
        (_random_color_case, 14),
        (_random_text_case, 4),
        (_random_chaos_case, 6),
    ] + [((lambda r, t=t: _random_temporal_case(r, t)), 6) for t in _TEMPORAL]
    return weighted_draws(rng, makers, count)


# --- asking the browser -------------------------------------------------------------------------


def ask(page: Any, cases: list[Case], batch: int = 500) -> list[dict[str, Any]]:
    """Chromium's answers for ``cases`` (a Playwright page), in order."""
    return evaluate_in_batches(page, ASK_JS, cases, batch)


def main(argv: list[str] | None = None) -> int:
    from formtools._conformance.browser import ChromiumOracle
    from formtools._spec.jsjson import dumps

    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", type=int, default=3600, help="how many random cases (default 3600)")
    args = parser.parse_args(argv)
    cases = wpt_cases() + edge_cases() + random_cases(args.random, args.seed)
    with ChromiumOracle() as oracle:
        browser = stamped(oracle)
        version = oracle.page.context.browser.version if oracle.page.context.browser else "unknown"
        answers = ask(oracle.page, cases)
    rows = [{**c, **answer} for c, answer in zip(cases, answers, strict=True)]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    document = {"browser": browser, "chromium": version, "seed": args.seed, "rows": rows}
    OUTPUT.write_text(dumps(document, pretty=True) + "\n", encoding="utf-8")
    print(f"{len(rows)} cases recorded from Chromium {version} in {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
