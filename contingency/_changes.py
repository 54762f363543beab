"""Inputs to cell changes for Contingency's write path: results, single-label pairs, label arrays.

Nothing here holds an accumulator's state. Each function turns one kind of
input into what :meth:`contingency._counts.Counts.apply` takes: changes of the
per-category cells ``a``, ``b`` and ``c`` (dicts keyed by category, or columns
in table order), counts of result shapes ``(both, assigned, correct)``, and
counts of single-label results (one category assigned, one correct) by pair
``(correct, assigned)``. :func:`result_changes` is the rule for results given
as sets of categories, :func:`pair_changes` for single-label results given by
pair; the vectorised forms (label arrays, indicator matrices) count the same
cells with numpy.
"""

from __future__ import annotations

from collections import _count_elements as _count  # type: ignore[attr-defined]
from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, islice, repeat
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from contingency._coding import CodedLabels, encode, meeting_places, meeting_ranks
from contingency._inputs import check_same_length, indicator_matrix
from contingency._labels import check_label, sorted_labels
from contingency._table import PAIR_LOW, PAIR_SHIFT, CodedPairs
from contingency.formulas._numeric import count_codes, dense_is_cheaper, distinct_counts

__all__ = [
    "HIT",
    "MISS",
    "PAIR_SHIFT",
    "Cells",
    "Changes",
    "Pairs",
    "ResultCounter",
    "Shape",
    "Staging",
    "Unknown",
    "category_codes",
    "code_pairs",
    "coded_changes",
    "column_changes",
    "first_seen_order",
    "indicator_changes",
    "label_array_changes",
    "label_list_changes",
    "members",
    "pair_changes",
    "result_changes",
    "shape_histogram",
    "sum_changes",
    "times",
]

Unknown = Literal["error", "ignore", "add"]
Shape = tuple[int, int, int]
Cells = dict[Hashable, int]
#: Single-label results by pair ``(correct, assigned)``: the confusion matrix, sparse.
Pairs = dict[tuple[Hashable, Hashable], int]
#: What ``Counts.apply`` takes: cells ``a``, ``b``, ``c``, shapes and pairs.
#: Pairs by label (:data:`Pairs`), or by pair code in a dict or as :class:`CodedPairs` arrays: a
#: single-label result's pair coded ``code(correct) << PAIR_SHIFT | code(assigned)``.
Changes = tuple[Cells, Cells, Cells, dict[Shape, int], dict[Any, int] | CodedPairs]

HIT: Shape = (1, 1, 1)  # a one-label result that was right
_CONTAINERS = frozenset({list, tuple, set, frozenset})
MISS: Shape = (0, 1, 1)  # a one-label result that was wrong


def members(value: object, where: str) -> Iterable[object]:
    """The categories one side of a result names (see :meth:`Contingency.add_result`)."""
    kind = type(value)
    if kind in _CONTAINERS:  # the common cases first: exact types, no ABC check
        return value  # type: ignore[return-value]
    if kind is dict:
        return [key for key, flag in value.items() if flag]  # type: ignore[attr-defined]
    if isinstance(value, (str, bytes)):
        return (value,)
    if isinstance(value, Mapping):
        return [key for key, flag in value.items() if flag]
    if isinstance(value, np.ndarray) and value.ndim == 0:
        raise TypeError(f"{where}: a 0-d array is not a category; pass its item or a 1-d array")
    if isinstance(value, Iterable):
        return value
    return (value,)


class Staging:
    """Label resolution for one call, with nothing written until ``Counts.apply``.

    Categories met for the first time (``unknown="add"``) are collected in
    ``new``, in the order met, with provisional positions after the known ones
    (``index`` maps a known category to its position, or to anything for
    callers that only need membership).
    """

    __slots__ = ("base", "index", "later", "new", "policy", "removing", "sides")

    def __init__(self, index: Mapping[Hashable, int], policy: Unknown, removing: bool,
                 base: int | None = None) -> None:
        self.index = index
        self.base = len(index) if base is None else base  # the first code a new category takes
        self.new: dict[Hashable, int] = {}
        # A batch's later side's label equal to a new category an earlier side staged, but of
        # another type (1.0 for 1, numpy.str_ for str), by provisional code: the object kept if
        # that side meets the category first (category_codes, first_seen_order).
        self.later: dict[int, Hashable] = {}
        # Each side category_codes coded, in turn (assigned, correct): its items when equal
        # labels of several types are among them (CodedLabels.items), else None: a category it
        # meets first keeps the object of the row that meets it (first_seen_order).
        self.sides: list[Sequence[Hashable] | NDArray[np.object_] | None] = []
        self.policy = policy
        self.removing = removing

    def labels(self, value: object, where: str) -> frozenset[Hashable]:
        """The categories one side of a result names, checked (unknown ones as the policy says).

        New categories join in the order met; a set's order follows the hash
        seed, so the new categories a set names join in :func:`sorted_labels` order.
        """
        kind = type(value)
        if kind is str:  # one label: the commonest side of all
            return frozenset((value,)) if self.position(value, where) >= 0 else frozenset()
        if kind in _CONTAINERS:
            try:
                named_set: frozenset[Hashable] = frozenset(value)  # type: ignore[call-overload]
            except TypeError:
                pass  # an unhashable label: named below
            else:
                if named_set <= self.index.keys():  # every label known: checked in C
                    return named_set
        named = members(value, where)
        if kind is not list and isinstance(value, AbstractSet) and len(value) > 1:
            index, new = self.index, self.new
            if sum(label not in index and label not in new for label in value) > 1:
                named = sorted_labels(value)
        return frozenset(label for label in named if self.position(label, where) >= 0)

    def position(self, label: object, where: str) -> int:
        """The table position of one label (provisional if new), or -1 if it is ignored."""
        try:
            found = self.index.get(label)
        except TypeError:
            check_label(label, where)  # raises, naming the unhashable label
            raise
        if found is None:
            found = self._unseen(label, where)
        return -1 if found is None else found

    def join(self, labels: Iterable[Hashable]) -> list[int]:
        """The provisional positions of labels that ``index`` lacks, checked already, under the
        policy ``"add"``: a label new to this call joins ``new``.

        >>> staging = Staging({"x": 0}, "add", removing=False)
        >>> staging.join(["y", "z", "y"]), staging.new
        ([1, 2, 1], {'y': 1, 'z': 2})
        """
        new, base = self.new, self.base
        positions = []
        for label in labels:
            found = new.get(label)
            if found is None:
                found = new[label] = base + len(new)
            positions.append(found)
        return positions

    def _unseen(self, label: object, where: str) -> int | None:
        known = check_label(label, where)
        if known in self.new:
            return self.new[known]
        if self.removing and self.policy != "ignore":
            raise ValueError(f"{where}: category {label!r} was never recorded (or all its "
                             "results were removed), so no result naming it can be removed")
        if self.policy == "ignore":
            return None
        if self.policy == "error":
            raise ValueError(f"{where}: unknown category {label!r} (not among the declared "
                             "categories; pass unknown='add' or unknown='ignore' to accept it)")
        position = self.base + len(self.new)
        self.new[known] = position
        return position


def result_changes(results: Iterable[tuple[AbstractSet[Hashable], AbstractSet[Hashable]]],
                   weight: int | Iterable[int]) -> Changes:
    """The changes (cells, shapes, pairs) of checked results, each counted ``weight`` times.

    ``weight`` is one count for every result, or one per result (results of
    weight 0 change nothing). The rule, for each result: the categories on
    both sides gain a cell ``a``, those only assigned a ``b``, those only
    correct a ``c``; its shape ``(both, assigned, correct)`` gains one; a
    single-label result also counts under its pair ``(correct, assigned)``.
    Results of one weight are counted together (by C-level tallies), then
    multiplied by it.

    >>> result_changes([({"x", "y"}, {"y"}), ({"x"}, {"z"})], 2)
    ({'y': 2}, {'x': 4}, {'z': 2}, {(1, 2, 1): 2, (0, 1, 1): 2}, {('z', 'x'): 2})
    """
    if isinstance(weight, int):
        return times(_each_once(results), weight) if weight else ({}, {}, {}, {}, {})
    groups: dict[int, list[tuple[AbstractSet[Hashable], AbstractSet[Hashable]]]] = {}
    for result, count in zip(results, weight):
        if count:
            groups.setdefault(count, []).append(result)
    changes: Changes = ({}, {}, {}, {}, {})
    for count, group in groups.items():
        changes = sum_changes(changes, times(_each_once(group), count))
    return changes


def _each_once(results: Iterable[tuple[AbstractSet[Hashable], AbstractSet[Hashable]]]) -> Changes:
    """:func:`result_changes` with weight 1: the results counted by a :class:`ResultCounter`."""
    counter = ResultCounter()
    add = counter.add
    for assigned, correct in results:
        add(assigned, correct)
    return counter.changes()


class ResultCounter:
    """Results given as sets of categories, each counted once: the rule of :func:`result_changes`.

    Per category, the results naming it on both sides, on the assigned side
    and on the correct side, counted in C (``collections.Counter``'s helper);
    the shapes ``(both, assigned, correct)`` under a small integer code while
    each side names at most three categories; the single-label results by
    pair ``(correct, assigned)``. :meth:`changes` turns the counts into cell
    changes: ``a`` is the results on both sides, ``b`` and ``c`` the rest of
    each side.
    """

    __slots__ = ("assigned", "both", "correct", "pairs", "shapes")

    def __init__(self) -> None:
        self.both: Cells = {}
        self.assigned: Cells = {}
        self.correct: Cells = {}
        self.shapes: dict[Any, int] = {}
        self.pairs: Pairs = {}

    def add(self, assigned: AbstractSet[Hashable], correct: AbstractSet[Hashable]) -> None:
        """Count one result (two sets of categories)."""
        _count(self.assigned, assigned)
        _count(self.correct, correct)
        both = assigned & correct
        _count(self.both, both)
        chosen, truth = len(assigned), len(correct)
        try:  # IndexError: more than three categories on a side
            shape: Any = _SMALL_SHAPE[chosen][truth] + len(both)
        except IndexError:
            shape = (len(both), chosen, truth)
        shapes = self.shapes
        shapes[shape] = shapes.get(shape, 0) + 1
        if chosen == 1 == truth:
            (label,), (other,) = assigned, correct
            pairs = self.pairs
            pairs[other, label] = pairs.get((other, label), 0) + 1

    def changes(self) -> Changes:
        """The counted results as cell changes ``a, b, c``, shapes and pairs (by label)."""
        both = self.both
        if both:  # (written out, not a generator over the sides: one result read alone costs less)
            held = both.get
            b = {label: count - held(label, 0) for label, count in self.assigned.items()
                 if count != held(label, 0)}
            c = {label: count - held(label, 0) for label, count in self.correct.items()
                 if count != held(label, 0)}
        else:
            b, c = dict(self.assigned), dict(self.correct)
        shapes: dict[Shape, int] = {}
        for key, count in self.shapes.items():
            shape = (key & 3, key >> 4, (key >> 2) & 3) if type(key) is int else key
            shapes[shape] = shapes.get(shape, 0) + count
        return both, b, c, shapes, self.pairs


#: The shape (both, assigned, correct) of a result naming at most three categories a side is
#: counted under the code ``_SMALL_SHAPE[assigned][correct] + both`` (a list look-up and an int
#: key cost less than a tuple in the hot loop); larger shapes under the tuple itself.
_SMALL_SHAPE = [[(assigned << 4) | (correct << 2) for correct in range(4)] for assigned in range(4)]


def times(changes: Changes, factor: int) -> Changes:
    """``changes`` with every count multiplied by ``factor`` (-1 to remove, ``2**e`` to rescale)."""
    if factor == 1:
        return changes
    a, b, c, shapes, pairs = changes
    return ({label: count * factor for label, count in a.items()},
            {label: count * factor for label, count in b.items()},
            {label: count * factor for label, count in c.items()},
            {shape: count * factor for shape, count in shapes.items()},
            pairs.times(factor) if isinstance(pairs, CodedPairs)
            else {pair: count * factor for pair, count in pairs.items()})


def sum_changes(first: Changes, second: Changes) -> Changes:
    """Two sets of changes added together (of one sign: no count cancels to zero).

    Their pairs are of one form: both by label, or both by code (dicts or
    :class:`CodedPairs`, which come back as ``CodedPairs``).
    """
    pairs, more = first[4], second[4]
    if isinstance(pairs, CodedPairs) or isinstance(more, CodedPairs):
        summed: dict[Any, int] | CodedPairs = _coded(pairs).concatenated(_coded(more))
    else:
        summed = _summed(pairs, more)
    return (_summed(first[0], second[0]), _summed(first[1], second[1]),
            _summed(first[2], second[2]), _summed(first[3], second[3]), summed)


def _coded(pairs: Mapping[int, int] | CodedPairs) -> CodedPairs:
    return pairs if isinstance(pairs, CodedPairs) else CodedPairs.from_dict(pairs)


def _summed(left: Mapping[Any, int], right: Mapping[Any, int]) -> dict[Any, int]:
    total = dict(left)
    for key, count in right.items():
        total[key] = total.get(key, 0) + count
    return total


def pair_changes(pairs: Mapping[Any, int], names: Sequence[Hashable] | None = None) -> Changes:
    """The changes of single-label results counted by pair ``(correct, assigned)``.

    A pair of one category is a right result (cell ``a``, shape ``HIT``), any
    other a wrong one (``b`` of the assigned category, ``c`` of the correct
    one, shape ``MISS``); ``pairs`` itself is handed over as the pairs' change.
    The same cells :func:`result_changes` gives these results one by one.
    With ``names``, the pairs are keyed by code, ``code(correct) << PAIR_SHIFT |
    code(assigned)``, and ``names[code]`` is each code's category.

    >>> pair_changes({("x", "x"): 2, ("x", "y"): 1})
    ({'x': 2}, {'y': 1}, {'x': 1}, {(1, 1, 1): 2, (0, 1, 1): 1}, {('x', 'x'): 2, ('x', 'y'): 1})
    >>> pair_changes({0 << PAIR_SHIFT | 1: 3}, ["x", "y"])[:3]
    ({}, {'y': 3}, {'x': 3})
    """
    if len(pairs) == 1 and names is None:  # one result (a learning curve's step): no loop
        ((truth, chosen), count), = pairs.items()
        if count > 0:
            if truth == chosen:
                return {truth: count}, {}, {}, {HIT: count}, pairs  # type: ignore[return-value]
            return {}, {chosen: count}, {truth: count}, {MISS: count}, pairs  # type: ignore[return-value]
    a: Cells = {}
    b: Cells = {}
    c: Cells = {}
    right = wrong = 0
    for key, count in pairs.items():
        if names is None:
            truth, chosen = key
        else:
            truth, chosen = names[key >> PAIR_SHIFT], names[key & PAIR_LOW]
        if truth == chosen:
            a[truth] = a.get(truth, 0) + count
            right += count
        else:
            b[chosen] = b.get(chosen, 0) + count
            c[truth] = c.get(truth, 0) + count
            wrong += count
    shapes: dict[Shape, int] = {}
    if right:
        shapes[HIT] = right
    if wrong:
        shapes[MISS] = wrong
    return a, b, c, shapes, pairs  # type: ignore[return-value]


def column_changes(labels: Iterable[Hashable], a: NDArray[Any], assigned: NDArray[Any],
                   correct: NDArray[Any]) -> tuple[Cells, Cells, Cells]:
    """Cell changes ``a, b, c`` from per-category columns in table order (cell a, times assigned, correct)."""
    changes: tuple[Cells, Cells, Cells] = ({}, {}, {})
    for label, x, p, t in zip(labels, a.tolist(), assigned.tolist(), correct.tolist()):
        for column, value in zip(changes, (x, p - x, t - x)):
            if value:
                column[label] = value
    return changes


def indicator_changes(assigned: NDArray[Any], correct: NDArray[Any], labels: list[Hashable],
                      weights: NDArray[Any] | None = None,
                      names: tuple[str, str] = ("assigned", "correct")) -> Changes:
    """The changes of two 0/1 indicator matrices whose columns are ``labels``, checked first.

    ``weights`` (integers, one per row, see :func:`contingency._inputs.exact_weights`)
    counts each row that many times.
    """
    if assigned.shape != correct.shape or assigned.ndim != 2:
        raise ValueError(f"{names[0]} and {names[1]} indicator matrices must both be 2-d with "
                         f"one shape, not {assigned.shape} and {correct.shape}")
    k = len(labels)
    if assigned.shape[1] != k:
        raise ValueError(f"indicator matrices have {assigned.shape[1]} columns but the "
                         f"accumulator has {k} categories; columns follow "
                         "Contingency.categories")
    predicted = indicator_matrix(assigned, names[0])
    truth = indicator_matrix(correct, names[1])
    matrices = (predicted & truth, predicted, truth)
    # einsum sums uint8 rows and columns about twice as fast as .sum(axis, dtype=...).
    per_row = np.uint8 if k < 256 else np.int64  # a row sum is at most k
    both, assigned_rows, correct_rows = (np.einsum("ij->i", m, dtype=per_row) for m in matrices)
    shapes = shape_histogram(both, assigned_rows, correct_rows, k, weights)
    if weights is None:
        a, p, t = (np.einsum("ij->j", m, dtype=np.int64) for m in matrices)
    elif weights.dtype == object:
        a, p, t = (np.dot(weights, m.astype(object)) for m in matrices)
    else:  # every column sum is at most the sum of the weights, below 2**62
        a, p, t = (np.einsum("ij,i->j", m, weights, dtype=np.int64) for m in matrices)
    pairs: Pairs = {}
    if shapes.get(HIT, 0) + shapes.get(MISS, 0):
        # The single-label rows: their one assigned and one correct column, as codes.
        single = np.flatnonzero((assigned_rows == 1) & (correct_rows == 1))
        pairs = code_pairs(truth[single].argmax(axis=1), predicted[single].argmax(axis=1), labels,
                           None if weights is None else weights[single])
    return (*column_changes(labels, a, p, t), shapes, pairs)


def code_pairs(correct: NDArray[Any], assigned: NDArray[Any], labels: list[Hashable],
               weights: NDArray[Any] | None = None) -> Pairs:
    """Count the pairs of two equal-length arrays of category codes ``0..K-1``, as :data:`Pairs`
    (each ``weights`` times, if given)."""
    k = len(labels)
    return _pairs(*distinct_counts(np.asarray(correct, dtype=np.int64) * k + assigned, k * k,
                                   weights), labels)


def _pairs(present: NDArray[Any], found: NDArray[Any], labels: list[Hashable]) -> Pairs:
    """The pairs coded ``correct * K + assigned`` in ``present``, counted ``found`` times."""
    k = len(labels)
    return {(labels[code // k], labels[code % k]): count
            for code, count in zip(present.tolist(), found.tolist())}


def label_array_changes(assigned: NDArray[Any] | CodedLabels, correct: NDArray[Any] | CodedLabels,
                        staging: Staging, names: Sequence[Hashable],
                        weights: NDArray[Any] | None = None,
                        sides: tuple[str, str] = ("assigned", "correct")) -> Changes:
    """The changes of two 1-d arrays of single labels (new categories left in ``staging.new``).

    Categories are coded as the counts code them: ``staging.index`` maps a
    category to its code and ``names`` a code to its category; new ones take
    the codes after ``staging.base`` in the order an add_result loop meets
    them, which are the codes the counts give them when they are added. The
    pairs come back keyed by pair code (``code(correct) << PAIR_SHIFT |
    code(assigned)``), for ``Counts.apply(..., coded=True)``. ``weights``
    (integers, one per label, see :func:`contingency._inputs.exact_weights`)
    counts each result that many times.

    Cost: O(batch + categories new to the counts), never O(categories): the
    codes are counted in a table of K x K slots only when that is small
    against the batch (:func:`contingency._coding.dense_is_cheaper`), else by
    sorting the batch's own codes.
    """
    check_same_length(assigned, correct, sides)
    ia, every_assigned = category_codes(assigned, staging, sides[0])
    ic, every_correct = category_codes(correct, staging, sides[1])
    if staging.new:
        ia, ic = first_seen_order(staging, ia, ic, weights)
    return coded_changes(ia, ic, names, list(staging.new), weights,
                         known=every_assigned and every_correct)


def coded_changes(assigned: NDArray[np.int64], correct: NDArray[np.int64],
                  names: Sequence[Hashable], new: Sequence[Hashable] = (),
                  weights: NDArray[Any] | None = None, *, known: bool = True) -> Changes:
    """The changes of single-label results given as category codes (-1: an ignored label).

    ``names[code]`` is a code's category, and ``new[code - len(names)]`` for
    the codes after it; ``known`` says that no code is -1. The vectorised form
    of :func:`pair_changes` (label arrays): cells
    and shapes are counted with numpy, the pairs come back as
    :class:`CodedPairs`, the K x K table itself when one was counted anyway,
    else one key per result (the pair table aggregates them when it merges).

    >>> *cells, shapes, pairs = coded_changes(np.array([0, 1, 1]), np.array([0, 0, 1]), ["x", "y"])
    >>> cells, shapes, pairs.to_dict()
    ([{'x': 1, 'y': 1}, {'y': 1}, {'x': 1}], {(1, 1, 1): 2, (0, 1, 1): 1}, {0: 1, 1: 1, 4294967297: 1})
    """
    ia, ic = assigned, correct
    base = len(names)
    k = base + len(new)
    n = len(ia)
    if n and known and dense_is_cheaper(k * k, n):
        # Every label known and a k x k confusion matrix is small: one bincount.
        labels = [*names, *new]
        by_pair = count_codes(ic * k + ia, k * k, weights)
        confusion = by_pair.reshape(k, k)
        a = confusion.diagonal()
        assigned_counts, correct_counts = confusion.sum(axis=0), confusion.sum(axis=1)
        right = int(a.sum())
        total = n if weights is None else int(weights.sum())
        shapes = {shape: count for shape, count in ((HIT, right), (MISS, total - right)) if count}
        cells = column_changes(labels, a, assigned_counts, correct_counts)
        pairs = CodedPairs.from_table(by_pair, k)  # (its keys made only if read)
    else:
        known_a, known_c = ia >= 0, ic >= 0
        hit = known_a & (ia == ic)
        counted = [distinct_counts(codes[where], k, None if weights is None else weights[where])
                   for codes, where in ((ia, hit), (ia, known_a), (ic, known_c))]
        shapes = shape_histogram(hit, known_a, known_c, 1, weights)
        cells = _sparse_cell_changes(counted, names, new, base)
        both_known = known_a & known_c
        if not both_known.all():
            ia, ic = ia[both_known], ic[both_known]
            weights = None if weights is None else weights[both_known]
        pairs = CodedPairs(ic << PAIR_SHIFT | ia, weights)
    return (*cells, shapes, pairs)


def _sparse_cell_changes(counted: list[tuple[NDArray[Any], NDArray[Any]]],
                         names: Sequence[Hashable], new: Sequence[Hashable], base: int
                         ) -> tuple[Cells, Cells, Cells]:
    """Cell changes ``a, b, c`` from the codes counted right, assigned and correct (each
    ``(codes, counts)``, the codes sorted and distinct), in O(codes counted), with numpy."""
    (right, hits), *sides = counted

    def less_hits(codes: NDArray[Any], counts: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        # The results counted right are among those assigned and those correct.
        if right.size:
            at = np.minimum(np.searchsorted(right, codes), right.size - 1)
            matched = right[at] == codes
            counts = counts.copy()
            counts[matched] -= hits[at[matched]]
        kept = np.flatnonzero(counts != 0)
        return codes[kept], counts[kept]

    def named(codes: NDArray[Any], counts: NDArray[Any]) -> Cells:
        if new and codes.size and int(codes[-1]) >= base:
            labels: Iterable[Hashable] = [names[code] if code < base else new[code - base]
                                          for code in codes.tolist()]
        else:
            labels = map(names.__getitem__, codes.tolist())
        return dict(zip(labels, counts.tolist()))

    (chosen, assigned), (truth, correct) = sides
    return named(right, hits), named(*less_hits(chosen, assigned)), named(*less_hits(truth, correct))


def label_list_changes(assigned: Sequence[Any] | NDArray[Any], correct: Sequence[Any] | NDArray[Any],
                       index: Mapping[Hashable, int], names: Sequence[Hashable],
                       weights: NDArray[Any] | None = None) -> Changes | None:
    """The changes of results given as two sequences of label lists (or tuples, sets,
    frozensets), counted with numpy; ``None`` when it cannot (a row of another kind, or a
    label that is not a category: the caller stages those rows one by one).

    ``index`` maps a category to its code and ``names`` a code to its category (the
    counts' numbering). The labels of all rows are flattened and coded in C, each
    row's duplicates dropped, and the rule of :func:`result_changes` applied to
    (row, category) keys: a category on both sides of a row is a cell ``a``,
    ``b`` and ``c`` the rest of each side; the shapes from per-row counts; a
    row naming one category a side counts under its pair code.
    """
    n = len(assigned)
    sides = []
    for side in (assigned, correct):
        if not set(map(type, side)) <= _CONTAINERS:
            return None
        lengths = np.fromiter(map(len, side), dtype=np.int64, count=n)
        try:
            codes = np.fromiter(map(index.__getitem__, chain.from_iterable(side)),
                                dtype=np.int64, count=int(lengths.sum()))
        except (KeyError, TypeError):  # a label new, invalid or unhashable
            return None
        keys = np.repeat(np.arange(n, dtype=np.int64), lengths) * len(names) + codes
        keys.sort(kind="stable")  # in row order already: runs of a few keys to merge
        if keys.size:  # (row, code) keys, each row's duplicates gone
            keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
        sides.append(keys)
    k = len(names)
    keys_assigned, keys_correct = sides
    at = np.searchsorted(keys_correct, keys_assigned)  # both sides sorted: a merge, in C
    found_too = keys_correct[np.minimum(at, max(keys_correct.size - 1, 0))] == keys_assigned \
        if keys_correct.size else np.zeros(keys_assigned.size, dtype=bool)
    keys_both = keys_assigned[found_too]
    per_row = [np.bincount(keys // k, minlength=n) for keys in (keys_both, *sides)]
    cells = []
    for keys in (keys_both, keys_assigned, keys_correct):
        present, found = distinct_counts(keys % k, k, None if weights is None
                                         else weights[keys // k])
        cells.append(dict(zip(present.tolist(), found.tolist())))
    hits = cells[0]
    a = {names[code]: count for code, count in hits.items()}
    b, c = ({names[code]: count - hits.get(code, 0) for code, count in side.items()
             if count != hits.get(code, 0)} for side in cells[1:])
    both_row, assigned_row, correct_row = per_row
    shapes = shape_histogram(both_row, assigned_row, correct_row,
                             max(int(assigned_row.max(initial=0)), int(correct_row.max(initial=0))),
                             weights)
    single = np.flatnonzero((per_row[1] == 1) & (per_row[2] == 1))
    # each such row's one key on each side: the first of its row
    starts = [np.searchsorted(keys // k, single) for keys in sides]
    chosen, truth = (keys[at] % k for keys, at in zip(sides, starts))
    pairs = CodedPairs(truth << PAIR_SHIFT | chosen, None if weights is None else weights[single])
    return a, b, c, shapes, pairs


def shape_histogram(both: NDArray[Any], assigned: NDArray[Any], correct: NDArray[Any],
                    most: int, weights: NDArray[Any] | None = None) -> dict[Shape, int]:
    """Count the distinct ``(both, assigned, correct)`` triples of three equal-length vectors.

    Each value is at most ``most``; the triples are coded as one integer and
    counted by :func:`~contingency.formulas._numeric.distinct_counts` (each its weight, with ``weights``).
    """
    if len(both) == 0:
        return {}
    base = most + 1
    codes = (np.asarray(both, dtype=np.int64) * base + assigned) * base + correct
    present, found = distinct_counts(codes, base**3, weights)
    return {(code // (base * base), code // base % base, code % base): count
            for code, count in zip(present.tolist(), found.tolist())}


def first_seen_order(staging: Staging, assigned: NDArray[np.int64],
                     correct: NDArray[np.int64], weights: NDArray[Any] | None = None
                     ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Renumber the categories a batch adds in the order an add_result loop meets them.

    The loop reads result 0's assigned side, then its correct side, then result 1's...
    so a label first met at row ``r`` ranks by ``2r`` (assigned) or ``2r + 1`` (correct).
    A row of weight 0 adds no category, so its labels are met after every other row's.
    A category named by equal labels of different types (``1`` and ``1.0``) keeps the
    object the loop meets first: the object of the side that meets it first (both sides
    name it), the object of the row that meets it (a side whose equal labels are of several
    types: its coding kept its first row's, maybe a row of weight 0).
    """
    base = staging.base
    # The new codes (base and after) shifted to 0..new-1, known ones below 0: not ordered. In
    # numpy and one pass over the rows until every new code is met (meeting_ranks): a batch of
    # a million new categories pays no Python step, and no sort of its rows, here.
    live = None if weights is None else weights != 0
    ranks = meeting_ranks([assigned - base, correct - base], len(staging.new),
                          live)  # (provisional - base)
    met = np.argsort(ranks, kind="stable")  # (the ranks are distinct)
    renumber = np.empty(len(met), dtype=np.int64)  # provisional code - base -> final code
    renumber[met] = np.arange(base, base + len(met))
    provisional = list(staging.new)  # in provisional code order: join and _unseen append
    for position, label in staging.later.items():
        if ranks[position - base] % 2:  # (met first on the correct side)
            provisional[position - base] = label
    mixed = [(side, items) for side, items in enumerate(staging.sides) if items is not None]
    if mixed:  # O(the categories such a side meets first), only then
        rows, sides = meeting_places(ranks, 2, live)
        for side, items in mixed:
            for at in np.flatnonzero(sides == side).tolist():
                provisional[at] = items[int(rows[at])]
    staging.later, staging.sides = {}, []
    staging.new = dict(zip(map(provisional.__getitem__, met.tolist()),
                           range(base, base + len(met))))

    def renumbered(codes: NDArray[np.int64]) -> NDArray[np.int64]:
        fresh = codes >= base
        if not fresh.any():
            return codes
        codes = codes.copy()
        codes[fresh] = renumber[codes[fresh] - base]
        return codes

    return renumbered(assigned), renumbered(correct)


def category_codes(values: NDArray[Any] | CodedLabels, staging: Staging,
                    where: str) -> tuple[NDArray[np.int64], bool]:
    """The category index of every label in ``values`` (-1 where ignored), and whether none is -1.

    The labels are coded (and checked) by :func:`contingency._coding.encode`;
    each distinct label is then resolved once: known ones by dictionary
    look-ups in C, new ones through ``staging``, which adds them (in one
    pass: 10**6 new categories cost about a second), ignores or refuses them.
    """
    codes, distinct = encode(values, where)
    staging.sides.append(values.items if isinstance(values, CodedLabels) else None)
    staged = len(staging.new)  # (new categories an earlier side staged: codes base..)
    positions = np.fromiter(map(staging.index.get, distinct, repeat(-2)), dtype=np.int64,
                            count=len(distinct))
    fresh = np.flatnonzero(positions == -2)
    if fresh.size and staging.policy == "add" and not staging.removing:
        positions[fresh] = staging.join([distinct[at] for at in fresh.tolist()])
        fresh = fresh[:0]
    for unseen in fresh.tolist():
        try:
            positions[unseen] = staging.position(distinct[unseen], where)
        except (ValueError, TypeError):  # refused: named again with its first position
            first = int(np.flatnonzero(codes == unseen)[0])
            staging.position(distinct[unseen], f"{where}[{first}]")
            raise
    if staged:
        _note_later_objects(staging, distinct, positions, staged)
    if np.array_equal(positions, np.arange(len(distinct))):
        return codes, True  # the codes are already the category indices
    return positions[codes], not positions.size or bool(positions.min() >= 0)


def _note_later_objects(staging: Staging, distinct: Sequence[Hashable],
                        positions: NDArray[np.int64], staged: int) -> None:
    """Keep in ``staging.later`` each label of this side equal to one of the ``staged`` new
    categories an earlier side staged but of another type, so that the side meeting it first
    gives the category its object, as an add_result loop does (:func:`first_seen_order`).
    O(labels of this side that earlier sides staged)."""
    base = staging.base
    shared = np.flatnonzero((positions >= base) & (positions < base + staged))
    if not shared.size:
        return
    earlier = list(islice(staging.new, staged))
    for at, position in zip(shared.tolist(), positions[shared].tolist()):
        label = distinct[at]
        if type(label) is not type(earlier[position - base]):
            staging.later.setdefault(position, label)
