"""Confidence intervals: formulas against statsmodels and SciPy, the delta method against
Takahashi et al.'s formula and finite differences, coverage by simulation, running sums
against a computation from scratch, refusals, and where users see intervals."""

from __future__ import annotations

import itertools
import json
import math
import sys
from math import comb
from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import contingency
from contingency import Contingency, Interval, IntervalRefused, PartitionComparison
from contingency import plot as plots
from contingency.cli import main
from contingency.formulas import intervals as formulas
from contingency.formulas.partition import table_cells
from tests import beta_reference
from tests.strategies import categories_and_results

LEVELS = [0.5, 0.8, 0.9, 0.95, 0.99, 0.999]
CLOSED_FORMS = {"wilson": "wilson", "agresti_coull": "agresti_coull", "delta": "normal"}
MODES = ["perl", 0.0, 1.0, "nan"]


def grid() -> list[tuple[int, int]]:
    """(successes, trials): every count up to 12 trials, then 0, 1, a third, a half, n - 1, n."""
    pairs = [(s, n) for n in range(1, 13) for s in range(n + 1)]
    for n in (37, 100, 1000, 12345, 10**6):
        pairs += [(s, n) for s in sorted({0, 1, n // 3, n // 2, n - 1, n})]
    return pairs


def close(ours: float, theirs: float, exact_end: bool) -> bool:
    """Equal to 1e-12 relative; where the exact bound is 0 or 1, statsmodels' rounding of
    ``centre - spread`` may leave 1e-17 instead: 1e-15 absolute there."""
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15 if exact_end else 0.0)


# Proportions against statsmodels and SciPy ----------------------------------------------------


def test_a_refusal_is_the_public_interval_refused_and_a_value_error():
    s = Contingency(["x", "y"])
    s.add_result("x", "y")
    refusal = r"^interval\('macro_f1'\): method 'wilson'"
    with pytest.raises(contingency.IntervalRefused, match=refusal) as info:
        s.interval("macro_f1", method="wilson")
    assert isinstance(info.value, ValueError)
    shown = f"{type(info.value).__module__}.{type(info.value).__qualname__}"  # as a traceback names it
    assert shown == "contingency.IntervalRefused"
    with pytest.raises(IntervalRefused, match="purity"):
        PartitionComparison.from_labels(["a", "b"], ["a", "a"]).interval("purity")


@pytest.mark.parametrize("method", CLOSED_FORMS)
def test_closed_forms_equal_statsmodels_on_a_grid_including_0_and_n(method):
    for (successes, trials), level in itertools.product(grid(), LEVELS):
        theirs = proportion_confint(successes, trials, alpha=1 - level, method=CLOSED_FORMS[method])
        ours = formulas.proportion_bounds(successes, trials, level, method)
        ends = (successes == 0 or (method == "delta" and successes == trials),
                successes == trials or (method == "delta" and successes == 0))
        for side in (0, 1):
            assert close(ours[side], theirs[side], ends[side]), (method, successes, trials, level)


def test_wilson_bounds_are_exactly_0_and_1_at_the_ends():
    for trials in (1, 7, 10**9):
        z = formulas.normal_quantile(0.95)
        assert formulas.wilson(0, trials, z)[0] == 0.0
        assert formulas.wilson(trials, trials, z)[1] == 1.0


def test_wilson_keeps_its_relative_accuracy_near_zero():
    # One success in 10**15 trials: centre - spread would cancel; the product form does not.
    exact = formulas.wilson(1, 10**15, 2.0)[0]
    z2n = 4 / 10**15
    p = 1e-15
    # The root of (x - p)^2 = z^2 x (1 - x) / n below p, from the product of the roots.
    high = (p + z2n / 2 + 2 * math.sqrt(p * (1 - p) / 10**15 + z2n / (4 * 10**15))) / (1 + z2n)
    assert math.isclose(exact, p * p / ((1 + z2n) * high), rel_tol=1e-14)


def agrees_or_is_closer_to_the_truth(ours: float, theirs: float, quantile: tuple) -> bool:
    """Equal to 1e-12 relative; or, where the peer's value (SciPy's beta quantile, whose
    iteration can stop short) is off by more than that, ours within 1e-14 of the 40-digit
    quantile ``quantile = (p, a, b, upper)`` (tests/beta_reference.py)."""
    if math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=0):
        return True
    p, a, b, upper = quantile
    truth = beta_reference.beta_quantile(p, a, b, ours, upper=upper)
    return (math.isclose(ours, truth, rel_tol=1e-14)
            and not math.isclose(theirs, truth, rel_tol=1e-12))


def test_clopper_pearson_equals_statsmodels_beta_method_on_the_grid():
    for (successes, trials), level in itertools.product(grid(), LEVELS):
        theirs = proportion_confint(successes, trials, alpha=1 - level, method="beta")
        ours = formulas.clopper_pearson(successes, trials, level)
        tail, failures = (1 - level) / 2, trials - successes
        quantiles = ((tail, successes, failures + 1, False), (tail, successes + 1, failures, True))
        for side in (0, 1):
            assert agrees_or_is_closer_to_the_truth(ours[side], theirs[side], quantiles[side]), (
                successes, trials, level)


def test_jeffreys_equals_statsmodels_except_the_documented_ends():
    for (successes, trials), level in itertools.product(grid(), LEVELS):
        theirs = proportion_confint(successes, trials, alpha=1 - level, method="jeffreys")
        low, high = formulas.jeffreys(successes, trials, level)
        tail, shape = (1 - level) / 2, (successes + 0.5, trials - successes + 0.5)
        # Brown, Cai and DasGupta: 0 with no success, 1 with no failure (statsmodels keeps the
        # quantile there, which would leave the estimate outside its own interval).
        assert low == 0.0 if successes == 0 else agrees_or_is_closer_to_the_truth(
            low, theirs[0], (tail, *shape, False))
        assert high == 1.0 if successes == trials else agrees_or_is_closer_to_the_truth(
            high, theirs[1], (tail, *shape, True))
        if 0 < successes < trials:  # the quantiles themselves, from SciPy directly
            assert agrees_or_is_closer_to_the_truth(low, stats.beta.ppf(tail, *shape),
                                                    (tail, *shape, False))


# Clopper-Pearson and Jeffreys at huge counts (issue 31, item 2) -------------------------------


@pytest.mark.parametrize(("successes", "trials", "method", "side", "level"), [
    (1, 2**40, "clopper_pearson", 0, 0.95),
    (100, 2**40, "jeffreys", 1, 0.95),
    (2**40 // 3, 2**40, "clopper_pearson", 0, 0.95),
    (2**40 // 3, 2**40, "clopper_pearson", 1, 0.999999),
    (2**39, 2**40, "jeffreys", 0, 0.95),  # Beta(a, a): Boost's ibeta is 7e-5 off there
    (2**49, 2**50, "jeffreys", 1, 0.95),
    (2**49, 2**50, "clopper_pearson", 1, 0.95),
    (1, 2**62, "clopper_pearson", 0, 0.95),
    (100, 2**62, "clopper_pearson", 0, 0.95),  # SciPy's own quantile: 21% off
    (2**62 // 3, 2**62, "clopper_pearson", 0, 0.95),
    (2**62 // 3, 2**62, "jeffreys", 1, 0.95),
    (2**62 - 1, 2**62, "jeffreys", 0, 0.95),
])
def test_exact_bounds_equal_a_40_digit_quadrature_at_huge_counts(successes, trials, method,
                                                                  side, level):
    bound = getattr(formulas, method)(successes, trials, level)[side]
    tail, failures = (1 - level) / 2, trials - successes
    if method == "jeffreys":
        shape = (successes + 0.5, failures + 0.5)
    else:
        shape = (successes, failures + 1) if side == 0 else (successes + 1, failures)
    truth = beta_reference.beta_quantile(tail, *shape, bound, upper=side == 1)
    assert math.isclose(bound, truth, rel_tol=1e-14), (bound, truth)


def _huge_counts() -> list[tuple[int, int]]:
    pairs = []
    for exponent in range(40, 63):
        trials = 2**exponent - (exponent % 3) * 12345  # (not only powers of 2)
        pairs += [(successes, trials) for successes in (
            1, 2, 100, 10**6, trials // 7, trials // 3, trials // 2, trials // 2 + 1,
            trials - 10**6, trials - 1)]
    return pairs


@pytest.mark.parametrize("method", ["clopper_pearson", "jeffreys"])
@pytest.mark.parametrize("level", [0.5, 0.95, 0.999])
def test_exact_bounds_agree_with_wilson_to_order_1_over_n_at_huge_counts(method, level):
    """At 2**40 to 2**62 results the exact and Jeffreys bounds are Wilson's but for a term of
    order 1/n (half a result's continuity correction and the skewness of the binomial, at most
    (1 + z²) / n: about half of that is reached), as far as a double holds them (a few units in
    the last place: at 2**62 results 1/n is 1/256 of one near 1/2). SciPy's own quantiles
    missed by 6e4/n at 2**50 and left the estimate at 2**54."""
    z = formulas.normal_quantile(level)
    for successes, trials in _huge_counts():
        exact = getattr(formulas, method)(successes, trials, level)
        for side, wilson in enumerate(formulas.wilson(successes, trials, z)):
            allowed = (1 + z * z) / trials + 4 * math.ulp(wilson)
            assert abs(exact[side] - wilson) <= allowed, (successes, trials, side)
        share = successes / trials
        assert exact[0] <= share <= exact[1], (successes, trials)


@pytest.mark.parametrize("method", ["clopper_pearson", "jeffreys"])
def test_exact_bounds_are_monotone_in_the_counts_at_huge_counts(method):
    bounds = getattr(formulas, method)
    # The same share (a third) of ever more results: the interval narrows around it.
    thirds = [bounds(2**exponent // 3, 2**exponent, 0.95) for exponent in range(40, 63)]
    for (low, high), (next_low, next_high) in itertools.pairwise(thirds):
        assert low < next_low < 1 / 3 < next_high < high
    # More successes out of the same results: both bounds rise.
    for trials in (2**40, 2**51, 2**62):
        rising = [bounds(trials * k // 16, trials, 0.95) for k in range(1, 16)]
        for (low, high), (next_low, next_high) in itertools.pairwise(rising):
            assert low < next_low
            assert high < next_high


def test_beta_quantiles_without_scipy_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # import scipy.stats now fails
    with pytest.raises(ImportError, match=r'pip install "contingency\[stats\]"'):
        formulas.clopper_pearson(3, 10, 0.95)
    s = Contingency().add_results(["a", "b"], ["a", "a"])
    with pytest.raises(ImportError, match=r"contingency\[stats\]"):
        s.interval(("recall", "a"), method="jeffreys")
    assert s.interval(("recall", "a"))  # Wilson needs no SciPy


_COUNTS = st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))
_METHODS = st.sampled_from(["wilson", "agresti_coull", "clopper_pearson", "jeffreys", "delta"])


@given(_COUNTS, st.sampled_from(LEVELS), _METHODS)
@example((0, 1), 0.95, "wilson")
@example((5, 5), 0.999, "agresti_coull")
def test_every_interval_lies_in_0_1_and_holds_the_share(counts, level, method):
    successes, trials = counts
    low, high = formulas.proportion_bounds(successes, trials, level, method)
    share = successes / trials
    assert 0.0 <= low <= share <= high <= 1.0


@given(_COUNTS.filter(lambda c: c[1] <= 10**5), st.sampled_from(LEVELS), _METHODS,
       st.integers(2, 9))
def test_an_interval_shrinks_as_the_counts_are_scaled_up(counts, level, method, factor):
    successes, trials = counts
    low, high = formulas.proportion_bounds(successes, trials, level, method)
    low_k, high_k = formulas.proportion_bounds(successes * factor, trials * factor, level, method)
    assert high_k - low_k <= high - low + 1e-15
    if 0 < successes < trials and (low, high) != (0.0, 1.0):  # (not clipped at both ends)
        assert high_k - low_k < high - low


def test_a_higher_level_gives_a_wider_interval():
    for method in ["wilson", "agresti_coull", "clopper_pearson", "jeffreys", "delta"]:
        widths = [np.subtract(*formulas.proportion_bounds(7, 20, level, method)[::-1])
                  for level in LEVELS]
        assert widths == sorted(widths), method
        assert len(set(widths)) == len(widths), method


# Posteriors ---------------------------------------------------------------------------------


def test_posteriors_are_reproducible_by_seed_and_differ_between_seeds():
    first = formulas.f1_posterior(8, 3, 2, 0.95, seed=11)
    assert first == formulas.f1_posterior(8, 3, 2, 0.95, seed=11)
    assert first != formulas.f1_posterior(8, 3, 2, 0.95, seed=12)
    s = Contingency().add_results(["a"] * 8 + ["b"] * 5, ["a"] * 10 + ["b"] * 3)
    one = s.interval(("f1", "a"), method="posterior", seed=3)
    assert one == s.copy().interval(("f1", "a"), method="posterior", seed=3)
    assert one != s.interval(("f1", "a"), method="posterior", seed=4)


def test_f1_posterior_matches_dirichlet_draws_of_the_whole_table():
    # An independent route: Dirichlet(a+1, b+1, c+1, d+1) draws of all four shares.
    a, b, c, d = 12, 4, 6, 30
    rng = np.random.default_rng(99)
    shares = rng.dirichlet([a + 1, b + 1, c + 1, d + 1], size=200_000)
    f1 = 2 * shares[:, 0] / (2 * shares[:, 0] + shares[:, 1] + shares[:, 2])
    reference = np.quantile(f1, [0.025, 0.975])
    ours = formulas.f1_posterior(a, b, c, 0.95, seed=5, draws=200_000)
    assert np.allclose(ours, reference, atol=0.004)  # Monte Carlo error of both: ~0.001


def test_proportion_posterior_matches_the_beta_quantiles():
    low, high = formulas.proportion_posterior(30, 40, 0.9, seed=1, draws=400_000)
    assert math.isclose(low, stats.beta.ppf(0.05, 31, 11), abs_tol=0.002)
    assert math.isclose(high, stats.beta.ppf(0.95, 31, 11), abs_tol=0.002)


# The delta method -----------------------------------------------------------------------------


def numerical_variance(function, counts: np.ndarray) -> float:
    """``grad' (diag p - p p') grad / n`` with the gradient by central differences."""
    n = counts.sum()
    p = counts.ravel() / n
    step = 1e-6
    gradient = np.array([(function(p + step * e) - function(p - step * e)) / (2 * step)
                         for e in np.eye(p.size)])
    return float(gradient @ ((np.diag(p) - np.outer(p, p)) / n) @ gradient)


def macro_f1_of_shares(shares: np.ndarray) -> float:
    k = round(math.sqrt(shares.size))
    table = shares.reshape(k, k)
    return float(np.mean(2 * np.diag(table) / (table.sum(0) + table.sum(1))))


def takahashi_variance(table: np.ndarray) -> float:
    """Takahashi et al.'s macro F1 variance, written from their section 3 (rows: one side)."""
    r, n = table.shape[0], table.sum()
    p = table / n
    pii, rows, columns = np.diag(p), p.sum(1), p.sum(0)
    s = rows + columns
    f1 = 2 * pii / s
    first = np.sum(f1 * (s - 2 * pii) / s**2 * ((s - 2 * pii) / s + f1 / 2))
    second = sum(p[i, j] * f1[i] * f1[j] / (s[i] * s[j])
                 for i in range(r) for j in range(r) if i != j)
    return float(2 * (first + second) / (n * r * r))


def cells_of(table: np.ndarray) -> tuple[list[int], list[int], list[int], dict]:
    a = np.diag(table)
    b, c = table.sum(0) - a, table.sum(1) - a  # rows correct: columns are assigned
    confusion = {(i, j): int(table[i, j]) for i in range(len(a)) for j in range(len(a))
                 if i != j and table[i, j]}
    return a.tolist(), b.tolist(), c.tolist(), confusion


def random_tables(seed: int, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(count):
        k = int(rng.integers(2, 6))
        weights = rng.random((k, k)) + np.eye(k) * rng.integers(1, 8)
        tables.append(rng.multinomial(int(rng.integers(50, 2000)), (weights / weights.sum()).ravel())
                      .reshape(k, k) + np.eye(k, dtype=np.int64))  # every category named
    return tables


def test_macro_f1_variance_equals_takahashi_and_finite_differences():
    for table in random_tables(1, 25):
        a, b, c, confusion = cells_of(table)
        ours = formulas.macro_variance(a, b, c, "f1", confusion=confusion)
        assert math.isclose(ours, takahashi_variance(table), rel_tol=1e-12)
        assert math.isclose(ours, numerical_variance(macro_f1_of_shares, table), rel_tol=1e-6)


def test_macro_precision_and_recall_variances_equal_finite_differences():
    def macro(shares: np.ndarray, axis: int) -> float:
        k = round(math.sqrt(shares.size))
        table = shares.reshape(k, k)
        return float(np.mean(np.diag(table) / table.sum(axis)))

    for table in random_tables(2, 15):
        a, b, c, _ = cells_of(table)
        # Precision divides by the results assigned (columns), recall by the correct (rows).
        for score, axis in (("precision", 0), ("recall", 1)):
            ours = formulas.macro_variance(a, b, c, score)
            assert math.isclose(ours, numerical_variance(lambda p, axis=axis: macro(p, axis), table),
                                rel_tol=1e-6), score


def test_f1_variance_of_one_table_equals_finite_differences():
    def f1_of_shares(shares: np.ndarray) -> float:
        a, b, c, _ = shares
        return float(2 * a / (2 * a + b + c))

    for a, b, c, d in [(8, 2, 2, 10), (1, 5, 3, 0), (40, 1, 9, 500), (3, 0, 7, 2)]:
        assert math.isclose(formulas.f1_variance(a, b, c),
                            numerical_variance(f1_of_shares, np.array([a, b, c, d])), rel_tol=1e-6)


def test_micro_f1_delta_interval_is_takahashis_wald_interval():
    table = np.array([[50, 5, 3], [4, 40, 6], [2, 8, 30]])
    correct, assigned = np.divmod(np.repeat(np.arange(9), table.ravel()), 3)
    s = Contingency(range(3)).add_results(assigned, correct)
    p, n = np.trace(table) / table.sum(), table.sum()
    z = stats.norm.isf(0.025)
    low, estimate, high = s.interval("micro_f1", method="delta")
    assert estimate == s.micro_f1
    assert math.isclose(low, p - z * math.sqrt(p * (1 - p) / n), rel_tol=1e-12)
    assert math.isclose(high, p + z * math.sqrt(p * (1 - p) / n), rel_tol=1e-12)


def test_the_worked_example_of_the_docstring_by_hand():
    # x: 8 right, 2 assigned y; y: 1 assigned x, 9 right. Per-category terms and coupling:
    terms = 4 * 8 * 3 * 11 / 19**4 + 4 * 9 * 3 * 12 / 21**4
    coupling = 2 * (2 + 1) * (16 / 19**2) * (18 / 21**2)
    expected = (terms + coupling) / 4
    ours = formulas.macro_variance([8, 9], [1, 2], [2, 1], "f1", confusion={(0, 1): 2, (1, 0): 1})
    assert math.isclose(ours, expected, rel_tol=1e-14)


# Coverage: the proportion of nominal 95% intervals that hold the truth -------------------------

POPULATION = np.array([[0.20, 0.03, 0.01, 0.01], [0.02, 0.15, 0.03, 0.00],
                       [0.01, 0.02, 0.25, 0.02], [0.02, 0.01, 0.02, 0.20]])


def test_coverage_of_nominal_95_percent_over_2000_simulated_tables():
    shares = POPULATION / POPULATION.sum()
    k = len(shares)
    both = shares.sum(0) + shares.sum(1)
    truth = {
        "macro_f1": float(np.mean(2 * np.diag(shares) / both)),
        "macro_precision": float(np.mean(np.diag(shares) / shares.sum(0))),
        "macro_recall": float(np.mean(np.diag(shares) / shares.sum(1))),
        "micro_f1": float(np.trace(shares)),
        ("precision", 0): float(shares[0, 0] / shares[:, 0].sum()),
        ("f1", 2): float(2 * shares[2, 2] / both[2]),
    }
    methods = {"macro_f1": "delta", "macro_precision": "delta", "macro_recall": "delta"}
    correct, assigned = np.divmod(np.arange(k * k), k)
    rng = np.random.default_rng(20240605)
    held = dict.fromkeys(truth, 0)
    tables = 2000
    for _ in range(tables):
        counts = rng.multinomial(1000, shares.ravel())
        s = Contingency(range(k)).add_results(np.repeat(assigned, counts),
                                              np.repeat(correct, counts))
        for score, value in truth.items():
            low, _, high = s.interval(score, method=methods.get(score, "wilson"))
            held[score] += low <= value <= high
    coverage = {score: count / tables for score, count in held.items()}
    assert all(0.93 <= share <= 0.97 for share in coverage.values()), coverage


# The accumulator: what each score reads ---------------------------------------------------------

_LABELS = ["x", "y", "z"]
_RESULTS = st.lists(st.tuples(st.sampled_from(_LABELS), st.sampled_from(_LABELS)), min_size=1,
                    max_size=60)


@given(_RESULTS, st.sampled_from(MODES), st.sampled_from(LEVELS))
def test_the_estimate_is_the_plain_read_bit_for_bit(results, mode, level):
    s = Contingency(_LABELS, zero_division=mode)
    for assigned, correct in results:
        s.add_result(assigned, correct)
    reads = {name: getattr(s, name) for name in
             ("micro_precision", "micro_recall", "micro_f1", "micro_accuracy", "micro_error",
              "macro_accuracy", "macro_error", "hamming_loss", "subset_accuracy",
              "macro_precision", "macro_recall", "macro_f1")}
    stats_ = s.category_stats()
    for name, value in reads.items():
        method = "delta" if name in ("macro_precision", "macro_recall", "macro_f1") else "wilson"
        try:
            low, estimate, high = s.interval(name, level=level, method=method)
        except IntervalRefused:
            assert math.isnan(value), name  # undefined: "nan" mode, no category defined
            continue
        assert estimate == value or (math.isnan(estimate) and math.isnan(value)), name
        assert 0.0 <= low <= estimate <= high <= 1.0, name
    for label in _LABELS:
        for name in ("precision", "recall", "specificity", "accuracy", "error", "f1"):
            try:
                low, estimate, high = s.interval((name, label), level=level)
            except IntervalRefused:
                continue
            assert estimate == stats_[label][name], (name, label)
            assert 0.0 <= low <= estimate <= high <= 1.0


def test_each_proportion_reads_its_counts():
    s = Contingency(["x", "y", "z"]).add_results(
        ["x", "x", "y", "z", "z", "x", "y", "y", "z", "x"],
        ["x", "y", "y", "z", "x", "x", "y", "z", "z", "x"])
    z95 = formulas.normal_quantile(0.95)
    a, b, c = s._counts.a["x"], s._counts.b["x"], s._counts.c["x"]
    n = s.n_results
    d = n - a - b - c
    for name, (successes, trials) in {"precision": (a, a + b), "recall": (a, a + c),
                                      "specificity": (d, d + b), "accuracy": (a + d, n),
                                      "error": (b + c, n), "jaccard": (a, a + b + c)}.items():
        low, _, high = s.interval((name, "x"))
        assert (low, high) == formulas.wilson(successes, trials, z95), name
    right = 7  # results right, of 10
    assert s.interval("micro_precision")[::2] == formulas.wilson(right, n, z95)
    assert s.interval("subset_accuracy")[::2] == formulas.wilson(right, n, z95)
    # Micro accuracy of single-label results is 1 - 2 w / K for the share w of results wrong.
    low, estimate, high = s.interval("micro_accuracy")
    w_low, w_high = formulas.wilson(right, n, z95)
    assert math.isclose(low, 1 - 2 / 3 + 2 / 3 * w_low)
    assert math.isclose(high, 1 - 2 / 3 + 2 / 3 * w_high)
    assert math.isclose(estimate, 1 - 2 / 3 * (n - right) / n)
    e_low, _e_estimate, e_high = s.interval("hamming_loss")
    assert math.isclose(e_low, 1 - high)
    assert math.isclose(e_high, 1 - low)
    # A category's F1 through its Jaccard index: F1 = 2J / (1 + J).
    j_low, j_high = formulas.wilson(a, a + b + c, z95)
    f_low, _, f_high = s.interval(("f1", "x"))
    assert (f_low, f_high) == (2 * j_low / (1 + j_low), 2 * j_high / (1 + j_high))


def test_a_category_f1_interval_for_multi_label_results():
    s = Contingency().add_results([["a", "b"], ["a"], ["b", "c"], ["a", "c"], ["c"]],
                                  [["a"], ["a", "b"], ["b"], ["c"], ["a", "c"]])
    a, b, c = s._counts.a["a"], s._counts.b["a"], s._counts.c["a"]
    low, estimate, high = s.interval(("f1", "a"), method="delta")
    spread = formulas.normal_quantile(0.95) * math.sqrt(formulas.f1_variance(a, b, c))
    assert estimate == s.category_stats()["a"]["f1"]
    assert (low, high) == (max(0.0, estimate - spread), min(1.0, estimate + spread))
    for method in ("wilson", "posterior", "clopper_pearson"):
        assert s.interval(("f1", "a"), method=method).estimate == estimate
    with pytest.raises(ValueError, match="not single-label"):
        s.interval("macro_f1", method="delta")
    with pytest.raises(ValueError, match="not independent trials"):
        s.interval("micro_precision")
    assert s.interval("subset_accuracy").estimate == s.subset_accuracy


# Running sums of the macro variances, against a computation from scratch -----------------------

_STEP = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(_LABELS), st.sampled_from(_LABELS)),
    st.tuples(st.just("batch"), st.lists(st.tuples(st.sampled_from([*_LABELS, "w"]),
                                                    st.sampled_from([*_LABELS, "w"])), max_size=300)),
    st.tuples(st.just("remove"), st.integers(0, 400)),
    st.tuples(st.just("merge"), st.lists(st.tuples(st.sampled_from(_LABELS), st.sampled_from(_LABELS)),
                                         max_size=5)),
    st.tuples(st.just("read")),
    st.tuples(st.just("weight"), st.sampled_from([3, 0.5])),
)


@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 3000)),
                min_size=1, max_size=60),
       st.sampled_from(["precision", "recall", "f1", "slope"]))
@example([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (2730, 2731, 0), (4095, 0, 1)], "f1")
@example([(2**40, 1, 1)], "f1")  # past the column forms' bound: the scalar forms
@example([(2**70, 3, 0)], "precision")  # past int64
def test_variance_terms_on_columns_are_the_scalar_terms_bit_for_bit(rows, name):
    scalar = [formulas._TERMS[name](*row) for row in rows]
    with mock.patch.object(formulas, "VECTOR_ROWS", 1):
        assert formulas._each(*zip(*rows), name) == scalar


def check_running_sums(s: Contingency) -> None:
    counts = s._counts
    labels = list(counts.a)
    position = {label: k for k, label in enumerate(labels)}
    cells = [(counts.a[label], counts.b[label], counts.c[label]) for label in labels]
    confusion = {(position[truth], position[chosen]): count
                 for (truth, chosen), count in counts.label_pairs().items()}
    for score in ("precision", "recall", "f1"):
        running = counts.variance_sums(score).total
        if score == "f1":
            running += 2 * counts.f1_coupling().total
        a, b, c = ([row[k] for row in cells] for k in range(3))
        scratch = formulas.macro_variance_sum(a, b, c, score,
                                              confusion if score == "f1" else {}, counts.scale)
        assert running == scratch, score


@given(st.lists(_STEP, max_size=30), st.booleans())
@example([("add", "x", "y"), ("read",), ("add", "y", "x"), ("read",), ("remove", 0), ("read",)], False)
@example([("batch", [("x", "y")] * 300), ("read",), ("batch", [("y", "x")] * 300), ("remove", 1)], True)
def test_running_variance_sums_equal_the_sums_from_scratch_after_every_step(steps, declared):
    s = Contingency(_LABELS if declared else None, unknown="add")
    live: list[tuple[str, str, object]] = []
    for step in steps:
        if step[0] == "add":
            s.add_result(step[1], step[2])
            live.append((step[1], step[2], 1))
        elif step[0] == "batch" and step[1]:
            assigned, correct = zip(*step[1])
            s.add_results(np.array(assigned), np.array(correct))  # coded pairs, numpy fold
            live += [(x, y, 1) for x, y in step[1]]
        elif step[0] == "remove" and live:
            assigned, correct, weight = live.pop(step[1] % len(live))
            s.remove_result(assigned, correct, weight=weight)
        elif step[0] == "merge":
            other = Contingency(_LABELS if declared else None, unknown="add")
            for assigned, correct in step[1]:
                other.add_result(assigned, correct)
                live.append((assigned, correct, 1))
            s.merge(other)
        elif step[0] == "weight":
            s.add_result("x", "z", weight=step[1])
            live.append(("x", "z", step[1]))
        try:  # a read makes the sums (or brings them up to date)
            s.interval("macro_f1", method="delta")
            s.interval("macro_precision", method="delta")
        except ValueError:
            pass
        if s._counts.variances:
            check_running_sums(s)
    if s._counts.variances:
        check_running_sums(s)


def test_the_coupling_follows_the_tally_fold_and_forgotten_categories():
    s = Contingency()
    s.add_results(["a", "b", "c", "a", "c"], ["b", "c", "a", "a", "c"])
    s.interval("macro_f1", method="delta")  # the coupling exists from here, slopes nonzero
    for _ in range(300):  # the fast path's tally, folded by the next read with numpy
        s.add_result("a", "b")
        s.add_result("c", "c")
    s.interval("macro_f1", method="delta")
    check_running_sums(s)
    s.remove_results(["b", "c", "a"], ["c", "a", "a"])  # b is forgotten once its cells are all 0
    s.remove_results(["a"] * 300, ["b"] * 300)
    s.remove_results(["a"], ["b"])
    assert "b" not in s.categories
    s.interval("macro_f1", method="delta")
    check_running_sums(s)


def test_the_macro_f1_interval_equals_the_formula_from_the_confusion_matrix():
    for table in random_tables(3, 10):
        k = len(table)
        correct, assigned = np.divmod(np.repeat(np.arange(k * k), table.ravel()), k)
        s = Contingency(range(k)).add_results(assigned, correct)
        a, b, c, confusion = cells_of(table)
        variance = formulas.macro_variance(a, b, c, "f1", confusion=confusion)
        low, estimate, high = s.interval("macro_f1", method="delta")
        spread = formulas.normal_quantile(0.95) * math.sqrt(variance)
        assert estimate == s.macro_f1
        assert (low, high) == (max(0.0, estimate - spread), min(1.0, estimate + spread))


def test_nan_mode_averages_over_the_defined_categories_only():
    s = Contingency(["x", "y", "never"], zero_division="nan").add_results(
        ["x", "x", "y", "y", "x"], ["x", "y", "y", "y", "x"])
    low, estimate, high = s.interval("macro_precision", method="delta")
    a, b, c = [2, 2, 0], [1, 0, 0], [0, 1, 0]
    spread = formulas.normal_quantile(0.95) * math.sqrt(
        formulas.macro_variance(a, b, c, "precision", averaged=2))
    assert estimate == s.macro_precision
    assert (low, high) == (max(0.0, estimate - spread), min(1.0, estimate + spread))


# Weights ---------------------------------------------------------------------------------------


def test_integer_weights_are_repeats():
    weighted = Contingency().add_results(["a", "b", "a"], ["a", "a", "b"], weights=[3, 1, 2])
    repeated = Contingency().add_results(["a"] * 3 + ["b"] + ["a"] * 2, ["a"] * 4 + ["b"] * 2)
    for score, method in (("micro_f1", "wilson"), ("macro_f1", "delta"), (("f1", "a"), "delta"),
                          (("precision", "b"), "clopper_pearson")):
        assert weighted.interval(score, method=method) == repeated.interval(score, method=method)


def test_fractional_weights_are_refused_and_whole_counts_again_are_not():
    s = Contingency().add_results(["a", "b", "a"], ["a", "a", "b"])
    before = s.interval("macro_f1", method="delta")
    s.add_result("a", "a", weight=0.5)
    state = s.to_dict()
    for score in ("micro_f1", ("recall", "a"), "macro_f1"):
        with pytest.raises(ValueError, match="fractional weights"):
            s.interval(score, method="delta")
    assert s.to_dict() == state
    s.remove_result("a", "a", weight=0.5)  # counts are whole again, kept in a finer unit
    assert s._counts.scale > 0
    assert s.interval("macro_f1", method="delta") == before
    assert s.interval(("recall", "a")) == Contingency().add_results(
        ["a", "b", "a"], ["a", "a", "b"]).interval(("recall", "a"))


# Refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("make", "score", "options", "message"), [
    (lambda: Contingency(["x"]), "micro_f1", {}, "there are no results"),
    (lambda: Contingency(["x"]), "macro_f1", {"method": "delta"}, "there are no results"),
    (lambda: Contingency().add_results(["x"], ["y"]), ("precision", "y"), {},
     "precision of 'y' is undefined: no result assigned it"),
    (lambda: Contingency().add_results(["x"], ["y"]), ("recall", "x"), {},
     "recall of 'x' is undefined: no result has it as correct"),
    (lambda: Contingency(["x", "q"]).add_results(["x"], ["x"]), ("f1", "q"), {},
     "F1 of 'q' is undefined: no result names it"),
    (lambda: Contingency().add_results(["x"], ["x"]), ("recall", "nope"), {}, "'nope' is not a category"),
    (lambda: Contingency().add_results(["x"], ["x"]), ("recall", ["unhashable"]), {}, "is not a category"),
    (lambda: Contingency().add_results(["x"], ["x"]), "weighted_f1", {}, "no interval for this score"),
    (lambda: Contingency().add_results(["x"], ["x"]), "cohen_kappa", {}, "intervals exist for"),
    (lambda: Contingency().add_results(["x"], ["x"]), ("kappa", "x"), {}, "a score is the name"),
    (lambda: Contingency().add_results(["x"], ["x"]), 3, {}, "a score is the name"),
    (lambda: Contingency().add_results(["x"], ["x"]), "macro_f1", {}, "method 'wilson' does not apply"),
    (lambda: Contingency().add_results(["x"], ["x"]), "macro_f1", {"method": "posterior"},
     "method 'posterior' does not apply"),
    (lambda: Contingency().add_results(["x"], ["x"]), "micro_f1", {"method": "bayes"},
     "method must be one of 'wilson', 'agresti_coull'"),
    (lambda: Contingency().add_results(["x"], ["x"]), "micro_f1", {"level": 95},
     "level must be a number between 0 and 1"),
    (lambda: Contingency().add_results(["x"], ["x"]), "micro_f1", {"level": True}, "level must be"),
    (lambda: Contingency().add_results(["x"], ["x"]), "micro_f1", {"method": "posterior", "draws": 0},
     "draws must be a whole number from 1 to"),
    (lambda: _set_entries(), "micro_precision", {}, "set_entries set the micro table"),
    (lambda: _set_entries(), "micro_accuracy", {}, "set_entries set the micro table"),
])
def test_refusals_name_the_reason_and_change_nothing(make, score, options, message):
    s = make()
    before = s.to_dict()
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        s.interval(score, **options)
    assert s.to_dict() == before


def _set_entries() -> Contingency:
    s = Contingency().add_results(["x", "y"], ["x", "x"])
    s.set_entries(5, 1, 1, 3)
    return s


def test_set_entries_leaves_the_macro_and_category_intervals():
    s = _set_entries()
    assert s.interval(("recall", "x")).estimate == 0.5
    assert s.interval("macro_f1", method="delta").estimate == s.macro_f1
    assert s.interval("macro_error").estimate == s.macro_error


def test_thread_safe_accumulators_read_intervals_too():
    s = Contingency(thread_safe=True).add_results(["a", "b", "b"], ["a", "b", "a"])
    assert s.interval("micro_f1") == Contingency().add_results(
        ["a", "b", "b"], ["a", "b", "a"]).interval("micro_f1")


# PartitionComparison --------------------------------------------------------------------------


def pair_scores(table: np.ndarray) -> dict[str, float]:
    same_same = sum(comb(int(x), 2) for x in table.ravel())
    same_reference = sum(comb(int(x), 2) for x in table.sum(1))
    same_model = sum(comb(int(x), 2) for x in table.sum(0))
    pairs = comb(int(table.sum()), 2)
    return {"rand_index": (pairs - same_reference - same_model + 2 * same_same) / pairs,
            "precision": same_same / same_model, "recall": same_same / same_reference,
            "f1": 2 * same_same / (same_reference + same_model),
            "jaccard": same_same / (same_reference + same_model - same_same)}


def test_pair_variance_agrees_with_the_jackknife():
    # The jackknife estimates the same asymptotic variance: within a few percent at N = 2000.
    rng = np.random.default_rng(8)
    table = rng.multinomial(2000, np.array([[8, 2, 1], [1, 6, 2], [2, 1, 9]]).ravel() / 32).reshape(3, 3)
    n = table.sum()
    for score in formulas.PAIR_RATIOS:
        values, weights = [], []
        for (i, j), count in np.ndenumerate(table):
            if count:
                smaller = table.copy()
                smaller[i, j] -= 1
                values.append(pair_scores(smaller)[score])
                weights.append(count)
        values_, weights_ = np.array(values), np.array(weights)
        mean = (weights_ * values_).sum() / n
        jackknife = (n - 1) / n * (weights_ * (values_ - mean) ** 2).sum()
        assert math.isclose(formulas.pair_variance(table_cells(table), score), jackknife,
                            rel_tol=0.02), score


def test_pair_score_intervals_cover_their_population_values():
    shares = np.array([[0.20, 0.05, 0.02], [0.03, 0.25, 0.05], [0.05, 0.05, 0.30]])
    shares = shares / shares.sum()
    rows, columns = shares.sum(1), shares.sum(0)
    same_same, same_reference, same_model = (shares**2).sum(), (rows**2).sum(), (columns**2).sum()
    truth = {"rand_index": 1 - same_reference - same_model + 2 * same_same,
             "precision": same_same / same_model, "recall": same_same / same_reference,
             "f1": 2 * same_same / (same_reference + same_model),
             "jaccard": same_same / (same_reference + same_model - same_same)}
    reference, model = np.divmod(np.arange(9), 3)
    rng = np.random.default_rng(7)
    held = dict.fromkeys(truth, 0)
    samples = 1000
    for _ in range(samples):
        counts = rng.multinomial(300, shares.ravel())
        comparison = PartitionComparison.from_labels(np.repeat(reference, counts),
                                                     np.repeat(model, counts))
        for score, value in truth.items():
            low, _, high = comparison.interval(score)
            held[score] += low <= value <= high
    coverage = {score: count / samples for score, count in held.items()}
    assert all(0.93 <= share <= 0.97 for share in coverage.values()), coverage


def test_partition_intervals_read_their_scores_and_refuse_the_others():
    comparison = PartitionComparison.from_labels([1, 1, 1, 2, 2, 2, 3, 3], [1, 1, 2, 2, 2, 3, 3, 3])
    for score in ("rand_index", "accuracy", "distance", "precision", "recall", "f1", "jaccard"):
        low, estimate, high = comparison.interval(score)
        assert estimate == getattr(comparison, score)
        assert 0.0 <= low <= estimate <= high <= 1.0
    rand = comparison.interval("rand_index")
    assert comparison.interval("distance") == (1 - rand.high, comparison.distance, 1 - rand.low)
    for score, message in (("adjusted_rand_index", "adjusted Rand index"), ("purity", "biased upward"),
                           ("mutual_information", "information and matching scores"),
                           ("fowlkes_mallows", "geometric mean")):
        with pytest.raises(ValueError, match=message):
            comparison.interval(score)
    with pytest.raises(ValueError, match="pairs of elements are not independent trials"):
        comparison.interval("rand_index", method="wilson")
    with pytest.raises(ValueError, match="fewer than two elements"):
        PartitionComparison.from_labels([1], [1]).interval("rand_index")
    with pytest.raises(ValueError, match="precision is undefined"):
        PartitionComparison.from_labels([1, 2], [1, 2]).interval("precision")


# Where users see them --------------------------------------------------------------------------


def test_the_scores_block_holds_each_interval_and_is_json():
    s = Contingency(["a", "b", "never"]).add_results(["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"])
    block = s.scores(intervals=0.9)["intervals"]
    json.dumps(block, allow_nan=False)
    assert block["level"] == 0.9
    assert "intervals" not in s.scores()
    by_label = {row["category"]: row for row in block["categories"]}
    assert by_label["a"]["precision"] == list(s.interval(("precision", "a"), level=0.9)[::2])
    assert by_label["b"]["f1"] == list(s.interval(("f1", "b"), level=0.9)[::2])
    assert by_label["never"]["precision"] is None  # undefined: refused, not NaN
    assert block["macro"]["f1"] == list(s.interval("macro_f1", level=0.9, method="delta")[::2])
    assert block["micro"]["recall"] == list(s.interval("micro_recall", level=0.9)[::2])
    assert block["subset_accuracy"] == list(s.interval("subset_accuracy", level=0.9)[::2])
    with pytest.raises(ValueError, match="intervals must be"):
        s.scores(intervals=2)


def _one_at_a_time(s: Contingency, score, level: float):
    try:
        low, _, high = s.interval(score, level=level,
                                  method="delta" if str(score).startswith("macro") else "wilson")
    except IntervalRefused:
        return None
    return [low, high]


@given(categories_and_results(), st.sampled_from(["perl", 0, 1, "nan"]),
       st.sampled_from([None, 1, 3, 0.5]), st.sampled_from([0.5, 0.9, 0.99]))
@example((["a", "b"], []), "perl", None, 0.9)  # no results: every interval refused
def test_the_block_gives_each_category_interval_bit_for_bit(drawn, mode, weight, level):
    # The block's categories are computed on whole columns (wilson_columns and the scores'
    # vector forms); each must be the very interval a read of that category gives, or None
    # where the read refuses (no trial, fractional weights, no results).
    cats, stream = drawn
    s = Contingency(cats, zero_division=mode)
    for assigned, correct in stream:
        if weight is None:
            s.add_result(assigned, correct)
        else:
            s.add_result(assigned, correct, weight=weight)
    block = s.scores(intervals=level)["intervals"]
    assert [row["category"] for row in block["categories"]] == list(s.categories)
    for row, label in zip(block["categories"], s.categories):
        for name in ("precision", "recall", "f1"):
            assert row[name] == _one_at_a_time(s, (name, label), level), (name, label)


@given(categories_and_results(single_label=True), st.sampled_from(["perl", 0, 1, "nan"]),
       st.sampled_from([None, 2, 0.5]), st.booleans(), st.booleans())
@example((["a", "b"], [("a", "b"), ("c", "b")]), "nan", None, True, False)  # c forgotten
@example((["a", "z", "b"], [("a", "a"), ("b", "a"), ("b", "b"), ("a", "a"), ("a", "b")]), "nan",
         None, False, False)  # z declared, never named: undefined everywhere, not averaged
def test_the_block_gives_each_macro_interval_from_the_cells_bit_for_bit(
        drawn, mode, weight, remove, multi):
    # The block computes the macro averages' delta-method intervals from the cells at once
    # (no running sums made); each must be the interval the running sums give, or None where
    # the read refuses (several labels a result, fractional weights, nothing defined).
    cats, stream = drawn
    s = Contingency(cats[:2], unknown="add", zero_division=mode)
    for assigned, correct in stream:
        if weight is None:
            s.add_result(assigned, correct)
        else:
            s.add_result(assigned, correct, weight=weight)
    if remove and stream and weight is None:
        s.remove_result(*stream[-1])
    if multi:
        s.add_result([cats[0], "extra"], cats[0])
    block = s.scores(intervals=0.9)["intervals"]
    assert not s._counts.variances  # the block made no running sums of the intervals
    assert s._counts.coupling is None
    for name in ("precision", "recall", "f1"):
        assert block["macro"][name] == _one_at_a_time(s, f"macro_{name}", 0.9), name


def test_the_block_takes_counts_past_2_53_one_category_at_a_time():
    s = Contingency(["a", "b"])
    s.add_result("a", "a", weight=2**53)
    s.add_result("b", "a")
    block = s.scores(intervals=0.9)["intervals"]
    for row in block["categories"]:
        for name in ("precision", "recall", "f1"):
            assert row[name] == _one_at_a_time(s, (name, row["category"]), 0.9)


@given(st.lists(st.tuples(st.integers(0, 2**52), st.integers(0, 2**52)), max_size=30),
       st.floats(0.01, 5.0))
@example([(0, 0), (0, 5), (5, 5), (1, 2**52), (2**52, 2**52), (3, 7)], 1.959963984540054)
def test_wilson_columns_is_wilson_bit_for_bit(pairs, z):
    successes = [min(s, n) for s, n in pairs]
    trials = [n for _, n in pairs]
    low, high = formulas.wilson_columns(successes, trials, z)
    for position, (count, total) in enumerate(zip(successes, trials)):
        if total == 0:
            assert math.isnan(low[position])
            assert math.isnan(high[position])
        else:
            assert (low[position], high[position]) == formulas.wilson(count, total, z)


def test_wilson_columns_refuses_what_wilson_cannot_take_exactly():
    with pytest.raises(ValueError, match="successes <= trials"):
        formulas.wilson_columns([3], [2], 1.96)
    with pytest.raises(ValueError, match="2\\*\\*53"):
        formulas.wilson_columns([1], [2**53], 1.96)


def test_the_json_of_a_million_categories_intervals_is_streamed_as_json_dumps_writes_it():
    # The command line writes the block's categories from columns (report.json_text); the text
    # must be json.dumps's of the public scores(), character for character.
    from contingency import report
    s = Contingency(["a", "b", "never", 7]).add_results(["a", "b", "b", 7], ["a", "a", "b", 7])
    columns = s._scores(0.9)
    columns["categories"] = columns["categories"].json_records()
    assert "".join(report.json_text(columns)) == json.dumps(
        report.json_numbers(s.scores(intervals=0.9)), indent=2, allow_nan=False)


def test_the_report_shows_an_interval_after_each_score():
    s = Contingency().add_results(["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"])
    text = s.report(intervals=0.95, digits=2)
    header, _, first = text.splitlines()[:3]
    assert header.split() == ["precision", "95%", "CI", "recall", "95%", "CI", "f1", "95%", "CI",
                              "support"]
    low, _, high = s.interval(("precision", "a"))
    assert first.split()[:4] == ["a", f"{s.category_stats()['a']['precision']:.2f}",
                                 f"[{low:.2f},", f"{high:.2f}]"]
    assert "weighted avg" in text
    assert text.splitlines()[-1].startswith("95% CI: Wilson")
    assert s.report() == s.report(intervals=None)


def test_partition_scores_and_report_show_the_pair_intervals():
    comparison = PartitionComparison.from_labels([1, 1, 1, 2, 2, 2], [1, 1, 2, 2, 2, 2])
    block = comparison.scores(intervals=0.95)["intervals"]
    assert block["rand_index"] == list(comparison.interval("rand_index")[::2])
    low, _, high = comparison.interval("jaccard")
    assert f"[{low:.3f}, {high:.3f}]" in comparison.report(intervals=0.95)


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_command_line_intervals_on_classify_and_compare(tmp_path, capsys):
    rows = [("a", "a"), ("b", "a"), ("b", "b"), ("a", "a"), ("c", "c")] * 4
    path = write(tmp_path, "run.csv", "assigned,correct\n" + "".join(f"{a},{c}\n" for a, c in rows))
    assigned, correct = zip(*rows)
    expected = Contingency().add_results(list(assigned), list(correct))
    assert main(["classify", path, "--intervals"]) == 0
    assert expected.report(intervals=0.95) in capsys.readouterr().out
    assert main(["classify", path, "--intervals", "0.8", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["intervals"] == expected.scores(intervals=0.8)["intervals"]
    pairs = write(tmp_path, "pairs.csv", "ref,model\n" + "".join(f"{a},{c}\n" for a, c in rows))
    assert main(["compare", pairs, "--reference", "ref", "--model", "model", "--intervals", "0.9",
                 "--format", "json"]) == 0
    comparison = PartitionComparison.from_labels(list(assigned), list(correct))
    assert json.loads(capsys.readouterr().out)["intervals"] == comparison.scores(0.9)["intervals"]


@pytest.mark.parametrize("level", ["1", "0", "x", "95"])
def test_command_line_refuses_a_bad_level_in_one_line(tmp_path, capsys, level):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\n")
    assert main(["classify", path, "--intervals", level]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert "--intervals: must be a confidence level between 0 and 1" in err


def test_the_learning_curve_draws_a_band_for_each_interval():
    s, points = Contingency(), []
    for assigned, correct in [("a", "a"), ("b", "a"), ("b", "b"), ("a", "a"), ("b", "b")]:
        s.add_result(assigned, correct)
        points.append(plots.learning_point(s, intervals=0.9))
    axes = plots.learning_curve(points, level=0.9).axes[0]
    micro_band, macro_band = axes.collections
    low, _, high = points[-1].micro_f1
    vertices = micro_band.get_paths()[0].vertices
    assert [5.0, low] in vertices.tolist()
    assert [5.0, high] in vertices.tolist()
    assert macro_band.get_label() == "macro F1, 90% interval"
    assert [line.get_xydata()[-1].tolist() for line in axes.get_lines()] == [
        [5.0, s.micro_f1], [5.0, s.macro_f1]]
    assert isinstance(points[-1].macro_f1, Interval)
    multi = Contingency().add_results([["a", "b"]], [["a"]])
    assert plots.learning_point(multi, intervals=0.9) == plots.learning_point(multi)  # refused: floats


# Issue 31, item 13: every argument checked before any cache, alike on every call ------------

_BAD_ARGUMENTS = [
    ({"level": 0.375 + 0j}, "level must be a number between 0 and 1"),
    ({"level": 0.375 + 0j, "method": "posterior"}, "level must be a number between 0 and 1"),
    ({"level": np.complex128(0.375)}, "level must be a number between 0 and 1"),
    ({"method": np.array(["wilson", "delta"])}, "method must be one of"),
    ({"method": ["wilson"]}, "method must be one of"),
    ({"draws": 0}, "draws must be a whole number from 1 to"),
    ({"draws": 10**12, "method": "posterior"}, "draws must be a whole number from 1 to 10000000"),
    ({"draws": 2.0, "method": "posterior"}, "draws must be a whole number"),
    ({"draws": True, "method": "posterior"}, "draws must be a whole number"),
    ({"seed": -1, "method": "posterior"}, "seed must be None or a non-negative whole number"),
    ({"seed": 1.5, "method": "posterior"}, "seed must be None or a non-negative whole number"),
    ({"seed": "7"}, "seed must be None or a non-negative whole number"),
]


@pytest.mark.parametrize(("options", "message"), _BAD_ARGUMENTS)
def test_interval_arguments_are_refused_alike_before_and_after_a_read(options, message):
    s = Contingency().add_results(["a"] * 8 + ["b"] * 4, ["a"] * 6 + ["b"] * 6)
    good = {"level": 0.375, "method": "posterior", "draws": 500, "seed": 3}
    with mock.patch.dict(formulas.LEVELS_SEEN, clear=True):
        for _ in range(2):  # the first call, and one after the good arguments were read
            with pytest.raises(ValueError, match=message):
                s.interval("micro_precision", **options)
            s.interval("micro_precision", **good)
            with pytest.raises(ValueError, match=message):
                s.interval("micro_precision", **options)


def test_numpy_integers_are_draws_and_seeds_and_a_complex_level_no_quantile():
    s = Contingency().add_results(["a"] * 8 + ["b"] * 4, ["a"] * 6 + ["b"] * 6)
    plain = s.interval("micro_precision", method="posterior", draws=300, seed=5)
    assert s.interval("micro_precision", method="posterior", draws=np.int64(300),
                      seed=np.uint16(5)) == plain
    assert s.interval(("f1", "a"), method="posterior", draws=np.int32(300), seed=np.int8(5)) \
        == s.interval(("f1", "a"), method="posterior", draws=300, seed=5)
    formulas.normal_quantile(0.375)
    with pytest.raises(ValueError, match="level must be a number"):
        formulas.normal_quantile(0.375 + 0j)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="draws must be a whole number"):
        formulas.proportion_posterior(3, 10, 0.9, draws=10**12)
    with pytest.raises(ValueError, match="seed must be None"):
        formulas.f1_posterior(3, 1, 1, 0.9, seed=-1)


# The normal quantile near level 1 (issue 31, item 3) ------------------------------------------

#: Levels near 1, where ``Phi^-1(0.5 + level / 2)`` rounds the tail away; the last is the
#: largest double below 1.
HIGH_LEVELS = [0.999999, 0.999999999, 1 - 1e-12, 1 - 2**-40, math.nextafter(1.0, 0.0)]


@pytest.mark.parametrize("level", [0.3, 0.95, *HIGH_LEVELS])
def test_the_normal_quantile_is_accurate_to_the_last_digits_near_level_1(level):
    # SciPy's ndtri computes the quantile of the tail itself (Cephes), accurate there.
    assert math.isclose(formulas.normal_quantile(level), -stats.norm.ppf((1 - level) / 2),
                        rel_tol=2e-15)


@pytest.mark.parametrize("level", HIGH_LEVELS)
def test_closed_forms_equal_statsmodels_near_level_1(level):
    """statsmodels takes z from the tail (``norm.isf(alpha / 2)``): Wilson, Agresti-Coull and
    Wald agree to 1e-12 at levels near 1 too."""
    for successes, trials in [(1, 10), (8, 10), (500, 1000), (3, 10**6)]:
        for method in CLOSED_FORMS:
            theirs = proportion_confint(successes, trials, alpha=1 - level,
                                        method=CLOSED_FORMS[method])
            ours = formulas.proportion_bounds(successes, trials, level, method)
            for side in (0, 1):
                if 0.0 < theirs[side] < 1.0:  # (not clipped)
                    assert math.isclose(ours[side], theirs[side], rel_tol=1e-12), (method, level)


def test_the_largest_level_below_1_is_answered_at_every_entry_point(tmp_path, capsys):
    level = math.nextafter(1.0, 0.0)
    s = Contingency().add_results(["x", "y", "x", "x"], ["x", "x", "y", "x"])
    low, estimate, high = s.interval("micro_f1", level=level)
    assert 0.0 <= low <= estimate <= high <= 1.0
    assert s.scores(intervals=level)["intervals"]["micro"]["f1"] == [low, high]
    paired = contingency.PairedComparison().add_results(["x", "y", "x"], ["x", "x", "y"],
                                                        ["x", "x", "x"])
    low, estimate, high = paired.accuracy_difference(level)
    assert -1.0 <= low <= estimate <= high <= 1.0
    path = write(tmp_path, "run.csv", "assigned,correct\nx,x\ny,x\nx,y\nx,x\n")
    assert main(["classify", path, "--intervals", repr(level), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["intervals"] == s.scores(intervals=level)["intervals"]
    assert err == ""


# Every interval in [0, 1], holding its estimate (issue 31, item 1) -----------------------------

_ALL_SCORES = ["micro_accuracy", "macro_accuracy", "micro_error", "macro_error", "hamming_loss",
               "micro_precision", "micro_recall", "micro_f1", "subset_accuracy", "macro_precision",
               "macro_recall", "macro_f1"]


@given(categories_and_results(single_label=True), st.booleans(),
       st.sampled_from(formulas.PROPORTION_METHODS), st.sampled_from([0.5, 0.95, 0.999]))
@example((["x"], [("x", "x")]), False, "wilson", 0.95)  # one category, one result
@example((["x"], [("x", "x")] * 7), True, "clopper_pearson", 0.999)
@example((["x", "y"], [("x", "x")]), False, "posterior", 0.95)  # y declared but never named
def test_every_interval_of_an_accumulator_lies_in_0_1_and_holds_its_estimate(
        drawn, declared, method, level):
    cats, stream = drawn
    s = Contingency(cats) if declared else Contingency()
    for assigned, correct in stream:
        s.add_result(assigned, correct)
    scores = [*_ALL_SCORES, *((name, label) for name in ("precision", "recall", "f1", "accuracy",
                                                          "error", "jaccard", "specificity")
                              for label in s.categories)]
    for score in scores:
        try:
            low, estimate, high = s.interval(score, level=level, method=method, draws=200)
        except IntervalRefused:
            continue
        assert 0.0 <= low <= estimate <= high <= 1.0, (score, low, estimate, high)


def test_one_category_makes_decision_accuracy_a_constant_with_a_point_interval():
    """With one category no single-label result can be wrong (it would name a second one):
    accuracy is 1 and error 0 by construction, and each interval is that point."""
    s = Contingency()
    s.add_result("x", "x")
    for method in formulas.PROPORTION_METHODS:
        for score in ("micro_accuracy", "macro_accuracy"):
            assert s.interval(score, method=method) == (1.0, 1.0, 1.0)
        for score in ("micro_error", "macro_error", "hamming_loss"):
            assert s.interval(score, method=method) == (0.0, 0.0, 0.0)
    s.add_result("y", "x")  # a second category: the share of wrong results has its interval
    low, estimate, high = s.interval("micro_error")
    assert 0.0 < low < estimate == 0.5 < high < 1.0


@pytest.mark.parametrize(("alpha", "beta"), [
    (formulas.UNIFORM_FROM, 2**40), (2**40, formulas.UNIFORM_FROM),
    (formulas.UNIFORM_FROM + 0.5, 2**62), (2**61 + 1, 2**61), (2**61, 2**61)])
def test_the_uniform_tail_equals_a_40_digit_quadrature_from_where_it_is_used(alpha, beta):
    from fractions import Fraction

    from mpmath import mpf

    mean = alpha / (alpha + beta)
    deviation = math.sqrt(mean * (1 - mean) / (alpha + beta))
    for distance in (-3.0, -0.5, 0.01, 2.0):
        x = mean + distance * deviation
        for upper in (False, True):
            ours = formulas._uniform_tail(Fraction(alpha), Fraction(beta), x, upper=upper)
            with beta_reference.mp.workdps(beta_reference.DIGITS):
                truth = float(beta_reference.tail_and_density(alpha, beta, mpf(x), upper=upper)[0])
            # (Near the mean, 1/w and 1/u cancel: 2**-52 / |w| of the tail, harmless to a
            # quantile, where the tail's slope is the density.)
            assert math.isclose(ours, truth, rel_tol=1e-14, abs_tol=2**-52 / abs(distance)), (
                distance, upper, ours, truth)


#: Values of a string option that are not one of its strings: arrays of every size and shape
#: (numpy's "truth value is ambiguous", or a one-element array taken for its string, before),
#: a bool, None, NaN, bytes and a wrong string.
NOT_A_CHOICE = [np.array(["wilson", "delta"]), np.array(["wilson"]), np.array("wilson"), True,
                None, math.nan, b"wilson", "bayes"]


@pytest.mark.parametrize("method", NOT_A_CHOICE)
def test_proportion_bounds_refuses_a_method_that_is_not_one_by_name(method):
    """Called directly (the accumulators check ``method`` before), the formula names the
    argument, the call and what it may be."""
    with pytest.raises(ValueError, match=r"^proportion_bounds: method must be one of 'wilson', "
                                         r"'agresti_coull', 'clopper_pearson', 'jeffreys', "
                                         r"'delta', 'posterior', not "):
        formulas.proportion_bounds(8, 10, 0.95, method)


def test_proportion_bounds_takes_a_numpy_string_as_the_method_it_holds():
    for method in formulas.PROPORTION_METHODS:  # (the posterior's draws are seeded: alike)
        assert (formulas.proportion_bounds(8, 10, 0.95, np.str_(method))
                == formulas.proportion_bounds(8, 10, 0.95, method))
