"""Hypothesis strategies shared by the tests: categories, results, streams of results."""

from __future__ import annotations

from hypothesis import strategies as st

#: Category names: short strings and a few integers, as users mix them.
CATEGORY_POOL = ["a", "b", "c", "d", "e", "f", "g", "h", 1, 2, 3]

categories = st.lists(st.sampled_from(CATEGORY_POOL), min_size=1, max_size=7, unique=True)


def results(cats: list[object], *, max_size: int = 30, max_labels: int = 4):
    """Lists of (assigned, correct) pairs of frozensets drawn from ``cats``."""
    side = st.frozensets(st.sampled_from(cats), max_size=min(max_labels, len(cats)))
    return st.lists(st.tuples(side, side), max_size=max_size)


def single_label_results(cats: list[object], *, max_size: int = 40):
    """Lists of (assigned, correct) pairs of single categories drawn from ``cats``."""
    label = st.sampled_from(cats)
    return st.lists(st.tuples(label, label), max_size=max_size)


@st.composite
def categories_and_results(draw, *, single_label: bool = False, min_results: int = 0):
    cats = draw(categories)
    make = single_label_results if single_label else results
    stream = draw(make(cats).filter(lambda rs: len(rs) >= min_results))
    return cats, stream
