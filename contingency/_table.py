"""Sparse tables of label pairs behind one interface each, whatever their storage.

Two accumulators count pairs of labels, each in one table of this module:

- :class:`Table`, a :class:`~contingency.PartitionComparison`'s
  reference-by-model table with its running sums, keyed by label: the
  interface and the reads written once on it; its two implementations, the
  pure-Python reference (:mod:`contingency._table_reference`) and the
  compiled kernel (contingency/_kernel.pyx), live beside it and
  :mod:`contingency._backend` picks one. :func:`count_cells` counts two
  label sequences into :class:`Cells`, the non-empty cells of their table:
  the batch form every table change takes.
- :class:`PairTable`, a :class:`~contingency.Contingency`'s single-label
  results by pair of category codes (its confusion matrix, sparse), keyed
  ``row << PAIR_SHIFT | column``: sorted int64 keys and exact counts, with
  the changes given in bulk (:class:`CodedPairs`) and those written one pair
  at a time held apart until a read or their number calls for one merge.
  The labels of the codes are its owner's (:mod:`contingency._counts`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from contingency._coding import Codes, encode
from contingency._inputs import check_same_length, check_weights, label_sequence
from contingency._labels import check_label, sorted_labels
from contingency.formulas import partition as _formulas
from contingency.formulas._numeric import INT64_MAX, count_codes, dense_is_cheaper

if TYPE_CHECKING:
    from contingency.formulas.partition import FineSums, TableSums

__all__ = ["PAIR_LOW", "PAIR_SHIFT", "Cells", "CodedPairs", "PairTable", "SortedCells", "Table",
           "check_pair", "count_cells"]

Counts = NDArray[Any]  # int64, or object (Python ints) for huge weights in a batch
#: Sorted row labels, sorted column labels, and the cells as ``rows, columns, counts``, the
#: first two positions into the labels (:meth:`Table.sorted_cells`).
SortedCells = tuple[tuple[Hashable, ...], tuple[Hashable, ...], NDArray[np.int64],
                    NDArray[np.int64], NDArray[np.int64]]


class Cells:
    """Cells of a table as arrays: ``counts[i]`` elements in row ``rows[i]``, column ``columns[i]``.

    ``rows`` and ``columns`` index ``row_labels`` and ``column_labels``. As a
    table's cells: no zero count, no repeated cell, every label used. As a
    change (a batch): the same, with counts of one sign (negative to remove).
    ``row_totals`` and ``column_totals``, when known, are the sums of the
    counts per row and column label (a dense count has them for free).

    A batch counted in a dense table knows each cell by its position
    ``row * width + column`` (:meth:`from_keys`); the row and column arrays
    are then worked out only if something reads them (building a table from
    a batch and reading its scores never does).

    >>> cells = Cells.from_keys(["a", "b"], [1, 2, 3], np.array([1, 3]), 3, np.array([5, 2]))
    >>> cells.rows.tolist(), cells.columns.tolist(), list(cells.triples())
    ([0, 1], [1, 0], [('a', 2, 5), ('b', 1, 2)])
    """

    __slots__ = ("_columns", "_counts", "_keys", "_rows", "_table", "_width", "column_labels",
                 "column_totals", "row_labels", "row_totals")

    def __init__(self, row_labels: list[Hashable], column_labels: list[Hashable], rows: Codes,
                 columns: Codes, counts: Counts, row_totals: NDArray[np.int64] | None = None,
                 column_totals: NDArray[np.int64] | None = None) -> None:
        self.row_labels, self.column_labels = row_labels, column_labels
        self._counts: Counts | None = counts
        self._rows: Codes | None = rows
        self._columns: Codes | None = columns
        self._keys: Codes | None = None
        self._table: Counts | None = None
        self._width = 0
        self.row_totals, self.column_totals = row_totals, column_totals

    @classmethod
    def from_keys(cls, row_labels: list[Hashable], column_labels: list[Hashable], keys: Codes,
                  width: int, counts: Counts, row_totals: NDArray[np.int64] | None = None,
                  column_totals: NDArray[np.int64] | None = None) -> Cells:
        """Cells known by their positions ``row * width + column``."""
        cells = cls(row_labels, column_labels, keys, keys, counts, row_totals, column_totals)
        cells._rows = cells._columns = None
        cells._keys, cells._width = keys, width
        return cells

    @classmethod
    def from_table(cls, row_labels: list[Hashable], column_labels: list[Hashable],
                   table: Counts, width: int, row_totals: NDArray[np.int64],
                   column_totals: NDArray[np.int64]) -> Cells:
        """The cells of a dense count of every label, ``table[row * width + column]`` (1-d, no
        count negative): their positions and counts are made when first read, and the kernel's
        table reads the dense count itself (:meth:`dense_count`).

        >>> cells = Cells.from_table(["a", "b"], [1, 2], np.array([0, 4, 3, 0]), 2,
        ...                          np.array([4, 3]), np.array([3, 4]))
        >>> len(cells), cells.total(), list(cells.triples())
        (2, 7, [('a', 2, 4), ('b', 1, 3)])
        """
        cells = cls(row_labels, column_labels, table, table, table, row_totals, column_totals)
        cells._rows = cells._columns = cells._counts = None
        cells._table, cells._width = table, width
        return cells

    @property
    def counts(self) -> Counts:
        """The count of each cell."""
        if self._counts is None:
            self._unpack()
        assert self._counts is not None
        return self._counts

    def _unpack(self) -> None:
        """The positions and counts of the non-empty cells of a dense count."""
        assert self._table is not None
        self._keys = np.flatnonzero(self._table)
        self._counts = self._table[self._keys].astype(np.int64, copy=False)  # (int32: dense_count)
        self._table = None

    def dense_count(self) -> tuple[Counts, int] | None:
        """The dense count and its width (:meth:`from_table`) while its counts are int64 (or
        int32: :func:`count_cells`' own count) and their arrays not made, else None."""
        if (self._counts is None and self._table is not None
                and self._table.dtype in (np.int64, np.int32)):
            return self._table, self._width
        return None

    @property
    def rows(self) -> Codes:
        """The row code of each cell."""
        if self._rows is None:
            if self._keys is None:
                self._unpack()
            assert self._keys is not None
            self._rows = self._keys // self._width
        return self._rows

    @property
    def columns(self) -> Codes:
        """The column code of each cell."""
        if self._columns is None:
            if self._keys is None:
                self._unpack()
            assert self._keys is not None
            self._columns = self._keys - self.rows * self._width  # cheaper than % or divmod
        return self._columns

    def __len__(self) -> int:
        if self._counts is None:
            assert self._table is not None
            return int(np.count_nonzero(self._table))
        return len(self._counts)

    def triples(self) -> Iterator[tuple[Hashable, Hashable, int]]:
        """``(row label, column label, count)`` per cell."""
        rows, columns = self.row_labels, self.column_labels
        for row, column, count in zip(self.rows.tolist(), self.columns.tolist(),
                                      self.counts.tolist()):
            yield rows[row], columns[column], count

    def with_counts(self, counts: Counts) -> Cells:
        """The same cells holding ``counts`` instead (totals not carried over)."""
        if self._counts is None:
            self._unpack()
        if self._keys is not None:
            return Cells.from_keys(self.row_labels, self.column_labels, self._keys, self._width,
                                   counts)
        return Cells(self.row_labels, self.column_labels, self.rows, self.columns, counts)

    def negated(self) -> Cells:
        """The same cells with opposite counts: the change that takes them away."""
        return self.with_counts(-self.counts)

    def total(self) -> int:
        """The exact sum of the counts."""
        if self._counts is None and self._table is not None and self.row_totals is not None:
            return _total(self.row_totals)  # (a dense count: its K row totals, not its K x K table)
        return _total(self.counts if self._counts is not None or self._table is None
                      else self._table)


_EMPTY = Cells([], [], np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))


def count_cells(reference_labels: object, model_labels: object, weights: object = None, *,
                where: str, names: tuple[str, str] = ("reference_labels", "model_labels"),
                weights_name: str = "weights") -> Cells:
    """Count two label sequences (one element per position) into the non-empty cells of their table.

    ``weights[i]`` elements for position ``i`` if given. Every input is
    checked first; errors name the two label arguments by ``names`` and the
    weights as ``where: weights[i]`` (``weights_name`` for ``weights``). Integer arrays with small ranges are
    counted with one ``bincount``; other labels are coded with
    :func:`contingency._coding.encode` first.

    >>> cells = count_cells(["a", "a", "b"], [1, 2, 2], where="add_many")
    >>> sorted(cells.triples())
    [('a', 1, 1), ('a', 2, 1), ('b', 2, 1)]
    >>> count_cells([1, 2], [1], where="f", names=("y_true", "y_pred"))
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths (2 and 1)
    """
    reference_name, model_name = names
    reference = label_sequence(reference_labels, reference_name)
    model = label_sequence(model_labels, model_name)
    size = check_same_length(reference, model, names)
    multiplicity = check_weights(weights, size, where, weights_name)
    if isinstance(reference, np.ndarray) and isinstance(model, np.ndarray):
        dense = _count_integer_ranges(reference, model, multiplicity)
        if dense is not None:
            return dense
    rows, row_labels = encode(reference, reference_name)
    columns, column_labels = encode(model, model_name)
    width = max(len(column_labels), 1)
    keys = rows * width + columns
    if multiplicity is None and dense_is_cheaper(len(row_labels) * width, size):
        counts = np.bincount(keys, minlength=len(row_labels) * width)
        keys = np.flatnonzero(counts != 0)
        counts = counts[keys]
    else:
        keys, counts = _aggregate(keys, np.ones(size, np.int64) if multiplicity is None
                                  else multiplicity)
    return _compact(Cells.from_keys(row_labels, column_labels, keys, width, counts))


#: Below this many labels a dense count's cells fit int32 (:func:`dense_count_reference`).
_NARROW_LIMIT = 2**31


def label_ranges_reference(reference: NDArray[np.int64], model: NDArray[np.int64]
                           ) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(min, max)`` of ``reference``, then of ``model`` (int64 arrays, not empty).

    >>> label_ranges_reference(np.array([3, -1, 2]), np.array([0, 0, 9]))
    ((-1, 3), (0, 9))
    """
    return (int(reference.min()), int(reference.max())), (int(model.min()), int(model.max()))


def dense_count_reference(reference: NDArray[np.int64], model: NDArray[np.int64], low_r: int,
                          low_m: int, height: int, width: int
                          ) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """The dense count of two int64 label arrays of fewer than 2**31 labels, within ``low_r ..
    low_r + height - 1`` and ``low_m .. low_m + width - 1``: ``table[(r - low_r) * width + (m -
    low_m)]`` in int32 (no cell can reach 2**31), and the row and column totals (int64).

    The specification of the kernel's ``dense_count``, which counts in one pass into half the
    memory of this ``bincount`` (tests/test_kernel.py compares the two).

    >>> table, rows, columns = dense_count_reference(np.array([1, 1, 2]), np.array([5, 6, 6]),
    ...                                              1, 5, 2, 2)
    >>> table.tolist(), table.dtype.name, rows.tolist(), columns.tolist()
    ([1, 1, 0, 1], 'int32', [2, 1], [1, 2])
    """
    keys = np.subtract(reference, low_r, dtype=np.int64)
    keys *= width
    keys += model
    keys -= low_m
    square = np.bincount(keys, minlength=height * width).reshape(height, width)
    return square.ravel().astype(np.int32), square.sum(axis=1), square.sum(axis=0)


label_ranges: Callable[[NDArray[np.int64], NDArray[np.int64]],
                       tuple[tuple[int, int], tuple[int, int]]] = label_ranges_reference
dense_count: Callable[[NDArray[np.int64], NDArray[np.int64], int, int, int, int],
                      tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]]
dense_count = dense_count_reference


def use_dense_steps(ranges: Callable[..., Any], count: Callable[..., Any]) -> None:
    """Count int64 label arrays with ``ranges`` and ``count`` (:mod:`contingency._backend` gives
    the kernel's ``label_ranges`` and ``dense_count``; the references are the default)."""
    global label_ranges, dense_count  # (the one switch, made at import)
    label_ranges, dense_count = ranges, count


def _count_integer_ranges(reference: NDArray[Any], model: NDArray[Any],
                          multiplicity: Counts | None) -> Cells | None:
    """Integer label arrays counted straight into a dense table when their ranges are small.

    No coding step: one count over ``(r - min r) * width + (m - min m)``,
    then the non-empty cells are read out and unused rows and columns dropped.
    Two int64 arrays without weights (the common case) are counted by
    :func:`label_ranges` and :func:`dense_count` (int32 counts, in C on the
    kernel); other integer arrays by numpy's ``bincount``.
    ``None`` when it does not apply.
    """
    if not (reference.dtype.kind in "iu" and model.dtype.kind in "iu" and reference.size
            and (multiplicity is None or multiplicity.dtype != object)):
        return None
    narrow = (multiplicity is None and reference.dtype == np.int64 and model.dtype == np.int64
              and reference.size < _NARROW_LIMIT)
    if narrow:
        reference, model = np.ascontiguousarray(reference), np.ascontiguousarray(model)
        (low_r, high_r), (low_m, high_m) = label_ranges(reference, model)
    else:
        low_r, high_r = int(reference.min()), int(reference.max())
        low_m, high_m = int(model.min()), int(model.max())
    height, width = high_r - low_r + 1, high_m - low_m + 1
    if max(high_r, high_m) > INT64_MAX or not dense_is_cheaper(height * width, reference.size):
        return None
    table: Counts  # int32 from dense_count, int64 from bincount
    if narrow:
        table, row_totals, column_totals = dense_count(reference, model, low_r, low_m, height,
                                                       width)
    else:
        # (r - low_r) * width + (m - low_m) in one new array: two passes when both lows are 0
        # (every intermediate below height * width, a small table's size: no int64 overflow).
        if low_r:
            keys = np.subtract(reference, low_r, dtype=np.int64)
            keys *= width
        else:
            keys = np.multiply(reference, width, dtype=np.int64)
        keys += model.astype(np.int64, copy=False)
        if low_m:
            keys -= low_m
        if multiplicity is None:
            table = np.bincount(keys, minlength=height * width)
        else:
            cell_keys, cell_counts = _aggregate(keys, multiplicity)
            table = np.zeros(height * width, dtype=np.int64)
            table[cell_keys] = cell_counts
        square = table.reshape(height, width)
        row_totals, column_totals = square.sum(axis=1), square.sum(axis=0)
    used_rows = np.flatnonzero(row_totals != 0)
    used_columns = np.flatnonzero(column_totals != 0)
    row_labels = (used_rows + low_r).tolist()
    column_labels = (used_columns + low_m).tolist()
    if len(used_rows) == height and len(used_columns) == width and multiplicity is None:
        # (a count: no count negative) the dense count as it is, read by the kernel in C
        return Cells.from_table(row_labels, column_labels, table, width, row_totals,
                                column_totals)
    keys = np.flatnonzero(table != 0)
    counts = table[keys].astype(np.int64, copy=False)
    if len(used_rows) == height and len(used_columns) == width:
        return Cells.from_keys(row_labels, column_labels, keys, width, counts, row_totals,
                               column_totals)
    cells = Cells.from_keys(row_labels, column_labels, keys, width, counts)
    return Cells(row_labels, column_labels, _renumber(cells.rows, used_rows, height),
                 _renumber(cells.columns, used_columns, width), counts,
                 row_totals[used_rows], column_totals[used_columns])


def _renumber(codes: Codes, used: Codes, size: int) -> Codes:
    """``codes`` (all in ``used``, sorted) renumbered ``0..len(used)-1``."""
    if len(used) == size:
        return codes
    lookup = np.zeros(size, dtype=np.int64)
    lookup[used] = np.arange(len(used))
    renumbered: Codes = lookup[codes]
    return renumbered


def _aggregate(keys: Codes, multiplicity: Counts) -> tuple[Codes, Counts]:
    """Distinct keys, sorted, and the exact sum of the multiplicities of each."""
    if multiplicity.dtype == object:
        sums: dict[int, int] = {}
        for key, count in zip(keys.tolist(), multiplicity.tolist()):
            sums[key] = sums.get(key, 0) + count
        distinct = sorted(sums)
        totals = np.empty(len(distinct), dtype=object)
        totals[:] = [sums[key] for key in distinct]
        return np.array(distinct, dtype=np.int64), totals
    if keys.size == 0:
        return keys, multiplicity.astype(np.int64)
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    return ordered[starts], np.add.reduceat(multiplicity.astype(np.int64)[order], starts)


def _compact(cells: Cells) -> Cells:
    """Drop empty cells and the labels no cell uses any more."""
    keep = np.flatnonzero(np.asarray(cells.counts != 0))
    if keep.size == len(cells.counts) and (
            len(np.unique(cells.rows)) == len(cells.row_labels)
            and len(np.unique(cells.columns)) == len(cells.column_labels)):
        return cells
    rows, columns, counts = cells.rows[keep], cells.columns[keep], cells.counts[keep]
    used_rows, rows = np.unique(rows, return_inverse=True)
    used_columns, columns = np.unique(columns, return_inverse=True)
    return Cells([cells.row_labels[i] for i in used_rows.tolist()],
                 [cells.column_labels[i] for i in used_columns.tolist()],
                 rows.astype(np.int64).ravel(), columns.astype(np.int64).ravel(), counts)


def _total(counts: Counts) -> int:
    return sum(counts.tolist()) if counts.dtype == object else int(counts.sum())


def _group_maxima(groups: Codes, counts: Counts, size: int) -> NDArray[np.int64]:
    result = np.zeros(size, dtype=np.int64)
    np.maximum.at(result, groups, counts.astype(np.int64))
    return result


class _CellsNeeded(Exception):
    """A score asked for the table's cells: its sums do not settle it (:meth:`Table._without_cells`)."""


def _cells_needed() -> _formulas.TableCells:
    raise _CellsNeeded


def check_pair(row: object, column: object) -> None:
    """Refuse a reference or model label that cannot name a cluster, naming which (see check_label)."""
    check_label(row, "reference")
    check_label(column, "model")


class Table:
    """The reference-by-model table of a PartitionComparison with its running sums: one interface.

    Rows are the clusters of the *reference* partition, columns those of the
    *model* partition; a cell counts the elements with that pair of labels.
    Only non-empty cells, rows and columns are kept: a label whose count
    returns to zero is forgotten. With the counts, a table keeps ``N`` and,
    per level (cells, rows, columns), the exact sums ``sum C(n, 2)``,
    ``sum C(n, 3)`` and ``sum n_log_n_fixed(n)`` (see
    :mod:`contingency._running_sums` for why they never drift), and from
    :meth:`keep_fine_sums` on the fine ``n ln n`` sums too.

    Two implementations hold exactly the same state after every change:
    :class:`contingency._table_reference.ReferenceTable` (plain Python, the
    specification) and the compiled kernel (contingency/_kernel.pyx);
    :mod:`contingency._backend` picks one. Each provides the changes and the
    primitive reads:

    - ``step(reference, model, weight)``: ``weight`` elements (negative to take
      them back) with these labels; labels are checked when new, the count
      limit and the removal of elements that are not there refused, and
      either way nothing changes;
    - ``apply(cells, where)``: a batch of :class:`Cells` (counts of one sign),
      refused whole (errors prefixed ``where``) if it would pass the count
      limit or remove elements that are not there; its new labels join in
      the order of its label lists;
    - ``n_elements``, ``n_rows``, ``n_columns``, ``n_cells()``;
      ``table_sums()`` (:class:`~contingency.formulas.partition.TableSums`),
      ``triple_sums()`` (``sum C(n, 3)`` of cells, rows, columns),
      ``fine_sums()`` (None until :meth:`keep_fine_sums`);
    - ``maxima_sum(axis)``: the sum of the largest cell of each column (``axis=0``) or row
      (``axis=1``), as :meth:`maxima` gives them; the reference keeps it from its first read
      on (a row whose largest cell shrank looked at again by the next read);
    - ``cells()``: the non-empty cells as :class:`Cells`, labels in the order
      they arrived (a label forgotten and seen again counts as new), cells by
      row then column in that order; ``row_totals()`` and ``column_totals()``
      in the same label order;
    - ``copy()``.

    The reads below are written once, on those; the scores from the sums
    among them (``adjusted_rand_index()`` to ``v_measure(beta)``) are the
    specification the kernel's C versions are tested against.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # what each implementation provides
        n_elements: int

        @property
        def n_rows(self) -> int: ...
        @property
        def n_columns(self) -> int: ...

        def __init__(self) -> None: ...
        def step(self, reference: Hashable, model: Hashable, weight: int) -> None: ...
        def apply(self, cells: Cells, where: str) -> None: ...
        def n_cells(self) -> int: ...
        def table_sums(self) -> TableSums: ...
        def triple_sums(self) -> tuple[int, int, int]: ...
        def fine_sums(self) -> FineSums | None: ...
        def keep_fine_sums(self) -> None: ...
        def cells(self) -> Cells: ...
        def row_totals(self) -> NDArray[np.int64]: ...
        def column_totals(self) -> NDArray[np.int64]: ...
        def copy(self) -> Table: ...

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_rows, n_columns)``."""
        return self.n_rows, self.n_columns

    # Scores from the sums alone ---------------------------------------------------------------
    #
    # Each is the formula of contingency.formulas.partition applied to table_sums() (and the
    # fine sums, once kept), here written once; the compiled kernel computes the same numbers
    # in C from its running sums (one rounding, as the formulas round) where it can, and
    # calls these where it cannot (tests/test_kernel.py compares the two after every step).
    # An information score is None where those sums do not settle it (_without_cells):
    # the caller then asks the formula with the cells.

    def adjusted_rand_index(self) -> float:
        """:func:`~contingency.formulas.partition.adjusted_rand_index_from_sums` of the sums."""
        return _formulas.adjusted_rand_index_from_sums(self.table_sums())

    def rand_index(self) -> float:
        """:func:`~contingency.formulas.partition.rand_index` of the pair counts."""
        return _formulas.rand_index(*_formulas.pair_confusion(self.table_sums()))

    def precision(self) -> float:
        """:func:`~contingency.formulas.partition.precision` of the pair counts."""
        return _formulas.precision(*_formulas.pair_confusion(self.table_sums()))

    def recall(self) -> float:
        """:func:`~contingency.formulas.partition.recall` of the pair counts."""
        return _formulas.recall(*_formulas.pair_confusion(self.table_sums()))

    def f1(self) -> float:
        """:func:`~contingency.formulas.partition.f1` of the pair counts."""
        return _formulas.f1(*_formulas.pair_confusion(self.table_sums()))

    def jaccard(self) -> float:
        """:func:`~contingency.formulas.partition.jaccard` of the pair counts."""
        return _formulas.jaccard(*_formulas.pair_confusion(self.table_sums()))

    def fowlkes_mallows(self) -> float:
        """:func:`~contingency.formulas.partition.fowlkes_mallows` of the pair counts."""
        return _formulas.fowlkes_mallows(*_formulas.pair_confusion(self.table_sums()))

    def mutual_information(self, base: float) -> float | None:
        """Mutual information from the sums (and fine sums), or None where they do not settle it."""
        return self._without_cells(_formulas.mutual_information, base)

    def normalized_mutual_information(self, average_method: _formulas.AverageMethod
                                      ) -> float | None:
        """NMI from the sums (and fine sums), or None where they do not settle it."""
        return self._without_cells(_formulas.normalized_mutual_information, average_method)

    def homogeneity(self) -> float | None:
        """Homogeneity from the sums (and fine sums), or None where they do not settle it."""
        return self._without_cells(_formulas.homogeneity)

    def completeness(self) -> float | None:
        """Completeness from the sums (and fine sums), or None where they do not settle it."""
        return self._without_cells(_formulas.completeness)

    def v_measure(self, beta: float) -> float | None:
        """V-measure from the sums (and fine sums), or None where they do not settle it."""
        return self._without_cells(_formulas.v_measure, beta)

    def _without_cells(self, score: Callable[..., float], *arguments: Any) -> float | None:
        """``score`` of the sums and the fine sums (once kept), or None where it would need the
        cells (the sums and fine sums do not settle it: the formulas' accuracy notes)."""
        try:
            return score(self.table_sums(), *arguments, cells=_cells_needed,
                         fine=self.fine_sums())
        except _CellsNeeded:
            return None

    def margin_triples(self) -> tuple[int, int]:
        """``sum C(a, 3)`` over the rows and ``sum C(b, 3)`` over the columns."""
        _, rows, columns = self.triple_sums()
        return rows, columns

    def information_cells(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64],
                                         NDArray[np.int64], NDArray[np.int64]]:
        """``(cell counts, row total of each cell, column total of each cell, row totals, column totals)``.

        All int64, what an exact O(cells) computation of the information scores takes.
        """
        cells = self.cells()
        rows, columns = self.row_totals(), self.column_totals()
        return (cells.counts.astype(np.int64), rows[cells.rows] if rows.size else rows,
                columns[cells.columns] if columns.size else columns, rows, columns)

    def maxima(self, axis: int) -> NDArray[np.int64]:
        """The largest cell of each row (``axis=1``) or of each column (``axis=0``)."""
        cells = self.cells()
        if axis == 1:
            return _group_maxima(cells.rows, cells.counts, len(cells.row_labels))
        return _group_maxima(cells.columns, cells.counts, len(cells.column_labels))

    def maxima_sum(self, axis: int) -> int:
        """The sum of :meth:`maxima` (the specification of an implementation's running form)."""
        return _total(self.maxima(axis))

    def sorted_cells(self) -> SortedCells:
        """Row labels, column labels (each sorted, see :func:`sorted_labels`) and the non-empty cells.

        The cells are ``rows, columns, counts``, int64 arrays with one entry per
        non-empty cell, the first two positions into the sorted labels, ordered
        by row then column: memory and time linear in the cells and labels (a
        sort of each), never their product.
        """
        cells = self.cells()
        row_labels = sorted_labels(cells.row_labels)
        column_labels = sorted_labels(cells.column_labels)

        def ranks(labels: list[Hashable], ordered: list[Hashable]) -> Codes:
            order = {label: rank for rank, label in enumerate(ordered)}
            return np.array([order[label] for label in labels], dtype=np.int64)

        rows = ranks(cells.row_labels, row_labels)[cells.rows] if len(cells) else cells.rows
        columns = (ranks(cells.column_labels, column_labels)[cells.columns] if len(cells)
                   else cells.columns)
        order = np.lexsort((columns, rows))
        return (tuple(row_labels), tuple(column_labels), rows[order], columns[order],
                cells.counts[order].astype(np.int64))

    def dense(self) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...], NDArray[np.int64]]:
        """Row labels, column labels (as :meth:`sorted_cells`) and the 2-D counts.

        Dense by definition: ``8 * rows * columns`` bytes, whatever the number
        of non-empty cells. Every other read works from :meth:`sorted_cells`.
        """
        row_labels, column_labels, rows, columns, counts = self.sorted_cells()
        table = np.zeros((len(row_labels), len(column_labels)), dtype=np.int64)
        table[rows, columns] = counts
        return row_labels, column_labels, table

    def cell_map(self) -> dict[tuple[Hashable, Hashable], int]:
        """``{(row label, column label): count}`` of the non-empty cells."""
        return {(row, column): count for row, column, count in self.cells().triples()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self.n_elements == other.n_elements and self.cell_map() == other.cell_map()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def pickled(self) -> tuple[list[Hashable], list[Hashable], list[tuple[Hashable, Hashable, int]]]:
        """Row labels and column labels in :meth:`cells`' order, and ``(row, column, count)`` per cell.

        What a pickle stores; taken without hashing a label, so that a
        thread-safe accumulator's snapshot calls no label's code once its lock
        is released.
        """
        cells = self.cells()
        return cells.row_labels, cells.column_labels, list(cells.triples())



# Contingency's table: pairs of codes ----------------------------------------------------------

#: Two codes as one int64 key, ``row << PAIR_SHIFT | column`` (each code below ``2**31``): keys
#: sort by row then column, and a pair keeps its key however many codes are given after it.
PAIR_SHIFT = 32
#: The low ``PAIR_SHIFT`` bits of a pair key: its column (assigned) code.
PAIR_LOW = (1 << PAIR_SHIFT) - 1
#: A PairTable merges the changes given in bulk into its arrays once they hold this many keys
#: and at least as many as the arrays (8 MiB of keys): between merges, memory stays O(cells + this).
_QUEUE_FLOOR = 1 << 20
#: ... and the pairs written one at a time once they are this many and as many as the arrays hold.
_RECENT_FLOOR = 1 << 12


def _exact(values: Sequence[int]) -> Counts:
    """Python ints as an int64 array, or as an object array when one is past int64."""
    if not values or (max(values) <= INT64_MAX and min(values) >= -INT64_MAX):
        return np.array(values, dtype=np.int64)
    counts = np.empty(len(values), dtype=object)
    counts[:] = list(values)
    return counts


def _fits(counts: Counts) -> bool:
    """Whether any sum of some of ``counts`` stays within int64 (so numpy may add them)."""
    if counts.dtype == object:
        return False
    return not counts.size or int(np.abs(counts).max()) * counts.size <= INT64_MAX


class CodedPairs:
    """Counts of code pairs as arrays: ``counts[i]`` for key ``keys[i]`` (1 each if ``counts`` is None).

    A change to a :class:`PairTable`, whose keys may repeat and whose counts
    may be of either sign; ``distinct`` says that the keys are sorted and
    distinct and no count is zero (what :meth:`aggregated` gives). ``counts``
    is int64, or an object array of Python ints for counts past int64: a
    count in a fine unit (``2**-scale``) can be far larger than any number of
    results.

    A dense count of the pairs (:meth:`from_table`) is kept as it is: its
    arrays of keys and counts are made when first read, and the kernel's pair
    table reads the dense count itself (:meth:`dense_count`).

    >>> pairs = CodedPairs(np.array([1 << PAIR_SHIFT | 2, 5, 1 << PAIR_SHIFT | 2]))
    >>> pairs.aggregated().to_dict()
    {5: 1, 4294967298: 2}
    >>> pairs.times(2**62).aggregated().to_dict()
    {5: 4611686018427387904, 4294967298: 9223372036854775808}
    >>> dense = CodedPairs.from_table(np.array([0, 3, 0, 0, 0, 1]), 3)  # a 2 x 3 count
    >>> len(dense), dense.keys.tolist(), dense.counts.tolist()
    (2, [1, 4294967298], [3, 1])
    """

    __slots__ = ("_counts", "_keys", "_size", "_table", "_width", "distinct")

    def __init__(self, keys: Codes, counts: Counts | None = None, *,
                 distinct: bool = False) -> None:
        self._keys: Codes | None = keys
        self._counts, self.distinct, self._size = counts, distinct, len(keys)
        self._table: Counts | None = None
        self._width = 0

    @classmethod
    def from_dict(cls, pairs: Mapping[int, int]) -> CodedPairs:
        """The pairs of a dict ``{key: count}``."""
        return cls(np.fromiter(pairs.keys(), dtype=np.int64, count=len(pairs)),
                   _exact(list(pairs.values())))

    @classmethod
    def from_table(cls, table: Counts, width: int) -> CodedPairs:
        """The non-zero entries of a dense count: ``table[row * width + column]`` (1-d) for the
        key ``row << PAIR_SHIFT | column``, sorted and distinct."""
        pairs = cls.__new__(cls)
        pairs._keys, pairs._counts, pairs.distinct = None, None, True
        pairs._table, pairs._width = table, width
        pairs._size = int(np.count_nonzero(table))
        return pairs

    @property
    def keys(self) -> Codes:
        """The key of each count."""
        if self._keys is None:
            self._unpack()
        assert self._keys is not None
        return self._keys

    @property
    def counts(self) -> Counts | None:
        """The counts (None: 1 each)."""
        if self._keys is None:
            self._unpack()
        return self._counts

    def _unpack(self) -> None:
        """The arrays of keys and counts of a dense count."""
        assert self._table is not None
        present = np.flatnonzero(self._table)
        rows = present // self._width
        self._keys = rows << PAIR_SHIFT | (present - rows * self._width)
        self._counts = self._table[present]
        self._table = None  # (not held on: a pair table may queue these pairs a while)

    def dense_count(self) -> tuple[NDArray[np.int64], int] | None:
        """The dense count and its width (:meth:`from_table`) while its counts are int64 and its
        arrays not made, else None."""
        if self._keys is None and self._table is not None and self._table.dtype == np.int64:
            return self._table, self._width
        return None

    def __len__(self) -> int:
        return self._size

    def weights(self) -> Counts:
        """The counts, ones where ``counts`` is None."""
        return np.ones(len(self.keys), dtype=np.int64) if self.counts is None else self.counts

    def times(self, factor: int) -> CodedPairs:
        """Every count multiplied by ``factor``, exactly (into Python ints past int64)."""
        if factor == 1:
            return self
        counts = self.counts
        if counts is None:
            product = _exact([factor]) * np.ones(len(self.keys), dtype=np.int64)
        elif _fits(counts) and (not counts.size
                                or int(np.abs(counts).max()) * abs(factor) <= INT64_MAX):
            product = counts * factor
        else:
            product = counts.astype(object) * factor
        return CodedPairs(self.keys, product, distinct=self.distinct and factor != 0)

    def concatenated(self, other: CodedPairs) -> CodedPairs:
        """These pairs and ``other``'s in one change."""
        if not len(other):
            return self
        if not len(self):
            return other
        counts = (None if self.counts is None and other.counts is None
                  else np.concatenate((self.weights(), other.weights())))
        return CodedPairs(np.concatenate((self.keys, other.keys)), counts)

    def aggregated(self) -> CodedPairs:
        """The same counts, one per key: keys sorted and distinct, no zero count."""
        if self.distinct:
            return self
        return CodedPairs(*_sum_by_key(self.keys, self.counts), distinct=True)

    def to_dict(self) -> dict[int, int]:
        """``{key: count}``, one entry per distinct key, no zero count."""
        pairs = self.aggregated()
        return dict(zip(pairs.keys.tolist(), pairs.weights().tolist()))


def _sum_by_key(keys: Codes, counts: Counts | None) -> tuple[Codes, Counts]:
    """The distinct keys, sorted, and the exact sum of the counts of each (zero sums left out).

    Counted in a dense table of rows x columns slots when
    :func:`~contingency.formulas._numeric.dense_is_cheaper` says so, else by
    sorting the keys; in Python ints when a sum could pass int64.
    """
    if not keys.size:
        return keys, np.zeros(0, dtype=np.int64)
    if counts is not None and not _fits(counts):
        sums: dict[int, int] = {}
        for key, count in zip(keys.tolist(), counts.tolist()):
            sums[key] = sums.get(key, 0) + count
        distinct = sorted(key for key, count in sums.items() if count)
        return np.array(distinct, dtype=np.int64), _exact([sums[key] for key in distinct])
    rows = keys >> PAIR_SHIFT
    columns = keys & PAIR_LOW
    width = int(columns.max()) + 1
    slots = (int(rows.max()) + 1) * width
    if dense_is_cheaper(slots, keys.size):
        table = count_codes(rows * width + columns, slots, counts)
        present = np.flatnonzero(table != 0)
        found: Counts = table[present]
        row = present // width
        return row << PAIR_SHIFT | (present - row * width), found
    order = np.argsort(keys)
    ordered = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    if counts is None:
        found = np.diff(np.append(starts, keys.size))
    else:
        found = np.add.reduceat(counts[order], starts)
    kept = np.flatnonzero(found != 0)
    return ordered[starts[kept]], found[kept]


class PairTable:
    """Exact counts of pairs of codes by key ``row << PAIR_SHIFT | column``, no zero count: a sparse table.

    Storage, decided here alone: the merged counts, as sorted distinct keys
    and their counts (arrays never changed in place, so copies share them);
    the changes given in bulk since (:class:`CodedPairs`, queued as they
    come: adding one costs O(1)); and a dict of the changes written one pair
    at a time since (a few dictionary operations each). A read of the whole
    table merges everything first; so does a queue as large as the merged
    counts (at least ``2**20`` keys) or a dict as large as them (at least
    4096 pairs), so a merge, which costs O(cells + changes), is paid for by
    the changes it merges, and memory stays O(cells + 2**20). Counts are
    int64, or Python ints (an object array) once one is past int64.

    >>> table = PairTable()
    >>> table.add_pairs(CodedPairs(np.array([7, 3, 7])))
    >>> table.add(3, 2)
    >>> table.add(1 << PAIR_SHIFT, 1)
    >>> table.to_dict(), table.counts_of(np.array([7, 9])), len(table)
    ({3: 3, 7: 2, 4294967296: 1}, [2, 0], 3)
    >>> list(table.items())[:2]
    [(3, 3), (7, 2)]
    >>> table.add(3, -3)
    >>> table.to_dict()
    {7: 2, 4294967296: 1}
    """

    __slots__ = ("_counts", "_keys", "_queue", "_queued", "_recent")

    def __init__(self) -> None:
        self._keys: Codes = np.zeros(0, dtype=np.int64)
        self._counts: Counts = np.zeros(0, dtype=np.int64)
        self._queue: list[CodedPairs] = []
        self._queued = 0  # keys in the queue
        self._recent: dict[int, int] = {}  # key -> change since the merge, no zero change

    # Changing ------------------------------------------------------------------------------

    def add(self, key: int, count: int) -> None:
        """Add ``count`` (of either sign) to one pair. The caller keeps every count >= 0.

        :meth:`add_items` for one change, written out: a learning curve writes one
        result at a time.
        """
        recent = self._recent
        count += recent.get(key, 0)
        if count:
            recent[key] = count
            if len(recent) > _RECENT_FLOOR and len(recent) > len(self._keys):
                self._merge()
        else:
            del recent[key]

    def add_items(self, changes: Iterable[tuple[int, int]]) -> None:
        """Add each ``(key, count)`` (counts of either sign), one pair at a time: a few
        dictionary operations each. The caller keeps every count >= 0."""
        recent = self._recent
        for key, count in changes:
            count += recent.get(key, 0)
            if count:
                recent[key] = count
            else:
                del recent[key]
        if len(recent) > _RECENT_FLOOR and len(recent) > len(self._keys):
            self._merge()

    def add_pairs(self, pairs: CodedPairs) -> None:
        """Add a bulk change (counts of either sign). The caller keeps every count >= 0."""
        if not len(pairs):
            return
        if pairs.distinct and not (self._keys.size or self._queue or self._recent):
            self._keys, self._counts = pairs.keys, pairs.weights()  # an empty table: taken
            return
        self._queue.append(pairs)
        self._queued += len(pairs)
        if self._queued > _QUEUE_FLOOR and self._queued > len(self._keys):
            self._merge()

    def rescale(self, shift: int) -> None:
        """Every count times ``2**shift`` (``shift < 0``: divided, exactly; the caller knows it is)."""
        self._merge()
        counts = self._counts
        if shift < 0:
            counts = counts >> -shift
            if counts.dtype == object:
                counts = _exact(counts.tolist())
        elif shift and _fits(counts) and (not counts.size
                                          or int(counts.max()) << shift <= INT64_MAX):
            counts = counts << shift
        elif shift:
            counts = counts.astype(object) << shift
        self._counts = counts

    def renumber(self, codes: Codes) -> None:
        """Give every row and column code ``i`` the code ``codes[i]`` instead."""
        self._merge()
        keys = codes[self._keys >> PAIR_SHIFT] << PAIR_SHIFT | codes[self._keys & PAIR_LOW]
        order = np.argsort(keys)
        self._keys, self._counts = keys[order], self._counts[order]

    def copy(self) -> PairTable:
        """An independent table with the same counts (sharing the arrays, which never change)."""
        other = PairTable.__new__(PairTable)
        other._keys, other._counts = self._keys, self._counts
        other._queue, other._queued = list(self._queue), self._queued
        other._recent = dict(self._recent)
        return other

    # Reading -------------------------------------------------------------------------------

    def counts_of(self, keys: Sequence[int]) -> list[int]:
        """The count of each key (0 for a pair not in the table), without merging the whole
        table unless the queue is as large as an eighth of it: O(keys x log cells)."""
        if self._queue:
            if self._queued << 3 >= len(self._keys):
                self._merge()
            else:  # a small queue joins the dict of recent changes: O(queue)
                queue = self._queue[0]
                for pairs in self._queue[1:]:
                    queue = queue.concatenated(pairs)
                self._queue, self._queued = [], 0
                self.add_items(queue.to_dict().items())
        stored, recent = self._keys, self._recent
        if not stored.size:
            return [recent.get(key, 0) for key in keys]
        if len(keys) <= 8:  # a removal's few pairs: no array made
            counts = []
            for key in keys:
                position = int(stored.searchsorted(key))
                found = position < stored.size and int(stored[position]) == key
                counts.append((int(self._counts[position]) if found else 0)
                              + recent.get(key, 0))
            return counts
        wanted = np.asarray(keys, dtype=np.int64)
        at = np.minimum(np.searchsorted(stored, wanted), stored.size - 1)
        held: list[int] = np.where(stored[at] == wanted, self._counts[at], 0).tolist()
        return [count + recent.get(key, 0) for key, count in zip(wanted.tolist(), held)]

    def arrays(self) -> tuple[Codes, Counts]:
        """The keys, sorted, and their counts (int64, or object past int64): shared, never to be modified."""
        self._merge()
        return self._keys, self._counts

    def to_dict(self) -> dict[int, int]:
        """``{key: count}`` in key order."""
        keys, counts = self.arrays()
        return dict(zip(keys.tolist(), counts.tolist()))

    def items(self) -> Iterator[tuple[int, int]]:
        """``(key, count)`` in key order, as a dict's ``items()`` gives them."""
        keys, counts = self.arrays()
        return zip(keys.tolist(), counts.tolist())

    def bits(self) -> int:
        """Every count OR-ed together (the lowest bit set tells the coarsest unit that holds them)."""
        _, counts = self.arrays()
        if not counts.size:
            return 0
        if counts.dtype == object:
            found = 0
            for count in counts.tolist():
                found |= count
            return found
        return int(np.bitwise_or.reduce(counts))

    def __len__(self) -> int:
        return len(self.arrays()[0])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PairTable):
            return NotImplemented
        keys, counts = self.arrays()
        other_keys, other_counts = other.arrays()
        return (np.array_equal(keys, other_keys)
                and counts.tolist() == other_counts.tolist())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _merge(self) -> None:
        """Merge the queue and the recent changes into the arrays (one aggregation, zeros dropped)."""
        if not (self._queue or self._recent):
            return
        parts = [CodedPairs(self._keys, self._counts), *self._queue]
        if self._recent:
            parts.append(CodedPairs.from_dict(self._recent))
        keys = np.concatenate([part.keys for part in parts])
        counts = None
        if any(part.counts is not None for part in parts[1:]) or self._keys.size:
            counts = np.concatenate([part.weights() for part in parts])
        merged = _sum_by_key(keys, counts)
        self._keys = merged[0]
        self._counts = merged[1] if merged[1].dtype == object else merged[1].astype(np.int64)
        self._queue, self._queued, self._recent = [], 0, {}
