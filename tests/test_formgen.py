"""Tests for the seeded page generator used by the live differential test.

The generator is only useful if it is reproducible (a failing page id must regenerate the same
bytes) and if its corpus really reaches the constructs that matter. Coverage is checked the
simple way: scan every generated page's tags with the stdlib tokenizer and look for each
construct family by its markup, over the first 300 seeds.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import html5lib
import pytest
import regress

from tests.support.formgen import generate_page, generate_pages

SEEDS = range(300)
ROOT = Path(__file__).resolve().parents[1]

INPUT_TYPES = ["text", "search", "tel", "email", "url", "password", "hidden", "date", "time",
               "datetime-local", "month", "week", "color", "number", "range", "checkbox",
               "radio", "file", "submit", "image", "reset", "button"]
LISTED = {"input", "select", "textarea", "button", "output", "fieldset", "object"}
VOID = {"input", "br", "hr", "meta", "img", "link", "col", "area", "wbr", "source"}
TOOLNAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
FLOAT = re.compile(r"-?(\d+|\d*\.\d+)([eE][+-]?\d+)?")
NUMERIC_TYPES = ["number", "range", "date", "time", "datetime-local", "month", "week"]


# ---------------------------------------------------------------------------------------------
# A lenient tag scanner: enough structure (ancestors, legend position, form segment) to spot
# construct families. It is not an HTML tree builder and does not need to be one.
# ---------------------------------------------------------------------------------------------


@dataclass
class Tag:
    name: str
    attrs: dict[str, str | None]
    ancestors: list[Tag]  # outermost first, as open when the tag started
    segment: int  # index of the most recent <form> start tag (-1 before any)
    legends: int = 0  # legend children seen so far (for fieldsets)
    legend_index: int = -1  # for legends: position among the parent fieldset's legends
    text: str = ""

    @property
    def type(self) -> str | None:
        return self.attrs.get("type")

    def has(self, attr: str) -> bool:
        return attr in self.attrs


@dataclass
class Page:
    html: str
    tags: list[Tag] = field(default_factory=list)

    def all(self, name: str) -> list[Tag]:
        return [t for t in self.tags if t.name == name]

    def inputs(self, kind: str | None = None) -> list[Tag]:
        found = self.all("input")
        if kind is None:
            return found
        return [t for t in found if (t.type or "").lower() == kind]

    def forms(self) -> list[Tag]:
        return self.all("form")

    def named_by_segment(self) -> dict[tuple[int, str], list[Tag]]:
        """Listed elements by (form segment, stripped name), outside templates."""
        groups: dict[tuple[int, str], list[Tag]] = {}
        for tag in self.tags:
            if tag.name in LISTED and not _in(tag, "template") and tag.segment >= 0:
                key = (tag.segment, (tag.attrs.get("name") or "").strip(" \t\n\f\r"))
                if tag.attrs.get("name"):
                    groups.setdefault(key, []).append(tag)
        return groups


class _Scanner(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[Tag] = []
        self.segment = -1

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        if name == "form":
            self.segment += 1
        tag = Tag(name, dict(attrs), list(self.stack), self.segment)
        if name == "legend" and self.stack and self.stack[-1].name == "fieldset":
            tag.legend_index = self.stack[-1].legends
            self.stack[-1].legends += 1
        self.page.tags.append(tag)
        if name not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, name: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth].name == name:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1].text += data


def _in(tag: Tag, name: str) -> bool:
    return any(a.name == name for a in tag.ancestors)


def scan(html: str) -> Page:
    page = Page(html)
    scanner = _Scanner(page)
    scanner.feed(html)
    scanner.close()
    return page


@pytest.fixture(scope="module")
def corpus() -> list[Page]:
    return [scan(generate_page(seed)) for seed in SEEDS]


# ---------------------------------------------------------------------------------------------
# Determinism and shape
# ---------------------------------------------------------------------------------------------


def test_same_seed_same_page() -> None:
    for seed in (0, 1, 42, 299, 10_000):
        assert generate_page(seed) == generate_page(seed)


def test_different_seeds_differ() -> None:
    pages = {generate_page(seed) for seed in range(50)}
    assert len(pages) == 50


def test_generate_pages_ids_name_their_seed() -> None:
    pages = list(generate_pages(3, seed=40))
    assert [page_id for page_id, _ in pages] == ["gen-0040", "gen-0041", "gen-0042"]
    assert pages[2][1] == generate_page(42)
    assert [p for p, _ in generate_pages(2)] == ["gen-0000", "gen-0001"]


def _digest_in_subprocess(hash_seed: str) -> str:
    code = ("import hashlib; from tests.support.formgen import generate_pages; "
            "print(hashlib.sha256(''.join(h for _, h in generate_pages(60)).encode()).hexdigest())")
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True)
    return result.stdout.strip()


def test_no_hash_order_dependence() -> None:
    """Same bytes whatever string hashing the process uses (no set/dict-order leaks)."""
    here = hashlib.sha256("".join(h for _, h in generate_pages(60)).encode()).hexdigest()
    assert _digest_in_subprocess("1") == here
    assert _digest_in_subprocess("12345") == here


def test_page_shape(corpus: list[Page]) -> None:
    for page in corpus:
        assert page.html.startswith('<!doctype html><meta charset="utf-8">')
        assert "<script" not in page.html.lower()
        assert len(page.html) < 12_000, "pages should stay small enough to read"


class _DuplicateAttributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [attr for attr, _ in attrs]
        if len(names) != len(set(names)):
            self.found.append(self.get_starttag_text() or name)


def test_no_duplicate_attributes() -> None:
    """A repeated attribute would silently keep its first value: never intended here."""
    for seed in range(1000):
        checker = _DuplicateAttributes()
        checker.feed(generate_page(seed))
        assert not checker.found, (seed, checker.found)


def test_html5lib_parses_every_page() -> None:
    for seed in SEEDS:
        document = html5lib.parse(generate_page(seed), namespaceHTMLElements=False)
        forms = document.findall(".//form")
        assert 1 <= len(forms) <= 4, seed


def test_most_forms_would_register(corpus: list[Page]) -> None:
    """About four forms in five carry a valid, first-of-its-name toolname and a description."""
    total = registering = 0
    for page in corpus:
        seen: set[str] = set()
        for form in page.forms():
            total += 1
            name = form.attrs.get("toolname")
            ok = (name is not None and TOOLNAME.fullmatch(name) is not None
                  and form.has("tooldescription") and name not in seen)
            registering += ok
            if name is not None:
                seen.add(name)
    assert 0.72 <= registering / total <= 0.9, registering / total


# ---------------------------------------------------------------------------------------------
# Coverage: every input type and every edge-case family appears somewhere in 300 seeds
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", INPUT_TYPES)
def test_every_input_type_appears(corpus: list[Page], kind: str) -> None:
    assert any(page.inputs(kind) for page in corpus)


def _compiles(pattern: str, flags: str) -> bool:
    try:
        regress.Regex(pattern, flags)
    except Exception:
        return False
    return True


def _numeric_attr_values(page: Page, attrs: tuple[str, ...] = ("min", "max", "step", "value")):
    for tag in page.inputs():
        if (tag.type or "").lower() in ("number", "range"):
            for attr in attrs:
                if tag.attrs.get(attr) is not None:
                    yield attr, tag.attrs[attr]


def _desc_values(page: Page) -> list[str]:
    return [t.attrs["toolparamdescription"] or "" for t in page.tags
            if t.has("toolparamdescription")]


def _disabled_fieldset_legend(page: Page, index: int) -> bool:
    """A listed control inside legend #index (a direct child) of a fieldset[disabled]."""
    for tag in page.tags:
        if tag.name not in ("input", "select", "textarea"):
            continue
        for depth, anc in enumerate(tag.ancestors[1:], start=1):
            parent = tag.ancestors[depth - 1]
            if (anc.name == "legend" and anc.legend_index == index
                    and parent.name == "fieldset" and parent.has("disabled")):
                return True
    return False


def _groups(page: Page, predicate: Callable[[list[Tag]], bool]) -> bool:
    return any(predicate(tags) for tags in page.named_by_segment().values())


def _kinds(tags: list[Tag]) -> set[str]:
    return {(t.type or "text").lower() if t.name == "input" else t.name for t in tags}


def _outside_ref(page: Page, target: Callable[[str, Page], bool]) -> bool:
    return any(t.has("form") and not _in(t, "form") and target(t.attrs["form"] or "", page)
               for t in page.tags if t.name in LISTED)


def _ids(page: Page, name: str | None = None) -> set[str]:
    return {t.attrs["id"] or "" for t in page.tags
            if t.has("id") and (name is None or t.name == name)}


def _submit_buttons(page: Page) -> Counter[int]:
    per_form: Counter[int] = Counter()
    for tag in page.tags:
        kind = (tag.type or ("submit" if tag.name == "button" else "text")).lower()
        is_submit = (tag.name == "button" and kind not in ("button", "reset")
                     or tag.name == "input" and kind in ("submit", "image"))
        if is_submit:
            per_form[tag.segment] += 1
    return per_form


def _toolnames(page: Page) -> list[str]:
    return [f.attrs["toolname"] or "" for f in page.forms() if f.has("toolname")]


FAMILIES: dict[str, Callable[[Page], bool]] = {
    # input types
    "unknown input type": lambda p: any(
        t.type is not None and t.type.lower() not in INPUT_TYPES for t in p.inputs()),
    "uppercase input type": lambda p: any(t.type and t.type != t.type.lower() for t in p.inputs()),
    "input without type": lambda p: any(t.type is None for t in p.inputs()),
    # textarea and select
    "textarea": lambda p: bool(p.all("textarea")),
    "textarea leading newline": lambda p: re.search(r"<textarea[^>]*>\n", p.html) is not None,
    "select single": lambda p: any(not t.has("multiple") for t in p.all("select")),
    "select multiple": lambda p: any(t.has("multiple") for t in p.all("select")),
    "optgroup": lambda p: bool(p.all("optgroup")),
    "disabled optgroup": lambda p: any(t.has("disabled") for t in p.all("optgroup")),
    "disabled option": lambda p: any(t.has("disabled") for t in p.all("option")),
    "placeholder option": lambda p: any(t.attrs.get("value") == "" for t in p.all("option")),
    "option without value, padded text": lambda p: any(
        not t.has("value") and t.text != t.text.strip() and t.text.strip()
        for t in p.all("option")),
    "option text with entities": lambda p: re.search(
        r"<option[^>]*>[^<]*&(amp|eacute|nbsp|lt|#x)", p.html) is not None,
    "empty select": lambda p: re.search(r"<select[^>]*></select>", p.html) is not None,
    # radio and checkbox groups, fieldsets
    "radio group": lambda p: _groups(p, lambda ts: len(ts) > 1 and _kinds(ts) == {"radio"}),
    "checkbox group": lambda p: _groups(p, lambda ts: len(ts) > 1 and _kinds(ts) == {"checkbox"}),
    "single radio": lambda p: _groups(p, lambda ts: len(ts) == 1 and _kinds(ts) == {"radio"}),
    "group in fieldset with description": lambda p: any(
        (t.type or "").lower() in ("radio", "checkbox")
        and any(a.name == "fieldset" and (a.attrs.get("toolparamdescription") or "").strip()
                for a in t.ancestors) for t in p.inputs()),
    "group in fieldset without description": lambda p: any(
        (t.type or "").lower() in ("radio", "checkbox")
        and any(a.name == "fieldset" and not a.has("toolparamdescription") for a in t.ancestors)
        for t in p.inputs()),
    "nested fieldsets": lambda p: any(_in(t, "fieldset") for t in p.all("fieldset")),
    # labels
    "label for=": lambda p: any(t.has("for") for t in p.all("label")),
    "wrapping label": lambda p: any(_in(t, "label") for t in p.inputs()),
    "several labels for one control": lambda p: any(
        n > 1 for n in Counter(t.attrs["for"] for t in p.all("label") if t.has("for")).values()),
    "label containing another input": lambda p: any(
        any(a.name == "label" and a.has("for") for a in t.ancestors) for t in p.inputs()),
    "empty label": lambda p: re.search(r"<label for=\"[^\"]*\">\s*</label>", p.html) is not None,
    # description sources
    "aria-description": lambda p: any(t.has("aria-description") for t in p.tags),
    "aria-label": lambda p: any(t.has("aria-label") for t in p.tags),
    "title attribute": lambda p: any(t.has("title") for t in p.tags if t.name in LISTED),
    "placeholder": lambda p: any(t.has("placeholder") for t in p.tags),
    "toolparamdescription non-empty": lambda p: any(v.strip() for v in _desc_values(p)),
    "toolparamdescription empty": lambda p: "" in _desc_values(p),
    "toolparamdescription whitespace": lambda p: any(v and not v.strip() for v in _desc_values(p)),
    "toolparamdescription unicode": lambda p: any(not v.isascii() for v in _desc_values(p)),
    # disabled, readonly, required
    "disabled control": lambda p: any(t.has("disabled") for t in p.tags
                                      if t.name in ("input", "select", "textarea")),
    "readonly text": lambda p: any(t.has("readonly") for t in p.inputs("text")),
    "readonly checkbox or radio": lambda p: any(
        t.has("readonly") for t in p.inputs("checkbox") + p.inputs("radio")),
    "fieldset disabled": lambda p: any(t.has("disabled") for t in p.all("fieldset")),
    "control in first legend of disabled fieldset": lambda p: _disabled_fieldset_legend(p, 0),
    "control in second legend of disabled fieldset": lambda p: _disabled_fieldset_legend(p, 1),
    "required": lambda p: any(t.has("required") for t in p.tags),
    "required hidden": lambda p: any(t.has("required") for t in p.inputs("hidden")),
    # pattern
    "pattern valid": lambda p: any(t.attrs["pattern"] and _compiles(t.attrs["pattern"], "v")
                                   for t in p.inputs() if t.has("pattern")),
    "pattern empty": lambda p: any(t.attrs.get("pattern") == "" for t in p.inputs()),
    "pattern invalid": lambda p: any(not _compiles(t.attrs["pattern"] or "", "v")
                                     for t in p.inputs() if t.has("pattern")),
    "pattern v-flag only": lambda p: any(
        _compiles(t.attrs["pattern"] or "", "v") and not _compiles(t.attrs["pattern"] or "", "u")
        for t in p.inputs() if t.has("pattern")),
    "pattern valid in u, invalid in v": lambda p: any(
        not _compiles(t.attrs["pattern"] or "", "v") and _compiles(t.attrs["pattern"] or "", "u")
        for t in p.inputs() if t.has("pattern")),
    # numeric attributes
    **{f"{kind} with min/max/step": (lambda kind: lambda p: any(
        t.has("min") or t.has("max") or t.has("step") for t in p.inputs(kind)))(kind)
       for kind in NUMERIC_TYPES},
    "step any": lambda p: any((t.attrs.get("step") or "").lower() == "any" for t in p.inputs()),
    "step zero": lambda p: any(t.attrs.get("step") == "0" for t in p.inputs()),
    "step negative": lambda p: any((t.attrs.get("step") or "").startswith("-") for t in p.inputs()),
    "decimal step": lambda p: any(v is not None and "." in v and FLOAT.fullmatch(v)
                                  for v in (t.attrs.get("step") for t in p.inputs())),
    "non-numeric number attribute": lambda p: any(
        v.lower() != "any" and not FLOAT.fullmatch(v) for _, v in _numeric_attr_values(p)),
    "big exponent": lambda p: any(re.fullmatch(r"\d+[eE]\+?\d{2,}", v)
                                  for _, v in _numeric_attr_values(p)),
    "small exponent": lambda p: any(re.fullmatch(r"\d+(\.\d+)?[eE]-\d+", v)
                                    for _, v in _numeric_attr_values(p)),
    "range max below min": lambda p: any(
        FLOAT.fullmatch(t.attrs.get("min") or "") and FLOAT.fullmatch(t.attrs.get("max") or "")
        and float(t.attrs["max"] or 0) < float(t.attrs["min"] or 0) for t in p.inputs("range")),
    # names and grouping
    "duplicate names": lambda p: _groups(
        p, lambda ts: len(ts) > 1 and _kinds(ts) not in ({"radio"}, {"checkbox"})),
    "mixed-type group": lambda p: _groups(
        p, lambda ts: "radio" in _kinds(ts) and len(_kinds(ts)) > 1),
    "button shares a name": lambda p: _groups(
        p, lambda ts: "button" in _kinds(ts) and len(ts) > 1),
    "output shares a name": lambda p: _groups(
        p, lambda ts: "output" in _kinds(ts) and len(ts) > 1),
    "fieldset shares a name": lambda p: _groups(
        p, lambda ts: "fieldset" in _kinds(ts) and len(ts) > 1),
    "name with outer whitespace": lambda p: any(
        (t.attrs.get("name") or "x") != (t.attrs.get("name") or "x").strip() for t in p.tags),
    "unicode name": lambda p: any(not (t.attrs.get("name") or "").isascii() for t in p.tags),
    "empty name": lambda p: any(t.attrs.get("name") == "" for t in p.tags if t.name in LISTED),
    "missing name": lambda p: any(not t.has("name") and (t.type or "text").lower() == "text"
                                  for t in p.inputs()),
    "unnamed input and unnamed button": lambda p: any(
        not t.has("name") for t in p.inputs("text")) and any(
        not t.has("name") for t in p.all("button")),
    "hidden with description": lambda p: any(
        (t.attrs.get("toolparamdescription") or "").strip() for t in p.inputs("hidden")),
    "hidden without description": lambda p: any(
        not t.has("toolparamdescription") for t in p.inputs("hidden")),
    # submit buttons
    "several submit buttons": lambda p: any(n > 1 for n in _submit_buttons(p).values()),
    "disabled submit button": lambda p: any(t.has("disabled") for t in p.all("button")),
    "button with invalid type": lambda p: any(
        t.type is not None and t.type.lower() not in ("submit", "button", "reset")
        for t in p.all("button")),
    "form without submit button": lambda p: any(
        _submit_buttons(p)[f.segment] == 0 for f in p.forms()),
    # tool attributes
    "valid toolname": lambda p: any(TOOLNAME.fullmatch(n) for n in _toolnames(p)),
    "toolname invalid chars": lambda p: any(
        len(n) <= 128 and not TOOLNAME.fullmatch(n) for n in _toolnames(p)),
    "toolname 128 chars": lambda p: any(len(n) == 128 for n in _toolnames(p)),
    "toolname too long": lambda p: any(len(n) > 128 for n in _toolnames(p)),
    "duplicate toolname across forms": lambda p: any(
        n > 1 for n in Counter(_toolnames(p)).values()),
    "toolname missing": lambda p: any(not f.has("toolname") for f in p.forms()),
    "tooldescription missing": lambda p: any(
        f.has("toolname") and not f.has("tooldescription") for f in p.forms()),
    "tooldescription empty": lambda p: any(f.attrs.get("tooldescription") == "" for f in p.forms()),
    "tooltitle": lambda p: any(f.has("tooltitle") for f in p.forms()),
    "toolautosubmit": lambda p: any(f.has("toolautosubmit") for f in p.forms()),
    "uppercase tool attribute": lambda p: "TOOLNAME=" in p.html,
    # form= association
    "form= to a form from outside": lambda p: _outside_ref(p, lambda v, p: v in _ids(p, "form")),
    "form= to a missing id": lambda p: _outside_ref(p, lambda v, p: v and v not in _ids(p)),
    "form= empty": lambda p: _outside_ref(p, lambda v, p: v == ""),
    "form= to a non-form element": lambda p: _outside_ref(
        p, lambda v, p: v in _ids(p) and v not in _ids(p, "form")),
    "form= inside another form": lambda p: any(
        t.has("form") and _in(t, "form") for t in p.tags if t.name in LISTED),
    # parser edge cases
    "form in table": lambda p: "<table><form" in p.html,
    "div-closed form (pointer kept)": lambda p: re.search(
        r"<div><form[^>]*>(?:(?!</form>).)*?</div>", p.html, re.S) is not None,
    "div-closed form never closed": lambda p: re.search(
        r"<div><form[^>]*>(?:(?!</form>).)*\Z", p.html, re.S) is not None,
    "nested form tags": lambda p: re.search(
        r"<form[^>]*>(?:(?!</form>).)*<form", p.html, re.S) is not None,
    "unclosed form": lambda p: p.html.count("<form") > p.html.count("</form>"),
    "template with controls": lambda p: any(
        _in(t, "template") for t in p.tags if t.name in ("input", "select", "textarea")),
    "form in template": lambda p: any(_in(f, "template") for f in p.forms()),
    "stray </form>": lambda p: re.search(r"^</form>$", p.html, re.M) is not None
    and p.html.count("</form>") > p.html.count("<form"),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_appears(corpus: list[Page], family: str) -> None:
    detect = FAMILIES[family]
    assert any(detect(page) for page in corpus), f"no page in {len(SEEDS)} seeds has: {family}"
