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
from collections.abc import Generator

from selectolax.lexbor import LexborNode

from formtools._parse.document import _NEEDS_ESCAPE, AncestorFacts
from formtools._spec.constants import LISTED

MANY_ATTRIBUTES = 64  # (formtools._parse.exact.MANY_ATTRIBUTES: a tag with more takes that path)

__all__ = ["DEEP", "PointerScan", "deeply_nested", "out_of_reach"]


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
# not, so a page whose forms sit that deep takes the exact path. lexbor is also quadratic on
# nested blocks that close a paragraph (each <div> walks the whole stack for a <p> in button
# scope: 40,000 nested divs take 1.9 s), so a page with many of them is screened first.
DEEP = 500  # a form, control or label this deep (elements above it) leaves the fast path
_MANY_BLOCKS = 20_000
_BLOCK_START = re.compile(
    rb"<(?:div|section|article|aside|nav|header|footer|main|ul|ol|dl|p|blockquote|figure|"
    rb"fieldset|details|summary|center|dir|menu|address|hgroup|search|figcaption)[\t\n\f />]"
)
_TAG = re.compile(rb"<(/?)([a-z][^\t\n\f />]*)")
_VOID_NAMES = frozenset(
    b"area base basefont bgsound br col embed frame hr img input keygen link meta param source "
    b"track wbr".split()
)


def deeply_nested(low: bytes) -> bool:
    """Whether the page may nest deeper than the fast path takes (only checked on pages with
    many blocks: a few thousand cost lexbor little).

    A linear estimate of the stack's depth: a start tag pushes, an end tag pops an element of its
    name if one is open. It ignores the parser's implied end tags (it overestimates, and a page it
    overestimates only takes the exact path) and an end tag the parser ignores costs it one level
    per start tag it cancels, so it is never below half the real depth: half the limit is the
    threshold."""
    # every block start is a "<" and at least three bytes: most pages are too small to count them
    if len(low) < 3 * _MANY_BLOCKS or low.count(b"<") < _MANY_BLOCKS:
        return False
    if len(_BLOCK_START.findall(low)) < _MANY_BLOCKS:
        return False
    open_names: dict[bytes, int] = {}
    depth = 0
    for closing, name in _TAG.findall(low):
        if closing:
            if open_names.get(name):
                open_names[name] -= 1
                depth -= 1
        elif name not in _VOID_NAMES:
            open_names[name] = open_names.get(name, 0) + 1
            depth += 1
            if depth > DEEP // 2:
                return True
    return False


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
