"""Issue 12's benchmark row: the command line's peak memory stays flat as its input file grows.

Each command (``classify`` and ``compare``) runs in a fresh process on a CSV
file of ``small`` rows and on one of ``big`` rows (the small file's rows
repeated, so every score of the big run must equal the small run's); the
figure is that process's peak resident size, the interpreter and numpy
included, read by the process itself (``VmHWM``, see
:mod:`tests.benchmarks.memory_probe`): the ``ru_maxrss`` the parent gets back
from ``wait4`` starts at the parent's own resident size, so it measured the
benchmark runner (1.44 GiB for either file). Target: the big run's peak within
twice the small run's. Linux only (elsewhere the rows are skipped).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.data import SEED
from tests.benchmarks.harness import Row

__all__ = ["cli_streaming_memory", "high_water_mark_readable", "run_command"]

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


def run_command(arguments: list[str]) -> tuple[int, float, dict[str, Any]]:
    """Peak resident bytes, seconds, and the JSON printed, of one command line in a fresh process.

    The process runs ``contingency.cli.main`` through the memory probe, which
    writes its own resident high-water mark when the command has finished.
    """
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        report, out, err = (Path(folder) / name for name in ("probe.json", "out", "err"))
        with out.open("wb") as stdout, err.open("wb") as stderr:
            subprocess.run([sys.executable, "-m", "tests.benchmarks.memory_probe", "cli",
                            str(report), *arguments, "--format", "json"],
                           cwd=ROOT, stdout=stdout, stderr=stderr, check=False)
        seconds = time.perf_counter() - start
        probe = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        if probe.get("status") != 0:
            raise RuntimeError(f"contingency {' '.join(arguments)} failed: "
                               f"{err.read_bytes()[-300:]!r}")
        return probe["peak"], seconds, json.loads(out.read_text(encoding="utf-8"))


def high_water_mark_readable() -> bool:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return any(line.startswith("VmHWM:") for line in status)
    except OSError:
        return False


def cli_streaming_memory(big: int, quick: bool) -> list[Row]:
    if not high_water_mark_readable():
        return [Row(f"peak memory: contingency {name} FILE", f"{big:,} vs {SMALL:,} rows", "bytes",
                    status_override="SKIP", notes="no /proc/self/status (VmHWM) on this system")
                for name in COMMANDS]
    rows = []
    block = _block(SMALL)
    with tempfile.TemporaryDirectory() as directory:
        small_path, big_path = Path(directory) / "small.csv", Path(directory) / "big.csv"
        _write(small_path, block, 1)
        _write(big_path, block, big // SMALL)
        for name, arguments in COMMANDS.items():
            small_peak, small_seconds, small_scores = run_command(
                [arguments[0], str(small_path), *arguments[1:]])
            big_peak, big_seconds, big_scores = run_command(
                [arguments[0], str(big_path), *arguments[1:]])
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
                notes=(f"peak resident size of the command's process (VmHWM, read by itself); "
                       f"{big_peak / small_peak:.2f}x; "
                       f"{big_seconds / big * 1e6:.2f} us per row ({big_seconds:.0f} s), small "
                       f"file {small_seconds:.1f} s" + ("; quick run" if quick else ""))))
    return rows
