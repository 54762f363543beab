"""Benchmark case of issue 19 item 5: ``from_labels`` on the containers users hold labels in.

The same string labels (K = 1000 short names, about half the results right)
are given to ``Contingency.from_labels`` and ``PartitionComparison.from_labels``
as a numpy string array (the reference: coded without Python objects), a
numpy object array and a Python list of the same strings (what ``.tolist()``
and an object column's ``.to_numpy()`` give), a deque of them, a pandas Series
of Python strings (object dtype, with the default index and with another), a
pandas ``string[python]`` Series, a ``string[pyarrow]`` Series and one of
pandas' default ``str`` dtype, a pandas categorical Series, a pyarrow array,
ChunkedArray and dictionary array. The containers are
built before the clock starts; each contestant is timed alternately with the
numpy one in every round, so the ratio holds on a shared machine. Every
state must equal the numpy one's (``==``) before a figure is reported.
Target: each container within 1.5x of the numpy string array; and the
containers of Python objects (the object Series, the ``string[python]``
Series, the deque) within 1.2x of the numpy object array of the same strings,
since each is coded by the same pass over its objects (issue 30).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from contingency import Contingency, PartitionComparison
from tests.benchmarks.data import category_names, label_arrays
from tests.benchmarks.harness import CheckFailed, Contestant, Row, measure

__all__ = ["containers_from_labels"]

K = 1000
#: How far above the numpy string array a container may be.
LIMIT = 1.5
#: How far above the numpy object array a container of the same Python objects may be.
OBJECT_LIMIT = 1.2
#: The containers of Python objects, against the numpy object array.
OBJECT_HOLDERS = ("deque of str", "pandas object Series", "pandas object Series, another index",
                  "pandas string[python] Series")


def _containers(strings: np.ndarray) -> dict[str, Any]:
    """The labels in each container, numpy's first."""
    import pandas as pd
    import pyarrow as pa

    listed = strings.tolist()
    half = len(listed) // 2
    return {
        "numpy str array": strings,
        "numpy object array": np.array(listed, dtype=object),
        "Python list of str": listed,
        "deque of str": deque(listed),
        "pandas object Series": pd.Series(listed, dtype=object),
        "pandas object Series, another index": pd.Series(listed, dtype=object,
                                                         index=np.arange(len(listed))[::-1]),
        "pandas string[python] Series": pd.Series(listed, dtype="string[python]"),
        "pandas string[pyarrow] Series": pd.Series(strings, dtype="string[pyarrow]"),
        "pandas default str Series": pd.Series(listed),
        "pandas categorical Series": pd.Series(strings, dtype="category"),
        "pyarrow array": pa.array(listed, pa.string()),
        "pyarrow ChunkedArray": pa.chunked_array([pa.array(listed[:half], pa.string()),
                                                  pa.array(listed[half:], pa.string())]),
        "pyarrow dictionary array": pa.array(listed, pa.string()).dictionary_encode(),
    }


def _same(values: list[Any]) -> str:
    for value in values[1:]:
        if value != values[0]:
            raise CheckFailed("a container gave another state than the numpy string array")
    return "every state == the numpy string array's"


def containers_from_labels(config: Any) -> list[Row]:
    sizes = (200_000,) if config.quick else (200_000, 1_000_000)
    operations: list[tuple[str, Callable[[Any, Any], Any]]] = [
        ("Contingency.from_labels", lambda truth, predicted: Contingency.from_labels(
            truth, predicted)),
        ("PartitionComparison.from_labels", PartitionComparison.from_labels),
    ]
    rows = []
    for n in sizes:
        size = f"K={K}, {n:,} labels"
        try:
            assigned, correct = label_arrays(n, K)
            names = np.array(category_names(K))
            held = {form: (_containers(names[correct])[form], values)
                    for form, values in _containers(names[assigned]).items()}
        except ImportError as missing:
            rows.extend(Row(f"{operation} on a {form}", size, "s", status_override="SKIP",
                            notes=f"skipped: {missing.name} not installed")
                        for operation, _ in operations for form in ("pandas Series",
                                                                    "pyarrow array"))
            continue
        for operation, run in operations:
            contestants = [Contestant(form, lambda pair=pair, run=run: run(*pair))
                           for form, pair in held.items()]
            timings, verdict = measure(contestants, config.repeat, _same)
            numpy_time = timings[0].median
            for timing in timings[1:]:
                rows.append(Row(
                    f"{operation} on a {timing.name}", size, "s", ours=timing.median,
                    peer_name="numpy str array", peer=numpy_time,
                    target=f"ours <= {LIMIT}x numpy str array",
                    passed=timing.median <= LIMIT * numpy_time, check=verdict,
                    notes=f"{timing.median / numpy_time:.2f}x the numpy string array",
                    timings=[timing, timings[0]]))
            objects = timings[1]  # the numpy object array
            for timing in timings:
                if timing.name in OBJECT_HOLDERS:
                    rows.append(Row(
                        f"{operation} on a {timing.name}, against a numpy object array", size,
                        "s", ours=timing.median, peer_name="numpy object array",
                        peer=objects.median,
                        target=f"{timing.name} <= {OBJECT_LIMIT} x object array",
                        passed=timing.median <= OBJECT_LIMIT * objects.median, check=verdict,
                        notes=f"{timing.median / objects.median:.2f}x the numpy object array",
                        timings=[timing, objects]))
    return rows
