"""Concentration and the Jaccard-Concentration Index, as pure functions of counts.

The Jaccard-Concentration Index (JCI) of Randolph Wiredu-Aidoo's package
``jaccard-concentration-index`` (1.0.5) scores a clustering against true
labels. Glossary for this module, for a contingency table whose rows are the
true labels (the reference) and whose columns are the predicted clusters (the
model)::

    count[i, j]   elements of true label i put in predicted cluster j
    row[i]        elements of true label i          (sum over j, noise included)
    column[j]     elements of predicted cluster j   (sum over i)
    n             number of true labels (rows)

For each predicted cluster ``j`` other than the noise cluster:

* ``max_jaccard_index`` = max over i of ``count[i, j] / (row[i] + column[j] - count[i, j])``;
* ``concentration`` = :func:`concentration` of the column ``count[:, j]``;
* ``score`` = ``sqrt(max_jaccard_index * concentration)``;
* ``size_proportion`` = ``column[j] / (elements outside the noise cluster)``.

The index is the average of the cluster scores weighted by ``size_proportion``.
Elements of the noise cluster get no score, but they still count in ``row[i]``,
so true labels that lost elements to noise have lower Jaccard indices.

Conventions where the package is silent or gives NaN are marked *decided
here* in the docstrings; everywhere else the package's behaviour is kept.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._arguments import call_prefix
from contingency.formulas._numeric import EXACT_FLOAT_BOUND, average, check_count, shown

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = [
    "ClusterResult",
    "JaccardConcentrationResult",
    "check_noise_label",
    "check_ordered_labels",
    "concentration",
    "jaccard_concentration_index_from_cells",
    "jaccard_concentration_index_from_table",
]

Floats = NDArray[np.float64]
Counts = NDArray[np.int64]
Codes = NDArray[np.int64]

#: Counts are read as float64, which is exact up to this total.
MAX_EXACT_TOTAL = EXACT_FLOAT_BOUND


class ClusterResult(TypedDict):
    """One predicted cluster's part of :func:`jaccard_concentration_index_from_table`."""

    score: float
    max_jaccard_index: float
    concentration: float
    closest_label_index: int
    closest_label: Any
    size_proportion: float


class JaccardConcentrationResult(TypedDict):
    """What ``return_all=True`` returns: the package's dict, keys in its order."""

    score: float
    macroavg_max_jaccard_index: float
    macroavg_concentration: float
    cluster_results: list[ClusterResult]


# ---------------------------------------------------------------------------
# concentration


def _concentrations(
    column: Codes,
    values: Floats,
    n_columns: int,
    height: int,
    length: int,
    *,
    single_index: bool,
    size_invariance: bool,
) -> Floats:
    """Concentration of ``n_columns`` columns given sparsely, each read as ``length`` values.

    Column ``column[i]`` holds ``values[i]`` (finite, non-negative); every
    column has ``height`` values (``1 <= height <= length``), those not given
    being zeros, and is padded with ``length - height`` more zeros
    (``virtual_length``). Memory and time are linear in the values given, never
    ``height * n_columns``. This is the one place the formula is written; both
    :func:`concentration` (one column, every value given) and the JCI (the
    non-empty cells of each cluster) call it.

    Numerics, *decided here*: the package computes ``sqrt(sum p**2) - sqrt(1/n)``
    directly, which cancels when the column is (nearly) uniform, so it returns
    values like 1e-8, or NaN with a RuntimeWarning, where the exact value is 0.
    Here, when ``sqrt(sum p**2) < 1.25 sqrt(1/n)``, the difference is computed as
    ``(sum p**2 - 1/n) / (sqrt(sum p**2) + sqrt(1/n))`` with ``sum p**2 - 1/n``
    written as a sum of non-negative terms (a variance over the column's
    ``height`` values, the zeros not given counted at once, plus the padding's
    share), which is accurate to a few ulps and exactly 0 for uniform values.
    """
    n = length
    if n < 2:  # one value holds all the mass there is (the package's rule)
        return np.ones(n_columns)
    # Scale each column by a power of two near its peak: exact, and keeps squares
    # of huge or tiny values inside float64's range.
    peak = np.zeros(n_columns)
    np.maximum.at(peak, column, values)
    _, exponent = np.frexp(peak)
    scaled = np.ldexp(values, -exponent[column])
    total = np.bincount(column, weights=scaled, minlength=n_columns)
    empty = total == 0  # all-zero column: no mass to concentrate (the package's 0.0)
    total = np.where(empty, 1.0, total)
    sum_squares = np.bincount(column, weights=scaled * scaled, minlength=n_columns)
    uniform = 1.0 / n  # the share of each value in a perfectly uniform column
    if single_index:
        # (max p**2 / sum p**2 - 1/n) / (1 - 1/n), squared
        peak_share = np.ldexp(peak, -exponent) ** 2 / np.where(empty, 1.0, sum_squares)
        score = np.clip((peak_share - uniform) / (1.0 - uniform), 0.0, 1.0) ** 2
    else:
        # sqrt((sqrt(sum p**2) - sqrt(1/n)) / (1 - sqrt(1/n)))
        root_sum = np.sqrt(sum_squares) / total
        root_uniform = math.sqrt(uniform)
        mean = total / height
        deviation = scaled - mean[column]
        given = np.bincount(column, minlength=n_columns)
        variance = (np.bincount(column, weights=deviation * deviation, minlength=n_columns)
                    + (height - given) * mean * mean)  # the zeros not given, each mean**2 off
        excess = variance / total**2 + (n - height) / (height * n)
        difference = np.where(
            root_sum >= 1.25 * root_uniform,
            root_sum - root_uniform,  # little cancellation: the package's arithmetic
            excess / (root_sum + root_uniform),
        )
        score = np.sqrt(np.clip(difference / (1.0 - root_uniform), 0.0, 1.0))
    if not size_invariance:  # shift [0, 1] to [1/n, 1]
        score = score * (1.0 - uniform) + uniform
    return np.where(empty, 0.0, score)


def concentration(
    values: ArrayLike,
    single_index: bool = False,
    size_invariance: bool = True,
    virtual_length: int = 0,
) -> float:
    """How much of the total of ``values`` sits in one or a few of them, from 0 to 1.

    With ``p = |values| / sum(|values|)``, ``n = len(values)`` (or
    ``virtual_length``) and ``s = sum(p**2)``:

    * default: ``sqrt((sqrt(s) - sqrt(1/n)) / (1 - sqrt(1/n)))``, highest when the
      mass sits in as few values as possible;
    * ``single_index=True``: ``((max(p**2) / s - 1/n) / (1 - 1/n)) ** 2``,
      highest when one value dwarfs all the others;
    * ``size_invariance=False`` maps the score ``c`` to ``1/n + c * (1 - 1/n)``,
      so a uniform vector scores ``1/n`` instead of 0;
    * ``virtual_length`` pads ``values`` with zeros up to that length (0 means no
      padding), which makes the same mass look more concentrated.

    The mass sits in one value, so the score is 1, and uniform values score 0:

    >>> concentration([0, 3, 0]), concentration([2, 2, 2])
    (1.0, 0.0)
    >>> round(concentration([0, 1, 1, 0]), 6)
    0.643594

    The two modes rank differently: a large runner-up is fine for the default,
    but not for ``single_index``:

    >>> round(concentration([0, 8, 2]), 4), round(concentration([1, 8, 1]), 4)
    (0.7649, 0.7457)
    >>> round(concentration([0, 8, 2], single_index=True), 4)
    0.8313
    >>> round(concentration([1, 8, 1], single_index=True), 4)
    0.9112

    Padding with zeros, and the score's range without size invariance:

    >>> round(concentration([1, 1, 1], virtual_length=6), 4)
    0.5346
    >>> concentration([2, 2, 2, 2], size_invariance=False)
    0.25

    Edge cases (the package's values): an empty vector and an all-zero vector
    have no mass to concentrate and score 0, whatever the flags; a single
    value (after padding) scores 1, even 0; magnitudes are used, so negative
    values count like positive ones.

    >>> concentration([]), concentration([0, 0]), concentration([0])
    (0.0, 0.0, 1.0)
    >>> concentration([-1, 2]) == concentration([1, 2])
    True

    *Decided here*: NaN and infinity, where the package returns NaN, are refused,
    and so is a ``virtual_length`` that is not an integer.

    >>> concentration([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: values must be finite, got values[1] = nan
    >>> concentration([1, 2, 3], virtual_length=2)
    Traceback (most recent call last):
    ...
    ValueError: virtual_length must be 0 or at least len(values) = 3, got 2

    Reference: R. Wiredu-Aidoo, ``jaccard-concentration-index`` 1.0.5, ``concentration``.
    """
    array = _as_values(values)
    length = _check_virtual_length(virtual_length, array.size)
    if array.size == 0:  # nothing to concentrate (the package's 0.0)
        return 0.0
    score = _concentrations(
        np.zeros(array.size, dtype=np.int64),
        np.abs(array),
        1,
        array.size,
        length,
        single_index=bool(single_index),
        size_invariance=bool(size_invariance),
    )
    return float(score[0])


def _as_values(values: ArrayLike) -> Floats:
    """``values`` as a 1-D float64 array of finite numbers, or a ValueError saying why not."""
    raw = np.asarray(values)
    if raw.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {raw.shape}")
    if raw.dtype.kind not in "biufO":
        raise ValueError(f"values must be real numbers, got dtype {raw.dtype}")
    if raw.dtype.kind == "O":
        for where, value in enumerate(raw.tolist()):
            if not isinstance(value, numbers.Real):
                raise ValueError(f"values must be real numbers, got values[{where}] = {value!r}")
    try:
        array = raw.astype(np.float64)
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"values must be real numbers: {error}") from None
    finite = np.isfinite(array)
    if not finite.all():
        where = int(np.argmin(finite))
        bad = raw[where]
        bad = bad.item() if isinstance(bad, np.generic) else bad
        raise ValueError(f"values must be finite, got values[{where}] = {bad!r}")
    return array


def _check_virtual_length(virtual_length: object, size: int) -> int:
    """The length the values are read at: ``virtual_length`` if given (non-zero), else ``size``."""
    if isinstance(virtual_length, (bool, np.bool_)):
        raise TypeError(f"virtual_length must be an integer, got {virtual_length!r}")
    try:
        length = operator.index(virtual_length)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"virtual_length must be an integer, got {virtual_length!r} "
            f"({type(virtual_length).__name__})"
        ) from None
    if length == 0:
        return size
    if length < size:
        raise ValueError(
            f"virtual_length must be 0 or at least len(values) = {size}, got {length}"
        )
    return length


# ---------------------------------------------------------------------------
# Jaccard-Concentration Index


@overload
def jaccard_concentration_index_from_table(
    table: ArrayLike,
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    *,
    noise_label: Hashable | None = ...,
    return_all: Literal[False] = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float: ...


@overload
def jaccard_concentration_index_from_table(
    table: ArrayLike,
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    *,
    noise_label: Hashable | None = ...,
    return_all: Literal[True],
    ordered_labels: Sequence[Any] = ...,
) -> JaccardConcentrationResult: ...


@overload
def jaccard_concentration_index_from_table(
    table: ArrayLike,
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    *,
    noise_label: Hashable | None = ...,
    return_all: bool = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float | JaccardConcentrationResult: ...


def jaccard_concentration_index_from_table(
    table: ArrayLike,
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    *,
    noise_label: Hashable | None = None,
    return_all: bool = False,
    ordered_labels: Sequence[Any] = (),
) -> float | JaccardConcentrationResult:
    """The Jaccard-Concentration Index of a contingency table (see the module docstring).

    ``table[i, j]`` counts the elements of true label ``reference_labels[i]``
    put in predicted cluster ``model_labels[j]``; the labels only order the
    results and find the noise cluster. Two predicted clusters, the second
    mixing two true labels:

    >>> table = [[4, 0],
    ...          [0, 3],
    ...          [0, 1]]
    >>> round(jaccard_concentration_index_from_table(table, ["a", "b", "c"], [1, 2]), 6)
    0.864932

    ``return_all=True`` gives the package's dict; ``closest_label_index`` counts
    true labels in sorted order and ``closest_label`` names it from
    ``ordered_labels`` (None without them):

    >>> result = jaccard_concentration_index_from_table(
    ...     table, ["a", "b", "c"], [1, 2], return_all=True, ordered_labels=["A", "B", "C"])
    >>> [(c["closest_label"], round(c["max_jaccard_index"], 2), round(c["concentration"], 4))
    ...  for c in result["cluster_results"]]
    [('A', 1.0, 1.0), ('B', 0.75, 0.7103)]

    The noise cluster gets no result and its elements no weight, but they
    still belong to their true labels, which lowers the Jaccard indices:

    >>> result = jaccard_concentration_index_from_table(
    ...     [[4, 0], [1, 3]], ["a", "b"], [1, -1], noise_label=-1, return_all=True)
    >>> [c["max_jaccard_index"] for c in result["cluster_results"]]
    [0.8]

    Conventions, as the package unless marked *decided here*:

    * Order: ``cluster_results`` follow the predicted labels sorted, and
      ``closest_label_index`` the true labels sorted, as ``numpy.unique`` sorts
      them, whatever order the table is in. *Decided here*: the labels of a side
      that cannot be sorted together (say str and int mixed, where the package
      raises TypeError) keep the table's order, which
      :meth:`contingency.PartitionComparison.contingency_table` gives by type
      name, then ``repr``; ``ordered_labels``, which is defined by the sorted
      order, is then refused with a TypeError. Only the scored clusters are
      sorted, so a str noise label among int clusters is fine.
    * Ties: ``closest_label_index`` is the first true label in that order with
      the highest Jaccard index.
    * ``noise_label`` is matched by equality (``-1`` matches ``-1.0``); one that
      names no predicted cluster is ignored. ``ordered_labels`` is read only
      with ``return_all=True`` and must have one entry per true label.
    * Empty input (no element counted) and input where every element is noise
      raise ValueError: there is no cluster to average over.
    * *Decided here*: rows and columns of zeros are ignored, so a label whose
      elements were all removed from an accumulator no longer counts as a
      true label or a cluster.
    * *Decided here*: uniform columns get concentration exactly 0 (see
      ``_concentrations``), where the package's rounding gives up to about 1e-8
      or NaN.

    Counts must be non-negative integers (int64 or Python ints) totalling at
    most 2**53. Floats, including the results' ``closest_label_index``, are
    Python floats and ints, not numpy scalars.

    Reference: R. Wiredu-Aidoo, ``jaccard-concentration-index`` 1.0.5,
    ``jaccard_concentration_index``.
    """
    counts = _check_table(table, len(reference_labels), len(model_labels))
    rows, columns = np.nonzero(counts)
    return _index(reference_labels, model_labels, rows, columns, counts[rows, columns],
                  noise_label, return_all, ordered_labels)


@overload
def jaccard_concentration_index_from_cells(
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    rows: ArrayLike,
    columns: ArrayLike,
    counts: ArrayLike,
    *,
    noise_label: Hashable | None = ...,
    return_all: Literal[False] = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float: ...


@overload
def jaccard_concentration_index_from_cells(
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    rows: ArrayLike,
    columns: ArrayLike,
    counts: ArrayLike,
    *,
    noise_label: Hashable | None = ...,
    return_all: Literal[True],
    ordered_labels: Sequence[Any] = ...,
) -> JaccardConcentrationResult: ...


@overload
def jaccard_concentration_index_from_cells(
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    rows: ArrayLike,
    columns: ArrayLike,
    counts: ArrayLike,
    *,
    noise_label: Hashable | None = ...,
    return_all: bool = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float | JaccardConcentrationResult: ...


def jaccard_concentration_index_from_cells(
    reference_labels: Sequence[Hashable],
    model_labels: Sequence[Hashable],
    rows: ArrayLike,
    columns: ArrayLike,
    counts: ArrayLike,
    *,
    noise_label: Hashable | None = None,
    return_all: bool = False,
    ordered_labels: Sequence[Any] = (),
) -> float | JaccardConcentrationResult:
    """The Jaccard-Concentration Index of a contingency table given by its non-empty cells.

    ``counts[k]`` elements of true label ``reference_labels[rows[k]]`` are in
    predicted cluster ``model_labels[columns[k]]``; cells not listed are
    empty. The result is :func:`jaccard_concentration_index_from_table`'s for
    the same table, with the same conventions, but time and memory grow with
    the cells listed and the labels, never with their product: a table of
    10**5 true labels and 10**5 clusters is 10**10 cells dense, and here as
    many as it has non-empty ones. The arguments are those of
    :meth:`contingency.PartitionComparison.contingency_cells`, in its order:

    >>> round(jaccard_concentration_index_from_cells(
    ...     ["a", "b", "c"], [1, 2], rows=[0, 1, 2], columns=[0, 1, 1], counts=[4, 3, 1]), 6)
    0.864932

    ``rows`` and ``columns`` are integer positions into the labels, ``counts``
    non-negative integers totalling at most 2**53 (zero counts are ignored);
    a position outside the labels or a cell listed twice raises ValueError.

    >>> jaccard_concentration_index_from_cells(["a"], [1], [0, 0], [0, 0], [1, 2])
    Traceback (most recent call last):
    ...
    ValueError: cells must be listed once each: the cell (0, 0) is listed twice
    """
    cell_rows, cell_columns, cell_counts = _check_cells(
        rows, columns, counts, len(reference_labels), len(model_labels))
    return _index(reference_labels, model_labels, cell_rows, cell_columns, cell_counts,
                  noise_label, return_all, ordered_labels)


def _index(reference_labels: Sequence[Hashable], model_labels: Sequence[Hashable], rows: Codes,
           columns: Codes, counts: Counts, noise_label: Hashable | None, return_all: bool,
           ordered_labels: Sequence[Any]) -> float | JaccardConcentrationResult:
    """The JCI of checked cells: the one place it is computed, in O(cells + labels) memory."""
    check_ordered_labels(ordered_labels)
    reference = _distinct(reference_labels, "reference_labels")
    model = _distinct(model_labels, "model_labels")

    row_totals = _group_sums(rows, counts, len(reference))
    column_totals = _group_sums(columns, counts, len(model))
    total = int(row_totals.sum())
    if total == 0:
        raise ValueError(
            "the Jaccard-Concentration Index needs at least one element: the table is empty"
        )
    noise = _noise_column(model, noise_label, column_totals)
    clustered = total - (int(column_totals[noise]) if noise is not None else 0)
    if clustered == 0:
        raise ValueError(
            f"every element is in the noise cluster noise_label={noise_label!r}: "
            "the Jaccard-Concentration Index needs at least one element outside it"
        )

    # Rows and columns in the package's order (sorted labels); empty ones dropped.
    kept_rows, rows_sorted = _sorted_indices(reference, np.flatnonzero(row_totals))
    kept_columns, _ = _sorted_indices(
        model, [j for j in np.flatnonzero(column_totals).tolist() if j != noise]
    )
    if return_all and len(ordered_labels):
        if len(ordered_labels) != len(kept_rows):
            raise ValueError(
                f"ordered_labels must name each of the {len(kept_rows)} true labels, "
                f"got {len(ordered_labels)}"
            )
        if not rows_sorted:
            raise TypeError(
                "ordered_labels follow the sorted order of the true labels, "
                "but these true labels cannot be sorted together: "
                f"{[reference[i] for i in kept_rows]!r}"
            )

    # Each cell's true label and cluster as ranks in that order; -1 for those not scored.
    row_rank = np.full(len(reference), -1, dtype=np.int64)
    row_rank[kept_rows] = np.arange(len(kept_rows))
    column_rank = np.full(len(model), -1, dtype=np.int64)
    column_rank[kept_columns] = np.arange(len(kept_columns))
    scored = np.flatnonzero((counts > 0) & (column_rank[columns] >= 0))
    # In cluster order, true-label order within each: sums over a cluster's cells are then
    # added in one order whatever order the cells came in (the result depends on the table).
    scored = scored[np.lexsort((row_rank[rows[scored]], column_rank[columns[scored]]))]
    inside = counts[scored]
    cell_row, cell_column = row_rank[rows[scored]], column_rank[columns[scored]]
    cluster_size = column_totals[kept_columns]
    # Union >= cluster_size >= 1, so no division by zero; int64 / int64 is the package's float.
    jaccard = inside / (row_totals[rows[scored]] + cluster_size[cell_column] - inside)
    # Per cluster, its cells by Jaccard index, highest first, ties in true-label order: the
    # first is the package's argmax (the first maximum). Every scored cluster has a cell.
    order = np.lexsort((cell_row, -jaccard, cell_column))
    first = order[np.flatnonzero(np.diff(cell_column[order], prepend=-1))]
    closest = cell_row[first]
    max_jaccard = jaccard[first]
    concentrations = _concentrations(
        cell_column, inside.astype(np.float64), len(kept_columns), len(kept_rows),
        len(kept_rows), single_index=False, size_invariance=True
    )
    scores = np.sqrt(max_jaccard * concentrations)

    score = average(scores, cluster_size, empty=0.0)  # empty cannot happen: clustered > 0
    if not return_all:
        return score
    proportions = cluster_size / clustered
    names = list(ordered_labels) if len(ordered_labels) else None
    cluster_results: list[ClusterResult] = [
        {
            "score": s,
            "max_jaccard_index": m,
            "concentration": c,
            "closest_label_index": i,
            "closest_label": names[i] if names is not None else None,
            "size_proportion": p,
        }
        for s, m, c, i, p in zip(
            scores.tolist(),
            max_jaccard.tolist(),
            concentrations.tolist(),
            closest.tolist(),
            proportions.tolist(),
        )
    ]
    return {
        "score": score,
        "macroavg_max_jaccard_index": average(max_jaccard, cluster_size, empty=0.0),
        "macroavg_concentration": average(concentrations, cluster_size, empty=0.0),
        "cluster_results": cluster_results,
    }


def _check_table(table: ArrayLike, n_rows: int, n_columns: int) -> Counts:
    """``table`` as an int64 array of non-negative counts of the labels' shape."""
    raw = np.asarray(table)
    if raw.size == 0 and n_rows * n_columns == 0:  # no labels: nothing counted, whatever dtype
        return np.zeros((n_rows, n_columns), dtype=np.int64)
    if raw.shape != (n_rows, n_columns):
        raise ValueError(
            f"table must have shape (len(reference_labels), len(model_labels)) = "
            f"({n_rows}, {n_columns}), got {raw.shape}"
        )
    counts = _check_counts(raw.ravel(), "table", "table counts", lambda k: "table[{}, {}]".format(
        *divmod(k, n_columns)))
    return counts.reshape(n_rows, n_columns)


def _check_counts(raw: NDArray[Any], name: str, total: str, where: Callable[[int], str]
                  ) -> Counts:
    """A 1-d array of counts as int64, each non-negative, totalling at most 2**53.

    Errors name the argument ``name``, its counts together ``total`` and its
    ``k``-th count ``where(k)``.
    """
    if raw.dtype.kind == "O":
        flat = raw.tolist()
        for position, value in enumerate(flat):
            if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
                check_count(value, where(position))  # raises, naming the count
        try:
            raw = np.array(flat, dtype=np.int64)
        except OverflowError:
            raise ValueError(f"{total} must total at most 2**53, got {sum(flat)}") from None
    elif raw.dtype.kind not in "iu" and raw.size:
        raise ValueError(f"{name} must hold integer counts, got dtype {raw.dtype}")
    if raw.dtype.kind == "u" and raw.size and int(raw.max()) > MAX_EXACT_TOTAL:
        raise ValueError(f"{total} must total at most 2**53, got a count of {raw.max()}")
    counts = raw.astype(np.int64)
    if counts.size == 0:
        return counts
    if int(counts.min()) < 0:
        position = int(np.argmin(counts))
        check_count(int(counts[position]), where(position))  # raises
    # int64 cannot overflow when each count is at most 2**53 / size; else sum exactly.
    if int(counts.max()) > MAX_EXACT_TOTAL // counts.size:
        exact_total = sum(counts.tolist())
        if exact_total > MAX_EXACT_TOTAL:
            raise ValueError(f"{total} must total at most 2**53, got {exact_total}")
    return counts


def _check_cells(rows: ArrayLike, columns: ArrayLike, counts: ArrayLike, n_rows: int,
                 n_columns: int) -> tuple[Codes, Codes, Counts]:
    """The cells as int64 arrays: positions inside the labels, counts as :func:`_check_table`'s."""
    positions = []
    for name, values, size in (("rows", rows, n_rows), ("columns", columns, n_columns)):
        raw = np.asarray(values)
        if raw.ndim != 1 or not (raw.dtype.kind in "iu" or raw.size == 0):
            raise ValueError(f"{name} must be a 1-d sequence of integer positions, got "
                             f"{raw.dtype} values of shape {raw.shape}")
        outside = np.flatnonzero((raw < 0) | (raw >= size))
        if outside.size:
            raise ValueError(f"{name}[{outside[0]}] = {raw[outside[0]]} is not a position in "
                             f"the {size} labels")
        positions.append(raw.astype(np.int64))
    cell_rows, cell_columns = positions
    raw_counts = np.asarray(counts)
    if not (raw_counts.ndim == 1 and len(raw_counts) == len(cell_rows) == len(cell_columns)):
        raise ValueError(f"rows, columns and counts must have one entry per cell, got lengths "
                         f"{len(cell_rows)}, {len(cell_columns)} and {raw_counts.size}")
    cell_counts = _check_counts(raw_counts, "counts", "counts", "counts[{}]".format)
    order = np.lexsort((cell_columns, cell_rows))
    repeated = np.flatnonzero((np.diff(cell_rows[order]) == 0)
                              & (np.diff(cell_columns[order]) == 0))
    if repeated.size:
        where = order[repeated[0]]
        raise ValueError(f"cells must be listed once each: the cell ({cell_rows[where]}, "
                         f"{cell_columns[where]}) is listed twice")
    return cell_rows, cell_columns, cell_counts


def _group_sums(groups: Codes, counts: Counts, size: int) -> Counts:
    """The exact total of ``counts`` per group (all counts total at most 2**53: exact as floats)."""
    return np.bincount(groups, weights=counts, minlength=size).astype(np.int64)


def _distinct(labels: Sequence[Hashable], name: str) -> list[Hashable]:
    """``labels`` as a list, refusing repeats (a table has one row or column per label)."""
    as_list = list(labels)
    try:
        distinct = len(set(as_list)) == len(as_list)
    except TypeError as error:
        raise TypeError(f"{name} must be hashable: {error}") from None
    if not distinct:
        seen: set[Hashable] = set()
        for label in as_list:
            if label in seen:
                raise ValueError(f"{name} must be distinct, got {label!r} twice")
            seen.add(label)
    return as_list


def check_noise_label(noise_label: object, where: str | None = None) -> None:
    """Refuse an unhashable ``noise_label`` (``TypeError`` naming it and the call ``where``).

    >>> check_noise_label(-1, "jaccard_concentration_index")
    >>> check_noise_label([-1], "jaccard_concentration_index")
    Traceback (most recent call last):
    ...
    TypeError: jaccard_concentration_index: noise_label must be hashable, got [-1] (list)
    """
    try:
        hash(noise_label)
    except TypeError:
        raise TypeError(f"{call_prefix(where)}noise_label must be hashable, got "
                        f"{noise_label!r} ({type(noise_label).__name__})") from None


def check_ordered_labels(ordered_labels: object, where: str | None = None) -> None:
    """Refuse ``ordered_labels`` that is not a sequence of names (``TypeError`` naming it and the
    call ``where``): a list, a tuple, a 1-d array, or a string (its characters, as the
    jaccard-concentration-index package reads one); not a number, a set (no order) or a mapping.

    >>> check_ordered_labels(["Cat", "Dog"])
    >>> check_ordered_labels(2, "jaccard_concentration_index")
    Traceback (most recent call last):
    ...
    TypeError: jaccard_concentration_index: ordered_labels must be a sequence of names (a list, \
a tuple, a 1-d array), got 2 (int)
    """
    if isinstance(ordered_labels, np.ndarray) and ordered_labels.ndim == 1:
        return
    if not isinstance(ordered_labels, Sequence):
        raise TypeError(f"{call_prefix(where)}ordered_labels must be a sequence of names (a list, "
                        f"a tuple, a 1-d array), got {shown(ordered_labels)} "
                        f"({type(ordered_labels).__name__})")


def _noise_column(
    model: list[Hashable], noise_label: Hashable | None, column_totals: Counts
) -> int | None:
    """The column of the noise cluster, or None when there is none (or it is empty)."""
    if noise_label is None:
        return None
    check_noise_label(noise_label)
    column = {label: j for j, label in enumerate(model)}.get(noise_label)
    if column is None or column_totals[column] == 0:
        return None
    return column


def _sorted_indices(labels: list[Hashable], indices: Any) -> tuple[list[int], bool]:
    """``indices`` ordered by their labels, and whether the labels could be sorted.

    Labels that cannot be compared with each other keep the order of ``indices``.
    """
    kept: list[int] = [int(i) for i in indices]
    try:
        return sorted(kept, key=lambda i: cast("SupportsRichComparison", labels[i])), True
    except TypeError:  # e.g. '<' not supported between 'str' and 'int'
        return kept, False
