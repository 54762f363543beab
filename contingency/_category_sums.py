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
``a + b + c`` (the number of results naming the category), so that a removal
can check in constant time that no category is left named by more results
than remain.

Why the integers are exact: a per-category value is 0, 1, NaN, or a ratio
of counts below ``2**64`` (every count of an accumulator is below ``2**63``,
see :data:`contingency.formulas._numeric.MAX_COUNT`), so it is at least
``2**-65``, its last bit is worth at least ``2**-117``, and ``value *
2**128`` is a whole number: the integer *is* the float. Sums of these
integers are exact, so the running sums do not drift, whatever the number
and order of updates, and a mean read from them is the one
:func:`contingency.formulas._numeric.average` computes from scratch: each
sum rounded once, then divided, bit for bit.

A write tells the sums which categories changed (:meth:`CategorySums.stale`);
a read first brings those up to date (:meth:`CategorySums.refresh`): it
subtracts the category's old contribution, kept per category, and adds its
new one. A read therefore costs O(categories changed since the last read),
never O(categories).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from contingency.formulas._numeric import ZeroDivision
from contingency.formulas.classification import SCALAR

__all__ = ["SCALE_BITS", "CategorySums", "CategoryTotals", "Cells", "MarginSums"]

#: A per-category value ``v`` is held as the integer ``v * 2**SCALE_BITS``.
SCALE_BITS = 128
_SCALE = float(2**SCALE_BITS)
_ONE = 1 << SCALE_BITS

#: The cells ``a``, ``b`` and ``c`` by category (a category missing from them was forgotten).
Cells = tuple[Mapping[Hashable, int], Mapping[Hashable, int], Mapping[Hashable, int]]


class _Lazy:
    """A per-category aggregate brought up to date for the categories noted since its last refresh."""

    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: set[Hashable] = set()

    def stale(self, labels: Iterable[Hashable]) -> None:
        """Note that these categories' cells changed (or that they appeared or were forgotten)."""
        self._pending.update(labels)

    @property
    def pending(self) -> set[Hashable]:
        """The categories noted since the last refresh (a writer may add to it: :meth:`stale`)."""
        return self._pending


class CategorySums(_Lazy):
    """The exact sums over categories of one score, kept up to date for the categories that changed."""

    __slots__ = ("_by_support", "_contribution", "_empty", "_mode", "_name", "defined", "total",
                 "weight", "weighted")

    def __init__(self, score: str, zero_division: ZeroDivision, *, weighted: bool = False) -> None:
        super().__init__()
        self._name = score
        self._mode = zero_division
        self._by_support = weighted  # keep the weighted sums too (plain reads skip them)
        self._empty = SCALAR[score](0, 0, 0, 0, zero_division)  # the mean of no defined value
        # Per category: (value * 2**SCALE_BITS or None if undefined, support) as last summed.
        self._contribution: dict[Hashable, tuple[int | None, int]] = {}
        self.total = self.weighted = self.weight = self.defined = 0

    def refresh(self, cells: Cells) -> None:
        """Bring the sums up to date for the categories noted since the last refresh."""
        pending = self._pending
        if not pending:
            return
        contribution, score, mode = self._contribution, SCALAR[self._name], self._mode
        cells_a, cells_b, cells_c = cells
        total, weighted, weight, defined = self.total, self.weighted, self.weight, self.defined
        by_support = self._by_support
        for label in pending:
            old = contribution.get(label)
            if old is not None:
                value, support = old
                if value is not None:
                    total -= value
                    defined -= 1
                    if by_support:
                        weighted -= value * support
                        weight -= support
            a = cells_a.get(label)
            if a is None:  # forgotten
                if old is not None:
                    del contribution[label]
                continue
            b, c = cells_b[label], cells_c[label]
            number = score(a, b, c, 0, mode)  # d: none of these scores reads it
            support = a + c
            if number != number:  # NaN: undefined in "nan" mode, left out of every sum
                contribution[label] = (None, support)
                continue
            value = int(number * _SCALE)
            contribution[label] = (value, support)
            total += value
            defined += 1
            if by_support:
                weighted += value * support
                weight += support
        self.total, self.weighted, self.weight, self.defined = total, weighted, weight, defined
        pending.clear()

    def mean(self, cells: Cells) -> float:
        """The mean over the defined categories, ``fl(sum) / count`` (an empty table's value if none)."""
        if self._pending:
            self.refresh(cells)
        if not self.defined:
            return self._empty
        return (self.total / _ONE) / self.defined

    def weighted_mean(self, cells: Cells) -> float:
        """The mean weighted by support, or the plain mean when the supports sum to zero.

        Only for sums made with ``weighted=True``.
        """
        if self._pending:
            self.refresh(cells)
        if not self.defined:
            return self._empty
        if self.weight == 0:
            return (self.total / _ONE) / self.defined
        return (self.weighted / _ONE) / self.weight


class MarginSums(_Lazy):
    """``sum t p``, ``sum t**2`` and ``sum p**2`` over categories (``t = a + c``, ``p = a + b``), exactly."""

    __slots__ = ("_margins", "assigned_squares", "products", "truth_squares")

    def __init__(self) -> None:
        super().__init__()
        self._margins: dict[Hashable, tuple[int, int]] = {}  # per category, (t, p) as last summed
        self.products = self.truth_squares = self.assigned_squares = 0

    def refresh(self, cells: Cells) -> None:
        """Bring the sums up to date for the categories noted since the last refresh."""
        pending = self._pending
        if not pending:
            return
        margins = self._margins
        cells_a, cells_b, cells_c = cells
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


class CategoryTotals(_Lazy):
    """How many categories have each non-zero total ``a + b + c`` (kept like :class:`CategorySums`)."""

    __slots__ = ("_total", "histogram")

    def __init__(self) -> None:
        super().__init__()
        self._total: dict[Hashable, int] = {}  # per category, its total as last counted
        self.histogram: dict[int, int] = {}

    def refresh(self, cells: Cells) -> None:
        """Bring the histogram up to date for the categories noted since the last refresh."""
        histogram, totals = self.histogram, self._total
        for label in self._pending:
            old = totals.pop(label, 0)
            if old:
                left = histogram[old] - 1
                if left:
                    histogram[old] = left
                else:
                    del histogram[old]
            a = cells[0].get(label)
            if a is not None:
                total = a + cells[1][label] + cells[2][label]
                if total:
                    totals[label] = total
                    histogram[total] = histogram.get(total, 0) + 1
        self._pending.clear()

    def above(self, cells: Cells, limit: int, largest: int) -> int:
        """How many categories have a total above ``limit`` (no total exceeds ``largest``).

        Costs O(min(largest - limit, distinct totals)) after the refresh.
        """
        self.refresh(cells)
        histogram = self.histogram
        if largest - limit <= len(histogram):
            return sum(histogram.get(total, 0) for total in range(limit + 1, largest + 1))
        return sum(count for total, count in histogram.items() if total > limit)
