# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Row 147's floor: the pieces of the least work a grouped batch ``add_results(a, c, groups=k)``
must do, in C, for ``tests/benchmarks/floors/run.py`` to time one by one and together.

From int label arrays already coded ``0..k-1`` (the categories declared ``[0, 1, 2]``, a range:
the plain batch codes them the same way) and int64 group keys:

- code the keys into group rows: :func:`hash_codes` (an open-addressing hash table of the
  int64 keys, grown by doubling as an accumulator's would be, rows numbered in first-met
  order) or :func:`range_codes` (the keys' range as a direct index, first-met order);
- register the distinct keys as Python ints in a dict key -> row (:func:`register`): what a
  Python-facing accumulator keeps to answer ``group(key)``;
- count: :func:`write_rows` adds each result straight into a table of ``groups + 1`` rows
  (the last the overall) of ``n, (a, b, c) x k, pairs[k][k]`` int64 cells;
  :func:`count_codes` is the same count as a bincount of (group, correct, assigned) codes, and
  :func:`add_pair_counts` adds such counts into the table (pairs, cells, n): the two halves
  the numpy floor does with ``np.bincount`` and array arithmetic.

No checks (no count limit, no label outside ``0..k-1``): a floor, not an accumulator.
"""

from cpython.dict cimport PyDict_SetItem
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np


cdef inline uint64_t _mix(int64_t key) noexcept nogil:
    """Fibonacci hashing: the key times 2^64 / golden ratio (the high bits are taken)."""
    return <uint64_t>key * <uint64_t>11400714819323198485ULL


cdef struct Slot:
    int64_t key
    int64_t row  # -1: empty


cdef Slot *_slots(Py_ssize_t size) noexcept nogil:
    cdef Slot *slots = <Slot *>malloc(size * sizeof(Slot))
    cdef Py_ssize_t i
    if slots is not NULL:
        for i in range(size):
            slots[i].row = -1
    return slots


def hash_codes(const int64_t[::1] keys):
    """Each key's row (first-met order) and the distinct keys in that order, by a hash table
    of (key, row) slots that doubles when half full (starting at 1,024 slots)."""
    cdef Py_ssize_t n = keys.shape[0], size = 1024, shift = 54, i, j, rows = 0
    cdef Slot *slots = _slots(size)
    cdef Slot *grown
    cdef uint64_t at, mask = size - 1
    cdef int64_t key
    cdef bint failed = False
    codes_array = np.empty(n, dtype=np.int64)
    distinct_array = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] codes = codes_array, distinct = distinct_array
    if slots is NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            key = keys[i]
            at = _mix(key) >> shift
            while slots[at].row >= 0 and slots[at].key != key:
                at = (at + 1) & mask
            if slots[at].row >= 0:
                codes[i] = slots[at].row
                continue
            slots[at].key, slots[at].row = key, rows
            distinct[rows] = key
            codes[i] = rows
            rows += 1
            if 2 * rows > size:  # half full: twice the slots, every key placed again
                grown = _slots(2 * size)
                if grown is NULL:
                    failed = True
                    break
                size, shift, mask = 2 * size, shift - 1, 2 * size - 1
                for j in range(size // 2):
                    if slots[j].row >= 0:
                        at = _mix(slots[j].key) >> shift
                        while grown[at].row >= 0:
                            at = (at + 1) & mask
                        grown[at] = slots[j]
                free(slots)
                slots = grown
    free(slots)
    if failed:
        raise MemoryError()
    return codes_array, distinct_array[:rows]


def range_codes(const int64_t[::1] keys):
    """The same as :func:`hash_codes` for keys within a small range: an array over the range
    (min..max) gives each key's row, first-met order."""
    cdef Py_ssize_t n = keys.shape[0], i, rows = 0
    cdef int64_t low = keys[0], high = keys[0], key
    for i in range(n):
        if keys[i] < low:
            low = keys[i]
        if keys[i] > high:
            high = keys[i]
    seen_array = np.full(high - low + 1, -1, dtype=np.int64)
    codes_array = np.empty(n, dtype=np.int64)
    distinct_array = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] seen = seen_array, codes = codes_array, distinct = distinct_array
    with nogil:
        for i in range(n):
            key = keys[i] - low
            if seen[key] < 0:
                seen[key] = rows
                distinct[rows] = keys[i]
                rows += 1
            codes[i] = seen[key]
    return codes_array, distinct_array[:rows]


cdef extern from "Python.h":
    dict _PyDict_NewPresized(Py_ssize_t minused)


def register_presized(const int64_t[::1] distinct):
    """:func:`register` into a new dict made at its final size (no growth on the way)."""
    return register(distinct, _PyDict_NewPresized(distinct.shape[0]))


def register(const int64_t[::1] distinct, dict groups):
    """Each distinct key as a Python int, mapped to its row in ``groups`` (rows numbered on
    from ``len(groups)``): what an accumulator keeps to answer ``group(key)``."""
    cdef Py_ssize_t i, start = len(groups)
    for i in range(distinct.shape[0]):
        PyDict_SetItem(groups, distinct[i], start + i)
    return groups


def write_rows(const int64_t[::1] rows, const int64_t[::1] correct,
               const int64_t[::1] assigned, Py_ssize_t groups, Py_ssize_t k):
    """Every result added straight into a new table of ``groups + 1`` rows (the last the
    overall) of ``1 + 3k + k^2`` int64 cells: n, (a, b, c) per category, pairs (correct,
    assigned). The table is allocated here (zeroed by the system: its pages are touched by the
    writes), as a batch of new groups must."""
    table = np.zeros((groups + 1, 1 + 3 * k + k * k), dtype=np.int64)
    write_rows_into(table, rows, correct, assigned, k)
    return table


def write_rows_into(int64_t[:, ::1] table, const int64_t[::1] rows,
                    const int64_t[::1] correct, const int64_t[::1] assigned, Py_ssize_t k):
    """:func:`write_rows` into a table given (its last row the overall)."""
    cdef Py_ssize_t n = rows.shape[0], i, t, s
    cdef int64_t *row
    cdef int64_t *whole = &table[table.shape[0] - 1, 0]
    with nogil:
        for i in range(n):
            row = &table[rows[i], 0]
            t, s = correct[i], assigned[i]
            row[0] += 1
            whole[0] += 1
            if t == s:
                row[1 + 3 * t] += 1
                whole[1 + 3 * t] += 1
            else:
                row[2 + 3 * s] += 1
                row[3 + 3 * t] += 1
                whole[2 + 3 * s] += 1
                whole[3 + 3 * t] += 1
            row[1 + 3 * k + t * k + s] += 1
            whole[1 + 3 * k + t * k + s] += 1


def write_pairs32(const int64_t[::1] rows, const int64_t[::1] correct,
                  const int64_t[::1] assigned, Py_ssize_t groups, Py_ssize_t k):
    """The smallest table that holds the counts: ``groups + 1`` rows of ``n`` and the pairs,
    int32, no cells (a category's cells are sums of its row and column of pairs, made at a
    read), allocated here."""
    cdef Py_ssize_t width = 1 + k * k, n = rows.shape[0], i, at
    table_array = np.zeros((groups + 1, width), dtype=np.int32)
    cdef int32_t[:, ::1] table = table_array
    cdef int32_t *whole = &table[groups, 0]
    with nogil:
        for i in range(n):
            at = correct[i] * k + assigned[i]
            table[rows[i], 0] += 1
            table[rows[i], 1 + at] += 1
            whole[0] += 1
            whole[1 + at] += 1
    return table_array


def touched(Py_ssize_t groups, Py_ssize_t width):
    """A new zeroed int64 table of ``groups + 1`` rows of ``width``, every page touched once:
    the allocation and first-touch page faults a batch of new groups pays for its rows (none
    after the first round, where glibc's malloc keeps the freed table in its heap)."""
    table_array = np.zeros((groups + 1, width), dtype=np.int64)
    cdef int64_t[::1] flat = table_array.reshape(-1)
    cdef Py_ssize_t i
    with nogil:
        for i in range(0, flat.shape[0], 512):
            flat[i] = 0
    return table_array


def count_codes(const int64_t[::1] rows, const int64_t[::1] correct,
                const int64_t[::1] assigned, Py_ssize_t groups, Py_ssize_t k):
    """``np.bincount((rows * k + correct) * k + assigned, minlength=groups * k * k)`` in one C
    loop (no code array made)."""
    cdef Py_ssize_t n = rows.shape[0], i
    counts_array = np.zeros(groups * k * k, dtype=np.int64)
    cdef int64_t[::1] counts = counts_array
    with nogil:
        for i in range(n):
            counts[(rows[i] * k + correct[i]) * k + assigned[i]] += 1
    return counts_array


def add_pair_counts(int64_t[:, ::1] table, const int64_t[::1] counts, Py_ssize_t k):
    """Pair counts by (row, correct, assigned) added into ``table``'s rows: pairs, the cells
    a (diagonal), b (column less diagonal), c (row less diagonal) and n."""
    cdef Py_ssize_t groups = counts.shape[0] // (k * k), g, t, s
    cdef int64_t count
    cdef int64_t *row
    cdef const int64_t *pairs
    with nogil:
        for g in range(groups):
            row = &table[g, 0]
            pairs = &counts[g * k * k]
            for t in range(k):
                for s in range(k):
                    count = pairs[t * k + s]
                    if count:
                        row[0] += count
                        row[1 + 3 * k + t * k + s] += count
                        if t == s:
                            row[1 + 3 * t] += count
                        else:
                            row[2 + 3 * s] += count
                            row[3 + 3 * t] += count
