"""The command line: ``python -m contingency [FILE]``.

Glue only: :mod:`contingency.io` reads, the accumulator counts, :mod:`contingency.report` prints.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from importlib import resources

from contingency._contingency import Contingency
from contingency.io import read_decisions

__all__ = ["main"]

EXAMPLE = "news.tsv"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="contingency",
        description="Score category decisions: Statistics::Contingency's stats table and a "
        "per-category report. Each line of FILE is 'name<TAB>assigned<TAB>correct', several "
        "categories separated by commas. Without FILE, a bundled example is scored.",
    )
    parser.add_argument("file", nargs="?", help="decision file ('-' for standard input)")
    parser.add_argument("--figs", type=int, default=3,
                        help="significant figures in the stats table (default 3)")
    parser.add_argument("--json", action="store_true", help="print every score as JSON instead")
    return parser


def _score(stream: Iterable[str], source: str) -> Contingency:
    accumulator = Contingency()
    for decision in read_decisions(stream, source):
        accumulator.add_result(decision.assigned, decision.correct, decision.name)
    return accumulator


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.file is None:
            source = f"bundled example {EXAMPLE}"
            with resources.files("contingency.examples").joinpath(EXAMPLE).open(
                    encoding="utf-8") as stream:
                accumulator = _score(stream, EXAMPLE)
        elif args.file == "-":
            source = "standard input"
            accumulator = _score(sys.stdin, "<stdin>")
        else:
            source = args.file
            with open(args.file, encoding="utf-8") as stream:
                accumulator = _score(stream, args.file)
        if args.json:
            text = json.dumps(accumulator.to_dict(), indent=2, allow_nan=False) + "\n"
        else:
            text = (f"{accumulator.n_results} results from {source}, "
                    f"{len(accumulator.categories)} categories\n\n"
                    f"{accumulator.stats_table(args.figs)}\n{accumulator.report()}\n")
    except (OSError, ValueError) as problem:
        print(f"contingency: {problem}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (head, say) stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
