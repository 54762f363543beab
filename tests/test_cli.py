"""The command line, called as main(argv), and once as the installed console script."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

import contingency
from contingency import Contingency, PartitionComparison, __version__
from contingency._progress import LARGE, progress_bar
from contingency.cli import main

GOLDEN = Path(__file__).parent / "golden" / "perl" / "digits_example.txt"


def example_rows() -> list[dict[str, str]]:
    text = resources.files("contingency.examples").joinpath("digits.csv").read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def labels(cell: str) -> list[str]:
    return [part for part in cell.split("|") if part]


def example_accumulators() -> tuple[Contingency, Contingency]:
    rows = example_rows()
    digits = Contingency().add_results([r["predicted"] for r in rows], [r["digit"] for r in rows])
    tags = Contingency().add_results([labels(r["predicted_tags"]) for r in rows],
                                     [labels(r["tags"]) for r in rows])
    return digits, tags


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


# The bundled example and the demo ------------------------------------------------------------


def test_bundled_example_is_real_digits_data():
    rows = example_rows()
    assert len(rows) == 1797
    assert {r["digit"] for r in rows} == {str(d) for d in range(10)}
    # The tags follow the stated rule from the true digit.
    for r in rows:
        d = int(r["digit"])
        expected = [t for t, ok in (("even", d % 2 == 0), ("prime", d in (2, 3, 5, 7)),
                                    ("large", d > 4)) if ok]
        assert labels(r["tags"]) == expected


def test_bundled_example_stats_tables_equal_perls():
    digits, tags = example_accumulators()
    ours = "".join(s.stats_table(figs) for s in (digits, tags) for figs in range(1, 7))
    assert ours == GOLDEN.read_text("utf-8")


def test_no_arguments_runs_the_demo_on_the_bundled_example(capsys):
    status, out, err = run(capsys)
    assert (status, err) == (0, "")
    digits, tags = example_accumulators()
    for s in (digits, tags):
        assert s.stats_table() in out
        assert s.report() in out
    assert out.count("digits.csv: 1797 results read, 1 line skipped") == 3
    assert run(capsys, "demo")[1] == out


def test_demo_json_agrees_with_scikit_learn(capsys):
    status, out, _ = run(capsys, "demo", "--format", "json")
    assert status == 0
    data = json.loads(out)
    digits, tags = example_accumulators()
    assert data["digits"] == digits.scores()
    assert data["tags"] == tags.scores()
    rows = example_rows()
    reference, model = [r["digit"] for r in rows], [r["cluster"] for r in rows]
    assert data["clusters"]["adjusted_rand_index"] == pytest.approx(
        adjusted_rand_score(reference, model), abs=1e-12)
    assert data["clusters"]["normalized_mutual_information"]["arithmetic"] == pytest.approx(
        normalized_mutual_info_score(reference, model), abs=1e-12)
    assert data["clusters"] == PartitionComparison.from_labels(reference, model).scores()


# classify ------------------------------------------------------------------------------------


def test_classify_csv_with_a_header_as_pandas_writes_it(tmp_path, capsys):
    path = write(tmp_path, "run.csv", ",guess,truth\n0,cat,cat\n1,dog,cat\n2,dog|cat,dog\n")
    status, out, err = run(capsys, "classify", path, "--assigned", "guess", "--correct", "truth")
    assert (status, err) == (0, "")
    expected = Contingency().add_results(["cat", "dog", ["dog", "cat"]], ["cat", "cat", "dog"])
    assert "guess" not in out  # the header is not a category
    assert "truth" not in out
    assert out == (f"{expected.stats_table()}\n{expected.report()}\n\n"
                   f"{path}: 3 results read, 1 line skipped (header, blank lines, comments)\n")


def test_classify_three_field_file_with_header_and_comments(tmp_path, capsys):
    path = write(tmp_path, "run.tsv", "Name\tAssigned\tCorrect\n# note\nd1\ta, b\ta\nd2\t\tb\n")
    status, out, _ = run(capsys, "classify", path, "--format", "json")
    assert status == 0
    assert json.loads(out) == Contingency().add_results([["a", "b"], []], ["a", "b"]).scores()


def test_three_field_files_of_single_labels_are_read_as_every_format_reads_them(tmp_path, capsys):
    """compare, paired and curves read one label a field: a three-field file's empty field is
    refused with its line and column, and a comma is part of the label (as a csv file's "|" is),
    not a set of labels (it was read as the labels (), ("a", "c"))."""
    path = write(tmp_path, "run.txt", "n1\ta\tb\nn2\ta,c\tb\n")
    status, out, _ = run(capsys, "compare", path, "--input-format", "three-field",
                         "--reference", "assigned", "--model", "correct", "--format", "json")
    assert status == 0
    expected = PartitionComparison.from_labels(["a", "a,c"], ["b", "b"])
    assert json.loads(out)["n_reference_clusters"] == 2
    assert json.loads(out)["adjusted_rand_index"] == expected.adjusted_rand_index
    empty = write(tmp_path, "empty.txt", "n1\ta\tb\nn2\t\tb\n")
    err = one_error_line(capsys, "compare", empty, "--input-format", "three-field",
                         "--reference", "assigned", "--model", "correct")
    assert "line 2: empty label in column 'assigned'" in err


def test_classify_jsonl_tsv_and_separators_give_the_same_scores(tmp_path, capsys):
    expected = Contingency().add_results([["a", "b"], "c", []], ["a", "c", "b"]).scores()
    records = [{"p": ["a", "b"], "t": "a"}, {"p": "c", "t": ["c"]}, {"p": None, "t": "b"}]
    files = {
        "run.jsonl": "".join(json.dumps(r) + "\n" for r in records),
        "run.tsv": "p\tt\na|b\ta\nc\tc\n\tb\n",
        "run.txt": "p;t\na+b;a\nc;c\n;b\n",
    }
    extra = {"run.txt": ["--sep", ";", "--label-sep", "+"]}
    for name, text in files.items():
        path = write(tmp_path, name, text)
        status, out, err = run(capsys, "classify", path, "--assigned", "p", "--correct", "t",
                               "--format", "json", *extra.get(name, []))
        assert (status, err) == (0, ""), name
        assert json.loads(out) == expected, name


def test_classify_no_header_with_column_numbers(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "x,a,a\ny,b,a\n")
    status, out, _ = run(capsys, "classify", path, "--assigned", "2", "--correct", "3",
                         "--no-header", "--format", "json")
    assert status == 0
    assert json.loads(out)["n_results"] == 2
    status, out, _ = run(capsys, "classify", path, "--assigned", "2", "--correct", "3",
                         "--header", "--format", "json")
    assert json.loads(out)["n_results"] == 1


@pytest.mark.parametrize(("option", "value"), [("perl", "perl"), ("0", 0.0), ("1", 1.0),
                                                ("nan", "nan")])
def test_classify_zero_division(tmp_path, capsys, option, value):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\nb,a\n,c\n")
    status, out, _ = run(capsys, "classify", path, "--zero-division", option, "--format", "json")
    assert status == 0
    expected = Contingency(zero_division=value).add_results(["a", "b", []], ["a", "a", "c"])
    assert json.loads(out) == expected.scores()


def test_classify_declared_categories_from_a_list_or_a_file(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\nb,a\n")
    listing = write(tmp_path, "categories.txt", "a\nb\n\nc\n")
    expected = Contingency(["a", "b", "c"]).add_results(["a", "b"], ["a", "a"]).scores()
    for given in ("a,b,c", listing):
        status, out, _ = run(capsys, "classify", path, "--categories", given, "--format", "json")
        assert status == 0
        assert json.loads(out) == expected


@pytest.mark.parametrize("given", ["categorie.txt", "lists/categories", "labels.CSV"])
def test_a_categories_file_that_does_not_exist_is_an_error_not_a_category(tmp_path, capsys,
                                                                         given):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\n")
    missing = str(tmp_path / given)
    assert one_error_line(capsys, "classify", path, "--categories", missing) == (
        f"contingency: --categories {missing}: no such file (to declare one category of that "
        f"name, write it with a comma: '{missing},')\n")


def test_one_category_named_like_a_file_is_declared_with_a_comma(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\nnotes.txt,notes.txt\n")
    status, out, _ = run(capsys, "classify", path, "--categories", "notes.txt,", "--format",
                         "json")
    assert status == 0
    assert [row["category"] for row in json.loads(out)["categories"]] == ["notes.txt"]


def test_a_categories_file_is_read_as_the_input_is(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\nb,a\n")
    listing = write(tmp_path, "categories.txt", b"\xef\xbb\xbfa\r\nb\r\n")  # BOM, CRLF
    status, out, _ = run(capsys, "classify", path, "--categories", listing, "--format", "json")
    assert status == 0
    assert [row["category"] for row in json.loads(out)["categories"]] == ["a", "b"]
    listing = write(tmp_path, "categories.txt", b"a\n\xff\n")
    assert one_error_line(capsys, "classify", path, "--categories", listing) == (
        f"contingency: --categories {listing} line 2: invalid UTF-8 (byte 0xff at byte 1 of the "
        "line)\n")


def test_classify_figs_sets_the_stats_table_and_report(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\nb,a\n")
    status, out, _ = run(capsys, "classify", path, "--figs", "5")
    s = Contingency().add_results(["a", "b"], ["a", "a"])
    assert status == 0
    assert out.startswith(s.stats_table(5) + "\n" + s.report(digits=5))


def test_state_file_holds_to_dict(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct,cluster\na,a,1\nb,a,2\n")
    state = tmp_path / "state.json"
    assert run(capsys, "classify", path, "--state", str(state))[0] == 0
    assert Contingency.from_dict(json.loads(state.read_text())) == Contingency().add_results(
        ["a", "b"], ["a", "a"])
    assert run(capsys, "compare", path, "--reference", "correct", "--model", "cluster",
               "--state", str(state))[0] == 0
    assert PartitionComparison.from_dict(json.loads(state.read_text())) == (
        PartitionComparison.from_labels(["a", "a"], ["1", "2"]))


def test_the_state_is_made_only_when_asked_for(tmp_path, capsys, monkeypatch):
    """Without --state no to_dict() runs: O(categories) or O(cells) work nobody reads."""
    path = write(tmp_path, "run.csv", "assigned,correct,cluster\na,a,1\nb,a,2\n")
    for accumulator in (Contingency, PartitionComparison):
        monkeypatch.setattr(accumulator, "to_dict", lambda self: pytest.fail("state made"))
    assert run(capsys, "classify", path)[0] == 0
    assert run(capsys, "compare", path, "--reference", "correct", "--model", "cluster")[0] == 0


def test_chunks_and_their_fast_paths_equal_one_result_at_a_time(tmp_path, capsys, monkeypatch):
    rng = np.random.default_rng(5)
    rows = ["assigned,correct"]
    assigned, correct = [], []
    for i in range(3000):
        a = [str(x) for x in rng.choice(6, size=1 if i < 2000 else rng.integers(0, 3),
                                        replace=False)]
        c = str(rng.integers(6))
        rows.append(f"{'|'.join(a)},{c}")
        assigned.append(a)
        correct.append(c)
    path = write(tmp_path, "run.csv", "\n".join(rows) + "\n")
    monkeypatch.setattr("contingency.io.CHUNK", 700)  # mixes single-label and multi-label chunks
    status, out, _ = run(capsys, "classify", path, "--format", "json")
    assert status == 0
    expected = Contingency()
    for a, c in zip(assigned, correct):
        expected.add_result(a, c)
    assert json.loads(out) == expected.scores()


# compare -------------------------------------------------------------------------------------


def test_compare_prints_every_score(tmp_path, capsys):
    reference = ["a", "a", "b", "b", "c", "c", "c"]
    model = ["1", "1", "1", "2", "3", "3", "2"]
    path = write(tmp_path, "run.csv", "ref,mod\n" + "".join(f"{r},{m}\n" for r, m in
                                                           zip(reference, model)))
    status, out, err = run(capsys, "compare", path, "--reference", "ref", "--model", "mod",
                           "--format", "json", "--jci")
    assert (status, err) == (0, "")
    scores = json.loads(out)
    comparison = PartitionComparison.from_labels(reference, model)
    assert scores == comparison.scores()
    assert scores["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(reference, model))
    assert scores["jaccard_concentration_index"] == comparison.jaccard_concentration_index()
    # Without --jci, the index is left out of the JSON and of the report.
    status, out, _ = run(capsys, "compare", path, "--reference", "ref", "--model", "mod",
                         "--format", "json")
    expected = comparison.scores()
    del expected["jaccard_concentration_index"]
    assert json.loads(out) == expected
    status, text, _ = run(capsys, "compare", path, "--reference", "ref", "--model", "mod",
                          "--jci")
    assert status == 0
    assert text == (f"{comparison.report()}\n\n{path}: 7 results read, 1 line skipped (header, "
                    "blank lines, comments)\n")
    status, text, _ = run(capsys, "compare", path, "--reference", "ref", "--model", "mod")
    assert "jaccard-concentration" not in text
    assert "adjusted rand index" in text


# paired --------------------------------------------------------------------------------------


def paired_file(tmp_path, rows=2500, seed=8):
    """Two models' decisions on the same results, single- and multi-label, as CSV."""
    rng = np.random.default_rng(seed)
    lines = ["id,first,second,truth"]
    results = []
    for i in range(rows):
        truth = str(rng.integers(4))
        first = truth if rng.random() < 0.8 else str(rng.integers(4))
        second = ([truth, str(rng.integers(4))] if i % 7 == 0
                  else [truth if rng.random() < 0.6 else str(rng.integers(4))])
        lines.append(f"{i},{first},{'|'.join(second)},{truth}")
        results.append((first, tuple(second) if len(second) > 1 else second[0], truth))
    return write(tmp_path, "two.csv", "\n".join(lines) + "\n"), results


def test_paired_prints_both_models_and_mcnemar(tmp_path, capsys, monkeypatch):
    path, results = paired_file(tmp_path)
    monkeypatch.setattr("contingency.io.CHUNK", 700)  # chunks of single labels and mixed ones
    expected = contingency.PairedComparison()
    for result in results:
        expected.add_result(*result)
    args = ["paired", path, "--assigned-a", "first", "--assigned-b", "second", "--correct",
            "truth"]
    status, out, err = run(capsys, *args, "--format", "json")
    assert (status, err) == (0, "")
    assert json.loads(out) == expected.scores()
    status, out, _ = run(capsys, *args, "--figs", "4", "--state", str(tmp_path / "state.json"))
    assert status == 0
    assert out.startswith("model a: 'first' (--assigned-a)   model b: 'second' (--assigned-b)")
    assert expected.report(digits=4) in out
    assert out.endswith(f"{path}: 2500 results read, 1 line skipped (header, blank lines, "
                        "comments)\n")
    state = json.loads((tmp_path / "state.json").read_text("utf-8"))
    assert contingency.PairedComparison.from_dict(state) == expected


def test_paired_intervals_in_text_and_json(tmp_path, capsys):
    # Issue 31, item 11: --intervals was listed, exited 0 and printed what it prints without it.
    path, results = paired_file(tmp_path)
    expected = contingency.PairedComparison()
    for result in results:
        expected.add_result(*result)
    args = ["paired", path, "--assigned-a", "first", "--assigned-b", "second", "--correct",
            "truth"]
    status, plain, _ = run(capsys, *args)
    status, out, err = run(capsys, *args, "--intervals")
    assert (status, err) == (0, "")
    assert out != plain
    assert expected.report(intervals=0.95) in out
    difference = expected.accuracy_difference(0.95)
    assert (f"accuracy difference  {difference.estimate:.3f}  [{difference.low:.3f}, "
            f"{difference.high:.3f}]") in out
    low, high = (expected.a if hasattr(expected, "a") else expected._a).interval(
        "subset_accuracy", level=0.95)[::2]
    assert f"{expected.scores()['a']['subset_accuracy']:.3f}  [{low:.3f}, {high:.3f}]" in out
    status, out, err = run(capsys, *args, "--intervals", "0.8", "--format", "json")
    assert (status, err) == (0, "")
    block = json.loads(out)["intervals"]
    assert block == expected.scores(intervals=0.8)["intervals"]
    assert block["accuracy_difference"] == expected.accuracy_difference(0.8)._asdict()
    assert json.loads(out)["mcnemar"] == expected.scores()["mcnemar"]


def test_paired_errors_name_the_line_and_the_option(tmp_path, capsys):
    path = write(tmp_path, "two.csv", "a,b,c\nx,x,x\nx,y,x\nz,x,x\n")
    args = ["paired", path, "--assigned-a", "a", "--assigned-b", "b", "--correct", "c"]
    assert one_error_line(capsys, *args, "--categories", "x,y") == (
        f"contingency: {path} line 4: --assigned-a: unknown category 'z' (not among --categories: "
        "add it there, or leave --categories out to count every category)\n")
    assert "no column 'd' (--correct)" in one_error_line(
        capsys, "paired", path, "--assigned-a", "a", "--assigned-b", "b", "--correct", "d")
    assert "the following arguments are required: --assigned-b" in one_error_line(
        capsys, "paired", path, "--assigned-a", "a", "--correct", "c")
    assert "the paired command draws no figure" in one_error_line(
        capsys, *args, "--plot", str(tmp_path / "x.png"))
    assert "the three-field format has two label columns" in one_error_line(
        capsys, *args, "--input-format", "three-field")


# Plots ---------------------------------------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file, from its signature and IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_plots_are_pngs_of_the_stated_size(tmp_path, capsys):
    example = str(resources.files("contingency.examples").joinpath("digits.csv"))
    chart, curve, heatmap = tmp_path / "chart.png", tmp_path / "curve.png", tmp_path / "map.png"
    status, out, _ = run(capsys, "classify", example, "--assigned", "predicted", "--correct",
                         "digit", "--plot", str(chart), "--learning-curve", str(curve))
    assert status == 0
    assert "1797 results read" in out
    assert run(capsys, "compare", example, "--reference", "digit", "--model", "cluster",
               "--plot", str(heatmap))[0] == 0
    for path in (chart, curve, heatmap):
        assert png_size(path) == (800, 600)


def test_a_plot_file_without_an_extension_is_written_where_named(tmp_path, capsys):
    example = str(resources.files("contingency.examples").joinpath("digits.csv"))
    chart, curve, heatmap = tmp_path / "chart", tmp_path / "curve", tmp_path / "map"
    assert run(capsys, "classify", example, "--assigned", "predicted", "--correct", "digit",
               "--plot", str(chart), "--learning-curve", str(curve))[0] == 0
    assert run(capsys, "compare", example, "--reference", "digit", "--model", "cluster",
               "--plot", str(heatmap))[0] == 0
    for path in (chart, curve, heatmap):
        assert png_size(path) == (800, 600)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["chart", "curve", "map"]


def test_learning_curve_records_a_point_every_step(tmp_path, capsys, monkeypatch):
    import contingency.plot

    recorded = []
    monkeypatch.setattr(contingency.plot, "learning_curve",
                        lambda points, **options: recorded.extend(points) or _NoFigure())
    rows = [("a", "a"), ("b", "a"), ("b", "b")] * 100
    path = write(tmp_path, "run.csv", "assigned,correct\n" + "".join(f"{a},{c}\n" for a, c in rows))
    assert run(capsys, "classify", path, "--learning-curve", "x.png")[0] == 0
    expected, s = [], Contingency()
    for count, (a, c) in enumerate(rows, start=1):
        s.add_result(a, c)
        if count % 128 == 0 or count == len(rows):
            expected.append((count, s.micro_f1, s.macro_f1))
    assert recorded == expected


class _NoFigure:
    def savefig(self, path: str, format: str | None = None) -> None:
        pass


def test_plot_without_matplotlib_or_to_a_bad_place(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\n")
    assert "cannot write" in one_error_line(capsys, "classify", path, "--plot",
                                            str(tmp_path / "absent" / "x.png"))
    assert "Format 'xyz' is not supported" in one_error_line(capsys, "classify", path, "--plot",
                                                             str(tmp_path / "x.xyz"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert 'pip install "contingency[plot]"' in one_error_line(capsys, "classify", path, "--plot",
                                                               str(tmp_path / "x.png"))


# Labels the output cannot encode: written escaped, never a traceback ---------------------------


def test_a_lone_surrogate_label_is_written_escaped(tmp_path, capsys):
    path = write(tmp_path, "run.jsonl", '{"assigned": "\\ud800", "correct": "a"}\n'
                                        '{"assigned": "a", "correct": "a"}\n')
    status, out, err = run(capsys, "classify", path)
    assert (status, err) == (0, "")
    assert "\\ud800" in out  # the escape, as the label's six characters
    expected = Contingency().add_results(["\ud800", "a"], ["a", "a"])
    assert out.startswith(expected.stats_table())
    status, out, _ = run(capsys, "classify", path, "--format", "json")
    assert json.loads(out) == expected.scores()


def test_a_label_outside_the_outputs_encoding_is_written_escaped(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "run.csv", "assigned,correct\n中,中\né,中\n")
    status, utf8, _ = run(capsys, "classify", path)
    assert status == 0
    cp1252 = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")  # as PYTHONIOENCODING=cp1252
    monkeypatch.setattr(sys, "stdout", cp1252)
    assert main(["classify", path]) == 0
    cp1252.flush()
    # The same text, with what cp1252 lacks escaped and the rest (é) as it is.
    assert cp1252.buffer.getvalue().decode("cp1252") == utf8.replace("中", "\\u4e2d")
    assert "é" in utf8
    assert capsys.readouterr().err == ""


def test_a_plot_of_a_lone_surrogate_label(tmp_path, capsys):
    path = write(tmp_path, "run.jsonl", '{"assigned": "\\ud800", "correct": "a"}\n')
    chart, curve = tmp_path / "chart.png", tmp_path / "curve.png"
    status, _, err = run(capsys, "classify", path, "--plot", str(chart), "--learning-curve",
                         str(curve))
    assert (status, err) == (0, "")
    assert png_size(chart) == (800, 600)
    clusters = write(tmp_path, "clusters.jsonl", '{"r": "\\ud800", "m": "$x$"}\n')
    assert run(capsys, "compare", clusters, "--reference", "r", "--model", "m", "--plot",
               str(chart))[:3:2] == (0, "")


# Bad input: one line on standard error, exit status 2 ----------------------------------------


def one_error_line(capsys, *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("contingency: ")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert "Traceback" not in err
    return err


def test_missing_file_and_directory(tmp_path, capsys):
    assert one_error_line(capsys, "classify", str(tmp_path / "absent.csv")) == (
        f"contingency: {tmp_path / 'absent.csv'}: cannot open (No such file or directory)\n")
    assert "cannot open (Is a directory)" in one_error_line(capsys, "classify", str(tmp_path))


def test_invalid_utf8_names_file_and_line(tmp_path, capsys):
    path = write(tmp_path, "run.csv", b"assigned,correct\na,a\nb,\xff\n")
    assert one_error_line(capsys, "classify", path) == (
        f"contingency: {path} line 3: invalid UTF-8 (byte 0xff at byte 3 of the line)\n")


def test_unknown_column_names_the_option(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "guess,truth\na,a\n")
    assert "no column 'truth!' (--correct) in the header ('guess', 'truth')" in one_error_line(
        capsys, "classify", path, "--assigned", "guess", "--correct", "truth!", "--header")
    assert one_error_line(capsys, "classify", path) == (
        f"contingency: {path} line 1: no column 'assigned' (the default of --assigned) in the "
        "first row ('guess', 'truth'), so it is not a header, and without a header row, columns "
        "are numbers (1 for the first)\n")
    assert f"{path} line 1: no column 'truth!' (--correct) in the first row" in one_error_line(
        capsys, "classify", path, "--assigned", "guess", "--correct", "truth!")
    assert f"{path} line 1: no column 'm' (--model) in the first row" in one_error_line(
        capsys, "compare", path, "--reference", "guess", "--model", "m")
    jsonl = write(tmp_path, "run.jsonl", '{"assigned": "a"}\n')
    assert one_error_line(capsys, "classify", jsonl) == (
        f"contingency: {jsonl} line 1: no key 'correct' (the default of --correct) (keys: "
        "'assigned')\n")


def test_a_header_row_is_never_scored_when_columns_are_numbers(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "id,predicted,truth\n1,a,a\n2,b,a\n")
    status, out, _ = run(capsys, "classify", path, "--assigned", "2", "--correct", "3")
    assert status == 0
    expected = Contingency().add_results(["a", "b"], ["a", "a"])
    assert out == (f"{expected.stats_table()}\n{expected.report()}\n\n"
                   f"{path}: 2 results read, 1 line skipped (header, blank lines, comments)\n")
    # A file without a header: its first row holds labels seen again, so it is scored.
    path = write(tmp_path, "plain.csv", "1,a,a\n2,b,a\n")
    status, out, _ = run(capsys, "classify", path, "--assigned", "2", "--correct", "3",
                         "--format", "json")
    assert json.loads(out) == Contingency().add_results(["a", "b"], ["a", "a"]).scores()
    # One row, nothing to tell by: the command asks.
    path = write(tmp_path, "one.csv", "1,a,a\n")
    assert one_error_line(capsys, "classify", path, "--assigned", "2", "--correct", "3") == (
        f"contingency: {path} line 1: cannot tell whether the only row ('1', 'a', 'a') is a "
        "header: with columns given by number, say --header or --no-header\n")


def test_a_row_with_more_fields_than_the_header_is_an_error(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "pred,truth\nham,ham\nspam,ham,eggs\n")
    assert one_error_line(capsys, "classify", path, "--assigned", "pred", "--correct",
                          "truth") == f"contingency: {path} line 3: 3 fields, but the header has 2\n"


def test_csv_on_standard_input_is_told_by_its_first_line(tmp_path, capsys, monkeypatch):
    text = b"id,predicted,truth\n1,a,a\n2,b,a\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    status, out, _ = run(capsys, "classify", "-", "--assigned", "predicted", "--correct",
                         "truth", "--format", "json")
    assert status == 0
    assert json.loads(out) == Contingency().add_results(["a", "b"], ["a", "a"]).scores()
    # Said to be TSV, it is refused with the way out.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert one_error_line(capsys, "classify", "-", "--assigned", "predicted", "--correct",
                          "truth", "--input-format", "tsv").endswith(
        "(the row holds commas and no tab: for CSV, say --input-format csv)\n")


def test_every_message_names_the_option_typed(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\n")
    assert one_error_line(capsys, "classify", path, "--label-sep", "") == (
        "contingency: argument --label-sep: must not be empty (the default is '|')\n")
    assert one_error_line(capsys, "classify", path, "--plot", str(tmp_path / "no" / "x.png")
                          ).startswith(f"contingency: --plot {tmp_path / 'no' / 'x.png'}: cannot write")
    assert one_error_line(capsys, "classify", path, "--learning-curve", str(tmp_path / "x.xyz")
                          ).startswith(f"contingency: --learning-curve {tmp_path / 'x.xyz'}: ")


@pytest.mark.parametrize("figs", ["100000000", "0", "-1", "x", "18"])
def test_absurd_figs(capsys, figs):
    assert "argument --figs: must be an integer from 1 to 17" in one_error_line(
        capsys, "demo", "--figs", figs)


def test_bad_json_line_too_long_line_and_empty_file(tmp_path, capsys):
    path = write(tmp_path, "run.jsonl", '{"assigned": "a", "correct": "a"}\n{"assigned": \n')
    assert f"{path} line 2: invalid JSON" in one_error_line(capsys, "classify", path)
    path = write(tmp_path, "long.csv", "assigned,correct\n" + "a" * 2**20 + ",a\n")
    assert f"{path} line 2: longer than 1048576 bytes" in one_error_line(capsys, "classify", path)
    for text in ("", "assigned,correct\n", "\n\n"):
        path = write(tmp_path, "empty.csv", text)
        assert f"{path}: no results" in one_error_line(capsys, "classify", path)


def test_dev_zero_is_a_too_long_line(capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    assert "/dev/zero line 1: longer than 1048576 bytes" in one_error_line(
        capsys, "classify", "/dev/zero")


def test_unknown_category_names_the_line_and_the_option(tmp_path, capsys):
    path = write(tmp_path, "run.csv", "assigned,correct\na,a\nb,a\nz,a\n")
    assert one_error_line(capsys, "classify", path, "--categories", "a,b") == (
        f"contingency: {path} line 4: assigned: unknown category 'z' (not among --categories: add "
        "it there, or leave --categories out to count every category)\n")
    path = write(tmp_path, "run.jsonl", '{"assigned": ["a"], "correct": ["a", "y"]}\n')
    assert "line 1: correct: unknown category 'y' (not among --categories" in one_error_line(
        capsys, "classify", path, "--categories", "a,b")


def test_bad_arguments(capsys, tmp_path):
    assert "invalid choice: 'score'" in one_error_line(capsys, "score")
    assert "the following arguments are required: --reference" in one_error_line(
        capsys, "compare", str(tmp_path), "--model", "m")
    assert "argument --zero-division: invalid choice" in one_error_line(
        capsys, "classify", "x.csv", "--zero-division", "2")


def test_full_disk_on_output_and_state(capsys, monkeypatch, tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    assert "--state /dev/full: cannot write (No space left on device)" in one_error_line(
        capsys, "classify", write(tmp_path, "r.csv", "assigned,correct\na,a\n"),
        "--state", "/dev/full")
    with open("/dev/full", "w", encoding="utf-8") as full:
        monkeypatch.setattr(sys, "stdout", full)
        status = main(["demo"])
    assert status == 2
    assert capsys.readouterr().err == (
        "contingency: cannot write the output (No space left on device)\n")


def test_version_and_help(capsys):
    assert run(capsys, "--version") == (0, f"contingency {__version__}\n", "")
    status, out, _ = run(capsys, "classify", "--help")
    assert status == 0
    assert "--label-sep" in out


# The progress bar ----------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_for_large_input_on_a_terminal_with_tqdm(monkeypatch):
    terminal = Terminal()
    with progress_bar(LARGE, "big.csv", terminal) as advance:
        assert advance is not None
        advance(LARGE)
    assert "big.csv" in terminal.getvalue()
    for size, stream in ((LARGE - 1, Terminal()), (None, Terminal()), (LARGE, io.StringIO())):
        with progress_bar(size, "x", stream) as advance:
            assert advance is None
    monkeypatch.setattr(sys, "stderr", None)  # an interpreter started without standard error
    with progress_bar(LARGE, "big.csv") as advance:
        assert advance is None
    monkeypatch.undo()
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the extra not installed
    quiet = Terminal()
    with progress_bar(LARGE, "big.csv", quiet) as advance:
        assert advance is None
    assert quiet.getvalue() == ""


# The installed console script ----------------------------------------------------------------


def console_script() -> str:
    script = shutil.which("contingency", path=os.path.dirname(sys.executable)) or shutil.which(
        "contingency")
    assert script is not None, "the console script 'contingency' is not installed"
    return script


def console_env() -> dict[str, str]:
    """The environment for the console script: it imports the package these tests import.

    The script imports ``contingency`` from wherever it was installed (an editable
    install of another checkout, say); ``PYTHONPATH`` puts this tree first.
    """
    root = str(Path(contingency.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get(
        "PYTHONPATH"))))}


def test_console_script_runs_and_fails_cleanly(tmp_path):
    script, env = console_script(), console_env()
    done = subprocess.run([script, "--figs", "2"], capture_output=True, text=True, env=env,
                          check=False)
    assert done.returncode == 2  # --figs belongs to the subcommands
    done = subprocess.run([script, "demo", "--figs", "2"], capture_output=True, text=True, env=env,
                          check=True)
    assert "maF1" in done.stdout
    assert "adjusted rand index" in done.stdout
    bad = write(tmp_path, "bad.csv", b"assigned,correct\n\xfe,a\n")
    done = subprocess.run([script, "classify", bad], capture_output=True, text=True, env=env,
                          check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"contingency: {bad} line 2: invalid UTF-8 (byte 0xfe at byte 1 of " \
                          "the line)\n"
    done = subprocess.run([sys.executable, "-m", "contingency", "classify", "/dev/null"],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (2, "contingency: /dev/null: no results (the file "
                                              "is empty or holds only a header, blank lines or "
                                              "comments)\n")


def test_the_readmes_command_lines_run(tmp_path):
    """The README's command-line block, run by the installed script on files of the columns it names."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.DOTALL)
    lines = [line.partition("#")[0].strip() for block in blocks for line in block.splitlines()
             if line.startswith("contingency ")]
    assert len(lines) == 3, lines
    (tmp_path / "run.csv").write_text(",predicted,truth\n0,cat,cat\n1,dog,cat\n2,dog|cat,dog\n",
                                      encoding="utf-8")  # as pandas writes it, with its index
    (tmp_path / "clusters.csv").write_text("class,cluster\na,1\na,1\nb,2\nb,1\nc,3\n",
                                           encoding="utf-8")
    (tmp_path / "run.jsonl").write_text('{"assigned": ["cat", "dog"], "correct": "cat"}\n'
                                        '{"assigned": "dog", "correct": "dog"}\n', encoding="utf-8")
    outputs = []
    for line in lines:
        done = subprocess.run([console_script(), *shlex.split(line)[1:]], cwd=tmp_path,
                              capture_output=True, text=True, env=console_env(), check=False)
        assert (done.returncode, done.stderr) == (0, ""), (line, done.stderr)
        outputs.append(done.stdout)
    assert "maF1" in outputs[0]
    assert "run.csv: 3 results read, 1 line skipped" in outputs[0]
    assert "jaccard-concentration" in outputs[1]
    scores = json.loads(outputs[2])
    assert scores["averages"]["micro"]["f1"] == pytest.approx(0.8)  # tp 2, fp 1, fn 0
    state = json.loads((tmp_path / "state.json").read_text("utf-8"))
    assert Contingency.from_dict(state).scores() == scores
    assert png_size(tmp_path / "categories.png") == (800, 600)


def unreadable(path: Path) -> list[str]:
    """The command prefix under which ``path`` (mode 000) cannot be opened: none, or setpriv for root."""
    path.chmod(0)
    if os.geteuid() != 0:
        return []
    # Root reads a file of mode 000; without the capabilities that override file modes it cannot.
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
    if shutil.which("setpriv") is None or subprocess.run(
            [*drop, "cat", str(path)], capture_output=True, check=False).returncode == 0:
        pytest.skip("running as root, and setpriv cannot drop the capability to read any file")
    return drop


BAD_INPUTS = {
    # case: (file contents or None, arguments after the script, shell redirection, expected)
    "missing file": (None, ["classify", "{tmp}/absent.csv"], "",
                     "{tmp}/absent.csv: cannot open (No such file or directory)"),
    "directory": (None, ["classify", "{tmp}"], "", "{tmp}: cannot open (Is a directory)"),
    "unreadable file": (b"assigned,correct\na,a\n", ["classify", "{file}"], "",
                        "{file}: cannot open (Permission denied)"),
    "invalid UTF-8": (b"assigned,correct\na,a\nb,\xff\n", ["classify", "{file}"], "",
                      "{file} line 3: invalid UTF-8"),
    "malformed row": (b'assigned,correct\na,a\nb,"a\n', ["classify", "{file}"], "",
                      "{file} line 3: malformed CSV row"),
    "short row": (b"assigned,correct\na,a\nb\n", ["classify", "{file}"], "",
                  "{file} line 3: 1 field, but the header has 2"),
    "missing column": (b"guess,truth\na,a\n", ["classify", "{file}", "--assigned", "guess",
                                                  "--correct", "truth!", "--header"], "",
                       "{file} line 1: no column 'truth!' (--correct) in the header"),
    "missing column, header not declared": (b"guess,truth\na,a\n", ["classify", "{file}",
                                                                     "--assigned", "guess!",
                                                                     "--correct", "truth"], "",
                                            "{file} line 1: no column 'guess!' (--assigned) in "
                                            "the first row"),
    "missing key": (b'{"assigned": "a"}\n', ["classify", "{file}", "--input-format", "jsonl"], "",
                    "{file} line 1: no key 'correct' (the default of --correct)"),
    "empty file": (b"", ["classify", "{file}"], "", "{file}: no results"),
    "unknown category": (b"assigned,correct\na,a\nz,a\n", ["classify", "{file}", "--categories",
                                                              "a,b"], "",
                         "{file} line 3: assigned: unknown category 'z' (not among --categories"),
    "absurd --figs": (None, ["demo", "--figs", "100000000"], "",
                      "argument --figs: must be an integer from 1 to 17"),
    "/dev/zero": (None, ["classify", "/dev/zero"], "", "/dev/zero line 1: longer than 1048576 bytes"),
    "closed input": (None, ["classify", "-"], "<&-", "<stdin>: cannot read (standard input is closed)"),
    "closed output": (None, ["demo"], ">&-", "cannot write the output (standard output is closed)"),
    "full output": (None, ["demo"], ">/dev/full", "cannot write the output (No space left on device)"),
    "--version, closed output": (None, ["--version"], ">&-",
                                 "cannot write the output (standard output is closed)"),
    "--help, full output": (None, ["classify", "--help"], ">/dev/full",
                            "cannot write the output (No space left on device)"),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_console_script_gives_one_line_and_status_2_on_bad_input(tmp_path, case):
    contents, arguments, redirection, expected = BAD_INPUTS[case]
    for device in ("/dev/zero", "/dev/full"):
        if device in (*arguments, redirection.lstrip(">")) and not os.path.exists(device):
            pytest.skip(f"no {device} on this system")
    file = tmp_path / "input.csv"
    if contents is not None:
        file.write_bytes(contents)
    prefix = unreadable(file) if case == "unreadable file" else []
    names = {"tmp": str(tmp_path), "file": str(file)}
    # The redirection is the shell's, applied to the script alone: sh -c 'exec "$0" "$@" >&-'.
    command = [*prefix, "sh", "-c", f'exec "$0" "$@" {redirection}', console_script(),
               *(argument.format(**names) for argument in arguments)]
    done = subprocess.run(command, capture_output=True, text=True, env=console_env(), check=False)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("contingency: "), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.endswith("\n"), done.stderr
    assert expected.format(**names) in done.stderr


def test_full_stdout_in_a_process_gives_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "contingency"], stdout=full,
                              stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == "contingency: cannot write the output (No space left on device)\n"


def test_a_reader_that_stops_early_is_not_an_error():
    done = subprocess.run(f"{sys.executable} -m contingency | head -1", shell=True,
                          capture_output=True, text=True, check=False)
    assert done.stdout.startswith("The bundled example")
    assert done.stderr == ""


def test_import_is_light():
    code = "import sys, contingency.cli; print(sorted(m for m in sys.modules if m.split('.')[0] " \
           "in ('sklearn', 'scipy', 'pandas', 'matplotlib', 'tqdm')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("extra", [[], ["--zero-division", "nan"], ["--intervals", "0.9"]])
@pytest.mark.parametrize("size", [1, 5000])
def test_classify_json_is_json_dumps_of_scores_character_for_character(tmp_path, capsys, extra,
                                                                       size):
    """The categories are streamed from columns; the text is what json.dumps(scores()) prints.

    JSON Lines give integer labels, a multi-label result and labels whose JSON needs escapes;
    5000 rows name more categories than one piece of the writer holds.
    """
    rng = np.random.default_rng(size)
    names = [*range(10), 'q"uote', "é", "x"] if size > 1 else ["x"]
    records = [{"assigned": names[i], "correct": names[j]}
               for i, j in rng.integers(0, len(names), (size, 2))]
    records += [{"assigned": f"c{k}", "correct": f"c{k % 7}"} for k in range(size)]
    records.append({"assigned": ["x", "é"], "correct": "x"})
    path = write(tmp_path, "run.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    status, out, err = run(capsys, "classify", path, "--format", "json", *extra)
    assert status == 0, err
    accumulator = Contingency(zero_division="nan" if "nan" in extra else "perl")
    for r in records:
        accumulator.add_result(r["assigned"], r["correct"])
    level = 0.9 if "--intervals" in extra else None
    assert out == json.dumps(accumulator.scores(level), indent=2, allow_nan=False) + "\n"
    parsed = json.loads(out)
    assert len(parsed["categories"]) == len(accumulator.categories)
    assert parsed["n_results"] == len(records)


@pytest.mark.parametrize(("command", "columns"), [
    ("classify", ["--assigned", "a", "--correct", "b"]),
    ("compare", ["--reference", "a", "--model", "b"]),
    ("paired", ["--assigned-a", "a", "--assigned-b", "b", "--correct", "c"]),
])
def test_a_row_of_multi_line_quoted_fields_is_bounded_on_every_command(tmp_path, capsys,
                                                                       command, columns):
    # Issue 31, item 17 (bounded since 4dcee50; this holds every command to it): 30 MB in one
    # row whose lines are each 1 kB, refused in one line naming the line the row starts on,
    # having held about the limit of a row, not the row.
    import tracemalloc

    path = tmp_path / "long.csv"
    with open(path, "w", encoding="utf-8") as f:
        f.write("a,b,c\nx,x,x\n\"" + ("y" * 999 + "\n") * 30_000 + "\",x,x\n")
    tracemalloc.start()
    try:
        err = one_error_line(capsys, command, str(path), *columns)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert err == (f"contingency: {path} line 3: a row longer than 1048576 bytes (the limit of a "
                   "row, over the lines its quoted fields span)\n")
    assert peak < 16 * 2**20
