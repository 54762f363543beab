"""The one home of undefined ratios, averages, exact-count checks and the limits of exact arithmetic.

Every score in :mod:`contingency.formulas` that can meet a zero denominator
gets the value the caller's ``zero_division`` setting names, decided here or
in the formula's own docstring, never by a numpy warning.

``zero_division`` is one of:

``"perl"``
    Statistics::Contingency's conventions (each formula states its own, since
    Perl's differ per score), with Perl's exact floating-point arithmetic.
``0.0``, ``1.0``
    scikit-learn's ``zero_division=0`` / ``1``: the undefined value is that number.
``"nan"`` (or a float NaN)
    scikit-learn's ``zero_division=np.nan``: the undefined value is NaN, and
    averages skip NaN values (NaN only when every value is NaN).
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Iterable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "EXACT_FLOAT_BOUND",
    "INT64_MAX",
    "INT64_SAFE",
    "MAX_COUNT",
    "MAX_DIGITS",
    "MAX_SCALE",
    "ZeroDivision",
    "as_float",
    "average",
    "check_count",
    "check_room",
    "check_zero_division",
    "count_codes",
    "dense_is_cheaper",
    "distinct_counts",
    "divide",
    "exact_items",
    "exact_sum",
    "exact_units",
    "fits_digits",
    "rounded_units",
    "shown",
    "undefined_value",
]

#: What a caller may pass as ``zero_division``.
ZeroDivision = Literal["perl", "nan"] | float

Floats = NDArray[np.float64]


def check_zero_division(value: object, *, name: str = "zero_division") -> ZeroDivision:
    """Return ``value`` normalised to ``"perl"``, ``0.0``, ``1.0`` or ``nan``.

    NaN is kept as the string ``"nan"``, so that settings compare equal and
    survive JSON; ``float("nan")`` turns it back into the number.

    >>> check_zero_division("perl"), check_zero_division(1), check_zero_division(float("nan"))
    ('perl', 1.0, 'nan')
    >>> check_zero_division(0.5)
    Traceback (most recent call last):
    ...
    ValueError: zero_division must be 'perl', 0.0, 1.0 or 'nan', not 0.5
    """
    if isinstance(value, str) and value in ("perl", "nan"):  # not ==: an array compares per item
        return "perl" if value == "perl" else "nan"
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer past a float's range: no setting, refused below
            number = math.inf
        if math.isnan(number):
            return "nan"
        if number in (0.0, 1.0):
            return number
    raise ValueError(f"{name} must be 'perl', 0.0, 1.0 or 'nan', not {shown(value)}")


def undefined_value(zero_division: ZeroDivision, perl: float) -> float:
    """The value of an undefined case: ``perl`` (the formula's own) in Perl mode, else the mode's number.

    >>> undefined_value("perl", 0.0), undefined_value(1.0, 0.0), undefined_value("nan", 0.0)
    (0.0, 1.0, nan)
    """
    return perl if zero_division == "perl" else float(zero_division)


#: Perl's die for an average over no category (Statistics::Contingency's message).
NO_CATEGORY = "No category information has been recorded"


def no_category(zero_division: ZeroDivision) -> float:
    """The value of an average over categories when there is none: undefined, as ``zero_division`` says.

    Perl mode keeps Statistics::Contingency's die (``ValueError`` with its
    message); the other modes give their number, as for any other 0 / 0.

    >>> no_category(0.0), no_category("nan")
    (0.0, nan)
    >>> no_category("perl")
    Traceback (most recent call last):
    ...
    ValueError: No category information has been recorded
    """
    if zero_division == "perl":
        raise ValueError(NO_CATEGORY)
    return float(zero_division)


def divide(numerator: ArrayLike, denominator: ArrayLike, undefined: ArrayLike) -> Floats:
    """``numerator / denominator`` as float64, with ``undefined`` where the denominator is 0.

    The one place a division by zero is caught: numpy is told not to warn, and
    the cells it would have filled with NaN or infinity get ``undefined``.

    >>> divide([1, 0, 3], [2, 0, 0], [9.0, 7.0, 5.0]).tolist()
    [0.5, 7.0, 5.0]
    """
    num, den = as_float(numerator), as_float(denominator)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = num / den
    return np.where(den == 0, np.asarray(undefined, dtype=np.float64), quotient)


def average(
    values: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    empty: float,
) -> float:
    """Weighted mean of ``values``, skipping NaN values, as scikit-learn's ``_nanaverage``.

    When the weights of the remaining values sum to zero they are ignored (the
    plain mean), as in scikit-learn. ``empty`` is returned when there is
    nothing to average: no values, or all of them NaN. Each sum (``sum(v)``,
    ``sum(v w)``, ``sum(w)``) is exact, rounded once to a float (as
    :func:`math.fsum` does), and the mean is their quotient: it does not depend
    on the order of the values, it equals Perl's mean whenever Perl's own sum is
    exact, and the running sums of :mod:`contingency._category_sums` give the
    very same float.

    >>> average([0.5, 1.0, float("nan")], empty=0.0)
    0.75
    >>> average([0.5, 1.0], [3, 1], empty=0.0)
    0.625
    >>> average([0.5, 1.0], [0, 0], empty=0.0)
    0.75
    >>> average([], empty=1.0)
    1.0
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    keep = ~np.isnan(v)
    if isinstance(weights, np.ndarray) and weights.shape == v.shape and keep.any():
        products = _exact_products(v[keep], weights.ravel()[keep])
        if products is not None:
            weight = sum(weights.ravel()[keep].tolist())
            if weight != 0:
                return math.fsum(np.concatenate(products)) / float(weight)
            return math.fsum(v[keep]) / int(keep.sum())
    kept = v[keep].tolist()
    if not kept:
        return float(empty)
    if weights is not None:
        w = [weight for weight, kept_ in zip(exact_items(weights), keep.tolist()) if kept_]
        weight, weight_scale = _exact_sum(map(_ratio, w))
        if weight != 0:
            numerator, scale = _exact_sum(map(_ratio, kept), map(_ratio, w))
            return (numerator / scale) / (weight / weight_scale)
    return math.fsum(kept) / len(kept)


#: Veltkamp's splitter for doubles: 2**27 + 1 cuts a double into two halves of 26 bits.
_SPLITTER = 134217729.0
#: Values this far from 1 (or 0) split without overflow or underflow.
_SPLIT_RANGE = 2.0**500


def _exact_products(values: NDArray[np.float64], weights: NDArray[Any]
                    ) -> tuple[NDArray[np.float64], ...] | None:
    """Doubles whose exact sum is ``sum(values * weights)``, or ``None`` outside their range.

    Each value is cut into two doubles of 26 significant bits (Veltkamp's
    split, exact) and each integer weight below 2**53 into two of 27 bits at
    most (below 2**63, three of 26 bits at most): the products of the parts
    have at most 53 bits, so each is a double exactly, and :func:`math.fsum`
    of them is the exact sum rounded once, what :func:`average` computes with
    Python integers, at numpy's speed. So the sum does not depend on the unit
    the weights are counted in (a weight of ``2**53`` units at half the unit
    gives the sum of ``2**52`` at the unit, times two, exactly).
    """
    if weights.dtype.kind not in "iu" or int(weights.min()) < 0 or int(weights.max()) > INT64_MAX:
        return None
    size = np.abs(values)
    if not np.isfinite(size).all() or size.max() > _SPLIT_RANGE or (
            size[size > 0].min(initial=1.0) < 1 / _SPLIT_RANGE):
        return None
    scaled = values * _SPLITTER
    high = scaled - (scaled - values)
    low = values - high
    wide = weights.astype(np.int64)
    low_bits = (1 << 26) - 1
    if int(weights.max()) < EXACT_FLOAT_BOUND:
        parts = [((wide >> 26) << 26).astype(np.float64), (wide & low_bits).astype(np.float64)]
    else:
        parts = [((wide >> 52) << 52).astype(np.float64),
                 (((wide >> 26) & low_bits) << 26).astype(np.float64),
                 (wide & low_bits).astype(np.float64)]
    return tuple(half * part for half in (high, low) for part in parts)


def exact_items(values: ArrayLike) -> list[Any]:
    """The items of a flat sequence or array as Python numbers, integers exactly.

    A list or tuple is taken as it is: numpy would turn a list holding an
    integer past int64 into floats (weighted counts reach beyond it).

    >>> exact_items([2**63 + 1, 3]), exact_items(np.array([1, 2], dtype=np.uint8))
    ([9223372036854775809, 3], [1, 2])
    """
    if isinstance(values, (list, tuple)) and not any(
            isinstance(value, (list, tuple, np.ndarray)) for value in values):
        return list(values)
    items: list[Any] = np.asarray(values).ravel().tolist()
    return items


def _ratio(value: float | int) -> tuple[int, int]:
    """A float or an integer as the exact ratio of two ints, the second a power of two."""
    if isinstance(value, (int, np.integer)):
        return int(value), 1
    return float(value).as_integer_ratio()


def _exact_sum(first: Iterable[tuple[int, int]],
               second: Iterable[tuple[int, int]] | None = None) -> tuple[int, int]:
    """The exact sum of the ratios of ``first`` (times those of ``second``, pairwise) as one ratio.

    Every denominator is a power of two, so their largest is a common one.
    """
    terms = (list(first) if second is None
             else [(n * m, d * e) for (n, d), (m, e) in zip(first, second)])
    if not terms:
        return 0, 1
    scale = max(d for _, d in terms)
    return sum(n * (scale // d) for n, d in terms), scale


def as_float(values: ArrayLike) -> NDArray[np.float64]:
    """Exact counts (or their sums) rounded once to float64.

    A plain ``int`` past int64 (a sum of huge counts) is rounded by ``float``,
    which numpy would refuse to convert.

    >>> float(as_float(2**64 + 1)) == 2.0**64, as_float([1, 2]).dtype
    (True, dtype('float64'))
    """
    if type(values) is int:
        return np.asarray(float(values))
    return np.asarray(values, dtype=np.float64)


def check_count(value: object, name: str) -> int:
    """Return ``value`` as an exact non-negative ``int``, or raise ``ValueError`` naming ``name``.

    Python and numpy integers are accepted; bools, floats (even 3.0),
    negative numbers and integers of more than :data:`MAX_DIGITS` digits are
    refused, since a count is exact (and must be printable).

    >>> check_count(3, "a")
    3
    >>> check_count(2.0, "b")
    Traceback (most recent call last):
    ...
    ValueError: b must be a non-negative integer count, not 2.0
    >>> check_count(10**5000, "c")
    Traceback (most recent call last):
    ...
    ValueError: c must be a non-negative integer count of at most 640 digits, not an integer of 5001 digits
    """
    if type(value) is int and 0 <= value < _INTEGER_LIMIT:  # the commonest count, at once
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        count = int(value)
        if 0 <= count < _INTEGER_LIMIT:
            return count
        if count > 0:
            raise ValueError(f"{name} must be a non-negative integer count of at most "
                             f"{MAX_DIGITS} digits, not {shown(count)}")
    raise ValueError(f"{name} must be a non-negative integer count, not {shown(value)}")


#: The most decimal digits of any integer the library takes: a count, a weight, an integer
#: label (or a member of a tuple or frozenset label). 640 is the smallest limit Python's
#: ``sys.set_int_max_str_digits`` accepts (the default is 4300), so every integer taken can be
#: printed (in a message, a report) and written to JSON and read back, whatever the setting.
#: Counts and weights have the tighter limit :data:`MAX_COUNT` on top.
MAX_DIGITS = 640
_INTEGER_LIMIT: int = 10**MAX_DIGITS  # an integer taken is below it in magnitude


def fits_digits(value: int) -> bool:
    """Whether the integer ``value`` has at most :data:`MAX_DIGITS` digits.

    >>> fits_digits(-(10**640 - 1)), fits_digits(10**640)
    (True, False)
    """
    return -_INTEGER_LIMIT < value < _INTEGER_LIMIT


class _Shown(reprlib.Repr):
    """``reprlib``'s bounded text, with an integer too long to print given by its size."""

    def repr_int(self, x: int, level: int) -> str:
        if fits_digits(x):  # in full: a count in a message is read digit by digit
            return repr(x)
        size = abs(x)
        digits = max(1, (size.bit_length() - 1) * 30103 // 100000)  # log10(2) rounded up
        while 10**digits <= size:  # at most a step or two
            digits += 1
        return f"an integer of {digits} digits"


_SHOWN = _Shown()


def shown(value: object) -> str:
    """``value`` as an error message shows it: bounded in length, and never failing to print.

    ``reprlib``'s text (long strings and containers shortened), except that
    an integer is written in full up to :data:`MAX_DIGITS` digits, and
    described by its size past them (Python may refuse to convert it to text).

    >>> shown(12), shown("x" * 100)[:8], shown(10**5000), shown((1, -(10**700)))
    ('12', "'xxxxxxx", 'an integer of 5001 digits', '(1, an integer of 701 digits)')
    """
    return _SHOWN.repr(value)


#: The largest value numpy's int64 holds: integer label arrays beyond it are coded through
#: Python integers, and exact arithmetic that could pass it leaves int64.
INT64_MAX = 2**63 - 1
#: The largest count an accumulator holds (results, elements, any cell): int64's largest
#: value, so that every count fits numpy's int64 and every sum of a table's cells does too.
#: Every path that raises a count checks it with :func:`check_room`.
MAX_COUNT = INT64_MAX
#: The int64-safe bound: numbers below it add in pairs (a count and a change, two cells of a
#: table) without passing INT64_MAX, so arithmetic on them stays in int64 with no check.
INT64_SAFE = 1 << 62


#: The finest unit a weighted count is kept in: ``2**-MAX_SCALE``. Every weight is a dyadic
#: rational ``m * 2**-k``; an accumulator keeps its counts as exact integers in units of the
#: smallest ``2**-k`` any of its weights needed, and refuses a weight that needs ``k > MAX_SCALE``
#: (a float below about ``2**-75`` with a full mantissa, or below ``2**-128`` at all). Such counts
#: stay below ``2**(63 + MAX_SCALE)``, whose products and ratios every formula computes in float64
#: without overflow.
MAX_SCALE = 128


def check_room(total: int, change: int, what: str) -> None:
    """Refuse to take a count of ``what`` from ``total`` past :data:`MAX_COUNT` by adding ``change``.

    >>> check_room(5, 2, "results")
    >>> check_room(MAX_COUNT, 1, "elements")
    Traceback (most recent call last):
    ...
    ValueError: the accumulator would hold 9223372036854775808 elements; at most 2**63 - 1 are supported
    """
    if total + change > MAX_COUNT:
        raise ValueError(f"the accumulator would hold {shown(total + change)} {what}; at most "
                         "2**63 - 1 are supported")


#: Every integer of magnitude up to this is a float64 exactly, and float64 adds integers
#: exactly while every partial sum stays within it: the bound of exact integer arithmetic
#: in floats.
EXACT_FLOAT_BOUND = 2**53

#: The least positive float64, ``2**-1074``: every finite float64 is a whole number of them, so a
#: sum of floats is exact as a Python int in this unit (:func:`exact_units`, :func:`exact_sum`)
#: and :func:`rounded_units` rounds it once, as :func:`math.fsum` rounds the same sum.
_TINY_BITS = 1074


def exact_units(value: float) -> int:
    """A finite float64 exactly, as a whole number of ``2**-1074`` (a Python int).

    >>> exact_units(0.5) == 1 << 1073, exact_units(5e-324), exact_units(0.0)
    (True, 1, 0)
    """
    numerator, denominator = value.as_integer_ratio()  # the denominator a power of two
    return numerator << (_TINY_BITS + 1 - denominator.bit_length())


def exact_sum(values: NDArray[np.float64]) -> int:
    """The exact sum of finite floats, a whole number of ``2**-1074`` (a Python int).

    numpy's ``frexp`` cuts each value into 53 significant bits and an exponent;
    the significands of one exponent are summed in int64 (in two halves of
    27 and 26 bits, so no partial sum passes int64 below 2**36 values), and the
    few sums, one per exponent, are shifted into place with Python ints.

    >>> values = np.array([0.1, 0.2, 5e-324, 1e300])
    >>> exact_sum(values) == sum(map(exact_units, values.tolist()))
    True
    """
    values = np.asarray(values, dtype=np.float64)
    if not values.size:
        return 0
    fractions, exponents = np.frexp(values)  # value = fraction * 2**exponent, 0.5 <= fraction < 1
    significands = (fractions * 2.0**53).astype(np.int64)  # exact: 53 bits
    # in units of 2**-1126: value = significand * 2**(exponent - 53), and exponent >= -1073
    shifts = exponents.astype(np.int64) + (_TINY_BITS - 1)
    order = np.argsort(shifts, kind="stable")
    shifts, significands = shifts[order], significands[order]
    starts = np.flatnonzero(np.concatenate([[True], shifts[1:] != shifts[:-1]]))
    high = np.add.reduceat(significands >> 26, starts).tolist()
    low = np.add.reduceat(significands & ((1 << 26) - 1), starts).tolist()
    total: int = sum(((h << 26) + l) << shift
                     for h, l, shift in zip(high, low, shifts[starts].tolist()))
    return total >> 52  # a whole number of 2**-1074: every value is


def rounded_units(units: int) -> float:
    """``units * 2**-1074`` rounded once to float64 (Python's int division is correctly rounded,
    subnormal results included): the exact sum of :func:`exact_sum` as :func:`math.fsum` gives it.

    >>> rounded_units(exact_units(0.1) + exact_units(0.2)) == math.fsum([0.1, 0.2])
    True
    """
    return units / (1 << _TINY_BITS)


#: A dense table of this many slots (512 KiB of int64 counters, zeroed and scanned) costs about
#: as much as sorting a few thousand keys; a larger one is used only for a batch a quarter its size.
_DENSE_FLOOR = 1 << 16


def dense_is_cheaper(slots: int, n: int) -> bool:
    """True when counting ``n`` keys in a table of ``slots`` counters beats sorting them.

    The one rule for choosing between ``numpy.bincount`` and a sort. A dense
    count costs about one pass over the keys plus one over the slots (zeroing
    and scanning), a sort ``n log n`` comparisons; with a few slots per key, or
    a table small enough to stay in cache, the dense count wins.

    >>> dense_is_cheaper(1000 * 1000, 10**6), dense_is_cheaper(10**12, 10**6)
    (True, False)
    >>> dense_is_cheaper(1 << 16, 3), dense_is_cheaper(200_000, 1)
    (True, False)
    """
    return slots <= max(4 * n, _DENSE_FLOOR)


def distinct_counts(values: NDArray[Any], size: int | None = None,
                    weights: NDArray[Any] | None = None) -> tuple[NDArray[Any], NDArray[Any]]:
    """The distinct values of a 1-d array of non-negative integers, sorted, and how often each occurs.

    The one distinct-count helper of the package. A histogram when
    :func:`dense_is_cheaper` says so, else a sort; an object array (Python
    ints past int64) is always sorted. With ``weights`` (integers, see
    :func:`count_codes`), each occurrence counts its weight, and values of
    total weight 0 are left out; ``size`` (every value is below it; the
    largest value plus one if not given) is the histogram's length then.

    >>> values, multiplicity = distinct_counts(np.array([3, 1, 3, 0]))
    >>> values.tolist(), multiplicity.tolist()
    ([0, 1, 3], [1, 1, 2])
    >>> values, total = distinct_counts(np.array([3, 1, 3, 0]), 4, np.array([2, 5, 1, 0]))
    >>> values.tolist(), total.tolist()
    ([1, 3], [5, 3])
    """
    if weights is None:
        if values.dtype != object and values.size:
            largest = int(values.max())
            if dense_is_cheaper(largest + 1, values.size):
                histogram = np.bincount(values)
                distinct = np.flatnonzero(histogram != 0)
                return distinct, histogram[distinct]
        distinct, multiplicity = np.unique(values, return_counts=True)
        return distinct, multiplicity
    if size is None:
        size = int(values.max()) + 1 if values.size else 0
    if dense_is_cheaper(size, len(values)):
        counts = count_codes(values, size, weights)
        present = np.flatnonzero(counts != 0)
        return present, counts[present]
    present, inverse = np.unique(values, return_inverse=True)
    found = count_codes(inverse.ravel(), len(present), weights)
    kept = np.flatnonzero(found != 0)
    return present[kept], found[kept]


def count_codes(codes: NDArray[Any], size: int, weights: NDArray[Any] | None = None
                ) -> NDArray[Any]:
    """``np.bincount(codes, weights, minlength=size)``, exact for integer weights (int64 or Python ints).

    float64 adds integers exactly while every partial sum stays below
    :data:`EXACT_FLOAT_BOUND`, so weights whose magnitudes add up to less
    (either sign) take numpy's bincount; larger ones are summed in int64
    (the caller keeps every sum of magnitudes below ``2**63``) or, for
    Python ints (an object array), as objects.

    >>> count_codes(np.array([0, 2, 2]), 3, np.array([5, 1, 2**60])).tolist()
    [5, 0, 1152921504606846977]
    >>> count_codes(np.array([1, 1]), 2, np.array([3, -1])).tolist()
    [0, 2]
    """
    if weights is None:
        return np.bincount(codes, minlength=size)
    if weights.dtype != object and int(np.abs(weights).sum()) < EXACT_FLOAT_BOUND:
        return np.bincount(codes, weights=weights, minlength=size).astype(np.int64)
    counts = np.zeros(max(size, int(codes.max()) + 1 if len(codes) else 0), dtype=weights.dtype)
    np.add.at(counts, codes, weights)
    return counts
