"""Mutual information, entropies and their normalisations, in O(1) from the sums when those determine them.

Accuracy. Every information score below agrees with an exact computation to
1e-12 relative (1e-15 absolute where the value is below 1e-3), for any table
of counts below 2**63, by one of three routes (AMI, built on these, has its own
bounds and another route: ``_adjusted``):

1. O(1), from the sums. A value such as ``N MI 2**52 = S_cells - S_reference -
   S_model + N ln N`` is an exact difference of exact sums of rounded terms
   ``fl(n ln n)``; its only error is the sum of the terms' rounding errors,
   amplified by the cancellation. Each term's error is rigorously bounded
   (see _TERM_ERROR below): |fl(n ln n) - n ln n| <= 2**-51 (1 + 2**-6) n ln n,
   so the error of the difference is at most 2**-51 (1 + 2**-6) times the sum
   of the magnitudes of the terms it involves, and those magnitudes are the
   (non-negative) sums themselves. The read accepts the value when
   ``magnitude >> 8 < value`` (a shift and a comparison of Python ints), which
   puts the error below 2**-43 (1 + 2**-6)(1 + 2**-43), 1.2e-13, of the value;
   it tries first a cheap overestimate of the magnitude (4 N ln N for MI, 2 N ln
   N for an entropy, 2 (S_reference + S_model) for VI). A ratio of two
   accepted values (NMI, homogeneity, ...) is then within 2.4e-13 and
   V-measure, one such ratio ((1 + beta) MI / (H(R) + beta H(M))), within 2.4e-13 plus a
   few roundings.
2. From the fine sums, when the bound of 1 fails (large skewed counts, or
   partitions so nearly independent that MI is below about ln(N) / 50): the
   same differences of sums whose terms ``n ln n`` are each within 48 n
   units of 2**-128 (:mod:`contingency.formulas.partition._fine`), accepted
   when their bound is below 2**-44 of the value. O(1) when the caller's
   ``fine`` keeps them (:class:`contingency.PartitionComparison` does once a
   read has needed them), else computed from ``cells``, O(distinct counts).
   The fine sums are a function of the table, so either way the value is
   the same.
3. O(cells), from the table, when neither bound holds (a value of 0, or
   below about 2**-84: exactly independent partitions) and the caller gave
   ``cells``: sums of non-negative terms, each formed from exact integer
   differences and accurate to a few units of 2**-52 (see
   :mod:`contingency.formulas.partition._cells`), added with math.fsum.
   Without ``fine`` or ``cells`` the read returns the O(1) value of 1, whose
   error is then only bounded as in 1.

Degenerate cases (a single cluster on a side, no elements) are decided from
the numbers of clusters, never from the n ln n sums: N ln N - sum a ln a can
round to 0, or below, with two clusters of very different sizes; and whether
every model (reference) cluster is pure, which makes MI equal H(R) (H(M))
exactly, from the exact pair counts.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from contingency.formulas._arguments import call_prefix, check_choice, real_number
from contingency.formulas._numeric import shown
from contingency.formulas.partition._cells import (
    ENTROPY_ERROR,
    MUTUAL_ERROR,
    CellsArgument,
    TableCells,
    conditional_nats,
    entropy_nats,
    exact_arrays,
    exact_information,
    resolve,
    table_cells,  # noqa: F401  (the docstrings' examples use it)
)
from contingency.formulas.partition._fine import (
    LOG_ERROR,
    FineArgument,
    fine_conditionals,
    fine_entropy,
    fine_information,
    fine_sums_of_cells,
    resolve_fine,
)
from contingency.formulas.partition._sums import (
    ONE,
    SCALE,
    TableSums,
    as_counts,
    count_sum,
    n_log_n_fixed,
    n_log_n_fixed_sum,
    summable,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["AverageMethod", "Exact", "check_average_method", "check_base", "check_v_beta",
           "completeness", "conditionals", "entropy",
           "entropy_model", "entropy_reference", "homogeneity", "information",
           "information_errors", "mutual_information",
           "normalized_mutual_information", "normalizer", "v_measure", "variation_of_information"]

AverageMethod = Literal["arithmetic", "geometric", "min", "max"]
_AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")
_log = math.log
_trunc = math.trunc  # int() of a float, with less call overhead

#: A value of :func:`information`: an exact integer from the sums, a float from the cells.
Exact = int | float

#: A value is accepted from the sums when ``magnitude >> _SURE_SHIFT < value``.
_SURE_SHIFT = 8
#: The same test against a magnitude overestimated by 2: ``total >> _COARSE_SHIFT`` for 2 N ln N.
_COARSE_SHIFT = _SURE_SHIFT - 1


def check_base(base: object, where: str | None = None) -> float:
    """``base`` if it is a finite real number > 0 other than 1 (a numpy number as a Python float),
    else ``ValueError`` naming it and the call ``where`` (an array, a bool, NaN and infinity are
    refused).

    >>> check_base(np.float64(2.0)), check_base(10)
    (2.0, 10)
    >>> check_base(np.array([2.0, 10.0]))
    Traceback (most recent call last):
    ...
    ValueError: base must be a finite number > 0 other than 1, not array([ 2., 10.])
    >>> check_base(1, "entropy_model")
    Traceback (most recent call last):
    ...
    ValueError: entropy_model: base must be a finite number > 0 other than 1, not 1
    """
    # (a Python int is kept: its logarithm is exact past float64's range)
    value: float | None = (base if type(base) is float or type(base) is int
                           else real_number(base))
    if value is None or not (value > 0 and value != 1
                             and (type(value) is int or math.isfinite(value))):
        raise ValueError(f"{call_prefix(where)}base must be a finite number > 0 other than 1, "
                         f"not {shown(base)}")
    return value


def _log_base(base: float) -> float:
    return math.log(check_base(base))


def _in_base(nats: float, base: float) -> float:
    base = check_base(base)
    return nats if base == math.e else nats / math.log(base)




def information(sums: TableSums, cells: CellsArgument,
                fine: FineArgument = None) -> tuple[Exact, Exact, Exact, Exact]:
    """``(MI, H(R), H(M))`` in nats, times a scale, and the scale; O(1) when the sums determine them.

    From the sums the three are exact integers, ``N 2**52`` times the values,
    so that a ratio of two of them is rounded once (identical partitions score
    exactly 1); from the fine sums (when the sums do not determine them and
    ``fine`` does) exact integers ``N 2**128`` times the values; from the
    cells (O(cells), when neither determines them and ``cells`` is given)
    floats in nats, and the scale is 1.

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
        total = _trunc(n * _log(n) * SCALE)  # n_log_n_fixed(n), n >= 2 here
        reference = total - reference_sum
        model = total - model_sum
        # 2 N ln N bounds either entropy's magnitude, 4 N ln N the mutual information's.
        coarse = total >> _COARSE_SHIFT
        # Pair counts decide exactly whether a side's clusters are pure (C(x + y, 2) >
        # C(x, 2) + C(y, 2) for x, y >= 1): then MI is the other side's entropy, exactly.
        if same_same != same_model and same_same != same_reference:  # neither side pure
            mutual = cells_sum - reference_sum - model_sum + total
            # 2 N ln N >> 7 < MI <= either entropy settles all three values at once (the
            # bounds below, each met with room to spare); anything else is weighed below.
            if coarse < mutual <= reference and mutual <= model:
                return mutual, reference, model, n * ONE
        elif same_same == same_model:  # every model cluster within one class
            mutual = reference
        else:  # every class within one model cluster
            mutual = model
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
        kept = resolve_fine(fine)
        found = None if kept is None else fine_information(sums, kept)
        if found is not None:
            return found
        table = resolve(cells)
        if table is not None:
            if kept is None:  # the fine sums from the cells: what kept ones would give
                found = fine_information(sums, fine_sums_of_cells(table))
                if found is not None:
                    return found
            return (*exact_information(table), 1)
    # The O(1) values, kept in order: an entropy of two or more clusters is positive (at
    # least one unit of 2**-52 / N), and 0 <= MI <= min(H(R), H(M)).
    if reference_clusters > 1:
        reference = max(reference, 1)
    if model_clusters > 1:
        model = max(model, 1)
    mutual = max(min(mutual, reference, model), 0)
    return mutual, reference, model, n * ONE


def information_errors(sums: TableSums, values: tuple[Exact, Exact, Exact, Exact]
                       ) -> tuple[float, float, float]:
    """Bounds of the errors of :func:`information`'s ``(MI, H(R), H(M))``, in its units.

    From the sums, ``_TERM_ERROR`` times the sum of the magnitudes of the
    terms each value involves (MI is H(R), or H(M), exactly when every model
    cluster, or every class, is pure); from the cells, the relative bounds of
    :data:`MUTUAL_ERROR` and :data:`ENTROPY_ERROR`.
    """
    mutual, reference, model, scale = values
    if scale == 1:  # from the cells, in nats
        return MUTUAL_ERROR * mutual, ENTROPY_ERROR * reference, ENTROPY_ERROR * model
    n = sums.n_elements
    if scale != n * ONE:  # from the fine sums (_fine's notes): 48 N units per sum involved
        error = LOG_ERROR * n
        entropy_error = 2.0 * error
        pure = sums.same_same == sums.same_model or sums.same_same == sums.same_reference
        return entropy_error if pure else 2 * entropy_error, entropy_error, entropy_error
    total = n_log_n_fixed(sums.n_elements)
    reference_error = _TERM_ERROR * (total + sums.reference_n_log_n)
    model_error = _TERM_ERROR * (total + sums.model_n_log_n)
    if sums.same_same == sums.same_model:
        mutual_error = reference_error
    elif sums.same_same == sums.same_reference:
        mutual_error = model_error
    else:
        mutual_error = _TERM_ERROR * (sums.cells_n_log_n + sums.reference_n_log_n
                                      + sums.model_n_log_n + total)
    return mutual_error, reference_error, model_error


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


def conditionals(sums: TableSums, cells: CellsArgument,
                 fine: FineArgument = None) -> tuple[float, float]:
    """``(H(R|M), H(M|R))`` in nats: O(1) when the sums determine both, else O(cells).

    ``N H(R|M) 2**52 = S_model - S_cells`` and ``N H(M|R) 2**52 = S_reference -
    S_cells``, each accepted under the bound of :func:`_sure`; else the same
    from ``fine`` (:func:`~contingency.formulas.partition._fine.fine_conditionals`),
    else from ``cells``.
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
        kept = resolve_fine(fine)
        found = None if kept is None else fine_conditionals(sums, kept)
        if found is not None:
            return found
        table = resolve(cells)
        if table is not None:
            found = None if kept is not None else fine_conditionals(sums,
                                                                    fine_sums_of_cells(table))
            if found is not None:
                return found
            counts, rows, columns, _, _ = exact_arrays(table)
            return conditional_nats(counts, columns, n), conditional_nats(counts, rows, n)
    # Not pure: positive (at least one unit of 2**-52 / N, when the sums round it away).
    scale = n * ONE
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
    values = summable(as_counts(counts, "counts").ravel())
    values = values[values > 0]
    n = count_sum(values)
    sums = TableSums(n, values.size, 1 if n else 0, 0, 0, 0, 0, n_log_n_fixed_sum(values), 0)
    column = np.full(values.size, n, dtype=object if values.dtype == object else np.int64)
    cells = TableCells(values, values, column, values, column[:1])
    return entropy_reference(sums, base, cells=cells)


def entropy_reference(sums: TableSums, base: float = math.e, *,
                      cells: CellsArgument = None, fine: FineArgument = None) -> float:
    """Entropy of the reference partition, ``H(R) = ln N - (1/N) sum a ln a`` (in nats by default).

    Exactly 0 with a single reference cluster or no elements.

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> entropy_reference(table_sums([[1, 1], [0, 2]]), base=2)
    1.0
    """
    return _in_base(_one_entropy(sums, cells, fine, reference=True), base)


def entropy_model(sums: TableSums, base: float = math.e, *,
                  cells: CellsArgument = None, fine: FineArgument = None) -> float:
    """Entropy of the model partition, ``H(M) = ln N - (1/N) sum b ln b``.

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> round(entropy_model(table_sums([[1, 1], [0, 2]]), base=2), 12)
    0.811278124459
    """
    return _in_base(_one_entropy(sums, cells, fine, reference=False), base)


def _one_entropy(sums: TableSums, cells: CellsArgument, fine: FineArgument, *,
                 reference: bool) -> float:
    n = sums.n_elements
    clusters = sums.n_reference_clusters if reference else sums.n_model_clusters
    if n == 0 or clusters <= 1:
        return 0.0
    total = n_log_n_fixed(n)
    n_log_n = sums.reference_n_log_n if reference else sums.model_n_log_n
    value = total - n_log_n
    if not (total >> (_SURE_SHIFT - 1) < value or _sure(value, total + n_log_n)):
        kept = resolve_fine(fine)
        found = None if kept is None else fine_entropy(sums, kept, reference=reference)
        if found is not None:
            return found
        table = resolve(cells)
        if table is not None:
            found = None if kept is not None else fine_entropy(sums, fine_sums_of_cells(table),
                                                               reference=reference)
            if found is not None:
                return found
            sizes = exact_arrays(table)[3 if reference else 4]
            return entropy_nats(sizes, count_sum(sizes))
    return max(value, 1) / (n * ONE)  # two or more clusters: positive


def mutual_information(sums: TableSums, base: float = math.e, *,
                       cells: CellsArgument = None, fine: FineArgument = None) -> float:
    """Mutual information ``sum (n/N) log(N n / (a b))`` of the two partitions.

    From the sums it is ``(1/N)(sum n ln n - sum a ln a - sum b ln b) + ln N``;
    0 when either partition has a single cluster or there are no elements,
    never below 0. The article's 17-element example, in bits:

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(mutual_information(table_sums(table), base=2), 12)
    0.565445018843

    With a huge cell the sums no longer determine it; the cells do:

    >>> big = [[2, 2], [2**60, 0]]
    >>> round(mutual_information(table_sums(big), cells=table_cells(big)) * 2**60, 9)
    81.018778584
    """
    mutual, _, _, scale = information(sums, cells, fine)
    return _in_base(mutual / scale, base)


def variation_of_information(sums: TableSums, base: float = math.e, *,
                             cells: CellsArgument = None,
                             fine: FineArgument = None) -> float:
    """Variation of information ``H(R|M) + H(M|R)`` (Meila), a distance: 0 for identical partitions.

    From the sums it is ``(sum a ln a + sum b ln b - 2 sum n ln n) / N``.

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> variation_of_information(table_sums([[3, 0], [0, 2]]))
    0.0
    >>> round(variation_of_information(table_sums([[1, 1], [1, 1]]), base=2), 12)
    2.0
    """
    base = check_base(base)
    log_base = 1.0 if base == math.e else math.log(base)
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
        return distance / (n * ONE) / log_base
    given_model, given_reference = conditionals(sums, cells, fine)
    return (given_model + given_reference) / log_base


def check_average_method(average_method: object, where: str | None = None) -> AverageMethod:
    """``average_method`` if it is one of ``"arithmetic"``, ``"geometric"``, ``"min"`` and
    ``"max"``, else ``ValueError`` naming it and the call ``where``."""
    return check_choice(average_method, "average_method",  # type: ignore[return-value]
                        _AVERAGE_METHODS, where)


def check_v_beta(beta: object, where: str | None = None) -> float:
    """``beta`` of :func:`v_measure` as a float if it is a finite real number >= 0, else
    ``ValueError`` naming it and the call ``where``."""
    value = real_number(beta)
    if value is None or not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{call_prefix(where)}beta must be a finite number >= 0, "
                         f"not {shown(beta)}")
    return value


def normalizer(reference: float, model: float, average_method: AverageMethod) -> float:
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
                                  cells: CellsArgument = None,
                                  fine: FineArgument = None) -> float:
    """Normalized mutual information ``MI / mean(H(R), H(M))``, in [0, 1].

    ``average_method`` picks the mean: "arithmetic" (scikit-learn's default),
    "geometric", "min" or "max". Conventions, scikit-learn's: 1 when both
    partitions have a single cluster or there are no elements (a perfect
    match), 0 when the mutual information is 0 (including when only one side
    has a single cluster). Identical partitions score exactly 1.

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> round(normalized_mutual_information(table_sums(table)), 12)
    0.364561771857
    >>> normalized_mutual_information(table_sums([[4]])), normalized_mutual_information(
    ...     table_sums([[2, 2]]))
    (1.0, 0.0)
    """
    arithmetic = average_method.__class__ is str and average_method == "arithmetic"
    method = average_method if arithmetic else check_average_method(average_method)
    mutual, reference, model, scale = information(sums, cells, fine)
    if arithmetic and mutual:  # from the sums, a ratio of exact integers rounded once
        return 2 * mutual / (reference + model)
    if mutual == 0:  # 1 when both sides have a single cluster (or there are no elements)
        return 1.0 if sums.n_reference_clusters <= 1 and sums.n_model_clusters <= 1 else 0.0
    if method == "min":
        return mutual / min(reference, model)
    if method == "max":
        return mutual / max(reference, model)
    return (mutual / scale) / normalizer(reference / scale, model / scale, method)


def homogeneity(sums: TableSums, *, cells: CellsArgument = None,
                fine: FineArgument = None) -> float:
    """Homogeneity ``MI / H(R)``: 1 when each model cluster holds one reference class only.

    1 when the reference has a single cluster or there are no elements
    (scikit-learn's convention: nothing to be homogeneous about).

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> homogeneity(table_sums([[2, 0], [0, 1], [0, 1]])), homogeneity(table_sums([[1, 1]]))
    (0.6666666666666666, 1.0)
    >>> big = [[2, 2], [2**60, 0]]   # add_many([0, 0, 1], [0, 1, 0], [2, 2, 2**60])
    >>> round(homogeneity(table_sums(big), cells=table_cells(big)), 12)
    0.491588537504
    """
    if sums.n_reference_clusters <= 1:
        return 1.0
    mutual, reference, _, _ = information(sums, cells, fine)
    return mutual / reference


def completeness(sums: TableSums, *, cells: CellsArgument = None,
                 fine: FineArgument = None) -> float:
    """Completeness ``MI / H(M)``: 1 when each reference class lies in one model cluster.

    1 when the model has a single cluster or there are no elements.

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> completeness(table_sums([[2, 0], [0, 1], [0, 1]]))
    1.0
    """
    if sums.n_model_clusters <= 1:
        return 1.0
    mutual, _, model, _ = information(sums, cells, fine)
    return mutual / model


def v_measure(sums: TableSums, beta: float = 1.0, *, cells: CellsArgument = None,
              fine: FineArgument = None) -> float:
    """V-measure ``(1 + beta) h c / (beta h + c)``: weighted harmonic mean of homogeneity and completeness.

    ``beta > 1`` weighs completeness more; 0 when both are 0 (scikit-learn's convention).

    Cost: O(1) from ``sums``; else O(1) from ``fine`` (:class:`FineSums`, or a source of
    them asked only then); else O(cells) from ``cells`` (:class:`TableCells`, or a function
    giving one); each only where the one before cannot settle the value (see Accuracy in
    :mod:`contingency.formulas.partition`); without them, the O(1) value.

    >>> round(v_measure(table_sums([[2, 0], [0, 1], [0, 1]])), 12)
    0.8
    """
    if type(beta) is not float or not 0 <= beta < math.inf:  # (a finite float needs no call)
        beta = check_v_beta(beta)
    mutual, reference, model, _ = information(sums, cells, fine)
    if mutual and reference and model:  # MI > 0: two or more clusters on each side
        # (1 + beta) h c / (beta h + c) with h = MI / H(R) and c = MI / H(M) is
        # (1 + beta) MI / (H(R) + beta H(M)); at beta = 1, from the sums, a ratio of
        # exact integers rounded once, as NMI's (identical partitions score exactly 1).
        if beta == 1:
            return 2 * mutual / (reference + model)
        return (1 + beta) * mutual / (reference + beta * model)
    if reference and model:  # both entropies positive and MI 0: h == c == 0
        return 0.0
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
