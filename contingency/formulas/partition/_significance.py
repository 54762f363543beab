"""The adjusted Rand index against chance: its exact variance under the permutation model, z and p.

The permutation model (Hubert and Arabie 1985) keeps both partitions'
cluster sizes and pairs the elements at random: the table is drawn from the
generalised hypergeometric distribution with the observed margins. The
adjusted Rand index is ``(S - E[S]) / (max - E[S])`` with ``S = same_same``
and ``E[S]`` and ``max`` fixed by the margins, so under the model it is a
linear function of ``S``, its expectation is 0, and its z-score is that of
``S``: ``z = (S - E[S]) / sd(S)``.

The variance of ``S``. Write ``R = sum C(a_i, 2)`` and ``M = sum C(b_j, 2)``
(pairs inside reference and model clusters), ``R3 = sum C(a_i, 3)`` and
``M3 = sum C(b_j, 3)`` (triples), ``P = C(N, 2)``. The factorial moments of
the table's cells under the model are ``E[prod (n_ij)_(r_ij)] = prod_i
(a_i)_(r_i.) prod_j (b_j)_(r_.j) / (N)_(r..)`` (choose the ordered elements
in their rows, then the chance that the random pairing sends them to the
chosen columns), which gives, with ``U = R**2 - R - 6 R3`` and
``V = M**2 - M - 6 M3`` (twice the ordered pairs of reference pairs that
share no element, over 4, and the same for the model)::

    E[S]    = R M / P
    E[S**2] = 2 U V / (P (N - 2)(N - 3)) + 18 R3 M3 / (P (N - 2)) + R M / P
    Var(S)  = E[S**2] - E[S]**2

(the first term is absent below 4 elements, the second below 3: their
numerators are then 0). This is the classical variance of the pair-count
statistic under fixed margins; Steinley, Brusco and Hubert (2016) give the
variance of the adjusted Rand index, ``Var(S) / (max - E[S])**2``, from the
same sums of powers of the margins. The formula here was derived as above and
is checked in the tests against every permutation of small tables (exactly,
with fractions) and against a 10,000-permutation Monte Carlo test.

Exactness: everything is computed in integers (the sums are exact, and
``Var(S)`` is a difference of nearly equal numbers, which floats would
lose); the only roundings are the one division that gives ``z**2``, a square
root and ``erfc``.

References: L. Hubert and P. Arabie (1985), "Comparing partitions", Journal
of Classification 2, 193-218; D. Steinley, M. J. Brusco and L. Hubert
(2016), "The variance of the adjusted Rand index", Psychological Methods
21(2), 261-272.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from numpy.typing import ArrayLike

from contingency.formulas.partition._sums import (
    TableSums,
    as_counts,
    same_cluster_triples,
    summable,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["AriSignificance", "adjusted_rand_index_variance", "ari_significance",
           "margin_triples"]

_SQRT2 = math.sqrt(2.0)


class AriSignificance(NamedTuple):
    """How far the adjusted Rand index is above chance, under the permutation model.

    ``zscore`` is ``ARI / sd(ARI)`` (the index's expectation under the model
    is 0); ``pvalue`` the one-sided normal tail ``P(Z >= zscore)``: small when
    the partitions agree more than random pairings of the same cluster sizes
    would.
    """

    zscore: float
    pvalue: float


def margin_triples(table: ArrayLike) -> tuple[int, int]:
    """``(sum C(a_i, 3), sum C(b_j, 3))`` of a table's row and column sums, exactly.

    What :func:`ari_significance` takes besides :class:`TableSums`, for a table of one's own.

    >>> margin_triples([[3, 1], [0, 2]])   # rows 4 and 2, columns 3 and 3
    (4, 2)
    """
    counts = summable(as_counts(table, "table"))
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    return same_cluster_triples(counts.sum(axis=1)), same_cluster_triples(counts.sum(axis=0))


def _variance_parts(sums: TableSums, reference_triples: int, model_triples: int
                    ) -> tuple[int, int, int]:
    """``(W, D, P)`` with ``Var(S) = W / D`` exactly, ``P = C(N, 2)``; ``W`` is 0 when ``S`` cannot vary."""
    n = int(sums.n_elements)
    r, m = int(sums.same_reference), int(sums.same_model)
    r3, m3 = int(reference_triples), int(model_triples)
    p = n * (n - 1) // 2
    if n < 2:
        return 0, 1, p
    product = r * m
    if n < 4:  # no two disjoint pairs: U V drops out (its numerator is 0), and D = P**2
        return 18 * r3 * m3 * p + product * p - product * product, p * p, p
    u = r * r - r - 6 * r3
    v = m * m - m - 6 * m3
    tail = (n - 2) * (n - 3)
    # Var(S) P**2 (N - 2)(N - 3), each term of the module's E[S**2] and E[S]**2 multiplied out.
    w = 2 * u * v * p + 18 * r3 * m3 * p * (n - 3) + product * p * tail - product * product * tail
    return w, p * p * tail, p


def adjusted_rand_index_variance(sums: TableSums, reference_triples: int,
                                 model_triples: int) -> float:
    """The variance of the adjusted Rand index under the permutation model (fixed cluster sizes).

    ``Var(S) / (max - E[S])**2``, from the module's formula for ``Var(S)``;
    ``reference_triples`` and ``model_triples`` are the margins' sums of
    ``C(n, 3)`` (:func:`margin_triples`). 0.0 when the index cannot vary: fewer
    than two elements, a partition with one cluster, or one of singletons
    (every pairing then gives the same table of pairs).

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(adjusted_rand_index_variance(table_sums(table), *margin_triples(table)), 12)
    0.00738005868
    >>> adjusted_rand_index_variance(table_sums([[2, 1]]), *margin_triples([[2, 1]]))
    0.0
    """
    w, d, p = _variance_parts(sums, reference_triples, model_triples)
    if w == 0:
        return 0.0
    r, m = int(sums.same_reference), int(sums.same_model)
    # max - E[S] = ((R + M) P - 2 R M) / (2 P): positive whenever S can vary.
    spread = (r + m) * p - 2 * r * m
    return 4 * p * p * w / (d * spread * spread)


def ari_significance(sums: TableSums, reference_triples: int,
                     model_triples: int) -> AriSignificance:
    """The z-score and one-sided p-value of the adjusted Rand index against chance.

    ``zscore = (S - E[S]) / sd(S)``, which is ``ARI / sd(ARI)``, with ``S =
    same_same`` and its mean and variance under the permutation model (the
    module's notes give the formula); ``pvalue = P(Z >= zscore)`` for a
    standard normal ``Z`` (Steinley, Brusco and Hubert find the normal
    approximation good across sample sizes and numbers of clusters; for
    a handful of elements prefer a permutation test). ``reference_triples``
    and ``model_triples`` are the margins' sums of ``C(n, 3)``
    (:func:`margin_triples`).

    *Decided here*: when the index cannot vary under the model (fewer than
    two elements, a partition with one cluster, or one of singletons), the
    observed table is the only one there is: ``AriSignificance(0.0, 1.0)``, no
    distance from chance and the exact permutation p-value, never NaN.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> result = ari_significance(table_sums(table), *margin_triples(table))
    >>> round(result.zscore, 6), round(result.pvalue, 6)
    (2.827642, 0.002345)
    >>> ari_significance(table_sums([[3, 0], [0, 0]]), 1, 1)
    AriSignificance(zscore=0.0, pvalue=1.0)
    """
    w, d, p = _variance_parts(sums, reference_triples, model_triples)
    if w == 0:  # S is the same for every pairing: it is its own mean
        return AriSignificance(0.0, 1.0)
    deviation = int(sums.same_same) * p - int(sums.same_reference) * int(sums.same_model)
    # z = (S P - R M) / P / sqrt(W / D): its square is one exact quotient of integers,
    # rounded once.
    squared = deviation * deviation * d / (p * p * w)
    zscore = math.copysign(math.sqrt(squared), deviation)
    return AriSignificance(zscore, 0.5 * math.erfc(zscore / _SQRT2))
