"""contingency._table: one table interface whatever the storage, and count_cells."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency._table import Cells, Table, count_cells
from tests.strategies_partition import labelings


def filled(reference, model, way):
    """A table of the elements, built as a batch ("arrays") or element by element ("dicts")."""
    table = Table()
    if way == "arrays":
        table.add_cells(count_cells(reference, model, where="t"), "t")
    else:
        for r, m in zip(reference, model):
            table.change(r, m, 1)
    return table


def as_counter(reference, model):
    counts: dict[tuple[object, object], int] = {}
    for pair in zip(reference, model):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def cell_counter(table):
    return {(r, m): n for r, m, n in table.cells().triples()}


@given(labelings())
def test_both_storages_hold_the_same_table(labeling):
    reference, model = labeling
    arrays, dicts = filled(reference, model, "arrays"), filled(reference, model, "dicts")
    assert arrays == dicts
    assert cell_counter(arrays) == cell_counter(dicts) == as_counter(reference, model)
    assert arrays.dense()[0] == dicts.dense()[0]
    assert np.array_equal(arrays.dense()[2], dicts.dense()[2])
    assert arrays.n_cells() == dicts.n_cells() == len(as_counter(reference, model))
    assert sorted(arrays.row_totals().tolist()) == sorted(dicts.row_totals().tolist())


@given(labelings(), labelings())
def test_storage_switch_batch_then_single_adds_then_removes(first, second):
    """A batch table takes single changes (it switches storage) and returns to the batch's state."""
    table = filled(*first, "arrays")
    before = table.copy()
    for r, m in zip(*second):
        table.change(r, m, 1)
    assert cell_counter(table) == as_counter(first[0] + second[0], first[1] + second[1])
    for r, m in zip(*second):
        table.change(r, m, -1)
    assert table == before
    table.add_cells(count_cells(*second, where="t"), "t")  # a batch again
    table.add_cells(count_cells(*second, where="t").negated(), "t")
    assert table == before


def test_change_reports_counts_before_and_forgets_zeros():
    table = Table()
    assert table.change("a", 1, 1) == (0, 0, 0)
    assert table.change("a", 2, 1) == (0, 1, 0)
    assert table.change("a", 1, -1) == (1, 2, 1)
    assert (table.n_rows, table.n_columns, table.n_cells()) == (1, 1, 1)
    assert table.change("a", 2, -1) == (1, 1, 1)
    assert table == Table()
    with pytest.raises(ValueError, match="no element with reference 'a' and model 2 to remove"):
        table.change("a", 2, -1)
    with pytest.raises(ValueError, match="reference: None is not a valid label"):
        table.change(None, 2, 1)
    with pytest.raises(TypeError, match="model: label \\[2\\] is unhashable"):
        table.change("a", [2], 1)
    assert table == Table()


@pytest.mark.parametrize("vectorise", [True, False])
def test_a_failed_removal_changes_nothing(monkeypatch, vectorise):
    monkeypatch.setattr(Table, "_vectorise", lambda self, change: vectorise)
    table = filled(["a", "a", "b"], [1, 2, 2], "arrays")
    before = table.copy()
    change = count_cells(["a", "b", "b"], [1, 2, 2], where="t").negated()
    with pytest.raises(ValueError, match="remove_many: cannot remove 2 element\\(s\\) with "
                                         "reference 'b' and model 2: there are 1"):
        table.add_cells(change, "remove_many")
    assert table == before
    with pytest.raises(ValueError, match="cannot remove 1 element\\(s\\) with reference 'z'"):
        table.add_cells(count_cells(["z"], [1], where="t").negated(), "remove_many")
    assert table == before
    assert Table().add_cells(Cells([], [], *(np.zeros(0, np.int64),) * 3), "t")[1][0].size == 0


def test_information_cells_and_maxima():
    table = filled(["a", "a", "b", "a"], [1, 2, 2, 1], "dicts")
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


def test_count_cells_names_its_arguments():
    with pytest.raises(ValueError, match="y_true\\[1\\]: None is not a valid label"):
        count_cells(["a", None], [1, 2], where="f", names=("y_true", "y_pred"))
    with pytest.raises(TypeError, match="f: weights must be a sequence of integer counts"):
        count_cells(["a"], [1], "1", where="f")


@given(labelings(), st.booleans())
def test_copies_are_independent(labeling, batch):
    table = filled(*labeling, "arrays" if batch else "dicts")
    copy = table.copy()
    copy.change("new", "new", 1)
    assert copy != table
    assert table.copy() == table


def test_a_batch_much_smaller_than_the_table_does_not_count_its_cells(monkeypatch):
    """The storage decision costs O(batch): counting the cells of dictionary storage is O(rows).

    A one-cell batch on a table of a thousand rows is added cell by cell without
    counting the table's cells; a batch as large as the table still takes arrays.
    """
    table = filled(list(range(1000)), list(range(1000)), "dicts")
    labels = [*range(1000), 5, "new"]
    expected = as_counter(labels, labels)
    real_n_cells = Table.n_cells
    monkeypatch.setattr(Table, "n_cells", lambda self: pytest.fail("the batch counted the cells"))
    table.add_cells(count_cells([5, "new"], [5, "new"], where="t"), "t")
    assert cell_counter(table) == expected
    monkeypatch.setattr(Table, "n_cells", real_n_cells)
    chosen = []
    monkeypatch.setattr(Table, "_add_arrays", lambda self, change, where: chosen.append(len(change)))
    table.add_cells(count_cells(list(range(200)), list(range(200)), where="t"), "t")
    assert chosen == [200]  # 8 x 200 cells >= the table's 1001: arrays
