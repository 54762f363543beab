"""Issue 22's rows: PairedComparison's add_result and McNemar read, and the ARI's significance read.

Each row times two ways in the same run, alternated round by round (see
:func:`tests.benchmarks.harness.measure`), after checking their results:

- ``PairedComparison.add_result`` over a stream of single-label results
  (two models and the correct class, K = 10), against one
  ``Contingency.add_result`` over the same (assigned_a, correct) stream:
  the paired accumulator feeds two models and its table, target 2.5x;
- ``add_result`` then ``mcnemar()`` after every result, on an accumulator
  already holding 10^6 results against one holding 10^3 (the discordant
  counts about 2 x 10^5 and 200): the read is O(1), target 1.5x;
- ``PartitionComparison.ari_significance()`` against ``adjusted_rand_index``,
  each read after one ``add`` (so that neither is a cached value), at 10^6
  elements in 50 x 50 clusters: the significance needs the sums of
  ``C(n, 3)`` and a few products of 400-bit integers, target 5x.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from contingency import Contingency, PairedComparison, PartitionComparison
from tests.benchmarks.data import category_names
from tests.benchmarks.harness import CheckFailed, Contestant, Measured, Row, Stopwatch, measure

__all__ = ["ari_significance_read", "mcnemar_read_after_add", "paired_add_result"]


@lru_cache(maxsize=4)
def _decisions(n: int, k: int, seed: int) -> tuple[tuple[str, str, str], ...]:
    """``n`` results ``(assigned_a, assigned_b, correct)`` over ``k`` categories: model a right
    about 80% of the time, model b about 78%, independently."""
    rng = np.random.default_rng([22, n, k, seed])
    names = category_names(k)
    correct = rng.integers(0, k, n)
    first = np.where(rng.random(n) < 0.8, correct, rng.integers(0, k, n))
    second = np.where(rng.random(n) < 0.78, correct, rng.integers(0, k, n))
    return tuple((names[a], names[b], names[c])
                 for a, b, c in zip(first.tolist(), second.tolist(), correct.tolist()))


def _paired_stream(k: int, results: Sequence[tuple[str, str, str]]) -> Measured:
    accumulator = PairedComparison(category_names(k))
    add = accumulator.add_result
    stopwatch = Stopwatch()
    for first, second, truth in results:
        add(first, second, truth)
    accumulator.n_results  # noqa: B018  (the folds belong to the stream)
    accumulator.a.n_results  # noqa: B018
    accumulator.b.n_results  # noqa: B018
    return stopwatch.measured(accumulator)


def _single_stream(k: int, results: Sequence[tuple[str, str, str]]) -> Measured:
    accumulator = Contingency(category_names(k))
    add = accumulator.add_result
    stopwatch = Stopwatch()
    for first, _, truth in results:
        add(first, truth)
    accumulator.n_results  # noqa: B018
    return stopwatch.measured(accumulator)


def paired_add_result(config: Any) -> list[Row]:
    """Issue 22: ``PairedComparison.add_result`` within 2.5x of one ``Contingency.add_result``."""
    n, k = config.stream_n, 10
    results = _decisions(n, k, 1)
    contestants = [Contestant("paired", lambda: _paired_stream(k, results), items=n),
                   Contestant("one model", lambda: _single_stream(k, results), items=n)]

    def check(values: list[Any]) -> str:
        paired, single = values
        if paired.a != single:
            raise CheckFailed("model a differs from a Contingency fed the same results")
        expected = PairedComparison(category_names(k)).add_results(*zip(*results))
        if paired != expected:
            raise CheckFailed("the stream differs from add_results of the same results")
        return "model a == the Contingency; stream == add_results"

    timings, verdict = measure(contestants, config.repeat, check)
    paired, single = timings
    return [Row("PairedComparison.add_result vs one Contingency.add_result",
                f"K={k}, {n:,} results", "s/result", ours=paired.median,
                peer_name="Contingency.add_result", peer=single.median,
                target="paired <= 2.5 x one", passed=paired.median <= 2.5 * single.median,
                check=verdict,
                notes="single labels, every category declared; a read at the end is timed "
                      "in both; same run, rounds alternated",
                timings=timings)]


def _add_then_mcnemar(base: PairedComparison, results: Sequence[tuple[str, str, str]]
                      ) -> Measured:
    accumulator = base.copy()
    add, read = accumulator.add_result, accumulator.mcnemar
    found = None
    stopwatch = Stopwatch()
    for first, second, truth in results:
        add(first, second, truth)
        found = read()
    return stopwatch.measured((accumulator, found))


def mcnemar_read_after_add(config: Any) -> list[Row]:
    """Issue 22: McNemar read in O(1): after every add, at 10^6 results within 1.5x of 10^3."""
    k, steps = 10, config.read_step_n
    sizes = (1_000, 1_000_000 if not config.quick else 200_000)
    bases = []
    for size in sizes:
        held = _decisions(size, k, 2)
        bases.append(PairedComparison(category_names(k)).add_results(*zip(*held)))
    results = _decisions(steps, k, 3)
    contestants = [Contestant(f"{size:,} held", lambda base=base: _add_then_mcnemar(base, results),
                              items=steps) for size, base in zip(sizes, bases)]

    def check(values: list[Any]) -> str:
        from contingency.formulas.paired import mcnemar

        for accumulator, found in values:
            table = accumulator.paired_table()
            if found != mcnemar(table.only_a_right, table.only_b_right):
                raise CheckFailed("the last read differs from the formula of the final table")
        return "last read == formulas.paired.mcnemar of the final table"

    timings, verdict = measure(contestants, config.repeat, check)
    small, large = timings
    discordant = [base.paired_table().only_a_right + base.paired_table().only_b_right
                  for base in bases]
    return [Row("PairedComparison add_result + mcnemar() per step: 10^6 held vs 10^3",
                f"K={k}, {steps:,} steps", "s/result", ours=large.median,
                peer_name=f"ours at {sizes[0]:,} held", peer=small.median,
                target="large <= 1.5 x small", passed=large.median <= 1.5 * small.median,
                check=verdict,
                notes=f"exact test (the default); discordant results held {discordant[0]:,} and "
                      f"{discordant[1]:,}",
                timings=timings)]


def _add_then_read(base: PartitionComparison, labels: Sequence[tuple[int, int]],
                   significance: bool) -> Measured:
    comparison = base.copy()
    add = comparison.add
    found: Any = None
    stopwatch = Stopwatch()
    if significance:
        read = comparison.ari_significance
        for reference, model in labels:
            add(reference, model)
            found = read()
    else:
        for reference, model in labels:
            add(reference, model)
            found = comparison.adjusted_rand_index
    return stopwatch.measured((comparison, found))


def ari_significance_read(config: Any) -> list[Row]:
    """Issue 22: ``ari_significance()`` after every add, against ``adjusted_rand_index``."""
    n, k, steps = (10**6 if not config.quick else 10**5), 50, config.read_n
    rng = np.random.default_rng([22, n, 4])
    reference = rng.integers(0, k, n)
    model = np.where(rng.random(n) < 0.3, reference, rng.integers(0, k, n))
    base = PartitionComparison.from_labels(reference, model)
    labels = tuple(zip(rng.integers(0, k, steps).tolist(), rng.integers(0, k, steps).tolist()))
    contestants = [Contestant("ari_significance", lambda: _add_then_read(base, labels, True),
                              items=steps),
                   Contestant("adjusted_rand_index", lambda: _add_then_read(base, labels, False),
                              items=steps)]

    def check(values: list[Any]) -> str:
        from contingency.formulas import partition

        (comparison, found), _ = values
        _, _, table = comparison.contingency_table()
        if found != partition.ari_significance(partition.table_sums(table),
                                               *partition.margin_triples(table)):
            raise CheckFailed("the last read differs from the formula on the final table")
        return "last read == the formula on the table recomputed"

    timings, verdict = measure(contestants, config.repeat, check)
    significance, plain = timings
    return [Row("PartitionComparison add + ari_significance() vs add + adjusted_rand_index",
                f"{k}x{k} clusters, {n:,} elements, {steps:,} steps", "s/element",
                ours=significance.median, peer_name="add + adjusted_rand_index",
                peer=plain.median, target="significance <= 5 x plain",
                passed=significance.median <= 5 * plain.median, check=verdict,
                notes="one add then one read per step, so that no read is a cached value; "
                      "same run, rounds alternated",
                timings=timings)]
