"""Contingency against scikit-learn's metrics, with the matching zero_division setting."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency
from tests.strategies import categories_and_results
from tests.test_contingency import indicators, streamed

MODES = [(0.0, 0.0), (1.0, 1.0), ("nan", np.nan)]


def same(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-12)


multi_label_cases = categories_and_results(min_results=1).filter(lambda case: len(case[0]) >= 2)


@pytest.mark.parametrize(("ours_mode", "sklearn_mode"), MODES)
@settings(max_examples=40)  # scikit-learn is slow per call; three modes run each
@given(case=multi_label_cases, beta=st.sampled_from([0.5, 1.0, 2.0, 3.7]))
def test_precision_recall_f_beta_every_average(ours_mode, sklearn_mode, case, beta):
    cats, stream = case
    s = streamed(cats, stream, zero_division=ours_mode)
    predicted, truth = indicators(cats, stream)
    for average in ("micro", "macro", "weighted", "samples"):
        p, r, f, _ = metrics.precision_recall_fscore_support(
            truth, predicted, beta=beta, average=average, zero_division=sklearn_mode)
        if average == "micro":
            assert same(s.micro_precision, p), average
            assert same(s.micro_recall, r), average
        assert same(getattr(s, f"{average}_precision"), p), average
        assert same(getattr(s, f"{average}_recall"), r), average
        assert same(s.f_beta(beta, average), f), average
        f1 = metrics.f1_score(truth, predicted, average=average, zero_division=sklearn_mode)
        assert same(getattr(s, f"{average}_f1"), f1), average
        fb = metrics.fbeta_score(truth, predicted, beta=beta, average=average,
                                 zero_division=sklearn_mode)
        assert same(s.f_beta(beta, average), fb), average


@pytest.mark.parametrize(("ours_mode", "sklearn_mode"), MODES)
@settings(max_examples=50)
@given(case=multi_label_cases)
def test_per_category_figures(ours_mode, sklearn_mode, case):
    cats, stream = case
    s = streamed(cats, stream, zero_division=ours_mode)
    predicted, truth = indicators(cats, stream)
    p, r, f, support = metrics.precision_recall_fscore_support(
        truth, predicted, average=None, zero_division=sklearn_mode)
    stats = s.category_stats()
    for k, cat in enumerate(cats):
        assert same(stats[cat]["precision"], p[k])
        assert same(stats[cat]["recall"], r[k])
        assert same(stats[cat]["f1"], f[k])
        assert stats[cat]["support"] == support[k]


# scikit-learn's confusion_matrix warns when a column holds a single label; that is the point here.
@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@given(case=multi_label_cases)
def test_subset_accuracy_hamming_loss_and_matthews(case):
    cats, stream = case
    s = streamed(cats, stream, zero_division=0.0)
    predicted, truth = indicators(cats, stream)
    assert same(s.subset_accuracy, metrics.accuracy_score(truth, predicted))
    assert same(s.hamming_loss, metrics.hamming_loss(truth, predicted))
    # micro: the MCC of the pooled 2x2 table, i.e. of every (result, category) decision
    assert same(s.matthews_corrcoef("micro"),
                metrics.matthews_corrcoef(truth.ravel(), predicted.ravel()))
    per_category = [metrics.matthews_corrcoef(truth[:, k], predicted[:, k])
                    for k in range(len(cats))]
    assert same(s.matthews_corrcoef("macro"), float(np.mean(per_category)))


@given(case=categories_and_results(single_label=True, min_results=1))
def test_single_label_arrays_match_multiclass_scoring(case):
    cats, stream = case
    labels = [str(cat) for cat in cats]
    assigned = np.array([str(a) for a, _ in stream])
    correct = np.array([str(c) for _, c in stream])
    s = Contingency(labels, zero_division=0.0).add_results(assigned, correct)
    for average in ("micro", "macro", "weighted"):
        p, r, f, _ = metrics.precision_recall_fscore_support(
            correct, assigned, labels=labels, average=average, zero_division=0.0)
        assert same(getattr(s, f"{average}_precision"), p)
        assert same(getattr(s, f"{average}_recall"), r)
        assert same(getattr(s, f"{average}_f1"), f)
    assert same(s.subset_accuracy, metrics.accuracy_score(correct, assigned))


@pytest.mark.parametrize("mode", ["perl", 0.0, 1.0, "nan"])
@pytest.mark.parametrize("weights", [None, [1, 2, 3, 1, 2**40], [0.5, 1, 0.25, 1, 3]])
def test_a_plain_average_read_by_its_property_is_the_method_s_general_read(mode, weights):
    """precision, recall and f1 with the defaults read a micro, macro or weighted average by its
    property (a fast path): the general path's number, bit for bit, on single-label, multi-label,
    weighted and fractional counts and a micro table set by set_entries."""
    s = Contingency(["x", "y"], unknown="add", zero_division=mode)
    s.add_results([["x"], ["x", "z"], [], ["y"], ["w"]], [["x"], ["z"], ["y"], [], ["w", "x"]],
                  weights=weights)
    t = Contingency(["x"], zero_division=mode)
    t.set_entries(3, 1, 2, 10)
    for accumulator in (s, t, Contingency(zero_division=mode)):
        for name, method in (("precision", "precision"), ("recall", "recall"), ("f1", "f_beta")):
            for average in ("micro", "macro", "weighted"):
                try:
                    general = accumulator._set_wise(method, average, 1, None)
                except ValueError as refusal:  # (no category, in Perl mode)
                    with pytest.raises(ValueError, match=str(refusal)):
                        getattr(accumulator, name)(average)
                    continue
                fast = getattr(accumulator, name)(average)
                assert math.isnan(fast) == math.isnan(general)
                assert math.isnan(fast) or fast.hex() == general.hex()
