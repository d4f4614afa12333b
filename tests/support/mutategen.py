"""Seeded damage to pages nobody here wrote: the held-out corpora of tests/data, mutated.

The fast path's equivalence tests mostly mutate markup formtools' own generators write, whose
shapes its authors knew. These mutants start from pages others wrote (authored WebMCP demos,
design-system snippets, web-platform-tests and html5lib-tests pages, pages real sites served)
and break them where parsers part: at their tag boundaries (end tags moved, duplicated or
deleted; a stretch wrapped in a table, template, select, foreign content, a formatting element;
form start tags, ``form=`` attributes, comments, CDATA, raw text, control characters inserted),
in their encoding (a ``<meta charset>``, a BOM), and in their bytes (truncation, flips inside a
tag, upper case, duplicated attributes, ``toolname`` on odd elements). A mutant is a window of
the seed around one of its forms, so that thousands stay cheap to parse with html5lib.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"

_TAG = re.compile(rb"<[/!]?[A-Za-z][^<>]*>")
_FORM_START = re.compile(rb"<form(?=[\t\n\f\r />])", re.I)
_CONTROL_START = re.compile(rb"<(?:input|select|textarea|button|fieldset|output|object)(?=[\t\n\f\r />])", re.I)
_ANY_START = re.compile(rb"<([A-Za-z][A-Za-z0-9]*)(?=[\t\n\f\r />])")
_IDS = re.compile(rb"\sid=[\"']?([^\"'\s>]+)", re.I)
_DESIGN_CONTROL = re.compile(rb"<(?:input|select|textarea)(?=[\t\n\f\r />])", re.I)

END_TAGS = (b"form", b"table", b"select", b"td", b"p", b"tr", b"div", b"fieldset", b"option",
            b"button", b"label", b"template", b"b", b"a", b"svg", b"textarea")  # fmt: skip
WRAPPERS = (b"table", b"template", b"select", b"svg", b"math", b"noscript", b"object", b"button",
            b"a", b"b", b"i", b"nobr", b"font", b"fieldset", b"p", b"li", b"dd", b"caption",
            b"colgroup", b"tbody", b"tr", b"td", b"div", b"label", b"datalist", b"option",
            b"optgroup", b"dialog", b"search", b"xmp", b"iframe", b"title", b"style", b"textarea",
            b"frameset", b"form", b"h1", b"h2", b"h6")  # fmt: skip
INSERTS = (b"<form>", b"<form id=f1>", b"</form>", b"<!--", b"-->", b"<![CDATA[", b"]]>",
           b"<plaintext>", b"<textarea>", b"</textarea>", b"<script>", b"</script>", b"\x00",
           b"\r", b"\f", b"\r\n", b"<table>", b"</table>", b"<select>", b"</select>", b"<svg>",
           b"<math>", b"</svg>", b"<isindex>", b"<image>", b"<body>", b"<html>", b"<head>",
           b"</body>", b"</html>", b"</br>", b"</p>", b"<p>", b"<li>", b"<option>", b"<hr>",
           b"<keygen name=k>", b"<input name=dup>", b"<input form=f1 name=ff>", b"<a>", b"</a>",
           b"<b>", b"</b>", b"<nobr>", b"<td>", b"<tr>", b"<caption>", b"<frameset>", b"<noscript>",
           b"</noscript>", b"<template>", b"</template>", b"<object>", b"</object>", b"<button>",
           b"</button>", b"<fieldset>", b"</fieldset>", b"<label>", b"</div>", b"<div>",
           b"<base href=/b/>", b"<meta charset=utf-8>", b"&", b"<", b"</", b"<?x?>", b"<!x>",
           b"<selectedcontent>", b"<dialog>", b"<search>", b"<math><mi>", b"<svg><foreignObject>",
           b"<output name=o>", b"<img name=i>", b"<h2>", b"</h2>", b"<h3 id=h>", b'<p id="">',
           b'<input name=e form="">', b'<label for="">e</label>')  # fmt: skip
CHARSETS = (b"utf-8", b"windows-1251", b"shift_jis", b"utf-16", b"iso-2022-jp", b"x-user-defined",
            b"gb18030", b"bogus", b"utf-16le")  # fmt: skip
ODD_TOOL_HOSTS = (b"div", b"fieldset", b"input", b"select", b"button", b"table", b"template", b"svg")
FLIPS = b"<>\"'=/ \t\n\x00-!?&"


def seeds() -> list[tuple[str, bytes]]:
    """(label, page bytes) of every held-out page in tests/data, as its browser test makes it a
    tool page (the wild pages' forms and the design-system snippets' forms get their tool
    attributes the same way), every form with ``toolautosubmit`` inserted, as
    tests/test_browser_authored.py does, so that Chromium sends what a call fills in (a form
    that has it keeps its own: the first of a repeated attribute wins)."""
    found: list[tuple[str, bytes]] = []
    authored = json.loads((DATA / "authored-forms.json").read_text("utf-8"))
    found += [(f"authored:{p['path']}", p["text"].encode()) for p in authored["pages"]]
    wpt = json.loads((DATA / "wpt-form-pages.json").read_text("utf-8"))
    found += [(f"wpt:{p['source']}", p["markup"].encode()) for p in wpt["pages"]]
    shapes = json.loads((DATA / "html5lib-tree-construction.json").read_text("utf-8"))
    found += [(f"html5lib:{s['source']}", s["page"].encode()) for s in shapes["shapes"]]
    design = json.loads((DATA / "design-system-forms.json").read_text("utf-8"))
    for number, snippet in enumerate(design["snippets"]):
        body = snippet["html"].encode()
        named = b'<form toolname="d%d" tooldescription="snippet"' % number
        if _FORM_START.search(body):
            body = _FORM_START.sub(named, body, count=1)
        else:
            body = named + b' action="/apply">' + body + b"<button>Continue</button></form>"
        found.append((f"design:{snippet['source']}/{snippet['name']}", body))
    wild = json.loads((DATA / "wild-pages.json").read_text("utf-8"))
    for page in wild["pages"]:
        count = iter(range(1, 1000))
        raw = _FORM_START.sub(
            lambda m: m.group(0) + b' toolname="w%d" tooldescription="form"' % next(count),
            page["latin1"].encode("latin-1"),
        )
        raw = _DESIGN_CONTROL.sub(lambda m: m.group(0) + b' toolparamdescription="p"', raw)
        found.append((f"wild:{page['path'].rsplit('/', 1)[-1]}", raw))
    return [(label, _FORM_START.sub(b"<form toolautosubmit", page)) for label, page in found]


def window(page: bytes, rng: random.Random, size: int) -> bytes:
    """At most ``size`` bytes of ``page``: its head (where the charset is) when it is short, else
    a stretch from a tag boundary a little before one of its forms, after the page's first
    bytes up to its ``<body`` or first kilobyte (doctype, meta charset) where there is room."""
    if len(page) <= size:
        return page
    forms = [m.start() for m in _FORM_START.finditer(page)] or [0]
    start = max(0, rng.choice(forms) - rng.randint(0, size // 3))
    start = page.rfind(b"<", 0, start + 1) if start else 0
    head_end = min(page.find(b"<body") if b"<body" in page else 1024, 1024, size // 4)
    head = page[: max(head_end, 0)] if start > head_end else b""
    return head + page[max(start, 0) : max(start, 0) + size - len(head)]


def _boundaries(page: bytes) -> list[int]:
    """Offsets before and after each tag of ``page``."""
    spots = {0, len(page)}
    for match in _TAG.finditer(page):
        spots.update((match.start(), match.end()))
    return sorted(spots)


def _tags(page: bytes, pattern: re.Pattern[bytes]) -> list[re.Match[bytes]]:
    return [m for m in _TAG.finditer(page) if pattern.match(page, m.start())]


def _insert(page: bytes, at: int, text: bytes) -> bytes:
    return page[:at] + text + page[at:]


def _end_tag(page: bytes, rng: random.Random) -> bytes:
    """Move, duplicate or delete one end tag of a kind parsers part on (or add one)."""
    name = rng.choice(END_TAGS)
    ends = [m for m in re.finditer(rb"</" + name + rb"\s*>", page, re.I)]
    spot = rng.choice(_boundaries(page))
    if not ends:
        return _insert(page, spot, b"</" + name + b">")
    end = rng.choice(ends)
    cut = page[: end.start()] + page[end.end() :]
    kind = rng.randrange(3)
    if kind == 0:  # delete
        return cut
    if kind == 1:  # duplicate
        return _insert(page, spot, end.group())
    spot = rng.choice(_boundaries(cut))  # move
    return _insert(cut, spot, end.group())


def _wrap(page: bytes, rng: random.Random) -> bytes:
    """Wrap the stretch between two tag boundaries in an element (closed or not)."""
    spots = _boundaries(page)
    first = rng.randrange(len(spots))
    last = min(len(spots) - 1, first + rng.randint(1, 12))
    name = rng.choice(WRAPPERS)
    end = b"</" + name + b">" if rng.random() < 0.7 else b""
    return page[: spots[first]] + b"<" + name + b">" + page[spots[first] : spots[last]] + end + page[spots[last] :]


def _add(page: bytes, rng: random.Random) -> bytes:
    return _insert(page, rng.choice(_boundaries(page)), rng.choice(INSERTS))


def _form_attribute(page: bytes, rng: random.Random) -> bytes:
    """A ``form=`` on a control (or a form, or an id on a form) naming an existing, missing or
    duplicated id."""
    ids = _IDS.findall(page)
    target = rng.choice([*ids, b"missing", b"f1", b""]) if ids else rng.choice([b"missing", b"f1", b""])
    starts = _tags(page, _CONTROL_START) + _tags(page, _FORM_START)
    if not starts:
        return page
    tag = rng.choice(starts)
    name_end = _ANY_START.match(page, tag.start())
    at = name_end.end() if name_end else tag.start() + 1
    attribute = rng.choice([b" form=", b" id=", b" FORM="]) + b'"' + target + b'"'
    return _insert(page, at, attribute)


def _charset(page: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]) + page
    meta = b"<meta charset=" + rng.choice(CHARSETS) + b">"
    if choice == 1:
        return meta + page
    existing = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", page, re.I)
    if existing and choice == 2:
        return page[: existing.start(1)] + rng.choice(CHARSETS) + page[existing.end(1) :]
    return _insert(page, rng.choice(_boundaries(page)), meta)


def _truncate(page: bytes, rng: random.Random) -> bytes:
    return page[: rng.randrange(len(page) + 1)]


def _flip(page: bytes, rng: random.Random) -> bytes:
    """Replace, insert or delete one byte inside a tag."""
    tags = list(_TAG.finditer(page))
    if not tags:
        return page
    tag = rng.choice(tags)
    at = rng.randrange(tag.start(), tag.end())
    byte = bytes([rng.choice(FLIPS)])
    kind = rng.randrange(3)
    if kind == 0:
        return page[:at] + byte + page[at + 1 :]
    if kind == 1:
        return _insert(page, at, byte)
    return page[:at] + page[at + 1 :]


def _duplicate_attribute(page: bytes, rng: random.Random) -> bytes:
    """Repeat a tag's ``name`` or ``id`` (with another value) or a tool attribute: the first wins."""
    starts = _tags(page, _CONTROL_START) + _tags(page, _FORM_START)
    if not starts:
        return page
    tag = rng.choice(starts)
    name = rng.choice([b"name", b"id", b"toolname", b"type", b"tooldescription", b"method"])
    value = rng.choice([b"x", b"dup", b"", b"hidden", b"post"])
    at = rng.choice([tag.end() - 1, (_ANY_START.match(page, tag.start()) or tag).end()])
    return _insert(page, at, b" " + name + b"=" + value + b" ")


def _uppercase(page: bytes, rng: random.Random) -> bytes:
    spots = _boundaries(page)
    first = rng.randrange(len(spots))
    last = min(len(spots) - 1, first + rng.randint(1, 20))
    stretch = _TAG.sub(lambda m: m.group().upper(), page[spots[first] : spots[last]])
    return page[: spots[first]] + stretch + page[spots[last] :]


def _odd_tool(page: bytes, rng: random.Random) -> bytes:
    """``toolname``/``tooldescription`` on an element that is no form (or a second tool form
    start tag in front of a stretch)."""
    host = rng.choice(ODD_TOOL_HOSTS)
    spot = rng.choice(_boundaries(page))
    return _insert(page, spot, b"<" + host + b' toolname="odd" tooldescription="odd" name=odd>')


MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _end_tag, _end_tag, _wrap, _wrap, _add, _add, _add, _form_attribute, _charset, _truncate,
    _flip, _flip, _duplicate_attribute, _uppercase, _odd_tool,
)  # fmt: skip


def mutants(count: int, seed: int, size: int = 4096) -> Iterator[tuple[str, bytes]]:
    """``count`` (label, page) mutants: a seeded held-out page's window with one to three
    mutations; the label names the seed page and the mutations."""
    rng = random.Random(seed)
    pages = seeds()
    for number in range(count):
        label, page = rng.choice(pages)
        page = window(page, rng, size)
        done = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            mutation = rng.choice(MUTATIONS)
            page = mutation(page, rng)
            done.append(mutation.__name__.lstrip("_"))
        yield f"{seed}/{number} {label} {'+'.join(done)}", page
