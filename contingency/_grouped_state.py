"""GroupedContingency's state document: the format ``to_dict`` writes, and the checks ``from_dict`` makes.

Format ``"contingency.GroupedContingency/1"``: the settings, the groups in
order (a tuple group as a list) and each group's
:meth:`Contingency.to_dict <contingency.Contingency.to_dict>`. The overall
accumulator is not stored: it is the sum of the groups, which
:func:`read_state` returns as the changes ``Counts.apply`` takes, so that
``from_dict`` is a merge of the groups into an empty accumulator.

Each group's document is written and read by :mod:`contingency._contingency_state`
(the same documents and checks as ``Contingency.to_dict``/``from_dict``), many at once:
the layout of a list of categories is made once for the groups that share it, a
``categories`` list is read once for the documents that repeat it, and the sum of
the groups is added up from the checked documents, per column.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

from contingency._changes import Changes, Pairs, Shape, Unknown
from contingency._contingency import Contingency
from contingency._contingency_state import Known, check_unknown, held_counts, write_states
from contingency._contingency_state import State as GroupState
from contingency._contingency_state import read_state as read_group_state
from contingency._group_keys import group_from_json, group_key, group_to_json
from contingency._labels import label_to_json
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
from contingency._table import PAIR_LOW, PAIR_SHIFT
from contingency.formulas._numeric import ZeroDivision, check_zero_division

__all__ = ["FORMAT", "State", "read_state", "write_state"]

FORMAT = "contingency.GroupedContingency/1"
_KEYS = {"format", "categories", "declared", "unknown", "zero_division", "groups",
         "declared_groups", "states"}


class State(NamedTuple):
    """A checked document: the settings, each group's accumulator, and their sum."""

    categories: list[Hashable]  # the overall's, in its table order, the first `declared` declared
    declared: int
    unknown: Unknown
    zero_division: ZeroDivision
    groups: dict[Hashable, Contingency]  # in group order, the first `declared_groups` declared
    declared_groups: int
    total: Changes  # the sum of the groups' counts, in units of 2**-unit
    unit: int


def write_state(categories: Mapping[Hashable, object], declared: int, unknown: Unknown,
                zero_division: ZeroDivision, groups: Mapping[Hashable, Contingency],
                declared_groups: int) -> dict[str, Any]:
    """The document of these settings and groups (``categories`` in the overall's table order)."""
    return {
        "format": FORMAT,
        "categories": [label_to_json(label, "category") for label in categories],
        "declared": declared,
        "unknown": unknown,
        "zero_division": zero_division,
        "groups": [key if type(key) is str or type(key) is int else group_to_json(key)
                   for key in groups],  # (a str or an int is written as it is)
        "declared_groups": declared_groups,
        "states": write_states((accumulator._counts, accumulator.unknown,
                                accumulator.zero_division) for accumulator in groups.values()),
    }


def read_state(data: Mapping[str, Any]) -> State:
    """Check a whole document, naming the first problem (``ValueError`` starting ``from_dict:``)."""
    data = check_state(data, _KEYS, FORMAT)
    unknown = check_unknown(data["unknown"], "from_dict: unknown")
    zero_division = check_zero_division(data["zero_division"], name="from_dict: zero_division")
    categories = labels_from_json(data["categories"], "categories")
    declared = count_from_json(data["declared"], "declared")
    if declared > len(categories):
        raise state_error(f"declared is {declared} but there are only {len(categories)} "
                          "categories")
    if not isinstance(data["groups"], list):
        raise state_error("groups must be a list")
    keys = [value if type(value) is str else _group_key(value, f"from_dict: groups[{i}]")
            for i, value in enumerate(data["groups"])]  # (a str is a group key as it is)
    if len(set(keys)) != len(keys):
        raise state_error("groups names a group twice")
    declared_groups = count_from_json(data["declared_groups"], "declared_groups")
    if declared_groups > len(keys):
        raise state_error(f"declared_groups is {declared_groups} but there are only "
                          f"{len(keys)} groups")
    states = data["states"]
    if not isinstance(states, list) or len(states) != len(keys):
        raise state_error(f"states must be a list of {len(keys)} Contingency states, one per group")
    settings = (unknown, zero_division, categories[:declared])
    known: Known = {}  # the categories lists read so far: groups often share theirs
    read = [_group_state(position, key, state, settings, known,
                         declared=position < declared_groups)
            for position, (key, state) in enumerate(zip(keys, states))]
    named: set[Hashable] = set()
    for labels in {id(state.labels): state.labels for state in read}.values():
        named.update(labels)
    for label in categories[declared:]:
        if label not in named:
            raise state_error(f"category {label!r} is named by no group")
    missing = named - set(categories)
    if missing:
        raise state_error(f"the groups name categories missing from categories: "
                          f"{sorted(map(repr, missing))}")
    total, unit = _sum(read)
    shared = frozenset(settings[2])  # every group's declared categories: the document's
    groups = {key: Contingency._holding(held_counts(state, shared), unknown, zero_division)
              for key, state in zip(keys, read)}
    return State(categories, declared, unknown, zero_division, groups, declared_groups, total,
                 unit)


def _group_key(value: object, where: str) -> Hashable:
    """The group key ``value`` (from ``groups``) names."""
    return group_key(group_from_json(value, where), where)


def _group_state(position: int, key: Hashable, state: Any, settings: tuple[object, ...],
                 known: Known, *, declared: bool) -> GroupState:
    """One group's document, checked as ``Contingency.from_dict`` checks it and against the
    document's settings."""
    try:
        checked = read_group_state(state, known)
    except (ValueError, TypeError) as problem:
        message = str(problem).removeprefix("from_dict: ")
        raise type(problem)(f"from_dict: states[{position}] (group {key!r}): "
                            f"{message}") from None
    if (checked.unknown, checked.zero_division, checked.labels[:checked.declared]) != settings:
        raise state_error(f"states[{position}] (group {key!r}) has other settings than "
                          "the document (unknown, zero_division, declared categories)")
    if any(checked.offset):
        raise state_error(f"states[{position}] (group {key!r}) has a micro_offset; no "
                          "call of GroupedContingency sets entries")
    if not declared and not checked.n:
        raise state_error(f"group {key!r} was not declared and holds no result (such a "
                          "group is forgotten, never stored)")
    return checked


def _sum(states: list[GroupState]) -> tuple[Changes, int]:
    """The groups' counts added up, in units of ``2**-unit`` (the finest of theirs), and ``unit``.

    Cells and single-label results are added up per list of categories (the
    groups that share one share its positions), then named.
    """
    unit = max([0, *(state.scale for state in states)])
    shared: dict[int, tuple[list[Hashable], list[list[list[int]]], dict[int, int]]] = {}
    shapes: dict[Shape, int] = {}
    for state in states:
        part = shared.get(id(state.labels))
        if part is None:
            part = shared[id(state.labels)] = (state.labels, [[], [], []], {})
        _, columns, pairs = part
        shift = unit - state.scale
        for column, counts in zip(columns, state.columns):
            column.append(counts if not shift else [count << shift for count in counts])
        for shape, count in state.shapes.items():
            shapes[shape] = shapes.get(shape, 0) + (count << shift)
        for code, count in state.pairs.items():
            pairs[code] = pairs.get(code, 0) + (count << shift)
    a: dict[Hashable, int] = {}
    b: dict[Hashable, int] = {}
    c: dict[Hashable, int] = {}
    named_pairs: Pairs = {}
    for labels, columns, pairs in shared.values():
        for total, column in zip((a, b, c), columns):
            for label, count in zip(labels, map(sum, zip(*column))):
                if count:
                    total[label] = total.get(label, 0) + count
        for code, count in pairs.items():
            pair = (labels[code >> PAIR_SHIFT], labels[code & PAIR_LOW])
            named_pairs[pair] = named_pairs.get(pair, 0) + count
    return (a, b, c, shapes, named_pairs), unit
