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
