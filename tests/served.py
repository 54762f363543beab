"""Which Python functions a read calls: how the tests tell a read the kernel serves in C."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["python_calls"]


def python_calls(read: Callable[[], Any]) -> list[str]:
    """The names of the Python functions ``read()`` calls (a read served in C calls none),
    refused or not (a ``ValueError`` is the reference's refusal). Pass a callable made in C
    (``functools.partial``, ``operator.attrgetter``): a lambda is itself a Python call."""
    calls: list[str] = []

    def profile(frame: Any, event: str, argument: Any) -> None:
        if event == "call":
            calls.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        read()
    except ValueError:
        pass
    finally:
        sys.setprofile(None)
    return calls
