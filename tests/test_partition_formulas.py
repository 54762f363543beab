"""contingency.formulas.partition: exact sums, conventions, and expected MI against exact oracles."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics.cluster import contingency_matrix
from sklearn.metrics.cluster import expected_mutual_information as sklearn_expected

from contingency import PartitionComparison
from contingency.formulas import classification
from contingency.formulas import partition as f
from contingency.formulas.partition import _cells, _precise
from contingency.formulas.partition._adjusted import EXPECTED_ERROR
from tests import decimal_reference

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


@pytest.mark.parametrize("counts", [[2**62, 2**62], [2**63 - 1, 2**63 - 1, 5],
                                    np.array([2**62, 2**62, 2**62], dtype=np.int64)])
def test_same_cluster_pairs_of_counts_whose_total_passes_int64(counts):
    """Counts each within int64 whose total is not: the int64 sum wrapped to a negative
    number, which sent them down the int64 path and gave a negative pair count."""
    assert f.same_cluster_pairs(counts) == sum(f.pairs(int(n)) for n in counts)


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


def test_adjusted_rand_index_takes_numpy_integers_exactly():
    """Counts as int64 are made Python ints first: their products would overflow int64."""
    counts = (3 * 10**9, 10**9, 2 * 10**9, 4 * 10**18)
    assert f.adjusted_rand_index(*np.array(counts, dtype=np.int64)) == f.adjusted_rand_index(
        *counts)
    mixed = (np.int64(counts[0]), *counts[1:])
    assert f.adjusted_rand_index(*mixed) == f.adjusted_rand_index(*counts)


@given(tables)
def test_adjusted_rand_index_from_sums_is_the_pair_form_bit_for_bit(table):
    """The sums form (what the accumulator reads) and Hubert and Arabie's pair form round the
    same exact fraction: equal floats, and equal to that fraction rounded once."""
    sums = f.table_sums(table)
    a, c, b, d = f.pair_confusion(sums)
    value = f.adjusted_rand_index_from_sums(sums)
    assert value == f.adjusted_rand_index(a, c, b, d)
    if b or c:
        assert value == float(Fraction(2 * (a * d - b * c),
                                       (a + c) * (c + d) + (a + b) * (b + d)))
    else:
        assert value == 1.0


def test_adjusted_rand_index_from_sums_takes_numpy_integers_exactly():
    sums = f.table_sums([[3 * 10**9, 10**9], [2 * 10**9, 4 * 10**9]])
    wide = f.TableSums(*(np.int64(x) if x < 2**63 else x for x in sums))
    assert f.adjusted_rand_index_from_sums(wide) == f.adjusted_rand_index_from_sums(sums)


@given(tables)
def test_pair_confusion_is_a_pair_confusion_with_named_fields(table):
    sums = f.table_sums(table)
    pairs = f.pair_confusion(sums)
    assert type(pairs) is f.PairConfusion
    assert pairs == f.PairConfusion(
        same_same=sums.same_same, same_reference_only=sums.same_reference - sums.same_same,
        same_model_only=sums.same_model - sums.same_same,
        different_different=(f.pairs(sums.n_elements) - sums.same_reference - sums.same_model
                             + sums.same_same))


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


@given(tables, st.sampled_from([1, 1.0, 0.5, 2, 3.0]))
def test_v_measure_is_the_weighted_harmonic_mean_of_homogeneity_and_completeness(table, beta):
    """v_measure reads (1 + beta) MI / (H(R) + beta H(M)), the same mean with one division."""
    sums = f.table_sums(table)
    h, c = f.homogeneity(sums), f.completeness(sums)
    expected = 0.0 if h + c == 0 else (1 + beta) * h * c / (beta * h + c)
    assert math.isclose(f.v_measure(sums, beta), expected, rel_tol=1e-13, abs_tol=1e-15)


def test_v_measure_of_identical_partitions_is_exactly_one():
    for table in ([[3, 0], [0, 5]], [[2**40, 0, 0], [0, 7, 0], [0, 0, 1]]):
        assert f.v_measure(f.table_sums(table)) == 1.0
        assert f.v_measure(f.table_sums(table), 2.0) == 1.0


# --- expected mutual information --------------------------------------------------------------


def exact_expected(reference, model):
    """E[MI] with exact hypergeometric probabilities, every term and the sum in 40-digit decimals.

    (Terms rounded to float one by one would cost up to about 1e-14 relative to the
    cancellation between terms of both signs.)
    """
    n = sum(reference)
    with localcontext() as context:
        context.prec = 40
        total = Decimal(0)
        for a in reference:
            for b in model:
                for k in range(max(1, a + b - n), min(a, b) + 1):
                    probability = (Decimal(math.comb(a, k) * math.comb(n - a, b - k))
                                   / Decimal(math.comb(n, b)))
                    total += probability * k / n * (Decimal(n * k) / (a * b)).ln()
        return float(total)


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


# --- accuracy of the information scores at any count ------------------------------------------

SCORES = {
    "mutual_information": lambda s, c: f.mutual_information(s, cells=c),
    "entropy_reference": lambda s, c: f.entropy_reference(s, cells=c),
    "entropy_model": lambda s, c: f.entropy_model(s, cells=c),
    "variation_of_information": lambda s, c: f.variation_of_information(s, cells=c),
    "nmi_arithmetic": lambda s, c: f.normalized_mutual_information(s, "arithmetic", cells=c),
    "nmi_geometric": lambda s, c: f.normalized_mutual_information(s, "geometric", cells=c),
    "nmi_min": lambda s, c: f.normalized_mutual_information(s, "min", cells=c),
    "nmi_max": lambda s, c: f.normalized_mutual_information(s, "max", cells=c),
    "homogeneity": lambda s, c: f.homogeneity(s, cells=c),
    "completeness": lambda s, c: f.completeness(s, cells=c),
    "v_measure": lambda s, c: f.v_measure(s, cells=c),
    "v_measure_2": lambda s, c: f.v_measure(s, 2.0, cells=c),
    "nmf_entropy": lambda s, c: f.nmf_entropy(s, cells=c),
}


def information_errors(table, cells=True):
    """``{score: error}`` against the 80-digit reference (see decimal_reference.relative_error)."""
    exact = decimal_reference.information(table)
    sums = f.table_sums(table)
    given = f.table_cells(table) if cells else None
    errors = {name: decimal_reference.relative_error(score(sums, given), exact[name])
              for name, score in SCORES.items()}
    rows = [sum(row) for row in table]
    errors["entropy(counts)"] = decimal_reference.relative_error(f.entropy(rows),
                                                                 exact["entropy_reference"])
    # The O(cells) route on every table, whether or not the reads above needed it.
    table_cells = f.table_cells(table)
    n = sums.n_elements
    for name, value in zip(("mutual_information", "entropy_reference", "entropy_model"),
                           _cells.exact_information(table_cells)):
        errors[f"O(cells) {name}"] = decimal_reference.relative_error(value, exact[name])
    if n:
        counts, row_sizes, column_sizes, _, _ = _cells.exact_arrays(table_cells)
        for name, sizes in (("conditional_reference", column_sizes),
                            ("conditional_model", row_sizes)):
            errors[f"O(cells) {name}"] = decimal_reference.relative_error(
                _cells.conditional_nats(counts, sizes, n), exact[name])
    # AMI against its computation in integers (itself checked against the sum of every term,
    # see the AMI tests below): where the float quotient was taken, its bounds were right.
    # Tables of 16 pairs of clusters at most (each wide law costs a grid); the conventions of
    # a single cluster are the accumulator's tests'.
    rows_and_columns = sums.n_reference_clusters, sums.n_model_clusters
    if cells and min(rows_and_columns) > 1 and rows_and_columns[0] * rows_and_columns[1] <= 16:
        reference_sizes, model_sizes = table_cells.reference_sizes, table_cells.model_sizes
        expected = f.expected_mutual_information(reference_sizes, model_sizes)
        found: dict[int, _precise.PreciseSums] = {}  # as an accumulator keeps them per state

        def precise(bits):
            if bits not in found:
                found[bits] = _precise.precise_sums(table_cells, bits)
            return found[bits]

        for method in ("arithmetic", "geometric", "min", "max"):
            value = f.adjusted_mutual_information(sums, expected, method, cells=given,
                                                  precise=precise)
            exact_value = _precise.precise_adjusted(precise(_precise.FIRST_BITS), method)
            if exact_value is None:  # 96 bits cannot tell: 256
                exact_value = _precise.precise_adjusted(precise(_precise.FRACTION_BITS), method)
            errors[f"ami_{method}"] = relative(value, exact_value)
    return errors


def relative(value, exact):
    """The relative error, with no absolute allowance near 0 (AMI's accuracy is relative)."""
    return 0.0 if value == exact else abs(value - exact) / abs(exact)


def skewed_tables():
    """Tables where the sums of n ln n cancel badly, up to cells of 2**62 (N < 2**63)."""
    rng = np.random.default_rng(20261123)
    tables = {}
    for huge in (10**9, 10**12, 10**15, 2**53 + 1, 2**60, 2**62 - 10**6):
        tables[f"one cell {huge}, 2x2"] = [[huge, 1], [1, 1]]
        tables[f"add_many regression shape {huge}"] = [[2, 2], [huge, 0]]
        tables[f"one cell {huge}, 2x3"] = [[huge, 3, 1], [2, 0, 5]]
        tables[f"identical {huge}"] = [[huge, 0], [0, 2]]
        tables[f"pure columns {huge}"] = [[huge, 0, 3], [0, 2, 0]]
        tables[f"single row {huge}"] = [[huge, 7, 5]]
        tables[f"single column {huge}"] = [[huge], [7], [5]]
        for k in (3, 8):
            diagonal = rng.integers(0, 4, (k, k)) + np.diag(
                [huge // k - int(v) for v in rng.integers(0, 1000, k)])
            tables[f"diagonal {k}x{k} {huge}"] = diagonal.tolist()
        p, q = [0.5, 0.3, 0.2], [0.45, 0.35, 0.15, 0.05]
        independent = [[round(a * b * huge) + int(rng.integers(0, 4)) for b in q] for a in p]
        tables[f"near-independent 3x4 N~{huge}"] = independent
        exactly = [[int(a * b * 400) * (huge // 400) for b in q] for a in p]
        tables[f"independent 3x4 N~{huge}"] = exactly
    # a cell of 1 where independence expects 2**60: x = cN/(ab) - 1 rounds to -1 in floats
    tables["tiny cell beside huge margins"] = [[1, 2**61], [2**61, 5]]
    tables["found by a stress run"] = [
        [10383, 12065743, 131881, 234749566],
        [224440214474, 494348530, 13026821839680270, 502193660150],
        [78040087, 1, 207146998425203296, 206152331679654304],
        [0, 548414, 236377773125, 1607677438918], [0, 9834850472015520, 3, 5]]
    for k in (2, 3, 5, 10, 20, 30):
        exponents = rng.uniform(0, 55, (k, k))
        table = np.floor(2.0**exponents).astype(np.int64) * (rng.random((k, k)) < 0.7)
        tables[f"log-uniform {k}x{k}"] = table.tolist()
        table[0, 0] = 2**62 - int(table.sum())
        tables[f"log-uniform {k}x{k} with one cell near 2**62"] = table.tolist()
        small = rng.integers(0, 5, (k, k))
        small[k // 2, k // 3] = 2**62
        tables[f"small {k}x{k} with one cell of 2**62"] = small.tolist()
    return tables


def worst_error(tables, cells=True):
    worst = (0.0, "", "")
    for name, table in tables.items():
        for score, error in information_errors(table, cells).items():
            if error >= worst[0]:
                worst = (error, name, score)
    return worst


def test_information_scores_are_accurate_on_a_grid_of_skewed_tables():
    error, table, score = worst_error(skewed_tables())
    assert error <= 1e-12, f"worst relative error {error:.3g}: {score} of {table}"
    print(f"worst relative error over the grid: {error:.3g} ({score} of {table})")


def test_the_issue_cases_and_the_add_many_regression():
    # add_many([0, 0, 1], [0, 1, 0], [2, 2, 2**60]): homogeneity 0.49, not 1.0
    table = [[2, 2], [2**60, 0]]
    sums, cells = f.table_sums(table), f.table_cells(table)
    assert abs(f.homogeneity(sums, cells=cells) - 0.4915885375039596) < 1e-15
    # One cell of 10**9, 10**12, 10**15: MI was off by 4e-8, 3e-5 and 5.5e-2 relative.
    for huge in (10**9, 10**12, 10**15):
        for table in ([[huge, 1], [2, 3]], [[huge, 1], [1, 1]]):
            exact = decimal_reference.information(table)["mutual_information"]
            sums, cells = f.table_sums(table), f.table_cells(table)
            assert abs(f.mutual_information(sums, cells=cells) - exact) <= 1e-12 * exact, table
            errors = information_errors(table)
            assert max(errors.values()) <= 1e-12, (table, errors)


def bounded_tables():
    """Tables of up to 5x5 counts below 2**62 (some tiny, some huge) whose total is below 2**63."""
    count = st.one_of(st.integers(0, 5), st.integers(0, 2**62), st.integers(0, 10**6))

    def shrink(rows):
        while sum(map(sum, rows)) >= 2**63:
            rows = [[v >> 1 for v in row] for row in rows]
        return rows

    return st.integers(1, 5).flatmap(
        lambda width: st.lists(st.lists(count, min_size=width, max_size=width), min_size=1,
                               max_size=5)).map(shrink)


@given(bounded_tables())
@settings(max_examples=150)
def test_information_scores_are_accurate_at_any_count(table):
    errors = information_errors(table)
    assert max(errors.values()) <= 1e-12, errors


def counting_cells(table):
    calls = []

    def cells():
        calls.append(1)
        return tuple(f.table_cells(table))

    return cells, calls


def read_everything(table, cells):
    sums = f.table_sums(table)
    for score in SCORES.values():
        score(sums, cells)
    f.adjusted_mutual_information(sums, 0.01, cells=cells)


def test_ordinary_tables_are_read_in_constant_time():
    rng = np.random.default_rng(7)
    tables = [[[5, 1, 0], [1, 4, 1], [2, 0, 3]], [[3, 0], [0, 2]], [[10**6, 0], [0, 10**6]]]
    for n, k in [(17, 3), (1000, 10), (10**4, 30), (10**6, 100)]:
        reference = rng.integers(0, k, n)
        model = np.where(rng.random(n) < 0.5, reference, rng.integers(0, k, n))
        tables.append(contingency_matrix(reference, model).tolist())
    tables += rng.integers(0, 7, (20, 5, 5)).tolist()
    for table in tables:
        cells, calls = counting_cells(table)
        read_everything(table, cells)
        assert not calls, table


def test_skewed_tables_fall_back_to_the_cells():
    mutual_scores = {"mutual_information", "nmi_arithmetic", "nmi_geometric", "nmi_min",
                     "nmi_max", "homogeneity", "completeness", "v_measure", "v_measure_2"}
    for table, falling in [([[2, 2], [2**60, 0]], set(SCORES)),  # every value is tiny here
                           ([[10**12, 1], [1, 1]], set(SCORES)),
                           ([[2**62, 3, 1], [2, 0, 5]], set(SCORES)),
                           # near independence: MI ~ 1e-13, the conditional entropies ~ ln 2
                           ([[10**6, 10**6 + 1], [10**6 + 2, 10**6]], mutual_scores)]:
        sums = f.table_sums(table)
        for name, score in SCORES.items():
            cells, calls = counting_cells(table)
            score(sums, cells)
            assert calls == ([1] if name in falling else []), (table, name)


def test_without_cells_a_skewed_read_returns_the_constant_time_value():
    table = [[2, 2], [2**60, 0]]
    sums = f.table_sums(table)
    # the O(1) value: whatever the rounding of the sums gives, within [0, 1]
    assert 0.0 <= f.homogeneity(sums) <= 1.0
    assert f.homogeneity(sums) == f.homogeneity(sums, cells=None)


def test_table_cells():
    cells = f.table_cells([[0, 3], [2, 0], [0, 0]])
    assert cells.counts.tolist() == [3, 2]
    assert cells.row_sizes.tolist() == [3, 2]
    assert cells.column_sizes.tolist() == [3, 2]
    assert cells.reference_sizes.tolist() == [3, 2, 0]
    assert cells.model_sizes.tolist() == [2, 3]
    huge = f.table_cells([[2**62, 2**62 - 1], [5, 0]])  # sums beyond int64 stay exact
    assert huge.reference_sizes.tolist() == [2**63 - 1, 5]
    assert huge.column_sizes.tolist() == [2**62 + 5, 2**62 - 1, 2**62 + 5]
    assert huge.counts.tolist() == [2**62, 2**62 - 1, 5]


def test_fallback_conventions_hold_exactly():
    for huge in (2**40, 2**62):
        identical = [[huge, 0, 0], [0, 3, 0], [0, 0, 1]]
        sums, cells = f.table_sums(identical), f.table_cells(identical)
        for method in ("arithmetic", "geometric", "min", "max"):
            assert f.normalized_mutual_information(sums, method, cells=cells) == 1.0
        assert f.homogeneity(sums, cells=cells) == f.completeness(sums, cells=cells) == 1.0
        assert f.v_measure(sums, cells=cells) == 1.0
        assert f.variation_of_information(sums, cells=cells) == 0.0
        assert f.adjusted_mutual_information(sums, 0.0, cells=cells) == 1.0
        pure = [[huge, 0, 3], [0, 2, 0]]  # every model cluster pure: homogeneity exactly 1
        sums, cells = f.table_sums(pure), f.table_cells(pure)
        assert f.homogeneity(sums, cells=cells) == 1.0
        assert f.nmf_entropy(sums, cells=cells) == 0.0
        assert f.completeness(sums, cells=cells) < 1.0
        one_row = [[huge, 2, 1]]
        sums, cells = f.table_sums(one_row), f.table_cells(one_row)
        assert f.mutual_information(sums, cells=cells) == 0.0
        assert f.homogeneity(sums, cells=cells) == 1.0
        assert f.normalized_mutual_information(sums, cells=cells) == 0.0


@given(st.lists(st.tuples(st.integers(1, 2**63 - 1), st.integers(1, 2**63 - 1),
                          st.integers(1, 2**63 - 1), st.integers(-3, 3)), min_size=1, max_size=20),
       st.integers(1, 2**63 - 1))
def test_differences_of_huge_products_are_formed_exactly(cells, n):
    # c N - a b for the O(cells) MI when N**2 passes int64: digit by digit, rounded once or so
    rows = np.array([a for _, a, _, _ in cells], dtype=np.int64)
    columns = np.array([b for _, _, b, _ in cells], dtype=np.int64)
    # half the cells near c = a b / N, where c N - a b cancels
    counts = [c if i % 2 else min(max(1, a * b // n + shift), 2**63 - 1)
              for i, (c, a, b, shift) in enumerate(cells)]
    difference, independent = _cells._difference_of_products(np.array(counts, dtype=np.int64), n,
                                                              rows, columns)
    assert independent == sum(a * b for _, a, b, _ in cells)
    for value, c, (_, a, b, _) in zip(difference.tolist(), counts, cells):
        exact = c * n - a * b
        assert abs(value - exact) <= 2**-51 * abs(exact), (value, exact)



# --- AMI to 1e-12 relative, near 0 too -------------------------------------------------------

AMI_METHODS = ("arithmetic", "geometric", "min", "max")


def ami_of(table, cells=True, precise=None):
    sums = f.table_sums(table)
    given = f.table_cells(table)
    expected = f.expected_mutual_information(given.reference_sizes, given.model_sizes)
    return {method: f.adjusted_mutual_information(sums, expected, method,
                                                  cells=given if cells else None,
                                                  precise=precise)
            for method in AMI_METHODS}


def test_ami_near_zero_is_accurate_to_1e12_relative():
    """Issue 21, item 8: AMI of [[8, 14], [8, 7]], about -4.7e-6, was 2.3e-10 off."""
    table = [[8, 14], [8, 7]]
    exact = decimal_reference.adjusted_mutual_information(table)
    for method, value in ami_of(table).items():
        assert relative(value, exact[method]) <= 1e-12, method
    assert ami_of(table)["arithmetic"] == -4.697121719964341e-06  # the exact value, rounded once
    # Without the cells, nothing to fall back on: the float quotient, off by its cancellation.
    assert relative(ami_of(table, cells=False)["arithmetic"], exact["arithmetic"]) > 1e-12


@st.composite
def small_tables(draw):
    rows, columns = draw(st.integers(2, 3)), draw(st.integers(2, 3))
    return [draw(st.lists(st.integers(0, 12), min_size=columns, max_size=columns))
            for _ in range(rows)]


@given(small_tables())
@example([[8, 14], [8, 7]])
@example([[2, 7, 8], [5, 4, 8]])       # near 0: the worst of a 30,000-table grid before
@example([[11, 1], [12, 0]])           # MI equals its expectation exactly: AMI is 0
@example([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
@settings(max_examples=60)
def test_ami_agrees_with_the_sum_of_every_term(table):
    """Against hypergeometric probabilities summed exactly at 80 digits, every method, 1e-12
    relative with no allowance near 0; and so does the computation in integers alone."""
    exact = decimal_reference.adjusted_mutual_information(table)
    sums, cells = f.table_sums(table), f.table_cells(table)
    comparison = PartitionComparison.from_labels(*labels_of(table))
    for method, value in ami_of(table).items():
        assert relative(value, exact[method]) <= 1e-12, (method, value, exact[method])
        assert comparison.adjusted_mutual_information(method) == value
        if min(sums.n_reference_clusters, sums.n_model_clusters) > 1:
            for bits in (_precise.FIRST_BITS, _precise.FRACTION_BITS):
                found = _precise.precise_adjusted(_precise.precise_sums(cells, bits), method)
                if found is not None:
                    assert relative(found, exact[method]) <= 2**-52, (bits, method)


def labels_of(table):
    """Label sequences whose contingency table is ``table``."""
    pairs = [(i, j) for i, row in enumerate(table) for j, count in enumerate(row)
             for _ in range(count)]
    return [i for i, _ in pairs], [j for _, j in pairs]


def test_ami_conventions_where_the_numerator_is_exactly_zero():
    # One element in either of two equal clusters: every table has the same MI, so MI equals
    # its expectation and AMI is 0 (scikit-learn's rounding gives about 1e-15).
    assert set(ami_of([[11, 1], [12, 0]]).values()) == {0.0}
    # All singletons on both sides: identical partitions, numerator and denominator 0.
    assert set(ami_of(np.eye(4, dtype=np.int64).tolist()).values()) == {1.0}


def test_the_grid_of_a_wide_law_agrees_with_the_sum_of_every_term(monkeypatch):
    """A standard deviation just above 100 takes the grid; forced term by term, the same."""
    a, b, n = 100_000, 100_000, 400_001
    logs = _precise.Logs(_precise.FRACTION_BITS)
    grid, one = _precise._expected_n_log_n(a, b, n, logs)
    assert one == 1  # the grid was taken
    monkeypatch.setattr(_precise, "_DIRECT_DEVIATION", math.inf)
    weighted, total = _precise._expected_n_log_n(a, b, n, logs)
    assert abs(grid - weighted // total) <= grid >> 250


@pytest.mark.parametrize(("rows", "columns"), [
    ([6, 7, 6, 24, 26], [40, 29]),
    ([22, 11], [16, 16, 1]),
    ([72216, 65377, 21872], [61846, 97619]),
    ([700, 1500, 60, 2], [1000, 1262]),
    ([26911596, 49383654], [43606671, 32688579]),     # wide laws: the float grid
])
def test_expected_mi_is_within_a_sixteenth_of_its_error_bound(rows, columns):
    """EXPECTED_ERROR is 2**-46; float E[MI] stays within a sixteenth of it (7.7e-16 is the
    largest error seen over 300 random margins) of its computation in integers."""
    table = [[0] * len(columns) for _ in rows]  # only the margins matter
    cells = f.TableCells(np.ones(1, np.int64), np.ones(1, np.int64), np.ones(1, np.int64),
                         np.array(rows), np.array(columns))
    sums = _precise.precise_sums(cells, _precise.FRACTION_BITS)
    with localcontext() as context:
        context.prec = 100
        exact = (Decimal(sums.total - sums.reference - sums.model + sums.expected)
                 / (1 << _precise.FRACTION_BITS) / sums.n_elements)
    value = f.expected_mutual_information(rows, columns)
    assert abs(Decimal(value) - exact) <= Decimal(EXPECTED_ERROR / 16) * exact, table
