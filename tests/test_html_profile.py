"""The ``html`` profile's schemas and formtools' validator, without a browser.

``tests/test_html_profile_browser.py`` proves the validator agrees with Chromium; these tests
pin the individual rules so that a regression names the rule it broke.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner

import formtools
from formtools.cli import app

PAGE = """<!doctype html>
<form toolname="book" tooldescription="Book a table" action="/book">
  <label>Name <input name="name" required pattern="[A-Za-z ]+" minlength="2"></label>
  <input name="code" pattern="[0-9]{3}" toolparamtitle="Code" title="Three digits">
  <input name="nick" value="bob" required aria-label="Nickname" placeholder="e.g. bob">
  <input type="email" name="mail" aria-description="Where we write">
  <input type="email" name="cc" multiple pattern=".+@example\\.com">
  <input type="url" name="site">
  <input type="number" name="guests" min="1" max="12" value="2">
  <input type="number" name="even" step="2">
  <input type="number" name="price" step="0.01" min="0">
  <input type="range" name="volume" min="0" max="50" step="5">
  <input type="number" name="late" min="5" value="1">
  <input type="date" name="day" min="2024-01-01" required>
  <input type="time" name="at" step="900">
  <input type="color" name="colour" value="#FF0000">
  <select name="table" required>
    <option value="">Choose…</option><option value="w">Window</option>
    <option value="k" disabled>Kitchen</option><option value="w">Window again</option>
  </select>
  <select name="extras" multiple><option selected>bread</option><option>wine</option></select>
  <input type="checkbox" name="terms" required>
  <fieldset toolparamdescription="Diet"><input type="checkbox" name="diet" value="veg" required>
  <input type="checkbox" name="diet" value="gf" checked></fieldset>
  <input type="radio" name="seat" value="in" checked><input type="radio" name="seat" value="out">
  <textarea name="note">hi</textarea>
  <button>Book</button>
</form>
"""


@pytest.fixture(scope="module")
def tool() -> formtools.Tool:
    found = formtools.extract(PAGE, profile="html").tool("book")
    assert found is not None
    return found


def _properties(tool: formtools.Tool) -> dict[str, Any]:
    return tool.to_dict()["inputSchema"]["properties"]


def _problems(tool: formtools.Tool, tool_input: dict[str, Any]) -> set[tuple[str | None, str]]:
    base = {
        "name": "Ann",
        "day": "2024-05-01",
        "table": "w",
        "terms": True,
        "diet": ["veg"],
        "late": 6,
    }
    return {(p.field, p.flag) for p in formtools.validate_input(tool, {**base, **tool_input})}


@pytest.mark.spec_step("synth-3.1", "synth-3.2", "synth-3.4")
def test_required_lists_what_leaving_out_fails(tool: formtools.Tool) -> None:
    schema = tool.to_dict()["inputSchema"]
    # nick is required but has a value; late is not required but its value is below min
    assert schema["required"] == ["name", "late", "day", "table", "terms", "diet"]
    assert schema["additionalProperties"] is False


@pytest.mark.spec_step("synth-4.4", "synth-5.1", "synth-5.3")
def test_text_rules(tool: formtools.Tool) -> None:
    properties = _properties(tool)
    assert properties["name"]["pattern"] == "^(?:[A-Za-z ]+)$"
    assert properties["name"]["minLength"] == 1
    assert (
        "maxLength" not in properties["name"]
    )  # Chromium ignores minlength/maxlength on script values
    assert properties["code"]["pattern"] == "^(?:[0-9]{3})?$"  # an empty value never mismatches
    assert properties["code"]["title"] == "Code"
    assert properties["code"]["description"] == "Three digits"
    assert properties["nick"]["title"] == "Nickname"
    assert properties["nick"]["default"] == "bob"
    assert properties["mail"]["format"] == "email"
    assert properties["mail"]["description"] == "Where we write"
    assert properties["cc"]["x-formtools-multiple"] is True
    assert properties["cc"]["x-formtools-address-pattern"] == "^(?:.+@example\\.com)$"
    assert properties["site"]["format"] == "uri"
    assert properties["note"]["default"] == "hi"


@pytest.mark.spec_step("synth-5.8", "synth-5.9", "synth-5.16")
def test_number_rules(tool: formtools.Tool) -> None:
    properties = _properties(tool)
    assert properties["guests"]["type"] == "integer"
    assert (properties["guests"]["minimum"], properties["guests"]["maximum"]) == (1, 12)
    assert properties["guests"]["default"] == 2
    assert properties["even"]["multipleOf"] == 2
    assert properties["price"]["type"] == "number"
    assert properties["price"]["x-formtools-step"] == "0.01"
    assert properties["price"]["x-formtools-step-base"] == "0"
    assert properties["volume"]["multipleOf"] == 5
    assert properties["volume"]["default"] == 25


@pytest.mark.spec_step("synth-5.4", "synth-5.6", "synth-5.7")
def test_temporal_and_color_rules(tool: formtools.Tool) -> None:
    properties = _properties(tool)
    assert properties["day"]["x-formtools-html-type"] == "date"
    assert properties["day"]["x-formtools-min"] == "2024-01-01"
    assert properties["at"]["x-formtools-step"] == "900"
    assert properties["colour"]["pattern"] == "^#[0-9a-f]{6}$"
    assert properties["colour"]["default"] == "#ff0000"


@pytest.mark.spec_step("synth-4.4", "synth-5.10", "synth-5.11", "synth-5.12", "synth-5.13", "synth-5.14")
def test_choice_rules(tool: formtools.Tool) -> None:
    properties = _properties(tool)
    assert properties["table"]["enum"] == ["w"]  # no placeholder, no disabled option, no duplicate
    assert properties["extras"]["default"] == ["bread"]
    assert properties["terms"]["const"] is True
    assert properties["diet"]["allOf"] == [{"contains": {"const": "veg"}}]
    assert properties["diet"]["default"] == ["gf"]
    assert properties["diet"]["description"] == "Diet"
    assert properties["seat"]["default"] == "in"


@pytest.mark.spec_step("synth-3.4")
def test_the_chromium_profile_is_untouched() -> None:
    chromium = formtools.extract(PAGE).tool("book")
    assert chromium is not None
    schema = chromium.to_dict()["inputSchema"]
    assert "additionalProperties" not in schema
    assert schema["properties"]["name"]["pattern"] == "[A-Za-z ]+"


@pytest.mark.spec_step("exec-validate-1")
def test_a_valid_input_has_no_problems(tool: formtools.Tool) -> None:
    assert _problems(tool, {}) == set()
    assert (
        _problems(tool, {"price": 0.3, "at": "10:15", "cc": "a@example.com,b@example.com"}) == set()
    )


@pytest.mark.spec_step("synth-5.3", "synth-5.6", "exec-validate-2", "exec-validate-3")
@pytest.mark.parametrize(
    ("tool_input", "expected"),
    [
        ({"name": "Ann 2"}, ("name", "patternMismatch")),
        ({"name": ""}, ("name", "valueMissing")),
        ({"code": "12"}, ("code", "patternMismatch")),
        ({"mail": "nope"}, ("mail", "typeMismatch")),
        ({"mail": " a@b.example"}, ("mail", "badInput")),  # the browser would strip the space
        ({"cc": "a@example.com, b@example.com"}, ("cc", "badInput")),
        ({"cc": "a@example.org"}, ("cc", "patternMismatch")),
        ({"site": "not a url"}, ("site", "typeMismatch")),
        ({"guests": 0}, ("guests", "rangeUnderflow")),
        ({"guests": 13}, ("guests", "rangeOverflow")),
        ({"guests": 2.5}, ("guests", "stepMismatch")),
        ({"even": 3}, ("even", "stepMismatch")),
        ({"price": 0.005}, ("price", "stepMismatch")),
        ({"price": 12345.675}, ("price", "badInput")),  # Chromium fills toPrecision(6): 12345.7
        ({"volume": 55}, ("volume", "rangeOverflow")),
        ({"day": "2023-12-31"}, ("day", "rangeUnderflow")),
        ({"day": "2024-02-30"}, ("day", "badInput")),
        ({"at": "10:10"}, ("at", "stepMismatch")),
        ({"colour": "#FFFFFF"}, ("colour", "patternMismatch")),
        ({"table": ""}, ("table", "badInput")),
        ({"table": "k"}, ("table", "badInput")),
        ({"terms": False}, ("terms", "valueMissing")),
        ({"diet": ["gf"]}, ("diet", "valueMissing")),
        ({"extras": ["wine", "wine"]}, ("extras", "badInput")),
        ({"note": "a\r\nb"}, ("note", "badInput")),
        ({"name": "An\nn"}, ("name", "badInput")),
        ({"nope": 1}, ("nope", "unknownParameter")),
    ],
)
def test_each_rule_reports_its_flag(
    tool: formtools.Tool, tool_input: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert expected in _problems(tool, tool_input)


@pytest.mark.spec_step("synth-3.2", "exec-validate-3")
def test_missing_required_parameters_are_value_missing(tool: formtools.Tool) -> None:
    problems = formtools.validate_input(tool, {})
    # late has no required attribute: left out, it keeps its value 1, below min (an outside
    # tester found it reported as valueMissing, which is not what the browser says)
    assert [(p.field, p.flag) for p in problems] == [
        ("name", "valueMissing"), ("late", "rangeUnderflow"), ("day", "valueMissing"),
        ("table", "valueMissing"), ("terms", "valueMissing"), ("diet", "valueMissing"),
    ]  # fmt: skip
    (late,) = [p for p in problems if p.field == "late"]
    assert late.message.endswith("Value must be greater than or equal to 5.")


@pytest.mark.spec_step("synth-5.1", "exec-validate-1")
def test_patterns_follow_ecmascript_not_python() -> None:
    page = """<form toolname="t" tooldescription="d">
      <input name="v" pattern="[\\p{L}--[a-z]]+" required><input name="w" pattern="\\w+" required>
      <button>Go</button></form>"""
    tool = formtools.extract(page, profile="html").tool("t")
    assert tool is not None
    assert formtools.validate_input(tool, {"v": "ÄB", "w": "abc"}) == []
    flags = {(p.field, p.flag) for p in formtools.validate_input(tool, {"v": "Äb", "w": "é"})}
    assert flags == {
        ("v", "patternMismatch"),
        ("w", "patternMismatch"),
    }  # \\w is ASCII in ECMAScript


@pytest.mark.spec_step("exec-validate-1")
def test_the_chromium_profile_validates_with_search_semantics() -> None:
    page = '<form toolname="t" tooldescription="d"><input name="q" pattern="[0-9]"><button>Go</button></form>'
    tool = formtools.extract(page).tool("t")
    assert tool is not None
    assert formtools.validate_input(tool, {"q": "a1b"}) == []  # unanchored, as JSON Schema says
    assert [p.flag for p in formtools.validate_input(tool, {"q": "ab"})] == ["patternMismatch"]


@pytest.mark.spec_step("exec-validate-4")
def test_cli_validate(tmp_path: Any) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    runner = CliRunner()
    good = {
        "name": "Ann",
        "day": "2024-05-01",
        "table": "w",
        "terms": True,
        "diet": ["veg"],
        "late": 6,
    }
    result = runner.invoke(app, ["validate", str(page), "book", "--input", json.dumps(good)])
    assert result.exit_code == 0, result.output
    assert result.output == "book: valid\n"
    result = runner.invoke(
        app, ["validate", str(page), "book", "--input", json.dumps({**good, "guests": 0})]
    )
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "/guests: Value must be greater than or equal to 1. (rangeUnderflow)"
    ]
    result = runner.invoke(app, ["extract", str(page), "--profile", "html"])
    assert result.exit_code == 0
    assert json.loads(result.output)[0]["inputSchema"]["additionalProperties"] is False


@pytest.mark.spec_step("synth-5.16")
def test_datalist_values_are_examples() -> None:
    page = """<form toolname="t" tooldescription="d">
      <input name="flavour" list="f"><datalist id="f"><option value="vanilla"><option>choc</option>
      <option value="x" disabled></datalist>
      <input type="range" name="n" list="m"><datalist id="m"><option value="10"><option value="a">
      </datalist><button>Go</button></form>"""
    tool = formtools.extract(page, profile="html").tool("t")
    assert tool is not None
    properties = _properties(tool)
    assert properties["flavour"]["examples"] == ["vanilla", "choc"]
    assert properties["n"]["examples"] == [10]
    assert formtools.validate_input(tool, {"flavour": "strawberry"}) == []


@pytest.mark.spec_step("synth-3.5", "exec-submit-2", "exec-validate-3")
def test_a_form_that_can_never_be_valid() -> None:
    """An unnamed required input is no parameter: no call can fill it, so no call can pass
    validation. The html schema accepts nothing and says why, validate names the control, and a
    call is refused as Chromium refuses it (with toolautosubmit: lint's error ``never-valid``,
    unless the form skips validation); without, the form waits for the person, who can fill the
    control before their submission (lint's warning ``needs-person``)."""
    page = "<form toolname=t tooldescription=d><input required><label>Q <input name=q></label><button>Go</button></form>"
    tool = formtools.extract(page, profile="html").tool("t")
    assert tool.input_schema["not"] == {}
    assert tool.input_schema["x-formtools-unsatisfiable"].startswith("unnamed <input type=text>")
    (problem,) = formtools.validate_input(tool, {"q": "x"})
    assert problem.flag == "unsatisfiable" and "unnamed <input type=text>" in problem.message
    codes = [d.code for d in formtools.extract(page).diagnostics]
    assert "needs-person" in codes and "never-valid" not in codes  # the person can fill it
    automatic = page.replace("<form ", "<form toolautosubmit ")
    assert "never-valid" in [d.code for d in formtools.extract(automatic).diagnostics]
    skipping = automatic.replace("<form ", "<form novalidate ")
    assert not {"never-valid", "needs-person"} & {d.code for d in formtools.extract(skipping).diagnostics}
    waiting = formtools.prepare_call(formtools.extract(page, base_url="https://a.example/").tool("t"), {"q": "x"})
    with pytest.raises(formtools.ValidationError, match="Please fill out this field"):
        formtools.submit(waiting, confirm=True)
    with pytest.raises(formtools.ValidationError, match="Please fill out this field"):
        formtools.prepare_call(formtools.extract(automatic, base_url="https://a.example/").tool("t"), {"q": "x"})
    portable = formtools.extract(page, profile="portable").tool("t").input_schema
    assert "not" not in portable and "x-formtools-unsatisfiable" not in portable  # outside the subset


# ---- the contract holds for every JSON value, not only those of the schema's types ----------

# values of every JSON kind, the ones Chromium's fill would convert among them: "5" for a
# number, 5 and true for a string, 1 and "true" for a checkbox (JavaScript's conversions)
_CONFUSED = ["5", "5.0", "1e1", "abc", "", " 5", 5, 0, 1, 1.5, -1, True, False, "true", "1", None, [], ["x"], {}]


def _submits(tool: formtools.Tool, sample: Any) -> bool | None:
    # files are not parameters: a call attaches them (files=), so every file input gets one
    files = {
        c.attributes["name"]: [formtools.File("a.txt", "text/plain", b"a")]
        for c in tool.form.controls
        if c.type == "file" and c.attributes.get("name") and not c.disabled  # a disabled one takes none
    }
    try:
        prepared = formtools.prepare_call(tool, sample, files=files)
    except (formtools.InputError, formtools.ValidationError):
        return False
    except formtools.SubmissionError:  # no submit button: no call is made whatever the input
        return None
    return not prepared.problems  # a form without toolautosubmit: the person's submit is stopped


@pytest.mark.spec_step("exec-submit-2")
def test_validate_accepts_exactly_what_call_submits_under_html() -> None:
    """validate ⇔ call for every input, type-confused ones included (tests/test_html_profile_browser.py
    holds validate ⇔ Chromium's checkValidity() for inputs of the schema's types, live). Before the
    html profile enforced its schema, ``{"n": "5"}`` for ``<input type=number>`` was rejected by
    validate and submitted by call."""
    import random
    from pathlib import Path

    from tests.conftest import FIXTURES
    from tests.support.callgen import calls_for
    from tests.support.formgen import generate_pages

    pages = [path.read_text("utf-8", "replace") for path in sorted(Path(FIXTURES).glob("*.html"))]
    pages += [html for _, html in generate_pages(80, seed=11)]
    checked = accepted = 0
    disagreements: list[str] = []
    for number, page in enumerate(pages):
        for tool in formtools.extract_tools(page, base_url="https://shop.example/", profile="html"):
            rng = random.Random(f"{number}/{tool.name}")
            samples: list[Any] = calls_for(tool.to_dict(), rng)
            samples += [{key: value} for key in tool.input_schema["properties"] for value in _CONFUSED]
            for sample in samples:
                sent = _submits(tool, sample)
                if sent is None:
                    break
                valid = not formtools.validate_input(tool, sample) if isinstance(sample, dict) else False
                checked += 1
                accepted += valid
                if valid != sent:
                    disagreements.append(f"page {number} {tool.name} {sample!r}: validate {valid}, call {sent}")
    assert checked > 20_000 and 0 < accepted < checked
    assert not disagreements, f"{len(disagreements)} of {checked}; first: {disagreements[:5]}"


SIGN_IN = (
    '<form toolname=sign_in tooldescription=d toolautosubmit method=post action=/x><input name=user>'
    '<input type=password name=password pattern="[a-z]{3}\\d"><input type=number name=n>'
    "<button>Go</button><button name=draft formnovalidate>Save draft</button></form>"
)


@pytest.mark.spec_step("exec-submit-2")
def test_html_call_errors_read_as_one_line_each_and_never_quote_a_secret() -> None:
    (tool,) = formtools.extract_tools(SIGN_IN, base_url="https://shop.example/", profile="html")
    with pytest.raises(formtools.InputError) as wrong_kind:
        formtools.prepare_call(tool, {"n": "5"})
    assert wrong_kind.value.lines() == ['n: "5" is not of type "integer"']
    assert wrong_kind.value.problems[0].flag == "badInput"
    for secret in ("hunter2", "hun\nte1"):
        with pytest.raises(formtools.FormtoolsError) as refused:
            formtools.prepare_call(tool, {"password": secret})
        shown = " ".join(refused.value.lines()) + str(refused.value)
        assert secret not in shown and repr(secret) not in shown and "[redacted]" in shown
    runner = CliRunner()
    done = runner.invoke(app, ["call", "-", "sign_in", "--profile", "html", "--dry-run", "--base-url",
                               "https://shop.example/", "--input", '{"password": "hunter2"}'], input=SIGN_IN)
    assert done.exit_code == 1 and "hunter2" not in done.output and "_SchemaProblem" not in done.output


@pytest.mark.spec_step("exec-submit-2")
def test_a_formnovalidate_submitter_the_caller_picks_skips_the_schemas_constraints() -> None:
    """validate ⇔ call holds for the default submitter; "Save draft" with formnovalidate is the
    caller's explicit choice to skip constraint validation, as a person clicking it does."""
    (tool,) = formtools.extract_tools(SIGN_IN, base_url="https://shop.example/", profile="html")
    with pytest.raises(formtools.ValidationError):
        formtools.prepare_call(tool, {"password": "nope"})
    drafted = formtools.prepare_call(tool, {"password": "nope"}, submitter="draft").request
    assert drafted is not None and drafted.body == b"user=&password=nope&n=&draft="
    with pytest.raises(formtools.InputError):  # the kind of a value still counts
        formtools.prepare_call(tool, {"n": "5"}, submitter="draft")


@pytest.mark.spec_step("exec-validate-1")
def test_odd_json_values_are_rejected_without_a_traceback() -> None:
    """A lone surrogate (JSON allows it) in a pattern-checked or date field, and an integer no
    double can hold (JSON.parse gives Infinity): one-line rejections on both profiles."""
    page = ('<form toolname=t tooldescription=d toolautosubmit><input type=date name=d>'
            '<input name=p pattern=a+><input type=number name=n><button>Go</button></form>')
    for profile in ("html", "chromium"):
        (tool,) = formtools.extract_tools(page, base_url="https://shop.example/", profile=profile)
        for value in ({"d": "\ud800"}, {"p": "a\ud800"}, {"n": 10**400}):
            formtools.validate_input(tool, value)
            with pytest.raises(formtools.FormtoolsError):
                formtools.prepare_call(tool, value)


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_a_required_file_input_needs_a_file_to_validate(profile: str) -> None:
    """validate agrees with call, which refuses a form whose required file input gets no file
    (found by review: validate said valid); a formnovalidate submitter or novalidate skips it."""
    page = "<form toolname=t tooldescription=d{}><input name=q><input type=file name=f required><button>Go</button></form>"
    tool = formtools.extract(page.format(""), profile=profile).tool("t")
    (problem,) = formtools.validate_input(tool, {"q": "a"})
    assert (problem.field, problem.flag, problem.message) == ("f", "valueMissing", "Please select a file.")
    assert formtools.validate_input(tool, {"q": "a"}, files=["f"]) == []
    waiting = formtools.extract(page.format(""), profile=profile, base_url="https://a.example/").tool("t")
    assert formtools.prepare_call(waiting, {"q": "a"}).problems  # it waits for a person
    automatic = formtools.extract(page.format(" toolautosubmit"), profile=profile).tool("t")
    with pytest.raises(formtools.ValidationError):
        formtools.prepare_call(automatic, {"q": "a"})
    skipping = formtools.extract(page.format(" novalidate"), profile=profile).tool("t")
    assert formtools.validate_input(skipping, {"q": "a"}) == []


_PYTHON_LITERAL = re.compile(r"\b(?:True|False|None)\b")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _python_quoted(message: str, texts: list[str]) -> bool:
    """Whether ``message`` quotes one of ``texts`` as Python does (where that differs from
    JSON: ``'x'``), or says ``True``/``False``/``None`` outside a JSON string."""
    reprs = (repr(text) for text in texts if repr(text) != json.dumps(text, ensure_ascii=False))
    return any(r in message for r in reprs) or bool(_PYTHON_LITERAL.search(_JSON_STRING.sub("", message)))


def test_validate_quotes_values_and_patterns_as_json() -> None:
    """cli.md: validate "writes values as JSON" (``/cabin: "" is not one of ["y", "j"]``), the
    language of the input. The messages formtools words itself (a pattern not matched, a value
    the browser would rewrite or round) quoted them as Python reprs instead:
    ``/origin: 'ams' does not match '^(?:[A-Z]{3})$'``, next to jsonschema's converted ones.
    Every patternMismatch and badInput message on the fixtures and 40 generated pages, for
    seeded inputs of every kind, must quote neither a value nor a pattern the Python way
    (the browser's own wording, typeMismatch and the range messages, is Chromium's)."""
    import random
    from pathlib import Path

    from tests.conftest import FIXTURES
    from tests.support.callgen import calls_for
    from tests.support.formgen import generate_pages

    pages = [path.read_text("utf-8", "replace") for path in sorted(Path(FIXTURES).glob("*.html"))]
    pages += [html for _, html in generate_pages(40, seed=23)]
    seen = 0
    wrong: list[str] = []
    for number, page in enumerate(pages):
        for tool in formtools.extract_tools(page, base_url="https://shop.example/", profile="html"):
            properties = tool.input_schema["properties"]
            for sample in calls_for(tool.to_dict(), random.Random(f"{number}/{tool.name}")):
                if not isinstance(sample, dict):
                    continue
                for problem in formtools.validate_input(tool, sample):
                    if problem.flag not in ("patternMismatch", "badInput") or problem.field not in sample:
                        continue
                    seen += 1
                    value = sample[problem.field]
                    quoted = [value] if isinstance(value, str) else []
                    pattern = properties.get(problem.field, {}).get("pattern")
                    quoted += [pattern] if isinstance(pattern, str) else []
                    if _python_quoted(problem.message, quoted):
                        wrong.append(f"page {number} {tool.name}: {problem}")
    assert seen > 500
    assert not wrong, f"{len(wrong)} of {seen}; first: {wrong[:5]}"
