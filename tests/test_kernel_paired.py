"""PairedComparison on the compiled kernel against its pure-Python reference: same streams, same state.

contingency/_kernel_paired.pxi holds the paired table in C
(``KernelPairedCounts``) and ``PairedComparison.add_result`` in C
(``paired_add_result``); their references are
:class:`contingency._paired_counts.PairedCounts` and
:data:`contingency._paired.add_result_reference`. Here one
``PairedComparison`` stands on each side (the paired table, both models'
counts and ``add_result`` all of that side), fed the same stream through the
public API: single-label results (the fast path), results given as sets and
lists, new categories of an open set and undeclared ones ignored, weights up to
the count limit and refused ones, removals (refused ones too), batches,
merges, copies and pickles. After every step every count (the paired table,
its histogram of totals, both models' counts) and every read (both models'
scores, the paired tables, McNemar's tests, the document) is compared, and
refusals must match (type and message).
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from contingency import PairedComparison
from contingency._backend import rebuild_paired_counts, reduce_paired_counts
from contingency._counts_reference import CountsCore
from contingency._feeding import SINGLE
from contingency._paired import add_result_reference
from contingency._paired_counts import PairedCounts, set_changes
from contingency.formulas._numeric import MAX_COUNT
from tests.compiled import KERNEL_MODULE, needs_kernel
from tests.test_kernel_counts import counts_class, state_of_counts

KERNEL = KERNEL_MODULE
SIDES_OF = ["reference", pytest.param("kernel", marks=needs_kernel)]


class ReferencePaired(PairedComparison):
    """PairedComparison with add_result as written in Python."""

    __slots__ = ()
    add_result = add_result_reference  # type: ignore[assignment]


if KERNEL is not None:
    class KernelPaired(PairedComparison):
        """PairedComparison with the kernel's compiled add_result (whichever this process chose)."""

        __slots__ = ()
        add_result = KERNEL.compiled_paired_add_result(SINGLE)


def on_side(side: str, categories: Any = None, **options: Any) -> PairedComparison:
    """A PairedComparison standing wholly on one side: its paired table, both models' counts and
    its add_result of the kernel (``"kernel"``) or of the reference (``"reference"``)."""
    kernel = side == "kernel"
    paired = (KernelPaired if kernel else ReferencePaired)(categories, **options)
    core = KERNEL.KernelCountsCore if kernel else CountsCore
    for view_name, counts_name in (("_a", "_counts_a"), ("_b", "_counts_b")):
        view = getattr(paired, view_name)
        counts = view._counts
        moved = counts_class(core)(list(counts.ids), hold=counts.hold)
        object.__setattr__(view, "_counts", moved)
        object.__setattr__(paired, counts_name, moved)
    object.__setattr__(paired, "_table", KERNEL.KernelPairedCounts() if kernel else PairedCounts())
    return paired


def table_state(table: Any) -> dict[str, Any]:
    """Every count of a paired table (categories compared as dicts compare them: 1 == True)."""
    return {"cells": list(table.cells), "n": table.n, "only_a": table.only_a,
            "only_b": table.only_b, "both_wrong": table.both_wrong, "totals": table.totals,
            "spread": table.spread, "labels": set(table.labels()), "state": table.state()}


def _read(call: Any) -> Any:
    try:
        return call()
    except (ValueError, TypeError, ZeroDivisionError) as error:  # (a refusal is a read too)
        return (type(error).__name__, str(error))


def state(paired: PairedComparison) -> dict[str, Any]:
    """Every count of the accumulator and its reads, as plain data."""
    labels = list(dict.fromkeys([*paired.a.categories, *paired.b.categories]))
    reads: dict[str, Any] = {"n_results": paired.n_results, "table": paired.paired_table()}
    for name, model in (("a", paired.a), ("b", paired.b)):
        for score in ("n_results", "micro_f1", "macro_f1", "subset_accuracy", "hamming_loss"):
            reads[f"{name}.{score}"] = _read(lambda model=model, score=score: getattr(model, score))
    for exact, mid_p in ((True, False), (True, True), (False, False)):
        reads[f"mcnemar {exact} {mid_p}"] = paired.mcnemar(exact, mid_p)
        for label in labels:
            reads[f"mcnemar {exact} {mid_p} {label!r}"] = paired.mcnemar(exact, mid_p,
                                                                         category=label)
    for label in labels:
        reads[f"table {label!r}"] = paired.paired_table(label)
    reads["difference"] = _read(paired.accuracy_difference)
    reads["scores"] = _read(paired.scores)
    return {"table": table_state(paired._table), "a": state_of_counts(paired._counts_a),
            "b": state_of_counts(paired._counts_b), "reads": reads, "document": paired.to_dict()}


def run(accumulator: Any, call: str, *args: Any, **kwargs: Any) -> Any:
    """Call ``call``: None, or a refusal as (type, message)."""
    try:
        getattr(accumulator, call)(*args, **kwargs)
    except (ValueError, TypeError, KeyError, OverflowError) as error:
        return (type(error).__name__, str(error))
    return None


LABELS = st.sampled_from(["x", "y", "z", 1, True, 2.0, "new"])
SIDES = st.one_of(LABELS, st.frozensets(LABELS, max_size=3), st.lists(LABELS, max_size=3))
WEIGHTS = st.sampled_from([1, 2, 0, 2.0, 2**40, MAX_COUNT - 1, MAX_COUNT, 0.5, -1])
OPTIONS = st.sampled_from([{"categories": ["x", "y"], "unknown": "add"},
                           {"categories": ["x", "y", "z", 1], "unknown": "error"},
                           {"categories": ["x", "y", 2.0], "unknown": "ignore"},
                           {"categories": None}])


@needs_kernel
@settings(max_examples=60, stateful_step_count=20, deadline=None)
class PairedKernelAgainstReference(RuleBasedStateMachine):
    """One PairedComparison on each side, the same stream, every state equal after every step."""

    @initialize(options=OPTIONS)
    def make(self, options: dict[str, Any]) -> None:
        self.options = options
        self.pair = [on_side(side, **options) for side in ("reference", "kernel")]
        self.added: list[tuple[Any, Any, Any]] = []

    def both(self, call: str, *args: Any, **kwargs: Any) -> bool:
        outcomes = [run(accumulator, call, *args, **kwargs) for accumulator in self.pair]
        assert outcomes[0] == outcomes[1]
        return outcomes[0] is None

    @rule(assigned_a=LABELS, assigned_b=LABELS, correct=LABELS)
    def add_single(self, assigned_a: Any, assigned_b: Any, correct: Any) -> None:
        if self.both("add_result", assigned_a, assigned_b, correct):
            self.added.append((assigned_a, assigned_b, correct))

    @rule(assigned_a=SIDES, assigned_b=SIDES, correct=SIDES)
    def add_any(self, assigned_a: Any, assigned_b: Any, correct: Any) -> None:
        if self.both("add_result", assigned_a, assigned_b, correct):
            self.added.append((assigned_a, assigned_b, correct))

    @rule(assigned_a=LABELS, assigned_b=LABELS, correct=LABELS, weight=WEIGHTS)
    def add_weighted(self, assigned_a: Any, assigned_b: Any, correct: Any, weight: Any) -> None:
        self.both("add_result", assigned_a, assigned_b, correct, weight=weight)

    @precondition(lambda self: self.added)
    @rule(index=st.integers(0, 1000))
    def remove_added(self, index: int) -> None:
        result = self.added[index % len(self.added)]
        if self.both("remove_result", *result):
            self.added.remove(result)

    @rule(assigned_a=SIDES, assigned_b=SIDES, correct=SIDES)
    def remove_any(self, assigned_a: Any, assigned_b: Any, correct: Any) -> None:  # often refused
        self.both("remove_result", assigned_a, assigned_b, correct)

    @rule(results=st.lists(st.tuples(LABELS, LABELS, LABELS), max_size=4), arrays=st.booleans(),
          removing=st.booleans())
    def batch(self, results: list[tuple[Any, Any, Any]], arrays: bool, removing: bool) -> None:
        sides: list[Any] = [[result[k] for result in results] for k in range(3)]
        if arrays:
            sides = [np.array([str(label) for label in side], dtype=object) for side in sides]
        self.both("remove_results" if removing else "add_results", *sides)

    @rule(results=st.lists(st.tuples(SIDES, SIDES, SIDES), max_size=3))
    def merge(self, results: list[tuple[Any, Any, Any]]) -> None:
        others = []
        for side in ("reference", "kernel"):
            other = on_side(side, **self.options)
            for result in results:
                run(other, "add_result", *result)
            others.append(other)
        assert state(others[0]) == state(others[1])
        outcomes = [run(mine, "merge", other) for mine, other in zip(self.pair, others)]
        assert outcomes[0] == outcomes[1]

    @rule()
    def merge_itself(self) -> None:
        for accumulator in self.pair:
            run(accumulator, "merge", accumulator)

    @rule()
    def copy_and_pickle(self) -> None:
        """A copy, a pickled twin and a document's twin hold every count."""
        for accumulator in self.pair:
            mine = state(accumulator)
            for twin in (accumulator.copy(), copy.copy(accumulator),
                         pickle.loads(pickle.dumps(accumulator)),
                         PairedComparison.from_dict(accumulator.to_dict())):
                theirs = state(twin)
                for key in ("a", "b"):
                    # (a document numbers the models' categories in their order: compared by
                    # the document and the reads; running sums are made again)
                    for found in (mine, theirs):
                        held = found[key]
                        found[key] = {"cells": [dict(cells) for cells in held["cells"]],
                                      **{name: held[name]
                                         for name in ("n", "shapes", "micro", "pairs")}}
                assert mine == theirs
                assert twin == accumulator

    @rule()
    def read_sums(self) -> None:  # makes running sums, whose pending sets the writes then fill
        for accumulator in self.pair:
            for model in (accumulator.a, accumulator.b):
                _read(lambda model=model: model.macro_f1)

    @rule()
    def reset(self) -> None:
        for accumulator in self.pair:
            accumulator.reset()
        self.added.clear()

    @invariant()
    def same_state(self) -> None:
        if hasattr(self, "pair"):
            reference, kernel = (state(accumulator) for accumulator in self.pair)
            assert reference == kernel


TestPairedKernelAgainstReference = needs_kernel(PairedKernelAgainstReference.TestCase)


@pytest.mark.parametrize("side", SIDES_OF)
def test_a_result_past_the_limit_leaves_all_three_unchanged(side: str) -> None:
    """Every count is checked before any is written: a refused result changes neither model nor
    the paired table, on the fast path and the general one."""
    paired = on_side(side, ["x", "y"])
    paired.add_result("x", "y", "x", weight=MAX_COUNT - 1)
    paired.add_result("y", "y", "y")
    before = state(paired)
    for result in (("x", "x", "x"), ("x", "y", "y"), ({"x"}, "y", "x")):
        with pytest.raises(ValueError, match=r"at most 2\*\*63 - 1"):
            paired.add_result(*result)
        assert state(paired) == before
    assert paired.n_results == MAX_COUNT


@pytest.mark.parametrize("side", SIDES_OF)
def test_the_table_at_the_limit_refuses_count_one_whole(side: str) -> None:
    table = KERNEL.KernelPairedCounts() if side == "kernel" else PairedCounts()
    table.apply(([MAX_COUNT - 2, 0, 0, 1], {}, {}, {"x": 1, "y": 1}))
    table.count_one("x", "x", "x")
    before = table_state(table)
    with pytest.raises(ValueError, match="results"):
        table.count_one("x", "y", "z")
    assert table_state(table) == before == table_state(table.copy())


@needs_kernel
@given(triples=st.lists(st.tuples(LABELS, LABELS, LABELS), max_size=20))
@example(triples=[("x", "y", "z"), ("x", "x", "z"), ("z", "y", "z"), (1, True, 2.0),
                  (True, 1, 1.0), ("y", "y", "y")])
def test_count_one_kernel_equals_reference(triples: list[tuple[Any, Any, Any]]) -> None:
    """The two tables' count_one (the reference's: apply of set_changes) on the same results:
    the same counts after each, the histogram of totals included; then each result taken back
    through apply: the same counts again, down to empty tables."""
    tables = [PairedCounts(), KERNEL.KernelPairedCounts()]
    for correct, assigned_a, assigned_b in triples:
        for table in tables:
            table.count_one(correct, assigned_a, assigned_b)
        assert table_state(tables[0]) == table_state(tables[1])
    for correct, assigned_a, assigned_b in triples:
        changes = set_changes([((frozenset([assigned_a]), frozenset([assigned_b]),
                                 frozenset([correct])), -1)])
        for table in tables:
            table.apply(changes, removing=True)
        assert table_state(tables[0]) == table_state(tables[1])
    assert table_state(tables[1]) == table_state(KERNEL.KernelPairedCounts())


@needs_kernel
@given(steps=st.lists(st.tuples(st.tuples(*[st.integers(-2, 2)] * 4),
                                st.dictionaries(LABELS, st.integers(-2, 2), max_size=3),
                                st.dictionaries(LABELS, st.integers(-2, 2), max_size=3),
                                st.dictionaries(LABELS, st.integers(-2, 2), max_size=3),
                                st.booleans()), max_size=12))
@example(steps=[((0, 1, 1, 0), {"x": 1}, {"y": 2}, {}, False),
                ((0, -1, 0, 0), {"x": -1}, {}, {}, True),  # y's total 2 > 1 result left
                ((0, 0, 0, 0), {"y": 1}, {}, {}, False)])  # more wrong than results: refused
def test_apply_kernel_equals_reference(steps: list[Any]) -> None:
    """apply (and its checks) of arbitrary changes, most of them impossible: the same refusals
    (type and message) and the same counts after each."""
    tables = [PairedCounts(), KERNEL.KernelPairedCounts()]
    for cells, only_a, only_b, both_wrong, removing in steps:
        changes = (list(cells), only_a, only_b, both_wrong)
        outcomes = [run(table, "apply", changes, removing=removing, where="here")
                    for table in tables]
        assert outcomes[0] == outcomes[1]
        assert table_state(tables[0]) == table_state(tables[1])


@pytest.mark.parametrize("side", SIDES_OF)
def test_a_table_pickles_as_the_loading_process_implementation(side: str) -> None:
    from contingency._backend import PairedCountsClass

    table = KERNEL.KernelPairedCounts() if side == "kernel" else PairedCounts()
    for triple in [("x", "y", "z"), (1, True, 2.0), ("y", "y", "x")]:
        table.count_one(*triple)
    twin = pickle.loads(pickle.dumps(table))
    assert type(twin) is PairedCountsClass
    assert table_state(twin) == table_state(table)
    rebuilt = rebuild_paired_counts(*reduce_paired_counts(table)[1])
    assert table_state(rebuilt) == table_state(table)


@pytest.mark.parametrize("side", SIDES_OF)
def test_a_row_no_model_is_wrong_about_any_more_is_dropped(side: str) -> None:
    """Adding and taking back a result leaves the table as it was (no zero row is kept; the
    kernel's freed code serves the next category)."""
    paired = on_side(side)
    paired.add_result("x", "x", "x")
    before = table_state(paired._table)
    paired.add_result("y", "z", "w")
    paired.remove_result("y", "z", "w")
    assert table_state(paired._table) == before
    assert paired._table.labels() == []
    paired.add_result("v", "x", "x")
    assert paired.paired_table("v") == (1, 0, 1, 0)
    assert sorted(paired._table.labels()) == ["v", "x"]
