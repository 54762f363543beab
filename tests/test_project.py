"""The project's promises about itself: public surface, set-up commands, CI."""

from __future__ import annotations

import re
from pathlib import Path

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
