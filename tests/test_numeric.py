"""contingency.formulas._numeric: the weighted mean of numpy columns is the exact one, rounded once."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from contingency.formulas import curves
from contingency.formulas._numeric import _exact_products, average

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


# The exact sums of floats behind the running Brier score and log loss -----------------------

_NON_NEGATIVE = st.one_of(st.floats(0, 2.0**69), st.floats(0, 1e-300), st.integers(0, 2**52).map(
    lambda k: k * 5e-324), st.sampled_from([0.0, 5e-324, 2.0**-1022, 2.0**68, 1.0, 0.1]))


@given(st.lists(st.one_of(_NON_NEGATIVE, _NON_NEGATIVE.map(lambda x: -x)), max_size=60))
@example([1.0, 2.0**-53])  # a tie, to even: 1.0
@example([1.0, 2.0**-52, 2.0**-53])  # a tie, to even: up
@example([1.0, 2.0**-53, 5e-324])  # just past the tie (a sticky bit 1,000 binades below): up
@example([2.0**-1022 - 5e-324, 5e-324])  # subnormals summing to the least normal
@example([1.0, -(2.0**-54), 2.0**-1074])  # a negative part (Veltkamp's low halves are signed)
def test_an_exact_sum_of_floats_rounded_once_is_fsum(values: list[float]) -> None:
    """exact_sum is the exact sum (Fractions: the definition), of either sign, exact_units each float exactly,
    and rounded_units rounds the sum once, as math.fsum."""
    from contingency.formulas._numeric import exact_sum, exact_units, rounded_units

    units = exact_sum(np.array(values, dtype=np.float64))
    assert Fraction(units, 2**1074) == sum(map(Fraction, values), Fraction(0))
    assert units == sum(map(exact_units, values))
    assert rounded_units(units) == math.fsum(values)


@given(st.lists(st.tuples(st.floats(2.0**-400, 2.0**400), st.integers(0, 2**63 - 1)),
                min_size=1, max_size=20))
@example([(0.5, 2**53), (0.3, 2**63 - 1), (1 / 3, 12009599006321322)])
def test_the_exact_products_sum_to_the_exact_sum_for_every_int64_weight(pairs):
    """Every part a double exactly, so the sum rounded once is the rational sum rounded once:
    for weights past 2**53 too (they were rounded product by product, so a formula's value
    depended on the unit its counts were given in)."""
    values = np.array([value for value, _ in pairs])
    weights = np.array([weight for _, weight in pairs], dtype=np.int64)
    parts = _exact_products(values, weights)
    assert parts is not None
    exact = sum((Fraction(value) * weight for value, weight in pairs), Fraction(0))
    assert math.fsum(np.concatenate(parts)) == float(exact)


def test_calibration_error_does_not_depend_on_the_unit_of_the_counts():
    """Pinned from the exploring profile: results of weight 1/3 (6004799503160661 units of
    2**-54) merged with themselves read one value at that unit and another at half of it."""
    scores = np.array([0.64, 0.27, 0.04, 0.02])
    positives = np.zeros(4, dtype=np.int64)
    negatives = np.full(4, 6004799503160661, dtype=np.int64)
    coarse = curves.calibration_error(scores, positives, negatives)
    assert curves.calibration_error(scores, positives, 2 * negatives) == coarse
    assert curves.calibration_error(scores, positives, 256 * negatives) == coarse
