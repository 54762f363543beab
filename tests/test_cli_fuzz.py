"""A fuzz of the command line: any bytes, any CSV/TSV/JSON Lines structure, any options.

``main(argv)`` runs in-process, its input a file or standard input, its
standard output and error streams of several encodings (as a console in cp1252
or ASCII would be). Whatever it is given, it answers exit status 0 with its
report and nothing on standard error, or exit status 2 with exactly one line
on standard error and nothing on standard output; never a traceback, an
exception out of ``main`` or another status. A few runs of the installed
command in a real process check the same where the interpreter's own streams
matter (their encoding, a real standard input).

Hypothesis runs it deterministically in CI (tests/conftest.py); seconds in all.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contingency.cli import main
from tests.test_cli import console_env, console_script

FUZZ = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])

# Inputs ----------------------------------------------------------------------------------------

#: Characters the readers and the output treat specially, and others no output encoding holds.
SPECIAL = 'ab1 ,;|\t"\n\r$#{}[]:\\é中\ufeff\x00'
#: Labels that repeat (so that files are scored, not only refused), some odd to print or draw.
LABELS = ["x", "y", "z", "x|y", " x ", "中", "$x$", "é"]
#: Column names the files have and the options ask for: names and numbers, and (rarely) ones
#: that cannot be.
COLUMNS = ["assigned", "correct", "ref", "model", "ASSIGNED", "1", "2", "3"]
ODD_COLUMNS = ["0", "-1", "", "a b", "中"]
rare = st.integers(0, 9).map(lambda n: n == 0)  # true one time in ten


def mostly(good: list[Any], bad: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``good`` nine times in ten, else one of ``bad``."""
    return rare.flatmap(lambda odd: st.sampled_from(bad if odd else good))


names = mostly(COLUMNS, ODD_COLUMNS)
#: A cell: a label that repeats, or (one time in ten) any text, empty included.
cell_text = rare.flatmap(lambda odd: st.text(alphabet=st.sampled_from(SPECIAL) | st.characters(),
                                             max_size=6) if odd else st.sampled_from(LABELS))


@st.composite
def delimited(draw: st.DrawFn, wanted: list[str], sep: str) -> bytes:
    """A CSV or TSV file, a header naming the ``wanted`` columns (mostly), rows mostly regular.

    Written as Python's csv module writes it (quoted), or joined raw (malformed at times).
    """
    header = [*wanted, *draw(st.lists(names, max_size=2))] if not draw(rare) else draw(
        st.lists(names, min_size=1, max_size=4))
    header = draw(st.permutations(header))
    rows = [header] if not draw(rare) else []
    for _ in range(draw(st.integers(0 if draw(rare) else 1, 8))):
        width = len(header) + (draw(st.integers(-1, 1)) if draw(rare) else 0)
        rows.append([draw(cell_text) for _ in range(max(0, width))])
    if not draw(rare):
        out = io.StringIO()
        csv.writer(out, delimiter=sep, quoting=draw(st.sampled_from(
            [csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))).writerows(rows)
        text = out.getvalue()
    else:
        text = "".join(sep.join(row) + draw(st.sampled_from(["\n", "\r\n", ""])) for row in rows)
    return text.encode("utf-8", "surrogatepass")


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**70) | st.floats() | cell_text
    | st.text(st.characters(categories=["Cs", "Lo"]), max_size=3),  # lone surrogates, CJK
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=2),
    max_leaves=6)
#: Values a label column may hold: labels (mostly), lists of them, null, or anything.
json_label = rare.flatmap(lambda odd: json_value if odd else (
    st.sampled_from(LABELS) | st.lists(st.sampled_from(LABELS), max_size=3) | st.none()))


@st.composite
def json_lines(draw: st.DrawFn, wanted: list[str]) -> bytes:
    """JSON Lines whose objects hold the ``wanted`` keys (mostly); at times cut short or not objects."""
    lines = []
    for _ in range(draw(st.integers(0 if draw(rare) else 1, 6))):
        record: Any = {key: draw(json_label) for key in wanted if not draw(rare)}
        if draw(rare):
            record = draw(json_value)
        line = json.dumps(record, ensure_ascii=draw(st.booleans()))
        if draw(rare):
            line = line[:draw(st.integers(0, len(line)))]  # cut short: invalid JSON
        lines.append(line)
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@st.composite
def three_field(draw: st.DrawFn) -> bytes:
    lines = [draw(st.sampled_from(["name\tassigned\tcorrect", "# note", "", "NAME\tA\tC"]))]
    for _ in range(draw(st.integers(0, 6))):
        fields = 3 if not draw(rare) else draw(st.integers(1, 4))
        lines.append("\t".join(draw(cell_text) for _ in range(fields)))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def pairs(options: dict[str, Any]) -> list[str]:
    return [part for option, value in options.items() for part in (option, value)]


#: Options, each with values good (nine times in ten) and bad.
OPTIONS = {
    "--format": mostly(["text", "json"], ["yaml", ""]),
    "--figs": mostly(["1", "3", "17"], ["0", "18", "x", "-1"]),
    "--label-sep": mostly(["|", " ", "ab", "中"], [""]),
    "--categories": mostly(["x,y,z", "x,y,z,中,$x$,é,x|y"], ["x", ",", "x.txt", ""]),
    "--zero-division": mostly(["perl", "0", "1", "nan"], ["2", "none"]),
}
CLASSIFY_ONLY = {"--label-sep", "--categories", "--zero-division"}


@st.composite
def clean_cases(draw: st.DrawFn) -> tuple[list[str], bytes, str]:
    """A command line and a well-formed input it can score (their labels odd to print at times)."""
    command = draw(st.sampled_from(["classify", "compare"]))
    options = ("--assigned", "--correct") if command == "classify" else ("--reference", "--model")
    wanted = draw(st.lists(st.sampled_from(["assigned", "correct", "ref", "model", "pred"]),
                           min_size=2, max_size=2, unique=True))
    header = draw(st.permutations([*wanted, "id"]))
    rows = [[draw(st.sampled_from(LABELS)) for _ in header] for _ in range(draw(st.integers(1, 6)))]
    kind = draw(st.sampled_from(["csv", "tsv", "jsonl"]))
    if kind == "jsonl":
        text = "".join(json.dumps(dict(zip(header, row)), ensure_ascii=draw(st.booleans())) + "\n"
                       for row in rows)
    else:
        out = io.StringIO()
        csv.writer(out, delimiter="," if kind == "csv" else "\t").writerows([header, *rows])
        text = out.getvalue()
    argv = [command, *pairs(dict(zip(options, wanted)))]
    if draw(st.booleans()):
        argv += ["--format", draw(st.sampled_from(["text", "json"]))]
    suffix = draw(st.sampled_from([f".{kind}", "-"]))
    return argv, text.encode("utf-8"), suffix


@st.composite
def messy_cases(draw: st.DrawFn) -> tuple[list[str], bytes, str]:
    """A command line, its input, and the input file's extension (``-``: standard input)."""
    command = draw(st.sampled_from(["classify", "compare"]))
    first, second = ("--assigned", "--correct") if command == "classify" else ("--reference",
                                                                                "--model")
    columns = {first: draw(names), second: draw(names)}
    if draw(rare):  # one left out, or both (classify's defaults)
        for option in draw(st.lists(st.sampled_from([first, second]), unique=True)):
            del columns[option]
    wanted = [columns.get(first, "assigned"), columns.get(second, "correct")]
    kind = draw(st.sampled_from(["csv", "tsv", "other", "jsonl", "three-field", "bytes"]))
    sep = {"csv": ",", "tsv": "\t", "other": ";"}.get(kind, "\t")
    content = {"jsonl": lambda: draw(json_lines(wanted)), "three-field": lambda: draw(three_field()),
               "bytes": lambda: draw(st.binary(max_size=200))}.get(
        kind, lambda: draw(delimited(wanted, sep)))()
    suffix = {"csv": mostly([".csv", "-", ".txt"], [".tsv"]), "tsv": mostly([".tsv", "-"], [".csv"]),
              "jsonl": mostly([".jsonl", "-", ".json"], [".csv"])}.get(
        kind, st.sampled_from([".txt", "-", ".csv"]))
    reading: dict[str, str] = {}
    if kind == "other" and not draw(rare):
        reading["--sep"] = ";"
    if draw(rare):
        reading["--input-format"] = draw(st.sampled_from(["csv", "tsv", "jsonl", "three-field",
                                                          "xml"]))
    if draw(rare):
        reading["--sep"] = draw(st.sampled_from([",", "tab", "\\t", ";", "", "ab"]))
    if kind == "three-field" and command == "classify" and not draw(rare):
        columns = {}  # the format of files read without column options
    chosen = [option for option in OPTIONS if command == "classify" or option not in CLASSIFY_ONLY]
    options = draw(st.lists(st.sampled_from(chosen), unique=True, max_size=3))
    argv = [command, *pairs(columns), *pairs(reading),
            *pairs({option: draw(OPTIONS[option]) for option in options})]
    if draw(rare):
        argv.append(draw(st.sampled_from(["--header", "--no-header"])))
    if command == "compare" and draw(st.booleans()):
        argv.append("--jci")
    return argv, content, draw(suffix)


cases = st.one_of(clean_cases(), messy_cases())


#: Encodings of the output streams: a UTF-8 terminal, a Windows console, a C locale.
encodings = st.sampled_from(["utf-8", "cp1252", "ascii"])


def stream(encoding: str, errors: str = "strict") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=errors, newline="")


def written(text_stream: io.TextIOWrapper) -> str:
    text_stream.flush()
    buffer = text_stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode(text_stream.encoding, "replace")


def run(argv: list[str], content: bytes, suffix: str, *, out_encoding: str = "utf-8",
        err_encoding: str = "utf-8", err_errors: str = "strict") -> tuple[int, str, str]:
    """``main`` on ``content`` in a file ending ``suffix`` (``-``: on standard input): status, out, err."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(content)
        argv = [argv[0], "-" if suffix == "-" else str(path), *argv[1:]]
        out, err = stream(out_encoding), stream(err_encoding, err_errors)
        standard_input = io.TextIOWrapper(io.BytesIO(content))
        with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err), \
                mock.patch.object(sys, "stdin", standard_input):
            status = main(argv)
    return status, written(out), written(err)


def check(status: int, out: str, err: str, argv: list[str]) -> None:
    assert status in (0, 2), status
    assert "Traceback" not in err
    if status == 2:
        assert out == ""
        assert err.startswith("contingency: "), err
        assert err.count("\n") == 1, err
        assert err.endswith("\n"), err
    else:
        assert err == ""
        formats = [value for option, value in itertools.pairwise(argv) if option == "--format"]
        if formats[-1:] == ["json"]:
            json.loads(out)  # the scores, as valid JSON
        else:
            assert " read, " in out  # the counts line ends every text report


@FUZZ
@given(cases, encodings, encodings, st.sampled_from(["strict", "backslashreplace"]))
def test_any_input_and_options_give_a_result_or_one_line_and_status_2(
        case: tuple[list[str], bytes, str], out_encoding: str, err_encoding: str,
        err_errors: str) -> None:
    argv, content, suffix = case
    status, out, err = run(argv, content, suffix, out_encoding=out_encoding,
                           err_encoding=err_encoding, err_errors=err_errors)
    check(status, out, err, argv)


def test_the_fuzz_reaches_both_outcomes_in_both_commands() -> None:
    """The generated cases are not all refused: many are scored, by each command, so the fuzz
    reaches the reports and their encodings, not only the errors."""
    outcomes: Counter[tuple[str, int]] = Counter()

    @settings(max_examples=100, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(cases)
    def record(case: tuple[list[str], bytes, str]) -> None:
        argv, content, suffix = case
        outcomes[argv[0], run(argv, content, suffix)[0]] += 1

    record()
    assert set(outcomes) == {("classify", 0), ("classify", 2), ("compare", 0), ("compare", 2)}
    assert outcomes["classify", 0] + outcomes["compare", 0] >= 20, outcomes


# In a real process: the interpreter's own streams ----------------------------------------------

CASES: dict[str, tuple[bytes, list[str], dict[str, str]]] = {
    # case: (input on standard input, arguments, environment)
    "a CJK label, standard output in cp1252": (
        "assigned,correct\n中,中\nb,中\n".encode(), ["classify", "-", "--input-format", "csv"],
        {"PYTHONIOENCODING": "cp1252"}),
    "a lone surrogate label, drawn": (
        b'{"assigned": "\\ud800", "correct": "a"}\n', ["classify", "-", "--input-format", "jsonl",
                                                       "--plot", "{tmp}/chart.png"], {}),
    "a CSV file on standard input": (
        b"id,predicted,truth\n1,cat,cat\n2,dog,cat\n", ["classify", "-", "--assigned", "predicted",
                                                        "--correct", "truth"], {"LC_ALL": "C"}),
}


def test_the_installed_command_in_a_real_process(tmp_path: Path) -> None:
    for case, (content, arguments, environment) in CASES.items():
        done = subprocess.run([console_script(), *(a.format(tmp=tmp_path) for a in arguments)],
                              input=content, capture_output=True, check=False,
                              env={**console_env(), **environment})
        stderr = done.stderr.decode("utf-8", "replace")
        assert (done.returncode, stderr) == (0, ""), (case, stderr)
        assert b" read, " in done.stdout, case
    assert (tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"
