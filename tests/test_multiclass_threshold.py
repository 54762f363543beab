"""MulticlassThresholdContingency against scikit-learn, and the accumulator's surface.

One-vs-rest AUC and average precision by every average, top-k accuracy with
ties, multilabel indicators; stream == batch == merged, removal, JSON, pickle.
"""

from __future__ import annotations

import copy
import inspect
import json
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk
from sklearn.preprocessing import label_binarize

from contingency import MulticlassThresholdContingency


@st.composite
def scored_rows(draw, *, min_rows: int = 1):
    """K classes 0..K-1, an (n, K) score matrix on a coarse grid (many ties), labels and weights."""
    k = draw(st.integers(2, 5))
    n = draw(st.integers(min_rows, 25))
    grid = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
    scores = np.array(draw(st.lists(st.lists(grid, min_size=k, max_size=k), min_size=n,
                                    max_size=n)), dtype=np.float64).reshape(n, k)
    labels = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    # whole weights, or (every other case) fractional ones, counted exactly in units of 2**-k
    fractional = draw(st.booleans())
    pool = st.sampled_from([1, 2, 3, 0.5, 0.25, 1.75, 0.1]) if fractional else st.integers(1, 3)
    weights = np.array(draw(st.lists(pool, min_size=n, max_size=n)),
                       dtype=np.float64 if fractional else np.int64)
    return k, scores, labels, weights


def exact_sum(values) -> float:
    """The exact sum of floats or ints, rounded once (what a count of exact weights reads)."""
    return float(sum(Fraction(value) for value in np.asarray(values).tolist()))


def _fed(k: int, scores, labels, weights=None, **settings_) -> MulticlassThresholdContingency:
    curves = MulticlassThresholdContingency(list(range(k)), **settings_)
    curves.add_results(scores, labels, sample_weight=weights)
    return curves


def _every_class_both_ways(k: int, labels) -> bool:
    present = set(labels.tolist())
    return len(present) == k and k > 1


@settings(max_examples=150)
@given(scored_rows())
@example((3, np.array([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]), np.array([0, 1, 2]),
          np.array([1, 1, 1])))
def test_one_vs_rest_auc_and_average_precision_equal_scikit_learn(case) -> None:
    k, scores, labels, weights = case
    if not _every_class_both_ways(k, labels):
        return
    curves = _fed(k, scores, labels, weights)
    truth = label_binarize(labels, classes=list(range(k)))
    if k == 2:  # label_binarize gives one column for two classes: the indicator of each
        truth = np.column_stack([1 - truth[:, 0], truth[:, 0]])
    for average in ("macro", "weighted", "micro", None):
        expected_auc = sk.roc_auc_score(truth, scores, average=average, sample_weight=weights)
        expected_ap = sk.average_precision_score(truth, scores, average=average,
                                                 sample_weight=weights)
        assert np.allclose(curves.roc_auc(average), expected_auc, rtol=1e-12, atol=0)
        assert np.allclose(curves.average_precision(average), expected_ap, rtol=1e-12, atol=0)
    # the micro average's curve is scikit-learn's roc_curve of the raveled matrices
    fpr, tpr, thresholds = curves.micro().roc_curve(drop_intermediate=False)
    e_fpr, e_tpr, e_thresholds = sk.roc_curve(truth.ravel(), scores.ravel(),
                                              sample_weight=np.repeat(weights, k),
                                              drop_intermediate=False)
    assert np.allclose(fpr, e_fpr)
    assert np.allclose(tpr, e_tpr)
    assert np.array_equal(thresholds, e_thresholds)


@settings(max_examples=150)
@given(scored_rows(), st.integers(1, 6))
@example((3, np.array([[0.5, 0.5, 0.5], [0.2, 0.5, 0.5]]), np.array([1, 1]), np.array([1, 2])), 1)
# Found by the exploring profile: the expected share was numpy's, rounded twice (0.1 / 22.1).
@example((2, np.where(np.arange(46).reshape(23, 2) == 40, 0.1, 0.0), np.zeros(23, dtype=np.int64),
          np.where(np.arange(23) == 20, 0.1, 1.0)), 1)
# Found by the exploring profile (seed 99991): ranks of 0.1 and 8.2 rounded once each.
@example((3, np.where(np.arange(33).reshape(11, 3) == 30, 0.1, 0.0), np.zeros(11, dtype=np.int64),
          np.where(np.arange(11) >= 8, 0.1, 1.0)), 1)
def test_top_k_accuracy_equals_scikit_learn_ties_included(case, k_best: int) -> None:
    k, scores, labels, weights = case
    curves = _fed(k, scores, labels, weights)
    if k == 2:  # scikit-learn refuses a two-column matrix: the rank rule, written out
        own, other = scores[np.arange(len(labels)), labels], scores[np.arange(len(labels)), 1 - labels]
        hits = (own > other) | ((own == other) & (labels == 1))
        assert curves.top_k_accuracy(1, normalize=False) == exact_sum(weights[hits])
        # (the share of exact weights, one rounding: not numpy's dot product over its float sum)
        share = float(sum(map(Fraction, weights[hits].tolist()), Fraction(0))
                      / sum(map(Fraction, weights.tolist())))
        assert curves.top_k_accuracy(k_best) == (1.0 if k_best >= 2 else share)
        return
    if k_best >= k:  # every class is among the k best (scikit-learn warns, and says 1.0)
        assert curves.top_k_accuracy(k_best) == 1.0
        return
    for normalize in (True, False):
        expected = sk.top_k_accuracy_score(labels, scores, k=k_best, labels=list(range(k)),
                                           sample_weight=weights, normalize=normalize)
        assert curves.top_k_accuracy(k_best, normalize=normalize) == pytest.approx(expected,
                                                                                   rel=1e-12)
    # Each rank's count is its exact count rounded once: with fractional weights their sum may
    # differ from the rounded total by their roundings (0.1 and 8.2 are 8.3 less an ulp).
    counts = curves.rank_counts()
    if np.array_equal(weights, np.round(weights)):
        assert exact_sum(counts) == exact_sum(weights)
    else:
        assert exact_sum(counts) == pytest.approx(exact_sum(weights), rel=len(counts) * 2**-52)


def test_probabilities_with_string_labels_equal_scikit_learn_multi_class_ovr() -> None:
    rng = np.random.default_rng(7)
    raw = rng.random((200, 4))
    probabilities = raw / raw.sum(axis=1, keepdims=True)
    classes = ["ant", "bee", "cow", "dog"]
    labels = np.array(classes)[rng.integers(0, 4, 200)]
    weights = rng.integers(1, 4, 200)
    curves = MulticlassThresholdContingency(classes)
    curves.add_results(probabilities, labels, sample_weight=weights)
    for average in ("macro", "weighted", "micro"):
        expected = sk.roc_auc_score(labels, probabilities, multi_class="ovr", average=average,
                                    sample_weight=weights, labels=classes)
        assert curves.roc_auc(average) == pytest.approx(expected, rel=1e-12)
        expected_ap = sk.average_precision_score(labels, probabilities, average=average,
                                                 sample_weight=weights)
        assert curves.average_precision(average) == pytest.approx(expected_ap, rel=1e-12)
    for k in (1, 2, 3):
        assert curves.top_k_accuracy(k) == pytest.approx(sk.top_k_accuracy_score(
            labels, probabilities, k=k, labels=classes, sample_weight=weights), rel=1e-12)
    with pytest.raises(ValueError, match=r"multi_class='ovo'.*cannot serve it exactly"):
        curves.roc_auc(multi_class="ovo")
    with pytest.raises(ValueError, match="'samples'"):
        curves.average_precision("samples")


def test_multilabel_indicators_equal_scikit_learn_and_refuse_top_k() -> None:
    rng = np.random.default_rng(3)
    scores = np.round(rng.random((120, 3)), 2)
    truth = (rng.random((120, 3)) < 0.4).astype(int)
    curves = MulticlassThresholdContingency(["x", "y", "z"], multilabel=True)
    curves.add_results(scores, truth)
    for average in ("macro", "weighted", "micro", None):
        assert np.allclose(curves.roc_auc(average), sk.roc_auc_score(truth, scores, average=average),
                           rtol=1e-12, atol=0)
        assert np.allclose(curves.average_precision(average),
                           sk.average_precision_score(truth, scores, average=average),
                           rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="top_k_accuracy: a multilabel result"):
        curves.top_k_accuracy(1)
    state = json.loads(json.dumps(curves.to_dict()))
    assert MulticlassThresholdContingency.from_dict(state) == curves


@settings(max_examples=80)
@given(scored_rows(), st.integers(0, 25), st.booleans())
def test_stream_batch_merge_remove_and_state_agree(case, cut: int, binned: bool) -> None:
    k, scores, labels, weights = case
    options = {"bins": 4} if binned else {}
    batch = _fed(k, scores, labels, weights, **options)
    stream = MulticlassThresholdContingency(list(range(k)), **options)
    for row, label, weight in zip(scores, labels, weights):
        stream.add(row, int(label), weight=weight)
    assert stream == batch
    cut = min(cut, len(labels))
    left = _fed(k, scores[:cut], labels[:cut], weights[:cut], **options)
    right = _fed(k, scores[cut:], labels[cut:], weights[cut:], **options)
    assert left + right == batch
    assert pickle.loads(pickle.dumps(batch)) == batch
    assert MulticlassThresholdContingency.from_dict(json.loads(json.dumps(batch.to_dict()))) == batch
    assert copy.copy(batch) == batch
    shrunk = batch.copy()
    shrunk.remove_results(scores[cut:], labels[cut:], sample_weight=weights[cut:])
    assert shrunk == left
    # the pooled table is the sum of the per-class tables
    pooled = batch.micro()
    summed = batch.one_vs_rest(0)
    for label in range(1, k):
        summed.merge(batch.one_vs_rest(label))
    assert pooled == summed
    if binned and _every_class_both_ways(k, labels):
        exact = _fed(k, scores, labels, weights)
        for average in ("macro", "weighted", "micro"):
            assert abs(batch.roc_auc(average) - exact.roc_auc(average)) <= (
                batch.roc_auc_bound(average) + 1e-12)


def test_bad_input_names_the_problem_and_changes_nothing() -> None:
    curves = MulticlassThresholdContingency(["a", "b", "c"])
    curves.add_results([[0.1, 0.2, 0.7]], ["c"])
    before = curves.copy()
    cases = [
        (lambda: curves.add_results([[0.1, 0.2]], ["a"]), ValueError, r"scores must be an \(n, 3\)"),
        (lambda: curves.add_results([[0.1, np.nan, 0.2]], ["a"]), ValueError, r"scores\[0, 1\]"),
        (lambda: curves.add_results([[0.1, 0.2, 0.3]] * 2, ["a", "q"]), ValueError,
         r"correct\[1\] = 'q' is not one of the classes"),
        (lambda: curves.add_results([[0.1, 0.2, 0.3]], ["a", "b"]), ValueError, "different lengths"),
        (lambda: curves.add_results([[0.1, 0.2, 0.3]] * 3, ["a"] * 3,
                                    sample_weight=[0.25, 2.0**62, 2.0**62]), ValueError,
         "would hold 9223372036854775809 results"),
        (lambda: curves.remove([0.1, 0.2, 0.7], "a"), ValueError, "remove: there are 0"),
        # the scores are there, but their correct class was c: c's table refuses first
        (lambda: curves.remove([0.1, 0.2, 0.7], "b"), ValueError, "remove"),
        (lambda: curves.add([0.1, 0.2], "a"), ValueError, "add: scores must hold 3 numbers"),
        (lambda: curves.add([0.1, np.inf, 0.2], "a"), ValueError, r"add: scores\[1\] must be a finite"),
        (lambda: curves.add("abc", "a"), TypeError, "add: scores must be a row"),
        (lambda: curves.add([0.1, 0.2, 0.3], "z"), ValueError, "'z' is not one of the classes"),
        (lambda: curves.add([0.1, 0.2, 0.3], ["a"]), ValueError, "is not one of the classes"),
        (lambda: curves.add([0.1, 0.2, 0.3], "a", weight=2.0**-130), ValueError,
         r"needs a unit of 2\*\*-130"),
        (lambda: curves.remove([0.1, 0.2, 0.7], "c", weight=1.25), ValueError,
         "there are 1 negative results of score 0.1, not 1.25 to remove"),
        # classes a and b hold their parts (negatives at 0.1 and 0.2); c's positive at 0.3 is not there
        (lambda: curves.remove([0.1, 0.2, 0.3], "c"), ValueError, "positive results of score 0.3"),
        (lambda: curves.top_k_accuracy(0), ValueError, "k must be a positive integer"),
        (lambda: curves.roc_auc("median"), ValueError, "average must be one of"),
        # arguments of the wrong kind: an array (never compared), a bool, NaN, a numpy number
        *((lambda read=read, average=average: getattr(curves, read)(average), ValueError,
           f"^{read}: average must be one of 'macro', 'weighted', 'micro', None, not ")
          for read in ("roc_auc", "roc_auc_bound", "average_precision")
          for average in (np.array(["macro", "micro"]), np.array(["macro"]), True, np.nan,
                          np.float64(1.0))),
        *((lambda multi_class=multi_class: curves.roc_auc(multi_class=multi_class), ValueError,
           r"^roc_auc: multi_class must be one of 'ovr', not ")
          for multi_class in (np.array(["ovr", "ovo"]), np.array(["ovr"]), True, np.nan)),
        *((lambda normalize=normalize: curves.top_k_accuracy(1, normalize=normalize), TypeError,
           "top_k_accuracy: normalize must be True or False, not ")
          for normalize in (np.array([True, False]), np.array([True]), 1, None, "no", np.nan)),
        *((lambda k=k: curves.top_k_accuracy(k), ValueError,
           "top_k_accuracy: k must be a positive integer, not ")
          for k in (np.array([1, 2]), np.array(1), True, np.True_, 1.0, np.nan)),
        *((lambda label=label: curves.one_vs_rest(label), ValueError,
           r"one_vs_rest: label .* is not one of the classes \['a', 'b', 'c'\]")
          for label in (np.array(["a", "b"]), np.array(["a"]), ["a"], {"a": 1}, np.nan, "z")),
        *((lambda digits=digits: curves.report(digits), ValueError,
           r"^report: digits must be an integer >= 0 \(at most 1074\), not ")
          for digits in (np.array([1, 2]), True, np.float64(2.0), np.nan, -1, 10**30, "3", None)),
        *((lambda average=average, max_fpr=max_fpr: curves.roc_auc(average, max_fpr=max_fpr),
           ValueError, r"^roc_auc: max_fpr must be a number in \(0, 1\], not ")
          for average in ("macro", "micro", None)
          for max_fpr in (np.array([0.5, 1.0]), np.array(0.5), True, np.nan, 0, 1.5, "0.5")),
        (lambda: curves.merge(MulticlassThresholdContingency(["a", "c", "b"])), ValueError,
         "classes differ"),
        (lambda: MulticlassThresholdContingency(["a"]), ValueError, "at least two"),
        (lambda: MulticlassThresholdContingency(["a", "a"]), ValueError, "listed twice"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()
        assert curves == before
    binned = MulticlassThresholdContingency([0, 1], bins=2)
    with pytest.raises(ValueError, match=r"scores\[0, 1\] = 1.5 is outside the bins"):
        binned.add_results([[0.5, 1.5]], [0])


def test_reads_take_numpy_scalars_as_the_python_values_they_hold() -> None:
    curves = MulticlassThresholdContingency(["a", "b", "c"])
    curves.add_results([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.6, 0.1, 0.3]],
                       ["c", "b", "b", "a"])
    for normalize in (True, False):
        assert curves.top_k_accuracy(np.int64(1), normalize=np.bool_(normalize)) == \
            curves.top_k_accuracy(1, normalize=normalize)
    assert curves.roc_auc(np.str_("weighted"), multi_class=np.str_("ovr")) == curves.roc_auc("weighted")
    assert curves.one_vs_rest(np.str_("b")) == curves.one_vs_rest("b")
    assert curves.report(np.int8(2)) == curves.report(2)


def test_ranks_and_tables_that_disagree_are_refused_by_from_dict() -> None:
    curves = MulticlassThresholdContingency([0, 1, 2])
    curves.add_results([[0.6, 0.3, 0.1], [0.2, 0.7, 0.1]], [0, 2])
    state = curves.to_dict()
    state["ranks"] = [2, 0, 1]
    with pytest.raises(ValueError, match="from_dict: the ranks add up to 3, not to the 2 results"):
        MulticlassThresholdContingency.from_dict(state)
    state = curves.to_dict()
    state["tables"][0]["positives"] = [0, 0]
    with pytest.raises(ValueError, match="from_dict: tables"):
        MulticlassThresholdContingency.from_dict(state)


def test_thread_safe_option_locks_and_keeps_the_numbers() -> None:
    curves = MulticlassThresholdContingency([0, 1, 2], thread_safe=True)
    assert curves.thread_safe
    curves.add([0.2, 0.3, 0.5], 2)
    plain = MulticlassThresholdContingency([0, 1, 2])
    plain.add([0.2, 0.3, 0.5], 2)
    assert curves == plain
    assert plain == curves
    assert pickle.loads(pickle.dumps(curves)) == plain


def test_every_public_method_and_property_of_the_locked_class_takes_the_lock() -> None:
    locked = type(MulticlassThresholdContingency([0, 1], thread_safe=True))
    public = [name for name in dir(MulticlassThresholdContingency) if not name.startswith("_")]
    for name in public:
        mine = MulticlassThresholdContingency.__dict__[name]
        if isinstance(mine, (classmethod, staticmethod)) or name == "thread_safe":
            continue  # constructors and the class flag: no instance to lock
        wrapper = locked.__dict__[name]
        if isinstance(mine, property):
            assert inspect.unwrap(wrapper.fget) is mine.fget, name
            assert wrapper.fget is not mine.fget, name
        elif callable(mine):
            assert wrapper is not mine, name
            assert inspect.unwrap(wrapper) is mine, name
    with pytest.raises(TypeError, match="thread_safe must be True or False"):
        MulticlassThresholdContingency([0, 1], thread_safe="yes")


def test_multilabel_rows_one_at_a_time_equal_the_batch() -> None:
    rng = np.random.default_rng(11)
    scores = np.round(rng.random((40, 4)), 1)
    truth = rng.random((40, 4)) < 0.5
    batch = MulticlassThresholdContingency(list("wxyz"), multilabel=True, bins=5)
    batch.add_results(scores, truth)
    stream = MulticlassThresholdContingency(list("wxyz"), multilabel=True, bins=5)
    for row, flags in zip(scores, truth):
        stream.add(row, flags)
    assert stream == batch
    for row, flags in zip(scores[:10], truth[:10]):
        stream.remove(row, flags.astype(int).tolist())
    batch.remove_results(scores[:10], truth[:10])
    assert stream == batch
    before = stream.copy()
    with pytest.raises(ValueError, match="a row of 4 indicators"):
        stream.add(scores[0], [1, 0, 2, 0])
    with pytest.raises(ValueError, match="outside the bins"):
        stream.add([0.1, 0.2, 1.2, 0.3], [1, 0, 0, 0])
    assert stream == before


def test_scores_are_the_reads_and_undefined_is_none() -> None:
    curves = MulticlassThresholdContingency(["a", "b", "c"])
    curves.add_results([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3]], ["a", "b", "a"])
    scores = curves.scores()
    assert scores["roc_auc_micro"] == curves.roc_auc("micro")
    assert scores["average_precision_micro"] == curves.average_precision("micro")
    assert scores["average_precision_weighted"] is None  # no positive of c
    assert scores["top_1_accuracy"] == curves.top_k_accuracy(1)
    assert scores["roc_auc_macro"] is None  # class c never correct: its AUC is undefined (Perl raises)
    with pytest.raises(ValueError):
        curves.roc_auc("macro")
    assert json.loads(json.dumps(scores)) == scores


def test_balanced_sample_weight_past_int64_units_is_scikit_learns() -> None:
    """``compute_sample_weight("balanced", y)`` on 10^4 rows of 3 classes: the pooled table holds
    3 results a row, past 2**63 units of the weights' unit, all exact; every average is
    scikit-learn's, rows one by one equal the batch, and removals bring every table back."""
    from sklearn.utils.class_weight import compute_sample_weight

    from contingency.formulas._numeric import MAX_COUNT

    rng = np.random.default_rng(3)
    n, k = 10**4, 3
    labels = rng.choice(k, n, p=[0.6, 0.3, 0.1])
    scores = rng.dirichlet(np.ones(k), n)
    scores[np.arange(n), labels] += 0.3
    scores = np.round(scores / scores.sum(axis=1, keepdims=True), 3)
    weights = compute_sample_weight("balanced", labels)
    curves = _fed(k, scores, labels, weights)
    pooled = curves.micro()._counts
    assert pooled.positives + pooled.negatives > MAX_COUNT
    truth = label_binarize(labels, classes=list(range(k)))
    for average in ("macro", "weighted", "micro", None):
        assert np.allclose(curves.roc_auc(average),
                           sk.roc_auc_score(truth, scores, average=average, sample_weight=weights),
                           rtol=1e-12, atol=0)
        assert np.allclose(curves.average_precision(average),
                           sk.average_precision_score(truth, scores, average=average,
                                                      sample_weight=weights), rtol=1e-12, atol=0)
    assert np.isclose(curves.top_k_accuracy(2),
                      sk.top_k_accuracy_score(labels, scores, k=2, sample_weight=weights),
                      rtol=1e-12, atol=0)
    streamed = MulticlassThresholdContingency(list(range(k)))
    for row, label, weight in zip(scores[:3000].tolist(), labels[:3000].tolist(),
                                  weights[:3000].tolist()):
        streamed.add(row, label, weight=weight)
    streamed.add_results(scores[3000:], labels[3000:], sample_weight=weights[3000:])
    assert streamed == curves
    assert MulticlassThresholdContingency.from_dict(json.loads(json.dumps(curves.to_dict()))) == curves
    curves.remove_results(scores[20:], labels[20:], sample_weight=weights[20:])
    assert curves == _fed(k, scores[:20], labels[:20], weights[:20])
