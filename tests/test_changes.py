"""contingency._changes: each kind of input becomes the cell changes the definition gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency._changes import (
    PAIR_SHIFT,
    ResultCounter,
    Staging,
    indicator_changes,
    label_array_changes,
    pair_changes,
    result_changes,
    shape_histogram,
)

_SIDE = st.frozensets(st.sampled_from("xyz"), max_size=3)


def _by_definition(results, weight=1):
    a, b, c, shapes, pairs = {}, {}, {}, {}, {}
    for assigned, correct in results:
        for label in assigned | correct:
            cell = a if label in assigned and label in correct else b if label in assigned else c
            cell[label] = cell.get(label, 0) + weight
        shape = (len(assigned & correct), len(assigned), len(correct))
        shapes[shape] = shapes.get(shape, 0) + weight
        if len(assigned) == len(correct) == 1:  # single-label: counted by (correct, assigned)
            pair = (next(iter(correct)), next(iter(assigned)))
            pairs[pair] = pairs.get(pair, 0) + weight
    return a, b, c, shapes, pairs


@given(st.lists(st.tuples(_SIDE, _SIDE), max_size=20), st.sampled_from([1, -1, 3]))
def test_result_changes_count_each_cell_and_shape_with_the_weight(results, weight):
    assert result_changes(results, weight) == _by_definition(results, weight)


_ONE = st.frozensets(st.sampled_from("xyz"), min_size=1, max_size=1)


@given(st.lists(st.tuples(_ONE, _ONE), max_size=20))
def test_pair_changes_give_the_cells_the_results_give_one_by_one(results):
    pairs = {}
    for assigned, correct in results:
        pair = (next(iter(correct)), next(iter(assigned)))
        pairs[pair] = pairs.get(pair, 0) + 1
    assert pair_changes(pairs) == _by_definition(results)


@pytest.mark.parametrize("pair", [("x", "x"), ("x", "y")])
@pytest.mark.parametrize("count", [1, 3, -2])
def test_pair_changes_of_one_pair_are_those_of_its_results(pair, count):
    # One pair is a learning curve's step (written without the loop): the same changes.
    truth, chosen = pair
    assert pair_changes({pair: count}) == _by_definition([({chosen}, {truth})], count)


@given(st.lists(st.tuples(_SIDE, _SIDE), max_size=8))
def test_a_result_counter_counts_by_the_definition(results):
    counter = ResultCounter()
    for chosen, truth in results:
        counter.add(set(chosen), set(truth))
    assert counter.changes() == _by_definition([(set(x), set(y)) for x, y in results], 1)


def test_label_arrays_and_indicator_matrices_agree_with_the_definition():
    labels = ["x", "y", "z"]
    assigned, correct = np.array(["x", "y", "y", "z"]), np.array(["x", "x", "y", "y"])
    staging = Staging({label: k for k, label in enumerate(labels)}, "error", removing=False)
    expected = _by_definition([({a}, {c}) for a, c in zip(assigned.tolist(), correct.tolist())])
    *cells, shapes, coded = label_array_changes(assigned, correct, staging, labels)
    pairs = {(labels[code >> PAIR_SHIFT], labels[code & 0xFFFFFFFF]): n
             for code, n in coded.to_dict().items()}
    assert (*cells, shapes, pairs) == expected
    one_hot = np.eye(3, dtype=np.int64)
    indexes = {label: k for k, label in enumerate(labels)}
    matrices = [one_hot[[indexes[v] for v in side.tolist()]] for side in (assigned, correct)]
    assert indicator_changes(*matrices, labels) == expected


def test_indicator_matrices_must_match_the_categories():
    with pytest.raises(ValueError, match="indicator matrices have 2 columns"):
        indicator_changes(np.ones((1, 2)), np.ones((1, 2)), ["x", "y", "z"])


def test_shape_histogram_counts_triples_dense_or_sorted():
    both, assigned, correct = np.array([1, 1, 0]), np.array([2, 2, 1]), np.array([1, 1, 3])
    assert shape_histogram(both, assigned, correct, 3) == {(1, 2, 1): 2, (0, 1, 3): 1}
    assert shape_histogram(both, assigned, correct, 10**6) == {(1, 2, 1): 2, (0, 1, 3): 1}


@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=30),
       st.sampled_from([10, 100_000]), st.booleans())
def test_label_arrays_count_the_same_dense_or_sparse(rows, k, weighted):
    """A batch against 10 categories is counted in a dense table, against 100,000 by sorting
    its own codes (no O(K) work): the same changes either way, and those of the definition."""
    names = list(range(k))
    staging = Staging({label: label for label in names}, "error", removing=False)
    assigned = np.array([x for x, _ in rows])
    correct = np.array([y for _, y in rows])
    weights = np.arange(1, len(rows) + 1, dtype=np.int64) if weighted else None
    *cells, shapes, coded = label_array_changes(assigned, correct, staging, names, weights)
    pairs = {(code >> PAIR_SHIFT, code & 0xFFFFFFFF): n for code, n in coded.to_dict().items()}
    expected: tuple = ({}, {}, {}, {}, {})
    for row, (x, y) in enumerate(rows):
        weight = row + 1 if weighted else 1
        one = _by_definition([({x}, {y})], weight)
        expected = tuple({key: part.get(key, 0) + other.get(key, 0) for key in part.keys() | other.keys()}
                         for part, other in zip(expected, one))
    assert (*cells, shapes, pairs) == expected
