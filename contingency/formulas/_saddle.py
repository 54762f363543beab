"""Loader's saddle-point pieces of binomial and hypergeometric probabilities: Stirling's error, deviance.

Loader (2000), "Fast and accurate computation of binomial probabilities",
writes a binomial point probability without any ``ln n!``-sized difference:
``ln P(X = x) = s(n) - s(x) - s(n - x) - D(x, n p) - D(n - x, n q) - ln(2 pi x (n - x) / n) / 2``,
with ``s`` the error of Stirling's formula (:func:`stirling_error`) and ``D``
the deviance ``x ln(x / m) + m - x`` (:func:`deviance`), both small and
computed to a few units of ``2**-52`` at any count below ``2**63``. McNemar's
exact test (:mod:`contingency.formulas.paired`) and the expected mutual
information of wide windows (:mod:`contingency.formulas.partition._expected`)
both read their probabilities this way, from these two functions.
"""

from __future__ import annotations

import decimal
import functools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["deviance", "stirling_error"]

#: The series of Stirling's error, ``sum_j B_2j / (2j (2j - 1) x**(2j - 1))``: its
#: coefficients as fractions (numerator, denominator), first seven.
_SERIES = ((1, 12), (-1, 360), (1, 1260), (-1, 1680), (1, 1188), (-691, 360360), (1, 156))
#: Beyond this the first five terms are enough: the sixth, ``691 / (360360 x**11)``, is
#: below 1.2e-16 at 16 and falls fast.
_TABLE_END = 15


def _series(x: decimal.Decimal) -> decimal.Decimal:
    """Stirling's error by its first seven terms, in decimal arithmetic (to 1e-19 at 16)."""
    return sum((decimal.Decimal(p) / decimal.Decimal(q) / x ** (2 * j + 1)
                for j, (p, q) in enumerate(_SERIES)), decimal.Decimal(0))


@functools.cache
def _table() -> NDArray[np.float64]:
    """Stirling's error at 0 to 15, from the series at 16 and ``s(x) = s(x + 1) + (x + 1/2) ln(1 + 1/x) - 1``.

    Computed at 40 digits, each value rounded once (``s(0)`` is not used: 0).
    """
    with decimal.localcontext() as context:
        context.prec = 40
        values = [_series(decimal.Decimal(_TABLE_END + 1))]
        for x in range(_TABLE_END, 0, -1):
            step = (x + decimal.Decimal("0.5")) * (decimal.Decimal(x + 1) / x).ln() - 1
            values.append(values[-1] + step)
    return np.array([0.0, *(float(value) for value in reversed(values[1:]))])


#: The magnitudes of the first five terms' coefficients (their signs alternate, first +).
_S0, _S1, _S2, _S3, _S4 = (abs(p) / q for p, q in _SERIES[:5])


def stirling_error(x: ArrayLike) -> NDArray[np.float64]:
    """``ln x! - (x + 1/2) ln x + x - ln(2 pi) / 2`` for integers ``x >= 1`` (as floats), to about 1e-16.

    A table to 15 (:func:`_table`), the series' first five terms beyond.

    >>> [round(float(value), 12) for value in stirling_error([1, 10, 1000])]
    [0.081061466795, 0.008330563433, 8.3333331e-05]
    """
    values = np.asarray(x, dtype=np.float64)
    inverse = 1.0 / values
    square = inverse * inverse
    result: NDArray[np.float64] = (
        _S0 - (_S1 - (_S2 - (_S3 - _S4 * square) * square) * square) * square) * inverse
    small = values <= _TABLE_END
    if small.any():
        result = np.where(small, _table()[np.where(small, values, 0).astype(np.int64)], result)
    return result


#: Where ``|v| = |x - m| / (x + m)`` is below this, :func:`deviance` sums the series of
#: ``2 atanh v`` (terms of one sign); elsewhere the formula itself, whose two parts then
#: cancel less than 3 to 1. (Loader switches at 1/10, where they cancel 6 to 1: 5e-13
#: relative in a binomial probability near 1e-124.)
_SERIES_BELOW = 0.5
#: The series is stopped where its next term is below 2**-60 of the first.
_SERIES_PRECISION = 60 * math.log(2.0)


def deviance(x: ArrayLike, deviation: ArrayLike, m: ArrayLike | None = None) -> NDArray[np.float64]:
    """``x ln(x / m) + m - x`` with ``m = x - deviation`` (``x, m >= 0``), without cancellation.

    Loader's ``bd0``. ``deviation`` is ``x - m``, given by the caller from
    exact integers: near ``2**63``, ``x`` and ``m`` as floats are 512 apart at
    most, which a difference of a few standard deviations would not survive.
    Give ``m`` too when it may be far smaller than ``x`` (``x - deviation``
    would lose it). With ``v = (x - m) / (x + m)``, ``ln(x / m) = 2 atanh v``,
    so the value is ``(x - m) v + 2 x sum_k v**(2k + 1) / (2k + 1)`` over
    ``k >= 1``: summed by Horner's rule where ``|v| < 1/2``, with as many
    terms as reach ``2**-60`` of the first (10 where ``|v| < 0.1``, 31 at
    most); the formula itself elsewhere. ``0 ln 0`` is 0.

    >>> [round(float(value), 12) for value in deviance([3.0, 10.0], [1.0, -5.0])]
    [0.216395324324, 0.945348918918]
    """
    x = np.asarray(x, dtype=np.float64)
    deviation = np.asarray(deviation, dtype=np.float64)
    m = x - deviation if m is None else np.asarray(m, dtype=np.float64)
    x, deviation, m = np.broadcast_arrays(x, deviation, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = deviation / (x + m)
    size = np.abs(v)
    small = size < 0.1
    if small.all():  # the common case: no formula, one band
        return _deviance_series(x, deviation, v)
    with np.errstate(divide="ignore", invalid="ignore"):
        result: NDArray[np.float64] = np.where(x > 0, x * np.log(x / m), 0.0) + (m - x)
    for band in (small, ~small & (size < _SERIES_BELOW)):
        if band.any():
            result[band] = _deviance_series(x[band], deviation[band], v[band])
    return result


def _deviance_series(x: NDArray[np.float64], deviation: NDArray[np.float64],
                     v: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`deviance` by its series, with as many terms as the largest ``|v|`` needs."""
    square = v * v
    largest = float(square.max()) if square.size else 0.0
    terms = 1 if largest == 0.0 else max(1, math.ceil(_SERIES_PRECISION / -math.log(largest)))
    tail: NDArray[np.float64] | float = 1.0 / (2 * terms + 1)  # sum_k v**(2k - 2) / (2k + 1)
    for k in range(terms - 1, 0, -1):
        tail = tail * square + 1.0 / (2 * k + 1)
    series: NDArray[np.float64] = deviation * v + 2.0 * x * v * square * tail
    return series
