"""Fine ``n ln n`` sums, each term within 48 n units of 2**-128: O(1) information reads where floats cancel.

Near independence the mutual information is a tiny difference of large
sums: with 10**6 independent labels over 100 x 1000 clusters, ``N MI`` is
about 5 x 10**3 against terms of some 5 x 10**7, so the float64 terms of
:func:`contingency.formulas.partition.n_log_n_fixed` (each within 2**-51 of
itself) cannot certify it to 1e-12. This module gives every term about 120
more bits, still as exact integers, so that the sums stay exact (order-free,
mergeable, removable) and the bound is met by some 80 bits to spare.

The term. :func:`fine_log` is ``ln n`` as an integer in units of ``2**-128``,
a function of ``n`` alone, computed in integer arithmetic:
``n = top * 2**s + d`` with ``top`` the leading 12 bits of ``n``, and

    ln n = s ln 2 + ln top + 2 atanh(d / (n + top 2**s)),

``ln 2`` and ``ln top`` (``top < 2**12``) rounded once from
:meth:`decimal.Decimal.ln` at 60 digits (correctly rounded), the ``atanh``
series (argument below ``2**-12``, so five terms) in truncating fixed point.
The fine term of a count is ``n * fine_log(n)`` (0 for ``n`` in {0, 1}).

Its error, rigorously (:data:`LOG_ERROR`), in units of ``2**-128``: ``ln top``
within 0.51 and ``ln 2`` within 0.51, times ``s <= 52`` (``n < 2**64``), so
26.6; the series' argument is truncated once (below 1 unit), each power
``x**(2k+1)`` is one truncated product further from the last (each within
1.01 units, the error of the previous one shrunk by ``x**2 < 2**-24``), each
quotient by ``2k+1`` truncates once more (2.01 units a term, five terms
non-zero since ``x**11 < 2**-132``), and the neglected tail is below 0.01
unit: the series within 10.1 units, doubled 20.2. Together below 48 units:
``|fine_log(n) - ln(n) 2**128| <= 48``, so ``|n fine_log(n) - n ln n 2**128| <=
48 n``. A fine sum over the cells (or rows, or columns) of a table of ``N``
elements is therefore within ``48 N`` units of its value, and a difference of
such sums within ``48 N`` times the number of them it adds or subtracts, with
``N ln N`` (:func:`fine_log` of ``N``, times ``N``) counted as one more: ``N MI
2**128 = F_cells - F_reference - F_model + N fine_log(N)`` is within ``192 N``,
an entropy ``N H(R) 2**128 = N fine_log(N) - F_reference`` within ``96 N``.

The read (:func:`fine_information`, :func:`fine_conditionals`,
:func:`fine_entropy`) accepts a value when its error bound, shifted left by
:data:`FINE_SURE_SHIFT` = 44, is below it: within ``2**-44`` (5.7e-14) of
itself, and a ratio of two such values (NMI, homogeneity, V-measure) within
1.2e-13. That fails only when a value is below about ``2**-84`` nats
(``192 * 2**44 / 2**128``): MI exactly 0 (or nearly so), which the cells
decide (:mod:`contingency.formulas.partition._cells`).

An accumulator keeps these sums only once a read needs them
(:class:`contingency.PartitionComparison`): the float sums settle most tables,
and a fine step costs more than a float one.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np
from numpy.typing import ArrayLike

from contingency.formulas._numeric import distinct_counts
from contingency.formulas.partition._sums import TableSums, as_counts, summable

if TYPE_CHECKING:
    from contingency.formulas.partition._cells import TableCells

__all__ = ["FINE_BITS", "FINE_SURE_SHIFT", "LOG_ERROR", "FineArgument", "FineSource", "FineSums",
           "fine_conditionals", "fine_entropy", "fine_information", "fine_log", "fine_n_log_n",
           "fine_n_log_n_sum", "fine_step", "fine_sums", "fine_sums_of_cells", "resolve_fine"]

#: Fine values are integers in units of ``2**-FINE_BITS``.
FINE_BITS = 128
#: The bound of ``|fine_log(n) - ln(n) 2**128|``, in units of ``2**-128`` (module notes).
LOG_ERROR = 48
#: A fine value is accepted when its error bound, shifted left by this, is below it.
FINE_SURE_SHIFT = 44
#: ``ln top`` is tabulated for ``top`` below ``2**_ANCHOR_BITS``.
_ANCHOR_BITS = 12
_ANCHOR_LIMIT = 1 << _ANCHOR_BITS
#: Memoised logarithms are forgotten (all at once) past this many entries.
_MEMO_LIMIT = 1 << 14


def _decimal_log(value: int) -> int:
    """``ln value * 2**128`` rounded to the nearest integer, from 60-digit decimal arithmetic."""
    with localcontext() as context:
        context.prec = 60
        scaled = Decimal(value).ln() * (1 << FINE_BITS)
        return int(scaled.to_integral_value())


_LN2 = _decimal_log(2)
#: ``_ANCHOR[t]``: ``ln t`` in units of ``2**-128`` (``_decimal_log``), filled on first use.
_ANCHOR: list[int | None] = [None] * _ANCHOR_LIMIT
_ANCHOR[1] = 0
_MEMO: dict[int, int] = {}


def fine_log(n: int) -> int:
    """``ln n`` in units of ``2**-128``, within :data:`LOG_ERROR` units, for ``1 <= n < 2**64``.

    A function of ``n`` alone (integer arithmetic only, no floats), so sums
    of fine terms are exact and independent of order. Memoised.

    >>> fine_log(1), abs(fine_log(4) - 2 * fine_log(2)) <= 1   # each rounded once
    (0, True)
    >>> import math
    >>> abs(fine_log(10**18 + 12345) / 2**128 - math.log(10**18 + 12345)) < 1e-14
    True
    """
    found = _MEMO.get(n)
    if found is not None:
        return found
    shift = max(n.bit_length() - _ANCHOR_BITS, 0)
    top = n >> shift
    anchor = _ANCHOR[top]
    if anchor is None:
        anchor = _ANCHOR[top] = _decimal_log(top)
    value = anchor + shift * _LN2
    low = top << shift
    rest = n - low
    if rest:  # 2 atanh(x), x = rest / (n + low) < 2**-12, in truncating fixed point
        power = (rest << FINE_BITS) // (n + low)
        square = power * power >> FINE_BITS
        series = power
        odd = 3
        while True:
            power = power * square >> FINE_BITS
            if not power:
                break
            series += power // odd
            odd += 2
        value += 2 * series
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[n] = value
    return value


def fine_n_log_n(n: int) -> int:
    """``n ln n`` in units of ``2**-128``, within ``48 n`` units: ``n * fine_log(n)``, 0 for n < 2.

    >>> fine_n_log_n(1), fine_n_log_n(4) == 4 * fine_log(4)
    (0, True)
    """
    return n * fine_log(n) if n > 1 else 0


def fine_step(n: int, weight: int) -> int:
    """The change of a fine sum when a cell or cluster of ``n`` elements gains ``weight`` (may be < 0).

    >>> fine_step(3, -1) == -fine_step(2, 1) == fine_n_log_n(2) - fine_n_log_n(3)
    True
    """
    return fine_n_log_n(n + weight) - fine_n_log_n(n)


def fine_n_log_n_sum(counts: ArrayLike) -> int:
    """The exact sum of :func:`fine_n_log_n` over non-negative integer ``counts`` (grouped by value).

    >>> fine_n_log_n_sum([2, 2, 3, 0, 1]) == 2 * fine_n_log_n(2) + fine_n_log_n(3)
    True
    """
    values = np.asarray(counts).ravel()
    values = values[values > 1]
    if values.size == 0:
        return 0
    distinct, multiplicity = distinct_counts(values)
    return sum(m * fine_n_log_n(v) for v, m in zip(distinct.tolist(), multiplicity.tolist()))


class FineSums(NamedTuple):
    """``sum n ln n`` over a table's cells, rows and columns, in units of ``2**-128`` (fine terms)."""

    cells_n_log_n: int
    reference_n_log_n: int
    model_n_log_n: int


class FineSource(Protocol):
    """What keeps fine sums, or not yet (an accumulator's running sums): asked only when needed."""

    def fine_sums(self) -> FineSums | None: ...


#: What a ``fine=`` argument may be: the sums, a source asked for them only when the float
#: sums do not settle a read (it may have none), or None.
FineArgument = FineSums | FineSource | None


def fine_sums(table: ArrayLike) -> FineSums:
    """The fine sums of a contingency table (rows: reference clusters, columns: model clusters).

    >>> fine_sums([[2, 0], [1, 1]]).reference_n_log_n == 2 * fine_n_log_n(2)
    True
    """
    counts = summable(as_counts(table, "table"))
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    return FineSums(fine_n_log_n_sum(counts), fine_n_log_n_sum(counts.sum(axis=1)),
                    fine_n_log_n_sum(counts.sum(axis=0)))


def fine_sums_of_cells(cells: TableCells) -> FineSums:
    """The fine sums of a table given by its non-empty cells and margins (O(distinct counts)).

    >>> from contingency.formulas.partition import table_cells
    >>> fine_sums_of_cells(table_cells([[2, 0], [1, 1]])) == fine_sums([[2, 0], [1, 1]])
    True
    """
    return FineSums(fine_n_log_n_sum(cells.counts), fine_n_log_n_sum(cells.reference_sizes),
                    fine_n_log_n_sum(cells.model_sizes))


def resolve_fine(fine: FineArgument) -> FineSums | None:
    """The sums a ``fine=`` argument gives: itself, what its source keeps, or None."""
    if fine is None or isinstance(fine, FineSums):
        return fine
    source = getattr(fine, "fine_sums", None)
    if not callable(source):
        raise TypeError("fine must be a FineSums (fine_sums(table)), an object with a "
                        f"fine_sums() method, or None, not {type(fine).__name__}")
    found = source()
    if found is not None and not isinstance(found, FineSums):
        raise TypeError(f"fine.fine_sums() must return a FineSums or None, not "
                        f"{type(found).__name__}")
    return found


def _sure(value: int, error: int) -> bool:
    return error << FINE_SURE_SHIFT < value


def fine_information(sums: TableSums, fine: FineSums) -> tuple[int, int, int, int] | None:
    """``(MI, H(R), H(M), scale)`` from the fine sums, when certified to 2**-44; else None.

    The values are integers, ``N 2**128`` times the values in nats, and the
    scale is ``N 2**128``. Degenerate and pure cases follow
    :func:`contingency.formulas.partition._information.information`: a side
    with a single cluster has entropy 0 and MI 0; MI is an entropy exactly
    when the pair counts say the other side's clusters are pure.

    >>> table = [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    >>> from contingency.formulas.partition import table_sums
    >>> mutual, _, _, scale = fine_information(table_sums(table), fine_sums(table))
    >>> round(mutual / scale / 0.6931471805599453, 12)   # in bits, as the float route
    0.565445018843
    """
    (n, reference_clusters, model_clusters, same_same, same_reference, same_model,
     _, _, _) = sums
    if n < 2:
        return None
    cells_sum, reference_sum, model_sum = fine
    # Each value is accepted when its bound, 2 (or 4, for MI) LOG_ERROR N, shifted left by
    # FINE_SURE_SHIFT, is below it (_sure, written out: this is the read's hot path).
    error = LOG_ERROR * n << FINE_SURE_SHIFT + 1
    total = n * fine_log(n)
    reference = model = 0
    if reference_clusters > 1:
        reference = total - reference_sum
        if reference <= error:
            return None
    if model_clusters > 1:
        model = total - model_sum
        if model <= error:
            return None
    if not (reference and model):
        return 0, reference, model, n << FINE_BITS
    if same_same == same_model:  # every model cluster within one class
        mutual = reference
    elif same_same == same_reference:  # every class within one model cluster
        mutual = model
    else:
        mutual = cells_sum - reference_sum - model_sum + total
        if mutual <= error << 1:
            return None
    return min(mutual, reference, model), reference, model, n << FINE_BITS


def fine_entropy(sums: TableSums, fine: FineSums, *, reference: bool) -> float | None:
    """One side's entropy in nats from the fine sums, when certified to 2**-44; else None.

    For two or more clusters on that side (the caller decides the others).
    """
    n = sums.n_elements
    value = n * fine_log(n) - (fine.reference_n_log_n if reference else fine.model_n_log_n)
    if not _sure(value, 2 * LOG_ERROR * n):
        return None
    return value / (n << FINE_BITS)


def fine_conditionals(sums: TableSums, fine: FineSums) -> tuple[float, float] | None:
    """``(H(R|M), H(M|R))`` in nats from the fine sums, when both are certified to 2**-44; else None.

    ``N H(R|M) 2**128 = F_model - F_cells``, within ``96 N`` units; exactly 0
    when the pair counts say every model (reference) cluster is pure.
    """
    n = sums.n_elements
    error = 2 * LOG_ERROR * n
    given_model = given_reference = 0
    if sums.same_same != sums.same_model:
        given_model = fine.model_n_log_n - fine.cells_n_log_n
        if not _sure(given_model, error):
            return None
    if sums.same_same != sums.same_reference:
        given_reference = fine.reference_n_log_n - fine.cells_n_log_n
        if not _sure(given_reference, error):
            return None
    scale = n << FINE_BITS
    return given_model / scale, given_reference / scale
