"""How Contingency's inputs reach its counts: add_result's plain containers, and batches of every shape.

:func:`count_batch` turns a batch (label arrays, indicator matrices, lists of
single labels or of label sets, with or without weights) into changes and
hands them to the counts' one write routine in one call, as :func:`add_counts`
does with another accumulator's counts (a merge); :func:`take_sets` is
``add_result``'s fast path for results given as containers, applied at once.
Neither counts anything itself: the rules that turn results into
cell changes are :mod:`contingency._changes`', the writes
:class:`contingency._counts.Counts`'.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np

from contingency._changes import (
    Staging,
    Unknown,
    indicator_changes,
    label_array_changes,
    label_list_changes,
    result_changes,
    times,
)
from contingency._coding import coded_single_labels, single_label_array
from contingency._counts import Counts
from contingency._inputs import check_same_length, exact_weights, label_sequence
from contingency._labels import check_label

__all__ = ["SINGLE", "add_counts", "count_batch", "join_pair", "single_kind", "take_sets"]

#: The types whose values add_result takes as one label each: every hashable type that is
#: not a container (see single_kind), learned as they are met.
SINGLE: set[type] = {str, int, float, bool, bytes}
_RESULTS = "results (one item per result)"


def single_kind(kind: type) -> bool:
    """Whether values of type ``kind`` are one label each when given as a side of a result.

    Strings and bytes are; so is any hashable type that is neither iterable nor a
    mapping (numbers, numpy scalars, enum members, frozen dataclasses...). Containers
    name several categories; unhashable values are refused by the general path.
    """
    if kind in SINGLE:
        return True
    if getattr(kind, "__hash__", None) is None or issubclass(kind, np.ndarray):
        return False
    if issubclass(kind, (str, bytes)) or not issubclass(kind, (Iterable, Mapping)):
        SINGLE.add(kind)
        return True
    return False


def take_sets(counts: Counts, assigned: object, correct: object, join: bool = False) -> bool:
    """add_result's fast path for the other results: plain containers of categories (or one
    single label on a side, or a mapping).

    Applied at once when every label is a category already: a result naming
    one category a side as a pair (:func:`add_pair`), others by
    :func:`~contingency._changes.result_changes`. With ``join`` (an open set), a
    result naming one label a side may name a new category too, as a single
    label may. Anything else (an unhashable, invalid or unknown label) is left
    to the general path (``False``). Also learns the single-label types met, so
    that their next result takes the single-label fast path.
    """
    if type(assigned) is set and type(correct) is set:  # the common case, taken as it is
        chosen, truth = assigned, correct
    else:
        chosen, truth = side_labels(assigned), side_labels(correct)  # type: ignore[assignment]
        if chosen is None or truth is None:
            return False
    if len(chosen) == 1 == len(truth):  # one category a side: a pair
        (label,), (other,) = chosen, truth
        if counts.count_pair(other, label):  # (False: a label is not a category)
            return True
        if not join:
            return False
        join_pair(counts, label, other)
        return True
    return counts.count_sets(chosen, truth)  # (False: a label is not a category)


def join_pair(counts: Counts, assigned: Hashable, correct: Hashable) -> None:
    """Apply one result naming one label a side, one of them at least new to an open set.

    Each new label is checked first (an invalid one raises, and nothing has
    changed); the one write routine makes it a category.
    """
    ids = counts.ids
    if assigned not in ids:
        check_label(assigned, "assigned")
    if correct is not assigned and correct not in ids:  # (one label: checked once)
        check_label(correct, "correct")
    counts.count_pair(correct, assigned, join=True)


def side_labels(value: object) -> AbstractSet[Hashable] | None:
    """The categories one side of a result names, for :func:`take_sets` (``None``: not for it).

    A set is taken as it is, a list or tuple made a set
    (duplicates count once), a mapping's keys with truthy values, a single label a set of one.
    """
    kind = type(value)
    if kind is set or kind is frozenset:
        return value  # type: ignore[return-value]
    if kind is list or kind is tuple:
        try:
            return set(value)  # type: ignore[call-overload, no-any-return]
        except TypeError:
            return None  # an unhashable label: the general path names it
    if kind is dict:  # a mapping: its keys with truthy values
        return {key for key, flag in value.items() if flag}  # type: ignore[attr-defined]
    if single_kind(kind):
        return {value}
    return None


def count_batch(counts: Counts, unknown: Unknown, assigned: Any, correct: Any, weights: Any, *,
                removing: bool, names: tuple[str, str, str, str],
                order: Callable[[], list[Hashable]],
                show: Callable[[object, object, object], None] | None) -> None:
    """Count (or take back, ``removing``) a batch, given as ``Contingency.add_results`` takes it.

    Each shape of input becomes changes by its own rule (:mod:`contingency._changes`)
    and reaches the counts through their one write routine, ``counts.apply``,
    in one call: the whole batch is checked before anything is counted.
    ``names`` are the caller's and its arguments' (``(call, assigned, correct,
    weights)``), for the errors; ``order`` gives the categories in the order
    of an indicator matrix's columns; ``show`` prints one result (verbose), or
    is ``None``.
    """
    name, first, second, weighting = names
    if removing:
        name = "remove_results"
    where = name if removing else ""
    if removing:
        show = None  # a removal prints nothing
    arrays = isinstance(assigned, np.ndarray) and isinstance(correct, np.ndarray)
    if not arrays:
        assigned = label_sequence(assigned, first, _RESULTS)
        correct = label_sequence(correct, second, _RESULTS)
        check_same_length(assigned, correct, (first, second))
    if show is None:  # lists (or object arrays) of single labels: coded in C, then counted as
        coded = (coded_single_labels(assigned, first),  # label arrays
                 coded_single_labels(correct, second))
        if coded[0] is not None and coded[1] is not None:
            assigned, correct = coded
            arrays = False  # (1-d now: no indicator matrix)
    unit, exact = counts.scale, None
    if weights is not None:
        exact, unit = exact_weights(weights, len(assigned), name, counts.scale,
                                    name=weighting)
    # Each result counts 2**unit (or its weight) in units of 2**-unit; negated to remove.
    factor = (-1 if removing else 1) << (unit if exact is None else 0)
    if arrays and (assigned.ndim == 2 or correct.ndim == 2):
        labels = order()
        changes = indicator_changes(assigned, correct, labels, exact, (first, second))
        counts.apply(*times(changes, factor), removing=removing, where=where, scale=unit)
        if show is not None:
            for row in range(assigned.shape[0]):
                show(row, [labels[j] for j in np.flatnonzero(assigned[row])],
                     [labels[j] for j in np.flatnonzero(correct[row])])
        return
    if single_label_array(assigned) and single_label_array(correct) and show is None:
        staging = Staging(counts.ids, unknown, removing=removing, base=len(counts.names))
        changes = label_array_changes(assigned, correct, staging, counts.names, exact,
                                      (first, second))
        counts.apply(*times(changes, factor), new=staging.new, removing=removing,
                     where=where, scale=unit, coded=True)
        return
    # Python scalars from a numpy array of numbers or strings (an element of one is a numpy
    # scalar; the label-array path and a loop over .tolist() both give Python's).
    assigned_items, correct_items = (
        items.tolist() if isinstance(items, np.ndarray) and items.dtype != object else items
        for items in (label_sequence(assigned, first, _RESULTS),
                      label_sequence(correct, second, _RESULTS)))
    staging = Staging(counts.a, unknown, removing=removing)
    # A row of weight 0 adds no category: its labels are met after every other row's, as
    # in the add_result loop (which skips nothing, but whose weight-0 results count
    # nowhere) and the label-array path (first_seen_order).
    rows: Iterable[int] = range(len(assigned_items))
    if exact is not None and not exact.all():
        rows = [*np.flatnonzero(exact != 0).tolist(), *np.flatnonzero(exact == 0).tolist()]
    if show is None:  # rows of label lists naming categories only: counted with numpy
        counted = label_list_changes(assigned_items, correct_items, counts.ids, counts.names,
                                     exact)
        if counted is not None:
            counts.apply(*times(counted, factor), removing=removing, where=where, scale=unit,
                         coded=True)
            return
    results: list[Any] = [None] * len(assigned_items)
    known = counts.a.keys()
    for row in rows:
        chosen, truth = assigned_items[row], correct_items[row]
        result = side_labels(chosen), side_labels(truth)  # as add_result's fast path takes them
        if (result[0] is None or result[1] is None or not result[0] <= known
                or not result[1] <= known):  # a label new, invalid or unhashable: staged
            result = (staging.labels(chosen, f"{first}[{row}]"),
                      staging.labels(truth, f"{second}[{row}]"))
        results[row] = result
    if show is not None:
        for row, (a, c) in enumerate(zip(assigned_items, correct_items)):
            show(row, a, c)
    repeats = factor if exact is None else [factor * w for w in exact.tolist()]
    counts.apply(*result_changes(results, repeats), new=staging.new, removing=removing,
                 where=where, scale=unit)



def add_counts(counts: Counts, other: Counts) -> None:
    """Add ``other``'s counts (another object) into ``counts``, categories aligned by name.

    A merge, through the one write routine: the categories ``other`` counts
    something for, its cells, result shapes, single-label pairs and
    ``set_entries`` offset, in the finer of the two units.
    """
    counted = [label for label in other.a if other.a[label] or other.b[label] or other.c[label]]
    staging = Staging(counts.a, "add", removing=False)
    for label in counted:
        staging.position(label, "other")
    unit = max(counts.scale, other.scale)
    changes = ({label: other.a[label] for label in counted},
               {label: other.b[label] for label in counted},
               {label: other.c[label] for label in counted},
               dict(other.shapes), other.label_pairs())
    factor = 1 << (unit - other.scale)  # the two scales aligned
    counts.apply(*times(changes, factor), new=staging.new,
                 offset=[count * factor for count in other.offset], scale=unit)
