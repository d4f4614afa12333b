"""The fast exact path: lexbor builds the tree, and formtools checks it answers as html5lib would.

html5lib (the exact path, :func:`formtools._parse.exact.parse_exact`) runs at about 1 MB/s; lexbor (through
selectolax) parses the same page a hundred times faster. Both follow the HTML Standard's tree
construction, but lexbor tells neither where a tag was in the source (diagnostics carry line
numbers) nor what the form element pointer did (it gives a form controls it does not contain:
``<table><form><tr><td><input>``, ``<div><form></div><input>``, an unclosed form …). This module
gets both from one lexbor parse, and copies from its tree a skeleton holding exactly what
:func:`._forms.forms_of` reads, so forms, tools and diagnostics come out byte-identical.

1. **Positions by marking.** Before parsing, every ``<form`` and listed-element start tag (from
   the first ``<form`` on) gets ``/\\x01=N`` inserted after its name, ``N`` being its byte offset
   (``<template`` gets ``\\x03``). In a real tag that reads as an
   attribute (``/`` ends a tag name), so each form and control lexbor builds says where its tag
   was: creation order and html5lib's line number. A tag-like string in a script, comment or
   attribute value just gets those characters, which the skeleton strips again: the insertion
   holds no quote, whitespace or ``>``, so it changes no tokenization, and U+0001 to U+0003
   cannot come from the page (pages holding them raw go to html5lib, and so do pages making one
   with a character reference where a string read holds a mark: ``_makes_marks``).
2. **The form pointer.** The pointer is set by each ``<form>`` tag that made an element and
   cleared by the first real ``</form>`` after it that reaches "in body" (a template keeps it;
   a select no longer does: its contents are parsed "in body"). Whether a ``</form`` is a real end tag is decided by tokenizing exactly,
   in Python, only the stretch since the last marked tag before it, usually a few bytes. A
   control made while the pointer is set belongs to that form, wherever the tree put it, unless
   the adoption agency may have moved it since (then html5lib decides: see ``_LAST_ADOPTION``).
3. **The skeleton.** Every form's subtree; every control the pointer or ``form=`` gives a form
   outside it; the labels, datalists, headings and ``aria-labelledby`` targets those refer to; the
   first element with each id looked up; and the ancestors forms_of looks at (fieldsets, their
   first legends, datalists, ``dir`` and ``hidden`` carriers, the elements with a handler a call
   sets off, section headings' parents) are copied, in document
   order, into a small lxml tree, which ``forms_of`` scans. Text is copied only where it is read,
   and elements forms_of ignores are left out.
4. **Where the parsers part.** html5lib 1.1 predates ``<search>`` and ``<dialog>``, and still
   knows ``<isindex>``; templates and the customizable ``<select>`` parser, which it predates
   too, the exact path patches in as Chromium 156 has them (which departs from the standard, and
   so from lexbor, in a template's contents: ``</form>`` there is "any other end tag"). The skeleton checks that each select holds only
   what it models (options, optgroups, separators) and that each template's contents do nothing
   the two parsers read differently. Where
   that fails, and for what this module does not model (a raw NUL or form feed, declarative
   shadow roots, MathML and SVG around what it copies, elements in options),
   :func:`fast_document` returns None and the caller parses with html5lib.

The resulting :class:`~._parse.Document` is like any other; its ``root`` (the whole tree) is
parsed with html5lib only if somebody asks for it.
"""

from __future__ import annotations

import bisect
import re
import warnings
from collections.abc import Callable, Iterator
from types import MappingProxyType

from html5lib._ihatexml import InfosetFilter
from html5lib.constants import DataLossWarning
from lxml import etree
from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from formtools._parse.scan import (
    _CANDIDATE,
    _END_SELECT,
    _END_TAG,
    _FOREIGN,
    _FORM_WORD,
    _MARKUP_START,
    _MARK,
    _MARK_TEXT,
    _MARKED,
    _MARKS,
    _RAW,
    _raw_end,
    _SELECT_PART_TAG,
    _SELECT_PARTS,
    _SPECIAL,
    _START_TAG,
    _TEMPLATE_MARK,
    _TEMPLATE_TAG,
    _Unsure,
    PointerScan,
    element_parent,
    lexbor_walks_too_far,
    many_attributes,
    out_of_reach,
    tree_facts,
)
from formtools._spec.constants import ASCII_WHITESPACE, CALL_EVENT_HANDLERS, LISTED
from formtools._spec.encoding import encoding_name
from formtools._spec.microsyntax import ASCII_WHITESPACE_RUNS, ascii_lowercase
from formtools._parse.document import (
    _ESCAPE,
    _INERT,
    _NEEDS_ESCAPE,
    PLAIN_NAME,
    Document,
    hides_navigables,
    navigable_name,
    is_head_policy,
    referrer_policy_from,
    resolve_base,
    xml_safe_name,
)
from formtools._parse.charset import Settled, lowered, settle_encoding

__all__ = ["fast_document"]


# The tags after which the adoption agency can run (an end tag of a formatting element, or an
# <a> or <nobr> while one is open). It moves the nodes below a misnested formatting element, and
# a moved control has its form owner reset (#reset-the-form-owner): the form around it decides,
# not the pointer. lexbor's tree does not say what moved, so a control the pointer gave a form
# outside it goes to html5lib when such a tag follows it.


def _maybe_adopted(control: LexborNode) -> bool:
    """Whether the adoption agency may have moved ``control``: what it moves ends up below a
    formatting element (the furthest block's contents go into a clone of the misnested element)
    or is the furthest block itself, which then holds that clone."""
    node = element_parent(control)
    while node is not None:
        if node.tag in _FORMATTING:
            return True
        node = element_parent(node)
    child = control.child
    while child is not None:
        if child.tag in _FORMATTING:
            return True
        child = child.next
    return False


class _NestedForm(Exception):
    """A form below a copy's root: copy it again keeping every element (see _Page._children)."""


def fast_document(
    markup: str | bytes,
    *,
    url: str | None = None,
    content_type: str | None = None,
    source: str | None = None,
) -> Document | None:
    """What :func:`~formtools.parse_html` with html5lib gives form extraction, from lexbor; None
    where the fast path cannot vouch for that."""
    try:
        if isinstance(markup, str):
            page = _Page(markup.encode("utf-8"), "UTF-8")  # lone surrogates: unsure
            return page.document(markup, url, content_type, source, False)
        settled = settle_encoding(markup, content_type)
        page = _Page(_decoded(markup, settled), encoding_name(settled.encoding.name))
        return page.document(markup, url, content_type, source, settled.guessed)
    except (_Unsure, UnicodeError, ValueError, RecursionError):
        # ValueError: lxml refuses a name html5lib's tree would hold (it coerces what this cannot)
        return None


def _decoded(markup: bytes, settled: Settled) -> bytes:
    """The page's text as UTF-8 for lexbor, decoded as html5lib decodes it in the encoding Chromium
    settles on (:mod:`.charset`), with the Encoding Standard's decoders (which
    :mod:`formtools._spec.decoding` gives html5lib; errors become U+FFFD)."""
    body = markup[settled.bom_length :]
    if settled.encoding.name == "utf-8":
        if not body.isascii():
            try:
                body.decode("utf-8")  # valid UTF-8 goes to lexbor as it is
            except UnicodeDecodeError:
                body = body.decode("utf-8", "replace").encode("utf-8")
        return body
    decoded: bytes = settled.encoding.codec_info.decode(body, "replace")[0].encode("utf-8")
    return decoded


# --- the skeleton ---------------------------------------------------------------------------

_SVG = "http://www.w3.org/2000/svg"
_HTML_POINTS = frozenset({"foreignObject", "desc", "title"})  # SVG's HTML integration points
#: what forms_of reads of an SVG element: its id and dir, and the handlers a call sets off
_FOREIGN_READ = ("id", "dir", *CALL_EVENT_HANDLERS)
#: The attributes that make forms_of look at an element around what it reads: ``dir``
#: (dirname's direction), ``hidden`` (hides the controls in it from the person, Control.unseen)
#: and the handlers a call sets off (CALL_EVENT_HANDLERS). Asked as one pass over an element's
#: attribute names: ``name in node.attrs`` is selectolax's ``__getitem__`` catching a KeyError,
#: and six such lookups (each raising, for the usual element) cost about seven times that pass
#: on every element the skeleton copy passes by.
_LOOKED_AT_ATTRIBUTES = frozenset({"dir", "hidden", *CALL_EVENT_HANDLERS})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_TABLE_PARTS = frozenset({"table", "tbody", "thead", "tfoot", "tr", "colgroup"})
# Elements a copy keeps even where their text is not read: what forms_of looks at. Others (and
# their text) are left out, their children taking their place, unless they carry an id or a dir.
_KEEP = LISTED | {"form", "label", "legend", "datalist", "option", "optgroup", "template",
                  "meter", "progress", "h1", "h2", "h3", "h4", "h5", "h6"}  # fmt: skip
# Elements whose text forms_of reads: a template in one would be read by html5lib's tree (which
# keeps template contents as children) but not by lexbor's.
_TEXT_READ = frozenset({"label", "option", "button", "output", "textarea", "datalist"}) | _HEADINGS
# What the skeleton models in a select and its optgroups. Both parsers follow the customizable
# select parser, which parses a select's contents "in body": anything else there (a button, a
# div around options, a </p> that makes a p) is left to html5lib.
_IN_SELECT = {"select": frozenset({"option", "optgroup", "hr", "script"}),
              "optgroup": frozenset({"option", "script"})}  # fmt: skip
# Tags that close an open <p> in "in body" (html5lib 1.1's lists), void elements, formatting
# elements, and what makes a template's contents too hard to follow (see _check_template_contents).
_CLOSES_P = frozenset({"address", "article", "aside", "blockquote", "center", "details", "dir",
                       "div", "dl", "fieldset", "figcaption", "figure", "footer", "header",
                       "hgroup", "main", "menu", "nav", "ol", "p", "section", "summary", "ul",
                       "pre", "listing", "form", "li", "dd", "dt", "table", "hr", "xmp",
                       "h1", "h2", "h3", "h4", "h5", "h6"})  # fmt: skip
_VOID = frozenset({"area", "br", "embed", "img", "keygen", "wbr", "param", "source", "track",
                   "input", "hr", "image", "meta", "link", "base", "basefont", "bgsound", "col",
                   "frame"})  # fmt: skip
_FORMATTING = frozenset({"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small",
                         "strike", "strong", "tt", "u"})  # fmt: skip
#: the last tag that can run the adoption agency (see the note above _maybe_adopted): the greedy
#: ``.*`` runs to the end and backs off until one matches, in C (a Python loop over every match
#: cost a page's form pointer check 8 % of parse_html)
_LAST_ADOPTION = re.compile(
    rb"(?s:.*)(</?(?:a|nobr)[\s/>]|</(?:"
    + "|".join(sorted(_FORMATTING - {"a", "nobr"})).encode()
    + rb")[\s/>])"
)
_CONTENT_BAILS = frozenset({"svg", "math", "body", "html", "head", "frameset", "plaintext",
                            "isindex", "search", "dialog"})  # fmt: skip
_BUTTON_SCOPE = frozenset({"applet", "caption", "html", "marquee", "object", "table", "td", "th",
                           "button"})  # fmt: skip
# Elements html5lib 1.1 parses otherwise than the Standard now does.
_UNMODELLED = frozenset({"isindex", "search", "dialog"})
#: What the skeleton needs in document order among each other: forms and controls (marked),
#: labels with ``for``, elements with an id, named objects (listed elements and navigables).
_QUERY = "[\\1 ], label[for], [id], object[name]"
#: What it needs of other elements, in document order among their own name, one walk of the
#: tree per name: lexbor matched every selector of one list against every element, and the ten
#: type selectors were two thirds of the query on the benchmark's form pages (about 180 M
#: instructions a pass; the nine walks cost about 65 M).
_BY_NAME = ("template", "isindex", "search", "dialog", "base", "iframe", "frame", "embed", "meta")
_KINDS = {tag: "listed" for tag in LISTED} | {tag: "unmodelled" for tag in _UNMODELLED} | {
    "form": "form", "label": "label", "template": "template", "meta": "meta", "base": "base",
    "iframe": "frame", "frame": "frame", "embed": "frame",
}
_BY_KIND = frozenset(_KINDS[name] for name in _BY_NAME)
_HEAD = frozenset({"head"})  # where a <meta> policy counts (is_head_policy)
_UNSKELETAL = _FOREIGN | _SELECT_PARTS | {"template"}  # what no element a skeleton holds is in
#: a numeric character reference to U+0001 to U+0003, the marks' characters (lowercased source)
_MARK_REFERENCE = re.compile(rb"&#(?:x0*[1-3](?![0-9a-f])|0*[1-3](?![0-9]))")
_XML_NAME = re.compile(r"[a-z_][a-z0-9_.-]*")
_INFOSET = InfosetFilter(preventDoubleDashComments=True)
_NAMES: dict[str, str] = {}


def _xml_name(name: str) -> str:
    """The name html5lib's lxml tree gives an element or attribute on the exact path: a
    :data:`~formtools._parse.document.PLAIN_NAME` as html5lib coerces it (a ``:``), any other
    rewritten by :func:`~formtools._parse.document.xml_safe_name` first, as the exact path's
    tokenizer does."""
    coerced = _NAMES.get(name)
    if coerced is None:
        if _XML_NAME.fullmatch(name):
            coerced = name
        elif PLAIN_NAME.fullmatch(name):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DataLossWarning)
                coerced = _INFOSET.coerceAttribute(name)
        else:
            coerced = xml_safe_name(name)
        if len(_NAMES) > 50_000:
            _NAMES.clear()
        _NAMES[name] = coerced
    return coerced


class _Page(PointerScan):
    """One page: its marked source, lexbor's tree, and the skeleton copied from them."""

    def __init__(self, data: bytes, encoding: str) -> None:
        low = lowered(data)  # (the prefilter's copy, when it lowered these very bytes)
        if lexbor_walks_too_far(low):
            raise _Unsure  # lexbor's walks of a deep stack would cost more than the exact path
        if many_attributes(low):
            raise _Unsure  # lexbor's cost is quadratic in a tag's attributes; the exact path's is not
        if b"\r" in data:  # html5lib's input stream normalizes newlines
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            low = data.lower()
        # A raw NUL or form feed: what becomes of a NUL depends on the insertion mode, and
        # html5lib's tree builder sees a parked form feed as text. A raw U+0001 to U+0003 would pass for a mark.
        if any(byte in data for byte in (b"\x00", b"\x0c", b"\x01", b"\x02", b"\x03")):
            raise _Unsure
        self.data, self.low, self.encoding = data, low, encoding
        # asked once, not for each dir=auto element (a search of the whole page each: 2,400
        # <div dir=auto> took 0.47 s in C, where no count of Python lines sees it)
        self.names_dirname = b"dirname" in low
        self.escaped = False
        self.makes_marks: bool | None = None  # (see _makes_marks)
        self.tree = LexborHTMLParser(
            self._marked(), scripting=True, options=LexborDocumentOptions.WO_EVENTS
        )
        self.index: dict[int, int] = {}  # element → document order (of the elements queried)
        self.positions: dict[int, int] = {}  # form or listed element → its tag's offset
        self.first_with_id: dict[str, LexborNode] = {}
        self.copied: set[int] = set()  # every element a copy holds
        self.roots: dict[int, LexborNode] = {}  # the elements copied, each with its subtree
        self.order: dict[int, float] = {}  # root → where it comes in document order
        self.copies: dict[int, etree._Element] = {}
        self.elements: dict[int, etree._Element] = {}  # copied forms and listed elements
        self.nearest_form: dict[int, int | None] = {}  # copied listed element → form around it
        self.inner_heading: set[int] = set()  # forms with a heading inside
        self.references: set[str] = set()  # ids the skeleton looks up
        self.read_ids: set[str] = set()  # ids whose element's text is read (aria-labelledby)
        self.list_ids: set[str] = set()  # ids named by list=
        self.heading_parents: set[int] = set()  # parents of the section headings copied
        self.headings_before: dict[int, LexborNode | None] = {}  # sibling → nearest heading before it
        self.headings_from: dict[int, LexborNode | None] = {}  # ancestor → what _headings_from finds
        self.above = tree_facts()

    def _marked(self) -> bytes:
        """The source with the candidate start tags marked from the first ``<form`` or
        ``<template`` on (earlier ones are under no form pointer), or from the start if ``form=``
        shows up before it."""
        data, low = self.data, self.low
        start = low.find(b"<form")
        template = _TEMPLATE_TAG.search(low, 0, start if start >= 0 else len(low))
        if template is not None:
            start = template.start()  # a template's contents are checked, from its tag
        for match in _FORM_WORD.finditer(low, 0, start if start >= 0 else len(low)):
            if low[match.start() - 1 : match.start()] in (b" ", b"\t", b"\n", b"/", b'"', b"'"):
                start = 0
                break
        if start < 0:
            return data
        parts = [data[:start]]
        last = start
        for match in _CANDIDATE.finditer(low, start):
            end = match.end()
            parts.append(data[last:end])
            parts.append(b"/%c=%d" % (3 if match.group(1) else 1, match.start()))
            last = end
        parts.append(data[last:])
        return b"".join(parts)

    # -- reading lexbor's tree ---------------------------------------------------------------

    def _getter(self, node: LexborNode) -> Callable[[str], str | None]:
        """``node``'s attributes by name, references resolved as html5lib resolves them."""
        attributes = node.attributes

        def get(name: str) -> str | None:
            if name not in attributes:
                return None
            value = attributes[name]  # None for an attribute without a value
            return "" if value is None else self._text(value)

        return get

    def document(
        self,
        markup: str | bytes,
        url: str | None,
        content_type: str | None,
        source: str | None,
        encoding_guessed: bool,
    ) -> Document:
        forms: list[LexborNode] = []
        self.marked: list[tuple[int, LexborNode]] = []
        self.labels: list[LexborNode] = []
        with_form: list[LexborNode] = []
        templates: list[LexborNode] = []
        metas: list[LexborNode] = []
        policy_metas: list[LexborNode] = []
        bases: list[LexborNode] = []
        frames: list[LexborNode] = []
        index, positions, first_with_id = self.index, self.positions, self.first_with_id
        self.repeated_ids: set[str] = set()
        previous = -1
        for node in self.tree.css(_QUERY):
            key = node.mem_id
            if key == previous:  # matched by two selectors
                continue
            previous = key
            index[key] = len(index)
            kind = _KINDS.get(node.tag or "")
            if kind in _BY_KIND:
                kind = None  # (an element with an id: its kind's list comes from its name)
            # one attribute dict for forms and controls, which read three of them
            attributes = node.attributes if kind == "listed" or kind == "form" else None
            ident = node.id if attributes is None else attributes.get("id")
            if ident:  # an empty id is no ID, as in forms_of
                if ident in first_with_id:
                    self.repeated_ids.add(ident)
                else:
                    first_with_id[ident] = node
            if attributes is not None:
                mark = attributes.get(_MARK)
                if mark is not None:
                    position = positions[key] = int(mark.rstrip("/"))
                    self.marked.append((position, node))
                if kind == "form":
                    forms.append(node)
                    if mark is None:
                        raise _Unsure  # (marking starts at the first "<form")
                elif "form" in attributes:
                    with_form.append(node)
                if node.tag == "object":  # listed, and a child navigable's element
                    frames.append(node)
            elif kind == "label":
                self.labels.append(node)
        for name in _BY_NAME:
            nodes = self.tree.tags(name)
            if not nodes:
                continue
            kind = _KINDS[name]
            if kind == "unmodelled":
                raise _Unsure
            if kind == "template":
                templates = nodes
            elif kind == "base":
                bases = nodes
            elif kind == "meta":  # a <meta name=referrer> policy (its name may be a reference)
                metas = [meta for meta in nodes if "name" in meta.attributes]
                policy_metas = [meta for meta in nodes if "http-equiv" in meta.attributes]
            else:  # iframe, frame, embed: a named one names a child navigable
                frames += (frame for frame in nodes if "name" in frame.attributes)
        known: dict[int, int] = {}
        if any(out_of_reach(n, known) for n in (*forms, *self.labels, *(n for _, n in self.marked))):
            raise _Unsure  # too deep (Blink would have moved it up) or in SVG/MathML: html5lib knows
        self.marked.sort(key=lambda entry: entry[0])
        self.mark_positions = [position for position, _ in self.marked]
        self._check_templates(templates, bool(bases))
        base_url = self._base_url(bases, url)
        base_target = self._base_target(bases)
        if any(self._inside(frame, _FOREIGN) for frame in frames):
            # lexbor's names say no namespace: an <iframe name> in SVG is SVG's, no navigable
            # (the fast path named one), unless an integration point let it out; html5lib knows
            raise _Unsure
        frame_names = frozenset(
            name
            for frame in frames
            if (name := navigable_name(frame.tag or "", self._getter(frame)))
            and not self.above.below(frame, "hides", lambda e: hides_navigables(e.tag or "", self._getter(e)))
        )
        referrer_policy = referrer_policy_from(
            (self._text(meta.attributes.get("name") or ""), self._text(meta.attributes.get("content") or ""))
            for meta in metas
            if not self._inside(meta, _INERT)  # lexbor parses noscript's contents: scripting is off
        )
        meta_policies = tuple(
            self._text(meta.attributes.get("content") or "")
            for meta in policy_metas
            if is_head_policy(
                self._text(meta.attributes.get("http-equiv") or ""),
                self._inside(meta, _HEAD),
                self._inside(meta, _INERT),
            )
        )

        for form in forms:
            labelledby = (form.attrs.get("aria-labelledby") or "").strip(ASCII_WHITESPACE)
            self.read_ids.update(ASCII_WHITESPACE_RUNS.split(labelledby) if labelledby else ())
        self.forms = sorted(forms, key=lambda node: positions[node.mem_id])
        self.form_positions = [positions[form.mem_id] for form in self.forms]
        self.pointer_ends: dict[int, int] = {}
        for form in forms:  # in document order
            self._add_root(form)
        owners = self._pointer_owners(with_form)
        for control in with_form:
            target = first_with_id.get(self._text(control.attrs.get("form") or ""))
            if target is not None and target.tag == "form":
                self._add_root(control)
        self._add_references()
        skeleton = self._assemble()
        return Document(
            forms_root=skeleton,
            url=url,
            base_url=base_url,
            base_target=base_target,
            frame_names=frame_names,
            referrer_policy=referrer_policy,
            meta_policies=meta_policies,
            encoding=self.encoding,
            encoding_guessed=encoding_guessed,
            source=source or (url or "<string>"),
            parser_owners=MappingProxyType(
                {self.elements[control]: self.elements[form] for control, form in owners.items()}
            ),
            escaped=self.escaped,
            lines=MappingProxyType(self._lines()),
            whole=lambda: _parse_exact(markup, url, content_type, source).forms_root,
        )

    def _check_templates(self, templates: list[LexborNode], bases: bool) -> None:
        """The fast path vouches for a template's contents only where they act on nothing but
        the elements opened in them (see _check_template_contents); a template in a table or
        select, a ``<base>`` in one, and declarative shadow roots (whose contents forms_of
        scans) it leaves to the exact path, which parses templates as Chromium 156 does."""
        for template in templates:
            attributes = template.attributes
            mark = attributes.get(_TEMPLATE_MARK)
            if "shadowrootmode" in attributes or mark is None:
                raise _Unsure
            parent = template.parent
            if parent is not None and parent.tag in _TABLE_PARTS | _SELECT_PARTS:
                raise _Unsure
            if bases:
                for fragment in template.template_fragments():
                    if fragment.css_first("base") is not None:
                        raise _Unsure
            self._check_template_contents(template, int(mark.rstrip("/")))

    def _check_template_contents(self, template: LexborNode, position: int) -> None:
        """Whether lexbor's tree of a template's contents is Chromium's, as far as the skeleton
        reads it: Chromium departs from the standard (which lexbor follows) there in places
        (``</form>`` is "any other end tag", ``<title>`` switches the contents to "in body"), and
        these checks, written when html5lib 1.1 parsed a template as an ordinary element, still
        leave to the exact path any tag that acts beyond the elements opened in the contents
        (which covers those departures: tests/test_fast_path.py). Tokenize the contents
        and make sure each tag only acts on elements opened in them: end tags match an open one,
        no block start tag closes an outer ``<p>``, no list item an outer one, no formatting
        element is left open (html5lib would reopen it after the template), and nothing puts
        html5lib in a mode a ``</template>`` would not end (select, foreign content)."""
        low = self.low
        match = _START_TAG.match(low, position)
        if match is None:
            raise _Unsure
        def outer(name: str) -> bool:  # an element of this name is open around the template
            return self._inside(template, frozenset({name}))

        p_in_button_scope = self.above.below(
            template, "<p> in button scope", lambda e: True if e.tag == "p" else False if e.tag in _BUTTON_SCOPE else None
        )
        stack = _OpenTags()
        at = match.end()
        while True:
            at = low.find(b"<", at)
            if at < 0:
                raise _Unsure  # the template runs to the end of the page
            following = low[at + 1 : at + 2]
            if b"a" <= following <= b"z":
                match = _START_TAG.match(low, at)
                if match is None:
                    raise _Unsure
                name, at = match.group(1).decode(), match.end()
                if name in _CONTENT_BAILS:
                    raise _Unsure
                if name in _CLOSES_P:
                    if "p" in stack:
                        stack.close("p")  # the last one
                    elif p_in_button_scope:
                        raise _Unsure  # it would close the <p> around the template
                if name in ("li", "dd", "dt"):
                    kinds = ("li",) if name == "li" else ("dd", "dt")
                    if not any(kind in stack for kind in kinds) and any(outer(kind) for kind in kinds):
                        raise _Unsure
                if name in ("a", "nobr", "button") and name not in stack and outer(name):
                    raise _Unsure
                if name == "option" and stack.current == "option":
                    stack.close("option")
                if name in _RAW:
                    at = _raw_end(low, name, at)
                elif name not in _VOID:
                    stack.open(name)
            elif following == b"/":
                second = low[at + 2 : at + 3]
                if b"a" <= second <= b"z":
                    match = _END_TAG.match(low, at)
                    if match is None:
                        raise _Unsure
                    name, at = match.group(1).decode(), match.end()
                    if name in stack:
                        stack.close(name)
                    elif name == "template":
                        if any(tag in _FORMATTING or tag == "select" for tag in stack):
                            raise _Unsure  # left open: html5lib would go on with it after
                        return
                    elif name in ("body", "html") or (
                        p_in_button_scope if name == "p" else outer(name)
                    ):
                        raise _Unsure  # it would close an element around the template
                elif second == b">":
                    at += 3
                else:
                    at = self._bogus_comment_end(at + 2)
            elif following == b"!":
                at = self._comment_end(at + 4) if low.startswith(b"<!--", at) else (
                    self._bogus_comment_end(at + 2))
            elif following == b"?":
                at = self._bogus_comment_end(at + 1)
            else:
                at += 1

    def _base_url(self, bases: list[LexborNode], url: str | None) -> str | None:
        """The first ``<base href>`` of the document, resolved (:func:`resolve_base`: an href
        that does not parse gives Chromium's invalid base URL). ``bases`` never holds one from
        a template's contents: lexbor keeps them in the template's own fragment, which the
        query does not enter, and they are inert in Chromium too (``base-in-template`` in
        ``fixtures/expected/results.json``)."""
        for base in bases:
            href = base.attributes.get("href")
            if href is not None:
                if self._inside(base, _FOREIGN):
                    raise _Unsure
                return resolve_base(self._text(href), url)
        return url

    def _base_target(self, bases: list[LexborNode]) -> str | None:
        """The first ``<base target>``; one inside SVG or MathML is no HTML ``base`` (unless an
        integration point let it out), which html5lib knows."""
        for base in bases:
            if "target" in base.attributes:
                if self._inside(base, _FOREIGN):
                    raise _Unsure
                return self._text(base.attributes["target"] or "")
        return None

    # -- the form pointer --------------------------------------------------------------------

    def _pointer_owners(self, with_form: list[LexborNode]) -> dict[int, int]:
        """Controls the parser's form pointer gave to a form other than the one around them."""
        owners: dict[int, int] = {}
        skip = {control.mem_id for control in with_form}  # form= decides, not the pointer
        last_adoption: int | None = None  # where the last tag that can run the adoption agency is
        for position, control in self.marked:
            at = bisect.bisect(self.form_positions, position) - 1
            key = control.mem_id
            if at < 0 or key in skip or control.tag == "form":
                continue
            form = self.forms[at].mem_id
            if key in self.copied and self.nearest_form.get(key) == form:
                continue  # the pointer and the tree agree
            if position < self._pointer_end(at):
                if last_adoption is None:
                    last = _LAST_ADOPTION.match(self.low)
                    last_adoption = -1 if last is None else last.start(1)
                if position < last_adoption and _maybe_adopted(control):
                    raise _Unsure  # the adoption agency may have moved it: see _LAST_ADOPTION
                self._add_root(control)
                owners[key] = form
        return owners

    # -- what forms_of reads -----------------------------------------------------------------

    def _add_root(
        self, node: LexborNode, *, stub: bool = False, read: bool = False, order: float | None = None
    ) -> None:
        """Copy ``node`` (its outermost label ancestor instead, if it has one: forms_of reads a
        label's text and first labelable descendant) with its subtree, or as a ``stub``;
        ``read``: with all its text. ``order``: where it comes in document order, if the query
        did not find it."""
        key = node.mem_id
        if order is None:
            if key not in self.index:
                raise _Unsure  # (every root is, or is lifted from, an element the query found)
            order = self.index[key]
        if not stub:
            node = self.above.outermost(node, "label", lambda e: e.tag == "label") or node
            key = node.mem_id
        if key in self.copied:
            return
        self.roots[key] = node
        self.order[key] = order  # a label lifted to holds no root before the node in it
        if stub:
            self.copies[key] = self._element(node)
            self.copied.add(key)
        else:
            self.copies[key] = self._copy(node, read)

    def _add_references(self) -> None:
        """Each form's section heading; labels pointing at copied controls; then the first
        element with each id the skeleton looks up (with its subtree where forms_of reads it)
        until no new id is needed."""
        headings = []
        for form in self.forms:
            if form.mem_id not in self.inner_heading:
                heading = self._section_heading(form)
                parent = None if heading is None else heading.parent
                if heading is not None and parent is not None and heading.mem_id not in self.copied:
                    # right before the root the form was copied in (itself, or a form, label …
                    # around it: <form><r></form> leaves the next form inside the first): no
                    # heading forms_of could prefer comes between, the walk would have found it
                    root = form
                    while root.mem_id not in self.roots and root.parent is not None:
                        root = root.parent
                    self.heading_parents.add(parent.mem_id)
                    self._add_root(heading, order=self.order[root.mem_id] - 0.5)
                    headings.append(heading)
        for label in self.labels:
            attributes = label.attributes
            if "for" in attributes:
                target = self.first_with_id.get(self._text(attributes["for"] or ""))
                if target is not None and target.mem_id in self.elements:
                    self._add_root(label)
        done: set[str] = set()
        while self.references - done:
            for ident in sorted(self.references - done):
                done.add(ident)
                target = self.first_with_id.get(ident)
                if target is None or target.mem_id in self.copied:
                    continue
                read = ident in self.read_ids
                full = read or (ident in self.list_ids and target.tag == "datalist")
                self._add_root(target, stub=not full, read=read)
        if any(heading.id in self.repeated_ids for heading in headings):
            raise _Unsure  # placed by its form, it could come before an element with its id

    def _section_heading(self, form: LexborNode) -> LexborNode | None:
        """The last heading before the form whose parent is one of the form's ancestors: the
        nearest heading among the earlier siblings of the form and of its ancestors, from the
        innermost out (a deeper one comes later in document order). A heading the form is in
        comes before the earlier siblings of its own ancestors: forms_of takes it, with its
        text (the form's own included), which the skeleton cannot copy around the form, so
        such a page goes to html5lib."""
        found = self._heading_before(form)
        return found if found is not None else self._headings_from(form.parent)

    def _headings_from(self, node: LexborNode | None) -> LexborNode | None:
        """The nearest heading among the earlier siblings of ``node`` and of its ancestors,
        remembered for every ancestor walked: forms side by side deep in a page shared their
        ancestors, which each walked up to the root (n forms in n divs cost n²)."""
        cache = self.headings_from
        walked = []
        found: LexborNode | None = None
        while node is not None and node.is_element_node:
            key = node.mem_id
            if key in cache:
                found = cache[key]
                break
            if node.tag in _HEADINGS:
                # a heading around the form is its section heading for forms_of (it starts
                # before the form, and its parent encloses it), text and all, the form's own
                # among it: not modelled here (``<h1><form>x``: the fast path found none)
                raise _Unsure
            walked.append(key)
            found = self._heading_before(node)
            if found is not None:
                break
            node = node.parent
        for key in walked:
            cache[key] = found
        return found

    def _heading_before(self, node: LexborNode) -> LexborNode | None:
        """The nearest earlier sibling that is a heading, remembered for every sibling walked:
        thousands of sibling forms would otherwise each walk all the ones before them."""
        cache = self.headings_before
        walked = []
        sibling = node.prev
        found: LexborNode | None = None
        while sibling is not None:
            key = sibling.mem_id
            if key in cache:
                found = cache[key] if sibling.tag not in _HEADINGS else sibling
                break
            if sibling.tag in _HEADINGS:
                found = sibling
                break
            walked.append(key)
            sibling = sibling.prev
        for key in walked:
            cache[key] = found  # what lies before each walked sibling, itself excluded
        return found

    def _text(self, text: str) -> str:
        """A string as html5lib's tree holds it: without the marks tag-like strings in it got,
        and with the characters lxml cannot hold parked (see _parse)."""
        if _SPECIAL.search(text):
            unmarked = _MARK_TEXT.sub("", text)
            if unmarked != text and self._makes_marks():
                # a character reference made a mark's character on this page: a mark cannot be
                # told from the page's own text (``title="/&#1;=5"`` lost it)
                raise _Unsure
            text = unmarked
            if _NEEDS_ESCAPE.search(text):
                self.escaped = True
                text = text.translate(_ESCAPE)
        return text

    def _makes_marks(self) -> bool:
        """Whether a numeric character reference on the page makes a mark's character: asked
        once a page (asked per string that held a mark, it searched the page each time)."""
        if self.makes_marks is None:
            self.makes_marks = _MARK_REFERENCE.search(self.low) is not None
        return self.makes_marks

    def _attributes(self, node: LexborNode) -> dict[str, str]:
        """An HTML element's attributes as html5lib's tree holds them (names coerced)."""
        names, special = _NAMES, _SPECIAL.search
        attributes: dict[str, str] = {}
        for name, value in node.attributes.items():
            if name not in _MARKS:
                if value is None:
                    value = ""
                elif special(value):
                    value = self._text(value)
                attributes.setdefault(names.get(name) or _xml_name(name), value)
        direction = attributes.get("dir")
        if direction is not None and ascii_lowercase(direction) == "auto" and self.names_dirname:
            raise _Unsure  # a dirname may need this element's direction, from text left out here
        return attributes

    def _element(self, node: LexborNode) -> etree._Element:
        return etree.Element(_xml_name(node.tag or ""), self._attributes(node))

    def _copy(self, root: LexborNode, read: bool) -> etree._Element:
        """``root`` and its subtree as lxml elements (``read``: with all its text)."""
        element = self._element(root)
        key = root.mem_id
        tag = root.tag
        self.copied.add(key)
        form = key if tag == "form" else None
        # a select copied on its own (one the pointer gives a form it is not in) is held to what
        # the skeleton models as one met inside a copy is: its left-out children (a <p> a
        # stray </p> made) could decide which button is its select button
        select_part = "select" if tag == "select" else None
        if select_part:
            self._check_select(key)
        try:
            self._children(root, element, "html", select_part, form, read or tag in _TEXT_READ, True)
        except _NestedForm:
            element = self._element(root)
            self._children(root, element, "html", select_part, form, read or tag in _TEXT_READ, False)
        if tag in _MARKED or tag == "label":
            self._remember(root, element, None)
        return element

    def _children(
        self,
        node: LexborNode,
        parent: etree._Element,
        namespace: str,
        select_part: str | None,
        form: int | None,
        text_read: bool,
        leave_out: bool,
    ) -> None:
        """Copy the children of ``node`` into ``parent``: elements in the namespace the tree
        builder gave them (SVG elements keep only what forms_of may read of them:
        ``_FOREIGN_READ``), and text where forms_of reads it (``text_read``). ``form``: the innermost form
        around; ``select_part``: the select or optgroup they are in. ``leave_out``: skip the
        elements forms_of does not look at (_KEEP), their children taking their place; not where
        the copy holds a form below its root, whose section heading depends on headings' real
        parents."""
        last: etree._Element | None = None
        parent_tag = node.tag
        html_children = namespace == "html" or parent_tag in _HTML_POINTS
        read_ids, roots, copied = self.read_ids, self.roots, self.copied
        for child in node.iter(include_text=text_read):
            if not child.is_element_node:
                if child.is_text_node:  # (only where text is read)
                    text = self._text(child.text_content or "")
                    if last is None:
                        parent.text = (parent.text or "") + text
                    else:
                        last.tail = (last.tail or "") + text
                continue  # comments and processing instructions hold no text forms_of reads
            key = child.mem_id
            if key in roots:
                raise _Unsure  # copied already on its own: the skeleton would hold it twice
            copied.add(key)
            tag = child.tag or ""
            if html_children:
                space = "svg" if tag == "svg" else "html"
                if tag == "math":
                    raise _Unsure
            else:
                space = namespace
            if select_part is not None and (
                space != "html" or tag not in _IN_SELECT.get(select_part, ())
            ):
                raise _Unsure  # the skeleton models options, optgroups and hrs in a select
            if space != "html":
                attributes = child.attributes
                element = etree.SubElement(
                    parent,
                    f"{{{_SVG}}}{tag}",
                    {name: self._text(attributes[name] or "") for name in _FOREIGN_READ
                     if name in attributes},
                )  # fmt: skip
                if child.first_child is not None:
                    self._children(child, element, space, None, form, text_read, leave_out)
                last = element
                continue
            if (
                leave_out
                and not text_read
                and tag not in _KEEP
                and select_part is None
                and parent_tag != "fieldset"  # a legend in it could become its first legend
                and child.id is None
                and _LOOKED_AT_ATTRIBUTES.isdisjoint(child.attrs)
            ):
                if child.first_child is not None:
                    self._children(child, parent, "html", None, form, False, True)
                continue
            if tag == "form" and leave_out:
                raise _NestedForm  # (the root, if a form, is no child)
            element = etree.SubElement(parent, _NAMES.get(tag) or _xml_name(tag), self._attributes(child))
            last = element
            if tag == "template":
                if text_read:
                    raise _Unsure  # html5lib's tree would read its contents' text
                continue
            if tag in _HEADINGS and form is not None:
                self.inner_heading.add(form)
            elif tag == "select":
                self._check_select(key)
            if child.first_child is not None:
                self._children(
                    child,
                    element,
                    "html",
                    "select" if tag == "select" else select_part and tag,
                    key if tag == "form" else form,
                    text_read or tag in _TEXT_READ or (bool(read_ids) and child.id in read_ids),
                    leave_out,
                )
            if tag in _MARKED or tag == "label":
                self._remember(child, element, form)

    def _check_select(self, key: int) -> None:
        """A select's contents in the source hold only option, optgroup and hr tags (and text
        and comments) before its end tag: any other tag there, a ``</form>`` or ``</p>``
        included, is parsed "in body" (the customizable select parser, on both paths), and
        what it makes or moves is not modelled here. A comment is a comment in both (template engines write one around each
        option: 4 of the 31 wild pages the fast path left to html5lib), skipped to its end. The
        walk goes tag by tag, each option's attributes read as the tokenizer reads them:
        searched for as text, ``<option label="<!--">`` opened a comment that hid a ``</form>``
        after it, and the fast path answered where the parsers part ways."""
        low = self.low
        position = self.positions.get(key)
        match = None if position is None else _START_TAG.match(low, position)
        if match is None:
            raise _Unsure
        at = match.end()
        while (markup := _MARKUP_START.search(low, at)) is not None:
            start = markup.start()
            if low.startswith(b"<!--", start):
                at = self._comment_end(start + 4)
                continue
            if _END_SELECT.match(low, start):
                return
            tag = _END_TAG if low.startswith(b"</", start) else _START_TAG
            part = tag.match(low, start) if _SELECT_PART_TAG.match(low, start) else None
            if part is None:
                raise _Unsure
            at = part.end()
        raise _Unsure

    def _remember(self, node: LexborNode, element: etree._Element, form: int | None) -> None:
        """For copied forms and listed elements: the tag's offset and the form around; and the
        ids the element makes forms_of look up."""
        tag = node.tag
        get = element.get
        if tag == "label":
            if get("for") is not None:
                self.references.add(get("for"))
            return
        key = node.mem_id
        if key not in self.positions:
            raise _Unsure  # (every form and control copied comes from a marked tag)
        self.elements[key] = element
        if tag == "form":
            labelledby = (get("aria-labelledby") or "").strip(ASCII_WHITESPACE)
            self.references.update(ASCII_WHITESPACE_RUNS.split(labelledby) if labelledby else ())
            return
        self.nearest_form[key] = form
        if get("form") is not None:
            self.references.add(get("form"))
        if tag == "input" and get("list") is not None:
            self.references.add(get("list"))
            self.list_ids.add(get("list"))

    def _lines(self) -> dict[etree._Element, int]:
        """html5lib's line for each copied form and control: the line its tag's ``>`` is on
        (``Document.lines``)."""
        low, positions = self.low, self.positions
        line, counted = 1, 0
        lines = {}
        for position, element in sorted((positions[key], element) for key, element in self.elements.items()):
            match = _START_TAG.match(low, position)
            end = match.end() if match else len(low)
            line += low.count(b"\n", counted, end)
            counted = end
            lines[element] = line
        return lines

    def _assemble(self) -> etree._Element:
        """The skeleton: the copies in document order, each under stubs of the ancestors forms_of
        looks at (fieldsets, their legends, datalists, ``dir`` and ``hidden`` carriers, the
        elements with a handler a call sets off, section headings' parents: :meth:`_looked_at`),
        all of them HTML elements outside selects and templates.
        Each copy walks up only to the first such ancestor already stubbed."""
        html = self.tree.root
        attributes = {}
        if html is not None and not _LOOKED_AT_ATTRIBUTES.isdisjoint(html.attrs):
            attributes = {
                name: value for name, value in self._attributes(html).items() if name in _LOOKED_AT_ATTRIBUTES
            }
        skeleton = etree.Element("html", attributes)
        stubs: dict[int, etree._Element] = {}
        for key in sorted(self.roots, key=self.order.__getitem__):
            root = self.roots[key]
            if self._inside(root, _UNSKELETAL):
                raise _Unsure
            chain = []
            ancestor = self.above.nearest(root, "looked at", self._looked_at)
            while ancestor is not None and ancestor.mem_id not in stubs:
                chain.append(ancestor)
                ancestor = self.above.nearest(ancestor, "looked at", self._looked_at)
            parent = skeleton if ancestor is None else stubs[ancestor.mem_id]
            for ancestor in reversed(chain):  # from the outermost in
                stub = stubs.get(ancestor.mem_id)  # (a legend stubbed with its fieldset)
                if stub is None:
                    stub = stubs[ancestor.mem_id] = self._element(ancestor)
                    parent.append(stub)
                    if ancestor.tag == "fieldset" and "disabled" in ancestor.attrs:
                        # a disabled fieldset's first legend child decides what it disables
                        legend = next((c for c in ancestor.iter() if c.tag == "legend"), None)
                        if legend is not None:
                            if legend.mem_id in self.roots:
                                raise _Unsure
                            stubs[legend.mem_id] = etree.SubElement(stub, "legend")
                parent = stub
            parent.append(self.copies[key])
            if key not in stubs:
                stubs[key] = self.copies[key]  # a stub root may be another root's ancestor
        return skeleton

    def _looked_at(self, element: LexborNode) -> bool:
        """Whether forms_of looks at ``element`` as an ancestor of what it reads."""
        tag = element.tag
        return tag != "html" and (
            tag in ("fieldset", "datalist")
            or (tag == "legend" and getattr(element.parent, "tag", None) == "fieldset")
            or not _LOOKED_AT_ATTRIBUTES.isdisjoint(element.attrs)
            or element.mem_id in self.heading_parents
        )


class _OpenTags:
    """The names of the elements open in a template's contents, as a stack that knows what it
    holds: asking whether a name is open, or closing through its last one, costs no walk of
    the stack (deep contents made each tag cost their depth)."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._open: dict[str, int] = {}

    def __contains__(self, name: str) -> bool:
        return self._open.get(name, 0) > 0

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    @property
    def current(self) -> str | None:
        return self._names[-1] if self._names else None

    def open(self, name: str) -> None:
        self._names.append(name)
        self._open[name] = self._open.get(name, 0) + 1

    def close(self, name: str) -> None:
        """Close the last ``name`` open, and everything opened after it."""
        while True:
            closed = self._names.pop()
            self._open[closed] -= 1
            if closed == name:
                return


def _parse_exact(
    markup: str | bytes, url: str | None, content_type: str | None, source: str | None
) -> Document:
    """The html5lib answer, for pages the fast path leaves (imported when first needed)."""
    from formtools._parse.exact import parse_exact

    return parse_exact(markup, url, content_type, source)
