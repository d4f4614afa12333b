"""A bounded fuzzer over the parser, the synthesizer and the call preparation (hypothesis).

Markup is drawn from a grammar of the pieces forms are made of — form, input of every type,
select/option/optgroup, textarea, button, fieldset/legend, label, template, table parts, SVG,
attributes with hostile values (huge, control characters, bad numbers and patterns, entity
soup, numeric references of thousands of digits) — glued with random text and stray tags,
after a prefix (a doctype, a long doctype, a charset, a stray end tag). Every draw
goes through both parsers, every profile (its bytes through both parsers too), lint's diagnostics
and a call with random input. The
property: nothing raises but formtools' own errors (no crash, no traceback) and nothing hangs (a
per-example deadline). The run is bounded (``FORMTOOLS_FUZZ_EXAMPLES``, 300 by default) so CI
stays fast; raise it to fuzz longer.
"""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import formtools

EXAMPLES = int(os.environ.get("FORMTOOLS_FUZZ_EXAMPLES", "300"))

TYPES = [
    "text", "search", "email", "url", "tel", "password", "number", "range", "date", "month", "week",
    "time", "datetime-local", "color", "checkbox", "radio", "file", "hidden", "submit", "image",
    "reset", "button", "bogus", "",
]
VALUES = st.one_of(
    st.sampled_from(["", "0", "-1", "1e308", "NaN", "2025-13-40", "#fff", "a b", "x" * 3000, "[", "(?<", "\\", "&amp;", "&#0;", "&#x110000;",
                     "&#" + "0" * 5_000 + "65;", "&#" + "9" * 5_000 + ";", "&#x" + "0" * 5_000 + "41"]),
    st.text(max_size=20),
)
ATTRIBUTES = st.sampled_from([
    "name", "value", "min", "max", "step", "pattern", "required", "disabled", "readonly", "multiple",
    "form", "id", "toolparamdescription", "toolname", "tooldescription", "toolautosubmit", "action",
    "method", "enctype", "accept-charset", "novalidate", "formaction", "formmethod", "target",
    "formtarget", "autocomplete", "for", "selected", "checked", "maxlength", "size", "list", "dirname",
])


@st.composite
def attribute(draw: st.DrawFn) -> str:
    name = draw(ATTRIBUTES)
    value = draw(VALUES).replace('"', "&quot;")
    return f' {name}="{value}"' if draw(st.booleans()) else f" {name}"


@st.composite
def element(draw: st.DrawFn, depth: int = 0) -> str:
    attributes = "".join(draw(st.lists(attribute(), max_size=4)))
    kind = draw(st.sampled_from([
        "input", "select", "textarea", "button", "fieldset", "label", "legend", "form", "template",
        "table", "tr", "td", "div", "p", "svg", "option", "optgroup", "output", "datalist", "base",
        "iframe", "dialog", "b",
    ]))
    if kind == "input":
        return f'<input type="{draw(st.sampled_from(TYPES))}"{attributes}>'
    if kind == "base":
        return f"<base{attributes}>"
    children = ""
    if depth < 3:
        children = "".join(draw(st.lists(st.one_of(element(depth + 1), st.text(max_size=8)), max_size=4)))
    closing = f"</{kind}>" if draw(st.integers(0, 4)) else ""  # sometimes left open
    return f"<{kind}{attributes}>{children}{closing}"


@st.composite
def page(draw: st.DrawFn) -> str:
    forms = draw(st.lists(element(), min_size=1, max_size=4))
    prefix = draw(st.sampled_from([
        "", "<!doctype html>", "<meta charset=shift_jis>", "</form>", "<table>",
        "<!DOCTYPE " + "a" * 50_001 + ">",  # (one past libxml2's longest name)
    ]))
    return prefix + '<form toolname="t" tooldescription="d" action="/a">' + "".join(forms)


def _exercise(markup: str) -> None:
    """The text through every parser and profile; its bytes (decoded, the way a crawl reads a
    page: a declared charset, invalid UTF-8 from lone surrogates) through every parser once, since
    which profile synthesizes a form does not depend on how its page was decoded. Each parser
    reads the page once: the other profiles synthesize the document it gave (the parse does not
    depend on the profile; parsing it again for each cost a third of the run)."""
    raw_bytes = markup.encode("utf-8", "surrogatepass")
    for raw, profiles in ((markup, ("chromium", "html", "portable")), (raw_bytes, ("chromium",))):
        for parser in ("auto", "html5lib"):
            page: str | bytes | formtools.Document = raw
            for profile in profiles:
                extraction = formtools.extract(page, base_url="https://site.example/p", profile=profile, parser=parser)
                page = extraction.document
                for diagnostic in extraction.diagnostics:
                    assert diagnostic.message
                for tool in extraction.tools:
                    tool.to_dict("mcp")
                    formtools.validate_input(tool, {})
                    for arguments in ({}, {k: "1" for k in tool.input_schema.get("properties", {})}):
                        try:
                            formtools.prepare_call(tool, arguments)
                        except formtools.FormtoolsError:
                            pass  # a refusal is an answer; anything else is a bug


@settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,  # the same draws on every run: a failure is reproducible
)
@given(page())
def test_no_crash_and_no_hang(markup: str) -> None:
    _exercise(markup)
