"""The Jaccard-Concentration Index of two label sequences.

Labels are encoded to codes with numpy (sorting for numbers and strings, a
dictionary for anything else), the codes counted into a contingency table with
one ``bincount``, and the table scored by
:func:`contingency.formulas.concentration.jaccard_concentration_index_from_table`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Literal, cast, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency._labels import check_label
from contingency.formulas.concentration import (
    JaccardConcentrationResult,
    jaccard_concentration_index_from_table,
)

__all__ = ["jaccard_concentration_index"]

Codes = NDArray[np.intp]


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
    value). Empty input, or input that is all noise, raises ValueError: there
    is no cluster to score. See
    :func:`~contingency.formulas.concentration.jaccard_concentration_index_from_table`
    for ties, label order (and labels that cannot be sorted) and rounding.

    >>> jaccard_concentration_index([1, 2, 3], [1, 2])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred must have the same length, got 3 and 2
    >>> jaccard_concentration_index([], [])
    Traceback (most recent call last):
    ...
    ValueError: the Jaccard-Concentration Index needs at least one element: the table is empty
    """
    true_labels, true_codes = _encode(y_true, "y_true")
    pred_labels, pred_codes = _encode(y_pred, "y_pred")
    if true_codes.size != pred_codes.size:
        raise ValueError(
            f"y_true and y_pred must have the same length, got {true_codes.size} "
            f"and {pred_codes.size}"
        )
    n_pred = len(pred_labels)
    table = np.bincount(
        true_codes * n_pred + pred_codes, minlength=len(true_labels) * n_pred
    ).reshape(len(true_labels), n_pred)
    return jaccard_concentration_index_from_table(
        table,
        true_labels,
        pred_labels,
        noise_label=noise_label,
        return_all=return_all,
        ordered_labels=ordered_labels,
    )


def _encode(labels: ArrayLike, name: str) -> tuple[list[Hashable], Codes]:
    """The distinct labels in ``labels`` and each element's index among them.

    Numbers are encoded by numpy: integers in a narrow range are counted in
    place, other numbers sorted by ``numpy.unique``. Anything else (strings,
    tuples, mixed types) is looked up in a dictionary, in first-seen order:
    that is faster than sorting strings, and keeps ``[1, "a"]`` from becoming
    the strings ``["1", "a"]``. Each distinct label is checked once, and an
    invalid one is reported at its first position, as ``name[i]``.
    """
    if isinstance(labels, np.ndarray):
        if labels.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {labels.shape}")
        array = labels
    elif isinstance(labels, (list, tuple)) and labels and isinstance(labels[0], (str, bytes)):
        return _encode_objects(list(labels), name)  # skip numpy's conversion to strings
    else:
        try:
            array = np.asarray(labels)
        except ValueError:  # ragged: sequences of different lengths, e.g. tuples as labels
            return _encode_objects(list(cast("Iterable[Any]", labels)), name)
        if array.ndim == 0:
            raise ValueError(f"{name} must be a sequence of labels, got {labels!r}")
        if array.ndim > 1 or array.dtype.kind not in "biuf":
            return _encode_objects(list(cast("Iterable[Any]", labels)), name)
    kind = array.dtype.kind
    if kind not in "biuf":
        return _encode_objects(array.tolist(), name)
    if kind == "f":
        nan = np.isnan(array)
        if nan.any():
            check_label(float("nan"), f"{name}[{int(np.argmax(nan))}]")  # raises
    if kind in "iu" and array.size:
        low, high = int(array.min()), int(array.max())
        if high - low <= 2 * array.size + 1024 and high < 2**63:  # count instead of sorting
            offsets = (array - low).astype(np.intp)
            present = np.bincount(offsets, minlength=high - low + 1) > 0
            codes = (np.cumsum(present) - 1)[offsets]
            return (np.flatnonzero(present) + low).tolist(), codes.astype(np.intp)
    distinct, inverse = np.unique(array, return_inverse=True)
    return distinct.tolist(), inverse.reshape(-1).astype(np.intp)


def _encode_objects(items: list[Any], name: str) -> tuple[list[Hashable], Codes]:
    """Dictionary encoding, for labels numpy cannot compare as values."""
    index: dict[Hashable, int] = {}
    try:
        codes = np.fromiter(
            (index.setdefault(label, len(index)) for label in items), dtype=np.intp, count=len(items)
        )
    except TypeError:
        for position, label in enumerate(items):
            check_label(label, f"{name}[{position}]")  # raises at the first unhashable label
        raise
    labels = list(index)
    for code, label in enumerate(labels):
        try:
            check_label(label, name)
        except (TypeError, ValueError):
            check_label(label, f"{name}[{int(np.argmax(codes == code))}]")  # raises
    return labels, codes
