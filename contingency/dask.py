"""Contingency and PartitionComparison on Dask: partitions counted where they live, merged in a tree.

Needs the ``dask`` extra (``pip install "contingency[dask]"``: Dask with its
DataFrame, its distributed scheduler and pyarrow). ``import contingency``
never imports this module, nor Dask.

:func:`classify` and :func:`compare` take a Dask DataFrame (or a Dask Bag of
records) and return the accumulator one process would have built from the
same rows in the same order: equal (``==``) to it, so every count and every
score is the same.

How: one task per partition counts that partition with the accumulators'
batch paths (:meth:`Contingency.add_results` with numpy label arrays or
indicator matrices, :meth:`PartitionComparison.add_many` with the distinct
label pairs and their counts), so no Python code runs per row where the
column allows it (strings are coded by Arrow in C; a Bag of Python objects
needs one pass to pick its fields). What a task returns is an accumulator:
its counts, never the rows. Then a tree of tasks merges them
(:meth:`Contingency.merge`, :meth:`PartitionComparison.merge`), at most
``split_every`` at a time, always in partition order, so that an open
category set lists its categories as first met, as one process would.
Merging is exact addition, so the result does not depend on the partitioning
or on the shape of the tree; a task retried after a worker died recounts its
own partition into a new accumulator and merges copies, so nothing is
counted twice.

By default the caller gets the ordinary accumulator (``compute=True``): the
state is small, and what one wants of it is its scores. With
``compute=False`` the caller gets a :class:`dask.delayed.Delayed` that
computes to that accumulator, to compute it together with other work in one
pass (``dask.compute(classify(..., compute=False), compare(..., compute=False))``).
Either way the computation runs on the current Dask scheduler (a
``distributed.Client`` if one is active).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

import numpy as np
from numpy.typing import NDArray

from contingency._changes import Staging
from contingency._coding import CodedLabels, encode
from contingency._contingency import Contingency
from contingency._grouped import GroupedContingency
from contingency._inputs import exact_weights, label_sequence
from contingency._multiclass_threshold import MulticlassThresholdContingency
from contingency._partition import PartitionComparison
from contingency._table import count_cells
from contingency._threshold import ThresholdContingency

if TYPE_CHECKING:
    from dask.delayed import Delayed

__all__ = ["classify", "compare", "curves"]

#: How many accumulators one task of the tree merges.
SPLIT_EVERY = 8
#: The cells (rows x categories, one byte each) of one indicator matrix of a multi-label batch.
_CHUNK_CELLS = 1 << 22

Accumulator = TypeVar("Accumulator", Contingency, GroupedContingency, PartitionComparison,
                      ThresholdContingency, MulticlassThresholdContingency)


# The public functions -------------------------------------------------------------------------


@overload
def classify(frame: Any, *, assigned: Hashable, correct: Hashable,
             categories: Iterable[Hashable] | None = None, label_sep: str | None = None,
             weights: Hashable | None = None, group: None = None, compute: Literal[True] = True,
             split_every: int = SPLIT_EVERY, **settings: Any) -> Contingency: ...
@overload
def classify(frame: Any, *, assigned: Hashable, correct: Hashable,
             categories: Iterable[Hashable] | None = None, label_sep: str | None = None,
             weights: Hashable | None = None, group: Hashable | list[Hashable],
             compute: Literal[True] = True, split_every: int = SPLIT_EVERY,
             **settings: Any) -> GroupedContingency: ...
@overload
def classify(frame: Any, *, assigned: Hashable, correct: Hashable,
             categories: Iterable[Hashable] | None = None, label_sep: str | None = None,
             weights: Hashable | None = None, group: Hashable | list[Hashable] | None = None,
             compute: Literal[False], split_every: int = SPLIT_EVERY,
             **settings: Any) -> Delayed: ...
def classify(frame: Any, *, assigned: Hashable, correct: Hashable,
             categories: Iterable[Hashable] | None = None, label_sep: str | None = None,
             weights: Hashable | None = None, group: Hashable | list[Hashable] | None = None,
             compute: bool = True, split_every: int = SPLIT_EVERY,
             **settings: Any) -> Contingency | GroupedContingency | Delayed:
    """A :class:`~contingency.Contingency` of the results in ``frame``, one per row, counted by partition.

    ``assigned`` and ``correct`` name the columns (or, for a Bag, the key of
    each record) holding what the classifier assigned and the correct
    categories. With ``label_sep`` each cell is a string of categories joined
    by it (``"sports|science"``; empty pieces are skipped, so ``""`` is a
    result with no category on that side); without it each cell is one
    category. ``weights``, if given, names a column of non-negative weights,
    one per result, counted exactly as :meth:`Contingency.add_results`
    counts them. ``categories`` and ``settings`` (``unknown``,
    ``zero_division``) are :class:`~contingency.Contingency`'s, and the
    result equals ``Contingency(categories, **settings)`` fed the rows in
    order. ``compute=False`` returns a Dask object that computes to it.

    ``group``, if given, names the column of each result's group, or a list
    of columns whose values together make it (several features): the result
    is then a :class:`~contingency.GroupedContingency`, equal to
    ``GroupedContingency(categories, **settings)`` fed the rows in order.

    >>> import dask.dataframe as dd, pandas as pd
    >>> rows = pd.DataFrame({"predicted": ["sports", "politics|science", "science", ""],
    ...                      "truth": ["sports", "science", "politics", "science"]})
    >>> frame = dd.from_pandas(rows, npartitions=2)
    >>> s = classify(frame, assigned="predicted", correct="truth", label_sep="|")
    >>> s.categories, s.n_results, s.micro_f1
    (('politics', 'science', 'sports'), 4, 0.5)
    >>> s == Contingency().add_results([["sports"], ["politics", "science"], ["science"], []],
    ...                                [["sports"], ["science"], ["politics"], ["science"]])
    True
    >>> rows["desk"] = ["home", "world", "world", "home"]
    >>> g = classify(dd.from_pandas(rows, npartitions=2), assigned="predicted", correct="truth",
    ...              label_sep="|", group="desk")
    >>> g.groups, g.by_group("micro_f1")
    (('home', 'world'), {'home': 0.6666666666666666, 'world': 0.4})
    """
    if settings.get("verbose"):
        raise ValueError("classify: verbose=True would print on the workers; it is not supported")
    if label_sep is not None and (not isinstance(label_sep, str) or not label_sep):
        raise ValueError(f"classify: label_sep must be a non-empty string or None, not {label_sep!r}")
    columns = [assigned, correct] if weights is None else [assigned, correct, weights]
    if group is not None:
        features = list(group) if isinstance(group, list) else [group]
        if not features:
            raise ValueError("classify: group must name a column, or a non-empty list of them")
        grouped = GroupedContingency(categories, **settings)  # the settings checked here
        return _evaluate(frame, [*columns, *features],
                         _ClassifyGrouped(grouped, assigned, correct, tuple(features), label_sep,
                                          weights), "classify", compute, split_every)
    template = Contingency(categories, **settings)  # checks the settings here, not on a worker
    count = _Classify(template, assigned, correct, label_sep, weights)
    return _evaluate(frame, columns, count, "classify", compute, split_every)


@overload
def compare(frame: Any, *, reference: Hashable, model: Hashable, weights: Hashable | None = None,
            compute: Literal[True] = True,
            split_every: int = SPLIT_EVERY) -> PartitionComparison: ...
@overload
def compare(frame: Any, *, reference: Hashable, model: Hashable, weights: Hashable | None = None,
            compute: Literal[False], split_every: int = SPLIT_EVERY) -> Delayed: ...
def compare(frame: Any, *, reference: Hashable, model: Hashable, weights: Hashable | None = None,
            compute: bool = True, split_every: int = SPLIT_EVERY) -> PartitionComparison | Delayed:
    """A :class:`~contingency.PartitionComparison` of two labelings in ``frame``, one element per row.

    ``reference`` and ``model`` name the columns (or a Bag's record keys) of
    the known classes and of the clusters; ``weights``, if given, names a
    column of non-negative integer multiplicities. The result equals
    ``PartitionComparison().add_many(reference, model, weights)`` over the
    whole frame. ``compute=False`` returns a Dask object that computes to it.

    >>> import dask.dataframe as dd, pandas as pd
    >>> rows = pd.DataFrame({"known": ["a", "a", "b", "b", "c"], "cluster": [1, 1, 2, 1, 3]})
    >>> c = compare(dd.from_pandas(rows, npartitions=2), reference="known", model="cluster")
    >>> c == PartitionComparison.from_labels(rows["known"].tolist(), rows["cluster"].tolist())
    True
    >>> round(c.adjusted_rand_index, 4), c.purity
    (0.2105, 0.8)
    """
    count = _Compare(reference, model, weights)
    columns = [reference, model] if weights is None else [reference, model, weights]
    return _evaluate(frame, columns, count, "compare", compute, split_every)


def curves(frame: Any, *, score: Hashable | list[Hashable], correct: Hashable | list[Hashable],
           weights: Hashable | None = None, classes: Iterable[Hashable] | None = None,
           compute: bool = True, split_every: int = SPLIT_EVERY,
           **settings: Any) -> ThresholdContingency | MulticlassThresholdContingency | Delayed:
    """A :class:`~contingency.ThresholdContingency` of the scored rows of ``frame``, counted by partition.

    ``score`` names the column of scores and ``correct`` that of the truth
    (a bool, 0/1, or a label with ``pos_label=``); ``weights``, if given, a
    column of weights (fractional ones counted exactly); ``settings`` (``bins``, ``pos_label``,
    ``zero_division``) are :class:`~contingency.ThresholdContingency`'s.
    With ``score`` a list of K columns (one per class) the result is a
    :class:`~contingency.MulticlassThresholdContingency` of ``classes``
    (by default the score columns' names), ``correct`` naming the column of
    each row's class, or a list of K indicator columns (multi-label).
    The result equals the accumulator of one process fed every row, since
    merging is exact addition; ``compute=False`` returns a Dask object that
    computes to it.

    >>> import dask.dataframe as dd, pandas as pd
    >>> rows = pd.DataFrame({"p": [0.8, 0.4, 0.35, 0.1], "spam": [1, 0, 1, 0]})
    >>> curve = curves(dd.from_pandas(rows, npartitions=2), score="p", correct="spam")
    >>> one_process = ThresholdContingency(); one_process.add_results(rows["p"], rows["spam"])
    >>> curve.roc_auc(), curve == one_process
    (0.75, True)
    """
    if isinstance(score, list):
        multilabel = isinstance(correct, list)
        truth: list[Hashable] = list(correct) if isinstance(correct, list) else [correct]
        if multilabel and len(truth) != len(score):
            raise ValueError(f"curves: correct names {len(truth)} indicator columns for "
                             f"{len(score)} score columns")
        labels = list(score) if classes is None else list(classes)
        template: Any = MulticlassThresholdContingency(labels, multilabel=multilabel, **settings)
        count: Any = _Curves(template, tuple(score), tuple(truth), weights)
        columns = [*score, *truth]
    else:
        if isinstance(correct, list) or classes is not None:
            raise ValueError("curves: correct as a list of columns, and classes=, go with score "
                             "as a list of columns (one per class)")
        template = ThresholdContingency(**settings)  # the settings checked here, not on a worker
        count = _Curves(template, (score,), (correct,), weights)
        columns = [score, correct]
    if weights is not None:
        columns.append(weights)
    return _evaluate(frame, columns, count, "curves", compute, split_every)


# The graph: one task per partition, then a tree of merges ---------------------------------------


def _evaluate(frame: Any, columns: list[Hashable], count: Callable[[Any], Accumulator],
              caller: str, compute: bool, split_every: int) -> Accumulator | Delayed:
    import dask.bag
    import dask.dataframe
    from dask.base import compute as dask_compute
    from dask.delayed import delayed

    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise ValueError(f"{caller}: split_every must be an integer of at least 2, not {split_every!r}")
    if isinstance(frame, dask.dataframe.DataFrame):
        missing = [column for column in columns if column not in frame.columns]
        if missing:
            raise ValueError(f"{caller}: the frame has no column {missing[0]!r} "
                             f"(it has {', '.join(map(repr, frame.columns))})")
        parts = frame[list(dict.fromkeys(columns))].to_delayed()
    elif isinstance(frame, dask.bag.Bag):
        parts = frame.to_delayed()
    else:
        raise TypeError(f"{caller}: frame must be a Dask DataFrame or Bag, not {type(frame).__name__} "
                        "(dask.dataframe.from_pandas makes one from a pandas DataFrame)")
    # Task names say what a task does, on a dashboard or in a task stream: "classify-count-...",
    # "classify-merge-...".
    name = f"{caller}-{{}}-{uuid.uuid4().hex}-{{}}"
    task = delayed(_counted, pure=False)
    states = [task(part, number, count, caller, dask_key_name=name.format("count", number))
              for number, part in enumerate(parts)]
    if not states:  # a Bag with no partition
        states = [task([], 0, count, caller, dask_key_name=name.format("count", 0))]
    merge = delayed(_merged, pure=False)
    level = 0
    while len(states) > 1:
        level += 1
        states = [merge(*states[start:start + split_every],
                        dask_key_name=name.format("merge", f"{level}-{start}"))
                  for start in range(0, len(states), split_every)]
    lazy: Delayed = states[0]
    if not compute:
        return lazy
    result: Accumulator = dask_compute(lazy)[0]
    return result


def _counted(part: Any, number: int, count: Callable[[Any], Accumulator],
             caller: str) -> Accumulator:
    """One partition's accumulator; an error names the partition."""
    try:
        return count(part)
    except (ValueError, TypeError) as error:
        raise type(error)(f"{caller}: partition {number}: {error}") from error


def _merged(first: Accumulator, *others: Accumulator) -> Accumulator:
    """A new accumulator holding the counts of all the given ones, merged in order (the inputs untouched)."""
    total = first.copy()
    for other in others:
        total.merge(other)
    return total


# Counting one partition ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Classify:
    """What a classify task needs: the empty accumulator to copy, the columns, the separator."""

    template: Contingency
    assigned: Hashable
    correct: Hashable
    label_sep: str | None
    weights: Hashable | None = None

    def __call__(self, part: Any) -> Contingency:
        names = (f"column {self.assigned!r}", f"column {self.correct!r}")
        assigned, correct = _column(part, self.assigned), _column(part, self.correct)
        weights = live = None
        if self.weights is not None:
            weights = _plain(_column(part, self.weights))
            exact, _ = exact_weights(weights, len(weights), f"column {self.weights!r}")
            live = np.asarray(exact != 0, dtype=bool)
        result = self.template.copy()
        if self.label_sep is not None:
            _add_label_sets(result, (assigned, correct), self.label_sep, names, weights, live)
        else:
            pairs = None if weights is not None else _distinct_pairs(assigned, correct, names)
            if pairs is not None:
                # The distinct (assigned, correct) pairs in the order of their first rows, each
                # counted as often as it occurs: the state of the rows themselves.
                result.add_results(pairs[0], pairs[1], weights=pairs[2])
            else:
                result.add_results(_label_array(assigned, names[0]),
                                   _label_array(correct, names[1]), weights=weights)
        return result


@dataclass(frozen=True)
class _ClassifyGrouped:
    """What a grouped classify task needs: the empty accumulator, the columns, the separator."""

    template: GroupedContingency
    assigned: Hashable
    correct: Hashable
    features: tuple[Hashable, ...]
    label_sep: str | None
    weights: Hashable | None = None

    def __call__(self, part: Any) -> GroupedContingency:
        sides = []
        for key in (self.assigned, self.correct):
            values = _column(part, key)
            if self.label_sep is None:
                sides.append(_label_array(values, f"column {key!r}"))
            else:  # each cell a string of categories (a tuple of them, one alone as itself)
                if _arrow_strings(values, f"column {key!r}") is None:
                    raise TypeError(f"column {key!r}: with label_sep every cell must be a "
                                    "string of categories")
                cells = [tuple(piece for piece in cell.split(self.label_sep) if piece)
                         for cell in _plain(values).tolist()]
                sides.append([cell[0] if len(cell) == 1 else cell for cell in cells])
        columns = [_group_column(_column(part, key), f"column {key!r}") for key in self.features]
        groups = columns[0] if len(columns) == 1 else tuple(columns)
        weights = None if self.weights is None else _plain(_column(part, self.weights))
        return self.template.copy().add_results(sides[0], sides[1], groups=groups,
                                                weights=weights)


@dataclass(frozen=True)
class _Compare:
    """What a compare task needs: the columns of the two labelings and of the weights."""

    reference: Hashable
    model: Hashable
    weights: Hashable | None

    def __call__(self, part: Any) -> PartitionComparison:
        names = (f"column {self.reference!r}", f"column {self.model!r}")
        rows, row_labels = _codes(_column(part, self.reference), names[0])
        columns, column_labels = _codes(_column(part, self.model), names[1])
        weights = None if self.weights is None else _plain(_column(part, self.weights))
        # The cells of the codes (the distinct pairs, each with its number of elements), then
        # one add_many of the labels they stand for.
        cells = count_cells(rows, columns, weights, where=f"column {self.weights!r}", names=names)
        triples = list(cells.triples())
        reference = [row_labels[cast(int, row)] for row, _, _ in triples]  # the labels are codes
        model = [column_labels[cast(int, column)] for _, column, _ in triples]
        counts = [count for _, _, count in triples]
        return PartitionComparison().add_many(reference, model, weights=counts)


@dataclass(frozen=True)
class _Curves:
    """What a curves task needs: the empty accumulator to copy and the columns."""

    template: Any  # ThresholdContingency or MulticlassThresholdContingency
    scores: tuple[Hashable, ...]
    correct: tuple[Hashable, ...]
    weights: Hashable | None = None

    def __call__(self, part: Any) -> Any:
        weights = None if self.weights is None else _plain(_column(part, self.weights))
        result = self.template.copy()
        if len(self.scores) == 1 and isinstance(result, ThresholdContingency):
            result.add_results(_plain(_column(part, self.scores[0])),
                               _plain(_column(part, self.correct[0])), sample_weight=weights)
            return result
        matrix = np.column_stack([np.asarray(_plain(_column(part, key))) for key in self.scores]
                                 ) if len(part) else np.zeros((0, len(self.scores)))
        if len(self.correct) == 1:
            truth: Any = _plain(_column(part, self.correct[0]))
        else:
            truth = (np.column_stack([np.asarray(_plain(_column(part, key)))
                                      for key in self.correct])
                     if len(part) else np.zeros((0, len(self.correct)), dtype=bool))
        result.add_results(matrix, truth, sample_weight=weights)
        return result


def _column(part: Any, key: Hashable) -> Any:
    """One column of a partition: a pandas Series, or a Bag partition's field as a list."""
    if hasattr(part, "columns"):  # a pandas DataFrame
        return part[key]
    try:
        return [record[key] for record in part]
    except (KeyError, IndexError):
        raise ValueError(f"a record has no field {key!r}") from None


def _group_column(values: Any, where: str) -> CodedLabels:
    """A group column coded, each value checked as a label naming the column and the row (a
    missing value, pandas' ``NA`` included, is refused so); the batch takes the codes as they are."""
    return CodedLabels(*encode(label_sequence(values, where), where))


def _plain(values: Any) -> Any:
    """A Series as its numpy array; anything else as it is."""
    return values.to_numpy() if hasattr(values, "to_numpy") else values


def _arrow_strings(values: Any, where: str) -> Any:
    """``values`` as an Arrow array if it holds strings only (or their dictionary), else ``None``.

    A missing value is refused, naming its row, as the accumulators refuse ``None``.
    """
    import pyarrow as pa

    try:
        array = pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        # Mixed types, or an integer past int64 (a label, or one too long to be one): the
        # accumulators take them as they are, and check them
        return None
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    kind = array.type.value_type if pa.types.is_dictionary(array.type) else array.type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        return None
    if array.null_count:
        row = int(np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False))[0])
        raise ValueError(f"{where}[{row}]: None is not a valid label (a missing value)")
    return array


def _codes(values: Any, where: str) -> tuple[NDArray[np.int64], list[Hashable]]:
    """Codes ``0..K-1`` and the ``K`` distinct labels: strings coded by Arrow, the rest by ``encode``."""
    import pyarrow as pa

    array = _arrow_strings(values, where)
    if array is None:
        return encode(_plain(values), where)
    if not pa.types.is_dictionary(array.type):
        array = array.dictionary_encode()
    codes = array.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, array.dictionary.to_pylist()


def _label_array(values: Any, where: str) -> Any:
    """One label per row as a numpy array (strings decoded from Arrow's dictionary, no Python objects)."""
    array = _arrow_strings(values, where)
    if array is None:
        return _plain(values)
    codes, labels = _codes(array, where)
    return np.array(labels, dtype=str)[codes]


def _distinct_pairs(first: Any, second: Any, names: tuple[str, str]
                    ) -> tuple[list[Hashable], list[Hashable], NDArray[np.int64]] | None:
    """The distinct pairs of two label columns, ordered by the first row of each, and their counts.

    Ordered so, the pairs meet the labels in the order the rows do, so an
    open category set is ordered as the rows would order it. ``None`` when a
    cell is not a label (a Bag's record holding a list of categories): the
    batch path for sequences takes those.
    """
    try:
        rows, row_labels = _codes(first, names[0])
        columns, column_labels = _codes(second, names[1])
    except TypeError:
        return None
    if len(rows) != len(columns):
        raise ValueError(f"{names[0]} and {names[1]} have different lengths")
    width = max(len(column_labels), 1)
    keys, starts, counts = np.unique(rows * width + columns, return_index=True,
                                     return_counts=True)
    order = np.argsort(starts, kind="stable")
    keys, counts = keys[order], counts[order]
    return ([row_labels[row] for row in (keys // width).tolist()],
            [column_labels[column] for column in (keys % width).tolist()], counts)


def _add_label_sets(result: Contingency, sides: tuple[Any, Any], sep: str,
                    names: tuple[str, str], weights: Any = None,
                    live: NDArray[np.bool_] | None = None) -> None:
    """Count cells of categories joined by ``sep`` into ``result`` (fresh), through indicator matrices.

    The pieces are split and coded by Arrow; the categories are resolved as
    an ``add_result`` loop meets them (row by row, the assigned side first),
    so that ``result`` ends as that loop would leave it (rows of weight 0,
    ``live`` false, count nothing and meet no category); the indicator
    matrices are built a chunk of rows at a time, at most ``_CHUNK_CELLS``
    bytes each.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    rows: list[NDArray[np.int64]] = []
    pieces = []
    for values, where in zip(sides, names):
        array = _arrow_strings(values, where)
        if array is None:
            raise TypeError(f"{where}: with label_sep every cell must be a string of categories")
        lists = pc.split_pattern(array.cast(pa.large_string()), pattern=sep)
        flat, parents = lists.flatten(), lists.value_parent_indices()
        keep = pc.not_equal(flat, "")
        pieces.append(flat.filter(keep))
        rows.append(parents.filter(keep).to_numpy().astype(np.int64))
    n = len(sides[0])
    if len(sides[1]) != n:
        raise ValueError(f"{names[0]} and {names[1]} have different lengths")
    coded = pa.chunked_array(pieces, type=pa.large_string()).combine_chunks().dictionary_encode()
    codes = coded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    labels = coded.dictionary.to_pylist()
    # The order an add_result loop meets the categories: by row, the assigned side first.
    side = np.repeat(np.array([0, 1], dtype=np.int64), [len(rows[0]), len(rows[1])])
    met = 2 * np.concatenate(rows) + side
    if live is not None:
        met[~live[np.concatenate(rows)]] += 2 * n  # after every row that counts
    order = np.argsort(met, kind="stable")
    _, first = np.unique(codes[order], return_index=True)
    staging = Staging({label: i for i, label in enumerate(result.categories)}, result.unknown,
                      removing=False)
    position = np.empty(len(labels), dtype=np.int64)
    for code in np.argsort(first).tolist():
        position[code] = staging.position(labels[code], names[side[order[first[code]]]])
    table = [*result.categories, *staging.new]
    split = len(rows[0])
    columns = [position[codes[:split]], position[codes[split:]]]
    batch = Contingency(table)
    step = max(1, _CHUNK_CELLS // max(len(table), 1))
    for start in range(0, n, step):
        stop = min(start + step, n)
        matrices = []
        for side_rows, side_columns in zip(rows, columns):
            low, high = np.searchsorted(side_rows, [start, stop])
            chosen = side_columns[low:high]
            kept = chosen >= 0  # categories ignored by unknown="ignore" are -1
            matrix = np.zeros((stop - start, len(table)), dtype=np.uint8)
            matrix[side_rows[low:high][kept] - start, chosen[kept]] = 1
            matrices.append(matrix)
        batch.add_results(matrices[0], matrices[1],
                          weights=None if weights is None else weights[start:stop])
    result._add_counts(batch)  # batch declares the table only to order its columns

