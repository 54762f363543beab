"""The least and greatest value of one score over the groups, kept up to date for the groups written.

A read after every result of a disparity (``difference``, ``ratio``,
``group_min``...) must not cost O(groups): an :class:`Extremes` keeps each
group's value and two heaps of them, and a read brings up to date only the
groups written since the last one.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from contingency._contingency import Contingency

__all__ = ["STALE", "Extremes"]

#: A score's heaps are rebuilt once their stale entries are this many times the groups.
STALE = 3
_Key = Hashable


class Extremes:
    """One score's value in each group, and heaps of them, brought up to date for the groups written
    since the last read (``pending``).

    Each heap entry is ``(value, code)`` (the value negated in ``high``), the
    code the group's, which follows the group order, so ties go to the first
    group. An entry is current while its value is the group's (a group whose
    value changes back to an earlier one makes that entry current again: the
    same value in the same place), so the heaps need no serial numbers; stale
    entries are dropped when they reach the top, and the heaps are rebuilt once
    stale entries are :data:`STALE` times the groups (each rebuild, O(groups),
    then comes after as many writes, whatever the number of groups). A read
    that brings fewer new entries than a sixteenth of the heaps pushes them, one
    ``O(log groups)`` push each; one that brings more (the first read enters
    every group) adds them and heaps the whole again, ``O(entries)``. NaN
    values have no entry (extremes leave them out).
    """

    __slots__ = ("high", "low", "pending", "read", "values")

    def __init__(self, read: Callable[[Contingency], float], groups: Iterable[_Key]) -> None:
        self.read = read
        self.values: dict[_Key, float] = {}
        self.pending: set[_Key] = set(groups)
        self.low: list[tuple[float, int]] = []
        self.high: list[tuple[float, int]] = []

    def refresh(self, groups: Mapping[_Key, Contingency], codes: Mapping[_Key, int],
                where: str) -> None:
        """Read the pending groups' values again (a forgotten group is dropped)."""
        values, read = self.values, self.read
        low: list[tuple[float, int]] = []  # the new entries
        for key in self.pending:
            accumulator = groups.get(key)
            if accumulator is None:
                values.pop(key, None)
                continue
            try:
                value = read(accumulator)
            except ValueError as problem:
                raise ValueError(f"{where} of group {key!r}: {problem}") from None
            old = values.get(key)
            if old is None or not (old == value or (old != old and value != value)):
                values[key] = value
                if value == value:
                    low.append((value, codes[key]))
        self.pending.clear()
        if len(self.low) + len(low) > (STALE + 1) * len(values) + 64:  # mostly stale: rebuild
            self.low = [(value, codes[key]) for key, value in values.items() if value == value]
            self.high = [(-value, code) for value, code in self.low]
            heapq.heapify(self.low)
            heapq.heapify(self.high)
        elif 16 * len(low) < len(self.low):  # a few: pushed, O(log groups) each
            for value, code in low:
                heapq.heappush(self.low, (value, code))
                heapq.heappush(self.high, (-value, code))
        else:  # as many as the heaps hold or more (a first read): heaped again, O(entries)
            self.low += low
            self.high += [(-value, code) for value, code in low]
            heapq.heapify(self.low)
            heapq.heapify(self.high)

    def extreme(self, greatest: bool, keys: Sequence[_Key]) -> tuple[_Key, float] | None:
        """The group with the least (greatest) value and that value; ``None`` if every value is NaN.

        ``keys`` gives the group of each code.
        """
        heap = self.high if greatest else self.low
        values = self.values
        while heap:
            value, code = heap[0]
            if greatest:
                value = -value
            key = keys[code]
            if values.get(key) == value:  # (a forgotten group's code names no value)
                return key, value
            heapq.heappop(heap)
        return None
