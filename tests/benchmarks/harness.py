"""Timing, rows and the printed table of the benchmark suite.

How a measurement is taken (:func:`measure`):

1. every contestant (ours, the peer, the floor) runs once as a warm-up, and
   the values they return go to the case's correctness check *before* any
   timing; a mismatch is kept and printed loudly in the row, never hidden;
2. then ``repeat`` rounds, each timing every contestant once, in an order
   rotated from round to round, so that ours and the peer share the same
   moments of a noisy machine;
3. a figure is the median of its rounds. The garbage collector is collected
   before and disabled during each timed call, for every contestant alike.

A contestant that is too slow to repeat (scikit-learn's AMI at K = 1000) is
timed in the first round only, and its row says so.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CheckFailed",
    "Contestant",
    "Measured",
    "Row",
    "Timing",
    "format_table",
    "measure",
    "relative_difference",
]


@dataclass(frozen=True)
class Measured:
    """What a contestant returns when it times itself (the Perl driver, a subprocess probe)."""

    seconds: float
    value: Any = None


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
    """The timed runs of one contestant, in seconds per item."""

    name: str
    samples: list[float]
    items: int

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
                "samples": self.samples, "items": self.items, "spread": self.spread}


class CheckFailed(Exception):
    """Raised by a check when ours and the peer disagree; :func:`measure` records it."""


def relative_difference(ours: float, theirs: float) -> float:
    """|ours - theirs| relative to |theirs|, absolute when ``theirs`` is near zero."""
    return abs(ours - theirs) / max(abs(theirs), 1.0) if theirs == theirs else math.inf


def _timed(contestant: Contestant) -> tuple[float, Any]:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        value = contestant.run()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    if isinstance(value, Measured):
        return value.seconds, value.value
    return elapsed, value


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
    samples: list[list[float]] = [[] for _ in contestants]
    for position, contestant in enumerate(contestants):
        if contestant.warmup:
            values[position] = _timed(contestant)[1]
    pending_check = any(not c.warmup for c in contestants)
    verdict = ""
    if check is not None and not pending_check:
        verdict = _run_check(check, values)
    for round_number in range(repeat):
        shift = round_number % len(contestants)
        order = list(range(shift, len(contestants))) + list(range(shift))
        for position in order:
            contestant = contestants[position]
            if contestant.rounds is not None and round_number >= contestant.rounds:
                continue
            seconds, value = _timed(contestant)
            samples[position].append(seconds / contestant.items)
            if not contestant.warmup and len(samples[position]) == 1:
                values[position] = value
    if check is not None and pending_check:
        verdict = _run_check(check, values)
    timings = [Timing(c.name, s, c.items) for c, s in zip(contestants, samples)]
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
        for scale, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB"), (1, "B")):
            if value >= scale or name == "B":
                return f"{value / scale:.3g} {name}"
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
