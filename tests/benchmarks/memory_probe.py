"""Peak and retained memory of one operation, measured in a fresh process by that process itself.

Run by the suite as ``python -m tests.benchmarks.memory_probe WHAT REFERENCE MODEL``,
where ``REFERENCE`` and ``MODEL`` are ``.npy`` files of labels the suite wrote
(loading them makes no temporary copies, so the resident high-water mark
before the operation is the interpreter, the imports and the inputs), and
``WHAT`` is one of ``ours`` (``PartitionComparison.from_labels`` then every
pair-counting and information score except AMI) or ``sklearn``
(``adjusted_rand_score``). Prints one JSON object:

- ``peak``: the highest memory numpy and Python held during the operation
  beyond what was held before it (tracemalloc; numpy reports its buffers to
  tracemalloc), so the input arrays themselves are not counted;
- ``retained``: what is still held after the operation while its result is
  alive (the accumulator's state, for ours);
- ``maxrss_growth``: the resident high-water mark after the operation minus
  the resident size just before it (Linux ``/proc/self/status``, the mark
  reset first), a cross-check that sees every allocator; it includes
  tracemalloc's own bookkeeping, and is ``None`` off Linux;
- ``cells``: the number of non-empty cells of the table (ours).

Only the library measured is imported, so the other adds nothing to the figures.

``python -m tests.benchmarks.memory_probe curves MODE RESULTS CHUNK`` feeds a
``ThresholdContingency`` (``MODE`` ``exact``, or ``binned`` with 65,536 bins)
``RESULTS`` random scores in chunks of ``CHUNK`` by ``add_results`` and prints
``peak``, the most tracemalloc saw held during one ``add_results`` beyond
what was held before it (the chunk itself not counted), ``retained``, the
growth of the resident size over the whole feed (the kernel allocates with C's
``malloc``, which tracemalloc does not see), and ``keys``, the distinct keys
held.

``python -m tests.benchmarks.memory_probe cli REPORT ARGUMENT...`` runs the
command line, ``contingency ARGUMENT...``, in this process (its output where
this process's goes) and writes ``{"peak": bytes, "status": exit status}`` to
the file ``REPORT``: ``peak`` is the process's resident high-water mark
(``VmHWM``, Linux; ``None`` elsewhere), the interpreter and numpy included. It
is read by the process itself because the parent cannot read it: a child
started by fork (or vfork) and exec begins its ``ru_maxrss`` at the resident
size of its parent, the benchmark runner, while ``VmHWM`` belongs to the
memory the exec made new.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from typing import Any

import numpy as np


def _status(field: str) -> int | None:
    """A size field of /proc/self/status (``VmRSS``, ``VmHWM``) in bytes; ``None`` off Linux."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _reset_high_water_mark() -> None:
    """Set VmHWM to the current resident size (Linux 4.0+); harmless where it is not supported.

    ``resource``'s ru_maxrss would not do: a child process inherits its parent's.
    """
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write("5")
    except OSError:
        pass


def probe(what: str, reference_path: str, model_path: str) -> dict[str, Any]:
    reference, model = np.load(reference_path), np.load(model_path)
    if what == "ours":
        from tests.benchmarks.ours import every_constant_time_score, partition_comparison

        found = partition_comparison()
        if found is None:
            return {"skipped": "PartitionComparison not available"}
        comparison_class = found[0]

        def run(reference: Any, model: Any) -> Any:
            comparison = comparison_class.from_labels(reference, model)
            every_constant_time_score(comparison)
            return comparison
    elif what == "sklearn":
        from sklearn.metrics import adjusted_rand_score

        def run(reference: Any, model: Any) -> Any:
            return adjusted_rand_score(reference, model)
    else:
        raise SystemExit(f"unknown probe {what!r}")
    # A first call on a thousand labels pays the one-time costs (lazy imports, BLAS buffers,
    # lookup tables), which are not the operation's.
    run(reference[:1000], model[:1000])
    _reset_high_water_mark()
    rss_before = _status("VmRSS")
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    result = run(reference, model)
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    high = _status("VmHWM")
    cells = None
    if what == "ours":
        cells = int((result.contingency_table()[2] != 0).sum())
    return {"peak": peak - start, "retained": retained - start,
            "maxrss_growth": (None if rss_before is None or high is None
                              else max(0, high - rss_before)), "cells": cells}


def command_line(report: str, arguments: list[str]) -> int:
    """Run ``contingency ARGUMENTS`` here; write its exit status and this process's peak to ``report``."""
    from contingency.cli import main as contingency

    status = contingency(arguments)
    sys.stdout.flush()
    with open(report, "w", encoding="utf-8") as out:
        json.dump({"peak": _status("VmHWM"), "status": status}, out)
    return status


def curves(mode: str, results: int, chunk: int) -> dict[str, Any]:
    """ThresholdContingency fed ``results`` scores by chunks: its peak per chunk and its state."""
    import gc

    from contingency import ThresholdContingency

    rng = np.random.default_rng(32)
    curve = ThresholdContingency(bins=65536) if mode == "binned" else ThresholdContingency()
    warm = rng.random(1000)  # the one-time costs (imports, first blocks), not the state's
    curve.add_results(warm, warm < 0.5)
    curve.remove_results(warm, warm < 0.5)
    gc.collect()
    rss_before = _status("VmRSS")
    tracemalloc.start()
    peak = 0
    for _ in range(results // chunk):
        scores = rng.random(chunk)
        labels = rng.random(chunk) < 0.4
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        curve.add_results(scores, labels)
        peak = max(peak, tracemalloc.get_traced_memory()[1] - start)
    tracemalloc.stop()
    del scores, labels
    gc.collect()
    rss_after = _status("VmRSS")
    keys = len(curve.roc_curve(drop_intermediate=False)[0]) - 1  # (the curve starts at (0, 0))
    return {"peak": peak, "keys": keys, "results": curve.n_results,
            "retained": None if rss_before is None or rss_after is None
            else rss_after - rss_before}


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["cli"]:
        return command_line(arguments[1], arguments[2:])
    if arguments[:1] == ["curves"]:
        print(json.dumps(curves(arguments[1], int(arguments[2]), int(arguments[3]))))
        return 0
    what, reference_path, model_path = arguments
    print(json.dumps(probe(what, reference_path, model_path)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
