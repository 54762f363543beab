"""contingency._inputs: batch shaping and checks, each error naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from contingency._inputs import (
    are_disjoint,
    check_same_length,
    check_weights,
    exact_weights,
    label_sequence,
    partition_subsets,
)


def test_label_sequences_are_kept_or_listed():
    array = np.array([1, 2])
    assert label_sequence(array, "x") is array
    values = ["a", "b"]
    assert label_sequence(values, "x") is values
    assert label_sequence(("a",), "x") == ("a",)
    assert label_sequence(iter([3, 4]), "x") == [3, 4]
    assert label_sequence(range(2), "x") == [0, 1]


@pytest.mark.parametrize(("values", "error", "message"), [
    ("ab", TypeError, "y_true must be a sequence of labels, not str"),
    (b"ab", TypeError, "y_true must be a sequence of labels, not bytes"),
    ({"a": 1}, TypeError, "y_true must be a sequence of labels, not dict"),
    (3, TypeError, "y_true must be a sequence of labels, not int"),
    (np.array(3), ValueError, "y_true must be one-dimensional, not 0-dimensional"),
    (np.zeros((2, 2)), ValueError, "y_true must be one-dimensional, not 2-dimensional"),
])
def test_label_sequences_refused_name_the_argument(values, error, message):
    with pytest.raises(error, match=message):
        label_sequence(values, "y_true")


def test_lengths_must_match():
    assert check_same_length([1, 2], np.array([3, 4]), ("a", "b")) == 2
    with pytest.raises(ValueError, match="first and second have different lengths \\(1 and 0\\)"):
        check_same_length([1], [], ("first", "second"))


def test_weights_become_int64_or_python_ints():
    assert check_weights(None, 3, "add_many") is None
    weights = check_weights(np.array([1, 2], dtype=np.uint8), 2, "add_many")
    assert weights.dtype == np.int64
    assert weights.tolist() == [1, 2]
    assert check_weights((np.int64(4), 0), 2, "add_many").tolist() == [4, 0]
    huge = check_weights([2**62, 2**62], 2, "add_many")
    assert huge.dtype == object
    assert sum(huge.tolist()) == 2**63


@pytest.mark.parametrize(("weights", "error", "message"), [
    ("12", TypeError, "add_many: weights must be a sequence of integer counts, not str"),
    (b"12", TypeError, "add_many: weights must be a sequence of integer counts, not bytes"),
    ({1: 2}, TypeError, "add_many: weights must be a sequence of integer counts, not dict"),
    (3, TypeError, "add_many: weights must be a sequence of integer counts, not int"),
    ([1, -1], ValueError, "add_many: weights\\[1\\] must be a non-negative integer count, not -1"),
    ([1, 0.5], TypeError, "add_many: weights\\[1\\] is 0.5, not an integer"),
    ([2.0, 0.5], TypeError, "add_many: weights\\[1\\] is 0.5, not an integer"),
    ([True, 1], ValueError, "add_many: weights\\[0\\] must be a non-negative integer count"),
    (np.array([1, -2]), ValueError, "add_many: weights\\[1\\] must be a non-negative integer"),
    (np.array([1.0, 2.5]), TypeError, "add_many: weights\\[1\\] is 2.5, not an integer"),
    (np.array([1.0, np.nan]), ValueError, "add_many: weights\\[1\\] must be a finite non-negative"),
    ([1.0, -2.0], ValueError, "add_many: weights\\[1\\] must be a finite non-negative"),
    (np.ones((2, 1), dtype=int), ValueError, "add_many: weights must be one-dimensional"),
    ([1], ValueError, "add_many: weights has 1 items but there are 2 labels"),
    ([1, 2**63], ValueError, "add_many: weights\\[1\\] = 9223372036854775808 is past the count limit"),
    (np.array([1, 2**63], dtype=np.uint64), ValueError, "add_many: weights\\[1\\] = .* is past the count"),
    ([np.float32(1.5), 1], TypeError, "add_many: weights\\[0\\] is np.float32\\(1.5\\), not an integer"),
])
def test_bad_weights_are_named(weights, error, message):
    with pytest.raises(error, match=message):
        check_weights(weights, 2, "add_many")


def _exactly(weights, e):
    """The exact values of ``exact_weights``' result, as fractions."""
    from fractions import Fraction
    return [Fraction(int(w), 2**e) for w in weights.tolist()]


def _fractions(values):
    from fractions import Fraction
    return [Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(float(v))
            for v in values]


@pytest.mark.parametrize("values", [
    [2**60 + 1, 0.5],
    [2**53 + 1, 1.0],
    [0.25, np.int64(2**62), np.float32(0.1)],
    [np.uint64(2**63 - 1), 0.5],
    (3, 2.0**-60, 2**40 + 1),
    [2**63 - 1, 1],
])
def test_one_exact_conversion_of_any_weight_array(values):
    """Lists and tuples of Python and numpy ints and floats, mixed or not, and object arrays:
    each weight exactly, none rounded through a float array."""
    for given in (values, list(values), iter(values), np.array(values, dtype=object)):
        weights, e = exact_weights(given, len(values), "add_results")
        assert _exactly(weights, e) == _fractions(values)
        assert weights.dtype == np.int64 or all(type(w) is int for w in weights.tolist())


@pytest.mark.parametrize("array", [
    np.array([3, 0, 2**40], dtype=np.int64), np.array([1, 2], dtype=np.uint64),
    np.array([0.5, 0.0, 1e6 + 0.25]), np.array([0.1, 2.5], dtype=np.float32), np.array([], float),
])
def test_numeric_arrays_are_converted_without_a_loop_and_exactly(array):
    weights, e = exact_weights(array, len(array), "add_results", unit=2)
    assert e >= 2
    assert weights.dtype == np.int64
    assert _exactly(weights, e) == _fractions(array.tolist())


def test_whole_weights_take_the_same_conversion_with_integers_only():
    weights = check_weights([np.int8(3), 2**40, np.uint64(5)], 3, "add_many")
    assert weights.dtype == np.int64
    assert weights.tolist() == [3, 2**40, 5]
    with pytest.raises(TypeError, match=r"add_many: weights\[1\] is 0.5, not an integer"):
        check_weights(np.array([1, 0.5], dtype=object), 2, "add_many")


def test_partition_subsets_are_checked():
    assert partition_subsets((("a", 1), {2}), "first") == [["a", 1], [2]]
    with pytest.raises(TypeError, match="the second partition must be an iterable of subsets"):
        partition_subsets("ab", "second")
    with pytest.raises(TypeError, match="first partition, subset 1: a subset must be"):
        partition_subsets([[1], "ab"], "first")
    with pytest.raises(ValueError, match="first partition, subset 0: None is not a valid label"):
        partition_subsets([[None]], "first")


def test_are_disjoint():
    assert are_disjoint([])
    assert are_disjoint([[1, 1], [2]])
    assert not are_disjoint([[1], [2], [3, 1]])
