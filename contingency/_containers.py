"""pandas and Arrow containers of labels made into what the batch paths take, coded by their own library.

Neither library is imported by ``import contingency``: an object is
recognised through the library's entry in ``sys.modules`` (an object of a
library implies the library is imported), so nothing here imports anything.

What :func:`library_labels` makes of each container, without a Python-level
pass over its items where the container allows it:

- a pandas categorical (Series, Index or ``Categorical``): its codes and the
  categories they use, in the categories' order;
- a pandas Series or Index of numpy numbers or booleans: its numpy array
  (no copy), which :func:`contingency._coding.encode` codes as any array;
- a pandas Series, Index or array of Python objects held in numpy (object
  dtype, the string dtype's ``python`` storage): the codes and distinct
  values ``pandas.factorize`` gives, made by
  :func:`~contingency._coding.code_objects` (one pass in C, faster than
  pandas' hash table; factorize codes one holding a missing value or a set
  of labels);
- any other pandas Series, Index or extension array (the string dtype's
  ``pyarrow`` storage, nullable integers, dates...): the codes and
  distinct values of ``pandas.factorize``, in order of first occurrence;
- an Arrow ``Array`` or ``ChunkedArray`` of strings or binaries: the codes of
  its ``dictionary_encode`` (order of first occurrence); of dictionary type:
  its indices and the dictionary entries they use (the dictionary's order);
  of numbers or booleans: its numpy array; of any other type: its Python
  values (``to_pylist``).

Codes come back as :class:`~contingency._coding.CodedLabels` whose labels are
Python objects (``str``, ``int``...: never Arrow scalars, nor numpy scalars
unless an object container holds them so), so they compare and hash as the
same labels given in a list do. A missing value
(``None``, NaN, ``NA``, ``NaT``, an Arrow null) is refused with an error naming
the argument and the position. A container holding sets of labels (tuples,
lists: what :class:`~contingency.Contingency` reads as multi-label results)
gives its items as a list, read as the same list would be.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from contingency import _coding  # (its code_objects is chosen at import: read it there)
from contingency._coding import CodedLabels, Codes, check_distinct, dense_is_cheaper
from contingency._labels import check_label

__all__ = ["library_labels"]

#: Arrow types whose values are coded by ``dictionary_encode``.
_ARROW_STRINGS = ("is_string", "is_large_string", "is_binary", "is_large_binary",
                  "is_string_view", "is_binary_view")
#: Arrow types whose values numpy holds as they are.
_ARROW_NUMBERS = ("is_integer", "is_floating", "is_boolean")


def library_labels(values: object, name: str) -> CodedLabels | np.ndarray | list[Any] | None:
    """The labels of a pandas or Arrow container (see the module's docstring); ``None`` for other objects.

    >>> library_labels([1, 2], "y_true") is None
    True
    """
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(values, (pandas.Series, pandas.Index,
                                                  pandas.api.extensions.ExtensionArray)):
        return _pandas_labels(values, name, pandas)
    if pandas is not None and isinstance(values, pandas.DataFrame):
        raise ValueError(f"{name} must be one-dimensional, not a DataFrame (pass one of its "
                         "columns)")
    arrow = sys.modules.get("pyarrow")
    if arrow is not None and isinstance(values, (arrow.Array, arrow.ChunkedArray)):
        return _arrow_labels(values, name, arrow)
    if arrow is not None and isinstance(values, (arrow.Table, arrow.RecordBatch)):
        raise ValueError(f"{name} must be one-dimensional, not an Arrow {type(values).__name__} "
                         "(pass one of its columns)")
    return None


def _pandas_labels(values: Any, name: str, pandas: Any) -> CodedLabels | np.ndarray | list[Any]:
    """A pandas Series, Index or extension array: categorical codes, numpy numbers or factorize's codes."""
    array = values.array if isinstance(values, (pandas.Series, pandas.Index)) else values
    dtype = values.dtype
    if isinstance(array, pandas.Categorical):
        codes, distinct = np.asarray(array.codes), array.categories
    elif isinstance(dtype, np.dtype) and dtype.kind in "iufb":
        return values.to_numpy()  # type: ignore[no-any-return]  # a view: encode codes it
    else:
        try:
            codes, uniques = _object_factorized(array, pandas) or pandas.factorize(array)
        except TypeError:  # an unhashable item (a list of labels): the caller's general path
            return list(array)
        distinct = pandas.Index(uniques)  # whose tolist() gives Python scalars

    def labels(used: Codes) -> list[Any]:
        return distinct.take(used).tolist()  # type: ignore[no-any-return]

    return _coded(codes.astype(np.int64, copy=False), len(distinct), labels, array.__getitem__,
                  name)


def _object_factorized(array: Any, pandas: Any) -> tuple[Codes, Any] | None:
    """``pandas.factorize(array)`` for an array of Python objects held in numpy (an object
    Series or Index, the ``python`` storage of the string dtype), coded by
    :func:`~contingency._coding.code_objects` (one pass over the item pointers, in C on the
    kernel) instead of pandas' hash table: the same codes (first occurrence) and uniques (the
    first item of each class of equal ones, in an array of ``array``'s dtype); ``None`` (factorize
    codes it) for any other array, and for one that holds a missing value (pandas' rule, which
    its codes of -1 carry to the error), an unhashable item or a set of labels (whose reading
    stays pandas').

    The first of each class is the same item for both: pandas compares as Python does
    (``==`` after the hash) except that it takes NaN for equal to NaN, and a NaN (or a
    tuple holding one) is a missing value or a set of labels, sent to factorize.
    """
    numpy_backed = getattr(pandas.arrays, "NumpyExtensionArray", None) or (
        pandas.arrays.PandasArray)  # (its name before pandas 2.1)
    if not isinstance(array, (numpy_backed, pandas.arrays.StringArray)):
        return None
    items = array.to_numpy()  # (the array's own ndarray: no copy)
    if not (type(items) is np.ndarray and items.dtype == object and items.ndim == 1):
        return None
    try:
        codes, labels, _ = _coding.code_objects(items)
    except TypeError:
        return None  # an unhashable item (a list of labels): factorize says so
    uniques = np.fromiter(labels, dtype=object, count=len(labels))  # (tuples stay items)
    if pandas.isna(uniques).any() or any(
            not isinstance(label, (str, bytes)) and isinstance(label, Iterable)
            for label in labels):
        return None
    return codes, pandas.array(uniques, dtype=array.dtype)  # (factorize's uniques' type)


def _arrow_labels(values: Any, name: str, arrow: Any) -> CodedLabels | np.ndarray | list[Any]:
    """An Arrow Array or ChunkedArray: dictionary codes, numpy numbers or Python values."""
    if values.null_count:
        nulls = values.is_null()
        if isinstance(nulls, arrow.ChunkedArray):
            nulls = nulls.combine_chunks()
        _refuse_missing(int(np.flatnonzero(nulls.to_numpy(zero_copy_only=False))[0]),
                        _ARROW_NULL, name)
    kind = values.type
    if any(getattr(arrow.types, test, lambda _: False)(kind) for test in _ARROW_STRINGS):
        values = values.dictionary_encode()
    elif any(getattr(arrow.types, test)(kind) for test in _ARROW_NUMBERS):
        return values.to_numpy(zero_copy_only=False)  # type: ignore[no-any-return]
    elif not arrow.types.is_dictionary(kind):
        return values.to_pylist()  # type: ignore[no-any-return]  # dates, decimals, lists...
    if isinstance(values, arrow.ChunkedArray):
        values = values.unify_dictionaries()  # one dictionary, so the indices of all chunks agree
        chunks = values.chunks
        dictionary = chunks[0].dictionary if chunks else arrow.array([], values.type.value_type)
        indices = [chunk.indices.to_numpy(zero_copy_only=False) for chunk in chunks]
        codes = np.concatenate(indices) if indices else np.zeros(0, np.int64)
    else:
        dictionary, codes = values.dictionary, values.indices.to_numpy(zero_copy_only=False)

    def labels(used: Codes) -> list[Any]:
        return dictionary.take(used).to_pylist()  # type: ignore[no-any-return]

    def item(position: int) -> object:
        return values[position].as_py()

    return _coded(codes.astype(np.int64, copy=False), len(dictionary), labels, item, name)


def _coded(codes: Codes, size: int, labels: Callable[[Codes], list[Any]],
           item: Callable[[int], object], name: str) -> CodedLabels | list[Any]:
    """Codes into ``size`` possible labels made :class:`CodedLabels`: missing ones refused, unused dropped.

    ``labels(used)`` gives the labels of the codes ``used`` as Python
    objects, ``item(i)`` the ``i``-th item (for messages). Labels that are
    equal in Python but distinct to the library (``0.0`` and ``-0.0`` in an
    Arrow dictionary) are merged; a set of labels sends the items back as a list.
    """
    if codes.size and int(codes.min()) < 0:  # pandas' code for a missing value
        position = int(np.flatnonzero(codes < 0)[0])
        _refuse_missing(position, item(position), name)
    if dense_is_cheaper(size, len(codes)):
        present = np.bincount(codes, minlength=size) > 0
        used = np.flatnonzero(present)
        if len(used) < size:
            codes = (np.cumsum(present) - 1)[codes]
    else:
        used, codes = np.unique(codes, return_inverse=True)
    distinct = labels(used.astype(np.int64, copy=False))
    if not all(isinstance(label, (str, bytes)) or not isinstance(label, Iterable)
               for label in distinct):
        return list(map(distinct.__getitem__, codes.tolist()))
    check_distinct(distinct, lambda code: int(np.flatnonzero(codes == code)[0]), name)
    if len(set(distinct)) < len(distinct):  # equal labels: code each by the first
        merged, distinct, _ = _coding.code_objects(distinct)
        codes = merged[codes]
    return CodedLabels(codes.astype(np.int64, copy=False), distinct)


def _refuse_missing(position: int, value: object, name: str) -> None:
    """Raise for a missing value at ``position``: as a list would for ``None`` and NaN, else naming it.

    >>> _refuse_missing(2, _ARROW_NULL, "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true[2]: a missing value (null) is not a valid label
    """
    where = f"{name}[{position}]"
    if value is None or (isinstance(value, float) and value != value):
        check_label(value, where)
    raise ValueError(f"{where}: a missing value ({value!r}) is not a valid label")


class _Null:
    """How an Arrow null is shown in a message."""

    def __repr__(self) -> str:
        return "null"


_ARROW_NULL = _Null()
