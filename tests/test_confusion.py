"""Contingency's confusion matrix and its scores (kappa, balanced accuracy, multiclass MCC), and
the multi-label confusion matrix and Jaccard index, against scikit-learn."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency, _confusion
from contingency._category_sums import CategorySums
from contingency.formulas import classification as formulas
from tests.strategies import categories_and_results
from tests.test_contingency import indicators

MODES = [(0.0, 0.0), (1.0, 1.0), ("nan", np.nan)]


def same(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-12)


def quiet(function, *args, **kwargs):
    """A scikit-learn call with its warnings about undefined or missing classes silenced."""
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def exact_multiclass_mcc(labels, truth, predicted, weights):
    """Gorodkin's R_K of the weighted confusion matrix from exact fractions (0 when undefined)."""
    table = {(t, p): Fraction(0) for t in labels for p in labels}
    for t, p, weight in zip(truth.tolist(), predicted.tolist(), weights):
        table[t, p] += Fraction(weight)
    total = sum(table.values())
    right = sum(table[k, k] for k in labels)
    rows = {k: sum(table[k, p] for p in labels) for k in labels}
    columns = {k: sum(table[t, k] for t in labels) for k in labels}
    covariance = right * total - sum(rows[k] * columns[k] for k in labels)
    variances = ((total * total - sum(v * v for v in columns.values()))
                 * (total * total - sum(v * v for v in rows.values())))
    if not variances:
        return 0.0
    return float(covariance) / math.sqrt(float(variances)) if covariance else 0.0


def labelled(cats, stream):
    """The categories as str (one dtype for numpy), and the results' truth and prediction arrays."""
    labels = [str(cat) for cat in cats]
    truth = np.array([str(c) for _, c in stream], dtype=str)
    predicted = np.array([str(a) for a, _ in stream], dtype=str)
    return labels, truth, predicted


def every_path(labels, truth, predicted, **options):
    """The same single-label results counted by every write path, as (path name, accumulator)."""
    pairs = list(zip(predicted.tolist(), truth.tolist()))
    streamed = Contingency(labels, **options)
    for assigned, correct in pairs:
        streamed.add_result(assigned, correct)  # the str fast path
    in_lists = Contingency(labels, **options)
    for assigned, correct in pairs:
        in_lists.add_result([assigned], (correct,))  # the container fast path
    general = Contingency(labels, **options)
    for assigned, correct in pairs:
        general.add_result({assigned: True}, {correct: 1})  # the general path
    sequences = Contingency(labels, **options).add_results(list(predicted), list(truth))
    arrays = Contingency(labels, **options)
    if len(pairs):
        arrays.add_results(predicted, truth)
    one_hot = indicators(labels, [({a}, {c}) for a, c in pairs])
    matrices = Contingency(labels, **options).add_results(*one_hot)
    half = len(pairs) // 2
    merged = (Contingency(labels, **options).add_results(list(predicted[:half]), list(truth[:half]))
              + Contingency(labels, **options).add_results(list(predicted[half:]),
                                                          list(truth[half:])))
    removed = Contingency(labels, **options).add_results(
        [*predicted, *labels, labels[0]], [*truth, *reversed(labels), [labels[0], labels[-1]]])
    removed.remove_result(labels[0], [labels[0], labels[-1]])
    for assigned, correct in zip(labels, reversed(labels)):
        removed.remove_result(assigned, correct)
    batch_removed = Contingency(labels, **options).add_results(
        np.array([*predicted, *labels]), np.array([*truth, *reversed(labels)]))
    batch_removed.remove_results(np.array(labels), np.array(labels[::-1]))
    read_midway = Contingency(labels, **options)
    for assigned, correct in pairs:
        read_midway.add_result(assigned, correct)
        read_midway.cohen_kappa()  # running sums made early, then kept up to date
        read_midway.balanced_accuracy()
    return [("add_result str", streamed), ("add_result lists", in_lists),
            ("add_result mappings", general), ("add_results sequences", sequences),
            ("add_results arrays", arrays), ("add_results indicators", matrices),
            ("merge", merged), ("removal", removed),
            ("remove_results", batch_removed), ("read after each result", read_midway),
            ("from_dict", Contingency.from_dict(streamed.to_dict()))]


single_label_cases = categories_and_results(single_label=True, min_results=1)


@settings(max_examples=60)  # ten accumulators and several scikit-learn calls per example
@given(case=single_label_cases)
@example(case=(["a", "b", "c"], [("b", "a"), ("b", "a"), ("a", "b"), ("a", "b"), ("a", "c"),
                                  ("a", "c")]))
@example(case=(["a"], [("a", "a")]))
@example(case=(["a", "b"], [("a", "a"), ("a", "b")]))
def test_every_path_gives_scikit_learns_confusion_matrix_and_scores(case):
    cats, stream = case
    labels, truth, predicted = labelled(cats, stream)
    expected = quiet(metrics.confusion_matrix, truth, predicted, labels=labels)
    kappa = {mode: quiet(metrics.cohen_kappa_score, truth, predicted, replace_undefined_by=theirs)
             for mode, theirs in MODES}
    mcc = quiet(metrics.matthews_corrcoef, truth, predicted)  # 0.0 when undefined: zero_division=0.0
    balanced = quiet(metrics.balanced_accuracy_score, truth, predicted)
    adjusted = quiet(metrics.balanced_accuracy_score, truth, predicted, adjusted=True)
    one_class = len(set(truth.tolist())) == 1  # adjusted is undefined: scikit-learn's nan/-inf
    n, t, p = len(truth), expected.sum(axis=1), expected.sum(axis=0)
    mcc_defined = (n * n - t @ t) * (n * n - p @ p) != 0  # else scikit-learn's 0.0
    for mode, _ in MODES:
        for path, s in every_path(labels, truth, predicted, zero_division=mode):
            assert np.array_equal(s.confusion_matrix(), expected), path
            assert s.confusion_matrix().dtype == np.int64
            assert same(s.cohen_kappa(), kappa[mode]), path
            if mode == 0.0 or mcc_defined:
                assert same(s.matthews_corrcoef("multiclass"), mcc), path
            assert same(s.balanced_accuracy(), balanced), path
            if not one_class:
                assert same(s.balanced_accuracy(adjusted=True), adjusted), path


def test_the_issues_example_gives_scikit_learns_multiclass_matthews_correlation():
    truth, predicted = [0, 0, 1, 1, 2, 2], [1, 1, 0, 0, 0, 0]
    s = Contingency().add_results(predicted, truth)
    assert same(s.matthews_corrcoef("multiclass"), metrics.matthews_corrcoef(truth, predicted))
    assert round(s.matthews_corrcoef("multiclass"), 3) == -0.612
    assert s.matthews_corrcoef("micro") == -0.5  # the one-vs-rest form differs
    with pytest.raises(ValueError, match=r"matthews_corrcoef: average must be one of 'micro', "
                                         r"'macro', 'multiclass', not 'binary'"):
        s.matthews_corrcoef("binary")  # type: ignore[arg-type]


@given(case=single_label_cases, labels_drawn=st.data())
def test_labels_pick_and_order_rows_and_columns_as_scikit_learn_does(case, labels_drawn):
    cats, stream = case
    labels, truth, predicted = labelled(cats, stream)
    picked = labels_drawn.draw(st.permutations(labels).flatmap(
        lambda order: st.integers(1, len(order)).map(lambda size: order[:size])))
    s = Contingency(labels).add_results(predicted, truth)
    if set(picked) & set(truth.tolist()):
        assert np.array_equal(s.confusion_matrix(labels=picked),
                              quiet(metrics.confusion_matrix, truth, predicted, labels=picked))
    else:  # scikit-learn refuses labels none of which is in y_true; the rows are zeros
        assert not s.confusion_matrix(labels=picked)[:, :].any()
    assert np.array_equal(s.multilabel_confusion_matrix(labels=picked),
                          metrics.multilabel_confusion_matrix(truth, predicted, labels=picked))


def test_a_label_that_is_not_a_category_is_named():
    s = Contingency(["x", "y"]).add_results(["x"], ["y"])
    with pytest.raises(ValueError, match=r"confusion_matrix: labels\[1\] = 'z' is not a category"):
        s.confusion_matrix(labels=["x", "z"])
    with pytest.raises(ValueError, match=r"multilabel_confusion_matrix: labels\[0\] = \[1\]"):
        s.multilabel_confusion_matrix(labels=[[1]])
    with pytest.raises(ValueError, match=r"labels names a category twice"):
        s.confusion_matrix(labels=["x", "x"])
    with pytest.raises(TypeError, match=r"labels must be an iterable of categories or None"):
        s.confusion_matrix(labels="xy")


# Running sums --------------------------------------------------------------------------------


_OPERATIONS = st.lists(st.tuples(st.sampled_from(["add", "remove", "multi", "unmulti"]),
                                 st.sampled_from(["a", "b", "c", "d"]),
                                 st.sampled_from(["a", "b", "c", "d"])), max_size=40)


@given(_OPERATIONS)
@example([("add", "a", "b"), ("multi", "a", "b"), ("unmulti", "a", "b"), ("remove", "a", "b")])
def test_running_sums_equal_a_recomputation_from_scratch(operations):
    """After any adds and removals, read between them, the running sums are the matrix's sums."""
    s = Contingency(["a", "b", "c", "d"])
    added: list[tuple[str, str]] = []
    multi = 0
    for operation, assigned, correct in operations:
        if operation == "add":
            s.add_result(assigned, correct)
            added.append((assigned, correct))
        elif operation == "remove" and (assigned, correct) in added:
            s.remove_result(assigned, correct)
            added.remove((assigned, correct))
        elif operation == "multi":
            s.add_result(["a", "b"], "c")
            multi += 1
        elif operation == "unmulti" and multi:
            s.remove_result(["a", "b"], "c")
            multi -= 1
        if multi:
            with pytest.raises(ValueError, match=r"cohen_kappa: \d+ of the \d+ results"):
                s.cohen_kappa()
            continue
        s.cohen_kappa()
        s.balanced_accuracy()
        assert _confusion.confusion_sums(s._counts, "test") == formulas.confusion_sums(
            s.confusion_matrix())
        fresh = CategorySums((s._counts.a, s._counts.b, s._counts.c), "recall", "nan")
        fresh.stale(s.categories)
        fresh.refresh()
        assert s._counts.macro_sums("recall", "nan") == (fresh.total, fresh.defined)


# Single-label only -----------------------------------------------------------------------------


def test_a_result_that_is_not_single_label_makes_the_table_undefined_until_it_is_removed():
    s = Contingency(["x", "y"]).add_results(["x", "y"], ["x", "x"])
    before = s.confusion_matrix()
    for other in ([["x", "y"], "x"], [[], "x"], ["x", []]):  # two assigned, none, none correct
        s.add_result(*other)
        for read in (s.confusion_matrix, s.cohen_kappa, s.balanced_accuracy,
                     lambda: s.matthews_corrcoef("multiclass")):
            with pytest.raises(ValueError, match=r"1 of the 3 results is not single-label .* "
                               r"see category_stats\(\) or multilabel_confusion_matrix\(\)"):
                read()
        assert s.multilabel_confusion_matrix().shape == (2, 2, 2)  # always defined
        s.remove_result(*other)
        assert np.array_equal(s.confusion_matrix(), before)


def test_ignored_labels_leave_a_result_that_is_not_single_label():
    s = Contingency(["x", "y"], unknown="ignore")
    s.add_result("x", "other")  # counted as nothing correct
    with pytest.raises(ValueError, match=r"1 of the 1 results is not single-label"):
        s.confusion_matrix()


def test_a_single_label_removal_that_matches_the_cells_but_no_added_pair_is_refused():
    s = Contingency().add_results(["x", "y", "z"], ["y", "z", "x"])
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"remove_result: no single-label result with 'y' "
                                         r"assigned and 'x' correct was added"):
        s.remove_result("y", "x")  # b of y, c of x and the shape are there; the pair is not
    assert s.to_dict() == before


# Edge cases ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "undefined"), [("perl", 1.0), (0.0, 0.0), (1.0, 1.0)])
def test_an_empty_accumulator_has_a_zero_table_and_undefined_scores(mode, undefined):
    s = Contingency(["x", "y"], zero_division=mode)
    assert s.confusion_matrix().tolist() == [[0, 0], [0, 0]]
    assert s.multilabel_confusion_matrix().tolist() == [[[0, 0], [0, 0]]] * 2
    assert s.cohen_kappa() == undefined
    assert s.balanced_accuracy() == undefined
    assert s.matthews_corrcoef("multiclass") == undefined
    assert Contingency().confusion_matrix().shape == (0, 0)
    assert math.isnan(Contingency(zero_division="nan").cohen_kappa())


def test_one_class_on_both_sides():
    s = Contingency(["x", "y"]).add_results(["x", "x"], ["x", "x"])  # y declared, never seen
    assert s.confusion_matrix().tolist() == [[2, 0], [0, 0]]
    assert s.cohen_kappa() == 1.0  # undefined: Perl mode says every decision agreed
    assert s.matthews_corrcoef("multiclass") == 1.0
    assert s.balanced_accuracy() == 1.0
    assert s.balanced_accuracy(adjusted=True) == 1.0
    wrong = Contingency(["x", "y"], zero_division=0.0).add_results(["x", "y"], ["x", "x"])
    assert wrong.balanced_accuracy() == 0.5
    assert wrong.balanced_accuracy(adjusted=True) == 0.0  # one class: undefined
    assert same(wrong.cohen_kappa(), metrics.cohen_kappa_score(["x", "x"], ["x", "y"]))
    assert wrong.matthews_corrcoef("multiclass") == metrics.matthews_corrcoef(["x", "x"],
                                                                               ["x", "y"])


def test_set_entries_plays_no_part_in_the_confusion_matrix():
    s = Contingency(["x", "y"]).add_results(["x", "y", "y"], ["x", "x", "y"])
    plain = (s.confusion_matrix(), s.cohen_kappa(), s.balanced_accuracy(),
             s.matthews_corrcoef("multiclass"))
    s.set_entries(50, 3, 4, 100)
    assert np.array_equal(s.confusion_matrix(), plain[0])
    assert (s.cohen_kappa(), s.balanced_accuracy(), s.matthews_corrcoef("multiclass")) == plain[1:]


def test_correlations_stay_in_range_at_their_extremes():
    perfect = Contingency().add_results(["a", "b", "c"] * 7, ["a", "b", "c"] * 7)
    assert perfect.cohen_kappa() == 1.0
    assert perfect.matthews_corrcoef("multiclass") == 1.0
    inverse = Contingency().add_results(["a", "b"] * 5, ["b", "a"] * 5)
    assert inverse.cohen_kappa() == -1.0
    assert inverse.matthews_corrcoef("multiclass") == -1.0
    big = 2**61
    for matrix in ([[big, 1], [0, big]], [[1, big], [big, 0]], [[big, big - 1], [big - 3, big]]):
        sums = formulas.confusion_sums(np.array(matrix, dtype=np.int64))
        for score in (formulas.cohen_kappa, formulas.multiclass_matthews_corrcoef):
            assert -1.0 <= score(sums) <= 1.0


def test_the_pure_functions_take_float_matrices_exactly():
    matrix = np.array([[2.5, 0.5], [0.25, 3.0]])
    truth, predicted, weights = [0, 0, 1, 1], [0, 1, 0, 1], [2.5, 0.5, 0.25, 3.0]
    sums = formulas.confusion_sums(matrix)
    assert same(formulas.cohen_kappa(sums),
                metrics.cohen_kappa_score(truth, predicted, sample_weight=weights))
    assert same(formulas.multiclass_matthews_corrcoef(sums),
                metrics.matthews_corrcoef(truth, predicted, sample_weight=weights))
    with pytest.raises(ValueError, match=r"must be square, not of shape \(2, 3\)"):
        formulas.confusion_sums(np.zeros((2, 3)))


# Multi-label ---------------------------------------------------------------------------------


multi_label_cases = categories_and_results(min_results=1).filter(lambda case: len(case[0]) >= 2)


@settings(max_examples=60)
@given(case=multi_label_cases)
def test_multilabel_confusion_matrix_and_jaccard_equal_scikit_learns(case):
    cats, stream = case
    predicted, truth = indicators(cats, stream)
    streamed = Contingency(cats)
    for assigned, correct in stream:
        streamed.add_result(set(assigned), list(correct))
    assert np.array_equal(streamed.multilabel_confusion_matrix(),
                          metrics.multilabel_confusion_matrix(truth, predicted))
    for mode in (0.0, 1.0):
        s = Contingency(cats, zero_division=mode).add_results(predicted, truth)
        half = len(stream) // 2
        merged = (Contingency(cats, zero_division=mode).add_results(predicted[:half], truth[:half])
                  + Contingency(cats, zero_division=mode).add_results(predicted[half:],
                                                                     truth[half:]))
        for average in ("macro", "micro", "weighted", "samples"):
            theirs = quiet(metrics.jaccard_score, truth, predicted, average=average,
                           zero_division=mode)
            assert same(s.jaccard(average), theirs), average
            assert same(merged.jaccard(average), theirs), average


def test_jaccard_undefined_values_follow_zero_division():
    s = Contingency(["x", "y"], zero_division="nan").add_results([["x"], []], [["x"], []])
    assert s.jaccard("macro") == 1.0  # y undefined, left out of the mean
    assert math.isnan(Contingency(zero_division="nan").jaccard("micro"))
    assert Contingency(["x"]).add_results([[]], [[]]).jaccard("samples") == 1.0  # Perl mode
    with pytest.raises(ValueError, match="average must be one of"):
        s.jaccard("binary")  # type: ignore[arg-type]


# Persistence -----------------------------------------------------------------------------------


def _state():
    return Contingency(["x", "y"]).add_results(["x", "y", "x", ["x", "y"]],
                                               ["y", "y", "x", "x"]).to_dict()


def test_to_dict_keeps_the_pairs_and_from_dict_gives_them_back():
    s = Contingency(["x", "y"]).add_results(["x", "y", "x"], ["y", "y", "x"])
    data = s.to_dict()
    assert data["confusion"] == [[0, 0, 1], [1, 0, 1], [1, 1, 1]]
    assert np.array_equal(Contingency.from_dict(data).confusion_matrix(), s.confusion_matrix())


@pytest.mark.parametrize(("confusion", "message"), [
    ({}, r"confusion must be a list of \[correct, assigned, count\]"),
    ([[0, 1]], r"confusion\[0\] must be \[correct, assigned, count\]"),
    ([[0, 2, 1], [1, 1, 1], [0, 0, 1]], r"confusion\[0\] = \[0, 2, 1\] names no category"),
    ([[1, 0, 0], [1, 1, 1], [0, 0, 1]], r"or counts nothing"),
    ([[1, 0, -1]], r"confusion\[0\] must be a non-negative integer count"),
    ([[1, 0, 1], [1, 0, 1]], r"confusion\[1\] repeats the pair \[1, 0\]"),
    ([[1, 0, 1], [1, 1, 1]], r"confusion holds 1 right and 1 wrong single-label results but the result "
                             r"shapes say 2 and 1"),
    ([[0, 1, 1], [1, 1, 1], [0, 0, 1]], r"category 'x' has c = 0 but its single-label results "
                                        r"in confusion alone give 1"),
])
def test_from_dict_refuses_pairs_inconsistent_with_the_rest(confusion, message):
    data = _state()
    assert data["confusion"] == [[0, 0, 1], [1, 0, 1], [1, 1, 1]]
    data["confusion"] = confusion
    with pytest.raises(ValueError, match=message) as refused:
        Contingency.from_dict(data)
    assert str(refused.value).startswith("from_dict: ")


# Reporting -----------------------------------------------------------------------------------


def test_scores_hold_the_new_numbers_where_defined():
    s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
    scores = s.scores()
    assert scores["cohen_kappa"] == s.cohen_kappa()
    assert scores["balanced_accuracy"] == {"plain": s.balanced_accuracy(),
                                           "adjusted": s.balanced_accuracy(adjusted=True)}
    assert scores["matthews_corrcoef"]["multiclass"] == s.matthews_corrcoef("multiclass")
    assert scores["jaccard"] == {average: s.jaccard(average)
                                 for average in ("micro", "macro", "weighted", "samples")}
    s.add_result(["a", "b"], "a")
    scores = s.scores()
    assert scores["cohen_kappa"] is None
    assert scores["balanced_accuracy"] is None
    assert scores["matthews_corrcoef"]["multiclass"] is None


# Weights ---------------------------------------------------------------------------------------


_WEIGHTS = st.sampled_from([1, 2, 0.5, 0.125, 3.75, 1e-3, 2.0**-30, 1000.5])


@st.composite
def weighted_cases(draw):
    cats, stream = draw(single_label_cases)
    return cats, stream, draw(st.lists(_WEIGHTS, min_size=len(stream), max_size=len(stream)))


@settings(max_examples=40)  # several accumulators and scikit-learn calls per example
@given(case=weighted_cases())
@example(case=(["a", "b", "c"], [("b", "a"), ("a", "b"), ("a", "c"), ("c", "c")],
               [0.5, 3, 2.0**-30, 1000.5]))
@example(case=(["a", "b"], [("a", "a"), ("a", "a"), ("a", "b"), ("b", "a")],
               [1, 1, 0.001, 2.0**-30]))  # scikit-learn's MCC off by 4e-4 relative: cancellation
def test_weighted_results_give_scikit_learns_scores_with_sample_weight(case):
    """Integer and float weights on every path: scikit-learn's sample_weight, to 1e-12."""
    cats, stream, weights = case
    labels, truth, predicted = labelled(cats, stream)
    expected = quiet(metrics.confusion_matrix, truth, predicted, labels=labels,
                     sample_weight=weights)
    kappa = quiet(metrics.cohen_kappa_score, truth, predicted, sample_weight=weights,
                  replace_undefined_by=0.0)
    mcc = exact_multiclass_mcc(labels, truth, predicted, weights)
    positive = [weight for weight in weights if weight > 0]
    if positive and max(positive) <= 1e6 * min(positive):
        # scikit-learn's own float sums cancel when weights span more than about 10^6
        # (1 and 2**-30, say): there the exact reference alone is the judge.
        assert same(quiet(metrics.matthews_corrcoef, truth, predicted, sample_weight=weights), mcc)
    balanced = quiet(metrics.balanced_accuracy_score, truth, predicted, sample_weight=weights)
    adjusted = quiet(metrics.balanced_accuracy_score, truth, predicted, sample_weight=weights,
                     adjusted=True)
    streamed = Contingency(labels, zero_division=0.0)
    for assigned, correct, weight in zip(predicted.tolist(), truth.tolist(), weights):
        streamed.add_result(assigned, correct, weight=weight)
        streamed.cohen_kappa()  # running sums kept up to date, through rescales too
        streamed.balanced_accuracy()
    batch = Contingency.from_labels(truth, predicted, categories=labels, sample_weight=weights,
                                    zero_division=0.0)
    windowed = Contingency(labels, zero_division=0.0).add_results(
        np.array([*predicted, labels[0]]), np.array([*truth, labels[-1]]),
        weights=[*weights, 0.375])
    windowed.remove_result(labels[0], labels[-1], weight=0.375)
    half = len(stream) // 2
    merged = (Contingency(labels, zero_division=0.0).add_results(
        list(predicted[:half]), list(truth[:half]), weights=weights[:half])
        + Contingency(labels, zero_division=0.0).add_results(
            list(predicted[half:]), list(truth[half:]), weights=weights[half:]))
    one_class = len(set(truth.tolist())) == 1
    for path, s in (("add_result", streamed), ("from_labels", batch), ("removal", windowed),
                    ("merge", merged), ("from_dict", Contingency.from_dict(streamed.to_dict()))):
        assert np.allclose(s.confusion_matrix(), expected, rtol=1e-12, atol=0), path
        assert same(s.cohen_kappa(), kappa), path
        assert same(s.matthews_corrcoef("multiclass"), mcc), path
        assert same(s.balanced_accuracy(), balanced), path
        if not one_class:
            assert same(s.balanced_accuracy(adjusted=True), adjusted), path


# scikit-learn's options: normalize, weighted kappa, average=None and "binary", labels= -----------


@st.composite
def options_cases(draw, weighted=None):
    """Single-label results, maybe weighted, and a ``labels`` list: a subset of the categories
    (declared, so some may be absent from one side or both) in any order."""
    cats, stream = draw(single_label_cases)
    labels, truth, predicted = labelled(cats, stream)
    weights = (draw(st.lists(_WEIGHTS, min_size=len(stream), max_size=len(stream)))
               if draw(st.booleans() if weighted is None else weighted) else None)
    picked = draw(st.permutations(labels).flatmap(
        lambda order: st.integers(1, len(order)).map(lambda size: order[:size])))
    return labels, truth, predicted, weights, picked


def exact_matrix(labels, truth, predicted, weights):
    """The confusion matrix over ``labels`` in exact fractions (rows the truth)."""
    position = {label: k for k, label in enumerate(labels)}
    matrix = [[Fraction(0)] * len(labels) for _ in labels]
    for t, p, w in zip(truth.tolist(), predicted.tolist(), weights or [1] * len(truth)):
        if t in position and p in position:
            matrix[position[t]][position[p]] += Fraction(w)
    return matrix


def exact_kappa(matrix, weights):
    """1 - sum w O / sum w E in exact fractions (None when undefined)."""
    size = len(matrix)
    rows = [sum(row) for row in matrix]
    columns = [sum(matrix[i][j] for i in range(size)) for j in range(size)]
    n = sum(rows)
    if n == 0:
        return None

    def w(i, j):
        return (i != j) if weights is None else abs(i - j) if weights == "linear" else (i - j) ** 2

    expected = sum(w(i, j) * rows[i] * columns[j] for i in range(size) for j in range(size)) / n
    if expected == 0:
        return None
    observed = sum(w(i, j) * matrix[i][j] for i in range(size) for j in range(size))
    return float(1 - observed / expected)


@settings(max_examples=60)
@given(case=options_cases())
@example(case=(["a", "b", "c"], np.array(["a", "a", "b"]), np.array(["b", "b", "b"]), None,
               ["c", "a"]))  # a row of the chosen labels with no result
def test_normalize_gives_scikit_learns_matrix_each_entry_rounded_once(case):
    labels, truth, predicted, weights, picked = case
    s = Contingency.from_labels(truth, predicted, categories=labels, sample_weight=weights)
    exact = exact_matrix(picked, truth, predicted, weights)
    for normalize in ("true", "pred", "all"):
        ours = s.confusion_matrix(picked, normalize=normalize)
        assert ours.dtype == np.float64
        for i, row in enumerate(exact):
            for j, count in enumerate(row):
                total = (sum(row) if normalize == "true" else sum(r[j] for r in exact)
                         if normalize == "pred" else sum(map(sum, exact)))
                assert ours[i, j] == (float(count / total) if total else 0.0)
        if set(picked) & set(truth.tolist()):  # scikit-learn refuses labels absent from y_true
            theirs = quiet(metrics.confusion_matrix, truth, predicted, labels=picked,
                           sample_weight=weights, normalize=normalize)
            if weights is None:
                assert np.array_equal(ours, theirs)  # integer sums: both correctly rounded
            else:
                assert np.allclose(ours, theirs, rtol=1e-12, atol=0)


@settings(max_examples=60)
@given(case=options_cases())
@example(case=(["a", "b", "c"], np.array(["a", "b", "c", "c"]), np.array(["a", "c", "c", "a"]),
               None, ["c", "a", "b"]))
@example(case=(["a", "b"], np.array(["a", "a"]), np.array(["a", "b"]), [1, 2.0**-30],
               ["a", "b"]))
def test_weighted_kappa_gives_scikit_learns_and_the_exact_value(case):
    labels, truth, predicted, weights, picked = case
    for mode, theirs_undefined in MODES:
        s = Contingency.from_labels(truth, predicted, categories=labels, sample_weight=weights,
                                    zero_division=mode)
        for kind in (None, "linear", "quadratic"):
            ours = s.cohen_kappa(picked, weights=kind)
            exact = exact_kappa(exact_matrix(picked, truth, predicted, weights), kind)
            if exact is None:
                assert same(ours, theirs_undefined)
            else:
                assert same(ours, exact)
            if set(picked) & set(truth.tolist()):
                theirs = quiet(metrics.cohen_kappa_score, truth, predicted, labels=picked,
                               weights=kind, sample_weight=weights,
                               replace_undefined_by=theirs_undefined)
                assert same(ours, theirs), (kind, mode)
        assert same(s.cohen_kappa(labels), s.cohen_kappa())  # the O(1) read and the cells agree


def test_weighted_kappa_is_exact_where_floats_cancel():
    truth = np.array([0] * 3 + [1] * 3 + [2] * 3)
    predicted = np.array([0, 1, 2] * 3)  # chance agreement exactly: kappa 0 for every weighting
    s = Contingency.from_labels(truth, predicted, categories=[0, 1, 2])
    for kind in (None, "linear", "quadratic"):
        assert s.cohen_kappa(weights=kind) == 0.0
    assert Contingency.from_labels([0, 1], [1, 0]).cohen_kappa(weights="quadratic") == -1.0


def _prf(truth, predicted, weights, mode, **options):
    """scikit-learn's precision, recall and F (support dropped), its warnings silenced."""
    return quiet(metrics.precision_recall_fscore_support, truth, predicted,
                 sample_weight=weights, zero_division=mode, **options)[:3]


def _ours(s, average, beta=1.0, **options):
    return (s.precision(average, **options), s.recall(average, **options),
            s.f_beta(beta, average, **options))


def _same_scores(ours, theirs):
    for mine, their in zip(ours, theirs):
        assert np.shape(mine) == np.shape(their)
        assert all(same(m, t) for m, t in zip(np.ravel(mine), np.ravel(their))), (ours, theirs)


@settings(max_examples=50)
@given(case=options_cases(), beta=st.sampled_from([0.5, 1.0, 2.0]))
def test_averages_of_chosen_labels_give_scikit_learns(case, beta):
    labels, truth, predicted, weights, picked = case
    for mode, theirs_mode in MODES:
        s = Contingency.from_labels(truth, predicted, categories=labels, sample_weight=weights,
                                    zero_division=mode)
        for average in (None, "micro", "macro", "weighted"):
            theirs = _prf(truth, predicted, weights, theirs_mode, labels=picked, average=average,
                          beta=beta)
            _same_scores(_ours(s, average, beta, labels=picked), theirs)
        # Every category, in the order of categories: the same as naming them.
        _same_scores(_ours(s, None, beta), _ours(s, None, beta, labels=s.categories))
        for average in ("micro", "macro", "weighted", "samples"):
            assert s.f1(average) == s.f_beta(1.0, average) == getattr(s, f"{average}_f1")
            assert s.precision(average) == getattr(s, f"{average}_precision")
            assert s.recall(average) == getattr(s, f"{average}_recall")


@st.composite
def binary_cases(draw):
    """Results over two labels (one of them perhaps never met), a pos_label (perhaps another),
    perhaps weights."""
    pair = draw(st.sampled_from([(0, 1), ("neg", "pos"), (False, True), (-1, 1)]))
    size = draw(st.integers(1, 12))
    label = st.sampled_from(pair)
    truth = draw(st.lists(label, min_size=size, max_size=size))
    predicted = draw(st.lists(label, min_size=size, max_size=size))
    pos_label = draw(st.sampled_from([*pair, 1, "other"]))
    weights = draw(st.none() | st.lists(_WEIGHTS, min_size=size, max_size=size))
    return truth, predicted, pos_label, weights


@settings(max_examples=80)
@given(case=binary_cases(), beta=st.sampled_from([0.5, 1.0, 2.0]))
@example(case=([1, 1], [1, 1], "other", None), beta=1.0)  # pos_label absent, one label named
@example(case=([0, 1], [1, 0], 2, None), beta=1.0)  # pos_label absent, two labels named: refused
def test_binary_average_follows_scikit_learns_rules(case, beta):
    truth, predicted, pos_label, weights = case
    for mode, theirs_mode in MODES:
        s = Contingency.from_labels(truth, predicted, sample_weight=weights, zero_division=mode)
        before = s.to_dict()
        try:
            theirs = _prf(truth, predicted, weights, theirs_mode, average="binary",
                          pos_label=pos_label, beta=beta)
        except ValueError:
            for read in (s.precision, s.recall, s.f1):
                with pytest.raises(ValueError, match=r"pos_label=.* is not a category the "
                                                     r"results name \(the categories the "
                                                     r"results name are \["):
                    read("binary", pos_label=pos_label)
            assert s.to_dict() == before
            continue
        _same_scores(_ours(s, "binary", beta, pos_label=pos_label), theirs)


def test_binary_average_refuses_multiclass_and_multi_label_results():
    three = Contingency.from_labels([0, 1, 2, 2], [0, 2, 1, 2])
    with pytest.raises(ValueError, match=r"precision: average='binary' .* the results name more "
                                         r"than two categories \([012], [012], [012], \.\.\.\): "
                                         r"a multiclass problem; choose average=None"):
        three.precision("binary")
    # Declared categories no result names do not count: two are named.
    declared = Contingency.from_labels([0, 1], [1, 1], categories=[0, 1, 2, 3])
    assert declared.recall("binary") == metrics.recall_score([0, 1], [1, 1])
    multi = Contingency().add_results([["a", "b"], "a"], ["a", "a"])
    with pytest.raises(ValueError, match=r"f_beta: 1 of the 2 results is not single-label .* "
                                         r"average='binary' scores one category"):
        multi.f_beta(2.0, "binary")
    with pytest.raises(TypeError, match=r"recall: pos_label: label \[1\] is unhashable"):
        three.recall("binary", pos_label=[1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"average must be one of None, 'binary', 'micro'"):
        three.precision("mean")  # type: ignore[call-overload]


def test_pos_label_with_another_average_warns_as_scikit_learn_does():
    s = Contingency.from_labels([1, 2, 1], [1, 2, 2])
    with pytest.warns(UserWarning, match=r"recall: pos_label=2 plays no part unless "
                                         r"average='binary' \(average is 'macro'\); labels=\[2\]"):
        assert s.recall("macro", pos_label=2) == s.macro_recall
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.recall("macro", pos_label=1)  # scikit-learn's default: no warning
        s.recall("macro", pos_label=None)


@settings(max_examples=40)
@given(case=multi_label_cases, picked=st.data())
def test_multi_label_averages_of_chosen_columns_give_scikit_learns(case, picked):
    cats, stream = case
    predicted, truth = indicators(cats, stream)
    columns = picked.draw(st.permutations(range(len(cats))).flatmap(
        lambda order: st.integers(1, len(order)).map(lambda size: order[:size])))
    for mode, theirs_mode in MODES:
        s = Contingency.from_labels(truth, predicted, zero_division=mode)
        for average in (None, "micro", "macro", "weighted"):
            theirs = _prf(truth, predicted, None, theirs_mode, labels=columns, average=average)
            _same_scores(_ours(s, average, labels=columns), theirs)
        _same_scores(_ours(s, "samples", labels=list(reversed(range(len(cats))))),
                     _prf(truth, predicted, None, theirs_mode, average="samples"))
        left_out = set(range(len(cats))) - set(columns)
        if any(truth[:, k].any() or predicted[:, k].any() for k in left_out):
            with pytest.raises(ValueError, match=r"average='samples' over labels that leave out "
                                                 r".* needs each result's own categories"):
                s.precision("samples", labels=columns)
        else:  # the left-out columns are empty: nothing to leave out
            _same_scores(_ours(s, "samples", labels=columns),
                         _prf(truth, predicted, None, theirs_mode, average="samples",
                              labels=columns))


@settings(max_examples=40)
@given(case=options_cases())
def test_confusion_cells_are_the_non_empty_entries_of_the_matrix(case):
    labels, truth, predicted, weights, picked = case
    s = Contingency.from_labels(truth, predicted, categories=labels, sample_weight=weights)
    for chosen in (None, picked):
        names, rows, columns, counts = s.confusion_cells(chosen)
        dense = s.confusion_matrix(chosen)
        assert names == (s.categories if chosen is None else tuple(picked))
        assert counts.dtype == dense.dtype
        assert rows.dtype == columns.dtype == np.int64
        rebuilt = np.zeros_like(dense)
        rebuilt[rows, columns] = counts
        assert np.array_equal(rebuilt, dense)
        assert (counts > 0).all()
        assert list(zip(rows.tolist(), columns.tolist())) == sorted(zip(rows.tolist(),
                                                                        columns.tolist()))


def test_samplewise_is_refused_with_the_reason_and_what_to_use():
    s = Contingency().add_results([["a", "b"], ["b"]], [["a"], ["a", "b"]])
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"samplewise=True asks for each result's own 2 x 2 "
                                         r"table, in the order the results came, .*"
                                         r"result_shapes.* average='samples'"):
        s.multilabel_confusion_matrix(samplewise=True)
    with pytest.raises(TypeError, match=r"samplewise must be True or False, not 'yes'"):
        s.multilabel_confusion_matrix(samplewise="yes")  # type: ignore[arg-type]
    assert s.to_dict() == before
    assert np.array_equal(s.multilabel_confusion_matrix(samplewise=False),
                          s.multilabel_confusion_matrix())


def test_bad_options_are_named():
    s = Contingency.from_labels(["x", "y"], ["x", "x"])
    with pytest.raises(ValueError, match=r"confusion_matrix: normalize must be one of None, "
                                         r"'true', 'pred', 'all', not 'rows'"):
        s.confusion_matrix(normalize="rows")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"cohen_kappa: weights must be one of None, 'linear', "
                                         r"'quadratic', not 'square'"):
        s.cohen_kappa(weights="square")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"cohen_kappa: labels\[0\] = 'z' is not a category"):
        s.cohen_kappa(["z"], weights="linear")
    with pytest.raises(ValueError, match=r"precision: labels\[1\] = 'z' is not a category"):
        s.precision(None, labels=["x", "z"])
    s.add_result(["x", "y"], "x")
    for read in (lambda: s.confusion_matrix(normalize="all"), lambda: s.confusion_cells(),
                 lambda: s.cohen_kappa(weights="linear")):
        with pytest.raises(ValueError, match=r"1 of the 3 results is not single-label"):
            read()


def test_weighted_results_are_named_in_their_weight_when_not_single_label():
    s = Contingency().add_results(["x", ["x", "y"]], ["x", "y"], weights=[1, 0.5])
    with pytest.raises(ValueError, match=r"confusion_matrix: 0\.5 of the 1\.5 results are not "
                                         r"single-label"):
        s.confusion_matrix()


def test_the_pure_functions_check_their_cells():
    with pytest.raises(ValueError, match=r"one entry per cell"):
        formulas.normalized_confusion([0, 1], [0], [1, 1], 2, "true")
    with pytest.raises(ValueError, match=r"cell \(2, 0\) with count 1 does not fit a 2 x 2"):
        formulas.weighted_cohen_kappa([2], [0], [1], 2)
    with pytest.raises(ValueError, match=r"^normalized_confusion: normalize must be one of "
                                         r"'true', 'pred', 'all', not None"):
        formulas.normalized_confusion([0], [0], [1], 1, None)  # type: ignore[arg-type]
    assert formulas.weighted_cohen_kappa([0], [0], [0.5], 1, zero_division="nan") != 0.0


@pytest.mark.parametrize("bad", [np.array(["linear", "quadratic"]), np.array(["linear"]),
                                 np.array("linear"), True, math.nan, b"linear", "square"])
def test_the_pure_functions_refuse_an_option_that_is_not_one_by_name(bad):
    """Called directly (the accumulators check their options before), each names the argument,
    the call and what it may be: an array was numpy's "truth value is ambiguous" to
    weighted_cohen_kappa, and its one-element array of 'linear' was taken for 'linear'."""
    with pytest.raises(ValueError, match=r"^weighted_cohen_kappa: weights must be one of None, "
                                         r"'linear', 'quadratic', not "):
        formulas.weighted_cohen_kappa([0, 1], [1, 1], [2, 3], 2, weights=bad)
    with pytest.raises(ValueError, match=r"^normalized_confusion: normalize must be one of "
                                         r"'true', 'pred', 'all', not "):
        formulas.normalized_confusion([0, 1], [1, 1], [2, 3], 2, bad)
    assert (formulas.weighted_cohen_kappa([0, 1], [1, 1], [2, 3], 2, weights=np.str_("quadratic"))
            == formulas.weighted_cohen_kappa([0, 1], [1, 1], [2, 3], 2, weights="quadratic"))


@given(categories_and_results(), st.sampled_from([None, 2, 0.5]), st.booleans())
@example((["a", "b"], [("a", "b"), ("c", "b")]), None, True)  # c forgotten: a hole in the codes
def test_category_cells_by_places_are_the_cells_by_label(drawn, weight, remove):
    """The categories' cells taken from the counts' columns by their places in table order (the
    categories' own order, as scores() asks) are the cells looked up label by label."""
    cats, stream = drawn
    s = Contingency(cats[:1], unknown="add")
    for assigned, correct in stream:
        s.add_result(assigned, correct, **({} if weight is None else {"weight": weight}))
    if remove and stream:
        s.remove_result(*stream[-1], **({} if weight is None else {"weight": weight}))
    order, _, places = s._orders()
    assert order == [list(s._counts.a)[place] for place in places]
    by_places = _confusion.category_cells(s._counts, order, places)
    assert by_places == _confusion.category_cells(s._counts, order)
    assert [type(count) for column in by_places for count in column] == [
        type(count) for column in _confusion.category_cells(s._counts, order) for count in column]
