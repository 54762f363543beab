"""Adjusted mutual information: MI against its expectation, to 1e-12 relative at any table.

AMI is ``(MI - E[MI]) / (mean(H(R), H(M)) - E[MI])``. Near 0 its numerator is
the difference of two nearly equal numbers, and near the cases where E[MI]
approaches the mean entropy so is its denominator: floating point then loses
as many digits as they share. So the read bounds the error of both from the
bounds of their parts (MI and the entropies as :func:`information_errors`
gives them, ``E[MI]`` within :data:`EXPECTED_ERROR` of itself), and returns
the float quotient only when each is known to ``2**-42`` (2.3e-13) of its
value. Otherwise it tries MI from the cells (O(cells), good to 33 units of
2**-52), and if that is not enough either, computes both to 256 bits
(:mod:`contingency.formulas.partition._precise`), which costs from a few
times the float path to about ten times it (about a second for 10**6
elements in 100 x 100 random clusters, against 0.15 s). Either way AMI agrees with an exact computation
to 1e-12 relative.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from contingency.formulas.partition._cells import (
    CellsArgument,
    exact_information,
    resolve,
    table_cells,  # noqa: F401  (the docstrings' examples use it)
)
from contingency.formulas.partition._expected import (
    expected_mutual_information,  # noqa: F401  (the docstrings' examples use it)
)
from contingency.formulas.partition._information import (
    AverageMethod,
    Exact,
    check_average_method,
    information,
    information_errors,
    normalizer,
)
from contingency.formulas.partition._precise import (
    FIRST_BITS,
    FRACTION_BITS,
    PreciseSums,
    precise_adjusted,
    precise_sums,
)
from contingency.formulas.partition._sums import (
    TableSums,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["EXPECTED_ERROR", "PreciseArgument", "adjusted_mutual_information"]

#: The error bound taken for :func:`expected_mutual_information`, relative: 18 times the
#: largest error measured against the 256-bit computation over 300 random margins, wide laws
#: included (7.7e-16); tests/test_partition_formulas.py keeps a sample of them within a
#: sixteenth of it. A measured bound, where the others are proven: E[MI] is a sum of
#: non-negative terms, each accurate to a few units of 2**-52.
EXPECTED_ERROR = 2.0**-46
#: The float quotient is returned when numerator and denominator are each known to this.
_ACCEPTED = 2.0**-42
_EPSILON = float(np.finfo(np.float64).eps)
#: What AMI takes as ``precise``: a function returning the sums of ``precise_sums`` at the
#: bits it is given (called only when a read needs them; an accumulator keeps them per
#: state), or None (they are computed from ``cells``).
PreciseArgument = Callable[[int], PreciseSums] | None


def adjusted_mutual_information(sums: TableSums, expected: float,
                                average_method: AverageMethod = "arithmetic", *,
                                cells: CellsArgument = None,
                                precise: PreciseArgument = None) -> float:
    """Adjusted mutual information ``(MI - E[MI]) / (mean(H(R), H(M)) - E[MI])`` (Vinh et al.).

    ``expected`` is :func:`expected_mutual_information` of the table's row and
    column sums. Conventions, scikit-learn's: 1 when both partitions have a
    single cluster or there are no elements, 0 when only one has, and 1 when
    the numerator and the denominator are both 0 (MI, E[MI] and the mean
    entropy equal, as for identical partitions). *Decided here*: 0 when only
    the numerator is 0 (MI equals its expectation exactly, which symmetric
    margins can make happen), where scikit-learn's rounding gives about
    ``2**-52 / denominator``.

    Accuracy and cost: the float quotient, O(1) from ``sums`` and
    ``expected``, when the bounds of the module's notes say it is within
    4.6e-13 of the exact value; otherwise, with ``cells`` (a
    :class:`TableCells`, or a function returning one, called only then), MI
    from the cells, O(cells), and if the bounds still fail the 256-bit
    computation, O(cells) plus the work of E[MI] in Python integers (several
    times its float cost), from ``precise`` if given (a function that returns
    :func:`precise_sums` of the table at the bits it is given). Either way
    within 1e-12 relative of the exact value. Without ``cells`` and ``precise``, the float quotient, with
    scikit-learn's rule for a numerator or denominator within machine epsilon
    of 0 (it keeps its sign at magnitude epsilon).

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> expected = expected_mutual_information([6, 6, 5], [8, 5, 4])
    >>> round(adjusted_mutual_information(table_sums(table), expected), 12)
    0.260181225389

    Near 0 the float difference ``MI - E[MI]`` keeps few digits: without
    ``cells`` the float quotient is 2.3e-10 off here; with them, the exact
    value rounded once:

    >>> near_zero = [[8, 14], [8, 7]]
    >>> expected = expected_mutual_information([22, 15], [16, 21])
    >>> adjusted_mutual_information(table_sums(near_zero), expected)
    -4.697121721042185e-06
    >>> adjusted_mutual_information(table_sums(near_zero), expected,
    ...                             cells=table_cells(near_zero))
    -4.697121719964341e-06
    """
    method = check_average_method(average_method)
    one_reference, one_model = sums.n_reference_clusters <= 1, sums.n_model_clusters <= 1
    if one_reference and one_model:
        return 1.0
    if one_reference or one_model:
        return 0.0
    values = information(sums, cells)
    found = _float_quotient(sums, values, expected, method)
    if found is not None:
        return found
    table = resolve(cells)
    if table is not None and values[3] != 1:  # the values came from the sums: MI from the cells
        values = (*exact_information(table), 1)
        found = _float_quotient(sums, values, expected, method)
        if found is not None:
            return found
    if precise is None:
        if table is None:  # nothing more to read: the float quotient, with scikit-learn's rule
            return _clamped_quotient(values, expected, method)
        cells_found = table

        def precise(bits: int) -> PreciseSums:
            return precise_sums(cells_found, bits)

    found = precise_adjusted(precise(FIRST_BITS), method)
    if found is None:  # 96 bits are not enough: the numerator is nearly 0, or 0
        found = precise_adjusted(precise(FRACTION_BITS), method)
        assert found is not None  # at FRACTION_BITS it always decides
    return found


def _float_quotient(sums: TableSums, values: tuple[Exact, Exact, Exact, Exact], expected: float,
                    method: AverageMethod) -> float | None:
    """AMI in floating point, or None when the bounds do not put it within 4.6e-13.

    Each of the numerator ``MI - E[MI]`` and the denominator ``mean - E[MI]``
    is off by at most the bounds of its two parts plus a rounding of each
    part and of the difference; the quotient is returned when each error is
    below ``2**-42`` of the value (so that value's sign is certain), and is
    then within ``2 x 2**-42`` plus a rounding of the exact quotient.
    """
    mutual_scaled, reference_scaled, model_scaled, scale = values
    mutual_error, reference_error, model_error = information_errors(sums, values)
    mutual, reference, model = mutual_scaled / scale, reference_scaled / scale, model_scaled / scale
    mutual_error, reference_error, model_error = (
        mutual_error / scale, reference_error / scale, model_error / scale)
    mean = normalizer(reference, model, method)
    if method == "arithmetic":
        mean_error = (reference_error + model_error) / 2
    elif method == "geometric":  # to first order; the rounding term below covers the rest
        mean_error = mean * (reference_error / reference + model_error / model)
    else:
        mean_error = max(reference_error, model_error)
    expected_error = EXPECTED_ERROR * expected
    numerator = mutual - expected
    denominator = mean - expected
    numerator_error = mutual_error + expected_error + _EPSILON * (mutual + expected)
    denominator_error = mean_error + expected_error + _EPSILON * (mean + expected)
    if (numerator_error <= _ACCEPTED * abs(numerator)
            and denominator_error <= _ACCEPTED * abs(denominator)):
        return numerator / denominator
    return None


def _clamped_quotient(values: tuple[Exact, Exact, Exact, Exact], expected: float,
                      method: AverageMethod) -> float:
    """The float quotient with scikit-learn's rule: a part within epsilon of 0 keeps its sign at epsilon."""
    mutual_scaled, reference, model, scale = values
    numerator = mutual_scaled / scale - expected
    denominator = normalizer(reference / scale, model / scale, method) - expected
    # E[MI] may exceed MI or the normalizer by a rounding: keep the sign, avoid 0/0
    # (identical partitions give eps/eps = 1).
    numerator = min(numerator, -_EPSILON) if numerator < 0 else max(numerator, _EPSILON)
    denominator = min(denominator, -_EPSILON) if denominator < 0 else max(denominator, _EPSILON)
    return numerator / denominator
