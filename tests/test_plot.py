"""contingency.plot: figures of the accumulators' numbers, saved as PNGs of the stated size."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from contingency import (
    Contingency,
    MulticlassThresholdContingency,
    PartitionComparison,
    ThresholdContingency,
)
from contingency import plot as plots

matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file, after checking its signature and every chunk's CRC."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    position, chunks = 8, []
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        chunks.append((kind, body))
        position += 12 + length
    assert chunks[0][0] == b"IHDR"
    assert chunks[-1][0] == b"IEND"
    assert any(kind == b"IDAT" for kind, _ in chunks)
    width, height = struct.unpack(">II", chunks[0][1][:8])
    return width, height


def stream() -> Contingency:
    s = Contingency(["cat", "dog", "fox"])
    s.add_results(["cat", "dog", "dog", "fox", "cat", "fox"], ["cat", "cat", "dog", "fox", "fox", "fox"])
    return s


def scored() -> ThresholdContingency:
    curve = ThresholdContingency()
    curve.add_results([0.95, 0.9, 0.8, 0.7, 0.65, 0.6, 0.5, 0.4, 0.3, 0.1],
                      [1, 1, 0, 1, 1, 0, 1, 0, 0, 0])
    return curve


def several() -> MulticlassThresholdContingency:
    curves = MulticlassThresholdContingency(["cat", "dog", "owl"])
    curves.add_results([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
                        [0.4, 0.5, 0.1]], ["cat", "cat", "dog", "owl", "dog"])
    return curves


def comparison() -> PartitionComparison:
    return PartitionComparison.from_labels(["a", "a", "b", "b", "c", "c", "c"], [1, 1, 2, 1, 3, 3, 2])


@pytest.mark.parametrize(("width", "height", "dpi"), [(800, 600, 100), (640, 480, 80), (333, 211, 72)])
def test_every_plot_saves_a_valid_png_of_the_stated_size(tmp_path, width, height, dpi):
    s = stream()
    points = [plots.learning_point(s)]
    figures = {
        "heatmap": plots.partition_heatmap(comparison(), width=width, height=height, dpi=dpi),
        "categories": plots.category_chart(s, width=width, height=height, dpi=dpi),
        "curve": plots.learning_curve(points, width=width, height=height, dpi=dpi),
        "confusion": plots.confusion_heatmap(s, width=width, height=height, dpi=dpi),
        "table": plots.table_heatmap(["x"], ["y", "z"], [[1, 2]], width=width, height=height, dpi=dpi),
        "roc": plots.roc_plot(scored(), width=width, height=height, dpi=dpi),
        "pr": plots.precision_recall_plot(scored(), width=width, height=height, dpi=dpi),
        "reliability": plots.reliability_plot(scored(), width=width, height=height, dpi=dpi),
    }
    for name, figure in figures.items():
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        assert png_size(path) == (width, height), name
        assert matplotlib.image.imread(path).shape[:2] == (height, width)


def test_the_heatmap_shows_the_comparisons_table():
    c = comparison()
    rows, columns, table = c.contingency_table()
    axes = plots.partition_heatmap(c).axes[0]
    assert np.array_equal(axes.images[0].get_array(), table)
    assert [tick.get_text() for tick in axes.get_yticklabels()] == list(rows)
    assert [tick.get_text() for tick in axes.get_xticklabels()] == [repr(label) for label in columns]
    assert sorted(int(text.get_text()) for text in axes.texts) == sorted(table.ravel().tolist())
    assert (axes.get_ylabel(), axes.get_xlabel()) == ("reference", "model")


def test_the_confusion_heatmap_shows_the_confusion_matrix():
    s = stream()
    axes = plots.confusion_heatmap(s).axes[0]
    assert np.array_equal(axes.images[0].get_array(), s.confusion_matrix())
    assert [tick.get_text() for tick in axes.get_yticklabels()] == ["cat", "dog", "fox"]
    assert (axes.get_ylabel(), axes.get_xlabel()) == ("correct", "assigned")
    chosen = plots.confusion_heatmap(s, labels=["fox", "cat"]).axes[0]
    assert np.array_equal(chosen.images[0].get_array(), s.confusion_matrix(["fox", "cat"]))


def test_the_confusion_heatmap_refuses_multi_label_results():
    s = stream()
    s.add_result(["cat", "dog"], "dog")
    with pytest.raises(ValueError, match="not single-label"):
        plots.confusion_heatmap(s)


def test_a_large_heatmap_drops_the_cell_counts_and_labels():
    n = plots.LABEL_LIMIT + 1
    labels = [f"label {k}" for k in range(n)]
    axes = plots.table_heatmap(labels, labels, np.eye(n, dtype=np.int64)).axes[0]
    assert len(axes.texts) == 0
    assert axes.get_xticklabels() == axes.get_yticklabels() == []


def test_the_category_chart_draws_category_stats():
    s = stream()
    stats = s.category_stats()
    axes = plots.category_chart(s).axes[0]
    precision, recall, f1 = axes.containers
    for bars, score in [(precision, "precision"), (recall, "recall"), (f1, "f1")]:
        assert [bar.get_height() for bar in bars] == [row[score] for row in stats.values()]
    assert [tick.get_text() for tick in axes.get_xticklabels()] == ["cat", "dog", "fox"]


def test_labels_no_font_can_draw_or_that_look_like_mathematics_are_drawn_escaped(tmp_path):
    s = Contingency().add_results(["\ud800", "$x$", "a"], ["\ud800", "a", "a"])
    figure = plots.category_chart(s)
    ticks = [tick.get_text() for tick in figure.axes[0].get_xticklabels()]
    assert ticks == ["\\$x\\$", "a", "\\ud800"]  # the categories' order: sorted
    figure.savefig(tmp_path / "chart.png")  # matplotlib drew them (a lone surrogate: TypeError)
    assert png_size(tmp_path / "chart.png") == (800, 600)
    heatmap = plots.partition_heatmap(PartitionComparison.from_labels(["\ud800"], ["$"]))
    heatmap.savefig(tmp_path / "map.png")
    assert png_size(tmp_path / "map.png") == (800, 600)


def test_the_learning_curve_draws_the_recorded_points():
    s, points = Contingency(zero_division=0.0), []
    for assigned, correct in [("a", "a"), ("b", "a"), ("b", "b"), ("c", "a"), ("a", "a")]:
        s.add_result(assigned, correct)
        points.append(plots.learning_point(s))
    micro, macro = plots.learning_curve(points).axes[0].get_lines()
    assert micro.get_xydata().tolist() == [[p.n_results, p.micro_f1] for p in points]
    assert macro.get_xydata().tolist() == [[p.n_results, p.macro_f1] for p in points]
    assert points[-1] == (5, s.micro_f1, s.macro_f1)


def test_plain_triples_are_points_too():
    line = plots.learning_curve([(10, 0.5, 0.25), (20, 0.75, 0.5)]).axes[0].get_lines()[1]
    assert line.get_xydata().tolist() == [[10, 0.25], [20, 0.5]]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: plots.learning_curve([]), "at least one recorded point"),
        (lambda: plots.learning_curve([(1, 0.5, 0.5)], width=0), "width must be a positive integer"),
        (lambda: plots.category_chart(stream(), dpi=1.5), "dpi must be a positive integer"),
        (lambda: plots.table_heatmap(["a"], ["b"], [[1, 2]]), r"counts has shape \(1, 2\)"),
        (lambda: plots.category_chart(Contingency()), "No category information"),
    ],
)
def test_bad_arguments_raise_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_without_matplotlib_a_plot_raises_importerror_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r'pip install "contingency\[plot\]"'):
        plots.learning_curve([(1, 1.0, 1.0)])


def test_importing_the_module_does_not_import_matplotlib():
    code = "import sys, contingency.plot; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_the_roc_plot_draws_each_curve_with_its_auc():
    curve = scored()
    axes = plots.roc_plot(curve).axes[0]
    line = axes.get_lines()[0]
    fpr, tpr, _ = curve.roc_curve()
    assert line.get_xydata().tolist() == np.column_stack([fpr, tpr]).tolist()
    assert line.get_label() == f"AUC {curve.roc_auc():.3f}"
    lines = plots.roc_plot(several()).axes[0].get_lines()
    assert [line.get_label() for line in lines[:4]] == [
        f"{name}, AUC {several().one_vs_rest(name).roc_auc():.3f}" for name in ("cat", "dog", "owl")
    ] + [f"micro average, AUC {several().roc_auc('micro'):.3f}"]
    fpr, tpr, _ = several().micro().roc_curve()
    assert lines[3].get_xydata().tolist() == np.column_stack([fpr, tpr]).tolist()


def test_the_precision_recall_plot_draws_each_curve_with_its_average_precision():
    curve = scored()
    named = {"model": curve, "other": ThresholdContingency()}
    named["other"].add_results([0.2, 0.7, 0.4], [1, 0, 1])
    lines = plots.precision_recall_plot(named).axes[0].get_lines()
    for line, (name, one) in zip(lines, named.items(), strict=True):
        precision, recall, _ = one.precision_recall_curve()
        assert line.get_xydata().tolist() == np.column_stack([recall, precision]).tolist()
        assert line.get_label() == f"{name}, AP {one.average_precision():.3f}"
        assert line.get_drawstyle() == "steps-post"


def test_the_reliability_plot_draws_the_calibration_curve_and_its_error():
    curve = scored()
    axes = plots.reliability_plot(curve, n_bins=4).axes[0]
    prob_true, prob_pred = curve.calibration_curve(4)
    assert axes.get_lines()[0].get_xydata().tolist() == np.column_stack([prob_pred, prob_true]).tolist()
    assert f"{curve.calibration_error(4):.3f}" in axes.get_title()
    quantile = plots.reliability_plot(curve, n_bins=3, strategy="quantile").axes[0]
    prob_true, prob_pred = curve.calibration_curve(3, strategy="quantile")
    assert quantile.get_lines()[0].get_xydata().tolist() == np.column_stack([prob_pred, prob_true]).tolist()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: plots.roc_plot([1, 2]), TypeError, "curves must be a ThresholdContingency"),
        (lambda: plots.roc_plot({}), TypeError, "non-empty dict"),
        (lambda: plots.reliability_plot(several()), TypeError, "takes a ThresholdContingency"),
        (lambda: plots.roc_plot(ThresholdContingency()), ValueError, "roc_curve needs at least one result"),
        (lambda: plots.reliability_plot(ThresholdContingency(bins=4)), ValueError, "exact mode"),
    ],
)
def test_bad_curves_raise_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
