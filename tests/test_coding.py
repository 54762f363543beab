"""contingency._coding: label arrays to codes, pre-coded labels, and the one dense-versus-sort rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contingency import Contingency, _coding, _feeding
from contingency._coding import coded_single_labels, dense_is_cheaper, encode
from tests.compiled import compiled, needs_kernel

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


# Datetimes and timedeltas: their ticks coded as integers, as the dictionary codes tolist()'s items.

FIRST_ROWS = [pytest.param(_coding.first_rows_reference, id="reference"),
              pytest.param(compiled("first_rows"), id="kernel", marks=needs_kernel)]
CODE_OBJECTS = [pytest.param(_coding.code_objects_reference, id="reference"),
                pytest.param(compiled("code_objects"), id="kernel", marks=needs_kernel)]
TIME_UNITS = ["datetime64[Y]", "datetime64[M]", "datetime64[W]", "datetime64[D]",
              "datetime64[s]", "datetime64[us]", "datetime64[ns]", "datetime64[as]",
              "timedelta64[D]", "timedelta64[ms]", "timedelta64[ns]", "timedelta64[M]"]
NAT = np.iinfo(np.int64).min  # NaT's ticks


def _outcome(call):
    try:
        codes, labels = call()
    except (TypeError, ValueError) as error:
        return type(error).__name__, str(error)
    return codes.tolist(), [(type(label).__name__, repr(label)) for label in labels]


@pytest.mark.parametrize("first_rows", FIRST_ROWS)
@given(ticks=st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**62), 2**62),
                                st.just(NAT)), max_size=30),
       unit=st.sampled_from(TIME_UNITS), step=st.sampled_from([1, -1, 2]))
@example(ticks=[5, 1, 5, 7], unit="timedelta64[ns]", step=1)
@example(ticks=[0, NAT, 0], unit="datetime64[D]", step=1)
@example(ticks=[2**62, -(2**62), 2**62], unit="datetime64[us]", step=1)  # past datetime's range
@example(ticks=[], unit="datetime64[s]", step=1)
def test_time_arrays_are_coded_as_their_listed_items(first_rows, ticks, unit, step):
    values = np.array(ticks, dtype=np.int64).view(unit)[::step]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_coding, "first_rows", first_rows)
        assert _outcome(lambda: encode(values, "y")) == _outcome(
            lambda: _coding._encode_objects(values, "y"))  # the tolist() path it replaces


def test_time_arrays_of_another_kind_are_listed_as_before():
    values = np.array(["2020-01-02", "2020-01-01", "2020-01-02"], dtype="datetime64[D]")
    swapped = values.astype(values.dtype.newbyteorder())  # not native: the tolist() path
    assert _outcome(lambda: encode(swapped, "y")) == _outcome(lambda: encode(values, "y"))
    masked = np.ma.masked_array(values, mask=[False, True, False])  # read as it lists
    with pytest.raises(ValueError, match=r"^y\[1\]: None is not a valid label$"):
        encode(masked, "y")


# A str or bytes subclass (numpy.str_, numpy.bytes_) is one label, as add_result reads it.

@pytest.mark.parametrize("code_objects", CODE_OBJECTS)
@given(st.lists(st.tuples(st.one_of(
    st.sampled_from(["a", "b", "é"]).map(np.str_), st.sampled_from([b"a", b"b"]).map(np.bytes_),
    st.sampled_from(["c", "", b"c"]), st.integers(0, 2), st.booleans(),
    st.sampled_from([np.int64(1), 2.0, None, float("nan"), ("a", "b"), ("c",), frozenset({"a"}),
                     ["a"]])),
    st.sampled_from(["a", "b", "é"]).map(np.str_)), max_size=12))
@example([(np.str_("a"), np.str_("b")), (np.str_("b"), np.str_("a"))])
@example([(np.bytes_(b"a"), np.str_("a"))])
@example([(("a", "b"), np.str_("a"))])
@example([(None, np.str_("a"))])
def test_object_arrays_of_str_subclasses_count_as_the_general_path(code_objects, rows):
    """The batch (coded when every item is a single label: a str subclass is one) against the
    general path every such batch took before (the per-row path of the add_result loop): the
    same counts and categories, each of the same type, or the same error."""
    assigned, correct = (np.empty(len(rows), dtype=object) for _ in range(2))
    for position, (chosen, truth) in enumerate(rows):
        assigned[position], correct[position] = chosen, truth

    def state():
        try:
            made = Contingency().add_results(assigned, correct)
        except (TypeError, ValueError) as error:
            return type(error).__name__, str(error)
        return (made.n_results, made.categories, [type(label) for label in made.categories],
                made.category_stats() if made.n_results else None)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_coding, "code_objects", code_objects)
        batch = state()
        patched.setattr(_feeding, "coded_single_labels", lambda values, name: None)
        general = state()
    assert batch == general


def test_str_subclasses_are_single_labels_coded_in_one_pass():
    values = np.array([np.str_("b"), np.str_("a"), np.str_("b"), np.bytes_(b"a")], dtype=object)
    coded = coded_single_labels(values, "y")
    assert coded is not None
    assert coded.codes.tolist() == [0, 1, 0, 2]
    assert [type(label) for label in coded.labels] == [np.str_, np.str_, np.bytes_]
