"""The command line, ``contingency classify | compare | paired | curves | demo``: glue, no computing.

:func:`main` parses the arguments, reads the input in chunks
(:mod:`contingency.io`), feeds each chunk to an accumulator, and prints what
the accumulator reports. Every bad input ends with one line on standard error
and exit status 2; nothing is printed before the whole input has been read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from importlib import resources
from pathlib import PurePath
from typing import IO, Any, NoReturn

import numpy as np
from attrs import field, frozen

from contingency import report
from contingency._contingency import Contingency
from contingency._grouped import GroupedContingency
from contingency._labels import not_a_category
from contingency._lines import InputError, read_lines
from contingency._multiclass_threshold import MulticlassThresholdContingency
from contingency._paired import PairedComparison
from contingency._partition import PartitionComparison
from contingency._progress import progress_bar
from contingency._threshold import ThresholdContingency
from contingency.io import CHUNK, Chunk, Format, LabelReader, first_line, guess_format

__all__ = ["main"]

#: The bundled example (see docs/cli.md and scripts/make_example_data.py).
EXAMPLE = "digits.csv"
#: The largest --figs: a double has no more significant digits than this.
MAX_FIGS = 17
_ZERO_DIVISION: dict[str, Any] = {"perl": "perl", "0": 0.0, "1": 1.0, "nan": "nan"}
#: Results between two points of a learning curve (the chunk size while one is recorded).
LEARNING_STEP = 128


class _UsageError(Exception):
    """A command line argparse refused; its message is printed on one line."""


class _Printed(Exception):
    """The text of ``--help`` or ``--version``, to be written like any other output."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors, help and version handed back to :func:`main` instead of printed.

    argparse writes help and version itself and ignores a failed write (Python
    3.11 on) or raises from inside ``parse_args`` (3.10); handed back, they go
    through the one output path, which reports a closed or full output.
    """

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def print_help(self, file: object = None) -> NoReturn:
        raise _Printed(self.format_help())


class _Version(argparse.Action):
    """``--version``: hands the version back to :func:`main` as output."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        from contingency import __version__

        raise _Printed(f"contingency {__version__}\n")


def _figs(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_FIGS:
        raise argparse.ArgumentTypeError(f"must be an integer from 1 to {MAX_FIGS}, not {text!r}")
    return int(text)


def _level(text: str) -> float:
    try:
        level = float(text)
    except ValueError:
        level = -1.0
    if not 0 < level < 1:
        raise argparse.ArgumentTypeError(
            f"must be a confidence level between 0 and 1, such as 0.95, not {text!r} (give the "
            "file before --intervals, or the level after it)")
    return level


def _bins(text: str) -> int:
    try:
        bins = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--bins must be a whole number of bins, not {text!r}") from None
    if not 1 <= bins <= 2**24:
        raise argparse.ArgumentTypeError(f"--bins must be between 1 and 2**24, not {bins}")
    return bins


def _separator(text: str) -> str:
    sep = {"\\t": "\t", "tab": "\t"}.get(text, text)
    if len(sep) != 1:
        raise argparse.ArgumentTypeError(f"must be one character (or 'tab' or '\\t'), not {text!r}")
    return sep


def _label_separator(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("must not be empty (the default is '|')")
    return text


def _parser() -> _Parser:
    parser = _Parser(
        prog="contingency",
        description="Score a classifier's category decisions (classify) or its scores "
        "(curves), or compare two clusterings (compare) from a CSV, TSV or JSON Lines file, "
        "streaming. Without a command, runs the demo on the bundled example.")
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    output = _Parser(add_help=False)
    output.add_argument("--format", choices=("text", "json"), default="text",
                        help="text tables (default) or the scores only, as JSON")
    output.add_argument("--figs", type=_figs, default=3,
                        help=f"significant figures of the stats table and digits of the reports "
                        f"(1 to {MAX_FIGS}, default 3)")
    source = _Parser(add_help=False)
    source.add_argument("file", metavar="FILE", help="the input file ('-' for standard input)")
    source.add_argument("--input-format", choices=("csv", "tsv", "jsonl", "three-field"),
                         help="the input's format (default: by --sep, else by the extension, else "
                         "by the first line)")
    source.add_argument("--sep", type=_separator,
                         help="field separator of a CSV or TSV file (default: ',' for .csv, "
                         "tab for .tsv, else told by the first line)")
    source.add_argument("--header", action=argparse.BooleanOptionalAction, default=None,
                         help="the first row is (--header) or is not (--no-header) a header "
                         "(default: it is when it names the columns asked for, or, with columns "
                         "given by number, when none of its labels appears again below it)")
    source.add_argument("--state", metavar="STATE_FILE",
                        help="also write the accumulator's state (to_dict()) as JSON to STATE_FILE")
    reading = _Parser(add_help=False, parents=[source])
    reading.add_argument("--plot", metavar="FILE.png",
                         help="also draw a figure (the plot extra, matplotlib): per-category "
                         "precision, recall and F1 (classify) or the contingency table (compare); "
                         "PNG unless the file's extension names another format")
    reading.add_argument("--intervals", metavar="LEVEL", nargs="?", const=0.95, type=_level,
                         help="add confidence intervals at LEVEL (default 0.95): Wilson's for "
                         "proportions and the delta method for macro averages (classify, and "
                         "each model's scores in paired, with Newcombe's for the difference of "
                         "accuracies), the delta method for the pair scores (compare); in the "
                         "report, the JSON scores and the learning curve's bands")

    # options that several commands share, defined once
    label_sep = _Parser(add_help=False)
    label_sep.add_argument("--label-sep", metavar="SEP", type=_label_separator,
                           help="separator of several categories in one cell (default '|'; ',' "
                           "in the three-field format)")
    declared = _Parser(add_help=False)
    declared.add_argument("--categories", metavar="LIST_OR_FILE",
                          help="the declared categories: a comma-separated list, or a file of one "
                          "per line; any other category is an error (curves: the classes of "
                          "the --score columns, in their order)")
    undefined = _Parser(add_help=False)
    undefined.add_argument("--zero-division", choices=tuple(_ZERO_DIVISION), default="perl",
                           help="the value of undefined ratios and scores: Perl's conventions "
                           "(default; a score undefined for want of a class is an error) or "
                           "scikit-learn's 0, 1 or nan")

    classify = commands.add_parser(
        "classify", parents=[reading, output, label_sep, declared, undefined],
        help="score category decisions",
        description="Score category decisions: Statistics::Contingency's stats table, the "
        "per-category report, then the numbers of results read and lines skipped.")
    classify.add_argument("--assigned", metavar="COL",
                          help="column of the categories assigned (a name, or a number from 1)")
    classify.add_argument("--correct", metavar="COL",
                          help="column of the correct categories (a name, or a number from 1)")
    classify.add_argument("--group", metavar="COL", action="append",
                          help="column of each result's group (repeat it for several features, "
                          "whose values together make the group): scores by group, their "
                          "disparities between groups and to the whole")
    classify.add_argument("--pos-label", metavar="CATEGORY",
                          help="with --group: the positive category, for fairlearn's fairness "
                          "scores (selection rate, true and false positive rates, demographic "
                          "parity, equalized odds, equal opportunity)")
    classify.add_argument("--learning-curve", metavar="FILE.png",
                          help=f"also draw micro and macro F1 against the number of results, "
                          f"recorded every {LEARNING_STEP} results while the file streams (the "
                          "plot extra)")
    classify.set_defaults(run=_classify)

    compare = commands.add_parser(
        "compare", parents=[reading, output], help="compare two clusterings",
        description="Compare a model partition (clusters) with a reference partition (classes): "
        "every pair-counting, information and set-matching score.")
    compare.add_argument("--reference", metavar="COL", required=True,
                         help="column of the reference labels (a name, or a number from 1)")
    compare.add_argument("--model", metavar="COL", required=True,
                         help="column of the model's labels (a name, or a number from 1)")
    compare.add_argument("--jci", action="store_true",
                         help="add the Jaccard-Concentration Index")
    compare.set_defaults(run=_compare)

    paired = commands.add_parser(
        "paired", parents=[reading, output, label_sep, declared, undefined],
        help="compare two classifiers on the same results",
        description="Compare two classifiers' decisions on the same results: each model's "
        "summary scores, the paired table of which one was right, and McNemar's test (exact, "
        "mid-p and asymptotic), then the numbers of results read and lines skipped.")
    paired.add_argument("--assigned-a", metavar="COL", required=True,
                        help="column of the categories model a assigned (a name, or a number "
                        "from 1)")
    paired.add_argument("--assigned-b", metavar="COL", required=True,
                        help="column of the categories model b assigned")
    paired.add_argument("--correct", metavar="COL", required=True,
                        help="column of the correct categories")
    paired.set_defaults(run=_paired)

    curves = commands.add_parser(
        "curves", parents=[source, output, declared, undefined],
        help="score a classifier's scores (ROC, AUC)",
        description="Score a classifier's scores: ROC AUC and average precision (with their "
        "certified bounds under --bins), and for a binary classifier the Brier score and log "
        "loss when the scores are probabilities; with a score column per class, the "
        "one-vs-rest AUC and average precision by average and by class and the top-1 accuracy. "
        "Then the numbers of results read and lines skipped.")
    curves.add_argument("--score", metavar="COL[,COL...]", required=True,
                        help="column of the scores (numbers; higher means more likely positive), "
                        "or a comma-separated list of columns, one per class (the classes are "
                        "--categories, in the same order, or else the columns' names)")
    curves.add_argument("--correct", metavar="COL", required=True,
                        help="column of the correct labels: 1/0 or true/false, or any labels "
                        "with --positive; with several --score columns, each result's class")
    curves.add_argument("--positive", metavar="LABEL",
                        help="the label of the positive class in the --correct column (every "
                        "other label is negative)")
    curves.add_argument("--bins", metavar="N", type=_bins,
                        help="count the scores in N equal bins over [0, 1] (memory O(N) at any "
                        "size; the reads give their certified bounds) instead of exactly")
    curves.add_argument("--plot", metavar="FILE.png",
                        help="also draw the ROC curve with its AUC (a curve per class and the "
                        "micro average with several --score columns; the plot extra, "
                        "matplotlib); PNG unless the file's extension names another format")
    curves.set_defaults(run=_curves)

    demo = commands.add_parser("demo", parents=[output], help="run both on the bundled example",
                               description="Classify and compare on the bundled example: "
                               "scikit-learn's handwritten digits (see docs/cli.md).")
    demo.set_defaults(run=_demo)
    parser.set_defaults(run=_demo, format="text", figs=3)
    return parser


# Input -------------------------------------------------------------------------------------


@frozen
class _Result:
    """What a command prints, the state it writes under --state, and the figures it draws (by file)."""

    #: The output: one string, or its pieces in order (written as they are made).
    text: str | Iterable[str]
    #: Makes the state (O(categories) or O(cells) to build): called only under --state.
    state: Callable[[], dict[str, Any]] | None = None
    #: (the option that asked for it, the file, the figure) of each figure to draw.
    figures: list[tuple[str, str, Callable[[], Any]]] = field(factory=list)


@contextmanager
def _opened(path: str) -> Iterator[tuple[IO[bytes], str, int | None]]:
    """The file as a binary stream, its name for messages, and its size when it is a regular file."""
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (<&-): Python sets it to None
            raise InputError("<stdin>: cannot read (standard input is closed)")
        yield sys.stdin.buffer, "<stdin>", None
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below, after the yield)
    except OSError as problem:
        raise InputError(f"{path}: cannot open ({problem.strerror or problem})") from None
    with stream:
        status = os.fstat(stream.fileno())
        size = status.st_size if os.path.isfile(path) else None
        yield stream, path, size


@contextmanager
def _example() -> Iterator[tuple[IO[bytes], str, int | None]]:
    with resources.files("contingency.examples").joinpath(EXAMPLE).open("rb") as stream:
        yield stream, EXAMPLE, None


def _described(columns: dict[str, str | None], defaults: dict[str, str]) -> list[str]:
    """How messages name each column: its name and the option that gave it (or whose default it is)."""
    return [f"{value!r} ({option})" if value is not None
            else f"{defaults[option]!r} (the default of {option})"
            for option, value in columns.items()]


def _chunks(args: argparse.Namespace, opened: Any, columns: list[str], *,
            multi: bool | Sequence[bool],
            named: bool, described: list[str], label_sep: str | None = None,
            results: int = CHUNK) -> Iterator[tuple[Chunk, LabelReader]]:
    """Each chunk (of ``results`` results) of the input with its reader (whose counts grow as it reads)."""
    with opened as (stream, source, size), progress_bar(size, source) as advance:
        try:
            lines = read_lines(stream, source, progress=advance)
            fmt: Format | None = args.input_format
            if fmt is None:  # by extension, or (standard input, say) by the first line
                first, lines = first_line(lines)
                fmt = guess_format(source, args.sep, named_columns=named, first=first)
            reader = LabelReader(lines, source, fmt, columns, multi=multi, header=args.header,
                                 sep=args.sep, label_sep=label_sep, chunk=results,
                                 described=described)
            for chunk in reader.chunks():
                yield chunk, reader
        except OSError as problem:  # an error while reading, after a successful open
            raise InputError(f"{source}: cannot read ({problem.strerror or problem})") from None
        if reader.results == 0:
            raise InputError(f"{source}: no results (the file is empty or holds only a header, "
                             "blank lines or comments)")


def _add(chunk: Chunk, reader: LabelReader, batch: Callable[..., object],
         one: Callable[..., object]) -> None:
    """Feed one chunk through ``batch``; if it refuses the chunk, find the line with ``one``.

    Both take the chunk's columns (a result's cells, for ``one``). The batch
    paths check the whole chunk before they count anything, so a refused
    chunk changed nothing; ``one`` then takes its results one by one until
    the bad one raises, and the error names that line.
    """
    try:
        batch(*chunk.columns)
    except ValueError as problem:
        for line, *cells in zip(chunk.lines, *chunk.columns):
            try:
                one(*cells)
            except ValueError as found:
                raise InputError(f"{reader.source} line {line}: {found}") from None
        raise InputError(f"{reader.source} lines {chunk.lines[0]}-{chunk.lines[-1]}: "
                         f"{problem}") from None


def _add_decisions(accumulator: Contingency, assigned: list[Any], correct: list[Any]) -> None:
    """A chunk of category decisions, each by the fastest path that takes it (order does not count).

    Measured on chunks of 8192 results: results with one text label a side go
    fastest as two label arrays (one bincount, about as fast as the
    ``add_result`` loop); results with several labels go about six times
    faster through ``add_result`` than as a sequence batch.
    """
    single = [type(a) is str and type(c) is str for a, c in zip(assigned, correct)]
    if all(single):
        accumulator.add_results(np.array(assigned), np.array(correct))
        return
    if single.count(True) > len(single) // 2:
        accumulator.add_results(np.array([a for a, one in zip(assigned, single) if one]),
                                np.array([c for c, one in zip(correct, single) if one]))
        assigned = [a for a, one in zip(assigned, single) if not one]
        correct = [c for c, one in zip(correct, single) if not one]
    for a, c in zip(assigned, correct):
        accumulator.add_result(a, c)


def _categories(value: str | None) -> list[str] | None:
    if value is None:
        return None
    if os.path.isfile(value):
        try:  # read as the input is: invalid UTF-8 and overlong lines name their line
            with open(value, "rb") as listing:
                return [line.strip() for line in read_lines(listing, f"--categories {value}")
                        if line.strip()]
        except OSError as problem:
            raise InputError(f"--categories {value}: cannot read ({problem.strerror or problem})"
                             ) from None
    if "," not in value and (os.sep in value or "/" in value
                             or os.path.splitext(value)[1].lower() in _LISTING_SUFFIXES):
        # A mistyped file name would otherwise declare one category of that name, and every
        # result would then be refused as naming an unknown one.
        raise InputError(f"--categories {value}: no such file (to declare one category of "
                         f"that name, write it with a comma: '{value},')")
    return [name.strip() for name in value.split(",") if name.strip()]


#: What a --categories value without a comma that ends so is taken for: a file name.
_LISTING_SUFFIXES = frozenset({".txt", ".csv", ".tsv", ".lst", ".list", ".json", ".jsonl"})


def _counts(reader: LabelReader) -> str:
    def plural(count: int, noun: str) -> str:
        return f"{count} {noun}" + ("" if count == 1 else "s")

    return (f"{reader.source}: {plural(reader.results, 'result')} read, "
            f"{plural(reader.skipped, 'line')} skipped (header, blank lines, comments)")


# Commands ----------------------------------------------------------------------------------


def _classification(args: argparse.Namespace, opened: Any, curve: list[Any] | None = None
                    ) -> tuple[Contingency, LabelReader]:
    """The accumulator of the file's decisions, and its reader; a learning curve's points in ``curve``."""
    named = args.assigned is not None or args.correct is not None
    columns = [args.assigned or "assigned", args.correct or "correct"]
    described = _described({"--assigned": args.assigned, "--correct": args.correct},
                           {"--assigned": "assigned", "--correct": "correct"})
    declared = _categories(args.categories)
    accumulator = Contingency(declared, zero_division=_ZERO_DIVISION[args.zero_division])
    known = None if declared is None else set(declared)

    def one(assigned: Any, correct: Any) -> None:
        """One result, a category outside --categories refused in the command line's terms."""
        _check_declared(known, assigned, correct)
        accumulator.add_result(assigned, correct)

    reader = None
    for chunk, reader in _chunks(args, opened, columns, multi=True, named=named,
                                 described=described, label_sep=args.label_sep,
                                 results=CHUNK if curve is None else LEARNING_STEP):
        _add(chunk, reader, lambda a, c: _add_decisions(accumulator, a, c), one)
        if curve is not None:
            level = getattr(args, "intervals", None)
            curve.append((accumulator.n_results, accumulator.micro_f1, accumulator.macro_f1)
                         if level is None else _plot().learning_point(accumulator,
                                                                      intervals=level))
    assert reader is not None  # _chunks raises when there is no result
    return accumulator, reader


def _classification_text(accumulator: Contingency, reader: LabelReader, figs: int,
                         intervals: float | None = None) -> str:
    return (f"{accumulator.stats_table(figs)}\n"
            f"{accumulator.report(digits=figs, intervals=intervals)}\n\n{_counts(reader)}\n")


def _check_declared(known: set[str] | None, assigned: Any, correct: Any) -> None:
    """Refuse, in the command line's terms, a category outside --categories."""
    for side, cell in (("assigned", assigned), ("correct", correct)):
        for label in cell if isinstance(cell, tuple) else (cell,):
            if known is not None and label not in known:
                raise ValueError(f"{side}: unknown category {label!r} (not among --categories: "
                                 "add it there, or leave --categories out to count every "
                                 "category)")


def _classify(args: argparse.Namespace) -> _Result:
    if args.group and args.intervals is not None:
        raise InputError("--intervals does not combine with --group: the command line prints no "
                         "interval by group (in Python: GroupedContingency.interval_by_group)")
    if args.group:
        return _grouped_classify(args)
    if args.pos_label is not None:
        raise InputError("--pos-label needs --group: it names the positive category of the "
                         "fairness scores by group")
    curve: list[Any] | None = [] if args.learning_curve else None
    accumulator, reader = _classification(args, _opened(args.file), curve)
    text: str | Iterable[str]
    if args.format == "json":  # the categories streamed from columns, not made into dicts
        scores = accumulator._scores(args.intervals, "scores")
        scores["categories"] = scores["categories"].json_records()
        text = _json_pieces(scores)
    else:
        text = _classification_text(accumulator, reader, args.figs, args.intervals)
    figures: list[tuple[str, str, Callable[[], Any]]] = []
    if args.plot:
        figures.append(("--plot", args.plot, lambda: _plot().category_chart(accumulator)))
    if args.learning_curve:
        figures.append(("--learning-curve", args.learning_curve,
                        lambda: _plot().learning_curve(curve or [], level=args.intervals)))
    return _Result(text, accumulator.to_dict, figures)


def _grouped_classification(args: argparse.Namespace, opened: Any, curve: list[Any] | None = None
                            ) -> tuple[GroupedContingency, LabelReader]:
    """The grouped accumulator of the file's decisions (each result's group from --group), and its
    reader; a learning curve's points (of every result together) in ``curve``."""
    named = True
    columns = [args.assigned or "assigned", args.correct or "correct", *args.group]
    described = _described({"--assigned": args.assigned, "--correct": args.correct},
                           {"--assigned": "assigned", "--correct": "correct"})
    described += [f"{column!r} (--group)" for column in args.group]
    declared = _categories(args.categories)
    accumulator = GroupedContingency(declared, zero_division=_ZERO_DIVISION[args.zero_division])
    known = None if declared is None else set(declared)
    several = len(args.group) > 1

    def one(assigned: Any, correct: Any, group: Any) -> None:
        _check_declared(known, assigned, correct)
        accumulator.add_result(assigned, correct, group=group)

    reader = None
    for chunk, reader in _chunks(args, opened, columns, multi=[True, True, *[False] * len(args.group)],
                                 named=named, described=described, label_sep=args.label_sep,
                                 results=CHUNK if curve is None else LEARNING_STEP):
        assigned, correct, *features = chunk.columns
        groups = tuple(features) if several else features[0]
        try:
            accumulator.add_results(assigned, correct, groups=groups)
        except ValueError as problem:  # nothing was counted: find the line, one by one
            keys = zip(*features) if several else features[0]
            for line, a, c, g in zip(chunk.lines, assigned, correct, keys):
                try:
                    one(a, c, g)
                except ValueError as found:
                    raise InputError(f"{reader.source} line {line}: {found}") from None
            raise InputError(f"{reader.source} lines {chunk.lines[0]}-{chunk.lines[-1]}: "
                             f"{problem}") from None
        if curve is not None:
            curve.append((accumulator.n_results, accumulator.overall_score("micro_f1"),
                          accumulator.overall_score("macro_f1")))
    assert reader is not None  # _chunks raises when there is no result
    return accumulator, reader


def _positive(accumulator: GroupedContingency, text: str | None) -> Any:
    """The category --pos-label names (an integer label of JSON Lines by its digits too)."""
    if text is None:
        return None
    categories = accumulator.categories
    if text in categories:
        return text
    if text.strip().lstrip("-").isdigit() and int(text) in categories:
        return int(text)
    raise InputError(not_a_category(f"--pos-label {text!r}", categories))


def _grouped_classify(args: argparse.Namespace) -> _Result:
    curve: list[Any] | None = [] if args.learning_curve else None
    accumulator, reader = _grouped_classification(args, _opened(args.file), curve)
    positive = _positive(accumulator, args.pos_label)
    if args.format == "json":
        text = _json(accumulator.scores(pos_label=positive))
    else:
        text = (f"{accumulator.report(digits=args.figs, pos_label=positive)}\n\n"
                f"{_counts(reader)}\n")
    score = ("selection_rate", positive) if positive is not None else "macro_f1"
    figures: list[tuple[str, str, Callable[[], Any]]] = []
    if args.plot:
        figures.append(("--plot", args.plot, lambda: _plot().group_chart(accumulator, score)))
    if args.learning_curve:
        figures.append(("--learning-curve", args.learning_curve,
                        lambda: _plot().learning_curve(curve or [])))
    return _Result(text, accumulator.to_dict, figures)


def _partition(args: argparse.Namespace, opened: Any) -> tuple[PartitionComparison, LabelReader]:
    comparison = PartitionComparison()
    reader = None
    described = _described({"--reference": args.reference, "--model": args.model}, {})
    for chunk, reader in _chunks(args, opened, [args.reference, args.model], multi=False,
                                 named=True, described=described):
        _add(chunk, reader, comparison.add_many, comparison.add)
    assert reader is not None
    return comparison, reader


def _partition_scores(comparison: PartitionComparison, jci: bool,
                      intervals: float | None = None) -> dict[str, Any]:
    """``comparison.scores(intervals)``, without the Jaccard-Concentration Index unless ``jci``."""
    scores = comparison.scores(intervals)
    if not jci:
        del scores["jaccard_concentration_index"]
    return scores


def _partition_text(scores: dict[str, Any], reader: LabelReader, figs: int) -> str:
    return f"{report.partition_report(scores, figs)}\n\n{_counts(reader)}\n"


def _compare(args: argparse.Namespace) -> _Result:
    comparison, reader = _partition(args, _opened(args.file))
    scores = _partition_scores(comparison, args.jci, args.intervals)
    text = _json(scores) if args.format == "json" else _partition_text(scores, reader, args.figs)
    figures: list[tuple[str, str, Callable[[], Any]]] = []
    if args.plot:
        figures.append(("--plot", args.plot, lambda: _plot().partition_heatmap(comparison)))
    return _Result(text, comparison.to_dict, figures)


def _paired_comparison(args: argparse.Namespace, opened: Any
                       ) -> tuple[PairedComparison, LabelReader]:
    """The paired accumulator of the file's decisions by both models, and its reader."""
    options = ("--assigned-a", "--assigned-b", "--correct")
    columns = [args.assigned_a, args.assigned_b, args.correct]
    described = _described(dict(zip(options, columns)), {})
    declared = _categories(args.categories)
    accumulator = PairedComparison(declared, zero_division=_ZERO_DIVISION[args.zero_division])
    known = None if declared is None else set(declared)

    def one(*cells: Any) -> None:
        """One result, a category outside --categories refused in the command line's terms."""
        for option, cell in zip(options, cells):
            for label in cell if isinstance(cell, tuple) else (cell,):
                if known is not None and label not in known:
                    raise ValueError(f"{option}: unknown category {label!r} (not among "
                                     "--categories: add it there, or leave --categories out to "
                                     "count every category)")
        accumulator.add_result(*cells)

    reader = None
    for chunk, reader in _chunks(args, opened, columns, multi=True, named=True,
                                 described=described, label_sep=args.label_sep):
        _add(chunk, reader, accumulator.add_results, one)
    assert reader is not None  # _chunks raises when there is no result
    return accumulator, reader


def _paired(args: argparse.Namespace) -> _Result:
    if args.plot:
        raise InputError(f"--plot {args.plot}: the paired command draws no figure (classify and "
                         "compare do)")
    accumulator, reader = _paired_comparison(args, _opened(args.file))
    if args.format == "json":
        text = _json(accumulator.scores(args.intervals))
    else:
        text = (f"model a: {args.assigned_a!r} (--assigned-a)   model b: {args.assigned_b!r} "
                f"(--assigned-b)   correct: {args.correct!r} (--correct)\n\n"
                f"{accumulator.report(digits=args.figs, intervals=args.intervals)}\n\n"
                f"{_counts(reader)}\n")
    return _Result(text, accumulator.to_dict)


def _demo(args: argparse.Namespace) -> _Result:
    def options(**columns: Any) -> argparse.Namespace:
        return argparse.Namespace(input_format=None, sep=None, header=None, label_sep=None,
                                  categories=None, zero_division="perl", **columns)

    digits, digits_reader = _classification(options(assigned="predicted", correct="digit"),
                                            _example())
    tags, tags_reader = _classification(options(assigned="predicted_tags", correct="tags"),
                                        _example())
    clusters, clusters_reader = _partition(options(reference="digit", model="cluster"), _example())
    scores = _partition_scores(clusters, jci=True)
    if args.format == "json":
        return _Result(_json({"digits": digits.scores(), "tags": tags.scores(),
                              "clusters": scores}))
    figs = args.figs
    return _Result(
        "The bundled example: scikit-learn's 1797 handwritten digits (UCI), predicted by "
        "classifiers that did not see them, and clustered by k-means (see docs/cli.md).\n\n"
        "1. The digit, by Gaussian naive Bayes:\n"
        "   contingency classify digits.csv --assigned predicted --correct digit\n\n"
        f"{_classification_text(digits, digits_reader, figs)}\n"
        "2. Tags even, prime, large (> 4), by one logistic regression per tag (multi-label):\n"
        "   contingency classify digits.csv --assigned predicted_tags --correct tags\n\n"
        f"{_classification_text(tags, tags_reader, figs)}\n"
        "3. The ten k-means clusters against the digits:\n"
        "   contingency compare digits.csv --reference digit --model cluster --jci\n\n"
        f"{_partition_text(scores, clusters_reader, figs)}")


_TRUTH = {"1": True, "0": False, "true": True, "false": False, 1: True, 0: False}


def _score(cell: Any, column: str | None = None) -> float:
    """A score cell as a float, or ``ValueError`` saying it is not a number (and in which column)."""
    try:
        return float(cell)
    except (TypeError, ValueError):
        where = "" if column is None else f" in column {column!r}"
        raise ValueError(f"score {cell!r}{where} is not a number") from None


def _score_matrix(columns: Sequence[list[Any]], names: Sequence[str | None]) -> Any:
    """Columns of score cells as one float64 matrix (a column each), a bad cell named."""
    try:  # numpy parses columns of numeric text at once
        return np.array(columns, dtype=np.float64).T
    except (TypeError, ValueError):  # a cell that is not a number: named by the caller
        return np.array([[_score(cell, name) for cell in column]
                         for column, name in zip(columns, names)], dtype=np.float64).T


def _score_columns(value: str) -> list[str]:
    """The --score columns: one, or a comma-separated list (one per class)."""
    columns = [column.strip() for column in value.split(",")] if "," in value else [value]
    if any(not column for column in columns):
        raise InputError(f"--score {value}: an empty column name in the list")
    if len(set(columns)) != len(columns):
        raise InputError(f"--score {value}: a column is named twice")
    return columns


def _scored_results(args: argparse.Namespace, opened: Any
                    ) -> tuple[ThresholdContingency | MulticlassThresholdContingency, LabelReader]:
    """The accumulator of the file's scored results, and its reader."""
    columns = _score_columns(args.score)
    if len(columns) > 1:
        return _multiclass_results(args, opened, columns)
    if args.categories is not None:
        raise InputError("--categories names the classes of several --score columns; with one "
                         "--score column, name the positive label with --positive")
    positive = args.positive
    curve = ThresholdContingency(bins=args.bins, pos_label=positive,
                                 zero_division=_ZERO_DIVISION[args.zero_division])

    def truth(cell: Any) -> Any:
        if positive is not None:
            return cell
        found = _TRUTH.get(cell.lower() if isinstance(cell, str) else cell)
        if found is None:
            raise ValueError(f"correct label {cell!r} is not 1/0 or true/false (name the "
                             "positive label with --positive)")
        return found

    def batch(scores: list[Any], correct: list[Any]) -> None:
        curve.add_results(_score_matrix([scores], [None])[:, 0], [truth(cell) for cell in correct])

    def one(score: Any, correct: Any) -> None:
        curve.add(_score(score), truth(correct))

    reader = None
    described = _described({"--score": args.score, "--correct": args.correct}, {})
    for chunk, reader in _chunks(args, opened, [args.score, args.correct], multi=False,
                                 named=True, described=described):
        _add(chunk, reader, batch, one)
    assert reader is not None
    return curve, reader


def _multiclass_results(args: argparse.Namespace, opened: Any, columns: list[str]
                        ) -> tuple[MulticlassThresholdContingency, LabelReader]:
    """The accumulator of a file's rows of K scores (one column per class) and their class."""
    if args.positive is not None:
        raise InputError("--positive goes with one --score column; with several, --correct is "
                         "each result's class")
    classes = _categories(args.categories) or columns
    if len(classes) != len(columns):
        raise InputError(f"--categories names {len(classes)} classes for {len(columns)} --score "
                         "columns (one class per column, in the same order)")
    curves = MulticlassThresholdContingency(classes, bins=args.bins,
                                            zero_division=_ZERO_DIVISION[args.zero_division])
    known = set(curves.classes)

    def checked(label: Any) -> Any:
        if label not in known:
            raise ValueError(f"class {label!r} (--correct) is not one of the classes "
                             f"{', '.join(map(str, classes))} ("
                             + ("--categories)" if args.categories else "the --score columns' "
                                "names: give the classes in --categories)"))
        return label

    def batch(*cells: list[Any]) -> None:
        *scores, correct = cells
        for label in set(correct):
            checked(label)
        curves.add_results(_score_matrix(scores, columns), correct)

    def one(*cells: Any) -> None:
        *scores, correct = cells
        row = [_score(cell, name) for cell, name in zip(scores, columns)]
        for value, cell, name in zip(row, scores, columns):
            if not np.isfinite(value):
                raise ValueError(f"score {cell!r} in column {name!r} is not a finite number")
        curves.add(row, checked(correct))

    reader = None
    described = [f"{column!r} (--score)" for column in columns] + [f"{args.correct!r} (--correct)"]
    for chunk, reader in _chunks(args, opened, [*columns, args.correct], multi=False,
                                 named=True, described=described):
        _add(chunk, reader, batch, one)
    assert reader is not None
    return curves, reader


def _curves(args: argparse.Namespace) -> _Result:
    text: str | Iterable[str]
    curve, reader = _scored_results(args, _opened(args.file))
    scores = curve.scores()
    text = (_json_pieces(scores) if args.format == "json"  # NaN as null
            else f"{curve.report(args.figs)}\n\n{_counts(reader)}\n")
    figures: list[tuple[str, str, Callable[[], Any]]] = []
    if args.plot and isinstance(curve, MulticlassThresholdContingency):
        for label, support in zip(curve.classes, curve.supports().tolist()):
            if not support or support == curve.n_results:
                kind = "positive" if not support else "negative"
                raise InputError(f"--plot {args.plot}: the ROC curve of class {label!r} needs both "
                                 f"classes, and no result is {kind} for it")
        several = curve
        figures.append(("--plot", args.plot, lambda: _plot().roc_plot(several)))
    elif args.plot and isinstance(curve, ThresholdContingency):
        if not curve.positives or not curve.negatives:
            absent = "positive" if not curve.positives else "negative"
            raise InputError(f"--plot {args.plot}: the ROC curve needs both classes, and no "
                             f"result is {absent}")
        figures.append(("--plot", args.plot, lambda: _plot().roc_plot(curve)))
    return _Result(text, curve.to_dict, figures)


# Output ------------------------------------------------------------------------------------


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, allow_nan=False) + "\n"


def _json_pieces(data: dict[str, Any]) -> Iterator[str]:
    """:func:`_json` of ``data`` (NaN as null), in pieces: see :func:`contingency.report.json_text`."""
    yield from report.json_text(data)
    yield "\n"


def _writable(text: str, stream: IO[str]) -> str:
    """``text`` with what ``stream``'s encoding cannot hold as backslash escapes.

    A label may hold what the output cannot: a lone surrogate from a JSON
    escape (``"\\ud800"``) in any encoding, a CJK label when the output is
    cp1252. It is shown escaped, ``\\ud800``, rather than ending the run.
    """
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # a stream naming no codec Python knows: let it encode as it can
        pass
    return text


def _fail(message: str) -> int:
    stderr = sys.stderr
    if stderr is not None:  # None: started with standard error closed (2>&-)
        line = f"contingency: {' '.join(message.split())}\n"
        with suppress(OSError):  # nowhere left to report a failed report
            stderr.write(_writable(line, stderr))
            stderr.flush()
    return 2


def _plot() -> Any:
    """:mod:`contingency.plot`, imported only when a figure is asked for."""
    from contingency import plot

    return plot


def _draw(option: str, path: str, figure: Callable[[], Any]) -> None:
    """Save the figure ``option`` asked for at ``path``: in the format its extension names, PNG if none.

    Without ``format``, matplotlib would add ".png" to a name without an
    extension and write another file than the one named.
    """
    try:
        figure().savefig(path, format=None if PurePath(path).suffix else "png")
    except ImportError as missing:  # the plot extra is not installed; the message names it
        raise InputError(f"{option} {path}: {missing}") from None
    except (OSError, ValueError) as problem:  # ValueError: a format matplotlib does not write
        raise InputError(f"{option} {path}: cannot write "
                         f"({getattr(problem, 'strerror', None) or problem})") from None


def _write_state(path: str, state: dict[str, Any]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(_json(state))
    except OSError as problem:
        raise InputError(f"--state {path}: cannot write ({problem.strerror or problem})") from None


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush cannot fail again."""
    with suppress(OSError, ValueError):  # ValueError: no file descriptor (a captured stdout)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _output(text: str | Iterable[str]) -> int:
    """Write ``text`` (or its pieces) on standard output; the exit status: 2, with one line, if it
    cannot be written."""
    stdout = sys.stdout
    if stdout is None:  # started with standard output closed (>&-): Python sets it to None
        return _fail("cannot write the output (standard output is closed)")
    try:
        for piece in [text] if isinstance(text, str) else text:
            stdout.write(_writable(piece, stdout))
        stdout.flush()
    except BrokenPipeError:  # the reader (head, say) stopped reading: not an error
        _silence_stdout()
    except OSError as problem:
        _silence_stdout()
        return _fail(f"cannot write the output ({problem.strerror or problem})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    0 on success, 2 on bad input or arguments (one line on standard error).

    >>> main(["demo", "--figs", "0"])
    2
    """
    try:
        args = _parser().parse_args(argv)
    except _UsageError as problem:
        return _fail(str(problem))
    except _Printed as asked:  # --help, --version
        return _output(asked.text)
    try:
        result: _Result = args.run(args)
        if getattr(args, "state", None) and result.state is not None:
            _write_state(args.state, result.state())
        for option, path, figure in result.figures:
            _draw(option, path, figure)
    except (InputError, ValueError) as problem:
        return _fail(str(problem))
    return _output(result.text)
