#!/usr/bin/env python3
"""Regenerate tests/golden/torchmetrics/curves.json: torchmetrics' binary scores of scores, on seeded inputs.

The binary calibration error (``norm`` "l1", "l2", "max", several ``n_bins``), the
exact AUROC (with and without ``max_fpr``) and the exact average precision, each
computed by the real torchmetrics on float64 probabilities (``torch.set_default_dtype``
float64, so the bin edges are float64 too); and the binned AUROC, average precision
and ROC curve (``thresholds=T``), which torchmetrics computes in float32 whatever the
default dtype (their thresholds are stored: the tests bin the scores at those edges).
torch's ``linspace`` edges of the calibration bins are stored too (they differ from
numpy's in the last bit for some bins). The tests turn each case's inputs into per-score
counts and compare contingency.formulas.curves with the stored values
(tests/test_curves_formulas.py). The inputs mix uniform floats with scores rounded to
two decimals (ties), and the values 0, 1 and bin edges such as 0.5 (a score on an edge
belongs to the bin above it; 1.0 to a bin of its own).

Needs torch and torchmetrics (CPU is enough): ``python -m venv VENV &&
VENV/bin/pip install torch torchmetrics numpy``; then, from the repository root::

    VENV/bin/python tests/golden/make_torchmetrics_curves.py
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torchmetrics
from torchmetrics import classification as tc

OUT = Path(__file__).resolve().parent / "torchmetrics"
SEED = 32
COUNT = 60


def value(tensor: torch.Tensor) -> dict[str, Any]:
    return {"value": tensor.tolist(), "dtype": str(tensor.dtype).removeprefix("torch.")}


def computed(metric: torchmetrics.Metric, preds: list[float], target: list[int]) -> dict[str, Any]:
    metric.update(torch.tensor(preds, dtype=torch.float64), torch.tensor(target))
    return value(metric.compute())


def case(rng: np.random.Generator) -> dict[str, Any]:
    n = int(rng.integers(2, 80))
    kind = rng.integers(0, 3)
    preds = rng.random(n)
    if kind == 1:  # ties
        preds = np.round(preds, 1 + int(rng.integers(0, 2)))
    elif kind == 2:  # edges and the ends
        preds[rng.random(n) < 0.3] = rng.choice([0.0, 0.5, 1.0, 0.25, 0.75])
    target = rng.integers(0, 2, n)
    target[0], target[-1] = 1, 0  # both classes: AUROC and AP are defined
    preds_list, target_list = preds.tolist(), target.tolist()
    n_bins = int(rng.integers(2, 21))
    max_fpr = float(np.round(rng.uniform(0.05, 0.95), 2))
    outputs = {}
    for bins in (15, n_bins):
        for norm in ("l1", "l2", "max"):
            outputs[f"BinaryCalibrationError(n_bins={bins}, norm='{norm}')"] = computed(
                tc.BinaryCalibrationError(n_bins=bins, norm=norm), preds_list, target_list)
    outputs["BinaryAUROC()"] = computed(tc.BinaryAUROC(), preds_list, target_list)
    outputs[f"BinaryAUROC(max_fpr={max_fpr})"] = computed(tc.BinaryAUROC(max_fpr=max_fpr),
                                                          preds_list, target_list)
    outputs["BinaryAveragePrecision()"] = computed(tc.BinaryAveragePrecision(), preds_list,
                                                   target_list)
    # binned: torchmetrics' thresholds=int counts "score >= t" at linspace(0, 1, T), in float32
    binned = int(rng.choice([5, 11, 100]))
    outputs[f"BinaryAUROC(thresholds={binned})"] = computed(
        tc.BinaryAUROC(thresholds=binned), preds_list, target_list)
    outputs[f"BinaryAveragePrecision(thresholds={binned})"] = computed(
        tc.BinaryAveragePrecision(thresholds=binned), preds_list, target_list)
    roc = tc.BinaryROC(thresholds=binned)
    roc.update(torch.tensor(preds_list, dtype=torch.float64), torch.tensor(target_list))
    outputs[f"BinaryROC(thresholds={binned})"] = {
        name: value(tensor) for name, tensor in zip(("fpr", "tpr", "thresholds"), roc.compute())}
    # torch's linspace rounds some edges differently from numpy's: the bins torchmetrics used
    edges = {str(bins): torch.linspace(0, 1, bins + 1).tolist() for bins in (15, n_bins)}
    return {"preds": preds_list, "target": target_list, "n_bins": n_bins, "max_fpr": max_fpr,
            "binned": binned, "edges": edges, "outputs": outputs}


def main() -> None:
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(SEED)
    cases = [case(rng) for _ in range(COUNT)]
    header = {"torchmetrics_version": torchmetrics.__version__,
              "torch_version": torch.__version__.split("+")[0],
              "default_dtype": "float64", "seed": SEED}
    top = json.dumps(header, indent=1)[:-2]
    body = ",\n".join("  " + json.dumps(one) for one in cases)
    OUT.mkdir(exist_ok=True)
    (OUT / "curves.json").write_text(f'{top},\n "cases": [\n{body}\n ]\n}}\n', encoding="utf-8")


if __name__ == "__main__":
    main()
