"""Labels: what may name a category or a cluster, and how labels cross JSON.

A label is any hashable value except ``None`` and values not equal to
themselves: ``None`` usually means a missing value upstream (as pandas' ``NA``
does, whose comparisons have no truth value), and a value such
as NaN (float, numpy, ``complex("nan")``, ``Decimal("NaN")``, or a tuple or
frozenset holding one) could never be found again in a table, so each
occurrence would become a new category. Both are refused, by every path
alike, with an error that names the argument. So is an integer label (or an
integer in a tuple or frozenset label) of more than
:data:`~contingency.formulas._numeric.MAX_DIGITS` digits, which Python may
refuse to print or to write to JSON.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from contingency.formulas._numeric import MAX_DIGITS, fits_digits, shown

__all__ = ["category_order", "category_places", "check_label", "equal_to_itself", "is_label",
           "label_from_json", "label_key", "label_to_json", "not_a_category", "printable",
           "sorted_labels", "unknown_pos_label"]


#: An int below this in magnitude has far fewer digits than MAX_DIGITS: check_label's fast path.
_FEW_DIGITS = 1 << 64


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
    >>> import pandas as pd
    >>> check_label(pd.NA, "add_result: group")
    Traceback (most recent call last):
    ...
    ValueError: add_result: group: a missing value (<NA>) is not a valid label
    >>> check_label(("a", 10**700), "model")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: model: ('a', an integer of 701 digits) is not a valid label (an integer label ...)
    """
    if type(label) is str:  # the commonest label: hashable, equal to itself, no integer in it
        return label
    if type(label) is int and -_FEW_DIGITS < label < _FEW_DIGITS:  # (a class index: valid)
        return label
    if label is None:
        raise ValueError(f"{where}: None is not a valid label")
    try:
        hash(label)
    except TypeError:
        raise TypeError(
            f"{where}: label {shown(label)} is unhashable (type {type(label).__name__})"
        ) from None
    if not equal_to_itself(label):
        if _has_no_truth(label):  # pandas' NA: a missing value, whose comparisons are NA
            raise ValueError(f"{where}: a missing value ({shown(label)}) is not a valid label")
        text = "NaN" if isinstance(label, (float, np.floating)) else shown(label)
        raise ValueError(f"{where}: {text} is not a valid label (it is not equal to itself)")
    if not printable(label):
        raise ValueError(f"{where}: {shown(label)} is not a valid label (an integer label has at "
                         f"most {MAX_DIGITS} digits)")
    return label



def unknown_pos_label(pos_label: object, categories: Iterable[Hashable], where: str,
                      of: str = "") -> ValueError:
    """The error of a read ``where`` whose ``pos_label`` is not one of ``categories`` (the
    categories ``of`` says: those the results name, say): every read that takes ``pos_label``
    says it alike, naming the argument, its value and the categories.

    >>> raise unknown_pos_label("z", ["a", "b"], "selection_rate")
    Traceback (most recent call last):
    ...
    ValueError: selection_rate: pos_label='z' is not a category (the categories are ['a', 'b'])
    """
    return ValueError(f"{where}: {not_a_category(f'pos_label={shown(pos_label)}', categories, of)}")


def not_a_category(subject: str, categories: Iterable[Hashable], of: str = "") -> str:
    """The text "``subject`` is not a category (the categories are [...])" of every error that
    names a label which is not one of ``categories`` (those ``of`` says: the categories the
    results name, say): ``pos_label``, a ``labels`` entry, a score's category, ``--pos-label``.
    The categories are bounded as :func:`~contingency.formulas._numeric.shown` bounds a list, so
    that a million categories do not print.

    >>> not_a_category("labels[2] = 'z'", ["a", "b"])
    "labels[2] = 'z' is not a category (the categories are ['a', 'b'])"
    >>> not_a_category("'z'", range(10**6))
    "'z' is not a category (the categories are [0, 1, 2, 3, 4, 5, ...])"
    """
    return f"{subject} is not a category{of} (the categories{of} are {shown(list(categories))})"


def is_label(label: Hashable) -> bool:
    """Whether a hashable value passes :func:`check_label` (which says why not): the fast test.

    >>> is_label("a"), is_label(None), is_label(float("nan")), is_label(10**700)
    (True, False, False, False)
    """
    return label is not None and equal_to_itself(label) and printable(label)


def printable(label: object) -> bool:
    """Whether every integer in ``label`` (itself, or a member of a tuple or frozenset) has at
    most :data:`~contingency.formulas._numeric.MAX_DIGITS` digits, so that it can be printed.

    >>> printable(10**640 - 1), printable(("a", frozenset({10**640})))
    (True, False)
    """
    if isinstance(label, int):
        return fits_digits(label)
    if isinstance(label, (tuple, frozenset)):
        return all(map(printable, label))
    return True


def equal_to_itself(label: object) -> bool:
    """Whether ``label == label``; for a tuple or frozenset, whether that holds of every member.

    Python compares containers' members by identity first, so a tuple holding
    a NaN equals itself, but not an equal tuple built again from another NaN:
    the members decide.

    >>> from decimal import Decimal
    >>> equal_to_itself(("a", 1)), equal_to_itself(Decimal("NaN")), equal_to_itself((1, float("nan")))
    (True, False, False)
    """
    if isinstance(label, (tuple, frozenset)):
        return all(map(equal_to_itself, label))
    try:
        return bool(label == label)
    except (TypeError, ValueError):  # no truth value (pandas' NA, an array): never found again
        return False


def _has_no_truth(label: object) -> bool:
    """Whether ``label == label`` has no truth value (pandas' ``NA`` is such a missing value)."""
    try:
        bool(label == label)
    except (TypeError, ValueError):
        return True
    return False


def category_order(labels: Sequence[Hashable], declared: int) -> list[Hashable]:
    """The order in which every view of a ``Contingency`` lists its categories.

    ``labels`` are the categories as the accumulator met them, its
    ``declared`` first ones declared. Declared categories keep their declared
    order and come first; the others follow in scikit-learn's order (sorted,
    as ``sklearn.utils.multiclass.unique_labels`` sorts them) when they are
    mutually orderable. When they are not (``1`` and ``"a"`` have no order;
    scikit-learn refuses such a mix) they follow :func:`label_key`'s order:
    numbers first, then by type name and value. Not the order first met: an
    order that depends on the history of the counts would differ between two
    accumulators holding the same counts, and would not survive ``to_dict``
    (which lists the categories in this order) or a merge.

    >>> category_order(["cat", 2, 1], 1), category_order([3, 1, 2], 0)
    (['cat', 1, 2], [1, 2, 3])
    >>> category_order(["b", 1, "a"], 0)
    [1, 'a', 'b']
    """
    return [*labels[:declared], *_sorted_rest(labels[declared:])]


def category_places(labels: Sequence[Hashable], declared: int) -> list[int]:
    """Where each category of :func:`category_order` is in ``labels``: the order as places
    (columns held in the order ``labels`` are met are put in the views' order by them).

    >>> category_places(["cat", 2, 1], 1), category_places(["b", 1, "a"], 0)
    ([0, 2, 1], [1, 2, 0])
    """
    rest = _sorted_rest(range(declared, len(labels)), labels.__getitem__)
    return [*range(declared), *rest]


def _sorted_rest(values: Sequence[Any], label: Callable[[Any], Hashable] | None = None
                 ) -> list[Any]:
    """The undeclared categories' rule: ``values`` sorted by their labels (``label(value)``, or
    the values themselves) when the labels are mutually orderable, else by
    :func:`label_key` (a stable sort either way)."""
    try:
        return sorted(values, key=label)  # type: ignore[arg-type]  # orderable, or TypeError
    except TypeError:
        return sorted(values, key=label_key if label is None
                      else lambda value: label_key(label(value)))


def sorted_labels(labels: Iterable[Hashable]) -> list[Hashable]:
    """Labels in a stable order, the same in every run: sorted, by :func:`label_key` when types mix.

    >>> sorted_labels(["b", 2, "a", 1.5])
    [1.5, 2, 'a', 'b']
    """
    values = list(labels)
    types = set(map(type, values))
    if types <= {str} or all(issubclass(kind, numbers.Real) for kind in types):
        return sorted(values)  # type: ignore[type-var]  # the common cases, at C speed
    return sorted(values, key=label_key)


def label_key(label: object) -> tuple[int, str, Any]:
    """A sort key for labels of any types that does not depend on the hash seed.

    Numbers first, by value; then by type name, and within a type strings and
    bytes by value, tuples by their members' keys, frozensets by their sorted
    members' keys (their ``repr`` follows the hash seed), anything else by
    ``repr``. Third parts are compared only within one type name. A string
    is a ``str`` whatever its class (``numpy.str_`` too, which equals the
    ``str`` of the same text), and likewise ``bytes``.

    >>> sorted([("a", 10), "b", 3, b"z", ("a", 2), 0.5], key=label_key)
    [0.5, 3, b'z', 'b', ('a', 2), ('a', 10)]
    >>> label_key(np.str_("a")) == label_key("a")
    True
    """
    if isinstance(label, numbers.Real):
        return (0, "", label)
    if isinstance(label, str):
        return (1, "str", label)
    if isinstance(label, bytes):
        return (1, "bytes", label)
    if isinstance(label, tuple):
        return (1, type(label).__name__, tuple(map(label_key, label)))
    if isinstance(label, frozenset):
        return (1, type(label).__name__, tuple(sorted(map(label_key, label))))
    return (1, type(label).__name__, repr(label))


def label_to_json(label: Hashable, where: str = "label") -> Any:
    """A JSON value for ``label``: str, int, float and bool pass (numpy scalars become Python ones).

    >>> label_to_json("x"), label_to_json(np.int64(3))
    ('x', 3)
    >>> label_to_json(("a", 1))
    Traceback (most recent call last):
    ...
    ValueError: label ('a', 1) cannot be written to JSON: to_dict supports str, int, float and bool labels
    """
    kind = type(label)
    if kind is str or kind is int or kind is bool:  # (the commonest, without the ABC checks)
        return label
    if isinstance(label, np.generic):
        label = label.item()
    if isinstance(label, (str, bool, numbers.Integral)):
        return label if isinstance(label, (str, bool)) else int(label)
    if isinstance(label, float) and math.isfinite(label):
        return label
    raise ValueError(
        f"{where} {shown(label)} cannot be written to JSON: "
        "to_dict supports str, int, float and bool labels"
    )


def label_from_json(value: object, where: str) -> Hashable:
    """The label a JSON value stands for; refuses anything :func:`label_to_json` never writes.

    >>> label_from_json(10**700, "from_dict: categories[0]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: from_dict: categories[0]: an integer of 701 digits is not a valid label ...
    """
    if isinstance(value, (str, bool)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    if isinstance(value, int):
        return check_label(value, where)
    raise ValueError(f"{where}: {shown(value)} is not a label to_dict writes (str, int, float, "
                     "bool)")
