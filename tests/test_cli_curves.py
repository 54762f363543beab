"""The command line's ``curves``: a scored stream from a file (binary, or a score column per class),
its report, JSON and state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score, top_k_accuracy_score
from sklearn.preprocessing import label_binarize

from contingency import MulticlassThresholdContingency, ThresholdContingency
from contingency.cli import main

SCORES = [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.2, 0.1]
LABELS = ["spam", "spam", "ham", "spam", "eggs", "spam", "ham", "spam", "ham", "ham"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, rows: list[tuple[str, str]], name: str = "scored.csv") -> str:
    path = tmp_path / name
    path.write_text("score,label\n" + "".join(f"{s},{y}\n" for s, y in rows), encoding="utf-8")
    return str(path)


def rows() -> list[tuple[str, str]]:
    return [(str(s), y) for s, y in zip(SCORES, LABELS)]


def test_curves_prints_the_report_of_the_scores(capsys, tmp_path):
    status, out, err = run(capsys, "curves", write(tmp_path, rows()), "--score", "score",
                           "--correct", "label", "--positive", "spam")
    assert (status, err) == (0, "")
    expected = ThresholdContingency(pos_label="spam")
    expected.add_results(SCORES, LABELS)
    assert out.startswith(expected.report() + "\n\n")
    assert "10 results read, 1 line skipped" in out
    truth = [int(y == "spam") for y in LABELS]
    assert f"{roc_auc_score(truth, SCORES):.3f}" in out
    assert f"{average_precision_score(truth, SCORES):.3f}" in out


def test_json_and_state_are_the_accumulators(capsys, tmp_path):
    state = tmp_path / "state.json"
    status, out, _ = run(capsys, "curves", write(tmp_path, rows()), "--score", "score",
                         "--correct", "label", "--positive", "spam", "--bins", "4",
                         "--format", "json", "--state", str(state))
    assert status == 0
    expected = ThresholdContingency(pos_label="spam", bins=4)
    expected.add_results(SCORES, LABELS)
    assert json.loads(out) == expected.scores()
    assert ThresholdContingency.from_dict(json.loads(state.read_text())) == expected


def test_without_positive_the_labels_are_one_or_zero(capsys, tmp_path):
    binary = [(s, {"spam": "1", "ham": "0", "eggs": "false"}[y]) for s, y in rows()]
    status, out, _ = run(capsys, "curves", write(tmp_path, binary), "--score", "score",
                         "--correct", "label", "--format", "json")
    assert status == 0
    truth = [int(y == "spam") for y in LABELS]
    assert json.loads(out)["roc_auc"] == pytest.approx(roc_auc_score(truth, SCORES), rel=1e-12)


@pytest.mark.parametrize(("bad", "argv", "message"), [
    (("abc", "spam"), [], "line 4: score 'abc' is not a number"),
    (("nan", "spam"), [], "line 4: add: score must be a finite number, not nan"),
    (("0.5", "spam"), ["--no-positive"], "line 2: correct label 'spam' is not 1/0 or true/false"),
    (("1.5", "spam"), ["--bins", "10"], "line 4: add: score = 1.5 is outside the bins' range"),
])
def test_bad_input_names_its_line(capsys, tmp_path, bad, argv, message):
    data = rows()
    data.insert(2, bad)
    options = ["--positive", "spam"] if "--no-positive" not in argv else []
    options += [a for a in argv if a != "--no-positive"]
    status, out, err = run(capsys, "curves", write(tmp_path, data), "--score", "score",
                           "--correct", "label", *options)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_one_class_follows_zero_division(capsys, tmp_path):
    only = [(s, "spam") for s, _ in rows()]
    path = write(tmp_path, only)
    status, out, _ = run(capsys, "curves", path, "--score", "score", "--correct", "label",
                         "--positive", "spam")
    assert status == 0
    assert "roc auc  -" in out
    status, out, _ = run(capsys, "curves", path, "--score", "score", "--correct", "label",
                         "--positive", "spam", "--zero-division", "0", "--format", "json")
    assert json.loads(out)["roc_auc"] == 0.0
    status, out, _ = run(capsys, "curves", path, "--score", "score", "--correct", "label",
                         "--positive", "spam", "--zero-division", "nan", "--format", "json")
    assert status == 0
    assert json.loads(out)["roc_auc"] is None  # NaN is null in the JSON


@pytest.mark.parametrize("bins", ["0", "x", "1.5"])
def test_bad_bins_are_refused(capsys, tmp_path, bins):
    status, _, err = run(capsys, "curves", write(tmp_path, rows()), "--score", "score",
                         "--correct", "label", "--bins", bins)
    assert status == 2
    assert "--bins" in err


def test_an_empty_file_and_a_missing_column_are_refused(capsys, tmp_path):
    status, _, err = run(capsys, "curves", write(tmp_path, []), "--score", "score",
                         "--correct", "label")
    assert status == 2
    assert "no results" in err
    status, _, err = run(capsys, "curves", write(tmp_path, rows()), "--score", "probability",
                         "--correct", "label")
    assert status == 2
    assert "probability" in err


def test_plot_draws_the_roc_curve_and_refuses_one_class(capsys, tmp_path):
    import matplotlib.image

    from tests.test_plot import png_size

    figure = tmp_path / "roc.png"
    status, _, err = run(capsys, "curves", write(tmp_path, rows()), "--score", "score",
                           "--correct", "label", "--positive", "spam", "--plot", str(figure))
    assert (status, err) == (0, "")
    assert png_size(figure) == (800, 600)
    # the figure is contingency.plot.roc_plot of the accumulator the command built
    expected = ThresholdContingency(pos_label="spam")
    expected.add_results(SCORES, LABELS)
    drawn = tmp_path / "expected.png"
    from contingency import plot

    plot.roc_plot(expected).savefig(drawn)
    assert (matplotlib.image.imread(figure) == matplotlib.image.imread(drawn)).all()
    only = write(tmp_path, [(s, "spam") for s, _ in rows()], name="only.csv")
    status, _, err = run(capsys, "curves", only, "--score", "score", "--correct", "label",
                         "--positive", "spam", "--plot", str(tmp_path / "none.png"))
    assert status == 2
    assert "--plot" in err
    assert "no result is negative" in err
    assert not (tmp_path / "none.png").exists()


# Several classes: a score column per class ------------------------------------------------------

CLASSES = ["cat", "dog", "owl"]


def scored_rows(seed: int = 5, n: int = 60) -> tuple[Any, Any]:
    """An (n, 3) matrix of probabilities on a coarse grid (ties) and each row's class."""
    rng = np.random.default_rng(seed)
    raw = np.round(rng.random((n, 3)), 1) + 0.1
    labels = np.array(CLASSES)[rng.integers(0, 3, n)]
    return raw / raw.sum(axis=1, keepdims=True), labels


def write_matrix(tmp_path: Path, matrix: Any, labels: Any, name: str = "several.csv",
                 bad: tuple[int, str, str] | None = None) -> str:
    lines = ["animal,p_cat,p_dog,p_owl"]
    for i, (row, label) in enumerate(zip(matrix.tolist(), labels.tolist())):
        cells = [label, *map(repr, row)]
        if bad is not None and bad[0] == i:
            cells[int(bad[1])] = bad[2]
        lines.append(",".join(cells))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


SEVERAL = ["--score", "p_cat,p_dog,p_owl", "--correct", "animal", "--categories", "cat,dog,owl"]


def test_several_score_columns_read_scikit_learns_one_vs_rest(capsys, tmp_path):
    matrix, labels = scored_rows()
    state = tmp_path / "state.json"
    status, out, err = run(capsys, "curves", write_matrix(tmp_path, matrix, labels), *SEVERAL,
                           "--format", "json", "--state", str(state))
    assert (status, err) == (0, "")
    found = json.loads(out)
    for average in ("macro", "weighted", "micro"):
        assert found[f"roc_auc_{average}"] == pytest.approx(roc_auc_score(
            labels, matrix, multi_class="ovr", average=average, labels=CLASSES), rel=1e-12)
        assert found[f"average_precision_{average}"] == pytest.approx(average_precision_score(
            label_binarize(labels, classes=CLASSES), matrix, average=average), rel=1e-12)
    assert found["top_1_accuracy"] == pytest.approx(
        top_k_accuracy_score(labels, matrix, k=1, labels=CLASSES), rel=1e-12)
    per_class = roc_auc_score(label_binarize(labels, classes=CLASSES), matrix, average=None)
    assert [row["class"] for row in found["per_class"]] == CLASSES
    assert [row["roc_auc"] for row in found["per_class"]] == pytest.approx(per_class.tolist())
    expected = MulticlassThresholdContingency(CLASSES)
    expected.add_results(matrix, labels)
    assert MulticlassThresholdContingency.from_dict(json.loads(state.read_text())) == expected
    assert found == json.loads(json.dumps(expected.scores()))
    status, out, _ = run(capsys, "curves", write_matrix(tmp_path, matrix, labels), *SEVERAL)
    assert status == 0
    assert out.startswith(expected.report() + "\n\n")
    assert "60 results read, 1 line skipped" in out


def test_the_classes_default_to_the_score_columns_names(capsys, tmp_path):
    matrix, labels = scored_rows(n=20)
    named = np.char.add("p_", labels)
    status, out, err = run(capsys, "curves", write_matrix(tmp_path, matrix, named),
                           "--score", "p_cat,p_dog,p_owl", "--correct", "animal", "--bins", "10",
                           "--format", "json")
    assert (status, err) == (0, "")
    expected = MulticlassThresholdContingency(["p_cat", "p_dog", "p_owl"], bins=10)
    expected.add_results(matrix, named)
    assert json.loads(out) == json.loads(json.dumps(expected.scores()))


@pytest.mark.parametrize(("bad", "argv", "message"), [
    ((7, "2", "abc"), [], "line 9: score 'abc' in column 'p_dog' is not a number"),
    ((3, "1", "inf"), [], "line 5: score 'inf' in column 'p_cat' is not a finite number"),
    ((4, "0", "cow"), [], "line 6: class 'cow' (--correct) is not one of the classes cat, dog, owl"),
    ((4, "3", "1.5"), ["--bins", "4"], "line 6: add: scores[2] = 1.5 is outside the bins' range"),
    (None, ["--categories", "cat,dog"], "--categories names 2 classes for 3 --score columns"),
    (None, ["--positive", "cat"], "--positive goes with one --score column"),
    (None, ["--score", "p_cat,p_cat,p_owl"], "a column is named twice"),
    (None, ["--score", "p_cat,,p_owl"], "an empty column name"),
    (None, ["--score", "p_cat,p_dog,p_bat"], "p_bat"),
])
def test_bad_input_with_several_classes_names_its_line(capsys, tmp_path, bad, argv, message):
    matrix, labels = scored_rows(n=12)
    path = write_matrix(tmp_path, matrix, labels, bad=bad)
    options = list(SEVERAL)
    for option in ("--categories", "--score"):
        if option in argv:
            at = options.index(option)
            options[at + 1] = argv[argv.index(option) + 1]
    extra = [a for i, a in enumerate(argv) if a not in ("--categories", "--score")
             and (i == 0 or argv[i - 1] not in ("--categories", "--score"))]
    status, out, err = run(capsys, "curves", path, *options, *extra)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_categories_with_one_score_column_are_refused(capsys, tmp_path):
    status, _, err = run(capsys, "curves", write(tmp_path, rows()), "--score", "score",
                         "--correct", "label", "--categories", "spam,ham")
    assert status == 2
    assert "--categories names the classes of several --score columns" in err


def test_plot_draws_a_curve_per_class(capsys, tmp_path):
    from tests.test_plot import png_size

    matrix, labels = scored_rows()
    figure = tmp_path / "roc.png"
    status, _, err = run(capsys, "curves", write_matrix(tmp_path, matrix, labels), *SEVERAL,
                         "--plot", str(figure))
    assert (status, err) == (0, "")
    assert png_size(figure) == (800, 600)
    no_owl = labels.copy()
    no_owl[no_owl == "owl"] = "cat"
    status, _, err = run(capsys, "curves", write_matrix(tmp_path, matrix, no_owl, name="two.csv"),
                         *SEVERAL, "--plot", str(tmp_path / "none.png"))
    assert status == 2
    assert "the ROC curve of class 'owl' needs both classes" in err
    assert not (tmp_path / "none.png").exists()
