"""GroupedContingency's groups as one columnar state (its pickle): packed and unpacked.

A group's counts pickled as its own :class:`~contingency.Contingency` are
about ten small lists and dicts (:meth:`Counts.core_state
<contingency._counts_reference.CountsCore.core_state>`), each memoized by the
pickler and rebuilt one by one by the unpickler: at 10^5 groups the memo
table alone doubled the cost per group. :func:`pack_groups_reference` lays
every group's counts out as one state of flat int64 arrays instead, and
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
  share it until a category joins or leaves one), and ``coding``, each group's;
- ``holes`` and ``n``, one per group;
- ``cells``: each group's columns ``a``, ``b`` then ``c`` (one count per code
  of its coding), the groups one after the other;
- ``micro_low`` (unsigned) and ``micro_high`` (``None`` when every one is 0):
  each group's micro table, four cells ``high * 2**64 + low``;
- ``n_shapes``, then ``shapes`` (``both, assigned, correct`` per row) and
  ``shape_counts``: each group's result shapes, in its ``shapes`` order;
- ``n_pairs``, then ``pair_correct``, ``pair_assigned`` (the codes of a pair's
  key ``correct << 32 | assigned``) and ``pair_counts``: each group's pair
  table, in key order (``to_dict``'s).

Every column is an integer array in the narrowest type that holds its values
(:func:`narrowed`: a group's cells are mostly small numbers, and the bytes of
the columns are most of what a pickle of many groups writes, copies and
reads); an unpacking reads any integer type.

The kernel's pair of routines (contingency/_kernel_grouped.pxi) writes and
reads the same columns in C loops (cells copied whole, the groups made in
bulk as its ``grouped_copies`` makes new groups); :mod:`contingency._backend`
chooses, and tests/test_grouped_pickle.py compares both columns and groups.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from contingency import _backend
from contingency._contingency import Contingency
from contingency._counts import Counts
from contingency._counts_reference import HOLE
from contingency._table import PAIR_LOW, PAIR_SHIFT

__all__ = ["COLUMNS", "Columns", "checked_columns", "coded_by_names", "in_columns", "narrowed",
           "pack_groups", "pack_groups_reference", "packed_columns", "unpack_groups",
           "unpack_groups_reference"]

_MASK_64 = (1 << 64) - 1
#: Every cell of the columns' micro table, as a count of words per group.
_MICRO = 4
#: The integer types a column may take, narrowest first, by kind (signed, unsigned).
_TYPES = {"i": (np.int8, np.int16, np.int32, np.int64),
          "u": (np.uint8, np.uint16, np.uint32, np.uint64)}
#: The columns of numbers (the rest: size, others, codings), and the unsigned one among them.
COLUMNS = ("coding", "holes", "n", "cells", "micro_low", "micro_high", "n_shapes", "shapes",
           "shape_counts", "n_pairs", "pair_correct", "pair_assigned", "pair_counts")
_UNSIGNED = "micro_low"


class Columns(NamedTuple):
    """Checked columns (:func:`checked_columns`): every array of integers, contiguous, in the
    machine's byte order, every length consistent with the others (``micro_high`` zeros when
    the columns have none)."""

    size: int
    others: dict[int, Contingency]
    codings: list[list[Hashable]]
    coding: NDArray[Any]
    holes: NDArray[Any]
    n: NDArray[Any]
    cells: NDArray[Any]
    micro_low: NDArray[Any]
    micro_high: NDArray[Any]
    n_shapes: NDArray[Any]
    shapes: NDArray[Any]
    shape_counts: NDArray[Any]
    n_pairs: NDArray[Any]
    pair_correct: NDArray[Any]
    pair_assigned: NDArray[Any]
    pair_counts: NDArray[Any]


def narrowed(column: NDArray[Any]) -> NDArray[Any]:
    """``column`` (int64 or uint64) in the narrowest integer type of its kind that holds every value."""
    kind = column.dtype.kind
    if not len(column):
        return column.astype(_TYPES[kind][0])
    low, high = int(column.min()), int(column.max())
    for dtype in _TYPES[kind]:
        bounds = np.iinfo(dtype)
        if bounds.min <= low and high <= bounds.max:
            return column.astype(dtype, copy=False)
    raise AssertionError("an int64 column holds every value of int64")  # (unreachable)


def packed_columns(size: int, others: dict[int, Contingency], codings: list[list[Hashable]],
                   columns: Mapping[str, NDArray[Any]]) -> dict[str, Any]:
    """The columns as pickled: every column :func:`narrowed`, ``micro_high`` ``None`` when every
    high word is 0 (the one way both packings finish)."""
    packed: dict[str, Any] = {"size": size, "others": others, "codings": codings}
    for name in COLUMNS:
        packed[name] = narrowed(columns[name])
    if not packed["micro_high"].any():
        packed["micro_high"] = None
    return packed


def in_columns(accumulator: Contingency, template: Contingency) -> bool:
    """Whether the columns hold ``accumulator``'s counts exactly: a Contingency with the settings
    of ``template`` (its GroupedContingency's empty accumulator, which :func:`unpack_groups`
    copies), no ``set_entries`` offset, counts in whole units (scale 0: every count in int64)."""
    counts, empty = accumulator._counts, template._counts
    return (type(accumulator) is Contingency and type(counts) is Counts
            and accumulator._unknown == template._unknown
            and accumulator._zero_division == template._zero_division
            and accumulator._verbose == template._verbose
            and counts.declared == empty.declared and counts.hold == empty.hold
            and not any(counts.offset) and not counts.scale)


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
    columns: dict[str, list[int]] = {name: [] for name in COLUMNS}
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
        columns["coding"].append(coding)
        columns["holes"].append(state["holes"])
        columns["n"].append(state["n"])
        for column in state["cells"]:
            columns["cells"].extend(column)
        for cell in state["micro"]:
            columns["micro_low"].append(cell & _MASK_64)
            columns["micro_high"].append(cell >> 64)
        columns["n_shapes"].append(len(state["shapes"]))
        for shape, count in state["shapes"].items():
            columns["shapes"].extend(shape)
            columns["shape_counts"].append(count)
        columns["n_pairs"].append(len(state["pairs"]))
        for key, count in state["pairs"].items():
            columns["pair_correct"].append(key >> PAIR_SHIFT)
            columns["pair_assigned"].append(key & PAIR_LOW)
            columns["pair_counts"].append(count)
    arrays = {name: np.array(values, dtype=np.uint64 if name == _UNSIGNED else np.int64)
              for name, values in columns.items()}
    return packed_columns(len(accumulators), others, codings, arrays)


def checked_columns(packed: Mapping[str, Any]) -> Columns:
    """The columns of a pickled GroupedContingency as contiguous integer arrays in the machine's
    byte order, once every length is checked against the others: a state no packing made is
    refused (``ValueError``) before any group is made (the kernel's unpacking reads the arrays
    by these lengths)."""
    size, others, codings = packed["size"], dict(packed["others"]), list(packed["codings"])
    arrays: dict[str, NDArray[Any]] = {}
    for name in COLUMNS:
        value = packed[name]
        if value is None and name == "micro_high":
            value = np.zeros(_MICRO * len(packed["coding"]), dtype=np.int8)
        column = np.asarray(value)
        if column.dtype.kind not in "iu" or column.ndim != 1:
            raise ValueError(f"a pickled GroupedContingency's column {name} is not a column of "
                             "integers: the state was not written by GroupedContingency.__getstate__")
        arrays[name] = np.ascontiguousarray(column, dtype=column.dtype.newbyteorder("="))
    coding, laid = arrays["coding"], len(arrays["coding"])
    width = np.array([len(names) for names in codings], dtype=np.int64)
    if (type(size) is not int or laid + len(others) != size
            or any(type(position) is not int or not 0 <= position < size for position in others)
            or any(len(arrays[name]) != laid for name in ("holes", "n", "n_shapes", "n_pairs"))
            or any(len(arrays[name]) != _MICRO * laid for name in ("micro_low", "micro_high"))
            or (laid and (coding.min() < 0 or coding.max() >= len(codings)))):
        raise ValueError("a pickled GroupedContingency's groups do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    n_shapes, n_pairs = arrays["n_shapes"], arrays["n_pairs"]
    if (len(arrays["cells"]) != 3 * int(width[coding].sum())
            or (laid and (n_shapes.min() < 0 or n_pairs.min() < 0))
            or len(arrays["shapes"]) != 3 * len(arrays["shape_counts"])
            or len(arrays["shape_counts"]) != int(n_shapes.sum())
            or any(len(arrays[name]) != int(n_pairs.sum())
                   for name in ("pair_correct", "pair_assigned", "pair_counts"))):
        raise ValueError("a pickled GroupedContingency's counts do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    return Columns(size, others, codings, **arrays)


def unpack_groups_reference(packed: Mapping[str, Any], template: Contingency) -> list[Contingency]:
    """The groups of :func:`pack_groups_reference`'s columns, in order: each a copy of
    ``template`` (the empty accumulator with the settings) whose counts hold its ``core_state()``
    again, by their core's restore path (``core_restore``). O(cells + shapes + pairs + groups)."""
    columns = checked_columns(packed)
    codings = [(list(names), {label: code for code, label in enumerate(names) if label is not HOLE})
               for names in columns.codings]
    cells, low, high = columns.cells.tolist(), columns.micro_low.tolist(), columns.micro_high.tolist()
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
                 "micro": [(high[_MICRO * laid + index] << 64) + low[_MICRO * laid + index]
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
