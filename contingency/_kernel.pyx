# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled kernel of PartitionComparison's table: cells, totals and exact running sums in C.

The same interface and, after every change, the same state as the pure-Python
reference (contingency/_table_reference.py, the specification; read it first):
:mod:`contingency._backend` loads this module and subclasses
:class:`KernelTable` with the reads :class:`contingency._table.Table` writes once.

Storage:

- labels: a dict per side from label to code (looked up from C) and a list
  from code to label; codes are given in arrival order and never reused
  while they stand (a forgotten label leaves a hole, closed by renumbering in
  order once holes outnumber labels), so code order is the reference's dict
  order (a batch's new labels join in the order of its label lists);
- cells: the kernel's open-addressing hash table (contingency/_kernel_slots.pxi:
  linear probing, deletion by backward shift) from the key ``row << 32 |
  column`` to the count;
- row and column totals: int64 arrays indexed by code; N an int64;
- running sums per level (cells, rows, columns): ``sum C(n, 2)`` in 128 bits
  (below ``2**125`` while N is below ``2**63``), ``sum C(n, 3)`` in 192 bits
  (below ``2**187``), ``sum n_log_n_fixed(n)`` in 128 bits (each term is
  ``fl(n ln n) 2**52 < 2**122``, and the sum is at most ``N ln N 2**52
  (1 + 2**-52) < 2**121``). Terms are added and subtracted modulo the width,
  which is exact because every true sum lies within it. ``n_log_n_fixed``
  is the float64 product ``n * log(n)`` (the C library's ``log``, which
  Python's ``math.log`` calls) scaled by ``2**52``, an exact integer.
- fine ``n ln n`` sums, once kept: 256-bit integers (each below ``2**197``,
  added and subtracted modulo the width, as above) of the terms
  :func:`contingency.formulas.partition.fine_n_log_n` gives, the one
  definition: the kernel asks it once per count below 65,536 (then reads
  the term from a C table shared by every table of the process) and on every
  use above. A unit change of a count below that bound steps the three
  fine sums without a Python call.

Every change is checked whole before its first write (count limit, labels,
removals of elements that are not there), with the reference's messages.
"""

cimport cython
from cpython.object cimport PyObject
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy

import numpy as np

from contingency._table import Cells, check_pair
from contingency.formulas._numeric import check_room, dense_is_cheaper
from contingency.formulas.partition import FineSums, TableSums, fine_n_log_n, fine_n_log_n_sum

cdef extern from *:
    """
    #ifndef CONTINGENCY_KERNEL_SOURCE
    #define CONTINGENCY_KERNEL_SOURCE "unknown"
    #endif
    #include <math.h>
    #include <stdint.h>

    typedef unsigned __int128 ck_u128;
    typedef struct { ck_u128 low; uint64_t high; } ck_u192;
    /* The sums of one level: sum C(n, 2), sum C(n, 3), sum n_log_n_fixed(n). */
    typedef struct { ck_u128 pairs; ck_u192 triples; ck_u128 log; } ck_level;

    static ck_u128 ck_pairs(uint64_t n) {
        ck_u128 a = n, b = n ? n - 1 : 0;
        return (n & 1) ? a * (b >> 1) : (a >> 1) * b;
    }

    static ck_u192 ck_triples(uint64_t n) {
        ck_u192 r = {0, 0};
        if (n < 3) return r;
        if (n < (1ULL << 21)) {                        /* the product fits in 64 bits */
            r.low = n * (n - 1) * (n - 2) / 6;
            return r;
        }
        uint64_t a = n, b = n - 1, c = n - 2;
        if (a % 2 == 0) a /= 2; else b /= 2;          /* n or n - 1 is even */
        if (a % 3 == 0) a /= 3; else if (b % 3 == 0) b /= 3; else c /= 3;
        ck_u128 ab = (ck_u128)a * b;                   /* below 2**126 */
        ck_u128 lo = (ck_u128)(uint64_t)ab * c;
        ck_u128 hi = (ck_u128)(uint64_t)(ab >> 64) * c;
        ck_u128 mid = (lo >> 64) + (uint64_t)hi;
        r.low = ((ck_u128)(uint64_t)mid << 64) | (uint64_t)lo;
        r.high = (uint64_t)(hi >> 64) + (uint64_t)(mid >> 64);
        return r;
    }

    static void ck_add192(ck_u192 *s, ck_u192 x) {
        ck_u128 low = s->low + x.low;
        s->high += x.high + (low < s->low);
        s->low = low;
    }

    static void ck_sub192(ck_u192 *s, ck_u192 x) {
        ck_u128 low = s->low - x.low;
        s->high -= x.high + (s->low < x.low);
        s->low = low;
    }

    /* fl(n * ln n) * 2**52, exactly: Python's n_log_n_fixed. */
    #define CK_LOG_CACHE 4096
    static ck_u128 ck_log_cache[CK_LOG_CACHE];

    static ck_u128 ck_log_compute(uint64_t n) {
        if (n < 2) return 0;
        double v = (double)n * log((double)n);
        int e;
        double m = frexp(v, &e);                       /* v = m 2**e, m in [0.5, 1), e >= 1 */
        uint64_t mantissa = (uint64_t)ldexp(m, 53);
        return (ck_u128)mantissa << (e - 1);           /* v 2**52 = mantissa 2**(e - 1) */
    }

    static void ck_log_init(void) {
        for (uint64_t n = 0; n < CK_LOG_CACHE; n++) ck_log_cache[n] = ck_log_compute(n);
    }

    static inline ck_u128 ck_log(uint64_t n) {
        return n < CK_LOG_CACHE ? ck_log_cache[n] : ck_log_compute(n);
    }

    /* A level's sums as a count of it goes from old to new. */
    static inline void ck_step(ck_level *level, uint64_t old, uint64_t new_) {
        level->pairs += ck_pairs(new_) - ck_pairs(old);
        if (new_ == old + 1) {                         /* C(n + 1, 3) - C(n, 3) = C(n, 2) */
            ck_u192 t = {ck_pairs(old), 0};
            ck_add192(&level->triples, t);
        } else if (old == new_ + 1) {
            ck_u192 t = {ck_pairs(new_), 0};
            ck_sub192(&level->triples, t);
        } else {
            ck_add192(&level->triples, ck_triples(new_));
            ck_sub192(&level->triples, ck_triples(old));
        }
        level->log += ck_log(new_) - ck_log(old);
    }

    static PyObject *ck_int(ck_u128 x) {
        if (!(uint64_t)(x >> 64)) return PyLong_FromUnsignedLongLong((uint64_t)x);
        unsigned char bytes[16];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(x >> (8 * i));
        return _PyLong_FromByteArray(bytes, 16, 1, 0);
    }

    static PyObject *ck_int192(ck_u192 x) {
        if (!x.high) return ck_int(x.low);
        unsigned char bytes[24];
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(x.low >> (8 * i));
        for (int i = 0; i < 8; i++) bytes[16 + i] = (unsigned char)(x.high >> (8 * i));
        return _PyLong_FromByteArray(bytes, 24, 1, 0);
    }

    static inline uint64_t ck_hash(uint64_t key, int bits) {
        return (key * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    }

    /* A fine n ln n sum (units of 2**-128, below 2**197 while N is below 2**63), modulo
       2**256: four 64-bit words, least significant first. */
    typedef struct { uint64_t w[4]; } ck_u256;

    static inline void ck_add256(ck_u256 *s, const ck_u256 *x) {
        ck_u128 carry = 0;
        for (int i = 0; i < 4; i++) {
            carry += (ck_u128)s->w[i] + x->w[i];
            s->w[i] = (uint64_t)carry;
            carry >>= 64;
        }
    }

    static inline void ck_sub256(ck_u256 *s, const ck_u256 *x) {
        uint64_t borrow = 0;
        for (int i = 0; i < 4; i++) {
            uint64_t a = s->w[i], b = x->w[i];
            uint64_t d = a - b - borrow;
            borrow = (a < b) || (a == b && borrow) ? 1 : 0;
            s->w[i] = d;
        }
    }

    static PyObject *ck_int256(const ck_u256 *x) {
        unsigned char bytes[32];
        for (int i = 0; i < 32; i++) bytes[i] = (unsigned char)(x->w[i / 8] >> (8 * (i % 8)));
        return _PyLong_FromByteArray(bytes, 32, 1, 0);
    }

    /* Fine terms fine_n_log_n(n) for n below this, as the formulas computed them, once each. */
    #define CK_FINE_CACHE 65536
    static ck_u256 ck_fine_cache[CK_FINE_CACHE];
    static unsigned char ck_fine_known[CK_FINE_CACHE];

    /* Ask for a slot's cache line ahead of its use (a batch's look-ups miss the cache). */
    static inline void ck_prefetch(const void *address) {
    #if defined(__GNUC__)
        __builtin_prefetch(address, 1, 1);
    #endif
    }
    """
    const char *CONTINGENCY_KERNEL_SOURCE
    ctypedef struct ck_level:
        pass
    ctypedef struct ck_u256:
        uint64_t w[4]
    enum: CK_FINE_CACHE
    ck_u256 ck_fine_cache[]
    unsigned char ck_fine_known[]
    void ck_add256(ck_u256 *s, const ck_u256 *x) nogil
    void ck_sub256(ck_u256 *s, const ck_u256 *x) nogil
    object ck_int256(const ck_u256 *x)
    void ck_log_init()
    void ck_step(ck_level *level, uint64_t old, uint64_t new_) nogil
    uint64_t ck_hash(uint64_t key, int bits) nogil
    void ck_prefetch(const void *address) nogil
    PyObject *PyDict_GetItemWithError(object d, object key) except? NULL
    long long PyLong_AsLongLongAndOverflow(object value, int *overflow) except? -1

cdef extern from *:
    """
    static PyObject *ck_level_pairs(ck_level *l) { return ck_int(l->pairs); }

    /* An instance of a tuple subclass (TableSums) holding nine values, built as CPython's
       tuple_subtype_new builds one, without its intermediate tuple. */
    static PyObject *ck_tuple9(PyObject *type, PyObject *a, PyObject *b, PyObject *c,
                               PyObject *d, PyObject *e, PyObject *f, PyObject *g,
                               PyObject *h, PyObject *i) {
        PyTypeObject *t = (PyTypeObject *)type;
        PyObject *items[9] = {a, b, c, d, e, f, g, h, i};
        PyObject *result = t->tp_alloc(t, 9);
        if (result == NULL) return NULL;
        for (int k = 0; k < 9; k++) {
            Py_INCREF(items[k]);
            PyTuple_SET_ITEM(result, k, items[k]);
        }
        return result;
    }
    static PyObject *ck_level_triples(ck_level *l) { return ck_int192(l->triples); }
    static PyObject *ck_level_log(ck_level *l) { return ck_int(l->log); }
    """
    object ck_level_pairs(ck_level *l)
    object ck_level_triples(ck_level *l)
    object ck_level_log(ck_level *l)
    object ck_tuple9(object type, object a, object b, object c, object d, object e, object f,
                     object g, object h, object i)

ck_log_init()

#: The SHA-256 of the .pyx this module was compiled from (hatch_build.py passes it).
SOURCE_HASH = CONTINGENCY_KERNEL_SOURCE.decode("ascii")

cdef int64_t MAX_COUNT = 9223372036854775807
cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL
#: Codes stay below this, so that two make one 64-bit key.
cdef int64_t CODE_LIMIT = 0x7FFFFFFF


#: A slot of the hash table of cells: the key ``row << 32 | column`` (EMPTY if free) and its
#: count, side by side so that a look-up touches one cache line.
ctypedef struct Slot:
    uint64_t key
    int64_t count

include "_kernel_slots.pxi"


cdef enum:
    CELLS = 0
    ROWS = 1
    COLUMNS = 2


cdef class _Side:
    """One side's labels: label -> code (a dict), code -> label (a list, None in a hole), totals."""

    cdef dict index
    cdef list labels
    cdef int64_t *totals
    cdef Py_ssize_t capacity
    cdef Py_ssize_t alive

    def __cinit__(self):
        self.index = {}
        self.labels = []
        self.capacity = 16
        self.totals = <int64_t *>calloc(self.capacity, sizeof(int64_t))
        if self.totals is NULL:
            raise MemoryError()
        self.alive = 0

    def __dealloc__(self):
        free(self.totals)

    cdef int64_t code_of(self, object label) except -2:
        """The label's code, or -1 when it is not in the table (TypeError when unhashable)."""
        cdef PyObject *found = PyDict_GetItemWithError(self.index, label)
        if found is NULL:
            return -1
        return <int64_t>(<object>found)

    cdef int64_t add(self, object label) except -1:
        """Give a new label the next code."""
        cdef Py_ssize_t code = len(self.labels)
        cdef int64_t *grown
        if code >= CODE_LIMIT:
            raise OverflowError("contingency's kernel holds at most 2**31 - 1 labels per side")
        if code >= self.capacity:
            grown = <int64_t *>realloc(self.totals, 2 * self.capacity * sizeof(int64_t))
            if grown is NULL:
                raise MemoryError()
            self.totals = grown
            self.capacity *= 2
        self.totals[code] = 0
        self.labels.append(label)
        self.index[label] = code
        self.alive += 1
        return code

    cdef void forget(self, int64_t code):
        label = self.labels[code]
        del self.index[label]
        self.labels[code] = None
        self.alive -= 1

    cdef _Side copy(self):
        cdef _Side other = _Side.__new__(_Side)
        cdef int64_t *totals = <int64_t *>malloc(self.capacity * sizeof(int64_t))
        if totals is NULL:
            raise MemoryError()
        memcpy(totals, self.totals, len(self.labels) * sizeof(int64_t))
        free(other.totals)
        other.totals, other.capacity = totals, self.capacity
        other.index, other.labels, other.alive = dict(self.index), list(self.labels), self.alive
        return other

    cdef object renumbered(self):
        """Close the holes, keeping the order: the old code -> new code array (-1 for a hole)."""
        cdef Py_ssize_t size = len(self.labels), old, new = 0
        codes = np.full(size, -1, dtype=np.int64)
        cdef int64_t[::1] view = codes
        labels = []
        for old in range(size):
            label = self.labels[old]
            if label is None:  # a hole (None is never a label)
                continue
            view[old] = new
            self.totals[new] = self.totals[old]
            self.index[label] = new
            labels.append(label)
            new += 1
        self.labels = labels
        return codes

    cdef object alive_codes(self):
        """The codes in use, in order."""
        cdef Py_ssize_t size = len(self.labels), code
        found = np.empty(self.alive, dtype=np.int64)
        cdef int64_t[::1] view = found
        cdef Py_ssize_t at = 0
        for code in range(size):
            if self.totals[code] != 0:
                view[at] = code
                at += 1
        return found

    cdef object totals_array(self):
        """The totals in use, in code order."""
        found = np.empty(self.alive, dtype=np.int64)
        cdef int64_t[::1] view = found
        cdef Py_ssize_t size = len(self.labels), code, at = 0
        for code in range(size):
            if self.totals[code] != 0:
                view[at] = self.totals[code]
                at += 1
        return found


@cython.auto_pickle(False)  # pickled as its cells: contingency._table.Table.__reduce__
cdef class KernelTable:
    """A reference-by-model table with its running sums, in C (see the module docstring)."""

    cdef _Side _rows, _columns
    cdef Slot *_slots
    cdef int _bits
    cdef Py_ssize_t _used
    cdef ck_level _sums[3]
    cdef readonly int64_t n_elements
    cdef bint _keep_fine  # whether the fine sums below are kept
    cdef ck_u256 _fine[3]  # sum fine_n_log_n(n) per level, modulo 2**256

    def __cinit__(self):
        self._rows, self._columns = _Side(), _Side()
        self._bits = 4
        self._allocate(self._bits)
        self._used = 0
        self.n_elements = 0
        self._keep_fine = False

    def __dealloc__(self):
        free(self._slots)

    cdef int _allocate(self, int bits) except -1:
        self._slots = slots_new(bits)
        return 0

    # The hash table of cells (contingency/_kernel_slots.pxi) ------------------------------------

    cdef inline Py_ssize_t _slot(self, uint64_t key) noexcept nogil:
        """The slot holding ``key``, or the empty slot where it would go."""
        return slots_find(self._slots, self._bits, key)

    cdef int _resize(self, int bits) except -1:
        """Move the cells to a table of ``2**bits`` slots."""
        self._slots = slots_moved(self._slots, self._bits, bits)
        self._bits = bits
        return 0

    cdef int _reserve(self, Py_ssize_t more) except -1:
        """Room for ``more`` cells beyond those held, the table at most half full."""
        cdef int bits = slots_bits_for(self._bits, self._used + more)
        if bits != self._bits:
            self._resize(bits)
        return 0

    cdef void _delete(self, Py_ssize_t at) noexcept nogil:
        """Empty a slot, shifting back the entries that probed past it."""
        slots_delete(self._slots, self._bits, at)
        self._used -= 1

    cdef int64_t _count(self, int64_t row, int64_t column) noexcept nogil:
        cdef Py_ssize_t at
        if row < 0 or column < 0:
            return 0
        at = self._slot(<uint64_t>row << 32 | <uint64_t>column)
        return 0 if self._slots[at].key == EMPTY else self._slots[at].count

    # Changes -----------------------------------------------------------------------------

    def step(self, reference, model, weight):
        """``weight`` elements labelled ``reference`` and ``model`` (negative: taken back)."""
        cdef int overflow = 0
        cdef int64_t w = PyLong_AsLongLongAndOverflow(weight, &overflow), row, column, n, a, b
        if overflow:
            return self._step_huge(reference, model, weight)
        if w > 0 and w > MAX_COUNT - self.n_elements:
            check_room(self.n_elements, weight, "elements")
        try:
            row = self._rows.code_of(reference)
            column = self._columns.code_of(model)
        except TypeError:
            check_pair(reference, model)  # names the unhashable label
            raise
        if row < 0 or column < 0:
            check_pair(reference, model)
        n = self._count(row, column)
        if n + w < 0:
            raise ValueError(f"remove: no element with reference {reference!r} and model "
                             f"{model!r} to remove")
        if w == 0:
            return
        if row < 0:
            row = self._rows.add(reference)
        if column < 0:
            column = self._columns.add(model)
        a, b = self._rows.totals[row], self._columns.totals[column]
        self._change_cell(row, column, w)
        self._change_total(self._rows, ROWS, row, w)
        self._change_total(self._columns, COLUMNS, column, w)
        self.n_elements += w
        if self._keep_fine:
            self._fine_step(CELLS, n, n + w)
            self._fine_step(ROWS, a, a + w)
            self._fine_step(COLUMNS, b, b + w)
        if a + w == 0 or b + w == 0:
            self._renumber_if_sparse()

    cdef int _fine_step(self, int level, int64_t old, int64_t new) except -1:
        """A level's fine sum as one of its counts goes from ``old`` to ``new``."""
        cdef ck_u256 term
        _fine_term(<uint64_t>new, &term)
        ck_add256(&self._fine[level], &term)
        _fine_term(<uint64_t>old, &term)
        ck_sub256(&self._fine[level], &term)
        return 0

    def _step_huge(self, reference, model, weight):
        """A weight past int64: refused, with the message the reference gives."""
        if weight > 0:
            check_room(self.n_elements, weight, "elements")
        check_pair(reference, model)
        raise ValueError(f"remove: no element with reference {reference!r} and model "
                         f"{model!r} to remove")

    cdef int _change_cell(self, int64_t row, int64_t column, int64_t w) except -1:
        """A cell gains ``w`` (checked: it stays >= 0): its count and the cells' sums."""
        cdef uint64_t key = <uint64_t>row << 32 | <uint64_t>column
        cdef Py_ssize_t at = self._slot(key)
        cdef int64_t old = 0, new
        if self._slots[at].key == EMPTY:
            if 2 * (self._used + 1) > ((<Py_ssize_t>1) << self._bits):
                self._reserve(1)
                at = self._slot(key)
            self._slots[at].key, self._slots[at].count = key, 0
            self._used += 1
        else:
            old = self._slots[at].count
        new = old + w
        ck_step(&self._sums[CELLS], <uint64_t>old, <uint64_t>new)
        if new == 0:
            self._delete(at)
        else:
            self._slots[at].count = new
        return 0

    cdef int _change_total(self, _Side side, int level, int64_t code, int64_t w) except -1:
        """A row or column gains ``w`` (checked): its total and its level's sums; 0 forgets it."""
        cdef int64_t old = side.totals[code], new = old + w
        ck_step(&self._sums[level], <uint64_t>old, <uint64_t>new)
        side.totals[code] = new
        if new == 0:
            side.forget(code)
        return 0

    cdef int _renumber_if_sparse(self) except -1:
        """Close the holes forgotten labels left once they are most codes of a side (at least 1024).

        In order, so the codes keep the labels' arrival order; the cells are re-keyed.
        Called when a change is complete, never while one holds codes.
        """
        cdef _Side side
        for side in (self._rows, self._columns):
            if len(side.labels) > 1024 and 2 * side.alive < len(side.labels):
                break
        else:
            return 0
        rows = self._rows.renumbered()
        columns = self._columns.renumbered()
        cdef int64_t[::1] row_code = rows, column_code = columns
        cdef Slot *slots = self._slots
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at, row, column
        cdef uint64_t key
        self._allocate(self._bits)
        for i in range(size):
            if slots[i].key != EMPTY:
                row = <Py_ssize_t>(slots[i].key >> 32)
                column = <Py_ssize_t>(slots[i].key & 0xFFFFFFFF)
                key = <uint64_t>row_code[row] << 32 | <uint64_t>column_code[column]
                at = self._slot(key)
                self._slots[at].key, self._slots[at].count = key, slots[i].count
        free(slots)
        return 0

    def apply(self, cells, where):
        """A batch of cells (counts all of one sign), refused whole if any part of it would fail."""
        total = cells.total()
        check_room(self.n_elements, total, "elements")
        if cells.counts.dtype == object and not _fits_int64(cells.counts):
            self._refuse_huge_removal(cells, where)
        row_labels, column_labels = cells.row_labels, cells.column_labels
        rows_array = np.ascontiguousarray(cells.rows, dtype=np.int64)
        columns_array = np.ascontiguousarray(cells.columns, dtype=np.int64)
        counts_array = np.ascontiguousarray(cells.counts, dtype=np.int64)
        cdef int64_t[::1] rows = rows_array, columns = columns_array, counts = counts_array
        row_map_array = np.array([self._rows.index.get(label, -1) for label in row_labels],
                                 dtype=np.int64)
        column_map_array = np.array([self._columns.index.get(label, -1)
                                     for label in column_labels], dtype=np.int64)
        cdef int64_t[::1] row_map = row_map_array, column_map = column_map_array
        cdef Py_ssize_t size = counts.shape[0], k
        cdef int64_t have, r, c
        cdef bint removal = False
        for k in range(size):
            if counts[k] < 0:
                removal = True
                have = self._count(row_map[rows[k]], column_map[columns[k]])
                if have + counts[k] < 0:
                    raise ValueError(
                        f"{where}: cannot remove {-counts[k]} element(s) with reference "
                        f"{row_labels[rows[k]]!r} and model {column_labels[columns[k]]!r}: "
                        f"there are {have}")
        cdef ck_u256 change
        before = None
        if self._keep_fine:
            before = self._fine_levels(row_map_array, column_map_array, rows_array,
                                       columns_array)
        # New labels join in the order of the batch's label lists (those a cell uses).
        used = counts_array != 0
        row_used = np.zeros(len(row_labels), dtype=np.int8)
        row_used[rows_array[used]] = 1
        column_used = np.zeros(len(column_labels), dtype=np.int8)
        column_used[columns_array[used]] = 1
        cdef signed char[::1] row_new = row_used, column_new = column_used
        for k in range(row_map.shape[0]):
            if row_map[k] < 0 and row_new[k]:
                row_map[k] = self._rows.add(row_labels[k])
        for k in range(column_map.shape[0]):
            if column_map[k] < 0 and column_new[k]:
                column_map[k] = self._columns.add(column_labels[k])
        if not removal:
            self._reserve(size)  # one resize for the batch, not a doubling every so often
        row_change_array = np.zeros(len(row_labels), dtype=np.int64)
        column_change_array = np.zeros(len(column_labels), dtype=np.int64)
        cdef int64_t[::1] row_change = row_change_array, column_change = column_change_array
        cdef Py_ssize_t ahead
        for k in range(size):
            ahead = k + 16  # the slot of a later cell, fetched while this one is written
            if ahead < size and counts[ahead] != 0:
                ck_prefetch(&self._slots[ck_hash(
                    <uint64_t>row_map[rows[ahead]] << 32 | <uint64_t>column_map[columns[ahead]],
                    self._bits)])
            if counts[k] == 0:
                continue
            r, c = row_map[rows[k]], column_map[columns[k]]
            self._change_cell(r, c, counts[k])
            row_change[rows[k]] += counts[k]
            column_change[columns[k]] += counts[k]
        # Totals move once per row and column the batch touches (their sums telescope).
        for k in range(row_change.shape[0]):
            if row_change[k]:
                self._change_total(self._rows, ROWS, row_map[k], row_change[k])
        for k in range(column_change.shape[0]):
            if column_change[k]:
                self._change_total(self._columns, COLUMNS, column_map[k], column_change[k])
        self.n_elements += int(total)
        if removal:
            self._renumber_if_sparse()
        if self._keep_fine:
            after = self._fine_levels(
                np.array([self._rows.index.get(label, -1) for label in row_labels], dtype=np.int64),
                np.array([self._columns.index.get(label, -1) for label in column_labels],
                         dtype=np.int64), rows_array, columns_array)
            for level in range(3):
                _set_256(&change, fine_n_log_n_sum(after[level]) - fine_n_log_n_sum(before[level]))
                ck_add256(&self._fine[level], &change)

    cdef object _fine_levels(self, row_map, column_map, rows, columns):
        """The counts a batch touches, per level (cells, rows, columns), as they stand."""
        cdef int64_t[::1] rmap = row_map, cmap = column_map, r = rows, c = columns
        cdef Py_ssize_t k
        cells = [self._count(rmap[r[k]], cmap[c[k]]) for k in range(r.shape[0])]
        totals_r = [self._rows.totals[rmap[k]] if rmap[k] >= 0 else 0 for k in range(rmap.shape[0])]
        totals_c = [self._columns.totals[cmap[k]] if cmap[k] >= 0 else 0
                    for k in range(cmap.shape[0])]
        return cells, totals_r, totals_c

    def _refuse_huge_removal(self, cells, where):
        """A batch count past int64 can only be a removal, and is refused: the reference's message."""
        for reference, model, count in cells.triples():
            row, column = self._rows.index.get(reference, -1), self._columns.index.get(model, -1)
            have = self._count(row, column)
            if have + count < 0:
                raise ValueError(f"{where}: cannot remove {-count} element(s) with reference "
                                 f"{reference!r} and model {model!r}: there are {have}")

    def keep_fine_sums(self):
        """From now on keep the fine ``n ln n`` sums too (computed here from the counts)."""
        if not self._keep_fine:
            cells = self.cells()
            _set_256(&self._fine[CELLS], fine_n_log_n_sum(cells.counts))
            _set_256(&self._fine[ROWS], fine_n_log_n_sum(self.row_totals()))
            _set_256(&self._fine[COLUMNS], fine_n_log_n_sum(self.column_totals()))
            self._keep_fine = True

    def copy(self):
        """An independent table with the same counts and sums."""
        cdef KernelTable other = type(self)()
        free(other._slots)
        other._slots = NULL
        other._bits = self._bits
        other._slots = slots_copy(self._slots, self._bits)
        other._used = self._used
        other._rows, other._columns = self._rows.copy(), self._columns.copy()
        memcpy(other._sums, self._sums, sizeof(self._sums))
        other.n_elements = self.n_elements
        other._keep_fine = self._keep_fine
        memcpy(other._fine, self._fine, sizeof(self._fine))
        return other

    # Reads -------------------------------------------------------------------------------

    @property
    def n_rows(self):
        """Non-empty rows (reference clusters)."""
        return self._rows.alive

    @property
    def n_columns(self):
        """Non-empty columns (model clusters)."""
        return self._columns.alive

    def n_cells(self):
        """Non-empty cells."""
        return self._used

    def table_sums(self):
        """The sums the pair-counting and information scores take."""
        cdef ck_level *sums = self._sums
        return ck_tuple9(
            TableSums, self.n_elements, self._rows.alive, self._columns.alive,
            ck_level_pairs(&sums[CELLS]), ck_level_pairs(&sums[ROWS]),
            ck_level_pairs(&sums[COLUMNS]), ck_level_log(&sums[CELLS]),
            ck_level_log(&sums[ROWS]), ck_level_log(&sums[COLUMNS]))

    def triple_sums(self):
        """``sum C(n, 3)`` over the cells, the rows and the columns."""
        return (ck_level_triples(&self._sums[CELLS]), ck_level_triples(&self._sums[ROWS]),
                ck_level_triples(&self._sums[COLUMNS]))

    def fine_sums(self):
        """The fine ``n ln n`` sums, or None until :meth:`keep_fine_sums`."""
        if not self._keep_fine:
            return None
        return FineSums(ck_int256(&self._fine[CELLS]), ck_int256(&self._fine[ROWS]),
                        ck_int256(&self._fine[COLUMNS]))

    def cells(self):
        """The non-empty cells, labels in arrival order, by row then column in that order."""
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self._bits, i, at = 0
        keys_array = np.empty(self._used, dtype=np.uint64)
        counts_array = np.empty(self._used, dtype=np.int64)
        cdef uint64_t[::1] keys = keys_array
        cdef int64_t[::1] counts = counts_array
        for i in range(size):
            if self._slots[i].key != EMPTY:
                keys[at], counts[at] = self._slots[i].key, self._slots[i].count
                at += 1
        rows = (keys_array >> np.uint64(32)).astype(np.int64)
        columns = (keys_array & np.uint64(0xFFFFFFFF)).astype(np.int64)
        width = len(self._columns.labels)
        slots = len(self._rows.labels) * width
        if self._used and dense_is_cheaper(slots, self._used):  # by row then column: placed
            table = np.zeros(slots, dtype=np.int64)
            table[rows * width + columns] = counts_array
            present = np.flatnonzero(table)
            counts_array = table[present]
            rows = present // width
            columns = present - rows * width
        else:  # sorted
            order = np.argsort(keys_array)
            rows, columns, counts_array = rows[order], columns[order], counts_array[order]
        row_codes, column_codes = self._rows.alive_codes(), self._columns.alive_codes()
        row_rank = np.zeros(len(self._rows.labels), dtype=np.int64)
        row_rank[row_codes] = np.arange(row_codes.size)
        column_rank = np.zeros(len(self._columns.labels), dtype=np.int64)
        column_rank[column_codes] = np.arange(column_codes.size)
        row_labels = [self._rows.labels[code] for code in row_codes.tolist()]
        column_labels = [self._columns.labels[code] for code in column_codes.tolist()]
        return Cells(row_labels, column_labels, row_rank[rows], column_rank[columns],
                     counts_array)

    def row_totals(self):
        """The row totals, in the order of :meth:`cells`' row labels."""
        return self._rows.totals_array()

    def column_totals(self):
        """The column totals, in the order of :meth:`cells`' column labels."""
        return self._columns.totals_array()


cdef bint _fits_int64(counts):
    return all(-MAX_COUNT - 1 <= count <= MAX_COUNT for count in counts.tolist())


#: The modulus of the fine sums' 256-bit words.
_MASK_256 = (1 << 256) - 1


cdef int _set_256(ck_u256 *out, object value) except -1:
    """``value`` modulo ``2**256`` into four words."""
    data = (value & _MASK_256).to_bytes(32, "little")
    memcpy(out, <const char *>data, 32)
    return 0


cdef int _fine_term(uint64_t n, ck_u256 *out) except -1:
    """``fine_n_log_n(n)`` (the formulas' definition) as four words, from the C table when known."""
    if n < CK_FINE_CACHE and ck_fine_known[n]:
        out[0] = ck_fine_cache[n]
        return 0
    _set_256(out, fine_n_log_n(n))
    if n < CK_FINE_CACHE:
        ck_fine_cache[n] = out[0]
        ck_fine_known[n] = 1
    return 0


include "_kernel_scores.pxi"
include "_kernel_counts.pxi"
