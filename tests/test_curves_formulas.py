"""contingency.formulas.curves: scikit-learn's numbers on scikit-learn's inputs turned into per-score counts,
DeLong's variance against a plain O(n²) oracle, and the binned bounds around the exact reads."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import metrics

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
def test_roc_auc_is_scikit_learns(sample, max_fpr):
    y_true, y_score, sample_weight = sample
    theirs = metrics.roc_auc_score(y_true, y_score, sample_weight=sample_weight, max_fpr=max_fpr)
    _, positives, negatives = per_score(y_true, y_score, sample_weight)
    ours = curves.roc_auc(positives, negatives, max_fpr=max_fpr)
    assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


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


def test_roc_auc_exact_past_int64():
    """2U passes int64 here; the area is still the one rounding of the exact ratio."""
    big = 2**62
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
        with pytest.raises(ValueError, match="max_fpr must be a number in"):
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
    with pytest.raises(ValueError, match="threshold t must be a number"):
        curves.counts_at([0.5], [1], [0], math.nan)


def test_scikit_learn_is_recent_enough_for_these_comparisons():
    """roc_curve's first threshold inf and drop_intermediate of the PR curve are scikit-learn >= 1.3."""
    assert tuple(int(part) for part in sklearn.__version__.split(".")[:2]) >= (1, 3)
