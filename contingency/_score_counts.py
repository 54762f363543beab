"""The counts of a scored binary stream by distinct score, their one write routine and running sums.

The state of :class:`~contingency.ThresholdContingency`: for each distinct key
(a score in exact mode, a bin's lower edge in binned mode) the weight of
positive and of negative results there, exact integers in units of
``2**-scale`` (``scale`` 0 while every weight is whole; a fractional weight
such as 0.25 makes the unit finer, as :class:`~contingency.Contingency`'s
counts do, and every count is multiplied by the same power of two, so every
ratio, and hence every score, is unchanged). The count limit is the
library's, whatever the unit: a total weight of at most ``2**63 - 1`` whole
units (``MAX_COUNT << scale`` in units of ``2**-scale``), every weight exact to
its last bit. The counts have one representation, decided by their total
alone: int64 (``array("q")`` blocks, int64 columns) while the total of units
fits int64, so that every count, block total and prefix does; past it
(a weight such as 1/3 is 6004799503160661 units of ``2**-54``, so a few hundred
of them pass int64) Python ints (``list`` blocks, object columns), widened by
the write that passes ``2**63 - 1`` units and narrowed again by the one that
comes back under it. Keys are kept sorted
in a list of blocks (at most ``2 * _LOAD`` keys each), with a Fenwick tree
over the blocks' totals, so that the weight of negatives below a key (or of
positives above it) takes O(log blocks) Python steps plus a C-level sum over
one block.

Beside the counts the state keeps ``twice_u``, the Mann-Whitney statistic in
half-units (each positive-negative pair ordered right counts 2, a tied pair
1): a positive of weight ``w`` at key ``s`` adds ``w (2 neg_below(s) +
neg_at(s))``, a negative adds ``w (2 pos_above(s) + pos_at(s))``. The change
is linear in ``w``, so a removal is the same step with ``-w``. So the AUC
reads in O(1) after any change. Beside it, ``shared``, the weight of
positive-negative pairs at one key (tied; in binned mode, sharing a bin), makes
binned mode's AUC bound O(1) too. Tests recompute both from the results after
every step.

The Brier score and the log loss (its default ``eps``) are sums of one term
per key and class, ``weight * loss(key)`` rounded once
(:func:`contingency.formulas.curves.brier_loss`,
:func:`~contingency.formulas.curves.log_loss_of`), summed exactly and rounded
once. :meth:`ScoreCounts.term_sum` keeps that exact sum as a Python int in
units of ``2**-1074`` (every float64 is a whole number of them): the first read
of a score makes it from the columns, and from then on each unit step
subtracts the old term of the key and class it changes and adds the new one,
so the sum rounded once is :func:`math.fsum` of the formula's terms, bit for
bit. The sums are a cache of the counts, not state: every other change (a
batch merged by numpy, a refinement of the unit, counts past int64, a key
outside [0, 1], ``clear``, ``copy``, unpickling) drops them, and the next read
makes them again. ``calibration_error``'s bins are kept the same way
(:meth:`ScoreCounts.calibration_bins`, :mod:`contingency._calibration_bins`).

:meth:`ScoreCounts.apply` is the one routine that changes anything: a unit
step (``key, positive, weight``) or a coded batch (keys ascending and
distinct, positive and negative weights, all of one sign). A batch small
beside the state goes through the unit steps; a large one rebuilds the
counts by merging sorted arrays and recomputes ``twice_u`` from them
(:func:`contingency.formulas.curves.mann_whitney`, the formula's one home). Everything that
can fail (the count limit, a removal of results that are not there) is
checked before the first write. A key whose counts both reach 0 is dropped,
so equal states hold equal keys. A weight finer than the counts' unit refines
the unit first (:meth:`ScoreCounts._rescale`, O(keys); a refinement never passes
the limit, which is on whole units; undone if the change itself is then refused);
equality compares weights, not units.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from contingency._calibration_bins import MAX_KEPT, CalibrationBins
from contingency.formulas._numeric import (
    EXACT_FLOAT_BOUND,
    MAX_COUNT,
    check_room,
    exact_sum,
    exact_units,
    rounded_units,
)
from contingency.formulas.curves import (
    brier_loss,
    brier_terms,
    log_loss_of,
    log_loss_terms,
    mann_whitney,
)

__all__ = ["TERM_LOSSES", "Batch", "ScoreCounts", "check_units", "count_columns", "exact_total",
           "made_bins", "refined_apply", "same_counts", "shifted_batch", "shown_weight",
           "terms_exact_sum"]

#: Half the most keys a block holds (a block of more is split in two).
_LOAD = 256

#: How many keys a numpy rebuild moves in the time of one unit step: a batch of fewer than
#: len(state) / this many keys goes through unit steps.
_UNIT_STEP_COST = 2000

#: The sums of terms :meth:`ScoreCounts.term_sum` keeps, by score: the loss of one result of a
#: class at a key (``weight * loss`` is the term), and the formula's terms of the columns.
TERM_LOSSES: dict[str, Callable[[float, bool], float]] = {
    "brier_score": brier_loss,
    "log_loss": log_loss_of,  # eps="auto": the running sum is the default's
}
_TERMS: dict[str, Callable[[NDArray[np.float64], NDArray[Any], NDArray[Any]], NDArray[np.float64]]] = {
    "brier_score": brier_terms,
    "log_loss": log_loss_terms,
}

#: A batch of a coded scored stream: keys (ascending, distinct), positive and negative weights
#: (int64 while their total fits int64, else object arrays of Python ints: :func:`count_columns`).
Batch = tuple[NDArray[np.float64], NDArray[Any], NDArray[Any]]


class ScoreCounts:
    """Positive and negative weight per distinct key, sorted, with the running ``twice_u``.

    >>> counts = ScoreCounts()
    >>> counts.apply(0.8, True, 1); counts.apply(0.4, False, 1); counts.apply(0.35, True, 1)
    >>> counts.twice_u, counts.positives, counts.negatives  # pairs (0.8, 0.4) right, (0.35, 0.4) wrong
    (2, 2, 1)
    >>> counts.apply(0.4, False, -1)
    >>> counts.twice_u, counts.columns()[0].tolist()
    (0, [0.35, 0.8])
    """

    __slots__ = (
        "_bins",
        "_block_neg",
        "_block_pos",
        "_columns",
        "_keys",
        "_maxes",
        "_neg",
        "_pos",
        "_term_sums",
        "_tree_neg",
        "_tree_pos",
        "negatives",
        "positives",
        "scale",
        "shared",
        "twice_u",
    )

    # Blocks are typed arrays (8 bytes a value, no Python object per key): a key costs 24 bytes.
    _keys: list[array[float]]  # blocks of keys, ascending
    _pos: list[Any]  # positive weight per key, block by block: array("q") narrow, list wide
    _neg: list[Any]  # negative weight per key
    _maxes: list[float]  # each block's last key, for bisect
    _block_pos: list[int]  # each block's total positive weight
    _block_neg: list[int]
    _tree_pos: list[int]  # Fenwick trees over the block totals (1-based)
    _tree_neg: list[int]
    _columns: Batch | None  # the counts as arrays (a cache, dropped by every change)
    _term_sums: dict[str, int]  # score -> its terms' exact sum in units of 2**-1074 (term_sum)
    _bins: dict[int, CalibrationBins]  # n_bins -> calibration_error's running bins
    positives: int  # P, the total positive weight
    negatives: int  # N
    twice_u: int  # 2U, the Mann-Whitney statistic in half-units
    shared: int  # sum over keys of positives x negatives: the tied pairs (binned: sharing a bin)
    scale: int  # every count (and P, N) is in units of 2**-scale; 2U and shared in 2**-2scale

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget every count."""
        self._keys, self._pos, self._neg, self._maxes = [], [], [], []
        self._block_pos, self._block_neg = [], []
        self._tree_pos, self._tree_neg = [0], [0]
        self._columns = None
        self._term_sums, self._bins = {}, {}
        self.positives = self.negatives = self.twice_u = self.shared = self.scale = 0

    def copy(self) -> ScoreCounts:
        """An independent copy."""
        other = ScoreCounts.__new__(ScoreCounts)
        other._keys = [array("d", block) for block in self._keys]
        other._pos = [block[:] for block in self._pos]  # array or list, as held
        other._neg = [block[:] for block in self._neg]
        other._maxes, other._block_pos = list(self._maxes), list(self._block_pos)
        other._block_neg = list(self._block_neg)
        other._tree_pos, other._tree_neg = list(self._tree_pos), list(self._tree_neg)
        other._columns = self._columns
        other._term_sums, other._bins = {}, {}  # caches, made again by the copy's first reads
        other.positives, other.negatives, other.twice_u, other.shared = (
            self.positives, self.negatives, self.twice_u, self.shared)
        other.scale = self.scale
        return other

    def __len__(self) -> int:
        """The number of distinct keys."""
        return sum(map(len, self._keys))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreCounts):
            return NotImplemented
        return same_counts(self, other)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> tuple[Any, ...]:
        keys, pos, neg = self.columns()
        return keys.tolist(), pos.tolist(), neg.tolist(), self.scale

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.clear()
        keys, pos, neg, scale = state if len(state) == 4 else (*state, 0)
        if len(keys):
            self._rebuild(np.array(keys, dtype=np.float64), *count_columns(pos, neg))
        self.scale = scale

    @property
    def wide(self) -> bool:
        """Whether the counts are past int64 (held as Python ints)."""
        return self.positives + self.negatives > MAX_COUNT

    # Reads -----------------------------------------------------------------------------

    def columns(self) -> Batch:
        """The counts as arrays, keys ascending (made once per state; callers never write to them)."""
        found = self._columns
        if found is None:
            count = object if self.wide else np.int64
            found = self._columns = (_joined(self._keys, np.float64), _joined(self._pos, count),
                                     _joined(self._neg, count))
            for column in found:
                column.flags.writeable = False
        return found

    def term_sum(self, name: str) -> float | None:
        """The sum of the named score's terms over the counts (:data:`TERM_LOSSES`), exact and
        rounded once: what its formula's :func:`math.fsum` gives on :meth:`columns`.

        Made from the columns by the first call (O(keys)), then kept by every unit step
        (O(1) a step); ``None`` where it does not serve and the caller computes from the
        columns: no key, a key outside [0, 1] (the formula refuses it), or counts past
        int64 (the formulas then take other columns).
        """
        if not self._maxes or self._keys[0][0] < 0.0 or self._maxes[-1] > 1.0 or self.wide:
            return None
        found = self._term_sums.get(name)
        if found is None:
            found = self._term_sums[name] = terms_exact_sum(name, self.columns())
        return rounded_units(found)

    def calibration_bins(self, n_bins: int) -> CalibrationBins | None:
        """The running bins of ``calibration_error(n_bins)`` (:mod:`contingency._calibration_bins`):
        made from the columns by the first call for ``n_bins`` (at most ``MAX_KEPT`` kept, the
        oldest dropped), then kept by every unit step; ``None`` where they do not serve and the
        caller computes from the columns (as :meth:`term_sum`, and also a total of ``2**53``
        units or more, or a score in ``(0, 2**-500)``)."""
        if not self._maxes or self._keys[0][0] < 0.0 or self._maxes[-1] > 1.0 or self.wide:
            return None
        found = self._bins.get(n_bins)
        if found is None:
            found = made_bins(self._bins, n_bins, self.columns(), self.positives + self.negatives)
        return found if found is not None and found.serves(self.positives + self.negatives) else None

    def _follow_sums(self, key: float, positive: bool, old: int, weight: int) -> None:
        """Keep the running sums through one key's change of one class from ``old`` by ``weight``:
        each sum of terms loses the key's old term and gains its new one, each bin the weight."""
        if not 0.0 <= key <= 1.0:  # the reads refuse the state: no sum until they accept it
            self._term_sums, self._bins = {}, {}
            return
        sums, new = self._term_sums, old + weight
        for name, units in sums.items():
            loss = TERM_LOSSES[name](key, positive)
            sums[name] = (units + (exact_units(new * loss) if new else 0)
                          - (exact_units(old * loss) if old else 0))
        for bins in self._bins.values():
            bins.step(key, positive, weight)

    def at(self, key: float) -> tuple[int, int]:
        """The positive and negative weight at ``key`` (0, 0 if absent)."""
        b, i, found = self._locate(key)
        return (self._pos[b][i], self._neg[b][i]) if found else (0, 0)

    # The one write routine -------------------------------------------------------------

    def apply(self, key: float = 0.0, positive: bool = True, weight: int = 0,
              batch: Batch | None = None, sign: int = 1, scale: int = 0) -> None:
        """Change the counts: the one routine every change goes through, in two calling conventions.

        A unit step, ``apply(key, positive, weight)``: ``weight`` results
        (negative to take them back) of one class at ``key``, with plain
        arguments so that no array is made per result. A coded batch,
        ``apply(batch=(keys, positives, negatives), sign=±1)``: aggregated
        non-negative weights, added (``sign=1``) or taken back (``-1``).
        Weights are in units of ``2**-scale``: finer than the counts' unit,
        the counts are refined first (:func:`refined_apply`); coarser, the
        weights are brought to the counts' unit.
        Everything that can fail is checked before the first write:
        ``ValueError`` for a total weight past ``2**63 - 1`` (whole units) or a
        removal of results that are not there.
        """
        if scale != self.scale:
            if scale > self.scale:
                refined_apply(self, key, positive, weight, batch, sign, scale)
                return
            if batch is None:
                weight <<= self.scale - scale
            else:
                batch = shifted_batch(batch, self.scale - scale)
        if batch is None:
            self._step(key, positive, weight)
            return
        keys, pos, neg = batch
        if not keys.size:
            return
        total = self._check_batch(keys, pos, neg, sign)
        size = len(self)
        # one unit step costs about as much as moving ~2,000 keys through numpy
        if not size and sign > 0:  # into an empty state: the batch is the state
            self._rebuild(keys, pos, neg)
        elif keys.size * _UNIT_STEP_COST < size:
            for key_, p, n in zip(keys.tolist(), pos.tolist(), neg.tolist()):
                if p:
                    self._step(key_, True, sign * p)
                if n:
                    self._step(key_, False, sign * n)
        else:
            # both sides sorted: the batch's new keys go in by one linear np.insert, not a sort
            mine_keys, mine_pos, mine_neg = self.columns()
            if (mine_pos.dtype == object or pos.dtype == object or neg.dtype == object
                    or self.positives + self.negatives + sign * total > MAX_COUNT):
                # past int64 on either side: the sums in Python ints (_rebuild narrows them)
                mine_pos, mine_neg, pos, neg = (column.astype(object) for column in
                                                (mine_pos, mine_neg, pos, neg))
            where = np.searchsorted(mine_keys, keys)
            present = np.zeros(keys.size, dtype=bool)
            inside = where < mine_keys.size
            present[inside] = mine_keys[where[inside]] == keys[inside]
            new = ~present
            all_keys = np.insert(mine_keys, where[new], keys[new])
            new_pos = np.insert(mine_pos, where[new], 0)
            new_neg = np.insert(mine_neg, where[new], 0)
            at_batch = where + np.cumsum(new) - new  # each batch key's place among all keys
            new_pos[at_batch] += sign * pos
            new_neg[at_batch] += sign * neg
            scale = self.scale
            self.clear()
            self._rebuild(all_keys, new_pos, new_neg)
            self.scale = scale

    def _check_batch(self, keys: NDArray[np.float64], pos: NDArray[Any],
                     neg: NDArray[Any], sign: int) -> int:
        """Refuse the batch where the counts would; else return its total weight (units)."""
        total = exact_total(pos) + exact_total(neg)
        if sign > 0:
            check_units(self.positives + self.negatives, total, self.scale)
            return total
        mine_keys, mine_pos, mine_neg = self.columns()
        if mine_pos.dtype != pos.dtype:  # compared as Python ints
            mine_pos, mine_neg, pos, neg = (column.astype(object) for column in
                                            (mine_pos, mine_neg, pos, neg))
        where = np.minimum(np.searchsorted(mine_keys, keys), max(mine_keys.size - 1, 0))
        found = (mine_keys[where] == keys) if mine_keys.size else np.zeros(keys.size, dtype=bool)
        have_pos = np.where(found, mine_pos[where] if mine_keys.size else 0, 0)
        have_neg = np.where(found, mine_neg[where] if mine_keys.size else 0, 0)
        short = (have_pos < pos) | (have_neg < neg)
        if short.any():
            first = int(np.flatnonzero(short)[0])
            kind, have, want = (("positive", have_pos[first], pos[first])
                                if have_pos[first] < pos[first] else
                                ("negative", have_neg[first], neg[first]))
            raise ValueError(f"remove: there are {shown_weight(int(have), self.scale)} {kind} "
                             f"results of score {float(keys[first])!r}, not "
                             f"{shown_weight(int(want), self.scale)} to remove")
        return total

    def _step(self, key: float, positive: bool, weight: int) -> None:
        """One key's change of one class, ``twice_u`` following; checked before the first write.

        An addition past the count limit, or a removal of more results than
        the key holds, raises ``ValueError`` and changes nothing.
        """
        keys, maxes = self._keys, self._maxes
        if maxes:
            b = bisect_left(maxes, key)
            if b == len(maxes):
                b -= 1
            block = keys[b]
            i = bisect_left(block, key)
            found = i < len(block) and block[i] == key
        else:
            b = i = 0
            found = False
        total = self.positives + self.negatives
        if weight < 0:
            have = (self._pos if positive else self._neg)[b][i] if found else 0
            if have < -weight:
                kind = "positive" if positive else "negative"
                raise ValueError(f"remove: there are {shown_weight(have, self.scale)} {kind} "
                                 f"results of score {key!r}, not "
                                 f"{shown_weight(-weight, self.scale)} to remove")
        elif total + weight > MAX_COUNT:
            check_units(total, weight, self.scale)
            if total <= MAX_COUNT:  # this step passes int64: the counts become Python ints
                self._widen(True)
        if self._term_sums or self._bins:  # the running sums follow, before any write
            have = (self._pos if positive else self._neg)[b][i] if found else 0
            self._follow_sums(key, positive, have, weight)
        self._columns = None
        if not maxes:  # the first key
            self._keys, self._maxes = [array("d", (key,))], [key]
            self._pos, self._neg = [_block((0,), total + weight)], [_block((0,), total + weight)]
            self._block_pos, self._block_neg = [0], [0]
            self._tree_pos, self._tree_neg = [0, 0], [0, 0]
            keys, maxes, block = self._keys, self._maxes, self._keys[0]
        elif not found:
            block.insert(i, key)
            self._pos[b].insert(i, 0)
            self._neg[b].insert(i, 0)
            if i == len(block) - 1:
                maxes[b] = key
        pos, neg = self._pos[b], self._neg[b]
        # the block's part of a rank query sums the shorter side of i (a C-level pass)
        half = len(block) >> 1
        if positive:
            below = self._prefix(self._tree_neg, b) + (
                sum(neg[:i]) if i < half else self._block_neg[b] - sum(neg[i:]))
            self.twice_u += weight * (2 * below + neg[i])
            self.shared += weight * neg[i]
            pos[i] += weight
            self.positives += weight
            self._block_pos[b] += weight
            self._raise(self._tree_pos, b, weight)
        else:
            above = self.positives - self._prefix(self._tree_pos, b) - (
                sum(pos[:i + 1]) if i < half else self._block_pos[b] - sum(pos[i + 1:]))
            self.twice_u += weight * (2 * above + pos[i])
            self.shared += weight * pos[i]
            neg[i] += weight
            self.negatives += weight
            self._block_neg[b] += weight
            self._raise(self._tree_neg, b, weight)
        if not pos[i] and not neg[i]:
            del block[i], pos[i], neg[i]
            if not block:
                del keys[b], self._pos[b], self._neg[b], maxes[b]
                del self._block_pos[b], self._block_neg[b]
                self._trees()
            elif i == len(block):
                maxes[b] = block[-1]
        elif len(block) > 2 * _LOAD:
            self._split(b)
        if total > MAX_COUNT >= total + weight:  # back within int64: int64 blocks again
            self._widen(False)

    def _widen(self, wide: bool) -> None:
        """The count blocks as lists of Python ints (``wide``) or as int64 arrays (the counts fit)."""
        make = list if wide else _narrow_block
        self._pos = [make(block) for block in self._pos]
        self._neg = [make(block) for block in self._neg]
        self._columns = None
        self._term_sums, self._bins = {}, {}  # past int64 the formulas take other columns

    def _rescale(self, scale: int) -> None:
        """Express every count in units of ``2**-scale``: finer (never past the limit, which is
        on whole units; past int64 the blocks become lists), or coarser where every count is
        divisible (undoing a refinement). 2U and the tied pairs, products of two counts, move
        by twice the shift."""
        shift = scale - self.scale
        if not shift:
            return
        def moved(value: int, twice: bool = False) -> int:
            step = 2 * shift if twice else shift
            return value << step if step > 0 else value >> -step
        new_total = moved(self.positives) + moved(self.negatives)  # the container follows it
        self._pos = [_block(map(moved, block), new_total) for block in self._pos]
        self._neg = [_block(map(moved, block), new_total) for block in self._neg]
        self._block_pos = [moved(total) for total in self._block_pos]
        self._block_neg = [moved(total) for total in self._block_neg]
        self._trees()
        self.positives, self.negatives = moved(self.positives), moved(self.negatives)
        self.twice_u, self.shared = moved(self.twice_u, True), moved(self.shared, True)
        self._columns = None
        self._term_sums, self._bins = {}, {}  # every count changes: made again by the next read
        self.scale = scale

    def _split(self, b: int) -> None:
        """Split block ``b`` in two halves (the Fenwick trees rebuilt: O(blocks), amortised)."""
        keys, pos, neg = self._keys[b], self._pos[b], self._neg[b]
        self._keys[b:b + 1] = [keys[:_LOAD], keys[_LOAD:]]
        self._pos[b:b + 1] = [pos[:_LOAD], pos[_LOAD:]]
        self._neg[b:b + 1] = [neg[:_LOAD], neg[_LOAD:]]
        self._maxes[b:b + 1] = [self._keys[b][-1], self._keys[b + 1][-1]]
        self._block_pos[b:b + 1] = [sum(self._pos[b]), sum(self._pos[b + 1])]
        self._block_neg[b:b + 1] = [sum(self._neg[b]), sum(self._neg[b + 1])]
        self._trees()

    def _trees(self) -> None:
        self._tree_pos, self._tree_neg = _fenwick(self._block_pos), _fenwick(self._block_neg)

    @staticmethod
    def _prefix(tree: list[int], b: int) -> int:
        """The sum of the first ``b`` block totals."""
        total = 0
        while b:
            total += tree[b]
            b &= b - 1
        return total

    @staticmethod
    def _raise(tree: list[int], b: int, weight: int) -> None:
        b += 1
        size = len(tree)
        while b < size:
            tree[b] += weight
            b += b & -b

    def _locate(self, key: float) -> tuple[int, int, bool]:
        maxes = self._maxes
        if not maxes:
            return 0, 0, False
        b = min(bisect_left(maxes, key), len(maxes) - 1)
        block = self._keys[b]
        i = bisect_left(block, key)
        return b, i, i < len(block) and block[i] == key

    def _rebuild(self, keys: NDArray[np.float64], pos: NDArray[Any],
                 neg: NDArray[Any]) -> None:
        """Fill an empty state from columns (zero rows dropped) and recompute ``twice_u``."""
        self._term_sums, self._bins = {}, {}  # made again by the next read
        kept = (pos != 0) | (neg != 0)
        keys, pos, neg = keys[kept], pos[kept], neg[kept]
        pos, neg = count_columns(pos, neg)
        if pos.dtype == object:
            self._rebuild_wide(np.ascontiguousarray(keys, dtype=np.float64), pos, neg)
            return
        starts = range(0, keys.size, _LOAD)
        keys, pos, neg = (np.ascontiguousarray(keys, dtype=np.float64),
                          np.ascontiguousarray(pos, dtype=np.int64),
                          np.ascontiguousarray(neg, dtype=np.int64))
        self._keys = [array("d", keys[s:s + _LOAD].tobytes()) for s in starts]
        self._pos = [array("q", pos[s:s + _LOAD].tobytes()) for s in starts]
        self._neg = [array("q", neg[s:s + _LOAD].tobytes()) for s in starts]
        self._maxes = [block[-1] for block in self._keys]
        first = np.arange(0, keys.size, _LOAD)
        self._block_pos = np.add.reduceat(pos, first).tolist() if keys.size else []
        self._block_neg = np.add.reduceat(neg, first).tolist() if keys.size else []
        self._trees()
        twice_u, big_p, big_n = mann_whitney(pos[::-1], neg[::-1]) if keys.size else (0, 0, 0)
        self.twice_u, self.positives, self.negatives = int(twice_u), int(big_p), int(big_n)
        self.shared = (int(np.dot(pos, neg)) if self.positives * self.negatives <= MAX_COUNT
                       else sum(p * n for p, n in zip(pos.tolist(), neg.tolist())))
        for column in (keys, pos, neg):
            column.flags.writeable = False
        self._columns = (keys, pos, neg)  # the state's own columns: no second pass to read them

    def _rebuild_wide(self, keys: NDArray[np.float64], pos: NDArray[Any],
                      neg: NDArray[Any]) -> None:
        """:meth:`_rebuild` of counts past int64 (object columns of Python ints, zero rows gone)."""
        pos_list, neg_list = pos.tolist(), neg.tolist()
        starts = range(0, keys.size, _LOAD)
        self._keys = [array("d", keys[s:s + _LOAD].tobytes()) for s in starts]
        self._pos = [pos_list[s:s + _LOAD] for s in starts]
        self._neg = [neg_list[s:s + _LOAD] for s in starts]
        self._maxes = [block[-1] for block in self._keys]
        self._block_pos = [sum(block) for block in self._pos]
        self._block_neg = [sum(block) for block in self._neg]
        self._trees()
        # mann_whitney's sum (contingency.formulas.curves), ascending, on Python ints
        twice_u = shared = below = 0
        for p, n in zip(pos_list, neg_list):
            twice_u += p * (2 * below + n)
            shared += p * n
            below += n
        self.twice_u, self.shared = twice_u, shared
        self.positives, self.negatives = sum(self._block_pos), below
        for column in (keys, pos, neg):
            column.flags.writeable = False
        self._columns = (keys, pos, neg)


def terms_exact_sum(name: str, columns: Batch) -> int:
    """The exact sum of the named score's terms (:data:`TERM_LOSSES`) over int64 columns of
    counts, in units of ``2**-1074``: where :meth:`ScoreCounts.term_sum` starts."""
    return exact_sum(_TERMS[name](*columns))


def made_bins(kept: dict[int, CalibrationBins], n_bins: int, columns: Batch,
              total: int) -> CalibrationBins | None:
    """The running bins of ``n_bins`` made from int64 ``columns`` and kept in ``kept`` (the oldest
    dropped past ``MAX_KEPT``), or ``None`` when their total is ``2**53`` units or more, where
    they would not serve."""
    if total >= EXACT_FLOAT_BOUND:
        return None
    while len(kept) >= MAX_KEPT:
        del kept[next(iter(kept))]
    found = kept[n_bins] = CalibrationBins(n_bins, *columns)
    return found


def _block(values: Any, total: int) -> Any:
    """A block of counts in the form the counts' ``total`` (units) decides: int64 or Python ints."""
    return list(values) if total > MAX_COUNT else array("q", values)


def _narrow_block(values: Any) -> array[int]:
    """A block of counts as int64 (the counts' total fits int64)."""
    return array("q", values)


def exact_total(column: NDArray[Any]) -> int:
    """The exact sum of a column of counts (int64 or Python ints), as a Python int."""
    if column.dtype == object:
        return sum(column.tolist())
    # numpy's int64 sum wraps past 2**63 - 1: a float sum (relative error far below 2**-40)
    # tells when the column is near the limit, and then Python integers sum it exactly
    if float(column.sum(dtype=np.float64)) > 2.0**62:
        return sum(column.tolist())
    return int(column.sum())


def count_columns(pos: Any, neg: Any) -> tuple[NDArray[Any], NDArray[Any]]:
    """Two columns of counts (arrays or lists of ints) in their one form: int64 while their total
    fits int64 (every count and running sum then does), else object arrays of Python ints.

    >>> [column.dtype.name for column in count_columns([1, 2], [3, 0])]
    ['int64', 'int64']
    >>> [column.dtype.name for column in count_columns([2**62, 2**62], [0, 0])]
    ['object', 'object']
    """
    columns = [_counts_array(pos), _counts_array(neg)]
    # one float pass decides, far from 2**63 (relative error far below 2**-40); near it, the
    # exact sum
    rough = sum(float(column.sum(dtype=np.float64)) for column in columns)
    if rough > 2.0**64 or (rough > 2.0**62 and exact_total(columns[0]) + exact_total(columns[1])
                           > MAX_COUNT):
        return columns[0].astype(object, copy=False), columns[1].astype(object, copy=False)
    return columns[0].astype(np.int64, copy=False), columns[1].astype(np.int64, copy=False)


def _counts_array(column: Any) -> NDArray[Any]:
    """A column of counts as a 1-d array: int64 or object (Python ints) as given, a list as objects."""
    if isinstance(column, np.ndarray) and (column.dtype == np.int64 or column.dtype == object):
        return column
    array = np.empty(len(column), dtype=object)
    array[:] = [int(value) for value in column]
    return array


def _joined(blocks: list[Any], dtype: type[Any]) -> NDArray[Any]:
    """The blocks' values as one numpy array (a copy of their buffers, no Python object each;
    ``object``: the Python ints of list blocks)."""
    if not blocks:
        return np.zeros(0, dtype=dtype)
    if dtype is object:
        joined = np.empty(sum(map(len, blocks)), dtype=object)
        joined[:] = [value for block in blocks for value in block]
        return joined
    return np.concatenate([np.frombuffer(block, dtype=dtype) for block in blocks])


def _fenwick(totals: list[int]) -> list[int]:
    """A Fenwick tree (1-based) over ``totals``, built in O(len)."""
    tree = [0, *totals]
    size = len(tree)
    for b in range(1, size):
        parent = b + (b & -b)
        if parent < size:
            tree[parent] += tree[b]
    return tree



def shown_weight(units: int, scale: int) -> str:
    """A weight of ``units`` in units of ``2**-scale``, as messages show it (an int when whole).

    >>> shown_weight(3, 0), shown_weight(3, 2), shown_weight(8, 2)
    ('3', '0.75', '2')
    """
    if scale and units % (1 << scale):
        return repr(units / (1 << scale))  # one rounding (Python's true division of ints)
    return str(units >> scale)


def check_units(total: int, change: int, scale: int) -> None:
    """Refuse ``change`` units on ``total`` (units of ``2**-scale``) past the count limit: a total
    weight of ``2**63 - 1`` whole units, whatever the scale (``MAX_COUNT << scale`` units), with
    :func:`~contingency.formulas._numeric.check_room`'s message (the weight rounded up), as
    :class:`~contingency.Contingency`'s counts.

    >>> check_units(0, MAX_COUNT << 54, 54)
    >>> check_units(MAX_COUNT << 54, 1, 54)
    Traceback (most recent call last):
    ...
    ValueError: the accumulator would hold 9223372036854775808 results; at most 2**63 - 1 are supported
    """
    if total + change <= MAX_COUNT << scale:
        return
    check_room(0, -(-(total + change) >> scale), "results")


def shifted_batch(batch: Batch, shift: int) -> Batch:
    """A coded batch in units ``2**shift`` times finer (the counts' unit), int64 while its total
    still fits int64, else in Python ints (:func:`count_columns`)."""
    keys, pos, neg = batch
    if (exact_total(pos) + exact_total(neg)) << shift <= MAX_COUNT:
        return keys, pos.astype(np.int64) << shift, neg.astype(np.int64) << shift
    return keys, pos.astype(object) << shift, neg.astype(object) << shift


def refined_apply(counts: Any, key: float, positive: bool, weight: int, batch: Batch | None,
                  sign: int, scale: int) -> None:
    """``counts.apply`` of weights finer than the counts' unit: the counts refined to ``2**-scale``
    first (a refinement never passes the limit, which is on whole units), the refinement undone if
    the change is refused."""
    old = counts.scale
    counts._rescale(scale)
    try:
        counts.apply(key, positive, weight, batch, sign, scale)
    except BaseException:
        counts._rescale(old)
        raise


def same_counts(first: Any, second: Any) -> bool:
    """Whether two score counts (either implementation) hold the same weights, whatever their units."""
    fine = max(first.scale, second.scale)
    a, b = fine - first.scale, fine - second.scale
    if ((first.positives << a, first.negatives << a, first.twice_u << 2 * a)
            != (second.positives << b, second.negatives << b, second.twice_u << 2 * b)):
        return False
    (keys, pos, neg), (other_keys, other_pos, other_neg) = first.columns(), second.columns()
    if (first.positives + first.negatives) << a > MAX_COUNT or pos.dtype != other_pos.dtype:
        # past int64 in the finer unit: compared as Python ints
        pos, neg, other_pos, other_neg = (column.astype(object) for column in
                                          (pos, neg, other_pos, other_neg))
    return (np.array_equal(keys, other_keys) and np.array_equal(pos << a, other_pos << b)
            and np.array_equal(neg << a, other_neg << b))
