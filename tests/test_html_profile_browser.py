"""The ``html`` profile against Chromium's own constraint validation.

Claim: a tool input is valid under the ``html`` schema (formtools' validator) **iff** Chromium,
given the input as ``executeTool`` fills it (``.value`` / ``.checked`` / selection set by
script, unknown option values and duplicate array items refused), keeps every value as given
and ``form.checkValidity()`` is true **iff** formtools' ``call`` under ``html`` submits it.

Samples come from every fixture page and from generated pages (``tests/support/formgen.py``):
the inputs ``tests/support/callgen.py`` derives from the Chromium schema (valid, boundary,
invalid, random), plus each property's default and mutations of it, kept when every value has
the JSON type the ``html`` schema declares (other types are the schema's ``type`` rejections,
which need no browser). Forms that no input can make valid (a control that is not a parameter
is invalid from the start) are held to it too: their schema accepts nothing.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import formtools
from formtools._forms.state import initial_state
from formtools._forms.validity import invalid_controls
from formtools._conformance.browser import ChromiumOracle
from formtools._execute.fill import js_to_string
from formtools._synth.parameters import parameters_of
from formtools._forms.values import step_mismatch
from tests.conftest import FIXTURES
from tests.support.callgen import calls_for
from tests.support.formgen import generate_pages

GENERATED_PAGES = 160
MIN_SAMPLES = 2000

# Fill like executeTool, by script; answer whether every value was kept and the form is valid.
# The samples come as JSON text: Playwright's Python side serialized and validated a nested list
# value by value, a tenth of the test's time, where a string is one value.
_FILL_AND_CHECK = """
([toolname, ordinal, count, samplesJson]) => {
  const samples = JSON.parse(samplesJson);
  const proto = HTMLFormElement.prototype;  // controls named "reset" shadow the methods
  const form = [...document.forms]
    .filter(f => Element.prototype.getAttribute.call(f, "toolname") === toolname)[ordinal];
  if (!form) return null;
  const listed = [...document.querySelectorAll("button,fieldset,input,object,output,select,textarea")]
    .filter(e => e.form === form);
  if (listed.length !== count) return null;
  // #concept-option-disabled: its own attribute or a disabled optgroup parent (the IDL says only the first)
  const disabled = o => o.disabled || (o.parentElement.tagName === "OPTGROUP" && o.parentElement.disabled);
  const answers = [];
  for (const operations of samples) {
    proto.reset.call(form);
    let kept = true;
    for (const [how, positions, value] of operations) {
      const els = positions.map(p => listed[p]);
      if (how === "value") {
        els[0].value = value;
        kept = kept && els[0].value === value;
      } else if (how === "rounded") {
        kept = false;
      } else if (how === "checkbox") {
        els[0].checked = value;
      } else if (how === "radio") {
        const chosen = els.find(e => e.value === value);
        if (!chosen) { kept = false; continue; }
        els.forEach(e => { e.checked = false; });
        chosen.checked = true;
      } else if (how === "checkbox-group") {
        const known = new Set(els.map(e => e.value));
        if (new Set(value).size !== value.length || !value.every(v => known.has(v))) { kept = false; continue; }
        els.forEach(e => { e.checked = value.includes(e.value); });
      } else if (how === "select-one") {
        const select = els[0];
        select.value = value;
        const option = select.options[select.selectedIndex];
        kept = kept && !!option && option.value === value && !disabled(option);
      } else if (how === "select-multiple") {
        const options = [...els[0].options];
        const known = new Set(options.map(o => o.value));
        if (new Set(value).size !== value.length || !value.every(v => known.has(v))) { kept = false; continue; }
        options.forEach(o => { o.selected = value.includes(o.value); });
        kept = kept && options.every(o => !o.selected || !disabled(o));
      }
    }
    answers.push(kept && proto.checkValidity.call(form));
  }
  return answers;
}
"""

_HOW = {"checkbox": "checkbox", "radio": "radio", "checkbox-group": "checkbox-group",
        "select-one": "select-one", "select-multiple": "select-multiple"}  # fmt: skip
_JSON_TYPES = {
    "string": (str,),
    "number": (int, float),
    "integer": (int, float),
    "boolean": (bool,),
    "array": (list,),
}


def _typed(value: Any, schema: dict[str, Any]) -> bool:
    kinds = _JSON_TYPES[schema["type"]]
    if isinstance(value, bool) and bool not in kinds:
        return False
    if not isinstance(value, kinds):
        return False
    return not isinstance(value, list) or all(isinstance(item, str) for item in value)


def _mutations(schema: dict[str, Any], rng: random.Random) -> list[Any]:
    """Values near the property's default and enums: the edges a schema most often gets wrong."""
    default = schema.get("default")
    out: list[Any] = []
    if schema["type"] == "string":
        base = default if isinstance(default, str) else ""
        out += [base, base.upper(), " " + base, base + "\n", "", "a@b.example", " a@b.example ",
                "a@b.example,c@d.example", "a@b.example, c@d.example", "http://x.example/", "x y",
                "#ABCDEF", "#abcdef", "2024-02-29", "2023-02-29", "10:30", "10:30:00", "10:30:05.5",
                "2024-01-01T10:30", "2024-01-01T10:30:00", "2024-W05", "2024-13",
                base.replace("\n", "\r\n"), "a\r\nb", "a\rb", "b b", "c", " c "]  # fmt: skip
        out += list(schema.get("enum", []))
    elif schema["type"] in ("number", "integer"):
        for anchor in (default, schema.get("minimum"), schema.get("maximum"), 0):
            if isinstance(anchor, (int, float)):
                out += [anchor, anchor - 1, anchor + 1, anchor + 0.5, anchor - 0.1]
        out.append(rng.randint(-1000, 1000))
    elif schema["type"] == "boolean":
        out += [True, False]
    elif schema["type"] == "array":
        values = list(schema["items"].get("enum", []))
        out += [[], values, values[:1], values[-1:] * 2]
    return out


def _samples(
    tool: formtools.Tool, chromium_tool: formtools.Tool, rng: random.Random
) -> list[dict[str, Any]]:
    properties = tool.to_dict()["inputSchema"]["properties"]
    candidates = [c for c in calls_for(chromium_tool.to_dict(), rng) if isinstance(c, dict)]
    for key, schema in properties.items():
        candidates += [{key: value} for value in _mutations(schema, rng)]
    kept = []
    for candidate in candidates:
        if candidate and all(
            k in properties and _typed(v, properties[k]) for k, v in candidate.items()
        ):
            kept.append(candidate)
    return kept


def _operations(tool: formtools.Tool, sample: dict[str, Any]) -> list[list[Any]]:
    form = tool.form
    sorted_out = parameters_of(form, "html")
    operations = []
    for key, value in sample.items():
        parameter = sorted_out.get(key)
        assert parameter is not None and parameter.kind is not None
        positions = [form.controls.index(c) for c in parameter.group.controls]
        how = _HOW.get(parameter.kind, "value")
        shown = js_to_string(value) if how == "value" else value
        if how == "value" and not isinstance(value, str) and float(shown) != value:
            how = "rounded"  # executeTool fills toPrecision(6): not the value given
        operations.append([how, positions, shown])
    return operations


def fill_and_check(
    chromium: ChromiumOracle, extraction: formtools.Extraction, tool: formtools.Tool, samples: list[dict[str, Any]]
) -> list[bool] | None:
    """Each sample filled into ``tool``'s form in the loaded page as ``executeTool`` fills it:
    whether every value was kept and ``checkValidity()`` is true; None if the page's form is not
    the one formtools parsed (:data:`_FILL_AND_CHECK`)."""
    ordinal = [f for f in extraction.forms if f.attributes.get("toolname") == tool.name].index(tool.form)
    operations = json.dumps([_operations(tool, sample) for sample in samples])
    answers: list[bool] | None = chromium.page.evaluate(
        _FILL_AND_CHECK, [tool.name, ordinal, len(tool.form.controls), operations]
    )
    return answers


def submits(tool: formtools.Tool, sample: Any) -> bool | None:
    """Whether ``call`` would send ``sample`` (it raises on input or validity, before any I/O;
    a form without ``toolautosubmit`` is prepared with the problems that stop its submission);
    None when the form cannot be submitted by a call whatever the input (no submit button)."""
    try:
        prepared = formtools.prepare_call(tool, sample)
    except (formtools.InputError, formtools.ValidationError):
        return False
    except formtools.SubmissionError:
        return None
    return not prepared.problems


def validity_differences(
    where: str, tool: formtools.Tool, sample: Any, browser_valid: bool
) -> tuple[list[formtools.Problem], list[str]]:
    """One sample's ``validate_input`` problems, and where they disagree with ``call`` or with the
    browser's ``checkValidity()`` (Chromium's step tolerance excused), each said at ``where``."""
    problems = formtools.validate_input(tool, sample)
    sent = submits(tool, sample)
    found = []
    if sent is not None and sent != (not problems):
        found.append(f"{where}: validate {not problems}, call {sent}")
    if (not problems) != browser_valid and not (browser_valid and _step_tolerance(tool, sample, problems)):
        found.append(f"{where}: browser {browser_valid}, formtools {[str(p) for p in problems]}")
    return problems, found


def _step_tolerance(
    tool: formtools.Tool, sample: dict[str, Any], problems: list[formtools.Problem]
) -> bool:
    """Chromium accepts a number within step / 2**24 of a step (StepRange::AcceptableError:
    single-precision slack), which ``integer`` / ``multipleOf`` deliberately do not."""
    properties = tool.to_dict()["inputSchema"]["properties"]
    for problem in problems:
        schema = properties.get(problem.field or "", {})
        if problem.flag != "stepMismatch" or schema.get("x-formtools-html-type") not in ("number", "range"):
            return False
        if step_mismatch(
            schema["x-formtools-html-type"],
            js_to_string(sample[problem.field]),
            min=schema.get("x-formtools-min"),
            step=schema.get("x-formtools-step"),
            value_attribute=schema.get("x-formtools-step-base"),
        ):
            return False
    return bool(problems)


# Controls no call can fill, each invalid from the start (the class the generator never made):
# unnamed, a name shared with a button, a duplicate name, a group of mixed types, a pattern the
# value attribute breaks. With each, the form can never be valid, unless validation is skipped.
_STUCK = [
    "<input required>",
    "<input name=b required><button name=b>B</button>",
    "<input name=d required><input name=d>",
    "<input type=checkbox name=m required><input name=m>",
    "<input name=p pattern=[0-9]+ value=abc readonly2>",
    "<select required><option value=''>pick</option><option>a</option></select>",
    "<textarea required></textarea>",
]
_SKIPS = ["", " novalidate", "|formnovalidate"]


def _never_valid_forms() -> list[str]:
    forms = []
    for number, stuck in enumerate(_STUCK):
        for skip in _SKIPS:
            form = " novalidate" if skip == " novalidate" else ""
            button = " formnovalidate" if skip == "|formnovalidate" else ""
            forms.append(
                f"<form toolname=t{number}{skip.strip('| ')} tooldescription=d{form}><label>Q <input name=q required></label>"
                f"{stuck}<button{button}>Go</button></form>"
            )
    return forms


# Choices the issue named as false rejects (options without a value, duplicates of a disabled
# option, empty values, duplicate items of a multi-select, CRLF in a textarea), each with and
# without required: the schema must take every value the browser keeps.
_CHOICE_EDGES = [
    "<select name=s{r}><option>a</option><option>b b</option><option> c </option></select>",
    "<select name=s{r}><option disabled>a</option><option>a</option><option value=b>B</option></select>",
    "<select name=s{r}><option value=a disabled>A</option><option value=a>A2</option></select>",
    "<select name=s{r}><option value=''>none</option><option value=''>none2</option><option>x</option></select>",
    "<select name=s{r}><optgroup label=g disabled><option>a</option></optgroup><option>a</option></select>",
    "<select name=m multiple{r}><option>a</option><option>a</option><option>b</option></select>",
    "<select name=m multiple{r}><option disabled>a</option><option>a</option><option value=''>e</option></select>",
    "<textarea name=t{r}>line\r\nnext</textarea>",
    "<input type=radio name=r value=''{r}><input type=radio name=r value=x><input type=radio name=r value=x>",
    "<input type=checkbox name=c value=a{r}><input type=checkbox name=c value=a><input type=checkbox name=c>",
    # radio groups whose validity involves radios that are no parameter, or several groups in
    # one parameter (found by review): a disabled checked or disabled required member, unnamed
    # radios (Blink: in no group), names that differ only in spaces
    "<input type=radio name=r value=a{r}><input type=radio name=r value=b checked disabled>",
    "<input type=radio name=r value=a{r} disabled><input type=radio name=r value=b>",
    "<input type=radio name=r value=a{r}><input type=radio name=r value=b disabled{r}>",
    "<input type=radio name=' r' value=a{r}><input type=radio name=r value=b>",
    "<input type=radio name=r value=a><input type=radio name=' r' value=b{r}><input type=radio name='r ' value=c{r}>",
    "<input type=radio{r}><input type=radio name='' value=x{r}><input name=q>",
    # readonly bars every input from constraint validation, a checkbox or radio too (review)
    "<input type=radio name=r value=a readonly{r}><input type=radio name=r value=b>",
    "<input type=checkbox name=c readonly{r}><input type=color name=k readonly{r}>",
]


def _choice_edge_forms() -> list[str]:
    forms = []
    for number, edge in enumerate(_CHOICE_EDGES):
        for required in ("", " required"):
            control = edge.replace("{r}", required)
            forms.append(f"<form toolname=e{number}{required.strip()} tooldescription=d>{control}<button>Go</button></form>")
    return forms


def _pages() -> list[tuple[str, bytes]]:
    pages = [(path.stem, path.read_bytes()) for path in sorted(Path(FIXTURES).glob("*.html"))]
    # the hand-written forms, each its own tool, as one page per part: a form's validity is its
    # own controls' (radio groups, names and buttons do not reach past a form), so the forms share
    # a load as they would a page (66 single-form pages took 66 loads)
    forms = [*_never_valid_forms(), *_choice_edge_forms()]
    pages += [
        (f"hand-written-{part}", ("<!doctype html><meta charset=utf-8>" + "".join(forms[part::_PARTS])).encode())
        for part in range(_PARTS)
    ]
    pages += [
        (name, html.encode("utf-8")) for name, html in generate_pages(GENERATED_PAGES, seed=4)
    ]
    return pages


#: the pages are checked in this many parts (a part's pages: every _PARTS-th), so that xdist's
#: workers share the minute they take; each part brings its share of MIN_SAMPLES
_PARTS = 4


@pytest.mark.spec_step("synth-5.2", "exec-validate-2")
@pytest.mark.browser
@pytest.mark.parametrize("part", range(_PARTS))
def test_html_validator_agrees_with_check_validity(chromium: ChromiumOracle, part: int) -> None:
    counts: Counter[str] = Counter()
    disagreements: list[str] = []
    for number, (name, body) in list(enumerate(_pages()))[part::_PARTS]:
        document = formtools.parse_html(body)
        extraction = formtools.synthesize(document, "html")
        html_tools = extraction.tools
        if not html_tools:
            continue
        chromium_tools = {t.name: t for t in formtools.synthesize(document, "chromium").tools}
        url = chromium.site.put(f"/html-profile/{number}", body, "text/html")
        chromium.page.goto(url)
        for tool in html_tools:
            if "x-formtools-unsatisfiable" in tool.input_schema:
                counts["forms never valid (the schema accepts nothing)"] += 1
            if any(p.control.type == "file" for p in invalid_controls(initial_state(tool.form))):
                # a call attaches files (files=); executeTool cannot, so the browser never agrees
                counts["forms needing a file (excluded)"] += 1
                continue
            rng = random.Random(f"{name}/{tool.name}")
            samples = _samples(tool, chromium_tools[tool.name], rng)
            answers = fill_and_check(chromium, extraction, tool, samples)
            if answers is None:
                counts["forms not found as parsed (shadow DOM, customizable select; excluded)"] += 1
                continue
            counts["forms"] += 1
            for sample, browser_valid in zip(samples, answers):
                problems = formtools.validate_input(tool, sample)
                ours = not problems
                sent = submits(tool, sample)
                if sent is not None and ours != sent:
                    disagreements.append(f"{name} {tool.name} {sample!r}: validate {ours}, call {sent}")
                counts["samples"] += 1
                counts["browser valid" if browser_valid else "browser invalid"] += 1
                if ours == browser_valid:
                    counts["agree"] += 1
                elif browser_valid and _step_tolerance(tool, sample, problems):
                    counts["explained: Chromium's step tolerance"] += 1
                else:
                    disagreements.append(
                        f"{name} {tool.name} {sample!r}: browser {browser_valid}, formtools "
                        f"{[str(p) for p in problems]}"
                    )
    print(
        f"\nhtml profile vs checkValidity(): {counts['agree']}/{counts['samples']} agree",
        dict(counts),
    )
    for line in disagreements[:40]:
        print("  ", line)
    assert counts["samples"] >= MIN_SAMPLES // _PARTS
    assert not disagreements, f"{len(disagreements)} disagreement(s); first: {disagreements[0]}"


# What may come before a required drop-down's empty option, or wrap it: Chromium 156 takes an
# option for the placeholder label option only when it is the select's first *list item*
# (HTMLSelectElement::IsPlaceholderLabelOption: ListIndex() == 0), so an <hr> or an empty
# optgroup before it makes it an ordinary choice; the parts that hold no list item do not.
_BEFORE_EMPTY_OPTION = [
    "<hr>", "<optgroup label=g></optgroup>", "<optgroup label=g><option>o</option></optgroup>",
    "<div><hr></div>", "<datalist><hr></datalist>", "<template><hr></template>", "<!-- c -->",
    "text ", "<div></div>", "<span><hr></span>", "<option value=' '>s</option>",
]  # fmt: skip
_EMPTY_OPTIONS = [
    "<option value=''>p</option>", "<option></option>", "<div><option value=''>p</option></div>",
    "<optgroup label=h><option value=''>p</option></optgroup>", "<option value='' disabled>p</option>",
]  # fmt: skip
_AFTER_EMPTY_OPTION = ["<option>x</option>", "<hr>", "<option value=''>q</option>", "<option disabled>y</option>"]


def placeholder_edge_forms(count: int, seed: int) -> list[str]:
    """Forms of one required select each: none, one or two of :data:`_BEFORE_EMPTY_OPTION`, an
    empty option, and what follows it; a drop-down, a list box or a multiple select; named (a
    parameter) or unnamed beside a parameter ``q`` (no call can choose for it)."""
    rng = random.Random(seed)
    forms = []
    for number in range(count):
        before = "".join(rng.sample(_BEFORE_EMPTY_OPTION, rng.choice([0, 1, 1, 2])))
        after = "".join(rng.choice(_AFTER_EMPTY_OPTION) for _ in range(rng.randint(0, 2)))
        kind = rng.choice(["", "", " size=1", " size=2", " multiple"])
        name = rng.choice([" name=s", ""])
        select = f"<select{name} required{kind}>{before}{rng.choice(_EMPTY_OPTIONS)}{after}</select>"
        forms.append(f"<form toolname=p{number} tooldescription=d><input name=q>{select}<button>Go</button></form>")
    return forms


@pytest.mark.spec_step("synth-5.10", "exec-submit-4.2")
@pytest.mark.browser
def test_placeholder_label_options_are_chromiums(chromium: ChromiumOracle) -> None:
    """Which empty option of a required select is its placeholder (selecting it alone is
    valueMissing; a select that can hold nothing else makes the form never valid) is decided as
    Chromium decides it: every value the ``html`` validator takes for the select, and whether it
    takes any input at all, held to ``checkValidity()`` after ``executeTool``'s fill, for 60
    generated forms in one page load."""
    body = ("<!doctype html><meta charset=utf-8>" + "".join(placeholder_edge_forms(60, seed=21))).encode()
    document = formtools.parse_html(body)
    extraction = formtools.synthesize(document, "html")
    chromium_tools = {t.name: t for t in formtools.synthesize(document, "chromium").tools}
    chromium.page.goto(chromium.site.put("/placeholder-edges", body, "text/html"))
    differences, checked = [], 0
    for tool in extraction.tools:
        # the select's samples (the text input's are the big test's), each with "q" filled
        choices = [sample for sample in _samples(tool, chromium_tools[tool.name], random.Random(tool.name)) if "q" not in sample]
        samples = [{"q": "x", **sample} for sample in [{}, *choices]]
        answers = fill_and_check(chromium, extraction, tool, samples)
        assert answers is not None, tool.name
        for sample, browser_valid in zip(samples, answers):
            checked += 1
            differences += validity_differences(f"{tool.name} {sample!r}", tool, sample, browser_valid)[1]
    assert checked >= 250
    forms = sorted({difference.split()[0] for difference in differences})
    assert not differences, f"{len(differences)} differences, forms {forms}:\n" + "\n".join(differences[:20])
