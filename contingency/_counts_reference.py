"""The storage of Contingency's counts and its one-result write, in plain Python: the kernel's reference.

:class:`CountsCore` holds the counts of :class:`contingency._counts.Counts`
(cells ``a``, ``b``, ``c`` by category code, ``n``, ``scale``, ``shapes``,
``micro``, the categories' numbering ``ids``/``names``, the pair table
``pairs``) with the few primitive writes that
:meth:`contingency._counts.Counts.apply`, the one write routine, is made of
(:meth:`CountsCore.join`, :meth:`CountsCore.add_cells`,
:meth:`CountsCore.add_shapes`, :meth:`CountsCore.add_micro`,
:meth:`CountsCore.forget`, :meth:`CountsCore.rescale_counts`), and the rule for one
result, :meth:`CountsCore.count_pair` and :meth:`CountsCore.count_sets`.
``Counts`` subclasses the core that :mod:`contingency._backend` chooses: this
one, or the compiled ``KernelCountsCore`` (contingency/_kernel_counts.pxi),
which holds the same counts in C (int64 arrays by code, C integers, a C hash
table of pairs) and gives the same state after every step (a differential
test, tests/test_kernel_counts.py, compares them after every step).

This is the specification, so it is written for clarity: the cells are
three lists of Python ints indexed by category code, read by category
through :class:`CellView` (a read-only mapping label -> count in table
order); one result is the one write routine given one pair's changes
(:func:`contingency._changes.pair_changes`), or a result of two sets the
changes :class:`contingency._changes.ResultCounter` gives it; a macro mean is
the mean of a :class:`contingency._category_sums.CategorySums` (made by the
first read that needs it, and brought up to date for the categories changed
since, on each read).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

import numpy as np

from contingency._changes import HIT, MISS, ResultCounter, pair_changes, times
from contingency._registry import TABLE
from contingency._table import CodedPairs, PairTable
from contingency.formulas._numeric import no_category

if TYPE_CHECKING:
    from contingency._category_sums import CategorySums, F1Coupling
    from contingency._changes import Cells, Shape
    from contingency.formulas._numeric import ZeroDivision

__all__ = ["HOLE", "MACRO_SCORES", "MICRO_SCORES", "CellView", "CountsCore"]

#: The scores :meth:`CountsCore.micro_score` reads from the micro table (the kernel in C).
MICRO_SCORES = ("precision", "recall", "f1", "accuracy", "error")
#: The scores whose plain macro mean :meth:`CountsCore.macro_mean` reads from running sums
#: (the kernel's are kept in C by its writes).
MACRO_SCORES = ("precision", "recall", "f1")

class _Hole:
    """The name of a code whose category was forgotten: one object, pickled as itself."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "HOLE"

    def __reduce__(self) -> str:
        return "HOLE"  # (this module's HOLE)


#: The name of a code whose category was forgotten.
HOLE = _Hole()


class CellView(Mapping[Hashable, int]):
    """One column of cells (``a``, ``b`` or ``c``) read by category, in table order: read-only.

    A view over the core's list by code: it follows every change of the counts.
    """

    __slots__ = ("_core", "_index")

    def __init__(self, core: CountsCore, index: int) -> None:
        self._core, self._index = core, index

    def __getitem__(self, label: Hashable) -> int:
        return self._core._cells[self._index][self._core.ids[label]]

    def get(self, label: Hashable, default: Any = None) -> Any:
        code = self._core.ids.get(label)
        return default if code is None else self._core._cells[self._index][code]

    def __contains__(self, label: object) -> bool:
        return label in self._core.ids

    def __len__(self) -> int:
        return len(self._core.ids)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._core.ids)

    def keys(self) -> Any:  # (the ids' keys: a set-like view, as a dict's)
        return self._core.ids.keys()

    def values(self) -> Any:
        column = self._core._cells[self._index]
        return [column[code] for code in self._core.ids.values()]

    def items(self) -> Any:
        column = self._core._cells[self._index]
        return [(label, column[code]) for label, code in self._core.ids.items()]

    def __repr__(self) -> str:
        return f"CellView({dict(self.items())!r})"


class CountsCore:
    """The counts by code and their primitive writes, and :meth:`count_pair` (the reference)."""

    __slots__ = ("_cells", "coupling", "hold", "holes", "ids", "micro", "n", "names", "pairs",
                 "scale", "shapes", "stale")

    n: int  # results
    scale: int  # every count is in units of 2**-scale
    shapes: dict[Shape, int]  # results by shape (both, assigned, correct); no zero entries
    micro: list[int]  # the micro table a, b, c, d: pooled cells plus the offset
    ids: dict[Hashable, int]  # the code of each category, in table order
    names: list[Hashable]  # the category of each code (HOLE where one was forgotten)
    holes: int  # codes of forgotten categories
    pairs: PairTable  # single-label results by code(correct) << 32 | code(assigned)
    coupling: F1Coupling | None  # macro F1's coupling term, once an interval read made it
    stale: tuple[set[Hashable], ...]  # the running sums' sets of categories changed since read
    hold: bool  # the owner prints each result (verbose): add_result's fast path steps aside

    # The cells read by category: a view made when asked for (the core keeps none, so that no
    # reference cycle keeps a core alive after its last user; a running sum keeps its own).

    @property
    def a(self) -> Mapping[Hashable, int]:
        """Per category, in table order: cell a (assigned and correct)."""
        return CellView(self, 0)

    @property
    def b(self) -> Mapping[Hashable, int]:
        """Per category, in table order: cell b (assigned, not correct)."""
        return CellView(self, 1)

    @property
    def c(self) -> Mapping[Hashable, int]:
        """Per category, in table order: cell c (correct, not assigned)."""
        return CellView(self, 2)

    # Storage ----------------------------------------------------------------------------------

    def reset(self, declared: Sequence[Hashable]) -> None:
        """Counts of nothing, the ``declared`` categories given codes 0, 1, ..."""
        self._cells: tuple[list[int], list[int], list[int]] = tuple(  # type: ignore[assignment]
            [0] * len(declared) for _ in range(3))
        self.n = self.scale = self.holes = 0
        self.shapes, self.micro = {}, [0, 0, 0, 0]
        self.ids = {label: code for code, label in enumerate(declared)}
        self.names = list(declared)
        self.pairs = PairTable()

    def core_state(self) -> dict[str, Any]:
        """The counts as plain data (pickling, copying; the pairs as ``{key: count}``):
        :meth:`core_restore` takes it."""
        return {"cells": [self._cells[index] for index in range(3)], "n": self.n,
                "scale": self.scale, "shapes": dict(self.shapes), "micro": list(self.micro),
                "ids": dict(self.ids), "names": list(self.names), "holes": self.holes,
                "pairs": self.pairs.to_dict()}

    def core_restore(self, state: dict[str, Any]) -> None:
        """Hold the counts of :meth:`core_state` (its lists and dicts copied, its pairs too)."""
        self._cells = tuple(list(column) for column in state["cells"])  # type: ignore[assignment]
        self.n, self.scale = state["n"], state["scale"]
        self.shapes, self.micro = dict(state["shapes"]), list(state["micro"])
        self.ids, self.names, self.holes = dict(state["ids"]), list(state["names"]), state["holes"]
        self.pairs = PairTable()
        if state["pairs"]:
            self.pairs.add_pairs(CodedPairs.from_dict(state["pairs"]))

    def core_copy_from(self, source: CountsCore) -> None:
        """Hold a copy of ``source``'s counts."""
        self.core_restore(source.core_state())

    def columns(self) -> tuple[list[int], list[int], list[int]]:
        """The cells ``a``, ``b``, ``c`` per category in table order, as lists."""
        return list(self.a.values()), list(self.b.values()), list(self.c.values())

    def hits_and_misses(self) -> tuple[int, int]:
        """The counts of the two single-label shapes, ``HIT`` and ``MISS``."""
        return self.shapes.get(HIT, 0), self.shapes.get(MISS, 0)

    # Primitive writes (Counts.apply checks every change before the first of them) ------------

    def join(self, labels: Sequence[Hashable]) -> None:
        """Append categories new to the table, with zero cells and the next codes."""
        for label in labels:
            self.ids[label] = len(self.names)
            self.names.append(label)
            for column in self._cells:
                column.append(0)

    def add_cells(self, a: Cells, b: Cells, c: Cells) -> tuple[int, int, int]:
        """Add changes to cells ``a``, ``b`` and ``c`` of categories in the table; their sums."""
        ids, added = self.ids, []
        for column, changes in zip(self._cells, (a, b, c)):
            total = 0
            for label, count in changes.items():
                column[ids[label]] += count
                total += count
            added.append(total)
        return added[0], added[1], added[2]

    def add_shapes(self, changes: Mapping[Shape, int]) -> None:
        """Add changes to the result shapes (no zero entry kept)."""
        for shape, count in changes.items():
            count += self.shapes.get(shape, 0)
            if count:
                self.shapes[shape] = count
            else:
                del self.shapes[shape]

    def add_micro(self, a: int, b: int, c: int, d: int) -> None:
        """Add to the micro table's four cells."""
        micro = self.micro
        micro[0] += a
        micro[1] += b
        micro[2] += c
        micro[3] += d

    def forget(self, labels: Iterable[Hashable]) -> None:
        """Forget categories whose every cell is zero: their codes become holes.

        A code is not given again until the codes are made dense again, which
        happens once the holes are half of them (O(K + pairs), rarely).
        """
        for label in labels:
            self.names[self.ids.pop(label)] = HOLE
            self.holes += 1
        if self.holes * 2 > len(self.names):
            renumbered = {label: code for code, label in enumerate(self.ids)}
            self.pairs.renumber(np.fromiter((renumbered.get(label, -1) for label in self.names),
                                            dtype=np.int64, count=len(self.names)))
            self._cells = tuple([column[code] for code in self.ids.values()]  # type: ignore[assignment]
                                for column in self._cells)
            self.ids, self.names, self.holes = renumbered, list(self.ids), 0

    def rescale_counts(self, shift: int) -> None:
        """Every count times ``2**shift`` (``shift < 0``: divided, exactly; the caller knows it is)."""
        def convert(count: int) -> int:
            return count << shift if shift >= 0 else count >> -shift
        self._cells = tuple([convert(count) for count in column]  # type: ignore[assignment]
                            for column in self._cells)
        self.shapes = {shape: convert(count) for shape, count in self.shapes.items()}
        self.pairs.rescale(shift)
        self.n = convert(self.n)
        self.micro = [convert(count) for count in self.micro]
        self.scale += shift

    # The rule for one result ------------------------------------------------------------------

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

    # Reads ------------------------------------------------------------------------------------

    def micro_score(self, name: str, mode: ZeroDivision) -> float:
        """Score ``name`` (a row of the registry; the kernel reads :data:`MICRO_SCORES` in C) of
        the micro table, undefined values as ``mode`` says: the row's scalar form."""
        return TABLE[name].scalar(*self.micro, mode)

    def macro_mean(self, name: str, mode: ZeroDivision) -> float:
        """The mean over the categories of score ``name`` (a row of the registry that reads the
        cells ``a``, ``b`` and ``c``; the kernel keeps :data:`MACRO_SCORES` in C), each
        category's value as ``mode`` says (in ``"nan"`` mode an undefined value is left out, and
        the mean of none is NaN); with no category, :func:`~contingency.formulas._numeric.no_category`.

        Read from the exact running sums of the score (:meth:`macro_sums`): each category's
        value times ``2**128``, summed as integers, the sum rounded once and divided by the
        number of values summed, as :func:`contingency.formulas._numeric.average` computes it.
        """
        if not self.ids:
            return no_category(mode)
        return self.running(_macro_key(name, mode), name, mode).mean()

    def macro_sums(self, name: str, mode: ZeroDivision) -> tuple[int, int] | None:
        """The running sums behind :meth:`macro_mean` of ``name`` in ``mode``, up to date, as
        ``(total, defined)`` (the sum of the defined values times ``2**(128 + scale)``, and how
        many are defined), or ``None`` before a read made them."""
        running = self.sums.get(_macro_key(name, mode))
        if running is None:
            return None
        running.refresh()
        return running.total, running.defined

    def weighted_mean(self, name: str, mode: ZeroDivision) -> float:
        """The mean over the categories of score ``name`` (as :meth:`macro_mean`) weighted by
        their supports ``a + c``, or the plain mean when the supports of the defined values sum
        to zero (as scikit-learn's ``average="weighted"``); the kernel keeps
        :data:`MACRO_SCORES` in C.

        Read from exact running sums (:meth:`weighted_sums`): each value times ``2**128`` times
        its support, summed as integers, rounded once and divided by the supports' sum, as
        :func:`contingency.formulas._numeric.average` computes it.
        """
        if not self.ids:
            return no_category(mode)
        return self.running(_weighted_key(name, mode), name, mode, True).weighted_mean()

    def weighted_sums(self, name: str, mode: ZeroDivision) -> tuple[int, int] | None:
        """The running sums behind :meth:`weighted_mean` of ``name`` in ``mode``, up to date, as
        ``(weighted, weight)`` (the sum of each defined value times ``2**(128 + scale)`` times
        its support, and the sum of those supports), or ``None`` before a read made them."""
        running = self.sums.get(_weighted_key(name, mode))
        if running is None:
            return None
        running.refresh()
        return running.weighted, running.weight

    sums: dict[str, CategorySums]  # (Counts' running sums)

    def running(self, key: str, name: str, mode: Any,
                weighted: bool = False) -> CategorySums:  # (Counts.running)
        raise NotImplementedError


def _macro_key(name: str, mode: ZeroDivision) -> str:
    """Where :meth:`CountsCore.macro_mean` keeps its running sums in ``Counts.sums``."""
    return f"{name} {mode}"


def _weighted_key(name: str, mode: ZeroDivision) -> str:
    """Where :meth:`CountsCore.weighted_mean` keeps its running sums in ``Counts.sums``."""
    return f"weighted {name} {mode}"
