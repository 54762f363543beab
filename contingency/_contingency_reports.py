"""Contingency's reports: every score at once (scores, report, category_stats, to_frame, stats_table).

:class:`Reports` is a mixin of :class:`~contingency.Contingency` (slotted: it
adds no state). Its methods gather the numbers of the class's reads (each one
call into :mod:`contingency.formulas.classification`) and hand them to
:mod:`contingency.report` or :mod:`contingency._frame`, which render finished
numbers; nothing is computed here. What they read of the class is listed
under ``TYPE_CHECKING`` below.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from contingency import _confusion
from contingency import report as _report
from contingency._category_scores import CategoryScores, category_scores
from contingency._changes import HIT, MISS
from contingency._frame import category_frame
from contingency._intervals import scores_block
from contingency._registry import AVERAGES, TABLE, record_names, report_names
from contingency._sklearn_reads import ScikitLearnReads
from contingency.formulas._numeric import no_category, shown

if TYPE_CHECKING:
    from contingency._counts import Counts
    from contingency.formulas._numeric import ZeroDivision

__all__ = ["Reports"]

_AVERAGES = _confusion.AVERAGES


class Reports(ScikitLearnReads):
    """:class:`~contingency.Contingency`'s every score at once: as data, a table or a frame."""

    __slots__ = ()

    if TYPE_CHECKING:  # what the class provides (contingency._contingency), besides the reads above
        _counts: Counts
        _zero_division: ZeroDivision

        def _order(self) -> list[Hashable]: ...

        def _orders(self) -> tuple[list[Hashable], tuple[Hashable, ...], NDArray[np.intp]]: ...

        def _micro_score(self, name: str) -> float: ...

        def _samples(self, score: Any) -> float: ...

        @property
        def categories(self) -> tuple[Hashable, ...]: ...
        @property
        def micro_accuracy(self) -> float: ...
        @property
        def micro_error(self) -> float: ...
        @property
        def micro_precision(self) -> float: ...
        @property
        def micro_recall(self) -> float: ...
        @property
        def micro_f1(self) -> float: ...
        @property
        def macro_accuracy(self) -> float: ...
        @property
        def macro_error(self) -> float: ...
        @property
        def macro_precision(self) -> float: ...
        @property
        def macro_recall(self) -> float: ...
        @property
        def macro_f1(self) -> float: ...
        @property
        def subset_accuracy(self) -> float: ...
        @property
        def hamming_loss(self) -> float: ...


    def category_stats(self) -> dict[Hashable, dict[str, float | int]]:
        """Per category: cells ``a b c d``, ``precision recall f1 accuracy error`` (Perl's numbers),
        ``specificity`` and ``support`` (``a + c``), in the order of :attr:`categories`.

        >>> from contingency import Contingency

        >>> Contingency(["x", "y"]).add_results(["x"], ["y"]).category_stats()["x"]
        {'a': 0, 'b': 1, 'c': 0, 'd': 0, 'precision': 0.0, 'recall': 1.0, 'f1': 0.0, \
'accuracy': 0.0, 'error': 1.0, 'specificity': 0.0, 'support': 0}
        """
        order = self._order()
        if not order:
            no_category(self._zero_division)  # Perl dies; the other modes have no category
            return {}
        return dict(zip(order, category_scores(self._counts, order, self._zero_division).records()))

    def to_frame(self) -> Any:
        """:meth:`category_stats` as a ``pandas.DataFrame``: one row per category, as :attr:`categories`.

        The counts ``a b c d support`` are integer columns (float where a
        weight made them fractional), the scores float columns; the index is
        named ``"category"``. pandas is imported only here: without it this
        raises ``ImportError`` naming the ``pandas`` extra.

        >>> from contingency import Contingency

        >>> s = Contingency(["x", "y"]).add_results(["x", "y"], ["y", "y"])
        >>> print(s.to_frame().round(3).to_string())  # doctest: +SKIP
                  a  b  c  d  precision  recall     f1  accuracy  error  specificity  support
        category
        x         0  1  0  1        0.0     1.0  0.000       0.5    0.5          0.5        0
        y         1  0  1  0        1.0     0.5  0.667       0.5    0.5          1.0        2
        """
        return category_frame(self.category_stats())

    def stats_table(self, figs: int = 3) -> str:
        """The table Statistics::Contingency prints, character for character.

        ``figs`` is the number of significant figures (at least 1; Perl silently
        turns 0 into 3, this raises ``ValueError``).

        >>> from contingency import Contingency

        >>> s = Contingency(["a", "b"]).add_results(["a", "b", "a"], ["a", "a", "a"])
        >>> print(s.stats_table(2), end="")
        +--------------------------------------+
        |  maR  maP maF1   miR  miP miF1   Err |
        | 0.83 0.50 0.40  0.67 0.67 0.67  0.33 |
        +--------------------------------------+
        """
        if (isinstance(figs, bool) or not isinstance(figs, (int, np.integer))
                or not 1 <= figs <= _report.MOST_DIGITS):
            raise ValueError(f"stats_table: figs must be an integer >= 1 (at most "
                             f"{_report.MOST_DIGITS}), not {shown(figs)}")
        return _report.perl_stats_table(
            (self.macro_recall, self.macro_precision, self.macro_f1, self.micro_recall,
             self.micro_precision, self.micro_f1, self.micro_error),
            int(figs),
        )

    def scores(self, intervals: float | None = None) -> dict[str, Any]:
        """Every score as plain Python data: per category, each average, and the result-level scores.

        ``None`` stands for a value that does not exist (macro averages with
        no category) and for NaN, so the result is valid JSON. This is what
        :meth:`report` renders. ``intervals``, a level such as 0.95, adds an
        ``"intervals"`` block of ``[low, high]`` bounds (``None`` where an
        interval is refused; see :meth:`interval` and the docs' page on intervals).
        """
        scores = self._scores(intervals, "scores")
        table: CategoryScores = scores["categories"]
        scores["categories"] = [{"category": label, **record} for label, record in zip(
            table.json_labels(), table.records())]
        if intervals is not None:
            block = scores["intervals"]
            block["categories"] = list(_report.record_dicts(block["categories"]))
        plain: dict[str, Any] = _report.json_numbers(scores)
        return plain

    def report(self, digits: int = 3, intervals: float | None = None) -> str:
        """A per-category table with support and every average, in the order of :attr:`categories`.

        >>> from contingency import Contingency

        >>> s = Contingency().add_results(["dog", "cat", "cat"], ["dog", "cat", "dog"])
        >>> print(s.report())
                      precision  recall     f1  support
        <BLANKLINE>
                 cat      0.500   1.000  0.667        1
                 dog      1.000   0.500  0.667        2
        <BLANKLINE>
           micro avg      0.667   0.667  0.667        3
           macro avg      0.750   0.750  0.667        3
        weighted avg      0.833   0.667  0.667        3
         samples avg      0.667   0.667  0.667        3
        <BLANKLINE>
        results: 3   subset accuracy: 0.667   hamming loss: 0.333   MCC: 0.500 (multiclass),
        0.333 (micro), 0.500 (macro)
        """
        digits = _report.check_digits(digits, "report")  # (before anything is read)
        scores = self._scores(intervals, "report")  # the categories' rows made from columns, a few at a time
        scores["categories"] = scores["categories"].json_records()
        return _report.classification_report(_report.json_numbers(scores), digits=digits)

    def _scores(self, intervals: float | None = None, where: str = "scores") -> dict[str, Any]:
        """:meth:`scores` with its categories as one :class:`CategoryScores` (columns, not dicts),
        its errors naming the read ``where``."""
        block = None if intervals is None else scores_block(self, intervals, where)  # (checked first)
        # The report's scores in each average their rows declare; the other averaged scores of
        # the records (accuracy, error) in a block each, by average.
        names = report_names()
        order, _, places = self._orders()
        categories = category_scores(self._counts, order, self._zero_division, places)
        has_categories = bool(self._counts.a)  # (after _order, which settles the counts)

        def read(name: str, average: str) -> Any:
            if average == "micro":
                return self._micro_score(name)
            if average == "samples":
                return self._samples(TABLE[name].formula)
            # from the columns: the running sums' floats, without their O(K) dicts
            return categories.mean(name, weighted=average == "weighted")

        averages: dict[str, Any] = {
            average: {name: read(name, average) for name in names
                      if average in TABLE[name].averages}
            if has_categories or average in ("micro", "samples") else None
            for average in AVERAGES}
        support = self._counts.reported(sum(self._counts.a.values()) + sum(self._counts.c.values()))
        single = self._counts.n == self._counts.shapes.get(HIT, 0) + self._counts.shapes.get(MISS, 0)
        for average_name in AVERAGES:
            if averages[average_name] is not None:
                averages[average_name]["support"] = support
        by_average = {name: {average: getattr(self, f"{average}_{name}")
                             if has_categories or average == "micro" else None
                             for average in TABLE[name].averages}
                      for name in record_names() if name not in names and TABLE[name].averages}
        return {
            "n_results": self._counts.reported(self._counts.n),
            "categories": categories,
            "averages": averages,
            "micro_table": [self._counts.reported(cell) for cell in self._counts.micro],
            **by_average,
            "subset_accuracy": self.subset_accuracy,
            "hamming_loss": self.hamming_loss,
            "matthews_corrcoef": {
                "micro": self.matthews_corrcoef("micro"),
                "macro": self.matthews_corrcoef("macro") if self._counts.a else None,
                "multiclass": self.matthews_corrcoef("multiclass") if single else None,
            },
            # The scores of the confusion matrix: single-label results only.
            "cohen_kappa": self.cohen_kappa() if single else None,
            "balanced_accuracy": {"plain": self.balanced_accuracy(),
                                  "adjusted": self.balanced_accuracy(adjusted=True)}
            if single else None,
            "jaccard": {average: (categories.mean("jaccard", average == "weighted")
                                  if average in ("macro", "weighted")
                                  else self.jaccard(average))  # type: ignore[arg-type]
                        if self._counts.a or average in ("micro", "samples") else None
                        for average in _AVERAGES},
            **({} if block is None else {"intervals": block}),
        }
