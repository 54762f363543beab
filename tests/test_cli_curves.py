"""The command line's ``curves``: a scored binary stream from a file, its report, JSON and state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from contingency import ThresholdContingency
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
