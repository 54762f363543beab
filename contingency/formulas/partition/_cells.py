"""Information scores from a table's non-empty cells, as sums of non-negative terms: the O(cells) route.

When the running sums cannot determine an information score to the accuracy
promised (see :mod:`contingency.formulas.partition._information`), it is
computed here from the cells and margins (:class:`TableCells`): entropies,
conditional entropies and MI each as a sum of non-negative terms formed from
exact integer differences, accurate to a few units of 2**-52, and added with
:func:`math.fsum`; nothing cancels between terms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._numeric import INT64_MAX
from contingency.formulas.partition._sums import as_counts, count_sum, summable

__all__ = ["ENTROPY_ERROR", "MUTUAL_ERROR", "CellsArgument", "TableCells", "conditional_nats",
           "entropy_nats", "exact_arrays", "exact_information", "resolve", "table_cells"]

#: The relative error bound of an entropy from the cells: each term within 5 units of
#: 2**-52 (:func:`entropy_nats`), and math.fsum's one rounding.
ENTROPY_ERROR = 6 * 2.0**-52
#: The same of MI from the cells: each term within 32 units (:func:`_mutual_nats`), and
#: math.fsum's one rounding.
MUTUAL_ERROR = 33 * 2.0**-52


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
    counts = summable(as_counts(table, "table"))
    if counts.ndim != 2:
        raise ValueError(f"table must be 2-dimensional, not {counts.ndim}-dimensional")
    rows, columns = counts.sum(axis=1), counts.sum(axis=0)
    i, j = np.nonzero(counts)
    return TableCells(counts[i, j], rows[i], columns[j], rows, columns)


def resolve(cells: CellsArgument) -> TableCells | None:
    """The cells a ``cells=`` argument gives: itself, what its function returns, or None."""
    if cells is None or isinstance(cells, TableCells):
        return cells
    return TableCells(*cells())


def exact_information(cells: TableCells) -> tuple[float, float, float]:
    """``(MI, H(R), H(M))`` in nats from the cells, without cancellation, O(cells)."""
    counts, rows, columns, reference_sizes, model_sizes = exact_arrays(cells)
    n = count_sum(reference_sizes)
    if n == 0:
        return 0.0, 0.0, 0.0
    reference = entropy_nats(reference_sizes, n)
    model = entropy_nats(model_sizes, n)
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


def exact_arrays(cells: TableCells) -> list[NDArray[Any]]:
    counts, rows, columns, reference, model = (
        as_counts(part, name).ravel() for part, name in
        zip(cells, ("counts", "row_sizes", "column_sizes", "reference_sizes", "model_sizes")))
    reference, model = summable(reference), summable(model)  # the margins are summed
    keep = counts > 0
    if not keep.all():
        counts, rows, columns = counts[keep], rows[keep], columns[keep]
    return [counts, rows, columns, reference[reference > 0], model[model > 0]]


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


def entropy_nats(sizes: NDArray[Any], n: int) -> float:
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


def conditional_nats(counts: NDArray[Any], sizes: NDArray[Any], n: int) -> float:
    """``sum (c/N) ln(s/c)`` over cells ``c`` of clusters of ``sizes``: a conditional entropy.

    ``H(R|M)`` with ``sizes`` the cells' column sizes, ``H(M|R)`` with their
    row sizes. Positive terms ``(c/N) log1p((s - c)/c)`` with ``s - c`` exact:
    each within 5 units of 2**-52 as in :func:`entropy_nats`, added by
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

