"""The adjusted Rand index against chance: its variance under the permutation model, z-score, p-value.

Three independent references: every permutation of small labelings (exact,
with fractions), the factorial moments of the margins written out in full for
large tables (a different route to the same moments), and a seeded
10,000-permutation Monte Carlo test.
"""

from __future__ import annotations

import itertools
import math
import statistics
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import PartitionComparison
from contingency._running_sums import RunningSums
from contingency.formulas import partition as f
from tests.strategies_partition import labelings


def table_of(reference, model):
    rows = {label: i for i, label in enumerate(dict.fromkeys(reference))}
    columns = {label: j for j, label in enumerate(dict.fromkeys(model))}
    table = np.zeros((max(len(rows), 1), max(len(columns), 1)), dtype=np.int64)
    for r, m in zip(reference, model):
        table[rows[r], columns[m]] += 1
    return table


def exact_ari(same_same, same_reference, same_model, n_pairs):
    """The adjusted Rand index as a fraction (1 where it is defined as 1)."""
    if same_same == same_reference == same_model:
        return Fraction(1)
    product = same_reference * same_model
    return Fraction(2 * (same_same * n_pairs - product),
                    n_pairs * (same_reference + same_model) - 2 * product)


def every_permutation(reference, model):
    """S and the ARI of every pairing of the model's labels with the reference's, exactly."""
    table = table_of(reference, model)
    sums = f.table_sums(table)
    n = len(reference)
    found = []
    for order in itertools.permutations(range(n)):
        permuted = f.table_sums(table_of(reference, [model[i] for i in order]))
        found.append((permuted.same_same, exact_ari(permuted.same_same, sums.same_reference,
                                                    sums.same_model, n * (n - 1) // 2)))
    return sums, table, found


def moments(values):
    mean = sum(values, Fraction(0)) / len(values)
    return mean, sum((v - mean) ** 2 for v in values) / len(values)


@pytest.mark.parametrize("seed", range(40))
def test_the_variance_is_that_of_every_permutation_exactly(seed):
    """Every pairing of up to 7 elements: the formula's variance of S and of the ARI equal the
    permutation distribution's, as fractions, and the z-score is the observed S's."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 8))
    width = int(rng.integers(1, 5))
    reference = rng.integers(0, width, n).tolist()
    model = rng.integers(0, width, n).tolist()
    sums, table, found = every_permutation(reference, model)
    triples = f.margin_triples(table)
    mean_s, variance_s = moments([s for s, _ in found])
    mean_ari, variance_ari = moments([ari for _, ari in found])
    w, d, _ = f._significance._variance_parts(sums, *triples)
    assert Fraction(w, d) == variance_s
    assert f.adjusted_rand_index_variance(sums, *triples) == pytest.approx(float(variance_ari),
                                                                           rel=1e-14, abs=0)
    result = f.ari_significance(sums, *triples)
    if variance_s == 0:
        assert result == (0.0, 1.0)
        assert len({same for same, _ in found}) == 1
        return
    assert mean_ari == 0
    expected = float(sums.same_same - mean_s) / math.sqrt(float(variance_s))
    assert result.zscore == pytest.approx(expected, rel=1e-14, abs=1e-15)
    assert result.pvalue == pytest.approx(1 - statistics.NormalDist().cdf(result.zscore),
                                          rel=1e-12, abs=1e-15)


def factorial(n, k):
    value = 1
    for i in range(k):
        value *= n - i
    return value


def moments_from_margins(rows, columns):
    """E[T] and Var(T) of T = sum (n_ij)_2 from the factorial moments of the margins, in full:
    E[(n_ij)_2 (n_kl)_2] summed over same/different rows and columns (the route the module's
    closed form simplifies)."""
    n = sum(rows)
    terms = []
    for sizes in (rows, columns):
        two = sum(factorial(a, 2) for a in sizes)
        three = sum(factorial(a, 3) for a in sizes)
        four = sum(factorial(a, 4) for a in sizes)
        squares = sum(factorial(a, 2) ** 2 for a in sizes)
        apart = two * two - squares  # ordered pairs of distinct clusters
        terms.append((two, three, four, apart))
    (a2, a3, a4, a22), (b2, b3, b4, b22) = terms

    def ratio(numerator, k):
        falling = factorial(n, k)
        return Fraction(numerator, falling) if falling else Fraction(0)

    second = ratio((a4 + a22) * (b4 + b22), 4) + 4 * ratio(a3 * b3, 3) + 2 * ratio(a2 * b2, 2)
    first = ratio(a2 * b2, 2)
    return first, second - first * first


@pytest.mark.parametrize("table", [
    [[5, 1, 0], [1, 4, 1], [2, 0, 3]],
    [[10**6, 3, 7], [2, 10**6 + 1, 0], [40, 50, 999_983]],
    [[2**40, 1], [1, 2**40]],
    [[1] * 30],                     # one reference cluster: no variance
    np.eye(12, dtype=np.int64).tolist(),
])
def test_the_variance_agrees_with_the_factorial_moments_of_large_tables(table):
    """Tables far beyond enumeration, up to 2**41 elements: still exact (both sides are
    fractions of exact integers)."""
    counts = np.array(table, dtype=object)
    sums = f.table_sums(np.array(table, dtype=np.int64))
    w, d, _ = f._significance._variance_parts(sums, *f.margin_triples(np.array(table)))
    mean, variance = moments_from_margins(counts.sum(axis=1).tolist(), counts.sum(axis=0).tolist())
    assert mean == Fraction(2 * sums.same_reference * sums.same_model,
                            sums.n_elements * (sums.n_elements - 1) // 2)
    assert Fraction(4 * w, d) == variance  # T = 2 S


def permuted_same_same(reference, model, rounds, seed):
    """S = sum C(n_ij, 2) for ``rounds`` random pairings of the model labels, with numpy."""
    rng = np.random.default_rng(seed)
    codes_r = np.unique(reference, return_inverse=True)[1]
    codes_m, width = np.unique(model, return_inverse=True)[1], len(set(model))
    cells = len(set(reference)) * width
    permuted = rng.permuted(np.tile(codes_m, (rounds, 1)), axis=1)
    keys = (np.arange(rounds)[:, None] * cells + codes_r[None, :] * width + permuted).ravel()
    counts = np.bincount(keys, minlength=rounds * cells).reshape(rounds, cells)
    return (counts * (counts - 1) // 2).sum(axis=1)


@pytest.mark.parametrize(("seed", "n", "width", "follow"), [(7, 150, 4, 0.3), (8, 120, 9, 0.3),
                                                            (9, 90, 2, 0.6)])
def test_a_permutation_test_agrees_with_the_formula_within_monte_carlo_error(seed, n, width,
                                                                              follow):
    """10,000 seeded pairings: the ARI's permutation mean is 0 and its permutation variance
    (a sharp test: a wrong term would move it by far more) is the formula's, each within four
    Monte Carlo standard errors; so is the z-score computed from them."""
    rng = np.random.default_rng(seed)
    reference = rng.integers(0, width, n)
    # A model that follows the reference for some of the elements: a z-score of several units.
    model = np.where(rng.random(n) < follow, reference, rng.integers(0, width, n))
    comparison = PartitionComparison.from_labels(reference, model)
    sums = comparison.table_sums()
    rounds = 10_000
    same = permuted_same_same(reference, model, rounds, seed)
    p = n * (n - 1) // 2
    product = sums.same_reference * sums.same_model
    spread = (sums.same_reference + sums.same_model) * p - 2 * product
    ari = 2 * (same * p - product) / spread  # exact integers, one rounding each
    mean, variance = ari.mean(), ari.var()
    error_of_variance = math.sqrt(((ari - mean) ** 4).mean() - variance**2) / math.sqrt(rounds)
    formula = f.adjusted_rand_index_variance(sums, *comparison._sums.margin_triples())
    assert abs(mean) < 4 * math.sqrt(variance / rounds)
    assert abs(variance - formula) < 4 * error_of_variance
    assert error_of_variance < 0.05 * formula  # the test can tell a wrong variance apart
    zscore = comparison.ari_significance().zscore
    assert zscore > 3
    permutation_z = (comparison.adjusted_rand_index - mean) / math.sqrt(variance)
    # z = ARI / sd: its relative error is about half the variance's.
    assert abs(permutation_z - zscore) < 4 * zscore * (error_of_variance / variance / 2
                                                       + math.sqrt(1 / rounds))


@pytest.mark.parametrize(("reference", "model"), [
    ([], []), (["a"], [1]), (["a", "b"], [1, 1]), (["a", "b"], [1, 2]),
    ([0, 0, 1, 1, 2], [5] * 5),                 # one model cluster
    ([0, 0, 1, 1, 2], [0, 1, 2, 3, 4]),         # model singletons
    ([7] * 9, [0, 1, 2, 0, 1, 2, 0, 1, 2]),     # one reference cluster
])
def test_an_index_that_cannot_vary_reads_zero_and_one(reference, model):
    """No NaN: the observed table is the only one the model gives, so z = 0 and p = 1."""
    comparison = PartitionComparison.from_labels(reference, model)
    assert comparison.ari_significance() == (0.0, 1.0)
    sums = comparison.table_sums()
    assert f.adjusted_rand_index_variance(sums, *comparison._sums.margin_triples()) == 0.0


def test_agreement_below_chance_has_a_negative_z_and_a_large_p():
    """Each model cluster takes one element of each class: fewer joined pairs than chance."""
    reference = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    model = [0, 1, 2, 0, 1, 2, 0, 1, 2]
    result = PartitionComparison.from_labels(reference, model).ari_significance()
    assert result.zscore < 0 < result.zscore + 2
    assert result.pvalue > 0.5


def test_three_elements_where_only_one_pairing_in_three_agrees():
    """N = 3 has no two disjoint pairs: S is 1 with chance 1/3 when each side joins one pair.
    Var(S) = 2/9; the observed S = 1 is (1 - 1/3) / sqrt(2/9) = sqrt(2) deviations above."""
    result = PartitionComparison.from_labels([0, 0, 1], [5, 5, 6]).ari_significance()
    assert result.zscore == pytest.approx(math.sqrt(2), rel=1e-15)


@given(labelings(min_size=0, max_size=30), st.lists(st.tuples(st.booleans(),
                                                              st.integers(0, 29)), max_size=15))
def test_a_stream_with_removals_reads_what_its_table_gives(labels, removals):
    """The running triple sums stay equal to the table's after adds, removals and a merge, so
    the O(1) read equals the formula on the table recomputed."""
    reference, model = labels
    comparison = PartitionComparison()
    kept = []
    for r, m in zip(reference, model):
        comparison.add(r, m)
        kept.append((r, m))
    for take_back, position in removals:
        if take_back and kept:
            r, m = kept.pop(position % len(kept))
            comparison.remove(r, m)
    half = len(kept) // 2
    merged = PartitionComparison.from_labels([r for r, _ in kept[:half]],
                                             [m for _, m in kept[:half]])
    merged += PartitionComparison.from_labels([r for r, _ in kept[half:]],
                                              [m for _, m in kept[half:]])
    _, _, table = comparison.contingency_table()
    assert comparison._sums == RunningSums.from_counts(table.ravel(), table.sum(axis=1),
                                                       table.sum(axis=0))
    expected = f.ari_significance(f.table_sums(table) if table.size else comparison.table_sums(),
                                  *(f.margin_triples(table) if table.size else (0, 0)))
    assert comparison.ari_significance() == expected == merged.ari_significance()


def test_the_significance_is_symmetric_in_the_two_partitions():
    rng = np.random.default_rng(3)
    reference = rng.integers(0, 5, 80)
    model = np.where(rng.random(80) < 0.5, reference, rng.integers(0, 7, 80))
    forward = PartitionComparison.from_labels(reference, model).ari_significance()
    backward = PartitionComparison.from_labels(model, reference).ari_significance()
    assert forward == backward
