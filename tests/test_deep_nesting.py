"""Deep markup: Blink stops nesting the DOM at a stack depth of 513 and formtools does what it
does (``formtools._parse.exact``), in time linear in the depth.

Near the limit the cap decides what a form is made of: a label one level too deep no longer holds
its input, a disabled fieldset no longer disables it. The live test holds formtools to Chromium on
pages built around the limit; the others hold the fast path to the exact one and bound the work.
"""

from __future__ import annotations

import random

import pytest

import formtools
from formtools._parse.fast import fast_document
from support.cost import lines
from support.parity import answer_differences, one_load_suffices

NEAR_THE_LIMIT = range(504, 518)


def deep_page(depth: int) -> str:
    """Forms whose controls sit ``depth`` elements deep, inside labels, a disabled fieldset, a
    select and a void element, then a form after the deep part."""
    inner = (
        "<label>Name <span><input name=a></span></label>"
        "<fieldset disabled><legend>L</legend><input name=b><p><input name=c></p></fieldset>"
        "<select name=s><option>one<option>two</select><br><input type=checkbox name=k>"
    )
    return (
        f"<form toolname=t{depth} tooldescription=d toolautosubmit>"
        + "<div>" * depth + inner + "</div>" * depth
        + f"</form><form toolname=after{depth} tooldescription=d><input name=z><button>Go</button></form>"
    )


def tools(markup: str, parser: str = "auto") -> list[dict]:
    return [t.to_dict() for t in formtools.extract_tools(markup, parser=parser)]


@pytest.mark.parametrize("depth", NEAR_THE_LIMIT)
def test_the_fast_path_leaves_deep_pages_to_the_exact_one(depth: int) -> None:
    page = deep_page(depth)
    assert tools(page) == tools(page, parser="html5lib")
    if depth > 500:
        assert fast_document(page.encode()) is None


def test_the_cap_changes_what_a_form_is_made_of() -> None:
    shallow = {t["name"]: t for t in tools(deep_page(480))}["t480"]["inputSchema"]["properties"]
    deep = {t["name"]: t for t in tools(deep_page(515))}["t515"]["inputSchema"]["properties"]
    assert "description" in shallow["a"] and "b" not in shallow  # labelled; disabled
    assert "description" not in deep["a"] and "b" in deep  # the cap moved them out


@pytest.mark.parametrize("kind", ["div", "span", "table", "b"])
def test_deep_nesting_takes_linear_work(kind: str) -> None:
    """Doubling the depth at most about doubles the work (50,000 nested divs took 90 s before):
    counted in Python lines executed, not timed (tests/test_linear_cost.py's counter). 600
    levels, past Blink's cap of 513 where the exact path builds the page, are enough: with the
    counted stack's answer taken out of elementInScope (each ``<div>`` then walks the stack for
    a ``<p>``), 1,200 nested divs run 3.2 times the lines of 600."""

    def work(depth: int) -> int:
        page = f"<form toolname=t tooldescription=d>{f'<{kind}>' * depth}<input name=q>{f'</{kind}>' * depth}</form>"
        return lines(lambda: formtools.extract_tools(page))

    small, large = work(600), work(1_200)
    assert large < 2.3 * small, (small, large)  # quadratic would be 4×


@pytest.mark.browser
def test_deep_pages_match_live_chromium(chromium) -> None:
    for depth in NEAR_THE_LIMIT:
        page = deep_page(depth)
        answer = chromium.stable_tools(page, reload=not one_load_suffices(page))
        assert answer.stable
        assert tools(page) == answer.tools, depth


#: what follows a form opened near the cap: controls, wrappers, end tags that close the form (its
#: children then done), an img, a control naming the form by form=
AFTER_THE_FORM = [
    "<input name=c{n}>", "<input name=c{n}>", "<span>", "<p>", "</div>", "</span>", "</form>", "<img>",
    "<input name=x{n} form=f>", "<select name=s{n}><option>o</select>", "<button name=b{n} value=1>", "x",
]  # fmt: skip


def deep_form_page(rng: random.Random) -> str:
    """A tool form opened 505 to 516 elements deep (divs, spans or formatting elements), seeded
    controls and tags after it, and a form after the deep part."""
    kind = rng.choice(["div", "span", "b"])
    bits = [rng.choice(AFTER_THE_FORM).format(n=n) for n in range(rng.randint(2, 7))]
    return (
        f"<{kind}>" * rng.randint(505, 516)
        + "<form id=f toolname=t tooldescription=d toolautosubmit><input name=a>" + "".join(bits)
        + "<form toolname=u tooldescription=e toolautosubmit><input name=z>"
    )


@pytest.mark.browser
def test_a_form_opened_near_the_cap_lists_what_chromium_lists(chromium) -> None:
    """A form opened at the cap's edge: the parser puts what follows it beside it, not in it,
    while it is still open, and Blink lists such an element (its form owner all the same) only
    once the form has been given an element after its end or one by ``form=``; formtools listed
    it always (``<div>``×511 ``<form><input name=c>``: Chromium's tool has no c). 14 seeded
    pages, both parse paths against live Chromium."""
    rng = random.Random(513)
    differences, unstable = [], 0
    for _ in range(14):
        page = deep_form_page(rng)
        answer = chromium.stable_tools(page, reload=not one_load_suffices(page))
        if not answer.stable:
            unstable += 1
            continue
        differences += answer_differences(answer.tools, page, page[page.index("<form"):][:300])
    assert unstable <= 2 and not differences, "\n".join(differences[:3])


@pytest.mark.parametrize("profile", ["chromium", "html"])
def test_a_tool_input_nested_too_deep_is_a_problem_not_a_recursion_error(profile: str) -> None:
    """validate_input and prepare_call on a Python input nested 1,000 or 100,000 levels (a
    field's value, or the whole input): one badInput problem, or InputError, never
    RecursionError (validate_input's checks recursed per level and failed near 500)."""
    page = "<form toolname=s tooldescription=d><input name=q><button>go</button></form>"
    (tool,) = formtools.extract_tools(page, profile=profile)  # type: ignore[arg-type]
    for depth in (1000, 100_000):
        deep: list = []
        for _ in range(depth):
            deep = [deep]
        assert formtools.validate_input(tool, {"q": deep}) == [
            formtools.Problem("q", "badInput", "nested deeper than 200 levels of arrays and objects")
        ]
        (whole,) = formtools.validate_input(tool, deep)
        assert (whole.field, whole.flag) == (None, "badInput")
        for tool_input in ({"q": deep}, deep):
            with pytest.raises(formtools.InputError):
                formtools.prepare_call(tool, tool_input)


#: Elements that nest in a body without end tags and that html5lib's generateImpliedEndTags
#: pops (itself or under a wrapper), and what makes the parser pop them (end tags, start tags
#: that close a paragraph or generate implied end tags, the end of the file).
POPPED_NESTS = ["<optgroup>", "<rp>", "<rt>", "<optgroup><option>", "<ruby><rt>", "<b><optgroup>", "<label><rp>"]
POPPING = ["</form>", "</p>", "</li>", "</dd>", "</div>", "</body>", "<table>", "</optgroup>", "<h1>", "</ruby>", ""]


def popped_page(rng: random.Random, depth: int) -> str:
    nest, popping = rng.choice(POPPED_NESTS), rng.choice(POPPING)
    return (
        "<form toolname=t tooldescription=d action=/x><input name=q>"
        + nest * depth + popping + "<input name=r><button>Go</button></form>"
    )


def test_implied_end_tags_of_any_depth_are_generated() -> None:
    """html5lib's generateImpliedEndTags called itself once per element it popped: ``</form>``
    after 1,000 nested optgroups (or rp, rt) failed with a RecursionError, a traceback for a
    page Chromium reads. Seeded pages 2,500 deep parse the same on both paths, and below the
    recursion limit the loop pops what html5lib's own recursion popped."""
    from html5lib.treebuilders.base import TreeBuilder

    from formtools._parse.exact import _OwnerRecordingTreeBuilder

    rng = random.Random(1_500)
    for _ in range(12):
        page = popped_page(rng, 2_500)
        assert tools(page) == tools(page, parser="html5lib"), page[:120]
    for _ in range(12):
        page = popped_page(rng, 300)
        ours = tools(page, parser="html5lib")
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(_OwnerRecordingTreeBuilder, "generateImpliedEndTags", TreeBuilder.generateImpliedEndTags)
            assert ours == tools(page, parser="html5lib"), page[:120]


@pytest.mark.browser
def test_implied_end_tags_of_any_depth_match_live_chromium(chromium) -> None:
    rng = random.Random(1_501)
    for _ in range(6):
        page = popped_page(rng, 1_200)
        answer = chromium.stable_tools(page, reload=not one_load_suffices(page))
        assert answer.stable
        assert tools(page) == answer.tools, page[:120]
