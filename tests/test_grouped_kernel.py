"""GroupedContingency's compiled add_result and batch write against Python's: same streams, same state.

contingency/_kernel_grouped.pxi (the kernel's ``add_result``, and its write of
a batch's pairs into every group) and ``contingency._grouped.add_result_reference``
and ``contingency._grouped.write_group_pairs_reference`` (the methods as written
in Python, the specification) are fed the same stream through the public API
(single-label results of known and new groups and categories, weights,
removals, batches added and taken back, with weights, merges, copies and
pickles, results refused at the count limit, unhashable groups); after every
step every group's counts (their running sums' pending sets too), the overall
counts, the score trackers' pending groups and the disparity reads are
compared, and refusals must match (type and message). On the reference (``CONTINGENCY_PURE_PYTHON=1``) both
sides are the method as written; without a built kernel the machine is
skipped. The plain tests below run on either.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from contingency import Contingency, GroupedContingency, _backend
from contingency._grouped import add_result_reference, write_group_pairs_reference
from contingency.formulas._numeric import MAX_COUNT
from tests.test_kernel_counts import needs_kernel, state_of_counts


class ReferenceGrouped(GroupedContingency):
    """GroupedContingency with add_result and the groups' batch write as written in Python (the
    kernel's are in C)."""

    add_result = add_result_reference  # type: ignore[assignment]
    _write_group_pairs = staticmethod(write_group_pairs_reference)


def run(accumulator: Any, call: str, *args: Any, **kwargs: Any) -> Any:
    """Call ``call`` on the accumulator: what it returns (None for the accumulator itself), a
    refusal as (type, message)."""
    try:
        outcome = getattr(accumulator, call)(*args, **kwargs)
    except (ValueError, TypeError, KeyError, OverflowError) as error:
        return (type(error).__name__, str(error))
    return None if isinstance(outcome, GroupedContingency) else outcome


def reads(accumulator: GroupedContingency) -> dict[str, Any]:
    """The disparity reads (which make or refresh the trackers), refusals as (type, message)."""
    found: dict[str, Any] = {}
    for name, call in (("difference", lambda: accumulator.difference("macro_f1")),
                       ("to overall", lambda: accumulator.ratio("micro_f1", "to_overall")),
                       ("argmin", lambda: accumulator.group_argmin(("recall", "x"))),
                       ("max", lambda: accumulator.group_max(("selection_rate", 1)))):
        try:
            value = call()
        except (ValueError, KeyError) as error:
            value = (type(error).__name__, str(error))
        found[name] = repr(value)  # (NaN == NaN as text)
    return found


def state(accumulator: GroupedContingency) -> dict[str, Any]:
    """Every group's counts, the overall counts, the codes and the trackers' pending groups."""
    return {
        "groups": [repr(key) for key in accumulator._groups],
        "codes": [(repr(key), code) for key, code in accumulator._codes.items()],
        "keys": [repr(key) for key in accumulator._keys],
        "counts": [state_of_counts(group._counts) for group in accumulator._groups.values()],
        "overall": state_of_counts(accumulator._overall._counts),
        "pending": {repr(score): sorted(map(repr, tracker.pending))
                    for score, tracker in accumulator._trackers.items()},
    }


LABELS = st.sampled_from(["x", "y", "z", 1, True, 2.0, "new", 1.0, np.str_("x"), np.int64(2)])
GROUPS = st.sampled_from(["a", "b", ("c", 1), 3, 3.0, "fresh", ["unhashable"]])
WEIGHTS = st.sampled_from([1, 2, 0, 0.5, 0.25, 2**40, MAX_COUNT - 1, MAX_COUNT])


@needs_kernel
@settings(max_examples=80, stateful_step_count=30, deadline=None)
class GroupedKernelAgainstReference(RuleBasedStateMachine):
    """One GroupedContingency with each add_result, the same stream, every state equal after
    every step."""

    pair: list[GroupedContingency]

    def __init__(self) -> None:
        super().__init__()
        self.added: list[tuple[Any, Any, Any]] = []
        self.reading = False

    @initialize(categories=st.sampled_from([["x", "y"], None]),
                unknown=st.sampled_from(["add", "error"]), declared=st.booleans(),
                thread_safe=st.booleans())
    def start(self, categories: Any, unknown: Any, declared: bool, thread_safe: bool) -> None:
        groups = ["a", ("c", 1)] if declared else None  # (no categories: an open set)
        self.pair = [cls(categories, groups=groups, unknown=unknown, zero_division=0.0,
                         thread_safe=thread_safe)
                     for cls in (ReferenceGrouped, GroupedContingency)]

    def both(self, call: str, *args: Any, **kwargs: Any) -> Any:
        outcomes = [run(accumulator, call, *args, **kwargs) for accumulator in self.pair]
        assert outcomes[0] == outcomes[1]
        return outcomes[0]

    @rule(assigned=LABELS, correct=LABELS, group=GROUPS)
    def add_single(self, assigned: Any, correct: Any, group: Any) -> None:
        if self.both("add_result", assigned, correct, group=group) is None:
            self.added.append((assigned, correct, group))

    @rule(assigned=LABELS, correct=LABELS, group=GROUPS, weight=WEIGHTS)
    def add_weighted(self, assigned: Any, correct: Any, group: Any, weight: Any) -> None:
        self.both("add_result", assigned, correct, group=group, weight=weight)

    @rule(assigned=LABELS, correct=LABELS, group=GROUPS, times=st.integers(1, 3))
    def add_at_the_limit(self, assigned: Any, correct: Any, group: Any, times: int) -> None:
        """Counts brought to the limit, then unit results: refused, everything unchanged."""
        self.both("add_result", assigned, correct, group=group, weight=MAX_COUNT - 1)
        for _ in range(times):
            self.both("add_result", assigned, correct, group=group)

    @precondition(lambda self: self.added)
    @rule(index=st.integers(0, 1000))
    def remove_added(self, index: int) -> None:
        assigned, correct, group = self.added.pop(index % len(self.added))
        self.both("remove_result", assigned, correct, group=group)

    @rule(assigned=LABELS, correct=LABELS, group=GROUPS,
          weight=st.sampled_from([1, 2, 0.5, 0.25]))
    def remove_any(self, assigned: Any, correct: Any, group: Any, weight: Any) -> None:
        self.both("remove_result", assigned, correct, group=group, weight=weight)  # often refused

    @rule(assigned=st.lists(LABELS, max_size=6), data=st.data())
    def add_batch(self, assigned: list[Any], data: st.DataObject) -> None:
        size = len(assigned)
        correct = data.draw(st.lists(LABELS, min_size=size, max_size=size))
        groups = data.draw(st.lists(st.sampled_from(["a", "b", 3, "other", ("c", 1)]),
                                    min_size=size, max_size=size))
        weights = data.draw(st.none() | st.lists(st.sampled_from([1, 2, 0, 0.5, 2**40]),
                                                 min_size=size, max_size=size))
        if data.draw(st.booleans()):  # numpy arrays of strings (coded without a loop)
            assigned, correct = (np.array([str(label) for label in side], dtype=str)
                                 for side in (assigned, correct))
        outcome = self.both("add_results", assigned, correct, groups=groups, weights=weights)
        if outcome is None and weights is None:
            self.added.extend(zip(assigned, correct, groups))

    @precondition(lambda self: self.added)
    @rule(data=st.data())
    def remove_batch(self, data: st.DataObject) -> None:
        """Take back several results added before, as one batch (or, now and then, one that
        was not added: refused, every group unchanged)."""
        chosen = data.draw(st.lists(st.integers(0, len(self.added) - 1), unique=True,
                                    min_size=1, max_size=5))
        rows = [self.added[index] for index in chosen]
        if data.draw(st.booleans()) and len(rows) > 1:
            rows[-1] = (rows[-1][0], "never", rows[-1][2])  # (never added: refused)
        else:
            for index in sorted(chosen, reverse=True):
                self.added.pop(index)
        assigned, correct, groups = (list(side) for side in zip(*rows))
        self.both("remove_results", assigned, correct, groups=groups)

    @rule(assigned=LABELS, correct=LABELS, group=GROUPS)
    def merge(self, assigned: Any, correct: Any, group: Any) -> None:
        other = GroupedContingency(unknown="add", zero_division=0.0)
        run(other, "add_result", assigned, correct, group=group)
        self.both("merge", other)

    @rule(how=st.sampled_from(["copy", "pickle"]))
    def twins(self, how: str) -> None:
        """Go on with copies (pickled twins) of both: the compiled step on a copy's counts."""
        for accumulator in self.pair:
            accumulator._in_order()  # (a copy is in group order; this puts the original in it)
        before = [state(accumulator) for accumulator in self.pair]
        if how == "copy":
            self.pair = [accumulator.copy() for accumulator in self.pair]
        else:
            self.pair = [pickle.loads(pickle.dumps(accumulator)) for accumulator in self.pair]
        assert isinstance(self.pair[0], ReferenceGrouped)
        after = [state(accumulator) for accumulator in self.pair]
        for mine, twin in zip(before, after):  # (a copy makes its running sums and codes again)
            for states in (mine, twin):
                for made_again in ("pending", "codes", "keys"):
                    states.pop(made_again)
                for counts in (*states["counts"], states["overall"]):
                    counts.pop("stale")
            assert mine == twin

    @rule()
    def read(self) -> None:
        """Make the trackers and the groups' running sums (whose pending sets the writes fill);
        from now on the disparities are read after every step."""
        self.reading = True
        assert [accumulator.by_group("macro_f1") for accumulator in self.pair[:1]] == [
            accumulator.by_group("macro_f1") for accumulator in self.pair[1:]]

    @invariant()
    def same_state(self) -> None:
        reference, kernel = (state(accumulator) for accumulator in self.pair)
        assert reference == kernel
        if self.reading:
            assert reads(self.pair[0]) == reads(self.pair[1])


TestGroupedKernelAgainstReference = GroupedKernelAgainstReference.TestCase


def test_the_kernel_step_is_installed_with_the_kernel() -> None:
    """The compiled add_result and batch write take the methods' place exactly when the kernel
    counts."""
    compiled = GroupedContingency.add_result is not add_result_reference
    assert compiled == (_backend.IMPLEMENTATION == "kernel")
    assert GroupedContingency.add_result.__doc__ == add_result_reference.__doc__
    write = GroupedContingency._write_group_pairs
    assert (write is not write_group_pairs_reference) == (_backend.IMPLEMENTATION == "kernel")
    assert write.__doc__ == write_group_pairs_reference.__doc__


@pytest.mark.parametrize("add", [GroupedContingency.add_result, add_result_reference],
                         ids=["installed", "reference"])
def test_a_result_past_the_limit_changes_nothing(add: Any) -> None:
    """The whole at the count limit refuses the next result of any group, the group's counts,
    the whole's and the trackers' pending groups unchanged."""
    accumulator = GroupedContingency(["x", "y"], groups=["a", "b"])
    accumulator.add_result("x", "y", group="a", weight=MAX_COUNT - 1)
    accumulator.add_result("y", "y", group="b")
    accumulator.difference("micro_f1")  # a tracker, its pending groups empty
    before = state(accumulator)
    for group in ("a", "b"):
        with pytest.raises(ValueError, match="results"):
            add(accumulator, "x", "x", group=group)
        assert state(accumulator) == before
    accumulator.remove_result("y", "y", group="b")
    add(accumulator, "x", "x", group="b")  # room again: counted, the group marked
    assert accumulator.n_results == MAX_COUNT
    assert accumulator.group("b").n_results == 1
    assert state(accumulator)["pending"] == {"'micro_f1'": ["'b'"]}


@needs_kernel
@pytest.mark.parametrize("seed", range(3))
def test_a_long_stream_of_many_groups(seed: int) -> None:
    """Thousands of results over 60 groups (declared and not, forgotten by removals and met
    again), new categories, reads now and then: the same state on both sides throughout."""
    rng = np.random.default_rng([20, seed])
    labels = ["x", "y", "z", 4, 5.0, "late"]
    pair = [cls(["x", "y"], groups=range(10), unknown="add", zero_division=0.0)
            for cls in (ReferenceGrouped, GroupedContingency)]
    added: list[tuple[Any, Any, Any]] = []
    for step in range(3000):
        if added and rng.random() < 0.2:
            result = added.pop(int(rng.integers(len(added))))
            outcomes = [run(accumulator, "remove_result", *result[:2], group=result[2])
                        for accumulator in pair]
        else:
            result = (labels[int(rng.integers(len(labels) - (step < 1500)))],
                      labels[int(rng.integers(len(labels) - (step < 1500)))],
                      int(rng.integers(60)))
            outcomes = [run(accumulator, "add_result", *result[:2], group=result[2])
                        for accumulator in pair]
            added.append(result)
        assert outcomes == [None, None]
        if step % 97 == 0:
            assert reads(pair[0]) == reads(pair[1])
        if step % 500 == 0:
            assert state(pair[0]) == state(pair[1])
    assert state(pair[0]) == state(pair[1])
    assert reads(pair[0]) == reads(pair[1])
    assert pair[0] == pair[1]


def test_groups_share_the_coding_of_the_declared_categories() -> None:
    """The groups are copies of one empty accumulator; on the kernel they hold its category
    coding (one dict for every group) until a category joins one of them, which then holds
    its own. On either core, the others' coding is unchanged."""
    grouped = GroupedContingency(["x", "y"], groups=range(50), unknown="add")
    grouped.add_results(["x", "y"] * 50, ["y", "y"] * 50, groups=list(range(50)) * 2)
    codings = {group: grouped._groups[group]._counts.ids for group in range(50)}
    if _backend.IMPLEMENTATION == "kernel":  # (the reference's copy has its own at once)
        assert len({id(coding) for coding in codings.values()}) == 1
    grouped.add_result("z", "x", group=3)
    assert list(grouped._groups[3]._counts.ids) == ["x", "y", "z"]
    assert all(grouped._groups[group]._counts.ids is codings[group]
               for group in range(50) if group != 3)
    assert all(list(grouped._groups[group]._counts.ids) == ["x", "y"]
               for group in range(50) if group != 3)
    grouped.remove_result("z", "x", group=3)  # z forgotten by group 3 (and by the whole)
    assert grouped == GroupedContingency(["x", "y"], groups=range(50), unknown="add").add_results(
        ["x", "y"] * 50, ["y", "y"] * 50, groups=list(range(50)) * 2)


@needs_kernel
@pytest.mark.parametrize("categories", [["x", "y", "z"], None], ids=["declared", "open"])
@pytest.mark.parametrize("seed", range(2))
def test_batches_of_many_groups(categories: Any, seed: int) -> None:
    """Batches over hundreds of groups (new and met before, declared and not), with and without
    weights, categories new to the whole and to a group, added and taken back (some refused):
    every group's counts equal on both sides after every batch."""
    rng = np.random.default_rng([33, seed])
    labels = np.array(["x", "y", "z", "w", "v"])
    pair = [cls(categories, groups=range(5), unknown="add", zero_division=0.0)
            for cls in (ReferenceGrouped, GroupedContingency)]
    batches: list[tuple[Any, Any, Any]] = []
    for step in range(40):
        size = int(rng.integers(1, 400))
        if batches and rng.random() < 0.3:
            assigned, correct, groups = batches.pop(int(rng.integers(len(batches))))
            if rng.random() < 0.3:  # a result never added: the batch is refused
                correct = correct.copy()
                correct[0] = "never"
            else:
                for accumulator in pair:  # (a tracker: the removal marks its groups)
                    accumulator.by_group("macro_f1")
            outcomes = [run(accumulator, "remove_results", assigned, correct, groups=groups)
                        for accumulator in pair]
        else:
            span = 3 + (step > 20) * 2  # (w and v join late)
            assigned = labels[rng.integers(0, span, size)]
            correct = labels[rng.integers(0, span, size)]
            groups = rng.integers(0, 50 + 10 * step, size)
            weights = rng.integers(0, 3, size) if rng.random() < 0.3 else None
            outcomes = [run(accumulator, "add_results", assigned, correct, groups=groups,
                            weights=weights) for accumulator in pair]
            if weights is None:
                batches.append((assigned, correct, groups))
        assert outcomes[0] == outcomes[1]
        assert state(pair[0]) == state(pair[1])
        if step % 7 == 0:
            assert reads(pair[0]) == reads(pair[1])
        if step % 9 == 4:  # macro F1's coupling term in every group (its writes note pairs)
            intervals = [repr(accumulator.interval_by_group("macro_f1", method="delta"))
                         for accumulator in pair]
            assert intervals[0] == intervals[1]
        if step % 11 == 5:  # a group's counts finer than a result (the reference's storage)
            group = int(groups[0])
            for accumulator in pair:
                accumulator.add_result("x", "y", group=group, weight=0.5)
                accumulator.add_result("x", "y", group=group, weight=0.5)  # (whole again)
                accumulator.add_result("y", "x", group=group, weight=0.25)
            batches = [batch for batch in batches if group not in batch[2]]
    assert pair[0] == pair[1]


@pytest.mark.parametrize("thread_safe", [False, True])
def test_new_groups_made_in_bulk_are_copies(thread_safe: bool) -> None:
    """The kernel's bulk copies (one copy() cloned in C) and the reference's (copy() each) are
    equal to the original, independent of it and of each other, fed alike they stay alike, and
    a locked accumulator's copies each have a lock of their own."""
    from contingency import Contingency
    from contingency._grouped import _copies, copies_reference

    template = Contingency(["x", "y"], unknown="add", zero_division=0.0, thread_safe=thread_safe)
    made, expected = _copies(template, 40), copies_reference(template, 40)
    assert len(made) == 40
    assert all(type(copy) is type(template) for copy in made)
    assert len({id(copy._counts) for copy in made}) == 40
    if thread_safe:
        assert len({id(copy._lock) for copy in made}) == 40  # type: ignore[attr-defined]
    for index, (copy, twin) in enumerate(zip(made, expected)):
        assert copy == template
        for accumulator in (copy, twin):
            accumulator.add_result("x", ["y", "x", "z"][index % 3])  # (z joins one of them)
            if index % 4 == 0:
                accumulator.add_result("y", "y", weight=0.5)  # (finer counts)
        assert state_of_counts(copy._counts) == state_of_counts(twin._counts)
        assert pickle.loads(pickle.dumps(copy)) == twin
    assert template == Contingency(["x", "y"], unknown="add", zero_division=0.0)
    assert state_of_counts(template._counts) == state_of_counts(
        Contingency(["x", "y"], unknown="add", zero_division=0.0)._counts)


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_first_rows_on_both(seed: int) -> None:
    """The kernel's first row of each wanted group code is the reference's (numpy) one."""
    from contingency import _kernel  # type: ignore[attr-defined]
    from contingency._coding import first_rows_reference

    rng = np.random.default_rng([33, 1, seed])
    groups = int(rng.integers(1, 3000))
    # (codes outside 0..groups-1 are no code: skipped by both)
    codes = rng.integers(-3, groups + 3, int(rng.integers(0, 20000)))
    wanted = rng.random(groups) < rng.random()
    assert _kernel.first_rows(codes, wanted).tolist() == first_rows_reference(
        codes, wanted).tolist()


@needs_kernel
@pytest.mark.parametrize(("cls", "name"), [
    ("GroupedContingency", "_overall"), ("GroupedContingency", "_groups"),
    ("GroupedContingency", "_trackers"), ("Contingency", "_counts"),
    ("Contingency", "_unknown"), ("Contingency", "_zero_division"), ("Contingency", "_verbose"),
    ("Counts", "declared"), ("Counts", "offset"), ("PartitionComparison", "_table")])
def test_every_slot_the_kernel_reads_in_place_is_found(cls: str, name: str) -> None:
    """The slots the kernel reads by their offset (the grouped step, the copies, the pickle,
    the partition reads) are found whichever class of the MRO declares them: a memo's slot in a
    base class (``_trackers``) was missed, so each grouped add_result looked it up by getattr
    (about 10 ns a result: 1.32x plain at 10 groups became 1.46x)."""
    import contingency
    from contingency._counts import Counts
    from tests.compiled import compiled

    classes = {"Counts": Counts, **{attribute: getattr(contingency, attribute) for attribute in
                                    ("GroupedContingency", "Contingency", "PartitionComparison")}}
    slot_offset = compiled("slot_offset")
    offset = slot_offset(classes[cls], name)
    assert offset > 0
    instance = {"Counts": lambda: Contingency(["x"])._counts,
                "GroupedContingency": lambda: GroupedContingency(["x"]),
                "Contingency": lambda: Contingency(["x"]),
                "PartitionComparison": contingency.PartitionComparison}[cls]()
    descriptor = next(base.__dict__[name] for base in type(instance).__mro__
                      if name in base.__dict__)
    assert descriptor.__get__(instance) is getattr(instance, name)
