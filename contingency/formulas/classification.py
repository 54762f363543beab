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

Scores of a K x K confusion matrix of single-label results (rows the correct
category, columns the assigned one: scikit-learn's orientation) come last:
Cohen's kappa, the multiclass Matthews correlation and balanced accuracy,
each from a few exact sums over the matrix (:class:`ConfusionSums`), which an
accumulator keeps running; and, from the matrix's non-empty cells (a
coordinate list: rows, columns, counts), the matrix normalised as
scikit-learn's ``normalize=`` does and Cohen's kappa with linear or
quadratic weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._arguments import call_prefix, check_choice, real_number
from contingency.formulas._numeric import (
    EXACT_FLOAT_BOUND,
    ZeroDivision,
    average,
    check_zero_division,
    exact_items,
    no_category,
    shown,
    undefined_value,
)

__all__ = [
    "SCALAR",
    "ConfusionSums",
    "ScalarScore",
    "accuracy",
    "balanced_accuracy",
    "check_beta",
    "cohen_kappa",
    "confusion_sums",
    "error",
    "f1",
    "f_beta",
    "informedness",
    "jaccard",
    "matthews_corrcoef",
    "mean_accuracy",
    "mean_error",
    "multiclass_matthews_corrcoef",
    "normalized_confusion",
    "precision",
    "recall",
    "samples_average",
    "specificity",
    "subset_accuracy",
    "subset_error",
    "weighted_cohen_kappa",
]

Floats = NDArray[np.float64]
#: A per-table score with its ``zero_division`` already checked: ``(a, b, c, d, mode) -> float``.
ScalarScore = Callable[..., float]
_NAN = float("nan")


def _share(x: Any, y: Any, mode: ZeroDivision, perl: float) -> float:
    """``x / (x + y)``; ``x`` and ``y`` are exact counts or floats.

    Where ``x + y == 0`` it is undefined: ``perl`` (the formula's own value) in
    Perl mode, else the mode's number (:func:`~contingency.formulas._numeric.undefined_value`).

    ``x + y`` is summed exactly when the counts are integers, then rounded once.

    In Perl mode the value is Statistics::Contingency's ``_invert``:
    ``1 / (1 + y / x)``, which is 1 when ``y == 0`` and 0 when ``x == 0 < y``.
    It differs from ``x / (x + y)`` in the last bit for some counts, and that
    bit can decide how a table rounds, so Perl mode keeps Perl's arithmetic:
    doubles, except that Perl divides two integers exactly when one divides
    the other and then adds 1 in integer arithmetic, which only past 2**53
    differs from doubles (Statistics::Contingency on a count of 2**53 + 1, say).

    Below 2**53 every count is a double, so Python's division of two ints
    (correctly rounded) is the division of the two doubles: the first branch
    serves that common case without a conversion.
    """
    total = x + y
    if type(total) is int and 0 < total < EXACT_FLOAT_BOUND:  # two exact counts (a float sum is no int)
        share: float = x / total if mode != "perl" else (
            1.0 / (1.0 + y / x) if x and y else (1.0 if y == 0 else 0.0))
        return share
    if total == 0:
        return undefined_value(mode, perl)
    if mode != "perl":
        return float(x) / float(x + y)
    if y == 0:
        return 1.0
    if x == 0:
        return 0.0
    if type(y) is int and type(x) is int and y >= EXACT_FLOAT_BOUND:
        quotient, remainder = divmod(y, x)
        if remainder == 0:
            return 1.0 / float(1 + quotient)
    return 1.0 / (1.0 + float(y) / float(x))


def _precision(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    return _share(a, b, mode, 0.0 if c > 0 else 1.0)


def _recall(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    return _share(a, c, mode, 1.0)


def _f1(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    return _share(2 * a, b + c, mode, 1.0)


def _f_beta(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision, beta: float) -> float:
    if beta == 1:  # exact integer x = 2a and y = b + c, as Perl computes them
        return _f1(a, b, c, d, mode)
    if math.isinf(beta):  # the limit: recall alone, as in scikit-learn
        return _recall(a, b, c, d, mode)
    beta2 = float(beta) ** 2
    return _share((1.0 + beta2) * float(a), beta2 * float(c) + float(b), mode, 1.0)


def _accuracy(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    total = a + b + c + d
    return float(a + d) / float(total) if total else undefined_value(mode, 1.0)


def _error(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    total = a + b + c + d
    return float(b + c) / float(total) if total else undefined_value(mode, 0.0)


def _jaccard(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    total = a + b + c
    if not total:  # nothing assigned, nothing correct: perfect agreement, as Perl's F1 says
        return undefined_value(mode, 1.0)
    return a / total if type(total) is int else float(a) / float(total)


def _matthews_corrcoef(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    if type(a) is int and type(b) is int and type(c) is int and type(d) is int:
        margins = (a + b) * (a + c) * (d + b) * (d + c)
        if margins == 0:
            return undefined_value(mode, 1.0 if b + c == 0 else 0.0)
        covariance = a * d - b * c
        # Exact integers at any size: covariance**2 <= margins (Cauchy-Schwarz), and int / int
        # rounds the exact quotient once, so the square is at most 1.0 and so is its
        # (correctly rounded) square root: the value stays in [-1, 1] by computation, within
        # about one unit in the last place of the exact one.
        size = math.sqrt(covariance * covariance / margins)
        return size if covariance >= 0 else -size
    fa, fb, fc, fd = float(a), float(b), float(c), float(d)
    # Float cells: the four margins are multiplied pairwise before the square root so that
    # no single product overflows before counts reach about 1e77.
    scale = math.sqrt((fa + fb) * (fa + fc)) * math.sqrt((fd + fb) * (fd + fc))
    if scale == 0:
        return undefined_value(mode, 1.0 if fb + fc == 0 else 0.0)
    # The roundings of the products can take |ratio| past 1 by a unit; the exact value is not.
    return max(-1.0, min(1.0, (fa * fd - fb * fc) / scale))


#: The scalar form of each per-table score, for callers that score one table at a time
#: with ``zero_division`` already checked (:func:`check_zero_division`): the running
#: sums of :mod:`contingency._category_sums` and the micro reads of the accumulator.
SCALAR: dict[str, ScalarScore] = {
    "precision": _precision,
    "recall": _recall,
    "f1": _f1,
    "accuracy": _accuracy,
    "error": _error,
    "matthews_corrcoef": _matthews_corrcoef,
    "jaccard": _jaccard,
}


def _integer(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (integers exact, bools as 0/1)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


# The same scores on whole columns of tables, for arrays of counts below 2**53 (or floats):
# each performs, table by table, the very operations of its scalar form above on the same
# doubles, so the two agree bit for bit (a test compares them on every kind of table).
# Below 2**53 a count is a double exactly, and Python's int / int (correctly rounded) is the
# division of the two doubles; an integer sum (x + y, a + b + c) is taken before the
# conversion, exactly, as the scalar forms take it.


def _shares(x: NDArray[Any], y: NDArray[Any], mode: ZeroDivision, perl: Any) -> Floats:
    """:func:`_share` of each pair of a column: ``x / (x + y)``, Perl's ``1 / (1 + y / x)``."""
    total = (x + y).astype(np.float64)
    fx, fy = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(all="ignore"):  # the undefined tables are replaced below
        if mode != "perl":
            share = fx / total
        else:
            share = np.where(fy == 0, 1.0, np.where(fx == 0, 0.0, 1.0 / (1.0 + fy / fx)))
    return np.where(total == 0, undefined_value(mode, perl), share)


def _ratios(x: NDArray[Any], total: NDArray[Any], undefined: float) -> Floats:
    """``x / total`` of each table, ``undefined`` where ``total`` is 0."""
    with np.errstate(all="ignore"):
        share = x.astype(np.float64) / total.astype(np.float64)
    return np.where(total == 0, undefined, share)


_VECTOR: dict[Callable[..., float], Callable[..., Floats]] = {
    _precision: lambda a, b, c, d, mode: _shares(a, b, mode, np.where(c > 0, 0.0, 1.0)),
    _recall: lambda a, b, c, d, mode: _shares(a, c, mode, 1.0),
    _f1: lambda a, b, c, d, mode: _shares(2 * a, b + c, mode, 1.0),
    _accuracy: lambda a, b, c, d, mode: _ratios(a + d, a + b + c + d, undefined_value(mode, 1.0)),
    _error: lambda a, b, c, d, mode: _ratios(b + c, a + b + c + d, undefined_value(mode, 0.0)),
    _jaccard: lambda a, b, c, d, mode: _ratios(a, a + b + c, undefined_value(mode, 1.0)),
}


def _vector_cells(cells: tuple[ArrayLike, ...]) -> tuple[NDArray[Any], ...] | None:
    """The cells as arrays the vector forms take (int64 counts whose sums stay below 2**53,
    or float64 where any cell is a float), or ``None`` for the table-by-table path."""
    if not all(isinstance(cell, np.ndarray) for cell in cells):
        return None
    arrays = np.broadcast_arrays(*cells)
    kinds = {array.dtype.kind for array in arrays}
    if not kinds <= {"i", "u", "b", "f"} or arrays[0].size == 0:
        return None
    integers = [array for array in arrays if array.dtype.kind != "f"]
    if integers:
        low = min(int(array.min()) for array in integers)
        high = sum(int(array.max()) for array in integers)
        if low < 0 or 2 * high >= EXACT_FLOAT_BOUND:  # f1 doubles a; the scalar path is exact
            return None
    if "f" in kinds:
        return tuple(array.astype(np.float64) for array in arrays)
    return tuple(array.astype(np.int64) for array in arrays)


def _elementwise(score: Callable[..., float], cells: tuple[ArrayLike, ...],
                 zero_division: ZeroDivision, *extra: Any) -> Floats:
    """``score`` of each table: the cells are scalars (a 0-d result) or arrays broadcast together.

    Integer cells are scored as exact Python integers, whatever their dtype;
    numpy arrays of counts below 2**53 (or of floats) are scored a column at
    a time by the score's vector form, which gives the same doubles.
    """
    mode = check_zero_division(zero_division)
    if all(isinstance(cell, (int, float, np.integer, np.floating)) for cell in cells):
        return np.asarray(score(*map(_integer, cells), mode, *extra), dtype=np.float64)
    vector = _VECTOR.get(score)
    if vector is not None and not extra:
        arrays = _vector_cells(cells)
        if arrays is not None:
            return np.asarray(vector(*arrays, mode), dtype=np.float64)
    flat = [cell for cell in cells if isinstance(cell, (list, tuple))
            and not any(isinstance(item, (list, tuple, np.ndarray)) for item in cell)]
    if len(flat) == len(cells) and len({len(cell) for cell in flat}) == 1:
        # Flat lists of counts as they are: numpy would turn counts past int64 into floats.
        return np.array([score(*table, mode, *extra) for table in zip(*flat)],
                        dtype=np.float64)
    arrays = np.broadcast_arrays(*(np.asarray(cell) for cell in cells))
    columns = [array.astype(np.int64).ravel().tolist() if array.dtype.kind == "b"
               else array.ravel().tolist() for array in arrays]
    values = [score(*table, mode, *extra) for table in zip(*columns)]
    return np.array(values, dtype=np.float64).reshape(arrays[0].shape)


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
    return _elementwise(_precision, (a, b, c, d), zero_division)


def recall(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
           zero_division: ZeroDivision = "perl") -> Floats:
    """Recall ``a / (a + c)``: the share of correct categories that were assigned.

    Undefined when nothing was correct (``a + c == 0``): 1 in Perl, else ``zero_division``.

    >>> float(recall(3, 1, 1, 5))
    0.75
    >>> float(recall(0, 4, 0, 5)), float(recall(0, 4, 0, 5, zero_division="nan"))
    (1.0, nan)
    """
    return _elementwise(_recall, (a, b, c, d), zero_division)


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


def informedness(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
                 zero_division: ZeroDivision = "perl") -> Floats:
    """Informedness (Youden's J): ``recall + specificity - 1``, in [-1, 1].

    The vertical distance of a threshold's point above the ROC curve's
    diagonal: 0 for a guess, 1 for a perfect split. On two classes it is
    scikit-learn's ``balanced_accuracy_score(adjusted=True)``. Its undefined
    cases are those of :func:`recall` and :func:`specificity` (no positive,
    no negative), decided by ``zero_division`` as theirs are.

    Reference: W. J. Youden, "Index for rating diagnostic tests", Cancer 3
    (1950) 32-35.

    >>> float(informedness(3, 1, 1, 3))
    0.5
    """
    return np.asarray(recall(a, b, c, d, zero_division=zero_division)
                      + specificity(a, b, c, d, zero_division=zero_division) - 1.0)


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
    if not (type(beta) is int and 0 <= beta < 1 << 26):  # (a small int: kept as given)
        beta = check_beta(beta)
    return _elementwise(_f_beta, (a, b, c, d), zero_division, beta)


def check_beta(beta: object, where: str | None = None) -> float:
    """``beta`` as a float if it is a real number >= 0 (infinity included; a numpy number too, and
    an integer past float64's range as infinity), else ``ValueError`` naming it and the call
    ``where`` (an array, a bool and NaN are refused).

    >>> check_beta(np.int64(2)), check_beta(10**400)
    (2.0, inf)
    >>> check_beta(np.array([2.0]))
    Traceback (most recent call last):
    ...
    ValueError: beta must be a number >= 0, not array([2.])
    >>> check_beta(-1, "f_beta")
    Traceback (most recent call last):
    ...
    ValueError: f_beta: beta must be a number >= 0, not -1
    """
    value = real_number(beta)
    if value is None or not value >= 0:
        raise ValueError(f"{call_prefix(where)}beta must be a number >= 0, not {shown(beta)}")
    return value


def f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
       zero_division: ZeroDivision = "perl") -> Floats:
    """F1 ``2a / (2a + b + c)``, the harmonic mean of precision and recall: :func:`f_beta` with β = 1.

    >>> float(f1(1, 1, 0, 0))
    0.6666666666666666
    """
    return _elementwise(_f1, (a, b, c, d), zero_division)


def accuracy(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
             zero_division: ZeroDivision = "perl") -> Floats:
    """Accuracy ``(a + d) / (a + b + c + d)``: the share of decisions that were right.

    An empty table has accuracy 1 in Perl, else ``zero_division``.

    >>> float(accuracy(1, 1, 0, 2)), float(accuracy(0, 0, 0, 0))
    (0.75, 1.0)
    """
    return _elementwise(_accuracy, (a, b, c, d), zero_division)


def error(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
          zero_division: ZeroDivision = "perl") -> Floats:
    """Error ``(b + c) / (a + b + c + d)``: the share of decisions that were wrong.

    An empty table has error 0 in Perl, else ``zero_division``.

    >>> float(error(1, 1, 0, 2)), float(error(0, 0, 0, 0))
    (0.25, 0.0)
    """
    return _elementwise(_error, (a, b, c, d), zero_division)


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
    return _elementwise(_matthews_corrcoef, (a, b, c, d), zero_division)


def jaccard(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
            zero_division: ZeroDivision = "perl") -> Floats:
    """Jaccard index ``a / (a + b + c)``: the overlap of the assigned and the correct sets.

    It is scikit-learn's ``jaccard_score`` of one table, and ``F1 / (2 - F1)``.
    Undefined when nothing was assigned and nothing was correct
    (``a + b + c == 0``): 1 in Perl mode (as Perl's F1 of such a table),
    else ``zero_division`` (scikit-learn's rule).

    >>> float(jaccard(2, 1, 1, 6)), float(jaccard(0, 0, 0, 6))
    (0.5, 1.0)
    """
    return _elementwise(_jaccard, (a, b, c, d), zero_division)


def mean_accuracy(n_results: int, n_categories: int, wrong: int, *,
                  zero_division: ZeroDivision = "perl") -> float:
    """The mean over ``n_categories`` tables of :func:`accuracy`, from pooled counts only.

    Every category's table holds the same ``n_results`` decisions, so its
    accuracy is ``(n - b - c) / n`` and the mean is ``(K n - B - C) / (K n)``
    with ``wrong = B + C`` summed over categories: exact, rounded once, and
    read in constant time however many categories there are. With no result
    every table is empty (Perl: accuracy 1). With no category it is undefined:
    Perl's ``ValueError``, or ``zero_division``'s number (:func:`no_category`).

    >>> mean_accuracy(4, 2, 3)   # tables (a + d) / n of 3/4 and 2/4
    0.625
    """
    if n_categories == 0:
        return no_category(check_zero_division(zero_division))
    if n_results == 0:
        return undefined_value(check_zero_division(zero_division), 1.0)
    total = n_results * n_categories
    return (total - wrong) / total


def mean_error(n_results: int, n_categories: int, wrong: int, *,
               zero_division: ZeroDivision = "perl") -> float:
    """The mean over ``n_categories`` tables of :func:`error`: ``(B + C) / (K n)``.

    See :func:`mean_accuracy`.

    >>> mean_error(4, 2, 3)
    0.375
    """
    if n_categories == 0:
        return no_category(check_zero_division(zero_division))
    if n_results == 0:
        return undefined_value(check_zero_division(zero_division), 0.0)
    return wrong / (n_results * n_categories)


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
    shapes = _shapes(both, assigned, correct)
    values = score([x for x, _, _ in shapes], [y - x for x, y, _ in shapes],
                   [z - x for x, _, z in shapes], [0] * len(shapes), zero_division=zero_division)
    empty = float(score(0, 0, 0, 0, zero_division=zero_division))
    return average(values, exact_items(counts), empty=empty)


def _shapes(*columns: ArrayLike) -> list[tuple[Any, ...]]:
    """Rows of equal-length integer columns as tuples of Python ints."""
    return list(zip(*(exact_items(column) for column in columns)))


def subset_accuracy(both: ArrayLike, assigned: ArrayLike, correct: ArrayLike,
                    counts: ArrayLike, *, zero_division: ZeroDivision = "perl") -> float:
    """The share of results whose assigned set equals the correct set (exact match).

    A result is exact when ``both == assigned == correct``. With no result at
    all it is :func:`accuracy` of an empty table (Perl: 1).

    >>> subset_accuracy([1, 1, 0], [1, 2, 0], [1, 1, 0], [3, 1, 1])
    0.8
    """
    right, wrong = _exact_matches(both, assigned, correct, counts)
    return _accuracy(right, wrong, 0, 0, check_zero_division(zero_division))


def subset_error(both: ArrayLike, assigned: ArrayLike, correct: ArrayLike,
                 counts: ArrayLike, *, zero_division: ZeroDivision = "perl") -> float:
    """The share of results whose assigned set is not the correct set: ``1 -`` :func:`subset_accuracy`.

    On single-label results this is scikit-learn's ``hamming_loss`` of two
    1-d label arrays (and ``1 - accuracy_score``): the share of wrong
    results. With no result at all it is :func:`error` of an empty table
    (Perl: 0).

    >>> subset_error([1, 1, 0], [1, 2, 0], [1, 1, 0], [3, 1, 1])
    0.2
    """
    right, wrong = _exact_matches(both, assigned, correct, counts)
    return _error(right, wrong, 0, 0, check_zero_division(zero_division))


def _exact_matches(both: ArrayLike, assigned: ArrayLike, correct: ArrayLike,
                   counts: ArrayLike) -> tuple[int, int]:
    """How many results were exact (``both == assigned == correct``) and how many were not."""
    right = wrong = 0
    for x, y, z, count in _shapes(both, assigned, correct, counts):
        if x == y == z:
            right += count
        else:
            wrong += count
    return right, wrong


# Scores of a K x K confusion matrix of single-label results -----------------------------
#
# C[i, j] counts the results whose correct category is i and whose assigned one is j.
# With t_k = sum_j C[k, j] (results whose correct category is k) and p_k = sum_i C[i, k]
# (results assigned k), every score below is a function of five sums, which the
# accumulator keeps exact and up to date in O(categories changed): n = sum t_k, the
# diagonal sum_k C[k, k], and sum_k t_k p_k, sum_k t_k**2, sum_k p_k**2.


class ConfusionSums(NamedTuple):
    """The sums over a confusion matrix that Cohen's kappa and the multiclass MCC need."""

    n: int  # results: the sum of the matrix
    correct: int  # the diagonal's sum: results whose assigned category is the correct one
    products: int  # sum over categories of (results correct there) x (results assigned there)
    truth_squares: int  # sum over categories of (results correct there) ** 2
    assigned_squares: int  # sum over categories of (results assigned there) ** 2


def confusion_sums(confusion: ArrayLike) -> ConfusionSums:
    """The :class:`ConfusionSums` of a K x K matrix (rows the correct category), exactly.

    Integer entries give Python integers; float entries (weighted counts) give
    exact fractions, which every score below takes as well.

    >>> confusion_sums([[2, 1], [0, 3]])
    ConfusionSums(n=6, correct=5, products=18, truth_squares=18, assigned_squares=20)
    """
    matrix = np.asarray(confusion)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"a confusion matrix must be square, not of shape {matrix.shape}")
    rows = [[_exact(value) for value in row] for row in matrix.tolist()]
    truth = [sum(row) for row in rows]
    assigned = [sum(column) for column in zip(*rows)]
    return ConfusionSums(sum(truth), sum(row[k] for k, row in enumerate(rows)),
                         sum(t * p for t, p in zip(truth, assigned)),
                         sum(t * t for t in truth), sum(p * p for p in assigned))


def _exact(value: Any) -> Any:
    """An int, or any other real number as the exact fraction it holds (a float is dyadic)."""
    value = _integer(value)
    return value if type(value) is int else Fraction(value)


def _quotient(numerator: Any, denominator: Any) -> float:
    """``numerator / denominator`` of exact numbers, correctly rounded once."""
    if type(numerator) is int and type(denominator) is int:
        return numerator / denominator  # Python divides two ints with one rounding
    return float(Fraction(numerator) / denominator)


def cohen_kappa(sums: ConfusionSums, *, zero_division: ZeroDivision = "perl") -> float:
    """Cohen's kappa: the agreement of correct and assigned categories beyond chance.

    ``kappa = (p_o - p_e) / (1 - p_e)`` with the observed agreement ``p_o =
    correct / n`` and the chance agreement ``p_e = sum_k t_k p_k / n**2``,
    computed as ``(n correct - sum t p) / (n**2 - sum t p)`` in exact
    arithmetic and rounded once, so it stays in [-1, 1]. It is
    ``sklearn.metrics.cohen_kappa_score`` (unweighted) on the same results.

    Undefined when ``p_e == 1``: no result, or every result has one and the
    same category on both sides. scikit-learn then returns its
    ``replace_undefined_by`` (NaN by default), which ``zero_division="nan"``
    reproduces; Perl mode gives 1 (every decision agreed).

    Reference: J. Cohen, "A coefficient of agreement for nominal scales",
    Educational and Psychological Measurement 20 (1960) 37-46.

    >>> cohen_kappa(confusion_sums([[2, 1], [0, 3]]))
    0.6666666666666666
    >>> cohen_kappa(confusion_sums([[4, 0], [0, 0]])), cohen_kappa(confusion_sums([[4]]), zero_division="nan")
    (1.0, nan)
    """
    mode = check_zero_division(zero_division)
    n, correct, products = (_exact(value) for value in sums[:3])
    # Disagreement weights 1 off the diagonal: observed n (n - correct), by chance n**2 - sum t p.
    return _kappa(n * (n - correct), n * n - products, mode)


def _kappa(observed: Any, expected: Any, mode: ZeroDivision) -> float:
    """Cohen's kappa ``1 - observed / expected`` from exact disagreements, rounded once.

    ``observed`` is ``n sum_ij w_ij C[i, j]`` and ``expected`` is ``sum_ij w_ij
    t_i p_j`` (``n`` times the disagreement expected by chance): the one place
    the formula is written, for every weighting. Undefined when ``expected``
    is 0 (no result, or one category on both sides throughout): 1 in Perl
    mode (every decision agreed), else ``zero_division``.
    """
    if expected == 0:
        return undefined_value(mode, 1.0)
    return _quotient(expected - observed, expected)


#: The disagreement weights of :func:`weighted_cohen_kappa`: ``None`` (1 off the diagonal),
#: ``"linear"`` (``|i - j|``) or ``"quadratic"`` (``(i - j)**2``).
KappaWeights = Literal["linear", "quadratic"] | None
_KAPPA_WEIGHTS = (None, "linear", "quadratic")


def _cells(rows: ArrayLike, columns: ArrayLike, counts: ArrayLike,
           size: int) -> list[tuple[int, int, Any]]:
    """The non-empty cells of a ``size`` x ``size`` matrix as ``(row, column, exact count)``, checked."""
    row_items, column_items, count_items = (exact_items(rows), exact_items(columns),
                                            exact_items(counts))
    if not len(row_items) == len(column_items) == len(count_items):
        raise ValueError("rows, columns and counts must have one entry per cell each")
    cells = [(row, column, _exact(count))
             for row, column, count in zip(row_items, column_items, count_items)]
    for row, column, count in cells:
        if not (0 <= row < size and 0 <= column < size) or count < 0:
            raise ValueError(f"cell ({row}, {column}) with count {count} does not fit a "
                             f"{size} x {size} matrix of counts")
    return cells


def normalized_confusion(rows: ArrayLike, columns: ArrayLike, counts: ArrayLike, size: int,
                         normalize: Literal["true", "pred", "all"]) -> Floats:
    """A confusion matrix divided by its row sums, column sums or total, as float64.

    The ``size`` x ``size`` matrix (rows the correct category, columns the
    assigned one) is given by its non-empty cells: ``counts[k]`` results in row
    ``rows[k]`` and column ``columns[k]``. ``normalize="true"`` divides each
    entry by its row's sum (each row then holds the recalls, summing to 1),
    ``"pred"`` by its column's sum (the precisions), ``"all"`` by the total:
    scikit-learn's ``confusion_matrix(..., normalize=...)``. Each entry is the
    exact quotient of two exact sums, rounded once. A row (or column) with no
    result stays 0, as scikit-learn's ``nan_to_num`` of its ``0 / 0`` makes
    it: no division by zero takes place, since a non-empty cell makes its row,
    column and total non-zero. Costs O(cells) plus the dense result.

    >>> normalized_confusion([0, 0, 1], [0, 1, 1], [3, 1, 2], 3, "true").tolist()
    [[0.75, 0.25, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    >>> normalized_confusion([0, 0, 1], [0, 1, 1], [3, 1, 2], 2, "pred").tolist()
    [[1.0, 0.3333333333333333], [0.0, 0.6666666666666666]]
    """
    normalize = check_choice(normalize, "normalize", ("true", "pred", "all"),  # type: ignore[assignment]
                             "normalized_confusion")
    cells = _cells(rows, columns, counts, size)

    def total_of(row: int, column: int) -> int:  # which total divides the cell
        return row if normalize == "true" else column if normalize == "pred" else 0

    totals: dict[int, Any] = {}
    for row, column, count in cells:
        key = total_of(row, column)
        totals[key] = totals.get(key, 0) + count
    matrix = np.zeros((size, size), dtype=np.float64)
    for row, column, count in cells:
        if count:
            matrix[row, column] = _quotient(count, totals[total_of(row, column)])
    return matrix


def weighted_cohen_kappa(rows: ArrayLike, columns: ArrayLike, counts: ArrayLike, size: int, *,
                         weights: KappaWeights = "linear",
                         zero_division: ZeroDivision = "perl") -> float:
    """Cohen's kappa of a confusion matrix with disagreement weights, from its non-empty cells.

    ``kappa = 1 - sum_ij w_ij C[i, j] / sum_ij w_ij E[i, j]``, with the
    matrix ``C`` given as in :func:`normalized_confusion`, the counts expected
    by chance ``E[i, j] = t_i p_j / n`` (``t`` the row sums, ``p`` the column
    sums, ``n`` the total) and the weights ``w_ij = |i - j|`` (``"linear"``),
    ``(i - j)**2`` (``"quadratic"``) or 1 off the diagonal (``None``: plain
    kappa, :func:`cohen_kappa`), positions counted in the matrix's order:
    scikit-learn's ``cohen_kappa_score(..., weights=...)``. Computed as
    ``(S - n D) / S`` with ``D = sum w C`` over the cells and ``S = sum_ij
    w_ij t_i p_j``, which prefix sums of ``p`` give in O(size), in exact
    arithmetic and rounded once: O(cells + size) in all.

    Undefined when ``S == 0`` (no result, or one category on both sides
    throughout): scikit-learn's ``replace_undefined_by``, which
    ``zero_division`` gives; Perl mode 1 (every decision agreed).

    References: J. Cohen, "Weighted kappa: nominal scale agreement with
    provision for scaled disagreement or partial credit", Psychological
    Bulletin 70 (1968) 213-220; J. L. Fleiss and J. Cohen, "The equivalence
    of weighted kappa and the intraclass correlation coefficient as measures
    of reliability", Educational and Psychological Measurement 33 (1973)
    613-619 (the quadratic weights).

    >>> cells = ([0, 0, 1, 2], [0, 1, 1, 0], [2, 1, 3, 1])  # rows, columns, counts
    >>> weighted_cohen_kappa(*cells, 3, weights="linear")  # exactly 10 / 31, rounded once
    0.3225806451612903
    >>> weighted_cohen_kappa(*cells, 3, weights=None) == cohen_kappa(
    ...     confusion_sums([[2, 1, 0], [0, 3, 0], [1, 0, 0]]))
    True
    """
    weights = check_choice(weights, "weights", _KAPPA_WEIGHTS,  # type: ignore[assignment]
                           "weighted_cohen_kappa")
    mode = check_zero_division(zero_division)
    truth: list[Any] = [0] * size
    assigned: list[Any] = [0] * size
    disagreement: Any = 0
    for row, column, count in _cells(rows, columns, counts, size):
        truth[row] += count
        assigned[column] += count
        if row != column:
            gap = abs(row - column)
            disagreement += count * (1 if weights is None else gap if weights == "linear"
                                     else gap * gap)
    return _kappa(sum(truth) * disagreement, _chance_disagreement(truth, assigned, weights),
                  mode)


def _chance_disagreement(truth: list[Any], assigned: list[Any], weights: KappaWeights) -> Any:
    """``sum_ij w_ij t_i p_j`` exactly, in O(size) (see :func:`weighted_cohen_kappa`)."""
    total = sum(assigned)
    if weights is None:  # w = 1 - [i == j]
        return sum(truth) * total - sum(t * p for t, p in zip(truth, assigned))
    moment = sum(j * p for j, p in enumerate(assigned))
    if weights == "quadratic":  # sum_j (i - j)**2 p_j = i**2 P0 - 2 i P1 + P2
        square = sum(j * j * p for j, p in enumerate(assigned))
        return sum(t * (i * i * total - 2 * i * moment + square)
                   for i, t in enumerate(truth) if t)
    # Linear: sum_j |i - j| p_j = i (P below - P above) - (moment below - moment above),
    # "below" summing over j < i and "above" over j > i.
    result: Any = 0
    below: Any = 0
    below_moment: Any = 0
    for i, (t, p) in enumerate(zip(truth, assigned)):
        if t:
            above, above_moment = total - below - p, moment - below_moment - i * p
            result += t * (i * (below - above) - below_moment + above_moment)
        below += p
        below_moment += i * p
    return result


def multiclass_matthews_corrcoef(sums: ConfusionSums, *,
                                 zero_division: ZeroDivision = "perl") -> float:
    """The multiclass Matthews correlation (Gorodkin's R_K) of a confusion matrix, in [-1, 1].

    ``R_K = cov(t, p) / sqrt(cov(t, t) cov(p, p))`` with ``cov(t, p) = n correct
    - sum_k t_k p_k``, ``cov(t, t) = n**2 - sum_k t_k**2`` and ``cov(p, p) =
    n**2 - sum_k p_k**2``: scikit-learn's ``matthews_corrcoef`` of multiclass
    labels. With two categories it is the Matthews correlation of the 2 x 2
    table. Its square is computed as one exact ratio, rounded once (so it
    cannot exceed 1), and the square root taken with the sign of ``cov(t, p)``.

    Undefined when ``cov(t, t) cov(p, p) == 0`` (all results correct in one
    category, or all assigned to one): scikit-learn returns 0, which
    ``zero_division=0.0`` reproduces; Perl mode follows
    :func:`matthews_corrcoef`: 1 when every result is right, else 0.

    Reference: J. Gorodkin, "Comparing two K-category assignments by a
    K-category correlation coefficient", Computational Biology and Chemistry
    28 (2004) 367-374.

    >>> truth, assigned = [0, 0, 1, 1, 2, 2], [1, 1, 0, 0, 0, 0]
    >>> matrix = np.zeros((3, 3), dtype=int)
    >>> np.add.at(matrix, (truth, assigned), 1)
    >>> round(multiclass_matthews_corrcoef(confusion_sums(matrix)), 4)
    -0.6124
    """
    mode = check_zero_division(zero_division)
    n, correct, products, truth_squares, assigned_squares = (_exact(value) for value in sums)
    covariance = n * correct - products
    spread = (n * n - truth_squares) * (n * n - assigned_squares)
    if spread == 0:
        return undefined_value(mode, 1.0 if correct == n else 0.0)
    # covariance**2 <= spread (Cauchy-Schwarz), and a correctly rounded ratio of two
    # exact numbers whose quotient is at most 1 is at most 1.0: no clamp needed.
    root = math.sqrt(_quotient(covariance * covariance, spread))
    return root if covariance >= 0 else -root


def balanced_accuracy(recall_mean: float | Fraction, classes: int, *, adjusted: bool = False,
                      zero_division: ZeroDivision = "perl",
                      recalls: Callable[[], Iterable[tuple[int, int]]] | None = None) -> float:
    """Balanced accuracy: the mean recall of the ``classes`` categories that are correct somewhere.

    ``recall_mean`` is the mean over those categories of ``C[k, k] / t_k``
    (categories no result has as correct are left out, as scikit-learn's
    ``balanced_accuracy_score`` leaves them out). With ``adjusted=True`` it is
    rescaled so that chance scores 0 and perfect 1: ``(mean - 1/K) / (1 - 1/K)``
    with ``K = classes``, computed as ``(S - 1) / (K - 1)`` from the sum of the
    recalls ``S = K mean``, exactly, and rounded once.

    Near chance that difference cancels: an error of one part in ``2**53`` in
    the recalls becomes a large relative error of the adjusted score (it was
    0.0 where the exact value is 3.3e-18). ``recalls``, if given, is a
    function returning the pairs ``(C[k, k], t_k)`` of the ``classes``
    categories (exact counts, in any common unit); when ``recall_mean`` is
    the mean of the recalls each rounded to a float (as an accumulator's
    running sums give it) and ``S`` is within ``2**-9 S`` of 1, where that
    rounding could cost the adjusted score more than ``1e-12`` of its value,
    ``S`` is summed again from the pairs in exact fractions. So the adjusted
    score is within ``1e-12`` relative of the exact value, and exactly 0.0 at
    chance. Without ``recalls``, ``recall_mean`` is taken as exact.

    Undefined with no result (``classes == 0``) and, adjusted, with one
    class (scikit-learn then gives NaN or -inf with a warning): Perl mode
    gives 1 when every result is right (the mean recall is 1), else 0; other
    modes ``zero_division``.

    Reference: K. H. Brodersen et al., "The balanced accuracy and its
    posterior distribution", ICPR 2010; scikit-learn's user guide.

    >>> balanced_accuracy(0.75, 2), balanced_accuracy(0.75, 2, adjusted=True)
    (0.75, 0.5)
    >>> balanced_accuracy(0.5, 1, adjusted=True, zero_division="nan")
    nan
    >>> pairs = [(1, 7), (2, 7), (4, 7)]  # recalls summing to 1: chance
    >>> mean = sum(hits / support for hits, support in pairs) / 3
    >>> balanced_accuracy(mean, 3, adjusted=True)  # the float mean is not exactly 1/3
    -2.7755575615628914e-17
    >>> balanced_accuracy(mean, 3, adjusted=True, recalls=lambda: pairs)
    0.0
    """
    mode = check_zero_division(zero_division)
    if classes == 0 or (adjusted and classes == 1):
        return undefined_value(mode, 1.0 if classes == 0 or recall_mean == 1 else 0.0)
    if not adjusted:
        return float(recall_mean)
    total = Fraction(recall_mean) * classes
    # Each recall rounded to a float (at most three roundings past 2**53) and their mean
    # rounded put total within 2**-50 total of the exact sum; outside this band around 1 that
    # is within 2**-41 of total - 1, and the quotient rounded once stays within 1e-12.
    if recalls is not None and abs(total - 1) < total * _CHANCE_BAND:
        total = sum((Fraction(hits, support) for hits, support in recalls()), Fraction(0))
    return float((total - 1) / (classes - 1))


#: Where an adjusted balanced accuracy is computed from exact fractions: the sum of the
#: recalls within this share of itself from 1 (see :func:`balanced_accuracy`).
_CHANCE_BAND = Fraction(1, 2**9)
