"""Adjusted mutual information: MI against its expectation under the permutation model."""

from __future__ import annotations

import numpy as np

from contingency.formulas.partition._cells import CellsArgument
from contingency.formulas.partition._expected import (
    expected_mutual_information,  # noqa: F401  (the docstrings' examples use it)
)
from contingency.formulas.partition._information import (
    AverageMethod,
    check_average_method,
    information,
    normalizer,
)
from contingency.formulas.partition._sums import (
    TableSums,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["adjusted_mutual_information"]


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
    method = check_average_method(average_method)
    one_reference, one_model = sums.n_reference_clusters <= 1, sums.n_model_clusters <= 1
    if one_reference and one_model:
        return 1.0
    if one_reference or one_model:
        return 0.0
    mutual_scaled, reference, model, scale = information(sums, cells)
    mutual = mutual_scaled / scale
    mean = normalizer(reference / scale, model / scale, method)
    epsilon = float(np.finfo(np.float64).eps)
    numerator = mutual - expected
    denominator = mean - expected
    # scikit-learn's rule: E[MI] may exceed MI or the normalizer by a rounding;
    # keep the sign, avoid 0/0 (identical partitions give eps/eps = 1).
    numerator = min(numerator, -epsilon) if numerator < 0 else max(numerator, epsilon)
    denominator = min(denominator, -epsilon) if denominator < 0 else max(denominator, epsilon)
    return numerator / denominator

