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
- ``micro_low`` (uint64) and ``micro_high`` (int64, or ``None`` when every one
  is 0): each group's micro table, four cells ``high * 2**64 + low``;
- ``n_shapes``, then ``shapes`` (``both, assigned, correct`` per row) and
  ``shape_counts``: each group's result shapes, in its ``shapes`` order;
- ``n_pairs``, then ``pair_keys`` and ``pair_counts``: each group's pair
  table, in key order (``to_dict``'s).

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

__all__ = ["Columns", "checked_columns", "pack_groups", "pack_groups_reference",
           "unpack_groups", "unpack_groups_reference"]

_MASK_64 = (1 << 64) - 1
#: Every cell of the columns' micro table, as a count of int64 words per group.
_MICRO = 4


class Columns(NamedTuple):
    """Checked columns (:func:`checked_columns`): every array int64 (``micro_low`` uint64)
    and contiguous, every length consistent with the others."""

    size: int
    others: dict[int, Contingency]
    codings: list[list[Hashable]]
    coding: NDArray[np.int64]
    holes: NDArray[np.int64]
    n: NDArray[np.int64]
    cells: NDArray[np.int64]
    micro_low: NDArray[np.uint64]
    micro_high: NDArray[np.int64]
    n_shapes: NDArray[np.int64]
    shapes: NDArray[np.int64]
    shape_counts: NDArray[np.int64]
    n_pairs: NDArray[np.int64]
    pair_keys: NDArray[np.int64]
    pair_counts: NDArray[np.int64]


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
    columns: dict[str, list[int]] = {name: [] for name in (
        "coding", "holes", "n", "cells", "micro_low", "micro_high", "n_shapes", "shapes",
        "shape_counts", "n_pairs", "pair_keys", "pair_counts")}
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
        columns["pair_keys"].extend(state["pairs"])
        columns["pair_counts"].extend(state["pairs"].values())
    packed: dict[str, Any] = {"size": len(accumulators), "others": others, "codings": codings}
    for name, values in columns.items():
        packed[name] = np.array(values, dtype=np.uint64 if name == "micro_low" else np.int64)
    if not packed["micro_high"].any():
        packed["micro_high"] = None
    return packed


def checked_columns(packed: Mapping[str, Any]) -> Columns:
    """The columns of a pickled GroupedContingency, as arrays of their types, once every length
    is checked against the others (a state no packing made is refused, ``ValueError``, before any
    group is made: the kernel's unpacking reads the arrays by these lengths)."""
    size, others, codings = packed["size"], dict(packed["others"]), list(packed["codings"])

    def column(name: str, dtype: Any = np.int64) -> NDArray[Any]:
        return np.ascontiguousarray(packed[name], dtype=dtype).ravel()

    coding, holes, n = column("coding"), column("holes"), column("n")
    n_shapes, n_pairs = column("n_shapes"), column("n_pairs")
    laid = len(coding)
    micro_low = column("micro_low", np.uint64)
    high = packed["micro_high"]
    micro_high = np.zeros(_MICRO * laid, dtype=np.int64) if high is None else column("micro_high")
    if (type(size) is not int or laid + len(others) != size
            or any(type(position) is not int or not 0 <= position < size for position in others)
            or any(len(values) != laid for values in (holes, n, n_shapes, n_pairs))
            or len(micro_low) != _MICRO * laid or len(micro_high) != _MICRO * laid):
        raise ValueError("a pickled GroupedContingency's groups do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    if laid and (coding.min() < 0 or coding.max() >= len(codings)):
        raise ValueError("a pickled GroupedContingency's group names a coding it does not hold")
    width = np.array([len(names) for names in codings], dtype=np.int64)
    cells, shapes, shape_counts = column("cells"), column("shapes"), column("shape_counts")
    pair_keys, pair_counts = column("pair_keys"), column("pair_counts")
    if (len(cells) != 3 * int(width[coding].sum())
            or (laid and (n_shapes.min() < 0 or n_pairs.min() < 0))
            or len(shapes) != 3 * len(shape_counts) or len(shape_counts) != int(n_shapes.sum())
            or len(pair_keys) != len(pair_counts) or len(pair_keys) != int(n_pairs.sum())):
        raise ValueError("a pickled GroupedContingency's counts do not add up: the state was "
                         "not written by GroupedContingency.__getstate__")
    return Columns(size, others, codings, coding, holes, n, cells, micro_low, micro_high,
                   n_shapes, shapes, shape_counts, n_pairs, pair_keys, pair_counts)


def unpack_groups_reference(packed: Mapping[str, Any], template: Contingency) -> list[Contingency]:
    """The groups of :func:`pack_groups_reference`'s columns, in order: each a copy of
    ``template`` (the empty accumulator with the settings) whose counts hold its ``core_state()``
    again, by their core's restore path (``core_restore``). O(cells + shapes + pairs + groups)."""
    columns = checked_columns(packed)
    codings = [(list(names), {label: code for code, label in enumerate(names) if label is not HOLE})
               for names in columns.codings]
    cells, low, high = columns.cells.tolist(), columns.micro_low.tolist(), columns.micro_high.tolist()
    shapes, shape_counts = columns.shapes.tolist(), columns.shape_counts.tolist()
    pair_keys, pair_counts = columns.pair_keys.tolist(), columns.pair_counts.tolist()
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
pack_groups = _backend.compiled_pack_groups(pack_groups_reference, Contingency, Counts)
unpack_groups = _backend.compiled_unpack_groups(unpack_groups_reference, checked_columns,
                                                Contingency, Counts)
