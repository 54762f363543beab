"""Proof under abuse (issue 14): every score in its range, every count in its limit, one rule for labels.

Each test here failed on the main branch before the change it guards.
"""

from __future__ import annotations

import itertools
import json
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from contingency import Contingency, PartitionComparison
from contingency.formulas import classification
from contingency.formulas.partition._expected import expected_mutual_information_and_terms

# Out of range: correlations ----------------------------------------------------------------


def _mcc_exact(a: int, b: int, c: int, d: int) -> float:
    """Matthews correlation from exact fractions: sign(cov) * sqrt(cov**2 / margins)."""
    covariance = a * d - b * c
    margins = (a + b) * (a + c) * (d + b) * (d + c)
    size = math.sqrt(Fraction(covariance * covariance, margins))
    return size if covariance >= 0 else -size


def test_matthews_corrcoef_of_every_small_table_is_in_range_and_close_to_exact() -> None:
    # Every table with cells 0..11 (20736 tables; 22 of them were below -1 before).
    for a, b, c, d in itertools.product(range(12), repeat=4):
        value = float(classification.matthews_corrcoef(a, b, c, d))
        assert -1.0 <= value <= 1.0, (a, b, c, d, value)
        if (a + b) * (a + c) * (d + b) * (d + c):
            assert value == pytest.approx(_mcc_exact(a, b, c, d), rel=4e-16, abs=0), (a, b, c, d)


def test_matthews_corrcoef_of_disjoint_multilabel_result_is_minus_one() -> None:
    s = Contingency()
    s.add_result({"a", "b", "c"}, {"d", "e", "f", "g"})
    assert s.matthews_corrcoef("micro") == -1.0  # scikit-learn gives -1.0 too; it was -1.0000000000000002


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
    assert s.matthews_corrcoef("micro") == pytest.approx(_mcc_exact(a, b, c, d), rel=4e-16)
    assert s.micro_precision == pytest.approx(float(Fraction(a, a + b)), rel=1e-15)
    assert s.micro_f1 == pytest.approx(float(Fraction(2 * a, 2 * a + b + c)), rel=1e-15)
    assert s.micro_accuracy == pytest.approx(float(Fraction(a + d, a + b + c + d)), rel=1e-15)
    assert Contingency.from_dict(s.to_dict()) == s


# Integers too long to print (issue 21): one digit limit, the library's message ---------------

HUGE = 10**5000  # past Python's default limit of 4300 digits for int -> str
TOO_LONG = r"an integer of 5001 digits"


def test_counts_too_long_to_print_are_refused_with_the_library_s_message() -> None:
    s = Contingency().add_results(["x"], ["x"])
    before = s.to_dict()
    with pytest.raises(ValueError, match=f"^a must be a non-negative integer count of at most 640 "
                                         f"digits, not {TOO_LONG}$"):
        s.set_entries(HUGE, 0, 0, 0)
    with pytest.raises(ValueError, match=f"^add_result: weight = {TOO_LONG} is past the count limit"):
        s.add_result("x", "x", weight=HUGE)
    with pytest.raises(ValueError, match=rf"^add_results: weights\[0\] = {TOO_LONG} is past"):
        s.add_results(["x"], ["x"], weights=[HUGE])
    assert s.to_dict() == before
    p = PartitionComparison.from_labels(["a"], [1])
    with pytest.raises(ValueError, match=rf"^add_many: weights\[1\] = {TOO_LONG} is past"):
        p.add_many(["a", "b"], [1, 2], weights=[1, HUGE])
    assert p == PartitionComparison.from_labels(["a"], [1])


def _documents() -> list[tuple[type, dict[str, object], str]]:
    """Documents with one integer too long to print, and the key the error names."""
    contingency = Contingency(["x"]).add_results(["x"], ["x"]).to_dict()
    partition = PartitionComparison.from_labels(["a", "a"], [1, 2]).to_dict()
    return [
        (Contingency, {**contingency, "a": [HUGE]}, r"a\[0\]"),
        (Contingency, {**contingency, "scale": HUGE}, "scale"),
        (Contingency, {**contingency, "declared": HUGE}, "declared"),
        (Contingency, {**contingency, "micro_offset": [0, -HUGE, 0, 0]}, r"micro_offset\[1\]"),
        (Contingency, {**contingency, "result_shapes": [[1, 1, 1, HUGE]]}, r"result_shapes\[0\]"),
        (Contingency, {**contingency, "confusion": [[0, 0, HUGE]]}, r"confusion\[0\]"),
        (Contingency, {**contingency, "categories": [HUGE]}, r"categories\[0\]"),
        (PartitionComparison, {**partition, "cells": [[0, 0, HUGE], [0, 1, 1]]}, r"cells\[0\]"),
        (PartitionComparison, {**partition, "model_labels": [1, HUGE]}, r"model_labels\[1\]"),
    ]


@pytest.mark.parametrize(("cls", "state", "key"), _documents(),
                         ids=[key for _, _, key in _documents()])
def test_from_dict_refuses_an_integer_too_long_to_print_with_its_own_message(
        cls: type, state: dict[str, object], key: str) -> None:
    with pytest.raises(ValueError, match=f"^from_dict: {key}.*{TOO_LONG}"):
        cls.from_dict(state)


def test_every_path_refuses_an_integer_label_too_long_to_print() -> None:
    message = r"is not a valid label \(an integer label has at most 640 digits\)"
    calls = [
        (lambda: Contingency().add_result(HUGE, "x"), "assigned"),
        (lambda: Contingency().add_result("x", {"y", HUGE}), "correct"),
        (lambda: Contingency().add_results(["x", HUGE], ["x", "x"]), r"assigned\[1\]"),
        (lambda: Contingency().add_results(_object_array(["x", "x"]), _object_array(["x", HUGE])),
         r"correct\[1\]"),
        (lambda: Contingency.from_labels([1, HUGE], [1, 1]), r"y_true\[1\]"),
        (lambda: Contingency([HUGE]), r"categories\[0\]"),
        (lambda: PartitionComparison().add("a", HUGE), "model"),
        (lambda: PartitionComparison().add(("a", -HUGE), 1), "reference"),
        (lambda: PartitionComparison.from_labels(["a", HUGE], [1, 2]), r"reference_labels\[1\]"),
        (lambda: PartitionComparison.from_labels(_object_array([1, 2]), _object_array([2, HUGE])),
         r"model_labels\[1\]"),
        (lambda: PartitionComparison().add_many([(1, HUGE)], [1]), r"reference_labels\[0\]"),
        (lambda: PartitionComparison.from_partitions([[HUGE]], [[HUGE]]), "first partition, subset 0"),
    ]
    for call, where in calls:
        with pytest.raises(ValueError, match=f"^{where}: .*{message}"):
            call()


def test_integer_labels_up_to_the_limit_print_report_and_round_trip_json() -> None:
    longest = -(10**640 - 1)  # 640 digits
    s = Contingency().add_results([longest, 1, (2, longest)], [longest, longest, 1])
    assert longest in s.categories
    s.report()
    s.scores()
    assert Contingency.from_dict(json.loads(json.dumps(s.to_dict(), default=list))) is not None
    p = PartitionComparison.from_labels([longest, 1], [longest, longest])
    p.report()
    assert PartitionComparison.from_dict(json.loads(json.dumps(p.to_dict()))) == p


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
    assert one.categories == (high[2], high[0])  # sorted, as scikit-learn orders labels
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
    with pytest.raises((TypeError, ValueError), match="^assigned " + message):
        Contingency().add_results(["a"], ["a"]).remove_results(value, ["a"])
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
    # Labels with no order between them: numbers first, then strings (category_order).
    assert state["categories"] == [1, 2.5, "a", "b", "c", "d", "e", "f", "g", "k", "m", "p",
                                   "q", "r", "s1", "s2", "x", "y", "z"]
    assert declared["categories"] == ["u", "v", "w"]


# Out of range: shares and normalised scores -----------------------------------------------


def _comparison(table: list[list[int]]) -> PartitionComparison:
    cells = [(i, j, count) for i, row in enumerate(table) for j, count in enumerate(row) if count]
    return PartitionComparison().add_many([c[0] for c in cells], [c[1] for c in cells],
                                          weights=[c[2] for c in cells])


def _check_ranges(comparison: PartitionComparison) -> None:
    unit = {
        "rand_index": comparison.rand_index, "precision": comparison.precision,
        "recall": comparison.recall, "f1": comparison.f1, "jaccard": comparison.jaccard,
        "fowlkes_mallows": comparison.fowlkes_mallows, "purity": comparison.purity,
        "inverse_purity": comparison.inverse_purity, "entropy": comparison.entropy,
        "homogeneity": comparison.homogeneity, "completeness": comparison.completeness,
        "distance": comparison.distance,
        **{f"v_measure({beta})": comparison.v_measure(beta) for beta in (0.0, 0.5, 1.0, 2.0)},
        **{f"nmi({method})": comparison.normalized_mutual_information(method)
           for method in ("arithmetic", "geometric", "min", "max")},
    }
    if comparison.n_elements <= 2**53:  # the index's documented limit
        unit["jaccard_concentration_index"] = comparison.jaccard_concentration_index()
    for name, value in unit.items():
        assert 0.0 <= value <= 1.0, (name, value, comparison.to_dict())
    assert -0.5 <= comparison.adjusted_rand_index <= 1.0
    for method in ("arithmetic", "geometric", "min", "max"):
        value = comparison.adjusted_mutual_information(method)
        assert math.isfinite(value), (method, value)
        assert value <= 1.0, (method, value, comparison.to_dict())
    for value in (comparison.mutual_information(), comparison.entropy_reference(),
                  comparison.entropy_model(), comparison.variation_of_information()):
        assert math.isfinite(value)
        assert value >= 0.0


def test_nmf_entropy_of_two_even_classes_in_one_cluster_is_at_most_one() -> None:
    comparison = PartitionComparison.from_labels(["a"] * 5 + ["b"] * 5, [1] * 10)
    assert comparison.entropy == 1.0  # was 1.0000000000000007


def test_every_share_and_normalised_score_of_every_small_table_is_in_range() -> None:
    for shape, largest in (((1, 2), 9), ((2, 2), 6), ((2, 3), 2), ((3, 3), 1)):
        rows, columns = shape
        for values in itertools.product(range(largest + 1), repeat=rows * columns):
            if any(values):
                _check_ranges(_comparison([list(values[i * columns:(i + 1) * columns])
                                           for i in range(rows)]))


_COUNTS = st.one_of(st.integers(0, 12), st.integers(0, 2**40),
                    st.sampled_from([2**52, 2**53 + 1, 2**58, 2**59 - 1]))


@settings(max_examples=150)
@given(st.integers(1, 4).flatmap(lambda rows: st.lists(
    st.lists(_COUNTS, min_size=rows, max_size=rows), min_size=1, max_size=4)))
@example([[5, 5]])  # R NMF's entropy of two even classes in one cluster was 1.0000000000000007
@example([[2**59 - 1, 1], [1, 2**59 - 1]])
@example([[2**58, 3, 0], [0, 2**58, 7], [1, 1, 2**58]])
def test_scores_of_skewed_and_huge_tables_stay_in_range(table: list[list[int]]) -> None:
    assume(any(any(row) for row in table))
    _check_ranges(_comparison([list(column) for column in zip(*table)]))


# Past the limits: expected mutual information in bounded work ------------------------------


def _expected_decimal(rows: list[int], columns: list[int]) -> float:
    """E[MI] from every term of every pair (those above 1e-45 of the mode), in 40-digit decimals.

    The probabilities are built outward from the mode by the exact ratio of
    neighbouring hypergeometric probabilities, then normalised; each term is
    ``(n / N) ln(n N / (a b))``.
    """
    n = sum(rows)
    with localcontext() as context:
        context.prec = 40
        total = Decimal(0)
        for a, b in itertools.product(rows, columns):
            low, high, mode = max(0, a + b - n), min(a, b), (a + 1) * (b + 1) // (n + 2)
            weights = {mode: Decimal(1)}
            for direction in (1, -1):
                k, weight = mode, Decimal(1)
                while (k < high if direction > 0 else k > low) and weight > Decimal("1e-45"):
                    if direction > 0:
                        weight = weight * (a - k) * (b - k) / ((k + 1) * (n - a - b + k + 1))
                    else:
                        weight = weight * k * (n - a - b + k) / ((a - k + 1) * (b - k + 1))
                    k += direction
                    weights[k] = weight
            terms = (w * k / n * (Decimal(k * n) / (a * b)).ln() for k, w in weights.items() if k)
            total += sum(terms, Decimal(0)) / sum(weights.values(), Decimal(0))
        return float(total)


@pytest.mark.parametrize(("rows", "columns"), [
    ([100000, 100000], [60000, 140000]),
    ([500000, 500000], [300000, 700000]),
    ([123457, 876543, 4000000], [2500000, 2500000]),
    ([20000, 20000, 20000], [30000, 30000]),
    ([900000, 100000], [950000, 50000]),  # wide and narrow pairs
])
def test_expected_mutual_information_of_wide_windows_against_every_term(
        rows: list[int], columns: list[int]) -> None:
    exact = _expected_decimal(rows, columns)
    value, terms = expected_mutual_information_and_terms(rows, columns)
    assert value == pytest.approx(exact, rel=1e-12)
    assert terms <= len(rows) * len(columns) * 2**11  # not one term per possible count


@pytest.mark.parametrize(("rows", "columns"), [
    ([2**62, 2**62 - 1], [2**61, 2**63 - 1 - 2**61]),
    ([2 * 10**13, 2 * 10**13], [10**13, 3 * 10**13]),  # 37 s and 5.6 GB before
    ([2**62, 2**61, 2**61 - 1], [2**63 - 1 - 5 * 10**12, 5 * 10**12]),
    ([2**40] * 6, [3 * 2**40, 2**40, 2**41]),
])
def test_expected_mutual_information_of_huge_tables_is_bounded_work(
        rows: list[int], columns: list[int]) -> None:
    value, terms = expected_mutual_information_and_terms(rows, columns)
    assert terms <= len(set(rows)) * len(set(columns)) * 257
    # E[MI] is about (R - 1)(C - 1) / (2 N) for large N (Vinh et al. 2010).
    n = sum(rows)
    estimate = (len(rows) - 1) * (len(columns) - 1) / (2 * n)
    assert value == pytest.approx(estimate, rel=1e-3)


def test_adjusted_mutual_information_of_a_huge_table_is_finite_and_in_range() -> None:
    comparison = PartitionComparison().add_many([0, 0, 1, 1], [0, 1, 0, 1],
                                                weights=[10**13, 10**13, 10**13, 10**13 + 7])
    value = comparison.adjusted_mutual_information()
    assert math.isfinite(value)
    assert -1.0 <= value <= 1.0
    near_limit = PartitionComparison().add_many([0, 0, 1, 1], [0, 1, 0, 1],
                                                weights=[2**61, 2**61, 2**61, 2**61 - 1])
    assert abs(near_limit.adjusted_mutual_information()) < 1e-6


@pytest.mark.parametrize("table", [[[60000, 40000], [30000, 70000]],
                                   [[50000, 1000, 9000], [20000, 80000, 40000]]])
def test_adjusted_mutual_information_of_wide_windows_matches_scikit_learn(
        table: list[list[int]]) -> None:
    from sklearn.metrics import adjusted_mutual_info_score

    comparison = _comparison(table)
    counts = comparison.contingency_table()[2]
    rows, columns = np.nonzero(counts)
    reference_labels = np.repeat(rows, counts[rows, columns])
    model_labels = np.repeat(columns, counts[rows, columns])
    assert comparison.adjusted_mutual_information() == pytest.approx(
        adjusted_mutual_info_score(reference_labels, model_labels), abs=1e-10)


def test_adjusted_mutual_information_past_2_53_is_a_number() -> None:
    comparison = PartitionComparison().add_many([0, 1, 1], [1, 0, 1],
                                                weights=[2**52, 1, 2**53 + 1])
    assert abs(comparison.adjusted_mutual_information()) < 1e-9  # was NaN


# Balanced accuracy near chance (issue 21) ------------------------------------------------------


def _balanced(hits: list[int], supports: list[int], unit: float | int = 1) -> Contingency:
    """Single-label results: class k is correct in ``supports[k]`` results, ``hits[k]`` of them
    assigned k (the others k + 1), each counted ``unit`` times (an int, or a float weight)."""
    k = len(hits)
    assigned, correct, weights = [], [], []
    for label, (right, total) in enumerate(zip(hits, supports)):
        for chosen, count in ((label, right), ((label + 1) % k, total - right)):
            if count:
                assigned.append(chosen)
                correct.append(label)
                weights.append(count * unit)
    return Contingency(range(k)).add_results(np.array(assigned), np.array(correct),
                                             weights=weights)


def _near_chance(k: int, size: int, adjusted: Fraction) -> tuple[list[int], list[int]]:
    """Hits and supports of ``k`` classes of about ``size`` results whose adjusted balanced
    accuracy is as near ``adjusted`` as the last class's hits can bring it."""
    supports = [size // k + 7 * label + 1 for label in range(k)]
    hits = [max(0, total // k + (-1) ** label * (label % 3)) for label, total in enumerate(supports)]
    rest = 1 + adjusted * (k - 1) - sum(Fraction(a, t) for a, t in zip(hits[:-1], supports[:-1]))
    hits[-1] = min(supports[-1], max(0, round(rest * supports[-1])))
    return hits, supports


def _exact_balanced(hits: list[int], supports: list[int]) -> tuple[Fraction, Fraction]:
    total = sum(Fraction(a, t) for a, t in zip(hits, supports))
    k = len(hits)
    return total / k, (total - 1) / (k - 1)


ADJUSTED_TARGETS = [Fraction(0), Fraction(1, 10**18), Fraction(-33, 10**19), Fraction(1, 10**15),
                    Fraction(-1, 10**12), Fraction(1, 10**9), Fraction(-1, 10**6),
                    Fraction(1, 10**3), Fraction(1, 4), Fraction(-1, 3)]


#: (classes, results, unit): integer counts up to 2**60 results, float weights (each a whole
#: number of quarters, exact below 2**53 quarters) up to 10**12.
BALANCED_GRID = [(k, size, unit) for k in (2, 3, 7, 40) for size in (60, 3 * 10**6, 10**12, 2**60)
                 for unit in (1, 0.25) if unit == 1 or size < 2**50]


@pytest.mark.parametrize(("k", "size", "unit"), BALANCED_GRID)
def test_balanced_accuracy_is_within_1e_12_of_the_exact_value_near_chance(
        k: int, size: int, unit: float) -> None:
    """The adjusted score subtracted 1/K from the rounded mean: near chance it was off by 1.4e-10
    relative at 3 x 10**6 results, 1.3e-4 with weights at 10**12, and 0.0 for 3.3e-18."""
    for target in ADJUSTED_TARGETS:
        hits, supports = _near_chance(k, size, target)
        plain, adjusted = _exact_balanced(hits, supports)
        s = _balanced(hits, supports, unit)
        assert s.balanced_accuracy() == pytest.approx(float(plain), rel=1e-12, abs=0)
        found = s.balanced_accuracy(adjusted=True)
        if adjusted == 0:
            assert found == 0.0, (hits, supports)
        else:
            assert abs(Fraction(found) - adjusted) <= abs(adjusted) * Fraction(1, 10**12), (
                hits, supports, found, float(adjusted))


def test_balanced_accuracy_at_exact_chance_is_zero() -> None:
    # One class always predicted: recall 1 for it, 0 for the others; a uniform guess.
    assert _balanced([9, 0, 0], [9, 5, 3]).balanced_accuracy(adjusted=True) == 0.0
    assert _balanced([10**6, 2 * 10**6, 4 * 10**6],
                     [7 * 10**6] * 3).balanced_accuracy(adjusted=True) == 0.0
    # Recalls summing to exactly 1 that, rounded, do not (it was -3.7e-17).
    assert _balanced([81284761, 3738181, 70402966, 45162874],
                     [200588782] * 4).balanced_accuracy(adjusted=True) == 0.0


def test_grouped_paired_and_dask_paths_refuse_an_integer_label_too_long_to_print() -> None:
    """Issue 31, item 9: a batch took ``10**5000`` as a label, which add_result and to_dict refuse.
    Every batch path codes its labels through one check (``_coding.encode``, which checks each
    distinct label by ``_labels.is_label``), whatever the accumulator or the unknown policy."""
    import dask
    import dask.dataframe as dd
    import pandas as pd

    from contingency import GroupedContingency, PairedComparison
    from contingency.dask import classify

    message = r"is not a valid label \(an integer label has at most 640 digits\)"
    frame = pd.DataFrame({"p": pd.Series([1, HUGE], dtype=object), "t": [1, 1], "g": [1, 2]})
    calls = [
        (lambda: GroupedContingency().add_results([HUGE], [HUGE], groups=["a"]),
         r"assigned\[0\]"),
        (lambda: GroupedContingency([1], unknown="ignore").add_results([1, HUGE], [1, 1],
                                                                       groups=["a", "a"]),
         r"assigned\[1\]"),
        (lambda: GroupedContingency().add_results(_object_array([1, 1]), _object_array([1, HUGE]),
                                                  groups=["a", "b"]), r"correct\[1\]"),
        (lambda: GroupedContingency().add_results([[1], [HUGE]], [1, 1], groups=["a", "b"]),
         r"assigned\[1\]"),
        (lambda: GroupedContingency().add_results([1], [1], groups=[HUGE]), r"groups\[0\]"),
        (lambda: GroupedContingency().add_result(HUGE, 1, group="a"), "assigned"),
        (lambda: GroupedContingency().add_result(1, 1, group=("a", HUGE)), r"group\[1\]"),
        (lambda: PairedComparison().add_results([1], [HUGE], [1]), r"assigned_b\[0\]"),
        (lambda: PairedComparison().add_results([1], [1], [{1, HUGE}]), r"correct\[0\]"),
        (lambda: PairedComparison().add_result(1, 1, HUGE), "correct"),
        (lambda: classify(dd.from_pandas(frame, npartitions=1), assigned="p", correct="t"),
         r"column 'p'\[1\]"),
        (lambda: classify(dd.from_pandas(frame, npartitions=1), assigned="p", correct="t",
                          group="g"), r"assigned\[1\]"),  # (the grouped batch's own name)
        (lambda: classify(dd.from_pandas(frame, npartitions=1), assigned="t", correct="t",
                          group="p"), r"column 'p'\[1\]"),
    ]
    # (dask would cast an object column to strings, and fail on the integer itself)
    with dask.config.set({"scheduler": "sync", "dataframe.convert-string": False}):
        for call, where in calls:
            with pytest.raises(ValueError, match=f"{where}: .*{message}"):
                call()
