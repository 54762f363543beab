"""The kernel's source files and their digest: what a compiled kernel must have been built from.

The one definition of which files make the compiled kernel: ``_kernel.pyx`` and the
``_kernel_*.pxi`` files it includes, beside it in the package. :mod:`contingency._backend`
imports it (to refuse a kernel built from other sources), and ``hatch_build.py`` loads it by
its path at build time, when the package's own dependencies may be absent: so it uses the
standard library only.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["MAIN", "kernel_digest", "kernel_sources"]

#: The kernel's main source, which ``include``\\ s every ``_kernel_*.pxi`` beside it.
MAIN = "_kernel.pyx"


def kernel_sources(folder: Path) -> list[Path]:
    """The kernel's source files in ``folder`` (the package's): the ``.pyx``, then the includes by name."""
    return [folder / MAIN, *sorted(folder.glob("_kernel_*.pxi"))]


def kernel_digest(folder: Path) -> str | None:
    """The SHA-256 of the kernel's sources in ``folder`` (each file's name and bytes, in order),
    or ``None`` where the main source is not there (an installed wheel ships none)."""
    if not (folder / MAIN).is_file():
        return None
    digest = hashlib.sha256()
    for path in kernel_sources(folder):
        for part in (path.name.encode(), path.read_bytes()):
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
    return digest.hexdigest()
