"""The shared part of ``from_dict`` validation: the mapping, its keys, its format, labels and counts.

Each accumulator's ``from_dict`` checks its own layout with these and then
feeds the counts through its write path. Every error starts with
``from_dict: `` and names the key (and position) at fault.
"""

from __future__ import annotations

import reprlib
from collections.abc import Collection, Hashable, Mapping
from typing import Any

from contingency._labels import label_from_json
from contingency.formulas._numeric import check_count

__all__ = ["check_state", "count_from_json", "labels_from_json", "state_error"]


def state_error(message: str) -> ValueError:
    """A ``ValueError`` whose message says it comes from ``from_dict``.

    >>> state_error("cells must be a list")
    ValueError('from_dict: cells must be a list')
    """
    return ValueError(f"from_dict: {message}")


def check_state(data: object, keys: Collection[str], format: str,
                derived: Collection[str] = ()) -> Mapping[str, Any]:
    """``data`` if it is a mapping with exactly ``keys`` (``derived`` ones ignored) and ``format``.

    ``keys`` includes ``"format"``, whose value must equal ``format``. Keys in
    ``derived`` (values a reader may have added, recomputed on loading) may
    be present or not.

    >>> state = check_state({"format": "f/1", "cells": []}, {"format", "cells"}, "f/1")
    >>> check_state({"format": "f/1"}, {"format", "cells"}, "f/1")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: missing keys ['cells']
    >>> check_state({"format": "f/2", "cells": []}, {"format", "cells"}, "f/1")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: format must be 'f/1', not 'f/2'
    >>> check_state([], {"format"}, "f/1")
    Traceback (most recent call last):
    ...
    TypeError: from_dict: needs a mapping, not list
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"from_dict: needs a mapping, not {type(data).__name__}")
    expected = set(keys)
    present = set(data) - (set(derived) - expected)
    if present != expected:
        missing, extra = sorted(expected - present), sorted(present - expected, key=str)
        raise state_error(f"missing keys {missing}" if missing else f"unknown keys {extra}")
    if not isinstance(data["format"], str) or data["format"] != format:
        raise state_error(f"format must be {format!r}, not {reprlib.repr(data['format'])}")
    return data


def labels_from_json(values: object, name: str) -> list[Hashable]:
    """The labels of a JSON list, none repeated, each read by :func:`label_from_json`.

    >>> labels_from_json(["x", 1], "model_labels")
    ['x', 1]
    >>> labels_from_json(["x", "x"], "model_labels")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: model_labels has a repeated label ('x')
    """
    if not isinstance(values, list):
        raise state_error(f"{name} must be a list")
    labels = [label_from_json(value, f"from_dict: {name}[{i}]") for i, value in enumerate(values)]
    seen: set[Hashable] = set()
    for label in labels:  # 1, 1.0 and True are one label, as dictionary keys are
        if label in seen:
            raise state_error(f"{name} has a repeated label ({label!r})")
        seen.add(label)
    return labels


def count_from_json(value: object, name: str) -> int:
    """A count read from JSON: an exact non-negative integer.

    >>> count_from_json(3, "cells[0]")
    3
    >>> count_from_json(2.0, "cells[0]")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: cells[0] must be a non-negative integer count, not 2.0
    """
    return check_count(value, f"from_dict: {name}")
