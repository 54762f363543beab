"""Contingency: behaviour, invariants and an independent oracle."""

from __future__ import annotations

import copy
import json
import math
import pickle
import re
from collections import OrderedDict

import attrs
import numpy as np
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from contingency import (
    Contingency,
    GroupedContingency,
    IntervalRefused,
    PairedComparison,
    PartitionComparison,
)
from contingency._backend import IMPLEMENTATION
from contingency._contingency import _OrderMemo
from contingency._labels import sorted_labels
from tests.refusals import refused_unchanged
from tests.strategies import categories, categories_and_results, results

# An independent oracle: Statistics::Contingency 0.09's code, transliterated line by line.


def perl_invert(x: float, y: float) -> float:
    if not y:
        return 1
    if not x:
        return 0
    return 1 / (1 + y / x)


def perl_scores(a: int, b: int, c: int, d: int) -> dict[str, float]:
    precision = 0 if (c and not a and not b) else perl_invert(a, b)
    any_cell = a or b or c or d
    return {
        "precision": float(precision),
        "recall": float(perl_invert(a, c)),
        "f1": float(perl_invert(2 * a, b + c)),
        "accuracy": float((a + d) / (a + b + c + d)) if any_cell else 1.0,
        "error": float((b + c) / (a + b + c + d)) if any_cell else 0.0,
    }


def brute_force_tables(cats, stream):
    """Per-category (a, b, c, d) from the raw results, by the definition."""
    tables = {}
    for cat in cats:
        a = sum(1 for assigned, correct in stream if cat in assigned and cat in correct)
        b = sum(1 for assigned, correct in stream if cat in assigned and cat not in correct)
        c = sum(1 for assigned, correct in stream if cat not in assigned and cat in correct)
        tables[cat] = (a, b, c, len(stream) - a - b - c)
    return tables


def streamed(cats, stream, **options):
    s = Contingency(cats, **options)
    for assigned, correct in stream:
        s.add_result(list(assigned), list(correct))
    return s


def indicators(cats, stream):
    index = {cat: k for k, cat in enumerate(cats)}
    predicted = np.zeros((len(stream), len(cats)), dtype=np.int64)
    truth = np.zeros_like(predicted)
    for row, (assigned, correct) in enumerate(stream):
        for cat in assigned:
            predicted[row, index[cat]] = 1
        for cat in correct:
            truth[row, index[cat]] = 1
    return predicted, truth


# Invariants ----------------------------------------------------------------------------------


@given(categories_and_results())
def test_micro_and_macro_equal_perl_code_on_brute_force_tables(case):
    cats, stream = case
    s = streamed(cats, stream)
    tables = brute_force_tables(cats, stream)
    micro = tuple(sum(t[i] for t in tables.values()) for i in range(4))
    assert s.micro_table == micro
    expected = perl_scores(*micro)
    assert s.micro_precision == expected["precision"]
    assert s.micro_recall == expected["recall"]
    assert s.micro_f1 == expected["f1"]
    assert s.micro_accuracy == expected["accuracy"]
    assert s.micro_error == expected["error"]
    per_category = {cat: perl_scores(*t) for cat, t in tables.items()}
    for name in ("precision", "recall", "f1", "accuracy", "error"):
        mean = math.fsum(v[name] for v in per_category.values()) / len(cats)
        assert getattr(s, f"macro_{name}") == pytest.approx(mean, rel=1e-15, abs=1e-15)
    stats = s.category_stats()
    for cat, (a, b, c, d) in tables.items():
        assert (stats[cat]["a"], stats[cat]["b"], stats[cat]["c"], stats[cat]["d"]) == (a, b, c, d)
        for name, value in per_category[cat].items():
            assert stats[cat][name] == value
        assert stats[cat]["support"] == a + c


@given(categories_and_results())
def test_streaming_batch_indicator_and_merged_states_are_identical(case):
    cats, stream = case
    one_by_one = streamed(cats, stream)
    batch = Contingency(cats).add_results([list(a) for a, _ in stream], [list(c) for _, c in stream])
    predicted, truth = indicators(cats, stream)
    matrix = Contingency(cats).add_results(predicted, truth)
    middle = len(stream) // 2
    merged = streamed(cats, stream[:middle]) + streamed(cats, stream[middle:])
    assert batch == one_by_one
    assert matrix == one_by_one
    assert merged == one_by_one
    assert merged.to_dict() == one_by_one.to_dict()


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32,
                                   np.float64])
@pytest.mark.parametrize("k", [3, 300])  # row sums past 255 need a wider type
def test_indicator_matrices_of_any_dtype_and_layout_count_alike(dtype, k):
    rng = np.random.default_rng(k)
    predicted, truth = (rng.random((40, k)) < 0.5 for _ in range(2))
    predicted[0], truth[0] = True, True  # a row with every category: k labels on each side
    expected = Contingency(range(k)).add_results(
        [np.flatnonzero(row).tolist() for row in predicted],
        [np.flatnonzero(row).tolist() for row in truth])
    for layout in ("C", "F"):
        found = Contingency(range(k)).add_results(np.array(predicted, dtype=dtype, order=layout),
                                                  np.array(truth, dtype=dtype, order=layout))
        assert found == expected
    strided = Contingency(range(k)).add_results(
        np.repeat(predicted.astype(dtype), 2, axis=1)[:, ::2], truth.astype(dtype))
    assert strided == expected


@pytest.mark.parametrize("bad", [-1, 2, 255, -(2**63)])
def test_indicator_values_other_than_0_and_1_are_named(used, bad):
    matrix = np.zeros((3, 2), dtype=np.int64)
    matrix[2, 1] = bad
    _unchanged(used, lambda: used.add_results(matrix, np.zeros((3, 2), dtype=np.int64)),
               ValueError, rf"assigned\[2, 1\] is {bad}; an indicator matrix holds only 0 and 1")
    _unchanged(used, lambda: used.add_results(np.zeros((3, 2)), np.where(matrix != 0, 0.5, 0.0)),
               ValueError, r"correct\[2, 1\] is 0.5;")


@given(categories_and_results(single_label=True))
def test_single_label_fast_path_equals_general_path_and_array_batch(case):
    cats, stream = case
    labels = [str(cat) for cat in cats]  # the fast path takes str labels
    fast = Contingency(labels)
    general = Contingency(labels)
    for assigned, correct in stream:
        fast.add_result(str(assigned), str(correct))
        general.add_result([str(assigned)], {str(correct): 1})
    arrays = Contingency(labels).add_results(
        np.array([str(a) for a, _ in stream], dtype=str), np.array([str(c) for _, c in stream], dtype=str)
    ) if stream else Contingency(labels)
    assert fast == general
    assert arrays == general


@given(categories_and_results(single_label=True), st.lists(st.booleans(), max_size=40),
       st.booleans())
def test_results_read_alone_or_tallied_give_one_state(case, reads, weighted_first):
    """A read after a result sends the next single-label result to the write routine at once;
    without one it is tallied. Whatever the pattern of reads (and with counts in a finer unit,
    where nothing goes direct), every read equals a batch of the results so far."""
    cats, stream = case
    labels = [str(cat) for cat in cats]
    fed = Contingency(labels)
    batch = Contingency(labels)
    if weighted_first and labels:
        fed.add_result(labels[0], labels[0], weight=0.5)
        batch.add_result(labels[0], labels[0], weight=0.5)
    for step, (assigned, correct) in enumerate(stream):
        fed.add_result(str(assigned), str(correct))
        batch.add_results([str(assigned)], [str(correct)])
        if step < len(reads) and reads[step]:
            assert fed.micro_f1 == batch.micro_f1
            assert fed.macro_f1 == batch.macro_f1
    assert fed == batch
    assert fed.to_dict() == batch.to_dict()


_SIDE = st.one_of(
    st.frozensets(st.sampled_from(["x", "y", "z", "new", 7, None, math.nan]), max_size=4),
    st.sampled_from(["x", "y", "new"]),
)


@given(st.lists(st.tuples(_SIDE, _SIDE), max_size=12), st.sampled_from(["error", "ignore", "add"]))
@example([(frozenset({"x", "new"}), frozenset({"x"}))], "error")  # unknown on the assigned side
@example([(frozenset({"x"}), frozenset({"y", "new"}))], "ignore")  # unknown on the correct side
@example([("x", "new"), ("new", "y")], "add")
@example([(frozenset({"x", "new", 7}), frozenset())], "add")  # new ones join sorted
@example([(frozenset(), frozenset()), ("x", "x"), (frozenset(), "x")], "error")
# The tally counts x and y, then takes back a result naming them with an unknown label:
@example([(frozenset({"x", "y"}), frozenset({"x", "z"})),
          (frozenset({"x", "new"}), frozenset({"y", "z"}))], "error")
@example([(frozenset({"x", "y"}), frozenset({"x", "z"})),
          (frozenset({"x", "new"}), frozenset({"y", "z"})), (frozenset({"new", "y"}), "x")], "add")
def test_fast_paths_equal_the_general_path_even_with_unknown_or_invalid_labels(stream, policy):
    """str, set and list results take add_result's fast paths; mappings take the general one.

    A label the table lacks (or None, NaN) must leave the fast path's partial
    tallies undone, so that both accumulators agree after every call, error or not.
    """
    fast = Contingency(["x", "y", "z"], unknown=policy)
    general = Contingency(["x", "y", "z"], unknown=policy)
    for assigned, correct in stream:
        as_given = (assigned if isinstance(assigned, str) else set(assigned),
                    correct if isinstance(correct, str) else _listed(correct))
        outcomes = []
        # The mappings list the labels in the order new categories join: a list's own
        # order, and a set's sorted (its iteration order follows the hash seed).
        as_mappings = tuple(dict.fromkeys([side] if isinstance(side, str) else
                                          sorted_labels(side) if isinstance(side, set)
                                          else side, 1)
                            for side in as_given)
        for accumulator, (a, c) in ((fast, as_given), (general, as_mappings)):
            try:
                accumulator.add_result(a, c)
                outcomes.append(None)
            except ValueError as error:
                outcomes.append(str(error).split(":")[0])
        assert outcomes[0] == outcomes[1]
        assert fast == general
        assert fast.to_dict() == general.to_dict()


_NEW_LABEL = st.one_of(st.sampled_from(["p", "q", "r", "s", "t", "u"]), st.integers(0, 5),
                      st.sampled_from([None, math.nan]))


@given(st.lists(st.tuples(_NEW_LABEL, _NEW_LABEL, st.booleans(), st.booleans()), max_size=40),
       st.booleans())
@example([("p", "q", False, False), ("q", None, False, False), ("r", "r", False, False)], False)
@example([(1 << 70, 1 << 70, False, False), ("p", 1 << 70, False, True)], True)
@example([("p", "p", False, False), ("q", "q", False, True), ("r", "p", False, False)], False)
@example([("p", "p", True, True), ("q", "q", False, False), ("q", "p", True, True)], False)
def test_results_naming_new_categories_give_one_state_applied_alone_or_as_batches(
        stream, declared):
    """In an open set, a single-label result naming a new category makes it a category at
    once. Whatever the pattern of reads and refusals, every read equals the results fed one by one
    as batches, and a refused result leaves no trace (its valid new label no category). A
    side given as a one-label list takes add_result's container path, which joins the same way."""
    fed = Contingency(["x"], unknown="add") if declared else Contingency()
    batch = Contingency(["x"], unknown="add") if declared else Contingency()
    seen: list[object] = ["x"] if declared else []
    outcomes: list[str | None] = []
    for assigned, correct, read, listed in stream:
        if isinstance(assigned, int) and assigned > 1 << 60:  # equal, not the same object
            correct = int(str(correct)) if isinstance(correct, int) else correct
        outcomes = []
        sides = ([assigned], [correct]) if listed else (assigned, correct)
        for accumulator, feed in ((fed, lambda a=sides[0], c=sides[1]: fed.add_result(a, c)),
                                  (batch, lambda a=assigned, c=correct: batch.add_results(
                                      [a], [c]))):
            before = accumulator.to_dict() if read else None
            try:
                feed()
                outcomes.append(None)
            except ValueError as error:  # the side named: "correct", "correct[0]"
                outcomes.append(str(error).split(":")[0].split("[")[0])
                if before is not None:
                    assert accumulator.to_dict() == before
        assert outcomes[0] == outcomes[1]
        if outcomes[0] is None:
            seen.extend(label for label in (assigned, correct) if label not in seen)
        if read:
            assert fed.categories == batch.categories
            assert fed.n_results == batch.n_results
            if fed.categories:  # (no category: Perl's die)
                assert fed.macro_f1 == batch.macro_f1
    assert sorted(map(repr, fed.categories)) == sorted(map(repr, seen))
    assert fed.categories == batch.categories
    assert fed == batch
    assert fed.to_dict() == batch.to_dict()
    assert repr(fed) == repr(batch)
    if stream and outcomes[0] is None:  # the last result taken back
        fed.remove_result(stream[-1][0], stream[-1][1])
        batch.remove_results([stream[-1][0]], [stream[-1][1]])
        assert fed.to_dict() == batch.to_dict()


def test_a_stream_of_new_categories_reads_as_one_batch_in_every_form():
    """Every result names a new category and no read comes between."""
    labels = [f"c{i}" for i in range(300)] + list(range(300))
    fed = Contingency()
    for position, label in enumerate(labels):
        fed.add_result(label, labels[position // 2])
    batch = Contingency().add_results(labels, [labels[p // 2] for p in range(len(labels))])
    assert repr(fed) == repr(batch)  # the first read: it folds
    other = Contingency()
    other.add_result("c0", "c0")
    merged = fed + other
    assert fed.categories == batch.categories
    assert sorted(map(repr, fed.categories)) == sorted(map(repr, labels))
    assert fed.category_stats() == batch.category_stats()
    assert merged == batch + other
    assert np.array_equal(fed.confusion_matrix(), batch.confusion_matrix())
    assert fed.to_dict() == batch.to_dict()


def _listed(side):
    return [side] if isinstance(side, str) else sorted(side, key=repr)


def test_merging_an_accumulator_into_itself_doubles_it():
    s = Contingency().add_results([["a", "b"], "a"], ["a", "c"])
    s.add_result("a", "a")
    doubled = Contingency().add_results([["a", "b"], "a", "a"] * 2, ["a", "c", "a"] * 2)
    assert s + s == doubled
    s += s
    assert s == doubled


def _in_form(side: frozenset, form: str):
    """One side of a result in one of the forms add_result takes (str only for one label)."""
    if form == "str" and len(side) == 1:
        return next(iter(side))
    if form == "set":
        return set(side)
    if form == "mapping":
        return {**dict.fromkeys(side, 1), "unused": 0}
    return sorted(side)


_WINDOW_SIDE = st.frozensets(st.sampled_from(["x", "y", "z"]), max_size=3)
_FORM = st.sampled_from(["str", "list", "set", "mapping"])


@given(st.lists(st.tuples(_WINDOW_SIDE, _WINDOW_SIDE, _FORM, _FORM), max_size=40),
       st.integers(1, 5))
@example([(frozenset("x"), frozenset("x"), "str", "str")] * 3, 1)  # right, then removed
@example([(frozenset("x"), frozenset("y"), "str", "str"),
          (frozenset("y"), frozenset("y"), "list", "set")], 1)  # wrong, then removed
def test_sliding_window_in_every_input_form_equals_the_definition(items, window):
    """Results added in any form and removed in another always leave the live window's counts.

    Single labels given as strings take add_result's single-label part of the
    state, removals the general part: only their sum may be observed, by every
    reader, after a merge and after a round trip through to_dict.
    """
    cats = ["x", "y", "z", "unused"]
    s = Contingency(cats)
    live: list[tuple[frozenset, frozenset]] = []
    for assigned, correct, form_assigned, form_correct in items:
        s.add_result(_in_form(assigned, form_assigned), _in_form(correct, form_correct))
        live.append((assigned, correct))
        if len(live) > window:
            gone_assigned, gone_correct = live.pop(0)
            s.remove_result(_in_form(gone_assigned, form_correct),
                            _in_form(gone_correct, form_assigned))
        tables = brute_force_tables(cats, live)
        stats = s.category_stats()
        assert {cat: tuple(stats[cat][cell] for cell in "abcd") for cat in cats} == tables
        assert s.micro_table == tuple(sum(t[i] for t in tables.values()) for i in range(4))
        assert s.n_results == len(live)
        batch = Contingency(cats).add_results([sorted(a) for a, _ in live],
                                              [sorted(c) for _, c in live])
        assert s == batch
        assert s.subset_accuracy == batch.subset_accuracy
    doubled = Contingency(cats).add_results([sorted(a) for a, _ in live] * 2,
                                            [sorted(c) for _, c in live] * 2)
    assert s + s == doubled
    assert Contingency.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for assigned, correct in live:
        s.remove_result(sorted(assigned), sorted(correct))
    assert s == Contingency(cats)
    if live:
        with pytest.raises(ValueError, match="remove_result"):
            s.remove_result(*(sorted(side) for side in live[0]))


@given(categories_and_results())
def test_open_set_equals_declared_set_in_first_seen_order(case):
    _, stream = case
    open_set = streamed(None, stream)
    declared = streamed(list(open_set.categories), stream)
    assert open_set.scores() == declared.scores()
    for name in ("micro_f1", "micro_error", "samples_f1", "hamming_loss"):
        assert getattr(open_set, name) == getattr(declared, name)


@given(categories_and_results(), st.data())
def test_remove_undoes_add_at_every_prefix(case, data):
    cats, stream = case
    s = Contingency(cats)
    states = [s.copy()]
    for assigned, correct in stream:
        s.add_result(assigned, correct)
        states.append(s.copy())
    for k in range(len(stream), 0, -1):
        s.remove_result(*stream[k - 1])
        assert s == states[k - 1]
    assert s == Contingency(cats)


@given(categories_and_results(), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
       st.integers(0, 3))
def test_to_dict_round_trip_is_json_safe_and_identical(case, a, b, c, d):
    cats, stream = case
    s = streamed(cats, stream)
    s.set_entries(a, b, c, d)
    s.add_result(cats[0], cats[-1])
    text = json.dumps(s.to_dict(), allow_nan=False)
    again = Contingency.from_dict(json.loads(text))
    assert again == s
    assert again.to_dict() == s.to_dict()


@given(categories_and_results(min_results=1))
def test_every_query_leaves_the_state_alone(case):
    cats, stream = case
    s = streamed(cats, stream)
    before = s.copy()
    s.report()
    s.stats_table(4)
    s.category_stats()
    s.f_beta(2.0, "samples")
    s.matthews_corrcoef("macro")
    assert s == before


# Perl parity details -----------------------------------------------------------------------------


def test_a_string_is_one_category_and_a_mapping_counts_truthy_keys():
    s = Contingency(["ab", "a", "b"])
    s.add_result("ab", {"ab": 1, "a": 0, "b": ""})
    assert s.category_stats()["ab"]["a"] == 1
    assert s.category_stats()["a"]["d"] == 1
    assert s.n_results == 1


def test_duplicates_in_a_list_count_once():
    s = Contingency(["x", "y"])
    s.add_result(["x", "x", "x"], ["x", "y", "y"])
    assert s.micro_table == (1, 0, 1, 0)


def test_a_mapping_of_categories_declares_its_keys():
    s = Contingency(OrderedDict([("x", 1), ("y", 0)]))
    assert s.categories == ("x", "y")


def test_empty_declared_set_refuses_results_and_has_no_macro():
    s = Contingency([])
    with pytest.raises(ValueError, match="unknown category 'x'"):
        s.add_result("x", "x")
    with pytest.raises(ValueError, match=r"^No category information has been recorded$"):
        _ = s.macro_f1
    with pytest.raises(ValueError, match=r"^No category information has been recorded$"):
        s.category_stats()
    s.set_entries(3, 1, 0, 0)
    assert s.micro_precision == 0.75


def test_set_entries_sets_the_micro_table_and_results_add_to_it():
    s = Contingency(["x", "y"])
    s.add_result("x", "y")
    s.set_entries(5, 0, 0, 5)
    assert s.micro_table == (5, 0, 0, 5)
    s.add_result("x", "x")
    assert s.micro_table == (6, 0, 0, 6)
    assert s.category_stats()["x"]["a"] == 1  # per-category tables are untouched
    assert s.n_results == 2


@pytest.mark.parametrize("bad", [-1, 1.5, 2.0, True, "3", None])
def test_set_entries_refuses_non_counts(bad):
    s = Contingency(["x"])
    with pytest.raises(ValueError, match="must be a non-negative integer count"):
        s.set_entries(1, bad, 0, 0)
    assert s.micro_table == (0, 0, 0, 0)


def test_set_entries_takes_counts_up_to_the_limit_exactly():
    s = Contingency([])
    s.set_entries(2**63 - 1, 2**63 - 1, 0, 1)
    assert s.micro_table == (2**63 - 1, 2**63 - 1, 0, 1)
    assert s.micro_precision == 0.5
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        s.set_entries(10**30, 10**30, 0, 1)  # the limit of every count (test_abuse.py)


def test_unknown_policies():
    ignoring = Contingency(["x"], unknown="ignore")
    ignoring.add_result(["x", "zzz"], "x")
    assert ignoring.categories == ("x",)
    assert ignoring.micro_table == (1, 0, 0, 0)
    adding = Contingency(["x"], unknown="add")
    adding.add_result(["x", "zzz"], "x")
    assert adding.categories == ("x", "zzz")
    assert adding.micro_table == (1, 1, 0, 0)
    with pytest.raises(ValueError, match="unknown must be"):
        Contingency(["x"], unknown="skip")


def test_verbose_prints_one_line_per_result_naming_it(capsys):
    s = Contingency(["x", "y"], verbose=True)
    s.add_result(["x", "y"], "y", name="doc7")
    s.add_result("x", "x")
    assert capsys.readouterr().out == "doc7: assigned=(x y) correct=(y)\n: assigned=(x) correct=(x)\n"


def test_category_joining_late_counts_d_for_earlier_results():
    s = Contingency()
    s.add_result("x", "x")
    s.add_result("x", "x")
    s.add_result("y", "x")
    assert s.category_stats()["y"] == pytest.approx(
        {"a": 0, "b": 1, "c": 0, "d": 2, "precision": 0.0, "recall": 1.0, "f1": 0.0,
         "accuracy": 2 / 3, "error": 1 / 3, "support": 0, "specificity": 2 / 3})


@pytest.mark.parametrize("figs", [0, -1, 1.0, True, "3"])
def test_stats_table_refuses_figs_below_one(figs):
    with pytest.raises(ValueError, match="figs must be an integer >= 1"):
        Contingency(["x"]).stats_table(figs)


# Scores beyond Perl ------------------------------------------------------------------------------


def test_zero_division_modes_on_a_category_never_assigned():
    for mode, expected in (("perl", 0.0), (0.0, 0.0), (1.0, 1.0)):
        s = Contingency(["x", "y"], zero_division=mode).add_results(["x"], ["y"])
        assert s.category_stats()["y"]["precision"] == expected
    s = Contingency(["x", "y"], zero_division="nan").add_results(["x"], ["y"])
    assert math.isnan(s.category_stats()["y"]["precision"])
    assert s.macro_precision == 0.0  # NaN values are skipped, as scikit-learn does
    assert s.scores()["categories"][1]["precision"] is None


@pytest.mark.parametrize("mode", ["perl", 0, 1, "nan", float("nan")])
def test_zero_division_settings_compare_equal(mode):
    assert Contingency(zero_division=mode) == Contingency(zero_division=mode)


@pytest.mark.parametrize("mode", [0.5, "warn", None, True])
def test_zero_division_refuses_other_values(mode):
    with pytest.raises(ValueError, match="zero_division must be"):
        Contingency(zero_division=mode)


def test_f_beta_checks_its_arguments_before_anything():
    s = Contingency(["x"]).add_results(["x"], ["x"])
    with pytest.raises(ValueError, match="average must be one of"):
        s.f_beta(1.0, "mean")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="beta must be a number >= 0"):
        s.f_beta(-1.0)
    with pytest.raises(ValueError, match="average must be one of 'micro', 'macro', 'multiclass'"):
        s.matthews_corrcoef("weighted")


def test_beta_limits_are_precision_and_recall():
    s = Contingency().add_results([["a", "b"], "a", "c"], ["a", "b", "a"])
    assert s.f_beta(0.0, "macro") == s.macro_precision
    assert s.f_beta(math.inf, "macro") == s.macro_recall


def test_scores_are_json_and_report_renders_them():
    s = Contingency(zero_division="nan").add_results([["a", "b"], [], "c"], [["a"], ["b"], "a"])
    scores = s.scores()
    json.dumps(scores, allow_nan=False)
    text = s.report(digits=2)
    assert text.splitlines()[0].split() == ["precision", "recall", "f1", "support"]
    assert [line.split()[0] for line in text.splitlines()[2:5]] == ["a", "b", "c"]
    assert "-" in text.splitlines()[4].split()  # c: never correct, recall undefined in nan mode
    assert "weighted avg" in text
    assert "samples avg" in text


# Merging, copying, resetting -----------------------------------------------------------------------


def test_merge_aligns_categories_and_keeps_left_display():
    left = Contingency(["x"], unknown="add", zero_division=0.0, verbose=True)
    left.add_results(["x"], ["x"])
    right = Contingency(["x"], unknown="add", zero_division=0.0)
    right.add_results(["y"], ["x"])
    returned = left.merge(right)
    assert returned is left
    assert left.categories == ("x", "y")
    assert left.verbose is True  # a display option, not a setting of the counts
    assert left.category_stats()["y"] == pytest.approx(
        {"a": 0, "b": 1, "c": 0, "d": 1, "precision": 0.0, "recall": 0.0, "f1": 0.0,
         "accuracy": 0.5, "error": 0.5, "support": 0, "specificity": 0.5})


@pytest.mark.parametrize(("other", "setting"), [
    (Contingency(["x", "y"], zero_division=0.0), "zero_division"),
    (Contingency(["x", "y"], unknown="ignore"), "unknown"),
    (Contingency(["y", "x"]), "declared categories"),
    (Contingency(["x"]), "declared categories"),
    (Contingency(), "unknown"),
])
def test_merge_refuses_accumulators_whose_settings_differ(other, setting):
    left = Contingency(["x", "y"]).add_results(["x"], ["y"])
    other.add_results(["x"], ["x"])
    before = left.copy()
    for combine in (lambda: left.merge(other), lambda: left + other, lambda: other + left):
        with pytest.raises(ValueError, match=f"cannot merge accumulators whose {setting} differ"):
            combine()
    with pytest.raises(ValueError, match=setting):
        left += other
    assert left == before


def test_plus_returns_a_new_accumulator_and_plus_equals_merges_in_place():
    left = Contingency().add_results(["x"], ["x"])
    right = Contingency().add_results(["y"], ["x"])
    total = left + right
    assert total is not left
    assert (left.n_results, total.n_results) == (1, 2)
    alias = left
    left += right
    assert alias is left
    assert left == total
    with pytest.raises(TypeError, match="can only merge a Contingency"):
        left.merge({"a": 1})


def test_merge_adds_set_entries():
    left, right = Contingency([]), Contingency([])
    left.set_entries(1, 2, 3, 4)
    right.set_entries(10, 20, 30, 40)
    assert (left + right).micro_table == (11, 22, 33, 44)


def test_pickle_round_trip_keeps_every_part_of_the_state():
    """Pickling is how state travels to other processes (Dask workers, say)."""
    s = Contingency(["x", "y"], unknown="add", zero_division=0.0)
    s.add_result("x", "x")  # the single-label part
    s.add_result({"x", "z"}, {"y"})  # the multi-label part, with a new category
    s.add_results(np.array([[1, 0, 1]]), np.array([[1, 1, 0]]))  # the general part
    s.remove_result(["x"], ["x"])  # made up for by the single-label part
    s.set_entries(*(cell + 1 for cell in s.micro_table))
    twin = pickle.loads(pickle.dumps(s))
    assert twin == s
    assert twin.to_dict() == s.to_dict()
    twin.add_result("y", "x")
    assert twin != s


def test_copy_is_independent_and_reset_restores_declared_categories():
    s = Contingency(["x"], unknown="add").add_results([["x", "new"]], ["x"])
    twin = s.copy()
    s.add_result("x", "x")
    assert twin.n_results == 1
    s.set_entries(1, 1, 1, 1)
    s.reset()
    assert s == Contingency(["x"], unknown="add")
    opened = Contingency().add_results(["p"], ["q"])
    opened.reset()
    assert opened.categories == ()



def _fed(accumulator):
    """``accumulator`` after one result (a group's for a GroupedContingency, one per model for a
    PairedComparison), its categories never read."""
    if isinstance(accumulator, GroupedContingency):
        return accumulator.add_results(["x"], ["y"], groups=["g"])
    if isinstance(accumulator, PairedComparison):
        return accumulator.add_results(["x"], ["y"], ["x"])
    return accumulator.add_results(["x"], ["y"])


@pytest.mark.parametrize("make", [lambda: Contingency(unknown="add"),
                                  lambda: Contingency(["x", "y"], thread_safe=True),
                                  lambda: GroupedContingency(unknown="add"),
                                  lambda: PairedComparison()])
def test_a_failing_property_over_an_accumulator_reports_its_own_failure(make):
    """Hypothesis prints a failing example's attrs objects by their init fields (``getattr`` of
    each): a field that is unset (the categories' order, a memo made at the first read) made
    printing raise AttributeError in the final replay, before the test drew anything more, and
    the property's own failure was reported as a FlakyStrategyDefinition. Every init field is
    set, however the accumulator was made, and the property's failure is the one reported."""

    def init_fields_unset(held, where="accumulator"):
        """The init fields unset in ``held``, its attrs fields' values and their dicts' values."""
        if isinstance(held, dict):
            return [unset for value in held.values() for unset in init_fields_unset(value, where)]
        if not attrs.has(type(held)):
            return []
        fields = [field.name for field in attrs.fields(type(held)) if field.init]
        return [f"{where}.{name}" for name in fields if not hasattr(held, name)] + [
            unset for name in fields if hasattr(held, name)
            for unset in init_fields_unset(getattr(held, name), f"{where}.{name}")]

    for accumulator in (make(), _fed(make()), copy.deepcopy(_fed(make())),
                        pickle.loads(pickle.dumps(_fed(make()))),
                        type(make()).from_dict(_fed(make()).to_dict())):
        assert init_fields_unset(accumulator) == []

    @settings(database=None, derandomize=True, max_examples=3, deadline=None,
              phases=[Phase.generate, Phase.shrink])
    @given(st.builds(lambda: _fed(make())), st.data())
    def fails(accumulator, data):
        data.draw(st.integers(0, 3))
        raise AssertionError("the property's own failure")

    with pytest.raises(AssertionError, match="the property's own failure"):
        fails()


def _partition_fed() -> PartitionComparison:
    return PartitionComparison.from_labels([0, 0, 1, 1, 2], [0, 1, 1, 1, 0])


def _read_everything(accumulator):
    """``accumulator`` after the reads that make its memos: the categories' order
    (Contingency), a score's running extremes (GroupedContingency; its new groups' template is
    made by the first write that makes a group),
    McNemar's last read (PairedComparison), the table's sums, pair counts, expected MI and
    cells (PartitionComparison)."""
    if isinstance(accumulator, GroupedContingency):
        accumulator.by_group("micro_f1")
        accumulator.scores()
    elif isinstance(accumulator, PairedComparison):
        accumulator.mcnemar()
        accumulator.scores()
    elif isinstance(accumulator, PartitionComparison):
        accumulator.scores()
        accumulator.adjusted_mutual_information()
        accumulator.adjusted_mutual_information("geometric")
    else:
        accumulator.categories  # noqa: B018 (the read that makes the memo)
        accumulator.confusion_matrix()
        accumulator.scores()
    return accumulator


#: Each attrs accumulator, made as users make it (locked too), then fed.
ATTRS_ACCUMULATORS = [
    pytest.param(lambda: Contingency(unknown="add"), _fed, id="Contingency"),
    pytest.param(lambda: Contingency(["x", "y"], thread_safe=True), _fed, id="Contingency-locked"),
    pytest.param(lambda: GroupedContingency(unknown="add"), _fed, id="GroupedContingency"),
    pytest.param(lambda: PairedComparison(), _fed, id="PairedComparison"),
    pytest.param(lambda: PartitionComparison(), lambda _: _partition_fed(),
                 id="PartitionComparison"),
    pytest.param(lambda: PartitionComparison(thread_safe=True),
                 lambda _: PartitionComparison.from_labels([0, 0, 1, 1, 2], [0, 1, 1, 1, 0],
                                                           thread_safe=True),
                 id="PartitionComparison-locked"),
]


@pytest.mark.parametrize(("make", "feed"), ATTRS_ACCUMULATORS)
def test_what_attrs_lists_of_an_accumulator_is_its_state_never_a_memo(make, feed):
    """``attrs.asdict``, ``attrs.astuple``, ``attrs.fields`` and ``repr`` work on an accumulator
    however made and read, and list the same fields before and after the reads that make its
    memos (caches, not state): ``attrs.asdict(Contingency())`` raised AttributeError on the
    categories' order memo (an attrs field unset until the first read), and once memos were
    made, ``attrs.asdict`` of a PairedComparison or PartitionComparison raised TypeError on the
    named tuples they hold. Reading does not change the pickle either (a PartitionComparison's
    pickle carried its memos)."""
    cls = type(make()).__mro__[1] if make().thread_safe else type(make())
    state = [field.name for field in attrs.fields(cls)]
    made = [make(), feed(make())]
    made += [copy.copy(made[1]), copy.deepcopy(made[1]), pickle.loads(pickle.dumps(made[1])),
             cls.from_dict(made[1].to_dict())]
    for accumulator in made:
        unread_pickle, unread_repr = pickle.dumps(accumulator), repr(accumulator)
        for read in (False, True):
            if read:
                _read_everything(accumulator)
            assert list(attrs.asdict(accumulator, recurse=False)) == state
            assert len(attrs.astuple(accumulator, recurse=False)) == len(state)
            attrs.asdict(accumulator)  # (recursing into the accumulators it holds)
            assert repr(accumulator) == unread_repr
            assert pickle.dumps(accumulator) == unread_pickle
    assert not _MEMOS[cls] & set(state)


#: Each attrs accumulator's memos (caches that reads make): none may be an attrs field.
#: (GroupedContingency's _ordered is not one: whether its groups are in order is its state.)
_MEMOS = {Contingency: {"_ordered"}, GroupedContingency: {"_trackers", "_empty"},
          PairedComparison: {"_last"},
          PartitionComparison: {"_read_sums", "_pairs", "_expected", "_cells", "_precise"}}


# Bad input leaves the accumulator unchanged ------------------------------------------------------


def _unchanged(s: Contingency, call, error, match):
    refused_unchanged(s, call, error, match)


@pytest.fixture
def used():
    s = Contingency(["x", "y"])
    s.add_result("x", "y")
    s.add_result(["x", "y"], "y")
    return s


def test_unknown_category_names_it(used):
    _unchanged(used, lambda: used.add_result(["x", "zzz"], "x"), ValueError,
               r"assigned: unknown category 'zzz'")
    _unchanged(used, lambda: used.add_result("x", "zzz"), ValueError, r"correct: unknown category")


@pytest.mark.parametrize(("label", "error", "match"), [
    (None, ValueError, r"None is not a valid label"),
    (float("nan"), ValueError, r"NaN is not a valid label"),
    ([["x"]], TypeError, r"unhashable"),
    ({"x": 1, None: 1}, ValueError, r"None is not a valid label"),
])
def test_invalid_labels_are_refused_with_their_side_named(used, label, error, match):
    _unchanged(used, lambda: used.add_result(label, "x"), error, "assigned: .*" + match)
    _unchanged(Contingency(), lambda: Contingency().add_result("x", label), error, match)


def test_batch_is_checked_whole_before_counting(used):
    _unchanged(used, lambda: used.add_results(["x", "y", "q"], ["x", "y", "y"]), ValueError,
               r"assigned\[2\]: unknown category 'q'")
    _unchanged(used, lambda: used.add_results(["x", "y"], ["x"]), ValueError,
               r"assigned and correct have different lengths \(2 and 1\)")
    _unchanged(used, lambda: used.add_results(np.array(["x", "q"]), np.array(["x", "y"])),
               ValueError, r"unknown category 'q'")
    _unchanged(used, lambda: used.add_results(np.array(["x"]), np.array(["x", "y"])),
               ValueError, r"different lengths")
    floats = Contingency([1.0, 2.0]).add_results(np.array([1.0]), np.array([2.0]))
    _unchanged(floats, lambda: floats.add_results(np.array([1.0, np.nan]), np.array([1.0, 2.0])),
               ValueError, r"assigned\[1\]: NaN is not a valid label")
    _unchanged(used, lambda: used.add_results("xy", "yx"), TypeError,
               r"assigned must be a sequence of results")
    _unchanged(used, lambda: used.add_results(np.array([[1, 0], [0, 2]]), np.array([[1, 0], [0, 1]])),
               ValueError, r"assigned\[1, 1\] is 2")
    _unchanged(used, lambda: used.add_results(np.ones((2, 3)), np.ones((2, 3))), ValueError,
               r"indicator matrices have 3 columns but the accumulator has 2 categories")


def test_removing_what_was_never_added_is_refused(used):
    _unchanged(used, lambda: used.remove_result("y", "x"), ValueError,
               r"category 'y' has no false positive")
    _unchanged(used, lambda: used.remove_result("q", "x"), ValueError, r"'q' was never recorded")
    fresh = Contingency(["x"])
    fresh.set_entries(0, 0, 0, 0)
    fresh.add_result("x", "x")
    fresh.set_entries(0, 0, 0, 0)
    _unchanged(fresh, lambda: fresh.remove_result("x", "x"), ValueError,
               r"micro table set by set_entries")


@pytest.mark.parametrize(("key", "value", "match"), [
    ("a", [5, 0], r"category 'x' has a \+ b \+ c = 7 but there are only 2 results"),
    ("b", [0, -1], r"b\[1\] must be a non-negative integer count"),
    ("a", [1], r"a must be a list of 2 counts"),
    ("result_shapes", [[1, 1, 1, 2], [1, 1, 1, 1]], r"repeats the shape"),
    ("result_shapes", [[2, 1, 1, 2]], r"not a possible result shape"),
    ("micro_offset", [0, 0, 0, -99], r"makes the micro table negative"),
    ("declared", 3, r"declared is 3 but there are only 2 categories"),
    ("format", "other/1", r"format must be"),
    ("categories", ["x", "x"], r"categories has a repeated label \(.x.\)"),
    ("zero_division", 0.5, r"zero_division must be"),
])
def test_from_dict_refuses_impossible_states(used, key, value, match):
    data = used.to_dict()
    data[key] = value
    with pytest.raises(ValueError, match=match):
        Contingency.from_dict(data)


def test_from_dict_refuses_cells_inconsistent_with_result_shapes(used):
    data = used.to_dict()
    data["a"] = [0, 0]
    with pytest.raises(ValueError, match=r"the a cells add up to 0 but the result shapes say 1"):
        Contingency.from_dict(data)


def test_from_dict_refuses_unknown_and_missing_keys(used):
    data = used.to_dict()
    with pytest.raises(ValueError, match=r"unknown keys \['extra'\]"):
        Contingency.from_dict({**data, "extra": 1})
    del data["micro_offset"]
    with pytest.raises(ValueError, match=r"missing keys \['micro_offset'\]"):
        Contingency.from_dict(data)


def test_to_dict_refuses_labels_json_cannot_carry():
    s = Contingency().add_results([[("a", 1)]], [[("a", 1)]])
    with pytest.raises(ValueError, match=r"\('a', 1\) cannot be written to JSON"):
        s.to_dict()


@given(results(["x", "y", "z"], max_size=10), categories)
@example([], ["a"])
def test_removal_never_leaves_a_partial_update(stream, cats):
    s = streamed(["x", "y", "z"], stream)
    before = s.to_dict()
    try:
        s.remove_result(["x", "y"], ["z"])
    except ValueError:
        assert s.to_dict() == before


@given(st.lists(st.tuples(st.integers(-3, 12), st.integers(-3, 12)), max_size=60),
       st.lists(st.integers(-3, 12), min_size=1, max_size=8, unique=True),
       st.sampled_from(["ignore", "add"]))
def test_integer_label_arrays_equal_the_loop_whatever_the_policy(pairs, cats, policy):
    assigned = np.array([a for a, _ in pairs], dtype=np.int64)
    correct = np.array([c for _, c in pairs], dtype=np.int64)
    batch = Contingency(cats, unknown=policy).add_results(assigned, correct)
    loop = Contingency(cats, unknown=policy)
    for a, c in pairs:
        loop.add_result(a, c)
    assert batch == loop


@given(st.lists(st.tuples(st.sampled_from(["x", "y", 3, "zz"]), st.sampled_from(["x", 3, "w"])),
                max_size=40),
       st.sampled_from(["ignore", "add", "error"]))
def test_object_arrays_of_single_labels_are_coded_as_lists_are(pairs, policy):
    # A numpy object array of labels (an object column's .to_numpy()) is a 1-d batch of single
    # labels: coded in C like a list (it took the per-row path, 18x slower, before), with the
    # same state as the add_result loop, and the same refusals, leaving the state unchanged.
    assigned = np.array([a for a, _ in pairs] + ["x"], dtype=object)
    correct = np.array([c for _, c in pairs] + ["x"], dtype=object)
    loop = Contingency(["x", 3], unknown=policy)
    try:
        for a, c in zip(assigned.tolist(), correct.tolist()):
            loop.add_result(a, c)
    except ValueError:
        refusing = Contingency(["x", 3], unknown=policy)
        _unchanged(refusing, lambda: refusing.add_results(assigned, correct), ValueError,
                   "unknown category")
        return
    assert Contingency(["x", 3], unknown=policy).add_results(assigned, correct) == loop
    assert Contingency(["x", 3], unknown=policy).add_results(list(assigned), list(correct)) == loop


def test_object_arrays_of_single_labels_take_the_coded_path(monkeypatch):
    from contingency import _changes
    monkeypatch.setattr(_changes.Staging, "labels", None)  # the per-row path: not taken
    assigned = np.array(["a", "b", 7, "a"], dtype=object)
    correct = np.array(["a", "a", 7, "b"], dtype=object)
    s = Contingency().add_results(assigned, correct)
    loop = Contingency()
    for a, c in zip(assigned.tolist(), correct.tolist()):
        loop.add_result(a, c)
    assert s == loop
    assert s.micro_f1 == 0.5
    with pytest.raises(ValueError, match=r"assigned\[1\]: None is not a valid label"):
        s.add_results(np.array(["a", None], dtype=object), np.array(["a", "b"], dtype=object))
    sets = np.empty(2, dtype=object)
    sets[:] = [{"a", "b"}, {"a"}]  # rows of label sets: multi-label, not coded
    monkeypatch.undo()
    assert Contingency().add_results(sets, np.array(["a", "b"], dtype=object)).n_results == 2


def test_label_arrays_when_the_confusion_matrix_would_be_too_big():
    k = 3000  # k * k is past the one-bincount limit for 1000 results
    rng = np.random.default_rng(7)
    assigned, correct = rng.integers(0, k, 1000), rng.integers(0, k, 1000)
    batch = Contingency(range(k)).add_results(assigned, correct)
    loop = Contingency(range(k))
    for a, c in zip(assigned.tolist(), correct.tolist()):
        loop.add_result(a, c)
    assert batch == loop


@pytest.mark.parametrize("categories", [[0, 1, 2], [0, 5000], [-5, 3, 0]])
def test_integer_label_arrays_resolve_unknown_labels_as_the_loop_does(categories):
    """Ranges of known labels, sparse ranges, and ranges holding unknown integers."""
    assigned = np.array(categories * 2 + [categories[0]])
    correct = np.array(categories[::-1] * 2 + [7])  # 7 is never a category here
    for policy in ("ignore", "add"):
        loop = Contingency(categories, unknown=policy)
        for a, c in zip(assigned.tolist(), correct.tolist()):
            loop.add_result(a, c)
        assert Contingency(categories, unknown=policy).add_results(assigned, correct) == loop
    refusing = Contingency(categories).add_results(assigned[:-1], correct[:-1])
    _unchanged(refusing, lambda: refusing.add_results(assigned, correct), ValueError,
               r"correct\[\d+\]: unknown category 7")


def test_unsigned_and_offset_integer_labels():
    assigned = np.array([7, 8, 9, 9], dtype=np.uint16)
    correct = np.array([7, 9, 9, 8], dtype=np.uint16)
    s = Contingency([9, 8, 7]).add_results(assigned, correct)
    assert s.category_stats()[9]["a"] == 1
    assert s.micro_table == (2, 2, 2, 6)


# Issue 10's regressions ------------------------------------------------------------------------


def test_a_removal_that_leaves_a_category_named_by_more_results_than_remain_is_refused():
    """Each part of this removal exists, but no added result was ("b", "b") alone."""
    s = Contingency()
    s.add_result("a", "a")
    s.add_result(["a", "b"], ["b"])
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"remove_result: a category would be named by more "
                                         r"results than the 1 that would remain"):
        s.remove_result("b", "b")
    assert s.to_dict() == before
    assert Contingency.from_dict(s.to_dict()) == s
    s.remove_result(["a", "b"], ["b"])
    assert s == Contingency().add_results(["a"], ["a"])


@given(st.lists(st.tuples(_WINDOW_SIDE, _WINDOW_SIDE), max_size=8), _WINDOW_SIDE, _WINDOW_SIDE)
@example([(frozenset("x"), frozenset("x")), (frozenset("xy"), frozenset("y"))], frozenset("y"),
         frozenset("y"))  # was accepted, leaving d = -1 for x
@example([(frozenset(), frozenset()), (frozenset(), frozenset("y")), (frozenset(), frozenset("xy"))],
         frozenset(), frozenset("x"))  # was accepted, leaving y two c cells and one result to give them
@example([(frozenset("xy"), frozenset("x")), (frozenset("z"), frozenset("z"))], frozenset("yz"),
         frozenset("z"))  # was accepted, leaving z fewer a cells than its single-label result gives
def test_every_accepted_removal_leaves_a_state_some_results_make(added, assigned, correct):
    """Whatever is removed, the state left is one that from_dict accepts (no negative cell)."""
    s = Contingency(["x", "y", "z"])
    for a, c in added:
        s.add_result(set(a), set(c))
    before = s.to_dict()
    try:
        s.remove_result(set(assigned), set(correct))
    except ValueError:
        assert s.to_dict() == before
    else:
        assert Contingency.from_dict(s.to_dict()) == s
        assert all(min(stats[cell] for cell in "abcd") >= 0
                   for stats in s.category_stats().values())


def test_an_open_set_forgets_a_category_no_result_names_any_more():
    s = Contingency()
    start = s.to_dict()
    s.add_result("spam", "ham")
    assert s.categories == ("ham", "spam")
    s.remove_result("spam", "ham")
    assert s.categories == ()
    assert s.to_dict() == start
    # In a sliding window, macro averages follow only the categories in the window.
    window = Contingency()
    window.add_result("old", "old")
    window.add_result("new", "other")
    window.remove_result("old", "old")
    assert window.categories == ("new", "other")
    assert window.macro_f1 == Contingency().add_results(["new"], ["other"]).macro_f1


def test_declared_categories_stay_when_their_counts_return_to_zero():
    s = Contingency(["x"], unknown="add")
    s.add_result("x", "y")
    s.remove_result("x", "y")
    assert s.categories == ("x",)
    assert s == Contingency(["x"], unknown="add")


def test_a_removal_refreshes_only_the_categories_it_names():
    s = Contingency([f"c{i}" for i in range(100)])
    s.add_results([f"c{i}" for i in range(100)], [f"c{i}" for i in range(100)])
    assert (s.macro_f1, s.macro_precision, s.macro_recall) == (1.0, 1.0, 1.0)
    s.remove_result("c7", "c7")
    # the running sums kept in Python (on the kernel, the plain means' are in C, kept by the
    # write itself) and the category totals the removal checked
    assert {len(pending) for pending in s._counts.stale} == {1}
    assert len(s._counts.stale) == (1 if IMPLEMENTATION == "kernel" else 4)


def test_a_0_d_array_batch_names_its_argument(used):
    _unchanged(used, lambda: used.add_results(np.array("a"), np.array("a")), ValueError,
               r"assigned must be one-dimensional, not 0-dimensional")


def test_the_mixins_add_no_state_and_their_methods_are_named_contingencys():
    """The scikit-learn-named reads and the reports live in mixins: slotted, and named as
    Contingency's (Merging gives the operators every accumulator has, from merge and copy). One
    more base holds the slot of the categories' order memo, and nothing else."""
    mixins = [base for base in Contingency.__mro__[1:-1] if base is not _OrderMemo]
    assert {mixin.__name__ for mixin in mixins} == {"ScikitLearnReads", "Reports", "Merging",
                                                    "Generic"}
    assert all(vars(mixin)["__slots__"] == () for mixin in mixins)
    assert vars(_OrderMemo)["__slots__"] == ("_ordered",)
    assert [name for name, member in vars(_OrderMemo).items() if callable(member)] == []
    assert not hasattr(Contingency(), "__dict__")
    for mixin in mixins:
        for name, member in vars(mixin).items():
            if callable(member) and not name.startswith("__"):
                assert member.__qualname__ == f"Contingency.{name}", name
    with pytest.raises(TypeError, match=r"^Contingency\.precision\(\) got an unexpected keyword"):
        Contingency().precision(averages="macro")  # type: ignore[call-overload]
    # The reads on the hot path stay the class's own (no lookup through the mixins).
    for name in ("add_result", "micro_f1", "macro_f1", "micro_precision", "macro_precision"):
        assert name in vars(Contingency), name


def _fed_for_reads() -> Contingency:
    return Contingency().add_results([0, 1, 2, 1, 0, 2, 1, 1], [0, 1, 1, 2, 0, 2, 1, 0])


def _some_reads(s: Contingency) -> tuple[object, ...]:
    return (s.micro_f1, s.macro_f1, s.cohen_kappa(), s.matthews_corrcoef(), s.balanced_accuracy(),
            s.interval("micro_f1"))


#: Reads given an argument of the wrong kind (an array of any size or shape, a bool where a
#: flag or number is meant, NaN, infinity, None, a wrong string, a huge int): refused, naming the
#: argument and what it may be.
BAD_READ_ARGUMENTS = [
    *(("matthews_corrcoef", (), {"average": average}, ValueError,
       "matthews_corrcoef: average must be one of 'micro', 'macro', 'multiclass', not ")
      for average in (np.array(["macro", "micro"]), np.array(["macro"]), np.array("macro"), True,
                      math.nan, None, "weighted")),
    *(("balanced_accuracy", (), {"adjusted": adjusted}, TypeError,
       "balanced_accuracy: adjusted must be True or False, not ")
      for adjusted in (np.array([True, False]), np.array([True]), np.array(True), 1, 0, "yes",
                       None, math.nan)),
    *(("cohen_kappa", (), {"weights": weights}, ValueError,
       "cohen_kappa: weights must be one of None, 'linear', 'quadratic', not ")
      for weights in (np.array(["linear", "quadratic"]), np.array(["linear"]), np.array("linear"),
                      True, math.nan, "square")),
    *(("f_beta", (beta,), {"average": average}, ValueError, "^f_beta: beta must be a number >= 0, not ")
      for average in ("macro", None, "micro")
      for beta in (np.array([1.0, 2.0]), np.array([2.0]), np.array(2.0), True, np.True_,
                   math.nan, -1, "2", None)),
    *(("confusion_matrix", (), {"normalize": normalize}, ValueError,
       "confusion_matrix: normalize must be one of None, 'true', 'pred', 'all', not ")
      for normalize in (np.array(["true", "pred"]), np.array(["true"]), np.array("all"), True,
                        math.nan, "rows")),
    *(("multilabel_confusion_matrix", (), {"samplewise": samplewise}, TypeError,
       "multilabel_confusion_matrix: samplewise must be True or False, not ")
      for samplewise in (np.array([False, True]), np.array([False]), 0, None)),
    *(("stats_table", (figs,), {}, ValueError,
       r"^stats_table: figs must be an integer >= 1 \(at most 1074\), not ")
      for figs in (np.array([3, 4]), np.array(3), True, math.nan, 0, 1075, 10**30)),
    *((method, (), {"intervals": level}, ValueError,
       rf"^{method}: intervals must be a number between 0 and 1 \(exclusive\), such as 0.95, not ")
      for method in ("scores", "report")
      for level in (np.array([0.9, 0.95]), np.array([0.9]), np.array(0.9), True, math.nan,
                    math.inf, "0.9", 10**30, 1.5)),
    *(("interval", ("micro_f1",), {"level": level}, ValueError,
       r"^interval: level must be a number between 0 and 1 \(exclusive\), such as 0.95, not ")
      for level in (np.array([0.9, 0.95]), np.array(0.9), True, math.nan, "0.9", 1.5)),
    *(("interval", ("micro_f1",), {"method": method}, ValueError,
       "interval: method must be one of 'wilson', ")
      for method in (np.array(["wilson", "delta"]), np.array(["wilson"]), np.array("wilson"), True,
                     None, "bayes")),
    *(("jaccard", (), {"average": average}, ValueError,
       "^jaccard: average must be one of 'micro', 'macro', 'weighted', 'samples', not ")
      for average in (np.array(["macro", "micro"]), np.array(["macro"]), np.array("macro"), True,
                      None, math.nan, "binary")),
    *((method, args, {"average": average}, ValueError,
       f"^{method}: average must be one of None, 'binary', 'micro', 'macro', 'weighted', "
       "'samples', not ")
      for method, args in (("precision", ()), ("recall", ()), ("f1", ()), ("f_beta", (2.0,)))
      for average in (np.array(["macro", "micro"]), np.array("macro"), True, math.nan, "mean")),
    *((method, args, {"average": "binary", "pos_label": label}, TypeError,
       rf"^{method}: pos_label: label .* is unhashable")
      for method, args in (("precision", ()), ("recall", ()), ("f1", ()), ("f_beta", (2.0,)))
      for label in (np.array([1, 0]), np.array(1), [1])),
    # report's digits, checked by report before anything is read (its renderer's check named none)
    *(("report", (), {"digits": digits, **intervals}, ValueError,
       r"^report: digits must be an integer >= 0 \(at most 1074\), not ")
      for intervals in ({}, {"intervals": 0.95})
      for digits in (np.array([1, 2]), np.array(3), True, np.float64(2.0), math.nan, -1, 1075,
                     10**30, "3", None)),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "error", "message"), BAD_READ_ARGUMENTS)
def test_reads_refuse_arguments_of_the_wrong_kind_by_name(method, args, kwargs, error, message):
    """Each refused by name (numpy's "truth value of an array is ambiguous" and a format's
    "Too many decimal digits" never reach the caller), the accumulator unchanged: its state, and
    the reads after it."""
    s = _fed_for_reads()
    refused_unchanged(s, lambda: getattr(s, method)(*args, **kwargs), error, message, _some_reads)


@pytest.mark.parametrize(("method", "args"), [
    ("precision", ()), ("recall", ()), ("f1", ()), ("f_beta", (2.0,))])
@pytest.mark.parametrize("label", ["z", 2, np.int64(7)])
def test_a_binary_pos_label_the_results_do_not_name_is_refused_naming_the_argument(method, args,
                                                                                  label):
    """As every read taking ``pos_label`` says it: the read, ``pos_label`` and its value, and the
    categories (here those the results name: average='binary' scores one of the two), the
    accumulator unchanged. A declared category no result names is no more one of them."""
    s = Contingency.from_labels([0, 1, 1], [1, 1, 0], categories=[0, 1, 2])
    shown = re.escape(repr(label))  # (np.int64(7) shown as numpy's repr writes it)
    refused_unchanged(
        s, lambda: getattr(s, method)(*args, average="binary", pos_label=label), ValueError,
        rf"^{method}: pos_label={shown} is not a category the results name \(the categories the "
        r"results name are \[0, 1\]\)$",
        lambda s: (s.micro_f1, s.f1("binary"), s.recall("binary", pos_label=0)))


def test_reads_take_numpy_scalars_as_the_python_values_they_hold():
    """``np.str_``, ``np.float64``, ``np.int64`` and ``np.bool_`` where a string, a number or a
    flag is meant read as the Python value (interval's score as a ``np.str_`` was refused)."""
    s = _fed_for_reads()
    assert s.matthews_corrcoef(np.str_("macro")) == s.matthews_corrcoef("macro")
    assert s.balanced_accuracy(np.True_) == s.balanced_accuracy(True)
    assert s.cohen_kappa(weights=np.str_("linear")) == s.cohen_kappa(weights="linear")
    assert (s.interval(np.str_("micro_f1"), level=np.float64(0.9), method=np.str_("jeffreys"))
            == s.interval("micro_f1", level=0.9, method="jeffreys"))
    assert s.interval((np.str_("f1"), 1)) == s.interval(("f1", 1))
    assert s.stats_table(np.int64(2)) == s.stats_table(2)
    assert s.f_beta(np.int64(2), "macro") == s.f_beta(2.0, "macro")
    assert s.f_beta(np.float32(0.5), "macro") == s.f_beta(0.5, "macro")
    assert s.f_beta(10**400, "macro") == s.f_beta(math.inf, "macro")  # (an OverflowError, before)
    assert (s.confusion_matrix(normalize=np.str_("true")) == s.confusion_matrix(normalize="true")).all()
    assert s.scores(intervals=np.float64(0.9)) == s.scores(intervals=0.9)


@pytest.mark.parametrize(("read", "error", "message"), [
    (lambda s: s.confusion_matrix(labels=[0, "z"]), ValueError, r"^confusion_matrix: labels\[1\] = 'z'"),
    (lambda s: s.precision(None, labels=["z"]), ValueError, r"^precision: labels\[0\] = 'z'"),
    (lambda s: s.cohen_kappa(labels=[3, 10**700]), ValueError,
     r"^cohen_kappa: labels\[1\] = an integer of 701 digits"),
    (lambda s: s.interval(("recall", "z")), IntervalRefused, r"^interval\(\('recall', 'z'\)\): 'z'"),
])
def test_a_label_that_is_no_category_is_named_with_the_categories_bounded(read, error, message):
    """Every read that meets a label which is no category says it alike
    (``_labels.not_a_category``): its subject, then the categories as far as a message can bear
    (a thousand were listed in full, and an integer label of 701 digits printed whole)."""
    s = Contingency().add_results(list(range(1000)), list(range(1000)))
    refused_unchanged(s, lambda: read(s), error,
                      message + r" is not a category \(the categories are \[0, 1, 2, 3, 4, 5, "
                      r"\.\.\.\]\)$", lambda s: (s.micro_f1, s.categories[:3]))
