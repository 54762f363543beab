"""Weighted batches: ``add_results`` with weights given as a list of ints, of floats, or of both.

A list of one kind becomes one numpy array (the conversion runs in C); a list
mixing ints and floats is read item by item, since one float64 array would
round ``2**53 + 1``. The batch takes numpy label arrays (counted without a
Python loop, so the weights' conversion is most of what is left) and is
timed against the ``add_result`` loop it replaces, on the same results,
alternated round by round: a batch must not cost more than that loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from contingency import Contingency
from tests.benchmarks.data import category_names
from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure

__all__ = ["weighted_batches"]


def _loop(assigned: Sequence[Any], correct: Sequence[Any], weights: Sequence[Any]) -> Contingency:
    accumulator = Contingency()
    add = accumulator.add_result
    for chosen, truth, weight in zip(assigned, correct, weights):
        add(chosen, truth, weight=weight)
    accumulator.n_results  # noqa: B018  (the fold belongs to the loop)
    return accumulator


def _batch(assigned: Any, correct: Any, weights: Sequence[Any]) -> Contingency:
    accumulator = Contingency().add_results(assigned, correct, weights=weights)
    accumulator.n_results  # noqa: B018
    return accumulator


def _same(values: list[Any]) -> str:
    for batch, loop in zip(values[0::2], values[1::2]):
        if batch != loop:
            raise CheckFailed("the batch and the add_result loop hold different counts")
    return "batch and loop states equal"


def weighted_batches(config: Any) -> list[Row]:
    n, k = config.stream_n, 10
    rng = np.random.default_rng(15)
    names = category_names(k)
    assigned = [names[i] for i in rng.integers(0, k, n).tolist()]
    correct = [names[i] for i in rng.integers(0, k, n).tolist()]
    whole = rng.integers(1, 4, n).tolist()
    quarters = (rng.integers(1, 16, n) / 4).tolist()
    mixed = [w if i % 2 else q for i, (w, q) in enumerate(zip(whole, quarters))]
    kinds = [("ints", whole), ("floats", quarters), ("ints and floats mixed", mixed)]
    arrays = np.array(assigned), np.array(correct)
    contestants: list[Contestant] = []
    for kind, weights in kinds:
        contestants.append(Contestant(f"batch, {kind}",
                                      lambda weights=weights: _batch(*arrays, weights),
                                      items=n))
        contestants.append(Contestant(f"loop, {kind}",
                                      lambda weights=weights: _loop(assigned, correct, weights),
                                      items=n))
    timings, verdict = measure(contestants, config.slow_repeat, _same)
    rows = []
    for (kind, _), batch, loop in zip(kinds, timings[0::2], timings[1::2]):
        rows.append(Row(f"Contingency.add_results, weights a list of {kind}",
                        f"K={k}, {n:,} results (label arrays)", "s/result", ours=batch.median,
                        peer_name="add_result loop", peer=loop.median, target="batch <= loop",
                        passed=batch.median <= loop.median, check=verdict,
                        timings=[batch, loop]))
    return rows
