"""contingency.formulas.paired: McNemar's test against statsmodels, its binomial tail against exact sums."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar as statsmodels_mcnemar

from contingency.formulas.paired import McNemar, PairedTable, binomial_half_tail, mcnemar


def exact_tail(k, n):
    """P(X <= k) and P(X = k) for X ~ Binomial(n, 1/2), as fractions (sums of exact integers)."""
    coefficient = math.comb(n, k)
    total, i, term = coefficient, k, coefficient
    while i > 0:
        term = term * i // (n - i + 1)
        i -= 1
        total += term
    return Fraction(total, 1 << n), Fraction(coefficient, 1 << n)


def relative(got, want):
    return abs(Fraction(got) - Fraction(want)) / abs(Fraction(want))


def random_tables(seed, count, largest=200_000):
    """Discordant counts as they come: small, moderate, near each other (b close to c, where
    the tail needs its integral), and far apart."""
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(count):
        kind = rng.integers(0, 4)
        if kind == 0:
            b, c = rng.integers(0, 40, 2)
        elif kind == 1:
            b, c = rng.integers(0, 5000, 2)
        else:
            n = int(rng.integers(400, largest))
            spread = (1, 4)[kind - 2] * math.sqrt(n) / 2
            b = int(np.clip(round(n / 2 + rng.normal(0, spread)), 0, n))
            c = n - b
        tables.append((int(b), int(c)))
    return tables


@pytest.mark.parametrize(("b", "c"), random_tables(1, 150))
def test_exact_and_asymptotic_agree_with_statsmodels(b, c):
    table = [[int(b + c) // 3, b], [c, 7]]
    for exact in (True, False):
        ours = mcnemar(b, c, exact=exact)
        if b + c == 0:
            assert ours == (0.0, 1.0)  # statsmodels' asymptotic statistic is 0 / 0 there
            continue
        theirs = statsmodels_mcnemar(table, exact=exact, correction=True)
        assert ours.statistic == pytest.approx(float(theirs.statistic), rel=1e-15, abs=0)
        if theirs.pvalue > 1e-290:
            assert ours.pvalue == pytest.approx(float(theirs.pvalue), rel=1e-12, abs=0)
        else:  # underflow territory: both tiny
            assert ours.pvalue < 1e-280


@pytest.mark.parametrize(("b", "c"), [(0, 1), (1, 0), (5, 5), (0, 60), (64, 1), (300, 30),
                                      (700, 650), (2600, 2400), (4800, 5200), (150, 40),
                                      *random_tables(2, 40, largest=12_000)])
def test_the_exact_and_mid_p_values_are_their_definitions(b, c):
    """Against sums of exact integers: exact = min(1, 2 P(X <= k)), mid-p = 2 P(X <= k) - P(X = k)."""
    n, k = b + c, min(b, c)
    if n == 0:
        return
    lower, point = exact_tail(k, n)
    exact, mid = mcnemar(b, c), mcnemar(b, c, mid_p=True)
    assert exact.statistic == mid.statistic == k
    for got, want in ((exact.pvalue, min(Fraction(1), 2 * lower)), (mid.pvalue, 2 * lower - point)):
        if want > Fraction(1, 10**290):
            assert relative(got, want) < 1e-12, (b, c)


@given(st.integers(1, 3000), st.data())
def test_the_binomial_tail_is_the_exact_sum(n, data):
    k = data.draw(st.integers(0, (n - 1) // 2))
    lower, point = binomial_half_tail(k, n)
    exact_lower, exact_point = exact_tail(k, n)
    for got, want in ((lower, exact_lower), (point, exact_point)):
        if want > Fraction(1, 10**290):
            assert relative(got, want) < 1e-12


@pytest.mark.parametrize("n", [201, 1001, 10**5 + 1, 10**9 + 1, 2**40 + 1, 2**62 + 1, 2**63 - 1])
def test_half_the_mass_lies_at_or_below_the_middle_of_an_odd_n(n):
    """P(X <= (n - 1) / 2) is exactly 1/2 for odd n: a check of the integral at every size, to
    2**63, where no exact sum can reach."""
    lower, _ = binomial_half_tail((n - 1) // 2, n)
    assert lower == pytest.approx(0.5, rel=1e-13)


@pytest.mark.parametrize("n", [1000, 10**6, 10**12, 2**62])
def test_an_even_n_splits_its_middle_term(n):
    """P(X <= n/2 - 1) = (1 - P(X = n/2)) / 2, the middle term C(2m, m) / 4**m by its asymptotic
    series (to 1e-14 from m = 500 on)."""
    lower, _ = binomial_half_tail(n // 2 - 1, n)
    m = n / 2
    middle = (1 - 1 / (8 * m) + 1 / (128 * m**2) + 5 / (1024 * m**3)
              - 21 / (32768 * m**4)) / math.sqrt(math.pi * m)
    assert lower == pytest.approx((1 - middle) / 2, rel=1e-13)


def test_far_tails_and_huge_counts_stay_finite_and_ordered():
    """p-values shrink as b pulls away from c, down to underflow, never NaN."""
    values = [mcnemar(10**9 + d, 10**9 - d).pvalue for d in (0, 10**4, 3 * 10**4, 10**5, 10**6)]
    assert values[0] == 1.0
    assert all(later < earlier for earlier, later in itertools.pairwise(values[:-1]))
    assert values[-1] == 0.0
    assert all(v == v for v in values)


def test_no_discordant_result_and_equal_discordant_counts():
    for exact, mid_p in ((True, False), (True, True), (False, False)):
        assert mcnemar(0, 0, exact=exact, mid_p=mid_p) == McNemar(0.0, 1.0)
        assert mcnemar(7, 7, exact=exact, mid_p=mid_p).pvalue <= 1.0
    assert mcnemar(7, 7) == McNemar(7.0, 1.0)
    assert mcnemar(7, 7, mid_p=True) == McNemar(7.0, 1.0)
    # The continuity correction is not clamped (as statsmodels): (0 - 1)**2 / 14.
    assert mcnemar(7, 7, exact=False).statistic == 1 / 14


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ((-1, 3), ValueError, "only_a_right must be a non-negative integer count, not -1"),
    ((2, 3.0), ValueError, "only_b_right must be a non-negative integer count, not 3.0"),
    ((True, 3), ValueError, "only_a_right must be a non-negative integer count, not True"),
    ((2**63, 3), ValueError, "only_a_right must be at most 2\\*\\*63 - 1"),
])
def test_counts_that_are_not_counts_are_refused_by_name(arguments, error, message):
    with pytest.raises(error, match=message):
        mcnemar(*arguments)


def test_mid_p_belongs_to_the_exact_test():
    with pytest.raises(ValueError, match=r"^mcnemar: mid_p=True is a version of the exact test"):
        mcnemar(3, 10, exact=False, mid_p=True)
    with pytest.raises(TypeError, match=r"^mcnemar: exact must be True or False, not 'yes'"):
        mcnemar(3, 10, exact="yes")


def test_numpy_integers_are_counts():
    assert mcnemar(np.int64(10), np.uint8(3)) == mcnemar(10, 3)


def test_the_paired_table_counts_its_results():
    assert PairedTable(5, 2, 1, 3).n_results == 11
