"""Scores of 2x2 contingency tables, each written once.

Glossary (Statistics::Contingency's names, used throughout this layer)::

                  Correct=Y   Correct=N
                +-----------+-----------+
     Assigned=Y |     a     |     b     |      a = true positives  (tp)
                +-----------+-----------+      b = false positives (fp)
     Assigned=N |     c     |     d     |      c = false negatives (fn)
                +-----------+-----------+      d = true negatives  (tn)

Every function takes the four cells (scalars or arrays of equal shape: one
table per category) and returns float64 of that shape; the caller turns a
0-d result into a ``float``. ``zero_division`` selects the value of the
undefined cases, as described in :mod:`contingency.formulas._numeric`. With
``"perl"`` the arithmetic is also Perl's: precision, recall and F are computed
as ``1 / (1 + y / x)``, exactly as Statistics::Contingency 0.09 does, so that
results agree to the last bit and its tables to the last character.

The same functions score pair-counting tables of partition comparisons
(a = pairs together in both partitions, and so on).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._numeric import (
    ZeroDivision,
    as_float,
    average,
    check_zero_division,
    divide,
    exact,
    is_perl,
    undefined_value,
)

__all__ = [
    "accuracy",
    "error",
    "f1",
    "f_beta",
    "matthews_corrcoef",
    "precision",
    "recall",
    "samples_average",
    "specificity",
    "subset_accuracy",
]

Floats = NDArray[np.float64]
_DOUBLE_EXACT = 2.0**53  # every integer below is a double


def _as_floats(*cells: ArrayLike) -> list[Floats]:
    return [as_float(cell) for cell in cells]


def _as_exact(*cells: ArrayLike) -> list[NDArray[Any]]:
    arrays = [exact(cell) for cell in cells]
    if any(array.dtype == object for array in arrays):
        # A count of 2**60 or more: every integer cell becomes a Python int, since a
        # Python int (what arithmetic on 0-d object arrays gives) and int64 do not mix.
        arrays = [array.astype(object) if array.dtype.kind in "iu" else array
                  for array in arrays]
    return arrays


def _undefined(zero_division: ZeroDivision, perl: ArrayLike) -> tuple[ZeroDivision, ArrayLike]:
    """Normalise ``zero_division``; return it with the value of the undefined case.

    ``perl`` is the formula's own Perl-mode value; every other mode uses its number.
    """
    mode = check_zero_division(zero_division)
    return mode, undefined_value(mode, perl)


def _share(x: NDArray[Any], y: NDArray[Any], zero_division: ZeroDivision,
           undefined: ArrayLike) -> Floats:
    """``x / (x + y)``, with ``undefined`` where ``x + y == 0``.

    ``x + y`` is summed exactly when the counts are integers, then rounded once.

    In Perl mode the value is Statistics::Contingency's ``_invert``:
    ``1 / (1 + y / x)``, which is 1 when ``y == 0`` and 0 when ``x == 0 < y``.
    It differs from ``x / (x + y)`` in the last bit for some counts, and that
    bit can decide how a table rounds, so Perl mode keeps Perl's arithmetic.
    """
    if not is_perl(zero_division):
        return divide(x, x + y, undefined)
    if type(x) is int or type(y) is int:  # a sum of 0-d object arrays (huge counts) is an int
        x, y = exact(x), exact(y)
    fx, fy = _as_floats(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverted = 1.0 / (1.0 + fy / fx)
    if x.dtype.kind in "iuO" and y.dtype.kind in "iuO" and np.any(fy >= _DOUBLE_EXACT):
        # Perl divides two integers exactly when one divides the other, and then
        # adds 1 in integer arithmetic; only past 2**53 does that differ from
        # doubles (Statistics::Contingency on a count of 2**53 + 1, say).
        divisor = np.where(x == 0, 1, x)
        quotient, remainder = y // divisor, y % divisor
        whole = (remainder == 0) & (x != 0)
        with np.errstate(divide="ignore"):
            exact_inverted = 1.0 / as_float(1 + quotient)
        inverted = np.where(whole, exact_inverted, inverted)
    perl = np.where(y == 0, 1.0, np.where(x == 0, 0.0, inverted))
    return np.where(x + y == 0, np.asarray(undefined, dtype=np.float64), perl)


def precision(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
              zero_division: ZeroDivision = "perl") -> Floats:
    """Precision ``a / (a + b)``: the share of assigned categories that were correct.

    Undefined when nothing was assigned (``a + b == 0``). Perl: 0 when a
    correct category was missed (``c > 0``), else 1; otherwise ``zero_division``.

    >>> float(precision(3, 1, 0, 5))
    0.75
    >>> precision([0, 0], [0, 0], [2, 0], [1, 1]).tolist()   # Perl's two undefined cases
    [0.0, 1.0]
    >>> float(precision(0, 0, 2, 1, zero_division=0.0))
    0.0
    """
    ea, eb, ec = _as_exact(a, b, c)
    mode, undefined = _undefined(zero_division, np.where(ec > 0, 0.0, 1.0))
    return _share(ea, eb, mode, undefined)


def recall(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
           zero_division: ZeroDivision = "perl") -> Floats:
    """Recall ``a / (a + c)``: the share of correct categories that were assigned.

    Undefined when nothing was correct (``a + c == 0``): 1 in Perl, else ``zero_division``.

    >>> float(recall(3, 1, 1, 5))
    0.75
    >>> float(recall(0, 4, 0, 5)), float(recall(0, 4, 0, 5, zero_division="nan"))
    (1.0, nan)
    """
    ea, ec = _as_exact(a, c)
    mode, undefined = _undefined(zero_division, 1.0)
    return _share(ea, ec, mode, undefined)


def specificity(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
                zero_division: ZeroDivision = "perl") -> Floats:
    """Specificity ``d / (d + b)``: the recall of the negative class.

    It is :func:`recall` of the table seen from the other side, so it shares
    recall's undefined case: no negative at all (``b + d == 0``) gives 1 in Perl
    mode, else ``zero_division``.

    >>> float(specificity(3, 1, 1, 3))
    0.75
    """
    return recall(d, c, b, a, zero_division=zero_division)


def f_beta(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *, beta: float = 1.0,
           zero_division: ZeroDivision = "perl") -> Floats:
    """F-beta ``(1 + β²) a / ((1 + β²) a + β² c + b)``; recall weighs β times precision.

    Computed from the counts, not from precision and recall, so it is defined
    whenever one of a, b, c is non-zero (it is 0 when ``a == 0``). With
    ``a == b == c == 0`` it is undefined: Perl's F1 is then 1
    (``F1(a,0,0,d) = 1``), otherwise ``zero_division`` (scikit-learn's rule).
    ``beta = 0`` gives precision and ``beta = inf`` recall.

    >>> float(f_beta(2, 1, 1, 0))
    0.6666666666666666
    >>> round(float(f_beta(2, 1, 1, 0, beta=2.0)), 12)
    0.666666666667
    >>> float(f_beta(0, 0, 0, 9)), float(f_beta(0, 0, 0, 9, zero_division=0.0))
    (1.0, 0.0)
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta >= 0:
        raise ValueError(f"beta must be a number >= 0, not {beta!r}")
    if math.isinf(beta):  # the limit: recall alone, as in scikit-learn
        return recall(a, b, c, d, zero_division=zero_division)
    mode, undefined = _undefined(zero_division, 1.0)
    if beta == 1:  # exact integer x = 2a and y = b + c, as Perl computes them
        ea, eb, ec = _as_exact(a, b, c)
        return _share(2 * ea, eb + ec, mode, undefined)
    fa, fb, fc = _as_floats(a, b, c)
    beta2 = float(beta) ** 2
    return _share((1.0 + beta2) * fa, beta2 * fc + fb, mode, undefined)


def f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
       zero_division: ZeroDivision = "perl") -> Floats:
    """F1 ``2a / (2a + b + c)``, the harmonic mean of precision and recall: :func:`f_beta` with β = 1.

    >>> float(f1(1, 1, 0, 0))
    0.6666666666666666
    """
    return f_beta(a, b, c, d, beta=1.0, zero_division=zero_division)


def accuracy(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
             zero_division: ZeroDivision = "perl") -> Floats:
    """Accuracy ``(a + d) / (a + b + c + d)``: the share of decisions that were right.

    An empty table has accuracy 1 in Perl, else ``zero_division``.

    >>> float(accuracy(1, 1, 0, 2)), float(accuracy(0, 0, 0, 0))
    (0.75, 1.0)
    """
    ea, eb, ec, ed = _as_exact(a, b, c, d)
    _, undefined = _undefined(zero_division, 1.0)
    return divide(ea + ed, ea + eb + ec + ed, undefined)


def error(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
          zero_division: ZeroDivision = "perl") -> Floats:
    """Error ``(b + c) / (a + b + c + d)``: the share of decisions that were wrong.

    An empty table has error 0 in Perl, else ``zero_division``.

    >>> float(error(1, 1, 0, 2)), float(error(0, 0, 0, 0))
    (0.25, 0.0)
    """
    ea, eb, ec, ed = _as_exact(a, b, c, d)
    _, undefined = _undefined(zero_division, 0.0)
    return divide(eb + ec, ea + eb + ec + ed, undefined)


def matthews_corrcoef(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
                      zero_division: ZeroDivision = "perl") -> Floats:
    """Matthews correlation ``(ad - bc) / sqrt((a+b)(a+c)(d+b)(d+c))``, in [-1, 1].

    Undefined when a row or column of the table is empty. Perl mode (the
    module has no MCC; this follows its F1 rule): 1 when there is no error
    (``b == c == 0``, every decision right), else 0. Other modes give
    ``zero_division``; scikit-learn always returns 0.0, which
    ``zero_division=0.0`` reproduces.

    >>> float(matthews_corrcoef(5, 0, 0, 5)), float(matthews_corrcoef(0, 5, 5, 0))
    (1.0, -1.0)
    >>> float(matthews_corrcoef(0, 0, 0, 7)), float(matthews_corrcoef(0, 0, 3, 7))
    (1.0, 0.0)
    """
    fa, fb, fc, fd = _as_floats(a, b, c, d)
    _, undefined = _undefined(zero_division, np.where(fb + fc == 0, 1.0, 0.0))
    # The four margins are multiplied pairwise before the square root so that
    # no single product overflows before counts reach about 1e77.
    scale = np.sqrt((fa + fb) * (fa + fc)) * np.sqrt((fd + fb) * (fd + fc))
    return divide(fa * fd - fb * fc, scale, undefined)


# Scores of results, from the histogram of result shapes ------------------------------
#
# A multi-label result is summed up by three sizes: ``both`` = |assigned ∩ correct|,
# ``assigned`` = |assigned| and ``correct`` = |correct|. Its own 2x2 table over the
# categories is a = both, b = assigned - both, c = correct - both. An accumulator
# keeps how many results had each shape: that histogram is all the per-result
# scores below need, whatever the number of results.

ScoreFunction = Callable[..., Floats]


def samples_average(score: ScoreFunction, both: ArrayLike, assigned: ArrayLike,
                    correct: ArrayLike, counts: ArrayLike, *,
                    zero_division: ZeroDivision = "perl") -> float:
    """Mean over results of ``score`` of each result's own table (scikit-learn's ``average="samples"``).

    ``counts[i]`` results had the shape ``(both[i], assigned[i], correct[i])``.
    A result's undefined score follows ``zero_division`` like any table's
    (Perl: a result with nothing assigned and nothing correct has precision,
    recall and F1 1), and NaN values are skipped in ``"nan"`` mode. With no
    result at all the mean is the score of an empty table.

    >>> # one result right on 1 of 2 assigned categories, one exactly right on 1
    >>> samples_average(precision, [1, 1], [2, 1], [1, 1], [1, 1])
    0.75
    """
    eboth, eassigned, ecorrect = _as_exact(both, assigned, correct)
    zero = np.zeros_like(eboth)
    values = score(eboth, eassigned - eboth, ecorrect - eboth, zero, zero_division=zero_division)
    empty = float(score(0, 0, 0, 0, zero_division=zero_division))
    return average(values, counts, empty=empty)


def subset_accuracy(both: ArrayLike, assigned: ArrayLike, correct: ArrayLike,
                    counts: ArrayLike, *, zero_division: ZeroDivision = "perl") -> float:
    """The share of results whose assigned set equals the correct set (exact match).

    A result is exact when ``both == assigned == correct``. With no result at
    all it is :func:`accuracy` of an empty table (Perl: 1).

    >>> subset_accuracy([1, 1, 0], [1, 2, 0], [1, 1, 0], [3, 1, 1])
    0.8
    """
    eboth, eassigned, ecorrect, ecounts = _as_exact(both, assigned, correct, counts)
    match = (eboth == eassigned) & (eboth == ecorrect)
    right = sum(ecounts[match].tolist())
    wrong = sum(ecounts[~match].tolist())
    return float(accuracy(right, wrong, 0, 0, zero_division=zero_division))
