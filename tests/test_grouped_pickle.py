"""GroupedContingency's pickle: every group's counts as one columnar state (contingency/_group_columns.py).

Random streams (single-label and multi-label results, new categories joining
some groups, removals that leave holes in a group's coding, fractional
weights that move a group's counts to the kernel's wide storage, counts near
int64's limit, declared empty groups, string, tuple and int group keys,
merges) are packed and unpacked by both implementations (the kernel's C loops
and the reference written in Python, each way round): both packings are the
same columns, and every group unpacked holds exactly what its core's restore
path makes of the group's ``core_state()``. A pickle round trip comes back
equal, reads the same scores, and goes on (more results, removals, merges)
as the original does. Pickles of the previous layout still load, and a pickle
written by one implementation loads in the other (tests/test_backend.py's
``run`` starts the reference in a fresh interpreter).
"""

from __future__ import annotations

import copy
import copyreg
import io
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from contingency import Contingency, GroupedContingency, _backend
from contingency._group_columns import (
    checked_columns,
    pack_groups,
    pack_groups_reference,
    unpack_groups,
    unpack_groups_reference,
)
from contingency.formulas._numeric import MAX_COUNT
from tests.test_kernel_counts import state_of_counts

ROOT = Path(__file__).parent.parent
LABELS = ["x", "y", "z", 1, True, 2.0]
GROUPS = ["a", "b", ("c", 1), 3, ("c", 2), "fresh"]
#: Whole weights (some past 2**32, which a kernel pair table holds in wide slots; one near the
#: count limit) and fractional ones (the kernel's wide storage: not in the columns).
WEIGHTS = [1, 1, 1, 2, 2**33, MAX_COUNT // 4, 0.5, 0.25]
#: Every implementation of the pair of routines (both are the reference without the kernel).
PACKS = {"kernel": pack_groups, "reference": pack_groups_reference}
UNPACKS = {"kernel": unpack_groups, "reference": unpack_groups_reference}

Step = tuple[Any, ...]
STEPS = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(LABELS), st.sampled_from(LABELS),
              st.sampled_from(GROUPS), st.sampled_from(WEIGHTS)),
    st.tuples(st.just("sets"), st.frozensets(st.sampled_from(LABELS), max_size=3),
              st.frozensets(st.sampled_from(LABELS), max_size=3), st.sampled_from(GROUPS)),
    st.tuples(st.just("batch"), st.lists(st.tuples(st.sampled_from(LABELS[:4]),
                                                   st.sampled_from(LABELS[:4]),
                                                   st.sampled_from(GROUPS)), max_size=8)),
    st.tuples(st.just("remove"), st.integers(0, 1000)),
    st.tuples(st.just("remove"), st.integers(0, 1000)),  # (twice as likely: holes)
    st.tuples(st.just("merge"), st.sampled_from(LABELS), st.sampled_from(LABELS),
              st.sampled_from(GROUPS)),
)
SETTINGS = st.tuples(st.sampled_from([["x", "y"], None]),
                     st.sampled_from([None, ["declared", ("d", 2), 7]]),
                     st.sampled_from(["perl", 0.0, "nan"]))


def fed(categories: Any, groups: Any, zero_division: Any, steps: list[Step]) -> GroupedContingency:
    """A GroupedContingency fed ``steps`` (refused ones change nothing and are skipped)."""
    accumulator = GroupedContingency(categories, groups=groups, unknown="add",
                                     zero_division=zero_division)
    feed(accumulator, steps)
    return accumulator


def feed(accumulator: GroupedContingency, steps: list[Step]) -> None:
    added: list[tuple[Any, Any, Any]] = []
    for step in steps:
        kind, *arguments = step
        try:
            if kind == "add":
                assigned, correct, group, weight = arguments
                accumulator.add_result(assigned, correct, group=group, weight=weight)
                if weight == 1:
                    added.append((assigned, correct, group))
            elif kind == "sets":
                assigned, correct, group = arguments
                accumulator.add_result(set(assigned), set(correct), group=group)
                added.append((set(assigned), set(correct), group))
            elif kind == "batch" and arguments[0]:
                assigned, correct, groups = (list(side) for side in zip(*arguments[0]))
                accumulator.add_results(assigned, correct, groups=groups)
                added.extend(arguments[0])
            elif kind == "remove" and added:
                assigned, correct, group = added.pop(arguments[0] % len(added))
                accumulator.remove_result(assigned, correct, group=group)
            elif kind == "merge":
                assigned, correct, group = arguments
                other = GroupedContingency(unknown="add", zero_division=accumulator._zero_division)
                other.add_result(assigned, correct, group=group)
                accumulator.merge(other)
        except (ValueError, TypeError, OverflowError):  # (past the count limit: refused)
            pass


def group_state(accumulator: Contingency) -> dict[str, Any]:
    """Everything a group holds: its settings, its counts (the result shapes in their order),
    and, on the kernel, its pair table's layout."""
    counts = accumulator._counts
    found = {"class": (type(accumulator), type(counts)),
             "settings": (accumulator._unknown, accumulator._zero_division,
                          accumulator._verbose, counts.declared, counts.hold),
             "counts": state_of_counts(counts), "shapes": list(counts.shapes.items()),
             "running sums": (dict(counts.sums), counts.totals, counts.margins,
                              dict(counts.variances), counts.coupling)}
    pairs = counts.pairs
    if hasattr(pairs, "n_slots"):  # (the kernel's KernelPairs)
        found["pair table"] = (pairs.n_slots(), pairs.is_narrow(), list(pairs.items()))
    return found


def restored(accumulator: Contingency, template: Contingency) -> Contingency:
    """What the core's restore path makes of the group's counts: a copy of the empty accumulator
    holding ``core_restore(core_state())``."""
    made = template.copy()
    made._counts.core_restore(accumulator._counts.core_state())
    return made


def same_columns(first: dict[str, Any], second: dict[str, Any]) -> None:
    assert first.keys() == second.keys()
    for name, value in first.items():
        if isinstance(value, np.ndarray):
            assert value.dtype == second[name].dtype, name
            assert np.array_equal(value, second[name]), name
        elif name == "others":
            assert {position: id(group) for position, group in value.items()} == {
                position: id(group) for position, group in second[name].items()}
        elif name == "codings":
            assert [[repr(label) for label in names] for names in value] == [
                [repr(label) for label in names] for names in second[name]]
        else:
            assert value == second[name], name


def reads(accumulator: GroupedContingency) -> list[str]:
    """Scores by group, over all and their disparities (as text: NaN equals NaN)."""
    found: list[Any] = []
    for call in (lambda: accumulator.by_group("macro_f1"),
                 lambda: accumulator.by_group("samples_f1"),
                 lambda: accumulator.by_group("weighted_recall"),
                 lambda: accumulator.by_group(("recall", "x")),
                 lambda: accumulator.difference("micro_f1"),
                 lambda: accumulator.ratio("macro_precision", "to_overall"),
                 lambda: accumulator.overall.macro_f1,
                 lambda: accumulator.to_dict()):
        try:
            found.append(call())
        except (ValueError, KeyError) as error:
            found.append((type(error).__name__, str(error)))
    return [repr(value) for value in found]


def check_round_trips(accumulator: GroupedContingency, more: list[Step]) -> dict[str, Any]:
    """Both packings equal; every unpacking exact; a pickle comes back equal and goes on alike.
    Returns the columns."""
    accumulator._in_order()
    groups, template = list(accumulator._groups.values()), accumulator._template()
    packed = {name: pack(groups, template) for name, pack in PACKS.items()}
    same_columns(packed["kernel"], packed["reference"])
    wide = {position for position, group in enumerate(groups) if group._counts.scale}
    assert set(packed["kernel"]["others"]) == wide  # (the rest in the columns)
    expected = [group_state(restored(group, template)) if position not in wide
                else group_state(group) for position, group in enumerate(groups)]
    for columns in packed.values():
        for unpack in UNPACKS.values():
            made = unpack(columns, template)
            assert [group_state(group) for group in made] == expected
            assert all(made[position] is groups[position] for position in wide)
    loaded = pickle.loads(pickle.dumps(accumulator))
    assert loaded == accumulator
    assert reads(loaded) == reads(accumulator)
    twin = accumulator.copy()
    for going_on in (loaded, twin):
        feed(going_on, more)
    assert loaded == twin
    assert reads(loaded) == reads(twin)
    assert pickle.loads(pickle.dumps(loaded)) == twin
    return packed["kernel"]


@settings(max_examples=200, deadline=None)
@given(SETTINGS, st.lists(STEPS, max_size=40), st.lists(STEPS, max_size=8))
@example((None, None, "perl"), [("add", "x", "y", "a", 1), ("add", "z", "z", "a", 1),
                                ("remove", 1), ("add", "x", "x", 3, 0.5)],
         [("add", "y", "z", "a", 1)])
@example((["x", "y"], ["declared", ("d", 2), 7], 0.0),
         [("add", "x", "x", "a", MAX_COUNT // 4), ("add", "y", "x", "a", MAX_COUNT // 4),
          ("sets", frozenset({"x", "y", "z"}), frozenset({"x"}), ("c", 1))],
         [("merge", "x", "z", 7)])
def test_random_streams_round_trip(options: tuple[Any, Any, Any], steps: list[Step],
                                   more: list[Step]) -> None:
    columns = checked_columns(check_round_trips(fed(*options, steps), more))
    for kind, seen in (("a wide group", columns.others), ("holes", columns.holes.any()),
                       ("a multi-label result", any(shape not in ([1, 1, 1], [0, 1, 1]) for shape
                                                    in columns.shapes.reshape(-1, 3).tolist())),
                       ("a micro cell past 2**63", columns.micro_high.any()),
                       ("several codings", len(columns.codings) > 1)):
        event(kind if seen else f"no {kind}")


def test_holes_new_categories_and_wide_groups_in_one_state() -> None:
    """Every kind of group at once: the columns hold the whole ones, ``others`` the wide one."""
    accumulator = GroupedContingency(groups=["empty", ("t", 1)], unknown="add")
    for label in ("p", "q", "r", "s", "t"):
        accumulator.add_result(label, "p", group="holes")
    for label in ("q", "r"):
        accumulator.remove_result(label, "p", group="holes")  # (q and r forgotten: holes)
    accumulator.add_result({"p", "q"}, {"q"}, group=("t", 1))
    accumulator.add_result("p", "p", group=17, weight=0.5)
    accumulator.add_result("p", "q", group=18, weight=2**40)
    accumulator.add_results(["p", "q", "new"], ["p", "p", "new"], groups=[19, 19, 20])
    accumulator._in_order()
    columns = accumulator.__getstate__()["columns"]
    keys = list(accumulator._groups)
    assert [keys[position] for position in columns["others"]] == [17]
    holes = dict(zip([key for key in keys if key != 17], checked_columns(columns).holes.tolist()))
    assert holes["holes"] == 2
    check_round_trips(accumulator, [("add", "z", "p", "holes", 1), ("remove", 0),
                                    ("add", "p", "p", "empty", 1)])


def test_groups_of_one_coding_share_it_and_part_on_a_change() -> None:
    """The groups a batch made share their coding in the columns (one list, on the kernel, whose
    copies share it; the reference's groups each hold their own); once loaded they share it
    again until a category joins one of them, which leaves the others unchanged."""
    accumulator = GroupedContingency(["x", "y"], unknown="add").add_results(
        ["x", "y", "x"], ["x", "x", "y"], groups=["a", "b", "c"])
    columns = accumulator.__getstate__()["columns"]
    held = {id(group._counts.names) for group in accumulator._groups.values()}
    assert len(columns["codings"]) == len(held)  # one list per coding the groups hold
    if _backend.IMPLEMENTATION == "kernel":
        assert len(held) == 1
        assert checked_columns(columns).coding.tolist() == [0, 0, 0]
    else:
        assert checked_columns(columns).coding.tolist() == [0, 1, 2]
    loaded = pickle.loads(pickle.dumps(accumulator))
    loaded.add_result("new", "x", group="a")
    accumulator.add_result("new", "x", group="a")
    assert loaded == accumulator
    assert loaded._groups["a"].categories == ("x", "y", "new")
    assert loaded._groups["b"].categories == loaded._groups["c"].categories == ("x", "y")


def test_counts_near_the_limit() -> None:
    """A micro table past int64 (its high words kept) and pair counts past 2**32 (the kernel's
    wide slots) come back exact."""
    accumulator = GroupedContingency(["p", "q", "r", "s", "t", "u"])  # (d near 4 n: past 2**64)
    accumulator.add_result("p", "q", group="big", weight=MAX_COUNT - 10)
    accumulator.add_result("r", "r", group="big", weight=3)
    accumulator.add_result("p", "p", group=("small", 1))
    columns = accumulator.__getstate__()["columns"]
    assert not columns["others"]
    assert columns["wide_micro"]
    assert np.dtype(columns["counts"][0]) == np.int64
    assert int(checked_columns(columns).pair_counts.max()) == MAX_COUNT - 10
    check_round_trips(accumulator, [("add", "p", "p", "big", 1), ("add", "s", "p", "big", 7),
                                    ("remove", 0), ("add", "q", "q", ("small", 1), 1)])


def test_declared_empty_groups_and_no_group() -> None:
    for accumulator in (GroupedContingency(), GroupedContingency(["x"], groups=["a", ("b", 2), 3])):
        loaded = pickle.loads(pickle.dumps(accumulator))
        assert loaded == accumulator
        assert loaded.groups == accumulator.groups
        assert reads(loaded) == reads(accumulator)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_protocol_and_copies(protocol: int) -> None:
    accumulator = fed(None, ["declared"], "perl", SAMPLES[0][1] + [("add", "x", "x", 3, 0.5)])
    assert pickle.loads(pickle.dumps(accumulator, protocol=protocol)) == accumulator
    assert copy.deepcopy(accumulator) == copy.copy(accumulator) == accumulator


def test_thread_safe_instances_pickle_alike() -> None:
    accumulator = GroupedContingency(thread_safe=True).add_results(
        ["x", "y"], ["x", "x"], groups=["a", "b"])
    loaded = pickle.loads(pickle.dumps(accumulator))
    assert loaded.thread_safe
    assert loaded == accumulator


def old_layout(accumulator: GroupedContingency) -> bytes:
    """``accumulator`` pickled as the previous version wrote it: ``copyreg.__newobj__`` of the
    class, then a state whose ``groups`` are ``{key: Contingency}``."""

    class Previous(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if type(obj) is not GroupedContingency:
                return NotImplemented
            obj._in_order()
            return copyreg.__newobj__, (GroupedContingency,), {
                "settings": obj._settings(), "overall": obj._overall, "groups": dict(obj._groups)}

    written = io.BytesIO()
    Previous(written).dump(accumulator)
    return written.getvalue()


def test_pickles_of_the_previous_layout_load() -> None:
    accumulator = fed(None, ["declared"], "perl", [
        ("add", "x", "y", "a", 1), ("add", "z", "z", ("c", 1), 1), ("add", "x", "x", 3, 0.5),
        ("sets", frozenset({"x", "y"}), frozenset({"y"}), "a")])
    data = old_layout(accumulator)
    assert b"columns" not in data
    loaded = pickle.loads(data)
    assert type(loaded) is GroupedContingency
    assert loaded == accumulator
    assert reads(loaded) == reads(accumulator)
    assert pickle.loads(pickle.dumps(loaded)) == accumulator  # (and now in columns)


def test_a_state_no_packing_made_is_refused() -> None:
    accumulator = GroupedContingency(["x", "y"]).add_results(["x", "y"], ["x", "x"],
                                                             groups=["a", "b"])
    template = accumulator._template()
    columns = pack_groups(list(accumulator._groups.values()), template)
    def array(state: dict[str, Any], name: str) -> NDArray[Any]:
        code, data = state[name]
        return np.frombuffer(data, dtype=code)

    def written(values: NDArray[Any]) -> tuple[str, bytes]:
        return values.dtype.str, values.tobytes()

    broken: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("counts", lambda state: state.update(counts=written(array(state, "counts")[:-1]))),
        ("structure", lambda state: state.update(structure=written(array(state, "structure")[1:]))),
        ("coding", lambda state: state.update(structure=written(array(state, "structure") + 5))),
        ("pairs", lambda state: state.update(pairs=state["pairs"] + 1)),
        ("size", lambda state: state.update(size=3)),
        ("laid", lambda state: state.update(laid=1)),
        ("wide micro", lambda state: state.update(wide_micro=True)),
        ("floats", lambda state: state.update(counts=written(array(state, "counts") * 1.0))),
        ("an ndarray", lambda state: state.update(counts=array(state, "counts"))),
        ("odd bytes", lambda state: state.update(counts=("<i8", b"1234567"))),
        ("bytearray", lambda state: state.update(counts=("<i8", bytearray(8)))),
        ("a type", lambda state: state.update(structure=("no such type", b""))),
    ]
    for name, breaking in broken:
        state = dict(columns)
        breaking(state)
        for unpack in UNPACKS.values():
            with pytest.raises(ValueError, match="pickled GroupedContingency"):
                unpack(state, template)
        assert name
    with pytest.raises(ValueError, match="names 1 groups and holds the counts of 2"):
        object.__new__(GroupedContingency).__setstate__(
            {**accumulator.__getstate__(), "keys": ["a"]})
    assert checked_columns(columns).size == 2


def test_columns_of_either_byte_order_load() -> None:
    """The columns are pickled as a type and bytes: a state written on a machine of the other
    byte order (its types say which) loads equal on this one, by either unpacking."""
    accumulator = GroupedContingency(["x", "y"]).add_results(
        ["x", "y", "y"], ["x", "x", "y"], groups=["a", "b", "a"], weights=[1, 300, 70000])
    template = accumulator._template()
    columns = pack_groups(list(accumulator._groups.values()), template)
    swapped = dict(columns)
    for name in ("structure", "counts"):
        code, data = columns[name]
        values = np.frombuffer(data, dtype=code)
        other = values.astype(values.dtype.newbyteorder("S"))
        assert other.dtype.str != code or values.dtype.itemsize == 1
        swapped[name] = (other.dtype.str, other.tobytes())
    for unpack in UNPACKS.values():
        assert [group_state(group) for group in unpack(swapped, template)] == [
            group_state(group) for group in unpack(columns, template)]


def test_the_kernel_pair_is_installed_with_the_kernel() -> None:
    compiled = _backend.IMPLEMENTATION == "kernel"
    assert (pack_groups is not pack_groups_reference) == compiled
    assert (unpack_groups is not unpack_groups_reference) == compiled


#: Run in a fresh interpreter on the implementation the parent did not use: load the parent's
#: pickles, check them against their documents, and pickle them again for the parent.
_OTHER_SIDE = """
import pickle, sys
from contingency import _backend
from tests.test_grouped_pickle import check_round_trips, fed, random_stream, SAMPLES
given = pickle.load(sys.stdin.buffer)
found = []
for data, document in given:
    loaded = pickle.loads(data)
    assert loaded.to_dict() == document
    found.append(pickle.dumps(loaded))
for options, steps in SAMPLES:  # the round trips on this side's implementation
    check_round_trips(fed(*options, steps), steps[:3])
for seed in range(30):  # and random streams
    options, steps, more = random_stream(seed)
    check_round_trips(fed(*options, steps), more)
pickle.dump((_backend.IMPLEMENTATION, found), sys.stdout.buffer)
"""

def random_stream(seed: int) -> tuple[tuple[Any, Any, Any], list[Step], list[Step]]:
    """Settings, a stream and more steps drawn by ``seed`` from the property test's choices (for
    the other implementation's process, which runs no hypothesis test)."""
    rng = np.random.default_rng(seed)

    def pick(values: list[Any]) -> Any:
        return values[int(rng.integers(len(values)))]

    def step() -> Step:
        kind = pick(["add", "add", "sets", "batch", "remove", "remove", "merge"])
        if kind == "add":
            return ("add", pick(LABELS), pick(LABELS), pick(GROUPS), pick(WEIGHTS))
        if kind == "sets":
            return ("sets", frozenset(pick(LABELS) for _ in range(int(rng.integers(4)))),
                    frozenset(pick(LABELS) for _ in range(int(rng.integers(4)))), pick(GROUPS))
        if kind == "batch":
            return ("batch", [(pick(LABELS[:4]), pick(LABELS[:4]), pick(GROUPS))
                              for _ in range(int(rng.integers(9)))])
        if kind == "remove":
            return ("remove", int(rng.integers(1000)))
        return ("merge", pick(LABELS), pick(LABELS), pick(GROUPS))

    options = (pick([["x", "y"], None]), pick([None, ["declared", ("d", 2), 7]]),
               pick(["perl", 0.0, "nan"]))
    return (options, [step() for _ in range(int(rng.integers(41)))],
            [step() for _ in range(int(rng.integers(9)))])


#: Streams whose pickles cross from one implementation to the other.
SAMPLES: list[tuple[tuple[Any, Any, Any], list[Step]]] = [
    ((None, None, "perl"), [("add", "x", "y", "a", 1), ("add", "z", "z", ("c", 1), 1),
                            ("remove", 0), ("add", "q", "q", 3, 1)]),
    ((["x", "y"], ["declared", ("d", 2)], 0.0),
     [("add", "x", "x", "a", 0.25), ("sets", frozenset({"x", "y"}), frozenset({"y"}), "b"),
      ("add", "y", "x", 3, MAX_COUNT - 1), ("batch", [("x", "y", "a"), ("z", "z", "b")])]),
]


@pytest.mark.skipif(_backend.IMPLEMENTATION != "kernel",
                    reason="the kernel is not this process's implementation")
def test_pickles_cross_between_the_kernel_and_the_reference() -> None:
    """A pickle the kernel wrote loads with the reference, and back (as a Contingency's does)."""
    accumulators = [fed(*options, steps) for options, steps in SAMPLES]
    given = [(pickle.dumps(accumulator), accumulator.to_dict()) for accumulator in accumulators]
    given += [(old_layout(accumulator), accumulator.to_dict()) for accumulator in accumulators]
    result = subprocess.run([sys.executable, "-c", _OTHER_SIDE], input=pickle.dumps(given),
                            capture_output=True, cwd=ROOT, check=False,
                            env=_reference_environment())
    assert result.returncode == 0, result.stderr.decode()
    implementation, found = pickle.loads(result.stdout)
    assert implementation == "reference"
    for data, accumulator in zip(found, accumulators * 2):
        assert pickle.loads(data) == accumulator


def _reference_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env[_backend.PURE_PYTHON_VARIABLE] = "1"
    return env
