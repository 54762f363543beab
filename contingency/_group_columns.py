"""GroupedContingency's groups as one columnar state (its pickle): packed and unpacked.

A group's counts pickled as its own :class:`~contingency.Contingency` are
about ten small lists and dicts (:meth:`Counts.core_state
<contingency._counts_reference.CountsCore.core_state>`), each memoized by the
pickler and rebuilt one by one by the unpickler: at 10^5 groups the memo
table alone doubled the cost per group. :func:`pack_groups_reference` lays
every group's counts out as one state of two flat integer arrays instead, and
:func:`unpack_groups_reference` makes the groups again, each holding exactly
what its core's restore path (``core_restore``) makes of the group's own
``core_state()``: so pickling costs O(cells + groups) with a small constant.

The columns (a dict of plain data, loadable by either implementation), for
the ``E`` groups laid out in columns, in their order:

- ``size``: the number of groups, ``others``: ``{position: Contingency}``, the
  groups the columns cannot hold exactly, pickled whole as before (counts in
  fractional units, which pass int64; a group whose settings, class or
  ``set_entries`` offset are not those of the empty accumulator its
  GroupedContingency copies, or whose coding is not the one its ``names``
  give: never made by this class, kept whole all the same);
- ``codings``: the distinct category codings, each its ``names`` list (the
  category of each code, ``HOLE`` for a forgotten one; ``ids`` is the
  non-hole names by code), shared by the groups whose cores share their
  coding (by identity: the kernel's groups copied from one empty accumulator
  share it until a category joins or leaves one);
- ``laid`` (``E``), ``shapes`` (``S``, the result shapes of every group
  together), ``pairs`` (``P``, their pairs) and ``wide_micro`` (whether a
  micro cell reaches ``2**63``);
- ``structure``, one array: each group's ``coding`` (its place in
  ``codings``), ``holes``, ``n_shapes`` and ``n_pairs`` (``E`` each), then the
  shapes (``both, assigned, correct`` per shape: ``3 S``), then each pair's
  code of the correct category and of the assigned one (``P`` each: the key
  ``correct << 32 | assigned``);
- ``counts``, one array: each group's ``n`` (``E``), its cells ``a``, ``b``
  then ``c`` (one per code of its coding, group after group), its micro
  table (``4 E``: each cell's low 63 bits), the shapes' counts (``S``, in each
  group's ``shapes`` order), the pairs' counts (``P``, in key order:
  ``to_dict``'s) and, with ``wide_micro``, the micro cells' high words
  (``4 E``: a cell is ``high * 2**63 + low``).

Each array is in the narrowest integer type that holds its values
(:func:`narrowed`: a group's counts are mostly small numbers, and these bytes
are most of what a pickle of many groups writes, copies and reads), and is
pickled as its type and its bytes (``("<i2", b"...")``); an unpacking reads
any integer type in either byte order. Two arrays, not one per column, and
bytes, not ndarrays, keep the cost of a pickle of a few groups low (an
ndarray's own pickling costs a few microseconds, bytes well under one).

The kernel's pair of routines (contingency/_kernel_grouped.pxi) writes and
reads the same columns in C loops (cells copied whole, the groups made in
bulk as its ``grouped_copies`` makes new groups); :mod:`contingency._backend`
chooses, and tests/test_grouped_pickle.py compares both columns and groups.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from contingency import _backend
from contingency._contingency import Contingency
from contingency._counts import Counts
from contingency._counts_reference import HOLE
from contingency._table import PAIR_LOW, PAIR_SHIFT
from contingency.formulas._numeric import MAX_COUNT

__all__ = ["Columns", "checked_columns", "coded_by_names", "in_columns", "narrowed",
           "pack_groups", "pack_groups_reference", "packed_columns", "unpack_groups",
           "unpack_groups_reference"]

_LOW = (1 << 63) - 1  # a micro cell's low word (its high word: the cell >> 63)
#: Every cell of a micro table, as a count of words per group.
_MICRO = 4


class Columns(NamedTuple):
    """Checked columns (:func:`checked_columns`): each a view of ``structure`` or ``counts``
    (contiguous integers in the machine's byte order; ``micro_high`` zeros without
    ``wide_micro``), every length consistent with the others."""

    size: int
    others: dict[int, Contingency]
    codings: list[list[Hashable]]
    coding: NDArray[Any]
    holes: NDArray[Any]
    n_shapes: NDArray[Any]
    n_pairs: NDArray[Any]
    shapes: NDArray[Any]
    pair_correct: NDArray[Any]
    pair_assigned: NDArray[Any]
    n: NDArray[Any]
    cells: NDArray[Any]
    micro: NDArray[Any]
    shape_counts: NDArray[Any]
    pair_counts: NDArray[Any]
    micro_high: NDArray[Any]


def narrowed(column: NDArray[np.int64]) -> NDArray[Any]:
    """``column`` (int64) in the narrowest signed integer type that holds every value."""
    if not len(column):
        return column.astype(np.int8)
    low, high = int(column.min()), int(column.max())
    for dtype in (np.int8, np.int16, np.int32):
        bounds = np.iinfo(dtype)
        if bounds.min <= low and high <= bounds.max:
            return column.astype(dtype)
    return column


def packed_columns(size: int, others: dict[int, Contingency], codings: list[list[Hashable]],
                   laid: int, shapes: int, pairs: int, structure: NDArray[np.int64],
                   counts: NDArray[np.int64]) -> dict[str, Any]:
    """The columns as pickled, from the two arrays laid out (``counts`` ending with the micro
    cells' high words): the high words left out when they are all 0, each array
    :func:`narrowed` (the one way both packings finish)."""
    wide = bool(counts[len(counts) - _MICRO * laid:].any())
    if not wide:
        counts = counts[:len(counts) - _MICRO * laid]
    return {"size": size, "others": others, "codings": codings, "laid": laid, "shapes": shapes,
            "pairs": pairs, "wide_micro": wide, "structure": _written(narrowed(structure)),
            "counts": _written(narrowed(counts))}


def _written(array: NDArray[Any]) -> tuple[str, bytes]:
    """An integer array as pickled: its type (``"<i2"``, say) and its bytes, which pickle in about
    a microsecond where an ndarray's own reduction costs several."""
    return array.dtype.str, array.tobytes()


def _read(written: object, name: str) -> NDArray[Any]:
    """The array :func:`_written` wrote, contiguous in the machine's byte order, or ``ValueError``
    naming the column when it is not one."""
    dtype, data = None, None
    if type(written) is tuple and len(written) == 2 and type(written[1]) is bytes:
        with contextlib.suppress(TypeError):  # (not a type numpy knows)
            dtype, data = np.dtype(written[0]), written[1]
    if dtype is None or data is None or dtype.kind not in "iu" or len(data) % dtype.itemsize:
        raise ValueError(f"a pickled GroupedContingency's {name} is not an array of integers: "
                         "the state was not written by GroupedContingency.__getstate__")
    array = np.frombuffer(data, dtype=dtype)
    return array if dtype.isnative else array.astype(dtype.newbyteorder("="))


def in_columns(accumulator: Contingency, template: Contingency) -> bool:
    """Whether the columns hold ``accumulator``'s counts exactly: a Contingency with the settings
    of ``template`` (its GroupedContingency's empty accumulator, which :func:`unpack_groups`
    copies), no ``set_entries`` offset, counts in whole units (scale 0) and at most
    ``MAX_COUNT`` results (so every count fits int64: none is more than ``n``, but a micro
    cell, which the columns split at ``2**63``)."""
    counts, empty = accumulator._counts, template._counts
    return (type(accumulator) is Contingency and type(counts) is Counts
            and accumulator._unknown == template._unknown
            and accumulator._zero_division == template._zero_division
            and accumulator._verbose == template._verbose
            and counts.declared == empty.declared and counts.hold == empty.hold
            and not any(counts.offset) and not counts.scale and 0 <= counts.n <= MAX_COUNT)


def coded_by_names(ids: Mapping[Hashable, int], names: Sequence[Hashable]) -> bool:
    """Whether ``ids`` is what ``names`` gives: each category not a hole, by code, in code order."""
    return list(ids.items()) == [(label, code) for code, label in enumerate(names)
                                 if label is not HOLE]


def pack_groups_reference(accumulators: Sequence[Contingency],
                          template: Contingency) -> dict[str, Any]:
    """The counts of ``accumulators`` (a GroupedContingency's groups, in order) as columns (see
    the module's docstring), each read from its core's ``core_state()``; ``template`` is the
    empty accumulator with the settings. O(cells + shapes + pairs + groups)."""
    others: dict[int, Contingency] = {}
    codings: list[list[Hashable]] = []
    seen: dict[tuple[int, int], int] = {}  # (id(names), id(ids)) -> its coding
    states = []
    for position, accumulator in enumerate(accumulators):
        counts = accumulator._counts
        if not in_columns(accumulator, template):
            others[position] = accumulator
            continue
        state = counts.core_state()
        key = (id(counts.names), id(counts.ids))  # (the core's own: alive while the group is)
        coding = seen.get(key)
        if coding is None:
            if not coded_by_names(state["ids"], state["names"]):
                others[position] = accumulator
                continue
            coding = seen[key] = len(codings)
            codings.append(state["names"])
        states.append((coding, state))
    structure = [coding for coding, _ in states] + [state["holes"] for _, state in states]
    structure += [len(state["shapes"]) for _, state in states]
    structure += [len(state["pairs"]) for _, state in states]
    numbers = [state["n"] for _, state in states]
    for _, state in states:
        for column in state["cells"]:
            numbers.extend(column)
    numbers += [cell & _LOW for _, state in states for cell in state["micro"]]
    shapes = pairs = 0
    for _, state in states:
        for shape, count in state["shapes"].items():
            structure.extend(shape)
            numbers.append(count)
            shapes += 1
    for _, state in states:
        structure.extend(key >> PAIR_SHIFT for key in state["pairs"])
    for _, state in states:
        structure.extend(key & PAIR_LOW for key in state["pairs"])
        numbers.extend(state["pairs"].values())
        pairs += len(state["pairs"])
    numbers += [cell >> 63 for _, state in states for cell in state["micro"]]
    return packed_columns(len(accumulators), others, codings, len(states), shapes, pairs,
                          np.array(structure, dtype=np.int64), np.array(numbers, dtype=np.int64))


def checked_columns(packed: Mapping[str, Any]) -> Columns:
    """The columns of a pickled GroupedContingency, each a view of its array (contiguous integers
    in the machine's byte order), once every length is checked against the others: a state no
    packing made is refused (``ValueError``) before any group is made (the kernel's unpacking
    reads the arrays by these lengths)."""
    size, others, codings = packed["size"], dict(packed["others"]), list(packed["codings"])
    laid, shapes, pairs, wide = packed["laid"], packed["shapes"], packed["pairs"], packed["wide_micro"]
    structure, counts = _read(packed["structure"], "structure"), _read(packed["counts"], "counts")
    if (any(type(number) is not int or number < 0 for number in (size, laid, shapes, pairs))
            or laid + len(others) != size or type(wide) is not bool
            or any(type(position) is not int or not 0 <= position < size for position in others)
            or len(structure) != 4 * laid + 3 * shapes + 2 * pairs):
        raise ValueError("a pickled GroupedContingency's groups do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    coding, holes, n_shapes, n_pairs = (structure[index * laid:(index + 1) * laid]
                                        for index in range(4))
    if laid and (structure[:4 * laid].min() < 0 or coding.max() >= len(codings)):
        raise ValueError("a pickled GroupedContingency's group names a coding, or a number of "
                         "shapes or pairs, it does not hold")
    cells = 3 * int(np.array([len(names) for names in codings], dtype=np.int64)[coding].sum())
    if (int(n_shapes.sum()) != shapes or int(n_pairs.sum()) != pairs
            or len(counts) != laid + cells + _MICRO * laid * (1 + wide) + shapes + pairs):
        raise ValueError("a pickled GroupedContingency's counts do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    at = 4 * laid
    shape_rows, correct, assigned = (structure[at:at + 3 * shapes],
                                     structure[at + 3 * shapes:at + 3 * shapes + pairs],
                                     structure[at + 3 * shapes + pairs:])
    cuts = [0]
    for length in (laid, cells, _MICRO * laid, shapes, pairs):
        cuts.append(cuts[-1] + length)
    n, cell_counts, micro, shape_counts, pair_counts = (counts[start:stop] for start, stop
                                                        in itertools.pairwise(cuts))
    high = counts[cuts[-1]:] if wide else np.zeros(_MICRO * laid, dtype=np.int8)
    return Columns(size, others, codings, coding, holes, n_shapes, n_pairs, shape_rows, correct,
                   assigned, n, cell_counts, micro, shape_counts, pair_counts, high)


def unpack_groups_reference(packed: Mapping[str, Any], template: Contingency) -> list[Contingency]:
    """The groups of :func:`pack_groups_reference`'s columns, in order: each a copy of
    ``template`` (the empty accumulator with the settings) whose counts hold its ``core_state()``
    again, by their core's restore path (``core_restore``). O(cells + shapes + pairs + groups)."""
    columns = checked_columns(packed)
    codings = [(list(names), {label: code for code, label in enumerate(names) if label is not HOLE})
               for names in columns.codings]
    cells, low, high = columns.cells.tolist(), columns.micro.tolist(), columns.micro_high.tolist()
    shapes, shape_counts = columns.shapes.tolist(), columns.shape_counts.tolist()
    pair_keys = [correct << PAIR_SHIFT | assigned for correct, assigned
                 in zip(columns.pair_correct.tolist(), columns.pair_assigned.tolist())]
    pair_counts = columns.pair_counts.tolist()
    made: list[Contingency] = []
    laid = at = shape_at = pair_at = 0
    for position in range(columns.size):
        if position in columns.others:
            made.append(columns.others[position])
            continue
        names, ids = codings[int(columns.coding[laid])]
        width = len(names)
        stop = shape_at + int(columns.n_shapes[laid])
        shape_items = {(shapes[3 * row], shapes[3 * row + 1], shapes[3 * row + 2]): shape_counts[row]
                       for row in range(shape_at, stop)}
        pairs_stop = pair_at + int(columns.n_pairs[laid])
        state = {"cells": [cells[at + index * width:at + (index + 1) * width] for index in range(3)],
                 "n": int(columns.n[laid]), "scale": 0, "shapes": shape_items,
                 "micro": [(high[_MICRO * laid + index] << 63) + low[_MICRO * laid + index]
                           for index in range(_MICRO)],
                 "ids": ids, "names": names, "holes": int(columns.holes[laid]),
                 "pairs": dict(zip(pair_keys[pair_at:pairs_stop], pair_counts[pair_at:pairs_stop]))}
        accumulator = template.copy()
        accumulator._counts.core_restore(state)
        made.append(accumulator)
        laid, at, shape_at, pair_at = laid + 1, at + 3 * width, stop, pairs_stop
    return made


#: The routines GroupedContingency's pickle calls: the kernel's C loops, or the references above
#: (tests/test_grouped_pickle.py compares them).
pack_groups = _backend.compiled_pack_groups(pack_groups_reference, packed_columns, Contingency,
                                            Counts)
unpack_groups = _backend.compiled_unpack_groups(unpack_groups_reference, checked_columns,
                                                Contingency, Counts)
