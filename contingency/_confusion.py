"""Contingency's table reads: precision, recall and F by every average; the confusion matrix and its scores.

Functions of a :class:`contingency._counts.Counts`, the categories to read in their order (``order``,
which the accumulator chooses: its categories, or a ``labels=`` argument)
and the settings. They pick the counts a read needs and hand them to one
function of :mod:`contingency.formulas.classification`; no formula is
written here.

- Set-wise scores (:func:`set_wise`): precision, recall and F-beta with
  scikit-learn's averages. ``"micro"`` reads the micro table,
  ``"macro"`` and ``"weighted"`` the running sums of
  :mod:`contingency._category_sums` (constant time), ``"samples"`` the
  histogram of result shapes; ``None`` gives each category's value,
  ``"binary"`` the value of the positive category of a two-category
  problem; ``labels=`` reads the cells of the categories it names.
- The K x K confusion matrix of single-label results, from the coded pairs
  (O(pairs), plus the dense result when one is asked for), and its scores:
  Cohen's kappa (weighted from the pairs; plain from running margin sums,
  in constant time), balanced accuracy and the multiclass Matthews
  correlation (running sums).
- The per-category 2 x 2 tables (:func:`multilabel_confusion_matrix`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from contingency._changes import HIT, MISS, PAIR_SHIFT
from contingency._counts import Counts
from contingency._labels import check_label, unknown_pos_label
from contingency.formulas import classification as _formulas
from contingency.formulas._arguments import check_choice, check_flag
from contingency.formulas._numeric import INT64_SAFE, ZeroDivision, average, no_category

__all__ = ["AVERAGES", "SET_WISE", "averaged", "balanced_accuracy",
           "check_average", "check_single_label", "cohen_kappa", "confusion_cells",
           "confusion_matrix", "confusion_sums", "count_columns", "multiclass_matthews_corrcoef",
           "multilabel_confusion_matrix", "running_mean", "samples_mean", "set_wise", "supports"]

Average = Literal["micro", "macro", "weighted", "samples"]
SetWise = Literal["micro", "macro", "weighted", "samples", "binary"]
Normalize = Literal["true", "pred", "all"]

#: The averages of every per-category score (the properties' prefixes).
AVERAGES: tuple[str, ...] = ("micro", "macro", "weighted", "samples")
#: The averages of precision, recall and F (scikit-learn's ``average=``): ``None`` and
#: ``"binary"`` besides.
SET_WISE: tuple[str | None, ...] = (None, "binary", *AVERAGES)

Score = Callable[..., Any]  # a per-table score of formulas.classification: (a, b, c, d, *, zero_division)


def check_average(value: object, where: str, allowed: Sequence[str | None] = AVERAGES) -> Any:
    """``value`` if it is one of ``allowed``, else ``ValueError`` naming the read ``where`` and
    listing them."""
    if value.__class__ is str and value in allowed:  # the common case, without a call
        return value
    return check_choice(value, "average", tuple(allowed), where)


# Averages of a per-category score -------------------------------------------------------------


def running_mean(counts: Counts, name: str, mode: ZeroDivision, weighted: bool = False) -> float:
    """The macro (or support-weighted) mean of score ``name`` over every category, from running sums."""
    if weighted:  # (the core's, both: in C on the kernel)
        return counts.weighted_mean(name, mode)
    return counts.macro_mean(name, mode)


def samples_mean(counts: Counts, score: Score, mode: ZeroDivision,
                 order: Sequence[Hashable] | None = None, where: str = "") -> float:
    """``score`` of each result's own table, averaged over results (from the result shapes).

    With ``order`` (a ``labels=`` argument) every category some result names
    must be in it: a result's table over a subset of the categories needs the
    result's own categories, which the counts do not keep.
    """
    if order is not None and len(order) < len(counts.a):
        chosen = set(order)
        left = [label for label in counts.a if label not in chosen
                and (counts.a[label] or counts.b[label] or counts.c[label])]
        if left:
            raise ValueError(
                f"{where}: average='samples' over labels that leave out {left[0]!r}, which "
                "results name, needs each result's own categories, which an accumulator of "
                "counts does not keep (it keeps how many results had each shape); name every "
                "category the results name, or choose another average")
    return _formulas.samples_average(score, *counts.shape_columns(), zero_division=mode)


def category_cells(counts: Counts, order: Sequence[Hashable],
                   places: NDArray[np.intp] | None = None
                   ) -> tuple[list[int], list[int], list[int], list[int]]:
    """Cells ``a``, ``b``, ``c`` and ``d`` of the categories of ``order``, in that order.

    ``places``, where each category of ``order`` is in table order when the caller knows it
    (the categories' own order: ``Contingency._orders``), takes the counts' columns whole, in
    table order, to that order, with no look-up by label (a million of them, in an order that
    is not the table's, cost seconds).
    """
    a, b, c, n = counts.a, counts.b, counts.c, counts.n
    if places is None:
        columns = [a[label] for label in order], [b[label] for label in order], [
            c[label] for label in order]
    else:
        columns = tuple(np.asarray(column, dtype=np.int64 if not counts.scale else object
                                   )[places].tolist() for column in counts.columns())
    return (*columns, [n - x - y - z for x, y, z in zip(*columns)])


def count_columns(counts: Counts, cells: Sequence[list[int]]) -> tuple[Any, ...]:
    """Columns of cells (lists of exact counts) as int64 arrays, which the formulas score with
    numpy; as they are when a count could overflow int64 (weighted counts can)."""
    if counts.n < INT64_SAFE and all(not column or max(column) < INT64_SAFE
                                      for column in cells):
        return tuple(np.array(column, dtype=np.int64) for column in cells)
    return tuple(cells)


def supports(a: Any, c: Any) -> Any:
    """Each category's support ``a + c`` of two columns of :func:`count_columns`."""
    return a + c if isinstance(a, np.ndarray) else [x + y for x, y in zip(a, c)]


def averaged(counts: Counts, score: Score, how: str, mode: ZeroDivision,
             order: Sequence[Hashable] | None = None, where: str = "") -> float:
    """``score`` averaged as asked from the cells (every category, or those of ``order``).

    For scores and settings no running sum answers: O(categories read).
    ``"micro"`` is the score of the summed cells (the micro table, with
    ``set_entries``' part, when every category is read).
    """
    if how == "samples":
        return samples_mean(counts, score, mode, order, where)
    if order is None:
        if how == "micro":
            return float(score(*counts.micro, zero_division=mode))
        if not counts.ids:
            return no_category(mode)
    cells = counts.cell_columns() if order is None else category_cells(counts, order)
    if how == "micro":
        return float(score(*(sum(column) for column in cells), zero_division=mode))
    cells = count_columns(counts, cells)
    values = score(*cells, zero_division=mode)
    weights = supports(cells[0], cells[2]) if how == "weighted" else None
    return average(values, weights, empty=float(score(0, 0, 0, 0, zero_division=mode)))


def set_wise(counts: Counts, name: Literal["precision", "recall", "f_beta"], average: Any,
             mode: ZeroDivision, *, beta: float = 1.0, pos_label: Any = 1,
             order: Sequence[Hashable] | None = None, where: str = ""
             ) -> float | NDArray[np.float64]:
    """Precision, recall or F-beta averaged as scikit-learn's ``average=`` says.

    ``average`` is checked by the caller (:data:`SET_WISE`); ``order`` is the
    categories a ``labels=`` argument names (``None``: every category),
    required with ``average=None``, whose values come in its order.
    ``pos_label`` plays a part only with ``"binary"``; another value than
    ``None`` or 1 with any other average gives a ``UserWarning``, as in
    scikit-learn. Without ``order``, micro, macro and weighted reads of
    precision, recall and F1 cost O(1); F-beta of another beta reads every
    category's cells. Errors name the read ``where`` (``name`` if not given).
    """
    where = where or name
    if not (pos_label is None or (pos_label.__class__ is int and pos_label == 1)):  # (the default)
        pos_label = check_label(pos_label, f"{where}: pos_label")
        if average != "binary" and pos_label not in (None, 1):
            warnings.warn(f"{where}: pos_label={pos_label!r} plays no part unless "
                          f"average='binary' (average is {average!r}); labels=[{pos_label!r}] "
                          "scores that category alone", UserWarning, stacklevel=4)
    score: Score
    if name != "f_beta":
        running: str | None = name
        score = _formulas.precision if name == "precision" else _formulas.recall
    else:
        if not (beta.__class__ is float and beta == 1.0):
            beta = _formulas.check_beta(beta, where)
        running, score = ("f1", _formulas.f1) if beta == 1 else (
            None, partial(_formulas.f_beta, beta=beta))
    if order is None and running is not None and (average == "macro" or average == "weighted"
                                                  or average == "micro"):
        if average == "micro":
            return _formulas.SCALAR[running](*counts.micro, mode)
        return running_mean(counts, running, mode, weighted=average == "weighted")
    if average == "binary":
        return float(score(*_positive_cells(counts, pos_label, where), zero_division=mode))
    if average is None:
        assert order is not None  # the caller chose the categories
        values: NDArray[np.float64] = score(*category_cells(counts, order), zero_division=mode)
        return values
    return averaged(counts, score, average, mode, order, where)


def _positive_cells(counts: Counts, pos_label: object, where: str) -> tuple[int, int, int, int]:
    """The cells of ``pos_label`` for ``average="binary"``, checked as scikit-learn checks it.

    The results must be single-label and name two categories at most (a
    binary problem); ``pos_label`` must be one of them when they name two.
    A ``pos_label`` no result names (one category named, or none) has an empty
    table, whose scores are undefined.
    """
    _check_single_label(counts, where, "average='binary' scores one category of single-label "
                        "results (a binary problem); choose average=None, 'micro', 'macro', "
                        "'weighted' or 'samples'")
    named: list[Hashable] = []
    for label in counts.a:  # O(K) only while declared categories no result names come first
        if counts.a[label] or counts.b[label] or counts.c[label]:
            named.append(label)
            if len(named) > 2:
                raise ValueError(
                    f"{where}: average='binary' scores the positive category of a binary "
                    f"problem, but the results name more than two categories ({named[0]!r}, "
                    f"{named[1]!r}, {named[2]!r}, ...): a multiclass problem; choose "
                    "average=None, 'micro', 'macro' or 'weighted'")
    if pos_label in named:
        label = named[named.index(pos_label)]
        a, b, c = counts.a[label], counts.b[label], counts.c[label]
        return a, b, c, counts.n - a - b - c
    if len(named) == 2:
        raise unknown_pos_label(pos_label, named, where, " the results name")
    return 0, 0, 0, counts.n


# The confusion matrix of single-label results ---------------------------------------------------


def check_single_label(counts: Counts, where: str) -> None:
    """Refuse (``ValueError``) when any result counted is not single-label: O(1), from the shapes."""
    _check_single_label(counts, where, "a K x K confusion matrix and its scores describe "
                        "single-label results only: see category_stats() or "
                        "multilabel_confusion_matrix() for the per-category 2 x 2 tables")


def _check_single_label(counts: Counts, where: str, advice: str) -> None:
    other = counts.n - counts.shapes.get(HIT, 0) - counts.shapes.get(MISS, 0)
    if other:
        verb = "is" if other == 1 << counts.scale else "are"  # one whole result
        raise ValueError(
            f"{where}: {counts.reported(other)} of the {counts.reported(counts.n)} results "
            f"{verb} not single-label (one category assigned and one correct); {advice}")


def confusion_sums(counts: Counts, where: str) -> _formulas.ConfusionSums:
    """The sums over the confusion matrix its scores need, from running sums (single-label only)."""
    check_single_label(counts, where)
    margins = counts.margin_sums()
    correct = counts.micro[0] - counts.offset[0]  # the diagonal: the pooled cell a
    return _formulas.ConfusionSums(counts.n, correct, margins.products, margins.truth_squares,
                                   margins.assigned_squares)


def confusion_cells(counts: Counts, order: Sequence[Hashable]
                    ) -> tuple[list[int], list[int], list[int]]:
    """The non-empty cells of the confusion matrix over ``order``, by row then column.

    ``(rows, columns, counts)``: exact counts (in units of ``2**-scale``),
    positions in ``order``; pairs naming a category outside it are left out.
    Single-label results only (checked). O(pairs + len(order)).
    """
    check_single_label(counts, "confusion_cells")
    position = {counts.ids[label]: k for k, label in enumerate(order)}
    low = (1 << PAIR_SHIFT) - 1
    cells = []
    for code, count in counts.pairs.items():  # keyed code(correct) << PAIR_SHIFT | code(assigned)
        row, column = position.get(code >> PAIR_SHIFT), position.get(code & low)
        if row is not None and column is not None:
            cells.append((row, column, count))
    cells.sort()
    return [cell[0] for cell in cells], [cell[1] for cell in cells], [cell[2] for cell in cells]


def confusion_matrix(counts: Counts, order: Sequence[Hashable], normalize: Normalize | None,
                     where: str = "confusion_matrix") -> NDArray[Any]:
    """The dense K x K matrix over ``order`` (int64, float64 once a weight was fractional), or
    normalised (float64) by :func:`~contingency.formulas.classification.normalized_confusion`."""
    normalize = check_choice(normalize, "normalize",  # type: ignore[assignment]
                             (None, "true", "pred", "all"), where)
    check_single_label(counts, where)
    rows, columns, values = confusion_cells(counts, order)
    if normalize is not None:
        return _formulas.normalized_confusion(rows, columns, values, len(order), normalize)
    matrix = np.zeros((len(order), len(order)), dtype=np.float64 if counts.scale else np.int64)
    if rows:
        matrix[rows, columns] = [counts.reported(value) for value in values]
    return matrix


def cohen_kappa(counts: Counts, order: Sequence[Hashable] | None, weights: Any,
                mode: ZeroDivision) -> float:
    """Cohen's kappa of the confusion matrix over ``order`` (``None``: every category, unweighted,
    read from running sums in O(1)); weighted, or over ``order``, from its cells."""
    weights = check_choice(weights, "weights", (None, "linear", "quadratic"), "cohen_kappa")
    if order is None:
        return _formulas.cohen_kappa(confusion_sums(counts, "cohen_kappa"), zero_division=mode)
    check_single_label(counts, "cohen_kappa")
    return _formulas.weighted_cohen_kappa(*confusion_cells(counts, order), len(order),
                                          weights=weights, zero_division=mode)


def multiclass_matthews_corrcoef(counts: Counts, mode: ZeroDivision) -> float:
    """Gorodkin's R_K of the confusion matrix, from running sums."""
    return _formulas.multiclass_matthews_corrcoef(confusion_sums(counts, "matthews_corrcoef"),
                                                  zero_division=mode)


def balanced_accuracy(counts: Counts, adjusted: bool, mode: ZeroDivision) -> float:
    """The mean recall of the categories some result has as correct, from running sums."""
    check_single_label(counts, "balanced_accuracy")
    # Recall in "nan" mode leaves out the categories that are nobody's correct one: the plain
    # macro mean's running sums (the core's: in C on the kernel).
    mean = counts.macro_mean("recall", "nan")
    sums = counts.macro_sums("recall", "nan")  # (None: no category, none made)
    # Near chance the adjusted score needs the recalls exactly: (C[k, k], t_k) per category.
    a, c = counts.a, counts.c
    return _formulas.balanced_accuracy(mean, 0 if sums is None else sums[1],
                                       adjusted=bool(adjusted),
                                       zero_division=mode,
                                       recalls=lambda: ((a[k], a[k] + c[k]) for k in a
                                                        if a[k] + c[k]))


# The per-category 2 x 2 tables ---------------------------------------------------------------


def multilabel_confusion_matrix(counts: Counts, order: Sequence[Hashable],
                                samplewise: object = False) -> NDArray[Any]:
    """Each category's table ``[[d, b], [c, a]]`` over ``order``, shape (K, 2, 2).

    ``samplewise=True`` (scikit-learn's per-result tables, in result order)
    is refused: the counts do not keep each result.
    """
    if check_flag(samplewise, "samplewise", "multilabel_confusion_matrix"):
        raise ValueError(
            "multilabel_confusion_matrix: samplewise=True asks for each result's own 2 x 2 "
            "table, in the order the results came, which an accumulator of counts does not "
            "keep; it keeps how many results had each shape (to_dict()['result_shapes']: "
            "[both, assigned, correct, count]), from which average='samples' scores are read "
            "(precision(average='samples'), samples_f1, ...)")
    a, b, c, d = category_cells(counts, order)
    tables = [[[counts.reported(value) for value in row] for row in ((w, y), (z, x))]
              for x, y, z, w in zip(a, b, c, d)]
    return np.array(tables, dtype=np.float64 if counts.scale else np.int64
                    ).reshape(len(order), 2, 2)
