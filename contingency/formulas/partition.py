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
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas import classification
from contingency.formulas._numeric import divide

__all__ = [
    "FIXED_POINT_BITS",
    "AverageMethod",
    "PairConfusion",
    "TableSums",
    "adjusted_mutual_information",
    "adjusted_rand_index",
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
    "table_sums",
    "v_measure",
    "variation_of_information",
]

AverageMethod = Literal["arithmetic", "geometric", "min", "max"]
_AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")

#: ``n ln n`` is held as the exact integer ``n ln n * 2**FIXED_POINT_BITS``.
FIXED_POINT_BITS = 52
_ONE: int = 1 << FIXED_POINT_BITS
_SCALE = float(_ONE)

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
    counts = _as_counts(table, "table")
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
    same_same = sums.same_same
    return PairConfusion(
        same_same=same_same,
        same_reference_only=sums.same_reference - same_same,
        same_model_only=sums.same_model - same_same,
        different_different=(pairs(sums.n_elements) - sums.same_reference
                             - sums.same_model + same_same),
    )


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
    it is 1, scikit-learn's convention.

    >>> round(adjusted_rand_index(1, 0, 1, 4), 12)    # [0,0,1,2] vs [0,0,1,1]
    0.571428571429
    >>> adjusted_rand_index(0, 0, 0, 0), adjusted_rand_index(6, 0, 0, 0)
    (1.0, 1.0)
    """
    a, b, c, d = (int(same_same), int(same_model_only), int(same_reference_only),
                  int(different_different))
    if b == 0 and c == 0:
        return 1.0
    # Not zero here: b or c is positive, so (a + c)(c + d) + (a + b)(b + d) >= c**2 + b**2 > 0.
    return 2 * (a * d - b * c) / ((a + c) * (c + d) + (a + b) * (b + d))


# ---------------------------------------------------------------------------------------------
# Information


def _log_base(base: float) -> float:
    if not (isinstance(base, (int, float)) and math.isfinite(base) and base > 0 and base != 1):
        raise ValueError(f"base must be a finite number > 0 other than 1, not {base!r}")
    return math.log(base)


def _scaled(value: int, sums: TableSums, base: float) -> float:
    """``value / (N 2**52)`` in the unit of ``base``: one rounding of an exact ratio."""
    log_base = _log_base(base)
    if sums.n_elements == 0:
        return 0.0
    return value / (sums.n_elements * _ONE) / log_base


def _total(sums: TableSums) -> int:
    return n_log_n_fixed(sums.n_elements)


def _information(sums: TableSums) -> tuple[int, int, int]:
    """``N 2**52`` times (MI, H(reference), H(model)), exact integers.

    With ``T = N ln N`` and ``S`` the three ``n ln n`` sums,
    ``N H = T - S_reference`` and ``N MI = S_cells - S_reference - S_model + T``.
    A single cluster has ``S = T`` exactly, so its entropy is exactly 0 and
    so is the mutual information; identical partitions have equal sums, so
    their MI equals their entropies exactly. MI is never below 0 (a negative
    value could only come from the rounding of the ``n ln n`` terms).
    """
    total = _total(sums)
    reference = total - sums.reference_n_log_n
    model = total - sums.model_n_log_n
    mutual = sums.cells_n_log_n - sums.reference_n_log_n - sums.model_n_log_n + total
    return max(mutual, 0), max(reference, 0), max(model, 0)


def entropy(counts: ArrayLike, base: float = math.e) -> float:
    """Entropy ``-sum (n/N) log(n/N)`` of one partition, from its cluster sizes ``counts``.

    0 for a single cluster and for no elements (no uncertainty).
    scikit-learn's ``entropy(labels)`` is this of the label counts. The
    clustering-metrics article's examples (natural logarithms):

    >>> round(entropy([6, 7, 5]), 3), round(entropy([9, 1]), 3), entropy([4]), entropy([])
    (1.089, 0.325, 0.0, 0.0)
    """
    values = _as_counts(counts, "counts").ravel()
    n = int(values.sum()) if values.size else 0
    sums = TableSums(n, 0, 0, 0, 0, 0, 0, n_log_n_fixed_sum(values), 0)
    return entropy_reference(sums, base)


def entropy_reference(sums: TableSums, base: float = math.e) -> float:
    """Entropy of the reference partition, ``H(R) = ln N - (1/N) sum a ln a`` (in nats by default).

    >>> entropy_reference(table_sums([[1, 1], [0, 2]]), base=2)
    1.0
    """
    return _scaled(_information(sums)[1], sums, base)


def entropy_model(sums: TableSums, base: float = math.e) -> float:
    """Entropy of the model partition, ``H(M) = ln N - (1/N) sum b ln b``.

    >>> round(entropy_model(table_sums([[1, 1], [0, 2]]), base=2), 12)
    0.811278124459
    """
    return _scaled(_information(sums)[2], sums, base)


def mutual_information(sums: TableSums, base: float = math.e) -> float:
    """Mutual information ``sum (n/N) log(N n / (a b))`` of the two partitions.

    Written as ``(1/N)(sum n ln n - sum a ln a - sum b ln b) + ln N`` so that it
    needs only the table's sums; 0 when either partition has a single cluster
    or there are no elements. The article's 17-element example, in bits:

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(mutual_information(table_sums(table), base=2), 12)
    0.565445018843
    """
    return _scaled(_information(sums)[0], sums, base)


def variation_of_information(sums: TableSums, base: float = math.e) -> float:
    """Variation of information ``H(R) + H(M) - 2 MI`` (Meila), a distance: 0 for identical partitions.

    Exactly ``(sum a ln a + sum b ln b - 2 sum n ln n) / N``.

    >>> variation_of_information(table_sums([[3, 0], [0, 2]]))
    0.0
    >>> round(variation_of_information(table_sums([[1, 1], [1, 1]]), base=2), 12)
    2.0
    """
    distance = sums.reference_n_log_n + sums.model_n_log_n - 2 * sums.cells_n_log_n
    return _scaled(max(distance, 0), sums, base)


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
                                  average_method: AverageMethod = "arithmetic") -> float:
    """Normalized mutual information ``MI / mean(H(R), H(M))``, in [0, 1].

    ``average_method`` picks the mean: "arithmetic" (scikit-learn's default),
    "geometric", "min" or "max". Conventions, scikit-learn's: 1 when both
    partitions have a single cluster or there are no elements (a perfect
    match), 0 when the mutual information is 0 (including when only one side
    has a single cluster). Identical partitions score exactly 1.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(normalized_mutual_information(table_sums(table)), 12)
    0.364561771857
    >>> normalized_mutual_information(table_sums([[4]])), normalized_mutual_information(
    ...     table_sums([[2, 2]]))
    (1.0, 0.0)
    """
    method = _check_average_method(average_method)
    mutual, reference, model = _information(sums)
    if reference == 0 and model == 0:
        return 1.0
    if mutual == 0:
        return 0.0
    if method == "arithmetic":  # exact: 2 MI / (H(R) + H(M)) as a ratio of integers
        return 2 * mutual / (reference + model)
    if method == "min":
        return mutual / min(reference, model)
    if method == "max":
        return mutual / max(reference, model)
    scale = sums.n_elements * _ONE
    return (mutual / scale) / _normalizer(reference / scale, model / scale, method)


def homogeneity(sums: TableSums) -> float:
    """Homogeneity ``MI / H(R)``: 1 when each model cluster holds one reference class only.

    1 when the reference has a single cluster or there are no elements
    (scikit-learn's convention: nothing to be homogeneous about).

    >>> homogeneity(table_sums([[2, 0], [0, 1], [0, 1]])), homogeneity(table_sums([[1, 1]]))
    (0.6666666666666666, 1.0)
    """
    mutual, reference, _ = _information(sums)
    return 1.0 if reference == 0 else mutual / reference


def completeness(sums: TableSums) -> float:
    """Completeness ``MI / H(M)``: 1 when each reference class lies in one model cluster.

    1 when the model has a single cluster or there are no elements.

    >>> completeness(table_sums([[2, 0], [0, 1], [0, 1]]))
    1.0
    """
    mutual, _, model = _information(sums)
    return 1.0 if model == 0 else mutual / model


def v_measure(sums: TableSums, beta: float = 1.0) -> float:
    """V-measure ``(1 + beta) h c / (beta h + c)``: weighted harmonic mean of homogeneity and completeness.

    ``beta > 1`` weighs completeness more; 0 when both are 0 (scikit-learn's convention).

    >>> round(v_measure(table_sums([[2, 0], [0, 1], [0, 1]])), 12)
    0.8
    """
    if not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta >= 0):
        raise ValueError(f"beta must be a finite number >= 0, not {beta!r}")
    h, c = homogeneity(sums), completeness(sums)
    if h + c == 0:
        return 0.0
    return (1 + beta) * h * c / (beta * h + c)


def adjusted_mutual_information(sums: TableSums, expected: float,
                                average_method: AverageMethod = "arithmetic") -> float:
    """Adjusted mutual information ``(MI - E[MI]) / (mean(H(R), H(M)) - E[MI])`` (Vinh et al.).

    ``expected`` is :func:`expected_mutual_information` of the table's row and
    column sums. Conventions, scikit-learn's: 1 when both partitions have a
    single cluster or there are no elements, 0 when only one has; a
    numerator or denominator that rounds to within machine epsilon of 0
    keeps its sign at magnitude epsilon, so identical partitions score 1.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> expected = expected_mutual_information([6, 6, 5], [8, 5, 4])
    >>> round(adjusted_mutual_information(table_sums(table), expected), 12)
    0.260181225389
    """
    method = _check_average_method(average_method)
    mutual_fixed, reference_fixed, model_fixed = _information(sums)
    if reference_fixed == 0 and model_fixed == 0:
        return 1.0
    if reference_fixed == 0 or model_fixed == 0:
        return 0.0
    scale = sums.n_elements * _ONE
    mutual = mutual_fixed / scale
    normalizer = _normalizer(reference_fixed / scale, model_fixed / scale, method)
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
       and ``v = min(a, b) p (1 - p)`` the binomial variance bound. Choosing
       ``t`` so that each tail is below ``2**-128`` and summing
       ``n`` in ``[mu - t, mu + t]`` leaves out a mass below ``2**-127`` per pair;
       since every term is at most ``(min(a, b) / N) ln N`` in size, the total
       left out is below ``K ln(N) 2**-127`` for ``K`` clusters, far below half
       a unit in the last place of any non-zero E[MI] (which is at least of
       order ``1 / N``).
    3. No large log-factorials. Terms are built outward from the mode with the
       ratio of neighbouring probabilities,
       ``P(n + 1) / P(n) = (a - n)(b - n) / ((n + 1)(N - a - b + n + 1))``,
       cumulated in log space, and normalised by their sum (which is 1 up to the
       neglected ``2**-127``). Differences of ``ln N!``-sized numbers, where
       float64 keeps only about 9 correct digits at ``N = 10**6`` (the source of
       scikit-learn's error of about 1e-9), never occur.

    Exactly 0 when a side has one cluster (every table is then the same).

    >>> round(expected_mutual_information([6, 6, 5], [8, 5, 4]), 12)
    0.151683707456
    >>> expected_mutual_information([4], [1, 3])
    0.0
    """
    reference = _as_counts(reference_sizes, "reference_sizes").ravel()
    model = _as_counts(model_sizes, "model_sizes").ravel()
    reference, model = reference[reference > 0], model[model > 0]
    n = int(reference.sum()) if reference.size else 0
    n_model = int(model.sum()) if model.size else 0
    if n != n_model:
        raise ValueError(f"reference_sizes and model_sizes must have the same total "
                         f"(they have {n} and {n_model})")
    if reference.size <= 1 or model.size <= 1:
        return 0.0
    a_values, a_multiplicity = np.unique(reference.astype(np.float64), return_counts=True)
    b_values, b_multiplicity = np.unique(model.astype(np.float64), return_counts=True)
    a = np.repeat(a_values, b_values.size)
    b = np.tile(b_values, a_values.size)
    weight = np.outer(a_multiplicity, b_multiplicity).ravel().astype(np.float64)
    total = float(n)

    mean = a * b / total
    p_a, p_b = a / total, b / total
    variance = np.minimum(b * p_a * (1 - p_a), a * p_b * (1 - p_b))
    third = _TAIL_LOG / 3
    reach = third + np.sqrt(third * third + 2 * _TAIL_LOG * variance) + 1.0  # +1: rounding slack
    low = np.maximum(np.maximum(a + b - total, 0.0), np.ceil(mean - reach))
    high = np.minimum(np.minimum(a, b), np.floor(mean + reach))
    mode = np.clip(np.floor((a + 1) * (b + 1) / (total + 2)), low, high)
    widths = (high - low + 1).astype(np.int64)

    parts: list[float] = []
    # Pairs are processed in groups of similar width (powers of two), each as a
    # dense 2-D array: rows are pairs, columns are the n of the window.
    group = np.ceil(np.log2(widths)).astype(np.int64)
    for g in np.unique(group).tolist():
        members = np.flatnonzero(group == g)
        width = int(widths[members].max())
        step = max(1, _CHUNK_TERMS // width)
        for start in range(0, members.size, step):
            chosen = members[start:start + step]
            parts.append(_expected_part(a[chosen], b[chosen], weight[chosen], low[chosen],
                                        high[chosen], mode[chosen], width, total))
    return max(math.fsum(parts), 0.0)


def _expected_part(a: NDArray[np.float64], b: NDArray[np.float64], weight: NDArray[np.float64],
                   low: NDArray[np.float64], high: NDArray[np.float64],
                   mode: NDArray[np.float64], width: int, total: float) -> float:
    """The E[MI] contribution of some pairs of sizes, each summed over its window."""
    n = low[:, None] + np.arange(width, dtype=np.float64)[None, :]
    inside = n <= high[:, None]
    a2, b2, m2 = a[:, None], b[:, None], mode[:, None]
    # log P(k + 1) / P(k) for the k of the window (garbage past the window, masked below).
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(((a2 - n) * (b2 - n)) / ((n + 1) * (total - a2 - b2 + n + 1)))
    step_up = np.where((n >= m2) & (n < high[:, None]), ratio, 0.0)
    step_down = np.where((n < m2) & inside, ratio, 0.0)
    # log P(n) - log P(mode): partial sums start at the mode, where they are small.
    above = np.cumsum(step_up, axis=1)
    log_up = np.zeros_like(above)
    log_up[:, 1:] = above[:, :-1]
    log_down = np.cumsum(step_down[:, ::-1], axis=1)[:, ::-1]
    log_p = np.where(inside, log_up - log_down, -np.inf)
    probability = np.exp(log_p)
    probability /= probability.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(n > 0, (n / total) * np.log((n * total) / (a2 * b2)), 0.0)
    contribution = (probability * np.where(inside, term, 0.0)).sum(axis=1)
    return math.fsum((weight * contribution).tolist())


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


def nmf_entropy(sums: TableSums) -> float:
    """R NMF's entropy: the entropy of the classes within each cluster, ``H(R | M) / log(l)``.

    ``-(1 / (N log2 l)) sum_q sum_j n[j, q] log2(n[j, q] / b[q])`` with ``l``
    the number of reference classes (Kim and Park 2007): 0 when every
    cluster is pure, 1 at worst. Where R returns NaN (a single class, so
    ``log l = 0``, or no elements) this returns 0.0: there is no uncertainty
    about the class.

    >>> nmf_entropy(table_sums([[3, 0], [0, 2]])), nmf_entropy(table_sums([[1, 1], [1, 1]]))
    (0.0, 1.0)
    >>> nmf_entropy(table_sums([[4, 2]]))
    0.0
    """
    classes = sums.n_reference_clusters
    if sums.n_elements == 0 or classes <= 1:
        return 0.0
    conditional = max(sums.model_n_log_n - sums.cells_n_log_n, 0)  # N H(R|M) 2**52, exact
    return conditional / (sums.n_elements * _ONE) / math.log(classes)

