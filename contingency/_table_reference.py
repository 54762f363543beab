"""The pure-Python reference of PartitionComparison's table: the specification the compiled kernel must equal.

Written for clarity, not speed: the cells are a dict keyed by the pair of
labels, the row and column totals dicts keyed by label (their insertion
order is the label order :meth:`~ReferenceTable.cells` reports), and every
running sum a plain Python integer. Every change, a unit step or a batch,
goes through one routine, :meth:`ReferenceTable._change`, after everything
that can fail has been checked. :mod:`contingency._backend` uses it when the
kernel is not built or ``CONTINGENCY_PURE_PYTHON`` is set; the tests run it
beside the kernel on the same streams.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
from numpy.typing import NDArray

from contingency._table import Cells, Table, check_pair
from contingency.formulas._numeric import check_room
from contingency.formulas.partition import (
    FineSums,
    TableSums,
    fine_n_log_n,
    n_log_n_fixed,
    pairs,
    triples,
)

__all__ = ["ReferenceTable"]

#: The levels of a table, the order of every per-level list below.
CELLS, ROWS, COLUMNS = 0, 1, 2


class ReferenceTable(Table):
    """A reference-by-model table and its running sums in dicts and Python integers.

    >>> table = ReferenceTable()
    >>> table.step("cat", 1, 1); table.step("cat", 1, 1); table.step("dog", 1, 1)
    >>> table.n_elements, table.shape, table.cell_map()
    (3, (2, 1), {('cat', 1): 2, ('dog', 1): 1})
    >>> table.table_sums().same_same, table.table_sums().same_model
    (1, 3)
    >>> table.step("dog", 2, -1)
    Traceback (most recent call last):
    ...
    ValueError: remove: no element with reference 'dog' and model 2 to remove
    """

    __slots__ = ("_cells", "_columns", "_fine", "_log", "_maxima", "_pairs", "_rows", "_triples",
                 "_unsure", "n_elements")

    def __init__(self) -> None:
        #: (reference label, model label) -> count, non-empty cells only.
        self._cells: dict[tuple[Hashable, Hashable], int] = {}
        #: Reference (model) label -> row (column) total, non-empty ones only, in arrival order.
        self._rows: dict[Hashable, int] = {}
        self._columns: dict[Hashable, int] = {}
        #: N, the number of elements.
        self.n_elements = 0
        #: Per level (cells, rows, columns): sum C(n, 2), sum C(n, 3), sum n_log_n_fixed(n).
        self._pairs = [0, 0, 0]
        self._triples = [0, 0, 0]
        self._log = [0, 0, 0]
        #: Per level, sum fine_n_log_n(n), once keep_fine_sums() has been called; else None.
        self._fine: list[int] | None = None
        #: Per side (rows, columns), once a read asked for them (maxima_sum): each label's
        #: largest cell, and the labels whose largest cell shrank since (found again by the
        #: next read); else None.
        self._maxima: tuple[dict[Hashable, int], dict[Hashable, int]] | None = None
        self._unsure: tuple[set[Hashable], set[Hashable]] = (set(), set())

    # Changes -------------------------------------------------------------------------------

    def step(self, reference: Hashable, model: Hashable, weight: int) -> None:
        """``weight`` elements labelled ``reference`` and ``model`` (negative: taken back)."""
        if weight > 0:
            check_room(self.n_elements, weight, "elements")
        try:
            known = reference in self._rows and model in self._columns
        except TypeError:  # an unhashable label: check_pair names it
            known = False
        if not known:
            check_pair(reference, model)
        if self._cells.get((reference, model), 0) + weight < 0:
            raise ValueError(f"remove: no element with reference {reference!r} and model "
                             f"{model!r} to remove")
        self._change(reference, model, weight)

    def apply(self, cells: Cells, where: str) -> None:
        """A batch of cells (counts all of one sign), refused whole if any part of it would fail."""
        check_room(self.n_elements, cells.total(), "elements")
        changes = list(cells.triples())
        for reference, model, count in changes:
            have = self._cells.get((reference, model), 0)
            if have + count < 0:
                raise ValueError(f"{where}: cannot remove {-count} element(s) with reference "
                                 f"{reference!r} and model {model!r}: there are {have}")
        # New labels join in the order of the batch's label lists, as the kernel's do.
        for labels, totals in ((cells.row_labels, self._rows), (cells.column_labels, self._columns)):
            for label in labels:
                totals.setdefault(label, 0)
        for reference, model, count in changes:
            self._change(reference, model, count)
        for labels, totals in ((cells.row_labels, self._rows), (cells.column_labels, self._columns)):
            for label in labels:  # a label no cell of the batch used is not kept
                if label in totals and not totals[label]:
                    del totals[label]

    def _change(self, reference: Hashable, model: Hashable, weight: int) -> None:
        """The one write: a cell, its row and its column gain ``weight``, and their sums follow.

        The caller has checked that no count goes below zero or past the limit.
        """
        if not weight:
            return
        for level, counts, key in ((CELLS, self._cells, (reference, model)),
                                   (ROWS, self._rows, reference),
                                   (COLUMNS, self._columns, model)):
            old = counts.get(key, 0)  # type: ignore[call-overload]
            new = old + weight
            self._pairs[level] += pairs(new) - pairs(old)
            self._triples[level] += triples(new) - triples(old)
            self._log[level] += n_log_n_fixed(new) - n_log_n_fixed(old)
            if self._fine is not None:
                self._fine[level] += fine_n_log_n(new) - fine_n_log_n(old)
            if new:
                counts[key] = new  # type: ignore[index]
            else:
                del counts[key]  # type: ignore[arg-type]  # an empty cell or label is forgotten
            if level == CELLS and self._maxima is not None:
                for side, label in ((ROWS - 1, reference), (COLUMNS - 1, model)):
                    largest = self._maxima[side].get(label, 0)
                    if new > largest:
                        self._maxima[side][label] = new
                    elif old == largest and new < old:
                        self._unsure[side].add(label)
        self.n_elements += weight

    def maxima_sum(self, axis: int) -> int:
        """The sum of the largest cell of each row (``axis=1``) or of each column (``axis=0``).

        Kept by :meth:`_change` from the first read on (made then from the cells): a cell that
        grows past its row's largest is the new largest; a row whose largest cell shrank is
        looked at again here, from its cells.
        """
        if self._maxima is None:
            self._maxima = ({}, {})
            for (reference, model), count in self._cells.items():
                for side, label in ((0, reference), (1, model)):
                    if count > self._maxima[side].get(label, 0):
                        self._maxima[side][label] = count
        side = 1 if axis == 0 else 0
        maxima, unsure = self._maxima[side], self._unsure[side]
        if unsure:
            for label in unsure:
                maxima.pop(label, None)
            for pair, count in self._cells.items():
                label = pair[side]
                if label in unsure and count > maxima.get(label, 0):
                    maxima[label] = count
            unsure.clear()
        return sum(maxima.values())

    def keep_fine_sums(self) -> None:
        """From now on keep the fine ``n ln n`` sums too (computed here from the counts)."""
        if self._fine is None:
            self._fine = [sum(fine_n_log_n(n) for n in counts.values())
                          for counts in (self._cells, self._rows, self._columns)]

    def copy(self) -> ReferenceTable:
        """An independent table with the same counts and sums."""
        other = ReferenceTable()
        other._cells, other._rows, other._columns = (dict(self._cells), dict(self._rows),
                                                     dict(self._columns))
        other.n_elements = self.n_elements
        other._pairs, other._triples, other._log = (list(self._pairs), list(self._triples),
                                                    list(self._log))
        other._fine = None if self._fine is None else list(self._fine)
        return other

    # Reads ---------------------------------------------------------------------------------

    @property
    def n_rows(self) -> int:
        """Non-empty rows (reference clusters)."""
        return len(self._rows)

    @property
    def n_columns(self) -> int:
        """Non-empty columns (model clusters)."""
        return len(self._columns)

    def n_cells(self) -> int:
        """Non-empty cells."""
        return len(self._cells)

    def table_sums(self) -> TableSums:
        """The sums the pair-counting and information scores take."""
        return TableSums(self.n_elements, len(self._rows), len(self._columns), *self._pairs,
                         *self._log)

    def triple_sums(self) -> tuple[int, int, int]:
        """``sum C(n, 3)`` over the cells, the rows and the columns."""
        cells, rows, columns = self._triples
        return cells, rows, columns

    def fine_sums(self) -> FineSums | None:
        """The fine ``n ln n`` sums, or None until :meth:`keep_fine_sums`."""
        return None if self._fine is None else FineSums(*self._fine)

    def cells(self) -> Cells:
        """The non-empty cells, labels in arrival order, by row then column in that order."""
        row_code = {label: code for code, label in enumerate(self._rows)}
        column_code = {label: code for code, label in enumerate(self._columns)}
        found = sorted((row_code[reference], column_code[model], count)
                       for (reference, model), count in self._cells.items())
        rows, columns, counts = ([part[i] for part in found] for i in range(3))
        return Cells(list(self._rows), list(self._columns), np.array(rows, dtype=np.int64),
                     np.array(columns, dtype=np.int64), np.array(counts, dtype=np.int64))

    def pickled(self) -> tuple[list[Hashable], list[Hashable], list[tuple[Hashable, Hashable, int]]]:
        """:meth:`Table.pickled <contingency._table.Table.pickled>`, read from the dicts."""
        return (list(self._rows), list(self._columns),
                [(reference, model, count) for (reference, model), count in self._cells.items()])

    def row_totals(self) -> NDArray[np.int64]:
        """The row totals, in the order of :meth:`cells`' row labels."""
        return np.array(list(self._rows.values()), dtype=np.int64)

    def column_totals(self) -> NDArray[np.int64]:
        """The column totals, in the order of :meth:`cells`' column labels."""
        return np.array(list(self._columns.values()), dtype=np.int64)
