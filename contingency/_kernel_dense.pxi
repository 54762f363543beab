# Included by _kernel.pyx.
"""Two arrays of codes counted into one dense table in one pass: a batch's count, before any state.

The reference is :func:`contingency._table.dense_count_reference` (numpy's
``bincount`` of ``row * width + column``, then the sums of the table's rows
and columns); :mod:`contingency._backend` chooses which one
:func:`contingency._table.dense_count` calls, and tests/test_kernel.py
compares the two. This counts; it writes no accumulator's state (the tables'
one writes read the count afterwards, see ``_add_dense`` and
``_apply_dense``).
"""


def dense_count(rows, columns, Py_ssize_t height, Py_ssize_t width, int64_t row_low=0,
                int64_t column_low=0):
    """``(table, row_totals, column_totals, present)`` of the pairs ``(rows[i], columns[i])``.

    ``table[(rows[i] - row_low) * width + columns[i] - column_low]`` counts the
    positions ``i`` of each pair (int64, ``height * width`` entries), the totals
    are its row and column sums and ``present`` its number of non-zero entries:
    all in one pass over the two arrays, with no array of keys made. Every value
    is in its range (the caller's guarantee: it sized the table by the arrays'
    least and largest values); one outside would be written outside the table,
    so it is refused (ValueError).
    """
    cdef const int64_t[::1] r = np.ascontiguousarray(rows, dtype=np.int64)
    cdef const int64_t[::1] c = np.ascontiguousarray(columns, dtype=np.int64)
    if r.shape[0] != c.shape[0]:
        raise ValueError(f"dense_count: {r.shape[0]} rows and {c.shape[0]} columns")
    table_array = np.zeros(height * width, dtype=np.int64)
    row_array = np.zeros(height, dtype=np.int64)
    column_array = np.zeros(width, dtype=np.int64)
    cdef int64_t[::1] table = table_array, row_totals = row_array, column_totals = column_array
    cdef Py_ssize_t i, n = r.shape[0], present = 0, key
    cdef uint64_t row, column
    for i in range(n):
        row = <uint64_t>(r[i] - row_low)  # (below row_low: wraps to a huge value, refused)
        column = <uint64_t>(c[i] - column_low)
        if row >= <uint64_t>height or column >= <uint64_t>width:
            raise ValueError(f"dense_count: the pair ({r[i]}, {c[i]}) at {i} is outside the "
                             f"{height} x {width} table from ({row_low}, {column_low})")
        key = <Py_ssize_t>(row * <uint64_t>width + column)
        present += table[key] == 0
        table[key] += 1
        row_totals[row] += 1
        column_totals[column] += 1
    return table_array, row_array, column_array, present
