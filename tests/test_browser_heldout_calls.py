"""Calls on pages no generator of ours made, against the real Chromium, live.

An outside tester wrote pages unlike formtools' generators and compared the request Chromium's
``executeTool`` sends with ``prepare_call``'s; each class it found wrong is a family here, made
by a generator over the dimensions that decide it, and every page is checked on both parse paths:

- dirname: the control's own ``dir`` × an ancestor's × ``<html dir>`` × the value (Chromium sends
  ``ltr``/``rtl`` as the page spelled them, skips invalid values, reads ``<html>``, and resolves
  an ancestor's ``auto`` from its text), and ``auto``'s first strong character by Chromium's
  Unicode data over seeded code points (truth22, from the engines' dirname tests);
- controls inside a ``<datalist>`` (barred from validation, yet submitted, a button there is
  the default button) and option values (an option's scripts are no part of its value, a
  template's contents no part of any text);
- a lone surrogate in the input, which Chromium's JSON round trip refuses;
- and for the tools themselves (``getTools()``): label and option texts around templates and
  scripts.

What Chromium 156's customizable-select parser builds differently from html5lib 1.1 (a
datalist, template or textarea inside a select, an hr among a multi-select's options) was a
departure; the exact path now builds Chromium's tree (``tests/test_browser_select.py`` draws
the family).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._conformance.diff import unified_diff
from support.parity import call_differences, one_load_suffices, tool_differences

pytestmark = pytest.mark.browser

FORM = "<form toolname=t tooldescription=d toolautosubmit method=post action=/sink>"


def _page(body: str, html_attributes: str = "") -> str:
    return f"<!doctype html><html{html_attributes}><meta charset=utf-8><body>{FORM}{body}</form>"


def _dirname_controls() -> list[tuple[str, str, str, str]]:
    """Each dirname case as (name, ``<html>``'s dir attribute, markup with ``{n}`` where its
    control's number goes, value)."""
    own = [None, "RTL", "Ltr", "foo", "", "auto"]
    around = {
        None: ("", ""),
        "RtL": ('<div dir="RtL">', "</div>"),
        "foo": ('<div dir="foo">', "</div>"),
        "auto, Hebrew text first": ("<div dir=auto>שלום ", "</div>"),
        "auto, Latin text first": ("<div dir=AUTO>hello ", "</div>"),
        "auto, digits only": ("<div dir=auto>123 ", "</div>"),
        "auto, Hebrew after the control": ("<div dir=auto>", " שלום</div>"),
        "auto, Hebrew in a script": ("<div dir=auto><script>'שלום'</script>", "</div>"),
        "auto, Hebrew in a dir=ltr span": ("<div dir=auto><span dir=ltr>שלום</span>x", "</div>"),
        "auto, Hebrew in a bdi": ("<div dir=auto><bdi>שלום</bdi>", "</div>"),
        "auto, Hebrew in a template": ("<div dir=auto><template>שלום</template>", "</div>"),
        "auto, Hebrew in a comment": ("<div dir=auto><!--שלום-->", "</div>"),
        "auto, Hebrew in a span": ("<div dir=auto><span>שלום</span>", "</div>"),
        # SVG's and MathML's dir is none of HTML's (a review's finding)
        "rtl, then an SVG dir=ltr": ("<div dir=rtl><svg dir=ltr><foreignObject>", "</foreignObject></svg></div>"),
        "auto, Hebrew in an SVG with a dir": ("<div dir=auto><svg dir=ltr><text>שלום</text></svg>", "</div>"),
        "auto, Hebrew in MathML with a dir": ("<div dir=auto><math dir=ltr><mi>ש</mi></math>", "</div>"),
    }
    html = [None, "rtl", "auto"]
    cases = []
    for mine, (outer, (opening, closing)), top, value in itertools.product(
        own, around.items(), html, ["abc", "שלום"]
    ):
        if top is not None and outer not in (None, "foo") or (mine == "auto" and outer is not None):
            continue  # (what they would show is shown by the cases kept)
        attribute = "" if mine is None else f' dir="{mine}"'
        top_attribute = "" if top is None else f' dir="{top}"'
        control = f"{opening}<input name=d{{n}} dirname=dd{{n}}{attribute}>{closing}"
        cases.append((f"own {mine!r}, around {outer!r}, html {top!r}, value {value!r}", top_attribute, control, value))
    # a telephone input without dir reads left to right whatever is around it
    for own_tel, value in itertools.product([None, "foo", "", "RTL", "auto"], ["123", "שלום"]):
        attribute = "" if own_tel is None else f' dir="{own_tel}"'
        control = f"<div dir=rtl><input type=tel name=d{{n}} dirname=dd{{n}}{attribute}></div>"
        cases.append((f"tel, own {own_tel!r}, value {value!r}", "", control, value))
    return cases


def _dirname_pages(per_page: int = 40) -> list[tuple[str, str, dict[str, Any]]]:
    """The cases, many to a page (one call sends each control's dirname entry; a page per case
    cost a page load and a call each, 216 of them): the controls sharing an ``<html dir>`` go
    together, each in its own surroundings, so no case reads another's text."""
    by_top: dict[str, list[tuple[str, str, str]]] = {}
    for name, top, control, value in _dirname_controls():
        by_top.setdefault(top, []).append((name, control, value))
    pages = []
    for top, cases in by_top.items():
        for start in range(0, len(cases), per_page):
            chunk = cases[start : start + per_page]
            body = "".join(control.replace("{n}", str(n)) for n, (_, control, _) in enumerate(chunk))
            names = "; ".join(f"d{n}: {name}" for n, (name, _, _) in enumerate(chunk))
            pages.append((f"[{names}]", _page(body, top), {f"d{n}": value for n, (_, _, value) in enumerate(chunk)}))
    return pages


CONTENTS = [
    ("hidden input in a datalist", '<input name=q><datalist><input type=hidden name=dh value=h></datalist>', {"q": "1"}),
    ("text input in a datalist, given", '<input name=q><datalist><input name=dl></datalist>', {"q": "1", "dl": "v"}),
    ("required input in a datalist", '<input name=q><datalist><input name=dl required></datalist>', {"q": "1"}),
    ("mismatched input in a datalist", '<input name=q><datalist><input name=dl pattern=x value=y></datalist>', {"q": "1"}),
    ("a datalist's button is the default", '<input name=q><datalist><button name=db value=x>b</button></datalist><button name=real value=r>go</button>', {"q": "1"}),
    ("select, checkbox, textarea in a datalist", '<input name=q><datalist><div><select name=s><option>a<option selected>b</select><input type=checkbox name=c checked><textarea name=ta>tv</textarea></div></datalist>', {"q": "1"}),
    ("option with a script, by its value", '<input name=q><select name=s><option>a<script>1</script>b</option><option>c</select>', {"q": "1", "s": "ab"}),
    ("option with a script, by its text", '<input name=q><select name=s><option>a<script>1</script>b</option><option>c</select>', {"q": "1", "s": "a1b"}),
    ("option with a script, default", '<input name=q><select name=s><option>a<script>1</script>b</option><option>c</select>', {"q": "1"}),
    ("option with an SVG script", '<input name=q><select name=s><option>a<svg><script>1</script></svg>b</option><option>c</select>', {"q": "1"}),
    ("option with a style, noscript and span", '<input name=q><select name=s><option>a<style>p{}</style><noscript>n</noscript><span>s</span>b</select>', {"q": "1"}),
    ("option with a label and a script", '<input name=q><select name=s><option label=L>a<script>1</script>b</select>', {"q": "1"}),
    ("datalist suggestion with a script", '<input name=q list=l><datalist id=l><option>a<script>1</script>b</datalist>', {"q": "ab"}),
    ("a lone surrogate in a value", "<input name=q>", {"q": "a\ud800b"}),
    ("a lone low surrogate in a value", "<input name=q>", {"q": "\udc00"}),
    ("a surrogate pair in a value", "<input name=q>", {"q": "a\U0001F600b"}),
]

# Chromium 156's select parser keeps what html5lib 1.1's select mode drops or moves
CUSTOMIZABLE_SELECT = [
    ("datalist option in a select", '<input name=q><select name=s><datalist><option>dl</datalist><option>x</select>', {"q": "1"}),
    ("template in an option", '<input name=q><select name=s><option>a<template>t</template>b</option><option>c</select>', {"q": "1"}),
    ("textarea in an option", '<input name=q><select name=s><option>a<textarea name=ta>tv</textarea></select>', {"q": "1"}),
    # Chromium keeps the hr (html5lib drops it), and it is one of the list items executeTool
    # selects a multi-select's options by (exec-fill-5.4): ["c"] selects the hr, so nothing
    ("hr among a multi-select's options", '<select name=s multiple><option>a</option><hr><option>c</option></select>', {"s": ["c"]}),
]


def _differences(chromium: ChromiumOracle, cases: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    return [
        f"{name} {difference}"
        for number, (name, html, tool_input) in enumerate(cases)
        for difference in call_differences(chromium, html, tool_input, f"/heldout/{number}.html")
    ]


@pytest.mark.spec_step("exec-request-5")
def test_dirname_matches_chromium(chromium: ChromiumOracle) -> None:
    assert len(_dirname_controls()) > 150
    pages = _dirname_pages()
    differences = _differences(chromium, pages)
    assert not differences, f"{len(differences)} of {2 * len(pages)}:\n" + "\n".join(differences[:20])


#: where a code point's strong direction is most often read wrongly: right-to-left blocks
#: (whose unassigned code points are R or AL), and mathematical letters whose class Unicode 16 changed
_RTL_BLOCKS = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF), (0x10800, 0x10FFF), (0x1E800, 0x1EFFF))
_MATH_LETTERS = (0x1D6A8, 0x1D7CB)


def _first_strong_code_points(rng: random.Random, count: int) -> list[int]:
    """Half drawn from every code point but surrogates and C0/C1 controls, half from
    :data:`_RTL_BLOCKS` and :data:`_MATH_LETTERS`."""
    drawn: list[int] = []
    while len(drawn) < count:
        if len(drawn) % 2:
            low, high = rng.choice((*_RTL_BLOCKS, _MATH_LETTERS))
            code_point = rng.randint(low, high)
        else:
            code_point = rng.randrange(0xA0, 0x110000)
        if not 0xD800 <= code_point <= 0xDFFF:
            drawn.append(code_point)
    return drawn


@pytest.mark.spec_step("exec-request-5")
def test_dirname_reads_a_values_first_strong_character_as_chromium(chromium: ChromiumOracle) -> None:
    """``dir=auto`` takes the direction of the first character whose bidi class is L, R or AL,
    by Chromium's Unicode data: an unassigned code point is L, or R/AL in a right-to-left block,
    and a character added after the Unicode version of Python's ``unicodedata`` has its class
    (formtools read Python's data, so ``U+05FF`` then ``a`` was ltr, Chromium's rtl, and a Kawi
    letter before Hebrew rtl where Chromium says ltr). 60 seeded code points, each before a
    Hebrew letter (ltr iff it is L) and before a Latin one (rtl iff it is R or AL), as a
    control's value and as the text of a ``dir=auto`` ancestor; one page, one call."""
    code_points = _first_strong_code_points(random.Random("dirname-first-strong"), 60)
    values = [chr(code_point) + after for code_point in code_points for after in ("\u05d0", "a")]
    controls = "".join(f"<input name=v{n} dir=auto dirname=v{n}.dir>" for n in range(len(values)))
    ancestors = "".join(
        f"<div dir=auto>&#x{code_point:X};{after}<input name=a{n} dirname=a{n}.dir></div>"
        for n, (code_point, after) in enumerate(itertools.product(code_points[:20], ("\u05d0", "a")))
    )
    page = _page(controls + ancestors)
    tool_input = {f"v{n}": value for n, value in enumerate(values)}
    differences = call_differences(chromium, page, tool_input, "/heldout/first-strong.html")
    assert not differences, f"code points {[f'U+{c:04X}' for c in code_points]}:\n" + "\n".join(differences)


@pytest.mark.spec_step("exec-request-5")
def test_datalist_contents_option_values_and_surrogates_match_chromium(chromium: ChromiumOracle) -> None:
    cases = [(name, _page(body), tool_input) for name, body, tool_input in CONTENTS]
    differences = _differences(chromium, cases)
    assert not differences, "\n".join(differences)


@pytest.mark.parametrize("name, body, tool_input", CUSTOMIZABLE_SELECT, ids=[c[0] for c in CUSTOMIZABLE_SELECT])
def test_customizable_select_parsing_matches_chromium(chromium: ChromiumOracle, name: str, body: str, tool_input: dict[str, Any]) -> None:
    assert not _differences(chromium, [(name, _page(body), tool_input)])


TEXTS = {
    "template in a wrapping label": '<label>Email<template><span>we never share it</span></template> <input name=email></label>',
    "template in a for= label": '<label for=n>Nickname<template>shown on hover</template></label><input id=n name=nick>',
    "label holding only a template": '<label><template>only a template</template><input name=code></label>',
    "template in a radio's label": '<label><input type=radio name=plan value=one>One<template>x</template></label><label><input type=radio name=plan value=two>Two</label>',
    "template in a nested span of a label": '<label><span>Name<template><b>t</b></template></span><input name=who></label>',
    "script in an option": '<select name=size><option>Small<script type=text/plain>x</script></option><option>Large</option></select>',
    "SVG script in an option": '<select name=size><option>A<svg><script>X</script></svg>Z</option><option>B</option></select>',
    "script in a datalist option": '<input name=color list=c><datalist id=c><option>red<script>z</script></option></datalist>',
    "template in a datalist option": '<input name=color list=c><datalist id=c><option>Q<template>T</template></option></datalist>',
}


@pytest.mark.parametrize("name", list(TEXTS))
def test_texts_around_templates_and_scripts_match_chromium(chromium: ChromiumOracle, name: str) -> None:
    """Both parse paths against one answer of Chromium's (a test per path asked it twice)."""
    html = f"<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d>{TEXTS[name]}<button>go</button></form>"
    answer = chromium.stable_tools(html, reload=not one_load_suffices(html))
    assert answer.stable
    diffs = [
        unified_diff(answer.tools, [tool.to_dict() for tool in formtools.extract_tools(html, parser=parser)], f"{name} ({parser})")  # type: ignore[arg-type]
        for parser in ("auto", "html5lib")
    ]
    assert not any(diffs), "\n".join(diffs)


SUGGESTIONS = {
    "a template inside the datalist": "<datalist id=l><option>red<template><option>TEMPLATE-ONLY</template></datalist>",
    "a declarative shadow root inside it": "<datalist id=l><option>red<div><template shadowrootmode=open><option>SHADOW-ONLY</template></div></datalist>",
    "a script inside an option": "<datalist id=l><option>re<script>1</script>d</datalist>",
    "options in a div and an optgroup": "<datalist id=l><div><option>a</div><optgroup><option>b</optgroup><option value=c>x</datalist>",
}

_LIST_OPTIONS = "() => Array.from(document.querySelector('input[list]').list.options, (o) => o.value)"


@pytest.mark.parametrize("name", list(SUGGESTIONS))
def test_datalist_suggestions_are_chromiums_list_options(chromium: ChromiumOracle, name: str) -> None:
    """The html profile's ``examples`` come from ``input.list.options``: template and shadow-root
    contents are not the datalist's (a review found them suggested)."""
    html = f"<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d><input name=c list=l>{SUGGESTIONS[name]}<button>go</button></form>"
    chromium.page.goto(chromium.site.put(f"/suggestions/{list(SUGGESTIONS).index(name)}.html", html.encode(), "text/html; charset=utf-8"))
    theirs = chromium.page.evaluate(_LIST_OPTIONS)
    for parser in ("auto", "html5lib"):
        (tool,) = formtools.extract_tools(html, parser=parser)  # type: ignore[arg-type]
        control = next(c for c in tool.form.controls if c.attributes.get("name") == "c")
        assert list(control.suggestions) == theirs, parser


_TOOL = "<form toolname=t tooldescription=d><select name=s>{}</select><input name=q{}><button>go</button></form>"
#: tokens past what html5lib and libxml2 take as they come: (before the form, the options, the
#: input's attributes); <dialog> sends a page down the html5lib path
EXTREME_TOKENS = {
    "a doctype name of 60,000 characters": ("<!DOCTYPE " + "a" * 60_000 + "><dialog></dialog>", "<option>x", ""),
    "a public identifier of 60,000": ('<!DOCTYPE html PUBLIC "' + "p" * 60_000 + '"><dialog></dialog>', "<option>x", ""),
    "references of 5,000 digits": (
        "<!doctype html><dialog></dialog>",
        "<option>&#" + "0" * 5_000 + "65;<option>&#x" + "0" * 5_000 + "42<option>&#" + "9" * 5_000 + ";",
        " value='&#" + "0" * 5_000 + "67;'",
    ),
    "references past U+10FFFF and at the edges": (
        "<!doctype html><dialog></dialog>",
        "<option>&#1114111;<option>&#1114112;<option>&#x110000;<option>&#0;<option>&#x80;<option>&#xDFFF;",
        "",
    ),
    "a comment of 60,000 dashes and a long tag name": (
        "<!doctype html><dialog></dialog><!--" + "-a" * 30_000 + "-->",
        "<option>x<b" + "c" * 60_000 + ">y</b" + "c" * 60_000 + ">",
        "",
    ),
}


@pytest.mark.parametrize("name", list(EXTREME_TOKENS))
def test_extreme_tokens_read_as_chromium_reads_them(chromium: ChromiumOracle, name: str) -> None:
    """An attack found the html5lib path stopped by what a browser reads without a second look:
    a doctype name or identifier of 50,000 characters (libxml2 refuses the name html5lib hands
    it), a numeric reference of more than 4,300 decimal digits (Python refuses the int); and
    long names and comments were read in n² (see test_linear_cost)."""
    before, options, attributes = EXTREME_TOKENS[name]
    differences = tool_differences(chromium, before + _TOOL.format(options, attributes), name)
    assert not differences, differences[0]


#: SVG and MathML elements named like HTML ones (which html5lib's rules for HTML took for them),
#: integration points, and the ``</p>`` and ``</br>`` that leave foreign content; no template and
#: no HTML select (html5lib 1.1 has no template insertion modes, and Chromium 156 parses a select
#: as customizable: departures of their own)
FOREIGN_PIECES = [
    "<svg>", "</svg>", "<math>", "</math>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "<tbody>", "<caption>",
    "<colgroup>", "<html>", "<option>", "<optgroup>", "<address>", "</address>", "<rt>", "<ruby>", "<desc>",
    "<foreignObject>", "<annotation-xml encoding=text/html>", "<mi>", "<title>", "</title>", "<table>",
    "</table>", "<div>", "</div>", "<p>", "</p>", "</br>", "x", "<form>", "</form>",
]
#: shapes the first fuzzer found stopping the parse with an AssertionError
FOREIGN_STOPS = [
    "<svg><select><desc><table><td></table>x",
    "<math><select><annotation-xml encoding=text/html><select><input name=z>",
    "<svg><colgroup><foreignObject><select><input name=z>",
    "<table><svg><html>",
]
#: an end tag that must stop at the HTML element, not at an SVG one of its name (an input after
#: it was left in the template's contents, no control)
FOREIGN_NAMESAKE_ENDS = [
    "<form toolname=t tooldescription=d><template><svg><template><foreignObject><div></template><input name=a><button>go</button></form>",
    "<template><form><svg><form><foreignObject><div></form><input name=b></template><form toolname=t tooldescription=d><input name=a><button>go</button></form>",
]


def _foreign_soups() -> list[str]:
    rng = random.Random(156)
    controls = ["<input name=i{}>", "<textarea name=t{}></textarea>", "<input type=checkbox name=c{}>", "<button name=b{} value=v>go</button>"]
    soups = []
    for number in range(60):
        parts = [rng.choice(["", "<table>", "<table><tr><td>"]), "<form toolname=t tooldescription=d>"]
        for position in range(rng.randint(3, 25)):
            roll = rng.random()
            parts.append(rng.choice(controls).format(f"{number}_{position}") if roll < 0.3 else rng.choice(FOREIGN_PIECES))
        soups.append("".join(parts))
    return soups + [stop + _TOOL.format("<option>x", "") for stop in FOREIGN_STOPS] + FOREIGN_NAMESAKE_ENDS


def test_foreign_content_reads_as_chromium_reads_it(chromium: ChromiumOracle) -> None:
    """html5lib's rules for HTML read a name without its namespace: an SVG or MathML ``tr``,
    ``option``, ``html`` … was taken for the HTML element (the parse stopped at an assertion
    only a fragment's parse meets: ``<table><svg><html>``, found by a character fuzzer), and
    html5lib 1.1 predates the rule that ``</p>`` and ``</br>`` leave foreign content (``<math>
    </p><input>`` made a MathML input, no control). Seeded soups of both, the shapes that
    stopped the parse, and ``</template>`` / ``</form>`` with an SVG namesake open (the pop
    stopped at it), after a ``<dialog>`` (the html5lib path): Chromium's tools on both paths."""
    differing = [diff for soup in _foreign_soups() for diff in tool_differences(chromium, "<!doctype html><dialog></dialog>" + soup, soup)]
    assert not differing, f"{len(differing)} differ:\n" + differing[0]
