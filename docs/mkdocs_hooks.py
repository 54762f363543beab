"""MkDocs hook: leave out of the navigation the pages that do not exist yet.

The navigation names every page the site is meant to have; a page that another piece of
work has not landed yet (the command line's, say) is dropped from it instead of making
``mkdocs build --strict`` fail, and appears by itself once its file exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _existing(entries: list[Any], docs: Path) -> list[Any]:
    kept: list[Any] = []
    for entry in entries:
        if isinstance(entry, dict):
            (title, target), = entry.items()
            if isinstance(target, list):
                target = _existing(target, docs)
                if not target:
                    continue
            elif isinstance(target, str) and not (docs / target).is_file():
                continue
            kept.append({title: target})
        elif not isinstance(entry, str) or (docs / entry).is_file():
            kept.append(entry)
    return kept


def on_config(config: Any) -> Any:
    if config["nav"]:
        config["nav"] = _existing(config["nav"], Path(config["docs_dir"]))
    return config
