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
:class:`contingency._table.PairTable`. The writes of one result are here:
:meth:`KernelCountsCore.count_pair` (a single-label result, its labels joining
as categories with ``join``), :meth:`KernelCountsCore.count_sets` (a result of
two sets) and :func:`count_paired` (one result of two models on a
PairedComparison's paired table, whose reference is
:func:`contingency._paired_counts.count_paired`). What they save is the
interpreter: no dict of changes is built, no Python frame entered (the pair
table's ``add`` only once its dict of recent changes may merge), and each dict
and int operation is one C call. Batches, removals, merges and
``set_entries`` go through :meth:`contingency._counts.Counts.apply` on either core.

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
    cdef public list micro, names
    cdef public tuple stale
    cdef public object n, scale, pairs, coupling

    def count_pair(self, object correct, object assigned, object count=None, bint join=False):
        """Count one single-label result ``count`` times (``count > 0``, in units of
        ``2**-scale``; ``None``: once, ``1 << scale``) if both labels are categories, or with
        ``join`` after making the others categories (``True``); else change nothing
        (``False``): what the reference's
        :meth:`~contingency._counts_reference.CountsCore.count_pair` does, in C."""
        if count is None:
            count = 1 << self.scale if self.scale else 1
        elif type(count) is not int or count <= 0:
            raise ValueError(f"count_pair: count must be a positive int, not {count!r}")
        cdef dict ids = self.ids
        cdef PyObject *truth = PyDict_GetItem(ids, correct)
        cdef PyObject *chosen = PyDict_GetItem(ids, assigned)
        cdef list fresh = None
        if truth == NULL or chosen == NULL:
            if not join:
                return False
            fresh = [label for label in dict.fromkeys((assigned, correct)) if label not in ids]
        cdef object n_before = self.n
        cdef object n = n_before + count
        if n > _MAX_COUNT_OBJECT:
            check_room(0, -(-n >> self.scale), "results")
        # Every check passed: the writes (the reference's order).
        cdef Py_ssize_t k_before = len(self.a)
        cdef list names
        if fresh is not None:  # the new categories, appended with zero cells and the next codes
            names = self.names
            for label in fresh:
                PyDict_SetItem(self.a, label, 0)
                PyDict_SetItem(self.b, label, 0)
                PyDict_SetItem(self.c, label, 0)
                PyDict_SetItem(ids, label, len(names))
                names.append(label)
            truth = PyDict_GetItem(ids, correct)
            chosen = PyDict_GetItem(ids, assigned)
        cdef bint hit = correct == assigned
        cdef list micro = self.micro
        # (the change of K n, less the cells added below: d's change)
        cdef object k_count = len(self.a) * n - k_before * n_before if fresh is not None \
            else k_before * count
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

    def count_sets(self, object assigned, object correct):
        """Count one result given as two sets of categories (``set`` or ``frozenset``), once
        (``1 << scale``), if every label is a category (``True``), else change nothing
        (``False``): what the reference's
        :meth:`~contingency._counts_reference.CountsCore.count_sets` does, in C."""
        if len(assigned) == 1 == len(correct):  # a pair: the single-label write
            (chosen,), (truth,) = assigned, correct
            return self.count_pair(truth, chosen)
        cdef dict ids = self.ids
        cdef object label
        for label in assigned:
            if PyDict_GetItem(ids, label) == NULL:
                return False
        for label in correct:
            if PyDict_GetItem(ids, label) == NULL:
                return False
        count = 1 << self.scale if self.scale else 1
        n = self.n + count
        if n > _MAX_COUNT_OBJECT:
            check_room(0, -(-n >> self.scale), "results")
        # Every check passed: the writes (ResultCounter's rule: a for the categories on both
        # sides, b for the rest of the assigned side, c for the rest of the correct side).
        both = assigned & correct
        cdef Py_ssize_t k_both = len(both), k_assigned = len(assigned), k_correct = len(correct)
        cdef dict cells = self.a
        for label in both:
            _cc_add(cells, label, count)
        cells = self.b
        for label in assigned:
            if label not in both:
                _cc_add(cells, label, count)
        cells = self.c
        for label in correct:
            if label not in both:
                _cc_add(cells, label, count)
        shape = (k_both, k_assigned, k_correct)
        cdef dict shapes = self.shapes
        cdef PyObject *held = PyDict_GetItem(shapes, shape)
        PyDict_SetItem(shapes, shape, count if held == NULL else <object>held + count)
        self.n = n
        cdef list micro = self.micro
        added_a = k_both * count
        added_b = (k_assigned - k_both) * count
        added_c = (k_correct - k_both) * count
        micro[0] = micro[0] + added_a
        micro[1] = micro[1] + added_b
        micro[2] = micro[2] + added_c
        micro[3] = micro[3] + (len(self.a) * count - added_a - added_b - added_c)
        cdef object pending
        for pending in self.stale:
            for label in both:
                PySet_Add(pending, label)
            for label in assigned:
                if label not in both:
                    PySet_Add(pending, label)
            for label in correct:
                if label not in both:
                    PySet_Add(pending, label)
        return True


cdef inline bint _same(object x, object y) except -1:
    """Whether a set holds ``x`` and ``y`` as one element (identity, then equality, as sets test)."""
    return x is y or x == y


cdef inline void _cc_step(dict histogram, object key, long change) except *:
    """``histogram[key] += change``, no zero entry kept (contingency._paired_counts._step)."""
    cdef PyObject *held = PyDict_GetItem(histogram, key)
    count = change if held == NULL else <object>held + change
    if count:
        PyDict_SetItem(histogram, key, count)
    else:
        PyDict_DelItem(histogram, key)


cdef inline void _cc_wrong(object table, dict column, object label) except *:
    """One more result some model is wrong about ``label``: its column and its total."""
    cdef PyObject *held = PyDict_GetItem(column, label)
    PyDict_SetItem(column, label, 1 if held == NULL else <object>held + 1)
    cdef dict totals = table.totals
    cdef dict spread = table.spread
    held = PyDict_GetItem(totals, label)
    before = 0 if held == NULL else <object>held
    PyDict_SetItem(totals, label, before + 1)
    if before:
        _cc_step(spread, before, -1)
    _cc_step(spread, before + 1, 1)


def count_paired(object table, object correct, object assigned_a, object assigned_b):
    """One single-label result of two models, once, on a paired table
    (:class:`contingency._paired_counts.PairedCounts`): what the reference
    :func:`contingency._paired_counts.count_paired` does (``apply`` of
    ``set_changes`` of the result), in C. Refused whole past the count limit."""
    cdef list cells = table.cells
    n = cells[0] + cells[1] + cells[2] + cells[3]
    if n >= _MAX_COUNT_OBJECT:
        check_room(n, 1, "results")
    cdef bint wrong_a = not _same(assigned_a, correct)
    cdef bint wrong_b = not _same(assigned_b, correct)
    cdef Py_ssize_t cell = 2 * wrong_a + wrong_b
    cells[cell] = cells[cell] + 1
    # The rule of set_changes with one category a side: a is wrong about {assigned_a, correct}
    # when they differ, b about {assigned_b, correct}; each category either is wrong about goes
    # to one column (only_b: a wrong, b right; only_a; both_wrong), in the set union's order.
    if wrong_a and wrong_b:
        _cc_wrong(table, table.both_wrong, correct)
        if _same(assigned_a, assigned_b):
            _cc_wrong(table, table.both_wrong, assigned_a)
        else:
            _cc_wrong(table, table.only_b, assigned_a)
            _cc_wrong(table, table.only_a, assigned_b)
    elif wrong_a:
        _cc_wrong(table, table.only_b, assigned_a)
        _cc_wrong(table, table.only_b, correct)
    elif wrong_b:
        _cc_wrong(table, table.only_a, assigned_b)
        _cc_wrong(table, table.only_a, correct)
