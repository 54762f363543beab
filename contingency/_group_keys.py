"""Group keys: what may name a group, its JSON form, and how tables show it.

A group is a label (see :func:`contingency._labels.check_label`), or a tuple
of labels for several grouping features; numpy scalars become the Python
values they hold, so that ``np.int64(3)`` and ``3`` name one group.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from contingency._labels import check_label, label_from_json, label_to_json

__all__ = ["group_from_json", "group_key", "group_to_json", "shown"]


def group_to_json(key: Hashable, where: str = "group") -> Any:
    """A group key as JSON: a label as :func:`~contingency._labels.label_to_json` writes it, a
    tuple of labels (several features) as a list of them.

    >>> group_to_json("north"), group_to_json(("north", 3))
    ('north', ['north', 3])
    """
    if isinstance(key, tuple):
        return [label_to_json(label, where) for label in key]
    return label_to_json(key, where)


def group_from_json(value: object, where: str) -> Hashable:
    """The group key :func:`group_to_json` wrote: a label, or a tuple for a list.

    numpy scalars (a document built with numpy rather than read from JSON) are
    taken as the Python values they hold, as ``Contingency.from_dict`` takes
    them in its categories.

    >>> group_from_json(["north", 3], "groups[0]"), group_from_json(np.int64(3), "groups[1]")
    (('north', 3), 3)
    """
    if isinstance(value, list):
        return tuple(_label_from_json(item, f"{where}[{i}]") for i, item in enumerate(value))
    return _label_from_json(value, where)


def _label_from_json(value: object, where: str) -> Hashable:
    """One label of a group key read from a document, a numpy scalar as the value it holds."""
    return label_from_json(value.item() if isinstance(value, np.generic) else value, where)


def group_key(value: object, where: str) -> Hashable:
    """One group key, checked as a label is (numpy scalars become the Python values they hold);
    a tuple (several features) has each of its values checked so, naming its place.

    The one check of a group key: every path that takes a group goes through it
    (``add_result``, the batches' distinct keys, ``from_dict``), so a key taken
    can always be written by ``to_dict`` when its labels can.

    >>> group_key(("south", np.int64(2)), "group")
    ('south', 2)
    >>> group_key(("south", None), "add_result: group")
    Traceback (most recent call last):
    ...
    ValueError: add_result: group[1]: None is not a valid label
    """
    if isinstance(value, tuple):
        return tuple(_feature_value(part, f"{where}[{i}]") for i, part in enumerate(value))
    return _feature_value(value, where)


def _feature_value(value: object, where: str) -> Hashable:
    """One feature's value: a label, a numpy scalar as the Python value it holds."""
    key = check_label(value, where)
    return key.item() if isinstance(key, np.generic) else key


def shown(key: Hashable) -> str:
    """A group as tables show it: a tuple's labels joined by commas."""
    return ", ".join(map(str, key)) if isinstance(key, tuple) else str(key)
