"""Contingency's state document: the format ``to_dict`` writes, and the checks ``from_dict`` makes.

:func:`write_state` lays the counts out in the categories' order;
:func:`read_state` checks a whole document before anything is made: keys
and format (:func:`contingency._state_json.check_state`), settings, counts
that no sequence of calls could leave (cells that do not add up to the
result shapes, a category named by more results than there are, single-label
results the cells cannot hold...), and the limits every write path
enforces. It returns the counts as the changes ``Counts.apply`` takes, so
``Contingency.from_dict`` is a merge into an empty accumulator.
"""

from __future__ import annotations

import reprlib
from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

from contingency._changes import HIT, MISS, Changes, Pairs, Shape, Unknown, pair_changes
from contingency._counts import Counts, whole
from contingency._labels import label_to_json
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
from contingency.formulas._numeric import MAX_SCALE, ZeroDivision, check_room, check_zero_division

__all__ = ["FORMAT", "UNKNOWN_POLICIES", "State", "check_unknown", "ordered_counts", "read_state",
           "write_state"]

FORMAT = "contingency.Contingency/2"
UNKNOWN_POLICIES = ("error", "ignore", "add")


def check_unknown(value: object, name: str = "unknown") -> Unknown:
    """``value`` if it is one of the ``unknown`` policies, else ``ValueError`` naming ``name``."""
    if not isinstance(value, str) or value not in UNKNOWN_POLICIES:  # an array compares per item
        raise ValueError(f"{name} must be 'error', 'ignore' or 'add', not {reprlib.repr(value)}")
    return value  # type: ignore[return-value]


_KEYS = {"format", "categories", "declared", "unknown", "zero_division", "scale", "a", "b", "c",
         "result_shapes", "micro_offset", "confusion"}
# Format 1 (0.1.0.dev0) has no confusion matrix of the single-label results, which the
# counts alone do not give back: its documents are refused, naming the format.
_FORMAT_1 = "contingency.Contingency/1"


def ordered_counts(counts: Counts, order: list[Hashable]
                   ) -> tuple[int, list[list[int]], dict[Shape, int], Pairs, list[int]]:
    """The counts in their least unit, the cells ``a``, ``b``, ``c`` listed in ``order``.

    ``(scale, [a, b, c], shapes, pairs, offset)``: what two accumulators with
    equal counts have equal, whatever the order their categories were met in.
    """
    exponent, a, b, c, shapes, pairs, offset = counts.canonical()
    met = {label: k for k, label in enumerate(counts.a)}  # the table's order
    cells = [[column[met[label]] for label in order] for column in (a, b, c)]
    return exponent, cells, shapes, pairs, offset


def write_state(counts: Counts, order: list[Hashable], unknown: Unknown,
                zero_division: ZeroDivision) -> dict[str, Any]:
    """``Contingency.to_dict``'s document: the settings and the counts, categories in ``order``."""
    exponent, (a, b, c), shapes, pairs, offset = ordered_counts(counts, order)
    position = {label: k for k, label in enumerate(order)}
    return {
        "format": FORMAT,
        "categories": [label_to_json(label, "category") for label in order],
        "declared": len(counts.declared),
        "unknown": unknown,
        "zero_division": zero_division,
        "scale": exponent,
        "a": a,
        "b": b,
        "c": c,
        "result_shapes": [[*shape, count] for shape, count in sorted(shapes.items())],
        "micro_offset": offset,
        "confusion": sorted([position[truth], position[chosen], count]
                            for (truth, chosen), count in pairs.items()),
    }


class State(NamedTuple):
    """A checked document of ``Contingency.to_dict``: the settings, and the counts as changes."""

    labels: list[Hashable]
    declared: int
    unknown: Unknown
    zero_division: ZeroDivision
    scale: int
    changes: Changes
    offset: list[int]


def read_state(data: Mapping[str, Any]) -> State:
    """Check a ``to_dict`` document, refusing any state no calls could make (``from_dict: ...``)."""
    fail = state_error
    data = check_state(data, _KEYS, FORMAT, earlier={
        _FORMAT_1: "it has no confusion matrix of the single-label results, which the counts "
                   "alone do not give back; count the results again"})
    scale = count_from_json(data["scale"], "scale")
    if scale > MAX_SCALE:
        raise fail(f"scale is {scale}; counts are kept in units down to 2**-{MAX_SCALE}")
    unknown = check_unknown(data["unknown"], "from_dict: unknown")
    zero_division = check_zero_division(data["zero_division"], name="from_dict: zero_division")
    labels = labels_from_json(data["categories"], "categories")
    k = len(labels)
    declared = count_from_json(data["declared"], "declared")
    if declared > k:
        raise fail(f"declared is {declared} but there are only {k} categories")
    columns = []
    for name in "abc":
        column = data[name]
        if not isinstance(column, list) or len(column) != k:
            raise fail(f"{name} must be a list of {k} counts, one per category")
        columns.append([count_from_json(v, f"{name}[{i}]") for i, v in enumerate(column)])
    shapes: dict[Shape, int] = {}
    if not isinstance(data["result_shapes"], list):
        raise fail("result_shapes must be a list of [both, assigned, correct, count]")
    for i, row in enumerate(data["result_shapes"]):
        if not isinstance(row, list) or len(row) != 4:
            raise fail(f"result_shapes[{i}] must be [both, assigned, correct, count]")
        both, assigned, correct, count = (count_from_json(v, f"result_shapes[{i}]") for v in row)
        if not both <= min(assigned, correct) or assigned + correct - both > k or count == 0:
            raise fail(f"result_shapes[{i}] = {row} is not a possible result shape with {k} "
                       f"categories (a result names at most {k}, and 'both' of them on both "
                       "sides)" if count else f"result_shapes[{i}] has a count of 0")
        if (both, assigned, correct) in shapes:
            raise fail(f"result_shapes[{i}] repeats the shape {(both, assigned, correct)}")
        shapes[both, assigned, correct] = count
    offset = data["micro_offset"]
    if not isinstance(offset, list) or len(offset) != 4:
        raise fail("micro_offset must be a list of 4 integers")
    offset = [count_from_json(v, f"micro_offset[{i}]", signed=True)
              for i, v in enumerate(offset)]
    n = sum(shapes.values())
    # What a category can hold: a result gives it one cell at most, and only of a kind the
    # result's shape has. For each set of kinds (a; b; a or b; ...), the category's cells of
    # those kinds are at most the results whose shape has one of them (necessary conditions).
    kinds = [[shape[0] > 0, shape[1] > shape[0], shape[2] > shape[0]] for shape in shapes]
    counts = list(shapes.values())
    subsets = [[name for bit, name in enumerate("abc") if mask >> bit & 1] for mask in range(1, 8)]
    rooms = [sum(count for has, count in zip(kinds, counts)
                 if any(has["abc".index(name)] for name in names)) for names in subsets]
    for position, label in enumerate(labels):
        cells = [column[position] for column in columns]
        total = sum(cells)
        if total > n:
            raise fail(f"category {label!r} has a + b + c = {total} but there are only {n} "
                       "results")
        for names, room in zip(subsets, rooms):
            held = sum(cells["abc".index(name)] for name in names)
            if held > room:
                raise fail(f"category {label!r} has {' + '.join(names)} = {held} but only "
                           f"{room} results have a cell {' or '.join(names)} to give it (a "
                           "result gives a category one cell at most)")
        if total == 0 and position >= declared:
            raise fail(f"category {label!r} was not declared and no result names it (such a "
                       "category is forgotten, never stored)")
    pooled = [0, 0, 0]
    for (both, assigned, correct), count in shapes.items():
        for cell, value in enumerate((both, assigned - both, correct - both)):
            pooled[cell] += value * count
    for name, column, expected in zip("abc", columns, pooled):
        if sum(column) != expected:
            raise fail(f"the {name} cells add up to {sum(column)} but the result shapes say "
                       f"{expected}")
    micro = [cell + extra for cell, extra in zip((*pooled, k * n - sum(pooled)), offset)]
    if any(cell < 0 for cell in micro):
        raise fail(f"micro_offset {offset} makes the micro table negative")
    try:  # the limits of every other path, with their message
        check_room(0, whole(n, scale), "results")
        for name, extra in zip("abcd", offset):
            check_room(0, whole(extra, scale), f"set by set_entries in micro-table cell {name}")
    except ValueError as error:
        raise fail(str(error)) from None
    pairs = _pairs_from_json(data["confusion"], labels, columns, shapes)
    a, b, c = ({label: value for label, value in zip(labels, column) if value}
               for column in columns)
    return State(labels, declared, unknown, zero_division, scale, (a, b, c, shapes, pairs), offset)


def _pairs_from_json(rows: object, labels: list[Hashable], columns: list[list[int]],
                     shapes: dict[Shape, int]) -> Pairs:
    """The single-label results of ``to_dict``'s ``confusion``, checked against cells and shapes."""
    fail = state_error
    if not isinstance(rows, list):
        raise fail("confusion must be a list of [correct, assigned, count] (category "
                   "positions and a count)")
    k = len(labels)
    pairs: Pairs = {}
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 3:
            raise fail(f"confusion[{i}] must be [correct, assigned, count]")
        truth, chosen, count = (count_from_json(v, f"confusion[{i}]") for v in row)
        if truth >= k or chosen >= k or count == 0:
            raise fail(f"confusion[{i}] = {row} names no category of {k} or counts nothing")
        pair = (labels[truth], labels[chosen])
        if pair in pairs:
            raise fail(f"confusion[{i}] repeats the pair {[truth, chosen]}")
        pairs[pair] = count
    a, b, c, given, _ = pair_changes(pairs)  # what the single-label results give
    right, wrong = given.get(HIT, 0), given.get(MISS, 0)
    if (right, wrong) != (shapes.get(HIT, 0), shapes.get(MISS, 0)):
        raise fail(f"confusion holds {right} right and {wrong} wrong single-label results but "
                   f"the result shapes say {shapes.get(HIT, 0)} and {shapes.get(MISS, 0)}")
    for name, column, least in zip("abc", columns, (a, b, c)):
        for label, have in zip(labels, column):
            need = least.get(label, 0)
            if have < need:
                raise fail(f"category {label!r} has {name} = {have} but its single-label "
                           f"results in confusion alone give {need}")
    return pairs
