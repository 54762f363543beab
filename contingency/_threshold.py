"""ThresholdContingency: the 2 x 2 table of a scored binary stream at every threshold, exact and mergeable.

Settings, the public surface and the reads; the counts and their one write
routine are :class:`~contingency._score_counts.ScoreCounts` (or its compiled twin, chosen by
:mod:`contingency._backend`), the inputs are
coded by :mod:`contingency._scored_inputs`, and every score is a function
of :mod:`contingency.formulas.curves` (or, at one threshold,
:mod:`contingency.formulas.classification`) called on the counts.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any, Literal, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency import _locking
from contingency._backend import ScoreCountsClass
from contingency._contingency import Contingency
from contingency._inputs import exact_weight
from contingency._intervals import IntervalRefused
from contingency._labels import check_label, label_from_json, label_to_json
from contingency._merging import Merging
from contingency._score_counts import ScoreCounts, check_units, count_columns
from contingency._scored_inputs import Binning, coded_batch, key_of, positive_of
from contingency._state_json import check_state, count_from_json, state_error
from contingency.formulas import classification as _classification
from contingency.formulas import curves as _curves
from contingency.formulas._arguments import check_flag, real_number
from contingency.formulas._numeric import MAX_COUNT, MAX_SCALE, ZeroDivision, check_zero_division, shown
from contingency.formulas.intervals import Interval, check_level

__all__ = ["ThresholdContingency"]

_Self = TypeVar("_Self", bound="ThresholdContingency")
_FORMAT = "contingency.ThresholdContingency/1"
_KEYS = ("format", "bins", "pos_label", "zero_division", "scale", "scores", "positives",
         "negatives")
_UNIT = 1  # the default weight, recognised by identity: no check for the commonest call
#: The scores :meth:`ThresholdContingency.interval` gives an interval of, with their methods
#: (the first is the default).
_INTERVAL_METHODS = {"roc_auc": ("delong", "hanley_mcneil"), "average_precision": ("logit",)}
Floats = NDArray[np.float64]

#: The scores :meth:`ThresholdContingency.best_threshold` maximises: vector forms of
#: :mod:`contingency.formulas.classification`, cells (a, b, c, d) = (tp, fp, fn, tn).
_THRESHOLD_SCORES = {
    "f1": _classification.f1,
    "precision": _classification.precision,
    "recall": _classification.recall,
    "specificity": _classification.specificity,
    "informedness": _classification.informedness,
    "accuracy": _classification.accuracy,
    "jaccard": _classification.jaccard,
    "matthews_corrcoef": _classification.matthews_corrcoef,
}


class ThresholdContingency(Merging["ThresholdContingency"]):
    """The contingency table of a binary scored stream at every threshold, exact, streaming and mergeable.

    Each result is a score (a probability, a margin, a logit: higher means
    more likely positive) and whether it is positive (``correct``: a bool or
    0/1, or any label with ``pos_label=`` naming the positive one). A result
    with score ``>= t`` is predicted positive at threshold ``t``; so the
    whole ROC curve, the precision-recall curve and the 2 x 2 table at any
    threshold are functions of the positive and negative weight at each
    distinct score, which is all this accumulator keeps. The name says what
    it is: the :class:`Contingency` of every threshold at once
    (:meth:`at_threshold` gives any one of them).

    >>> curve = ThresholdContingency()
    >>> for score, correct in [(0.8, True), (0.4, False), (0.35, True), (0.1, False)]:
    ...     curve.add(score, correct)
    >>> curve.roc_auc(), curve.average_precision()
    (0.75, 0.8333333333333333)
    >>> curve.remove(0.35, True)
    >>> curve.roc_auc()
    1.0

    Two resolutions, chosen at construction. **Exact** (the default) keeps
    every distinct score: memory O(distinct scores), and every read equals
    scikit-learn's on the raw scores. **Binned** (``bins=`` a number of equal
    bins over [0, 1], or the sorted edges) keeps one count pair per bin,
    memory O(bins) however many results: the curves' thresholds are the
    bins' lower edges (the table at each edge is exact), and the two summary
    reads give a certified bound (:meth:`roc_auc_bound`,
    :meth:`average_precision_bounds`): the exact value of the unbinned scores
    lies within it. The curves and the operating points
    (:meth:`best_threshold`, :meth:`precision_at_recall`...) are those of
    the edges, with no bound.

    >>> binned = ThresholdContingency(bins=4)
    >>> binned.add_results([0.9, 0.8, 0.6, 0.3, 0.2], [1, 0, 1, 1, 0])
    >>> binned.roc_auc(), binned.roc_auc_bound()  # the exact AUC is 4/6: 0.9 and 0.8 share a bin
    (0.5833333333333334, 0.08333333333333334)

    ``add`` followed by ``roc_auc()`` costs O(log n) (a running Mann-Whitney
    statistic, exact), so a learning curve can read the AUC after every
    result; ``brier_score()`` and ``log_loss()`` too (running exact sums of
    their terms), and ``calibration_error(n_bins)`` in O(bins). Weights may
    be fractional and are counted exactly, as :class:`Contingency` counts
    them: integers in units of ``2**-k``, the finest unit a weight has needed
    (``positives`` and the other totals are then floats, each the exact
    weight rounded once). An undefined score (the
    AUC with one class absent, say) follows ``zero_division`` as everywhere
    in the package: ``"perl"`` (default) raises ``ValueError`` naming the
    absent class, ``0.0``, ``1.0`` or ``"nan"`` return that number
    (scikit-learn's NaN is ``"nan"``).

    Every read (a score, a curve, a bound) is a method, with options or
    without, here and on :class:`~contingency.MulticlassThresholdContingency`;
    the properties are the settings and the totals.

    Threads: not thread-safe by default; give each thread its own and
    :meth:`merge` them (exact), or pass ``thread_safe=True`` (every public
    call holds a reentrant lock; see :mod:`contingency._locking`).
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    __slots__ = ("__weakref__", "_binning", "_counts", "_pos_label", "_zero_division")

    _counts: ScoreCounts
    _binning: Binning | None
    _pos_label: Hashable | None
    _zero_division: ZeroDivision

    def __new__(cls: type[_Self], *, bins: Any = None, pos_label: Hashable | None = None,
                zero_division: ZeroDivision = "perl", thread_safe: bool = False) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def __init__(self, *, bins: Any = None, pos_label: Hashable | None = None,
                 zero_division: ZeroDivision = "perl", thread_safe: bool = False) -> None:
        self._binning = None if bins is None else Binning.of(bins)
        self._pos_label = None if pos_label is None else check_label(pos_label, "pos_label")
        self._zero_division = check_zero_division(zero_division)
        self._counts = ScoreCountsClass()

    # Settings and counts -------------------------------------------------------------------

    @property
    def bins(self) -> Floats | None:
        """The bins' edges in binned mode (a copy), ``None`` in exact mode."""
        return None if self._binning is None else self._binning.edges.copy()

    @property
    def pos_label(self) -> Hashable | None:
        """The label of the positive class, or ``None`` when ``correct`` is a bool or 0/1."""
        return self._pos_label

    @property
    def zero_division(self) -> ZeroDivision:
        """What an undefined score is (see the class docstring)."""
        return self._zero_division

    @property
    def n_results(self) -> int | float:
        """The total weight of results, ``P + N`` (an int while every weight is whole, else a float)."""
        counts = self._counts
        return _weight(counts.positives + counts.negatives, counts.scale)

    @property
    def positives(self) -> int | float:
        """``P``, the weight of positive results."""
        return _weight(self._counts.positives, self._counts.scale)

    @property
    def negatives(self) -> int | float:
        """``N``, the weight of negative results."""
        return _weight(self._counts.negatives, self._counts.scale)

    def counts(self) -> tuple[Floats, NDArray[Any], NDArray[Any]]:
        """The state: ``(thresholds, positives, negatives)``, thresholds DECREASING.

        The form every function of :mod:`contingency.formulas.curves` takes
        (read-only arrays): the distinct scores (binned: the lower edges of
        the bins holding results) and the weight of each class there, int64
        while every weight is whole, else float64 (each the exact weight
        rounded once; the reads themselves use the exact counts).

        >>> curve = ThresholdContingency(); curve.add_results([0.2, 0.7, 0.2], [0, 1, 1])
        >>> [column.tolist() for column in curve.counts()]
        [[0.7, 0.2], [1, 1], [0, 1]]
        >>> curve.add(0.7, 0, weight=0.25)
        >>> [column.tolist() for column in curve.counts()]
        [[0.7, 0.2], [1.0, 1.0], [0.25, 1.0]]
        """
        keys, pos, neg = self._exact_columns()
        scale = self._counts.scale
        if not scale:
            return keys, pos, neg
        if pos.dtype == object:  # Python ints past int64: each divided once, correctly rounded
            unit = 1 << scale
            return (keys, np.array([count / unit for count in pos.tolist()], dtype=np.float64),
                    np.array([count / unit for count in neg.tolist()], dtype=np.float64))
        factor = 2.0 ** -scale
        return keys, pos.astype(np.float64) * factor, neg.astype(np.float64) * factor

    def _exact_columns(self) -> tuple[Floats, NDArray[Any], NDArray[Any]]:
        """The counts, thresholds decreasing, in units of ``2**-scale``: int64, or Python ints
        past int64."""
        keys, pos, neg = self._counts.columns()
        return keys[::-1], pos[::-1], neg[::-1]

    def _columns(self) -> tuple[Floats, NDArray[Any], NDArray[Any]]:
        """The counts as the formulas take them, thresholds decreasing: exact integers in units
        of ``2**-scale`` (every score is a ratio of counts, so the unit cancels), or past int64
        in the unit of their greatest common divisor if that brings them into int64 (the same
        ratios), else float64 in a unit that puts the total near ``2**63`` (each count rounded
        once)."""
        keys, pos, neg = self._exact_columns()
        if pos.dtype != object:
            return keys, pos, neg
        return (keys, *_narrowed_counts(pos, neg))

    # Feeding -------------------------------------------------------------------------------

    def add(self, score: float, correct: object, *, weight: float = _UNIT) -> None:
        """Add one result: its score and whether it is positive (``weight`` results if given).

        O(log n). ``weight`` may be fractional (0.25 is counted exactly, in
        units of ``2**-2``). A non-finite score, a ``correct`` that is neither
        a bool nor 0/1 (without ``pos_label=``), a negative weight, or
        a score outside the bins raises and changes nothing.

        >>> curve = ThresholdContingency(pos_label="spam")
        >>> curve.add(0.9, "spam"); curve.add(0.3, "ham", weight=2)
        >>> curve.positives, curve.negatives
        (1, 2)
        >>> curve.add(float("inf"), "spam")
        Traceback (most recent call last):
        ...
        ValueError: add: score must be a finite number, not inf
        """
        w, scale = (1, 0) if weight is _UNIT else exact_weight(weight, "add: weight")
        key = key_of(score, self._binning, "add: score")
        positive = positive_of(correct, self._pos_label, "add: correct")
        if w:
            if scale:
                self._counts.apply(key, positive, w, None, 1, scale)
            else:
                self._counts.apply(key, positive, w)

    def remove(self, score: float, correct: object, *, weight: float = _UNIT) -> None:
        """Take back one result added earlier: :meth:`add` with weight -1.

        >>> curve = ThresholdContingency()
        >>> curve.add(0.5, 1)
        >>> curve.remove(0.5, 0)
        Traceback (most recent call last):
        ...
        ValueError: remove: there are 0 negative results of score 0.5, not 1 to remove
        """
        w, scale = (1, 0) if weight is _UNIT else exact_weight(weight, "remove: weight")
        key = key_of(score, self._binning, "remove: score")
        positive = positive_of(correct, self._pos_label, "remove: correct")
        if w:
            self._counts.apply(key, positive, -w, None, 1, scale)

    def add_results(self, scores: Any, correct: Any, *, sample_weight: Any = None) -> None:
        """Add a batch: a score and a correct label per position (numpy, lists, pandas), weighted.

        The state equals that of the matching :meth:`add` loop. Every input
        is checked before anything changes; errors name the argument and the
        position (``add_results: scores[3]``).

        >>> curve = ThresholdContingency()
        >>> curve.add_results(np.array([0.1, 0.4, 0.35, 0.8]), [0, 0, 1, 1], sample_weight=[1, 1, 2, 1])
        >>> curve.positives, curve.negatives, curve.roc_auc()
        (3, 2, 0.6666666666666666)
        """
        batch, scale = coded_batch(scores, correct, sample_weight, pos_label=self._pos_label,
                                   binning=self._binning, where="add_results")
        self._counts.apply(batch=batch, sign=1, scale=scale)

    def remove_results(self, scores: Any, correct: Any, *, sample_weight: Any = None) -> None:
        """Take back a batch added earlier (the inverse of :meth:`add_results`).

        Every result must be there; if one is not, ``ValueError`` names its
        score and nothing changes.
        """
        batch, scale = coded_batch(scores, correct, sample_weight, pos_label=self._pos_label,
                                   binning=self._binning, where="remove_results")
        self._counts.apply(batch=batch, sign=-1, scale=scale)

    # Combining -----------------------------------------------------------------------------

    def merge(self, other: ThresholdContingency) -> ThresholdContingency:
        """Add ``other``'s counts into this accumulator, in place; returns ``self``.

        The settings must be equal (bins, ``pos_label``, ``zero_division``):
        otherwise ``ValueError`` names the one that differs.

        >>> left, right = ThresholdContingency(), ThresholdContingency()
        >>> left.add(0.9, 1); right.add(0.2, 0)
        >>> (left + right).roc_auc()
        1.0
        """
        if not isinstance(other, ThresholdContingency):
            raise TypeError(f"can only merge a ThresholdContingency, not {type(other).__name__}")
        with _locking.holding(other):
            difference = self._settings_differ(other)
            if difference:
                raise ValueError(f"merge: the accumulators' {difference} differ")
            self._counts.apply(batch=other._counts.columns(), sign=1, scale=other._counts.scale)
        return self

    def copy(self) -> ThresholdContingency:
        """An independent accumulator with the same settings and counts."""
        result = type(self).__new__(type(self))
        result._binning, result._pos_label = self._binning, self._pos_label
        result._zero_division = self._zero_division
        result._counts = self._counts.copy()
        return result

    def reset(self) -> None:
        """Forget every result (the settings stay)."""
        self._counts.clear()

    def _settings_differ(self, other: ThresholdContingency) -> str:
        mine, theirs = self._binning, other._binning
        if (mine is None) != (theirs is None) or (
                mine is not None and theirs is not None
                and not np.array_equal(mine.edges, theirs.edges)):
            return "bins"
        if self._pos_label != other._pos_label:
            return "pos_label"
        if not _same_mode(self._zero_division, other._zero_division):
            return "zero_division"
        return ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThresholdContingency):
            return NotImplemented
        with _locking.holding(other):
            return not self._settings_differ(other) and self._counts == other._counts

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        mode = "exact" if self._binning is None else f"bins={self._binning.edges.size - 1}"
        return (f"ThresholdContingency(positives={self.positives}, negatives={self.negatives}, "
                f"thresholds={len(self._counts)}, {mode})")

    def __getstate__(self) -> dict[str, Any]:
        return {"binning": None if self._binning is None else self._binning.edges.tolist(),
                "pos_label": self._pos_label, "zero_division": self._zero_division,
                "counts": self._counts.__getstate__()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        edges = state["binning"]
        self._binning = None if edges is None else Binning(np.array(edges, dtype=np.float64))
        self._pos_label, self._zero_division = state["pos_label"], state["zero_division"]
        self._counts = ScoreCountsClass()
        self._counts.__setstate__(state["counts"])

    # JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-safe data: settings, and the distinct scores (ascending) with their counts.

        The counts are integers in units of ``2**-scale``, ``scale`` the least
        that holds them all (0 while every weight is whole).

        >>> curve = ThresholdContingency(); curve.add_results([0.2, 0.7, 0.2], [0, 1, 1])
        >>> state = curve.to_dict()
        >>> state["scores"], state["positives"], state["negatives"], state["scale"]
        ([0.2, 0.7], [1, 1], [1, 0], 0)
        >>> ThresholdContingency.from_dict(state) == curve
        True
        >>> curve.add(0.7, 0, weight=0.25); state = curve.to_dict()
        >>> state["positives"], state["negatives"], state["scale"]
        ([4, 4], [4, 1], 2)
        """
        keys, pos_array, neg_array = self._counts.columns()
        scale = self._counts.scale
        pos, neg = pos_array.tolist(), neg_array.tolist()
        least = _least_scale(pos, neg, scale)
        if least != scale:
            pos = [count >> (scale - least) for count in pos]
            neg = [count >> (scale - least) for count in neg]
        return {
            "format": _FORMAT,
            "bins": None if self._binning is None else self._binning.edges.tolist(),
            "pos_label": (None if self._pos_label is None
                          else label_to_json(self._pos_label, "pos_label")),
            "zero_division": self._zero_division,
            "scale": least,
            "scores": keys.tolist(),
            "positives": pos,
            "negatives": neg,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False) -> ThresholdContingency:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any malformed state.

        A missing or unknown key, a score that is not finite, not increasing
        or (binned) not a bin's lower edge, counts that are not non-negative
        integers, a score with no result, a scale past 128 or a total weight past
        ``2**63 - 1`` raise ``ValueError`` starting ``from_dict:``; no
        accumulator is made.

        >>> ThresholdContingency.from_dict({"format": "contingency.ThresholdContingency/1",
        ...     "bins": None, "pos_label": None, "zero_division": "perl", "scale": 0,
        ...     "scores": [0.5, 0.25], "positives": [1, 1], "negatives": [0, 0]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: scores must be strictly increasing (scores[1] = 0.25)
        """
        # The option is checked as every constructor checks it, not as the state: not in the
        # try below, whose errors are the state's.
        thread_safe = check_flag(thread_safe, "thread_safe")
        state = check_state(data, _KEYS, _FORMAT)
        try:
            result = cls(bins=state["bins"], pos_label=(
                None if state["pos_label"] is None
                else label_from_json(state["pos_label"], "from_dict: pos_label")),
                zero_division=state["zero_division"], thread_safe=thread_safe)
        except (TypeError, ValueError) as error:
            raise state_error(str(error)) from None
        scale = count_from_json(state["scale"], "scale")
        if scale > MAX_SCALE:
            raise state_error(f"scale is {scale}; counts are kept in units down to 2**-{MAX_SCALE}")
        columns = [state[name] for name in ("scores", "positives", "negatives")]
        for name, column in zip(("scores", "positives", "negatives"), columns):
            if not isinstance(column, list):
                raise state_error(f"{name} must be a list")
        scores, positives, negatives = columns
        if not len(scores) == len(positives) == len(negatives):
            raise state_error("scores, positives and negatives must have the same length")
        keys: list[float] = []
        for i, score in enumerate(scores):
            try:
                key = key_of(score, None, f"scores[{i}]")
            except (TypeError, ValueError) as error:
                raise state_error(str(error)) from None
            if keys and key <= keys[-1]:
                raise state_error(f"scores must be strictly increasing (scores[{i}] = {key!r})")
            if result._binning is not None and result._binning.key(key, "scores") != key:
                raise state_error(f"scores[{i}] = {key!r} is not the lower edge of a bin")
            keys.append(key)
        pos = [count_from_json(value, f"positives[{i}]") for i, value in enumerate(positives)]
        neg = [count_from_json(value, f"negatives[{i}]") for i, value in enumerate(negatives)]
        for i, (p, n) in enumerate(zip(pos, neg)):
            if not p and not n:
                raise state_error(f"scores[{i}] has no result (empty scores are not listed)")
        try:
            check_units(0, sum(pos) + sum(neg), scale)
        except ValueError as error:
            raise state_error(str(error)) from None
        result._counts.apply(batch=(np.array(keys, dtype=np.float64), *count_columns(pos, neg)),
                             scale=scale)
        return result

    # Curves --------------------------------------------------------------------------------

    def roc_curve(self, *, drop_intermediate: bool = True) -> tuple[Floats, Floats, Floats]:
        """The ROC curve ``(fpr, tpr, thresholds)``, as scikit-learn's ``roc_curve``.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> fpr, tpr, thresholds = curve.roc_curve()
        >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
        ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
        """
        return _curves.roc_curve(*self._columns(), drop_intermediate=drop_intermediate,
                                 zero_division=self._zero_division)

    def roc_auc(self, *, max_fpr: float | None = None) -> float:
        """The area under the ROC curve, as scikit-learn's ``roc_auc_score`` (binary).

        A tied positive-negative pair counts half. Without ``max_fpr`` it is
        read in O(1) from the running Mann-Whitney statistic ``2U`` (exact):
        ``2U / 2PN``, one rounding. ``max_fpr``: McClish's standardised
        partial AUC (O(distinct scores)). Binned: the AUC of the binned
        scores, within :meth:`roc_auc_bound` of the exact one.
        """
        max_fpr = _curves.check_max_fpr(max_fpr, "roc_auc")  # (before anything is read)
        counts = self._counts
        if max_fpr is None:
            positives, negatives = counts.positives, counts.negatives
            if positives or negatives:
                return _curves.auc_from_mann_whitney(counts.twice_u, positives, negatives,
                                                     zero_division=self._zero_division)
        _, pos, neg = self._columns()  # max_fpr, or no result at all (refused by name)
        return _curves.roc_auc(pos, neg, max_fpr=max_fpr, zero_division=self._zero_division)

    def roc_auc_bound(self) -> float:
        """How far the exact AUC of the unbinned scores can be from :meth:`roc_auc`: 0 in exact mode.

        Binned: half the weight of positive-negative pairs that share a bin
        over ``P N`` (:func:`contingency.formulas.curves.roc_auc_bound`); the
        exact AUC lies in ``[roc_auc() - bound, roc_auc() + bound]``.
        """
        if self._binning is None:
            return 0.0
        counts = self._counts  # O(1): the shared pairs are kept running beside 2U
        return _curves.auc_bound_from_shared_pairs(counts.shared, counts.positives,
                                                   counts.negatives)

    def precision_recall_curve(self, *, drop_intermediate: bool = False
                               ) -> tuple[Floats, Floats, Floats]:
        """The precision-recall curve ``(precision, recall, thresholds)``, as scikit-learn's.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> [values.tolist() for values in curve.precision_recall_curve()]
        [[0.5, 0.6666666666666666, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8]]
        """
        return _curves.precision_recall_curve(*self._columns(), drop_intermediate=drop_intermediate)

    def average_precision(self) -> float:
        """Average precision, scikit-learn's step definition (``average_precision_score``)."""
        _, pos, neg = self._columns()
        return _curves.average_precision(pos, neg, zero_division=self._zero_division)

    def average_precision_bounds(self) -> tuple[float, float]:
        """Bounds ``(low, high)`` on the exact average precision of the unbinned scores.

        Exact mode: ``(ap, ap)``. Binned: :func:`contingency.formulas.curves.average_precision_bounds`.
        """
        _, pos, neg = self._columns()
        if self._binning is None:
            value = _curves.average_precision(pos, neg, zero_division=self._zero_division)
            return value, value
        return _curves.average_precision_bounds(pos, neg, zero_division=self._zero_division)

    def det_curve(self, *, drop_intermediate: bool = False) -> tuple[Floats, Floats, Floats]:
        """The detection error tradeoff curve ``(fpr, fnr, thresholds)``, as scikit-learn's ``det_curve``."""
        return _curves.det_curve(*self._columns(), drop_intermediate=drop_intermediate)

    # One threshold -------------------------------------------------------------------------

    def at_threshold(self, t: float) -> Contingency:
        """The :class:`Contingency` of the results at threshold ``t``: score ``>= t`` predicted positive.

        One category (``pos_label``, or ``1``): its table is ``(tp, fp, fn,
        tn)``, so every score :class:`Contingency` reads is read at ``t``.
        Binned: exact when ``t`` is an edge, else the table at the edge just
        above ``t``.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> table = curve.at_threshold(0.35)
        >>> table.micro_table, table.micro_precision
        ((2, 1, 0, 1), 0.6666666666666666)
        """
        t = _curves.check_threshold(t, "at_threshold")  # (before anything is read)
        thresholds, pos, neg = self._exact_columns()
        if pos.dtype == object:  # Python ints past int64: counts_at's sums, exact
            above = _curves.thresholds_above(thresholds, t)
            tp, fp = sum(pos[:above].tolist()), sum(neg[:above].tolist())
            fn, tn = self._counts.positives - tp, self._counts.negatives - fp
        else:
            tp, fp, fn, tn = _curves.counts_at(thresholds, pos, neg, t)
        label = 1 if self._pos_label is None else self._pos_label
        table = Contingency([label], zero_division=self._zero_division)
        scale = self._counts.scale
        for assigned, correct, units in (([label], [label], tp), ([label], [], fp),
                                         ([], [label], fn), ([], [], tn)):
            for weight in _exact_parts(int(units), scale):
                table.add_result(assigned, correct, weight=weight)
        return table

    def _tables(self) -> tuple[Floats, NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]:
        """Every threshold (decreasing) with its table ``(tp, fp, fn, tn)``, as columns."""
        thresholds, pos, neg = self._columns()
        if not thresholds.size:
            raise ValueError("no result has been added: there is no threshold to choose")
        tp, fp = np.cumsum(pos), np.cumsum(neg)
        return thresholds, tp, fp, tp[-1] - tp, fp[-1] - fp  # the last cumulative sums: P, N

    def best_threshold(self, score: str = "f1") -> tuple[float, float]:
        """The threshold that maximises ``score``, and the score there: ``(threshold, value)``.

        ``score`` is one of ``f1``, ``precision``, ``recall``,
        ``specificity``, ``informedness`` (Youden's J), ``accuracy``,
        ``jaccard``, ``matthews_corrcoef``
        (the formulas of :mod:`contingency.formulas.classification` on each
        threshold's table). Every distinct score is a candidate; of equal
        values the highest threshold wins. An undefined value (precision
        where nothing is predicted positive) counts as 0 here, so that it is
        never chosen.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> curve.best_threshold("f1")
        (0.35, 0.8)
        """
        formula = _THRESHOLD_SCORES.get(score) if isinstance(score, str) else None
        if formula is None:
            raise ValueError(f"best_threshold: score must be one of {sorted(_THRESHOLD_SCORES)}, "
                             f"not {shown(score)}")
        thresholds, tp, fp, fn, tn = self._tables()
        values = np.asarray(formula(tp, fp, fn, tn, zero_division=0.0), dtype=np.float64)
        best = int(np.argmax(values))
        return float(thresholds[best]), float(values[best])

    def precision_at_recall(self, min_recall: float) -> tuple[float, float]:
        """The highest precision with recall ``>= min_recall``, and its threshold (torchmetrics).

        As torchmetrics' ``BinaryPrecisionAtFixedRecall``: of the thresholds
        reaching the recall, the greatest ``(precision, recall, threshold)``;
        ``(0.0, 1e6)`` when none does.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> curve.precision_at_recall(0.9)
        (0.6666666666666666, 0.35)
        """
        wanted = _share(min_recall, "min_recall", "precision_at_recall")  # (before any read)
        precision, recall, thresholds = self.precision_recall_curve()
        return _fixed(precision[:-1], recall[:-1], thresholds, wanted)

    def recall_at_precision(self, min_precision: float) -> tuple[float, float]:
        """The highest recall with precision ``>= min_precision``, and its threshold (torchmetrics).

        As torchmetrics' ``BinaryRecallAtFixedPrecision``; ``(0.0, 1e6)`` when
        no threshold reaches the precision.

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> curve.recall_at_precision(0.6)
        (1.0, 0.35)
        """
        wanted = _share(min_precision, "min_precision", "recall_at_precision")  # (before any read)
        precision, recall, thresholds = self.precision_recall_curve()
        return _fixed(recall[:-1], precision[:-1], thresholds, wanted)

    def specificity_at_sensitivity(self, min_sensitivity: float) -> tuple[float, float]:
        """The highest specificity with sensitivity ``>= min_sensitivity``, and its threshold.

        As torchmetrics' ``BinarySpecificityAtSensitivity``, on the ROC
        curve's points (the first, threshold ``inf``, included; of equal
        specificities the highest threshold); ``(0.0, 1e6)`` when none
        reaches the sensitivity. Each rate is one rounding of its quotient
        of counts (torchmetrics computes ``1 - fpr``, which may differ in the
        last digit).

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> curve.specificity_at_sensitivity(1.0)
        (0.5, 0.35)
        """
        wanted = _share(min_sensitivity, "min_sensitivity", "specificity_at_sensitivity")
        thresholds, tp, fp, fn, tn = self._tables()
        # the ROC curve's points: threshold inf (nothing predicted positive) first
        thresholds = np.concatenate([[np.inf], thresholds])
        positives, negatives = tp[-1], fp[-1]  # in the unit of the columns the formulas took
        tp, fp = np.concatenate([[0], tp]), np.concatenate([[0], fp])
        fn, tn = positives - tp, negatives - fp
        if not positives or not negatives:
            # a rate is undefined: the ROC curve's zero_division says what it is (Perl raises)
            fpr, sensitivity, _ = self.roc_curve(drop_intermediate=False)
            specificity = 1.0 - fpr
        else:  # no quotient is 0/0; zero_division 0.0 asks for x / total, one rounding
            sensitivity = np.asarray(_classification.recall(tp, fp, fn, tn, zero_division=0.0))
            specificity = np.asarray(_classification.specificity(tp, fp, fn, tn,
                                                                 zero_division=0.0))
        reached = np.flatnonzero(sensitivity >= wanted)
        if not reached.size:
            return 0.0, 1e6
        best = int(reached[np.argmax(specificity[reached])])
        return float(specificity[best]), float(thresholds[best])

    # Probabilities -------------------------------------------------------------------------

    def _exact_counts(self, what: str) -> tuple[Floats, NDArray[np.int64], NDArray[np.int64]]:
        if self._binning is not None:
            raise ValueError(f"{what} needs the scores themselves: it is read in exact mode "
                             "(construct without bins=)")
        return self._columns()

    def brier_score(self) -> float:
        """The Brier score (scikit-learn's ``brier_score_loss``): scores are probabilities. Exact mode.

        O(1) after an ``add``: the counts keep the exact sum of its terms from the first read on.
        """
        counts = self._counts
        if self._binning is None:
            rounded_sum = counts.term_sum("brier_score")
            if rounded_sum is not None:
                return _curves.mean_of_terms(rounded_sum, counts.positives + counts.negatives)
        return _curves.brier_score(*self._exact_counts("brier_score"))

    def log_loss(self, *, eps: float | Literal["auto"] = "auto") -> float:
        """The log loss (scikit-learn's ``log_loss``, binary): scores are probabilities. Exact mode.

        O(1) after an ``add`` with the default ``eps`` (the counts keep the exact sum of its
        terms from the first read on); another ``eps`` sums the terms of every score.
        """
        clip = _curves.log_loss_eps(eps, "log_loss")  # (before anything is read)
        counts = self._counts
        if self._binning is None and clip == _curves.LOG_LOSS_EPS:
            rounded_sum = counts.term_sum("log_loss")
            if rounded_sum is not None:
                return _curves.mean_of_terms(rounded_sum, counts.positives + counts.negatives)
        return _curves.log_loss(*self._exact_counts("log_loss"), eps=clip)

    def calibration_curve(self, n_bins: int = 5, *,
                          strategy: Literal["uniform", "quantile"] = "uniform"
                          ) -> tuple[Floats, Floats]:
        """``(prob_true, prob_pred)``, as scikit-learn's ``calibration_curve``. Exact mode.

        ``"quantile"`` places its edges at percentiles of the results, each
        weight a number of repeats: it needs whole counts (as the formula).
        """
        _curves.check_choice(strategy, "strategy", _curves.CALIBRATION_STRATEGIES,
                             "calibration_curve")
        counts = self._exact_counts("calibration_curve")
        if strategy == "quantile":
            counts = self._whole_columns("calibration_curve(strategy='quantile')", ValueError)
        return _curves.calibration_curve(*counts, n_bins=n_bins, strategy=strategy)

    def _whole_columns(self, what: str, refusal: type[ValueError]
                       ) -> tuple[Floats, NDArray[np.int64], NDArray[np.int64]]:
        """The counts in whole results (a read that counts results, not weights), or ``refusal``
        naming ``what`` when a fractional weight left a count that is not whole."""
        thresholds, pos, neg = self._exact_columns()
        scale = self._counts.scale
        if not scale:
            return thresholds, pos, neg
        if _least_scale(pos.tolist(), neg.tolist(), scale):
            raise refusal(f"{what}: fractional weights were counted; it takes each weight as a "
                          "number of repeats of its result, so it needs whole counts")
        # whole: at most 2**63 - 1 results in all, so int64 holds them
        return thresholds, (pos >> scale).astype(np.int64), (neg >> scale).astype(np.int64)

    def calibration_error(self, n_bins: int | ArrayLike = 15, *,
                          norm: Literal["l1", "l2", "max"] = "l1") -> float:
        """torchmetrics' binary calibration error (``norm="l1"`` is the expected calibration error).

        ``n_bins`` equal bins over [0, 1], or the bins' edges. Exact mode. O(``n_bins``) after
        an ``add`` for a number of bins (the counts keep the bins of the last few asked for,
        from their first read on); given edges, O(distinct scores).
        """
        _curves.check_choice(norm, "norm", _curves.CALIBRATION_NORMS, "calibration_error")
        if isinstance(n_bins, (int, np.integer, np.bool_)):  # (numpy's too; a bool: refused)
            n_bins = _curves.check_bin_count(n_bins, "calibration_error", edges=True)
        counts = self._counts
        if self._binning is None and type(n_bins) is int:
            bins = counts.calibration_bins(n_bins)
            if bins is not None:
                return bins.read(counts.positives + counts.negatives, norm)
        return _curves.calibration_error(*self._exact_counts("calibration_error"),
                                         n_bins=n_bins, norm=norm)

    # Uncertainty and summaries -------------------------------------------------------------

    def interval(self, score: str = "roc_auc", *, level: float = 0.95,
                 method: str | None = None) -> Interval:
        """A confidence interval from the counts: of the AUC, or of average precision.

        ``"roc_auc"``: DeLong's (``method="delong"``, the default) or Hanley
        and McNeil's (``"hanley_mcneil"``) normal interval
        (:func:`contingency.formulas.curves.roc_auc_interval`).
        ``"average_precision"``: Boyd, Eng and Page's logit interval
        (``method="logit"``, the only one;
        :func:`contingency.formulas.curves.average_precision_interval`).
        Each weight counts as that many results, so the counts must be whole.
        Binned: the interval of the binned read. Hanley and McNeil's needs only
        the AUC and the class sizes: with whole counts it is read in O(1) from
        the running ``2U``; the others read every distinct score.

        >>> curve = ThresholdContingency()
        >>> curve.add_results([0.9, 0.8, 0.7, 0.6, 0.5, 0.5], [1, 0, 1, 0, 1, 0])
        >>> low, estimate, high = curve.interval("roc_auc")
        >>> round(low, 6), round(estimate, 6), high
        (0.055895, 0.611111, 1.0)
        >>> [round(x, 6) for x in curve.interval("average_precision")]
        [0.172089, 0.722222, 0.970169]
        """
        methods = _INTERVAL_METHODS.get(score) if isinstance(score, str) else None
        if methods is None:
            raise ValueError(f"interval: the scores with an interval here are "
                             f"{', '.join(map(repr, _INTERVAL_METHODS))}, not {shown(score)}")
        chosen = methods[0] if method is None else method
        if not isinstance(chosen, str) or chosen not in methods:
            raise ValueError(f"interval({score!r}): method must be "
                             f"{' or '.join(map(repr, methods))}, not {shown(method)}")
        level = check_level(level, "level", "interval")  # (before anything is read)
        counts = self._counts
        if (chosen == "hanley_mcneil" and not counts.scale and counts.positives > 1
                and counts.negatives > 1):  # whole counts, defined: from the running 2U, O(1)
            return _curves.hanley_mcneil_interval(counts.twice_u, counts.positives,
                                                  counts.negatives, level=level)
        # the variances count results: whole counts only, as Contingency's intervals
        whole = self._whole_columns(f"interval({score!r})", IntervalRefused)
        _, pos, neg = whole
        if score == "average_precision":
            return _curves.average_precision_interval(pos, neg, level=level)
        return _curves.roc_auc_interval(pos, neg, level=level,
                                        method="delong" if chosen == "delong" else "hanley_mcneil")

    def scores(self) -> dict[str, Any]:
        """The counts and every score defined on them, as finished numbers (JSON-safe).

        ``roc_auc`` and ``average_precision`` with their bounds; in exact mode
        with every score in [0, 1], ``brier_score`` and ``log_loss`` too.
        A score the state leaves undefined is ``None``.
        """
        result: dict[str, Any] = {"n_results": self.n_results, "positives": self.positives,
                                  "negatives": self.negatives, "thresholds": len(self._counts),
                                  "bins": None if self._binning is None
                                  else self._binning.edges.size - 1}
        result["roc_auc"] = _defined(self.roc_auc)
        result["roc_auc_bound"] = self.roc_auc_bound()
        result["average_precision"] = _defined(self.average_precision)
        bounds = _defined(self.average_precision_bounds)
        result["average_precision_bounds"] = None if bounds is None else list(bounds)
        keys = self._counts.columns()[0]
        if self._binning is None and keys.size and keys[0] >= 0 and keys[-1] <= 1:
            result["brier_score"] = self.brier_score()
            result["log_loss"] = self.log_loss()
        return result

    def report(self, digits: int = 3) -> str:
        """The counts and the scores, as text (:func:`contingency.report.threshold_report`).

        >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
        >>> print(curve.report())
        results: 4   positives: 2   negatives: 2   thresholds: 4 (exact)
        <BLANKLINE>
                  roc auc  0.750
        average precision  0.833
              brier score  0.158
                 log loss  0.472
        """
        from contingency.report import check_digits, threshold_report

        digits = check_digits(digits, "report")  # (before anything is read)
        return threshold_report(self.scores(), digits)


# inspect.signature (IDEs, notebooks) shows __init__'s parameters, not __new__'s.
ThresholdContingency.__signature__ = _locking.constructor_signature(ThresholdContingency)  # type: ignore[attr-defined]


def _same_mode(first: ZeroDivision, second: ZeroDivision) -> bool:
    """Whether two ``zero_division`` settings are the same (NaN equal to NaN)."""
    if isinstance(first, float) and isinstance(second, float):
        return first == second or (math.isnan(first) and math.isnan(second))
    return first == second


def _share(value: object, name: str, where: str) -> float:
    """A number in [0, 1], else ``TypeError`` (``ValueError`` for a number outside it) naming
    ``name`` and the read ``where``."""
    found = real_number(value)
    if found is None:
        raise TypeError(f"{where}: {name} must be a number in [0, 1], not "
                        f"{type(value).__name__}")
    if not 0 <= found <= 1:
        raise ValueError(f"{where}: {name} must be in [0, 1], not {shown(value)}")
    return found


def _fixed(target: Floats, constraint: Floats, thresholds: Floats,
           least: float) -> tuple[float, float]:
    """torchmetrics' ``max((target, constraint, threshold))`` over points with ``constraint >= least``."""
    reached = np.flatnonzero(constraint >= least)
    if not reached.size:
        return 0.0, 1e6
    order = np.lexsort((thresholds[reached], constraint[reached], target[reached]))
    best = int(reached[order[-1]])
    value = float(target[best])
    return value, (float(thresholds[best]) if value != 0.0 else 1e6)


def _defined(read: Any) -> Any:
    """``read()``, or ``None`` where the state leaves it undefined (one class absent)."""
    try:
        return read()
    except ValueError:
        return None



def _weight(units: int, scale: int) -> int | float:
    """A count in units of ``2**-scale`` as the reads report it: an int at scale 0, else the
    weight rounded once (as :class:`Contingency` reports its counts)."""
    return units / (1 << scale) if scale else units


def _narrowed_counts(pos: NDArray[Any], neg: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Counts past int64 (Python ints) as the formulas take them, with the same ratios: divided
    by their greatest common divisor, int64 if that brings their total within ``2**63 - 1``
    (weights that share a factor, such as every weight 1/3, read exactly as whole counts);
    else float64, in the unit that puts the total just below ``2**63`` (each count one
    correctly rounded quotient)."""
    pos_list, neg_list = pos.tolist(), neg.tolist()
    divisor = math.gcd(*pos_list, *neg_list)
    total = (sum(pos_list) + sum(neg_list)) // divisor
    if total <= MAX_COUNT:
        return (np.array([count // divisor for count in pos_list], dtype=np.int64),
                np.array([count // divisor for count in neg_list], dtype=np.int64))
    unit = divisor << (total.bit_length() - 63)
    return (np.array([count / unit for count in pos_list], dtype=np.float64),
            np.array([count / unit for count in neg_list], dtype=np.float64))


def _exact_parts(units: int, scale: int) -> list[int | float]:
    """Weights that add up to ``units * 2**-scale`` exactly, each a float64 without rounding
    (at most 53 significant bits a part): what :meth:`Contingency.add_result` takes."""
    if not scale:
        return [units] if units else []
    parts: list[int | float] = []
    shift = 0
    while units:
        parts.append(math.ldexp(units & ((1 << 53) - 1), shift - scale))
        units >>= 53
        shift += 53
    return [part for part in parts if part]


def _least_scale(pos: list[int], neg: list[int], scale: int) -> int:
    """The least scale that holds every count exactly (the state's canonical unit)."""
    bits = 0
    for count in (*pos, *neg):
        bits |= count
    if not scale or not bits:
        return 0
    return max(0, scale - ((bits & -bits).bit_length() - 1))
