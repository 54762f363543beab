"""The registry of scores: every view shows what the registry declares, and a new row shows everywhere."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import Contingency, GroupedContingency, PairedComparison
from contingency import _registry as registry
from contingency._contingency import install_average_properties
from contingency._group_scores import score_reader
from contingency.formulas.classification import _elementwise

_CELLS = st.integers(0, 50)


@given(_CELLS, _CELLS, _CELLS, _CELLS, _CELLS)
def test_a_macro_average_kept_by_running_sums_reads_no_d(a, b, c, d, other_d):
    """The running sums (contingency._category_sums) score a category from a, b and c: d changes
    with every result. A row averaged over categories without a closed form must not read d."""
    for row in registry.TABLE.values():
        if {"macro", "weighted"} & set(row.averages) and row.pooled is None:
            first, second = row.scalar(a, b, c, d, "nan"), row.scalar(a, b, c, other_d, "nan")
            assert first == second or (math.isnan(first) and math.isnan(second)), row.name


def test_every_property_the_registry_declares_is_a_property_of_contingency():
    sample = Contingency(["a", "b", "c"]).add_results([["a", "b"], "a", "c"], [["a"], "b", "c"])
    for name in registry.property_names():
        assert isinstance(getattr(Contingency, name), property), name
        assert isinstance(getattr(sample, name), float), name
    micro = sample.micro_table
    for average, row in registry._averaged():
        if average == "micro":
            assert getattr(sample, f"micro_{row.name}") == float(row.formula(*micro)), row.name


def test_the_views_show_exactly_the_rows_that_ask_for_them():
    sample = Contingency().add_results(["x", "y", "x"], ["x", "x", "y"])
    record = sample.category_stats()["x"]
    assert list(record) == ["a", "b", "c", "d", *registry.record_names(), "support"]
    scores = sample.scores(0.95)
    for average in registry.AVERAGES:
        shown = [name for name in scores["averages"][average] if name != "support"]
        assert shown == [name for name in registry.report_names()
                         if average in registry.TABLE[name].averages]
    assert list(scores["intervals"]["micro"]) == list(registry.report_names())
    header = sample.report().splitlines()[0].split()
    assert header == [*registry.report_names(), "support"]
    paired = PairedComparison().add_results(["x", "y"], ["x", "x"], ["x", "y"]).scores()
    assert list(paired["a"]) == list(registry.paired_names())
    for name in registry.property_names():
        assert score_reader(name)[0] == name
    for name in registry.TABLE:
        assert score_reader((name, "x"))[0] == (name, "x")
    for name in registry.macro_interval_names():
        assert sample.interval(name, method="delta").low <= getattr(sample, name)


def _throwaway_scalar(a, b, c, d, mode):
    # A made-up score of a, b and c: the share of a category's named results it got right, squared.
    named = a + b + c
    return (a / named) ** 2 if named else 1.0


def _throwaway(a, b, c, d, *, zero_division="perl"):
    return _elementwise(_throwaway_scalar, (a, b, c, d), zero_division)


@pytest.fixture
def throwaway():
    """A throwaway score registered like its siblings (every average, a record, a report column)."""
    row = registry.TableScore("throwaway", _throwaway, _throwaway_scalar, "``(a / (a + b + c))**2``",
                              registry.AVERAGES, record=True, report=True)
    registry.register(row)
    install_average_properties(Contingency)
    try:
        yield row
    finally:
        registry.unregister(row.name)
        for average in registry.AVERAGES:
            delattr(Contingency, f"{average}_{row.name}")


def test_a_new_row_shows_wherever_its_siblings_do(throwaway):
    sample = Contingency().add_results(["x", "y", "x", "z"], ["x", "x", "y", "z"])
    # The properties, each its formula's average.
    cells = {label: (record["a"], record["b"], record["c"], record["d"])
             for label, record in sample.category_stats().items()}
    values = [_throwaway_scalar(*cell, "perl") for cell in cells.values()]
    assert sample.micro_throwaway == _throwaway_scalar(*sample.micro_table, "perl")
    assert sample.macro_throwaway == pytest.approx(sum(values) / len(values), rel=1e-15)
    assert sample.samples_throwaway == 0.5  # two results right (1 each), two wrong (0 each)
    assert isinstance(sample.weighted_throwaway, float)
    # Each category's record, scores(), report(), to a column.
    assert sample.category_stats()["x"]["throwaway"] == _throwaway_scalar(*cells["x"], "perl")
    scores = sample.scores(0.95)
    assert [record["throwaway"] for record in scores["categories"]] == values
    for average in registry.AVERAGES:
        assert scores["averages"][average]["throwaway"] == getattr(sample, f"{average}_throwaway")
    assert scores["intervals"]["micro"]["throwaway"] is None  # no interval declared
    assert "throwaway" in sample.report().splitlines()[0].split()
    assert "throwaway" in sample.report(intervals=0.9).splitlines()[0]
    # By group: every property and (score, category).
    grouped = GroupedContingency().add_results(["x", "y"], ["x", "x"], groups=["g", "h"])
    assert grouped.by_group("macro_throwaway") == {"g": 1.0, "h": 0.0}
    assert score_reader(("throwaway", "x"))[1](sample) == _throwaway_scalar(*cells["x"], "perl")
    # Each model's scores of a paired comparison, and its report.
    paired = PairedComparison().add_results(["x", "y"], ["x", "x"], ["x", "y"])
    assert paired.scores()["a"]["macro_throwaway"] == 1.0
    assert "micro throwaway" in paired.report()
    # No interval was declared: interval() refuses it, naming those that exist.
    with pytest.raises(ValueError, match="no interval for this score"):
        sample.interval("macro_throwaway")
