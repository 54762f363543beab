"""Test configuration: hypothesis runs derandomized by default, exploring on request.

Profiles (select one with ``HYPOTHESIS_PROFILE``):

- ``ci`` (the default, with or without ``CI`` set): derandomized, so ``python -m pytest``
  on a fresh clone gives the same verdict every run;
- ``explore``: new random examples every run, three times as many; for development,
  ``HYPOTHESIS_PROFILE=explore python -m pytest tests/test_x.py --hypothesis-seed=N``.
  Pin every failure it finds as an ``@example`` in the test that found it.

Without a C compiler the kernel is not built: the suite then runs on the pure-Python
references, chosen with ``CONTINGENCY_PURE_PYTHON=1`` for this process and the commands it
starts, so the import warning (which tests/test_backend.py checks on its own) is not raised
as an error or printed by every command the tests run; the kernel's own tests skip. CI builds
the kernel and fails if it is missing (tests/test_backend.py).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from pathlib import Path

from hypothesis import HealthCheck, settings

# The command a user runs to check an install must not depend on luck: derandomized unless a
# developer asks to explore.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", max_examples=300, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))



def _kernel_built() -> bool:
    """Whether the package's folder holds a compiled kernel (found without importing the
    package, whose import would warn)."""
    spec = importlib.util.find_spec("contingency")
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    return any((Path(folder) / f"_kernel{suffix}").is_file() for folder in folders
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


if not _kernel_built():
    os.environ.setdefault("CONTINGENCY_PURE_PYTHON", "1")
