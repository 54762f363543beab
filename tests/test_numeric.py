"""contingency.formulas._numeric: the weighted mean of numpy columns is the exact one, rounded once."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from contingency.formulas._numeric import average

_VALUE = st.one_of(st.floats(-1, 1), st.floats(0, 1, exclude_min=True).map(lambda x: x / 3**20),
                   st.just(float("nan")), st.floats(1e-150, 1e150))
_WEIGHT = st.one_of(st.integers(0, 5), st.integers(2**52, 2**53 - 1))


def _exact_mean(values: list[float], weights: list[int], empty: float) -> float:
    """The definition: each sum exact, rounded once, then divided (NaN values left out)."""
    kept = [(v, w) for v, w in zip(values, weights) if not math.isnan(v)]
    if not kept:
        return empty
    weight = sum(w for _, w in kept)
    if weight == 0:
        return math.fsum(v for v, _ in kept) / len(kept)
    return float(sum(Fraction(v) * w for v, w in kept)) / float(weight)


@given(st.lists(st.tuples(_VALUE, _WEIGHT), max_size=30))
@example([(0.1, 3), (0.2, 2**53 - 1), (1 / 3, 2**52 + 1)])
@example([(float("nan"), 4), (0.5, 0)])
def test_weighted_mean_of_columns_is_exact_rounded_once(pairs):
    values = [v for v, _ in pairs]
    weights = [w for _, w in pairs]
    expected = _exact_mean(values, weights, empty=-1.0)
    for dtype in (np.int64, np.uint64):
        got = average(np.array(values, dtype=np.float64), np.array(weights, dtype=dtype),
                      empty=-1.0)
        assert got == expected or (math.isnan(got) and math.isnan(expected))
    # The Python path (weights as a list) is the same function: same float.
    assert average(values, weights, empty=-1.0) == expected
