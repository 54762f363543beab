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
    """The partition table's implementations to run a test on: the reference, and the kernel.

    The kernel's class is contingency._backend's (the compiled table with the shared
    reads) when the kernel is what this process loaded; otherwise the same class is made
    here from the compiled module, so that a test run under CONTINGENCY_PURE_PYTHON=1
    still compares both. Without a compiled kernel its parameter is skipped, and
    tests/test_backend.py fails in CI, where the kernel must be built.
    """
    import copyreg

    import pytest

    from contingency import _backend
    from contingency._table import Table
    from contingency._table_reference import ReferenceTable

    kernel: object
    if _backend.IMPLEMENTATION == "kernel":
        kernel = _backend.TableClass
    else:
        try:
            from contingency import _kernel
        except ImportError:
            return [pytest.param(ReferenceTable, id="reference"),
                    pytest.param(None, id="kernel",
                                 marks=pytest.mark.skip(reason="the kernel is not built"))]
        kernel = type("KernelTable", (_kernel.KernelTable, Table), {"__slots__": ()})
        copyreg.pickle(kernel, _backend.reduce_table)  # pickled as _backend's own classes are
    return [pytest.param(ReferenceTable, id="reference"), pytest.param(kernel, id="kernel")]
