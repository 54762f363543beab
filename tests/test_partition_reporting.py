"""PartitionComparison.scores(), report() and from_labels(sample_weight=): against scikit-learn, and complete.

Also the weights PartitionComparison refuses (fractional ones, on every path that takes
weights) and the messages of issue 14 about partitions.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from jaccard_concentration_index import jaccard_concentration_index as package_jci
from sklearn import metrics
from sklearn.metrics.cluster import contingency_matrix

from contingency import PartitionComparison, are_subsets_disjoint
from tests.strategies_partition import labelings

AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")
COUNTS = ("n_elements", "n_reference_clusters", "n_model_clusters", "n_pairs", "same_same",
          "same_reference_only", "same_model_only", "different_different")


def sklearn_entropy(labels) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in 1.8, still the reference
        return float(metrics.cluster.entropy(labels))


def random_labels(seed: int):
    """Random labelings of varied shapes: few or many clusters, correlated or not."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 400))
    reference = rng.integers(0, int(rng.integers(1, 12)), size)
    noise = rng.integers(0, int(rng.integers(1, 12)), size)
    model = np.where(rng.random(size) < rng.random(), reference, noise) + 100
    return reference, model


# --- scores() against scikit-learn ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_scores_agree_with_scikit_learn(seed):
    truth, predicted = random_labels(seed)
    scores = PartitionComparison.from_labels(truth, predicted).scores()

    def agree(key, expected, tolerance=1e-12):
        assert math.isclose(scores[key], expected, rel_tol=tolerance, abs_tol=tolerance), key

    table = contingency_matrix(truth, predicted)
    n = len(truth)
    assert (scores["n_elements"], scores["n_reference_clusters"], scores["n_model_clusters"],
            scores["n_pairs"]) == (n, table.shape[0], table.shape[1], n * (n - 1) // 2)
    (dd, smo), (sro, ss) = metrics.cluster.pair_confusion_matrix(truth, predicted).tolist()
    assert [scores[key] for key in COUNTS[4:]] == [ss // 2, sro // 2, smo // 2, dd // 2]
    agree("rand_index", metrics.rand_score(truth, predicted))
    agree("accuracy", metrics.rand_score(truth, predicted))
    agree("distance", 1 - metrics.rand_score(truth, predicted))
    agree("adjusted_rand_index", metrics.adjusted_rand_score(truth, predicted))
    if ss:  # scikit-learn's 0 for identical all-singleton partitions is the documented difference
        agree("fowlkes_mallows", metrics.fowlkes_mallows_score(truth, predicted))
    if ss + smo:
        agree("precision", ss / (ss + smo))
    if ss + sro:
        agree("recall", ss / (ss + sro))
    if ss + sro + smo:
        agree("f1", 2 * ss / (2 * ss + sro + smo))
        agree("jaccard", ss / (ss + sro + smo))
    mi = metrics.mutual_info_score(truth, predicted)
    agree("mutual_information", mi)
    agree("entropy_reference", sklearn_entropy(truth))
    agree("entropy_model", sklearn_entropy(predicted))
    agree("variation_of_information", sklearn_entropy(truth) + sklearn_entropy(predicted) - 2 * mi)
    for method in AVERAGE_METHODS:
        nmi = metrics.normalized_mutual_info_score(truth, predicted, average_method=method)
        assert math.isclose(scores["normalized_mutual_information"][method], nmi,
                            rel_tol=1e-12, abs_tol=1e-12), method
        ami = metrics.adjusted_mutual_info_score(truth, predicted, average_method=method)
        assert math.isclose(scores["adjusted_mutual_information"][method], ami,
                            rel_tol=1e-9, abs_tol=1e-9), method
    homogeneity, completeness, v_measure = metrics.homogeneity_completeness_v_measure(
        truth, predicted)
    agree("homogeneity", homogeneity)
    agree("completeness", completeness)
    agree("v_measure", v_measure)
    agree("purity", table.max(axis=0).sum() / n)
    agree("inverse_purity", table.max(axis=1).sum() / n)
    classes = table.shape[0]
    if classes > 1:  # R NMF's entropy: H(reference | model) / log(classes)
        conditional = -sum(c * math.log(c / column.sum()) for column in table.T for c in column if c)
        agree("entropy", conditional / (n * math.log(classes)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agree("jaccard_concentration_index", package_jci(truth, predicted), 1e-9)


@given(labelings())
@settings(max_examples=60)
@example(([], []))
@example((["a"], [1]))
def test_scores_are_plain_json_data_and_equal_each_read(labeling):
    comparison = PartitionComparison.from_labels(*labeling)
    scores = comparison.scores()
    assert json.loads(json.dumps(scores, allow_nan=False)) == scores
    for key in COUNTS:
        assert type(scores[key]) is int, key
        assert scores[key] == getattr(comparison, key)
    for key, value in scores.items():
        if key in COUNTS:
            continue
        if key in ("normalized_mutual_information", "adjusted_mutual_information"):
            assert list(value) == list(AVERAGE_METHODS)
            for method, number in value.items():
                assert type(number) is float
                assert number == getattr(comparison, key)(method)
            continue
        if key == "jaccard_concentration_index" and not labeling[0]:
            assert value is None  # undefined on an empty table
            continue
        assert type(value) is float, key
        read = getattr(comparison, key)
        assert value == (read() if callable(read) else read), key


def test_scores_name_every_public_score():
    comparison = PartitionComparison.from_labels([1, 1, 2], [1, 2, 2])
    scores = comparison.scores()
    public = {name for name in dir(PartitionComparison) if not name.startswith("_")}
    not_scores = {"add", "add_many", "remove", "remove_many", "merge", "copy", "reset",
                  "from_labels", "from_partitions", "from_dict", "to_dict", "to_frame", "scores",
                  "report", "table_sums", "pair_confusion", "contingency_table", "contingency_cells",
                  "thread_safe", "interval",
                  "ari_significance"}  # a test of the ARI against chance (z, p), not a score
    assert set(scores) == public - not_scores


# --- report() ---------------------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    else:
        yield value


def shown(value, digits):
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


@pytest.mark.parametrize("digits", [3, 9])
@given(labeling=labelings())
@settings(max_examples=60)
@example(labeling=([], []))
def test_report_shows_every_number_scores_gives_and_no_other(labeling, digits):
    comparison = PartitionComparison.from_labels(*labeling)
    scores = comparison.scores()
    text = comparison.report(digits)
    body, conventions = text.split("\nconventions: ")
    tokens = NUMBER.findall(body) + re.findall(r"(?<=\s)-(?=\s|$)", body)
    expected = [shown(value, digits) for value in leaves(scores)]
    # accuracy and rand_index are one score under two names: the report shows it once.
    expected.remove(shown(scores["accuracy"], digits))
    assert sorted(tokens) == sorted(expected)
    assert "natural logarithms" in conventions
    assert "arithmetic" in conventions
    assert "- marks an undefined value" in conventions


def test_report_rows_carry_their_own_numbers():
    comparison = PartitionComparison.from_labels(*random_labels(3))
    scores = comparison.scores()
    lines = comparison.report(digits=6).splitlines()

    def row(name):
        (line,) = [line for line in lines if re.match(rf"^ *{re.escape(name)}  ", line)]
        return line[line.index(name) + len(name):].split()

    assert row("adjusted rand index") == [f"{scores['adjusted_rand_index']:.6f}"]
    assert row("homogeneity") == [f"{scores['homogeneity']:.6f}"]
    assert row("purity") == [f"{scores['purity']:.6f}"]
    assert row("entropy (R NMF)") == [f"{scores['entropy']:.6f}"]
    assert row("normalized MI") == [f"{scores['normalized_mutual_information'][method]:.6f}"
                                    for method in AVERAGE_METHODS]
    assert row("adjusted MI") == [f"{scores['adjusted_mutual_information'][method]:.6f}"
                                  for method in AVERAGE_METHODS]
    assert row("entropies averaged by") == list(AVERAGE_METHODS)
    assert row("same reference") == [str(scores["same_same"]), str(scores["same_reference_only"])]
    assert row("different reference") == [str(scores["same_model_only"]),
                                           str(scores["different_different"])]
    assert lines[0] == (f"elements: {scores['n_elements']}   reference clusters: "
                        f"{scores['n_reference_clusters']}   model clusters: "
                        f"{scores['n_model_clusters']}   pairs: {scores['n_pairs']}")


def test_report_refuses_bad_digits():
    """Named by the read given them, and by the renderer when it is called directly."""
    from contingency.report import partition_report

    comparison = PartitionComparison.from_labels([0, 0, 1], [0, 1, 1])
    for digits in (-1, 2.5, True):
        with pytest.raises(ValueError, match=r"^report: digits must be an integer >= 0"):
            comparison.report(digits)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^partition_report: digits must be an integer >= 0"):
            partition_report(comparison.scores(), digits)  # type: ignore[arg-type]


# --- from_labels(sample_weight=) and the weights PartitionComparison refuses ------------------------


def test_from_labels_weights_equal_repeating_and_add_many():
    reference, model, weights = ["a", "a", "b", "c"], [1, 2, 2, 2], [3, 1, 0, 2]
    repeated = PartitionComparison.from_labels(
        [r for r, w in zip(reference, weights) for _ in range(w)],
        [m for m, w in zip(model, weights) for _ in range(w)])
    for given_weights in (weights, np.array(weights), np.array(weights, dtype=np.uint8),
                          tuple(weights), iter(weights), [np.int64(w) for w in weights]):
        weighted = PartitionComparison.from_labels(reference, model, sample_weight=given_weights)
        assert weighted == repeated
        assert weighted.scores() == repeated.scores()
    assert PartitionComparison.from_labels(reference, model, sample_weight=weights) == \
        PartitionComparison().add_many(reference, model, weights=weights)


FRACTIONAL = [
    ([1, 0.5], r"weights\[1\] is 0\.5, not an integer"),
    ([1.0, 2.5], r"weights\[1\] is 2\.5, not an integer"),  # after a whole float
    ([np.float64(1.0), np.float64(0.25)], r"weights\[1\] is 0\.25, not an integer"),
    ([np.float32(3.5), 1], r"weights\[0\] is np\.float32\(3\.5\), not an integer"),
    ([1, Fraction(1, 2)], r"weights\[1\] is Fraction\(1, 2\), not an integer"),
    ([1, Fraction(2, 1)], r"weights\[1\] is Fraction\(2, 1\), not an integer"),
    (np.array([1.0, 2.5]), r"weights\[1\] is 2\.5, not an integer"),
    (np.array([1, 2.5], dtype=np.float16), r"weights\[1\] is 2\.5, not an integer"),
    (np.array([2.0, 1e-30]), r"weights\[1\] is 1e-30, not an integer"),
    (np.array([1, 0.5], dtype=object), r"weights\[1\] is 0\.5, not an integer"),
    (lambda: (w for w in (1, 1.5)), r"weights\[1\] is 1\.5, not an integer"),  # a generator
]
WEIGHTED_PATHS = {
    "add_many": lambda c, w: c.add_many(["a", "b"], [1, 2], weights=w),
    "remove_many": lambda c, w: c.remove_many(["a", "b"], [1, 2], weights=w),
    "from_labels": lambda c, w: PartitionComparison.from_labels(["a", "b"], [1, 2], sample_weight=w),
}


@pytest.mark.parametrize(("weights", "message"), FRACTIONAL)
@pytest.mark.parametrize("path", list(WEIGHTED_PATHS))
def test_fractional_weights_are_refused_with_a_type_error_on_every_path(path, weights, message):
    comparison = PartitionComparison.from_labels(["a", "b", "b"], [1, 2, 2])
    before = comparison.to_dict()
    if path == "from_labels":  # its argument is scikit-learn's sample_weight: named so
        message = message.replace("weights", "sample_weight", 1)
    with pytest.raises(TypeError, match=f"^{path}: {message}.*fractional elements has no "
                                        "meaning"):
        WEIGHTED_PATHS[path](comparison, weights() if callable(weights) else weights)
    assert comparison.to_dict() == before


def test_integer_weights_still_checked_after_the_fraction_check():
    with pytest.raises(ValueError, match=r"add_many: weights\[1\] must be a non-negative integer "
                                         "count, not True"):
        PartitionComparison().add_many(["a", "b"], [1, 2], weights=[1, True])
    with pytest.raises(ValueError, match=r"weights\[0\] must be a non-negative integer count"):
        PartitionComparison().add_many(["a"], [1], weights=["1"])
    # an empty float array holds no fraction: nothing to refuse
    assert PartitionComparison.from_labels([], [], sample_weight=np.array([])).n_elements == 0


# --- issue 14's messages ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["add_many", "remove_many", "from_labels"])
def test_weights_given_as_a_string_are_named_as_the_caller_names_them(path):
    name = "sample_weight" if path == "from_labels" else "weights"
    with pytest.raises(TypeError, match=f"^{path}: {name} must be a sequence of integer "
                                        "counts, not str$"):
        WEIGHTED_PATHS[path](PartitionComparison(), "12")


def test_are_subsets_disjoint_names_the_partition_once():
    with pytest.raises(TypeError, match=r"^the partition must be an iterable of subsets, not "
                                        r"str$"):
        are_subsets_disjoint("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^partition, subset 1: a subset must be"):
        are_subsets_disjoint([[1], 2])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^the first partition must be an iterable of subsets"):
        PartitionComparison.from_partitions("abc", [])  # type: ignore[arg-type]


def test_scores_and_report_of_a_state_past_the_jaccard_concentration_limit():
    comparison = PartitionComparison().add_many(["a", "b"], [1, 1], weights=[2**53, 1])
    scores = comparison.scores()
    assert scores["jaccard_concentration_index"] is None  # the index takes at most 2**53
    assert scores["n_elements"] == 2**53 + 1
    assert re.search(r"^ *jaccard-concentration +-$", comparison.report(), re.MULTILINE)
    at_limit = PartitionComparison().add_many(["a", "b"], [1, 1], weights=[2**53 - 1, 1])
    assert at_limit.scores()["jaccard_concentration_index"] == \
        at_limit.jaccard_concentration_index()


def test_dask_compare_refuses_fractional_weights_as_add_many_does():
    import dask.dataframe as dd
    import pandas as pd

    from contingency.dask import compare

    frame = dd.from_pandas(pd.DataFrame({"r": ["a", "b"], "m": [1, 2], "w": [1.5, 1.0]}),
                           npartitions=1)
    with pytest.raises(TypeError, match=r"^compare: partition 0: column 'w': weights\[0\] is 1\.5, "
                                        r"not an integer: .*fractional elements"):
        compare(frame, reference="r", model="m", weights="w")
    whole = dd.from_pandas(pd.DataFrame({"r": ["a", "b"], "m": [1, 2], "w": [2, 1]}),
                           npartitions=1)
    assert compare(whole, reference="r", model="m", weights="w") == \
        PartitionComparison.from_labels(["a", "b"], [1, 2], sample_weight=[2, 1])


WHOLE_FLOATS = {
    "list": lambda: [2.0, 1.0, 3.0],
    "numpy scalars": lambda: [np.float64(2), np.float32(1), 3],
    "float64 array": lambda: np.array([2.0, 1.0, 3.0]),
    "float16 array": lambda: np.array([2, 1, 3], dtype=np.float16),
    "pandas count column": lambda: pytest.importorskip("pandas").Series([2.0, 1.0, 3.0]),
    "generator": lambda: (w for w in (2.0, 1.0, 3.0)),
}


@pytest.mark.parametrize("kind", list(WHOLE_FLOATS))
def test_whole_float_weights_count_as_their_integers_on_every_path(kind):
    # Issue 31, item 15: as Contingency and PairedComparison take them.
    reference, model, counts = ["a", "b", "b"], [1, 2, 1], [2, 1, 3]
    expected = PartitionComparison().add_many(reference, model, weights=counts)
    added = PartitionComparison().add_many(reference, model, weights=WHOLE_FLOATS[kind]())
    assert added == expected
    assert added.to_dict() == expected.to_dict()
    assert all(type(cell[2]) is int for cell in added.to_dict()["cells"])
    assert PartitionComparison.from_labels(reference, model,
                                           sample_weight=WHOLE_FLOATS[kind]()) == expected
    twice = PartitionComparison().add_many(reference, model, weights=[4, 2, 6])
    assert twice.remove_many(reference, model, weights=WHOLE_FLOATS[kind]()) == expected


def test_a_whole_float_weight_column_on_dask():
    import dask.dataframe as dd
    import pandas as pd

    from contingency.dask import compare

    frame = dd.from_pandas(pd.DataFrame({"r": ["a", "b"], "m": [1, 2], "w": [2.0, 1.0]}),
                           npartitions=1)
    assert compare(frame, reference="r", model="m", weights="w") == \
        PartitionComparison.from_labels(["a", "b"], [1, 2], sample_weight=[2, 1])
