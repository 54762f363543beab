"""merge is associative and commutative: any split of a stream, merged in any tree and order, gives one state.

What a distributed evaluation relies on (contingency.dask, Spark's
treeAggregate, any map-reduce): the data is cut into random parts, each part
is counted by its own accumulator (one result at a time or in a batch), and
the accumulators are merged pairwise in a random order (a random binary
tree, each merge with a random side on the left) until one is left. Against
the accumulator that saw the whole stream in one process: every count is
identical, the pair-counting scores are identical, every other score agrees
to 1e-15 relative. Only the order of an open category set may differ (it
follows the order of the merges), so counts are compared by category.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import (
    Contingency,
    GroupedContingency,
    MulticlassThresholdContingency,
    PairedComparison,
    PartitionComparison,
    ThresholdContingency,
)
from tests.strategies import categories_and_results
from tests.strategies_partition import labelings

#: "every other score equal to 1e-15 relative" (absolute near zero).
RELATIVE = 1e-15


def _cuts(draw: Any, size: int) -> list[tuple[int, int]]:
    """A random split of ``range(size)`` into 1 to 6 consecutive parts (some possibly empty)."""
    points = sorted(draw(st.lists(st.integers(0, size), max_size=5)))
    bounds = [0, *points, size]
    return list(itertools.pairwise(bounds))


def _tree_merge(draw: Any, parts: list[Any]) -> Any:
    """Merge ``parts`` pairwise in a random order: a random binary tree, each with a random left side."""
    parts = list(parts)
    while len(parts) > 1:
        first = draw(st.integers(0, len(parts) - 1))
        left = parts.pop(first)
        right = parts.pop(draw(st.integers(0, len(parts) - 1)))
        if draw(st.booleans()):
            left, right = right, left
        parts.append(left.merge(right) if draw(st.booleans()) else left + right)
    return parts[0]


def _close(ours: float, expected: float) -> bool:
    if math.isnan(expected):
        return math.isnan(ours)
    return ours == expected or abs(ours - expected) <= RELATIVE * abs(expected)


def _flat(value: Any, path: str = "") -> dict[str, Any]:
    """Nested scores as ``{path: number}``; per-category lists keyed by category, not position."""
    if isinstance(value, dict):
        return {key: item for name, inner in value.items()
                for key, item in _flat(inner, f"{path}/{name}").items()}
    if isinstance(value, list) and value and isinstance(value[0], dict) and "category" in value[0]:
        return {key: item for entry in value
                for key, item in _flat({k: v for k, v in entry.items() if k != "category"},
                                       f"{path}/{entry['category']!r}").items()}
    return {path: value}


# Contingency ----------------------------------------------------------------------------------


def _classification_counts(accumulator: Contingency) -> tuple[Any, ...]:
    """Every count, independent of the order of the categories."""
    state = accumulator.to_dict()
    cells = {label: (stats["a"], stats["b"], stats["c"], stats["d"])
             for label, stats in (accumulator.category_stats().items() if accumulator.categories
                                  else ())}
    shapes = sorted(tuple(shape) for shape in state["result_shapes"])
    return accumulator.n_results, accumulator.micro_table, cells, shapes


@given(categories_and_results(), st.booleans(), st.data())
def test_contingency_merge_of_any_split_in_any_order_is_the_one_process_state(case, declared, data):
    cats, stream = case
    declared_categories = cats if declared else None

    def fresh() -> Contingency:
        return Contingency(declared_categories, unknown="add")

    whole = fresh()
    for assigned, correct in stream:
        whole.add_result(assigned, correct)
    parts = []
    for start, stop in _cuts(data.draw, len(stream)):
        part = fresh()
        chunk = stream[start:stop]
        if data.draw(st.booleans()):
            part.add_results([sorted(a, key=repr) for a, _ in chunk],
                             [sorted(c, key=repr) for _, c in chunk])
        else:
            for assigned, correct in chunk:
                part.add_result(assigned, correct)
        parts.append(part)
    merged = _tree_merge(data.draw, parts)

    assert set(merged.categories) == set(whole.categories)
    assert _classification_counts(merged) == _classification_counts(whole)
    ours, expected = _flat(merged.scores()), _flat(whole.scores())
    assert ours.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, float):
            assert _close(ours[key], value), (key, ours[key], value)
        else:
            assert ours[key] == value, key
    for beta in (0.5, 2.0):
        for average in ("micro", "macro", "weighted", "samples"):
            if average in ("macro", "weighted") and not whole.categories:
                continue
            assert _close(merged.f_beta(beta, average), whole.f_beta(beta, average))


# PartitionComparison ------------------------------------------------------------------------

#: Scores that are exact functions of the pair counts: identical, not merely close.
PAIR_SCORES = ("rand_index", "accuracy", "distance", "precision", "recall", "f1", "jaccard",
               "fowlkes_mallows", "adjusted_rand_index")
#: Scores computed from the table's information sums (and purity): to 1e-15 relative.
OTHER_SCORES = ("mutual_information", "entropy_reference", "entropy_model",
                "variation_of_information", "normalized_mutual_information",
                "adjusted_mutual_information", "homogeneity", "completeness", "v_measure",
                "purity", "inverse_purity", "entropy")


def _partition_counts(comparison: PartitionComparison) -> tuple[Any, ...]:
    reference, model, table = comparison.contingency_table()
    cells = {(reference[i], model[j]): int(table[i, j])
             for i in range(len(reference)) for j in range(len(model)) if table[i, j]}
    return comparison.n_elements, cells, comparison.pair_confusion(), comparison.table_sums()


def _score(comparison: PartitionComparison, name: str) -> float:
    value = getattr(comparison, name)
    return float(value() if callable(value) else value)


@given(labelings(max_size=60), st.data())
def test_partition_merge_of_any_split_in_any_order_is_the_one_process_state(labeling, data):
    reference, model = labeling
    whole = PartitionComparison.from_labels(reference, model)
    parts = []
    for start, stop in _cuts(data.draw, len(reference)):
        part = PartitionComparison()
        if data.draw(st.booleans()):
            part.add_many(reference[start:stop], model[start:stop])
        else:
            for r, m in zip(reference[start:stop], model[start:stop]):
                part.add(r, m)
        parts.append(part)
    merged = _tree_merge(data.draw, parts)

    assert merged == whole
    assert _partition_counts(merged) == _partition_counts(whole)
    for name in PAIR_SCORES:
        ours, expected = _score(merged, name), _score(whole, name)
        assert ours == expected or (math.isnan(ours) and math.isnan(expected)), name
    for name in OTHER_SCORES:
        assert _close(_score(merged, name), _score(whole, name)), name


# The operators every accumulator has (contingency._merging.Merging) ---------------------------

def _fed(kind: str, thread_safe: bool) -> Any:
    if kind == "Contingency":
        made: Any = Contingency(thread_safe=thread_safe)
        made.add_results(["a", "b", "a"], ["a", "a", "b"])
    elif kind == "PartitionComparison":
        made = PartitionComparison(thread_safe=thread_safe)
        made.add_many(["a", "b", "a"], [1, 1, 2])
    elif kind == "PairedComparison":
        made = PairedComparison(thread_safe=thread_safe)
        made.add_result("a", "b", "a")
    elif kind == "GroupedContingency":
        made = GroupedContingency(thread_safe=thread_safe)
        made.add_result("a", "b", group="g")
    elif kind == "ThresholdContingency":
        made = ThresholdContingency()
        made.add_results([0.2, 0.7], [0, 1])
    else:
        made = MulticlassThresholdContingency(classes=["a", "b"])
        made.add_results([[0.2, 0.8], [0.6, 0.4]], ["b", "a"])
    return made


@pytest.mark.parametrize("kind", ["Contingency", "PartitionComparison", "PairedComparison",
                                  "GroupedContingency", "ThresholdContingency",
                                  "MulticlassThresholdContingency"])
def test_every_accumulator_adds_merges_and_copies_by_the_same_rule(kind: str) -> None:
    """``a + b`` is ``a.copy().merge(b)`` (a thread-safe side too), ``a += b`` merges in place,
    ``copy.copy`` is independent, and another kind of operand is Python's TypeError."""
    import copy as copying

    safe = kind not in ("ThresholdContingency", "MulticlassThresholdContingency")
    one, other = _fed(kind, False), _fed(kind, safe)
    expected = one.copy().merge(other).to_dict()
    assert (one + other).to_dict() == expected == (other + one).to_dict()
    assert one.to_dict() == _fed(kind, False).to_dict()  # + leaves both sides as they were
    twin = copying.copy(one)
    twin += other
    assert twin.to_dict() == expected
    assert one.to_dict() == _fed(kind, False).to_dict()
    with pytest.raises(TypeError, match="unsupported operand"):
        one + 3  # type: ignore[operator]
