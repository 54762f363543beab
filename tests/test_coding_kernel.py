"""contingency._kernel_coding.pxi against its reference: the same codes and the same label objects.

``code_objects`` (the kernel's one C pass over a list, tuple or 1-d object array) and
:func:`contingency._coding.code_objects_reference` (``dict.fromkeys`` and ``map``) run on the
same inputs; codes must be equal and each distinct label the very object the reference keeps
(the first met of its class of equal ones). The callers (:func:`~contingency._coding.encode`,
:func:`~contingency._coding.coded_single_labels`) are run on each implementation too, their
results and errors compared.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contingency import _backend, _coding
from contingency._coding import code_objects_reference, coded_single_labels, encode
from tests.compiled import compiled, needs_kernel

KERNEL = compiled("code_objects")
IMPLEMENTATIONS = [pytest.param(code_objects_reference, id="reference"),
                   pytest.param(KERNEL, id="kernel", marks=needs_kernel)]

NAN = float("nan")
OTHER_NAN = float("nan")  # another NaN object: a distinct key (a dict compares identity first)


def objects(items: list[Any]) -> np.ndarray:
    """A 1-d object array holding exactly these objects (np.array would make tuples a 2-d array)."""
    array = np.empty(len(items), dtype=object)
    for position, item in enumerate(items):
        array[position] = item
    return array


def field(items: list[Any]) -> np.ndarray:
    """A 1-d object array that is a field of a packed structured array: a stride of 9 bytes, its
    item pointers unaligned."""
    packed = np.zeros(len(items), dtype=np.dtype([("flag", "i1"), ("label", object)]))
    for position, item in enumerate(items):
        packed["label"][position] = item
    view = packed["label"]
    assert view.dtype == object
    assert view.strides == (9,) or not items
    return view


def every_container(items: list[Any]) -> list[Any]:
    """``items`` as each container the routine takes: a list, a tuple, an object array, and
    object arrays read at a stride (every other item of a doubled array, reversed, a field)."""
    doubled = objects([item for item in items for _ in range(2)])
    return [items, tuple(items), objects(items), doubled[::2], objects(items[::-1])[::-1],
            field(items)]


def assert_same(values: Any) -> None:
    """The kernel's codes and labels are the reference's: equal codes (int64), each label
    the reference's very object, and the same ``mixed`` (an item not of its label's type)."""
    expected_codes, expected_labels, expected_mixed = code_objects_reference(values)
    codes, labels, mixed = KERNEL(values)
    assert mixed is expected_mixed
    assert mixed is any(type(item) is not type(labels[code])
                        for item, code in zip(values, codes.tolist()))
    assert type(codes) is np.ndarray
    assert (codes.dtype, codes.ndim) == (np.int64, 1)
    assert codes.tolist() == expected_codes.tolist()
    assert type(labels) is list
    assert len(labels) == len(expected_labels)
    assert all(ours is theirs for ours, theirs in zip(labels, expected_labels))


MIXED = [
    [1, 1.0, True, "1", 2, 2.0, False, 0, 0.0],                   # equal numbers: the first kept
    [NAN, NAN, OTHER_NAN, np.float64("nan"), 1.5],                # NaN objects: one key each
    [None, "a", None, ()],                                        # None and the empty tuple
    [np.int64(3), 3, np.float64(3.0), np.str_("x"), "x", np.bool_(True), 1],  # numpy scalars
    [(1, "x"), (1, "x"), ("x", 1), (1, ("x",)), frozenset({1}), frozenset({1})],  # containers
    [b"a", "a", b"a", b""],                                       # bytes and str apart
    ["é", "e", "e\u0301", "", " ", "\x00"],                       # unicode, empty, NUL
    [10**30, 10**30 + 1, -(2**63), 2**64, 10**30],                # big integers
    [],                                                           # nothing
    ["only"],
]


@needs_kernel
@pytest.mark.parametrize("items", MIXED)
def test_the_kernel_codes_every_container_as_the_reference(items):
    for values in every_container(items):
        assert_same(values)


@needs_kernel
def test_equal_labels_keep_the_first_object_met():
    first, later = (1, "x"), tuple(label for label in (1, "x"))  # two objects, equal
    assert first is not later
    for values in every_container([first, "y", later]):
        codes, labels, mixed = KERNEL(values)
        assert codes.tolist() == [0, 1, 0]
        assert labels[0] is first
        assert not mixed  # (two objects of one type)
    codes, labels, mixed = KERNEL([True, 1, 1.0])
    assert codes.tolist() == [0, 0, 0]
    assert labels == [True]
    assert labels[0] is True
    assert mixed


@needs_kernel
@pytest.mark.parametrize("size", [1, 2, 5])
def test_an_unhashable_item_anywhere_is_the_same_type_error(size):
    for position in range(size):
        items: list[Any] = [f"s{at}" for at in range(size)]
        items[position] = ["unhashable", position]
        for values in every_container(items):
            with pytest.raises(TypeError) as theirs:
                code_objects_reference(values)
            with pytest.raises(TypeError) as ours:
                KERNEL(values)
            assert str(ours.value) == str(theirs.value) == "unhashable type: 'list'"


@needs_kernel
def test_a_hash_that_raises_is_raised_as_it_is():
    class Refusing:
        def __hash__(self) -> int:
            raise ArithmeticError("no hash today")

    for values in every_container(["a", Refusing()]):
        for routine in (code_objects_reference, KERNEL):
            with pytest.raises(ArithmeticError, match="no hash today"):
                routine(values)


@needs_kernel
def test_a_list_shortened_by_an_items_eq_is_refused_not_read_past_its_end():
    values: list[Any] = []

    class Shrinking:
        def __hash__(self) -> int:
            return 7

        def __eq__(self, other: object) -> bool:
            values.clear()  # drops every item while the kernel holds one
            return False

    values.extend([Shrinking(), Shrinking(), "a", "b"])
    with pytest.raises(RuntimeError, match="changed size while it was coded"):
        KERNEL(values)


@needs_kernel
@pytest.mark.parametrize("values", [np.array(["a", "b"]), np.array([[1], [2]], dtype=object),
                                    "ab", {"a": 1}, range(3)])
def test_the_kernel_refuses_what_it_does_not_take_without_a_type_error(values):
    """Only lists, tuples and 1-d object arrays: anything else is the caller's mistake, not an
    unhashable label (which callers read a TypeError as)."""
    with pytest.raises(ValueError, match="takes a list, tuple or 1-d object array"):
        KERNEL(values)


def test_a_long_input_of_few_labels_is_coded_alike():
    rng = np.random.default_rng(5)
    names = [f"label{code}" for code in range(300)] + list(range(300))
    items = [names[code] for code in rng.integers(0, len(names), 20_000).tolist()]
    codes, labels, mixed = code_objects_reference(items)
    assert not mixed
    assert [labels[code] for code in codes.tolist()] == items
    assert labels == list(dict.fromkeys(items))
    if KERNEL is not None:
        for values in every_container(items):
            assert_same(values)


LABELS = st.one_of(st.integers(-3, 3), st.sampled_from([1.0, 0.0, -0.0, 2.5, NAN, OTHER_NAN]),
                   st.booleans(), st.none(), st.text(max_size=2), st.binary(max_size=2),
                   st.tuples(st.integers(0, 1)), st.builds(np.int64, st.integers(-2, 2)),
                   st.builds(np.float64, st.sampled_from([0.0, 1.0, NAN])))


@needs_kernel
@given(st.lists(LABELS, max_size=40))
@example([1, True, 1.0, np.int64(1), np.float64(1.0)])
@example([0.0, -0.0, False, 0])
@example([NAN, np.float64("nan"), NAN])
@example([])  # (an empty field of a structured array has stride 0)
def test_random_lists_are_coded_alike_in_every_container(items):
    for values in every_container(items):
        assert_same(values)
    codes, labels, _ = KERNEL(items)
    assert all(labels[code] == item or labels[code] is item
               for code, item in zip(codes.tolist(), items))


@given(st.lists(st.one_of(LABELS, st.lists(st.integers(0, 1), max_size=1)), max_size=20))
@example([["a"], 1])
@example([1, [0]])
def test_an_unhashable_item_is_a_type_error_on_both_or_neither(items):
    outcomes = []
    for routine in (code_objects_reference, KERNEL) if KERNEL is not None else (
            code_objects_reference,):
        try:
            codes, labels, mixed = routine(objects(items))
        except TypeError as error:
            outcomes.append(("TypeError", str(error)))
        else:
            outcomes.append((codes.tolist(), [id(label) for label in labels], mixed))
    assert len(set(map(repr, outcomes))) == 1
    assert (outcomes[0][0] == "TypeError") == any(isinstance(item, list) for item in items)


# The callers: their results and messages the same whichever routine codes.


CALLERS_INPUTS = [
    ["b", "a", "b"],
    ("x", 2, 2.0, "x"),
    objects(["x", 2, "x"]),
    objects(["a", "b", "c", "d"])[::2],
    ["a", ["b"]],                           # a set of labels given as a list: no single labels
    ["a", ("b", "c")],                      # a tuple of labels: a set of labels
    objects(["a", frozenset({"b"})]),
    ["a", None],                            # None: refused, named at its position
    ["a", "b", math.nan],                   # NaN: refused
    objects([None, 1]),
    [],
    np.array([np.datetime64("2020-01-01"), np.datetime64("2020-01-01")]),  # coded by its ticks
    np.array([np.datetime64("2020-01-01"), np.datetime64("NaT")]),          # NaT: refused as None
    [b"a", b"b", b"a"],
    objects([np.str_("b"), np.str_("a"), np.str_("b")]),  # a str subclass: one label each
    [np.bytes_(b"a"), "a", np.str_("a")],
]


@pytest.mark.parametrize("routine", IMPLEMENTATIONS)
@pytest.mark.parametrize("values", CALLERS_INPUTS)
def test_coded_single_labels_is_the_same_on_both(values, routine):
    expected = _outcome(lambda: _coded_form(coded_single_labels(values, "y_true")),
                        code_objects_reference, values)
    assert _outcome(lambda: _coded_form(coded_single_labels(values, "y_true")),
                    routine, values) == expected


@pytest.mark.parametrize("routine", IMPLEMENTATIONS)
@pytest.mark.parametrize("values", CALLERS_INPUTS)
def test_encode_is_the_same_on_both(values, routine):
    expected = _outcome(lambda: _plain(encode(values, "labels")), code_objects_reference, values)
    assert _outcome(lambda: _plain(encode(values, "labels")), routine, values) == expected


def _coded_form(coded: Any) -> Any:
    return None if coded is None else _plain((coded.codes, coded.labels))


def _plain(found: tuple[Any, list[Any]]) -> tuple[list[int], list[tuple[str, Any]]]:
    codes, labels = found
    return codes.tolist(), [(type(label).__name__, repr(label)) for label in labels]


def _outcome(call: Any, routine: Any, values: Any) -> Any:
    """What ``call`` gives with ``routine`` coding objects: its result or its error's type and
    message."""
    saved = _coding.code_objects
    _coding.code_objects = routine
    try:
        return call()
    except (TypeError, ValueError) as error:
        return type(error).__name__, str(error)
    finally:
        _coding.code_objects = saved


def test_the_backend_gives_coding_the_kernels_routine_when_it_counts_with_the_kernel():
    if _backend.IMPLEMENTATION == "kernel":
        assert _coding.code_objects is KERNEL
    else:
        assert _coding.code_objects is code_objects_reference


def test_a_masked_object_array_is_read_as_it_iterates_and_as_tolist_gives_it():
    """An ndarray subclass is not taken as it is: coded_single_labels iterates it (a masked
    item is unhashable: not single labels), encode reads its tolist() (a masked item is None)."""
    masked = np.ma.array(objects(["a", "b", "a"]), mask=[False, True, False])
    assert coded_single_labels(masked, "y_true") is None
    with pytest.raises(ValueError, match=r"y_true\[1\]: None is not a valid label"):
        encode(masked, "y_true")
    codes, labels = encode(np.ma.array(objects(["a", "b", "a"])), "y_true")
    assert (codes.tolist(), labels) == ([0, 1, 0], ["a", "b"])


# The order a loop of results meets codes in (meeting_order, on each implementation of first_rows)

FIRST_ROWS = [pytest.param(_coding.first_rows_reference, id="reference"),
              pytest.param(compiled("first_rows"), id="kernel", marks=needs_kernel)]


def met_by_a_loop(sides: list[list[int]], count: int, live: list[bool] | None) -> list[int]:
    """The definition: rows in order (live ones first), the assigned side, then the correct one;
    each code 0..count-1 listed when first met."""
    rows = list(range(len(sides[0])))
    if live is not None:
        rows = [row for row in rows if live[row]] + [row for row in rows if not live[row]]
    met: list[int] = []
    for row in rows:
        for codes in sides:
            if 0 <= codes[row] < count and codes[row] not in met:
                met.append(codes[row])
    return met


@st.composite
def meetings(draw: Any) -> tuple[list[list[int]], int, list[bool] | None]:
    count = draw(st.integers(0, 12))
    size = draw(st.integers(0, 40))
    sides = [draw(st.lists(st.integers(-3, count + 2), min_size=size, max_size=size))
             for _ in range(2)]
    # every code 0..count-1 met: placed at random rows of either side
    for code in range(count):
        if size:
            side, row = draw(st.integers(0, 1)), draw(st.integers(0, size - 1))
            sides[side][row] = code
    for code in range(count):  # (one placed over another: given a row of its own)
        if code not in sides[0] and code not in sides[1]:
            sides[0].append(code)
            sides[1].append(-1)
    size = len(sides[0])
    live = draw(st.none() | st.lists(st.booleans(), min_size=size, max_size=size))
    return sides, count, live


@pytest.mark.parametrize("first_rows", FIRST_ROWS)
@given(meetings())
@example(([[5, 1, 0], [1, 2, 5]], 3, None))
@example(([[0, 1], [2, 2]], 3, [False, True]))
@example(([[0, 0, 1], [1, 0, 0]], 2, [False, False, True]))
def test_meeting_order_is_the_order_a_loop_meets_the_codes(first_rows: Any, case: Any) -> None:
    sides, count, live = case
    saved = _coding.first_rows
    _coding.first_rows = first_rows
    try:
        met = _coding.meeting_order([np.array(codes, dtype=np.int64) for codes in sides], count,
                                    None if live is None else np.array(live, dtype=bool))
    finally:
        _coding.first_rows = saved
    assert met.tolist() == met_by_a_loop(sides, count, live)


def test_meeting_order_refuses_a_code_no_row_meets() -> None:
    with pytest.raises(ValueError, match="code 1 is met by no row"):
        _coding.meeting_order([np.array([0, 2]), np.array([0, 0])], 2)


def test_the_backend_gives_coding_the_kernels_first_rows_when_it_counts_with_the_kernel():
    if _backend.IMPLEMENTATION == "kernel":
        assert _coding.first_rows is compiled("first_rows")
    else:
        assert _coding.first_rows is _coding.first_rows_reference
