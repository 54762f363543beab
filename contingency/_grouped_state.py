"""GroupedContingency's state document: the format ``to_dict`` writes, and the checks ``from_dict`` makes.

Format ``"contingency.GroupedContingency/1"``: the settings, the groups in
order (a tuple group as a list) and each group's
:meth:`Contingency.to_dict <contingency.Contingency.to_dict>`. The overall
accumulator is not stored: it is the sum of the groups, which
:func:`read_state` returns as the changes ``Counts.apply`` takes, so that
``from_dict`` is a merge of the groups into an empty accumulator.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

from contingency._changes import Changes, Unknown, sum_changes, times
from contingency._contingency import Contingency
from contingency._contingency_state import check_unknown
from contingency._group_keys import group_from_json, group_key, group_to_json
from contingency._labels import label_to_json
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
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
        "groups": [group_to_json(key) for key in groups],
        "declared_groups": declared_groups,
        "states": [accumulator.to_dict() for accumulator in groups.values()],
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
    keys = [group_key(group_from_json(value, f"from_dict: groups[{i}]"),
                      f"from_dict: groups[{i}]") for i, value in enumerate(data["groups"])]
    if len(set(keys)) != len(keys):
        raise state_error("groups names a group twice")
    declared_groups = count_from_json(data["declared_groups"], "declared_groups")
    if declared_groups > len(keys):
        raise state_error(f"declared_groups is {declared_groups} but there are only "
                          f"{len(keys)} groups")
    states = data["states"]
    if not isinstance(states, list) or len(states) != len(keys):
        raise state_error(f"states must be a list of {len(keys)} Contingency states, one per group")
    groups: dict[Hashable, Contingency] = {}
    for position, (key, state) in enumerate(zip(keys, states)):
        groups[key] = _group_state(position, key, state, (unknown, zero_division,
                                                          categories[:declared]),
                                   declared=position < declared_groups)
    named = {label for accumulator in groups.values() for label in accumulator._counts.a}
    for label in categories[declared:]:
        if label not in named:
            raise state_error(f"category {label!r} is named by no group")
    missing = named - set(categories)
    if missing:
        raise state_error(f"the groups name categories missing from categories: "
                          f"{sorted(map(repr, missing))}")
    total, unit = _sum(groups.values())
    return State(categories, declared, unknown, zero_division, groups, declared_groups, total,
                 unit)


def _group_state(position: int, key: Hashable, state: Any, settings: tuple[object, ...], *,
                 declared: bool) -> Contingency:
    """One group's accumulator, read by ``Contingency.from_dict`` and checked against the document."""
    try:
        accumulator = Contingency.from_dict(state)
    except (ValueError, TypeError) as problem:
        message = str(problem).removeprefix("from_dict: ")
        raise type(problem)(f"from_dict: states[{position}] (group {key!r}): "
                            f"{message}") from None
    if (accumulator.unknown, accumulator.zero_division, accumulator._declared_order()) != settings:
        raise state_error(f"states[{position}] (group {key!r}) has other settings than "
                          "the document (unknown, zero_division, declared categories)")
    if any(accumulator._counts.offset):
        raise state_error(f"states[{position}] (group {key!r}) has a micro_offset; no "
                          "call of GroupedContingency sets entries")
    if not declared and not accumulator._counts.n:
        raise state_error(f"group {key!r} was not declared and holds no result (such a "
                          "group is forgotten, never stored)")
    return accumulator


def _sum(groups: Any) -> tuple[Changes, int]:
    """The groups' counts added up, in units of ``2**-unit`` (the finest of theirs), and ``unit``."""
    accumulators = list(groups)
    unit = max([0, *(accumulator._counts.scale for accumulator in accumulators)])
    total: Changes = ({}, {}, {}, {}, {})
    for accumulator in accumulators:
        counts = accumulator._counts
        changes = (dict(counts.a), dict(counts.b), dict(counts.c), dict(counts.shapes),
                   counts.label_pairs())
        total = sum_changes(total, times(changes, 1 << (unit - counts.scale)))
    a, b, c = ({label: count for label, count in cells.items() if count} for cells in total[:3])
    return (a, b, c, total[3], total[4]), unit
