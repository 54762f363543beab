"""contingency: incremental, exactly mergeable accumulators for classification and clustering scores."""

from contingency._contingency import Contingency
from contingency._grouped import GroupedContingency
from contingency._intervals import IntervalRefused
from contingency._jci import jaccard_concentration_index
from contingency._paired import PairedComparison
from contingency._partition import PartitionComparison
from contingency._similarity import (
    are_subsets_disjoint,
    get_accuracy,
    get_accuracy_and_precision,
    get_distance,
    get_precision,
)
from contingency._threshold import ThresholdContingency
from contingency.formulas.concentration import concentration
from contingency.formulas.intervals import Interval
from contingency.formulas.paired import McNemar, PairedTable
from contingency.formulas.partition import AriSignificance, PairConfusion

__all__ = [
    "AriSignificance",
    "Contingency",
    "GroupedContingency",
    "Interval",
    "IntervalRefused",
    "McNemar",
    "PairConfusion",
    "PairedComparison",
    "PairedTable",
    "PartitionComparison",
    "ThresholdContingency",
    "__version__",
    "are_subsets_disjoint",
    "concentration",
    "get_accuracy",
    "get_accuracy_and_precision",
    "get_distance",
    "get_precision",
    "jaccard_concentration_index",
]


def __getattr__(name: str) -> str:
    # __version__ is read from the installed metadata on first use: importing
    # importlib.metadata costs about 20 ms, a tenth of `import contingency`.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("contingency")
        except PackageNotFoundError:  # a source tree that was not installed
            return "0+unknown"
    raise AttributeError(f"module 'contingency' has no attribute {name!r}")
