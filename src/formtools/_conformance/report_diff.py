"""The conformance report's structural diff: where two JSON values disagree, keyword by keyword.

Key order does not count. A list is compared as a multiset, one difference per member only one
side has (a member is matched by its JSON text and which occurrence of that text it is, so a
duplicate is one member too many); a list of ``anyOf`` entries naming values (``const``) is
matched entry by entry and each pair compared keyword by keyword. Numbers compare as JavaScript
compares them (``1`` is ``1.0``), since both sides are ``JSON.stringify`` output.

The diff knows nothing of forms or profiles: which tool and parameter a difference belongs to,
and which rule explains it, are set by :mod:`._report_compare`.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from formtools._spec.jsjson import dumps

__all__ = ["ABSENT", "Absent", "Difference", "Explanation", "changes", "same"]


class Explanation(Protocol):
    """What explains a difference: the report's rules (:class:`.report.Rule`) are such values.

    A protocol, so that the diff, which the rules are written against, need not know them."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...


class Absent(enum.Enum):
    """The type of :data:`ABSENT`."""

    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"


#: A keyword, member or tool one side does not have (JSON ``null`` is a value, not an absence).
ABSENT = Absent.ABSENT


@dataclass(frozen=True)
class Difference:
    """One keyword (or list member) on which Chromium's tool and the ``html`` tool disagree.

    ``keyword`` is the dotted path of keywords from the parameter's schema (``pattern``,
    ``items.enum``, ``anyOf.type``), or from the tool definition (``annotations.readOnlyHint``,
    ``inputSchema.additionalProperties``; ``parameter`` is None, except for an
    ``inputSchema.required`` member, which is charged to the parameter it names). ``where`` is
    the same path with the member spelled out (``enum[""]``, ``anyOf["y"].type``). ``member`` is the
    ``enum`` value, ``anyOf`` entry's ``const`` or ``required`` name the difference is about, and
    ``occurrences`` how often it appears in each side's list (a duplicate keeps one on the other
    side). ``rule`` explains it, or is None: unexplained.
    """

    tool: str
    parameter: str | None
    keyword: str
    where: str
    chromium: Any = ABSENT
    html: Any = ABSENT
    member: Any = ABSENT
    occurrences: tuple[int, int] | None = None
    rule: Explanation | None = None

    @property
    def change(self) -> str:
        """``added`` (only the html profile has it), ``removed`` (only Chromium) or ``changed``."""
        if self.chromium is ABSENT:
            return "added"
        if self.html is ABSENT:
            return "removed"
        return "changed"


def same(a: Any, b: Any) -> bool:
    """JSON equality as JavaScript sees it: ``1`` is ``1.0``, ``true`` is not ``1``."""
    return dumps(a) == dumps(b)


def changes(chromium: Any, html: Any, keyword: str = "", where: str = "") -> Iterator[Difference]:
    """The structural differences of two JSON values below ``keyword`` / ``where`` (tool and
    parameter still to be set)."""
    if isinstance(chromium, Mapping) and isinstance(html, Mapping):
        for key in dict.fromkeys([*chromium, *html]):
            yield from changes(
                chromium.get(key, ABSENT),
                html.get(key, ABSENT),
                _join(keyword, key),
                _join(where, key),
            )
    elif isinstance(chromium, (list, tuple)) and isinstance(html, (list, tuple)):
        if not same(chromium, html):
            yield from _list_changes(chromium, html, keyword, where)
    elif chromium is ABSENT or html is ABSENT or not same(chromium, html):
        yield Difference("", None, keyword, where, chromium, html)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _list_changes(
    chromium: Sequence[Any], html: Sequence[Any], keyword: str, where: str
) -> Iterator[Difference]:
    """One difference per member only one side has, in Chromium's order and then the html
    profile's; ``anyOf`` entries both sides have are compared keyword by keyword."""
    entries = all(_is_entry(value) for value in (*chromium, *html))
    before, after = _numbered(chromium, entries), _numbered(html, entries)
    if not entries and before.keys() == after.keys():  # the same members in another order
        yield Difference("", None, keyword, where, chromium, html)
        return
    counts = Counter(text for text, _ in before), Counter(text for text, _ in after)
    for key in dict.fromkeys([*before, *after]):
        text = key[0]
        old, new = before.get(key, ABSENT), after.get(key, ABSENT)
        member = _member(new if old is ABSENT else old, entries)
        place = f"{where}[{text}]"
        occurrences = (counts[0][text], counts[1][text])
        if old is ABSENT or new is ABSENT:
            yield Difference("", None, keyword, place, old, new, member, occurrences)
            continue
        for inner in changes(old, new):  # equal members have none; entries may
            yield replace(
                inner,
                keyword=_join(keyword, inner.keyword),
                where=place + (f".{inner.where}" if inner.where else ""),
                member=member,
                occurrences=occurrences,
            )


def _is_entry(value: Any) -> bool:
    """An ``anyOf`` entry naming a value: compared with the other side's entry for that value."""
    return isinstance(value, Mapping) and "const" in value


def _member(value: Any, entries: bool) -> Any:
    """What a list member is matched by: the value itself, or the value an entry names."""
    return value["const"] if entries else value


def _numbered(values: Sequence[Any], entries: bool) -> dict[tuple[str, int], Any]:
    """Each value keyed by its member's JSON text and which occurrence of that text it is."""
    seen: Counter[str] = Counter()
    numbered: dict[tuple[str, int], Any] = {}
    for value in values:
        text = dumps(_member(value, entries))
        seen[text] += 1
        numbered[text, seen[text]] = value
    return numbered
