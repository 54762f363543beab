"""Timing, rows and the printed table of the benchmark suite.

How a measurement is taken (:func:`measure`):

1. every contestant (ours, the peer, the floor) runs once as a warm-up, and
   the values they return go to the case's correctness check *before* any
   timing; a mismatch is kept and printed loudly in the row, never hidden;
2. then rounds, each timing every contestant once, in an order rotated from
   round to round, so that ours and the peer share the same moments of a
   noisy machine. There are at least ``repeat`` rounds, and more when the
   warm-up shows a round to be short: as many as fit in ``repeat`` x
   :data:`ROUND_BUDGET` seconds (each call's time as in 3. and the collection
   before it), at most :data:`MAX_ROUNDS_FACTOR` x ``repeat``;
3. a round's time is the time the timing thread spent *running*
   (``time.thread_time()``) when it never blocked during the round (no
   voluntary context switch, ``getrusage(RUSAGE_THREAD)``): it then was either
   running or ready to run, so its wall time is that plus the time another
   process held the CPU, which is not the contestant's. A round in which the
   thread blocked (a subprocess, a thread, a lock, a file) keeps its wall time,
   since its waiting is part of the work. A contestant that times its own
   part (returns :class:`Measured`) keeps its own figure, by the same rule
   when it takes it with a :class:`Stopwatch`; where the platform does not
   report a thread's switches (not Linux), every round is wall time;
4. a figure is the **median** of its rounds. The garbage collector is
   collected before and disabled during each timed call, for every contestant
   alike; the objects alive when the rounds begin are frozen out of those
   collections (``gc.freeze``), so that one costs what the rounds left behind,
   not a walk of the whole heap. Each :class:`Timing` keeps the wall times
   too, how many rounds were on the running clock and how many another
   process interrupted.

A contestant that is too slow to repeat (scikit-learn's AMI at K = 1000) is
timed in the first round only, and its row says so.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

try:
    import resource
except ImportError:  # not on Windows: every round is then timed by the wall clock
    resource = None  # type: ignore[assignment]

__all__ = [
    "MAX_ROUNDS_FACTOR",
    "ROUND_BUDGET",
    "CheckFailed",
    "Contestant",
    "Measured",
    "Row",
    "Stopwatch",
    "Timing",
    "format_table",
    "measure",
    "relative_difference",
]

#: Seconds of rounds (timed calls and the collections before them) allowed per
#: unit of ``repeat``: short rounds are repeated until they fill ``repeat`` x this.
ROUND_BUDGET = 0.1
#: At most this many times ``repeat`` rounds, however short a round is.
MAX_ROUNDS_FACTOR = 10

#: Linux reports a thread's own context switches; elsewhere rounds keep their wall time.
_RUSAGE_THREAD: int | None = getattr(resource, "RUSAGE_THREAD", None)


@dataclass(frozen=True)
class Measured:
    """What a contestant returns when it times itself (the Perl driver, a subprocess probe, a run
    timing only its part: :class:`Stopwatch`).

    ``wall`` is the part's wall time when ``seconds`` is not (None: the same),
    ``on_cpu_clock`` whether ``seconds`` is running time and ``preempted``
    whether another process took the CPU meanwhile (see the module docstring).
    """

    seconds: float
    value: Any = None
    wall: float | None = None
    on_cpu_clock: bool = False
    preempted: bool = False


class Stopwatch:
    """Times from its making to :meth:`measured` by the rule of :func:`measure`'s rounds: the
    thread's running time if it never blocked meanwhile, else the wall time."""

    __slots__ = ("_running", "_switches", "_wall")

    def __init__(self) -> None:
        self._switches = _switches()
        self._running = time.thread_time()
        self._wall = time.perf_counter()

    def measured(self, value: Any = None) -> Measured:
        """The time so far and ``value``, as a contestant returns them."""
        wall = time.perf_counter() - self._wall
        running = time.thread_time() - self._running
        after = _switches()
        if self._switches is None or after is None:
            return Measured(wall, value)
        preempted = after[1] > self._switches[1]
        if after[0] > self._switches[0]:  # it waited on something of its own: the wall clock
            return Measured(wall, value, preempted=preempted)
        # Running or ready to run throughout: the difference is another process's time.
        return Measured(min(running, wall), value, wall, on_cpu_clock=True, preempted=preempted)


@dataclass
class Contestant:
    """One timed operation: ``run()`` does the whole operation once and returns its result.

    ``items`` is how many results or elements one run processes (per-item
    figures divide by it); ``rounds`` caps the number of timed rounds (the
    warm-up is skipped when ``warmup`` is false, and the first timed run's
    value goes to the check instead).
    """

    name: str
    run: Callable[[], Any]
    items: int = 1
    rounds: int | None = None
    warmup: bool = True


@dataclass
class Timing:
    """The timed runs of one contestant, in seconds per item.

    ``samples`` are the rounds' times as the module docstring defines them
    (the thread's running time when it never blocked, else wall time);
    ``wall_samples`` the same rounds' wall times; ``cpu_rounds`` how many
    rounds were on the running-time clock and ``preempted_rounds`` in how many
    another process took the CPU from the thread (an involuntary switch).
    """

    name: str
    samples: list[float]
    items: int
    wall_samples: list[float] = field(default_factory=list)
    cpu_rounds: int = 0
    preempted_rounds: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.samples) if self.samples else math.nan

    @property
    def spread(self) -> float:
        """(max - min) / median of the rounds: how noisy this figure was."""
        if len(self.samples) < 2:
            return 0.0
        return (max(self.samples) - min(self.samples)) / self.median

    @property
    def minimum(self) -> float:
        return min(self.samples) if self.samples else math.nan

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "median": self.median, "minimum": self.minimum,
                "samples": self.samples, "items": self.items, "spread": self.spread,
                "wall_samples": self.wall_samples, "cpu_rounds": self.cpu_rounds,
                "preempted_rounds": self.preempted_rounds}


@dataclass(frozen=True)
class _Round:
    """One timed call: its time (see the module docstring), its wall time and its value."""

    seconds: float
    wall: float
    value: Any
    on_cpu_clock: bool = False
    preempted: bool = False


class CheckFailed(Exception):
    """Raised by a check when ours and the peer disagree; :func:`measure` records it."""


def relative_difference(ours: float, theirs: float) -> float:
    """|ours - theirs| relative to |theirs|, absolute when ``theirs`` is near zero."""
    return abs(ours - theirs) / max(abs(theirs), 1.0) if theirs == theirs else math.inf


def _switches() -> tuple[int, int] | None:
    """The calling thread's (voluntary, involuntary) context switches so far, where reported."""
    if _RUSAGE_THREAD is None:
        return None
    usage = resource.getrusage(_RUSAGE_THREAD)
    return usage.ru_nvcsw, usage.ru_nivcsw


def _timed(contestant: Contestant) -> _Round:
    gc.collect()
    gc.disable()
    try:
        stopwatch = Stopwatch()
        value = contestant.run()
        taken = stopwatch.measured(value)
    finally:
        gc.enable()
    if isinstance(value, Measured):  # it timed itself (or the part it times)
        taken = value
    wall = taken.seconds if taken.wall is None else taken.wall
    return _Round(taken.seconds, wall, taken.value, on_cpu_clock=taken.on_cpu_clock,
                  preempted=taken.preempted)


def _rounds(repeat: int, warm_up_seconds: float | None) -> int:
    """``repeat``, raised so that rounds as long as the warm-up fill the budget."""
    if warm_up_seconds is None or warm_up_seconds <= 0:
        return repeat
    fitting = int(repeat * ROUND_BUDGET / warm_up_seconds)
    return max(repeat, min(fitting, MAX_ROUNDS_FACTOR * repeat))


def measure(contestants: Sequence[Contestant], repeat: int,
            check: Callable[[list[Any]], str] | None = None
            ) -> tuple[list[Timing], str]:
    """Warm up, check, then time the contestants alternately; returns the timings and the check's text.

    ``check`` gets the contestants' values (in order) and returns a short
    account of the agreement (e.g. ``"max diff 2e-16"``); it raises
    :class:`CheckFailed` with the disagreement, which is returned as
    ``"MISMATCH: ..."``.
    """
    values: list[Any] = [None] * len(contestants)
    rounds: list[list[_Round]] = [[] for _ in contestants]
    warm_up_seconds: float | None = 0.0  # a round's length, as the warm-up ran
    for position, contestant in enumerate(contestants):
        if contestant.warmup:
            warmed = _timed(contestant)
            values[position] = warmed.value
            if contestant.rounds is None and warm_up_seconds is not None:
                warm_up_seconds += warmed.seconds
        elif contestant.rounds is None:
            warm_up_seconds = None  # a round's length is not known: no more than repeat
    pending_check = any(not c.warmup for c in contestants)
    verdict = ""
    if check is not None and not pending_check:
        verdict = _run_check(check, values)
    gc.collect()
    gc.freeze()  # what lives now is no round's garbage: each round's collections skip it
    try:
        if warm_up_seconds is not None:
            begun = time.thread_time()
            gc.collect()
            warm_up_seconds += (time.thread_time() - begun) * sum(
                1 for c in contestants if c.rounds is None)
        for round_number in range(_rounds(repeat, warm_up_seconds)):
            shift = round_number % len(contestants)
            order = list(range(shift, len(contestants))) + list(range(shift))
            for position in order:
                contestant = contestants[position]
                if contestant.rounds is not None and round_number >= contestant.rounds:
                    continue
                timed = _timed(contestant)
                if not contestant.warmup and not rounds[position]:
                    values[position] = timed.value
                # A round's value is not kept past its round (the first goes to the check): kept,
                # every round's result would stay alive, and a contestant that builds a large
                # object would pay fresh pages of memory in each round, as no caller does.
                rounds[position].append(replace(timed, value=None))
                del timed
    finally:
        gc.unfreeze()
    if check is not None and pending_check:
        verdict = _run_check(check, values)
    timings = [Timing(c.name, [r.seconds / c.items for r in taken], c.items,
                      wall_samples=[r.wall / c.items for r in taken],
                      cpu_rounds=sum(r.on_cpu_clock for r in taken),
                      preempted_rounds=sum(r.preempted for r in taken))
               for c, taken in zip(contestants, rounds)]
    return timings, verdict


def _run_check(check: Callable[[list[Any]], str], values: list[Any]) -> str:
    try:
        return check(values)
    except CheckFailed as failure:
        return f"MISMATCH: {failure}"


@dataclass
class Row:
    """One line of the table: ours against a peer and a floor, and the issue's target."""

    operation: str
    size: str
    unit: str  # "s" (per call), "s/result", "s/element" (per item), "bytes" or "number"
    ours: float | None = None
    peer_name: str = ""
    peer: float | None = None
    floor_name: str = ""
    floor: float | None = None
    target: str = ""
    passed: bool | None = None
    check: str = ""
    notes: str = ""
    status_override: str = ""  # "SKIP" / "ERROR" with the reason in notes
    timings: list[Timing] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """peer / ours: above 1 means we are faster (or smaller)."""
        if self.ours is None or self.peer is None or self.ours <= 0:
            return None
        return self.peer / self.ours

    @property
    def floor_ratio(self) -> float | None:
        """ours / floor: how far above the floor of the machine we are."""
        if self.ours is None or self.floor is None or self.floor <= 0:
            return None
        return self.ours / self.floor

    @property
    def status(self) -> str:
        if self.status_override:
            return self.status_override
        if self.check.startswith("MISMATCH"):
            return "MISMATCH"
        if self.passed is None:
            return "-"
        return "PASS" if self.passed else "MISS"

    def to_json(self) -> dict[str, Any]:
        return {
            "operation": self.operation, "size": self.size, "unit": self.unit,
            "ours": self.ours, "peer_name": self.peer_name, "peer": self.peer,
            "ratio_peer_over_ours": self.ratio, "floor_name": self.floor_name,
            "floor": self.floor, "ratio_ours_over_floor": self.floor_ratio,
            "target": self.target, "status": self.status, "check": self.check,
            "notes": self.notes, "timings": [t.to_json() for t in self.timings],
        }


def _quantity(value: float | None, unit: str) -> str:
    if value is None or value != value:
        return ""
    if unit == "number":  # a dimensionless figure, such as a relative difference
        return f"{value:.2g}"
    if unit == "bytes":
        for size, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB"), (1, "B")):
            if value >= size or name == "B":
                return f"{value / size:.3g} {name}"
    for scale, name in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
        if value >= scale or name == "ns":
            return f"{value / scale:.3g} {name}"
    raise AssertionError("unreachable")


def _times(value: float | None) -> str:
    if value is None or value != value:
        return ""
    return f"{value:.3g}x" if value < 1000 else f"{value:,.0f}x"


def format_table(rows: Sequence[Row]) -> str:
    """The rows as a fixed-width text table, then the numbered checks and notes.

    Times are per call, except in streaming rows (unit ``s/result`` or
    ``s/element``), where they are per result or element.
    """
    header = ("#", "operation", "size", "ours", "peer", "theirs", "peer/ours", "floor",
              "ours/floor", "target", "status")
    lines = [header]
    for number, row in enumerate(rows, 1):
        lines.append((
            str(number), row.operation, row.size, _quantity(row.ours, row.unit), row.peer_name,
            _quantity(row.peer, row.unit), _times(row.ratio),
            _quantity(row.floor, row.unit), _times(row.floor_ratio), row.target, row.status,
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    numeric = {0, 3, 5, 6, 7, 8}
    rendered = []
    for number, line in enumerate(lines):
        cells = [cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
                 for i, cell in enumerate(line)]
        rendered.append(" | ".join(cells).rstrip())
        if number == 0:
            rendered.append("-+-".join("-" * width for width in widths))
    notes = [f"  [{number}] {row.operation} ({row.size}): {text}"
             for number, row in enumerate(rows, 1)
             for text in (row.check, row.notes) if text]
    if notes:
        rendered.append("")
        rendered.append("checks and notes (by row number):")
        rendered.extend(notes)
    return "\n".join(rendered)
