"""Contingency: a streaming accumulator of category decisions (Statistics::Contingency for Python).

Where counts change: :meth:`Contingency._apply`, and nowhere else. Every
write builds the changes of the per-category cells and of the result shapes
and hands them to it: a result (weight +1), a removal (the same cells with
weight -1), a batch of label arrays or indicator matrices (aggregated with
numpy), a merge (the other's counts), :meth:`Contingency.set_entries` (the
micro offset), :meth:`Contingency.from_dict` (a merge into an empty
accumulator). :meth:`Contingency.add_result`'s fast paths are a way of
calling it: they count into a small :class:`contingency._changes.Tally` (dict
increments only), which is folded through ``_apply`` before any read and any
other write. How each kind of input becomes cell changes is
:mod:`contingency._changes`'s business.

State, all of it exact integer counts:

- per category, keyed by the category itself, in table order (declared
  categories first, then as first seen): cells ``a`` (assigned and
  correct), ``b`` (assigned, not correct) and ``c`` (correct, not
  assigned). Cell ``d = n_results - a - b - c`` is derived, which is also
  what makes a category that joins an open set late count as "neither
  assigned nor correct" for every earlier result. A category that was not
  declared and whose cells all return to zero is forgotten;
- the number of results, and the histogram of result shapes
  ``(both, assigned, correct)`` (see :mod:`contingency.formulas.classification`):
  it gives every per-result score (samples averages, subset accuracy) in
  time independent of the number of results;
- the single-label results (one category assigned, one correct) by pair
  ``(correct, assigned)``, no zero entries: the confusion matrix, sparse. They
  are also in the cells and the shapes (``HIT`` and ``MISS``), whose counts
  tell in O(1) whether every result is single-label, which the confusion
  matrix and its scores need;
- the micro table ``(a, b, c, d)``: the per-category cells summed, plus what
  :meth:`Contingency.set_entries` set on top of them (the offset, also kept);
- running sums over categories (:mod:`contingency._category_sums`): per
  score, the exact sum of its per-category values, and how many categories
  have each total ``a + b + c`` (which a removal checks against the number
  of results), brought up to date for the categories that changed; and
  for the confusion matrix's scores, the sums over categories of ``t p``,
  ``t**2`` and ``p**2`` (``t = a + c``, ``p = a + b``: its row and column
  totals when every result is single-label).

Every score is one call into :mod:`contingency.formulas.classification`: a
micro score reads the micro table, a macro or weighted average of
precision, recall or F1 the running sums, macro accuracy and error the
pooled cells, all in constant time; the printed tables are
:mod:`contingency.report`'s.
"""

from __future__ import annotations

import copy as _copy
import functools
import operator
import reprlib
from collections import _count_elements as _count  # type: ignore[attr-defined]
from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Literal, TypeVar

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import _locking
from contingency import report as _report
from contingency._category_sums import (
    KINDS,
    CategorySums,
    CategoryTotals,
    MarginSums,
    kind_sums,
    kinds_of,
)
from contingency._changes import (
    HIT,
    MISS,
    SMALL_CODE,
    Cells,
    Changes,
    Pairs,
    Shape,
    Staging,
    Tally,
    Unknown,
    indicator_changes,
    label_array_changes,
    members,
    result_changes,
    take_back,
)
from contingency._frame import category_frame
from contingency._inputs import check_same_length, exact_weight, exact_weights, label_sequence
from contingency._labels import check_label, label_to_json, sorted_labels
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
from contingency.formulas import classification as _formulas
from contingency.formulas._numeric import (
    MAX_COUNT,
    MAX_SCALE,
    ZeroDivision,
    average,
    check_count,
    check_room,
    check_zero_division,
)

__all__ = ["Contingency"]

Average = Literal["micro", "macro", "weighted", "samples"]
Correlation = Literal["micro", "macro", "multiclass"]

_UNKNOWN_POLICIES = ("error", "ignore", "add")
_AVERAGES = ("micro", "macro", "weighted", "samples")
_FORMAT = "contingency.Contingency/2"
_NO_CATEGORY = "No category information has been recorded"
# _count is Counter.update's helper: mapping[x] = mapping.get(x, 0) + 1 for each x of an
# iterable, in C on CPython (collections keeps a pure-Python version for other implementations).
_UNIT = 1  # add_result's default weight: the fast paths serve it (tested by identity)
_PLAIN = frozenset({list, tuple, set, frozenset})  # containers add_result's fast path takes
_RESULTS = "results (one item per result)"
# add_result's fast paths count results unchecked until a read folds them: they are taken
# only while fewer results than this are counted, so that the results they tally cannot
# reach MAX_COUNT (that would take 2**62 calls; past it, each result is checked), and a
# fold, which hands the tally's dicts over, is never refused.
_FAST_LIMIT = 1 << 62
# The changes of one single-label result that add_result hands to _apply at once: the
# parts _apply neither keeps nor changes are shared (the pairs, which it may keep, are not).
_NONE: Cells = {}
_ONE_HIT: dict[Shape, int] = {HIT: 1}
_ONE_MISS: dict[Shape, int] = {MISS: 1}  # what add_results' sequences hold
_SCORES = {
    "precision": _formulas.precision,
    "recall": _formulas.recall,
    "f1": _formulas.f1,
    "accuracy": _formulas.accuracy,
    "error": _formulas.error,
}
_SCALAR_F1 = _formulas.SCALAR["f1"]
_SCALAR_PRECISION = _formulas.SCALAR["precision"]
_SCALAR_RECALL = _formulas.SCALAR["recall"]
_Self = TypeVar("_Self", bound="Contingency")


def _check_unknown(value: object, name: str = "unknown") -> Unknown:
    if not isinstance(value, str) or value not in _UNKNOWN_POLICIES:  # an array compares per item
        raise ValueError(f"{name} must be 'error', 'ignore' or 'add', not {reprlib.repr(value)}")
    return value  # type: ignore[return-value]


def _check_average(value: object) -> Average:
    if value not in _AVERAGES:
        raise ValueError(f"average must be one of {', '.join(_AVERAGES)}, not {value!r}")
    return value  # type: ignore[return-value]


@attrs.define(init=False, eq=False, repr=False)
class Contingency:
    """Precision, recall, F1, accuracy and error of category decisions, micro and macro averaged.

    The successor of Perl's Statistics::Contingency: feed it results one at a
    time with :meth:`add_result` (multi-label: each result names any number of
    assigned and correct categories), or in batches with :meth:`add_results`,
    and read any score at any moment, in constant time.

    >>> s = Contingency(["sports", "politics", "science"])
    >>> s.add_result("sports", "sports")
    >>> s.add_result(["sports", "science"], ["science"])
    >>> s.add_result("politics", "science")
    >>> s.n_results, s.micro_precision, s.micro_recall
    (3, 0.5, 0.6666666666666666)
    >>> print(s.stats_table(), end="")
    +---------------------------------------------+
    |   maR   maP  maF1    miR   miP  miF1    Err |
    | 0.833 0.500 0.444  0.667 0.500 0.571  0.333 |
    +---------------------------------------------+

    Parameters
    ----------
    categories:
        The categories results may name, in the order tables and indicator
        matrices use (a mapping's keys count, as in Perl; a set's members are
        sorted, since its order changes with the hash seed). ``None`` (the
        default) leaves the set open: a category joins when first seen (the
        new categories of one result side given as a set in sorted order), and
        counts as "neither assigned nor correct" (cell d) for every earlier
        result; it is forgotten again when removals take its cells back to
        zero. An empty iterable declares an empty set.
    verbose:
        Print one line per result, as Perl does: ``name: assigned=(...) correct=(...)``.
    unknown:
        What a result naming a category outside a declared set does:
        ``"error"`` raises ``ValueError`` naming it (the accumulator stays as it
        was), ``"ignore"`` skips it (Perl's behaviour), ``"add"`` adds it to the
        set. An open set (``categories=None``) always adds.
    zero_division:
        The value of undefined ratios: ``"perl"`` for Statistics::Contingency's
        conventions and arithmetic, or scikit-learn's ``0.0``, ``1.0`` or ``"nan"``
        (see :mod:`contingency.formulas.classification` for each score's rule).
    thread_safe:
        Make every public call atomic with a lock (see Notes).

    Notes
    -----
    Threads: an accumulator is not thread-safe by default. Two threads
    sharing one (even one writing while another reads: reads fold pending
    counts) can lose counts and corrupt it without an error (counts that do
    not add up, scores out of range, a ``to_dict`` that :meth:`from_dict`
    refuses). Give each thread its own
    accumulator and :meth:`merge` them at the end (exact: merge is
    addition); or pass ``thread_safe=True``, which makes every public method
    and property hold a reentrant lock for the whole call (a few tenths
    of a microsecond per call, measured by the benchmark suite's "lock cost"
    case; the default class has no lock and pays nothing).
    :meth:`copy`, ``+`` and pickling keep the option; equality ignores it.
    A thread-safe accumulator passed to another's :meth:`merge`, ``+`` or
    ``==``, pickled or copied is read under its own lock.

    >>> shared = Contingency(thread_safe=True)
    >>> shared.thread_safe, isinstance(shared, Contingency)
    (True, True)
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    _a: Cells  # per category, in table order: assigned and correct
    _b: Cells  # assigned, not correct
    _c: Cells  # correct, not assigned
    _declared: frozenset[Hashable]  # declared categories: first in the table, never forgotten
    _n: int  # results
    _scale: int  # every count is in units of 2**-_scale (0 until a fractional weight arrives)
    _shapes: dict[Shape, int]  # results by shape (both, assigned, correct); no zero entries
    _micro: list[int]  # the micro table a, b, c, d: pooled cells plus the offset
    _offset: list[int]  # what set_entries put on top of the pooled cells
    _pairs: Pairs  # single-label results by (correct, assigned); no zero entries
    # Running sums over categories, each made by the first read that needs it (then every
    # category is pending once): per score ("f1", "weighted f1", ...), and the categories by
    # total a + b + c, which removals check.
    _sums: dict[str, CategorySums]
    _totals: CategoryTotals | None
    _margins: MarginSums | None  # sum t p, sum t**2, sum p**2 for the confusion matrix's scores
    _stale: tuple[set[Hashable], ...]  # their sets of categories changed since each was read
    _tally: Tally  # add_result's fast paths, folded through _apply before anything else
    _right: Cells  # the tally's own dicts of single-label results, bound here for the
    _wrong: Pairs  # fast path (one attribute load instead of two)
    # True when nothing has been tallied since the last fold: the reads then skip the
    # fold. Whatever the tally takes makes it False.
    _settled: bool
    # True when a read came after the last result the fast path took (a learning curve
    # reads after every result): the next single-label result then goes to _apply at once,
    # where the tally would make it pay a fold as well. A hint for speed only.
    _read: bool
    _unknown: Unknown
    _zero_division: ZeroDivision
    _verbose: bool
    # True when add_result must take the general path for every result: verbose, or the
    # results counted reach FAST_LIMIT, near enough the count limit that results tallied
    # unchecked could cross it (the general path checks each one before counting it).
    _slow: bool

    def __init__(
        self,
        categories: Iterable[Hashable] | None = None,
        *,
        verbose: bool = False,
        unknown: Unknown = "error",
        zero_division: ZeroDivision = "perl",
        thread_safe: bool = False,
    ) -> None:
        policy = _check_unknown(unknown)
        mode = check_zero_division(zero_division)
        if isinstance(categories, (str, bytes)):
            raise TypeError("categories must be an iterable of category names, not a single "
                            f"string {categories!r}; wrap it in a list")
        labels: list[Hashable] = []
        if categories is None:
            policy = "add"
        else:
            if not isinstance(categories, Iterable):
                raise TypeError("categories must be an iterable of category names or None, "
                                f"not {type(categories).__name__}")
            if isinstance(categories, AbstractSet):  # iteration order follows the hash seed
                categories = sorted_labels(categories)
            for position, label in enumerate(categories):
                labels.append(check_label(label, f"categories[{position}]"))
        self._unknown, self._zero_division, self._verbose = policy, mode, bool(verbose)
        declared = list(dict.fromkeys(labels))
        self._declared = frozenset(declared)
        self._a = dict.fromkeys(declared, 0)
        self._clear()

    def __new__(cls: type[_Self], *args: Any, thread_safe: bool = False, **kwargs: Any) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def _clear(self) -> None:
        """Keep the declared categories, with zero counts; forget everything else."""
        declared = [label for label in self._a if label in self._declared]
        self._a, self._b, self._c = (dict.fromkeys(declared, 0) for _ in range(3))
        self._n = 0
        self._scale = 0
        self._choose_paths()
        self._shapes = {}
        self._micro = [0, 0, 0, 0]
        self._offset = [0, 0, 0, 0]
        self._pairs = {}
        self._sums, self._totals, self._margins, self._stale = {}, None, None, ()
        self._tally = tally = Tally()
        self._right, self._wrong = tally.right, tally.wrong
        self._settled = True
        self._read = False  # no read yet: a stream's first results are tallied

    # Feeding ------------------------------------------------------------------------------

    def add_result(self, assigned: object, correct: object, name: object = None, *,
                   weight: float = 1) -> None:
        """Add one result: the categories a classifier assigned, and the correct ones.

        Each side is a single category (a ``str`` is one category, never a
        sequence of characters; so is any non-iterable hashable), an iterable
        of categories (duplicates count once), or a mapping whose keys with
        truthy values are the categories. ``name`` is only used by ``verbose``.
        ``weight`` counts the result that many times: an integer is exactly
        that many repeats, a non-negative finite float is counted exactly (see
        :attr:`n_results`). On any error the accumulator is left exactly as it was.

        >>> s = Contingency()
        >>> s.add_result("cat", "cat")
        >>> s.add_result({"cat": True, "dog": False}, ["dog", "dog"])
        >>> s.categories, s.n_results, s.micro_f1
        (('cat', 'dog'), 2, 0.5)
        >>> s.add_result("dog", "dog", weight=2)
        >>> s.n_results, s.micro_f1
        (4, 0.75)
        """
        if weight is not _UNIT:  # weight=1 (the default) takes the fast paths below
            self._single(assigned, correct, name, weight, removing=False)
            return
        # Fast paths for the common shapes of input, when every label is already in the
        # table: dict increments into the tally, which _fold hands to _apply before any
        # read or other write. Anything else (an unknown, unhashable or invalid label, a
        # mapping, verbose) takes the general path, which calls _apply at once.
        # test_contingency checks that every path gives one state.
        if type(assigned) is str:
            if type(correct) is str and not self._slow:
                # A label the tally has not met since the last fold is tallied if it is in
                # the table (which unsettles the accumulator: the reads then fold), else the
                # general path takes the result. (dict.get, not a KeyError: right after a
                # read the tally is empty, and raising costs more.) But the first result
                # after a read (a learning curve reads after every result) goes to _apply
                # at once: tallied, it would pay a fold as well.
                if assigned == correct:
                    right = self._right
                    count = right.get(assigned)
                    if count is not None:
                        right[assigned] = count + 1
                        return
                    if assigned in self._a:
                        if self._read and not self._scale:
                            self._read = False
                            self._apply({assigned: 1}, _NONE, _NONE, _ONE_HIT,
                                        {(assigned, assigned): 1})
                        else:
                            right[assigned] = 1
                            self._settled = False
                        return
                else:
                    wrong = self._wrong
                    pair = (correct, assigned)
                    count = wrong.get(pair)
                    if count is not None:
                        wrong[pair] = count + 1
                        return
                    known = self._a
                    if assigned in known and correct in known:
                        if self._read and not self._scale:
                            self._read = False
                            self._apply(_NONE, {assigned: 1}, {correct: 1}, _ONE_MISS,
                                        {pair: 1})
                        else:
                            wrong[pair] = 1
                            self._settled = False
                        return
        elif not self._slow:
            # Multi-label: two sets, taken as they are (checked first: the common case),
            # or lists, tuples and frozensets, copied to sets (duplicates count once).
            chosen: Any = assigned
            truth: Any = correct
            if type(chosen) is not set or type(truth) is not set:
                try:
                    if type(chosen) in _PLAIN and type(truth) in _PLAIN:
                        chosen, truth = set(chosen), set(truth)
                    else:
                        chosen = None
                except TypeError:
                    chosen = None  # an unhashable label: the general path names it
            if chosen is not None and len(chosen) == 1 == len(truth):
                # One category a side in a container: tallied by pair, as above.
                (label,), (other,) = chosen, truth
                known = self._a
                if label in known and other in known:
                    self._settled = False
                    if label == other:
                        right = self._right
                        right[label] = right.get(label, 0) + 1
                    else:
                        wrong = self._wrong
                        wrong[other, label] = wrong.get((other, label), 0) + 1
                    return
            elif chosen is not None:
                known = self._a
                tally = self._tally
                totals_assigned, totals_correct = tally.assigned, tally.correct
                size = len(totals_assigned) + len(totals_correct)
                _count(totals_assigned, chosen)
                _count(totals_correct, truth)
                # A label the tally had not met since the last fold may be unknown: check
                # the result then (set.difference(dict) looks each member up in C), and
                # take its tallies back if so. Between reads the tally soon holds every
                # label in use, and the check is skipped.
                if (len(totals_assigned) + len(totals_correct) == size
                        or not (chosen.difference(known) or truth.difference(known))):
                    both = chosen & truth
                    _count(tally.both, both)
                    try:  # IndexError: more than three categories on a side
                        code: Any = SMALL_CODE[len(chosen)][len(truth)] + len(both)
                    except IndexError:
                        code = (len(both), len(chosen), len(truth))
                    shapes = tally.shapes
                    shapes[code] = shapes.get(code, 0) + 1
                    self._settled = False
                    return
                for totals, labels in ((totals_assigned, chosen), (totals_correct, truth)):
                    for label in labels:
                        take_back(totals, label)
        self._single(assigned, correct, name, 1, removing=False)

    def _single(self, assigned: object, correct: object, name: object, weight: object, *,
                removing: bool) -> None:
        """Add (or take back) one result ``weight`` times: the general path of one result."""
        where = "remove_result" if removing else "add_result"
        m, k = exact_weight(weight, f"{where}: weight")
        staging = Staging(self._a, self._unknown, removing=removing)
        result = (staging.labels(assigned, "assigned"), staging.labels(correct, "correct"))
        self._fold()
        if self._verbose and not removing:
            self._say(name, assigned, correct)
        unit = max(self._scale, k)
        count = m << (unit - k)
        self._apply(*result_changes([result], -count if removing else count),
                    new=staging.new, removing=removing, where=where if removing else "",
                    scale=unit)

    def remove_result(self, assigned: object, correct: object, *, weight: float = 1) -> None:
        """Take back a result added earlier (for sliding windows): the same path with weight -1.

        Costs O(categories the result names). Raises ``ValueError`` (leaving the
        accumulator unchanged) when no such result can have been added: a
        category never recorded, or a count that would go below zero (a cell,
        a result shape, a category named by more results than would remain,
        the micro table set by :meth:`set_entries`). A category that was not
        declared and that no result names any more is forgotten, so adding and
        then removing a result gives back exactly the state before.

        ``weight`` takes it back that many times (or that fraction of it).

        >>> s = Contingency(["x", "y"])
        >>> s.add_result("x", "y")
        >>> s.add_result("y", "y")
        >>> s.remove_result("x", "y")
        >>> s == Contingency(["x", "y"]).add_results(["y"], ["y"])
        True
        """
        self._single(assigned, correct, None, weight, removing=True)

    def add_results(self, assigned: Any, correct: Any, weights: Any = None) -> Contingency:
        """Add a batch of results; the state equals that of the matching :meth:`add_result` loop.

        ``assigned`` and ``correct`` are one of

        - two equal-length sequences whose items are anything :meth:`add_result` takes;
        - two 1-d numpy arrays of single labels (counted without a Python loop);
        - two 2-d 0/1 (or boolean) indicator matrices of shape (results,
          categories), columns in the order of :attr:`categories`.

        ``weights`` (one non-negative number per result, or ``None`` for 1
        each) counts each result that many times, exactly, as
        :meth:`add_result`'s ``weight`` does (label arrays and indicator
        matrices stay vectorised). The whole batch is checked before anything
        is counted. Returns the accumulator, so calls chain.
        (:meth:`from_labels` is the same call in scikit-learn's order:
        ``y_true`` first.)

        >>> import numpy as np
        >>> s = Contingency(["a", "b", "c"]).add_results(np.array(["a", "b", "b"]),
        ...                                              np.array(["a", "b", "c"]))
        >>> s.n_results, s.micro_f1
        (3, 0.6666666666666666)
        >>> t = Contingency(["a", "b"]).add_results(np.array([[1, 1], [0, 1]]),
        ...                                         np.array([[1, 0], [0, 1]]))
        >>> t.micro_precision, t.subset_accuracy
        (0.6666666666666666, 0.5)
        >>> Contingency().add_results(["a", "b"], ["a", "a"], weights=[0.75, 0.25]).micro_precision
        0.75
        """
        self._batch(assigned, correct, weights, removing=False)
        return self

    def remove_results(self, assigned: Any, correct: Any, weights: Any = None) -> Contingency:
        """Take back a batch of results added earlier: :meth:`add_results`' path with weight -1.

        Takes what :meth:`add_results` takes, ``weights`` too. The whole batch is checked
        before anything is counted: if any of its results cannot have been
        added (see :meth:`remove_result`), ``ValueError`` is raised and the
        accumulator is left exactly as it was. Returns the accumulator.

        >>> s = Contingency().add_results(["x", "y", "y"], ["x", "x", "y"])
        >>> s.remove_results(assigned=["y", "x"], correct=["x", "x"])
        Contingency(categories=1, n_results=1, unknown='add', zero_division='perl')
        >>> s == Contingency().add_results(["y"], ["y"])
        True
        """
        self._batch(assigned, correct, weights, removing=True)
        return self

    def _batch(self, assigned: Any, correct: Any, weights: Any, *, removing: bool) -> None:
        """Count (or take back, ``removing``) a batch given as :meth:`add_results` takes it."""
        self._fold()
        name = "remove_results" if removing else "add_results"
        where = name if removing else ""
        say = self._verbose and not removing
        arrays = isinstance(assigned, np.ndarray) and isinstance(correct, np.ndarray)
        if not arrays:
            assigned = label_sequence(assigned, "assigned", _RESULTS)
            correct = label_sequence(correct, "correct", _RESULTS)
            check_same_length(assigned, correct, ("assigned", "correct"))
        unit, exact = self._scale, None
        if weights is not None:
            exact, unit = exact_weights(weights, len(assigned), name, self._scale)
        # Each result counts 2**unit (or its weight) in units of 2**-unit; negated to remove.
        factor = (-1 if removing else 1) << (unit if exact is None else 0)
        if arrays:
            if assigned.ndim == 2 or correct.ndim == 2:
                labels = list(self._a)
                changes = indicator_changes(assigned, correct, labels, exact)
                self._apply(*_times(changes, factor), removing=removing, where=where,
                            scale=unit)
                if say:
                    for row in range(assigned.shape[0]):
                        self._say(row, [labels[j] for j in np.flatnonzero(assigned[row])],
                                  [labels[j] for j in np.flatnonzero(correct[row])])
                return
            if (assigned.ndim == 1 and correct.ndim == 1 and assigned.dtype != object
                    and correct.dtype != object and not say):
                staging = Staging({label: position for position, label in enumerate(self._a)},
                                  self._unknown, removing=removing)
                changes = label_array_changes(assigned, correct, staging, exact)
                self._apply(*_times(changes, factor), new=staging.new, removing=removing,
                            where=where, scale=unit)
                return
        assigned_items = label_sequence(assigned, "assigned", _RESULTS)
        correct_items = label_sequence(correct, "correct", _RESULTS)
        staging = Staging(self._a, self._unknown, removing=removing)
        results = [
            (staging.labels(a, f"assigned[{row}]"), staging.labels(c, f"correct[{row}]"))
            for row, (a, c) in enumerate(zip(assigned_items, correct_items))
        ]
        if say:
            for row, (a, c) in enumerate(zip(assigned_items, correct_items)):
                self._say(row, a, c)
        counts = factor if exact is None else [factor * w for w in exact.tolist()]
        self._apply(*result_changes(results, counts), new=staging.new, removing=removing,
                    where=where, scale=unit)

    @classmethod
    def from_labels(cls, y_true: Any, y_pred: Any, *,
                    categories: Iterable[Hashable] | None = None, sample_weight: Any = None,
                    unknown: Unknown = "error", zero_division: ZeroDivision = "perl",
                    verbose: bool = False, thread_safe: bool = False) -> Contingency:
        """A new accumulator of a batch given in scikit-learn's order: the truth first.

        Side by side, these two are the same::

            Contingency.from_labels(y_true, y_pred, categories=cats, sample_weight=w, ...)
            Contingency(cats, ...).add_results(assigned=y_pred, correct=y_true, weights=w)

        ``y_true`` (the correct categories, :meth:`add_results`' ``correct``)
        and ``y_pred`` (the assigned ones, ``assigned``) are what
        :meth:`add_results` takes: 1-d label arrays or sequences, or 2-d 0/1
        indicator matrices (multi-label). ``categories=None`` leaves the set
        open (categories in the order first seen), except for indicator
        matrices, whose columns are then the categories ``0 .. K-1``, as in
        scikit-learn. ``sample_weight`` is scikit-learn's (counted exactly, see
        :meth:`add_results`' ``weights``); a label met only in results of weight
        0 counts nowhere, so to include it in macro averages as scikit-learn
        does, name it in ``categories``. The settings are those of :class:`Contingency`
        (``zero_division="perl"`` by default; ``0.0`` gives scikit-learn's
        default numbers).

        >>> s = Contingency.from_labels(["cat", "dog", "dog"], ["cat", "cat", "dog"],
        ...                             zero_division=0.0)
        >>> s.micro_precision, s.macro_recall   # scikit-learn: precision_score(y_true, y_pred, ...)
        (0.6666666666666666, 0.75)
        >>> s == Contingency(zero_division=0.0).add_results(assigned=["cat", "cat", "dog"],
        ...                                                 correct=["cat", "dog", "dog"])
        True
        """
        if (categories is None and isinstance(y_true, np.ndarray) and y_true.ndim == 2):
            categories = range(y_true.shape[1])
        result = cls(categories, unknown=unknown, zero_division=zero_division, verbose=verbose,
                     thread_safe=thread_safe)
        return result.add_results(assigned=y_pred, correct=y_true, weights=sample_weight)

    def set_entries(self, a: int, b: int, c: int, d: int) -> None:
        """Set the micro-level table directly, as Perl's ``set_entries`` does.

        Later results add to it. The per-category tables are untouched, so the
        macro statistics still describe the results added one by one. Each cell
        is a count of at most ``2**63 - 1``, the limit of every count (merges
        that would take what ``set_entries`` set past it are refused too).

        >>> s = Contingency()
        >>> s.set_entries(8, 2, 2, 88)
        >>> s.micro_precision, s.micro_accuracy
        (0.8, 0.96)
        """
        table = [check_count(value, name) for value, name in zip((a, b, c, d), "abcd")]
        for value, name in zip(table, "abcd"):
            check_room(0, value, f"in micro-table cell {name}")
        table = [value << self._scale for value in table]
        self._fold()
        change = [want - have for want, have in zip(table, self._micro)]
        self._apply({}, {}, {}, {}, {}, offset=change)

    # Combining ----------------------------------------------------------------------------

    def merge(self, other: Contingency) -> Contingency:
        """Add ``other``'s counts into this accumulator, in place; returns ``self``.

        The settings that decide what the counts mean must be equal:
        ``zero_division``, ``unknown`` and the declared categories, in the same
        order; otherwise ``ValueError`` names the setting that differs (no rule
        picks one side's: each choice would change some score or some later
        result silently). ``verbose`` is a display option, not a setting of the
        counts: this accumulator keeps its own. Categories that were not
        declared are aligned by name; a category only one side knows counts as
        "neither assigned nor correct" for the other side's results, as if one
        open accumulator had seen both streams. Counts kept in different units
        (fractional weights) are aligned exactly.

        >>> left = Contingency().add_results(["x", "y"], ["x", "x"])
        >>> right = Contingency().add_results(["z"], ["y"])
        >>> both = Contingency().add_results(["x", "y", "z"], ["x", "x", "y"])
        >>> left + right == both
        True
        """
        if not isinstance(other, Contingency):
            raise TypeError(f"can only merge a Contingency, not {type(other).__name__}")
        with _locking.holding(other):  # a thread-safe other side is read under its lock
            for setting, mine, theirs in (
                    ("zero_division", self._zero_division, other._zero_division),
                    ("unknown", self._unknown, other._unknown),
                    ("declared categories", self._declared_order(), other._declared_order())):
                if mine != theirs:
                    raise ValueError(f"cannot merge accumulators whose {setting} differ: "
                                     f"{mine!r} here, {theirs!r} in the other")
            return self._add_counts(other)

    def _add_counts(self, other: Contingency) -> Contingency:
        """Add ``other``'s counts, categories aligned by name, whatever its settings.

        :meth:`merge` once the settings agree; also the package's own batch
        helpers (:mod:`contingency.dask`), which count a batch over a table of
        their own making and add it here.
        """
        other._fold()
        if other is self:
            other = other.copy()
        self._fold()
        counted = [label for label in other._a
                   if other._a[label] or other._b[label] or other._c[label]]
        staging = Staging(self._a, "add", removing=False)
        for label in counted:
            staging.position(label, "other")
        unit = max(self._scale, other._scale)
        changes = ({label: other._a[label] for label in counted},
                   {label: other._b[label] for label in counted},
                   {label: other._c[label] for label in counted},
                   dict(other._shapes), dict(other._pairs))
        factor = 1 << (unit - other._scale)  # the two scales aligned
        self._apply(*_times(changes, factor), new=staging.new,
                    offset=[count * factor for count in other._offset], scale=unit)
        return self

    def __iadd__(self, other: Contingency) -> Contingency:
        return self.merge(other)

    def __add__(self, other: Contingency) -> Contingency:
        if not isinstance(other, Contingency):
            return NotImplemented
        return self.copy().merge(other)

    def copy(self) -> Contingency:
        """An independent accumulator with the same state and settings."""
        self._fold()
        return _copy.deepcopy(self)

    def __copy__(self) -> Contingency:
        return self.copy()  # copy.copy too: a shallow copy would share the counting dicts

    def reset(self) -> None:
        """Forget every result and ``set_entries``; keep the declared categories and settings."""
        self._clear()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Contingency):
            return NotImplemented
        with _locking.holding(other):
            return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"Contingency(categories={len(self._a)}, n_results={self.n_results}, "
                f"unknown={self._unknown!r}, zero_division={self._zero_division!r})")

    def __getstate__(self) -> dict[str, Any]:
        self._fold()
        return {name: getattr(self, name) for name in _SLOTS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _SLOTS:
            object.__setattr__(self, name, state[name])

    # What it holds ------------------------------------------------------------------------

    @property
    def categories(self) -> tuple[Hashable, ...]:
        """The categories, in table order: declared ones first, then as first seen."""
        self._fold()
        return tuple(self._a)

    @property
    def n_results(self) -> int | float:
        """The number of results added (not counting :meth:`set_entries`), weights included.

        An ``int`` while every weight counted has been whole; once a
        fractional weight has been counted (until :meth:`reset`), every count
        this accumulator reports (this one, :attr:`micro_table`, the cells
        and supports of :meth:`category_stats` and :meth:`scores`) is a
        ``float``: the exact count rounded once. The counts themselves stay
        exact (integers in units of ``2**-e``), and every score is computed
        from them.

        >>> s = Contingency().add_results(["a", "b"], ["a", "a"])
        >>> s.n_results
        2
        >>> s.add_result("a", "a", weight=0.5)
        >>> s.n_results, s.micro_table
        (2.5, (1.5, 1.0, 1.0, 1.5))
        """
        self._fold()
        return self._reported(self._n)

    @property
    def verbose(self) -> bool:
        """Whether each result added prints a line, as Perl's ``verbose`` does (settable)."""
        return self._verbose

    @verbose.setter
    def verbose(self, value: bool) -> None:
        self._verbose = bool(value)
        self._choose_paths()

    @property
    def zero_division(self) -> ZeroDivision:
        """The value of undefined ratios: ``"perl"``, ``0.0``, ``1.0`` or ``"nan"``."""
        return self._zero_division

    @property
    def unknown(self) -> Unknown:
        """What a result naming an unknown category does: ``"error"``, ``"ignore"`` or ``"add"``."""
        return self._unknown

    @property
    def micro_table(self) -> tuple[int | float, int | float, int | float, int | float]:
        """The micro-level cells ``(a, b, c, d)``: the per-category cells summed, plus :meth:`set_entries`.

        Weighted counts, reported as :attr:`n_results` says.
        """
        self._fold()
        a, b, c, d = (self._reported(cell) for cell in self._micro)
        return a, b, c, d

    # Micro and macro statistics (Perl's) ------------------------------------------------------

    @property
    def micro_accuracy(self) -> float:
        """``(a + d) / (a + b + c + d)`` of the micro table (1 when empty, in Perl mode)."""
        return self._micro_score("accuracy")

    @property
    def micro_error(self) -> float:
        """``(b + c) / (a + b + c + d)`` of the micro table (0 when empty, in Perl mode)."""
        return self._micro_score("error")

    @property
    def micro_precision(self) -> float:
        """``a / (a + b)`` of the micro table; see :func:`~contingency.formulas.classification.precision`."""
        if not self._settled:
            self._fold()
        self._read = True
        return _SCALAR_PRECISION(*self._micro, self._zero_division)

    @property
    def micro_recall(self) -> float:
        """``a / (a + c)`` of the micro table; see :func:`~contingency.formulas.classification.recall`."""
        if not self._settled:
            self._fold()
        self._read = True
        return _SCALAR_RECALL(*self._micro, self._zero_division)

    @property
    def micro_f1(self) -> float:
        """``2a / (2a + b + c)`` of the micro table; see :func:`~contingency.formulas.classification.f1`."""
        if not self._settled:
            self._fold()
        self._read = True
        return _SCALAR_F1(*self._micro, self._zero_division)

    @property
    def macro_accuracy(self) -> float:
        """Accuracy of each category's table, averaged over categories: ``(K n - B - C) / (K n)``.

        The exact mean of the categories' exact accuracies, rounded once, from
        the pooled cells: constant time. (It can differ in the last bit from
        averaging the per-category accuracies after rounding each.)
        """
        self._fold()
        _, b, c, _ = self._pooled()
        return _formulas.mean_accuracy(self._n, len(self._a), b + c,
                                       zero_division=self._zero_division)

    @property
    def macro_error(self) -> float:
        """Error of each category's table, averaged over categories: ``(B + C) / (K n)``.

        See :attr:`macro_accuracy`.
        """
        self._fold()
        _, b, c, _ = self._pooled()
        return _formulas.mean_error(self._n, len(self._a), b + c,
                                    zero_division=self._zero_division)

    @property
    def macro_precision(self) -> float:
        """Precision of each category's table, averaged over categories.

        Categories that no result named count too, as in Perl: their precision
        is 1 in Perl mode (nothing assigned, nothing missed).
        """
        return self._running_mean("precision")

    @property
    def macro_recall(self) -> float:
        """Recall of each category's table, averaged over categories."""
        return self._running_mean("recall")

    @property
    def macro_f1(self) -> float:
        """F1 of each category's table, averaged over categories."""
        return self._running_mean("f1")

    # Beyond Perl ------------------------------------------------------------------------------

    @property
    def weighted_precision(self) -> float:
        """Per-category precision averaged with each category's support (``a + c``) as weight."""
        return self._running_mean("precision", weighted=True)

    @property
    def weighted_recall(self) -> float:
        """Per-category recall averaged with each category's support as weight."""
        return self._running_mean("recall", weighted=True)

    @property
    def weighted_f1(self) -> float:
        """Per-category F1 averaged with each category's support as weight."""
        return self._running_mean("f1", weighted=True)

    @property
    def samples_precision(self) -> float:
        """Each result's precision ``|assigned ∩ correct| / |assigned|``, averaged over results."""
        return self._samples(_formulas.precision)

    @property
    def samples_recall(self) -> float:
        """Each result's recall ``|assigned ∩ correct| / |correct|``, averaged over results."""
        return self._samples(_formulas.recall)

    @property
    def samples_f1(self) -> float:
        """Each result's F1, averaged over results."""
        return self._samples(_formulas.f1)

    @property
    def subset_accuracy(self) -> float:
        """The share of results whose assigned categories are exactly the correct ones.

        >>> Contingency().add_results([["a", "b"], "a"], [["b", "a"], "b"]).subset_accuracy
        0.5
        """
        self._fold()
        return _formulas.subset_accuracy(*self._shape_columns(), zero_division=self._zero_division)

    @property
    def hamming_loss(self) -> float:
        """The share of (result, category) decisions that were wrong: ``(b + c) / (n_results × K)``.

        It is the error of the pooled per-category cells, which is
        :attr:`micro_error` unless :meth:`set_entries` was used.
        """
        self._fold()
        return float(_formulas.error(*self._pooled(), zero_division=self._zero_division))

    def f_beta(self, beta: float = 1.0, average: Average = "micro") -> float:
        """F-beta, where recall weighs ``beta`` times as much as precision, averaged as asked.

        ``average`` is ``"micro"`` (of the micro table), ``"macro"``,
        ``"weighted"`` (by support) or ``"samples"`` (over results).
        Undefined values follow :attr:`zero_division`. With ``beta = 1`` this
        is F1, read in constant time; other betas average over the categories
        (or result shapes) at each read.

        >>> s = Contingency().add_results(["a", "a", "b"], ["a", "b", "b"])
        >>> round(s.f_beta(2.0), 4), round(s.f_beta(0.5, average="macro"), 4)
        (0.6667, 0.6944)
        """
        beta = _formulas.check_beta(beta)
        average = _check_average(average)
        if beta == 1 and average in ("micro", "macro", "weighted"):
            return {"micro": lambda: self.micro_f1, "macro": lambda: self.macro_f1,
                    "weighted": lambda: self.weighted_f1}[average]()

        def score(a: Any, b: Any, c: Any, d: Any, *, zero_division: ZeroDivision) -> Any:
            return _formulas.f_beta(a, b, c, d, beta=beta, zero_division=zero_division)

        return self._averaged(score, average)

    def matthews_corrcoef(self, average: Correlation = "micro") -> float:
        """Matthews correlation: ``"micro"`` of the pooled 2x2 table, ``"macro"`` the mean of each
        category's, ``"multiclass"`` scikit-learn's multiclass form (Gorodkin's R_K).

        ``"micro"`` and ``"macro"`` are one-vs-rest forms, defined for any
        results. Undefined values (an empty row or column) follow
        :attr:`zero_division`: Perl mode gives 1 when there is no error and 0
        otherwise. The macro average reads every category: each category's
        ``d`` (and so its correlation) changes with every result, whichever
        categories it names, so no running sum can answer it.

        ``"multiclass"`` is the correlation of the K x K
        :meth:`confusion_matrix`, equal to ``sklearn.metrics.matthews_corrcoef``
        of the label arrays; it is defined for single-label results only
        (``ValueError`` otherwise) and read in constant time from running
        sums (:func:`~contingency.formulas.classification.multiclass_matthews_corrcoef`).

        >>> s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
        >>> round(s.matthews_corrcoef(), 4), round(s.matthews_corrcoef("macro"), 4)
        (0.3333, 0.5)
        >>> t = Contingency().add_results([1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 2, 2])
        >>> round(t.matthews_corrcoef("multiclass"), 4), round(t.matthews_corrcoef("micro"), 4)
        (-0.6124, -0.5)
        """
        if average == "multiclass":
            return _formulas.multiclass_matthews_corrcoef(
                self._confusion_sums("matthews_corrcoef"), zero_division=self._zero_division)
        if average not in ("micro", "macro"):
            raise ValueError("average must be 'micro', 'macro' or 'multiclass', not "
                             f"{average!r}")
        return self._averaged(_formulas.matthews_corrcoef, average)

    # The confusion matrix of single-label results ----------------------------------------------

    def confusion_matrix(self, labels: Iterable[Hashable] | None = None
                         ) -> NDArray[Any]:
        """The K x K table of single-label results: ``[i, j]`` counts correct ``i``, assigned ``j``.

        Rows are the correct category and columns the assigned one
        (scikit-learn's orientation: it equals ``sklearn.metrics.confusion_matrix(
        y_true, y_pred, labels=...)``). ``labels`` picks and orders the
        categories (default: :attr:`categories`); a label that is not a
        category raises ``ValueError`` naming it. Only single-label results
        (one category assigned and one correct) make such a table: once any
        other result is counted, this raises ``ValueError`` (the per-category
        2 x 2 tables are :meth:`multilabel_confusion_matrix` and
        :meth:`category_stats`). :meth:`set_entries`' micro table describes no
        result, so it plays no part here (nor in the scores of this table),
        as in the macro scores.

        >>> s = Contingency(["cat", "dog", "fox"])
        >>> s.add_results(["cat", "dog", "dog", "fox"], ["cat", "cat", "dog", "dog"]).confusion_matrix()
        array([[1, 1, 0],
               [0, 1, 1],
               [0, 0, 0]])
        >>> s.confusion_matrix(labels=["dog", "cat"])
        array([[1, 0],
               [1, 1]])
        >>> s.add_result(["cat", "dog"], "dog")
        >>> s.confusion_matrix()
        Traceback (most recent call last):
        ...
        ValueError: confusion_matrix: 1 of the 5 results is not single-label (one category
        assigned and one correct); a K x K confusion matrix and its scores describe
        single-label results only: see category_stats() or multilabel_confusion_matrix() for
        the per-category 2 x 2 tables
        """
        self._fold()
        self._check_single_label("confusion_matrix")
        chosen = self._chosen(labels, "confusion_matrix")
        index = {label: k for k, label in enumerate(chosen)}
        matrix = np.zeros((len(chosen), len(chosen)),
                          dtype=np.float64 if self._scale else np.int64)
        for (truth, assigned), count in self._pairs.items():
            row, column = index.get(truth), index.get(assigned)
            if row is not None and column is not None:
                matrix[row, column] = self._reported(count)
        return matrix

    def multilabel_confusion_matrix(self, labels: Iterable[Hashable] | None = None
                                    ) -> NDArray[Any]:
        """Each category's 2 x 2 table, as ``sklearn.metrics.multilabel_confusion_matrix`` lays it out.

        An array of shape (K, 2, 2): ``[k] = [[d, b], [c, a]]``, that is
        ``[[true negatives, false positives], [false negatives, true positives]]``,
        for any results (single- or multi-label). ``labels`` picks and orders
        the categories, as in :meth:`confusion_matrix`.

        >>> s = Contingency().add_results([["a", "b"], ["b"]], [["a"], ["a", "b"]])
        >>> s.multilabel_confusion_matrix().tolist()
        [[[0, 0], [1, 1]], [[0, 1], [0, 1]]]
        """
        self._fold()
        chosen = self._chosen(labels, "multilabel_confusion_matrix")
        n = self._n
        tables = []
        for label in chosen:
            a, b, c = self._a[label], self._b[label], self._c[label]
            tables.append([[self._reported(count) for count in row]
                           for row in ((n - a - b - c, b), (c, a))])
        return np.array(tables, dtype=np.float64 if self._scale else np.int64
                        ).reshape(len(chosen), 2, 2)

    def cohen_kappa(self) -> float:
        """Cohen's kappa of the :meth:`confusion_matrix`: agreement beyond chance, in [-1, 1].

        Equal to ``sklearn.metrics.cohen_kappa_score(y_true, y_pred)``
        (unweighted), read in constant time; single-label results only.
        Undefined (no result, or one category throughout) follows
        :attr:`zero_division`, see
        :func:`~contingency.formulas.classification.cohen_kappa`.

        >>> s = Contingency().add_results(["a", "a", "b", "b"], ["a", "b", "b", "b"])
        >>> s.cohen_kappa()
        0.5
        """
        return _formulas.cohen_kappa(self._confusion_sums("cohen_kappa"),
                                     zero_division=self._zero_division)

    def balanced_accuracy(self, adjusted: bool = False) -> float:
        """The mean recall of the categories some result has as correct (scikit-learn's definition).

        Equal to ``sklearn.metrics.balanced_accuracy_score(y_true, y_pred,
        adjusted=adjusted)``: categories no result has as correct are left out;
        ``adjusted=True`` rescales so that chance scores 0. Single-label results
        only; read in constant time. Undefined cases follow :attr:`zero_division`,
        see :func:`~contingency.formulas.classification.balanced_accuracy`.

        >>> s = Contingency().add_results(["a", "a", "a", "b"], ["a", "b", "b", "b"])
        >>> s.balanced_accuracy(), round(s.balanced_accuracy(adjusted=True), 4)
        (0.6666666666666666, 0.3333)
        """
        self._fold()
        self._check_single_label("balanced_accuracy")
        # Recall in "nan" mode leaves out the categories that are nobody's correct one.
        recalls = self._running("balanced recall", "recall", "nan")
        mean = recalls.mean()
        # Near chance the adjusted score needs the recalls exactly: (C[k, k], t_k) per category.
        a, c = self._a, self._c
        return _formulas.balanced_accuracy(mean, recalls.defined, adjusted=bool(adjusted),
                                           zero_division=self._zero_division,
                                           recalls=lambda: ((a[k], a[k] + c[k]) for k in a
                                                            if a[k] + c[k]))

    def jaccard(self, average: Average = "macro") -> float:
        """The Jaccard index ``a / (a + b + c)``, averaged as ``sklearn.metrics.jaccard_score`` does.

        ``average`` is ``"micro"`` (of the micro table), ``"macro"`` (over
        categories), ``"weighted"`` (by support ``a + c``) or ``"samples"``
        (each result's ``|assigned ∩ correct| / |assigned ∪ correct|``,
        averaged over results). Micro, macro and weighted are read in constant
        time. Undefined values follow :attr:`zero_division`
        (:func:`~contingency.formulas.classification.jaccard`).

        >>> s = Contingency().add_results([["a", "b"], ["b"]], [["a"], ["a", "b"]])
        >>> s.jaccard(), s.jaccard("micro"), s.jaccard("samples")
        (0.5, 0.5, 0.5)
        """
        average = _check_average(average)
        if average == "macro":
            return self._running_mean("jaccard")
        if average == "weighted":
            return self._running_mean("jaccard", weighted=True)
        return self._averaged(_formulas.jaccard, average)

    # Reports ------------------------------------------------------------------------------------

    def category_stats(self) -> dict[Hashable, dict[str, float | int]]:
        """Per category: cells ``a b c d``, ``precision recall f1 accuracy error`` (Perl's numbers),
        ``support`` (``a + c``) and ``specificity``, in table order.

        >>> Contingency(["x", "y"]).add_results(["x"], ["y"]).category_stats()["x"]
        {'a': 0, 'b': 1, 'c': 0, 'd': 0, 'precision': 0.0, 'recall': 1.0, 'f1': 0.0, \
'accuracy': 0.0, 'error': 1.0, 'support': 0, 'specificity': 0.0}
        """
        self._fold()
        if not self._a:
            raise ValueError(_NO_CATEGORY)
        cells = self._cell_columns()
        columns = {name: score(*cells, zero_division=self._zero_division).tolist()
                   for name, score in {**_SCORES, "specificity": _formulas.specificity}.items()}
        stats: dict[Hashable, dict[str, float | int]] = {}
        for k, (label, a, b, c, d) in enumerate(zip(self._a, *cells)):
            stats[label] = {**{cell: self._reported(count)
                               for cell, count in zip("abcd", (a, b, c, d))},
                            **{name: columns[name][k] for name in _SCORES},
                            "support": self._reported(a + c),
                            "specificity": columns["specificity"][k]}
        return stats

    def to_frame(self) -> Any:
        """:meth:`category_stats` as a ``pandas.DataFrame``: one row per category, in table order.

        The counts ``a b c d support`` are integer columns (float where a
        weight made them fractional), the scores float columns; the index is
        named ``"category"``. pandas is imported only here: without it this
        raises ``ImportError`` naming the ``pandas`` extra.

        >>> s = Contingency(["x", "y"]).add_results(["x", "y"], ["y", "y"])
        >>> print(s.to_frame().round(3).to_string())  # doctest: +SKIP
                  a  b  c  d  precision  recall     f1  accuracy  error  support  specificity
        category
        x         0  1  0  1        0.0     1.0  0.000       0.5    0.5        0          0.5
        y         1  0  1  0        1.0     0.5  0.667       0.5    0.5        2          1.0
        """
        return category_frame(self.category_stats())

    def stats_table(self, figs: int = 3) -> str:
        """The table Statistics::Contingency prints, character for character.

        ``figs`` is the number of significant figures (at least 1; Perl silently
        turns 0 into 3, this raises ``ValueError``).

        >>> s = Contingency(["a", "b"]).add_results(["a", "b", "a"], ["a", "a", "a"])
        >>> print(s.stats_table(2), end="")
        +--------------------------------------+
        |  maR  maP maF1   miR  miP miF1   Err |
        | 0.83 0.50 0.40  0.67 0.67 0.67  0.33 |
        +--------------------------------------+
        """
        if isinstance(figs, bool) or not isinstance(figs, (int, np.integer)) or figs < 1:
            raise ValueError(f"figs must be an integer >= 1, not {figs!r}")
        return _report.perl_stats_table(
            (self.macro_recall, self.macro_precision, self.macro_f1, self.micro_recall,
             self.micro_precision, self.micro_f1, self.micro_error),
            int(figs),
        )

    def scores(self) -> dict[str, Any]:
        """Every score as plain Python data: per category, each average, and the result-level scores.

        ``None`` stands for a value that does not exist (macro averages with
        no category) and for NaN, so the result is valid JSON. This is what
        :meth:`report` renders.
        """
        scores: dict[str, Any] = _report.json_numbers(self._scores())
        return scores

    def report(self, digits: int = 3) -> str:
        """A per-category table with support and every average, sorted by category.

        >>> s = Contingency().add_results(["dog", "cat", "cat"], ["dog", "cat", "dog"])
        >>> print(s.report())
                      precision  recall     f1  support
        <BLANKLINE>
                 cat      0.500   1.000  0.667        1
                 dog      1.000   0.500  0.667        2
        <BLANKLINE>
           micro avg      0.667   0.667  0.667        3
           macro avg      0.750   0.750  0.667        3
        weighted avg      0.833   0.667  0.667        3
         samples avg      0.667   0.667  0.667        3
        <BLANKLINE>
        results: 3   subset accuracy: 0.667   hamming loss: 0.333   MCC: 0.333 (micro), 0.500 (macro)
        """
        return _report.classification_report(self.scores(), digits=digits)

    def to_dict(self) -> dict[str, Any]:
        """The state, and only the state, as JSON-safe data (:meth:`scores` gives the numbers).

        Format ``"contingency.Contingency/2"``: the categories (the first
        ``declared`` of them declared), the settings ``unknown`` and
        ``zero_division``, the cells ``a``, ``b``, ``c`` per category, the
        result shapes ``[both, assigned, correct, count]``, the part of the
        micro table set by :meth:`set_entries` and the single-label results by
        pair (``confusion``: ``[correct, assigned, count]``, positions in
        ``categories``), every count an integer in units
        of ``2**-scale`` (``scale`` is 0 unless fractional weights were
        counted, and the least that holds every count). ``verbose`` is a
        display option, not part of the state. :meth:`from_dict` rebuilds an
        equal accumulator from it.

        >>> s = Contingency(["x", "y"], unknown="add").add_results(["x", "z"], ["x", "x"])
        >>> s.add_result("y", "y", weight=0.25)
        >>> state = s.to_dict()
        >>> state["scale"], state["a"], state["result_shapes"]
        (2, [4, 1, 0], [[0, 1, 1, 4], [1, 1, 1, 5]])
        >>> Contingency.from_dict(state) == s
        True
        """
        exponent, a, b, c, shapes, pairs, offset = self._canonical()
        position = {label: k for k, label in enumerate(self._a)}
        return {
            "format": _FORMAT,
            "categories": [label_to_json(label, "category") for label in self._a],
            "declared": len(self._declared),
            "unknown": self._unknown,
            "zero_division": self._zero_division,
            "scale": exponent,
            "a": a,
            "b": b,
            "c": c,
            "result_shapes": [[*shape, count] for shape, count in sorted(shapes.items())],
            "micro_offset": offset,
            "confusion": sorted([position[truth], position[chosen], count]
                                for (truth, chosen), count in pairs.items()),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False) -> Contingency:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any state no calls could make.

        Refused, with a ``ValueError`` starting ``from_dict:``: a missing or
        unknown key, another format, a negative count, cells that do not add
        up to the result shapes, a result shape impossible with the number of
        categories, a category named by more results than there are, an
        undeclared category no result names. Python and numpy integers are
        taken alike. Documents of format ``"contingency.Contingency/1"``
        (0.1.0.dev0) are refused with a message naming the format: they lack
        the confusion matrix of the single-label results, which the counts
        alone do not give back.

        >>> Contingency.from_dict({"format": "contingency.Contingency/2", "categories": ["x"],
        ...     "declared": 1, "unknown": "error", "zero_division": "perl", "scale": 0,
        ...     "a": [2], "b": [0], "c": [0], "result_shapes": [[1, 1, 1, 1]],
        ...     "micro_offset": [0, 0, 0, 0], "confusion": [[0, 0, 1]]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: category 'x' has a + b + c = 2 but there are only 1 results
        """
        return _from_dict(cls, data, thread_safe)

    # The one write path --------------------------------------------------------------------------

    def _fold(self) -> None:
        """Hand what add_result's fast paths tallied to :meth:`_apply` (nothing when the tally is empty)."""
        tally = self._tally
        if tally.right or tally.wrong or tally.shapes:
            changes = tally.changes()  # one per result: 2**scale in the counts' unit
            self._wrong = tally.wrong  # a new dict: the tallied one was handed over
            self._apply(*(_times(changes, 1 << self._scale) if self._scale else changes))
            tally.clear()
        self._settled = self._read = True

    def _apply(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int], pairs: Pairs, *,
               new: Iterable[Hashable] = (), offset: Sequence[int] | None = None,
               removing: bool = False, where: str = "", scale: int = 0) -> None:
        """Add these changes to the counts: the one routine where counts change.

        ``a``, ``b`` and ``c`` change per-category cells (keyed by category;
        a category in ``new`` is appended to the table first, with zero
        cells), ``shapes`` the result shapes (their sum is the change in the
        number of results), ``pairs`` the single-label results by
        ``(correct, assigned)`` (they are also in the cells and shapes; a
        caller hands over a dict it does not use again, which may be kept),
        ``offset`` the part of the micro table that
        :meth:`set_entries` set. A caller whose changes may be negative says
        ``removing=True`` (``where`` names it in the errors): every count is
        then checked, and the categories that were not declared and whose
        cells all return to zero are forgotten. Everything is checked before
        the first write, so a refused change changes nothing. Costs
        O(categories changed).

        Every count is in units of ``2**-scale``; a ``scale`` finer than the
        accumulator's first makes every count finer (:meth:`_rescale`, O(K)
        once), and back if the change is refused. A category in ``new`` that
        the change leaves without a count (a result of weight 0) is not added.
        """
        if scale > self._scale:
            coarse = self._scale
            self._rescale(scale)
            try:
                self._apply(a, b, c, shapes, pairs, new=new, offset=offset, removing=removing,
                            where=where)
            except BaseException:
                self._rescale(coarse)
                raise
            return
        n_before = self._n
        n = n_before + sum(shapes.values())
        if n > MAX_COUNT:
            check_room(0, _whole(n, self._scale), "results")
        fresh: Sequence[Hashable] = ()
        gone: Sequence[Hashable] = ()
        if new or offset is not None or removing:
            fresh, gone = self._admit(a, b, c, shapes, pairs, n, new, offset, removing, where)
        # Every check passed: the writes. (Written out, not in helpers: this runs for every
        # result read alone, as in a learning curve, where each call and line costs.)
        cells_a, cells_b, cells_c = self._a, self._b, self._c
        k_before = len(cells_a)
        if fresh:
            for label in fresh:
                cells_a[label] = cells_b[label] = cells_c[label] = 0
        added_a = added_b = added_c = 0
        if a:
            for label, count in a.items():
                cells_a[label] += count
            added_a = sum(a.values())
        if b:
            for label, count in b.items():
                cells_b[label] += count
            added_b = sum(b.values())
        if c:
            for label, count in c.items():
                cells_c[label] += count
            added_c = sum(c.values())
        if gone:
            for label in gone:
                del cells_a[label], cells_b[label], cells_c[label]
        histogram = self._shapes
        for shape, count in shapes.items():  # no zero entry kept
            count += histogram.get(shape, 0)
            if count:
                histogram[shape] = count
            else:
                del histogram[shape]
        confusion = self._pairs
        if not confusion and not removing and 0 not in pairs.values():
            self._pairs = pairs  # handed over by its maker, used by nobody else: kept as it is
        else:
            for pair, count in pairs.items():
                count += confusion.get(pair, 0)
                if count:
                    confusion[pair] = count
                else:
                    del confusion[pair]
        self._n = n
        if n >= _FAST_LIMIT or removing:  # (in units of 2**-scale: at least the whole count)
            self._choose_paths()
        self._micro = _micro_after(self._micro, added_a, added_b, added_c,
                                   len(cells_a) * n - k_before * n_before, offset)
        if offset is not None:
            self._offset = [mine + theirs for mine, theirs in zip(self._offset, offset)]
        for pending in self._stale:
            pending.update(a, b, c, fresh)

    def _admit(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int], pairs: Pairs,
               n: int, new: Iterable[Hashable], offset: Sequence[int] | None,
               removing: bool, where: str) -> tuple[list[Hashable], list[Hashable]]:
        """:meth:`_apply`'s checks of a change that adds categories, sets entries or removes.

        Returns the categories of ``new`` the change gives a count (appended to
        the table) and those it forgets; raises before anything is written.
        """
        if offset is not None:  # what set_entries put on the micro table: merges add it up
            for name, mine, theirs in zip("abcd", self._offset, offset):
                if mine + theirs > MAX_COUNT:
                    check_room(0, _whole(mine + theirs, self._scale),
                               f"set by set_entries in micro-table cell {name}")
        cells_a = self._a
        fresh = [label for label in new
                 if label not in cells_a and (label in a or label in b or label in c)]
        gone: list[Hashable] = []
        if removing:
            gone = self._check_removal(a, b, c, shapes, pairs, n, len(fresh), offset, where)
        return fresh, gone

    def _check_removal(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int],
                       pairs: Pairs, n: int, new: int, offset: Sequence[int] | None,
                       where: str) -> list[Hashable]:
        """Refuse a change that would leave any count negative (``where`` names the caller).

        ``n`` is the number of results after the change, ``new`` the number of
        categories it appends. Returns the categories the change forgets: not
        declared, and with every cell back to zero.
        """
        prefix = f"{where}: " if where else ""
        cells = (self._a, self._b, self._c)
        for name, column, changes in zip("abc", cells, (a, b, c)):
            for label, count in changes.items():
                if column.get(label, 0) + count < 0:
                    raise ValueError(f"{prefix}category {label!r} has no {name} count left to "
                                     "remove; that result was not added")
        for shape, count in shapes.items():
            if self._shapes.get(shape, 0) + count < 0:
                raise ValueError(f"{prefix}no result of that shape (|assigned ∩ correct|, "
                                 f"|assigned|, |correct|) = {shape} was added")
        # No category may hold more cells of some kinds than the results that remain can
        # give it (one cell each at most, of a kind their shape has): the categories named
        # by the change are checked one by one, the others through the histograms of sums.
        touched = a.keys() | b.keys() | c.keys()
        totals = self._totals
        if totals is None:
            totals = self._totals = CategoryTotals(cells)
            self._track(totals)
        # A removal only lowers counts: only the kinds whose room drops need a look.
        before, drops = _rooms(self._shapes), _rooms(shapes)
        checked = [(kinds, before[kinds - 1] + drops[kinds - 1], before[kinds - 1])
                   for kinds in KINDS if drops[kinds - 1]]
        over = [0] * 8
        if checked:
            totals.refresh()
        for kinds, room, largest in checked:
            over[kinds] = totals.above(room, largest, kinds)
        gone = []
        cells_a, cells_b, cells_c = cells
        for label in touched:
            x, y, z = cells_a.get(label, 0), cells_b.get(label, 0), cells_c.get(label, 0)
            after = (x + a.get(label, 0), y + b.get(label, 0), z + c.get(label, 0))
            if checked:
                had, held = kind_sums(x, y, z), kind_sums(*after)
                for kinds, room, _ in checked:
                    over[kinds] += (held[kinds - 1] > room) - (had[kinds - 1] > room)
            if not any(after) and label in self._a and label not in self._declared:
                gone.append(label)
        rooms = {kinds: room for kinds, room, _ in checked}
        if over[7] > 0:
            raise ValueError(f"{prefix}a category would be named by more results than the "
                             f"{self._reported(rooms[7])} that would remain; that result was "
                             "not added")
        for kinds in KINDS:
            if over[kinds] > 0:
                names = " or ".join(name for bit, name in enumerate("abc") if kinds >> bit & 1)
                raise ValueError(f"{prefix}a category would hold more {names} cells than the "
                                 f"{self._reported(rooms[kinds])} results that would remain "
                                 "can give it (a result gives a category one cell at most); "
                                 "that result was not added")
        for (truth, chosen), count in pairs.items():
            if self._pairs.get((truth, chosen), 0) + count < 0:
                raise ValueError(f"{prefix}no single-label result with {chosen!r} assigned and "
                                 f"{truth!r} correct was added")
        if self._pairs and any(count < 0 for shape, count in shapes.items()
                               if shape not in (HIT, MISS)):
            self._check_single_label_cells(a, b, c, pairs, touched, prefix)
        k = len(self._a) + new - len(gone)
        micro = _micro_after(self._micro, sum(a.values()), sum(b.values()), sum(c.values()),
                             k * n - len(self._a) * self._n, offset)
        if min(micro) < 0:
            raise ValueError(f"{prefix}the micro table set by set_entries has too few entries "
                             "left to remove that result")
        return gone

    def _check_single_label_cells(self, a: Cells, b: Cells, c: Cells, pairs: Pairs,
                                  touched: Iterable[Hashable], prefix: str) -> None:
        """Refuse a removal of results that are not single-label which would leave a category
        fewer cells than its single-label results alone give it (a state no results make).

        Costs O(single-label pairs): it runs only for removals of results that are
        not single-label while single-label results are counted.
        """
        labels = set(touched)
        given = {label: [0, 0, 0] for label in labels}
        for (truth, chosen), count in self._pairs.items():
            count += pairs.get((truth, chosen), 0)
            if truth == chosen:
                if truth in labels:
                    given[truth][0] += count
                continue
            if chosen in labels:
                given[chosen][1] += count
            if truth in labels:
                given[truth][2] += count
        for label in labels:
            for name, column, change, single in zip("abc", (self._a, self._b, self._c),
                                                    (a, b, c), given[label]):
                if column.get(label, 0) + change.get(label, 0) < single:
                    raise ValueError(f"{prefix}category {label!r} would hold fewer {name} cells "
                                     "than its single-label results give it; that result was "
                                     "not added")

    def _choose_paths(self) -> None:
        """Whether add_result must take the general path for every result (see ``_slow``)."""
        self._slow = self._verbose or self._n >> self._scale >= _FAST_LIMIT

    def _declared_order(self) -> list[Hashable]:
        """The declared categories, in table order (they come first)."""
        return list(self._a)[:len(self._declared)]

    def _rescale(self, scale: int) -> None:
        """Express every count in units of ``2**-scale`` (exactly: finer, or coarser when divisible).

        The one routine that knows every count. The running sums are dropped
        (the next read that needs one makes it again); the tally is empty
        (callers fold first).
        """
        shift = scale - self._scale
        if shift >= 0:
            def convert(count: int) -> int:
                return count << shift
        else:
            def convert(count: int) -> int:
                return count >> -shift
        for cells in (self._a, self._b, self._c):
            for label, count in cells.items():
                cells[label] = convert(count)
        self._shapes = {shape: convert(count) for shape, count in self._shapes.items()}
        self._pairs = {pair: convert(count) for pair, count in self._pairs.items()}
        self._n = convert(self._n)
        self._micro = [convert(count) for count in self._micro]
        self._offset = [convert(count) for count in self._offset]
        self._sums, self._totals, self._margins, self._stale = {}, None, None, ()
        self._scale = scale

    def _reported(self, count: int) -> int | float:
        """A count as the reads report it: ``int`` at scale 0, else the exact count rounded once."""
        return count / (1 << self._scale) if self._scale else count

    def _exponent(self) -> int:
        """The least scale that holds every count exactly (the state's canonical unit)."""
        if not self._scale:
            return 0
        bits = self._n | functools.reduce(operator.or_, self._offset, 0)
        for cells in (self._a, self._b, self._c, self._shapes, self._pairs):
            bits |= functools.reduce(operator.or_, cells.values(), 0)
        if not bits:
            return 0
        return max(0, self._scale - ((bits & -bits).bit_length() - 1))

    # Reading -------------------------------------------------------------------------------------

    def _micro_score(self, name: str) -> float:
        self._fold()
        return _formulas.SCALAR[name](*self._micro, self._zero_division)

    def _running_mean(self, name: str, weighted: bool = False) -> float:
        if not self._settled:
            self._fold()
        self._read = True
        if not self._a:
            raise ValueError(_NO_CATEGORY)
        if weighted:
            return self._running(f"weighted {name}", name, self._zero_division,
                                 True).weighted_mean()
        running = self._sums.get(name)
        if running is None:
            running = self._running(name, name, self._zero_division)
        return running.mean()

    def _running(self, key: str, name: str, mode: ZeroDivision,
                 weighted: bool = False) -> CategorySums:
        """The running sums of score ``name`` kept under ``key``, made by the first read that needs them."""
        running = self._sums.get(key)
        if running is None:
            running = self._sums[key] = CategorySums((self._a, self._b, self._c), name, mode,
                                                     weighted=weighted, scale=self._scale)
            self._track(running)
        return running

    def _check_single_label(self, where: str) -> None:
        """Refuse (``ValueError``) when any result counted is not single-label: O(1), from the shapes."""
        shapes = self._shapes
        other = self._n - shapes.get(HIT, 0) - shapes.get(MISS, 0)
        if other:
            verb = "is" if other == 1 else "are"
            raise ValueError(
                f"{where}: {other} of the {self._n} results {verb} not single-label (one "
                "category assigned and one correct); a K x K confusion matrix and its scores "
                "describe single-label results only: see category_stats() or "
                "multilabel_confusion_matrix() for the per-category 2 x 2 tables")

    def _confusion_sums(self, where: str) -> _formulas.ConfusionSums:
        """The sums over the confusion matrix its scores need, from running sums (single-label only)."""
        self._fold()
        self._check_single_label(where)
        margins = self._margins
        if margins is None:
            margins = self._margins = MarginSums((self._a, self._b, self._c))
            self._track(margins)
        margins.refresh()
        correct = self._micro[0] - self._offset[0]  # the diagonal: the pooled cell a
        return _formulas.ConfusionSums(self._n, correct, margins.products,
                                       margins.truth_squares, margins.assigned_squares)

    def _chosen(self, labels: Iterable[Hashable] | None, where: str) -> list[Hashable]:
        """The categories ``labels`` names, in its order (all of them for ``None``), checked."""
        if labels is None:
            return list(self._a)
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"{where}: labels must be an iterable of categories or None, not "
                            f"{labels!r}")
        chosen = list(labels)
        for position, label in enumerate(chosen):
            try:
                known = label in self._a
            except TypeError:
                known = False
            if not known:
                raise ValueError(f"{where}: labels[{position}] = {label!r} is not a category "
                                 f"(the categories are {list(self._a)!r})")
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"{where}: labels names a category twice")
        return chosen

    def _track(self, running: CategorySums | CategoryTotals | MarginSums) -> None:
        """Keep ``running`` up to date from now on: every category is pending once (O(K))."""
        running.stale(self._a)
        self._stale = (*self._stale, running.pending)

    def _pooled(self) -> tuple[int, int, int, int]:
        """The per-category cells summed: the micro table without :meth:`set_entries`'s part."""
        a, b, c, d = (cell - offset for cell, offset in zip(self._micro, self._offset))
        return a, b, c, d

    def _cell_columns(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Per category, in table order: cells ``a``, ``b``, ``c`` and ``d``."""
        a, b, c = list(self._a.values()), list(self._b.values()), list(self._c.values())
        n = self._n
        return a, b, c, [n - x - y - z for x, y, z in zip(a, b, c)]

    def _shape_columns(self) -> tuple[list[int], list[int], list[int], list[int]]:
        shapes = sorted(self._shapes.items())
        return ([s[0] for s, _ in shapes], [s[1] for s, _ in shapes],
                [s[2] for s, _ in shapes], [count for _, count in shapes])

    def _samples(self, score: Any) -> float:
        self._fold()
        return _formulas.samples_average(score, *self._shape_columns(),
                                         zero_division=self._zero_division)

    def _averaged(self, score: Any, how: str) -> float:
        """``score`` averaged as asked, from the cells (for scores no running sum answers)."""
        self._fold()
        mode = self._zero_division
        if how == "micro":
            return float(score(*self._micro, zero_division=mode))
        if how == "samples":
            return self._samples(score)
        if not self._a:
            raise ValueError(_NO_CATEGORY)
        cells = self._cell_columns()
        values = score(*cells, zero_division=mode)
        weights = [a + c for a, c in zip(cells[0], cells[2])] if how == "weighted" else None
        return average(values, weights, empty=float(score(0, 0, 0, 0, zero_division=mode)))

    def _scores(self) -> dict[str, Any]:
        names = ("precision", "recall", "f1")
        averages: dict[str, Any] = {
            "micro": {name: self._micro_score(name) for name in names},
            "macro": None,
            "weighted": None,
            "samples": {name: self._samples(_SCORES[name]) for name in names},
        }
        categories: list[dict[str, Any]] = []
        if self._a:
            averages["macro"] = {name: self._running_mean(name) for name in names}
            averages["weighted"] = {name: self._running_mean(name, weighted=True)
                                    for name in names}
            categories = [{"category": label_to_json(label, "category"), **stats}
                          for label, stats in self.category_stats().items()]
        support = self._reported(sum(self._a.values()) + sum(self._c.values()))
        single = self._n == self._shapes.get(HIT, 0) + self._shapes.get(MISS, 0)
        for average_name in ("micro", "macro", "weighted", "samples"):
            if averages[average_name] is not None:
                averages[average_name]["support"] = support
        return {
            "n_results": self._reported(self._n),
            "categories": categories,
            "averages": averages,
            "micro_table": [self._reported(cell) for cell in self._micro],
            "accuracy": {"micro": self.micro_accuracy,
                         "macro": self.macro_accuracy if self._a else None},
            "error": {"micro": self.micro_error,
                      "macro": self.macro_error if self._a else None},
            "subset_accuracy": self.subset_accuracy,
            "hamming_loss": self.hamming_loss,
            "matthews_corrcoef": {
                "micro": self.matthews_corrcoef("micro"),
                "macro": self.matthews_corrcoef("macro") if self._a else None,
                "multiclass": self.matthews_corrcoef("multiclass") if single else None,
            },
            # The scores of the confusion matrix: single-label results only.
            "cohen_kappa": self.cohen_kappa() if single else None,
            "balanced_accuracy": {"plain": self.balanced_accuracy(),
                                  "adjusted": self.balanced_accuracy(adjusted=True)}
            if single else None,
            "jaccard": {average: self.jaccard(average)  # type: ignore[arg-type]
                        if self._a or average in ("micro", "samples") else None
                        for average in _AVERAGES},
        }

    # Internals -----------------------------------------------------------------------------------

    def _state(self) -> tuple[object, ...]:
        # The counts in category order: dicts compare without regard to order.
        return (list(self._a), self._declared, *self._canonical(), self._unknown,
                self._zero_division)

    def _canonical(self) -> tuple[int, list[int], list[int], list[int], dict[Shape, int],
                                  Pairs, list[int]]:
        """The scale exponent and the counts in the least unit that holds them all.

        The same results give the same canonical counts whatever the history
        of the scale (a fractional weight added and taken back again, say):
        ``(scale, a, b, c, shapes, pairs, micro offset)``, the cells in table order.
        """
        self._fold()
        exponent = self._exponent()
        shift = self._scale - exponent
        a, b, c = ([count >> shift for count in cells.values()]
                   for cells in (self._a, self._b, self._c))
        return (exponent, a, b, c, {shape: count >> shift for shape, count in self._shapes.items()},
                {pair: count >> shift for pair, count in self._pairs.items()},
                [count >> shift for count in self._offset])

    def _say(self, name: object, assigned: object, correct: object) -> None:
        def show(value: object) -> str:
            try:
                return " ".join(str(label) for label in dict.fromkeys(members(value, "")))
            except TypeError:
                return repr(value)
        print(f"{'' if name is None else name}: assigned=({show(assigned)}) "
              f"correct=({show(correct)})")


def _whole(count: int, scale: int) -> int:
    """A count in units of ``2**-scale`` as whole units, rounded up.

    The count limit applies to the weight: ``count`` is above ``MAX_COUNT << scale``
    exactly when this is above :data:`~contingency.formulas._numeric.MAX_COUNT`.
    """
    return -(-count >> scale)


def _rooms(shapes: Mapping[Shape, int]) -> list[int]:
    """For each set of cell kinds (:data:`contingency._category_sums.KINDS`, in that order), the
    results whose shape gives a category a cell of one of those kinds: what a category can hold."""
    rooms = [0] * 7
    for shape, count in shapes.items():
        for index in _ROOMS_OF[kinds_of(shape)]:
            rooms[index] += count
    return rooms


#: For each set of kinds a result's shape gives (a mask), the rooms it counts in (indices).
_ROOMS_OF = [tuple(kinds - 1 for kinds in KINDS if kinds & given) for given in range(8)]


def _times(changes: Changes, factor: int) -> Changes:
    """``changes`` with every count multiplied by ``factor`` (-1 to remove, ``2**e`` to rescale)."""
    if factor == 1:
        return changes
    a, b, c, shapes, pairs = changes
    return ({label: count * factor for label, count in a.items()},
            {label: count * factor for label, count in b.items()},
            {label: count * factor for label, count in c.items()},
            {shape: count * factor for shape, count in shapes.items()},
            {pair: count * factor for pair, count in pairs.items()})


def _add_into(counts: dict[Any, int], changes: Mapping[Any, int]) -> None:
    """Add ``changes`` into ``counts``, keeping no zero entry (the histograms hold none)."""
    for key, change in changes.items():
        count = counts.get(key, 0) + change
        if count:
            counts[key] = count
        else:
            del counts[key]


def _micro_after(micro: list[int], a: int, b: int, c: int, tables: int,
                 offset: Sequence[int] | None) -> list[int]:
    """The micro table after adding ``a``, ``b`` and ``c`` to the pooled cells.

    ``tables`` is the change of ``K n`` (categories times results), so the
    pooled ``d = K n - a - b - c`` changes by ``tables - a - b - c``; ``offset``
    is what :meth:`Contingency.set_entries` adds on top.
    """
    after = [micro[0] + a, micro[1] + b, micro[2] + c, micro[3] + tables - a - b - c]
    if offset is not None:
        after = [cell + extra for cell, extra in zip(after, offset)]
    return after


_SLOTS = ("_a", "_b", "_c", "_declared", "_n", "_scale", "_shapes", "_micro", "_offset",
          "_pairs", "_sums", "_totals", "_margins", "_stale", "_tally", "_right", "_wrong",
          "_settled", "_read", "_unknown", "_zero_division", "_verbose", "_slow")


_KEYS = {"format", "categories", "declared", "unknown", "zero_division", "scale", "a", "b", "c",
         "result_shapes", "micro_offset", "confusion"}
# Format 1 (0.1.0.dev0) has no confusion matrix of the single-label results, which the
# counts alone do not give back: its documents are refused, naming the format.
_FORMAT_1 = "contingency.Contingency/1"


def _from_dict(cls: type[Contingency], data: Mapping[str, Any], thread_safe: bool) -> Contingency:
    fail = state_error
    data = check_state(data, _KEYS, _FORMAT, earlier={
        _FORMAT_1: "it has no confusion matrix of the single-label results, which the counts "
                   "alone do not give back; count the results again"})
    scale = count_from_json(data["scale"], "scale")
    if scale > MAX_SCALE:
        raise fail(f"scale is {scale}; counts are kept in units down to 2**-{MAX_SCALE}")
    unknown = _check_unknown(data["unknown"], "from_dict: unknown")
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
        check_room(0, _whole(n, scale), "results")
        for name, extra in zip("abcd", offset):
            check_room(0, _whole(extra, scale), f"set by set_entries in micro-table cell {name}")
    except ValueError as error:
        raise fail(str(error)) from None
    pairs = _pairs_from_json(data["confusion"], labels, columns, shapes)
    result = cls(labels[:declared], unknown=unknown, zero_division=zero_division,
                 thread_safe=thread_safe)
    a, b, c = ({label: value for label, value in zip(labels, column) if value}
               for column in columns)
    result._apply(a, b, c, shapes, pairs, new=labels[declared:], offset=offset, scale=scale)
    return result


def _pairs_from_json(rows: object, labels: list[Hashable], columns: list[list[int]],
                     shapes: dict[Shape, int]) -> Pairs:
    """The single-label results of ``to_dict``'s ``confusion``, checked against cells and shapes."""
    fail = state_error
    if not isinstance(rows, list):
        raise fail("confusion must be a list of [correct, assigned, count] (category "
                   "positions and a count)")
    k = len(labels)
    cells = [[0] * k for _ in range(3)]  # what the single-label results give a, b and c
    pairs: Pairs = {}
    right = wrong = 0
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
        if truth == chosen:
            right += count
            cells[0][truth] += count
        else:
            wrong += count
            cells[1][chosen] += count
            cells[2][truth] += count
    if (right, wrong) != (shapes.get(HIT, 0), shapes.get(MISS, 0)):
        raise fail(f"confusion holds {right} right and {wrong} wrong single-label results but "
                   f"the result shapes say {shapes.get(HIT, 0)} and {shapes.get(MISS, 0)}")
    for name, column, least in zip("abc", columns, cells):
        for label, have, need in zip(labels, column, least):
            if have < need:
                raise fail(f"category {label!r} has {name} = {have} but its single-label "
                           f"results in confusion alone give {need}")
    return pairs
