"""GroupedContingency: each group and the whole equal plain accumulators of their results, the
disparities equal fairlearn's, every write is all or nothing."""

from __future__ import annotations

import copy
import json
import math
import pickle
import re
from functools import partial
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contingency import Contingency, GroupedContingency, IntervalRefused, _grouped_state
from contingency._contingency_state import read_state as read_group_state
from contingency._extremes import STALE
from contingency._group_scores import score_reader
from contingency._labels import label_key
from contingency._registry import TABLE, property_names
from contingency.formulas import fairness
from tests.refusals import refused_unchanged
from tests.test_contingency_state import REFUSALS, as_plain, numpy_values
from tests.test_fuzz import mutated

RELATIVE = 1e-12


def close(ours: float, theirs: float) -> bool:
    if math.isnan(theirs) or math.isnan(ours):
        return math.isnan(theirs) and math.isnan(ours)
    if math.isinf(theirs):
        return ours == theirs
    return abs(ours - theirs) <= RELATIVE * max(abs(theirs), 1e-300) or ours == theirs


def per_group_reference(assigned, correct, groups, categories=None, weights=None, **settings):
    """Each group's plain Contingency, fed its rows in order, and one fed every row."""
    references: dict = {}
    for row, key in enumerate(groups):
        references.setdefault(key, []).append(row)
    built = {}
    for key, rows in references.items():
        built[key] = Contingency(categories, **settings).add_results(
            [assigned[row] for row in rows], [correct[row] for row in rows],
            weights=None if weights is None else [weights[row] for row in rows])
    overall = Contingency(categories, **settings).add_results(list(assigned), list(correct),
                                                              weights=weights)
    return built, overall


# fairlearn -------------------------------------------------------------------------------------

fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
sklearn_metrics = pytest.importorskip("sklearn.metrics")
pandas = pytest.importorskip("pandas")


def audit_data(seed: int, n: int = 600, classes: int = 2):
    """Random predictions with two sensitive features (a DataFrame), weights, and a class that
    one group never has: group ("s", 2) sees no positive in its truth, and class 2 (when there
    are three) appears nowhere in the rows of feature value "r"."""
    rng = np.random.default_rng(seed)
    features = pandas.DataFrame({"region": rng.choice(["n", "s", "r"], n),
                                 "age": rng.choice([1, 2, 3], n)})
    truth = rng.integers(0, classes, n)
    predicted = np.where(rng.random(n) < 0.6, truth, rng.integers(0, classes, n))
    absent = (features["region"] == "s").to_numpy() & (features["age"] == 2).to_numpy()
    truth[absent] = 0
    if classes > 2:
        rows = (features["region"] == "r").to_numpy()
        truth[rows] = np.minimum(truth[rows], 1)
        predicted[rows] = np.minimum(predicted[rows], 1)
    weights = rng.random(n) * 3
    return truth, predicted, features, weights


def grouped_of(truth, predicted, features, weights, categories=None, zero_division=0.0):
    return GroupedContingency(categories, zero_division=zero_division).add_results(
        predicted, truth, groups=features, weights=weights)


@pytest.mark.parametrize("weighted", [False, True])
def test_metric_frame_by_group_overall_and_every_disparity(weighted):
    truth, predicted, features, weights = audit_data(3, classes=3)
    w = weights if weighted else None
    ours = grouped_of(truth, predicted, features, w)
    quiet = {"zero_division": 0}
    metrics = {
        "macro_f1": partial(sklearn_metrics.f1_score, average="macro", **quiet),
        "macro_precision": partial(sklearn_metrics.precision_score, average="macro", **quiet),
        "weighted_recall": partial(sklearn_metrics.recall_score, average="weighted", **quiet),
        "micro_f1": partial(sklearn_metrics.f1_score, average="micro", **quiet),
        "subset_accuracy": sklearn_metrics.accuracy_score,
        ("recall", 2): partial(sklearn_metrics.recall_score, labels=[2], average="macro", **quiet),
        ("precision", 1): partial(sklearn_metrics.precision_score, labels=[1], average="macro",
                                  **quiet),
    }
    names = {score: f"m{i}" for i, score in enumerate(metrics)}
    frame = fairlearn_metrics.MetricFrame(
        metrics={names[score]: metric for score, metric in metrics.items()},
        y_true=truth, y_pred=predicted, sensitive_features=features,
        sample_params={names[score]: {"sample_weight": w} for score in metrics} if weighted
        else None)
    assert set(ours.groups) == set(frame.by_group.index)
    for score, name in names.items():
        by_group = ours.by_group(score)
        for key in ours.groups:
            assert close(by_group[key], frame.by_group.loc[key, name]), (score, key)
        assert close(ours.overall_score(score), frame.overall[name]), score
        assert close(ours.group_min(score), frame.group_min()[name]), score
        assert close(ours.group_max(score), frame.group_max()[name]), score
        for method in ("between_groups", "to_overall"):
            assert close(ours.difference(score, method), frame.difference(method=method)[name])
            assert close(ours.ratio(score, method), frame.ratio(method=method)[name]), score
        assert ours.group_argmin(score) == frame.by_group[name].idxmin()
        assert ours.group_argmax(score) == frame.by_group[name].idxmax()


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("method", ["between_groups", "to_overall"])
def test_fairlearn_fairness_scores(weighted, method):
    truth, predicted, features, weights = audit_data(5)
    w = weights if weighted else None
    ours = grouped_of(truth, predicted, features, w)
    given_ = {"y_true": truth, "y_pred": predicted, "sensitive_features": features,
              "sample_weight": w, "method": method}
    pairs = [
        (ours.demographic_parity_difference(1, method),
         fairlearn_metrics.demographic_parity_difference(**given_)),
        (ours.demographic_parity_ratio(1, method),
         fairlearn_metrics.demographic_parity_ratio(**given_)),
        (ours.equalized_odds_difference(1, method),
         fairlearn_metrics.equalized_odds_difference(**given_)),
        (ours.equalized_odds_ratio(1, method), fairlearn_metrics.equalized_odds_ratio(**given_)),
        (ours.equalized_odds_difference(1, method, agg="mean"),
         fairlearn_metrics.equalized_odds_difference(**given_, agg="mean")),
        (ours.equalized_odds_ratio(1, method, agg="mean"),
         fairlearn_metrics.equalized_odds_ratio(**given_, agg="mean")),
        (ours.equal_opportunity_difference(1, method),
         fairlearn_metrics.equal_opportunity_difference(**given_)),
        (ours.equal_opportunity_ratio(1, method),
         fairlearn_metrics.equal_opportunity_ratio(**given_)),
    ]
    for position, (mine, theirs) in enumerate(pairs):
        assert close(mine, theirs), (position, mine, theirs)
    # The group without a positive truth has a true positive rate of 0, as in fairlearn.
    assert ours.by_group(("recall", 1))[("s", 2)] == 0.0
    frame = fairlearn_metrics.MetricFrame(
        metrics=fairlearn_metrics.selection_rate, y_true=truth, y_pred=predicted,
        sensitive_features=features, sample_params={"sample_weight": w})
    for key, value in ours.selection_rate(1).items():
        assert close(value, frame.by_group.loc[key])


def test_an_all_zero_ratio_is_nan_as_in_fairlearn_with_zero_division_nan():
    truth = np.array([0, 0, 1, 1])
    predicted = np.zeros(4, dtype=int)
    groups = np.array(["a", "b", "a", "b"])
    ours = GroupedContingency([0, 1], zero_division="nan").add_results(predicted, truth,
                                                                        groups=groups)
    theirs = fairlearn_metrics.demographic_parity_ratio(truth, predicted,
                                                        sensitive_features=groups)
    assert math.isnan(theirs)
    assert math.isnan(ours.demographic_parity_ratio(1))
    assert GroupedContingency([0, 1]).add_results(predicted, truth, groups=groups
                                                  ).demographic_parity_ratio(1) == 1.0


# Each data set makes one equalized-odds disparity 0/0 (NaN under zero_division="nan") while
# every group has positive and negative truths, so each rate is defined as in fairlearn:
# no false positive anywhere (the false positive rates all 0), no true positive anywhere
# (the true positive rates all 0), and both at once.
UNDEFINED_RATIOS = {
    "false positive rates all 0": ([1, 0, 0, 1, 1, 0], [1, 1, 0, 1, 0, 0]),
    "true positive rates all 0": ([0, 1, 0, 0, 1, 1], [1, 0, 0, 1, 0, 0]),
    "both all 0": ([0, 0, 0, 0, 0, 0], [1, 0, 0, 1, 0, 0]),
}


@pytest.mark.parametrize("case", sorted(UNDEFINED_RATIOS))
@pytest.mark.parametrize("method", ["between_groups", "to_overall"])
@pytest.mark.parametrize("agg", ["worst_case", "mean"])
def test_equalized_odds_with_an_undefined_ratio_are_fairlearns(case, method, agg):
    # fairlearn averages with pandas' mean, which leaves the NaN ratio out (issue 31, item 4).
    predicted, truth = (np.array(column) for column in UNDEFINED_RATIOS[case])
    groups = np.array(["a", "a", "a", "b", "b", "b"])
    ours = GroupedContingency([0, 1], zero_division="nan").add_results(predicted, truth,
                                                                        groups=groups)
    given_ = {"y_true": truth, "y_pred": predicted, "sensitive_features": groups,
              "method": method, "agg": agg}
    pairs = [(ours.equalized_odds_ratio(1, method, agg=agg),
              fairlearn_metrics.equalized_odds_ratio(**given_)),
             (ours.equalized_odds_difference(1, method, agg=agg),
              fairlearn_metrics.equalized_odds_difference(**given_))]
    for mine, theirs in pairs:
        assert close(mine, float(theirs)), (mine, theirs)
    if case != "both all 0" and method == "between_groups":
        assert not math.isnan(ours.equalized_odds_ratio(1, method, agg="mean"))


@pytest.mark.parametrize("zero_division", ["perl", 0.0, 1.0, "nan"])
def test_an_empty_declared_group_of_an_open_set_is_scored_as_an_empty_table(zero_division):
    # Issue 31, item 10: with an open category set an empty declared group has no category, and
    # Perl mode's averages over categories died there; it reads what an empty accumulator with
    # declared categories reads (each category's 0 / 0), in every view.
    g = GroupedContingency(groups=["quiet", "busy"], unknown="add", zero_division=zero_division)
    fresh = g.scores(property_names())  # no result anywhere: the overall is empty too
    g.add_results(["x", "y", "x"], ["x", "x", "y"], groups=["busy"] * 3)
    empty = Contingency(["x", "y"], zero_division=zero_division)
    for name in property_names():
        expected = getattr(empty, name)
        assert close(g.by_group(name)["quiet"], expected), name
        assert close(g.by_group(name)["busy"], getattr(g.group("busy"), name)), name
        assert close(fresh["overall"][name] if fresh["overall"][name] is not None else math.nan,
                     expected), name
        g.difference(name), g.ratio(name, "to_overall"), g.group_min(name)
    report = g.report(scores=["micro_f1", "macro_f1", "weighted_recall"], pos_label="x")
    assert report.splitlines()[2].split()[:2] == ["quiet", "0"]
    frame = g.to_frame(["macro_precision", "macro_error"])
    assert list(frame.index) == ["quiet", "busy"]
    assert close(frame.loc["quiet", "macro_error"], empty.macro_error)
    assert [row["group"] for row in g.scores()["groups"]] == ["quiet", "busy"]


def test_one_feature_as_series_list_array_and_one_column_frame_give_one_state():
    truth, predicted, features, _ = audit_data(7)
    region = features["region"]
    states = [GroupedContingency().add_results(predicted, truth, groups=given)
              for given in (region, region.tolist(), region.to_numpy(), features[["region"]])]
    assert all(state == states[0] for state in states)
    assert set(states[0].groups) == {"n", "s", "r"}
    pair = GroupedContingency().add_results(predicted, truth, groups=(
        features["region"].to_numpy(), features["age"].tolist()))
    assert pair == grouped_of(truth, predicted, features, None, zero_division="perl")


# Each group and the whole are plain accumulators of their results ----------------------------

LABELS = ["a", "b", "c", 1]
GROUPS = ["x", "y", ("z", 1), 7]


@st.composite
def grouped_stream(draw, multi=False):
    n = draw(st.integers(0, 40))
    label = st.sampled_from(LABELS)
    side = st.frozensets(label, max_size=3) if multi else label
    return draw(st.lists(st.tuples(side, side, st.sampled_from(GROUPS),
                                   st.sampled_from([0, 1, 2, 0.5])), min_size=n, max_size=n))


@given(grouped_stream(), st.booleans(), st.sets(st.integers(0, 40)))
def test_stream_batch_and_merge_equal_the_plain_accumulators(rows, declared, reads):
    categories = LABELS if declared else None
    assigned = [row[0] for row in rows]
    correct = [row[1] for row in rows]
    groups = [row[2] for row in rows]
    weights = [row[3] for row in rows]
    stream = GroupedContingency(categories)
    for position, (chosen, truth, key, weight) in enumerate(rows):
        stream.add_result(chosen, truth, group=key, weight=weight)
        if position in reads:  # a read between results: the next one is written at once
            assert stream.n_results >= 0
    keyed = [key for key, weight in zip(groups, weights) if weight]
    batch = GroupedContingency(categories).add_results(assigned, correct, groups=_object_array(groups),
                                                       weights=weights)
    arrays = GroupedContingency(categories).add_results(
        np.array(assigned, dtype=object), np.array(correct, dtype=object),
        groups=_object_array(groups), weights=np.array(weights))
    half = len(rows) // 2
    merged = (GroupedContingency(categories).add_results(assigned[:half], correct[:half],
                                                         groups=_object_array(groups[:half]),
                                                         weights=weights[:half])
              + GroupedContingency(categories).add_results(assigned[half:], correct[half:],
                                                           groups=_object_array(groups[half:]),
                                                           weights=weights[half:]))
    assert stream == batch == arrays == merged
    # Label order (numbers first, then by type and value here), whatever order they came in.
    assert stream.groups == tuple(sorted(set(keyed), key=label_key))
    references, overall = per_group_reference(assigned, correct, groups, categories, weights)
    assert stream.overall == overall
    for key in stream.groups:
        assert stream.group(key) == references[key]


@given(grouped_stream(multi=True), st.booleans())
def test_multi_label_results_stream_and_batch(rows, declared):
    categories = LABELS if declared else None
    assigned = [row[0] for row in rows]
    correct = [row[1] for row in rows]
    groups = _object_array([row[2] for row in rows])
    stream = GroupedContingency(categories)
    for chosen, truth, key, _ in rows:
        stream.add_result(chosen, truth, group=key)
    batch = GroupedContingency(categories).add_results(assigned, correct, groups=groups)
    assert stream == batch
    references, overall = per_group_reference(assigned, correct, list(groups), categories)
    assert batch.overall == overall
    assert {key: batch.group(key) for key in batch.groups} == references


def _object_array(values):
    """Groups as a 1-d object array (tuple groups included, which np.array would make 2-d)."""
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


def test_indicator_matrices_need_every_group_to_have_the_categories():
    assigned = np.array([[1, 0], [0, 1], [1, 1]])
    correct = np.array([[1, 0], [1, 1], [0, 1]])
    ours = GroupedContingency(["p", "q"]).add_results(assigned, correct, groups=["u", "v", "u"])
    assert ours.group("u") == Contingency(["p", "q"]).add_results(assigned[[0, 2]], correct[[0, 2]])
    assert ours.overall == Contingency(["p", "q"]).add_results(assigned, correct)
    open_set = GroupedContingency().add_results(["p", "q"], ["p", "q"], groups=["u", "u"])
    before = open_set.copy()
    with pytest.raises(ValueError, match="group 'v' does not have every category"):
        open_set.add_results(assigned, correct, groups=["u", "v", "u"])
    assert open_set == before


def test_the_overall_accumulator_is_the_sum_of_the_groups():
    rng = np.random.default_rng(11)
    ours = GroupedContingency()
    for _ in range(300):
        ours.add_result(int(rng.integers(4)), int(rng.integers(4)), group=int(rng.integers(5)),
                        weight=float(rng.integers(1, 8)) / 4)
        if rng.random() < 0.1:
            ours.by_group("macro_f1")
    total = Contingency()
    for key in ours.groups:
        total.merge(ours.group(key))
    overall = ours.overall
    assert total.category_stats() == overall.category_stats()
    assert total.n_results == overall.n_results
    assert total.confusion_matrix(sorted(ours.categories)).tolist() == overall.confusion_matrix(
        sorted(ours.categories)).tolist()


# Disparities are functions of the values by group ------------------------------------------

SCORES = ["macro_f1", "micro_precision", ("recall", "a"), ("selection_rate", "b"),
          ("false_positive_rate", "a"), "samples_f1"]


@given(st.lists(st.tuples(st.sampled_from(LABELS[:3]), st.sampled_from(LABELS[:3]),
                          st.integers(0, 6), st.booleans()), max_size=60),
       st.sampled_from(SCORES), st.sampled_from([0.0, "nan", "perl"]))
def test_running_extremes_equal_the_extremes_of_the_values(steps, score, mode):
    ours = GroupedContingency(LABELS[:3], zero_division=mode)
    added: list = []
    for chosen, truth, key, take_back in steps:
        if take_back and added:
            chosen_, truth_, key_ = added.pop(0)
            ours.remove_result(chosen_, truth_, group=key_)
        else:
            ours.add_result(chosen, truth, group=key)
            added.append((chosen, truth, key))
        if not ours.groups:
            with pytest.raises(ValueError, match="No group"):
                ours.group_min(score)
            continue
        values = ours.by_group(score)
        kept = {key: value for key, value in values.items() if value == value}
        low, high = fairness.extremes(values.values())
        assert close(ours.group_min(score), low)
        assert close(ours.group_max(score), high)
        if kept:
            assert ours.group_argmin(score) == min(kept, key=lambda k: (kept[k], ours.groups.index(k)))
            assert ours.group_argmax(score) == min(kept, key=lambda k: (-kept[k], ours.groups.index(k)))
        overall = ours.overall_score(score)
        for method in ("between_groups", "to_overall"):
            distances = [abs(value - overall) for value in kept.values()]
            expected = high - low if method == "between_groups" else max(distances) if distances else math.nan
            assert close(ours.difference(score, method), expected)
        # The ratio to the overall value, group by group (fairlearn's rule): its least is at an extreme.
        undefined = {"perl": 1.0, 0.0: 0.0, "nan": math.nan}[mode]
        ratios = [_below_one(value, overall, undefined) for value in kept.values()]
        ratios = [value for value in ratios if value == value]
        assert close(ours.ratio(score, "to_overall"), min(ratios) if ratios else math.nan)
    assert ours.overall == Contingency(LABELS[:3], zero_division=mode).add_results(
        [row[0] for row in added], [row[1] for row in added])


def _below_one(value, overall, undefined):
    """fairlearn's to_overall ratio of one group: pandas' IEEE division, the sign of zero
    included (1.0 / -0.0 is -inf), 0/0 undefined."""
    if overall == 0 and value == 0:
        quotient = undefined
    else:
        with np.errstate(divide="ignore", over="ignore"):
            quotient = float(np.float64(value) / np.float64(overall))
    return 1 / quotient if quotient > 1 else quotient


def test_ties_go_to_the_first_group_in_group_order():
    ours = GroupedContingency(groups=["late", "early"]).add_results(
        ["x", "x", "y"], ["x", "x", "x"], groups=["early", "late", "other"])
    assert ours.groups == ("late", "early", "other")
    assert ours.group_argmax("micro_f1") == "late"
    assert ours.group_argmin("micro_f1") == "other"


def test_many_writes_between_reads_keep_the_heaps_small():
    ours = GroupedContingency(["x", "y"])
    for step in range(2000):
        ours.add_result("x", "y" if step % 3 else "x", group=step % 5)
        ours.group_max("micro_f1")
    tracker = ours._trackers["micro_f1"]
    assert len(tracker.low) <= (STALE + 1) * 5 + 64
    assert ours.group_max("micro_f1") == max(ours.by_group("micro_f1").values())


def test_a_declared_group_without_results_is_kept_and_scored_by_the_convention():
    ours = GroupedContingency(["x"], groups=["quiet"], zero_division=0.0)
    assert ours.groups == ("quiet",)
    assert ours.by_group(("precision", "x")) == {"quiet": 0.0}
    ours.add_result("x", "x", group="loud")
    ours.remove_result("x", "x", group="loud")
    assert ours.groups == ("quiet",)


# Names of scores --------------------------------------------------------------------------------


def test_every_float_property_of_contingency_can_be_named():
    sample = Contingency().add_results([["a", "b"], "a"], [["a"], "b"])
    floats = {name for name in dir(Contingency) if isinstance(getattr(Contingency, name), property)
              and not name.startswith("_") and isinstance(getattr(sample, name), float)}
    assert floats == set(property_names())
    for name in property_names():
        key, read = score_reader(name)
        assert key == name
        assert read(sample) == getattr(sample, name)


def test_category_scores_are_the_formulas_of_one_category_table():
    sample = Contingency(zero_division=0.0).add_results(["a", "b", "a", "c"], ["a", "a", "b", "c"])
    stats = sample.category_stats()["a"]
    a, b, c, d = stats["a"], stats["b"], stats["c"], stats["d"]
    expected = {"precision": a / (a + b), "recall": a / (a + c), "f1": 2 * a / (2 * a + b + c),
                "accuracy": (a + d) / 4, "error": (b + c) / 4, "jaccard": a / (a + b + c),
                "specificity": d / (b + d), "selection_rate": (a + b) / 4,
                "false_positive_rate": b / (b + d)}
    assert set(expected) == set(TABLE)
    for name, value in expected.items():
        assert score_reader((name, "a"))[1](sample) == value, name


@pytest.mark.parametrize("bad", ["macro", ("recall",), ("kappa", 1), 3, ("recall", None)])
def test_bad_score_names_are_refused_naming_them(bad):
    ours = GroupedContingency().add_results(["a"], ["a"], groups=["g"])
    with pytest.raises(ValueError, match=r"score|None"):
        ours.by_group(bad)


def test_a_category_that_is_not_one_is_refused():
    ours = GroupedContingency().add_results(["a"], ["a"], groups=["g"])
    with pytest.raises(ValueError, match="'z' is not a category"):
        ours.selection_rate("z")


def test_a_score_of_a_category_that_is_not_one_keeps_no_running_extremes():
    """The score ``("recall", "z")`` is refused before its running extremes are made: refused
    reads of ever new labels leave the memo of kept scores as it was (it grew by one each)."""
    ours = GroupedContingency().add_results(["a"], ["a"], groups=["g"])
    ours.by_group(("recall", "a"))
    kept = dict(ours._trackers)
    for label in range(3):
        with pytest.raises(ValueError, match=rf"score \('recall', {label}\): {label} is not a "
                                             r"category \(the categories are \['a'\]\)"):
            ours.by_group(("recall", label))
    assert ours._trackers == kept


# Bad input changes nothing ---------------------------------------------------------------------


def grouped_sample():
    return GroupedContingency(["a", "b"], groups=["d"]).add_results(
        ["a", "b", "a"], ["a", "a", "b"], groups=["g", "h", "g"])


@pytest.mark.parametrize(("call", "message"), [
    (lambda s: s.add_result("a", "a", group=None), "group: None is not a valid label"),
    (lambda s: s.add_result("a", "a", group=float("nan")), "not a valid label"),
    (lambda s: s.add_result("a", "a", group=["g"]), "unhashable"),
    (lambda s: s.add_result("zz", "a", group="g"), "unknown category 'zz'"),
    (lambda s: s.add_result("a", "a", group="g", weight=-1), "weight"),
    (lambda s: s.add_results(["a", "zz"], ["a", "a"], groups=["new", "g"]), r"assigned\[1\]"),
    (lambda s: s.add_results(["a", "b"], ["a", "a"], groups=["g", None]), r"groups\[1\]"),
    (lambda s: s.add_results(["a", "b"], ["a", "a"], groups=["g"]), "different lengths"),
    (lambda s: s.add_results(["a", "b"], ["a", "a"], groups=["g", "h"], weights=[1, -2]),
     r"weights\[1\]"),
    (lambda s: s.add_results([["a"], "b"], ["a", "zz"], groups=["new", "g"]), "zz"),
    (lambda s: s.remove_result("b", "b", group="g"), "no"),
    (lambda s: s.remove_result("a", "a", group="nowhere"), "group 'nowhere' holds no result"),
    # The first group could take its removal, the second cannot: neither changes.
    (lambda s: s.remove_results(["a", "a", "a"], ["a", "b", "a"], groups=["g", "g", "h"]),
     "remove_results"),
    (lambda s: s.remove_results([["a"], ["a"]], [["a"], ["a"]], groups=["g", "h"]),
     "remove_results"),
    (lambda s: s.merge(GroupedContingency(["a", "b"])), "declared groups differ"),
    (lambda s: s.merge(Contingency()), "can only merge a GroupedContingency"),
])
def test_a_refused_write_leaves_every_accumulator_as_it_was(call, message):
    ours = grouped_sample()
    ours.by_group("macro_f1")  # a score read: its extremes must stay right too
    before = copy.deepcopy(ours)
    with pytest.raises((ValueError, TypeError), match=message):
        call(ours)
    assert ours == before
    assert ours.to_dict() == before.to_dict()
    assert ours.by_group("macro_f1") == before.by_group("macro_f1")
    assert ours.group_max("macro_f1") == before.group_max("macro_f1")


def test_group_reads_name_an_unknown_group():
    with pytest.raises(ValueError, match=r"^group: no group 'x' \(the groups are \['d', 'g', 'h'\]\)"):
        grouped_sample().group("x")
    # bounded, however many groups and however long the key
    many = GroupedContingency().add_results(["x"] * 1000, ["x"] * 1000, groups=range(1000))
    with pytest.raises(ValueError) as refused:
        many.group("k" * 10_000)
    assert len(str(refused.value)) < 200
    assert str(refused.value).startswith("group: no group 'kkk")


def test_group_and_overall_are_copies():
    ours = grouped_sample()
    ours.group("g").add_result("a", "a")
    ours.overall.add_result("a", "a")
    assert ours == grouped_sample()


# State ----------------------------------------------------------------------------------------


def test_to_dict_round_trips_through_json():
    import json

    ours = GroupedContingency(groups=[("n", 1)]).add_results(
        ["x", "y", "z"], ["x", "x", "y"], groups=(["s", "n", "n"], [2, 1, 3]), weights=[1, 0.5, 2])
    state = json.loads(json.dumps(ours.to_dict()))
    assert GroupedContingency.from_dict(state) == ours
    assert GroupedContingency.from_dict(state, thread_safe=True).thread_safe


def test_from_dict_takes_numpy_group_keys_as_the_values_they_hold():
    """A group key built with numpy (a key alone or in a tuple) names the group its Python value
    names, as add_result takes it and as Contingency.from_dict takes numpy categories."""
    ours = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=[3, ("n", 2)])
    document = ours.to_dict()
    assert document["groups"] == [3, ["n", 2]]  # to_dict writes Python values
    built = {**document, "groups": [np.int64(3), ["n", np.int16(2)]]}
    read = GroupedContingency.from_dict(built)
    assert read == ours
    assert [type(part) for part in read.groups[1]] == [str, int]
    with pytest.raises(ValueError, match="names a group twice"):
        GroupedContingency.from_dict({**built, "groups": [np.int64(3), 3]})
    with pytest.raises(ValueError, match=r"groups\[0\]: nan is not a label"):
        GroupedContingency.from_dict({**built, "groups": [np.float64("nan"), ["n", 2]]})


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(groups=["a", "a"], states=d["states"][:1] * 2), "names a group twice"),
    (lambda d: d.update(states=d["states"][:1]), "states must be a list of 2"),
    (lambda d: d.update(categories=["x"]), "missing from categories"),
    (lambda d: d.update(categories=["x", "y", "w"]), "'w' is named by no group"),
    (lambda d: d["states"][0].update(zero_division=1.0), "other settings"),
    (lambda d: d["states"][0].update(micro_offset=[1, 0, 0, 0]), "micro_offset"),
    (lambda d: d["states"][1].update(a=[5, 0]), r"states\[1\] \(group 'b'\)"),
    (lambda d: d.update(format="contingency.GroupedContingency/0"), "format"),
    (lambda d: d.update(declared_groups=3), "declared_groups is 3"),
])
def test_from_dict_refuses_states_no_calls_make(change, message):
    state = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"]).to_dict()
    change(state)
    with pytest.raises(ValueError, match=message):
        GroupedContingency.from_dict(state)


#: Categories of every kind a group's document writes: str and int (whose layouts groups share),
#: and bool and float (each written by Contingency.to_dict's own path).
_STATE_LABELS = ["x", "y", "z", 2, 3, True, 1.5]


@st.composite
def grouped_accumulators(draw):
    """A GroupedContingency after random results and removals: categories new to groups met in
    any order, forgotten ones (codes with holes), fractional weights (counts of another scale),
    multi-label results, declared categories and groups or none."""
    declared = draw(st.sampled_from([None, ["y", "x"]]))
    ours = GroupedContingency(declared, groups=draw(st.sampled_from([(), ("d",)])), unknown="add")
    side = st.one_of(st.sampled_from(_STATE_LABELS),
                     st.lists(st.sampled_from(_STATE_LABELS), max_size=2))
    rows = draw(st.lists(st.tuples(side, side, st.sampled_from(["g", "h", 3, ("t", 1)]),
                                   st.sampled_from([1, 1, 2, 0.5])), max_size=20))
    for assigned, correct, group, weight in rows:
        ours.add_result(assigned, correct, group=group, weight=weight)
    for assigned, correct, group, weight in rows[:draw(st.integers(0, len(rows)))]:
        ours.remove_result(assigned, correct, group=group, weight=weight)
    return ours


@given(grouped_accumulators())
def test_to_dict_writes_each_group_as_its_contingency_writes_itself(ours):
    """The groups' documents, written together with their layouts shared, are each group's own
    Contingency.to_dict, to the JSON text (True is not 1, nor 1.5 a rounded number)."""
    document = ours.to_dict()
    alone = [ours.group(group).to_dict() for group in ours.groups]
    assert json.dumps(document["states"]) == json.dumps(alone)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), grouped_accumulators())
def test_from_dict_reads_each_group_alike_in_every_form(data, ours):
    """from_dict with the groups' categories lists read once for the groups that share them
    (as it reads them) and afresh for each group, and with numpy integers for the groups'
    counts (read value by value): the same accumulator from the same document, and the same refusal, word
    for word, of every mutated document."""
    document = json.loads(json.dumps(ours.to_dict()))
    assert GroupedContingency.from_dict(document) == ours
    for candidate in (document, data.draw(mutated(document))):
        _read_alike_in_every_form(candidate)


def _read_alike_in_every_form(candidate):
    """``candidate`` read with the categories lists shared, read afresh, and with numpy integers:
    the same accumulator, or the same refusal (numpy integers shown as ints on both sides: the
    document may hold some already, as the fuzz's junk does); the document left as it was."""
    before = repr(candidate)
    shared = _loaded(candidate)
    with mock.patch.object(_grouped_state, "read_group_state", _read_afresh):
        afresh = _loaded(candidate)
    in_numpy = as_plain(_loaded(_numpy_states(candidate)))
    assert repr(candidate) == before
    if isinstance(shared, GroupedContingency):
        for other in (afresh, in_numpy):
            assert other == shared
            assert json.dumps(other.to_dict()) == json.dumps(shared.to_dict())
    else:
        assert afresh == shared
        assert in_numpy == as_plain(shared)


def test_a_document_holding_a_numpy_integer_already_is_refused_alike_in_every_form():
    """Pinned from the exploring profile (seed 161803), whose reports hypothesis could not print
    until Contingency's memo of the categories' order was no init field: mutated documents
    holding the fuzz's ``np.int64(2)`` (as the format, or deep in a group's cell), whose refusal
    names it as ``np.int64(2)`` in the plain form and, made plain, as ``2`` in the numpy form."""
    empty = GroupedContingency(unknown="add").to_dict()
    _read_alike_in_every_form({**empty, "format": np.int64(2)})
    fed = GroupedContingency(unknown="add").add_results(["x"], ["y"], groups=["g"]).to_dict()
    fed = json.loads(json.dumps(fed))
    fed["states"][0]["c"][0] = {"k": {"": np.True_, "u": True, "n": np.int64(2)}}
    assert "'n': np.int64(2)" in _loaded(fed)[1]
    _read_alike_in_every_form(fed)


def _numpy_states(document):
    """``document`` with numpy integers for its ints: the groups' documents, the group keys,
    the categories and the declared counts (a document mutated into an int stays one, whose
    refusal names its type)."""
    return numpy_values(document) if isinstance(document, dict) else document


def _read_afresh(state, known):
    """A group's document read without the categories lists read before."""
    return read_group_state(state)


@pytest.mark.parametrize(("document", "refusal"),
                         [case[1:] for case in REFUSALS["cases"] if case[0] == "grouped"])
def test_every_refusal_is_the_one_from_dict_always_gave(document, refusal):
    """Grouped documents mutated from a small one: the refusals of the reader before it was one
    (tests/golden/make_state_refusals.py), word for word."""
    kind, message = refusal.split(": ", 1)
    expected = ({"ValueError": ValueError, "TypeError": TypeError}[kind], message)
    assert _loaded(document) == expected
    assert as_plain(_loaded(_numpy_states(document))) == expected


def _loaded(document):
    """``GroupedContingency.from_dict(document)``, or the type and message of its refusal."""
    try:
        return GroupedContingency.from_dict(document)
    except (ValueError, TypeError) as error:
        return type(error), str(error)


def test_to_dict_lays_out_groups_met_out_of_order_with_holes_or_fractional_counts():
    """Each way write_states lays a group out: a shared layout whose order is not the table's
    (categories met z, y, x), one for counts with holes in their codes, one for counts of
    another scale, each the group's own Contingency.to_dict to the JSON text."""
    ours = GroupedContingency(unknown="add")
    ours.add_results(["z", "y", "x"], ["z", "y", "x"], groups=["met", "met", "met"])
    ours.add_results(["z", "y", "x", "w"], ["z", "y", "x", "w"], groups=["holes"] * 4)
    ours.remove_result("y", "y", group="holes")  # y forgotten: a hole in the group's codes
    ours.add_result("x", "z", group="scaled", weight=0.5)
    counts = {group: ours._groups[group]._counts for group in ("met", "holes", "scaled")}
    assert list(counts["met"].a) == ["z", "y", "x"]
    assert counts["holes"].holes
    assert counts["scaled"].scale
    assert json.dumps(ours.to_dict()["states"]) == json.dumps(
        [ours.group(group).to_dict() for group in ours.groups])
    assert GroupedContingency.from_dict(json.loads(json.dumps(ours.to_dict()))) == ours


def test_groups_of_the_same_categories_share_a_categories_list_read_once():
    """The cache of categories lists keys on the values, which equal labels of other types
    share (1 == True == 1.0): a group of True after a group of 1 keeps its own category."""
    ours = GroupedContingency(unknown="add")
    ours.add_result(1, 1, group="a")
    ours.add_result(True, True, group="b")  # (not a category of the whole: 1 is, and equal)
    document = json.loads(json.dumps(ours.to_dict()))
    again = GroupedContingency.from_dict(document)
    assert again == ours
    assert json.dumps(again.to_dict()) == json.dumps(document)


def test_pickle_copy_and_reset():
    ours = grouped_sample()
    ours.add_result("a", "b", group="g")  # still in the tally
    assert pickle.loads(pickle.dumps(ours)) == ours == copy.copy(ours) == ours.copy()
    ours.reset()
    assert ours == GroupedContingency(["a", "b"], groups=["d"])
    assert ours.groups == ("d",)


def test_thread_safe_instances_lock_every_public_call_and_pickle():
    ours = GroupedContingency(thread_safe=True)
    assert ours.thread_safe
    assert type(ours).__name__ == "GroupedContingency"
    for name in ("add_result", "add_results", "by_group", "difference", "merge", "to_dict",
                 "demographic_parity_difference"):
        assert getattr(type(ours), name) is not getattr(GroupedContingency, name)
    ours.add_results(["a", "b"], ["a", "a"], groups=["g", "h"])
    again = pickle.loads(pickle.dumps(ours))
    assert again.thread_safe
    assert again == ours
    assert ours.copy().thread_safe
    assert ours == GroupedContingency().add_results(["a", "b"], ["a", "a"], groups=["g", "h"])


def test_to_frame_is_by_group_with_one_column_per_score():
    ours = GroupedContingency().add_results(["x", "y", "y"], ["x", "x", "y"],
                                            groups=(["a", "a", "b"], [1, 1, 2]))
    frame = ours.to_frame(["micro_f1", ("recall", "x")])
    assert list(frame.columns) == ["n_results", "micro_f1", "recall(x)"]
    assert frame.index.tolist() == [("a", 1), ("b", 2)]
    assert frame["recall(x)"].tolist() == list(ours.by_group(("recall", "x")).values())
    assert frame["n_results"].dtype == np.int64


def test_scores_are_json_safe_and_hold_what_the_report_shows():
    import json

    ours = GroupedContingency([0, 1], zero_division="nan").add_results(
        [1, 0, 0], [0, 0, 0], groups=["a", "b", "b"])
    scores = ours.scores(["macro_f1"], pos_label=1)
    json.dumps(scores, allow_nan=False)
    assert scores["groups"][0]["values"]["recall(1)"] is None  # NaN: no positive truth
    assert scores["fairness"]["demographic_parity_difference"]["between_groups"] == 1.0
    assert "demographic_parity_difference" in ours.report(pos_label=1)


def test_each_result_of_the_fast_path_is_in_the_whole_and_its_group_at_once():
    """No buffer between add_result and the counts: after each result, the whole's counts and
    its group's hold it (read from the counts themselves, with no read in between)."""
    ours = GroupedContingency(["x", "y"]).add_results(["x"], ["y"], groups=["g"])
    ours.add_result("y", "y", group="h")
    whole, group = ours._overall._counts, ours._groups["g"]._counts
    for position in range(100):
        ours.add_result("x", "x", group="g")
        assert (whole.n, group.n) == (position + 3, position + 2)
    assert ours.n_results == 102


@pytest.mark.parametrize("whole_read", [True, False], ids=["whole read first", "no whole read"])
@pytest.mark.parametrize("then", ["group reads", "a removal", "a batch", "a merge", "a weighted "
                                  "result", "to_dict", "a copy", "a disparity"])
def test_a_stream_in_many_groups_then_any_call_equals_plain_accumulators(then, whole_read):
    """Many results in many groups, a read of the whole or not, then a call of any kind: every
    group and the whole equal plain accumulators fed the same results."""
    rng = np.random.default_rng(23)
    labels, n = ["x", "y", "z"], 3000
    assigned = [labels[code] for code in rng.integers(0, 3, n).tolist()]
    correct = [labels[code] for code in rng.integers(0, 3, n).tolist()]
    groups = [f"g{code:03d}" for code in rng.integers(0, 300, n).tolist()]
    declared = sorted(set(groups))
    ours = GroupedContingency(labels, groups=declared)
    for chosen, truth, key in zip(assigned, correct, groups):
        ours.add_result(chosen, truth, group=key)
    references, overall = per_group_reference(assigned, correct, groups, labels)
    if whole_read:
        assert (ours.n_results, ours.categories) == (n, tuple(labels))
        assert ours.overall == overall
        assert ours.overall_score("macro_f1") == overall.macro_f1
        assert "n_results=3000" in repr(ours)
    extra = (assigned[:40], correct[:40], groups[:40])
    if then == "a removal":
        ours.remove_result("x", "y", group="g007")
        references["g007"].remove_result("x", "y")
        overall.remove_result("x", "y")
    elif then in ("a batch", "a merge"):
        other = GroupedContingency(labels, groups=declared).add_results(*extra[:2], groups=extra[2])
        ours = ours.add_results(*extra[:2], groups=extra[2]) if then == "a batch" else ours + other
        for chosen, truth, key in zip(*extra):
            references[key].add_result(chosen, truth)
            overall.add_result(chosen, truth)
    elif then == "a weighted result":
        ours.add_result("z", "x", group="g011", weight=2)
        references["g011"].add_result("z", "x", weight=2)
        overall.add_result("z", "x", weight=2)
    elif then == "to_dict":
        ours = GroupedContingency.from_dict(ours.to_dict())
    elif then == "a copy":
        ours = ours.copy()
    elif then == "a disparity":
        expected = {key: reference.macro_f1 for key, reference in references.items()}
        assert ours.difference("macro_f1") == max(expected.values()) - min(expected.values())
    for key, reference in references.items():
        assert ours.group(key) == reference
    assert ours.overall == overall
    assert ours.by_group("micro_f1") == {key: references[key].micro_f1 if key in references
                                         else ours.group(key).micro_f1 for key in declared}


@pytest.mark.parametrize("side", [str, frozenset], ids=["single labels", "label sets"])
def test_a_group_met_only_in_rows_of_weight_0_is_not_created_by_a_batch(side):
    """Regression: such a group was given no code, and the batch indexed past the group list."""
    rows = [("a", "a", "g", 1), ("b", "b", "h", 0), ("b", "a", "g", 2)]
    batch = GroupedContingency().add_results([side(row[0]) for row in rows],
                                             [side(row[1]) for row in rows],
                                             groups=[row[2] for row in rows],
                                             weights=[row[3] for row in rows])
    stream = GroupedContingency()
    for chosen, truth, key, weight in rows:
        stream.add_result(side(chosen), side(truth), group=key, weight=weight)
    assert batch.groups == stream.groups == ("g",)
    assert batch == stream


# --- Intervals per group (issue 23, item 3) -------------------------------------------------------


def test_intervals_by_group_are_each_groups_own_and_groups_apart_do_not_overlap_the_whole():
    rng = np.random.default_rng(7)
    groups = rng.choice(["north", "south", "tiny"], size=400, p=[0.5, 0.47, 0.03])
    correct = rng.choice(["x", "y"], size=400)
    # "south" is right far less often than "north"; "tiny" as often as the whole, on few results.
    chance = np.select([groups == "south", groups == "north"], [0.3, 0.9], 0.6)
    right = rng.random(400) < chance
    assigned = np.where(right, correct, np.where(correct == "x", "y", "x"))
    g = GroupedContingency().add_results(assigned, correct, groups=groups)
    intervals = g.interval_by_group("micro_precision", level=0.9)
    for group, interval in intervals.items():
        assert interval == g.group(group).interval("micro_precision", level=0.9)
    overall = g.overall.interval("micro_precision", level=0.9)
    apart = g.groups_apart("micro_precision", level=0.9)
    assert sorted(apart) == ["north", "south"]
    for group in apart:
        assert intervals[group].high < overall.low or intervals[group].low > overall.high


def test_a_group_whose_interval_is_refused_reads_none_and_bad_arguments_raise():
    g = GroupedContingency().add_results([["x"], ["y"]], [["x"], []], groups=["a", "b"])
    by_group = g.interval_by_group(("precision", "x"))
    assert by_group["b"] is None  # nothing assigned x in group b: precision undefined there
    assert by_group["a"] is not None
    # a category of the whole that one group never met: None there, an interval elsewhere
    g = GroupedContingency().add_results(["x", "y", "x"], ["x", "x", "y"], groups=["a", "b", "a"])
    assert g.interval_by_group(("recall", "y"))["b"] is None
    assert g.interval_by_group(("recall", "y"))["a"] == g.group("a").interval(("recall", "y"))
    assert set(g.interval_by_group("macro_f1", method="delta")) == {"a", "b"}
    with pytest.raises(ValueError, match="level"):
        g.interval_by_group("micro_precision", level=0)
    with pytest.raises(ValueError):
        g.groups_apart("micro_precision", method="no such method")


@pytest.mark.parametrize(("settings", "named"), [
    ({"zero_division": 0.0}, "zero_division"), ({"unknown": "ignore"}, "unknown"),
    ({"categories": ["y", "x"]}, "declared categories"), ({"groups": ["b"]}, "declared groups")])
def test_a_merge_of_other_settings_is_refused_naming_the_setting_and_changes_nothing(settings,
                                                                                     named):
    base = {"categories": ["x", "y"], "groups": ["a"]}
    left = GroupedContingency(base["categories"], groups=base["groups"]).add_results(
        ["x"], ["x"], groups=["a"])
    categories = settings.pop("categories", base["categories"])
    groups = settings.pop("groups", base["groups"])
    right = GroupedContingency(categories, groups=groups, **settings)
    before = left.to_dict()
    with pytest.raises(ValueError, match=f"cannot merge accumulators whose {named} differ"):
        left.merge(right)
    assert left.to_dict() == before


def _stream_then_read(ours, rows, read):
    """Feed ``rows`` (assigned, correct, group, weight) one at a time; ``read`` after the rows
    listed."""
    for position, (chosen, truth, key, weight) in enumerate(rows):
        ours.add_result(chosen, truth, group=key, weight=weight)
        if position in read:
            assert ours.n_results >= 0  # a read of the whole


@pytest.mark.parametrize("thread_safe", [False, True], ids=["plain", "thread_safe"])
def test_categories_growing_between_fast_path_results_by_group(thread_safe):
    """With unknown="add", the categories grow from 1 to 9 between fast-path results, and a
    weighted result counts in halves (the whole's unit then finer than most groups'): the
    whole, then each group, equal plain accumulators fed the same results."""
    labels = [f"c{code}" for code in range(9)]
    rng = np.random.default_rng(7)
    rows = []
    for step in range(9):
        known = labels[:step + 1]
        rows.append((known[-1], known[0], "new", 1))  # a new category: written at once
        if step == 4:
            rows.append((known[1], known[2], "half", 0.5))  # the counts in units of 1/2
        rows += [(known[a], known[c], f"g{g}", 1) for a, c, g in zip(
            rng.integers(0, step + 1, 30).tolist(), rng.integers(0, step + 1, 30).tolist(),
            rng.integers(0, 20, 30).tolist())]
    ours = GroupedContingency(unknown="add", thread_safe=thread_safe)
    _stream_then_read(ours, rows, {len(rows) - 1})
    columns = list(zip(*rows))
    references, overall = per_group_reference(*columns[:3], weights=columns[3], unknown="add")
    assert ours.overall == overall
    assert ours.n_results == overall.n_results
    for key, reference in references.items():
        assert ours.group(key) == reference
    assert ours.difference("micro_f1") == (max(r.micro_f1 for r in references.values())
                                           - min(r.micro_f1 for r in references.values()))


def test_fast_path_results_after_groups_are_forgotten_and_renumbered():
    """Removals forget undeclared groups until their codes are made dense again; results
    added afterwards go to the right groups."""
    ours = GroupedContingency(["x", "y"])
    expected = {}
    for code in range(10):
        ours.add_result("x", "y", group=code)
    for code in range(7):  # forgotten: the codes renumbered once holes are half of them
        ours.remove_result("x", "y", group=code)
    assert ours.groups == (7, 8, 9)
    ours.add_result("x", "x", group=11)  # a new group: written at once
    rows = [("y", "x", 9), ("x", "x", 11), ("y", "y", 8), ("x", "y", 9)]
    for chosen, truth, key in rows:
        ours.add_result(chosen, truth, group=key)
    for key, held in {7: [("x", "y")], 8: [("x", "y"), ("y", "y")],
                      9: [("x", "y"), ("y", "x"), ("x", "y")],
                      11: [("x", "x"), ("x", "x")]}.items():
        expected[key] = Contingency(["x", "y"]).add_results(*zip(*held))
        assert ours.group(key) == expected[key]
    assert ours.groups == (7, 8, 9, 11)


def test_a_group_forgotten_and_met_again_before_a_read_keeps_its_place_in_the_extremes():
    """The group comes back with a new code and the value it had: the extremes still name it."""
    ours = GroupedContingency(["x", "y"], groups=["a"])
    ours.add_results(["x", "y", "x"], ["x", "x", "x"], groups=["a", "a", "b"])
    for _ in range(3):
        ours.add_result("y", "x", group="c")
    assert ours.group_argmin("micro_f1") == "c"
    for _ in range(3):
        ours.remove_result("y", "x", group="c")
    ours.add_result("y", "x", group="c")  # forgotten, then met again: the same value, 0.0
    assert ours.groups == ("a", "b", "c")
    assert (ours.group_argmin("micro_f1"), ours.group_min("micro_f1")) == ("c", 0.0)
    assert (ours.group_argmax("micro_f1"), ours.difference("micro_f1")) == ("b", 1.0)


def test_a_stream_of_new_categories_by_group_reads_as_the_plain_accumulators():
    """Each result names a category new to the open set and no read comes between: every
    read of the whole, of a group and of the state holds them all."""
    labels = [f"n{i}" for i in range(120)]
    only_new = GroupedContingency()
    for position, label in enumerate(labels):
        only_new.add_result(label, label, group=position % 3)
    assert repr(only_new).startswith("GroupedContingency(groups=3, categories=120, n_results=120")
    assert len(only_new.to_dict()["categories"]) == 120
    grouped = GroupedContingency()
    plain: dict[int, Contingency] = {0: Contingency(), 1: Contingency(), 2: Contingency()}
    whole = Contingency()
    for position, label in enumerate(labels + labels[:40]):
        truth = labels[position // 2 % len(labels)]
        grouped.add_result(label, truth, group=position % 3)
        plain[position % 3].add_result(label, truth)
        whole.add_result(label, truth)
    assert repr(grouped) == (f"GroupedContingency(groups=3, categories={len(whole.categories)}, "
                             f"n_results={whole.n_results}, unknown='add', zero_division='perl')")
    state = grouped.to_dict()
    assert sorted(state["categories"]) == sorted(whole.categories)
    assert grouped.overall == whole
    assert all(grouped.group(key) == plain[key] for key in plain)
    assert GroupedContingency.from_dict(state) == grouped


# The count limit (issue 31, item 6) ------------------------------------------------------------


@pytest.mark.parametrize("extra_group", [False, True])
def test_add_result_fast_path_refuses_results_past_the_count_limit_whole(extra_group):
    """Near MAX_COUNT every result of add_result's fast path is checked as it comes, as in a
    Contingency: the result that does not fit is refused, the ones that fit are kept, and
    every read works after (the tally took five results past the limit, then every read raised
    and the next read of the groups threw all five away)."""
    from contingency.formulas._numeric import MAX_COUNT

    g = GroupedContingency(["x", "y"], groups=["a", "b"])
    g.add_result("x", "x", group="a", weight=MAX_COUNT - 3)
    expected = GroupedContingency(["x", "y"], groups=["a", "b"])
    expected.add_result("x", "x", group="a", weight=MAX_COUNT - 3)
    fitting = [("x", "x", "a"), ("y", "x", "b"), ("x", "y", "a")]
    for assigned, correct, group in fitting:  # no read in between
        g.add_result(assigned, correct, group=group)
        expected.add_results([assigned], [correct], groups=[group])
    for _ in range(3):
        with pytest.raises(ValueError, match=r"at most 2\*\*63 - 1 are supported"):
            g.add_result("x", "x", group="b" if extra_group else "a")
    assert g.n_results == MAX_COUNT
    assert g == expected
    assert {key: g.group(key).n_results for key in g.groups} == {"a": MAX_COUNT - 1, "b": 1}
    assert GroupedContingency.from_dict(g.to_dict()) == expected
    g.remove_result("x", "x", group="a", weight=MAX_COUNT - 3)  # far from the limit again
    for _ in range(3):
        g.add_result("x", "x", group="a")
    assert g.n_results == 6
    assert g.group("a").micro_table == Contingency(["x", "y"]).add_results(
        ["x", "x", "x", "x", "x"], ["x", "y", "x", "x", "x"]).micro_table


# Group keys (issue 31, item 7) -----------------------------------------------------------------


@pytest.mark.parametrize("group", [("south", None), ("south", math.nan), (None,),
                                   ("south", 10**700)])
def test_a_tuple_group_with_an_invalid_part_is_refused_on_every_path(group):
    """A tuple group is checked part by part, by the one check every path makes: add_result took
    ("south", None), which the batch of two features refuses, and every to_dict after raised."""
    g = GroupedContingency().add_results(["x"], ["x"], groups=["north"])
    before = g.to_dict()
    with pytest.raises(ValueError, match=r"add_result: group\[\d\]"):
        g.add_result("x", "x", group=group)
    with pytest.raises(ValueError, match=r"groups\[1\]"):  # one feature holding tuples: row 1
        g.add_results(["x", "x"], ["x", "x"], groups=["north", group])
    with pytest.raises(ValueError, match=r"from_dict: groups\[1\]"):
        GroupedContingency.from_dict({**before, "groups": ["north", list(group)],
                                      "states": before["states"] * 2})
    assert g.to_dict() == before
    g.add_result("x", "x", group=("south", 1))
    assert g.to_dict()["groups"] == ["north", ["south", 1]]


# Missing group values (issue 31, item 12) ------------------------------------------------------


@pytest.mark.parametrize("group", [pandas.NA, ("south", pandas.NA), None, math.nan])
def test_a_missing_group_value_is_refused_naming_the_argument(group):
    """add_result(group=pd.NA) ended in pandas' "boolean value of NA is ambiguous"."""
    g = GroupedContingency().add_results(["x"], ["x"], groups=["north"])
    before = g.to_dict()
    with pytest.raises(ValueError, match=r"^add_result: group(\[1\])?: .* is not a valid label"):
        g.add_result("x", "x", group=group)
    assert g.to_dict() == before


@pytest.mark.parametrize("column", [
    ["a", "b", pandas.NA],
    pandas.Series([1, 2, pandas.NA], dtype="Int64"),
    pandas.Series(["a", "b", pandas.NA], dtype="string"),
    np.array(["a", "b", pandas.NA], dtype=object),
])
def test_a_missing_value_in_a_group_column_is_refused_naming_the_column_and_row(column):
    g = GroupedContingency()
    with pytest.raises(ValueError, match=r"^groups\[2\]: a missing value \(<NA>\) is not a "
                                         "valid label"):
        g.add_results(["x", "x", "x"], ["x", "x", "x"], groups=column)
    # (pandas 3 makes a missing value of a str column NaN: either message names the row)
    with pytest.raises(ValueError, match=r"^groups\['region'\]\[2\]: (a missing|NaN)"):
        g.add_results(["x", "x", "x"], ["x", "x", "x"],
                      groups=pandas.DataFrame({"age": [1, 2, 3], "region": column}))
    assert g == GroupedContingency()


@pytest.mark.parametrize("as_keys", [list, np.array, lambda names: np.array(names, dtype=object),
                                     pandas.Series])
def test_str_group_keys_of_every_container_are_the_same_groups_as_int_keys(as_keys):
    """Group keys as strings (a list of str, whose keys skip the call per key a str does not
    need, a numpy str array coded by hashing, an object array, a Series) count the same groups
    as int keys mapped one to one, each key a Python str, by stream too; a list mixing str with
    other keys still has each of those checked (a numpy scalar taken as the value it holds, a
    refused one named by its row)."""
    rng = np.random.default_rng(31)
    codes = rng.integers(0, 40, 300)
    assigned, correct = rng.integers(0, 3, 300), rng.integers(0, 3, 300)
    names = [f"group {code}" for code in codes.tolist()]
    by_int = GroupedContingency([0, 1, 2]).add_results(assigned, correct, groups=codes)
    by_str = GroupedContingency([0, 1, 2]).add_results(assigned, correct, groups=as_keys(names))
    assert all(type(key) is str for key in by_str.groups)
    assert by_str.overall == by_int.overall
    assert {f"group {key}": value for key, value in by_int.by_group("micro_f1").items()} == \
        by_str.by_group("micro_f1")
    streamed = GroupedContingency([0, 1, 2])
    for row in range(300):
        streamed.add_result(assigned[row], correct[row], group=names[row])
    assert streamed == by_str
    mixed = GroupedContingency().add_results(["x"] * 3, ["x"] * 3, groups=["a", np.int64(3), "a"])
    assert [type(key) for key in mixed.groups] == [int, str]
    with pytest.raises(ValueError, match=r"^groups\[1\]: None is not a valid label"):
        GroupedContingency().add_results(["x"] * 2, ["x"] * 2, groups=["a", None])


# Group order (issue 31, item 14) ---------------------------------------------------------------


GROUP_ROWS = [("x", "x", "north"), ("y", "x", 3), ("x", "y", ("south", 2)), ("y", "y", "east"),
              ("x", "x", 1), ("x", "y", ("south", 1)), ("y", "x", "north")]


@given(st.permutations(GROUP_ROWS), st.permutations(GROUP_ROWS), st.integers(0, len(GROUP_ROWS)),
       st.booleans())
def test_group_order_is_a_function_of_the_set_of_groups(first, second, cut, declared):
    """Equal counts are equal in every view, however the groups arrived: by stream, batch,
    merge (either way round) and from_dict of a document listing them in another order
    (``g1 == g2`` was False for the same results by the same groups). Declared groups come
    first, in their order."""
    settings = {"categories": ["x", "y"], "groups": ["west"] if declared else None}
    streamed = GroupedContingency(**settings)
    for assigned, correct, group in first:
        streamed.add_result(assigned, correct, group=group)
    assigned, correct, groups = (list(column) for column in zip(*second))
    batch = GroupedContingency(**settings).add_results(assigned, correct,
                                                       groups=_object_array(groups))
    left = GroupedContingency(**settings).add_results(
        assigned[:cut], correct[:cut], groups=_object_array(groups[:cut]))
    right = GroupedContingency(**settings).add_results(
        assigned[cut:], correct[cut:], groups=_object_array(groups[cut:]))
    document = streamed.to_dict()
    order = list(range(declared, len(document["groups"])))[::-1]  # the undeclared ones reversed
    shuffled = {**document,
                "groups": document["groups"][:declared] + [document["groups"][i] for i in order],
                "states": document["states"][:declared] + [document["states"][i] for i in order]}
    expected = ("west",) * declared + (1, 3, "east", "north", ("south", 1), ("south", 2))
    for other in (batch, left + right, right + left, GroupedContingency.from_dict(shuffled),
                  pickle.loads(pickle.dumps(right + left)), copy.copy(right + left)):
        assert other == streamed
        assert other.groups == streamed.groups == expected
        assert list(other.by_group("micro_f1")) == list(expected)
        assert other.to_dict() == document
        assert other.report() == streamed.report()
        # Ties go to the first group in group order.
        assert other.group_argmin("micro_f1") == streamed.group_argmin("micro_f1") == 3
        assert other.group_argmax(("recall", "x")) == (1 if not declared else "west")


def test_groups_met_after_a_read_join_in_group_order_and_ties_follow_it():
    g = GroupedContingency()
    g.add_result("x", "x", group="c")
    assert g.groups == ("c",)
    assert g.group_argmax("micro_f1") == "c"
    g.add_result("x", "x", group="a")  # a tie, by a group that sorts first
    g.add_result("x", "x", group="b")
    assert g.groups == ("a", "b", "c")
    assert g.group_argmax("micro_f1") == g.group_argmin("micro_f1") == "a"
    g.remove_result("x", "x", group="a")
    assert g.groups == ("b", "c")
    assert g.group_argmax("micro_f1") == "b"


# Merge's cost (issue 31, item 16) --------------------------------------------------------------


class _CountedGroups(dict):
    """A group dict that counts the passes over it (a copy of it iterates it)."""

    passes = 0

    def __iter__(self):
        type(self).passes += 1
        return super().__iter__()

    def keys(self):
        type(self).passes += 1
        return super().keys()

    def items(self):
        type(self).passes += 1
        return super().items()

    def values(self):
        type(self).passes += 1
        return super().values()


def test_merge_reads_only_the_other_side_s_groups():
    """merge copied the receiving accumulator's whole group dict once per group of the other:
    O(groups here x groups there). It now looks each group up: the receiving side's group dict
    is never iterated, whatever the number of groups of either side (the benchmark rows
    measure the cost)."""
    receiving = GroupedContingency(["x", "y"]).add_results(
        ["x"] * 50, ["y"] * 50, groups=[f"g{i:02d}" for i in range(50)])
    other = GroupedContingency(["x", "y"]).add_results(
        ["x", "y", "x"], ["x", "x", "y"], groups=["g07", "new", "g31"])
    expected = GroupedContingency(["x", "y"]).add_results(
        ["x"] * 50 + ["x", "y", "x"], ["y"] * 50 + ["x", "x", "y"],
        groups=[f"g{i:02d}" for i in range(50)] + ["g07", "new", "g31"])
    receiving.groups  # noqa: B018  (settled: in order, nothing pending)
    object.__setattr__(receiving, "_groups", _CountedGroups(receiving._groups))
    _CountedGroups.passes = 0
    receiving.merge(other)
    assert _CountedGroups.passes == 0
    assert receiving == expected


def _fed_for_reads() -> GroupedContingency:
    return GroupedContingency().add_results([0, 1, 1, 1, 0, 0, 1, 1, 0, 1],
                                            [0, 1, 0, 1, 0, 1, 1, 0, 0, 1],
                                            groups=list("aabbaabbab"))


def _some_reads(grouped: GroupedContingency) -> tuple[object, ...]:
    return (grouped.by_group("micro_f1"), grouped.difference("micro_f1"),
            grouped.ratio("micro_f1", "to_overall"), grouped.equalized_odds_difference(1),
            grouped.selection_rate(1))


_FAIRNESS_READS = ("demographic_parity_difference", "demographic_parity_ratio",
                   "equalized_odds_difference", "equalized_odds_ratio",
                   "equal_opportunity_difference", "equal_opportunity_ratio")

#: Reads given an argument of the wrong kind: refused, naming the argument and what it may be.
BAD_READ_ARGUMENTS = [
    *((method, ("micro_f1",), {"method": how}, ValueError,
       f"^{method}: method must be one of 'between_groups', 'to_overall', not ")
      for method in ("difference", "ratio")
      for how in (np.array(["between_groups", "to_overall"]), np.array(["to_overall"]),
                  np.array("to_overall"), True, None, math.nan, "pairwise")),
    *((method, (1,), {"method": how}, ValueError,
       f"^{method}: method must be one of 'between_groups', 'to_overall', not ")
      for method in _FAIRNESS_READS
      for how in (np.array(["to_overall", "between_groups"]), None, "pairwise")),
    *((method, (1,), {"agg": agg}, ValueError,
       f"^{method}: agg must be one of 'worst_case', 'mean', not ")
      for method in ("equalized_odds_difference", "equalized_odds_ratio")
      for agg in (np.array(["mean", "worst_case"]), np.array(["mean"]), np.array("mean"), True,
                  None, "max")),
    *((method, (), {"scores": scores}, ValueError, rf"^{method}: scores must be a list of scores")
      for method in ("scores", "report", "to_frame")
      for scores in ("micro_f1", None, 1, math.nan, True)),
    *((method, (label,), {}, TypeError, rf"{method}: pos_label: label .* is unhashable")
      for method in ("selection_rate", *_FAIRNESS_READS)
      for label in (np.array([1, 0]), np.array([1]), np.array(1))),
    ("selection_rate", (None,), {}, ValueError, "selection_rate: pos_label: None is not a valid label"),
    *((method, (), {"pos_label": label}, TypeError, rf"^{method}: pos_label: label .* is unhashable")
      for method in ("scores", "report")
      for label in (np.array([1, 0]), np.array(1))),
    # A pos_label that is no category: named as the argument (not as a category of a score the
    # read builds from it), with its value and the categories.
    *((method, (label,), {}, ValueError,
       rf"^{method}: pos_label={shown} is not a category \(the categories are \[0, 1\]\)$")
      for method in ("selection_rate", *_FAIRNESS_READS)
      for label, shown in (("z", "'z'"), (2, "2"), (np.int64(2), re.escape(repr(np.int64(2)))))),
    *((method, (), {"pos_label": label}, ValueError,
       rf"^{method}: pos_label={shown} is not a category \(the categories are \[0, 1\]\)$")
      for method in ("scores", "report")
      for label, shown in (("z", "'z'"), (np.int64(2), re.escape(repr(np.int64(2)))))),
    *(("report", (), {"digits": digits}, ValueError,
       r"^report: digits must be an integer >= 0 \(at most 1074\), not ")
      for digits in (np.array([1, 2]), np.array(3), True, np.float64(2.0), math.nan, -1, 1075,
                     10**30, "3", None)),
    # the interval reads of several intervals: named themselves, not Contingency.interval
    *((method, ("micro_f1",), {"level": level}, ValueError,
       rf"^{method}: level must be a number between 0 and 1 \(exclusive\), such as 0.95, not ")
      for method in ("interval_by_group", "groups_apart")
      for level in (np.array([0.9, 0.95]), np.array(0.9), True, math.nan, 1, 0, "0.9", None)),
    *((method, ("micro_f1",), {"method": how}, ValueError,
       rf"^{method}: method must be one of 'wilson', ")
      for method in ("interval_by_group", "groups_apart")
      for how in (np.array(["wilson", "delta"]), np.array(["wilson"]), True, None, "bayes")),
    # a score without an interval, a method that does not apply to it, a category of no group:
    # refused before any group is read (not a None for every group)
    *((method, (score,), kwargs, IntervalRefused, rf"^{method}\({re.escape(repr(score))}\): ")
      for method in ("interval_by_group", "groups_apart")
      for score, kwargs in (("macro_f2", {}), ("matthews_corrcoef", {}), ("macro_f1", {}),
                            ("macro_recall", {"method": "jeffreys"}), (("recall", "z"), {}),
                            (("recall", 2), {}), (("recall", [1]), {}), (("bogus", 0), {}),
                            (1, {}), (None, {}), (("recall",), {}))),
    # a score that is none, or a category that is none: named by the read that was given it
    *((method, (score,), {}, error, rf"^{method}: score ")
      for method in ("by_group", "overall_score", "group_min", "group_max", "group_argmin",
                     "group_argmax", "difference", "ratio")
      for score, error in (("macro_f2", ValueError), (1, ValueError), (None, ValueError),
                           (np.array(["micro_f1"]), ValueError), (("recall", "z"), ValueError),
                           (("recall", 2), ValueError), (("recall", [1]), TypeError))),
    *((method, (), {"scores": scores}, error, rf"^{method}: score ")
      for method in ("scores", "report", "to_frame")
      for scores, error in ((["macro_f2"], ValueError), (["micro_f1", ("recall", "z")], ValueError),
                            ([("recall", [1])], TypeError))),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "error", "message"), BAD_READ_ARGUMENTS)
def test_reads_refuse_arguments_of_the_wrong_kind_by_name(method, args, kwargs, error, message):
    """Each refused by name (never numpy's "truth value of an array is ambiguous", a bare
    "unhashable type" or "object is not iterable", nor a string's characters taken for scores),
    the accumulator unchanged: its state, and the reads after it."""
    grouped = _fed_for_reads()
    refused_unchanged(grouped, lambda: getattr(grouped, method)(*args, **kwargs), error, message,
                      _some_reads)


def test_reads_take_numpy_scalars_as_the_python_values_they_hold():
    grouped = _fed_for_reads()
    assert (grouped.difference(np.str_("micro_f1"), np.str_("to_overall"))
            == grouped.difference("micro_f1", "to_overall"))
    assert (grouped.equalized_odds_ratio(np.int64(1), agg=np.str_("mean"))
            == grouped.equalized_odds_ratio(1, agg="mean"))
    assert grouped.selection_rate(np.int64(1)) == grouped.selection_rate(1)
    assert grouped.scores(pos_label=np.int64(1)) == grouped.scores(pos_label=1)
    assert grouped.scores(("micro_f1",)) == grouped.scores(["micro_f1"])


@pytest.mark.parametrize("read", [
    lambda g: g.by_group(("recall", "z")),
    lambda g: g.difference(("recall", "z")),
    lambda g: g.ratio(("precision", "z"), method="to_overall"),
    lambda g: g.group_argmax(("recall", "z")),
])
def test_a_score_of_no_category_names_it_with_the_categories_bounded(read):
    """The score's category refused as every read says a label is no category
    (``_labels.not_a_category``): the categories listed as far as a message can bear (they were
    listed in full, a thousand of them here), the read named, the accumulator unchanged."""
    grouped = GroupedContingency().add_results(list(range(1000)), list(range(1000)),
                                               groups=[0, 1] * 500)
    refused_unchanged(grouped, lambda: read(grouped), ValueError,
                      r"^(by_group|difference|ratio|group_argmax): score \('(recall|precision)', "
                      r"'z'\): 'z' is not a category \(the "
                      r"categories are \[0, 1, 2, 3, 4, 5, \.\.\.\]\)$",
                      lambda grouped: grouped.by_group("micro_f1"))
