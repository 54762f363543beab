"""Set matching (R NMF): purity, inverse purity and the entropy of the classes within clusters."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from contingency.formulas.partition._cells import CellsArgument
from contingency.formulas.partition._fine import FineArgument
from contingency.formulas.partition._information import conditionals
from contingency.formulas.partition._sums import (
    TableSums,
    as_counts,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["inverse_purity", "majority_share", "nmf_entropy", "purity", "purity_from_maxima"]


def purity_from_maxima(maxima: ArrayLike, n_elements: int) -> float:
    """``sum(maxima) / N``: the share of elements in the majority class of their cluster.

    ``maxima`` holds, for each cluster, the count of its largest class. No
    elements: 1.0 (two empty partitions are identical). :func:`purity` and
    :func:`inverse_purity` are this of a table's column or row maxima.

    >>> purity_from_maxima([5, 4, 3], 17) == 12 / 17, purity_from_maxima([], 0)
    (True, 1.0)
    """
    values = as_counts(maxima, "maxima").ravel()
    return majority_share(sum(values.tolist()) if values.dtype == object else int(values.sum()),
                          n_elements)


def majority_share(total: int, n_elements: int) -> float:
    """``total / N``, ``total`` the sum of the clusters' largest classes: :func:`purity_from_maxima`
    of maxima whose sum is known (an accumulator keeps it). No elements: 1.0.

    >>> majority_share(12, 17) == purity_from_maxima([5, 4, 3], 17), majority_share(0, 0)
    (True, 1.0)
    """
    return 1.0 if n_elements == 0 else total / n_elements


def purity(table: ArrayLike) -> float:
    """Purity ``(1/N) sum_j max_i n[i, j]``: each model cluster counted as its majority class.

    R NMF's ``purity`` (Kim and Park 2007), columns being the clusters. It
    grows with the number of clusters (all singletons score 1). No elements:
    1.0 (two empty partitions are identical). The article's 17-element example:

    >>> round(purity([[5, 1, 0], [1, 4, 1], [2, 0, 3]]), 12)   # (5 + 4 + 3) / 17
    0.705882352941
    """
    counts = as_counts(table, "table")
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


def nmf_entropy(sums: TableSums, *, cells: CellsArgument = None,
                fine: FineArgument = None) -> float:
    """R NMF's entropy: the entropy of the classes within each cluster, ``H(R | M) / log(l)``.

    ``-(1 / (N log2 l)) sum_q sum_j n[j, q] log2(n[j, q] / b[q])`` with ``l``
    the number of reference classes (Kim and Park 2007): 0 when every
    cluster is pure, 1 at worst. Where R returns NaN (a single class, so
    ``log l = 0``, or no elements) this returns 0.0: there is no uncertainty
    about the class. ``H(R|M)`` is read as by :func:`variation_of_information`:
    O(1) from the sums when they determine it to 2**-43 relative, else O(1)
    from ``fine`` when given and they determine it, else O(cells) from
    ``cells`` when given (see the module's notes on accuracy).

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
    return min(1.0, conditionals(sums, cells, fine)[0] / math.log(classes))
