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

cdef extern from *:
    """
    /* The cache lines a group's one-result write reads: its categories' dict and table of
       keys, its pair table, its cells (the first two lines of each column). */
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
    ck_prefetch(<PyObject *>core._ids)
    ck_prefetch(<PyObject *>core._pairs)
    for index in range(3):
        ck_prefetch(core._cells[index])
        ck_prefetch(<char *>core._cells[index] + 64)


def compiled_grouped_add_result(set single):
    """:func:`grouped_add_result`, given the single-label types of :mod:`contingency._feeding`."""
    global _grouped_single
    _grouped_single = single
    return grouped_add_result


@cython.binding(True)
def grouped_add_result(self, assigned, correct, *, group, weight=1):
    """GroupedContingency.add_result in C (see the include's docstring)."""
    cdef PyObject *found
    cdef dict trackers
    cdef bint counted, kernel, mine_kernel
    if weight is _UNIT and type(assigned) in _grouped_single \
            and type(correct) in _grouped_single:
        counts = self._overall._counts
        try:
            found = PyDict_GetItemWithError(<dict>self._groups, group)
        except TypeError:  # an unhashable group: the general path names it
            found = NULL
        kernel = isinstance(counts, KernelCountsCore) and (<KernelCountsCore>counts)._wide is None
        if found is not NULL and not ((<KernelCountsCore>counts).hold if kernel else counts.hold):
            mine = (<object>found)._counts
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
                trackers = self._trackers
                if trackers:
                    for tracker in trackers.values():
                        PySet_Add(tracker.pending, group)
                return
    self._one(assigned, correct, group, weight, removing=False)
