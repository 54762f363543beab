"""Exact sums of a contingency table: pairs ``C(n, 2)``, fixed-point ``n ln n``, and :class:`TableSums`.

Every pair-counting and information score depends on a table only through
:class:`TableSums`: ``N``, the numbers of clusters, three sums of ``C(n, 2)``
and three sums of ``n ln n`` (over cells, rows and columns). Pair counts are
Python integers, exact at any size. Each ``n ln n`` is the float64 product
``n * math.log(n)``, held as the exact integer ``n ln n * 2**52``
(:func:`n_log_n_fixed`): sums of such integers are exact, so a sum depends
only on the table, never on the order in which it was built. The checks that
turn an array of counts into exact integers (:func:`as_counts`) live here too.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._numeric import INT64_MAX, distinct_counts

__all__ = ["FIXED_POINT_BITS", "TableSums", "as_counts", "count_sum", "n_log_n_fixed",
           "n_log_n_fixed_sum", "pairs", "same_cluster_pairs", "same_cluster_triples", "summable",
           "table_sums", "triples"]

#: ``n ln n`` is held as the exact integer ``n ln n * 2**FIXED_POINT_BITS``.
FIXED_POINT_BITS = 52
ONE: int = 1 << FIXED_POINT_BITS
SCALE = float(ONE)


def pairs(n: int) -> int:
    """``n (n - 1) / 2``, the number of pairs of distinct elements among ``n``, exactly.

    >>> pairs(4), pairs(1), pairs(0), pairs(10**12)
    (6, 0, 0, 499999999999500000000000)
    """
    n = int(n)
    return n * (n - 1) // 2


def triples(n: int) -> int:
    """``n (n - 1) (n - 2) / 6``, the number of sets of three distinct elements among ``n``, exactly.

    >>> triples(4), triples(2), triples(0), triples(10**6)
    (4, 0, 0, 166666166667000000)
    """
    n = int(n)
    return n * (n - 1) * (n - 2) // 6


def n_log_n_fixed(n: int) -> int:
    """``n ln n`` as the exact integer ``fl(n * ln n) * 2**52``; 0 for ``n`` in {0, 1}.

    ``fl(n * ln n)`` is the float64 product of ``n`` and ``math.log(n)``. For
    ``n >= 2`` it is at least ``2 ln 2 > 1``, so its last bit is worth at
    least ``2**-52`` and scaling by ``2**52`` gives a whole number: the
    integer *is* the float, not a rounding of it. Sums of these integers are
    exact, which is what lets a streaming accumulator keep them without
    drift (see :class:`contingency.PartitionComparison`).

    >>> n_log_n_fixed(1), n_log_n_fixed(2) / 2**52 == 2 * math.log(2)
    (0, True)
    """
    n = int(n)
    if n < 2:
        return 0
    return int(n * math.log(n) * SCALE)


def n_log_n_fixed_sum(counts: ArrayLike) -> int:
    """The exact sum of :func:`n_log_n_fixed` over non-negative integer ``counts``.

    Equal counts are grouped, so the work is one :func:`n_log_n_fixed` per
    distinct count (at most about ``sqrt(2 N)`` of them), whatever the size of
    the table.

    >>> n_log_n_fixed_sum([2, 2, 3, 0, 1]) == 2 * n_log_n_fixed(2) + n_log_n_fixed(3)
    True
    """
    values = as_counts(counts, "counts").ravel()
    values = values[values > 1]
    if values.size == 0:
        return 0
    distinct, multiplicity = distinct_counts(values)
    return sum(m * n_log_n_fixed(v) for v, m in zip(distinct.tolist(), multiplicity.tolist()))



def same_cluster_pairs(counts: ArrayLike) -> int:
    """``sum C(n, 2)``: the pairs of elements that share a cell (or a cluster), exactly.

    >>> same_cluster_pairs([3, 1, 2]), same_cluster_pairs([])
    (4, 0)
    """
    values = as_counts(counts, "counts").ravel()
    if values.size == 0:
        return 0
    if values.dtype == object:
        return sum(pairs(v) for v in values.tolist())
    # Each C(n, 2) is below 2**61 when n < 2**31, and their total is at most
    # C(N, 2) with N = values.sum(): checked below so that int64 cannot overflow. N itself
    # is summed exactly (as Python ints when an int64 sum could wrap).
    total = count_sum(summable(values))
    if total < 2**31:
        return int((values * (values - 1) // 2).sum())
    return sum(pairs(v) for v in values.tolist())


def same_cluster_triples(counts: ArrayLike) -> int:
    """``sum C(n, 3)``: the triples of elements inside one cluster, exactly (Python integers).

    What the variance of the adjusted Rand index needs of each partition's
    cluster sizes besides ``sum C(n, 2)`` (see
    :func:`contingency.formulas.partition.ari_significance`).

    >>> same_cluster_triples([3, 1, 4]), same_cluster_triples([])
    (5, 0)
    """
    values = as_counts(counts, "counts").ravel()
    values = values[values > 2]  # smaller clusters hold no triple
    if values.size == 0:
        return 0
    distinct, multiplicity = distinct_counts(values)
    return sum(m * triples(v) for v, m in zip(distinct.tolist(), multiplicity.tolist()))


def as_counts(values: ArrayLike, name: str) -> NDArray[np.int64]:
    """``values`` as an array of exact non-negative integers (int64, or Python ints beyond it)."""
    array = np.asarray(values)
    if array.dtype == object:
        flat = array.ravel().tolist()
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                   for v in flat):
            raise ValueError(f"{name} must hold non-negative integer counts")
        if any(v < 0 for v in flat):
            raise ValueError(f"{name} must hold non-negative integer counts, not {min(flat)}")
        if all(v < 2**62 for v in flat):
            return array.astype(np.int64)
        return array
    if array.dtype.kind not in "iu" and not (array.dtype.kind == "f" and array.size == 0):
        raise ValueError(f"{name} must hold non-negative integer counts, not {array.dtype} values")
    if array.size and array.dtype.kind == "i" and int(array.min()) < 0:
        raise ValueError(f"{name} must hold non-negative integer counts, not {int(array.min())}")
    if array.dtype == np.uint64 and array.size and int(array.max()) >= 2**62:
        return array.astype(object)
    return array.astype(np.int64)



def summable(counts: NDArray[Any]) -> NDArray[Any]:
    """``counts`` as int64 when no sum of them can overflow int64, else as Python ints."""
    if counts.dtype != object and counts.size and int(counts.max()) > INT64_MAX // counts.size:
        return counts.astype(object)
    return counts


def count_sum(values: NDArray[Any]) -> int:
    """The exact sum of an array of counts (int64, or Python ints in an object array)."""
    return sum(values.tolist()) if values.dtype == object else int(values.sum())


class TableSums(NamedTuple):
    """What every pair-counting and information score of a contingency table depends on.

    ``same_*`` are sums of ``C(n, 2)``, exact integers; ``*_n_log_n`` are sums
    of ``n ln n`` as exact integers in units of ``2**-52`` (see
    :func:`n_log_n_fixed`). Build it from a table with :func:`table_sums`.
    """

    #: N, the number of elements.
    n_elements: int
    #: Non-empty reference clusters (rows).
    n_reference_clusters: int
    #: Non-empty model clusters (columns).
    n_model_clusters: int
    #: Pairs together in both partitions: ``sum C(n[i, j], 2)``.
    same_same: int
    #: Pairs together in the reference: ``sum C(a[i], 2)``.
    same_reference: int
    #: Pairs together in the model: ``sum C(b[j], 2)``.
    same_model: int
    #: ``sum n[i, j] ln n[i, j]``, times ``2**52``.
    cells_n_log_n: int
    #: ``sum a[i] ln a[i]``, times ``2**52``.
    reference_n_log_n: int
    #: ``sum b[j] ln b[j]``, times ``2**52``.
    model_n_log_n: int


def table_sums(table: ArrayLike) -> TableSums:
    """The sums of a contingency table (rows: reference clusters, columns: model clusters).

    >>> s = table_sums([[2, 0], [1, 1]])
    >>> s.n_elements, s.same_same, s.same_reference, s.same_model
    (4, 1, 2, 3)
    """
    counts = summable(as_counts(table, "table"))
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    rows = counts.sum(axis=1)
    columns = counts.sum(axis=0)
    cells = counts.ravel()
    cells = cells[cells > 0]
    return TableSums(
        n_elements=int(rows.sum()),
        n_reference_clusters=int(np.count_nonzero(rows)),
        n_model_clusters=int(np.count_nonzero(columns)),
        same_same=same_cluster_pairs(cells),
        same_reference=same_cluster_pairs(rows),
        same_model=same_cluster_pairs(columns),
        cells_n_log_n=n_log_n_fixed_sum(cells),
        reference_n_log_n=n_log_n_fixed_sum(rows),
        model_n_log_n=n_log_n_fixed_sum(columns),
    )

