"""Contingency: a streaming accumulator of category decisions (Statistics::Contingency for Python).

State, all of it exact integer counts:

- the categories, in order (declared ones first, then as first seen), and how
  many of them were declared (what :meth:`Contingency.reset` goes back to);
- per category, keyed by the category itself: how often it was assigned and
  correct (cell ``a``), how often assigned, and how often correct. Cells
  ``b = assigned - a`` and ``c = correct - a`` are derived, and so is ``d``:
  ``n_results - a - b - c``, which is also what makes a category that joins an
  open set late count as "neither assigned nor correct" for every earlier result.
  Counting the two totals rather than ``b`` and ``c`` lets a multi-label
  result be counted with one set intersection and three C-level tallies;
- the histogram of result shapes ``(both, assigned, correct)`` (see
  :mod:`contingency.formulas.classification`): how many results had each.
  It gives the number of results, the pooled micro cells, and every
  per-result score (samples averages, subset accuracy) in time independent
  of the number of results. The shapes of results counted by
  :meth:`Contingency.add_result`'s fast paths with at most three categories on
  each side are counted in a list of 64 integers indexed by the shape's
  code (cheaper than a tuple key), and folded into the histogram before any
  other update;
- per category, the single-label results (one category on each side, both
  strings) that :meth:`Contingency.add_result`'s fastest path counted, in
  Statistics::Contingency's own layout: right ones by category (cell ``a``),
  wrong ones by assigned category (``b``) and by correct category (``c``). A
  right answer is then one dict increment, a wrong one two, and no shape
  count: the right and wrong results number ``sum(a)`` and ``sum(b)``. This
  part and the general part above are only meaningful summed (every reader
  sums them: :meth:`Contingency._columns` and ``_shape_counts``); removal goes
  through the general part, whose entries may then be negative where this
  part makes up for them;
- the micro offset: what :meth:`Contingency.set_entries` added to the micro
  table on top of the pooled per-category cells.

Every score is one call into :mod:`contingency.formulas.classification`; the
printed tables are :mod:`contingency.report`'s.
"""

from __future__ import annotations

import copy as _copy
from collections import _count_elements as _tally  # type: ignore[attr-defined]
from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import repeat
from operator import add, sub
from typing import Any, Literal

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import report as _report
from contingency._labels import check_label, label_from_json, label_to_json
from contingency.formulas import classification as _formulas
from contingency.formulas._numeric import (
    ZeroDivision,
    average,
    check_count,
    check_zero_division,
    exact,
)

__all__ = ["Contingency"]

Unknown = Literal["error", "ignore", "add"]
Average = Literal["micro", "macro", "weighted", "samples"]
Shape = tuple[int, int, int]

_UNKNOWN_POLICIES = ("error", "ignore", "add")
_AVERAGES = ("micro", "macro", "weighted", "samples")
_FORMAT = "contingency.Contingency/1"
_NO_CATEGORY = "No category information has been recorded"
# _tally is Counter.update's helper: mapping[x] = mapping.get(x, 0) + 1 for each x of an
# iterable, in C on CPython (collections keeps a pure-Python version for other implementations).
_PLAIN = frozenset({list, tuple, set, frozenset})  # containers add_result's fast path takes
_HIT: Shape = (1, 1, 1)  # a one-label result that was right
_MISS: Shape = (0, 1, 1)  # a one-label result that was wrong
# The shape (both, assigned, correct) of a result with at most three categories a side
# has the code (assigned << 4) | (correct << 2) | both, which is _SMALL_CODE[assigned][correct]
# + both (a list lookup is cheaper than shifts in the hot loop), below _SMALL_CODES.
_SMALL_CODES = 64
_SMALL_CODE = [[(assigned << 4) | (correct << 2) for correct in range(4)] for assigned in range(4)]
_SCORES = {
    "precision": _formulas.precision,
    "recall": _formulas.recall,
    "f1": _formulas.f1,
    "accuracy": _formulas.accuracy,
    "error": _formulas.error,
}


def _check_unknown(value: object) -> Unknown:
    if value not in _UNKNOWN_POLICIES:
        raise ValueError(f"unknown must be 'error', 'ignore' or 'add', not {value!r}")
    return value  # type: ignore[return-value]


def _check_average(value: object) -> Average:
    if value not in _AVERAGES:
        raise ValueError(f"average must be one of {', '.join(_AVERAGES)}, not {value!r}")
    return value  # type: ignore[return-value]


def _members(value: object, where: str) -> Iterable[object]:
    """The categories one side of a result names (see :meth:`Contingency.add_result`)."""
    if isinstance(value, (str, bytes)):
        return (value,)
    if isinstance(value, Mapping):
        return [key for key, flag in value.items() if flag]
    if isinstance(value, np.ndarray) and value.ndim == 0:
        raise TypeError(f"{where}: a 0-d array is not a category; pass its item or a 1-d array")
    if isinstance(value, Iterable):
        return value
    return (value,)


class _Staging:
    """Label resolution for one call, with nothing written until the end.

    Categories met for the first time (``unknown="add"``) get provisional
    indices after the existing ones; :meth:`Contingency._commit` appends them.
    """

    __slots__ = ("index", "new", "policy", "removing")

    def __init__(self, index: dict[Hashable, int], policy: Unknown, removing: bool) -> None:
        self.index = index
        self.new: dict[Hashable, int] = {}
        self.policy = policy
        self.removing = removing

    def labels(self, value: object, where: str) -> frozenset[Hashable]:
        """The categories one side of a result names, checked (unknown ones as the policy says)."""
        return frozenset(label for label in _members(value, where)
                         if self.position(label, where) >= 0)

    def position(self, label: object, where: str) -> int:
        """The table position of one label (provisional if new), or -1 if it is ignored."""
        try:
            found = self.index.get(label)
        except TypeError:
            check_label(label, where)  # raises, naming the unhashable label
            raise
        if found is None:
            found = self._unseen(label, where)
        return -1 if found is None else found

    def _unseen(self, label: object, where: str) -> int | None:
        known = check_label(label, where)
        if known in self.new:
            return self.new[known]
        if self.removing and self.policy != "ignore":
            raise ValueError(f"{where}: category {label!r} was never recorded, so no result "
                             "naming it can be removed")
        if self.policy == "ignore":
            return None
        if self.policy == "error":
            raise ValueError(f"{where}: unknown category {label!r} (not among the declared "
                             "categories; pass unknown='add' or unknown='ignore' to accept it)")
        position = len(self.index) + len(self.new)
        self.new[known] = position
        return position


@attrs.define(init=False, eq=False, repr=False)
class Contingency:
    """Precision, recall, F1, accuracy and error of category decisions, micro and macro averaged.

    The successor of Perl's Statistics::Contingency: feed it results one at a
    time with :meth:`add_result` (multi-label: each result names any number of
    assigned and correct categories), or in batches with :meth:`add_results`,
    and read any score at any moment.

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
        matrices use (a mapping's keys count, as in Perl). ``None`` (the
        default) leaves the set open: a category joins when first seen, and
        counts as "neither assigned nor correct" (cell d) for every earlier
        result. An empty iterable declares an empty set.
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
    """

    _labels: list[Hashable]
    _index: dict[Hashable, int]
    _declared: int
    _a: dict[Hashable, int]  # per category: assigned and correct
    _p: dict[Hashable, int]  # per category: assigned
    _t: dict[Hashable, int]  # per category: correct
    _shapes: dict[Shape, int]
    _pending: list[int]  # small shapes counted by add_result's fast paths, by code
    _right: dict[Hashable, int]  # single-label fast path: right, by category (a)
    _wrong_assigned: dict[Hashable, int]  # single-label fast path: wrong, by assigned (b)
    _wrong_correct: dict[Hashable, int]  # single-label fast path: wrong, by correct (c)
    _offset: list[int]
    _unknown: Unknown
    _zero_division: ZeroDivision
    verbose: bool

    def __init__(
        self,
        categories: Iterable[Hashable] | None = None,
        *,
        verbose: bool = False,
        unknown: Unknown = "error",
        zero_division: ZeroDivision = "perl",
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
            for position, label in enumerate(categories):
                labels.append(check_label(label, f"categories[{position}]"))
        index: dict[Hashable, int] = {}
        for label in labels:
            index.setdefault(label, len(index))
        labels = list(index)
        k = len(labels)
        self._labels, self._index, self._declared = labels, index, k
        self._unknown, self._zero_division, self.verbose = policy, mode, bool(verbose)
        self.reset()

    # Feeding ------------------------------------------------------------------------------

    def add_result(self, assigned: object, correct: object, name: object = None) -> None:
        """Add one result: the categories a classifier assigned, and the correct ones.

        Each side is a single category (a ``str`` is one category, never a
        sequence of characters; so is any non-iterable hashable), an iterable
        of categories (duplicates count once), or a mapping whose keys with
        truthy values are the categories. ``name`` is only used by ``verbose``.
        On any error the accumulator is left exactly as it was.

        >>> s = Contingency()
        >>> s.add_result("cat", "cat")
        >>> s.add_result({"cat": True, "dog": False}, ["dog", "dog"])
        >>> s.categories, s.n_results, s.micro_f1
        (('cat', 'dog'), 2, 0.5)
        """
        # Fast paths for the common shapes of input, when every label is known. They
        # are _count with weight 1, specialised: the one-label case is the hot loop
        # of every classifier evaluation. A label not in the table (or not hashable)
        # leaves the counts as they were and goes to the general path, which adds,
        # ignores or refuses it. test_contingency checks that every path gives one state.
        kind_a = type(assigned)
        if kind_a is str:
            if type(correct) is str and not self.verbose:
                # The single-label part of the state: one dict increment a cell.
                if assigned == correct:
                    try:
                        self._right[assigned] += 1
                    except KeyError:
                        pass
                    else:
                        return
                else:
                    wrong = self._wrong_assigned
                    try:
                        wrong[assigned] += 1
                    except KeyError:
                        pass
                    else:
                        try:
                            self._wrong_correct[correct] += 1
                        except KeyError:
                            wrong[assigned] -= 1
                        else:
                            return
        elif not self.verbose:
            # Multi-label: two sets, taken as they are (checked first: the common case),
            # or lists, tuples and frozensets, copied to sets (duplicates count once).
            # Anything else (a mapping, one label that is not a str) takes the general path.
            chosen: Any = assigned
            truth: Any = correct
            if kind_a is not set or type(truth) is not set:
                try:
                    if kind_a in _PLAIN and type(truth) in _PLAIN:
                        chosen, truth = set(chosen), set(truth)
                    else:
                        chosen = None
                except TypeError:
                    chosen = None  # an unhashable label: the general path names it
            if chosen is not None:
                p, t = self._p, self._t
                k = len(p)
                _tally(p, chosen)  # an unknown label lands as a new key: the length tells
                _tally(t, truth)
                if len(p) == k == len(t):
                    both = chosen & truth
                    _tally(self._a, both)
                    try:  # IndexError: more than three categories on a side
                        self._pending[_SMALL_CODE[len(chosen)][len(truth)] + len(both)] += 1
                    except IndexError:
                        shape = (len(both), len(chosen), len(truth))
                        self._shapes[shape] = self._shapes.get(shape, 0) + 1
                    return
                for column, labels in ((p, chosen), (t, truth)):
                    for label in labels:
                        if label in self._index:
                            column[label] -= 1
                        else:
                            column.pop(label, None)
        staging = _Staging(self._index, self._unknown, removing=False)
        result = (staging.labels(assigned, "assigned"), staging.labels(correct, "correct"))
        if self.verbose:
            self._say(name, assigned, correct)
        self._commit(staging, [result], 1)

    def remove_result(self, assigned: object, correct: object) -> None:
        """Take back a result added earlier (for sliding windows): the same path with weight -1.

        Raises ``ValueError`` (leaving the accumulator unchanged) when no such
        result can have been added: a category never recorded, or a count
        that would go below zero.

        >>> s = Contingency(["x", "y"])
        >>> s.add_result("x", "y")
        >>> s.add_result("y", "y")
        >>> s.remove_result("x", "y")
        >>> s == Contingency(["x", "y"]).add_results(["y"], ["y"])
        True
        """
        staging = _Staging(self._index, self._unknown, removing=True)
        result = (staging.labels(assigned, "assigned"), staging.labels(correct, "correct"))
        self._commit(staging, [result], -1)

    def add_results(self, assigned: Any, correct: Any) -> Contingency:
        """Add a batch of results; the state equals that of the matching :meth:`add_result` loop.

        ``assigned`` and ``correct`` are one of

        - two equal-length sequences whose items are anything :meth:`add_result` takes;
        - two 1-d numpy arrays of single labels (counted without a Python loop);
        - two 2-d 0/1 (or boolean) indicator matrices of shape (results,
          categories), columns in the order of :attr:`categories`.

        The whole batch is checked before anything is counted. Returns the
        accumulator, so calls chain.

        >>> import numpy as np
        >>> s = Contingency(["a", "b", "c"]).add_results(np.array(["a", "b", "b"]),
        ...                                              np.array(["a", "b", "c"]))
        >>> s.n_results, s.micro_f1
        (3, 0.6666666666666666)
        >>> t = Contingency(["a", "b"]).add_results(np.array([[1, 1], [0, 1]]),
        ...                                         np.array([[1, 0], [0, 1]]))
        >>> t.micro_precision, t.subset_accuracy
        (0.6666666666666666, 0.5)
        """
        if isinstance(assigned, np.ndarray) and isinstance(correct, np.ndarray):
            if assigned.ndim == 2 or correct.ndim == 2:
                self._add_indicators(assigned, correct)
                return self
            if (assigned.ndim == 1 and correct.ndim == 1 and assigned.dtype != object
                    and correct.dtype != object and not self.verbose):
                self._add_label_arrays(assigned, correct)
                return self
        assigned_items = self._as_sequence(assigned, "assigned")
        correct_items = self._as_sequence(correct, "correct")
        self._check_lengths(len(assigned_items), len(correct_items))
        staging = _Staging(self._index, self._unknown, removing=False)
        results = [
            (staging.labels(a, f"assigned[{row}]"), staging.labels(c, f"correct[{row}]"))
            for row, (a, c) in enumerate(zip(assigned_items, correct_items))
        ]
        if self.verbose:
            for row, (a, c) in enumerate(zip(assigned_items, correct_items)):
                self._say(row, a, c)
        self._commit(staging, results, 1)
        return self

    def set_entries(self, a: int, b: int, c: int, d: int) -> None:
        """Set the micro-level table directly, as Perl's ``set_entries`` does.

        Later results add to it. The per-category tables are untouched, so the
        macro statistics still describe the results added one by one.

        >>> s = Contingency()
        >>> s.set_entries(8, 2, 2, 88)
        >>> s.micro_precision, s.micro_accuracy
        (0.8, 0.96)
        """
        table = [check_count(value, name) for value, name in zip((a, b, c, d), "abcd")]
        self._offset = [want - have for want, have in zip(table, self._pooled())]

    # Combining ----------------------------------------------------------------------------

    def merge(self, other: Contingency) -> Contingency:
        """Add ``other``'s counts into this accumulator, in place; returns ``self``.

        Categories are aligned by name; a category only one side knows counts
        as "neither assigned nor correct" for the other side's results, as if
        one open accumulator had seen both streams. This accumulator keeps its
        own settings (``unknown``, ``zero_division``, ``verbose``).

        >>> left = Contingency().add_results(["x", "y"], ["x", "x"])
        >>> right = Contingency().add_results(["z"], ["y"])
        >>> both = Contingency().add_results(["x", "y", "z"], ["x", "x", "y"])
        >>> left + right == both
        True
        """
        if not isinstance(other, Contingency):
            raise TypeError(f"can only merge a Contingency, not {type(other).__name__}")
        if other is self:
            other = other.copy()
        staging = _Staging(self._index, "add", removing=False)
        for label in other._labels:
            staging.position(label, "other")
        self._append(staging)
        for mine, theirs in ((self._a, other._a), (self._p, other._p), (self._t, other._t),
                             (self._right, other._right),
                             (self._wrong_assigned, other._wrong_assigned),
                             (self._wrong_correct, other._wrong_correct)):
            for label, count in theirs.items():
                if count:
                    mine[label] += count
        self._fold()
        for shape, count in other._general_shapes().items():
            count += self._shapes.get(shape, 0)
            if count:
                self._shapes[shape] = count
            else:  # the other's removals in its general part, made up for by single labels
                self._shapes.pop(shape, None)
        self._offset = [mine + theirs for mine, theirs in zip(self._offset, other._offset)]
        return self

    def __iadd__(self, other: Contingency) -> Contingency:
        return self.merge(other)

    def __add__(self, other: Contingency) -> Contingency:
        if not isinstance(other, Contingency):
            return NotImplemented
        return self.copy().merge(other)

    def copy(self) -> Contingency:
        """An independent accumulator with the same state and settings."""
        return _copy.deepcopy(self)

    def reset(self) -> None:
        """Forget every result and ``set_entries``; keep the declared categories and settings."""
        del self._labels[self._declared:]
        self._index = {label: position for position, label in enumerate(self._labels)}
        self._a, self._p, self._t = (dict.fromkeys(self._labels, 0) for _ in range(3))
        self._shapes, self._pending = {}, [0] * _SMALL_CODES
        self._right, self._wrong_assigned, self._wrong_correct = (
            dict.fromkeys(self._labels, 0) for _ in range(3))
        self._offset = [0, 0, 0, 0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Contingency):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"Contingency(categories={len(self._labels)}, n_results={self.n_results}, "
                f"unknown={self._unknown!r}, zero_division={self._zero_division!r})")

    # What it holds ------------------------------------------------------------------------

    @property
    def categories(self) -> tuple[Hashable, ...]:
        """The categories, in table order: declared ones first, then as first seen."""
        return tuple(self._labels)

    @property
    def n_results(self) -> int:
        """The number of results added (not counting :meth:`set_entries`)."""
        return (sum(self._shapes.values()) + sum(self._pending) + sum(self._right.values())
                + sum(self._wrong_assigned.values()))

    @property
    def zero_division(self) -> ZeroDivision:
        """The value of undefined ratios: ``"perl"``, ``0.0``, ``1.0`` or ``"nan"``."""
        return self._zero_division

    @property
    def unknown(self) -> Unknown:
        """What a result naming an unknown category does: ``"error"``, ``"ignore"`` or ``"add"``."""
        return self._unknown

    @property
    def micro_table(self) -> tuple[int, int, int, int]:
        """The micro-level cells ``(a, b, c, d)``: the per-category cells summed, plus :meth:`set_entries`."""
        a, b, c, d = (offset + pooled for offset, pooled in zip(self._offset, self._pooled()))
        return a, b, c, d

    # Micro and macro statistics (Perl's) ------------------------------------------------------

    @property
    def micro_accuracy(self) -> float:
        """``(a + d) / (a + b + c + d)`` of the micro table (1 when empty, in Perl mode)."""
        return self._micro(_formulas.accuracy)

    @property
    def micro_error(self) -> float:
        """``(b + c) / (a + b + c + d)`` of the micro table (0 when empty, in Perl mode)."""
        return self._micro(_formulas.error)

    @property
    def micro_precision(self) -> float:
        """``a / (a + b)`` of the micro table; see :func:`~contingency.formulas.classification.precision`."""
        return self._micro(_formulas.precision)

    @property
    def micro_recall(self) -> float:
        """``a / (a + c)`` of the micro table; see :func:`~contingency.formulas.classification.recall`."""
        return self._micro(_formulas.recall)

    @property
    def micro_f1(self) -> float:
        """``2a / (2a + b + c)`` of the micro table; see :func:`~contingency.formulas.classification.f1`."""
        return self._micro(_formulas.f1)

    @property
    def macro_accuracy(self) -> float:
        """Accuracy of each category's table, averaged over categories."""
        return self._macro(_formulas.accuracy)

    @property
    def macro_error(self) -> float:
        """Error of each category's table, averaged over categories."""
        return self._macro(_formulas.error)

    @property
    def macro_precision(self) -> float:
        """Precision of each category's table, averaged over categories.

        Categories that no result named count too, as in Perl: their precision
        is 1 in Perl mode (nothing assigned, nothing missed).
        """
        return self._macro(_formulas.precision)

    @property
    def macro_recall(self) -> float:
        """Recall of each category's table, averaged over categories."""
        return self._macro(_formulas.recall)

    @property
    def macro_f1(self) -> float:
        """F1 of each category's table, averaged over categories."""
        return self._macro(_formulas.f1)

    # Beyond Perl ------------------------------------------------------------------------------

    @property
    def weighted_precision(self) -> float:
        """Per-category precision averaged with each category's support (``a + c``) as weight."""
        return self._weighted(_formulas.precision)

    @property
    def weighted_recall(self) -> float:
        """Per-category recall averaged with each category's support as weight."""
        return self._weighted(_formulas.recall)

    @property
    def weighted_f1(self) -> float:
        """Per-category F1 averaged with each category's support as weight."""
        return self._weighted(_formulas.f1)

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
        both, assigned, correct, counts = self._shape_arrays()
        return _formulas.subset_accuracy(both, assigned, correct, counts,
                                         zero_division=self._zero_division)

    @property
    def hamming_loss(self) -> float:
        """The share of (result, category) decisions that were wrong: ``(b + c) / (n_results × K)``.

        It is the error of the pooled per-category cells, which is
        :attr:`micro_error` unless :meth:`set_entries` was used.
        """
        return float(_formulas.error(*self._pooled(), zero_division=self._zero_division))

    def f_beta(self, beta: float = 1.0, average: Average = "micro") -> float:
        """F-beta, where recall weighs ``beta`` times as much as precision, averaged as asked.

        ``average`` is ``"micro"`` (of the micro table), ``"macro"``,
        ``"weighted"`` (by support) or ``"samples"`` (over results).
        Undefined values follow :attr:`zero_division`.

        >>> s = Contingency().add_results(["a", "a", "b"], ["a", "b", "b"])
        >>> round(s.f_beta(2.0), 4), round(s.f_beta(0.5, average="macro"), 4)
        (0.6667, 0.6944)
        """
        def score(a: Any, b: Any, c: Any, d: Any, *, zero_division: ZeroDivision) -> Any:
            return _formulas.f_beta(a, b, c, d, beta=beta, zero_division=zero_division)

        _formulas.f_beta(0, 0, 0, 0, beta=beta)  # checks beta before anything else
        return self._averaged(score, _check_average(average))

    def matthews_corrcoef(self, average: Literal["micro", "macro"] = "micro") -> float:
        """Matthews correlation: ``"micro"`` of the pooled 2x2 table, ``"macro"`` the mean of each category's.

        Undefined values (an empty row or column) follow :attr:`zero_division`:
        Perl mode gives 1 when there is no error and 0 otherwise.

        >>> s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
        >>> round(s.matthews_corrcoef(), 4), round(s.matthews_corrcoef("macro"), 4)
        (0.3333, 0.5)
        """
        if average not in ("micro", "macro"):
            raise ValueError(f"average must be 'micro' or 'macro', not {average!r}")
        return self._averaged(_formulas.matthews_corrcoef, average)

    # Reports ------------------------------------------------------------------------------------

    def category_stats(self) -> dict[Hashable, dict[str, float | int]]:
        """Per category: cells ``a b c d``, ``precision recall f1 accuracy error`` (Perl's numbers),
        ``support`` (``a + c``) and ``specificity``, in table order.

        >>> Contingency(["x", "y"]).add_results(["x"], ["y"]).category_stats()["x"]
        {'a': 0, 'b': 1, 'c': 0, 'd': 0, 'precision': 0.0, 'recall': 1.0, 'f1': 0.0, \
'accuracy': 0.0, 'error': 1.0, 'support': 0, 'specificity': 0.0}
        """
        if not self._labels:
            raise ValueError(_NO_CATEGORY)
        cells = self._cells()
        columns = {name: score(*cells, zero_division=self._zero_division).tolist()
                   for name, score in {**_SCORES, "specificity": _formulas.specificity}.items()}
        n = self.n_results
        stats: dict[Hashable, dict[str, float | int]] = {}
        for k, (label, a, p, t) in enumerate(zip(self._labels, *self._columns())):
            b, c = p - a, t - a
            stats[label] = {"a": a, "b": b, "c": c, "d": n - a - b - c,
                            **{name: columns[name][k] for name in _SCORES},
                            "support": a + c, "specificity": columns["specificity"][k]}
        return stats

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
        """The state as JSON-safe data, plus every score (under ``"scores"``).

        :meth:`from_dict` rebuilds an identical accumulator from it (the scores
        are recomputed, not read back).

        >>> s = Contingency(["x", "y"], unknown="add").add_results(["x", "z"], ["x", "x"])
        >>> Contingency.from_dict(s.to_dict()) == s
        True
        """
        labels = [label_to_json(label, "category") for label in self._labels]
        a, p, t = self._columns()
        return {
            "format": _FORMAT,
            "categories": labels,
            "declared": self._declared,
            "unknown": self._unknown,
            "zero_division": self._zero_division,
            "verbose": self.verbose,
            "a": a,
            "b": list(map(sub, p, a)),
            "c": list(map(sub, t, a)),
            "result_shapes": [[*shape, count]
                              for shape, count in sorted(self._shape_counts().items())],
            "micro_offset": list(self._offset),
            "scores": self.scores(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Contingency:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any state no calls could make.

        >>> Contingency.from_dict({"format": "contingency.Contingency/1", "categories": ["x"],
        ...     "declared": 1, "unknown": "error", "zero_division": "perl", "verbose": False,
        ...     "a": [2], "b": [0], "c": [0], "result_shapes": [[1, 1, 1, 1]],
        ...     "micro_offset": [0, 0, 0, 0]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: category 'x' has a + b + c = 2 but there are only 1 results
        """
        return _from_dict(cls, data)

    # Internals -----------------------------------------------------------------------------------

    def _state(self) -> tuple[object, ...]:
        # The counts in category order: dicts compare without regard to order.
        return (self._labels, self._declared, self._columns(), self._shape_counts(),
                self._offset, self._unknown, self._zero_division)

    def _say(self, name: object, assigned: object, correct: object) -> None:
        def show(value: object) -> str:
            try:
                return " ".join(str(label) for label in dict.fromkeys(_members(value, "")))
            except TypeError:
                return repr(value)
        print(f"{'' if name is None else name}: assigned=({show(assigned)}) "
              f"correct=({show(correct)})")

    @staticmethod
    def _as_sequence(value: Any, where: str) -> Sequence[Any]:
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise TypeError(f"{where} must be a sequence of results (one item per result), "
                            f"not {type(value).__name__}")
        if isinstance(value, np.ndarray):
            return list(value)
        return value if isinstance(value, Sequence) else list(value)

    @staticmethod
    def _check_lengths(assigned: int, correct: int) -> None:
        if assigned != correct:
            raise ValueError(f"assigned and correct have different lengths ({assigned} and "
                             f"{correct})")

    def _append(self, staging: _Staging) -> None:
        for label in staging.new:
            self._index[label] = len(self._labels)
            self._labels.append(label)
            self._a[label] = self._p[label] = self._t[label] = 0
            self._right[label] = self._wrong_assigned[label] = self._wrong_correct[label] = 0

    def _fold(self) -> None:
        """Move the fast paths' small-shape codes into the shape histogram (before other updates)."""
        if any(self._pending):
            self._shapes = self._general_shapes()
            self._pending = [0] * _SMALL_CODES

    def _general_shapes(self) -> dict[Shape, int]:
        """The general part's shape histogram with the small-shape codes added (read-only)."""
        if not any(self._pending):
            return self._shapes
        shapes = dict(self._shapes)
        for code, count in enumerate(self._pending):
            if count:
                shape = (code & 3, code >> 4, (code >> 2) & 3)
                shapes[shape] = shapes.get(shape, 0) + count
        return shapes

    def _shape_counts(self) -> dict[Shape, int]:
        """The histogram of result shapes of both parts of the state (read-only)."""
        shapes = self._general_shapes()
        right, wrong = sum(self._right.values()), sum(self._wrong_assigned.values())
        if not right and not wrong:
            return shapes
        shapes = dict(shapes)
        for shape, count in ((_HIT, right), (_MISS, wrong)):
            if count:
                count += shapes.get(shape, 0)
                if count:
                    shapes[shape] = count
                else:  # removals in the general part, made up for by the single-label part
                    del shapes[shape]
        return shapes

    def _columns(self) -> tuple[list[int], list[int], list[int]]:
        """Per category, in table order: cell ``a``, times assigned, times correct (both parts summed)."""
        right = list(self._right.values())
        a = list(map(add, self._a.values(), right))
        p = list(map(add, self._p.values(), map(add, right, self._wrong_assigned.values())))
        t = list(map(add, self._t.values(), map(add, right, self._wrong_correct.values())))
        return a, p, t

    def _commit(self, staging: _Staging,
                results: Sequence[tuple[AbstractSet[Hashable], AbstractSet[Hashable]]],
                weight: int) -> None:
        """Append the staged new categories, then count ``results`` with ``weight``.

        A negative weight (removal) is first checked: no count may go below
        zero, so that a failed removal changes nothing.
        """
        self._fold()
        if weight < 0:
            self._check_removal(results, weight)
        self._append(staging)
        for assigned, correct in results:
            self._count(assigned, correct, weight)

    def _count(self, assigned: AbstractSet[Hashable], correct: AbstractSet[Hashable],
               weight: int) -> None:
        """Count one result with ``weight`` (+1 adds, -1 removes): the one path of every update."""
        both = assigned & correct
        for column, labels in ((self._a, both), (self._p, assigned), (self._t, correct)):
            for label in labels:
                column[label] += weight
        shape = (len(both), len(assigned), len(correct))
        count = self._shapes.get(shape, 0) + weight
        if count:
            self._shapes[shape] = count
        else:
            del self._shapes[shape]

    def _check_removal(self, results: Sequence[tuple[AbstractSet[Hashable], AbstractSet[Hashable]]],
                       weight: int) -> None:
        cell_changes: dict[tuple[int, Hashable], int] = {}
        shape_changes: dict[Shape, int] = {}
        for assigned, correct in results:
            both = assigned & correct
            for cell, members in ((0, both), (1, assigned - both), (2, correct - both)):
                for label in members:
                    cell_changes[cell, label] = cell_changes.get((cell, label), 0) + weight
            shape = (len(both), len(assigned), len(correct))
            shape_changes[shape] = shape_changes.get(shape, 0) + weight
        columns = self._columns()
        for (cell, label), change in cell_changes.items():
            a, p, t = (column[self._index[label]] for column in columns)
            have = (a, p - a, t - a)[cell]
            if have + change < 0:
                raise ValueError(f"remove_result: category {label!r} has no "
                                 f"{'abc'[cell]} count left to remove; that result was not added")
        shapes = dict(self._shape_counts())
        for shape, change in shape_changes.items():
            if shapes.get(shape, 0) + change < 0:
                raise ValueError("remove_result: no result of that shape (|assigned ∩ correct|, "
                                 f"|assigned|, |correct|) = {shape} was added")
        for shape, change in shape_changes.items():
            shapes[shape] = shapes.get(shape, 0) + change
        after = _pooled(shapes, len(self._labels))
        if any(offset + cell < 0 for offset, cell in zip(self._offset, after)):
            raise ValueError("remove_result: the micro table set by set_entries has too few "
                             "entries left to remove that result")

    def _shape_arrays(self) -> tuple[NDArray[np.int64] | list[int], ...]:
        shapes = sorted(self._shape_counts().items())
        return ([s[0] for s, _ in shapes], [s[1] for s, _ in shapes],
                [s[2] for s, _ in shapes], [count for _, count in shapes])

    def _pooled(self) -> tuple[int, int, int, int]:
        return _pooled(self._shape_counts(), len(self._labels))

    def _cells(self) -> tuple[NDArray[Any], ...]:
        """Per-category cells a, b, c, d as exact arrays (for scoring only)."""
        n = self.n_results
        a, p, t = (exact(column) for column in self._columns())
        b, c = p - a, t - a
        return a, b, c, exact(n - a - b - c)

    def _micro(self, score: Any) -> float:
        return float(score(*self.micro_table, zero_division=self._zero_division))

    def _macro(self, score: Any) -> float:
        if not self._labels:
            raise ValueError(_NO_CATEGORY)
        values = score(*self._cells(), zero_division=self._zero_division)
        return average(values, empty=float(score(0, 0, 0, 0, zero_division=self._zero_division)))

    def _weighted(self, score: Any) -> float:
        if not self._labels:
            raise ValueError(_NO_CATEGORY)
        cells = self._cells()
        values = score(*cells, zero_division=self._zero_division)
        return average(values, cells[0] + cells[2],
                       empty=float(score(0, 0, 0, 0, zero_division=self._zero_division)))

    def _samples(self, score: Any) -> float:
        both, assigned, correct, counts = self._shape_arrays()
        return _formulas.samples_average(score, both, assigned, correct, counts,
                                         zero_division=self._zero_division)

    def _averaged(self, score: Any, average: str) -> float:
        if average == "micro":
            return self._micro(score)
        if average == "macro":
            return self._macro(score)
        if average == "weighted":
            return self._weighted(score)
        return self._samples(score)

    def _scores(self) -> dict[str, Any]:
        names = ("precision", "recall", "f1")
        averages: dict[str, Any] = {
            "micro": {name: self._micro(_SCORES[name]) for name in names},
            "macro": None,
            "weighted": None,
            "samples": {name: self._samples(_SCORES[name]) for name in names},
        }
        categories: list[dict[str, Any]] = []
        if self._labels:
            averages["macro"] = {name: self._macro(_SCORES[name]) for name in names}
            averages["weighted"] = {name: self._weighted(_SCORES[name]) for name in names}
            categories = [{"category": label_to_json(label, "category"), **stats}
                          for label, stats in self.category_stats().items()]
        for average_name in ("micro", "macro", "weighted", "samples"):
            if averages[average_name] is not None:
                averages[average_name]["support"] = sum(self._columns()[2])
        return {
            "n_results": self.n_results,
            "categories": categories,
            "averages": averages,
            "micro_table": list(self.micro_table),
            "accuracy": {"micro": self.micro_accuracy,
                         "macro": self.macro_accuracy if self._labels else None},
            "error": {"micro": self.micro_error,
                      "macro": self.macro_error if self._labels else None},
            "subset_accuracy": self.subset_accuracy,
            "hamming_loss": self.hamming_loss,
            "matthews_corrcoef": {
                "micro": self.matthews_corrcoef("micro"),
                "macro": self.matthews_corrcoef("macro") if self._labels else None,
            },
        }

    def _add_indicators(self, assigned: NDArray[Any], correct: NDArray[Any]) -> None:
        if assigned.shape != correct.shape or assigned.ndim != 2:
            raise ValueError("assigned and correct indicator matrices must both be 2-d with one "
                             f"shape, not {assigned.shape} and {correct.shape}")
        k = len(self._labels)
        if assigned.shape[1] != k:
            raise ValueError(f"indicator matrices have {assigned.shape[1]} columns but the "
                             f"accumulator has {k} categories; columns follow "
                             "Contingency.categories")
        predicted = _indicator(assigned, "assigned")
        truth = _indicator(correct, "correct")
        matrices = (predicted & truth, predicted, truth)
        # einsum sums uint8 rows and columns about twice as fast as .sum(axis, dtype=...).
        per_row = np.uint8 if k < 256 else np.int64  # a row sum is at most k
        both, assigned_rows, correct_rows = (np.einsum("ij->i", m, dtype=per_row) for m in matrices)
        shapes = _shape_histogram(both, assigned_rows, correct_rows, k)
        a, p, t = (np.einsum("ij->j", m, dtype=np.int64) for m in matrices)
        self._add_columns(a, p, t, shapes, _Staging(self._index, self._unknown, removing=False))
        if self.verbose:
            for row in range(assigned.shape[0]):
                self._say(row, [self._labels[j] for j in np.flatnonzero(predicted[row])],
                          [self._labels[j] for j in np.flatnonzero(truth[row])])

    def _add_label_arrays(self, assigned: NDArray[Any], correct: NDArray[Any]) -> None:
        self._check_lengths(len(assigned), len(correct))
        staging = _Staging(self._index, self._unknown, removing=False)
        ia, every_assigned = _category_codes(assigned, staging, "assigned")
        ic, every_correct = _category_codes(correct, staging, "correct")
        if staging.new:
            ia, ic = _first_seen_order(staging, ia, ic)
        k = len(self._index) + len(staging.new)
        n = len(ia)
        if n and every_assigned and every_correct and k * k <= max(4 * n, 1 << 20):
            # Every label known and a k x k confusion matrix is small: one bincount.
            confusion = np.bincount(ia * k + ic, minlength=k * k).reshape(k, k)
            a = confusion.diagonal()
            assigned, correct = confusion.sum(axis=1), confusion.sum(axis=0)
            right = int(a.sum())
            shapes = {shape: count for shape, count in ((_HIT, right), (_MISS, n - right)) if count}
        else:
            known_a, known_c = ia >= 0, ic >= 0
            hit = known_a & (ia == ic)
            a = np.bincount(ia[hit], minlength=k)
            assigned = np.bincount(ia[known_a], minlength=k)
            correct = np.bincount(ic[known_c], minlength=k)
            shapes = _shape_histogram(hit, known_a, known_c, 1)
        self._add_columns(a, assigned, correct, shapes, staging)

    def _add_columns(self, a: NDArray[Any], assigned: NDArray[Any], correct: NDArray[Any],
                     shapes: dict[Shape, int], staging: _Staging) -> None:
        """Add per-category counts given in table order (cell a, times assigned, times correct)."""
        self._append(staging)
        self._fold()
        for column, values in ((self._a, a), (self._p, assigned), (self._t, correct)):
            for label, value in zip(self._labels, values.tolist()):
                if value:
                    column[label] += value
        for shape, count in shapes.items():
            self._shapes[shape] = self._shapes.get(shape, 0) + count


def _pooled(shapes: Mapping[Shape, int], k: int) -> tuple[int, int, int, int]:
    """The per-category cells summed over ``k`` categories, from the result shapes alone."""
    a = b = c = n = 0
    for (both, assigned, correct), count in shapes.items():
        a += both * count
        b += (assigned - both) * count
        c += (correct - both) * count
        n += count
    return a, b, c, k * n - a - b - c


def _indicator(matrix: NDArray[Any], where: str) -> NDArray[np.uint8]:
    """A checked 0/1 matrix as uint8 (bool is taken as it is, without a copy)."""
    kind = matrix.dtype.kind
    if kind == "b":
        return matrix.view(np.uint8)
    if kind not in "iuf":
        raise TypeError(f"{where}: an indicator matrix holds 0 and 1, not {matrix.dtype} values")
    if kind in "iu":
        # Seen as unsigned, a negative value is huge: one pass, no temporary array.
        bad = matrix.size and matrix.view(f"u{matrix.dtype.itemsize}").max() > 1
    else:
        bad = ((matrix != 0) & (matrix != 1)).any()
    if bad:
        row, column = (int(x) for x in np.argwhere((matrix != 0) & (matrix != 1))[0])
        raise ValueError(f"{where}[{row}, {column}] is {matrix[row, column].item()!r}; an indicator "
                         "matrix holds only 0 and 1")
    return matrix.astype(np.uint8)


def _shape_histogram(both: NDArray[Any], assigned: NDArray[Any], correct: NDArray[Any],
                     most: int) -> dict[Shape, int]:
    """Count the distinct ``(both, assigned, correct)`` triples of three equal-length vectors.

    Each value is at most ``most``; the triples are coded as one integer and
    counted with a bincount when the code space is small, else with a sort.
    """
    if len(both) == 0:
        return {}
    base = most + 1
    codes = (np.asarray(both, dtype=np.int64) * base + assigned) * base + correct
    if base**3 <= max(4 * len(codes), 1 << 16):
        counts = np.bincount(codes, minlength=base**3)
        present = np.flatnonzero(counts)
        found = counts[present]
    else:
        present, found = np.unique(codes, return_counts=True)
    return {(code // (base * base), code // base % base, code % base): count
            for code, count in zip(present.tolist(), found.tolist())}


def _first_seen_order(staging: _Staging, assigned: NDArray[np.int64],
                      correct: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Renumber the categories a batch adds in the order an add_result loop meets them.

    The loop reads result 0's assigned side, then its correct side, then result 1's...
    so a label first met at row ``r`` ranks by ``2r`` (assigned) or ``2r + 1`` (correct).
    """
    base = len(staging.index)
    first: dict[int, int] = {}
    for side, codes in enumerate((assigned, correct)):
        uniques, rows = np.unique(codes, return_index=True)
        for code, row in zip(uniques.tolist(), rows.tolist()):
            if code >= base:
                first[code] = min(first.get(code, 2 * row + side), 2 * row + side)
    order = sorted(first, key=first.__getitem__)
    table = np.arange(base + len(order) + 1, dtype=np.int64)
    table[-1] = -1  # ignored labels (-1) stay ignored
    table[order] = np.arange(base, base + len(order))
    labels = {position: label for label, position in staging.new.items()}
    staging.new = {labels[code]: table[code].item() for code in order}
    return table[assigned], table[correct]


def _category_codes(values: NDArray[Any], staging: _Staging,
                    where: str) -> tuple[NDArray[np.int64], bool]:
    """The category index of every label in ``values`` (-1 where ignored), and whether none is -1.

    Each distinct label is resolved once. Integer labels in a compact range are
    looked up through a table (no sort, no Python loop when the range holds only
    known categories); other labels through one dictionary look-up each, in C.
    """
    index = staging.index
    if values.dtype.kind in "iu" and values.size:
        low, high = int(values.min()), int(values.max())
        span = high - low + 1
        if span <= max(4 * values.size, 1 << 16):
            shifted = values.astype(np.int64) - low if low else values.astype(np.int64, copy=False)
            if span <= 4 * len(index) + 1024:  # look every integer of the range up, in C
                table = np.fromiter(map(index.get, range(low, high + 1), repeat(-1)),
                                    dtype=np.int64, count=span)
                unresolved = table < 0
                if unresolved.any():  # only the labels present need resolving
                    unresolved &= np.bincount(shifted, minlength=span) > 0
            else:
                table = np.full(span, -1, dtype=np.int64)
                unresolved = np.bincount(shifted, minlength=span) > 0
            for offset in np.flatnonzero(unresolved).tolist():
                table[offset] = staging.position(offset + low, where)
            if low == 0 and np.array_equal(table, np.arange(span)):
                return shifted, True  # labels are already the category indices
            codes = table[shifted]
            return codes, not unresolved.any() or bool(table[unresolved].min() >= 0)
    # Other labels (strings, floats...): one dictionary look-up each, in C (map over
    # dict.get), which beats sorting them; labels not yet known are resolved once each.
    items = values.tolist()
    codes = np.fromiter(map(index.get, items, repeat(-2)), dtype=np.int64, count=len(items))
    unseen = np.flatnonzero(codes == -2)
    if not unseen.size:
        return codes, True
    labels = list(map(items.__getitem__, unseen.tolist()))
    resolved = {label: staging.position(label, where) for label in dict.fromkeys(labels)}
    codes[unseen] = np.fromiter(map(resolved.__getitem__, labels), dtype=np.int64,
                                count=len(labels))
    return codes, min(resolved.values()) >= 0


_KEYS = {"format", "categories", "declared", "unknown", "zero_division", "verbose", "a", "b",
         "c", "result_shapes", "micro_offset"}


def _from_dict(cls: type[Contingency], data: Mapping[str, Any]) -> Contingency:
    def fail(message: str) -> ValueError:
        return ValueError(f"from_dict: {message}")

    if not isinstance(data, Mapping):
        raise TypeError(f"from_dict needs a mapping, not {type(data).__name__}")
    keys = set(data) - {"scores"}  # scores are derived: recomputed, never read
    if keys != _KEYS:
        missing, extra = sorted(_KEYS - keys), sorted(keys - _KEYS, key=str)
        raise fail(f"missing keys {missing}" if missing else f"unknown keys {extra}")
    if data["format"] != _FORMAT:
        raise fail(f"format must be {_FORMAT!r}, not {data['format']!r}")
    raw_labels = data["categories"]
    if not isinstance(raw_labels, list):
        raise fail("categories must be a list")
    labels = [label_from_json(value, f"from_dict: categories[{i}]")
              for i, value in enumerate(raw_labels)]
    if len(set(labels)) != len(labels):
        raise fail("categories has a repeated category")
    k = len(labels)
    declared = check_count(data["declared"], "from_dict: declared")
    if declared > k:
        raise fail(f"declared is {declared} but there are only {k} categories")
    columns = []
    for name in "abc":
        column = data[name]
        if not isinstance(column, list) or len(column) != k:
            raise fail(f"{name} must be a list of {k} counts, one per category")
        columns.append([check_count(v, f"from_dict: {name}[{i}]") for i, v in enumerate(column)])
    shapes: dict[Shape, int] = {}
    if not isinstance(data["result_shapes"], list):
        raise fail("result_shapes must be a list of [both, assigned, correct, count]")
    for i, row in enumerate(data["result_shapes"]):
        if not isinstance(row, list) or len(row) != 4:
            raise fail(f"result_shapes[{i}] must be [both, assigned, correct, count]")
        both, assigned, correct, count = (check_count(v, f"from_dict: result_shapes[{i}]")
                                          for v in row)
        if not both <= min(assigned, correct) or max(assigned, correct) > k or count == 0:
            raise fail(f"result_shapes[{i}] = {row} is not a possible result shape with {k} "
                       "categories")
        if (both, assigned, correct) in shapes:
            raise fail(f"result_shapes[{i}] repeats the shape {(both, assigned, correct)}")
        shapes[both, assigned, correct] = count
    offset = data["micro_offset"]
    if (not isinstance(offset, list) or len(offset) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in offset)):
        raise fail("micro_offset must be a list of 4 integers")
    if not isinstance(data["verbose"], bool):
        raise fail("verbose must be true or false")
    result = cls(labels, unknown=_check_unknown(data["unknown"]),
                 zero_division=check_zero_division(data["zero_division"],
                                                   name="from_dict: zero_division"),
                 verbose=data["verbose"])
    result._declared = declared
    a, b, c = columns
    result._a = dict(zip(labels, a))
    result._p = {label: x + y for label, x, y in zip(labels, a, b)}
    result._t = {label: x + y for label, x, y in zip(labels, a, c)}
    result._shapes = shapes
    n = result.n_results
    for position, label in enumerate(labels):
        total = columns[0][position] + columns[1][position] + columns[2][position]
        if total > n:
            raise fail(f"category {label!r} has a + b + c = {total} but there are only {n} "
                       "results")
    pooled = result._pooled()
    for name, column, expected in zip("abc", columns, pooled):
        if sum(column) != expected:
            raise fail(f"the {name} cells add up to {sum(column)} but the result shapes say "
                       f"{expected}")
    result._offset = list(offset)
    if any(cell < 0 for cell in result.micro_table):
        raise fail(f"micro_offset {offset} makes the micro table negative")
    return result

