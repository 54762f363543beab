"""The storage of Contingency's counts and its one-result write, in plain Python: the kernel's reference.

:class:`CountsCore` holds the fields of :class:`contingency._counts.Counts`
that the write of one result touches (cells ``a``, ``b``, ``c``, ``n``,
``scale``, ``shapes``, ``micro``, ``ids``, ``pairs``, ``coupling``,
``stale``), and :meth:`CountsCore.count_pair`, one single-label result
applied to them. ``Counts`` subclasses the core that
:mod:`contingency._backend` chooses: this one, or the compiled
``KernelCountsCore`` (contingency/_kernel_counts.pxi), which holds the same
fields and applies the same result to the same state in C (a differential
test, tests/test_kernel_counts.py, compares them after every step).

This is the specification, so it is written as the rule itself: one
result is the one write routine, :meth:`contingency._counts.Counts.apply`,
given one pair's changes (:func:`contingency._changes.pair_changes`), or a
result of two sets the changes :class:`contingency._changes.ResultCounter`
gives it (:meth:`CountsCore.count_sets`).
"""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from contingency._changes import ResultCounter, pair_changes, times

if TYPE_CHECKING:
    from contingency._category_sums import F1Coupling
    from contingency._changes import Cells, Shape
    from contingency._table import PairTable

__all__ = ["CountsCore"]


class CountsCore:
    """The fields one result changes, and :meth:`count_pair` (the reference)."""

    __slots__ = ("a", "b", "c", "coupling", "ids", "micro", "n", "names", "pairs", "scale",
                 "shapes", "stale")

    a: Cells  # per category, in table order: assigned and correct
    b: Cells  # assigned, not correct
    c: Cells  # correct, not assigned
    n: int  # results
    scale: int  # every count is in units of 2**-scale
    shapes: dict[Shape, int]  # results by shape (both, assigned, correct); no zero entries
    micro: list[int]  # the micro table a, b, c, d: pooled cells plus the offset
    ids: dict[Hashable, int]  # the code of each category
    names: list[Hashable]  # the category of each code (a hole where one was forgotten)
    pairs: PairTable  # single-label results by code(correct) << 32 | code(assigned)
    coupling: F1Coupling | None  # macro F1's coupling term, once an interval read made it
    stale: tuple[set[Hashable], ...]  # the running sums' sets of categories changed since read

    def count_pair(self, correct: Hashable, assigned: Hashable, count: int | None = None,
                   join: bool = False) -> bool:
        """Count one single-label result ``count`` times (``count > 0``, in units of
        ``2**-scale``; ``None``: once, ``1 << scale``) if both labels are categories, or with
        ``join`` after making the others categories (``True``; the caller checked that they
        may be); else change nothing (``False``): :meth:`Counts.apply` with one pair's
        changes. Raises as it does (the count limit) and then changes nothing."""
        if count is None:
            count = 1 << self.scale
        elif type(count) is not int or count <= 0:
            raise ValueError(f"count_pair: count must be a positive int, not {count!r}")
        new = [label for label in (assigned, correct) if label not in self.ids]
        if new and not join:
            return False
        self.apply(*pair_changes({(correct, assigned): count}), new=new)
        return True

    def count_sets(self, assigned: AbstractSet[Hashable], correct: AbstractSet[Hashable]) -> bool:
        """Count one result given as two sets of categories, once (``1 << scale``), if every
        label is a category (``True``), else change nothing (``False``): :meth:`Counts.apply`
        with the changes :class:`~contingency._changes.ResultCounter` gives the result."""
        known = self.ids.keys()
        if not (assigned <= known and correct <= known):
            return False
        counter = ResultCounter()
        counter.add(assigned, correct)
        changes = counter.changes()
        self.apply(*(times(changes, 1 << self.scale) if self.scale else changes))
        return True

    def apply(self, *changes: Any, **options: Any) -> None:  # (Counts.apply)
        raise NotImplementedError
