"""Record Chromium's validation messages, for ``tests/test_validity_messages.py``.

A tool call that fails constraint validation is rejected with each invalid control's en-US
``validationMessage``, so the messages must be Chromium's to the character: the two nearest
valid values of a step mismatch (StepRange arithmetic, clamped to min and max), dates and times
as ICU writes them (``02/26/2024``, ``1:45\\u202fPM``, ``Week 09, 2024``), and the e-mail
messages that name the first bad address of a list.

Each case is an ``<input>`` (type, attributes, value assigned by script). The browser reports
the sanitized value, the validity flags that are set, and ``validationMessage`` when the input
is invalid ("" when it is valid: Chromium computes a message for some valid values too, which
no one ever sees). The answers go to ``fixtures/expected/validation-messages.json``.

    PYTHONPATH=src python scripts/record_validation_messages.py [--seed N] [--random N]

The random cases reuse the generators of ``scripts/record_value_rules.py`` for extreme numbers,
dates and addresses, and add realistic ones: values near a step with min and max to clamp the
candidates, times whose seconds the min or step brings in, lists of addresses.
"""

from __future__ import annotations

import argparse
import random
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the value-rules generators are reused
    sys.path.insert(0, str(ROOT))

from scripts._recording import evaluate_in_batches, stamped, weighted_draws
from scripts.record_value_rules import (
    _long_number,
    _mutate,
    _number_text,
    _random_email_case,
    _random_number_case,
    _random_temporal_case,
)

OUTPUT = ROOT / "fixtures" / "expected" / "validation-messages.json"
# in the order InputType::ValidationMessage looks at them (tooLong and tooShort never apply to
# a value set by script, badInput never to a script's value)
FLAGS = ("valueMissing", "typeMismatch", "patternMismatch", "rangeUnderflow", "rangeOverflow", "stepMismatch")

Case = dict[str, Any]  # {"type", "attributes", "value", "source"}

# Runs in the page. The input is created in a document of its own, so that nothing of the page
# the browser happens to show (its lang, say) can reach it.
ASK_JS = """
(cases) => {
  const doc = document.implementation.createHTMLDocument("");
  return cases.map((c) => {
    const input = doc.createElement("input");
    input.setAttribute("type", c.type);
    for (const [name, value] of Object.entries(c.attributes)) input.setAttribute(name, value);
    doc.body.appendChild(input);
    input.value = c.value;
    const flags = %s.filter((flag) => input.validity[flag]);
    const answer = {
      sanitized: input.value,
      flags,
      message: input.validity.valid ? "" : input.validationMessage,
    };
    input.remove();
    return answer;
  });
}
""" % list(FLAGS)


def case(input_type: str, value: str, source: str, /, **attributes: str) -> Case:
    return {"type": input_type, "attributes": attributes, "value": value, "source": source}


# --- hand-picked cases ----------------------------------------------------------------------------


def edge_cases() -> list[Case]:
    # fmt: off
    rows: list[Case] = []

    def add(input_type: str, values: list[str], **attributes: str) -> None:
        rows.extend(case(input_type, value, "edge", **attributes) for value in values)

    # numbers: the base, the clamp to min and max, which candidate is dropped, decimal printing
    add("number", ["1.5", "-1", "-0.5", "7.5", "12345.5", "1234567.5", "0.15", "-12345678.9"])
    add("number", ["-1", "1", "3"], step="2")
    add("number", ["-1", "1", "3", "2.5"], step="2", min="0")
    add("number", ["-1", "1", "9", "10"], step="2", min="0", max="10")
    add("number", ["9.5", "8.7"], step="2", min="0", max="9")
    add("number", ["2.5", "7.5"], step="5", min="1", max="7")
    add("number", ["5.5"], step="5", min="1", max="8")
    add("number", ["150.5", "1", "1e3"], min="1e2", max="1e3")
    add("number", ["150.5", "250"], min="1e2", step="1e2")
    add("number", ["0.35", "0.05"], min="0.1", step="0.1")
    add("number", ["3", "4.5"], step="2", value="1")
    add("number", ["7", "12", "3"], min="10", max="5")
    add("number", ["1e21", "1.5e21"], step="1e20")
    add("number", ["1e-7", "1.5e-7"], step="1e-7")
    add("number", ["17", "0.0000001"], step="3e-15")
    add("number", ["-12345678.9"], step="1e-12")
    add("number", ["1.7976931348623157e308"], step="3")
    add("number", ["12", "-12"], min="-0", max="-0")
    add("number", ["6"], min="-5e-1", max="5e-1")
    # dates, months and weeks: formats, years below 1000 and above 9999, the last valid day
    add("date", ["2024-02-27", "2024-03-01", "0099-06-01", "12345-06-01"], step="7")
    add("date", ["2024-02-27"], step="7", min="2024-02-01")
    add("date", ["2024-02-27"], step="7", min="2024-02-01", max="2024-02-28")
    add("date", ["0099-06-01"], min="0100-01-01")
    add("date", ["12345-06-01"], max="12000-01-01")
    add("date", ["275760-09-12", "275760-09-10"], step="3")
    add("date", ["0001-01-02", "0001-01-03"], step="2", min="0001-01-01")
    add("month", ["2024-06", "2024-01", "0001-02"], step="5")
    add("month", ["0099-06"], min="0100-01")
    add("month", ["12345-06"], max="12000-01")
    add("month", ["275760-08", "275760-09"], step="7")
    add("week", ["2024-W10", "2024-W06", "2025-W01", "2020-W53", "2021-W01"], step="2")
    add("week", ["2024-W10", "2026-W01"], step="3", min="2023-W52")
    add("week", ["0099-W06"], min="0100-W01")
    add("week", ["12345-W06"], max="12000-W01")
    add("week", ["275760-W37", "275760-W36"], step="4")
    # times: seconds and milliseconds as the step serializes them, midnight and noon, clamps
    add("time", ["13:45:10", "00:00:10", "12:00:10", "23:59:50", "11:59:59.5"])
    add("time", ["13:45:10", "13:45:00.5", "23:59:59.5"], step="1")
    add("time", ["13:45:00.5", "13:45:00.25", "00:00:00.1"], step="0.3")
    add("time", ["13:45:10", "23:59:50"], step="90")
    add("time", ["13:45:10"], step="120")
    add("time", ["23:59:50", "00:00:01"], step="7")
    add("time", ["13:45"], min="14:00:30")
    add("time", ["13:45"], min="14:00:30", step="60")
    add("time", ["13:45"], min="14:00", step="1")
    add("time", ["13:45"], min="14:00:30.5", step="any")
    add("time", ["13:45"], min="14:00:30.5")
    add("time", ["18:00", "13:45"], max="14:00:30.25", step="0.25")
    add("time", ["13:45:01"], min="09:00", max="17:00")
    # a reversed range (across midnight): between, or the step message, or a range message
    add("time", ["12:00", "21:59:59", "06:00:01", "23:00:30", "03:00:30", "22:00", "06:00"],
        min="22:00", max="06:00")
    add("time", ["12:00", "23:00:30", "03:00:30"], min="22:00", max="06:00", step="3600")
    add("time", ["12:00:00.5", "13:00"], min="14:00", max="12:00:01", step="1")
    # datetime-local
    add("datetime-local", ["2024-06-01T08:20", "2024-06-01T00:07", "2024-06-01T12:07"], step="900")
    add("datetime-local", ["2024-06-01T08:20:01.5", "2024-06-01T08:20:00.5"], step="1")
    add("datetime-local", ["2024-06-01T08:20:01.5"], step="0.2")
    add("datetime-local", ["2024-06-01T08:20"], min="2024-06-02T08:20:01.5")
    add("datetime-local", ["0099-06-01T08:20"], min="0100-01-01T00:00")
    add("datetime-local", ["12345-06-01T08:20"], max="12000-01-01T00:00")
    add("datetime-local", ["275760-09-12T23:59:30"], step="60")
    add("datetime-local", ["100000-01-01T00:01:30", "50000-07-02T07:47:38.352"], step="7")
    # e-mail: the first bad address of a list, each message, IDN domains shown decoded
    add("email", ["x", "a@b..c", "a@-b", "a@b-", "@b", "a@", "a b@c", "a@b c", "a@b\U0001F600",
                  "a\U0001F600@b", "a@b_c", ".a@b", "a@.b", "a@b.", "a@" + "b" * 64, "a@@b", "\u00f1@b",
                  "@xn--mnchen-3ya.de", "x@xn--mnchen-3ya..de", "x@.xn--mnchen-3ya.de", "@xn--zz",
                  "x@xn--zz..de", "@XN--mnchen-3ya.de", "@xn--MNCHEN-3ya.de", "@xn--mnchen-3ya.xn--p1ai",
                  "@xn--80ak6aa92e.com", "@xn--pple-43d.com", "@xn--", "@a.xn--", "<b>x</b>", "7",
                  "h\u00e9llo w\u00f6rld"])
    add("email", ["a@b,,x", "a@b,", ",", "x,a@b", "a@b,x", "a@b, x y", "a@b,@c", "a@b,c@", "a@-b",
                  "a@b,c@d..e", "a@b,c d@e", "a@b,c@d e", "a b", "a@b,\u00a0c@d", "a@b;c@d",
                  "a@b,@xn--mnchen-3ya.de", "a\r\nb\nc\rd", "1.23457e+7"], multiple="")
    add("email", ["a@b", "x"], multiple="", pattern="a@b")
    add("email", ["a@b,c@d"], multiple="", pattern="a@b")
    add("email", ["a@b"], pattern="c@d")
    # which flag speaks first, and types that ignore pattern
    for input_type in ("text", "search", "tel", "password", "url", "email"):
        add(input_type, ["", "abc"], required="", pattern="x")
    for input_type in ("number", "date", "month", "week", "time", "datetime-local"):
        add(input_type, [""], required="")
    add("number", ["5"], pattern="x")
    add("date", ["2024-01-01"], pattern="x")
    add("time", ["12:00"], pattern="x")
    add("url", ["x", "http://a b", "http://a"], pattern="x")
    add("text", ["abc"], pattern="[")
    add("range", ["150", "x", "3.3"], min="0", max="100", step="7")
    add("color", ["x", "#fff"], required="")
    return rows
    # fmt: on


# --- seeded random cases --------------------------------------------------------------------------


def _random_step_number(rng: random.Random) -> Case:
    """Realistic numbers near a step, with the limits that clamp the candidates."""
    attributes: dict[str, str] = {}
    step = Decimal(rng.choice(["1", "2", "0.1", "0.25", "0.5", "3", "5", "10", "0.01", "7", "0.3", "1.5",
                               "100", "1e-3", "1e2", "15", "60", "0.05"]))  # fmt: skip
    base = Decimal(rng.choice(["0", "1", "-5", "0.5", "-2.5", "10", "3", "0.1", "-0.3", "7", "1000"]))
    if rng.random() < 0.6:
        attributes["min"] = str(base) if rng.random() < 0.9 else format(base, "e")
    elif rng.random() < 0.3:
        attributes["value"] = str(base)
    if rng.random() < 0.5:
        top = base + step * rng.randint(0, 30) + rng.choice([Decimal(0), Decimal(0), step / 2, step / 3])
        attributes["max"] = str(top) if rng.random() < 0.9 else format(top, "e")
    if rng.random() < 0.85:
        attributes["step"] = str(step) if rng.random() < 0.9 else format(step, "e")
    start = base if "min" in attributes or "value" in attributes else Decimal(0)
    fraction = Decimal(rng.choice(["0.5", "0.3", "0.7", "0.01", "0.99"]))
    value = start + step * rng.randint(-10, 40) + step * fraction
    if rng.random() < 0.1:
        value = Decimal(rng.choice(["12345.5", "1234567.25", "-98765.5", "100000.5", "1e6"])) + step / 3
    text = str(value) if rng.random() < 0.9 else format(value, "e")
    return case("number", text, "random", **attributes)


def _date_parts(rng: random.Random) -> tuple[int, int, int]:
    year = rng.choice([rng.randint(1900, 2100)] * 8 + [rng.randint(1, 999), rng.randint(10000, 275759)])
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    return year, month, day


def _clock(rng: random.Random, precision: str) -> str:
    text = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    if precision in ("s", "ms"):
        text += f":{rng.randint(0, 59):02d}"
    if precision == "ms":
        text += "." + str(rng.randint(0, 999)).zfill(3)[: rng.randint(1, 3)]
    return text


def _random_step_temporal(rng: random.Random) -> Case:
    """Realistic dates and times with steps, min, max and value attributes."""
    input_type = rng.choice(["date", "month", "week", "time", "datetime-local", "time", "datetime-local"])

    def make() -> str:
        year, month, day = _date_parts(rng)
        if input_type == "date":
            return f"{year:04d}-{month:02d}-{day:02d}"
        if input_type == "month":
            return f"{year:04d}-{month:02d}"
        if input_type == "week":
            return f"{year:04d}-W{rng.randint(1, 52):02d}"
        precision = rng.choice(["m", "m", "s", "ms"])
        if input_type == "time":
            return _clock(rng, precision)
        return f"{year:04d}-{month:02d}-{day:02d}{rng.choice('T ')}{_clock(rng, precision)}"

    steps = {
        "date": ["1", "2", "3", "7", "14", "30", "1.5", "any", "365"],
        "month": ["1", "2", "3", "5", "6", "12", "any", "0.4"],
        "week": ["1", "2", "3", "4", "52", "any"],
        "time": ["60", "1", "0.001", "0.5", "0.25", "0.3", "900", "1800", "3600", "90", "7", "120", "any",
                 "0.0004", "45", "86399", "600", "15"],
        "datetime-local": ["60", "1", "0.001", "0.5", "900", "3600", "86400", "90", "7", "any", "0.2", "300"],
    }[input_type]  # fmt: skip
    attributes: dict[str, str] = {}
    for name, chance in (("min", 0.45), ("max", 0.45), ("value", 0.15)):
        if rng.random() < chance:
            attributes[name] = make()
    if rng.random() < 0.85:
        attributes["step"] = rng.choice(steps)
    if input_type == "time" and rng.random() < 0.15:  # a range across midnight
        attributes["min"], attributes["max"] = _clock(rng, "m").replace("0", "2", 1), _clock(rng, "s")[:5]
    value = make()
    if "min" in attributes and rng.random() < 0.5 and input_type in ("time", "datetime-local", "date"):
        value = attributes["min"][: len(value)] if len(attributes["min"]) >= 5 else value
        value = _mutate(rng, value, "0123456789") if rng.random() < 0.5 else value
    return case(input_type, value, "random", **attributes)


_EMAIL_CHARS = "abcXYZ019.@@,,  -_+!#$%&'*=?^`{|}~/\"()[]\\;:<>\u00f1\u00e9\u00a0\t\u65e5\U0001F600"


def _random_email_text(rng: random.Random) -> Case:
    """Addresses with any characters, and lists of them: each message and which address it names."""
    multiple = rng.random() < 0.5

    def address() -> str:
        roll = rng.random()
        if roll < 0.4:
            local = "".join(rng.choice("abcxyz019._-+") for _ in range(rng.randint(0, 5)))
            labels = ["".join(rng.choice("abcxyz019-") for _ in range(rng.randint(0, 4)))
                      for _ in range(rng.randint(1, 3))]  # fmt: skip
            if rng.random() < 0.15:
                idn = rng.choice(["xn--mnchen-3ya", "xn--zz", "xn--p1ai", "xn--"])
                labels[rng.randrange(len(labels))] = idn
            text = local + "@" + ".".join(labels)
        else:
            text = "".join(rng.choice(_EMAIL_CHARS) for _ in range(rng.randint(0, 10)))
        if rng.random() < 0.3:
            text = _mutate(rng, text, "@.,- \u00f1")
        return text

    if not multiple or rng.random() < 0.3:
        text = address()
    else:
        text = ",".join(address() for _ in range(rng.randint(2, 4)))
    attributes = {"multiple": ""} if multiple else {}
    if rng.random() < 0.1:
        attributes["required"] = ""
    return case("email", text, "random", **attributes)


_PATTERNS = ["[a-z]+", "x", "\\d{3}", "", "[", "a|b", "\\p{L}+", "[\\p{L}--[a-z]]", ".*@.*", "(?<x>a)"]


def _random_text_like(rng: random.Random) -> Case:
    """required and pattern on every type, valueMissing and patternMismatch before the rest."""
    input_type = rng.choice(["text", "search", "tel", "password", "url", "email", "number", "date", "time",
                             "month", "week", "datetime-local", "color", "range"])  # fmt: skip
    attributes: dict[str, str] = {}
    if rng.random() < 0.5:
        attributes["required"] = ""
    if rng.random() < 0.6:
        attributes["pattern"] = rng.choice(_PATTERNS)
    if rng.random() < 0.2 and input_type == "email":
        attributes["multiple"] = ""
    value = rng.choice(["", "", "abc", "x", "123", "a@b", "http://a", "5", "2024-01-01", "12:00", "a@b,x",
                        "\u00e9t\u00e9", "b", " x "])  # fmt: skip
    return case(input_type, value, "random", **attributes)


def _random_extreme(rng: random.Random) -> Case:
    """Long numbers and extreme attributes (from the value-rules corpus) on number types."""
    roll = rng.random()
    if roll < 0.5:
        return _random_number_case(rng)
    attributes = {}
    for name in ("min", "max", "step", "value"):
        if rng.random() < 0.35:
            attributes[name] = rng.choice([_long_number(rng), _number_text(rng)])
    return case("number", rng.choice([_long_number(rng), _number_text(rng)]), "random", **attributes)


_TEMPORAL_TYPES = ["date", "month", "week", "time", "datetime-local"]


def random_cases(count: int, seed: int) -> list[Case]:
    """``count`` cases drawn with ``random.Random(seed)``."""
    rng = random.Random(seed)
    makers = [
        (_random_step_number, 18),
        (_random_step_temporal, 30),
        (lambda r: _random_temporal_case(r, r.choice(_TEMPORAL_TYPES)), 10),
        (_random_extreme, 10),
        (_random_email_text, 16),
        (_random_email_case, 4),
        (_random_text_like, 10),
    ]
    return weighted_draws(rng, makers, count)


# --- asking the browser -------------------------------------------------------------------------


def ask(page: Any, cases: list[Case], batch: int = 1000) -> list[dict[str, Any]]:
    """Chromium's answers for ``cases`` (a Playwright page), in order."""
    return evaluate_in_batches(page, ASK_JS, cases, batch)


def main(argv: list[str] | None = None) -> int:
    from formtools._conformance.browser import ChromiumOracle
    from formtools._spec.jsjson import dumps

    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", type=int, default=4000, help="how many random cases (default 4000)")
    args = parser.parse_args(argv)
    cases = edge_cases() + random_cases(args.random, args.seed)
    with ChromiumOracle() as oracle:
        browser = stamped(oracle)
        version = oracle.page.context.browser.version if oracle.page.context.browser else "unknown"
        answers = ask(oracle.page, cases)
    rows = [{**c, **answer} for c, answer in zip(cases, answers, strict=True)]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    document = {"browser": browser, "chromium": version, "seed": args.seed, "rows": rows}
    OUTPUT.write_text(dumps(document, pretty=True) + "\n", encoding="utf-8")
    invalid = sum(1 for row in rows if row["message"])
    where = OUTPUT.relative_to(ROOT)
    print(f"{len(rows)} cases ({invalid} invalid) recorded from Chromium {version} in {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
