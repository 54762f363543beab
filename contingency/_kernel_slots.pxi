# Included by _kernel.pyx, after the Slot structs and before the tables that use them.
"""The kernel's one hash table of counts by 64-bit key, shared by every table that needs one.

An open-addressing table (linear probing, deletion by backward shift) of
``2**bits`` slots, kept at most three quarters full by its owner
(:func:`slots_full`), in one of two layouts (``AnySlot``; each function below
serves both): :c:type:`Slot` (a 64-bit key, ``EMPTY`` when free, and its int64
count: 16 bytes) or :c:type:`NarrowSlot` (a 32-bit key, ``NARROW_EMPTY`` when
free, and a count below ``2**32``: 8 bytes), for a table whose keys and
counts all fit it (:func:`narrow_key`). Two tables use it:
:class:`KernelTable`'s cells (key ``row << 32 | column``, wide slots) and
:class:`KernelPairs`, Contingency's single-label results (key
``code(correct) << 32 | code(assigned)``), narrow while it can be, then wide
for good. These functions are the whole table; the owner holds the three
fields (``slots``, ``bits``, the number of used slots) and calls them.
"""


cdef inline bint slots_full(int bits, Py_ssize_t used) noexcept nogil:
    """Whether ``used`` entries fill a table of ``2**bits`` slots past its maximum load, three
    quarters: the owner grows the table before an entry would pass it.

    (At most half full in 16-byte slots, the pair table of a 1000-category stream, 180,000
    pairs, took 8 MiB, and each result's write of its pair was a random access into it; three
    quarters full in 8-byte slots, it takes 2 MiB, and a linear probe for a key not there still
    ends after about 8.5 slots on average: docs/performance.md, "The pair table in a quarter of
    the memory".)
    """
    return 4 * used > 3 * ((<Py_ssize_t>1) << bits)


cdef inline int slots_bits_for(int bits, Py_ssize_t used) noexcept nogil:
    """The least ``bits`` (at least the given) whose table holds ``used`` entries (:func:`slots_full`)."""
    while slots_full(bits, used):
        bits += 1
    return bits


cdef inline bint narrow_key(uint64_t key, uint64_t *narrow) noexcept nogil:
    """Whether a key ``row << 32 | column`` has a narrow form (``row`` below ``2**16 - 1``,
    ``column`` below ``2**16``), written to ``narrow``: ``row << 16 | column``, one to one, never
    NARROW_EMPTY."""
    if (key >> 32) >= 0xFFFFULL or (key & 0xFFFFFFFFULL) > 0xFFFFULL:
        return False
    narrow[0] = (key >> 32) << 16 | (key & 0xFFFFULL)
    return True


cdef inline uint64_t wide_key(uint64_t narrow) noexcept nogil:
    """The key ``row << 32 | column`` of a narrow key ``row << 16 | column``."""
    return (narrow >> 16) << 32 | (narrow & 0xFFFFULL)


cdef inline uint64_t slot_home(const AnySlot *slots, uint64_t key, int bits) noexcept nogil:
    """The home slot of ``key`` in a table of ``2**bits`` slots of the layout of ``slots``: a
    narrow key hashed in its wide form, which spreads a block of codes as well as the wide
    table does (``row << 16 | column`` itself, hashed, gave 100 pairs of 10 codes a side 71
    homes in 256 slots, and the K = 10 stream's writes more probes)."""
    if AnySlot is Slot:
        return ck_hash(key, bits)
    else:
        return ck_hash(wide_key(key), bits)


cdef inline uint64_t slot_empty(const AnySlot *slots) noexcept nogil:
    """The key of a free slot in the layout of ``slots``."""
    if AnySlot is Slot:
        return EMPTY
    else:
        return NARROW_EMPTY


cdef Slot *slots_new(int bits) except NULL:
    """``2**bits`` empty wide slots (huge pages for a large table: ``ck_slots_alloc``)."""
    cdef Slot *slots = <Slot *>ck_slots_alloc(((<Py_ssize_t>1) << bits) * sizeof(Slot))
    if slots is NULL:
        raise MemoryError()
    slots_clear(slots, bits)
    return slots


cdef NarrowSlot *narrow_slots_new(int bits) except NULL:
    """``2**bits`` empty narrow slots (huge pages for a large table: ``ck_slots_alloc``)."""
    cdef NarrowSlot *slots = <NarrowSlot *>ck_slots_alloc(((<Py_ssize_t>1) << bits)
                                                          * sizeof(NarrowSlot))
    if slots is NULL:
        raise MemoryError()
    slots_clear(slots, bits)
    return slots


cdef void slots_clear(AnySlot *slots, int bits) noexcept nogil:
    """Every one of ``2**bits`` slots free."""
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits, i
    cdef uint64_t empty = slot_empty(slots)
    for i in range(size):
        slots[i].key = empty


cdef inline Py_ssize_t slots_find(const AnySlot *slots, int bits, uint64_t key) noexcept nogil:
    """The slot holding ``key`` (narrow: its narrow form), or the empty slot where it would go."""
    cdef uint64_t mask = ((<uint64_t>1) << bits) - 1
    cdef uint64_t at = slot_home(slots, key, bits)
    cdef uint64_t empty = slot_empty(slots)
    while slots[at].key != key and slots[at].key != empty:
        at = (at + 1) & mask
    return <Py_ssize_t>at


#: How far ahead of its writes a batch asks for the slot of a key (:func:`slots_prefetch`). A
#: large table's writes miss the cache at random slots: with the slot of the key 64 further
#: on asked for, enough misses are in flight to keep the memory busy (measured against 16
#: and 128: docs/performance.md, "Batches into the kernel's hash table").
cdef enum:
    SLOTS_AHEAD = 64
    DENSE_STRETCH = 2048  # entries of a dense count read at a time (_add_dense, _apply_dense)


cdef inline void slots_prefetch(AnySlot *slots, int bits, uint64_t key) noexcept nogil:
    """Ask for the cache line of ``key``'s home slot ahead of its use (a batch's later key)."""
    ck_prefetch(&slots[slot_home(slots, key, bits)])


cdef AnySlot *slots_moved(AnySlot *slots, int bits, int new_bits) except NULL:
    """The entries of ``slots`` (``2**bits`` of them, then freed) in a new table of
    ``2**new_bits`` in the same layout."""
    cdef AnySlot *moved
    if AnySlot is Slot:
        moved = slots_new(new_bits)
    else:
        moved = narrow_slots_new(new_bits)
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits, i
    cdef uint64_t empty = slot_empty(slots)
    for i in range(size):
        if slots[i].key != empty:
            moved[slots_find(moved, new_bits, slots[i].key)] = slots[i]
    free(slots)
    return moved


cdef Slot *slots_widened(NarrowSlot *slots, int bits) except NULL:
    """The entries of narrow ``slots`` (``2**bits`` of them, then freed) in a wide table of as
    many slots: the same keys and counts."""
    cdef Slot *wide = slots_new(bits)
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits, i, at
    cdef uint64_t key
    for i in range(size):
        if slots[i].key != NARROW_EMPTY:
            key = wide_key(slots[i].key)
            at = slots_find(wide, bits, key)
            wide[at].key, wide[at].count = key, slots[i].count
    free(slots)
    return wide


cdef void slots_delete(AnySlot *slots, int bits, Py_ssize_t at) noexcept nogil:
    """Empty a slot, shifting back the entries that probed past it (the owner counts one fewer)."""
    cdef uint64_t mask = ((<uint64_t>1) << bits) - 1
    cdef uint64_t hole = <uint64_t>at, probe = <uint64_t>at, home
    cdef uint64_t empty = slot_empty(slots)
    while True:
        probe = (probe + 1) & mask
        if slots[probe].key == empty:
            break
        home = slot_home(slots, slots[probe].key, bits)
        if (hole <= probe and hole < home <= probe) or (hole > probe and (hole < home or home <= probe)):
            continue  # its home lies after the hole: it stays
        slots[hole] = slots[probe]
        hole = probe
    slots[hole].key = empty


cdef AnySlot *slots_copy(const AnySlot *slots, int bits) except NULL:
    """An independent copy of a table of ``2**bits`` slots."""
    cdef size_t bytes = ((<Py_ssize_t>1) << bits) * sizeof(slots[0])
    cdef AnySlot *copied = <AnySlot *>ck_slots_alloc(bytes)
    if copied is NULL:
        raise MemoryError()
    memcpy(copied, slots, bytes)
    return copied
