"""contingency._backend: the kernel when it is built, the reference when asked for or when it is not, and
a stale kernel refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from contingency import _backend

ROOT = Path(__file__).parent.parent


def run(code: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter importing this tree, with these environment variables."""
    env = {key: value for key, value in os.environ.items() if key != "CONTINGENCY_PURE_PYTHON"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(environment)
    return subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=False)


def kernel_built() -> bool:
    return run("import contingency._kernel").returncode == 0


def test_ci_builds_the_kernel_and_the_tests_use_it():
    """In CI (where .ci/run installs the package and so compiles the kernel), the kernel is
    built and is what this test process counts with, unless the reference was asked for."""
    if not os.environ.get("CI"):
        pytest.skip("CI only: a developer's machine may have no compiler")
    assert kernel_built()
    if not os.environ.get(_backend.PURE_PYTHON_VARIABLE):
        assert _backend.IMPLEMENTATION == "kernel"


def test_the_kernel_is_chosen_when_built_and_the_reference_when_asked_for():
    chosen = "import contingency._backend as b; print(b.IMPLEMENTATION)"
    if kernel_built():
        found = run(chosen)
        assert (found.stdout.strip(), found.stderr) == ("kernel", "")
    for value in ("1", "yes"):
        found = run(chosen, CONTINGENCY_PURE_PYTHON=value)
        assert (found.stdout.strip(), found.stderr) == ("reference", "")  # asked for: no warning
    found = run(chosen, CONTINGENCY_PURE_PYTHON="0")
    assert found.stdout.strip() == ("kernel" if kernel_built() else "reference")


def test_a_missing_kernel_warns_once_and_the_reference_counts():
    code = """
import sys, warnings
sys.modules["contingency._kernel"] = None  # what a failed build leaves: no module
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import contingency
    import contingency._backend as backend
    comparison = contingency.PartitionComparison.from_labels([1, 1, 2], [1, 2, 2])
    comparison.add(3, 3)
    contingency.PartitionComparison().add_many([1], [1])
print(backend.IMPLEMENTATION, type(comparison._table).__name__, comparison.n_elements)
print(len(caught))
print(caught[0].category.__name__, caught[0].message)
"""
    found = run(code)
    assert found.returncode == 0, found.stderr
    implementation, count, warning = found.stdout.splitlines()
    assert implementation == "reference ReferenceTable 4"
    assert count == "1"
    assert warning.startswith("RuntimeWarning contingency: the compiled kernel")
    assert "python -m pip install -e ." in warning
    assert "CONTINGENCY_PURE_PYTHON=1" in warning


def test_a_kernel_older_than_its_source_is_refused_with_the_rebuild_command():
    code = """
import sys, types
stale = types.ModuleType("contingency._kernel")
stale.SOURCE_HASH = "0" * 64  # compiled from another source
stale.__file__ = "_kernel.so"
sys.modules["contingency._kernel"] = stale
import contingency
"""
    found = run(code)
    assert found.returncode != 0
    assert "ImportError: contingency:" in found.stderr
    assert "has changed since the compiled kernel _kernel.so was built from it" in found.stderr
    assert "python -m pip install -e ." in found.stderr
    assert run(code, CONTINGENCY_PURE_PYTHON="1").returncode == 0  # the reference needs no kernel


def test_the_built_kernel_carries_the_hash_of_its_source():
    if not kernel_built():
        pytest.skip("the kernel is not built here")
    from contingency import _kernel
    from contingency._kernel_source import kernel_digest

    assert kernel_digest(ROOT / "contingency") == _kernel.SOURCE_HASH


def test_the_digest_covers_every_kernel_source(tmp_path):
    """An include of the kernel (``_kernel_*.pxi``) edited but not rebuilt is a stale kernel too."""
    from contingency._kernel_source import kernel_digest

    assert kernel_digest(tmp_path) is None  # no source: an installed wheel
    (tmp_path / "_kernel.pyx").write_text('include "_kernel_part.pxi"\n')
    alone = kernel_digest(tmp_path)
    (tmp_path / "_kernel_part.pxi").write_text("cdef int x = 1\n")
    with_part = kernel_digest(tmp_path)
    (tmp_path / "_kernel_part.pxi").write_text("cdef int x = 2\n")
    edited = kernel_digest(tmp_path)
    assert len({alone, with_part, edited}) == 3
    (tmp_path / "unrelated.pxi").write_text("")  # not the kernel's: no change
    assert kernel_digest(tmp_path) == edited
