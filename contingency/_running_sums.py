"""The exact running sums that make partition scores O(1): sums of C(n, 2), C(n, 3) and n ln n per level.

PartitionComparison's table (:class:`contingency._table.Table`, on the compiled
kernel or its pure-Python reference) keeps these sums itself; this module is
their packed form and their recomputation from scratch, which the tests
compare the table's sums with (``PartitionComparison._sums``), and the
argument why a running sum never drifts.

A contingency table has three levels: its cells, its rows (reference
clusters) and its columns (model clusters). Every pair-counting and
information score depends on the table only through two sums per level
(:class:`contingency.formulas.partition.TableSums`):

- ``sum C(n, 2)``, the pairs of elements inside a cell or cluster;
- ``sum n ln n``, as the exact integer ``sum n_log_n_fixed(n)``
  (:func:`contingency.formulas.partition.n_log_n_fixed`, ``fl(n ln n) 2**52``);

and the significance of the adjusted Rand index
(:func:`contingency.formulas.partition.ari_significance`) on a third, of the
rows and columns:

- ``sum C(n, 3)``, the triples of elements inside a cluster.

Each level's three sums are packed into ONE Python integer: the pair sum in
the low :data:`PAIR_BITS` bits, the triple sum in the :data:`TRIPLE_BITS`
above them, the ``n ln n`` sum above both (from bit :data:`LOG_SHIFT`). The
pair part stays below ``2**128`` and the triple part below ``2**192``
because the number of elements stays below ``2**63``
(:data:`contingency.formulas._numeric.MAX_COUNT`), so the parts never mix,
and a step of all three is a single integer addition. (The cells' triple sum
is kept too, unread: one packing for every level keeps the step one table
look-up per level.)

Why the sums never drift: when a cell or cluster of ``n`` elements gains
``w``, its terms change by ``C(n + w, 2) - C(n, 2)``, ``C(n + w, 3) - C(n, 3)``
and ``F(n + w) - F(n)`` (``F = n_log_n_fixed``), all exact integers. So a
running sum is at every moment *equal* to the sum recomputed from the table
(:func:`packed_sum`), after any number of updates, in any order: a merged
accumulator has bit for bit the sums of one that saw both streams.

Fine sums (:class:`FineRunningSums`). Where the float ``n ln n`` terms cannot
settle an information read (partitions near independence), the same three
levels also keep ``sum n ln n`` in units of ``2**-128``
(:func:`contingency.formulas.partition.fine_n_log_n`, exact integers again, so
the same argument holds). They cost more per step, so an accumulator starts
without them and switches them on at the first read that needs them
(:meth:`FineRunningSums.switched_on`, O(distinct counts)); from then on the
same steps keep them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import attrs
import numpy as np
from numpy.typing import ArrayLike

from contingency.formulas._numeric import distinct_counts
from contingency.formulas.partition import (
    FineSums,
    TableSums,
    fine_n_log_n_sum,
    fine_step,
    n_log_n_fixed,
    pairs,
    triples,
)

__all__ = ["LOG_SHIFT", "PAIR_BITS", "TRIPLE_BITS", "FineRunningSums", "RunningSums",
           "fine_unit_step", "packed_step", "packed_sum", "unit_step"]

#: Bits of a packed sum holding ``sum C(n, 2)`` (below ``2**125`` for N below ``2**63``).
PAIR_BITS = 128
#: Bits above them holding ``sum C(n, 3)`` (below ``2**187``).
TRIPLE_BITS = 192
#: Where ``sum n ln n`` (fixed point) starts: above the pair and triple sums.
LOG_SHIFT = PAIR_BITS + TRIPLE_BITS
_PAIR_MASK = (1 << PAIR_BITS) - 1
_TRIPLE_MASK = (1 << TRIPLE_BITS) - 1
_new_tuple = tuple.__new__
#: Unit steps are tabulated for counts below this; larger counts compute their step.
_UNIT_LIMIT = 1 << 16


def packed_step(n: int, weight: int) -> int:
    """The change of a packed sum when a cell or cluster of ``n`` elements gains ``weight`` (may be < 0).

    >>> packed_step(2, 1) == (n_log_n_fixed(3) - n_log_n_fixed(2) << LOG_SHIFT) + (1 << PAIR_BITS) + 2
    True
    >>> packed_step(3, -1) == -packed_step(2, 1)
    True
    """
    new = n + weight
    return (((n_log_n_fixed(new) - n_log_n_fixed(n)) << LOG_SHIFT)
            + ((triples(new) - triples(n)) << PAIR_BITS) + (pairs(new) - pairs(n)))


#: ``_UNIT[n] == packed_step(n, 1)``, grown on demand up to ``_UNIT_LIMIT`` entries.
_UNIT: list[int] = []


def unit_step(n: int) -> int:
    """``packed_step(n, 1)``, read from a table grown on demand for ``n`` below ``2**16``.

    The table is replaced, never appended to in place, so a reader holding the
    old list never sees it half-built.

    >>> unit_step(5) == packed_step(5, 1), unit_step(2**20) == packed_step(2**20, 1)
    (True, True)
    """
    global _UNIT
    if n >= _UNIT_LIMIT:
        return packed_step(n, 1)
    table = _UNIT
    start = len(table)
    if n >= start:
        stop = min(_UNIT_LIMIT, max(2 * start, n + 1, 1024))
        grown = list(table)
        previous = n_log_n_fixed(start)
        for k in range(start, stop):
            following = n_log_n_fixed(k + 1)
            # C(k + 1, 3) - C(k, 3) = C(k, 2) and C(k + 1, 2) - C(k, 2) = k.
            grown.append(((following - previous) << LOG_SHIFT) + (k * (k - 1) // 2 << PAIR_BITS)
                         + k)
            previous = following
        _UNIT = table = grown
    return table[n]


def packed_sum(counts: ArrayLike) -> int:
    """The packed sum of a level recomputed from its counts (zeros allowed): the from-scratch value.

    Equal counts are grouped, so the work is one :func:`n_log_n_fixed` per
    distinct count, whatever the size of the table. A list of Python ints (a
    change of a few cells) is grouped by Python, anything else by numpy.

    >>> packed_sum([3, 1, 2, 0]) == (((n_log_n_fixed(3) + n_log_n_fixed(2)) << LOG_SHIFT)
    ...                              + (1 << PAIR_BITS) + 4)
    True
    """
    grouped: Iterable[tuple[int, int]]
    if isinstance(counts, list):  # a small change, as Python ints: no numpy call is cheaper
        grouped = Counter(count for count in counts if count > 1).items()
    else:
        values = np.asarray(counts).ravel()
        values = values[values > 1]  # counts 0 and 1 add nothing to either sum
        if values.size == 0:
            return 0
        distinct, multiplicity = distinct_counts(values)
        grouped = zip(distinct.tolist(), multiplicity.tolist())
    return sum(m * ((n_log_n_fixed(v) << LOG_SHIFT) + (triples(v) << PAIR_BITS) + pairs(v))
               for v, m in grouped)


@attrs.define(eq=True, repr=False)
class RunningSums:
    """The three packed sums of a table (cells, rows, columns), stepped as the table changes.

    >>> sums = RunningSums()
    >>> sums.step(0, 0, 0, 1); sums.step(1, 1, 1, 1)   # two elements in one cell
    >>> sums.table_sums(2, 1, 1).same_same
    1
    >>> sums == RunningSums.from_counts([2], [2], [2])
    True
    """

    cells: int = 0
    rows: int = 0
    columns: int = 0

    @classmethod
    def from_counts(cls, cells: ArrayLike, rows: ArrayLike, columns: ArrayLike) -> RunningSums:
        """The sums recomputed from a table's cell counts and its row and column totals."""
        return cls(packed_sum(cells), packed_sum(rows), packed_sum(columns))

    def step(self, cell: int, row: int, column: int, weight: int) -> None:
        """A cell holding ``cell`` elements, in a row and column of those totals, gains ``weight``.

        A removal (``weight < 0``) has been checked by the caller: no count goes below zero.
        """
        unit = _UNIT
        if weight == 1:
            try:  # a cell never holds more than its row or its column
                cell_step, row_step, column_step = unit[cell], unit[row], unit[column]
            except IndexError:  # beyond the table so far: it grows (or the step is computed)
                cell_step, row_step, column_step = unit_step(cell), unit_step(row), unit_step(column)
        elif weight == -1:  # the unit step from n - 1 to n, taken back
            try:
                cell_step, row_step, column_step = unit[cell - 1], unit[row - 1], unit[column - 1]
            except IndexError:
                cell_step, row_step, column_step = (unit_step(cell - 1), unit_step(row - 1),
                                                    unit_step(column - 1))
            self.cells -= cell_step
            self.rows -= row_step
            self.columns -= column_step
            return
        else:
            cell_step = packed_step(cell, weight)
            row_step = packed_step(row, weight)
            column_step = packed_step(column, weight)
        self.cells += cell_step
        self.rows += row_step
        self.columns += column_step

    def step_levels(self, before: tuple[ArrayLike, ArrayLike, ArrayLike],
                    after: tuple[ArrayLike, ArrayLike, ArrayLike]) -> None:
        """Many counts changed at once: each level's sum gains ``packed_sum(after) - packed_sum(before)``.

        ``before`` and ``after`` hold (cells, rows, columns) counts of the
        changed cells, rows and columns (or of the whole table: unchanged
        entries cancel).
        """
        self.cells += packed_sum(after[0]) - packed_sum(before[0])
        self.rows += packed_sum(after[1]) - packed_sum(before[1])
        self.columns += packed_sum(after[2]) - packed_sum(before[2])

    def table_sums(self, n_elements: int, n_rows: int, n_columns: int) -> TableSums:
        """The sums unpacked, with the table's size, as the formulas take them."""
        cells, rows, columns = self.cells, self.rows, self.columns
        # tuple.__new__ with the fields in order is what TableSums(...) does, without the
        # Python frame of the NamedTuple's generated __new__ (a third of this call's cost).
        return _new_tuple(TableSums, (n_elements, n_rows, n_columns,
                                      cells & _PAIR_MASK, rows & _PAIR_MASK, columns & _PAIR_MASK,
                                      cells >> LOG_SHIFT, rows >> LOG_SHIFT, columns >> LOG_SHIFT))

    def fine_sums(self) -> FineSums | None:
        """None: these sums keep no fine ``n ln n`` sums (:class:`FineRunningSums` does)."""
        return None

    def margin_triples(self) -> tuple[int, int]:
        """``sum C(a, 3)`` over the rows and ``sum C(b, 3)`` over the columns, unpacked.

        >>> RunningSums.from_counts([3, 1], [4], [3, 1]).margin_triples()
        (4, 1)
        """
        return (self.rows >> PAIR_BITS & _TRIPLE_MASK, self.columns >> PAIR_BITS & _TRIPLE_MASK)


#: ``_FINE_UNIT[n] == fine_step(n, 1)``, memoised (forgotten all at once past _FINE_UNIT_LIMIT
#: entries; cleared in place, so a reader holding the dictionary keeps a valid one).
_FINE_UNIT: dict[int, int] = {}
_FINE_UNIT_LIMIT = 1 << 14


def fine_unit_step(n: int) -> int:
    """``fine_step(n, 1)``, memoised: the fine step of the unit paths.

    >>> fine_unit_step(5) == fine_step(5, 1), fine_unit_step(2**40) == fine_step(2**40, 1)
    (True, True)
    """
    step = fine_step(n, 1)
    if len(_FINE_UNIT) >= _FINE_UNIT_LIMIT:
        _FINE_UNIT.clear()
    _FINE_UNIT[n] = step
    return step


@attrs.define(eq=True, repr=False)
class FineRunningSums(RunningSums):
    """:class:`RunningSums` with the fine ``n ln n`` sums of the three levels too, stepped alike.

    >>> sums = FineRunningSums.switched_on(RunningSums(), [], [], [])
    >>> sums.step(0, 0, 0, 1); sums.step(1, 1, 1, 1)   # two elements in one cell
    >>> sums.fine_sums() == FineRunningSums.switched_on(RunningSums(), [2], [2], [2]).fine_sums()
    True
    """

    fine_cells: int = 0
    fine_rows: int = 0
    fine_columns: int = 0

    @classmethod
    def switched_on(cls, sums: RunningSums, cells: ArrayLike, rows: ArrayLike,
                    columns: ArrayLike) -> FineRunningSums:
        """``sums`` with fine sums recomputed from the table's cell counts, row and column totals."""
        return cls(sums.cells, sums.rows, sums.columns, fine_n_log_n_sum(cells),
                   fine_n_log_n_sum(rows), fine_n_log_n_sum(columns))

    def step(self, cell: int, row: int, column: int, weight: int) -> None:
        RunningSums.step(self, cell, row, column, weight)
        if weight == 1 or weight == -1:
            if weight == -1:  # the unit step from n - 1 to n, taken back
                cell, row, column = cell - 1, row - 1, column - 1
            unit = _FINE_UNIT
            try:
                cell_step, row_step, column_step = unit[cell], unit[row], unit[column]
            except KeyError:
                cell_step, row_step = fine_unit_step(cell), fine_unit_step(row)
                column_step = fine_unit_step(column)
            if weight == -1:
                cell_step, row_step, column_step = -cell_step, -row_step, -column_step
        else:
            cell_step, row_step = fine_step(cell, weight), fine_step(row, weight)
            column_step = fine_step(column, weight)
        self.fine_cells += cell_step
        self.fine_rows += row_step
        self.fine_columns += column_step

    def step_levels(self, before: tuple[ArrayLike, ArrayLike, ArrayLike],
                    after: tuple[ArrayLike, ArrayLike, ArrayLike]) -> None:
        RunningSums.step_levels(self, before, after)
        self.fine_cells += fine_n_log_n_sum(after[0]) - fine_n_log_n_sum(before[0])
        self.fine_rows += fine_n_log_n_sum(after[1]) - fine_n_log_n_sum(before[1])
        self.fine_columns += fine_n_log_n_sum(after[2]) - fine_n_log_n_sum(before[2])

    def fine_sums(self) -> FineSums:
        """The fine sums as the formulas take them."""
        return _new_tuple(FineSums, (self.fine_cells, self.fine_rows, self.fine_columns))
