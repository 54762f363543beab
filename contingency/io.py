"""Reading decisions from text. Knows the file format, not the scores.

A decision file has one result per line, three tab-separated fields: a name,
the categories assigned, the correct categories. Several categories in a field
are separated by commas (surrounding spaces are dropped); an empty field means
no category. Blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

__all__ = ["Decision", "read_decisions"]


class Decision(NamedTuple):
    """One line of a decision file."""

    name: str
    assigned: tuple[str, ...]
    correct: tuple[str, ...]


def _categories(field: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in field.split(",") if part.strip())


def read_decisions(lines: Iterable[str], source: str = "<input>") -> Iterator[Decision]:
    """Parse decision lines; a malformed line raises ``ValueError`` naming ``source`` and its number.

    >>> list(read_decisions(["doc1\\tsports\\tsports, health", "# comment", "doc2\\t\\tnews"]))
    [Decision(name='doc1', assigned=('sports',), correct=('sports', 'health')), \
Decision(name='doc2', assigned=(), correct=('news',))]
    >>> list(read_decisions(["doc1 sports sports"], "run.tsv"))
    Traceback (most recent call last):
    ...
    ValueError: run.tsv line 1: expected 3 tab-separated fields (name, assigned, correct), found 1
    """
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise ValueError(f"{source} line {number}: expected 3 tab-separated fields "
                             f"(name, assigned, correct), found {len(fields)}")
        name, assigned, correct = fields
        yield Decision(name.strip(), _categories(assigned), _categories(correct))
