"""One order of categories for every view of a Contingency (issue 20, item 1)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics

from contingency import Contingency
from contingency._labels import category_order, category_places

SIDES = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30)
LABELS = st.sampled_from(["x", "b", "a", 3, 1, 2.5])


def _views_order(s: Contingency) -> dict[str, list[object]]:
    """The categories each view lists, in the order it lists them."""
    report_rows = [line.split()[0] for line in s.report().splitlines()[2:]
                   if line.strip() and not line.strip().startswith(("micro", "macro", "weighted",
                                                                    "samples", "results"))]
    return {
        "category_stats": list(s.category_stats()),
        "to_frame": list(s.to_frame().index),
        "scores": [row["category"] for row in s.scores()["categories"]],
        "to_dict": list(s.to_dict()["categories"]),
        "report": report_rows,
    }


@given(SIDES)
def test_an_open_set_of_integers_gives_scikit_learns_tables(pairs):
    y_true, y_pred = (list(side) for side in zip(*pairs))
    s = Contingency.from_labels(y_true, y_pred)
    labels = sorted(set(y_true) | set(y_pred))
    assert s.categories == tuple(labels)
    with warnings.catch_warnings():  # scikit-learn warns of a single label; the table stands
        warnings.simplefilter("ignore", UserWarning)
        expected = metrics.confusion_matrix(y_true, y_pred)
    assert s.confusion_matrix().tolist() == expected.tolist()
    assert (s.multilabel_confusion_matrix().tolist()
            == metrics.multilabel_confusion_matrix(y_true, y_pred).tolist())
    for view, order in _views_order(s).items():
        assert [str(label) for label in order] == [str(label) for label in labels], view


@given(SIDES, st.permutations(range(7)))
def test_the_order_does_not_depend_on_the_order_results_come_in(pairs, permutation):
    y_true, y_pred = (list(side) for side in zip(*pairs))
    s = Contingency.from_labels(y_true, y_pred)
    shuffled = [pairs[k % len(pairs)] for k in permutation if k < len(pairs)]
    shuffled += [pair for k, pair in enumerate(pairs) if k >= 7]
    other = Contingency.from_labels(*(list(side) for side in zip(*shuffled)))
    # The same results in any order: the same state, the same views.
    assert sorted(shuffled) == sorted(pairs)
    assert other == s
    assert other.to_dict() == s.to_dict()
    assert other.confusion_matrix().tolist() == s.confusion_matrix().tolist()


@given(st.lists(LABELS, min_size=0, max_size=3, unique=True),
       st.lists(st.tuples(LABELS, LABELS), min_size=1, max_size=20))
def test_declared_categories_come_first_and_the_rest_follow_the_rule(declared, pairs):
    s = Contingency(declared, unknown="add")
    for assigned, correct in pairs:
        s.add_result(assigned, correct)
    met = list(declared)
    for assigned, correct in pairs:
        for label in (assigned, correct):
            if label not in met:
                met.append(label)
    rest = met[len(declared):]
    kinds = {str if isinstance(label, str) else float for label in rest}
    numbers = sorted(label for label in rest if not isinstance(label, str))
    expected = [*declared, *(sorted(rest) if len(kinds) < 2
                             else numbers + sorted(label for label in rest if isinstance(label, str)))]
    assert list(s.categories) == expected
    assert list(s.category_stats()) == expected
    assert list(s.to_frame().index) == expected
    # Rows and columns in that order too (counted here, since scikit-learn refuses mixed types).
    table = np.zeros((len(expected), len(expected)), dtype=np.int64)
    for assigned, correct in pairs:
        table[expected.index(correct), expected.index(assigned)] += 1
    assert s.confusion_matrix().tolist() == table.tolist()


def test_labels_with_no_order_follow_numbers_then_type_name_and_labels_overrides():
    s = Contingency().add_results(["b", 1, "a"], ["b", 1, "a"])
    assert s.categories == (1, "a", "b")
    assert category_order(["b", 1, "a"], 0) == [1, "a", "b"]
    assert s.confusion_matrix(labels=["a", "b"]).tolist() == [[1, 0], [0, 1]]
    assert list(s.category_stats()) == [1, "a", "b"]


def test_a_round_trip_keeps_the_order_when_labels_stop_being_orderable():
    """Found by the paired accumulator's stateful test: with the order first seen, labels
    (2, 1) listed sorted by to_dict came back as (1, 2) first seen, and a later "a" made the
    two orders (2, 1, "a") and (1, 2, "a")."""
    s = Contingency().add_results([2], [1])
    again = Contingency.from_dict(s.to_dict())
    s.add_result("a", "a")
    again.add_result("a", "a")
    assert s == again
    assert s.categories == again.categories == (1, 2, "a")


def test_the_issue_example_is_scikit_learns():
    y_true, y_pred = [2, 0, 1, 2], [2, 1, 1, 0]
    s = Contingency.from_labels(y_true, y_pred)
    assert s.confusion_matrix().tolist() == [[0, 1, 0], [0, 1, 0], [1, 0, 1]]
    assert s.confusion_matrix().tolist() == metrics.confusion_matrix(y_true, y_pred).tolist()


def test_indicator_columns_follow_the_categories_order():
    s = Contingency(["z", "a"], unknown="add").add_results([["m"]], [["b"]])
    assert s.categories == ("z", "a", "b", "m")
    s.add_results(np.array([[0, 0, 1, 0]]), np.array([[0, 0, 0, 1]]))
    # Column 2 is "b", column 3 is "m", as categories lists them.
    assert s.category_stats()["b"]["b"] == 1
    assert s.category_stats()["m"]["c"] == 1


def test_numpy_scalars_and_python_numbers_sort_together():
    s = Contingency().add_results(np.array([3, 1, 2]), [2.5, 1, 3])
    assert s.categories == (1, 2, 2.5, 3)
    assert isinstance(pd.Index(s.categories), pd.Index)


@given(st.lists(st.one_of(st.integers(-5, 5), st.text(max_size=2), st.floats(-2, 2),
                          st.tuples(st.integers(0, 2))), unique=True, max_size=12),
       st.integers(0, 4))
def test_category_places_put_the_labels_in_category_order(labels, declared):
    """The places (the order as positions in the labels met, what scores() takes the columns
    by) and the order itself: one rule, the same order, orderable labels or not."""
    labels = list(dict.fromkeys(labels))  # (1 and 1.0 are one category, as dictionary keys)
    declared = min(declared, len(labels))
    places = category_places(labels, declared)
    assert sorted(places) == list(range(len(labels)))
    assert [labels[place] for place in places] == category_order(labels, declared)
