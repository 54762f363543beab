"""The compiled kernel for the differential tests, also when this process chose the reference."""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["KERNEL_MODULE", "compiled", "needs_kernel"]


def _module() -> Any:
    try:
        from contingency import _kernel
    except ImportError:
        return None
    return _kernel


#: ``contingency._kernel``, or ``None`` when it is not built (a process that chose the
#: reference, ``CONTINGENCY_PURE_PYTHON=1``, still imports a built one: both are then tested).
KERNEL_MODULE = _module()
needs_kernel = pytest.mark.skipif(KERNEL_MODULE is None, reason="the kernel is not built")


def compiled(name: str) -> Any:
    """The kernel's ``name`` (a routine or a class), or ``None`` when the kernel is not built."""
    return None if KERNEL_MODULE is None else getattr(KERNEL_MODULE, name)
