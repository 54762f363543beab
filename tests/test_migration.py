"""docs/migration.md, row by row: each translation gives its peer's number, and the guide lists
exactly the rows tests/migration_rows.py checks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.migration_rows import EXCLUDED_SECTIONS, ROWS, Row

GUIDE = Path(__file__).parent.parent / "docs" / "migration.md"


def split_cells(line: str) -> list[str]:
    """The cells of a markdown table line (``\\|`` is a pipe inside a cell)."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [cell.strip().replace("\\|", "|") for cell in cells]


def guide_rows(text: str) -> list[tuple[str, list[str]]]:
    """The body rows of the guide's tables: a table's first row (its header) is left out."""
    body: list[tuple[str, list[str]]] = []
    lines = text.splitlines()
    heading = ""
    in_code = False
    for number, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        match = re.match(r"^#{1,6} (.*)$", line)
        if match:
            heading = match.group(1).strip()
            continue
        if not line.startswith("|") or re.fullmatch(r"\|[\s\-:|]+\|", line.strip()):
            continue
        below = lines[number + 1] if number + 1 < len(lines) else ""
        if re.fullmatch(r"\|[\s\-:|]+\|", below.strip()):
            continue  # the header: the line above the |---| line
        body.append((heading, split_cells(line)))
    return body


GUIDE_ROWS = guide_rows(GUIDE.read_text(encoding="utf-8"))


def test_the_guide_lists_exactly_the_rows_that_are_tested():
    in_guide = {(section, *cells) for section, cells in GUIDE_ROWS
                if section not in EXCLUDED_SECTIONS}
    tested = {(r.section, r.peer, r.ours) for r in ROWS}
    assert all(len(cells) == 2 for section, cells in GUIDE_ROWS
               if section not in EXCLUDED_SECTIONS)
    assert in_guide - tested == set(), "rows of the guide without a check in migration_rows.py"
    assert tested - in_guide == set(), "checks of migration_rows.py without a row in the guide"
    assert len(ROWS) == len(tested), "a row is registered twice"


def test_each_excluded_section_has_a_table_and_a_reason():
    sections = {section for section, _ in GUIDE_ROWS}
    for section, reason in EXCLUDED_SECTIONS.items():
        assert section in sections
        assert reason


def test_the_guide_says_every_row_is_tested_here():
    assert "tests/test_migration.py" in GUIDE.read_text(encoding="utf-8")


def test_the_parser_reads_rows_and_skips_headers_and_code():
    text = ("# T\n\n| a | b |\n|---|---|\n| `x \\| y` | z |\n\n```\n| c | d |\n```\n"
            "## S\n| h | i |\n|:-|-:|\n| 1 | 2 |\n| 3 | 4 |\n")
    assert guide_rows(text) == [("T", ["`x | y`", "z"]), ("S", ["1", "2"]), ("S", ["3", "4"])]


def _param(r: Row) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=r.bug)] if r.bug else []
    return pytest.param(r, id=r.id, marks=marks)


@pytest.mark.parametrize("migration_row", [_param(r) for r in ROWS])
def test_row(migration_row: Row) -> None:
    inputs = list(migration_row.inputs())
    assert inputs, "a row checked on no input"
    for example in inputs:
        try:
            migration_row.check(example)
        except AssertionError as error:
            raise AssertionError(f"{migration_row.id}\non {example!r}\n{error}") from error
