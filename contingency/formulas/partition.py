"""Scores comparing two partitions of one set, as pure functions of counts.

Glossary. The elements of a set are partitioned twice: by a *reference*
partition (the known classes) and by a *model* partition (the clusters an
algorithm made). Their contingency table has one row per reference cluster
and one column per model cluster; cell ``n[i, j]`` counts the elements in
reference cluster ``i`` and model cluster ``j``, row sums ``a[i]`` are the
reference cluster sizes and column sums ``b[j]`` the model cluster sizes,
and ``N`` is the number of elements.

Pair counting looks at the ``N (N - 1) / 2`` pairs of distinct elements::

                          same model cluster   different model clusters
    same reference            same_same          same_reference_only
    different reference     same_model_only      different_different

In the vocabulary of :mod:`contingency.formulas.classification` the pair
table is a 2x2 table whose "correct" side is the reference: ``a =
same_same``, ``b = same_model_only`` (put together wrongly), ``c =
same_reference_only`` (kept apart wrongly), ``d = different_different``.
Pair precision, recall, F1 and accuracy are those very functions.

Everything here depends on the table only through :class:`TableSums`: ``N``,
the numbers of clusters, three sums of ``C(n, 2)`` and three sums of
``n ln n`` (over cells, rows and columns). The accumulator
:class:`contingency.PartitionComparison` keeps exactly these sums up to date
in constant time per element; anyone with a table of their own gets them
from :func:`table_sums` (scikit-learn's ``contingency=`` idea)::

    >>> table = [[5, 1, 0],     # the worked 17-element example of the
    ...          [1, 4, 1],     # clustering-metrics article (seed 001):
    ...          [2, 0, 3]]     # rows = standard classes, columns = clusters
    >>> sums = table_sums(table)
    >>> round(normalized_mutual_information(sums), 12)
    0.364561771857
    >>> round(adjusted_rand_index(*pair_confusion(sums)), 12)
    0.242914979757

Exactness. Pair counts are Python integers, exact at any size. Each
``n ln n`` is the float64 product ``n * math.log(n)``, held as the exact
integer ``n ln n * 2**52`` (see :func:`n_log_n_fixed`): sums of such
integers are exact, so a sum depends only on the table, never on the order
in which the table was built, and differences such as ``MI * N`` are formed
exactly before the single rounding to float64.

Accuracy. Those differences still carry the rounding of every ``n ln n``
term, which cancellation can magnify (one cell of 10**15 beside small ones
left MI wrong by 5%). So every information score bounds that error from the
sums' own magnitudes (a shift and a comparison of integers) and uses the
O(1) value only when the bound is below 2**-43 of it; otherwise it computes
from the table's non-empty cells (:class:`TableCells`, passed as ``cells=``)
as sums of non-negative terms, without cancellation. Either way the scores
agree with an exact computation to 1e-12 relative (1e-15 absolute below
1e-3) for any table of counts below 2**63; see "Information" below for the
bounds and when a read costs O(cells)::

    >>> big = [[2, 2], [2**60, 0]]
    >>> round(homogeneity(table_sums(big), cells=table_cells(big)), 12)
    0.491588537504

References: W. M. Rand (1971), JASA 66, 846-850 (Rand index); L. Hubert and
P. Arabie (1985), J. Classification 2, 193-218 (adjusted Rand index);
E. B. Fowlkes and C. L. Mallows (1983), JASA 78, 553-569; N. X. Vinh,
J. Epps and J. Bailey (2010), JMLR 11, 2837-2854 (NMI variants, AMI);
M. Meila (2007), J. Multivariate Analysis 98, 873-895 (variation of
information); A. Rosenberg and J. Hirschberg (2007), EMNLP-CoNLL
(homogeneity, completeness, V-measure); H. Kim and H. Park (2007),
Bioinformatics 23, 1495-1502 and R package NMF (purity, entropy);
J. Kubina, Perl module Set::Partitions::Similarity (accuracy, "precision").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas import classification
from contingency.formulas._numeric import INT64_MAX, divide

__all__ = [
    "FIXED_POINT_BITS",
    "AverageMethod",
    "CellsArgument",
    "PairConfusion",
    "TableCells",
    "TableSums",
    "adjusted_mutual_information",
    "adjusted_rand_index",
    "adjusted_rand_index_from_sums",
    "completeness",
    "entropy",
    "entropy_model",
    "entropy_reference",
    "expected_mutual_information",
    "f1",
    "fowlkes_mallows",
    "homogeneity",
    "inverse_purity",
    "jaccard",
    "mutual_information",
    "n_log_n_fixed",
    "n_log_n_fixed_sum",
    "nmf_entropy",
    "normalized_mutual_information",
    "pair_confusion",
    "pairs",
    "precision",
    "purity",
    "purity_from_maxima",
    "rand_index",
    "recall",
    "same_cluster_pairs",
    "table_cells",
    "table_sums",
    "v_measure",
    "variation_of_information",
]

AverageMethod = Literal["arithmetic", "geometric", "min", "max"]
_AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")

#: ``n ln n`` is held as the exact integer ``n ln n * 2**FIXED_POINT_BITS``.
FIXED_POINT_BITS = 52
_ONE: int = 1 << FIXED_POINT_BITS
_log = math.log
_trunc = math.trunc  # int() of a float, with less call overhead
_SCALE = float(_ONE)
_new_tuple = tuple.__new__

Counts = NDArray[np.int64]


# ---------------------------------------------------------------------------------------------
# Exact sums


def pairs(n: int) -> int:
    """``n (n - 1) / 2``, the number of pairs of distinct elements among ``n``, exactly.

    >>> pairs(4), pairs(1), pairs(0), pairs(10**12)
    (6, 0, 0, 499999999999500000000000)
    """
    n = int(n)
    return n * (n - 1) // 2


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
    return int(n * math.log(n) * _SCALE)


def n_log_n_fixed_sum(counts: ArrayLike) -> int:
    """The exact sum of :func:`n_log_n_fixed` over non-negative integer ``counts``.

    Equal counts are grouped, so the work is one :func:`n_log_n_fixed` per
    distinct count (at most about ``sqrt(2 N)`` of them), whatever the size of
    the table.

    >>> n_log_n_fixed_sum([2, 2, 3, 0, 1]) == 2 * n_log_n_fixed(2) + n_log_n_fixed(3)
    True
    """
    values = _as_counts(counts, "counts").ravel()
    values = values[values > 1]
    if values.size == 0:
        return 0
    distinct, multiplicity = _distinct_counts(values)
    return sum(m * n_log_n_fixed(v) for v, m in zip(distinct.tolist(), multiplicity.tolist()))


def _distinct_counts(values: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct values of ``values`` (all > 1) and how often each occurs."""
    if values.dtype != object:
        largest = int(values.max())
        if largest <= 4 * values.size + 1024:  # a histogram is cheaper than sorting
            histogram = np.bincount(values)
            distinct = np.flatnonzero(histogram)
            return distinct, histogram[distinct]
    distinct, multiplicity = np.unique(values, return_counts=True)
    return distinct, multiplicity


def same_cluster_pairs(counts: ArrayLike) -> int:
    """``sum C(n, 2)``: the pairs of elements that share a cell (or a cluster), exactly.

    >>> same_cluster_pairs([3, 1, 2]), same_cluster_pairs([])
    (4, 0)
    """
    values = _as_counts(counts, "counts").ravel()
    if values.size == 0:
        return 0
    if values.dtype == object:
        return sum(pairs(v) for v in values.tolist())
    # Each C(n, 2) is below 2**61 when n < 2**31, and their total is at most
    # C(N, 2) with N = values.sum(): checked below so that int64 cannot overflow.
    total = int(values.sum())
    if total < 2**31:
        return int((values * (values - 1) // 2).sum())
    return sum(pairs(v) for v in values.tolist())


def _as_counts(values: ArrayLike, name: str) -> NDArray[np.int64]:
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
    counts = _summable(_as_counts(table, "table"))
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


# ---------------------------------------------------------------------------------------------
# Pair counting


class PairConfusion(NamedTuple):
    """The pairs of distinct elements, by whether each partition puts them together.

    Unlike scikit-learn's ``pair_confusion_matrix``, which counts ordered
    pairs, each unordered pair counts once.
    """

    same_same: int
    same_reference_only: int
    same_model_only: int
    different_different: int


def pair_confusion(sums: TableSums) -> PairConfusion:
    """The four pair counts of a table, exactly.

    >>> pair_confusion(table_sums([[2, 0], [1, 1]]))
    PairConfusion(same_same=1, same_reference_only=1, same_model_only=2, different_different=2)
    """
    n, _, _, same_same, same_reference, same_model, _, _, _ = sums
    if type(n) is not int:  # a numpy integer would overflow n (n - 1)
        n = int(n)
    # The fields in order (same_same, same_reference_only, same_model_only,
    # different_different), built as PairConfusion(...) would build them, without the
    # Python frame of its generated __new__: this runs on every read after a change.
    return _new_tuple(PairConfusion, (same_same, same_reference - same_same,
                                      same_model - same_same,
                                      n * (n - 1) // 2 - same_reference - same_model + same_same))


def rand_index(same_same: int, same_reference_only: int, same_model_only: int,
               different_different: int) -> float:
    """Rand index (Set::Partitions::Similarity's *accuracy*): the share of pairs on which both agree.

    ``(same_same + different_different) / n_pairs``, which is
    :func:`contingency.formulas.classification.accuracy` of the pair table.
    With no pairs (fewer than two elements) it is 1, Perl's convention (the
    partitions cannot disagree), which is also scikit-learn's.

    >>> round(rand_index(1, 2, 2, 1), 12)       # [[1,2,3],[4]] vs [[1],[2,3,4]]
    0.333333333333
    >>> rand_index(0, 0, 0, 0)
    1.0
    """
    return float(classification.accuracy(same_same, same_model_only, same_reference_only,
                                         different_different, zero_division="perl"))


def precision(same_same: int, same_reference_only: int, same_model_only: int,
              different_different: int) -> float:
    """Pair precision ``same_same / (same_same + same_model_only)``.

    Of the pairs the model joins, the share that the reference joins too.

    :func:`contingency.formulas.classification.precision` of the pair table,
    with Statistics::Contingency's convention for the undefined case (the
    model joins no pair): 1 when the reference joins none either (the two
    partitions are then identical: every element alone), else 0.

    >>> precision(1, 2, 2, 1), precision(0, 0, 0, 6), precision(0, 2, 0, 4)
    (0.3333333333333333, 1.0, 0.0)
    """
    return float(classification.precision(same_same, same_model_only, same_reference_only,
                                          different_different, zero_division="perl"))


def recall(same_same: int, same_reference_only: int, same_model_only: int,
           different_different: int) -> float:
    """Pair recall ``same_same / (same_same + same_reference_only)``.

    Of the pairs the reference joins, the share that the model joins too.

    Recall of (reference, model) is precision of (model, reference), and is
    computed that way: :func:`contingency.formulas.classification.precision`
    of the transposed pair table. That gives the undefined case (the
    reference joins no pair) the same rule as :func:`precision`: 1 when the
    model joins none either, else 0. ``classification.recall``'s own Perl
    rule (1 whenever nothing is to be recalled) would score a model that
    joins elements the reference keeps apart with recall 1 while the swapped
    comparison's precision is 0; this way swapping the partitions always
    swaps precision and recall.

    >>> recall(3, 1, 0, 2), recall(0, 0, 2, 4), recall(0, 0, 0, 6)
    (0.75, 0.0, 1.0)
    """
    return float(classification.precision(same_same, same_reference_only, same_model_only,
                                          different_different, zero_division="perl"))


def f1(same_same: int, same_reference_only: int, same_model_only: int,
       different_different: int) -> float:
    """Pair F1 ``2 same_same / (2 same_same + same_reference_only + same_model_only)``.

    :func:`contingency.formulas.classification.f1` of the pair table; 1 when
    neither partition joins any pair (they are then identical).

    >>> round(f1(1, 2, 2, 1), 12), f1(0, 0, 0, 6)
    (0.333333333333, 1.0)
    """
    return float(classification.f1(same_same, same_model_only, same_reference_only,
                                   different_different, zero_division="perl"))


def jaccard(same_same: int, same_reference_only: int, same_model_only: int,
            different_different: int) -> float:
    """Pair Jaccard index ``same_same / (same_same + same_reference_only + same_model_only)``.

    What Set::Partitions::Similarity calls *precision*. When no pair is
    joined by either partition the partitions are identical (every element
    alone, or fewer than two elements), and the index is 1, as in Perl
    ("a partition is equivalent to itself, even the empty partition").

    >>> jaccard(1, 2, 2, 1), jaccard(0, 0, 0, 0)
    (0.2, 1.0)
    """
    joined = same_same + same_reference_only + same_model_only
    # Undefined only when nothing is joined on either side: identical partitions.
    return float(divide(same_same, joined, 1.0))


def fowlkes_mallows(same_same: int, same_reference_only: int, same_model_only: int,
                    different_different: int) -> float:
    """Fowlkes-Mallows index ``sqrt(precision * recall)``, the geometric mean of pair precision and recall.

    It takes :func:`precision`'s and :func:`recall`'s conventions: 1 when
    neither partition joins any pair (identical partitions), 0 when only one
    of them does. scikit-learn's ``fowlkes_mallows_score`` returns 0 for two
    identical all-singleton partitions; here identical partitions always
    score 1.

    >>> round(fowlkes_mallows(1, 2, 2, 1), 12), fowlkes_mallows(0, 0, 0, 6)
    (0.333333333333, 1.0)
    """
    counts = (same_same, same_reference_only, same_model_only, different_different)
    return math.sqrt(precision(*counts)) * math.sqrt(recall(*counts))


def adjusted_rand_index(same_same: int, same_reference_only: int, same_model_only: int,
                        different_different: int) -> float:
    """Adjusted Rand index (Hubert and Arabie): the Rand index corrected for chance, at most 1.

    ``2 (a d - b c) / ((a + c)(c + d) + (a + b)(b + d))`` in the pair-table
    letters, computed with exact integers and rounded once. When the
    partitions disagree on no pair (``b == c == 0``: identical pair structure,
    which includes fewer than two elements and two single-cluster partitions)
    it is 1, scikit-learn's convention. :func:`adjusted_rand_index_from_sums`
    gives the same value from a table's sums.

    >>> round(adjusted_rand_index(1, 0, 1, 4), 12)    # [0,0,1,2] vs [0,0,1,1]
    0.571428571429
    >>> adjusted_rand_index(0, 0, 0, 0), adjusted_rand_index(6, 0, 0, 0)
    (1.0, 1.0)
    """
    a, b, c, d = same_same, same_model_only, same_reference_only, different_different
    if not type(a) is type(b) is type(c) is type(d) is int:  # numpy integers would overflow
        a, b, c, d = int(a), int(b), int(c), int(d)
    return _adjusted_rand(a, a + c, a + b, a + b + c + d)


def adjusted_rand_index_from_sums(sums: TableSums) -> float:
    """:func:`adjusted_rand_index` of a table, from its sums, without building the pair counts.

    >>> sums = table_sums([[2, 0], [1, 1]])
    >>> adjusted_rand_index_from_sums(sums) == adjusted_rand_index(*pair_confusion(sums))
    True
    """
    n, _, _, same_same, same_reference, same_model, _, _, _ = sums
    if type(n) is not int:  # a numpy integer would overflow n (n - 1)
        n, same_same, same_reference, same_model = (
            int(n), int(same_same), int(same_reference), int(same_model))
    return _adjusted_rand(same_same, same_reference, same_model, n * (n - 1) // 2)


def _adjusted_rand(same_same: int, same_reference: int, same_model: int, n_pairs: int) -> float:
    """The adjusted Rand index of exact pair sums: the one place its formula is written.

    With ``S = same_same``, ``R = same_reference``, ``M = same_model`` and
    ``P = n_pairs``, Hubert and Arabie's ``2 (a d - b c) / ((a + c)(c + d) +
    (a + b)(b + d))`` (``a = S``, ``b = M - S``, ``c = R - S``, ``d = P - R -
    M + S``) is, expanded, ``2 (S P - R M) / (P (R + M) - 2 R M)``: the same
    two integers, so the same rounding. It is 1 when ``b == c == 0`` (``S ==
    R == M``); otherwise the denominator, ``c**2 + b**2`` or more, is positive.
    """
    if same_same == same_reference == same_model:
        return 1.0
    product = same_reference * same_model
    return 2 * (same_same * n_pairs - product) / (n_pairs * (same_reference + same_model)
                                                 - 2 * product)


# ---------------------------------------------------------------------------------------------
# Information
#
# Accuracy. Every information score below agrees with an exact computation to
# 1e-12 relative (1e-15 absolute where the value is below 1e-3), for any table
# of counts below 2**63, by one of two routes:
#
# 1. O(1), from the sums. A value such as ``N MI 2**52 = S_cells - S_reference -
#    S_model + N ln N`` is an exact difference of exact sums of rounded terms
#    ``fl(n ln n)``; its only error is the sum of the terms' rounding errors,
#    amplified by the cancellation. Each term's error is rigorously bounded
#    (see _TERM_ERROR below): |fl(n ln n) - n ln n| <= 2**-51 (1 + 2**-6) n ln n,
#    so the error of the difference is at most 2**-51 (1 + 2**-6) times the sum
#    of the magnitudes of the terms it involves, and those magnitudes are the
#    (non-negative) sums themselves. The read accepts the value when
#    ``magnitude >> 8 < value`` (a shift and a comparison of Python ints), which
#    puts the error below 2**-43 (1 + 2**-6)(1 + 2**-43), 1.2e-13, of the value;
#    it tries first a cheap overestimate of the magnitude (4 N ln N for MI, 2 N ln
#    N for an entropy, 2 (S_reference + S_model) for VI). A ratio of two
#    accepted values (NMI, homogeneity, ...) is then within 2.4e-13 and
#    V-measure, one such ratio ((1 + beta) MI / (H(R) + beta H(M))), within 2.4e-13 plus a
#    few roundings.
# 2. O(cells), from the table, when the bound fails (large skewed counts, or
#    partitions so nearly independent that MI is below about ln(N) / 50) and
#    the caller gave ``cells``: sums of non-negative terms, each formed from
#    exact integer differences and accurate to a few units of 2**-52 (see
#    _entropy_nats, _conditional_nats, _mutual_nats), added with math.fsum.
#    Without ``cells`` the read returns the O(1) value, whose error is then
#    only bounded as in 1.
#
# Degenerate cases (a single cluster on a side, no elements) are decided from
# the numbers of clusters, never from the n ln n sums: N ln N - sum a ln a can
# round to 0, or below, with two clusters of very different sizes; and whether
# every model (reference) cluster is pure, which makes MI equal H(R) (H(M))
# exactly, from the exact pair counts.

#: A value of :func:`_information`: an exact integer from the sums, a float from the cells.
Exact = int | float

#: A value is accepted from the sums when ``magnitude >> _SURE_SHIFT < value``.
_SURE_SHIFT = 8
#: The same test against a magnitude overestimated by 2: ``total >> _COARSE_SHIFT`` for 2 N ln N.
_COARSE_SHIFT = _SURE_SHIFT - 1


class TableCells(NamedTuple):
    """The non-empty cells of a contingency table with their margins: what an O(cells) read needs.

    ``counts``, ``row_sizes`` and ``column_sizes`` are aligned, one entry per
    non-empty cell: its count, the size of its reference cluster (row total)
    and of its model cluster (column total). ``reference_sizes`` and
    ``model_sizes`` are all the row and column totals (zeros are ignored).
    Arrays of int64, or object arrays of Python ints. Build it from a table
    with :func:`table_cells`.
    """

    counts: NDArray[Any]
    row_sizes: NDArray[Any]
    column_sizes: NDArray[Any]
    reference_sizes: NDArray[Any]
    model_sizes: NDArray[Any]


#: What the information scores take as ``cells``: the cells, a function that
#: returns them (called only when a read falls back to O(cells)), or None.
CellsArgument = TableCells | Callable[[], tuple[NDArray[Any], ...]] | None


def table_cells(table: ArrayLike) -> TableCells:
    """The non-empty cells of a contingency table and its margins (rows: reference clusters).

    >>> cells = table_cells([[2, 0], [1, 1]])
    >>> cells.counts.tolist(), cells.row_sizes.tolist(), cells.column_sizes.tolist()
    ([2, 1, 1], [2, 2, 2], [3, 3, 1])
    >>> cells.reference_sizes.tolist(), cells.model_sizes.tolist()
    ([2, 2], [3, 1])
    """
    counts = _summable(_as_counts(table, "table"))
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    rows, columns = counts.sum(axis=1), counts.sum(axis=0)
    i, j = np.nonzero(counts)
    return TableCells(counts[i, j], rows[i], columns[j], rows, columns)


def _summable(counts: NDArray[Any]) -> NDArray[Any]:
    """``counts`` as int64 when no sum of them can overflow int64, else as Python ints."""
    if counts.dtype != object and counts.size and int(counts.max()) > INT64_MAX // counts.size:
        return counts.astype(object)
    return counts




def _log_base(base: float) -> float:
    if not (isinstance(base, (int, float)) and math.isfinite(base) and base > 0 and base != 1):
        raise ValueError(f"base must be a finite number > 0 other than 1, not {base!r}")
    return math.log(base)


def _in_base(nats: float, base: float) -> float:
    return nats if base == math.e else nats / _log_base(base)


def _resolve(cells: CellsArgument) -> TableCells | None:
    if cells is None or isinstance(cells, TableCells):
        return cells
    return TableCells(*cells())


def _information(sums: TableSums, cells: CellsArgument) -> tuple[Exact, Exact, Exact, Exact]:
    """``(MI, H(R), H(M))`` in nats, times a scale, and the scale; O(1) when the sums determine them.

    From the sums the three are exact integers, ``N 2**52`` times the values,
    so that a ratio of two of them is rounded once (identical partitions score
    exactly 1); from the cells (O(cells), when the sums do not determine them
    and ``cells`` is given) they are floats in nats and the scale is 1.

    With ``T = N ln N`` and ``S`` the three ``n ln n`` sums,
    ``N H(R) = T - S_reference`` and ``N MI = S_cells - S_reference - S_model + T``.
    A side with a single cluster has entropy 0 and the mutual information is
    0, by definition, not by the sums. Identical partitions have equal sums
    (O(1)) or equal cells and margins (O(cells)), so their MI equals their
    entropies exactly; likewise MI equals H(R) exactly when every model
    cluster is pure. MI is never below 0.
    """
    (n, reference_clusters, model_clusters, same_same, same_reference, same_model,
     cells_sum, reference_sum, model_sum) = sums
    if reference_clusters > 1 and model_clusters > 1:  # the common case first, lean
        total = _trunc(n * _log(n) * _SCALE)  # n_log_n_fixed(n), n >= 2 here
        reference = total - reference_sum
        model = total - model_sum
        # Pair counts decide exactly whether a side's clusters are pure (C(x + y, 2) >
        # C(x, 2) + C(y, 2) for x, y >= 1): then MI is the other side's entropy, exactly.
        if same_same == same_model:  # every model cluster within one class
            mutual = reference
        elif same_same == same_reference:  # every class within one model cluster
            mutual = model
        else:
            mutual = cells_sum - reference_sum - model_sum + total
        # 2 N ln N bounds either entropy's magnitude, 4 N ln N the mutual information's.
        coarse = total >> _COARSE_SHIFT
        if (coarse < reference and coarse < model and coarse >> 1 < mutual
                and mutual <= reference and mutual <= model):
            return mutual, reference, model, n * _ONE
        sure = ((coarse < reference or _sure(reference, total + reference_sum))
                and (coarse < model or _sure(model, total + model_sum))
                and (coarse >> 1 < mutual
                     or _sure(mutual, cells_sum + reference_sum + model_sum + total)))
    elif n == 0 or (reference_clusters <= 1 and model_clusters <= 1):
        return 0, 0, 0, 1
    else:  # one side has a single cluster: its entropy and MI are 0
        total = n_log_n_fixed(n)
        mutual = reference = model = 0
        if reference_clusters > 1:
            reference = total - reference_sum
            sure = total >> (_SURE_SHIFT - 1) < reference or _sure(reference, total + reference_sum)
        else:
            model = total - model_sum
            sure = total >> (_SURE_SHIFT - 1) < model or _sure(model, total + model_sum)
    if not sure:
        table = _resolve(cells)
        if table is not None:
            return (*_exact_information(table), 1)
    # The O(1) values, kept in order: an entropy of two or more clusters is positive (at
    # least one unit of 2**-52 / N), and 0 <= MI <= min(H(R), H(M)).
    if reference_clusters > 1:
        reference = max(reference, 1)
    if model_clusters > 1:
        model = max(model, 1)
    mutual = max(min(mutual, reference, model), 0)
    return mutual, reference, model, n * _ONE


def _sure(value: int, magnitude: int) -> bool:
    """Whether a difference of ``n ln n`` sums, ``value``, is known to 2**-43 relative.

    ``magnitude`` is the sum of the magnitudes of the terms the difference
    involves: the value's error is at most ``_TERM_ERROR * magnitude``.
    """
    return magnitude >> _SURE_SHIFT < value


#: The largest relative error of one term ``fl(n ln n)`` (:func:`n_log_n_fixed`),
#: for ``2 <= n < 2**64``. ``float(n)`` is exact up to 2**53 and within 2**-53
#: relative beyond (Python rounds an int to the nearest float); ``math.log`` is
#: taken to be within one unit in the last place, 2**-52 relative (the C
#: libraries CPython uses on Linux, macOS and Windows are below 1 ulp); the
#: change of the logarithm due to the conversion, ``ln(1 + 2**-53)``, is below
#: ``2**-53 / 36 < 2**-58`` of ``ln n`` when ``n > 2**53``; the product rounds
#: once more, 2**-53. Together, to first order, 2**-53 + 2**-52 + 2**-58 + 2**-53
#: <= 2**-51 (1 + 2**-6) (the second-order terms are below 2**-100). Scaling by
#: 2**52 is exact. So a difference of sums of such terms is off by at most
#: ``_TERM_ERROR`` times the sum of the terms, and when ``magnitude >> 8 <
#: value`` that is at most ``_TERM_ERROR * 2**8 (value + 1)`` <= 1.2e-13 value
#: (``magnitude`` is then at least 2**52, since ``N ln N >= 2 ln 2``, so ``value``
#: is at least 2**43 - 1).
_TERM_ERROR = 2.0**-51 * (1 + 2.0**-6)


def _exact_information(cells: TableCells) -> tuple[float, float, float]:
    """``(MI, H(R), H(M))`` in nats from the cells, without cancellation, O(cells)."""
    counts, rows, columns, reference_sizes, model_sizes = _exact_arrays(cells)
    n = _sum(reference_sizes)
    if n == 0:
        return 0.0, 0.0, 0.0
    reference = _entropy_nats(reference_sizes, n)
    model = _entropy_nats(model_sizes, n)
    pure_columns = bool(np.array_equal(counts, columns))  # H(R|M) = 0: MI = H(R)
    pure_rows = bool(np.array_equal(counts, rows))  # H(M|R) = 0: MI = H(M)
    if pure_columns:
        mutual = reference
    elif pure_rows:
        mutual = model
    elif reference == 0.0 or model == 0.0:
        mutual = 0.0
    else:  # rounding cannot take MI out of [0, min(H(R), H(M))]
        mutual = min(_mutual_nats(counts, rows, columns, n), reference, model)
    return mutual, reference, model


def _exact_arrays(cells: TableCells) -> list[NDArray[Any]]:
    counts, rows, columns, reference, model = (
        _as_counts(part, name).ravel() for part, name in
        zip(cells, ("counts", "row_sizes", "column_sizes", "reference_sizes", "model_sizes")))
    reference, model = _summable(reference), _summable(model)  # the margins are summed
    keep = counts > 0
    if not keep.all():
        counts, rows, columns = counts[keep], rows[keep], columns[keep]
    return [counts, rows, columns, reference[reference > 0], model[model > 0]]


def _sum(values: NDArray[Any]) -> int:
    return sum(values.tolist()) if values.dtype == object else int(values.sum())


def _floats(values: NDArray[Any]) -> NDArray[np.float64]:
    """Exact integers rounded once each to float64 (correctly, also for Python ints)."""
    return values.astype(np.float64)


def _quotients(numerators: NDArray[Any], denominators: NDArray[Any]) -> NDArray[np.float64]:
    """``numerators / denominators`` elementwise, within 1.5 units of 2**-52 relative.

    int64 values are rounded to float64 and divided (three roundings, each
    2**-53); Python ints are divided by Python, which rounds the exact quotient
    once.
    """
    if numerators.dtype != object and denominators.dtype != object:
        return _floats(numerators) / _floats(denominators)
    return np.array([p / q for p, q in zip(numerators.tolist(), denominators.tolist())],
                    dtype=np.float64)


def _entropy_nats(sizes: NDArray[Any], n: int) -> float:
    """``sum (s/N) ln(N/s)`` over the non-zero ``sizes`` (which sum to ``n``), O(len(sizes)).

    Every term is positive and computed as ``(s/N) log1p((N - s)/s)``: the
    difference ``N - s`` is exact, the quotient is within 1.5 units of 2**-52,
    ``log1p`` (condition number ``x / ((1 + x) log1p(x)) <= 1``) adds one unit,
    ``s/N`` 1.5 and the product half a unit: each term is within 5 units of
    2**-52 relative (1.1e-15), and :func:`math.fsum` adds them with one rounding.
    One cluster: exactly 0.
    """
    if sizes.size <= 1:
        return 0.0
    ratio = _quotients(n - sizes, sizes)
    share = _floats(sizes) / float(n)
    return math.fsum((share * np.log1p(ratio)).tolist())


def _conditional_nats(counts: NDArray[Any], sizes: NDArray[Any], n: int) -> float:
    """``sum (c/N) ln(s/c)`` over cells ``c`` of clusters of ``sizes``: a conditional entropy.

    ``H(R|M)`` with ``sizes`` the cells' column sizes, ``H(M|R)`` with their
    row sizes. Positive terms ``(c/N) log1p((s - c)/c)`` with ``s - c`` exact:
    each within 5 units of 2**-52 as in :func:`_entropy_nats`, added by
    :func:`math.fsum`. Exactly 0 when every cell fills its cluster.
    """
    ratio = _quotients(sizes - counts, counts)
    return math.fsum((_floats(counts) / float(n) * np.log1p(ratio)).tolist())


def _mutual_nats(counts: NDArray[Any], rows: NDArray[Any], columns: NDArray[Any], n: int) -> float:
    """MI in nats as a sum of non-negative terms (the Kullback-Leibler form), O(cells).

    With ``p = c / N`` the cell's share and ``q = a b / N**2`` its share under
    independence, ``MI = sum p ln(p / q)`` over the non-empty cells, and since
    ``sum p = 1 = sum q`` over all cells,

        MI = sum_nonempty q phi(x) + (N**2 - sum_nonempty a b) / N**2,
        phi(x) = (1 + x) log1p(x) - x >= 0,  x = p / q - 1 = (c N - a b) / (a b) > -1,

    where the last term is the independent share of the empty cells. No term is
    negative, so nothing cancels between terms. ``c N - a b`` is formed exactly
    (in int64 while ``N**2 < 2**63``; by 21-bit digits in int64 up to ``N <
    2**63``, :func:`_difference_of_products`; with Python ints beyond) and
    rounded within 2 units of 2**-52, so ``x`` is within 4 units; ``phi``'s
    condition number ``x log1p(x) / phi(x)`` is at most 2; :func:`_phi`
    evaluates it within 20 units; ``q`` is within 3 units. Each term is then
    within 32 units of 2**-52 (7e-15) relative, the empty cells' share
    (``sum a b`` is exact) is rounded once, and :func:`math.fsum` adds them with
    one more rounding.
    """
    if (n * n <= INT64_MAX and counts.dtype != object and rows.dtype != object
            and columns.dtype != object):
        products = rows * columns  # <= N**2 < 2**63: exact in int64, and so is their sum
        independent = int(products.sum())
        product_floats = _floats(products)
        ratio = _floats(counts * n - products) / product_floats
    elif n <= INT64_MAX and counts.dtype != object and rows.dtype != object \
            and columns.dtype != object:
        difference, independent = _difference_of_products(counts, n, rows, columns)
        product_floats = _floats(rows) * _floats(columns)
        ratio = difference / product_floats
    else:  # Python ints: c N and a b reach 2**126 and beyond
        product_list = [a * b for a, b in zip(rows.tolist(), columns.tolist())]
        independent = sum(product_list)
        product_floats = np.array(product_list, dtype=np.float64)
        ratio = np.array([(c * n - p) / p for c, p in zip(counts.tolist(), product_list)],
                         dtype=np.float64)
    share = product_floats / float(n) / float(n)
    # r = 1 + x = c N / (a b), within 3.5 units, for the cells where x is near -1
    quotient = _floats(counts) * float(n) / product_floats
    empty = (n * n - independent) / (n * n)
    return math.fsum([*(share * _phi(ratio, quotient)).tolist(), empty])


_LIMB_BITS = 21
_LIMB_MASK = (1 << _LIMB_BITS) - 1


def _limbs(values: NDArray[np.int64]) -> list[NDArray[np.int64]]:
    """Values in ``[0, 2**63)`` as three 21-bit digits, lowest first."""
    low = np.bitwise_and(values, _LIMB_MASK)
    middle = np.right_shift(values, _LIMB_BITS)
    np.bitwise_and(middle, _LIMB_MASK, out=middle)
    return [low, middle, np.right_shift(values, 2 * _LIMB_BITS)]


def _difference_of_products(counts: NDArray[np.int64], n: int, rows: NDArray[np.int64],
                            columns: NDArray[np.int64]) -> tuple[NDArray[np.float64], int]:
    """``c N - a b`` per cell as floats within 2 units of 2**-52, and ``sum a b`` exactly.

    All inputs below ``2**63``; the products reach ``2**126``, so each factor is
    split into three 21-bit digits and the digit products (below ``2**42``;
    five columns of at most three, so below ``2**44``) are formed in int64,
    exactly, per column ``k`` of weight ``2**(21 k)``. Carrying makes the four
    low columns digits in ``[0, 2**21)`` and leaves the sign in the top one.
    A negative value ``D 2**84 + R`` (``D < 0 <= R < 2**84``) is negated as
    ``(-D - 1) 2**84 + (2**84 - R)``, the digits of ``2**84 - 1 - R`` being
    ``2**21 - 1`` minus those of ``R``. Every magnitude is then a sum of five
    non-negative floats, each exact (a digit times a power of two), added from
    the top in four roundings of at most half a unit each. Arrays are reused
    (``out=``) since a table of 10**6 cells makes each one 8 MB.
    """
    c, a, b = _limbs(counts), _limbs(rows), _limbs(columns)
    m = [(n >> (_LIMB_BITS * k)) & _LIMB_MASK for k in range(3)]
    digits = [np.zeros(counts.shape, dtype=np.int64) for _ in range(5)]
    work = np.empty(counts.shape, dtype=np.int64)
    independent = 0
    for i in range(3):
        for j in range(3):
            np.multiply(a[i], b[j], out=work)
            independent += _exact_sum(work) << (_LIMB_BITS * (i + j))
            digits[i + j] -= work
            if m[j]:
                np.multiply(c[i], m[j], out=work)
                digits[i + j] += work
    _carry(digits, work)
    negative = digits[4] < 0
    if negative.any():
        for k in range(4):
            digits[k][negative] = _LIMB_MASK - digits[k][negative]
        digits[4][negative] = -1 - digits[4][negative]
        digits[0][negative] += 1
        _carry(digits, work)
    value = digits[4].astype(np.float64)
    value *= 2.0 ** (4 * _LIMB_BITS)
    scaled = np.empty(counts.shape, dtype=np.float64)
    for k in range(3, -1, -1):
        np.multiply(digits[k], 2.0 ** (k * _LIMB_BITS), out=scaled)
        value += scaled
    np.negative(value, out=value, where=negative)
    return value, independent


def _carry(digits: list[NDArray[np.int64]], work: NDArray[np.int64]) -> None:
    """Carry columns of weight ``2**(21 k)`` in place: all but the top become digits in [0, 2**21)."""
    for k in range(4):
        np.right_shift(digits[k], _LIMB_BITS, out=work)  # floor: the sign goes up
        np.bitwise_and(digits[k], _LIMB_MASK, out=digits[k])
        digits[k + 1] += work


def _exact_sum(values: NDArray[np.int64]) -> int:
    """The exact sum of non-negative int64 values below ``2**44``, in chunks int64 cannot overflow."""
    step = 1 << 18
    return sum(int(values[start:start + step].sum()) for start in range(0, values.size, step))


#: phi's series is used for |x| <= 1/4 with this many terms: the first one left out,
#: ``4**-24 / (25 * 26)``, is below 2**-56 of the sum (which is above 0.45).
_SERIES = [1.0 / ((j + 1) * (j + 2)) for j in range(24)]


def _phi(x: NDArray[np.float64], r: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(1 + x) log1p(x) - x = r ln r - r + 1`` for ``x = r - 1 > -1``, within 20 units of 2**-52.

    ``x`` and ``r`` are given separately, each accurate relative to itself (near
    ``x = -1``, ``r`` is tiny and ``1 + x`` would have lost it). For ``|x| <=
    1/4`` the series ``x**2 sum_j (-x)**j / ((j + 1)(j + 2))`` by Horner's
    rule: its terms shrink by a factor 4 or more and the inner sum stays above
    0.45, so a few units of rounding. For ``x > 1/4`` and ``-1/2 <= x < -1/4``
    the closed form in ``x``: its two parts, each within 2 units, are at most
    9.7 times ``phi`` (at ``x = 1/4``, ``(1 + x) log1p(x) = 0.279`` and ``phi =
    0.0289``; at ``x = -1/4`` the factor is 7.3; it shrinks away from 0), so
    under 20 units. For ``x < -1/2``, ``(1 - r) + r ln r`` with ``r < 1/2``:
    ``1 - r`` is above 1/2 and ``r ln r`` above -0.35, so ``phi`` is above 0.15
    and the parts, within 1 and 2 units, are at most 6.5 times it.
    """
    result = np.empty_like(x)
    small = np.abs(x) <= 0.25
    near = x[small]
    minus = -near
    series = np.full_like(near, _SERIES[-1])
    for coefficient in reversed(_SERIES[:-1]):
        series *= minus
        series += coefficient
    series *= near
    series *= near
    result[small] = series
    tiny = x < -0.5
    far = ~small & ~tiny
    wide = x[far]
    result[far] = (1.0 + wide) * np.log1p(wide) - wide
    low = r[tiny]
    result[tiny] = (1.0 - low) + low * np.log(low)
    return result


def _conditionals(sums: TableSums, cells: CellsArgument) -> tuple[float, float]:
    """``(H(R|M), H(M|R))`` in nats: O(1) when the sums determine both, else O(cells).

    ``N H(R|M) 2**52 = S_model - S_cells`` and ``N H(M|R) 2**52 = S_reference -
    S_cells``, each accepted under the bound of :func:`_sure`.
    """
    n = sums.n_elements
    if n == 0:
        return 0.0, 0.0
    # Exactly 0 when every cell fills its column (row), which the exact pair counts tell.
    pure_columns = sums.same_same == sums.same_model
    pure_rows = sums.same_same == sums.same_reference
    given_model = 0 if pure_columns else sums.model_n_log_n - sums.cells_n_log_n
    given_reference = 0 if pure_rows else sums.reference_n_log_n - sums.cells_n_log_n
    if not ((pure_columns or _sure(given_model, sums.model_n_log_n + sums.cells_n_log_n))
            and (pure_rows
                 or _sure(given_reference, sums.reference_n_log_n + sums.cells_n_log_n))):
        table = _resolve(cells)
        if table is not None:
            counts, rows, columns, _, _ = _exact_arrays(table)
            return _conditional_nats(counts, columns, n), _conditional_nats(counts, rows, n)
    # Not pure: positive (at least one unit of 2**-52 / N, when the sums round it away).
    scale = n * _ONE
    return (0 if pure_columns else max(given_model, 1)) / scale, (
        0 if pure_rows else max(given_reference, 1)) / scale


def entropy(counts: ArrayLike, base: float = math.e) -> float:
    """Entropy ``-sum (n/N) log(n/N)`` of one partition, from its cluster sizes ``counts``.

    0 for a single cluster and for no elements (no uncertainty).
    scikit-learn's ``entropy(labels)`` is this of the label counts. Accurate
    to a few units of 2**-52 at any counts (the counts are at hand, so no
    bound can fail for want of them). The clustering-metrics article's
    examples (natural logarithms):

    >>> round(entropy([6, 7, 5]), 3), round(entropy([9, 1]), 3), entropy([4]), entropy([])
    (1.089, 0.325, 0.0, 0.0)
    >>> round(entropy([2**62, 1, 1]) * 2**62, 6)   # about 88 / 2**62, not 0
    87.95025
    """
    values = _summable(_as_counts(counts, "counts").ravel())
    values = values[values > 0]
    n = _sum(values)
    sums = TableSums(n, values.size, 1 if n else 0, 0, 0, 0, 0, n_log_n_fixed_sum(values), 0)
    column = np.full(values.size, n, dtype=object if values.dtype == object else np.int64)
    cells = TableCells(values, values, column, values, column[:1])
    return entropy_reference(sums, base, cells=cells)


def entropy_reference(sums: TableSums, base: float = math.e, *,
                      cells: CellsArgument = None) -> float:
    """Entropy of the reference partition, ``H(R) = ln N - (1/N) sum a ln a`` (in nats by default).

    Exactly 0 with a single reference cluster or no elements.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> entropy_reference(table_sums([[1, 1], [0, 2]]), base=2)
    1.0
    """
    return _in_base(_one_entropy(sums, cells, reference=True), base)


def entropy_model(sums: TableSums, base: float = math.e, *,
                  cells: CellsArgument = None) -> float:
    """Entropy of the model partition, ``H(M) = ln N - (1/N) sum b ln b``.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> round(entropy_model(table_sums([[1, 1], [0, 2]]), base=2), 12)
    0.811278124459
    """
    return _in_base(_one_entropy(sums, cells, reference=False), base)


def _one_entropy(sums: TableSums, cells: CellsArgument, *, reference: bool) -> float:
    n = sums.n_elements
    clusters = sums.n_reference_clusters if reference else sums.n_model_clusters
    if n == 0 or clusters <= 1:
        return 0.0
    total = n_log_n_fixed(n)
    n_log_n = sums.reference_n_log_n if reference else sums.model_n_log_n
    value = total - n_log_n
    if not (total >> (_SURE_SHIFT - 1) < value or _sure(value, total + n_log_n)):
        table = _resolve(cells)
        if table is not None:
            sizes = _exact_arrays(table)[3 if reference else 4]
            return _entropy_nats(sizes, _sum(sizes))
    return max(value, 1) / (n * _ONE)  # two or more clusters: positive


def mutual_information(sums: TableSums, base: float = math.e, *,
                       cells: CellsArgument = None) -> float:
    """Mutual information ``sum (n/N) log(N n / (a b))`` of the two partitions.

    From the sums it is ``(1/N)(sum n ln n - sum a ln a - sum b ln b) + ln N``;
    0 when either partition has a single cluster or there are no elements,
    never below 0. The article's 17-element example, in bits:

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(mutual_information(table_sums(table), base=2), 12)
    0.565445018843

    With a huge cell the sums no longer determine it; the cells do:

    >>> big = [[2, 2], [2**60, 0]]
    >>> round(mutual_information(table_sums(big), cells=table_cells(big)) * 2**60, 9)
    81.018778584
    """
    mutual, _, _, scale = _information(sums, cells)
    return _in_base(mutual / scale, base)


def variation_of_information(sums: TableSums, base: float = math.e, *,
                             cells: CellsArgument = None) -> float:
    """Variation of information ``H(R|M) + H(M|R)`` (Meila), a distance: 0 for identical partitions.

    From the sums it is ``(sum a ln a + sum b ln b - 2 sum n ln n) / N``.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> variation_of_information(table_sums([[3, 0], [0, 2]]))
    0.0
    >>> round(variation_of_information(table_sums([[1, 1], [1, 1]]), base=2), 12)
    2.0
    """
    log_base = 1.0 if base == math.e else _log_base(base)
    n = sums.n_elements
    if n == 0:
        return 0.0
    reference_sum, model_sum, cells_sum = (sums.reference_n_log_n, sums.model_n_log_n,
                                           sums.cells_n_log_n)
    margins = reference_sum + model_sum
    distance = margins - 2 * cells_sum
    # The terms' magnitudes sum to margins + 2 cells_sum <= 2 margins (a cell's n ln n
    # is at most its row's and its column's): the bound of _sure, one shift coarser.
    if margins >> (_SURE_SHIFT - 1) < distance:
        return distance / (n * _ONE) / log_base
    given_model, given_reference = _conditionals(sums, cells)
    return (given_model + given_reference) / log_base


def _check_average_method(average_method: str) -> AverageMethod:
    if average_method not in _AVERAGE_METHODS:
        raise ValueError("average_method must be 'arithmetic', 'geometric', 'min' or 'max', "
                         f"not {average_method!r}")
    return average_method  # type: ignore[return-value]


def _normalizer(reference: float, model: float, average_method: AverageMethod) -> float:
    """The generalized mean of the two entropies (Vinh et al.)."""
    if average_method == "arithmetic":
        return (reference + model) / 2
    if average_method == "geometric":
        # For equal entropies sqrt(h * h) == h exactly (IEEE rounding), so identical
        # partitions keep a ratio of exactly 1.
        return math.sqrt(reference * model)
    if average_method == "min":
        return min(reference, model)
    return max(reference, model)


def normalized_mutual_information(sums: TableSums,
                                  average_method: AverageMethod = "arithmetic", *,
                                  cells: CellsArgument = None) -> float:
    """Normalized mutual information ``MI / mean(H(R), H(M))``, in [0, 1].

    ``average_method`` picks the mean: "arithmetic" (scikit-learn's default),
    "geometric", "min" or "max". Conventions, scikit-learn's: 1 when both
    partitions have a single cluster or there are no elements (a perfect
    match), 0 when the mutual information is 0 (including when only one side
    has a single cluster). Identical partitions score exactly 1.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(normalized_mutual_information(table_sums(table)), 12)
    0.364561771857
    >>> normalized_mutual_information(table_sums([[4]])), normalized_mutual_information(
    ...     table_sums([[2, 2]]))
    (1.0, 0.0)
    """
    method = average_method if average_method == "arithmetic" else _check_average_method(
        average_method)
    mutual, reference, model, scale = _information(sums, cells)
    if mutual == 0:  # 1 when both sides have a single cluster (or there are no elements)
        return 1.0 if sums.n_reference_clusters <= 1 and sums.n_model_clusters <= 1 else 0.0
    if method == "arithmetic":  # from the sums, a ratio of exact integers rounded once
        return 2 * mutual / (reference + model)
    if method == "min":
        return mutual / min(reference, model)
    if method == "max":
        return mutual / max(reference, model)
    return (mutual / scale) / _normalizer(reference / scale, model / scale, method)


def homogeneity(sums: TableSums, *, cells: CellsArgument = None) -> float:
    """Homogeneity ``MI / H(R)``: 1 when each model cluster holds one reference class only.

    1 when the reference has a single cluster or there are no elements
    (scikit-learn's convention: nothing to be homogeneous about).

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> homogeneity(table_sums([[2, 0], [0, 1], [0, 1]])), homogeneity(table_sums([[1, 1]]))
    (0.6666666666666666, 1.0)
    >>> big = [[2, 2], [2**60, 0]]   # add_many([0, 0, 1], [0, 1, 0], [2, 2, 2**60])
    >>> round(homogeneity(table_sums(big), cells=table_cells(big)), 12)
    0.491588537504
    """
    if sums.n_reference_clusters <= 1:
        return 1.0
    mutual, reference, _, _ = _information(sums, cells)
    return mutual / reference


def completeness(sums: TableSums, *, cells: CellsArgument = None) -> float:
    """Completeness ``MI / H(M)``: 1 when each reference class lies in one model cluster.

    1 when the model has a single cluster or there are no elements.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> completeness(table_sums([[2, 0], [0, 1], [0, 1]]))
    1.0
    """
    if sums.n_model_clusters <= 1:
        return 1.0
    mutual, _, model, _ = _information(sums, cells)
    return mutual / model


def v_measure(sums: TableSums, beta: float = 1.0, *, cells: CellsArgument = None) -> float:
    """V-measure ``(1 + beta) h c / (beta h + c)``: weighted harmonic mean of homogeneity and completeness.

    ``beta > 1`` weighs completeness more; 0 when both are 0 (scikit-learn's convention).

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> round(v_measure(table_sums([[2, 0], [0, 1], [0, 1]])), 12)
    0.8
    """
    if beta != 1 and not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta >= 0):
        raise ValueError(f"beta must be a finite number >= 0, not {beta!r}")
    mutual, reference, model, _ = _information(sums, cells)
    if reference and model:  # both entropies positive: two or more clusters on each side
        if mutual == 0:  # h == c == 0
            return 0.0
        # (1 + beta) h c / (beta h + c) with h = MI / H(R) and c = MI / H(M) is
        # (1 + beta) MI / (H(R) + beta H(M)); at beta = 1, from the sums, a ratio of
        # exact integers rounded once, as NMI's (identical partitions score exactly 1).
        if beta == 1:
            return 2 * mutual / (reference + model)
        return (1 + beta) * mutual / (reference + beta * model)
    one_reference, one_model = sums.n_reference_clusters <= 1, sums.n_model_clusters <= 1
    if one_reference and one_model:
        h = c = 1.0
    else:
        h = 1.0 if one_reference else mutual / reference
        c = 1.0 if one_model else mutual / model
    if h + c == 0:
        return 0.0
    if beta == 0:  # completeness has no weight: the mean is homogeneity (c may be 0 here)
        return h
    return (1 + beta) * h * c / (beta * h + c)


def adjusted_mutual_information(sums: TableSums, expected: float,
                                average_method: AverageMethod = "arithmetic", *,
                                cells: CellsArgument = None) -> float:
    """Adjusted mutual information ``(MI - E[MI]) / (mean(H(R), H(M)) - E[MI])`` (Vinh et al.).

    ``expected`` is :func:`expected_mutual_information` of the table's row and
    column sums. Conventions, scikit-learn's: 1 when both partitions have a
    single cluster or there are no elements, 0 when only one has; a
    numerator or denominator that rounds to within machine epsilon of 0
    keeps its sign at magnitude epsilon, so identical partitions score 1.
    MI and the entropies are read as by :func:`mutual_information`.

    Cost: O(1) from ``sums`` when they determine the value to 2**-43 relative
    (the bound in the module's notes on accuracy); otherwise O(cells) from
    ``cells`` (a :class:`TableCells`, or a function returning one, called only
    then) when given, and the O(1) value when not.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> expected = expected_mutual_information([6, 6, 5], [8, 5, 4])
    >>> round(adjusted_mutual_information(table_sums(table), expected), 12)
    0.260181225389
    """
    method = _check_average_method(average_method)
    one_reference, one_model = sums.n_reference_clusters <= 1, sums.n_model_clusters <= 1
    if one_reference and one_model:
        return 1.0
    if one_reference or one_model:
        return 0.0
    mutual_scaled, reference, model, scale = _information(sums, cells)
    mutual = mutual_scaled / scale
    normalizer = _normalizer(reference / scale, model / scale, method)
    epsilon = float(np.finfo(np.float64).eps)
    numerator = mutual - expected
    denominator = normalizer - expected
    # scikit-learn's rule: E[MI] may exceed MI or the normalizer by a rounding;
    # keep the sign, avoid 0/0 (identical partitions give eps/eps = 1).
    numerator = min(numerator, -epsilon) if numerator < 0 else max(numerator, epsilon)
    denominator = min(denominator, -epsilon) if denominator < 0 else max(denominator, epsilon)
    return numerator / denominator


# ---------------------------------------------------------------------------------------------
# Expected mutual information

#: Each side's neglected hypergeometric tail mass is below 2**-TAIL_BITS (see below).
_TAIL_BITS = 128
_TAIL_LOG = _TAIL_BITS * math.log(2.0)
#: Work in chunks of about this many terms, to bound memory.
_CHUNK_TERMS = 1 << 21
#: A pair of sizes whose window holds more terms than this is summed on a grid (see below).
_WIDE_WINDOW = 1 << 11
#: The grid of a wide window has this many points on each side of its centre.
_GRID_HALF = 128


def expected_mutual_information(reference_sizes: ArrayLike, model_sizes: ArrayLike) -> float:
    """``E[MI]`` over all tables with these row and column sums (the permutation model), in nats.

    Vinh et al.'s formula: for every pair of sizes ``(a, b)`` the cell
    ``n`` follows the hypergeometric law of ``b`` draws from ``N`` elements of
    which ``a`` are marked, and contributes ``(n / N) ln(N n / (a b))``.

    How it is fast and why it loses nothing at double precision:

    1. Equal sizes are grouped: the work is per pair of *distinct* sizes,
       weighted by their multiplicities.
    2. Only the terms that can matter are summed. By Hoeffding (1963, section 6)
       the hypergeometric moment generating function is dominated by the
       binomial one, so Bernstein's inequality holds for it:
       ``P(|n - mu| >= t) <= 2 exp(-t**2 / (2 (v + t / 3)))`` with ``mu = a b / N``
       and ``v`` the binomial variance bound of the smallest of four equivalent
       draws (``n - mu`` is also ``(a - mu) - (a - n)``, ``(b - mu) - (b - n)``
       and ``(N - a - b + n) - (N - a - b + mu)``: at most twice the
       hypergeometric variance). Choosing ``t`` so that each tail is below
       ``2**-128`` and summing ``n`` in ``[mu - t, mu + t]`` leaves out a mass
       below ``2**-127`` per pair; since every term is at most
       ``(min(a, b) / N) ln N`` in size, the total left out is below
       ``K ln(N) 2**-127`` for ``K`` clusters, far below half a unit in the
       last place of any non-zero E[MI] (which is at least of order ``1 / N``).
    3. No cancellation. Since ``E[n] = mu`` exactly, ``E[(n / N) ln(n / mu)]``
       is ``E[D(n, mu)] / N`` with the deviance ``D(x, m) = x ln(x / m) + m - x
       >= 0`` (:func:`_deviance`): a sum of non-negative terms, where the plain
       form's terms have both signs and nearly cancel. Each ``n - mu`` is
       formed from exact integers (:func:`_counts_at`), so nothing depends on
       how well a float holds ``N``, ``a``, ``b`` or ``mu``.
    4. No large log-factorials. Probabilities are built outward from the mode
       with the ratio of neighbouring ones,
       ``P(n + 1) / P(n) = (a - n)(b - n) / ((n + 1)(N - a - b + n + 1))``,
       cumulated in log space, and normalised by their sum (which is 1 up to the
       neglected ``2**-127``). Differences of ``ln N!``-sized numbers, where
       float64 keeps only about 9 correct digits at ``N = 10**6`` (the source of
       scikit-learn's error of about 1e-9), never occur.
    5. Bounded work at any ``N``. A window wider than 2048 terms (a standard
       deviation of ``n`` above 53, so ``N`` above 10**4) is not summed term by
       term: :func:`_expected_wide` evaluates 257 points whatever the width,
       agrees with a 40-digit sum of every term to about 1e-15 relative, and
       has a discretisation error below ``exp(-490)`` of the value. So the work
       is at most 2048 terms per pair of distinct sizes: a 2 x 2 table with
       ``N`` near ``2**63`` costs 4 x 257 terms (it would be 4 x 10**10 term by
       term, and 213 GiB at once).

    Exactly 0 when a side has one cluster (every table is then the same).

    >>> round(expected_mutual_information([6, 6, 5], [8, 5, 4]), 12)
    0.151683707456
    >>> expected_mutual_information([4], [1, 3])
    0.0
    >>> 0 < expected_mutual_information([2**62, 2**62 - 1], [2**61, 2**63 - 1 - 2**61]) < 1e-18
    True
    """
    return _expected_mutual_information(reference_sizes, model_sizes)[0]


def _expected_mutual_information(reference_sizes: ArrayLike,
                                 model_sizes: ArrayLike) -> tuple[float, int]:
    """:func:`expected_mutual_information` and the number of terms it evaluated (the work done)."""
    reference = _as_counts(reference_sizes, "reference_sizes").ravel()
    model = _as_counts(model_sizes, "model_sizes").ravel()
    reference, model = reference[reference > 0], model[model > 0]
    n = _sum(reference) if reference.size else 0
    n_model = _sum(model) if model.size else 0
    if n != n_model:
        raise ValueError(f"reference_sizes and model_sizes must have the same total "
                         f"(they have {n} and {n_model})")
    if reference.size <= 1 or model.size <= 1:
        return 0.0, 0
    a_sizes, a_multiplicity = np.unique(reference, return_counts=True)
    b_sizes, b_multiplicity = np.unique(model, return_counts=True)
    # Exact integer arithmetic, in int64 when every product a b fits, else in Python ints.
    fits = n < 2**62 and float(a_sizes[-1]) * float(b_sizes[-1]) < 2.0**62
    exact: Any = np.int64 if fits else object
    a_exact = np.repeat(a_sizes, b_sizes.size).astype(exact)
    b_exact = np.tile(b_sizes, a_sizes.size).astype(exact)
    a, b = a_exact.astype(np.float64), b_exact.astype(np.float64)
    weight = np.outer(a_multiplicity, b_multiplicity).ravel().astype(np.float64)
    total = float(n)
    p_a, p_b = a / total, b / total
    variance = np.minimum(np.minimum(b, total - b) * p_a * (1 - p_a),
                          np.minimum(a, total - a) * p_b * (1 - p_b))
    third = _TAIL_LOG / 3
    reach = third + np.sqrt(third * third + 2 * _TAIL_LOG * variance) + 1.0  # +1: rounding slack

    # Each pair's window, from exact integers: n from low to low + span, summed outward
    # from low + pivot, the mode.
    product = a_exact * b_exact
    centre, remainder = product // n, product % n  # mu = centre + remainder / N
    far = np.floor(reach).astype(np.int64).astype(exact)
    low = np.maximum(np.maximum(a_exact - (n - b_exact), 0), centre - far)
    high = np.minimum(np.minimum(a_exact, b_exact), centre + 1 + far)
    mode = (a_exact + 1) * (b_exact + 1) // (n + 2)
    span = (high - low).astype(np.float64)
    pivot = (np.minimum(np.maximum(mode, low), high) - low).astype(np.float64)

    parts: list[float] = []
    terms = 0
    wide = np.flatnonzero(span >= _WIDE_WINDOW)
    step = max(1, _CHUNK_TERMS // (2 * _GRID_HALF + 1))
    for begin in range(0, wide.size, step):
        chosen = wide[begin:begin + step]
        parts.append(_expected_wide(a_exact[chosen], b_exact[chosen], centre[chosen],
                                    remainder[chosen], weight[chosen], reach[chosen], n))
        terms += chosen.size * (2 * _GRID_HALF + 1)
    narrow = np.flatnonzero(span < _WIDE_WINDOW)
    # Pairs are processed in groups of similar width (powers of two), each as a
    # dense 2-D array: rows are pairs, columns are the n of the window.
    group = np.ceil(np.log2(span[narrow] + 1)).astype(np.int64)
    for g in np.unique(group).tolist():
        members = narrow[group == g]
        width = int(span[members].max()) + 1
        step = max(1, _CHUNK_TERMS // width)
        for begin in range(0, members.size, step):
            chosen = members[begin:begin + step]
            counts = _counts_at(a_exact[chosen], b_exact[chosen], low[chosen], centre[chosen],
                                remainder[chosen], n)
            parts.append(_expected_part(counts, weight[chosen], span[chosen], pivot[chosen],
                                        width, total))
            terms += chosen.size * width
    return max(math.fsum(parts), 0.0), terms


def _counts_at(a: NDArray[Any], b: NDArray[Any], start: NDArray[Any], centre: NDArray[Any],
               remainder: NDArray[Any], n: int) -> NDArray[np.float64]:
    """For each pair and its count ``start``: ``start``, ``a - start``, ``b - start``,
    ``N - a - b + start``, ``start - mu`` and ``mu = centre + remainder / N = a b / N``.

    A (6, pairs) float array. The arguments are exact integers (int64, or
    Python ints in object arrays), so each count is formed exactly and rounded
    once: a small one is exact and a large one within 2**-53 of its value,
    however large ``N`` is; ``start - mu`` is the small exact ``start -
    centre`` less ``remainder / N``.
    """
    fraction = remainder.astype(np.float64) / float(n)
    columns = [start, a - start, b - start, (start - a) + (n - b)]
    return np.array([*(np.asarray(column, dtype=np.float64) for column in columns),
                     (start - centre).astype(np.float64) - fraction,
                     centre.astype(np.float64) + fraction], dtype=np.float64).reshape(6, -1)


def _expected_part(counts: NDArray[np.float64], weight: NDArray[np.float64],
                   span: NDArray[np.float64], pivot: NDArray[np.float64], width: int,
                   total: float) -> float:
    """The E[MI] contribution of some pairs of sizes, each summed over every count of its window."""
    first, second, third, fourth, deviation, mean = (column[:, None] for column in counts)
    k = np.arange(width, dtype=np.float64)[None, :]
    inside = k <= span[:, None]
    m2 = pivot[:, None]
    n = first + k
    # log P(n + 1) / P(n) for the n of the window (garbage past the window, masked below).
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(((second - k) * (third - k)) / ((n + 1) * (fourth + k + 1)))
    step_up = np.where((k >= m2) & (k < span[:, None]), ratio, 0.0)
    step_down = np.where((k < m2) & inside, ratio, 0.0)
    # log P(n) - log P(mode): partial sums start at the mode, where they are small.
    above = np.cumsum(step_up, axis=1)
    log_up = np.zeros_like(above)
    log_up[:, 1:] = above[:, :-1]
    log_down = np.cumsum(step_down[:, ::-1], axis=1)[:, ::-1]
    log_p = np.where(inside, log_up - log_down, -np.inf)
    probability = np.exp(log_p)
    probability /= probability.sum(axis=1, keepdims=True)
    term = np.where(inside, _deviance(np.where(inside, n, 1.0), deviation + k, mean), 0.0)
    contribution = (probability * term).sum(axis=1) / total
    return math.fsum((weight * contribution).tolist())


def _expected_wide(a: NDArray[Any], b: NDArray[Any], centre: NDArray[Any],
                   remainder: NDArray[Any], weight: NDArray[np.float64],
                   reach: NDArray[np.float64], n: int) -> float:
    """The E[MI] contribution of pairs of sizes with wide windows, each from 257 points.

    A window of 2048 terms or more spans ``2 (13.3 sqrt(v) + 30)`` with ``v``
    at most twice the variance ``sigma**2`` of ``n``, so ``sigma`` is above 53;
    each ``m_i`` below is at least ``sigma**2``, so every count on the grid
    is more than 1700 away from the ends of its support.

    - The probabilities come from Loader's (2000) saddle-point form of the
      binomial law, of which the hypergeometric is a ratio:
      ``ln P(n) = const - sum_i [s(x_i) + D(x_i, m_i)] - ln(x_1 x_2 x_3 x_4) / 2``
      over ``(x_i, m_i)`` = ``(n, mu)``, ``(a - n, a - mu)``, ``(b - n, b - mu)``,
      ``(N - a - b + n, N - a - b + mu)``, with ``s`` the error of Stirling's
      formula (:func:`_stirling_error`) and ``D`` the deviance
      (:func:`_deviance`). Every ``x_i - m_i`` is ``+-(n - mu)``, so each
      ``ln P`` is accurate to a few units of 2**-52, with no ``ln N!``-sized
      differences, at any ``N`` below 2**63.
    - The sum over every count of the window is replaced by the sum over every
      ``step``-th one, ``c + j step`` for ``|j| <= 128`` around ``c = floor(mu)``
      with ``step = ceil(reach / 128)``, normalised by the same sum of
      probabilities. Both sums are trapezoid rules of one smooth, nearly
      Gaussian integrand, whose error (Poisson summation) is of relative order
      ``exp(-2 pi**2 (sigma / step)**2)``; ``sigma / step`` is above 5 on every
      wide window, which puts that below ``exp(-490)``. Against a 40-digit sum
      of every term the result agrees to about 1e-15 relative (tests/test_abuse.py).
    """
    steps = np.maximum(np.ceil(reach / _GRID_HALF), 1.0)
    start = centre - (_GRID_HALF * steps).astype(np.int64).astype(centre.dtype)
    first, second, third, fourth, deviation, _ = (
        column[:, None] for column in _counts_at(a, b, start, centre, remainder, n))
    shift = np.arange(2 * _GRID_HALF + 1, dtype=np.float64)[None, :] * steps[:, None]
    counts = (first + shift, second - shift, third - shift, fourth + shift)
    deviation = deviation + shift  # n - mu
    # Paired as (1, 4) and (2, 3), which swapping a and b leaves alone: E[MI] is symmetric.
    stirling = [_stirling_error(x) for x in counts]
    deviance = [_deviance(x, sign * deviation) for x, sign in zip(counts, (1, -1, -1, 1))]
    log_p = -((stirling[0] + stirling[3]) + (stirling[1] + stirling[2])
              + (deviance[0] + deviance[3]) + (deviance[1] + deviance[2])
              + 0.5 * (np.log(counts[0] * counts[3]) + np.log(counts[1] * counts[2])))
    probability = np.exp(log_p - log_p.max(axis=1, keepdims=True))
    contribution = (probability * deviance[0]).sum(axis=1) / probability.sum(axis=1) / float(n)
    return math.fsum((weight * contribution).tolist())


def _stirling_error(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``ln x! - (x + 1/2) ln x + x - ln sqrt(2 pi)``, for ``x`` above 1000 (the first three terms).

    The next term, ``1 / (1680 x**7)``, is below 1e-24 there.
    """
    inverse = 1.0 / x
    square = inverse * inverse
    result: NDArray[np.float64] = (1.0 / 12 - (1.0 / 360 - square / 1260) * square) * inverse
    return result


#: 1 / (2k + 1) for k = 9 down to 1: the series of :func:`_deviance`, highest power first.
_ATANH_COEFFICIENTS = tuple(1.0 / (2 * k + 1) for k in range(9, 0, -1))


def _deviance(x: NDArray[np.float64], deviation: NDArray[np.float64],
              m: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """``x ln(x / m) + m - x`` with ``m = x - deviation`` (``x, m >= 0``), without cancellation.

    Loader's ``bd0``: with ``v = (x - m) / (x + m)``, ``ln(x / m) = 2 atanh v``,
    so the value is ``(x - m) v + 2 x sum_k v**(2k + 1) / (2k + 1)`` over
    ``k >= 1``, terms of one sign, the k-th ``v**(2k - 1) / (2k + 1)`` of the
    first: 9 of them where ``|v| < 0.1`` (the rest is below 1e-18 of the
    value), the formula itself elsewhere (then ``x`` and ``m`` differ by a
    fifth or more, and it cancels at most a few digits). ``0 ln 0`` is 0. Give
    ``m`` when it may be far smaller than ``x`` (``x - deviation`` would lose it).
    """
    if m is None:
        m = x - deviation
    with np.errstate(divide="ignore", invalid="ignore"):
        v = deviation / (x + m)
    near = np.abs(v) < 0.1
    if near.all():
        return _deviance_series(x, deviation, v)
    with np.errstate(divide="ignore", invalid="ignore"):
        result: NDArray[np.float64] = np.where(x > 0, x * np.log(x / m), 0.0) + (m - x)
    if near.any():
        result[near] = _deviance_series(x[near], deviation[near], v[near])
    return result


def _deviance_series(x: NDArray[np.float64], deviation: NDArray[np.float64],
                     v: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`_deviance` where ``|v| < 0.1``, its series summed by Horner's rule."""
    square = v * v
    tail: Any = _ATANH_COEFFICIENTS[0]  # sum_k v**(2k - 2) / (2k + 1), highest power first
    for coefficient in _ATANH_COEFFICIENTS[1:]:
        tail = tail * square + coefficient
    series: NDArray[np.float64] = deviation * v + 2.0 * x * v * square * tail
    return series


# ---------------------------------------------------------------------------------------------
# Set matching


def purity_from_maxima(maxima: ArrayLike, n_elements: int) -> float:
    """``sum(maxima) / N``: the share of elements in the majority class of their cluster.

    ``maxima`` holds, for each cluster, the count of its largest class. No
    elements: 1.0 (two empty partitions are identical). :func:`purity` and
    :func:`inverse_purity` are this of a table's column or row maxima.

    >>> purity_from_maxima([5, 4, 3], 17) == 12 / 17, purity_from_maxima([], 0)
    (True, 1.0)
    """
    values = _as_counts(maxima, "maxima").ravel()
    if n_elements == 0:
        return 1.0
    total = sum(values.tolist()) if values.dtype == object else int(values.sum())
    return total / n_elements


def purity(table: ArrayLike) -> float:
    """Purity ``(1/N) sum_j max_i n[i, j]``: each model cluster counted as its majority class.

    R NMF's ``purity`` (Kim and Park 2007), columns being the clusters. It
    grows with the number of clusters (all singletons score 1). No elements:
    1.0 (two empty partitions are identical). The article's 17-element example:

    >>> round(purity([[5, 1, 0], [1, 4, 1], [2, 0, 3]]), 12)   # (5 + 4 + 3) / 17
    0.705882352941
    """
    counts = _as_counts(table, "table")
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    n = int(counts.sum()) if counts.size else 0
    maxima = counts.max(axis=0) if counts.size else counts.sum(axis=0)
    return purity_from_maxima(maxima, n)


def inverse_purity(table: ArrayLike) -> float:
    """Inverse purity ``(1/N) sum_i max_j n[i, j]``: purity with the partitions' roles swapped.

    >>> round(inverse_purity([[5, 1, 0], [1, 4, 1], [2, 0, 3]]), 12)   # (5 + 4 + 3) / 17
    0.705882352941
    """
    return purity(np.asarray(table).T)


def nmf_entropy(sums: TableSums, *, cells: CellsArgument = None) -> float:
    """R NMF's entropy: the entropy of the classes within each cluster, ``H(R | M) / log(l)``.

    ``-(1 / (N log2 l)) sum_q sum_j n[j, q] log2(n[j, q] / b[q])`` with ``l``
    the number of reference classes (Kim and Park 2007): 0 when every
    cluster is pure, 1 at worst. Where R returns NaN (a single class, so
    ``log l = 0``, or no elements) this returns 0.0: there is no uncertainty
    about the class. ``H(R|M)`` is read as by :func:`variation_of_information`:
    O(1) from the sums when they determine it to 2**-43 relative, else O(cells)
    from ``cells`` when given (see the module's notes on accuracy).

    >>> nmf_entropy(table_sums([[3, 0], [0, 2]])), nmf_entropy(table_sums([[1, 1], [1, 1]]))
    (0.0, 1.0)
    >>> nmf_entropy(table_sums([[4, 2]]))
    0.0
    """
    classes = sums.n_reference_clusters
    if sums.n_elements == 0 or classes <= 1:
        return 0.0
    # H(R|M) <= H(R) <= log l exactly; the roundings of the sums and of the logarithm can
    # take the quotient past 1 by a few units in the last place (1.0000000000000007 for
    # two even classes in one cluster), never further: 1 is the value then.
    return min(1.0, _conditionals(sums, cells)[0] / math.log(classes))
