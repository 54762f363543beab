"""contingency._table: the partition table on both implementations, count_cells, the table of code pairs."""

from __future__ import annotations

import functools
import operator
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import _table
from contingency._table import PAIR_SHIFT, Cells, CodedPairs, PairTable, count_cells
from contingency._table_reference import ReferenceTable
from tests.strategies_partition import implementations, labelings

IMPLEMENTATIONS = implementations()


def filled(reference, model, way, implementation=ReferenceTable):
    """A table of the elements, built as a batch ("batch") or element by element ("units")."""
    table = implementation()
    if way == "batch":
        table.apply(count_cells(reference, model, where="t"), "t")
    else:
        for r, m in zip(reference, model):
            table.step(r, m, 1)
    return table


def as_counter(reference, model):
    counts: dict[tuple[object, object], int] = {}
    for pair in zip(reference, model):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def cell_counter(table):
    return {(r, m): n for r, m, n in table.cells().triples()}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@given(labeling=labelings())
def test_batches_and_units_hold_the_same_table(implementation, labeling):
    reference, model = labeling
    batch = filled(reference, model, "batch", implementation)
    units = filled(reference, model, "units", implementation)
    assert batch == units
    assert cell_counter(batch) == cell_counter(units) == as_counter(reference, model)
    assert batch.dense()[0] == units.dense()[0]
    assert np.array_equal(batch.dense()[2], units.dense()[2])
    assert batch.n_cells() == units.n_cells() == len(as_counter(reference, model))
    assert sorted(batch.row_totals().tolist()) == sorted(units.row_totals().tolist())
    assert batch.table_sums() == units.table_sums()
    assert batch.triple_sums() == units.triple_sums()


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@given(first=labelings(), second=labelings())
def test_units_then_batches_return_to_the_same_state(implementation, first, second):
    table = filled(*first, "batch", implementation)
    before = table.copy()
    for r, m in zip(*second):
        table.step(r, m, 1)
    assert cell_counter(table) == as_counter(first[0] + second[0], first[1] + second[1])
    for r, m in zip(*second):
        table.step(r, m, -1)
    assert table == before
    assert table.table_sums() == before.table_sums()
    table.apply(count_cells(*second, where="t"), "t")
    table.apply(count_cells(*second, where="t").negated(), "t")
    assert table == before
    assert table.table_sums() == before.table_sums()


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_step_forgets_zeros_and_refuses_bad_changes(implementation):
    table = implementation()
    table.step("a", 1, 1)
    table.step("a", 2, 1)
    table.step("a", 1, -1)
    assert (table.n_rows, table.n_columns, table.n_cells(), table.n_elements) == (1, 1, 1, 1)
    table.step("a", 2, -1)
    assert table == implementation()
    assert table.table_sums() == implementation().table_sums()
    with pytest.raises(ValueError, match="no element with reference 'a' and model 2 to remove"):
        table.step("a", 2, -1)
    with pytest.raises(ValueError, match="reference: None is not a valid label"):
        table.step(None, 2, 1)
    with pytest.raises(TypeError, match="model: label \\[2\\] is unhashable"):
        table.step("a", [2], 1)
    with pytest.raises(ValueError, match="would hold 9223372036854775808 elements"):
        table.step("a", 2, 2**63)
    with pytest.raises(ValueError, match="no element with reference 'a' and model 2 to remove"):
        table.step("a", 2, -(2**70))
    assert table == implementation()


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_failed_removal_changes_nothing(implementation):
    table = filled(["a", "a", "b"], [1, 2, 2], "batch", implementation)
    before = table.copy()
    change = count_cells(["a", "b", "b"], [1, 2, 2], where="t").negated()
    with pytest.raises(ValueError, match="remove_many: cannot remove 2 element\\(s\\) with "
                                         "reference 'b' and model 2: there are 1"):
        table.apply(change, "remove_many")
    assert table == before
    assert table.table_sums() == before.table_sums()
    with pytest.raises(ValueError, match="cannot remove 1 element\\(s\\) with reference 'z'"):
        table.apply(count_cells(["z"], [1], where="t").negated(), "remove_many")
    assert table == before
    empty = implementation()
    empty.apply(Cells([], [], *(np.zeros(0, np.int64),) * 3), "t")
    assert empty == implementation()


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_labels_keep_their_order_through_batches_and_pickles(implementation):
    table = implementation()
    for r, m in [("b", 2), ("a", 1), ("b", 1), ("c", 3)]:
        table.step(r, m, 1)
    table.step("a", 1, -1)  # "a" forgotten ...
    table.step("a", 3, 1)  # ... and back, last
    assert (table.cells().row_labels, table.cells().column_labels) == (["b", "c", "a"], [2, 1, 3])
    table.apply(Cells(["z", "y", "b"], [9, 8], np.array([1, 0, 2]), np.array([0, 1, 0]),
                      np.array([1, 1, 1])), "t")  # new labels in the batch's label order
    assert table.cells().row_labels == ["b", "c", "a", "z", "y"]
    assert table.cells().column_labels == [2, 1, 3, 9, 8]
    twin = pickle.loads(pickle.dumps(table))  # of the process's implementation
    cells, twin_cells = table.cells(), twin.cells()
    assert (twin_cells.row_labels, twin_cells.column_labels) == (cells.row_labels,
                                                                 cells.column_labels)
    assert [part.tolist() for part in (twin_cells.rows, twin_cells.columns, twin_cells.counts)] == [
        part.tolist() for part in (cells.rows, cells.columns, cells.counts)]
    assert twin.table_sums() == table.table_sums()


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_information_cells_and_maxima(implementation):
    table = filled(["a", "a", "b", "a"], [1, 2, 2, 1], "units", implementation)
    counts, row_of_cell, column_of_cell, rows, columns = table.information_cells()
    assert all(part.dtype == np.int64 for part in table.information_cells())
    found = sorted(zip(counts.tolist(), row_of_cell.tolist(), column_of_cell.tolist()))
    assert found == [(1, 1, 2), (1, 3, 2), (2, 3, 2)]
    assert sorted(rows.tolist()) == [1, 3]
    assert sorted(columns.tolist()) == [2, 2]
    assert sorted(table.maxima(axis=1).tolist()) == [1, 2]
    assert sorted(table.maxima(axis=0).tolist()) == [1, 2]


@pytest.mark.parametrize("labels", [
    (np.array([3, 3, 9, 5]), np.array([0, 2, 0, 0])),         # dense integer ranges
    (np.array([3, 3, 10**12, 5]), np.array([0, 2, 0, 0])),   # too sparse: coded first
    ([3, 3, 10**12, 5], [0, 2, 0, 0]),                       # Python lists
    (np.array(["3", "3", "x", "5"]), np.array([0, 2, 0, 0])),
])
def test_count_cells_paths_agree(labels):
    reference, model = (list(side) if isinstance(side, list) else side.tolist() for side in labels)
    cells = count_cells(*labels, where="t")
    assert sorted(map(str, cells.triples())) == sorted(
        map(str, ((r, m, n) for (r, m), n in as_counter(reference, model).items())))
    weighted = count_cells(*labels, np.array([1, 2, 0, 1]), where="t")
    assert sorted((str(r), m, n) for r, m, n in weighted.triples()) == sorted(
        [(str(reference[0]), 0, 1), (str(reference[1]), 2, 2), (str(reference[3]), 0, 1)])


@pytest.mark.parametrize(("dtype", "lows"), [
    (dtype, lows) for dtype in ["int64", "int32", "int8", "uint8", "uint64"]
    for lows in [(0, 0), (5, 0), (0, 7), (-4, -2)]
    if not (dtype.startswith("u") and min(lows) < 0)])  # (no negative label is unsigned)
def test_integer_arrays_of_every_dtype_and_offset_count_as_lists_do(dtype, lows):
    """The dense path of integer label arrays (keys made from the arrays as they are, each
    low subtracted only when it is not 0) counts what the dictionary path counts from lists,
    and its total (read from the row totals) is the number of elements."""
    rng = np.random.default_rng([abs(low) for low in lows] + [len(dtype)])
    reference = (rng.integers(0, 6, 400) + lows[0]).astype(dtype)
    model = (rng.integers(0, 9, 400) + lows[1]).astype(dtype)
    cells = count_cells(reference, model, where="t")
    assert cells.dense_count() is not None
    assert cells.total() == 400
    assert sorted(cells.triples()) == sorted(
        (r, m, n) for (r, m), n in as_counter(reference.tolist(), model.tolist()).items())


def test_count_cells_names_its_arguments():
    with pytest.raises(ValueError, match="y_true\\[1\\]: None is not a valid label"):
        count_cells(["a", None], [1, 2], where="f", names=("y_true", "y_pred"))
    with pytest.raises(TypeError, match="f: weights must be a sequence of integer counts"):
        count_cells(["a"], [1], "1", where="f")


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@given(labeling=labelings(), batch=st.booleans())
def test_copies_are_independent(implementation, labeling, batch):
    table = filled(*labeling, "batch" if batch else "units", implementation)
    copy = table.copy()
    copy.step("new", "new", 1)
    assert copy != table
    assert table.copy() == table
    assert table.copy().table_sums() == table.table_sums()


# PairTable: Contingency's single-label results by pair of category codes ----------------------

_KEY = st.builds(lambda row, column: row << PAIR_SHIFT | column,
                 st.integers(0, 5), st.sampled_from([0, 1, 7, 2**20]))  # 2**20: too sparse for a dense count
# One step: add one pair, add a batch (keys may repeat; aggregated or not), take back some of
# what the table holds, look pairs up, rescale finer (and back), renumber, copy.
_STEP = st.one_of(
    st.tuples(st.just("add"), _KEY, st.integers(1, 3)),
    st.tuples(st.just("batch"), st.lists(st.tuples(_KEY, st.integers(0, 4)), max_size=12),
              st.booleans()),
    st.tuples(st.just("remove"), st.integers(0, 100), st.booleans()),
    st.tuples(st.just("lookup"), st.lists(_KEY, max_size=5)),
    st.tuples(st.just("rescale"), st.sampled_from([1, 70])),
    st.tuples(st.just("renumber")),
    st.tuples(st.just("copy")),
)


def _oracle_add(oracle, key, count):
    count += oracle.get(key, 0)
    if count:
        oracle[key] = count
    else:
        oracle.pop(key, None)


def _batch(pairs, aggregated):
    keys = np.array([key for key, _ in pairs], dtype=np.int64)
    batch = CodedPairs(keys, _table._exact([count for _, count in pairs]))
    return batch.aggregated() if aggregated else batch


@given(st.lists(_STEP, max_size=40))
def test_a_pair_table_holds_what_a_dict_would_whatever_its_storage(steps):
    """Every storage (merged arrays, a queue of batches, a dict of single changes) and every
    merge (dense or sorted, int64 or Python ints past int64) gives the counts a dict keeps."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_table, "_QUEUE_FLOOR", 3)  # merges happen within a few steps
        patch.setattr(_table, "_RECENT_FLOOR", 2)
        table, oracle = PairTable(), {}
        for step in steps:
            kind = step[0]
            if kind == "add":
                table.add(step[1], step[2])
                _oracle_add(oracle, step[1], step[2])
            elif kind == "batch":
                table.add_pairs(_batch(step[1], step[2]))
                for key, count in step[1]:
                    _oracle_add(oracle, key, count)
            elif kind == "remove" and oracle:  # take back part of one pair, one by one or in bulk
                key = sorted(oracle)[step[1] % len(oracle)]
                taken = 1 + step[1] % oracle[key]
                if step[2]:
                    table.add_pairs(CodedPairs(np.array([key, key]), _table._exact([-taken + 1, -1])))
                else:
                    table.add(key, -taken)
                _oracle_add(oracle, key, -taken)
            elif kind == "lookup":
                keys = np.array(step[1], dtype=np.int64)
                assert table.counts_of(keys) == [oracle.get(key, 0) for key in step[1]]
            elif kind == "rescale":
                table.rescale(step[1])
                oracle = {key: count << step[1] for key, count in oracle.items()}
                assert table.to_dict() == oracle
                table.rescale(-step[1])
                oracle = {key: count >> step[1] for key, count in oracle.items()}
                assert table.arrays()[1].dtype == np.int64  # back within int64: int64 again
            elif kind == "renumber":  # codes 0..5 permuted, the others kept
                codes = np.arange(2**20 + 1, dtype=np.int64)
                codes[:6] = [5, 3, 4, 0, 1, 2]
                table.renumber(codes)
                oracle = {int(codes[key >> PAIR_SHIFT]) << PAIR_SHIFT | int(codes[key & 0xFFFFFFFF]):
                          count for key, count in oracle.items()}
            else:
                copy = table.copy()
                copy.add(0, 1)
                assert copy.to_dict() != table.to_dict()
            assert table.counts_of(np.array(sorted(oracle), dtype=np.int64)) == [
                oracle[key] for key in sorted(oracle)]
        keys, counts = table.arrays()
        assert keys.tolist() == sorted(oracle)  # sorted, distinct, no zero count
        assert counts.tolist() == [oracle[key] for key in sorted(oracle)]
        assert len(table) == len(oracle)
        assert table.bits() == functools.reduce(operator.or_, oracle.values(), 0)


def test_counts_past_int64_are_python_ints_and_exact():
    big = CodedPairs(np.array([3, 3, 9]), np.array([1, 2, 5])).times(2**62)
    assert big.counts is not None
    assert big.counts.dtype == object
    assert big.aggregated().to_dict() == {3: 3 * 2**62, 9: 5 * 2**62}
    table = PairTable()
    table.add_pairs(big)
    table.add(3, 2**70)
    table.add_pairs(CodedPairs(np.array([9])))
    assert table.to_dict() == {3: 3 * 2**62 + 2**70, 9: 5 * 2**62 + 1}
    table.rescale(3)
    assert table.to_dict() == {3: (3 * 2**62 + 2**70) << 3, 9: (5 * 2**62 + 1) << 3}
    small = PairTable()
    small.add_pairs(CodedPairs(np.array([1]), np.array([2**62])))
    small.rescale(1)  # 2**63 is past int64: Python ints
    assert small.to_dict() == {1: 2**63}
    small.rescale(-1)
    assert small.arrays()[1].dtype == np.int64


@pytest.mark.parametrize("column", [3, 2**31 - 1])
def test_pairs_aggregate_alike_dense_or_sorted(column):
    """A batch whose codes span few slots is counted in a dense table, a sparse one by sorting."""
    keys = np.array([0 << PAIR_SHIFT | column, 2 << PAIR_SHIFT | 0, 0 << PAIR_SHIFT | column, 5])
    for counts in (None, np.array([1, 4, -1, 2])):
        pairs = CodedPairs(keys, counts).aggregated()
        expected: dict[int, int] = {}
        for key, count in zip(keys.tolist(), [1] * 4 if counts is None else counts.tolist()):
            _oracle_add(expected, key, count)
        assert pairs.distinct
        assert pairs.to_dict() == dict(sorted(expected.items()))
        assert pairs.keys.tolist() == sorted(expected)


def test_a_bulk_change_is_queued_and_merged_only_when_read_or_large(monkeypatch):
    """Adding a batch costs O(1) (it is queued); a read merges; so does a queue as large as
    the table (past the floor), so memory stays O(cells + floor)."""
    monkeypatch.setattr(_table, "_QUEUE_FLOOR", 4)
    table = PairTable()
    table.add_pairs(CodedPairs(np.array([5, 1, 5])))  # not aggregated: queued
    assert table._queue
    assert not table._keys.size
    assert table.counts_of(np.array([5, 2])) == [2, 0]
    assert not table._queue
    table.add_pairs(CodedPairs(np.array([7, 8])))
    table.add_pairs(CodedPairs(np.array([7, 9, 9])))  # 5 queued > 4 and > 2 merged: merged
    assert not table._queue
    assert table.to_dict() == {1: 1, 5: 2, 7: 2, 8: 1, 9: 2}
    aggregated = CodedPairs(np.array([1, 4]), np.array([3, 1]), distinct=True)
    empty = PairTable()
    empty.add_pairs(aggregated)  # an empty table takes an aggregated batch as its arrays
    assert empty.arrays()[0] is aggregated.keys


@pytest.mark.parametrize("implementation", implementations())
def test_the_maxima_sums_follow_growth_removal_and_forgotten_labels(implementation):
    """The sums of the largest cell of each row and each column: read, then kept through cells
    that grow past the largest, the largest taken down (below another cell, to a tie, to zero),
    labels forgotten and met again; each time the sums of the maxima read from the cells."""
    table = implementation()

    def check():
        for axis in (0, 1):
            assert table.maxima_sum(axis) == int(table.maxima(axis).sum())

    check()
    for reference, model, weight in [("a", 1, 3), ("a", 2, 2), ("b", 1, 1), ("a", 2, 2),
                                      ("a", 2, -3), ("a", 1, -2), ("b", 1, -1), ("a", 2, -1),
                                      ("a", 1, -1), ("c", 3, 4), ("a", 1, 5), ("c", 3, -4)]:
        table.step(reference, model, weight)
        check()
    twin = table.copy()  # (made again from the cells by its first read)
    twin.step("d", 1, 9)
    table.step("d", 1, 9)
    assert [twin.maxima_sum(axis) for axis in (0, 1)] == [table.maxima_sum(axis) for axis in (0, 1)]
