# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Row 138's floor: the least work a grouped ``add_result(assigned, correct, group=key)`` must do.

Per result: the group key looked up in a Python dict (key -> row), the two labels in one
shared category dict (label -> code), then one added to the group's ``n``, its per-category
cells (a: hits of the category; b: assigned it, wrongly; c: it was correct, missed) and its
pair count (a dense K x K table), and the same for the overall, which is one more row of the
same table. Every group's counts are in ONE contiguous table, laid out two ways:

- ``Rows`` (array of structs): a group is one record ``n, (a, b, c) x K, pairs[K][K]``;
- ``Columns`` (struct of arrays): ``n[rows]``, ``a[rows][K]``, ``b[rows][K]``, ``c[rows][K]``,
  ``pairs[rows][K][K]``, each its own array.

Each in int64 cells and in int32 cells (a row half as large: how much of the cost is cache).
No checks (no count limit, no unknown label: a KeyError), no running sums, no score trackers:
a floor, not an accumulator. Not part of the package or of ``python -m tests.benchmarks``;
``tests/benchmarks/floors/run.py`` compiles and times it.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset


cdef extern from "Python.h":
    PyObject *PyDict_GetItemWithError(object d, object key) except? NULL

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void **memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void *addr, size_t length, int advice)
    int MADV_HUGEPAGE

#: Transparent huge pages' size here (x86-64): a table so aligned and advised is mapped by 2 MiB
#: pages where the system allows it (``/sys/kernel/mm/transparent_hugepage/enabled``).
cdef size_t HUGE = 2 * 1024 * 1024


ctypedef fused cell_t:
    int32_t
    int64_t


cdef inline Py_ssize_t _code(dict d, object key) except -1:
    cdef PyObject *found = PyDict_GetItemWithError(d, key)
    if found is NULL:
        raise KeyError(key)
    return <Py_ssize_t><object>found


cdef inline void _row_write(cell_t *row, Py_ssize_t k, Py_ssize_t t, Py_ssize_t s) noexcept nogil:
    """One result (correct code ``t``, assigned ``s``) into one record ``n, (a, b, c) x k, pairs``."""
    row[0] += 1
    if t == s:
        row[1 + 3 * t] += 1
    else:
        row[2 + 3 * s] += 1
        row[3 + 3 * t] += 1
    row[1 + 3 * k + t * k + s] += 1


cdef inline void _column_write(cell_t *n, cell_t *a, cell_t *b, cell_t *c, cell_t *pairs,
                               Py_ssize_t k, Py_ssize_t g, Py_ssize_t t,
                               Py_ssize_t s) noexcept nogil:
    """One result into row ``g`` of the separate arrays."""
    n[g] += 1
    if t == s:
        a[g * k + t] += 1
    else:
        b[g * k + s] += 1
        c[g * k + t] += 1
    pairs[(g * k + t) * k + s] += 1


cdef class _Table:
    """The maps and the one allocation every layout shares: ``groups + 1`` rows (the last the
    overall) of ``width`` cells of ``cell`` bytes, zeroed and touched once when made (so the
    timed stream pays no first-touch page faults). ``huge``: the allocation aligned to 2 MiB
    and advised to the kernel as huge pages (fewer TLB misses on a random row)."""

    cdef dict groups, codes
    cdef Py_ssize_t k, rows, width, overall, cell
    cdef char *memory

    def __init__(self, list categories, list groups, int cell, bint huge, bint cells=True):
        self.k = len(categories)
        self.codes = {label: code for code, label in enumerate(categories)}
        self.groups = {key: row for row, key in enumerate(groups)}
        self.rows = len(groups) + 1
        self.overall = len(groups)
        self.width = 1 + (3 * self.k if cells else 0) + self.k * self.k
        self.cell = cell
        cdef size_t size = self.rows * self.width * cell
        cdef void *memory = NULL
        if huge:
            size = (size + HUGE - 1) // HUGE * HUGE
            if posix_memalign(&memory, HUGE, size):
                raise MemoryError()
            madvise(memory, size, MADV_HUGEPAGE)
        else:
            memory = calloc(size, 1)
        if memory is NULL:
            raise MemoryError()
        self.memory = <char *>memory
        memset(self.memory, 0, size)

    def __dealloc__(self):
        free(self.memory)

    def nbytes(self):
        """The table's bytes (the maps not counted)."""
        return self.rows * self.width * self.cell


cdef class Rows64(_Table):
    """Array of structs, int64 cells."""

    def __init__(self, list categories, list groups, bint huge=False):
        _Table.__init__(self, categories, groups, 8, huge)

    def add(self, assigned, correct, group):
        cdef Py_ssize_t g = _code(self.groups, group)
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        cdef int64_t *table = <int64_t *>self.memory
        _row_write(table + g * self.width, self.k, t, s)
        _row_write(table + self.overall * self.width, self.k, t, s)

    def pairs(self, Py_ssize_t row):
        """Row ``row``'s pair counts (correct x assigned) and its n, for the check."""
        cdef int64_t *record = <int64_t *>self.memory + row * self.width
        return [record[1 + 3 * self.k + i] for i in range(self.k * self.k)], record[0]


cdef class Rows32(_Table):
    """Array of structs, int32 cells."""

    def __init__(self, list categories, list groups, bint huge=False):
        _Table.__init__(self, categories, groups, 4, huge)

    def add(self, assigned, correct, group):
        cdef Py_ssize_t g = _code(self.groups, group)
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        cdef int32_t *table = <int32_t *>self.memory
        _row_write(table + g * self.width, self.k, t, s)
        _row_write(table + self.overall * self.width, self.k, t, s)

    def pairs(self, Py_ssize_t row):
        cdef int32_t *record = <int32_t *>self.memory + row * self.width
        return [record[1 + 3 * self.k + i] for i in range(self.k * self.k)], record[0]


cdef class Pairs32(_Table):
    """The smallest table that holds the counts: a record of ``n`` and the pairs, int32, no
    cells (a category's cells are sums of its row and column of pairs, made at a read)."""

    def __init__(self, list categories, list groups, bint huge=False):
        _Table.__init__(self, categories, groups, 4, huge, False)

    def add(self, assigned, correct, group):
        cdef Py_ssize_t g = _code(self.groups, group)
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        cdef int32_t *table = <int32_t *>self.memory
        cdef int32_t *row = table + g * self.width
        row[0] += 1
        row[1 + t * self.k + s] += 1
        row = table + self.overall * self.width
        row[0] += 1
        row[1 + t * self.k + s] += 1

    def pairs(self, Py_ssize_t row):
        cdef int32_t *record = <int32_t *>self.memory + row * self.width
        return [record[1 + i] for i in range(self.k * self.k)], record[0]


cdef class Columns64(_Table):
    """Struct of arrays, int64 cells: n, a, b, c and pairs each an array of ``rows`` rows, in
    the one allocation one after the other."""

    cdef int64_t *n
    cdef int64_t *a
    cdef int64_t *b
    cdef int64_t *c
    cdef int64_t *p

    def __init__(self, list categories, list groups, bint huge=False):
        _Table.__init__(self, categories, groups, 8, huge)
        self.n = <int64_t *>self.memory
        self.a = self.n + self.rows
        self.b = self.a + self.rows * self.k
        self.c = self.b + self.rows * self.k
        self.p = self.c + self.rows * self.k

    def add(self, assigned, correct, group):
        cdef Py_ssize_t g = _code(self.groups, group)
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        _column_write(self.n, self.a, self.b, self.c, self.p, self.k, g, t, s)
        _column_write(self.n, self.a, self.b, self.c, self.p, self.k, self.overall, t, s)

    def pairs(self, Py_ssize_t row):
        return [self.p[row * self.k * self.k + i] for i in range(self.k * self.k)], self.n[row]


cdef class Columns32(_Table):
    """Struct of arrays, int32 cells."""

    cdef int32_t *n
    cdef int32_t *a
    cdef int32_t *b
    cdef int32_t *c
    cdef int32_t *p

    def __init__(self, list categories, list groups, bint huge=False):
        _Table.__init__(self, categories, groups, 4, huge)
        self.n = <int32_t *>self.memory
        self.a = self.n + self.rows
        self.b = self.a + self.rows * self.k
        self.c = self.b + self.rows * self.k
        self.p = self.c + self.rows * self.k

    def add(self, assigned, correct, group):
        cdef Py_ssize_t g = _code(self.groups, group)
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        _column_write(self.n, self.a, self.b, self.c, self.p, self.k, g, t, s)
        _column_write(self.n, self.a, self.b, self.c, self.p, self.k, self.overall, t, s)

    def pairs(self, Py_ssize_t row):
        return [self.p[row * self.k * self.k + i] for i in range(self.k * self.k)], self.n[row]


cdef class Overall:
    """No groups: the two label look-ups and the overall's record of ``Rows64`` (what a plain
    accumulator's floor does), so that a floor less this is the group's own share of it."""

    cdef dict codes
    cdef Py_ssize_t k
    cdef int64_t *record

    def __init__(self, list categories, list groups, bint huge=False):
        self.k = len(categories)
        self.codes = {label: code for code, label in enumerate(categories)}
        self.record = <int64_t *>calloc(1 + 3 * self.k + self.k * self.k, 8)
        if self.record is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.record)

    def add(self, assigned, correct, group):
        cdef Py_ssize_t t = _code(self.codes, correct), s = _code(self.codes, assigned)
        _row_write(self.record, self.k, t, s)

    def pairs(self, Py_ssize_t row):
        return [self.record[1 + 3 * self.k + i] for i in range(self.k * self.k)], self.record[0]


cdef class Lookups:
    """Only the three dict look-ups of a result (key -> row, label -> code twice), no write: how
    much of the floor is finding the row."""

    cdef dict groups, codes

    def __init__(self, list categories, list groups, bint huge=False):
        self.codes = {label: code for code, label in enumerate(categories)}
        self.groups = {key: row for row, key in enumerate(groups)}

    def add(self, assigned, correct, group):
        _code(self.groups, group)
        _code(self.codes, correct)
        _code(self.codes, assigned)


cdef class Nothing:
    """The call alone: a method of the same signature that does nothing (the Python loop and
    the call's cost, which every Python-facing design pays)."""

    def __init__(self, list categories, list groups, bint huge=False):
        pass

    def add(self, assigned, correct, group):
        pass


def latency(Py_ssize_t nbytes, bint huge=False, Py_ssize_t steps=2_000_000, seed=0):
    """Nanoseconds of one dependent load at random in a buffer of ``nbytes`` (a pointer chase over
    its cache lines in one random cycle): the machine's latency at that size, which a Python loop
    exposes in full (the interpreter's work between two results leaves no room to overlap one
    result's miss with the next's)."""
    import random
    import time
    cdef Py_ssize_t lines = nbytes // 64, i
    cdef size_t size = lines * 64
    cdef void *memory = NULL
    if huge:
        size = (size + HUGE - 1) // HUGE * HUGE
        if posix_memalign(&memory, HUGE, size):
            raise MemoryError()
        madvise(memory, size, MADV_HUGEPAGE)
    else:
        memory = calloc(size, 1)
        if memory is NULL:
            raise MemoryError()
    memset(memory, 0, size)
    cdef Py_ssize_t *cells = <Py_ssize_t *>memory
    order = list(range(lines))
    random.Random(seed).shuffle(order)
    for i in range(lines):  # line order[i] points to line order[i + 1]: one cycle of every line
        cells[order[i] * 8] = order[(i + 1) % lines] * 8
    cdef Py_ssize_t at = order[0] * 8
    for i in range(lines):  # one lap untimed: what a cache can keep, it keeps
        at = cells[at]
    start = time.perf_counter()
    with nogil:
        for i in range(steps):
            at = cells[at]
    seconds = time.perf_counter() - start
    free(memory)
    if at < 0:  # (never: the chase's end is read, so the loop is not optimised away)
        raise RuntimeError("the chase left the buffer")
    return seconds / steps * 1e9
