"""Benchmark case of issue 20 item 4: scikit-learn's options read as cheaply as what they return.

Two rows. ``f1(average="macro")`` and ``precision("micro")``, the methods in
scikit-learn's call shape, against the properties ``macro_f1`` and
``micro_precision`` that answer the same averages, per read, at K = 1000
after a stream of single-label results: the methods check their arguments and
then take the same constant-time path. Target: each within 3x of its
property. And ``cohen_kappa(labels, weights=...)`` (linear and quadratic,
read from the K x K table's non-empty cells in O(pairs + K)) against
scikit-learn's ``cohen_kappa_score`` on the label arrays of the same 10^6
results (O(results)); ``labels`` is the sorted categories, scikit-learn's
order. Target: ours at most a third of scikit-learn's time. Contestants are
timed alternately in every round, so the ratios hold on a shared machine; the
values must agree (to 1e-12) before a figure is reported.
"""

from __future__ import annotations

import math
from typing import Any

from contingency import Contingency
from tests.benchmarks.data import category_names, label_arrays, single_label_results
from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure, relative_difference

__all__ = ["scikit_learn_options"]

#: How far above the property a method read may be.
READ_LIMIT = 3.0
#: How much of scikit-learn's time a weighted kappa read may take.
KAPPA_SHARE = 1 / 3


def _reads(read: Any, reads: int) -> Any:
    value = math.nan
    for _ in range(reads):
        value = read()
    return value


def _equal(values: list[Any]) -> str:
    if values[0] != values[1]:
        raise CheckFailed(f"the method read {values[0]!r}, the property {values[1]!r}")
    return "method == property"


def scikit_learn_options(config: Any) -> list[Row]:
    rows = []
    n, reads, k = config.stream_n, config.read_n, 1000
    categories = category_names(k)
    accumulator = Contingency(categories)
    for assigned, correct in single_label_results(n, k):
        accumulator.add_result(assigned, correct)
    size = f"K={k}, {n:,} results added"
    for method, read, prop, name in (
            ("f1(average='macro')", lambda: accumulator.f1("macro"),
             lambda: accumulator.macro_f1, "macro_f1"),
            ("precision('micro')", lambda: accumulator.precision("micro"),
             lambda: accumulator.micro_precision, "micro_precision")):
        contestants = [Contestant("method", lambda read=read: _reads(read, reads), items=reads),
                       Contestant("property", lambda prop=prop: _reads(prop, reads), items=reads)]
        timings, verdict = measure(contestants, config.repeat, _equal)
        ours, peer = timings[0].median, timings[1].median
        rows.append(Row(f"Contingency.{method} read, per read", size, "s", ours=ours,
                        peer_name=f"the {name} property", peer=peer,
                        target=f"ours <= {READ_LIMIT:g}x the property",
                        passed=ours <= READ_LIMIT * peer, check=verdict,
                        notes=f"{ours / peer:.2f}x the property; {reads:,} reads a round",
                        timings=timings))
    rows += _kappa_rows(config)
    return rows


def _kappa_rows(config: Any) -> list[Row]:
    from sklearn.metrics import cohen_kappa_score

    n, k = (10**5 if config.quick else 10**6), 100
    assigned, correct = label_arrays(n, k)
    accumulator = Contingency.from_labels(correct, assigned)
    order = sorted(accumulator.categories)  # scikit-learn's order of the labels
    rows = []
    for weights in ("linear", "quadratic"):
        contestants = [
            Contestant("ours", lambda w=weights: accumulator.cohen_kappa(order, weights=w)),
            Contestant("scikit-learn", lambda w=weights: cohen_kappa_score(correct, assigned,
                                                                           weights=w)),
        ]

        def check(values: list[Any]) -> str:
            difference = relative_difference(values[0], values[1])
            if not difference <= 1e-12:
                raise CheckFailed(f"ours {values[0]!r}, scikit-learn {values[1]!r}")
            return f"agree to 1e-12 (difference {difference:.2g})"

        timings, verdict = measure(contestants, config.slow_repeat, check)
        ours, peer = timings[0].median, timings[1].median
        rows.append(Row(f"Contingency.cohen_kappa(weights='{weights}') read",
                        f"K={k}, {n:,} results counted", "s", ours=ours,
                        peer_name="scikit-learn cohen_kappa_score on the labels", peer=peer,
                        target=f"ours <= {KAPPA_SHARE:.2f} x scikit-learn",
                        passed=ours <= KAPPA_SHARE * peer, check=verdict,
                        notes=f"scikit-learn/ours = {peer / ours:.1f}; ours reads the "
                              f"{len(accumulator.confusion_cells()[1]):,} non-empty cells",
                        timings=timings))
    return rows
