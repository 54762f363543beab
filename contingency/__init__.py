"""contingency: incremental, exactly mergeable accumulators for classification and clustering scores."""

from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _version

try:
    __version__ = _version("contingency")
except _PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

from contingency._contingency import Contingency
from contingency._jci import jaccard_concentration_index
from contingency.formulas.concentration import concentration

__all__ = ["Contingency", "__version__", "concentration", "jaccard_concentration_index"]
