"""Merging: an accumulator's ``+``, ``+=`` and ``copy.copy``, made of its own ``merge`` and ``copy``.

Every accumulator of the package merges by addition of counts (``merge``)
and copies its state (``copy``); the operators say nothing more, and are
written here once. ``a + b`` is ``a.copy().merge(b)`` when ``b`` is an
accumulator of ``a``'s class (any subclass of it too: a thread-safe
accumulator, a model's view), and ``NotImplemented`` otherwise, so that
Python raises its ``TypeError``; ``a += b`` is ``a.merge(b)``, which checks
``b`` itself; ``copy.copy(a)`` is ``a.copy()``, since a shallow copy would
share the counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

__all__ = ["Merging"]

_A = TypeVar("_A")


class Merging(Generic[_A]):
    """``+``, ``+=`` and ``copy.copy`` of the accumulator class ``_A`` that lists this mixin
    among its bases (``class Contingency(Merging["Contingency"])``)."""

    __slots__ = ()

    if TYPE_CHECKING:  # every accumulator defines its own
        def merge(self, other: Any) -> _A: ...

        def copy(self) -> _A: ...

    def __iadd__(self, other: Any) -> _A:
        return self.merge(other)

    def __add__(self, other: Any) -> _A:
        if not isinstance(other, _accumulator_class(type(self))):
            return NotImplemented
        return self.copy().merge(other)  # type: ignore[attr-defined, no-any-return]

    def __copy__(self) -> _A:
        return self.copy()


def _accumulator_class(cls: type) -> type:
    """The class that lists :class:`Merging` among its bases: ``cls`` or the one it derives from."""
    return next(klass for klass in cls.__mro__
                if any(getattr(base, "__origin__", base) is Merging
                       for base in vars(klass).get("__orig_bases__", ())))
