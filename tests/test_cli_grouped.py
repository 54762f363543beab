"""The command line's --group and --pos-label: scores by group and their disparities, from a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contingency import GroupedContingency
from contingency.cli import main

ROWS = [("a", "a", "n", "1"), ("b", "a", "n", "2"), ("b", "b", "s", "1"), ("a|b", "b", "s", "1"),
        ("a", "b", "s", "2")]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write_rows(tmp_path: Path, rows=ROWS, name: str = "run.csv") -> str:
    path = tmp_path / name
    path.write_text("assigned,correct,region,age\n" + "".join(",".join(row) + "\n" for row in rows),
                    encoding="utf-8")
    return str(path)


def expected(rows=ROWS, features=(2,)) -> GroupedContingency:
    grouped = GroupedContingency()
    for row in rows:
        key = tuple(row[i] for i in features) if len(features) > 1 else row[features[0]]
        assigned = tuple(part for part in row[0].split("|") if part)
        grouped.add_result(assigned[0] if len(assigned) == 1 else assigned, row[1], group=key)
    return grouped


def test_group_prints_the_grouped_report_of_the_file(capsys, tmp_path):
    status, out, err = run(capsys, "classify", write_rows(tmp_path), "--group", "region")
    assert (status, err) == (0, "")
    report = expected().report()
    assert out.startswith(report)
    assert "5 results read" in out


def test_several_groups_make_tuple_groups_and_the_state_is_the_accumulators(capsys, tmp_path):
    state = tmp_path / "state.json"
    status, _, err = run(capsys, "classify", write_rows(tmp_path), "--group", "region",
                         "--group", "age", "--state", str(state))
    assert (status, err) == (0, "")
    loaded = GroupedContingency.from_dict(json.loads(state.read_text(encoding="utf-8")))
    assert loaded == expected(features=(2, 3))
    assert loaded.groups == (("n", "1"), ("n", "2"), ("s", "1"), ("s", "2"))


def test_pos_label_adds_the_fairness_scores_as_json(capsys, tmp_path):
    status, out, err = run(capsys, "classify", write_rows(tmp_path), "--group", "region",
                           "--pos-label", "b", "--format", "json")
    assert (status, err) == (0, "")
    scores = json.loads(out)
    grouped = expected()
    assert scores["fairness"]["demographic_parity_difference"]["between_groups"] == (
        grouped.demographic_parity_difference("b"))
    assert [row["values"]["selection_rate(b)"] for row in scores["groups"]] == list(
        grouped.selection_rate("b").values())


def test_pos_label_reads_an_integer_category_of_json_lines(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps({"assigned": a, "correct": c, "region": g}) + "\n"
                            for a, c, g in [(1, 1, "n"), (0, 1, "s"), (1, 0, "s")]),
                    encoding="utf-8")
    status, out, _ = run(capsys, "classify", str(path), "--group", "region", "--pos-label", "1")
    assert status == 0
    assert "fairness of category 1" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--pos-label", "b"], "--pos-label needs --group"),
    (["--group", "region", "--pos-label", "z"], "--pos-label 'z' is not a category"),
    (["--group", "height"], "no column 'height' (--group)"),
])
def test_bad_options_end_with_one_line(capsys, tmp_path, argv, message):
    status, out, err = run(capsys, "classify", write_rows(tmp_path), *argv)
    assert (status, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1


def test_a_bad_group_cell_names_its_line(capsys, tmp_path):
    rows = [*ROWS[:3], ("a", "a", "", "1")]
    status, _, err = run(capsys, "classify", write_rows(tmp_path, rows), "--group", "region")
    assert status == 2
    assert "line 5" in err
    assert "empty label in column 'region' (--group)" in err


def test_an_unknown_category_names_its_line(capsys, tmp_path):
    status, _, err = run(capsys, "classify", write_rows(tmp_path), "--group", "region",
                         "--categories", "a,")
    assert status == 2
    assert "line 3: correct: unknown category 'b'" in err or "line 3: assigned: unknown category 'b'" in err


def test_plot_draws_the_score_by_group(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    figure = tmp_path / "groups.png"
    status, _, err = run(capsys, "classify", write_rows(tmp_path), "--group", "region",
                         "--pos-label", "a", "--plot", str(figure), "--learning-curve",
                         str(tmp_path / "curve.png"))
    assert (status, err) == (0, "")
    assert figure.read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "curve.png").exists()


def test_a_pos_label_of_no_category_lists_the_categories_bounded(capsys, tmp_path):
    """As every read says a label is no category (``_labels.not_a_category``): the categories
    as a list, as far as one line can bear (a thousand were listed in full)."""
    rows = [(f"c{i:04}", f"c{i:04}", "n", "1") for i in range(1000)]
    status, out, err = run(capsys, "classify", write_rows(tmp_path, rows), "--group", "region",
                           "--pos-label", "z")
    assert (status, out) == (2, "")
    assert ("--pos-label 'z' is not a category (the categories are ['c0000', 'c0001', 'c0002', "
            "'c0003', 'c0004', 'c0005', ...])") in err
    assert err.count("\n") == 1
