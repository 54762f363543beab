"""Reading labels by column from decision files (CSV, TSV, JSON Lines, three-field). Knows no metric.

The formats:

- ``csv`` and ``tsv``: one result per row, fields separated by ``sep`` (Python's
  :mod:`csv` dialect: quotes, embedded separators and newlines). Columns are
  named by a header row or numbered from 1. Every row has as many fields as the
  first (the header, if there is one). Blank rows are skipped.
- ``jsonl``: one JSON object per line, columns are its keys; a value is a
  string or an integer label, a list of them for several (``null`` or ``[]``
  for none). Blank lines are skipped.
- ``three-field``: the historical decision file, one result per line:
  ``name<TAB>assigned<TAB>correct``, several categories in a field separated by
  commas. Blank lines and lines starting with ``#`` are skipped; a first line
  reading ``name<TAB>assigned<TAB>correct`` (in any case) is a header.

A header row is never read as a result. With ``header=None`` the first row is
a header when it holds every column name asked for (compared without case).
When every column is asked for by number, it is a header when none of the
labels it holds in those columns appears again in the same column in the
rows after it (up to :data:`LOOKAHEAD` of them, fewer if they are long): a
header names its columns, a result holds their labels; with no row after it
to tell, the reader asks for ``--header`` or ``--no-header``. ``header=True``
or ``False`` decides in every case. Text cells hold several labels separated
by ``label_sep`` (surrounding spaces dropped, empty parts ignored). Results come in chunks of
plain lists, for the accumulators' batch paths. Every error is an
:class:`InputError` naming the file and the line.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePath
from typing import Any, Literal

from attrs import frozen

from contingency._lines import MAX_LINE, InputError

__all__ = ["CHUNK", "CHUNK_CHARACTERS", "LOOKAHEAD", "MAX_ROW", "Chunk", "Format", "InputError",
           "LabelReader", "first_line", "guess_format"]

Format = Literal["csv", "tsv", "jsonl", "three-field"]
#: Results per chunk, at most.
CHUNK = 8192
#: Characters read per chunk, at most (the chunk ends at the row that passes it): a chunk of
#: :data:`CHUNK` rows of the longest lines would otherwise hold gigabytes of labels.
CHUNK_CHARACTERS = 1 << 24
#: The longest CSV or TSV row accepted, in bytes over all its lines (quoted fields may hold
#: newlines, so a row of lines each within the line limit could otherwise grow without bound).
MAX_ROW = MAX_LINE
#: Rows read after a first row to tell whether it is a header, when columns are given by number.
LOOKAHEAD = 1000
_THREE_FIELDS = ("name", "assigned", "correct")
_JSON_SUFFIXES = {".jsonl", ".ndjson", ".json"}
_TAB_SUFFIXES = {".tsv", ".tab"}
#: Lines read, at most, to find the first one that is not blank (``first_line``).
_BLANK_LINES = 100


def first_line(lines: Iterable[str]) -> tuple[str | None, Iterator[str]]:
    """The first line of ``lines`` that is not blank (``None`` if none soon), and every line.

    The lines read to find it are kept and given back first: nothing is lost.

    >>> line, lines = first_line(["\\n", "a,b\\n", "c,d\\n"])
    >>> line, list(lines)
    ('a,b\\n', ['\\n', 'a,b\\n', 'c,d\\n'])
    """
    iterator = iter(lines)
    read: list[str] = []
    for line in itertools.islice(iterator, _BLANK_LINES):
        read.append(line)
        if line.strip():
            return line, itertools.chain(read, iterator)
    return None, itertools.chain(read, iterator)


def guess_format(path: str, sep: str | None = None, *, named_columns: bool = True,
                 first: str | None = None) -> Format:
    """The format of ``path``: by ``sep``, else by extension, else by its first line ``first``.

    ``.jsonl``, ``.ndjson`` and ``.json`` are JSON Lines, ``.csv`` is CSV,
    ``.tsv`` and ``.tab`` are tab-separated. Any other name (standard input,
    ``-``, has none) is told by the first line that is not blank, if given: an
    object ``{`` is JSON Lines, a tab makes it tab-separated, else a comma
    CSV; tab-separated without either. A tab-separated file read without
    column names (``named_columns=False``) is in the three-field format.

    >>> guess_format("run.csv"), guess_format("run.jsonl"), guess_format("run.txt", ",")
    ('csv', 'jsonl', 'csv')
    >>> guess_format("run.tsv"), guess_format("run.tsv", named_columns=False)
    ('tsv', 'three-field')
    >>> guess_format("-", first="id,predicted,truth\\n"), guess_format("-", first="a\\tb,c\\n")
    ('csv', 'tsv')
    """
    suffix = PurePath(path).suffix.lower()
    if sep is None and suffix not in {".csv", *_TAB_SUFFIXES, *_JSON_SUFFIXES} and first:
        if first.lstrip().startswith("{"):
            return "jsonl"
        sep = "\t" if "\t" in first or "," not in first else ","
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

    ``described``, if given, is how messages name each column: the option
    that asked for it, say (``"'truth' (--correct)"``); by default its name.
    ``multi`` says whether cells may hold several labels: for every column, or
    one flag per column (a column of groups holds one label a cell).
    """

    def __init__(self, lines: Iterable[str], source: str, format: Format, columns: Sequence[str], *,
                 multi: bool | Sequence[bool] = True, header: bool | None = None,
                 sep: str | None = None,
                 label_sep: str | None = None, chunk: int = CHUNK,
                 chunk_characters: int = CHUNK_CHARACTERS,
                 described: Sequence[str] | None = None) -> None:
        if format == "jsonl" and header is not None:
            raise InputError("--header and --no-header apply to CSV and TSV files, not JSON Lines")
        if format == "three-field" and len(columns) != 2:
            raise InputError("the three-field format has two label columns (assigned, correct)")
        self._lines = lines
        self.source = source
        self.format = format
        self.columns = tuple(columns)
        self._described = tuple(map(repr, columns) if described is None else described)
        if len(self._described) != len(self.columns):
            raise ValueError(f"described names {len(self._described)} columns, not "
                             f"{len(self.columns)}")
        flags = [multi] * len(self.columns) if isinstance(multi, bool) else list(multi)
        if len(flags) != len(self.columns):
            raise ValueError(f"multi has {len(flags)} flags, not {len(self.columns)}")
        self._multi = tuple(flags)  # per column
        self._header = header
        self._sep = sep if sep is not None else ("," if format == "csv" else "\t")
        self._label_sep = label_sep if label_sep is not None else (
            "," if format == "three-field" else "|")
        self._chunk = chunk
        self._chunk_characters = chunk_characters
        #: The characters of the lines read since the last chunk.
        self._characters = 0
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
        """The results, :data:`CHUNK` at a time (fewer once their lines pass
        :data:`CHUNK_CHARACTERS`); ``InputError`` at the first bad line."""
        records = {"csv": self._delimited, "tsv": self._delimited, "jsonl": self._json_lines,
                   "three-field": self._three_fields}[self.format]()
        lines: list[int] = []
        columns: tuple[list[Any], ...] = tuple([] for _ in self.columns)
        for number, cells in records:
            lines.append(number)
            for column, cell in zip(columns, cells):
                column.append(cell)
            if len(lines) == self._chunk or self._characters > self._chunk_characters:
                self._characters = 0
                self.results += len(lines)
                yield Chunk(lines, columns)
                lines, columns = [], tuple([] for _ in self.columns)
        if lines:
            self.results += len(lines)
            yield Chunk(lines, columns)

    def _numbered(self) -> Iterator[str]:
        for line in self._lines:
            self.line += 1
            self._characters += len(line)
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
            self._characters += len(line)
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

    def _text_cell(self, text: str, column: str, line: int, multi: bool = True) -> Any:
        """The label, or labels (``multi``), of a text cell of ``column`` (as described) on ``line``."""
        if multi:
            if self._label_sep not in text:
                label = text.strip()
                return label if label else ()
            labels = tuple(part for part in (item.strip() for item in text.split(self._label_sep))
                           if part)
            return labels[0] if len(labels) == 1 else labels
        label = text.strip()
        if not label:
            raise self._error(f"empty label in column {column}", line)
        return label

    def _text_labels(self, text: str, multi: bool = True) -> set[str]:
        """The labels of a text cell, as a set (none for an empty cell), never raising."""
        if multi:
            return {part for part in (item.strip() for item in text.split(self._label_sep)) if part}
        return {text.strip()} - {""}

    def _json_cell(self, value: Any, column: str, multi: bool = True) -> Any:
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        if multi and value is None:
            return ()
        if multi and isinstance(value, list):
            for item in value:
                if not isinstance(item, (str, int)) or isinstance(item, bool):
                    raise self._error(f"key {column} holds {item!r} in its list; a label is a "
                                      "string or an integer")
            return tuple(value)
        wanted = "a string, an integer or a list of them" if multi else "a string or an integer"
        raise self._error(f"key {column} holds {json.dumps(value)}; expected {wanted}")

    # Formats ------------------------------------------------------------------------------

    def _not_csv_hint(self, fields: Sequence[str]) -> str:
        """A hint for a tab-separated row of one field holding commas: the file is CSV, likely."""
        if self._sep == "\t" and len(fields) == 1 and "," in fields[0]:
            return " (the row holds commas and no tab: for CSV, say --input-format csv)"
        return ""

    def _positions(self, first: list[str], header: bool, line: int) -> list[int]:
        """The field index of each column: by name if ``first`` (at ``line``) is a header, else by number."""
        names = [cell.strip().casefold() for cell in first]
        shown = ", ".join(map(repr, first))
        if not header:
            for column, described in zip(self.columns, self._described):
                if _is_number(column):
                    continue
                if self._header is False:
                    raise InputError(f"{self.source}: without a header row, columns are numbers "
                                     f"(1 for the first), not {described}")
                # Not told: the first row was taken for data because it lacks a column's name.
                missing = next(described for name, described in zip(self.columns, self._described)
                               if not _is_number(name) and name.casefold() not in names)
                raise self._error(f"no column {missing} in the first row ({shown}), so it is not "
                                  "a header, and without a header row, columns are numbers (1 for "
                                  f"the first){self._not_csv_hint(first)}", line)
            positions = [int(column) - 1 for column in self.columns]
        else:
            positions = []
            for column, described in zip(self.columns, self._described):
                if column.casefold() in names:
                    positions.append(names.index(column.casefold()))
                elif _is_number(column) and int(column) <= len(first):
                    positions.append(int(column) - 1)
                else:
                    raise self._error(f"no column {described} in the header ({shown})"
                                      f"{self._not_csv_hint(first)}", line)
        last = max(positions)
        if len(first) <= last:
            raise self._error(f"{len(first)} field{'' if len(first) == 1 else 's'}, but column "
                              f"{self._described[positions.index(last)]} is field {last + 1}"
                              f"{self._not_csv_hint(first)}", line)
        return positions

    def _rows(self) -> Iterator[tuple[int, list[str]]]:
        """The rows that are not blank, each with the line it starts on; blank rows are skipped."""
        reader = csv.reader(self._row_lines(), delimiter=self._sep, strict=True)
        while True:
            start = self._row_start = self.line + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as problem:
                raise self._error(f"malformed {self.format.upper()} row ({problem})",
                                  start) from None
            if not row or row == [""]:
                self.skipped += 1
                continue
            yield start, row

    def _is_header(self, first: list[str], line: int, rows: Iterator[tuple[int, list[str]]]
                   ) -> tuple[bool, list[tuple[int, list[str]]]]:
        """Whether ``first`` is a header, told by reading ahead; the rows read ahead.

        With named columns, a first row holding every name is a header. With
        every column given by number, it is a header when none of the labels
        it holds in those columns appears again in the same column in the next
        :data:`LOOKAHEAD` rows (fewer if they hold more than :data:`MAX_ROW`
        characters), and a result as soon as one does: header names are not
        labels. The rows read ahead are bounded so, as every row is.
        """
        named = [column for column in self.columns if not _is_number(column)]
        if named:
            names = {cell.strip().casefold() for cell in first}
            return all(column.casefold() in names for column in named), []
        positions = [int(column) - 1 for column in self.columns]
        if len(first) <= max(positions):
            return False, []  # too short for a header of these columns; refused as a row
        wanted = [(position, self._text_labels(first[position], multi), multi)
                  for position, multi in zip(positions, self._multi)]
        if not any(labels for _, labels, _ in wanted):
            return False, []  # a header names the columns it has; empty cells are data
        ahead: list[tuple[int, list[str]]] = []
        size = 0
        for start, row in rows:
            ahead.append((start, row))
            if any(position < len(row)
                   and not labels.isdisjoint(self._text_labels(row[position], multi))
                   for position, labels, multi in wanted):
                return False, ahead
            size += sum(map(len, row))
            if len(ahead) == LOOKAHEAD or size > MAX_ROW:
                break
        if not ahead:
            raise self._error(f"cannot tell whether the only row ({', '.join(map(repr, first))}) "
                              "is a header: with columns given by number, say --header or "
                              "--no-header", line)
        return True, ahead

    def _delimited(self) -> Iterator[tuple[int, list[Any]]]:
        old_limit = csv.field_size_limit()
        csv.field_size_limit(max(old_limit, MAX_ROW))  # a field may fill a whole row
        try:
            rows = self._rows()
            opening = next(rows, None)
            if opening is None:
                return
            line, first = opening
            header, ahead = ((self._header, []) if self._header is not None
                             else self._is_header(first, line, rows))
            positions = self._positions(first, header, line)
            width = len(first)
            if header:
                self.skipped += 1
            else:
                ahead.insert(0, opening)
            what = "the header" if header else "the first row"
            described = list(zip(positions, self._described, self._multi))
            for start, row in itertools.chain(ahead, rows):
                if len(row) != width:
                    raise self._error(f"{len(row)} field{'' if len(row) == 1 else 's'}, but "
                                      f"{what} has {width}", start)
                yield start, [self._text_cell(row[position], column, start, multi)
                              for position, column, multi in described]
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
                                  f"found {len(fields)}{self._not_csv_hint(fields)}")
            if first:
                first = False
                is_header = tuple(field.strip().casefold() for field in fields) == _THREE_FIELDS
                if is_header if self._header is None else self._header:
                    self.skipped += 1
                    continue
            yield self.line, [self._text_cell(fields[1], self._described[0], self.line,
                                              self._multi[0]),
                              self._text_cell(fields[2], self._described[1], self.line,
                                              self._multi[1])]

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
            for column, described, multi in zip(self.columns, self._described, self._multi):
                if column not in record:
                    raise self._error(f"no key {described} (keys: {', '.join(map(repr, record))})")
                cells.append(self._json_cell(record[column], described, multi))
            yield self.line, cells
