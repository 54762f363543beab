"""Which implementation of the counting state this process uses: the kernel or its reference.

Four states have both: PartitionComparison's table (both implement
:class:`contingency._table.Table`; tests/test_kernel.py compares them step by
step), ThresholdContingency's score counts (the interface of
:class:`contingency._score_counts.ScoreCounts`; tests/test_kernel_scores.py),
the core of Contingency's counts, the base class of
:class:`contingency._counts.Counts` (its counts by category code, their
primitive writes and the write of one result:
:class:`contingency._counts_reference.CountsCore`; tests/test_kernel_counts.py),
with ``Contingency.add_result`` and ``GroupedContingency.add_result`` (the
kernel's in C, or the ones written in Python: :func:`compiled_add_result`,
:func:`compiled_grouped_add_result`), GroupedContingency's write of a batch's pairs into
its groups (:func:`compiled_write_group_pairs`), its new groups made in bulk (:func:`compiled_copies`),
its groups pickled as one columnar state (:func:`compiled_pack_groups`,
:func:`compiled_unpack_groups`), Contingency's micro, macro, weighted and
samples properties, its ``subset_accuracy``, ``error_rate`` and ``hamming_loss`` (read in C
by one call, or by the readers written in Python: :func:`average_reader`,
:func:`subset_reader`, :func:`pooled_reader`), its ``categories`` (the order's memo checked
in C: :func:`categories_reader`), its ``n_results`` (the count in C at scale 0:
:func:`n_results_reader`) and its
``interval`` (Wilson's interval of a micro share in C, the rest by the method written in
Python: :func:`compiled_interval`;
contingency/_kernel_intervals.pxi), PairedComparison's paired table
(the interface of :class:`contingency._paired_counts.PairedCounts`), with
``PairedComparison.add_result`` (:func:`compiled_paired_add_result`;
tests/test_kernel_paired.py), and PartitionComparison's reads (the kernel's
reach its table's C reads without a Python frame, and fall back on the reads
as written in Python: :func:`compiled_partition_reads`), and the dense count
of two int64 label arrays that :func:`contingency._table.count_cells` makes
(``label_ranges`` and ``dense_count``, or their references in
:mod:`contingency._table`), and the dictionary coding of lists, tuples and object arrays of
labels (``code_objects``, contingency/_kernel_coding.pxi, or its reference
:func:`contingency._coding.code_objects_reference`; tests/test_coding_kernel.py) and the first
row of each code, which orders new groups and categories as the rows meet them
(``first_rows``, contingency/_kernel_coding.pxi, or :func:`contingency._coding.first_rows_reference`).
The two implementations hold the same counts and running sums after every
change. One rule chooses for both:

- the kernel, ``contingency._kernel`` (contingency/_kernel.pyx, compiled by
  ``python -m pip install -e .`` or ``pip install .`` when a C compiler is
  there: hatch_build.py), the default;
- the references, :class:`contingency._table_reference.ReferenceTable`,
  :class:`contingency._score_counts.ScoreCounts` and
  :class:`contingency._counts_reference.CountsCore`, plain Python written for clarity,
  used when the kernel is not built (with one
  warning at import that says how to build it) or when the environment
  variable ``CONTINGENCY_PURE_PYTHON`` is set to anything but ``""`` or ``"0"``
  (no warning: it was asked for).

A kernel whose source (contingency/_kernel.pyx) has changed since it was
compiled is refused at import, with the command that rebuilds it: a stale
kernel would count by rules the source no longer states.
"""

from __future__ import annotations

import copyreg
import importlib
import os
import warnings
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import numpy as np

from contingency import _coding as _coding_module
from contingency import _table as _table_module
from contingency._counts_reference import CountsCore
from contingency._kernel_source import MAIN, kernel_digest
from contingency._paired_counts import PairedCounts
from contingency._score_counts import ScoreCounts
from contingency._table import Cells, Table
from contingency._table_reference import ReferenceTable

__all__ = ["IMPLEMENTATION", "PURE_PYTHON_VARIABLE", "REBUILD", "CountsCoreClass",
           "PairedCountsClass", "ScoreCountsClass", "TableClass", "average_reader",
           "categories_reader", "compiled_add_result", "compiled_copies",
           "compiled_grouped_add_result", "compiled_interval", "compiled_pack_groups",
           "compiled_paired_add_result", "compiled_partition_reads", "compiled_unpack_groups",
           "compiled_write_group_pairs", "n_results_reader", "new_table", "pooled_reader",
           "rebuild_paired_counts", "rebuild_table", "reduce_paired_counts", "reduce_table",
           "subset_reader"]

#: The environment variable that selects the pure-Python reference (cf. msgpack's
#: MSGPACK_PUREPYTHON, aiohttp's AIOHTTP_NO_EXTENSIONS).
PURE_PYTHON_VARIABLE = "CONTINGENCY_PURE_PYTHON"
#: The command that (re)builds the kernel from a source tree.
REBUILD = "python -m pip install -e ."


def _kernel_module() -> Any:
    """The compiled kernel, or None when the reference is asked for or the kernel is not built."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        kernel = importlib.import_module("contingency._kernel")
    except ImportError:
        warnings.warn("contingency: the compiled kernel (contingency._kernel) is not built, so "
                      "every accumulator counts with its pure-Python reference: the same numbers, "
                      "several times slower. To build it, install a C compiler and reinstall "
                      f"(from a source tree: {REBUILD}); to choose the reference and silence this "
                      f"warning, set {PURE_PYTHON_VARIABLE}=1.", RuntimeWarning, stacklevel=2)
        return None
    folder = Path(__file__).parent
    digest = kernel_digest(folder)
    if digest is not None and digest != kernel.SOURCE_HASH:
        source = folder / MAIN
        raise ImportError(f"contingency: {source} has changed since the compiled kernel "
                          f"{Path(str(kernel.__file__)).name} was built from it: rebuild it with "
                          f"`{REBUILD}` (or set {PURE_PYTHON_VARIABLE}=1 to use the pure-Python "
                          "reference)")
    return kernel


_kernel_found = _kernel_module()
TableClass: type[Table]
#: The class of ThresholdContingency's score counts: the kernel's, or the reference ScoreCounts
#: (the kernel's has the same interface, not the same base: the differential tests check it).
ScoreCountsClass: type[ScoreCounts]
#: The base class of Contingency's Counts: the kernel's core, or the reference CountsCore (the
#: same counts by code, primitive writes and count_pair; the differential tests check they keep
#: the same state).
CountsCoreClass: type[CountsCore]
#: The class of a PairedComparison's paired table: the kernel's KernelPairedCounts, or the
#: reference PairedCounts (the same interface, not the same base: the differential tests check it).
PairedCountsClass: type[PairedCounts]
if _kernel_found is None:
    TableClass = ReferenceTable
    ScoreCountsClass = ScoreCounts
    CountsCoreClass = CountsCore
    PairedCountsClass = PairedCounts
    #: "kernel" or "reference": the implementation every new table of this process uses.
    IMPLEMENTATION = "reference"
else:
    class KernelTable(_kernel_found.KernelTable, Table):  # type: ignore[misc,name-defined]
        """The kernel's table with the reads :class:`~contingency._table.Table` writes once."""

        __slots__ = ()

    TableClass = KernelTable
    # count_cells' dense count of int64 label arrays, in C (the references' results: tested)
    _table_module.use_dense_steps(_kernel_found.label_ranges, _kernel_found.dense_count)
    # the dictionary coding of lists, tuples and object arrays, in one C pass (tested likewise)
    _coding_module.use_compiled_coding(_kernel_found.code_objects,
                                       _kernel_found.first_rows)
    ScoreCountsClass = _kernel_found.KernelScoreCounts
    CountsCoreClass = _kernel_found.KernelCountsCore
    PairedCountsClass = _kernel_found.KernelPairedCounts
    IMPLEMENTATION = "kernel"


def compiled_add_result(reference: Callable[..., None], single: set[type],
                        join_pair: Callable[..., None], take_sets: Callable[..., bool]
                        ) -> Callable[..., None]:
    """Contingency's ``add_result``: the kernel's (the same steps in C, given the parts of
    :mod:`contingency._feeding` it calls), presented as ``reference`` (its name, signature and
    docstring); or ``reference`` itself, the method as written in Python, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_add_result(single, join_pair, take_sets)
    return _presented_as(compiled, reference)


def compiled_paired_add_result(reference: Callable[..., None], single: set[type]
                               ) -> Callable[..., None]:
    """PairedComparison's ``add_result``: the kernel's (its steps in C, serving the single-label
    types ``single``), presented as ``reference`` (its name, signature and docstring); or
    ``reference`` itself, the method as written in Python, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_paired_add_result(single)
    return _presented_as(compiled, reference)


def _presented_as(compiled: Any, reference: Callable[..., Any]) -> Callable[..., Any]:
    """``compiled`` under ``reference``'s name, signature and docstring."""
    for name in ("__doc__", "__module__", "__qualname__", "__annotations__"):
        setattr(compiled, name, getattr(reference, name))
    return compiled  # type: ignore[no-any-return]


def average_reader(name: str, average: str,
                   reference: Callable[[Any], float]) -> Callable[[Any], float]:
    """The reader of Contingency's property ``{average}_{name}``: the kernel's, one call into C
    for the micro, macro, weighted and samples reads it serves (it calls ``reference`` for the
    cases it does not: counts finer than a result; for samples, a result that is not
    single-label), or ``reference`` itself, the reader written in Python."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.average_reader(name, average, reference)
    return reference if compiled is None else compiled


def pooled_reader(name: str, reference: Callable[[Any], float]) -> Callable[[Any], float]:
    """The reader of Contingency's ``hamming_loss`` (``name`` "error"): the kernel's, one call
    into C while no ``set_entries`` offset is set (it calls ``reference`` otherwise), or
    ``reference`` itself, the reader written in Python."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.pooled_reader(name, reference)
    return reference if compiled is None else compiled


def subset_reader(name: str, reference: Callable[[Any], float]) -> Callable[[Any], float]:
    """The reader of Contingency's ``subset_accuracy`` (``name`` "accuracy") or ``error_rate``
    ("error"): the kernel's, one call into C while every result is single-label (it calls
    ``reference`` otherwise), or ``reference`` itself, the reader written in Python."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.subset_reader(name, reference)
    return reference if compiled is None else compiled


def categories_reader(reference: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The reader of Contingency's ``categories``: the kernel's, its memo checked in one call
    into C (it calls ``reference`` to make the order and the memo again, and on counts held
    finer than a result), or ``reference`` itself, the reader written in Python."""
    if _kernel_found is None:
        return reference
    return _kernel_found.categories_reader(reference)  # type: ignore[no-any-return]


def n_results_reader(reference: Callable[[Any], int | float]) -> Callable[[Any], int | float]:
    """The reader of Contingency's ``n_results``: the kernel's, one call into C while every count
    is a whole number of results (it calls ``reference`` on counts held finer than a result), or
    ``reference`` itself, the reader written in Python."""
    if _kernel_found is None:
        return reference
    return _kernel_found.n_results_reader(reference)  # type: ignore[no-any-return]


def compiled_interval(reference: Callable[..., Any]) -> Callable[..., Any]:
    """Contingency's ``interval``: the kernel's (Wilson's interval of a micro share read in one
    call into C, every other read and every refusal by ``reference``), presented as
    ``reference`` (its name, signature and docstring); or ``reference`` itself, the method as
    written in Python, on the reference."""
    if _kernel_found is None:
        return reference
    from contingency import _registry
    from contingency.formulas import intervals

    compiled: Any = _kernel_found.compiled_interval(
        reference, intervals.Interval, intervals.LEVELS_SEEN, _registry.interval_names,
        intervals.MAX_DRAWS)
    _registry.on_change(_kernel_found.interval_scores_changed)
    return _presented_as(compiled, reference)


def compiled_grouped_add_result(reference: Callable[..., None], single: set[type],
                                grouped: type, contingency: type) -> Callable[..., None]:
    """GroupedContingency's ``add_result``: the kernel's (the same steps in C, given the class
    ``grouped`` and ``contingency``, whose slots it reads), presented as ``reference`` (its name,
    signature and docstring); or ``reference`` itself, the method as written, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_grouped_add_result(single, grouped, contingency)
    return _presented_as(compiled, reference)


def compiled_write_group_pairs(reference: Callable[..., None],
                               write_group: Callable[..., None]) -> Callable[..., None]:
    """GroupedContingency's write of a batch's pairs into every group: the kernel's (a C loop
    over the groups, calling ``reference`` for a batch and ``write_group`` for a group it does
    not write in C), presented as ``reference``; or ``reference`` itself, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_write_group_pairs(reference, write_group)
    return _presented_as(compiled, reference)


def compiled_copies(reference: Callable[[Any, int], list[Any]], contingency: type,
                    counts: type) -> Callable[[Any, int], list[Any]]:
    """``count`` copies of a Contingency at once (GroupedContingency's new groups): the kernel's
    (one ``copy()``, cloned in C; given :class:`~contingency.Contingency` and
    :class:`~contingency._counts.Counts`, whose slots it reads), presented as ``reference``; or
    ``reference`` itself, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_copies(reference, contingency, counts)
    return _presented_as(compiled, reference)


def compiled_pack_groups(reference: Callable[[Any, Any], dict[str, Any]],
                         finish: Callable[..., dict[str, Any]], contingency: type,
                         counts: type) -> Callable[[Any, Any], dict[str, Any]]:
    """GroupedContingency's groups as one columnar state (its pickle): the kernel's (the cores'
    counts read in one C loop, the columns then finished by ``finish``, as the reference
    finishes them; given :class:`~contingency.Contingency` and
    :class:`~contingency._counts.Counts`, whose slots it reads), presented as ``reference``; or
    ``reference`` itself, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_pack_groups(reference, finish, contingency, counts)
    return _presented_as(compiled, reference)


def compiled_unpack_groups(reference: Callable[[Any, Any], list[Any]],
                           checked: Callable[[Any], Any], contingency: type,
                           counts: type) -> Callable[[Any, Any], list[Any]]:
    """The groups of :func:`compiled_pack_groups`'s columns: the kernel's (the columns checked by
    ``checked``, then the groups made in bulk in C, each core's counts laid in at once),
    presented as ``reference``; or ``reference`` itself, on the reference."""
    if _kernel_found is None:
        return reference
    compiled: Any = _kernel_found.compiled_unpack_groups(reference, checked, contingency, counts)
    return _presented_as(compiled, reference)


def compiled_partition_reads(cls: type) -> None:
    """Give PartitionComparison (``cls``) the kernel's compiled reads, each presented as the
    read it replaces (its name, signature and docstring), which stays its reference: the
    compiled read calls it wherever C does not settle the value. Nothing changes on the
    reference, where the reads as written in Python are the only ones."""
    if _kernel_found is None:
        return
    written: dict[str, Any] = {}
    for name, attribute in vars(cls).items():
        written[name] = attribute.fget if isinstance(attribute, property) else attribute
    compiled: dict[str, Any] = _kernel_found.compiled_partition_reads(
        {name: written[name] for name in _PARTITION_READS}, cls)
    for name, read in compiled.items():
        _presented_as(read, written[name])
        attribute = vars(cls)[name]
        setattr(cls, name, property(read, doc=attribute.__doc__)
                if isinstance(attribute, property) else read)


#: The reads of PartitionComparison the kernel computes (KernelTable._score).
_PARTITION_READS = ("adjusted_rand_index", "accuracy", "precision", "recall", "f1", "jaccard",
                    "fowlkes_mallows", "homogeneity", "completeness",
                    "normalized_mutual_information", "v_measure", "mutual_information",
                    "ari_significance", "purity", "inverse_purity")


def new_table() -> Table:
    """An empty table of this process's implementation."""
    return TableClass()


def rebuild_table(row_labels: list[Hashable], column_labels: list[Hashable],
                  cells: list[tuple[Hashable, Hashable, int]], fine: bool) -> Table:
    """A table holding these cells (:meth:`~contingency._table.Table.pickled`), labels in their
    order, whichever implementation pickled it."""
    row_code = {label: code for code, label in enumerate(row_labels)}
    column_code = {label: code for code, label in enumerate(column_labels)}
    table = new_table()
    table.apply(Cells(row_labels, column_labels,
                      np.array([row_code[row] for row, _, _ in cells], dtype=np.int64),
                      np.array([column_code[column] for _, column, _ in cells], dtype=np.int64),
                      np.array([count for _, _, count in cells], dtype=np.int64)), "unpickle")
    if fine:
        table.keep_fine_sums()
    return table


def reduce_table(table: Table) -> tuple[Any, ...]:
    """A table pickles as its cells, and unpickles as whichever implementation the loading
    process uses (registered below for each implementation with copyreg, which copy and pickle
    consult; a class made elsewhere registers it the same way)."""
    return rebuild_table, (*table.pickled(), table.fine_sums() is not None)


copyreg.pickle(TableClass, reduce_table)
if TableClass is not ReferenceTable:  # the differential tests pickle both
    copyreg.pickle(ReferenceTable, reduce_table)


def rebuild_paired_counts(cells: list[int],
                          rows: list[tuple[Hashable, int, int, int]]) -> PairedCounts:
    """A paired table of this process's implementation holding these counts
    (:func:`reduce_paired_counts`), whichever implementation pickled it."""
    table = PairedCountsClass()
    columns: tuple[dict[Hashable, int], ...] = ({}, {}, {})
    for label, *counts in rows:
        for column, count in zip(columns, counts):
            if count:
                column[label] = count
    table.apply((cells, *columns))  # type: ignore[arg-type]
    return table


def reduce_paired_counts(table: PairedCounts) -> tuple[Any, ...]:
    """A paired table pickles as its counts (the cells, then a row per category some model is
    wrong about) and unpickles as the loading process's implementation: the reference's
    registered below with copyreg, the kernel's ``__reduce__`` calls it."""
    only_a, only_b, both_wrong = table.only_a, table.only_b, table.both_wrong
    rows = [(label, only_a.get(label, 0), only_b.get(label, 0), both_wrong.get(label, 0))
            for label in table.labels()]
    return rebuild_paired_counts, (list(table.cells), rows)


copyreg.pickle(PairedCounts, reduce_paired_counts)  # (the kernel's class: its __reduce__)
