"""PairedComparison: two classifiers scored on the same results, each model's scores and McNemar's test.

State, all of it exact integer counts:

- each model's counts, as a :class:`contingency.Contingency` keeps them (a
  :class:`contingency._counts.Counts` each): every score of either model
  is a read of its accumulator, :attr:`PairedComparison.a` or
  :attr:`PairedComparison.b`, read-only views of those counts;
- the paired table (:class:`contingency._paired_counts.PairedCounts`): the
  results by which model was right, and per category the results where some
  model was wrong about it.

Counts change in one routine, :meth:`PairedComparison._apply`: it checks
the change of both models' counts and of the paired table (each
``check``), and only then writes all three, so that a refused change
leaves every count as it was. :meth:`~PairedComparison.add_result` and
:meth:`~PairedComparison.remove_result` call it with one result (weight +w
or -w), :meth:`~PairedComparison.add_results` and
:meth:`~PairedComparison.remove_results` with a batch's aggregated changes,
:meth:`~PairedComparison.merge` and :meth:`~PairedComparison.from_dict`
with another accumulator's counts. ``add_result``'s fast path (single
labels, every one a category of its model already) is a cheaper way of
calling it: every count checked first, then each model's and the table's
one-result write (``count_pair``, ``count_one``: their ``apply``'s rule for
one result); with the kernel built, ``add_result`` is compiled
(contingency/_kernel_paired.pxi) and :data:`add_result_reference` keeps the
Python method.

Reads are O(1): the paired table is four counts (and three per category),
and McNemar's test a function of two of them
(:func:`contingency.formulas.paired.mcnemar`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any, TypeVar, cast

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import _locking
from contingency import report as _report
from contingency._backend import PairedCountsClass, compiled_paired_add_result
from contingency._changes import (
    HIT,
    MISS,
    Changes,
    Staging,
    Unknown,
    label_array_changes,
    result_changes,
    times,
)
from contingency._coding import CodedLabels, coded_single_labels, single_label_array
from contingency._contingency import Contingency
from contingency._counts import Counts
from contingency._feeding import SINGLE, single_kind
from contingency._inputs import check_same_length, exact_weight, exact_weights, label_sequence
from contingency._intervals import paired_block
from contingency._labels import label_from_json, label_to_json
from contingency._merging import Merging
from contingency._paired_counts import (
    PairedChanges,
    PairedCounts,
    negated,
    set_changes,
    single_label_changes,
)
from contingency._registry import paired_names
from contingency._state_json import check_state, count_from_json, state_error
from contingency.formulas._numeric import MAX_COUNT, ZeroDivision, shown
from contingency.formulas.intervals import Interval, check_level, normal_quantile
from contingency.formulas.paired import (
    McNemar,
    PairedTable,
    check_mcnemar_options,
    mcnemar,
    newcombe_difference,
)

__all__ = ["PairedComparison"]

_FORMAT = "contingency.PairedComparison/1"
_UNIT = 1  # add_result's default weight: the fast path serves it (tested by identity)
_RESULTS = "results (one item per result)"
_MODELS = ("a", "b")
_WHOLE = ("a PairedComparison counts whole results (McNemar's test counts results; give a "
          "repeated result its number of repeats)")
#: Contingency's public methods that change its counts: refused on a model's view.
_WRITES = ("add_result", "add_results", "remove_result", "remove_results", "set_entries",
           "merge", "reset", "__iadd__")
_Self = TypeVar("_Self", bound="PairedComparison")
_Labels = NDArray[Any] | CodedLabels  # a side of single labels, coded without a Python loop


class _ModelView(Contingency):
    """One model's accumulator inside a :class:`PairedComparison`: every read, no write.

    It shares the paired accumulator's counts (and its lock), so that a read
    costs what the same read of a ``Contingency`` costs; the methods that
    would change the counts raise ``TypeError``, since a change here would
    leave the other model and the paired table behind. :meth:`copy` gives an
    independent ``Contingency``.
    """

    __slots__ = ()

    def copy(self) -> Contingency:
        """An independent :class:`~contingency.Contingency` with the same counts and settings."""
        return Contingency.from_dict(self.to_dict())

    @property
    def verbose(self) -> bool:
        """Always False: a model inside a paired accumulator prints nothing."""
        return False

    @verbose.setter
    def verbose(self, value: bool) -> None:
        _refuse("verbose")


def _refuse(name: str) -> Any:
    raise TypeError(f"{name}: this Contingency is one model of a PairedComparison, whose counts "
                    "change only through the PairedComparison (add_result(assigned_a, "
                    "assigned_b, correct) and the like: both models and their paired table "
                    "stay in step); .copy() gives an independent Contingency")


def _refusing(name: str) -> Any:
    def refused(self: Any, *args: Any, **kwargs: Any) -> Any:
        return _refuse(name)

    refused.__name__ = refused.__qualname__ = name
    refused.__doc__ = f"Refused: a model of a PairedComparison is read-only (see ``{name}`` of Contingency)."
    return refused


for _name in _WRITES:
    setattr(_ModelView, _name, _refusing(_name))


#: The memos' slots. A name, not a literal, in ``__slots__``: mypy's attrs plugin takes a slotted
#: attrs class's slots to be its fields alone, unless a base's slots are not literal (mypy then
#: checks no assignment against slots), and the class assigns its memos.
_MEMOS = ("_last",)


class _McNemarMemo:
    """The slot of PairedComparison's last McNemar read (a cache, not state: set to ``None``
    whenever the counts change or are rebuilt). A slot of this base, not an attrs field of the
    class: what attrs lists of an accumulator (``attrs.fields``, ``attrs.asdict``) is its state,
    never its memo."""

    __slots__ = _MEMOS

    _last: tuple[tuple[int, int, bool, bool], McNemar] | None  # McNemar's last read


@attrs.define(init=False, eq=False, repr=False)
class PairedComparison(Merging["PairedComparison"], _McNemarMemo):
    """Two classifiers' decisions on the same results: each model's scores, and which one was right.

    Feed it each result once, with both models' decisions and the correct
    categories; read either model's scores from :attr:`a` and :attr:`b` (each
    a :class:`Contingency`, read-only), the paired table of who was right
    (:meth:`paired_table`) and McNemar's test (:meth:`mcnemar`), at any
    moment, in constant time:

    >>> paired = PairedComparison()
    >>> for model_a, model_b, truth in [("cat", "cat", "cat"), ("dog", "cat", "cat"),
    ...                                 ("dog", "dog", "dog"), ("cat", "dog", "dog")]:
    ...     paired.add_result(model_a, model_b, truth)
    >>> paired.a.subset_accuracy, paired.b.subset_accuracy
    (0.5, 1.0)
    >>> paired.paired_table()
    PairedTable(both_right=2, only_a_right=0, only_b_right=2, both_wrong=0)
    >>> paired.mcnemar()
    McNemar(statistic=0.0, pvalue=0.5)

    A result is *right* for a model when the categories it assigned are
    exactly the correct ones, as its ``Contingency`` counts them (its
    ``subset_accuracy``; under ``unknown="ignore"`` an undeclared label
    counts on neither side). Results may be multi-label, as in
    :meth:`Contingency.add_result`; per category, a model is right when it
    assigned the category exactly when it is correct, and
    ``paired_table(category)`` and ``mcnemar(category=...)`` compare the
    models on that category's decisions.

    Parameters
    ----------
    categories, unknown, zero_division, thread_safe:
        As for :class:`Contingency`; both models share them. (``verbose``
        is not offered.) Each model's accumulator gains the categories its
        own results name, as a ``Contingency`` fed ``(assigned_a, correct)``
        (or ``(assigned_b, correct)``) would: ``paired.a`` equals that
        accumulator.

    Notes
    -----
    :attr:`a` and :attr:`b` are views of the counts this accumulator keeps:
    every read of a ``Contingency`` works on them, and every write
    (``add_result``, ``merge``, ``reset``...) raises ``TypeError``, since it
    would leave the other model and the paired table behind; ``paired.a.copy()``
    is an independent ``Contingency``. Weights are whole numbers (repeats):
    McNemar's test counts results. With ``thread_safe=True`` every public call,
    and every read of :attr:`a` and :attr:`b`, holds one lock.
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    _a: _ModelView  # model a: a read-only view of its counts
    _b: _ModelView
    _counts_a: Counts  # their counts (the views' own), for the fast path
    _counts_b: Counts
    _table: PairedCounts  # the paired table

    def __new__(cls: type[_Self], *args: Any, thread_safe: bool = False, **kwargs: Any) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def __init__(self, categories: Iterable[Hashable] | None = None, *,
                 unknown: Unknown = "error", zero_division: ZeroDivision = "perl",
                 thread_safe: bool = False) -> None:
        if categories is not None and not isinstance(categories, (str, bytes)):
            categories = list(categories)  # an iterator is read once, for both models
        first, second = (Contingency(categories, unknown=unknown, zero_division=zero_division)
                         for _ in _MODELS)
        self._set_state(_slots(first), _slots(second), PairedCountsClass())

    # Feeding ------------------------------------------------------------------------------

    def add_result(self, assigned_a: object, assigned_b: object, correct: object, *,
                   weight: int = 1) -> None:
        """Add one result: the categories model a and model b assigned, and the correct ones.

        Each side is what :meth:`Contingency.add_result` takes (a single
        category, an iterable or a mapping of them). ``weight`` counts the
        result that many times: a whole number (``2`` or ``2.0``); a fraction
        raises ``ValueError``. On any error (a label, a weight, a category
        outside a declared set) nothing changes, in either model or in the
        paired table.

        >>> paired = PairedComparison()
        >>> paired.add_result(["x", "y"], "x", {"x", "y"}, weight=2)
        >>> paired.paired_table(), paired.paired_table("y")
        (PairedTable(both_right=0, only_a_right=2, only_b_right=0, both_wrong=0), \
PairedTable(both_right=0, only_a_right=2, only_b_right=0, both_wrong=0))
        """
        # The fast path: single labels, each a category of its model already, the unit
        # weight. Every count is checked first: both models' results and the table's below
        # the limit (the one check each write below makes), b's labels categories of b, and
        # a's by a's count_pair, which writes nothing when one is not (then the general
        # path). Then each model's count_pair and the paired table's count_one write it
        # (their one-result writes: the rules of Counts.apply and PairedCounts.apply for one
        # result). Anything else takes the general path to _apply. With the kernel built,
        # this method is the kernel's paired_add_result, these steps in C
        # (add_result_reference, below the class, keeps this one). (McNemar's cached read is
        # keyed by the counts it reads: no write clears it.)
        if (weight is _UNIT and type(assigned_a) in SINGLE and type(assigned_b) in SINGLE
                and type(correct) in SINGLE):
            a, b, table = self._counts_a, self._counts_b, self._table
            ids_b = b.ids
            if (assigned_b in ids_b and correct in ids_b and a.n < MAX_COUNT
                    and b.n < MAX_COUNT and table.n < MAX_COUNT
                    and a.count_pair(correct, assigned_a)):
                b.count_pair(correct, assigned_b)
                table.count_one(correct, assigned_a, assigned_b)
                return
        self._one(assigned_a, assigned_b, correct, weight, removing=False)

    def remove_result(self, assigned_a: object, assigned_b: object, correct: object, *,
                      weight: int = 1) -> None:
        """Take back a result added earlier: :meth:`add_result`'s path with the counts negated.

        Raises ``ValueError`` and changes nothing when no such result can have
        been added: a check of either model's counts (see
        :meth:`Contingency.remove_result`) or of the paired table fails.

        >>> paired = PairedComparison().add_results(["x", "y"], ["x", "x"], ["x", "y"])
        >>> paired.remove_result("y", "x", "y")
        >>> paired == PairedComparison().add_results(["x"], ["x"], ["x"])
        True
        """
        self._one(assigned_a, assigned_b, correct, weight, removing=True)

    def add_results(self, assigned_a: Any, assigned_b: Any, correct: Any,
                    weights: Any = None) -> PairedComparison:
        """Add a batch of results; the state equals that of the matching :meth:`add_result` loop.

        ``assigned_a``, ``assigned_b`` and ``correct`` are equal-length
        sequences (or 1-d numpy arrays, pandas or Arrow columns) whose items
        are anything :meth:`add_result` takes; sequences of single labels are
        counted with numpy. ``weights`` (whole numbers, one per result) counts
        each result that many times. The whole batch is checked before
        anything is counted. Returns the accumulator.

        >>> import numpy as np
        >>> paired = PairedComparison().add_results(np.array(["x", "y", "y"]),
        ...                                         np.array(["x", "x", "y"]),
        ...                                         np.array(["x", "y", "x"]))
        >>> paired.paired_table()
        PairedTable(both_right=1, only_a_right=1, only_b_right=0, both_wrong=1)
        """
        self._batch(assigned_a, assigned_b, correct, weights, removing=False)
        return self

    def remove_results(self, assigned_a: Any, assigned_b: Any, correct: Any,
                       weights: Any = None) -> PairedComparison:
        """Take back a batch of results added earlier (:meth:`add_results`' path, counts negated).

        If any of its results cannot have been added, ``ValueError`` is raised and
        nothing changes. Returns the accumulator.
        """
        self._batch(assigned_a, assigned_b, correct, weights, removing=True)
        return self

    def _one(self, assigned_a: object, assigned_b: object, correct: object, weight: object, *,
             removing: bool) -> None:
        """One result, ``weight`` times (taken back if ``removing``): the general path."""
        where = "remove_result" if removing else "add_result"
        count = 1 if weight is _UNIT else _whole_weight(weight, f"{where}: weight")
        for value in (assigned_a, assigned_b, correct):
            single_kind(type(value))  # a type of single labels met: the fast path takes it next
        a, b = self._a._counts, self._b._counts
        unknown = self._a._unknown
        staging_a = Staging(a.a, unknown, removing=removing)
        staging_b = Staging(b.a, unknown, removing=removing)
        chosen_a = staging_a.labels(assigned_a, "assigned_a")
        truth = staging_a.labels(correct, "correct")
        chosen_b = staging_b.labels(assigned_b, "assigned_b")
        staging_b.labels(correct, "correct")  # the same set: one declared set, one policy
        signed = -count if removing else count
        self._apply(result_changes([(chosen_a, truth)], signed), list(staging_a.new),
                    result_changes([(chosen_b, truth)], signed), list(staging_b.new),
                    set_changes([((chosen_a, chosen_b, truth), signed)]),
                    removing=removing, where=where)

    def _batch(self, assigned_a: Any, assigned_b: Any, correct: Any, weights: Any, *,
               removing: bool) -> None:
        """A batch given as :meth:`add_results` takes it (taken back if ``removing``)."""
        where = "remove_results" if removing else "add_results"
        sides = []
        for values, name in ((assigned_a, "assigned_a"), (assigned_b, "assigned_b"),
                             (correct, "correct")):
            if isinstance(values, np.ndarray) and values.ndim == 2:
                raise ValueError(f"{where}: {name} is a 2-d array; a PairedComparison takes "
                                 "sequences of results (each a label, or a list or set of "
                                 "labels), not indicator matrices")
            sides.append(label_sequence(values, name, _RESULTS))
        check_same_length(sides[0], sides[2], ("assigned_a", "correct"))
        check_same_length(sides[1], sides[2], ("assigned_b", "correct"))
        exact = None
        if weights is not None:
            exact = _whole_weights(weights, len(sides[2]), where)
        a, b = self._a._counts, self._b._counts
        unknown = self._a._unknown
        coded = [side if single_label_array(side) else coded_single_labels(side, name)
                 for side, name in zip(sides, ("assigned_a", "assigned_b", "correct"))]
        if all(side is not None for side in coded):
            # Single labels: counted with numpy.
            labels_a, labels_b, labels_truth = (cast(_Labels, side) for side in coded)
            staging_a = Staging(a.ids, unknown, removing=removing, base=len(a.names))
            staging_b = Staging(b.ids, unknown, removing=removing, base=len(b.names))
            changes_a = label_array_changes(labels_a, labels_truth, staging_a, a.names, exact,
                                            ("assigned_a", "correct"))
            changes_b = label_array_changes(labels_b, labels_truth, staging_b, b.names, exact,
                                            ("assigned_b", "correct"))
            declared = a.declared

            def counted(label: Hashable) -> bool:  # an undeclared label "ignore" drops
                return unknown != "ignore" or label in declared

            paired = single_label_changes(labels_a, labels_b, labels_truth, counted, exact)
            coded_pairs = True
        else:
            staging_a = Staging(a.a, unknown, removing=removing)
            staging_b = Staging(b.a, unknown, removing=removing)
            n = len(sides[2])
            rows: Iterable[int] = range(n)
            if exact is not None and not exact.all():
                # A row of weight 0 adds no category: its labels are met after every other
                # row's, as in the add_result loop (where it counts nowhere).
                rows = [*np.flatnonzero(exact != 0).tolist(), *np.flatnonzero(exact == 0).tolist()]
            results_a: list[Any] = [None] * n
            results_b: list[Any] = [None] * n
            for row in rows:
                chosen_a = staging_a.labels(sides[0][row], f"assigned_a[{row}]")
                truth = staging_a.labels(sides[2][row], f"correct[{row}]")
                chosen_b = staging_b.labels(sides[1][row], f"assigned_b[{row}]")
                staging_b.labels(sides[2][row], f"correct[{row}]")
                results_a[row], results_b[row] = (chosen_a, truth), (chosen_b, truth)
            counts: Any = 1 if exact is None else exact.tolist()
            changes_a = result_changes(results_a, counts)
            changes_b = result_changes(results_b, counts)
            triples: dict[Any, int] = {}
            for row, ((chosen_a, truth), (chosen_b, _)) in enumerate(zip(results_a, results_b)):
                key = (chosen_a, chosen_b, truth)
                triples[key] = triples.get(key, 0) + (1 if exact is None else counts[row])
            paired = set_changes(triples)
            coded_pairs = False
        if removing:
            changes_a, changes_b, paired = (times(changes_a, -1), times(changes_b, -1),
                                            negated(paired))
        self._apply(changes_a, list(staging_a.new), changes_b, list(staging_b.new), paired,
                    removing=removing, where=where, coded=coded_pairs)

    # The one write path ----------------------------------------------------------------

    def _apply(self, changes_a: Changes, new_a: list[Hashable], changes_b: Changes,
               new_b: list[Hashable], paired: PairedChanges, *, removing: bool, where: str,
               coded: bool = False) -> None:
        """Change both models' counts and the paired table as one: every check, then every write.
        """
        a, b, table = self._a._counts, self._b._counts, self._table
        steps = ((a, changes_a, new_a, f"{where} (model a)"),
                 (b, changes_b, new_b, f"{where} (model b)"))
        for counts, changes, new, named in steps:
            counts.check(*changes, new=new, removing=removing, where=named, coded=coded)
        table.check(paired, removing=removing, where=where)
        for counts, changes, new, named in steps:  # every check passed: the writes
            counts.apply(*changes, new=new, removing=removing, where=named, coded=coded)
        table.apply(paired, removing=removing, where=where)
        self._last = None

    # Combining ----------------------------------------------------------------------------

    def merge(self, other: PairedComparison) -> PairedComparison:
        """Add ``other``'s results into this accumulator, in place; returns ``self``.

        The settings must be equal (``ValueError`` names the one that differs,
        as :meth:`Contingency.merge` does); categories that were not declared
        are aligned by name. The result equals an accumulator that saw both
        streams.

        >>> left = PairedComparison().add_results(["x"], ["y"], ["x"])
        >>> right = PairedComparison().add_results(["y"], ["y"], ["y"])
        >>> left + right == PairedComparison().add_results(["x", "y"], ["y", "y"], ["x", "y"])
        True
        """
        if not isinstance(other, PairedComparison):
            raise TypeError(f"can only merge a PairedComparison, not {type(other).__name__}")
        with _locking.holding(other):  # a thread-safe other side is read under its lock
            if other is self:
                other = other.copy()
            self._add(other._a, other._b, other._table.copy())
        return self

    def _add(self, model_a: Contingency, model_b: Contingency, table: PairedCounts) -> None:
        """Add two models' counts and a paired table (a merge, or a document read): settings checked first."""
        for mine, theirs in ((self._a, model_a), (self._b, model_b)):
            mine._check_mergeable(theirs)
        # Additions are refused only past the count limit: checked for all three first.
        self._table.check((table.cells, {}, {}, {}))
        for counts, added in ((self._a._counts, model_a._counts),
                              (self._b._counts, model_b._counts)):
            counts.check({}, {}, {}, {(0, 0, 0): added.n}, {})
        self._a._add_counts(model_a)
        self._b._add_counts(model_b)
        self._table.apply((table.cells, table.only_a, table.only_b, table.both_wrong))
        self._last = None

    def copy(self) -> PairedComparison:
        """An independent accumulator with the same counts and settings (and ``thread_safe`` option)."""
        other = _locking.new_instance(type(self), False)  # a locked class: its own new lock
        other._set_state(*self._states())
        return other

    def reset(self) -> None:
        """Forget every result; keep the declared categories and settings."""
        self._counts_a.clear()
        self._counts_b.clear()
        self._table.clear()
        self._last = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PairedComparison):
            return NotImplemented
        with _locking.holding(other):
            return (self._a == other._a and self._b == other._b
                    and self._table.state() == other._table.state())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"PairedComparison(n_results={self.n_results}, "
                f"unknown={self._a._unknown!r}, zero_division={self._a._zero_division!r})")

    def __getstate__(self) -> dict[str, Any]:
        model_a, model_b, table = self._states()
        return {"a": model_a, "b": model_b, "table": table}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._set_state(state["a"], state["b"], state["table"])

    def _states(self) -> tuple[dict[str, Any], dict[str, Any], PairedCounts]:
        """Both models' settings and copied counts, and the copied paired table."""
        return (Contingency.__getstate__(self._a), Contingency.__getstate__(self._b),
                self._table.copy())

    def _set_state(self, model_a: dict[str, Any], model_b: dict[str, Any],
                   table: PairedCounts) -> None:
        """Hold these counts: each model behind a read-only view (locked with this lock, if any)."""
        lock = getattr(self, "_lock", None)
        views = []
        for state in (model_a, model_b):
            view = _locking.new_instance(_ModelView, lock is not None)
            if lock is not None:
                view._lock = lock  # type: ignore[attr-defined]  # one lock for all three
            Contingency.__setstate__(view, {**state, "_verbose": False})
            views.append(view)
        self._a, self._b = views
        self._counts_a, self._counts_b = self._a._counts, self._b._counts
        self._table = table
        self._last = None

    # Reading ------------------------------------------------------------------------------

    @property
    def a(self) -> Contingency:
        """Model a's accumulator: every :class:`Contingency` read, no write (see the class notes)."""
        return self._a

    @property
    def b(self) -> Contingency:
        """Model b's accumulator: every :class:`Contingency` read, no write."""
        return self._b

    @property
    def n_results(self) -> int:
        """The number of results (weights included)."""
        return self._table.n

    @property
    def unknown(self) -> Unknown:
        """What a result naming an unknown category does: ``"error"``, ``"ignore"`` or ``"add"``."""
        return self._a._unknown

    @property
    def zero_division(self) -> ZeroDivision:
        """The value of the models' undefined ratios: ``"perl"``, ``0.0``, ``1.0`` or ``"nan"``."""
        return self._a._zero_division

    def paired_table(self, category: Hashable | None = None) -> PairedTable:
        """Who was right: ``PairedTable(both_right, only_a_right, only_b_right, both_wrong)``.

        Of the results (a result is right when its assigned categories are
        exactly the correct ones), or, given a ``category``, of the decisions
        about it (right when the model assigned it exactly when it is
        correct). A category neither model knows raises ``ValueError``.
        Constant time.

        >>> paired = PairedComparison().add_results(["x", "y", "x"], ["x", "x", "y"],
        ...                                         ["x", "x", "x"])
        >>> paired.paired_table()
        PairedTable(both_right=1, only_a_right=1, only_b_right=1, both_wrong=0)
        >>> paired.paired_table("y")   # a assigned y once, b once, never correct
        PairedTable(both_right=1, only_a_right=1, only_b_right=1, both_wrong=0)
        """
        table = self._table
        if category is not None:
            self._check_category(category, "paired_table")
        return table.table(category)

    def mcnemar(self, exact: bool = True, mid_p: bool = False, *,
                category: Hashable | None = None) -> McNemar:
        """McNemar's test of the two models: ``McNemar(statistic, pvalue)``, two-sided.

        ``exact=True`` (the default): the exact conditional binomial test of
        the discordant results (``only_a_right`` of ``only_a_right +
        only_b_right``, against 1/2); ``mid_p=True`` its mid-p version, which
        Fagerland, Lydersen and Laake (2013) recommend; ``exact=False``: the
        asymptotic chi-square test with continuity correction. ``category``
        tests the decisions about one category instead of whole results. See
        :func:`contingency.formulas.paired.mcnemar` for the formulas;
        constant time whatever the counts.

        >>> paired = PairedComparison().add_results(
        ...     ["x"] * 12 + ["y"] * 2, ["x"] * 3 + ["y"] * 11, ["x"] * 14)
        >>> paired.paired_table()
        PairedTable(both_right=3, only_a_right=9, only_b_right=0, both_wrong=2)
        >>> paired.mcnemar()
        McNemar(statistic=0.0, pvalue=0.00390625)
        >>> paired.mcnemar(mid_p=True).pvalue
        0.001953125
        """
        check_mcnemar_options(exact, mid_p)  # before the cache, which 1 == True would pass
        if category is not None:
            self._check_category(category, "mcnemar")
        table = self._table.table(category)
        key = (table.only_a_right, table.only_b_right, exact, mid_p)
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        result = mcnemar(table.only_a_right, table.only_b_right, exact=exact, mid_p=mid_p)
        self._last = (key, result)
        return result

    def accuracy_difference(self, level: float = 0.95) -> Interval:
        """Model a's accuracy less model b's, with its interval: ``Interval(low, estimate, high)``.

        Accuracy is the share of exactly right results; the estimate is
        ``(only_a_right - only_b_right) / n`` and the interval Newcombe's
        method 10 for paired proportions, at ``level``, from the paired table
        (:func:`contingency.formulas.paired.newcombe_difference`): constant time.

        >>> paired = PairedComparison().add_results(
        ...     ["x"] * 12 + ["y"] * 2, ["x"] * 3 + ["y"] * 11, ["x"] * 14)
        >>> [round(bound, 4) for bound in paired.accuracy_difference()]
        [0.3178, 0.6429, 0.7968]
        """
        z = normal_quantile(check_level(level, "level", "accuracy_difference"))
        return Interval(*newcombe_difference(self._table.table(None), z))

    def _check_category(self, category: Hashable, where: str) -> None:
        try:
            known = category in self._a._counts.a or category in self._b._counts.a
        except TypeError:
            known = False
        if not known:
            raise ValueError(f"{where}: {category!r} is not a category of either model")

    def scores(self, intervals: float | None = None) -> dict[str, Any]:
        """Each model's summary scores, the paired table and the three McNemar tests, as JSON-safe data.

        Keys are the names of the properties and methods read: under ``"a"``
        and ``"b"``, ``subset_accuracy``, ``micro_precision``, ``micro_recall``,
        ``micro_f1``, ``macro_precision``, ``macro_recall``, ``macro_f1`` and
        ``hamming_loss`` (``None`` where undefined: macro averages with no
        category); ``"paired_table"``; ``"mcnemar"`` with ``"exact"``,
        ``"mid_p"`` and ``"asymptotic"``. This is what :meth:`report` renders.

        ``intervals``, a level such as 0.95, adds an ``"intervals"`` block:
        ``"level"``, ``"methods"``, under ``"a"`` and ``"b"`` each score's
        ``[low, high]`` (:meth:`Contingency.interval
        <contingency.Contingency.interval>` by Wilson's method, the macro
        averages by the delta method; ``None`` where refused), and
        ``"accuracy_difference"``, :meth:`accuracy_difference` as ``{"low",
        "estimate", "high"}`` (``None`` without a result).

        >>> scores = PairedComparison().add_results(["x", "y"], ["x", "x"], ["x", "y"]).scores()
        >>> scores["a"]["subset_accuracy"], scores["b"]["subset_accuracy"], scores["mcnemar"]["exact"]
        (1.0, 0.5, {'statistic': 0.0, 'pvalue': 1.0})
        >>> block = PairedComparison().add_results(["x"] * 12 + ["y"] * 2, ["x"] * 3 + ["y"] * 11,
        ...                                        ["x"] * 14).scores(intervals=0.95)["intervals"]
        >>> {key: round(value, 4) for key, value in block["accuracy_difference"].items()}
        {'low': 0.3178, 'estimate': 0.6429, 'high': 0.7968}
        >>> [round(bound, 4) for bound in block["a"]["subset_accuracy"]]
        [0.6006, 0.9599]
        """
        return self._scores(intervals, "scores")

    def _scores(self, intervals: float | None, where: str) -> dict[str, Any]:
        """:meth:`scores`, its errors naming the read ``where``."""
        block = None
        if intervals is not None:  # checked before anything is read
            block = paired_block({"a": self._a, "b": self._b}, paired_names(),
                                 check_level(intervals, "intervals", where),
                                 self.accuracy_difference)
        models = {}
        for name, model in (("a", self._a), ("b", self._b)):
            # Macro averages need a category: None (JSON null) without one.
            models[name] = {key: getattr(model, key)
                            if model.categories or not key.startswith("macro_") else None
                            for key in paired_names()}
        found: dict[str, Any] = _report.json_numbers({
            "n_results": self.n_results,
            **models,
            "paired_table": self.paired_table()._asdict(),
            "mcnemar": {name: self.mcnemar(exact, mid_p)._asdict()
                        for name, exact, mid_p in (("exact", True, False), ("mid_p", True, True),
                                                   ("asymptotic", False, False))},
            **({} if block is None else {"intervals": block}),
        })
        return found

    def report(self, digits: int = 3, names: tuple[str, str] = ("a", "b"),
               intervals: float | None = None) -> str:
        """Both models' summary scores, the paired table and McNemar's tests: :meth:`scores`, rendered.

        ``names`` name the models in the headings. ``intervals``, a level such
        as 0.95, puts each score's interval in the column after it, and the
        difference of accuracies with its interval in a block of its own.

        >>> print(PairedComparison().add_results(["x", "y"], ["x", "x"], ["x", "y"]).report())
        results: 2
        <BLANKLINE>
                            model a  model b
           subset accuracy    1.000    0.500
           micro precision    1.000    0.500
              micro recall    1.000    0.500
                  micro f1    1.000    0.500
           macro precision    1.000    0.250
              macro recall    1.000    0.500
                  macro f1    1.000    0.333
              hamming loss    0.000    0.500
        <BLANKLINE>
              paired table  b right  b wrong
                   a right        1        1
                   a wrong        0        0
        <BLANKLINE>
             McNemar tests  statistic  p-value
          exact (binomial)      0.000        1
                     mid-p      0.000      0.5
        asymptotic (chi-2)      0.000        1
        <BLANKLINE>
        a result is right when its assigned categories are exactly the correct ones; the tests
        compare the results only one model got right (two-sided); the asymptotic one has
        Edwards' continuity correction.
        """
        digits = _report.check_digits(digits, "report")  # (before anything is read)
        _report.check_names(names, "report")
        return _report.paired_report(self._scores(intervals, "report"), digits, names)

    # JSON ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-safe data: both models' :meth:`Contingency.to_dict` and the paired table.

        Format ``"contingency.PairedComparison/1"``: ``"a"`` and ``"b"`` (each
        model's document), ``"results"`` (``[both_right, only_a_right,
        only_b_right, both_wrong]``) and ``"categories"`` (``[category,
        only_a_right, only_b_right, both_wrong]`` for each category some model
        was wrong about). :meth:`from_dict` rebuilds an equal accumulator.

        >>> state = PairedComparison().add_results(["x"], ["y"], ["x"]).to_dict()
        >>> state["results"], state["categories"]
        ([0, 1, 0, 0], [['x', 1, 0, 0], ['y', 1, 0, 0]])
        """
        table = self._table
        only_a, only_b, both_wrong, totals = (table.only_a, table.only_b, table.both_wrong,
                                              table.totals)
        # The models' categories in their order (every category of the table is one), each
        # named as its model names it: a document does not depend on the history of the counts.
        order = dict.fromkeys([*self._a.categories, *self._b.categories])
        return {
            "format": _FORMAT,
            "a": self._a.to_dict(),
            "b": self._b.to_dict(),
            "results": list(table.cells),
            "categories": [[label_to_json(label, "category"), only_a.get(label, 0),
                            only_b.get(label, 0), both_wrong.get(label, 0)]
                           for label in order if label in totals],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False) -> PairedComparison:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any state no calls could make.

        Each model's document is checked as :meth:`Contingency.from_dict`
        checks it (its errors name the model: ``from_dict: a: ...``); then the
        two must share their settings and number of results, hold whole
        counts, and agree with the paired table: the results each model got
        wrong, and per category the results where it was wrong about it
        (its cells ``b + c``), must be the table's. Those margins leave a
        count of the table free (a discordant pair could be moved into
        both-right and both-wrong, which McNemar's test would read), so the
        table must also meet the conditions every sequence of results meets:
        a category is wrong only in results where a model is wrong, a result
        where one model alone is right names a category it alone is right
        about, and, when every result names one category a side, the bounds
        each correct category's counts put on the results both got right.
        These conditions are necessary, not sufficient (whether three-way
        counts with given two-way margins exist is a hard problem in
        general). Refused documents raise ``ValueError`` starting
        ``from_dict:``; no accumulator is made.

        >>> state = PairedComparison().add_results(["x"], ["y"], ["x"]).to_dict()
        >>> PairedComparison.from_dict(state) == PairedComparison().add_results(["x"], ["y"], ["x"])
        True
        >>> state["results"] = [1, 0, 0, 0]
        >>> PairedComparison.from_dict(state)
        Traceback (most recent call last):
        ...
        ValueError: from_dict: results say model b was wrong in 0 results, but its counts say 1
        """
        return _from_dict(cls, data, thread_safe)




def _slots(model: Contingency) -> dict[str, Any]:
    """A new model's state, as :meth:`Contingency.__getstate__` gives it."""
    return Contingency.__getstate__(model)


def _whole_weight(weight: object, name: str) -> int:
    """One weight, checked as :meth:`Contingency.add_result` checks it, and whole."""
    m, k = exact_weight(weight, name)
    if k:
        raise ValueError(f"{name} = {shown(weight)} is not a whole number: {_WHOLE}")
    return m


def _whole_weights(weights: object, size: int, where: str) -> Any:
    """A batch's weights as whole numbers (an int64 array, or Python ints when large)."""
    exact, unit = exact_weights(weights, size, where)
    if unit:
        fractional = np.flatnonzero(np.asarray([w % (1 << unit) for w in exact.tolist()]) != 0)
        first = int(fractional[0])
        value = int(exact[first]) / (1 << unit)  # exact: a dyadic weight the float held
        raise ValueError(f"{where}: weights[{first}] = {shown(value)} is not "
                         f"a whole number: {_WHOLE}")
    return exact


# JSON ----------------------------------------------------------------------------------------

_KEYS = ("format", "a", "b", "results", "categories")


def _model_from_dict(data: object, name: str) -> Contingency:
    if not isinstance(data, Mapping):
        raise state_error(f"{name} must be a Contingency document (a mapping)")
    try:
        return Contingency.from_dict(data)
    except (ValueError, TypeError) as problem:
        raise state_error(f"{name}: {str(problem).removeprefix('from_dict: ')}") from None


def _wrong_results(model: Contingency) -> int:
    """The results a model got wrong: those whose assigned set is not the correct one."""
    state = model.to_dict()
    right = sum(int(count) for both, assigned, correct, count in state["result_shapes"]
                if both == assigned == correct)
    return int(model.n_results) - right  # whole counts: checked before


def _check_table(first: Contingency, second: Contingency, cells: list[int],
                 columns: tuple[dict[Hashable, int], dict[Hashable, int], dict[Hashable, int]]
                 ) -> None:
    """Refuse a paired table that no results with these two models' counts can make.

    The margins (:func:`_from_dict` checks them first) leave one count free: the
    results where each model was wrong, ``only_b_right + both_wrong`` and
    ``only_a_right + both_wrong``, and their sum fix every cell but one, so one
    discordant pair could be moved into both-right and both-wrong (which changes
    McNemar's test) without touching them. These are the other conditions
    every sequence of calls meets, each named by its reason:

    - a category some model is wrong about lies in a result some model is wrong
      about: its three counts add up to at most ``n - both_right``; both are
      wrong about it in at most ``both_wrong`` results;
    - a result where only one model is right has the other wrong about at least
      one category, which that model is right about: ``only_a_right`` results
      add at least as many to the categories' ``only_a_right`` counts (and
      likewise for b);
    - when every result of both models names one category a side (their result
      shapes are all right or wrong single labels), each model's pairs (correct,
      assigned) are known: the results with correct category ``z`` number the
      same for both models, and among them both are right in at least
      ``right_a(z) + right_b(z) - n(z)`` and at most ``min(right_a(z),
      right_b(z))`` (Fréchet's bounds); with ``E(z)``, the other results
      where both assigned ``z`` (Fréchet's bounds again, summed over the
      correct categories of the two models' counts of that wrong pair), the table's
      counts of ``z`` fix ``R(z) + E(z)`` (b alone is wrong about ``z`` in
      ``right_a(z) - R(z)`` results of ``z`` and in ``false_b(z) - E(z)``
      others), which bounds ``R(z)`` further; ``both_right`` is the sum of
      the ``R(z)``. A
      discordant result then names two categories for the model that is wrong,
      and a both-wrong one two for each, one of them (the correct one) shared:
      ``2 only_a_right <= sum(only_a_right counts) <= 2 only_a_right +
      both_wrong``.

    These conditions are necessary, not sufficient: whether a three-way table
    (correct, assigned by a, assigned by b) with given two-way margins exists
    is a hard problem in general, and a document that meets them all might
    still be one no calls made. A tampered table is refused whenever a
    condition a call cannot break is broken. For single labels of two
    categories they are also sufficient (a test tries every move of the free
    counts of every document of up to four results); of three, they refuse
    all but 3% of those moves that no results can make (up to three results),
    the rest needing the joint bounds of several categories' counts.
    """
    n = first.n_results
    both_right, only_a_right, only_b_right, both_wrong_results = cells
    only_a, only_b, both_wrong = columns
    anyone_wrong = n - both_right
    for label in {*only_a, *only_b, *both_wrong}:
        a_wrong, b_wrong, both = only_b.get(label, 0), only_a.get(label, 0), both_wrong.get(label, 0)
        if a_wrong + b_wrong + both > anyone_wrong:
            raise state_error(f"categories say a model was wrong about {label!r} in "
                              f"{a_wrong + b_wrong + both} results, but results say a model was "
                              f"wrong in only {anyone_wrong}")
        if both > both_wrong_results:
            raise state_error(f"categories say both models were wrong about {label!r} in {both} "
                              f"results, but results say both were wrong in only "
                              f"{both_wrong_results}")
    for name, only, column in (("a", only_a_right, only_a), ("b", only_b_right, only_b)):
        listed = sum(column.values())
        if listed < only:
            raise state_error(f"results say only model {name} was right in {only} results, but "
                              f"categories list only {listed} (result, category) pairs where "
                              f"only model {name} was right about the category")
    shapes = {*first._counts.shapes, *second._counts.shapes}
    if shapes <= {HIT, MISS}:
        _check_single_label_table(first, second, cells, columns)


def _check_single_label_table(first: Contingency, second: Contingency, cells: list[int],
                              columns: tuple[dict[Hashable, int], dict[Hashable, int],
                                             dict[Hashable, int]]) -> None:
    """:func:`_check_table`'s conditions for results of one category a side (see there)."""
    both_right, only_a_right, only_b_right, both_wrong_results = cells
    only_a, only_b, both_wrong = columns
    per_class: list[dict[Hashable, list[int]]] = []
    pairs = [model._counts.label_pairs() for model in (first, second)]
    for model_pairs in pairs:
        rows: dict[Hashable, list[int]] = {}  # correct category: [results, right]
        for (correct, assigned), count in model_pairs.items():
            row = rows.setdefault(correct, [0, 0])
            row[0] += count
            row[1] += count if correct == assigned else 0
        per_class.append(rows)
    rows_a, rows_b = per_class
    for label in {*rows_a, *rows_b}:
        held_a, held_b = rows_a.get(label, [0, 0])[0], rows_b.get(label, [0, 0])[0]
        if held_a != held_b:
            raise state_error(f"model a holds {held_a} results whose correct category is "
                              f"{label!r}, model b {held_b}")
    # Results where a and b both assigned c wrongly: of each correct z, at most the lesser of
    # a's and b's counts of (z, c), at least what their sum exceeds z's results by (Fréchet).
    shared: dict[Hashable, int] = {}
    forced: dict[Hashable, int] = {}
    for (correct, assigned), count in pairs[0].items():
        if correct != assigned:
            theirs = pairs[1].get((correct, assigned), 0)
            shared[assigned] = shared.get(assigned, 0) + min(count, theirs)
            forced[assigned] = (forced.get(assigned, 0)
                                + max(0, count + theirs - rows_a[correct][0]))
    false_b = dict(second._counts.b)  # b assigned the category wrongly
    least = most = 0
    for label in {*rows_a, *only_a, *only_b, *both_wrong}:
        # Of the results whose correct category is c, R(c) both got right (Fréchet's bounds);
        # E(c) more have both assign c wrongly (at most `shared`). Then b alone is wrong about
        # c in right_a(c) - R(c) results of c and in false_b(c) - E(c) others, so the table's
        # only_a_right count of c fixes S(c) = R(c) + E(c): the bounds of R(c) follow.
        results, right_a = rows_a.get(label, [0, 0])
        right_b = rows_b.get(label, [0, 0])[1]
        total = right_a + false_b.get(label, 0) - only_a.get(label, 0)
        low = max(0, right_a + right_b - results, total - shared.get(label, 0))
        high = min(right_a, right_b, total - forced.get(label, 0))
        if low > high:
            raise state_error(f"categories say of {label!r} only a was right about it in "
                              f"{only_a.get(label, 0)} results, only b in "
                              f"{only_b.get(label, 0)} and both wrong in "
                              f"{both_wrong.get(label, 0)}, which no results can give: of the "
                              f"{results} results whose correct category it is a got "
                              f"{right_a} right and b {right_b}, and they assigned it wrongly "
                              f"in {false_b.get(label, 0)} (b) and "
                              f"{first._counts.b.get(label, 0)} (a) others")
        least, most = least + low, most + high
    if not least <= both_right <= most:
        raise state_error(f"results say both models were right in {both_right} results, but "
                          f"their counts by correct category allow only {least} to {most}")
    for name, only, column in (("a", only_a_right, only_a), ("b", only_b_right, only_b)):
        listed = sum(column.values())
        if not 2 * only <= listed <= 2 * only + both_wrong_results:
            raise state_error(f"results say only model {name} was right in {only} results and "
                              f"both wrong in {both_wrong_results}, so categories must list "
                              f"{2 * only} to {2 * only + both_wrong_results} (result, category) "
                              f"pairs where only model {name} was right about the category, "
                              f"not {listed}")


def _from_dict(cls: type[PairedComparison], data: Mapping[str, Any],
               thread_safe: bool) -> PairedComparison:
    state = check_state(data, _KEYS, _FORMAT)
    models = [_model_from_dict(state[name], name) for name in _MODELS]
    first, second = models
    for setting, here, there in (
            ("unknown", first.unknown, second.unknown),
            ("zero_division", first.zero_division, second.zero_division),
            ("declared categories", first._declared_order(), second._declared_order())):
        if here != there:
            raise state_error(f"the models' {setting} differ: {here!r} in a, {there!r} in b")
    for name, model in zip(_MODELS, models):
        if model.to_dict()["scale"]:
            raise state_error(f"{name} holds fractional counts; a PairedComparison counts whole "
                              "results")
    if first.n_results != second.n_results:
        raise state_error(f"a holds {first.n_results} results but b holds {second.n_results}")
    results = state["results"]
    if not isinstance(results, list) or len(results) != 4:
        raise state_error("results must be [both_right, only_a_right, only_b_right, both_wrong]")
    cells = [count_from_json(value, f"results[{i}]") for i, value in enumerate(results)]
    if sum(cells) != first.n_results:
        raise state_error(f"results add up to {sum(cells)}, but the models hold "
                          f"{first.n_results} results")
    for name, model, wrong in (("a", first, cells[2] + cells[3]),
                               ("b", second, cells[1] + cells[3])):
        counted = _wrong_results(model)
        if wrong != counted:
            raise state_error(f"results say model {name} was wrong in {wrong} results, but its "
                              f"counts say {counted}")
    rows = state["categories"]
    if not isinstance(rows, list):
        raise state_error("categories must be a list of [category, only_a_right, only_b_right, "
                          "both_wrong]")
    table = PairedCountsClass()
    columns: tuple[dict[Hashable, int], ...] = ({}, {}, {})
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 4:
            raise state_error(f"categories[{i}] must be [category, only_a_right, only_b_right, "
                              "both_wrong]")
        label = label_from_json(row[0].item() if isinstance(row[0], np.generic) else row[0],
                                f"from_dict: categories[{i}]")
        counts = [count_from_json(value, f"categories[{i}][{j + 1}]")
                  for j, value in enumerate(row[1:])]
        if label in columns[0]:  # (each listed category has an entry in all three)
            raise state_error(f"categories[{i}] repeats the category {label!r}")
        if not any(counts):
            raise state_error(f"categories[{i}] has no count (such categories are not listed)")
        if sum(counts) > first.n_results:
            raise state_error(f"categories[{i}]: {label!r} has a model wrong about it in "
                              f"{sum(counts)} results, but there are {first.n_results}")
        for column, count in zip(columns, counts):
            column[label] = count
    listed = set(columns[0])
    for name, model, about in (("a", first, (1, 2)), ("b", second, (0, 2))):
        cells_b, cells_c = model._counts.b, model._counts.c
        for label in {*listed, *(label for label in cells_b if cells_b[label] or cells_c[label])}:
            wrong = sum(columns[k].get(label, 0) for k in about)
            counted = cells_b.get(label, 0) + cells_c.get(label, 0)
            if wrong != counted:
                raise state_error(f"categories say model {name} was wrong about {label!r} in "
                                  f"{wrong} results, but its counts say {counted}")
    only_a, only_b, both_wrong = ({label: count for label, count in column.items() if count}
                                  for column in columns)
    _check_table(first, second, cells, (only_a, only_b, both_wrong))
    table.apply((cells, only_a, only_b, both_wrong))
    result = cls(first._declared_order(), unknown=first.unknown,
                 zero_division=first.zero_division, thread_safe=thread_safe)
    result._add(first, second, table)
    return result


#: PairedComparison.add_result as written in Python: the kernel's compiled add_result
#: (contingency/_kernel_paired.pxi) takes its place when the kernel is built, and the
#: differential tests (tests/test_kernel_paired.py) run this one beside it.
add_result_reference = PairedComparison.add_result
PairedComparison.add_result = compiled_paired_add_result(  # type: ignore[method-assign]
    add_result_reference, SINGLE)
