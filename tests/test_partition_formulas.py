"""contingency.formulas.partition: exact sums, conventions, and expected MI against exact oracles."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics.cluster import contingency_matrix
from sklearn.metrics.cluster import expected_mutual_information as sklearn_expected

from contingency.formulas import classification
from contingency.formulas import partition as f

tables = st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=5), min_size=1,
                  max_size=5).map(lambda rows: [row + [0] * (5 - len(row)) for row in rows])


# --- exact sums -------------------------------------------------------------------------------


def test_n_log_n_fixed_is_the_float_product_exactly():
    rng = np.random.default_rng(5)
    values = list(range(2, 3000)) + rng.integers(3000, 2**62, 2000).tolist() + [2**62, 2**63 - 1]
    for n in values:
        fixed = f.n_log_n_fixed(n)
        assert isinstance(fixed, int)
        assert fixed / 2**52 == n * math.log(n), n  # nothing was rounded away
        assert fixed == (n * math.log(n)) * 2**52
    assert f.n_log_n_fixed(0) == f.n_log_n_fixed(1) == 0


@given(st.lists(st.integers(0, 10**6), max_size=50))
def test_n_log_n_fixed_sum_groups_equal_counts_exactly(counts):
    assert f.n_log_n_fixed_sum(counts) == sum(f.n_log_n_fixed(n) for n in counts)
    assert f.n_log_n_fixed_sum(np.array(counts, dtype=np.uint32)) == f.n_log_n_fixed_sum(counts)


def test_sums_of_huge_counts_stay_exact():
    counts = [2**70, 3, 2**70 + 1]
    assert f.same_cluster_pairs(counts) == sum(f.pairs(n) for n in counts)
    assert f.n_log_n_fixed_sum(counts) == sum(f.n_log_n_fixed(n) for n in counts)
    sums = f.table_sums([[2**40, 0], [5, 2**40]])
    assert sums.same_reference == f.pairs(2**40) + f.pairs(2**40 + 5)


def brute_force_pairs(table):
    elements = [(i, j) for i, row in enumerate(table) for j, count in enumerate(row)
                for _ in range(count)]
    counts = [0, 0, 0, 0]
    for (r1, m1), (r2, m2) in itertools.combinations(elements, 2):
        same_reference, same_model = r1 == r2, m1 == m2
        counts[[same_reference and same_model, same_reference and not same_model,
                same_model and not same_reference, True].index(True)] += 1
    return tuple(counts)


@given(tables)
def test_pair_confusion_counts_pairs(table):
    sums = f.table_sums(table)
    assert tuple(f.pair_confusion(sums)) == brute_force_pairs(table)
    assert sums.n_elements == sum(map(sum, table))
    assert sums.n_reference_clusters == sum(1 for row in table if sum(row))
    assert sums.n_model_clusters == sum(1 for column in zip(*table) if sum(column))


def test_bad_tables():
    for bad, message in [([[1, -1]], "non-negative integer counts, not -1"),
                         ([[1.5]], "not float64 values"),
                         ([1, 2], "2-dimensional"),
                         ([[[1]]], "2-dimensional"),
                         (np.array([[1, None]], dtype=object), "integer counts")]:
        with pytest.raises(ValueError, match=message):
            f.table_sums(bad)
    with pytest.raises(ValueError, match="same total"):
        f.expected_mutual_information([1, 2], [2])


# --- pair counting ----------------------------------------------------------------------------


@given(st.tuples(*[st.integers(0, 10**6)] * 4))
def test_pair_scores_are_the_2x2_functions(counts):
    ss, sro, smo, dd = counts
    assert f.rand_index(*counts) == float(classification.accuracy(ss, smo, sro, dd))
    assert f.precision(*counts) == float(classification.precision(ss, smo, sro, dd))
    assert f.f1(*counts) == float(classification.f1(ss, smo, sro, dd))
    # recall is precision with the partitions swapped
    assert f.recall(*counts) == f.precision(ss, smo, sro, dd)
    if ss + sro:
        assert f.recall(*counts) == float(classification.recall(ss, smo, sro, dd))


def test_pair_conventions():
    identical_singletons = (0, 0, 0, 10)
    for score in (f.rand_index, f.precision, f.recall, f.f1, f.jaccard, f.fowlkes_mallows,
                  f.adjusted_rand_index):
        assert score(*identical_singletons) == 1.0, score
        assert score(0, 0, 0, 0) == 1.0, score
    # the model joins nothing, the reference joins pairs: precision 0, and recall 0 when swapped
    assert f.precision(0, 3, 0, 3) == 0.0
    assert f.recall(0, 0, 3, 3) == 0.0
    assert f.fowlkes_mallows(0, 3, 0, 3) == 0.0
    assert f.jaccard(0, 3, 0, 3) == 0.0


def test_adjusted_rand_index_is_exact_for_huge_counts():
    big = 10**30
    value = f.adjusted_rand_index(big, 1, 2, big)
    exact = Fraction(2 * (big * big - 2 * 1), (big + 1) * (1 + big) + (big + 2) * (2 + big))
    assert value == float(exact)


# --- information ------------------------------------------------------------------------------


def exact_information(table):
    """MI and entropies from the textbook definitions, with math.fsum."""
    array = np.array(table)
    n = array.sum()
    if n == 0:
        return 0.0, 0.0, 0.0
    rows, columns = array.sum(axis=1), array.sum(axis=0)

    def entropy(sizes):
        return -math.fsum(s / n * math.log(s / n) for s in sizes if s)

    mutual = math.fsum(array[i, j] / n * math.log(n * array[i, j] / (rows[i] * columns[j]))
                       for i in range(array.shape[0]) for j in range(array.shape[1])
                       if array[i, j])
    return mutual, entropy(rows), entropy(columns)


@given(tables)
def test_information_matches_the_definitions(table):
    sums = f.table_sums(table)
    mutual, reference, model = exact_information(table)
    assert abs(f.mutual_information(sums) - max(mutual, 0.0)) < 1e-13
    assert abs(f.entropy_reference(sums) - reference) < 1e-13
    assert abs(f.entropy_model(sums) - model) < 1e-13
    assert abs(f.variation_of_information(sums) - (reference + model - 2 * mutual)) < 1e-13
    assert abs(f.mutual_information(sums, base=2) - mutual / math.log(2)) < 1e-13
    assert f.entropy(np.array(table).sum(axis=1)) == f.entropy_reference(sums)


def test_entropy_examples_of_the_article():
    assert round(f.entropy([6, 7, 5]), 3) == 1.089
    assert round(f.entropy([9, 1]), 3) == 0.325
    assert f.entropy([5]) == f.entropy([]) == f.entropy([0, 0]) == 0.0


@given(tables)
def test_normalized_scores_stay_in_range(table):
    sums = f.table_sums(table)
    for method in ("arithmetic", "geometric", "min", "max"):
        assert 0.0 <= f.normalized_mutual_information(sums, method) <= 1.0 + 1e-15
    for score in (f.homogeneity, f.completeness, f.v_measure, f.nmf_entropy):
        assert 0.0 <= score(sums) <= 1.0 + 1e-15
    assert f.variation_of_information(sums) >= 0.0


# --- expected mutual information --------------------------------------------------------------


def exact_expected(reference, model):
    """E[MI] with exact hypergeometric probabilities (Fractions), each term rounded once."""
    n = sum(reference)
    terms = []
    for a in reference:
        for b in model:
            for k in range(max(1, a + b - n), min(a, b) + 1):
                probability = Fraction(math.comb(a, k) * math.comb(n - a, b - k), math.comb(n, b))
                terms.append(float(probability) * (k / n) * math.log(n * k / (a * b)))
    return math.fsum(terms)


sizes = st.lists(st.integers(1, 12), min_size=1, max_size=5)


@given(sizes, st.data())
@settings(max_examples=60)
def test_expected_mutual_information_matches_exact_probabilities(reference, data):
    n = sum(reference)
    cuts = sorted(data.draw(st.lists(st.integers(1, n - 1), unique=True, max_size=4))
                  if n > 1 else [])
    model = [b - a for a, b in zip([0, *cuts], [*cuts, n])]
    ours = f.expected_mutual_information(reference, model)
    exact = exact_expected(reference, model)
    assert abs(ours - exact) <= 1e-14 * max(exact, 1e-300) + 1e-300
    assert ours == f.expected_mutual_information(model, reference)


def test_expected_mutual_information_large_clusters_against_exact():
    # Two large clusters: windows of thousands of terms, far tails cut by the bound.
    for reference, model in [([900, 1100], [1000, 1000]), ([1500, 400, 100], [1200, 800])]:
        exact = exact_expected(reference, model)
        assert abs(f.expected_mutual_information(reference, model) - exact) <= 1e-14 * exact


def test_expected_mutual_information_against_scikit_learn():
    rng = np.random.default_rng(2)
    for n, k in [(500, 7), (5000, 40), (20000, 150)]:
        reference, model = rng.integers(0, k, n), rng.integers(0, k // 2 + 1, n)
        table = contingency_matrix(reference, model)
        ours = f.expected_mutual_information(table.sum(axis=1), table.sum(axis=0))
        assert abs(ours - sklearn_expected(table, n)) <= 1e-9 * ours


def test_expected_mutual_information_degenerate():
    assert f.expected_mutual_information([5], [1, 1, 3]) == 0.0
    assert f.expected_mutual_information([], []) == 0.0
    assert f.expected_mutual_information([0, 3, 0], [3]) == 0.0
    # all singletons on one side: E[MI] = H(other side) exactly in theory
    assert abs(f.expected_mutual_information([1] * 6, [3, 2, 1]) - f.entropy([3, 2, 1])) < 1e-15


# --- set matching -----------------------------------------------------------------------------


@given(tables)
def test_purity_is_majority_share(table):
    array = np.array(table)
    n = array.sum()
    if n == 0:
        assert f.purity(table) == f.inverse_purity(table) == 1.0
        return
    assert f.purity(table) == sum(max(column) for column in zip(*table)) / n
    assert f.inverse_purity(table) == sum(max(row) for row in table) / n


def test_nmf_entropy_of_the_r_formula_and_its_nan_cases():
    table = [[3, 1, 0], [0, 2, 2], [1, 0, 4]]
    n, classes = 13, 3
    sizes = [sum(column) for column in zip(*table)]
    raw = -sum(table[j][q] * math.log2(table[j][q] / sizes[q])
               for j in range(3) for q in range(3) if table[j][q]) / (n * math.log2(classes))
    assert abs(f.nmf_entropy(f.table_sums(table)) - raw) < 1e-15
    assert f.nmf_entropy(f.table_sums([[2, 3]])) == 0.0  # R: NaN (log2 of one class is 0)
    assert f.nmf_entropy(f.table_sums([[0, 0]])) == 0.0  # R: NaN (no samples)
