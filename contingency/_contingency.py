"""Contingency: a streaming accumulator of category decisions (Statistics::Contingency for Python).

The public surface, and nothing else: the settings (``unknown``,
``zero_division``, ``verbose``), how each kind of input is checked and turned
into changes (:mod:`contingency._changes`), and every read, one call into
:mod:`contingency.formulas.classification` each. The counts live in one
:class:`contingency._counts.Counts`, whose ``apply`` is the one routine where
they change: a result (weight +1), a removal (the same changes with weight
-1), a batch (aggregated with numpy), a merge (the other's counts),
:meth:`Contingency.set_entries` (the micro offset), :meth:`Contingency.from_dict`
(a merge into an empty accumulator). :meth:`Contingency.add_result`'s fast path
is a cheaper way of calling it for one result, applied at once: no read waits
for anything.

A micro score reads the micro table, a macro or weighted average of
precision, recall or F1 the running sums, macro accuracy and error the
pooled cells, all in constant time; the printed tables are
:mod:`contingency.report`'s. Two slotted mixins hold the rest of the
surface, which the class inherits: the reads under scikit-learn's names
(:mod:`contingency._sklearn_reads`) and the reports of every score at once
(:mod:`contingency._contingency_reports`); the reads on the hot path
(``add_result``, the micro and macro properties) stay on the class itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import _backend, _confusion, _locking, _registry
from contingency._changes import (
    Staging,
    Unknown,
    members,
    result_changes,
)
from contingency._contingency_reports import Reports
from contingency._contingency_state import (
    check_unknown,
    held_counts,
    ordered_counts,
    read_state,
    write_state,
)
from contingency._counts import Counts
from contingency._feeding import SINGLE, add_counts, count_batch, join_pair, take_sets
from contingency._inputs import (
    exact_weight,
    indicator_rows,
)
from contingency._intervals import Score, contingency_interval
from contingency._labels import category_places, check_label, sorted_labels
from contingency._merging import Merging
from contingency._sklearn_reads import install_property_reads
from contingency.formulas import classification as _formulas
from contingency.formulas._numeric import (
    ZeroDivision,
    check_count,
    check_room,
    check_zero_division,
)
from contingency.formulas.intervals import Interval

__all__ = ["Contingency"]

_AVERAGES = _confusion.AVERAGES
_UNIT = 1  # add_result's default weight: the fast path serves it (tested by identity)
_Self = TypeVar("_Self", bound="Contingency")


class _OrderMemo:
    """The slot of Contingency's categories' order, kept while they are the same (a cache, not
    state: :meth:`Contingency._orders`): the counts' names list, its length and holes, and the
    order as a list, a tuple and places in table order (an array: a list of a million ints held
    36 MB). Unset until the first read. A slot of this base, not an attrs field of the class:
    what attrs lists of an accumulator (``attrs.fields``, ``attrs.asdict``, hypothesis printing
    an example by its fields) is its state, set however the accumulator was made, and never the
    memo (``attrs.asdict`` of a fresh accumulator raised ``AttributeError`` on it)."""

    __slots__ = ("_ordered",)

    _ordered: tuple[list[Hashable], int, int,
                    tuple[list[Hashable], tuple[Hashable, ...], NDArray[np.intp]]]


@attrs.define(init=False, eq=False, repr=False)
class Contingency(Reports, Merging["Contingency"], _OrderMemo):
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
        default) leaves the set open: a category joins when first seen, and
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

    _counts: Counts  # every count, and the one routine that changes them
    _unknown: Unknown
    _zero_division: ZeroDivision
    _verbose: bool

    def __init__(
        self,
        categories: Iterable[Hashable] | None = None,
        *,
        verbose: bool = False,
        unknown: Unknown = "error",
        zero_division: ZeroDivision = "perl",
        thread_safe: bool = False,
    ) -> None:
        policy = check_unknown(unknown)
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
                if type(label) is not str:  # (a str is a label: check_label's first test)
                    label = check_label(label, f"categories[{position}]")
                labels.append(label)
        self._unknown, self._zero_division, self._verbose = policy, mode, bool(verbose)
        self._counts = Counts(dict.fromkeys(labels), hold=self._verbose)

    def __new__(cls: type[_Self], *args: Any, thread_safe: bool = False, **kwargs: Any) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    # Feeding ------------------------------------------------------------------------------

    def add_result(self, assigned: object, correct: object, name: object = None, *,
                   weight: float = 1) -> None:
        """Add one result: the categories a classifier assigned, and the correct ones.

        Each side is a single category (a ``str`` is one category, never a
        sequence of characters; so is any hashable value that is not a
        container: numbers, numpy scalars, enum members...), an iterable
        of categories (a list, tuple, set or frozenset; duplicates count once), or a mapping whose keys with
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
        # The fast path, for results whose every label is already a category (or single labels
        # new to an open set): their changes applied at once by the one write routine (a
        # known pair by the counts' count_pair: Counts.apply's rule for one pair, compiled in
        # the kernel). Anything else (an unhashable or invalid label, a weight, verbose) takes
        # the general path. test_contingency checks that every path gives one state. With the
        # kernel built, this method is the kernel's add_result, these steps in C
        # (add_result_reference, below the class, keeps this one).
        counts = self._counts
        if weight is _UNIT and not counts.hold:
            if type(assigned) in SINGLE and type(correct) in SINGLE:
                if counts.count_pair(correct, assigned):  # (False: a label is not a category)
                    return
                if self._unknown == "add":  # a category new to an open set
                    join_pair(counts, assigned, correct)
                    return
            elif take_sets(counts, assigned, correct, self._unknown == "add"):
                return
        self._single(assigned, correct, name, weight, removing=False)

    def _single(self, assigned: object, correct: object, name: object, weight: object, *,
                removing: bool) -> None:
        """Add (or take back) one result ``weight`` times: the general path of one result."""
        where = "remove_result" if removing else "add_result"
        m, k = (1, 0) if weight is _UNIT else exact_weight(weight, f"{where}: weight")
        staging = Staging(self._counts.a, self._unknown, removing=removing)
        result = (staging.labels(assigned, "assigned"), staging.labels(correct, "correct"))
        if self._verbose and not removing:
            self._say(name, assigned, correct)
        unit = max(self._counts.scale, k)
        count = m << (unit - k)
        self._counts.apply(*result_changes([result], -count if removing else count),
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

    def _batch(self, assigned: Any, correct: Any, weights: Any, *, removing: bool,
               names: tuple[str, str, str, str] = ("add_results", "assigned", "correct",
                                                   "weights")) -> None:
        """Count (or take back, ``removing``) a batch given as :meth:`add_results` takes it.

        ``names`` are the caller's and its arguments', for the errors:
        ``(call, assigned, correct, weights)``.
        """
        count_batch(self._counts, self._unknown, assigned, correct, weights, removing=removing,
                    names=names, order=self._order, show=self._say if self._verbose else None)

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
        and ``y_pred`` (the assigned ones, ``assigned``) are read as
        scikit-learn reads them: 1-d label arrays or sequences (one label per
        result), and 2-d 0/1 indicator matrices (multi-label), whether numpy
        arrays or lists of equal-length rows of 0 and 1 (``type_of_target``'s
        rule: ``[[1, 0, 1], [0, 1, 0]]`` is two results over three
        categories). A list of label lists that scikit-learn would refuse
        (ragged rows, or rows of other labels) is read as one set of labels
        per result, as :meth:`add_results` reads it. ``categories=None``
        leaves the set open, except for indicator matrices, whose columns are
        then the categories ``0 .. K-1``, as in scikit-learn. Errors name
        ``y_true``, ``y_pred`` and ``sample_weight``. ``sample_weight`` is
        scikit-learn's (counted exactly, see :meth:`add_results`' ``weights``);
        a label met only in results of weight 0 counts nowhere, so to include
        it in macro averages as scikit-learn does, name it in ``categories``.
        The settings are those of :class:`Contingency` (``zero_division="perl"``
        by default; ``0.0`` gives scikit-learn's default numbers).

        >>> s = Contingency.from_labels(["cat", "dog", "dog"], ["cat", "cat", "dog"],
        ...                             zero_division=0.0)
        >>> s.micro_precision, s.macro_recall   # scikit-learn: precision_score(y_true, y_pred, ...)
        (0.6666666666666666, 0.75)
        >>> s == Contingency(zero_division=0.0).add_results(assigned=["cat", "cat", "dog"],
        ...                                                 correct=["cat", "dog", "dog"])
        True
        """
        rows = indicator_rows(y_true), indicator_rows(y_pred)
        y_true = y_true if rows[0] is None else rows[0]
        y_pred = y_pred if rows[1] is None else rows[1]
        matrices = [isinstance(side, np.ndarray) and side.ndim == 2 for side in (y_true, y_pred)]
        if matrices[0] != matrices[1]:
            one, other = ("y_true", "y_pred") if matrices[0] else ("y_pred", "y_true")
            raise ValueError(f"from_labels: {one} is an indicator matrix (rows of 0 and 1, one "
                             f"column per category) but {other} is not; give both sides in one "
                             "form")
        if categories is None and matrices[0]:
            categories = range(y_true.shape[1])
        result = cls(categories, unknown=unknown, zero_division=zero_division, verbose=verbose,
                     thread_safe=thread_safe)
        result._batch(y_pred, y_true, sample_weight, removing=False,
                      names=("from_labels", "y_pred", "y_true", "sample_weight"))
        return result

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
        table = [value << self._counts.scale for value in table]
        change = [want - have for want, have in zip(table, self._counts.micro)]
        self._counts.apply({}, {}, {}, {}, {}, offset=change)

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
            self._check_mergeable(other)
            return self._add_counts(other)

    def _check_mergeable(self, other: Contingency) -> None:
        """Refuse (``ValueError``) to merge ``other``, whose settings or declared categories differ."""
        for setting, mine, theirs in (
                ("zero_division", self._zero_division, other._zero_division),
                ("unknown", self._unknown, other._unknown),
                ("declared categories", self._declared_order(), other._declared_order())):
            if mine != theirs:
                raise ValueError(f"cannot merge accumulators whose {setting} differ: "
                                 f"{mine!r} here, {theirs!r} in the other")

    def _add_counts(self, other: Contingency) -> Contingency:
        """Add ``other``'s counts, categories aligned by name, whatever its settings.

        :meth:`merge` once the settings agree; also the package's own batch
        helpers (:mod:`contingency.dask`), which count a batch over a table of
        their own making and add it here.
        """
        if other is self:
            other = other.copy()
        add_counts(self._counts, other._counts)
        return self

    def copy(self) -> Contingency:
        """An independent accumulator with the same state and settings."""
        other = _locking.new_instance(type(self), False)  # a locked class: its own new lock
        for name in _SLOTS:
            object.__setattr__(other, name, getattr(self, name))
        object.__setattr__(other, "_counts", self._counts.copy())
        return other

    def reset(self) -> None:
        """Forget every result and ``set_entries``; keep the declared categories and settings."""
        self._counts.clear()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Contingency):
            return NotImplemented
        with _locking.holding(other):
            return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"Contingency(categories={len(self._counts.a)}, "
                f"n_results={self.n_results}, "
                f"unknown={self._unknown!r}, zero_division={self._zero_division!r})")

    def __getstate__(self) -> dict[str, Any]:
        return {name: self._counts.copy() if name == "_counts" else getattr(self, name)
                for name in _SLOTS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _SLOTS:
            object.__setattr__(self, name, state[name])

    # What it holds ------------------------------------------------------------------------

    @property
    def categories(self) -> tuple[Hashable, ...]:
        """The categories, in the order every view lists them.

        Declared categories keep their declared order and come first; the
        others follow sorted, as scikit-learn sorts labels, when they are
        mutually orderable, and numbers first, then by type name and value,
        when they are not (see :func:`~contingency._labels.category_order`):
        never in an order that depends on the history of the counts. Every view follows
        this order: :meth:`confusion_matrix`, :meth:`multilabel_confusion_matrix`,
        :meth:`category_stats`, :meth:`report`, :meth:`to_frame`,
        :meth:`scores`, :meth:`to_dict` and the columns of an indicator matrix
        given to :meth:`add_results`; a ``labels=`` argument overrides it for
        one call.

        >>> Contingency().add_results([2, 0, 1], [2, 1, 1]).categories
        (0, 1, 2)
        >>> Contingency(["z", "a"], unknown="add").add_results(["m", "b"], ["z", "a"]).categories
        ('z', 'a', 'b', 'm')
        """
        return self._orders()[1]

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
        return self._counts.reported(self._counts.n)

    @property
    def verbose(self) -> bool:
        """Whether each result added prints a line, as Perl's ``verbose`` does (settable)."""
        return self._verbose

    @verbose.setter
    def verbose(self, value: bool) -> None:
        self._verbose = self._counts.hold = bool(value)

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
        a, b, c, d = (self._counts.reported(cell) for cell in self._counts.micro)
        return a, b, c, d

    # The averages of each table score (micro_f1, macro_precision, ...) are properties made from
    # the registry of scores (contingency._registry) below the class: _average_reader.
    if TYPE_CHECKING:  # for the type checker: the properties average_properties makes
        micro_precision: float
        micro_recall: float
        micro_f1: float
        micro_accuracy: float
        micro_error: float
        macro_precision: float
        macro_recall: float
        macro_f1: float
        macro_accuracy: float
        macro_error: float
        weighted_precision: float
        weighted_recall: float
        weighted_f1: float
        samples_precision: float
        samples_recall: float
        samples_f1: float

    # Result-level scores --------------------------------------------------------------------------

    @property
    def subset_accuracy(self) -> float:
        """The share of results whose assigned categories are exactly the correct ones.

        >>> Contingency().add_results([["a", "b"], "a"], [["b", "a"], "b"]).subset_accuracy
        0.5
        """
        return _formulas.subset_accuracy(*self._counts.shape_columns(), zero_division=self._zero_division)

    @property
    def error_rate(self) -> float:
        """The share of results that were wrong (assigned categories not exactly the correct ones).

        ``1 -`` :attr:`subset_accuracy`. On single-label results this is
        scikit-learn's ``hamming_loss(y_true, y_pred)`` of 1-d label arrays
        (and ``1 - accuracy_score``); :attr:`hamming_loss` is the per-decision
        form that scikit-learn computes for indicator matrices.

        >>> s = Contingency().add_results([0, 2, 1, 2], [0, 1, 2, 2])
        >>> s.error_rate, round(s.hamming_loss, 4)
        (0.5, 0.3333)
        """
        return _formulas.subset_error(*self._counts.shape_columns(),
                                      zero_division=self._zero_division)

    @property
    def hamming_loss(self) -> float:
        """The share of (result, category) decisions that were wrong: ``(b + c) / (n_results × K)``.

        scikit-learn's ``hamming_loss`` of two indicator matrices (multi-label
        results). Given two 1-d label arrays, scikit-learn's ``hamming_loss``
        is the share of wrong results instead, which is :attr:`error_rate`
        here. It is the error of the pooled per-category cells, which is
        :attr:`micro_error` unless :meth:`set_entries` was used.
        """
        return _registry.TABLE["error"].scalar(*self._counts.pooled(), self._zero_division)

    # Confidence intervals (contingency._intervals) ------------------------------------------------

    def interval(self, score: Score, *, level: float = 0.95, method: str = "wilson",
                 seed: int | None = 0, draws: int = 10_000) -> Interval:
        """The ``level`` confidence interval of a score: ``Interval(low, estimate, high)``.

        ``score`` is the name of a score property (``"micro_precision"``,
        ``"macro_f1"``, ``"subset_accuracy"``...) or ``(score, category)`` for
        one category's ``"precision"``, ``"recall"``, ``"specificity"``,
        ``"accuracy"``, ``"error"``, ``"jaccard"`` or ``"f1"``; ``estimate`` is
        that score's own read, bit for bit. ``method`` is, for a proportion
        of results, ``"wilson"`` (the default), ``"agresti_coull"``,
        ``"clopper_pearson"`` (exact), ``"jeffreys"`` (these two need SciPy,
        ``contingency[stats]``), ``"delta"`` (Wald) or ``"posterior"``
        (``draws`` draws, at most 10**7, from numpy's ``default_rng(seed)``: the
        same counts and seed give the same interval); F1 of a category takes them too
        (through its Jaccard index, of which F1 is an increasing function), its
        ``"delta"`` being the delta method of F1 and its ``"posterior"``
        Goutte and Gaussier's; macro precision, recall and F1 take
        ``"delta"`` (Takahashi et al.), read from running sums in time
        O(categories changed since the last read; for macro F1, times the
        categories each is confused with), never O(categories).

        The results are taken as independent; an integer weight counts as
        that many repeats. ``ValueError`` (the accumulator unchanged) names
        the reason when an interval cannot be given: no results, an
        undefined score (nothing assigned to the category, say), fractional
        weights, a micro table set by :meth:`set_entries`, a method that does
        not apply, and results that are not single-label for the scores that
        need one confusion matrix (micro and macro averages; a category's
        scores and subset accuracy take any results). The docs' page on
        intervals gives every formula.

        >>> s = Contingency().add_results(["a"] * 8 + ["b"] * 4, ["a"] * 6 + ["b"] * 6)
        >>> [round(x, 4) for x in s.interval("micro_precision")]  # 10 results right of 12
        [0.552, 0.8333, 0.953]
        >>> [round(x, 4) for x in s.interval(("recall", "b"))]  # 4 of the 6 b found
        [0.3, 0.6667, 0.9032]
        >>> [round(x, 4) for x in s.interval("macro_f1", method="delta")]
        [0.6121, 0.8286, 1.0]
        >>> s.interval("macro_f1")
        Traceback (most recent call last):
        ...
        contingency.IntervalRefused: interval('macro_f1'): method 'wilson' does not apply: a
        macro average is not a proportion of results; its interval is method='delta' (Takahashi et al.)
        """
        return contingency_interval(self, score, level, method, seed, draws)

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
        return write_state(self._counts, self._order(), self._unknown, self._zero_division)

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
        state = read_state(data)
        return cls._holding(held_counts(state), state.unknown, state.zero_division,
                            thread_safe=thread_safe)

    @classmethod
    def _holding(cls, counts: Counts, unknown: Unknown, zero_division: ZeroDivision, *,
                 thread_safe: bool = False) -> Contingency:
        """An accumulator of these (checked) settings holding ``counts``: :meth:`from_dict`'s."""
        made = _locking.new_instance(cls, thread_safe)
        for name, value in zip(_SLOTS, (counts, unknown, zero_division, False)):
            object.__setattr__(made, name, value)
        return made

    def _order(self) -> list[Hashable]:
        """The categories in :attr:`categories`' order (made again only when the categories change)."""
        return self._orders()[0]

    def _orders(self) -> tuple[list[Hashable], tuple[Hashable, ...], NDArray[np.intp]]:
        """:meth:`_order`, the same as a tuple, and where each is in table order (the counts'
        columns, :func:`~contingency._labels.category_places`): made again only when the categories change,
        which the counts' list of names tells in O(1). That list changes only by taking a
        category at its end (``join``) or a hole in its place (``forget``); any other change of
        the categories (codes made dense again, a reset, a restore, a copy made its own, a change
        of storage) puts a new list in its place. So the list (by identity: the memo holds it,
        so no other object takes its address), its length and the number of holes, which only
        grow while the list is the same, name the categories."""
        counts = self._counts
        names = counts.names
        try:
            held, length, holes, orders = self._ordered
            if held is names and length == len(names) and holes == counts.holes:
                return orders
        except AttributeError:  # (no order made yet)
            pass
        labels = list(counts.a)
        places = category_places(labels, len(counts.declared))
        order = [labels[place] for place in places]
        orders = (order, tuple(order), np.asarray(places, dtype=np.intp))
        object.__setattr__(self, "_ordered", (names, len(names), counts.holes, orders))
        return orders

    def _declared_order(self) -> list[Hashable]:
        """The declared categories, in table order (they come first)."""
        return list(self._counts.a)[:len(self._counts.declared)]

    # Reading -------------------------------------------------------------------------------------

    def _micro_score(self, name: str) -> float:
        return _registry.TABLE[name].scalar(*self._counts.micro, self._zero_division)

    def _running_mean(self, name: str, weighted: bool = False) -> float:
        return _confusion.running_mean(self._counts, name, self._zero_division, weighted)


    def _samples(self, score: Any) -> float:
        return _confusion.samples_mean(self._counts, score, self._zero_division)


    # Internals -----------------------------------------------------------------------------------

    def _state(self) -> tuple[object, ...]:
        # The counts in the categories' order: dicts compare without regard to order.
        order = self._order()
        return (order, self._counts.declared, *ordered_counts(self._counts, order),
                self._unknown, self._zero_division)

    def _say(self, name: object, assigned: object, correct: object) -> None:
        def show(value: object) -> str:
            try:
                return " ".join(str(label) for label in dict.fromkeys(members(value, "")))
            except TypeError:
                return repr(value)
        print(f"{'' if name is None else name}: assigned=({show(assigned)}) "
              f"correct=({show(correct)})")


def _average_reader(row: _registry.TableScore, average: _registry.Average
                    ) -> Callable[[Contingency], float]:
    """How Contingency reads ``average`` of the registry's ``row``: one call into its formula.

    Micro: the row's scalar form of the micro table. Macro: its closed form from
    the pooled cells where the row has one, else the running sums' mean over
    categories (the counts' ``macro_mean``); weighted: theirs
    with supports as weights (``weighted_mean``). Samples: the formula on each result
    shape's table. On the kernel, the micro, macro, weighted and samples reads it serves are
    one call into C
    (:func:`contingency._backend.average_reader`), with the reader written here as
    their specification.
    """
    scalar, name, formula, pooled = row.scalar, row.name, row.formula, row.pooled
    read: Callable[[Contingency], float]
    if average == "micro":
        def read(self: Contingency) -> float:
            return scalar(*self._counts.micro, self._zero_division)
    elif average == "macro" and pooled is not None:
        def read(self: Contingency) -> float:
            counts = self._counts
            _, b, c, _ = counts.pooled()
            return pooled(counts.n, len(counts.ids), b + c, zero_division=self._zero_division)
    elif average == "macro":
        def read(self: Contingency) -> float:
            return self._counts.macro_mean(name, self._zero_division)
    elif average == "weighted":
        def read(self: Contingency) -> float:
            return _confusion.running_mean(self._counts, name, self._zero_division, True)
    else:
        def read(self: Contingency) -> float:
            return _confusion.samples_mean(self._counts, formula, self._zero_division)
    if average != "macro" or pooled is None:
        return _backend.average_reader(name, average, read)
    return read


def install_average_properties(cls: type[Contingency]) -> None:
    """Give ``cls`` the average property of every row of the registry that it lacks.

    Called once below the class; again after :func:`contingency._registry.register` adds a row
    (the properties made before are kept, so a locked subclass made since still wraps them).
    """
    for property_name, made in _registry.average_properties(_average_reader):
        if property_name not in vars(cls):
            setattr(cls, property_name, made)


install_average_properties(Contingency)
install_property_reads(Contingency)  # (precision, recall and f1 read by the properties too)
#: add_result as written above: the specification of the kernel's, which takes its place when
#: the kernel is built (the same steps in C; tests/test_kernel_counts.py runs both).
add_result_reference = Contingency.add_result
Contingency.add_result = _backend.compiled_add_result(  # type: ignore[method-assign]
    add_result_reference, SINGLE, join_pair, take_sets)
#: interval as written above (contingency._intervals): the specification of the kernel's, which
#: takes its place when the kernel is built (Wilson's interval of a micro share in C, every
#: other read by this; tests/test_kernel_intervals.py runs both).
interval_reference = Contingency.interval
Contingency.interval = _backend.compiled_interval(interval_reference)  # type: ignore[method-assign]
#: subset_accuracy, error_rate and hamming_loss as written above: the specifications of the
#: kernel's readers, which take their places when the kernel is built (in C while every result
#: is single-label, or no set_entries offset is set, by these otherwise;
#: tests/test_kernel_counts.py compares both after every step).
shape_readers = {name: getattr(Contingency, name).fget
                 for name in ("subset_accuracy", "error_rate", "hamming_loss")}
for _name, _compiled in (("subset_accuracy", _backend.subset_reader("accuracy",
                                                                    shape_readers["subset_accuracy"])),
                         ("error_rate", _backend.subset_reader("error", shape_readers["error_rate"])),
                         ("hamming_loss", _backend.pooled_reader("error",
                                                                 shape_readers["hamming_loss"]))):
    setattr(Contingency, _name, property(_compiled, doc=shape_readers[_name].__doc__))
#: categories as written above (its memo, _orders): the specification of the kernel's reader,
#: which takes its place when the kernel is built (the memo checked in C, the order made again
#: by this; tests/test_kernel_counts.py compares both, and the order made afresh, every step).
categories_reference = vars(Contingency)["categories"].fget
Contingency.categories = property(  # type: ignore[method-assign,assignment]
    _backend.categories_reader(categories_reference), doc=categories_reference.__doc__)
#: n_results as written above (Counts.reported of the count): the specification of the kernel's
#: reader, which takes its place when the kernel is built (the count in C at scale 0, by this on
#: counts finer than a result; tests/test_kernel_counts.py compares both after every step).
n_results_reference = vars(Contingency)["n_results"].fget
Contingency.n_results = property(  # type: ignore[method-assign,assignment]
    _backend.n_results_reader(n_results_reference), doc=n_results_reference.__doc__)
_SLOTS = ("_counts", "_unknown", "_zero_division", "_verbose")
# inspect.signature (IDEs, notebooks) shows __init__'s parameters, not __new__'s.
Contingency.__signature__ = _locking.constructor_signature(Contingency)  # type: ignore[attr-defined]
# The mixins' methods are Contingency's to its users: a TypeError and a repr name them so.
for _mixin in Contingency.__mro__[1:-1]:
    for _member in vars(_mixin).values():
        if callable(_member) and hasattr(_member, "__qualname__"):
            _member.__qualname__ = f"Contingency.{_member.__name__}"
