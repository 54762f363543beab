"""The compiled core of Contingency's counts against its pure-Python reference: same streams, same state.

contingency/_kernel_counts.pxi (``KernelCountsCore``) and
contingency/_counts_reference.py (``CountsCore``, the specification: one
result is ``Counts.apply`` given one pair's changes) are the two bases
:class:`contingency._counts.Counts` can have. Here one ``Contingency`` counts
on each (with the kernel's compiled ``add_result`` on the kernel's side, the
one written in Python on the reference's), fed the same stream through the
public API (single-label and multi-label results, new categories of an open
set, removals, refused ones too, merges, ``set_entries``, weights up to the
count limit, fractional weights that make every count finer and removals
that bring the scale back, categories that join and leave, holes in the
codes and their renumbering, copies and pickles); after every step every
count, the running sums' pending sets and the reads are compared, and
refusals must match (type and message).

The reads the kernel serves in C (the micro table's scores, the plain macro
means of precision, recall and F1 from running sums it keeps by every write)
are compared for every score and every ``zero_division`` mode, float for
float (NaN equal to NaN), with their exact running sums; the rounding of
those sums to a double is compared with Python's ``float(int)`` on integers
made to be hard (halfway cases, carries across the 64-bit words).
"""

from __future__ import annotations

import math
import operator
import pickle
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from contingency import Contingency, _backend
from contingency._contingency import (
    add_result_reference,
    categories_reference,
    interval_reference,
    n_results_reference,
)
from contingency._counts import Counts
from contingency._counts_reference import MACRO_SCORES, MICRO_SCORES, CountsCore, _macro_key, _weighted_key
from contingency._labels import category_order
from contingency.formulas._numeric import MAX_COUNT
from tests.compiled import compiled, needs_kernel
from tests.served import python_calls


def counts_class(core: type) -> type[Counts]:
    """``Counts`` on the base ``core``: the same methods and own slots, another core."""
    if core in Counts.__mro__:
        return Counts
    body = {name: value for name, value in vars(Counts).items()
            if name not in ("__dict__", "__weakref__") and name not in Counts.__slots__}
    return type("Counts", (core,), body)


KERNEL = compiled("KernelCountsCore")
CORES = [pytest.param(CountsCore, id="reference"),
         pytest.param(KERNEL, id="kernel", marks=needs_kernel)]


class ReferenceContingency(Contingency):
    """Contingency with add_result, interval, categories and n_results as written in Python (the
    kernel's are in C)."""

    add_result = add_result_reference  # type: ignore[assignment]
    interval = interval_reference  # type: ignore[assignment]
    categories = property(categories_reference)  # type: ignore[assignment]
    n_results = property(n_results_reference)  # type: ignore[assignment]


def on_core(core: type, categories: Any = None, **options: Any) -> Contingency:
    """A Contingency whose counts stand on ``core``, with the add_result of the same side (the
    compiled one on the kernel's core, the one written in Python on the reference)."""
    accumulator = (Contingency if core is KERNEL else ReferenceContingency)(categories, **options)
    counts = accumulator._counts
    moved = counts_class(core)(list(counts.ids), hold=counts.hold)
    object.__setattr__(accumulator, "_counts", moved)
    return accumulator


#: Every zero_division mode (as check_zero_division gives them).
MODES = ["perl", 0.0, 1.0, "nan"]
#: Where the reference keeps its plain and weighted macro means' running sums (the kernel keeps
#: them in C).
MACRO_KEYS = {key(name, mode) for name in MACRO_SCORES for mode in MODES
              for key in (_macro_key, _weighted_key)}


def same_float(x: float, y: float) -> bool:
    """``x`` and ``y`` the same double (NaN the same as NaN; 0.0 not the same as -0.0)."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x.hex() == y.hex()


def shown_float(value: Any) -> Any:
    """A read as compared: a float by its exact digits (every NaN as "nan"), a refusal as is."""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else value.hex()
    return value


def pending_sets(counts: Counts) -> dict[str, list[str]]:
    """The pending sets of the running sums kept in Python, by name, but those of the plain
    macro means (the reference's alone: the kernel keeps those sums in C, by every write; they
    are compared through ``macro_sums``). Every pending set the writes fill is one of them. Each
    holds categories, each by whichever of its equal labels a write put there (the kernel's
    multi-label write puts the result's, 2.0, where the reference's puts the category's, 2): a
    category is shown by its name."""
    running: dict[str, Any] = {f"sums {key}": value for key, value in counts.sums.items()}
    running |= {f"variances {key}": value for key, value in counts.variances.items()}
    running |= {name: getattr(counts, name) for name in ("totals", "margins", "coupling")
                if getattr(counts, name) is not None}
    assert sorted(map(id, counts.stale)) == sorted(id(value.pending) for value in running.values())
    ids, names = counts.ids, counts.names

    def category(label: Any) -> Any:  # (equal labels, 2 and 2.0, are one category: its name)
        code = ids.get(label)
        return label if code is None else names[code]

    return {name: sorted({repr(category(label)) for label in value.pending})
            for name, value in running.items() if name.removeprefix("sums ") not in MACRO_KEYS}


#: The reads of the result shapes the kernel serves in C while every result is single-label (by
#: Contingency's compiled readers; else by the readers written in Python), and hamming_loss.
RESULT_READS = ("subset_accuracy", "error_rate", "hamming_loss",
                *(f"samples_{name}" for name in MACRO_SCORES))


def result_reads(counts: Counts, mode: Any) -> dict[str, Any]:
    """:data:`RESULT_READS` of these counts in zero_division ``mode``, as Contingency's
    properties read them (its readers take an accumulator: one with these counts and mode)."""
    holder = Contingency.__new__(Contingency)
    object.__setattr__(holder, "_counts", counts)
    object.__setattr__(holder, "_zero_division", mode)
    return {f"{name} {mode}": shown_float(getattr(Contingency, name).fget(holder))
            for name in RESULT_READS}


def core_reads(counts: Counts) -> dict[str, Any]:
    """The reads of the counts' core the kernel serves in C, every score in every mode: the
    micro table's scores, the macro means, plain and weighted by support, and their exact
    running sums (made by the reads); the reads of the result shapes."""
    reads: dict[str, Any] = {}
    for mode in MODES:
        reads |= result_reads(counts, mode)
        for name in MICRO_SCORES:
            reads[f"micro {name} {mode}"] = shown_float(counts.micro_score(name, mode))
        for name in MACRO_SCORES:
            try:
                reads[f"macro {name} {mode}"] = shown_float(counts.macro_mean(name, mode))
            except ValueError as error:  # (no category, in Perl mode)
                reads[f"macro {name} {mode}"] = str(error)
            reads[f"sums {name} {mode}"] = counts.macro_sums(name, mode)
            try:
                reads[f"weighted {name} {mode}"] = shown_float(counts.weighted_mean(name, mode))
            except ValueError as error:
                reads[f"weighted {name} {mode}"] = str(error)
            reads[f"weighted sums {name} {mode}"] = counts.weighted_sums(name, mode)
    return reads


def state_of_counts(counts: Counts) -> dict[str, Any]:
    """Every count, as plain data (the types of the counts too: Python ints on both cores)."""
    return {
        "cells": [list(cells.items()) for cells in (counts.a, counts.b, counts.c)],
        "columns": [list(column) for column in counts.columns()],
        "types": [type(count).__name__ for count in (*counts.a.values(), counts.n, *counts.micro)],
        "n": counts.n, "scale": counts.scale, "shapes": dict(counts.shapes),
        "single": counts.hits_and_misses(), "micro": list(counts.micro),
        "offset": list(counts.offset), "ids": list(counts.ids.items()),
        "names": [repr(name) for name in counts.names], "holes": counts.holes,
        "pairs": counts.label_pairs(), "pair codes": counts.pairs.to_dict(),
        "stale": pending_sets(counts),
    }


#: The reads of an accumulator compared: its micro and macro properties, and two others.
READS = ("n_results", "categories", *RESULT_READS,
         *(f"{average}_{name}" for average in ("micro", "macro") for name in MICRO_SCORES),
         *(f"weighted_{name}" for name in MACRO_SCORES))
#: The intervals compared (each by ``interval``: the kernel's reads Wilson's of a micro share in
#: C, tests/test_kernel_intervals.py), at the default level and another.
INTERVALS = [(score, level) for score in ("micro_precision", "micro_recall", "micro_f1",
                                          "micro_accuracy", "subset_accuracy")
             for level in (0.95, 0.8)]


def state(accumulator: Contingency, every_mode: bool = False) -> dict[str, Any]:
    """Every count of the accumulator, its running sums' pending sets and its reads, as plain
    data; with ``every_mode``, the core's reads in every mode too (:func:`core_reads`)."""
    reads: dict[str, Any] = {}
    for name in READS:
        try:
            reads[name] = shown_float(getattr(accumulator, name))
        except Exception as error:  # (a refusal is part of the state compared)
            reads[name] = (type(error).__name__, str(error))
    for name, level in INTERVALS:
        try:
            reads[f"interval {name} {level}"] = [bound.hex() for bound in
                                                 accumulator.interval(name, level=level)]
        except ValueError as error:
            reads[f"interval {name} {level}"] = (type(error).__name__, str(error))
    if every_mode:
        reads |= core_reads(accumulator._counts)
    counts = accumulator._counts  # the order's memo (read in C on the kernel) against the order
    assert accumulator.categories == tuple(category_order(list(counts.a), len(counts.declared)))
    return {**state_of_counts(accumulator._counts), "reads": reads,
            "document": accumulator.to_dict()}


def run(accumulator: Any, call: str, *args: Any, **kwargs: Any) -> Any:
    """Call ``call`` on the accumulator: what it returns (None for the accumulators' calls,
    which return themselves), a refusal as (type, message)."""
    try:
        outcome = getattr(accumulator, call)(*args, **kwargs)
    except (ValueError, TypeError, KeyError, OverflowError) as error:
        return (type(error).__name__, str(error))
    return None if isinstance(outcome, Contingency) else outcome


LABELS = st.sampled_from(["x", "y", "z", 1, 2, True, 2.0, "new"])
# A mapping's labels are its keys with truthy values (a flag that has no truth value raises).
FLAGS = st.sampled_from([True, False, 1, 0, "", "yes", None, 2.5])
# (and sides add_result refuses: a list holding an unhashable label, an invalid label alone)
ODD = st.sampled_from([[["x"]], (None,), [float("nan")], {None: True}, {float("nan"): 1}])
SIDES = st.one_of(LABELS, st.frozensets(LABELS, max_size=3), st.lists(LABELS, max_size=3),
                  st.tuples(LABELS), st.dictionaries(LABELS, FLAGS, max_size=3), ODD)
WEIGHTS = st.sampled_from([1, 1, 1, 2, 2**40, MAX_COUNT - 1, MAX_COUNT, 0.5, 0.25, 3])


@needs_kernel
@settings(max_examples=80, stateful_step_count=30, deadline=None)
class CountsKernelAgainstReference(RuleBasedStateMachine):
    """One Contingency on each core, the same stream, every state equal after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.pair: list[Contingency] = []
        self.added: list[tuple[Any, Any]] = []

    @initialize(mode=st.sampled_from(MODES), every_mode=st.booleans())
    def start(self, mode: Any, every_mode: bool) -> None:
        """The accumulators' zero_division; ``every_mode``: the running sums of every score in
        every mode made by the first step's reads and kept by every write after it (else only
        those the accumulator's own reads make)."""
        self.pair = [on_core(core, ["x", "y"], unknown="add", zero_division=mode)
                     for core in (CountsCore, KERNEL)]
        self.every_mode = every_mode

    def both(self, call: str, *args: Any, **kwargs: Any) -> None:
        outcomes = [run(accumulator, call, *args, **kwargs) for accumulator in self.pair]
        assert outcomes[0] == outcomes[1]

    @rule(assigned=LABELS, correct=LABELS)
    def add_single(self, assigned: Any, correct: Any) -> None:
        self.both("add_result", assigned, correct)
        self.added.append((assigned, correct))

    @rule(assigned=SIDES, correct=SIDES)
    def add_any(self, assigned: Any, correct: Any) -> None:
        self.both("add_result", assigned, correct)
        self.added.append((assigned, correct))

    @rule(assigned=LABELS, correct=LABELS, weight=WEIGHTS)
    def add_weighted(self, assigned: Any, correct: Any, weight: Any) -> None:
        self.both("add_result", assigned, correct, weight=weight)

    @precondition(lambda self: self.added)
    @rule(index=st.integers(0, 1000))
    def remove_added(self, index: int) -> None:
        assigned, correct = self.added.pop(index % len(self.added))
        self.both("remove_result", assigned, correct)

    @rule(assigned=SIDES, correct=SIDES)
    def remove_any(self, assigned: Any, correct: Any) -> None:  # often refused
        self.both("remove_result", assigned, correct)

    @rule(assigned=st.lists(LABELS, max_size=4), data=st.data())
    def add_batch(self, assigned: list[Any], data: st.DataObject) -> None:
        correct = data.draw(st.lists(LABELS, min_size=len(assigned), max_size=len(assigned)))
        self.both("add_results", assigned, correct)

    @rule(assigned=LABELS, correct=LABELS)
    def merge(self, assigned: Any, correct: Any) -> None:
        other = Contingency(unknown="add")
        other.add_result(assigned, correct)
        self.both("merge", other)

    @rule(assigned=LABELS, correct=LABELS, weight=st.sampled_from([1, 2, 0.5, 0.25]))
    def remove_weighted(self, assigned: Any, correct: Any, weight: Any) -> None:  # the scale
        self.both("remove_result", assigned, correct, weight=weight)  # may return to 0

    @rule(size=st.integers(1, 6), single=st.booleans())
    def join_then_leave(self, size: int, single: bool) -> None:
        """Categories new to the open set join, then leave again: their codes become holes,
        and once the holes are half the codes the codes are made dense (the pairs renumbered)."""
        labels = [f"gone{index}" for index in range(size)]
        other = labels[1:] + labels[:1]
        for assigned, correct in zip(labels, other):
            self.both("add_result", assigned, correct if single else [correct, "x"])
        for assigned, correct in zip(labels, other):
            self.both("remove_result", assigned, correct if single else [correct, "x"])

    @rule(cells=st.tuples(*[st.integers(0, 5)] * 4))
    def set_entries(self, cells: tuple[int, int, int, int]) -> None:  # the micro table's offset
        self.both("set_entries", *cells)

    @rule()
    def reset(self) -> None:  # every count back to zero, at scale 0, whatever the scale was
        self.both("reset")
        self.added.clear()

    @rule()
    def copy_and_pickle(self) -> None:
        """A copy and a pickled twin hold every count (the running sums are made again)."""
        for accumulator in self.pair:
            for twin in (accumulator.copy(), pickle.loads(pickle.dumps(accumulator))):
                mine, theirs = state_of_counts(accumulator._counts), state_of_counts(twin._counts)
                mine.pop("stale")
                theirs.pop("stale")
                assert mine == theirs
                assert twin == accumulator

    @rule(assigned=LABELS, correct=LABELS, go_on=st.booleans())
    def copies_apart(self, assigned: Any, correct: Any, go_on: bool) -> None:
        """A copy and its original (whose category coding the kernel's cores share until one
        changes it): a result with a category new to one, then its removal (which forgets it),
        leave the other as it was, either way round; with ``go_on``, the stream goes on with
        the copies (their coding still shared with the originals, which stay alive)."""
        self.originals = list(self.pair)
        twins = [accumulator.copy() for accumulator in self.pair]
        for written, other in ((twins, self.pair), (self.pair, twins)):
            before = [state_of_counts(accumulator._counts) for accumulator in other]
            for call in ("add_result", "remove_result"):
                outcomes = [run(accumulator, call, assigned, correct) for accumulator in written]
                assert outcomes[0] == outcomes[1]
            after = [state_of_counts(accumulator._counts) for accumulator in other]
            assert before == after
        if go_on:
            self.pair = twins

    @rule()
    def read_sums(self) -> None:  # makes running sums, whose pending sets the writes then fill
        for accumulator in self.pair:
            accumulator.weighted_f1  # noqa: B018
            accumulator.cohen_kappa() if accumulator._counts.single_label() else None

    @rule(results=st.lists(st.tuples(LABELS, LABELS), min_size=1, max_size=6),
          weight=st.sampled_from([1, 2**40, 2**60]))
    def merge_many(self, results: list[tuple[Any, Any]], weight: int) -> None:
        """A merge of an accumulator of several results, some of large weight (the categories
        new to this one join)."""
        other = Contingency(unknown="add")
        for assigned, correct in results:
            other.add_result(assigned, correct, weight=weight)
        self.both("merge", other)

    @invariant()
    def same_state(self) -> None:
        if not self.pair:
            return
        reference, kernel = (state(accumulator, self.every_mode) for accumulator in self.pair)
        assert reference == kernel


TestCountsKernelAgainstReference = needs_kernel(CountsKernelAgainstReference.TestCase)


@needs_kernel
def test_copies_share_the_coding_until_one_changes_it() -> None:
    """The kernel's copy holds its original's category coding (the same dict) until a category
    joins or leaves either; then the one that changes it holds its own, and the other's is as
    it was (the reference copies it at once: the states are compared step by step above)."""
    original = on_core(KERNEL, ["x", "y"], unknown="add")
    original.add_result("x", "y")
    twin = original.copy()
    assert twin._counts.ids is original._counts.ids
    twin.add_result("z", "x")  # a category joins the copy
    assert twin._counts.ids is not original._counts.ids
    assert list(original._counts.ids) == ["x", "y"]
    assert list(twin._counts.ids) == ["x", "y", "z"]
    assert original._counts.names == ["x", "y"]
    third = original.copy()
    original.add_result("w", "w")
    original.remove_result("w", "w")  # joins, then is forgotten: a hole in the original's codes
    assert list(third._counts.ids) == ["x", "y"]
    assert third._counts.names == ["x", "y"]
    assert third == Contingency(["x", "y"], unknown="add").add_results(["x"], ["y"])


@pytest.mark.parametrize("core", CORES)
def test_count_pair_is_apply_of_one_pair(core: type) -> None:
    """count_pair gives the state Counts.apply gives the same pair's changes."""
    from contingency._changes import pair_changes
    mine, plain = (on_core(core, ["x", "y", "z"]) for _ in range(2))
    for correct, assigned, count in [("x", "x", 1), ("x", "y", 3), ("z", "y", 2**40), ("y", "y", 5)]:
        mine._counts.count_pair(correct, assigned, count)
        plain._counts.apply(*pair_changes({(correct, assigned): count}))
        assert state(mine) == state(plain)


@needs_kernel
@given(pairs=st.lists(st.tuples(LABELS, LABELS, st.sampled_from(
    [None, 1, 2, 2**40, MAX_COUNT - 1, MAX_COUNT, MAX_COUNT + 1, 0, -1, 1.0]), st.booleans()),
    max_size=12))
@example(pairs=[("x", "x", MAX_COUNT, False), ("x", "y", 1, False)])  # the limit: refused whole
@example(pairs=[("x", "unknown", 1, False), ("unknown", "x", None, False)])  # no write
@example(pairs=[("x", "x", 0, False), ("x", "x", -1, True), ("x", "x", 1.0, False)])  # not > 0
@example(pairs=[("new", "new", 2, True), (True, 1, None, True), ("x", "y", MAX_COUNT, True),
                ("z", "unseen", 1, True)])  # categories joining; refused at the limit
def test_count_pair_kernel_equals_reference(pairs: list[tuple[Any, Any, Any, bool]]) -> None:
    """The two cores' count_pair on the same calls (joining new categories or not): the same
    answers and refusals and the same state."""
    accumulators = [on_core(core, ["x", "y", "z", 1, 2.0]) for core in (CountsCore, KERNEL)]
    for index, (correct, assigned, count, join) in enumerate(pairs):
        if index == 3:  # a running sum from here on: pending sets to fill
            for accumulator in accumulators:
                accumulator.macro_f1  # noqa: B018
        outcomes = [run(accumulator._counts, "count_pair", correct, assigned, count, join=join)
                    for accumulator in accumulators]
        assert outcomes[0] == outcomes[1]
        assert state(accumulators[0]) == state(accumulators[1])


@pytest.mark.parametrize("core", CORES)
def test_the_limit_refuses_the_result_whole(core: type) -> None:
    s = on_core(core, ["x", "y"])
    s.add_result("x", "y", weight=MAX_COUNT - 1)
    before = state(s)
    s.add_result("y", "y")
    with pytest.raises(ValueError, match="results"):
        s.add_result("x", "x")
    assert s.n_results == MAX_COUNT
    s.remove_result("y", "y")  # (which starts the category totals a removal checks: a running sum)
    after = state(s)
    assert after.pop("stale")["totals"] == ["'y'"]  # (refreshed by the check, then written)
    before.pop("stale")
    assert after == before


@pytest.mark.parametrize("core", CORES)
def test_a_fractional_weight_makes_the_counts_finer_then_count_pair_counts_in_that_unit(
        core: type) -> None:
    s = on_core(core, ["x", "y"])
    s.add_result("x", "y")
    s.add_result("x", "x", weight=0.25)
    assert s._counts.scale == 2
    s.add_result("y", "y")
    assert s._counts.n == 4 + 1 + 4
    assert s.n_results == 2.25
    assert s == Contingency(["x", "y"]).add_results(["x", "x", "y"], ["y", "x", "y"],
                                                    weights=[1, 0.25, 1])


def exact_count(accumulator: Contingency) -> Fraction:
    """The count of results as the counts hold it, exactly."""
    counts = accumulator._counts
    return Fraction(counts.n, 1 << counts.scale)


@pytest.mark.parametrize("core", CORES)
def test_n_results_is_the_int_count_then_the_exact_count_rounded_once(core: type) -> None:
    """n_results on either core, by Contingency's property (in C on the kernel's core at scale
    0) and by the reader written in Python: an ``int`` while every count is whole, a ``float``
    (the exact count rounded once) once a fractional weight is counted, whole again or not, an
    ``int`` again after ``reset``; the counts past int64 a wide core holds (a fractional weight
    beside the count limit) are read too."""
    s = on_core(core, ["x", "y"], unknown="add")

    def reads(expected: int | float) -> None:
        for read in (s.n_results, n_results_reference(s)):
            assert type(read) is type(expected)
            assert read == expected == float(exact_count(s))

    reads(0)
    s.add_results(["x", "y", "x"], ["x", "x", "y"])
    s.add_result({"x", "y"}, {"z"})  # (a multi-label result counts once)
    reads(4)
    s.add_result("x", "y", weight=2**40)
    reads(4 + 2**40)
    s.add_result("y", "y", weight=0.25)
    reads(4 + 2**40 + 0.25)
    s.add_result("y", "x", weight=2**-60)  # (the exact count needs more bits than a double has)
    assert exact_count(s) == 4 + 2**40 + Fraction(1, 4) + Fraction(1, 2**60)
    reads(float(exact_count(s)))
    s.remove_result("y", "x", weight=2**-60)
    s.remove_result("y", "y", weight=0.25)
    reads(float(4 + 2**40))  # (whole again, still a float: until reset)
    s.reset()
    reads(0)
    s.add_result("x", "y", weight=MAX_COUNT - 1)
    s.add_result("x", "x", weight=0.5)  # units of 2**-1: the count is past int64
    assert s._counts.n > 2**63
    reads(float(exact_count(s)))
    assert s.n_results == float(MAX_COUNT - Fraction(1, 2))
    s.reset()
    reads(0)


@pytest.mark.parametrize("core", CORES)
def test_counts_pickle_with_every_field(core: type) -> None:
    s = on_core(core, ["x"], unknown="add")
    s.add_result("x", "x")
    s.add_result({"x", "w"}, {"w"})
    twin = pickle.loads(pickle.dumps(s._counts))
    assert twin.core_state() == s._counts.core_state()
    assert state_of_counts(twin) == state_of_counts(s._counts)
    assert twin.label_pairs() == s._counts.label_pairs()


@needs_kernel
@given(results=st.lists(st.tuples(st.frozensets(LABELS, max_size=5), st.sets(LABELS, max_size=5)),
                        max_size=12))
@example(results=[(frozenset({1, "x"}), {True, "y"}), (frozenset(), {"x"}),
                  (frozenset({"new"}), {"x", "y"})])
def test_count_sets_kernel_equals_reference(results: list[tuple[Any, Any]]) -> None:
    """The two cores' count_sets on the same results (every size, unknown labels too): the same
    answer and the same state after each, running sums' pending sets included."""
    accumulators = [on_core(core, ["x", "y", "z", 1, 2.0], zero_division=0.0)
                    for core in (CountsCore, KERNEL)]
    for index, (assigned, correct) in enumerate(results):
        if index == 2:
            for accumulator in accumulators:
                accumulator.macro_f1  # noqa: B018
        outcomes = [run(accumulator._counts, "count_sets", assigned, correct)
                    for accumulator in accumulators]
        assert outcomes[0] == outcomes[1]
        assert state(accumulators[0]) == state(accumulators[1])


@pytest.mark.parametrize("core", CORES)
def test_cells_read_by_category_as_read_only_mappings(core: type) -> None:
    """``a``, ``b``, ``c`` read like dicts in table order, over the cells by code (a forgotten
    category is gone from them, and a hole in the codes is skipped)."""
    s = on_core(core, ["x", "y"], unknown="add")
    s.add_results(["x", "z", "w", "y"], ["x", "x", "w", "z"])
    s.remove_result("w", "w")  # w forgotten: a hole at its code
    cells = s._counts.a, s._counts.b, s._counts.c
    expected = ({"x": 1, "y": 0, "z": 0}, {"x": 0, "y": 1, "z": 1}, {"x": 1, "y": 0, "z": 1})
    assert s._counts.holes == 1
    assert len(s._counts.names) == 4
    for view, wanted in zip(cells, expected):
        assert dict(view) == wanted
        assert view == wanted
        assert list(view) == list(wanted) == list(view.keys())
        assert list(view.items()) == list(wanted.items())
        assert list(view.values()) == list(wanted.values())
        assert len(view) == 3
        assert "z" in view
        assert "w" not in view
        assert view.get("w") is None
        assert view.get("w", 7) == 7
        assert view.get("z") == wanted["z"]
        with pytest.raises(KeyError):
            view["w"]
        with pytest.raises(TypeError):
            view["x"] = 5  # type: ignore[index]
    assert [list(column) for column in s._counts.columns()] == [
        list(wanted.values()) for wanted in expected]


@needs_kernel
@given(steps=st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 5), st.integers(0, 5), st.integers(1, 3)),
    st.tuples(st.just("add"), st.integers(0, 5), st.integers(0, 5),  # past narrow slots' counts
              st.sampled_from([2**32 - 2, 2**32 - 1, 2**32, 2**40])),
    st.tuples(st.just("take"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("bulk"), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)),
                                        max_size=8)),
    st.tuples(st.just("renumber"), st.permutations(range(6)))), max_size=30))
@example(steps=[("bulk", [(0, 1)] * 3 + [(5, 5)]), ("take", 0, 1), ("renumber", [5, 4, 3, 2, 1, 0]),
                ("add", 5, 5, 2)])
@example(steps=[("add", 1, 2, 2**32 - 2), ("add", 1, 2, 1), ("bulk", [(1, 2), (3, 3)]),
                ("take", 1, 2), ("renumber", [1, 0, 2, 3, 4, 5]), ("add", 4, 4, 2**40)])
def test_kernel_pairs_hold_what_pair_table_holds(steps: list[Any]) -> None:
    """The kernel's pair table (its hash table) and the reference's PairTable, given the same
    changes (one at a time, in bulk, taken back to zero, renumbered; counts past what narrow
    slots hold): the same pairs and reads."""
    import numpy as np
    from contingency._kernel import KernelPairs

    from contingency._table import PAIR_SHIFT, CodedPairs, PairTable
    tables = [PairTable(), KernelPairs()]
    for step in steps:
        if step[0] == "add":
            _, row, column, count = step
            for table in tables:
                table.add(row << PAIR_SHIFT | column, count)
        elif step[0] == "take":  # a pair taken back to zero (no zero entry kept)
            key = step[1] << PAIR_SHIFT | step[2]
            held = tables[0].counts_of([key])[0]
            if held:
                for table in tables:
                    table.add_items([(key, -held)])
        elif step[0] == "bulk":
            keys = np.array([row << PAIR_SHIFT | column for row, column in step[1]],
                            dtype=np.int64)
            for table in tables:
                table.add_pairs(CodedPairs(keys))
        else:
            codes = np.array(step[1], dtype=np.int64)
            for table in tables:
                table.renumber(codes)
        reference, kernel = tables
        assert kernel.to_dict() == reference.to_dict()
        assert list(kernel.items()) == list(reference.items())
        assert [array.tolist() for array in kernel.arrays()] == [
            array.tolist() for array in reference.arrays()]
        keys = [row << PAIR_SHIFT | column for row in range(6) for column in range(6)]
        assert kernel.counts_of(keys) == reference.counts_of(keys)
        assert len(kernel) == len(reference)
        assert kernel.bits() == reference.bits()
        assert kernel == reference
        assert kernel.copy() == kernel
        assert pickle.loads(pickle.dumps(kernel)).to_dict() == kernel.to_dict()
        assert 4 * len(kernel) <= 3 * kernel.n_slots()  # at most three quarters full


def _home(key: int, bits: int) -> int:
    """The home slot of a pair key ``row << 32 | column`` in a table of ``2**bits`` slots, narrow
    or wide (a narrow key is hashed in its wide form: ``slot_home``, contingency/_kernel_slots.pxi;
    ``ck_hash``, contingency/_kernel.pyx)."""
    return (key * 0x9E3779B97F4A7C15 % 2**64) >> (64 - bits)


def _pairs_homed(homes: list[int], bits: int) -> list[int]:
    """Distinct pair keys (codes below 64), one at home in each slot of ``homes`` in turn, of a
    table of ``2**bits`` slots."""
    from contingency._table import PAIR_SHIFT
    candidates = [row << PAIR_SHIFT | column for row in range(64) for column in range(64)]
    found: list[int] = []
    for home in homes:
        found.append(next(key for key in candidates
                          if _home(key, bits) == home and key not in found))
    return found


#: 12 keys for a table of 16 slots, at home in its slots 13, 15, 0 and 2: at three quarters
#: full they make one cluster that wraps around the table's end, entries far from home.
_FULL_16 = _pairs_homed([13] * 4 + [15] * 4 + [0] * 2 + [2] * 2, 4)
#: Keys at home in the same slots and their neighbours, never added to that table.
_ABSENT_16 = [key for key in _pairs_homed([13, 15, 0, 1, 2, 3] * 3, 4) if key not in _FULL_16]


@needs_kernel
@given(order=st.permutations(range(12)), again=st.lists(st.integers(0, 11), max_size=12),
       single=st.booleans())
@example(order=list(range(12)), again=[], single=True)
@example(order=list(range(11, -1, -1)), again=[0, 11, 5], single=False)
def test_kernel_pairs_at_three_quarters_full_grow_there_and_take_back_in_any_order(
        order: list[int], again: list[int], single: bool) -> None:
    """The pair table at its maximum load: 12 keys in 16 slots, added one at a time (``add``)
    or in one batch (``add_pairs``), keep 16 slots (a 13th key doubles them, never sooner);
    taken back to zero in any order (deletion by backward shift, across the table's end), some
    written again meanwhile: the same pairs, counts and reads as the reference's PairTable
    after every step."""
    import numpy as np
    from contingency._kernel import KernelPairs

    from contingency._table import CodedPairs, PairTable
    reference, kernel = PairTable(), KernelPairs()
    tables = (reference, kernel)
    probed = _FULL_16 + _ABSENT_16

    def same() -> None:
        assert kernel.to_dict() == reference.to_dict()
        assert kernel.counts_of(probed) == reference.counts_of(probed)
        assert len(kernel) == len(reference)

    assert kernel.is_narrow()  # (the homes above are those of narrow keys)
    if single:
        for held, key in enumerate(_FULL_16, 1):
            for table in tables:
                table.add(key, held)
            assert kernel.n_slots() == 16
            same()
    else:
        counts = np.arange(1, 13, dtype=np.int64)
        for table in tables:
            table.add_pairs(CodedPairs(np.array(_FULL_16, dtype=np.int64), counts))
        assert kernel.n_slots() == 16
        same()
    written = list(again)
    for index in order:
        key = _FULL_16[index]
        held = reference.counts_of([key])[0]
        if held:
            for table in tables:
                table.add(key, -held)
            same()
        if written:  # a key (taken back or not) written again
            key = _FULL_16[written.pop()]
            for table in tables:
                table.add(key, 1)
            same()
        assert kernel.n_slots() == 16
    for key in _FULL_16:  # all 12 again: 16 slots; a 13th key: 32
        if not reference.counts_of([key])[0]:
            for table in tables:
                table.add(key, 1)
    assert (len(kernel), kernel.n_slots()) == (12, 16)
    for table in tables:
        table.add(_ABSENT_16[0], 1)
    assert (len(kernel), kernel.n_slots()) == (13, 32)
    same()
    assert kernel == reference
    assert kernel.is_narrow()


#: Steps that move a pair table from narrow slots to wide ones (contingency/_kernel_slots.pxi),
#: each with the layout it leaves: the largest key and count narrow slots hold, then a key or a
#: count one past them, alone, in a batch (the batch's pairs before it in narrow slots, those
#: after it in wide ones) or as a dense count's count.
_WIDENING = {
    "row code": [("add", 0xFFFE << 32 | 0xFFFF, 1, True), ("add", 0xFFFF << 32 | 3, 2, False)],
    "column code": [("add", 5 << 32 | 0xFFFF, 1, True), ("add", 5 << 32 | 0x10000, 1, False)],
    "code past 32 bits": [("add", 1 << 32 | 1, 1, True), ("add", 1 << 48 | 1, 1, False)],
    "count": [("add", 7, 2**32 - 1, True), ("add", 8, 1, True), ("add", 7, 1, False)],
    "new count": [("add", 7, 1, True), ("add", 9, 2**32, False)],
    "batch": [("bulk", [3, 4, 3, 0xFFFF << 32, 5, 4], None, False)],
    "batch count": [("bulk", [3, 4, 5], [1, 2**33, 3], False)],
    "dense count": [("dense", 2**32, None, False)],
}


@needs_kernel
@pytest.mark.parametrize("case", sorted(_WIDENING))
def test_kernel_pairs_widen_for_a_key_or_count_narrow_slots_cannot_hold(case: str) -> None:
    """A pair table starts in narrow slots and moves to wide ones at the first key or count
    they cannot hold, the same pairs and counts as the reference's PairTable before and after
    (reads, copies, pickles, pairs taken back to zero by backward shift in either layout); a
    renumbering that brings every code back below 2**16 - 1 lays it out narrow again."""
    import numpy as np
    from contingency._kernel import KernelPairs

    from contingency._table import CodedPairs, PairTable
    reference, kernel = PairTable(), KernelPairs()
    tables = (reference, kernel)
    start = [row << 32 | column for row in range(4) for column in range(4)]  # 16 pairs, narrow

    def same() -> None:
        probed = [*reference.to_dict(), 99 << 32, 0xFFFF << 32 | 9]  # (two never written)
        assert list(kernel.items()) == list(reference.items())
        assert [a.tolist() for a in kernel.arrays()] == [a.tolist() for a in reference.arrays()]
        assert kernel.counts_of(probed) == reference.counts_of(probed)
        assert (len(kernel), kernel.bits()) == (len(reference), reference.bits())
        assert kernel.copy() == kernel == reference
        assert pickle.loads(pickle.dumps(kernel)) == reference

    for table in tables:
        table.add_pairs(CodedPairs(np.array(start, dtype=np.int64)))
    assert kernel.is_narrow()
    for kind, keys, counts, narrow in _WIDENING[case]:
        for table in tables:
            if kind == "add":
                table.add(keys, counts)
            elif kind == "bulk":
                table.add_pairs(CodedPairs(np.array(keys, dtype=np.int64),
                                           None if counts is None else np.array(counts, np.int64)))
            else:  # a dense count of 8 x 8 (row * 8 + column) with one count of ``keys``
                dense = np.arange(64, dtype=np.int64) % 3
                dense[9] = keys
                table.add_pairs(CodedPairs.from_table(dense, 8))
        assert kernel.is_narrow() == narrow
        same()
    assert not kernel.is_narrow()
    for key in start[::3]:  # some pairs taken back to zero, in wide slots
        held = reference.counts_of([key])[0]
        for table in tables:
            table.add(key, -held)
        same()
    # Every code renumbered below 16 (the large ones onto unused small codes): narrow again.
    pairs = reference.to_dict()
    codes = sorted({key >> 32 for key in pairs} | {key & 0xFFFFFFFF for key in pairs})
    renumbered = np.zeros(codes[-1] + 1, dtype=np.int64)
    renumbered[codes] = np.arange(len(codes))
    for table in tables:
        table.renumber(renumbered)
    same()
    assert kernel.is_narrow() == (max(reference.to_dict().values()) < 2**32)


@needs_kernel
def test_kernel_pairs_bulk_batches_collide_grow_mix_and_take_back() -> None:
    """Bulk changes (CodedPairs) to the kernel's pair table and to the reference's PairTable:
    keys sharing the last slot of the table (their probes wrap around to its first slots),
    repeated within a batch; a batch of either sign that takes every other of them back to
    zero (deletion by backward shift inside the cluster) while adding to others and new keys;
    a batch that grows the table by several doublings at once; and one that takes everything
    back; dense counts (read in C as they are) that take pairs back and add new ones. The same
    pairs and reads after each."""
    import numpy as np
    from contingency._kernel import KernelPairs

    from contingency._table import PAIR_SHIFT, CodedPairs, PairTable
    tables = [PairTable(), KernelPairs()]

    def both(keys: list[int], counts: list[int] | None = None,
             dense: tuple[Any, int] | None = None) -> None:
        for table in tables:  # (a dense count is read by the kernel as it is, by PairTable unpacked)
            if dense is not None:
                pairs = CodedPairs.from_table(*dense)
                assert (pairs.dense_count() is not None) == (dense[0].dtype == np.int64)
            else:
                pairs = CodedPairs(np.array(keys, dtype=np.int64),
                                   None if counts is None else np.array(counts, dtype=np.int64))
            table.add_pairs(pairs)
        reference, kernel = tables
        assert list(kernel.items()) == list(reference.items())
        assert kernel.counts_of(keys) == reference.counts_of(keys)
        assert len(kernel) == len(reference)
        assert kernel == reference
        assert kernel.copy() == kernel

    # 12 distinct keys, each four times (a batch of 48 keys: a table of 64 slots), every key at
    # home in its last slot.
    candidates = [row << PAIR_SHIFT | column for row in range(64) for column in range(64)]
    cluster = [key for key in candidates if _home(key, 6) == 63][:12]
    assert len(cluster) == 12
    both(cluster * 4)
    assert tables[1].n_slots() == 64
    assert tables[1].is_narrow()
    # Every other one back to zero, the others up by one, and 4 new keys in the same cluster
    # (the table keeps its 64 slots).
    more = [key for key in candidates if _home(key, 6) == 63 and key not in cluster][:4]
    both(cluster + more, [-4 if i % 2 == 0 else 1 for i in range(12)] + [3] * 4)
    assert (len(tables[1]), tables[1].n_slots()) == (10, 64)
    # 30,000 keys (about 3,000 distinct rows by columns): several doublings at once.
    rng = np.random.default_rng(7)
    keys = (rng.integers(0, 60, 30_000) << PAIR_SHIFT | rng.integers(0, 60, 30_000)).tolist()
    both(keys)
    # A dense count of 64 x 64 (row * 64 + column): every third pair held taken back to zero,
    # new pairs and pairs held gaining; then the same as Python ints (not read in C).
    for dtype in (np.int64, object):
        held = tables[0].to_dict()
        dense = np.zeros(64 * 64, dtype=dtype)
        for index, (key, count) in enumerate(held.items()):
            dense[(key >> PAIR_SHIFT) * 64 + (key & 63)] = -count if index % 3 == 0 else 2
        dense[rng.integers(0, 64 * 64, 500)] = 5
        keys = [row << PAIR_SHIFT | column for row in range(64) for column in range(64)]
        both(keys, dense=(dense, 64))
    # Everything taken back.
    held = tables[0].to_dict()
    both(list(held), [-count for count in held.values()])
    assert len(tables[1]) == 0


@needs_kernel
@pytest.mark.parametrize("k", [30, 3000])  # pairs counted in a K x K table, or sorted
@pytest.mark.parametrize("weighted", [False, True])
def test_label_array_batches_on_both_cores(k: int, weighted: bool) -> None:
    """add_results of label arrays (the pair table's bulk path) on both cores: into empty
    counts, then into counts holding pairs already (new categories joining), then a removal of
    part of them and a refused removal, which changes nothing: the same state after each."""
    import numpy as np
    rng = np.random.default_rng(k)
    correct = rng.integers(0, k, 6000)
    assigned = np.where(rng.random(6000) < 0.5, correct, rng.integers(0, k + 5, 6000))
    weights = rng.integers(0, 4, 6000) if weighted else None
    accumulators = [on_core(core, range(k), unknown="add") for core in (CountsCore, KERNEL)]
    steps = [("add_results", slice(0, 4000)), ("add_results", slice(4000, 6000)),
             ("remove_results", slice(1000, 3000)),
             ("remove_results", slice(0, 3000))]  # refused: some are gone
    for call, part in steps:
        arrays = [assigned[part], correct[part]] + ([] if weights is None else [weights[part]])
        before = state(accumulators[1])
        outcomes = [run(accumulator, call, *arrays) for accumulator in accumulators]
        assert outcomes[0] == outcomes[1]
        if outcomes[1] is not None:
            assert state(accumulators[1]) == before
        assert state(accumulators[0]) == state(accumulators[1])
    assert outcomes[1][0] == "ValueError"


@pytest.mark.parametrize("core", CORES)
def test_a_refused_fractional_weight_leaves_the_counts_whole_at_scale_0(core: type) -> None:
    """A fractional weight past the count limit is refused: the counts, made finer for it, come
    back to whole results (on the kernel, back into C from the reference's storage) unchanged."""
    s = on_core(core, ["x", "y"])
    s.add_result("x", "y", weight=MAX_COUNT - 1)
    s.macro_f1  # noqa: B018  (a running sum, dropped and made again)
    before = state(s)
    with pytest.raises(ValueError, match="results"):
        s.add_result("x", "x", weight=1.5)
    assert s._counts.scale == 0
    assert state(s) == before
    s.add_result("y", "y", weight=0.5)  # room for half a result: counts in halves from here
    assert s._counts.scale == 1
    s.remove_result("y", "y", weight=0.5)  # (the unit stays: the document is in the least one)
    assert s._counts.scale == 1
    assert s.to_dict() == before["document"]


def _hard_integers() -> list[int]:
    """Integers below 2**256 (the weighted sums' width; the plain sums' is 2**192) whose
    rounding to a double is easy to get wrong: each bit length, halfway between two doubles
    (ties to even, both ways), a unit either side of halfway, a sticky bit far below the
    rounding position (past 2**192: in the lowest word, which the C folds into the next), and
    around the 64-bit words' edges."""
    found = {0, 1, 2**53 - 1, 2**53, 2**53 + 1, 2**64 - 1, 2**64, 2**64 + 1, 2**128 - 1, 2**128,
             2**128 + 1, 2**192 - 1, 2**192, 2**192 + 1, 2**256 - 1}
    for bits in range(54, 257):
        for mantissa in (2**52, 2**52 + 1, 2**53 - 1, 0x1234_5678_9ABC_D):
            mantissa |= 2**52
            base = mantissa << (bits - 53)  # a double, exactly
            half = 1 << (bits - 54)  # half a unit in its last place
            for extra in (half, half - 1, half + 1, 1, (1 << (bits - 53)) - 1):
                found.add(base + extra)
            if bits - 54 > 1:
                found.add(base + half + (1 << (bits - 54) // 2))  # halfway plus a far sticky bit
            if bits > 192:
                found.add(base + half + 1)  # halfway, plus a sticky bit in the lowest word only
                found.add(base + half - 1)
    return sorted(value for value in found if value < 2**256)


@needs_kernel
@example(value=2**128 + 2**75)  # halfway across the carry word: to even, down
@example(value=(2**53 + 1) * 2**75 + 2**74)  # halfway, odd: up
@example(value=2**200 + 2**147 + 1)  # halfway past 2**192, a sticky bit in the lowest word: up
@example(value=2**200 + 2**147)  # exactly halfway past 2**192: to even, down
@given(value=st.one_of(st.integers(0, 2**256 - 1),
                       st.builds(lambda m, k: m << k, st.integers(1, 2**60), st.integers(0, 196))))
def test_the_sums_round_as_python_floats_an_int(value: int) -> None:
    """The C rounding of a running sum to a double (to nearest, ties to even) is Python's."""
    from contingency._kernel import fixed_point_double
    assert same_float(fixed_point_double(value), float(value))


@needs_kernel
def test_the_sums_round_as_python_on_halfway_cases() -> None:
    from contingency._kernel import fixed_point_double
    values = _hard_integers()
    assert len(values) > 3000
    for value in values:
        assert same_float(fixed_point_double(value), float(value)), hex(value)
    with pytest.raises(ValueError, match="2\\*\\*256"):
        fixed_point_double(2**256)


#: 3 (2**53 + 23757), whose ratio to 3 Perl computes in integers (1 / (1 + 2**53 + 23757) then differs
#: from the ratio of the doubles in the last bit).
PERL_WHOLE = 27021597764294247
#: Weights of single-label results that make large cells: counts past 2**53 (where doubles
#: stop holding every count), one over another a whole number (Perl mode's integer branch),
#: and the count limit.
LARGE = [1, 3, 2**40, 2**53 - 1, 2**53 + 1, 2**60, 3 * 2**60, 2**62, MAX_COUNT // 3,
         MAX_COUNT - 2**62, MAX_COUNT, PERL_WHOLE]


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(results=st.lists(st.tuples(st.sampled_from(["x", "y", "z", "w"]),
                                  st.sampled_from(["x", "y", "z", "w"]),
                                  st.sampled_from(LARGE)), min_size=1, max_size=8),
       read_at=st.integers(0, 8))
@example(results=[("x", "x", MAX_COUNT - 2**62), ("y", "x", 2**62)], read_at=0)
@example(results=[("x", "x", 3), ("x", "y", PERL_WHOLE)], read_at=0)  # Perl's integer branch
@example(results=[("x", "x", 2**40), ("x", "y", 2**60), ("y", "x", 3 * 2**60)], read_at=1)
def test_large_counts_read_the_same_on_both_cores(results: list[tuple[Any, Any, int]],
                                                  read_at: int) -> None:
    """Cells up to the count limit, one category per result (each result alone, so that the
    limit refuses no other): every micro and macro read in every mode the same on both cores,
    the exact running sums too (made at ``read_at``, then kept by the writes), and each sum the
    sum from scratch: the 192-bit arithmetic's carries and the conversions past 2**53."""
    from contingency._category_sums import CategorySums
    accumulators = [on_core(core, ["x", "y", "z", "w"]) for core in (CountsCore, KERNEL)]
    for index, (assigned, correct, weight) in enumerate(results):
        if index == read_at:
            for accumulator in accumulators:
                core_reads(accumulator._counts)
        outcomes = [run(accumulator, "add_result", assigned, correct, weight=weight)
                    for accumulator in accumulators]
        assert outcomes[0] == outcomes[1]
        reference, kernel = (state(accumulator, every_mode=True) for accumulator in accumulators)
        assert reference == kernel
    counts = accumulators[1]._counts
    for name in MACRO_SCORES:
        for mode in MODES:
            fresh = CategorySums((counts.a, counts.b, counts.c), name, mode, weighted=True)
            fresh.stale(counts.a)
            fresh.refresh()
            assert counts.macro_sums(name, mode) == (fresh.total, fresh.defined)
            assert counts.weighted_sums(name, mode) == (fresh.weighted, fresh.weight)


@pytest.mark.parametrize("core", CORES)
def test_the_macro_sums_carry_past_2_to_the_128(core: type) -> None:
    """Categories of value 1 and of values just below it (cells past 2**53): a sum past 2**128
    (the carry word), taken back by removals, then made of small values; each time the sum the
    exact one, and the mean its rounding."""
    labels = [f"c{index}" for index in range(40)]
    s = on_core(core, labels, zero_division=0.0)
    assert s.macro_precision == 0.0  # (the sums made: every value 0 of 0 in this mode)
    big = 2**56
    for index, label in enumerate(labels):
        s.add_result(label, label, weight=big - index)
        if index % 2:
            s.add_result(label, labels[0], weight=index)  # precision just below 1
    def precision(a: int, b: int) -> float:  # (the formula past 2**53: each count rounded)
        return float(a) / float(a + b)
    values = [precision(big - index, index if index % 2 else 0) for index in range(40)]
    total, defined = s._counts.macro_sums("precision", 0.0)
    assert defined == 40
    assert total == sum(int(value * 2**128) for value in values) > 2**133
    assert s.macro_precision == float(total) * 2.0**-128 / 40
    for index, label in enumerate(labels):
        if index % 2:
            s.remove_result(label, labels[0], weight=index)
    assert s._counts.macro_sums("precision", 0.0) == (40 * 2**128, 40)
    assert s.macro_precision == 1.0
    for index, label in enumerate(labels):
        s.add_result(labels[(index + 1) % 40], label, weight=big)
    total, _ = s._counts.macro_sums("precision", 0.0)
    assert total == sum(int(precision(big - index, big) * 2**128)
                        for index in range(40))  # (each category assigned wrongly once: b = big)
    assert s.macro_precision == float(total) * 2.0**-128 / 40


@pytest.mark.parametrize("core", CORES)
def test_the_weighted_sums_carry_past_2_to_the_192(core: type) -> None:
    """Multi-label results of weight 2**59 naming 40 categories: supports summing past 2**64,
    so the weighted sum (each value times 2**128 times its support) passes 2**192, the kernel's
    fourth word; each time the sums the exact ones, and the mean their rounding, then taken
    back by removals to small values."""
    labels = [f"c{index}" for index in range(40)]
    s = on_core(core, labels, zero_division=0.0)
    assert s.weighted_precision == 0.0  # (the sums made: every value 0 of 0 in this mode)
    heavy = 2**59
    s.add_result(set(labels), set(labels), weight=heavy)  # every value 1, every support 2**59
    s.add_result(set(labels[:3]), set(labels[1:4]), weight=5)  # values just below 1
    counts = s._counts
    values = [float(counts.a[label]) / float(counts.a[label] + counts.b[label])
              for label in labels]
    supports = [counts.a[label] + counts.c[label] for label in labels]
    weighted, weight = counts.weighted_sums("precision", 0.0)
    assert weight == sum(supports) > 2**64
    assert weighted == sum(int(value * 2**128) * support
                           for value, support in zip(values, supports)) > 2**192
    assert s.weighted_precision == float(weighted) * 2.0**-128 / weight
    s.remove_result(set(labels), set(labels), weight=heavy)
    weighted, weight = counts.weighted_sums("precision", 0.0)
    # c1 and c2 right (value 1, support 5), c3 missed (value 0, support 5), c0 of support 0
    assert (weighted, weight) == (2 * 2**128 * 5, 15)
    assert s.weighted_precision == 10 / 15


@needs_kernel
def test_the_kernel_keeps_the_macro_sums_in_c_without_pending_sets() -> None:
    """On the kernel the plain macro means' sums live in C: the reads make none in Python and no
    pending set, and each write keeps them (equal to the sums made from scratch by a copy,
    whose first read makes them again)."""
    s = on_core(KERNEL, ["x", "y", "z"], unknown="add")
    s.add_results(["x", "y", "z"], ["x", "x", "y"])
    for mode in MODES:
        for name in MACRO_SCORES:
            s._counts.macro_mean(name, mode)
            s._counts.weighted_mean(name, mode)
    assert s._counts.sums == {}
    assert s._counts.stale == ()
    for assigned, correct in [("x", "x"), ("new", "y"), ({"x", "z"}, {"z"}), ("y", "new")]:
        s.add_result(assigned, correct)
        s.remove_result("z", "y") if assigned == "y" else None
        twin = s.copy()
        assert all(twin._counts.macro_sums(name, mode) is None
                   and twin._counts.weighted_sums(name, mode) is None
                   for name in MACRO_SCORES for mode in MODES)
        assert state(twin, every_mode=True)["reads"] == state(s, every_mode=True)["reads"]
    assert s._counts.sums == {}  # (a removal made the category totals its check reads: their set)
    assert [id(pending) for pending in s._counts.stale] == [id(s._counts.totals.pending)]


#: Contingency's properties read in C: the kernel is this process's implementation.
kernel_loaded = pytest.mark.skipif(_backend.IMPLEMENTATION != "kernel",
                                   reason="the kernel is not this process's implementation")


@kernel_loaded
@pytest.mark.parametrize("mode", MODES)
def test_the_result_reads_are_served_in_c_while_every_result_is_single_label(mode: Any) -> None:
    """subset_accuracy, error_rate and the samples means: in C (no Python frame) while every
    result is single-label; once a result is not, by the readers written in Python (the same
    values as the reference's, compared step by step above); in C again once it is taken back."""
    s = on_core(KERNEL, ["x", "y"], unknown="add", zero_division=mode)
    names = ("subset_accuracy", "error_rate", *(f"samples_{name}" for name in MACRO_SCORES))

    def served_in_c() -> set[str]:
        return {name for name in names
                if not python_calls(partial(operator.attrgetter(name), s))}

    assert served_in_c() == set(names)  # (no result: the empty table's value, in C)
    s.add_results(["x", "y", "x"], ["x", "x", "y"])
    assert served_in_c() == set(names)
    s.add_result({"x", "y"}, {"x"})
    assert served_in_c() == set()
    s.remove_result({"x", "y"}, {"x"})
    assert served_in_c() == set(names)
    s.add_result("x", "y", weight=0.5)  # (counts finer than a result: the reference's storage)
    assert served_in_c() == set()


@kernel_loaded
def test_hamming_loss_is_served_in_c_without_a_set_entries_offset() -> None:
    """hamming_loss, the error of the pooled cells: in C while no set_entries offset is set (the
    pooled cells are then the micro table), multi-label results too; by the reader written in
    Python once one is (the same values, compared step by step above)."""
    s = on_core(KERNEL, ["x", "y"], unknown="add")
    read = partial(operator.attrgetter("hamming_loss"), s)
    for assigned, correct in [("x", "x"), ({"x", "y"}, {"x"}), ("y", "x")]:
        s.add_result(assigned, correct)
        assert python_calls(read) == []
    s.set_entries(1, 0, 0, 1)
    assert python_calls(read) != []


@kernel_loaded
def test_n_results_is_served_in_c_while_every_count_is_whole() -> None:
    """n_results: in C (no Python frame) at scale 0, multi-label results and set_entries too;
    by the reader written in Python while counts are finer than a result (the same values as the
    reference's, compared step by step above); in C again after a reset."""
    s = on_core(KERNEL, ["x", "y"], unknown="add")
    read = partial(operator.attrgetter("n_results"), s)
    assert python_calls(read) == []
    for assigned, correct in [("x", "x"), ({"x", "y"}, {"x"}), ("z", "x")]:
        s.add_result(assigned, correct)
        assert python_calls(read) == []
    s.set_entries(1, 0, 0, 1)
    assert python_calls(read) == []
    s.add_result("x", "y", weight=0.5)
    assert python_calls(read) != []
    s.remove_result("x", "y", weight=0.5)
    assert python_calls(read) != []  # (a float until reset)
    s.reset()
    assert python_calls(read) == []
    assert s.n_results == 0


@kernel_loaded
def test_categories_is_served_in_c_while_its_memo_holds() -> None:
    """categories: made by the reader written in Python at the first read and after the
    categories change (a category joins, one is forgotten: a hole, their codes made dense
    again), then read in C from its memo (the same order, checked against the order made afresh
    after every step above); by the reader written in Python while counts are finer than a
    result."""
    s = on_core(KERNEL, ["x", "y"], unknown="add")
    read = partial(operator.attrgetter("categories"), s)
    assert python_calls(read) != []  # (made)
    assert python_calls(read) == []  # (kept)
    for change in (partial(s.add_result, "x", "y"), partial(s.add_result, "z", "x"),
                   partial(s.add_result, "w", "w"), partial(s.remove_result, "w", "w")):
        change()
        made = python_calls(read)
        assert python_calls(read) == []
        assert s.categories == tuple(category_order(list(s._counts.a), 2))
        assert (made != []) == (change.args != ("x", "y"))  # (a new order but for a known pair)
    s.add_result("x", "y", weight=0.5)
    assert python_calls(read) != []
    assert python_calls(read) != []  # (again: no memo read in C at that scale)
