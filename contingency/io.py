"""Reading labels by column from decision files (CSV, TSV, JSON Lines, three-field). Knows no metric.

The formats:

- ``csv`` and ``tsv``: one result per row, fields separated by ``sep`` (Python's
  :mod:`csv` dialect: quotes, embedded separators and newlines). Columns are
  named by a header row or numbered from 1. Blank rows are skipped.
- ``jsonl``: one JSON object per line, columns are its keys; a value is a
  string or an integer label, a list of them for several (``null`` or ``[]``
  for none). Blank lines are skipped.
- ``three-field``: the historical decision file, one result per line:
  ``name<TAB>assigned<TAB>correct``, several categories in a field separated by
  commas. Blank lines and lines starting with ``#`` are skipped; a first line
  reading ``name<TAB>assigned<TAB>correct`` (in any case) is a header.

A header row is never read as a result: with ``header=None`` the first row is
a header when it holds every column name asked for (compared without case),
and none when every column is asked for by number; ``header=True`` or
``False`` says so. Text cells hold several labels separated by ``label_sep``
(surrounding spaces dropped, empty parts ignored). Results come in chunks of
plain lists, for the accumulators' batch paths. Every error is an
:class:`InputError` naming the file and the line.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePath
from typing import Any, Literal

from attrs import frozen

from contingency._lines import MAX_LINE, InputError

__all__ = ["CHUNK", "MAX_ROW", "Chunk", "Format", "InputError", "LabelReader", "guess_format"]

Format = Literal["csv", "tsv", "jsonl", "three-field"]
#: Results per chunk.
CHUNK = 8192
#: The longest CSV or TSV row accepted, in bytes over all its lines (quoted fields may hold
#: newlines, so a row of lines each within the line limit could otherwise grow without bound).
MAX_ROW = MAX_LINE
_THREE_FIELDS = ("name", "assigned", "correct")
_JSON_SUFFIXES = {".jsonl", ".ndjson", ".json"}


def guess_format(path: str, sep: str | None = None, *, named_columns: bool = True) -> Format:
    """The format of ``path``: JSON Lines by extension, else CSV or TSV by ``sep`` or by extension.

    A tab-separated file read without column names (``named_columns=False``)
    is in the three-field format.

    >>> guess_format("run.csv"), guess_format("run.jsonl"), guess_format("run.txt", ",")
    ('csv', 'jsonl', 'csv')
    >>> guess_format("run.tsv"), guess_format("run.tsv", named_columns=False)
    ('tsv', 'three-field')
    """
    suffix = PurePath(path).suffix.lower()
    if suffix in _JSON_SUFFIXES and sep is None:
        return "jsonl"
    if sep is None:
        sep = "," if suffix == ".csv" else "\t"
    if sep == "\t":
        return "tsv" if named_columns else "three-field"
    return "csv"


@frozen
class Chunk:
    """Up to :data:`CHUNK` results: their line numbers, and one list of cells per column asked for.

    A cell is a label (``str`` or ``int``), or, where several labels are
    allowed, a tuple of labels for none or several.
    """

    lines: list[int]
    columns: tuple[list[Any], ...]


def _is_number(column: str) -> bool:
    return column.isdigit() and int(column) >= 1


def _bytes(line: str) -> int:
    """The length of ``line`` in UTF-8 bytes (``isascii`` is constant-time: no encoding for ASCII)."""
    return len(line) if line.isascii() else len(line.encode("utf-8"))


class LabelReader:
    """Reads the labels of some columns of a decision file, in chunks, and counts what it skipped.

    >>> reader = LabelReader(["id,assigned,correct\\n", "1,a|b,a\\n", "\\n", "2,,b\\n"], "run.csv",
    ...                      "csv", ["assigned", "correct"])
    >>> [(chunk.lines, chunk.columns) for chunk in reader.chunks()]
    [([2, 4], ([('a', 'b'), ()], ['a', 'b']))]
    >>> reader.results, reader.skipped  # the header and the blank line
    (2, 2)
    """

    def __init__(self, lines: Iterable[str], source: str, format: Format, columns: Sequence[str], *,
                 multi: bool = True, header: bool | None = None, sep: str | None = None,
                 label_sep: str | None = None, chunk: int = CHUNK) -> None:
        if format == "jsonl" and header is not None:
            raise InputError("--header and --no-header apply to CSV and TSV files, not JSON Lines")
        if format == "three-field" and len(columns) != 2:
            raise InputError("the three-field format has two label columns (assigned, correct)")
        self._lines = lines
        self.source = source
        self.format = format
        self.columns = tuple(columns)
        self._multi = multi
        self._header = header
        self._sep = sep if sep is not None else ("," if format == "csv" else "\t")
        self._label_sep = label_sep if label_sep is not None else (
            "," if format == "three-field" else "|")
        self._chunk = chunk
        #: The number of the last line read.
        self.line = 0
        #: The line the CSV or TSV row being read starts on.
        self._row_start = 1
        #: Results read.
        self.results = 0
        #: Lines read and not results: the header, blank lines and comments.
        self.skipped = 0

    # Chunks -------------------------------------------------------------------------------

    def chunks(self) -> Iterator[Chunk]:
        """The results, :data:`CHUNK` at a time; ``InputError`` at the first bad line."""
        records = {"csv": self._delimited, "tsv": self._delimited, "jsonl": self._json_lines,
                   "three-field": self._three_fields}[self.format]()
        lines: list[int] = []
        columns: tuple[list[Any], ...] = tuple([] for _ in self.columns)
        for number, cells in records:
            lines.append(number)
            for column, cell in zip(columns, cells):
                column.append(cell)
            if len(lines) == self._chunk:
                self.results += len(lines)
                yield Chunk(lines, columns)
                lines, columns = [], tuple([] for _ in self.columns)
        if lines:
            self.results += len(lines)
            yield Chunk(lines, columns)

    def _numbered(self) -> Iterator[str]:
        for line in self._lines:
            self.line += 1
            yield line

    def _row_lines(self) -> Iterator[str]:
        """The lines, numbered, with a bound on each row: :data:`MAX_ROW` bytes over all its lines.

        A row of one line is within the line limit already; a row that goes on
        (a quoted field holding a newline) is measured from its first line, and
        refused, naming that line, as soon as it passes the bound: the csv
        module would hold it whole however long it grew.
        """
        first, size = "", -1  # the row's first line; its bytes so far, -1 while it is one line
        for line in self._lines:
            self.line += 1
            if self.line == self._row_start:
                first, size = line, -1
            else:
                size = (_bytes(first) if size < 0 else size) + _bytes(line)
                if size > MAX_ROW:
                    raise self._error(f"a row longer than {MAX_ROW} bytes (the limit of a row, "
                                      "over the lines its quoted fields span)", self._row_start)
            yield line

    def _error(self, message: str, line: int | None = None) -> InputError:
        return InputError(f"{self.source} line {self.line if line is None else line}: {message}")

    # Cells --------------------------------------------------------------------------------

    def _text_cell(self, text: str, column: str) -> Any:
        if self._multi:
            if self._label_sep not in text:
                label = text.strip()
                return label if label else ()
            labels = tuple(part for part in (item.strip() for item in text.split(self._label_sep))
                           if part)
            return labels[0] if len(labels) == 1 else labels
        label = text.strip()
        if not label:
            raise self._error(f"empty label in column {column!r}")
        return label

    def _json_cell(self, value: Any, column: str) -> Any:
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        if self._multi and value is None:
            return ()
        if self._multi and isinstance(value, list):
            for item in value:
                if not isinstance(item, (str, int)) or isinstance(item, bool):
                    raise self._error(f"key {column!r} holds {item!r} in its list; a label is a "
                                      "string or an integer")
            return tuple(value)
        wanted = "a string, an integer or a list of them" if self._multi else "a string or an integer"
        raise self._error(f"key {column!r} holds {json.dumps(value)}; expected {wanted}")

    # Formats ------------------------------------------------------------------------------

    def _positions(self, first: list[str], header: bool, line: int) -> list[int]:
        """The field index of each column: by name if ``first`` (at ``line``) is a header, else by number."""
        names = [cell.strip().casefold() for cell in first]
        if not header:
            for column in self.columns:
                if _is_number(column):
                    continue
                if self._header is False:
                    raise InputError(f"{self.source}: without a header row, columns are numbers "
                                     f"(1 for the first), not {column!r}")
                # Not told: the first row was taken for data because it lacks a column's name.
                missing = next(name for name in self.columns if name.casefold() not in names)
                raise self._error(f"no column {missing!r} in the first row "
                                  f"({', '.join(map(repr, first))}), so it is not a header, and "
                                  "without a header row, columns are numbers (1 for the first)",
                                  line)
            return [int(column) - 1 for column in self.columns]
        positions = []
        for column in self.columns:
            if column.casefold() in names:
                positions.append(names.index(column.casefold()))
            elif _is_number(column) and int(column) <= len(first):
                positions.append(int(column) - 1)
            else:
                raise self._error(f"no column {column!r} in the header "
                                  f"({', '.join(map(repr, first))})")
        return positions

    def _delimited(self) -> Iterator[tuple[int, list[Any]]]:
        reader = csv.reader(self._row_lines(), delimiter=self._sep, strict=True)
        old_limit = csv.field_size_limit()
        csv.field_size_limit(max(old_limit, 2**20))  # a field may fill a whole line
        try:
            positions: list[int] | None = None
            while True:
                start = self._row_start = self.line + 1
                try:
                    row = next(reader)
                except StopIteration:
                    break
                except csv.Error as problem:
                    raise self._error(f"malformed {self.format.upper()} row ({problem})",
                                      start) from None
                if not row or row == [""]:
                    self.skipped += 1
                    continue
                if positions is None:
                    header = self._header
                    if header is None:
                        names = {cell.strip().casefold() for cell in row}
                        header = (not all(_is_number(column) for column in self.columns)
                                  and all(column.casefold() in names for column in self.columns))
                    positions = self._positions(row, header, start)
                    last = max(positions)
                    if header:
                        self.skipped += 1
                        continue
                if len(row) <= last:
                    raise self._error(f"{len(row)} field{'' if len(row) == 1 else 's'}, but column "
                                      f"{self.columns[positions.index(last)]!r} is field {last + 1}",
                                      start)
                yield start, [self._text_cell(row[position], column)
                              for position, column in zip(positions, self.columns)]
        finally:
            csv.field_size_limit(old_limit)

    def _three_fields(self) -> Iterator[tuple[int, list[Any]]]:
        first = True
        for line in self._numbered():
            text = line.rstrip("\r\n")
            if not text.strip() or text.lstrip().startswith("#"):
                self.skipped += 1
                continue
            fields = text.split("\t")
            if len(fields) != 3:
                raise self._error(f"expected 3 tab-separated fields (name, assigned, correct), "
                                  f"found {len(fields)}")
            if first:
                first = False
                is_header = tuple(field.strip().casefold() for field in fields) == _THREE_FIELDS
                if is_header if self._header is None else self._header:
                    self.skipped += 1
                    continue
            yield self.line, [self._text_cell(fields[1], "assigned"),
                              self._text_cell(fields[2], "correct")]

    def _json_lines(self) -> Iterator[tuple[int, list[Any]]]:
        for line in self._numbered():
            if not line.strip():
                self.skipped += 1
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as problem:
                raise self._error(f"invalid JSON ({problem.msg} at column {problem.pos + 1})") from None
            except (ValueError, RecursionError) as problem:  # an integer of over 4300 digits;
                # arrays or objects nested past the interpreter's recursion limit
                raise self._error(f"invalid JSON ({problem})") from None
            if not isinstance(record, dict):
                raise self._error(f"expected a JSON object, found {type(record).__name__}")
            cells = []
            for column in self.columns:
                if column not in record:
                    raise self._error(f"no key {column!r} (keys: {', '.join(map(repr, record))})")
                cells.append(self._json_cell(record[column], column))
            yield self.line, cells
