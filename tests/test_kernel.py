"""The compiled kernel against its pure-Python reference: the same streams, every state equal after each step.

contingency/_kernel.pyx and contingency/_table_reference.py implement one
interface (contingency._table.Table); the reference is the specification.
Two implementations that drift apart are a known source of bugs (aiohttp's
pure parser once accepted what its C parser refused), so every change here
goes to both and every part of the state is compared after it: counts,
labels and their order, totals, N, the exact running sums (pairs, triples,
n ln n, fine n ln n), refusals (type and message) and, through two
PartitionComparison objects that differ only in their table, every score bit
for bit. Each test also compares both with a recomputation from scratch.
"""

from __future__ import annotations

import math
import pickle
from functools import partial
from operator import attrgetter

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from contingency import PartitionComparison
from contingency._table import Table
from contingency._table_reference import ReferenceTable
from contingency.formulas import partition as formulas
from contingency.formulas._numeric import MAX_COUNT
from contingency.formulas.partition import fine_sums
from tests.served import python_calls
from tests.strategies_partition import implementations

IMPLEMENTATIONS = implementations()
KERNEL = IMPLEMENTATIONS[1].values[0]
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the kernel is not built")

#: Labels as users mix them: 1 and 1.0 are one label, (1, "x") a tuple, 2.5 a float.
LABELS = st.sampled_from([0, 1, 2, "a", "b", 1.0, 2.5, (1, "x"), "c"])
#: Weights of a unit step: the unit ones, others, and some near or past the limit.
WEIGHTS = st.sampled_from([1, 1, 1, -1, -1, 2, -3, 2**40, 2**62, -(2**62), MAX_COUNT,
                           MAX_COUNT + 1, -(2**70)])


def state(table):
    """Every part of a table's state, as plain data."""
    cells = table.cells()
    return {
        "n": (table.n_elements, table.n_rows, table.n_columns, table.n_cells()),
        "labels": (cells.row_labels, cells.column_labels),
        "label types": ([type(x) for x in cells.row_labels], [type(x) for x in cells.column_labels]),
        "cells": (cells.rows.tolist(), cells.columns.tolist(), cells.counts.tolist()),
        "totals": (table.row_totals().tolist(), table.column_totals().tolist()),
        "sums": table.table_sums(),
        "sums type": type(table.table_sums()),
        "triples": table.triple_sums(),
        "fine": table.fine_sums(),
        "sorted": [part if isinstance(part, tuple) else part.tolist()
                   for part in table.sorted_cells()],
        "reads": repr(reads(table)),
        "maxima sums": (table.maxima_sum(0), table.maxima_sum(1)),
    }


#: The arguments of every table read that takes one: those the kernel computes in C, and others.
_METHODS = ("arithmetic", "geometric", "min", "max")
_BETAS = (1.0, 1, 0.5, 2.0, np.float64(2.0))  # (True is refused alike: reads_with_their_arguments)
_BASES = (math.e, 2, 10.0)


def reads(table):
    """Every score a table reads from its sums (contingency._table.Table's reads, the kernel's in
    C where it can): floats, None where the sums alone do not settle an information score."""
    return ([table.adjusted_rand_index(), table.rand_index(), table.precision(), table.recall(),
             table.f1(), table.jaccard(), table.fowlkes_mallows(), table.homogeneity(),
             table.completeness()]
            + [table.normalized_mutual_information(method) for method in _METHODS]
            + [table.v_measure(beta) for beta in _BETAS]
            + [table.mutual_information(base) for base in _BASES])


class CellsNeeded(Exception):
    pass


def no_cells():
    raise CellsNeeded


def reads_of_sums(sums, fine=None):
    """:func:`reads` computed by the formulas from (recomputed) sums and fine sums, an
    information score None where the formula asks for the cells: the specification."""

    def information(score, *arguments):
        try:
            return score(sums, *arguments, cells=no_cells, fine=fine)
        except CellsNeeded:
            return None

    pairs = formulas.pair_confusion(sums)
    return ([formulas.adjusted_rand_index(*pairs), formulas.rand_index(*pairs),
             formulas.precision(*pairs), formulas.recall(*pairs), formulas.f1(*pairs),
             formulas.jaccard(*pairs), formulas.fowlkes_mallows(*pairs),
             information(formulas.homogeneity), information(formulas.completeness)]
            + [information(formulas.normalized_mutual_information, method) for method in _METHODS]
            + [information(formulas.v_measure, beta) for beta in _BETAS]
            + [information(formulas.mutual_information, base) for base in _BASES])


def recomputed(table):
    """The sums recomputed from the table's cells, as the formulas compute them from scratch."""
    _, _, rows, columns, counts = table.sorted_cells()
    if not counts.size:
        dense = np.zeros((1, 1), dtype=np.int64)
    else:
        dense = np.zeros((int(rows.max()) + 1, int(columns.max()) + 1), dtype=object)
        dense[rows, columns] = counts.tolist()
    sums = formulas.table_sums(dense.astype(np.int64))
    levels = (dense.ravel().tolist(), dense.sum(axis=1).tolist(), dense.sum(axis=0).tolist())
    triples = tuple(sum(formulas.triples(int(n)) for n in level) for level in levels)
    return sums, triples, fine_sums(dense.astype(np.int64))


def outcome(call):
    """``("ok", None)`` or the refusal ``(type name, message)``."""
    try:
        call()
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)
    return "ok", None


def assert_same(reference, kernel):
    assert state(kernel) == state(reference)
    sums, triples, fine = recomputed(reference)
    assert reference.table_sums()._replace(n_reference_clusters=sums.n_reference_clusters,
                                           n_model_clusters=sums.n_model_clusters) == sums
    assert repr(reads(kernel)) == repr(reads_of_sums(reference.table_sums(), reference.fine_sums()))
    assert reference.triple_sums() == triples
    # (the maxima sums kept by the writes: the sums of the maxima read from the cells)
    assert [reference.maxima_sum(axis) for axis in (0, 1)] == [
        Table.maxima_sum(reference, axis) for axis in (0, 1)]
    if reference.fine_sums() is not None:
        assert reference.fine_sums() == fine


# The stateful differential test ----------------------------------------------------------------

@settings(max_examples=150, stateful_step_count=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
class KernelAgainstReference(RuleBasedStateMachine):
    """Two PartitionComparison objects, one on each implementation, fed the same stream."""

    def __init__(self) -> None:
        super().__init__()
        self.reference, self.kernel = self.fresh()

    @staticmethod
    def fresh() -> tuple[PartitionComparison, PartitionComparison]:
        reference, kernel = PartitionComparison(), PartitionComparison()
        reference._table, kernel._table = ReferenceTable(), KERNEL()
        return reference, kernel

    def both(self, call) -> None:
        """Run ``call`` on both; both must succeed, or both refuse it with the same error."""
        assert outcome(lambda: call(self.reference)) == outcome(lambda: call(self.kernel))

    @rule(reference=LABELS, model=LABELS, weight=WEIGHTS)
    def unit(self, reference, model, weight) -> None:
        self.both(lambda c: c._update(reference, model, weight))

    @rule(reference=LABELS, model=LABELS)
    def add_then_remove(self, reference, model) -> None:
        self.both(lambda c: c.add(reference, model))
        self.both(lambda c: c.remove(reference, model))

    @rule(pairs=st.lists(st.tuples(LABELS, LABELS, st.sampled_from([1, 2, 5, 2**60])),
                         max_size=8), remove=st.booleans())
    def batch(self, pairs, remove) -> None:
        references, models, weights = ([p[i] for p in pairs] for i in range(3))
        if remove:
            self.both(lambda c: c.remove_many(references, models, weights))
        else:
            self.both(lambda c: c.add_many(references, models, weights))

    @rule(take=st.integers(0, 10))
    def remove_what_is_there(self, take) -> None:
        cells = list(self.reference._table.cells().triples())[:take]
        if cells:
            self.both(lambda c: c.remove_many([r for r, _, _ in cells], [m for _, m, _ in cells],
                                              [n for _, _, n in cells]))

    @rule(pairs=st.lists(st.tuples(LABELS, LABELS), max_size=8))
    def merge(self, pairs) -> None:
        other = PartitionComparison.from_labels([p[0] for p in pairs], [p[1] for p in pairs])
        self.both(lambda c: c.merge(other))

    @rule()
    def merge_itself(self) -> None:
        self.both(lambda c: c.merge(c.copy()))

    @rule()
    def keep_fine_sums(self) -> None:
        self.both(lambda c: c._fallback_cells())

    @rule()
    def copy_and_pickle(self) -> None:
        reference, kernel = self.reference.copy(), self.kernel.copy()
        assert type(kernel._table) is type(self.kernel._table)
        for original in (reference, kernel):
            twin = pickle.loads(pickle.dumps(original))
            assert twin == original
            assert state(twin._table) == state(original._table)  # labels in the same order
        self.reference, self.kernel = reference, kernel

    @precondition(lambda self: self.reference.n_elements > 0)
    @rule()
    def every_score(self) -> None:
        reference, kernel = self.reference.scores(), self.kernel.scores()
        assert repr(kernel) == repr(reference)  # bit for bit, NaN and None included

    @rule(average=st.sampled_from(["arithmetic", "geometric", "min", "max"]),
          beta=st.sampled_from([1, 1.0, 0.5, 2.0, True]),
          base=st.sampled_from([math.e, 2, 2.0, 10.0]))
    def reads_with_their_arguments(self, average, beta, base) -> None:
        """PartitionComparison's reads (compiled on the kernel: _backend.compiled_partition_reads)
        with each argument, those C serves and those it hands to the reads as written."""
        found = []
        for comparison in (self.reference, self.kernel):
            found.append((comparison.adjusted_rand_index, comparison.accuracy,
                          comparison.precision, comparison.recall, comparison.f1,
                          comparison.jaccard, comparison.fowlkes_mallows,
                          comparison.homogeneity, comparison.completeness,
                          outcome(lambda c=comparison: c.normalized_mutual_information(average)),
                          outcome(lambda c=comparison: c.normalized_mutual_information()),
                          outcome(lambda c=comparison: c.v_measure(beta)),
                          outcome(lambda c=comparison: c.v_measure()),
                          outcome(lambda c=comparison: c.mutual_information(base)),
                          outcome(lambda c=comparison: c.mutual_information()),
                          comparison.ari_significance(),
                          comparison.purity, comparison.inverse_purity))
        assert repr(found[1]) == repr(found[0])  # bit for bit, NaN and errors included

    @invariant()
    def same_state(self) -> None:
        assert_same(self.reference._table, self.kernel._table)
        assert self.kernel == self.reference


TestKernelAgainstReference = needs_kernel(KernelAgainstReference.TestCase)


class _Subclass(PartitionComparison):
    """A user's subclass: it keeps its base's slots where they are."""


@needs_kernel
def test_the_compiled_reads_find_the_table_of_any_comparison_and_refuse_anything_else():
    """The compiled reads take ``_table`` from its slot in place (contingency/_kernel.pyx,
    _table_of): on the class, a subclass and a thread-safe (locked) one they read what the
    reads as written read; on an object without the slot, or with it unset, they raise what
    those raise (AttributeError), never read memory that is not a table."""
    from contingency import _backend

    pairs = [(i % 3, (i * 7) % 4) for i in range(50)]
    expected = PartitionComparison.from_labels(*zip(*pairs))
    expected._table = ReferenceTable()  # the reads as written in Python, on the reference
    expected.add_many(*zip(*pairs))
    for comparison in (PartitionComparison(), _Subclass(), PartitionComparison(thread_safe=True)):
        for reference, model in pairs:
            comparison.add(reference, model)
        assert type(comparison._table) is _backend.TableClass  # the kernel's unless pure Python
        assert (repr((comparison.adjusted_rand_index, comparison.normalized_mutual_information(),
                      comparison.v_measure(), comparison.homogeneity, comparison.ari_significance()))
                == repr((expected.adjusted_rand_index, expected.normalized_mutual_information(),
                         expected.v_measure(), expected.homogeneity, expected.ari_significance())))
    unset = object.__new__(PartitionComparison)  # its _table slot never set
    for stranger in (unset, object(), 1.5):
        for read in (PartitionComparison.normalized_mutual_information,
                     PartitionComparison.v_measure, PartitionComparison.adjusted_rand_index.fget,
                     PartitionComparison.ari_significance):
            with pytest.raises(AttributeError):
                read(stranger)


# Streams as property tests, on both implementations ----------------------------------------------

_STEP = st.one_of(
    st.tuples(st.just("unit"), LABELS, LABELS, WEIGHTS),
    st.tuples(st.just("batch"), st.lists(st.tuples(LABELS, LABELS, st.integers(1, 4)),
                                         min_size=1, max_size=6), st.booleans()),
)


@needs_kernel
@given(st.lists(_STEP, max_size=40))
@example([("unit", 1, "a", MAX_COUNT), ("unit", 1.0, "a", -1), ("unit", 2, "b", 1)])
@example([("unit", "a", 1, 2**62), ("unit", "b", 1, 2**62), ("unit", "b", 2, 2**62)])
def test_every_state_of_a_stream_is_the_same_on_both(steps):
    reference, kernel = ReferenceTable(), KERNEL()
    for step in steps:
        if step[0] == "unit":
            _, row, column, weight = step
            results = [outcome(partial(t.step, row, column, weight)) for t in (reference, kernel)]
        else:
            from contingency._table import count_cells

            _, cells, remove = step
            change = count_cells([c[0] for c in cells], [c[1] for c in cells],
                                 [c[2] for c in cells], where="t")
            if remove:
                change = change.negated()
            results = [outcome(partial(t.apply, change, "remove_many")) for t in (reference, kernel)]
        assert results[0] == results[1]
        assert_same(reference, kernel)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_thousands_of_labels_come_and_go_in_order(implementation):
    """Labels forgotten and seen again, past the kernel's renumbering of its codes: the same
    state as the reference's after each change, labels in arrival order."""
    table, reference = implementation(), ReferenceTable()
    rng = np.random.default_rng(5)
    for round_ in range(4):
        labels = [f"r{round_}-{i}" for i in range(1500)]
        for t in (table, reference):
            for i, label in enumerate(labels):
                t.step(label, i % 7, 1)
        assert state(table) == state(reference)
        gone = rng.permutation(1500)[:1400].tolist()
        for t in (table, reference):
            for i in gone:
                t.step(labels[i], i % 7, -1)
        assert state(table) == state(reference)
        assert table.n_rows == reference.n_rows == 100 * (round_ + 1)
    assert_same(reference, table)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("sparse", [True, False])
def test_large_tables_dense_or_sparse_read_in_the_same_order(implementation, sparse):
    """The kernel orders its cells by placing them in a dense table when that is cheap and
    by sorting their keys when the table is sparse (here 600 x 600 labels, 1,200 cells):
    both orders are the reference's, after batches and unit steps in any order."""
    table, reference = implementation(), ReferenceTable()
    rng = np.random.default_rng(11)
    k = 600 if sparse else 60
    size = 2 * k if sparse else 20 * k
    rows, columns = rng.integers(0, k, size), rng.integers(0, k, size)
    from contingency._table import count_cells

    for t in (table, reference):
        t.apply(count_cells(rows[: size // 2], columns[: size // 2], where="t"), "t")
        for r, c in zip(rows[size // 2:].tolist(), columns[size // 2:].tolist()):
            t.step(f"r{r}", c, 1)
    assert state(table) == state(reference)
    assert_same(reference, table)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_huge_weights_near_the_limit_keep_exact_sums(implementation):
    table = implementation()
    table.step("a", 1, 2**62)
    table.step("a", 2, 2**62 - 2)
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        table.step("b", 1, 2)
    table.step("a", 1, 1)  # exactly MAX_COUNT, all in row "a"
    assert table.n_elements == MAX_COUNT
    sums, triples, _ = recomputed(table)
    assert table.table_sums() == sums
    assert table.triple_sums() == triples
    assert table.triple_sums()[1] == formulas.triples(MAX_COUNT) > 2**186
    table.keep_fine_sums()
    table.step("a", 1, -(2**62))
    sums, triples, fine = recomputed(table)
    assert (table.table_sums(), table.triple_sums(), table.fine_sums()) == (sums, triples, fine)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_pickled_table_is_rebuilt_by_the_loading_process_implementation(implementation):
    from contingency import _backend

    table = implementation()
    table.step("a", 1, 3)
    table.keep_fine_sums()
    twin = pickle.loads(pickle.dumps(table))
    assert type(twin) is _backend.TableClass
    assert state(twin) == state(table)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_fine_sums_step_across_the_kernels_table_of_terms(implementation):
    """Counts that cross 65,536 (the kernel reads fine terms below it from a C table, asks
    the formulas above it) by unit steps, weights and batches keep the fine sums exact."""
    table = implementation()
    table.keep_fine_sums()
    table.step("a", 1, 65_534)
    table.step("b", 2, 65_530)
    for weight in (1, 1, 1, -1, 1, 1, 2**33, -(2**33), -3):
        table.step("a", 1, weight)
        table.step("a", 2, 1)  # row "a" and column 2 cross the bound too
        sums, triples, fine = recomputed(table)
        assert table.triple_sums() == triples
        assert table.fine_sums() == fine
        assert table.table_sums() == sums
    rebuilt = implementation()
    rebuilt.keep_fine_sums()
    rebuilt.apply(table.cells(), "merge")  # the batch path: one fine step per level
    assert rebuilt.fine_sums() == table.fine_sums()


# The ARI's significance in C -------------------------------------------------------------------

_SIZES = st.sampled_from([1, 2, 3, 4, 5, 1000, 2**21, 2**22 - 9, 2**22 - 1, 2**22, 2**40])


@needs_kernel
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), _SIZES), min_size=1,
                max_size=12))
@example([(0, 0, 2**22 - 1)])  # one cell: S cannot vary
@example([(0, 0, 2), (1, 1, 2)])  # n = 4, the smallest n C computes
@example([(0, 0, 2), (1, 1, 1)])  # n = 3: the formula's own branch
@example([(0, 0, 2**21), (0, 1, 2**21 - 1), (1, 0, 2**21 - 1), (1, 1, 1)])  # n = 2**22 - 1
@example([(0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 1)])  # S = 0: below chance, a negative z
@example([(j, side, 1) for j in range(7) for side in (0, 1)])  # pairs split: below chance
@example([(0, 0, 2**20), (0, 1, 2**20), (1, 0, 2**20), (1, 1, 2**20 - 1)])  # near independence
def test_ari_significance_in_c_is_the_formula_bit_for_bit(cells):
    """``ari_significance()`` on the kernel (computed in C below 2**22 elements: the widest terms
    then reach 2**217 of the 256 bits) is the formula's exact quotient, rounded once, at
    every size: the edges of C's range and past it, where the formula answers."""
    comparison = PartitionComparison()
    comparison._table = KERNEL()
    comparison.add_many([c[0] for c in cells], [c[1] for c in cells], [c[2] for c in cells])
    table = comparison._table
    expected = formulas.ari_significance(table.table_sums(), *table.margin_triples())
    assert repr(comparison.ari_significance()) == repr(expected)
    assert type(comparison.ari_significance()) is type(expected)


# The scores the kernel reads from its sums in C ------------------------------------------------

_CELL = st.tuples(st.integers(0, 6), st.integers(0, 6),
                  st.one_of(st.integers(1, 30), st.integers(1, 10**9), st.just(2**40)))


@needs_kernel
@given(st.lists(_CELL, min_size=1, max_size=40), st.booleans())
@example([(0, 0, 1000), (0, 1, 1000), (1, 0, 1000), (1, 1, 1001)], True)  # near independence
@example([(0, 0, 1000), (0, 1, 1000), (1, 0, 1000), (1, 1, 1001)], False)
@example([(0, 0, 10**9), (0, 1, 1), (1, 0, 2), (1, 1, 3)], True)  # a huge cell, small ones
@example([(0, 0, 3), (1, 1, 2), (2, 1, 1)], False)  # pure columns: MI is H(R)
@example([(0, 0, 5), (0, 1, 2), (1, 2, 7)], True)  # pure rows
@example([(0, 0, 2**40), (1, 1, 2**40), (0, 1, 1)], False)  # N past 2**31: pair scores in Python
@example([(i, j, 10**6 + i * j) for i in range(5) for j in range(5)], True)  # fine, N > 65,536
def test_reads_from_the_sums_are_the_formulas_bit_for_bit(cells, fine):
    """ARI, the Rand index and the information scores the kernel computes in C from its running
    sums and fine sums (one rounding each) are the formulas' numbers for the same sums, bit for
    bit, and None exactly where those sums do not settle an information score."""
    from contingency._table import count_cells

    change = count_cells([c[0] for c in cells], [c[1] for c in cells], [c[2] for c in cells],
                         where="t")
    reference, kernel = ReferenceTable(), KERNEL()
    for table in (reference, kernel):
        table.apply(change, "t")
        if fine:
            table.keep_fine_sums()
    sums, _, fine_sums_ = recomputed(reference)
    sums = sums._replace(n_reference_clusters=reference.n_rows,
                         n_model_clusters=reference.n_columns)
    assert repr(reads(kernel)) == repr(reads(reference)) == repr(
        reads_of_sums(sums, fine_sums_ if fine else None))
    for table in (reference, kernel):  # and after a unit step, which the kernel's memo must see
        table.step(cells[0][0], cells[0][1], -1)
    assert repr(reads(kernel)) == repr(reads(reference))


@needs_kernel
@given(st.one_of(st.integers(0, 2**126 - 1), st.integers(0, 2**240 - 1)),
       st.one_of(st.integers(1, 2**126 - 1), st.integers(1, 2**240 - 1)))
@example(3 * 2**70 + 1, 2**70)
@example(((1 << 53) | 1) * 3 * 2**40, 3)  # a tie: to even
@example(((1 << 53) | 3) * 2**60, 2**61)  # a tie: to even, upwards
@example(2**125, 2**125 - 1)
@example(1, 2**125 + 1)
@example(((1 << 53) | 1) * 2**150 * 7, 7)  # a tie in 256 bits
@example(2**239, 3)
@example(5, 2**239 - 1)
# The 128-bit estimate one below the quotient, and one above it, where either rounded as it
# stands would give another double than the quotient's:
@example(0x3FFFFFFFFFFFFFFFFFFFFFFFFFFFF57, 0x400000000000550)
@example(0x3FFFFFFFFBC649, 0x2000000000000000016B)
@example(2**126 - 1, 2**119 + 1)  # the longest operands of the estimate, truncated most
@example(2**64 + 1, 2**64 - 1)  # 65 bits over 64: one truncated, one exact
def test_the_kernels_division_is_pythons(num, den):
    """The one rounding of the kernel's reads: ``num / den`` for exact integers, as Python
    rounds it (to nearest, ties to even), by each route: doubles, estimate-and-correct in 128
    bits (the estimate from the leading 64 bits of each, one off at most: an example each way)
    and 256 bits, long division."""
    from contingency import _kernel

    assert _kernel._quotient(num, den) == num / den
    for shift in (0, 7, 60):  # the same quotient at other scales: a ratio near 1, 2**-60, ...
        if num >> shift:
            assert _kernel._quotient(num >> shift, den) == (num >> shift) / den


# The bulk path: a batch's cells written into the kernel's hash table ------------------------------

def _home(key: int, bits: int) -> int:
    """The home slot of ``key`` in a table of ``2**bits`` slots (ck_hash, contingency/_kernel.pyx)."""
    return (key * 0x9E3779B97F4A7C15 % 2**64) >> (64 - bits)


def _colliding(count: int, bits: int, home: int) -> list[tuple[int, int]]:
    """``count`` cells ``(row, column)`` of codes below 256, off the diagonal, whose keys
    ``row << 32 | column`` share one home slot of a table of ``2**bits`` slots."""
    found = [(row, column) for row in range(256) for column in range(256)
             if row != column and _home(row << 32 | column, bits) == home]
    assert len(found) >= count
    return found[:count]


@needs_kernel
def test_batches_collide_grow_mix_and_are_taken_back_as_on_the_reference():
    """Batches through the kernel's bulk path (every cell written by the one write of a cell),
    against the reference after each: 40 cells whose keys share the table's last slot (their
    probes wrap around to the first slots, among cells already there), removals that empty
    every other one of that cluster and part of others (deletion by backward shift), a batch
    that grows the table by several doublings at once and adds to cells already there, refused
    batches (a removal of more than is there, a batch past the count limit) that leave both
    tables exactly as they were, and the removal of everything. The growing batch is a dense
    count, which the kernel reads as it is (its keys never made)."""
    from contingency._table import Cells, count_cells

    labels = list(range(256))

    def batch(cells, sign=1):
        return Cells(labels, labels, np.array([row for row, _, _ in cells], dtype=np.int64),
                     np.array([column for _, column, _ in cells], dtype=np.int64),
                     np.array([sign * count for _, _, count in cells], dtype=np.int64))

    reference, kernel = ReferenceTable(), KERNEL()

    def both(change, where="t"):
        before = state(kernel)
        results = [outcome(partial(t.apply, change, where)) for t in (reference, kernel)]
        assert results[0] == results[1]
        if results[1][0] != "ok":  # refused whole: nothing changed
            assert state(kernel) == before
        assert_same(reference, kernel)
        return results[1]

    # The diagonal: codes 0..255 a side, in order, 256 cells in a table of 512 slots.
    assert both(batch([(i, i, 1 + i % 3) for i in range(256)])) == ("ok", None)
    assert kernel.n_slots() == 512
    # 40 more: 296 cells, the table still of 512 slots (at most three quarters full), every new
    # key at home in its last slot.
    cluster = _colliding(40, 9, 511)
    assert both(batch([(row, column, 2) for row, column in cluster])) == ("ok", None)
    assert (kernel.n_cells(), kernel.n_slots()) == (296, 512)
    # Every other one of the cluster taken back whole, and one element of some diagonal cells
    # (those holding one: emptied).
    taken = [(row, column, 2) for row, column in cluster[::2]] + [(i, i, 1) for i in range(0, 256, 5)]
    assert both(batch(taken, -1), "remove_many") == ("ok", None)
    assert kernel.n_cells() == 276 - sum(1 for i in range(0, 256, 5) if i % 3 == 0)
    # Refused: one cell of the batch has fewer elements than it takes; and a count past the limit.
    refused = batch([(row, column, 2) for row, column in cluster[1::2]] + [(1, 1, 3)], -1)
    assert both(refused, "remove_many")[0] == "ValueError"
    assert both(batch([(0, 1, MAX_COUNT)]))[0] == "ValueError"
    # A batch that grows the table from 512 to 32,768 slots: cells there already and new ones.
    rng = np.random.default_rng(3)
    rows, columns = rng.integers(0, 256, 20_000), rng.integers(0, 256, 20_000)
    dense = count_cells(rows, columns, where="t").dense_count()  # read in C as it is
    assert dense is not None
    assert dense[0].dtype == np.int32  # int64 labels: counted in int32
    assert both(count_cells(rows, columns, where="t")) == ("ok", None)
    assert kernel.n_cells() == reference.n_cells() > 16_384
    assert kernel.n_slots() == 32_768
    # Everything taken back: an empty table, every label forgotten.
    assert both(kernel.cells().negated(), "remove_many") == ("ok", None)
    assert (kernel.n_elements, kernel.n_cells(), kernel.n_rows) == (0, 0, 0)
def _least_slots(entries: int) -> int:
    """The slots of a kernel hash table that has held ``entries`` at most: 16 at first, doubled
    whenever one more entry would fill it past three quarters (contingency/_kernel_slots.pxi)."""
    slots = 16
    while 4 * entries > 3 * slots:
        slots *= 2
    return slots


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_cells_grow_at_three_quarters_full_and_are_taken_back_at_that_load(seed):
    """One cell at a time (the one write of a cell): the cells' hash table doubles exactly when
    a new cell would fill it past three quarters (the 13th cell of 16 slots, the 25th of 32, the
    49th of 64), never before. At that load (48 cells in 64 slots: long probes, clusters that
    wrap around the table's end) every cell is taken back in a random order, some first in
    part, some written again meanwhile, rows and columns forgotten (codes renumbered): the same
    state as the reference's after every step, the table never smaller."""
    rng = np.random.default_rng(seed)
    reference, kernel = ReferenceTable(), KERNEL()

    def both(row, column, weight):
        for table in (reference, kernel):
            table.step(row, column, weight)
        assert state(kernel) == state(reference)

    cells = [(row, column) for row in range(8) for column in range(6)]
    order = rng.permutation(len(cells))
    for held, at in enumerate(order, 1):
        both(*cells[at], 2)
        assert (kernel.n_cells(), kernel.n_slots()) == (held, _least_slots(held))
    assert_same(reference, kernel)
    for at in rng.permutation(len(cells)):
        row, column = cells[at]
        if _count(reference, row, column) > 1 and rng.random() < 0.3:  # in part first
            both(row, column, -1)
        both(row, column, -_count(reference, row, column))
        if rng.random() < 0.2:  # a cell (taken back or not yet) written again
            both(*cells[rng.integers(len(cells))], 1)
        assert kernel.n_slots() == 64
    assert_same(reference, kernel)
    for row, column in cells:  # the 48 cells again: still 64 slots; one more: 128
        both(row, column, 1)
    assert (kernel.n_cells(), kernel.n_slots()) == (48, 64)
    both(8, 0, 1)
    assert (kernel.n_cells(), kernel.n_slots()) == (49, 128)
    assert_same(reference, kernel)


def _count(table, row, column):
    """The count of one cell of a table (0 if empty), from its cells."""
    cells = table.cells()
    for r, c, count in zip(cells.rows.tolist(), cells.columns.tolist(), cells.counts.tolist()):
        if cells.row_labels[r] == row and cells.column_labels[c] == column:
            return count
    return 0


#: The least label of a side: its labels are it plus 0 to 6, all within int64.
_BASE = st.integers(-(2**63), 2**63 - 7)


@needs_kernel
@given(_BASE, _BASE, st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1,
                              max_size=60))
@example(-(2**63), 2**63 - 7, [(0, 6), (6, 0), (0, 0)])  # the two ends of int64
@example(5, 5, [(0, 0)])  # one label a side
def test_the_kernels_dense_count_is_the_reference(base_r, base_m, offsets):
    """``label_ranges`` and ``dense_count`` in C give the references' arrays (values and dtypes)
    on int64 labels anywhere in int64's range, its ends included, with repeats."""
    from contingency import _kernel
    from contingency._table import dense_count_reference, label_ranges_reference

    reference = np.array([base_r + r for r, _ in offsets], dtype=np.int64)
    model = np.array([base_m + m for _, m in offsets], dtype=np.int64)
    ranges = _kernel.label_ranges(reference, model)
    assert ranges == label_ranges_reference(reference, model)
    (low_r, high_r), (low_m, high_m) = ranges
    height, width = high_r - low_r + 1, high_m - low_m + 1
    found = _kernel.dense_count(reference, model, low_r, low_m, height, width)
    expected = dense_count_reference(reference, model, low_r, low_m, height, width)
    for ours, theirs in zip(found, expected):
        assert ours.dtype == theirs.dtype
        assert ours.tolist() == theirs.tolist()


@needs_kernel
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_a_dense_batch_of_any_integer_dtype_is_the_same_on_both(dtype):
    """count_cells' two dense routes (int64 labels: int32 counts from ``dense_count``; other
    integer dtypes: numpy's int64 ``bincount``) give both tables the same state, and a dense
    batch past the count limit is refused whole by both, changing nothing."""
    from contingency._table import count_cells

    rng = np.random.default_rng(11)
    rows = rng.integers(0, 40, 5_000).astype(dtype)
    columns = rng.integers(0, 30, 5_000).astype(dtype)
    cells = count_cells(rows, columns, where="t")
    dense = cells.dense_count()
    assert dense is not None
    assert dense[0].dtype == (np.int32 if dtype is np.int64 else np.int64)
    reference, kernel = ReferenceTable(), KERNEL()
    for table in (reference, kernel):
        table.apply(count_cells(rows, columns, where="t"), "t")
    assert_same(reference, kernel)
    for table in (reference, kernel):
        table.apply(count_cells(np.array([0], dtype=dtype), np.array([0], dtype=dtype),
                                [MAX_COUNT - 5_001], where="t"), "t")
    before = [state(reference), state(kernel)]
    for table in (reference, kernel):
        with pytest.raises(ValueError, match="at most"):
            table.apply(count_cells(rows, columns, where="t"), "t")
    assert [state(reference), state(kernel)] == before


@pytest.mark.skipif(KERNEL is None, reason="the kernel is not built")
def test_sums_step_across_the_small_counts_the_kernel_moves_without_a_branch():
    """The kernel moves a level's sums by signed differences when both counts are below 4,096
    (its table of n ln n terms) and by the general path otherwise: counts stepped up and down
    across that bound, by one and by more, in unit steps and in batches, keep every sum equal to
    the reference's (and to a recomputation) after each change."""
    from contingency._table import Cells

    def batch(cells):
        return Cells(["r", "s"], ["m", "n"], np.array([row for row, _, _ in cells], np.int64),
                     np.array([column for _, column, _ in cells], np.int64),
                     np.array([count for _, _, count in cells], np.int64))

    reference, kernel = ReferenceTable(), KERNEL()
    changes = [("step", "r", "m", 4_094), ("step", "r", "m", 1), ("step", "r", "m", 1),
               ("step", "r", "m", -1), ("step", "r", "m", -2), ("step", "r", "m", 3),
               ("batch", [(0, 0, 2), (1, 1, 4_095), (0, 1, 1)]),
               ("batch", [(0, 0, -4_097), (1, 1, -1)]), ("step", "s", "n", -4_093),
               ("step", "s", "n", 2**40), ("step", "s", "n", -(2**40) + 5), ("step", "r", "n", 7)]
    for change in changes:
        for table in (reference, kernel):
            if change[0] == "step":
                table.step(*change[1:])
            else:
                table.apply(batch(change[1]), "t")
        assert_same(reference, kernel)
    # Dense counts (written a stretch at a time, the sums of each stretch summed apart): a cell
    # of 5,000 among small ones, onto a table holding 2,820 cells, twice (counts from and past
    # the bound), then once more.
    from contingency._table import count_cells

    rng = np.random.default_rng(5)
    rows = np.concatenate([np.zeros(5_000, np.int64), rng.integers(0, 60, 6_000)])
    columns = np.concatenate([np.zeros(5_000, np.int64), rng.integers(0, 50, 6_000)])
    reference, kernel = ReferenceTable(), KERNEL()
    for table in (reference, kernel):
        table.apply(count_cells(np.arange(9_000) % 60, np.arange(9_000) % 47, where="t"), "t")
    assert_same(reference, kernel)
    for _ in range(3):
        cells = count_cells(rows, columns, where="t")
        assert cells.dense_count() is not None
        for table in (reference, kernel):
            table.apply(count_cells(rows, columns, where="t"), "t")
        assert_same(reference, kernel)


@needs_kernel
def test_purity_is_served_in_c_once_its_maxima_are_current() -> None:
    """Purity and inverse purity: the first read makes the kept maxima (by the reads written in
    Python); the reads after adds are served in C (no Python frame); after a removal that
    shrinks a largest cell, the next read goes back to Python, which looks at the cells again."""
    comparison = PartitionComparison()
    if not isinstance(comparison._table, KERNEL):
        pytest.skip("the kernel is not this process's implementation")

    def calls(name: str) -> list[str]:
        return python_calls(partial(attrgetter(name), comparison))

    comparison.add_many(["a", "a", "b", "b", "b"], [1, 2, 1, 1, 2])
    for name in ("purity", "inverse_purity"):
        assert calls(name) != []  # (the maxima made)
        comparison.add("c", 3)
        assert calls(name) == []
    comparison.remove("b", 1)  # (column 1's and row b's largest cell shrinks)
    assert calls("purity") != []
    assert calls("purity") == []
    assert comparison.purity == formulas.purity(comparison.contingency_table()[2])


@pytest.mark.parametrize("implementation", implementations())
def test_the_kept_maxima_follow_dense_and_sparse_batches(implementation):
    """The maxima sums, kept from a first read, through batches the kernel writes from a dense
    count (int label arrays of a small range) and from sorted keys, added and taken back: each
    time the sums of the maxima read from the cells, on both implementations alike."""
    from contingency._table import count_cells

    table = implementation()
    rng = np.random.default_rng(30)
    table.step(0, 0, 1)
    assert [table.maxima_sum(axis) for axis in (0, 1)] == [1, 1]  # (kept from here on)
    batches = []
    for k, size in ((8, 4000), (500, 300), (8, 2000)):  # dense, sparse, dense
        rows, columns = rng.integers(0, k, size), rng.integers(0, k, size)
        batches.append(count_cells(rows, columns, where="t"))
        table.apply(batches[-1], "t")
        assert [table.maxima_sum(axis) for axis in (0, 1)] == [
            Table.maxima_sum(table, axis) for axis in (0, 1)]
    for batch in reversed(batches):
        table.apply(batch.negated(), "t")
        assert [table.maxima_sum(axis) for axis in (0, 1)] == [
            Table.maxima_sum(table, axis) for axis in (0, 1)]
    assert [table.maxima_sum(axis) for axis in (0, 1)] == [1, 1]
