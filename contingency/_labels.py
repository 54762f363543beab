"""Labels: what may name a category or a cluster, and how labels cross JSON.

A label is any hashable value except ``None`` and NaN: ``None`` usually means
a missing value upstream, and NaN is not equal to itself, so it could never be
found again in a table. Both are refused with an error that names the argument.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Hashable
from typing import Any

import numpy as np

__all__ = ["check_label", "label_from_json", "label_to_json"]


def check_label(label: object, where: str) -> Hashable:
    """Return ``label`` if it can name a category or cluster, else raise naming ``where``.

    >>> check_label("cat", "assigned")
    'cat'
    >>> check_label(None, "correct[2]")
    Traceback (most recent call last):
    ...
    ValueError: correct[2]: None is not a valid label
    >>> check_label(["a"], "assigned")
    Traceback (most recent call last):
    ...
    TypeError: assigned: label ['a'] is unhashable (type list)
    """
    if label is None:
        raise ValueError(f"{where}: None is not a valid label")
    try:
        hash(label)
    except TypeError:
        raise TypeError(
            f"{where}: label {label!r} is unhashable (type {type(label).__name__})"
        ) from None
    if isinstance(label, (float, np.floating)) and math.isnan(label):
        raise ValueError(f"{where}: NaN is not a valid label (it is not equal to itself)")
    return label


def label_to_json(label: Hashable, where: str = "label") -> Any:
    """A JSON value for ``label``: str, int, float and bool pass (numpy scalars become Python ones).

    >>> label_to_json("x"), label_to_json(np.int64(3))
    ('x', 3)
    >>> label_to_json(("a", 1))
    Traceback (most recent call last):
    ...
    ValueError: label ('a', 1) cannot be written to JSON: to_dict supports str, int, float and bool labels
    """
    if isinstance(label, np.generic):
        label = label.item()
    if isinstance(label, (str, bool, numbers.Integral)):
        return label if isinstance(label, (str, bool)) else int(label)
    if isinstance(label, float) and math.isfinite(label):
        return label
    raise ValueError(
        f"{where} {label!r} cannot be written to JSON: "
        "to_dict supports str, int, float and bool labels"
    )


def label_from_json(value: object, where: str) -> Hashable:
    """The label a JSON value stands for; refuses anything :func:`label_to_json` never writes."""
    if isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    raise ValueError(f"{where}: {reprlib.repr(value)} is not a label to_dict writes (str, int, float, "
                     "bool)")
