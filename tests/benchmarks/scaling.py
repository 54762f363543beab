"""Benchmark case of issue 13: contingency.dask on a two-worker LocalCluster against one process.

The data set (written once per run, numpy and Arrow only, in a temporary
folder): ``rows`` rows in at least 8 files of at most 2.5 * 10**6 rows
(one Dask partition each), with single-label decisions over 20 categories (strings,
70% right), known classes (40 strings) and clusters (30 integers). Both
contestants run the same graph, ``classify`` and ``compare`` computed in one
pass over the files:

- one process: Dask's synchronous scheduler in this process;
- the cluster: ``LocalCluster(n_workers=2, threads_per_worker=1,
  processes=True)`` on loopback, started before the clock starts.

Each is timed once (a run takes minutes at 10**8 rows), after a warm-up on
the first file; the two results must be equal (``==``) before any figure is
reported. Also measured: the peak resident memory of each worker during the
run (the high-water mark reset before it, Linux only) against the one
process's, where the cluster's time goes (the scheduler's task stream:
seconds of work per kind of task, and transfers), and the pickled size of
the state that travels.

The size is a parameter: ``CONTINGENCY_DASK_ROWS`` (default 10**8 in a full
run, 10**6 with ``--quick``).
"""

from __future__ import annotations

import math
import os
import pickle
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.harness import Row

__all__ = ["dask_two_workers"]

ROWS_PER_FILE = 2_500_000
CATEGORIES = np.array([f"category-{j:02d}" for j in range(20)])
CLASSES = np.array([f"class-{j:02d}" for j in range(40)])


def _write(folder: Path, rows: int) -> int:
    """Write the data set as Parquet files; returns their number."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = max(8, math.ceil(rows / ROWS_PER_FILE))
    bounds = np.linspace(0, rows, files + 1).astype(np.int64)
    for number in range(files):
        n = int(bounds[number + 1] - bounds[number])
        rng = np.random.default_rng(number)
        assigned = rng.integers(0, len(CATEGORIES), n)
        correct = np.where(rng.random(n) < 0.7, assigned, rng.integers(0, len(CATEGORIES), n))
        known = rng.integers(0, len(CLASSES), n)
        cluster = np.where(rng.random(n) < 0.6, known * 30 // len(CLASSES), rng.integers(0, 30, n))

        def strings(codes: np.ndarray, names: np.ndarray) -> Any:
            return pa.DictionaryArray.from_arrays(codes.astype(np.int32),
                                                  names.tolist()).cast(pa.string())

        table = pa.table({"assigned": strings(assigned, CATEGORIES),
                          "correct": strings(correct, CATEGORIES),
                          "known": strings(known, CLASSES), "cluster": cluster})
        pq.write_table(table, folder / f"part-{number:04d}.parquet")
    return files


def _graphs(folder: Path | str) -> tuple[Any, Any]:
    import dask.dataframe as dd

    from contingency.dask import classify, compare

    frame = dd.read_parquet(str(folder))
    return (classify(frame, assigned="assigned", correct="correct", compute=False),
            compare(frame, reference="known", model="cluster", compute=False))


def _hwm_reset() -> int | None:
    """Reset this process's resident high-water mark (Linux); returns the resident size now."""
    from tests.benchmarks.memory_probe import _reset_high_water_mark, _status

    _reset_high_water_mark()
    return _status("VmRSS")


def _hwm() -> int | None:
    from tests.benchmarks.memory_probe import _status

    return _status("VmHWM")


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = run()
    return time.perf_counter() - start, value


def _mib(value: float | None) -> str:
    return "n/a" if value is None else f"{value / 2**20:.0f} MiB"


def _task_kinds(stream: list[dict[str, Any]]) -> tuple[dict[str, float], float]:
    """Seconds of work per kind of task (the key's prefix), and seconds spent in transfers."""
    from dask.utils import key_split

    work: dict[str, float] = defaultdict(float)
    transfer = 0.0
    for task in stream:
        for part in task.get("startstops", ()):
            seconds = part["stop"] - part["start"]
            if part["action"] == "compute":
                work[key_split(task["key"])] += seconds
            elif part["action"] == "transfer":
                transfer += seconds
    return dict(work), transfer


def dask_two_workers(config: Any) -> list[Row]:
    try:
        import dask
        import distributed
    except ImportError:
        return [Row("dask: 2 workers vs 1 process", "", "s", status_override="SKIP",
                    notes='needs the dask extra: pip install -e ".[dask]"')]
    rows = int(os.environ.get("CONTINGENCY_DASK_ROWS", 10**6 if config.quick else 10**8))
    with tempfile.TemporaryDirectory(prefix="contingency-dask-") as directory:
        folder = Path(directory)
        written, files = _timed(lambda: _write(folder, rows))
        disk = sum(path.stat().st_size for path in folder.iterdir())
        size = f"10^{math.log10(rows):.3g} rows, {files} files" if rows else "0 rows"

        # One process: the same graphs on the synchronous scheduler (warm-up on one file first).
        first = folder / "part-0000.parquet"
        with dask.config.set(scheduler="sync"):
            dask.compute(*_graphs(first))
            before = _hwm_reset()
            cpu = time.process_time()
            one_seconds, one = _timed(lambda: dask.compute(*_graphs(folder)))
            one_cpu = time.process_time() - cpu
            one_peak = _hwm()
            read_seconds, _ = _timed(lambda: _read_only(folder))
        one_growth = None if before is None or one_peak is None else one_peak - before

        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None,
                                      silence_logs=50) as cluster, \
                distributed.Client(cluster) as client:
            dask.compute(*_graphs(first))
            rss = client.run(_hwm_reset)
            cpu_before = client.run(time.process_time)
            with distributed.get_task_stream(client) as stream:
                cluster_seconds, found = _timed(lambda: dask.compute(*_graphs(folder)))
            cpu_after = client.run(time.process_time)
            peaks = client.run(_hwm)
        worker_cpu = [cpu_after[address] - cpu_before[address] for address in sorted(cpu_after)]
        growth = {address: None if rss[address] is None or peaks[address] is None
                  else peaks[address] - rss[address] for address in peaks}
        worker_peak = [peaks[address] for address in sorted(peaks)]
        work, transfer = _task_kinds(stream.data)

    exact = found[0] == one[0] and found[1] == one[1]
    total_work = sum(work.values()) or 1.0
    kinds = ", ".join(f"{kind} {seconds:.1f} s ({seconds / total_work:.0%})"
                      for kind, seconds in sorted(work.items(), key=lambda item: -item[1]))
    state = (len(pickle.dumps(found[0])), len(pickle.dumps(found[1])))
    speed = Row("dask: classify + compare, 2 workers vs 1 process", size, "s", ours=cluster_seconds,
                peer_name="1 process (sync scheduler)", peer=one_seconds,
                target="report the speed-up (peer/ours)",
                check="exact: the cluster's accumulators == the one process's" if exact
                else "MISMATCH: the cluster's accumulators differ from the one process's",
                notes=(f"timed once each; data written in {written:.0f} s, {disk / 2**20:.0f} MiB "
                       f"of Parquet; reading the columns alone takes {read_seconds:.1f} s in one "
                       f"process; CPU time: one process {one_cpu:.1f} s, the workers "
                       + " + ".join(f"{seconds:.1f} s" for seconds in worker_cpu)
                       + f"; cluster task time by kind: {kinds}; transfers {transfer:.2f} s; "
                       f"load average {os.getloadavg()[0]:.1f} after the runs"))
    memory = Row("dask: peak resident memory per worker", size, "bytes",
                 ours=max((value for value in growth.values() if value is not None), default=None),
                 peer_name="1 process (sync scheduler)", peer=one_growth, target="report",
                 notes=("growth of the resident high-water mark during the run, per worker: "
                        + ", ".join(_mib(value) for value in growth.values())
                        + "; absolute peaks: " + ", ".join(_mib(value) for value in worker_peak)
                        + f"; one process: {_mib(one_peak)}"))
    travels = Row("dask: pickled state that travels", f"{size}; K=20; 40 x 30 table", "bytes",
                  ours=float(state[0] + state[1]), target="report",
                  notes=(f"the Contingency {state[0]:,} B, the PartitionComparison {state[1]:,} B "
                         "(each partition's accumulator is of the same size, whatever its rows)"))
    return [speed, memory, travels]


def _read_only(folder: Path) -> int:
    """Read the four columns and touch them, as both graphs do: the floor of the I/O."""
    import dask
    import dask.dataframe as dd

    frame = dd.read_parquet(str(folder), columns=["assigned", "correct", "known", "cluster"])
    return int(dask.compute(frame.map_partitions(len).sum())[0])
