"""PartitionComparison: two clusterings of one stream of elements, compared at any moment.

State, all of it exact integer counts:

the contingency table (:class:`contingency._table.Table`, the compiled
kernel or its pure-Python reference, :mod:`contingency._backend` says
which): for each pair of a reference label and a model label, how many
elements carry it, with the row and column totals (the two partitions'
cluster sizes), ``N``, and the running sums of the table: ``sum C(n, 2)``,
``sum C(n, 3)`` and ``sum n ln n`` over cells, rows and columns, exact
integers that at every moment equal the sums recomputed from the table
(:mod:`contingency._running_sums` says why); from the first information read
the float ``n ln n`` sums cannot settle (partitions near independence), also
the fine ``n ln n`` sums, to ``2**-128`` a unit, so that such reads stay
O(1). Only non-empty cells and clusters are kept.

Counts change in one routine, :meth:`PartitionComparison._update`: it hands
a change to the table, which checks it whole and then applies it, sums
included. :meth:`~PartitionComparison.add` is
that routine called with one cell, ``_update(reference, model, 1)``,
:meth:`~PartitionComparison.remove` the same with ``-1``, and batches
(:meth:`~PartitionComparison.add_many`, :meth:`~PartitionComparison.remove_many`,
:meth:`~PartitionComparison.merge`, :meth:`~PartitionComparison.from_dict`)
call it once with their aggregated cells, ``_update(cells=..., where=...)``,
which it handles with numpy.

Every score is one call into :mod:`contingency.formulas.partition` with the
sums (:class:`~contingency.formulas.partition.TableSums`, built once per
state and kept until the next change): pair-counting and information scores
cost the same whatever the number of elements and the size of the table.
The scores read most often after each change (the adjusted Rand and Rand
indices, the other pair scores, MI, NMI, homogeneity, completeness,
V-measure) are first asked of the table (:meth:`Table.adjusted_rand_index
<contingency._table.Table.adjusted_rand_index>` and its siblings), where the
compiled kernel computes the formulas' numbers in C from its running sums;
an information score the sums do not settle there comes back None and is
asked of the formula with the cells.
Adjusted mutual information, purity, the Jaccard-Concentration Index and the
JSON state read the table's non-empty cells, never a dense rows x columns
array (only :meth:`~PartitionComparison.contingency_table` builds one); AMI
keeps its expected-MI term, and the integer sums of its fallback, until the
table changes.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np
from numpy.typing import NDArray

from contingency import _backend, _locking
from contingency import report as _report
from contingency._backend import new_table
from contingency._frame import table_frame
from contingency._inputs import are_disjoint, partition_subsets
from contingency._intervals import partition_block, partition_interval
from contingency._labels import label_to_json
from contingency._merging import Merging
from contingency._running_sums import LOG_SHIFT, PAIR_BITS, FineRunningSums, RunningSums
from contingency._state_json import check_state, count_from_json, labels_from_json, state_error
from contingency._table import Cells, Table, count_cells
from contingency.formulas import partition as _formulas
from contingency.formulas._arguments import check_flag
from contingency.formulas._numeric import (
    EXACT_FLOAT_BOUND,
    check_room,
    dense_is_cheaper,
)
from contingency.formulas.intervals import Interval
from contingency.formulas.partition import (
    AriSignificance,
    AverageMethod,
    PairConfusion,
    PreciseSums,
    TableSums,
    pairs,
)
from contingency.formulas.partition._information import (
    check_average_method,
    check_base,
    check_v_beta,
)

if TYPE_CHECKING:
    from contingency.formulas.concentration import JaccardConcentrationResult

__all__ = ["PartitionComparison"]

#: The format of :meth:`PartitionComparison.to_dict`'s documents. /1 (0.1.0.dev0) had the same
#: keys and meaning: its documents are read as they are.
_FORMAT = "contingency.PartitionComparison/2"
_EARLIER_FORMATS: dict[str, str | None] = {"contingency.PartitionComparison/1": None}
_Self = TypeVar("_Self", bound="PartitionComparison")


#: The memos' slots. A name, not a literal, in ``__slots__``: mypy's attrs plugin takes a slotted
#: attrs class's slots to be its fields alone, unless a base's slots are not literal (mypy then
#: checks no assignment against slots), and the class assigns its memos.
_MEMOS = ("_cells", "_expected", "_pairs", "_precise", "_read_sums")


class _PartitionMemos:
    """The slots of PartitionComparison's memos (caches, not state: each ``None`` until a read
    makes it, and again whenever the table changes or is rebuilt). Slots of this base, not attrs
    fields of the class: what attrs lists of an accumulator (``attrs.fields``, ``attrs.asdict``,
    the pickled state) is its table, never its memos."""

    __slots__ = _MEMOS

    #: The sums unpacked as the formulas take them, built on the first read after a change.
    _read_sums: TableSums | None
    #: The pair counts of the current state, computed on the first read that needs them.
    _pairs: PairConfusion | None
    #: The expected MI last computed, with the sums (the state) it belongs to.
    _expected: tuple[TableSums, float] | None
    #: The cell arrays an information read's exact fallback last took, with their sums.
    _cells: tuple[TableSums, tuple[NDArray[np.int64], ...]] | None
    #: The high-precision sums AMI's fallback last computed, by bits, with the sums (the
    #: state) they belong to.
    _precise: tuple[TableSums, dict[int, PreciseSums]] | None


@attrs.define(init=False, eq=False, repr=False)
class PartitionComparison(Merging["PartitionComparison"], _PartitionMemos):
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

    Threads: an accumulator is not thread-safe by default. Two threads
    sharing one (even one writing while another reads: reads fill caches)
    can lose counts and corrupt it without an error (a table and running sums
    that disagree, scores out of range). Give each thread its own accumulator
    and :meth:`merge` them at the end (exact: merge is addition); or pass
    ``thread_safe=True`` (to the constructor, :meth:`from_labels`,
    :meth:`from_partitions` or :meth:`from_dict`), which makes every public
    method and property hold a reentrant lock for the whole call (a few tenths of a
    microsecond per call, measured by the benchmark suite's "lock cost" case;
    the default class has no lock and pays nothing).
    :meth:`copy`, ``+`` and pickling keep the option; equality ignores it.
    A thread-safe accumulator passed to another's :meth:`merge`, ``+`` or
    ``==``, pickled or copied is read under its own lock.

    >>> shared = PartitionComparison(thread_safe=True)
    >>> shared.thread_safe, isinstance(shared, PartitionComparison)
    (True, True)
    """

    #: Whether every public call holds a lock (``thread_safe=True``): see :mod:`contingency._locking`.
    thread_safe = False

    #: The contingency table (rows: reference labels, columns: model labels), N and the
    #: running sums of C(n, 2), C(n, 3) and n ln n over its cells, rows and columns.
    _table: Table

    def __new__(cls: type[_Self], *, thread_safe: bool = False) -> _Self:
        return _locking.new_instance(cls, thread_safe)

    def __init__(self, *, thread_safe: bool = False) -> None:
        self._clear()

    # Constructors --------------------------------------------------------------------------

    @classmethod
    def from_labels(cls, reference_labels: Any, model_labels: Any, *, sample_weight: Any = None,
                    thread_safe: bool = False) -> PartitionComparison:
        """An accumulator holding one element per position of the two label sequences.

        ``sample_weight[i]`` elements for position ``i`` if given (the keyword
        every ``from_labels`` takes, as scikit-learn's), as ``weights`` in
        :meth:`add_many`.

        >>> c = PartitionComparison.from_labels([0, 0, 1, 1], [1, 1, 0, 0])
        >>> c.rand_index, c.adjusted_mutual_information()
        (1.0, 1.0)
        >>> PartitionComparison.from_labels(["a", "b"], [1, 1], sample_weight=[2, 1]).same_same
        1
        """
        result = cls(thread_safe=thread_safe)
        result._update(cells=count_cells(reference_labels, model_labels, sample_weight,
                                         where="from_labels", weights_name="sample_weight"),
                       where="from_labels")
        return result

    @classmethod
    def from_partitions(cls, first: Iterable[Iterable[Hashable]],
                        second: Iterable[Iterable[Hashable]],
                        check_validity: bool = False, *,
                        thread_safe: bool = False) -> PartitionComparison:
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
            subsets = partition_subsets(partition, name)
            if check_validity and not are_disjoint(subsets):
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
        return cls(thread_safe=thread_safe).add_many(
            np.array([reference_place[e] for e in elements], dtype=np.int64),
            np.array([model_place[e] for e in elements], dtype=np.int64))

    # Updates -------------------------------------------------------------------------------

    def add(self, reference: Hashable, model: Hashable) -> None:
        """Add one element, labelled ``reference`` in the reference partition and ``model`` in the model's.

        Constant time. A ``None``, NaN or unhashable label raises and changes nothing, and so
        does an element that would take N past ``2**63 - 1``.
        """
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
        allowed; ``weights`` are non-negative integer multiplicities (Python
        or numpy integers, or floats with whole values such as ``2.0``, as a
        pandas count column holds them). A fractional weight raises
        ``TypeError``: an element is in a cluster or not, and a pair of
        fractional elements has no meaning. Every input is checked before
        anything changes.

        >>> c = PartitionComparison().add_many(["a", "a", "b"], [1, 2, 2], weights=[2, 1, 3])
        >>> c.n_elements, c.same_same
        (6, 4)
        >>> c.add_many(["a"], [1], weights=[0.5])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: add_many: weights[0] is 0.5, not an integer: ... fractional elements has no meaning)
        """
        self._update(cells=count_cells(reference_labels, model_labels, weights, where="add_many"),
                     where="add_many")
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
        cells = count_cells(reference_labels, model_labels, weights, where="remove_many")
        self._update(cells=cells.negated(), where="remove_many")
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
        with _locking.holding(other):  # a thread-safe other side is read under its lock
            self._update(cells=other._table.cells(), where="merge")
        return self

    def copy(self) -> PartitionComparison:
        """An independent accumulator with the same counts."""
        result = type(self)()
        result._table = self._table.copy()
        return result

    def reset(self) -> None:
        """Forget every element."""
        self._clear()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartitionComparison):
            return NotImplemented
        with _locking.holding(other):
            return self._table == other._table

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"PartitionComparison(n_elements={self._table.n_elements}, "
                f"reference_clusters={self._table.n_rows}, "
                f"model_clusters={self._table.n_columns})")

    # Counts --------------------------------------------------------------------------------

    @property
    def n_elements(self) -> int:
        """The number of elements, N."""
        return self._table.n_elements

    @property
    def n_reference_clusters(self) -> int:
        """The number of non-empty reference clusters."""
        return self._table.n_rows

    @property
    def n_model_clusters(self) -> int:
        """The number of non-empty model clusters."""
        return self._table.n_columns

    @property
    def n_pairs(self) -> int:
        """The number of pairs of distinct elements, ``N (N - 1) / 2``."""
        return pairs(self._table.n_elements)

    def table_sums(self) -> TableSums:
        """The table's sums that every constant-time score is computed from (exact integers).

        >>> PartitionComparison.from_labels([1, 1, 2], [1, 1, 1]).table_sums().same_model
        3
        """
        return self._read()

    def pair_confusion(self) -> PairConfusion:
        """The four pair counts ``(same_same, same_reference_only, same_model_only, different_different)``.

        Exact integers; scikit-learn's ``pair_confusion_matrix`` counts ordered
        pairs, so its cells are twice these (``[[dd, smo], [sro, ss]]``).
        """
        found = self._pairs
        if found is None:
            found = self._pairs = _formulas.pair_confusion(self._read())
        return found

    @property
    def same_same(self) -> int:
        """Pairs in the same cluster in both partitions."""
        return self.table_sums().same_same

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

        Dense by definition, it costs ``8 x rows x columns`` bytes whatever the
        number of non-empty cells: 80 GB for 10**5 clusters on each side. No
        other read builds it; :meth:`contingency_cells` gives the same table
        in memory linear in its non-empty cells.
        """
        return self._table.dense()

    def contingency_cells(self) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...],
                                         NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The table as its non-empty cells: ``(reference_labels, model_labels, rows, columns, counts)``.

        The labels are :meth:`contingency_table`'s; ``rows``, ``columns`` and
        ``counts`` are int64 arrays with one entry per non-empty cell:
        ``counts[k]`` elements have reference label
        ``reference_labels[rows[k]]`` and model label
        ``model_labels[columns[k]]``, ordered by row, then column. Memory and
        time are linear in the non-empty cells and the labels, whatever the
        size of the dense table. The coordinate (COO) form, which needs no
        scipy: ``scipy.sparse.coo_array((counts, (rows, columns)))`` builds a
        sparse matrix from it, and the dense table is

        >>> comparison = PartitionComparison.from_labels(["b", "a", "a"], [1, 1, 2])
        >>> reference, model, rows, columns, counts = comparison.contingency_cells()
        >>> reference, model, rows.tolist(), columns.tolist(), counts.tolist()
        (('a', 'b'), (1, 2), [0, 0, 1], [0, 1, 0], [1, 1, 1])
        >>> table = np.zeros((len(reference), len(model)), dtype=np.int64)
        >>> table[rows, columns] = counts
        >>> table.tolist() == comparison.contingency_table()[2].tolist()
        True
        """
        return self._table.sorted_cells()

    # Pair-counting scores ------------------------------------------------------------------

    @property
    def accuracy(self) -> float:
        """Share of pairs on which the partitions agree (the Rand index; 1.0 with no pairs)."""
        return self._table.rand_index()

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
        return self._table.precision()

    @property
    def recall(self) -> float:
        """Pair recall ``same_same / (same_same + same_reference_only)``.

        See :func:`contingency.formulas.partition.recall` for the undefined case.
        """
        return self._table.recall()

    @property
    def f1(self) -> float:
        """Harmonic mean of pair precision and recall."""
        return self._table.f1()

    @property
    def jaccard(self) -> float:
        """``same_same / (pairs joined by either)``: Set::Partitions::Similarity's precision."""
        return self._table.jaccard()

    @property
    def fowlkes_mallows(self) -> float:
        """Geometric mean of pair precision and recall (1.0 for identical partitions)."""
        return self._table.fowlkes_mallows()

    @property
    def adjusted_rand_index(self) -> float:
        """The Rand index adjusted for chance (Hubert and Arabie)."""
        return self._table.adjusted_rand_index()

    def ari_significance(self) -> AriSignificance:
        """How far the adjusted Rand index is above chance: ``AriSignificance(zscore, pvalue)``.

        The z-score of the index under the permutation model (both partitions'
        cluster sizes kept, elements paired at random: the index's mean is then
        0, and its exact variance is Steinley, Brusco and Hubert's), and the
        one-sided normal p-value ``P(Z >= zscore)``, small when the partitions
        agree more than chance would. Constant time, from the running sums
        (sums of ``C(n, 2)`` and ``C(n, 3)`` of the cluster sizes); see
        :func:`contingency.formulas.partition.ari_significance` for the formula.
        When the index cannot vary (fewer than two elements, a partition with
        one cluster, or one of singletons) it is ``(0.0, 1.0)``.

        >>> comparison = PartitionComparison.from_labels([0] * 6 + [1] * 6 + [2] * 5,
        ...     [0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2])
        >>> result = comparison.ari_significance()
        >>> round(comparison.adjusted_rand_index, 4), round(result.zscore, 4), round(result.pvalue, 4)
        (0.2429, 2.8276, 0.0023)
        """
        return _formulas.ari_significance(self._read(), *self._table.margin_triples())

    # Information scores --------------------------------------------------------------------

    def mutual_information(self, base: float = math.e) -> float:
        """Mutual information of the two partitions, in nats unless ``base`` is given."""
        base = check_base(base, "mutual_information")
        found = self._table.mutual_information(base)
        if found is None:
            found = _formulas.mutual_information(self._read(), base, cells=self._fallback_cells,
                                                 fine=self._table)
        return found

    def entropy_reference(self, base: float = math.e) -> float:
        """Entropy of the reference partition."""
        base = check_base(base, "entropy_reference")
        return _formulas.entropy_reference(self._read(), base, cells=self._fallback_cells,
                                           fine=self._table)

    def entropy_model(self, base: float = math.e) -> float:
        """Entropy of the model partition."""
        base = check_base(base, "entropy_model")
        return _formulas.entropy_model(self._read(), base, cells=self._fallback_cells,
                                       fine=self._table)

    def variation_of_information(self, base: float = math.e) -> float:
        """Variation of information ``H(R) + H(M) - 2 MI`` (0.0 for identical partitions)."""
        base = check_base(base, "variation_of_information")
        return _formulas.variation_of_information(self._read(), base,
                                                  cells=self._fallback_cells,
                                                  fine=self._table)

    def normalized_mutual_information(self,
                                      average_method: AverageMethod = "arithmetic") -> float:
        """MI over the "arithmetic", "geometric", "min" or "max" mean of the two entropies."""
        average_method = check_average_method(average_method,
                                                        "normalized_mutual_information")
        found = self._table.normalized_mutual_information(average_method)
        if found is None:
            found = _formulas.normalized_mutual_information(self._read(), average_method,
                                                            cells=self._fallback_cells,
                                                            fine=self._table)
        return found

    def adjusted_mutual_information(self, average_method: AverageMethod = "arithmetic") -> float:
        """MI adjusted for chance (Vinh et al.); the expected MI is cached until the table changes.

        >>> c = PartitionComparison.from_labels([0, 0, 0, 0], [0, 1, 2, 3])
        >>> c.adjusted_mutual_information()
        0.0
        """
        average_method = check_average_method(average_method,
                                                        "adjusted_mutual_information")
        sums = self._read()
        found = self._expected
        if found is None or found[0] is not sums:
            found = self._expected = (sums, _formulas.expected_mutual_information(
                self._table.row_totals(), self._table.column_totals()))
        return _formulas.adjusted_mutual_information(sums, found[1], average_method,
                                                     cells=self._information_cells,
                                                     precise=self._precise_sums)

    @property
    def homogeneity(self) -> float:
        """``MI / H(reference)``: 1.0 when every model cluster holds a single class."""
        found = self._table.homogeneity()
        if found is None:
            found = _formulas.homogeneity(self._read(), cells=self._fallback_cells,
                                          fine=self._table)
        return found

    @property
    def completeness(self) -> float:
        """``MI / H(model)``: 1.0 when every class lies in a single model cluster."""
        found = self._table.completeness()
        if found is None:
            found = _formulas.completeness(self._read(), cells=self._fallback_cells,
                                           fine=self._table)
        return found

    def v_measure(self, beta: float = 1.0) -> float:
        """Weighted harmonic mean of homogeneity and completeness."""
        beta = check_v_beta(beta, "v_measure")
        found = self._table.v_measure(beta)
        if found is None:
            found = _formulas.v_measure(self._read(), beta, cells=self._fallback_cells,
                                        fine=self._table)
        return found

    # Set matching --------------------------------------------------------------------------

    @property
    def purity(self) -> float:
        """Share of elements in their model cluster's majority class (R NMF's purity)."""
        return _formulas.majority_share(self._table.maxima_sum(0), self._table.n_elements)

    @property
    def inverse_purity(self) -> float:
        """Share of elements in their class's majority model cluster."""
        return _formulas.majority_share(self._table.maxima_sum(1), self._table.n_elements)

    @property
    def entropy(self) -> float:
        """R NMF's entropy: ``H(reference | model) / log(number of classes)``, 0.0 when undefined."""
        return _formulas.nmf_entropy(self._read(), cells=self._fallback_cells,
                                     fine=self._table)

    def jaccard_concentration_index(self, noise_label: Hashable | None = None,
                                    return_all: bool = False,
                                    ordered_labels: Sequence[Any] = ()
                                    ) -> float | JaccardConcentrationResult:
        """The Jaccard-Concentration Index of the table (reference = true labels, model = predicted).

        See :func:`contingency.formulas.concentration.jaccard_concentration_index_from_table`
        for the index and its conventions; it is computed from the non-empty cells
        (:func:`~contingency.formulas.concentration.jaccard_concentration_index_from_cells`),
        in memory linear in them.
        """
        from contingency.formulas.concentration import (
            check_noise_label,
            check_ordered_labels,
            jaccard_concentration_index_from_cells,
        )

        check_noise_label(noise_label, "jaccard_concentration_index")  # (before anything is read)
        check_ordered_labels(ordered_labels, "jaccard_concentration_index")
        return_all = check_flag(return_all, "return_all", "jaccard_concentration_index")
        return jaccard_concentration_index_from_cells(
            *self.contingency_cells(), noise_label=noise_label, return_all=return_all,
            ordered_labels=ordered_labels)

    # Reports -------------------------------------------------------------------------------

    # Confidence intervals (contingency._intervals) ------------------------------------------------

    def interval(self, score: str, *, level: float = 0.95, method: str = "delta") -> Interval:
        """The ``level`` confidence interval of a pair-counting score: ``Interval(low, estimate, high)``.

        ``score`` is ``"rand_index"`` (or ``"accuracy"``, ``"distance"``),
        ``"precision"``, ``"recall"``, ``"f1"`` or ``"jaccard"``; ``estimate``
        is that property's read. A pair count is not a count of independent
        trials (pairs sharing an element share its labels), but it is a
        U-statistic of the elements, and ``method="delta"`` (the only one)
        is Hoeffding's projection with the delta method for the ratio
        (:func:`contingency.formulas.intervals.pair_variance`), from the
        table's non-empty cells: O(cells) a read. It assumes independent
        elements, each of whose two labels does not depend on the others (a
        clustering fitted to these very elements breaks that); it has zero
        width when the score is 0 or 1. Every other score is refused with a
        ``ValueError`` naming the reason, as are fewer than two elements and
        an undefined score; the docs' page on intervals says more.

        >>> comparison = PartitionComparison.from_labels([1] * 10 + [2] * 10,
        ...                                              [1] * 8 + [2] * 10 + [1] * 2)
        >>> [round(x, 4) for x in comparison.interval("rand_index")]
        [0.4417, 0.6632, 0.8846]
        >>> comparison.interval("purity")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        contingency.IntervalRefused: interval('purity'): no interval: purity's clusters are ...
        """
        return partition_interval(self, score, level, method)

    def scores(self, intervals: float | None = None) -> dict[str, Any]:
        """Every count and score as plain JSON-safe data, keyed by the name of its property or method.

        Counts are ``int``, scores ``float``, ``None`` where a value is
        undefined: the Jaccard-concentration index of an empty table, or of
        more than ``2**53`` elements (its limit). Methods
        are read with their default parameters: mutual information, the
        entropies and the variation of information in nats (``base=e``),
        ``v_measure`` with ``beta=1``, ``jaccard_concentration_index`` with no
        noise label. ``normalized_mutual_information`` and
        ``adjusted_mutual_information`` are given for each average method, in
        a dictionary keyed by ``"arithmetic"`` (their default),
        ``"geometric"``, ``"min"`` and ``"max"``. ``accuracy`` and
        ``rand_index`` are both there (one score, two names). This is what
        :meth:`report` renders. ``intervals``, a level such as 0.95, adds an
        ``"intervals"`` block: ``[low, high]`` of the Rand index and pair
        precision, recall, F1 and Jaccard (:meth:`interval`), ``None`` where
        one is refused.

        >>> c = PartitionComparison.from_labels(["a", "a", "b", "b"], [1, 1, 1, 2])
        >>> scores = c.scores()
        >>> scores["n_elements"], scores["same_same"], scores["rand_index"]
        (4, 1, 0.5)
        >>> round(scores["normalized_mutual_information"]["geometric"], 4)
        0.3456
        >>> PartitionComparison().scores()["jaccard_concentration_index"] is None
        True
        """
        return self._scores(intervals, "scores")

    def _scores(self, intervals: float | None, where: str) -> dict[str, Any]:
        """:meth:`scores`, its errors naming the read ``where``."""
        block = None if intervals is None else partition_block(self, intervals, where)  # (first)
        methods: tuple[AverageMethod, ...] = ("arithmetic", "geometric", "min", "max")
        values: dict[str, Any] = {
            "n_elements": self._table.n_elements,
            "n_reference_clusters": self.n_reference_clusters,
            "n_model_clusters": self.n_model_clusters,
            "n_pairs": self.n_pairs,
            **self.pair_confusion()._asdict(),
            "accuracy": self.accuracy,
            "rand_index": self.rand_index,
            "distance": self.distance,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "jaccard": self.jaccard,
            "fowlkes_mallows": self.fowlkes_mallows,
            "adjusted_rand_index": self.adjusted_rand_index,
            "mutual_information": self.mutual_information(),
            "entropy_reference": self.entropy_reference(),
            "entropy_model": self.entropy_model(),
            "variation_of_information": self.variation_of_information(),
            "normalized_mutual_information": {
                method: self.normalized_mutual_information(method) for method in methods},
            "adjusted_mutual_information": {
                method: self.adjusted_mutual_information(method) for method in methods},
            "homogeneity": self.homogeneity,
            "completeness": self.completeness,
            "v_measure": self.v_measure(),
            "purity": self.purity,
            "inverse_purity": self.inverse_purity,
            "entropy": self.entropy,
            "jaccard_concentration_index": (self.jaccard_concentration_index()
                                            if 0 < self._table.n_elements <= EXACT_FLOAT_BOUND
                                            else None),
        }
        scores: dict[str, Any] = _report.json_numbers(values)
        if block is not None:
            scores["intervals"] = _report.json_numbers(block)
        return scores

    def report(self, digits: int = 3, intervals: float | None = None) -> str:
        """The counts, the pair confusion and every score as a text table (:meth:`scores`, rendered).

        >>> print(PartitionComparison.from_labels(["a", "a", "b", "b"], [1, 1, 1, 2]).report())
        elements: 4   reference clusters: 2   model clusters: 2   pairs: 6
        <BLANKLINE>
                  pair confusion  same model  different model
                  same reference           1                1
             different reference           2                2
        <BLANKLINE>
        pair scores:
           rand index (accuracy)  0.500
             adjusted rand index  0.000
                        distance  0.500
                       precision  0.333
                          recall  0.500
                              f1  0.400
                         jaccard  0.250
                 fowlkes-mallows  0.408
        <BLANKLINE>
        information scores:
              mutual information  0.216
            entropy of reference  0.693
                entropy of model  0.562
        variation of information  0.824
                     homogeneity  0.311
                    completeness  0.384
                       v-measure  0.344
        <BLANKLINE>
        purity and entropy:
                          purity  0.750
                  inverse purity  0.750
                 entropy (R NMF)  0.689
           jaccard-concentration  0.545
        <BLANKLINE>
           entropies averaged by  arithmetic  geometric    min    max
                   normalized MI       0.344      0.346  0.384  0.311
                     adjusted MI       0.000      0.000  0.000  0.000
        <BLANKLINE>
        conventions: natural logarithms (nats); v-measure with beta = 1; normalized and
        adjusted MI divide MI by the mean of the two entropies named in each column
        (arithmetic is their default); - marks an undefined value.
        """
        digits = _report.check_digits(digits, "report")  # (before anything is read)
        return _report.partition_report(self._scores(intervals, "report"), digits)

    def to_frame(self, sparse: bool | None = None) -> Any:
        """The contingency table as a ``pandas.DataFrame``: ``pandas.crosstab(reference, model)``.

        One row per reference label (index named ``"reference"``), one column
        per model label (columns named ``"model"``), int64 counts, labels in
        :meth:`contingency_table`'s order. The table is the state every score
        is computed from; the scores themselves are :meth:`scores`. pandas is
        imported here, not with the package: without it this raises
        ``ImportError`` naming the ``pandas`` extra.

        >>> comparison = PartitionComparison.from_labels(["b", "a", "a"], [1, 1, 2])
        >>> comparison.to_frame()  # doctest: +SKIP
        model      1  2
        reference
        a          1  1
        b          1  0

        ``sparse=True`` gives the same frame with columns of pandas'
        ``Sparse[int64, 0]`` dtype, which hold only the non-empty cells
        (``frame.sparse.to_dense()`` is the dense frame), in memory linear in
        them and the labels; ``sparse=False`` the dense frame, ``8 x rows x
        columns`` bytes. The default, ``None``, is dense while the dense table
        has at most four slots per non-empty cell or 2**20 slots in all, and
        sparse beyond: 10**5 clusters on each side make 80 GB dense.
        """
        if sparse is not None and not isinstance(sparse, (bool, np.bool_)):
            raise TypeError(f"to_frame: sparse must be True, False or None, not {sparse!r}")
        reference, model, rows, columns, counts = self.contingency_cells()
        if sparse is None:
            sparse = not dense_is_cheaper(len(reference) * len(model), len(counts))
        return table_frame(reference, model, rows, columns, counts, sparse=bool(sparse))

    # JSON ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-safe data: labels and the non-empty cells ``[row, column, count]``.

        Only the state, no score (:meth:`scores` gives those), under
        ``"format": "contingency.PartitionComparison/2"``; :meth:`from_dict`
        rebuilds an equal accumulator from it.

        >>> state = PartitionComparison.from_labels(["x", "x", "y"], [1, 2, 2]).to_dict()
        >>> state["reference_labels"], state["model_labels"], state["cells"]
        (['x', 'y'], [1, 2], [[0, 0, 1], [0, 1, 1], [1, 1, 1]])
        """
        reference, model, rows, columns, counts = self.contingency_cells()
        return {
            "format": _FORMAT,
            "reference_labels": [label_to_json(label, "reference label") for label in reference],
            "model_labels": [label_to_json(label, "model label") for label in model],
            "cells": [list(cell) for cell in zip(rows.tolist(), columns.tolist(), counts.tolist())],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, thread_safe: bool = False) -> PartitionComparison:
        """Rebuild an accumulator from :meth:`to_dict`'s output, refusing any malformed state.

        A missing or unknown key, a value of the wrong type, a negative or
        zero count, a cell outside the table or listed twice, a label with no
        elements, a repeated label or more than ``2**63 - 1`` elements raise
        ``ValueError`` starting ``from_dict:``, and no accumulator is made.
        Labels and cells may come in any order. Documents of format /1
        (contingency 0.1.0.dev0, the same keys) are read as they are.

        >>> PartitionComparison.from_dict({"format": "contingency.PartitionComparison/2",
        ...     "reference_labels": ["x"], "model_labels": [1, 2], "cells": [[0, 0, 3]]})
        Traceback (most recent call last):
        ...
        ValueError: from_dict: model label 2 has no elements
        """
        return _from_dict(cls, data, thread_safe)

    # The one write path ----------------------------------------------------------------

    def _update(self, reference: Hashable = None, model: Hashable = None, weight: int = 0,
                cells: Cells | None = None, where: str = "") -> None:
        """Change the counts: the one routine every change goes through, in two calling conventions.

        One cell, ``_update(reference, model, weight)``: ``weight`` elements
        (negative to take them back) labelled ``reference`` and ``model``, the
        unit path of :meth:`add` and :meth:`remove`, with plain arguments so
        that no tuple is packed per element. A batch, ``_update(cells=...,
        where=...)``: aggregated cells (:class:`~contingency._table.Cells`,
        counts all positive or all negative), of which one cell is the special
        case; ``where`` prefixes its errors. Either way the table
        (:class:`~contingency._table.Table`) checks everything that can fail
        (labels, the count limit, a removal of elements that are not there)
        before its first write, then moves the cells, totals, ``N`` and running
        sums together.
        """
        # cells and where are not keyword-only: defaults of positional parameters cost the
        # unit path less per call (measured about 5% of add).
        if cells is None:
            self._table.step(reference, model, weight)
        else:
            self._table.apply(cells, where)
        # Stale, and so is every value cached with the old sums (keyed by their identity).
        self._read_sums = self._pairs = None

    @property
    def _sums(self) -> RunningSums:
        """The table's running sums packed as :class:`~contingency._running_sums.RunningSums` packs them.

        A :class:`~contingency._running_sums.FineRunningSums` once the fine sums
        are kept: what the tests compare with a recomputation from the cells.
        """
        sums, triples = self._table.table_sums(), self._table.triple_sums()
        packed = [(log << LOG_SHIFT) + (triple << PAIR_BITS) + pair for pair, triple, log in
                  ((sums.same_same, triples[0], sums.cells_n_log_n),
                   (sums.same_reference, triples[1], sums.reference_n_log_n),
                   (sums.same_model, triples[2], sums.model_n_log_n))]
        fine = self._table.fine_sums()
        if fine is None:
            return RunningSums(*packed)
        return FineRunningSums(packed[0], packed[1], packed[2], *fine)

    def _read(self) -> TableSums:
        """The sums of the current state, unpacked once per state: what every score read starts from.

        The values cached with them (pair counts, expected MI) are keyed by their
        identity: a change drops the sums, so those become stale with one store.
        """
        sums = self._read_sums
        if sums is None:
            sums = self._read_sums = self._table.table_sums()
        return sums

    def _information_cells(self) -> tuple[NDArray[np.int64], ...]:
        """The table's cells for an information read that cannot be answered from the sums.

        Built once per state, so that several such reads between two changes
        (NMI, then V-measure, say) share them.
        """
        sums = self._read()
        found = self._cells
        if found is None or found[0] is not sums:
            found = self._cells = (sums, self._table.information_cells())
        return found[1]

    def _fallback_cells(self) -> tuple[NDArray[np.int64], ...]:
        """The cells for an information read that neither the float sums nor kept fine sums settle.

        An information read passes the running sums as its ``fine`` source:
        once they keep fine ``n ln n`` sums, a read the float sums cannot
        settle is O(1). Until then such a read asks for the cells (and takes the
        fine sums from them, the same value); this switches the fine sums on,
        in the table (O(cells)), and every later change steps them in the one
        write path.
        """
        cells = self._information_cells()
        if self._table.fine_sums() is None:
            self._table.keep_fine_sums()
        return cells

    def _precise_sums(self, bits: int) -> PreciseSums:
        """AMI's high-precision sums, computed once per state: the average methods share them."""
        sums = self._read()
        found = self._precise
        if found is None or found[0] is not sums:
            found = self._precise = (sums, {})
        by_bits = found[1]
        if bits not in by_bits:
            by_bits[bits] = _formulas.precise_sums(
                _formulas.TableCells(*self._information_cells()), bits)
        return by_bits[bits]

    def _clear(self) -> None:
        self._table = new_table()
        self._forget()

    def _forget(self) -> None:
        """Drop every memo (the table changed, or was rebuilt)."""
        self._read_sums = self._pairs = self._expected = self._cells = self._precise = None

    def __getstate__(self) -> dict[str, Any]:
        # The table alone: the memos are made again by the first reads.
        return {"_table": self._table}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # (A pickle made when the memos were attrs fields holds them too: they are dropped.)
        object.__setattr__(self, "_table", state["_table"])
        self._forget()


# JSON ----------------------------------------------------------------------------------------

# inspect.signature (IDEs, notebooks) shows __init__'s parameters, not __new__'s.
PartitionComparison.__signature__ = _locking.constructor_signature(PartitionComparison)  # type: ignore[attr-defined]
#: The reads the kernel computes, compiled when it is built (each read as written above is its
#: reference, which it calls where C does not settle the value: tests/test_kernel.py).
_backend.compiled_partition_reads(PartitionComparison)

_KEYS = ("format", "reference_labels", "model_labels", "cells")


def _from_dict(cls: type[PartitionComparison], data: Mapping[str, Any],
               thread_safe: bool) -> PartitionComparison:
    state = check_state(data, _KEYS, _FORMAT, earlier=_EARLIER_FORMATS)
    reference = labels_from_json(state["reference_labels"], "reference_labels")
    model = labels_from_json(state["model_labels"], "model_labels")
    cells = state["cells"]
    if not isinstance(cells, list):
        raise state_error("cells must be a list of [row, column, count]")
    rows, columns, counts = [], [], []
    seen: set[tuple[int, int]] = set()
    for i, cell in enumerate(cells):
        if not isinstance(cell, list) or len(cell) != 3:
            raise state_error(f"cells[{i}] must be [row, column, count]")
        row, column, count = (count_from_json(value, f"cells[{i}]") for value in cell)
        if row >= len(reference) or column >= len(model):
            raise state_error(f"cells[{i}] = {cell} points outside the {len(reference)} x "
                              f"{len(model)} table")
        if count == 0:
            raise state_error(f"cells[{i}] has count 0 (empty cells are not listed)")
        if (row, column) in seen:
            raise state_error(f"cells[{i}] repeats the cell ({row}, {column})")
        seen.add((row, column))
        rows.append(row)
        columns.append(column)
        counts.append(count)
    try:  # the limit of every other path, with its message
        check_room(0, sum(counts), "elements")
    except ValueError as error:
        raise state_error(str(error)) from None
    for side, labels, used in (("reference", reference, rows), ("model", model, columns)):
        empty = sorted(set(range(len(labels))) - set(used))
        if empty:
            raise state_error(f"{side} label {labels[empty[0]]!r} has no elements")
    result = cls(thread_safe=thread_safe)
    result._update(cells=Cells(reference, model, np.array(rows, dtype=np.int64),
                               np.array(columns, dtype=np.int64),
                               np.array(counts, dtype=np.int64)),
                   where="from_dict")
    return result
