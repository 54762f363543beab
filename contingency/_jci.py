"""The Jaccard-Concentration Index of two label sequences.

The labels are counted into a contingency table by
:func:`contingency._table.count_cells` (the library's one path from labels to
a table, the one :meth:`contingency.PartitionComparison.from_labels` takes,
here with errors naming ``y_true`` and ``y_pred``), and the table's non-empty
cells are scored by
:func:`contingency.formulas.concentration.jaccard_concentration_index_from_cells`,
the same call :meth:`PartitionComparison.jaccard_concentration_index` makes:
memory linear in the non-empty cells, never the dense table.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Literal, overload

from numpy.typing import ArrayLike

from contingency._backend import new_table
from contingency._table import count_cells
from contingency.formulas.concentration import (
    JaccardConcentrationResult,
    jaccard_concentration_index_from_cells,
)

__all__ = ["jaccard_concentration_index"]


@overload
def jaccard_concentration_index(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    noise_label: Hashable | None = ...,
    return_all: Literal[False] = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float: ...


@overload
def jaccard_concentration_index(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    noise_label: Hashable | None,
    return_all: Literal[True],
    ordered_labels: Sequence[Any] = ...,
) -> JaccardConcentrationResult: ...


@overload
def jaccard_concentration_index(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    noise_label: Hashable | None = ...,
    *,
    return_all: Literal[True],
    ordered_labels: Sequence[Any] = ...,
) -> JaccardConcentrationResult: ...


@overload
def jaccard_concentration_index(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    noise_label: Hashable | None = ...,
    return_all: bool = ...,
    ordered_labels: Sequence[Any] = ...,
) -> float | JaccardConcentrationResult: ...


def jaccard_concentration_index(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    noise_label: Hashable | None = None,
    return_all: bool = False,
    ordered_labels: Sequence[Any] = (),
) -> float | JaccardConcentrationResult:
    """Jaccard-Concentration Index of predicted clusters ``y_pred`` against true labels ``y_true``.

    Each predicted cluster scores ``sqrt(max Jaccard index x concentration)``:
    its best Jaccard index with any true label, and how concentrated its
    elements are over the true labels (:func:`contingency.concentration`). The
    index is the average of these scores weighted by cluster size. Same
    arguments and results as the package ``jaccard-concentration-index``
    1.0.5.

    A perfect clustering scores 1, whatever the clusters are called:

    >>> jaccard_concentration_index([0, 0, 1, 1, 2, 2], ["x", "x", "y", "y", "z", "z"])
    1.0

    Merging two true labels into one cluster costs both its Jaccard index and
    its concentration; splitting a true label costs only the Jaccard index:

    >>> round(jaccard_concentration_index([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.6842
    >>> round(jaccard_concentration_index([0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 2, 2]), 4)
    0.8047

    ``return_all=True`` adds the size-weighted averages of both parts and one
    dict per cluster, in sorted label order; ``ordered_labels`` names the true
    labels, in their sorted order:

    >>> result = jaccard_concentration_index(
    ...     ["cat", "cat", "dog", "dog", "dog"], [1, 1, 1, 2, 2],
    ...     return_all=True, ordered_labels=["Cat", "Dog"])
    >>> [(c["closest_label"], round(c["score"], 4), c["size_proportion"])
    ...  for c in result["cluster_results"]]
    [('Cat', 0.4908, 0.6), ('Dog', 0.8165, 0.4)]

    Elements of the ``noise_label`` cluster are scored by no cluster, but the
    true labels they belong to still count them, so noise lowers the index:

    >>> jaccard_concentration_index([0, 0, 1, 1], [5, 5, 6, 6])
    1.0
    >>> round(jaccard_concentration_index([0, 0, 1, 1], [5, 5, 6, -1], noise_label=-1), 4)
    0.9024

    Inputs must be one-dimensional and of the same length, and every label
    valid (:func:`contingency._labels.check_label`: no None, NaN or unhashable
    value); mixed types are fine. Empty input, or input that is all noise,
    raises ValueError: there is no cluster to score. See
    :func:`~contingency.formulas.concentration.jaccard_concentration_index_from_table`
    for ties, label order (and labels that cannot be sorted) and rounding.

    >>> jaccard_concentration_index([1, 2, 3], [1, 2])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths (3 and 2)
    >>> jaccard_concentration_index([], [])
    Traceback (most recent call last):
    ...
    ValueError: the Jaccard-Concentration Index needs at least one element: the table is empty
    """
    table = new_table()
    table.apply(count_cells(y_true, y_pred, where="jaccard_concentration_index",
                                names=("y_true", "y_pred")), "jaccard_concentration_index")
    return jaccard_concentration_index_from_cells(
        *table.sorted_cells(), noise_label=noise_label, return_all=return_all,
        ordered_labels=ordered_labels)
