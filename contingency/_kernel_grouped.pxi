# Included by _kernel.pyx (after _kernel_counts.pxi, whose KernelCountsCore it writes).
"""GroupedContingency.add_result in C: the group found, the result counted into the whole's and
the group's counts by their compiled one-result write, the score trackers told.

The reference is the method as written in Python,
``contingency._grouped.add_result_reference`` (read it first): this is the
same steps, line for line, without a Python frame. The fast path takes one
single label a side, the unit weight, a group already met and labels that
are categories of the whole; the whole's counts check the result (every
label a category, the count limit) before anything is written, and a group
holds part of the whole's results, so once the whole took the result its
group cannot refuse it (a category new to the group joins it). Anything else
goes to the general path, ``self._one``, as in the reference.
tests/test_grouped_kernel.py runs both on the same streams and compares
every state after every step.
"""

cdef set _grouped_single = None  # contingency._feeding.SINGLE
# The slots the step reads, by their offsets in the instance (see _slot_offset in
# _kernel.pyx): -1 until known.
cdef type _grouped_class = None, _contingency_class = None
cdef Py_ssize_t _overall_at = -1, _groups_at = -1, _trackers_at = -1, _counts_at = -1

cdef extern from *:
    """
    /* The first lines of a dict's table of keys (its indices and first entries), where a
       look-up in a dict of a few categories lands. */
    static inline void ck_prefetch_dict(PyObject *d) {
        const char *keys = (const char *)((PyDictObject *)d)->ma_keys;
        __builtin_prefetch(keys);
        __builtin_prefetch(keys + 64);
        __builtin_prefetch(keys + 128);
        __builtin_prefetch(keys + 192);
    }
    """
    void ck_prefetch_dict(PyObject *d) nogil

cdef inline void _prefetch_group(KernelCountsCore core) noexcept:
    """Ask for the lines ``core``'s one-result write will read, so that their cache misses
    overlap (with each other and with the whole's write) instead of following each other."""
    cdef int index
    cdef char *start = <char *>(<PyObject *>core)
    for index in range(1, 4):  # the core's fields a write reads (the object's first lines)
        ck_prefetch(start + 64 * index)
    ck_prefetch(<PyObject *>core._pairs)
    if not core._capacity:  # (no cells yet)
        return
    for index in range(3):  # (the three columns, one after the other)
        ck_prefetch(core._cells[index])
        ck_prefetch(<char *>core._cells[index] + 64)


def compiled_grouped_add_result(set single, type grouped, type contingency):
    """:func:`grouped_add_result`, given the single-label types of :mod:`contingency._feeding`,
    the class it serves and :class:`~contingency.Contingency` (whose slots it reads)."""
    global _grouped_single, _grouped_class, _contingency_class
    global _overall_at, _groups_at, _trackers_at, _counts_at
    _grouped_single, _grouped_class, _contingency_class = single, grouped, contingency
    _overall_at = _slot_offset(grouped, "_overall")
    _groups_at = _slot_offset(grouped, "_groups")
    _trackers_at = _slot_offset(grouped, "_trackers")
    _counts_at = _slot_offset(contingency, "_counts")
    return grouped_add_result


@cython.binding(True)
def grouped_add_result(self, assigned, correct, *, group, weight=1):
    """GroupedContingency.add_result in C (see the include's docstring)."""
    cdef PyObject *found
    cdef dict trackers
    cdef bint counted, kernel, mine_kernel
    if weight is _UNIT and type(assigned) in _grouped_single \
            and type(correct) in _grouped_single:
        if isinstance(self, _grouped_class):  # (its slots read in place)
            overall = _read_slot(self, _overall_at, "_overall")
            groups = _read_slot(self, _groups_at, "_groups")
        else:
            overall, groups = self._overall, self._groups
        counts = _read_slot(overall, _counts_at, "_counts") \
            if isinstance(overall, _contingency_class) else overall._counts
        try:
            found = PyDict_GetItemWithError(<dict>groups, group)
        except TypeError:  # an unhashable group: the general path names it
            found = NULL
        kernel = isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None
        if found is not NULL and not ((<KernelCountsCore>counts).hold if kernel else counts.hold):
            mine = _read_slot(<object>found, _counts_at, "_counts") \
                if isinstance(<object>found, _contingency_class) else (<object>found)._counts
            mine_kernel = isinstance(mine, KernelCountsCore) \
                and (<KernelCountsCore>mine)._wide is None
            if mine_kernel:
                _prefetch_group(<KernelCountsCore>mine)
            if kernel:
                counted = (<KernelCountsCore>counts)._pair(correct, assigned, None, False) == 1
            else:
                counted = counts.count_pair(correct, assigned)
            if counted:  # (else a label is not a category of the whole: the general path)
                if mine_kernel:
                    ck_prefetch_dict(<PyObject *>(<KernelCountsCore>mine)._ids)
                    (<KernelCountsCore>mine)._pair(correct, assigned, None, True)
                else:
                    mine.count_pair(correct, assigned, join=True)
                trackers = _read_slot(self, _trackers_at, "_trackers") \
                    if isinstance(self, _grouped_class) else self._trackers
                if trackers:
                    for tracker in trackers.values():
                        PySet_Add(tracker.pending, group)
                return
    self._one(assigned, correct, group, weight, removing=False)


# GroupedContingency's batch of single labels: every group's coded pairs in one call ---------------

cdef object _write_group_reference = None  # contingency._grouped.write_group_reference
cdef object _write_pairs_reference = None  # contingency._grouped.write_group_pairs_reference


def compiled_write_group_pairs(reference, write_group):
    """:func:`grouped_write_pairs`, given the routine as written in Python (``reference``),
    which it calls for a batch it does not write in C, and the reference's write of one group's
    pairs (``write_group``), which it calls for a group it does not write in C."""
    global _write_group_reference, _write_pairs_reference
    _write_pairs_reference, _write_group_reference = reference, write_group
    return grouped_write_pairs


@cython.binding(True)
@cython.boundscheck(False)
@cython.wraparound(False)
def grouped_write_pairs(list accumulators, pairs, list labels, fresh, unit, removing):
    """``contingency._grouped.write_group_pairs_reference`` in C (read it first): the same
    interface, each group's pairs written by its core's pair write (``_write_pair``, the
    writes of ``count_pair``) in one C loop over the batch, with no Python call per group.

    Written in C: an addition in whole units (``unit`` 0, int64 counts) to a group whose counts
    are the kernel's at scale 0. Anything else is written as the reference writes it: a removal
    (each group's pairs checked before its counts change), a fractional weight or counts past
    int64, by the reference's routine; a group whose counts the reference's storage holds (its
    scale above 0), by the reference's write of one group.

    A pair's codes are the whole's; a group codes its categories as its core's ``ids`` says.
    Groups copied from one empty accumulator share that dict (contingency/_kernel_counts.pxi),
    so the codes are looked up once per dict met (``translated``, stamped by the dict's turn)
    and once per category in it, not once per pair.
    """
    group_array, key_array, count_array = pairs  # (GroupPairs: group, pair, total)
    cdef Py_ssize_t size = len(group_array)
    if not size:
        return
    if removing or unit or count_array.dtype != np.int64:
        _write_pairs_reference(accumulators, pairs, labels, fresh, unit, removing)
        return
    cdef const int64_t[::1] group = np.ascontiguousarray(group_array, dtype=np.int64)
    cdef const int64_t[::1] key = np.ascontiguousarray(key_array, dtype=np.int64)
    cdef const int64_t[::1] count = np.ascontiguousarray(count_array, dtype=np.int64)
    cdef Py_ssize_t k = len(labels)
    translated_array = np.empty(k, dtype=np.int64)
    stamps_array = np.zeros(k, dtype=np.int64)
    cdef int64_t[::1] translated = translated_array, stamps = stamps_array
    cdef int64_t turn = 0
    cdef Py_ssize_t start = 0, stop, index, t, s, k_before
    cdef int64_t code
    cdef ck_i128 total
    cdef KernelCountsCore core
    cdef dict ids
    cdef object last = None  # the ids dict of the last turn (held: its address stays its own)
    cdef PyObject *found
    while start < size:
        code = group[start]
        stop = start + 1
        while stop < size and group[stop] == code:
            stop += 1
        accumulator = accumulators[code]
        mine = _read_slot(accumulator, _counts_at, "_counts") \
            if isinstance(accumulator, _contingency_class) else accumulator._counts
        new = fresh.get(code, ()) if fresh else ()
        if not isinstance(mine, KernelCountsCore) or (<KernelCountsCore>mine)._wide is not None:
            _write_group_reference(accumulator, key_array[start:stop], count_array[start:stop],
                                   labels, new, unit, removing)
            start = stop
            continue
        core = <KernelCountsCore>mine
        # The count limit, as count_pair checks it (never reached: the whole, which holds this
        # group's results, took the batch first; checked all the same, before this group's writes).
        total = 0
        for index in range(start, stop):
            total += count[index]
        if total > MAX_COUNT - core._n:
            check_room(core._n, ck_int_signed(total), "results")
        k_before = len(core._ids)
        for label in new:  # the categories new to the group, in the order its rows met them
            if PyDict_GetItem(core._ids, label) is NULL:
                core._join_one(label)
        ids = core._ids
        if ids is not last:
            turn += 1
            last = ids
        for index in range(start, stop):
            t = key[index] >> 32
            s = key[index] & 0xFFFFFFFF
            if stamps[t] != turn:
                found = PyDict_GetItemWithError(ids, labels[t])
                if found is NULL:
                    raise KeyError(labels[t])  # (a category that should have joined: a bug)
                translated[t], stamps[t] = <Py_ssize_t><object>found, turn
            if stamps[s] != turn:
                found = PyDict_GetItemWithError(ids, labels[s])
                if found is NULL:
                    raise KeyError(labels[s])
                translated[s], stamps[s] = <Py_ssize_t><object>found, turn
            core._write_pair(translated[t], translated[s], count[index], k_before,
                             labels[t], labels[s])
            k_before = len(ids)
        start = stop



# GroupedContingency's new groups, made in bulk ----------------------------------------------------

cdef extern from *:
    """
    /* Set the __slots__ attribute at `offset` of `instance` to `value` (NULL: unset), as the
       slot's descriptor does. */
    static inline void ck_set_slot(PyObject *instance, Py_ssize_t offset, PyObject *value) {
        PyObject **slot = (PyObject **)((char *)instance + offset);
        PyObject *old = *slot;
        Py_XINCREF(value);
        *slot = value;
        Py_XDECREF(old);
    }
    """
    void ck_set_slot(object instance, Py_ssize_t offset, PyObject *value) noexcept

cdef object _copies_reference = None  # contingency._grouped.copies_reference
cdef type _counts_class = None  # contingency._counts.Counts
cdef object _object_new = object.__new__


def compiled_copies(reference, type contingency, type counts):
    """:func:`grouped_copies`, given the routine as written in Python (``reference``),
    :class:`~contingency.Contingency` and :class:`~contingency._counts.Counts`."""
    global _copies_reference, _contingency_class, _counts_class, _counts_at
    _copies_reference, _contingency_class, _counts_class = reference, contingency, counts
    _counts_at = _slot_offset(contingency, "_counts")
    return grouped_copies


cdef list _slot_offsets(type cls):
    """The offsets of every __slots__ attribute of ``cls`` and its bases (see _slot_offset)."""
    cdef list offsets = []
    cdef Py_ssize_t offset
    for base in cls.__mro__:
        names = base.__dict__.get("__slots__", ())
        for name in ((names,) if isinstance(names, str) else names):
            offset = _slot_offset(base, name)
            if offset >= 0:
                offsets.append(offset)
    return offsets


@cython.binding(True)
def grouped_copies(original, Py_ssize_t count):
    """``contingency._grouped.copies_reference`` in C (read it first): ``count`` copies of the
    accumulator ``original``, its ``copy()`` once and that copy cloned ``count - 1`` times.

    A clone is a new instance of the copy's class whose slots hold the copy's values (its
    settings: shared, as every copy shares them) but ``_counts``: a new instance of the counts'
    class whose slots hold the copy's counts' values (every one shared by a fresh copy: no
    running sum yet), holding a copy of the counts made by the core's own copy
    (``core_copy_from``). So a clone is what ``copy()`` makes, with no Python frame: the rule
    of a copy stays in ``copy()``. A class that is not exactly Contingency's and Counts' (a
    locked subclass, whose lock is its own), or counts on the reference's storage, are copied
    by the reference.
    """
    if count <= 0:
        return []
    first = original.copy()
    counts = first._counts
    if type(first) is not _contingency_class or type(counts) is not _counts_class \
            or (<KernelCountsCore>counts)._wide is not None or _counts_at < 0:
        return [first, *_copies_reference(original, count - 1)]
    cdef KernelCountsCore source = <KernelCountsCore>counts, other
    cdef type outer_class = type(first), inner_class = type(counts)
    cdef list outer = _slot_offsets(outer_class), inner = _slot_offsets(inner_class)
    cdef Py_ssize_t index, offset
    new_counts = inner_class.__new__
    cdef list made = [first]
    for index in range(count - 1):
        other = <KernelCountsCore>new_counts(inner_class)
        other._copy_from(source)
        other.hold, other.stale, other.coupling = source.hold, source.stale, source.coupling
        for offset in inner:
            ck_set_slot(other, offset, ck_slot(counts, offset))
        accumulator = _object_new(outer_class)
        for offset in outer:
            ck_set_slot(accumulator, offset, ck_slot(first, offset))
        ck_set_slot(accumulator, _counts_at, <PyObject *>other)
        made.append(accumulator)
    return made


# The first row of each new group -------------------------------------------------------------------

@cython.binding(True)
@cython.boundscheck(False)
@cython.wraparound(False)
def grouped_first_rows(codes, wanted):
    """``contingency._coding.first_rows_reference`` in C (read it first): one pass over the rows,
    stopped once every wanted code is found (no sort of prefixes)."""
    cdef const int64_t[::1] rows = np.ascontiguousarray(codes, dtype=np.int64)
    cdef const unsigned char[::1] asked = np.ascontiguousarray(wanted, dtype=np.bool_).view(np.uint8)
    first_array = np.full(len(wanted), -1, dtype=np.int64)
    cdef int64_t[::1] first = first_array
    cdef Py_ssize_t remaining = 0, row, size = rows.shape[0], groups = first.shape[0]
    cdef int64_t code
    for row in range(groups):
        remaining += asked[row] != 0
    for row in range(size):
        if not remaining:
            break
        code = rows[row]
        if code < 0 or code >= groups:
            continue  # (no code: skipped, as the reference skips it)
        if asked[code] and first[code] < 0:
            first[code] = row
            remaining -= 1
    return first_array
