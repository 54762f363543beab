# Included by _kernel.pyx, after _kernel_counts.pxi (whose KernelCountsCore and KernelPairs it uses).
"""The compiled paired table of a PairedComparison, and PairedComparison.add_result in C.

:class:`KernelPairedCounts` has the interface and, after every change, the
counts of the pure-Python reference
:class:`contingency._paired_counts.PairedCounts` (the specification: read it
first); :mod:`contingency._backend` chooses one of the two, and
tests/test_kernel_paired.py drives both with the same streams and compares
every count and read after each step.

Storage (every count at most ``MAX_COUNT``, checked before every write):

- the four result cells, C int64s (their sum is ``n``);
- per category some model is wrong about, a row of four int64s by code:
  ``only_a``, ``only_b``, ``both_wrong`` and their ``total`` (side by side:
  one cache line); ``_ids`` maps each such category to its code and
  ``_labels`` the codes back. A row whose total returns to 0 is dropped (its
  code freed for the next category), as the reference drops a zero entry:
  the categories held are those some model is wrong about;
- ``spread``, how many categories have each total: a :class:`KernelPairs`
  (the kernel's hash table of counts) keyed by the total.

:func:`paired_add_result` is ``PairedComparison.add_result`` in C: for a
single-label result whose labels are categories of their models already
(the unit weight), every count is checked against ``MAX_COUNT`` first (both
models' results and the table's), and b's labels against b's categories;
then model a's core counts its pair through its one-result write
(``KernelCountsCore._pair``, what ``count_pair`` calls, which writes nothing
when a label is not a category of a: the general path then), model b's
core its pair, and the table the result (:meth:`KernelPairedCounts.count_one`'s
rule). Anything else goes to ``PairedComparison._one``, the general path to
the one write routine ``_apply``.
"""

from contingency.formulas.paired import PairedTable as _PairedTable

cdef inline bint _same(object x, object y) except -1:
    """Whether a set holds ``x`` and ``y`` as one element (identity, then equality, as sets test)."""
    return x is y or x == y


cdef enum:
    ONLY_A = 0  # the columns of a row: a right, b wrong
    ONLY_B = 1  # b right, a wrong
    BOTH_WRONG = 2
    TOTAL = 3  # the three summed
    ROW = 4  # int64s a row


@cython.final
@cython.auto_pickle(False)  # pickled by __reduce__, as either implementation
cdef class KernelPairedCounts:
    """The paired table's counts in C, and :meth:`apply`, the one routine that changes them
    (with :meth:`count_one`, its rule for one single-label result, compiled)."""

    cdef int64_t _cells[4]
    cdef int64_t *_rows  # ROW int64s a code
    cdef Py_ssize_t _capacity  # rows allocated
    cdef dict _ids  # category -> code, for the categories held
    cdef list _labels  # code -> category (None: a free code)
    cdef list _free  # the free codes
    cdef KernelPairs _spread  # total -> how many categories have it

    def __cinit__(self):
        self._rows = NULL
        self._capacity = 0
        self._empty()

    def __dealloc__(self):
        free(self._rows)

    cdef int _empty(self) except -1:
        memset(self._cells, 0, sizeof(self._cells))
        self._ids, self._labels, self._free = {}, [], []
        self._spread = KernelPairs()
        return 0

    def clear(self):
        """Forget every result."""
        self._empty()

    def __reduce__(self):
        """Pickled as its counts, unpickled as the loading process's implementation."""
        from contingency._backend import reduce_paired_counts

        return reduce_paired_counts(self)

    def copy(self):
        """Independent counts equal to these."""
        cdef KernelPairedCounts other = KernelPairedCounts.__new__(KernelPairedCounts)
        memcpy(other._cells, self._cells, sizeof(self._cells))
        other._reserve(len(self._labels))
        if self._labels:
            memcpy(other._rows, self._rows, len(self._labels) * ROW * sizeof(int64_t))
        other._ids, other._labels, other._free = dict(self._ids), list(self._labels), list(self._free)
        other._spread = self._spread.copy()
        return other

    cdef int _reserve(self, Py_ssize_t size) except -1:
        """Room for ``size`` rows."""
        if size <= self._capacity:
            return 0
        cdef Py_ssize_t capacity = self._capacity if self._capacity else 16
        while capacity < size:
            capacity *= 2
        cdef int64_t *grown = <int64_t *>realloc(self._rows, capacity * ROW * sizeof(int64_t))
        if grown is NULL:
            raise MemoryError()
        self._rows, self._capacity = grown, capacity
        return 0

    cdef Py_ssize_t _code(self, object label) except -1:
        """The code of ``label``'s row, a new zero row if it has none."""
        cdef PyObject *held = PyDict_GetItemWithError(self._ids, label)
        if held is not NULL:
            return <Py_ssize_t><object>held
        cdef Py_ssize_t code
        if self._free:
            code = self._free.pop()
            self._labels[code] = label
        else:
            code = len(self._labels)
            self._reserve(code + 1)
            self._labels.append(label)
        memset(&self._rows[code * ROW], 0, ROW * sizeof(int64_t))
        self._ids[label] = code
        return code

    cdef inline int64_t _n(self) noexcept:
        return self._cells[0] + self._cells[1] + self._cells[2] + self._cells[3]

    @property
    def n(self):
        """The number of results."""
        return self._n()

    # The rule for one result, in C -----------------------------------------------------------

    cdef int _wrong(self, int column, object label) except -1:
        """One more result some model is wrong about ``label`` (in ``column``): its total too."""
        cdef int64_t *row = &self._rows[self._code(label) * ROW]
        cdef int64_t before = row[TOTAL]
        row[column] += 1
        row[TOTAL] = before + 1
        if before:
            self._spread.add_count(<uint64_t>before, -1)
        self._spread.add_count(<uint64_t>(before + 1), 1)
        return 0

    cdef int _one(self, object correct, object assigned_a, object assigned_b) except -1:
        """One result, once, every check made (``n`` below the limit): the writes."""
        cdef bint wrong_a = not _same(assigned_a, correct)
        cdef bint wrong_b = not _same(assigned_b, correct)
        self._cells[2 * wrong_a + wrong_b] += 1
        # The rule of set_changes with one category a side: a is wrong about {assigned_a,
        # correct} when they differ, b about {assigned_b, correct}; each category either is
        # wrong about goes to one column (only_b: a wrong, b right; only_a; both_wrong).
        if wrong_a and wrong_b:
            self._wrong(BOTH_WRONG, correct)
            if _same(assigned_a, assigned_b):
                self._wrong(BOTH_WRONG, assigned_a)
            else:
                self._wrong(ONLY_B, assigned_a)
                self._wrong(ONLY_A, assigned_b)
        elif wrong_a:
            self._wrong(ONLY_B, assigned_a)
            self._wrong(ONLY_B, correct)
        elif wrong_b:
            self._wrong(ONLY_A, assigned_b)
            self._wrong(ONLY_A, correct)
        return 0

    def count_one(self, object correct, object assigned_a, object assigned_b):
        """One single-label result of both models, once: what the reference's
        :meth:`~contingency._paired_counts.PairedCounts.count_one` does (``apply`` of
        ``set_changes`` of the result), in C. Refused whole past the count limit."""
        if self._n() == MAX_COUNT:
            check_room(self._n(), 1, "results")
        self._one(correct, assigned_a, assigned_b)

    # The one write routine -------------------------------------------------------------------

    cdef object _count(self, object label, int column):
        cdef PyObject *held = PyDict_GetItemWithError(self._ids, label)
        if held is NULL:
            return 0
        return self._rows[<Py_ssize_t><object>held * ROW + column]

    cdef object _over(self, object after):
        """How many categories have a total above ``after`` (from the histogram of totals)."""
        return self._spread.over(after)

    def check(self, changes, *, removing=False, where=""):
        """:meth:`apply`'s checks alone: raises as the reference's ``check`` would, writes nothing."""
        cells, only_a, only_b, both_wrong = changes
        n = self._n()
        after = n + sum(cells)
        check_room(n, after - n, "results")
        prefix = f"{where}: " if where else ""
        for name, have, change in zip(_CELL_NAMES, self.cells, cells):
            if have + change < 0:
                raise ValueError(f"{prefix}no result with {name} is left to remove; that "
                                 "result was not added")
        for name, column, change_column in zip(_COLUMN_NAMES, (ONLY_A, ONLY_B, BOTH_WRONG),
                                               (only_a, only_b, both_wrong)):
            for label, change in change_column.items():
                if self._count(label, column) + change < 0:
                    raise ValueError(f"{prefix}no result with {name} category {label!r} is "
                                     "left to remove; that result was not added")
        # Each category is wrong in at most the results that remain: those the change names
        # are checked one by one, the others (when results are taken back) through the
        # histogram of totals.
        over = self._over(after) if after < n else 0
        for label in only_a.keys() | only_b.keys() | both_wrong.keys():
            before = self._count(label, TOTAL)
            total = before + only_a.get(label, 0) + only_b.get(label, 0) + both_wrong.get(label, 0)
            over += (total > after) - (before > after and after < n)
        if over > 0:
            raise ValueError(f"{prefix}a category would have a model wrong about it in more "
                             f"results than the {after} that would remain; that result was not "
                             "added")

    def apply(self, changes, *, removing=False, where=""):
        """Add a change (negative counts to take results back), checked first; costs
        O(categories changed)."""
        self.check(changes, removing=removing, where=where)
        cells, only_a, only_b, both_wrong = changes
        cdef dict rows = {}  # category -> its three changes
        cdef int column
        for column, change_column in enumerate((only_a, only_b, both_wrong)):
            for label, change in change_column.items():
                if change:
                    rows.setdefault(label, [0, 0, 0])[column] += change
        # Every check passed (each count then lies in 0..MAX_COUNT): the writes.
        for column in range(4):
            self._cells[column] += <int64_t>cells[column]
        cdef int64_t *row
        cdef int64_t before
        cdef Py_ssize_t code
        for label, row_changes in rows.items():
            code = self._code(label)
            row = &self._rows[code * ROW]
            before = row[TOTAL]
            for column in range(3):
                row[column] += <int64_t>row_changes[column]
            row[TOTAL] = row[ONLY_A] + row[ONLY_B] + row[BOTH_WRONG]
            if row[TOTAL] == before:
                continue
            if before:
                self._spread.add_count(<uint64_t>before, -1)
            if row[TOTAL]:
                self._spread.add_count(<uint64_t>row[TOTAL], 1)
            else:  # no model wrong about it any more: the row goes, its code is free
                del self._ids[label]
                self._labels[code] = None
                self._free.append(code)

    # Reading ---------------------------------------------------------------------------------

    @property
    def cells(self):
        """The results by ``[both_right, only_a_right, only_b_right, both_wrong]``."""
        return [self._cells[0], self._cells[1], self._cells[2], self._cells[3]]

    cdef dict _column(self, int column):
        cdef dict found = {}
        cdef object label
        cdef Py_ssize_t code
        for label, code in self._ids.items():
            if self._rows[code * ROW + column]:
                found[label] = self._rows[code * ROW + column]
        return found

    @property
    def only_a(self):
        """Per category, the results where a is right about it and b wrong (no zero entries)."""
        return self._column(ONLY_A)

    @property
    def only_b(self):
        """Per category, the results where b is right about it and a wrong."""
        return self._column(ONLY_B)

    @property
    def both_wrong(self):
        """Per category, the results where both are wrong about it."""
        return self._column(BOTH_WRONG)

    @property
    def totals(self):
        """Per category, the three summed (no zero entries)."""
        return self._column(TOTAL)

    @property
    def spread(self):
        """How many categories have each total."""
        return self._spread.to_dict()

    def table(self, category=None):
        """The paired table of the results, or of one category's decisions (no label is None)."""
        if category is None:
            return _PairedTable(self._cells[0], self._cells[1], self._cells[2], self._cells[3])
        cdef PyObject *held = PyDict_GetItemWithError(self._ids, category)
        if held is NULL:
            return _PairedTable(self._n(), 0, 0, 0)
        cdef int64_t *row = &self._rows[<Py_ssize_t><object>held * ROW]
        return _PairedTable(self._n() - row[TOTAL], row[ONLY_A], row[ONLY_B], row[BOTH_WRONG])

    def labels(self):
        """The categories some model is wrong about in some result, in no particular order."""
        return list(self._ids)

    def state(self):
        """The counts, for equality (dicts compare without regard to order)."""
        return self.cells, self.only_a, self.only_b, self.both_wrong


cdef tuple _CELL_NAMES = ("both models right", "only model a right", "only model b right",
                          "both models wrong")
cdef tuple _COLUMN_NAMES = ("only model a right about", "only model b right about",
                            "both models wrong about")


cdef set _PAIRED_SINGLE = None  # add_result's single-label types: contingency._feeding.SINGLE


def compiled_paired_add_result(set single):
    """:func:`paired_add_result`, given the set of single-label types it serves."""
    global _PAIRED_SINGLE
    _PAIRED_SINGLE = single
    return paired_add_result


@cython.binding(True)
def paired_add_result(self, assigned_a, assigned_b, correct, *, weight=1):
    """PairedComparison.add_result in C: its reference (``add_result_reference`` in
    contingency/_paired.py) line for line.

    Its fast path (single labels, each a category of its model already; the
    unit weight) checks every count against the limit, then writes the paired
    table and both models' cores without a Python frame; anything else takes
    the general path, ``self._one``.
    """
    cdef KernelCountsCore core_a, core_b
    cdef KernelPairedCounts table
    if (weight is _UNIT and type(assigned_a) in _PAIRED_SINGLE
            and type(assigned_b) in _PAIRED_SINGLE and type(correct) in _PAIRED_SINGLE):
        counts_a, counts_b, paired = self._counts_a, self._counts_b, self._table
        if (isinstance(counts_a, KernelCountsCore) and isinstance(counts_b, KernelCountsCore)
                and isinstance(paired, KernelPairedCounts)):
            core_a, core_b, table = counts_a, counts_b, paired
            if (core_a._wide is None and core_b._wide is None
                    and PyDict_GetItemWithError(core_b._ids, assigned_b) is not NULL
                    and PyDict_GetItemWithError(core_b._ids, correct) is not NULL
                    and core_a._n < MAX_COUNT and core_b._n < MAX_COUNT
                    and table._n() < MAX_COUNT):
                # Every check passed but a's labels, which a's write makes (writing nothing
                # when one is not a category): the writes, none of which can refuse.
                if core_a._pair(correct, assigned_a, None, False):
                    core_b._pair(correct, assigned_b, None, False)
                    table._one(correct, assigned_a, assigned_b)
                    return
    self._one(assigned_a, assigned_b, correct, weight, removing=False)
