"""Scores of a scored binary stream as pure functions of its counts by score: curves, AUC, calibration.

Glossary. Every function takes the counts of a binary scored stream
aggregated by distinct score (or, in binned mode, by bin):

``thresholds``
    1-d float64, the distinct scores (each bin's lower edge in binned mode),
    strictly DECREASING;
``positives``, ``negatives``
    1-d arrays of the same length: the weight of positive (negative) results
    at each threshold; int64 exact counts, or float64 where weights are
    fractional (if either column is float, both are taken as float64).
    Integer counts hold at most ``2**63 - 1`` results in all (``MAX_COUNT``,
    as every accumulator); they are computed on exactly (Python integers
    where a product could pass int64) and rounded once, except where a
    function's docstring says otherwise; float weights in float64.

A result with score ``>= t`` is predicted positive at threshold ``t``: at the
``k``-th threshold the 2 x 2 table of :mod:`contingency.formulas.classification`
has ``a = tp = cumsum(positives)[k]``, ``b = fp = cumsum(negatives)[k]``,
``c = fn = P - tp``, ``d = tn = N - fp``, with ``P`` and ``N`` the totals
(scikit-learn's ``_binary_clf_curve``, after grouping by score). A threshold
whose positives and negatives are both 0 is left out, as scikit-learn leaves
out results of weight 0.

Undefined cases, decided once. A score that needs both classes (the AUC, the
ROC curve's rates), two of each (the AUC's variance) or positives (average
precision and its binned bounds) and finds none is undefined:
``zero_division`` (:mod:`contingency.formulas._numeric`) says what it is:
``"perl"`` (the library's default) raises ``ValueError`` naming the absent
class, since Statistics::Contingency has no such score; ``0.0``, ``1.0`` or
``"nan"`` return that number (scikit-learn warns and gives NaN for the AUC and
the ROC curve's rates, 0 for average precision). Where scikit-learn decides
otherwise we follow it: :func:`det_curve` raises with one class, and
:func:`precision_recall_curve` gives recall 1 without positives. The Brier
score, log loss and calibration are defined with one class. No result at all
(no threshold of non-zero weight) is a ``ValueError`` for every function but
:func:`counts_at` and :func:`roc_auc_bound` (a table of zeros, a bound of 0),
as scikit-learn refuses empty input.

Ties follow scikit-learn: a tied positive-negative pair counts half in the
AUC, and tied results share one point of every curve.

References: T. Fawcett, "An introduction to ROC analysis", Pattern
Recognition Letters 27 (2006) 861-874; D. K. McClish, "Analyzing a portion of
the ROC curve", Medical Decision Making 9 (1989) 190-195; E. R. DeLong,
D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas under two or more
correlated receiver operating characteristic curves: a nonparametric
approach", Biometrics 44 (1988) 837-845; J. A. Hanley and B. J. McNeil, "The
meaning and use of the area under a receiver operating characteristic (ROC)
curve", Radiology 143 (1982) 29-36; G. W. Brier, Monthly Weather Review 78
(1950) 1-3; M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining well
calibrated probabilities using Bayesian binning", AAAI 2015 (the expected
calibration error); K. Boyd, K. H. Eng and C. D. Page, "Area under the
precision-recall curve: point estimates and confidence intervals", ECML PKDD
2013, LNCS 8190, 451-466 (the logit interval of average precision).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._arguments import call_prefix, check_choice, check_flag, real_number
from contingency.formulas._numeric import (
    INT64_MAX,
    MAX_COUNT,
    ZeroDivision,
    _exact_products,
    check_zero_division,
    shown,
    undefined_value,
)
from contingency.formulas.intervals import Interval, check_level, normal_bounds, normal_quantile

__all__ = [
    "AUC_VARIANCE_METHODS",
    "CALIBRATION_NORMS",
    "CALIBRATION_STRATEGIES",
    "LOG_LOSS_EPS",
    "MAX_BINS",
    "auc_bound_from_shared_pairs",
    "auc_from_mann_whitney",
    "average_precision",
    "average_precision_bounds",
    "average_precision_interval",
    "brier_loss",
    "brier_score",
    "brier_terms",
    "calibration_curve",
    "calibration_error",
    "calibration_gap",
    "check_bin_count",
    "check_choice",
    "check_flag",
    "check_max_fpr",
    "check_threshold",
    "counts_at",
    "det_curve",
    "log_loss",
    "log_loss_eps",
    "log_loss_of",
    "log_loss_terms",
    "mann_whitney",
    "mean_of_terms",
    "precision_recall_curve",
    "roc_auc",
    "roc_auc_bound",
    "roc_auc_interval",
    "roc_auc_variance",
    "roc_curve",
    "thresholds_above",
]

Floats = NDArray[np.float64]

#: The methods of :func:`roc_auc_variance` and :func:`roc_auc_interval`.
AUC_VARIANCE_METHODS = ("delong", "hanley_mcneil")
#: The norms of :func:`calibration_error`.
CALIBRATION_NORMS = ("l1", "l2", "max")
#: The strategies of :func:`calibration_curve`.
CALIBRATION_STRATEGIES = ("uniform", "quantile")
#: The most bins a number of bins may ask for: far past any calibration's use (its edges alone
#: take 32 GiB), and short of the sizes numpy refuses with messages of its own.
MAX_BINS = 2**32


# Checking the options -----------------------------------------------------------------------


def check_bin_count(n_bins: object, where: str, edges: bool = False) -> int:
    """``n_bins`` as an ``int`` if it is an integer (Python's or numpy's, not a bool) from 1 to
    :data:`MAX_BINS`, else ``ValueError`` naming it and the call ``where`` (``edges``: the message
    says an array of edges is taken too).

    >>> check_bin_count(np.int64(10), "calibration_curve")
    10
    >>> check_bin_count(True, "calibration_curve")
    Traceback (most recent call last):
    ...
    ValueError: calibration_curve: n_bins must be a positive integer (at most 2**32), not True
    """
    if (isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, (int, np.integer))
            or not 1 <= n_bins <= MAX_BINS):
        other = " or a strictly increasing array of at least two finite edges" if edges else ""
        raise ValueError(f"{where}: n_bins must be a positive integer (at most 2**32){other}, "
                         f"not {shown(n_bins)}")
    return int(n_bins)


# Checking the counts ------------------------------------------------------------------------


def _weights(values: ArrayLike, name: str) -> NDArray[Any]:
    """``values`` as a 1-d int64 or float64 array of non-negative finite weights, else ``ValueError``."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of weights, not of shape {array.shape}")
    if array.dtype == bool or (array.dtype.kind not in "iuf" and array.size):
        raise ValueError(f"{name} must hold numbers (counts or weights), not {array.dtype}")
    if array.dtype.kind in "iu" or not array.size:
        if array.dtype.kind == "u" and array.size and int(array.max()) > INT64_MAX:
            raise ValueError(f"{name} holds a count past 2**63 - 1")
        array = array.astype(np.int64, copy=False)
    else:
        array = array.astype(np.float64, copy=False)
        if not np.isfinite(array).all():
            raise ValueError(f"{name} must be finite, not {shown(array[~np.isfinite(array)][0])}")
    if array.size and array.min() < 0:
        raise ValueError(f"{name} must be non-negative, not {shown(array.min().item())}")
    return array


def _pair(positives: ArrayLike, negatives: ArrayLike) -> tuple[NDArray[Any], NDArray[Any]]:
    """The two weight columns, checked, of one length and dtype (float64 if either is), zero rows left out."""
    pos, neg = _weights(positives, "positives"), _weights(negatives, "negatives")
    if pos.shape != neg.shape:
        raise ValueError(f"positives and negatives must have the same length, not {pos.size} and "
                         f"{neg.size}")
    pos, neg, kept = _kept(pos, neg)
    return (pos, neg) if kept is None else (pos[kept], neg[kept])


def _kept(pos: NDArray[Any], neg: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], Any]:
    """Both columns in one dtype (float64 if either is), and the rows to keep, those of non-zero
    weight (as scikit-learn leaves out results of weight 0; ``None``: every row). Integer counts
    must hold at most :data:`MAX_COUNT` results in all, so every running sum stays in int64."""
    if pos.dtype != neg.dtype:
        pos, neg = pos.astype(np.float64), neg.astype(np.float64)
    elif pos.dtype.kind == "i":
        total = _total(pos) + _total(neg)
        if total > MAX_COUNT:
            raise ValueError(f"positives and negatives hold {shown(total)} results; at most "
                             "2**63 - 1 are supported")
    kept = (pos != 0) | (neg != 0)
    return pos, neg, (None if kept.all() else kept)


def _counts(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike
            ) -> tuple[Floats, NDArray[Any], NDArray[Any]]:
    """Thresholds (strictly decreasing, finite) and weights, checked, zero rows left out."""
    thr = np.asarray(thresholds, dtype=np.float64)
    pos, neg = _weights(positives, "positives"), _weights(negatives, "negatives")
    if thr.ndim != 1 or thr.shape != pos.shape or pos.shape != neg.shape:
        raise ValueError("thresholds, positives and negatives must be 1-d arrays of one length, "
                         f"not of shapes {thr.shape}, {pos.shape}, {neg.shape}")
    if not np.isfinite(thr).all():
        raise ValueError(f"thresholds must be finite, not {shown(thr[~np.isfinite(thr)][0].item())}")
    if thr.size > 1 and not (np.diff(thr) < 0).all():
        raise ValueError("thresholds must be strictly decreasing (the distinct scores, highest first)")
    pos, neg, kept = _kept(pos, neg)
    return (thr, pos, neg) if kept is None else (thr[kept], pos[kept], neg[kept])


def _nonempty(pos: NDArray[Any], what: str) -> None:
    if not pos.size:
        raise ValueError(f"{what} needs at least one result of non-zero weight")


def _undefined(zero_division: ZeroDivision, what: str, absent: str) -> float:
    """The value of a score undefined for want of ``absent`` results: Perl mode raises."""
    mode = check_zero_division(zero_division)
    if mode == "perl":
        raise ValueError(f"{what} is undefined: no {absent} result (pass zero_division=0.0, 1.0 "
                         "or 'nan' for a number)")
    return undefined_value(mode, math.nan)


def _total(values: NDArray[Any]) -> int | float:
    """The exact sum of integer counts (a Python int), or the float sum of weights."""
    if values.dtype.kind == "i":
        if not values.size:
            return 0
        if int(values.max()) * values.size <= INT64_MAX:  # no partial sum passes int64
            return int(values.sum())
        if values.size < 2**31:  # two int64 sums of 32-bit halves, neither past 2**63: exact
            return (int((values >> 32).sum()) << 32) + int((values & 0xFFFFFFFF).sum())
        return int(values.sum(dtype=object))
    return math.fsum(values)


def _exact(values: NDArray[Any], bound: int) -> NDArray[Any]:
    """Integer ``values`` in int64 if each result of the caller (at most ``bound``) fits, else Python ints."""
    return values if bound <= INT64_MAX else values.astype(object)


def _rates(cumulative: NDArray[Any], total: int | float) -> Floats:
    """``cumulative / total`` as float64, each a correctly rounded quotient for integer counts."""
    if cumulative.dtype.kind == "i" and total >= 2**53:
        whole = int(total)  # past 2**53 (rare): Python's int / int, correctly rounded, one at a time
        return np.array([int(x) / whole for x in cumulative.tolist()], dtype=np.float64)
    return cumulative.astype(np.float64) / float(total)


def _first_last_changes(tps: NDArray[Any]) -> NDArray[np.intp]:
    """scikit-learn's indices kept where the true positives change before or after a point."""
    changes = np.concatenate([[True], (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), [True]])
    return np.flatnonzero(changes)


# Curves -------------------------------------------------------------------------------------


def roc_curve(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
              drop_intermediate: bool = True, zero_division: ZeroDivision = "perl"
              ) -> tuple[Floats, Floats, Floats]:
    """The ROC curve ``(fpr, tpr, thresholds)``, as scikit-learn's ``roc_curve``.

    ``fpr = fp / N`` and ``tpr = tp / P`` at each threshold (results with
    score ``>= t`` predicted positive), preceded by the point ``(0, 0)`` at
    threshold ``inf`` (scikit-learn >= 1.3). ``drop_intermediate`` leaves out
    the points collinear with their neighbours where neither ``fp`` nor ``tp``
    bends (scikit-learn's second difference test: the area is unchanged).
    With no negative (positive) result the false (true) positive rates are
    undefined: ``zero_division`` (see the module's docstring; scikit-learn's
    NaN is ``zero_division="nan"``).

    Reference: T. Fawcett, Pattern Recognition Letters 27 (2006) 861-874.

    >>> fpr, tpr, t = roc_curve([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0], [0, 1, 0, 1])
    >>> fpr.tolist(), tpr.tolist(), t.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    drop_intermediate = check_flag(drop_intermediate, "drop_intermediate", "roc_curve")
    thr, pos, neg = _counts(thresholds, positives, negatives)
    _nonempty(pos, "roc_curve")
    tps, fps = np.cumsum(pos), np.cumsum(neg)
    if drop_intermediate and fps.size > 2:
        kept = np.flatnonzero(np.concatenate(
            [[True], (np.diff(fps, 2) != 0) | (np.diff(tps, 2) != 0), [True]]))
        tps, fps, thr = tps[kept], fps[kept], thr[kept]
    tps, fps = np.concatenate([[0], tps]).astype(tps.dtype), np.concatenate([[0], fps]).astype(fps.dtype)
    thr = np.concatenate([[np.inf], thr])
    big_p, big_n = _total(pos), _total(neg)
    fpr = (_rates(fps, big_n) if big_n > 0 else
           np.full(fps.shape, _undefined(zero_division, "the false positive rate", "negative")))
    tpr = (_rates(tps, big_p) if big_p > 0 else
           np.full(tps.shape, _undefined(zero_division, "the true positive rate", "positive")))
    return fpr, tpr, thr


def precision_recall_curve(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
                           drop_intermediate: bool = False) -> tuple[Floats, Floats, Floats]:
    """The precision-recall curve ``(precision, recall, thresholds)``, as scikit-learn's.

    ``precision = tp / (tp + fp)`` and ``recall = tp / P`` at each threshold,
    in increasing order of threshold, followed by the point ``(1, 0)`` with no
    threshold (so ``thresholds`` is one shorter). ``drop_intermediate`` keeps
    only the first and last point of each run of equal ``tp`` (the vertical
    runs of the plot; scikit-learn >= 1.3). scikit-learn's conventions, kept:
    precision is 0 where nothing is predicted positive, and recall is 1 at
    every threshold when there is no positive result (scikit-learn warns).

    >>> p, r, t = precision_recall_curve([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0], [0, 1, 0, 1])
    >>> [round(x, 4) for x in p.tolist()], r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    drop_intermediate = check_flag(drop_intermediate, "drop_intermediate", "precision_recall_curve")
    thr, pos, neg = _counts(thresholds, positives, negatives)
    _nonempty(pos, "precision_recall_curve")
    tps, fps = np.cumsum(pos), np.cumsum(neg)
    if drop_intermediate and fps.size > 2:
        kept = _first_last_changes(tps)
        tps, fps, thr = tps[kept], fps[kept], thr[kept]
    predicted = tps + fps  # never 0: no threshold of weight 0 is kept
    precision = tps.astype(np.float64) / predicted.astype(np.float64)
    if tps.dtype.kind == "i" and int(predicted[-1]) >= 2**53:
        # past 2**53 (rare): Python's int / int, correctly rounded, one at a time
        precision = np.array([x / y for x, y in zip(tps.tolist(), predicted.tolist())],
                             dtype=np.float64)
    big_p = _total(pos)
    recall = _rates(tps, big_p) if big_p > 0 else np.ones(tps.shape)
    return (np.concatenate([precision[::-1], [1.0]]), np.concatenate([recall[::-1], [0.0]]),
            thr[::-1].copy())


def det_curve(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
              drop_intermediate: bool = False) -> tuple[Floats, Floats, Floats]:
    """The detection error tradeoff curve ``(fpr, fnr, thresholds)``, as scikit-learn's ``det_curve``.

    ``fpr = fp / N`` and ``fnr = fn / P`` at each threshold, in increasing
    order of threshold (so ``fpr`` decreasing): of the points from threshold
    ``inf`` down, scikit-learn's slice from the last one with no false positive
    to the first with no false negative. ``drop_intermediate`` (scikit-learn
    >= 1.7) keeps only the first and last point of each run of equal ``tp``.
    Needs both classes: ``ValueError`` otherwise, as scikit-learn.

    Reference: A. Martin et al., "The DET curve in assessment of detection
    task performance", Eurospeech 1997.

    >>> fpr, fnr, t = det_curve([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0], [0, 1, 0, 1])
    >>> fpr.tolist(), fnr.tolist(), t.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    drop_intermediate = check_flag(drop_intermediate, "drop_intermediate", "det_curve")
    thr, pos, neg = _counts(thresholds, positives, negatives)
    _nonempty(pos, "det_curve")
    big_p, big_n = _total(pos), _total(neg)
    if not big_p > 0 or not big_n > 0:
        raise ValueError("det_curve is undefined: only one class is present (no "
                         f"{'positive' if not big_p > 0 else 'negative'} result)")
    tps = np.concatenate([[0], np.cumsum(pos)]).astype(pos.dtype)
    fps = np.concatenate([[0], np.cumsum(neg)]).astype(neg.dtype)
    thr = np.concatenate([[np.inf], thr])
    if drop_intermediate and fps.size > 2:
        kept = _first_last_changes(tps)
        tps, fps, thr = tps[kept], fps[kept], thr[kept]
    fns = tps[-1] - tps
    # start where fp is still 0 (the last such point), stop where fn first reaches 0
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, tps[-1])) + 1
    part = slice(first, last)
    return (_rates(fps[part], big_n)[::-1].copy(), _rates(fns[part], big_p)[::-1].copy(),
            thr[part][::-1].copy())


def counts_at(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, t: float
              ) -> tuple[int | float, int | float, int | float, int | float]:
    """The 2 x 2 table ``(tp, fp, fn, tn)`` at threshold ``t``: a score ``>= t`` is predicted positive.

    Exact integers for integer counts (Python ints), floats for weights.
    Any real ``t`` (``inf``: nothing predicted positive; ``-inf``: everything).
    In binned mode (``thresholds`` the lower edges of the bins) this is exact
    for ``t`` on an edge; between edges, the table of the edge just above it.

    >>> counts_at([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0], [0, 1, 0, 1], 0.35)
    (2, 1, 0, 1)
    """
    t = check_threshold(t, "counts_at")
    thr, pos, neg = _counts(thresholds, positives, negatives)
    above = thresholds_above(thr, t)
    tp, fp = _total(pos[:above]), _total(neg[:above])
    return tp, fp, _total(pos) - tp, _total(neg) - fp


def thresholds_above(thresholds: Floats, t: float) -> int:
    """How many of the decreasing ``thresholds`` are ``>= t``: the rows predicted positive at ``t``.

    >>> thresholds_above(np.array([0.8, 0.4, 0.35, 0.1]), 0.35)
    3
    """
    t = check_threshold(t, "thresholds_above")
    return int(np.searchsorted(-thresholds, -t, side="right"))


def check_threshold(t: object, where: str | None = None) -> float:
    """The threshold ``t`` as a float if it is a real number other than NaN (an int past every
    float is infinite), else ``TypeError`` (``ValueError`` for NaN) naming it and the call ``where``.

    >>> check_threshold(np.int64(1), "at_threshold")
    1.0
    >>> check_threshold("0.5", "at_threshold")
    Traceback (most recent call last):
    ...
    TypeError: at_threshold: the threshold t must be a number, not '0.5'
    """
    found = real_number(t)  # (an int past every float: past every score, one way or the other)
    if found is None:
        raise TypeError(f"{call_prefix(where)}the threshold t must be a number, not {shown(t)}")
    if math.isnan(found):
        raise ValueError(f"{call_prefix(where)}the threshold t must be a number, not nan")
    return found


# The area under the ROC curve ---------------------------------------------------------------


def mann_whitney(positives: ArrayLike, negatives: ArrayLike) -> tuple[int | float, int | float,
                                                                       int | float]:
    """``(2U, P, N)``: twice the Mann-Whitney statistic and the class totals, from per-score counts.

    ``2U = sum_s pos_s (2 below_s + neg_s)``: each positive-negative pair in
    which the positive scores higher counts 2, a tied pair 1 (``U`` in
    half-units, so it is an integer for integer counts, a Python ``int``;
    a float for weights). What an accumulator keeps running to read the AUC in
    O(1) through :func:`auc_from_mann_whitney`; a test recomputes it.

    >>> mann_whitney([1, 0, 1, 0], [0, 1, 0, 1])  # scores 0.8, 0.4, 0.35, 0.1
    (6, 2, 2)
    """
    return _mann_whitney(*_pair(positives, negatives))


def auc_from_mann_whitney(twice_u: int | float, total_positives: int | float,
                          total_negatives: int | float, *,
                          zero_division: ZeroDivision = "perl") -> float:
    """The AUC ``2U / (2 P N)`` of :func:`mann_whitney`'s numbers, one correctly rounded quotient
    for integers; undefined without positives or negatives (``zero_division``, as :func:`roc_auc`).

    >>> auc_from_mann_whitney(6, 2, 2)
    0.75
    """
    # Python ints (every streaming read after a result) are recognised by their type alone,
    # before any other test: a read after each result must not pay for isinstance checks
    if (type(twice_u) is int and type(total_positives) is int and type(total_negatives) is int
            and total_positives > 0 and total_negatives > 0):
        return twice_u / (2 * total_positives * total_negatives)  # int / int: correctly rounded
    if not total_positives > 0:
        return _undefined(zero_division, "roc_auc", "positive")
    if not total_negatives > 0:
        return _undefined(zero_division, "roc_auc", "negative")
    if all(isinstance(x, (int, np.integer)) for x in (twice_u, total_positives, total_negatives)):
        return int(twice_u) / (2 * int(total_positives) * int(total_negatives))  # correctly rounded
    return min(1.0, float(twice_u) / (2 * float(total_positives) * float(total_negatives)))


def _mann_whitney(pos: NDArray[Any], neg: NDArray[Any]) -> tuple[int | float, int | float, int | float]:
    """``(2U, P, N)`` of checked columns (:func:`mann_whitney`).

    ``2U = sum_s pos_s (2 below_s + neg_s)`` with ``below_s`` the negatives
    scored under ``s``; at most ``2 P N``, so int64 holds it when that does.
    """
    big_p, big_n = _total(pos), _total(neg)
    if pos.dtype.kind == "i":
        pos_x, neg_x = _exact(pos, 2 * int(big_p) * int(big_n)), _exact(neg, 2 * int(big_p) * int(big_n))
        below = big_n - np.cumsum(neg_x)
        if pos_x.dtype == object:
            return int((pos_x * (2 * below + neg_x)).sum()), big_p, big_n
        # 2 sum pos below + sum pos neg: each dot product at most 2PN, within int64
        return 2 * int(np.dot(pos_x, below)) + int(np.dot(pos_x, neg_x)), big_p, big_n
    below = big_n - np.cumsum(neg)
    return math.fsum(pos * (2 * below + neg)), big_p, big_n


def _unit_totals(pos: NDArray[Any], neg: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Float columns scaled by powers of two (exactly) so that each total is in [0.5, 1): the
    area ``2U / (2 P N)`` is unchanged, and no product of two weights in ``2U`` overflows
    (``1e200 * 1e200``) or underflows (``1e-279 * 1e-279``). Integer columns as they are."""
    if pos.dtype.kind == "i":
        return pos, neg
    return tuple(  # type: ignore[return-value]
        np.ldexp(column, -math.frexp(float(_total(column)))[1]) if _total(column) > 0 else column
        for column in (pos, neg))


def roc_auc(positives: ArrayLike, negatives: ArrayLike, *, max_fpr: float | None = None,
            zero_division: ZeroDivision = "perl") -> float:
    """The area under the ROC curve: ``U / (P N)``, a tied positive-negative pair counting half.

    ``U`` is the Mann-Whitney statistic, the weight of positive-negative pairs
    in which the positive scores higher, plus half that of tied pairs: the
    area under scikit-learn's trapezoidal ROC curve. ``positives`` and
    ``negatives`` are per distinct score, highest first. For integer counts
    ``2U`` is an exact integer and the area one rounding of ``2U / (2 P N)``.

    ``max_fpr`` (in (0, 1]): McClish's standardised partial AUC, as
    scikit-learn's ``roc_auc_score(max_fpr=)``: the area ``A`` under the ROC
    curve up to ``fpr = max_fpr`` (the curve interpolated linearly there) as
    ``(1 + (A - m²/2) / (m - m²/2)) / 2``, 0.5 for a non-discriminant and 1
    for a perfect classifier.

    Undefined without positives or negatives: ``zero_division`` (module
    docstring; scikit-learn's NaN is ``"nan"``).

    Reference: D. Bamber, J. Math. Psychology 12 (1975) 387-415 (the area is
    U / PN); D. K. McClish, Medical Decision Making 9 (1989) 190-195.

    >>> roc_auc([1, 0, 1, 0], [0, 1, 0, 1])  # scores 0.8, 0.4, 0.35, 0.1
    0.75
    >>> roc_auc([1, 1], [1, 0])  # a tied pair at the top (1/2), the other positive below: (1/2 + 0) / 2
    0.25
    """
    max_fpr = check_max_fpr(max_fpr, "roc_auc")
    pos, neg = _pair(positives, negatives)
    _nonempty(pos, "roc_auc")
    twice_u, big_p, big_n = _mann_whitney(*_unit_totals(pos, neg))
    area = auc_from_mann_whitney(twice_u, big_p, big_n, zero_division=zero_division)
    if max_fpr is None or max_fpr == 1 or not (big_p > 0 and big_n > 0):
        return area
    return _mcclish(pos, neg, float(max_fpr))


def check_max_fpr(max_fpr: object, where: str | None = None) -> float | None:
    """:func:`roc_auc`'s ``max_fpr``: ``None``, or a real number in (0, 1] as a float; else
    ``ValueError`` naming it and the call ``where``.

    >>> check_max_fpr(None), check_max_fpr(np.float64(0.5), "roc_auc")
    (None, 0.5)
    >>> check_max_fpr(0, "roc_auc")
    Traceback (most recent call last):
    ...
    ValueError: roc_auc: max_fpr must be a number in (0, 1], not 0
    """
    if max_fpr is None:
        return None
    found = real_number(max_fpr)
    if found is None or not 0 < found <= 1:
        raise ValueError(f"{call_prefix(where)}max_fpr must be a number in (0, 1], "
                         f"not {shown(max_fpr)}")
    return found


def _mcclish(pos: NDArray[Any], neg: NDArray[Any], max_fpr: float) -> float:
    """McClish's standardised partial AUC up to ``max_fpr``, scikit-learn's steps on the ROC curve."""
    fps = np.concatenate([[0.0], np.cumsum(neg).astype(np.float64)])
    tps = np.concatenate([[0.0], np.cumsum(pos).astype(np.float64)])
    fpr, tpr = fps / fps[-1], tps / tps[-1]
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    # the point at max_fpr by linear interpolation (fpr[stop] exists: max_fpr < 1 = fpr[-1])
    tpr = np.append(tpr[:stop], np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1]))
    fpr = np.append(fpr[:stop], max_fpr)
    partial = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) / 2.0)
    least, most = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1 + (partial - least) / (most - least))


def roc_auc_variance(positives: ArrayLike, negatives: ArrayLike, *,
                     method: Literal["delong", "hanley_mcneil"] = "delong",
                     zero_division: ZeroDivision = "perl") -> float:
    """The variance of the AUC estimate, by DeLong's structural components or Hanley and McNeil's formula.

    ``"delong"`` (DeLong, DeLong and Clarke-Pearson 1988; pROC's
    ``var(method="delong")``): each positive result scored ``s`` has the
    component ``V10(s) = (below_s + neg_s / 2) / N``, each negative scored ``s``
    ``V01(s) = (above_s + pos_s / 2) / P`` (the share of the other class it
    beats, ties half), so they are functions of the distinct score and its
    counts, with no stored data; the AUC is their mean, and
    ``Var = S10 / P + S01 / N`` with ``S10 = sum (V10 - A)² / (P - 1)`` over
    positives and ``S01`` likewise over negatives. In half-units
    (``h_s = 2 below_s + neg_s``, ``g_s = 2 above_s + pos_s``, ``2U`` as in
    :func:`roc_auc`) that is::

        Var = [(P sum pos h² - (2U)²) / (P - 1) + (N sum neg g² - (2U)²) / (N - 1)] / (4 P² N²)

    computed exactly for integer counts and rounded once while ``4 P N max(P, N)``
    fits int64 (classes up to about 1.3 million results each); past that, and
    for fractional weights, from the centred components in float64 (relative
    error about 1e-15). Needs at least two positives and two negatives
    (weights: a total above 1).

    ``"hanley_mcneil"`` (Hanley and McNeil 1982, the standard error of A), from the
    AUC ``A`` and the class sizes only: ``Q1 = A / (2 - A)``,
    ``Q2 = 2A² / (1 + A)``, ``Var = (A(1 - A) + (P - 1)(Q1 - A²) + (N - 1)(Q2 - A²)) / (P N)``.

    Undefined (too few of a class): ``zero_division``, as :func:`roc_auc`.
    Weights count as frequencies (pROC takes no weights).

    >>> round(roc_auc_variance([1, 0, 1, 0, 1], [0, 1, 0, 1, 1]), 10)
    0.0802469136
    >>> round(roc_auc_variance([1, 0, 1, 0, 1], [0, 1, 0, 1, 1], method="hanley_mcneil"), 10)
    0.0612255806
    """
    method = check_choice(method, "method", AUC_VARIANCE_METHODS,  # type: ignore[assignment]
                          "roc_auc_variance")
    pos, neg = _pair(positives, negatives)
    _nonempty(pos, "roc_auc_variance")
    twice_u, big_p, big_n = _mann_whitney(pos, neg)
    if not big_p > 1:
        return _undefined(zero_division, "the AUC's variance", "second positive")
    if not big_n > 1:
        return _undefined(zero_division, "the AUC's variance", "second negative")
    if method == "hanley_mcneil":
        return hanley_mcneil_variance(twice_u, big_p, big_n)
    if pos.dtype.kind == "i" and 4 * int(big_p) * int(big_n) * max(int(big_p), int(big_n)) <= INT64_MAX:
        # sum pos h² <= 4 P N² and sum neg g² <= 4 N P²: both int64 sums are exact
        p_, n_ = int(big_p), int(big_n)
        h = 2 * (n_ - np.cumsum(neg)) + neg
        g = 2 * (np.cumsum(pos) - pos) + pos
        sum_h2, sum_g2 = int(np.dot(pos, h * h)), int(np.dot(neg, g * g))
        u2 = int(twice_u) ** 2
        exact = (Fraction(p_ * sum_h2 - u2, p_ - 1) + Fraction(n_ * sum_g2 - u2, n_ - 1)) / (
            4 * p_ * p_ * n_ * n_)
        return float(exact)
    # weights, or classes past about a million results: the components' centred squares in
    # float64 (each component and the AUC correctly rounded; relative error about 1e-15)
    a = (twice_u / (2 * big_p * big_n) if isinstance(twice_u, float)
         else int(twice_u) / (2 * int(big_p) * int(big_n)))
    pos_f, neg_f = pos.astype(np.float64), neg.astype(np.float64)
    n_f, p_f = float(big_n), float(big_p)
    v10 = ((n_f - np.cumsum(neg_f)) + neg_f / 2) / n_f
    v01 = (np.cumsum(pos_f) - pos_f / 2) / p_f
    s10 = math.fsum(pos_f * (v10 - a) ** 2) / (p_f - 1)
    s01 = math.fsum(neg_f * (v01 - a) ** 2) / (n_f - 1)
    return s10 / p_f + s01 / n_f


def hanley_mcneil_variance(twice_u: int | float, total_positives: int | float,
                           total_negatives: int | float) -> float:
    """Hanley and McNeil's variance of the AUC (:func:`roc_auc_variance`'s ``"hanley_mcneil"``)
    from :func:`mann_whitney`'s numbers, with at least two results of each class: O(1), so a
    running ``2U`` gives it after every result.

    >>> round(hanley_mcneil_variance(11, 3, 3), 10)  # 2U of [1, 0, 1, 0, 1] against [0, 1, 0, 1, 1]
    0.0612255806
    """
    big_p, big_n = total_positives, total_negatives
    a = (twice_u / (2 * big_p * big_n) if isinstance(twice_u, float)
         else float(Fraction(int(twice_u), 2 * int(big_p) * int(big_n))))
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    return max(0.0, (a * (1 - a) + (big_p - 1) * (q1 - a * a) + (big_n - 1) * (q2 - a * a))
               / (big_p * big_n))


def hanley_mcneil_interval(twice_u: int, total_positives: int, total_negatives: int, *,
                           level: float = 0.95) -> Interval:
    """:func:`roc_auc_interval`'s ``"hanley_mcneil"`` interval from :func:`mann_whitney`'s
    integer numbers (at least two results of each class), in O(1).

    >>> low, estimate, high = hanley_mcneil_interval(11, 3, 3)
    >>> round(low, 6), round(estimate, 6), high
    (0.126141, 0.611111, 1.0)
    """
    z = normal_quantile(check_level(level, "level", "hanley_mcneil_interval"))
    estimate = auc_from_mann_whitney(twice_u, total_positives, total_negatives)
    return _normal_interval(estimate, hanley_mcneil_variance(twice_u, total_positives,
                                                             total_negatives), z)


def _normal_interval(estimate: float, variance: float, z: float) -> Interval:
    """``estimate ± z sqrt(variance)`` cut at 0 and 1, as an :class:`Interval`."""
    low, high = normal_bounds(estimate, variance, z)
    return Interval(low, estimate, high)


def roc_auc_interval(positives: ArrayLike, negatives: ArrayLike, *, level: float = 0.95,
                     method: Literal["delong", "hanley_mcneil"] = "delong") -> Interval:
    """The normal interval ``AUC ± z sqrt(Var)`` of :func:`roc_auc_variance`'s method, clipped to [0, 1].

    As pROC's ``ci.auc(method="delong")``: the estimate is the AUC, the bounds
    the normal quantiles around it (``z`` of the two-sided ``level``), cut at
    0 and 1. ``ValueError`` when the AUC or its variance is undefined (fewer
    than two results of a class).

    >>> low, estimate, high = roc_auc_interval([1, 0, 1, 0, 1], [0, 1, 0, 1, 1])
    >>> round(low, 6), round(estimate, 6), high
    (0.055895, 0.611111, 1.0)
    """
    z = normal_quantile(check_level(level, "level", "roc_auc_interval"))
    method = check_choice(method, "method", AUC_VARIANCE_METHODS,  # type: ignore[assignment]
                          "roc_auc_interval")
    variance = roc_auc_variance(positives, negatives, method=method)
    return _normal_interval(roc_auc(positives, negatives), variance, z)


# Average precision --------------------------------------------------------------------------


def average_precision_interval(positives: ArrayLike, negatives: ArrayLike, *,
                               level: float = 0.95) -> Interval:
    """Boyd, Eng and Page's logit interval of average precision (ECML PKDD 2013).

    With ``θ`` the average precision (:func:`average_precision`) and ``n = P``
    the weight of positive results (each weight a number of repeats)::

        η = log(θ / (1 - θ)),   τ = 1 / sqrt(n θ (1 - θ)),
        [low, high] = [expit(η - z τ), expit(η + z τ)]

    with ``z`` the normal quantile of the two-sided ``level``: a normal
    interval on the logit scale, so it stays inside (0, 1) and is asymmetric
    around ``θ``. Boyd et al. recommend it (with the binomial interval) for
    the area under the precision-recall curve estimated by average precision:
    its coverage is near nominal from about 100 positives in their
    simulations (the tests check 95% coverage under the binormal model).
    ``ValueError`` when it is undefined: no positive result, or ``θ`` of 0 or 1
    (every positive above every negative), where the logit is infinite.

    >>> low, estimate, high = average_precision_interval([1, 0, 1, 1, 0, 1], [0, 1, 0, 1, 1, 1])
    >>> round(low, 6), round(estimate, 6), round(high, 6)
    (0.211794, 0.691667, 0.949309)
    """
    z = normal_quantile(check_level(level, "level", "average_precision_interval"))
    pos, _ = _pair(positives, negatives)
    estimate = average_precision(positives, negatives)  # refuses without positives ("perl")
    if not 0.0 < estimate < 1.0:
        raise ValueError(f"the logit interval of average precision is undefined when it is "
                         f"{estimate!r} (its logit is infinite)")
    total = float(_total(pos))  # n, the weight of positive results
    logit = math.log(estimate / (1.0 - estimate))
    half = z / math.sqrt(total * estimate * (1.0 - estimate))
    return Interval(_expit(logit - half), estimate, _expit(logit + half))


def _expit(x: float) -> float:
    """The logistic function ``1 / (1 + e**-x)``, without overflow for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def average_precision(positives: ArrayLike, negatives: ArrayLike, *,
                      zero_division: ZeroDivision = "perl") -> float:
    """Average precision, scikit-learn's step definition: ``AP = sum_k (R_k - R_(k-1)) P_k``.

    The precision ``P_k = tp_k / (tp_k + fp_k)`` at each threshold, weighted
    by the recall it adds, ``pos_k / P``: the mean precision at the positive
    results, tied results sharing the precision of their threshold (no
    interpolation). Each term ``pos_k tp_k / (tp_k + fp_k)`` is correctly
    rounded (for integer counts while ``pos_k tp_k < 2**53``, within an ulp
    past it) and their sum is the exact sum of those doubles rounded once
    (:func:`math.fsum`), then divided by ``P``.

    Undefined without positive results: ``zero_division`` (scikit-learn
    warns and returns 0, ``zero_division=0.0``).

    Reference: scikit-learn's ``average_precision_score``; Manning, Raghavan
    and Schütze, Introduction to Information Retrieval (2008), section 8.4.

    >>> round(average_precision([1, 0, 1, 0], [0, 1, 0, 1]), 10)  # scores 0.8, 0.4, 0.35, 0.1
    0.8333333333
    """
    pos, neg = _pair(positives, negatives)
    _nonempty(pos, "average_precision")
    big_p = _total(pos)
    if not big_p > 0:
        return _undefined(zero_division, "average_precision", "positive")
    return _precision_sum(pos, np.cumsum(pos), np.cumsum(neg)) / big_p


def _precision_sum(weight: NDArray[Any], tps: NDArray[Any], fps: NDArray[Any]) -> float:
    """``sum weight_k tps_k / (tps_k + fps_k)``: each term correctly rounded (for integer counts
    while ``weight_k tps_k < 2**53``, else within an ulp), their exact sum rounded once.

    ``tps_k + fps_k`` is never 0 (no row of weight 0 is kept), and a row with
    ``weight_k = 0`` adds 0. Float weights are multiplied by the precision
    ``tps_k / (tps_k + fps_k)``, a share in [0, 1], so that no product of two weights
    overflows (``1e200 * 1e200``) or underflows (``1e-279 * 1e-279``).
    """
    predicted = (tps + fps).astype(np.float64)
    if weight.dtype.kind == "i":
        if int(weight.max(initial=0)) * int(tps[-1]) < 2**53:  # every product exact in float64
            return math.fsum((weight * tps).astype(np.float64) / predicted)
        exact = weight.astype(np.float64) * tps.astype(np.float64) < 2**53
        terms = np.where(exact, (weight.astype(np.float64) * tps.astype(np.float64)) / predicted,
                         weight.astype(np.float64) * (tps.astype(np.float64) / predicted))
        return math.fsum(terms)
    return math.fsum(weight * (tps / predicted))


# Binned mode: how far the exact read can be --------------------------------------------------


def roc_auc_bound(positives: ArrayLike, negatives: ArrayLike) -> float:
    """How far the exact AUC of unbinned scores can be from their binned AUC: ``sum_b pos_b neg_b / 2PN``.

    In the binned read a positive and a negative of one bin are tied and count
    half; their true scores order them one way or the other (or tie), so the
    pair counts 0, 1/2 or 1 in the exact ``U``: each pair sharing a bin moves
    the AUC by at most ``1 / (2 P N)``, and pairs in different bins are
    ordered the same way exactly and binned. Hence the exact AUC lies in
    ``[read - bound, read + bound]`` (cut to [0, 1]; up to the rounding of the
    read and of the sum, below 1e-16), and the bound is tight: it
    is reached when in every bin all positives score above all negatives (or
    all below). Computed exactly for integer counts, rounded up once so the
    interval is certified. 0 with one class absent or no result (the read is
    then undefined, not uncertain).

    >>> roc_auc_bound([3, 1], [1, 3])  # bins: 3 pos + 1 neg, then 1 pos + 3 neg
    0.1875
    """
    pos, neg = _pair(positives, negatives)
    big_p, big_n = _total(pos), _total(neg)
    if pos.dtype.kind == "i":
        bound = int(big_p) * int(big_n)
        shared: int | float = int((_exact(pos, bound) * _exact(neg, bound)).sum())
    else:
        shared = math.fsum(pos * neg)
    return auc_bound_from_shared_pairs(shared, big_p, big_n)


def auc_bound_from_shared_pairs(shared_pairs: int | float, total_positives: int | float,
                                total_negatives: int | float) -> float:
    """:func:`roc_auc_bound` from ``sum_b pos_b neg_b`` (the pairs sharing a bin) and the class totals.

    ``shared / (2 P N)`` rounded up (exactly for integers); 0 without pairs.
    What an accumulator in binned mode keeps running beside ``2U``.

    >>> auc_bound_from_shared_pairs(6, 4, 4)
    0.1875
    """
    if not total_positives > 0 or not total_negatives > 0 or not shared_pairs:
        return 0.0
    if all(isinstance(x, (int, np.integer)) for x in (shared_pairs, total_positives,
                                                       total_negatives)):
        return _round_up(Fraction(int(shared_pairs), 2 * int(total_positives) * int(total_negatives)))
    return min(1.0, math.nextafter(float(shared_pairs) / (2 * float(total_positives)
                                                          * float(total_negatives)), math.inf))


def _round_up(value: Fraction) -> float:
    """The smallest double at least ``value``."""
    nearest = float(value)
    return nearest if Fraction(nearest) >= value else math.nextafter(nearest, math.inf)


def average_precision_bounds(positives: ArrayLike, negatives: ArrayLike, *,
                             zero_division: ZeroDivision = "perl") -> tuple[float, float]:
    """Bounds ``(low, high)`` on the exact average precision of the unbinned scores, from the bins' counts.

    Let bin ``b`` (highest first) hold ``p`` positive and ``n`` negative
    weight, ``T`` and ``F`` the positive and negative weight of the bins above
    it. However the results of the bin are ordered (or tied) by their true
    scores, a positive of the bin sees at most ``T + p`` true and at least
    ``F`` false positives at its threshold, so its precision is at most
    ``(T + p) / (T + p + F)``: ``high = sum_b p (T + p) / (T + p + F) / P``,
    reached when each bin's positives tie above its negatives (tight). And a
    positive with positive weight ``c`` of the bin up to and including it sees
    at least ``T + c`` true and at most ``F + n`` false positives; the
    precision ``(T + x) / (T + x + F + n)`` increases with ``x``, so the sum
    over the bin's positives is at least its integral over ``x`` in ``[0, p]``:
    ``low = sum_b [p - (F + n) ln((T + p + F + n) / (T + F + n))] / P``. The
    binned read (its precision ``(T + p) / (T + p + F + n)`` for every positive
    of the bin) lies between. The lower bound is a limit (approached as the
    positives of each bin, all below its negatives, become many), not reached
    by few results. Both are computed in float64 (to about 1e-15). Without
    positives average precision is undefined: both bounds are the value
    ``zero_division`` gives (see :func:`average_precision`).

    >>> low, high = average_precision_bounds([1, 1], [1, 1])
    >>> round(low, 4), round(high, 4)
    (0.3657, 0.8333)
    """
    pos, neg = _pair(positives, negatives)
    _nonempty(pos, "average_precision_bounds")
    big_p = _total(pos)
    if not big_p > 0:
        undefined = _undefined(zero_division, "average_precision", "positive")
        return undefined, undefined
    through_p = np.cumsum(pos).astype(np.float64)  # T + p
    before_n = (np.cumsum(neg) - neg).astype(np.float64)  # F
    through_n = before_n + neg  # F + n
    p = pos.astype(np.float64)
    high = math.fsum(_precision_terms(p, through_p, before_n)) / big_p
    before_p = through_p - p
    with np.errstate(divide="ignore", invalid="ignore"):
        lost = np.where(through_n > 0, through_n * np.log1p(p / (before_p + through_n)), 0.0)
    low = math.fsum(p - lost) / big_p
    return max(0.0, low), min(1.0, high)


def _precision_terms(p: Floats, t: Floats, f: Floats) -> Floats:
    with np.errstate(divide="ignore", invalid="ignore"):
        terms: Floats = np.where(p > 0, p * t / (t + f), 0.0)
    return terms


# Probabilities: Brier score, log loss, calibration ------------------------------------------


def _probabilities(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, what: str
                   ) -> tuple[Floats, NDArray[Any], NDArray[Any]]:
    thr, pos, neg = _counts(thresholds, positives, negatives)
    _nonempty(pos, what)
    if thr[0] > 1 or thr[-1] < 0:
        raise ValueError(f"{what} takes probabilities: every score must be in [0, 1], not "
                         f"{shown(float(thr[0] if thr[0] > 1 else thr[-1]))}")
    return thr, pos, neg


def brier_loss(scores: Any, positive: bool) -> Any:
    """The Brier score's loss of one result of a class at each score: ``(1 - s)²`` for a positive,
    ``s²`` for a negative.

    The one definition of the term: :func:`brier_score` multiplies it by each
    class's weight (``weight * loss``, one rounding each operation as written),
    on arrays, and the running sums of
    :class:`~contingency.ThresholdContingency`'s counts on one score, a Python
    float (basic IEEE operations: numpy and Python give the same bits).

    >>> brier_loss(0.25, True), brier_loss(np.array([0.25]), False).tolist()
    (0.5625, [0.0625])
    """
    miss = 1.0 - scores if positive else scores
    return miss * miss


def brier_terms(thresholds: Floats, positives: NDArray[Any], negatives: NDArray[Any]) -> Floats:
    """The Brier score's terms, ``weight * loss`` of each class at each score (checked counts)."""
    return np.concatenate([positives * brier_loss(thresholds, True),
                           negatives * brier_loss(thresholds, False)])


def brier_score(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike) -> float:
    """The Brier score: the mean of ``(y - s)²`` over results, ``y`` 1 for a positive, ``s`` its score.

    ``(sum_s pos_s (1 - s)² + neg_s s²) / (P + N)``, with the scores
    probabilities of the positive class (``ValueError`` outside [0, 1]); the
    sum is taken exactly over the rounded terms (:func:`brier_terms`,
    :func:`math.fsum`). As scikit-learn's ``brier_score_loss`` of binary input
    (whose default ``scale_by_half="auto"`` halves the two-column sum to this).

    Reference: G. W. Brier, Monthly Weather Review 78 (1950) 1-3.

    >>> brier_score([0.9, 0.4, 0.1], [1, 1, 0], [0, 0, 2])  # (0.01 + 0.36 + 2 * 0.01) / 4
    0.0975
    """
    thr, pos, neg = _probabilities(thresholds, positives, negatives, "brier_score")
    return mean_of_terms(math.fsum(brier_terms(thr, pos, neg)), _total(pos) + _total(neg))


def mean_of_terms(rounded_sum: float, total: int | float) -> float:
    """The Brier score or the log loss from the sum of its terms (exact, rounded once) and the
    total weight ``P + N``: the formulas' last step, and the running reads'."""
    return rounded_sum / float(total)


_log = math.log  # the log loss's logarithm (libm's): see log_loss_of

#: ``eps="auto"``: the machine epsilon of float64, as scikit-learn's log loss.
LOG_LOSS_EPS = float(np.finfo(np.float64).eps)


def log_loss_eps(eps: object, where: str | None = None) -> float:
    """The clipping bound of :func:`log_loss`: ``"auto"`` is :data:`LOG_LOSS_EPS`; a number in
    [0, 0.5) is itself; anything else ``ValueError`` naming it and the call ``where``.

    >>> log_loss_eps("auto") == LOG_LOSS_EPS, log_loss_eps(0.25, "log_loss")
    (True, 0.25)
    >>> log_loss_eps("none", "log_loss")
    Traceback (most recent call last):
    ...
    ValueError: log_loss: eps must be 'auto' or a number in [0, 0.5), not 'none'
    """
    if isinstance(eps, str):
        if eps != "auto":
            raise ValueError(f"{call_prefix(where)}eps must be 'auto' or a number in [0, 0.5), "
                             f"not {shown(eps)}")
        return LOG_LOSS_EPS
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps < 0.5:
        raise ValueError(f"{call_prefix(where)}eps must be 'auto' or a number in [0, 0.5), "
                         f"not {shown(eps)}")
    return eps


def log_loss_of(scores: Any, positive: bool, eps: float = LOG_LOSS_EPS) -> Any:
    """The log loss of one result of a class at each score: ``-ln p``, ``p`` the probability given
    to its class (``s`` for a positive, ``1 - s`` for a negative) clipped to ``[eps, 1 - eps]``
    (``inf`` where that is 0, with ``eps`` 0).

    The one definition of the term, on a Python float (the running sums of
    :class:`~contingency.ThresholdContingency`'s counts) or an array
    (:func:`log_loss`): libm's logarithm, :func:`math.log`, one value at a time
    in both, since numpy's vectorised ``log`` differs from it in the last bit on
    some inputs (and from machine to machine).

    >>> log_loss_of(0.5, True), log_loss_of(np.array([0.5, 1.0]), False).tolist()
    (0.6931471805599453, [0.6931471805599453, 36.04365338911715])
    """
    probabilities = scores if positive else 1.0 - scores
    if type(probabilities) is float:  # one score (the running sums, after every add: kept short)
        if probabilities <= eps:
            probabilities = eps
            if not probabilities:
                return math.inf
        elif probabilities > 1 - eps:
            probabilities = 1 - eps
        return -_log(probabilities)
    clipped_all = np.clip(probabilities, eps, 1 - eps)
    losses = np.full(clipped_all.shape, math.inf)
    positive_at = clipped_all > 0
    losses[positive_at] = np.negative(list(map(_log, clipped_all[positive_at].tolist())))
    return losses


def log_loss_terms(thresholds: Floats, positives: NDArray[Any], negatives: NDArray[Any],
                   eps: float = LOG_LOSS_EPS) -> Floats:
    """The log loss's terms, ``weight * loss`` of each class at each score where its weight is not
    0 (an infinite loss of no result costs nothing, and a logarithm is taken only where needed),
    from checked counts."""
    at_positives, at_negatives = positives > 0, negatives > 0
    return np.concatenate([
        positives[at_positives] * log_loss_of(thresholds[at_positives], True, eps),
        negatives[at_negatives] * log_loss_of(thresholds[at_negatives], False, eps)])


def log_loss(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
             eps: float | Literal["auto"] = "auto") -> float:
    """The log loss ``-(sum_s pos_s ln s + neg_s ln(1 - s)) / (P + N)``, scores clipped to ``[eps, 1 - eps]``.

    The scores are probabilities of the positive class (``ValueError`` outside
    [0, 1]). As scikit-learn (>= 1.5), ``s`` and ``1 - s`` are each clipped
    to ``[eps, 1 - eps]`` with ``eps="auto"`` the machine epsilon of float64,
    so a confident mistake costs about 36, not infinity. Each term
    (:func:`log_loss_terms`, :func:`log_loss_of`) is rounded once and their sum
    is exact, rounded once (:func:`math.fsum`). Exact mode: a binned lower edge
    is not the results' probability.

    Reference: scikit-learn's ``log_loss``; I. J. Good, JRSS B 14 (1952) 107-114.

    >>> round(log_loss([0.9, 0.4, 0.1], [1, 1, 0], [0, 0, 2]), 10)
    0.3080930697
    """
    clip = log_loss_eps(eps, "log_loss")
    thr, pos, neg = _probabilities(thresholds, positives, negatives, "log_loss")
    terms = log_loss_terms(thr, pos, neg, clip)
    return mean_of_terms(math.fsum(terms), _total(pos) + _total(neg))


def _bin_sums(codes: NDArray[np.intp], values: Floats, weights: NDArray[Any], size: int) -> Floats:
    """``sum values * weights`` per bin code (codes ascending): exact sums, rounded once (integer weights)."""
    parts = _exact_products(values, weights)
    pieces = [values * weights.astype(np.float64)] if parts is None else list(parts)
    sums = np.zeros(size)
    starts = np.searchsorted(codes, np.arange(size + 1))
    for k in np.flatnonzero(np.diff(starts)):  # one fsum per bin, not per threshold
        sums[k] = math.fsum(np.concatenate([piece[starts[k]:starts[k + 1]] for piece in pieces]))
    return sums


def _bin_totals(codes: NDArray[np.intp], weights: NDArray[Any], size: int) -> NDArray[Any]:
    if weights.dtype.kind == "i":  # exact int64 sums: at most MAX_COUNT results in all
        starts = np.searchsorted(codes, np.arange(size + 1))
        cumulative = np.concatenate([np.zeros(1, dtype=weights.dtype), np.cumsum(weights)])
        totals: NDArray[Any] = cumulative[starts[1:]] - cumulative[starts[:-1]]
        return totals
    return np.bincount(codes, weights=weights, minlength=size)


def _quotients(numerator: NDArray[Any], denominator: NDArray[Any]) -> Floats:
    """Correctly rounded ``numerator / denominator`` (exact integers: Python's int division)."""
    exact = numerator.dtype.kind == "i" and denominator.dtype.kind == "i"
    if exact and numerator.size and max(int(abs(numerator).max()), int(abs(denominator).max())) >= 2**53:
        return np.array([x / y for x, y in zip(numerator.tolist(), denominator.tolist())],
                        dtype=np.float64)
    return numerator.astype(np.float64) / denominator.astype(np.float64)


def _percentiles(ascending: Floats, cumulative: NDArray[Any], quantiles: Floats) -> Floats:
    """numpy's ``percentile(sample, 100 q)`` (method "linear") of a sample given by values and counts.

    numpy's own steps: the virtual index ``(n - 1) q``, its floor and the next
    index (both the last value past the end), the fraction ``gamma`` and
    ``_lerp``: ``a + (b - a) gamma``, or ``b - (b - a)(1 - gamma)`` for
    ``gamma >= 0.5``.
    """
    n = int(cumulative[-1])
    virtual = (n - 1) * quantiles
    previous = np.floor(virtual)
    following = previous + 1
    above = virtual >= n - 1
    previous[above], following[above] = n - 1, n - 1
    gamma = virtual - previous
    gamma[above] = 0.0  # b == a there: either branch gives the last value
    # the value at sorted position k is the first distinct value whose cumulative count passes k
    a = ascending[np.searchsorted(cumulative, previous.astype(np.int64), side="right")]
    b = ascending[np.searchsorted(cumulative, following.astype(np.int64), side="right")]
    diff = b - a
    return np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)


def calibration_curve(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
                      n_bins: int = 5, strategy: Literal["uniform", "quantile"] = "uniform"
                      ) -> tuple[Floats, Floats]:
    """The reliability diagram ``(prob_true, prob_pred)``, as scikit-learn's ``calibration_curve``.

    The scores (probabilities of the positive class, in [0, 1]) fall into
    ``n_bins`` bins: of equal width (``"uniform"``: edges ``linspace(0, 1,
    n_bins + 1)``), or holding equal numbers of results (``"quantile"``: edges
    at numpy's linear percentiles of the results' scores); a score on an
    inner edge goes to the bin below it (scikit-learn's ``searchsorted``).
    For each non-empty bin, ``prob_true`` is the share of positive results and
    ``prob_pred`` the mean score, in increasing order of bin. Each share is a
    correctly rounded quotient of exact counts; each mean score's sum is exact
    and rounded once before the division (for counts below ``2**53``; past
    them the products are rounded too), within an ulp or two of scikit-learn's
    running float sum over the results. Weights count as frequencies
    (scikit-learn's function takes none); ``"quantile"`` needs integer counts,
    since a percentile of weighted results is another definition.

    Reference: A. Niculescu-Mizil and R. Caruana, "Predicting good
    probabilities with supervised learning", ICML 2005.

    >>> true, pred = calibration_curve([0.9, 0.4, 0.1], [1, 1, 0], [0, 0, 2], n_bins=2)
    >>> [round(x, 6) for x in true.tolist()], [round(x, 6) for x in pred.tolist()]
    ([0.333333, 1.0], [0.2, 0.9])
    """
    strategy = check_choice(strategy, "strategy", CALIBRATION_STRATEGIES,  # type: ignore[assignment]
                            "calibration_curve")
    n_bins = check_bin_count(n_bins, "calibration_curve")
    thr, pos, neg = _probabilities(thresholds, positives, negatives, "calibration_curve")
    ascending, pos, neg = thr[::-1], pos[::-1], neg[::-1]
    results = pos + neg  # at most MAX_COUNT in all: int64
    if strategy == "quantile":
        if results.dtype.kind != "i":
            raise ValueError("calibration_curve(strategy='quantile') needs integer counts: a "
                             "percentile of weighted results is another definition")
        edges = _percentiles(ascending, np.cumsum(results), np.linspace(0, 1, n_bins + 1) * 100 / 100)
    else:  # "uniform"
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    codes = np.searchsorted(edges[1:-1], ascending)
    size = max(n_bins, int(codes.max()) + 1)
    totals = _bin_totals(codes, results, size)
    nonzero = np.flatnonzero(totals != 0)
    positive = _bin_totals(codes, pos, size)
    prob_true = _quotients(positive[nonzero], totals[nonzero])
    prob_pred = _bin_sums(codes, ascending, results, size)[nonzero] / _quotients(
        totals[nonzero], np.ones(nonzero.size, dtype=np.int64))
    return prob_true, prob_pred


def _calibration_edges(n_bins: int | ArrayLike, lowest: float) -> Floats:
    """``linspace(0, 1, n_bins + 1)`` of a positive integer, or given edges, checked."""
    if isinstance(n_bins, (int, np.integer, np.bool_)):  # (a bool too: refused by name)
        return np.linspace(0.0, 1.0, check_bin_count(n_bins, "calibration_error", True) + 1)
    edges = None
    if not isinstance(n_bins, (str, bytes)):
        try:
            edges = np.asarray(n_bins, dtype=np.float64)
        except (TypeError, ValueError):  # (strings, objects with no number)
            edges = None
    if (edges is None or edges.ndim != 1 or edges.size < 2 or not np.isfinite(edges).all()
            or not (np.diff(edges) > 0).all()):
        raise ValueError("calibration_error: n_bins must be a positive integer (at most 2**32) or "
                         "a strictly increasing array of at least two finite edges, not "
                         f"{shown(n_bins)}")
    if edges[0] > lowest:
        raise ValueError(f"calibration_error: n_bins: the lowest score, {float(lowest)!r}, is below "
                         f"the first edge, {float(edges[0])!r}")
    return edges


def calibration_error(thresholds: ArrayLike, positives: ArrayLike, negatives: ArrayLike, *,
                      n_bins: int | ArrayLike = 15, norm: Literal["l1", "l2", "max"] = "l1"
                      ) -> float:
    """torchmetrics' binary calibration error: the gap between share of positives and mean score, by bin.

    The scores (probabilities of the positive class, in [0, 1]) fall into
    the bins ``[e_i, e_(i+1))`` of the edges ``e = linspace(0, 1, n_bins + 1)``
    (a score of exactly 1 in a bin of its own, as torchmetrics' ``bucketize(...,
    right=True)``). ``n_bins`` may also be the edges themselves, a strictly
    increasing array from at most the lowest score (torchmetrics' ``_ce_compute``
    takes either): torch's ``linspace`` rounds some edges differently from
    numpy's (``torch.linspace(0, 1, 11)[6]`` is 0.6, numpy's 0.6000000000000001),
    which moves a score lying between the two roundings to the next bin; pass
    torch's edges to reproduce torchmetrics bit for bit there. With ``acc_i``
    the share of positive results of bin ``i``,
    ``conf_i`` their mean score and ``b_i`` the bin's share of all results:

    - ``"l1"``, the expected calibration error: ``sum_i b_i |acc_i - conf_i|``;
    - ``"l2"``, the root mean square calibration error: ``sqrt(sum_i b_i (acc_i - conf_i)²)``;
    - ``"max"``, the maximum calibration error: ``max_i |acc_i - conf_i|``
      (an empty bin has ``acc = conf = 0``).

    torchmetrics computes in float32 unless given float64 scores; this is
    float64, with each bin's count exact and its score sum rounded once.

    Reference: torchmetrics' ``BinaryCalibrationError``; M. P. Naeini, G. F.
    Cooper and M. Hauskrecht, AAAI 2015; A. Kumar, P. Liang and T. Ma,
    "Verified uncertainty calibration", NeurIPS 2019 (the l2 form).

    >>> calibration_error([0.75, 0.25], [1, 0], [1, 2], n_bins=2)  # |0.5 - 0.75| / 2 + |0 - 0.25| / 2
    0.25
    """
    norm = check_choice(norm, "norm", CALIBRATION_NORMS, "calibration_error")  # type: ignore[assignment]
    thr, pos, neg = _probabilities(thresholds, positives, negatives, "calibration_error")
    edges = _calibration_edges(n_bins, thr[-1])
    ascending, pos, neg = thr[::-1], pos[::-1], neg[::-1]
    results = pos + neg  # at most MAX_COUNT in all: int64
    codes = np.searchsorted(edges, ascending, side="right") - 1
    size = len(edges)
    return calibration_gap(_bin_totals(codes, results, size), _bin_totals(codes, pos, size),
                           _bin_sums(codes, ascending, results, size), _total(results), norm)


def calibration_gap(totals: NDArray[Any], positives: NDArray[Any], score_sums: Floats,
                    total: int | float, norm: Literal["l1", "l2", "max"]) -> float:
    """:func:`calibration_error` from its bins: each bin's weight of results, of positive results
    and sum of scores (exact, rounded once), the total weight, and a checked ``norm``.

    Its last step, and the whole of the running read of
    :class:`~contingency.ThresholdContingency`, whose counts keep the bins.

    >>> calibration_gap(np.array([3, 0, 2]), np.array([1, 0, 2]), np.array([0.6, 0.0, 1.8]), 5, "l1")
    0.12
    """
    nonzero = np.flatnonzero(totals != 0)
    accuracy = _quotients(positives[nonzero], totals[nonzero])
    confidence = score_sums[nonzero] / _quotients(
        totals[nonzero], np.ones(nonzero.size, dtype=np.int64))
    share = _quotients(totals[nonzero], np.full(nonzero.size, total, dtype=totals.dtype))
    gap = np.abs(accuracy - confidence)
    if norm == "max":
        return float(gap.max())
    if norm == "l1":
        return math.fsum(gap * share)
    return math.sqrt(math.fsum(gap * gap * share))
