"""contingency._containers: pandas and Arrow containers give every batch path the state a list gives."""

from __future__ import annotations

import decimal
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contingency import Contingency, PartitionComparison, _coding, _containers
from contingency._coding import CodedLabels, code_objects_reference, encode
from contingency._containers import library_labels
from contingency._inputs import label_sequence
from tests.compiled import compiled, needs_kernel

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

ROOT = Path(__file__).resolve().parent.parent

STRINGS = st.sampled_from(["b", "a", "", "é", "long label", "10", "a b"])
INTEGERS = st.integers(0, 100)


def _chunked(values: list[object], kind: object = None) -> object:
    """An Arrow ChunkedArray of ``values`` in uneven chunks (and an empty one)."""
    kind = kind or pa.array(values).type
    cut = len(values) // 3
    return pa.chunked_array([pa.array(values[:cut], kind), pa.array([], kind),
                             pa.array(values[cut:], kind)], kind)


#: Every container users hold strings in, each made from a Python list.
STRING_CONTAINERS = {
    "tuple": tuple,
    "numpy str": lambda v: np.array(v, dtype=str),
    "numpy object": lambda v: np.array(v, dtype=object),
    "pandas object": lambda v: pd.Series(v, dtype=object),
    "pandas object, another index": lambda v: pd.Series(v, dtype=object,
                                                        index=range(len(v), 0, -1)),
    "pandas default str": lambda v: pd.Series(v, dtype=str),
    "pandas string[python]": lambda v: pd.Series(v, dtype="string[python]"),
    "pandas string[pyarrow]": lambda v: pd.Series(v, dtype="string[pyarrow]"),
    "pandas category": lambda v: pd.Series(v, dtype="category"),
    "pandas category, unused categories": lambda v: pd.Series(pd.Categorical(
        v, categories=["never", *sorted(set(v)), "unused"])),
    "pandas Index": lambda v: pd.Index(v, dtype=object),
    "pandas Categorical": lambda v: pd.Categorical(v),
    "pandas ArrowDtype": lambda v: pd.Series(v, dtype=pd.ArrowDtype(pa.string())),
    "arrow string": lambda v: pa.array(v, pa.string()),
    "arrow large_string": lambda v: pa.array(v, pa.large_string()),
    "arrow chunked": lambda v: _chunked(v, pa.string()),
    "arrow dictionary": lambda v: pa.array(v, pa.string()).dictionary_encode(),
    "arrow chunked dictionary": lambda v: pa.chunked_array(
        [pa.array(v[:1], pa.string()).dictionary_encode(),
         pa.array(v[1:], pa.string()).dictionary_encode()], pa.dictionary(pa.int32(), pa.string())),
}

#: Every container users hold integers in, each made from a Python list of ints 0..100.
INTEGER_CONTAINERS = {
    **{f"numpy {dtype}": partial(np.array, dtype=dtype)
       for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")},
    "pandas int64": lambda v: pd.Series(v, dtype="int64"),
    "pandas Int64": lambda v: pd.Series(v, dtype="Int64"),
    "pandas category": lambda v: pd.Series(v, dtype="category"),
    "pandas object": lambda v: pd.Series(v, dtype=object),
    "arrow int8": lambda v: pa.array(v, pa.int8()),
    "arrow uint64": lambda v: pa.array(v, pa.uint64()),
    "arrow chunked int32": lambda v: _chunked(v, pa.int32()),
    "arrow dictionary": lambda v: pa.array(v, pa.int64()).dictionary_encode(),
}


@st.composite
def labelled_pairs(draw, containers, labels):
    """Two equal-length label lists and a container kind for each side."""
    n = draw(st.integers(0, 25))
    first = draw(st.lists(labels, min_size=n, max_size=n))
    second = draw(st.lists(labels, min_size=n, max_size=n))
    kinds = st.sampled_from(sorted(containers))
    return first, second, draw(kinds), draw(kinds)


def _same_contingency(made: Contingency, expected: Contingency) -> None:
    assert made == expected
    assert made.categories == expected.categories  # the order first met, as a loop meets them
    assert made.to_dict() == expected.to_dict()
    assert [type(label) for label in made.categories] == [type(label) for label in
                                                          expected.categories]


def _check_every_path(containers, first, second, first_kind, second_kind) -> None:
    truth, predicted = containers[first_kind](first), containers[second_kind](second)
    expected = Contingency.from_labels(first, second, zero_division=0.0)
    _same_contingency(Contingency.from_labels(truth, predicted, zero_division=0.0), expected)
    seeded = Contingency(["a", 7], unknown="add").add_results(second, first)
    _same_contingency(Contingency(["a", 7], unknown="add").add_results(predicted, truth), seeded)
    emptied = Contingency().add_results(second, first).remove_results(predicted, truth)
    assert emptied.n_results == 0
    weights = [1 + index % 4 for index in range(len(first))]
    looped = Contingency()
    for assigned, correct, weight in zip(second, first, weights):
        looped.add_result(assigned, correct, weight=weight)
    _same_contingency(Contingency.from_labels(truth, predicted, sample_weight=weights), looped)
    comparison = PartitionComparison.from_labels(first, second)
    assert PartitionComparison.from_labels(truth, predicted) == comparison
    assert PartitionComparison.from_labels(truth, predicted).to_dict() == comparison.to_dict()
    both = PartitionComparison.from_labels(first + first, second + second)
    assert comparison.copy().add_many(truth, predicted) == both
    assert both.remove_many(truth, predicted) == comparison


@given(labelled_pairs(STRING_CONTAINERS, STRINGS))
def test_string_containers_give_the_state_a_list_gives(drawn):
    _check_every_path(STRING_CONTAINERS, *drawn)


@given(labelled_pairs(INTEGER_CONTAINERS, INTEGERS))
def test_integer_containers_give_the_state_a_list_gives(drawn):
    _check_every_path(INTEGER_CONTAINERS, *drawn)


@pytest.mark.parametrize("kind", sorted(STRING_CONTAINERS))
def test_every_string_container_is_read_as_python_strings(kind):
    values = STRING_CONTAINERS[kind](["b", "a", "b"])
    held = label_sequence(values, "y")
    codes, labels = encode(held, "y")
    assert [labels[code] for code in codes.tolist()] == ["b", "a", "b"]
    assert {type(label) for label in labels} == {str}
    if kind.startswith(("pandas", "arrow")):
        assert isinstance(held, CodedLabels)  # coded by the library, no Python pass over the items


@pytest.mark.parametrize("kind", sorted(INTEGER_CONTAINERS))
def test_every_integer_container_is_coded_without_python_objects(kind):
    held = label_sequence(INTEGER_CONTAINERS[kind]([30, 10, 30]), "y")
    assert isinstance(held, (np.ndarray, CodedLabels))
    codes, labels = encode(held, "y")
    assert [labels[code] for code in codes.tolist()] == [30, 10, 30]
    assert {type(label) for label in labels} == {int}


def test_a_categorical_gives_only_the_categories_it_uses():
    values = pd.Categorical(["b", "b"], categories=["a", "b", "c"])
    held = label_sequence(values, "y")
    assert (held.codes.tolist(), held.labels) == ([0, 0], ["b"])
    declared = Contingency(["b"], unknown="error").add_results(values, values)
    assert declared.categories == ("b",)  # unused categories are not labels met


def test_a_categorical_past_the_dense_table_is_compacted_by_sorting():
    values = pd.Categorical.from_codes([2**21, 5, 2**21], categories=range(2**22))
    held = label_sequence(values, "y")
    assert (held.codes.tolist(), held.labels) == ([1, 0, 1], [5, 2**21])


@pytest.mark.parametrize(("values", "message"), [
    (lambda: pd.Series(["a", None, "b"], dtype=object), r"y\[1\]: None is not a valid label$"),
    (lambda: pd.Series(["a", "b", np.nan], dtype=object), r"y\[2\]: NaN is not a valid label"),
    (lambda: pd.Series(["a", None], dtype="string[python]"), r"y\[1\]: a missing value \(<NA>\)"),
    (lambda: pd.Series(["a", None], dtype="string[pyarrow]"), r"y\[1\]: a missing value \(<NA>\)"),
    (lambda: pd.Series(["a", "b", None], dtype="category"), r"y\[2\]: NaN is not a valid label"),
    (lambda: pd.Series([1, None], dtype="Int64"), r"y\[1\]: a missing value \(<NA>\)"),
    (lambda: pd.Series(pd.to_datetime(["2020-01-01", None])), r"y\[1\]: a missing value \(NaT\)"),
    (lambda: pd.Series([1.0, np.nan]), r"y\[1\]: NaN is not a valid label"),
    (lambda: pa.array(["a", "b", None]), r"y\[2\]: a missing value \(null\)"),
    (lambda: _chunked(["a", "b", "c", None]), r"y\[3\]: a missing value \(null\)"),
    (lambda: pa.array([1, None]), r"y\[1\]: a missing value \(null\)"),
    (lambda: pa.DictionaryArray.from_arrays([0, 1], pa.array(["a", None])),
     r"y\[1\]: None is not a valid label"),
    (lambda: pa.array([1.0, float("nan")]), r"y\[1\]: NaN is not a valid label"),
])
def test_missing_values_are_refused_naming_the_position(values, message):
    with pytest.raises(ValueError, match=message):
        encode(label_sequence(values(), "y"), "y")  # what every batch path does


@pytest.mark.parametrize("make", [
    lambda: pd.Series(["x", "y", None], dtype="string[pyarrow]"),
    lambda: pd.Series(["x", "y", None], dtype="category"),
    lambda: pa.array(["x", "y", None]),
])
def test_a_missing_value_leaves_every_accumulator_as_it_was(make):
    contingency = Contingency().add_results(["x"], ["y"])
    before = contingency.copy()
    with pytest.raises(ValueError, match=r"correct\[2\]"):
        contingency.add_results(["x", "y", "x"], make())
    assert contingency == before
    comparison = PartitionComparison.from_labels(["x"], ["y"])
    saved = comparison.copy()
    with pytest.raises(ValueError, match=r"model_labels\[2\]"):
        comparison.add_many(["x", "y", "x"], make())
    assert comparison == saved


def test_sets_of_labels_in_a_container_are_read_as_a_list_reads_them():
    sides = [("a", "b"), ("a",), ()]
    held = label_sequence(pd.Series(sides, dtype=object), "assigned")
    assert held == sides  # tuples: sets of labels for Contingency, labels for PartitionComparison
    assert (Contingency().add_results(pd.Series(sides, dtype=object), sides)
            == Contingency().add_results(sides, sides))
    lists = [["a", "b"], ["b"]]
    assert (Contingency().add_results(pd.Series(lists, dtype=object), lists)
            == Contingency().add_results(lists, lists))
    assert (Contingency().add_results(pa.array(lists), lists)
            == Contingency().add_results(lists, lists))


def test_arrow_dictionaries_with_equal_entries_code_them_once():
    values = pa.DictionaryArray.from_arrays([0, 1, 2, 1], pa.array(["a", "b", "a"]))
    held = label_sequence(values, "y")
    assert list(held) == ["a", "b", "a", "b"]
    assert (held.codes.tolist(), held.labels) == ([0, 1, 0, 1], ["a", "b"])
    zeros = pa.DictionaryArray.from_arrays([0, 1], pa.array([0.0, -0.0]))
    assert label_sequence(zeros, "y").labels == [0.0]  # equal in Python: one label


def test_labels_with_a_nul_character_survive_pandas_and_arrow():
    values = ["a\x00", "a"]
    for container in (pd.Series(values, dtype="string[pyarrow]"), pa.array(values)):
        assert list(label_sequence(container, "y")) == values


def test_other_arrow_types_give_python_values():
    import datetime

    days = [datetime.date(2020, 1, 1), datetime.date(2020, 1, 2)]
    assert label_sequence(pa.array(days), "y") == days
    assert PartitionComparison.from_labels(pa.array(days), [1, 2]) == (
        PartitionComparison.from_labels(days, [1, 2]))


def test_two_dimensional_containers_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match=r"^y_true must be one-dimensional, not a DataFrame"):
        Contingency.from_labels(pd.DataFrame({"a": ["x"]}), ["x"])
    with pytest.raises(ValueError, match=r"^reference_labels must be one-dimensional, not an "
                                         "Arrow Table"):
        PartitionComparison.from_labels(pa.table({"a": ["x"]}), ["x"])


def test_other_objects_are_not_library_containers():
    assert library_labels(["a"], "y") is None
    assert library_labels(np.array(["a"]), "y") is None
    assert label_sequence(CodedLabels(np.array([0]), ["a"]), "y").labels == ["a"]


def test_import_contingency_imports_neither_pandas_nor_pyarrow():
    code = ("import sys, contingency; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'pyarrow')))")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=environment, cwd=ROOT)
    assert found.stdout.strip() == "[]"


def test_a_string_array_beside_an_object_array_gives_python_strings():
    """Found by a random seed: a numpy str array beside an object array took the per-row path,
    which met numpy.str_ elements and made them the categories."""
    strings, objects = np.array(["b", "a"]), np.array(["b", "a"], dtype=object)
    for assigned, correct in ((strings, objects), (objects, strings)):
        made = Contingency().add_results(assigned, correct)
        assert [type(label) for label in made.categories] == [str, str]
        assert made == Contingency().add_results(["b", "a"], ["b", "a"])


# Python objects held in numpy (an object Series or Index, the string dtype's python storage):
# coded by code_objects, with the codes, uniques, label objects and errors of pandas.factorize.

CODE_OBJECTS = [pytest.param(code_objects_reference, id="reference"),
                pytest.param(compiled("code_objects"), id="kernel", marks=needs_kernel)]

#: Labels of every kind an object column holds, missing values and sets of labels among them.
OBJECT_ITEMS = st.one_of(
    st.sampled_from(["a", "b", "", "é", "a\x00"]), st.integers(-3, 3), st.booleans(),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, b"a", np.int64(2), np.float64(2.5), np.str_("a"),
                     np.bytes_(b"a"), np.bool_(True), complex(1, 2), decimal.Decimal("2.5"),
                     ("a", 1), frozenset({"b"}), None, float("nan"), pd.NA, pd.NaT,
                     np.datetime64("NaT"), decimal.Decimal("NaN"), pd.Timestamp("2020-01-01"),
                     np.datetime64("2020-01-01")]),
    st.lists(st.integers(0, 2), max_size=1))  # unhashable: a list of labels


def _object_array(items: list[object]) -> np.ndarray:
    array = np.empty(len(items), dtype=object)
    for position, item in enumerate(items):
        array[position] = item
    return array


#: The containers of Python objects held in numpy: what the fast path takes.
OBJECT_CONTAINERS = {
    "object Series": lambda v: pd.Series(_object_array(v), dtype=object),
    "object Series, another index": lambda v: pd.Series(_object_array(v), dtype=object,
                                                        index=np.arange(len(v))[::-1] * 2),
    "object Index": lambda v: pd.Index(_object_array(v), dtype=object),
    "object extension array": lambda v: pd.array(_object_array(v), dtype=object),
}


def _library_outcome(values: object) -> object:
    """What library_labels makes of ``values``: codes, each label's type, repr and whether it is
    the very item at its first position, or a list, or the error."""
    try:
        held = library_labels(values, "y")
    except (TypeError, ValueError) as error:
        return type(error).__name__, str(error)
    if isinstance(held, list):
        return "list", [(type(item).__name__, repr(item)) for item in held]
    assert isinstance(held, CodedLabels)
    items = np.asarray(values, dtype=object)
    first = [int(np.flatnonzero(held.codes == code)[0]) for code in range(len(held.labels))]
    return held.codes.tolist(), [(type(label).__name__, repr(label), label is items[at])
                                 for label, at in zip(held.labels, first)]


def _both_paths(values: object, routine: object, monkeypatch: pytest.MonkeyPatch
                ) -> tuple[object, object]:
    """The outcome on the code_objects path (with ``routine``) and on pandas.factorize's."""
    with monkeypatch.context() as patched:
        patched.setattr(_coding, "code_objects", routine)
        fast = _library_outcome(values)
    with monkeypatch.context() as patched:
        patched.setattr(_containers, "_object_factorized", lambda array, pandas: None)
        factorized = _library_outcome(values)
    return fast, factorized


@pytest.mark.parametrize("routine", CODE_OBJECTS)
@given(items=st.lists(OBJECT_ITEMS, max_size=12), kind=st.sampled_from(sorted(OBJECT_CONTAINERS)))
@example(items=["b", np.str_("a"), "a"], kind="object Series")
@example(items=[1, True, 1.0, np.int64(1)], kind="object Series")
@example(items=["a", None, float("nan")], kind="object Series")
@example(items=["a", pd.NA, None], kind="object Series, another index")
@example(items=[("a", 1), "a"], kind="object Series")
@example(items=["a", [1]], kind="object Index")
@example(items=[np.datetime64("2020-01-01"), pd.Timestamp("2020-01-01")], kind="object Series")
def test_objects_in_numpy_are_coded_as_factorize_codes_them(routine, items, kind):
    fast, factorized = _both_paths(OBJECT_CONTAINERS[kind](items), routine, pytest.MonkeyPatch())
    assert fast == factorized


@pytest.mark.parametrize("routine", CODE_OBJECTS)
@given(st.lists(st.one_of(st.sampled_from(["b", "a", "", "é", "a\x00"]), st.none()),
                max_size=12), st.sampled_from(["python", "pyarrow"]), st.booleans())
def test_string_series_are_coded_as_factorize_codes_them(routine, items, storage, nan):
    dtype = pd.StringDtype(storage, na_value=np.nan if nan else pd.NA)
    fast, factorized = _both_paths(pd.Series(items, dtype=dtype), routine, pytest.MonkeyPatch())
    assert fast == factorized


def test_an_object_series_is_coded_by_code_objects(monkeypatch):
    calls = []

    def counted(values):
        calls.append(type(values))
        return code_objects_reference(values)

    monkeypatch.setattr(_coding, "code_objects", counted)
    for values in (pd.Series(["b", "a", "b"], dtype=object),
                   pd.Series(["b", "a", "b"], dtype="string[python]"),
                   pd.Index(["b", "a", "b"], dtype=object)):
        calls.clear()
        held = library_labels(values, "y")
        assert (held.codes.tolist(), held.labels) == ([0, 1, 0], ["b", "a"])
        assert calls == [np.ndarray]  # its numpy values, as they are: no factorize, no tolist
