"""Build hook: compile the counting kernel (contingency/_kernel.pyx) when a compiler is there.

Hatchling runs this for wheels and editable installs. The kernel is optional:
when Cython or a C compiler is missing, or compiling fails, the hook says so on
standard error and the package is built without it (as msgpack's setup.py
drops its extension), and ``contingency`` then runs on its pure-Python
reference (contingency/_table_reference.py) with one warning at import.

The SHA-256 of the kernel's sources (contingency/_kernel_source.py says which
files) is compiled into the module (``CONTINGENCY_KERNEL_SOURCE``):
contingency/_backend.py compares it with the sources at import, so a kernel
edited but not rebuilt is refused by name.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("contingency") / "_kernel.pyx"


class KernelBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # the sdist ships the .pyx, never a compiled module
        root = Path(self.root)
        try:
            built = _build_in_place(root)
        except Exception as error:  # no Cython, no compiler, a compile error: build without
            print(f"contingency: the compiled kernel was not built ({type(error).__name__}: "
                  f"{error}); the pure-Python reference will be used. Install a C compiler and "
                  "reinstall (python -m pip install -e .) to build it.", file=sys.stderr)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # an editable install imports it from the source tree
            build_data["artifacts"].append(str(built.relative_to(root)))


def _kernel_source(root: Path) -> Any:
    """contingency/_kernel_source.py, loaded by its path: the one definition of the kernel's files
    and digest (the package itself is not importable here: its dependencies may be absent)."""
    path = root / "contingency" / "_kernel_source.py"
    spec = importlib.util.spec_from_file_location("_contingency_kernel_source", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build_in_place(root: Path) -> Path:
    """Cythonize and compile the kernel next to its source; return the compiled module's path."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    digest = _kernel_source(root).kernel_digest(root / "contingency")
    extension = Extension("contingency._kernel", [str(SOURCE)],
                          define_macros=[("CONTINGENCY_KERNEL_SOURCE", f'"{digest}"')],
                          # No fused multiply-add: the kernel's floats are Python's, each
                          # operation rounded (contingency/_kernel_intervals.pxi).
                          extra_compile_args=["-O2", "-ffp-contract=off"])
    here = os.getcwd()
    os.chdir(root)
    try:
        modules = cythonize([extension], language_level=3, quiet=True,
                            compiler_directives={"boundscheck": False, "wraparound": False})
        distribution = Distribution({"name": "contingency", "ext_modules": modules})
        command = distribution.get_command_obj("build_ext")
        command.inplace = True
        command.build_temp = str(root / "build" / "kernel")
        command.ensure_finalized()
        command.run()
        return root / command.get_ext_filename("contingency._kernel")
    finally:
        os.chdir(here)
