"""Bad input refused, every accumulator left as it was: the check the tests of each class share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

__all__ = ["refused_unchanged"]


def refused_unchanged(accumulator: Any, call: Callable[[], object], error: type[Exception],
                      match: str, reads: Callable[[Any], object] = lambda accumulator: None
                      ) -> None:
    """``call()`` raises ``error`` with a message matching ``match``, and ``accumulator``'s state
    (its ``to_dict()``) and ``reads(accumulator)`` are what they were before."""
    before, seen = accumulator.to_dict(), reads(accumulator)
    with pytest.raises(error, match=match):
        call()
    assert accumulator.to_dict() == before
    assert reads(accumulator) == seen
