"""Plots of finished numbers with matplotlib (the ``plot`` extra): nothing here computes a score.

Each function returns a :class:`matplotlib.figure.Figure` of ``width`` x ``height``
pixels (at ``dpi`` dots per inch), made without :mod:`matplotlib.pyplot`, so it
touches no global state and needs no display; ``figure.savefig("name.png")``
writes it at exactly that size.

- :func:`partition_heatmap`: a :class:`~contingency.PartitionComparison`'s
  contingency table (reference clusters against model clusters);
- :func:`confusion_heatmap`: a :class:`~contingency.Contingency`'s confusion
  matrix (correct categories against assigned ones) of single-label results;
- :func:`table_heatmap`: any table of counts with its row and column labels;
- :func:`category_chart`: per-category precision, recall and F1 of a
  :class:`~contingency.Contingency`, as it reports them
  (:meth:`~contingency.Contingency.category_stats`);
- :func:`learning_curve`: micro and macro F1 against the number of results,
  from points recorded while results stream in (:func:`learning_point` records
  one), each with its confidence band when the points hold intervals
  (``learning_point(contingency, intervals=0.95)``).
  one);
- :func:`group_chart`: one score of a :class:`~contingency.GroupedContingency`
  by group, as bars, with its value over every result as a line;
- :func:`roc_plot` and :func:`precision_recall_plot`: the ROC and
  precision-recall curves of a :class:`~contingency.ThresholdContingency`
  (one line), of a :class:`~contingency.MulticlassThresholdContingency` (a
  line per class and the micro average) or of named ones, each line
  labelled with its AUC or average precision;
- :func:`reliability_plot`: a :class:`~contingency.ThresholdContingency`'s
  calibration curve against the diagonal, with its expected calibration error.

matplotlib is imported inside the functions only: ``import contingency.plot``
works without it, and a plot asked for without it raises :class:`ImportError`
naming the extra to install.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from contingency._intervals import IntervalRefused
from contingency.formulas.intervals import Interval

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

    from contingency._contingency import Contingency
    from contingency._group_scores import Score
    from contingency._grouped import GroupedContingency
    from contingency._partition import PartitionComparison
    from contingency._threshold import ThresholdContingency

__all__ = [
    "LearningPoint",
    "category_chart",
    "confusion_heatmap",
    "group_chart",
    "learning_curve",
    "learning_point",
    "partition_heatmap",
    "precision_recall_plot",
    "reliability_plot",
    "roc_plot",
    "table_heatmap",
]

_INSTALL = 'plotting needs matplotlib: python -m pip install "contingency[plot]"'
#: Beyond this many rows or columns a heatmap shows no count in its cells (they would not fit).
ANNOTATE_LIMIT = 25
#: Beyond this many rows or columns a heatmap names no label on that axis.
LABEL_LIMIT = 60


class LearningPoint(NamedTuple):
    """Micro and macro F1 after ``n_results`` results: one point of a learning curve.

    Each F1 is a float, or an :class:`~contingency.Interval` (its estimate
    drawn with a band from ``low`` to ``high``).
    """

    n_results: int | float  # a float once fractional weights were counted
    micro_f1: float | Interval
    macro_f1: float | Interval


def learning_point(contingency: Contingency, *, intervals: float | None = None) -> LearningPoint:
    """The accumulator's number of results and its micro and macro F1, as they are now.

    With ``intervals``, a level such as 0.95, each F1 is its
    :meth:`~contingency.Contingency.interval`: micro F1 by Wilson's method,
    macro F1 by the delta method (a plain float where the interval is refused:
    results that are not single-label, say).

    >>> from contingency import Contingency
    >>> s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
    >>> learning_point(s)
    LearningPoint(n_results=3, micro_f1=0.6666666666666666, macro_f1=0.6666666666666666)
    >>> [round(x, 3) for x in learning_point(s, intervals=0.95).micro_f1]
    [0.208, 0.667, 0.939]
    """
    if intervals is None:
        return LearningPoint(contingency.n_results, contingency.micro_f1, contingency.macro_f1)
    micro: float | Interval
    macro: float | Interval
    try:
        micro = contingency.interval("micro_f1", level=intervals)
    except IntervalRefused:
        micro = contingency.micro_f1
    try:
        macro = contingency.interval("macro_f1", level=intervals, method="delta")
    except IntervalRefused:
        macro = contingency.macro_f1
    return LearningPoint(contingency.n_results, micro, macro)


def _rates_axes(axes: Axes, xlabel: str, ylabel: str,
                legend: Literal["lower right", "lower left", "upper left"], title: str, *,
                top: float = 1.01) -> None:
    """Axes of two rates in [0, 1] (a little room at the edges), labelled, gridded and titled."""
    axes.set_xlim(-0.01, 1.01)
    axes.set_ylim(-0.01, top)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3)
    axes.legend(loc=legend)
    axes.set_title(title)


def _figure(width: int, height: int, dpi: int) -> Figure:
    """An empty figure of ``width`` x ``height`` pixels; raises ImportError naming the extra."""
    for name, value in (("width", width), ("height", height), ("dpi", dpi)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer (pixels), not {value!r}")
    try:
        from matplotlib.figure import Figure
    except ImportError as missing:
        raise ImportError(_INSTALL) from missing
    return Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")


def _label_text(label: Hashable) -> str:
    """A label as drawn: itself, with a lone surrogate (no font has it) as its escape, ``\\ud800``.

    matplotlib raises TypeError on a lone surrogate, which a JSON escape can put in a label.
    ``$`` is escaped too, so that ``$x$`` is drawn as written, not as mathematics.

    >>> _label_text("\\ud800"), _label_text("$x$"), _label_text(3)
    ('\\\\ud800', '\\\\$x\\\\$', '3')
    """
    text = label if isinstance(label, str) else repr(label)
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("$", r"\$")


def _ticks(labels: Sequence[Hashable]) -> tuple[range, list[str]]:
    """Tick positions and texts for an axis; none past LABEL_LIMIT (positions would pass for labels)."""
    if len(labels) > LABEL_LIMIT:
        return range(0), []
    return range(len(labels)), [_label_text(label) for label in labels]


def table_heatmap(
    rows: Sequence[Hashable],
    columns: Sequence[Hashable],
    counts: ArrayLike,
    *,
    row_title: str = "",
    column_title: str = "",
    title: str = "",
    width: int = 800,
    height: int = 600,
    dpi: int = 100,
) -> Figure:
    """A heatmap of a table of counts: one row per ``rows`` label, one column per ``columns`` label.

    Cells show their count when the table has at most :data:`ANNOTATE_LIMIT`
    rows and columns; axes name their labels up to :data:`LABEL_LIMIT`.

    >>> figure = table_heatmap(["a", "b"], [1, 2], [[3, 0], [1, 2]], row_title="class")
    >>> figure.get_size_inches().tolist(), [text.get_text() for text in figure.axes[0].texts]
    ([8.0, 6.0], ['3', '0', '1', '2'])
    """
    import numpy as np

    table = np.asarray(counts)
    if table.shape != (len(rows), len(columns)):
        raise ValueError(f"counts has shape {table.shape}, but there are {len(rows)} row labels "
                         f"and {len(columns)} column labels")
    figure = _figure(width, height, dpi)
    axes = figure.add_subplot()
    image = axes.imshow(table, cmap="Blues", aspect="auto", interpolation="nearest")
    figure.colorbar(image, ax=axes, label="count")
    axes.set_xticks(*_ticks(columns), rotation=90 if len(columns) > 10 else 0)
    axes.set_yticks(*_ticks(rows))
    if max(table.shape, default=0) <= ANNOTATE_LIMIT and table.size:
        threshold = table.max() / 2
        for (i, j), count in np.ndenumerate(table):
            axes.text(j, i, str(count), ha="center", va="center", fontsize="small",
                      color="white" if count > threshold else "black")
    axes.set_xlabel(column_title)
    axes.set_ylabel(row_title)
    axes.set_title(title)
    return figure


def partition_heatmap(comparison: PartitionComparison, *, title: str = "", width: int = 800,
                      height: int = 600, dpi: int = 100) -> Figure:
    """The contingency table of a :class:`~contingency.PartitionComparison`: reference rows, model columns.

    >>> from contingency import PartitionComparison
    >>> comparison = PartitionComparison.from_labels(["a", "a", "b"], [1, 2, 2])
    >>> partition_heatmap(comparison, width=400, height=300).get_size_inches().tolist()
    [4.0, 3.0]
    """
    rows, columns, counts = comparison.contingency_table()
    return table_heatmap(rows, columns, counts, row_title="reference", column_title="model",
                         title=title or f"{comparison.n_elements} elements",
                         width=width, height=height, dpi=dpi)


def confusion_heatmap(contingency: Contingency, *, labels: Iterable[Hashable] | None = None,
                      title: str = "", width: int = 800, height: int = 600, dpi: int = 100) -> Figure:
    """The confusion matrix of a :class:`~contingency.Contingency`: correct rows, assigned columns.

    The counts are :meth:`~contingency.Contingency.confusion_matrix`'s, for
    ``labels`` (default: every category, in the order of ``categories``); like it, this
    raises ``ValueError`` once a result is not single-label.

    >>> from contingency import Contingency
    >>> s = Contingency(["cat", "dog"]).add_results(["cat", "dog", "dog"], ["cat", "cat", "dog"])
    >>> axes = confusion_heatmap(s).axes[0]
    >>> axes.images[0].get_array().tolist(), (axes.get_ylabel(), axes.get_xlabel())
    ([[1, 1], [0, 1]], ('correct', 'assigned'))
    """
    chosen = list(contingency.categories if labels is None else labels)
    counts = contingency.confusion_matrix(chosen)
    return table_heatmap(chosen, chosen, counts, row_title="correct", column_title="assigned",
                         title=title or f"{contingency.n_results} results",
                         width=width, height=height, dpi=dpi)


def category_chart(contingency: Contingency, *, title: str = "", width: int = 800,
                   height: int = 600, dpi: int = 100) -> Figure:
    """Per-category precision, recall and F1 of a :class:`~contingency.Contingency`, as grouped bars.

    The values are :meth:`~contingency.Contingency.category_stats`'s, with the
    accumulator's conventions for undefined cases (a NaN draws no bar).

    >>> from contingency import Contingency
    >>> s = Contingency().add_results(["a", "b", "b"], ["a", "b", "a"])
    >>> axes = category_chart(s).axes[0]
    >>> [float(bar.get_height()) for bar in axes.containers[2]]  # F1 of a and b
    [0.6666666666666666, 0.6666666666666666]
    """
    stats = contingency.category_stats()
    labels = [_label_text(label) for label in stats]
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    bar = 0.8 / 3
    for k, score in enumerate(("precision", "recall", "f1")):
        positions = [i + (k - 1) * bar for i in range(len(labels))]
        axes.bar(positions, [float(row[score]) for row in stats.values()], bar,
                 label="F1" if score == "f1" else score)
    axes.set_xticks(range(len(labels)), labels, rotation=90 if len(labels) > 10 else 0)
    axes.set_ylim(0, 1.15)  # room above the bars for the legend
    axes.set_ylabel("score")
    axes.set_xlabel("category")
    axes.legend(loc="upper center", ncols=3)
    axes.set_title(title or f"{contingency.n_results} results, {len(labels)} categories")
    return figure


def learning_curve(points: Iterable[tuple[Any, ...]], *, level: float | None = None,
                   title: str = "", width: int = 800, height: int = 600, dpi: int = 100,
                   names: tuple[str, str] = ("micro F1", "macro F1"),
                   ylabel: str = "F1", ylim: tuple[float, float] = (0.0, 1.05)) -> Figure:
    """Micro and macro F1 against the number of results, from recorded points, with their bands.

    ``points`` are :class:`LearningPoint` (or any ``(n_results, micro_f1,
    macro_f1)`` triples) in the order they were recorded, as
    :func:`learning_point` takes them while results stream in. An F1 that is
    an :class:`~contingency.Interval` (``learning_point(s, intervals=0.95)``)
    is drawn at its estimate, with a shaded band from ``low`` to ``high``
    (``level``, if given, names the intervals' level in the legend):

    >>> from contingency import Contingency
    >>> s, points = Contingency(), []
    >>> for assigned, correct in [("a", "a"), ("b", "a"), ("b", "b"), ("a", "a")]:
    ...     s.add_result(assigned, correct)
    ...     points.append(learning_point(s))
    >>> axes = learning_curve(points).axes[0]
    >>> [line.get_label() for line in axes.get_lines()]
    ['micro F1', 'macro F1']
    >>> axes.get_lines()[0].get_xydata().tolist()
    [[1.0, 1.0], [2.0, 0.5], [3.0, 0.6666666666666666], [4.0, 0.75]]
    >>> banded = learning_curve([learning_point(s, intervals=0.9)], level=0.9).axes[0]
    >>> [band.get_label() for band in banded.collections]
    ['micro F1, 90% interval', 'macro F1, 90% interval']

    Any two scores recorded the same way draw the same: ``names`` labels the
    two lines and ``ylabel`` the axis (the micro and macro ROC AUC of a
    :class:`~contingency.MulticlassThresholdContingency` after each result, say);
    ``ylim`` is the axis's range.
    """
    recorded = [LearningPoint(*point) for point in points]
    if not recorded:
        raise ValueError("learning_curve needs at least one recorded point")
    interval = "interval" if level is None else f"{float(level) * 100:g}% interval"
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    counts = [point.n_results for point in recorded]
    marker = "o" if len(recorded) <= 50 else None
    for name, values in ((names[0], [point.micro_f1 for point in recorded]),
                         (names[1], [point.macro_f1 for point in recorded])):
        line, = axes.plot(counts, [_estimate(value) for value in values], marker=marker, label=name)
        banded = [value for value in values if isinstance(value, tuple)]
        if banded:
            nan = float("nan")
            axes.fill_between(counts, [value[0] if isinstance(value, tuple) else nan
                                       for value in values],
                              [value[2] if isinstance(value, tuple) else nan for value in values],
                              color=line.get_color(), alpha=0.2, linewidth=0,
                              label=f"{name}, {interval}")
    axes.set_ylim(*ylim)
    axes.set_xlabel("results")
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    axes.set_title(title or f"learning curve, {counts[-1]} results")
    return figure


def _estimate(value: float | Interval) -> float:
    """The value drawn for an F1: itself, or an interval's estimate."""
    return float(value[1]) if isinstance(value, tuple) else float(value)

def group_chart(grouped: GroupedContingency, score: Score = "macro_f1", *, title: str = "",
                width: int = 800, height: int = 600, dpi: int = 100) -> Figure:
    """One score of a :class:`~contingency.GroupedContingency` by group: a bar per group, and a
    dashed line at its value over every result.

    The values are :meth:`~contingency.GroupedContingency.by_group`'s and
    :meth:`~contingency.GroupedContingency.overall_score`'s, ``score`` named
    as they name it (``"macro_f1"``, ``("recall", 1)``); a NaN draws no bar.
    The title gives the difference between the groups. (Intervals around each
    bar are to come with the intervals of the scores.)

    >>> from contingency import GroupedContingency
    >>> g = GroupedContingency().add_results(["a", "b", "b"], ["a", "b", "a"], groups=["x", "y", "y"])
    >>> axes = group_chart(g, "micro_f1").axes[0]
    >>> [float(bar.get_height()) for bar in axes.containers[0]], list(axes.get_lines()[0].get_ydata())
    ([1.0, 0.5], [0.6666666666666666, 0.6666666666666666])
    """
    from contingency._group_scores import score_name

    values = grouped.by_group(score)
    overall = grouped.overall_score(score)
    labels = [_label_text(", ".join(map(str, key)) if isinstance(key, tuple) else key)
              for key in values]
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    axes.bar(range(len(labels)), [float(value) for value in values.values()], 0.7,
             label="by group")
    axes.axhline(overall, color="black", linestyle="--", linewidth=1, label="every result")
    axes.set_xticks(range(len(labels)), labels, rotation=90 if len(labels) > 10 else 0)
    axes.set_ylabel(score_name(score))
    axes.set_xlabel("group")
    shown = [float(value) for value in (*values.values(), overall) if value == value]
    if all(0 <= value <= 1 for value in shown):
        axes.set_ylim(0, 1.15)  # room above the bars for the legend
    axes.legend(loc="upper center", ncols=2)
    if not title and values:
        title = (f"{score_name(score)} by group: difference "
                 f"{grouped.difference(score):.3f}, ratio {grouped.ratio(score):.3f}")
    axes.set_title(title)
    return figure


Curves = Any  # a ThresholdContingency, a MulticlassThresholdContingency, or {name: ThresholdContingency}


def _named_curves(curves: Curves) -> list[tuple[str, ThresholdContingency]]:
    """The lines to draw: ``(name, binary accumulator)``, in order."""
    from contingency._multiclass_threshold import MulticlassThresholdContingency
    from contingency._threshold import ThresholdContingency

    if isinstance(curves, ThresholdContingency):
        return [("", curves)]
    if isinstance(curves, MulticlassThresholdContingency):
        return [*((_label_text(label), curves.one_vs_rest(label)) for label in curves.classes),
                ("micro average", curves.micro())]
    if isinstance(curves, dict) and curves and all(isinstance(curve, ThresholdContingency)
                                                   for curve in curves.values()):
        return [(_label_text(name), curve) for name, curve in curves.items()]
    raise TypeError("curves must be a ThresholdContingency, a MulticlassThresholdContingency or a "
                    f"non-empty dict of ThresholdContingency, not {type(curves).__name__}")


def _legend_name(name: str, what: str, value: float) -> str:
    return f"{name + ', ' if name else ''}{what} {value:.3f}"


def roc_plot(curves: Curves, *, title: str = "", width: int = 800, height: int = 600,
             dpi: int = 100) -> Figure:
    """ROC curves (true positive rate against false positive rate), each labelled with its AUC.

    The points are :meth:`~contingency.ThresholdContingency.roc_curve`'s and
    the AUC :meth:`~contingency.ThresholdContingency.roc_auc`'s; the
    diagonal is a random score's.

    >>> from contingency import ThresholdContingency
    >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
    >>> line = roc_plot(curve).axes[0].get_lines()[0]
    >>> line.get_label(), line.get_xydata().tolist()
    ('AUC 0.750', [[0.0, 0.0], [0.0, 0.5], [0.5, 0.5], [0.5, 1.0], [1.0, 1.0]])
    """
    named = _named_curves(curves)
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    for name, curve in named:
        fpr, tpr, _ = curve.roc_curve()
        axes.plot(fpr, tpr, drawstyle="default",
                  label=_legend_name(name, "AUC", curve.roc_auc()))
    axes.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="_chance")
    _rates_axes(axes, "false positive rate", "true positive rate", "lower right",
                title or f"ROC curve, {named[0][1].n_results} results")
    return figure


def precision_recall_plot(curves: Curves, *, title: str = "", width: int = 800, height: int = 600,
                          dpi: int = 100) -> Figure:
    """Precision-recall curves, each labelled with its average precision, drawn as steps.

    The points are :meth:`~contingency.ThresholdContingency.precision_recall_curve`'s.

    >>> from contingency import ThresholdContingency
    >>> curve = ThresholdContingency(); curve.add_results([0.8, 0.4, 0.35, 0.1], [1, 0, 1, 0])
    >>> line = precision_recall_plot(curve).axes[0].get_lines()[0]
    >>> line.get_label(), line.get_xydata()[:, 0].tolist()
    ('AP 0.833', [1.0, 1.0, 0.5, 0.5, 0.0])
    """
    named = _named_curves(curves)
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    for name, curve in named:
        precision, recall, _ = curve.precision_recall_curve()
        axes.plot(recall, precision, drawstyle="steps-post",
                  label=_legend_name(name, "AP", curve.average_precision()))
    _rates_axes(axes, "recall", "precision", "lower left",
                title or f"precision-recall curve, {named[0][1].n_results} results", top=1.05)
    return figure


def reliability_plot(curve: ThresholdContingency, *, n_bins: int = 10, strategy: str = "uniform",
                     title: str = "", width: int = 800, height: int = 600, dpi: int = 100) -> Figure:
    """A reliability diagram: the share of positives against the mean predicted probability per bin.

    The points are :meth:`~contingency.ThresholdContingency.calibration_curve`'s
    (``n_bins``, ``strategy``), the title gives
    :meth:`~contingency.ThresholdContingency.calibration_error` (expected
    calibration error over ``n_bins`` equal bins); the diagonal is perfect
    calibration. Exact mode, scores in [0, 1].

    >>> from contingency import ThresholdContingency
    >>> curve = ThresholdContingency(); curve.add_results([0.9, 0.8, 0.3, 0.2], [1, 0, 1, 0])
    >>> line = reliability_plot(curve, n_bins=2).axes[0].get_lines()[0]
    >>> line.get_xydata().tolist()
    [[0.25, 0.5], [0.8500000000000001, 0.5]]
    """
    from contingency._threshold import ThresholdContingency

    if not isinstance(curve, ThresholdContingency):
        raise TypeError(f"reliability_plot takes a ThresholdContingency, not {type(curve).__name__}")
    prob_true, prob_pred = curve.calibration_curve(n_bins, strategy=strategy)  # type: ignore[arg-type]
    error = curve.calibration_error(n_bins) if strategy == "uniform" else None
    figure = _figure(width, height, dpi)
    axes: Axes = figure.add_subplot()
    axes.plot(prob_pred, prob_true, marker="o", label="model")
    axes.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="perfectly calibrated")
    if not title:
        title = f"reliability, {curve.n_results} results"
        if error is not None:
            title += f", expected calibration error {error:.3f}"
    _rates_axes(axes, "mean predicted probability", "share of positives", "upper left", title)
    return figure
