"""Same name, same number (issue 20): the names shared with scikit-learn give its number on its input."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency

LABELS_1D = st.integers(1, 40).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 4), min_size=n, max_size=n),
                        st.lists(st.integers(0, 4), min_size=n, max_size=n)))


@given(LABELS_1D)
def test_error_rate_is_scikit_learns_hamming_loss_of_1d_labels(sides):
    y_true, y_pred = sides
    s = Contingency.from_labels(y_true, y_pred, zero_division=0.0)
    assert s.error_rate == metrics.hamming_loss(y_true, y_pred)
    assert s.error_rate == pytest.approx(1 - metrics.accuracy_score(y_true, y_pred), rel=1e-12)


def test_the_issue_example_of_hamming_loss():
    s = Contingency.from_labels([0, 1, 2, 2], [0, 2, 1, 2])
    assert s.error_rate == 0.5 == metrics.hamming_loss([0, 1, 2, 2], [0, 2, 1, 2])
    assert s.hamming_loss == pytest.approx(1 / 3)  # the per-decision form, of indicators
    indicators = np.eye(3, dtype=int)
    truth, predicted = indicators[[0, 1, 2, 2]], indicators[[0, 2, 1, 2]]
    assert s.hamming_loss == pytest.approx(metrics.hamming_loss(truth, predicted), rel=1e-15)


@given(st.integers(1, 30).flatmap(
    lambda n: st.tuples(st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4),
                                 min_size=n, max_size=n),
                        st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4),
                                 min_size=n, max_size=n))))
def test_hamming_loss_is_scikit_learns_of_indicator_matrices(sides):
    y_true, y_pred = (np.array(side) for side in sides)
    s = Contingency.from_labels(y_true, y_pred)
    assert s.hamming_loss == pytest.approx(metrics.hamming_loss(y_true, y_pred), rel=1e-15)
    assert s.error_rate == pytest.approx(1 - metrics.accuracy_score(y_true, y_pred), rel=1e-15)


@given(LABELS_1D)
def test_matthews_corrcoef_by_default_is_scikit_learns(sides):
    y_true, y_pred = sides
    s = Contingency.from_labels(y_true, y_pred, zero_division=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns of one label; its number stands
        expected = metrics.matthews_corrcoef(y_true, y_pred)
    assert s.matthews_corrcoef() == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_binary_matthews_corrcoef_is_not_the_pooled_table():
    """The migration row of torchmetrics' MulticlassMatthewsCorrCoef(num_classes=2): 0.707 is
    the binary correlation; the pooled micro table of both categories gives 0.667."""
    y_true, y_pred = [1, 1, 0, 0], [1, 0, 0, 0]
    s = Contingency.from_labels(y_true, y_pred)
    assert s.matthews_corrcoef() == pytest.approx(metrics.matthews_corrcoef(y_true, y_pred))
    assert round(s.matthews_corrcoef(), 3) == 0.577
    assert s.matthews_corrcoef("micro") != pytest.approx(s.matthews_corrcoef())


@pytest.mark.parametrize("mode", [0.0, 1.0, "nan"])
def test_an_empty_accumulator_reads_as_zero_division_says(mode):
    s = Contingency(zero_division=mode)
    expected = float(mode)
    for name in ("macro_precision", "macro_recall", "macro_f1", "macro_accuracy", "macro_error",
                 "weighted_precision", "weighted_f1", "micro_f1", "samples_f1",
                 "subset_accuracy"):
        value = getattr(s, name)
        assert value == expected or (math.isnan(expected) and math.isnan(value)), name
    assert s.category_stats() == {}
    for average in ("micro", "macro", "weighted", "samples"):
        value = s.f_beta(2.0, average=average)  # type: ignore[arg-type]
        assert value == expected or (math.isnan(expected) and math.isnan(value)), average
    s.stats_table()  # prints, does not raise


def test_an_empty_accumulator_in_perl_mode_keeps_perls_die():
    s = Contingency()
    for name in ("macro_precision", "macro_f1", "macro_accuracy", "weighted_f1"):
        with pytest.raises(ValueError, match="No category information has been recorded"):
            getattr(s, name)
    with pytest.raises(ValueError, match="No category information has been recorded"):
        s.category_stats()


@given(st.integers(2, 60).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 6), min_size=n, max_size=n),
                        st.lists(st.integers(0, 6), min_size=n, max_size=n),
                        st.lists(st.integers(1, 9), min_size=n, max_size=n))))
def test_weighted_averages_are_correctly_rounded_and_scikit_learns_within_the_stated_bound(sides):
    """docs/guarantees.md: the support-weighted average is the exact sum of each category's
    float score times its support, rounded once, then divided by the total support; scikit-learn's
    float average may differ by (K + 3) * 2**-53 relative with integer (or no) sample weights."""
    y_true, y_pred, weights = sides
    s = Contingency.from_labels(y_true, y_pred, sample_weight=weights, zero_division=0.0)
    k = len(s.categories)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peer = metrics.precision_score(y_true, y_pred, average="weighted",
                                       sample_weight=weights, zero_division=0.0)
    # The exact value, from the counts: sum over categories of support * precision / total.
    support: dict[int, int] = {}
    hits: dict[int, int] = {}
    assigned: dict[int, int] = {}
    for truth, chosen, weight in zip(y_true, y_pred, weights):
        support[truth] = support.get(truth, 0) + weight
        assigned[chosen] = assigned.get(chosen, 0) + weight
        if truth == chosen:
            hits[truth] = hits.get(truth, 0) + weight
    exact = sum((Fraction(hits.get(c, 0) / assigned[c]) * support[c] for c in support
                 if assigned.get(c)), Fraction(0))
    assert s.weighted_precision == float(exact) / sum(support.values())
    assert abs(s.weighted_precision - peer) <= (k + 3) * 2**-53 * abs(s.weighted_precision)


def test_a_weighted_average_is_the_exact_ratio_rounded_where_the_scores_are_exact_floats():
    y_true, y_pred = [0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1]
    s = Contingency.from_labels(y_true, y_pred, zero_division=0.0)
    peer = metrics.precision_score(y_true, y_pred, average="weighted", zero_division=0.0)
    assert s.weighted_precision == float(Fraction(2, 9))  # here also the exact ratio, rounded
    assert abs(s.weighted_precision - peer) <= 6 * 2**-53 * s.weighted_precision


# --- from_labels reads its arguments as scikit-learn does (item 3) -----------------------------


@given(st.integers(1, 12).flatmap(
    lambda n: st.tuples(st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3),
                                 min_size=n, max_size=n),
                        st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3),
                                 min_size=n, max_size=n))))
def test_lists_of_0_1_rows_are_indicator_matrices_as_in_scikit_learn(sides):
    y_true, y_pred = sides
    s = Contingency.from_labels(y_true, y_pred, zero_division=0.0)
    assert s == Contingency.from_labels(np.array(y_true), np.array(y_pred), zero_division=0.0)
    assert s.categories == (0, 1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = metrics.f1_score(y_true, y_pred, average="micro", zero_division=0.0)
    assert s.micro_f1 == pytest.approx(expected, rel=1e-15)


def test_the_issue_example_of_a_list_of_0_1_lists():
    y_true, y_pred = [[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]]
    s = Contingency.from_labels(y_true, y_pred)
    assert s.micro_f1 == pytest.approx(metrics.f1_score(y_true, y_pred, average="micro"))
    assert s.micro_f1 != 1.0  # read as label sets {0, 1}, {0, 1} each side: 1.0


def test_ragged_label_lists_stay_label_sets_where_scikit_learn_refuses():
    s = Contingency.from_labels([["a", "b"], ["c"]], [["a"], ["c", "b"]])
    assert s.categories == ("a", "b", "c")
    assert s.n_results == 2


def test_from_labels_errors_name_its_own_arguments():
    with pytest.raises(ValueError, match=r"^y_true\[1\]"):
        Contingency.from_labels(["a", None], ["a", "b"])
    with pytest.raises(ValueError, match=r"y_pred\[0\]"):
        Contingency.from_labels(["a"], [None])
    with pytest.raises(ValueError, match=r"sample_weight\[1\]"):
        Contingency.from_labels(["a", "b"], ["a", "b"], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="y_pred and y_true have different lengths"):
        Contingency.from_labels(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="y_true is an indicator matrix"):
        Contingency.from_labels([[1, 0], [0, 1]], [["a"], ["b"]])
    with pytest.raises(ValueError, match=r"y_true\[1, 0\] is 2"):
        Contingency.from_labels(np.array([[1, 0], [2, 1]]), np.array([[1, 0], [0, 1]]))
