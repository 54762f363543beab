"""formulas.partition._fine and the accumulator's fine sums: O(1) information reads near independence."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contingency import PartitionComparison
from contingency._running_sums import FineRunningSums, RunningSums, fine_unit_step
from contingency.formulas import partition as formulas
from contingency.formulas.partition import _fine
from tests.decimal_reference import information, relative_error

AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")


def _exact_log(n: int) -> Decimal:
    """``ln n * 2**128`` at 80 digits: the reference of :func:`fine_log`."""
    with localcontext() as context:
        context.prec = 80
        return Decimal(n).ln() * (1 << _fine.FINE_BITS)


def _log_error(n: int) -> Decimal:
    return abs(_fine.fine_log(n) - _exact_log(n))


# fine_log: within LOG_ERROR units of 2**-128, a function of n alone ---------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4095, 4096, 4097, 8191, 2**20 - 1, 10**6 + 1, 2**53 + 1,
                               2**62 + 12345, 2**63 - 1, 2**64 - 1])
def test_fine_log_is_within_its_bound_at_the_edges(n):
    assert _log_error(n) <= _fine.LOG_ERROR


@given(st.integers(1, 2**64 - 1))
@settings(max_examples=300, deadline=None)
def test_fine_log_is_within_its_bound(n):
    assert _log_error(n) <= _fine.LOG_ERROR


def test_fine_log_does_not_depend_on_the_memo():
    values = [3, 5000, 10**9 + 7, 2**61 + 3]
    first = [_fine.fine_log(n) for n in values]
    _fine._MEMO.clear()
    assert [_fine.fine_log(n) for n in reversed(values)] == first[::-1]


def test_the_bound_is_not_loose_by_orders_of_magnitude():
    # The worst case of a sample of large counts uses a fair share of the 48 units: the bound
    # is a real bound, not a guess of 2**40 that would hide a broken series.
    rng = np.random.default_rng(19)
    worst = max(_log_error(int(n)) for n in rng.integers(2**40, 2**63, 200, dtype=np.int64))
    assert 1 <= worst <= _fine.LOG_ERROR


def test_fine_steps_are_differences_of_terms():
    for n in (0, 1, 2, 4095, 10**7):
        assert _fine.fine_step(n, 1) == _fine.fine_n_log_n(n + 1) - _fine.fine_n_log_n(n)
        assert fine_unit_step(n) == _fine.fine_step(n, 1)
    assert _fine.fine_step(10, -3) == _fine.fine_n_log_n(7) - _fine.fine_n_log_n(10)
    assert _fine.fine_step(5, 7) == _fine.fine_n_log_n(12) - _fine.fine_n_log_n(5)


# The fine route of the formulas against the 80-digit oracle ----------------------------------


def _independent_table(n: int, rows: int, columns: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng([seed, n, rows, columns])
    table = np.zeros((rows, columns), dtype=np.int64)
    np.add.at(table, (rng.integers(0, rows, n), rng.integers(0, columns, n)), 1)
    return table.tolist()


def _fine_reads(table):
    sums, fine = formulas.table_sums(table), formulas.fine_sums(table)
    mutual, reference, model, scale = _fine.fine_information(sums, fine)
    given_model, given_reference = _fine.fine_conditionals(sums, fine)
    return {"mutual_information": mutual / scale, "entropy_reference": reference / scale,
            "entropy_model": model / scale, "conditional_reference": given_model,
            "conditional_model": given_reference,
            "nmi_arithmetic": 2 * mutual / (reference + model)}


@pytest.mark.parametrize(("n", "rows", "columns"), [(10**5, 10, 10), (10**5, 30, 300),
                                                    (3 * 10**4, 2, 2), (10**6, 100, 100)])
def test_the_fine_route_agrees_with_the_oracle_near_independence(n, rows, columns):
    table = _independent_table(n, rows, columns, 5)
    exact = information(table)
    for name, value in _fine_reads(table).items():
        assert relative_error(value, exact[name]) <= 2.5e-13, (name, value, exact[name])


def test_the_fine_route_at_huge_skewed_counts():
    table = [[2**62, 3], [5, 2**61 + 7]]
    exact = information(table)
    for name, value in _fine_reads(table).items():
        assert relative_error(value, exact[name]) <= 2.5e-13, name


def test_the_fine_route_declines_what_it_cannot_certify():
    # Exactly independent: MI is 0, and a difference of sums within 192 N units of it is not
    # certified; the entropies are.
    table = [[3, 6], [5, 10]]
    sums, fine = formulas.table_sums(table), formulas.fine_sums(table)
    assert _fine.fine_information(sums, fine) is None
    assert _fine.fine_conditionals(sums, fine) is not None
    assert _fine.fine_entropy(sums, fine, reference=True) is not None
    # And the scores still come out exactly 0 (the cells decide).
    assert formulas.mutual_information(sums, cells=formulas.table_cells(table), fine=fine) == 0.0


def test_a_wrong_fine_sum_changes_the_value():
    # The fine route is what the value comes from: a fine cell sum off by 2**110 units
    # (2**-18 nats over 10**6 elements, far inside what the float sums would notice) moves
    # NMI beyond the accuracy promised.
    table = _independent_table(10**6, 100, 100, 7)
    sums, fine = formulas.table_sums(table), formulas.fine_sums(table)
    exact = information(table)["nmi_arithmetic"]
    good = formulas.normalized_mutual_information(sums, fine=fine)
    assert relative_error(good, exact) <= 2.5e-13
    wrong = fine._replace(cells_n_log_n=fine.cells_n_log_n + 2**110)
    assert relative_error(formulas.normalized_mutual_information(sums, fine=wrong), exact) > 1e-10


# The accumulator: fine sums switched on by a read, stepped by the write path ------------------


def _reads(comparison: PartitionComparison) -> dict[str, float]:
    values = {"mutual_information": comparison.mutual_information(),
              "entropy_reference": comparison.entropy_reference(),
              "entropy_model": comparison.entropy_model(),
              "homogeneity": comparison.homogeneity, "completeness": comparison.completeness,
              "v_measure": comparison.v_measure(), "v_measure_2": comparison.v_measure(2),
              "variation_of_information": comparison.variation_of_information(),
              "nmf_entropy": comparison.entropy}
    for method in AVERAGE_METHODS:
        values[f"nmi_{method}"] = comparison.normalized_mutual_information(method)
    return values


def _check_against_oracle_and_cells(comparison: PartitionComparison) -> None:
    _, _, table = comparison.contingency_table()
    table = table.tolist()
    exact = information(table)
    sums, cells = formulas.table_sums(table), formulas.table_cells(table)
    values = _reads(comparison)
    cell_route = {"mutual_information": formulas.mutual_information(sums, cells=cells),
                  "nmi_arithmetic": formulas.normalized_mutual_information(sums, cells=cells),
                  "v_measure": formulas.v_measure(sums, cells=cells),
                  "variation_of_information": formulas.variation_of_information(sums,
                                                                                cells=cells)}
    for name, value in values.items():
        assert relative_error(value, exact[name]) <= 1e-12, (name, value, exact[name])
        if name in cell_route:
            assert relative_error(value, cell_route[name]) <= 3e-13, name


@pytest.mark.parametrize(("n", "k"), [(10**5, 10), (2 * 10**5, 100), (3 * 10**4, 3)])
def test_accumulator_reads_near_independence_after_adds_removes_and_merges(n, k):
    rng = np.random.default_rng([23, n, k])
    reference, model = rng.integers(0, k, n), rng.integers(0, k, n)
    weights = rng.integers(1, 4, n)
    comparison = PartitionComparison().add_many(reference, model, weights)
    comparison.normalized_mutual_information()
    assert isinstance(comparison._sums, FineRunningSums)  # the float sums could not settle it
    _check_against_oracle_and_cells(comparison)
    for r, m in zip(reference[:50].tolist(), model[:50].tolist()):  # unit steps
        comparison.add(r, m + k)  # new columns too
        comparison.remove(r, m)
    comparison.remove_many(reference[50:200], model[50:200], weights[50:200])  # batch steps
    other = PartitionComparison().add_many(rng.integers(0, k, 1000), rng.integers(0, k, 1000))
    comparison.merge(other)
    _check_against_oracle_and_cells(comparison)
    # Equal, bit for bit, to an accumulator that never had fine sums until its first read.
    fresh = PartitionComparison.from_dict(comparison.to_dict())
    assert type(fresh._sums) is RunningSums
    assert _reads(fresh) == _reads(comparison)
    assert fresh._sums == comparison._sums


def test_copies_and_pickles_keep_correct_fine_sums():
    rng = np.random.default_rng(29)
    comparison = PartitionComparison().add_many(rng.integers(0, 20, 50_000),
                                                rng.integers(0, 20, 50_000))
    before = _reads(comparison)
    for twin in (comparison.copy(), copy.copy(comparison), pickle.loads(pickle.dumps(comparison)),
                 PartitionComparison.from_dict(comparison.to_dict())):
        assert _reads(twin) == before
        twin.add(1, 2)
        comparison.add(1, 2)
        assert _reads(twin) == _reads(comparison)
        assert twin._sums == comparison._sums
        comparison.remove(1, 2)


@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "add_many", "remove_many", "merge",
                                          "read"]),
                          st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3),
                                             st.integers(1, 5)), min_size=1, max_size=6)),
                max_size=25))
@settings(max_examples=80, deadline=None)
def test_fine_sums_equal_a_recomputation_after_any_stream(steps):
    comparison = PartitionComparison()
    comparison._fallback_cells()  # switched on from the start
    held: dict[tuple[int, int], int] = {}
    for kind, cells in steps:
        if kind == "read":
            comparison.normalized_mutual_information()
            continue
        if kind.startswith("remove"):
            cells = [(r, m, min(w, held.get((r, m), 0))) for r, m, w in cells]
            cells = [(r, m, w) for r, m, w in cells if w]
            merged: dict[tuple[int, int], int] = {}
            for r, m, w in cells:
                merged[r, m] = min(merged.get((r, m), 0) + w, held[r, m])
            cells = [(r, m, w) for (r, m), w in merged.items()]
            if not cells:
                continue
        if kind == "add":
            for r, m, w in cells:
                for _ in range(w):
                    comparison.add(r, m)
        elif kind == "remove":
            for r, m, w in cells:
                for _ in range(w):
                    comparison.remove(r, m)
        else:
            references, models, weights = (list(part) for part in zip(*cells))
            if kind == "add_many":
                comparison.add_many(references, models, weights)
            elif kind == "remove_many":
                comparison.remove_many(references, models, weights)
            else:
                comparison.merge(PartitionComparison().add_many(references, models, weights))
        sign = -1 if kind.startswith("remove") else 1
        for r, m, w in cells:
            held[r, m] = held.get((r, m), 0) + sign * w
    table = [[held.get((r, m), 0) for m in range(4)] for r in range(4)]
    assert isinstance(comparison._sums, FineRunningSums)
    assert comparison._sums.fine_sums() == formulas.fine_sums(table)
    assert comparison._sums.cells == RunningSums.from_counts(
        np.ravel(table), np.sum(table, axis=1), np.sum(table, axis=0)).cells


def test_a_fine_argument_that_is_no_fine_sums_is_named_when_the_read_needs_it():
    table = np.full((30, 30), 10)
    table[0, 0] += 1  # nearly independent: the float sums cannot settle the read
    sums = formulas.table_sums(table)
    with pytest.raises(TypeError, match=r"fine must be a FineSums .* not int"):
        formulas.normalized_mutual_information(sums, fine=3)  # type: ignore[arg-type]

    class Wrong:
        def fine_sums(self) -> object:
            return [1, 2]

    with pytest.raises(TypeError, match=r"fine.fine_sums\(\) must return a FineSums or None, not list"):
        formulas.normalized_mutual_information(sums, fine=Wrong())  # type: ignore[arg-type]
