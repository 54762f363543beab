"""Issue 32's rows: ThresholdContingency streaming (add + roc_auc after every result) and batch (10^7 scores).

Streaming: ``add`` then ``roc_auc()`` after every result of a stream of
distinct float scores, against river's ``ROCAUC`` (approximate) and
``RollingROCAUC(1000)`` (exact over a window) doing ``update`` + ``get``; and
a sliding window of 1,000 kept by ``remove`` against ``RollingROCAUC(1000)``.
The probability reads: ``add`` then ``brier_score()`` or ``log_loss()`` after
every result, against ``add`` then ``roc_auc()`` (all three O(1) reads of
running sums).
Batch: ``add_results`` + ``roc_auc()`` + ``average_precision()`` on 10^7
scores, against numpy's stable argsort of the scores (the floor) and
scikit-learn's ``roc_auc_score``. Several classes: ``add_results`` of a
10^6 x 10 probability matrix + ``roc_auc("macro")`` against scikit-learn's
``roc_auc_score(multi_class="ovr", average="macro")``. The command line:
``contingency curves`` against ``contingency classify`` on the same rows of
one file (10^7 in a full run), each in a fresh process.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from contingency import MulticlassThresholdContingency, ThresholdContingency, _backend
from tests.benchmarks.harness import CheckFailed, Contestant, Measured, Row, Stopwatch, measure

__all__ = ["batch_binned", "batch_exact", "cli_curves_vs_classify", "memory", "multiclass_batch",
           "probability_reads", "sliding_window", "streaming_reads"]


def _stream(n: int, seed: int = 32) -> tuple[list[float], list[bool]]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    scores = np.where(y, rng.beta(3, 2, n), rng.beta(2, 3, n))  # informative, distinct floats
    return scores.tolist(), y.tolist()


def _ours(scores: list[float], labels: list[bool], name: str = "roc_auc"
          ) -> tuple[ThresholdContingency, float]:
    curve = ThresholdContingency(zero_division="nan")  # the first reads see one class
    add, read = curve.add, getattr(curve, name)
    value = float("nan")
    for score, label in zip(scores, labels):
        add(score, label)
        value = read()
    return curve, value


def _river(metric: Any, scores: list[float], labels: list[bool]) -> float:
    update, get = metric.update, metric.get
    value = 0.0
    for score, label in zip(scores, labels):
        update(label, score)
        value = get()
    return float(value)


def _exact(scores: list[float], labels: list[bool]) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(labels, scores))


def streaming_reads(n: int, river_n: int, repeat: int) -> list[Row]:
    """add + roc_auc after every result (issue 32): >= 20x river ROCAUC, <= 1x RollingROCAUC(1000)."""
    import river.metrics as river_metrics

    scores, labels = _stream(n)
    contestants = [
        Contestant("ours", partial(_ours, scores, labels), items=n, rounds=min(repeat, 5)),
        Contestant("river ROCAUC", partial(lambda: _river(river_metrics.ROCAUC(),
                                                          scores[:river_n], labels[:river_n])),
                   items=river_n, rounds=min(repeat, 5)),
        Contestant("river RollingROCAUC(1000)", partial(lambda: _river(
            river_metrics.RollingROCAUC(window_size=1000), scores, labels)),
            items=n, rounds=min(repeat, 5)),
    ]

    def check(values: list[Any]) -> str:
        curve, last = values[0]
        exact = _exact(scores, labels)
        if last != curve.roc_auc() or abs(last - exact) > 1e-12:
            raise CheckFailed(f"our last read {last!r}, scikit-learn {exact!r}")
        river_prefix = _exact(scores[:river_n], labels[:river_n])
        window = _exact(scores[-1000:], labels[-1000:])
        if abs(values[2] - window) > 1e-9:
            raise CheckFailed(f"RollingROCAUC {values[2]!r}, scikit-learn on the window {window!r}")
        return (f"last read = scikit-learn's ({exact:.6f}); river ROCAUC on its "
                f"{river_n:,} results reads {values[1]:.4f} where the exact AUC is "
                f"{river_prefix:.4f}; RollingROCAUC = scikit-learn on the last 1000")

    timings, verdict = measure(contestants, repeat, check)
    ours, rocauc, rolling = timings
    size = f"{n:,} distinct float scores (river ROCAUC {river_n:,})"
    return [
        Row("ThresholdContingency add + roc_auc per result vs river ROCAUC", size, "s/result",
            ours=ours.median, peer_name="river ROCAUC update+get (approximate)",
            peer=rocauc.median, target="river/ours >= 20", check=verdict, timings=timings,
            passed=rocauc.median >= 20 * ours.median,
            notes="ours exact over every result held (O(log n) per add, O(1) read); "
                  f"score counts on the {_backend.IMPLEMENTATION}"),
        Row("ThresholdContingency add + roc_auc per result vs river RollingROCAUC(1000)", size,
            "s/result", ours=ours.median, peer_name="river RollingROCAUC(1000) update+get",
            peer=rolling.median, target="river/ours >= 1 (ours holds every result)",
            check=verdict, passed=rolling.median >= ours.median,
            notes="river keeps a window of 1,000; ours all the results"),
    ]


def probability_reads(n: int, repeat: int) -> list[Row]:
    """add + brier_score and add + log_loss after every result: <= 1.5x add + roc_auc (each read
    O(1), the exact sum of its terms kept by the write; it was O(distinct scores))."""
    from sklearn import metrics

    from contingency.formulas import curves

    scores, labels = _stream(n, seed=35)  # probabilities: beta-distributed, in (0, 1)
    reads = ("roc_auc", "brier_score", "log_loss")
    contestants = [Contestant(f"add + {name}", partial(_ours, scores, labels, name), items=n,
                              rounds=min(repeat, 5)) for name in reads]

    def check(values: list[Any]) -> str:
        for name, (curve, last) in zip(reads, values):
            columns = curve._columns()
            formula = (curves.roc_auc(*columns[1:], zero_division="nan") if name == "roc_auc"
                       else getattr(curves, name)(*columns))
            if last != formula:
                raise CheckFailed(f"last {name} read {last!r}, the formula on the columns "
                                  f"{formula!r}")
        brier, loss = values[1][1], values[2][1]
        theirs = (metrics.brier_score_loss(labels, scores), metrics.log_loss(labels, scores))
        if abs(brier - theirs[0]) > 1e-12 * theirs[0] or abs(loss - theirs[1]) > 1e-12 * theirs[1]:
            raise CheckFailed(f"ours {brier!r}, {loss!r}; scikit-learn {theirs[0]!r}, {theirs[1]!r}")
        return (f"last reads = the formulas on the columns, bit for bit, and scikit-learn's to "
                f"1e-12 (brier {brier:.6f}, log loss {loss:.6f})")

    timings, verdict = measure(contestants, repeat, check)
    auc = timings[0]
    return [Row(f"ThresholdContingency add + {name} per result vs add + roc_auc",
                f"{n:,} distinct float scores", "s/result", ours=timing.median,
                floor_name="add + roc_auc", floor=auc.median,
                target="add+read <= 1.5 x add + roc_auc", check=verdict, timings=[timing, auc],
                passed=timing.median <= 1.5 * auc.median,
                notes=f"read O(1): the exact sum of its terms kept by the write (it summed every "
                      f"distinct score); score counts on the {_backend.IMPLEMENTATION}")
            for name, timing in zip(reads[1:], timings[1:])]


def _window(scores: list[float], labels: list[bool], size: int) -> float:
    curve = ThresholdContingency(zero_division="nan")
    add, remove, read = curve.add, curve.remove, curve.roc_auc
    value = float("nan")
    for i, (score, label) in enumerate(zip(scores, labels)):
        add(score, label)
        if i >= size:
            remove(scores[i - size], labels[i - size])
        value = read()
    return value


def sliding_window(n: int, repeat: int) -> list[Row]:
    """A window of 1,000 by remove: at least river RollingROCAUC(1000)'s speed (issue 32)."""
    import river.metrics as river_metrics

    scores, labels = _stream(n, seed=33)
    contestants = [
        Contestant("ours", partial(_window, scores, labels, 1000), items=n, rounds=min(repeat, 5)),
        Contestant("river RollingROCAUC(1000)", partial(lambda: _river(
            river_metrics.RollingROCAUC(window_size=1000), scores, labels)),
            items=n, rounds=min(repeat, 5)),
    ]

    def check(values: list[Any]) -> str:
        if abs(values[0] - values[1]) > 1e-9:
            raise CheckFailed(f"ours {values[0]!r}, RollingROCAUC {values[1]!r}")
        return f"last reads agree ({values[0]:.6f})"

    timings, verdict = measure(contestants, repeat, check)
    ours, rolling = timings
    return [Row("ThresholdContingency window of 1000 by remove vs RollingROCAUC(1000)",
                f"{n:,} results", "s/result", ours=ours.median,
                peer_name="river RollingROCAUC(1000) update+get", peer=rolling.median,
                target="river/ours >= 1", check=verdict, timings=timings,
                passed=rolling.median >= ours.median)]


def _batch(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    curve = ThresholdContingency()
    curve.add_results(scores, labels)
    return curve.roc_auc(), curve.average_precision()


def _sklearn(scores: np.ndarray, labels: np.ndarray, **options: Any) -> Measured:
    """scikit-learn's ``roc_auc_score(labels, scores, **options)``, timed without its import."""

    from sklearn.metrics import roc_auc_score

    stopwatch = Stopwatch()
    value = roc_auc_score(labels, scores, **options)
    return stopwatch.measured(float(value))


def batch_exact(n: int, repeat: int) -> list[Row]:
    """add_results + roc_auc + average_precision on 10^7 scores: <= 1.5x stable argsort, >= 1.5x sklearn."""
    rng = np.random.default_rng(34)
    labels = rng.random(n) < 0.4
    scores = np.where(labels, rng.beta(3, 2, n), rng.beta(2, 3, n))
    contestants = [
        Contestant("ours", partial(_batch, scores, labels), items=1),
        Contestant("numpy argsort(kind='stable')",
                   partial(np.argsort, scores, kind="stable"), items=1),
        Contestant("scikit-learn roc_auc_score", partial(_sklearn, scores, labels), items=1,
                   rounds=min(repeat, 3)),
    ]

    def check(values: list[Any]) -> str:
        auc, _ = values[0]
        if abs(auc - values[2]) > 1e-12:
            raise CheckFailed(f"ours {auc!r}, scikit-learn {values[2]!r}")
        return f"roc_auc = scikit-learn's ({auc:.12f})"

    timings, verdict = measure(contestants, repeat, check)
    ours, floor, sklearn = timings
    return [Row("ThresholdContingency add_results + roc_auc + average_precision (exact)",
                f"{n:,} scores", "s", ours=ours.median,
                peer_name="scikit-learn roc_auc_score", peer=sklearn.median,
                floor_name="numpy argsort(kind='stable')", floor=floor.median,
                target="ours/floor <= 1.5, sklearn/ours >= 1.5", check=verdict,
                timings=timings,
                passed=ours.median <= 1.5 * floor.median and sklearn.median >= 1.5 * ours.median)]


def _batch_binned(scores: np.ndarray, labels: np.ndarray, bins: int) -> tuple[float, float, float]:
    curve = ThresholdContingency(bins=bins)
    curve.add_results(scores, labels)
    return curve.roc_auc(), curve.roc_auc_bound(), curve.average_precision()


def _bincount(codes: np.ndarray, labels: np.ndarray, bins: int) -> np.ndarray:
    return np.bincount(2 * codes + labels, minlength=2 * bins)


def batch_binned(n: int, repeat: int, bins: int = 65536) -> list[Row]:
    """add_results + roc_auc + average_precision, 65,536 bins: <= 3x bincount of the bin codes,
    >= 10x scikit-learn's exact roc_auc_score (ours within its certified bound of it)."""
    rng = np.random.default_rng(36)
    labels = rng.random(n) < 0.4
    scores = np.where(labels, rng.beta(3, 2, n), rng.beta(2, 3, n))
    codes = np.minimum((scores * bins).astype(np.int64), bins - 1)  # the floor's input, made once
    contestants = [
        Contestant("ours", partial(_batch_binned, scores, labels, bins), items=1),
        Contestant("numpy bincount of the bin codes", partial(_bincount, codes, labels, bins),
                   items=1),
        Contestant("scikit-learn roc_auc_score", partial(_sklearn, scores, labels), items=1,
                   rounds=min(repeat, 3)),
    ]

    def check(values: list[Any]) -> str:
        auc, bound, _ = values[0]
        exact = values[2]
        if not abs(auc - exact) <= bound:
            raise CheckFailed(f"ours {auc!r} +- {bound!r}, scikit-learn's exact {exact!r}")
        return (f"roc_auc {auc:.9f}, within its certified bound {bound:.2e} of scikit-learn's "
                f"exact {exact:.9f}")

    timings, verdict = measure(contestants, repeat, check)
    ours, floor, sklearn = timings
    return [Row(f"ThresholdContingency(bins={bins:,}) add_results + roc_auc + average_precision",
                f"{n:,} scores", "s", ours=ours.median,
                peer_name="scikit-learn roc_auc_score (exact)", peer=sklearn.median,
                floor_name="numpy bincount of the bin codes", floor=floor.median,
                target="ours/floor <= 3, sklearn/ours >= 10", check=verdict, timings=timings,
                passed=ours.median <= 3 * floor.median and sklearn.median >= 10 * ours.median,
                notes="the floor counts codes made beforehand; ours bins the scores too (even "
                      "bins are coded arithmetically and checked against the edges; uneven "
                      "edges given as an array fall back to a binary search per score)")]


def _probe_curves(mode: str, results: int, chunk: int) -> dict[str, Any]:
    import json
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.memory_probe", "curves", mode,
                           str(results), str(chunk)], cwd=Path(__file__).parents[2], check=True,
                          capture_output=True, text=True)
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def memory(binned_n: int, exact_n: int) -> list[Row]:
    """Binned mode by chunks of 10^6: O(bins) (under 64 MiB beyond the chunk at any n); exact
    mode: at most 48 B per distinct score held. Each in a fresh process."""
    chunk = 1_000_000
    binned = _probe_curves("binned", binned_n, chunk)
    exact = _probe_curves("exact", exact_n, 100_000)
    limit = 64 * 2**20
    per_key = None if exact["retained"] is None else exact["retained"] / exact["keys"]
    return [
        Row("ThresholdContingency(bins=65,536) add_results by chunks: peak beyond the chunk",
            f"{binned_n:,} scores in chunks of {chunk:,}", "bytes", ours=binned["peak"],
            target="<= 64 MiB at any n", passed=binned["peak"] <= limit,
            notes="tracemalloc's peak during one add_results beyond what was held before it, in "
                  "a fresh process"),
        Row("ThresholdContingency (exact) state per distinct score",
            f"{exact['keys']:,} distinct scores", "number", ours=per_key,
            target="<= 48 B per distinct score",
            passed=per_key is not None and per_key <= 48,
            status_override="" if per_key is not None else "SKIP",
            notes="growth of the resident size over the feed (chunks of 100,000), divided by the "
                  "distinct scores held: the kernel's blocks are C allocations"),
    ]


def _multiclass(matrix: np.ndarray, labels: np.ndarray, k: int) -> float:
    curves = MulticlassThresholdContingency(list(range(k)))
    curves.add_results(matrix, labels)
    return float(curves.roc_auc("macro"))


def multiclass_batch(n: int, k: int, repeat: int) -> list[Row]:
    """add_results + roc_auc("macro") of an (n, k) probability matrix vs scikit-learn's ovr macro AUC.

    Ours keeps more than scikit-learn computes: beside each class's table, the
    pooled table of the n k (score, indicator) pairs (the micro averages, read
    in O(1) afterwards) and the rank counts of every top-k accuracy.
    """
    rng = np.random.default_rng(35)
    labels = rng.integers(0, k, n)
    raw = rng.random((n, k))
    raw[np.arange(n), labels] += 0.5  # informative: the correct class scores higher on average
    matrix = raw / raw.sum(axis=1, keepdims=True)
    contestants = [
        Contestant("ours", partial(_multiclass, matrix, labels, k), items=1),
        Contestant("scikit-learn roc_auc_score ovr macro", partial(_sklearn, matrix, labels,
                                                                    multi_class="ovr",
                                                                    average="macro"),
                   items=1, rounds=min(repeat, 3)),
    ]

    def check(values: list[Any]) -> str:
        if abs(values[0] - values[1]) > 1e-12:
            raise CheckFailed(f"ours {values[0]!r}, scikit-learn {values[1]!r}")
        return f"roc_auc macro = scikit-learn's ({values[0]:.12f})"

    timings, verdict = measure(contestants, repeat, check)
    ours, sklearn = timings
    return [Row("MulticlassThresholdContingency add_results + roc_auc macro (exact)",
                f"{n:,} x {k} scores", "s", ours=ours.median,
                peer_name="scikit-learn roc_auc_score(multi_class='ovr', average='macro')",
                peer=sklearn.median, target="sklearn/ours >= 1", check=verdict, timings=timings,
                passed=sklearn.median >= ours.median,
                notes="ours also keeps the pooled table (micro averages) and the rank counts "
                      "(top-k accuracy)")]


def _write_scored(path: Any, n: int) -> None:
    """``n`` rows: a score, its truth (0/1) and the decision at 0.5, for curves and classify alike."""
    rng = np.random.default_rng(36)
    with path.open("w", encoding="utf-8") as out:
        out.write("score,truth,decision\n")
        for start in range(0, n, 1_000_000):
            size = min(1_000_000, n - start)
            truth = rng.random(size) < 0.4
            scores = np.round(np.where(truth, rng.beta(3, 2, size), rng.beta(2, 3, size)), 6)
            decision = (scores >= 0.5).astype(np.int64)
            out.write("".join(f"{s!r},{t:d},{d}\n" for s, t, d in zip(
                scores.tolist(), truth.astype(np.int64).tolist(), decision.tolist())))


def cli_curves_vs_classify(n: int, quick: bool) -> list[Row]:
    """``contingency curves`` within 3x of ``contingency classify`` on the same rows (issue 32)."""
    import tempfile
    from pathlib import Path

    from tests.benchmarks.streaming import high_water_mark_readable, run_command

    size = f"{n:,} rows"
    name = "contingency curves FILE --format json vs classify on the same rows"
    if not high_water_mark_readable():
        return [Row(name, size, "s", status_override="SKIP",
                    notes="no /proc/self/status (VmHWM) on this system")]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "scored.csv"
        _write_scored(path, n)
        _, classify_seconds, decisions = run_command(
            ["classify", str(path), "--assigned", "decision", "--correct", "truth"])
        peak, curves_seconds, scores = run_command(
            ["curves", str(path), "--score", "score", "--correct", "truth"])
    counted = (int(scores.get("n_results", -1)), int(decisions.get("n_results", -1)))
    check = ("n equal" if counted == (n, n)
             else f"MISMATCH: curves counted {counted[0]:,}, classify {counted[1]:,}, not {n:,}")
    return [Row(name, size, "s", ours=curves_seconds, peer_name="contingency classify",
                peer=classify_seconds, target="ours/classify <= 3",
                passed=curves_seconds <= 3 * classify_seconds, check=check,
                notes=f"{curves_seconds / classify_seconds:.2f}x; each timed once in a fresh "
                      f"process; curves' peak memory {peak / 2**20:.0f} MiB"
                      + ("; quick run" if quick else ""))]
