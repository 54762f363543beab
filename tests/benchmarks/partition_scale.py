"""Issue 19's PartitionComparison rows: memory linear in the non-empty cells, batches O(batch).

- :func:`sparse_reads_memory`: with 10**5 classes, 10**5 clusters and 2 x 10**5
  non-empty cells (the dense table would be 10**10 cells, 80 GB), the peak
  memory of ``scores()``, ``to_dict()``, ``report()`` and
  ``jaccard_concentration_index()``, each measured in a fresh process by
  tracemalloc (numpy reports its buffers to it) on a copy of the accumulator,
  against 64 MiB + 400 B per non-empty cell.
- :func:`one_row_batches`: one ``add_many`` of a single row on an accumulator
  of 200,000 categories a side against the same on one of 20, within 2x:
  a batch costs O(batch + new categories), never O(K). Integer arrays and
  lists of strings, each its own pair of rows.

Run by the suite's cases ("19 ..."); the probe runs as
``python -m tests.benchmarks.partition_scale K``.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure
from tests.benchmarks.ours import PARTITION_SKIP, partition_comparison

__all__ = ["one_row_batches", "sparse_labels", "sparse_reads_memory"]

ROOT = Path(__file__).resolve().parent.parent.parent
SEED = 19
#: The reads measured, by the name of the method called with no argument.
READS = ("scores", "to_dict", "report", "jaccard_concentration_index")
MEMORY_TARGET = "<= 64 MiB + 400 B per non-empty cell"


def sparse_labels(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(reference, model)``: 2k elements, k classes, k clusters, about 2k non-empty cells.

    Each class has two elements: one in the cluster of its own number, one in
    a cluster drawn by a fixed permutation, so every row and column of the
    k x k table holds about two cells.
    """
    rng = np.random.default_rng([SEED, k])
    reference = np.concatenate([np.arange(k), np.arange(k)])
    model = np.concatenate([np.arange(k), rng.permutation(k)])
    return reference, model


def probe(k: int) -> dict[str, Any]:
    """The peak memory of each read above what was held before it, in this (fresh) process."""
    found = partition_comparison()
    if found is None:
        return {"skipped": PARTITION_SKIP}
    comparison_class = found[0]
    comparison = comparison_class.from_labels(*sparse_labels(k))
    # One-time costs (lazy imports) on a small accumulator, as the memory probe does.
    small = comparison_class.from_labels(*sparse_labels(100))
    for name in READS:
        getattr(small, name)()
    peaks = {}
    for name in READS:
        fresh = comparison.copy()  # no value cached by an earlier read
        gc.collect()
        tracemalloc.start()
        start, _ = tracemalloc.get_traced_memory()
        getattr(fresh, name)()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peaks[name] = peak - start
        del fresh
    cells = len(comparison.contingency_cells()[4])
    return {"peaks": peaks, "cells": cells, "rows": comparison.n_reference_clusters,
            "columns": comparison.n_model_clusters}


def sparse_reads_memory(quick: bool) -> list[Row]:
    """Issue 19: each whole-table read within 64 MiB + 400 B per non-empty cell at 10**5 x 10**5."""
    k = 20_000 if quick else 100_000
    size = f"{k:,} x {k:,} clusters, ~{2 * k:,} cells"
    if partition_comparison() is None:
        return [Row(f"peak memory: PartitionComparison.{name}()", size, "bytes",
                    status_override="SKIP", notes=PARTITION_SKIP, target=MEMORY_TARGET)
                for name in READS]
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.partition_scale", str(k)],
                          cwd=ROOT, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout)
    cells = result["cells"]
    allowed = 64 * 2**20 + 400 * cells
    size = f"{result['rows']:,} x {result['columns']:,} clusters, {cells:,} cells"
    dense = 8 * result["rows"] * result["columns"]
    return [Row(f"peak memory: PartitionComparison.{name}()", size, "bytes", ours=peak,
                target=MEMORY_TARGET, passed=peak <= allowed,
                notes=f"tracemalloc peak in a fresh process, on a copy of the accumulator; "
                      f"{peak / cells:.0f} B per non-empty cell; allowed {allowed / 2**20:.0f} MiB; "
                      f"the dense table alone would be {dense / 2**30:.0f} GiB")
            for name, peak in result["peaks"].items()]


def _batches(comparison: Any, rows: list[tuple[Any, Any]]) -> Any:
    add_many = comparison.add_many
    for reference, model in rows:
        add_many(reference, model)
    return comparison


def one_row_batches(repeat: int, quick: bool) -> list[Row]:
    """Issue 19: a 1-row ``add_many`` at K = 200,000 within 2x of the same at K = 20."""
    calls = 500 if quick else 2000
    ks = (20, 200_000)
    forms: dict[str, Callable[[np.ndarray], Any]] = {
        "int64 arrays": lambda codes: codes,
        "lists of str": lambda codes: [str(code) for code in codes.tolist()],
    }
    operation = "PartitionComparison.add_many of 1 row, per call"
    target = "K=200,000 <= 2 x K=20"
    found = partition_comparison()
    if found is None:
        return [Row(f"{operation}: {form}, K=200,000 against K=20", f"{calls:,} calls", "s",
                    status_override="SKIP", notes=PARTITION_SKIP, target=target)
                for form in forms]
    comparison_class = found[0]
    rows = []
    for form, convert in forms.items():
        contestants, expected = [], {}
        for k in ks:
            reference, model = (convert(side) for side in sparse_labels(k))
            rng = np.random.default_rng([SEED, k, 1])
            picks = rng.integers(0, len(reference), calls).tolist()
            batch = [(reference[i:i + 1], model[i:i + 1]) for i in picks]
            comparison = comparison_class.from_labels(reference, model)
            comparison.add_many(*batch[0])  # the batch path's storage from here on
            comparison.remove_many(*batch[0])
            expected[k] = (reference, model, picks)
            contestants.append(Contestant(f"K={k}", partial(_batches, comparison, batch),
                                          items=calls))

        def check(values: list[Any], expected: dict[int, Any] = expected) -> str:
            for k, comparison in zip(ks, values):
                reference, model, picks = expected[k]
                labels = [list(side) + [side[i] for i in picks] for side in (reference, model)]
                if comparison != comparison_class.from_labels(*labels):
                    raise CheckFailed(f"K={k}: the batches gave another table than from_labels")
            return "after the warm-up's batches, the table equals from_labels of every label"

        timings, verdict = measure(contestants, repeat, check)
        small, large = timings
        rows.append(Row(f"{operation}: {form}, K=200,000 against K=20",
                        f"{calls:,} calls on K categories a side", "s", ours=large.median,
                        peer_name="ours at K=20", peer=small.median, target=target,
                        passed=large.median <= 2 * small.median, check=verdict,
                        notes="each call adds one element of existing labels (the accumulator "
                              "grows by the calls of every round); same run, rounds alternated",
                        timings=timings))
    return rows


def main(argv: list[str] | None = None) -> int:
    (k,) = sys.argv[1:] if argv is None else argv
    print(json.dumps(probe(int(k))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
