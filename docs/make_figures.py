"""Make the documentation's figures (docs/images/*.png) from the bundled example data.

Run from the repository root with the plot extra and scikit-learn installed (``python -m
pip install -e ".[plot]" scikit-learn``: the test extra has both)::

    python docs/make_figures.py

The data is the package's bundled example, ``contingency/examples/digits.csv`` (see
scripts/make_example_data.py for its provenance): for each of scikit-learn's 1797
handwritten digits, the true digit, the digit a naive Bayes classifier predicted for it
when held out, and the k-means cluster it fell in. Every figure is one of
:mod:`contingency.plot`'s functions applied to an accumulator fed with those rows; the
chart by group groups the images by their mean ink (from ``sklearn.datasets.load_digits``,
whose positions the example's ``image`` column gives), in three equal-sized bins. The
curves (ROC, precision-recall, reliability, streaming AUC) read the example's ``p0`` ...
``p9`` columns, a logistic regression's held-out probabilities of each digit, through a
:class:`~contingency.MulticlassThresholdContingency` fed one image at a time.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from contingency import (
    Contingency,
    GroupedContingency,
    MulticlassThresholdContingency,
    PartitionComparison,
    plot,
)

IMAGES = Path(__file__).resolve().parent / "images"
EXAMPLE = "digits.csv"
#: Results between two recorded points of the learning curve.
EVERY = 25
#: The learning curve's confidence bands.
LEVEL = 0.95
#: Every figure's size in pixels.
WIDTH, HEIGHT = 800, 600


def rows() -> Iterator[dict[str, str]]:
    """The bundled example's rows, as the CSV header names their fields."""
    with resources.files("contingency.examples").joinpath(EXAMPLE).open(encoding="utf-8") as stream:
        yield from csv.DictReader(stream)


def ink_bins() -> Any:
    """Each image's mean ink, binned into thirds: "light", "medium", "heavy" (by image position)."""
    import numpy as np
    from sklearn.datasets import load_digits

    ink = load_digits().images.mean(axis=(1, 2))
    edges = np.quantile(ink, [1 / 3, 2 / 3])
    return np.array(["light", "medium", "heavy"])[np.searchsorted(edges, ink, side="right")]


def figures() -> dict[str, Any]:
    """File name -> matplotlib Figure, for every figure of the documentation."""
    digits = Contingency(categories=[str(digit) for digit in range(10)])
    by_ink = GroupedContingency([str(digit) for digit in range(10)],
                                groups=["light", "medium", "heavy"])
    bins = ink_bins()
    comparison = PartitionComparison()
    # zero_division="nan": the AUC of a digit not yet seen is NaN (no point drawn), not an error
    scored = MulticlassThresholdContingency([str(digit) for digit in range(10)],
                                            zero_division="nan")
    curve, auc_curve = [], []
    for row in rows():
        scored.add([float(row[f"p{digit}"]) for digit in range(10)], row["digit"])
        if scored.n_results % EVERY == 0:
            auc_curve.append((scored.n_results, scored.roc_auc("micro"), scored.roc_auc("macro")))
        digits.add_result(row["predicted"], row["digit"])
        by_ink.add_result(row["predicted"], row["digit"], group=str(bins[int(row["image"])]))
        comparison.add(row["digit"], row["cluster"])
        if digits.n_results % EVERY == 0:
            curve.append(plot.learning_point(digits, intervals=LEVEL))
    if curve[-1].n_results != digits.n_results:
        curve.append(plot.learning_point(digits, intervals=LEVEL))
    if auc_curve[-1][0] != scored.n_results:
        auc_curve.append((scored.n_results, scored.roc_auc("micro"), scored.roc_auc("macro")))
    size = {"width": WIDTH, "height": HEIGHT}
    return {
        "category-chart.png": plot.category_chart(
            digits, title="Naive Bayes on the digits: per-digit precision, recall and F1", **size),
        "learning-curve.png": plot.learning_curve(
            curve, level=LEVEL, title=f"Naive Bayes on the digits: F1 every {EVERY} results, "
            f"with {LEVEL:.0%} intervals", **size),
        "partition-heatmap.png": plot.partition_heatmap(
            comparison, title="k-means clusters (columns) against the true digits (rows)", **size),
        "confusion-heatmap.png": plot.confusion_heatmap(
            digits, title="Naive Bayes on the digits: confusion matrix (rows correct)", **size),
        "group-chart.png": plot.group_chart(
            by_ink, ("recall", "8"),
            title="Naive Bayes on the digits: recall of 8 by the image's mean ink", **size),
        "digits-roc.png": plot.roc_plot(
            scored, title="Logistic regression on the digits: one-vs-rest ROC curves", **size),
        "digits-precision-recall.png": plot.precision_recall_plot(
            scored, title="Logistic regression on the digits: one-vs-rest precision-recall",
            **size),
        "digits-reliability.png": plot.reliability_plot(
            scored.micro(), title="Logistic regression on the digits: every probability "
            "against its class's truth", **size),
        "digits-streaming-auc.png": plot.learning_curve(
            auc_curve, names=("micro ROC AUC", "macro ROC AUC"), ylabel="ROC AUC",
            ylim=(0.99, 1.0005),
            title=f"Logistic regression on the digits: ROC AUC every {EVERY} images", **size),
    }


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, figure in figures().items():
        # No "Software" entry: the file does not change with matplotlib's version string.
        figure.savefig(IMAGES / name, metadata={"Software": None})
        print(IMAGES / name)


if __name__ == "__main__":
    main()
