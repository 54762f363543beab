"""to_frame() of both accumulators: pandas views, checked against pandas' own crosstab; and the
ImportError naming the extra when pandas is missing."""

from __future__ import annotations

import builtins
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from contingency import Contingency, PartitionComparison
from contingency._frame import category_frame
from tests.strategies_partition import labelings

COUNTS = ["a", "b", "c", "d", "support"]


@given(labelings(min_size=1))
@settings(max_examples=60)
def test_partition_frame_is_pandas_crosstab(labeling):
    reference, model = labeling
    frame = PartitionComparison.from_labels(reference, model).to_frame()
    expected = pd.crosstab(pd.Series(reference, name="reference", dtype=object),
                           pd.Series(model, name="model", dtype=object))
    assert frame.index.name == "reference"
    assert frame.columns.name == "model"
    assert all(dtype == np.int64 for dtype in frame.dtypes)
    pd.testing.assert_frame_equal(
        frame.sort_index(axis=0, key=lambda i: i.map(repr)).sort_index(axis=1, key=lambda i: i.map(repr)),
        expected.sort_index(axis=0, key=lambda i: i.map(repr)).sort_index(
            axis=1, key=lambda i: i.map(repr)).astype(np.int64),
        check_index_type=False, check_column_type=False, check_names=True)


def test_partition_frame_follows_contingency_table_and_empty():
    comparison = PartitionComparison.from_labels(["b", "a", "a"], [1, 1, 2])
    frame = comparison.to_frame()
    rows, columns, table = comparison.contingency_table()
    assert list(frame.index) == list(rows)
    assert list(frame.columns) == list(columns)
    assert frame.to_numpy().tolist() == table.tolist()
    assert frame.loc["a", 2] == 1
    empty = PartitionComparison().to_frame()
    assert empty.shape == (0, 0)


def test_contingency_frame_is_category_stats():
    s = Contingency(["x", "y", "z"]).add_results([["x"], ["y", "z"], ["z"]],
                                                 [["y"], ["y"], ["x", "z"]])
    frame = s.to_frame()
    stats = s.category_stats()
    assert frame.index.name == "category"
    assert list(frame.index) == list(stats)
    assert list(frame.columns) == list(next(iter(stats.values())))
    for column in frame.columns:
        assert frame[column].dtype == (np.int64 if column in COUNTS else np.float64), column
        assert frame[column].tolist() == [row[column] for row in stats.values()]


def test_count_columns_are_float_once_a_count_is_fractional_and_object_past_int64():
    stats = {"x": {"a": 0.5, "b": 1, "support": 2, "f1": 1.0},
             "y": {"a": 1, "b": 2**70, "support": 1, "f1": 0.0}}
    frame = category_frame(stats)
    assert frame["a"].dtype == np.float64
    assert frame["a"].tolist() == [0.5, 1.0]
    assert frame["b"].dtype == object
    assert frame["b"].tolist() == [1, 2**70]
    assert frame["support"].dtype == np.int64
    assert frame["f1"].dtype == np.float64


def test_contingency_frame_of_no_category_raises_as_category_stats_does():
    with pytest.raises(ValueError) as frame_error:
        Contingency().to_frame()
    with pytest.raises(ValueError) as stats_error:
        Contingency().category_stats()
    assert str(frame_error.value) == str(stats_error.value)


MESSAGE = r'^to_frame needs pandas, an optional dependency: pip install "contingency\[pandas\]"$'
CALLS = [lambda: PartitionComparison.from_labels([1], [1]).to_frame(),
         lambda: Contingency(["x"]).add_results(["x"], ["x"]).to_frame()]


@pytest.mark.parametrize("call", CALLS)
def test_without_pandas_to_frame_names_the_extra(monkeypatch, call):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match=MESSAGE):
        call()


@pytest.mark.parametrize("call", CALLS)
def test_without_pandas_installed_to_frame_names_the_extra(monkeypatch, call):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("No module named 'pandas'", name="pandas")
        return real_import(name, *args, **kwargs)

    for name in [n for n in sys.modules if n == "pandas" or n.startswith("pandas.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match=MESSAGE) as error:
        call()
    assert isinstance(error.value.__cause__, ModuleNotFoundError)


def test_importing_contingency_does_not_import_pandas():
    import subprocess

    code = ("import sys, contingency; contingency.PartitionComparison().add(1, 1); "
            "print('pandas' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


@given(labelings(min_size=1))
@settings(max_examples=40)
def test_partition_sparse_frame_holds_the_dense_frame(labeling):
    """sparse=True: the same frame in pandas' sparse dtype, holding only the non-empty cells."""
    comparison = PartitionComparison.from_labels(*labeling)
    dense = comparison.to_frame(sparse=False)
    sparse = comparison.to_frame(sparse=True)
    assert all(dtype == pd.SparseDtype(np.int64, 0) for dtype in sparse.dtypes)
    assert sum(sparse[column].sparse.npoints for column in sparse.columns) == len(
        comparison.contingency_cells()[4])
    pd.testing.assert_frame_equal(sparse.sparse.to_dense(), dense)
    pd.testing.assert_frame_equal(comparison.to_frame(), dense)  # small: dense by default
    with pytest.raises(TypeError, match="to_frame: sparse must be True, False or None, not 'yes'"):
        comparison.to_frame(sparse="yes")


def test_partition_frame_is_sparse_by_default_when_the_dense_table_is_far_larger():
    """2,000 clusters on each side, 2,000 cells: 4 million slots dense, so the default is sparse."""
    labels = np.arange(2000)
    frame = PartitionComparison.from_labels(labels, labels[::-1]).to_frame()
    assert frame.shape == (2000, 2000)
    assert all(isinstance(dtype, pd.SparseDtype) for dtype in frame.dtypes)
    assert frame.loc[0, 1999] == 1
    assert frame.loc[0, 0] == 0


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pandas 3 deprecates what 1.5-2 need
def test_partition_sparse_frame_without_pandas_3s_from_indices(monkeypatch):
    """pandas 1.5 and 2 have no SparseArray.from_indices: their constructor takes the index."""
    if hasattr(pd.arrays.SparseArray, "from_indices"):
        monkeypatch.delattr(pd.arrays.SparseArray, "from_indices")
    comparison = PartitionComparison.from_labels(["b", "a", "a", "c"], [1, 1, 2, 2])
    pd.testing.assert_frame_equal(comparison.to_frame(sparse=True).sparse.to_dense(),
                                  comparison.to_frame(sparse=False))
