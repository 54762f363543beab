"""Proof under abuse (issue 14): every score in its range, every count in its limit, one rule for labels.

Each test here failed on the main branch before the change it guards.
"""

from __future__ import annotations

import itertools
import math
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
