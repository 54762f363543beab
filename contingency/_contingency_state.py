"""Contingency's state document: the format ``to_dict`` writes, and the checks ``from_dict`` makes.

:func:`write_state` lays the counts out in the categories' order
(:func:`write_states` many accumulators' at once, for ``GroupedContingency``);
:func:`read_state` checks a whole document before anything is made: keys
and format (:func:`contingency._state_json.check_state`), settings, counts
that no sequence of calls could leave (cells that do not add up to the
result shapes, a category named by more results than there are, single-label
results the cells cannot hold...), and the limits every write path
enforces. It returns the checked counts laid out as the counts' core holds
them, and :func:`held_counts` makes the counts of them by the core's restore
path (pickling's), so a refused document leaves nothing made.

The checks are made twice over, the same checks: :func:`quick_state` makes
them in bulk (a type test over a whole list, ``min``/``max``, one loop over
the rows) on documents of plain JSON values (exact ``int`` counts, ``str``
and ``int`` categories, a ``dict``), and gives up (``None``) at the first
doubt; the reader that names the problem (``_read_each``, one value at a
time, in the document's order) then reads the document, so every refused
document is refused with the message it always had. The tests run both
readers on the same documents (valid, and mutated) and compare.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, NamedTuple, cast

from contingency._changes import HIT, MISS, Pairs, Shape, Unknown, pair_changes
from contingency._counts import Counts, restored, whole
from contingency._labels import category_order, label_to_json
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
from contingency._table import PAIR_LOW, PAIR_SHIFT
from contingency.formulas._numeric import (
    MAX_COUNT,
    MAX_DIGITS,
    MAX_SCALE,
    ZeroDivision,
    check_room,
    check_zero_division,
)

__all__ = ["FORMAT", "UNKNOWN_POLICIES", "State", "check_unknown", "held_counts", "ordered_counts",
           "quick_state", "read_state", "write_state", "write_states"]

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


def write_states(accumulators: Iterable[tuple[Counts, Unknown, ZeroDivision]]
                 ) -> list[dict[str, Any]]:
    """:func:`write_state`'s documents of many counts (each with its settings), in their own
    category order: the same documents, with what accumulators of the same categories share
    (their order, its JSON form) made once.

    Counts of whole units (``scale`` 0), without holes in their codes and with ``str`` and
    ``int`` categories are laid out here; any other by :func:`write_state`.
    """
    layouts: dict[tuple[tuple[Hashable, ...], int], tuple[list[Hashable], list[Any],
                                                          list[int] | None, list[int]]] = {}
    documents = []
    for counts, unknown, zero_division in accumulators:
        met = tuple(counts.a)  # the table's order: with no holes, the codes 0, 1, ...
        declared = len(counts.declared)
        layout = None
        if not counts.scale and not counts.holes and _PLAIN_LABELS.issuperset(map(type, met)):
            # (among str and int labels, equal labels are one JSON value: a shared layout)
            layout = layouts.get((met, declared))
            if layout is None:
                order = category_order(list(met), declared)
                met_at = {label: code for code, label in enumerate(met)}
                table = [met_at[label] for label in order]  # the table code of each position
                position = [0] * len(met)
                for place, code in enumerate(table):
                    position[code] = place
                layout = layouts[met, declared] = (
                    order, [label_to_json(label, "category") for label in order],
                    None if order == list(met) else table, position)
        if layout is None:
            documents.append(write_state(counts, category_order(list(met), declared), unknown,
                                         zero_division))
            continue
        _, categories, codes, position = layout
        a, b, c = counts.columns()
        if codes is not None:
            a, b, c = ([column[code] for code in codes] for column in (a, b, c))
        documents.append({
            "format": FORMAT,
            "categories": list(categories),
            "declared": declared,
            "unknown": unknown,
            "zero_division": zero_division,
            "scale": 0,
            "a": a,
            "b": b,
            "c": c,
            "result_shapes": [[*shape, count] for shape, count in sorted(counts.shapes.items())],
            "micro_offset": list(counts.offset),
            "confusion": sorted([position[key >> PAIR_SHIFT], position[key & PAIR_LOW], count]
                                for key, count in counts.pairs.items()),
        })
    return documents


class State(NamedTuple):
    """A checked document of ``Contingency.to_dict``: the settings, and the counts laid out as
    the counts' core holds them (:meth:`Counts.core_state`), the categories in the document's
    order (their codes)."""

    labels: list[Hashable]
    positions: dict[Hashable, int]  # each category's position in labels: its code
    declared: int
    unknown: Unknown
    zero_division: ZeroDivision
    scale: int
    columns: list[list[int]]  # the cells a, b, c, in the labels' order
    shapes: dict[Shape, int]
    pairs: dict[int, int]  # the single-label results by code(correct) << PAIR_SHIFT | code(assigned)
    offset: list[int]
    n: int
    micro: list[int]


def held_counts(state: State, declared: frozenset[Hashable] | None = None) -> Counts:
    """The counts of a checked document, made by the core's restore path (one write, of
    counts :func:`read_state` checked whole): what ``Counts.apply`` of them makes in empty
    counts of the declared categories (``declared``, if given, is their set)."""
    if declared is None:
        declared = frozenset(state.labels[:state.declared])
    return restored({"cells": state.columns, "n": state.n, "scale": state.scale,
                     "shapes": state.shapes, "micro": state.micro, "ids": state.positions,
                     "names": state.labels, "holes": 0, "pairs": state.pairs},
                    declared, list(state.offset))


#: Labels known to be a checked ``categories`` list (:func:`quick_state`'s ``known``):
#: the list's values as a tuple -> the labels and their positions.
Known = dict[tuple[Hashable, ...], tuple[list[Hashable], dict[Hashable, int]]]


def read_state(data: Mapping[str, Any], known: Known | None = None) -> State:
    """Check a ``to_dict`` document, refusing any state no calls could make (``from_dict: ...``).

    ``known`` (any dict, kept by the caller between documents) keeps the
    ``categories`` lists already read, for documents read one after another.
    """
    state = quick_state(data, known)
    return _read_each(data) if state is None else state


_FIELDS = operator.itemgetter("format", "categories", "declared", "unknown", "zero_division",
                              "scale", "a", "b", "c", "result_shapes", "micro_offset",
                              "confusion")
_INT = frozenset({int})
_PLAIN_LABELS = frozenset({str, int})
_LIMIT = 10**MAX_DIGITS  # a count read is below it (count_from_json)


def quick_state(data: object, known: Known | None = None) -> State | None:
    """:func:`read_state`'s checks, made in bulk on a document of plain values; ``None`` at
    the first doubt (a problem, or a value of another type: a numpy integer, a float label).

    The same checks, in another order: the state it returns is the one
    :func:`read_state` returns, and a document it does not take is read by
    the reader that names the problem.
    """
    if type(data) is not dict or len(data) != len(_KEYS):
        return None
    try:  # (twelve keys, each of the twelve: exactly the keys)
        (form, values, declared, unknown, zero_division, scale, a, b, c, rows, offset,
         confusion) = _FIELDS(data)
    except KeyError:
        return None
    if (type(form) is not str or form != FORMAT or type(unknown) is not str
            or unknown not in UNKNOWN_POLICIES or type(declared) is not int
            or type(scale) is not int or not 0 <= scale <= MAX_SCALE):
        return None
    if type(zero_division) is str:
        if zero_division not in ("perl", "nan"):
            return None
    elif type(zero_division) is not float or zero_division not in (0.0, 1.0):
        return None
    if type(values) is not list or not _PLAIN_LABELS.issuperset(map(type, values)):
        return None
    key = tuple(values)
    entry = None if known is None else known.get(key)
    if entry is None:
        try:
            labels = labels_from_json(values, "categories")
        except ValueError:  # (a repeated label, an integer label of too many digits)
            return None
        entry = labels, {label: position for position, label in enumerate(labels)}
        if known is not None:
            known[key] = entry
    labels, positions = entry
    k = len(labels)
    if (not 0 <= declared <= k or type(a) is not list or type(b) is not list
            or type(c) is not list or len(a) != k or len(b) != k or len(c) != k):
        return None
    cells = a + b + c
    if cells and (not _INT.issuperset(map(type, cells)) or min(cells) < 0
                  or max(cells) >= _LIMIT):
        return None
    # The result shapes, and what they give: the cells of each kind, and for each set of
    # kinds, how many results give a category a cell of one of them (its room).
    if type(rows) is not list:
        return None
    shapes: dict[Shape, int] = {}
    pooled_a = pooled_b = pooled_c = 0
    given = [0] * 8  # results by the kinds of cell they give a category (a mask: a 1, b 2, c 4)
    for row in rows:
        if type(row) is not list or len(row) != 4 or not _INT.issuperset(map(type, row)):
            return None
        both, assigned, correct, count = row
        if not (0 <= both <= assigned and both <= correct and assigned + correct - both <= k
                and 0 < count < _LIMIT):
            return None
        shape = (both, assigned, correct)
        if shape in shapes:
            return None
        shapes[shape] = count
        given[(both > 0) | (assigned > both) << 1 | (correct > both) << 2] += count
        pooled_a += both * count
        pooled_b += (assigned - both) * count
        pooled_c += (correct - both) * count
    if sum(a) != pooled_a or sum(b) != pooled_b or sum(c) != pooled_c:
        return None
    # A category's room for cells of a set of kinds: the results that give one of them.
    n = sum(given)
    some = n - given[0]  # the room for any cell
    room_a = given[1] + given[3] + given[5] + given[7]
    room_b = given[2] + given[3] + given[6] + given[7]
    room_c = given[4] + given[5] + given[6] + given[7]
    room_ab, room_ac, room_bc = some - given[4], some - given[2], some - given[1]
    for x, y, z in zip(a, b, c):
        if (x > room_a or y > room_b or z > room_c or x + y > room_ab or x + z > room_ac
                or y + z > room_bc or x + y + z > some):
            return None
    for x, y, z in zip(a[declared:], b[declared:], c[declared:]):
        if not (x or y or z):  # not declared, and no result names it
            return None
    if type(offset) is not list or len(offset) != 4 or not _INT.issuperset(map(type, offset)):
        return None
    micro = [pooled_a + offset[0], pooled_b + offset[1], pooled_c + offset[2],
             k * n - pooled_a - pooled_b - pooled_c + offset[3]]
    if min(micro) < 0 or (n > MAX_COUNT and whole(n, scale) > MAX_COUNT):
        return None
    if offset[0] or offset[1] or offset[2] or offset[3]:
        for extra in offset:
            if not (-_LIMIT < extra < _LIMIT and whole(extra, scale) <= MAX_COUNT):
                return None
    # The single-label results, each also in the cells and the shapes.
    if type(confusion) is not list:
        return None
    pairs: dict[int, int] = {}
    right = wrong = 0
    assigned_wrongly = [0] * k  # cells b and c the wrong ones give each category
    missed = [0] * k
    for row in confusion:
        if type(row) is not list or len(row) != 3 or not _INT.issuperset(map(type, row)):
            return None
        truth, chosen, count = row
        if not (0 <= truth < k and 0 <= chosen < k and 0 < count < _LIMIT):
            return None
        pair = truth << PAIR_SHIFT | chosen
        if pair in pairs:
            return None
        pairs[pair] = count
        if truth == chosen:
            if a[truth] < count:
                return None
            right += count
        else:
            wrong += count
            assigned_wrongly[chosen] += count
            missed[truth] += count
    if right != shapes.get(HIT, 0) or wrong != shapes.get(MISS, 0):
        return None
    if wrong and (any(map(operator.lt, b, assigned_wrongly)) or any(map(operator.lt, c, missed))):
        return None
    return State(labels, positions, declared, cast(Unknown, unknown), zero_division, scale,
                 [a, b, c], shapes, pairs, list(offset), n, micro)


def _read_each(data: Mapping[str, Any]) -> State:
    """:func:`read_state`'s checks one value at a time, in the document's order: the first
    problem is the one named."""
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
    positions = {label: position for position, label in enumerate(labels)}
    return State(labels, positions, declared, unknown, zero_division, scale, columns, shapes,
                 {positions[truth] << PAIR_SHIFT | positions[chosen]: count
                  for (truth, chosen), count in pairs.items()}, offset, n, micro)


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
