"""contingency._counts: the counts and their one write routine, which every result reaches at once."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import Contingency
from contingency._changes import PAIR_SHIFT, pair_changes, result_changes
from contingency._counts import Counts
from contingency._table import PairTable

_LABELS = ["x", "y", "z"]
_SIDE = st.frozensets(st.sampled_from(_LABELS), max_size=3)


def _applied(results: list[tuple[frozenset[str], frozenset[str]]]) -> Counts:
    counts = Counts(_LABELS)
    counts.apply(*result_changes(results, 1))
    return counts


def _same(left: Counts, right: Counts) -> None:
    assert list(left.a) == list(right.a)
    assert left.canonical() == right.canonical()
    assert (left.n, left.micro, left.offset) == (right.n, right.micro, right.offset)


@given(st.lists(st.tuples(_SIDE, _SIDE), max_size=30))
def test_results_added_one_at_a_time_are_applied_at_once_one_rule(results):
    """add_result's fast paths apply each result at once, by the rule of result_changes: after
    every result the counts hold it, and they equal the results applied as one batch."""
    s = Contingency(_LABELS)
    for position, (assigned, correct) in enumerate(results):
        if len(assigned) == len(correct) == 1:
            s.add_result(*assigned, *correct)
        else:
            s.add_result(set(assigned), set(correct))
        assert s._counts.n == position + 1
    _same(s._counts, _applied(results))


def test_pairs_are_kept_by_code():
    counts = _applied([(frozenset("x"), frozenset("y")), (frozenset("y"), frozenset("y"))])
    x, y = counts.ids["x"], counts.ids["y"]
    assert counts.pairs.to_dict() == {y << PAIR_SHIFT | x: 1, y << PAIR_SHIFT | y: 1}
    assert counts.label_pairs() == {("y", "x"): 1, ("y", "y"): 1}


def test_a_refused_change_leaves_every_count_as_it_was():
    counts = _applied([(frozenset("x"), frozenset("y")), (frozenset("xy"), frozenset("y")),
                       (frozenset("x"), frozenset("yz"))])
    before = counts.copy()
    with pytest.raises(ValueError, match="category 'x' has no true positive"):
        counts.apply(*_negated(pair_changes({("x", "x"): 1})), removing=True, where="remove_result")
    _same(counts, before)
    with pytest.raises(ValueError, match=r"no result of that shape .* = \(1, 1, 1\)"):
        counts.apply(*_negated(pair_changes({("y", "y"): 1})), removing=True)
    _same(counts, before)
    with pytest.raises(ValueError, match="named by more results than the 2 that would remain"):
        counts.apply(*_negated(pair_changes({("z", "x"): 1})), removing=True)
    _same(counts, before)


def _negated(changes):
    return tuple({key: -count for key, count in part.items()} for part in changes)


@given(st.lists(st.tuples(_SIDE, _SIDE), max_size=12), st.lists(st.tuples(_SIDE, _SIDE),
                                                                 min_size=1, max_size=3))
def test_check_refuses_exactly_what_apply_refuses_and_writes_nothing(held, taken):
    """Counts.check (a paired accumulator checks both models before writing either): for any
    removal, it raises the error apply raises, or neither does; and it changes no count."""
    counts = _applied(held)
    before = counts.copy()
    changes = result_changes(taken, -1)
    try:
        counts.check(*changes, removing=True, where="remove")
    except ValueError as refused:
        checked: str | None = str(refused)
    else:
        checked = None
    _same(counts, before)
    if checked is None:
        counts.apply(*changes, removing=True, where="remove")  # accepted: it must not raise
    else:
        with pytest.raises(ValueError) as refused:
            counts.apply(*changes, removing=True, where="remove")
        assert str(refused.value) == checked
        _same(counts, before)


def test_removal_forgets_undeclared_categories_and_their_codes():
    counts = Counts(["x"])
    counts.apply(*pair_changes({("w", "x"): 1}), new=["w"])
    assert list(counts.a) == ["x", "w"]
    assert counts.ids == {"x": 0, "w": 1}
    counts.apply(*_negated(pair_changes({("w", "x"): 1})), removing=True)
    assert list(counts.a) == ["x"]
    assert counts.ids == {"x": 0}
    assert counts.pairs.to_dict() == {}


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30), st.booleans()), max_size=60))
def test_codes_stay_consistent_through_forgetting_and_renumbering(steps):
    counts = Counts()
    present: list[tuple[int, int]] = []
    for truth, chosen, remove in steps:
        if remove and present:
            pair = present.pop((truth * 31 + chosen) % len(present))
            counts.apply(*_negated(pair_changes({pair: 1})), removing=True)
        else:
            counts.apply(*pair_changes({(truth, chosen): 1}), new=[truth, chosen])
            present.append((truth, chosen))
        assert set(counts.ids) == set(counts.a)
        assert all(counts.names[code] == label for label, code in counts.ids.items())
        assert counts.holes * 2 <= len(counts.names)
        assert len(counts.names) - counts.holes == len(counts.ids)
        expected: dict[tuple[int, int], int] = {}
        for pair in present:
            expected[pair] = expected.get(pair, 0) + 1
        assert counts.label_pairs() == expected


def test_a_finer_unit_rescales_every_count_and_back_when_refused():
    counts = _applied([(frozenset("x"), frozenset("x"))])
    counts.apply(*[dict.fromkeys(part, 1) for part in pair_changes({("y", "y"): 1})], scale=2)
    assert counts.scale == 2
    assert counts.a == {"x": 4, "y": 1, "z": 0}
    assert counts.n == 5
    assert counts.exponent() == 2
    with pytest.raises(ValueError):
        counts.apply({}, {}, {}, {(1, 1, 1): -1}, {("z", "z"): -1}, removing=True, scale=5)
    assert counts.scale == 2
    assert counts.n == 5


def test_copies_are_independent():
    counts = _applied([(frozenset("x"), frozenset("y"))])
    counts.running("f1", "f1", 0.0).mean()
    other = counts.copy()
    other.apply(*pair_changes({("x", "x"): 1}))
    assert counts.n == 1
    assert other.n == 2
    assert counts.label_pairs() == {("y", "x"): 1}
    assert counts.running("f1", "f1", 0.0).mean() != other.running("f1", "f1", 0.0).mean()


class _Colour(enum.Enum):
    RED = 1
    BLUE = 2


@dataclass(frozen=True)
class _Code:
    value: int


_KINDS = {
    "int": [0, 1, 2],
    "numpy int64": list(np.arange(3, dtype=np.int64)),
    "numpy str_": list(np.array(["x", "y", "z"])),
    "bool": [False, True, True],
    "float": [0.5, 1.5, 2.5],
    "enum": [_Colour.RED, _Colour.BLUE, _Colour.RED],
    "frozen dataclass": [_Code(1), _Code(2), _Code(3)],
    "bytes": [b"x", b"y", b"z"],
}


@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_every_single_label_type_takes_the_fast_path(kind, monkeypatch):
    labels = _KINDS[kind]
    stream = [(labels[i % 3], labels[(i * 7 + 1) % 3]) for i in range(12)]
    fast = Contingency(list(dict.fromkeys(labels)))
    fast.add_result(labels[0], labels[0])  # (the first meeting of a type learns it)
    fast.remove_result(labels[0], labels[0])

    def general_path(*args: object, **kwargs: object) -> None:
        raise AssertionError("the general path")

    with monkeypatch.context() as patch:
        patch.setattr(Contingency, "_single", general_path)
        for assigned, correct in stream:
            fast.add_result(assigned, correct)
    loop = Contingency(list(dict.fromkeys(labels)))
    for assigned, correct in stream:
        loop.add_result(assigned, correct, weight=1.0)  # the general path, result by result
    assert fast == loop
    assert fast.confusion_matrix().tolist() == loop.confusion_matrix().tolist()


def test_containers_are_several_labels_even_when_a_tuple_is_a_category():
    s = Contingency([("x", "y"), "x", "y"])
    s.add_result(("x", "y"), "x")  # a tuple side names the categories x and y
    s.add_result(("x", "y"), "x")
    s.add_result([("x", "y")], [("x", "y")])  # the tuple category itself, in a list
    assert s.category_stats()[("x", "y")]["a"] == 1
    assert s.category_stats()["x"]["a"] == 2
    assert s.category_stats()["y"]["b"] == 2


def test_a_label_new_to_an_open_set_on_both_sides_joins_once():
    s = Contingency()
    s.add_result("x", "x")
    s.add_result(7, 7)
    counts = s._counts
    assert counts.names == ["x", 7]
    assert counts.ids == {"x": 0, 7: 1}
    assert s.confusion_matrix().tolist() == [[1, 0], [0, 1]]


def test_a_new_label_is_a_category_as_soon_as_its_result_is_added():
    s = Contingency(unknown="add")
    s.add_result("x", "x")
    s.add_result("x", "y")  # x assigned, y correct
    assert list(s._counts.a) == ["x", "y"]
    s.add_result("z", "y")
    counts = s._counts
    assert counts.names == ["x", "y", "z"]
    assert counts.ids == {"x": 0, "y": 1, "z": 2}
    expected = Counts()
    expected.apply(*pair_changes({("x", "x"): 1, ("y", "x"): 1, ("y", "z"): 1}),
                   new=["x", "y", "z"])
    _same(counts, expected)


_LISTS = st.lists(st.sampled_from(_LABELS), max_size=4)  # duplicates and empty rows too


@given(st.lists(st.tuples(_LISTS, _LISTS, st.integers(0, 3)), max_size=25), st.booleans(),
       st.sampled_from([list, tuple, set, frozenset]))
def test_rows_of_label_lists_counted_with_numpy_equal_the_loop(rows, weighted, container):
    """Batches of label lists naming categories only take label_list_changes (numpy); they
    give the state of the add_result loop, weighted or not, and remove back to empty."""
    assigned = [container(x) for x, _, _ in rows]
    correct = [container(y) for _, y, _ in rows]
    weights = [w for _, _, w in rows] if weighted else None
    loop = Contingency(_LABELS)
    for x, y, w in rows:
        loop.add_result(container(x), container(y), weight=w if weighted else 1)
    batch = Contingency(_LABELS).add_results(assigned, correct, weights=weights)
    assert batch == loop
    assert batch.to_dict() == loop.to_dict()
    batch.remove_results(assigned, correct, weights=weights)
    assert batch == Contingency(_LABELS)


def test_rows_of_label_lists_take_numpy_only_when_every_label_is_a_category():
    names, ids = ["x", "y"], {"x": 0, "y": 1}
    from contingency._changes import label_list_changes
    assert label_list_changes([["x"], ["y", "x"]], [["y"], []], ids, names) is not None
    assert label_list_changes([["x"], ["q"]], [["y"], []], ids, names) is None  # q is new
    assert label_list_changes([["x"], "y"], [["y"], []], ids, names) is None  # a single label
    assert label_list_changes([[["x"]]], [["y"]], ids, names) is None  # unhashable


def test_a_large_batch_queues_its_pairs_and_removals_check_them():
    """A batch against 5,000 categories hands its pairs to the pair table as arrays, one key
    per result, merged later; a removal checks against them all the same."""
    labels = np.array([f"c{i}" for i in range(5000)])
    picks = np.random.default_rng(0).integers(0, 5000, (3000, 2))
    assigned, correct = labels[picks[:, 0]], labels[picks[:, 1]]
    s = Contingency(labels.tolist()).add_results(assigned, correct)
    if isinstance(s._counts.pairs, PairTable):  # (the reference's table; the kernel's is in C)
        assert s._counts.pairs._queue  # no Python object per pair yet
    present = set(zip(correct.tolist(), assigned.tolist()))
    # A pair never added whose categories hold the cells it would take back: only the pair
    # count can refuse it.
    truth, chosen = next((t, c) for t in correct.tolist() for c in assigned.tolist()
                         if t != c and (t, c) not in present)
    before = s.copy()
    with pytest.raises(ValueError, match=f"no single-label result with '{chosen}' assigned and "
                                         f"'{truth}' correct was added"):
        s.remove_result(chosen, truth)
    assert s == before
    s.remove_result(assigned[0], correct[0])
    assert s == Contingency(labels.tolist()).add_results(assigned[1:], correct[1:])


def test_pair_counts_in_a_fine_unit_are_exact_past_int64():
    s = Contingency()
    for _ in range(3):
        s.add_result("x", "y")
    s.add_result("x", "x", weight=2**-100)  # every count in units of 2**-100
    assert s._counts.pairs.arrays()[1].dtype == object  # 3 * 2**100: Python ints
    assert s.confusion_matrix(["x", "y"]).tolist() == [[2**-100, 0], [3, 0]]
    s.remove_result("x", "x", weight=2**-100)
    assert s == Contingency().add_results(["x"] * 3, ["y"] * 3)
    assert s.to_dict() == Contingency().add_results(["x"] * 3, ["y"] * 3).to_dict()


def test_a_copy_keeps_its_micro_table_when_the_original_is_written() -> None:
    # a copy (and a pickle, through copy) must not share the micro table with the original.
    counts = Counts(_LABELS)
    counts.apply(*pair_changes({("x", "y"): 2}))
    copied = counts.copy()
    before = list(copied.micro)
    counts.apply(*pair_changes({("x", "x"): 1}))
    assert list(copied.micro) == before
    assert counts.micro != before


def test_a_string_label_new_to_an_open_set_is_taken_and_an_invalid_one_refused() -> None:
    # check_label's shortcut for str: a str is always a label; every other type is still checked.
    s = Contingency()
    s.add_result("a", "a")
    s.micro_f1  # noqa: B018  (a read: the next result is applied at once)
    s.add_result("b", "b")
    before = s.to_dict()
    with pytest.raises(ValueError, match="correct: NaN is not a valid label"):
        s.add_result("c", float("nan"))
    assert s.to_dict() == before
    assert s.categories == ("a", "b")
