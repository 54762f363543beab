"""MulticlassThresholdContingency: one-vs-rest score tables of K classes and the correct class's rank.

Settings, the public surface and the reads. The state is one
:class:`~contingency.ThresholdContingency` per class (the scores of its
column, positive where the class is correct), their sum (the pooled
table that micro averages read, a running sum kept by the same write
routine and rebuilt from the per-class tables on loading) and, for
single-label results, the weight of results whose correct class ranked
``r``-th (``r = 0..K-1``) in their row, ties broken as scikit-learn's
``top_k_accuracy_score`` breaks them. :meth:`MulticlassThresholdContingency._apply`
is the one routine that changes any of it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from functools import partial
from typing import Any, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

from contingency import _locking
from contingency._coding import encode
from contingency._inputs import exact_weight, label_sequence
from contingency._labels import check_label, label_from_json, label_to_json
from contingency._merging import Merging
from contingency._score_counts import Batch, check_units, exact_total, shifted_batch, shown_weight
from contingency._scored_inputs import Binning, coded_batch, key_of, weight_units
from contingency._state_json import check_state, count_from_json, state_error
from contingency._threshold import ThresholdContingency, _least_scale, _same_mode, _weight
from contingency.formulas import curves as _curves
from contingency.formulas._arguments import check_choice, check_flag
from contingency.formulas._numeric import MAX_COUNT, MAX_SCALE, ZeroDivision, check_zero_division, shown

__all__ = ["MulticlassThresholdContingency"]

_Self = TypeVar("_Self", bound="MulticlassThresholdContingency")
_FORMAT = "contingency.MulticlassThresholdContingency/1"
_KEYS = ("format", "classes", "multilabel", "bins", "zero_division", "scale", "tables", "ranks")
_AVERAGES = ("macro", "weighted", "micro", None)
Average = Literal["macro", "weighted", "micro"] | None
Floats = NDArray[np.float64]
#: A checked batch: scores (n, K), truth (n, K), weights in units of 2**-scale or None, the
#: correct classes' ranks, scale.
_Rows = tuple[Floats, NDArray[np.bool_], NDArray[np.int64] | None, NDArray[np.int64], int]


class MulticlassThresholdContingency(Merging["MulticlassThresholdContingency"]):
    """One-vs-rest curves of K classes from an ``(n, K)`` score matrix: exact, streaming, mergeable.

    Each result is a row of K scores (one per class, in the order of
    ``classes``; higher means more likely) and its correct class (a label
    of ``classes``) or, with ``multilabel=True``, a row of K indicators.
    Class ``k``'s one-vs-rest table is a :class:`ThresholdContingency` of
    column ``k`` (positive where ``k`` is correct); every read of the
    binary accumulator is read per class through :meth:`one_vs_rest`, and
    averaged as scikit-learn averages (``macro``, ``weighted`` by each
    class's positive weight, ``micro`` on the pooled table of every
    (score, indicator) pair, ``None`` for the per-class array).

    >>> curves = MulticlassThresholdContingency(["cat", "dog", "owl"])
    >>> curves.add_results([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
    ...                     [0.4, 0.5, 0.1]], ["cat", "cat", "dog", "owl", "dog"])
    >>> curves.roc_auc(average=None).tolist()
    [0.8333333333333334, 1.0, 1.0]
    >>> curves.roc_auc(), curves.top_k_accuracy(1), curves.top_k_accuracy(3)
    (0.9444444444444445, 0.8, 1.0)

    One-vs-one AUC (Hand and Till, scikit-learn's ``multi_class="ovo"``)
    reads column ``j`` among the results of classes ``j`` and ``k`` only;
    a one-vs-rest table pools every other class, so the state cannot
    serve it exactly and ``roc_auc(multi_class="ovo")`` refuses by name.

    ``bins=`` makes every table binned (see :class:`ThresholdContingency`);
    the rank counts of :meth:`top_k_accuracy` come from the raw scores of
    each row and stay exact. Weights may be fractional, counted exactly as
    the binary accumulator counts them (every table and the rank counts in
    one unit, ``2**-k``). Threads: as
    :class:`ThresholdContingency` (``thread_safe=True``, or one per thread
    and :meth:`merge`).
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    __slots__ = ("__weakref__", "_binning", "_classes", "_index", "_multilabel", "_pooled",
                 "_ranks", "_scale", "_tables", "_zero_division")

    _classes: tuple[Hashable, ...]
    _index: dict[Hashable, int]
    _multilabel: bool
    _binning: Binning | None
    _zero_division: ZeroDivision
    _tables: list[ThresholdContingency]  # one per class, column k against "k is correct"
    _pooled: ThresholdContingency  # the sum of the tables: every (score, indicator) pair
    _ranks: list[int]  # weight of single-label results whose correct class ranked r (0-based)
    _scale: int  # the ranks and every table's counts are in units of 2**-scale

    def __new__(cls: type[_Self], classes: Sequence[Hashable] = (), *, multilabel: bool = False,
                bins: Any = None, zero_division: ZeroDivision = "perl",
                thread_safe: bool = False) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def __init__(self, classes: Sequence[Hashable] = (), *, multilabel: bool = False,
                 bins: Any = None, zero_division: ZeroDivision = "perl",
                 thread_safe: bool = False) -> None:
        if isinstance(classes, (str, bytes)) or not isinstance(classes, (Sequence, np.ndarray)):
            raise TypeError(f"classes must be a sequence of labels, not {type(classes).__name__}")
        labels = tuple(check_label(label, "classes") for label in list(classes))
        if len(labels) < 2:
            raise ValueError(f"classes must name at least two classes, not {len(labels)}")
        index: dict[Hashable, int] = {}
        for i, label in enumerate(labels):
            if label in index:
                raise ValueError(f"classes: {label!r} is listed twice")
            index[label] = i
        if not isinstance(multilabel, (bool, np.bool_)):
            raise TypeError(f"multilabel must be a bool, not {type(multilabel).__name__}")
        self._classes, self._index, self._multilabel = labels, index, bool(multilabel)
        self._binning = None if bins is None else Binning.of(bins)
        self._zero_division = check_zero_division(zero_division)
        edges = None if self._binning is None else self._binning.edges
        self._tables = [ThresholdContingency(bins=edges, zero_division=self._zero_division)
                        for _ in labels]
        self._pooled = ThresholdContingency(bins=edges, zero_division=self._zero_division)
        self._ranks = [0] * len(labels)
        self._scale = 0

    # Settings and counts -------------------------------------------------------------------

    @property
    def classes(self) -> tuple[Hashable, ...]:
        """The classes, in the order of the score matrix's columns."""
        return self._classes

    @property
    def multilabel(self) -> bool:
        """Whether each result's truth is a row of indicators (``True``) or one label."""
        return self._multilabel

    @property
    def bins(self) -> Floats | None:
        """The bins' edges in binned mode (a copy), ``None`` in exact mode."""
        return None if self._binning is None else self._binning.edges.copy()

    @property
    def zero_division(self) -> ZeroDivision:
        """What an undefined score is (as :class:`ThresholdContingency`'s)."""
        return self._zero_division

    @property
    def n_results(self) -> int | float:
        """The total weight of results (rows)."""
        return self._tables[0].n_results

    def supports(self) -> NDArray[Any]:
        """Each class's positive weight (the weights of ``average="weighted"``), in class order."""
        return _weights([table._counts.positives for table in self._tables], self._scale)

    def rank_counts(self) -> NDArray[np.int64]:
        """The weight of results whose correct class ranked ``r``-th in its row, ``r = 0..K-1``.

        Rank 0 is the highest score; of tied scores the class of the higher
        column ranks first (scikit-learn's stable sort, reversed).
        Single-label only (``multilabel=True`` refuses by name).
        """
        self._single_label("rank_counts")
        return _weights(self._ranks, self._scale)

    def one_vs_rest(self, label: Hashable) -> ThresholdContingency:
        """Class ``label``'s one-vs-rest accumulator (a copy): every binary read, for that class.

        >>> curves = MulticlassThresholdContingency([0, 1, 2])
        >>> curves.add_results([[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.5, 0.1, 0.4]], [0, 1, 2])
        >>> curves.one_vs_rest(2).roc_curve()[1].tolist()
        [0.0, 1.0, 1.0]
        """
        try:
            index = self._index.get(label)
        except TypeError:  # (unhashable: an array, a list; never a class)
            index = None
        if index is None:
            raise ValueError(f"one_vs_rest: label {shown(label)} is not one of the classes "
                             f"{list(self._classes)}")
        return self._tables[index].copy()

    def micro(self) -> ThresholdContingency:
        """The pooled accumulator of every (score, indicator) pair (a copy): the micro average's curves."""
        return self._pooled.copy()

    # Feeding -------------------------------------------------------------------------------

    def add(self, scores: Any, correct: Any, *, weight: float = 1) -> None:
        """Add one result: its row of K scores and its correct class (or row of indicators).

        >>> curves = MulticlassThresholdContingency(["a", "b", "c"])
        >>> curves.add([0.2, 0.5, 0.3], "b"); curves.add([0.2, 0.5, 0.3], "c", weight=2)
        >>> curves.top_k_accuracy(1), curves.top_k_accuracy(2)
        (0.3333333333333333, 1.0)
        >>> curves.add([0.2, 0.5, 0.3], "d")
        Traceback (most recent call last):
        ...
        ValueError: add: correct[0] = 'd' is not one of the classes ['a', 'b', 'c']
        """
        w, scale = exact_weight(weight, "add: weight")
        row = self._row(scores, correct, "add")
        if w:
            self._apply_row(*row, w, scale)

    def remove(self, scores: Any, correct: Any, *, weight: float = 1) -> None:
        """Take back one result added earlier: :meth:`add` with weight -1."""
        w, scale = exact_weight(weight, "remove: weight")
        row = self._row(scores, correct, "remove")
        if w:
            self._apply_row(*row, -w, scale)

    def add_results(self, scores: Any, correct: Any, *, sample_weight: Any = None) -> None:
        """Add a batch: an ``(n, K)`` score matrix and n correct classes (or an ``(n, K)`` indicator matrix).

        Every input is checked before anything changes; errors name the
        argument and the position (``scores[3, 1]``, ``correct[2]``).
        """
        self._apply(self._batch(scores, correct, sample_weight, "add_results"), 1)

    def remove_results(self, scores: Any, correct: Any, *, sample_weight: Any = None) -> None:
        """Take back a batch added earlier; if a result is not there, ``ValueError`` and nothing changes."""
        self._apply(self._batch(scores, correct, sample_weight, "remove_results"), -1)

    def _row(self, scores: Any, correct: Any, where: str
             ) -> tuple[list[float], list[bool], int]:
        """One result checked: ``(keys, whether each class is correct, the correct class's rank)``.

        The rank is that of :meth:`_batch` (of tied scores the later column
        first), -1 for a multilabel result; the tests compare both on every stream.
        """
        k = len(self._classes)
        if isinstance(scores, np.ndarray):
            scores = scores.tolist()
        if isinstance(scores, (str, bytes)) or not isinstance(scores, (list, tuple)):
            raise TypeError(f"{where}: scores must be a row of {k} numbers, not "
                            f"{type(scores).__name__}")
        if len(scores) != k:
            raise ValueError(f"{where}: scores must hold {k} numbers, one per class, not "
                             f"{len(scores)}")
        binning = self._binning
        values = [key_of(score, None, f"{where}: scores[{j}]") for j, score in enumerate(scores)]
        keys = values if binning is None else [binning.key(value, f"{where}: scores[{j}]")
                                               for j, value in enumerate(values)]
        if self._multilabel:
            flags = correct.tolist() if isinstance(correct, np.ndarray) else correct
            if not isinstance(flags, (list, tuple)) or len(flags) != k or any(
                    isinstance(flag, float) or flag not in (0, 1) for flag in flags):
                raise ValueError(f"{where}: correct must be a row of {k} indicators (0/1 or bools)")
            return keys, [bool(flag) for flag in flags], -1
        try:
            column = self._index.get(correct)
        except TypeError:  # unhashable
            column = None
        if column is None:
            raise ValueError(f"{where}: correct[0] = {correct!r} is not one of the classes "
                             f"{list(self._classes)}")
        own = values[column]
        rank = sum(1 for j, value in enumerate(values)
                   if value > own or (value == own and j > column))
        return keys, [j == column for j in range(k)], rank

    def _refine(self, scale: int) -> int:
        """Every table and the rank counts in units of ``2**-scale`` if that is finer (the room
        for it checked first: the pooled table holds the most); returns the scale before."""
        old = self._scale
        if scale > old:
            shift = scale - old
            pooled = self._pooled._counts
            check_units((pooled.positives + pooled.negatives) << shift, 0, scale)
            for table in [*self._tables, self._pooled]:
                table._counts._rescale(scale)
            self._ranks = [count << shift for count in self._ranks]
            self._scale = scale
        return old

    def _restore(self, scale: int) -> None:
        """Undo :meth:`_refine` (a change refused after it): every count back in ``2**-scale``."""
        if scale != self._scale:
            for table in [*self._tables, self._pooled]:
                table._counts._rescale(scale)
            self._ranks = [count >> (self._scale - scale) for count in self._ranks]
            self._scale = scale

    def _apply_row(self, keys: list[float], truth: list[bool], rank: int, weight: int,
                   scale: int = 0) -> None:
        """One result's change through the counts' unit steps: :meth:`_apply` for a row, no arrays.

        ``weight`` is in units of ``2**-scale``. Checked before the first
        write: the count limit (the pooled table holds K pairs per result),
        or, for a removal, that every table holds the result and that a
        result of its correct class's rank is there.
        """
        old = self._refine(scale)
        try:
            weight <<= self._scale - scale
            self._check_row(keys, truth, rank, weight)
        except BaseException:
            self._restore(old)
            raise
        tables, pooled = self._tables, self._pooled._counts
        scale = self._scale  # every table's unit (a table reset since refines itself again)
        for table, key, positive in zip(tables, keys, truth):
            table._counts.apply(key, positive, weight, None, 1, scale)
            pooled.apply(key, positive, weight, None, 1, scale)
        if rank >= 0:
            self._ranks[rank] += weight

    def _check_row(self, keys: list[float], truth: list[bool], rank: int, weight: int) -> None:
        """Refuse the change of :meth:`_apply_row` (``weight`` in the state's unit) where a count would."""
        tables, pooled, scale = self._tables, self._pooled._counts, self._scale
        if weight > 0:
            check_units(pooled.positives + pooled.negatives, weight * len(keys), scale)
            return
        # the pooled table is the tables' sum: it holds the row when every table holds its part
        for table, key, positive in zip(tables, keys, truth):
            have_pos, have_neg = table._counts.at(key)
            have = have_pos if positive else have_neg
            if have < -weight:
                kind = "positive" if positive else "negative"
                raise ValueError(f"remove: there are {shown_weight(have, scale)} {kind} results "
                                 f"of score {key!r}, not {shown_weight(-weight, scale)} to remove")
        if rank >= 0 and self._ranks[rank] < -weight:
            raise ValueError(f"remove: there are {shown_weight(self._ranks[rank], scale)} results "
                             f"whose correct class ranked {rank + 1}, not "
                             f"{shown_weight(-weight, scale)} to remove")

    def _batch(self, scores: Any, correct: Any, sample_weight: Any, where: str) -> _Rows:
        """The inputs checked: ``(scores (n, K), truth (n, K), weights or None, correct ranks,
        scale)``, the weights integers in units of ``2**-scale``."""
        k = len(self._classes)
        matrix = self._scores(scores, where)
        n = matrix.shape[0]
        truth = self._truth(correct, n, where)
        weights, scale = None, 0
        if sample_weight is not None:
            weights, scale = weight_units(sample_weight, n, where)
        if self._multilabel:
            ranks = np.zeros(0, dtype=np.int64)
        else:
            # scikit-learn: argsort(kind="mergesort")[:, ::-1]; of tied scores the higher column first
            correct_column = np.argmax(truth, axis=1)
            own = matrix[np.arange(n), correct_column][:, None]
            later = np.arange(k)[None, :] > correct_column[:, None]
            ranks = ((matrix > own) | ((matrix == own) & later)).sum(axis=1).astype(np.int64)
        return matrix, truth, weights, ranks, scale

    def _scores(self, scores: Any, where: str) -> Floats:
        k = len(self._classes)
        try:
            matrix = np.asarray(scores if not hasattr(scores, "to_numpy") else scores.to_numpy())
            matrix = matrix.astype(np.float64) if matrix.dtype.kind in "iuf" else matrix
        except (TypeError, ValueError):
            raise TypeError(f"{where}: scores must be an (n, {k}) matrix of numbers") from None
        if matrix.ndim != 2 or matrix.shape[1] != k:
            raise ValueError(f"{where}: scores must be an (n, {k}) matrix, one column per class, "
                             f"not of shape {matrix.shape}")
        if matrix.dtype != np.float64:
            raise TypeError(f"{where}: scores must be numbers, not {matrix.dtype}")
        bad = ~np.isfinite(matrix)
        if self._binning is not None:
            edges = self._binning.edges
            bad |= (matrix < edges[0]) | (matrix > edges[-1])
        if bad.any():
            i, j = (int(x) for x in np.argwhere(bad)[0])
            name = f"{where}: scores[{i}, {j}]"
            key_of(float(matrix[i, j]), self._binning, name)
        return matrix + 0.0

    def _truth(self, correct: Any, n: int, where: str) -> NDArray[np.bool_]:
        k = len(self._classes)
        name = f"{where}: correct"
        if self._multilabel:
            try:
                indicators = np.asarray(correct if not hasattr(correct, "to_numpy")
                                        else correct.to_numpy())
            except (TypeError, ValueError):
                raise TypeError(f"{name} must be an (n, {k}) indicator matrix") from None
            if indicators.shape != (n, k):
                raise ValueError(f"{name} must be an indicator matrix of shape ({n}, {k}), "
                                 f"not {indicators.shape}")
            if indicators.dtype != bool:
                if indicators.dtype.kind not in "iuf" or not np.isin(indicators, (0, 1)).all():
                    bad = np.argwhere(~np.isin(indicators, (0, 1)))
                    where_bad = (f"[{int(bad[0][0])}, {int(bad[0][1])}]" if bad.size else "")
                    raise ValueError(f"{name}{where_bad} must be 0 or 1 (an indicator matrix)")
                indicators = indicators == 1
            return indicators
        labels = label_sequence(correct, name)
        if len(labels) != n:
            raise ValueError(f"{where}: scores and correct have different lengths ({n} and "
                             f"{len(labels)})")
        codes, distinct = encode(labels, name)
        column = np.empty(len(distinct), dtype=np.intp)
        for code, label in enumerate(distinct):
            found = self._index.get(label)
            if found is None:
                first = int(np.flatnonzero(np.asarray(codes) == code)[0])
                raise ValueError(f"{name}[{first}] = {label!r} is not one of the classes "
                                 f"{list(self._classes)}")
            column[code] = found
        truth = np.zeros((n, k), dtype=bool)
        if n:
            truth[np.arange(n), column[np.asarray(codes)]] = True
        return truth

    def _apply(self, batch: _Rows, sign: int) -> None:
        """The one routine that changes the state: every table, the pooled table and the ranks.

        Every table's batch is coded and checked (the count limit, a
        removal of results that are not there) before the first write.
        """
        matrix, truth, weights, ranks, scale = batch
        n, k = matrix.shape
        if not n:
            return
        where = "add_results" if sign > 0 else "remove_results"
        # the weights' units (2**-scale) are passed as whole weights: the batches are in those units
        coded = [coded_batch(matrix[:, j], truth[:, j], None, pos_label=None,
                             binning=self._binning, where=where,
                             units=None if weights is None else (weights, scale))[0]
                 for j in range(k)]
        pooled = coded_batch(matrix.ravel(), truth.ravel(), None, pos_label=None,
                             binning=self._binning, where=where,
                             units=None if weights is None else _repeated(weights, k, scale))[0]
        rank_weight = [0] * k
        if not self._multilabel:
            unit = np.ones(n, dtype=np.int64) if weights is None else weights
            totals = np.zeros(k, dtype=unit.dtype)  # int64, or Python ints past int64
            np.add.at(totals, ranks, unit)
            rank_weight = totals.tolist()
        old = self._refine(scale)
        try:
            shift = self._scale - scale
            if shift:
                coded = [shifted_batch(columns, shift) for columns in coded]
                pooled = shifted_batch(pooled, shift)
                rank_weight = [weight << shift for weight in rank_weight]
            for table, columns in zip([*self._tables, self._pooled], [*coded, pooled]):
                _check(table, columns, sign)
            if sign < 0:
                short = [r for r in range(k) if self._ranks[r] < rank_weight[r]]
                if short:  # the tables held the scores, but not with these correct classes' ranks
                    raise ValueError(
                        f"remove: there are {shown_weight(self._ranks[short[0]], self._scale)} "
                        f"results whose correct class ranked {short[0] + 1}, not "
                        f"{shown_weight(rank_weight[short[0]], self._scale)} to remove")
        except BaseException:
            self._restore(old)
            raise
        for table, columns in zip([*self._tables, self._pooled], [*coded, pooled]):
            table._counts.apply(batch=columns, sign=sign, scale=self._scale)
        self._ranks = [have + sign * weight for have, weight in zip(self._ranks, rank_weight)]

    # Combining -----------------------------------------------------------------------------

    def merge(self, other: MulticlassThresholdContingency) -> MulticlassThresholdContingency:
        """Add ``other``'s counts into this accumulator, in place; returns ``self``.

        The settings must be equal (classes in the same order, ``multilabel``,
        bins, ``zero_division``): otherwise ``ValueError`` names the one that differs.
        """
        if not isinstance(other, MulticlassThresholdContingency):
            raise TypeError(f"can only merge a MulticlassThresholdContingency, not "
                            f"{type(other).__name__}")
        with _locking.holding(other):
            difference = self._settings_differ(other)
            if difference:
                raise ValueError(f"merge: the accumulators' {difference} differ")
            old = self._refine(other._scale)
            shift = self._scale - other._scale
            try:
                pairs = [(mine, shifted_batch(theirs._counts.columns(), shift))
                         for mine, theirs in zip([*self._tables, self._pooled],
                                                 [*other._tables, other._pooled])]
                for mine, columns in pairs:
                    _check(mine, columns, 1)
            except BaseException:
                self._restore(old)
                raise
            for mine, columns in pairs:
                mine._counts.apply(batch=columns, sign=1, scale=self._scale)
            self._ranks = [a + (b << shift) for a, b in zip(self._ranks, other._ranks)]
        return self

    def copy(self) -> MulticlassThresholdContingency:
        """An independent accumulator with the same settings and counts."""
        result = type(self).__new__(type(self))
        result._classes, result._index = self._classes, dict(self._index)
        result._multilabel, result._binning = self._multilabel, self._binning
        result._zero_division = self._zero_division
        result._tables = [table.copy() for table in self._tables]
        result._pooled, result._ranks = self._pooled.copy(), list(self._ranks)
        result._scale = self._scale
        return result

    def reset(self) -> None:
        """Forget every result (the settings stay)."""
        for table in [*self._tables, self._pooled]:
            table.reset()
        self._ranks = [0] * len(self._classes)
        self._scale = 0

    def _settings_differ(self, other: MulticlassThresholdContingency) -> str:
        if self._classes != other._classes:
            return "classes"
        if self._multilabel != other._multilabel:
            return "multilabel"
        mine, theirs = self._binning, other._binning
        if (mine is None) != (theirs is None) or (
                mine is not None and theirs is not None
                and not np.array_equal(mine.edges, theirs.edges)):
            return "bins"
        if not _same_mode(self._zero_division, other._zero_division):
            return "zero_division"
        return ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MulticlassThresholdContingency):
            return NotImplemented
        with _locking.holding(other):
            fine = max(self._scale, other._scale)
            return (not self._settings_differ(other)
                    and _at_scale(self._ranks, self._scale, fine)
                    == _at_scale(other._ranks, other._scale, fine)
                    and all(a == b for a, b in zip(self._tables, other._tables)))

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        mode = "exact" if self._binning is None else f"bins={self._binning.edges.size - 1}"
        kind = ", multilabel" if self._multilabel else ""
        return (f"MulticlassThresholdContingency(classes={list(self._classes)!r}, "
                f"n_results={self.n_results}, {mode}{kind})")

    def __getstate__(self) -> dict[str, Any]:
        return {"classes": self._classes, "multilabel": self._multilabel,
                "binning": None if self._binning is None else self._binning.edges.tolist(),
                "zero_division": self._zero_division,
                "tables": [table.__getstate__() for table in self._tables],
                "ranks": list(self._ranks), "scale": self._scale}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["classes"], multilabel=state["multilabel"],  # type: ignore[misc]
                      bins=state["binning"], zero_division=state["zero_division"])
        for table, table_state in zip(self._tables, state["tables"]):
            table.__setstate__(table_state)
        self._scale = state.get("scale", 0)
        self._pool()
        self._ranks = list(state["ranks"])

    def _pool(self) -> None:
        """The pooled table rebuilt as the sum of the per-class tables, every table in the
        state's unit (loading only)."""
        self._pooled.reset()
        empty = (np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        for table in [*self._tables, self._pooled]:  # a table's own unit may be coarser
            table._counts.apply(batch=empty, scale=self._scale)
        for table in self._tables:
            self._pooled._counts.apply(batch=table._counts.columns(), sign=1, scale=self._scale)

    # JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-safe data: settings, each class's table and the rank counts.

        Each table is :meth:`ThresholdContingency.to_dict`'s scores and counts;
        every count (the ranks too) is an integer in units of ``2**-scale``, one
        scale for all, the least that holds them.

        >>> curves = MulticlassThresholdContingency([0, 1, 2])
        >>> curves.add_results([[0.6, 0.3, 0.1], [0.2, 0.7, 0.1]], [0, 2])
        >>> state = curves.to_dict()
        >>> state["ranks"], state["tables"][2]["scores"]
        ([1, 0, 1], [0.1])
        >>> MulticlassThresholdContingency.from_dict(state) == curves
        True
        """
        columns = [[column.tolist() for column in table._counts.columns()]
                   for table in self._tables]
        every = [count for _, pos, neg in columns for count in (*pos, *neg)]
        least = _least_scale(every, self._ranks, self._scale)
        shift = self._scale - least
        return {
            "format": _FORMAT,
            "classes": [label_to_json(label, "classes") for label in self._classes],
            "multilabel": self._multilabel,
            "bins": None if self._binning is None else self._binning.edges.tolist(),
            "zero_division": self._zero_division,
            "scale": least,
            "tables": [{"scores": keys, "positives": [count >> shift for count in pos],
                        "negatives": [count >> shift for count in neg]}
                       for keys, pos, neg in columns],
            "ranks": None if self._multilabel else [count >> shift for count in self._ranks],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False
                  ) -> MulticlassThresholdContingency:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any malformed state.

        Each table is checked as :meth:`ThresholdContingency.from_dict`
        checks its own; beyond that every table must hold the same number
        of results, and (single-label) the classes' positives and the ranks
        must each add up to it. Errors start ``from_dict:``.
        """
        # The option is checked as every constructor checks it, not as the state: not in the
        # try below, whose errors are the state's.
        thread_safe = check_flag(thread_safe, "thread_safe")
        state = check_state(data, _KEYS, _FORMAT)
        classes = state["classes"]
        if not isinstance(classes, list):
            raise state_error("classes must be a list")
        try:
            result = cls([label_from_json(label, f"from_dict: classes[{i}]")
                          for i, label in enumerate(classes)],
                         multilabel=state["multilabel"], bins=state["bins"],
                         zero_division=state["zero_division"], thread_safe=thread_safe)
        except (TypeError, ValueError) as error:
            raise state_error(str(error)) from None
        scale = count_from_json(state["scale"], "scale")
        if scale > MAX_SCALE:
            raise state_error(f"scale is {scale}; counts are kept in units down to 2**-{MAX_SCALE}")
        result._scale = scale
        tables = state["tables"]
        if not isinstance(tables, list) or len(tables) != len(result._classes):
            raise state_error(f"tables must be a list of {len(result._classes)} tables, one per class")
        for i, table in enumerate(tables):
            if not isinstance(table, Mapping):
                raise state_error(f"tables[{i}] must be a mapping")
            try:
                loaded = ThresholdContingency.from_dict(
                    {"format": "contingency.ThresholdContingency/1", "bins": state["bins"],
                     "pos_label": None, "zero_division": state["zero_division"], "scale": scale,
                     **table})
            except ValueError as error:
                raise state_error(f"tables[{i}]: {str(error).removeprefix('from_dict: ')}") from None
            result._tables[i] = loaded
        # in units of 2**-scale: every table was loaded in that unit
        totals = {table._counts.positives + table._counts.negatives for table in result._tables}
        if len(totals) != 1:
            raise state_error("every table must hold the same number of results")
        total = totals.pop()
        ranks = state["ranks"]
        if result._multilabel:
            if ranks is not None:
                raise state_error("ranks must be null for a multilabel state")
        else:
            if not isinstance(ranks, list) or len(ranks) != len(result._classes):
                raise state_error(f"ranks must be a list of {len(result._classes)} counts")
            result._ranks = [count_from_json(value, f"ranks[{i}]") for i, value in enumerate(ranks)]
            if sum(result._ranks) != total:
                raise state_error(f"the ranks add up to {sum(result._ranks)}, not to the "
                                  f"{total} results")
            positives = sum(table._counts.positives for table in result._tables)
            if positives != total:
                raise state_error(f"the classes' positives add up to {positives}, not to the "
                                  f"{total} results (each result has one correct class)")
        try:
            check_units(0, total * len(result._classes), scale)
        except ValueError as error:
            raise state_error(str(error)) from None
        result._pool()
        return result

    # Reads ---------------------------------------------------------------------------------

    def _averaged(self, per_class: list[float], average: Average) -> Any:
        """The per-class values averaged (``micro`` is read from the pooled table by the caller)."""
        if average is None:
            return np.array(per_class, dtype=np.float64)
        if average == "macro":
            return float(np.mean(per_class))
        supports = self.supports()
        if not supports.sum():  # scikit-learn's _average_binary_score: all weights 0 -> 0
            return 0.0
        return float(np.average(per_class, weights=supports))

    @staticmethod
    def _check_average(average: object, what: str) -> None:
        if isinstance(average, str) and average == "samples":
            raise ValueError(f"{what}: average='samples' averages each result's own score: not a "
                             "function of the per-class counts, so not kept; average must be one "
                             f"of {', '.join(map(repr, _AVERAGES))}")
        check_choice(average, "average", _AVERAGES, what)

    def roc_auc(self, average: Average = "macro", *, multi_class: str = "ovr",
                max_fpr: float | None = None) -> Any:
        """The one-vs-rest AUC, averaged as scikit-learn's ``roc_auc_score(multi_class="ovr", average=...)``.

        ``average=None`` gives the per-class array (class order). Each
        class's AUC (and the micro one) is read in O(1) from its table's
        running Mann-Whitney statistic. ``multi_class="ovo"`` is refused:
        see the class docstring.
        """
        self._check_average(average, "roc_auc")
        if isinstance(multi_class, str) and multi_class == "ovo":
            raise ValueError(
                "roc_auc: multi_class='ovo' (Hand and Till) compares column j among the results of "
                "classes j and k only; the one-vs-rest tables kept here pool every other class, "
                "so they cannot serve it exactly (it would take, for each pair of classes, the "
                "column's scores of the results of those two classes, which is not kept): use "
                "multi_class='ovr'")
        check_choice(multi_class, "multi_class", ("ovr",), "roc_auc")
        max_fpr = _curves.check_max_fpr(max_fpr, "roc_auc")  # (before any class is read)
        if average == "micro":
            return self._pooled.roc_auc(max_fpr=max_fpr)
        return self._averaged([table.roc_auc(max_fpr=max_fpr) for table in self._tables], average)

    def roc_auc_bound(self, average: Average = "macro") -> Any:
        """The certified bound on :meth:`roc_auc`'s distance from the unbinned AUC (0 in exact mode).

        An average of values is within the same average of their bounds.
        """
        self._check_average(average, "roc_auc_bound")
        if average == "micro":
            return self._pooled.roc_auc_bound()
        return self._averaged([table.roc_auc_bound() for table in self._tables], average)

    def average_precision(self, average: Average = "macro") -> Any:
        """Average precision per class, averaged as scikit-learn's ``average_precision_score``."""
        self._check_average(average, "average_precision")
        if average == "micro":
            return self._pooled.average_precision()
        return self._averaged([table.average_precision() for table in self._tables], average)

    def top_k_accuracy(self, k: int = 2, *, normalize: bool = True) -> float:
        """The share of results whose correct class has one of the ``k`` highest scores of its row.

        ``normalize=False``: their weight instead.

        As scikit-learn's ``top_k_accuracy_score`` with the columns in
        class order (``labels=classes``): of tied scores the class of the
        higher column ranks first. Read from :meth:`rank_counts`, exact for
        every ``k`` at once. Single-label only.
        """
        self._single_label("top_k_accuracy")
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"top_k_accuracy: k must be a positive integer, not {shown(k)}")
        normalize = _curves.check_flag(normalize, "normalize", "top_k_accuracy")
        hits = sum(self._ranks[:int(k)])
        if not normalize:
            return float(_weight(hits, self._scale))
        total = sum(self._ranks)  # every result has one rank: the weight of results, in units
        if not total:
            return _curves._undefined(self._zero_division, "top_k_accuracy", "every result")
        return hits / total

    def _single_label(self, what: str) -> None:
        if self._multilabel:
            raise ValueError(f"{what}: a multilabel result has no single correct class to rank")

    def scores(self) -> dict[str, Any]:
        """The counts, the averaged scores and each class's, as finished numbers (JSON-safe;
        undefined is ``None``).

        ``roc_auc_{average}``, ``roc_auc_bound_{average}`` and
        ``average_precision_{average}`` for ``macro``, ``weighted`` and
        ``micro``; ``top_1_accuracy`` (single-label); ``per_class``, a list in
        class order of ``{"class", "positives", "roc_auc", "roc_auc_bound",
        "average_precision"}``.
        """
        result: dict[str, Any] = {"n_results": self.n_results, "classes": len(self._classes),
                                  "bins": None if self._binning is None
                                  else self._binning.edges.size - 1}
        for name, read in (("roc_auc", self.roc_auc), ("roc_auc_bound", self.roc_auc_bound),
                           ("average_precision", self.average_precision)):
            for average in ("macro", "weighted", "micro"):
                result[f"{name}_{average}"] = _finite(partial(read, average))
        if not self._multilabel:
            result["top_1_accuracy"] = self.top_k_accuracy(1) if self.n_results else None
        result["per_class"] = [
            {"class": label_to_json(label, "classes"), "positives": table.positives,
             "roc_auc": _finite(table.roc_auc), "roc_auc_bound": table.roc_auc_bound(),
             "average_precision": _finite(table.average_precision)}
            for label, table in zip(self._classes, self._tables)]
        return result

    def report(self, digits: int = 3) -> str:
        """The averaged and per-class scores, as text.

        Rendered by :func:`contingency.report.multiclass_threshold_report`.

        >>> curves = MulticlassThresholdContingency(["cat", "dog", "owl"])
        >>> curves.add_results([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3],
        ...                     [0.1, 0.3, 0.6], [0.4, 0.5, 0.1]], ["cat", "cat", "dog", "owl", "dog"])
        >>> print(curves.report())
        results: 5   classes: 3 (exact)
        <BLANKLINE>
                           macro  weighted  micro
                  roc auc  0.944     0.933  0.930
        average precision  0.944     0.933  0.900
           top-1 accuracy  0.800
        <BLANKLINE>
        class  positives  roc auc  average precision
        cat            2    0.833              0.833
        dog            2    1.000              1.000
        owl            1    1.000              1.000
        """
        from contingency.report import check_digits, multiclass_threshold_report

        digits = check_digits(digits, "report")  # (before anything is read)
        return multiclass_threshold_report(self.scores(), digits)


def _check(table: ThresholdContingency, batch: Batch, sign: int) -> None:
    """Raise ``ValueError`` where ``table``'s counts would refuse ``apply(batch=batch, sign=sign)``.

    A change of several tables checks them all before the first write. Only
    the counts' public reads (totals, ``columns()``) are used, so the check
    holds for the reference counts and the kernel's alike.
    """
    keys, pos, neg = batch
    if not keys.size:
        return
    counts = table._counts
    if sign > 0:
        check_units(counts.positives + counts.negatives, exact_total(pos) + exact_total(neg),
                    counts.scale)
        return
    mine_keys, mine_pos, mine_neg = counts.columns()
    if mine_pos.dtype != pos.dtype:  # one side past int64: compared as Python ints
        mine_pos, mine_neg, pos, neg = (column.astype(object) for column in
                                        (mine_pos, mine_neg, pos, neg))
    where = np.searchsorted(mine_keys, keys)
    inside = where < mine_keys.size
    found = np.zeros(keys.size, dtype=bool)
    found[inside] = mine_keys[where[inside]] == keys[inside]
    have_pos = np.zeros(keys.size, dtype=mine_pos.dtype)
    have_neg = np.zeros(keys.size, dtype=mine_pos.dtype)
    have_pos[found], have_neg[found] = mine_pos[where[found]], mine_neg[where[found]]
    short = (have_pos < pos) | (have_neg < neg)
    if short.any():
        first = int(np.flatnonzero(short)[0])
        kind, have, want = (("positive", have_pos[first], pos[first]) if have_pos[first] < pos[first]
                            else ("negative", have_neg[first], neg[first]))
        raise ValueError(f"remove: there are {int(have)} {kind} results of score "
                         f"{float(keys[first])!r}, not {int(want)} to remove")


# inspect.signature (IDEs, notebooks) shows __init__'s parameters, not __new__'s.
MulticlassThresholdContingency.__signature__ = _locking.constructor_signature(  # type: ignore[attr-defined]
    MulticlassThresholdContingency)


def _repeated(weights: NDArray[Any], k: int, scale: int) -> tuple[NDArray[Any], int]:
    """Each result's weight (units of ``2**-scale``) once per class, for the pooled table: int64
    while the total fits int64, else Python ints."""
    repeated = np.repeat(weights, k)
    if repeated.dtype != object and exact_total(repeated) > MAX_COUNT:
        repeated = repeated.astype(object)
    return repeated, scale


def _weights(units: list[int], scale: int) -> NDArray[Any]:
    """Counts in units of ``2**-scale`` as weights: int64 at scale 0, else float64 (rounded once)."""
    if not scale:
        return np.array(units, dtype=np.int64)
    return np.array([_weight(count, scale) for count in units], dtype=np.float64)


def _at_scale(units: list[int], scale: int, fine: int) -> list[int]:
    """Counts in units of ``2**-scale`` expressed in the finer ``2**-fine``."""
    return [count << (fine - scale) for count in units]


def _finite(read: Any) -> Any:
    """``read()``, or ``None`` where it is undefined (refused, or NaN by ``zero_division``)."""
    try:
        value = read()
    except ValueError:
        return None
    return None if isinstance(value, float) and math.isnan(value) else value
