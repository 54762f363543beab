"""The benchmark harness's rules (tests/benchmarks/harness.py): which clock a round is read on,
how many rounds a row gets, and that the contestants still share every round."""

from __future__ import annotations

import time

import pytest

from tests.benchmarks import harness
from tests.benchmarks.harness import Contestant, Measured, Stopwatch, measure

needs_thread_switches = pytest.mark.skipif(
    harness._RUSAGE_THREAD is None, reason="the platform does not report a thread's switches")


def _spin() -> int:
    total = 0
    for number in range(20_000):
        total += number
    return total


def _nap() -> int:
    time.sleep(0.002)
    return 1


@needs_thread_switches
def test_a_round_that_blocks_keeps_its_wall_time_one_that_computes_is_on_the_running_clock():
    """A sleep is a voluntary switch: its rounds keep their wall time (at least the sleep); a
    loop of arithmetic never blocks: every round of it is on the running clock, and never
    above its own wall time."""
    timings, _ = measure([Contestant("spin", _spin, items=20_000), Contestant("nap", _nap)], 3)
    spin, nap = timings
    assert spin.cpu_rounds == len(spin.samples) >= 3
    assert all(sample <= wall for sample, wall in zip(spin.samples, spin.wall_samples))
    assert nap.cpu_rounds == 0
    assert nap.samples == nap.wall_samples
    assert min(nap.samples) >= 0.002


@needs_thread_switches
def test_a_contestant_timing_its_own_part_follows_the_same_rule():
    """Stopwatch, as a self-timed contestant uses it: running time for a part that computed,
    wall time for one that slept."""
    def computing() -> Measured:
        _nap()  # outside its part
        stopwatch = Stopwatch()
        return stopwatch.measured(_spin())

    def sleeping() -> Measured:
        stopwatch = Stopwatch()
        return stopwatch.measured(_nap())

    timings, _ = measure([Contestant("computing", computing), Contestant("sleeping", sleeping)], 3)
    assert timings[0].cpu_rounds == len(timings[0].samples)
    assert max(timings[0].samples) < 0.002  # the sleep before its part is not in it
    assert timings[1].cpu_rounds == 0
    assert min(timings[1].samples) >= 0.002


def test_short_rounds_are_repeated_to_fill_the_budget_within_bounds():
    """At least ``repeat`` rounds, more as a round is shorter, at most MAX_ROUNDS_FACTOR times;
    a round of unknown length (a contestant without a warm-up) keeps ``repeat``."""
    budget = 11 * harness.ROUND_BUDGET
    assert harness._rounds(11, None) == 11
    assert harness._rounds(11, budget) == 11  # a round fills the budget alone
    assert harness._rounds(11, budget / 50) == 50
    assert harness._rounds(11, budget / 10**6) == 11 * harness.MAX_ROUNDS_FACTOR


def test_every_contestant_is_timed_in_every_round_in_a_rotated_order():
    """The contestants share each round (alternated), a capped one stops at its cap, and the
    values the check sees are the warm-up's."""
    order: list[str] = []

    def contestant(name: str) -> Contestant:
        return Contestant(name, lambda: order.append(name) or name)

    capped = Contestant("capped", lambda: order.append("capped") or "capped", rounds=2)
    seen: list[list[object]] = []
    timings, verdict = measure([contestant("a"), contestant("b"), capped], 4,
                               lambda values: seen.append(values) or "ok")
    assert verdict == "ok"
    assert seen == [["a", "b", "capped"]]
    assert [len(t.samples) for t in timings] == [len(timings[0].samples)] * 2 + [2]
    rounds = len(timings[0].samples)
    assert rounds >= 4
    timed = order[3:]  # after the three warm-ups
    assert timed[:3] == ["a", "b", "capped"]  # round 0
    assert timed[3:6] == ["b", "capped", "a"]  # round 1, rotated
    assert timed.count("a") == timed.count("b") == rounds


@pytest.mark.parametrize("warmup", [True, False])
def test_a_rounds_value_does_not_outlive_its_round(warmup):
    """Only the value the check sees is kept: each other round's result is freed once the round
    is over (kept, every round's large result stayed alive, and a contestant that builds one
    paid fresh memory in each round: 30 ms a round for 10 ms of work at 10^6 labels)."""
    import weakref

    class Result:
        pass

    made: list[weakref.ref[Result]] = []
    alive_at_each_call: list[int] = []

    def build() -> Result:
        alive_at_each_call.append(sum(ref() is not None for ref in made))
        result = Result()
        made.append(weakref.ref(result))
        return result

    measure([Contestant("builder", build, warmup=warmup)], 5, lambda values: "ok")
    assert len(alive_at_each_call) >= 5
    assert max(alive_at_each_call) <= 1  # the value kept for the check, and no other
