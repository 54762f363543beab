"""Scored results coded for :class:`~contingency._score_counts.ScoreCounts`: one result or a batch, checked.

The ingest step of :class:`~contingency.ThresholdContingency`: every input
(one score and its correct label; arrays, lists or pandas columns of both,
with ``sample_weight``) becomes a key (the score, or its bin's lower edge), a
class (positive or not) and a weight, or, for a batch, one coded batch
of distinct keys (ascending) with the positive and negative weight at each.
Everything is checked here, before the state is touched, and an error names
the argument and the position at fault.

Weights are exact: each is an integer in units of ``2**-scale``
(:func:`contingency._inputs.exact_weight`, as :class:`~contingency.Contingency`
takes them), so 0.25 is 1 in units of ``2**-2``; the counts keep them in the
finest unit they have met (:class:`~contingency._score_counts.ScoreCounts`).
"""

from __future__ import annotations

import numbers
from bisect import bisect_right
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from contingency._coding import encode
from contingency._inputs import check_same_length, exact_weights, label_sequence
from contingency._labels import check_label
from contingency._score_counts import Batch, check_units, exact_total
from contingency.formulas._numeric import EXACT_FLOAT_BOUND, MAX_COUNT, shown

__all__ = ["Binning", "coded_batch", "key_of", "positive_of"]

_BINARY = "without pos_label=, correct must be a bool or 0/1 (pass pos_label= to name the positive label)"


class Binning:
    """The edges of binned mode and the key of a score: its bin's lower edge.

    >>> binning = Binning.of(4)
    >>> binning.edges.tolist(), binning.key(0.3, "score"), binning.key(1.0, "score")
    ([0.0, 0.25, 0.5, 0.75, 1.0], 0.25, 0.75)
    >>> binning.key(1.5, "add: score")
    Traceback (most recent call last):
    ...
    ValueError: add: score = 1.5 is outside the bins' range [0.0, 1.0]
    """

    __slots__ = ("_lower", "edges")

    def __init__(self, edges: NDArray[np.float64]) -> None:
        self.edges = edges
        self._lower = edges[:-1].tolist()

    @classmethod
    def of(cls, bins: object) -> Binning:
        """The binning of ``bins=``: a number of equal bins over [0, 1], or the sorted edges."""
        if isinstance(bins, numbers.Integral) and not isinstance(bins, (bool, np.bool_)):
            if not 1 <= int(bins) <= 2**24:
                raise ValueError(f"bins must be a number of bins in [1, 2**24] or the edges, "
                                 f"not {shown(bins)}")
            return cls(np.linspace(0.0, 1.0, int(bins) + 1))
        if isinstance(bins, (str, bytes)) or not isinstance(bins, (Sequence, np.ndarray)):
            raise TypeError(f"bins must be an integer or a sequence of edges, not "
                            f"{type(bins).__name__}")
        try:
            edges = np.asarray(bins, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("bins must be an integer or a sequence of numbers (the edges)") from None
        if edges.ndim != 1 or edges.size < 2:
            raise ValueError("bins must hold at least two edges, in one dimension")
        if not np.isfinite(edges).all():
            raise ValueError("bins: every edge must be finite")
        if not (np.diff(edges) > 0).all():
            raise ValueError("bins: the edges must be strictly increasing")
        return cls(edges + 0.0)

    def key(self, score: float, name: str) -> float:
        """The lower edge of the bin of ``score`` (the last bin is closed on the right)."""
        lower = self._lower
        if not lower[0] <= score <= self.edges[-1]:
            raise ValueError(f"{name} = {score!r} is outside the bins' range "
                             f"[{lower[0]!r}, {float(self.edges[-1])!r}]")
        found: float = lower[min(bisect_right(lower, score), len(lower)) - 1]
        return found

    def check(self, scores: NDArray[np.float64], name: str) -> None:
        """Refuse ``scores`` if one is outside the bins' range, naming the first by position."""
        edges = self.edges
        outside = (scores < edges[0]) | (scores > edges[-1])
        if outside.any():
            first = int(np.flatnonzero(outside)[0])
            self.key(float(scores[first]), f"{name}[{first}]")

    def keys(self, scores: NDArray[np.float64]) -> NDArray[np.intp]:
        """The bin codes of ``scores``, each in range (:meth:`check`)."""
        edges = self.edges
        # Each code guessed as if the bins were equal (exact for bins=int, up to a rounding at
        # an edge), then checked against the edges themselves; a wrong guess (uneven edges, or
        # that rounding) is looked up: searchsorted alone costs ten times more on equal bins.
        last = edges.size - 2
        low = float(edges[0])
        codes: NDArray[np.intp] = ((scores - low) * ((last + 1) / (float(edges[-1]) - low))
                                   ).astype(np.intp)
        np.clip(codes, 0, last, out=codes)
        wrong = scores < edges[codes]
        wrong |= (scores >= edges[codes + 1]) & (codes < last)
        if wrong.any():
            where = np.flatnonzero(wrong)
            codes[where] = np.minimum(np.searchsorted(edges, scores[where], side="right") - 1,
                                      last)
        return codes


def key_of(score: object, binning: Binning | None, name: str) -> float:
    """The key of one score: the score as a float (``-0.0`` as ``0.0``), or its bin's lower edge.

    >>> key_of(np.float32(0.5), None, "add: score")
    0.5
    >>> key_of(float("nan"), None, "add: score")
    Traceback (most recent call last):
    ...
    ValueError: add: score must be a finite number, not nan
    >>> key_of("0.5", None, "add: score")
    Traceback (most recent call last):
    ...
    TypeError: add: score must be a number, not str
    """
    if type(score) is float:  # the commonest: no conversion, no ABC check
        value = score + 0.0
    elif isinstance(score, float):  # numpy.float64 and other subclasses: a Python float
        value = float(score) + 0.0
    elif isinstance(score, (bool, np.bool_)) or not isinstance(score, (numbers.Real, np.floating)):
        raise TypeError(f"{name} must be a number, not {type(score).__name__}")
    else:
        try:
            value = float(score) + 0.0
        except OverflowError:  # an integer too large for a float
            raise ValueError(f"{name} must be a finite number, not {shown(score)}") from None
    if value - value != 0.0:  # inf - inf and nan - nan are nan
        raise ValueError(f"{name} must be a finite number, not {shown(value)}")
    return value if binning is None else binning.key(value, name)


def positive_of(correct: object, pos_label: Hashable | None, name: str) -> bool:
    """Whether one result's correct label is the positive class.

    >>> positive_of(True, None, "add: correct"), positive_of(0, None, "add: correct")
    (True, False)
    >>> positive_of("spam", "spam", "add: correct"), positive_of("ham", "spam", "add: correct")
    (True, False)
    >>> positive_of("spam", None, "add: correct")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: add: correct is 'spam': without pos_label=, correct must be a bool or 0/1 ...
    """
    if pos_label is not None:
        return bool(check_label(correct, name) == pos_label)
    if correct is True or correct is False:
        return correct
    if isinstance(correct, (numbers.Number, np.bool_)) and not isinstance(correct, complex) and (
            correct == 0 or correct == 1):
        return bool(correct == 1)
    raise ValueError(f"{name} is {shown(correct)}: {_BINARY}")


def weight_units(sample_weight: object, size: int, where: str) -> tuple[NDArray[Any], int]:
    """A batch's weights as integers in units of ``2**-scale``, checked against the count limit:
    ``(units, scale)``, the units int64 while their total fits int64, else Python ints.

    >>> units, scale = weight_units([1 / 3] * 2000, 2000, "add_results")
    >>> units.dtype.name, scale, int(units[0])
    ('object', 54, 6004799503160661)
    """
    exact, scale = exact_weights(sample_weight, size, where, name="sample_weight")
    if exact.dtype == np.int64:  # exact_weights' int64: no sum of them reaches 2**62
        return exact, scale
    total = exact_total(exact)
    check_units(0, total, scale)
    return (exact.astype(np.int64) if total <= MAX_COUNT else exact), scale


def coded_batch(scores: object, correct: object, sample_weight: object, *,
                pos_label: Hashable | None, binning: Binning | None, where: str,
                units: tuple[NDArray[Any], int] | None = None) -> tuple[Batch, int]:
    """A batch of results as ``(keys ascending and distinct, positive weight, negative weight)``
    and the weights' unit: ``(batch, scale)``, every weight an integer in units of ``2**-scale``.

    Keys with no weight are left out. Errors name ``where``, the argument
    (``scores``, ``correct``, ``sample_weight``) and the position. ``units``:
    the weights already as :func:`weight_units` made them (``sample_weight``
    is then ignored). The weight columns are int64 while their total fits
    int64, else Python ints (:func:`~contingency._score_counts.count_columns`).

    >>> (keys, pos, neg), scale = coded_batch([0.8, 0.4, 0.8], [1, 0, 0], [1, 0.25, 2],
    ...                                       pos_label=None, binning=None, where="add_results")
    >>> keys.tolist(), pos.tolist(), neg.tolist(), scale
    ([0.4, 0.8], [0, 4], [1, 8], 2)
    >>> coded_batch([0.8, np.inf], [1, 0], None, pos_label=None, binning=None, where="add_results")
    Traceback (most recent call last):
    ...
    ValueError: add_results: scores[1] must be a finite number, not inf
    """
    labels = label_sequence(correct, f"{where}: correct")
    values = _scores(scores, where)
    size = check_same_length(values, labels, (f"{where}: scores", "correct"))
    positive = _positives(labels, pos_label, where)
    weights, scale = None, 0
    if units is not None:
        weights, scale = units
    elif sample_weight is not None:
        weights, scale = weight_units(sample_weight, size, where)
    if binning is not None:
        binning.check(values, f"{where}: scores")
        keys = binning.edges[:-1]
        # int64 sums, or Python ints where the weights are (their total past int64)
        dtype = np.int64 if weights is None else weights.dtype
        pos, neg = np.zeros(keys.size, dtype=dtype), np.zeros(keys.size, dtype=dtype)
        for start in range(0, size, _BLOCK):  # (temporaries of a block, not of the batch)
            stop = start + _BLOCK
            pos_block, neg_block = _counted_by_code(
                binning.keys(values[start:stop]), positive[start:stop],
                None if weights is None else weights[start:stop], keys.size)
            pos += pos_block  # (int64 while the batch's weight fits int64: it was checked)
            neg += neg_block
    else:
        keys, pos, neg = _by_score(values + 0.0, positive, weights)
    kept = (pos != 0) | (neg != 0)
    if kept.all():
        return (keys, pos, neg), scale
    return (keys[kept], pos[kept], neg[kept]), scale


#: Scores coded and counted at a time in binned mode: a block's temporaries stay in the cache.
_BLOCK = 1 << 18

#: The types of list items read as one float64 array (bool is not among them: a score is a number).
_NUMBER_TYPES = frozenset({float, int, np.float64, np.float32, np.float16, np.int64, np.int32})


def _float_array(values: Sequence[Any]) -> NDArray[np.float64] | None:
    """Numbers as one float64 array in one C-level pass (an int past 2**53 rounds, as ``float()``
    does); ``None`` when one is too large for a float, to be named by the item-by-item path."""
    try:
        return np.array(values, dtype=np.float64)
    except OverflowError:
        return None


def _scores(scores: object, where: str) -> NDArray[np.float64]:
    """The scores as a 1-d float64 array, every one finite."""
    name = f"{where}: scores"
    values = label_sequence(scores, name, items="scores")
    array: NDArray[np.float64] | None = None
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        array = values.astype(np.float64, copy=False)
    elif isinstance(values, (list, tuple)) and set(map(type, values)) <= _NUMBER_TYPES:
        array = _float_array(values)
    if array is None:
        array = np.empty(len(values), dtype=np.float64)
        for i, value in enumerate(values):  # refused one by one, by position
            array[i] = key_of(value, None, f"{name}[{i}]")
        return array
    bad = ~np.isfinite(array)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        key_of(float(array[first]), None, f"{name}[{first}]")
    return array


def _positives(labels: Any, pos_label: Hashable | None, where: str) -> NDArray[np.bool_]:
    """Whether each result is positive, the labels checked (and coded once)."""
    name = f"{where}: correct"
    if isinstance(labels, np.ndarray) and labels.dtype == bool and pos_label is None:
        return labels
    codes, distinct = encode(labels, name)
    positive = np.empty(len(distinct), dtype=bool)
    for code, label in enumerate(distinct):
        try:
            positive[code] = positive_of(label, pos_label, name)
        except ValueError:
            first = int(np.flatnonzero(np.asarray(codes) == code)[0])
            positive_of(label, pos_label, f"{name}[{first}]")
    return positive[codes] if len(distinct) else np.zeros(0, dtype=bool)


def _distinct(values: NDArray[np.float64], weights: NDArray[np.int64] | None
              ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The distinct values of one class (ascending) and the weight at each.

    Unweighted, a plain sort (several times faster than an argsort); weighted,
    the weights follow the values through an argsort.
    """
    if weights is None:
        ordered = np.sort(values)
        weight = None
    else:
        order = np.argsort(values)
        ordered, weight = values[order], weights[order]
    dtype = np.int64 if weights is None else weights.dtype  # Python ints past int64
    if not ordered.size:
        return ordered, np.zeros(0, dtype=dtype)
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    counts = (np.diff(np.append(starts, ordered.size)) if weight is None
              else np.add.reduceat(weight, starts))
    return ordered[starts], counts.astype(dtype)


def _by_score(values: NDArray[np.float64], positive: NDArray[np.bool_],
              weights: NDArray[np.int64] | None
              ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """The distinct scores (ascending) with the positive and negative weight at each, exact.

    Each class is sorted on its own (a sort of floats, not an argsort, when
    unweighted), then the two sorted key lists are merged: numpy's stable
    sort of two sorted runs is a linear merge. Unweighted, all the scores are
    sorted at once instead (numpy's float sort is several times faster than
    the masks and merges): the distinct scores and their totals are its runs,
    and the smaller class, sorted on its own, is placed on them.
    """
    if weights is None:
        return _by_score_unweighted(values, positive)
    negative = ~positive
    pos_keys, pos_counts = _distinct(values[positive],
                                     None if weights is None else weights[positive])
    neg_keys, neg_counts = _distinct(values[negative],
                                     None if weights is None else weights[negative])
    both = np.sort(np.concatenate([pos_keys, neg_keys]), kind="stable")
    if both.size:
        both = both[np.concatenate([[True], both[1:] != both[:-1]])]
    pos = np.zeros(both.size, dtype=weights.dtype)  # int64, or Python ints past int64
    neg = np.zeros(both.size, dtype=weights.dtype)
    pos[np.searchsorted(both, pos_keys)] = pos_counts
    neg[np.searchsorted(both, neg_keys)] = neg_counts
    return both, pos, neg


def _runs(ordered: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The distinct values of a sorted array and how many times each occurs."""
    if not ordered.size:
        return ordered, np.zeros(0, dtype=np.int64)
    new = np.empty(ordered.size, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    if new.all():  # every value distinct (the common case for real-valued scores)
        return ordered, np.ones(ordered.size, dtype=np.int64)
    starts = np.flatnonzero(new)
    return ordered[starts], np.diff(starts, append=ordered.size).astype(np.int64, copy=False)


def _by_score_unweighted(values: NDArray[np.float64], positive: NDArray[np.bool_]
                         ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`_by_score` of unit weights: one sort of every score, one of the smaller class."""
    keys, totals = _runs(np.sort(values))
    positives = int(np.count_nonzero(positive))
    small_is_positive = 2 * positives <= values.size
    small_keys, small_counts = _runs(np.sort(values[positive if small_is_positive else ~positive]))
    small = np.zeros(keys.size, dtype=np.int64)
    small[np.searchsorted(keys, small_keys)] = small_counts
    large = totals - small
    return (keys, small, large) if small_is_positive else (keys, large, small)


def _counted_by_code(codes: NDArray[Any], positive: NDArray[np.bool_], weights: NDArray[np.int64] | None,
           size: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The positive and negative weight per code, exact integers.

    ``bincount`` sums in float64, exact while every partial sum is an integer
    below ``2**53``; past that the sums are taken in int64 with ``np.add.at``,
    or in Python ints where the weights are (a batch whose total is past int64).
    """
    total = codes.size if weights is None else exact_total(weights)
    if total < EXACT_FLOAT_BOUND and (weights is None or weights.dtype != object):
        every = np.bincount(codes, weights=weights, minlength=size)
        pos = np.bincount(codes, weights=positive if weights is None else weights * positive,
                          minlength=size)
        return pos.astype(np.int64), (every - pos).astype(np.int64)
    unit = np.ones(codes.size, dtype=np.int64) if weights is None else weights
    # int64 sums, or Python ints where the weights are (their total past int64)
    pos_i, neg_i = np.zeros(size, dtype=unit.dtype), np.zeros(size, dtype=unit.dtype)
    np.add.at(pos_i, codes[positive], unit[positive])
    np.add.at(neg_i, codes[~positive], unit[~positive])
    return pos_i, neg_i

