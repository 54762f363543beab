"""Proof under abuse (issue 14): every score in its range, every count in its limit, one rule for labels.

Each test here failed on the main branch before the change it guards.
"""

from __future__ import annotations

import itertools
import json
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from contingency import Contingency, PartitionComparison
from contingency.formulas import classification

# Out of range: correlations ----------------------------------------------------------------


def _mcc_exact(a: int, b: int, c: int, d: int) -> float:
    """Matthews correlation from exact fractions: sign(cov) * sqrt(cov**2 / margins)."""
    covariance = a * d - b * c
    margins = (a + b) * (a + c) * (d + b) * (d + c)
    size = math.sqrt(Fraction(covariance * covariance, margins))
    return size if covariance >= 0 else -size


def test_matthews_corrcoef_of_every_small_table_is_in_range_and_close_to_exact() -> None:
    # Every table with cells 0..11 (20736 tables; 166 of them were below -1 before).
    for a, b, c, d in itertools.product(range(12), repeat=4):
        value = float(classification.matthews_corrcoef(a, b, c, d))
        assert -1.0 <= value <= 1.0, (a, b, c, d, value)
        if (a + b) * (a + c) * (d + b) * (d + c):
            assert value == pytest.approx(_mcc_exact(a, b, c, d), rel=4e-16, abs=0), (a, b, c, d)


def test_matthews_corrcoef_of_disjoint_multilabel_result_is_minus_one() -> None:
    s = Contingency()
    s.add_result({"a", "b", "c"}, {"d", "e", "f", "g"})
    assert s.matthews_corrcoef() == -1.0  # scikit-learn gives -1.0 too; it was -1.0000000000000002


@pytest.mark.parametrize("scale", [10**20, 10**155, 10**400])
def test_matthews_corrcoef_of_huge_integer_cells_is_exact_and_finite(scale: int) -> None:
    a, b, c, d = 3 * scale, scale + 7, 2 * scale, 5 * scale + 1
    value = float(classification.matthews_corrcoef(a, b, c, d))
    assert value == pytest.approx(_mcc_exact(a, b, c, d), rel=4e-16)
    assert float(classification.matthews_corrcoef(0, scale, scale, 0)) == -1.0


# Past the limits: one limit, one message, every path ---------------------------------------

LIMIT_MESSAGE = r"the accumulator would hold \d+ .*; at most 2\*\*63 - 1 are supported"
MAX = 2**63 - 1


def test_partition_comparison_from_dict_past_the_limit_has_the_message_of_every_path() -> None:
    # add, add_many and merge: tests/test_partition.py::test_add_refuses_the_element_past_the_count_limit
    state = PartitionComparison().add_many(["a", "a"], ["b", "c"], weights=[MAX - 1, 1]).to_dict()
    for cells in ([[0, 0, MAX - 1], [0, 1, 2]], [[0, 0, 2**63], [0, 1, 1]], [[0, 0, 10**309], [0, 1, 1]]):
        with pytest.raises(ValueError, match="^from_dict: " + LIMIT_MESSAGE):
            PartitionComparison.from_dict({**state, "cells": cells})


def test_contingency_set_entries_merge_and_from_dict_share_the_limit() -> None:
    for count in (2**63, 10**155, 10**309):
        s = Contingency()
        with pytest.raises(ValueError, match=LIMIT_MESSAGE):
            s.set_entries(1, 1, count, 1)
        assert s.micro_table == (0, 0, 0, 0)
        state = Contingency().to_dict()
        state["micro_offset"] = [0, 0, count, 0]
        with pytest.raises(ValueError, match="^from_dict: " + LIMIT_MESSAGE):
            Contingency.from_dict(state)
    left, right = Contingency(), Contingency()
    left.set_entries(MAX, 0, 0, 0)
    right.set_entries(1, 0, 0, 0)
    with pytest.raises(ValueError, match=LIMIT_MESSAGE):
        left.merge(right)
    assert left.micro_table == (MAX, 0, 0, 0)
    state = Contingency().add_results(["x"], ["x"]).to_dict()
    state["a"], state["result_shapes"] = [2**63], [[1, 1, 1, 2**63]]
    with pytest.raises(ValueError, match="^from_dict: " + LIMIT_MESSAGE):
        Contingency.from_dict(state)


def test_contingency_scores_at_the_limit_are_finite_and_exact() -> None:
    s = Contingency()
    s.set_entries(MAX, MAX - 5, 3, MAX)
    s.add_results(["x", "y"], ["y", "y"])
    a, b, c, d = s.micro_table
    assert s.matthews_corrcoef() == pytest.approx(_mcc_exact(a, b, c, d), rel=4e-16)
    assert s.micro_precision == pytest.approx(float(Fraction(a, a + b)), rel=1e-15)
    assert s.micro_f1 == pytest.approx(float(Fraction(2 * a, 2 * a + b + c)), rel=1e-15)
    assert s.micro_accuracy == pytest.approx(float(Fraction(a + d, a + b + c + d)), rel=1e-15)
    assert Contingency.from_dict(s.to_dict()) == s


# Labels --------------------------------------------------------------------------------------


def _not_self_equal_labels() -> list[object]:
    return [float("nan"), np.float64("nan"), np.float32("nan"), complex("nan"),
            complex(1, float("nan")), Decimal("NaN"), (1, float("nan")),
            ("a", (2, Decimal("NaN"))), frozenset({float("nan")})]


def _object_array(values: list[object]) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


@pytest.mark.parametrize("bad", _not_self_equal_labels(), ids=repr)
def test_every_path_refuses_a_label_not_equal_to_itself_naming_the_argument(bad: object) -> None:
    message = r"is not a valid label \(it is not equal to itself\)"
    single = [] if isinstance(bad, (tuple, frozenset)) else [  # a tuple side names categories
        (lambda: Contingency().add_result("x", bad), "correct"),
        (lambda: Contingency().add_result([bad, "x"], "x"), "assigned"),
        (lambda: Contingency().add_results(["x", bad], ["x", "x"]), r"assigned\[1\]"),
        (lambda: Contingency().add_results(_object_array(["x", bad]), _object_array(["x", "x"])),
         r"assigned\[1\]"),
    ]
    calls = [
        *single,
        (lambda: Contingency([bad]), r"categories\[0\]"),
        (lambda: Contingency().add_result({"y": True, bad: True}, "y"), "assigned"),
        (lambda: PartitionComparison().add("a", bad), "model"),
        (lambda: PartitionComparison.from_labels(["a", bad, bad], [1, 2, 2]),
         r"reference_labels\[1\]"),
        (lambda: PartitionComparison.from_labels(_object_array(["a", bad, bad]), [1, 2, 2]),
         r"reference_labels\[1\]"),
        (lambda: PartitionComparison().add_many([1, 2], ["a", bad], weights=[1, 2]),
         r"model_labels\[1\]"),
        (lambda: PartitionComparison.from_partitions([["a"], [bad]], [["a", bad]]),
         "first partition, subset 1"),
    ]
    for call, where in calls:
        with pytest.raises(ValueError, match=f"^{where}: .*{message}"):
            call()


def test_a_label_holding_nan_was_a_new_category_at_every_occurrence() -> None:
    # Two equal-looking tuples built from two NaN objects are two different keys.
    with pytest.raises(ValueError, match="not equal to itself"):
        PartitionComparison.from_labels([(1, float("nan")), (1, float("nan"))], ["a", "a"])
    with pytest.raises(ValueError, match="not equal to itself"):
        PartitionComparison.from_labels(np.array([complex("nan"), complex("nan")]), [1, 1])


def test_numpy_nan_in_float_and_object_arrays_is_refused_alike() -> None:
    for values in (np.array([1.0, np.nan]), _object_array([1.0, np.nan]), [1.0, np.nan],
                   _object_array([1.0, np.float64("nan")])):
        with pytest.raises(ValueError, match=r"^reference_labels\[1\]: NaN is not a valid label"):
            PartitionComparison.from_labels(values, [0, 0])
        with pytest.raises(ValueError, match=r"^correct\[1\]: NaN is not a valid label"):
            Contingency().add_results(np.array(["a", "b"], dtype=object), values)


@pytest.mark.parametrize("dtype", [np.uint64, np.uint32])
def test_large_unsigned_labels_work_in_every_path(dtype: type) -> None:
    high = [2**63, 2**64 - 1, 5] if dtype is np.uint64 else [2**31, 2**32 - 1, 5]
    values = np.array(high * 4, dtype=dtype)
    shifted = np.roll(values, 1)
    loop = Contingency()
    for assigned, correct in zip(values.tolist(), shifted.tolist()):
        loop.add_result(assigned, correct)
    assert Contingency().add_results(values, shifted) == loop
    assert Contingency().add_results(list(values), list(shifted)) == loop
    one = Contingency()
    one.add_result(values[0], shifted[0])
    assert one.categories == (high[0], high[2])
    expected = PartitionComparison.from_labels(values.tolist(), shifted.tolist())
    assert PartitionComparison.from_labels(values, shifted) == expected
    assert PartitionComparison().add_many(values, shifted, weights=np.ones(12, dtype=np.uint64)) \
        == expected
    single = PartitionComparison()
    for reference, model in zip(values, shifted):
        single.add(reference, model)
    assert single == expected
    assert expected.contingency_table()[0] == tuple(sorted(high))


@pytest.mark.parametrize("value", [np.array("a"), np.array(3), 7, None, "ab"], ids=repr)
def test_batch_paths_refuse_non_sequences_naming_the_argument(value: object) -> None:
    message = r"(must be one-dimensional|must be a sequence)"
    with pytest.raises((TypeError, ValueError), match="^assigned " + message):
        Contingency().add_results(value, ["a"])
    with pytest.raises((TypeError, ValueError), match="^correct " + message):
        Contingency().add_results(["a"], value)
    for method in ("add_many", "remove_many"):
        with pytest.raises((TypeError, ValueError), match="^model_labels " + message):
            getattr(PartitionComparison.from_labels(["a"], ["a"]), method)(["a"], value)
    with pytest.raises((TypeError, ValueError), match="^reference_labels " + message):
        PartitionComparison.from_labels(value, ["a"])


_ORDER_SCRIPT = """
import json
from contingency import Contingency
s = Contingency()
s.add_result({"d", "b", 1, 2.5, "a", True, "c"}, {"g", "e", "f"})
s.add_results([{"x", "z", "y"}, "b"], [frozenset({"q", "r", "p"}), {"b": 1, "m": 1, "k": 1}])
s.add_result("b", {"s2", "s1"})
print(json.dumps([s.to_dict(), Contingency({"w", "v", "u"}, unknown="add").to_dict()]))
"""


def test_category_order_does_not_depend_on_the_hash_seed() -> None:
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("0", "1", "2", "12345"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(subprocess.run([sys.executable, "-c", _ORDER_SCRIPT], env=environment,
                                   capture_output=True, text=True, check=True).stdout)
    assert len(outputs) == 1
    state, declared = json.loads(outputs.pop())
    assert state["categories"] == [True, 2.5, "a", "b", "c", "d", "e", "f", "g", "x", "y", "z",
                                   "p", "q", "r", "m", "k", "s1", "s2"]
    assert declared["categories"] == ["u", "v", "w"]
