"""Issue 23's rows: GroupedContingency's add_result, disparity reads and batches against their references.

Each row times two or three ways of doing the same counts, alternated round
by round (see :func:`tests.benchmarks.harness.measure`), after checking that
they agree:

- ``add_result`` with a group against a plain ``Contingency.add_result`` on
  the same results, with 10 and with 10,000 groups (declared, so the stream
  times the results, not the making of the groups); the stream ends with a
  read of ``n_results`` (every result is written at once, into the whole and
  its group; the notes give the time of a ``by_group`` read after the stream);
- a disparity read after every result (``difference("macro_f1")``, and
  ``equalized_odds_difference``) with 1,000 groups against the same with 10;
- a batch of 10^6 rows in 100 groups (``add_results`` and three scores by
  group) against the floor, one ``bincount`` of the (group, correct,
  assigned) codes, and against fairlearn's ``MetricFrame`` of the same three
  scikit-learn scores.
"""

from __future__ import annotations

import importlib
import time
import warnings
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from contingency import Contingency, GroupedContingency
from tests.benchmarks.data import category_names
from tests.benchmarks.harness import (
    CheckFailed,
    Contestant,
    Measured,
    Row,
    Stopwatch,
    measure,
    relative_difference,
)

__all__ = ["grouped_add_result", "grouped_batch", "grouped_disparity_reads"]

#: Agreement with fairlearn asked by issue 23.
TOLERANCE = 1e-12


def _codes(n: int, k: int, groups: int, seed: int) -> tuple[list[int], list[int], list[int]]:
    rng = np.random.default_rng([23, n, k, groups, seed])
    correct = rng.integers(0, k, n)
    assigned = np.where(rng.random(n) < 0.6, correct, rng.integers(0, k, n))
    return assigned.tolist(), correct.tolist(), rng.integers(0, groups, n).tolist()


def _plain_stream(names: Sequence[str], pairs: Sequence[tuple[str, str]]) -> Measured:
    accumulator = Contingency(list(names))
    add = accumulator.add_result
    stopwatch = Stopwatch()
    for assigned, correct in pairs:
        add(assigned, correct)
    accumulator.n_results  # noqa: B018  (the fold belongs to the stream)
    return stopwatch.measured(accumulator)


def _grouped_stream(names: Sequence[str], groups: Sequence[str],
                    rows: Sequence[tuple[str, str, str]]) -> Measured:
    accumulator = GroupedContingency(list(names), groups=list(groups))
    add = accumulator.add_result
    stopwatch = Stopwatch()
    for assigned, correct, group in rows:
        add(assigned, correct, group=group)
    accumulator.n_results  # noqa: B018  (the fold writes the overall accumulator)
    return stopwatch.measured(accumulator)


def _group_read(stream: Measured) -> float:
    """Seconds of the first ``by_group`` read after a stream: the write of every group."""
    start = time.perf_counter()
    stream.value.by_group("micro_f1")
    return time.perf_counter() - start


def grouped_add_result(config: Any) -> list[Row]:
    """add_result with a group against plain add_result: 10 groups, and 10,000 groups."""
    k = 10
    names = category_names(k)
    rows = []
    for groups, n in ((10, config.stream_n), (10_000, 5 * config.stream_n)):
        assigned, correct, group = _codes(n, k, groups, 1)
        keys = [f"g{i:05d}" for i in range(groups)]
        pairs = [(names[a], names[c]) for a, c in zip(assigned, correct)]
        triples = [(a, c, keys[g]) for (a, c), g in zip(pairs, group)]

        def check(values: list[Any]) -> str:
            if values[0].overall != values[1]:
                raise CheckFailed("the grouped accumulator's overall differs from the plain one")
            return "overall == plain accumulator"

        timings, verdict = measure(
            [Contestant("grouped", partial(_grouped_stream, names, keys, triples), items=n),
             Contestant("plain", partial(_plain_stream, names, pairs), items=n)],
            config.slow_repeat, check)
        ours, plain = timings
        groups_write = _group_read(_grouped_stream(names, keys, triples))
        rows.append(Row(f"GroupedContingency.add_result with a group against plain add_result, "
                        f"{groups:,} groups", f"K={k}, {n:,} results", "s/result",
                        ours=ours.median, peer_name="Contingency.add_result", peer=plain.median,
                        target="grouped <= 1.5 x plain", passed=ours.median <= 1.5 * plain.median,
                        check=verdict, timings=timings,
                        notes=f"groups declared; {n // groups:,} results per group; then a "
                              f"by_group read took "
                              f"{groups_write * 1e3:.3g} ms ({groups_write / n * 1e9:.3g} ns a "
                              "result)"))
    return rows


def _reads(groups: int, rows: Sequence[tuple[str, str, int]], read: str, k: int) -> Measured:
    """add_result then one disparity read after every result; every group holds a result and
    the score has been read once before the clock starts."""
    names = category_names(k)
    accumulator = GroupedContingency(names, groups=range(groups), zero_division=0.0)
    for group in range(groups):
        accumulator.add_result(names[group % k], names[0], group=group)
    add = accumulator.add_result
    if read == "macro_f1":
        def disparity() -> float:
            return accumulator.difference("macro_f1")
    else:
        positive = names[1]

        def disparity() -> float:
            return accumulator.equalized_odds_difference(positive)
    disparity()
    values = []
    stopwatch = Stopwatch()
    for assigned, correct, group in rows:
        add(assigned, correct, group=group)
        values.append(disparity())
    return stopwatch.measured(values[-1:])


def grouped_disparity_reads(config: Any) -> list[Row]:
    """A disparity read after every result: 1,000 groups against 10."""
    n, k = config.read_step_n, 10
    names = category_names(k)
    result_rows = []
    for read, label in (("macro_f1", 'difference("macro_f1")'),
                        ("equalized_odds", "equalized_odds_difference(c0001)")):
        contestants = []
        for groups in (1000, 10):
            assigned, correct, group = _codes(n, k, groups, 2)
            stream = [(names[a], names[c], g) for a, c, g in zip(assigned, correct, group)]
            contestants.append(Contestant(f"{groups} groups",
                                          partial(_reads, groups, stream, read, k), items=n))
        timings, _ = measure(contestants, config.repeat)
        many, few = timings
        result_rows.append(Row(f"add_result + {label} after every result: 1,000 groups against 10",
                               f"K={k}, {n:,} results after a warm-up", "s/result",
                               ours=many.median, peer_name="ours with 10 groups", peer=few.median,
                               target="1,000 groups <= 1.5 x 10 groups",
                               passed=many.median <= 1.5 * few.median, timings=timings))
    return result_rows


def _bincount_floor(groups: np.ndarray, correct: np.ndarray, assigned: np.ndarray, k: int,
                    size: int) -> np.ndarray:
    """The floor: one bincount of codes that are already (group, correct, assigned) integers."""
    return np.bincount((groups * k + correct) * k + assigned, minlength=size * k * k)


def _ours(assigned: np.ndarray, correct: np.ndarray, groups: np.ndarray) -> dict[str, Any]:
    accumulator = GroupedContingency([0, 1], zero_division=0.0).add_results(
        assigned, correct, groups=groups)
    return {"precision": accumulator.by_group(("precision", 1)),
            "recall": accumulator.by_group(("recall", 1)),
            "selection_rate": accumulator.selection_rate(1)}


def _metric_frame(fairlearn: Any, sklearn: Any, assigned: np.ndarray, correct: np.ndarray,
                  groups: np.ndarray) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fairlearn.MetricFrame(
            metrics={"precision": partial(sklearn.precision_score, zero_division=0),
                     "recall": partial(sklearn.recall_score, zero_division=0),
                     "selection_rate": fairlearn.selection_rate},
            y_true=correct, y_pred=assigned, sensitive_features=groups).by_group


def grouped_batch(config: Any) -> list[Row]:
    """A batch of 10^6 rows in 100 groups: against the bincount floor and fairlearn's MetricFrame."""
    n, k, size = config.batch_n, 2, 100
    rng = np.random.default_rng([23, n, 3])
    correct = rng.integers(0, k, n)
    assigned = np.where(rng.random(n) < 0.7, correct, rng.integers(0, k, n))
    groups = rng.integers(0, size, n)
    contestants = [Contestant("ours", partial(_ours, assigned, correct, groups)),
                   Contestant("floor", partial(_bincount_floor, groups, correct, assigned, k,
                                               size))]
    try:
        fairlearn = importlib.import_module("fairlearn.metrics")
        sklearn = importlib.import_module("sklearn.metrics")
    except ImportError:
        fairlearn = sklearn = None
    if fairlearn is not None:
        contestants.append(Contestant("fairlearn", partial(_metric_frame, fairlearn, sklearn,
                                                           assigned, correct, groups),
                                      rounds=1, warmup=False))

    def check(values: list[Any]) -> str:
        ours, floor = values[0], values[1].reshape(size, k, k)
        hits = floor[:, 1, 1]
        if not np.allclose([ours["recall"][g] for g in range(size)],
                           hits / floor[:, 1, :].sum(axis=1), rtol=TOLERANCE, atol=0):
            raise CheckFailed("recall by group differs from the floor's counts")
        if len(values) < 3:
            return "agrees with the floor's counts; fairlearn not installed"
        worst = 0.0
        for name in ("precision", "recall", "selection_rate"):
            for group in range(size):
                difference = relative_difference(ours[name][group],
                                                 float(values[2].loc[group, name]))
                if not difference <= TOLERANCE:
                    raise CheckFailed(f"{name} of group {group}: ours {ours[name][group]!r}, "
                                      f"fairlearn {values[2].loc[group, name]!r}")
                worst = max(worst, difference)
        return f"precision, recall, selection rate by group agree to {TOLERANCE:g} (largest {worst:.2g})"

    timings, verdict = measure(contestants, config.slow_repeat, check)
    ours, floor = timings[0], timings[1]
    row = Row("GroupedContingency.add_results + precision, recall, selection rate by group",
              f"K={k}, {size} groups, {n:,} rows (int arrays)", "s", ours=ours.median,
              floor_name="bincount of (group, correct, assigned)", floor=floor.median,
              target="ours/floor <= 3, fairlearn/ours >= 10", check=verdict, timings=timings)
    if fairlearn is None:
        row.status_override, row.notes = "SKIP", "skipped: fairlearn not installed"
    else:
        row.peer_name, row.peer = "fairlearn MetricFrame (3 scikit-learn scores)", timings[2].median
        row.passed = ours.median <= 3 * floor.median and timings[2].median >= 10 * ours.median
        row.notes = "fairlearn timed once (tens of seconds a run)"
    return [row]
