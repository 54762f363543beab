"""pandas views of finished numbers; pandas is imported only when a view is asked for.

pandas is an optional extra (``pip install "contingency[pandas]"``): without
it, every function here raises ``ImportError`` naming the extra. Nothing
here computes a score: the accumulators hand over their counts and scores.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["category_frame", "group_frame", "table_frame"]

#: The per-category values that are counts: integer columns (float once a weight was fractional).
COUNT_COLUMNS = ("a", "b", "c", "d", "support")


def _pandas() -> Any:
    """The pandas module, or ``ImportError`` saying how to install it.

    >>> import sys
    >>> saved, sys.modules["pandas"] = sys.modules.get("pandas"), None
    >>> try:
    ...     _pandas()
    ... except ImportError as error:
    ...     print(error)
    ... finally:
    ...     _ = sys.modules.pop("pandas") if saved is None else sys.modules.update(pandas=saved)
    to_frame needs pandas, an optional dependency: pip install "contingency[pandas]"
    """
    try:
        import pandas
    except ImportError as error:
        raise ImportError('to_frame needs pandas, an optional dependency: '
                          'pip install "contingency[pandas]"') from error
    return pandas


def table_frame(rows: Sequence[Hashable], columns: Sequence[Hashable], cell_rows: NDArray[np.int64],
                cell_columns: NDArray[np.int64], counts: NDArray[np.int64], *,
                sparse: bool) -> Any:
    """A contingency table given by its non-empty cells as a DataFrame: index "reference", columns "model".

    ``counts[k]`` sits in row ``cell_rows[k]`` and column ``cell_columns[k]``.
    Dense int64 columns (``pandas.crosstab``'s frame), or with ``sparse=True``
    columns of pandas' ``Sparse[int64, 0]`` dtype holding only the non-empty
    cells: memory linear in them and the labels, where the dense frame takes
    ``8 x rows x columns`` bytes.

    >>> one = np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([1, 1, 1])
    >>> table_frame(("a", "b"), (1, 2), *one, sparse=False)  # doctest: +SKIP
    model      1  2
    reference
    a          1  1
    b          1  0
    """
    pandas = _pandas()
    index = pandas.Index(list(rows), name="reference", dtype=object)
    names = pandas.Index(list(columns), name="model", dtype=object)
    if not sparse:
        table = np.zeros((len(rows), len(columns)), dtype=np.int64)
        table[cell_rows, cell_columns] = counts
        return pandas.DataFrame(table, index=index, columns=names)
    order = np.lexsort((cell_rows, cell_columns))
    cell_rows, counts = cell_rows[order], counts[order]
    bounds = np.searchsorted(cell_columns[order], np.arange(len(columns) + 1)).tolist()
    dtype = pandas.SparseDtype(np.int64, 0)
    data = {position: _sparse_column(pandas, counts[start:stop], cell_rows[start:stop], len(rows),
                                     dtype)
            for position, (start, stop) in enumerate(itertools.pairwise(bounds))}
    frame = pandas.DataFrame(data, index=index)
    frame.columns = names
    return frame


def _sparse_column(pandas: Any, values: NDArray[np.int64], positions: NDArray[np.int64],
                   length: int, dtype: Any) -> Any:
    """A ``SparseArray`` of ``length`` holding ``values`` at ``positions`` (increasing), else zeros."""
    sparse_array = pandas.arrays.SparseArray
    if hasattr(sparse_array, "from_indices"):  # pandas 3
        return sparse_array.from_indices(values, positions, length, fill_value=0, dtype=np.int64)
    index = pandas._libs.sparse.IntIndex(length, positions.astype(np.int32))  # pandas 1.5 and 2
    return sparse_array(values, sparse_index=index, dtype=dtype)


def category_frame(stats: Mapping[Hashable, Mapping[str, float | int]]) -> Any:
    """Per-category values as a DataFrame: one row per category (index ``"category"``).

    ``stats`` is :meth:`contingency.Contingency.category_stats`' output.
    The columns of :data:`COUNT_COLUMNS` are int64 while every count is an
    integer (object holding Python ints past int64's range, float64 once a
    count is fractional), every other column float64.
    """
    pandas = _pandas()
    names = list(next(iter(stats.values()), {}))
    data: dict[str, Any] = {}
    for name in names:
        values = [row[name] for row in stats.values()]
        data[name] = np.array(values, dtype=_count_dtype(values) if name in COUNT_COLUMNS
                              else np.float64)
    return pandas.DataFrame(data, index=pandas.Index(list(stats), name="category", dtype=object))


def _count_dtype(values: Sequence[float | int]) -> type:
    """int64 for integer counts int64 holds, object for larger ones, float64 for fractional ones.

    >>> _count_dtype([1, 2]), _count_dtype([1, 2**70]), _count_dtype([1, 0.5])
    (<class 'numpy.int64'>, <class 'object'>, <class 'numpy.float64'>)
    """
    if not all(isinstance(value, (int, np.integer)) for value in values):
        return np.float64
    if any(abs(int(value)) > np.iinfo(np.int64).max for value in values):
        return object
    return np.int64


def group_frame(groups: Sequence[Hashable], columns: Mapping[str, Sequence[float | int]]) -> Any:
    """Values by group as a DataFrame: one row per group, one column per entry of ``columns``.

    ``n_results`` is a count column (as :data:`COUNT_COLUMNS` are), the others
    float64. Groups that are all tuples of one length (several features) make a
    ``MultiIndex``; other groups an index named ``"group"``.
    """
    pandas = _pandas()
    data: dict[str, NDArray[Any]] = {
        name: np.array(values, dtype=_count_dtype(values) if name == "n_results" else np.float64)
        for name, values in columns.items()}
    keys = list(groups)
    if keys and all(isinstance(key, tuple) for key in keys) and len(
            {len(key) for key in keys}) == 1:  # type: ignore[arg-type]
        index = pandas.MultiIndex.from_tuples(keys)
    else:
        index = pandas.Index(keys, name="group", dtype=object)
    return pandas.DataFrame(data, index=index)
