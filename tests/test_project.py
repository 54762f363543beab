"""The project's promises about itself: public surface, set-up commands, CI."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import contingency

ROOT = Path(__file__).parent.parent


def setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\w*\n(.*?)```", readme, re.DOTALL)
    assert block is not None, "README.md has no fenced code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_setup_commands():
    install_and_run, test = setup_commands()
    assert "pip install" in install_and_run
    assert "python -m contingency" in install_and_run
    assert '".[test,docs]"' in test
    assert test.endswith("python -m pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup_commands()[1] in ci.splitlines()


def test_all_lists_exactly_the_public_names():
    public = {name for name in vars(contingency) if not name.startswith("_")}
    modules = {"formulas", "report", "io", "cli", "examples", "plot", "dask"}
    assert set(contingency.__all__) - {"__version__"} == public - modules
    for name in contingency.__all__:
        assert getattr(contingency, name).__doc__ or name == "__version__"


def test_changelog_has_an_unreleased_section():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog


def test_version_comes_from_the_installed_metadata():
    from importlib.metadata import version

    assert contingency.__version__ == version("contingency")


# The package as PyPI shows it: its metadata, as installed from this pyproject.toml -----------


def metadata():
    from importlib.metadata import distribution

    return distribution("contingency")


def test_the_license_is_mits_text_and_ships_in_the_wheel_and_the_sdist():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert metadata().metadata["License-Expression"] == "MIT"
    # The wheel (and an editable install) carries it under .dist-info/licenses/.
    assert any(str(path).endswith(".dist-info/licenses/LICENSE") for path in metadata().files or ())
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "LICENSE" in project["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]


def test_classifiers_name_every_python_from_the_oldest_supported_to_the_one_running():
    classifiers = metadata().metadata.get_all("Classifier") or []
    versions = {tuple(map(int, line.rsplit(" ", 1)[1].split("."))) for line in classifiers
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", line)}
    oldest = tuple(map(int, metadata().metadata["Requires-Python"].removeprefix(">=").split(".")))
    newest = max(sys.version_info[:2], (3, 13))
    assert versions >= {(3, minor) for minor in range(oldest[1], newest[1] + 1)}
    assert min(versions) == oldest


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_no_project_url_or_readme_link_names_an_address_that_does_not_exist():
    """The project has no public address yet: no URL may point at an invented one."""
    urls = pyproject()["project"].get("urls", {})
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(url.startswith("https://") and "contingency-dev" not in url for url in urls.values())
    assert "contingency-dev" not in readme
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r"<(\w+:[^>\s]+)>", readme)
    targets += re.findall(r'(?:href|src)="([^"]+)"', readme)
    assert targets
    for target in targets:
        # A relative link reaches a file of the repository (and of the sdist), on any forge.
        assert target.startswith("https://") or (ROOT / target.partition("#")[0]).is_file(), target


def test_docs_examples_are_compared_exactly():
    """doctest's NUMBER option let `-0.5` stand for `-0.49999999999999994`; examples round
    explicitly where they mean to."""
    flags = pyproject()["tool"]["pytest"]["ini_options"]["doctest_optionflags"]
    assert "NUMBER" not in flags


def test_the_sdist_holds_every_top_level_file_the_tests_read():
    """The tests run from the unpacked sdist: each file or folder at the top of the repository
    that a test reads (``ROOT / "mkdocs.yml"``) is in the sdist's include list."""
    include = set(pyproject()["tool"]["hatch"]["build"]["targets"]["sdist"]["include"])
    include.add("pyproject.toml")  # hatchling always ships it
    read = {"mkdocs.yml"}  # read by `mkdocs build`, which tests/test_docs.py runs
    for test in Path(__file__).parent.rglob("*.py"):
        code = test.read_text(encoding="utf-8")
        read.update(re.findall(r'(?:ROOT|\.parent\.parent) / "([^"/]+)"', code))
    assert read - include == set()


def _hypothesis_settings(environment: dict[str, str]) -> dict[str, object]:
    """The hypothesis settings tests/conftest.py loads in a fresh interpreter under ``environment``."""
    import json
    import os
    import subprocess

    env = {key: value for key, value in os.environ.items()
           if key not in ("CI", "HYPOTHESIS_PROFILE")}
    env.update(environment)
    code = ("import json, tests.conftest; from hypothesis import settings; s = settings(); "
            "print(json.dumps({'derandomize': s.derandomize, 'max_examples': s.max_examples}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_test_command_is_derandomized_without_any_environment():
    """`python -m pytest` on a fresh clone gives the same verdict every run (issue 33): the CI
    profile is the default, CI set or not; exploring is one documented switch away."""
    assert _hypothesis_settings({})["derandomize"] is True
    assert _hypothesis_settings({"CI": "1"})["derandomize"] is True
    explore = _hypothesis_settings({"HYPOTHESIS_PROFILE": "explore"})
    assert explore["derandomize"] is False
    assert explore["max_examples"] == 300
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "HYPOTHESIS_PROFILE=explore" in readme
