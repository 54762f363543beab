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

The reader is one, and fast on its own: each check is made once, in bulk (a
type test over a whole list, ``min``/``max``, one pass over the rows) on
documents of plain JSON values, and where it fails the same step looks value
by value to name the problem (which key, which category, which index) or to
take a value of another type (a numpy integer, a float label).
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple, NoReturn

from contingency._category_sums import KINDS, kind_sums
from contingency._changes import HIT, MISS, Pairs, Shape, Unknown
from contingency._counts import Counts, restored, whole
from contingency._labels import category_order, label_to_json
from contingency._state_json import (
    check_state,
    count_from_json,
    counts_from_json,
    labels_from_json,
    plain_counts,
    state_error,
)
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
           "read_state", "write_state", "write_states"]

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


#: Labels known to be a checked ``categories`` list (:func:`read_state`'s ``known``): the
#: list's values as a tuple -> the labels and their positions.
Known = dict[tuple[Hashable, ...], tuple[list[Hashable], dict[Hashable, int]]]

_FIELDS = operator.itemgetter("format", "categories", "declared", "unknown", "zero_division",
                              "scale", "a", "b", "c", "result_shapes", "micro_offset",
                              "confusion")
_EARLIER = {_FORMAT_1: "it has no confusion matrix of the single-label results, which the "
                       "counts alone do not give back; count the results again"}
_INT = frozenset({int})
_NO_OFFSET = [0, 0, 0, 0]
_PLAIN_LABELS = frozenset({str, int})
_LIMIT = 10**MAX_DIGITS  # a count read is below it (count_from_json)
#: The sets of cell kinds (:data:`~contingency._category_sums.KINDS`, in that order) by name.
_KIND_NAMES = [[name for bit, name in enumerate("abc") if kinds >> bit & 1] for kinds in KINDS]


def read_state(data: object, known: Known | None = None) -> State:
    """Check a ``to_dict`` document, refusing any state no calls could make (``from_dict: ...``).

    One reader, fast on documents of plain JSON values (a ``dict``, ``int``
    counts, ``str`` and ``int`` categories): each step checks its values in
    bulk (a type test over a whole list, its ``min`` and ``max``, one pass
    over the rows), and only where that check fails does the same step look
    value by value, to take a value of another type (a numpy integer, a float
    label) or to name the problem (which key, which category, which index).
    The steps come in one order, so a document with several problems is
    refused for the first: the keys and format, ``scale``, ``unknown``,
    ``zero_division``, ``categories``, ``declared``, the cells ``a``, ``b``,
    ``c``, ``result_shapes``, ``micro_offset``, each category's cells against
    the results that can give them, the cells' sums, the micro table, the
    count limit, ``confusion``. Nothing is made before the whole document is
    checked.

    ``known`` (any dict, kept by the caller between documents) keeps the
    ``categories`` lists already read, for documents read one after another.
    """
    fail = state_error
    try:  # (twelve keys, each of the twelve: exactly the keys)
        fields = _FIELDS(data) if type(data) is dict and len(data) == 12 else None
    except KeyError:
        fields = None
    if fields is None or type(fields[0]) is not str or fields[0] != FORMAT:
        fields = _FIELDS(check_state(data, _KEYS, FORMAT, earlier=_EARLIER))
    _, values, declared, unknown, zero_division, scale, a, b, c, rows, offset, confusion = fields

    # The settings.
    if type(scale) is not int or not 0 <= scale < _LIMIT:  # (count_from_json's commonest case)
        scale = count_from_json(scale, "scale")
    if scale > MAX_SCALE:
        raise fail(f"scale is {scale}; counts are kept in units down to 2**-{MAX_SCALE}")
    if type(unknown) is not str or unknown not in UNKNOWN_POLICIES:
        unknown = check_unknown(unknown, "from_dict: unknown")
    if not ((type(zero_division) is str and zero_division in ("perl", "nan"))
            or (type(zero_division) is float and zero_division in (0.0, 1.0))):
        zero_division = check_zero_division(zero_division, name="from_dict: zero_division")
    entry = None  # (a categories list read before, of plain labels: True is not 1)
    if known is not None and type(values) is list and _PLAIN_LABELS.issuperset(map(type, values)):
        entry = known.get(tuple(values))
    labels, positions = _categories(values, known) if entry is None else entry
    k = len(labels)
    if type(declared) is not int or not 0 <= declared < _LIMIT:
        declared = count_from_json(declared, "declared")
    if declared > k:
        raise fail(f"declared is {declared} but there are only {k} categories")

    # The cells, one per category in each column.
    cells = a + b + c if type(a) is list and type(b) is list and type(c) is list else None
    if cells is None or len(cells) != 3 * k or len(a) != k or len(b) != k or not plain_counts(cells):
        a, b, c = _columns((a, b, c), k)
        cells = a + b + c

    # The result shapes, and what they give: the cells of each kind (pooled), and the results
    # by the kinds of cell they give a category (kinds_of: a 1, b 2, c 4).
    if not isinstance(rows, list):
        raise fail("result_shapes must be a list of [both, assigned, correct, count]")
    shapes: dict[Shape, int] = {}
    pooled_a = pooled_b = pooled_c = 0
    given = [0] * 8
    for row in rows:  # (each row before this one added a shape: its index is len(shapes))
        if type(row) is list and len(row) == 4 and _INT.issuperset(map(type, row)):
            both, assigned, correct, count = row
        else:
            both, assigned, correct, count = _row(row, 4, f"result_shapes[{len(shapes)}]",
                                                  "[both, assigned, correct, count]")
        # Four counts, of a result naming at most k categories, 'both' of them on both
        # sides, counted at least once.
        if not (0 <= both <= assigned and both <= correct and assigned + correct - both <= k
                and 0 < count < _LIMIT):
            raise _shape_refusal(row, f"result_shapes[{len(shapes)}]", k)
        shape = (both, assigned, correct)
        if shape in shapes:
            raise fail(f"result_shapes[{len(shapes)}] repeats the shape {shape}")
        shapes[shape] = count
        given[(both > 0) | (assigned > both) << 1 | (correct > both) << 2] += count  # kinds_of(shape)
        pooled_a += both * count
        pooled_b += (assigned - both) * count
        pooled_c += (correct - both) * count

    if not (type(offset) is list and len(offset) == 4 and _INT.issuperset(map(type, offset))
            and ((zeros := offset == _NO_OFFSET) or plain_counts(offset, signed=True))):
        offset = _offset(offset)
        zeros = offset == _NO_OFFSET

    # What a category can hold: a result gives it one cell at most, and only of a kind its
    # shape has. For each set of kinds (in the order of KINDS: a, b, a + b, c, a + c, b + c,
    # a + b + c) a category's cells of those kinds are at most the results whose shape gives
    # one of them, its room; and a category no result names was declared.
    n = sum(given)
    some = n - given[0]  # the results that give any cell
    room_a, room_b = given[1] + given[3] + given[5] + given[7], given[2] + given[3] + given[6] + given[7]
    room_c, room_ab = given[4] + given[5] + given[6] + given[7], some - given[4]
    room_ac, room_bc = some - given[2], some - given[1]
    over = False
    for x, y, z in zip(a, b, c):  # kind_sums(x, y, z) against the rooms, unrolled
        if (x > room_a or y > room_b or x + y > room_ab or z > room_c or x + z > room_ac
                or y + z > room_bc or x + y + z > some):
            over = True
            break
    if over or (declared < k and not all(map(any, zip(a[declared:], b[declared:], c[declared:])))):
        _category_refusal(labels, (a, b, c), (room_a, room_b, room_ab, room_c, room_ac, room_bc,
                                              some), n, declared)

    # The cells add up to what the result shapes give, and the micro table is not negative.
    if sum(a) != pooled_a or sum(b) != pooled_b or sum(c) != pooled_c:
        for name, column, expected in zip("abc", (a, b, c), (pooled_a, pooled_b, pooled_c)):
            if sum(column) != expected:
                raise fail(f"the {name} cells add up to {sum(column)} but the result shapes "
                           f"say {expected}")
    micro = [pooled_a + offset[0], pooled_b + offset[1], pooled_c + offset[2],
             k * n - pooled_a - pooled_b - pooled_c + offset[3]]
    if min(micro) < 0:
        raise fail(f"micro_offset {offset} makes the micro table negative")
    # The limit of every other path (whole(count, scale) <= count: only a count past the
    # limit can pass it), with its message.
    if n > MAX_COUNT or (not zeros and max(offset) > MAX_COUNT):
        try:
            check_room(0, whole(n, scale), "results")
            for name, extra in zip("abcd", offset):
                check_room(0, whole(extra, scale), f"set by set_entries in micro-table cell {name}")
        except ValueError as error:
            raise fail(str(error)) from None

    pairs = _pairs(confusion, labels, cells, shapes)
    return State(labels, positions, declared, unknown, zero_division, scale, [a, b, c], shapes,
                 pairs, list(offset), n, micro)


def _categories(values: object, known: Known | None) -> tuple[list[Hashable], dict[Hashable, int]]:
    """The labels of ``categories`` and their positions, kept in ``known`` (for a list of plain
    labels: among ``str`` and ``int``, equal values are one label)."""
    labels = labels_from_json(values, "categories")
    entry = labels, {label: position for position, label in enumerate(labels)}
    if known is not None and type(values) is list and _PLAIN_LABELS.issuperset(map(type, values)):
        known[tuple(values)] = entry
    return entry


def _columns(columns: tuple[object, ...], k: int) -> list[list[int]]:
    """The cells ``a``, ``b``, ``c`` as lists of ``k`` counts, or the refusal of the first
    column that is not."""
    read = []
    for name, column in zip("abc", columns):
        if not isinstance(column, list) or len(column) != k:
            raise state_error(f"{name} must be a list of {k} counts, one per category")
        read.append(counts_from_json(column, name))
    return read


def _row(row: object, size: int, where: str, form: str) -> list[int]:
    """A row of ``size`` counts (``where`` names it), or the refusal naming the first problem."""
    if not isinstance(row, list) or len(row) != size:
        raise state_error(f"{where} must be {form}")
    return [count_from_json(value, where) for value in row]


def _shape_refusal(row: list[Any], where: str, k: int) -> ValueError:
    """The refusal of a row of ``result_shapes`` that is not four counts of a possible shape:
    a value that is no count is named first."""
    *_, count = (count_from_json(value, where) for value in row)  # (each checked, in order)
    if not count:
        return state_error(f"{where} has a count of 0")
    return state_error(f"{where} = {row} is not a possible result shape with {k} categories (a "
                       f"result names at most {k}, and 'both' of them on both sides)")


def _offset(offset: object) -> list[int]:
    """``micro_offset`` as four integers, or the refusal naming the first problem."""
    if not isinstance(offset, list) or len(offset) != 4:
        raise state_error("micro_offset must be a list of 4 integers")
    return counts_from_json(offset, "micro_offset", signed=True)


def _category_refusal(labels: list[Hashable], columns: tuple[list[int], ...],
                      rooms: tuple[int, ...], n: int, declared: int) -> NoReturn:
    """Refuse the first category, in order, that holds more cells than its results can give it
    or that was not declared and no result names."""
    for position, (label, *cells) in enumerate(zip(labels, *columns)):
        total = sum(cells)
        if total > n:
            raise state_error(f"category {label!r} has a + b + c = {total} but there are only "
                              f"{n} results")
        for names, held, room in zip(_KIND_NAMES, kind_sums(*cells), rooms):
            if held > room:
                raise state_error(f"category {label!r} has {' + '.join(names)} = {held} but only "
                                  f"{room} results have a cell {' or '.join(names)} to give it "
                                  "(a result gives a category one cell at most)")
        if total == 0 and position >= declared:
            raise state_error(f"category {label!r} was not declared and no result names it "
                              "(such a category is forgotten, never stored)")
    raise AssertionError("no category to refuse")  # (the caller found one)


def _pairs(rows: object, labels: list[Hashable], cells: list[int],
           shapes: dict[Shape, int]) -> dict[int, int]:
    """The single-label results of ``confusion`` by code (``correct << PAIR_SHIFT |
    assigned``), checked against the result shapes and the cells (``a + b + c``, each column
    in the categories' order) they are part of."""
    fail = state_error
    if not isinstance(rows, list):
        raise fail("confusion must be a list of [correct, assigned, count] (category "
                   "positions and a count)")
    k = len(labels)
    pairs: dict[int, int] = {}
    right = wrong = 0
    need_a, need_b, need_c = [0] * k, [0] * k, [0] * k  # the cells they give each category
    for row in rows:  # (each row before this one added a pair: its index is len(pairs))
        if type(row) is list and len(row) == 3 and _INT.issuperset(map(type, row)):
            truth, chosen, count = row
        else:
            truth, chosen, count = _row(row, 3, f"confusion[{len(pairs)}]",
                                        "[correct, assigned, count]")
        # Three counts: two category positions and a count of at least one.
        if not (0 <= truth < k and 0 <= chosen < k and 0 < count < _LIMIT):
            where = f"confusion[{len(pairs)}]"
            for value in row:  # a value that is no count is named first
                count_from_json(value, where)
            raise fail(f"{where} = {row} names no category of {k} or counts nothing")
        pair = truth << PAIR_SHIFT | chosen
        if pair in pairs:
            raise fail(f"confusion[{len(pairs)}] repeats the pair {[truth, chosen]}")
        pairs[pair] = count
        if truth == chosen:  # (pair_changes: a right result is an a, a wrong one a b and a c)
            right += count
            need_a[truth] = count
        else:
            wrong += count
            need_b[chosen] += count
            need_c[truth] += count
    hits, misses = shapes.get(HIT, 0), shapes.get(MISS, 0)
    if right != hits or wrong != misses:
        raise fail(f"confusion holds {right} right and {wrong} wrong single-label results but "
                   f"the result shapes say {hits} and {misses}")
    # Each category's cells are at least what its single-label results give it.
    need = need_a + need_b + need_c  # (laid out as cells)
    if pairs and any(map(operator.lt, cells, need)):
        at = next(at for at, (have, least) in enumerate(zip(cells, need)) if have < least)
        raise fail(f"category {labels[at % k]!r} has {'abc'[at // k]} = {cells[at]} but its "
                   f"single-label results in confusion alone give {need[at]}")
    return pairs
