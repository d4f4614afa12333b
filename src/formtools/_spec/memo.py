"""Values derived from an immutable object, kept as long as the object lives.

A tool is called many times (the bridge, a batch of calls, ``validate`` then ``call``), and each
call derived the same things from the same frozen objects again: the form's parameters, its
secret keys, the schema with its option lists marked (a fifth of a call's time). The objects
(:class:`~formtools._forms.model.Form`, :class:`~formtools._synth.tool.Tool`) are frozen but
not hashable (they hold mappings), so :func:`functools.cache` cannot key on them, and keying on
their value would cost as much as the work saved. They are keyed here on their identity: an
entry lives exactly as long as its object (a weak reference drops it), so a new object at a
reused address never meets an old entry, and memory follows the objects a caller keeps.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["IdentityMemo"]

_Object = TypeVar("_Object")
_Detail = TypeVar("_Detail")
_Value = TypeVar("_Value")


class IdentityMemo(Generic[_Object, _Detail, _Value]):
    """``compute(obj, detail)`` kept per object and per detail, both by identity.

    ``detail`` is what else the value depends on (the profile a form is sorted out by); it is
    kept alive with its value, so that its identity names no other object while the entry lives.
    Two threads asking at once may both compute; either value is right, the function being pure."""

    def __init__(self, compute: Callable[[_Object, _Detail], _Value]) -> None:
        self._compute = compute
        self._entries: dict[int, tuple[weakref.ref[_Object], dict[int, tuple[_Detail, _Value]]]] = {}
        # reentrant: a collection during an insertion may run a forget callback in this thread
        self._lock = threading.RLock()

    def __call__(self, obj: _Object, detail: _Detail) -> _Value:
        entry = self._entries.get(id(obj))
        if entry is not None and entry[0]() is obj:
            kept = entry[1].get(id(detail))
            if kept is not None:
                return kept[1]
        value = self._compute(obj, detail)
        with self._lock:
            entry = self._entries.get(id(obj))
            if entry is None or entry[0]() is not obj:
                entry = (weakref.ref(obj, self._forget(id(obj))), {})
                self._entries[id(obj)] = entry
            entry[1][id(detail)] = (detail, value)
        return value

    def _forget(self, address: int) -> Callable[[weakref.ref[_Object]], None]:
        def forget(reference: weakref.ref[_Object]) -> None:
            with self._lock:
                entry = self._entries.get(address)
                if entry is not None and entry[0] is reference:
                    del self._entries[address]

        return forget

    def __len__(self) -> int:
        return len(self._entries)
