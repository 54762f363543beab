"""Adjusted mutual information at high precision: the fallback where floating point cancels.

Near 0, AMI's numerator ``MI - E[MI]`` is the difference of two nearly equal
numbers, each known in floating point to about 1e-15 of itself: when they
agree to more digits than that, the float difference has none left (AMI of
``[[8, 14], [8, 7]]``, about -4.7e-6, came out 2.3e-10 off). This module
computes AMI's numerator and denominator to 256 bits instead.

With ``S = sum n ln n`` over the table's cells, ``S_R`` and ``S_M`` the same
sums over the reference and model cluster sizes, and ``X`` the expectation of
``S`` over the tables with these margins (the permutation model: the sum over
every pair of a reference size ``a`` and a model size ``b`` of ``E[n ln n]``,
``n`` hypergeometric), the terms of ``N MI`` and ``N E[MI]`` in ``ln N``,
``ln a`` and ``ln b`` are equal (``E[n] = a b / N``), and

    N (MI - E[MI]) = S - X,   N (H(R) - E[MI]) = S_M - X,   N (H(M) - E[MI]) = S_R - X,

so AMI with the arithmetic, min or max mean is ``(S - X) / (mean(S_M, S_R) -
X)``; the geometric mean takes ``N H(R) = N ln N - S_R`` and ``N H(M)``
explicitly. Every quantity is an integer in units of ``2**-bits``:

- ``ln v`` of each distinct integer ``v`` is rounded once, from decimal
  arithmetic with 14 digits to spare (:class:`Logs`);
- each pair's probabilities are built outward from the mode of the law by the
  exact ratio of neighbouring terms, in integers of ``bits + 24`` bits, until
  what is left, bounded by a geometric series (the ratios decrease away from
  the mode: the law is log-concave), is below ``2**-(bits + 16)`` of the sum
  (:func:`_expected_direct`);
- a pair whose law is wide (a standard deviation above 100, which takes
  clusters of some 10**4 elements and more) is summed on a 257-point
  grid with Loader's saddle-point probabilities, the method of
  :func:`contingency.formulas.partition._expected._expected_wide`, in decimal
  arithmetic (:func:`_expected_grid`).

Each sum is then within ``(magnitude >> (bits - 16)) + 4 N`` units of its
value (the logarithms' roundings weigh half a unit per element, each pair of
distinct sizes, at most ``2 N`` of them, is rounded once, the rest is
relative), and :func:`precise_adjusted` takes that as its bound. A first pass at
``FIRST_BITS`` = 96 bits settles every AMI whose numerator is above
``2**-31`` of ``S``; the rest take ``FRACTION_BITS`` = 256 bits, where a
numerator below ``2**-128`` of ``S`` is indistinguishable from 0, and is 0.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from contingency.formulas._numeric import distinct_counts
from contingency.formulas.partition._cells import TableCells, exact_arrays
from contingency.formulas.partition._sums import count_sum

__all__ = ["FIRST_BITS", "FRACTION_BITS", "Logs", "PreciseSums", "precise_adjusted",
           "precise_sums"]

#: The bits of the first pass and of the last: every sum an integer in units of 2**-bits.
FIRST_BITS = 96
FRACTION_BITS = 256
#: A pair's neglected probability mass is below 2**-(bits + _TAIL_SPARE) of its sum, and
#: probabilities are integers in units of 2**-(bits + _PROBABILITY_SPARE) of the mode's.
_TAIL_SPARE = 16
_PROBABILITY_SPARE = 24
#: Each sum's error is below magnitude >> (bits - _ERROR_SPARE), plus 4 N units.
_ERROR_SPARE = 16
#: The quotient is taken when numerator and denominator are each 2**_SURE_BITS times their error.
_SURE_BITS = 45
#: At FRACTION_BITS, a numerator below 2**-_ZERO_BITS of S (a denominator likewise) is 0.
_ZERO_BITS = 128
#: Laws with a standard deviation up to this are summed term by term (up to some 30 times
#: it, each term a new logarithm when the window is new), wider ones on a grid of 257.
_DIRECT_DEVIATION = 100.0
#: The grid of a wide law: this many points on each side of its centre, at FRACTION_BITS
#: (half as many at FIRST_BITS, whose error allowance is that much larger).
_GRID_HALF = 96
#: B_2k / (2k (2k - 1)) for k = 1..12: Stirling's series of ln x! (:func:`_stirling_error`).
_STIRLING = ((1, 12), (-1, 360), (1, 1260), (-1, 1680), (1, 1188), (-691, 360360), (1, 156),
             (-3617, 122400), (43867, 244188), (-174611, 125400), (77683, 5796),
             (-236364091, 1506960))


class Logs:
    """``round(ln v * 2**bits)`` of positive integers, and ``v`` times it, each computed once.

    >>> logs = Logs(FRACTION_BITS)
    >>> logs(1), abs(logs(2) / 2**FRACTION_BITS - math.log(2)) < 1e-16, logs.n_log_n(3) == 3 * logs(3)
    (0, True, True)
    """

    __slots__ = ("_digits", "_found", "_scale", "bits", "products")

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self._scale = 1 << bits
        self._digits = digits(bits)
        self._found: dict[int, int] = {1: 0}
        #: ``v -> v * self(v)``, read directly by the hot loop of :func:`_expected_direct`.
        self.products: dict[int, int] = {0: 0, 1: 0}

    def __call__(self, value: int) -> int:
        found = self._found.get(value)
        if found is None:
            with localcontext() as context:
                context.prec = self._digits
                found = int((Decimal(value).ln() * self._scale).to_integral_value())
            self._found[value] = found
        return found

    def n_log_n(self, value: int) -> int:
        """``value * self(value)``, cached."""
        found = self.products.get(value)
        if found is None:
            found = self.products[value] = value * self(value)
        return found


def digits(bits: int) -> int:
    """Decimal digits that hold ``bits`` bits with 14 to spare (``bits`` bits are 0.301 bits digits)."""
    return math.ceil(bits * math.log10(2)) + 14


class PreciseSums(NamedTuple):
    """AMI's ingredients in units of ``2**-bits``: see the module docstring.

    ``cells``, ``reference`` and ``model`` are ``S``, ``S_R`` and ``S_M``;
    ``expected`` is ``X``; ``total`` is ``N ln N``; ``n_elements`` is ``N``.
    """

    bits: int
    n_elements: int
    total: int
    cells: int
    reference: int
    model: int
    expected: int


def precise_sums(cells: TableCells, bits: int = FIRST_BITS) -> PreciseSums:
    """The sums of :class:`PreciseSums` of a table's cells in units of ``2**-bits``.

    O(cells) plus, for every pair of distinct cluster sizes, the terms of its
    law: the work of :func:`expected_mutual_information`, in Python integers.

    >>> from contingency.formulas.partition import table_cells
    >>> sums = precise_sums(table_cells([[1, 1], [1, 1]]))
    >>> sums.cells, sums.reference == sums.model == 2 * (2 * Logs(FIRST_BITS)(2)), sums.expected > 0
    (0, True, True)
    """
    counts, _, _, reference_sizes, model_sizes = exact_arrays(cells)
    n = count_sum(reference_sizes)
    logs = Logs(bits)
    expected = 0
    if reference_sizes.size > 1 and model_sizes.size > 1:
        a_sizes, a_multiplicity = distinct_counts(reference_sizes)
        b_sizes, b_multiplicity = distinct_counts(model_sizes)
        for a, a_count in zip(a_sizes.tolist(), a_multiplicity.tolist()):
            for b, b_count in zip(b_sizes.tolist(), b_multiplicity.tolist()):
                weighted, total = _expected_n_log_n(a, b, n, logs)
                expected += a_count * b_count * weighted // total  # one rounding per pair
    return PreciseSums(bits, n, logs.n_log_n(n), _n_log_n_sum(counts, logs),
                       _n_log_n_sum(reference_sizes, logs), _n_log_n_sum(model_sizes, logs),
                       expected)


def _n_log_n_sum(values: NDArray[np.int64], logs: Logs) -> int:
    """``sum v ln v`` over ``values`` (exact integers), one logarithm per distinct value."""
    values = values[values > 1]
    if values.size == 0:
        return 0
    distinct, multiplicity = distinct_counts(values)
    return sum(m * logs.n_log_n(v) for v, m in zip(distinct.tolist(), multiplicity.tolist()))


def precise_adjusted(sums: PreciseSums, method: str) -> float | None:
    """AMI from :class:`PreciseSums` with ``method``'s mean, rounded once to a float.

    ``None`` when the sums are of fewer than :data:`FRACTION_BITS` bits and
    the numerator or the denominator is not 2**45 times its error: the
    caller computes them again at :data:`FRACTION_BITS`. At that precision,
    conventions for what is indistinguishable from 0: a numerator and a
    denominator both 0 (MI, E[MI] and the mean entropy all equal) give 1,
    scikit-learn's value; a numerator alone 0 (MI equals its expectation
    exactly, as symmetric margins can make it) gives 0.

    >>> from contingency.formulas.partition import table_cells
    >>> round(precise_adjusted(precise_sums(table_cells([[5, 1, 0], [1, 4, 1], [2, 0, 3]])),
    ...                        "arithmetic"), 12)
    0.260181225389
    """
    numerator = sums.cells - sums.expected
    magnitude = max(sums.cells, sums.expected, sums.reference, sums.model, sums.total, 1)
    sure = ((magnitude >> (sums.bits - _ERROR_SPARE)) + 4 * sums.n_elements) << _SURE_BITS
    with localcontext() as context:
        context.prec = digits(sums.bits)
        if method == "geometric":
            reference = Decimal(sums.total - sums.reference)
            model = Decimal(sums.total - sums.model)
            expected = Decimal(sums.total - sums.reference - sums.model + sums.expected)
            denominator = (reference * model).sqrt() - expected
        else:
            if method == "arithmetic":
                twice = sums.reference + sums.model - 2 * sums.expected
            elif method == "min":
                twice = 2 * (min(sums.reference, sums.model) - sums.expected)
            else:
                twice = 2 * (max(sums.reference, sums.model) - sums.expected)
            denominator = Decimal(twice) / 2
        if abs(numerator) > sure and abs(denominator) > sure:
            return float(Decimal(numerator) / denominator)
        if sums.bits < FRACTION_BITS:
            return None
        zero = max(magnitude >> _ZERO_BITS, sure)
        if abs(numerator) <= zero:
            return 1.0 if abs(denominator) <= zero else 0.0
        return float(Decimal(numerator) / denominator)


def _expected_n_log_n(a: int, b: int, n: int, logs: Logs) -> tuple[int, int]:
    """``E[k ln k]`` for ``k`` hypergeometric (``b`` draws, ``a`` of ``n`` marked), times ``2**logs.bits``.

    As a fraction ``(numerator, denominator)`` of integers, rounded by the caller.
    """
    low, high = max(0, a + b - n), min(a, b)
    if high <= 1:  # k ln k is 0 for k in {0, 1}
        return 0, 1
    variance = a * b * (n - a) * (n - b) / (n * n * max(n - 1, 1))
    if math.sqrt(variance) <= _DIRECT_DEVIATION:
        return _expected_direct(a, b, n, low, high, logs)
    return _expected_grid(a, b, n, logs.bits), 1


def _expected_direct(a: int, b: int, n: int, low: int, high: int, logs: Logs
                     ) -> tuple[int, int]:
    """:func:`_expected_n_log_n` term by term, outward from the mode, in integers.

    Going up from ``k`` the ratio of neighbours is ``(a - k)(b - k) / ((k + 1)
    (n - a - b + k + 1))``, going down ``k (n - a - b + k) / ((a - k + 1)(b - k
    + 1))``; both shrink as ``k`` moves away from the mode, so once a ratio
    ``r`` is below 1 the terms left on that side sum to at most ``p r / (1 -
    r)``, ``p`` the last term: the sum stops when that is below ``2**-(bits +
    16)`` of the total. Each term is rounded down to a unit, ``2**-(bits + 24)``
    of the mode's.
    """
    rest = n - a - b
    mode = min(max((a + 1) * (b + 1) // (n + 2), low), high)
    tail = logs.bits + _TAIL_SPARE
    one = 1 << (logs.bits + _PROBABILITY_SPARE)
    total = one
    weighted = one * logs.n_log_n(mode)
    products = logs.products
    k, p = mode, one
    while k < high:  # upwards
        up, down = (a - k) * (b - k), (k + 1) * (rest + k + 1)
        p = p * up // down
        k += 1
        if p == 0:  # and so is every term further out
            break
        total += p
        product = products.get(k)
        weighted += p * (logs.n_log_n(k) if product is None else product)
        if up < down and (p * up) << tail <= (down - up) * total:
            break
    k, p = mode, one
    while k > low:  # downwards
        up, down = k * (rest + k), (a - k + 1) * (b - k + 1)
        p = p * up // down
        k -= 1
        if p == 0:
            break
        total += p
        product = products.get(k)
        weighted += p * (logs.n_log_n(k) if product is None else product)
        if up < down and (p * up) << tail <= (down - up) * total:
            break
    return weighted, total


def _expected_grid(a: int, b: int, n: int, bits: int) -> int:
    """:func:`_expected_n_log_n` of a wide law, on a grid, in decimal arithmetic.

    ``E[k ln k] = mu ln mu + E[D(k, mu)]`` with ``mu = a b / n`` and the
    deviance ``D(x, m) = x ln(x / m) + m - x``; ``E[D]`` is summed over ``c + j
    h`` for ``|j| <= 96`` (48 at :data:`FIRST_BITS`) around ``c = floor(mu)``,
    each point weighted by its probability from Loader's saddle-point form (see
    ``_expected_wide``), with ``h`` such that the grid reaches the ``2**-(bits
    + 16)`` tails, ``27.5 sigma`` from ``mu`` at most (17.9 at
    :data:`FIRST_BITS`) for a standard deviation ``sigma`` above 100. So
    ``sigma / h`` is above 3.4 (2.6), and the grid's error, of relative order
    ``exp(-2 pi**2 (sigma / h)**2)``, is below ``2**-330`` (``2**-190``). Every
    count is above 7000 (each of ``mu``, ``a - mu``, ``b - mu`` and ``n - a -
    b + mu`` is at least ``sigma**2``), where Stirling's series, summed until
    its terms are below the precision, converges. Against the sum of every
    term (tests) it agrees to 2**-260.
    """
    # Bernstein's bound with the binomial variance of the smallest of the four equivalent
    # draws (at most twice the hypergeometric one), as expected_mutual_information does.
    p_a, p_b = a / n, b / n
    bound = min(min(b, n - b) * p_a * (1 - p_a), min(a, n - a) * p_b * (1 - p_b))
    tail_log = (bits + _TAIL_SPARE) * math.log(2.0)
    third = tail_log / 3
    reach = third + math.sqrt(third * third + 2 * tail_log * bound) + 1.0
    half = _GRID_HALF if bits > FIRST_BITS else _GRID_HALF // 2
    step = max(1, math.ceil(reach / half))
    centre = a * b // n
    with localcontext() as context:
        context.prec = digits(bits)
        mean = Decimal(a * b) / n
        means = (mean, a - mean, b - mean, n - a - b + mean)
        smallest = Decimal(2) ** -(bits + 64)
        log_p: list[Decimal] = []
        deviance: list[Decimal] = []
        for j in range(-half, half + 1):
            k = centre + j * step
            counts = (k, a - k, b - k, n - a - b + k)
            log = -Decimal(counts[0] * counts[1] * counts[2] * counts[3]).ln() / 2
            for x, m in zip(counts, means):
                log -= _stirling_error(Decimal(x), smallest) + _deviance(Decimal(x), m)
            log_p.append(log)
            deviance.append(_deviance(Decimal(k), mean))
        top = max(log_p)
        weights = [(value - top).exp() for value in log_p]
        average = sum((w * d for w, d in zip(weights, deviance)), Decimal(0)) / sum(weights)
        expected = mean * mean.ln() + average
        return int((expected * (1 << bits)).to_integral_value())


def _deviance(x: Decimal, m: Decimal) -> Decimal:
    """``x ln(x / m) + m - x`` (``x, m > 0``), at the context's precision."""
    return x * (x / m).ln() + m - x


def _stirling_error(x: Decimal, smallest: Decimal) -> Decimal:
    """``ln x! - (x + 1/2) ln x + x - ln sqrt(2 pi)`` by Stirling's series, ``x`` above 7000.

    Terms are added until one is below ``smallest``; at ``x`` above 7000 the
    thirteenth, which the series never reaches, is below 1e-90.
    """
    inverse = 1 / x
    square = inverse * inverse
    total = Decimal(0)
    power = inverse
    for numerator, denominator in _STIRLING:
        term = Decimal(numerator) / denominator * power
        total += term
        if abs(term) < smallest:
            break
        power *= square
    return total
