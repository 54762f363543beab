"""Label arrays to integer codes: integer ranges, dictionary look-ups in C, fixed-width string hashing.

:func:`encode` turns a sequence of labels into int64 codes ``0..K-1`` and the
``K`` distinct labels (``labels[codes[i]]`` is the i-th label), checking every
label as :func:`contingency._labels.check_label` does, with errors naming
``name[i]``. It knows nothing of any accumulator: a caller resolves the ``K``
distinct labels against its own index.

The order of the distinct labels:

- numeric numpy arrays (integers, booleans, floats) and numpy string arrays
  (``U``, ``S``): sorted, as ``np.unique`` gives;
- numpy datetime64 and timedelta64 arrays: their ``tolist()`` items, in order of
  first occurrence, coded by their tick counts (no Python object per item);
- :class:`CodedLabels` (what :func:`contingency._inputs.label_sequence` makes
  of a pandas or Arrow container): its own order, the one the container's
  library gives (see :mod:`contingency._containers`);
- anything else (lists, tuples, object arrays): the order of first occurrence.

No caller depends on this order: :class:`~contingency.Contingency` adds new
categories in the order an ``add_result`` loop meets them, and a
:class:`~contingency.PartitionComparison` table is keyed by label.

:func:`dense_is_cheaper` (defined in :mod:`contingency.formulas._numeric`) is the
one rule for when a table of ``slots`` counters (``np.bincount``) beats sorting ``n`` keys.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from contingency._labels import check_label, is_label
from contingency.formulas._numeric import INT64_MAX, dense_is_cheaper

__all__ = ["CodedLabels", "Codes", "check_distinct", "code_objects", "code_objects_reference",
           "coded_single_labels", "dense_is_cheaper", "encode", "first_rows", "first_rows_reference",
           "label_at",
           "meeting_order", "meeting_places", "meeting_ranks", "single_label_array",
           "use_compiled_coding"]

Codes = NDArray[np.int64]


class CodedLabels(Sequence[Hashable]):
    """A sequence of labels held as codes ``0..K-1`` and the ``K`` distinct labels, already checked.

    Item ``i`` is ``labels[codes[i]]``, so a caller that iterates gets the
    labels a list would give; :func:`encode` takes the codes as they are.
    Whoever makes one guarantees what :func:`encode` would: every code in
    ``0..K-1`` used, the labels distinct, each a valid label (see
    :func:`contingency._labels.check_label`) and a single one (a string,
    bytes or anything not iterable: not a set of labels).

    ``items``, when given, are the items themselves, kept because some are
    not of their label's type (equal labels of several types: ``1`` and
    ``1.0``, ``"x"`` and ``numpy.str_("x")``): item ``i`` is then
    ``items[i]``, the object a row holds, which a caller takes for a
    category first met there (as an ``add_result`` loop would).

    >>> coded = CodedLabels(np.array([1, 0, 1]), ["x", "y"])
    >>> list(coded), coded[-1], len(coded)
    (['y', 'x', 'y'], 'y', 3)
    >>> CodedLabels(np.array([0, 0]), [1], [1, 1.0])[1]
    1.0
    """

    __slots__ = ("codes", "items", "labels")

    def __init__(self, codes: Codes, labels: list[Hashable],
                 items: Sequence[Hashable] | NDArray[np.object_] | None = None) -> None:
        self.codes = codes
        self.labels = labels
        self.items = items

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, index: int) -> Hashable: ...

    @overload
    def __getitem__(self, index: slice) -> list[Hashable]: ...

    def __getitem__(self, index: int | slice) -> Hashable | list[Hashable]:
        if self.items is not None:
            return list(self.items[index]) if isinstance(index, slice) else self.items[index]
        if isinstance(index, slice):
            return [self.labels[code] for code in self.codes[index].tolist()]
        return self.labels[int(self.codes[index])]

    def __iter__(self) -> Iterator[Hashable]:
        if self.items is not None:
            return iter(self.items)
        return map(self.labels.__getitem__, self.codes.tolist())

    def __repr__(self) -> str:
        return f"CodedLabels({len(self.codes)} items, {len(self.labels)} distinct labels)"


def label_at(values: CodedLabels | NDArray[Any], row: int) -> Hashable:
    """The label a row holds, as :func:`encode` reads it: a :class:`CodedLabels`' item, a numpy
    array's as ``tolist`` gives it (a Python scalar).

    >>> label_at(np.array([3, 4]), 1), label_at(CodedLabels(np.array([0, 0]), [1], [1, 1.0]), 1)
    (4, 1.0)
    """
    if isinstance(values, CodedLabels):
        return values[row]
    return values[row:row + 1].tolist()[0]  # type: ignore[no-any-return]


def single_label_array(values: object) -> bool:
    """Whether :func:`encode` codes ``values`` without a Python object per item, one label each.

    True for :class:`CodedLabels` and 1-d numpy arrays of numbers or strings;
    false for object arrays (whose items may be sets of labels) and Python
    sequences.

    >>> single_label_array(np.array(["a", "b"])), single_label_array(["a", "b"])
    (True, False)
    """
    if isinstance(values, CodedLabels):
        return True
    return isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype != object




def coded_single_labels(values: object, name: str) -> CodedLabels | None:
    """A list, tuple or 1-d object array whose items are all single labels, coded by
    :func:`code_objects` (one pass, in C on the kernel); ``None`` when it is not one (an item
    unhashable or a container: a set of labels). Only the distinct labels are checked. The
    items are kept (:attr:`CodedLabels.items`) when equal ones are of several types.

    >>> coded = coded_single_labels(["b", "a", "b"], "y_true")
    >>> coded.codes.tolist(), coded.labels
    ([0, 1, 0], ['b', 'a'])
    >>> coded_single_labels([["a", "b"], "a"], "y_true") is None
    True
    >>> coded_single_labels(np.array(["x", 2, "x"], dtype=object), "y_true").codes.tolist()
    [0, 1, 0]
    """
    if type(values) is not list and type(values) is not tuple and not (
            isinstance(values, np.ndarray) and values.dtype == object and values.ndim == 1):
        return None
    if not _codable_as_it_is(values):
        values = list(values)  # an ndarray subclass, read as it iterates (a masked array's masked)
    try:
        codes, labels, mixed = code_objects(values)
    except TypeError:
        return None  # an unhashable item: a list of labels, say
    for label in labels:
        if not isinstance(label, (str, bytes)) and isinstance(label, Iterable):
            return None  # a tuple or frozenset of labels (a str or bytes subclass, numpy.str_
            # say, is one label, as add_result reads it)
    check_distinct(labels, partial(_first_position, codes), name)
    return CodedLabels(codes, labels, values if mixed else None)


def encode(values: Sequence[Any] | NDArray[Any], name: str) -> tuple[Codes, list[Hashable]]:
    """Codes ``0..K-1`` for ``values`` and the ``K`` distinct labels, each label checked.

    The codes may share memory with ``values`` (an int64 array of ``0..K-1`` is
    its own codes): callers read them and never write to them.

    Distinct labels are sorted for numeric and numpy string arrays, in order
    of first occurrence for Python sequences and object arrays, as they are
    for :class:`CodedLabels`:

    >>> codes, labels = encode(np.array([30, 10, 30]), "x")
    >>> codes.tolist(), labels
    ([1, 0, 1], [10, 30])
    >>> codes, labels = encode(["b", "a", "b"], "x")
    >>> codes.tolist(), labels
    ([0, 1, 0], ['b', 'a'])
    >>> encode(["a", None], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true[1]: None is not a valid label
    """
    if isinstance(values, CodedLabels):
        return values.codes, values.labels
    if isinstance(values, np.ndarray) and values.dtype.kind in "iubfUS":
        found = _encode_array(values, name)
        if found is not None:
            return found
    if type(values) is np.ndarray and values.dtype.kind in "mM" and values.dtype.isnative:
        return _encode_times(values, name)  # (a subclass, a masked array say, as it lists)
    return _encode_objects(values, name)


def check_distinct(distinct: Sequence[Hashable], first: Callable[[int], int], name: str) -> None:
    """Check each of the distinct (hashable) labels as :func:`check_label` does, naming ``name[i]``.

    A ``str`` passes at once; ``first(code)`` gives the first position of
    ``distinct[code]``, looked up only for a label that is refused.

    >>> check_distinct(["a", None], lambda code: 5, "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true[5]: None is not a valid label
    """
    for code, label in enumerate(distinct):
        if type(label) is not str and not is_label(label):
            check_label(label, f"{name}[{first(code)}]")


def _encode_array(values: NDArray[Any], name: str) -> tuple[Codes, list[Hashable]] | None:
    """Sorted codes of a numeric or fixed-width string array; ``None`` for the dictionary path."""
    kind = values.dtype.kind
    if kind == "f":
        bad = np.flatnonzero(np.isnan(values))
        if bad.size:
            check_label(values[bad[0]].item(), f"{name}[{bad[0]}]")
    if kind in "iu" and values.size:
        high, low = int(values.max()), int(values.min())
        if high <= INT64_MAX and dense_is_cheaper(high - low + 1, values.size):
            # Labels in a small range (the common case: labels that are already codes). When a
            # prefix meets every value of low..high, the labels are that range and the codes one
            # subtraction away: the array is read by its minimum and maximum only.
            codes = values.astype(np.int64, copy=False)
            if low:
                codes = codes - low
            if _meets_every_value(codes, high - low + 1):
                return codes, list(range(low, high + 1))
            present = np.bincount(codes) > 0
            return (np.cumsum(present) - 1)[codes], (np.flatnonzero(present) + low).tolist()
    if kind in "iubf":
        uniques, inverse = np.unique(values, return_inverse=True)
        return inverse.astype(np.int64).ravel(), uniques.tolist()
    return _encode_strings(values)


def _encode_times(values: NDArray[Any], name: str) -> tuple[Codes, list[Hashable]]:
    """The codes and labels :func:`_encode_objects` gives a datetime64 or timedelta64 array (its
    ``tolist()`` items coded by the dictionary), without making a Python object per item.

    ``tolist()`` gives each tick count its own object (a ``datetime``, ``date``,
    ``timedelta`` or ``int``, by the unit: equal objects for equal ticks only) and ``None`` for
    NaT. So the ticks, coded as integers (:func:`_encode_array`) and ranked in the order the
    array meets them (:func:`meeting_order`), are the dictionary's codes, and the items at
    each label's first position, listed, its labels. A NaT is refused as ``None`` is, at its
    first position.
    """
    missing = np.flatnonzero(np.isnat(values))
    if missing.size:
        check_label(values[missing[0]].item(), f"{name}[{missing[0]}]")
    found = _encode_array(values.view(np.int64), name)
    assert found is not None  # (an integer array always has codes)
    codes, ticks = found
    order = meeting_order([codes], len(ticks))  # the codes, first met first
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    first = first_rows(codes, np.ones(len(ticks), dtype=bool))
    return rank[codes], values[first[order]].tolist()


def _meets_every_value(codes: Codes, span: int) -> bool:
    """Whether a prefix of ``codes`` (each in ``0..span-1``) holds every value of that range.

    Looks at prefixes of four times the range, growing fourfold up to an eighth
    of the array: in the usual batch every label turns up early, and then this
    costs a small fraction of one pass; when one does not, the caller counts
    the whole array, and this has cost at most a sixth of a pass more.
    """
    size, stop = max(1024, 4 * span), len(codes) // 8
    while size <= stop:
        if np.count_nonzero(np.bincount(codes[:size], minlength=span)) == span:
            return True
        size *= 4
    return False


def _encode_objects(values: Sequence[Any] | NDArray[Any],
                    name: str) -> tuple[Codes, list[Hashable]]:
    """Codes through a dictionary (:func:`code_objects`, one pass); only the K labels are checked."""
    items: Any = values
    if not _codable_as_it_is(values):  # another array (U or S past a hash collision,
        # datetimes in another byte order, a subclass...) as its tolist() gives it, or another
        # sequence
        items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    try:
        codes, distinct, _ = code_objects(items)
    except TypeError:
        for position, label in enumerate(items):
            check_label(label, f"{name}[{position}]")
        raise
    check_distinct(distinct, partial(_first_position, codes), name)
    if isinstance(values, np.ndarray) and values.dtype.kind in "US" and distinct:
        # all str or all bytes: np.unique's order
        order = sorted(range(len(distinct)),
                       key=distinct.__getitem__)  # type: ignore[arg-type]  # (str or bytes)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        codes, distinct = rank[codes], [distinct[code] for code in order]
    return codes, distinct


def _first_position(codes: Codes, code: int) -> int:
    """The first position of ``code`` in ``codes`` (where its label was first met)."""
    return int(np.argmax(codes == code))


def _codable_as_it_is(values: object) -> bool:
    """Whether :func:`code_objects` takes ``values`` as it is: a list, a tuple or a 1-d object
    ndarray (exact types: a subclass may read its items otherwise)."""
    kind = type(values)
    if kind is np.ndarray:
        return values.dtype == object and values.ndim == 1  # type: ignore[attr-defined, no-any-return]
    return kind is list or kind is tuple


def code_objects_reference(values: list[Any] | tuple[Any, ...] | NDArray[np.object_]
                           ) -> tuple[Codes, list[Hashable], bool]:
    """Codes ``0..K-1`` in order of first occurrence and the ``K`` distinct labels of a list,
    tuple or 1-d object array (any strides), each label the first object met of its class of
    equal ones (as a dict keeps its first key), and whether some item is not of its label's
    type (``mixed``: a class of equal items of several types, ``1`` and ``1.0``); TypeError for
    an unhashable item.

    The specification of the kernel's ``code_objects``, which makes the same codes and labels
    in one pass without ``tolist`` (tests/test_coding_kernel.py compares the two). No label is
    checked: :func:`encode` and :func:`coded_single_labels` check the distinct ones.

    >>> codes, labels, mixed = code_objects_reference(["b", 1, True, "b", 1.0])
    >>> codes.tolist(), labels, mixed
    ([0, 1, 1, 0, 1], ['b', 1], True)
    >>> code_objects_reference(["b", 1, "b"])[2]
    False
    """
    items = values.tolist() if isinstance(values, np.ndarray) else values
    index = {label: code for code, label in enumerate(dict.fromkeys(items))}
    codes = np.fromiter(map(index.__getitem__, items), dtype=np.int64, count=len(items))
    labels = list(index)
    # Each class of equal items holds (type, item) pairs of as many kinds as it has types: one
    # more pair than labels is a class of two types (items of one type only: no pair made).
    mixed = len(set(map(type, items))) > 1 and len(set(zip(map(type, items), items))) > len(labels)
    return codes, labels, mixed


#: The one dictionary coding of Python objects: the reference, or the kernel's
#: (:mod:`contingency._backend` chooses, at import, by :func:`use_compiled_coding`).
code_objects: Callable[[list[Any] | tuple[Any, ...] | NDArray[np.object_]],
                       tuple[Codes, list[Hashable], bool]] = code_objects_reference


def first_rows_reference(codes: Codes, wanted: NDArray[np.bool_]) -> Codes:
    """The first row of each code ``c`` with ``wanted[c]`` (-1 for one that no row holds); a
    code outside ``0..len(wanted)-1`` is no code (skipped).

    Looks at a prefix of the rows, doubling it until every wanted code is
    found: the codes of a batch usually all appear long before its end, so
    this costs far less than the batch. The specification of the kernel's
    ``first_rows`` (one pass in C, stopped once every wanted code is found).

    >>> first_rows_reference(np.array([2, -1, 0, 2, 1]), np.array([True, False, True])).tolist()
    [2, -1, 0]
    """
    first = np.full(len(wanted), -1, dtype=np.int64)
    remaining = int(wanted.sum())
    start, step = 0, 1024
    while remaining and start < len(codes):
        distinct, at = np.unique(codes[start:start + step], return_index=True)
        inside = (distinct >= 0) & (distinct < len(wanted))
        distinct, at = distinct[inside], at[inside]
        found = wanted[distinct] & (first[distinct] < 0)
        first[distinct[found]] = at[found] + start
        remaining -= int(found.sum())
        start += step
        step *= 2
    return first


#: :func:`first_rows_reference`, or the kernel's (chosen at import as :data:`code_objects` is).
first_rows: Callable[[Codes, NDArray[np.bool_]], Codes] = first_rows_reference


def meeting_order(sides: Sequence[Codes], count: int,
                  live: NDArray[np.bool_] | None = None) -> Codes:
    """The codes ``0..count-1`` in the order a loop of results meets them.

    The loop reads row 0's first side (the assigned labels), then its second
    (the correct ones), then row 1's... so a code first met at row ``r`` on
    side ``s`` of ``S`` ranks ``S r + s``, and a code's rank is the least of
    its sides' (:func:`meeting_ranks`).
    Rows whose ``live`` is false (a weight of 0: they add no category) are
    met after every other row. Codes outside ``0..count-1`` are not ordered;
    every code in it must be met. O(rows until the last code is met + count):
    :data:`first_rows` per side, no sort of the rows.

    >>> meeting_order([np.array([5, 1, 0]), np.array([1, 2, 5])], 3).tolist()
    [1, 2, 0]
    >>> meeting_order([np.array([0, 1]), np.array([2, 2])], 3, np.array([False, True])).tolist()
    [1, 2, 0]
    """
    return np.argsort(meeting_ranks(sides, count, live), kind="stable")  # (ranks are distinct)


def meeting_ranks(sides: Sequence[Codes], count: int,
                  live: NDArray[np.bool_] | None = None) -> Codes:
    """Each code's rank in :func:`meeting_order` (``S r + s`` for its first row ``r`` on side
    ``s`` of ``S`` sides, rows not ``live`` after the others): the side that meets a code first
    is its rank modulo ``S``.

    >>> meeting_ranks([np.array([5, 1, 0]), np.array([1, 2, 5])], 3).tolist()
    [4, 1, 3]
    """
    rows = _meeting_rows(live)
    if rows is not None:
        sides = [codes[rows] for codes in sides]
    ranks = np.full(count, INT64_MAX, dtype=np.int64)
    wanted = np.ones(count, dtype=bool)
    for side, codes in enumerate(sides):
        first = first_rows(codes, wanted)
        met = first >= 0
        ranks[met] = np.minimum(ranks[met], len(sides) * first[met] + side)
    if count and ranks.max() == INT64_MAX:
        raise ValueError(f"code {int(np.argmax(ranks == INT64_MAX))} is met by no row")
    return ranks


def meeting_places(ranks: Codes, sides: int,
                   live: NDArray[np.bool_] | None = None) -> tuple[Codes, Codes]:
    """The row and the side where each code is first met, from its rank in
    :func:`meeting_ranks` over ``sides`` sides (and the same ``live``): the
    side is the rank modulo ``sides``, the row the quotient among the rows in
    meeting order (the live ones, then the others).

    >>> [places.tolist() for places in meeting_places(np.array([4, 1, 3]), 2)]
    [[2, 0, 1], [0, 1, 1]]
    >>> meeting_places(np.array([1, 2]), 2, np.array([False, True]))[0].tolist()
    [1, 0]
    """
    row, side = np.divmod(ranks, sides)
    rows = _meeting_rows(live)
    return (row if rows is None else rows[row]), side


def _meeting_rows(live: NDArray[np.bool_] | None) -> Codes | None:
    """The rows in the order a loop meets their labels (``live`` ones first: a row of weight 0
    adds no category), or ``None`` when that is their own order."""
    if live is None or live.all():
        return None
    return np.concatenate([np.flatnonzero(live), np.flatnonzero(~live)])


def use_compiled_coding(routine: Callable[..., tuple[Codes, list[Hashable], bool]],
                        first: Callable[[Codes, NDArray[np.bool_]], Codes]) -> None:
    """Code objects with ``routine`` and find first rows with ``first``
    (:mod:`contingency._backend` gives the kernel's ``code_objects`` and ``first_rows``; the
    references are the default)."""
    global code_objects, first_rows  # (the one switch, made at import)
    code_objects, first_rows = routine, first


def _encode_strings(values: NDArray[Any]) -> tuple[Codes, list[Hashable]] | None:
    """Codes for a fixed-width string array (numpy ``U`` or ``S``) without making Python strings.

    Sorting fixed-width strings (``np.unique``) and making a Python string of
    each (``tolist``) both cost far more than hashing them as integers: each
    string's characters are mixed into one 64-bit hash (:func:`_string_hashes`),
    and the hashes are coded by ``np.unique`` (its inverse: numpy's integer
    paths, 3 x 10^5 hashes of 10^5 strings in 10 ms). Equal strings have equal
    hashes; distinct strings with equal hashes are caught by comparing every
    string with its code's representative, in which case ``None`` sends the
    caller to the dictionary path. Codes follow sorted string order, as
    ``np.unique`` on the strings gives.
    """
    n = len(values)
    if not (values.dtype.itemsize and n):
        return None
    distinct, codes = np.unique(_string_hashes(values), return_inverse=True)
    codes = codes.astype(np.int64, copy=False)
    representative = np.empty(len(distinct), dtype=np.int64)
    representative[codes] = np.arange(n)  # (any row of each code: all are compared below)
    labels = values[representative]
    if not np.array_equal(labels[codes], values):
        return None  # two distinct strings share a hash
    order = np.argsort(labels, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], labels[order].tolist()


def _string_hashes(values: NDArray[Any]) -> NDArray[np.uint64]:
    """A 64-bit hash of each string of a fixed-width string array (its characters mixed)."""
    n = len(values)
    unit = np.uint32 if values.dtype.kind == "U" else np.uint8  # a character's code
    width = values.dtype.itemsize // np.dtype(unit).itemsize
    characters = np.ascontiguousarray(values).view(unit).reshape(n, width)
    hashes = characters[:, 0].astype(np.uint64)
    for column in range(1, width):  # uint64 arithmetic wraps modulo 2**64, as intended
        hashes *= np.uint64(0x9E3779B97F4A7C15)
        hashes ^= characters[:, column]
    scratch = np.empty_like(hashes)
    for shift, factor in ((31, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):  # mix all bits
        hashes ^= np.right_shift(hashes, np.uint64(shift), out=scratch)
        hashes *= np.uint64(factor)
    return hashes
