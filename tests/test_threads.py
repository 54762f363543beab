"""Threads: ``thread_safe=True`` makes every public call atomic; the default class carries no lock.

The counting tests run 8 threads with a switch interval of a microsecond, so
that the interpreter (or, on a free-threaded build, the machine) interleaves
them inside the write path; with the option the counts come out exact and
every read in between sees a consistent state. Without the option the same
runs lose counts (not tested here: a lost update is a matter of chance, and
the docs state the rule instead).
"""

from __future__ import annotations

import copy
import inspect
import pickle
import random
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from contingency import Contingency, PartitionComparison
from contingency._locking import is_locked

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
]


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


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])
def test_option_must_be_a_bool(cls: type) -> None:
    with pytest.raises(TypeError, match="thread_safe must be True or False, not 'yes'"):
        cls(thread_safe="yes")


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])
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


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])
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
