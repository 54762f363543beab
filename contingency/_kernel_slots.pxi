# Included by _kernel.pyx, after the Slot struct and before the tables that use it.
"""The kernel's one hash table of counts by 64-bit key, shared by every table that needs one.

An open-addressing table (linear probing, deletion by backward shift) of
:c:type:`Slot` entries (a key, ``EMPTY`` when free, and its int64 count), of
``2**bits`` slots, kept at most three quarters full by its owner (:func:`slots_full`). Two tables use it:
:class:`KernelTable`'s cells (key ``row << 32 | column``) and
:class:`KernelPairs`, Contingency's single-label results (key
``code(correct) << 32 | code(assigned)``). These functions are the whole
table; the owner holds the three fields (``slots``, ``bits``, the number of
used slots) and calls them.
"""


cdef Slot *slots_new(int bits) except NULL:
    """``2**bits`` empty slots (huge pages for a large table: ``ck_slots_alloc``)."""
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits, i
    cdef Slot *slots = <Slot *>ck_slots_alloc(size * sizeof(Slot))
    if slots is NULL:
        raise MemoryError()
    for i in range(size):
        slots[i].key = EMPTY
    return slots


cdef inline Py_ssize_t slots_find(const Slot *slots, int bits, uint64_t key) noexcept nogil:
    """The slot holding ``key``, or the empty slot where it would go."""
    cdef uint64_t mask = ((<uint64_t>1) << bits) - 1
    cdef uint64_t at = ck_hash(key, bits)
    while slots[at].key != key and slots[at].key != EMPTY:
        at = (at + 1) & mask
    return <Py_ssize_t>at


#: How far ahead of its writes a batch asks for the slot of a key (:func:`slots_prefetch`). A
#: large table's writes miss the cache at random slots: with the slot of the key 64 further
#: on asked for, enough misses are in flight to keep the memory busy (measured against 16
#: and 128: docs/performance.md, "Batches into the kernel's hash table").
cdef enum:
    SLOTS_AHEAD = 64
    DENSE_STRETCH = 2048  # entries of a dense count read at a time (_add_dense, _apply_dense)


cdef inline void slots_prefetch(Slot *slots, int bits, uint64_t key) noexcept nogil:
    """Ask for the cache line of ``key``'s home slot ahead of its use (a batch's later key)."""
    ck_prefetch(&slots[ck_hash(key, bits)])


cdef Slot *slots_moved(Slot *slots, int bits, int new_bits) except NULL:
    """The entries of ``slots`` (``2**bits`` of them, then freed) in a new table of ``2**new_bits``."""
    cdef Slot *moved = slots_new(new_bits)
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits, i
    for i in range(size):
        if slots[i].key != EMPTY:
            moved[slots_find(moved, new_bits, slots[i].key)] = slots[i]
    free(slots)
    return moved


cdef inline bint slots_full(int bits, Py_ssize_t used) noexcept nogil:
    """Whether ``used`` entries fill a table of ``2**bits`` slots past its maximum load, three
    quarters: the owner grows the table before an entry would pass it.

    (At most half full, the pair table of a 1000-category stream, 180,000 pairs, took 8 MiB,
    and each result's write of its pair a random access into it; at three quarters it takes
    4 MiB, and a linear probe for a key not there still ends within about 8 slots on average:
    docs/performance.md, "The pair table at three quarters full".)
    """
    return 4 * used > 3 * ((<Py_ssize_t>1) << bits)


cdef inline int slots_bits_for(int bits, Py_ssize_t used) noexcept nogil:
    """The least ``bits`` (at least the given) whose table holds ``used`` entries (:func:`slots_full`)."""
    while slots_full(bits, used):
        bits += 1
    return bits


cdef void slots_delete(Slot *slots, int bits, Py_ssize_t at) noexcept nogil:
    """Empty a slot, shifting back the entries that probed past it (the owner counts one fewer)."""
    cdef uint64_t mask = ((<uint64_t>1) << bits) - 1
    cdef uint64_t hole = <uint64_t>at, probe = <uint64_t>at, home
    while True:
        probe = (probe + 1) & mask
        if slots[probe].key == EMPTY:
            break
        home = ck_hash(slots[probe].key, bits)
        if (hole <= probe and hole < home <= probe) or (hole > probe and (hole < home or home <= probe)):
            continue  # its home lies after the hole: it stays
        slots[hole] = slots[probe]
        hole = probe
    slots[hole].key = EMPTY


cdef Slot *slots_copy(const Slot *slots, int bits) except NULL:
    """An independent copy of a table of ``2**bits`` slots."""
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits
    cdef Slot *copied = <Slot *>ck_slots_alloc(size * sizeof(Slot))
    if copied is NULL:
        raise MemoryError()
    memcpy(copied, slots, size * sizeof(Slot))
    return copied
