"""contingency: incremental, exactly mergeable accumulators for classification and clustering scores."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("contingency")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

from contingency._contingency import Contingency

__all__ = ["Contingency", "__version__"]
