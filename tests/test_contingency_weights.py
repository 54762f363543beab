"""Weights: integers repeat a result, floats are counted exactly, as scikit-learn's sample_weight."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency
from contingency.formulas._numeric import MAX_COUNT, MAX_SCALE
from tests.strategies import categories_and_results
from tests.test_contingency import indicators, streamed

#: Weights as users pass them: whole numbers, short and long binary fractions, tiny and big ones.
float_weights = st.one_of(
    st.integers(0, 4),
    st.sampled_from([0.1, 0.2, 1 / 3, 2.5, 1e-9, 2.0**-MAX_SCALE, 1e6 + 0.5, 0.0]),
    st.floats(min_value=0, max_value=1e3, allow_nan=False, allow_infinity=False).filter(
        lambda w: w == 0 or w >= 2.0**-70),
)


def same(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-12)


@st.composite
def weighted_cases(draw, *, single_label=False, min_results=0):
    cats, stream = draw(categories_and_results(single_label=single_label, min_results=min_results))
    weights = draw(st.lists(float_weights, min_size=len(stream), max_size=len(stream)))
    return cats, stream, weights


def well_conditioned(w):
    """True unless the positive weights span more than 10**3: scikit-learn's MCC subtracts
    products of weighted sums in float64, and then loses digits in proportion to the span
    (-0.99999992 for an exact -1 with weights 1e-9 and 1; 0.99999999997 for an exact 1 with
    weights 1,000,000.5 and 1.8984375, a span of 5 x 10**5): past 10**3 they may exceed the
    1e-12 that `same` allows."""
    positive = w[w > 0]
    return not positive.size or positive.min() >= 1e-3 * positive.max()


def weighted_stream(cats, stream, weights, **options):
    s = Contingency(cats, **options)
    for (assigned, correct), weight in zip(stream, weights):
        s.add_result(list(assigned), list(correct), weight=weight)
    return s


# Against scikit-learn's sample_weight ---------------------------------------------------------


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@settings(max_examples=60)
@given(case=weighted_cases(single_label=True, min_results=1))
@example(case=(["a", "b"], [("a", "a"), ("a", "b")], [0.1, 0.7]))
@example(case=(["a", "b"], [("a", "a"), ("a", "a"), ("b", "b")], [0, 1000000.5, 1.8984375]))
def test_single_label_scores_equal_scikit_learn_with_sample_weight(case):
    cats, stream, weights = case
    labels = [str(cat) for cat in cats]
    y_pred = np.array([str(a) for a, _ in stream])
    y_true = np.array([str(c) for _, c in stream])
    w = np.array(weights, dtype=np.float64)
    s = Contingency.from_labels(y_true, y_pred, categories=labels, sample_weight=w,
                                zero_division=0.0)
    if w.sum() == 0:
        return  # scikit-learn refuses weights that are all zero
    for average in ("micro", "macro", "weighted"):
        p, r, f, _ = metrics.precision_recall_fscore_support(
            y_true, y_pred, labels=labels, average=average, sample_weight=w, zero_division=0.0)
        assert same(getattr(s, f"{average}_precision"), p), average
        assert same(getattr(s, f"{average}_recall"), r), average
        assert same(getattr(s, f"{average}_f1"), f), average
        fb = metrics.fbeta_score(y_true, y_pred, beta=2.0, labels=labels, average=average,
                                 sample_weight=w, zero_division=0.0)
        assert same(s.f_beta(2.0, average), fb), average
    assert same(s.subset_accuracy, metrics.accuracy_score(y_true, y_pred, sample_weight=w))
    np.testing.assert_allclose(
        s.confusion_matrix(),
        metrics.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w), rtol=1e-12)
    if not well_conditioned(w):
        return
    assert same(s.matthews_corrcoef("multiclass"),
                metrics.matthews_corrcoef(y_true, y_pred, sample_weight=w))
    assert same(s.cohen_kappa(), metrics.cohen_kappa_score(
        y_true, y_pred, labels=labels, sample_weight=w, replace_undefined_by=0.0))
    # Matthews: each category's 2x2 table is scikit-learn's binary MCC of "is it this one?"
    per_category = [metrics.matthews_corrcoef(y_true == k, y_pred == k, sample_weight=w)
                    for k in labels]
    assert same(s.matthews_corrcoef("macro"), float(np.mean(per_category)))


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@settings(max_examples=60)
@given(case=weighted_cases(min_results=1).filter(lambda case: len(case[0]) >= 2),
       beta=st.sampled_from([0.5, 1.0, 2.0]))
def test_multi_label_scores_equal_scikit_learn_with_sample_weight(case, beta):
    cats, stream, weights = case  # one column would be binary input to scikit-learn
    predicted, truth = indicators(cats, stream)
    w = np.array(weights, dtype=np.float64)
    s = Contingency.from_labels(truth, predicted, categories=cats, sample_weight=w,
                                zero_division=0.0)
    assert s == weighted_stream(cats, stream, weights, zero_division=0.0)
    if w.sum() == 0:
        return  # scikit-learn divides by the total weight
    for average in ("micro", "macro", "weighted", "samples"):
        p, r, f, _ = metrics.precision_recall_fscore_support(
            truth, predicted, beta=beta, average=average, sample_weight=w, zero_division=0.0)
        assert same(getattr(s, f"{average}_precision"), p), average
        assert same(getattr(s, f"{average}_recall"), r), average
        assert same(s.f_beta(beta, average), f), average
        f1 = metrics.f1_score(truth, predicted, average=average, sample_weight=w,
                              zero_division=0.0)
        assert same(getattr(s, f"{average}_f1"), f1), average
    assert same(s.subset_accuracy, metrics.accuracy_score(truth, predicted, sample_weight=w))
    assert same(s.hamming_loss, metrics.hamming_loss(truth, predicted, sample_weight=w))
    np.testing.assert_allclose(
        s.multilabel_confusion_matrix(),
        metrics.multilabel_confusion_matrix(truth, predicted, sample_weight=w), rtol=1e-12,
        atol=1e-12 * w.sum())  # scikit-learn's true negatives are a difference of float sums
    for average in ("micro", "macro", "weighted", "samples"):
        assert same(s.jaccard(average), metrics.jaccard_score(
            truth, predicted, average=average, sample_weight=w, zero_division=0.0)), average
    stats = s.category_stats()
    _, _, _, support = metrics.precision_recall_fscore_support(
        truth, predicted, average=None, sample_weight=w, zero_division=0.0)
    for j, cat in enumerate(cats):
        assert same(stats[cat]["support"], support[j])
    if not well_conditioned(w):
        return
    k = len(cats)
    assert same(s.matthews_corrcoef("micro"), metrics.matthews_corrcoef(
        truth.ravel(), predicted.ravel(), sample_weight=np.repeat(w, k)))
    per_category = [metrics.matthews_corrcoef(truth[:, j], predicted[:, j], sample_weight=w)
                    for j in range(k)]
    assert same(s.matthews_corrcoef("macro"), float(np.mean(per_category)))


def test_from_labels_sample_weight_on_a_known_case():
    y_true = ["cat", "cat", "dog", "dog"]
    y_pred = ["cat", "dog", "dog", "dog"]
    w = [0.5, 2.0, 1.0, 0.25]
    s = Contingency.from_labels(y_true, y_pred, sample_weight=w, zero_division=0.0)
    assert s.n_results == 3.75
    assert s.macro_precision == pytest.approx(
        metrics.precision_score(y_true, y_pred, average="macro", sample_weight=w), abs=1e-12)
    assert s.macro_recall == pytest.approx(
        metrics.recall_score(y_true, y_pred, average="macro", sample_weight=w), abs=1e-12)


# Integer weights are repetitions ----------------------------------------------------------------


@given(case=categories_and_results(), data=st.data())
def test_integer_weights_equal_repeating_the_result(case, data):
    cats, stream = case
    weights = data.draw(st.lists(st.integers(0, 3), min_size=len(stream), max_size=len(stream)))
    repeated = streamed(cats, [pair for pair, w in zip(stream, weights) for _ in range(w)])
    predicted, truth = indicators(cats, stream)
    assert weighted_stream(cats, stream, weights) == repeated
    assert Contingency(cats).add_results(predicted, truth, weights=weights) == repeated
    assert Contingency(cats).add_results([list(a) for a, _ in stream],
                                         [list(c) for _, c in stream],
                                         weights=np.array(weights, dtype=np.uint8)) == repeated
    weighted = weighted_stream(cats, stream, weights)
    assert weighted.to_dict() == repeated.to_dict()
    assert type(weighted.n_results) is int
    assert weighted.scores() == repeated.scores()


@given(case=categories_and_results(single_label=True), data=st.data())
def test_integer_weights_of_label_arrays_equal_repetition(case, data):
    _, stream = case
    weights = data.draw(st.lists(st.integers(0, 3), min_size=len(stream), max_size=len(stream)))
    assigned = np.array([str(a) for a, _ in stream], dtype=object).astype(str)
    correct = np.array([str(c) for _, c in stream], dtype=object).astype(str)
    repeat = np.array(weights, dtype=np.int64)
    expected = Contingency().add_results(np.repeat(assigned, repeat), np.repeat(correct, repeat))
    assert Contingency().add_results(assigned, correct, weights=weights) == expected


def test_weight_one_is_the_unweighted_path():
    plain = Contingency().add_results(["a", "b"], ["a", "a"])
    explicit = Contingency()
    explicit.add_result("a", "a", weight=1)
    explicit.add_result("b", "a", weight=np.int64(1))
    assert explicit == plain
    assert Contingency().add_results(["a", "b"], ["a", "a"], weights=[1, 1.0]) == plain
    assert type(explicit.n_results) is int


# Float weights are exact --------------------------------------------------------------------------


def test_float_weights_add_and_remove_exactly():
    """Float arithmetic gives 0.1 + 0.2 - 0.1 = 0.20000000000000004; the counts do not."""
    s = Contingency()
    s.add_result("a", "a", weight=0.1)
    s.add_result("a", "a", weight=0.2)
    s.remove_result("a", "a", weight=0.1)
    t = Contingency()
    t.add_result("a", "a", weight=0.2)
    assert s == t
    assert s.n_results == 0.2
    assert s.to_dict() == t.to_dict()


@given(case=weighted_cases(), data=st.data())
def test_float_weights_are_order_free_mergeable_and_removable(case, data):
    cats, stream, weights = case
    whole = weighted_stream(cats, stream, weights)
    order = data.draw(st.permutations(range(len(stream))))
    shuffled = weighted_stream(cats, [stream[i] for i in order], [weights[i] for i in order])
    assert shuffled == whole
    middle = len(stream) // 2
    left = weighted_stream(cats, stream[:middle], weights[:middle])
    right = weighted_stream(cats, stream[middle:], weights[middle:])
    assert left + right == whole
    # Taking the second half back out gives exactly the first half.
    taken = whole.copy()
    taken.remove_results([list(a) for a, _ in stream[middle:]],
                         [list(c) for _, c in stream[middle:]], weights=weights[middle:])
    assert taken == left
    predicted, truth = indicators(cats, stream)
    assert Contingency(cats).add_results(predicted, truth, weights=weights) == whole
    assert Contingency.from_dict(whole.to_dict()) == whole


@given(case=weighted_cases(), data=st.data())
def test_adding_then_removing_a_weighted_result_restores_the_state(case, data):
    cats, stream, weights = case
    s = weighted_stream(cats, stream, weights)
    before, document = s.copy(), s.to_dict()
    macro_before = s.macro_f1
    assigned = data.draw(st.frozensets(st.sampled_from(cats), max_size=2))
    correct = data.draw(st.frozensets(st.sampled_from(cats), max_size=2))
    weight = data.draw(float_weights)
    s.add_result(list(assigned), list(correct), weight=weight)
    s.remove_result(list(assigned), list(correct), weight=weight)
    assert s == before
    assert s.to_dict() == document
    assert s.macro_f1 == macro_before


def test_label_arrays_with_weights_of_every_size_equal_the_loop():
    rng = random.Random(5)
    cats = ["a", "b", "c"]
    assigned = [rng.choice(cats) for _ in range(200)]
    correct = [rng.choice(cats) for _ in range(200)]
    for weights in ([rng.random() for _ in range(200)],  # 53-bit fractions: int64 units
                    [rng.random() * 10.0**rng.randint(-15, 15) for _ in range(200)],  # Python ints
                    [float(rng.randint(0, 2**40)) for _ in range(200)]):  # big whole floats
        loop = Contingency()
        for a, c, w in zip(assigned, correct, weights):
            loop.add_result(a, c, weight=w)
        arrays = Contingency().add_results(np.array(assigned), np.array(correct),
                                           weights=np.array(weights))
        assert arrays == loop
        assert Contingency().add_results(assigned, correct, weights=weights) == loop
        assert math.isclose(arrays.n_results, math.fsum(weights), rel_tol=1e-15)


def test_float32_and_numpy_scalars_are_taken_exactly():
    s = Contingency()
    s.add_result("a", "a", weight=np.float32(0.1))
    t = Contingency().add_results(np.array(["a"]), np.array(["a"]),
                                  weights=np.array([0.1], dtype=np.float32))
    assert s == t
    assert s.n_results == float(np.float32(0.1))


def test_reads_after_a_rescale_use_fresh_running_sums():
    s = Contingency(["a", "b"])
    s.add_results(["a", "b", "a"], ["a", "a", "b"])
    first = s.macro_f1, s.weighted_f1
    s.add_result("b", "b", weight=0.5)  # a finer unit: every count is rescaled
    s.remove_result("b", "b", weight=0.5)
    assert (s.macro_f1, s.weighted_f1) == first
    fresh = Contingency(["a", "b"]).add_results(["a", "b", "a"], ["a", "a", "b"],
                                                weights=[0.5, 0.75, 2**-100])
    assert fresh.macro_f1 == pytest.approx(
        metrics.f1_score(["a", "a", "b"], ["a", "b", "a"], average="macro",
                         sample_weight=[0.5, 0.75, 2**-100]), abs=1e-12)


def test_zero_weight_results_add_no_category():
    s = Contingency()
    s.add_result("a", "a", weight=0)
    s.add_results(np.array(["b", "c"]), np.array(["b", "d"]), weights=[0.0, 1.0])
    assert s.categories == ("c", "d")
    assert Contingency.from_dict(s.to_dict()) == s


# Refused weights ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("weight", "error", "match"), [
    (float("nan"), ValueError, "add_result: weight must be a finite non-negative number, not nan"),
    (float("inf"), ValueError, "not inf"),
    (-1, ValueError, "not -1"),
    (-0.5, ValueError, "not -0.5"),
    (True, TypeError, "add_result: weight must be a number, not a bool"),
    (np.bool_(True), TypeError, "not a bool"),
    ("2", TypeError, "add_result: weight must be a number .*, not str"),
    (None, TypeError, "not NoneType"),
    (2.0**-140, ValueError, "needs a unit of 2\\*\\*-140"),
])
def test_bad_weights_are_refused_naming_the_argument(weight, error, match):
    s = Contingency().add_results(["a"], ["a"])
    before = s.copy()
    with pytest.raises(error, match=match):
        s.add_result("a", "b", weight=weight)
    assert s == before
    with pytest.raises(error, match=match.replace("add_result", "remove_result")):
        s.remove_result("a", "a", weight=weight)
    assert s == before


@pytest.mark.parametrize(("weights", "error", "match"), [
    ([1.0, float("nan")], ValueError, r"add_results: weights\[1\] must be a finite"),
    (np.array([1.0, -2.0]), ValueError, r"add_results: weights\[1\] must be .*not -2.0"),
    (np.array([1, -2]), ValueError, r"add_results: weights\[1\]"),
    ([1, True], TypeError, r"add_results: weights\[1\] must be a number, not a bool"),
    (np.array([True, False]), TypeError, "add_results: weights must be numbers, not booleans"),
    ([1, "x"], TypeError, r"add_results: weights\[1\] must be a number"),
    ([1, None], TypeError, r"add_results: weights\[1\] must be a number"),
    ([1.0], ValueError, "add_results: weights has 1 items but there are 2 results"),
    (np.ones((2, 1)), ValueError, "weights must be one-dimensional"),
    ("12", TypeError, "add_results: weights must be a sequence of numbers, not str"),
    ([1.0, 1e-300], ValueError, r"add_results: weights\[1\] = 1e-300 needs a unit"),
])
def test_bad_batch_weights_are_refused_naming_the_row(weights, error, match):
    for assigned, correct in ((["a", "b"], ["a", "a"]), (np.array(["a", "b"]), np.array(["a", "a"])),
                              (np.array([[1, 0], [0, 1]]), np.array([[1, 0], [1, 0]]))):
        s = Contingency(["a", "b"]).add_results(["a", "b"], ["a", "a"])
        before = s.copy()
        with pytest.raises(error, match=match):
            s.add_results(assigned, correct, weights=weights)
        assert s == before
        with pytest.raises(error, match=match.replace("add_results", "remove_results")):
            s.remove_results(assigned, correct, weights=weights)
        assert s == before


def test_a_refused_weighted_removal_leaves_the_scale_and_counts_as_they_were():
    s = Contingency().add_results(["a", "b"], ["a", "a"])
    before = s.to_dict()
    with pytest.raises(ValueError, match="remove_result: category 'b' has no true positive"):
        s.remove_result("b", "b", weight=0.5)
    assert s.to_dict() == before
    assert type(s.n_results) is int


def _entries(d):
    s = Contingency([])
    s.set_entries(0, 0, 0, d)
    return s


def test_the_count_limit_holds_for_weighted_counts():
    s = Contingency()
    s.add_result("a", "a", weight=float(2**62))
    s.add_result("a", "a", weight=0.5)
    before = s.copy()
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        s.add_result("a", "a", weight=float(2**62))
    assert s == before
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        Contingency().add_results(["a", "b"], ["a", "b"], weights=[2.0**62, 2.0**62])
    exactly = Contingency()
    exactly.add_result("a", "a", weight=MAX_COUNT)
    assert exactly.n_results == MAX_COUNT
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        exactly.add_result("a", "a", weight=0.5)  # past the limit by half a result
    assert exactly.n_results == MAX_COUNT
    scaled = Contingency([])
    scaled.add_result([], [], weight=0.5)  # counts in units of 2**-1 from now on
    scaled.set_entries(0, 0, 0, MAX_COUNT)  # the limit itself
    before = scaled.copy()
    with pytest.raises(ValueError, match="set by set_entries in micro-table cell d"):
        scaled.merge(_entries(1))
    assert scaled == before


@pytest.mark.parametrize("results", [
    [("a", "a"), ("a", "b"), ("a", "a")],  # single-label: the tally's pairs
    [({"a", "b"}, {"a"}), ({"a"}, {"a", "b"}), ({"b"}, {"b", "a"})],  # multi-label tallies
])
def test_results_past_the_count_limit_are_refused_when_added_not_when_read(results):
    """Near the limit every result is checked as it is added: none can be tallied unchecked
    and make the next read fail (as it did: a read then raised, and every read after it)."""
    s = Contingency(["a", "b"])
    s.add_result("a", "a", weight=MAX_COUNT - 2)
    expected = Contingency(["a", "b"]).add_results(*zip(*results[:2]))
    expected.add_result("a", "a", weight=MAX_COUNT - 2)
    s.add_result(*results[0])
    s.add_result(*results[1])  # no read in between: nothing folds these two
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        s.add_result(*results[2])
    assert s.n_results == MAX_COUNT  # a read works, and the refused result left no trace
    assert s == expected
    s.remove_result("a", "a", weight=MAX_COUNT - 2)  # far from the limit again: fast paths
    s.add_result(*results[2])
    assert s.n_results == 3


def test_verbose_can_be_switched_and_prints_only_while_on(capsys):
    s = Contingency(["a"])
    s.add_result("a", "a")
    s.verbose = True
    s.add_result("a", "a", name="second")
    s.verbose = False
    s.add_result("a", "a")
    assert s.verbose is False
    assert s.n_results == 3
    assert capsys.readouterr().out.count("\n") == 1


# Mixed integer and float weights (issue 21) ---------------------------------------------------------

#: Batches whose weights numpy would round if it made one float64 array of them.
MIXED = [
    [2**60 + 1, 0.5],
    [2**53 + 1, 1.0],
    [0.5, 2**53 + 1, np.float32(0.25), np.int64(3)],
    [np.float64(1.5), 2**62 + 1],
]


@pytest.mark.parametrize("weights", MIXED)
def test_mixed_int_and_float_weights_are_counted_exactly_on_every_batch_path(weights):
    """A batch equals the add_result loop: the list, label-array, indicator and from_labels
    paths, the weights given as a list, a tuple, an iterator and an object array."""
    assigned = ["a", "b", "a", "b"][:len(weights)]
    correct = ["a", "a", "b", "b"][:len(weights)]
    loop = Contingency(["a", "b"])
    for chosen, truth, weight in zip(assigned, correct, weights):
        loop.add_result(chosen, truth, weight=weight)
    matrices = tuple(np.array([[label == "a", label == "b"] for label in side], dtype=np.uint8)
                     for side in (assigned, correct))
    for passed in (list(weights), tuple(weights), np.array(weights, dtype=object)):
        batches = [
            Contingency(["a", "b"]).add_results(assigned, correct, weights=passed),
            Contingency(["a", "b"]).add_results(np.array(assigned), np.array(correct),
                                                weights=passed),
            Contingency(["a", "b"]).add_results(*matrices, weights=passed),
            Contingency.from_labels(correct, assigned, categories=["a", "b"],
                                    sample_weight=passed),
        ]
        for batch in batches:
            assert batch == loop
    batch = Contingency(["a", "b"]).add_results(assigned, correct, weights=iter(weights))
    assert batch == loop
    assert batch.to_dict() == loop.to_dict()


def test_a_mixed_batch_counts_the_exact_sum_of_its_weights():
    s = Contingency().add_results(["x", "y"], ["x", "x"], weights=[2**60 + 1, 0.5])
    assert s.to_dict()["scale"] == 1
    assert s.to_dict()["result_shapes"] == [[0, 1, 1, 1], [1, 1, 1, (2**60 + 1) * 2]]
    t = Contingency().add_results(["x", "y"], ["x", "x"], weights=[2**53 + 1, 1.0])
    assert t.n_results == 2**53 + 2


@given(weights=st.lists(st.one_of(st.integers(1, 2**58), float_weights.filter(bool)), min_size=1,
                        max_size=8))
@example(weights=[2**53 + 1, 0.5, 3])
def test_any_mix_of_int_and_float_weights_equals_the_loop(weights):
    # Positive weights: a zero-weight row can still order the categories differently.
    assigned = ["a" if i % 3 else "b" for i in range(len(weights))]
    correct = ["a" if i % 2 else "b" for i in range(len(weights))]
    loop = Contingency()
    for chosen, truth, weight in zip(assigned, correct, weights):
        loop.add_result(chosen, truth, weight=weight)
    assert Contingency().add_results(assigned, correct, weights=weights) == loop
    assert Contingency().add_results(np.array(assigned), np.array(correct), weights=weights) == loop


def test_longdouble_weights_are_checked_one_by_one_not_rounded():
    fine = np.array([0.5, 3], dtype=np.longdouble)
    assert Contingency().add_results(["a", "b"], ["a", "a"], weights=fine) == \
        Contingency().add_results(["a", "b"], ["a", "a"], weights=[0.5, 3])
    finer = np.array([1, 1], dtype=np.longdouble)
    finer[1] += np.longdouble(2.0) ** -60
    if finer[1] != 1:  # a platform whose long double is wider than float64
        with pytest.raises(ValueError, match=r"add_results: weights\[1\] = .* is not exactly a float64"):
            Contingency().add_results(["a", "b"], ["a", "a"], weights=finer)


@pytest.mark.parametrize(("weight", "error", "match"), [
    (2**63, ValueError, "add_result: weight = 9223372036854775808 is past the count limit"),
    pytest.param(10**5000, ValueError,
                 "add_result: weight = an integer of 5001 digits is past the count limit",
                 id="5001 digits"),
    (2.0**63, ValueError, "is past the count limit: a weight is at most 2\\*\\*63 - 1"),
    (np.uint64(2**63), ValueError, "is past the count limit"),
])
def test_weights_past_the_count_limit_are_refused_with_the_library_s_message(weight, error, match):
    s = Contingency().add_results(["a"], ["a"])
    before = s.to_dict()
    with pytest.raises(error, match=match):
        s.add_result("a", "b", weight=weight)
    for batch in ([1, weight], np.array([1, weight], dtype=object)):
        with pytest.raises(error, match=match.replace("add_result: weight", r"add_results: weights\[1\]")):
            s.add_results(["a", "b"], ["a", "a"], weights=batch)
    assert s.to_dict() == before


@pytest.mark.parametrize("as_array", [False, True])
def test_a_row_of_weight_zero_does_not_order_the_categories(as_array):
    """Issue 21, finding 6: rows x (weight 0), y, x gave the list path the order (x, y), where
    the add_result loop and label arrays give (y, x): the states compared unequal. (Labels
    with no order between them keep the order first met: the order that could differ.)"""
    labels = [1, "y", 1]
    weights = [0, 1, 1]
    loop = Contingency()
    for label, weight in zip(labels, weights):
        loop.add_result(label, label, weight=weight)
    side = np.array(labels, dtype=object) if as_array else labels
    batch = Contingency().add_results(side, side, weights=weights)
    assert batch.categories == loop.categories == (1, "y")
    assert batch == loop
