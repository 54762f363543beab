"""Regenerate the bundled example ``contingency/examples/digits.csv`` from scikit-learn's digits.

Run from the repository root with scikit-learn installed (it is in the ``test``
extra; the package itself never imports it)::

    python scripts/make_example_data.py

The data: scikit-learn's bundled copy of the test set of the UCI "Optical
Recognition of Handwritten Digits" data (E. Alpaydin, C. Kaynak, 1998), 1797
8x8 images, loaded offline with ``sklearn.datasets.load_digits``. Every row of
the output is one image, with

- ``image``: its position in ``load_digits()``;
- ``digit`` and ``predicted``: the true digit and the one a Gaussian naive Bayes
  classifier predicted for it when it was held out (5-fold stratified cross-
  validation, so every prediction is made by a model that did not see the image);
- ``tags`` and ``predicted_tags``: a multi-label task derived from the digit by a
  fixed rule, each digit tagged ``even`` (0, 2, 4, 6, 8), ``prime`` (2, 3, 5, 7)
  and ``large`` (greater than 4), several tags joined with ``|`` and an empty
  cell for none (the digit 1); the predictions come from one logistic
  regression per tag (on standardised pixels), held out in the same folds;
- ``cluster``: the cluster k-means (10 clusters) put the image in;
- ``p0`` ... ``p9``: the probability of each digit by a multinomial logistic
  regression on standardised pixels, held out in the same folds
  (``cross_val_predict(..., method="predict_proba")``), written to
  :data:`DECIMALS` decimals, trailing zeros dropped (so a row sums to 1 within
  ``5e-4``): the scores of
  the curves' example (docs/threshold.md).

Everything is deterministic (fixed seeds; naive Bayes and lbfgs draw no random numbers), so a
rerun with the same scikit-learn writes the same bytes.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.multioutput import MultiOutputClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

OUTPUT = Path(__file__).resolve().parent.parent / "contingency" / "examples" / "digits.csv"
#: The rule of the multi-label task: tag name -> the digits that carry it.
TAGS = {"even": {0, 2, 4, 6, 8}, "prime": {2, 3, 5, 7}, "large": {5, 6, 7, 8, 9}}
#: The decimals of the written probabilities (the file stays small; ties become possible).
DECIMALS = 4


def tag_matrix(digits: np.ndarray) -> np.ndarray:
    """One 0/1 column per tag of :data:`TAGS`, one row per digit."""
    return np.array([[int(int(d) in members) for members in TAGS.values()] for d in digits])


def tag_cell(row: np.ndarray) -> str:
    return "|".join(name for name, flag in zip(TAGS, row) if flag)


def probability_cell(probability: float) -> str:
    """A probability to :data:`DECIMALS` decimals, trailing zeros dropped (``0.0000`` as ``0``)."""
    return f"{probability:.{DECIMALS}f}".rstrip("0").rstrip(".")


def main() -> None:
    data, digits = load_digits(return_X_y=True)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    predicted = cross_val_predict(GaussianNB(), data, digits, cv=folds)
    true_tags = tag_matrix(digits)
    # The same folds for the tags (the stratification is by digit, so every fold sees each tag).
    split = list(folds.split(data, digits))
    per_tag = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    predicted_tags = cross_val_predict(MultiOutputClassifier(per_tag), data, true_tags, cv=split)
    clusters = KMeans(n_clusters=10, n_init=10, random_state=0).fit_predict(data)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    probabilities = cross_val_predict(model, data, digits, cv=split, method="predict_proba")
    with OUTPUT.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["image", "digit", "predicted", "tags", "predicted_tags", "cluster",
                         *(f"p{digit}" for digit in range(10))])
        for image in range(len(digits)):
            writer.writerow([image, digits[image], predicted[image], tag_cell(true_tags[image]),
                             tag_cell(predicted_tags[image]), clusters[image],
                             *(probability_cell(p) for p in probabilities[image])])
    print(f"wrote {len(digits)} rows to {OUTPUT}")


if __name__ == "__main__":
    main()
