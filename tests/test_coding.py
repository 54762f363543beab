"""contingency._coding: label arrays to codes, pre-coded labels, and the one dense-versus-sort rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import _coding
from contingency._coding import dense_is_cheaper, encode

LABELS = st.one_of(st.integers(-5, 5), st.sampled_from(["a", "b", "é", ""]), st.booleans(),
                   st.tuples(st.integers(0, 2)))


def decoded(values):
    codes, labels = encode(values, "x")
    assert codes.dtype == np.int64
    assert sorted(set(codes.tolist())) == list(range(len(labels)))  # codes are 0..K-1, all used
    return [labels[code] for code in codes.tolist()], labels


@given(st.lists(LABELS, max_size=30))
def test_codes_index_the_distinct_labels_in_first_seen_order(values):
    found, labels = decoded(values)
    assert found == values
    assert labels == list(dict.fromkeys(values))


@pytest.mark.parametrize("values", [
    np.array([5, -3, 5, 7]),                       # a small integer range: bincount of presence
    np.array([10**15, -3, 10**15, 7]),             # a wide range: np.unique
    np.array([2**64 - 1, 0, 2**63], dtype=np.uint64),
    np.array([3, 1, 3], dtype=np.int8),
    np.array([2.5, -1.0, 2.5]),
    np.array([True, False, True]),
    np.array(["b", "a", "b", "ab"]),               # hashed fixed-width strings
    np.array([b"b", b"a", b"b"]),
])
def test_numpy_arrays_give_sorted_distinct_labels(values):
    found, labels = decoded(values)
    assert found == values.tolist()
    assert labels == sorted(set(values.tolist()))


def _long(head, tail):
    """A 20,000-item array, long enough for the prefix search: ``head`` repeated, then ``tail``."""
    return np.concatenate([np.resize(np.array(head), 20_000 - len(tail)), tail]).astype(np.int64)


@pytest.mark.parametrize("values", [
    _long([0, 1, 2], []),                # every value of the range in the first prefix
    _long([3, 4, 6], [5]),               # one value met only in the last item
    _long([0, 2], []),                   # a value of the range missing: the whole array counted
    _long([0, 1, 2], [-4]),              # a negative value after every prefix looked at
    _long([7, 9, 8], []),                # a range that does not start at 0
    _long([0, 1], [1000]),               # one far value makes the prefixes too short to look at
])
def test_long_integer_arrays_give_the_distinct_values_wherever_they_occur(values):
    codes, labels = encode(values, "x")
    assert labels == np.unique(values).tolist()
    assert np.array_equal(np.asarray(labels)[codes], values)


def test_object_arrays_keep_first_seen_order():
    found, labels = decoded(np.array(["b", 1, "b"], dtype=object))
    assert found == ["b", 1, "b"]
    assert labels == ["b", 1]


def test_string_hash_collisions_fall_back_to_the_dictionary(monkeypatch):
    monkeypatch.setattr(_coding, "_string_hashes", lambda values: np.zeros(
        len(values), dtype=np.uint64))  # as if every string had one hash
    found, labels = decoded(np.array(["b", "a", "b", "c"]))
    assert found == ["b", "a", "b", "c"]
    assert labels == ["a", "b", "c"]  # still sorted, as np.unique gives


def test_many_distinct_strings_are_coded_as_np_unique_codes_them():
    values = np.array([f"s{(i * 7919) % 5000}" for i in range(12_000)])
    codes, labels = encode(values, "x")
    distinct, inverse = np.unique(values, return_inverse=True)
    assert labels == distinct.tolist()
    assert codes.tolist() == inverse.tolist()


@pytest.mark.parametrize(("values", "error", "message"), [
    (["a", None], ValueError, "reference_labels\\[1\\]: None is not a valid label"),
    ([1.0, float("nan")], ValueError, "reference_labels\\[1\\]: NaN is not a valid label"),
    (np.array([1.0, 2.0, np.nan]), ValueError, "reference_labels\\[2\\]: NaN is not a valid"),
    (["a", ["b"]], TypeError, "reference_labels\\[1\\]: label \\['b'\\] is unhashable"),
    (np.array([None, 1], dtype=object), ValueError, "reference_labels\\[0\\]: None"),
])
def test_bad_labels_are_named_by_position(values, error, message):
    with pytest.raises(error, match=message):
        encode(values, "reference_labels")


def test_dense_is_cheaper_is_one_rule():
    assert dense_is_cheaper(1 << 16, 1)  # a table that stays small is always worth it
    assert not dense_is_cheaper((1 << 16) + 1, 1)
    assert not dense_is_cheaper(200_000, 1)  # a one-row batch never pays O(K)
    assert dense_is_cheaper(4 * 10**6, 10**6)
    assert not dense_is_cheaper(4 * 10**6 + 1, 10**6)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_every_integer_dtype_is_coded_to_python_ints(dtype):
    info = np.iinfo(dtype)
    values = np.array([info.max, info.min, 0, info.max], dtype=dtype)
    found, labels = decoded(values)
    assert found == [int(info.max), int(info.min), 0, int(info.max)]
    assert labels == sorted({int(info.min), 0, int(info.max)})
    assert {type(label) for label in labels} == {int}


def test_coded_labels_are_taken_as_they_are():
    coded = _coding.CodedLabels(np.array([1, 0, 1], dtype=np.int64), ["x", "y"])
    codes, labels = encode(coded, "x")
    assert codes is coded.codes
    assert labels is coded.labels
    assert list(coded) == ["y", "x", "y"]
    assert coded[1:] == ["x", "y"]


@pytest.mark.parametrize(("values", "single"), [
    (np.array(["a"]), True), (np.array([1, 2]), True),
    (_coding.CodedLabels(np.zeros(1, np.int64), ["a"]), True),
    (np.array(["a"], dtype=object), False),  # items may be sets of labels
    (np.zeros((2, 2)), False), (["a"], False),
])
def test_single_label_arrays_are_those_encode_codes_without_python_objects(values, single):
    assert _coding.single_label_array(values) is single
