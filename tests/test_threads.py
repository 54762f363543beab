"""Threads: ``thread_safe=True`` makes every public call atomic; the default class carries no lock.

The counting tests run 8 threads with a switch interval of a microsecond, so
that the interpreter (or, on a free-threaded build, the machine) interleaves
them inside the write path; with the option the counts come out exact and
every read in between sees a consistent state. What sharing an accumulator
without the option does is shown by forced interleavings, not by chance: a
writer is paused inside a call (in a label's ``__hash__``) while another call
runs, which leaves an unlocked accumulator corrupted, and a locked one equal
to the two calls made in turn.
"""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import random
import sys
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from contingency import (
    Contingency,
    GroupedContingency,
    MulticlassThresholdContingency,
    PairedComparison,
    PartitionComparison,
    ThresholdContingency,
)
from contingency._locking import is_locked
from contingency._table_reference import ReferenceTable

THREADS = 8
ROUNDS = 150
CATEGORIES = ["a", "b", "c", "d", "e"]
HANG = 120  # seconds a thread may take before the test calls it a deadlock


@contextmanager
def switching_often() -> Iterator[None]:
    """Make the interpreter switch threads every microsecond, and restore the interval after."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def run_threads(work: Callable[[int], None], count: int = THREADS) -> None:
    """Run ``work(i)`` in ``count`` threads started together; re-raise the first error any met."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def body(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as problem:  # reported in the main thread
            errors.append(problem)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    with switching_often():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(HANG)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck (deadlock?)"
    if errors:
        raise errors[0]


def apply(accumulator: Any, operations: list[tuple[str, Any]]) -> None:
    for method, arguments in operations:
        getattr(accumulator, method)(*arguments)


def run_plans(shared: Any, plans: list[list[tuple[str, Any]]], check: Callable[[Any], None]) -> None:
    """Thread ``i`` makes the calls of ``plans[i]`` on ``shared``, checking a read every 5 calls."""

    def work(i: int) -> None:
        for step, (method, arguments) in enumerate(plans[i]):
            getattr(shared, method)(*arguments)
            if step % 5 == i % 5:
                check(shared)

    run_threads(work)


# Contingency ------------------------------------------------------------------------------------

def contingency_operations(seed: int) -> list[tuple[str, Any]]:
    """One thread's calls: single and multi-label results, batches, removals of its own results."""
    rng = random.Random(seed)
    operations: list[tuple[str, Any]] = []
    added: list[tuple[Any, Any]] = []
    for _ in range(ROUNDS):
        kind = rng.randrange(5)
        if kind == 0:
            result = (rng.choice(CATEGORIES), rng.choice(CATEGORIES))
            operations.append(("add_result", result))
            added.append(result)
        elif kind == 1:
            result = (set(rng.sample(CATEGORIES, rng.randint(0, 3))),
                      set(rng.sample(CATEGORIES, rng.randint(1, 3))))
            operations.append(("add_result", result))
            added.append(result)
        elif kind == 2:
            size = rng.randint(1, 6)
            batch = ([rng.choice(CATEGORIES) for _ in range(size)],
                     [rng.choice(CATEGORIES) for _ in range(size)])
            operations.append(("add_results", (np.array(batch[0]), np.array(batch[1]))))
        elif kind == 3:
            batch = ([rng.sample(CATEGORIES, 2), rng.choice(CATEGORIES)],
                     [rng.choice(CATEGORIES), rng.sample(CATEGORIES, 2)])
            operations.append(("add_results", batch))
        elif added:
            operations.append(("remove_result", added.pop(rng.randrange(len(added)))))
    return operations




def check_contingency_read(shared: Contingency) -> None:
    """Each call in between writes sees one state (two calls may see two states).

    A copy is one call: its micro table covers K x n decisions exactly, and so
    does the state ``to_dict`` wrote, which ``from_dict`` loads.
    """
    assert 0.0 <= shared.macro_f1 <= 1.0
    snapshot = shared.copy()
    assert sum(snapshot.micro_table) == len(CATEGORIES) * snapshot.n_results
    state = shared.to_dict()
    loaded = Contingency.from_dict(state)
    assert sum(loaded.micro_table) == len(CATEGORIES) * loaded.n_results
    assert loaded.to_dict() == state


def test_contingency_counts_exactly_with_eight_threads() -> None:
    plans = [contingency_operations(seed) for seed in range(THREADS)]
    shared = Contingency(CATEGORIES, thread_safe=True)
    run_plans(shared, plans, check_contingency_read)
    expected = Contingency(CATEGORIES)
    for plan in plans:
        apply(expected, plan)
    assert shared == expected
    assert shared.to_dict() == expected.to_dict()
    assert Contingency.from_dict(shared.to_dict()) == expected




# PartitionComparison ----------------------------------------------------------------------------

def partition_operations(seed: int) -> list[tuple[str, Any]]:
    """One thread's calls: single adds, weighted batches, removals of its own elements."""
    rng = random.Random(seed)
    operations: list[tuple[str, Any]] = []
    added: list[tuple[Any, Any]] = []
    for _ in range(ROUNDS):
        kind = rng.randrange(4)
        if kind == 0:
            element = (rng.choice(CATEGORIES), rng.randrange(4))
            operations.append(("add", element))
            added.append(element)
        elif kind == 1:
            size = rng.randint(1, 6)
            operations.append(("add_many", ([rng.choice(CATEGORIES) for _ in range(size)],
                                            [rng.randrange(4) for _ in range(size)],
                                            [rng.randint(1, 3) for _ in range(size)])))
        elif kind == 2:
            size = rng.randint(1, 6)
            operations.append(("add_many", (np.array([rng.randrange(3) for _ in range(size)]),
                                            np.array([rng.randrange(4) for _ in range(size)]))))
        elif added:
            reference, model = added.pop(rng.randrange(len(added)))
            if rng.random() < 0.5:
                operations.append(("remove", (reference, model)))
            else:
                operations.append(("remove_many", ([reference], [model])))
    return operations


def check_partition_read(shared: PartitionComparison) -> None:
    """Each call in between writes sees one state: a copy's running sums match its table."""
    assert -0.5 <= shared.adjusted_rand_index <= 1.0
    snapshot = shared.copy()
    sums = snapshot.table_sums()
    _, _, table = snapshot.contingency_table()
    assert int(table.sum()) == snapshot.n_elements == sums.n_elements
    assert sums.same_same == int((table * (table - 1) // 2).sum())
    state = shared.to_dict()
    assert PartitionComparison.from_dict(state).to_dict() == state


def test_partition_counts_exactly_with_eight_threads() -> None:
    plans = [partition_operations(seed) for seed in range(THREADS)]
    shared = PartitionComparison(thread_safe=True)
    run_plans(shared, plans, check_partition_read)
    expected = PartitionComparison()
    for plan in plans:
        apply(expected, plan)
    assert shared == expected
    assert shared.table_sums() == expected.table_sums()
    assert PartitionComparison.from_dict(shared.to_dict()) == expected


PAIRS = [
    pytest.param(lambda: (Contingency(CATEGORIES, thread_safe=True).add_results(["a"], ["c"]),
                          Contingency(CATEGORIES, thread_safe=True)), id="Contingency"),
    pytest.param(lambda: (PartitionComparison.from_labels(["a", "b"], [1, 1], thread_safe=True),
                          PartitionComparison(thread_safe=True)), id="PartitionComparison"),
]


@pytest.mark.parametrize("make", PAIRS)
def test_two_sided_calls_in_opposite_orders_do_not_deadlock(make: Callable[[], Any]) -> None:
    """``a == b``, ``a + b`` and ``b.merge(a)`` in some threads, the mirror in others: both locks."""
    full, empty = make()
    reference = full.copy()

    def work(i: int) -> None:
        mine, other = (full, empty) if i % 2 else (empty, full)
        for _ in range(ROUNDS):
            assert mine != other
            assert mine + other == reference
            mine.merge(empty)  # adds nothing, holds both locks when mine is full

    run_threads(work)
    assert full == reference


# The option's contract ----------------------------------------------------------------------------

ACCUMULATORS = [
    pytest.param(lambda ts: Contingency(["x", "y"], thread_safe=ts).add_results(["x", "y"], ["x", "x"]),
                 id="Contingency"),
    pytest.param(lambda ts: PartitionComparison.from_labels(["x", "y"], [1, 1], thread_safe=ts),
                 id="PartitionComparison"),
    pytest.param(lambda ts: _scored(ThresholdContingency(thread_safe=ts)),
                 id="ThresholdContingency"),
    pytest.param(lambda ts: _rows(MulticlassThresholdContingency(["a", "b", "c"], thread_safe=ts)),
                 id="MulticlassThresholdContingency"),
]


def _rows(curves: MulticlassThresholdContingency) -> MulticlassThresholdContingency:
    curves.add_results([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], ["b", "c"])
    return curves


def _scored(curve: ThresholdContingency) -> ThresholdContingency:
    curve.add_results([0.2, 0.7, 0.7], [0, 1, 0])
    return curve


@pytest.mark.parametrize("make", ACCUMULATORS)
def test_locked_instance_is_the_class_in_every_visible_way(make: Callable[[bool], Any]) -> None:
    plain, locked = make(False), make(True)
    base = type(plain)
    assert isinstance(locked, base)
    assert type(locked).__name__ == base.__name__
    assert (plain.thread_safe, locked.thread_safe) == (False, True)
    assert locked == plain
    assert plain == locked
    assert repr(locked) == repr(plain)[:-1] + ", thread_safe=True)"
    assert locked.to_dict() == plain.to_dict()


@pytest.mark.parametrize("make", ACCUMULATORS)
def test_copies_sums_and_pickles_keep_the_option_with_a_new_lock(make: Callable[[bool], Any]) -> None:
    locked = make(True)
    for twin in (locked.copy(), locked + make(False), copy.deepcopy(locked),
                 pickle.loads(pickle.dumps(locked))):
        assert twin.thread_safe
        assert twin._lock is not locked._lock
        assert twin == locked or twin == locked + make(False)
    plain = make(False)
    assert not plain.copy().thread_safe
    assert not pickle.loads(pickle.dumps(plain)).thread_safe
    # A pickle of a locked accumulator names the public class and the rebuilding function.
    assert type(locked).__name__.encode() in pickle.dumps(locked)
    assert pickle.loads(pickle.dumps(locked)) == plain


def test_constructors_take_the_option() -> None:
    state = Contingency(["x"]).add_results(["x"], ["x"]).to_dict()
    assert Contingency.from_dict(state, thread_safe=True).thread_safe
    assert not Contingency.from_dict(state).thread_safe
    assert Contingency.from_labels(["x"], ["y"], thread_safe=True).thread_safe
    partition = PartitionComparison.from_labels([1, 2], [1, 1])
    assert PartitionComparison.from_dict(partition.to_dict(), thread_safe=True).thread_safe
    assert PartitionComparison.from_partitions([[1], [2]], [[1, 2]], thread_safe=True).thread_safe
    assert PartitionComparison.from_labels([1], [1], thread_safe=True).thread_safe


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison, ThresholdContingency])
def test_option_must_be_a_bool(cls: type) -> None:
    with pytest.raises(TypeError, match="thread_safe must be True or False, not 'yes'"):
        cls(thread_safe="yes")


#: Every constructor that takes ``thread_safe=``: the classes and their from_* constructors.
CONSTRUCTORS = {
    "Contingency": lambda ts: Contingency(thread_safe=ts),
    "Contingency.from_labels": lambda ts: Contingency.from_labels(["x"], ["y"], thread_safe=ts),
    "Contingency.from_dict": lambda ts: Contingency.from_dict(Contingency().to_dict(),
                                                              thread_safe=ts),
    "GroupedContingency": lambda ts: GroupedContingency(thread_safe=ts),
    "GroupedContingency.from_dict": lambda ts: GroupedContingency.from_dict(
        GroupedContingency().to_dict(), thread_safe=ts),
    "PairedComparison": lambda ts: PairedComparison(thread_safe=ts),
    "PairedComparison.from_dict": lambda ts: PairedComparison.from_dict(
        PairedComparison().to_dict(), thread_safe=ts),
    "PartitionComparison": lambda ts: PartitionComparison(thread_safe=ts),
    "PartitionComparison.from_labels": lambda ts: PartitionComparison.from_labels(
        [1], [1], thread_safe=ts),
    "PartitionComparison.from_partitions": lambda ts: PartitionComparison.from_partitions(
        [[1]], [[1]], thread_safe=ts),
    "PartitionComparison.from_dict": lambda ts: PartitionComparison.from_dict(
        PartitionComparison().to_dict(), thread_safe=ts),
    "ThresholdContingency": lambda ts: ThresholdContingency(thread_safe=ts),
    "ThresholdContingency.from_dict": lambda ts: ThresholdContingency.from_dict(
        ThresholdContingency().to_dict(), thread_safe=ts),
    "MulticlassThresholdContingency": lambda ts: MulticlassThresholdContingency(
        ["a", "b"], thread_safe=ts),
    "MulticlassThresholdContingency.from_dict": lambda ts: MulticlassThresholdContingency.from_dict(
        MulticlassThresholdContingency(["a", "b"]).to_dict(), thread_safe=ts),
}


@pytest.mark.parametrize("make", CONSTRUCTORS.values(), ids=CONSTRUCTORS.keys())
@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0, np.nan, np.array(True),
                                   np.array([True]), np.array([True, False])])
def test_every_constructor_refuses_an_option_that_is_not_a_flag_as_every_flag_is_refused(
        make: Callable[[object], Any], value: object) -> None:
    """``TypeError`` naming ``thread_safe`` and the value, the message of every flag option
    (:func:`check_flag`); the threshold accumulators' ``from_dict`` gave a ``ValueError`` about
    their state."""
    with pytest.raises(TypeError, match=r"^thread_safe must be True or False, not "):
        make(value)


@pytest.mark.parametrize("make", CONSTRUCTORS.values(), ids=CONSTRUCTORS.keys())
def test_every_constructor_takes_a_numpy_bool_as_the_flag_it_holds(
        make: Callable[[object], Any]) -> None:
    """As every other flag option does (``np.True_`` was refused)."""
    locked, plain = make(np.True_), make(np.False_)
    assert (locked.thread_safe, plain.thread_safe) == (True, False)
    assert type(locked) is type(make(True))
    assert type(plain) is type(make(False))
    assert locked == plain


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison, ThresholdContingency])
def test_every_public_method_and_property_of_the_locked_class_takes_the_lock(cls: type) -> None:
    """Whatever methods the class has (added later included), the locked class wraps each one."""
    locked = type(cls(thread_safe=True))
    assert is_locked(locked)
    assert not is_locked(cls)
    public = [name for name in dir(cls) if not name.startswith("_")]
    assert len(public) > 20
    for name in [*public, "__eq__", "__add__", "__iadd__", "__repr__", "__getstate__"]:
        mine = cls.__dict__.get(name, getattr(cls, name))
        if isinstance(mine, property):
            wrapper = locked.__dict__[name].fget
            assert wrapper is not mine.fget, name
            assert inspect.unwrap(wrapper) is mine.fget, name
        elif callable(mine) and not isinstance(mine, type) and getattr(mine, "__self__", None) is None:
            wrapper = locked.__dict__[name]
            assert wrapper is not mine, name
            assert inspect.unwrap(wrapper) is mine, name


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison, ThresholdContingency])
def test_default_class_carries_no_lock(cls: type) -> None:
    """The default pays nothing: its methods are the plain functions and it has no lock slot."""
    plain = cls()
    assert not hasattr(plain, "_lock")
    assert not hasattr(cls.__dict__.get("add_result", cls.__dict__.get("add")), "__wrapped__")


def test_lock_is_reentrant_and_held_during_calls() -> None:
    """A label's __eq__ runs inside add_result: it sees the lock held by this very thread."""
    shared = Contingency(thread_safe=True)
    seen: list[bool] = []

    class Label(str):
        def __eq__(self, other: object) -> bool:
            seen.append(shared._lock._is_owned())
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    shared.add_result(Label("x"), "x")
    shared.add_result(Label("x"), Label("x"))
    assert shared.n_results == 2
    assert seen
    assert all(seen)
    assert not shared._lock._is_owned()


def test_merge_holds_the_other_side_s_lock_too() -> None:
    """While ``target.merge(source)`` runs, ``source`` is locked: its labels' hash sees it."""
    source = Contingency(thread_safe=True)
    target = Contingency(thread_safe=True)
    seen: list[tuple[bool, bool]] = []

    class Label(str):
        def __hash__(self) -> int:
            seen.append((source._lock._is_owned(), target._lock._is_owned()))
            return str.__hash__(self)

        __eq__ = str.__eq__

    source.add_result(Label("x"), Label("y"))
    seen.clear()
    target.merge(source)
    assert target == source
    assert seen
    assert all(both == (True, True) for both in seen)


# Forced interleavings (issue 21) ------------------------------------------------------------------
#
# A writer thread is paused inside a call, at the k-th time it hashes a label of its own (a
# dictionary look-up in the write path), while the main thread makes another call; then it
# resumes. No sleep: two events hand control back and forth, and every wait is bounded.


class _Gate:
    """Where the writer thread stops: at its ``target``-th hash of a :class:`_Pausing` label."""

    def __init__(self, target: int) -> None:
        self.target, self.count, self.paused = target, 0, False
        self.writer: threading.Thread | None = None
        self.stopped = threading.Event()  # the writer paused, or finished without pausing
        self.resume = threading.Event()


_gate: _Gate | None = None


class _Pausing(str):
    """A label whose hash pauses the writer thread at the gate's target."""

    def __hash__(self) -> int:
        gate = _gate
        if gate is not None and threading.current_thread() is gate.writer:
            gate.count += 1
            if gate.count == gate.target:
                gate.paused = True
                gate.stopped.set()
                assert gate.resume.wait(HANG)
        return str.__hash__(self)

    __eq__ = str.__eq__


def _consistent(accumulator: Any) -> bool:
    """Whether the state is one some calls make: ``from_dict`` takes it back, with the same scores."""
    try:
        loaded = type(accumulator).from_dict(accumulator.to_dict())
        scores = [json.dumps(x.scores(), sort_keys=True, default=str) for x in (accumulator, loaded)]
    except Exception:  # any failure to read the state back is the finding
        return False
    return scores[0] == scores[1]


def _interleave(accumulator: Any, write: Callable[[Any], None], other: Callable[[Any], None],
                target: int) -> bool:
    """``write`` in a thread, paused at its ``target``-th hash while ``other`` runs; False if it
    never got that far. ``other`` runs in the main thread for an unlocked accumulator, and in a
    third thread for a locked one (which waits for the writer's lock)."""
    global _gate
    gate = _gate = _Gate(target)
    failures: list[BaseException] = []

    def body(call: Callable[[Any], None]) -> None:
        try:
            call(accumulator)
        except Exception as error:  # a write that fails is a finding too
            failures.append(error)
        finally:
            gate.stopped.set()

    gate.writer = writer = threading.Thread(target=body, args=(write,))
    writer.start()
    try:
        assert gate.stopped.wait(HANG)
        waiting = None
        if gate.paused and accumulator.thread_safe:
            waiting = threading.Thread(target=body, args=(other,))
            waiting.start()  # blocks on the lock the paused writer holds
        elif gate.paused:
            body(other)
    finally:
        gate.resume.set()
        writer.join(HANG)
        _gate = None
    if waiting is not None:
        waiting.join(HANG)
        assert not waiting.is_alive()
    assert not writer.is_alive()
    if failures and not accumulator.thread_safe:
        raise _Corrupted from failures[0]
    assert not failures, failures
    return gate.paused


class _Corrupted(Exception):
    """A write failed half-way through an unlocked accumulator."""


def _on_reference(comparison: PartitionComparison) -> PartitionComparison:
    """The same accumulator counting with the pure-Python reference table.

    The compiled kernel looks every count up again after its labels' look-ups, so a pause
    in a label's hash does not corrupt it in these interleavings (no promise: an unlocked
    accumulator is still not thread-safe, and the docs say so); the reference, which
    users without a compiler run, shows what the docs warn of when both writers touch one
    cell or cluster (it reads a count, pauses, and writes the count it read plus its own).
    """
    table = ReferenceTable()
    table.apply(comparison._table.cells(), "t")
    comparison._table = table
    return comparison


INTERLEAVINGS = [
    pytest.param(lambda ts: _on_reference(PartitionComparison.from_labels(
                     [_Pausing("x"), "y"], ["m", "m"], thread_safe=ts)),
                 lambda p: p.add(_Pausing("x"), "m"), lambda p: p.add("x", "m"), id="add, add"),
    pytest.param(lambda ts: _on_reference(PartitionComparison.from_labels(
                     [_Pausing("x"), "y"], ["m", "m"], thread_safe=ts)),
                 lambda p: p.add(_Pausing("x"), "n"), lambda p: p.remove("x", "m"),
                 id="add, remove"),
    pytest.param(lambda ts: _on_reference(PartitionComparison.from_labels(
                     [_Pausing("x"), "y"], ["m", "m"], thread_safe=ts)),
                 lambda p: p.add_many([_Pausing("x"), _Pausing("z")], ["m", "q"]),
                 lambda p: p.add_many(["x"], ["m"]), id="add_many, add_many"),
    # Both name a category new to the open set, each coded as it comes (Counts.join): paused
    # between taking its code and keeping it, the other's category takes the same code.
    pytest.param(lambda ts: Contingency(thread_safe=ts).add_results([_Pausing("x"), "y"],
                                                                    [_Pausing("x"), "y"]),
                 lambda s: s.add_result(_Pausing("q"), "y"), lambda s: s.add_result("w", "y"),
                 id="add_result, add_result"),
    pytest.param(lambda ts: Contingency(thread_safe=ts).add_results([_Pausing("x"), "y"],
                                                                    [_Pausing("x"), "y"]),
                 lambda s: s.add_results([_Pausing("x"), "y"], ["y", _Pausing("x")]),
                 lambda s: s.add_results(["y", "w"], ["w", "y"]), id="add_results, add_results"),
]


@pytest.mark.parametrize(("make", "write", "other"), INTERLEAVINGS)
def test_an_unlocked_accumulator_shared_by_two_writers_can_end_corrupted(
        make: Callable[[bool], Any], write: Callable[[Any], None],
        other: Callable[[Any], None]) -> None:
    """Not only lost counts: some interleaving leaves a state no calls make (from_dict refuses it,
    its scores differ from those of the same counts loaded afresh, or a read raises KeyError)."""
    corrupted = []
    for target in range(1, 100):
        accumulator = make(False)
        try:
            if not _interleave(accumulator, write, other, target):
                break  # the writer finished before its target-th hash: every point was tried
        except _Corrupted:
            corrupted.append(target)
            continue
        if not _consistent(accumulator):
            corrupted.append(target)
    assert target > 1
    assert corrupted, "no interleaving corrupted the unlocked accumulator"


@pytest.mark.parametrize(("make", "write", "other"), INTERLEAVINGS)
def test_a_thread_safe_accumulator_under_the_same_interleavings_is_the_two_calls_in_turn(
        make: Callable[[bool], Any], write: Callable[[Any], None],
        other: Callable[[Any], None]) -> None:
    expected = make(False)
    write(expected)
    other(expected)
    for target in range(1, 100):
        accumulator = make(True)
        if not _interleave(accumulator, write, other, target):
            break
        assert accumulator == expected
        assert _consistent(accumulator)
    assert target > 1


# Snapshots and the other side's lock (issue 21) ----------------------------------------------------


SHARED = [
    pytest.param(lambda: Contingency(thread_safe=True).add_results(["x", "y"], ["x", "x"]),
                 lambda s: s.add_result("y", "z"), id="Contingency"),
    pytest.param(lambda: PartitionComparison.from_labels(["x", "y"], [1, 1], thread_safe=True),
                 lambda p: p.add("y", 2), id="PartitionComparison"),
]


@pytest.mark.parametrize(("make", "write"), SHARED)
def test_pickle_and_deepcopy_hand_over_a_snapshot_not_the_live_state(
        make: Callable[[], Any], write: Callable[[Any], None]) -> None:
    """Pickle serialises what ``__reduce_ex__`` returned after the lock is released; a write
    in between (another thread's, here forced) must not reach it. It did: a PartitionComparison
    came back with N = 2 and a table of 3 elements."""
    shared = make()
    before = shared.copy()
    rebuild, arguments, state = shared.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    write(shared)
    twin = rebuild(*arguments)
    twin.__setstate__(state)
    assert twin == before
    assert twin != shared
    assert twin.to_dict() == before.to_dict()
    assert type(twin).from_dict(twin.to_dict()) == before
    assert twin.thread_safe
    twin_sums = twin.scores()
    assert json.dumps(twin_sums, default=str) == json.dumps(before.scores(), default=str)


class _Watched(str):
    """A label that notes, whenever it is hashed, compared or deep-copied, whether ``watched``'s
    lock is held."""

    watched: Any = None
    seen: list[bool] = []  # noqa: RUF012  # one list, read and cleared by the tests

    def __hash__(self) -> int:
        _Watched._note()
        return str.__hash__(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Watched:
        _Watched._note()
        return self

    def __eq__(self, other: object) -> bool:
        _Watched._note()
        return str.__eq__(self, other)

    @staticmethod
    def _note() -> None:
        if _Watched.watched is not None:
            _Watched.seen.append(_Watched.watched._lock._is_owned())


@contextmanager
def watching(shared: Any) -> Iterator[list[bool]]:
    """Note, for every use of a :class:`_Watched` label, whether ``shared`` is locked."""
    _Watched.watched, _Watched.seen = shared, []
    try:
        yield _Watched.seen
    finally:
        _Watched.watched = None


def _put(accumulator: Any, first: Hashable, second: Hashable) -> None:
    if isinstance(accumulator, Contingency):
        accumulator.add_result(first, second)
    else:
        accumulator.add(first, second)


@pytest.mark.parametrize("make", [p.values[0] for p in SHARED], ids=[p.id for p in SHARED])
def test_a_snapshot_is_taken_under_the_lock(make: Callable[[], Any]) -> None:
    shared = make()
    _put(shared, _Watched("q"), _Watched("q"))
    for take in (pickle.dumps, copy.deepcopy):
        with watching(shared) as seen:
            take(shared)
        assert seen
        assert all(seen)


@pytest.mark.parametrize("make", [p.values[0] for p in SHARED], ids=[p.id for p in SHARED])
def test_copy_copy_is_an_independent_accumulator(make: Callable[[], Any]) -> None:
    """copy.copy shared the counting dicts and copied the integers: adding to the copy changed
    the original's cells but not its count."""
    for original in (make(), make().copy()):
        for thread_safe in {original.thread_safe, False}:
            if not thread_safe:
                original = type(original).from_dict(original.to_dict())
            before = original.to_dict()
            twin = copy.copy(original)
            assert twin == original
            assert twin.thread_safe == original.thread_safe
            if twin.thread_safe:
                assert twin._lock is not original._lock
            if isinstance(twin, Contingency):
                twin.add_result("x", "x")
                twin.add_result("new", "x")
            else:
                twin.add("x", 1)
                twin.add("new", 1)
            assert original.to_dict() == before
            assert _consistent(original)
            assert _consistent(twin)
            original_again = copy.copy(twin)
            twin.reset()
            assert _consistent(original_again)


ONE_SIDED = [
    ("merge", lambda plain, shared: plain.merge(shared)),
    ("+", lambda plain, shared: plain + shared),
    ("+=", lambda plain, shared: plain.__iadd__(shared)),
    ("==", lambda plain, shared: plain.__eq__(shared)),
    ("!=", lambda plain, shared: plain != shared),
    ("copy.copy", lambda plain, shared: copy.copy(shared)),
    ("copy.deepcopy", lambda plain, shared: copy.deepcopy(shared)),
    ("pickle", lambda plain, shared: pickle.dumps(shared)),
]


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])  # labels it can watch
@pytest.mark.parametrize(("name", "call"), ONE_SIDED, ids=[name for name, _ in ONE_SIDED])
def test_an_unlocked_side_reads_a_thread_safe_other_side_under_its_lock(
        cls: type, name: str, call: Callable[[Any, Any], Any]) -> None:
    """``Contingency().merge(shared)`` read ``shared`` without its lock (a snapshot from_dict
    refused; PartitionComparison: KeyError). The call takes the other side's lock, and every
    use of its labels (hash, comparison, deep copy) sees the lock held."""
    shared = cls(thread_safe=True)
    _put(shared, _Watched("x"), _Watched("y"))
    lock = shared._lock = _CountingLock()
    plain = cls()
    _put(plain, "x", "z")  # as many results or elements: == compares the tables
    plain_state = plain.to_dict()
    with watching(shared) as seen:
        call(plain, shared)
    assert lock.entered, "the call did not take the other side's lock"
    assert all(seen)
    if name not in ("merge", "+="):
        assert plain.to_dict() == plain_state


class _CountingLock:
    """A reentrant lock that counts how often it was taken."""

    def __init__(self) -> None:
        self.lock, self.entered = threading.RLock(), 0

    def __enter__(self) -> _CountingLock:
        self.lock.acquire()
        self.entered += 1
        return self

    def __exit__(self, *exception: object) -> None:
        self.lock.release()

    def _is_owned(self) -> bool:
        return bool(self.lock._is_owned())  # type: ignore[attr-defined]


def test_mixed_two_sided_calls_under_eight_threads_keep_every_state_and_do_not_deadlock() -> None:
    """Writers on two shared accumulators; other threads merge them into each other in both
    orders, merge them into their own unlocked ones, add, compare, copy and pickle them. Every
    state read is consistent; no thread is stuck."""
    first = Contingency(CATEGORIES, thread_safe=True)
    second = Contingency(CATEGORIES, thread_safe=True)
    partitions = (PartitionComparison(thread_safe=True), PartitionComparison(thread_safe=True))

    def work(i: int) -> None:
        rng = random.Random(i)
        mine, theirs = (first, second) if i % 2 else (second, first)
        here, there = partitions if i % 2 else partitions[::-1]
        own, own_partition = Contingency(CATEGORIES), PartitionComparison()
        for step in range(ROUNDS // 3):
            mine.add_result(rng.choice(CATEGORIES), rng.choice(CATEGORIES))
            here.add(rng.choice(CATEGORIES), rng.randrange(3))
            kind = (step + i) % 6
            if kind == 0:
                own.merge(theirs)
                own_partition.merge(there)
                check_contingency_read(own)
                assert _consistent(own_partition)
            elif kind == 1:
                check_contingency_read(pickle.loads(pickle.dumps(theirs)))
                assert _consistent(pickle.loads(pickle.dumps(there)))
            elif kind == 2:
                check_contingency_read(copy.deepcopy(theirs))
                assert _consistent(copy.copy(there))
            elif kind == 3:
                check_contingency_read(Contingency(CATEGORIES) + theirs)
                assert _consistent(PartitionComparison() + there)
            elif kind == 4:
                assert (Contingency(CATEGORIES) == theirs) in (True, False)
                assert (there == PartitionComparison()) in (True, False)
            elif step % 25 == 5:
                mine.merge(Contingency(CATEGORIES).add_results(["a"], ["b"]))
                check_contingency_read(mine + theirs)  # both locks, in either order

    run_threads(work)
    assert _consistent(first)
    assert _consistent(second)
    assert all(_consistent(p) for p in partitions)
