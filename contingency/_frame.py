"""pandas views of finished numbers; pandas is imported only when a view is asked for.

pandas is an optional extra (``pip install "contingency[pandas]"``): without
it, every function here raises ``ImportError`` naming the extra. Nothing
here computes a score: the accumulators hand over their counts and scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["category_frame", "table_frame"]

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


def table_frame(rows: Sequence[Hashable], columns: Sequence[Hashable],
                table: NDArray[np.int64]) -> Any:
    """A contingency table as a DataFrame: index ``"reference"``, columns ``"model"``.

    >>> table = np.array([[1, 1], [1, 0]])
    >>> table_frame(("a", "b"), (1, 2), table)  # doctest: +SKIP
    model      1  2
    reference
    a          1  1
    b          1  0
    """
    pandas = _pandas()
    return pandas.DataFrame(
        np.asarray(table, dtype=np.int64),
        index=pandas.Index(list(rows), name="reference", dtype=object),
        columns=pandas.Index(list(columns), name="model", dtype=object),
    )


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
