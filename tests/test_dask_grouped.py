"""contingency.dask.classify(..., group=...): the grouped accumulator of a Dask DataFrame equals the
one an add_result loop builds from the same rows, whatever the partitioning."""

from __future__ import annotations

import dask
import dask.dataframe as dd
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contingency import GroupedContingency
from contingency.dask import classify

POOL = ["sports", "politics", "science"]


@pytest.fixture(autouse=True)
def _synchronous_scheduler():
    with dask.config.set(scheduler="sync"):
        yield


rows = st.lists(st.tuples(st.sampled_from(POOL), st.sampled_from(POOL),
                          st.sampled_from(["n", "s", "e"]), st.sampled_from([1, 2]),
                          st.sampled_from([0.0, 0.5, 1.0, 3.0])), min_size=1, max_size=30)


@settings(max_examples=25, deadline=None)
@given(rows, st.integers(1, 4), st.booleans())
def test_grouped_classify_equals_the_add_result_loop(data, npartitions, weighted):
    frame = pd.DataFrame(data, columns=["predicted", "truth", "region", "age", "weight"])
    expected = GroupedContingency()
    for chosen, truth, region, age, weight in data:
        expected.add_result(chosen, truth, group=(region, age), weight=weight if weighted else 1)
    result = classify(dd.from_pandas(frame, npartitions=npartitions, sort=False),
                      assigned="predicted", correct="truth", group=["region", "age"],
                      weights="weight" if weighted else None, split_every=2)
    assert result == expected


def test_label_sets_and_one_group_column():
    frame = pd.DataFrame({"predicted": ["a|b", "b", "", "a"], "truth": ["a", "b", "b", "a|b"],
                          "desk": ["x", "y", "x", "y"]})
    expected = GroupedContingency().add_results([("a", "b"), "b", (), "a"], ["a", "b", "b", ("a", "b")],
                                                groups=["x", "y", "x", "y"])
    result = classify(dd.from_pandas(frame, npartitions=3, sort=False), assigned="predicted",
                      correct="truth", label_sep="|", group="desk")
    assert result == expected


def test_a_missing_group_column_is_named():
    frame = dd.from_pandas(pd.DataFrame({"p": ["a"], "t": ["a"]}), npartitions=1)
    with pytest.raises(ValueError, match="no column 'desk'"):
        classify(frame, assigned="p", correct="t", group="desk")


@pytest.mark.parametrize("dtype", [object, "Int64", "string"])
@pytest.mark.parametrize("group", [["region"], ["age", "region"]])
def test_a_missing_group_value_is_named_by_its_column_and_row(dtype, group):
    """A missing value in a group column ended in "boolean value of NA is ambiguous", with
    neither the column nor the row."""
    values = [1, 2, pd.NA] if dtype == "Int64" else ["n", "s", pd.NA]
    frame = pd.DataFrame({"predicted": ["x", "y", "x"], "truth": ["x", "x", "x"],
                          "age": [3, 4, 5], "region": pd.Series(values, dtype=dtype)})
    with pytest.raises(ValueError, match=r"column 'region'\[2\]: a missing value \(<NA>\)"):
        classify(dd.from_pandas(frame, npartitions=1), assigned="predicted", correct="truth",
                 group=group)
