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
    cdef Py_ssize_t index
    new_counts = inner_class.__new__
    cdef list made = [first]
    for index in range(count - 1):
        other = <KernelCountsCore>new_counts(inner_class)
        other._copy_from(source)
        made.append(_clone(first, other, outer, inner))
    return made


cdef object _clone(object first, KernelCountsCore other, list outer, list inner):
    """A clone of the accumulator ``first`` (a fresh copy: every slot of it and of its counts
    shared by every copy) whose counts are ``other`` (the same class as ``first``'s, holding its
    own counts): ``other`` takes the slots of ``first``'s counts, whose offsets are ``inner``,
    and the clone those of ``first``, whose offsets are ``outer``, but ``_counts``."""
    cdef KernelCountsCore source = <KernelCountsCore>(<object>ck_slot(first, _counts_at))
    cdef Py_ssize_t offset
    other.hold, other.stale, other.coupling = source.hold, source.stale, source.coupling
    for offset in inner:
        ck_set_slot(other, offset, ck_slot(source, offset))
    accumulator = _object_new(type(first))
    for offset in outer:
        ck_set_slot(accumulator, offset, ck_slot(first, offset))
    ck_set_slot(accumulator, _counts_at, <PyObject *>other)
    return accumulator


# GroupedContingency's groups as one columnar state (its pickle) -----------------------------------

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.object cimport PyObject_RichCompareBool, Py_EQ
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t

cdef extern from *:
    """
    /* A pair of a pair table, sorted by key (the order of its to_dict). */
    typedef struct { int64_t key; int64_t count; } ck_pair_entry;
    static int ck_pair_order(const void *x, const void *y) {
        int64_t a = ((const ck_pair_entry *)x)->key, b = ((const ck_pair_entry *)y)->key;
        return (a > b) - (a < b);
    }
    static void ck_sort_pairs(ck_pair_entry *entries, Py_ssize_t size) {
        Py_ssize_t i, j;
        ck_pair_entry held;
        if (size > 16) {
            qsort(entries, (size_t)size, sizeof(ck_pair_entry), ck_pair_order);
            return;
        }
        for (i = 1; i < size; i++) {  /* (a few pairs: an insertion sort) */
            held = entries[i];
            for (j = i; j > 0 && entries[j - 1].key > held.key; j--)
                entries[j] = entries[j - 1];
            entries[j] = held;
        }
    }
    """
    ctypedef struct ck_pair_entry:
        int64_t key
        int64_t count
    void ck_sort_pairs(ck_pair_entry *entries, Py_ssize_t size) noexcept nogil

cdef object _pack_reference = None  # contingency._group_columns.pack_groups_reference
cdef object _packed_columns = None  # contingency._group_columns.packed_columns
cdef object _unpack_reference = None  # contingency._group_columns.unpack_groups_reference
cdef object _checked_columns = None  # contingency._group_columns.checked_columns
cdef Py_ssize_t _unknown_at = -1, _zero_division_at = -1, _verbose_at = -1
cdef Py_ssize_t _declared_at = -1, _offset_at = -1


cdef int _columns_classes(type contingency, type counts) except -1:
    """Know :class:`~contingency.Contingency` and :class:`~contingency._counts.Counts`, and the
    offsets of the slots the packing reads."""
    global _contingency_class, _counts_class, _counts_at, _unknown_at, _zero_division_at
    global _verbose_at, _declared_at, _offset_at
    _contingency_class, _counts_class = contingency, counts
    _counts_at = _slot_offset(contingency, "_counts")
    _unknown_at = _slot_offset(contingency, "_unknown")
    _zero_division_at = _slot_offset(contingency, "_zero_division")
    _verbose_at = _slot_offset(contingency, "_verbose")
    _declared_at = _slot_offset(counts, "declared")
    _offset_at = _slot_offset(counts, "offset")
    return 0


def compiled_pack_groups(reference, finish, type contingency, type counts):
    """:func:`grouped_pack`, given the routine as written in Python (``reference``, which it
    calls for what it does not pack in C), its last step (``finish``:
    ``contingency._group_columns.packed_columns``), :class:`~contingency.Contingency` and
    :class:`~contingency._counts.Counts`."""
    global _pack_reference, _packed_columns
    _pack_reference, _packed_columns = reference, finish
    _columns_classes(contingency, counts)
    return grouped_pack


def compiled_unpack_groups(reference, checked, type contingency, type counts):
    """:func:`grouped_unpack`, given the routine as written in Python (``reference``), the
    columns' check (``checked``: ``contingency._group_columns.checked_columns``), and the
    classes."""
    global _unpack_reference, _checked_columns
    _unpack_reference, _checked_columns = reference, checked
    _columns_classes(contingency, counts)
    return grouped_unpack


cdef bint _in_columns(object accumulator, object template) except -1:
    """``contingency._group_columns.in_columns`` in C (read it first; a setting compared by
    ``_same``, contingency/_kernel_paired.pxi: at once when the two are one object)."""
    if type(accumulator) is not _contingency_class:
        return False
    counts = _read_slot(accumulator, _counts_at, "_counts")
    if type(counts) is not _counts_class or (<KernelCountsCore>counts)._wide is not None \
            or (<KernelCountsCore>counts)._n < 0:  # (n is an int64: at most MAX_COUNT)
        return False
    empty = _read_slot(template, _counts_at, "_counts")
    if not (_same(_read_slot(accumulator, _unknown_at, "_unknown"),
                  _read_slot(template, _unknown_at, "_unknown"))
            and _same(_read_slot(accumulator, _zero_division_at, "_zero_division"),
                      _read_slot(template, _zero_division_at, "_zero_division"))
            and _same(_read_slot(accumulator, _verbose_at, "_verbose"),
                      _read_slot(template, _verbose_at, "_verbose"))
            and _same(_read_slot(counts, _declared_at, "declared"),
                      _read_slot(empty, _declared_at, "declared"))
            and (<KernelCountsCore>counts).hold == (<KernelCountsCore>empty).hold):
        return False
    for cell in _read_slot(counts, _offset_at, "offset"):
        if cell:
            return False
    return True


cdef bint _coded_by_names(dict ids, list names) except -1:
    """``contingency._group_columns.coded_by_names`` in C (read it first)."""
    cdef Py_ssize_t at = 0, code = 0, size = len(names)
    cdef PyObject *label
    cdef PyObject *value
    while PyDict_Next(ids, &at, &label, &value):
        while code < size and names[code] is _HOLE:
            code += 1
        if code == size or not (PyObject_RichCompareBool(<object>label, names[code], Py_EQ)
                                and <object>value == code):
            return False
        code += 1
    while code < size and names[code] is _HOLE:
        code += 1
    return code == size


@cython.binding(True)
@cython.boundscheck(False)
@cython.wraparound(False)
def grouped_pack(accumulators, template):
    """``contingency._group_columns.pack_groups_reference`` in C (read it first): the same
    columns, each group's counts read from its core's fields (its cells copied whole, its
    pairs read from its slots and sorted by key), in two passes over the groups (what each one
    holds, then its counts), finished by the reference's last step (``packed_columns``).
    Anything but a Contingency and Counts of these classes on the kernel's storage goes to
    ``others`` as in the reference (whose rule :func:`_in_columns` is)."""
    if not isinstance(template, _contingency_class) or _counts_at < 0 \
            or not isinstance(_read_slot(template, _counts_at, "_counts"), KernelCountsCore):
        return _pack_reference(accumulators, template)
    cdef list groups = list(accumulators)
    cdef Py_ssize_t size = len(groups), position, laid = 0, index, width
    cdef Py_ssize_t cells_size = 0, shapes_size = 0, pairs_size = 0, widest = 0, slots
    cdef KernelCountsCore core
    cdef KernelPairs table
    cdef dict others = {}, seen = {}
    cdef list codings = [], cores = [], coding_of = []
    cdef object last_names = None, last_ids = None
    cdef Py_ssize_t last_coding = -1
    # What each group holds: in the columns or not, its coding, the room its counts take.
    for position in range(size):
        accumulator = groups[position]
        if not _in_columns(accumulator, template):
            others[position] = accumulator
            continue
        core = <KernelCountsCore>_read_slot(accumulator, _counts_at, "_counts")
        if core._names is not last_names or core._ids is not last_ids:
            key = (id(core._names), id(core._ids))
            found = seen.get(key)
            if found is None:
                if not _coded_by_names(core._ids, core._names):
                    others[position] = accumulator
                    continue
                found = seen[key] = len(codings)
                codings.append(list(core._names))
            last_names, last_ids, last_coding = core._names, core._ids, <Py_ssize_t>found
        cores.append(core)
        coding_of.append(last_coding)
        cells_size += 3 * len(core._names)
        shapes_size += (0 if core._shapes is None else len(core._shapes)) \
            + (core._hit != 0) + (core._miss != 0)
        table = <KernelPairs>core._pairs
        pairs_size += table._used
        widest = max(widest, table._used)
        laid += 1
    # The two arrays, by section (contingency._group_columns's docstring).
    structure_array = np.empty(4 * laid + 3 * shapes_size + 2 * pairs_size, dtype=np.int64)
    counts_array = np.empty(laid + cells_size + 8 * laid + shapes_size + pairs_size,
                            dtype=np.int64)
    cdef int64_t[::1] structure = structure_array, counts = counts_array
    cdef int64_t *coding = &structure[0] if laid else NULL
    cdef int64_t *holes = coding + laid
    cdef int64_t *n_shapes = holes + laid
    cdef int64_t *n_pairs = n_shapes + laid
    cdef int64_t *shapes = n_pairs + laid
    cdef int64_t *correct = shapes + 3 * shapes_size
    cdef int64_t *assigned = correct + pairs_size
    cdef int64_t *n = &counts[0] if laid else NULL
    cdef int64_t *cells = n + laid
    cdef int64_t *micro = cells + cells_size
    cdef int64_t *shape_counts = micro + 4 * laid
    cdef int64_t *pair_counts = shape_counts + shapes_size
    cdef int64_t *high = pair_counts + pairs_size
    cdef ck_pair_entry *entries = <ck_pair_entry *>malloc((widest + 1) * sizeof(ck_pair_entry))
    if entries is NULL:
        raise MemoryError()
    cdef Py_ssize_t cells_at = 0, shapes_at = 0, pairs_at = 0, found_pairs, dict_at
    cdef PyObject *shape
    cdef PyObject *count
    cdef uint64_t pair_key
    cdef int64_t pair_count
    try:
        # Each group's counts, in order.
        for position in range(laid):
            core = <KernelCountsCore>cores[position]
            coding[position] = <Py_ssize_t>coding_of[position]
            holes[position], n[position] = core._holes, core._n
            width = len(core._names)
            if width:
                for index in range(3):
                    memcpy(&cells[cells_at], core._cells[index], width * sizeof(int64_t))
                    cells_at += width
            for index in range(4):  # (each 128-bit cell as its low 63 bits and the rest)
                high[4 * position + index] = <int64_t>(core._micro[index] >> 63)
                micro[4 * position + index] = <int64_t>(
                    core._micro[index] - <ck_i128>high[4 * position + index] * (<ck_i128>1 << 63))
            # The shapes in the order of the core's ``shapes``: the others, HIT, MISS.
            n_shapes[position] = 0
            if core._shapes is not None:
                dict_at = 0
                while PyDict_Next(core._shapes, &dict_at, &shape, &count):
                    for index in range(3):
                        shapes[3 * shapes_at + index] = (<tuple>shape)[index]
                    shape_counts[shapes_at] = <object>count
                    shapes_at += 1
                    n_shapes[position] += 1
            for index in range(2):  # HIT (1, 1, 1), then MISS (0, 1, 1)
                pair_count = core._hit if index == 0 else core._miss
                if pair_count:
                    shapes[3 * shapes_at] = 1 - index
                    shapes[3 * shapes_at + 1] = shapes[3 * shapes_at + 2] = 1
                    shape_counts[shapes_at] = pair_count
                    shapes_at += 1
                    n_shapes[position] += 1
            # The pairs in key order (to_dict's).
            table = <KernelPairs>core._pairs
            found_pairs = 0
            slots = (<Py_ssize_t>1) << table._bits
            for index in range(slots):
                if table._entry(index, &pair_key, &pair_count):
                    entries[found_pairs].key = <int64_t>pair_key
                    entries[found_pairs].count = pair_count
                    found_pairs += 1
            ck_sort_pairs(entries, found_pairs)
            for index in range(found_pairs):
                correct[pairs_at + index] = entries[index].key >> 32
                assigned[pairs_at + index] = <uint32_t>entries[index].key  # (its low 32 bits)
                pair_counts[pairs_at + index] = entries[index].count
            pairs_at += found_pairs
            n_pairs[position] = found_pairs
    finally:
        free(entries)
    return _packed_columns(size, others, codings, laid, shapes_size, pairs_size,
                           structure_array, counts_array)


@cython.final
cdef class _Column:
    """One checked column of integers (any width and sign, contiguous), read by position in C."""

    cdef Py_buffer _buffer  # (held while the column is)
    cdef bint _held
    cdef const char *_data
    cdef int _width
    cdef bint _unsigned

    def __cinit__(self, array):
        dtype = array.dtype
        self._width, self._unsigned = dtype.itemsize, dtype.kind == "u"
        PyObject_GetBuffer(array, &self._buffer, PyBUF_SIMPLE)
        self._held = True
        self._data = <const char *>self._buffer.buf

    def __dealloc__(self):
        if self._held:
            PyBuffer_Release(&self._buffer)

    cdef inline int64_t at(self, Py_ssize_t index) noexcept nogil:
        """The value at ``index`` (an unsigned 64-bit one as its bits)."""
        if self._width == 8:
            return (<const int64_t *>self._data)[index]
        if self._width == 1:
            return (<const uint8_t *>self._data)[index] if self._unsigned \
                else (<const int8_t *>self._data)[index]
        if self._width == 2:
            return (<const uint16_t *>self._data)[index] if self._unsigned \
                else (<const int16_t *>self._data)[index]
        return (<const uint32_t *>self._data)[index] if self._unsigned \
            else (<const int32_t *>self._data)[index]

    cdef inline void copy(self, int64_t *into, Py_ssize_t start, Py_ssize_t count) noexcept nogil:
        """The values ``start`` to ``start + count`` into ``into``, as int64."""
        cdef Py_ssize_t index
        if self._width == 8:
            memcpy(into, self._data + 8 * start, count * sizeof(int64_t))
            return
        for index in range(count):
            into[index] = self.at(start + index)


@cython.binding(True)
@cython.boundscheck(False)
@cython.wraparound(False)
def grouped_unpack(packed, template):
    """``contingency._group_columns.unpack_groups_reference`` in C (read it first): the same
    groups, made in bulk as :func:`grouped_copies` makes them (clones of one copy of
    ``template``), each core's counts laid in by its restore path's own steps (``_zeroed``, the
    cells copied in, ``_hold``), the groups of one coding sharing its ``ids`` and ``names``
    (copy-on-write, as copies of one accumulator share them), each pair table written by its
    one write (``add_counts``) in key order, as ``core_restore`` writes it."""
    columns = _checked_columns(packed)
    first = template.copy()
    if type(first) is not _contingency_class or _counts_at < 0 \
            or type(_read_slot(first, _counts_at, "_counts")) is not _counts_class \
            or (<KernelCountsCore>_read_slot(first, _counts_at, "_counts"))._wide is not None:
        return _unpack_reference(packed, template)
    size, others, codings = columns.size, columns.others, columns.codings
    cdef _Column coding = _Column(columns.coding), holes = _Column(columns.holes)
    cdef _Column n = _Column(columns.n), cells = _Column(columns.cells)
    cdef _Column low = _Column(columns.micro), high = _Column(columns.micro_high)
    cdef _Column n_shapes = _Column(columns.n_shapes), shapes = _Column(columns.shapes)
    cdef _Column shape_counts = _Column(columns.shape_counts), n_pairs = _Column(columns.n_pairs)
    cdef _Column correct = _Column(columns.pair_correct)
    cdef _Column assigned = _Column(columns.pair_assigned)
    cdef _Column pair_counts = _Column(columns.pair_counts)
    # Each coding's names and ids, once; shared by the groups that hold it.
    cdef list names_of = [], ids_of = []
    cdef Py_ssize_t index, code, laid = 0, width, row, count, rows
    for names in codings:
        names = list(names)
        ids = {}
        for code in range(len(names)):
            if names[code] is not _HOLE:
                ids[names[code]] = code
        names_of.append(names)
        ids_of.append(ids)
    uses_array = np.bincount(columns.coding, minlength=len(codings)).astype(np.int64)
    cdef const int64_t[::1] uses = uses_array
    cdef type outer_class = type(first)
    inner_class = type(_read_slot(first, _counts_at, "_counts"))
    cdef list outer = _slot_offsets(outer_class), inner = _slot_offsets(inner_class)
    new_counts = inner_class.__new__
    cdef KernelCountsCore core
    cdef KernelPairs table
    cdef ck_i128 micro[4]
    cdef Py_ssize_t cells_at = 0, shapes_at = 0, pairs_at = 0, widest = 0
    cdef int64_t hit, miss, x, y, z
    cdef dict shaped
    cdef list made = []
    for index in range(len(columns.coding)):
        widest = max(widest, n_pairs.at(index))
    cdef uint64_t *keys = <uint64_t *>malloc((widest + 1) * sizeof(uint64_t))
    cdef int64_t *counts = <int64_t *>malloc((widest + 1) * sizeof(int64_t))
    if keys is NULL or counts is NULL:
        free(keys)
        free(counts)
        raise MemoryError()
    try:
        for position in range(size):
            if others:
                found = others.get(position)
                if found is not None:
                    made.append(found)
                    continue
            core = <KernelCountsCore>new_counts(inner_class)
            code = coding.at(laid)
            names = names_of[code]
            width = len(<list>names)
            core._zeroed(width)
            if width:
                for index in range(3):
                    cells.copy(core._cells[index], cells_at, width)
                    cells_at += width
            hit = miss = 0
            shaped = None
            rows = n_shapes.at(laid)
            for row in range(shapes_at, shapes_at + rows):
                x, y, z = shapes.at(3 * row), shapes.at(3 * row + 1), shapes.at(3 * row + 2)
                if y == 1 and z == 1 and (x == 1 or x == 0):  # HIT or MISS: held in C
                    if x:
                        hit = shape_counts.at(row)
                    else:
                        miss = shape_counts.at(row)
                    continue
                if shaped is None:
                    shaped = {}
                shaped[(x, y, z)] = shape_counts.at(row)
            shapes_at += rows
            for index in range(4):
                micro[index] = <ck_i128>high.at(4 * laid + index) * (<ck_i128>1 << 63) \
                    + low.at(4 * laid + index)
            table = KernelPairs.__new__(KernelPairs)
            count = n_pairs.at(laid)
            for index in range(count):
                keys[index] = <uint64_t>correct.at(pairs_at + index) << 32 \
                    | <uint64_t>assigned.at(pairs_at + index)
                counts[index] = pair_counts.at(pairs_at + index)
            if count:
                table.add_counts(keys, counts, count)
            pairs_at += count
            core._hold(n.at(laid), hit, miss, shaped, micro, ids_of[code], names,
                       holes.at(laid), table, uses[code] > 1)
            made.append(_clone(first, core, outer, inner))
            laid += 1
    finally:
        free(keys)
        free(counts)
    return made
