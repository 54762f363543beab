"""contingency.formulas.classification: one table scores alike as scalars and as arrays, at any size."""

from __future__ import annotations

import math

from hypothesis import example, given
from hypothesis import strategies as st

from contingency import Contingency
from contingency.formulas import classification as formulas

_SCORES = [formulas.precision, formulas.recall, formulas.f1, formulas.accuracy, formulas.error,
           formulas.specificity, formulas.matthews_corrcoef]
# Small counts, counts around 2**53 (where doubles stop being exact) and past 2**60
# (where Python ints, not int64, are summed exactly).
_COUNT = st.one_of(st.integers(0, 10), st.integers(2**52, 2**54), st.integers(2**59, 2**70))
_TABLE = st.tuples(_COUNT, _COUNT, _COUNT, _COUNT)
_HUGE = (2**62, 2**62 + 1, 3, 2**61)


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


@given(_TABLE, st.sampled_from(["perl", 0.0, 1.0, "nan"]))
@example(_HUGE, "perl")  # crashed: a sum of 0-d object arrays is a plain int, with no dtype
@example(_HUGE, 0.0)  # crashed: a plain int past int64 added to an int64 cell
def test_a_scalar_table_scores_as_a_one_table_array(table, mode):
    for score in _SCORES:
        scalar = float(score(*table, zero_division=mode))
        (array,) = score(*([cell] for cell in table), zero_division=mode).tolist()
        assert _same(scalar, array), score.__name__


@given(_TABLE)
@example(_HUGE)
def test_sums_stay_exact_before_the_one_rounding(table):
    """scikit-learn's arithmetic on exact integer sums: each side rounded once, then divided."""
    a, b, c, d = table
    expected = {
        formulas.precision: (a, a + b),
        formulas.recall: (a, a + c),
        formulas.f1: (2 * a, 2 * a + b + c),
        formulas.accuracy: (a + d, a + b + c + d),
        formulas.error: (b + c, a + b + c + d),
    }
    for score, (numerator, denominator) in expected.items():
        value = float(score(a, b, c, d, zero_division=0.0))
        assert value == (float(numerator) / float(denominator) if denominator else 0.0)


def test_micro_scores_of_huge_set_entries():
    s = Contingency(["x", "y"])
    s.set_entries(*_HUGE)
    assert s.micro_table == _HUGE
    assert (s.micro_precision, s.micro_recall, s.micro_f1) == (0.5, 1.0, 2 / 3)
    assert (s.micro_accuracy, s.micro_error) == (0.6, 0.4)
    assert "0.667" in s.stats_table()


_VECTOR_SCORES = [formulas.precision, formulas.recall, formulas.f1, formulas.accuracy,
                  formulas.error, formulas.specificity, formulas.jaccard]
# Counts that numpy scores a column at a time (their sums below 2**53), with the edges of that
# bound, and the weighted counts users give as floats (NaN and infinity included).
_SMALL = st.one_of(st.integers(0, 6), st.integers(2**50 - 3, 2**50))
_FLOAT = st.one_of(st.floats(0, 10, allow_subnormal=False), st.sampled_from(
    [0.0, 0.1, 1 / 3, 2.0**-40, float("nan"), float("inf")]))


@given(st.lists(st.tuples(_SMALL, _SMALL, _SMALL, _SMALL), min_size=1, max_size=12),
       st.lists(st.tuples(_FLOAT, _FLOAT, _FLOAT, _FLOAT), min_size=1, max_size=12),
       st.sampled_from(["perl", 0.0, 1.0, "nan"]))
@example([(0, 0, 0, 5), (0, 3, 0, 1), (0, 0, 3, 1), (2**50, 2**50 - 1, 3, 0)],
         [(0.0, 0.0, 0.5, 1.0), (0.5, 0.0, 0.0, 0.0)], "perl")
def test_a_column_of_tables_scores_as_each_table_alone(tables, weighted, mode):
    """Columns of int64 and float64 counts take numpy's path; each value is the scalar one, bit for bit."""
    import numpy as np

    for rows in (tables, weighted):
        columns = [np.array(column) for column in zip(*rows)]
        assert columns[0].dtype.kind in "if"
        for score in _VECTOR_SCORES:
            values = score(*columns, zero_division=mode).tolist()
            for table, value in zip(rows, values):
                scalar = float(score(*table, zero_division=mode))
                assert _same(scalar, value), (score.__name__, table, scalar, value)
                assert math.copysign(1, scalar) == math.copysign(1, value), score.__name__
