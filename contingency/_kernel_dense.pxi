# Included by _kernel.pyx.
"""Two arrays of codes counted into one dense table: a batch's count, before any state.

The reference is :func:`contingency._table.dense_count_reference` (numpy's
``bincount`` of ``row * width + column``, then the sums of the table's rows
and columns); :mod:`contingency._backend` chooses which one
:func:`contingency._table.dense_count` calls, and tests/test_kernel.py
compares the two. This counts; it writes no accumulator's state (the tables'
one writes read the count afterwards: ``_add_dense`` and ``_apply_dense``).
"""

#: Pairs read at a time by :func:`dense_count` (their table positions kept in a buffer on the
#: stack, 16 KiB), and how far ahead of its count the entry of a pair is asked for.
cdef enum:
    COUNT_STRETCH = 2048
    COUNT_AHEAD = 16


def dense_count(rows, columns, Py_ssize_t height, Py_ssize_t width, int64_t row_low=0,
                int64_t column_low=0):
    """``(table, row_totals, column_totals, present)`` of the pairs ``(rows[i], columns[i])``.

    ``table[(rows[i] - row_low) * width + columns[i] - column_low]`` counts the
    positions ``i`` of each pair (int64, ``height * width`` entries), the totals
    are its row and column sums and ``present`` its number of non-zero entries.
    No array of keys is made: the pairs are read a stretch at a time, their
    positions computed into a small buffer (and checked: every value must be in
    its range, the caller's guarantee, as it sized the table by the arrays' least
    and largest values; one outside would be written outside the table, so the
    stretch is refused, ValueError), then counted by a loop that does nothing
    else, the entry of a later pair asked for meanwhile (the table is as large
    as the data and each count lands at random in it: a lean loop keeps the most
    of those misses in flight). The totals and ``present`` are read off the
    table in one pass at the end.
    """
    cdef const int64_t[::1] r = np.ascontiguousarray(rows, dtype=np.int64)
    cdef const int64_t[::1] c = np.ascontiguousarray(columns, dtype=np.int64)
    if r.shape[0] != c.shape[0]:
        raise ValueError(f"dense_count: {r.shape[0]} rows and {c.shape[0]} columns")
    table_array = np.zeros(height * width, dtype=np.int64)
    row_array = np.zeros(height, dtype=np.int64)
    column_array = np.zeros(width, dtype=np.int64)
    cdef int64_t[::1] table = table_array, row_totals = row_array, column_totals = column_array
    cdef int64_t *entries = &table[0]
    cdef Py_ssize_t i, j, start, found, n = r.shape[0], present = 0
    cdef uint64_t row, column, outside
    cdef uint64_t positions[COUNT_STRETCH]
    cdef int64_t *line
    cdef int64_t count, total
    for start in range(0, n, COUNT_STRETCH):
        found = min(COUNT_STRETCH, n - start)
        outside = 0
        for i in range(found):  # (below row_low: wraps to a huge value, outside too)
            row = <uint64_t>(r[start + i] - row_low)
            column = <uint64_t>(c[start + i] - column_low)
            outside |= (row >= <uint64_t>height) | (column >= <uint64_t>width)
            positions[i] = row * <uint64_t>width + column
        if outside:
            for i in range(start, start + found):
                if not (0 <= r[i] - row_low < height and 0 <= c[i] - column_low < width):
                    raise ValueError(f"dense_count: the pair ({r[i]}, {c[i]}) at {i} is "
                                     f"outside the {height} x {width} table from "
                                     f"({row_low}, {column_low})")
        for i in range(found):
            if i + COUNT_AHEAD < found:
                ck_prefetch(entries + positions[i + COUNT_AHEAD])
            entries[positions[i]] += 1
    for i in range(height):
        line, total = entries + i * width, 0
        for j in range(width):
            count = line[j]
            total += count
            column_totals[j] += count
            present += count != 0
        row_totals[i] = total
    return table_array, row_array, column_array, present
