"""contingency._category_sums: running sums over categories equal the sums recomputed from the cells."""

from __future__ import annotations

import math
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contingency import Contingency, _category_sums
from contingency._backend import IMPLEMENTATION
from contingency._category_sums import SCALE_BITS, CategorySums, CategoryTotals, MarginSums
from contingency.formulas import classification
from contingency.formulas._numeric import MAX_COUNT, average

_MODES = ["perl", 0.0, 1.0, "nan"]
_LABELS = ["x", "y", "z", "w"]
_SIDE = st.frozensets(st.sampled_from(_LABELS), max_size=3)
_STEP = st.one_of(
    st.tuples(st.just("add"), _SIDE, _SIDE),
    st.tuples(st.just("add one"), st.sampled_from(_LABELS), st.sampled_from(_LABELS)),
    st.tuples(st.just("remove"), st.integers(0, 50)),
    st.tuples(st.just("merge"), st.lists(st.tuples(_SIDE, _SIDE), max_size=4)),
    st.tuples(st.just("read")),
)


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


def _from_scratch(s: Contingency, name: str, weighted: bool) -> float:
    """The average recomputed from ``category_stats``' cells with the formulas, not the running sums."""
    stats = s.category_stats()
    cells = [[stats[label][cell] for label in stats] for cell in "abcd"]
    values = getattr(classification, name)(*cells, zero_division=s.zero_division)
    weights = [a + c for a, c in zip(cells[0], cells[2])] if weighted else None
    empty = float(getattr(classification, name)(0, 0, 0, 0, zero_division=s.zero_division))
    return average(values, weights, empty=empty)


def _check_against_scratch(s: Contingency) -> None:
    if not s.categories:
        return
    for name in ("precision", "recall", "f1"):
        assert _same(getattr(s, f"macro_{name}"), _from_scratch(s, name, False)), name
        assert _same(getattr(s, f"weighted_{name}"), _from_scratch(s, name, True)), name
    # Macro accuracy and error are the exact means of the exact per-category ratios,
    # rounded once: within an ulp or two of the mean of the rounded per-category values.
    for name in ("accuracy", "error"):
        ours, scratch = getattr(s, f"macro_{name}"), _from_scratch(s, name, False)
        assert _same(ours, scratch) or math.isclose(ours, scratch, rel_tol=1e-15, abs_tol=1e-300)
    cells = (s._counts.a, s._counts.b, s._counts.c)
    for name in ("precision", "recall", "f1"):  # the running state itself, recomputed from the cells
        fresh = CategorySums(cells, name, s.zero_division, weighted=True)
        fresh.stale(s.categories)
        with mock.patch.object(_category_sums, "BULK", 10**9):  # one category at a time
            fresh.refresh()
        # the plain and weighted means' sums (on the kernel kept in C by every write): made by
        # the reads above
        assert s._counts.macro_sums(name, s.zero_division) == (fresh.total, fresh.defined)
        assert s._counts.weighted_sums(name, s.zero_division) == (fresh.weighted, fresh.weight)
    margins = s._counts.margin_sums()  # the confusion matrix's margins, kept from now on
    stats = s.category_stats()
    truth = [row["a"] + row["c"] for row in stats.values()]
    assigned = [row["a"] + row["b"] for row in stats.values()]
    assert (margins.products, margins.truth_squares, margins.assigned_squares) == (
        sum(t * p for t, p in zip(truth, assigned)), sum(t * t for t in truth),
        sum(p * p for p in assigned))
    fresh_margins = MarginSums(cells)
    fresh_margins.stale(s.categories)
    with mock.patch.object(_category_sums, "BULK", 10**9):  # one category at a time
        fresh_margins.refresh()
    assert margins._margins == fresh_margins._margins
    if s._counts.totals is not None:
        s._counts.totals.refresh()
        fresh_totals = CategoryTotals(cells)
        fresh_totals.stale(s.categories)
        fresh_totals.refresh()
        assert s._counts.totals.histograms == fresh_totals.histograms


@given(st.lists(_STEP, max_size=40), st.sampled_from(_MODES), st.booleans())
@example([("add one", "x", "y"), ("read",), ("remove", 0)], "perl", True)
@example([("add", frozenset(), frozenset()), ("add one", "x", "x"), ("remove", 1)], "nan", False)
def test_running_sums_equal_a_computation_from_scratch_after_every_step(steps, mode, declared):
    _stream_checked(steps, mode, declared)


@given(st.lists(_STEP, max_size=40), st.sampled_from(_MODES), st.booleans())
@example([("add one", "x", "y"), ("read",), ("remove", 0)], "nan", True)
@example([("add one", "x", "y"), ("read",), ("remove", 0)], "perl", False)  # y forgotten
def test_refreshing_by_columns_equals_refreshing_one_category_at_a_time(steps, mode, declared):
    # Every refresh scores its categories a column at a time (the first read after a batch of
    # many categories does): the sums must be those of the one-at-a-time refresh, bit for bit.
    with mock.patch.object(_category_sums, "BULK", 1):
        _stream_checked(steps, mode, declared)


def _stream_checked(steps, mode, declared):
    s = Contingency(["x", "y"] if declared else None, unknown="add", zero_division=mode)
    live: list[tuple[frozenset, frozenset]] = []
    for step in steps:
        if step[0] == "add":
            s.add_result(set(step[1]), set(step[2]))
            live.append((step[1], step[2]))
        elif step[0] == "add one":
            s.add_result(step[1], step[2])
            live.append((frozenset([step[1]]), frozenset([step[2]])))
        elif step[0] == "remove" and live:
            assigned, correct = live.pop(step[1] % len(live))
            s.remove_result(sorted(assigned), sorted(correct))
        elif step[0] == "merge":
            other = Contingency(["x", "y"] if declared else None, unknown="add",
                                zero_division=mode)
            other.add_results([sorted(a) for a, _ in step[1]], [sorted(c) for _, c in step[1]])
            s.merge(other)
            live.extend(step[1])
        _check_against_scratch(s)


def test_a_read_refreshes_only_the_categories_changed_since_the_last_read():
    s = Contingency([f"c{i}" for i in range(1000)])
    s.add_results([f"c{i}" for i in range(1000)], [f"c{(i + 1) % 1000}" for i in range(1000)])
    assert (s.macro_precision, s.macro_recall, s.macro_f1) == (0.0, 0.0, 0.0)
    assert s.weighted_f1 == 0.0
    s.add_result("c1", "c1")
    s.add_result("c2", "c3")
    assert s.micro_f1 > 0  # three categories are now stale for every running sum kept in Python
    if IMPLEMENTATION == "kernel":  # the plain and weighted means' sums, in C, kept by every write
        assert s._counts.sums == {}
        assert s.weighted_f1 > 0
        return
    assert set(s._counts.sums) == {"precision perl", "recall perl", "f1 perl", "weighted f1 perl"}
    assert {len(running._changed) for running in s._counts.sums.values()} == {3}
    assert s.weighted_f1 > 0
    assert len(s._counts.sums["weighted f1 perl"]._changed) == 0
    assert s.macro_f1 > 0
    assert len(s._counts.sums["f1 perl"]._changed) == 0
    assert len(s._counts.sums["precision perl"]._changed) == 3  # refreshed only when read
    assert "weighted precision perl" not in s._counts.sums  # made by the first weighted read


def test_the_fixed_point_holds_every_value_exactly_at_the_largest_counts():
    """Values of counts below 2**63 are ratios >= 2**-65: their last bit is above 2**-SCALE_BITS."""
    extreme = [(1, MAX_COUNT - 1, 0), (MAX_COUNT, 1, 0), (1, MAX_COUNT // 3, MAX_COUNT // 3),
               (3, 2**62 + 1, 2**61 + 7)]
    for mode in _MODES:
        for name in ("precision", "recall", "f1"):
            for a, b, c in extreme:
                value = classification.SCALAR[name](a, b, c, 0, mode)
                held = int(value * float(2**SCALE_BITS))
                assert Fraction(held, 2**SCALE_BITS) == Fraction(value)


def test_running_means_are_the_fsum_of_the_values_divided_once():
    s = Contingency(["a", "b", "c"], zero_division=0.0)
    s.add_results(["a", "a", "b", "c", "c", "c"], ["a", "b", "b", "a", "c", "b"])
    values = [s.category_stats()[label]["f1"] for label in "abc"]
    assert s.macro_f1 == math.fsum(values) / 3
    supports = [s.category_stats()[label]["support"] for label in "abc"]
    exact = sum(Fraction(v) * w for v, w in zip(values, supports))
    assert s.weighted_f1 == float(exact) / sum(supports)


def test_nan_mode_averages_only_the_defined_categories():
    s = Contingency(["a", "b", "unused"], zero_division="nan")
    s.add_results(["a", "a"], ["a", "b"])  # precision of b and unused are undefined
    assert s.macro_precision == 0.5
    s.remove_result("a", "b")
    assert s.macro_precision == 1.0
    t = Contingency(["only"], zero_division="nan")
    assert math.isnan(t.macro_precision)


@pytest.mark.parametrize("count", [1, 3, 10**6])
def test_totals_count_categories_above_a_limit(count):
    cells = ({"x": count, "y": 0, "z": 0}, {"x": 0, "y": 1, "z": 0}, {"x": 0, "y": 1, "z": 0})
    totals = CategoryTotals(cells)
    totals.stale(cells[0])
    totals.refresh()
    largest = max(count, 2)
    assert totals.above(1, largest) == (2 if count > 1 else 1)
    assert totals.above(2, largest) == (1 if count > 2 else 0)
    assert totals.above(0, largest) == 2
    assert totals.above(0, largest, kinds=6) == 1  # b + c: only y has any
    assert totals.histogram == {count: 1, 2: 1}
