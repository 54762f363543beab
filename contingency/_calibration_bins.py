"""calibration_error's running bins: weight, positive weight and exact score sum, kept by the write.

:func:`contingency.formulas.curves.calibration_error` with ``n_bins`` equal
bins puts each distinct score ``s`` in bin ``searchsorted(edges, s, "right") -
1`` of the edges ``linspace(0, 1, n_bins + 1)`` and needs, per bin, the weight
of results, of positive results, and the sum of their scores, exact and rounded
once. Those are sums over the scores of the bin, linear in each score's counts,
so the score counts' one write routine keeps them: a unit step of weight ``w``
of one class at ``s`` adds ``w`` to its bin's weight (and positive weight), and
``s w`` to its score sum, held exactly as a Python int in units of
``2**-1074`` (``exact_units(s) * w``); a removal is the same step with ``-w``.
The read rounds each sum once and hands the bins to
:func:`~contingency.formulas.curves.calibration_gap`, the formula's own last
step: O(bins), whatever the number of distinct scores.

The formula's score sums are exact (:func:`contingency.formulas._numeric._exact_products`)
unless a score lies in ``(0, 2**-500)``, where it rounds each product; so the bins
serve (:meth:`CalibrationBins.serves`) only while the weight at such tiny scores,
kept here, is 0, and, as they were first written, while the total weight is below
``2**53`` units (an O(1) test); otherwise the read sums the columns as the formula
does. Both score counts,
:class:`~contingency._score_counts.ScoreCounts` and its compiled twin, hold these
bins the same way (a few, by ``n_bins``, made by the first read of each, dropped
with their other running sums) and call :meth:`CalibrationBins.step` from their
write.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from contingency.formulas._numeric import (
    EXACT_FLOAT_BOUND,
    _exact_products,
    exact_sum,
    exact_units,
    rounded_units,
)
from contingency.formulas.curves import calibration_gap

__all__ = ["MAX_KEPT", "CalibrationBins"]

#: At most this many ``n_bins`` are kept at once (each costs its write a step): the oldest
#: made goes when another is.
MAX_KEPT = 4

#: A score in ``(0, _TINY)`` makes the formula round its products (Veltkamp's split's range).
_TINY = 2.0**-500


class CalibrationBins:
    """The weight, positive weight and exact score sum of each of ``n_bins`` equal bins over [0, 1].

    >>> bins = CalibrationBins(2, np.array([0.25, 0.75]), np.array([0, 1]), np.array([2, 1]))
    >>> bins.totals, bins.positives, bins.read(4, "l1")  # |0 - 0.25| / 2 + |0.5 - 0.75| / 2
    ([2, 2, 0], [0, 1, 0], 0.25)
    >>> bins.step(0.25, True, 2)
    >>> bins.totals, bins.positives
    ([4, 2, 0], [2, 1, 0])
    """

    __slots__ = ("_edges", "_sums", "positives", "tiny", "totals")

    _edges: list[float]  # linspace(0, 1, n_bins + 1): a score of exactly 1 has a bin of its own
    totals: list[int]  # the weight of results in each bin (units of the counts)
    positives: list[int]  # of positive results
    _sums: list[int]  # the sum of scores x weights, exact, in units of 2**-1074
    tiny: int  # the weight at scores in (0, 2**-500), where the formula rounds its products

    def __init__(self, n_bins: int, keys: NDArray[np.float64], pos: NDArray[Any],
                 neg: NDArray[Any]) -> None:
        """The bins of the counts ``keys`` (ascending, in [0, 1]), ``pos``, ``neg`` (int64,
        their total below ``2**53``)."""
        self._edges = np.linspace(0.0, 1.0, n_bins + 1).tolist()
        size = len(self._edges)
        codes = np.searchsorted(self._edges, keys, side="right") - 1  # the formula's
        results = pos + neg
        self.totals = _sums_by_bin(codes, results, size)
        self.positives = _sums_by_bin(codes, pos, size)
        self.tiny = int(results[(keys > 0) & (keys < _TINY)].sum())
        self._sums = [0] * size
        # each product s w as doubles that add up to it exactly (Veltkamp's split; the formula's
        # parts), or, where the formula rounds (a tiny score), s w one by one
        parts = _exact_products(keys, results)
        starts = np.searchsorted(codes, np.arange(size + 1)).tolist()  # keys ascending
        for k in np.flatnonzero(np.diff(starts)).tolist():
            start, end = starts[k], starts[k + 1]
            if parts is None:
                self._sums[k] = sum(exact_units(key) * weight for key, weight in
                                    zip(keys[start:end].tolist(), results[start:end].tolist()))
            else:
                self._sums[k] = exact_sum(np.concatenate([part[start:end] for part in parts]))

    def step(self, key: float, positive: bool, weight: int) -> None:
        """``weight`` results (negative: taken back) of one class at ``key`` (in [0, 1])."""
        code = bisect_right(self._edges, key) - 1
        self.totals[code] += weight
        if positive:
            self.positives[code] += weight
        self._sums[code] += exact_units(key) * weight
        if 0.0 < key < _TINY:
            self.tiny += weight

    def serves(self, total: int) -> bool:
        """Whether the read is the formula's on counts of ``total`` units: every score's
        weight below ``2**53`` units (their total is) and no score in ``(0, 2**-500)``."""
        return total < EXACT_FLOAT_BOUND and not self.tiny

    def read(self, total: int, norm: Literal["l1", "l2", "max"]) -> float:
        """The calibration error of the bins (``total`` the counts' total weight, ``norm`` checked)."""
        return calibration_gap(np.array(self.totals, dtype=np.int64),
                               np.array(self.positives, dtype=np.int64),
                               np.array([rounded_units(units) for units in self._sums]), total,
                               norm)


def _sums_by_bin(codes: NDArray[np.intp], weights: NDArray[Any], size: int) -> list[int]:
    """The exact sum of int64 ``weights`` in each bin (their total fits int64)."""
    sums = np.zeros(size, dtype=np.int64)
    np.add.at(sums, codes, weights)
    result: list[int] = sums.tolist()
    return result
