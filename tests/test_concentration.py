"""concentration() and the Jaccard-Concentration Index: the package, an exact oracle, invariants.

Three references for every generated case:

* the PyPI package ``jaccard-concentration-index`` 1.0.5 (a test-only dependency);
* an exact oracle written here from the definitions (fractions, and 60-digit
  decimals for the square roots);
* the invariants of the table formula (label order, empty rows, dtypes).

The package computes ``sqrt(sum p**2) - sqrt(1/n)`` directly; near a uniform
column that difference cancels, and the square root taken after it turns a
rounding error of 1e-16 into up to 1e-8 (or NaN). So: we agree with the
package to 1e-12, except where the package itself is more than 1e-12 from the
exact value and the case is that ill-conditioned one; we are always within
1e-13 of the exact value.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from jaccard_concentration_index import concentration as package_concentration
from jaccard_concentration_index import jaccard_concentration_index as package_jci

from contingency import PartitionComparison, concentration, jaccard_concentration_index
from contingency.formulas.concentration import (
    jaccard_concentration_index_from_cells,
    jaccard_concentration_index_from_table,
)

PACKAGE_TOLERANCE = 1e-12
EXACT_TOLERANCE = 1e-13
#: Below this exact value of the quantity under the concentration's square root,
#: the package's rounding may exceed PACKAGE_TOLERANCE (see the module docstring):
#: an error e there becomes about e / inner**0.75 in a cluster's score.
ILL_CONDITIONED = 1e-4


# ---------------------------------------------------------------------------
# The exact oracle, from the definitions in the seed (no code shared with contingency).


def _sqrt(x: Fraction | Decimal) -> Decimal:
    value = Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else x
    return max(value, Decimal(0)).sqrt()


def exact_concentration(
    values: list[float], single_index: bool = False, size_invariance: bool = True,
    virtual_length: int = 0,
) -> tuple[float, float]:
    """(score, the quantity under the final square root or square) by exact arithmetic."""
    with localcontext() as context:
        context.prec = 60
        if not values:
            return 0.0, 0.0
        n = virtual_length or len(values)
        if n < 2:
            return 1.0, 1.0
        magnitudes = [abs(Fraction(v)) for v in values]
        total = sum(magnitudes)
        if total == 0:
            return 0.0, 0.0
        shares = [m / total for m in magnitudes]
        s = sum(p * p for p in shares)
        uniform = Fraction(1, n)
        if single_index:
            inner = (max(p * p for p in shares) / s - uniform) / (1 - uniform)
            score = Decimal(inner.numerator) / Decimal(inner.denominator)
            score, inner_value = score * score, score
        else:
            inner_value = (_sqrt(s) - _sqrt(uniform)) / (1 - _sqrt(uniform))
            score = _sqrt(inner_value)
        if not size_invariance:
            score = score * (1 - Decimal(1) / n) + Decimal(1) / n
        return float(score), float(inner_value)


def exact_jci(y_true: list[Any], y_pred: list[Any], noise_label: Any = None,
              ordered_labels: Any = ()) -> tuple[dict[str, Any], list[float]]:
    """The package's return_all dict by exact arithmetic, and each cluster's inner value."""
    with localcontext() as context:
        context.prec = 60
        true_labels = sorted(set(y_true))
        pred_labels = sorted(set(y_pred))
        cells = Counter(zip(y_true, y_pred))
        rows, columns = Counter(y_true), Counter(y_pred)
        noise = noise_label is not None and noise_label in columns
        clustered = len(y_true) - (columns[noise_label] if noise else 0)
        if len(y_true) == 0 or clustered == 0:
            raise ValueError("no cluster to score")
        clusters, inners = [], []
        for p in pred_labels:
            if noise and p == noise_label:
                continue
            jaccards = [Fraction(cells[t, p], rows[t] + columns[p] - cells[t, p])
                        for t in true_labels]
            best = max(jaccards)
            c, inner = exact_concentration([cells[t, p] for t in true_labels])
            clusters.append({
                "score": _sqrt(best) * Decimal(c).sqrt(),
                "max_jaccard_index": best,
                "concentration": Decimal(c),
                "closest_label_index": jaccards.index(best),
                "closest_label": ordered_labels[jaccards.index(best)] if len(ordered_labels)
                else None,
                "size_proportion": Fraction(columns[p], clustered),
            })
            inners.append(inner)

        def macro(key: str) -> float:
            return float(sum(Decimal(c[key]) * Decimal(columns[p]) for c, p in zip(
                clusters, [p for p in pred_labels if not (noise and p == noise_label)]))
                / clustered)

        result = {
            "score": macro("score"),
            "macroavg_max_jaccard_index": float(
                sum(c["max_jaccard_index"] * c["size_proportion"] for c in clusters)),
            "macroavg_concentration": macro("concentration"),
            "cluster_results": [
                {key: (value if key.startswith("closest") else float(value))
                 for key, value in c.items()} for c in clusters],
        }
        return result, inners


# ---------------------------------------------------------------------------
# Comparison helpers


def quiet(function: Any, *args: Any, **kwargs: Any) -> Any:
    """Call the package, which warns (RuntimeWarning, numpy's FutureWarnings) on some inputs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def assert_agree(ours: float, theirs: float, exact: float, inner: float) -> None:
    """Within EXACT_TOLERANCE of the exact value; within PACKAGE_TOLERANCE of the package
    unless the package is off by its own cancellation (``inner`` tiny)."""
    assert type(ours) is float
    assert abs(ours - exact) <= EXACT_TOLERANCE, (ours, exact)
    if not abs(ours - theirs) <= PACKAGE_TOLERANCE:
        assert inner < ILL_CONDITIONED, (ours, theirs, exact, inner)
        assert not abs(theirs - exact) <= PACKAGE_TOLERANCE, (ours, theirs, exact)


def assert_results_close(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Two return_all dicts: the same keys in the same order, floats within PACKAGE_TOLERANCE."""
    assert list(ours) == list(theirs)
    assert len(ours["cluster_results"]) == len(theirs["cluster_results"])
    pairs = [(ours, theirs), *zip(ours["cluster_results"], theirs["cluster_results"])]
    for mine, package in pairs:
        assert list(mine) == list(package)
        for key, value in mine.items():
            if isinstance(value, float):
                assert value == pytest.approx(package[key], abs=PACKAGE_TOLERANCE), key
            elif key != "cluster_results":
                assert value == package[key], key


def compare_with_package(y_true: Any, y_pred: Any, noise_label: Any = None,
                         ordered_labels: Any = ()) -> dict[str, Any] | None:
    """Check ours against the package and the oracle; None when all three refuse."""
    try:
        theirs = quiet(package_jci, y_true, y_pred, noise_label=noise_label, return_all=True,
                       ordered_labels=ordered_labels)
    except ValueError:
        with pytest.raises(ValueError, match="at least one element"):
            jaccard_concentration_index(y_true, y_pred, noise_label, True, ordered_labels)
        return None
    ours = jaccard_concentration_index(y_true, y_pred, noise_label, True, ordered_labels)
    exact, inners = exact_jci(list(y_true), list(y_pred), noise_label, ordered_labels)

    assert list(ours) == list(theirs)
    assert len(ours["cluster_results"]) == len(theirs["cluster_results"])
    for mine, package, oracle, inner in zip(
            ours["cluster_results"], theirs["cluster_results"], exact["cluster_results"], inners):
        assert list(mine) == list(package)
        # The same float operations as the package: bit for bit.
        assert mine["max_jaccard_index"] == package["max_jaccard_index"]
        assert mine["size_proportion"] == package["size_proportion"]
        assert mine["closest_label_index"] == package["closest_label_index"]
        assert type(mine["closest_label_index"]) is int
        assert mine["closest_label"] == package["closest_label"] == oracle["closest_label"]
        for key in ("score", "concentration"):
            assert_agree(mine[key], package[key], oracle[key], inner)
    assert ours["macroavg_max_jaccard_index"] == pytest.approx(
        theirs["macroavg_max_jaccard_index"], abs=PACKAGE_TOLERANCE)
    worst = min(inners, default=1.0)
    for key in ("score", "macroavg_concentration"):
        assert_agree(ours[key], theirs[key], exact[key], worst)
    # Without return_all: the same score, and no cluster_results to build.
    assert jaccard_concentration_index(y_true, y_pred, noise_label) == ours["score"]
    return ours


# ---------------------------------------------------------------------------
# Strategies

POOLS: dict[str, list[Any]] = {
    "int": [0, 1, 2, 3, 4, 5],
    "str": ["a", "b", "c", "d", "e", "f"],
    "float": [0.5, 1.5, -2.0, 3.25, 10.0, 7.0],
}


@st.composite
def labelings(draw: Any) -> tuple[Any, Any, Any, Any]:
    """(y_true, y_pred, noise_label, ordered_labels) the package accepts, or refuses as empty."""
    size = draw(st.integers(0, 30))
    true_pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    true_pool = true_pool[: draw(st.integers(1, len(true_pool)))]
    y_true = draw(st.lists(st.sampled_from(true_pool), min_size=size, max_size=size))
    pred_pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    shape = draw(st.sampled_from(["random", "single cluster", "singletons", "close to truth"]))
    if shape == "random":
        pool = pred_pool[: draw(st.integers(1, len(pred_pool)))]
        y_pred = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    elif shape == "single cluster":
        y_pred = [pred_pool[0]] * size
    elif shape == "singletons":
        y_pred = draw(st.permutations(list(range(size))))
    else:  # each true label to its own cluster, some elements moved to another one
        moved = draw(st.lists(st.booleans(), min_size=size, max_size=size))
        y_pred = [pred_pool[-1] if m else pred_pool[true_pool.index(t)]
                  for t, m in zip(y_true, moved)]
    noise_label = draw(st.sampled_from([None, pred_pool[0], pred_pool[-1], "absent"]))
    ordered_labels: Any = ()
    if draw(st.booleans()):
        ordered_labels = [f"L{i}" for i in range(len(set(y_true)))]
    if draw(st.booleans()):
        return np.asarray(y_true), np.asarray(y_pred), noise_label, ordered_labels
    return y_true, y_pred, noise_label, ordered_labels


vectors = st.one_of(
    st.lists(st.integers(0, 12), max_size=12),
    st.lists(st.floats(0, 1e6, allow_subnormal=False), max_size=12),
    st.lists(st.floats(-1e3, 1e3, allow_subnormal=False), max_size=12),
    st.lists(st.sampled_from([0.0, 0.1, 1 / 3, 2.5]), max_size=12),  # often uniform
)


# ---------------------------------------------------------------------------
# Agreement with the package and the oracle


@given(labelings())
@example((["a", "a", "b"], [1, 1, 1], None, ()))  # one cluster over two labels
@example(([1, 2, 3, 4, 5], [0, 0, 0, 0, 0], None, ()))  # uniform column: the package, 4.5e-05
@example(([0] * 5 + [1] * 5, [0] * 10, None, ()))
@example((list(range(21)), [0] * 21, None, ["x"] * 21))  # the package gives NaN here
@example(([0, 0, 1], [-1, -1, -1], -1, ()))  # all noise: both refuse
@example(([], [], None, ()))  # empty: both refuse
@example(([0, 0, 1, 1], [0, 1, 0, 1], None, ["p", "q"]))  # ties for the closest label
def test_jci_matches_package_and_oracle(case: tuple[Any, Any, Any, Any]) -> None:
    compare_with_package(*case)


def test_package_gives_nan_where_the_exact_value_is_zero() -> None:
    """The reason for the oracle: one cluster spread evenly over n true labels."""
    for n, package_value in [(5, 4.476831184978414e-05), (21, math.nan)]:
        y_true, y_pred = list(range(n)), [0] * n
        assert quiet(package_jci, y_true, y_pred) == pytest.approx(package_value, nan_ok=True)
        assert jaccard_concentration_index(y_true, y_pred) == 0.0
        assert concentration([1] * n) == 0.0


@given(vectors, st.booleans(), st.booleans(), st.sampled_from([None, 0, 1, 5]))
@example([1.0] * 21, False, True, None)  # the package: NaN
@example([1.0] * 10, False, True, None)  # the package: 9e-09
@example([0.0, 0.0], False, False, None)  # all zero: 0.0 even without size invariance
@example([], True, False, 3)
@example([0.0], False, True, None)  # a single value: 1.0
@example([-3.0, 1.0], True, True, None)
def test_concentration_matches_package_and_oracle(
    values: list[float], single_index: bool, size_invariance: bool, extra: int | None
) -> None:
    virtual_length = 0 if extra is None else len(values) + extra
    options = {"single_index": single_index, "size_invariance": size_invariance,
               "virtual_length": virtual_length}
    ours = concentration(values, **options)
    theirs = quiet(package_concentration, np.asarray(values, dtype=np.float64), **options)
    exact, inner = exact_concentration(values, **options)
    assert_agree(ours, theirs, exact, inner)
    assert concentration(np.asarray(values), **options) == ours


@pytest.mark.parametrize("n", range(2, 300))
def test_uniform_vectors_score_zero(n: int) -> None:
    """Exactly 0 for integers (the package: 0, 1e-8 or NaN); within 1e-15 for floats."""
    assert concentration([3] * n) == 0.0
    assert concentration([0.1] * n) <= 1e-15
    assert concentration([1 / 3] * n, size_invariance=False) == pytest.approx(1 / n, abs=1e-15)


def test_pure_columns_score_exactly_one() -> None:
    for n in range(1, 50):
        values = [0] * n
        values[n // 2] = 7
        assert concentration(values) == 1.0
        assert concentration(values, single_index=True) == 1.0
        assert concentration(values, size_invariance=False, virtual_length=n + 3) == 1.0


@pytest.mark.parametrize("scale", [2.0**1020, 1e-300, 2.0**-1070, 1.0])
def test_huge_and_tiny_values_keep_their_concentration(scale: float) -> None:
    """Scaled by powers of two inside, so squares neither overflow nor underflow."""
    values = [3.0, 1.0, 0.0, 2.0]
    for single_index in (False, True):
        expected = concentration(values, single_index=single_index)
        scaled = concentration([v * scale for v in values], single_index=single_index)
        assert scaled == pytest.approx(expected, abs=1e-15)
    huge = [1e308, 1e308, 0.0]  # the sum overflows in the package
    assert math.isnan(quiet(package_concentration, huge))
    assert concentration(huge) == concentration([1, 1, 0])


# ---------------------------------------------------------------------------
# The table formula: invariants


@st.composite
def tables(draw: Any) -> tuple[np.ndarray, list[Any], list[Any]]:
    rows, columns = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    counts = draw(st.lists(st.integers(0, 6), min_size=rows * columns, max_size=rows * columns))
    table = np.array(counts, dtype=np.int64).reshape(rows, columns)
    reference = draw(st.lists(st.integers(-50, 50), min_size=rows, max_size=rows, unique=True))
    model = draw(st.lists(st.text("xyz", max_size=3), min_size=columns, max_size=columns,
                          unique=True))
    return table, reference, model


def _permuted(table: np.ndarray, reference: list[Any], model: list[Any], rows: list[int],
              columns: list[int]) -> tuple[np.ndarray, list[Any], list[Any]]:
    return (table[np.ix_(rows, columns)], [reference[i] for i in rows],
            [model[j] for j in columns])


@given(tables(), st.data())
def test_table_order_zero_rows_and_dtype_do_not_matter(case: Any, data: Any) -> None:
    table, reference, model = case
    if table.sum() == 0:
        with pytest.raises(ValueError, match="the table is empty"):
            jaccard_concentration_index_from_table(table, reference, model)
        return
    noise = data.draw(st.sampled_from([None, *model]))
    if noise is not None and table[:, model.index(noise)].sum() == table.sum():
        with pytest.raises(ValueError, match="every element is in the noise cluster"):
            jaccard_concentration_index_from_table(table, reference, model, noise_label=noise)
        return
    expected = jaccard_concentration_index_from_table(
        table, reference, model, noise_label=noise, return_all=True)

    rows = data.draw(st.permutations(range(len(reference))))
    columns = data.draw(st.permutations(range(len(model))))
    shuffled = _permuted(table, reference, model, rows, columns)
    assert jaccard_concentration_index_from_table(
        *shuffled, noise_label=noise, return_all=True) == expected

    padded = np.zeros((table.shape[0] + 1, table.shape[1] + 1), dtype=np.int64)
    padded[1:, :-1] = table
    assert jaccard_concentration_index_from_table(
        padded, [1000, *reference], [*model, "unused"], noise_label=noise, return_all=True
    ) == expected

    as_objects = np.array([[int(v) for v in row] for row in table.tolist()], dtype=object)
    assert jaccard_concentration_index_from_table(
        as_objects, reference, model, noise_label=noise, return_all=True) == expected

    # And the label-level function on the elements the table counts.
    y_true = [reference[i] for i in range(table.shape[0]) for j in range(table.shape[1])
              for _ in range(table[i, j])]
    y_pred = [model[j] for i in range(table.shape[0]) for j in range(table.shape[1])
              for _ in range(table[i, j])]
    assert jaccard_concentration_index(y_true, y_pred, noise, return_all=True) == expected


def test_result_types_are_python_types() -> None:
    result = jaccard_concentration_index(np.array([1, 1, 2]), np.array([0, 1, 1]),
                                         return_all=True, ordered_labels=np.array(["a", "b"]))
    assert type(result["score"]) is float
    assert type(result["macroavg_max_jaccard_index"]) is float
    assert type(result["macroavg_concentration"]) is float
    for cluster in result["cluster_results"]:
        assert [type(v) for k, v in cluster.items() if k != "closest_label"] == [
            float, float, float, int, float]
    assert type(jaccard_concentration_index([1, 2], [1, 1])) is float
    assert type(concentration(np.array([1, 2]))) is float


# ---------------------------------------------------------------------------
# Labels: order, unsortable labels, encodings


def test_labels_that_cannot_be_sorted_follow_the_accumulator_order() -> None:
    """The package raises TypeError for str and int mixed; the score does not need order.

    Such labels keep the table's order, which PartitionComparison (and so the
    label-level function) gives by type name, then repr: 1, 2, 'b'.
    """
    y_true = ["b", 1, "b", 1, 2, 2]
    y_pred = [1, "x", "x", "x", 1, 1]
    with pytest.raises(TypeError):
        quiet(package_jci, y_true, y_pred)
    result = jaccard_concentration_index(y_true, y_pred, return_all=True)
    # The same table with sortable labels in that order.
    renamed = jaccard_concentration_index(
        [{1: 0, 2: 1, "b": 2}[t] for t in y_true], [{1: 0, "x": 1}[p] for p in y_pred],
        return_all=True)
    assert result == renamed
    assert [c["closest_label_index"] for c in result["cluster_results"]] == [1, 0]
    # The stream's order does not matter.
    assert jaccard_concentration_index(y_true[::-1], y_pred[::-1], return_all=True) == result
    with pytest.raises(TypeError, match="these true labels cannot be sorted together"):
        jaccard_concentration_index(y_true, y_pred, return_all=True,
                                    ordered_labels=["one", "two", "B"])
    # Without return_all, ordered_labels is not read (as in the package).
    assert jaccard_concentration_index(y_true, y_pred, ordered_labels=["B"]) == result["score"]


def test_a_str_noise_label_among_int_clusters() -> None:
    """Only the scored clusters are sorted, so a str noise label among ints is fine."""
    y_true = [0, 0, 1, 1, 2, 2]
    ours = jaccard_concentration_index(y_true, [3, 3, 1, "noise", 1, 2], "noise",
                                       return_all=True)
    assert_results_close(
        ours, quiet(package_jci, y_true, [3, 3, 1, -1, 1, 2], -1, return_all=True))


def test_noise_label_is_matched_by_equality() -> None:
    y_true, y_pred = [0, 0, 1, 1], [5, 5, 6, -1]
    expected = jaccard_concentration_index(y_true, y_pred, -1)
    assert jaccard_concentration_index(y_true, y_pred, -1.0) == expected
    assert jaccard_concentration_index(y_true, y_pred, 99) == jaccard_concentration_index(
        y_true, y_pred)  # absent: ignored
    assert jaccard_concentration_index(y_true, y_pred, float("nan")) == (
        jaccard_concentration_index(y_true, y_pred))  # can name no cluster: ignored


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [
        (np.array([3, 1, 2, 1] * 3), np.array([7, 7, 8, 9] * 3)),  # narrow int range: counted
        (np.array([10**12, -(10**12), 5] * 4), np.array([0, 1, 1] * 4)),  # wide: np.unique
        (np.array([3, 1, 2, 1] * 3, dtype=np.uint8), np.array([7, 7, 8, 9] * 3)),
        (np.array([0.5, 1.5, 0.5, 2.5] * 3), np.array([True, False, True, True] * 3)),
        (np.array(["b", "a", "b", "c"] * 3), np.array(["x", "y", "x", "x"] * 3)),
        (["b", "a", "b", "c"] * 3, ["x", "y", "x", "x"] * 3),  # lists of str: a dictionary
        ([(1, 2), (3, 4), (1, 2), (5,)] * 3, [0, 1, 1, 0] * 3),  # tuples stay labels
        (np.array([3, 1, 2, 1] * 3, dtype=object), np.array([7, 7, 8, 9] * 3, dtype=object)),
    ],
)
def test_every_encoding_gives_the_package_result(y_true: Any, y_pred: Any) -> None:
    if isinstance(y_true[0], tuple):  # the package reads a list of tuples as a 2-D array
        expected = quiet(package_jci, [str(t) for t in y_true], y_pred, return_all=True)
    else:
        expected = quiet(package_jci, y_true, y_pred, return_all=True)
    assert_results_close(jaccard_concentration_index(y_true, y_pred, return_all=True), expected)


# ---------------------------------------------------------------------------
# The sparse computation against the dense formula


def dense_jci(table: np.ndarray) -> dict[str, Any]:
    """The JCI of a dense table (labels in order, no noise), written from the definitions with
    whole rows and columns of numpy: every cell, empty or not, takes part."""
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    rows, columns = table.sum(axis=1), table.sum(axis=0)
    n = table.shape[0]
    jaccard = table / (rows[:, None] + columns[None, :] - table)
    closest = np.argmax(jaccard, axis=0)
    best = jaccard.max(axis=0)
    shares = table / columns
    root_sum = np.sqrt((shares**2).sum(axis=0))
    if n < 2:
        concentration_ = np.ones(table.shape[1])
    else:  # sum p**2 - 1/n as a variance: no cancellation near uniform columns
        excess = ((shares - 1 / n) ** 2).sum(axis=0)
        concentration_ = np.sqrt(excess / (root_sum + math.sqrt(1 / n)) / (1 - math.sqrt(1 / n)))
    scores = np.sqrt(best * concentration_)
    return {"score": float((scores * columns).sum() / columns.sum()),
            "closest": closest.tolist(), "best": best.tolist(),
            "concentration": concentration_.tolist()}


@st.composite
def sparse_tables(draw: Any) -> np.ndarray:
    """Tables up to 40 x 40, mostly empty, some rows and columns entirely so."""
    rows, columns = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    cells = draw(st.lists(st.tuples(st.integers(0, rows - 1), st.integers(0, columns - 1),
                                    st.integers(1, 10**6)), min_size=1, max_size=60))
    table = np.zeros((rows, columns), dtype=np.int64)
    for i, j, count in cells:
        table[i, j] = count
    return table


@given(sparse_tables())
def test_the_cells_give_the_dense_formulas_result(table: np.ndarray) -> None:
    """From the non-empty cells alone, in any order, the JCI of the dense table."""
    rows, columns = np.nonzero(table)
    shuffle = np.random.default_rng(len(rows)).permutation(len(rows))
    labels = list(range(table.shape[0])), list(range(table.shape[1]))
    ours = jaccard_concentration_index_from_cells(
        *labels, rows[shuffle], columns[shuffle], table[rows, columns][shuffle], return_all=True)
    dense = dense_jci(table)
    assert ours["score"] == pytest.approx(dense["score"], rel=1e-13)
    clusters = ours["cluster_results"]
    kept_rows = np.flatnonzero(table.sum(axis=1))
    assert [kept_rows[c["closest_label_index"]] for c in clusters] == [
        kept_rows[i] for i in dense["closest"]]
    assert [c["max_jaccard_index"] for c in clusters] == dense["best"]  # the same divisions
    for mine, theirs in zip([c["concentration"] for c in clusters], dense["concentration"]):
        assert mine == pytest.approx(theirs, rel=1e-13, abs=1e-15)
    assert jaccard_concentration_index_from_table(table, *labels, return_all=True) == ours


# ---------------------------------------------------------------------------
# Bad input: exact messages


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: concentration([1.0, float("inf")]), ValueError,
         "values must be finite, got values[1] = inf"),
        (lambda: concentration([1, 2], virtual_length=1), ValueError,
         "virtual_length must be 0 or at least len(values) = 2, got 1"),
        (lambda: concentration([1, 2], virtual_length=-3), ValueError,
         "virtual_length must be 0 or at least len(values) = 2, got -3"),
        (lambda: concentration([1, 2], virtual_length=4.0), TypeError,
         "virtual_length must be an integer, got 4.0 (float)"),
        (lambda: concentration([1, 2], virtual_length=True), TypeError,
         "virtual_length must be an integer, got True"),
        (lambda: concentration([[1, 2]]), ValueError,
         "values must be one-dimensional, got shape (1, 2)"),
        (lambda: concentration(["a", "b"]), ValueError,
         "values must be real numbers, got dtype <U1"),
        (lambda: concentration([1, None]), ValueError,
         "values must be real numbers, got values[1] = None"),
        (lambda: jaccard_concentration_index([1, 2, 3], [1, 2]), ValueError,
         "y_true and y_pred have different lengths (3 and 2)"),
        (lambda: jaccard_concentration_index(np.ones((2, 2)), [1, 2]), ValueError,
         "y_true must be one-dimensional, not 2-dimensional"),
        (lambda: jaccard_concentration_index(3, [1]), TypeError,
         "y_true must be a sequence of labels, not int"),
        (lambda: jaccard_concentration_index([1, None, 2], [1, 1, 1]), ValueError,
         "y_true[1]: None is not a valid label"),
        (lambda: jaccard_concentration_index([1, 1], np.array([0.5, np.nan])), ValueError,
         "y_pred[1]: NaN is not a valid label (it is not equal to itself)"),
        (lambda: jaccard_concentration_index([1, 1], ["a", ["b"]]), TypeError,
         "y_pred[1]: label ['b'] is unhashable (type list)"),
        (lambda: jaccard_concentration_index([], []), ValueError,
         "the Jaccard-Concentration Index needs at least one element: the table is empty"),
        (lambda: jaccard_concentration_index([1, 2], [-1, -1], -1), ValueError,
         "every element is in the noise cluster noise_label=-1: the Jaccard-Concentration "
         "Index needs at least one element outside it"),
        (lambda: jaccard_concentration_index([1, 2], [0, 0], noise_label=[0]), TypeError,
         "noise_label must be hashable, got [0] (list)"),
        (lambda: jaccard_concentration_index([1, 2], [0, 0], None, True, ["a"]), ValueError,
         "ordered_labels must name each of the 2 true labels, got 1"),
        (lambda: jaccard_concentration_index_from_table([[1, -2]], ["a"], [1, 2]), ValueError,
         "table[0, 1] must be a non-negative integer count, not -2"),
        (lambda: jaccard_concentration_index_from_table(
            np.array([[1, 2.5]], dtype=object), ["a"], [1, 2]), ValueError,
         "table[0, 1] must be a non-negative integer count, not 2.5"),
        (lambda: jaccard_concentration_index_from_table([[1.0, 2.0]], ["a"], [1, 2]),
         ValueError, "table must hold integer counts, got dtype float64"),
        (lambda: jaccard_concentration_index_from_table([[1, 2]], ["a"], [1]), ValueError,
         "table must have shape (len(reference_labels), len(model_labels)) = (1, 1), "
         "got (1, 2)"),
        (lambda: jaccard_concentration_index_from_table([[1, 2]], ["a"], [1, 1.0]), ValueError,
         "model_labels must be distinct, got 1.0 twice"),
        (lambda: jaccard_concentration_index_from_table([[2**40] * 10] * 1000, list(range(1000)),
                                                        list(range(10))), ValueError,
         "table counts must total at most 2**53, got 10995116277760000"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1, 2], [0, 0], [0, 2], [1, 1]),
         ValueError, "columns[1] = 2 is not a position in the 2 labels"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1], [-1], [0], [1]),
         ValueError, "rows[0] = -1 is not a position in the 1 labels"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1], [0.0], [0], [1]),
         ValueError, "rows must be a 1-d sequence of integer positions, got float64 values of "
         "shape (1,)"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1, 2], [0, 0], [0, 1], [1]),
         ValueError, "rows, columns and counts must have one entry per cell, got lengths 2, 2 "
         "and 1"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1, 2], [0, 0], [1, 1], [1, 2]),
         ValueError, "cells must be listed once each: the cell (0, 1) is listed twice"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1, 2], [0, 0], [0, 1], [1, -2]),
         ValueError, "counts[1] must be a non-negative integer count, not -2"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1], [0], [0], [2.0]),
         ValueError, "counts must hold integer counts, got dtype float64"),
        (lambda: jaccard_concentration_index_from_cells(["a"], [1, 2], [0, 0], [0, 1],
                                                        [2**53, 1]),
         ValueError, "counts must total at most 2**53, got 9007199254740993"),
    ],
)
def test_bad_input_gets_a_clear_error(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_empty_table_without_labels() -> None:
    with pytest.raises(ValueError, match="the table is empty"):
        jaccard_concentration_index_from_table(np.zeros((0, 0), dtype=np.int64), [], [])
    with pytest.raises(ValueError, match="the table is empty"):
        jaccard_concentration_index_from_table([], [], [])


# ---------------------------------------------------------------------------
# The accumulator: PartitionComparison.jaccard_concentration_index


def _scores(y_true: list[Any], y_pred: list[Any], noise_label: Any, ordered: Any,
            comparison: PartitionComparison) -> None:
    """The accumulator's answer equals the function's on the same elements, or both refuse."""
    options = {"noise_label": noise_label, "return_all": True}
    if ordered:
        options["ordered_labels"] = [f"L{i}" for i in range(len(set(y_true)))]
    if not y_true or all(p == noise_label for p in y_pred):  # empty, or all noise
        with pytest.raises(ValueError, match="at least one element") as ours:
            jaccard_concentration_index(y_true, y_pred, **options)
        with pytest.raises(ValueError) as accumulated:
            comparison.jaccard_concentration_index(**options)
        assert str(accumulated.value) == str(ours.value)
        return
    expected = jaccard_concentration_index(y_true, y_pred, **options)
    assert comparison.jaccard_concentration_index(**options) == expected
    assert comparison.jaccard_concentration_index(noise_label) == expected["score"]


@given(labelings(), st.data())
@example((["b", 1, "b", 2], [1, "x", "x", 1], "x", ()), None)  # mixed types
def test_accumulator_equals_function_at_every_prefix_after_merges_and_removals(
    case: tuple[Any, Any, Any, Any], data: Any
) -> None:
    y_true, y_pred, noise_label, ordered = case
    y_true, y_pred = list(y_true), list(y_pred)
    ordered = bool(len(ordered))
    streamed = PartitionComparison()
    _scores([], [], noise_label, ordered, streamed)  # empty: both refuse
    for k, (t, p) in enumerate(zip(y_true, y_pred)):
        streamed.add(t, p)
        _scores(y_true[: k + 1], y_pred[: k + 1], noise_label, ordered, streamed)
    if data is None:
        return

    cut = data.draw(st.integers(0, len(y_true)))
    merged = (PartitionComparison.from_labels(y_true[:cut], y_pred[:cut])
              + PartitionComparison.from_labels(y_true[cut:], y_pred[cut:]))
    _scores(y_true, y_pred, noise_label, ordered, merged)

    # Remove the first `cut` elements: labels left without elements stop counting.
    streamed.remove_many(y_true[:cut], y_pred[:cut])
    _scores(y_true[cut:], y_pred[cut:], noise_label, ordered, streamed)
