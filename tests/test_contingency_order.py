"""Argument order, batch removal and the label objects a batch keeps: keywords, from_labels (scikit-learn's
order), remove_results, equal labels of different types."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency, GroupedContingency, PairedComparison
from tests.strategies import categories_and_results
from tests.test_contingency import indicators, streamed


def test_assigned_and_correct_work_as_keywords_everywhere():
    by_position = Contingency()
    by_position.add_result("x", "y")
    by_position.add_results(["y", "x"], ["y", "y"])
    by_keyword = Contingency()
    by_keyword.add_result(correct="y", assigned="x")
    by_keyword.add_results(correct=["y", "y"], assigned=["y", "x"])
    assert by_keyword == by_position
    by_position.remove_result("x", "y")
    by_position.remove_results(["x"], ["y"])
    by_keyword.remove_result(correct="y", assigned="x")
    by_keyword.remove_results(correct=["y"], assigned=["x"])
    assert by_keyword == by_position
    assert by_keyword == Contingency().add_results(["y"], ["y"])


def test_from_labels_takes_scikit_learns_order():
    """The trial of issue 11: the two orders swap precision and recall."""
    y_true = np.array([0, 0, 0, 1, 1, 2, 2])
    y_pred = np.array([0, 1, 1, 1, 2, 2, 2])
    s = Contingency.from_labels(y_true, y_pred, zero_division=0.0)
    assert s.macro_precision == pytest.approx(
        metrics.precision_score(y_true, y_pred, average="macro"), abs=1e-12)
    assert s.macro_recall == pytest.approx(
        metrics.recall_score(y_true, y_pred, average="macro"), abs=1e-12)
    assert s.macro_precision != s.macro_recall  # so the test can tell the orders apart
    assert s == Contingency(zero_division=0.0).add_results(assigned=y_pred, correct=y_true)


@given(categories_and_results())
def test_from_labels_is_add_results_with_the_arguments_swapped(case):
    cats, stream = case
    predicted, truth = indicators(cats, stream)
    expected = streamed(cats, stream)
    assert Contingency.from_labels(truth, predicted, categories=cats) == expected
    assert Contingency.from_labels([list(c) for _, c in stream], [list(a) for a, _ in stream],
                                   categories=cats) == expected


def test_from_labels_indicator_matrices_take_column_numbers_as_categories():
    truth = np.array([[1, 0, 1], [0, 1, 0]])
    predicted = np.array([[1, 1, 0], [0, 1, 0]])
    s = Contingency.from_labels(truth, predicted, zero_division=0.0)
    assert s.categories == (0, 1, 2)
    for average in ("micro", "macro", "weighted", "samples"):
        assert getattr(s, f"{average}_f1") == pytest.approx(
            metrics.f1_score(truth, predicted, average=average, zero_division=0), abs=1e-12)


def test_from_labels_settings_and_errors():
    s = Contingency.from_labels(["a"], ["b"], categories=["a", "b", "c"], unknown="ignore")
    assert s.categories == ("a", "b", "c")
    assert s.unknown == "ignore"
    with pytest.raises(ValueError, match="unknown category 'z'"):
        Contingency.from_labels(["a"], ["z"], categories=["a"])
    with pytest.raises(ValueError, match="different lengths"):
        Contingency.from_labels(["a", "b"], ["a"])


@given(categories_and_results())
def test_remove_results_equals_the_remove_result_loop_in_every_form(case):
    cats, stream = case
    middle = len(stream) // 2
    kept, taken = stream[:middle], stream[middle:]
    expected = streamed(cats, kept)
    predicted, truth = indicators(cats, taken)
    sequences = streamed(cats, stream).remove_results([list(a) for a, _ in taken],
                                                      [list(c) for _, c in taken])
    matrices = streamed(cats, stream).remove_results(predicted, truth)
    looped = streamed(cats, stream)
    for assigned, correct in taken:
        looped.remove_result(list(assigned), list(correct))
    assert sequences == expected
    assert matrices == expected
    assert looped == expected


def test_remove_results_label_arrays_and_a_bad_batch_changes_nothing():
    s = Contingency().add_results(np.array(["a", "b", "b", "c"]), np.array(["a", "a", "b", "c"]))
    s.remove_results(np.array(["b", "c"]), np.array(["a", "c"]))
    assert s == Contingency().add_results(np.array(["a", "b"]), np.array(["a", "b"]))
    before = s.copy()
    with pytest.raises(ValueError, match="remove_results: category 'a' has no true positive"):
        s.remove_results(np.array(["b", "a", "a"]), np.array(["b", "a", "a"]))
    assert s == before
    with pytest.raises(ValueError, match="category 'z' was never recorded"):
        s.remove_results(["b", "z"], ["b", "z"])
    assert s == before
    with pytest.raises(ValueError, match="different lengths"):
        s.remove_results(["b"], ["b", "a"])
    assert s == before


#: Equal labels of different types: a category both sides name keeps the object of the side that
#: meets it first, in a batch as in the add_result loop.
_EQUAL_KINDS = [1, 1.0, np.int64(1), np.float64(1.0), "x", np.str_("x"), 2, 2.0, "y",
                np.str_("y"), b"z", np.bytes_(b"z")]


def _shown(categories: tuple[object, ...]) -> list[tuple[str, str]]:
    return [(type(label).__name__, repr(label)) for label in categories]


@given(st.lists(st.tuples(st.sampled_from(_EQUAL_KINDS), st.sampled_from(_EQUAL_KINDS),
                          st.sampled_from([0, 1, 2, 3])), min_size=1, max_size=12),
       st.booleans(), st.sampled_from(["list", "object array"]))
@example([(1.0, 1, 1), ("y", 1.0, 1)], False, "list")
@example([("y", 1, 1), (1.0, "z", 1)], False, "list")
@example([("y", np.str_("x"), 2), ("x", "y", 1)], True, "object array")
@example([(1, 1, 0), (1.0, 1.0, 1)], True, "list")  # a side's first 1 on a row of weight 0
@example([(1, "x", 0), ("y", 1.0, 1), (np.int64(1), "y", 1)], True, "object array")
def test_a_batch_keeps_the_label_object_the_loop_keeps(rows, weighted, container):
    loop = Contingency()
    for assigned, correct, weight in rows:
        loop.add_result(assigned, correct, weight=weight if weighted else 1)
    assigned, correct = [row[0] for row in rows], [row[1] for row in rows]
    if container == "object array":
        assigned, correct = (np.array([*side, None], dtype=object)[:-1]  # (items, not rows)
                             for side in (assigned, correct))
    weights = [row[2] for row in rows] if weighted else None
    batch = Contingency().add_results(assigned, correct, weights=weights)
    assert _shown(batch.categories) == _shown(loop.categories)
    assert batch == loop
    grouped = GroupedContingency().add_results(assigned, correct, groups=["g"] * len(rows),
                                               weights=weights)
    assert _shown(grouped.overall.categories) == _shown(loop.categories)


def _side(labels: list[object], container: str) -> object:
    """One side of a batch as ``container`` holds it."""
    if container == "object array":
        return np.array([*labels, None], dtype=object)[:-1]  # (items, not rows)
    if container == "label lists":  # (results of label sets: split by group, each group's batch)
        return [[label] for label in labels]
    return labels


@given(st.lists(st.tuples(st.sampled_from(_EQUAL_KINDS), st.sampled_from(_EQUAL_KINDS),
                          st.sampled_from(["a", "b", "c"]), st.sampled_from([0, 1, 2])),
                min_size=1, max_size=12),
       st.lists(st.tuples(st.sampled_from(_EQUAL_KINDS), st.sampled_from(_EQUAL_KINDS),
                          st.sampled_from(["a", "b"])), max_size=3),
       st.booleans(), st.sampled_from(["list", "object array", "label lists"]))
@example([(1, "z", "a", 1), (1.0, "z", "b", 1)], [], False, "list")
@example([(1.0, 1.0, "b", 1)], [(1, 1, "a")], False, "object array")
@example([(1, "x", "b", 0), ("y", 1.0, "b", 1)], [], True, "list")
@example([("x", np.str_("x"), "a", 1), (np.str_("x"), "x", "b", 1)], [], False, "label lists")
def test_a_grouped_batch_gives_each_group_the_label_objects_its_loop_keeps(rows, before, weighted,
                                                                        container):
    """Each group keeps the first object its own results name a category by (equal labels of
    different types), in a batch as in the add_result loop: not the whole's."""
    alone: dict[str, Contingency] = {}  # each group's results fed to a Contingency of its own
    loop, batch = GroupedContingency(), GroupedContingency()
    for assigned, correct, group in before:  # (categories the whole knows, maybe as another type)
        for grouped in (loop, batch):
            grouped.add_result(assigned, correct, group=group)
        alone.setdefault(group, Contingency()).add_result(assigned, correct)
    weights = [row[3] if weighted else 1 for row in rows]
    for (assigned, correct, group, _), weight in zip(rows, weights):
        loop.add_result(assigned, correct, group=group, weight=weight)
        alone.setdefault(group, Contingency()).add_result(assigned, correct, weight=weight)
    batch.add_results(_side([row[0] for row in rows], container),
                      _side([row[1] for row in rows], container),
                      groups=[row[2] for row in rows], weights=weights if weighted else None)
    assert batch.groups == loop.groups
    for group in batch.groups:
        expected = _shown(alone[group].categories)
        assert _shown(loop.group(group).categories) == expected
        assert _shown(batch.group(group).categories) == expected, group
    assert _shown(batch.categories) == _shown(loop.categories)
    assert batch == loop


@given(st.lists(st.tuples(st.sampled_from(_EQUAL_KINDS), st.sampled_from(_EQUAL_KINDS),
                          st.sampled_from(_EQUAL_KINDS), st.sampled_from([0, 1, 2])),
                min_size=1, max_size=10),
       st.booleans(), st.sampled_from(["list", "object array"]))
@example([(np.float64(1.0), "y", 2, 0), (1.0, 2.0, np.int64(1), 2)], True, "list")
def test_a_paired_batch_keeps_the_label_objects_the_loop_keeps(rows, weighted, container):
    loop = PairedComparison()
    for assigned_a, assigned_b, correct, weight in rows:
        loop.add_result(assigned_a, assigned_b, correct, weight=weight if weighted else 1)
    sides = [_side([row[at] for row in rows], container) for at in range(3)]
    batch = PairedComparison().add_results(*sides,
                                           weights=[row[3] for row in rows] if weighted else None)
    assert _shown(batch.a.categories) == _shown(loop.a.categories)
    assert _shown(batch.b.categories) == _shown(loop.b.categories)
    assert batch == loop
