"""Stage 1 — parse: markup → an lxml tree plus the form owners only the parser can know.

A browser associates some controls with a form that is not their ancestor: the HTML parser's
*form element pointer* survives ``</div>`` and table foster-parenting, so in
``<div><form id=f></div><input>`` the input belongs to ``f``, while the identical tree built from
``<div><form id=f></form></div><input>`` leaves it unowned. No Python parser exposes that
association, so :class:`_OwnerRecordingTreeBuilder` records it while html5lib builds the tree
(html5lib is the pure-Python parser that builds the browser's tree).

html5lib 1.1 predates ``<template>``, so the template rules are patched in as Chromium 156 has
them: the "in template" insertion mode and the stack of template insertion modes, templates as
scope boundaries, special, with a marker in the list of active formatting elements, foster-
parented nodes put into template contents, an unclosed template closed at the end of the page,
``</template>`` generating implied end tags thoroughly; inside a template a browser neither sets
nor clears the form pointer. Where Chromium departs from the standard the binary decided
(``</form>`` in a template, a ``<form>`` in a table in one, the tags that leave "in template"
for "in body"; tests/test_browser_template.py). The controls a template holds are not part of
the document and are skipped by the next stage. It predates the customizable select too:
Chromium 156 parses a select's contents "in body" (``_customizable_select_in_body``).

This is the exact path, and the reference. :func:`~formtools._parse.parse_html` first tries the
fast exact path (:mod:`formtools._parse.fast`: lexbor, with the pointer recovered), which gives the same forms wherever it
takes a page, and comes here for the pages it leaves.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import re
import time
import warnings
from collections import Counter
from collections.abc import Mapping, MutableMapping
from types import MappingProxyType
from typing import Any, Iterator

import html5lib
from html5lib._tokenizer import HTMLTokenizer
from html5lib.html5parser import getPhases
from html5lib.constants import (
    EOF,
    DataLossWarning,
    asciiLetters,
    asciiUpper2Lower,
    digits,
    formattingElements,
    hexDigits,
    namespaces,
    replacementCharacters,
    spaceCharacters,
    specialElements,
    tableInsertModeElements,
    tokenTypes,
)
from html5lib.treebuilders import getTreeBuilder
from html5lib.treebuilders.base import Marker, listElementsMap
from lxml import etree

from formtools._parse.document import (
    _ESCAPE,
    _NEEDS_ESCAPE,
    PLAIN_NAME,
    Document,
    base_target_of,
    base_url_of,
    frame_names_of,
    meta_policies_of,
    referrer_policy_of,
    require_url,
    xml_safe_name,
)
from formtools._parse.charset import settle_encoding
from formtools.errors import ParseTimeLimit, UsageProblem
from formtools._spec.constants import FORM_POINTER_ASSOCIATED
from formtools._spec.encoding import encoding_name

__all__ = ["parse_exact", "from_tree"]

_LxmlTreeBuilder = getTreeBuilder("lxml")
_HTML = "http://www.w3.org/1999/xhtml"
_HTML_NAMESPACES = (None, _HTML)


# Blink's HTML parser stops nesting elements in the DOM (not in the stack of open elements) past
# kMaximumHTMLParserDOMTreeDepth: measured on Chromium 156, an element whose insertion makes the
# stack deeper than 513 (``html`` included; a void or self-closing element is never pushed) goes
# into the current node's parent instead of the current node. Deeper markup becomes siblings.
MAX_STACK_DEPTH = 513
# the HTML elements "reset the insertion mode appropriately" stops at (#reset-the-insertion-mode-
# appropriately, less ``select``: the customizable select parser has no "in select" modes, see
# _customizable_select_in_body). A template's is the current template insertion mode, ``html``'s
# "before head" or "after head" (the parser's): those two are decided in _Parser.resetInsertionMode.
# html5lib 1.1 predates templates: it had ``head`` "in body" and stopped at neither.
_MODES = {
    "td": "inCell", "th": "inCell", "tr": "inRow", "tbody": "inTableBody",
    "thead": "inTableBody", "tfoot": "inTableBody", "caption": "inCaption",
    "colgroup": "inColumnGroup", "table": "inTable", "head": "inHead", "body": "inBody",
    "frameset": "inFrameset", "template": "", "html": "",
}  # fmt: skip
_MODAL = frozenset((_HTML, name) for name in _MODES)
_TEMPLATE = (_HTML, "template")
# what "generate all implied end tags thoroughly" pops (#closing-elements-that-have-implied-end-tags)
_IMPLIED_END_TAGS_THOROUGHLY = frozenset(
    "caption colgroup dd dt li optgroup option p rb rp rt rtc tbody td tfoot th thead tr".split()
)
# the start tags "in template" hands to "in head" without leaving the mode, as Chromium 156 has it:
# the standard's list has base, basefont, bgsound, noframes and title too, which Chromium parses
# "in body" (the same element, but the template's mode is "in body" then: ``<template><title>
# </title><tr>`` ignores the tr, measured). The other tags make it another mode.
_TEMPLATE_IN_HEAD = frozenset("link meta script style template".split())
_TEMPLATE_SWITCHES = {
    "caption": "inTable", "colgroup": "inTable", "tbody": "inTable", "tfoot": "inTable",
    "thead": "inTable", "col": "inColumnGroup", "tr": "inTableBody", "td": "inRow", "th": "inRow",
}  # fmt: skip
# the elements html5lib 1.1's generateImpliedEndTags pops (its own list, not the standard's)
_IMPLIED_END_TAGS = frozenset(("dd", "dt", "li", "option", "optgroup", "p", "rp", "rt"))
#: the boundaries of "has an element in scope" and of the scopes built on it (button, list item,
#: table): html5lib 1.1's, a template (#has-an-element-in-the-specific-scope: html5lib predates
#: it, so ``<p><template></p>`` closed the p outside the template), and but in table scope a
#: select, as the customizable select parser has it (Chromium 156: ``<p><select><div>`` keeps
#: the div in the select, ``<form><select></form><input>`` keeps the form open, ``<b><select>
#: <i></b>`` ignores the end tag).
_SELECT_BOUNDARY = frozenset({(_HTML, "select")})
_SCOPES = {
    **{variant: listElementsMap[variant][0] | _SELECT_BOUNDARY | {_TEMPLATE} for variant in (None, "button", "list")},
    "table": listElementsMap["table"][0] | {_TEMPLATE},
}
_VOID = frozenset(
    "area base basefont bgsound br col embed frame hr img input keygen link meta param source "
    "track wbr".split()
)


# An element with more attributes than this keeps in the tree only those some reader looks up by
# name (see _OwnerRecordingTreeBuilder._split). Real pages stay far below it.
MANY_ATTRIBUTES = 64
#: The names a reader of the tree (formtools, html5lib) looks up on an element: HTML's attribute
#: index, the tool attributes, the ARIA attributes read for names, and MathML's ``encoding``.
TREE_ATTRIBUTES = frozenset(
    """abbr accept accept-charset accesskey action allow allowfullscreen alpha alt as async
    autocapitalize autocomplete autocorrect autofocus autoplay blocking charset checked cite class
    closedby color colorspace cols colspan command commandfor content contenteditable controls
    coords crossorigin data datetime decoding default defer dir dirname disabled download
    draggable enctype enterkeyhint fetchpriority for form formaction formenctype formmethod
    formnovalidate formtarget headers height hidden high href hreflang http-equiv id imagesizes
    imagesrcset inert inputmode integrity is ismap itemid itemprop itemref itemscope itemtype kind
    label lang list loading loop low max maxlength media method min minlength multiple muted name
    nomodule nonce novalidate open optimum pattern ping placeholder playsinline popover
    popovertarget popovertargetaction poster preload readonly referrerpolicy rel required reversed
    rows rowspan sandbox scope selected shadowrootclonable shadowrootcustomelementregistry
    shadowrootdelegatesfocus shadowrootmode shadowrootserializable shape size sizes slot span
    spellcheck src srcdoc srclang srcset start step style tabindex target title translate type
    usemap value width wrap writingsuggestions align bgcolor language encoding
    role aria-label aria-labelledby aria-describedby aria-description aria-hidden aria-required
    aria-disabled aria-readonly aria-invalid
    toolname tooldescription tooltitle toolautosubmit toolparamdescription toolparamtitle
    toolparamsensitive toolreadonlyhint tooldestructivehint toolidempotenthint toolopenworldhint
    tooluntrustedcontenthint toolhumanintheloophint toolsensitivehint""".split()
)
_FORMATTING = frozenset(name for namespace, name in formattingElements)
_DIGEST = "formtools-attributes"  # not an HTML attribute name a page's could be mistaken for


class _Run:
    """One special element (or the bottom of the stack) and the open elements above it up to the
    next special element: how far "any other end tag" walks. ``names`` counts those elements
    by the name html5lib's rules read. A special element that leaves the stack from below its top
    (``</form>``, the head "after head" puts back) hands its elements to the run below:
    ``merged_into`` then names that run, so that its elements need not be found one by one."""

    __slots__ = ("special", "names", "merged_into")

    def __init__(self, special: Any) -> None:
        self.special = special
        self.names: Counter[str] = Counter()
        self.merged_into: _Run | None = None

    def root(self) -> _Run:
        """The run this one's elements belong to now, shortening the chain of merges on the way."""
        root = self
        while root.merged_into is not None:
            root = root.merged_into
        run: _Run | None = self
        while run is not None and run is not root:
            run.merged_into, run = root, run.merged_into
        return root

    def absorb(self, upper: _Run) -> None:
        """Take the elements of ``upper``, whose special element left the stack: the smaller
        count goes into the larger, so that an element is counted again at most log n times."""
        if len(upper.names) > len(self.names):
            self.names, upper.names = upper.names, self.names
        self.names.update(upper.names)
        upper.merged_into = self


class _CountedStack(list):  # type: ignore[type-arg]
    """The stack of open elements, counting its elements by (namespace, name), so that "is an
    element with this name in scope" is answered at once when there is none: html5lib walks
    the whole stack for it, which made 50,000 nested divs quadratic (each ``<div>`` asks for a
    ``p`` in button scope). Only the mutators html5lib uses are counted."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[tuple[str, str]] = Counter()
        #: by the element's own local name, lowercased: what an end tag in foreign content matches
        self.lowered_local_names: Counter[str] = Counter()
        self._members: Counter[int] = Counter()  # node identities: "is this node open" at once
        #: the open elements that decide the insertion mode when it is reset, in stack order
        self.modal: list[Any] = []
        #: the stack cut at each special element: each open node's run, by identity (a special
        #: element's is its own), kept up to date at every change wherever it is in the stack
        self._bottom_run = _Run(None)
        self._run_of: dict[int, _Run] = {}

    def _count(self, node: Any, step: int) -> None:
        self.counts[node.nameTuple] += step
        self.lowered_local_names[node.local_name.translate(asciiUpper2Lower)] += step
        self._members[id(node)] += step

    def append(self, node: Any) -> None:
        self._count(node, 1)
        super().append(node)
        self._join(node, len(self) - 1)
        if node.nameTuple in _MODAL:
            self.modal.append(node)

    def insert(self, index: Any, node: Any) -> None:
        self._count(node, 1)
        super().insert(index, node)
        self._join(node, self.index(node))
        self._moved(node)

    def pop(self, index: Any = -1) -> Any:
        position = range(len(self))[index]
        node = super().pop(position)
        self._count(node, -1)
        self._leave(node, position)
        if self.modal and self.modal[-1] is node:
            self.modal.pop()
        else:
            self._moved(node)
        return node

    def remove(self, node: Any) -> None:
        self.pop(self.index(node))

    def _run_at(self, position: int) -> _Run:
        """The run of the element at ``position``; below the first element, the bottom run."""
        return self._run_of[id(self[position])].root() if position >= 0 else self._bottom_run

    def _join(self, node: Any, position: int) -> None:
        """Count ``node``, now at ``position``, in its run. Elements go in below the top only
        as the adoption agency's clones of formatting elements, never special: a special
        element starts a run of its own, empty."""
        if node.nameTuple in _SPECIAL:
            self._run_of[id(node)] = _Run(node)
        else:
            run = self._run_of[id(node)] = self._run_at(position - 1)
            run.names[node.name] += 1

    def _leave(self, node: Any, position: int) -> None:
        """Uncount ``node``, just taken from ``position``: a special element's run goes to the
        run below it when elements were above it (taken from below the top)."""
        run = self._run_of.pop(id(node)).root()
        if node.nameTuple not in _SPECIAL:
            run.names[node.name] -= 1
        elif position < len(self):
            self._run_at(position - 1).absorb(run)

    def reached_by_end_tag(self, name: str) -> bool:
        """Whether "any other end tag" ``name`` reaches an element (its walk down the stack
        meets one of that name before, or as, the first special element), asked without the
        walk: the names above the topmost special element are counted (``<x><div>``, 16,000
        ``<span>``, 16,000 ``</x>``: each end tag walked every span). The runs are kept at each
        change below the top too (the adoption agency, ``</form>``): counting them again after
        one made ``<b><div></b></x>`` repeated over 1,000 spans quadratic."""
        run = self._run_at(len(self) - 1)
        return run.names[name] > 0 or (run.special is not None and run.special.name == name)

    def _moved(self, node: Any) -> None:
        """A node put in or taken out elsewhere than the top (the adoption agency's, which never
        moves such elements): :attr:`modal` is listed again if it holds one."""
        if node.nameTuple in _MODAL:
            self.modal = [each for each in self if each.nameTuple in _MODAL]

    def __setitem__(self, index: Any, node: Any) -> None:
        """The adoption agency puts a clone in a node's place (``stack[stack.index(node)] =
        clone``): the clone is open, the node no longer (uncounted, the clone was not open and
        the node stayed open; once its id was reused, another node seemed open)."""
        position = range(len(self))[index]
        old = self[position]
        super().__setitem__(position, node)
        self._count(old, -1)
        self._count(node, 1)
        self._leave(old, position)
        self._join(node, position)
        self._moved(old)
        self._moved(node)

    def __contains__(self, node: object) -> bool:  # html5lib's nodes compare by identity
        return self._members[id(node)] > 0

    def index(self, node: Any, *bounds: Any) -> int:
        """Where ``node`` is, looked for from the top: the adoption agency asks for elements near
        the top, and list.index walked from the bottom (``<label>x <b>y</b>`` nested 20,000
        times cost the depth per ``</b>``). A node is open at most once, so this is the same
        answer. Past the top few, list.index takes over: a node deep in the stack (a clone the
        agency put below the first of 5,000 divs, asked for at each of 5,000 ``</b>``) cost the
        depth in Python lines per question, 20 s for a 25 KB page."""
        if bounds or not self._members[id(node)]:
            return super().index(node, *bounds)
        for position in range(len(self) - 1, max(len(self) - _NEAR_THE_TOP, 0) - 1, -1):
            if self[position] is node:
                return position
        return super().index(node)


#: how many entries from the top :meth:`_OpenElements.index` looks at itself
_NEAR_THE_TOP = 16
_NAME_TUPLE = operator.attrgetter("nameTuple")
#: the special category (#special), which html5lib 1.1 lists without ``template`` and MathML's
#: mi, mo, mn, ms, mtext and annotation-xml and SVG's desc and title: "any other end tag" walked past an SVG
#: title and closed the HTML element around it (``<output><svg><title></output>`` popped the
#: output where Chromium ignores the end tag), and the adoption agency could pick its furthest
#: block beyond one; and with isindex, which is no longer an element of its own (see
#: ``processStartTag``): ``<label><isindex></label>`` kept the label open around what followed;
#: and without figcaption, hgroup, main and summary, special since (and in Chromium 156:
#: ``<label>L<main></label><input>`` leaves the label open around the input, tests/test_browser_mutants.py)
_SPECIAL = (specialElements - {(namespaces["html"], "isindex")}) | {_TEMPLATE} | {
    *((namespaces["html"], name) for name in ("figcaption", "hgroup", "main", "summary")),
    *((namespaces["mathml"], name) for name in ("mi", "mo", "mn", "ms", "mtext", "annotation-xml")),
    *((namespaces["svg"], name) for name in ("desc", "title")),
}


class _Slot:
    """An entry of the list of active formatting elements, as :class:`_FormattingList` files it."""

    __slots__ = ("element", "signature", "stretch")

    def __init__(self, element: Any, signature: Any, stretch: _Stretch) -> None:
        self.element = element
        self.signature = signature
        self.stretch = stretch


class _Stretch:
    """The entries after one marker (or before the first), by signature and by name, each in
    list order (dicts keep the order their keys came in)."""

    def __init__(self) -> None:
        self.by_signature: dict[Any, dict[int, _Slot]] = {}
        self.by_name: dict[str, dict[int, _Slot]] = {}

    def add(self, slot: _Slot) -> None:
        self.by_signature.setdefault(slot.signature, {})[id(slot)] = slot
        self.by_name.setdefault(slot.element.name, {})[id(slot)] = slot

    def discard(self, slot: _Slot) -> None:
        del self.by_signature[slot.signature][id(slot)]
        del self.by_name[slot.element.name][id(slot)]


def _signature(element: Any) -> Any:
    """What the Noah's Ark clause compares: tag name, namespace and attributes."""
    return element.nameTuple, frozenset(element.attributes.items())


class _FormattingList(list):  # type: ignore[type-arg]
    """The list of active formatting elements, with an index of the entries after each marker
    by signature and by name. html5lib walks back to the last marker for the Noah's Ark clause
    (twice per formatting element, comparing attributes read through lxml) and for each ``<a>``:
    2,000 formatting elements with distinct attributes took 18 s (4,000: 95 s). The list's
    own operations are html5lib's; only those html5lib uses are indexed, and an ``insert``
    (the adoption agency's bookmark, a walk of the list itself) indexes the list again."""

    def __init__(self) -> None:
        super().__init__()
        self._slots: dict[int, _Slot] = {}
        self._stretches = [_Stretch()]

    def _reindex(self) -> None:
        self._slots = {}
        self._stretches = [_Stretch()]
        for entry in self:
            self._file(entry)

    def _file(self, entry: Any) -> None:
        if entry is None:  # html5lib's Marker
            self._stretches.append(_Stretch())
            return
        slot = _Slot(entry, _signature(entry), self._stretches[-1])
        self._slots[id(entry)] = slot
        slot.stretch.add(slot)

    def _unfile(self, entry: Any) -> None:
        slot = self._slots.pop(id(entry))
        slot.stretch.discard(slot)

    def matching(self, element: Any) -> list[Any]:
        """The entries after the last marker that the Noah's Ark clause counts as ``element``'s
        equals, earliest first."""
        equals = self._stretches[-1].by_signature.get(_signature(element), {})
        return [slot.element for slot in equals.values()]

    def last_named(self, name: str) -> Any:
        """The last entry after the last marker with tag name ``name``, or False."""
        named = self._stretches[-1].by_name.get(name)
        return next(reversed(named.values())).element if named else False

    def append(self, entry: Any) -> None:
        """Add ``entry`` (the Noah's Ark clause is the caller's: see ``addFormattingElement``)."""
        super().append(entry)
        self._file(entry)

    def pop(self, index: Any = -1) -> Any:
        entry = super().pop(index)
        if index != -1:
            self._reindex()
        elif entry is None:
            self._stretches.pop()
        else:
            self._unfile(entry)
        return entry

    def remove(self, entry: Any) -> None:
        super().remove(entry)
        self._unfile(entry)

    def insert(self, index: Any, entry: Any) -> None:
        """The adoption agency's bookmark: an entry after the last marker, so only the last
        stretch is filed again in list order, with the slots it has (indexing the whole list
        per misnested end tag made each cost every entry's attributes). A bookmark at the end,
        as nested misnested formatting elements place it every time, is an append: re-filing
        the stretch there cost n per end tag (``<b id=N><div>`` n times, then ``</b>`` n
        times: 500 took 10 s)."""
        if entry is not None and isinstance(index, int) and index == len(self):
            self.append(entry)
            return
        super().insert(index, entry)
        if entry is None or not isinstance(index, int) or index < 0 or None in self[index + 1 :]:
            self._reindex()
            return
        before = self[:index]
        start = index - before[::-1].index(None) if None in before else 0
        stretch = _Stretch()
        for listed in self[start:]:
            slot = self._slots.get(id(listed)) or _Slot(listed, _signature(listed), stretch)
            slot.stretch = stretch
            self._slots[id(listed)] = slot
            stretch.add(slot)
        self._stretches[-1] = stretch

    def __setitem__(self, index: Any, entry: Any) -> None:
        old = self[index]
        super().__setitem__(index, entry)
        if isinstance(index, int) and old is not None and entry is not None:
            slot = self._slots.pop(id(old))
            if _signature(entry) == slot.signature and entry.name == old.name:
                slot.element = entry  # a clone in its place: same stretch, same order
                self._slots[id(entry)] = slot
                return
        self._reindex()

    def __contains__(self, entry: object) -> bool:
        return id(entry) in self._slots if entry is not None else super().__contains__(entry)


class _MergedAttributes(MutableMapping[Any, str]):
    """The attributes of ``<html>`` and ``<body>``, which later ``<html>`` and ``<body>`` start
    tags add to ("add the attribute if not already present"): html5lib asks the element for each
    name, then sets it, two walks of libxml2's list per attribute (80,000 merged into a second
    ``<body>`` took 57 s). Here the names are looked up in a dict holding all of them, and once
    there are more than :data:`MANY_ATTRIBUTES` the tree keeps only the names some reader looks
    up, ``many_attributes`` all of them, as for any element (``_OwnerRecordingTreeBuilder._split``).
    """

    def __init__(self, builder: Any, element: Any) -> None:
        self._builder = builder
        self._element = element
        self._all: dict[str, str] | None = None  # made on first use: most pages never merge

    def _names(self) -> dict[str, str]:
        if self._all is None:
            lxml_element = self._element._element
            held = self._builder.many_attributes.get(lxml_element)
            self._all = held if held is not None else dict(lxml_element.attrib)
        return self._all

    def __contains__(self, name: object) -> bool:
        return self._builder._tree_name(name) in self._names()

    def __getitem__(self, name: Any) -> str:
        return self._names()[self._builder._tree_name(name)]

    def __setitem__(self, name: Any, value: str) -> None:
        names, key = self._names(), self._builder._tree_name(name)
        names[key] = value
        lxml_element = self._element._element
        many = self._builder.many_attributes
        if lxml_element in many:
            if key in TREE_ATTRIBUTES:
                lxml_element.set(key, value)
        elif len(names) > MANY_ATTRIBUTES:
            many[lxml_element] = names
            attrib = lxml_element.attrib
            attrib.clear()
            for kept, kept_value in names.items():
                if kept in TREE_ATTRIBUTES:
                    attrib[kept] = kept_value
        else:
            lxml_element.set(key, value)

    def __delitem__(self, name: Any) -> None:
        key = self._builder._tree_name(name)
        del self._names()[key]
        self._element._element.attrib.pop(key, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


class _PendingText:
    """Text on its way into the lxml tree, kept as pieces per place (an element's ``text`` or
    ``tail``) until html5lib reads text or the document is taken. html5lib's builder appends
    each character token with ``element.text += data``, and lxml copies the whole text out and
    back in for that: a text node made of n tokens (every character reference splits one: a
    400 KB paragraph of "x &amp; y" took 17 s) cost n², and so did text that comes to two places
    in turns (foster-parented before a table, between cells). lxml keeps one proxy per node
    while one is alive, so a place is the same key each time."""

    def __init__(self) -> None:
        self._pieces: dict[tuple[Any, str], list[str]] = {}

    def add(self, element: Any, slot: str, data: str) -> None:
        self._pieces.setdefault((element, slot), []).append(data)

    def flush(self) -> None:
        """Write the pieces into the tree (before anything reads it)."""
        for (element, slot), pieces in self._pieces.items():
            setattr(element, slot, (getattr(element, slot) or "") + "".join(pieces))
        self._pieces = {}


#: SVG and MathML names html5lib's rules for foreign content read by ``name``: integration points
#: (an SVG ``title`` among them) and ``annotation-xml``; no rule for HTML reads these
_FOREIGN_NAMES_READ = frozenset(("annotation-xml", "foreignObject", "desc", "title", "mi", "mo", "mn", "ms", "mtext"))
_FOREIGN_MARK = "foreign "  # a space: no HTML element's name has one


class _OwnerRecordingTreeBuilder(_LxmlTreeBuilder):  # type: ignore[misc, valid-type]
    """html5lib's lxml builder, plus the form-pointer association of #form-element-pointer,
    Blink's tree depth limit, a stack that knows what it holds and text appended in linear
    time (:class:`_PendingText`)."""

    current_line: Any = staticmethod(lambda: 0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        builder = self

        own_name: Any = self.elementClass.name  # type: ignore[has-type]  # (html5lib is untyped)

        class Element(self.elementClass):  # type: ignore[misc, name-defined]
            """html5lib's element, reading its text only after the pending pieces are in."""
            # (and inserting before a child in constant time, and named as html5lib's rules for
            # HTML elements need: see `name`)

            @property
            def local_name(self) -> str:
                return str(own_name.fget(self))

            def _name(self) -> str:
                """The name html5lib's rules read. Its rules for HTML ("pop until a ``tr``", "is
                the current node an ``option``", "is it ``html``") mostly read a name alone,
                where the standard means an HTML element: an SVG or MathML ``tr``, ``select``
                or ``html`` stopped them early (the wrong tree) or at an assertion that only a
                fragment's parse gets there (an AssertionError: ``<table><svg><html>``). A
                foreign element's name is therefore no HTML element's, but for the names
                html5lib's rules for foreign content and integration points read."""
                local = str(own_name.fget(self))
                if self.namespace in _HTML_NAMESPACES or local in _FOREIGN_NAMES_READ:
                    return local
                return _FOREIGN_MARK + local

            name = property(_name, own_name.fset)

            def hasContent(self) -> bool:
                builder.pending_text.flush()
                return bool(super().hasContent())

            def reparentChildren(self, newParent: Any) -> None:
                """html5lib's, moving the children in the tree's order (see insertBefore)."""
                builder.pending_text.flush()
                builder.reset_form_owners(self._element.iterdescendants())
                order = {child: index for index, child in enumerate(self._element)}
                self._childNodes.sort(key=lambda node: order.get(node._element, len(order)))
                super().reparentChildren(newParent)

            def removeChild(self, node: Any) -> None:
                builder.reset_form_owners(node._element.iter())
                super().removeChild(node)

            def appendChild(self, node: Any) -> None:
                builder.check_time()  # (each move walks the node's subtree in lxml)
                super().appendChild(node)

            def insertBefore(self, node: Any, refNode: Any) -> None:
                """html5lib's, without listing every child to find ``refNode`` (each element
                foster-parented before a table cost the children before it), and with ``node``
                among the children html5lib lists: html5lib 1.1 left a foster-parented element
                out, so the adoption agency's removeChild of it raised a ValueError
                (``<table><form><b><em><foo><foo><foo><aside></b></em>``, html5lib-tests
                webkit02.dat #15) and its reparentChildren left it behind. It is listed last;
                reparentChildren sorts the list into the tree's order when it reads it."""
                refNode._element.addprevious(node._element)
                node.parent = self
                self._childNodes.append(node)

        self.elementClass = Element
        self.deadline: float | None = None  # time.monotonic() past which the parse gives up

    def check_time(self) -> None:
        """Raise :class:`~formtools.ParseTimeLimit` once the deadline has passed. Called where
        the tree grows or moves: lxml walks a moved node's whole subtree, so the adoption
        agency, moving the same deep blocks again and again, can cost n² in C for n misnested
        formatting elements (``<b id=N><div>`` n times, then ``</b>`` n times: 2,000 take
        minutes), where a browser's DOM moves a node in constant time."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ParseTimeLimit("the page took longer to parse than its time limit")

    def reset(self) -> None:
        super().reset()
        self.openElements = _CountedStack()
        self.parser_owners: dict[Any, Any] = {}
        #: elements the pointer gave a form still open (see parser_unlisted), and the forms
        #: the pointer gave an element after they were closed
        self.owned_while_open: list[Any] = []
        self.listing_by_parser: set[Any] = set()
        self.many_attributes: dict[Any, dict[str, str]] = {}
        self.lines: dict[Any, int] = {}  # (Document.lines)
        self._splitting: set[int] = set()  # tokens whose attributes are set aside meanwhile
        self.pending_text = _PendingText()
        #: an HTML textarea, pre or listing was just inserted: a line feed starting the next
        #: token is dropped (see _EscapingTokenizer.__iter__)
        self.drop_leading_newline = False
        self.activeFormattingElements = _FormattingList()

    def reset_form_owners(self, elements: Iterator[Any]) -> None:
        """Forget the pointer's association of the controls among ``elements``, which the
        adoption agency is moving (the only mover besides ``<frameset>``, which throws the body
        away). A control removed from its parent has its form owner reset, and again when it is
        inserted elsewhere (#reset-the-form-owner; Blink: ``FormAssociated::RemovedFrom``): the
        form around it then decides, as for any control the pointer did not place. Kept, it
        gave ``<table><form><a><button></a>``'s button to the form, where Chromium's has none."""
        owners = self.parser_owners
        if owners:
            # (the subtree is sifted in C: a Python line per element cost the subtree's size
            # at each move, and the agency can move a subtree holding every later element at
            # each of thousands of end tags)
            for element in list(filter(owners.__contains__, elements)):
                del owners[element]

    def elementInActiveFormattingElements(self, name: str) -> Any:
        return self.activeFormattingElements.last_named(name)

    def insertText(self, data: str, parent: Any = None) -> None:
        """Where html5lib's builder puts text (the current node, or before a table when foster
        parenting: the element's ``text`` if nothing precedes the place, else the ``tail`` of
        the node that does), but through :class:`_PendingText`."""
        if parent is None:
            parent = self.openElements[-1]
        element, before = parent._element, None
        if self.insertFromTable and self.openElements[-1].name in tableInsertModeElements:
            parent, table = self.getTableMisnestedNodePosition()  # (table None: at the end)
            element, before = parent._element, None if table is None else table._element
        if before is not None:
            previous = before.getprevious()
        else:
            previous = element[-1] if len(element) else None
        data = self.infosetFilter.coerceCharacters(data)
        self.check_time()
        if previous is None:
            self.pending_text.add(element, "text", data)
        else:
            self.pending_text.add(previous, "tail", data)

    def getDocument(self) -> Any:
        self.pending_text.flush()
        return super().getDocument()

    def generateImpliedEndTags(self, exclude: Any = None) -> None:
        """html5lib's own, in a loop: it called itself once per element it popped, so ``</form>``
        after a thousand open optgroups (or rp, rt …, which nest in a body) failed with a
        RecursionError; the elements and the order they are popped in are the same."""
        stack = self.openElements
        while stack[-1].name in _IMPLIED_END_TAGS and stack[-1].name != exclude:
            stack.pop()

    def generate_implied_end_tags_thoroughly(self) -> None:
        """#generate-all-implied-end-tags-thoroughly, which ``</template>`` runs (html5lib 1.1
        has none: it predates templates)."""
        stack = self.openElements
        while stack[-1].name in _IMPLIED_END_TAGS_THOROUGHLY:
            stack.pop()

    def getTableMisnestedNodePosition(self) -> tuple[Any, Any]:
        """The foster parent and the node to insert before, as #appropriate-place-for-inserting-
        a-node has them now: into the last template's contents when it was opened after the
        last table (or there is none). html5lib 1.1 predates templates: ``<template><table>x``
        had the text moved out of the template, before it."""
        stack = self.openElements
        for node in reversed(stack) if stack.counts[_TEMPLATE] else ():
            if node.nameTuple == _TEMPLATE:
                return node, None
            if node.name == "table":
                break
        return super().getTableMisnestedNodePosition()  # type: ignore[no-any-return]

    def elementInScope(self, target: Any, variant: Any = None) -> bool:
        """html5lib's, with a template among the boundaries of every scope and a select among
        those of every scope but table scope (see :data:`_SCOPES`)."""
        name = target.nameTuple if hasattr(target, "nameTuple") else target
        if isinstance(name, str):
            name = (_HTML, name)
        if not self.openElements.counts[name]:
            return False  # the walk could only end at a scope boundary
        boundaries = _SCOPES.get(variant)
        if boundaries is None:
            return bool(super().elementInScope(target, variant))
        exact = hasattr(target, "nameTuple")
        for node in reversed(self.openElements):
            if node is target if exact else node.nameTuple == name:
                return True
            if node.nameTuple in boundaries:
                return False
        return False

    def _split(self, token: dict[str, Any]) -> dict[Any, str] | None:
        """An element's attributes, when they are too many for the tree: libxml2 keeps an
        element's attributes in a list it walks for each one added or read by name, so n
        attributes cost n² (80,000 on one input took 40 s, on an ``<svg>`` 33 s). The tree then
        holds only the names some reader looks up (:data:`TREE_ATTRIBUTES`: a foreign element's
        namespaced attributes, ``xlink:href`` and the like, are read by none), and an HTML
        formatting element a digest of all (html5lib compares them for the Noah's Ark clause);
        ``many_attributes`` holds them all (see :class:`~formtools._parse.document.Document`)."""
        data: dict[Any, str] = token["data"]
        if len(data) <= MANY_ATTRIBUTES or id(token) in self._splitting:
            return None
        kept = {name: value for name, value in data.items() if name in TREE_ATTRIBUTES}
        if token["name"] in _FORMATTING and token.get("namespace") in _HTML_NAMESPACES:
            kept[_DIGEST] = hashlib.sha256(repr(list(data.items())).encode("utf-8", "surrogatepass")).hexdigest()
        self._splitting.add(id(token))
        token["data"] = kept
        return data

    def _tree_name(self, name: Any) -> str:
        """The name html5lib's lxml tree gives an attribute (its ``Attributes._coerceKey``): a
        foreign attribute, ``(prefix, local name, namespace)``, in Clark notation."""
        coerce = self.infosetFilter.coerceAttribute
        if isinstance(name, tuple):
            return f"{{{name[2]}}}{coerce(name[1])}"
        return str(coerce(name))

    def _keep(self, token: dict[str, Any], element: Any, full: dict[Any, str] | None) -> None:
        """After ``element`` is made from ``token``: its attributes all in ``many_attributes``
        when ``_split`` set some aside (``full``), and a ``<body>``'s ready to merge more."""
        if token["name"] == "body" and token.get("namespace") in _HTML_NAMESPACES:
            element._attributes = _MergedAttributes(self, element)
        if full is None:
            return
        self._splitting.discard(id(token))
        token["data"] = full
        tree_name = self._tree_name
        attributes: dict[str, str] = {}
        for name, value in full.items():
            attributes[tree_name(name)] = value
        self.many_attributes[element._element] = attributes

    def insertDoctype(self, token: dict[str, Any]) -> None:
        """Nothing: no form rule reads the doctype (the parser has taken the document's mode from
        it already), and html5lib hands it to libxml2 as XML text, which refuses a name or an
        identifier of 50,000 characters (``<!DOCTYPE aaa…>`` stopped the parse)."""

    def insertRoot(self, token: dict[str, Any]) -> None:
        super().insertRoot(token)
        root = self.openElements[0]
        root._attributes = _MergedAttributes(self, root)  # <html> start tags merge into it

    def createElement(self, token: dict[str, Any]) -> Any:
        full = self._split(token)
        element = super().createElement(token)
        self._keep(token, element, full)
        return element

    def insertElementNormal(self, token: dict[str, Any]) -> Any:
        full = self._split(token)
        element = self._insert_normal(token)
        self._keep(token, element, full)
        return element

    def _insert_normal(self, token: dict[str, Any]) -> Any:
        stack = self.openElements
        pushed = not (token["name"] in _VOID and token.get("namespace") in (None, _HTML))
        pushed = pushed and not (token.get("selfClosing") and token.get("namespace") not in (None, _HTML))
        if len(stack) + pushed > MAX_STACK_DEPTH and stack[-1].parent is not None:
            current = stack[-1]
            element = self.createElement(token)
            current.parent.appendChild(element)
            stack.append(element)
            return self._record(element, token)
        return self._record(super().insertElementNormal(token), token)

    def _template_open(self) -> bool:
        return bool(self.openElements.counts[(_HTML, "template")])

    def _record(self, element: Any, token: dict[str, Any]) -> Any:
        name = element.name
        if name in _DROP_NEWLINE and element.namespace in _HTML_NAMESPACES:
            self.drop_leading_newline = True
        if name in FORM_POINTER_ASSOCIATED and element.namespace in _HTML_NAMESPACES:
            lxml_element = element._element
            self.lines[lxml_element] = self.current_line()
            pointer = self.formPointer
            if pointer is not None and "form" not in token["data"] and not self._template_open():
                self.parser_owners[lxml_element] = pointer._element
                if pointer in self.openElements:
                    self.owned_while_open.append(lxml_element)
                else:  # Blink's HTMLFormElement::DidAssociateByParser, after its children
                    self.listing_by_parser.add(pointer._element)
        elif name == "form":
            self.lines[element._element] = self.current_line()
        return element

    def insertElementTable(self, token: dict[str, Any]) -> Any:
        full = self._split(token)
        element = self._record(super().insertElementTable(token), token)
        self._keep(token, element, full)
        return element


class _Pieces:
    """A token's text as the pieces html5lib appends to it.

    html5lib extends a token's text with ``+=``: a tag or doctype name one character at a time, a
    comment at each ``-``, an attribute value at each character reference. A Python string copied
    at every step makes a text of n pieces cost n² (a 400,000-character tag name took 11 s), so
    these texts gather their pieces and are joined once, where a token's text is first read.
    """

    __slots__ = ("_pieces",)

    def __init__(self, start: str) -> None:
        self._pieces = [start]

    def __iadd__(self, piece: str) -> _Pieces:
        self._pieces.append(piece)
        return self

    def __str__(self) -> str:
        text = "".join(self._pieces)
        self._pieces = [text]
        return text

    def translate(self, table: Any) -> str:  # the one read html5lib makes (lowering a name)
        return str(self).translate(table)


def _gathered(state: Any, field: str) -> Any:
    """``state`` with the current token's ``field`` gathered in :class:`_Pieces`, after a look
    at the clock (one token can be millions of steps long)."""

    def gathering(self: HTMLTokenizer) -> bool:
        self.parser.tree.check_time()
        token = self.currentToken
        if type(token[field]) is str:
            token[field] = _Pieces(token[field])
        return bool(state(self))

    return gathering


def _name_run_first(state: Any) -> Any:
    """The doctype name state, taking the run of characters it would only append in one step.

    html5lib's appends one character per step, each a method call and a look at the clock:
    ``<!DOCTYPE`` and a name of 50,001 letters took 0.1 s per parse. The run ends before what
    the state does more than append for (space, ``>``, NUL, the end of the input), which the
    state then reads as before: the same token, the same parse errors.
    """

    def reading(self: HTMLTokenizer) -> bool:
        self.currentToken["name"] += self.stream.charsUntil(_DOCTYPE_NAME_ENDS)
        return bool(state(self))

    return reading


def _gathered_value(state: Any) -> Any:
    """``state`` with the value of the attribute being read gathered in :class:`_Pieces`, after
    a look at the clock."""

    def gathering(self: HTMLTokenizer) -> bool:
        self.parser.tree.check_time()
        attribute = self.currentToken["data"][-1]
        if type(attribute[1]) is str:
            attribute[1] = _Pieces(attribute[1])
        return bool(state(self))

    return gathering


def _letters_at_once(state: Any) -> Any:
    """An end-tag-name state of raw text, script or RCDATA, taking a run of letters in one step.

    html5lib's takes one letter per step and compares the whole name so far, lowered, at each:
    ``<title></aaa…`` of n letters cost n².
    """

    def reading(self: HTMLTokenizer) -> bool:
        self.temporaryBuffer += self.stream.charsUntil(asciiLetters, True)
        return bool(state(self))

    return reading


def _letters_at_once_echoed(state: Any) -> Any:
    """A script data double-escape state, taking a run of letters in one step (see above); the
    letters are also text, one token for the run instead of one per letter."""

    def reading(self: HTMLTokenizer) -> bool:
        letters = self.stream.charsUntil(asciiLetters, True)
        if letters:
            self.tokenQueue.append({"type": tokenTypes["Characters"], "data": letters})
            self.temporaryBuffer += letters
        return bool(state(self))

    return reading


_TEXT_FIELDS = ("name", "data", "publicId", "systemId")  # the token texts html5lib appends to
_PARSE_ERROR = tokenTypes["ParseError"]
_DOCTYPE_NAME_ENDS = frozenset(spaceCharacters | {">", "\u0000"})
_TEXT_TOKENS = (tokenTypes["Characters"], tokenTypes["SpaceCharacters"])
_DROP_NEWLINE = frozenset(("textarea", "pre", "listing"))
#: a common ancestor the adoption agency's last node is foster-parented out of (html5lib's list)
_FOSTER_TARGETS = frozenset(("table", "tbody", "tfoot", "thead", "tr"))


class _EscapingTokenizer(HTMLTokenizer):  # type: ignore[misc]  # html5lib is untyped
    """html5lib's tokenizer, handing on tokens with unrepresentable characters parked, finding
    duplicate attributes with a set (html5lib compares each name with every earlier one of the
    tag: n attributes cost n²), and linear in the length of every token (see :class:`_Pieces`)."""

    _names: tuple[Any, set[str]] = (None, set())  # the tag token, its attribute names so far

    tagNameState = _gathered(HTMLTokenizer.tagNameState, "name")
    doctypeNameState = _gathered(_name_run_first(HTMLTokenizer.doctypeNameState), "name")
    doctypePublicIdentifierDoubleQuotedState = _gathered(
        HTMLTokenizer.doctypePublicIdentifierDoubleQuotedState, "publicId"
    )
    doctypePublicIdentifierSingleQuotedState = _gathered(
        HTMLTokenizer.doctypePublicIdentifierSingleQuotedState, "publicId"
    )
    doctypeSystemIdentifierDoubleQuotedState = _gathered(
        HTMLTokenizer.doctypeSystemIdentifierDoubleQuotedState, "systemId"
    )
    doctypeSystemIdentifierSingleQuotedState = _gathered(
        HTMLTokenizer.doctypeSystemIdentifierSingleQuotedState, "systemId"
    )
    commentStartState = _gathered(HTMLTokenizer.commentStartState, "data")
    commentStartDashState = _gathered(HTMLTokenizer.commentStartDashState, "data")
    commentState = _gathered(HTMLTokenizer.commentState, "data")
    commentEndDashState = _gathered(HTMLTokenizer.commentEndDashState, "data")
    commentEndState = _gathered(HTMLTokenizer.commentEndState, "data")
    commentEndBangState = _gathered(HTMLTokenizer.commentEndBangState, "data")
    beforeAttributeValueState = _gathered_value(HTMLTokenizer.beforeAttributeValueState)
    attributeValueDoubleQuotedState = _gathered_value(HTMLTokenizer.attributeValueDoubleQuotedState)
    attributeValueSingleQuotedState = _gathered_value(HTMLTokenizer.attributeValueSingleQuotedState)
    attributeValueUnQuotedState = _gathered_value(HTMLTokenizer.attributeValueUnQuotedState)
    rcdataEndTagNameState = _letters_at_once(HTMLTokenizer.rcdataEndTagNameState)
    rawtextEndTagNameState = _letters_at_once(HTMLTokenizer.rawtextEndTagNameState)
    scriptDataEndTagNameState = _letters_at_once(HTMLTokenizer.scriptDataEndTagNameState)
    scriptDataEscapedEndTagNameState = _letters_at_once(HTMLTokenizer.scriptDataEscapedEndTagNameState)
    scriptDataDoubleEscapeStartState = _letters_at_once_echoed(
        HTMLTokenizer.scriptDataDoubleEscapeStartState
    )
    scriptDataDoubleEscapeEndState = _letters_at_once_echoed(HTMLTokenizer.scriptDataDoubleEscapeEndState)

    def attributeNameState(self) -> bool:
        """html5lib 1.1's, but for the duplicate check (only a parse error: the first of the
        names is kept when the token is emitted) and the name gathered in pieces."""
        self.parser.tree.check_time()
        data = self.stream.char()
        leaving = True
        emit = False
        attributes = self.currentToken["data"]
        if type(attributes[-1][0]) is str:
            attributes[-1][0] = _Pieces(attributes[-1][0])
        if data == "=":
            self.state = self.beforeAttributeValueState
        elif data in asciiLetters:
            attributes[-1][0] += data + self.stream.charsUntil(asciiLetters, True)
            leaving = False
        elif data == ">":
            emit = True
        elif data in spaceCharacters:
            self.state = self.afterAttributeNameState
        elif data == "/":
            self.state = self.selfClosingStartTagState
        elif data == "\u0000":
            self.tokenQueue.append({"type": tokenTypes["ParseError"], "data": "invalid-codepoint"})
            attributes[-1][0] += "\uFFFD"
            leaving = False
        elif data in ("'", '"', "<"):
            self.tokenQueue.append(
                {"type": tokenTypes["ParseError"], "data": "invalid-character-in-attribute-name"}
            )
            attributes[-1][0] += data
            leaving = False
        elif data is EOF:
            self.tokenQueue.append({"type": tokenTypes["ParseError"], "data": "eof-in-attribute-name"})
            self.state = self.dataState
        else:
            attributes[-1][0] += data
            leaving = False
        if leaving:
            name = attributes[-1][0] = attributes[-1][0].translate(asciiUpper2Lower)
            token, names = self._names
            if token is not self.currentToken:
                names = {earlier for earlier, _ in attributes[:-1]}
                self._names = (self.currentToken, names)
            if name in names:
                self.tokenQueue.append({"type": tokenTypes["ParseError"], "data": "duplicate-attribute"})
            names.add(name)
            if emit:
                self.emitCurrentToken()
        return True

    def consumeEntity(self, allowedChar: Any = None, fromAttribute: bool = False) -> None:
        """html5lib's, after a look at the clock: a value of a million character references is
        one token, long in the making before it reaches the tree."""
        self.parser.tree.check_time()
        super().consumeEntity(allowedChar, fromAttribute)

    def consumeNumberEntity(self, isHex: bool) -> str:
        """The character of a numeric reference, as html5lib 1.1 finds it but for its digits.

        html5lib turns every digit into one int, which Python refuses past 4,300 decimal digits
        (``&#0000…65;`` stopped the parse with a ValueError) and which costs n² on the way
        there. Leading zeros add nothing and every value past U+10FFFF is the replacement
        character, so at most the eight significant digits that can matter are converted.
        """
        number = self.stream.charsUntil(hexDigits if isHex else digits, True).lstrip("0")
        code = int(number or "0", 16 if isHex else 10) if len(number) <= 8 else 0x110000
        if code in replacementCharacters or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            character: str = replacementCharacters.get(code, "\uFFFD")
            self.tokenQueue.append(
                {
                    "type": tokenTypes["ParseError"],
                    "data": "illegal-codepoint-for-numeric-entity",
                    "datavars": {"charAsInt": code},
                }
            )
        else:
            character = chr(code)
        following = self.stream.char()
        if following != ";":
            self.tokenQueue.append({"type": tokenTypes["ParseError"], "data": "numeric-entity-without-semicolon"})
            self.stream.unget(following)
        return character

    def __iter__(self) -> Iterator[dict[str, Any]]:
        tree = self.parser.tree
        check_time = tree.check_time  # (tokens the tree keeps nothing of cost time too)
        for token in super().__iter__():
            check_time()
            if tree.drop_leading_newline and token["type"] != _PARSE_ERROR:
                # "If the next token is a U+000A LINE FEED (LF) character token, then ignore
                # that token" after a textarea, pre or listing start tag, whatever the mode
                # (#parsing-main-inbody). html5lib 1.1 hooks it on the in-body phase only, so a
                # textarea in a table cell or caption, or foster-parented, kept its line feed
                # (a default value "\n" for Chromium's "").
                tree.drop_leading_newline = False
                in_body = self.parser.phases["inBody"]
                in_body.processSpaceCharacters = in_body.processSpaceCharactersNonPre
                if token["type"] in _TEXT_TOKENS and token["data"].startswith("\n"):
                    token["data"] = token["data"][1:]
                    if not token["data"]:
                        continue
            for field in _TEXT_FIELDS:
                if isinstance(token.get(field), _Pieces):
                    token[field] = str(token[field])
            name = token.get("name")
            if isinstance(name, str) and not PLAIN_NAME.fullmatch(name):
                token["name"] = xml_safe_name(name)
            data = token.get("data")
            if isinstance(data, str):
                # A U+0000 in the data state comes as a token of its own (and nothing else does),
                # for the tree builder's modes to drop (in body, table text, select) or turn into
                # U+FFFD (in foreign content), never setting the frameset-ok flag "not ok"
                # (#parsing-main-inbody, #parsing-main-inforeign): parked, it stayed in the tree as
                # text (an option "a\0b" for Chromium's "ab") and kept a later <frameset> out.
                if data != "\u0000" and _NEEDS_ESCAPE.search(data):
                    token["data"] = data.translate(_ESCAPE)
                    self.parser.escaped = True
            elif isinstance(data, dict):
                renamed = False
                for name, value in data.items():
                    if isinstance(value, _Pieces):
                        data[name] = value = str(value)
                    if _NEEDS_ESCAPE.search(value):
                        data[name] = value = value.translate(_ESCAPE)
                        self.parser.escaped = True
                    renamed = renamed or not PLAIN_NAME.fullmatch(name)
                if renamed:  # in place, the first of two names made the same winning (as on the fast path)
                    safe: dict[str, str] = {}
                    for name, value in data.items():
                        safe.setdefault(name if PLAIN_NAME.fullmatch(name) else xml_safe_name(name), value)
                    token["data"] = safe
            yield token


class _Parser(html5lib.HTMLParser):  # type: ignore[misc]  # html5lib is untyped
    """html5lib's parser with the template-aware form pointer handling of the current standard,
    and characters lxml cannot hold parked (see above)."""

    escaped = False

    def mainLoop(self) -> None:
        self.tokenizer.__class__ = _EscapingTokenizer
        super().mainLoop()

    def resetInsertionMode(self) -> None:
        """html5lib's, reading HTML elements only and without its walk. html5lib looked at an
        element's name before its namespace, took an SVG or MathML ``select``, ``colgroup``,
        ``head`` or ``html`` for the HTML element, which it holds only a fragment's parse can
        meet, and stopped with an AssertionError (``<svg><select><desc><table><td></table>``,
        found by fuzzing); and it copied and walked the whole stack from the top to the first
        element that decides the mode, so a closing select or ``</template>`` under n open
        optgroups or divs cost n (``<select><optgroup>`` n times: quadratic). The counted stack
        lists the HTML elements that decide it; a document's stack always holds its ``<body>``,
        ``<head>`` or ``<frameset>`` (else: "last", in body)."""
        modal = self.tree.openElements.modal
        name = modal[-1].name if modal else "body"
        if name == "template":
            mode = self.template_modes[-1]
        elif name == "html":
            mode = "beforeHead" if self.tree.headPointer is None else "afterHead"
        else:
            mode = _MODES[name]
        self.phase = self.phases[mode]

    def reset(self) -> None:
        super().reset()
        #: the stack of template insertion modes (#stack-of-template-insertion-modes)
        self.template_modes: list[str] = []

    @property
    def innerHTML(self) -> Any:
        """The fragment's context (html5lib's name), or True while a template is open: html5lib
        1.1's table modes assert a fragment's parse where the stack has no table, body or row
        in table scope, which a template's contents reach too (``<template><tr></table>``:
        an AssertionError), and the standard ignores the token in both."""
        return self._fragment or self.tree._template_open()

    @innerHTML.setter
    def innerHTML(self, context: Any) -> None:
        self._fragment = context

    def __init__(self) -> None:
        super().__init__(tree=_OwnerRecordingTreeBuilder, namespaceHTMLElements=False)
        tree = self.tree
        tree.current_line = lambda: self.tokenizer.stream.position()[0]
        for mode, phase in _own_phases().items():
            self.phases[mode] = phase(self, tree)


@functools.cache
def _own_phases() -> Mapping[str, type]:
    """The insertion modes formtools changes, as subclasses of html5lib's (which its getPhases
    makes once per process). Made once too: they hold no state of a parse, and making their 16
    classes (for 11 modes) for each parse cost a millisecond, three times html5lib's whole parse
    of a short page."""
    html5libs = getPhases(False)
    phases = {
        "inBody": _customizable_select_in_body(_template_aware_in_body(html5libs["inBody"])),
        "inHead": _template_aware_in_head(html5libs["inHead"]),
        "afterHead": _template_aware_after_head(html5libs["afterHead"]),
        "inTable": _template_aware_in_table(html5libs["inTable"]),
        "inTableBody": _template_aware_in_table_body(html5libs["inTableBody"]),
        "inRow": _template_aware_in_row(html5libs["inRow"]),
        "inColumnGroup": _template_aware_in_column_group(html5libs["inColumnGroup"]),
        "inTemplate": _in_template(html5libs["initial"].__mro__[1]),  # (a Phase)
        "inForeignContent": _by_local_names(html5libs["inForeignContent"]),
    }
    for mode in ("inTable", "inCaption", "inColumnGroup", "inTableBody", "inRow", "inCell"):
        phases[mode] = _html_ignored_in_templates(phases.get(mode, html5libs[mode]))
    return MappingProxyType(phases)


def _by_local_names(in_foreign_content: type) -> type:
    class InForeignContent(in_foreign_content):  # type: ignore[misc]
        __slots__ = ()

        def processEndTag(self, token: dict[str, Any]) -> Any:
            """html5lib's, matching an end tag against the SVG and MathML elements' own names
            (their ``name`` is another for html5lib's rules for HTML; see the tree builder), and
            with the standard's newer rule for ``</p>`` and ``</br>``: they leave foreign content
            as a ``<div>`` does, to be read as HTML (html5lib 1.1 predates it and kept ``<math>
            </p><input>``'s input a MathML element, no control)."""
            stack = self.tree.openElements
            if token["name"] in ("br", "p"):
                self.parser.parseError("unexpected-end-tag", {"name": token["name"]})
                while not (
                    stack[-1].namespace in _HTML_NAMESPACES
                    or self.parser.isHTMLIntegrationPoint(stack[-1])
                    or self.parser.isMathMLTextIntegrationPoint(stack[-1])
                ):
                    stack.pop()
                # "reprocess the token according to the rules for the current insertion mode
                # in HTML content": handed back, it would come here again from an integration
                # point (html5lib sends its end tags to foreign content), for ever
                return self.parser.phase.processEndTag(token)
            position = len(stack) - 1
            node = stack[-1]
            if node.local_name.translate(asciiUpper2Lower) != token["name"]:
                self.parser.parseError("unexpected-end-tag", {"name": token["name"]})
            if not stack.lowered_local_names[token["name"]]:
                # the walk would end at the first HTML element, having passed every foreign one
                # (``<svg>``, 16,000 ``<g>``, 16,000 ``</b>``: each walked them all)
                return self.parser.phase.processEndTag(token)
            while True:
                if node.local_name.translate(asciiUpper2Lower) == token["name"]:
                    if self.parser.phase == self.parser.phases["inTableText"]:  # (as html5lib)
                        self.parser.phase.flushCharacters()
                        self.parser.phase = self.parser.phase.originalPhase
                    while stack.pop() != node:
                        pass
                    return None
                position -= 1
                node = stack[position]
                if node.namespace in _HTML_NAMESPACES:
                    return self.parser.phase.processEndTag(token)

    return InForeignContent


def _is_html(node: Any, name: str) -> bool:
    return bool(node.name == name and node.namespace in _HTML_NAMESPACES)


def adoption_agency(self: Any, token: dict[str, Any]) -> None:
    """The adoption agency algorithm as the standard has it now (#adoption-agency-
    algorithm), where html5lib 1.1 keeps a 2009 revision: its inner loop stops after
    three steps, so with more than three elements between a misnested formatting element
    and the block below it (``<b><em><span><span><span><aside>…</b>``) the block and what
    it holds stayed where Chromium moves them into clones, and a control the form
    pointer had placed kept that form; and it lacks step 1, which closes a current node
    of the subject's name that the list no longer holds. The steps' numbers are the
    standard's; the tree's operations are html5lib's (foster parenting of the last node
    included), so that it serves html5lib's own phase too: tests/test_exact_parser.py holds
    this parser's tree to html5lib's with it."""
    tree = self.tree
    stack, formatting = tree.openElements, tree.activeFormattingElements
    subject = token["name"]
    current = stack[-1]
    if current.name == subject and current.namespace in _HTML_NAMESPACES and current not in formatting:
        stack.pop()  # step 1
        return
    for _outer in range(8):  # steps 2 to 4.2
        element = tree.elementInActiveFormattingElements(subject)  # 4.3
        if not element:
            self.endTagOther(token)
            return
        if element not in stack:  # 4.4
            self.parser.parseError("adoption-agency-1.2", {"name": subject})
            formatting.remove(element)
            return
        at = stack.index(element)
        # 4.5, as html5lib's elementInScope, without its walk from the top in Python lines (the
        # element can be deep in the stack at each of thousands of end tags)
        if not _SCOPES[None].isdisjoint(map(_NAME_TUPLE, stack[at + 1 :])):
            self.parser.parseError("adoption-agency-4.4", {"name": subject})
            return
        if element is not stack[-1]:  # 4.6
            self.parser.parseError("adoption-agency-1.3", {"name": subject})
        above = stack[at + 1 :]
        place = next((n for n, name in enumerate(map(_NAME_TUPLE, above)) if name in _SPECIAL), None)
        furthest = None if place is None else above[place]
        if furthest is None:  # 4.8
            while stack.pop() is not element:
                pass
            formatting.remove(element)
            return
        common_ancestor = stack[at - 1]  # 4.9
        bookmark = None  # 4.10: where the element is; else the entry it is after
        node = last = furthest  # 4.11
        position = at + 1 + place  # (furthest's, less the nodes the inner loop takes off)
        furthest_at = position
        inner = 0
        while True:  # 4.13
            inner += 1
            position -= 1
            node = stack[position]
            if node is element:
                break
            if inner > 3 and node in formatting:
                formatting.remove(node)
            if node not in formatting:
                stack.pop(position)  # (from the top: list.remove walked from the bottom)
                furthest_at -= 1
                continue
            clone = node.cloneNode()
            formatting[formatting.index(node)] = clone
            stack[position] = clone
            node = clone
            if last is furthest:
                bookmark = node
            if last.parent:
                last.parent.removeChild(last)
            node.appendChild(last)
            last = node
        if last.parent:  # 4.14
            last.parent.removeChild(last)
        if common_ancestor.name in _FOSTER_TARGETS:
            parent, before = tree.getTableMisnestedNodePosition()
            if before is None:  # (a template's contents: at their end)
                parent.appendChild(last)
            else:
                parent.insertBefore(last, before)
        else:
            common_ancestor.appendChild(last)
        clone = element.cloneNode()  # 4.15
        furthest.reparentChildren(clone)  # 4.16
        furthest.appendChild(clone)  # 4.17
        if bookmark is None:  # 4.18
            formatting[formatting.index(element)] = clone
        else:
            formatting.remove(element)
            formatting.insert(formatting.index(bookmark) + 1, clone)
        stack.pop(at)  # 4.19 (the inner loop took off only nodes between it and the furthest block)
        stack.insert(furthest_at, clone)  # (furthest_at - 1 now, and the clone right after it)


def _template_aware_in_body(in_body: type) -> type:
    handled = frozenset(getattr(in_body, "endTagHandler"))  # end tags with a rule of their own

    class InBody(in_body):  # type: ignore[misc]
        __slots__ = ()

        def endTagOther(self, token: dict[str, Any]) -> None:
            """"Any other end tag", as html5lib's endTagOther, walking the stack of open
            elements without copying it first (its copy made each end tag cost the depth), and
            only once the counted stack says it reaches an element: else it could only end at a
            special element (16,000 ``<span>`` then 16,000 ``</x>`` walked them all, each)."""
            stack = self.tree.openElements
            name = token["name"]
            if not stack.reached_by_end_tag(name):
                self.parser.parseError("unexpected-end-tag", {"name": name})
                return
            for node in reversed(stack):
                if node.name == name:
                    self.tree.generateImpliedEndTags(exclude=name)
                    if stack[-1].name != name:
                        self.parser.parseError("unexpected-end-tag", {"name": name})
                    while stack.pop() != node:
                        pass
                    return
                if node.nameTuple in _SPECIAL:
                    self.parser.parseError("unexpected-end-tag", {"name": name})
                    return

        endTagFormatting = adoption_agency

        def addFormattingElement(self, token: dict[str, Any]) -> None:
            """html5lib's, with the Noah's Ark clause's equals taken from the list's index
            (see :class:`_FormattingList`)."""
            self.tree.insertElement(token)
            element = self.tree.openElements[-1]
            formatting = self.tree.activeFormattingElements
            matching = formatting.matching(element)
            if len(matching) == 3:
                formatting.remove(matching[0])
            formatting.append(element)

        def processEOF(self) -> Any:
            """"in body", end of file: "in template"'s if a template is open."""
            if self.tree._template_open():
                return self.parser.phases["inTemplate"].processEOF()
            return super().processEOF()

        def processStartTag(self, token: dict[str, Any]) -> Any:
            name = token["name"]
            tree = self.tree
            if name == "isindex":
                # gone from the HTML Standard (whatwg/html#1095) and from Chromium's parser: an
                # ordinary element. html5lib 1.1 still expands it into a form with an <hr>, a
                # label and an input, which closed an open select and put text in its option
                return self.startTagOther(token)
            if name == "template":
                return self.parser.phases["inHead"].processStartTag(token)
            if name in ("html", "body", "frameset"):
                # "in body": an <html> or <body> with a template open is ignored, as is a
                # <body> or <frameset> whose second open element is no body (a template in
                # the head); html5lib 1.1 merged their attributes, or stopped with an
                # AssertionError that only a fragment's parse gets there
                stack = tree.openElements
                no_body = name != "html" and (len(stack) == 1 or not _is_html(stack[1], "body"))
                if no_body or (name != "frameset" and tree._template_open()):
                    self.parser.parseError("unexpected-start-tag", {"name": name})
                    return None
            if name in ("li", "dd", "dt"):
                return self._list_item(token)
            if name == "form" and tree._template_open():
                # "in body", <form> with a template open: insert it, leave the pointer alone.
                if tree.elementInScope("p", variant="button"):
                    self.processEndTag({"type": 4, "name": "p", "data": {}, "selfClosing": False})
                tree.insertElement(token)
                return None
            return super().processStartTag(token)

        def _list_item(self, token: dict[str, Any]) -> None:
            """html5lib's startTagListItem, whose walk stops at the special category as the
            standard has it (:data:`_SPECIAL`, a template among it: html5lib's closed the
            ``li`` around a template from inside it)."""
            self.parser.framesetOK = False
            stop = ("li",) if token["name"] == "li" else ("dd", "dt")
            for node in reversed(self.tree.openElements):
                if node.name in stop:
                    self.parser.phase.processEndTag({"type": 4, "name": node.name, "data": {}, "selfClosing": False})
                    break
                if node.nameTuple in _SPECIAL and node.name not in ("address", "div", "p"):
                    break
            if self.tree.elementInScope("p", variant="button"):
                self.parser.phase.processEndTag({"type": 4, "name": "p", "data": {}, "selfClosing": False})
            self.tree.insertElement(token)

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "br":
                # "act as described in the next entry; i.e. as if this was a br start tag"
                # (#parsing-main-inbody), which sets the frameset-ok flag to "not ok": html5lib
                # 1.1 inserts the br only, so </br><frameset> threw away a body Chromium keeps
                self.parser.framesetOK = False
            if token["name"] == "template":
                return self.parser.phases["inHead"].processEndTag(token)
            if token["name"] == "form" and self.tree._template_open():
                # "in body", </form> with a template open: the standard pops to a form in
                # scope; Chromium 156 takes it for "any other end tag", which a special element
                # open in the form stops (measured: ``<template><form><p></form>x`` keeps the
                # text in the p, ``<template><form><span></form>x`` puts it after the form)
                return self.endTagOther(token)
            if token["name"] not in handled:
                return self.endTagOther(token)
            if token["name"] in _FORMATTING:  # (html5lib's dispatch table holds its own function)
                return self.endTagFormatting(token)
            return super().processEndTag(token)

    return InBody


def _customizable_select_in_body(in_body: type) -> type:
    """"in body" as the customizable select parser has it (whatwg/html#10548, Chromium 156):
    the "in select" and "in select in table" insertion modes are gone, a select's contents are
    parsed "in body" (a ``<button>``, ``<div>``, ``<datalist>`` or ``</form>`` in one does what
    it does anywhere), and only these tags read an open select. html5lib 1.1 switched to its
    select modes, which dropped every other tag: a button in a select was no control, a
    ``</form>`` in one left the form pointer set, an ``<hr>`` was no item of the list executeTool
    fills. Every detail was decided by the live binary (tests/test_browser_select.py)."""

    class InBody(in_body):  # type: ignore[misc]
        __slots__ = ()

        def _close_select(self) -> bool:
            """Pop up to and with the select in scope, if there is one."""
            tree = self.tree
            if not tree.elementInScope("select"):
                return False
            self.parser.parseError("unexpected-start-tag-in-select")
            while not _is_html(tree.openElements.pop(), "select"):
                pass
            return True

        def processStartTag(self, token: dict[str, Any]) -> Any:
            name = token["name"]
            tree = self.tree
            if name == "select":
                # a select in scope is closed and the tag ignored; else one is inserted, and
                # the insertion mode stays what it is
                if not self._close_select():
                    tree.reconstructActiveFormattingElements()
                    tree.insertElement(token)
                    self.parser.framesetOK = False
                return None
            if name == "textarea":
                # "switch the insertion mode to text" (#parsing-main-inbody): html5lib 1.1
                # stays in body, whose character rule reconstructs the active formatting
                # elements, so ``<select><a></select><textarea>x`` put an ``a`` holding
                # the text inside the textarea (a default value Chromium does not read as ours)
                super().processStartTag(token)
                self.parser.originalPhase = self.parser.phase
                self.parser.phase = self.parser.phases["text"]
                return None
            if name == "input":
                self._close_select()  # (the one control that does: a textarea or keygen stays in)
            elif name in ("option", "optgroup", "hr") and tree.elementInScope("select"):
                # options and separators end the option or optgroup open in the select
                tree.generateImpliedEndTags(exclude="optgroup" if name == "option" else None)
            return super().processStartTag(token)

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "select":
                if self.tree.elementInScope("select"):
                    while not _is_html(self.tree.openElements.pop(), "select"):
                        pass
                return None
            return super().processEndTag(token)

    return InBody


def _template_aware_in_head(in_head: type) -> type:
    """"in head" with the template rules html5lib 1.1 lacks: ``<template>`` and ``</template>``
    (which "in body", "in table", "in column group", "after head" and "in template" hand here)."""

    class InHead(in_head):  # type: ignore[misc]
        __slots__ = ()

        def processStartTag(self, token: dict[str, Any]) -> Any:
            if token["name"] != "template":
                return super().processStartTag(token)
            # insert it, push a marker, frameset-ok "not ok", "in template" (current and pushed)
            parser, tree = self.parser, self.tree
            tree.insertElement(token)
            tree.activeFormattingElements.append(Marker)
            parser.framesetOK = False
            parser.template_modes.append("inTemplate")
            parser.phase = parser.phases["inTemplate"]
            return None

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] != "template":
                return super().processEndTag(token)
            parser, tree = self.parser, self.tree
            if not tree._template_open():
                parser.parseError("unexpected-end-tag", {"name": "template"})
                return None
            tree.generate_implied_end_tags_thoroughly()
            while tree.openElements.pop().nameTuple != _TEMPLATE:
                pass  # (an SVG or MathML element named template is not where it ends)
            tree.clearActiveFormattingElements()
            parser.template_modes.pop()
            parser.resetInsertionMode()
            return None

    return InHead


def _template_aware_after_head(after_head: type) -> type:
    class AfterHead(after_head):  # type: ignore[misc]
        __slots__ = ()

        def processStartTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":  # put in the head, as a <meta> there would be
                return self.startTagFromHead(token)
            return super().processStartTag(token)

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":
                return self.parser.phases["inHead"].processEndTag(token)
            return super().processEndTag(token)

    return AfterHead


def _template_aware_in_table(in_table: type) -> type:
    handled = frozenset(getattr(in_table, "startTagHandler"))  # start tags with a rule of their own
    handled_end = frozenset(getattr(in_table, "endTagHandler"))

    class InTable(in_table):  # type: ignore[misc]
        __slots__ = ()

        def _foster_parented(self, token: dict[str, Any]) -> Any:
            """"in table", anything else: "in body" with foster parenting, handing back what
            "in body" gives back to be reprocessed, and leaving foster parenting as it found it.
            html5lib 1.1 dropped what came back, so a ``<button>`` with another open in scope
            (which closes that one and is then inserted) vanished in a table: ``<table><object>
            <button><a><button name=b>`` had no button b. And it turned foster parenting off at
            the end, also at the end of an end tag "in body" sent back through this mode while
            handling a start tag (the ``</li>`` a ``<li>`` implies, the ``</option>`` an
            ``<option>`` does): the start tag's element then went into the table, not before it."""
            tree = self.tree
            before = tree.insertFromTable
            tree.insertFromTable = True
            try:
                if token["type"] == tokenTypes["EndTag"]:
                    self.parser.parseError("unexpected-end-tag-implies-table-voodoo", {"name": token["name"]})
                    return self.parser.phases["inBody"].processEndTag(token)
                self.parser.parseError("unexpected-start-tag-implies-table-voodoo", {"name": token["name"]})
                return self.parser.phases["inBody"].processStartTag(token)
            finally:
                tree.insertFromTable = before

        def processEOF(self) -> Any:
            return self.parser.phases["inBody"].processEOF()  # ("in table": as "in body")

        def clearStackToTableContext(self) -> None:
            _clear_stack_back_to(self.tree, ("table",))

        def startTagTable(self, token: dict[str, Any]) -> Any:
            """A ``<table>`` in a table: ignored if none is in table scope (a template's
            contents), else the table closed and the tag reprocessed (html5lib 1.1: dropped
            in a fragment's parse, which it took a template's for)."""
            self.parser.parseError("unexpected-start-tag-implies-end-tag", {"startName": "table", "endName": "table"})
            if not self.tree.elementInScope("table", variant="table"):
                return None
            self.processEndTag({"type": 4, "name": "table", "data": {}, "selfClosing": False})
            return token

        def processStartTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":  # into the table, not foster-parented
                return self.parser.phases["inHead"].processStartTag(token)
            if token["name"] == "table":
                return self.startTagTable(token)
            if token["name"] not in handled:
                return self._foster_parented(token)
            if token["name"] == "form" and self.tree._template_open():
                # "in table", <form> with a template open: the standard ignores it; Chromium
                # 156 inserts it and pops it, leaving the pointer alone (measured:
                # ``<template><table><form>`` has the form in the table)
                self.tree.insertElement(token)
                self.tree.openElements.pop()
                return None
            return super().processStartTag(token)

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":
                return self.parser.phases["inHead"].processEndTag(token)
            if token["name"] not in handled_end:
                return self._foster_parented(token)
            return super().processEndTag(token)

    return InTable


def _clear_stack_back_to(tree: Any, names: tuple[str, ...]) -> None:
    """#clear-the-stack-back-to-a-table-context (and table body, row): pop to one of ``names``,
    a template or ``html``; html5lib 1.1's went through a template."""
    stack = tree.openElements
    while not (stack[-1].name in names or stack[-1].name == "html" or stack[-1].nameTuple == _TEMPLATE):
        stack.pop()


def _template_aware_in_table_body(in_table_body: type) -> type:
    class InTableBody(in_table_body):  # type: ignore[misc]
        __slots__ = ()

        def clearStackToTableBodyContext(self) -> None:
            _clear_stack_back_to(self.tree, ("tbody", "tfoot", "thead"))

    return InTableBody


def _template_aware_in_row(in_row: type) -> type:
    class InRow(in_row):  # type: ignore[misc]
        __slots__ = ()

        def clearStackToTableRowContext(self) -> None:
            _clear_stack_back_to(self.tree, ("tr",))

    return InRow


def _template_aware_in_column_group(in_column_group: type) -> type:
    class InColumnGroup(in_column_group):  # type: ignore[misc]
        __slots__ = ()

        def ignoreEndTagColgroup(self) -> bool:
            """"If the current node is not a colgroup element", ignore (html5lib 1.1: "is
            ``html``", the fragment case; a template's column group mode has the template)."""
            return not _is_html(self.tree.openElements[-1], "colgroup")

        def endTagColgroup(self, token: dict[str, Any]) -> None:
            if self.ignoreEndTagColgroup():  # (html5lib asserted the fragment case)
                self.parser.parseError("unexpected-end-tag", {"name": "colgroup"})
            else:
                self.tree.openElements.pop()
                self.parser.phase = self.parser.phases["inTable"]

        def processEOF(self) -> Any:
            if self.tree._template_open():  # ("in column group": as "in body")
                return self.parser.phases["inTemplate"].processEOF()
            return super().processEOF()

        def processStartTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":
                return self.parser.phases["inHead"].processStartTag(token)
            return super().processStartTag(token)

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":
                return self.parser.phases["inHead"].processEndTag(token)
            return super().processEndTag(token)

    return InColumnGroup


def _html_ignored_in_templates(phase: type) -> type:
    """A table mode whose ``<html>`` start tag, merged into the root by html5lib 1.1 (its
    shared ``Phase.startTagHtml``), is ignored with a template open, as "in body" has it."""

    class IgnoringHtml(phase):  # type: ignore[misc]
        __slots__ = ()

        def processStartTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "html" and self.tree._template_open():
                self.parser.parseError("unexpected-start-tag", {"name": "html"})
                return None
            return super().processStartTag(token)

    return IgnoringHtml


def _in_template(phase: type) -> type:
    """The "in template" insertion mode (#parsing-main-intemplate), which html5lib 1.1 lacks:
    a template's contents start here, and the first table part or other tag there decides the
    mode they are parsed in (pushed on the stack of template insertion modes, which ``</template>``
    and the end of the page pop)."""

    class InTemplate(phase):  # type: ignore[misc]
        __slots__ = ()

        def processCharacters(self, token: dict[str, Any]) -> Any:
            return self.parser.phases["inBody"].processCharacters(token)

        def processSpaceCharacters(self, token: dict[str, Any]) -> Any:
            return self.parser.phases["inBody"].processSpaceCharacters(token)

        def processComment(self, token: dict[str, Any]) -> Any:
            return self.parser.phases["inBody"].processComment(token)

        def processDoctype(self, token: dict[str, Any]) -> Any:
            return self.parser.phases["inBody"].processDoctype(token)

        def processStartTag(self, token: dict[str, Any]) -> Any:
            parser = self.parser
            name = token["name"]
            if name in _TEMPLATE_IN_HEAD:
                return parser.phases["inHead"].processStartTag(token)
            mode = _TEMPLATE_SWITCHES.get(name, "inBody")
            parser.template_modes[-1] = mode
            parser.phase = parser.phases[mode]
            return token

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] == "template":
                return self.parser.phases["inHead"].processEndTag(token)
            self.parser.parseError("unexpected-end-tag", {"name": token["name"]})
            return None

        def processEOF(self) -> None:
            """Close every open template (popping to it, clearing the list of active formatting
            elements to its marker, popping its mode), reset the insertion mode and finish the
            end of file there. Done here, not handed back: html5lib's main loop refuses a phase
            it has seen at the end of file (a template in a template comes back here)."""
            parser, tree = self.parser, self.tree
            if not tree._template_open():
                return None
            parser.parseError("eof-in-template")
            while tree._template_open():
                while tree.openElements.pop().nameTuple != _TEMPLATE:
                    pass
                tree.clearActiveFormattingElements()
                parser.template_modes.pop()
            parser.resetInsertionMode()
            seen = []
            while parser.phase not in seen:
                seen.append(parser.phase)
                if not parser.phase.processEOF():
                    break
            return None

    return InTemplate


def parser_unlisted(owned_while_open: list[Any], owners: Mapping[Any, Any], listing: set[Any]) -> frozenset[Any]:
    """The elements the pointer gave a form that does not list them: Blink lists a form's
    elements from its own subtree only, unless an element was given it after its children were
    parsed (HTMLFormElement::DidAssociateByParser) or by ``form=``; so an element given it while
    it was still open, and put outside it (deeper than Blink nests, :data:`MAX_STACK_DEPTH`,
    the parser puts it beside the current node), has the form as its owner and is in no form's
    elements, nor in a tool (``<div>``×511 ``<form><input>``: Chromium's tool has no input)."""
    within: dict[Any, set[Any]] = {}  # each such form's subtree, walked once (not each element's ancestors)
    unlisted = []
    for element in owned_while_open:
        form = owners.get(element)
        if form is None or form in listing:
            continue
        if form not in within:
            within[form] = set(form.iter())
        if element not in within[form]:
            unlisted.append(element)
    return frozenset(unlisted)


def parse_exact(
    markup: str | bytes,
    url: str | None,
    content_type: str | None,
    source: str | None,
    deadline: float | None = None,
) -> Document:
    """html5lib with the form-pointer hook: the reference answer. ``deadline``: the
    ``time.monotonic()`` past which it raises :class:`~formtools.ParseTimeLimit`."""
    parser = _Parser()
    parser.tree.deadline = deadline
    settled = settle_encoding(markup, content_type) if isinstance(markup, bytes) else None
    with warnings.catch_warnings():
        # html5lib reports each lxml naming coercion; those never touch form markup
        warnings.simplefilter("ignore", DataLossWarning)
        if settled is None:
            lxml_tree = parser.parse(markup, scripting=True)
        else:  # html5lib's own detection (HTML's prescan and "change the encoding") is not Chromium's
            lxml_tree = parser.parse(
                markup, override_encoding=settled.encoding.name, useChardet=False, scripting=True
            )
    root = lxml_tree.getroot()
    encoding = "UTF-8" if settled is None else encoding_name(parser.documentEncoding)
    owners = MappingProxyType(dict(parser.tree.parser_owners))
    unlisted = parser_unlisted(parser.tree.owned_while_open, owners, parser.tree.listing_by_parser)
    many = MappingProxyType(parser.tree.many_attributes)
    return Document(
        forms_root=root,
        url=url,
        base_url=base_url_of(root, url),
        encoding=encoding,
        encoding_guessed=settled is not None and settled.guessed,
        source=source or (url or "<string>"),
        parser_owners=owners,
        parser_unlisted=unlisted,
        many_attributes=many,
        lines=MappingProxyType(parser.tree.lines),
        escaped=parser.escaped,
        base_target=base_target_of(root),
        frame_names=frame_names_of(root),
        referrer_policy=referrer_policy_of(root),
        meta_policies=meta_policies_of(root),
    )


def from_tree(tree: Any, *, url: str | None = None, source: str | None = None) -> Document:
    """Wrap a tree the caller already has (lxml or BeautifulSoup).

    Such a tree no longer says which controls the parser's form pointer associated, so owners come
    from ``form=`` attributes and ancestors only; parse the markup with :func:`parse_html` when the
    exact browser answer matters.
    """
    require_url(url)
    if type(tree).__module__.startswith("bs4"):
        root = _lxml_from_soup(tree)
        return Document(
            forms_root=root,
            url=url,
            base_url=base_url_of(root, url),
            source=source or (url or "<soup>"),
            base_target=base_target_of(root),
            frame_names=frame_names_of(root),
            referrer_policy=referrer_policy_of(root),
            meta_policies=meta_policies_of(root),
        )
    if isinstance(tree, etree._ElementTree):
        tree = tree.getroot()
    if isinstance(tree, etree._Element):
        root = tree.getroottree().getroot()
        return Document(
            forms_root=root,
            url=url,
            base_url=base_url_of(root, url),
            source=source or (url or "<tree>"),
            base_target=base_target_of(root),
            frame_names=frame_names_of(root),
            referrer_policy=referrer_policy_of(root),
            meta_policies=meta_policies_of(root),
        )
    raise UsageProblem(f"from_tree takes an lxml or BeautifulSoup tree, not a {type(tree).__name__}")


def _lxml_from_soup(soup: Any) -> etree._Element:
    """Copy a BeautifulSoup tree into lxml elements, keeping its structure as it is."""
    from bs4.element import Comment, Doctype, NavigableString, ProcessingInstruction, Tag

    root = etree.Element("html")

    def copy_children(source: Any, target: etree._Element) -> None:
        last: etree._Element | None = None
        for child in source.children:
            if isinstance(child, Tag):
                try:
                    element = etree.SubElement(target, child.name.lower())
                except ValueError:
                    continue  # a name lxml cannot hold; its subtree has no tool markup we can use
                for name, value in child.attrs.items():
                    try:
                        element.set(name, " ".join(value) if isinstance(value, list) else value)
                    except ValueError:
                        pass
                copy_children(child, element)
                last = element
            elif isinstance(child, NavigableString) and not isinstance(
                child, (Comment, ProcessingInstruction, Doctype)
            ):
                if last is None:
                    target.text = (target.text or "") + str(child)
                else:
                    last.tail = (last.tail or "") + str(child)

    top = soup.find("html") if soup.name == "[document]" else soup
    if top is not None and top.name == "html":
        for name, value in top.attrs.items():
            root.set(name, " ".join(value) if isinstance(value, list) else value)
        copy_children(top, root)
    else:
        copy_children(soup, root)
    return root
