"""Issue 22's interval rows: an interval read costs about what the plain read costs.

- one ``interval("micro_precision")`` read (Wilson's method) against one
  ``micro_precision`` read, on the same accumulator, in loops of the same
  length: target within 5x;
- a learning curve of macro F1 intervals (``add_result`` then
  ``interval("macro_f1", method="delta")`` after every result) at K = 1000
  against K = 10: the running sums make a read O(categories changed), and the
  coupling term of macro F1's variance O(their confusion partners), so
  target within 1.5x.

Each row times its two contestants alternately, round by round, and checks
first that they agree (the interval's estimate is the plain read; the last
interval of each curve equals the one read from a batch of the same results).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

from contingency import Contingency, Interval
from tests.benchmarks.data import category_names, single_label_results
from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure

__all__ = ["interval_read", "macro_interval_curve"]


def _read_interval(accumulator: Contingency, reads: int) -> float:
    value = math.nan
    interval = accumulator.interval
    for _ in range(reads):
        value = interval("micro_precision").estimate
    return value


def _read_plain(accumulator: Contingency, reads: int) -> float:
    value = math.nan
    for _ in range(reads):
        value = accumulator.micro_precision
    return value


def interval_read(config: Any) -> list[Row]:
    """``interval("micro_precision")`` (Wilson) within 5x of a ``micro_precision`` read."""
    n, reads, k = config.stream_n, config.read_n, 10
    accumulator = Contingency(category_names(k))
    for assigned, correct in single_label_results(n, k):
        accumulator.add_result(assigned, correct)
    accumulator.n_results  # noqa: B018  (folded before the timed reads)
    contestants = [Contestant("interval", partial(_read_interval, accumulator, reads), items=reads),
                   Contestant("plain read", partial(_read_plain, accumulator, reads), items=reads)]

    def check(values: list[Any]) -> str:
        if values[0] != values[1]:
            raise CheckFailed(f"the interval's estimate {values[0]!r} is not the read {values[1]!r}")
        return "the interval's estimate is the plain read"

    timings, verdict = measure(contestants, config.repeat, check)
    ours, plain = timings
    return [Row("Contingency.interval('micro_precision'), Wilson, per read",
                f"K={k}, {n:,} results added", "s", ours=ours.median, floor_name="micro_precision",
                floor=plain.median, target="ours/read <= 5", passed=ours.median <= 5 * plain.median,
                check=verdict, notes=f"loops of {reads:,} reads on one accumulator, rounds "
                                     "alternated; the floor is the plain read of the same score",
                timings=timings)]


def _curve(categories: Sequence[str], results: Sequence[tuple[str, str]]
           ) -> tuple[Contingency, Interval | None]:
    accumulator = Contingency(list(categories))
    add, interval = accumulator.add_result, accumulator.interval
    last = None
    for assigned, correct in results:
        add(assigned, correct)
        last = interval("macro_f1", method="delta")
    return accumulator, last


def macro_interval_curve(config: Any) -> list[Row]:
    """``add_result`` then a macro F1 interval after every result: K = 1000 within 1.5x of K = 10."""
    n = config.read_step_n
    ks = (10, 1000)
    contestants = [Contestant(f"K={k}", partial(_curve, category_names(k), single_label_results(n, k)),
                              items=n) for k in ks]

    def check(values: list[Any]) -> str:
        for k, (_, last) in zip(ks, values):
            assigned, correct = zip(*single_label_results(n, k))
            batch = Contingency(category_names(k)).add_results(list(assigned), list(correct))
            if last != batch.interval("macro_f1", method="delta"):
                raise CheckFailed(f"K={k}: the streamed interval {last} is not the batch's")
        return "last interval equal to the batch's, bit for bit"

    timings, verdict = measure(contestants, config.repeat, check)
    small, large = timings
    return [Row("add_result + macro F1 interval (delta), per step: K=1000 against K=10",
                f"K declared, {n:,} results", "s/result", ours=large.median,
                peer_name="ours at K=10", peer=small.median, target="K=1000 <= 1.5 x K=10",
                passed=large.median <= 1.5 * small.median, check=verdict,
                notes="one add_result then one interval read per result, the K categories "
                      "declared; same run, rounds alternated",
                timings=timings)]
