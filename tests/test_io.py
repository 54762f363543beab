"""The readers: bounded lines (contingency._lines) and labels by column (contingency.io)."""

from __future__ import annotations

import io
import json

import pytest

from contingency._lines import BLOCK, InputError, read_lines
from contingency.io import LOOKAHEAD, LabelReader, first_line, guess_format


def lines_of(data: bytes, **options) -> list[str]:
    return list(read_lines(io.BytesIO(data), "f.txt", **options))


def read(text: str, fmt: str, columns=("assigned", "correct"), **options):
    """Every (line, cells) pair the reader yields, and the reader (for its counts)."""
    reader = LabelReader(lines_of(text.encode("utf-8")), "f", fmt, list(columns), **options)
    rows = [(line, tuple(column[i] for column in chunk.columns))
            for chunk in reader.chunks() for i, line in enumerate(chunk.lines)]
    return rows, reader


# Lines ---------------------------------------------------------------------------------------


def test_lines_keep_their_endings_across_blocks():
    data = b"".join(b"%d,\xc3\xa9\n" % i for i in range(30_000))  # several blocks, UTF-8 split
    assert len(data) > 3 * BLOCK
    assert lines_of(data) == [f"{i},é\n" for i in range(30_000)]


def test_a_line_at_the_limit_passes_and_one_byte_more_fails():
    limit = 100
    ok = b"x" * limit
    assert lines_of(ok + b"\r\n" + ok, limit=limit) == [ok.decode() + "\r\n", ok.decode()]
    with pytest.raises(InputError, match=r"^f.txt line 2: longer than 100 bytes"):
        lines_of(ok + b"\n" + ok + b"x\n", limit=limit)
    # Counted in bytes, not characters: 51 two-byte characters are 102 bytes.
    with pytest.raises(InputError, match="line 1: longer than 100 bytes"):
        lines_of("é".encode() * 51 + b"\n", limit=limit)


def test_an_endless_line_fails_after_the_limit_without_reading_on():
    class Endless(io.RawIOBase):
        """Zero bytes forever, like /dev/zero; counts what was read."""

        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = bytes(len(buffer))
            self.read_bytes += len(buffer)
            return len(buffer)

    stream = Endless()
    with pytest.raises(InputError, match="line 1: longer than 1048576 bytes"):
        list(read_lines(stream, "/dev/zero"))
    assert stream.read_bytes <= 2**20 + 2 * BLOCK


def test_invalid_utf8_names_the_line_in_a_later_block():
    data = b"a\n" * 40_000 + b"caf\xe9\n"
    with pytest.raises(InputError, match=r"^f.txt line 40001: invalid UTF-8 \(byte 0xe9 at byte 4"):
        lines_of(data)


# Formats -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "sep", "named", "expected"), [
    ("a.csv", None, True, "csv"), ("a.CSV", None, True, "csv"), ("a.tsv", None, True, "tsv"),
    ("a.tsv", None, False, "three-field"), ("a.txt", ";", True, "csv"),
    ("a.jsonl", None, True, "jsonl"), ("a.ndjson", None, False, "jsonl"),
    ("a.csv", "\t", True, "tsv"), ("-", None, False, "three-field"),
])
def test_guess_format(path, sep, named, expected):
    assert guess_format(path, sep, named_columns=named) == expected


@pytest.mark.parametrize(("path", "sep", "first", "expected"), [
    ("-", None, "id,predicted,truth\n", "csv"), ("-", None, "a\tb,c\n", "tsv"),
    ("-", None, '  {"assigned": "a"}\n', "jsonl"), ("-", None, "one\n", "tsv"),
    ("run.txt", None, "a,b\n", "csv"), ("run.tsv", None, "a,b\n", "tsv"),
    ("run.csv", None, "a\tb\n", "csv"), ("-", ";", "a,b\n", "csv"), ("-", None, None, "tsv"),
])
def test_guess_format_by_the_first_line_when_the_name_does_not_tell(path, sep, first, expected):
    assert guess_format(path, sep, first=first) == expected


def test_first_line_gives_back_every_line_it_read():
    line, lines = first_line(iter(["\n", " \n", "a,b\n", "c\n"]))
    assert (line, list(lines)) == ("a,b\n", ["\n", " \n", "a,b\n", "c\n"])
    line, lines = first_line(iter(["\n"] * 500 + ["late\n"]))
    assert line is None
    assert len(list(lines)) == 501


def test_csv_header_is_found_by_name_in_any_case_and_never_read_as_data():
    text = ",Assigned,CORRECT\n0,sports,sports\n1,news|sports,news\n"  # as pandas.to_csv writes
    rows, reader = read(text, "csv")
    assert rows == [(2, ("sports", "sports")), (3, (("news", "sports"), "news"))]
    assert (reader.results, reader.skipped) == (2, 1)


def test_csv_quotes_and_embedded_newlines_keep_the_line_of_the_row_start():
    text = 'assigned,correct\n"a|b","b"\n"x\ny",z\nc,c\n'
    rows, _ = read(text, "csv")
    assert rows == [(2, (("a", "b"), "b")), (3, ("x\ny", "z")), (5, ("c", "c"))]


def test_a_row_is_bounded_over_all_its_lines_and_the_error_names_its_first_line():
    read_lines = 0

    def many_line_fields(lines: int, line: str, fields: bool = True):
        """A header, a row, then one row of ``lines`` lines in quoted fields (one, or many)."""
        nonlocal read_lines
        yield from ("assigned,correct\n", "a,a\n", '"x\n')
        for number in range(lines):
            read_lines += 1
            yield '",\"' + line if fields and number % 2 else line  # a new field every other line
        yield '",b\n'

    # 10 MB, every line far within the line limit: stopped after the first MiB.
    rows = LabelReader(many_line_fields(10_000, "y" * 999 + "\n"), "f", "csv",
                       ["assigned", "correct"])
    with pytest.raises(InputError, match=r"^f line 3: a row longer than 1048576 bytes \(the limit of "
                                         r"a row, over the lines its quoted fields span\)$"):
        list(rows.chunks())
    assert read_lines <= 2**20 // 1000 + 1
    # Counted in bytes: 600 lines of 1300 two-byte characters, 0.8 million characters, 1.6 MB.
    with pytest.raises(InputError, match=r"^f line 3: a row longer than"):
        list(LabelReader(many_line_fields(600, "é" * 1300 + "\n"), "f", "csv",
                         ["assigned", "correct"]).chunks())
    # Just within the bound: read, and the next row numbered after the lines it spans.
    read_lines = 0
    rows = LabelReader([*many_line_fields(1000, "y" * 1000 + "\n", False), "c,c\n"], "f", "csv",
                       ["assigned", "correct"])
    assert [chunk.lines for chunk in rows.chunks()] == [[2, 3, 1005]]


def test_columns_by_number_a_first_row_holding_labels_seen_again_is_a_result():
    text = "1,a,a\n2,b,a\n"  # 'a' appears again in the third column
    rows, reader = read(text, "csv", ("2", "3"))
    assert rows == [(1, ("a", "a")), (2, ("b", "a"))]
    assert reader.skipped == 0
    assert read(text, "csv", ("2", "3"), header=True)[0] == [(2, ("b", "a"))]
    # Several labels a cell: one of them seen again is enough.
    assert read("x|y,q\ny|z,w\n", "csv", ("1", "2"))[0] == [(1, (("x", "y"), "q")),
                                                            (2, (("y", "z"), "w"))]
    # In the same column: 'y' in the other column does not count.
    assert read("x|y,q\nz,y|w\n", "csv", ("1", "2"))[1].skipped == 1
    with pytest.raises(InputError, match="without a header row, columns are numbers"):
        read("x,y\n", "csv", ("x", "y"), header=False)


def test_columns_by_number_a_first_row_of_labels_seen_nowhere_after_it_is_a_header():
    text = "id,predicted,truth\n1,a,a\n2,b,a\n"
    rows, reader = read(text, "csv", ("2", "3"))
    assert rows == [(2, ("a", "a")), (3, ("b", "a"))]  # 'truth' is no category
    assert (reader.results, reader.skipped) == (2, 1)
    assert read(text, "csv", ("2", "3"), header=False)[0][0] == (1, ("predicted", "truth"))
    # Only the LOOKAHEAD rows after it are read to tell: a label seen later does not count.
    later = "p,t\n" + "a,b\n" * LOOKAHEAD + "p,t\n"
    rows, reader = read(later, "csv", ("1", "2"))
    assert (reader.results, reader.skipped) == (LOOKAHEAD + 1, 1)
    # One row and nothing after it to tell by: the reader asks.
    with pytest.raises(InputError, match=r"^f line 2: cannot tell whether the only row \('a', "
                                         r"'b'\) is a header: with columns given by number, say "
                                         r"--header or --no-header$"):
        read("\na,b\n", "csv", ("1", "2"))
    assert read("a,b\n", "csv", ("1", "2"), header=False)[0] == [(1, ("a", "b"))]


def test_a_row_with_more_or_fewer_fields_than_the_first_is_an_error_naming_its_line():
    with pytest.raises(InputError, match=r"^f line 3: 3 fields, but the header has 2$"):
        read("pred,truth\nham,ham\nspam,ham,eggs\n", "csv", ("pred", "truth"))
    with pytest.raises(InputError, match=r"^f line 2: 3 fields, but the first row has 2$"):
        read("a,a\nb,a,c\n", "csv", ("1", "2"), header=False)
    with pytest.raises(InputError, match=r"^f line 4: 1 field, but the header has 3$"):
        read("x\tassigned\tcorrect\n1\ta\ta\n\n2\n", "tsv")


def test_a_first_row_without_the_column_names_is_an_error_naming_them():
    with pytest.raises(InputError, match=r"^f line 1: no column 'assigned' in the header "
                                         r"\('guess', 'truth'\)"):
        read("guess,truth\na,a\n", "csv", header=True)
    # Not told whether there is a header: the first row is named, as a header would be.
    with pytest.raises(InputError, match=r"^f line 1: no column 'assigned' in the first row "
                                         r"\('guess', 'truth'\), so it is not a header, and without a "
                                         r"header row, columns are numbers \(1 for the first\)$"):
        read("guess,truth\na,a\n", "csv")
    with pytest.raises(InputError, match=r"^f line 2: no column 'truth!' in the first row "
                                         r"\('guess', 'truth'\)"):
        read("\nguess,truth\na,a\n", "csv", ("guess", "truth!"))


def test_short_rows_and_empty_single_labels_name_the_line():
    with pytest.raises(InputError, match=r"^f line 3: 1 field, but the header has 2$"):
        read("assigned,correct\na,a\nb\n", "csv")
    with pytest.raises(InputError, match=r"^f line 1: 1 field, but column '2' is field 2$"):
        read("a\nb,b\n", "csv", ("1", "2"))
    with pytest.raises(InputError, match=r"^f line 2: empty label in column 'm'"):
        read("r,m\na, \n", "csv", ("r", "m"), multi=False)


def test_messages_name_columns_as_described():
    with pytest.raises(InputError, match=r"^f line 1: no column 'assigned' \(the default of "
                                         r"--assigned\) in the first row"):
        LabelReader(["guess,truth\n"], "f", "csv", ["assigned", "correct"],
                    described=["'assigned' (the default of --assigned)", "'correct' (--correct)"]
                    ).chunks().__next__()
    with pytest.raises(InputError, match=r"^f line 1: no key 'c' \(--correct\) \(keys: 'a'\)$"):
        next(LabelReader(['{"a": 1}\n'], "f", "jsonl", ["a", "c"],
                         described=["'a' (--assigned)", "'c' (--correct)"]).chunks())


def test_comma_separated_rows_read_as_tab_separated_suggest_csv():
    with pytest.raises(InputError, match=r"in the first row \('id,predicted,truth'\).*\(the row "
                                         r"holds commas and no tab: for CSV, say --input-format "
                                         r"csv\)$"):
        read("id,predicted,truth\n1,a,a\n", "tsv", ("predicted", "truth"))
    with pytest.raises(InputError, match=r"found 1 \(the row holds commas and no tab"):
        read("d1,a,a\n", "three-field")


def test_tsv_and_a_chosen_separator():
    assert read("assigned\tcorrect\na|b\tb\n", "tsv")[0] == [(2, (("a", "b"), "b"))]
    assert read("assigned;correct\na,b;b\n", "csv", sep=";", label_sep=",")[0] == [
        (2, (("a", "b"), "b"))]


def test_three_field_format_header_in_any_case_comments_and_commas():
    text = "# a comment\nNAME\tAssigned\tcorrect\n\nd1\tsports, health\tsports\nd2\t\tnews\n"
    rows, reader = read(text, "three-field")
    assert rows == [(4, (("sports", "health"), "sports")), (5, ((), "news"))]
    assert (reader.results, reader.skipped) == (2, 3)
    # Only the first line can be the header; --no-header reads it as a result.
    assert read("name\tassigned\tcorrect\n", "three-field", header=False)[0] == [
        (1, ("assigned", "correct"))]
    with pytest.raises(InputError, match=r"^f line 2: expected 3 tab-separated fields"):
        read("d1\ta\ta\nd2 a a\n", "three-field")


def test_json_lines_labels_lists_and_nulls():
    text = "\n".join(json.dumps(record) for record in [
        {"assigned": ["a", "b"], "correct": "a", "other": 1},
        {"assigned": None, "correct": 7},
        {"assigned": "a|b", "correct": []},
    ]) + "\n"
    assert read(text, "jsonl")[0] == [(1, (("a", "b"), "a")), (2, ((), 7)), (3, ("a|b", ()))]


@pytest.mark.parametrize(("line", "message"), [
    ('{"assigned": "a", "correct": ', r"line 1: invalid JSON \(Expecting value at column 31\)"),
    ('["a", "b"]', "line 1: expected a JSON object, found list"),
    ('{"assigned": "a"}', r"line 1: no key 'correct' \(keys: 'assigned'\)"),
    ('{"assigned": 1.5, "correct": "a"}', "line 1: key 'assigned' holds 1.5; expected a string"),
    ('{"assigned": [true], "correct": "a"}', "line 1: key 'assigned' holds True in its list"),
])
def test_bad_json_lines_name_the_line(line, message):
    with pytest.raises(InputError, match=message):
        read(line + "\n", "jsonl")


def test_json_lines_refuse_header_options():
    with pytest.raises(InputError, match="apply to CSV and TSV"):
        read("{}\n", "jsonl", header=True)


def test_chunks_split_the_results_and_keep_every_line():
    text = "assigned,correct\n" + "".join(f"{i},{i % 3}\n" for i in range(25))
    reader = LabelReader(lines_of(text.encode()), "f", "csv", ["assigned", "correct"], chunk=10)
    chunks = list(reader.chunks())
    assert [len(chunk.lines) for chunk in chunks] == [10, 10, 5]
    assert [line for chunk in chunks for line in chunk.lines] == list(range(2, 27))
    assert chunks[2].columns == ([str(i) for i in range(20, 25)],
                                 [str(i % 3) for i in range(20, 25)])


@pytest.mark.parametrize("format", ["csv", "jsonl", "three-field"])
def test_chunks_end_once_their_lines_pass_the_character_bound(format):
    # Long labels: a chunk holds fewer rows, so CHUNK rows of the longest lines cannot pile up.
    rows = [("x" * 90 + str(i), "y" * 90 + str(i % 3)) for i in range(12)]
    text = {"csv": "assigned,correct\n" + "".join(f"{a},{c}\n" for a, c in rows),
            "jsonl": "".join(f'{{"assigned": "{a}", "correct": "{c}"}}\n' for a, c in rows),
            "three-field": "".join(f"r{i}\t{a}\t{c}\n" for i, (a, c) in enumerate(rows))}[format]
    reader = LabelReader(lines_of(text.encode()), "f", format, ["assigned", "correct"],
                         chunk=1000, chunk_characters=500)
    chunks = list(reader.chunks())
    sizes = [len(chunk.lines) for chunk in chunks]
    assert len(chunks) > 1, sizes
    assert max(sizes) <= 3, sizes
    assert [a for chunk in chunks for a in chunk.columns[0]] == [a for a, _ in rows]
    assert reader.results == len(rows)
