"""The one table of Contingency's scores: each declared once, with its formula, averages, views and interval.

A score of one category's 2x2 table (``a b c d``) is a :class:`TableScore`
row of :data:`TABLE`; a score of whole results (the shape of each result, not
one category's cells) is a :class:`ResultScore` row of :data:`RESULTS`. Every
view of the accumulators reads these rows, and nothing else says which scores
exist:

- :class:`~contingency.Contingency`'s average properties (``micro_f1``,
  ``macro_precision``, ``weighted_recall``, ``samples_f1``...), one per
  average a row declares, are made from it (:func:`average_properties`);
- each category's record (``category_stats``, ``scores()["categories"]``,
  ``to_frame``, the command line's JSON) lists the rows with ``record``;
- ``report()``'s columns and ``scores()``'s ``averages`` block are the rows
  with ``report``, in each average they declare;
- a :class:`~contingency.GroupedContingency` reads by name every property
  (:func:`property_names`) and ``(score, category)`` for every row;
- ``interval()`` takes the macro average of a row with a ``variance`` (the
  delta method), ``(score, category)`` for a row with a ``trial`` (a
  proportion of results: :data:`contingency.formulas.intervals.SHARES`) or
  F1, the micro average of a row with ``single_label_share``, and the rows
  with ``decisions``;
- :meth:`~contingency.PairedComparison.scores` gives each model's
  :func:`paired_names`.

Adding a score is its formula in :mod:`contingency.formulas` and one row here;
``tests/test_registry.py`` adds a throwaway row and checks that it appears
wherever its siblings do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any, Literal

from attrs import frozen

from contingency.formulas import classification as _classification
from contingency.formulas import fairness as _fairness
from contingency.formulas import intervals as _intervals
from contingency.formulas.classification import ScalarScore

__all__ = ["AVERAGES", "RESULTS", "TABLE", "ResultScore", "TableScore", "average_properties",
           "category_interval_names", "category_names", "interval_names", "macro_interval_names",
           "on_change", "paired_names", "property_names", "record_names", "register", "report_names",
           "unregister"]

Average = Literal["micro", "macro", "weighted", "samples"]
#: The averages of a table score over categories and results, in the order views show them.
AVERAGES: tuple[Average, ...] = ("micro", "macro", "weighted", "samples")

#: How each average reads, for the properties' docstrings.
_AVERAGE_WORDS = {
    "micro": "of the micro table (the categories' cells summed, plus ``set_entries``)",
    "macro": "of each category's table, averaged over categories",
    "weighted": "of each category's table, averaged with each category's support ``a + c`` as "
                "weight",
    "samples": "of each result's own table (its assigned and correct categories), averaged over "
               "results",
}


@frozen
class TableScore:
    """A score of one 2x2 table ``a b c d``, and every view that shows it.

    ``formula`` is the public function of :mod:`contingency.formulas` (cells
    as scalars or columns), ``scalar`` its one-table form ``(a, b, c, d,
    mode) -> float`` with ``mode`` checked. ``averages`` are the averages
    :class:`~contingency.Contingency` shows as properties ``{average}_{name}``;
    ``pooled`` a closed form of the macro average from the pooled cells,
    ``(n_results, n_categories, wrong, zero_division=) -> float``, used instead
    of the running sums where the score has one. ``record``: a number of each
    category's record; ``report``: a column of ``report()`` and of
    ``scores()``'s ``averages``. Intervals: ``trial`` says, for a score that is
    a proportion of results, why it is undefined with no trial (a category's
    interval); ``variance`` is the delta-method variance term ``(a, b, c) ->
    float`` of its macro average; ``single_label_share``: on single-label
    results its micro average is the share of results right; ``decisions``:
    its micro and macro averages are shares of right (or wrong) decisions.
    ``summary`` is the formula in words, for docstrings.
    """

    name: str
    formula: Callable[..., Any]
    scalar: ScalarScore
    summary: str
    averages: tuple[Average, ...] = ()
    pooled: Callable[..., float] | None = None
    record: bool = False
    report: bool = False
    trial: str | None = None
    variance: Callable[[int, int, int], float] | None = None
    single_label_share: bool = False
    decisions: Literal["right", "wrong"] | None = None


@frozen
class ResultScore:
    """A score of whole results (their shapes), a property of :class:`~contingency.Contingency`.

    ``paired``: where :meth:`~contingency.PairedComparison.scores` lists it
    among each model's scores, before or after the averages (``""``: not
    listed); ``decisions``: a share of right or wrong decisions, whose
    interval is read as those of :attr:`TableScore.decisions`; ``interval``:
    it has an interval of its own (a proportion of results).
    """

    name: str
    paired: Literal["", "before", "after"] = ""
    decisions: Literal["right", "wrong"] | None = None
    interval: bool = False


def _specificity(a: Any, b: Any, c: Any, d: Any, mode: Any) -> float:
    # Recall seen from the other side: the negatives found (d of d + b).
    return _classification.SCALAR["recall"](d, c, b, a, mode)


_SCALAR = _classification.SCALAR
_EVERY: tuple[Average, ...] = AVERAGES

#: Every table score, in the order views list them.
TABLE: dict[str, TableScore] = {row.name: row for row in (
    TableScore("precision", _classification.precision, _SCALAR["precision"], "``a / (a + b)``",
               _EVERY, record=True, report=True, trial="no result assigned it",
               variance=_intervals.precision_variance, single_label_share=True),
    TableScore("recall", _classification.recall, _SCALAR["recall"], "``a / (a + c)``", _EVERY,
               record=True, report=True, trial="no result has it as correct",
               variance=_intervals.recall_variance, single_label_share=True),
    TableScore("f1", _classification.f1, _SCALAR["f1"], "``2a / (2a + b + c)``", _EVERY,
               record=True, report=True, variance=_intervals.f1_variance,
               single_label_share=True),
    TableScore("accuracy", _classification.accuracy, _SCALAR["accuracy"],
               "``(a + d) / (a + b + c + d)``", ("micro", "macro"),
               pooled=_classification.mean_accuracy, record=True, trial="there are no results",
               decisions="right"),
    TableScore("error", _classification.error, _SCALAR["error"], "``(b + c) / (a + b + c + d)``",
               ("micro", "macro"), pooled=_classification.mean_error, record=True,
               trial="there are no results", decisions="wrong"),
    TableScore("jaccard", _classification.jaccard, _SCALAR["jaccard"], "``a / (a + b + c)``",
               trial="no result names it"),
    TableScore("specificity", _classification.specificity, _specificity, "``d / (d + b)``",
               record=True, trial="every result has it as correct"),
    TableScore("selection_rate", _fairness.selection_rate, _fairness.SCALAR["selection_rate"],
               "``(a + b) / (a + b + c + d)``"),
    TableScore("false_positive_rate", _fairness.false_positive_rate,
               _fairness.SCALAR["false_positive_rate"], "``b / (b + d)``"),
)}

#: Every result score: each a property of Contingency written in its class.
RESULTS: dict[str, ResultScore] = {row.name: row for row in (
    ResultScore("subset_accuracy", paired="before", interval=True),
    ResultScore("error_rate"),
    ResultScore("hamming_loss", paired="after", decisions="wrong"),
)}


def register(row: TableScore) -> None:
    """Add a table score (or replace the row of that name): every view lists it from now on.

    Contingency's average properties are made when its module is imported;
    a row registered later needs
    :func:`contingency._contingency.install_average_properties` too.
    """
    TABLE[row.name] = row
    _views_changed()


def unregister(name: str) -> None:
    """Take the table score ``name`` out of the registry (a test's throwaway row)."""
    del TABLE[name]
    _views_changed()


def _views_changed() -> None:
    for view in _VIEWS:
        view.cache_clear()
    for forget in _READERS_OF_VIEWS:
        forget()


#: What else keeps something read from the views (the kernel's interval read keeps the scores
#: it serves): each called after every change of the registry (:func:`on_change`).
_READERS_OF_VIEWS: list[Callable[[], None]] = []


def on_change(forget: Callable[[], None]) -> None:
    """Call ``forget`` after every change of the registry, as its views are computed again."""
    _READERS_OF_VIEWS.append(forget)


# The views (each computed once: the registry changes only by register and unregister) --------


def _averaged() -> Iterator[tuple[Average, TableScore]]:
    """Each (average, row) a property shows, in the order views list them: by average, then row."""
    for average in AVERAGES:
        for row in TABLE.values():
            if average in row.averages:
                yield average, row


@functools.cache
def property_names() -> tuple[str, ...]:
    """Every score property of Contingency: the averages of each row, then the result scores."""
    return (*(f"{average}_{row.name}" for average, row in _averaged()), *RESULTS)


@functools.cache
def category_names() -> tuple[str, ...]:
    """The scores ``(score, category)`` may name: every table score."""
    return tuple(TABLE)


@functools.cache
def record_names() -> tuple[str, ...]:
    """The scores of each category's record, in order (after the cells ``a b c d``): the rows
    with ``record``, and those with ``report`` (a report's row is a category's record)."""
    return tuple(name for name, row in TABLE.items() if row.record or row.report)


@functools.cache
def report_names() -> tuple[str, ...]:
    """The columns of ``report()`` and the scores of each average in ``scores()``."""
    return tuple(name for name, row in TABLE.items() if row.report)


@functools.cache
def paired_names() -> tuple[str, ...]:
    """The scores PairedComparison gives each model: the micro and macro averages of the report's
    scores, between the result scores listed before and after them."""
    first = [name for name, row in RESULTS.items() if row.paired == "before"]
    last = [name for name, row in RESULTS.items() if row.paired == "after"]
    return (*first, *(f"{average}_{name}" for average in ("micro", "macro")
                      for name in report_names() if average in TABLE[name].averages), *last)


@functools.cache
def macro_interval_names() -> dict[str, str]:
    """The macro averages with a delta-method interval, each with its row's name."""
    return {f"macro_{name}": name for name, row in TABLE.items()
            if row.variance is not None and "macro" in row.averages}


@functools.cache
def interval_names() -> dict[str, tuple[str, str | None]]:
    """Every property with an interval: how it is read (``"share"``, ``"macro"``,
    ``"decisions"`` or ``"results"``) and the row or side it reads."""
    found: dict[str, tuple[str, str | None]] = {}
    for name, row in TABLE.items():
        if row.single_label_share and "micro" in row.averages:
            found[f"micro_{name}"] = ("share", name)
    for name, row in TABLE.items():
        if row.decisions is not None:
            for average in row.averages:
                found[f"{average}_{name}"] = ("decisions", row.decisions)
    for name, result in RESULTS.items():
        if result.decisions is not None:
            found[name] = ("decisions", result.decisions)
    for name, result in RESULTS.items():
        if result.interval:
            found[name] = ("results", None)
    for average_name, name in macro_interval_names().items():
        found[average_name] = ("macro", name)
    return found


@functools.cache
def category_interval_names() -> tuple[str, ...]:
    """The table scores ``interval((score, category))`` takes: the proportions, and F1."""
    return tuple(name for name, row in TABLE.items()
                 if row.trial is not None or name == "f1")


_VIEWS = (property_names, category_names, record_names, report_names, paired_names,
          macro_interval_names, interval_names, category_interval_names)


# Contingency's properties --------------------------------------------------------------------


def average_properties(
        read: Callable[[TableScore, Average], Callable[[Any], float]]
) -> Iterator[tuple[str, property]]:
    """Each average property of Contingency, ``(name, property)``, made from its row.

    ``read(row, average)`` is the accumulator's reader of that average (one
    call into the row's formula); the property adds its name and docstring.
    """
    for average, row in _averaged():
        reader = read(row, average)
        reader.__name__ = f"{average}_{row.name}"
        reader.__doc__ = (f"{_title(row.name)} {_AVERAGE_WORDS[average]}: {row.summary} "
                          f"(see :func:`~{row.formula.__module__}.{row.formula.__name__}`).")
        yield reader.__name__, property(reader)


def _title(name: str) -> str:
    word = {"f1": "F1"}.get(name, name.replace("_", " "))
    return word[0].upper() + word[1:]
