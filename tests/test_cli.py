"""The command line and the decision-file reader, called as functions."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from contingency import Contingency
from contingency.cli import main
from contingency.io import read_decisions

GOLDEN = Path(__file__).parent / "golden" / "perl" / "news_example.txt"


def example_accumulator() -> Contingency:
    text = resources.files("contingency.examples").joinpath("news.tsv").read_text("utf-8")
    s = Contingency()
    for decision in read_decisions(text.splitlines()):
        s.add_result(decision.assigned, decision.correct)
    return s


def test_bundled_example_stats_tables_equal_perls():
    s = example_accumulator()
    assert "".join(s.stats_table(figs) for figs in range(1, 7)) == GOLDEN.read_text("utf-8")


def test_main_prints_the_stats_table_and_report_of_the_bundled_example(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    s = example_accumulator()
    assert s.stats_table() in out
    assert s.report() in out
    assert out.startswith("20 results from bundled example news.tsv, 5 categories")


def test_main_reads_a_file_and_writes_json(tmp_path, capsys):
    path = tmp_path / "run.tsv"
    path.write_text("d1\ta,b\ta\nd2\t\tb\n", encoding="utf-8")
    assert main([str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Contingency.from_dict(data) == Contingency().add_results([["a", "b"], []], ["a", "b"])


def test_main_reports_bad_lines_with_their_number(tmp_path, capsys):
    path = tmp_path / "bad.tsv"
    path.write_text("d1\ta\ta\nd2 a a\n", encoding="utf-8")
    assert main([str(path)]) == 2
    assert capsys.readouterr().err == (
        f"contingency: {path} line 2: expected 3 tab-separated fields (name, assigned, correct), "
        "found 1\n")


def test_main_refuses_figs_below_one(capsys):
    assert main(["--figs", "0"]) == 2
    assert "figs must be an integer >= 1" in capsys.readouterr().err


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path / "absent.tsv")]) == 2
    assert "No such file" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["contingency"])
def test_python_dash_m_runs(module):
    done = subprocess.run([sys.executable, "-m", module, "--figs", "2"], capture_output=True,
                          text=True, check=True)
    assert "maF1" in done.stdout


def test_import_is_light():
    code = "import sys, contingency; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
           "('sklearn', 'scipy', 'pandas', 'matplotlib')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_reader_that_stops_early_is_not_an_error():
    done = subprocess.run(f"{sys.executable} -m contingency | head -1", shell=True,
                          capture_output=True, text=True, check=False)
    assert done.stdout.startswith("20 results")
    assert done.stderr == ""
