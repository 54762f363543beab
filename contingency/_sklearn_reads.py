"""Contingency's reads under scikit-learn's names: precision, recall, F by average; the confusion matrix.

:class:`ScikitLearnReads` is a mixin of :class:`~contingency.Contingency`
(slotted: it adds no state), which inherits every method here. Each method
checks its arguments, chooses the categories to read (``labels=``) and makes
one call into :mod:`contingency._confusion`, which picks the counts and hands
them to :mod:`contingency.formulas.classification`; nothing is computed here.
The class provides what these reads need of it, and nothing else: its counts
(``_counts``), its ``_zero_division``,
its categories in table order (``_order()``) and its running means of
per-category scores (``_running_mean()``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
from numpy.typing import NDArray

from contingency import _confusion
from contingency._confusion import Average, Normalize, SetWise
from contingency._labels import not_a_category
from contingency.formulas import classification as _formulas
from contingency.formulas._arguments import check_choice, check_flag
from contingency.formulas._numeric import shown

if TYPE_CHECKING:
    from contingency._counts import Counts
    from contingency.formulas._numeric import ZeroDivision

__all__ = ["Correlation", "Floats", "Labels", "PosLabel", "ScikitLearnReads",
           "install_property_reads"]

Correlation = Literal["micro", "macro", "multiclass"]
Floats = NDArray[np.float64]
Labels = Iterable[Hashable] | None  # a labels= argument: categories to read, in order
PosLabel = Hashable | None


#: The readers of the average properties that answer precision, recall and f1 with the
#: defaults ``pos_label=1`` and ``labels=None``: by average ("micro", "macro", "weighted"), the
#: property's own reader, the same read (filled by :func:`install_property_reads`).
_PRECISION_READS: dict[str, Callable[[Any], float]] = {}
_RECALL_READS: dict[str, Callable[[Any], float]] = {}
_F1_READS: dict[str, Callable[[Any], float]] = {}


def install_property_reads(cls: type) -> None:
    """Let :meth:`ScikitLearnReads.precision`, ``recall`` and ``f1`` answer a plain average by
    the property of ``cls`` that reads it (called once Contingency's properties exist)."""
    for reads, row in ((_PRECISION_READS, "precision"), (_RECALL_READS, "recall"),
                       (_F1_READS, "f1")):
        reads.update({average: getattr(cls, f"{average}_{row}").fget
                      for average in ("micro", "macro", "weighted")})


class ScikitLearnReads:
    """:class:`~contingency.Contingency`'s reads named and called as scikit-learn's metrics are."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the class provides (contingency._contingency)
        _counts: Counts
        _zero_division: ZeroDivision

        def _order(self) -> list[Hashable]: ...

        def _running_mean(self, name: str, weighted: bool = False) -> float: ...


    # Precision, recall and F in scikit-learn's call shape --------------------------------------

    @overload
    def precision(self, average: None, *, pos_label: PosLabel = 1, labels: Labels = None) -> Floats: ...
    @overload
    def precision(self, average: SetWise = "micro", *, pos_label: PosLabel = 1,
                  labels: Labels = None) -> float: ...
    def precision(self, average: SetWise | None = "micro", *, pos_label: PosLabel = 1,
                  labels: Labels = None) -> float | Floats:
        """Precision ``a / (a + b)``, averaged as ``sklearn.metrics.precision_score(average=...)`` does.

        ``average`` is one of

        - ``"micro"`` (the default, Perl's): of the micro table, :attr:`micro_precision`;
        - ``"macro"`` and ``"weighted"``: the mean over categories, plain or
          weighted by support ``a + c`` (:attr:`macro_precision`, :attr:`weighted_precision`);
        - ``"samples"``: each result's own precision, averaged over results;
        - ``None``: each category's precision, a float64 array in the order of
          :attr:`categories` (or of ``labels``);
        - ``"binary"`` (scikit-learn's default): the precision of category
          ``pos_label`` alone. As scikit-learn checks it, the results must be
          single-label and name two categories at most (else ``ValueError``:
          choose another average), and ``pos_label`` must be one of them when
          they name two (else ``ValueError`` naming it); when they name fewer,
          a ``pos_label`` they do not name has an empty table, whose precision
          is undefined (:attr:`zero_division`). ``labels`` is ignored, as in
          scikit-learn.

        ``pos_label`` other than ``None`` or 1 with another average plays no
        part and gives a ``UserWarning``, as in scikit-learn. ``labels`` picks
        the categories to read (each must be a category: ``ValueError``
        naming it otherwise): micro, macro and weighted averages then read
        their cells only, :meth:`set_entries`' micro table playing no part,
        and ``"samples"`` takes only a ``labels`` that leaves out no category
        a result names (each result's categories are not kept). Undefined
        values follow :attr:`zero_division`. Micro, macro and weighted reads
        without ``labels`` take constant time; the others read every category
        (or result shape) they cover.

        >>> from contingency import Contingency

        >>> s = Contingency.from_labels([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], zero_division=0.0)
        >>> s.precision("binary"), s.precision("binary", pos_label=0)  # precision_score(y_true, y_pred)
        (1.0, 0.6666666666666666)
        >>> s.precision(None).tolist(), s.precision("macro") == s.macro_precision
        ([0.6666666666666666, 1.0], True)
        """
        if labels is None and pos_label.__class__ is int and pos_label == 1 \
                and average.__class__ is str:  # (the defaults: the property's read, when one)
            read = _PRECISION_READS.get(average)
            if read is not None:
                return read(self)
        return self._set_wise("precision", average, pos_label, labels)

    @overload
    def recall(self, average: None, *, pos_label: PosLabel = 1, labels: Labels = None) -> Floats: ...
    @overload
    def recall(self, average: SetWise = "micro", *, pos_label: PosLabel = 1,
               labels: Labels = None) -> float: ...
    def recall(self, average: SetWise | None = "micro", *, pos_label: PosLabel = 1,
               labels: Labels = None) -> float | Floats:
        """Recall ``a / (a + c)``, averaged as ``sklearn.metrics.recall_score(average=...)`` does.

        The options are :meth:`precision`'s.

        >>> from contingency import Contingency

        >>> s = Contingency.from_labels(["a", "b", "c", "c"], ["a", "c", "c", "b"])
        >>> s.recall("macro"), s.recall(None, labels=["c", "a"]).tolist()
        (0.5, [0.5, 1.0])
        """
        if labels is None and pos_label.__class__ is int and pos_label == 1 \
                and average.__class__ is str:  # (the defaults: the property's read, when one)
            read = _RECALL_READS.get(average)
            if read is not None:
                return read(self)
        return self._set_wise("recall", average, pos_label, labels)

    @overload
    def f1(self, average: None, *, pos_label: PosLabel = 1, labels: Labels = None) -> Floats: ...
    @overload
    def f1(self, average: SetWise = "micro", *, pos_label: PosLabel = 1,
           labels: Labels = None) -> float: ...
    def f1(self, average: SetWise | None = "micro", *, pos_label: PosLabel = 1,
           labels: Labels = None) -> float | Floats:
        """F1 ``2a / (2a + b + c)``, averaged as ``sklearn.metrics.f1_score(average=...)`` does:
        :meth:`f_beta` with ``beta = 1``.

        The options are :meth:`precision`'s.

        >>> from contingency import Contingency
        >>> s = Contingency.from_labels([1, 1, 0, 0], [1, 0, 0, 0], zero_division=0.0)
        >>> round(s.f1("binary"), 4), round(s.f1("weighted"), 4)
        (0.6667, 0.7333)
        """
        if labels is None and pos_label.__class__ is int and pos_label == 1 \
                and average.__class__ is str:  # (the defaults: the property's read, when one)
            read = _F1_READS.get(average)
            if read is not None:
                return read(self)
        return self._set_wise("f_beta", average, pos_label, labels, where="f1")

    @overload
    def f_beta(self, beta: float, average: None, *, pos_label: PosLabel = 1,
               labels: Labels = None) -> Floats: ...
    @overload
    def f_beta(self, beta: float = 1.0, average: SetWise = "micro", *, pos_label: PosLabel = 1,
               labels: Labels = None) -> float: ...
    def f_beta(self, beta: float = 1.0, average: SetWise | None = "micro", *,
               pos_label: PosLabel = 1, labels: Labels = None) -> float | Floats:
        """F-beta, where recall weighs ``beta`` times as much as precision, averaged as asked.

        ``sklearn.metrics.fbeta_score(y_true, y_pred, beta=beta, average=...)``;
        the options are :meth:`precision`'s. Undefined values follow
        :attr:`zero_division`. With ``beta = 1`` this is F1, whose micro,
        macro and weighted averages are read in constant time; other betas
        average over the categories (or result shapes) at each read.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results(["a", "a", "b"], ["a", "b", "b"])
        >>> round(s.f_beta(2.0), 4), round(s.f_beta(0.5, average="macro"), 4)
        (0.6667, 0.6944)
        """
        return self._set_wise("f_beta", average, pos_label, labels, beta)

    def _set_wise(self, name: Literal["precision", "recall", "f_beta"], average: object,
                  pos_label: PosLabel, labels: Labels, beta: float = 1.0,
                  where: str = "") -> float | Floats:
        """:meth:`precision`, :meth:`recall`, :meth:`f1` and :meth:`f_beta`: the categories
        chosen, then read; errors name the read ``where`` (``name`` if not given)."""
        where = where or name
        average = _confusion.check_average(average, where, _confusion.SET_WISE)
        counts = self._counts
        order = (None if average == "binary" or (labels is None and average is not None)
                 else self._chosen(labels, where))
        return _confusion.set_wise(counts, name, average, self._zero_division, beta=beta,
                                   pos_label=pos_label, order=order, where=where)

    def matthews_corrcoef(self, average: Correlation = "multiclass") -> float:
        """Matthews correlation: ``"multiclass"`` (the default) scikit-learn's, of the confusion
        matrix (Gorodkin's R_K); ``"micro"`` of the pooled 2x2 table, ``"macro"`` the mean of
        each category's.

        ``"micro"`` and ``"macro"`` are one-vs-rest forms, defined for any
        results. Undefined values (an empty row or column) follow
        :attr:`zero_division`: Perl mode gives 1 when there is no error and 0
        otherwise. The macro average reads every category: each category's
        ``d`` (and so its correlation) changes with every result, whichever
        categories it names, so no running sum can answer it.

        ``"multiclass"`` is the correlation of the K x K
        :meth:`confusion_matrix`, equal to ``sklearn.metrics.matthews_corrcoef``
        of the label arrays; it is defined for single-label results only
        (``ValueError`` otherwise) and read in constant time from running
        sums (:func:`~contingency.formulas.classification.multiclass_matthews_corrcoef`).
        On two categories it is the binary correlation that scikit-learn's
        ``matthews_corrcoef`` and torchmetrics' ``MulticlassMatthewsCorrCoef``
        give; the pooled ``"micro"`` table is another number.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
        >>> round(s.matthews_corrcoef(), 4), round(s.matthews_corrcoef("micro"), 4)
        (0.5, 0.3333)
        >>> t = Contingency().add_results([1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 2, 2])
        >>> round(t.matthews_corrcoef("multiclass"), 4), round(t.matthews_corrcoef("micro"), 4)
        (-0.6124, -0.5)
        """
        if check_choice(average, "average", ("micro", "macro", "multiclass"),
                        "matthews_corrcoef") == "multiclass":
            return _confusion.multiclass_matthews_corrcoef(self._counts,
                                                           self._zero_division)
        return self._averaged(_formulas.matthews_corrcoef, str(average))

    # The confusion matrix of single-label results ----------------------------------------------

    def confusion_matrix(self, labels: Iterable[Hashable] | None = None,
                         normalize: Normalize | None = None) -> NDArray[Any]:
        """The K x K table of single-label results: ``[i, j]`` counts correct ``i``, assigned ``j``.

        Rows are the correct category and columns the assigned one
        (scikit-learn's orientation: it equals ``sklearn.metrics.confusion_matrix(
        y_true, y_pred, labels=..., normalize=...)``). ``labels`` picks and orders the
        categories (default: :attr:`categories`); a label that is not a
        category raises ``ValueError`` naming it. ``normalize`` divides each
        entry by its row's sum (``"true"``), its column's sum (``"pred"``) or
        the total (``"all"``), exactly and rounded once, a row or column with
        no result staying 0 as in scikit-learn
        (:func:`~contingency.formulas.classification.normalized_confusion`).
        Only single-label results
        (one category assigned and one correct) make such a table: once any
        other result is counted, this raises ``ValueError`` (the per-category
        2 x 2 tables are :meth:`multilabel_confusion_matrix` and
        :meth:`category_stats`). :meth:`set_entries`' micro table describes no
        result, so it plays no part here (nor in the scores of this table),
        as in the macro scores.

        The matrix is dense: ``8 K**2`` bytes however few pairs occurred (80 GB
        at K = 10**5), and O(K**2 + pairs) time. :meth:`confusion_cells` gives
        the same table as its non-empty cells, in memory linear in them.

        >>> from contingency import Contingency

        >>> s = Contingency(["cat", "dog", "fox"])
        >>> s.add_results(["cat", "dog", "dog", "fox"], ["cat", "cat", "dog", "dog"]).confusion_matrix()
        array([[1, 1, 0],
               [0, 1, 1],
               [0, 0, 0]])
        >>> s.confusion_matrix(labels=["dog", "cat"])
        array([[1, 0],
               [1, 1]])
        >>> s.confusion_matrix(normalize="true").tolist()
        [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 0.0]]
        >>> s.add_result(["cat", "dog"], "dog")
        >>> s.confusion_matrix()
        Traceback (most recent call last):
        ...
        ValueError: confusion_matrix: 1 of the 5 results is not single-label (one category
        assigned and one correct); a K x K confusion matrix and its scores describe
        single-label results only: see category_stats() or multilabel_confusion_matrix() for
        the per-category 2 x 2 tables
        """
        return _confusion.confusion_matrix(self._counts,
                                           self._chosen(labels, "confusion_matrix"), normalize)

    def confusion_cells(self, labels: Iterable[Hashable] | None = None
                        ) -> tuple[tuple[Hashable, ...], NDArray[np.int64], NDArray[np.int64],
                                   NDArray[Any]]:
        """:meth:`confusion_matrix` as its non-empty cells: ``(labels, rows, columns, counts)``.

        ``labels`` is the categories in the matrix's order (:attr:`categories`,
        or the ``labels`` argument, checked as there); ``rows`` and
        ``columns`` are int64 arrays of positions in it and ``counts`` the
        counts (int64, float64 once a weight was fractional), one entry per
        non-empty cell, ordered by row, then column: ``counts[k]`` results had
        correct category ``labels[rows[k]]`` and assigned ``labels[columns[k]]``.
        Memory and time are linear in the non-empty cells and the labels,
        whatever K. The coordinate (COO) form, which needs no scipy:
        ``scipy.sparse.coo_array((counts, (rows, columns)))`` builds a sparse
        matrix from it. Single-label results only, as :meth:`confusion_matrix`.

        >>> from contingency import Contingency

        >>> s = Contingency.from_labels(["cat", "dog", "dog"], ["cat", "cat", "dog"])
        >>> labels, rows, columns, counts = s.confusion_cells()
        >>> labels, rows.tolist(), columns.tolist(), counts.tolist()
        (('cat', 'dog'), [0, 1, 1], [0, 0, 1], [1, 1, 1])
        """
        chosen = self._chosen(labels, "confusion_cells")
        rows, columns, counts = _confusion.confusion_cells(self._counts, chosen)
        return (tuple(chosen), np.array(rows, dtype=np.int64), np.array(columns, dtype=np.int64),
                np.array([self._counts.reported(count) for count in counts],
                         dtype=np.float64 if self._counts.scale else np.int64))

    def multilabel_confusion_matrix(self, labels: Iterable[Hashable] | None = None,
                                    samplewise: bool = False) -> NDArray[Any]:
        """Each category's 2 x 2 table, as ``sklearn.metrics.multilabel_confusion_matrix`` lays it out.

        An array of shape (K, 2, 2): ``[k] = [[d, b], [c, a]]``, that is
        ``[[true negatives, false positives], [false negatives, true positives]]``,
        for any results (single- or multi-label). ``labels`` picks and orders
        the categories, as in :meth:`confusion_matrix`.

        ``samplewise=True`` raises ``ValueError``: scikit-learn then gives each
        result's own table, in the order the results came, which an
        accumulator of counts does not keep. It keeps how many results had
        each shape (``to_dict()["result_shapes"]``), which is what the
        ``"samples"`` averages (:meth:`precision`, :attr:`samples_f1`...) read.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results([["a", "b"], ["b"]], [["a"], ["a", "b"]])
        >>> s.multilabel_confusion_matrix().tolist()
        [[[0, 0], [1, 1]], [[0, 1], [0, 1]]]
        """
        return _confusion.multilabel_confusion_matrix(
            self._counts, self._chosen(labels, "multilabel_confusion_matrix"),
            samplewise)

    def cohen_kappa(self, labels: Iterable[Hashable] | None = None,
                    weights: Literal["linear", "quadratic"] | None = None) -> float:
        """Cohen's kappa of the :meth:`confusion_matrix`: agreement beyond chance, in [-1, 1].

        Equal to ``sklearn.metrics.cohen_kappa_score(y_true, y_pred,
        labels=labels, weights=weights)``; single-label results only.
        ``labels`` picks the categories of the matrix (as in
        :meth:`confusion_matrix`) and their order, which the weights
        ``"linear"`` (``|i - j|``) and ``"quadratic"`` (``(i - j)**2``) count
        disagreements by; ``None`` weighs every disagreement 1. Without
        ``labels`` and ``weights`` it is read in constant time from running
        sums; otherwise from the non-empty cells of the matrix, in
        O(pairs + K), exactly and rounded once
        (:func:`~contingency.formulas.classification.weighted_cohen_kappa`).
        Undefined (no result, or one category throughout) follows
        :attr:`zero_division`, see
        :func:`~contingency.formulas.classification.cohen_kappa`.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results(["a", "a", "b", "b"], ["a", "b", "b", "b"])
        >>> s.cohen_kappa()
        0.5
        >>> t = Contingency.from_labels([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0])
        >>> t.cohen_kappa(), t.cohen_kappa(weights="linear"), t.cohen_kappa(weights="quadratic")
        (0.5, 0.4, 0.2857142857142857)
        """
        order = (None if labels is None and weights is None
                 else self._chosen(labels, "cohen_kappa"))
        return _confusion.cohen_kappa(self._counts, order, weights,
                                      self._zero_division)

    def balanced_accuracy(self, adjusted: bool = False) -> float:
        """The mean recall of the categories some result has as correct (scikit-learn's definition).

        Equal to ``sklearn.metrics.balanced_accuracy_score(y_true, y_pred,
        adjusted=adjusted)``: categories no result has as correct are left out;
        ``adjusted=True`` rescales so that chance scores 0. Single-label results
        only; read in constant time. Undefined cases follow :attr:`zero_division`,
        see :func:`~contingency.formulas.classification.balanced_accuracy`.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results(["a", "a", "a", "b"], ["a", "b", "b", "b"])
        >>> s.balanced_accuracy(), round(s.balanced_accuracy(adjusted=True), 4)
        (0.6666666666666666, 0.3333)
        """
        return _confusion.balanced_accuracy(
            self._counts, check_flag(adjusted, "adjusted", "balanced_accuracy"),
            self._zero_division)

    def jaccard(self, average: Average = "macro") -> float:
        """The Jaccard index ``a / (a + b + c)``, averaged as ``sklearn.metrics.jaccard_score`` does.

        ``average`` is ``"micro"`` (of the micro table), ``"macro"`` (over
        categories), ``"weighted"`` (by support ``a + c``) or ``"samples"``
        (each result's ``|assigned ∩ correct| / |assigned ∪ correct|``,
        averaged over results). Micro, macro and weighted are read in constant
        time. Undefined values follow :attr:`zero_division`
        (:func:`~contingency.formulas.classification.jaccard`).

        >>> from contingency import Contingency

        >>> s = Contingency().add_results([["a", "b"], ["b"]], [["a"], ["a", "b"]])
        >>> s.jaccard(), s.jaccard("micro"), s.jaccard("samples")
        (0.5, 0.5, 0.5)
        """
        average = _confusion.check_average(average, "jaccard")
        if average == "macro":
            return self._running_mean("jaccard")
        if average == "weighted":
            return self._running_mean("jaccard", weighted=True)
        return self._averaged(_formulas.jaccard, average)

    # Choosing what to read ---------------------------------------------------------------------

    def _chosen(self, labels: Iterable[Hashable] | None, where: str) -> list[Hashable]:
        """The categories ``labels`` names, in its order (all of them for ``None``), checked."""
        if labels is None:
            return list(self._order())
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"{where}: labels must be an iterable of categories or None, not "
                            f"{labels!r}")
        chosen = list(labels)
        cells = self._counts.a
        for position, label in enumerate(chosen):
            try:
                known = label in cells
            except TypeError:
                known = False
            if not known:
                raise ValueError(f"{where}: "
                                 + not_a_category(f"labels[{position}] = {shown(label)}",
                                                  self._order()))
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"{where}: labels names a category twice")
        return chosen

    def _averaged(self, score: Any, how: str) -> float:
        """``score`` averaged as asked, from the cells (for scores no running sum answers)."""
        return _confusion.averaged(self._counts, score, how, self._zero_division)
