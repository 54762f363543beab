# Included by _kernel.pyx.
"""The compiled core of Contingency's counts: the fields one result changes, and that write in C.

The same fields and, after every change, the same state as the pure-Python
reference :class:`contingency._counts_reference.CountsCore` (the
specification: one result is :meth:`contingency._counts.Counts.apply` given
one pair's changes; read it first). :mod:`contingency._backend` chooses one
of the two as the base of :class:`contingency._counts.Counts`, and
tests/test_kernel_counts.py drives both with the same streams and compares
every state and read after each step.

Storage: the fields are C struct members of the object (no attribute look-up
on the write path), holding the same Python objects as the reference's
slots: the cells are dicts keyed by category, the pair table a
:class:`contingency._table.PairTable`. What :meth:`KernelCountsCore.count_pair`
saves is the interpreter: no dict of changes is built, no frame is entered
but the pair table's ``add``, and each dict and int operation is one C call.

Exactness: counts stay Python ints (any size, as the reference's); the only
check a single-label result needs is the reference's, ``n + count <=
MAX_COUNT << scale`` (every cell, shape and pair count is at most ``n``), made
before the first write, with the reference's message (``check_room``).
"""

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem, PyDict_DelItem
from cpython.set cimport PySet_Add

cdef extern from "Python.h":
    # CPython's dict calls with the key's hash given (a tuple does not cache its hash).
    PyObject *_PyDict_GetItem_KnownHash(object d, object key, Py_hash_t hash) except? NULL
    int _PyDict_SetItem_KnownHash(object d, object key, object value, Py_hash_t hash) except -1

from contingency._changes import HIT as _HIT, MISS as _MISS
from contingency.formulas._numeric import MAX_COUNT as _MAX_COUNT_PY

from contingency._table import _RECENT_FLOOR as _RECENT_FLOOR_OBJECT

cdef object _PAIR_SHIFT = 32
cdef Py_hash_t _HIT_HASH = hash(_HIT)
cdef Py_hash_t _MISS_HASH = hash(_MISS)
cdef object _MAX_COUNT_OBJECT = _MAX_COUNT_PY
cdef Py_ssize_t _RECENT_FLOOR = _RECENT_FLOOR_OBJECT


cdef inline void _cc_add(dict cells, object label, object count) except *:
    """``cells[label] += count`` for a label already a key (KeyError otherwise)."""
    cdef PyObject *held = PyDict_GetItem(cells, label)
    if held == NULL:
        raise KeyError(label)
    PyDict_SetItem(cells, label, <object>held + count)


cdef class KernelCountsCore:
    """The fields one result changes (as the reference's slots), and :meth:`count_pair` in C."""

    cdef public dict a, b, c, shapes, ids
    cdef public list micro
    cdef public tuple stale
    cdef public object n, scale, pairs, coupling

    def count_pair(self, object correct, object assigned, object count=None):
        """Count one single-label result ``count`` times (``count > 0``, in units of
        ``2**-scale``; ``None``: once, ``1 << scale``) if both labels are categories (``True``),
        else change nothing (``False``): what the reference's
        :meth:`~contingency._counts_reference.CountsCore.count_pair` does, in C."""
        if count is None:
            count = 1 << self.scale if self.scale else 1
        elif type(count) is not int or count <= 0:
            raise ValueError(f"count_pair: count must be a positive int, not {count!r}")
        cdef dict ids = self.ids
        cdef PyObject *truth = PyDict_GetItem(ids, correct)
        if truth == NULL:
            return False
        cdef PyObject *chosen = PyDict_GetItem(ids, assigned)
        if chosen == NULL:
            return False
        cdef object n = self.n + count
        if n > _MAX_COUNT_OBJECT:
            check_room(0, -(-n >> self.scale), "results")
        # Every check passed: the writes (the reference's order).
        cdef bint hit = correct == assigned
        cdef list micro = self.micro
        cdef object k_count = len(self.a) * count
        cdef object shape
        if hit:
            _cc_add(self.a, correct, count)
            shape = _HIT
            micro[0] = micro[0] + count
            micro[3] = micro[3] + (k_count - count)
        else:
            _cc_add(self.b, assigned, count)
            _cc_add(self.c, correct, count)
            shape = _MISS
            micro[1] = micro[1] + count
            micro[2] = micro[2] + count
            micro[3] = micro[3] + (k_count - 2 * count)
        cdef dict shapes = self.shapes
        cdef Py_hash_t shape_hash = _HIT_HASH if hit else _MISS_HASH
        cdef PyObject *held = _PyDict_GetItem_KnownHash(shapes, shape, shape_hash)
        _PyDict_SetItem_KnownHash(shapes, shape, count if held == NULL else <object>held + count,
                                  shape_hash)
        if self.coupling is not None:
            self.coupling.note({(correct, assigned): count})
        key = (<object>truth << _PAIR_SHIFT) | <object>chosen
        # PairTable.add, inlined while its dict of recent changes is below the size at which
        # an addition may merge it (past _RECENT_FLOOR and past the merged keys' number; the
        # count is positive: the entry never drops to zero).
        cdef object table = self.pairs
        cdef dict recent = table._recent
        if len(recent) < _RECENT_FLOOR or len(recent) < len(table._keys):
            held = PyDict_GetItem(recent, key)
            PyDict_SetItem(recent, key, count if held == NULL else <object>held + count)
        else:
            table.add(key, count)
        self.n = n
        cdef object pending
        for pending in self.stale:
            if hit:
                PySet_Add(pending, correct)
            else:
                PySet_Add(pending, assigned)
                PySet_Add(pending, correct)
        return True
