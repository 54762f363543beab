"""Our side of the comparisons: where PartitionComparison comes from, and what "every score" reads.

Imports only contingency (and numpy), so the memory probe loads nothing else.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PARTITION_SKIP", "every_constant_time_score", "partition_comparison",
           "partition_on_reference"]

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
