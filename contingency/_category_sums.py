"""Running sums over categories that make Contingency's macro and weighted averages O(1) to read.

For one per-category score (precision, recall or F1) a :class:`CategorySums`
keeps, exactly:

- ``total``: the sum over categories of the score's value, each value held
  as the integer ``value * 2**SCALE_BITS``;
- ``weighted``: the sum of those integers times each category's support
  (``a + c``), and ``weight``: the sum of the supports (kept only by sums made
  with ``weighted=True``, so that a plain macro read does not pay for them);
- ``defined``: how many categories have a defined value (in ``"nan"`` mode an
  undefined value is left out of every sum, as scikit-learn's averages do).

A :class:`MarginSums` keeps the sums over categories that the confusion
matrix's scores need (Cohen's kappa, the multiclass Matthews correlation):
with ``t = a + c`` (results correct in the category) and ``p = a + b``
(results assigned it), the exact integers ``sum t p``, ``sum t**2`` and
``sum p**2``. (Balanced accuracy is the mean recall of the categories some
result has as correct: a :class:`CategorySums` of recall in ``"nan"`` mode.)

A :class:`CategoryTotals` keeps how many categories have each total
``a + b + c`` (the number of results naming the category), and each sum of
some of the three kinds of cells, so that a removal can check in constant
time that no category is left with more cells of some kinds than the results
that remain can give it (a result gives a category one cell at most, of a
kind the result's shape has).

Why the integers are exact: a per-category value is 0, 1, NaN, or a ratio
of counts below ``2**64`` (every count of an accumulator is below ``2**63``,
see :data:`contingency.formulas._numeric.MAX_COUNT`), so it is at least
``2**-65``, its last bit is worth at least ``2**-117``, and ``value *
2**128`` is a whole number: the integer *is* the float. Weighted counts in
units of ``2**-e`` are below ``2**(63 + e)``, and the sums made for them
(``scale=e``) hold values in units of ``2**-(128 + e)``. Sums of these
integers are exact, so the running sums do not drift, whatever the number
and order of updates, and a mean read from them is the one
:func:`contingency.formulas._numeric.average` computes from scratch: each
sum rounded once, then divided, bit for bit.

For the delta-method intervals of the macro averages
(:mod:`contingency.formulas.intervals`), a :class:`VarianceSums` keeps the sum
over categories of one score's variance term (``a b / (a + b)**3`` for
precision, ``4 a (b + c)(a + b + c) / (2a + b + c)**4`` for F1, ...), and an
:class:`F1Coupling` the coupling term of macro F1's variance, ``sum N_ij v_i
v_j`` over the wrong single-label results (correct ``i``, assigned ``j``),
``v_k = 2 a_k / (2 a_k + b_k + c_k)**2``: see
:func:`contingency.formulas.intervals.macro_variance` for the derivation.
Each term (and each ``v_k``) is a double held as an exact integer
(:func:`contingency.formulas.intervals.variance_bits`), so these sums are
exact too.

(The compiled kernel keeps the plain and weighted means of precision, recall
and F1 in C, the same integers in 192- and 256-bit words, updated by each
write of a cell: contingency/_kernel_counts.pxi; the sums here are their
specification, and serve every other score.)

A write tells the sums which categories changed (:meth:`CategorySums.stale`);
a read first brings those up to date (:meth:`CategorySums.refresh`): it
subtracts the category's old contribution, kept per category, and adds its
new one. A read therefore costs O(categories changed since the last read),
never O(categories). The coupling also hears of every change of the
single-label results by pair (:meth:`F1Coupling.note`), and a category whose
``v_k`` changed costs it O(the categories it is confused with).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Hashable, Iterable, Mapping
from itertools import compress, repeat

import numpy as np

from contingency._registry import TABLE
from contingency.formulas._numeric import ZeroDivision
from contingency.formulas.intervals import f1_slope, variance_bits

__all__ = ["KINDS", "SCALE_BITS", "CategorySums", "CategoryTotals", "Cells", "F1Coupling",
           "MarginSums", "VarianceSums", "kind_sums", "kinds_of"]

_NAN = float("nan")

#: A per-category value ``v`` is held as the integer ``v * 2**SCALE_BITS``.
SCALE_BITS = 128

#: A refresh of at least this many categories scores them a column at a time (the score's
#: vector form: the same doubles, bit for bit) and updates the sums with C-level passes: the
#: first read after a batch naming a million categories.
BULK = 2048

#: The cells ``a``, ``b`` and ``c`` by category (a category missing from them was forgotten).
Cells = tuple[Mapping[Hashable, int], Mapping[Hashable, int], Mapping[Hashable, int]]


class _Lazy:
    """A per-category aggregate of the cells ``a``, ``b``, ``c`` of an accumulator, brought up to
    date for the categories noted since its last refresh.

    It reads the accumulator's own dicts of cells, given once: the accumulator
    changes them in place, and makes new aggregates when it replaces them.
    """

    __slots__ = ("_cells", "_changed")

    def __init__(self, cells: Cells) -> None:
        self._cells = cells
        self._changed: set[Hashable] = set()

    def stale(self, labels: Iterable[Hashable]) -> None:
        """Note that these categories' cells changed (or that they appeared or were forgotten)."""
        self._changed.update(labels)

    @property
    def pending(self) -> set[Hashable]:
        """The categories noted since the last refresh (a writer may add to it: :meth:`stale`)."""
        return self._changed

    def _pending_cells(self) -> tuple[list[Hashable], list[int], list[int], list[int]]:
        """The pending categories not forgotten and their cells ``a``, ``b``, ``c``, as columns
        (a bulk refresh's input); the pending set is left as it is.

        When every category is pending (the first read of sums made after the categories were
        counted), the cells are read whole, in table order, as the mappings hold them; else
        category by category, in the pending set's order (a look-up each: a million of them,
        in an order that is not the table's, cost seconds more).
        """
        pending = self._changed
        cells_a, cells_b, cells_c = self._cells
        if len(pending) >= len(cells_a) and pending.issuperset(cells_a):
            return (list(cells_a), list(cells_a.values()), list(cells_b.values()),
                    list(cells_c.values()))
        labels = [label for label in pending if label in cells_a]  # (not forgotten)
        a, b, c = (list(map(cells.__getitem__, labels)) for cells in (cells_a, cells_b, cells_c))
        return labels, a, b, c


class CategorySums(_Lazy):
    """The exact sums over categories of one score, kept up to date for the categories that changed."""

    __slots__ = ("_columns", "_contribution", "_empty", "_inverse", "_mode", "_score",
                 "_support", "_unit", "total", "weight", "weighted")

    def __init__(self, cells: Cells, score: str, zero_division: ZeroDivision, *,
                 weighted: bool = False, scale: int = 0) -> None:
        """``scale``: the cells are counts in units of ``2**-scale`` (weighted results)."""
        super().__init__(cells)
        # Cells below 2**(63 + scale) give values whose last bit is worth at least
        # 2**-(117 + scale): SCALE_BITS + scale bits hold every one exactly.
        self._unit = 2.0 ** (SCALE_BITS + scale)
        # A sum read as float(sum) * 2**-(SCALE_BITS + scale): the conversion rounds the exact
        # sum once (correctly), and the product by a power of two is exact (every nonzero
        # sum read is far above the subnormal range), so this is sum / 2**(...) rounded once.
        self._inverse = 2.0 ** -(SCALE_BITS + scale)
        # The registry's row: its scalar form, and its columns form for a bulk refresh (the
        # same doubles). A score kept here reads a, b and c only (d changes with every result).
        self._score = TABLE[score].scalar
        self._columns = TABLE[score].formula
        self._mode = zero_division
        self._empty = self._score(0, 0, 0, 0, zero_division)  # the mean of no defined value
        # Per category with a defined value: the value * 2**SCALE_BITS as last summed (an
        # undefined value, NaN in "nan" mode, is left out of every sum and of this dict).
        self._contribution: dict[Hashable, int] = {}
        # Kept only by sums made with weighted=True (plain reads skip them): per category
        # with a defined value, its support a + c as last summed.
        self._support: dict[Hashable, int] | None = {} if weighted else None
        self.total = self.weighted = self.weight = 0

    @property
    def defined(self) -> int:
        """How many categories have a defined value (as of the last refresh)."""
        return len(self._contribution)

    def refresh(self) -> None:
        """Bring the sums up to date for the categories noted since the last refresh."""
        pending = self._changed
        if not pending:
            return
        if len(pending) >= BULK:
            self._refresh_columns()
            return
        contribution, score, mode, unit = self._contribution, self._score, self._mode, self._unit
        cells_a, cells_b, cells_c = self._cells
        supports = self._support
        total = self.total
        if supports is None:  # a plain mean's sums (a macro read after every result): lean
            for label in pending:
                a = cells_a.get(label)
                if a is not None:
                    number = score(a, cells_b[label], cells_c[label], 0, mode)
                    if number == number:
                        value = int(number * unit)
                        total += value - contribution.get(label, 0)
                        contribution[label] = value
                        continue
                # NaN: undefined in "nan" mode, or forgotten: left out
                total -= contribution.pop(label, 0)
            self.total = total
            pending.clear()
            return
        for label in pending:
            old = contribution.get(label, 0)  # (get and set: a pop and an insertion cost more)
            total -= old
            if supports is not None and label in supports:
                support = supports[label]
                self.weighted -= old * support
                self.weight -= support
            a = cells_a.get(label)
            number = _NAN if a is None else score(a, cells_b[label], cells_c[label], 0, mode)
            if number == number:  # NaN: undefined in "nan" mode (or forgotten): left out
                value = contribution[label] = int(number * unit)
                total += value
                if supports is not None and a is not None:
                    support = supports[label] = a + cells_c[label]
                    self.weighted += value * support
                    self.weight += support
            elif label in contribution:
                del contribution[label]
                if supports is not None:
                    del supports[label]
        self.total = total
        pending.clear()

    def _refresh_columns(self) -> None:
        """:meth:`refresh` of many categories: each pending category's old contribution taken out
        and its new one (the score's vector form on the columns of cells) put in, in C."""
        pending = self._changed
        contribution, supports = self._contribution, self._support
        if supports is not None:  # the weighted sums lose each old contribution times its support
            olds = list(map(contribution.get, pending, repeat(0)))
            old_supports = list(map(supports.pop, pending, repeat(0)))
            self.weighted -= sum(map(operator.mul, olds, old_supports))
            self.weight -= sum(old_supports)
        self.total -= sum(map(contribution.pop, pending, repeat(0)))
        labels, a, b, c = self._pending_cells()
        pending.clear()
        if not labels:
            return
        values = np.asarray(self._columns(np.array(a), np.array(b), np.array(c), np.zeros(len(a), int),
                                    zero_division=self._mode), dtype=np.float64)
        defined = values == values  # NaN: undefined in "nan" mode, left out
        scaled = list(map(int, (values[defined] * self._unit).tolist()))  # exact: a power of 2
        kept = list(compress(labels, defined.tolist()))
        contribution.update(zip(kept, scaled))
        self.total += sum(scaled)
        if supports is not None:
            weights = [x + y for x, y in compress(zip(a, c), defined.tolist())]
            supports.update(zip(kept, weights))
            self.weighted += sum(map(operator.mul, scaled, weights))
            self.weight += sum(weights)

    def mean(self) -> float:
        """The mean over the defined categories, ``fl(sum) / count`` (an empty table's value if none)."""
        if self._changed:
            self.refresh()
        defined = len(self._contribution)
        if not defined:
            return self._empty
        return float(self.total) * self._inverse / defined

    def weighted_mean(self) -> float:
        """The mean weighted by support, or the plain mean when the supports sum to zero.

        Only for sums made with ``weighted=True``.
        """
        if self._changed:
            self.refresh()
        defined = len(self._contribution)
        if not defined:
            return self._empty
        if self.weight == 0:
            return float(self.total) * self._inverse / defined
        return float(self.weighted) * self._inverse / self.weight


class VarianceSums(_Lazy):
    """The exact sum over categories of one score's delta-method variance term (``total``, an integer).

    ``total`` is the sum of ``term(a, b, c) * 2**bits`` over the categories
    (the registry's ``variance`` of the score, ``bits`` from
    :func:`contingency.formulas.intervals.variance_bits` at the counts'
    ``scale``); a category with a zero term is left out of the per-category dict.
    """

    __slots__ = ("_bits", "_term", "_terms", "total")

    def __init__(self, cells: Cells, score: str, *, scale: int = 0) -> None:
        super().__init__(cells)
        variance = TABLE[score].variance
        if variance is None:
            raise ValueError(f"score {score!r} has no delta-method variance in the registry")
        self._term = variance
        self._bits = variance_bits(score, scale)
        self._terms: dict[Hashable, int] = {}  # per category, its term as last summed
        self.total = 0

    def refresh(self) -> None:
        """Bring the sum up to date for the categories noted since the last refresh."""
        pending = self._changed
        if not pending:
            return
        terms, term, bits = self._terms, self._term, self._bits
        cells_a, cells_b, cells_c = self._cells
        total = self.total
        for label in pending:
            total -= terms.pop(label, 0)
            a = cells_a.get(label)
            if a is not None:
                value = term(a, cells_b[label], cells_c[label])
                if value:
                    scaled = terms[label] = int(math.ldexp(value, bits))
                    total += scaled
        self.total = total
        pending.clear()


class F1Coupling(_Lazy):
    """Macro F1's coupling term ``sum N_ij v_i v_j`` over the wrong single-label results, exactly.

    ``total`` is that sum over ordered pairs ``i != j`` (correct ``i``,
    assigned ``j``) of ``N_ij V_i V_j``, where ``V_k = v_k * 2**half`` is the
    exact integer of category ``k``'s slope
    (:func:`contingency.formulas.intervals.f1_slope`) and ``half`` half of
    F1's :func:`~contingency.formulas.intervals.variance_bits`. It is kept as
    ``sum over unordered pairs {i, j} of M_ij V_i V_j`` with ``M_ij = N_ij +
    N_ji``, each category's partners and their ``M`` in ``links``. The counts
    tell it of every change of the single-label pairs (:meth:`note`) and of
    every category whose cells changed (:meth:`stale`); :meth:`refresh`
    applies the pair changes (at the slopes last summed) and then each new
    slope ``V_k``, adding ``(V_k' - V_k) sum_l M_kl V_l``: both steps keep
    ``total`` equal to the sum at the pairs and slopes held, so it ends equal
    to the sum at the current counts.
    """

    __slots__ = ("_bits", "_changes", "_links", "_slopes", "total")

    def __init__(self, cells: Cells, pairs: Mapping[tuple[Hashable, Hashable], int], *,
                 scale: int = 0) -> None:
        super().__init__(cells)
        self._bits = variance_bits("f1", scale) // 2
        self._slopes: dict[Hashable, int] = {}  # per category with a nonzero slope, as last summed
        self._links: dict[Hashable, dict[Hashable, int]] = {}  # M_kl of each category's partners
        self._changes: dict[tuple[Hashable, Hashable], int] = {}  # pair changes not yet applied
        self.total = 0
        self.note(pairs)

    def note(self, pairs: Mapping[tuple[Hashable, Hashable], int]) -> None:
        """Note changes of the single-label results by ``(correct, assigned)`` (the diagonal is ignored)."""
        changes = self._changes
        for pair, count in pairs.items():
            if pair[0] != pair[1]:
                changes[pair] = changes.get(pair, 0) + count

    def refresh(self) -> None:
        """Bring the sum up to date: the pairs noted, then the slopes of the categories noted."""
        links, slopes = self._links, self._slopes
        total = self.total
        if self._changes:
            for (truth, chosen), count in self._changes.items():
                if not count:
                    continue
                total += count * slopes.get(truth, 0) * slopes.get(chosen, 0)
                for one, other in ((truth, chosen), (chosen, truth)):
                    partners = links.get(one)
                    if partners is None:
                        partners = links[one] = {}
                    left = partners.get(other, 0) + count
                    if left:
                        partners[other] = left
                    else:
                        del partners[other]
                        if not partners:
                            del links[one]
            self._changes = {}
        pending = self._changed
        if pending:
            cells_a, cells_b, cells_c = self._cells
            bits = self._bits
            for label in pending:
                a = cells_a.get(label)
                new = 0 if a is None else int(math.ldexp(
                    f1_slope(a, cells_b[label], cells_c[label]), bits))
                old = slopes.get(label, 0)
                if new == old:
                    continue
                partners = links.get(label)
                if partners:
                    total += (new - old) * sum(count * slopes.get(other, 0)
                                               for other, count in partners.items())
                if new:
                    slopes[label] = new
                else:
                    del slopes[label]
            pending.clear()
        self.total = total


_NONE = (0,) * 7  # the sums of a category without cells

#: The sets of cell kinds whose sums :class:`CategoryTotals` tracks, as bit masks (a = 1,
#: b = 2, c = 4): every non-empty set, the last (7) being ``a + b + c``.
KINDS = range(1, 8)


class MarginSums(_Lazy):
    """``sum t p``, ``sum t**2`` and ``sum p**2`` over categories (``t = a + c``, ``p = a + b``), exactly."""

    __slots__ = ("_margins", "assigned_squares", "products", "truth_squares")

    def __init__(self, cells: Cells) -> None:
        super().__init__(cells)
        self._margins: dict[Hashable, tuple[int, int]] = {}  # per category, (t, p) as last summed
        self.products = self.truth_squares = self.assigned_squares = 0

    def refresh(self) -> None:
        """Bring the sums up to date for the categories noted since the last refresh."""
        pending = self._changed
        if not pending:
            return
        margins = self._margins
        cells_a, cells_b, cells_c = self._cells
        if len(pending) >= BULK:  # many categories (the first read after a batch): in C
            self._refresh_columns()
            return
        products, truth_squares, assigned_squares = (
            self.products, self.truth_squares, self.assigned_squares)
        for label in pending:
            old = margins.pop(label, None)
            if old is not None:
                t, p = old
                products -= t * p
                truth_squares -= t * t
                assigned_squares -= p * p
            a = cells_a.get(label)
            if a is None:  # forgotten
                continue
            t, p = a + cells_c[label], a + cells_b[label]
            if t or p:
                margins[label] = (t, p)
                products += t * p
                truth_squares += t * t
                assigned_squares += p * p
        self.products, self.truth_squares, self.assigned_squares = (
            products, truth_squares, assigned_squares)
        pending.clear()

    def _refresh_columns(self) -> None:
        """:meth:`refresh` of many categories, with C-level passes: the old margins taken out,
        the new ones put in (exact Python integers either way)."""
        pending, margins = self._changed, self._margins
        for old in filter(None, map(margins.pop, pending, repeat(None))):
            t, p = old
            self.products -= t * p
            self.truth_squares -= t * t
            self.assigned_squares -= p * p
        labels, a, b, c = self._pending_cells()
        pending.clear()
        truth, assigned = list(map(operator.add, a, c)), list(map(operator.add, a, b))
        self.products += sum(map(operator.mul, truth, assigned))
        self.truth_squares += sum(map(operator.mul, truth, truth))
        self.assigned_squares += sum(map(operator.mul, assigned, assigned))
        margins.update(compress(zip(labels, zip(truth, assigned)),
                                map(operator.or_, truth, assigned)))  # (t or p: kept)


class CategoryTotals(_Lazy):
    """How many categories have each non-zero sum of cells of some kinds (kept like :class:`CategorySums`).

    For each non-empty set of the kinds ``a``, ``b``, ``c`` (a bit mask, see
    :data:`KINDS`), the histogram of the categories' sums of those cells:
    ``histograms[7]`` counts the categories by ``a + b + c``, ``histograms[6]``
    by ``b + c``, and so on.
    """

    __slots__ = ("_sums", "histograms")

    def __init__(self, cells: Cells) -> None:
        super().__init__(cells)
        self._sums: dict[Hashable, tuple[int, ...]] = {}  # per category, as last counted
        self.histograms: dict[int, dict[int, int]] = {kinds: {} for kinds in KINDS}

    @property
    def histogram(self) -> dict[int, int]:
        """The categories by total ``a + b + c`` (the number of results naming each)."""
        return self.histograms[7]

    def refresh(self) -> None:
        """Bring the histograms up to date for the categories noted since the last refresh."""
        histograms, sums, cells = self.histograms, self._sums, self._cells
        for label in self._changed:
            old = sums.pop(label, _NONE)
            a = cells[0].get(label)
            new = _NONE if a is None else kind_sums(a, cells[1][label], cells[2][label])
            if new[6]:
                sums[label] = new
            for kinds, was, now in zip(KINDS, old, new):
                if was != now:  # only the sums that changed move
                    histogram = histograms[kinds]
                    if was:
                        left = histogram[was] - 1
                        if left:
                            histogram[was] = left
                        else:
                            del histogram[was]
                    if now:
                        histogram[now] = histogram.get(now, 0) + 1
        self._changed.clear()

    def above(self, limit: int, largest: int, kinds: int = 7) -> int:
        """How many categories have a sum of ``kinds`` cells above ``limit`` (none exceeds ``largest``).

        As of the last :meth:`refresh`. Costs O(min(largest - limit, distinct sums)).
        """
        histogram = self.histograms[kinds]
        if largest - limit == 1:  # a unit removal
            return histogram.get(largest, 0)
        if largest - limit <= len(histogram):
            return sum(histogram.get(total, 0) for total in range(limit + 1, largest + 1))
        return sum(count for total, count in histogram.items() if total > limit)


def kind_sums(a: int, b: int, c: int) -> tuple[int, ...]:
    """The sums of a category's cells for each set of kinds, in the order of :data:`KINDS`.

    >>> kind_sums(1, 2, 4)
    (1, 2, 3, 4, 5, 6, 7)
    """
    return (a, b, a + b, c, a + c, b + c, a + b + c)


def kinds_of(shape: tuple[int, int, int]) -> int:
    """The kinds of cell a result of ``shape`` (both, assigned, correct) gives, as a bit mask.

    >>> kinds_of((1, 1, 1)), kinds_of((0, 1, 1)), kinds_of((1, 2, 1)), kinds_of((0, 0, 0))
    (1, 6, 3, 0)
    """
    both, assigned, correct = shape
    return (both > 0) | (assigned > both) << 1 | (correct > both) << 2
