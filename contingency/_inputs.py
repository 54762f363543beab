"""Batch inputs shaped and checked: label sequences, lengths, weights, indicator matrices, subsets.

Every check raises before anything is counted, with a message naming the
argument (and the position, ``weights[3]``), so an accumulator fed a bad
batch is left as it was.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from contingency._coding import CodedLabels
from contingency._containers import library_labels
from contingency._labels import check_label
from contingency.formulas._numeric import (
    INT64_MAX,
    INT64_SAFE,
    MAX_COUNT,
    MAX_SCALE,
    check_count,
    shown,
)

__all__ = ["are_disjoint", "check_same_length", "check_weights", "exact_weight", "exact_weights",
           "indicator_matrix", "indicator_rows", "label_sequence", "partition_subsets"]

#: Weights in int64 keep every sum below INT64_SAFE: their bits and the length's below this.
_SAFE_BITS = INT64_SAFE.bit_length() - 1
#: What :func:`label_sequence` gives: a 1-d array, or a list or tuple.
Labels = NDArray[Any] | Sequence[Any]


def label_sequence(values: object, name: str, items: str = "labels") -> Labels:
    """``values`` as a sequence of labels: a 1-d numpy array or list or tuple is kept, other iterables listed.

    A pandas Series, Index or extension array, or an Arrow Array or
    ChunkedArray, is read by its own library, without a Python-level pass
    where it allows (see :func:`contingency._containers.library_labels`):
    codes and distinct labels (:class:`~contingency._coding.CodedLabels`), a
    numpy array or a list; a missing value in it raises, naming its position.

    A string, bytes, a mapping, a non-iterable or an array of another
    dimension is refused, naming ``name`` (and what its ``items`` are, for
    callers whose items are not single labels):

    >>> label_sequence(iter("ab"), "reference_labels")
    ['a', 'b']
    >>> label_sequence("ab", "reference_labels")
    Traceback (most recent call last):
    ...
    TypeError: reference_labels must be a sequence of labels, not str
    >>> label_sequence(np.zeros((2, 2)), "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true must be one-dimensional, not 2-dimensional
    """
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, not {values.ndim}-dimensional")
        return values
    if isinstance(values, (list, tuple, CodedLabels)):
        return values
    held = library_labels(values, name)
    if held is not None:
        return held
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of {items}, not {type(values).__name__}")
    return list(values)


def indicator_rows(values: object) -> NDArray[Any] | None:
    """``values`` as a 2-d array if it is a list or tuple of equal-length rows of 0 and 1, else ``None``.

    scikit-learn's reading of such a list (``type_of_target``'s
    ``"multilabel-indicator"``): an indicator matrix, one column per
    category, when the rows have at least two columns. Ragged rows, rows of
    other values and rows of one column are not (they are label sets here;
    scikit-learn reads one column as a column of labels, which names the same
    categories).

    >>> indicator_rows([[1, 0, 1], [0, 1, 0]]).tolist()
    [[1, 0, 1], [0, 1, 0]]
    >>> indicator_rows([[1, 0], [1]]), indicator_rows([["a", "b"], ["c", "d"]]), indicator_rows([[2, 1]])
    (None, None, None)
    """
    if not isinstance(values, (list, tuple)) or not values:
        return None
    first = values[0]
    if not isinstance(first, (list, tuple)) or len(first) < 2:
        return None
    try:
        array = np.asarray(values)
    except ValueError:  # ragged rows
        return None
    if array.ndim != 2 or array.dtype.kind not in "biu":
        return None
    if ((array != 0) & (array != 1)).any():
        return None
    return array


def check_same_length(first: Labels, second: Labels, names: tuple[str, str]) -> int:
    """The common length of two sequences, or ``ValueError`` naming both.

    >>> check_same_length([1, 2], [3], ("y_true", "y_pred"))
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths (2 and 1)
    """
    if len(first) != len(second):
        raise ValueError(f"{names[0]} and {names[1]} have different lengths "
                         f"({len(first)} and {len(second)})")
    return len(first)


def check_weights(weights: object, size: int, where: str, name: str = "weights"
                  ) -> NDArray[Any] | None:
    """Non-negative integer multiplicities, one per label: int64, or Python ints when large.

    :func:`exact_weights` with ``whole=True``, for
    :class:`~contingency.PartitionComparison`'s elements (every batch path of
    it counts through here): ``None`` stays ``None`` (every weight 1); a float
    with a whole value (Python or numpy, in a list or a float array, such as a
    pandas count column) counts as that integer, as :class:`~contingency.Contingency`
    and :class:`~contingency.PairedComparison` take it; a fractional float or
    any other number that is not an integer raises ``TypeError``, since a pair
    of fractional elements has no meaning. The result is int64 when no sum of
    the weights can overflow it, else an object array of Python ints. Errors
    name the argument ``name`` (``sample_weight`` for a ``from_labels``).

    >>> check_weights([2, 1], 2, "add_many").tolist()
    [2, 1]
    >>> check_weights(np.array([3.0, 1.0]), 2, "add_many").tolist()
    [3, 1]
    >>> check_weights([1, 0.5], 2, "add_many")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: add_many: weights[1] is 0.5, not an integer: ... fractional elements has no meaning)
    >>> check_weights([1, -1], 2, "add_many")
    Traceback (most recent call last):
    ...
    ValueError: add_many: weights[1] must be a non-negative integer count, not -1
    >>> check_weights("12", 2, "add_many")
    Traceback (most recent call last):
    ...
    TypeError: add_many: weights must be a sequence of integer counts, not str
    """
    if weights is None:
        return None
    return exact_weights(weights, size, where, whole=True, name=name)[0]


def exact_weight(value: object, name: str) -> tuple[int, int]:
    """A weight as ``(m, k)``, exactly ``m * 2**-k`` with ``k >= 0`` as small as it can be.

    Integers (Python or numpy) and finite non-negative floats (Python or
    numpy) up to ``2**63 - 1`` (:data:`~contingency.formulas._numeric.MAX_COUNT`:
    no accumulator could count more) are taken; bools (a mask or a weight?),
    NaN, infinities, negative numbers, larger numbers, other types
    (``Fraction``, ``Decimal``: convert them) and weights finer than
    ``2**-MAX_SCALE`` are refused with an error naming ``name``.

    >>> exact_weight(3, "weight"), exact_weight(0.75, "weight"), exact_weight(np.float32(0.1), "w")
    ((3, 0), (3, 2), (13421773, 27))
    >>> exact_weight(float("nan"), "add_result: weight")
    Traceback (most recent call last):
    ...
    ValueError: add_result: weight must be a finite non-negative number, not nan
    >>> exact_weight(True, "weights[2]")
    Traceback (most recent call last):
    ...
    TypeError: weights[2] must be a number, not a bool (True)
    >>> exact_weight(10**5000, "add_result: weight")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: add_result: weight = an integer of 5001 digits is past the count limit: ...
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, not a bool ({value!r})")
    if isinstance(value, numbers.Integral):
        whole = int(value)
        if 0 <= whole <= MAX_COUNT:
            return whole, 0
        if whole > MAX_COUNT:
            raise _past_limit(whole, name)
    elif isinstance(value, (float, np.floating)):
        number = float(value)
        if number != value and not math.isnan(number):  # a longdouble float64 cannot hold
            raise ValueError(f"{name} = {value!r} is not exactly a float64")
        if math.isfinite(number) and number >= 0:
            if number > MAX_COUNT:
                raise _past_limit(number, name)
            numerator, denominator = number.as_integer_ratio()
            k = denominator.bit_length() - 1
            if k > MAX_SCALE:
                raise ValueError(f"{name} = {value!r} needs a unit of 2**-{k}; weights are "
                                 f"counted exactly in units down to 2**-{MAX_SCALE}")
            return numerator, k
    else:
        raise TypeError(f"{name} must be a number (an int or a float), not "
                        f"{type(value).__name__}")
    raise ValueError(f"{name} must be a finite non-negative number, not {shown(value)}")


def _past_limit(value: float, name: str) -> ValueError:
    return ValueError(f"{name} = {shown(value)} is past the count limit: a weight is at most "
                      "2**63 - 1")


def _whole_weight(value: object, name: str) -> int:
    """One multiplicity of whole elements (``exact_weights(..., whole=True)``), checked: an
    integer, or a float with a whole value (``2.0``, what a pandas count column holds), as a
    :class:`~contingency.Contingency` takes it."""
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if math.isfinite(number) and number >= 0 and not number.is_integer():
            raise TypeError(f"{name} is {shown(value)}, not an integer: {_WHOLE_ELEMENTS}")
        return exact_weight(value, name)[0]  # NaN, infinities, negatives, the limit: by name
    if (type(value) is not int and isinstance(value, numbers.Number)
            and not isinstance(value, numbers.Integral)):  # refused as a fraction, not as a count
        raise TypeError(f"{name} is {shown(value)}, not an integer: {_WHOLE_ELEMENTS}")
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) > MAX_COUNT:
        raise _past_limit(int(value), name)
    return check_count(value, name)


#: The types of list items read as one int64 array: ``np.array(..., dtype=np.int64)`` holds
#: each exactly (or raises OverflowError for a Python int past int64). Not uint64, nor bool.
_INTEGER_TYPES = frozenset({int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                            np.uint32})
#: The types of list items read as one float64 array, exactly.
_FLOAT_TYPES = frozenset({float, np.float16, np.float32, np.float64})


def _weight_array(weights: object, where: str, whole: bool, name: str = "weights") -> NDArray[Any]:
    """Weights as one 1-d array without rounding any of them.

    A list (or tuple, or other iterable) becomes an int64 array when its items
    are all integers, a float64 array when they are all floats, and otherwise
    an object array of the items as they are, read one by one later: numpy
    would turn ``[2**60 + 1, 0.5]`` into floats and round the first.
    """
    if isinstance(weights, np.ndarray):
        if weights.ndim != 1:
            raise ValueError(f"{where}: {name} must be one-dimensional, not "
                             f"{weights.ndim}-dimensional")
        return weights
    if isinstance(weights, (str, bytes, Mapping)) or not isinstance(weights, Iterable):
        raise TypeError(f"{where}: {name} must be a sequence of "
                        f"{'integer counts' if whole else 'numbers'}, not "
                        f"{type(weights).__name__}")
    values = weights if isinstance(weights, (list, tuple)) else list(weights)
    types = set(map(type, values))
    if types <= _INTEGER_TYPES:
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:  # a Python int past int64: read one by one
            pass
    elif types <= _FLOAT_TYPES:
        return np.array(values, dtype=np.float64)
    mixed = np.empty(len(values), dtype=object)
    mixed[:] = values
    return mixed


def exact_weights(weights: object, size: int, where: str, unit: int = 0, *,
                  whole: bool = False, name: str = "weights") -> tuple[NDArray[Any], int]:
    """One weight per result as integers ``W`` in units of ``2**-e``: ``(W, e)``, ``e >= unit`` least.

    The one conversion of a batch's weights, for every batch path (lists,
    label arrays, indicator matrices, :meth:`~contingency.Contingency.from_labels`,
    :mod:`contingency.dask`, and with ``whole=True`` every path of
    :class:`~contingency.PartitionComparison`). ``weights[i] == W[i] * 2**-e``
    exactly, for every item :func:`exact_weight` takes: a numpy integer or
    float array, or a list or tuple of Python or numpy ints and floats, mixed
    or not (a mixed list is read item by item, never through a float array).
    ``W`` is int64 when no sum of its items can pass ``2**62``, else an object
    array of Python ints. Float arrays are split into exact mantissas and
    exponents with ``np.frexp``, without a Python loop. Errors are those of
    :func:`exact_weight` (with ``whole=True``: whole numbers only, a fractional
    float refused with ``TypeError``), naming ``where: weights[i]`` (``name`` for ``weights``, as
    the caller's argument is called); the length must be ``size``.

    >>> w, e = exact_weights([0.5, 2, 0.25], 3, "add_results")
    >>> w.tolist(), e
    ([2, 8, 1], 2)
    >>> w, e = exact_weights([2**60 + 1, 0.5], 2, "add_results")
    >>> w.tolist(), e
    ([2305843009213693954, 1], 1)
    >>> exact_weights(np.array([1.0, -1.0]), 2, "add_results")
    Traceback (most recent call last):
    ...
    ValueError: add_results: weights[1] must be a finite non-negative number, not -1.0
    """
    array = _weight_array(weights, where, whole, name)
    if len(array) != size:
        raise ValueError(f"{where}: {name} has {len(array)} items but there are {size} "
                         f"{'labels' if whole else 'results'}")
    one = _whole_weight if whole else exact_weight
    kind = array.dtype.kind
    if kind == "b" and not whole:
        raise TypeError(f"{where}: {name} must be numbers, not booleans")
    if kind in "iu" and not (kind == "u" and array.size and int(array.max()) > INT64_MAX):
        if array.size and int(array.min()) < 0:
            first = int(np.flatnonzero(array < 0)[0])
            one(array[first].item(), f"{where}: {name}[{first}]")
        mantissas = array.astype(np.int64)
        shifts = np.zeros(len(array), dtype=np.int64)
        top = int(mantissas.max()).bit_length() if array.size else 0
    elif kind == "f" and array.dtype.itemsize <= 8:
        numbers_ = array.astype(np.float64)
        bad = ~np.isfinite(numbers_) | (numbers_ < 0) | (numbers_ > MAX_COUNT)
        if whole:  # whole-valued floats are counts; the first fractional one is refused
            bad |= numbers_ != np.floor(numbers_)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            one(array[first].item(), f"{where}: {name}[{first}]")
        fraction, exponent = np.frexp(numbers_)  # numbers_ = fraction * 2**exponent
        mantissas = (fraction * 2.0**53).astype(np.int64)  # exact: 53 bits
        lowest = mantissas & -mantissas
        trailing = np.frexp(lowest.astype(np.float64))[1] - 1  # log2 of a power of two
        zero = mantissas == 0
        mantissas >>= np.where(zero, 0, trailing)
        shifts = np.where(zero, 0, 53 - exponent.astype(np.int64) - trailing)
        if shifts.size and int(shifts.max()) > MAX_SCALE:
            first = int(np.argmax(shifts))
            exact_weight(array[first].item(), f"{where}: {name}[{first}]")
        # A weight below 2**exponent has at most exponent + e bits in units of 2**-e.
        top = int(exponent.max()) if array.size else 0
    else:  # item by item: mixed lists, object arrays, uint64 past int64, longdouble
        pairs = [_pair(one(value, f"{where}: {name}[{i}]")) for i, value in enumerate(array)]
        e = max([unit, *(k for _, k in pairs)])
        exact = np.empty(len(pairs), dtype=object)
        exact[:] = [m << (e - k) for m, k in pairs]
        return _narrowed(exact, e)
    e = max(unit, int(shifts.max()) if shifts.size else 0)
    if top + e + max(len(array), 1).bit_length() < _SAFE_BITS:  # no sum of them reaches 2**62
        return mantissas << (e - shifts), e
    exact = np.empty(len(array), dtype=object)
    exact[:] = [m << (e - k) for m, k in zip(mantissas.tolist(), shifts.tolist())]
    return exact, e


def _pair(weight: int | tuple[int, int]) -> tuple[int, int]:
    """A whole weight ``m`` as ``(m, 0)``; an :func:`exact_weight` pair as it is."""
    return (weight, 0) if isinstance(weight, int) else weight


def _narrowed(exact: NDArray[Any], e: int) -> tuple[NDArray[Any], int]:
    """Python-int weights as int64 when no sum of them can reach ``2**62``."""
    largest = max(exact.tolist(), default=0)
    if largest.bit_length() + max(len(exact), 1).bit_length() < _SAFE_BITS:
        return exact.astype(np.int64), e
    return exact, e


_WHOLE_ELEMENTS = ("PartitionComparison counts whole elements (a pair of fractional elements "
                   "has no meaning)")


def partition_subsets(partition: object, name: str = "") -> list[list[Hashable]]:
    """A partition given as subsets (an iterable of iterables of labels), each element checked.

    Errors call it "the ``name`` partition" ("the first partition"), or "the
    partition" when ``name`` is empty (a routine that takes one partition).

    >>> partition_subsets([["a", "b"], (1,)], "first")
    [['a', 'b'], [1]]
    >>> partition_subsets([["a"], 7], "first")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: first partition, subset 1: a subset must be an iterable of elements, not int ...
    """
    noun = f"{name} partition" if name else "partition"
    if isinstance(partition, (str, bytes)) or not isinstance(partition, Iterable):
        raise TypeError(f"the {noun} must be an iterable of subsets, "
                        f"not {type(partition).__name__}")
    subsets = []
    for index, subset in enumerate(partition):
        if isinstance(subset, (str, bytes)) or not isinstance(subset, Iterable):
            raise TypeError(f"{noun}, subset {index}: a subset must be an iterable of "
                            f"elements, not {type(subset).__name__} (wrap a single element in a "
                            "list)")
        subsets.append([check_label(element, f"{noun}, subset {index}")
                        for element in subset])
    return subsets


def are_disjoint(subsets: Iterable[Iterable[Hashable]]) -> bool:
    """True when no element occurs in two subsets (a repeat inside one subset is allowed).

    >>> are_disjoint([[1, 1, 2], [3]]), are_disjoint([[1, 2], [2]])
    (True, False)
    """
    seen: set[Hashable] = set()
    for subset in subsets:
        elements = set(subset)
        if not seen.isdisjoint(elements):
            return False
        seen |= elements
    return True


def indicator_matrix(matrix: NDArray[Any], where: str) -> NDArray[np.uint8]:
    """A checked 0/1 matrix as uint8 (bool is taken as it is, without a copy).

    >>> indicator_matrix(np.array([[1, 0], [0, 1]]), "assigned").dtype
    dtype('uint8')
    >>> indicator_matrix(np.array([[1, 0], [0, 2]]), "assigned")
    Traceback (most recent call last):
    ...
    ValueError: assigned[1, 1] is 2; an indicator matrix holds only 0 and 1
    """
    kind = matrix.dtype.kind
    if kind == "b":
        return matrix.view(np.uint8)
    if kind not in "iuf":
        raise TypeError(f"{where}: an indicator matrix holds 0 and 1, not {matrix.dtype} values")
    if kind in "iu":
        # Seen as unsigned, a negative value is huge: one pass, no temporary array.
        bad = matrix.size and matrix.view(f"u{matrix.dtype.itemsize}").max() > 1
    else:
        bad = ((matrix != 0) & (matrix != 1)).any()
    if bad:
        row, column = (int(x) for x in np.argwhere((matrix != 0) & (matrix != 1))[0])
        raise ValueError(f"{where}[{row}, {column}] is {shown(matrix[row, column].item())}; an indicator "
                         "matrix holds only 0 and 1")
    return matrix.astype(np.uint8)
