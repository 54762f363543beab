"""A batch of results by group: each row's group code, and each group's changes counted with numpy.

:func:`group_codes` codes a batch's groups (one feature or several) to
``0..G-1``; :func:`triple_changes` counts the batch's (group, correct,
assigned) codes once and turns the distinct ones into the
whole's pairs and each group's coded pairs (:class:`GroupPairs`, sorted by
group, for the groups' one batch write); :func:`order_first_seen` gives each
group's new categories the order in which the rows meet them, as a loop of
single results would (:func:`contingency._coding.meeting_ranks`, the one rule),
and, when equal labels of several types name a category, the object the loop
gives the group: the label of the row and side that meet it first there.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from contingency._changes import PAIR_SHIFT
from contingency._coding import (
    CodedLabels,
    encode,
    first_rows,
    label_at,
    meeting_places,
    meeting_ranks,
)
from contingency._group_keys import group_key
from contingency._inputs import check_same_length, label_sequence
from contingency.formulas._numeric import INT64_SAFE, dense_is_cheaper, distinct_counts

__all__ = ["GroupPairs", "coded_pairs", "group_codes", "label_objects", "order_first_seen",
           "rows_of", "triple_changes"]


def _features(groups: object, where: str) -> tuple[list[Any], list[str]]:
    """The grouping features of a batch and how messages name them.

    A tuple holds several features (one sequence each), a pandas DataFrame
    one per column; anything else is one feature.
    """
    columns = getattr(groups, "columns", None)
    if columns is not None and hasattr(groups, "iloc"):  # a pandas DataFrame
        names = list(columns)
        return [groups[name] for name in names], [f"{where}[{name!r}]" for name in names]  # type: ignore[index]
    if isinstance(groups, tuple):
        if not groups:
            raise ValueError(f"{where} is an empty tuple; a tuple holds one sequence per feature")
        return list(groups), [f"{where}[{i}]" for i in range(len(groups))]
    return [groups], [where]


def group_codes(groups: object, size: int, where: str) -> tuple[NDArray[np.int64], list[Hashable]]:
    """Codes ``0..G-1`` of a batch's groups (one per row) and the ``G`` distinct group keys.

    Several features make tuple keys, coded together (mixed radix, then
    renumbered densely, or sorted when that space is large). Every key is
    checked as a label, naming the feature and the row.
    """
    features, names = _features(groups, where)
    coded = []
    for feature, name in zip(features, names):
        values = label_sequence(feature, name)
        check_same_length(values, range(size), (name, "assigned"))
        codes, distinct = encode(values, name)
        if isinstance(values, np.ndarray) and values.dtype.kind in "iubfUS":
            # A numeric or string array: encode checked each distinct value as a label and gives
            # them as Python values, what group_key would make of them.
            coded.append((codes, distinct))
        else:
            coded.append((codes, _keys(codes, distinct, name)))
    if len(coded) == 1:
        return coded[0]
    radix = math.prod(len(distinct) for _, distinct in coded)
    if radix < INT64_SAFE:
        combined = np.zeros(size, dtype=np.int64)
        for codes, distinct in coded:
            combined *= len(distinct)
            combined += codes
        if dense_is_cheaper(radix, size):
            present = np.bincount(combined, minlength=radix) > 0
            codes = (np.cumsum(present) - 1)[combined]
            found = np.flatnonzero(present)
        else:
            found, codes = np.unique(combined, return_inverse=True)
        digits = []
        for _, distinct in reversed(coded):
            found, digit = np.divmod(found, len(distinct))
            digits.append(digit.tolist())
        keys = list(zip(*(
            [distinct[d] for d in digit] for (_, distinct), digit in zip(coded, reversed(digits)))))
        return codes.astype(np.int64, copy=False).ravel(), keys  # type: ignore[return-value]
    stacked = np.stack([codes for codes, _ in coded], axis=1)
    rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
    keys = [tuple(distinct[d] for (_, distinct), d in zip(coded, row)) for row in rows.tolist()]
    return inverse.astype(np.int64).ravel(), keys  # type: ignore[return-value]


def _keys(codes: NDArray[np.int64], distinct: list[Hashable], name: str) -> list[Hashable]:
    """The group keys of one feature's distinct values (:func:`group_key`'s check, the one every
    path makes), a refused one named by its first row. A ``str`` is a label, and its own key:
    when every value is one (a list of ``str`` keys), they are the keys, with no call per key."""
    if all(type(value) is str for value in distinct):
        return distinct
    keys = []
    for code, value in enumerate(distinct):
        try:
            keys.append(group_key(value, name))
        except (ValueError, TypeError):
            group_key(value, f"{name}[{int(np.flatnonzero(codes == code)[0])}]")
            raise
    return keys


class GroupPairs(NamedTuple):
    """A batch's single-label results by group, coded: row ``i`` says that group ``group[i]``
    (the batch's group code) gets ``total[i]`` results whose correct and assigned categories
    have the codes in ``pair[i]``, ``correct << PAIR_SHIFT | assigned``. Sorted by group; one
    row per distinct (group, correct, assigned), none of total 0."""

    group: NDArray[np.int64]
    pair: NDArray[np.int64]
    total: NDArray[Any]


def triple_changes(combined: NDArray[np.int64], k: int, groups: int, labels: list[Hashable],
                   exact: NDArray[Any] | None,
                   known: Callable[[int], Collection[Hashable]] | None,
                   objects: Callable[[int, int], Hashable] | None = None
                   ) -> tuple[dict[int, int], GroupPairs, dict[int, list[Hashable]]]:
    """The whole's pairs, each group's pairs and the categories new to each group, from one
    code per result, ``(group * k + correct) * k + assigned``.

    ``groups`` codes are below ``groups``, category codes below ``k`` and name
    ``labels``; ``exact`` are the weights, or ``None``. ``known`` gives the
    categories group ``code`` holds already, or is ``None`` when no category
    can be new to a group (every one declared); ``objects``, when some label
    may be of another type than its category's object in ``labels``, gives
    the label a side holds at a row (:func:`order_first_seen`). The whole's pairs are keyed
    ``correct << PAIR_SHIFT | assigned``; the groups' are :class:`GroupPairs`.
    One count of the distinct codes, then numpy over them: no Python loop per
    group, except to find the categories new to each (with ``known``).
    """
    span = k * k
    space = groups * span
    if exact is None and dense_is_cheaper(space, len(combined)):
        counted = np.bincount(combined, minlength=space)
        present = np.flatnonzero(counted)
        counts = counted[present]
    else:
        present, counts = distinct_counts(combined, space, exact)
    group_of, pair = np.divmod(present, span)
    whole = coded_pairs(*distinct_counts(pair, span, counts), k)
    correct, assigned = np.divmod(pair, k)
    coded = GroupPairs(group_of, correct << PAIR_SHIFT | assigned, counts)
    if known is None:
        return whole, coded, {}
    fresh = _fresh_categories(group_of, correct, assigned, k, labels, known)
    if objects is not None or any(len(met) > 1 for met in fresh.values()):
        order_first_seen(fresh, combined, k, labels, exact, objects)
    return whole, coded, fresh


def coded_pairs(pairs: NDArray[np.int64], counts: NDArray[Any], k: int) -> dict[int, int]:
    """``{correct << PAIR_SHIFT | assigned: count}`` from distinct pair codes ``correct * k + assigned``
    and their counts: the pairs as ``Counts.apply`` takes them, coded."""
    correct, assigned = np.divmod(pairs, k)
    return dict(zip((correct << PAIR_SHIFT | assigned).tolist(), counts.tolist()))


def _fresh_categories(group_of: NDArray[np.int64], correct: NDArray[np.int64],
                      assigned: NDArray[np.int64], k: int, labels: list[Hashable],
                      known: Callable[[int], Collection[Hashable]]) -> dict[int, list[Hashable]]:
    """The categories new to each group (in code order, to be ordered by rows when there are
    several): one look-up per distinct (group, category) met, in the group's categories."""
    met = np.unique(np.concatenate([group_of * k + correct, group_of * k + assigned]))
    owner, category = np.divmod(met, k)
    fresh: dict[int, list[Hashable]] = {}
    every = len(labels)
    held: Collection[Hashable] = ()
    last = -1
    for code, position in zip(owner.tolist(), category.tolist()):
        if code != last:
            held, last = known(code), code
        if len(held) == every:
            continue  # the group has every category: none can be new to it
        label = labels[position]
        if label not in held:
            fresh.setdefault(code, []).append(label)
    return fresh


def order_first_seen(fresh: dict[int, list[Hashable]], combined: NDArray[np.int64], k: int,
                      labels: list[Hashable], exact: NDArray[Any] | None,
                      objects: Callable[[int, int], Hashable] | None = None) -> None:
    """Put each group's new categories in the order its rows meet them (in place).

    As in a Contingency's batch (:func:`~contingency._coding.meeting_ranks`):
    row by row, the assigned side before the correct one, rows of weight 0
    after all others. ``combined`` holds each row's ``(group * k + correct) * k +
    assigned``, by the group codes that key ``fresh``. Reads only the rows of
    the groups that meet several new categories; with ``objects`` (``objects(side, row)``
    is the label side 0, assigned, or 1, correct, holds at a row), those of every group that
    meets a new category, each of which then takes the label of the row and side that meet it
    first in the group: the object an add_result loop gives the group when equal labels of
    several types (``1``, ``1.0``) name the category.
    """
    wanted = [code for code, met in fresh.items() if len(met) > 1 or objects is not None]
    groups, pair = np.divmod(combined, k * k)
    rows = np.flatnonzero(np.isin(groups, wanted))
    truth, chosen = np.divmod(pair[rows], k)
    # Each (group, category) the rows name, coded densely, and those in meeting order.
    keys, dense = np.unique(np.concatenate([groups[rows] * k + chosen, groups[rows] * k + truth]),
                            return_inverse=True)
    sides = (dense[:len(rows)], dense[len(rows):])
    live = None if exact is None else exact[rows] != 0
    ranks = meeting_ranks(sides, len(keys), live)
    rank = dict(zip(keys.tolist(), ranks.tolist()))
    index = {label: code for code, label in enumerate(labels)}
    for code in wanted:
        fresh[code].sort(key=lambda label: rank[code * k + index[label]])
    if objects is None:
        return
    where, side = meeting_places(ranks, 2, live)
    place = dict(zip(keys.tolist(), zip(side.tolist(), rows[where].tolist())))
    for code in wanted:
        fresh[code] = [objects(*place[code * k + index[label]]) for label in fresh[code]]


def label_objects(sides: Sequence[CodedLabels | NDArray[Any]], named: Sequence[NDArray[np.int64]],
                  labels: Sequence[Hashable]) -> Callable[[int, int], Hashable] | None:
    """``objects`` for :func:`triple_changes`: the label side ``s`` (0: assigned, 1: correct)
    holds at row ``r`` (:func:`~contingency._coding.label_at`), when some label of the batch is
    of another type than its category's object in ``labels`` (``named``: each side's category
    codes, by row), so that a group may keep another object than the whole's; else ``None``.

    O(categories) when the labels and categories are all of one type (the common case);
    else O(the sides' distinct labels) more, and the Python step per row a group's new
    category then takes (:func:`order_first_seen`) only where a label is of another type.

    >>> label_objects([np.array([1, 2]), np.array([2, 2])], [np.array([0, 1])] * 2, [1, 2]) is None
    True
    >>> both = CodedLabels(np.array([0, 1]), [1, "x"])  # (categories of two types, each its own)
    >>> label_objects([both, both], [np.array([0, 1])] * 2, [1, "x"]) is None
    True
    >>> label_objects([np.array([1, 2]), np.array([2.0, 2.0])], [np.array([0, 1])] * 2,
    ...               [1, 2])(1, 0)
    2.0
    """
    kinds = set(map(type, labels))
    for side in sides:
        if isinstance(side, CodedLabels):
            if side.items is not None:
                return lambda side, row: label_at(sides[side], row)  # (equal labels, 2 types)
            kinds.update(map(type, side.labels))
        elif len(side):
            kinds.add(type(label_at(side, 0)))  # (a numpy array: its labels of one type)
    if len(kinds) < 2 or not any(_retyped(side, codes, labels)
                                 for side, codes in zip(sides, named)):
        return None
    return lambda side, row: label_at(sides[side], row)


def _retyped(side: CodedLabels | NDArray[Any], named: NDArray[np.int64],
             labels: Sequence[Hashable]) -> bool:
    """Whether a label of ``side`` (a :class:`CodedLabels` without items, or a numpy array) is of
    another type than its category's object; ``named`` are its rows' category codes."""
    if not len(side):
        return False
    if isinstance(side, CodedLabels):
        distinct: Sequence[Hashable] = side.labels
        categories = named[first_rows(side.codes, np.ones(len(distinct), dtype=bool))]
    else:
        kind = type(label_at(side, 0))  # (the type of every label of a numpy array)
        categories = (np.flatnonzero(np.bincount(named, minlength=len(labels)))
                      if dense_is_cheaper(len(labels), len(named)) else np.unique(named))
        return any(type(labels[code]) is not kind for code in categories.tolist())
    return any(map(operator.is_not, map(type, distinct),
                   map(type, map(labels.__getitem__, categories.tolist()))))


def rows_of(values: Any, rows: NDArray[np.int64]) -> Any:
    """The items of ``values`` at ``rows`` (a numpy array indexed, a sequence listed)."""
    if isinstance(values, np.ndarray):
        return values[rows]
    return [values[row] for row in rows.tolist()]
