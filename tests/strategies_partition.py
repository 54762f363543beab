"""Hypothesis strategies for partition comparisons: labelings, including the degenerate ones."""

from __future__ import annotations

from hypothesis import strategies as st

#: Labels as users mix them: small integers and short strings.
LABEL_POOL = [0, 1, 2, 3, 4, 5, "a", "b", "c"]


@st.composite
def labelings(draw, *, min_size: int = 0, max_size: int = 40, integers: bool = False):
    """A pair of equal-length label lists (reference, model).

    Drawn from few or many clusters, so that the degenerate cases come up
    often: no elements, one element, a single cluster on a side, every
    element alone, identical partitions.
    """
    size = draw(st.integers(min_size, max_size))
    shape = draw(st.sampled_from(["random", "random", "random", "single", "singletons",
                                  "identical", "relabelled"]))
    pool = list(range(6)) if integers else LABEL_POOL
    width = draw(st.integers(1, len(pool)))
    label = st.sampled_from(pool[:width])
    reference = draw(st.lists(label, min_size=size, max_size=size))
    if shape == "single":
        model = [pool[0]] * size
    elif shape == "singletons":
        model = list(range(size))
    elif shape == "identical":
        model = list(reference)
    elif shape == "relabelled":
        mapping = {old: new for new, old in enumerate(dict.fromkeys(reference))}
        model = [mapping[old] + 100 for old in reference]
    else:
        model = draw(st.lists(label, min_size=size, max_size=size))
    if draw(st.booleans()):
        reference, model = model, reference
    return reference, model


integer_labelings = labelings(integers=True)


def implementations() -> list[object]:
    """The partition table's implementations to run a test on: the reference, so far."""
    import pytest

    from contingency._table_reference import ReferenceTable

    return [pytest.param(ReferenceTable, id="reference")]
