"""Scanning the source bytes exactly where lexbor's tree cannot say: where the parser's form
pointer is cleared.

The fast path (:mod:`.fast`) marks the start tags of forms and controls in the source and reads
lexbor's tree; whether a control was associated with a form by the parser's *form element
pointer* depends on where that pointer was cleared (a ``</form>`` that reaches "in body"), which
only the token stream tells. This module tokenizes exactly that much, on ASCII-lowercased bytes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Generator, Iterator

from selectolax.lexbor import LexborNode

from formtools._parse.document import _NEEDS_ESCAPE, AncestorFacts
from formtools._spec.constants import LISTED

MANY_ATTRIBUTES = 64  # (formtools._parse.exact.MANY_ATTRIBUTES: a tag with more takes that path)

__all__ = ["DEEP", "PointerScan", "lexbor_walks_too_far", "out_of_reach", "stack_walks"]


class _Unsure(Exception):
    """The page holds something the fast path cannot vouch for: parse it with html5lib."""


_SELECT_PARTS = frozenset({"select", "option", "optgroup"})
_FOREIGN = frozenset({"svg", "math"})
_TEMPLATE = frozenset({"template"})


def element_parent(node: LexborNode) -> LexborNode | None:
    """``node``'s parent if that is an element (not the document or a template's fragment)."""
    parent = node.parent
    return parent if parent is not None and parent.is_element_node else None


def tree_facts() -> AncestorFacts[LexborNode]:
    """Ancestor facts about the elements of one lexbor tree."""
    return AncestorFacts(element_parent, _mem_id)


def _mem_id(node: LexborNode) -> int:
    return node.mem_id



# --- the source, and the marks the fast path puts in it -----------------------------------------------------------------------------

_MARKED = LISTED | {"form"}
_CANDIDATE = re.compile(  # a start tag of a marked name (CR is normalized away before)
    rb"<(?:f(?:orm|ieldset)|input|select|t(?:extarea|(emplate))|button|o(?:utput|bject))"
    rb"(?=[\t\n\f />])"
)
_MARK = "\x01"  # on forms and listed elements, which the query finds
_TEMPLATE_MARK = "\x03"  # on templates: read to check what their contents do
_MARKS = (_MARK, _TEMPLATE_MARK)
_MARK_TEXT = re.compile("/[\x01-\x03]=[0-9]+")
# Before the first <form: a <template, or what may be a form= attribute (two patterns, each with
# a literal prefix re can search for quickly).
_TEMPLATE_TAG = re.compile(rb"<template(?=[\t\n\f />])")
_FORM_WORD = re.compile(rb"form(?=[\t\n\f />=])")
_FORM_END = re.compile(rb"</form(?=[\t\n\f />])")
# What the skeleton cannot take from lexbor's strings as they are: a mark, or a character that
# html5lib's lxml tree parks (see _parse), from a character reference such as "&#1;".
_SPECIAL = re.compile(f"[\x01-\x03{_NEEDS_ESCAPE.pattern[1:-1]}]")

# One start or end tag tokenized exactly on ASCII-lowercased bytes (#tag-open-state through
# #after-attribute-value-quoted-state): the name, then attributes, whose quoted values may hold
# ">". It fails only at the end of the input, where the tokenizer drops the tag.
_ATTRIBUTES = (
    rb"(?:[\t\n\f /]++|[^\t\n\f />][^\t\n\f />=]*+"
    rb"(?:[\t\n\f ]*+=[\t\n\f ]*+"
    rb"(?:\"[^\"]*+(?:\"|\Z)|'[^']*+(?:'|\Z)|[^\t\n\f >\"'][^\t\n\f >]*+|(?=>)))?+)*+>"
)
_START_TAG = re.compile(rb"<([a-z][^\t\n\f />]*+)" + _ATTRIBUTES)
_END_TAG = re.compile(rb"</([a-z][^\t\n\f />]*+)" + _ATTRIBUTES)
# Raw text and RCDATA elements (scripting is on, so noscript is one), and where each ends.
_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
                  "noscript"})  # fmt: skip
_RAW_ENDS = {name: re.compile(b"</" + name.encode() + rb"[\t\n\f />]") for name in _RAW}
_SCRIPT_STATES = re.compile(rb"<!--|--+>|<(/?)script[\t\n\f />]")
# In a select's contents, tag by tag: the first tag that is not option, optgroup or hr must be
# the select's end tag, else the page goes to html5lib (the skeleton models options, optgroups
# and separators in a select; anything else there is parsed "in body" and can hold controls).
_MARKUP_START = re.compile(rb"<[a-z/!?]")
_SELECT_PART_TAG = re.compile(rb"<(?:/?(?:option|optgroup)|hr)[\t\n\f />]")
_END_SELECT = re.compile(rb"</select[\t\n\f />]")


def _raw_end(low: bytes, name: str, start: int) -> int:
    """Where raw text or RCDATA content starting at ``start`` ends: at its appropriate end tag."""
    if name == "script":
        return _script_end(low, start)
    match = _RAW_ENDS[name].search(low, start)
    return match.start() if match else len(low)


def _script_end(low: bytes, position: int) -> int:
    """The end of script data through its escaped states (#script-data-state): ``<!--`` escapes,
    ``<script`` in an escape double-escapes, ``-->`` ends either, and ``</script`` ends the
    script except in a double escape, which it ends instead."""
    escaped = double = False
    while True:
        match = _SCRIPT_STATES.search(low, position)
        if match is None:
            return len(low)
        token, position = match.group(), match.end()
        if token == b"<!--":
            escaped = True
            while low[position : position + 1] == b"-":
                position += 1
            if low[position : position + 1] == b">":  # "<!-->", "<!--->": back to script data
                escaped = double = False
                position += 1
        elif token.startswith(b"--"):  # -->
            escaped = double = False
        elif match.group(1):  # </script
            if not double:
                return match.start()
            double = False
        elif escaped:
            double = True




class PointerScan:
    """Where each form's pointer ends: mixed into the fast path's page, which sets these."""

    low: bytes
    above: AncestorFacts[LexborNode]
    forms: list[LexborNode]
    form_positions: list[int]
    pointer_ends: dict[int, int]
    marked: list[tuple[int, LexborNode]]
    mark_positions: list[int]

    def _inside(self, node: LexborNode, tags: frozenset[str]) -> bool:
        """Whether an ancestor of ``node`` has one of these tag names."""
        return self.above.below(node, tags, lambda element: True if element.tag in tags else None)

    def _pointer_end(self, at: int) -> int:
        """Where the pointer the ``at``-th form set is cleared: at its first ``</form>`` that
        reaches "in body", which comes before the next form's tag (that tag made a form).

        Each ``</form`` is judged by tokenizing from the last marked tag before it (whose place
        in lexbor's tree says whether a select or foreign content is open there); the ones after
        the same marked tag share one forward pass, so the stretch is tokenized once, however
        many ``</form`` strings a script, comment or select in it holds."""
        end = self.pointer_ends.get(at)
        if end is None:
            start = self.form_positions[at]
            last = at + 1 == len(self.forms)
            limit = len(self.low) if last else self.form_positions[at + 1]
            anchor, scan = -1, None
            for match in _FORM_END.finditer(self.low, start, limit):
                target = match.start()
                marked = bisect.bisect(self.mark_positions, target) - 1
                if marked != anchor:
                    anchor, scan = marked, self._scan_from(marked)
                if scan is not None and scan.send(target):
                    end = target
                    break
            if end is None:
                if not last:
                    raise _Unsure  # something cleared it that this module did not see
                end = limit
            self.pointer_ends[at] = end
        return end

    def _scan_from(self, marked: int) -> Generator[bool, int, None] | None:
        """A forward pass from the ``marked``-th marked tag, started; None if that tag runs to
        the end of the page (every later ``</form`` is inside it)."""
        low = self.low
        position, anchor = self.marked[marked]
        tag = anchor.tag
        foreign = self._inside(anchor, _FOREIGN)
        match = _START_TAG.match(low, position)
        if match is None:
            return None
        resume = match.end()
        in_select = tag == "select" or self._inside(anchor, _SELECT_PARTS)
        if tag == "textarea" and not foreign:
            resume = _raw_end(low, tag, resume)  # (past its text, which holds no token)
        scan = self._tokenize(resume, in_select, foreign)
        next(scan)
        return scan

    def _tokenize(self, position: int, in_select: bool, foreign: bool) -> Generator[bool, int, None]:
        """Tokenize exactly from ``position`` (in the data state), told by ``send`` each
        ``</form`` in turn (in document order) and answering whether a token starts there and no
        template is open there to keep the pointer. A select's contents are parsed "in body"
        (the customizable select parser: a ``</form>`` in one clears the pointer, a raw-text tag
        there is raw text); ``in_select`` only follows whether one is open, because a select
        start tag met on the way made no element lexbor kept (it would be the anchor): one in a
        select closes it, one in a template is the template's. ``foreign``: SVG or MathML may
        be open, where raw-text tags are not raw text."""
        low = self.low
        templates = 0
        just_foreign = False  # right after an <svg> or <math> start tag: in foreign content
        target = yield False
        while True:
            if position > target:  # inside a tag, comment or text that began before it
                target = yield False
                continue
            at = low.find(b"<", position, target + 1)
            if at == target:
                target = yield templates == 0
            following = low[at + 1 : at + 2]
            if b"a" <= following <= b"z":
                match = _START_TAG.match(low, at)
                if match is None:
                    position = len(low)  # the tag runs to the end of the page
                    continue
                name, position = match.group(1).decode(), match.end()
                just_foreign = name in _FOREIGN and low[position - 2] != 47  # "/>"
                if name == "plaintext" and not foreign:
                    position = len(low)  # the rest of the page is text
                elif name in _RAW:
                    end = _raw_end(low, name, position)
                    if foreign and b"<" in low[position:end]:
                        raise _Unsure  # foreign content would tokenize it as markup
                    position = end
                elif name in _FOREIGN:
                    foreign = True
                elif name == "template":
                    if foreign:
                        raise _Unsure  # in SVG it is SVG's
                    templates += 1
                elif name == "select":
                    if not (in_select or templates):
                        raise _Unsure
                    in_select = not in_select
                elif name == "input" and not foreign:
                    in_select = False
            elif following == b"/":
                just_foreign = False
                second = low[at + 2 : at + 3]
                if b"a" <= second <= b"z":
                    match = _END_TAG.match(low, at)
                    if match is None:
                        position = len(low)
                        continue
                    name, position = match.group(1).decode(), match.end()
                    if name == "select":
                        in_select = False
                    elif name == "template" and templates:
                        templates -= 1
                elif second == b">":
                    position = at + 3
                else:
                    position = self._bogus_comment_end(at + 2)
            elif following == b"!":
                if low.startswith(b"<!--", at):
                    position = self._comment_end(at + 4)
                elif foreign and low.startswith(b"<![cdata[", at):
                    close = low.find(b"]]>", at)
                    if close < 0:
                        close = len(low) - 3
                    if not just_foreign and low.find(b">", at) != close + 2:
                        raise _Unsure  # a CDATA section or a bogus comment: they end elsewhere
                    position = close + 3
                else:
                    position = self._bogus_comment_end(at + 2)
            elif following == b"?":
                position = self._bogus_comment_end(at + 1)
            else:
                position = at + 1

    def _bogus_comment_end(self, position: int) -> int:
        end = self.low.find(b">", position)
        return len(self.low) if end < 0 else end + 1

    def _comment_end(self, position: int) -> int:
        """After ``<!--``: ``<!-->`` and ``<!--->`` end at once, else ``-->`` or ``--!>``."""
        low = self.low
        if low.startswith(b">", position):
            return position + 1
        if low.startswith(b"->", position):
            return position + 2
        ends = [at + 3 for at in (low.find(b"-->", position),) if at >= 0]
        ends += [at + 4 for at in (low.find(b"--!>", position),) if at >= 0]
        return min(ends) if ends else len(low)


# --- deep nesting ---------------------------------------------------------------------------

# Blink nests the DOM no deeper than the stack depth 513 (see formtools._parse.exact): lexbor does
# not, so a page whose forms sit that deep takes the exact path (out_of_reach, on lexbor's tree).
DEEP = 500  # a form, control or label this deep (elements above it) leaves the fast path

# lexbor follows the standard's tree construction, which walks the stack of open elements for
# most tags: "has an element in scope" (a block start tag looks for a <p> in button scope, <input>,
# <hr>, <select>, <option> for a select in scope, an end tag for its element), "any other end tag"
# (down to the first special element), the <li>/<dd> loops, "is there a template on the stack"
# (<form>, </form>, <body>, <html>) and the adoption agency. Each walk can cost the whole depth,
# so a page whose stack is deep while many tags come is quadratic in lexbor: 16,000 <span> then
# 16,000 <input> take 1.0 s, 32,000 6.0 s (docs/guide/internals.md lists the shapes measured).
# The exact path answers those questions without walking (its counted stack), so a page whose
# walks would cost lexbor more than the exact path's parse takes that path instead.
#: The walks (elements passed, as stack_walks counts them) any page may cost lexbor, and how many
#: more each byte of it buys: lexbor passes an element in about 4 ns (8,000,000: about 30 ms),
#: the exact path parses a byte in about 1 µs, so past about 250 a byte lexbor is the slower. The
#: rate is four times that so that byte counts alone clear ordinary pages of up to a megabyte or
#: so (see lexbor_walks_too_far): a lower one would have the screen read the tags of every large
#: page, for walks real pages never come near (0.3 a byte at most in both benchmark corpora).
WALK_ALLOWANCE = 8_000_000
WALKS_PER_BYTE = 1024
_STRETCHES = 32  # the page's parts counted apart: the bound is about half what one count gives
_TAGS_AT_ONCE = 1 << 20  # bytes
_TAG = re.compile(rb"<(/?)([a-z][^\t\n\f />]*)")
_VOID_NAMES = frozenset(
    b"area base basefont bgsound br col embed frame hr img input keygen link meta param source "
    b"track wbr".split()
)
_UNPUSHED = _VOID_NAMES | {b"html", b"head", b"body"}  # (each one element, at the bottom)
_FORMATTING_NAMES = frozenset(b"a b big code em font i nobr s small strike strong tt u".split())
_HEADINGS = frozenset(b"h1 h2 h3 h4 h5 h6".split())
_CLOSES_P = _HEADINGS | frozenset(
    b"address article aside blockquote center details dialog dir div dl fieldset figcaption figure "
    b"footer header hgroup main menu nav ol p search section summary ul pre listing form li dd dt "
    b"plaintext hr xmp".split()
)
# the special category (#special), with the foreign elements in it (their names as lowered)
_SPECIAL_NAMES = frozenset(
    b"address applet area article aside base basefont bgsound blockquote body br button caption "
    b"center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame "
    b"frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing "
    b"main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script "
    b"search section select source style summary table tbody td template textarea tfoot th thead "
    b"title tr track ul wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc".split()
)
# the boundaries of "in scope" (a select too: Chromium 156's customizable select, see exact.py)
_SCOPE_NAMES = frozenset(
    b"applet caption html table td th marquee object template select mi mo mn ms mtext "
    b"annotation-xml foreignobject desc title".split()
)
_TABLE_SCOPE_NAMES = frozenset(b"html table template".split())
_TABLE_PARTS = frozenset(b"table caption colgroup tbody thead tfoot tr td th".split())
_SECTIONS = (b"tbody", b"thead", b"tfoot")
_CELLS = (b"td", b"th")
# What an open element's content is parsed as (#tree-construction-dispatcher): HTML, SVG or
# MathML content, a MathML text integration point's (HTML, but for <mglyph> and <malignmark>), or
# not known (an <annotation-xml> is an HTML integration point only with an encoding attribute, a
# <font> in foreign content breaks out only with a color, face or size one: the estimate sees no
# attributes, so it neither closes nor breaks out anything in such content, its deepest reading).
_HTML_CONTENT, _SVG_CONTENT, _MATH_CONTENT, _MATH_TEXT_CONTENT, _UNKNOWN_CONTENT = range(5)
_FOREIGN_CONTENT = frozenset({_SVG_CONTENT, _MATH_CONTENT})
_SVG_HTML_POINTS = frozenset(b"foreignobject desc title".split())
_MATH_TEXT_POINTS = frozenset(b"mi mo mn ms mtext".split())
# start tags that leave foreign content: the open foreign elements are popped first (#parsing-main-inforeign)
_BREAKOUT_NAMES = _HEADINGS | frozenset(
    b"b big blockquote body br center code dd div dl dt em embed head hr i img li listing menu "
    b"meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var".split()
)
# End tags the standard closes "in scope" (the others are "any other end tag": special stops it).
_CLOSED_IN_SCOPE = frozenset(
    b"address article aside blockquote button center details dialog dir div dl fieldset "
    b"figcaption figure footer header hgroup listing main menu nav ol pre search section summary "
    b"ul applet marquee object dd dt select".split()
)
# The classes of elements the estimate asks "which is the topmost open one": each tag's walk in
# the standard stops at one of them.
_STOPS_ANY_END, _SCOPE, _BUTTON_SCOPE, _LIST_SCOPE, _TABLE_SCOPE, _LIST_ITEM_STOP = range(6)
_CLASSES: dict[bytes, tuple[int, ...]] = {}
for _name in _SPECIAL_NAMES | _SCOPE_NAMES | {b"button", b"ol", b"ul"}:
    _CLASSES[_name] = tuple(
        kind
        for kind, member in (
            (_STOPS_ANY_END, _name in _SPECIAL_NAMES),
            (_SCOPE, _name in _SCOPE_NAMES),
            (_BUTTON_SCOPE, _name in _SCOPE_NAMES or _name == b"button"),
            (_LIST_SCOPE, _name in _SCOPE_NAMES or _name in (b"ol", b"ul")),
            (_TABLE_SCOPE, _name in _TABLE_SCOPE_NAMES),
            (_LIST_ITEM_STOP, _name in _SPECIAL_NAMES and _name not in (b"address", b"div", b"p")),
        )
        if member
    )
_SCOPE_OF_END_TAG = {b"p": _BUTTON_SCOPE, b"li": _LIST_SCOPE} | {
    name: _TABLE_SCOPE for name in _TABLE_PARTS
} | {name: _SCOPE for name in _CLOSED_IN_SCOPE | _HEADINGS}


def lexbor_walks_too_far(low: bytes) -> bool:
    """Whether lexbor's walks of the stack of open elements may cost the page more than
    :data:`WALK_ALLOWANCE` + :data:`WALKS_PER_BYTE` a byte (:func:`stack_walks`).

    Pages are decided by byte counts but for a few: :func:`stack_walks` charges a tag at most two
    elements a start tag before it, so twice the square of the page's ``<`` count bounds it
    (most pages, of a few thousand tags, stop there), and more closely the ``<`` of each stretch
    of the page times twice the start tags (``<`` not followed by ``/``) up to its end; only a
    page whose bound exceeds the budget has its tags read."""
    budget = WALK_ALLOWANCE + WALKS_PER_BYTE * len(low)
    if 2 * (len(low) // 3) ** 2 <= budget:  # a tag is at least three bytes
        return False
    if 2 * low.count(b"<") ** 2 <= budget:  # (no more start tags than tags)
        return False
    bound = starts = 0
    stretch = len(low) // _STRETCHES + 1
    for start in range(0, len(low), stretch):
        tags = low.count(b"<", start, start + stretch)
        # (a "</" across two stretches is in neither: the bound counts it as a start tag)
        starts += tags - low.count(b"</", start, start + stretch)
        bound += 2 * tags * starts
    return bound > budget and stack_walks(low, budget) > budget


def _content_of(name: bytes, context: int) -> int:
    """What the content of an element ``name`` opened in ``context`` content is parsed as."""
    if context in _FOREIGN_CONTENT and name == b"font":
        return _UNKNOWN_CONTENT
    if context == _SVG_CONTENT:
        return _HTML_CONTENT if name in _SVG_HTML_POINTS else _SVG_CONTENT
    if context == _MATH_CONTENT:
        if name in _MATH_TEXT_POINTS:
            return _MATH_TEXT_CONTENT
        return _UNKNOWN_CONTENT if name == b"annotation-xml" else _MATH_CONTENT
    if context == _UNKNOWN_CONTENT:
        return _UNKNOWN_CONTENT
    if context == _MATH_TEXT_CONTENT and name in (b"mglyph", b"malignmark"):
        return _MATH_CONTENT
    return _SVG_CONTENT if name == b"svg" else _MATH_CONTENT if name == b"math" else _HTML_CONTENT


def _tags(low: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The page's tags as (``/`` or nothing, name), found a megabyte at a time (the list of a
    whole page's tags would take several times the page's size). A stretch ends at a ``<``: a
    tag name holding one is read as two tags there, which changes the estimate by one."""
    start = 0
    while start < len(low):
        end = low.find(b"<", start + _TAGS_AT_ONCE)
        end = len(low) if end < 0 else end
        yield from _TAG.findall(low, start, end)
        start = end


def stack_walks(low: bytes, budget: int) -> int:
    """An upper estimate of the elements lexbor's tree construction passes in its walks of the
    stack of open elements and of the list of active formatting elements, stopped once above
    ``budget``: for each tag, the elements open there (an estimate of the stack) and the
    formatting elements the list may hold (the standard's reconstruction may reopen each).

    The stack is estimated in one pass over the tags (on ASCII-lowercased bytes): a start tag
    pushes an element (not a void one, nor html, head, body), an end tag pops to its element only
    where the standard's walk would reach it (an end tag closed "in scope" only if no boundary of
    its scope is above it, any other only if no special element is), and the start tags that
    close elements the common way do so here too (a block closing a <p> in button scope, <li>,
    <dd>, <dt>, table rows and cells, <option>, <a>, <button>, headings), but not in SVG or
    MathML content, where no start tag closes anything (a breakout tag pops the foreign elements
    first). A table part outside a table or template is ignored, as the parser ignores it, and an
    end tag of a heading pops to the topmost heading of any level. Where the standard
    closes more (the adoption agency, foster parenting, other implied end tags) the estimate stays
    deeper; a tag in a script or comment counts as a tag. It leaves out the sections and rows a
    cell or row without them implies (at most two a start tag: the real depth is at most three
    times the estimate's there). A tag is charged at most one element and one formatting entry a
    start tag before it: the two of :func:`lexbor_walks_too_far`."""
    names: list[bytes] = []  # the estimated stack of open elements
    contents: list[int] = []  # what each one's content is parsed as (_HTML_CONTENT…)
    where: dict[bytes, list[int]] = {}  # name → its open elements' places, lowest first
    tops: tuple[list[int], ...] = tuple([] for _ in range(6))  # class → its members' places
    formatting: dict[bytes, int] = {}  # formatting start tags not yet matched by an end tag
    listed = 0  # their sum
    walked = 0

    def top(kind: int) -> int:
        members = tops[kind]
        return members[-1] if members else -1

    def topmost(*candidates: bytes) -> int:
        return max((where[name][-1] for name in candidates if where.get(name)), default=-1)

    def pop_to(place: int) -> None:
        """Pop the element at ``place`` and every element above it."""
        while len(names) > place:
            name = names.pop()
            where[name].pop()
            for kind in _CLASSES.get(name, ()):
                tops[kind].pop()
        del contents[place:]

    def push(name: bytes, content: int) -> None:
        place = len(names)
        names.append(name)
        contents.append(content)
        where.setdefault(name, []).append(place)
        for kind in _CLASSES.get(name, ()):
            tops[kind].append(place)

    for closing, name in _tags(low):
        walked += len(names) + listed
        if walked > budget:
            break
        if closing:
            if name in _FORMATTING_NAMES and formatting.get(name):
                formatting[name] -= 1
                listed -= 1
            if name in _HEADINGS:  # (closes the topmost heading of any level)
                heading = topmost(*_HEADINGS)
                if heading >= 0 and heading >= top(_SCOPE):
                    pop_to(heading)
                continue
            opened = where.get(name)
            if not opened or name in _UNPUSHED:
                continue
            kind = _SCOPE_OF_END_TAG.get(name, _STOPS_ANY_END)
            if name == b"form":  # (the standard removes the form alone)
                if opened[-1] == len(names) - 1 and opened[-1] >= top(_SCOPE):
                    pop_to(opened[-1])
            elif opened[-1] >= top(kind):
                pop_to(opened[-1])
            continue
        context = contents[-1] if contents else _HTML_CONTENT
        if context in _FOREIGN_CONTENT and name in _BREAKOUT_NAMES:
            html_place = len(contents)  # (the foreign elements are popped, then it is HTML's)
            while html_place and contents[html_place - 1] in _FOREIGN_CONTENT:
                html_place -= 1
            pop_to(html_place)
            context = contents[-1] if contents else _HTML_CONTENT
        if name in _FORMATTING_NAMES:  # (in foreign content too: a <font> may break out)
            formatting[name] = formatting.get(name, 0) + 1
            listed += 1
        if context in _FOREIGN_CONTENT or context == _UNKNOWN_CONTENT or (
            context == _MATH_TEXT_CONTENT and name in (b"mglyph", b"malignmark")
        ):  # a foreign element: no end tag implied, and a void name is no void element there
            push(name, _content_of(name, context))
            continue
        if name in _UNPUSHED:
            continue
        if name in _CLOSES_P:
            paragraph = topmost(b"p")
            if paragraph >= 0 and paragraph >= top(_BUTTON_SCOPE):
                pop_to(paragraph)
        if name in _TABLE_PARTS and name != b"table":
            if top(_TABLE_SCOPE) < 0:
                continue  # (outside a table or template, the parser ignores a table part)
            cell = topmost(*_CELLS)
            if cell >= 0 and cell >= top(_TABLE_SCOPE):
                pop_to(cell)  # the cell is closed
            # and the table context is cleared back to a row (for a cell), a section (for a
            # row) or the table (for a section, caption or column group)
            if name in _CELLS:
                table_context = topmost(b"tr")
            else:
                table_context = topmost(*_SECTIONS) if name == b"tr" else topmost(b"table")
            if table_context >= 0 and table_context >= top(_TABLE_SCOPE):
                pop_to(table_context + 1)
        elif name in (b"li", b"dd", b"dt"):
            item = topmost(b"li") if name == b"li" else topmost(b"dd", b"dt")
            if item >= 0 and item >= top(_LIST_ITEM_STOP):
                pop_to(item)
        elif name in (b"option", b"optgroup"):
            if names and names[-1] == b"option":
                pop_to(len(names) - 1)
        elif name in _HEADINGS:
            if names and names[-1] in _HEADINGS:
                pop_to(len(names) - 1)
        elif name == b"button":
            button = topmost(b"button")
            if button >= 0 and button >= top(_SCOPE):
                pop_to(button)
        elif name == b"a":
            anchor = topmost(b"a")
            if anchor >= 0 and anchor >= top(_STOPS_ANY_END):
                pop_to(anchor)
        push(name, _content_of(name, context))
    return walked


def out_of_reach(node: LexborNode, known: dict[int, int] | None = None) -> bool:
    """Whether ``node`` has more than :data:`DEEP` elements above it (at most that many steps),
    or an SVG or MathML one (a name the query marked is then a foreign element, not a control).

    ``known``: what earlier calls learnt about elements (mem_id → the elements above it and it,
    or more than DEEP for an SVG or MathML one or above it), so that the controls of one form,
    which share most of their ancestors, do not each walk up to the root."""
    if known is None:
        known = {}
    chain = []
    above = 0  # elements above the chain's last (outermost) element
    parent = node.parent
    while parent is not None and parent.is_element_node:
        key = parent.mem_id
        count = known.get(key)
        if count is not None:
            above = count
            break
        if parent.tag in _FOREIGN:
            above = DEEP + 1
            known[key] = above
            break
        chain.append(key)
        if len(chain) > DEEP:
            return True  # (what lies above is not worth remembering)
        parent = parent.parent
    for key in reversed(chain):
        above = min(above + 1, DEEP + 1)
        known[key] = above
    return above > DEEP


# A start tag with more than MANY_ATTRIBUTES attributes, following the tokenizer's attribute
# states (a quoted value runs to its quote, or to the end of the page; an attribute may follow a
# quoted value at once; "=" may begin a name). Possessive quantifiers only: a tag with fewer
# attributes fails in one pass over it, with no backtracking into its attributes. The attributes
# are written out one after the other, not counted by a repeated group: re runs a counted group
# through its repeat machinery at every "<" of the page, which cost a quarter of the scan.
_ATTRIBUTE = (
    rb"[\t\n\f\r /]*+[^\t\n\f\r />][^\t\n\f\r />=]*+"
    rb"(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:\"[^\"]*+\"?+|'[^']*+'?+|[^\t\n\f\r >]*+))?+"
)
_MANY_ATTRIBUTES_TAG = re.compile(rb"<[a-z][^\t\n\f\r />]*+" + _ATTRIBUTE * (MANY_ATTRIBUTES + 1))


def many_attributes(low: bytes) -> bool:
    """Whether some start tag of the page has more attributes than the fast path takes: lexbor
    checks each attribute of a tag against the earlier ones (n attributes cost n²), and the
    exact path keeps such a tag's attributes aside (``formtools._parse.exact``). A tag-like
    run in a script or comment counts too (it only sends the page to the exact path)."""
    return _MANY_ATTRIBUTES_TAG.search(low) is not None
