"""Extremes: the least and greatest value over the groups, kept by heaps for the groups written.

A brute-force model (the min and max over every group's current value, ties to the first code)
checks each read, over random rounds of writes that touch a few groups (their entries pushed),
as many groups as the heaps hold or more (the new entries added and heaped again), and enough
changes to leave mostly stale entries (the heaps rebuilt).
"""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from contingency._extremes import STALE, Extremes

VALUES = st.sampled_from([0.0, 0.25, 0.5, 1.0, -1.0, math.nan, 0.5])
ROUND = st.lists(st.tuples(st.integers(0, 39), VALUES), max_size=60)


def expected(current: dict[int, float], greatest: bool) -> tuple[int, float] | None:
    kept = [(value, key) for key, value in current.items() if value == value]
    if not kept:
        return None
    value, key = (min(kept, key=lambda entry: (-entry[0], entry[1])) if greatest
                  else min(kept))
    return key, value


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.lists(ROUND, min_size=1, max_size=12))
@example(40, [[(key, 1.0) for key in range(40)], [(3, -1.0)],
              [(key, 0.25) for key in range(40)] * 2, [(5, math.nan)]])
def test_extremes_equal_the_least_and_greatest_value(size: int, rounds: list[list[tuple[int, float]]]
                                                     ) -> None:
    current = dict.fromkeys(range(size), 0.0)  # each group's value; codes are the keys
    groups = {key: key for key in range(size)}
    keys = list(range(size))
    extremes = Extremes(lambda group: current[group], groups)  # type: ignore[arg-type, return-value]
    for writes in [[], *rounds]:
        for key, value in writes:
            key %= size
            current[key] = value
            extremes.pending.add(key)
        extremes.refresh(groups, groups, "score")  # type: ignore[arg-type]
        assert not extremes.pending
        assert extremes.values.keys() == current.keys()
        for heap in (extremes.low, extremes.high):  # (a read pops the stale entries it meets)
            assert len(heap) <= (STALE + 1) * size + 64 + len(writes)
        for greatest in (False, True):
            assert extremes.extreme(greatest, keys) == expected(current, greatest)


def test_a_first_read_of_many_groups_heaps_them_at_once() -> None:
    """The first read enters every group: the heaps are made whole (their order as heapify's)."""
    extremes = Extremes(lambda group: float(group % 7), range(1000))  # type: ignore[arg-type]
    groups = {key: key for key in range(1000)}
    extremes.refresh(groups, groups, "score")  # type: ignore[arg-type]
    assert len(extremes.low) == 1000
    assert extremes.extreme(False, list(range(1000))) == (0, 0.0)
    assert extremes.extreme(True, list(range(1000))) == (6, 6.0)
