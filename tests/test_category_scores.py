"""contingency._category_scores: per-category columns give the records, averages and JSON of scalar reads."""

from __future__ import annotations

import json
import math

from hypothesis import example, given
from hypothesis import strategies as st

from contingency import Contingency
from contingency.formulas import classification as formulas
from contingency.report import json_text
from tests.strategies import categories_and_results

_MODES = st.sampled_from(["perl", 0.0, 1.0, "nan"])
# Counts in results, fractional ones (a unit below 1) and counts past 2**53 (exact Python ints).
_WEIGHTS = st.sampled_from([None, 0.25, 1 / 3, 3, 2**56])


def _accumulator(cats, stream, mode, weight, declare):
    accumulator = Contingency(cats if declare else None, zero_division=mode)
    for assigned, correct in stream:
        if weight is None:
            accumulator.add_result(assigned, correct)
        else:
            accumulator.add_result(assigned, correct, weight=weight)
    return accumulator


def _none(value: float) -> float | None:
    return None if math.isnan(value) else value


@given(categories_and_results(), _MODES, _WEIGHTS, st.booleans())
@example((["a", "b"], [({"a"}, {"b"})]), "nan", 1 / 3, True)
@example((["a", 1], [({"a"}, {"a"}), ({1}, set())]), "perl", 2**56, False)
def test_averages_of_the_columns_are_the_running_sums(case, mode, weight, declare):
    """scores()' macro, weighted and Jaccard averages (from the columns) equal the O(1) reads, bit for bit."""
    accumulator = _accumulator(*case, mode, weight, declare)
    if not accumulator.categories:
        return
    averages = accumulator.scores()["averages"]
    read = accumulator.copy()  # a fresh copy: its reads make the running sums
    for name in ("precision", "recall", "f1"):
        assert averages["macro"][name] == _none(getattr(read, f"macro_{name}"))
        assert averages["weighted"][name] == _none(getattr(read, f"weighted_{name}"))
    jaccard = accumulator.scores()["jaccard"]
    assert jaccard["macro"] == _none(read.jaccard("macro"))
    assert jaccard["weighted"] == _none(read.jaccard("weighted"))


@given(categories_and_results(), _MODES, _WEIGHTS)
def test_each_record_is_the_scalar_scores_of_its_cells(case, mode, weight):
    """Each category's scores, scored one table at a time from its exact counts (Python ints)."""
    accumulator = _accumulator(*case, mode, weight, True)
    stats = accumulator.category_stats()
    counts = accumulator._counts
    for label, record in stats.items():
        a, b, c = counts.a[label], counts.b[label], counts.c[label]
        exact = (a, b, c, counts.n - a - b - c)
        assert [record[cell] for cell in "abcd"] == [counts.reported(cell) for cell in exact]
        assert record["support"] == counts.reported(a + c)
        for name, score in (("precision", formulas.precision), ("recall", formulas.recall),
                            ("f1", formulas.f1), ("accuracy", formulas.accuracy),
                            ("error", formulas.error), ("specificity", formulas.specificity)):
            expected = float(score(*exact, zero_division=mode))
            assert record[name] == expected or (math.isnan(expected) and math.isnan(record[name])), (
                label, name)


# Labels as the command line meets them, and those whose JSON needs escapes or is not a string.
_LABELS = st.sampled_from(["a", 'q"uote', "back\\slash", "é", "\u2028", "%s", 0, 7, -3, True,
                           1.5, "tab\t"])


@given(st.lists(st.tuples(_LABELS, _LABELS), max_size=40), _MODES,
       st.sampled_from([None, 0.5, 1 / 3]), st.sampled_from([None, 0.9]))
@example([(1, 1), (2, 1)], "nan", None, 0.95)
def test_streamed_json_is_json_dumps_of_scores(pairs, mode, weight, intervals):
    """The command line's writer: json.dumps(scores(), indent=2) character for character."""
    accumulator = Contingency(zero_division=mode)
    for assigned, correct in pairs:
        accumulator.add_result(assigned, correct, weight=1 if weight is None else weight)
    expected = json.dumps(accumulator.scores(intervals), indent=2, allow_nan=False)
    scores = accumulator._scores(intervals)
    scores["categories"] = scores["categories"].json_records()
    assert "".join(json_text(scores)) == expected


@given(st.lists(st.tuples(_LABELS, _LABELS), max_size=30), _MODES, st.sampled_from([None, 0.9]))
def test_report_from_columns_is_the_report_of_the_records(pairs, mode, intervals):
    """report() makes its rows from the columns, a few at a time: the text of scores()' records."""
    from contingency.report import classification_report

    accumulator = Contingency(zero_division=mode)
    for assigned, correct in pairs:
        accumulator.add_result(assigned, correct)
    expected = classification_report(accumulator.scores(intervals), digits=4)
    assert accumulator.report(digits=4, intervals=intervals) == expected
