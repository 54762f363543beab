"""The shared part of ``from_dict`` validation: the mapping, its keys, its format, labels and counts.

Each accumulator's ``from_dict`` checks its own layout with these and then
feeds the counts through its write path. Every error starts with
``from_dict: `` and names the key (and position) at fault. A list of labels
or counts of the commonest types is checked in bulk (:func:`plain_counts`),
and read value by value only when that check fails, by the same rule.
"""

from __future__ import annotations

import numbers
from collections.abc import Collection, Hashable, Mapping
from typing import Any

import numpy as np

from contingency._labels import label_from_json
from contingency.formulas._numeric import MAX_DIGITS, check_count, fits_digits, shown

__all__ = ["check_state", "count_from_json", "counts_from_json", "labels_from_json", "plain_counts",
           "state_error"]

_INT = frozenset({int})
_STR = frozenset({str})
_LIMIT = 10**MAX_DIGITS  # an integer of at most MAX_DIGITS digits is below it in magnitude


def state_error(message: str) -> ValueError:
    """A ``ValueError`` whose message says it comes from ``from_dict``.

    >>> state_error("cells must be a list")
    ValueError('from_dict: cells must be a list')
    """
    return ValueError(f"from_dict: {message}")


def check_state(data: object, keys: Collection[str], format: str,
                derived: Collection[str] = (), *,
                earlier: Mapping[str, str | None] | None = None) -> Mapping[str, Any]:
    """``data`` if it is a mapping in ``format`` (or a readable earlier one) with exactly ``keys``.

    ``keys`` includes ``"format"``. Keys in ``derived`` (values a reader may
    have added, recomputed on loading) may be present or not. ``earlier``
    maps each format an earlier release wrote to ``None`` when its documents
    are read with the same ``keys`` (the caller reads ``data["format"]`` if
    it must tell them apart), or to the reason they are refused, which the
    error gives with the format's name. The format is checked before the
    keys, so that a document of another version is named as such.

    >>> state = check_state({"format": "f/2", "cells": []}, {"format", "cells"}, "f/2")
    >>> check_state({"format": "f/2"}, {"format", "cells"}, "f/2")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: missing keys ['cells']
    >>> check_state({"format": "f/3", "cells": []}, {"format", "cells"}, "f/2")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: format must be 'f/2', not 'f/3'
    >>> check_state({"format": "f/1", "cells": []}, {"format", "cells"}, "f/2",
    ...             earlier={"f/1": "its cells were counted twice"})
    Traceback (most recent call last):
    ...
    ValueError: from_dict: format 'f/1' (contingency 0.1.0.dev0) is not read: its cells were counted twice
    >>> check_state([], {"format"}, "f/2")
    Traceback (most recent call last):
    ...
    TypeError: from_dict: needs a mapping, not list
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"from_dict: needs a mapping, not {type(data).__name__}")
    earlier = earlier or {}
    version = data.get("format")
    # isinstance first: a numpy array would compare item by item
    if "format" in data and (not isinstance(version, str) or version != format):
        if not isinstance(version, str) or version not in earlier:
            text = repr(version) if isinstance(version, str) and len(version) < 200 else (
                shown(version))  # bounded: any value may stand here
            raise state_error(f"format must be {format!r}, not {text}")
        reason = earlier[version]
        if reason is not None:
            raise state_error(f"format {version!r} (contingency 0.1.0.dev0) is not read: {reason}")
    expected = set(keys)
    present = set(data) - (set(derived) - expected)
    if present != expected:
        missing, extra = sorted(expected - present), sorted(present - expected, key=str)
        raise state_error(f"missing keys {missing}" if missing else f"unknown keys {extra}")
    return data


def labels_from_json(values: object, name: str) -> list[Hashable]:
    """The labels of a JSON list, none repeated, each read by :func:`label_from_json`.

    numpy scalars (a document built with numpy rather than read from JSON)
    are taken as the Python values they hold.

    >>> labels_from_json(["x", 1, np.int64(2)], "model_labels")
    ['x', 1, 2]
    >>> labels_from_json(["x", "x"], "model_labels")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: model_labels has a repeated label ('x')
    """
    # Every str is a label: the commonest list, checked in bulk (a repeat is named below).
    if type(values) is list and _STR.issuperset(map(type, values)) and len(set(values)) == len(values):
        return list(values)
    if not isinstance(values, list):
        raise state_error(f"{name} must be a list")
    labels = [label_from_json(value.item() if isinstance(value, np.generic) else value,
                              f"from_dict: {name}[{i}]") for i, value in enumerate(values)]
    seen: set[Hashable] = set()
    for label in labels:  # 1, 1.0 and True are one label, as dictionary keys are
        if label in seen:
            raise state_error(f"{name} has a repeated label ({shown(label)})")
        seen.add(label)
    return labels


def count_from_json(value: object, name: str, *, signed: bool = False) -> int:
    """A count read from JSON: an exact non-negative integer (any integer if ``signed``).

    The one rule for every integer of a document: Python and numpy integers
    are accepted alike, bools and floats (even ``2.0``) are refused, and so
    are integers of more than :data:`~contingency.formulas._numeric.MAX_DIGITS`
    digits (which Python may refuse to print), before any check prints one.

    >>> count_from_json(3, "cells[0]"), count_from_json(np.int64(3), "cells[0]")
    (3, 3)
    >>> count_from_json(2.0, "cells[0]")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: cells[0] must be a non-negative integer count, not 2.0
    >>> count_from_json(np.int32(-2), "micro_offset[1]", signed=True)
    -2
    >>> count_from_json(True, "micro_offset[1]", signed=True)
    Traceback (most recent call last):
    ...
    ValueError: from_dict: micro_offset[1] must be an integer, not True
    >>> count_from_json(-(10**5000), "micro_offset[0]", signed=True)
    Traceback (most recent call last):
    ...
    ValueError: from_dict: micro_offset[0] must have at most 640 digits, not an integer of 5001 digits
    """
    if type(value) is int and (signed or value >= 0) and fits_digits(value):
        return value  # (the commonest count, taken before any message is made)
    if not signed:
        return check_count(value, f"from_dict: {name}")
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        count = int(value)
        if fits_digits(count):
            return count
        raise state_error(f"{name} must have at most {MAX_DIGITS} digits, not {shown(count)}")
    raise state_error(f"{name} must be an integer, not {shown(value)}")


def plain_counts(values: list[Any], *, signed: bool = False) -> bool:
    """Whether :func:`count_from_json` takes every value of ``values`` as it is: its rule for
    ``int`` values, checked in bulk (a type test over the list, its least and greatest value).

    ``False`` leaves the list to :func:`counts_from_json`, which names the value at fault or
    takes values of other types (numpy integers).

    >>> plain_counts([0, 3, 2]), plain_counts([0, -1]), plain_counts([0, -1], signed=True)
    (True, False, True)
    >>> plain_counts([1, np.int64(2)]), plain_counts([True]), plain_counts([10**700])
    (False, False, False)
    """
    if not _INT.issuperset(map(type, values)):
        return False
    if not values:
        return True
    low, high = min(values), max(values)  # (fits_digits, inline)
    return (low >= 0 or (signed and low > -_LIMIT)) and high < _LIMIT


def counts_from_json(values: list[Any], name: str, *, signed: bool = False) -> list[int]:
    """The counts of the list ``values`` (``name``), each read by :func:`count_from_json`.

    ``values`` itself when :func:`plain_counts` takes them in bulk; else one
    by one, the first refused named by its index.

    >>> counts_from_json([1, np.int64(2)], "a")
    [1, 2]
    >>> counts_from_json([1, 2, -1], "a")
    Traceback (most recent call last):
    ...
    ValueError: from_dict: a[2] must be a non-negative integer count, not -1
    """
    if plain_counts(values, signed=signed):
        return values
    return [count_from_json(value, f"{name}[{i}]", signed=signed)
            for i, value in enumerate(values)]
