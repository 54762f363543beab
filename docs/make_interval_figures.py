"""Make the intervals page's coverage figure (docs/images/interval-coverage.png).

Run from the repository root with the plot and stats extras installed
(``python -m pip install -e ".[plot,stats]"``)::

    python docs/make_interval_figures.py

Two panels, both computed here, no data read:

- top: the exact coverage of each method's nominal 95% interval of a
  proportion, for 40 trials and every true share ``p`` on a grid: the sum of
  the binomial probabilities of the counts whose interval holds ``p``;
- bottom: the coverage of nominal 95% intervals of F1 scores over simulated
  multinomial tables of single-label results (a seeded numpy generator), for
  sizes from 25 to 1600 results: each table's interval read from a
  :class:`contingency.Contingency` fed the table, and the share that holds
  the population's score counted.
"""

from __future__ import annotations

from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from contingency import Contingency
from contingency.formulas import intervals

IMAGES = Path(__file__).resolve().parent / "images"
WIDTH, HEIGHT = 800, 600
LEVEL = 0.95
#: Trials of the exact panel, and its grid of true shares.
TRIALS = 40
SHARES = np.linspace(0.005, 0.995, 397)
#: The population of the simulation: shares of (correct, assigned) pairs of 4 categories.
POPULATION = np.array([[0.20, 0.03, 0.01, 0.01], [0.02, 0.15, 0.03, 0.00],
                       [0.01, 0.02, 0.25, 0.02], [0.02, 0.01, 0.02, 0.20]])
SIZES = (25, 50, 100, 200, 400, 800, 1600)
TABLES = 400  # simulated tables per size
SEED = 22


def exact_coverage(method: str) -> np.ndarray:
    """The probability, for each share of :data:`SHARES`, that the interval of B(TRIALS, p) holds p."""
    bounds = [intervals.proportion_bounds(k, TRIALS, LEVEL, method) for k in range(TRIALS + 1)]
    shares = SHARES
    coverage = np.zeros_like(shares)
    for k, (low, high) in enumerate(bounds):
        held = (low <= shares) & (shares <= high)
        coverage += held * comb(TRIALS, k) * shares**k * (1 - shares) ** (TRIALS - k)
    return coverage


def simulated_coverage() -> dict[str, list[float]]:
    """Per F1 interval, its coverage at each of :data:`SIZES` over :data:`TABLES` tables."""
    shares = POPULATION / POPULATION.sum()
    k = len(shares)
    both = shares.sum(0) + shares.sum(1)
    reads: dict[str, tuple[Any, str, float]] = {
        "macro F1, delta (Takahashi et al.)": ("macro_f1", "delta",
                                               float(np.mean(2 * np.diag(shares) / both))),
        "micro F1, Wilson": ("micro_f1", "wilson", float(np.trace(shares))),
        "micro F1, delta (Wald)": ("micro_f1", "delta", float(np.trace(shares))),
        "F1 of one category, Wilson via Jaccard": (("f1", 1), "wilson",
                                                   float(2 * shares[1, 1] / both[1])),
        "F1 of one category, delta": (("f1", 1), "delta", float(2 * shares[1, 1] / both[1])),
    }
    correct, assigned = np.divmod(np.arange(k * k), k)
    rng = np.random.default_rng(SEED)
    coverage: dict[str, list[float]] = {name: [] for name in reads}
    for size in SIZES:
        held = dict.fromkeys(reads, 0)
        for _ in range(TABLES):
            counts = rng.multinomial(size, shares.ravel())
            s = Contingency(range(k)).add_results(np.repeat(assigned, counts),
                                                  np.repeat(correct, counts))
            for name, (score, method, truth) in reads.items():
                try:
                    low, _, high = s.interval(score, level=LEVEL, method=method)
                except ValueError:  # undefined in this table (no result names the category)
                    continue
                held[name] += low <= truth <= high
        for name in reads:
            coverage[name].append(held[name] / TABLES)
    return coverage


def figures() -> dict[str, Any]:
    """File name -> matplotlib Figure, for every figure of the intervals page."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100, layout="constrained")
    top, bottom = figure.subplots(2, 1)
    names = {"wilson": "Wilson", "agresti_coull": "Agresti-Coull",
             "clopper_pearson": "Clopper-Pearson", "jeffreys": "Jeffreys", "delta": "Wald (delta)"}
    for method, name in names.items():
        top.plot(SHARES, exact_coverage(method), linewidth=1, label=name)
    top.axhline(LEVEL, color="black", linewidth=0.8)
    top.set_ylim(0.80, 1.0)
    top.set_xlabel("true share p")
    top.set_ylabel("coverage")
    top.set_title(f"Exact coverage of nominal 95% intervals of a proportion, {TRIALS} trials")
    top.legend(loc="lower center", ncols=5, fontsize="small")
    for name, values in simulated_coverage().items():
        bottom.plot(SIZES, values, marker="o", label=name)
    bottom.axhspan(0.93, 0.97, color="grey", alpha=0.15)
    bottom.axhline(LEVEL, color="black", linewidth=0.8)
    bottom.set_xscale("log")
    bottom.set_xticks(SIZES, [str(size) for size in SIZES])
    bottom.set_ylim(0.80, 1.0)
    bottom.set_xlabel("results per table (4 categories)")
    bottom.set_ylabel("coverage")
    bottom.set_title(f"Simulated coverage of nominal 95% F1 intervals, {TABLES} tables per size")
    bottom.legend(loc="lower right", fontsize="small")
    return {"interval-coverage.png": figure}


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, figure in figures().items():
        figure.savefig(IMAGES / name, metadata={"Software": None})
        print(IMAGES / name)


if __name__ == "__main__":
    main()
