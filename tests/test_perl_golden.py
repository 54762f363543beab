"""Contingency against the real Perl Statistics::Contingency 0.09.

The golden file was written by the Perl module itself (tests/golden/perl/generate.py
regenerates it). Perl's macro averages sum categories in hash order, which is
random per process, so where Perl's runs under different hash seeds disagreed the
file lists every value seen: our figure must be one of them (for tables) or agree
to a few ulp with one of them (for macro floats, which we sum exactly rounded).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from contingency import Contingency

GOLDEN = Path(__file__).parent / "golden" / "perl" / "statistics_contingency.json"
DATA = json.loads(GOLDEN.read_text(encoding="utf-8"))
SCENARIOS = DATA["scenarios"]
SCORES = ("accuracy", "error", "precision", "recall", "F1")


def perl_true(value: Any) -> bool:
    """Perl's truth: undef, "", "0" and numeric zero are false; everything else is true."""
    if value is None or value is False or value == "" or value == "0":
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0
    return True


def python_argument(arg: Any) -> Any:
    if isinstance(arg, dict):
        return {key: perl_true(value) for key, value in arg["hash"].items()}
    return arg


def replay(scenario: dict[str, Any], *, unknown: str | None = None) -> Contingency:
    """The scenario's calls in Python (``unknown`` as Perl behaves unless given)."""
    categories = scenario.get("categories", scenario.get("categories_hash"))
    if unknown is None:
        unknown = "ignore" if scenario["has_unknown"] else "error"
    s = Contingency(categories, unknown=unknown)  # type: ignore[arg-type]
    for step in scenario["steps"]:
        if step[0] == "add":
            s.add_result(python_argument(step[1]), python_argument(step[2]))
        else:
            s.set_entries(*step[1:])
    return s


def values(golden: str | list[str]) -> list[float]:
    return [float(v) for v in ([golden] if isinstance(golden, str) else golden)]


def test_the_golden_file_is_the_real_modules_output():
    assert DATA["module_version"] == "0.09"
    assert len(SCENARIOS) > 500


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_matches_perl(scenario: dict[str, Any]) -> None:
    s = replay(scenario)
    micro = scenario["micro"]
    assert s.n_results == scenario["n_results"]
    assert s.micro_table == (micro["a"], micro["b"], micro["c"], micro["d"])
    for name in SCORES:
        # Micro figures do not depend on hash order: they must be Perl's to the last bit.
        assert getattr(s, f"micro_{name.lower()}") == float(micro[name]), name

    if "error_message" in scenario["macro"]:
        message = scenario["macro"]["error_message"]
        for call in (lambda: s.macro_f1, s.category_stats, s.stats_table):
            with pytest.raises(ValueError, match=f"^{message}$"):
                call()
        return

    for name in SCORES:
        ours = getattr(s, f"macro_{name.lower()}")
        perl = values(scenario["macro"][name])
        assert any(math.isclose(ours, v, rel_tol=4e-16 * len(s.categories), abs_tol=1e-300)
                   for v in perl), (name, ours, perl)

    stats = s.category_stats()
    assert set(stats) == set(scenario["category_stats"])
    for category, expected in scenario["category_stats"].items():
        ours = stats[category]
        assert [ours[cell] for cell in "abcd"] == [expected[cell] for cell in "abcd"]
        for name in SCORES:
            assert ours[name.lower()] == float(expected[name]), (category, name)

    for figs_text, tables in scenario["stats_table"].items():
        figs = int(figs_text)
        if figs < 1:
            with pytest.raises(ValueError, match="figs must be an integer >= 1"):
                s.stats_table(figs)
        else:
            assert s.stats_table(figs) in tables, figs
