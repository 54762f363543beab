"""Our side of the comparisons: where PartitionComparison comes from, and what "every score" reads.

Imports only contingency (and numpy), so the memory probe loads nothing else.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PARTITION_SKIP", "contingency_on_reference", "every_constant_time_score",
           "partition_comparison", "partition_on_reference"]

PARTITION_SKIP = "skipped: PartitionComparison not available"


def partition_comparison() -> tuple[Any, str] | None:
    """``(PartitionComparison, where it was imported from)``, or ``None`` when it does not exist yet.

    The public name is preferred; the implementation module is the fallback
    while the class is not yet exported from ``contingency``.
    """
    try:
        from contingency import PartitionComparison  # type: ignore[attr-defined]
    except ImportError:
        try:
            from contingency._partition import PartitionComparison
        except ImportError:
            return None
        return PartitionComparison, "contingency._partition (not yet exported by contingency)"
    return PartitionComparison, "contingency"


def partition_on_reference() -> type[Any]:
    """PartitionComparison counting with the pure-Python reference table, whatever this process loaded.

    The kernel is what ``PartitionComparison`` uses when it is built; this subclass puts
    the reference (contingency/_table_reference.py) under the same class, so that both
    are measured in one run.
    """
    from contingency import PartitionComparison
    from contingency._table_reference import ReferenceTable

    class OnReference(PartitionComparison):
        def _clear(self) -> None:
            super()._clear()
            self._table = ReferenceTable()

    return OnReference


def contingency_on_reference() -> type[Any]:
    """Contingency counting with the pure-Python reference core, whatever this process loaded.

    Its counts stand on :class:`contingency._counts_reference.CountsCore` (``Counts``' methods
    over the reference's base) and its ``add_result`` is the one written in Python
    (``add_result_reference``), as ``CONTINGENCY_PURE_PYTHON=1`` would give them; its reads
    are the properties' Python readers (the compiled ones call them for a reference core).
    """
    from contingency import Contingency
    from contingency._contingency import add_result_reference
    from contingency._counts import Counts
    from contingency._counts_reference import CountsCore

    if CountsCore in Counts.__mro__:  # (the reference is what this process loaded)
        return Contingency
    body = {name: value for name, value in vars(Counts).items()
            if name not in ("__dict__", "__weakref__") and name not in Counts.__slots__}
    on_reference = type("Counts", (CountsCore,), body)

    class OnReference(Contingency):
        add_result = add_result_reference

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            counts = self._counts
            object.__setattr__(self, "_counts", on_reference(list(counts.ids), hold=counts.hold))

    return OnReference


def every_constant_time_score(comparison: Any) -> dict[str, float]:
    """Every pair-counting and information score except AMI, read from ``comparison``."""
    return {
        "adjusted_rand_index": comparison.adjusted_rand_index,
        "rand_index": comparison.rand_index,
        "fowlkes_mallows": comparison.fowlkes_mallows,
        "jaccard": comparison.jaccard,
        "precision": comparison.precision,
        "recall": comparison.recall,
        "f1": comparison.f1,
        "mutual_information": comparison.mutual_information(),
        "normalized_mutual_information": comparison.normalized_mutual_information(),
        "homogeneity": comparison.homogeneity,
        "completeness": comparison.completeness,
        "v_measure": comparison.v_measure(),
        "variation_of_information": comparison.variation_of_information(),
    }
