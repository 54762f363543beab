"""Contingency's per-category numbers as columns: cells and scores of every category, computed once.

:func:`category_scores` reads each category's cells ``a b c d`` from the
counts (in the order asked for) and scores them with one call per score of
:mod:`contingency.formulas.classification` on whole columns (numpy, when the
counts fit; exact Python integers otherwise). The :class:`CategoryScores` it
returns is what :meth:`contingency.Contingency.category_stats` and
:meth:`contingency.Contingency.scores` turn into one dict per category, and
what the command line's JSON writer (:func:`contingency.report.json_text`)
streams without making those dicts: the numbers have one source.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from contingency._confusion import category_cells, count_columns, supports
from contingency._counts import Counts
from contingency._labels import label_to_json
from contingency._registry import TABLE, record_names, report_names
from contingency.formulas._numeric import ZeroDivision, average
from contingency.report import Records

__all__ = ["CELLS", "CategoryScores", "category_scores"]

#: The cells of each category's table, in its record's order.
CELLS = ("a", "b", "c", "d")
#: Scored beside the records' and the report's scores (:mod:`contingency._registry`): the
#: Jaccard index, whose averages scores() lists.
_AVERAGED_ONLY = ("jaccard",)

Column = Any  # a float64 or int64 array, or a list of exact Python numbers


@frozen
class CategoryScores:
    """Each category's cells, support and scores, a column each, in the categories' order.

    ``counts`` maps ``a b c d support`` to the counts as reads report them
    (``int``, or the exact count rounded once to ``float`` when weights made
    them fractional); ``scores`` maps the records' scores
    (:func:`contingency._registry.record_names`) and ``jaccard`` to float64
    arrays (NaN where ``zero_division="nan"`` leaves a value undefined).
    ``labels`` are the categories themselves, ``support``
    their exact supports ``a + c`` (the weights of the weighted averages),
    ``mode`` the ``zero_division`` they were scored with.
    """

    labels: Sequence[Hashable]
    counts: dict[str, Column]
    scores: dict[str, Any]
    support: Column
    mode: ZeroDivision

    def __len__(self) -> int:
        return len(self.labels)

    def keys(self) -> tuple[str, ...]:
        """The names of a record's numbers, in its order (after ``"category"``)."""
        return (*CELLS, *record_names(), "support")

    def columns(self) -> list[list[Any]]:
        """Each number of :meth:`keys` as a list of Python numbers (one per category)."""
        return [_python(self.counts[key] if key in self.counts else self.scores[key])
                for key in self.keys()]

    def records(self) -> Iterator[dict[str, Any]]:
        """One dict of :meth:`keys` per category, in order (Python numbers, NaN kept)."""
        keys = self.keys()
        for row in zip(*self.columns()):
            yield dict(zip(keys, row))

    def mean(self, name: str, weighted: bool = False) -> float:
        """Score ``name`` averaged over the categories (weighted by support), NaN left out.

        :func:`contingency.formulas._numeric.average`: each sum exact and rounded
        once, so the very float the running sums of :mod:`contingency._category_sums` give.
        """
        empty = float(TABLE[name].formula(0, 0, 0, 0, zero_division=self.mode))
        return average(self.scores[name], self.support if weighted else None, empty=empty)

    def json_records(self) -> Records:
        """The records :meth:`contingency.Contingency.scores` lists, as columns for the JSON writer."""
        return Records("category", self.json_labels(), self.keys(),
                       [self.counts[key] if key in self.counts else self.scores[key]
                        for key in self.keys()])

    def json_labels(self) -> list[Any]:
        """The categories as JSON values (:func:`contingency._labels.label_to_json`), checked here."""
        return [label_to_json(label, "category") for label in self.labels]


def _python(column: Column) -> list[Any]:
    return column.tolist() if isinstance(column, np.ndarray) else list(column)


def category_scores(counts: Counts, order: Sequence[Hashable], mode: ZeroDivision,
                    places: NDArray[np.intp] | None = None) -> CategoryScores:
    """The cells and scores of the categories of ``order`` (of ``counts``), as columns
    (``places``: where they are in table order, if known: :func:`category_cells`)."""
    cells = count_columns(counts, category_cells(counts, order, places))
    scores = {name: TABLE[name].formula(*cells, zero_division=mode)
              for name in dict.fromkeys((*record_names(), *report_names(), *_AVERAGED_ONLY))}
    support = supports(cells[0], cells[2])
    reported = dict(zip((*CELLS, "support"), (*cells, support)))
    if counts.scale:  # each exact count rounded once, as Counts.reported does
        reported = {key: np.array([counts.reported(int(count)) for count in column],
                                  dtype=np.float64)
                    for key, column in reported.items()}
    return CategoryScores(list(order), reported, scores, support, mode)
