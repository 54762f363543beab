"""A batch of results by group: each row's group code, and each group's changes counted with numpy.

:func:`group_codes` codes a batch's groups (one feature or several) to
``0..G-1``; :func:`triple_changes` counts the batch's (group, correct,
assigned) codes once and turns the distinct ones into the
whole's pairs and each group's changes (by numpy, :func:`coded_group_changes`,
when every category is declared); :func:`first_rows` and
:func:`order_first_seen` give new groups and new categories the order in which
the rows meet them, as a loop of single results would.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from contingency._changes import HIT, MISS, PAIR_SHIFT, Changes, pair_changes
from contingency._coding import encode
from contingency._group_keys import group_key
from contingency._inputs import check_same_length, label_sequence
from contingency.formulas._numeric import INT64_SAFE, dense_is_cheaper, distinct_counts

__all__ = ["coded_group_changes", "coded_pairs", "first_rows", "group_codes", "order_first_seen", "rows_of",
           "triple_changes"]


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
    path makes), a refused one named by its first row."""
    keys = []
    for code, value in enumerate(distinct):
        try:
            keys.append(group_key(value, name))
        except (ValueError, TypeError):
            group_key(value, f"{name}[{int(np.flatnonzero(codes == code)[0])}]")
            raise
    return keys


def first_rows(codes: NDArray[np.int64], wanted: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The first row of each code ``c`` with ``wanted[c]`` (-1 for one that no row holds).

    Looks at a prefix of the rows, doubling it until every wanted code is
    found: the groups of a batch usually all appear long before its end, so
    this costs far less than the batch.
    """
    first = np.full(len(wanted), -1, dtype=np.int64)
    remaining = int(wanted.sum())
    start, step = 0, 1024
    while remaining and start < len(codes):
        distinct, at = np.unique(codes[start:start + step], return_index=True)
        found = wanted[distinct] & (first[distinct] < 0)
        first[distinct[found]] = at[found] + start
        remaining -= int(found.sum())
        start += step
        step *= 2
    return first


def triple_changes(combined: NDArray[np.int64], k: int, groups: int, labels: list[Hashable],
                   exact: NDArray[Any] | None,
                   known: Callable[[int], Collection[Hashable]] | None
                   ) -> tuple[dict[int, int], dict[int, tuple[Changes, bool]],
                              dict[int, list[Hashable]]]:
    """The whole's pairs, each group's changes and the categories new to each group, from one
    code per result, ``(group * k + correct) * k + assigned``.

    ``groups`` codes are below ``groups``, category codes below ``k`` and name
    ``labels``; ``exact`` are the weights, or ``None``. ``known`` gives the
    categories group ``code`` holds already, or is ``None`` when every group
    codes every category as the whole does (all of them declared): the
    groups' changes are then built by numpy (:func:`coded_group_changes`).
    The whole's pairs are keyed ``correct << PAIR_SHIFT | assigned``. One
    count of the distinct codes; then O(distinct codes).
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
    if known is None:
        return whole, coded_group_changes(group_of, pair, counts, k, labels), {}
    changes, fresh = _label_group_changes(group_of, pair, counts, k, labels, known)
    if any(len(met) > 1 for met in fresh.values()):
        order_first_seen(fresh, combined, k, labels, exact)
    return whole, changes, fresh


def coded_pairs(pairs: NDArray[np.int64], counts: NDArray[Any], k: int) -> dict[int, int]:
    """``{correct << PAIR_SHIFT | assigned: count}`` from distinct pair codes ``correct * k + assigned``
    and their counts: the pairs as ``Counts.apply`` takes them, coded."""
    correct, assigned = np.divmod(pairs, k)
    return dict(zip((correct << PAIR_SHIFT | assigned).tolist(), counts.tolist()))


def _label_group_changes(group_of: NDArray[np.int64], pair: NDArray[np.int64],
                         counts: NDArray[Any], k: int, labels: list[Hashable],
                         known: Callable[[int], Collection[Hashable]]
                         ) -> tuple[dict[int, tuple[Changes, bool]], dict[int, list[Hashable]]]:
    """Each group's changes with pairs by category, and the categories new to each group
    (in the order met, to be ordered by rows when there are several)."""
    per_group: dict[int, dict[tuple[Hashable, Hashable], int]] = {}
    correct_codes, assigned_codes = np.divmod(pair, k)
    for code, correct, assigned, count in zip(group_of.tolist(), correct_codes.tolist(),
                                              assigned_codes.tolist(), counts.tolist()):
        pairs = per_group.get(code)
        if pairs is None:
            pairs = per_group[code] = {}
        pairs[labels[correct], labels[assigned]] = count
    fresh: dict[int, list[Hashable]] = {}
    every = len(labels)
    for code, pairs in per_group.items():
        held = known(code)
        if len(held) == every:
            continue  # the group has every category: none can be new to it
        met = [label for pair in pairs for label in pair if label not in held]
        if met:
            fresh[code] = list(dict.fromkeys(met))
    return {code: (pair_changes(pairs), False) for code, pairs in per_group.items()}, fresh


def coded_group_changes(group_of: NDArray[np.int64], pair: NDArray[np.int64],
                         counts: NDArray[Any], k: int, labels: list[Hashable]
                         ) -> dict[int, tuple[Changes, bool]]:
    """Each group's changes from its distinct (correct, assigned) pairs, built with numpy.

    For groups that code every category as the overall accumulator does (all
    of them declared): the pairs come back keyed by pair code, and every
    dictionary is made in C from slices, so a group costs a few calls and its
    pairs no Python loop here. ``group_of`` is sorted (the pairs come group by group).
    """
    if not len(group_of):
        return {}
    correct, assigned = np.divmod(pair, k)
    hit = correct == assigned
    named = np.empty(len(labels), dtype=object)
    named[:] = labels
    size = (int(group_of[-1]) + 1) * k

    def cells(category: NDArray[np.int64], where: NDArray[np.bool_]
              ) -> dict[int, dict[Hashable, int]]:
        keys, totals = distinct_counts(group_of[where] * k + category[where], size, counts[where])
        owner, position = np.divmod(keys, k)
        return _runs(owner, named[position].tolist(), totals.tolist())

    a, b, c = cells(correct, hit), cells(assigned, ~hit), cells(correct, ~hit)
    right = dict(zip(*(values.tolist() for values in distinct_counts(
        group_of[hit], size, counts[hit]))))
    wrong = dict(zip(*(values.tolist() for values in distinct_counts(
        group_of[~hit], size, counts[~hit]))))
    pairs = _runs(group_of, (correct << PAIR_SHIFT | assigned).tolist(), counts.tolist())
    changes: dict[int, tuple[Changes, bool]] = {}
    for code, coded in pairs.items():
        shapes = {shape: count for shape, count in ((HIT, right.get(code, 0)),
                                                    (MISS, wrong.get(code, 0))) if count}
        changes[code] = ((a.get(code, {}), b.get(code, {}), c.get(code, {}), shapes, coded), True)
    return changes


def _runs(owner: NDArray[np.int64], keys: list[Any], values: list[Any]
          ) -> dict[int, dict[Any, Any]]:
    """``{owner: {key: value}}`` from parallel sequences sorted by owner (one dict per run, made in C)."""
    if not len(owner):
        return {}
    cuts = (np.flatnonzero(np.diff(owner)) + 1).tolist()
    starts, stops = [0, *cuts], [*cuts, len(owner)]
    return {code: dict(zip(keys[start:stop], values[start:stop]))
            for code, start, stop in zip(owner[starts].tolist(), starts, stops)}


def order_first_seen(fresh: dict[int, list[Hashable]], combined: NDArray[np.int64], k: int,
                      labels: list[Hashable], exact: NDArray[Any] | None) -> None:
    """Put each group's new categories in the order its rows meet them (in place).

    As in a Contingency's batch: row by row, the assigned side before the
    correct one, rows of weight 0 after all others. ``combined`` holds each
    row's ``(group * k + correct) * k + assigned``, by the group codes that key
    ``fresh``. Reads only the rows of the groups that meet several new categories.
    """
    wanted = [code for code, met in fresh.items() if len(met) > 1]
    groups, pair = np.divmod(combined, k * k)
    rows = np.flatnonzero(np.isin(groups, wanted))
    if exact is not None and not exact[rows].all():
        live = exact[rows] != 0
        rows = np.concatenate([rows[live], rows[~live]])
    truth, chosen = np.divmod(pair[rows], k)
    rank: dict[int, int] = {}
    for side, codes in enumerate((chosen, truth)):
        keys = groups[rows] * k + codes
        distinct, at = np.unique(keys, return_index=True)
        for key, position in zip(distinct.tolist(), at.tolist()):
            rank[key] = min(rank.get(key, 2 * position + side), 2 * position + side)
    index = {label: code for code, label in enumerate(labels)}
    for code in wanted:
        fresh[code].sort(key=lambda label: rank[code * k + index[label]])


def rows_of(values: Any, rows: NDArray[np.int64]) -> Any:
    """The items of ``values`` at ``rows`` (a numpy array indexed, a sequence listed)."""
    if isinstance(values, np.ndarray):
        return values[rows]
    return [values[row] for row in rows.tolist()]
