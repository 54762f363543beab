"""Contingency's counts and their one write routine, checks included.

:class:`Counts` holds every count of a :class:`contingency.Contingency`, in one
representation, and :meth:`Counts.apply` is the one routine that changes
them: a result (weight +1), a removal (the same changes with a negative
weight), a batch (aggregated changes), a merge (the other's counts),
``set_entries`` (the micro offset). Every change is checked completely
before the first write, so a refused change changes nothing. Counts made
whole rather than changed (unpickled, or read from a ``from_dict`` document,
which :mod:`contingency._contingency_state` checks whole first: :func:`restored`)
are held by the core's restore path, ``core_restore``.

The counts, all exact integers in units of ``2**-scale`` (``scale`` is 0
until a fractional weight arrives):

- per category, by the category's code, read by category in table order
  (declared categories first, then as first seen) through read-only
  mappings ``a``, ``b``, ``c``: cells ``a`` (assigned and correct), ``b``
  (assigned, not correct) and ``c`` (correct, not assigned). Cell
  ``d = n - a - b - c`` is derived, which is also what makes a category that
  joins an open set late count as "neither assigned nor correct" for every
  earlier result. A category that was not declared and whose cells all
  return to zero is forgotten;
- ``n``, the number of results, and ``shapes``, the histogram of result
  shapes ``(both, assigned, correct)``: every per-result score (samples
  averages, subset accuracy) in time independent of the number of results;
- ``ids`` and ``names``, the categories' numbering: each category has a code
  (``ids[label]``, ``names[code]``), given when it joins and kept while it
  stays (a forgotten category leaves a hole, and the codes are made dense
  again once holes are half of them);
- ``pairs``, the single-label results (one category assigned, one correct)
  by pair, keyed ``code(correct) << 32 | code(assigned)``, no zero entries:
  the confusion matrix, as a coded sparse table (the kernel's hash table,
  or the reference's :class:`contingency._table.PairTable`: sorted int64
  keys and exact counts, merged in bulk). They are also in the cells and the shapes
  (``HIT`` and ``MISS``), whose counts tell in O(1) whether every result is
  single-label, so no read but the confusion matrix's own needs them;
- ``micro``, the micro table ``(a, b, c, d)``: the per-category cells summed,
  plus ``offset``, what ``set_entries`` set on top of them (also kept);
- running sums over categories (:mod:`contingency._category_sums`), each
  made by the first read that needs it and brought up to date for the
  categories that changed since (``stale``); macro F1's interval also keeps
  its coupling term, which hears of every change of ``pairs`` as well. The
  plain macro means of precision, recall and F1 are the core's
  (``macro_mean``): the reference keeps them so, the kernel in C, where its
  writes keep them up to date themselves (no pending set).

Where they are stored is the core's business (:mod:`contingency._backend`
chooses the compiled kernel's or the pure-Python reference's,
:mod:`contingency._counts_reference`): :meth:`Counts.apply` checks a change
and writes it through the core's primitive writes (``join``, ``add_cells``,
``add_shapes``, ``add_micro``, ``forget``, ``rescale_counts``).

Every write applies its change at once: there is no buffer between a result
and the counts, so a read reads them as they are.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from contingency._category_sums import (
    KINDS,
    CategorySums,
    CategoryTotals,
    F1Coupling,
    MarginSums,
    VarianceSums,
    kind_sums,
    kinds_of,
)
from contingency._changes import (
    HIT,
    MISS,
    Cells,
    Pairs,
    Shape,
)
from contingency._table import PAIR_LOW, PAIR_SHIFT, CodedPairs, PairTable
from contingency.formulas._numeric import MAX_COUNT, check_room

if TYPE_CHECKING:  # (the checker reads the reference: the kernel's core has its interface)
    from contingency._counts_reference import CountsCore as _Core
else:
    from contingency._backend import CountsCoreClass as _Core

__all__ = ["Counts", "micro_after", "restored", "whole"]

_SHIFT = PAIR_SHIFT
#: What counts start with, shared by every Counts until it needs its own (a group of a
#: GroupedContingency is a Counts: at 10^5 groups, each container of its own is one more object
#: a full garbage collection visits): no set_entries offset, no running sums yet.
_NO_OFFSET = (0, 0, 0, 0)
_NONE_YET: Mapping[str, Any] = MappingProxyType({})


class Counts(_Core):
    """Every count of a Contingency, and :meth:`apply`, the one routine that changes them.

    The counts (cells by code, ``n``, ``scale``, ``shapes``, ``micro``, ``ids``, ``names``,
    ``pairs``) and the running sums' hooks (``coupling``, ``stale``) live in the base class
    :mod:`contingency._backend` chooses: the compiled kernel's core or its pure-Python
    reference (:class:`contingency._counts_reference.CountsCore`), with the primitive writes
    :meth:`apply` is made of and ``count_pair``/``count_sets``, its rule for one result.
    """

    __slots__ = ("declared", "margins", "offset", "sums", "totals", "variances")

    declared: frozenset[Hashable]  # declared categories: first in the table, never forgotten
    n: int  # results
    scale: int  # every count is in units of 2**-scale
    shapes: dict[Shape, int]  # results by shape (both, assigned, correct); no zero entries
    micro: list[int]  # the micro table a, b, c, d: pooled cells plus the offset
    offset: tuple[int, ...]  # what set_entries put on top of the pooled cells
    ids: dict[Hashable, int]  # the code of each category
    holes: int  # codes of forgotten categories
    pairs: PairTable  # single-label results by code(correct) << 32 | code(assigned)
    # Running sums over categories, each made by the first read that needs it: per score
    # and mode ("f1 perl", "weighted f1 perl", ...), the categories by total a + b + c
    # (removals check them), and the confusion matrix's margins. (sums and variances: an empty
    # shared mapping until the first is made, then a dict of this Counts' own.)
    sums: Mapping[str, CategorySums]
    totals: CategoryTotals | None
    margins: MarginSums | None
    # The delta-method intervals' sums, each made by the first interval read that needs it: per
    # score, the sum of its variance terms; macro F1's coupling (which also hears of pairs).
    variances: Mapping[str, VarianceSums]
    coupling: F1Coupling | None
    stale: tuple[set[Hashable], ...]  # their sets of categories changed since each was read
    hold: bool  # the owner prints each result (verbose): add_result's fast path steps aside

    def __init__(self, declared: Iterable[Hashable] = (), *, hold: bool = False) -> None:
        order = list(declared)
        self.declared = frozenset(order)
        self.hold = hold
        self.reset(order)
        self._start()

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any], dict[str, Any]]]:
        # The counts as plain data (the kernel's core keeps them in C) and the settings; the
        # running sums are made again by the first read that needs them.
        return _unpickle, (self.core_state(), {"declared": self.declared, "hold": self.hold,
                                               "offset": tuple(self.offset)})

    def _start(self) -> None:
        """No set_entries offset, no running sums (the shared empty ones)."""
        self.offset = _NO_OFFSET
        self.sums, self.totals, self.margins, self.stale = _NONE_YET, None, None, ()
        self.variances, self.coupling = _NONE_YET, None

    def clear(self) -> None:
        """Keep the declared categories, with zero counts; forget everything else."""
        self.reset([label for label in self.ids if label in self.declared])
        self._start()

    def copy(self) -> Counts:
        """Independent counts equal to these (running sums not copied)."""
        other = type(self).__new__(type(self))
        other.declared, other.hold = self.declared, self.hold
        other.core_copy_from(self)
        other._start()
        other.offset = self.offset  # (a tuple: shared)
        return other

    # The one write routine -----------------------------------------------------------------

    def apply(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int],
              pairs: Pairs | dict[int, int] | CodedPairs, *, new: Iterable[Hashable] = (),
              offset: Sequence[int] | None = None, removing: bool = False, where: str = "",
              scale: int = 0, coded: bool = False) -> None:
        """Add these changes to the counts: the one routine where counts change.

        ``a``, ``b`` and ``c`` change per-category cells (keyed by category;
        a category in ``new`` is appended to the table first, with zero
        cells), ``shapes`` the result shapes (their sum is the change in the
        number of results), ``pairs`` the single-label results by
        ``(correct, assigned)``, or by pair code with ``coded=True`` (a dict,
        or :class:`contingency._table.CodedPairs`; they are also in the cells
        and shapes),
        ``offset`` the part of the micro table that ``set_entries`` set. A
        caller whose changes may be negative says ``removing=True`` (``where``
        names it in the errors): every count is then checked, and the
        categories that were not declared and whose cells all return to zero
        are forgotten. Everything is checked before the first write, so a
        refused change changes nothing. Costs O(categories changed).

        Every count is in units of ``2**-scale``; a ``scale`` finer than the
        counts' first makes every count finer (:meth:`rescale`, O(K) once),
        and back if the change is refused. A category in ``new`` that the
        change leaves without a count (a result of weight 0) is not added.
        """
        if coded and removing:  # a removal's pairs are checked by label
            pairs = self.label_pairs(pairs)  # type: ignore[arg-type]
            coded = False
        if scale > self.scale:
            coarse = self.scale
            self.rescale(scale)
            try:
                self.apply(a, b, c, shapes, pairs, new=new, offset=offset, removing=removing,
                           where=where, coded=coded)
            except BaseException:
                self.rescale(coarse)
                raise
            return
        n_before = self.n
        n = n_before
        for count in shapes.values():
            n += count
        if n > MAX_COUNT:
            check_room(0, whole(n, self.scale), "results")
        fresh: Sequence[Hashable] = ()
        gone: Sequence[Hashable] = ()
        if offset is not None or removing:
            fresh, gone = self._admit(a, b, c, shapes, pairs, n, new, offset, removing, where)
        elif new:  # categories joining, nothing else to check (a new category in an open set)
            fresh = self._joining(a, b, c, new)
        # Every check passed: the writes. (Written out, not in helpers: this runs for every
        # result read alone, as in a learning curve, where each call and line costs.)
        k_before = len(self.ids)
        if fresh:
            self.join(fresh)
        added_a, added_b, added_c = self.add_cells(a, b, c)
        self.add_shapes(shapes)
        if pairs:
            if self.coupling is not None:  # (before the pair table keeps the pairs, or _forget)
                self.coupling.note(self.label_pairs(pairs)  # type: ignore[arg-type]
                                   if coded else pairs)
            if type(pairs) is dict and len(pairs) == 1:  # one result: a learning curve's step
                (pair, count), = pairs.items()  # (correct, assigned), or its code if coded
                if not coded:
                    ids = self.ids
                    pair = ids[pair[0]] << _SHIFT | ids[pair[1]]  # type: ignore[index]
                self.pairs.add(pair, count)  # type: ignore[arg-type]
            else:
                self._add_pairs(pairs, coded)
        if gone:
            self.forget(gone)
        self.n = n
        # d changes by the change of K n less a, b and c (micro_after)
        tables = len(self.ids) * n - k_before * n_before
        if offset is None:
            self.add_micro(added_a, added_b, added_c, tables - added_a - added_b - added_c)
        else:
            self.micro = micro_after(list(self.micro), added_a, added_b, added_c, tables, offset)
            self.offset = tuple(mine + theirs for mine, theirs in zip(self.offset, offset))
        for pending in self.stale:
            pending.update(a, b, c, fresh)

    def check(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int],
              pairs: Pairs | dict[int, int] | CodedPairs, *, new: Iterable[Hashable] = (),
              removing: bool = False, where: str = "", coded: bool = False) -> None:
        """:meth:`apply`'s checks of a change alone: raises as :meth:`apply` would, writes nothing.

        For a caller that changes several counts as one (a
        :class:`~contingency.PairedComparison` changes two models' counts and its
        paired table): each is checked before any is written. The change must
        be in the counts' own unit (no rescale).
        """
        if coded and removing:  # a removal's pairs are checked by label
            pairs = self.label_pairs(pairs)  # type: ignore[arg-type]
        n = self.n + sum(shapes.values())
        if n > MAX_COUNT:
            check_room(0, whole(n, self.scale), "results")
        if new or removing:
            self._admit(a, b, c, shapes, pairs, n, new, None, removing, where)

    def _admit(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int], pairs: Any,
               n: int, new: Iterable[Hashable], offset: Sequence[int] | None,
               removing: bool, where: str) -> tuple[list[Hashable], list[Hashable]]:
        """:meth:`apply`'s checks of a change that adds categories, sets entries or removes.

        Returns the categories of ``new`` the change gives a count (appended to
        the table) and those it forgets; raises before anything is written.
        """
        if offset is not None:  # what set_entries put on the micro table: merges add it up
            for name, mine, theirs in zip("abcd", self.offset, offset):
                if mine + theirs > MAX_COUNT:
                    check_room(0, whole(mine + theirs, self.scale),
                               f"set by set_entries in micro-table cell {name}")
        fresh = self._joining(a, b, c, new)
        gone: list[Hashable] = []
        if removing:
            gone = self._check_removal(a, b, c, shapes, pairs, n, len(fresh), offset, where)
        return fresh, gone

    def _joining(self, a: Cells, b: Cells, c: Cells, new: Iterable[Hashable]) -> list[Hashable]:
        """The categories of ``new`` that the change gives a count and the table lacks, in order."""
        ids = self.ids
        return [label for label in dict.fromkeys(new)  # (a label may come twice)
                if label not in ids and (label in a or label in b or label in c)]

    def _check_removal(self, a: Cells, b: Cells, c: Cells, shapes: dict[Shape, int],
                       pairs: Pairs, n: int, new: int, offset: Sequence[int] | None,
                       where: str) -> list[Hashable]:
        """Refuse a change that would leave any count negative (``where`` names the caller).

        ``n`` is the number of results after the change, ``new`` the number of
        categories it appends. Returns the categories the change forgets: not
        declared, and with every cell back to zero.
        """
        prefix = f"{where}: " if where else ""
        cells = (self.a, self.b, self.c)
        for name, column, changes in zip("abc", cells, (a, b, c)):
            for label, count in changes.items():
                if column.get(label, 0) + count < 0:
                    raise ValueError(f"{prefix}category {label!r} has no {_CELL_WORDS[name]} "
                                     "left to remove; that result was not added")
        for shape, count in shapes.items():
            if self.shapes.get(shape, 0) + count < 0:
                raise ValueError(f"{prefix}no result of that shape (|assigned ∩ correct|, "
                                 f"|assigned|, |correct|) = {shape} was added")
        # No category may hold more cells of some kinds than the results that remain can
        # give it (one cell each at most, of a kind their shape has): the categories named
        # by the change are checked one by one, the others through the histograms of sums.
        touched = a.keys() | b.keys() | c.keys()
        totals = self.totals
        if totals is None:
            totals = self.totals = CategoryTotals(cells)
            self.track(totals)
        # A removal only lowers counts: only the kinds whose room drops need a look.
        before, drops = _rooms(self.shapes), _rooms(shapes)
        checked = [(kinds, before[kinds - 1] + drops[kinds - 1], before[kinds - 1])
                   for kinds in KINDS if drops[kinds - 1]]
        over = [0] * 8
        if checked:
            totals.refresh()
        for kinds, room, largest in checked:
            over[kinds] = totals.above(room, largest, kinds)
        gone = []
        cells_a, cells_b, cells_c = cells
        for label in touched:
            x, y, z = cells_a.get(label, 0), cells_b.get(label, 0), cells_c.get(label, 0)
            after = (x + a.get(label, 0), y + b.get(label, 0), z + c.get(label, 0))
            if checked:
                had, held = kind_sums(x, y, z), kind_sums(*after)
                for kinds, room, _ in checked:
                    over[kinds] += (held[kinds - 1] > room) - (had[kinds - 1] > room)
            if not any(after) and label in self.ids and label not in self.declared:
                gone.append(label)
        rooms = {kinds: room for kinds, room, _ in checked}
        if over[7] > 0:
            raise ValueError(f"{prefix}a category would be named by more results than the "
                             f"{self.reported(rooms[7])} that would remain; that result was "
                             "not added")
        for kinds in KINDS:
            if over[kinds] > 0:
                names = " or ".join(name for bit, name in enumerate("abc") if kinds >> bit & 1)
                raise ValueError(f"{prefix}a category would hold more {names} cells than the "
                                 f"{self.reported(rooms[kinds])} results that would remain "
                                 "can give it (a result gives a category one cell at most); "
                                 "that result was not added")
        ids = self.ids
        if pairs:  # (a removal's pairs are by label)
            codes = [ids[truth] << _SHIFT | ids[chosen] if truth in ids and chosen in ids else -1
                     for truth, chosen in pairs]
            for (truth, chosen), count, existing in zip(pairs, pairs.values(),
                                                        self.pairs.counts_of(codes)):
                if existing + count < 0:
                    raise ValueError(f"{prefix}no single-label result with {chosen!r} assigned "
                                     f"and {truth!r} correct was added")
        if any(self.hits_and_misses()) and any(
                count < 0 for shape, count in shapes.items() if shape not in (HIT, MISS)):
            self._check_single_label_cells(a, b, c, pairs, touched, prefix)
        k = len(self.ids) + new - len(gone)
        micro = micro_after(list(self.micro), sum(a.values()), sum(b.values()), sum(c.values()),
                            k * n - len(self.ids) * self.n, offset)
        if min(micro) < 0:
            raise ValueError(f"{prefix}the micro table set by set_entries has too few entries "
                             "left to remove that result")
        return gone

    def _check_single_label_cells(self, a: Cells, b: Cells, c: Cells, pairs: Pairs,
                                  touched: Iterable[Hashable], prefix: str) -> None:
        """Refuse a removal of results that are not single-label which would leave a category
        fewer cells than its single-label results alone give it (a state no results make).

        Costs O(single-label pairs): it runs only for removals of results that are
        not single-label while single-label results are counted.
        """
        labels = set(touched)
        given = {label: [0, 0, 0] for label in labels}
        for (truth, chosen), count in self.label_pairs().items():
            count += pairs.get((truth, chosen), 0)
            if truth == chosen:
                if truth in labels:
                    given[truth][0] += count
                continue
            if chosen in labels:
                given[chosen][1] += count
            if truth in labels:
                given[truth][2] += count
        for label in labels:
            for name, column, change, single in zip("abc", (self.a, self.b, self.c),
                                                    (a, b, c), given[label]):
                if column.get(label, 0) + change.get(label, 0) < single:
                    raise ValueError(f"{prefix}category {label!r} would hold fewer {name} cells "
                                     "than its single-label results give it; that result was "
                                     "not added")

    def _add_pairs(self, pairs: Mapping[Any, int] | CodedPairs, coded: bool) -> None:
        """Add checked pair changes (by pair code if ``coded``, else by the pair of categories,
        every one in the table) to the pair table."""
        if type(pairs) is not dict:
            self.pairs.add_pairs(pairs)  # type: ignore[arg-type]  # CodedPairs
        elif coded:
            self.pairs.add_items(pairs.items())
        else:
            ids = self.ids
            self.pairs.add_items([(ids[truth] << _SHIFT | ids[chosen], count)
                                  for (truth, chosen), count in pairs.items()])

    def label_pairs(self, coded: dict[int, int] | CodedPairs | None = None) -> Pairs:
        """The single-label results (or the ``coded`` pairs given) by pair of categories
        ``(correct, assigned)``."""
        names = self.names
        if coded is None or isinstance(coded, CodedPairs):
            coded = (self.pairs if coded is None else coded).to_dict()
        return {(names[code >> _SHIFT], names[code & PAIR_LOW]): count
                for code, count in coded.items()}

    def rescale(self, scale: int) -> None:
        """Express every count in units of ``2**-scale`` (exactly: finer, or coarser when divisible).

        The one routine that knows every count. The running sums are dropped
        (the next read that needs one makes it again).
        """
        shift = scale - self.scale
        offset = tuple(count << shift if shift >= 0 else count >> -shift for count in self.offset)
        self.rescale_counts(shift)
        self._start()
        self.offset = offset

    # Running sums ----------------------------------------------------------------------------

    def track(self, running: CategorySums | CategoryTotals | MarginSums | VarianceSums
              | F1Coupling) -> None:
        """Keep ``running`` up to date from now on: every category is pending once (O(K))."""
        running.stale(self.a)
        self.stale = (*self.stale, running.pending)

    def running(self, key: str, name: str, mode: Any, weighted: bool = False) -> CategorySums:
        """The running sums of score ``name`` kept under ``key``, made by the first read that needs them."""
        running = self.sums.get(key)
        if running is None:
            running = CategorySums((self.a, self.b, self.c), name, mode, weighted=weighted,
                                   scale=self.scale)
            self.sums = {**self.sums, key: running}  # (its own dict from the first)
            self.track(running)
        return running

    def variance_sums(self, score: str) -> VarianceSums:
        """The sum over categories of ``score``'s variance terms, up to date (made by the first read)."""
        running = self.variances.get(score)
        if running is None:
            running = VarianceSums((self.a, self.b, self.c), score, scale=self.scale)
            self.variances = {**self.variances, score: running}  # (its own dict from the first)
            self.track(running)
        running.refresh()
        return running

    def f1_coupling(self) -> F1Coupling:
        """Macro F1's coupling term, up to date (made by the first read that needs it: O(K + pairs))."""
        coupling = self.coupling
        if coupling is None:
            coupling = self.coupling = F1Coupling((self.a, self.b, self.c), self.label_pairs(),
                                                  scale=self.scale)
            self.track(coupling)
        coupling.refresh()
        return coupling

    def margin_sums(self) -> MarginSums:
        """The confusion matrix's margin sums, up to date."""
        margins = self.margins
        if margins is None:
            margins = self.margins = MarginSums((self.a, self.b, self.c))
            self.track(margins)
        margins.refresh()
        return margins

    # Reading ---------------------------------------------------------------------------------

    def reported(self, count: int) -> int | float:
        """A count as the reads report it: ``int`` at scale 0, else the exact count rounded once."""
        return count / (1 << self.scale) if self.scale else count

    def pooled(self) -> tuple[int, int, int, int]:
        """The per-category cells summed: the micro table without ``set_entries``' part."""
        a, b, c, d = (cell - offset for cell, offset in zip(self.micro, self.offset))
        return a, b, c, d

    def single_label(self) -> bool:
        """Whether every result counted names one category on each side (O(1))."""
        hit, miss = self.hits_and_misses()
        return self.n == hit + miss

    def cell_columns(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Per category, in table order: cells ``a``, ``b``, ``c`` and ``d``."""
        a, b, c = self.columns()
        n = self.n
        return a, b, c, [n - x - y - z for x, y, z in zip(a, b, c)]

    def shape_columns(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """The result shapes as columns ``both``, ``assigned``, ``correct``, ``count``."""
        shapes = sorted(self.shapes.items())
        return ([s[0] for s, _ in shapes], [s[1] for s, _ in shapes],
                [s[2] for s, _ in shapes], [count for _, count in shapes])

    def exponent(self) -> int:
        """The least scale that holds every count exactly (the state's canonical unit)."""
        if not self.scale:
            return 0
        bits = self.n | functools.reduce(operator.or_, self.offset, 0) | self.pairs.bits()
        for column in (*self.columns(), self.shapes.values()):
            bits |= functools.reduce(operator.or_, column, 0)
        if not bits:
            return 0
        return max(0, self.scale - ((bits & -bits).bit_length() - 1))

    def canonical(self) -> tuple[int, list[int], list[int], list[int], dict[Shape, int],
                                 Pairs, list[int]]:
        """The scale exponent and the counts in the least unit that holds them all.

        The same results give the same canonical counts whatever the history
        of the scale (a fractional weight added and taken back again, say):
        ``(scale, a, b, c, shapes, pairs, micro offset)``, the cells in table order.
        """
        exponent = self.exponent()
        shift = self.scale - exponent
        a, b, c = ([count >> shift for count in column] for column in self.columns())
        return (exponent, a, b, c, {shape: count >> shift for shape, count in self.shapes.items()},
                {pair: count >> shift for pair, count in self.label_pairs().items()},
                [count >> shift for count in self.offset])


def restored(core: dict[str, Any], declared: frozenset[Hashable], offset: Sequence[int]) -> Counts:
    """Counts holding ``core`` (:meth:`Counts.core_state`'s form) with these settings.

    The restore path pickling takes: for counts checked whole before they
    are held (``from_dict``'s documents, :mod:`contingency._contingency_state`).
    """
    counts = Counts.__new__(Counts)
    counts.core_restore(core)
    counts._start()
    counts.declared, counts.hold = declared, False
    counts.offset = tuple(offset) if any(offset) else _NO_OFFSET  # (no offset: the shared one)
    return counts


def _unpickle(core: dict[str, Any], own: dict[str, Any]) -> Counts:
    """Counts holding the counts ``core`` and the settings ``own`` (:meth:`Counts.__reduce__`)."""
    counts = Counts.__new__(Counts)
    counts.core_restore(core)
    counts._start()
    for name, value in own.items():
        setattr(counts, name, value)
    return counts


#: The cells in the user's words, for the errors of a removal.
_CELL_WORDS = {"a": "true positive (a result assigning it, correctly)",
               "b": "false positive (a result assigning it, wrongly)",
               "c": "false negative (a result that should have assigned it)"}


def whole(count: int, scale: int) -> int:
    """A count in units of ``2**-scale`` as whole units, rounded up.

    The count limit applies to the weight: ``count`` is above ``MAX_COUNT << scale``
    exactly when this is above :data:`~contingency.formulas._numeric.MAX_COUNT`.
    """
    return -(-count >> scale)


def _rooms(shapes: Mapping[Shape, int]) -> list[int]:
    """For each set of cell kinds (:data:`contingency._category_sums.KINDS`, in that order), the
    results whose shape gives a category a cell of one of those kinds: what a category can hold."""
    rooms = [0] * 7
    for shape, count in shapes.items():
        for index in _ROOMS_OF[kinds_of(shape)]:
            rooms[index] += count
    return rooms


#: For each set of kinds a result's shape gives (a mask), the rooms it counts in (indices).
_ROOMS_OF = [tuple(kinds - 1 for kinds in KINDS if kinds & given) for given in range(8)]


def micro_after(micro: list[int], a: int, b: int, c: int, tables: int,
                offset: Sequence[int] | None) -> list[int]:
    """The micro table after adding ``a``, ``b`` and ``c`` to the pooled cells.

    ``tables`` is the change of ``K n`` (categories times results), so the
    pooled ``d = K n - a - b - c`` changes by ``tables - a - b - c``; ``offset``
    is what ``set_entries`` adds on top.
    """
    after = [micro[0] + a, micro[1] + b, micro[2] + c, micro[3] + tables - a - b - c]
    if offset is not None:
        after = [cell + extra for cell, extra in zip(after, offset)]
    return after
