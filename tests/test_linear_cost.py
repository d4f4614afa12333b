"""Cost linear in the input, counted, not timed: a page's work is the number of Python lines the
extraction runs (``sys.settrace``), which does not depend on the machine or its load.

Each shape is measured at n and 2n: linear work doubles (quadratic quadruples), and a nested
shape may cost at most a few times what the same elements cost side by side. Work done inside C
(lexbor, libxml2) is not counted, so what made it quadratic is held structurally: a tag with
many attributes leaves the fast path (lexbor compares each attribute with the earlier ones) and
no element of the tree holds more attributes than the names read from it (libxml2 walks an
element's attribute list for each one added or read by name), whatever the element (HTML, SVG,
MathML) and however its attributes came (its tag, or later ``<html>`` and ``<body>`` tags).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from support.cost import extraction_lines, lines_after_the_parse

import formtools
from formtools._forms.model import forms_of
from formtools._parse.exact import MANY_ATTRIBUTES, TREE_ATTRIBUTES
from formtools._parse.fast import fast_document

FORM = "<form toolname=t tooldescription=d toolautosubmit action=/x>{}<button>Go</button></form>"


def attributes(n: int, prefix: str = "a") -> str:
    return FORM.format("<input name=q " + " ".join(f"{prefix}{i}=x" for i in range(n)) + " required>")


NESTED: dict[str, tuple[str, str]] = {
    # (opening markup nested n times, the same elements side by side)
    "disabled fieldset and legend": (
        "<fieldset disabled><legend>",
        "<fieldset disabled><legend></legend></fieldset>",
    ),
    "label": ("<label>", "<label></label>"),
    "label with text and formatting": ("<label>x <b>y</b>", "<label>x <b>y</b></label>"),
}


@pytest.mark.parametrize("prefix", ["a", "toolx"])
def test_attribute_count_costs_linear_work(prefix: str) -> None:
    """html5lib compared each attribute's name with every earlier one of its tag."""
    small, large = (extraction_lines(attributes(n, prefix), parser="html5lib") for n in (400, 800))
    assert large < 2.3 * small, (small, large)


def test_many_attributes_stay_out_of_lexbor_and_libxml2() -> None:
    """80,000 attributes on one input took 40 s: lexbor and libxml2 each walk an element's
    attributes per attribute. Such a tag leaves the fast path, and the tree holds only the
    attributes read from it by name; the forms still see every attribute, in order."""
    n = 3 * MANY_ATTRIBUTES
    page = FORM.format(
        "<input " + " ".join(f"a{i}=x{i}" for i in range(n)) + " a5=dup name=q toolparamtitle=T required>"
    )
    assert fast_document(page.encode()) is None
    document = formtools.parse_html(page)
    for element in document.forms_root.iter():
        assert len(element.attrib) <= len(TREE_ATTRIBUTES) + 1, element.tag
    (form,) = forms_of(document)
    (control, _button) = form.controls
    assert list(control.attributes) == [*(f"a{i}" for i in range(n)), "name", "toolparamtitle", "required"]
    assert control.attributes["a5"] == "x5" and control.attributes["name"] == "q"
    just_below = FORM.format("<input " + " ".join(f"a{i}=x" for i in range(MANY_ATTRIBUTES // 2)) + " name=q>")
    assert fast_document(just_below.encode()) is not None


@pytest.mark.parametrize("shape", list(NESTED))
def test_nesting_costs_linear_work(shape: str) -> None:
    """5,000 nested ``<fieldset disabled><legend>`` took 9 s (each control walked up to every
    disabling fieldset), 20,000 nested labels 11 s (each label searched and read the labels
    inside it). Past Blink's depth cap, doubling the depth doubles the work, and nesting costs
    at most a few times what the same elements cost side by side. 600 levels, past the cap of
    513, are enough: on that code (6b62340^) 1,200 nested fieldsets ran 2.4 times the lines of
    600 and 88 times those of as many side by side, labels 3.1 and 16 times."""
    opening, flat = NESTED[shape]

    def nested(n: int) -> str:
        return FORM.format(opening * n + "<input name=q>")

    small, large = extraction_lines(nested(600)), extraction_lines(nested(1_200))
    assert large < 2.3 * small, (small, large)
    # (a nested page takes the exact path: so does the baseline)
    side_by_side = extraction_lines(FORM.format(flat * 1_200 + "<input name=q>"), parser="html5lib")
    assert large < 4 * side_by_side, (large, side_by_side)


@pytest.mark.parametrize(
    "spelling",
    [
        "a{i}=x",
        "a{i}",
        'a{i}="x>y"',  # a ">" or "<" in a quoted value does not end the tag
        "a{i}='<b'",
        'a{i}="1"',  # (joined without spaces below: an attribute may follow a quoted value)
    ],
)
def test_a_tag_with_many_attributes_is_found_however_it_is_written(spelling: str) -> None:
    separator = "" if spelling.endswith('"1"') else " "
    tag = "<input " + separator.join(spelling.format(i=i) for i in range(MANY_ATTRIBUTES + 1)) + " name=q>"
    assert fast_document(FORM.format(tag).encode()) is None
    fewer = "<input " + separator.join(spelling.format(i=i) for i in range(MANY_ATTRIBUTES - 1)) + " name=q>"
    assert fast_document(FORM.format(fewer).encode()) is not None


def padding(n: int, spelling: str = "a{i}=v{i}") -> str:
    return " ".join(spelling.format(i=i) for i in range(n))


CONTROL = FORM.format("<input name=q dirname=qd>")  # (its dirname reads the dir around it)
#: Pages where one element gets many attributes other than by an HTML start tag of its own:
#: (page with n attributes, the names of the element's attributes in the order it holds them).
MANY_ELSEWHERE: dict[str, tuple[Callable[[int], str], Callable[[int], list[str]]]] = {
    "svg": (
        lambda n: CONTROL + f"<svg {padding(n)} id=s dir=rtl></svg>",
        lambda n: [*(f"a{i}" for i in range(n)), "id", "dir"],
    ),
    "math": (
        lambda n: CONTROL + f"<math {padding(n)} dir=rtl></math>",
        lambda n: [*(f"a{i}" for i in range(n)), "dir"],
    ),
    "xlink on an svg a": (
        lambda n: CONTROL + f"<svg><a {padding(n, 'xlink:href{i}=v')} xlink:href=u id=l></a></svg>",
        lambda n: [*(f"xlink:href{i}" for i in range(n)), "{http://www.w3.org/1999/xlink}href", "id"],
    ),
    "body merge": (
        lambda n: "<body a0=first>" + CONTROL + f"<body {padding(n)} dir=rtl>",
        lambda n: [*(f"a{i}" for i in range(n)), "dir"],
    ),
    "body merges": (
        lambda n: "<body>" + CONTROL + f"<body {padding(n // 2)}>" * 2 + f"<body {padding(n)} dir=rtl>",
        lambda n: [*(f"a{i}" for i in range(n)), "dir"],
    ),
    "html merge": (
        lambda n: "<html a0=first><body>" + CONTROL + f"<html {padding(n)} dir=rtl>",
        lambda n: [*(f"a{i}" for i in range(n)), "dir"],
    ),
    "html first": (
        lambda n: f"<html {padding(n)} dir=rtl>" + CONTROL,
        lambda n: [*(f"a{i}" for i in range(n)), "dir"],
    ),
}


@pytest.mark.parametrize("shape", list(MANY_ELSEWHERE))
def test_many_attributes_elsewhere_cost_linear_work(shape: str) -> None:
    page, _names = MANY_ELSEWHERE[shape]
    small, large = (extraction_lines(page(n)) for n in (400, 800))
    assert large < 2.3 * small, (small, large)


@pytest.mark.parametrize("shape", list(MANY_ELSEWHERE))
def test_many_attributes_elsewhere_stay_out_of_libxml2(shape: str) -> None:
    """80,000 attributes on an ``<svg>`` took 33 s, merged into a second ``<body>`` 57 s: the
    tree holds only the names read, ``many_attributes`` all of them (the first of a name kept, a
    merge adding only names not present), and the forms read the same as without them."""
    page, names = MANY_ELSEWHERE[shape]
    n = 3 * MANY_ATTRIBUTES
    document = formtools.parse_html(page(n))
    for each in document.forms_root.iter():
        assert len(each.attrib) <= len(TREE_ATTRIBUTES) + 1, each.tag
    (element,) = (e for e in document.forms_root.iter() if len(document.many_attributes.get(e, ())) >= n)
    held = document.many_attributes[element]
    assert list(held) == [name if name[0] == "{" else name.replace(":", "U0003A") for name in names(n)]
    assert held.get("a0", "") == ("" if shape.startswith("xlink") else "first" if "a0=first" in page(0) else "v0")
    assert held.get("a1", "v1") == "v1"  # (merged twice in "body merges")
    assert {"id", "dir"} & set(held) <= set(element.attrib)  # the names read stay in the tree
    tools = formtools.extract_tools(page(n))
    assert tools == formtools.extract_tools(page(0), parser="html5lib")  # (numbered as html5lib's tree)
    # the merged body's dir, and <html>'s (which dirname reads, as Chromium does)
    assert tools[0].form.controls[0].inherited_dir == ("rtl" if shape.startswith(("body", "html")) else None)


#: "</form" strings no end tag comes from, between a form left open and a control after it:
#: (what opens the stretch holding them, what closes it).
UNSEEN_FORM_ENDS: dict[str, tuple[str, str]] = {
    "script": ("<script>", "</script>"),
    "style": ("<style>", "</style>"),
    "textarea": ("<textarea name=t>", "</textarea>"),
    "comment": ("<!--", "-->"),
    "xmp": ("<xmp>", "</xmp>"),
    "template": ("<template>", "</template>"),
    "attribute value": ("<p title='", "'>"),
}


def scanned_bytes(page: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """The bytes the form pointer's scan went over in C (regular-expression searches, which
    counted lines do not see) to skip what holds no token: raw text, comments, tags."""
    from formtools._parse import scan

    total = 0

    def counted(skip: Callable[..., int], at: int) -> Callable[..., int]:
        def run(*args: Any) -> int:
            nonlocal total
            end = skip(*args)
            total += end - args[at]
            return end

        return run

    class CountedTags:
        def __init__(self, pattern: re.Pattern[bytes]) -> None:
            self.pattern = pattern

        def match(self, low: bytes, at: int) -> re.Match[bytes] | None:
            nonlocal total
            found = self.pattern.match(low, at)
            total += 0 if found is None else found.end() - at
            return found

    monkeypatch.setattr(scan, "_raw_end", counted(scan._raw_end, 2))
    for method in ("_comment_end", "_bogus_comment_end"):
        monkeypatch.setattr(scan.PointerScan, method, counted(getattr(scan.PointerScan, method), 1))
    for tags in ("_START_TAG", "_END_TAG"):
        monkeypatch.setattr(scan, tags, CountedTags(getattr(scan, tags)))
    assert fast_document(page.encode()) is not None  # (the fast path is what is measured)
    monkeypatch.undo()
    return total


@pytest.mark.parametrize("shape", list(UNSEEN_FORM_ENDS))
def test_form_end_tags_the_pointer_never_sees_cost_linear_work(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a control after a form left open belongs to it depends on the first ``</form>``
    end tag that clears the parser's form pointer. Each ``</form`` string was judged by
    tokenizing from the last control before it: 8,000 of them in a script took 5 s, in a
    select or a template 23 s (a 54 KB page). One forward pass now judges them all. (A select
    no longer hides one: its contents are parsed "in body", and the first clears the pointer.)"""
    opening, closing = UNSEEN_FORM_ENDS[shape]

    def page(n: int) -> str:
        return (
            "<div><form toolname=t tooldescription=d><input name=a></div>"
            + opening + "</form>" * n + closing + "<input name=b>"
        )  # fmt: skip

    small, large = extraction_lines(page(500)), extraction_lines(page(1_000))
    assert large < 2.3 * small, (small, large)
    assert scanned_bytes(page(1_000), monkeypatch) < 2 * len(page(1_000))
    fast, exact = (formtools.extract_tools(page(20), parser=parser) for parser in ("auto", "html5lib"))
    assert [tool.to_dict() for tool in fast] == [tool.to_dict() for tool in exact]


#: Sibling elements the fast path looks past, each of which once walked all the ones after it
#: (looking for a table that came first, when it reproduced html5lib 1.1's keeping of a leading
#: line feed outside "in body"): one element, repeated n times.
SIBLINGS: dict[str, str] = {
    "textareas with a leading line feed": "<textarea name=t{i}>\nx</textarea>",
    "the same between paragraphs": "<textarea name=t{i}>\nx</textarea><p>y</p>",
    "pre in labels": "<label><pre>\nx</pre><input name=p{i}></label>",
    "foster-parented textareas": "<table><textarea name=f{i}>\ny</textarea></table>",
}


@pytest.mark.parametrize("shape", list(SIBLINGS))
def test_siblings_cost_linear_work(shape: str) -> None:
    """8,000 sibling textareas with a leading line feed took 3 s, in a div between paragraphs
    5.7 s: each walked every sibling after each of its ancestors, looking for a table."""

    def page(n: int) -> str:
        return FORM.format("<div>" + "".join(SIBLINGS[shape].format(i=i) for i in range(n)) + "</div>")

    assert fast_document(page(1).encode()) is not None  # (the fast path is what is measured)
    small, large = extraction_lines(page(500)), extraction_lines(page(1_000))
    assert large < 2.3 * small, (small, large)
    fast, exact = (formtools.extract_tools(page(20), parser=parser) for parser in ("auto", "html5lib"))
    assert [tool.to_dict() for tool in fast] == [tool.to_dict() for tool in exact]


LABELLEDBY = " ".join(f"h{i}" for i in range(1_000))
#: Elements deep in a page that the parse asks about their ancestors (inert? in a select or
#: foreign content? hidden by a template or an object? the outermost label? the ancestors the
#: skeleton keeps?): (the form, one such element numbered i), placed after n nested divs.
DEEP_ASKED: dict[str, tuple[str, str]] = {
    "referrer metas": (FORM.format("<input name=q>"), "<meta name=referrer content=origin>"),
    "named frames": (FORM.format("<input name=q>"), "<iframe name=f{i}></iframe>"),
    "named objects": (FORM.format("<input name=q>"), "<object name=o{i} data=/d{i}></object>"),
    "datalists": (
        FORM.format("".join(f"<input name=q{i} list=d{i}>" for i in range(1_000))),
        "<datalist id=d{i}><option>x</datalist>",
    ),
    "aria-labelledby targets": (
        FORM.format("<input name=q>").replace("<form ", f"<form aria-labelledby='{LABELLEDBY}' "),
        "<span id=h{i}>x</span>",
    ),
    "templates": (FORM.format("<input name=q>"), "<template><p>x</p></template>"),
}


@functools.cache
def _lines_without_elements(nested: str, parser: str) -> int:
    """The lines extracting a page of nested divs runs, counted once: four shapes share each
    such page (their form), and a page's count is the same at every extraction."""
    return extraction_lines(nested, parser)


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
@pytest.mark.parametrize("shape", list(DEEP_ASKED))
def test_elements_deep_in_a_page_cost_linear_work(shape: str, parser: str) -> None:
    """Each walked up to the root: 8,000 named frames under 8,000 divs took 22 s, as many
    datalists or aria-labelledby targets 48 s, referrer metas 8 s. Each element's ancestors are
    now looked at once per question. Measured as the work the n elements add to the page
    without them (html5lib's own cost of nesting is not this test's). html5lib's reset of the
    insertion mode after each ``</template>`` walked the whole stack of open elements; the
    counted stack now lists the elements that decide it."""
    form, element = DEEP_ASKED[shape]

    def added(n: int) -> int:
        nested = form + "<div>" * n
        with_elements = nested + "".join(element.format(i=i) for i in range(n))
        return extraction_lines(with_elements, parser) - _lines_without_elements(nested, parser)

    small, large = added(500), added(1_000)
    assert large < 2.3 * small, (small, large)


def test_forms_side_by_side_deep_in_a_page_cost_linear_work() -> None:
    """n forms side by side in n nested divs, below Blink's depth cap (the fast path): each
    form's section heading was searched for among the earlier siblings of every ancestor up
    to the root, n² (400 forms ran 9.3 times the lines of 100 where linear work is 4 times);
    what each ancestor holds is now remembered."""

    def page(n: int) -> str:
        return "<div>" * n + FORM.format("<input name=q>") * n

    small, large = extraction_lines(page(80)), extraction_lines(page(320))
    assert large < 4.6 * small, (small, large)


def test_forms_after_many_closed_sections_cost_linear_work() -> None:
    """Each form looked back through every heading seen before it for the last one whose
    parent encloses it: 8,000 forms after 8,000 closed sections took 8.6 s on html5lib's tree.
    Counted after the parse (the forms' stage is the question): 400 forms then ran 2.54 times
    the lines of 200 on that code (afe8f29^), where a whole extraction needed 1,000 to show it."""

    def page(n: int) -> str:
        forms = "".join(f"<form toolname=t{i} tooldescription=d><input name=q></form>" for i in range(n))
        return "<div><h2>x</h2></div>" * n + forms

    small, large = (lines_after_the_parse(page(n), parser="html5lib") for n in (200, 400))
    assert large < 2.3 * small, (small, large)


#: Template contents the fast path tokenizes to see that html5lib 1.1 (which parses them as
#: ordinary children) builds the same tree: (contents for n).
TEMPLATE_CONTENTS: dict[str, Callable[[int], str]] = {
    "deep, then end tags of nothing open": lambda n: "<div>" * n + "</span>" * n,
    "deep, then paragraphs": lambda n: "<div>" * n + "<p>x" * n,
}


@pytest.mark.parametrize("shape", list(TEMPLATE_CONTENTS))
def test_template_contents_cost_linear_work(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tag asked whether its name was open, or closed through it, by walking the stack of
    the contents' open elements: 8,000 deep took 0.9 s. The walk is in C (list scans), so the
    names' own comparisons are counted too."""

    def page(n: int) -> str:
        return "<template>" + TEMPLATE_CONTENTS[shape](n) + "</template>" + FORM.format("<input name=q>")

    assert fast_document(page(3).encode()) is not None  # (the fast path is what is measured)
    small, large = extraction_lines(page(1_000)), extraction_lines(page(2_000))
    assert large < 2.3 * small, (small, large)
    fast, exact = (formtools.extract_tools(page(20), parser=parser) for parser in ("auto", "html5lib"))
    assert [tool.to_dict() for tool in fast] == [tool.to_dict() for tool in exact]
    small, large = (tag_name_comparisons(page(n), monkeypatch) for n in (1_000, 2_000))
    assert large < 2.3 * small, (small, large)


class _CountedName(str):
    """A tag name that counts its equality comparisons (``name in a_list`` compares in C)."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        _CountedName.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def tag_name_comparisons(page: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How often the fast path compared the tag names of ``page`` it read with others."""
    from formtools._parse import fast

    class Name(bytes):
        def decode(self, *args: Any) -> str:  # type: ignore[override]
            return _CountedName(bytes.decode(self, *args))

    class Found:
        def __init__(self, found: re.Match[bytes]) -> None:
            self.found = found

        def group(self, index: int) -> Any:
            return Name(self.found.group(index))

        def end(self) -> int:
            return self.found.end()

    class Tags:
        def __init__(self, pattern: re.Pattern[bytes]) -> None:
            self.pattern = pattern

        def match(self, low: bytes, at: int) -> Found | None:
            found = self.pattern.match(low, at)
            return None if found is None else Found(found)

    with monkeypatch.context() as patched:
        for tags in ("_START_TAG", "_END_TAG"):
            patched.setattr(fast, tags, Tags(getattr(fast, tags)))
        _CountedName.comparisons = 0
        assert fast_document(page.encode()) is not None
    return _CountedName.comparisons


#: Text made of many character tokens (each character reference, and each run of spaces
#: after one, is a token of its own): (markup for n, the text the tree must hold for n).
TEXT_TOKENS: dict[str, tuple[Callable[[int], str], Callable[[int], str]]] = {
    "a paragraph": (lambda n: "<p>" + "x &amp; y " * n + "</p>", lambda n: "x & y " * n),
    "a pre of escaped code": (lambda n: "<pre>" + "&lt;b&gt;" * n + "</pre>", lambda n: "<b>" * n),
    "a textarea": (lambda n: "<textarea>" + "&amp;x" * n + "</textarea>", lambda n: "&x" * n),
    "foster-parented before a table": (
        lambda n: "<div><table>" + "x&amp; " * n + "<tr><td>c</table></div>",
        lambda n: "x& " * n,
    ),
    "in SVG": (lambda n: "<svg><text>" + "&#32;x" * n + "</text></svg>", lambda n: " x" * n),
}


@pytest.mark.parametrize("shape", list(TEXT_TOKENS))
def test_text_of_many_tokens_costs_linear_work(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """html5lib's lxml builder appends each character token with ``element.text += data``,
    which copies all the text so far out of lxml and back (in C, so no line count shows it): a
    400 KB paragraph of "x &amp; y" took 17 s. The exact parser's builder keeps the pieces and
    writes each text once, so html5lib's own append never runs, and the tree holds the text."""
    from html5lib.treebuilders import etree as etree_builders
    from lxml import etree

    from formtools._parse.exact import parse_exact

    markup, text = TEXT_TOKENS[shape]
    own_append = etree_builders.getETreeModule(etree, fullTree=False).Element

    def appended_piece_by_piece(*args: Any) -> None:
        raise AssertionError("html5lib appended a text token to the lxml tree itself")

    with monkeypatch.context() as patched:
        patched.setattr(own_append, "insertText", appended_piece_by_piece)
        root = parse_exact(FORM.format("") + markup(2_000), None, None, None).forms_root
    assert text(2_000) in "".join(root.itertext())
    small, large = (extraction_lines(FORM.format("") + markup(n), parser="html5lib") for n in (1_000, 2_000))
    assert large < 2.3 * small, (small, large)


def test_text_coming_to_two_places_in_turns_is_copied_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text foster-parented before a table, with cells between its pieces, comes to two places
    in turns; kept for one place at a time, each turn copied all the text written there so far
    out of lxml and back (80,000 turns: 10.6 s). The bytes the pending text copies into the tree
    must double with n."""
    from formtools._parse import exact

    copied = 0
    write = exact._PendingText.flush

    def counting(self: Any) -> None:
        nonlocal copied
        for (element, slot), pieces in self._pieces.items():
            copied += len(getattr(element, slot) or "") + sum(map(len, pieces))
        write(self)

    monkeypatch.setattr(exact._PendingText, "flush", counting)
    totals = []
    for n in (2_000, 4_000):
        copied = 0
        exact.parse_exact(FORM.format("") + "<div>z<table><tr>" + "x&amp;<td>y</td>" * n + "</table>", None, None, None)
        totals.append(copied)
    assert totals[1] < 2.3 * totals[0], totals


#: Tokens whose text html5lib's tokenizer extends piece by piece (markup for n), on the html5lib
#: path; a doctype must open the page, so every shape comes before the form.
LONG_TOKENS: dict[str, Callable[[int], str]] = {
    "a tag name": lambda n: "<a" + "b" * n + ">",
    "an end tag name": lambda n: "</a" + "b" * n + ">",
    "an attribute name of digits": lambda n: "<a x" + "1" * n + "=1>",
    "an attribute name of quotes": lambda n: "<a x" + '"' * n + "=1>",
    "an attribute value of references": lambda n: "<a title='" + "&amp;" * n + "'>",
    "an unquoted value of references": lambda n: "<a title=" + "&lt;" * n + ">",
    "a comment of dashes": lambda n: "<!--" + "-a" * n + "-->",
    "a comment of bangs": lambda n: "<!--" + "--!" * n + "-->",
    "a doctype name": lambda n: "<!DOCTYPE " + "a" * n + ">",
    "a public identifier": lambda n: '<!DOCTYPE html PUBLIC "' + "a" * n + '">',
    "a system identifier": lambda n: "<!DOCTYPE html SYSTEM '" + "a" * n + "'>",
    "an end tag in a title": lambda n: "<title></" + "a" * n + "</title>",
    "an end tag in a script": lambda n: "<script></" + "a" * n + "</script>",
    "a double-escaped script": lambda n: "<script><!--<" + "a" * n + "></script>",
}


def token_text_copied(markup: str) -> int:
    """The characters of token text made anew while the exact parser's tokenizer reads ``markup``.

    A Python string cannot grow: ``text += piece`` copies all of ``text`` into a new string.
    After each step of the tokenizer, every text it is building (the current token's name,
    data, identifiers, its last attribute's name and value, the end tag name it buffers) that
    is a new string, longer than before, counts its length: work done in C that no line count
    shows."""
    from html5lib._tokenizer import HTMLTokenizer

    from formtools._parse.exact import parse_exact

    copied = 0
    seen: dict[str, tuple[int, int]] = {}

    def texts(tokenizer: HTMLTokenizer) -> dict[str, Any]:
        token = tokenizer.currentToken if isinstance(tokenizer.currentToken, dict) else {}
        held = {field: token.get(field) for field in ("name", "data", "publicId", "systemId")}
        if isinstance(held["data"], list) and held["data"]:
            held["attribute name"], held["attribute value"] = held["data"][-1]
        held["end tag buffer"] = getattr(tokenizer, "temporaryBuffer", None)
        return held

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal copied
        tokenizer = frame.f_locals.get("self") if event == "return" else None
        if not isinstance(tokenizer, HTMLTokenizer):
            return
        for slot, text in texts(tokenizer).items():
            if isinstance(text, str):
                before = seen.get(slot, (0, 0))
                if (id(text), len(text)) != before and len(text) > before[1]:
                    copied += len(text)
                seen[slot] = (id(text), len(text))

    sys.setprofile(watch)
    try:
        parse_exact(markup, None, None, None)
    finally:
        sys.setprofile(None)
    return copied


@pytest.mark.parametrize("shape", list(LONG_TOKENS))
def test_a_long_token_is_read_in_linear_work(shape: str) -> None:
    """html5lib extends a token's text with ``+=``, a character or a piece at a time, each time
    copying the text so far: a tag name of 400,000 characters took 11 s, an end tag name 17 s, a
    comment of dashes 6 s, and the parse's time limit, looked at between tokens, overshot by as
    much. The exact parser's tokenizer gathers such texts in pieces and joins each once."""
    markup = LONG_TOKENS[shape]
    small, large = (token_text_copied(markup(n) + FORM.format("")) for n in (2_000, 4_000))
    assert large < 2.3 * small, (small, large)


#: Elements that make html5lib reset its insertion mode, n times under n open elements that do
#: not decide it: (what is left open, what resets).
MODE_RESETS: dict[str, tuple[str, str]] = {
    "selects closed by selects": ("<optgroup>", "<select><optgroup>"),
    "selects closed by end tags": ("<span>", "<select></select>"),
    "tables closed": ("<div>", "<table></table>"),
    "templates closed": ("<div>", "<template></template>"),
    "cells closed": ("<table><tr><td><div>", "<table></table>"),
}


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
@pytest.mark.parametrize("shape", list(MODE_RESETS))
def test_resetting_the_insertion_mode_costs_linear_work(shape: str, parser: str) -> None:
    """html5lib copied and walked the stack of open elements from the top to the first one
    that decides the insertion mode on each reset: ``<select><optgroup>`` n times (a select
    closes the one open, and optgroups nest in a body) was quadratic (2.9× per doubling)."""
    left_open, resetting = MODE_RESETS[shape]

    def page(n: int) -> str:
        return FORM.format((left_open + resetting) * n + "<input name=q>")

    # (past Blink's depth cap both: the fast path leaves deeper pages to the exact one)
    small, large = (extraction_lines(page(n), parser) for n in (600, 1_200))
    assert large < 2.3 * small, (small, large)


#: Many elements pointing at one (an id, a form): (pointer i, the element they point at for n).
ONE_TARGET: dict[str, tuple[str, Callable[[int], str]]] = {
    "labels for one control": ("<label for=x>L{i}</label>", lambda n: "<input name=q id=x>"),
    "controls of one form by form=": (
        "<input form=f name=q{i}>",
        lambda n: "<form id=f toolname=u tooldescription=d></form>",
    ),
    "inputs suggesting from one datalist of as many options": (
        "<input name=q{i} list=d>",
        lambda n: "<datalist id=d>" + "".join(f"<option value=o{i}>" for i in range(n)) + "</datalist>",
    ),
    "inputs described by one element": ("<input name=q{i} aria-describedby=h>", lambda n: "<span id=h>x</span>"),
}


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
@pytest.mark.parametrize("shape", list(ONE_TARGET))
def test_many_pointers_to_one_element_cost_linear_work(shape: str, parser: str) -> None:
    """n inputs sharing a datalist of n options took n² (2,000: 2.4 s), each reading all its
    options, under the ``chromium`` profile, which lists none of them; what the others point
    at is read once too."""
    pointer, target = ONE_TARGET[shape]

    def page(n: int) -> str:
        return FORM.format("".join(pointer.format(i=i) for i in range(n))) + target(n)

    small, large = (extraction_lines(page(n), parser) for n in (300, 600))
    assert large < 2.3 * small, (small, large)


#: "reset the insertion mode appropriately", element by element (#reset-the-insertion-mode-
#: appropriately, less select: the customizable select parser has no mode for it)
_RESET = {
    "td": "inCell", "th": "inCell", "tr": "inRow", "tbody": "inTableBody", "thead": "inTableBody",
    "tfoot": "inTableBody", "caption": "inCaption", "colgroup": "inColumnGroup", "table": "inTable",
    "head": "inHead", "body": "inBody", "frameset": "inFrameset",
}  # fmt: skip


def _walked_reset(parser: Any) -> None:
    """The standard's walk of the whole stack of open elements, from the top."""
    for node in reversed(parser.tree.openElements):
        if node.namespace not in (None, "http://www.w3.org/1999/xhtml"):
            continue
        if node.name == "template":
            parser.phase = parser.phases[parser.template_modes[-1]]
            return
        if node.name == "html":
            parser.phase = parser.phases["beforeHead" if parser.tree.headPointer is None else "afterHead"]
            return
        if node.name in _RESET:
            parser.phase = parser.phases[_RESET[node.name]]
            return


def test_the_insertion_mode_is_reset_as_the_walk_resets_it() -> None:
    """Seeded soups of what is left open and what resets the mode (tables, cells, captions,
    templates, foreign content, misnested formatting): the tree is the one the standard's walk
    of the stack builds, the counted stack's list of the elements that decide the mode put back
    by that walk. (No select: it no longer decides the mode, the customizable select parser
    having none for it; tests/test_browser_select.py holds selects to Chromium, and
    tests/test_browser_template.py templates.)"""
    import random

    from lxml import etree

    from formtools._parse.exact import _Parser, parse_exact

    pieces = [
        "<span>", "<div>", "<b>", "<p>", "<table>", "</table>", "<tr>", "<td>", "</td>",
        "<caption>", "</caption>", "<template>", "</template>", "<svg>", "</svg>", "<colgroup>",
        "<tbody>", "</tbody>", "x", "<input name=q>", "</b>", "<head>", "</head>",
    ]  # fmt: skip
    rng = random.Random(9)
    for _ in range(150):
        body = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 60)))
        for page in (FORM.format(body), body):
            ours = etree.tostring(parse_exact(page, None, None, None).forms_root)
            with pytest.MonkeyPatch.context() as patched:
                patched.setattr(_Parser, "resetInsertionMode", _walked_reset)
                theirs = etree.tostring(parse_exact(page, None, None, None).forms_root)
            assert ours == theirs, page


#: a formatting element misnested across deep blocks, closed once per block: each end tag runs
#: the adoption agency with the formatting element's clone deep in the stack of open elements;
#: the form pointer's control below it sends the fast path to html5lib (see fast._ADOPTION)
ADOPTED_DEEP = {
    "pointer control, end tags": "<table>{form}</table><b>{divs}<input name=x>{ends}",
    "pointer control, more formatting": "<table>{form}</table><i><b>{divs}<input name=x>{ends}</i>",
    "no pointer": "{form}<b>{divs}<input name=x>{ends}",
    # a control the pointer placed and the agency never moves: each move's subtree was walked
    # for the controls whose form owner it resets, a Python line per element
    "pointer control kept": "<table>{form}</table><input name=keep><b>{divs}<input name=x>{ends}",
}


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
@pytest.mark.parametrize("shape", list(ADOPTED_DEEP))
def test_misnested_end_tags_deep_in_the_stack_cost_linear_work(shape: str, parser: str) -> None:
    """``<b>`` then n ``<div>`` then n ``</b>``: the adoption agency looked for the clone it left
    below the first div from the top of the stack, in Python lines, at each end tag (twice,
    and html5lib's scope check a third time), so 5,000 divs (a 25 KB page, which the fast
    path's new fallback now sends to html5lib when a control the pointer placed is below the
    ``<b>``) took 19 s. Past a few entries from the top the search is list.index's, and the
    scope check a set's; the controls of a moved subtree whose form owner is reset are found
    in C (with a pointer-placed control elsewhere, each move walked the subtree in Python)."""

    def page(n: int) -> str:
        form = "<form toolname=t tooldescription=d>"
        return ADOPTED_DEEP[shape].format(form=form, divs="<div>" * n, ends="</b>" * n)

    small, large = extraction_lines(page(200), parser), extraction_lines(page(400), parser)
    assert large < 2.3 * small, (small, large)


def test_the_attribute_count_scan_is_the_tokenizers_count() -> None:
    """The scan for a tag with too many attributes writes its attributes out one by one (a
    counted group ran re's repeat machinery at every ``<``); it must find exactly the tags the
    counted definition finds. 3,000 seeded tags of 62 to 74 attributes, spelled as the tokenizer
    reads them (unquoted, quoted with ``>`` or the other quote inside, empty, joined to a quoted
    value, ``=`` as a name's first character, slashes, a quote left open), some cut short."""
    import random

    from formtools._parse.scan import _MANY_ATTRIBUTES_TAG

    value = rb"(?:\"[^\"]*+\"?|'[^']*+'?|[^\t\n\f\r >]*+)"
    attribute = rb"(?>[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+" + value + rb")?)"
    counted = re.compile(rb"<[a-z][^\t\n\f\r />]*+(?:[\t\n\f\r /]*+" + attribute + rb"){%d}" % (MANY_ATTRIBUTES + 1))
    spellings = ["a{i}", "a{i}=x", 'a{i}="x>y"', "a{i}='\"'", 'a{i}=""', "a{i} = 'v'", "={i}", "a{i}=x\"y",
                 "a{i}/", 'a{i}="1"', "a{i}='<b'"]  # fmt: skip
    rng = random.Random(3000)
    found = 0
    for _ in range(3000):
        parts = []
        for i in range(rng.randint(MANY_ATTRIBUTES - 2, MANY_ATTRIBUTES + 10)):
            spelling = rng.choice(spellings).format(i=i)
            joined = spelling.endswith(("'", '"')) and rng.random() < 0.5  # a quoted value, then at once
            parts.append(spelling + ("" if joined else rng.choice([" ", "\t", "/", "\n "])))
        tag = rng.choice(["<input ", "<a\t", "<x-y/", "<p "]) + "".join(parts)
        if rng.random() < 0.2:
            tag = tag[: rng.randint(len(tag) // 2, len(tag))]  # cut short
        else:
            tag += rng.choice([">", "", "=>", 'z="x>', "z='x>"])  # (the last two: left open)
        soup = (rng.choice(["", "<p>", "</a>", "<b x=1>"]) + tag + rng.choice(["", "<i>"])).encode()
        found += counted.search(soup) is not None
        assert (_MANY_ATTRIBUTES_TAG.search(soup) is None) == (counted.search(soup) is None), soup
    assert 500 < found < 2500, found  # (both answers, often)


#: End tags that reach no element, after a deep stack of elements that are not special (the walk
#: of "any other end tag" passes them all, to the special element below): (before the stack, one
#: element of the stack, the end tag).
END_TAGS_REACHING_NOTHING: dict[str, tuple[str, str, str]] = {
    "unknown name": ("", "<span>", "</x>"),
    "formatting name (the adoption agency hands it on)": ("", "<span>", "</b>"),
    "name of an element closed before": ("<u></u>", "<i>", "</u>"),
    "name open below a special element": ("<x><div>", "<span>", "</x>"),
    "the same, a special element opened and closed between": ("<x><div>", "<span>", "<p></p></x>"),
}


@pytest.mark.parametrize("shape", list(END_TAGS_REACHING_NOTHING))
def test_end_tags_that_reach_no_element_cost_linear_work(shape: str) -> None:
    """8,000 ``<span>`` then 8,000 ``</x>`` took 54 s on the exact path (where a form this deep
    goes): each end tag walked every span. The counted stack now says at once whether the walk
    would reach an element: the names above the topmost special element are counted."""
    _assert_linear_after_a_deep_stack(*END_TAGS_REACHING_NOTHING[shape], n=500)


def _assert_linear_after_a_deep_stack(before: str, opening: str, repeated: str, n: int) -> None:
    """``opening`` n times then ``repeated`` n times costs the exact path linear work (n and 2n),
    and both paths give the same tools."""

    def page(count: int) -> str:
        return FORM.format(before + opening * count + repeated * count + "<input name=q>")

    small, large = (extraction_lines(page(count), parser="html5lib") for count in (n, 2 * n))
    assert large < 2.3 * small, (small, large)
    fast, exact = (formtools.extract_tools(page(20), parser=parser) for parser in ("auto", "html5lib"))
    assert [tool.to_dict() for tool in fast] == [tool.to_dict() for tool in exact]


#: (markup before, opening tag repeated n times, a change below the top of the stack then an end
#: tag reaching nothing, repeated n times)
END_TAGS_AFTER_CHANGES_BELOW_THE_TOP: dict[str, tuple[str, str, str]] = {
    "the adoption agency moved an element": ("", "<span>", "<b><div></b></x>"),
    "a </form> took the form": ("", "<span>", "<form><span></form></x>"),
    "the adoption agency, then the block closed": ("<div>", "<span>", "<b><div></b></div></x>"),
}


@pytest.mark.parametrize("shape", list(END_TAGS_AFTER_CHANGES_BELOW_THE_TOP))
def test_end_tags_after_changes_below_the_top_cost_linear_work(shape: str) -> None:
    """The names above each special element were counted again from the whole stack at the
    first end tag after the adoption agency or a ``</form>`` changed the stack below its top:
    1,000 ``<span>`` then 1,000 ``<b><div></b></x>`` took 4.5 s. Each change now updates the
    count of the run it falls in. (n = 200: the old cost was already 3.3 times at 2n.)"""
    _assert_linear_after_a_deep_stack(*END_TAGS_AFTER_CHANGES_BELOW_THE_TOP[shape], n=200)


#: handlers a call sets off on n elements around n controls or forms, or n shadow hosts (below
#: Blink's depth cap, which sends a page to html5lib; shadow roots go there anyway)
HANDLER_CARRIERS: dict[str, Callable[[int], str]] = {
    "around controls": lambda n: "<div oninput=a onchange=b>" * n + FORM.format("<input name=q>" * n),
    "around forms": lambda n: "<div onsubmit=c onformdata=d>" * n + FORM.format("<input name=q>") * n,
    "shadow hosts": lambda n: "<div oninput=a onchange=b><template shadowrootmode=open>" * n
    + FORM.format("<input name=q>" * n),
}


@pytest.mark.parametrize("shape", list(HANDLER_CARRIERS))
def test_handlers_on_ancestors_cost_linear_work(shape: str) -> None:
    """lint's ``event-handler`` names the handlers on the path of each event a call fires (at
    each control, at the form), up to ``<html>`` and through shadow hosts: each element's
    carriers are decided once, top-down, and only the nearest one of each path is named (with
    a count of the rest), where walking up from each control or form, or naming every carrier
    on every path, costs the depth per control. At n and 4n: linear work quadruples."""
    page = HANDLER_CARRIERS[shape]
    assert any(d.code == "event-handler" for d in formtools.extract(page(2)).diagnostics), shape
    small, large = extraction_lines(page(80)), extraction_lines(page(320))
    assert large < 4.6 * small, (small, large)
