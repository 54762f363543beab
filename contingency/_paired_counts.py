"""The paired table of two models on the same results, per result and per category, and its one write routine.

A result is *right* for a model when the categories it assigned are exactly
the correct ones (as the model's :class:`~contingency.Contingency` counts
them: under ``unknown="ignore"`` an undeclared label is not counted on
either side). Per category, a model is right about category ``c`` when it
assigned ``c`` exactly when ``c`` is correct. The counts, exact integers:

- ``cells``: the results by ``[both_right, only_a_right, only_b_right,
  both_wrong]`` (:class:`contingency.formulas.paired.PairedTable`'s order;
  the index of a result is ``2 (a wrong) + (b wrong)``);
- per category, the results where some model is wrong about it:
  ``only_a`` (a right, b wrong), ``only_b`` (b right, a wrong) and
  ``both_wrong``, no zero entries. ``both_right`` of a category is
  ``n - only_a - only_b - both_wrong``: a category no result names, or one
  both models get right, costs nothing, and a result changes only the
  categories it names;
- ``totals``, each category's ``only_a + only_b + both_wrong``, and
  ``spread``, how many categories have each total: what a removal checks
  (no category may be wrong in more results than remain) without a pass over
  the categories.

:meth:`PairedCounts.apply` is the one routine that changes them (a result,
a removal with negative counts, a batch, a merge); every change is checked
before the first write. :meth:`PairedCounts.count_one` is its rule for one
single-label result (``add_result``'s fast path). :class:`PairedCounts` is the
plain-Python reference of the kernel's ``KernelPairedCounts``
(contingency/_kernel_paired.pxi), which keeps the same counts in C arrays by
category code; :mod:`contingency._backend` chooses one, and
tests/test_kernel_paired.py compares them after every step.

Two rules turn results into changes, one for results given as sets
(:func:`set_changes`) and its vectorised form for single labels given as
codes (:func:`coded_changes`, which :func:`single_label_changes` calls on
label sequences); a test holds them equal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
from numpy.typing import NDArray

from contingency._coding import CodedLabels, encode
from contingency.formulas._numeric import check_room, count_codes, distinct_counts
from contingency.formulas.paired import PairedTable

__all__ = ["PairedChanges", "PairedCounts", "coded_changes", "negated", "set_changes",
           "single_label_changes"]

Cells = dict[Hashable, int]
#: A change of the paired counts: the four result cells, then per category ``only_a``,
#: ``only_b`` and ``both_wrong``.
PairedChanges = tuple[list[int], Cells, Cells, Cells]
#: A result as the sets of categories each side names: ``(assigned_a, assigned_b, correct)``.
Triple = tuple[AbstractSet[Hashable], AbstractSet[Hashable], AbstractSet[Hashable]]

def set_changes(triples: Mapping[Triple, int] | Iterable[tuple[Triple, int]]) -> PairedChanges:
    """The changes of results given as sets of categories, each counted the number given.

    The rule: a model is right about a result when its set equals the correct
    one; about a category when it assigned the category exactly when it is
    correct. Only the categories some model is wrong about change
    (``A ^ C`` for a, ``B ^ C`` for b).

    >>> cells, only_a, only_b, both_wrong = set_changes(
    ...     [((frozenset("x"), frozenset("y"), frozenset("x")), 2)])
    >>> cells, sorted(only_a.items()), only_b, both_wrong   # b wrong about x and y
    ([0, 2, 0, 0], [('x', 2), ('y', 2)], {}, {})
    """
    items = triples.items() if isinstance(triples, Mapping) else triples
    cells = [0, 0, 0, 0]
    only_a: Cells = {}
    only_b: Cells = {}
    both_wrong: Cells = {}
    for (assigned_a, assigned_b, correct), count in items:
        if not count:
            continue
        wrong_a = assigned_a ^ correct  # the categories a is wrong about
        wrong_b = assigned_b ^ correct
        cells[2 * bool(wrong_a) + bool(wrong_b)] += count
        for label in wrong_a | wrong_b:
            if label not in wrong_b:
                column = only_b  # b right, a wrong
            elif label not in wrong_a:
                column = only_a
            else:
                column = both_wrong
            column[label] = column.get(label, 0) + count
    return cells, only_a, only_b, both_wrong


def coded_changes(assigned_a: NDArray[np.int64], assigned_b: NDArray[np.int64],
                  correct: NDArray[np.int64], names: Sequence[Hashable],
                  more: Sequence[Hashable] = (), weights: NDArray[Any] | None = None
                  ) -> PairedChanges:
    """The changes of single-label results given as category codes in one numbering (-1: none).

    ``names[code]`` is a code's category, ``more[code - len(names)]`` for the
    codes after it. The rule of :func:`set_changes` with one category a side:
    a is wrong about its assigned ``x`` and the correct ``z`` when they differ,
    b about its ``y`` and ``z``; both are wrong about ``z`` when both are
    wrong, and about ``x`` too when ``x == y``. Each count is a count of codes
    (:func:`contingency.formulas._numeric.distinct_counts`): O(batch), never O(categories).
    ``weights`` (integers, one per result) counts each result that many times.

    >>> cells, only_a, only_b, both_wrong = coded_changes(
    ...     np.array([0, 0]), np.array([0, 1]), np.array([0, 0]), ["x", "y"])
    >>> cells, sorted(only_a.items()), only_b, both_wrong
    ([1, 1, 0, 0], [('x', 1), ('y', 1)], {}, {})
    """
    x, y, z = assigned_a, assigned_b, correct
    wrong_a, wrong_b = x != z, y != z
    kind = 2 * wrong_a.astype(np.int64) + wrong_b
    cells = [int(count) for count in count_codes(kind, 4, weights)[:4].tolist()]
    base = len(names)
    size = base + len(more)

    def counted(codes: NDArray[np.int64], rows: NDArray[np.bool_]) -> dict[int, int]:
        rows = rows & (codes >= 0)
        present, found = distinct_counts(codes[rows], size,
                                          None if weights is None else weights[rows])
        return dict(zip(present.tolist(), found.tolist()))

    both = wrong_a & wrong_b
    about_a = _summed(counted(x, wrong_a), counted(z, wrong_a))  # x != z: no result counted twice
    about_b = _summed(counted(y, wrong_b), counted(z, wrong_b))
    about_both = _summed(counted(z, both), counted(x, both & (x == y)))

    def name(code: int) -> Hashable:
        return names[code] if code < base else more[code - base]

    only_b = {name(code): count - about_both.get(code, 0) for code, count in about_a.items()
              if count != about_both.get(code, 0)}  # a wrong, b right
    only_a = {name(code): count - about_both.get(code, 0) for code, count in about_b.items()
              if count != about_both.get(code, 0)}
    return cells, only_a, only_b, {name(code): count for code, count in about_both.items()}


def _summed(left: dict[int, int], right: dict[int, int]) -> dict[int, int]:
    total = dict(left)
    for key, count in right.items():
        total[key] = total.get(key, 0) + count
    return total


def single_label_changes(assigned_a: Sequence[Any] | NDArray[Any] | CodedLabels,
                         assigned_b: Sequence[Any] | NDArray[Any] | CodedLabels,
                         correct: Sequence[Any] | NDArray[Any] | CodedLabels,
                         counted: Callable[[Hashable], bool] | None = None,
                         weights: NDArray[Any] | None = None) -> PairedChanges:
    """The changes of single-label results given as three equal-length label sequences.

    Each side is coded (:func:`contingency._coding.encode`), the distinct
    labels of the three numbered together, and :func:`coded_changes` counts
    them. ``counted(label)`` says whether a label counts (``unknown="ignore"``
    drops the others: that side then names no category).

    >>> cells, only_a, only_b, both_wrong = single_label_changes(["x", "x"], ["x", "y"],
    ...                                                          ["x", "x"])
    >>> cells, sorted(only_a.items()), only_b, both_wrong
    ([1, 1, 0, 0], [('x', 1), ('y', 1)], {}, {})
    """
    sides = []
    numbering: dict[Hashable, int] = {}
    for values, name in ((assigned_a, "assigned_a"), (assigned_b, "assigned_b"),
                         (correct, "correct")):
        codes, labels = encode(values, name)
        for label in labels:
            numbering.setdefault(label, len(numbering))
        shared = np.array([numbering[label] if counted is None or counted(label) else -1
                           for label in labels], dtype=np.int64)
        sides.append(shared[codes] if len(labels) else codes)
    assigned_a_codes, assigned_b_codes, correct_codes = sides
    return coded_changes(assigned_a_codes, assigned_b_codes, correct_codes, list(numbering),
                         weights=weights)


def negated(changes: PairedChanges) -> PairedChanges:
    """A change with every count negated: the same results taken back."""
    cells, only_a, only_b, both_wrong = changes
    return ([-count for count in cells], {label: -count for label, count in only_a.items()},
            {label: -count for label, count in only_b.items()},
            {label: -count for label, count in both_wrong.items()})


class PairedCounts:
    """The paired table's counts, and :meth:`apply`, the one routine that changes them."""

    __slots__ = ("both_wrong", "cells", "only_a", "only_b", "spread", "totals")

    cells: list[int]  # both_right, only_a_right, only_b_right, both_wrong results
    only_a: Cells  # per category: a right, b wrong (no zero entries)
    only_b: Cells  # per category: b right, a wrong
    both_wrong: Cells  # per category: both wrong
    totals: Cells  # per category: the three summed (no zero entries)
    spread: dict[int, int]  # how many categories have each total

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget every result."""
        self.cells = [0, 0, 0, 0]
        self.only_a, self.only_b, self.both_wrong, self.totals = {}, {}, {}, {}
        self.spread = {}

    def copy(self) -> PairedCounts:
        """Independent counts equal to these."""
        other = PairedCounts()
        other.cells = list(self.cells)
        other.only_a, other.only_b = dict(self.only_a), dict(self.only_b)
        other.both_wrong, other.totals = dict(self.both_wrong), dict(self.totals)
        other.spread = dict(self.spread)
        return other

    @property
    def n(self) -> int:
        """The number of results."""
        return sum(self.cells)

    # The one write routine -----------------------------------------------------------------

    def check(self, changes: PairedChanges, *, removing: bool = False, where: str = "") -> None:
        """:meth:`apply`'s checks alone: raises as :meth:`apply` would, writes nothing.

        Every count must stay within 0..MAX_COUNT, and no category may have a model wrong
        about it in more results than there are, whatever ``removing`` says (only a removal
        has negative changes; the callers pass it, as to ``Counts.check``)."""
        cells, only_a, only_b, both_wrong = changes
        n = self.n
        after = n + sum(cells)
        check_room(n, after - n, "results")
        prefix = f"{where}: " if where else ""
        names = ("both models right", "only model a right", "only model b right",
                 "both models wrong")
        for name, have, change in zip(names, self.cells, cells):
            if have + change < 0:
                raise ValueError(f"{prefix}no result with {name} is left to remove; that "
                                 "result was not added")
        for name, column, change_column in (("only model a right about", self.only_a, only_a),
                                            ("only model b right about", self.only_b, only_b),
                                            ("both models wrong about", self.both_wrong,
                                             both_wrong)):
            for label, change in change_column.items():
                if column.get(label, 0) + change < 0:
                    raise ValueError(f"{prefix}no result with {name} category {label!r} is "
                                     "left to remove; that result was not added")
        # Each category is wrong in at most the results that remain: those the change names are
        # checked one by one, the others (when results are taken back) through the histogram
        # of totals. (Every count then lies in 0..MAX_COUNT: the kernel's int64s hold it.)
        shrinking = after < n
        over = sum(count for total, count in self.spread.items() if total > after) if shrinking else 0
        for label in _touched(changes):
            before = self.totals.get(label, 0)
            total = before + only_a.get(label, 0) + only_b.get(label, 0) + both_wrong.get(label, 0)
            over += (total > after) - (shrinking and before > after)
        if over > 0:
            raise ValueError(f"{prefix}a category would have a model wrong about it in more "
                             f"results than the {after} that would remain; that result was not "
                             "added")

    def apply(self, changes: PairedChanges, *, removing: bool = False, where: str = "") -> None:
        """Add a change (negative counts to take results back), checked first; costs O(categories changed)."""
        self.check(changes, removing=removing, where=where)
        cells, *columns = changes
        self.cells = [have + change for have, change in zip(self.cells, cells)]
        for column, change_column in zip((self.only_a, self.only_b, self.both_wrong), columns):
            for label, change in change_column.items():
                count = column.get(label, 0) + change
                if count:
                    column[label] = count
                elif change:  # (a zero change of a category the column lacks: nothing to drop)
                    del column[label]
        totals, spread = self.totals, self.spread
        for label in _touched(changes):
            before = totals.get(label, 0)
            total = (self.only_a.get(label, 0) + self.only_b.get(label, 0)
                     + self.both_wrong.get(label, 0))
            if total == before:
                continue
            if before:
                _step(spread, before, -1)
            if total:
                totals[label] = total
                _step(spread, total, 1)
            else:
                del totals[label]

    def count_one(self, correct: Hashable, assigned_a: Hashable, assigned_b: Hashable) -> None:
        """One single-label result of both models, once: :meth:`apply` of :func:`set_changes`
        of it (the reference of the kernel's ``KernelPairedCounts.count_one``,
        contingency/_kernel_paired.pxi). Refused whole past the count limit."""
        self.apply(set_changes([((frozenset((assigned_a,)), frozenset((assigned_b,)),
                                  frozenset((correct,))), 1)]))

    # Reading --------------------------------------------------------------------------------

    def table(self, category: Hashable | None = None) -> PairedTable:
        """The paired table of the results, or of one category's decisions (no label is None)."""
        if category is None:
            both_right, only_a, only_b, both_wrong = self.cells
            return PairedTable(both_right, only_a, only_b, both_wrong)
        only_a = self.only_a.get(category, 0)
        only_b = self.only_b.get(category, 0)
        both_wrong = self.both_wrong.get(category, 0)
        return PairedTable(self.n - only_a - only_b - both_wrong, only_a, only_b, both_wrong)

    def labels(self) -> list[Hashable]:
        """The categories some model is wrong about in some result, in no particular order."""
        return list(self.totals)

    def state(self) -> tuple[list[int], Cells, Cells, Cells]:
        """The counts, for equality (dicts compare without regard to order)."""
        return self.cells, self.only_a, self.only_b, self.both_wrong


def _touched(changes: PairedChanges) -> set[Hashable]:
    _, only_a, only_b, both_wrong = changes
    return only_a.keys() | only_b.keys() | both_wrong.keys()


def _step(histogram: dict[int, int], key: int, change: int) -> None:
    count = histogram.get(key, 0) + change
    if count:
        histogram[key] = count
    else:
        del histogram[key]
