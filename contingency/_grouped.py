"""GroupedContingency: one Contingency per group of results and one over all of them, with the disparities.

A fairness audit or an error analysis asks for a score per slice of the
results (a country, a device, a demographic group) and for the gap between
the worst slice and the best. A :class:`GroupedContingency` holds one
:class:`~contingency.Contingency` per group, created when the group is first
met (declared groups first, in their order, kept even when empty; the others
after them in label order, as categories are ordered, whatever order they
arrived in), and one for every result together,
:attr:`~GroupedContingency.overall`; the
disparities have fairlearn's names and meanings
(:mod:`contingency.formulas.fairness`).

The overall accumulator is kept, not merged from the groups on each read.
Each write gives the same changes to the overall accumulator as to the
groups, which costs one more application of those changes (the counting
itself is done once); in exchange every score of the whole reads in
constant time, as in a plain Contingency, where merging the groups would cost
O(groups x categories) per read, and ``to_overall`` disparities after every
result would cost as much. A test recomputes it from the groups.

Each group's counts are a Contingency of its own, so that every score of a
group is the one a plain Contingency fed its results reads, by the same code,
exactly. A group is made as a copy of one empty accumulator with the
settings, the groups a batch meets made at once (``_copies``: with the kernel,
one copy cloned in C, contingency/_kernel_grouped.pxi; else ``copy()`` each).
With the kernel, the copies share its category coding until a category joins
or leaves one of them, and an empty group's counts hold no container of their
own, so a group is two objects for the garbage collector (its Contingency and
its Counts) and its write reads its cells, its pair table and a few lines of
its core. With a thousand groups or more, that state no
longer fits the processor's cache, and a write or a read pays a few cache
misses in the group it touches; holding the counts of every group in one
coded table would save them, at the price of a second implementation of every
running sum a Contingency keeps, which we have not written.

Writes. :meth:`GroupedContingency._commit` is the one routine that changes
counts: it gives each accumulator its part, the overall one first when
adding (it refuses, unchanged, any result that no group would take either,
and a group then takes anything the overall took: its counts are part of
the overall's) and last when removing (a group refuses a result it does not
hold; when several groups are written, each is copied first so that a
refusal puts back the ones already written). A part is a change of counts
(:meth:`contingency._counts.Counts.apply`, the accumulators' own write
routine, or its one-result form ``count_pair``), the groups' part of a batch
of single labels (:func:`write_group_pairs_reference`) or, for inputs of
other shapes, the accumulator's own batch method on its rows. A removal is the
same routine with the changes negated.

- :meth:`~GroupedContingency.add_result` with one single label a side, every
  label a category of the whole already and the group known, is written at
  once: one result counted by the overall's counts, then by the group's (their
  one-result write, ``count_pair``, each), and the group marked for the scores
  read so far; with the kernel, this step is compiled
  (contingency/_kernel_grouped.pxi), the method as written here kept as
  ``add_result_reference``. Anything else (a new group or category, a weight,
  several labels) is written through each accumulator's ``add_result``.
- A batch of single labels (label arrays, lists of single labels) is coded
  once: group, correct and assigned codes become one code per row, counted by
  one ``bincount`` (or a sort when that table would be large), so the batch
  costs O(rows + distinct (group, correct, assigned) triples), with no Python
  loop per row. The overall gets the sum of the pairs (one ``apply``); the
  groups get theirs in one call, :func:`write_group_pairs_reference`, given
  the distinct triples sorted by group as one coded batch with a group
  column (:class:`~contingency._group_batches.GroupPairs`) and each group's
  new categories in the order its rows met them. That routine writes each
  group by its counts' own write routine; with the kernel it is a C loop over
  the groups through each core's pair write (``_write_pair``, the writes of
  ``count_pair``), with no Python call or dict per group, and it hands to the
  reference what it does not write in C (a removal, a fractional weight).
  What is left per group is the group's own: checking its key and
  registering it, and, for a group new to the accumulator, making it.
  Other inputs (label sets, indicator matrices) are split by group with one
  stable sort of the group codes and fed to each accumulator's ``add_results``.

Reads. A score is named as :func:`~contingency._group_scores.score_reader`
says: a property of Contingency (``"macro_f1"``) or ``(score, category)`` for
one category taken as the positive outcome (``("recall", 1)``). For each score
read, an :class:`~contingency._extremes.Extremes` keeps each group's value and
two heaps (least and greatest), brought up to date at the next read for the
groups written since (each write marks the groups it touched): a disparity
read after every result costs O(groups written x log groups), whatever the
number of groups.

The parts that are not the accumulator live apart: score names in
:mod:`contingency._group_scores`, the running extremes in
:mod:`contingency._extremes`, group keys in :mod:`contingency._group_keys`,
the coding of a batch by group in :mod:`contingency._group_batches`, the
``to_dict`` document in :mod:`contingency._grouped_state`, the groups' counts as
one columnar state for pickling in :mod:`contingency._group_columns`, and the
scores as plain data for reports in :mod:`contingency._group_summary`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from itertools import repeat
from typing import Any, ClassVar, Literal, TypeVar

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import _backend, _coding, _locking
from contingency import report as _report
from contingency._changes import (
    Changes,
    Staging,
    Unknown,
    category_codes,
    first_seen_order,
    pair_changes,
    times,
)
from contingency._coding import coded_single_labels, single_label_array
from contingency._contingency import Contingency
from contingency._counts import Counts
from contingency._extremes import Extremes
from contingency._feeding import SINGLE
from contingency._frame import group_frame
from contingency._group_batches import (
    GroupPairs,
    group_codes,
    label_objects,
    rows_of,
    triple_changes,
)
from contingency._group_columns import pack_groups, unpack_groups
from contingency._group_keys import group_key
from contingency._group_scores import DEFAULT_SCORES, Score, score_name, score_reader
from contingency._group_summary import chosen_scores, summary
from contingency._grouped_state import read_state, write_state
from contingency._inputs import check_same_length, exact_weights, label_sequence
from contingency._intervals import IntervalRefused, check_level_and_method, interval_request
from contingency._labels import category_order, check_label, not_a_category, unknown_pos_label
from contingency._merging import Merging
from contingency._table import PAIR_LOW, PAIR_SHIFT
from contingency.formulas import fairness as _fairness
from contingency.formulas._arguments import call_prefix
from contingency.formulas._numeric import (
    ZeroDivision,
    shown,
)
from contingency.formulas.fairness import Method
from contingency.formulas.intervals import Interval

__all__ = ["GroupedContingency"]

_UNIT = 1  # add_result's default weight: the fast path takes it (tested by identity)
_HOLE = object()  # the key of a code whose group was forgotten
_RESULTS = "results (one item per result)"
_NO_GROUP = "No group has been recorded"
_Self = TypeVar("_Self", bound="GroupedContingency")
_T = TypeVar("_T")
_Key = Hashable


# The accumulator ------------------------------------------------------------------------------


#: The memos' slots. A name, not a literal, in ``__slots__``: mypy's attrs plugin takes a slotted
#: attrs class's slots to be its fields alone, unless a base's slots are not literal (mypy then
#: checks no assignment against slots), and the class assigns its memos.
_MEMOS = ("_empty", "_trackers")


class _GroupedMemos:
    """The slots of GroupedContingency's memos (caches, not state): made again from the state
    whenever it is rebuilt (a copy, a pickle, a reset). Slots of this base, not attrs fields of
    the class: what attrs lists of an accumulator (``attrs.fields``, ``attrs.asdict``) is its
    state, never its memos."""

    __slots__ = _MEMOS

    _trackers: dict[Score, Extremes]  # each score read so far, kept up to date lazily
    _empty: Contingency | None  # an empty accumulator with the settings, copied for new groups


@attrs.define(init=False, eq=False, repr=False)
class GroupedContingency(Merging["GroupedContingency"], _GroupedMemos):
    """A :class:`~contingency.Contingency` per group of results, one over all of them, and the gaps.

    Feed it results with the group each belongs to (a country, a device, a
    demographic group, a data source; a tuple of them for several sensitive
    features), one at a time or in batches, and read any score by group, over
    all results, and the disparities between groups with fairlearn's names
    (``group_min``, ``group_max``, ``difference``, ``ratio``,
    ``demographic_parity_difference``...), at any moment.

    >>> g = GroupedContingency([0, 1], zero_division=0.0)
    >>> g.add_results([1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0], groups=["a", "a", "a", "b", "b", "b"])
    GroupedContingency(groups=2, categories=2, n_results=6, unknown='error', zero_division=0.0)
    >>> g.add_result(1, 1, group="b")
    >>> g.by_group(("recall", 1))
    {'a': 1.0, 'b': 0.6666666666666666}
    >>> round(g.difference(("recall", 1)), 4), g.group_argmin(("recall", 1))
    (0.3333, 'b')
    >>> g.selection_rate(1), g.demographic_parity_difference(1)
    ({'a': 0.6666666666666666, 'b': 0.5}, 0.16666666666666663)
    >>> g.overall == Contingency([0, 1], zero_division=0.0).add_results([1, 1, 0, 1, 0, 0, 1],
    ...                                                                 [1, 0, 0, 1, 1, 0, 1])
    True

    Parameters
    ----------
    categories, unknown, zero_division:
        Every accumulator's, as :class:`~contingency.Contingency` takes them:
        each group is a ``Contingency(categories, unknown=..., zero_division=...)``
        fed its own results, and :attr:`overall` one fed them all.
    groups:
        Groups to declare: they come first, in this order, and are kept (and
        scored, by ``zero_division``'s conventions) while they have no result.
        Other groups join when first met and are forgotten when removals leave
        them without a result; they follow the declared ones in the order of
        their labels, as :class:`~contingency.Contingency` orders categories it
        was not given (sorted when they are mutually orderable, else numbers
        first, then by type name and value), whatever order they arrived in:
        equal counts are equal, and listed alike, however they were fed.
    thread_safe:
        Make every public call atomic with a lock, as in :class:`~contingency.Contingency`.

    Notes
    -----
    A group is any label (see :class:`~contingency.Contingency`: not
    ``None``, nor NaN), or a tuple of labels for several features. A
    disparity leaves out the groups whose value is NaN (as pandas does);
    ties go to the first group, in group order.
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    _categories: list[Hashable]  # the declared categories (with unknown="add", maybe none)
    _unknown: Unknown
    _zero_division: ZeroDivision
    _declared: tuple[_Key, ...]  # the declared groups
    _overall: Contingency  # every result
    _groups: dict[_Key, Contingency]  # each group's results, in group order (once _ordered)
    # Whether the groups are in group order: a write that creates groups appends them, and the
    # next read of the groups (_in_order) puts them in order, renumbering their codes.
    _ordered: bool
    _codes: dict[_Key, int]  # each group's code: its position among the groups ever met
    _keys: list[_Key]  # the group of each code (_HOLE where one was forgotten)
    _holes: int
    #: The groups' part of a batch of single labels (:func:`write_group_pairs_reference`, or the
    #: kernel's loop over the groups in C), set below the class.
    _write_group_pairs: ClassVar[Callable[[Sequence[Contingency], GroupPairs, Sequence[Hashable],
                                           Mapping[int, Sequence[Hashable]], int, bool], None]]

    def __init__(self, categories: Iterable[Hashable] | None = None, *,
                 groups: Iterable[Hashable] | None = None, unknown: Unknown = "error",
                 zero_division: ZeroDivision = "perl", thread_safe: bool = False) -> None:
        overall = Contingency(categories, unknown=unknown, zero_division=zero_division)
        self._categories = list(overall.categories)
        self._unknown, self._zero_division = overall.unknown, overall.zero_division
        if isinstance(groups, (str, bytes)):
            raise TypeError("groups must be an iterable of groups, not a single string "
                            f"{groups!r}; wrap it in a list")
        declared: list[_Key] = []
        for position, key in enumerate(() if groups is None else groups):
            declared.append(group_key(key, f"groups[{position}]"))
        if len(set(declared)) != len(declared):
            raise ValueError("groups names a group twice")
        self._declared = tuple(declared)
        self._empty = None
        self._start(overall)

    def __new__(cls: type[_Self], *args: Any, thread_safe: bool = False, **kwargs: Any) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def _start(self, overall: Contingency) -> None:
        """Empty state: ``overall`` and the declared groups, every one without a result."""
        self._overall = overall
        self._groups, self._codes, self._keys, self._holes = {}, {}, [], 0
        self._ordered = True
        self._register(dict(zip(self._declared, self._new_groups(len(self._declared)))))
        self._trackers = {}

    def _new_group(self) -> Contingency:
        """An empty accumulator with the settings: a copy of one made once (:meth:`_new_groups`)."""
        return self._new_groups(1)[0]

    def _new_groups(self, count: int) -> list[Contingency]:
        """``count`` empty accumulators with the settings, copies of one made once: they share
        its category coding until a category joins or leaves one of them (the kernel's core
        copies it then), so an empty group holds two tracked objects (its Contingency and its
        Counts) and no container of its own."""
        return _copies(self._template(), count)

    def _template(self) -> Contingency:
        """The empty accumulator with the settings that new groups copy (made once)."""
        empty = self._empty
        if empty is None or empty._counts.n:  # (never written; checked all the same)
            empty = self._empty = Contingency(self._categories, unknown=self._unknown,
                                              zero_division=self._zero_division)
        return empty

    def _register(self, groups: Mapping[_Key, Contingency]) -> None:
        """Give groups the next codes, in turn (their place in group order is given at the next
        read)."""
        added, base = len(groups), len(self._keys)
        if (self._ordered and base + added > 1
                and len(self._groups) + added > len(self._declared)):
            self._ordered = False  # (declared groups, registered first, are in their place)
        self._codes.update(zip(groups, range(base, base + added)))
        self._keys.extend(groups)
        self._groups.update(groups)

    # Feeding ----------------------------------------------------------------------------------

    def add_result(self, assigned: object, correct: object, *, group: Hashable,
                   weight: float = 1) -> None:
        """Add one result of ``group``: what :meth:`Contingency.add_result` takes, and its group.

        ``group`` is a label, or a tuple of labels for several features. On
        any error every accumulator is left exactly as it was.

        >>> g = GroupedContingency()
        >>> g.add_result("cat", "cat", group="day")
        >>> g.add_result("dog", "cat", group="night", weight=2)
        >>> g.groups, g.n_results, g.by_group("micro_f1")
        (('day', 'night'), 3, {'day': 1.0, 'night': 0.0})
        """
        # The fast path: single labels, each a category of the whole, the group known. One
        # result's changes (pair_changes), applied at once to the whole's counts, then to the
        # group's (which cannot refuse what the whole, holding its results, took), by their
        # one write routine. (add_result_reference, below the class, keeps this method: the
        # kernel's, contingency/_kernel_grouped.pxi, takes its place, the same steps in C.)
        if weight is _UNIT and type(assigned) in SINGLE and type(correct) in SINGLE:
            counts = self._overall._counts
            try:
                accumulator = self._groups.get(group)
            except TypeError:  # an unhashable group: the general path names it
                accumulator = None
            if (accumulator is not None and not counts.hold
                    and counts.count_pair(correct, assigned)):  # (False: not a category)
                mine = accumulator._counts
                mine.count_pair(correct, assigned, join=True)  # (a category new to the group joins)
                for tracker in self._trackers.values():
                    tracker.pending.add(group)
                return
        self._one(assigned, correct, group, weight, removing=False)

    def remove_result(self, assigned: object, correct: object, *, group: Hashable,
                      weight: float = 1) -> None:
        """Take back a result of ``group`` added earlier: :meth:`add_result`'s path with weight -1.

        Raises ``ValueError`` (every accumulator unchanged) when ``group`` holds
        no such result. A group that was not declared is forgotten once it holds
        no result.

        >>> g = GroupedContingency()
        >>> g.add_result("cat", "cat", group="day")
        >>> g.remove_result("cat", "cat", group="day")
        >>> g.groups, g == GroupedContingency()
        ((), True)
        """
        self._one(assigned, correct, group, weight, removing=True)

    def _one(self, assigned: object, correct: object, group: object, weight: object, *,
             removing: bool) -> None:
        """One result, written at once through each accumulator's own single-result path."""
        where = "remove_result" if removing else "add_result"
        key = group_key(group, f"{where}: group")
        accumulator = self._groups.get(key)
        fresh = accumulator is None
        if fresh:
            if removing:
                raise ValueError(f"{where}: group {key!r} holds no result (the groups are "
                                 f"{list(self._groups)!r})")
            accumulator = self._new_group()
        assert accumulator is not None
        if removing:
            self._commit(lambda: self._overall.remove_result(assigned, correct,
                                                             weight=weight),  # type: ignore[arg-type]
                         lambda: accumulator.remove_result(assigned, correct,
                                                           weight=weight),  # type: ignore[arg-type]
                         [accumulator], removing=True)
        else:
            self._commit(lambda: self._overall.add_result(assigned, correct,
                                                          weight=weight),  # type: ignore[arg-type]
                         lambda: accumulator.add_result(assigned, correct,
                                                        weight=weight),  # type: ignore[arg-type]
                         [accumulator], removing=False)
        self._written({key: accumulator} if fresh and accumulator._counts.n else {}, [key],
                      removing)

    def add_results(self, assigned: Any, correct: Any, *, groups: Any,
                    weights: Any = None) -> GroupedContingency:
        """Add a batch of results and their groups; the state equals that of the :meth:`add_result` loop.

        ``assigned`` and ``correct`` are what :meth:`Contingency.add_results`
        takes (label arrays, sequences of results, indicator matrices), and
        ``weights`` too. ``groups`` gives each result's group: a sequence (a
        list, a 1-d numpy array, a pandas Series); or several features, each
        result's group then being the tuple of its values: a tuple of
        sequences, or a pandas DataFrame (one feature per column). The whole
        batch is checked before anything is counted. Returns the accumulator.

        >>> import numpy as np
        >>> g = GroupedContingency([0, 1]).add_results(
        ...     np.array([1, 0, 1, 1]), np.array([1, 0, 0, 1]),
        ...     groups=(np.array(["x", "x", "y", "y"]), np.array([1, 2, 1, 1])))
        >>> g.groups, g.by_group("micro_accuracy")
        ((('x', 1), ('x', 2), ('y', 1)), {('x', 1): 1.0, ('x', 2): 1.0, ('y', 1): 0.5})
        """
        self._batch(assigned, correct, groups, weights, removing=False)
        return self

    def remove_results(self, assigned: Any, correct: Any, *, groups: Any,
                       weights: Any = None) -> GroupedContingency:
        """Take back a batch added earlier: :meth:`add_results`' path with weight -1.

        If any result cannot have been added to its group, ``ValueError`` is
        raised and every accumulator is left exactly as it was.

        >>> g = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"])
        >>> g.remove_results(["y"], ["x"], groups=["b"]).groups
        ('a',)
        """
        self._batch(assigned, correct, groups, weights, removing=True)
        return self

    def _batch(self, assigned: Any, correct: Any, groups: Any, weights: Any, *,
               removing: bool) -> None:
        where = "remove_results" if removing else "add_results"
        if not (isinstance(assigned, np.ndarray) and isinstance(correct, np.ndarray)):
            assigned = label_sequence(assigned, "assigned", _RESULTS)
            correct = label_sequence(correct, "correct", _RESULTS)
            coded = (coded_single_labels(assigned, "assigned"),
                     coded_single_labels(correct, "correct"))
            if coded[0] is not None and coded[1] is not None:
                assigned, correct = coded
        size = check_same_length(assigned, correct, ("assigned", "correct"))
        codes, keys = group_codes(groups, size, "groups")
        exact, unit = None, 0
        if weights is not None:
            scale = max([self._overall._counts.scale,
                         *(self._groups[key]._counts.scale for key in keys if key in self._groups)])
            exact, unit = exact_weights(weights, size, where, scale)
        if (single_label_array(assigned) and single_label_array(correct)
                and self._coded_batch(assigned, correct, codes, keys, exact, unit, removing)):
            return
        self._split_batch(assigned, correct, codes, keys, weights, exact, removing)

    def _resolve(self, keys: list[_Key], codes: NDArray[np.int64], exact: NDArray[Any] | None,
                 removing: bool, where: str
                 ) -> tuple[NDArray[np.int64], dict[_Key, Contingency], list[Contingency]]:
        """Each row's group code, the groups the batch creates (in the order first met), and the
        accumulator of each of the batch's groups (``keys``' order).

        A group met only in rows of weight 0 is not created (its accumulator is
        ``None``; it has a code, after the others'); a removal naming a group that
        holds no result is refused.
        """
        # Each group's code, -1 for a group new to this accumulator: one look-up per group.
        mine = np.array(list(map(self._codes.get, keys, repeat(-1))), dtype=np.int64)
        fresh = np.flatnonzero(mine < 0)
        if len(fresh) and removing:
            key = keys[int(fresh[0])]
            raise ValueError(f"{where}: group {key!r} holds no result (the groups are "
                             f"{list(self._groups)!r})")
        accumulators: list[Any] = list(map(self._groups.get, keys))  # (None: new, made below)
        created: dict[_Key, Contingency] = {}
        if len(fresh):
            wanted = np.zeros(len(keys), dtype=bool)
            wanted[fresh] = True
            rows = codes if exact is None else codes[exact != 0]
            first = _coding.first_rows(rows, wanted)[fresh]
            # The new groups take codes in the order the rows meet them; those met only in rows
            # of weight 0 come last: they get no count, so no accumulator and no place.
            order = np.lexsort((first, first < 0))
            mine[fresh[order]] = np.arange(len(self._keys), len(self._keys) + len(fresh))
            met = fresh[order[first[order] >= 0]]
            # Made in the batch's order of groups, in which the groups' write visits them: a
            # group's objects then follow the previous group's in memory.
            made = fresh[first >= 0].tolist()
            for position, accumulator in zip(made, self._new_groups(len(made))):
                accumulators[position] = accumulator
            created = dict(zip(map(keys.__getitem__, met.tolist()),
                               map(accumulators.__getitem__, met.tolist())))
        return mine, created, accumulators

    def _coded_batch(self, assigned: Any, correct: Any, codes: NDArray[np.int64],
                     keys: list[_Key], exact: NDArray[Any] | None, unit: int,
                     removing: bool) -> bool:
        """A batch of single labels, counted by (group, correct, assigned) triples; ``False`` when
        a label is ignored (``unknown="ignore"``), which leaves it to :meth:`_split_batch`."""
        where = "remove_results" if removing else "add_results"
        overall = self._overall._counts
        staging = Staging(overall.ids, self._unknown, removing=removing, base=len(overall.names))
        chosen, every_assigned = category_codes(assigned, staging, "assigned")
        truth, every_correct = category_codes(correct, staging, "correct")
        if not (every_assigned and every_correct):
            return False
        if staging.new:
            chosen, truth = first_seen_order(staging, chosen, truth, exact)
        k = len(overall.names) + len(staging.new)
        if len(keys) * k * k >= 1 << 63:
            return False  # no int64 code for every triple: counted group by group instead
        _, created, accumulators = self._resolve(keys, codes, exact, removing, where)
        # Coded by the batch's own group codes (keys' positions).
        combined = codes * k  # (in place from here: one array of the batch's length)
        combined += truth
        combined *= k
        combined += chosen
        self._write_codes(combined, k, list(staging.new), keys, accumulators, created, exact,
                          unit, removing, ((assigned, correct), (chosen, truth)))
        return True

    def _write_codes(self, combined: NDArray[np.int64], k: int, new: list[Hashable],
                     keys: list[_Key], accumulators: list[Contingency],
                     created: dict[_Key, Contingency], exact: NDArray[Any] | None, unit: int,
                     removing: bool,
                     sides: tuple[tuple[Any, Any], tuple[NDArray[np.int64], NDArray[np.int64]]]
                     ) -> None:
        """Count single-label results given as one code each, ``(group * k + correct) * k + assigned``.

        Group ``g`` is ``keys[g]``, written into ``accumulators[g]`` (``created``:
        those new to this accumulator); categories are coded as the overall
        accumulator codes them, ``new`` (the categories new to it) after them,
        ``k`` codes at most. ``exact`` are the weights (in units of
        ``2**-unit``), or ``None``; ``sides`` the labels as coded (assigned, correct) and
        their category codes, for a category new to a group named by a label of another type
        than the whole's object (:func:`~contingency._group_batches.label_objects`). One
        count of the distinct codes (:func:`~contingency._group_batches.triple_changes`), then
        one write of
        the whole's pairs and one of every group's (:func:`write_group_pairs`).
        """
        overall = self._overall._counts
        labels = [*overall.names, *new]

        def known(code: int) -> Collection[Hashable]:
            return accumulators[code]._counts.a

        every_declared = not new and len(overall.a) == len(self._categories)
        whole, pairs, fresh = triple_changes(
            combined, k, len(keys), labels, exact, None if every_declared else known,
            None if every_declared else label_objects(*sides, labels))
        # The groups written: the distinct codes of the pairs (sorted by group).
        starts = np.flatnonzero(np.diff(pairs.group)) + 1
        touched = pairs.group[np.concatenate([[0], starts])].tolist() if len(pairs.group) else []
        written = list(map(accumulators.__getitem__, touched)) if removing else []
        overall_part = _change(self._overall, pair_changes(whole, labels), unit,
                               removing=removing, new=new, coded=True)
        write = type(self)._write_group_pairs
        self._commit(overall_part,
                     lambda: write(accumulators, pairs, labels, fresh, unit, removing),
                     written, removing)
        self._written(created, map(keys.__getitem__, touched), removing)

    def _split_batch(self, assigned: Any, correct: Any, codes: NDArray[np.int64],
                     keys: list[_Key], weights: Any, exact: NDArray[Any] | None,
                     removing: bool) -> None:
        """A batch of any other shape: each group's rows (split by one stable sort) to its own
        batch method, all of them to the overall's."""
        where = "remove_results" if removing else "add_results"
        mine, created, accumulators = self._resolve(keys, codes, exact, removing, where)
        rows = mine[codes]
        order = np.argsort(rows, kind="stable")
        bounds = np.flatnonzero(np.diff(rows[order])) + 1
        method = "remove_results" if removing else "add_results"
        matrices = isinstance(assigned, np.ndarray) and isinstance(correct, np.ndarray) and (
            assigned.ndim == 2 or correct.ndim == 2)
        if weights is not None and not isinstance(weights, np.ndarray):
            weights = list(weights)  # positions, whatever the container (a pandas Series...)
        parts: list[Callable[[], object]] = []
        written = []
        touched = []
        for chunk in np.split(order, bounds) if len(order) else []:
            if exact is not None and not exact[chunk].any():
                continue  # only rows of weight 0: nothing to count
            key, accumulator = keys[codes[chunk[0]]], accumulators[codes[chunk[0]]]
            if matrices and accumulator.categories != self._overall.categories:
                raise ValueError(f"{where}: indicator matrices have one column per category of "
                                 f"the whole, but group {key!r} does not have every category "
                                 "yet; declare the categories, or pass label lists")
            picked = [rows_of(assigned, chunk), rows_of(correct, chunk),
                      None if weights is None else rows_of(weights, chunk)]
            parts.append(_batch_call(accumulator, method, picked))
            written.append(accumulator)
            touched.append(key)
        everything = [assigned, correct, weights]
        self._commit(_batch_call(self._overall, method, everything), _each(parts), written,
                     removing)
        self._written({key: created[key] for key in touched if key in created}, touched, removing)

    # The one write routine ------------------------------------------------------------------

    def _commit(self, overall: Callable[[], object], groups: Callable[[], object],
                written: Collection[Contingency], removing: bool) -> None:
        """Write ``overall``'s part and ``groups``' (every group's), all or none (see the module's
        docstring); ``written`` are the groups that ``groups`` writes.

        Adding, the overall's part comes first: it checks everything the groups'
        parts would (labels, weights, the count limit) on counts that hold theirs,
        so once it is written the groups' parts cannot be refused. Removing, the
        groups come first, each refusing a result it does not hold; with several,
        each group's counts are copied first and put back if one refuses. The
        overall holds what the groups held, so it takes the removal after them.
        """
        if not removing:
            overall()
            groups()
            return
        saved = [(accumulator, accumulator._counts.copy()) for accumulator in written
                 ] if len(written) > 1 else []
        try:
            groups()
            overall()
        except BaseException:
            for accumulator, counts in saved:
                object.__setattr__(accumulator, "_counts", counts)
            raise

    def _written(self, created: Mapping[_Key, Contingency], touched: Iterable[_Key],
                 removing: bool) -> None:
        """After a write: keep the groups it created (each holding a result: a result of weight 0
        creates no group), mark the groups it touched for every score read so far, and forget the
        undeclared groups a removal left without a result."""
        if created:
            self._register(created)
        if not (removing or self._trackers):
            return
        touched = list(touched)
        if removing:
            for key in touched:
                accumulator = self._groups[key]
                if key not in self._declared and not accumulator._counts.n:
                    self._forget(key)
        for tracker in self._trackers.values():
            tracker.pending.update(touched)

    def _forget(self, key: _Key) -> None:
        """Forget a group; the codes are made dense again once holes are half of them."""
        del self._groups[key]
        self._keys[self._codes.pop(key)] = _HOLE
        for tracker in self._trackers.values():  # (its heap entries name the old code: stale)
            tracker.values.pop(key, None)
        self._holes += 1
        if self._holes * 2 > len(self._keys):
            self._keys = list(self._groups)
            self._codes = {key: code for code, key in enumerate(self._keys)}
            self._holes = 0
            self._trackers = {}  # their entries' order was the old codes: made again when read

    # Combining --------------------------------------------------------------------------------

    def merge(self, other: GroupedContingency) -> GroupedContingency:
        """Add ``other``'s counts, group by group and overall, in place; returns ``self``.

        The settings must be equal (``zero_division``, ``unknown``, the declared
        categories and the declared groups), else ``ValueError`` names the one
        that differs. Groups only ``other`` has join this one's, in group order.

        >>> left = GroupedContingency().add_results(["x"], ["x"], groups=["a"])
        >>> right = GroupedContingency().add_results(["y"], ["x"], groups=["b"])
        >>> both = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"])
        >>> left + right == both
        True
        """
        if not isinstance(other, GroupedContingency):
            raise TypeError(f"can only merge a GroupedContingency, not {type(other).__name__}")
        with _locking.holding(other):
            # The settings and declared categories: the overall accumulators' own check.
            self._overall._check_mergeable(other._overall)
            if self._declared != other._declared:
                raise ValueError("cannot merge accumulators whose declared groups differ: "
                                 f"{self._declared!r} here, {other._declared!r} in the other")
            if other is self:
                other = other.copy()
            other._in_order()
            mine = self._groups
            missing = [key for key in other._groups if key not in mine]
            created = dict(zip(missing, self._new_groups(len(missing))))
            # O(groups of other): each group looked up, never a copy of this one's groups.
            receiving = [mine.get(key) or created[key] for key in other._groups]
            parts = [_merge_call(accumulator, theirs)
                     for accumulator, theirs in zip(receiving, other._groups.values())]
            self._commit(_merge_call(self._overall, other._overall), _each(parts), receiving,
                         removing=False)
            self._written(created, list(other._groups), removing=False)
            return self

    def copy(self) -> GroupedContingency:
        """An independent accumulator with the same state and settings."""
        self._in_order()
        other = _locking.new_instance(type(self), False)  # a locked class: its own new lock
        object.__setattr__(other, "_categories", self._categories)
        object.__setattr__(other, "_unknown", self._unknown)
        object.__setattr__(other, "_zero_division", self._zero_division)
        object.__setattr__(other, "_declared", self._declared)
        object.__setattr__(other, "_empty", None)
        other._adopt(self._overall.copy(), {key: accumulator.copy()
                                            for key, accumulator in self._groups.items()})
        return other

    def _adopt(self, overall: Contingency, groups: Mapping[_Key, Contingency]) -> None:
        """Take these accumulators as the whole state (the settings already set)."""
        self._overall = overall
        self._groups, self._codes, self._keys, self._holes = {}, {}, [], 0
        self._ordered = True
        self._register(groups)
        self._trackers = {}

    def reset(self) -> None:
        """Forget every result; keep the declared groups (empty), the declared categories and settings."""
        self._start(self._new_group())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GroupedContingency):
            return NotImplemented
        with _locking.holding(other):
            self._in_order()
            other._in_order()
            return (self._settings() == other._settings()
                    and list(self._groups) == list(other._groups)
                    and all(mine == other._groups[key] for key, mine in self._groups.items())
                    and self._overall == other._overall)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _settings(self) -> tuple[object, ...]:
        return self._categories, self._unknown, self._zero_division, self._declared

    def __repr__(self) -> str:
        return (f"GroupedContingency(groups={len(self._groups)}, "
                f"categories={len(self._overall._counts.a)}, "
                f"n_results={self.n_results}, "
                f"unknown={self._unknown!r}, zero_division={self._zero_division!r})")

    def __getstate__(self) -> dict[str, Any]:
        # The groups' counts as one columnar state (contingency._group_columns): a few arrays,
        # not about ten small containers per group for the pickler to memoize one by one.
        self._in_order()
        return {"settings": self._settings(), "overall": self._overall,
                "keys": list(self._groups),
                "columns": pack_groups(list(self._groups.values()), self._template())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        categories, unknown, zero_division, declared = state["settings"]
        object.__setattr__(self, "_categories", categories)
        object.__setattr__(self, "_unknown", unknown)
        object.__setattr__(self, "_zero_division", zero_division)
        object.__setattr__(self, "_declared", declared)
        object.__setattr__(self, "_empty", None)
        if "groups" in state:  # (the layout before the columns: {key: Contingency})
            self._adopt(state["overall"], state["groups"])
            return
        keys, groups = state["keys"], unpack_groups(state["columns"], self._template())
        if len(keys) != len(groups):
            raise ValueError(f"a pickled GroupedContingency names {len(keys)} groups and holds "
                             f"the counts of {len(groups)}")
        self._adopt(state["overall"], dict(zip(keys, groups)))

    # What it holds ----------------------------------------------------------------------------

    def _in_order(self) -> GroupedContingency:
        """The groups in group order: what every read of the groups reads."""
        if not self._ordered:
            self._order()
        return self

    def _order(self) -> None:
        """Put the groups in group order (:func:`~contingency._labels.category_order`: the declared
        ones first, then the others sorted), a function of the set of groups, so that equal counts
        list their groups alike however they arrived; the codes follow.

        O(groups log groups), once after the writes that created groups, at their next read.
        """
        order = category_order(list(self._groups), len(self._declared))
        if order != list(self._groups):
            self._groups = {key: self._groups[key] for key in order}
            self._keys, self._holes = order, 0
            self._codes = {key: code for code, key in enumerate(order)}
            self._trackers = {}  # their heaps' ties were the old codes: made again when read
        self._ordered = True

    @property
    def groups(self) -> tuple[Hashable, ...]:
        """The groups, in order: declared ones first, then the others in label order.

        >>> GroupedContingency(groups=["z"]).add_results(["x", "x"], ["x", "x"],
        ...                                              groups=["b", "a"]).groups
        ('z', 'a', 'b')
        """
        self._in_order()
        return tuple(self._groups)

    @property
    def declared_groups(self) -> tuple[Hashable, ...]:
        """The groups declared at construction (kept while they hold no result)."""
        return self._declared

    @property
    def categories(self) -> tuple[Hashable, ...]:
        """The categories of :attr:`overall`, in its table order."""
        return self._overall.categories

    @property
    def n_results(self) -> int | float:
        """The number of results in every group together (weights included: see
        :attr:`Contingency.n_results`)."""
        return self._overall.n_results

    @property
    def unknown(self) -> Unknown:
        """What a result naming an unknown category does: ``"error"``, ``"ignore"`` or ``"add"``."""
        return self._unknown

    @property
    def zero_division(self) -> ZeroDivision:
        """The value of undefined ratios, in every group: ``"perl"``, ``0.0``, ``1.0`` or ``"nan"``."""
        return self._zero_division

    @property
    def overall(self) -> Contingency:
        """A copy of the accumulator of every result: equal to one :class:`Contingency` fed them all.

        A copy (O(categories)), so feeding it changes nothing here; scores of
        the whole read in constant time through :meth:`overall_score`.
        """
        return self._overall.copy()

    def group(self, group: Hashable) -> Contingency:
        """A copy of ``group``'s accumulator: equal to one :class:`Contingency` fed its results.

        >>> g = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"])
        >>> g.group("b").micro_f1
        0.0
        >>> g.group("c")
        Traceback (most recent call last):
        ...
        ValueError: group: no group 'c' (the groups are ['a', 'b'])
        """
        return self._group(group).copy()

    def _group(self, group: Hashable) -> Contingency:
        self._in_order()
        try:
            accumulator = self._groups.get(group)
        except TypeError:
            accumulator = None
        if accumulator is None:
            raise ValueError(f"group: no group {shown(group)} (the groups are "
                             f"{shown(list(self._groups))})")
        return accumulator

    # Scores by group --------------------------------------------------------------------------

    def _tracker(self, score: object, where: str) -> tuple[Score, Extremes]:
        """The running extremes of ``score``, up to date (made by its first read); a bad score
        refused naming the read ``where``."""
        self._in_order()
        key, tracker = self._reader(score, where)
        if tracker.pending:
            tracker.refresh(self._groups, self._codes, score_name(key))
        return key, tracker

    def _reader(self, score: object, where: str | None = None) -> tuple[Score, Extremes]:
        """The canonical name of ``score`` and its running extremes, made by its first read but not
        brought up to date (a read of the whole needs only the reader); a category checked, a bad
        score refused naming the read ``where``."""
        overall = self._overall._counts
        try:
            tracker = self._trackers.get(score)  # type: ignore[call-overload]
        except TypeError:  # unhashable: a list, say; named below
            tracker = None
        if tracker is None:
            key, read = score_reader(score, where)
        else:
            key = score  # type: ignore[assignment]
        if not isinstance(key, str) and not self._is_category(key[1]):  # (before a tracker is kept)
            raise ValueError(f"{call_prefix(where)}score {shown(key)}: "
                             f"{not_a_category(shown(key[1]), overall.a)}")
        if tracker is None:
            tracker = self._trackers.get(key)
            if tracker is None:
                tracker = self._trackers[key] = Extremes(read, self._groups)
        return key, tracker

    def _is_category(self, label: object) -> bool:
        """Whether ``label`` is a category of the whole (an unhashable value is not)."""
        try:
            return label in self._overall._counts.a
        except TypeError:
            return False

    def _positive(self, pos_label: object, where: str) -> Hashable:
        """``pos_label`` of the read ``where`` if it is a category of the whole, else the error
        every read taking ``pos_label`` gives, naming it, its value and the categories."""
        pos_label = check_label(pos_label, f"{where}: pos_label")
        if not self._is_category(pos_label):
            raise unknown_pos_label(pos_label, self.categories, where)
        return pos_label

    def _chosen_positive(self, pos_label: object, where: str) -> Hashable | None:
        """:meth:`_positive` of a ``pos_label`` that may be ``None`` (none chosen)."""
        return None if pos_label is None else self._positive(pos_label, where)

    def _per_group(self, read: Callable[[Contingency], _T]) -> dict[Hashable, _T]:
        """``read`` of each group's accumulator, in group order: any per-group read that keeps no
        running extremes (an interval of a score by group is ``self._per_group(lambda
        accumulator: accumulator.interval(score, ...))``)."""
        self._in_order()
        return {key: read(accumulator) for key, accumulator in self._groups.items()}

    def by_group(self, score: Score) -> dict[Hashable, float]:
        """``score`` in each group, in group order: ``{group: value}``.

        ``score`` names a score as :func:`score_reader` says: the name of a
        score property of :class:`~contingency.Contingency` (``"macro_f1"``)
        or ``(score, category)`` for one category's table (``("recall", 1)``).
        :meth:`to_frame` gives several scores as a ``pandas.DataFrame``.
        Costs O(groups); the groups' values are kept between reads, and only
        those of groups written since are read again.

        >>> g = GroupedContingency().add_results(["x", "y", "x"], ["x", "x", "x"],
        ...                                      groups=["a", "b", "b"])
        >>> g.by_group("micro_precision"), g.by_group(("recall", "x"))
        ({'a': 1.0, 'b': 0.5}, {'a': 1.0, 'b': 0.5})
        """
        _, tracker = self._tracker(score, "by_group")
        return {key: tracker.values[key] for key in self._groups}

    def overall_score(self, score: Score) -> float:
        """``score`` over every result together (the score of :attr:`overall`), in constant time.

        Before any result it reads as an empty table does, as a group without a
        result does (docs/grouped.md): each score its 0 / 0 case under
        ``zero_division``, even in Perl mode, where :attr:`overall`'s averages over
        categories raise while no category has been met.

        >>> g = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"])
        >>> g.overall_score("micro_f1"), g.overall_score(("precision", "y"))
        (0.5, 0.0)
        """
        return self._reader(score, "overall_score")[1].read(self._overall)

    def interval_by_group(self, score: Score, *, level: float = 0.95, method: str = "wilson"
                          ) -> dict[Hashable, Interval | None]:
        """The ``level`` confidence interval of ``score`` in each group, in group order.

        Each is :meth:`Contingency.interval <contingency.Contingency.interval>`
        of the group's accumulator (the same score names, levels and methods;
        see the docs' page on intervals); ``None`` for a group whose
        counts leave that interval undefined (no result, or none naming the
        category, say), while a bad ``level`` or ``method``, a score without an
        interval, a method that does not apply to it or a category of no group
        raises (:class:`~contingency.IntervalRefused`, a ``ValueError``). A
        disparity between two small groups is often noise: :meth:`groups_apart`
        names the groups whose interval leaves the overall one. Costs O(groups)
        intervals.

        >>> g = GroupedContingency().add_results(["x"] * 6 + ["y"] * 4, ["x"] * 10,
        ...                                      groups=["a"] * 5 + ["b"] * 5)
        >>> {group: round(interval.high, 3) for group, interval in g.interval_by_group(
        ...     "micro_precision").items()}
        {'a': 1.0, 'b': 0.624}
        """
        level, method = self._interval_request(score, level, method, "interval_by_group")
        return self._per_group(lambda accumulator: _interval_or_none(accumulator, score, level,
                                                                     method))

    def _interval_request(self, score: Score, level: object, method: object, where: str
                          ) -> tuple[float, str]:
        """``level`` and ``method`` checked, and ``score`` refused (naming ``where``) where no
        group's counts could give it an interval, before any is read: a group's ``None`` then
        means only that its counts leave the interval undefined."""
        level, method = check_level_and_method(level, method, where)
        interval_request(score, method, where, self._overall._counts)
        return level, method

    def groups_apart(self, score: Score, *, level: float = 0.95, method: str = "wilson"
                     ) -> list[Hashable]:
        """The groups whose interval of ``score`` does not overlap the interval over every result.

        Both intervals at ``level`` by ``method`` (:meth:`interval_by_group`);
        a group without an interval is not named. A group named here differs
        from the whole beyond what its size explains, at that level (one
        comparison per group: with many groups some are named by chance).

        >>> g = GroupedContingency().add_results(["x"] * 60 + ["y"] * 40, ["x"] * 100,
        ...                                      groups=["a"] * 50 + ["b"] * 50)
        >>> g.groups_apart("micro_precision")
        ['a', 'b']
        """
        level, method = self._interval_request(score, level, method, "groups_apart")
        overall = self._overall_interval(score, level, method)
        if overall is None:
            return []
        return [group for group, interval in self.interval_by_group(
                    score, level=level, method=method).items()
                if interval is not None and (interval.high < overall.low
                                             or interval.low > overall.high)]

    def _overall_interval(self, score: Score, level: float, method: str) -> Interval | None:
        self._in_order()
        return _interval_or_none(self._overall, score, level, method)

    def _extremes(self, score: object, where: str) -> tuple[Extremes, tuple[Hashable, float],
                                                            tuple[Hashable, float]]:
        """The tracker of ``score``, and its least and greatest group value with their groups."""
        _, tracker = self._tracker(score, where)
        if not self._groups:
            raise ValueError(_NO_GROUP)
        low, high = tracker.extreme(False, self._keys), tracker.extreme(True, self._keys)
        if low is None or high is None:  # every value is NaN
            first = next(iter(self._groups))
            return tracker, (first, math.nan), (first, math.nan)
        return tracker, low, high

    def _extreme(self, score: object, greatest: bool, where: str) -> tuple[Hashable, float]:
        _, low, high = self._extremes(score, where)
        return high if greatest else low

    def group_min(self, score: Score) -> float:
        """The least value of ``score`` over the groups (fairlearn's ``MetricFrame.group_min``).

        NaN values are left out (NaN if every value is); O(groups written since the last read).

        >>> g = GroupedContingency().add_results(["x", "y", "x"], ["x", "x", "x"],
        ...                                      groups=["a", "b", "b"])
        >>> g.group_min("micro_f1"), g.group_max("micro_f1")
        (0.5, 1.0)
        """
        return self._extreme(score, False, "group_min")[1]

    def group_max(self, score: Score) -> float:
        """The greatest value of ``score`` over the groups (fairlearn's ``MetricFrame.group_max``)."""
        return self._extreme(score, True, "group_max")[1]

    def group_argmin(self, score: Score) -> Hashable:
        """The group where ``score`` is least (the first in group order on a tie; pandas' ``idxmin``).

        >>> g = GroupedContingency().add_results(["x", "y", "x"], ["x", "x", "x"],
        ...                                      groups=["a", "b", "b"])
        >>> g.group_argmin("micro_f1"), g.group_argmax("micro_f1")
        ('b', 'a')
        """
        return self._extreme(score, False, "group_argmin")[0]

    def group_argmax(self, score: Score) -> Hashable:
        """The group where ``score`` is greatest (the first in group order on a tie)."""
        return self._extreme(score, True, "group_argmax")[0]

    def difference(self, score: Score, method: Method = "between_groups") -> float:
        """fairlearn's ``MetricFrame.difference``: the largest gap in ``score`` between two groups
        (``"between_groups"``) or between a group and every result together (``"to_overall"``).

        See :func:`contingency.formulas.fairness.difference`. Costs O(groups
        written since the last read of ``score``).

        >>> g = GroupedContingency().add_results(["x", "y", "x", "y"], ["x", "x", "x", "x"],
        ...                                      groups=["a", "b", "b", "b"])
        >>> round(g.difference("micro_f1"), 4), g.difference("micro_f1", method="to_overall")
        (0.6667, 0.5)
        """
        method = _fairness.check_method(method, "difference")
        tracker, (_, low), (_, high) = self._extremes(score, "difference")
        overall = tracker.read(self._overall) if method == "to_overall" else math.nan
        return _fairness.difference(low, high, overall, method=method)

    def ratio(self, score: Score, method: Method = "between_groups") -> float:
        """fairlearn's ``MetricFrame.ratio``: the least group value over the greatest
        (``"between_groups"``), or the least ratio of a group's value to the overall one, taken
        below 1 (``"to_overall"``).

        ``0 / 0`` follows ``zero_division``; see :func:`contingency.formulas.fairness.ratio`.

        >>> g = GroupedContingency().add_results(["x", "y", "x", "y"], ["x", "x", "x", "x"],
        ...                                      groups=["a", "b", "b", "b"])
        >>> g.ratio("micro_f1"), g.ratio("micro_f1", method="to_overall")
        (0.3333333333333333, 0.5)
        """
        method = _fairness.check_method(method, "ratio")
        tracker, (_, low), (_, high) = self._extremes(score, "ratio")
        overall = tracker.read(self._overall) if method == "to_overall" else math.nan
        return _fairness.ratio(low, high, overall, method=method,
                               zero_division=self._zero_division)

    # fairlearn's fairness scores --------------------------------------------------------------

    def selection_rate(self, pos_label: Hashable) -> dict[Hashable, float]:
        """Each group's selection rate: the share of its results assigned ``pos_label``.

        fairlearn's ``selection_rate`` by group (``by_group(("selection_rate", pos_label))``).
        """
        pos_label = self._positive(pos_label, "selection_rate")
        return self.by_group(("selection_rate", pos_label))

    def demographic_parity_difference(self, pos_label: Hashable,
                                      method: Method = "between_groups") -> float:
        """fairlearn's ``demographic_parity_difference``: the :meth:`difference` of the selection rates."""
        pos_label = self._positive(pos_label, "demographic_parity_difference")
        method = _fairness.check_method(method, "demographic_parity_difference")
        return self.difference(("selection_rate", pos_label), method)

    def demographic_parity_ratio(self, pos_label: Hashable,
                                 method: Method = "between_groups") -> float:
        """fairlearn's ``demographic_parity_ratio``: the :meth:`ratio` of the selection rates."""
        pos_label = self._positive(pos_label, "demographic_parity_ratio")
        method = _fairness.check_method(method, "demographic_parity_ratio")
        return self.ratio(("selection_rate", pos_label), method)

    def equalized_odds_difference(self, pos_label: Hashable, method: Method = "between_groups",
                                  agg: Literal["worst_case", "mean"] = "worst_case") -> float:
        """fairlearn's ``equalized_odds_difference``: the larger :meth:`difference` of the true and
        the false positive rates (``agg="worst_case"``, fairlearn's default), or their mean.

        >>> g = GroupedContingency([0, 1], zero_division=0.0).add_results(
        ...     [1, 0, 1, 1, 0, 0], [1, 1, 0, 1, 0, 0], groups=["a", "a", "a", "b", "b", "b"])
        >>> g.by_group(("recall", 1)), g.by_group(("false_positive_rate", 1))
        ({'a': 0.5, 'b': 1.0}, {'a': 1.0, 'b': 0.0})
        >>> g.equalized_odds_difference(1), g.equalized_odds_ratio(1), g.equal_opportunity_difference(1)
        (1.0, 0.0, 0.5)
        """
        pos_label = self._positive(pos_label, "equalized_odds_difference")
        method = _fairness.check_method(method, "equalized_odds_difference")
        agg = _fairness.check_agg(agg, "equalized_odds_difference")
        return _fairness.worst_case(self.difference(("recall", pos_label), method),
                                    self.difference(("false_positive_rate", pos_label), method),
                                    agg=agg)

    def equalized_odds_ratio(self, pos_label: Hashable, method: Method = "between_groups",
                             agg: Literal["worst_case", "mean"] = "worst_case") -> float:
        """fairlearn's ``equalized_odds_ratio``: the smaller :meth:`ratio` of the true and the false
        positive rates (``agg="worst_case"``), or their mean."""
        pos_label = self._positive(pos_label, "equalized_odds_ratio")
        method = _fairness.check_method(method, "equalized_odds_ratio")
        agg = _fairness.check_agg(agg, "equalized_odds_ratio")
        return _fairness.worst_case(self.ratio(("recall", pos_label), method),
                                    self.ratio(("false_positive_rate", pos_label), method),
                                    agg=agg, larger=False)

    def equal_opportunity_difference(self, pos_label: Hashable,
                                     method: Method = "between_groups") -> float:
        """fairlearn's ``equal_opportunity_difference``: the :meth:`difference` of the true positive rates."""
        pos_label = self._positive(pos_label, "equal_opportunity_difference")
        method = _fairness.check_method(method, "equal_opportunity_difference")
        return self.difference(("recall", pos_label), method)

    def equal_opportunity_ratio(self, pos_label: Hashable,
                                method: Method = "between_groups") -> float:
        """fairlearn's ``equal_opportunity_ratio``: the :meth:`ratio` of the true positive rates."""
        pos_label = self._positive(pos_label, "equal_opportunity_ratio")
        method = _fairness.check_method(method, "equal_opportunity_ratio")
        return self.ratio(("recall", pos_label), method)

    # Reports ----------------------------------------------------------------------------------

    def scores(self, scores: Iterable[Score] = DEFAULT_SCORES, *,
               pos_label: Hashable | None = None) -> dict[str, Any]:
        """The scores by group, over every result and their disparities, as plain Python data.

        For each score of ``scores``: its value in each group and overall, its
        least and greatest group value with the groups where they are reached,
        its :meth:`difference` and :meth:`ratio` both ways. With ``pos_label``,
        the selection rate and the true and false positive rates of that
        category are added, and fairlearn's fairness scores of it
        (``"fairness"``). ``None`` stands for NaN and for what does not
        exist, so the result is valid JSON; groups and categories are written
        as :meth:`to_dict` writes them. This is what :meth:`report` renders.
        """
        return summary(self, scores, self._chosen_positive(pos_label, "scores"), "scores")

    def report(self, digits: int = 3, *, scores: Iterable[Score] = DEFAULT_SCORES,
               pos_label: Hashable | None = None) -> str:
        """A table of each score by group and overall, then the disparities of each score.

        >>> g = GroupedContingency([0, 1], zero_division=0.0).add_results(
        ...     [1, 0, 1, 1, 0, 0], [1, 1, 0, 1, 0, 0], groups=["a", "a", "a", "b", "b", "b"])
        >>> print(g.report(scores=["micro_f1"], pos_label=1))
        group    results  micro_f1  selection_rate(1)  recall(1)  false_positive_rate(1)
        <BLANKLINE>
        a              3     0.333              0.667      0.500                   1.000
        b              3     1.000              0.333      1.000                   0.000
        <BLANKLINE>
        overall        6     0.667              0.500      0.667                   0.333
        <BLANKLINE>
        disparity                 min group    max group  difference  to overall  ratio  to overall
        <BLANKLINE>
        micro_f1                0.333 a      1.000 b           0.667       0.333  0.333       0.500
        selection_rate(1)       0.333 b      0.667 a           0.333       0.167  0.500       0.667
        recall(1)               0.500 a      1.000 b           0.500       0.333  0.500       0.667
        false_positive_rate(1)  0.000 b      1.000 a           1.000       0.667  0.000       0.000
        <BLANKLINE>
        fairness of category 1 (fairlearn's names)  between groups  to overall
        demographic_parity_difference                        0.333       0.167
        demographic_parity_ratio                             0.500       0.667
        equalized_odds_difference                            1.000       0.667
        equalized_odds_ratio                                 0.000       0.000
        equal_opportunity_difference                         0.500       0.333
        equal_opportunity_ratio                              0.500       0.667
        """
        digits = _report.check_digits(digits, "report")  # (before anything is read)
        return _report.grouped_report(
            summary(self, scores, self._chosen_positive(pos_label, "report"), "report"),
            digits=digits)

    def to_frame(self, scores: Iterable[Score] = DEFAULT_SCORES) -> Any:
        """The scores by group as a ``pandas.DataFrame``: one row per group, ``n_results`` and one
        column per score (fairlearn's ``MetricFrame.by_group``).

        Tuple groups (several features) make a ``MultiIndex``; the index of
        single groups is named ``"group"``. pandas is imported only here.

        >>> g = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["a", "b"])
        >>> print(g.to_frame(["micro_f1"]).to_string())
               n_results  micro_f1
        group
        a              1       1.0
        b              1       0.0
        """
        self._in_order()
        chosen = chosen_scores(scores, None, "to_frame")
        for score in chosen:  # each category named a category, before anything is read
            self._reader(score, "to_frame")
        columns: dict[str, list[Any]] = {
            "n_results": list(self._per_group(operator.attrgetter("n_results")).values())}
        for score in chosen:
            values = self.by_group(score)
            columns[score_name(score)] = [values[key] for key in self._groups]
        return group_frame(list(self._groups), columns)

    # State ------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-safe data: the settings, the groups and each group's ``Contingency.to_dict()``.

        Format ``"contingency.GroupedContingency/1"``: ``categories`` (the
        overall accumulator's, in its table order; the first ``declared`` of
        them declared), ``unknown``, ``zero_division``, ``groups`` (in order,
        the first ``declared_groups`` of them declared; a tuple group is a
        list) and ``states``, each group's :meth:`Contingency.to_dict`. The
        overall accumulator is their sum, rebuilt by :meth:`from_dict`.

        >>> g = GroupedContingency(groups=["a"]).add_results(["x", "y"], ["x", "x"],
        ...                                                  groups=["b", ("c", 1)])
        >>> state = g.to_dict()
        >>> state["groups"], state["categories"]
        (['a', 'b', ['c', 1]], ['x', 'y'])
        >>> GroupedContingency.from_dict(state) == g
        True
        """
        self._in_order()
        return write_state(self._overall._counts.a, len(self._categories), self._unknown,
                           self._zero_division, self._groups, len(self._declared))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False) -> GroupedContingency:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any state no calls could make.

        Each group's state is checked as :meth:`Contingency.from_dict` checks
        it, and must have the document's settings; refused too (``ValueError`` starting
        ``from_dict:``): an undeclared group without a result, a repeated
        group, a ``set_entries`` offset (no call of this class makes one), a
        category the groups do not name or a named one missing from
        ``categories``.

        >>> GroupedContingency.from_dict({"format": "contingency.GroupedContingency/1",
        ...     "categories": [], "declared": 0, "unknown": "add", "zero_division": "perl",
        ...     "groups": ["a"], "declared_groups": 0, "states": [Contingency().to_dict()]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: group 'a' was not declared and holds no result (such a group is
        forgotten, never stored)
        """
        state = read_state(data)
        result = cls(state.categories[:state.declared], groups=list(state.groups)[:state.declared_groups],
                     unknown=state.unknown, zero_division=state.zero_division,
                     thread_safe=thread_safe)
        overall = result._overall  # the groups' sum: a merge of them into an empty accumulator
        result._commit(_change(overall, state.total, state.unit, removing=False,
                               new=state.categories[state.declared:]), _each([]), [],
                       removing=False)
        result._adopt(overall, state.groups)
        return result


#: add_result as written above: the specification of the kernel's, which takes its place when
#: the kernel is built (the same steps in C; tests/test_grouped_kernel.py runs both).
add_result_reference = GroupedContingency.add_result
GroupedContingency.add_result = _backend.compiled_grouped_add_result(  # type: ignore[method-assign]
    add_result_reference, SINGLE, GroupedContingency, Contingency)


def write_group_pairs_reference(accumulators: Sequence[Contingency], pairs: GroupPairs,
                                labels: Sequence[Hashable],
                                fresh: Mapping[int, Sequence[Hashable]], unit: int,
                                removing: bool) -> None:
    """Write a batch's single-label results into each of its groups: the groups' part of a
    batch, one call for every group (the kernel's, contingency/_kernel_grouped.pxi, loops over
    them in C).

    Group ``g`` is ``accumulators[g]``; ``pairs`` gives each group's distinct
    (correct, assigned) pairs, coded as ``labels`` (the whole's categories)
    codes them, and their counts in units of ``2**-unit``, negated when
    ``removing``; ``fresh[g]`` are the categories new to group ``g``, in the
    order its rows met them (they join it first). Each group is written by
    :func:`write_group_reference`. O(pairs).
    """
    group, pair, total = pairs
    if not len(group):
        return
    cuts = (np.flatnonzero(np.diff(group)) + 1).tolist()
    for start, stop in zip([0, *cuts], [*cuts, len(group)]):
        code = int(group[start])
        write_group_reference(accumulators[code], pair[start:stop], total[start:stop], labels,
                              fresh.get(code, ()), unit, removing)


def write_group_reference(accumulator: Contingency, keys: NDArray[np.int64], counts: NDArray[Any],
                          labels: Sequence[Hashable], new: Sequence[Hashable], unit: int,
                          removing: bool) -> None:
    """One group's pairs (``correct << PAIR_SHIFT | assigned`` codes of ``labels``, and their
    counts), its categories ``new`` joining first: the changes those results make, written by its
    counts' one write routine (:meth:`~contingency._counts.Counts.apply`)."""
    named = {(labels[pair >> PAIR_SHIFT], labels[pair & PAIR_LOW]): count
             for pair, count in zip(keys.tolist(), counts.tolist())}
    _change(accumulator, pair_changes(named), unit, removing=removing, new=new)()


#: The groups' part of a batch of single labels: the kernel's loop over them, or the routine as
#: written above (tests/test_grouped_kernel.py runs both).
GroupedContingency._write_group_pairs = staticmethod(
    _backend.compiled_write_group_pairs(write_group_pairs_reference, write_group_reference))


def copies_reference(accumulator: Contingency, count: int) -> list[Contingency]:
    """``count`` copies of ``accumulator`` (GroupedContingency's new groups, copies of one empty
    accumulator): its ``copy()`` each (the kernel's, contingency/_kernel_grouped.pxi, clones one
    copy in C)."""
    return [accumulator.copy() for _ in range(count)]


_copies = _backend.compiled_copies(copies_reference, Contingency, Counts)


def _each(parts: Iterable[Callable[[], object]]) -> Callable[[], None]:
    """A call that makes each of ``parts`` in turn."""
    def call() -> None:
        for part in parts:
            part()
    return call


def _change(accumulator: Contingency, changes: Changes, unit: int, *, removing: bool,
            **options: Any) -> Callable[[], None]:
    """The part that writes ``changes`` (counts in units of ``2**-unit``) into ``accumulator``'s
    counts, negated when ``removing``, through their one write routine."""
    counts = accumulator._counts
    scale = max(counts.scale, unit)
    factor = (-1 if removing else 1) << (scale - unit)
    where = "remove_results" if removing else ""
    return lambda: counts.apply(*times(changes, factor), scale=scale, removing=removing,
                                where=where, **options)


def _batch_call(accumulator: Contingency, method: str, arguments: list[Any]) -> Callable[[], object]:
    assigned, correct, weights = arguments
    call = getattr(accumulator, method)
    return lambda: call(assigned, correct, weights=weights)


def _merge_call(accumulator: Contingency, other: Contingency) -> Callable[[], object]:
    return lambda: accumulator.merge(other)


def _interval_or_none(accumulator: Contingency, score: Score, level: float,
                      method: str) -> Interval | None:
    """``accumulator.interval(score, ...)``, or ``None`` where the interval is refused for its counts."""
    try:
        return accumulator.interval(score, level=level, method=method)
    except IntervalRefused:
        return None
