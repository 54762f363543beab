"""Issue 12's benchmark row: the command line's peak memory stays flat as its input file grows.

Each command (``classify`` and ``compare``) runs in a fresh process on a CSV
file of ``small`` rows and on one of ``big`` rows (the small file's rows
repeated, so every score of the big run must equal the small run's); the
figure is the process's peak resident size (``ru_maxrss`` of that one child,
from ``os.wait4``), which includes the interpreter and numpy. Target: the big
run's peak within twice the small run's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.data import SEED
from tests.benchmarks.harness import Row

__all__ = ["cli_streaming_memory"]

ROOT = Path(__file__).resolve().parent.parent.parent
SMALL = 100_000
COMMANDS = {
    "classify": ["classify", "--assigned", "assigned", "--correct", "correct"],
    "compare": ["compare", "--reference", "correct", "--model", "cluster"],
}


def _write(path: Path, block: str, repeats: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write("assigned,correct,cluster\n")
        for _ in range(repeats):
            out.write(block)


def _block(n: int) -> str:
    """``n`` rows of 10 categories (80% right) and 12 clusters, one or two categories assigned."""
    rng = np.random.default_rng([SEED, n, 12])
    correct = rng.integers(0, 10, n)
    assigned = np.where(rng.random(n) < 0.8, correct, rng.integers(0, 10, n))
    extra = np.where(rng.random(n) < 0.1, rng.integers(0, 10, n), -1)  # a second category, at times
    cluster = rng.integers(0, 12, n)
    return "".join(f"c{a}{f'|c{e}' if e >= 0 else ''},c{c},k{k}\n" for a, e, c, k in
                   zip(assigned.tolist(), extra.tolist(), correct.tolist(), cluster.tolist()))


def _run(arguments: list[str]) -> tuple[int, float, dict[str, Any]]:
    """Peak resident bytes, seconds, and the JSON printed, of one command line in a fresh process.

    The child is reaped with ``os.wait4``, which gives that one child's usage
    (``communicate`` would reap it first, and ``RUSAGE_CHILDREN`` is a maximum
    over every child so far).
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "contingency", *arguments, "--format", "json"],
            cwd=ROOT, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise RuntimeError(f"contingency {' '.join(arguments)} failed: {err.read()[-300:]!r}")
        return usage.ru_maxrss * 1024, seconds, json.loads(out.read())


def cli_streaming_memory(big: int, quick: bool) -> list[Row]:
    if not hasattr(os, "wait4"):
        return [Row(f"peak memory: contingency {name} FILE", f"{big:,} vs {SMALL:,} rows", "bytes",
                    status_override="SKIP", notes="os.wait4 is not available on this system")
                for name in COMMANDS]
    rows = []
    block = _block(SMALL)
    with tempfile.TemporaryDirectory() as directory:
        small_path, big_path = Path(directory) / "small.csv", Path(directory) / "big.csv"
        _write(small_path, block, 1)
        _write(big_path, block, big // SMALL)
        for name, arguments in COMMANDS.items():
            small_peak, small_seconds, small_scores = _run([arguments[0], str(small_path),
                                                                     *arguments[1:]])
            big_peak, big_seconds, big_scores = _run([arguments[0], str(big_path),
                                                               *arguments[1:]])
            # Every count is the small file's times big // SMALL: ratios of counts (not of pairs) agree.
            key = "micro f1" if name == "classify" else "purity"
            small_value, big_value = ((scores["averages"]["micro"]["f1"] if name == "classify"
                                       else scores["purity"])
                                      for scores in (small_scores, big_scores))
            check = "ok" if small_value == big_value else (
                f"MISMATCH: {key} {small_value!r} (small) != {big_value!r} (big)")
            rows.append(Row(
                f"peak memory: contingency {name} FILE", f"{big:,} vs {SMALL:,} rows", "bytes",
                ours=big_peak, peer_name=f"{SMALL:,} rows", peer=small_peak,
                target="<= 2x the small file's peak", passed=big_peak <= 2 * small_peak,
                check=check,
                notes=(f"peak resident size of the whole process; {big_peak / small_peak:.2f}x; "
                       f"{big_seconds / big * 1e6:.2f} us per row ({big_seconds:.0f} s), small "
                       f"file {small_seconds:.1f} s" + ("; quick run" if quick else ""))))
    return rows
