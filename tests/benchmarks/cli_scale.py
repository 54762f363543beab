"""Issue 19's command-line rows: 10**6 rows naming 10**6 distinct labels against the same rows over 10.

Two CSV files of ``n`` rows (``assigned``, ``correct``, ``cluster``; 10**6 in a
full run, 2 x 10**5 with ``--quick``), written once per run in a temporary
folder: in the first every column names about ``n`` distinct labels (the
correct labels and the clusters are permutations of ``n`` names, 80% of the
assigned labels are the correct one, the others drawn at random); in the
second the same shape over 10 labels. ``contingency classify`` and
``contingency compare`` (``--format json``, as rows 48 and 49), and
``contingency classify --intervals`` (every category's Wilson intervals and
the macro averages' delta-method ones, streamed into the JSON) run on each
file in a fresh process through :mod:`tests.benchmarks.memory_probe`, which
reads the process's own resident high-water mark (``VmHWM``). Each command is
timed once per file (the many-label run takes minutes), the two files
alternately. Targets (issue 19): the many-label run within 15 times the
10-label run's time, and its peak resident memory under 1 GiB. Linux only
(elsewhere the rows are skipped).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.data import SEED
from tests.benchmarks.harness import Row
from tests.benchmarks.streaming import high_water_mark_readable, run_command

__all__ = ["cli_distinct_labels"]

_GIB = 1 << 30
#: Each row's command: the subcommand, then what follows the file.
_COMMANDS = {
    "classify": ("classify", ["--assigned", "assigned", "--correct", "correct"]),
    "compare": ("compare", ["--reference", "correct", "--model", "cluster"]),
    "classify --intervals": ("classify", ["--assigned", "assigned", "--correct", "correct",
                                          "--intervals"]),
}


def _write(path: Path, n: int, k: int | None) -> None:
    """``n`` rows over ``k`` labels a column, or (``None``) about ``n`` distinct labels a column."""
    rng = np.random.default_rng([SEED, n, 19])
    if k is None:
        correct, cluster, other = rng.permutation(n), rng.permutation(n), rng.integers(0, n, n)
    else:
        correct, cluster, other = (rng.integers(0, k, n) for _ in range(3))
    assigned = np.where(rng.random(n) < 0.8, correct, other)
    with path.open("w", encoding="utf-8") as out:
        out.write("assigned,correct,cluster\n")
        for start in range(0, n, 100_000):
            part = slice(start, start + 100_000)
            out.write("".join(f"c{a},c{c},k{x}\n" for a, c, x in zip(
                assigned[part].tolist(), correct[part].tolist(), cluster[part].tolist())))


def _counted(name: str, scores: dict[str, Any]) -> int:
    return int(scores["n_results"] if name == "classify" else scores["n_elements"])


def cli_distinct_labels(n: int, quick: bool) -> list[Row]:
    size = f"{n:,} rows, {n:,} vs 10 labels"
    if not high_water_mark_readable():
        return [Row(f"contingency {name} FILE: {measure}", size, unit, status_override="SKIP",
                    notes="no /proc/self/status (VmHWM) on this system")
                for name in _COMMANDS for measure, unit in (("time", "s"), ("peak memory", "bytes"))]
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        many, few = Path(directory) / "many.csv", Path(directory) / "few.csv"
        _write(many, n, None)
        _write(few, n, 10)
        for name, (command, columns) in _COMMANDS.items():
            figures = {}
            for path in (few, many):
                peak, seconds, scores = run_command([command, str(path), *columns, "--format",
                                                     "json"])
                figures[path] = (peak, seconds, _counted(command, scores))
            (few_peak, few_seconds, few_n), (many_peak, many_seconds, many_n) = (
                figures[few], figures[many])
            check = ("n equal" if few_n == many_n == n
                     else f"MISMATCH: {many_n:,} and {few_n:,} results counted, not {n:,}")
            note = "timed once per file (minutes at 10**6 distinct labels)" + (
                "; quick run" if quick else "")
            rows.append(Row(
                f"contingency {name} FILE --format json: time", size, "s", ours=many_seconds,
                peer_name="same rows over 10 labels", peer=few_seconds,
                target="<= 15 x the 10-label run", passed=many_seconds <= 15 * few_seconds,
                check=check, notes=f"{many_seconds / few_seconds:.1f}x; {note}"))
            rows.append(Row(
                f"contingency {name} FILE --format json: peak memory", size, "bytes",
                ours=many_peak, peer_name="same rows over 10 labels", peer=few_peak,
                target="< 1 GiB", passed=many_peak < _GIB, check=check,
                notes="peak resident size of the command's process (VmHWM, read by itself)"))
    return rows
