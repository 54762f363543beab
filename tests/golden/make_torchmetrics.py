#!/usr/bin/env python3
"""Regenerate tests/golden/torchmetrics/*.json: torchmetrics' numbers on seeded random inputs.

torch is too heavy for the test command, so the real torchmetrics is run here, once,
and its answers are stored beside the inputs that produced them; the tests recompute
our side from the stored inputs (tests/migration_rows.py). Each file holds the
versions, the seed, and one case per line: the inputs (``preds`` first, as
torchmetrics takes them, then ``target``), and each metric's value with the dtype
torchmetrics computed it in.

The default dtype is set to float64 (``torch.set_default_dtype``), so that the metrics
which follow it compute in float64 and agree with ours to 1e-12; those which do not
(their values are stored with ``"dtype": "float32"``) agree to float32's precision.
Without that setting torchmetrics computes every score in float32.

Needs torch and torchmetrics (CPU is enough): ``python -m venv VENV &&
VENV/bin/pip install torch torchmetrics numpy``; then, from the repository root::

    VENV/bin/python tests/golden/make_torchmetrics.py
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
from torchmetrics import clustering
from torchmetrics.functional import clustering as functional_clustering

OUT = Path(__file__).resolve().parent / "torchmetrics"
SEED = 20
COUNT = 40


def value(tensor: torch.Tensor) -> dict[str, Any]:
    """A metric's result: a number or a list, and the dtype it was computed in."""
    number = tensor.tolist()
    return {"value": number, "dtype": str(tensor.dtype).removeprefix("torch.")}


def computed(metric: torchmetrics.Metric, preds: Any, target: Any) -> dict[str, Any]:
    metric.update(torch.tensor(preds), torch.tensor(target))
    return value(metric.compute())


def multiclass_case(kind: str, preds: list[int], target: list[int], k: int) -> dict[str, Any]:
    outputs = {
        "MulticlassF1Score(average='macro')":
            computed(tc.MulticlassF1Score(num_classes=k, average="macro"), preds, target),
        "MulticlassF1Score(average='none')":
            computed(tc.MulticlassF1Score(num_classes=k, average="none"), preds, target),
        "MulticlassPrecision(average='micro')":
            computed(tc.MulticlassPrecision(num_classes=k, average="micro"), preds, target),
        "MulticlassRecall(average='micro')":
            computed(tc.MulticlassRecall(num_classes=k, average="micro"), preds, target),
        "MulticlassFBetaScore(beta=2.0, average='weighted')":
            computed(tc.MulticlassFBetaScore(beta=2.0, num_classes=k, average="weighted"),
                     preds, target),
    }
    if k == 2:
        outputs["MulticlassMatthewsCorrCoef(num_classes=2)"] = computed(
            tc.MulticlassMatthewsCorrCoef(num_classes=2), preds, target)
    return {"kind": kind, "num_classes": k, "preds": preds, "target": target,
            "outputs": outputs}


def reset_case(rng: np.random.Generator, k: int) -> dict[str, Any]:
    """update, compute, reset, update, compute: the second value knows only the second batch."""
    batches = [(rng.integers(0, k, n).tolist(), rng.integers(0, k, n).tolist())
               for n in rng.integers(1, 30, 2)]
    metric = tc.MulticlassF1Score(num_classes=k, average="macro")
    values = []
    for preds, target in batches:
        metric.update(torch.tensor(preds), torch.tensor(target))
        values.append(value(metric.compute()))
        metric.reset()
    return {"kind": "reset", "num_classes": k, "batches": batches,
            "outputs": {"MulticlassF1Score(average='macro')": values}}


def multilabel_case(preds: list[list[int]], target: list[list[int]], k: int) -> dict[str, Any]:
    return {"kind": "indicators", "num_labels": k, "preds": preds, "target": target, "outputs": {
        "MultilabelF1Score(average='micro')":
            computed(tc.MultilabelF1Score(num_labels=k, average="micro"), preds, target),
        "MultilabelExactMatch":
            computed(tc.MultilabelExactMatch(num_labels=k), preds, target),
        "MultilabelHammingDistance(average='micro')":
            computed(tc.MultilabelHammingDistance(num_labels=k, average="micro"), preds, target),
    }}


def clustering_case(kind: str, preds: list[int], target: list[int]) -> dict[str, Any]:
    metrics = {
        "NormalizedMutualInfoScore(average_method='arithmetic')":
            clustering.NormalizedMutualInfoScore(average_method="arithmetic"),
        "AdjustedMutualInfoScore": clustering.AdjustedMutualInfoScore(),
        "MutualInfoScore": clustering.MutualInfoScore(),
        "RandScore": clustering.RandScore(),
        "HomogeneityScore": clustering.HomogeneityScore(),
        "CompletenessScore": clustering.CompletenessScore(),
        "VMeasureScore(beta=1.0)": clustering.VMeasureScore(beta=1.0),
        "FowlkesMallowsIndex": clustering.FowlkesMallowsIndex(),
    }
    outputs = {"functional.clustering.adjusted_rand_score": value(
        functional_clustering.adjusted_rand_score(torch.tensor(preds), torch.tensor(target)))}
    outputs.update({name: computed(metric, preds, target) for name, metric in metrics.items()})
    return {"kind": kind, "preds": preds, "target": target, "outputs": outputs}


def classification_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    out = [multiclass_case("multiclass", [0, 2, 1, 1], [0, 1, 1, 2], 3),  # the guide's example
           multiclass_case("binary", [1, 0, 0, 0], [1, 1, 0, 0], 2)]  # the MCC example
    for i in range(COUNT):
        n = int(rng.integers(1, 40))
        if i % 3 == 0:
            out.append(multiclass_case("binary", rng.integers(0, 2, n).tolist(),
                                       rng.integers(0, 2, n).tolist(), 2))
        elif i % 3 == 1:
            k = int(rng.integers(3, 7))
            out.append(multiclass_case("multiclass", rng.integers(0, k, n).tolist(),
                                       rng.integers(0, k, n).tolist(), k))
        else:
            # Classes 0..k-1 on both sides, k predicted only, k + 1 true only, and
            # k + 2 .. num_classes - 1 named by no result.
            k = int(rng.integers(2, 5))
            preds, target = rng.integers(0, k, n), rng.integers(0, k, n)
            preds[rng.integers(0, n)] = k
            target[rng.integers(0, n)] = k + 1
            out.append(multiclass_case("absent", preds.tolist(), target.tolist(),
                                       k + 2 + int(rng.integers(0, 3))))
    for _ in range(COUNT // 2):
        n, k = int(rng.integers(1, 30)), int(rng.integers(2, 6))
        out.append(multilabel_case(rng.integers(0, 2, (n, k)).tolist(),
                                   rng.integers(0, 2, (n, k)).tolist(), k))
    out.extend(reset_case(rng, int(rng.integers(2, 6))) for _ in range(5))
    return out


def clustering_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    edges = [([0, 0, 1, 2], [0, 1, 1, 2]), ([0, 0, 0, 0], [1, 1, 1, 1]),
             ([0, 1, 2, 3], [0, 1, 2, 3]), ([5, 5, 5, 5], [0, 1, 2, 3]), ([0], [0]),
             ([0, 1, 0, 1], [0, 0, 1, 1])]
    out = [clustering_case("partition edges", preds, target) for preds, target in edges]
    for _ in range(COUNT):
        n = int(rng.integers(2, 40))
        k_preds, k_target = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        out.append(clustering_case("partitions", rng.integers(0, k_preds, n).tolist(),
                                   rng.integers(0, k_target, n).tolist()))
    return out


def write(name: str, cases: list[dict[str, Any]]) -> None:
    header = {"torchmetrics_version": torchmetrics.__version__,
              "torch_version": torch.__version__.split("+")[0],
              "default_dtype": "float64", "seed": SEED}
    top = json.dumps(header, indent=1)[:-2]
    body = ",\n".join("  " + json.dumps(case) for case in cases)
    (OUT / name).write_text(f'{top},\n "cases": [\n{body}\n ]\n}}\n', encoding="utf-8")


def main() -> None:
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")  # torchmetrics warns of sparse tensors and absent classes
    OUT.mkdir(exist_ok=True)
    write("classification.json", classification_cases(np.random.default_rng([SEED, 1])))
    write("clustering.json", clustering_cases(np.random.default_rng([SEED, 2])))


if __name__ == "__main__":
    main()
