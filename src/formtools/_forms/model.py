"""Stage 2 — form owner & controls: the parsed tree → immutable models of forms and controls.

Everything later stages need from the tree is computed here, once, in one walk: each listed
element's form owner (#association-of-controls-and-forms, with the parser-recorded pointer owners),
whether it is disabled (#concept-fe-disabled), its labels' text, its options and the fieldsets
around it. Synthesis and execution then work on plain data, whatever parser built the tree.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

from lxml import etree

from formtools._spec.constants import (
    ASCII_WHITESPACE,
    BUTTON_TYPES,
    CALL_EVENT_HANDLERS,
    CHROMIUM_WHITESPACE,
    COMPOSED_EVENT_HANDLERS,
    CONTROL_EVENT_HANDLERS,
    FORM_EVENT_HANDLERS,
    INPUT_TYPES,
    LABELABLE,
    LISTED,
    READONLY_APPLIES,
)
from formtools._spec.unicode_classes import first_strong_direction
from formtools._spec.microsyntax import (
    ASCII_WHITESPACE_RUNS,
    ascii_lowercase,
    collapse_whitespace,
    non_negative_integer,
)
from formtools._parse.document import Document

__all__ = [
    "Attributes", "CallHandler", "Container", "Option", "Control", "Form", "display_size", "forms_of",
    "placeholder_label_option",
]  # fmt: skip

Attributes = Mapping[str, str]
Restore = Callable[[str], str]


def _unchanged(text: str) -> str:
    """The ``restore`` of a document whose strings needed no escaping (see Document.restore)."""
    return text


def _frozen(element: etree._Element, document: Document, restore: Restore) -> Attributes:
    """The element's attributes: from the tree, or all of them from the document when they were
    too many for the tree (``Document.many_attributes``)."""
    attributes = document.many_attributes.get(element)
    if attributes is None:
        attributes = element.attrib
    if restore is _unchanged:
        return MappingProxyType(dict(attributes.items()))
    return MappingProxyType({name: restore(value) for name, value in attributes.items()})


@dataclass(frozen=True)
class Container:
    """A ``<form>`` or ``<fieldset>`` around a control; ``index`` identifies it in the document."""

    index: int
    tag: str
    attributes: Attributes

    def __hash__(self) -> int:
        return hash((self.index, self.tag))  # (see Control.__hash__)


@dataclass(frozen=True)
class Option:
    """An ``<option>`` in a select's list of options (#concept-select-option-list)."""

    value: str
    text: str
    label: str | None
    disabled: bool
    selected: bool
    in_optgroup: bool = False
    #: its position among the select's list items (its options and optgroups, in tree order),
    #: which Chromium 156's ``executeTool`` selects a multi-select's options by (see
    #: ``_execute.fill``); equal to its position among the options when no optgroup comes first
    list_item: int = 0


@dataclass(frozen=True)
class Control:
    """A listed element owned by a form, with what the tree said about it."""

    index: int
    tag: str
    type: str
    attributes: Attributes
    disabled: bool
    labels: tuple[str, ...]
    containers: tuple[Container, ...]
    options: tuple[Option, ...] = ()
    text: str = ""
    line: int | None = None
    in_datalist: bool = False
    #: dirname's direction from the nearest ancestor with a defined dir (``ltr``/``rtl`` as
    #: written, auto resolved from its text), for controls with a dirname; None without one
    inherited_dir: str | None = None
    suggestions: tuple[str, ...] = ()  # the values of its list= datalist's enabled options
    #: a button that is its select's button (the first element child of a select whose
    #: display size is 1): Chromium 156 never takes it for a submit button, whatever its type
    #: (measured live: tests/test_browser_select.py)
    select_button: bool = False
    #: a ``hidden`` attribute on it or an HTML ancestor (either state: display: none, or
    #: until-found, whose content-visibility hides the contents, a text field's editor among
    #: them, and which find-in-page reveals only for text, which a control has none of; not
    #: until-found on a checkbox or radio button itself, whose box shows): the person at the
    #: keyboard cannot see it, and Chromium 156's interactive validation does not reveal it ("An
    #: invalid form control is not focusable"), so they can never complete it (measured live:
    #: tests/test_lint_truth.py). What scripts or style sheets hide is unknown here
    unseen: bool = False

    def __hash__(self) -> int:
        """Frozen, so hashable; its attributes are a read-only mapping, which has no hash, so
        the generated hash raised TypeError. What identifies it in its document is enough:
        equal controls hash alike."""
        return hash((self.index, self.tag, self.type))

    @property
    def name(self) -> str | None:
        return self.attributes.get("name")

    @property
    def key(self) -> str:
        """The parameter name Chromium uses: the name attribute with its ends trimmed."""
        return (self.attributes.get("name") or "").strip(CHROMIUM_WHITESPACE)

    def has(self, attribute: str) -> bool:
        return attribute in self.attributes

    @property
    def readonly(self) -> bool:
        """``readonly`` is present and applies to this kind of control."""
        return "readonly" in self.attributes and (
            self.tag == "textarea" or (self.tag == "input" and self.type in READONLY_APPLIES)
        )

    @property
    def is_submit_button(self) -> bool:
        if self.tag == "input":
            return self.type in ("submit", "image")
        return self.tag == "button" and self.type == "submit" and not self.select_button

    @property
    def is_button(self) -> bool:
        return self.tag == "button" or (
            self.tag == "input" and self.type in ("submit", "image", "reset", "button")
        )

    @property
    def button_label(self) -> str:
        """The text a person sees on a submit button: a button's content, an image's ``alt``, a
        submit input's ``value`` or the browser's default label "Submit" (else its
        ``aria-label`` or ``title``)."""
        attributes = self.attributes
        if self.tag == "button":
            label = collapse_whitespace(self.text)
        elif self.type == "image":
            label = collapse_whitespace(attributes.get("alt", ""))
        else:
            label = collapse_whitespace(attributes["value"]) if "value" in attributes else "Submit"
        return label or collapse_whitespace(attributes.get("aria-label", "") or attributes.get("title", ""))

    @property
    def describe(self) -> str:
        """How to point a person at this control in a message."""
        kind = f"<{self.tag} type={self.type}>" if self.tag == "input" else f"<{self.tag}>"
        where = f" (line {self.line})" if self.line else ""
        name = self.attributes.get("name")
        return f"{kind} name={name!r}{where}" if name is not None else f"unnamed {kind}{where}"


@dataclass(frozen=True)
class CallHandler:
    """An event handler a call of the form's tool sets off (see ``CALL_EVENT_HANDLERS``): on
    the form or one of its controls, where the event is fired, or on an element its event
    bubbles through (a ``<div>`` or ``<body>`` around the form, a ``<fieldset>`` in it around a
    control, a shadow host for ``oninput``). Only the nearest carrier of each event's path is
    named, with the number of ``further`` ones up that path: naming each on each path cost the
    depth of the page per control."""

    attribute: str  # ``onsubmit``
    element: str  # where it is written: ``the form``, a control, ``<div id='wrap'>``
    target: str  # where the event is fired: ``the form`` or a control
    further: int = 0


@dataclass(frozen=True)
class Form:
    """A ``<form>`` in the document and the listed elements it owns, in tree order."""

    index: int
    attributes: Attributes
    controls: tuple[Control, ...]
    line: int | None = None
    # What the page says about the form around it, for naming unannotated forms (_inferred):
    # its first h1–h6 inside, else the last one before it in its own section (a heading whose
    # parent is an ancestor of the form), and its aria-labelledby text.
    heading: str = ""
    labelledby: str = ""
    #: the handlers a call sets off, in the markup: the form's, then its controls' in order
    call_handlers: tuple[CallHandler, ...] = ()

    def __hash__(self) -> int:
        return hash((self.index, self.line, self.controls))  # (see Control.__hash__)

    @property
    def describe(self) -> str:
        bits = [f"form #{self.index + 1}"]
        if "toolname" in self.attributes:
            bits.append(f"toolname={self.attributes['toolname']!r}")
        elif "id" in self.attributes:
            bits.append(f"id={self.attributes['id']!r}")
        if self.line:
            bits.append(f"line {self.line}")
        return " ".join(bits[:1]) + (f" ({', '.join(bits[1:])})" if len(bits) > 1 else "")


def submission_attribute(
    form_attributes: Mapping[str, str], submitter: Control | None, attribute: str
) -> str | None:
    """The submitter's ``form<attribute>`` when it has one, else the form's ``<attribute>``."""
    if submitter is not None and submitter.is_submit_button and f"form{attribute}" in submitter.attributes:
        return submitter.attributes[f"form{attribute}"]
    return form_attributes.get(attribute)


def submission_method(form_attributes: Mapping[str, str], submitter: Control | None) -> str:
    """``get``, ``post`` or ``dialog``: what submitting with ``submitter`` does."""
    lowered = (submission_attribute(form_attributes, submitter, "method") or "").lower()
    return lowered if lowered in ("get", "post", "dialog") else "get"


# A template's contents are no part of the document (html5lib's tree holds them as children),
# and an option's value and label leave out its scripts' text, HTML's and SVG's (Chromium 156).
_NOT_TEXT = frozenset({"template"})
_NOT_OPTION_TEXT = _NOT_TEXT | {"script", "{http://www.w3.org/2000/svg}script"}


def _text(element: etree._Element, restore: Restore, leave_out: frozenset[str] = _NOT_TEXT) -> str:
    """The text of ``element``'s descendants in tree order (the DOM's textContent), without the
    text inside the ``leave_out`` elements."""
    if len(element) == 0:  # (most: an option, a button's label) its own text is all of it
        return restore(element.text or "")
    if next(element.iter(*leave_out), None) is None:
        return restore(etree.tostring(element, method="text", encoding=str, with_tail=False))
    parts: list[str] = []
    walker = etree.iterwalk(element, events=("start", "end"))
    for event, node in walker:
        if event == "end":
            if node is not element:
                parts.append(node.tail or "")
        elif node is not element and node.tag in leave_out:
            walker.skip_subtree()  # (its end event still comes, with its tail)
        elif isinstance(node.tag, str):  # (a comment's text is none of the element's)
            parts.append(node.text or "")
    return restore("".join(parts))


def _input_type(element: etree._Element) -> str:
    raw = ascii_lowercase(element.get("type") or "")
    return raw if raw in INPUT_TYPES else "text"




def _control_type(element: etree._Element) -> str:
    tag = element.tag
    if tag == "input":
        return _input_type(element)
    if tag == "button":
        kind = ascii_lowercase(element.get("type") or "")
        if kind in BUTTON_TYPES:
            return kind
        # The Auto state submits unless the button has a command or commandfor attribute
        # (#attr-button-type-auto-state; Chromium 156 reads the attribute's presence, any value)
        invoker = element.get("commandfor") is not None or element.get("command") is not None
        return "button" if invoker else "submit"
    if tag == "select":
        return "select-multiple" if element.get("multiple") is not None else "select-one"
    return str(tag)


def _label_raw_text(label: etree._Element, known: dict[Any, str]) -> str:
    """A label's text without the text of labelable elements inside it, as the tree holds it
    (not restored, ends kept). ``known``: the same for labels inside it, taken as they are, so
    that nested labels cost their elements once, not once per label around them."""
    parts: list[str] = [label.text or ""]
    _label_parts(label, known, parts)
    return "".join(parts)


def _label_parts(node: etree._Element, known: dict[Any, str], parts: list[str]) -> None:
    """:func:`_label_raw_text`'s walk, appending to ``parts``. Not a closure: one that calls
    itself is a reference cycle (it holds its own cell), which held ``known``'s elements, and
    so the page's whole tree, until the garbage collector found it, for every label."""
    for child in node:
        if isinstance(child.tag, str):
            if child.tag not in LABELABLE and child.tag not in _NOT_TEXT:
                inner = known.get(child) if child.tag == "label" else None
                if inner is not None:
                    parts.append(inner)
                else:
                    parts.append(child.text or "")
                    _label_parts(child, known, parts)
        parts.append(child.tail or "")


def _option_value(option: etree._Element, restore: Restore) -> str:
    """An option's value: its ``value`` attribute, else its text without its scripts',
    whitespace collapsed."""
    value = option.get("value")
    return restore(value) if value is not None else collapse_whitespace(_text(option, restore, _NOT_OPTION_TEXT))


#: the elements whose subtrees hold none of a select's options or list items (an SVG or
#: MathML element's name is in Clark notation, no option's)
_OUTSIDE_OPTIONS = frozenset({"datalist", "select", "template"})


def _options(select: etree._Element, restore: Restore) -> tuple[Option, ...]:
    """The select's list of options, and each one's place among its list items, as Chromium 156
    has them now that a select's contents are parsed "in body" (the customizable select): its
    option descendants, in tree order, but none inside an option, a datalist, a select, a
    template or an optgroup that is itself in an optgroup; the list items are those options,
    the optgroups not in an optgroup and the hrs, outside the same subtrees. An option in an
    optgroup (at any depth) takes its disabled state, and is no placeholder. Measured live
    (tests/test_browser_select.py); the children-only definition missed an option in a div,
    and an ``<hr>``, which executeTool counts among the items a multi-select's are chosen by."""
    found: list[Option] = []
    items = 0  # list items so far: options, optgroups and hrs

    # (a walk with a stack of its own: a select's contents nest as deep as the tree does)
    pending: list[tuple[Iterator[etree._Element], etree._Element | None]] = [(iter(select), None)]
    while pending:
        children, group = pending[-1]
        child = next(children, None)
        if child is None:
            pending.pop()
            continue
        tag = child.tag
        if tag == "option":
            found.append(
                Option(
                    value=_option_value(child, restore),
                    text=_text(child, restore),
                    label=None if child.get("label") is None else restore(child.get("label")),
                    disabled=child.get("disabled") is not None
                    or (group is not None and group.get("disabled") is not None),
                    selected=child.get("selected") is not None,
                    in_optgroup=group is not None,
                    list_item=items,
                )
            )
            items += 1
        elif tag == "hr":
            items += 1
        elif tag == "optgroup":
            if group is None:
                items += 1
                pending.append((iter(child), child))
        elif isinstance(tag, str) and tag not in _OUTSIDE_OPTIONS:
            pending.append((iter(child), group))
    return tuple(found)


def _defined_direction(value: str | None) -> bool:
    return value is not None and ascii_lowercase(value) in ("ltr", "rtl", "auto")


# what the auto direction of an element's text skips: these elements' contents (a template's
# are not in the document) and any element with a dir of its own (HTML, "auto
# directionality"; measured against Chromium 156 by tests/test_browser_heldout_calls.py)
_OWN_DIRECTION_TEXT = frozenset({"bdi", "script", "style", "textarea", "template"})


def _text_direction(element: etree._Element, restore: Restore) -> str:
    """The auto direction of ``element``: its first strong character in tree order, ltr when
    none (an input's value is no text of its ancestors)."""
    walker = etree.iterwalk(element, events=("start", "end"))
    for event, node in walker:
        if node is element:
            found = first_strong_direction(restore(node.text or "")) if event == "start" else None
        elif event == "end":
            found = first_strong_direction(restore(node.tail or ""))
        elif (
            not isinstance(node.tag, str)
            or node.tag in _OWN_DIRECTION_TEXT
            or (_defined_direction(node.get("dir")) and not node.tag.startswith("{"))
        ):
            walker.skip_subtree()  # (its end event still comes, with its tail)
            found = None
        else:
            found = first_strong_direction(restore(node.text or ""))
        if found:
            return found
    return "ltr"


def _inherited_direction(
    carrier: tuple[etree._Element, str], resolved: dict[Any, str], restore: Restore
) -> str:
    """dirname's direction from the nearest ancestor with a defined dir: as written for ltr
    and rtl, from its text for auto (computed once per carrier)."""
    element, value = carrier
    if ascii_lowercase(value) != "auto":
        return value
    if element not in resolved:
        resolved[element] = _text_direction(element, restore)
    return resolved[element]


# (attribute, its nearest carrier on an event's path, how many more carry it further up)
_Reach = tuple[str, etree._Element, int]
_HANDLER_NAMES = frozenset(CALL_EVENT_HANDLERS)


class _OpenHandlers:
    """The open elements (the walk's ancestors) that carry each of ``CALL_EVENT_HANDLERS``, a
    stack per attribute, so that what reaches an element is known where the walk meets it: the
    nearest carrier and the count of the rest, decided once per element, top-down, where
    walking up from each control cost the depth of the page per control. ``beyond``: for a
    shadow tree, the reach of the composed handlers past its root (its host's path), which
    the others stop at."""

    def __init__(self, beyond: Mapping[str, _Reach], attributes: Mapping[Any, Attributes]) -> None:
        self._open: dict[str, list[etree._Element]] = {name: [] for name in CALL_EVENT_HANDLERS}
        self._entered: list[tuple[etree._Element, list[str]]] = []  # the open carriers, each's handlers
        self._beyond = beyond
        self._attributes = attributes  # the elements whose attributes the tree could not hold

    def enter(self, element: etree._Element) -> None:
        """``element``, which the walk enters, is open: if it carries handlers, the nearest now.
        (Most elements carry none: their attribute names are looked at, no value.)"""
        attributes = self._attributes.get(element) if self._attributes else None
        names = _HANDLER_NAMES.intersection(element.keys() if attributes is None else attributes)
        if names:
            get = element.get if attributes is None else attributes.get
            carried = [name for name in names if (get(name) or "").strip()]  # (an empty one does nothing)
            for name in carried:
                self._open[name].append(element)
            if carried:
                self._entered.append((element, carried))

    def leave(self, element: etree._Element) -> None:
        if self._entered and self._entered[-1][0] is element:
            for name in self._entered.pop()[1]:
                self._open[name].pop()

    def reach(self, names: tuple[str, ...] | frozenset[str]) -> tuple[_Reach, ...]:
        """What reaches an element the walk is in (itself included) for each of ``names``."""
        found = []
        for name in names:
            stack, past = self._open[name], self._beyond.get(name)
            behind = 0 if past is None else past[2] + 1
            if stack:
                found.append((name, stack[-1], len(stack) - 1 + behind))
            elif past is not None:
                found.append(past)
        return tuple(found)


@dataclass
class _Listed:
    element: etree._Element
    index: int
    containers: tuple[Container, ...]
    disabled_by_fieldset: bool
    in_datalist: bool
    inherited_dir: str | None
    unseen: bool
    handlers: tuple[_Reach, ...]


def _shows_its_box(element: etree._Element) -> bool:
    """``hidden=until-found`` on a checkbox or radio button itself: content-visibility: hidden
    hides an element's contents, and these have none, so the person sees the box, clicks it,
    and interactive validation focuses it (Chromium 156; a text field's contents are its
    editor, which it does hide)."""
    return (
        element.tag == "input"
        and ascii_lowercase(element.get("hidden") or "") == "until-found"
        and ascii_lowercase(element.get("type") or "") in ("checkbox", "radio")
    )


def _walk(root: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """Start/end events in tree order below ``root``, leaving out template contents (which are
    not in the tree: an inert fragment, or a shadow tree scanned as a scope of its own)."""
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        if not isinstance(element.tag, str) or element is root:
            continue
        yield event, element
        if event == "start" and element.tag == "template":
            walker.skip_subtree()  # (its own end event still comes)


# DOM's "valid shadow host name" (besides custom element names).
_SHADOW_HOSTS = frozenset(
    {"article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5",
     "h6", "header", "main", "nav", "p", "section", "span"}
)  # fmt: skip


def _attaches_shadow_root(template: etree._Element, hosts: set[Any]) -> bool:
    """A ``<template shadowrootmode>`` that the parser turns into its parent's shadow root."""
    if ascii_lowercase(template.get("shadowrootmode") or "") not in ("open", "closed"):
        return False
    host = template.getparent()
    if host is None or host in hosts or not isinstance(host.tag, str):
        return False
    name = host.tag
    if name not in _SHADOW_HOSTS and not ("-" in name and "a" <= name[0] <= "z"):
        return False
    hosts.add(host)
    return True


# (position, form element, its controls, heading text, aria-labelledby text, call handlers)
_Found = tuple[int, etree._Element, tuple[Control, ...], str, str, tuple[CallHandler, ...]]
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def forms_of(document: Document) -> tuple[Form, ...]:
    """Every connected form — in the document and in declarative shadow roots — with the listed
    elements it owns, in tree order."""
    found: list[_Found] = []
    _scan_scope(document.forms_root, document, itertools.count(1), set(), found, {})
    found.sort(key=lambda entry: entry[0])
    restore = _restore_of(document)
    return tuple(
        Form(
            index=i,
            attributes=_frozen(form, document, restore),
            controls=controls,
            line=document.lines.get(form, form.sourceline),
            heading=heading,
            labelledby=labelledby,
            call_handlers=call_handlers,
        )
        for i, (_, form, controls, heading, labelledby, call_handlers) in enumerate(found)
    )


def _scan_scope(
    scope: etree._Element,
    document: Document,
    counter: Iterator[int],
    shadow_hosts: set[Any],
    found: list[_Found],
    composed: Mapping[str, _Reach],
    unseen: bool = False,
) -> None:
    """One tree (the document, or a shadow root): IDs, labels and owners never cross trees.
    ``composed``: the composed handlers reaching the shadow host (see _OpenHandlers);
    ``unseen``: the shadow host, or an element around it, has ``hidden``."""
    restore = _restore_of(document)
    first_with_id: dict[str, etree._Element] = {}
    labels: list[etree._Element] = []
    listed: list[_Listed] = []
    forms: list[tuple[int, etree._Element]] = []
    containers: list[Container] = []
    datalists = 0  # open <datalist> elements: controls inside one are barred from validation
    # (element, dir attribute as written) of the open elements whose dir is ltr, rtl or auto,
    # the document's <html> first: dirname's direction is the nearest one's (Chromium skips
    # an invalid dir and sends ltr or rtl as the page spelled it)
    directions: list[tuple[etree._Element, str]] = []
    if scope.tag == "html" and _defined_direction(scope.get("dir")):
        directions.append((scope, scope.get("dir") or ""))
    # the open HTML elements with a hidden attribute (see Control.unseen; SVG's and MathML's
    # hidden is no HTML attribute, and the UA style sheet's [hidden] matches HTML elements only)
    hiding: list[etree._Element] = [scope] if unseen or scope.tag == "html" and scope.get("hidden") is not None else []
    resolved: dict[Any, str] = {}  # dir=auto carriers → the direction their text gives
    # fieldsets that disable their descendants: (fieldset element, its first legend or None)
    disabling: list[tuple[etree._Element, etree._Element | None]] = []
    # the open elements that are children of a disabling fieldset, other than its first legend:
    # an element is disabled by a fieldset when one of them is it or holds it (one check per
    # element, where walking up to each disabling fieldset cost the depth times their number)
    disabled_below: list[etree._Element] = []
    # open labels without a for= whose first labelable descendant has not come yet, and what
    # each found: the labelled control of every such label, in the same walk
    seeking: list[etree._Element] = []
    labelled: dict[Any, etree._Element] = {}
    # form position → its first heading inside, else the last heading of its section before it
    headings: dict[int, etree._Element | None] = {}
    inner_heading: set[int] = set()
    # the open elements with a heading child so far, each with its last one: the section heading
    # of a form is the top one's (a deeper open element's heading came after those of the
    # elements around it), found at once where looking back through every heading seen cost
    # their number per form
    section_headings: list[tuple[etree._Element, etree._Element]] = []
    handlers = _OpenHandlers(composed, document.many_attributes)
    if scope.tag == "html":  # (the root element is an ancestor too; a shadow root has no attributes)
        handlers.enter(scope)
    reached: dict[Any, tuple[_Reach, ...]] = {}  # form element → what reaches it

    for event, element in _walk(scope):
        tag = element.tag
        if event == "end":
            if tag == "datalist":
                datalists -= 1
            if directions and directions[-1][0] is element:
                directions.pop()
            if hiding and hiding[-1] is element:
                hiding.pop()
            if tag in ("form", "fieldset"):
                containers.pop()
                if tag == "fieldset" and disabling and disabling[-1][0] is element:
                    disabling.pop()
            if disabled_below and disabled_below[-1] is element:
                disabled_below.pop()
            if seeking and seeking[-1] is element:
                seeking.pop()  # a label without a labelable descendant
            if section_headings and section_headings[-1][0] is element:
                section_headings.pop()
            handlers.leave(element)
            continue
        position = next(counter)
        if tag != "template":  # (a shadow root's template is none of its contents' ancestors)
            handlers.enter(element)
        if disabling and disabling[-1][1] is not element and disabling[-1][0] is element.getparent():
            disabled_below.append(element)
        ident = element.get("id")
        if ident and ident not in first_with_id:  # an empty id is no ID (DOM: "unset element's ID")
            first_with_id[ident] = element
        if seeking and _labelable(element):
            for label in seeking:
                labelled[label] = element
            seeking.clear()
        if tag == "label":
            labels.append(element)
            if element.get("for") is None:
                seeking.append(element)
        elif tag == "form":
            forms.append((position, element))
            reached[element] = handlers.reach(FORM_EVENT_HANDLERS)
            # the last heading before it whose parent encloses it: <h2> then <form> in one
            # section, not the heading of a section that closed before the form
            headings[position] = section_headings[-1][1] if section_headings else None
        elif tag in _HEADINGS:
            parent = element.getparent()
            if section_headings and section_headings[-1][0] is parent:
                section_headings[-1] = (parent, element)
            else:
                section_headings.append((parent, element))
            form = next((c.index for c in reversed(containers) if c.tag == "form"), None)
            if form is not None and form not in inner_heading:
                inner_heading.add(form)
                headings[form] = element
        if tag == "template" and _attaches_shadow_root(element, shadow_hosts):
            # (its host is the template's parent: the template's own hidden hides nothing)
            inward = {reach[0]: reach for reach in handlers.reach(COMPOSED_EVENT_HANDLERS)}
            _scan_scope(element, document, counter, shadow_hosts, found, inward, bool(hiding))
        elif element.get("hidden") is not None and not tag.startswith("{") and not _shows_its_box(element):
            hiding.append(element)
        if tag in LISTED:
            listed.append(
                _Listed(
                    element,
                    position,
                    tuple(containers),
                    bool(disabled_below),
                    datalists > 0,
                    _inherited_direction(directions[-1], resolved, restore)
                    if directions and element.get("dirname") is not None
                    else None,
                    bool(hiding),
                    handlers.reach(CONTROL_EVENT_HANDLERS) if _fillable(element) else (),
                )
            )
        if tag == "datalist":
            datalists += 1
        direction = element.get("dir")
        if _defined_direction(direction) and not tag.startswith("{"):  # (SVG's and MathML's: none)
            directions.append((element, direction or ""))
        if tag in ("form", "fieldset"):
            containers.append(Container(position, tag, _frozen(element, document, restore)))
            if tag == "fieldset" and element.get("disabled") is not None:
                legend = next((c for c in element if c.tag == "legend"), None)
                disabling.append((element, legend))

    labels_of = _labels_by_control(labels, labelled, first_with_id, restore)
    owned: dict[Any, list[Control]] = {form: [] for _, form in forms}
    # each form's call handlers, the form's own first, each carrier named once
    called: dict[Any, dict[tuple[str, Any], CallHandler]] = {
        form: {(name, carrier): CallHandler(name, _carrier(carrier, form, restore), "the form", further)
               for name, carrier, further in reached[form]}
        for _, form in forms
    }  # fmt: skip
    suggested: dict[Any, tuple[str, ...]] = {}
    # Blink lists a form's elements from the whole document once ``form=`` named it (its
    # HTMLFormElement::Associate), else those the parser left outside it are unlisted
    named = {first_with_id.get(item.element.get("form", "")) for item in listed} if document.parser_unlisted else set()
    for item in listed:
        owner = _form_owner(item.element, scope, document, first_with_id)
        if owner is None or owner not in owned:
            continue
        if item.element in document.parser_unlisted and owner not in named:
            continue
        suggestions = _suggestions(item.element, first_with_id, restore, suggested)
        control = _control(item, labels_of.get(item.element, ()), suggestions, document, restore)
        owned[owner].append(control)
        for name, carrier, further in item.handlers:
            where = control.describe if carrier is item.element else _carrier(carrier, owner, restore)
            called[owner].setdefault((name, carrier), CallHandler(name, where, control.describe, further))
    for position, form in forms:
        heading = headings[position]
        found.append(
            (
                position,
                form,
                tuple(owned[form]),
                "" if heading is None else collapse_whitespace(_text(heading, restore)),
                _labelledby(form, first_with_id, restore),
                tuple(called[form].values()),
            )
        )


def _fillable(element: etree._Element) -> bool:
    """Whether a call can fill the listed element, and so fire input and change at it (not a
    button, fieldset, object or output)."""
    if element.tag == "input":
        return _input_type(element) not in ("submit", "image", "reset", "button")
    return element.tag in ("select", "textarea")


def _carrier(element: etree._Element, form: etree._Element, restore: Restore) -> str:
    """How a message names an element a handler is on, other than the control the event is
    fired at: ``the form``, else its tag, with its id if it has one (where it is in the
    source is known only for forms and controls)."""
    if element is form:
        return "the form"
    tag = etree.QName(element).localname
    ident = element.get("id")
    return f"<{tag} id={restore(ident)!r}>" if ident else f"<{tag}>"


def _restore_of(document: Document) -> Restore:
    return document.restore if document.escaped else _unchanged


def _labelledby(
    form: etree._Element, first_with_id: dict[str, etree._Element], restore: Restore
) -> str:
    """The text of the elements ``aria-labelledby`` names, in its order (#aria-labelledby)."""
    ids = ASCII_WHITESPACE_RUNS.split((form.get("aria-labelledby") or "").strip(ASCII_WHITESPACE))
    texts = (_text(first_with_id[i], restore) for i in ids if i in first_with_id)
    return collapse_whitespace(" ".join(texts))


def _form_owner(
    element: etree._Element,
    scope: etree._Element,
    document: Document,
    first_with_id: dict[str, etree._Element],
) -> etree._Element | None:
    """#reset-the-form-owner, with the parser's pointer association where it recorded one."""
    form_id = element.get("form")
    if form_id is not None:
        target = first_with_id.get(form_id)
        return target if target is not None and target.tag == "form" else None
    recorded = document.parser_owners.get(element)
    if recorded is not None:
        return recorded
    node = element.getparent()
    while node is not None and node is not scope:
        if node.tag == "form":
            return node
        node = node.getparent()
    return None


def _labels_by_control(
    labels: list[etree._Element],
    labelled: dict[Any, etree._Element],
    first_with_id: dict[str, etree._Element],
    restore: Restore,
) -> dict[Any, tuple[str, ...]]:
    """#labeled-control for every label, grouped by control, labels in tree order.
    ``labelled``: each label without ``for=`` → its first labelable descendant, if any."""
    controls: list[tuple[etree._Element, Any]] = []
    for label in labels:
        target_id = label.get("for")
        control = first_with_id.get(target_id) if target_id is not None else labelled.get(label)
        if control is not None and _labelable(control):
            controls.append((label, control))
    # innermost labels first, so that a label's text reuses the text of the labels inside it
    texts: dict[Any, str] = {}
    for label, _control in reversed(controls):
        if label not in texts:
            texts[label] = _label_raw_text(label, texts)
    found: dict[Any, list[str]] = {}
    for label, control in controls:
        found.setdefault(control, []).append(restore(texts[label]).strip(CHROMIUM_WHITESPACE))
    return {control: tuple(texts) for control, texts in found.items()}


def _labelable(element: etree._Element) -> bool:
    if element.tag == "input":
        return _input_type(element) != "hidden"
    return element.tag in LABELABLE


# #concept-fe-disabled applies to these; a fieldset's own `disabled` disables its descendants,
# not the fieldset as a listed element.
_DISABLEABLE = frozenset({"button", "input", "select", "textarea"})


def _outside_templates(root: etree._Element, tag: str) -> Iterator[etree._Element]:
    """``root``'s descendants named ``tag``, leaving out template contents (not in the
    document: a review found a datalist's template and shadow-root options suggested)."""
    walker = etree.iterwalk(root, events=("start",))
    for _, element in walker:
        if element.tag == "template":
            walker.skip_subtree()
        elif element.tag == tag:
            yield element


def _suggestions(
    element: etree._Element,
    first_with_id: dict[str, etree._Element],
    restore: Restore,
    suggested: dict[Any, tuple[str, ...]],
) -> tuple[str, ...]:
    """#concept-input-list: the first element with the list= id, if it is a datalist; its
    option descendants that are not disabled, by value (else collapsed text). Each datalist's
    are read once (``suggested``): read per input, n inputs sharing a datalist of n options
    cost n² (2,000 took 2.4 s under the ``chromium`` profile, which lists none of them)."""
    ident = element.get("list") if element.tag == "input" else None
    datalist = first_with_id.get(ident) if ident is not None else None
    if datalist is None or datalist.tag != "datalist":
        return ()
    if datalist not in suggested:
        suggested[datalist] = tuple(
            _option_value(option, restore)
            for option in _outside_templates(datalist, "option")
            if option.get("disabled") is None
        )
    return suggested[datalist]


def _control(
    item: _Listed,
    labels: tuple[str, ...],
    suggestions: tuple[str, ...],
    document: Document,
    restore: Restore,
) -> Control:
    element = item.element
    tag = element.tag
    disabled = tag in _DISABLEABLE and (
        element.get("disabled") is not None or item.disabled_by_fieldset
    )
    return Control(
        index=item.index,
        tag=tag,
        type=_control_type(element),
        attributes=_frozen(element, document, restore),
        disabled=disabled,
        labels=labels,
        containers=item.containers,
        options=_options(element, restore) if tag == "select" else (),
        text=_text(element, restore) if tag in ("textarea", "button", "output") else "",
        line=document.lines.get(element, element.sourceline),
        in_datalist=item.in_datalist,
        inherited_dir=item.inherited_dir,
        suggestions=suggestions,
        select_button=tag == "button" and _is_select_button(element),
        unseen=item.unseen,
    )


def display_size(attributes: Mapping[str, str]) -> int:
    """A select's display size (#concept-select-size): its ``size`` read as Chromium reads a
    non-negative integer, when above 0, else 4 with ``multiple`` and 1 without. A size of 1
    makes it a drop-down: its first enabled option is selected by default, and a required one
    has a placeholder label option."""
    return non_negative_integer(attributes.get("size")) or (4 if "multiple" in attributes else 1)


def placeholder_label_option(select: Control) -> Option | None:
    """The select's placeholder label option (#placeholder-label-option), which is missing a
    value when it is the only one selected, as Chromium 156 finds it: a required drop-down's
    (no ``multiple``, display size 1) option with an empty value that is the select's first
    *list item* (``HTMLSelectElement::IsPlaceholderLabelOption``: ``ListIndex() == 0``). The
    HTML Standard asks for the first option whose parent is the select; Chromium counts every
    list item before it, so an ``<hr>`` or an empty optgroup first makes the empty option an
    ordinary choice, and an option in a ``<div>`` can be the placeholder (measured,
    tests/test_html_profile_browser.py, ``test_placeholder_label_options_are_chromiums``)."""
    if select.type != "select-one" or "required" not in select.attributes or display_size(select.attributes) != 1:
        return None
    first = select.options[0] if select.options else None
    return first if first is not None and first.list_item == 0 and first.value == "" else None


def _is_select_button(button: etree._Element) -> bool:
    """Whether ``button`` is the first element child of a select whose display size is 1."""
    select = button.getparent()
    if select is None or select.tag != "select":
        return False
    first = next((child for child in select if isinstance(child.tag, str)), None)
    return first is button and display_size(select.attrib) == 1
