"""The generated inputs of the benchmark suite: seeded, so every run and every peer sees the same data.

Only numpy is imported here, so the memory probe can build its inputs
without loading the peers.
"""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "category_names",
    "drift_partition_stream",
    "drift_single_label_codes",
    "independent_labels",
    "indicator_matrices",
    "label_arrays",
    "multi_label_results",
    "partition_labels",
    "single_label_results",
]

Labels = NDArray[np.int64]
SEED = 20240605


def category_names(k: int) -> list[str]:
    """``k`` category names, ``"c0000"``, ``"c0001"``...: short strings as real class names are."""
    return [f"c{i:04d}" for i in range(k)]


@lru_cache(maxsize=8)
def single_label_results(n: int, k: int) -> tuple[tuple[str, str], ...]:
    """``n`` single-label results ``(assigned, correct)`` over ``k`` categories, about half of them right."""
    rng = np.random.default_rng([SEED, n, k, 1])
    names = category_names(k)
    correct = rng.integers(0, k, n)
    wrong = rng.integers(0, k, n)
    assigned = np.where(rng.random(n) < 0.5, correct, wrong)
    return tuple((names[a], names[c]) for a, c in zip(assigned.tolist(), correct.tolist()))


@lru_cache(maxsize=8)
def multi_label_results(n: int, k: int) -> tuple[tuple[set[str], set[str]], ...]:
    """``n`` results of 3 assigned and 3 correct categories (sets) out of ``k``, half the assigned right."""
    rng = random.Random(f"{SEED}-{n}-{k}-multi")
    names = category_names(k)
    results = []
    for _ in range(n):
        correct = rng.sample(range(k), 3)
        assigned = [label for label in correct if rng.random() < 0.5]
        while len(assigned) < 3:
            label = rng.randrange(k)
            if label not in assigned:
                assigned.append(label)
        results.append(({names[i] for i in assigned}, {names[i] for i in correct}))
    return tuple(results)


@lru_cache(maxsize=4)
def label_arrays(n: int, k: int) -> tuple[Labels, Labels]:
    """``(assigned, correct)`` integer label arrays in ``0..k-1``, about half of them right."""
    rng = np.random.default_rng([SEED, n, k, 3])
    correct = rng.integers(0, k, n)
    assigned = np.where(rng.random(n) < 0.5, correct, rng.integers(0, k, n))
    return assigned, correct


@lru_cache(maxsize=2)
def indicator_matrices(n: int, k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(assigned, correct)`` 0/1 int64 indicator matrices (as MultiLabelBinarizer makes them).

    About 10% of the cells of ``correct`` are 1; ``assigned`` keeps 70% of
    them and adds about 3% false positives.
    """
    rng = np.random.default_rng([SEED, n, k, 4])
    correct = rng.random((n, k)) < 0.10
    assigned = (correct & (rng.random((n, k)) < 0.7)) | (rng.random((n, k)) < 0.03)
    return assigned.astype(np.int64), correct.astype(np.int64)


@lru_cache(maxsize=4)
def partition_labels(n: int, k: int, k_model: int | None = None) -> tuple[Labels, Labels]:
    """``(reference, model)`` integer labels: ``k`` classes, ``k_model`` clusters (default ``k``).

    The model keeps 70% of the elements in "their" cluster (class modulo the
    number of clusters) and scatters the rest, so the scores are far from 0 and 1.
    """
    clusters = k if k_model is None else k_model
    rng = np.random.default_rng([SEED, n, k, clusters, 5])
    reference = rng.integers(0, k, n)
    model = np.where(rng.random(n) < 0.7, reference % clusters, rng.integers(0, clusters, n))
    return reference, model


@lru_cache(maxsize=2)
def independent_labels(n: int, k: int) -> tuple[Labels, Labels]:
    """``(reference, model)``: ``n`` labels drawn uniformly and independently from ``0..k-1`` each.

    The table is as large as the data: with ``n = k * k`` about ``1 - 1/e``
    (63%) of the ``k * k`` cells are non-empty (630,000 at 10^6 labels, K = 1000).
    """
    rng = np.random.default_rng([SEED, n, k, 6])
    return rng.integers(0, k, n), rng.integers(0, k, n)


def drift_single_label_codes(n: int, k: int) -> tuple[list[int], list[int]]:
    """``(assigned, correct)`` codes in ``0..k-1`` of ``n`` single-label results, about half right.

    Lists of Python ints (the drift loop indexes them one by one); not cached,
    as they are large and used once.
    """
    rng = np.random.default_rng([SEED, n, k, 7])
    correct = rng.integers(0, k, n)
    assigned = np.where(rng.random(n) < 0.5, correct, rng.integers(0, k, n))
    return assigned.tolist(), correct.tolist()


def drift_partition_stream(n: int, k: int, weighted_share: float = 0.01,
                           largest_weight: int = 10**6) -> tuple[list[int], list[int], list[int]]:
    """``(reference, model, weight)`` of ``n`` elements: ``k`` clusters a side, 70% kept (as above).

    Most weights are 1; a ``weighted_share`` of the elements carry a weight
    drawn log-uniformly from ``2..largest_weight``, so the table mixes cells
    of a few elements with cells of millions.
    """
    rng = np.random.default_rng([SEED, n, k, 8])
    reference = rng.integers(0, k, n)
    model = np.where(rng.random(n) < 0.7, reference, rng.integers(0, k, n))
    heavy = rng.random(n) < weighted_share
    weights = np.where(heavy, np.exp(rng.uniform(np.log(2), np.log(largest_weight), n)), 1)
    return reference.tolist(), model.tolist(), weights.astype(np.int64).tolist()
