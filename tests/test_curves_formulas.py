"""contingency.formulas.curves: scikit-learn's numbers on scikit-learn's inputs turned into per-score counts,
DeLong's variance against a plain O(n²) oracle, and the binned bounds around the exact reads."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
import sklearn
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import metrics
from sklearn.calibration import calibration_curve as sk_calibration_curve

from contingency.formulas import curves

# Raw results: (score, positive, weight). Scores from a small pool make ties; weight 0 results
# are left out by both sides.
SCORES = [0.0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1.0]
INTEGER_WEIGHTS = st.integers(0, 4)
FLOAT_WEIGHTS = st.floats(0.0, 3.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def samples(draw: Any, *, weights: str = "any", min_size: int = 1, scores: Any = None,
            both_classes: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_score, sample_weight)`` as scikit-learn takes them."""
    kind = draw(st.sampled_from(["none", "integer", "float"])) if weights == "any" else weights
    n = draw(st.integers(min_size, 25))
    score_pool = scores if scores is not None else st.one_of(
        st.sampled_from(SCORES), st.floats(0.0, 1.0, allow_nan=False, allow_subnormal=False))
    y_score = np.array(draw(st.lists(score_pool, min_size=n, max_size=n)), dtype=np.float64)
    y_true = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if kind == "none":
        sample_weight = None
    else:
        sample_weight = np.array(draw(st.lists(INTEGER_WEIGHTS if kind == "integer"
                                               else FLOAT_WEIGHTS, min_size=n, max_size=n)))
        if kind == "float":
            sample_weight = sample_weight.astype(np.float64)
    weight = np.ones(n) if sample_weight is None else sample_weight
    if both_classes:
        # make both classes present with non-zero weight (scikit-learn's curves need them)
        y_true[0], y_true[-1] = 1, 0
        if n == 1:
            y_score, y_true = np.append(y_score, y_score[0]), np.array([1, 0])
            weight = np.append(weight, weight[0])
            if sample_weight is not None:
                sample_weight = weight
        if sample_weight is not None:
            sample_weight[0] = sample_weight[-1] = 1
    return y_true, y_score, sample_weight


def per_score(y_true: np.ndarray, y_score: np.ndarray, sample_weight: np.ndarray | None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts an accumulator keeps: distinct scores, decreasing, and the weight of each class at each."""
    thresholds, codes = np.unique(y_score, return_inverse=True)
    weight = np.ones(len(y_score), dtype=np.int64) if sample_weight is None else sample_weight
    size = len(thresholds)
    if weight.dtype.kind in "iu":
        positives = np.zeros(size, dtype=np.int64)
        negatives = np.zeros(size, dtype=np.int64)
        np.add.at(positives, codes[y_true == 1], weight[y_true == 1])
        np.add.at(negatives, codes[y_true == 0], weight[y_true == 0])
    else:
        positives = np.bincount(codes, weights=np.where(y_true == 1, weight, 0.0), minlength=size)
        negatives = np.bincount(codes, weights=np.where(y_true == 0, weight, 0.0), minlength=size)
    return thresholds[::-1].copy(), positives[::-1].copy(), negatives[::-1].copy()


def exact_or_close(ours: np.ndarray, theirs: np.ndarray, exact: bool) -> None:
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    assert ours.shape == theirs.shape
    if exact:
        np.testing.assert_array_equal(ours, theirs)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def quiet(function: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def integer(sample_weight: np.ndarray | None) -> bool:
    return sample_weight is None or sample_weight.dtype.kind in "iu"


# ROC ----------------------------------------------------------------------------------------


@given(samples(), st.booleans())
@example((np.array([1, 0]), np.array([0.5, 0.5]), None), True)  # constant scores
@example((np.array([1, 1, 0, 0, 1, 0]), np.array([0.9, 0.9, 0.9, 0.1, 0.5, 0.5]), None), True)
def test_roc_curve_is_scikit_learns(sample, drop_intermediate):
    y_true, y_score, sample_weight = sample
    fpr, tpr, thresholds = metrics.roc_curve(y_true, y_score, sample_weight=sample_weight,
                                             drop_intermediate=drop_intermediate)
    ours = curves.roc_curve(*per_score(y_true, y_score, sample_weight),
                            drop_intermediate=drop_intermediate)
    exact = integer(sample_weight)  # integer counts: the same integers, one division each
    exact_or_close(ours[0], fpr, exact)
    exact_or_close(ours[1], tpr, exact)
    np.testing.assert_array_equal(ours[2], thresholds)


@pytest.mark.parametrize("absent", [0, 1])
def test_roc_curve_with_one_class_absent(absent):
    y_true = np.array([1 - absent] * 4)
    y_score = np.array([0.1, 0.4, 0.4, 0.8])
    counts = per_score(y_true, y_score, None)
    with pytest.raises(ValueError, match=r"no (positive|negative) result"):
        curves.roc_curve(*counts)
    fpr, tpr, thresholds = quiet(metrics.roc_curve, y_true, y_score)
    ours = curves.roc_curve(*counts, zero_division="nan")
    np.testing.assert_array_equal(ours[0], fpr)  # NaN where scikit-learn has NaN
    np.testing.assert_array_equal(ours[1], tpr)
    np.testing.assert_array_equal(ours[2], thresholds)


@given(samples(), st.one_of(st.none(), st.floats(0.01, 1.0), st.sampled_from([1.0, 0.5, 0.25])))
@example((np.array([1, 0]), np.array([0.5, 0.5]), None), 0.3)
# A product of two weights under- or overflowed: ZeroDivisionError, and a numpy overflow warning.
@example((np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.3, 0.1]), np.full(4, 3.2e-279)), None)
@example((np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.3, 0.1]), np.full(4, 1e200)), None)
def test_roc_auc_is_scikit_learns(sample, max_fpr):
    y_true, y_score, sample_weight = sample
    theirs = metrics.roc_auc_score(y_true, y_score, sample_weight=sample_weight, max_fpr=max_fpr)
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    ours = curves.roc_auc(positives, negatives, max_fpr=max_fpr)
    assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


@given(samples(weights="float"), st.integers(-900, 900))
# Found by the exploring profile: the test's own filter missed a weight scaled to 0.
@example((np.array([1, 0, 0]), np.array([0.0, 0.0, 0.1]), np.array([1.0, 3.1720088e-244, 1.0])), -267)
def test_roc_auc_of_float_weights_is_unchanged_by_a_power_of_two(sample, exponent):
    """Scaling every weight by 2**k is exact, and so must leave the area bit for bit (the
    columns are brought to totals near 1 before any product of two weights is taken)."""
    y_true, y_score, sample_weight = sample
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    if not (positives.sum() > 0 and negatives.sum() > 0):
        return
    scaled = [np.ldexp(column, exponent) for column in (positives, negatives)]
    if any(np.any((column != 0) & (np.abs(np.ldexp(column, exponent)) < 2.0**-1000))
           for column in (positives, negatives)):
        return  # (a weight scaled into the subnormal range, or to 0, is rounded: not exact)
    assert curves.roc_auc(*scaled) == curves.roc_auc(positives, negatives)


def mann_whitney_oracle(y_true, y_score, weight):
    """The AUC from every positive-negative pair: weight of pairs ordered right, ties half."""
    pos, neg = y_true == 1, y_true == 0
    sp, sn = y_score[pos][:, None], y_score[neg][None, :]
    wp, wn = weight[pos][:, None], weight[neg][None, :]
    pairs = wp * wn
    return ((pairs * ((sp > sn) + 0.5 * (sp == sn))).sum(), pairs.sum())


@given(samples(weights="integer"))
def test_roc_auc_of_integer_counts_is_the_exact_mann_whitney_ratio_rounded_once(sample):
    from fractions import Fraction

    y_true, y_score, sample_weight = sample
    weight = sample_weight.astype(object)
    pos, neg = y_true == 1, y_true == 0
    twice_u = sum(2 * int(wp * wn) if sp > sn else int(wp * wn) if sp == sn else 0
                  for sp, wp in zip(y_score[pos], weight[pos]) for sn, wn in zip(y_score[neg], weight[neg]))
    pairs = int(weight[pos].sum()) * int(weight[neg].sum())
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    assert curves.roc_auc(positives, negatives) == float(Fraction(twice_u, 2 * pairs))
    # the running statistic an accumulator keeps, and the read from it
    statistic = curves.mann_whitney(positives, negatives)
    assert statistic == (twice_u, int(weight[pos].sum()), int(weight[neg].sum()))
    assert all(type(x) is int for x in statistic)
    assert curves.auc_from_mann_whitney(*statistic) == curves.roc_auc(positives, negatives)


def test_roc_auc_exact_past_int64():
    """2U passes int64 here; the area is still the one rounding of the exact ratio."""
    big = 2**60
    positives = np.array([big, 1, big - 7])
    negatives = np.array([3, big, big - 1])
    # exact, in Python integers: 2U = sum pos (2 below + neg)
    n = 3 + big + big - 1
    below = [n - 3, n - 3 - big, 0]
    twice_u = sum(p * (2 * b + q) for p, b, q in zip(positives.tolist(), below, negatives.tolist()))
    from fractions import Fraction
    expected = float(Fraction(twice_u, 2 * int(positives.sum(dtype=object)) * n))
    assert curves.roc_auc(positives, negatives) == expected


@pytest.mark.parametrize("absent", [0, 1])
def test_roc_auc_with_one_class_absent(absent):
    y_true = np.array([1 - absent] * 3)
    y_score = np.array([0.2, 0.6, 0.6])
    _, positives, negatives = per_score(y_true, y_score, None)
    assert math.isnan(quiet(metrics.roc_auc_score, y_true, y_score))
    assert math.isnan(curves.roc_auc(positives, negatives, zero_division="nan"))
    assert curves.roc_auc(positives, negatives, zero_division=0.0) == 0.0
    with pytest.raises(ValueError, match="roc_auc is undefined: no"):
        curves.roc_auc(positives, negatives)


def test_empty_counts_are_refused():
    for call in (lambda: curves.roc_auc([], []), lambda: curves.roc_curve([], [], []),
                 lambda: curves.average_precision([0], [0]),
                 lambda: curves.precision_recall_curve([0.5], [0], [0])):
        with pytest.raises(ValueError, match="at least one result of non-zero weight"):
            call()


@pytest.mark.parametrize(("arguments", "message"), [
    (([0.2, 0.5], [1, 0], [0, 1]), "strictly decreasing"),
    (([0.5, 0.5], [1, 0], [0, 1]), "strictly decreasing"),
    (([0.5, np.nan], [1, 0], [0, 1]), "finite"),
    (([0.5], [1, 0], [0, 1]), "one length"),
    (([0.5], [-1], [0]), "positives must be non-negative"),
    (([0.5], [1], [np.inf]), "negatives must be finite"),
    (([0.5], [[1]], [[0]]), "1-d"),
])
def test_bad_counts_are_refused_by_name(arguments, message):
    with pytest.raises(ValueError, match=message):
        curves.roc_curve(*arguments)


def test_max_fpr_is_checked():
    for bad in (0, 1.5, -0.1, True):
        with pytest.raises(ValueError, match=r"^roc_auc: max_fpr must be a number in"):
            curves.roc_auc([1, 0], [0, 1], max_fpr=bad)


# Precision-recall ---------------------------------------------------------------------------


@given(samples(both_classes=False), st.booleans())
@example((np.array([0, 0, 0]), np.array([0.1, 0.2, 0.3]), None), False)  # no positive
@example((np.array([1, 0]), np.array([0.5, 0.5]), None), True)
def test_precision_recall_curve_is_scikit_learns(sample, drop_intermediate):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true)) if sample_weight is None else sample_weight
    if not (weight > 0).any():
        return  # scikit-learn has nothing to sort; ours refuses (tested above)
    precision, recall, thresholds = quiet(metrics.precision_recall_curve, y_true, y_score,
                                          sample_weight=sample_weight,
                                          drop_intermediate=drop_intermediate)
    ours = curves.precision_recall_curve(*per_score(y_true, y_score, sample_weight),
                                         drop_intermediate=drop_intermediate)
    exact = integer(sample_weight)
    exact_or_close(ours[0], precision, exact)
    exact_or_close(ours[1], recall, exact)
    np.testing.assert_array_equal(ours[2], thresholds)


@given(samples(both_classes=False))
@example((np.array([0, 0, 0]), np.array([0.1, 0.2, 0.3]), None))
@example((np.array([1, 1]), np.array([0.5, 0.5]), None))
# Found by the exploring profile: a weight's square underflowed to 0 (AP read 0.0, not 1.0).
@example((np.array([1]), np.array([0.0]), np.array([3.19863852e-279])))
@example((np.array([1, 1, 0]), np.array([0.9, 0.5, 0.5]), np.array([1e200, 1e200, 1e200])))
def test_average_precision_is_scikit_learns(sample):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true)) if sample_weight is None else sample_weight
    if not (weight > 0).any():
        return
    theirs = quiet(metrics.average_precision_score, y_true, y_score, sample_weight=sample_weight)
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    if not (weight[y_true == 1] > 0).any():  # no positive: scikit-learn's 0 is zero_division=0.0
        assert theirs == 0.0
        assert curves.average_precision(positives, negatives, zero_division=0.0) == 0.0
        with pytest.raises(ValueError, match="average_precision is undefined: no positive"):
            curves.average_precision(positives, negatives)
        return
    assert curves.average_precision(positives, negatives) == pytest.approx(theirs, rel=1e-12,
                                                                           abs=1e-15)


def test_average_precision_is_the_mean_precision_at_the_positives():
    """Distinct scores: AP = mean over positives of (positives at or above) / (rank)."""
    labels = [1, 0, 1, 1, 0, 0, 1, 0]  # highest score first
    ranks = [rank for rank, label in enumerate(labels, 1) if label]
    expected = sum((i + 1) / rank for i, rank in enumerate(ranks)) / len(ranks)
    positives = np.array(labels)
    assert curves.average_precision(positives, 1 - positives) == pytest.approx(expected, rel=1e-15)


# Counts at a threshold ----------------------------------------------------------------------


@given(samples(), st.one_of(st.sampled_from([*SCORES, -math.inf, math.inf, 0.2]), st.floats(-1, 2)))
def test_counts_at_a_threshold_are_those_of_the_raw_results(sample, t):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true), dtype=np.int64) if sample_weight is None else sample_weight
    predicted = y_score >= t
    expected = [weight[predicted & (y_true == 1)].sum(), weight[predicted & (y_true == 0)].sum(),
                weight[~predicted & (y_true == 1)].sum(), weight[~predicted & (y_true == 0)].sum()]
    ours = curves.counts_at(*per_score(y_true, y_score, sample_weight), t)
    if integer(sample_weight):
        assert ours == tuple(int(x) for x in expected)
        assert all(type(x) is int for x in ours)
    else:
        assert ours == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_counts_at_refuses_nan():
    with pytest.raises(ValueError, match=r"^counts_at: the threshold t must be a number"):
        curves.counts_at([0.5], [1], [0], math.nan)
    with pytest.raises(TypeError, match=r"^thresholds_above: the threshold t must be a number"):
        curves.thresholds_above(np.array([0.5]), "0.5")  # type: ignore[arg-type]


def test_scikit_learn_is_recent_enough_for_these_comparisons():
    """roc_curve's first threshold inf and drop_intermediate of the PR curve are scikit-learn >= 1.3."""
    assert tuple(int(part) for part in sklearn.__version__.split(".")[:2]) >= (1, 3)


# DET ----------------------------------------------------------------------------------------


@given(samples(), st.booleans())
@example((np.array([1, 0]), np.array([0.5, 0.5]), None), False)
@example((np.array([1, 0, 0, 1, 1, 0]), np.array([0.9, 0.9, 0.1, 0.1, 0.5, 0.7]), None), True)
def test_det_curve_is_scikit_learns(sample, drop_intermediate):
    y_true, y_score, sample_weight = sample
    fpr, fnr, thresholds = metrics.det_curve(y_true, y_score, sample_weight=sample_weight,
                                             drop_intermediate=drop_intermediate)
    ours = curves.det_curve(*per_score(y_true, y_score, sample_weight),
                            drop_intermediate=drop_intermediate)
    exact = integer(sample_weight)
    exact_or_close(ours[0], fpr, exact)
    exact_or_close(ours[1], fnr, exact)
    np.testing.assert_array_equal(ours[2], thresholds)


def test_det_curve_needs_both_classes():
    with pytest.raises(ValueError, match="only one class is present"):
        curves.det_curve([0.9, 0.2], [1, 3], [0, 0])
    with pytest.raises(ValueError, match=r"(?i)only one class"):
        metrics.det_curve([1, 1], [0.9, 0.2])


# Probabilities ------------------------------------------------------------------------------


@given(samples(both_classes=False))
@example((np.array([1, 1]), np.array([1.0, 0.0]), None))
def test_brier_score_is_scikit_learns(sample):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true)) if sample_weight is None else sample_weight
    if not (weight > 0).any():
        return
    theirs = metrics.brier_score_loss(y_true, y_score, sample_weight=sample_weight, labels=[0, 1])
    ours = curves.brier_score(*per_score(y_true, y_score, sample_weight))
    assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-15)


@given(samples(both_classes=False))
@example((np.array([1, 0]), np.array([0.0, 1.0]), None))  # confident mistakes: the clipping
@example((np.array([1, 0]), np.array([1.0, 0.0]), None))
def test_log_loss_is_scikit_learns(sample):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true)) if sample_weight is None else sample_weight
    if not (weight > 0).any():
        return
    theirs = metrics.log_loss(y_true, y_score, sample_weight=sample_weight, labels=[0, 1])
    ours = curves.log_loss(*per_score(y_true, y_score, sample_weight))
    assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-15)


@given(st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 2.0**-53, 1 - 2.0**-53,
                                                             5e-324, 0.5])), min_size=1),
       st.sampled_from([curves.LOG_LOSS_EPS, 0.0, 0, 1e-15, 0.25]))
def test_the_loss_of_one_result_is_the_same_on_a_float_and_in_an_array(scores, eps):
    """brier_loss and log_loss_of are the terms' one definition, for the running sums (a Python
    float) and the formulas (arrays): the same bits either way, and the log loss's logarithm is
    math.log's (numpy's may differ in the last bit)."""
    array = np.array(scores, dtype=np.float64)
    for positive in (True, False):
        assert curves.brier_loss(array, positive).tolist() == [
            curves.brier_loss(score, positive) for score in scores]
        losses = curves.log_loss_of(array, positive, eps)
        one_by_one = [curves.log_loss_of(score, positive, eps) for score in scores]
        assert losses.tolist() == one_by_one
        for score, loss in zip(scores, one_by_one):
            probability = min(max(score if positive else 1.0 - score, eps), 1 - eps)
            assert loss == (-math.log(probability) if probability else math.inf)


def test_log_loss_eps_is_checked_and_used():
    assert curves.log_loss([1.0], [0], [1], eps=0.1) == pytest.approx(-math.log(0.1))
    with pytest.raises(ValueError, match=r"^log_loss: eps must be"):
        curves.log_loss([0.5], [1], [0], eps="tiny")
    with pytest.raises(ValueError, match=r"^log_loss: eps must be"):
        curves.log_loss([0.5], [1], [0], eps=0.5)


def test_probabilities_outside_zero_one_are_refused():
    for function in (curves.brier_score, curves.log_loss, curves.calibration_curve,
                     curves.calibration_error):
        with pytest.raises(ValueError, match=r"every score must be in \[0, 1\], not 1.5"):
            function([1.5, 0.5], [1, 0], [0, 1])


@given(samples(weights="none", min_size=2), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
@example((np.array([1, 0, 1]), np.array([0.2, 0.2, 0.2]), None), 5, "quantile")  # constant scores
@example((np.array([1, 0, 1, 0]), np.array([0.0, 0.5, 1.0, 0.4]), None), 2, "uniform")  # on an edge
def test_calibration_curve_is_scikit_learns(sample, n_bins, strategy):
    y_true, y_score, _ = sample
    prob_true, prob_pred = sk_calibration_curve(y_true, y_score, n_bins=n_bins, strategy=strategy)
    ours = curves.calibration_curve(*per_score(y_true, y_score, None), n_bins=n_bins,
                                    strategy=strategy)
    exact_or_close(ours[0], prob_true, True)  # shares of integer counts: one division each
    exact_or_close(ours[1], prob_pred, False)


@given(samples(weights="integer"), st.integers(1, 8))
def test_calibration_curve_weights_count_as_repeated_results(sample, n_bins):
    """scikit-learn's calibration_curve takes no weights: an integer weight is that many copies."""
    y_true, y_score, sample_weight = sample
    repeated = np.repeat(np.arange(len(y_true)), sample_weight)
    for strategy in ("uniform", "quantile"):
        theirs = sk_calibration_curve(y_true[repeated], y_score[repeated], n_bins=n_bins,
                                      strategy=strategy)
        ours = curves.calibration_curve(*per_score(y_true, y_score, sample_weight), n_bins=n_bins,
                                        strategy=strategy)
        exact_or_close(ours[0], theirs[0], True)
        exact_or_close(ours[1], theirs[1], False)


def test_calibration_curve_quantile_needs_integer_counts():
    with pytest.raises(ValueError, match="needs integer counts"):
        curves.calibration_curve([0.5, 0.2], [1.5, 0.0], [0.0, 1.0], strategy="quantile")
    with pytest.raises(ValueError, match="strategy must be"):
        curves.calibration_curve([0.5], [1], [0], strategy="kmeans")


def calibration_error_oracle(y_true, y_score, weight, n_bins, norm):
    """torchmetrics' documented definition, written plainly from the raw results, one bin at a time."""
    edges = np.linspace(0, 1, n_bins + 1)
    gaps, shares = [], []
    for i in range(n_bins + 1):  # the last "bin" holds the scores equal to 1
        inside = (y_score >= edges[i]) & ((y_score < edges[i + 1]) if i < n_bins else True)
        total = weight[inside].sum()
        if total == 0:
            gaps.append(0.0)
            shares.append(0.0)
            continue
        accuracy = (weight[inside] * y_true[inside]).sum() / total
        confidence = (weight[inside] * y_score[inside]).sum() / total
        gaps.append(abs(accuracy - confidence))
        shares.append(total / weight.sum())
    gaps_a, shares_a = np.array(gaps), np.array(shares)
    if norm == "l1":
        return float((gaps_a * shares_a).sum())
    if norm == "l2":
        return math.sqrt(float((gaps_a**2 * shares_a).sum()))
    return float(gaps_a.max())


@given(samples(), st.integers(1, 20), st.sampled_from(["l1", "l2", "max"]))
@example((np.array([1, 0, 1]), np.array([1.0, 1.0, 0.5]), None), 2, "max")
def test_calibration_error_is_its_definition(sample, n_bins, norm):
    y_true, y_score, sample_weight = sample
    weight = np.ones(len(y_true)) if sample_weight is None else sample_weight.astype(np.float64)
    expected = calibration_error_oracle(y_true, y_score, weight, n_bins, norm)
    ours = curves.calibration_error(*per_score(y_true, y_score, sample_weight), n_bins=n_bins,
                                    norm=norm)
    assert ours == pytest.approx(expected, rel=1e-12, abs=1e-14)


def golden(name: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parent / "golden" / name
    return json.loads(path.read_text(encoding="utf-8"))


TORCHMETRICS = golden("torchmetrics/curves.json")


@pytest.mark.parametrize("case", TORCHMETRICS["cases"], ids=lambda case: str(len(case["preds"])))
def test_torchmetrics_golden_values(case):
    """torchmetrics' BinaryCalibrationError, BinaryAUROC and BinaryAveragePrecision (float64),
    stored by tests/golden/make_torchmetrics_curves.py."""
    y_true, y_score = np.array(case["target"]), np.array(case["preds"])
    counts = per_score(y_true, y_score, None)
    checked = 0
    for name, stored in case["outputs"].items():
        if "thresholds=" in name:
            continue  # binned: test_torchmetrics_golden_binned_values
        assert stored["dtype"] == "float64"
        if name.startswith("BinaryCalibrationError"):
            n_bins = int(name.split("n_bins=")[1].split(",")[0])
            norm = name.split("norm='")[1].split("'")[0]
            edges = np.array(case["edges"][str(n_bins)])
            ours = curves.calibration_error(*counts, n_bins=edges, norm=norm)
            if np.array_equal(edges, np.linspace(0, 1, n_bins + 1)):  # the same bins either way
                assert curves.calibration_error(*counts, n_bins=n_bins, norm=norm) == ours
        elif name == "BinaryAUROC()":
            ours = curves.roc_auc(counts[1], counts[2])
        elif name.startswith("BinaryAUROC(max_fpr="):
            ours = curves.roc_auc(counts[1], counts[2], max_fpr=case["max_fpr"])
        else:
            assert name == "BinaryAveragePrecision()"
            ours = curves.average_precision(counts[1], counts[2])
        assert ours == pytest.approx(stored["value"], rel=1e-12, abs=1e-14), name
        checked += 1
    assert checked == len(case["outputs"]) - 3 >= 6


@pytest.mark.parametrize("case", TORCHMETRICS["cases"], ids=lambda case: str(len(case["preds"])))
def test_torchmetrics_golden_binned_values(case):
    """torchmetrics' binned reads (thresholds=T: "score >= t" counted at T edges) are ours on the
    counts per bin, each bin's lower edge its threshold: the accumulator's binned state. torchmetrics
    computes them in float32."""
    y_true, y_score = np.array(case["target"]), np.array(case["preds"])
    binned = case["binned"]
    roc = case["outputs"][f"BinaryROC(thresholds={binned})"]
    edges = np.array(roc["thresholds"]["value"])[::-1]  # ascending
    thresholds, positives, negatives = bin_counts(y_true, y_score, edges)
    first_fpr, first_tpr = roc["fpr"]["value"][0], roc["tpr"]["value"][0]
    # torchmetrics' binned curve starts at its top threshold, 1.0, not at (0, 0) as scikit-learn's
    # (and ours): with scores of exactly 1 its trapezoid misses the triangle to the origin.
    missing = first_fpr * first_tpr / 2
    for name, ours in ((f"BinaryAUROC(thresholds={binned})",
                        curves.roc_auc(positives, negatives) - missing),
                       (f"BinaryAveragePrecision(thresholds={binned})",
                        curves.average_precision(positives, negatives))):
        stored = case["outputs"][name]
        assert stored["dtype"] == "float32"
        assert ours == pytest.approx(stored["value"], rel=1e-6), name
    # each point of torchmetrics' binned ROC curve is the table at its threshold
    big_p, big_n = int(positives.sum()), int(negatives.sum())
    for t, fpr, tpr in zip(roc["thresholds"]["value"], roc["fpr"]["value"], roc["tpr"]["value"]):
        tp, fp, _, _ = curves.counts_at(thresholds, positives, negatives, t)
        assert (fp / big_n, tp / big_p) == pytest.approx((fpr, tpr), rel=1e-6, abs=1e-7)
    # and our binned ROC curve passes through every one of those points
    fpr, tpr, _ = curves.roc_curve(thresholds, positives, negatives, drop_intermediate=False)
    ours = set(zip(np.float32(fpr).tolist(), np.float32(tpr).tolist()))
    theirs = set(zip(np.float32(roc["fpr"]["value"]).tolist(), np.float32(roc["tpr"]["value"]).tolist()))
    assert ours - theirs <= {(0.0, 0.0)}
    assert theirs <= ours


# The AUC's variance and interval ------------------------------------------------------------


def delong_oracle(y_true, y_score):
    """DeLong's variance from the raw scores, O(n²), in exact fractions, as the 1988 paper writes it."""
    positive = [Fraction(float(s)) for s, y in zip(y_score, y_true) if y == 1]
    negative = [Fraction(float(s)) for s, y in zip(y_score, y_true) if y == 0]
    m, n = len(positive), len(negative)

    def psi(x, y):
        return Fraction(1) if x > y else Fraction(1, 2) if x == y else Fraction(0)

    v10 = [sum(psi(x, y) for y in negative) / n for x in positive]
    v01 = [sum(psi(x, y) for x in positive) / m for y in negative]
    auc = sum(v10) / m
    s10 = sum((v - auc) ** 2 for v in v10) / (m - 1)
    s01 = sum((v - auc) ** 2 for v in v01) / (n - 1)
    return auc, s10 / m + s01 / n


@given(samples(weights="integer", min_size=4))
@example((np.array([1, 1, 0, 0]), np.array([0.5, 0.5, 0.5, 0.5]), np.array([1, 1, 1, 1])))
def test_delong_variance_is_the_plain_quadratic_one_exactly(sample):
    y_true, y_score, sample_weight = sample
    repeated = np.repeat(np.arange(len(y_true)), sample_weight)
    y_raw, s_raw = y_true[repeated], y_score[repeated]
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    if min((y_raw == 1).sum(), (y_raw == 0).sum()) < 2:
        with pytest.raises(ValueError, match="the AUC's variance is undefined"):
            curves.roc_auc_variance(positives, negatives)
        assert math.isnan(curves.roc_auc_variance(positives, negatives, zero_division="nan"))
        return
    auc, variance = delong_oracle(y_raw, s_raw)
    assert curves.roc_auc(positives, negatives) == float(auc)
    assert curves.roc_auc_variance(positives, negatives) == float(variance)  # both rounded once


@given(samples(weights="integer", min_size=4))
def test_delong_variance_of_float_weights_is_that_of_frequencies(sample):
    """The float path (weights as float64, here whole numbers) against the exact oracle on the
    results repeated as often as their weight."""
    y_true, y_score, sample_weight = sample
    repeated = np.repeat(np.arange(len(y_true)), sample_weight)
    y_raw, s_raw = y_true[repeated], y_score[repeated]
    if min((y_raw == 1).sum(), (y_raw == 0).sum()) < 2:
        return
    _, positives, negatives = per_score(y_true, y_score, sample_weight.astype(np.float64))
    assert positives.dtype == np.float64
    _, variance = delong_oracle(y_raw, s_raw)
    assert curves.roc_auc_variance(positives, negatives) == pytest.approx(float(variance),
                                                                          rel=1e-13, abs=1e-16)


PROC = golden("proc/delong.json")


@pytest.mark.parametrize("case", PROC["cases"], ids=lambda case: str(len(case["scores"])))
def test_proc_golden_delong(case):
    """pROC's var(method="delong") and ci.auc(method="delong"), stored by tests/golden/make_proc.R."""
    y_true, y_score = np.array(case["classes"]), np.array(case["scores"], dtype=np.float64)
    _, positives, negatives = per_score(y_true, y_score, None)
    assert curves.roc_auc(positives, negatives) == pytest.approx(case["auc"][0], rel=1e-12)
    assert curves.roc_auc_variance(positives, negatives) == pytest.approx(
        case["variance"][0], rel=1e-12, abs=1e-15)
    low, _, high = curves.roc_auc_interval(positives, negatives, level=case["level"])
    assert (low, high) == pytest.approx(tuple(case["ci"]), rel=1e-12, abs=1e-12)


def test_hanley_mcneil_is_their_equation():
    """Hanley and McNeil (1982), equation 2, written out: A = 0.9 with 50 positives and 50 negatives."""
    positives = np.zeros(3, dtype=np.int64)
    negatives = np.zeros(3, dtype=np.int64)
    # U = 0.9 * 2500 = 2250: 45 positives above all 50 negatives, 5 positives below all of them.
    positives[0], negatives[1], positives[2] = 45, 50, 5
    assert curves.roc_auc(positives, negatives) == 0.9
    a, p, n = 0.9, 50, 50
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    expected = (a * (1 - a) + (p - 1) * (q1 - a * a) + (n - 1) * (q2 - a * a)) / (p * n)
    variance = curves.roc_auc_variance(positives, negatives, method="hanley_mcneil")
    assert variance == pytest.approx(expected, rel=1e-15)
    assert round(math.sqrt(variance), 4) == 0.0321


@pytest.mark.parametrize(("m", "n"), [(2, 2), (5, 3), (40, 17), (1000, 999)])
def test_hanley_mcneil_at_half_is_the_null_variance_of_mann_whitney(m, n):
    """At A = 1/2 (Q1 = Q2 = 1/3) the formula is (m + n + 1) / (12 m n), the variance of U / mn
    under no discrimination (Mann and Whitney 1947): an independent fact it must meet."""
    positives, negatives = np.array([m]), np.array([n])  # all tied: A = 1/2 exactly
    assert curves.roc_auc(positives, negatives) == 0.5
    variance = curves.roc_auc_variance(positives, negatives, method="hanley_mcneil")
    assert variance == pytest.approx((m + n + 1) / (12 * m * n), rel=1e-14)


def test_auc_interval_is_normal_and_clipped():
    positives, negatives = np.array([3, 1, 2, 0]), np.array([0, 2, 1, 3])
    for method in curves.AUC_VARIANCE_METHODS:
        low, estimate, high = curves.roc_auc_interval(positives, negatives, level=0.9, method=method)
        spread = NormalDist().inv_cdf(0.95) * math.sqrt(
            curves.roc_auc_variance(positives, negatives, method=method))
        assert estimate == curves.roc_auc(positives, negatives)
        assert low == pytest.approx(max(0.0, estimate - spread), rel=1e-15)
        assert high == min(1.0, estimate + spread)
    with pytest.raises(ValueError, match=r"^roc_auc_interval: level must be a number between 0 and 1"):
        curves.roc_auc_interval(positives, negatives, level=95)
    with pytest.raises(ValueError, match="method must be one of 'delong', 'hanley_mcneil'"):
        curves.roc_auc_variance(positives, negatives, method="bootstrap")  # type: ignore[arg-type]


@pytest.mark.parametrize("level", [np.array([0.9, 0.95]), np.array(0.9), True, math.nan, 0, 1, 95,
                                   "0.9", None])
def test_the_auc_and_average_precision_intervals_refuse_a_level_naming_their_own_call(level):
    """Called directly, each names the argument and its own call (the level's error named no call)."""
    positives, negatives = np.array([3, 1, 2, 0]), np.array([0, 2, 1, 3])
    for name, call in (
            ("roc_auc_interval", lambda: curves.roc_auc_interval(positives, negatives, level=level)),
            ("average_precision_interval",
             lambda: curves.average_precision_interval(positives, negatives, level=level)),
            ("hanley_mcneil_interval", lambda: curves.hanley_mcneil_interval(11, 3, 3, level=level))):
        with pytest.raises(ValueError, match=rf"^{name}: level must be a number between 0 and 1 "
                           r"\(exclusive\), such as 0.95, not "):
            call()


@pytest.mark.parametrize("method", [np.array(["delong", "hanley_mcneil"]), np.array(["delong"]),
                                    np.array("delong"), True, None, math.nan, b"delong",
                                    "bootstrap"])
def test_the_auc_variance_and_interval_refuse_a_method_that_is_not_one_by_name(method):
    """Called directly, each names the argument and its own call: an array was numpy's "truth
    value is ambiguous", and the interval's error named the variance's call."""
    positives, negatives = np.array([3, 1, 2, 0]), np.array([0, 2, 1, 3])
    for call in ("roc_auc_variance", "roc_auc_interval"):
        with pytest.raises(ValueError, match=rf"^{call}: method must be one of 'delong', "
                                             r"'hanley_mcneil', not "):
            getattr(curves, call)(positives, negatives, method=method)
    assert (curves.roc_auc_interval(positives, negatives, method=np.str_("hanley_mcneil"))
            == curves.roc_auc_interval(positives, negatives, method="hanley_mcneil"))


# Binned mode: the certified bounds ----------------------------------------------------------


@st.composite
def binned(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw scores in [0, 1], both classes, and sorted bin edges over [0, 1]."""
    n = draw(st.integers(2, 40))
    y_score = np.array(draw(st.lists(st.one_of(st.floats(0, 1, allow_subnormal=False),
                                               st.sampled_from(SCORES)), min_size=n, max_size=n)))
    y_true = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y_true[0], y_true[-1] = 1, 0
    inner = draw(st.lists(st.floats(0.01, 0.99), max_size=8, unique=True))
    edges = np.array(sorted({0.0, *inner}))
    # Edges at least 1e-6 apart: the tests place scores inside each bin (a bin a few ulps wide,
    # which the exploring profile drew, has no room for them).
    return y_true, y_score, edges[np.append(True, np.diff(edges) > 1e-6)]


def bin_counts(y_true, y_score, edges):
    """Per-bin counts: each bin's lower edge as its threshold (the accumulator's binned state)."""
    codes = np.searchsorted(edges, y_score, side="right") - 1
    positives = np.bincount(codes[y_true == 1], minlength=len(edges))
    negatives = np.bincount(codes[y_true == 0], minlength=len(edges))
    return edges[::-1].copy(), positives[::-1].copy(), negatives[::-1].copy()


@given(binned())
def test_exact_auc_lies_within_the_bound_of_the_binned_read(sample):
    y_true, y_score, edges = sample
    _, positives, negatives = bin_counts(y_true, y_score, edges)
    read = curves.roc_auc(positives, negatives)
    bound = curves.roc_auc_bound(positives, negatives)
    exact = metrics.roc_auc_score(y_true, y_score)
    assert read - bound - 1e-15 <= exact <= read + bound + 1e-15


@given(binned(), st.booleans())
@example((np.array([1, 0, 0, 0, 0, 0, 0, 0, 0]), np.zeros(9), np.array([0.0, 0.5])), False)
def test_the_auc_bound_is_reached(sample, upward):
    """Within each bin, every positive scored above every negative (or below): the bound is met."""
    y_true, y_score, edges = sample
    codes = np.searchsorted(edges, y_score, side="right") - 1
    # place the results of bin b at distinct scores inside it, the positives on top (or bottom)
    width = np.diff(np.append(edges, 1.0 + 1e-9))
    order = np.lexsort((y_true if upward else 1 - y_true, codes))
    placed = np.empty(len(y_score))
    for rank, index in enumerate(order):
        b = codes[index]
        placed[index] = edges[b] + width[b] * (rank + 1) / (len(order) + 2)
    _, positives, negatives = bin_counts(y_true, placed, edges)
    np.testing.assert_array_equal(positives, bin_counts(y_true, y_score, edges)[1])
    np.testing.assert_array_equal(negatives, bin_counts(y_true, y_score, edges)[2])
    read = curves.roc_auc(positives, negatives)
    bound = curves.roc_auc_bound(positives, negatives)
    exact = metrics.roc_auc_score(y_true, placed)
    assert exact == pytest.approx(read + bound if upward else read - bound, rel=1e-12, abs=1e-15)


@given(samples(weights="float"))
def test_mann_whitney_of_weights_is_the_weighted_pair_count(sample):
    y_true, y_score, sample_weight = sample
    ordered, pairs = mann_whitney_oracle(y_true, y_score, sample_weight)
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    twice_u, p, n = curves.mann_whitney(positives, negatives)
    assert twice_u == pytest.approx(2 * ordered, rel=1e-12, abs=1e-12)
    assert p * n == pytest.approx(pairs, rel=1e-12)
    assert curves.auc_from_mann_whitney(twice_u, p, n) == curves.roc_auc(positives, negatives)


def test_auc_from_mann_whitney_undefined_and_bound_from_shared_pairs():
    assert math.isnan(curves.auc_from_mann_whitney(0, 0, 5, zero_division="nan"))
    with pytest.raises(ValueError, match="roc_auc is undefined: no negative"):
        curves.auc_from_mann_whitney(0, 3, 0)
    positives, negatives = np.array([3, 0, 1]), np.array([1, 2, 3])
    assert curves.auc_bound_from_shared_pairs(3 * 1 + 1 * 3, 4, 6) == curves.roc_auc_bound(
        positives, negatives)
    assert curves.auc_bound_from_shared_pairs(0, 4, 6) == 0.0


def test_the_auc_bound_is_the_shared_pairs_rounded_up():
    positives, negatives = np.array([3, 1]), np.array([1, 3])
    assert curves.roc_auc_bound(positives, negatives) == (3 * 1 + 1 * 3) / (2 * 4 * 4)
    third = curves.roc_auc_bound([1, 0], [1, 2])  # 1 / (2 * 1 * 3) = 1/6, not a double
    assert Fraction(third) >= Fraction(1, 6) > Fraction(math.nextafter(third, 0))
    assert curves.roc_auc_bound([1, 0], [0, 0]) == 0.0


@given(binned())
def test_exact_average_precision_lies_within_the_bounds_of_the_binned_read(sample):
    y_true, y_score, edges = sample
    _, positives, negatives = bin_counts(y_true, y_score, edges)
    low, high = curves.average_precision_bounds(positives, negatives)
    read = curves.average_precision(positives, negatives)
    exact = metrics.average_precision_score(y_true, y_score)
    assert low - 1e-12 <= exact <= high + 1e-12
    assert low - 1e-12 <= read <= high + 1e-12


@given(binned())
def test_the_upper_average_precision_bound_is_reached(sample):
    """Each bin's positives tied at its top, its negatives below: the exact AP is the upper bound."""
    y_true, y_score, edges = sample
    codes = np.searchsorted(edges, y_score, side="right") - 1
    width = np.diff(np.append(edges, 1.0 + 1e-9))
    placed = edges[codes] + width[codes] * np.where(y_true == 1, 0.75, 0.25)
    _, positives, negatives = bin_counts(y_true, placed, edges)
    _, high = curves.average_precision_bounds(positives, negatives)
    assert metrics.average_precision_score(y_true, placed) == pytest.approx(high, rel=1e-12)


def test_average_precision_bounds_without_positives_are_undefined():
    with pytest.raises(ValueError, match="average_precision is undefined: no positive"):
        curves.average_precision_bounds([0, 0], [1, 2])
    assert curves.average_precision_bounds([0, 0], [1, 2], zero_division=0.0) == (0.0, 0.0)


def test_the_lower_average_precision_bound_is_approached():
    """One bin, F negatives above p positives in strict order: AP = sum (i / (F + i)) / p, which
    tends to the integral bound as p grows."""
    f = 10
    for p in (10, 1000, 100_000):
        _, high = curves.average_precision_bounds([p], [f])
        low, _ = curves.average_precision_bounds([p], [f])
        worst = math.fsum(i / (f + i) for i in range(1, p + 1)) / p
        assert low <= worst <= high
        assert worst - low <= f / p  # the gap shrinks as 1/p


# Counts past float64's exact integers and int64's products ----------------------------------

HUGE_POSITIVES = np.array([2**61 + 3, 7, 2**60 + 1, 0, 5])
HUGE_NEGATIVES = np.array([1, 2**61 - 1, 3, 2**59 + 11, 2**40])


def test_auc_variance_of_huge_counts_is_the_per_score_definition_exactly():
    """Past int64's products the AUC takes Python integers (exact) and the variance float64 on the
    centred components; the centred per-score form in fractions is the oracle."""
    pos, neg = [int(x) for x in HUGE_POSITIVES], [int(x) for x in HUGE_NEGATIVES]
    p, n = sum(pos), sum(neg)
    below = [n - sum(neg[: k + 1]) for k in range(len(neg))]
    above = [sum(pos[:k]) for k in range(len(pos))]
    v10 = [Fraction(2 * b + q, 2 * n) for b, q in zip(below, neg)]
    v01 = [Fraction(2 * a + q, 2 * p) for a, q in zip(above, pos)]
    auc = sum(w * v for w, v in zip(pos, v10)) / p
    s10 = sum(w * (v - auc) ** 2 for w, v in zip(pos, v10)) / (p - 1)
    s01 = sum(w * (v - auc) ** 2 for w, v in zip(neg, v01)) / (n - 1)
    assert curves.roc_auc(HUGE_POSITIVES, HUGE_NEGATIVES) == float(auc)
    assert curves.roc_auc_variance(HUGE_POSITIVES, HUGE_NEGATIVES) == pytest.approx(
        float(s10 / p + s01 / n), rel=1e-14)


@pytest.mark.parametrize("size", [1_200_000, 1_400_000])
def test_auc_variance_on_both_sides_of_the_exact_range(size):
    """Classes of about 1.3 million results: exact below (the centred fractions' double), float
    above; the two agree to 1e-14 with the definition either way."""
    positives = np.array([size // 2, size // 4, size - size // 2 - size // 4, 0])
    negatives = np.array([size // 5, size // 3, size // 7, size - size // 5 - size // 3 - size // 7])
    pos, neg = positives.tolist(), negatives.tolist()
    p, n = sum(pos), sum(neg)
    below = [n - sum(neg[: k + 1]) for k in range(4)]
    above = [sum(pos[:k]) for k in range(4)]
    v10 = [Fraction(2 * b + q, 2 * n) for b, q in zip(below, neg)]
    v01 = [Fraction(2 * a + q, 2 * p) for a, q in zip(above, pos)]
    auc = sum(w * v for w, v in zip(pos, v10)) / p
    variance = (sum(w * (v - auc) ** 2 for w, v in zip(pos, v10)) / (p - 1) / p
                + sum(w * (v - auc) ** 2 for w, v in zip(neg, v01)) / (n - 1) / n)
    ours = curves.roc_auc_variance(positives, negatives)
    if 4 * p * n * max(p, n) <= 2**63 - 1:
        assert ours == float(variance)
    else:
        assert ours == pytest.approx(float(variance), rel=1e-14)


def test_shares_of_huge_counts_are_correctly_rounded():
    thresholds = np.array([0.9, 0.7, 0.5, 0.3, 0.1])
    pos, neg = [int(x) for x in HUGE_POSITIVES], [int(x) for x in HUGE_NEGATIVES]
    p, n = sum(pos), sum(neg)
    fpr, tpr, _ = curves.roc_curve(thresholds, HUGE_POSITIVES, HUGE_NEGATIVES, drop_intermediate=False)
    assert fpr[1:].tolist() == [float(Fraction(sum(neg[: k + 1]), n)) for k in range(5)]
    assert tpr[1:].tolist() == [float(Fraction(sum(pos[: k + 1]), p)) for k in range(5)]
    terms = [Fraction(w * sum(pos[: k + 1]), sum(pos[: k + 1]) + sum(neg[: k + 1]))
             for k, w in enumerate(pos) if w]
    # past 2**53 a term w tp / (tp + fp) is w (tp / (tp + fp)), within an ulp of the exact term
    assert curves.average_precision(HUGE_POSITIVES, HUGE_NEGATIVES) == pytest.approx(
        math.fsum(float(term) for term in terms) / p, rel=1e-15)
    prob_true, prob_pred = curves.calibration_curve(thresholds, HUGE_POSITIVES, HUGE_NEGATIVES,
                                                    n_bins=2)
    low_bin = [k for k in range(5) if thresholds[k] <= 0.5]  # 0.5 is on the edge: the bin below
    high_bin = [k for k in range(5) if thresholds[k] > 0.5]
    for share, mean, members in zip(prob_true, prob_pred, (low_bin, high_bin)):
        results = sum(pos[k] + neg[k] for k in members)
        assert share == float(Fraction(sum(pos[k] for k in members), results))
        # the mean score: its sum rounded once, then divided (past 2**53, the products rounded too)
        assert mean == pytest.approx(float(sum(Fraction(thresholds[k]) * (pos[k] + neg[k])
                                               for k in members) / results), rel=1e-15)
    # and the quantile edges of a sample too large to hold
    quantile_true, _ = curves.calibration_curve(thresholds, HUGE_POSITIVES, HUGE_NEGATIVES,
                                                n_bins=3, strategy="quantile")
    assert all(0 <= share <= 1 for share in quantile_true)


# scikit-learn's own inputs ------------------------------------------------------------------


def sklearn_inputs() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]]:
    """The binary predictions scikit-learn's ranking tests score (a logistic regression on a noisy
    iris, its make_prediction), with and without weights, and the small fixed cases of those tests."""
    from sklearn.metrics.tests.test_ranking import make_prediction

    y_true, _, y_score = make_prediction(binary=True)
    weights = np.random.default_rng(0).integers(0, 5, len(y_true))
    fixed = [([0, 1], [0, 1]), ([0, 1], [1, 0]), ([1, 0], [1, 1]), ([1, 0], [1, 0]),
             ([1, 0], [0.5, 0.5]), ([0, 0, 0, 0, 1, 1], [0.0, 0.2, 0.5, 0.6, 0.7, 1.0]),
             ([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
              [0.0, 0.1, 0.6, 0.6, 0.7, 0.8, 0.9, 0.6, 0.7, 0.8, 0.9, 0.9, 1.0]),
             ([0, 0, 1, 1, 1], [0.1, 0.7, 0.3, 0.4, 0.5]), ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])]
    cases = [("make_prediction", np.asarray(y_true), np.asarray(y_score), None),
             ("make_prediction weighted", np.asarray(y_true), np.asarray(y_score), weights),
             ("make_prediction float weights", np.asarray(y_true), np.asarray(y_score),
              weights / 3.0)]
    cases += [(f"fixed {i}", np.array(t), np.array(s, dtype=np.float64), None)
              for i, (t, s) in enumerate(fixed)]
    return cases


@pytest.mark.parametrize(("name", "y_true", "y_score", "sample_weight"), sklearn_inputs(),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_every_name_on_scikit_learns_inputs(name, y_true, y_score, sample_weight):
    counts = per_score(y_true, y_score, sample_weight)
    exact = integer(sample_weight)
    kwargs = {"sample_weight": sample_weight}
    for drop in (True, False):
        for ours, theirs in zip(curves.roc_curve(*counts, drop_intermediate=drop),
                                metrics.roc_curve(y_true, y_score, drop_intermediate=drop, **kwargs)):
            exact_or_close(ours, theirs, exact)
        for ours, theirs in zip(curves.precision_recall_curve(*counts, drop_intermediate=drop),
                                metrics.precision_recall_curve(y_true, y_score,
                                                               drop_intermediate=drop, **kwargs)):
            exact_or_close(ours, theirs, exact)
        for ours, theirs in zip(curves.det_curve(*counts, drop_intermediate=drop),
                                metrics.det_curve(y_true, y_score, drop_intermediate=drop, **kwargs)):
            exact_or_close(ours, theirs, exact)
    for max_fpr in (None, 0.5, 0.1):
        assert curves.roc_auc(counts[1], counts[2], max_fpr=max_fpr) == pytest.approx(
            metrics.roc_auc_score(y_true, y_score, max_fpr=max_fpr, **kwargs), rel=1e-12)
    assert curves.average_precision(counts[1], counts[2]) == pytest.approx(
        metrics.average_precision_score(y_true, y_score, **kwargs), rel=1e-12)
    assert curves.brier_score(*counts) == pytest.approx(
        metrics.brier_score_loss(y_true, y_score, **kwargs), rel=1e-12)
    assert curves.log_loss(*counts) == pytest.approx(
        metrics.log_loss(y_true, y_score, **kwargs), rel=1e-12)
    if sample_weight is None:
        for strategy in ("uniform", "quantile"):
            for ours, theirs in zip(
                    curves.calibration_curve(*counts, n_bins=4, strategy=strategy),
                    sk_calibration_curve(y_true, y_score, n_bins=4, strategy=strategy)):
                exact_or_close(ours, theirs, False)


def test_counts_past_max_count_are_refused():
    """Every running sum stays in int64: at most 2**63 - 1 results in all, as every accumulator."""
    half = 2**62
    with pytest.raises(ValueError, match=r"hold 9223372036854775808 results; at most 2\*\*63 - 1"):
        curves.roc_auc([half], [half])
    with pytest.raises(ValueError, match="at most 2"):
        curves.precision_recall_curve([0.5, 0.2], [half, 0], [0, half])
    assert curves.roc_auc([half - 1], [half]) == 0.5


def test_calibration_error_bins_follow_the_edges_given():
    """A score of 0.6 with 10 bins: numpy's edge 0.6000000000000001 puts it in [0.5, 0.6...),
    torch's edge 0.6 in [0.6, 0.7). Each is the definition on its edges."""
    y_true, y_score = np.array([1, 0]), np.array([0.6, 0.55])
    counts = per_score(y_true, y_score, None)
    torch_edges = np.linspace(0, 1, 11)
    torch_edges[6] = 0.6
    weight = np.ones(2)
    numpy_value = curves.calibration_error(*counts, n_bins=10)
    torch_value = curves.calibration_error(*counts, n_bins=torch_edges)
    assert numpy_value == pytest.approx(abs(0.5 - 0.575), rel=1e-15)  # one bin of both
    assert torch_value == pytest.approx((abs(1 - 0.6) + abs(0 - 0.55)) / 2, rel=1e-15)
    assert numpy_value == pytest.approx(calibration_error_oracle(y_true, y_score, weight, 10, "l1"))
    for bad in (0, True, "ten", [0.0], [0.0, 0.5, 0.5, 1.0], [0.56, 1.0]):
        with pytest.raises(ValueError, match=r"n_bins must be|below the first edge"):
            curves.calibration_error(*counts, n_bins=bad)
