"""Loader's saddle-point pieces (contingency.formulas._saddle) against 40-digit decimal arithmetic."""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency.formulas._saddle import deviance, stirling_error


def _stirling_reference(x: int) -> float:
    """``ln x! - (x + 1/2) ln x + x - ln(2 pi) / 2`` at 40 digits (ln x! summed, or its series)."""
    with localcontext() as context:
        context.prec = 60
        pi = Decimal("3.14159265358979323846264338327950288419716939937510")
        if x <= 3000:
            log_factorial = sum((Decimal(k).ln() for k in range(2, x + 1)), Decimal(0))
            value = log_factorial - (x + Decimal("0.5")) * Decimal(x).ln() + x - (2 * pi).ln() / 2
        else:  # the asymptotic series: ten terms are far below 1e-40 here
            bernoulli = [(1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6),
                         (-3617, 510), (43867, 798), (-174611, 330)]
            value = sum((Decimal(p) / q / (2 * j * (2 * j - 1)) / Decimal(x) ** (2 * j - 1)
                         for j, (p, q) in enumerate(bernoulli, start=1)), Decimal(0))
        return float(value)


def _deviance_reference(x: int, m: Decimal) -> float:
    with localcontext() as context:
        context.prec = 60
        if x == 0:
            return float(m)
        return float(x * (Decimal(x) / m).ln() + m - x)


@pytest.mark.parametrize("x", [1, 2, 3, 14, 15, 16, 17, 35, 36, 80, 81, 500, 501, 1000, 1001,
                               10**4, 10**6, 2**40, 2**62])
def test_stirling_error_to_about_1e_16_and_to_the_last_places_off_the_table_s_edge(x):
    # In ln P what counts is the absolute error: below 1.2e-16 everywhere (the series' sixth
    # term at 16); from the table (to 15) and from 36 on, also a few units of the last place.
    expected, got = _stirling_reference(x), float(stirling_error([x])[0])
    assert abs(got - expected) < 1.2e-16
    if x <= 15 or x >= 36:
        assert got == pytest.approx(expected, rel=4e-16, abs=1e-300)


def test_stirling_error_takes_arrays_of_any_shape():
    values = np.array([[1.0, 16.0], [1000.0, 2.0**50]])
    result = stirling_error(values)
    assert result.shape == (2, 2)
    assert result.tolist() == [[float(stirling_error([v])[0]) for v in row] for row in values]


@given(st.integers(0, 2**62), st.integers(-10**6, 10**6), st.integers(0, 3))
def test_deviance_matches_decimal_arithmetic_in_every_band(x, step, scale):
    # m = x - deviation, with deviation from exact integers: |v| from 0 to near 1, counts to 2**62.
    deviation = step * 10**scale
    m = x - deviation
    if m <= 0 or x + m == 0:
        return
    expected = _deviance_reference(x, Decimal(m))
    got = float(deviance([float(x)], [float(deviation)], [float(m)])[0])
    assert got == pytest.approx(expected, rel=2e-14, abs=1e-300)


def test_deviance_of_nothing_is_m_and_near_terms_are_exact_where_v_is_tiny():
    assert deviance([0.0], [-5.0]).tolist() == [5.0]  # 0 ln 0 is 0
    # x = m + 1 at x = 10**9: the value is about 1 / (2 m); the formula itself would lose it all.
    x, m = 10**9 + 1, 10**9
    assert float(deviance([float(x)], [1.0])[0]) == pytest.approx(
        _deviance_reference(x, Decimal(m)), rel=1e-15)
