"""PartitionComparison: agreement with scikit-learn, invariants, bad input, exactness."""

from __future__ import annotations

import json
import math
import pickle
import time
import warnings
from functools import partial

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn import metrics

from contingency import PartitionComparison
from contingency._table import Table
from contingency.formulas import partition as formulas
from contingency.formulas.partition._information import normalizer
from tests.refusals import refused_unchanged
from tests.strategies_partition import integer_labelings, labelings

AVERAGE_METHODS = ["arithmetic", "geometric", "min", "max"]


def streamed(reference, model) -> PartitionComparison:
    comparison = PartitionComparison()
    for r, m in zip(reference, model):
        comparison.add(r, m)
    return comparison


def close(ours: float, theirs: float, tolerance: float = 1e-12) -> bool:
    """Relative agreement, absolute near zero."""
    return abs(ours - theirs) <= tolerance * max(1.0, abs(theirs))


def sklearn_entropy(labels) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in 1.8, still the reference
        return float(metrics.cluster.entropy(labels))


# --- scikit-learn -----------------------------------------------------------------------------


@given(integer_labelings)
@settings(max_examples=150)
@example(([], []))
@example(([0], [0]))
@example(([0, 0, 0], [1, 1, 1]))
@example(([0, 1, 2, 3], [0, 1, 2, 3]))
@example(([0, 0, 0, 0], [0, 1, 2, 3]))
@example(([0, 0, 1, 1], [1, 1, 0, 0]))
def test_agrees_with_scikit_learn(labeling):
    reference, model = labeling
    comparison = PartitionComparison.from_labels(np.array(reference, dtype=np.int64),
                                                 np.array(model, dtype=np.int64))
    if not reference:
        # scikit-learn refuses some empty inputs; our conventions: identical, perfect.
        assert comparison.rand_index == comparison.adjusted_rand_index == 1.0
        assert comparison.normalized_mutual_information() == 1.0
        assert comparison.adjusted_mutual_information() == 1.0
        assert comparison.v_measure() == comparison.fowlkes_mallows == 1.0
        assert comparison.variation_of_information() == comparison.mutual_information() == 0.0
        return
    truth, predicted = np.array(reference), np.array(model)
    ss, sro, smo, dd = comparison.pair_confusion()
    assert metrics.cluster.pair_confusion_matrix(truth, predicted).tolist() == [
        [2 * dd, 2 * smo], [2 * sro, 2 * ss]]
    assert close(comparison.rand_index, metrics.rand_score(truth, predicted))
    assert close(comparison.adjusted_rand_index, metrics.adjusted_rand_score(truth, predicted))
    assert close(comparison.mutual_information(), metrics.mutual_info_score(truth, predicted))
    assert close(comparison.entropy_reference(), sklearn_entropy(truth))
    assert close(comparison.entropy_model(), sklearn_entropy(predicted))
    for method in AVERAGE_METHODS:
        nmi = metrics.normalized_mutual_info_score(truth, predicted, average_method=method)
        assert close(comparison.normalized_mutual_information(method), nmi), method
        ami = metrics.adjusted_mutual_info_score(truth, predicted, average_method=method)
        ours = comparison.adjusted_mutual_information(method)
        expected_mi = comparison._expected[1]
        mean = normalizer(comparison.entropy_reference(), comparison.entropy_model(), method)
        if abs(mean - expected_mi) < 1e-10 < mean:
            # 0/0: E[MI] equals its maximum (every model cluster a singleton, say), and
            # scikit-learn returns a ratio of two rounding errors. Ours is 1 when the MI
            # equals the normalizer exactly, as it then does.
            continue
        assert close(ours, ami, 1e-9), method
    for beta in (0.5, 1.0, 2.0):
        expected = metrics.homogeneity_completeness_v_measure(truth, predicted, beta=beta)
        ours = (comparison.homogeneity, comparison.completeness, comparison.v_measure(beta))
        assert all(close(a, b) for a, b in zip(ours, expected)), (ours, expected)
    fowlkes = metrics.fowlkes_mallows_score(truth, predicted)
    if ss == 0 and sro == 0 and smo == 0:
        # The one deliberate difference: identical (all-singleton) partitions score 1.
        assert comparison.fowlkes_mallows == 1.0
    else:
        assert close(comparison.fowlkes_mallows, fowlkes)


def test_fowlkes_mallows_of_identical_singletons_is_one_unlike_scikit_learn():
    labels = [0, 1, 2, 3]
    assert metrics.fowlkes_mallows_score(labels, labels) == 0.0
    assert PartitionComparison.from_labels(labels, labels).fowlkes_mallows == 1.0


def test_ami_agrees_with_scikit_learn_on_a_larger_table():
    rng = np.random.default_rng(7)
    reference = rng.integers(0, 30, 20_000)
    model = (reference + rng.integers(0, 3, 20_000)) % 40
    comparison = PartitionComparison.from_labels(reference, model)
    for method in AVERAGE_METHODS:
        expected = metrics.adjusted_mutual_info_score(reference, model, average_method=method)
        assert close(comparison.adjusted_mutual_information(method), expected, 1e-9)


def test_article_example_with_scikit_learn_values():
    # Seed 001: A is the standard, B the algorithm's clusters.
    standard = [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    clusters = [1, 2, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 1, 1, 3, 3, 3]
    comparison = PartitionComparison.from_labels(standard, clusters)
    assert comparison.contingency_table()[2].tolist() == [[5, 1, 0], [1, 4, 1], [2, 0, 3]]
    assert close(comparison.mutual_information(base=2), 0.565445018842856, 1e-14)
    assert close(comparison.normalized_mutual_information(), 0.36456177185718985, 1e-15)
    assert comparison.purity == 12 / 17
    # the article's scikit-learn one-liners
    assert PartitionComparison.from_labels([0, 0, 1, 1], [0, 0, 1, 1]).adjusted_mutual_information() == 1.0
    assert PartitionComparison.from_labels([0, 0, 1, 1], [1, 1, 0, 0]).adjusted_mutual_information() == 1.0
    assert PartitionComparison.from_labels([0, 0, 0, 0], [0, 1, 2, 3]).adjusted_mutual_information() == 0.0
    assert PartitionComparison.from_labels([0, 0, 1, 1], [1, 1, 0, 0]).rand_index == 1.0
    assert round(PartitionComparison.from_labels([0, 0, 1, 2], [0, 0, 1, 1]).rand_index, 2) == 0.83
    assert PartitionComparison.from_labels([0, 0, 1, 1], [1, 1, 0, 0]).adjusted_rand_index == 1.0
    assert round(PartitionComparison.from_labels([0, 0, 1, 2], [0, 0, 1, 1]).adjusted_rand_index, 2) == 0.57
    assert PartitionComparison.from_labels([0, 0, 0, 0], [0, 1, 2, 3]).adjusted_rand_index == 0.0


# --- conventions ------------------------------------------------------------------------------

SIMILARITIES = ["accuracy", "rand_index", "precision", "recall", "f1", "jaccard", "fowlkes_mallows",
                "adjusted_rand_index", "homogeneity", "completeness", "purity", "inverse_purity"]


def all_similarities(comparison: PartitionComparison) -> dict[str, float]:
    values = {name: getattr(comparison, name) for name in SIMILARITIES}
    values["v_measure"] = comparison.v_measure()
    for method in AVERAGE_METHODS:
        values[f"nmi_{method}"] = comparison.normalized_mutual_information(method)
        values[f"ami_{method}"] = comparison.adjusted_mutual_information(method)
    return values


@given(labelings(), st.integers(0, 1000))
def test_identical_partitions_are_perfect_on_every_similarity(labeling, offset):
    reference, _ = labeling
    relabelled = [f"{label}-{offset}" for label in reference]
    comparison = PartitionComparison.from_labels(reference, relabelled)
    assert all_similarities(comparison) == dict.fromkeys(all_similarities(comparison), 1.0)
    assert comparison.distance == 0.0
    assert comparison.variation_of_information() == 0.0
    assert comparison.entropy == 0.0
    assert comparison.mutual_information() == comparison.entropy_reference()


def test_empty_partitions_are_identical():
    comparison = PartitionComparison()
    assert set(all_similarities(comparison).values()) == {1.0}
    assert comparison.distance == comparison.variation_of_information() == 0.0
    assert comparison.entropy == comparison.mutual_information() == 0.0
    assert comparison.entropy_reference() == comparison.entropy_model() == 0.0


def test_single_cluster_partitions():
    both = PartitionComparison.from_labels(["x"] * 5, [7] * 5)
    assert both.normalized_mutual_information() == both.adjusted_rand_index == 1.0
    assert both.adjusted_mutual_information() == 1.0
    one = PartitionComparison.from_labels(["x"] * 4, [1, 2, 3, 4])
    assert one.normalized_mutual_information() == one.adjusted_mutual_information() == 0.0
    assert one.mutual_information() == 0.0
    assert one.homogeneity == 1.0
    assert one.completeness == 0.0


def test_nmf_entropy_conventions():
    # R NMF returns NaN for a single class and for no elements; 0.0 here.
    assert PartitionComparison.from_labels(["x"] * 3, [1, 2, 3]).entropy == 0.0
    assert PartitionComparison().entropy == 0.0
    # worst case: every cluster an even mix of the l classes
    assert PartitionComparison.from_labels([1, 2, 3] * 2, [1, 1, 1, 2, 2, 2]).entropy == 1.0


@given(labelings())
def test_nmf_entropy_matches_r_formula(labeling):
    reference, model = labeling
    comparison = PartitionComparison.from_labels(reference, model)
    _, _, table = comparison.contingency_table()
    classes = table.shape[0]
    if classes <= 1:
        assert comparison.entropy == 0.0
        return
    n = table.sum()
    cluster_sizes = table.sum(axis=0)
    total = sum(table[j, q] * math.log2(table[j, q] / cluster_sizes[q])
                for j in range(table.shape[0]) for q in range(table.shape[1]) if table[j, q])
    assert close(comparison.entropy, -total / (n * math.log2(classes)))


@given(labelings())
def test_swapping_the_partitions(labeling):
    reference, model = labeling
    forward = PartitionComparison.from_labels(reference, model)
    backward = PartitionComparison.from_labels(model, reference)
    ss, sro, smo, dd = forward.pair_confusion()
    assert backward.pair_confusion() == (ss, smo, sro, dd)
    assert forward.precision == backward.recall
    assert forward.recall == backward.precision
    assert forward.homogeneity == backward.completeness
    assert forward.purity == backward.inverse_purity
    assert forward.entropy_reference() == backward.entropy_model()
    for name in ["accuracy", "f1", "jaccard", "fowlkes_mallows", "adjusted_rand_index"]:
        assert getattr(forward, name) == getattr(backward, name), name
    assert forward.mutual_information() == backward.mutual_information()
    assert forward.variation_of_information() == backward.variation_of_information()
    for method in AVERAGE_METHODS:
        assert (forward.normalized_mutual_information(method)
                == backward.normalized_mutual_information(method))
        assert close(forward.adjusted_mutual_information(method),
                     backward.adjusted_mutual_information(method), 1e-14)


def test_pair_scores_are_the_classification_functions():
    from contingency.formulas import classification

    comparison = PartitionComparison.from_labels([1, 1, 1, 2, 2, 3], [1, 1, 2, 2, 2, 2])
    a, c, b, d = comparison.pair_confusion()  # (same_same, ref only, model only, neither)
    assert comparison.precision == float(classification.precision(a, b, c, d))
    assert comparison.recall == float(classification.recall(a, b, c, d))
    assert comparison.f1 == float(classification.f1(a, b, c, d))
    assert comparison.accuracy == float(classification.accuracy(a, b, c, d))


# --- invariants -------------------------------------------------------------------------------


def assert_same(left: PartitionComparison, right: PartitionComparison) -> None:
    assert left == right
    assert left.table_sums() == right.table_sums()
    assert left.to_dict() == right.to_dict()


@given(labelings(), st.data())
def test_streaming_batch_merge_and_partitions_agree(labeling, data):
    reference, model = labeling
    stream = streamed(reference, model)
    batch = PartitionComparison.from_labels(reference, model)
    assert_same(stream, batch)
    assert_same(stream, PartitionComparison().add_many(np.array(reference, dtype=object),
                                                       np.array(model, dtype=object)))
    cut = data.draw(st.integers(0, len(reference)))
    left = PartitionComparison.from_labels(reference[:cut], model[:cut])
    right = streamed(reference[cut:], model[cut:])
    assert_same(left + right, stream)
    assert_same(right + left, stream)
    mixed = streamed(reference[:cut], model[:cut])
    mixed += PartitionComparison.from_labels(reference[cut:], model[cut:])
    assert_same(mixed, stream)
    # the same elements as lists of subsets
    elements = range(len(reference))
    first = [[e for e in elements if reference[e] == label] for label in set(reference)]
    second = [[e for e in elements if model[e] == label] for label in set(model)]
    from_partitions = PartitionComparison.from_partitions(first, second, check_validity=True)
    assert from_partitions.table_sums() == stream.table_sums()
    # all scores identical, not merely close
    assert all_similarities(left + right) == all_similarities(stream)


@given(labelings())
def test_every_prefix(labeling):
    reference, model = labeling
    comparison = PartitionComparison()
    for k, (r, m) in enumerate(zip(reference, model), start=1):
        comparison.add(r, m)
        assert comparison.table_sums() == PartitionComparison.from_labels(
            reference[:k], model[:k]).table_sums()


@given(labelings())
def test_running_sums_equal_recomputation_from_the_table(labeling):
    reference, model = labeling
    comparison = streamed(reference, model)
    _, _, table = comparison.contingency_table()
    assert comparison.table_sums() == formulas.table_sums(table)


@given(labelings(), labelings())
def test_remove_undoes_add(first, second):
    reference, model = first
    comparison = PartitionComparison.from_labels(reference, model)
    before = comparison.copy()
    for r, m in zip(*second):
        comparison.add(r, m)
    for r, m in reversed(list(zip(*second))):
        comparison.remove(r, m)
    assert_same(comparison, before)
    comparison.add_many(*second)
    comparison.remove_many(*second)
    assert_same(comparison, before)
    comparison.remove_many(reference, model)
    assert_same(comparison, PartitionComparison())


@given(labelings(max_size=20), st.lists(st.integers(0, 5), max_size=20))
def test_weights_are_multiplicities(labeling, raw_weights):
    reference, model = labeling
    weights = (raw_weights + [1] * len(reference))[:len(reference)]
    weighted = PartitionComparison().add_many(reference, model, weights=weights)
    repeated = PartitionComparison.from_labels(
        [r for r, w in zip(reference, weights) for _ in range(w)],
        [m for m, w in zip(model, weights) for _ in range(w)])
    assert_same(weighted, repeated)
    assert_same(PartitionComparison().add_many(np.array(reference, dtype=object), model,
                                               weights=np.array(weights)), repeated)
    into_stream = streamed(reference[:1], model[:1])
    into_stream.add_many(reference, model, weights)
    assert into_stream.n_elements == repeated.n_elements + min(1, len(reference))


def test_relabelling_changes_no_score():
    reference = [1, 1, 2, 2, 3, 3, 3]
    model = ["a", "b", "b", "b", "c", "c", "a"]
    original = PartitionComparison.from_labels(reference, model)
    relabelled = PartitionComparison.from_labels([10 * r for r in reference],
                                                 [m.upper() for m in model])
    assert all_similarities(original) == all_similarities(relabelled)


def test_numpy_label_kinds_agree_with_lists():
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 5, 200)
    other = rng.integers(-3, 3, 200)
    expected = PartitionComparison.from_labels(codes.tolist(), other.tolist())
    for left in (codes, codes.astype(np.int8), codes.astype(np.uint64), codes.astype(float),
                 codes.astype(str), codes.astype(object)):
        got = PartitionComparison.from_labels(left, other.astype(np.int16))
        assert got.table_sums() == expected.table_sums()
    wide = codes * 10**12  # too sparse for the dense path
    assert PartitionComparison.from_labels(wide, other).table_sums() == expected.table_sums()
    big = codes.astype(np.uint64) + np.uint64(2**63)
    assert PartitionComparison.from_labels(big, other).table_sums() == expected.table_sums()
    booleans = codes > 2
    assert (PartitionComparison.from_labels(booleans, other)
            == PartitionComparison.from_labels(booleans.tolist(), other.tolist()))


_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=6)


@given(st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=40))
@example([("", "a"), ("a", "ab"), ("ab", "a"), ("é", "a"), ("ab", "")])  # prefixes, empty, non-ASCII
def test_string_arrays_are_coded_like_python_strings(pairs):
    """numpy str and bytes arrays go through the hashed coding; lists through a dictionary."""
    reference, model = ([pair[side] for pair in pairs] for side in (0, 1))
    expected = PartitionComparison.from_labels(reference, model)
    found = PartitionComparison.from_labels(np.array(reference), np.array(model))
    assert found == expected
    assert found.contingency_table()[0] == expected.contingency_table()[0]
    encoded = [[label.encode() for label in side] for side in (reference, model)]
    assert (PartitionComparison.from_labels(*(np.array(side, dtype=bytes) for side in encoded))
            == PartitionComparison.from_labels(*encoded))


def test_mixed_label_types_and_table():
    comparison = PartitionComparison.from_labels(["x", 1, "x", 2.5], [("t", 1), ("t", 1), 3, 3])
    rows, columns, table = comparison.contingency_table()
    assert rows == (1, 2.5, "x")
    assert set(columns) == {("t", 1), 3}
    assert table.dtype == np.int64
    assert table.sum() == 4
    with pytest.raises(ValueError, match="cannot be written to JSON"):
        comparison.to_dict()


# --- merge, copy, equality, JSON --------------------------------------------------------------


@given(labelings(), labelings(), st.sampled_from(["arrays", "cells"]), st.booleans())
@example((["a", 1], [1, 1]), (["a"], [1.0]), "arrays", False)  # 1 and 1.0 are one label
@example(([1], [2]), ([1, 3], [2, 2]), "cells", True)
def test_merge_adds_the_tables_either_way(first, second, way, huge):
    """merge adds comparable tables with numpy and a small one cell by cell: one result.

    ``way`` forces one of the two; ``huge`` weights take the total near 2**63 (the
    limit), where the packed sums are widest.
    """
    weight = 2**56 if huge else 1
    def build(labeling, dict_form):
        built = PartitionComparison().add_many(*labeling, weights=[weight] * len(labeling[0]))
        if dict_form and built.n_elements:
            built.add("x", "x")
            built.remove("x", "x")  # now in the dictionary form
        return built
    expected = PartitionComparison().add_many(
        first[0] + second[0], first[1] + second[1],
        weights=[weight] * (len(first[0]) + len(second[0])))
    for dict_form in (False, True):
        left, right = build(first, dict_form), build(second, not dict_form)
        # The table has one storage per implementation (contingency._backend): ``way`` no
        # longer forces anything; tests/test_kernel.py compares the two implementations.
        merged = left.copy().merge(right)
        assert_same(merged, expected)


def test_pickle_round_trip_in_both_forms_of_the_state():
    """Pickling is how state travels to other processes (Dask workers, say)."""
    arrays = PartitionComparison.from_labels(np.array([1, 1, 2]), np.array(["a", "b", "b"]))
    dicts = streamed([1, 1, 2, 3], ["a", "b", "b", "c"])
    for comparison in (arrays, dicts):
        twin = pickle.loads(pickle.dumps(comparison))
        assert twin == comparison
        assert twin.to_dict() == comparison.to_dict()
        twin.add(9, "z")
        assert twin != comparison


def test_merge_copy_reset_and_equality():
    left = PartitionComparison.from_labels([1, 1, 2], ["a", "b", "b"])
    right = streamed([2, 3], ["b", "c"])
    total = left + right
    assert total == PartitionComparison.from_labels([1, 1, 2, 2, 3], ["a", "b", "b", "b", "c"])
    assert left.n_elements == 3
    assert right.n_elements == 2
    copy = total.copy()
    copy.add(9, "z")
    assert copy != total
    assert total.n_elements == 5
    assert total.merge(total) is total
    assert total == PartitionComparison.from_labels([1, 1, 2, 2, 3] * 2,
                                                    ["a", "b", "b", "b", "c"] * 2)
    assert total.same_same == 1 + 1 + 6 + 1  # cells of 2, 2, 4 and 2 elements
    total.reset()
    assert total == PartitionComparison()
    assert total.rand_index == 1.0
    assert (PartitionComparison() == 3) is False
    with pytest.raises(TypeError, match="can only merge a PartitionComparison"):
        left.merge([1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        left + 1  # type: ignore[operator]
    assert repr(left) == "PartitionComparison(n_elements=3, reference_clusters=2, model_clusters=2)"


def test_total_is_exact_beyond_float_precision():
    comparison = PartitionComparison().add_many(["a", "a", "b"], [1, 2, 2],
                                                weights=[2**40, 3, 2**40 + 1])
    big = 2**40
    assert comparison.n_elements == 2**41 + 4
    assert comparison.same_same == formulas.pairs(big) + formulas.pairs(3) + formulas.pairs(big + 1)
    assert comparison.n_pairs == formulas.pairs(2**41 + 4)
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1"):
        comparison.add_many(["a"], [1], weights=[2**63])


@given(labelings())
def test_json_round_trip(labeling):
    comparison = streamed(*labeling)
    state = json.loads(json.dumps(comparison.to_dict()))
    rebuilt = PartitionComparison.from_dict(state)
    assert_same(rebuilt, comparison)
    rebuilt.add("new", "new")  # a rebuilt accumulator keeps streaming
    assert rebuilt.n_elements == comparison.n_elements + 1


VALID = {"format": "contingency.PartitionComparison/2", "reference_labels": ["x", "y"],
         "model_labels": [1], "cells": [[0, 0, 2], [1, 0, 1]]}


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "other/1"}, "format must be"),
    ({"cells": [[0, 0, 2]]}, "reference label 'y' has no elements"),
    ({"cells": [[0, 0, 2], [1, 0, 0]]}, "count 0"),
    ({"cells": [[0, 0, 2], [1, 1, 1]]}, "outside the 2 x 1 table"),
    ({"cells": [[0, 0, 2], [0, 0, 1], [1, 0, 1]]}, "repeats the cell"),
    ({"cells": [[0, 0, -2], [1, 0, 1]]}, "non-negative integer"),
    ({"cells": [[0, 0, 2.0], [1, 0, 1]]}, "non-negative integer"),
    ({"cells": [[0, 0], [1, 0, 1]]}, "must be \\[row, column, count\\]"),
    ({"cells": "no"}, "cells must be a list"),
    ({"reference_labels": ["x", "x"]}, "repeated label"),
    ({"reference_labels": ["x", None]}, "is not a label"),
    ({"model_labels": "1"}, "model_labels must be a list"),
    ({"cells": [[0, 0, 2**62], [1, 0, 2**62]]}, "at most 2\\*\\*63 - 1 are supported"),
])
def test_from_dict_refuses_malformed_states(change, message):
    with pytest.raises(ValueError, match=message):
        PartitionComparison.from_dict({**VALID, **change})


def test_from_dict_refuses_missing_and_unknown_keys():
    assert PartitionComparison.from_dict(VALID).n_elements == 3
    with pytest.raises(ValueError, match="missing keys \\['cells'\\]"):
        PartitionComparison.from_dict({k: v for k, v in VALID.items() if k != "cells"})
    with pytest.raises(ValueError, match="unknown keys \\['scores'\\]"):
        PartitionComparison.from_dict({**VALID, "scores": {}})
    with pytest.raises(TypeError, match="needs a mapping"):
        PartitionComparison.from_dict([])  # type: ignore[arg-type]


# --- bad input --------------------------------------------------------------------------------


def accumulators():
    """One accumulator in each internal form: streamed (dictionaries) and batch (arrays)."""
    return [streamed(["a", "a", "b"], [1, 2, 2]),
            PartitionComparison.from_labels(["a", "a", "b"], [1, 2, 2])]


BAD_CALLS = [
    (lambda c: c.add(None, 1), ValueError, "reference: None is not a valid label"),
    (lambda c: c.add("a", float("nan")), ValueError, "model: NaN is not a valid label"),
    (lambda c: c.add(["a"], 1), TypeError, "reference: label \\['a'\\] is unhashable"),
    (lambda c: c.add("a", {1: 2}), TypeError, "model: label \\{1: 2\\} is unhashable"),
    (lambda c: c.remove("a", 3), ValueError, "remove: no element with reference 'a' and model 3"),
    (lambda c: c.remove("z", 1), ValueError, "remove: no element with reference 'z' and model 1"),
    (lambda c: c.add_many(["a", "b"], [1]), ValueError,
     "reference_labels and model_labels have different lengths \\(2 and 1\\)"),
    (lambda c: c.add_many(["a", None], [1, 2]), ValueError,
     "reference_labels\\[1\\]: None is not a valid label"),
    (lambda c: c.add_many(["a", "b"], [1, [2]]), TypeError,
     "model_labels\\[1\\]: label \\[2\\] is unhashable"),
    (lambda c: c.add_many(np.array([1.0, np.nan]), [1, 2]), ValueError,
     "reference_labels\\[1\\]: NaN is not a valid label"),
    (lambda c: c.add_many(["a", "b"], [1, float("nan")]), ValueError,
     "model_labels\\[1\\]: NaN is not a valid label"),
    (lambda c: c.add_many("ab", [1, 2]), TypeError, "reference_labels must be a sequence"),
    (lambda c: c.add_many(np.zeros((2, 2)), [1, 2]), ValueError, "one-dimensional"),
    (lambda c: c.add_many(["a", "b"], [1, 2], weights=[1, -1]), ValueError,
     "weights\\[1\\] must be a non-negative integer count, not -1"),
    (lambda c: c.add_many(["a", "b"], [1, 2], weights=[1, 0.5]), TypeError,
     "add_many: weights\\[1\\] is 0.5, not an integer: .*fractional elements"),
    (lambda c: c.add_many(["a", "b"], [1, 2], weights=np.array([1, -2])), ValueError,
     "weights\\[1\\] must be a non-negative integer count, not -2"),
    (lambda c: c.add_many(["a", "b"], [1, 2], weights=np.array([1.0, 2.5])), TypeError,
     "add_many: weights\\[1\\] is 2.5, not an integer: .*fractional elements"),
    (lambda c: c.add_many(["a", "b"], [1, 2], weights=[1]), ValueError,
     "weights has 1 items but there are 2 labels"),
    (lambda c: c.remove_many(["a", "a"], [1, 1]), ValueError,
     "cannot remove 2 element\\(s\\) with reference 'a' and model 1: there are 1"),
    (lambda c: c.remove_many(["a", "q"], [1, 1]), ValueError,
     "cannot remove 1 element\\(s\\) with reference 'q' and model 1: there are 0"),
    (lambda c: c.remove_many(["a"], [1], weights=[-1]), ValueError, "weights\\[0\\]"),
    (lambda c: c.add_many(["a"], [1], weights=[2**63]), ValueError, "at most 2\\*\\*63 - 1"),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD_CALLS)
def test_bad_input_raises_and_changes_nothing(call, error, message):
    for comparison in accumulators():
        before = comparison.to_dict()
        sums = comparison.table_sums()
        with pytest.raises(error, match=message):
            call(comparison)
        assert comparison.to_dict() == before
        assert comparison.table_sums() == sums
        comparison.add("a", 1)  # still usable
        assert comparison.n_elements == 4


def test_bad_scoring_arguments():
    comparison = PartitionComparison.from_labels([1, 2], [1, 1])
    with pytest.raises(ValueError, match="average_method must be"):
        comparison.normalized_mutual_information("mean")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="average_method must be"):
        comparison.adjusted_mutual_information("median")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="base must be"):
        comparison.mutual_information(base=1)
    with pytest.raises(ValueError, match="beta must be"):
        comparison.v_measure(beta=-1)


# --- AMI cache, JCI hook ----------------------------------------------------------------------


def test_expected_mutual_information_is_cached_until_the_table_changes():
    comparison = PartitionComparison.from_labels([1, 1, 1, 2, 3], [1, 2, 2, 3, 3])
    first = comparison.adjusted_mutual_information()
    cached = comparison._expected
    assert cached is not None
    assert cached[0] is comparison.table_sums()
    assert comparison.adjusted_mutual_information("max") != first  # other mean, same cache
    assert comparison._expected is cached
    comparison.add(3, 1)
    assert comparison._read_sums is None
    assert comparison._expected[0] is not comparison.table_sums()  # stale: keyed by the sums
    fresh = PartitionComparison.from_labels([1, 1, 1, 2, 3, 3], [1, 2, 2, 3, 3, 1])
    assert comparison.adjusted_mutual_information() == fresh.adjusted_mutual_information()
    assert comparison._expected[1] == fresh._expected[1]
    comparison.remove(3, 1)
    assert comparison._read_sums is None
    assert comparison.adjusted_mutual_information() == first
    merged = comparison + PartitionComparison.from_labels([4], [4])
    assert merged._expected is None or merged._expected[0] is not merged.table_sums()


def test_jaccard_concentration_index_hook_uses_reference_as_truth():
    from contingency.formulas.concentration import jaccard_concentration_index_from_table

    comparison = PartitionComparison.from_labels(["a"] * 4 + ["b"] * 3 + ["c"], [1] * 4 + [2] * 4)
    rows, columns, table = comparison.contingency_table()
    expected = jaccard_concentration_index_from_table(table, rows, columns)
    assert comparison.jaccard_concentration_index() == expected


# --- exactness after long streams ---------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 2**16 - 1, 2**16, 2**16 + 5])
def test_add_on_large_cells_equals_the_weighted_path(size):
    """add's fast path covers counts within its step table; past it, _update takes over."""
    streamed = PartitionComparison().add_many(["x", "y"], [1, 1], weights=[size, 3])
    streamed.add("x", 1)
    streamed.add("y", 1)
    streamed.add("x", 2)
    weighted = PartitionComparison().add_many(["x", "y", "x"], [1, 1, 2],
                                              weights=[size + 1, 4, 1])
    assert streamed == weighted
    assert streamed.table_sums() == weighted.table_sums()


def test_running_sums_stay_exact_over_ten_million_updates():
    """The running sums after 10**7 element updates equal the recomputed ones exactly.

    Exactness holds for any number of updates because each update adds an
    exact integer (module docstring of contingency._running_sums). This test
    exercises both forms of the one write path (``PartitionComparison._update``):
    about 2 * 10**5 single-element adds and removes streamed through
    :meth:`add` / :meth:`remove` (a sliding window), and about 10**7 elements
    moved by batches of weighted cells, which is how :meth:`add_many`,
    :meth:`remove_many` and :meth:`merge` call it. Streaming 10**7 single
    elements would only repeat the unit steps at 1 microsecond each.
    """
    rng = np.random.default_rng(11)
    started = time.perf_counter()
    comparison = PartitionComparison()
    window = 5_000
    reference = rng.integers(0, 40, 105_000).tolist()
    model = rng.integers(0, 40, 105_000).tolist()
    for k, (r, m) in enumerate(zip(reference, model)):
        comparison.add(r, m)
        if k >= window:
            comparison.remove(reference[k - window], model[k - window])
    updates = 2 * len(reference) - window
    moved = 0
    while moved < 10**7:  # weighted adds and removes: a much longer, coarser sliding window
        weights = rng.integers(1, 200, 2_000)
        labels_r, labels_m = rng.integers(0, 40, 2_000), rng.integers(0, 60, 2_000)
        comparison.add_many(labels_r, labels_m, weights=weights)
        comparison.remove_many(labels_r, labels_m, weights=weights // 2)
        moved += int(weights.sum() + (weights // 2).sum())
        updates += 4_000
    _, _, table = comparison.contingency_table()
    recomputed = formulas.table_sums(table)
    assert comparison.table_sums() == recomputed
    fresh = PartitionComparison.from_dict(comparison.to_dict())
    assert all_similarities(comparison) == all_similarities(fresh)
    assert comparison.mutual_information() == fresh.mutual_information()
    assert moved >= 10**7
    assert updates > 10**5
    assert time.perf_counter() - started < 30


# --- the one write path -----------------------------------------------------------------------


def test_add_refuses_the_element_past_the_count_limit():
    """Regression: add used to accept the element that takes N past 2**63 - 1."""
    comparison = PartitionComparison().add_many(["a", "b"], [1, 1], weights=[2**62, 2**62 - 1])
    assert comparison.n_elements == 2**63 - 1
    before, sums = comparison.to_dict(), comparison.table_sums()
    for call in (lambda: comparison.add("a", 1), lambda: comparison.add("new", "new"),
                 lambda: comparison.add_many(["a"], [1]),
                 lambda: comparison.merge(PartitionComparison.from_labels(["a"], [1]))):
        with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
            call()
        assert comparison.to_dict() == before
        assert comparison.table_sums() == sums
    comparison.remove("a", 1)
    comparison.add("a", 1)  # back at the limit: allowed
    assert comparison.n_elements == 2**63 - 1


@given(labelings(), labelings())
def test_add_then_remove_gives_back_the_same_state(first, second):
    """Labels whose counts return to zero are forgotten: to_dict() is equal, not merely close."""
    comparison = PartitionComparison.from_labels(*first)
    before = comparison.to_dict()
    for r, m in zip(*second):
        comparison.add(r, m)
    for r, m in zip(*second):
        comparison.remove(r, m)
    assert comparison.to_dict() == before
    comparison.add_many(*second)
    comparison.remove_many(*second)
    assert comparison.to_dict() == before
    assert comparison.n_reference_clusters == len(set(first[0]))


@given(labelings(), labelings())
def test_storage_switch_gives_equal_states_and_scores(first, second):
    """A batch (array storage), then single adds (dictionaries), then removes: one state."""
    switched = PartitionComparison.from_labels(*first)
    for r, m in zip(*second):
        switched.add(r, m)
    streamed_only = streamed(first[0] + second[0], first[1] + second[1])
    assert_same(switched, streamed_only)
    assert all_similarities(switched) == all_similarities(streamed_only)
    assert switched.purity == streamed_only.purity
    for r, m in zip(*second):
        switched.remove(r, m)
    assert_same(switched, PartitionComparison.from_labels(*first))
    assert all_similarities(switched) == all_similarities(streamed(*first))


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "add_many", "remove_many", "merge"]),
                          labelings(max_size=8)), max_size=12))
def test_running_sums_equal_a_recomputation_after_mixed_changes(operations):
    """Random adds, removes, batches and merges: the sums always equal those of the table."""
    from contingency._running_sums import RunningSums

    comparison = PartitionComparison()
    for operation, (reference, model) in operations:
        if operation == "add":
            for r, m in zip(reference, model):
                comparison.add(r, m)
        elif operation == "add_many":
            comparison.add_many(reference, model, weights=[3] * len(reference))
        elif operation == "merge":
            comparison.merge(PartitionComparison.from_labels(reference, model))
        else:  # take back what is there, in either form
            cells = comparison.contingency_table()
            present = [(r, m) for i, r in enumerate(cells[0]) for j, m in enumerate(cells[1])
                       if cells[2][i, j]][:len(reference)]
            if operation == "remove":
                for r, m in present:
                    comparison.remove(r, m)
            else:
                comparison.remove_many([r for r, _ in present], [m for _, m in present])
        counts, _, _, rows, columns = comparison._table.information_cells()
        assert comparison._sums == RunningSums.from_counts(counts, rows, columns)
        _, _, table = comparison.contingency_table()
        assert comparison.table_sums() == formulas.table_sums(table)
        assert comparison.n_elements == int(table.sum())


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["x", "y", 2.5]),
                          st.sampled_from([1, 1, -1, 2, -3, 2**40])), max_size=40))
def test_the_unit_and_batch_conventions_of_update_leave_identical_states(changes):
    """_update(reference, model, weight) is _update(cells=...) with one cell: same table, sums, N.

    Each change goes to one accumulator by the unit convention (add's and
    remove's) and to another as a one-cell batch; a removal of elements that
    are not there is refused by both, leaving both unchanged.
    """
    from contingency._table import Cells

    unit, batch = PartitionComparison(), PartitionComparison()
    for reference, model, weight in changes:
        cells = Cells([reference], [model], np.zeros(1, np.int64), np.zeros(1, np.int64),
                      np.array([weight], dtype=np.int64))
        refused = []
        try:
            unit._update(reference, model, weight)
        except ValueError:
            refused.append("unit")
        try:
            batch._update(cells=cells, where="remove")
        except ValueError:
            refused.append("batch")
        assert refused in ([], ["unit", "batch"])
        assert unit == batch
        assert unit._sums == batch._sums
        assert unit.n_elements == batch.n_elements
        assert unit.table_sums() == batch.table_sums()


def test_weights_given_as_a_string_are_refused_as_weights():
    with pytest.raises(TypeError, match="add_many: weights must be a sequence of integer counts"):
        PartitionComparison().add_many(["a", "b"], [1, 2], weights="12")


def test_a_read_reuses_the_sums_until_the_next_change():
    comparison = PartitionComparison.from_labels([1, 1, 2], [1, 2, 2])
    assert comparison.table_sums() is comparison.table_sums()
    assert comparison.pair_confusion() is comparison.pair_confusion()
    sums = comparison.table_sums()
    comparison.add(2, 2)
    assert comparison.table_sums() is not sums
    assert comparison.table_sums() == PartitionComparison.from_labels(
        [1, 1, 2, 2], [1, 2, 2, 2]).table_sums()


# Issue 10: information scores of the accumulator at any count ---------------------------------


@pytest.mark.parametrize("huge", [10**9, 10**12, 10**15, 2**60, 2**62])
def test_the_accumulator_reads_information_scores_accurately_at_huge_counts(huge):
    from tests.decimal_reference import information, relative_error

    comparison = PartitionComparison().add_many([0, 0, 1, 1], [0, 1, 0, 1], weights=[huge, 1, 2, 3])
    exact = information([[huge, 1], [2, 3]])
    reads = {
        "mutual_information": comparison.mutual_information(),
        "homogeneity": comparison.homogeneity,
        "completeness": comparison.completeness,
        "v_measure": comparison.v_measure(),
        "variation_of_information": comparison.variation_of_information(),
    }
    for name, value in reads.items():
        if name in exact:
            assert relative_error(value, exact[name]) <= 1e-12, (name, value, exact[name])


def _independent_comparison(n: int, k: int, seed: int):
    rng = np.random.default_rng([seed, n, k])
    reference, model = rng.integers(0, k, n), rng.integers(0, k, n)
    comparison = PartitionComparison.from_labels(reference[10:], model[10:])
    for r, m in zip(reference[:10].tolist(), model[:10].tolist()):  # the streaming form too
        comparison.add(r, m)
    return comparison, metrics.cluster.contingency_matrix(reference, model).tolist()


@pytest.mark.parametrize(("n", "k"), [(20_000, 30), (50_000, 10), (3_000, 4)])
def test_near_independence_reads_match_the_exact_values_and_the_cells_route(n, k):
    # Independent uniform labels: MI about (k - 1)**2 / 2N nats, far below the float n ln n
    # sums it is the difference of, so those cannot settle it: the accumulator switches its
    # fine sums on (to 2**-128 a unit) and reads from them, in O(1), what the cells give
    # (their fine sums, computed from them).
    from contingency._running_sums import FineRunningSums
    from contingency.formulas.partition import _cells
    from tests.decimal_reference import information, relative_error

    comparison, table = _independent_comparison(n, k, 19)
    exact = information(table)
    sums, cells = formulas.table_sums(table), formulas.table_cells(table)
    fine = formulas.fine_sums(table)
    assert comparison.table_sums() == sums
    reads = {
        "mutual_information": (comparison.mutual_information,
                               partial(formulas.mutual_information, sums)),
        "homogeneity": (lambda: comparison.homogeneity, partial(formulas.homogeneity, sums)),
        "completeness": (lambda: comparison.completeness, partial(formulas.completeness, sums)),
        "v_measure": (comparison.v_measure, partial(formulas.v_measure, sums)),
        "v_measure_2": (partial(comparison.v_measure, 2), partial(formulas.v_measure, sums, 2)),
        "variation_of_information": (comparison.variation_of_information,
                                     partial(formulas.variation_of_information, sums)),
    }
    for method in AVERAGE_METHODS:
        reads[f"nmi_{method}"] = (partial(comparison.normalized_mutual_information, method),
                                  partial(formulas.normalized_mutual_information, sums, method))
    values = {}
    for name, (ours, formula) in reads.items():
        value = values[name] = ours()
        assert isinstance(comparison._sums, FineRunningSums), name
        assert value == formula(fine=fine), name  # the fine route, bit for bit
        assert value == formula(cells=cells), name  # which the cells give too
        assert relative_error(value, exact[name]) <= 1e-12, (name, value, exact[name])
    # The cell-by-cell route itself (sums of non-negative terms), whatever the read chose.
    mutual, reference, model = _cells.exact_information(cells)
    for name, value in (("mutual_information", mutual), ("nmi_arithmetic",
                                                          2 * mutual / (reference + model)),
                        ("homogeneity", mutual / reference), ("completeness", mutual / model)):
        assert math.isclose(values[name], value, rel_tol=3e-13), name


@given(st.integers(2, 12), st.integers(2, 12), st.integers(10**3, 10**9), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_the_bound_that_decides_the_cells_fallback_holds_near_independence(rows, columns, n, seed):
    # The O(1) values from the sums alone are within the error information_errors certifies
    # (what the read compares with the value to decide whether the cells are needed).
    from contingency.formulas.partition._information import information, information_errors
    from tests.decimal_reference import information as exact_information

    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(rows)), rng.dirichlet(np.ones(columns))
    table = (np.rint(np.outer(p, q) * n) + rng.integers(0, 3, (rows, columns))).tolist()
    table = [[int(v) for v in row] for row in table]
    sums = formulas.table_sums(table)
    values = information(sums, None)
    mutual, reference, model, scale = values
    errors = information_errors(sums, values)
    exact = exact_information(table)
    for value, error, name in ((mutual, errors[0], "mutual_information"),
                               (reference, errors[1], "entropy_reference"),
                               (model, errors[2], "entropy_model")):
        # The error bound, plus one unit for the clamps of the O(1) route and the roundings
        # of this comparison.
        assert abs(value / scale - exact[name]) <= (error + 1) / scale * (1 + 1e-9), name


def test_homogeneity_of_a_huge_weight_is_not_rounded_to_one():
    comparison = PartitionComparison().add_many([0, 0, 1], [0, 1, 0], weights=[2, 2, 2**60])
    assert comparison.homogeneity == pytest.approx(0.4916, abs=1e-4)


def _counting_information_cells(monkeypatch) -> list[int]:
    from contingency._table import Table

    calls: list[int] = []
    original = Table.information_cells

    def counting(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(Table, "information_cells", counting)
    return calls


def test_reads_the_float_sums_cannot_settle_read_the_cells_once_then_the_fine_sums(monkeypatch):
    comparison = PartitionComparison().add_many([0, 0, 1], [0, 1, 0], weights=[2, 2, 2**60])
    calls = _counting_information_cells(monkeypatch)
    first = (comparison.homogeneity, comparison.completeness, comparison.v_measure(),
             comparison.normalized_mutual_information())
    assert len(calls) == 1  # the skewed table switches the fine sums on, once for four reads
    comparison.add(0, 0)
    comparison.remove(0, 0)
    assert (comparison.homogeneity, comparison.completeness, comparison.v_measure(),
            comparison.normalized_mutual_information()) == first
    assert len(calls) == 1  # the write path stepped the fine sums: no cells again


def test_information_reads_of_one_state_share_the_cells_of_their_exact_fallback(monkeypatch):
    # Exactly independent: MI is 0, which no sum of rounded terms certifies; the cells do.
    comparison = PartitionComparison().add_many([0, 0, 1, 1], [0, 1, 0, 1], weights=[3] * 4)
    calls = _counting_information_cells(monkeypatch)
    first = (comparison.homogeneity, comparison.completeness, comparison.v_measure(),
             comparison.normalized_mutual_information(), comparison.mutual_information())
    assert first == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert len(calls) == 1  # once for the reads of one state (the fine sums' switch included)
    comparison.add(0, 0)
    comparison.remove(0, 0)
    assert (comparison.homogeneity, comparison.completeness, comparison.v_measure(),
            comparison.normalized_mutual_information(), comparison.mutual_information()) == first
    assert len(calls) == 2  # a change: the cells are built again


def test_no_read_but_contingency_table_builds_the_dense_table(monkeypatch):
    """Memory linear in the non-empty cells: scores, reports, JSON, the JCI and the sparse frame
    work from the cells; only contingency_table (and the dense frame) make rows x columns."""
    from contingency import jaccard_concentration_index

    reference, model = [1, 1, 2, 3, "x"], [5, 6, 6, 7, 7]
    comparison = PartitionComparison.from_labels(reference, model)
    comparison.add("y", 8)  # dictionary storage as well as arrays
    expected_state = {"format": "contingency.PartitionComparison/2",
                      "reference_labels": [1, 2, 3, "x", "y"], "model_labels": [5, 6, 7, 8],
                      "cells": [[0, 0, 1], [0, 1, 1], [1, 1, 1], [2, 2, 1], [3, 2, 1], [4, 3, 1]]}
    monkeypatch.setattr(Table, "dense", lambda self: pytest.fail("a read built the dense table"))
    scores = comparison.scores()
    assert scores["jaccard_concentration_index"] == comparison.jaccard_concentration_index()
    comparison.report()
    assert comparison.to_dict() == expected_state
    assert comparison.jaccard_concentration_index(return_all=True)["score"] == scores[
        "jaccard_concentration_index"]
    assert (comparison.purity, comparison.inverse_purity) == (4 / 6, 5 / 6)
    comparison.to_frame(sparse=True)
    jaccard_concentration_index(reference, model)


def test_ami_near_zero_computes_its_exact_sums_once_per_state(monkeypatch):
    """AMI's fallback in integers is shared by the four average methods until the table changes."""
    from contingency.formulas.partition import _precise

    calls = []
    real = _precise.precise_sums
    monkeypatch.setattr(formulas, "precise_sums",
                        lambda cells, bits: calls.append(bits) or real(cells, bits))
    comparison = PartitionComparison().add_many([0, 0, 1, 1], [0, 1, 0, 1], [8, 14, 8, 7])
    values = comparison.scores()["adjusted_mutual_information"]
    assert values["arithmetic"] == -4.697121719964341e-06  # exact, rounded once
    assert calls == [_precise.FIRST_BITS]
    comparison.adjusted_mutual_information("min")
    assert calls == [_precise.FIRST_BITS]
    comparison.add(0, 0)
    comparison.remove(0, 0)  # the same counts, a new state: computed again
    assert comparison.adjusted_mutual_information() == values["arithmetic"]
    assert calls == [_precise.FIRST_BITS] * 2


def _fed_for_reads() -> PartitionComparison:
    return PartitionComparison.from_labels([0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 2, 2, 2, 1])


def _some_reads(comparison: PartitionComparison) -> tuple[object, ...]:
    return (comparison.normalized_mutual_information(), comparison.v_measure(2.0),
            comparison.mutual_information(2.0), comparison.interval("rand_index"))


#: Reads given an argument of the wrong kind: refused, naming the argument and what it may be.
BAD_READ_ARGUMENTS = [
    *((method, (), {"average_method": average_method}, ValueError,
       f"^{method}: average_method must be one of 'arithmetic', 'geometric', 'min', 'max', not ")
      for method in ("normalized_mutual_information", "adjusted_mutual_information")
      for average_method in (np.array(["geometric", "min"]), np.array(["geometric"]),
                             np.array("arithmetic"), True, None, math.nan, "mean")),
    *(("v_measure", (), {"beta": beta}, ValueError,
       "^v_measure: beta must be a finite number >= 0, not ")
      for beta in (np.array([1.0, 2.0]), np.array([2.0]), np.array(2.0), True, np.True_, math.nan,
                   math.inf, -1, 10**400, "2", None)),
    *((method, (), {"base": base}, ValueError,
       f"^{method}: base must be a finite number > 0 other than 1, not ")
      for method in ("mutual_information", "entropy_reference", "entropy_model",
                     "variation_of_information")
      for base in (np.array([2.0, 10.0]), np.array([2.0]), np.array(2.0), True, math.nan,
                   math.inf, 1, 0, -2.0, "2", None)),
    *(("jaccard_concentration_index", (), {"return_all": return_all}, TypeError,
       "jaccard_concentration_index: return_all must be True or False, not ")
      for return_all in (np.array([True, False]), np.array([True]), 1, "yes", None)),
    *(("jaccard_concentration_index", (), {"ordered_labels": labels, "return_all": True},
       TypeError, "^jaccard_concentration_index: ordered_labels must be a sequence of names")
      for labels in (2, {"A", "B"}, {"a": "A"}, None, np.array([["A"], ["B"]]))),
    *((method, (), {"intervals": level}, ValueError,
       rf"^{method}: intervals must be a number between 0 and 1 \(exclusive\), such as 0.95, not ")
      for method in ("scores", "report")
      for level in (np.array([0.9, 0.95]), np.array(0.9), True, math.nan, 10**30, 1.5)),
    *(("interval", ("rand_index",), {"level": level}, ValueError,
       r"^interval: level must be a number between 0 and 1 \(exclusive\), such as 0.95, not ")
      for level in (np.array([0.9, 0.95]), True, math.nan, 1.5)),
    *(("interval", (score,), {}, ValueError, r"interval\(.*\): a score is the name of a score "
       r"property; intervals exist for rand_index")
      for score in (np.array(["rand_index", "f1"]), np.array(["rand_index"]), None, 1)),
    *(("report", (), {"digits": digits, **intervals}, ValueError,
       r"^report: digits must be an integer >= 0 \(at most 1074\), not ")
      for intervals in ({}, {"intervals": 0.95})
      for digits in (np.array([1, 2]), np.array(3), True, np.float64(2.0), math.nan, -1, 1075,
                     10**30, "3", None)),
    *(("jaccard_concentration_index", (), {"noise_label": label}, TypeError,
       "^jaccard_concentration_index: noise_label must be hashable, got ")
      for label in (np.array([1, 2]), np.array([1]), [1], {"a": 1})),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "error", "message"), BAD_READ_ARGUMENTS)
def test_reads_refuse_arguments_of_the_wrong_kind_by_name(method, args, kwargs, error, message):
    """Each refused by name (never numpy's "truth value of an array is ambiguous"), the
    comparison unchanged: its state, and the reads after it."""
    comparison = _fed_for_reads()
    refused_unchanged(comparison, lambda: getattr(comparison, method)(*args, **kwargs), error,
                      message, _some_reads)


def test_reads_take_numpy_scalars_as_the_python_values_they_hold():
    """A numpy string or number reads as the Python one, and gives a Python float (v_measure of
    a ``np.float64`` beta gave a ``np.float64``; interval refused a ``np.str_`` score)."""
    comparison = _fed_for_reads()
    assert (comparison.normalized_mutual_information(np.str_("geometric"))
            == comparison.normalized_mutual_information("geometric"))
    assert (comparison.adjusted_mutual_information(np.str_("max"))
            == comparison.adjusted_mutual_information("max"))
    found = comparison.v_measure(np.float64(2.0))
    assert type(found) is float
    assert found == comparison.v_measure(2.0)
    assert comparison.v_measure(np.int64(2)) == comparison.v_measure(2)
    assert comparison.mutual_information(np.float64(2.0)) == comparison.mutual_information(2.0)
    assert comparison.entropy_model(np.int64(10)) == comparison.entropy_model(10)
    assert (comparison.interval(np.str_("rand_index"), level=np.float64(0.9),
                                method=np.str_("delta"))
            == comparison.interval("rand_index", level=0.9))
    assert comparison.jaccard_concentration_index(return_all=np.False_) == (
        comparison.jaccard_concentration_index())
