"""Which implementation of PartitionComparison's table this process uses: the kernel or its reference.

Issue 30 puts PartitionComparison's counting in a compiled kernel beside a
pure-Python reference. This module decides between them, by the rules it
keeps from now on (the kernel so far holds only the hash of its source):

- the kernel, ``contingency._kernel`` (contingency/_kernel.pyx, compiled by
  ``python -m pip install -e .`` or ``pip install .`` when a C compiler is
  there: hatch_build.py), the default;
- the reference, used when the kernel is not built (with one warning at
  import that says how to build it) or when the environment variable
  ``CONTINGENCY_PURE_PYTHON`` is set to anything but ``""`` or ``"0"`` (no
  warning: it was asked for).

A kernel whose source (contingency/_kernel.pyx) has changed since it was
compiled is refused at import, with the command that rebuilds it: a stale
kernel would count by rules the source no longer states.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from pathlib import Path
from typing import Any

__all__ = ["IMPLEMENTATION", "KERNEL", "PURE_PYTHON_VARIABLE", "REBUILD"]

#: The environment variable that selects the pure-Python reference (cf. msgpack's
#: MSGPACK_PUREPYTHON, aiohttp's AIOHTTP_NO_EXTENSIONS).
PURE_PYTHON_VARIABLE = "CONTINGENCY_PURE_PYTHON"
#: The command that (re)builds the kernel from a source tree.
REBUILD = "python -m pip install -e ."


def _kernel_module() -> Any:
    """The compiled kernel, or None when the reference is asked for or the kernel is not built."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        kernel = importlib.import_module("contingency._kernel")
    except ImportError:
        warnings.warn("contingency: the compiled kernel (contingency._kernel) is not built, so "
                      "PartitionComparison counts with its pure-Python reference: the same numbers, "
                      "several times slower. To build it, install a C compiler and reinstall "
                      f"(from a source tree: {REBUILD}); to choose the reference and silence this "
                      f"warning, set {PURE_PYTHON_VARIABLE}=1.", RuntimeWarning, stacklevel=2)
        return None
    source = Path(__file__).with_name("_kernel.pyx")
    if source.is_file() and (hashlib.sha256(source.read_bytes()).hexdigest()
                             != kernel.SOURCE_HASH):
        raise ImportError(f"contingency: {source} has changed since the compiled kernel "
                          f"{Path(str(kernel.__file__)).name} was built from it: rebuild it with "
                          f"`{REBUILD}` (or set {PURE_PYTHON_VARIABLE}=1 to use the pure-Python "
                          "reference)")
    return kernel


#: The compiled kernel module, or None.
KERNEL = _kernel_module()
#: "kernel" or "reference": the implementation this process counts with.
IMPLEMENTATION = "reference" if KERNEL is None else "kernel"
