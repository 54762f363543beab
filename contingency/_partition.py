"""PartitionComparison: two clusterings of one stream of elements, compared at any moment.

State, all of it exact integer counts:

- the contingency table: for each reference label, the model labels its
  elements went to and how many (``_cells[reference][model]``; no zero
  entries), and the two margins ``_reference_sizes`` and ``_model_sizes``;
- ``N``, the number of elements;
- three running sums, one per level of the table (cells, reference
  clusters, model clusters). Each is ONE Python integer that packs two
  exact counts: ``sum C(n, 2)`` (pairs inside a cell or cluster) in its low
  128 bits and ``sum n ln n`` as the exact integer ``sum fl(n ln n) 2**52``
  (:func:`contingency.formulas.partition.n_log_n_fixed`) above them.

Why the sums stay exact after any number of updates: when a cell (or a
cluster) holding ``n`` elements gains ``w``, its ``C(n, 2)`` changes by
``C(n + w, 2) - C(n, 2)`` and its ``n ln n`` term by
``F(n + w) - F(n)`` with ``F`` = ``n_log_n_fixed``: integers, added exactly.
So each running sum is at every moment *equal* to the sum recomputed from
the table (not merely close: there is no rounding to accumulate, after 10**7
updates or 10**12), it does not depend on the order of updates, and a
merged accumulator has bit-for-bit the sums, hence the scores, of one that
saw both streams. Both parts depend only on ``n`` for a unit step, so one
precomputed table entry updates both with a single integer addition
(``_UNIT``), which is what keeps :meth:`PartitionComparison.add` near a
microsecond. The pair part stays in ``[0, 2**128)`` because ``N`` is kept
below ``2**63``, so the two parts never mix.

Every score is one call into :mod:`contingency.formulas.partition` with the
sums (:class:`~contingency.formulas.partition.TableSums`): pair-counting and
information scores cost the same whatever the number of elements and the
size of the table. Adjusted mutual information, purity and the table read
the table; AMI caches its expected-MI term until the table changes.

A batch given to an empty accumulator (:meth:`PartitionComparison.from_labels`)
is counted with numpy and kept as arrays of the non-empty cells; it is turned
into dictionaries only when a single-element update needs them.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency._labels import check_label, label_from_json, label_to_json
from contingency.formulas import partition as _formulas
from contingency.formulas._numeric import check_count
from contingency.formulas.partition import (
    AverageMethod,
    PairConfusion,
    TableSums,
    n_log_n_fixed,
    n_log_n_fixed_sum,
    pairs,
    same_cluster_pairs,
)

if TYPE_CHECKING:
    from contingency.formulas.concentration import JaccardConcentrationResult

__all__ = ["PartitionComparison"]

_FORMAT = "contingency.PartitionComparison/1"
_PAIR_BITS = 128
_PAIR_MASK = (1 << _PAIR_BITS) - 1
#: N stays below this, so pair counts fit the 128 low bits and every count fits int64.
_MAX_ELEMENTS = 2**63 - 1
_UNIT_LIMIT = 1 << 16

Codes = NDArray[np.int64]


def _packed_step(n: int, weight: int) -> int:
    """The change of a packed sum when a cell or cluster of ``n`` elements gains ``weight``."""
    new = n + weight
    return ((n_log_n_fixed(new) - n_log_n_fixed(n)) << _PAIR_BITS) + (pairs(new) - pairs(n))


#: ``_UNIT[n] == _packed_step(n, 1)``, grown on demand up to ``_UNIT_LIMIT`` entries.
_UNIT: list[int] = []


def _unit_step(n: int) -> int:
    """``_packed_step(n, 1)``, extending ``_UNIT`` when ``n`` is within its limit.

    The table is replaced, never appended to in place, so a reader holding the
    old list never sees it half-built.
    """
    global _UNIT
    if n >= _UNIT_LIMIT:
        return _packed_step(n, 1)
    table = _UNIT
    start = len(table)
    if n >= start:
        stop = min(_UNIT_LIMIT, max(2 * start, n + 1, 1024))
        grown = list(table)
        previous = n_log_n_fixed(start)
        for k in range(start, stop):
            following = n_log_n_fixed(k + 1)
            grown.append(((following - previous) << _PAIR_BITS) + k)
            previous = following
        _UNIT = table = grown
    return table[n]


class _Cells(NamedTuple):
    """The non-empty cells of a table as arrays: the array form of the state.

    Every label is used by at least one cell; the arrays are never modified.
    """

    reference_labels: list[Hashable]
    model_labels: list[Hashable]
    rows: Codes
    columns: Codes
    counts: NDArray[Any]


def _sorted_labels(labels: Iterable[Hashable]) -> list[Hashable]:
    """Labels in sorted order; when types are mixed, numbers first, then by type name and ``repr``."""
    values = list(labels)
    try:
        return sorted(values)  # type: ignore[type-var]
    except TypeError:
        return sorted(values, key=_mixed_key)


def _mixed_key(label: Hashable) -> tuple[int, str, Any]:
    if isinstance(label, numbers.Real):
        return (0, "", label)
    return (1, type(label).__name__, repr(label))


@attrs.define(init=False, eq=False, repr=False)
class PartitionComparison:
    """Pair-counting, information and set-matching scores of two partitions, fed one element at a time.

    Each element has a label in the *reference* partition (the known classes)
    and one in the *model* partition (the clusters an algorithm made). Add
    elements one at a time, in batches, or remove them again (sliding
    windows), and read any score at any moment:

    >>> comparison = PartitionComparison()
    >>> for reference, model in [("cat", 1), ("cat", 1), ("dog", 2), ("dog", 1)]:
    ...     comparison.add(reference, model)
    >>> comparison.n_elements, comparison.pair_confusion()
    (4, PairConfusion(same_same=1, same_reference_only=1, same_model_only=2, different_different=2))
    >>> comparison.rand_index, round(comparison.adjusted_rand_index, 6)
    (0.5, 0.0)
    >>> comparison.remove("dog", 1)
    >>> comparison.rand_index, comparison.adjusted_rand_index, comparison.v_measure()
    (1.0, 1.0, 1.0)

    The same from whole label sequences, as in scikit-learn:

    >>> PartitionComparison.from_labels(["cat", "cat", "dog"], [1, 1, 2]) == comparison
    True

    Pair-counting scores (orientation: pairs of distinct elements; *precision*
    is about the pairs the model joins, *recall* about those the reference
    joins), information scores (MI, NMI, AMI, VI, homogeneity, completeness,
    V-measure) and set-matching scores (purity, inverse purity, R NMF's
    entropy) are each one call into :mod:`contingency.formulas.partition`,
    whose docstrings give every formula and degenerate-case convention.
    """

    _cells: dict[Hashable, dict[Hashable, int]] | None
    _arrays: _Cells | None
    _reference_sizes: dict[Hashable, int]
    _model_sizes: dict[Hashable, int]
    _n_elements: int
    _cells_sum: int
    _reference_sum: int
    _model_sum: int
    _expected: float | None

    def __init__(self) -> None:
        self._clear()

    # Constructors --------------------------------------------------------------------------

    @classmethod
    def from_labels(cls, reference_labels: Any, model_labels: Any) -> PartitionComparison:
        """An accumulator holding one element per position of the two label sequences.

        >>> c = PartitionComparison.from_labels([0, 0, 1, 1], [1, 1, 0, 0])
        >>> c.rand_index, c.adjusted_mutual_information()
        (1.0, 1.0)
        """
        return cls().add_many(reference_labels, model_labels)

    @classmethod
    def from_partitions(cls, first: Iterable[Iterable[Hashable]],
                        second: Iterable[Iterable[Hashable]],
                        check_validity: bool = False) -> PartitionComparison:
        """Compare two partitions given as lists of subsets (Set::Partitions::Similarity's form).

        ``first`` is the reference, ``second`` the model; each subset is any
        iterable of hashable elements. With ``check_validity=True`` the
        partitions are checked as the Perl module does and a ``ValueError``
        carries its message. Without it, an element listed in several subsets
        of one partition counts in the last (as Perl's lookup does), a subset's
        repeated element counts once, and an element missing from one partition
        raises ``ValueError`` naming it (it cannot be placed in the table).

        >>> c = PartitionComparison.from_partitions([["a", "b"], [1, 2]], [["a", "b", 1], [2]])
        >>> c.rand_index, c.jaccard
        (0.5, 0.25)
        >>> PartitionComparison.from_partitions([[1]], [[1, 2]], check_validity=True)
        Traceback (most recent call last):
        ...
        ValueError: partitions are invalid, they have different set elements.
        """
        places = []
        for name, partition in (("first", first), ("second", second)):
            subsets = [[check_label(element, f"{name} partition, subset {index}")
                        for element in subset]
                       for index, subset in enumerate(_subsets(partition, name))]
            if check_validity and not _disjoint(subsets):
                raise ValueError(f"{name} partition is an invalid partition, an element occurs "
                                 "in two or more subsets.")
            place: dict[Hashable, int] = {}
            for index, subset in enumerate(subsets):
                for element in subset:
                    place[element] = index
            places.append(place)
        reference_place, model_place = places
        if reference_place.keys() != model_place.keys():
            if check_validity:
                raise ValueError("partitions are invalid, they have different set elements.")
            missing = [e for e in reference_place if e not in model_place]
            where = "first" if missing else "second"
            element = missing[0] if missing else next(e for e in model_place
                                                      if e not in reference_place)
            raise ValueError(f"element {element!r} occurs only in the {where} partition: both "
                             "partitions must cover the same elements")
        elements = list(reference_place)
        return cls().add_many(np.array([reference_place[e] for e in elements], dtype=np.int64),
                              np.array([model_place[e] for e in elements], dtype=np.int64))

    # Updates -------------------------------------------------------------------------------

    def add(self, reference: Hashable, model: Hashable) -> None:
        """Add one element, labelled ``reference`` in the reference partition and ``model`` in the model's.

        Constant time. A ``None``, NaN or unhashable label raises and changes nothing.
        """
        # The hot loop of streaming evaluation: _update(reference, model, 1) for a cell
        # whose row and column exist (their labels were checked when they arrived) and
        # whose counts are within the step table. Anything else takes _update itself.
        reference_sizes, model_sizes, cells = self._reference_sizes, self._model_sizes, self._cells
        try:
            a = reference_sizes.get(reference, 0)
            b = model_sizes.get(model, 0)
        except TypeError:
            a = b = 0
        if a and b and cells is not None:
            row = cells[reference]  # a row exists while its reference label has elements
            n = row.get(model, 0)
            unit = _UNIT
            try:
                cell_step, reference_step, model_step = unit[n], unit[a], unit[b]
            except IndexError:
                pass
            else:
                row[model] = n + 1
                reference_sizes[reference] = a + 1
                model_sizes[model] = b + 1
                self._cells_sum += cell_step
                self._reference_sum += reference_step
                self._model_sum += model_step
                self._n_elements += 1
                self._expected = None
                return
        self._update(reference, model, 1)

    def remove(self, reference: Hashable, model: Hashable) -> None:
        """Take back one element added as ``(reference, model)``: :meth:`add` with weight -1.

        >>> c = PartitionComparison()
        >>> c.add("x", 1)
        >>> c.remove("x", 2)
        Traceback (most recent call last):
        ...
        ValueError: remove: no element with reference 'x' and model 2 to remove
        """
        self._update(reference, model, -1)

    def add_many(self, reference_labels: Any, model_labels: Any,
                 weights: Any = None) -> PartitionComparison:
        """Add one element per position (``weights[i]`` elements if given); returns ``self``.

        Labels are sequences or numpy arrays of hashable labels, mixed types
        allowed; ``weights`` are non-negative integer multiplicities. Every
        input is checked before anything changes.

        >>> c = PartitionComparison().add_many(["a", "a", "b"], [1, 2, 2], weights=[2, 1, 3])
        >>> c.n_elements, c.same_same
        (6, 4)
        """
        return self._add_batch(_batch(reference_labels, model_labels, weights, "add_many"))

    def _add_batch(self, batch: _Cells) -> PartitionComparison:
        self._check_room(_total(batch.counts))
        if self._n_elements == 0 and self._arrays is None:
            if batch.counts.size:
                self._set_arrays(batch)
            return self
        for reference, model, count in _cell_triples(batch):
            self._update(reference, model, count)
        return self

    def remove_many(self, reference_labels: Any, model_labels: Any,
                    weights: Any = None) -> PartitionComparison:
        """Take back elements added earlier (the inverse of :meth:`add_many`); returns ``self``.

        Every element must be there; if one is not, ``ValueError`` names it and
        nothing changes.

        >>> c = PartitionComparison.from_labels(["a", "a", "b"], [1, 1, 2])
        >>> c.remove_many(["a", "b"], [1, 2]) == PartitionComparison.from_labels(["a"], [1])
        True
        """
        batch = _batch(reference_labels, model_labels, weights, "remove_many")
        triples = list(_cell_triples(batch))
        cells = self._dict_form()
        for reference, model, count in triples:
            row = cells.get(reference)
            have = 0 if row is None else row.get(model, 0)
            if have < count:
                raise ValueError(f"remove_many: cannot remove {count} element(s) with reference "
                                 f"{reference!r} and model {model!r}: there are {have}")
        for reference, model, count in triples:
            self._update(reference, model, -count)
        return self

    def merge(self, other: PartitionComparison) -> PartitionComparison:
        """Add ``other``'s elements to this accumulator, in place; returns ``self``.

        Labels are matched by value. The result equals an accumulator that saw
        both streams, and so do its sums: every score is identical.

        >>> left = PartitionComparison.from_labels(["a", "b"], [1, 1])
        >>> right = PartitionComparison.from_labels(["b"], [2])
        >>> left + right == PartitionComparison.from_labels(["a", "b", "b"], [1, 1, 2])
        True
        """
        if not isinstance(other, PartitionComparison):
            raise TypeError(f"can only merge a PartitionComparison, not {type(other).__name__}")
        self._check_room(other._n_elements)
        if self._n_elements == 0 and self._arrays is None:
            self._copy_from(other)
            return self
        theirs = other._n_cells()
        if 8 * theirs >= self._n_cells():
            # Tables of comparable size (as in a tree of partial results): add the two
            # tables with numpy and recompute the sums from the result, in time linear in
            # the cells, instead of one update per cell. The sums are exact either way.
            self._set_arrays(_added_cells(self._cell_arrays(), other._cell_arrays()))
            return self
        for reference, model, count in list(other._triples()):
            self._update(reference, model, count)
        return self

    def __iadd__(self, other: PartitionComparison) -> PartitionComparison:
        return self.merge(other)

    def __add__(self, other: PartitionComparison) -> PartitionComparison:
        if not isinstance(other, PartitionComparison):
            return NotImplemented
        return self.copy().merge(other)

    def copy(self) -> PartitionComparison:
        """An independent accumulator with the same counts."""
        result = type(self)()
        result._copy_from(self)
        return result

    def reset(self) -> None:
        """Forget every element."""
        self._clear()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartitionComparison):
            return NotImplemented
        return (self._n_elements == other._n_elements
                and self._reference_sizes == other._reference_sizes
                and self._model_sizes == other._model_sizes
                and self._cell_map() == other._cell_map())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"PartitionComparison(n_elements={self._n_elements}, "
                f"reference_clusters={len(self._reference_sizes)}, "
                f"model_clusters={len(self._model_sizes)})")

    # Counts --------------------------------------------------------------------------------

    @property
    def n_elements(self) -> int:
        """The number of elements, N."""
        return self._n_elements

    @property
    def n_reference_clusters(self) -> int:
        """The number of non-empty reference clusters."""
        return len(self._reference_sizes)

    @property
    def n_model_clusters(self) -> int:
        """The number of non-empty model clusters."""
        return len(self._model_sizes)

    @property
    def n_pairs(self) -> int:
        """The number of pairs of distinct elements, ``N (N - 1) / 2``."""
        return pairs(self._n_elements)

    def table_sums(self) -> TableSums:
        """The table's sums that every constant-time score is computed from (exact integers).

        >>> PartitionComparison.from_labels([1, 1, 2], [1, 1, 1]).table_sums().same_model
        3
        """
        cells, reference, model = self._cells_sum, self._reference_sum, self._model_sum
        return TableSums(
            n_elements=self._n_elements,
            n_reference_clusters=len(self._reference_sizes),
            n_model_clusters=len(self._model_sizes),
            same_same=cells & _PAIR_MASK,
            same_reference=reference & _PAIR_MASK,
            same_model=model & _PAIR_MASK,
            cells_n_log_n=cells >> _PAIR_BITS,
            reference_n_log_n=reference >> _PAIR_BITS,
            model_n_log_n=model >> _PAIR_BITS,
        )

    def pair_confusion(self) -> PairConfusion:
        """The four pair counts ``(same_same, same_reference_only, same_model_only, different_different)``.

        Exact integers; scikit-learn's ``pair_confusion_matrix`` counts ordered
        pairs, so its cells are twice these (``[[dd, smo], [sro, ss]]``).
        """
        return _formulas.pair_confusion(self.table_sums())

    @property
    def same_same(self) -> int:
        """Pairs in the same cluster in both partitions."""
        return self._cells_sum & _PAIR_MASK

    @property
    def same_reference_only(self) -> int:
        """Pairs in the same reference cluster but different model clusters."""
        return self.pair_confusion().same_reference_only

    @property
    def same_model_only(self) -> int:
        """Pairs in the same model cluster but different reference clusters."""
        return self.pair_confusion().same_model_only

    @property
    def different_different(self) -> int:
        """Pairs in different clusters in both partitions."""
        return self.pair_confusion().different_different

    def contingency_table(self) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...],
                                         NDArray[np.int64]]:
        """Row (reference) labels, column (model) labels and the counts as a 2-D int64 array.

        Labels are in sorted order (mixed types: numbers first, then by type name and ``repr``).
        int64 always holds the counts: N is kept below ``2**63``.

        >>> rows, columns, table = PartitionComparison.from_labels(
        ...     ["b", "a", "a"], [1, 1, 2]).contingency_table()
        >>> rows, columns, table.tolist()
        (('a', 'b'), (1, 2), [[1, 1], [1, 0]])
        """
        cells = self._cell_arrays()
        rows, columns, counts = self._positions(cells)
        reference = _sorted_labels(cells.reference_labels)
        model = _sorted_labels(cells.model_labels)
        table = np.zeros((len(reference), len(model)), dtype=np.int64)
        table[rows, columns] = counts
        return tuple(reference), tuple(model), table

    # Pair-counting scores ------------------------------------------------------------------

    @property
    def accuracy(self) -> float:
        """Share of pairs on which the partitions agree (the Rand index; 1.0 with no pairs)."""
        return _formulas.rand_index(*self.pair_confusion())

    @property
    def rand_index(self) -> float:
        """The Rand index: :attr:`accuracy`."""
        return self.accuracy

    @property
    def distance(self) -> float:
        """``1 - accuracy``: Set::Partitions::Similarity's distance, a metric on partitions."""
        return 1.0 - self.accuracy

    @property
    def precision(self) -> float:
        """Pair precision ``same_same / (same_same + same_model_only)``.

        See :func:`contingency.formulas.partition.precision` for the undefined case.
        """
        return _formulas.precision(*self.pair_confusion())

    @property
    def recall(self) -> float:
        """Pair recall ``same_same / (same_same + same_reference_only)``.

        See :func:`contingency.formulas.partition.recall` for the undefined case.
        """
        return _formulas.recall(*self.pair_confusion())

    @property
    def f1(self) -> float:
        """Harmonic mean of pair precision and recall."""
        return _formulas.f1(*self.pair_confusion())

    @property
    def jaccard(self) -> float:
        """``same_same / (pairs joined by either)``: Set::Partitions::Similarity's precision."""
        return _formulas.jaccard(*self.pair_confusion())

    @property
    def fowlkes_mallows(self) -> float:
        """Geometric mean of pair precision and recall (1.0 for identical partitions)."""
        return _formulas.fowlkes_mallows(*self.pair_confusion())

    @property
    def adjusted_rand_index(self) -> float:
        """The Rand index adjusted for chance (Hubert and Arabie)."""
        return _formulas.adjusted_rand_index(*self.pair_confusion())

    # Information scores --------------------------------------------------------------------

    def mutual_information(self, base: float = math.e) -> float:
        """Mutual information of the two partitions, in nats unless ``base`` is given."""
        return _formulas.mutual_information(self.table_sums(), base)

    def entropy_reference(self, base: float = math.e) -> float:
        """Entropy of the reference partition."""
        return _formulas.entropy_reference(self.table_sums(), base)

    def entropy_model(self, base: float = math.e) -> float:
        """Entropy of the model partition."""
        return _formulas.entropy_model(self.table_sums(), base)

    def variation_of_information(self, base: float = math.e) -> float:
        """Variation of information ``H(R) + H(M) - 2 MI`` (0.0 for identical partitions)."""
        return _formulas.variation_of_information(self.table_sums(), base)

    def normalized_mutual_information(self,
                                      average_method: AverageMethod = "arithmetic") -> float:
        """MI over the "arithmetic", "geometric", "min" or "max" mean of the two entropies."""
        return _formulas.normalized_mutual_information(self.table_sums(), average_method)

    def adjusted_mutual_information(self, average_method: AverageMethod = "arithmetic") -> float:
        """MI adjusted for chance (Vinh et al.); the expected MI is cached until the table changes.

        >>> c = PartitionComparison.from_labels([0, 0, 0, 0], [0, 1, 2, 3])
        >>> c.adjusted_mutual_information()
        0.0
        """
        expected = self._expected
        if expected is None:
            expected = _formulas.expected_mutual_information(
                np.fromiter(self._reference_sizes.values(), dtype=np.int64,
                            count=len(self._reference_sizes)),
                np.fromiter(self._model_sizes.values(), dtype=np.int64,
                            count=len(self._model_sizes)))
            self._expected = expected
        return _formulas.adjusted_mutual_information(self.table_sums(), expected, average_method)

    @property
    def homogeneity(self) -> float:
        """``MI / H(reference)``: 1.0 when every model cluster holds a single class."""
        return _formulas.homogeneity(self.table_sums())

    @property
    def completeness(self) -> float:
        """``MI / H(model)``: 1.0 when every class lies in a single model cluster."""
        return _formulas.completeness(self.table_sums())

    def v_measure(self, beta: float = 1.0) -> float:
        """Weighted harmonic mean of homogeneity and completeness."""
        return _formulas.v_measure(self.table_sums(), beta)

    # Set matching --------------------------------------------------------------------------

    @property
    def purity(self) -> float:
        """Share of elements in their model cluster's majority class (R NMF's purity)."""
        cells = self._cell_arrays()
        return _formulas.purity_from_maxima(_maxima(cells.columns, cells.counts,
                                                    len(cells.model_labels)),
                                            self._n_elements)

    @property
    def inverse_purity(self) -> float:
        """Share of elements in their class's majority model cluster."""
        cells = self._cell_arrays()
        return _formulas.purity_from_maxima(_maxima(cells.rows, cells.counts,
                                                    len(cells.reference_labels)),
                                            self._n_elements)

    @property
    def entropy(self) -> float:
        """R NMF's entropy: ``H(reference | model) / log(number of classes)``, 0.0 when undefined."""
        return _formulas.nmf_entropy(self.table_sums())

    def jaccard_concentration_index(self, noise_label: Hashable | None = None,
                                    return_all: bool = False,
                                    ordered_labels: Sequence[Any] = ()
                                    ) -> float | JaccardConcentrationResult:
        """The Jaccard-Concentration Index of the table (reference = true labels, model = predicted).

        See :func:`contingency.formulas.concentration.jaccard_concentration_index_from_table`.
        """
        from contingency.formulas.concentration import jaccard_concentration_index_from_table

        reference, model, table = self.contingency_table()
        return jaccard_concentration_index_from_table(
            table, reference, model, noise_label=noise_label, return_all=return_all,
            ordered_labels=ordered_labels)

    # JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The counts as JSON-safe data: labels and the non-empty cells ``[row, column, count]``.

        >>> state = PartitionComparison.from_labels(["x", "x", "y"], [1, 2, 2]).to_dict()
        >>> state["reference_labels"], state["model_labels"], state["cells"]
        (['x', 'y'], [1, 2], [[0, 0, 1], [0, 1, 1], [1, 1, 1]])
        """
        reference, model, table = self.contingency_table()
        rows, columns = np.nonzero(table)
        return {
            "format": _FORMAT,
            "reference_labels": [label_to_json(label, "reference label") for label in reference],
            "model_labels": [label_to_json(label, "model label") for label in model],
            "cells": [[row, column, count] for row, column, count in
                      zip(rows.tolist(), columns.tolist(), table[rows, columns].tolist())],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PartitionComparison:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any malformed state.

        >>> PartitionComparison.from_dict({"format": "contingency.PartitionComparison/1",
        ...     "reference_labels": ["x"], "model_labels": [1, 2], "cells": [[0, 0, 3]]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: model label 2 has no elements
        """
        return _from_dict(cls, data)

    # Internals -----------------------------------------------------------------------------

    def _update(self, reference: Hashable, model: Hashable, weight: int) -> None:
        """Change cell (reference, model) by ``weight`` elements: the one path every change takes.

        (:meth:`add` inlines its unit step for the common case, and comes here
        for everything else.) Everything that can fail is checked before the first write.
        """
        reference_sizes = self._reference_sizes
        model_sizes = self._model_sizes
        try:
            a = reference_sizes.get(reference, 0)
            b = model_sizes.get(model, 0)
        except TypeError:
            _check_pair(reference, model)  # names the unhashable label
            raise
        if not a or not b:
            # A label not seen before: refuse None and NaN before it is stored. Labels
            # already in the table passed this check when they arrived.
            _check_pair(reference, model)
        cells = self._cells
        if cells is None:
            cells = self._dict_form()
        row = cells.get(reference)
        n = 0 if row is None else row.get(model, 0)
        if weight == 0:
            return
        if n + weight < 0:
            raise ValueError(f"remove: no element with reference {reference!r} and model "
                             f"{model!r} to remove")
        if weight == 1:
            cell_step, reference_step, model_step = _unit_step(n), _unit_step(a), _unit_step(b)
        elif weight == -1:
            cell_step, reference_step, model_step = (-_unit_step(n - 1), -_unit_step(a - 1),
                                                     -_unit_step(b - 1))
        else:
            if self._n_elements + weight > _MAX_ELEMENTS:
                self._check_room(weight)
            cell_step = _packed_step(n, weight)
            reference_step = _packed_step(a, weight)
            model_step = _packed_step(b, weight)
        if row is None:
            row = cells[reference] = {}
        _set_count(row, model, n + weight)
        if not row:
            del cells[reference]
        _set_count(reference_sizes, reference, a + weight)
        _set_count(model_sizes, model, b + weight)
        self._cells_sum += cell_step
        self._reference_sum += reference_step
        self._model_sum += model_step
        self._n_elements += weight
        self._expected = None

    def _check_room(self, weight: int) -> None:
        if self._n_elements + weight > _MAX_ELEMENTS:
            raise ValueError(f"the accumulator would hold {self._n_elements + weight} elements; "
                             f"at most 2**63 - 1 are supported")

    def _clear(self) -> None:
        self._cells = {}
        self._arrays = None
        self._reference_sizes = {}
        self._model_sizes = {}
        self._n_elements = 0
        self._cells_sum = self._reference_sum = self._model_sum = 0
        self._expected = None

    def _copy_from(self, other: PartitionComparison) -> None:
        self._cells = (None if other._cells is None
                       else {label: dict(row) for label, row in other._cells.items()})
        self._arrays = other._arrays  # never modified, so it can be shared
        self._reference_sizes = dict(other._reference_sizes)
        self._model_sizes = dict(other._model_sizes)
        self._n_elements = other._n_elements
        self._cells_sum = other._cells_sum
        self._reference_sum = other._reference_sum
        self._model_sum = other._model_sum
        self._expected = other._expected

    def _set_arrays(self, cells: _Cells) -> None:
        """Become the table ``cells`` (array form), computing every sum from it."""
        rows, columns, counts = cells.rows, cells.columns, cells.counts
        reference = _group_sums(rows, counts, len(cells.reference_labels))
        model = _group_sums(columns, counts, len(cells.model_labels))
        self._cells = None
        self._arrays = cells
        self._reference_sizes = dict(zip(cells.reference_labels, reference.tolist()))
        self._model_sizes = dict(zip(cells.model_labels, model.tolist()))
        self._n_elements = _total(counts)
        self._cells_sum = _packed_sum(counts)
        self._reference_sum = _packed_sum(reference)
        self._model_sum = _packed_sum(model)
        self._expected = None

    def _dict_form(self) -> dict[Hashable, dict[Hashable, int]]:
        """The cells as dictionaries, converting from the array form once if needed."""
        if self._cells is None:
            self._cells = self._cell_map()
            self._arrays = None
        return self._cells

    def _cell_map(self) -> dict[Hashable, dict[Hashable, int]]:
        """The cells as dictionaries, without changing the form the state is kept in."""
        if self._cells is not None:
            return self._cells
        arrays = self._arrays
        assert arrays is not None
        cells: dict[Hashable, dict[Hashable, int]] = {}
        reference, model = arrays.reference_labels, arrays.model_labels
        for row, column, count in zip(arrays.rows.tolist(), arrays.columns.tolist(),
                                      arrays.counts.tolist()):
            cells.setdefault(reference[row], {})[model[column]] = count
        return cells

    def _cell_arrays(self) -> _Cells:
        """The cells as arrays, in either form."""
        if self._arrays is not None:
            return self._arrays
        cells = self._cells
        assert cells is not None
        reference = list(self._reference_sizes)
        model = list(self._model_sizes)
        model_index = {label: index for index, label in enumerate(model)}
        reference_index = {label: index for index, label in enumerate(reference)}
        rows, columns, counts = [], [], []
        for reference_label, row in cells.items():
            position = reference_index[reference_label]
            for model_label, count in row.items():
                rows.append(position)
                columns.append(model_index[model_label])
                counts.append(count)
        return _Cells(reference, model, np.array(rows, dtype=np.int64),
                      np.array(columns, dtype=np.int64), np.array(counts, dtype=np.int64))

    @staticmethod
    def _positions(cells: _Cells) -> tuple[Codes, Codes, NDArray[np.int64]]:
        """Row and column positions of the cells in the sorted-label table."""
        def ranks(labels: list[Hashable]) -> Codes:
            order = {label: rank for rank, label in enumerate(_sorted_labels(labels))}
            return np.array([order[label] for label in labels], dtype=np.int64)

        rows = ranks(cells.reference_labels)[cells.rows] if cells.rows.size else cells.rows
        columns = (ranks(cells.model_labels)[cells.columns] if cells.columns.size
                   else cells.columns)
        return rows, columns, np.asarray(cells.counts, dtype=np.int64)

    def _n_cells(self) -> int:
        if self._cells is not None:
            return sum(map(len, self._cells.values()))
        assert self._arrays is not None
        return len(self._arrays.counts)

    def _triples(self) -> Iterable[tuple[Hashable, Hashable, int]]:
        if self._cells is not None:
            for reference, row in self._cells.items():
                for model, count in row.items():
                    yield reference, model, count
        else:
            assert self._arrays is not None
            yield from _cell_triples(self._arrays)


# Helpers -------------------------------------------------------------------------------------


def _set_count(counts: dict[Hashable, int], label: Hashable, value: int) -> None:
    if value:
        counts[label] = value
    else:
        del counts[label]


def _check_pair(reference: object, model: object) -> None:
    check_label(reference, "reference")
    check_label(model, "model")


def _total(counts: NDArray[Any]) -> int:
    return sum(counts.tolist()) if counts.dtype == object else int(counts.sum())


def _packed_sum(counts: NDArray[Any]) -> int:
    """The packed running sum of a level (cells, rows or columns) recomputed from its counts."""
    return (n_log_n_fixed_sum(counts) << _PAIR_BITS) + same_cluster_pairs(counts)


def _group_sums(groups: Codes, counts: NDArray[Any], size: int) -> NDArray[np.int64]:
    """Exact per-group sums of ``counts`` (int64: the total is below 2**63)."""
    result = np.zeros(size, dtype=np.int64)
    np.add.at(result, groups, counts.astype(np.int64))
    return result


def _maxima(groups: Codes, counts: NDArray[Any], size: int) -> NDArray[np.int64]:
    result = np.zeros(size, dtype=np.int64)
    np.maximum.at(result, groups, counts.astype(np.int64))
    return result


def _cell_triples(cells: _Cells) -> Iterable[tuple[Hashable, Hashable, int]]:
    reference, model = cells.reference_labels, cells.model_labels
    for row, column, count in zip(cells.rows.tolist(), cells.columns.tolist(),
                                  cells.counts.tolist()):
        yield reference[row], model[column], count


def _subsets(partition: Iterable[Iterable[Hashable]], name: str) -> Iterable[Iterable[Hashable]]:
    if isinstance(partition, (str, bytes)) or not isinstance(partition, Iterable):
        raise TypeError(f"the {name} partition must be an iterable of subsets, "
                        f"not {type(partition).__name__}")
    for index, subset in enumerate(partition):
        if isinstance(subset, (str, bytes)) or not isinstance(subset, Iterable):
            raise TypeError(f"{name} partition, subset {index}: a subset must be an iterable of "
                            f"elements, not {type(subset).__name__} (wrap a single element in a "
                            "list)")
        yield subset


def _disjoint(subsets: Iterable[Iterable[Hashable]]) -> bool:
    """True when no element occurs in two subsets (a repeat inside one subset is allowed)."""
    seen: set[Hashable] = set()
    for subset in subsets:
        elements = set(subset)
        if not seen.isdisjoint(elements):
            return False
        seen |= elements
    return True


# Batches -------------------------------------------------------------------------------------


def _as_labels(values: Any, name: str) -> Any:
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, not {values.ndim}-dimensional")
        return values
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of labels, not {type(values).__name__}")
    return values if isinstance(values, (list, tuple)) else list(values)


def _encode(values: Any, name: str) -> tuple[Codes, list[Hashable]]:
    """Codes 0..K-1 for the labels and the K distinct labels, checking each label."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iubfUS":
        kind = values.dtype.kind
        if kind == "f":
            bad = np.flatnonzero(np.isnan(values))
            if bad.size:
                check_label(values[bad[0]].item(), f"{name}[{bad[0]}]")
        if kind in "iu" and values.size:
            low, high = int(values.min()), int(values.max())
            if high < 2**63 and high - low < max(4 * values.size, 1 << 16):
                shifted = _shifted(values, low)
                present = np.bincount(shifted) > 0
                lookup = np.cumsum(present) - 1
                return lookup[shifted], (np.flatnonzero(present) + low).tolist()
        if kind in "iubf":
            uniques, inverse = np.unique(values, return_inverse=True)
            return inverse.astype(np.int64).ravel(), uniques.tolist()
        hashed = _encode_strings(values)
        if hashed is not None:
            return hashed
    # Python labels (lists, tuples, object arrays, and string arrays whose hashes
    # collided): a dictionary, which beats sorting. dict.fromkeys and map run in C;
    # only the K distinct labels pass through Python code.
    items = values.tolist() if isinstance(values, np.ndarray) else values
    try:
        distinct: list[Hashable] = list(dict.fromkeys(items))
    except TypeError:
        for position, label in enumerate(items):
            check_label(label, f"{name}[{position}]")
        raise
    for label in distinct:
        if label is None or label != label:
            position = next(i for i, item in enumerate(items) if item is label)
            check_label(label, f"{name}[{position}]")
    if isinstance(values, np.ndarray) and values.dtype.kind in "US":
        distinct.sort()  # type: ignore[call-arg]  # all str or all bytes: np.unique's order
    index = {label: code for code, label in enumerate(distinct)}
    codes = np.fromiter(map(index.__getitem__, items), dtype=np.int64, count=len(items))
    return codes, distinct


def _encode_strings(values: NDArray[Any]) -> tuple[Codes, list[Hashable]] | None:
    """Codes for a fixed-width string array (numpy ``U`` or ``S``) without making Python strings.

    Sorting fixed-width strings (``np.unique``) and making a Python string of
    each (``tolist``) both cost far more than hashing them as integers: each
    string's characters are mixed into one 64-bit hash, and the hashes are
    coded through a table indexed by a window of their bits (when some window
    separates the distinct hashes; else by a binary search). Equal strings
    have equal hashes; distinct strings with equal hashes are caught by
    comparing every string with its code's representative, in which case
    ``None`` sends the caller to the dictionary path. Codes follow sorted
    string order, as ``np.unique`` on the strings gives.
    """
    n = len(values)
    unit = np.uint32 if values.dtype.kind == "U" else np.uint8  # a character's code
    width = values.dtype.itemsize // np.dtype(unit).itemsize
    if not (width and n):
        return None
    characters = np.ascontiguousarray(values).view(unit).reshape(n, width)
    hashes = characters[:, 0].astype(np.uint64)
    for column in range(1, width):  # uint64 arithmetic wraps modulo 2**64, as intended
        hashes *= np.uint64(0x9E3779B97F4A7C15)
        hashes ^= characters[:, column]
    scratch = np.empty_like(hashes)
    for shift, factor in ((31, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):  # mix all bits
        hashes ^= np.right_shift(hashes, np.uint64(shift), out=scratch)
        hashes *= np.uint64(factor)
    distinct = np.unique(hashes)
    codes = _hash_codes(hashes, distinct)
    representative = np.empty(len(distinct), dtype=np.int64)
    representative[codes] = np.arange(n)
    labels = values[representative]
    if not np.array_equal(labels[codes], values):
        return None  # two distinct strings share a hash
    order = np.argsort(labels, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], labels[order].tolist()


def _hash_codes(hashes: NDArray[np.uint64], distinct: NDArray[np.uint64]) -> Codes:
    """The position of each hash among the sorted ``distinct`` ones.

    A look-up table indexed by ``bits`` bits of the hash, at the first shift
    where the distinct hashes fall in distinct slots (likely when the table has
    many more slots than the square of their number); else a binary search.
    """
    k = len(distinct)
    bits = min(22, max(16, 2 * k.bit_length() + 3))
    mask = (1 << bits) - 1
    signed = hashes.view(np.int64)  # signed shifts and indices are numpy's fast paths
    for shift in range(64 - bits, -1, -7):  # shift + bits <= 64: the window is all hash bits
        slots = (distinct.view(np.int64) >> shift) & mask
        if len(np.unique(slots)) == k:
            table = np.empty(1 << bits, dtype=np.int64)
            table[slots] = np.arange(k)
            window = signed >> shift
            window &= mask
            found: Codes = table[window]
            return found
    return np.searchsorted(distinct, hashes).astype(np.int64, copy=False)


def _weights(weights: Any, size: int, where: str) -> NDArray[Any] | None:
    """The multiplicities as int64 (or Python ints when large), each checked."""
    if weights is None:
        return None
    if isinstance(weights, np.ndarray) and weights.dtype.kind in "iu" and weights.ndim == 1:
        array = weights
        if array.size and int(array.min()) < 0:
            position = int(np.flatnonzero(array < 0)[0])
            check_count(array[position].item(), f"{where}: weights[{position}]")
    else:
        values = _as_labels(weights, "weights")
        if isinstance(values, np.ndarray):
            values = values.tolist()
        checked = [check_count(v, f"{where}: weights[{i}]") for i, v in enumerate(values)]
        array = np.array(checked, dtype=object)
    if len(array) != size:
        raise ValueError(f"{where}: weights has {len(array)} items but there are {size} labels")
    largest = int(array.max()) if array.size else 0
    if largest * max(array.size, 1) < 2**62:  # then no int64 sum of them can overflow
        return array.astype(np.int64)
    return array.astype(object)


def _batch(reference_labels: Any, model_labels: Any, weights: Any, where: str,
           names: tuple[str, str] = ("reference_labels", "model_labels")) -> _Cells:
    """Count a batch into its non-empty cells, checking every input first.

    Error messages call the two label arguments by ``names`` (the caller's own).
    """
    reference_name, model_name = names
    reference_values = _as_labels(reference_labels, reference_name)
    model_values = _as_labels(model_labels, model_name)
    size = len(reference_values)
    if size != len(model_values):
        raise ValueError(f"{reference_name} and {model_name} have different lengths "
                         f"({size} and {len(model_values)})")
    multiplicity = _weights(weights, size, where)
    dense = _dense_integer_table(reference_values, model_values, multiplicity)
    if dense is not None:
        return dense
    rows, reference = _encode(reference_values, reference_name)
    columns, model = _encode(model_values, model_name)
    width = max(len(model), 1)
    keys = rows * width + columns
    if multiplicity is None:
        if len(reference) * width <= max(4 * size, 1 << 20):
            counts = np.bincount(keys, minlength=len(reference) * width)
            keys = np.flatnonzero(counts)
            counts = counts[keys]
        else:
            keys, counts = np.unique(keys, return_counts=True)
    else:
        keys, counts = _aggregate(keys, multiplicity)
    return _compact(_Cells(reference, model, keys // width, keys % width, counts))


def _dense_integer_table(reference: Any, model: Any,
                         multiplicity: NDArray[Any] | None) -> _Cells | None:
    """Count integer label arrays straight into a dense table when their ranges are small.

    No coding step: one ``bincount`` over ``(r - min r) * width + (m - min m)``,
    then the empty rows and columns are dropped. ``None`` when it does not apply.
    """
    if not (isinstance(reference, np.ndarray) and isinstance(model, np.ndarray)
            and reference.dtype.kind in "iu" and model.dtype.kind in "iu"
            and reference.size and (multiplicity is None or multiplicity.dtype != object)):
        return None
    low_r, high_r = int(reference.min()), int(reference.max())
    low_m, high_m = int(model.min()), int(model.max())
    height, width = high_r - low_r + 1, high_m - low_m + 1
    if max(high_r, high_m) >= 2**63 or height * width > max(4 * reference.size, 1 << 22):
        return None
    # keys = (r - min r) * width + (m - min m), in place: one new array, not three
    keys = reference.astype(np.int64, copy=True)
    if low_r:
        keys -= low_r
    keys *= width
    keys += model.astype(np.int64, copy=False)
    if low_m:
        keys -= low_m
    if multiplicity is None:
        counts = np.bincount(keys, minlength=height * width)
    else:
        cell_keys, cell_counts = _aggregate(keys, multiplicity)
        counts = np.zeros(height * width, dtype=np.int64)
        counts[cell_keys] = cell_counts
    table = counts.reshape(height, width)
    used_rows = np.flatnonzero(table.any(axis=1))
    used_columns = np.flatnonzero(table.any(axis=0))
    table = table[np.ix_(used_rows, used_columns)]
    rows, columns = np.nonzero(table)
    return _Cells((used_rows + low_r).tolist(), (used_columns + low_m).tolist(),
                  rows.astype(np.int64), columns.astype(np.int64),
                  table[rows, columns].astype(np.int64))


def _shifted(values: NDArray[Any], low: int) -> Codes:
    """``values - low`` as int64 (values below 2**63), computed without overflowing small dtypes."""
    shifted = values.astype(np.int64, copy=False)
    return shifted - low if low else shifted


def _aggregate(keys: Codes, multiplicity: NDArray[Any]) -> tuple[Codes, NDArray[Any]]:
    """Distinct keys and the exact sum of the multiplicities of each."""
    if multiplicity.dtype == object:
        sums: dict[int, int] = {}
        for key, count in zip(keys.tolist(), multiplicity.tolist()):
            sums[key] = sums.get(key, 0) + count
        distinct = np.array(list(sums), dtype=np.int64)
        return distinct, np.array(list(sums.values()), dtype=object)
    if keys.size == 0:
        return keys, multiplicity.astype(np.int64)
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    return ordered[starts], np.add.reduceat(multiplicity.astype(np.int64)[order], starts)


def _added_cells(first: _Cells, second: _Cells) -> _Cells:
    """The cells of two tables added, labels matched by value (``first``'s labels first)."""
    def joined(labels: list[Hashable], more: list[Hashable], codes: Codes,
               name: str) -> tuple[list[Hashable], Codes]:
        # first's labels are distinct, so they keep their positions 0..len(labels)-1.
        positions, union = _encode(labels + more, name)
        return union, positions[len(labels):][codes]

    reference, rows = joined(first.reference_labels, second.reference_labels, second.rows,
                             "reference labels")
    model, columns = joined(first.model_labels, second.model_labels, second.columns,
                            "model labels")
    width = max(len(model), 1)
    keys, counts = _aggregate(
        np.concatenate((first.rows * width + first.columns, rows * width + columns)),
        np.concatenate((first.counts, second.counts)))
    return _Cells(reference, model, keys // width, keys % width, counts)


def _compact(cells: _Cells) -> _Cells:
    """Drop empty cells (zero weights) and the labels no cell uses any more."""
    keep = np.flatnonzero(np.asarray(cells.counts != 0))
    if keep.size == len(cells.counts) and (
            len(np.unique(cells.rows)) == len(cells.reference_labels)
            and len(np.unique(cells.columns)) == len(cells.model_labels)):
        return cells
    rows, columns, counts = cells.rows[keep], cells.columns[keep], cells.counts[keep]
    used_rows, rows = np.unique(rows, return_inverse=True)
    used_columns, columns = np.unique(columns, return_inverse=True)
    return _Cells([cells.reference_labels[i] for i in used_rows.tolist()],
                  [cells.model_labels[i] for i in used_columns.tolist()],
                  rows.astype(np.int64).ravel(), columns.astype(np.int64).ravel(), counts)


# JSON ----------------------------------------------------------------------------------------

_KEYS = {"format", "reference_labels", "model_labels", "cells"}


def _from_dict(cls: type[PartitionComparison], data: Mapping[str, Any]) -> PartitionComparison:
    def fail(message: str) -> ValueError:
        return ValueError(f"from_dict: {message}")

    if not isinstance(data, Mapping):
        raise TypeError(f"from_dict needs a mapping, not {type(data).__name__}")
    keys = set(data)
    if keys != _KEYS:
        missing, extra = sorted(_KEYS - keys), sorted(keys - _KEYS, key=str)
        raise fail(f"missing keys {missing}" if missing else f"unknown keys {extra}")
    if data["format"] != _FORMAT:
        raise fail(f"format must be {_FORMAT!r}, not {data['format']!r}")
    sides = []
    for side in ("reference", "model"):
        raw = data[f"{side}_labels"]
        if not isinstance(raw, list):
            raise fail(f"{side}_labels must be a list")
        labels = [label_from_json(value, f"from_dict: {side}_labels[{i}]")
                  for i, value in enumerate(raw)]
        if len(set(labels)) != len(labels):
            raise fail(f"{side}_labels has a repeated label")
        sides.append(labels)
    reference, model = sides
    cells = data["cells"]
    if not isinstance(cells, list):
        raise fail("cells must be a list of [row, column, count]")
    rows, columns, counts = [], [], []
    seen: set[tuple[int, int]] = set()
    for i, cell in enumerate(cells):
        if not isinstance(cell, list) or len(cell) != 3:
            raise fail(f"cells[{i}] must be [row, column, count]")
        row, column, count = (check_count(value, f"from_dict: cells[{i}]") for value in cell)
        if row >= len(reference) or column >= len(model):
            raise fail(f"cells[{i}] = {cell} points outside the {len(reference)} x "
                       f"{len(model)} table")
        if count == 0:
            raise fail(f"cells[{i}] has count 0 (empty cells are not listed)")
        if (row, column) in seen:
            raise fail(f"cells[{i}] repeats the cell ({row}, {column})")
        seen.add((row, column))
        rows.append(row)
        columns.append(column)
        counts.append(count)
    if sum(counts) > _MAX_ELEMENTS:
        raise fail("more than 2**63 - 1 elements")
    for side, labels, used in (("reference", reference, rows), ("model", model, columns)):
        empty = sorted(set(range(len(labels))) - set(used))
        if empty:
            raise fail(f"{side} label {labels[empty[0]]!r} has no elements")
    result = cls()
    if counts:
        result._set_arrays(_Cells(reference, model, np.array(rows, dtype=np.int64),
                                  np.array(columns, dtype=np.int64),
                                  np.array(counts, dtype=np.int64)))
    return result
