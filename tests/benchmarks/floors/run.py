"""Floors for the grouped rows 138 and 147 (issue 30, item 2): compiled, timed against ours.

Run by hand from the repository root (it needs Cython and a C compiler; it is
not part of ``python -m tests.benchmarks`` nor of the tests)::

    PYTHONPATH=$PWD python -m tests.benchmarks.floors.run [--rounds 7] [--only add|batch]

The two ``.pyx`` files beside this script are copied to a temporary directory,
compiled there by ``cythonize -i -3`` with ``CFLAGS=-O2`` and imported from
it. Every figure is taken by :func:`tests.benchmarks.harness.measure`, as the
suite takes its own: the contestants of a part alternated round by round, the
collector collected before and off during each call, the thread's running time
when it never blocked, the median (and the best) of the rounds.

- ``add`` (row 138): ``add(a, c, group=key)`` called once per result from a
  Python loop, as the row calls ``GroupedContingency.add_result``, on the
  row's stream (10^6 results, K = 10, 10,000 groups; the same stream with one
  group), by the floors of ``grouped_add.pyx`` (every group's counts in one
  table: rows or columns, int64 or int32 cells; the look-ups alone; an empty
  method), by our plain ``Contingency.add_result`` and by our grouped one.
- ``batch`` (row 147): the pieces of ``grouped_batch.pyx`` and numpy's, each
  on inputs made beforehand, and three whole floors, against our plain
  ``Contingency.add_results(a, c)`` and our grouped ``add_results(a, c,
  groups=k)`` of the row's data (``tests.benchmarks.grouped_scale._rows``:
  3 x 10^5 results of 3 categories in 10^5 int keys).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from contingency import Contingency, GroupedContingency
from tests.benchmarks.data import category_names
from tests.benchmarks.grouped import _codes, _grouped_stream, _plain_stream
from tests.benchmarks.grouped_scale import _rows
from tests.benchmarks.harness import CheckFailed, Contestant, Measured, Stopwatch, Timing, measure

HERE = Path(__file__).resolve().parent
#: The floors' sources, compiled by :func:`compiled`.
SOURCES = ("grouped_add", "grouped_batch")


def compiled(directory: Path) -> dict[str, ModuleType]:
    """Each source copied to ``directory``, compiled in place at -O2 and imported from there."""
    for name in SOURCES:
        shutil.copy(HERE / f"{name}.pyx", directory / f"{name}.pyx")
    environment = dict(os.environ, CFLAGS="-O2")
    subprocess.run([sys.executable, "-c", "from Cython.Build.Cythonize import main; main()",
                    "-i", "-3", *(f"{name}.pyx" for name in SOURCES)],
                   cwd=directory, env=environment, check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, str(directory))
    return {name: importlib.import_module(name) for name in SOURCES}


# Row 138 ---------------------------------------------------------------------------------------

def _floor_stream(make: Callable[[], Any], triples: list[tuple[str, str, str]]) -> Measured:
    floor = make()
    add = floor.add
    stopwatch = Stopwatch()
    for assigned, correct, group in triples:
        add(assigned, correct, group=group)
    return stopwatch.measured(floor)


def add_part(floors: ModuleType, repeat: int, n: int = 1_000_000) -> list[Timing]:
    """Row 138: the floors' ``add`` at 10,000 groups and at one, ours plain and grouped."""
    k, many = 10, 10_000
    names = category_names(k)
    assigned, correct, group = _codes(n, k, many, 1)  # the row's stream (its seed)
    keys = [f"g{i:05d}" for i in range(many)]
    pairs = [(names[a], names[c]) for a, c in zip(assigned, correct)]
    triples = [(a, c, keys[g]) for (a, c), g in zip(pairs, group)]
    one = [(a, c, keys[0]) for a, c in pairs]
    expected = np.bincount(np.array(correct) * k + np.array(assigned), minlength=k * k)
    first_group = np.array(group) == 0
    expected_first = np.bincount(np.array(correct)[first_group] * k
                                 + np.array(assigned)[first_group], minlength=k * k)
    contestants = []
    layouts = ("Rows64", "Columns64", "Rows32", "Columns32", "Pairs32")
    for layout in (*layouts, "Lookups"):
        for size, stream in ((many, triples), (1, one)):
            make = partial(getattr(floors, layout), names, keys[:size])
            contestants.append(Contestant(f"floor {layout}, {size:,} groups",
                                          partial(_floor_stream, make, stream), items=n))
    for layout in layouts:  # the table in 2 MiB pages (madvise): how much is the TLB
        make = partial(getattr(floors, layout), names, keys, huge=True)
        contestants.append(Contestant(f"floor {layout} huge pages, {many:,} groups",
                                      partial(_floor_stream, make, triples), items=n))
    contestants.append(Contestant("floor Overall, no groups", partial(
        _floor_stream, partial(floors.Overall, names, keys), triples), items=n))
    contestants.append(Contestant(f"floor Nothing, {many:,} groups", partial(
        _floor_stream, partial(floors.Nothing, names, keys), triples), items=n))
    contestants.append(Contestant("ours plain Contingency.add_result",
                                  partial(_plain_stream, names, pairs), items=n))
    contestants.append(Contestant(f"ours GroupedContingency.add_result, {many:,} groups",
                                  partial(_grouped_stream, names, keys, triples), items=n))
    contestants.append(Contestant("ours GroupedContingency.add_result, 1 group",
                                  partial(_grouped_stream, names, keys[:1], one), items=n))

    def check(values: list[Any]) -> str:
        for contestant, value in zip(contestants, values):
            name = contestant.name
            if not name.startswith("floor") or "Lookups" in name or "Nothing" in name:
                continue
            groups = many if name.endswith(f"{many:,} groups") else 1  # (its overall row)
            if "Overall" in name:
                whole, count = value.pairs(0)
                if count != n or list(whole) != expected.tolist():
                    raise CheckFailed(f"{name}: its counts differ from the stream's bincount")
                continue
            whole, count = value.pairs(groups)
            if count != n or list(whole) != expected.tolist():
                raise CheckFailed(f"{name}: the overall row differs from the stream's bincount")
            mine, _ = value.pairs(0)
            if list(mine) != (expected_first if groups == many else expected).tolist():
                raise CheckFailed(f"{name}: group 0's pairs differ from its rows' bincount")
        grouped = values[-2]
        if grouped.overall != values[-3] or values[-1].overall != values[-3]:
            raise CheckFailed("ours: the grouped accumulator's overall differs from the plain one")
        return "every floor's overall and group 0 == bincount; ours grouped overall == plain"

    timings, verdict = measure(contestants, repeat, check)
    print(f"row 138 check: {verdict}")
    return timings


# Row 147 ---------------------------------------------------------------------------------------

def _numpy_table(counts: np.ndarray, groups: int, k: int) -> np.ndarray:
    """Pair counts by (group, correct, assigned) into a new table of rows n, (a, b, c) x k,
    pairs, by numpy: the numpy floor's last step."""
    table = np.zeros((groups + 1, 1 + 3 * k + k * k), dtype=np.int64)
    pairs = counts.reshape(groups, k, k)
    table[:groups, 1 + 3 * k:] += counts.reshape(groups, k * k)
    cells = table[:groups, 1:1 + 3 * k].reshape(groups, k, 3)  # (a view: checked below)
    diagonal = pairs.diagonal(axis1=1, axis2=2)
    cells[:, :, 0] += diagonal
    cells[:, :, 1] += pairs.sum(axis=1) - diagonal
    cells[:, :, 2] += pairs.sum(axis=2) - diagonal
    table[:groups, 0] += pairs.sum(axis=(1, 2))
    return table


def _whole_cells(correct: np.ndarray, assigned: np.ndarray, k: int) -> np.ndarray:
    """The overall row (the plain batch's own counts): one bincount and its cells."""
    pairs = np.bincount(correct * k + assigned, minlength=k * k).reshape(k, k)
    diagonal = pairs.diagonal()
    return np.concatenate([[pairs.sum()], np.stack([diagonal, pairs.sum(axis=0) - diagonal,
                                                    pairs.sum(axis=1) - diagonal], 1).ravel(),
                           pairs.ravel()])


def _numpy_floor(assigned: np.ndarray, correct: np.ndarray, keys: np.ndarray, k: int) -> Any:
    distinct, rows = np.unique(keys, return_inverse=True)
    groups = dict(zip(distinct.tolist(), range(len(distinct))))
    counts = np.bincount((rows * k + correct) * k + assigned, minlength=len(distinct) * k * k)
    table = _numpy_table(counts, len(distinct), k)
    table[-1] = _whole_cells(correct, assigned, k)
    return groups, table


def _c_floor(batch: ModuleType, coding: str, registering: bool, assigned: np.ndarray,
             correct: np.ndarray, keys: np.ndarray, k: int) -> Any:
    rows, distinct = getattr(batch, coding)(keys)
    groups = batch.register_presized(distinct) if registering else None
    return groups, batch.write_rows(rows, correct, assigned, len(distinct), k)


def _timed(run: Callable[[], Any]) -> Measured:
    stopwatch = Stopwatch()
    value = run()
    return stopwatch.measured(value)


def batch_part(batch: ModuleType, repeat: int) -> list[Timing]:
    """Row 147: each piece and three whole floors, ours plain and grouped."""
    k = 3
    assigned, correct, keys = _rows(100_000, 0)  # the row's data
    assigned, correct, keys = (np.ascontiguousarray(x, dtype=np.int64)
                               for x in (assigned, correct, keys))
    distinct, rows = np.unique(keys, return_inverse=True)
    rows = rows.astype(np.int64).ravel()
    size = len(distinct)
    codes = (rows * k + correct) * k + assigned
    counts = np.bincount(codes, minlength=size * k * k)
    hash_rows, hash_distinct = batch.hash_codes(keys)
    warm = batch.touched(size, 1 + 3 * k + k * k)  # (written again every round: counts grow)

    def add_counts() -> Any:
        table = np.zeros((size + 1, 1 + 3 * k + k * k), dtype=np.int64)
        batch.add_pair_counts(table, counts, k)
        return table

    pieces: list[tuple[str, Callable[[], Any]]] = [
        ("ours plain Contingency.add_results", lambda: Contingency([0, 1, 2]).add_results(
            assigned, correct)),
        ("ours GroupedContingency.add_results", lambda: GroupedContingency([0, 1, 2]).add_results(
            assigned, correct, groups=keys)),
        ("key coding: np.unique(return_inverse)", lambda: np.unique(keys, return_inverse=True)),
        ("key coding: C hash table", lambda: batch.hash_codes(keys)),
        ("key coding: C range", lambda: batch.range_codes(keys)),
        ("registration: dict(zip(tolist(), range))",
         lambda: dict(zip(distinct.tolist(), range(size)))),
        ("registration: C PyDict_SetItem loop", lambda: batch.register(hash_distinct, {})),
        ("registration: C loop into a presized dict",
         lambda: batch.register_presized(hash_distinct)),
        ("combine: (g * 3 + c) * 3 + a (numpy)", lambda: (rows * k + correct) * k + assigned),
        ("count: np.bincount of the codes", lambda: np.bincount(codes, minlength=size * k * k)),
        ("count: C loop (no code array)", lambda: batch.count_codes(rows, correct, assigned,
                                                                    size, k)),
        ("table: counts into rows (numpy)", lambda: _numpy_table(counts, size, k)),
        ("table: counts into rows (C)", add_counts),
        ("count + table: C write of each result into its row",
         lambda: batch.write_rows(hash_rows, correct, assigned, size, k)),
        ("table: allocation + first touch of every page (np.zeros)",
         lambda: batch.touched(size, 1 + 3 * k + k * k)),
        ("table: C write of each result into a table out of cache",
         lambda: batch.write_rows_into(warm, hash_rows, correct, assigned, k)),
        ("count + table: C write into int32 n + pairs only (allocated)",
         lambda: batch.write_pairs32(hash_rows, correct, assigned, size, k)),
        ("overall: the plain counts (bincount + cells)",
         lambda: _whole_cells(correct, assigned, k)),
        ("whole floor, numpy (unique, dict, bincount, table)",
         lambda: _numpy_floor(assigned, correct, keys, k)),
        ("whole floor, C hash + C dict + C write",
         partial(_c_floor, batch, "hash_codes", True, assigned, correct, keys, k)),
        ("whole floor, C range + C dict + C write",
         partial(_c_floor, batch, "range_codes", True, assigned, correct, keys, k)),
        ("whole floor, C hash + C write, no dict",
         partial(_c_floor, batch, "hash_codes", False, assigned, correct, keys, k)),
        ("whole floor, C range + C write, no dict",
         partial(_c_floor, batch, "range_codes", False, assigned, correct, keys, k)),
        ("whole floor, C range + int32 n + pairs, no dict",
         lambda: batch.write_pairs32(batch.range_codes(keys)[0], correct, assigned, size, k)),
    ]
    contestants = [Contestant(name, partial(_timed, run), rounds=None) for name, run in pieces]
    position = {name: index for index, (name, _) in enumerate(pieces)}

    def check(values: list[Any]) -> str:
        plain, grouped = values[0], values[1]
        if grouped.overall != plain or len(grouped.groups) != size:
            raise CheckFailed("ours: the grouped overall differs from the plain, or its groups")
        reference = batch.write_rows(rows, correct, assigned, size, k)
        numpy_groups, numpy_table = values[position["whole floor, numpy (unique, dict, bincount, "
                                                    "table)"]]
        if not np.array_equal(numpy_table, reference) or len(numpy_groups) != size:
            raise CheckFailed("the numpy floor's table differs from the C write's")
        if not np.array_equal(values[position["table: counts into rows (C)"]][:-1],
                              reference[:-1]):
            raise CheckFailed("the C table of pair counts differs from the C write's")
        pairs32 = values[position["count + table: C write into int32 n + pairs only "
                                  "(allocated)"]]
        by_hash = batch.write_rows(hash_rows, correct, assigned, size, k)
        if not (np.array_equal(pairs32[:, 0], by_hash[:, 0])
                and np.array_equal(pairs32[:, 1:], by_hash[:, 1 + 3 * k:])):
            raise CheckFailed("the int32 pairs table differs from the C write's")
        if not np.array_equal(values[position["count: C loop (no code array)"]], counts):
            raise CheckFailed("the C count differs from np.bincount")
        for name in ("whole floor, C hash + C dict + C write",
                     "whole floor, C range + C dict + C write"):
            groups, table = values[position[name]]
            by_key = {key: table[row] for key, row in groups.items()}
            if any(not np.array_equal(by_key[key], reference[row])
                   for row, key in enumerate(distinct.tolist())) \
                    or not np.array_equal(table[-1], reference[-1]):
                raise CheckFailed(f"{name}: a group's row or the overall differs")
        whole = reference[-1]
        if whole[0] != plain.n_results:
            raise CheckFailed("the floors' overall n differs from ours")
        return (f"{size:,} groups; every floor's table == the C write's (each group's row by "
                "its key); ours grouped overall == plain")

    timings, verdict = measure(contestants, repeat, check)
    print(f"row 147 check: {verdict}")
    return timings


def _print(title: str, timings: list[Timing], unit: float, unit_name: str) -> None:
    print(f"\n{title}")
    width = max(len(t.name) for t in timings)
    print(f"{'':{width}}  {'median':>10}  {'best':>10}  rounds")
    for timing in timings:
        print(f"{timing.name:{width}}  {timing.median / unit:10.4g}  {timing.minimum / unit:10.4g}"
              f"  {len(timing.samples)} ({timing.cpu_rounds} on the CPU clock, "
              f"{timing.preempted_rounds} preempted) {unit_name}")


def _ratios_add(timings: list[Timing]) -> None:
    by_name = {t.name: t for t in timings}
    plain = by_name["ours plain Contingency.add_result"]
    ours = by_name["ours GroupedContingency.add_result, 10,000 groups"]
    print("\nrow 138 ratios (medians; best in brackets)")

    def ratio(top: Timing, bottom: Timing) -> str:
        return f"{top.median / bottom.median:.3g}x [{top.minimum / bottom.minimum:.3g}x]"

    for layout in ("Rows64", "Columns64", "Rows32", "Columns32", "Pairs32", "Lookups",
                   "Rows64 huge pages", "Columns64 huge pages", "Rows32 huge pages",
                   "Columns32 huge pages", "Pairs32 huge pages"):
        many = by_name[f"floor {layout}, 10,000 groups"]
        one = by_name[f"floor {layout.split()[0]}, 1 groups"]
        print(f"  {layout}: floor(10^4)/floor(1) {ratio(many, one)}; floor(10^4)/our plain "
              f"{ratio(many, plain)}; ours grouped/floor(10^4) {ratio(ours, many)}")
    one_group = by_name["ours GroupedContingency.add_result, 1 group"]
    print(f"  ours grouped(10^4)/our plain {ratio(ours, plain)}; ours grouped(1)/our plain "
          f"{ratio(one_group, plain)}")
    # Groups as rows, estimated: ours at one group (every step's work but the misses) plus what
    # 10,000 groups add to the floor (the key's look-up and the row's lines missing the caches).
    # And at best: our plain step plus the floor's own group share (the floor less its overall).
    overall = by_name["floor Overall, no groups"]
    print("  groups as rows, estimated against our plain: (a) ours grouped(1) + floor(10^4) - "
          "floor(1); (b) our plain + floor(10^4) - floor(overall only), the group's share as "
          "lean as the floor's:")
    for layout in ("Rows64", "Columns64", "Rows32", "Columns32", "Pairs32", "Lookups"):
        many = by_name[f"floor {layout}, 10,000 groups"]
        one = by_name[f"floor {layout}, 1 groups"]
        estimate = one_group.median + many.median - one.median
        lean = plain.median + many.median - overall.median
        print(f"    {layout}: (a) {estimate * 1e9:.0f} ns, {estimate / plain.median:.3g}x; "
              f"(b) {lean * 1e9:.0f} ns, {lean / plain.median:.3g}x")


def latencies(floors: ModuleType, rounds: int) -> dict[str, list[float]]:
    """The machine's latency of a dependent random load (ns) by buffer size, 4 KiB and 2 MiB
    pages, best and median of ``rounds``: what a result's miss costs at each table size (a
    10,000-group table: 10.5 MB in int64 rows, 5.2 MB in int32, 4 MB as int32 pairs only)."""
    sizes = {"256 KiB": 256 << 10, "1 MiB": 1 << 20, "4 MiB": 4 << 20, "8 MiB": 8 << 20,
             "10.5 MB": 10_480_000, "16 MiB": 16 << 20, "64 MiB": 64 << 20}
    found: dict[str, list[float]] = {}
    print("\nlatency of a dependent random load, ns (median [best]): 4 KiB pages, 2 MiB pages")
    for name, nbytes in sizes.items():
        small = sorted(floors.latency(nbytes, False, seed=r) for r in range(rounds))
        huge = sorted(floors.latency(nbytes, True, seed=r) for r in range(rounds))
        found[name] = [small[len(small) // 2], small[0], huge[len(huge) // 2], huge[0]]
        print(f"  {name:>8}: {found[name][0]:6.1f} [{found[name][1]:6.1f}]  "
              f"{found[name][2]:6.1f} [{found[name][3]:6.1f}]")
    return found


def _ratios_batch(timings: list[Timing]) -> None:
    by_name = {t.name: t for t in timings}
    plain = by_name["ours plain Contingency.add_results"]
    print("\nrow 147: each against our plain batch (medians; best in brackets)")
    for timing in timings:
        print(f"  {timing.name}: {timing.median / plain.median:.3g}x "
              f"[{timing.minimum / plain.minimum:.3g}x]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds at least (default 7)")
    parser.add_argument("--only", choices=("add", "batch"), help="one part only")
    parser.add_argument("--json", type=Path, help="write every timing here")
    arguments = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="contingency-floors-") as directory:
        modules = compiled(Path(directory))
        if arguments.only in (None, "add"):
            timings = add_part(modules["grouped_add"], arguments.rounds)
            _print("row 138 (per result)", timings, 1e-9, "ns")
            _ratios_add(timings)
            results["add"] = [t.to_json() for t in timings]
            results["latency"] = latencies(modules["grouped_add"], 3)
        if arguments.only in (None, "batch"):
            timings = batch_part(modules["grouped_batch"], arguments.rounds)
            _print("row 147 (per batch)", timings, 1e-3, "ms")
            _ratios_batch(timings)
            results["batch"] = [t.to_json() for t in timings]
    print(f"\nload average after: {os.getloadavg()}")
    results["load_average_after"] = os.getloadavg()
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
