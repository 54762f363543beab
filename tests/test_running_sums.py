"""contingency._running_sums: exact packed sums of C(n, 2), C(n, 3) and n ln n, stepped and recomputed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency._running_sums import (
    LOG_SHIFT,
    PAIR_BITS,
    RunningSums,
    packed_step,
    packed_sum,
    unit_step,
)
from contingency.formulas import partition as formulas


def expected_packed(counts):
    return ((formulas.n_log_n_fixed_sum(counts) << LOG_SHIFT)
            + (formulas.same_cluster_triples(counts) << PAIR_BITS)
            + formulas.same_cluster_pairs(counts))


@pytest.mark.parametrize("counts", [
    [], [0], [1], [0, 1, 2, 3, 3, 3, 1000], list(range(50)),
    [2**40, 3, 2**40 + 1],          # sparse: sorted, not a histogram
    np.array([5, 7, 5], dtype=np.uint16),
    np.array([2**62, 2**62 - 1, 2], dtype=object),  # Python ints
])
def test_packed_sum_is_the_three_sums_of_the_formulas(counts):
    assert packed_sum(counts) == expected_packed(np.asarray(counts))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 2**16 - 1, 2**16, 2**40])
def test_unit_step_is_the_packed_step_of_one(n):
    assert unit_step(n) == packed_step(n, 1)
    assert packed_step(n, 1) == expected_packed([n + 1]) - expected_packed([n])
    assert packed_step(n + 5, -5) == -packed_step(n, 5)


def test_table_sums_unpacks_each_level():
    sums = RunningSums.from_counts([2, 1, 1], [3, 1], [2, 2])
    unpacked = sums.table_sums(4, 2, 2)
    assert unpacked == formulas.table_sums([[2, 1], [0, 1]])


@pytest.mark.parametrize(("rows", "columns"), [([3, 1], [2, 2]), ([2**62, 5], [2**62 + 5]),
                                               ([], []), ([1, 1, 1], [3])])
def test_margin_triples_unpacks_the_rows_and_columns_triple_sums(rows, columns):
    """The triple field sits between the pair and n ln n fields: no carry mixes them, even at
    the count limit, where C(N, 3) is near 2**185."""
    sums = RunningSums.from_counts(rows, rows, columns)
    assert sums.margin_triples() == (sum(formulas.triples(n) for n in rows),
                                     sum(formulas.triples(n) for n in columns))
    assert sums.table_sums(sum(rows), len(rows), len(columns))[3:6] == (
        formulas.same_cluster_pairs(rows), formulas.same_cluster_pairs(rows),
        formulas.same_cluster_pairs(columns))


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([1, 1, -1, 3,
                                                                                    -2, 2**40])),
                max_size=60))
def test_steps_keep_the_sums_equal_to_a_recomputation(changes):
    """Random unit, weighted and negative steps: always equal to the sums from the counts."""
    cells: dict[tuple[int, int], int] = {}
    rows: dict[int, int] = {}
    columns: dict[int, int] = {}
    sums = RunningSums()
    for row, column, weight in changes:
        n = cells.get((row, column), 0)
        if n + weight < 0:
            continue  # the caller refuses removals of elements that are not there
        sums.step(n, rows.get(row, 0), columns.get(column, 0), weight)
        cells[(row, column)] = n + weight
        rows[row] = rows.get(row, 0) + weight
        columns[column] = columns.get(column, 0) + weight
        assert sums == RunningSums.from_counts(list(cells.values()), list(rows.values()),
                                               list(columns.values()))


def test_step_levels_adds_the_difference_of_recomputed_sums():
    sums = RunningSums.from_counts([1, 2], [3], [1, 2])
    sums.step_levels((np.array([2]), np.array([3]), np.array([2])),
                     (np.array([5]), np.array([6]), np.array([5])))
    assert sums == RunningSums.from_counts([1, 5], [6], [1, 5])


@given(st.lists(st.integers(0, 2**62), max_size=40))
def test_packed_sum_is_the_same_for_a_list_an_array_and_python_ints(counts):
    """A change made cell by cell hands over lists (grouped by Python), batches arrays (numpy)."""
    assert (packed_sum(counts) == packed_sum(np.array(counts, dtype=np.int64))
            == packed_sum(np.array(counts, dtype=object)) == expected_packed(counts))


def test_packed_sum_of_counts_whose_total_passes_int64():
    """Found by a random seed: two counts of 2**62 summed to 2**63 in int64, wrapped negative,
    and sent the pair count down the int64 path, which overflowed too."""
    counts = [2**62, 2**62]
    assert formulas.same_cluster_pairs(np.array(counts, dtype=np.int64)) == 2 * (2**62 * (2**62 - 1) // 2)
    assert packed_sum(counts) == expected_packed(counts)
