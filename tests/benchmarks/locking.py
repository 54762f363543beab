"""The cost of ``thread_safe=True``: each locked call against the same call on the default class.

The default class has no lock and no wrapper (``contingency._locking`` makes a
separate subclass for the option), so its rows elsewhere in the suite are
what the default costs; here the locked class and the default run the same
stream, alternated round by round, and the difference is the lock's cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contingency import Contingency, PartitionComparison
from tests.benchmarks.data import category_names, multi_label_results, partition_labels, single_label_results
from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure

__all__ = ["lock_cost"]

def _stream(thread_safe: bool, categories: list[str], results: Sequence[tuple[Any, Any]]
            ) -> Contingency:
    accumulator = Contingency(categories, thread_safe=thread_safe)
    add = accumulator.add_result
    for assigned, correct in results:
        add(assigned, correct)
    accumulator.n_results  # noqa: B018  (the fold of add_result's tally belongs to the stream)
    return accumulator


def _partition(thread_safe: bool, pairs: Sequence[tuple[int, int]]) -> PartitionComparison:
    comparison = PartitionComparison(thread_safe=thread_safe)
    add = comparison.add
    for reference, model in pairs:
        add(reference, model)
    return comparison


def _same(values: list[Any]) -> str:
    for locked, default in zip(values[0::2], values[1::2]):
        if locked != default:
            raise CheckFailed(f"the locked accumulator holds {locked!r}, the default {default!r}")
    return "locked and default states equal"


def lock_cost(config: Any) -> list[Row]:
    n, k = config.stream_n, 10
    categories = category_names(k)
    single = single_label_results(n, k)
    multi = multi_label_results(config.multi_n, k)
    reference, model = partition_labels(config.stream_n, k)
    pairs = list(zip(reference.tolist(), model.tolist()))
    cases = [
        ("Contingency.add_result single-label, per result", f"K={k}, {n:,} results", "s/result",
         lambda ts: _stream(ts, categories, single), n),
        ("Contingency.add_result multi-label, per result", f"K={k}, {config.multi_n:,} results",
         "s/result", lambda ts: _stream(ts, categories, multi), config.multi_n),
        ("PartitionComparison.add, per element", f"K={k}, {len(pairs):,} elements", "s/element",
         lambda ts: _partition(ts, pairs), len(pairs)),
    ]
    contestants: list[Contestant] = []
    for operation, _, _, run, items in cases:
        contestants.append(Contestant(f"{operation} locked", lambda run=run: run(True), items=items))
        contestants.append(Contestant(f"{operation} default", lambda run=run: run(False),
                                      items=items))
    timings, verdict = measure(contestants, config.repeat, _same)
    rows = []
    for (operation, size, unit, _, _), locked, default in zip(cases, timings[0::2], timings[1::2]):
        cost = locked.median - default.median
        rows.append(Row(f"thread_safe=True {operation}", size, unit, ours=locked.median,
                        peer_name="default (no lock)", peer=default.median,
                        check=verdict,
                        notes=f"the lock's cost: {cost * 1e9:.0f} ns per call (no target: the "
                              "option is opt-in; the default's own rows are cases 1, 2 and 4)",
                        timings=[locked, default]))
    return rows
