"""Hostile documents and files: a bounded fuzz of ``from_dict`` and of the command line's readers.

The documents are :meth:`to_dict` outputs of random states (so the fuzz
follows the format as it changes), then mutated: keys dropped or added,
lists truncated or extended, values replaced by other types, counts made
negative, inconsistent or absurdly large, nested junk. ``from_dict`` must
either refuse with a ``ValueError`` or ``TypeError`` whose message starts
``from_dict:``, or return an accumulator whose ``to_dict`` round-trips
through JSON. The decision-file reader and ``main`` get random text and
bytes, and may only answer with their documented errors.

Nothing named by an input is ever imported or run: the last tests feed
module names, pickle payloads and format strings to ``from_dict`` and the
command line, with a canary module on ``sys.path`` that would leave a mark
if anything imported it.

Hypothesis runs this deterministically in CI (tests/conftest.py); a few
hundred examples per test, seconds in all.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from contingency import Contingency, PartitionComparison
from contingency._lines import read_lines
from contingency.cli import main
from contingency.io import InputError, LabelReader
from tests.strategies import categories_and_results
from tests.strategies_partition import labelings

EXAMPLES = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])

# Documents ----------------------------------------------------------------------------------------

#: Counts at and past every limit: zero, one, the int64 edge, past a float's range.
ODD_COUNTS = [0, 1, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, 10**309]

#: Values of every type a document could hold, JSON's and a few a Python caller could pass.
junk = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(ODD_COUNTS),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
        st.sampled_from(["contingency.Contingency/1", "contingency.Contingency/2",
                         "contingency.PartitionComparison/1", "contingency.PartitionComparison/2",
                         "perl", "nan", "error", "add", "os.system"]),
        st.sampled_from([np.int64(2), np.float64(0.5), np.bool_(True), b"x", (1, 2),
                         frozenset({1}), complex(1, 1), np.array([1, 2]), np.array([]),
                         np.array("perl")]),
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                  max_size=3),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a document: the keys of mappings and the positions of lists, depth first."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            if prefix or key != "scores":  # recomputed on loading: mutating it tests nothing
                yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for position, value in enumerate(node):
            yield from _paths(value, (*prefix, position))


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def _mutate_count(value: int, how: int) -> int:
    return [-value - 1, value + 1, value * 10**20, 2**63 - value, 0, 2**63 - 1 - value][how]


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: What each mutation applies to, and how often it is drawn (counts most: they are the state).
_MUTATIONS = {
    "count": _is_count,
    "replace": lambda value: True,
    "drop": lambda value: True,
    "add": lambda value: isinstance(value, (dict, list)),
    "truncate": lambda value: isinstance(value, list),
    "duplicate": lambda value: isinstance(value, list) and bool(value),
    "huge": lambda value: isinstance(value, list),
}
_DRAWN = ["count", "count", "count", "replace", "replace", "drop", "add", "truncate",
          "duplicate", "huge"]


@st.composite
def mutated(draw: st.DrawFn, document: dict[str, Any]) -> Any:
    """``document`` after one to four random mutations (it is deep-copied first).

    Each mutation picks its kind, then one of the places it applies to; the
    root itself is replaced by junk now and then.
    """
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.sampled_from([False] * 19 + [True])):  # one time in 20, not the simplest
            return draw(junk)
        operation = draw(st.sampled_from(_DRAWN))
        places = [path for path in _paths(document)
                  if path and _MUTATIONS[operation](_at(document, path))]
        if not places:
            continue
        path = places[draw(st.integers(0, len(places) - 1))]
        target, parent, last = _at(document, path), _at(document, path[:-1]), path[-1]
        if operation == "count":
            parent[last] = _mutate_count(target, draw(st.integers(0, 5)))
        elif operation == "replace":
            parent[last] = draw(junk)
        elif operation == "drop":
            del parent[last]
        elif operation == "add" and isinstance(target, dict):
            target[draw(st.text(max_size=8))] = draw(junk)
        elif operation == "add":
            target.insert(draw(st.integers(0, len(target))), draw(junk))
        elif operation == "truncate":
            del target[draw(st.integers(0, len(target))):]
        elif operation == "duplicate":
            target.append(copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
        else:  # huge: at most 5,000 items, and the last mutation (the copies share their
            # items, so mutating one later would change them all and multiply the size again)
            parent[last] = target[:5] * 1000 if target else list(range(5000))
            return document
    return document


def check_load(cls: Any, document: Any) -> None:
    """``from_dict`` refuses with a ``from_dict:`` error, or loads a state that round-trips."""
    try:
        loaded = cls.from_dict(document)
    except (ValueError, TypeError) as error:
        assert str(error).startswith("from_dict:"), repr(error)  # noqa: PT017 (a fuzz: either outcome)
        return
    state = loaded.to_dict()
    text = json.dumps(state, allow_nan=False)
    again = cls.from_dict(json.loads(text))
    assert again == loaded
    assert json.dumps(again.to_dict(), allow_nan=False) == text


@st.composite
def contingency_states(draw: st.DrawFn) -> dict[str, Any]:
    """The ``to_dict`` of a random Contingency: results, settings, sometimes ``set_entries``."""
    categories, results = draw(categories_and_results())
    declared = draw(st.sampled_from([None, categories[:1], categories]))
    accumulator = Contingency(declared, unknown="add" if declared is None else "ignore",
                              zero_division=draw(st.sampled_from(["perl", 0.0, 1.0, "nan"])))
    if results:
        accumulator.add_results([sorted(a, key=str) for a, _ in results],
                                [sorted(c, key=str) for _, c in results])
    if draw(st.booleans()):
        a, b, c, d = accumulator.micro_table
        accumulator.set_entries(a + draw(st.integers(0, 3)), b, c, d + draw(st.integers(0, 3)))
    state: dict[str, Any] = json.loads(json.dumps(accumulator.to_dict(), allow_nan=False))
    return state


@st.composite
def partition_states(draw: st.DrawFn) -> dict[str, Any]:
    """The ``to_dict`` of a random PartitionComparison, some elements weighted."""
    reference, model = draw(labelings(max_size=20))
    weights = draw(st.lists(st.integers(1, 5), min_size=len(reference), max_size=len(reference)))
    comparison = PartitionComparison().add_many(reference, model, weights=weights)
    state: dict[str, Any] = json.loads(json.dumps(comparison.to_dict()))
    return state


@EXAMPLES
@given(st.data(), contingency_states())
def test_contingency_from_dict_refuses_or_round_trips_any_mutated_document(data, state) -> None:
    check_load(Contingency, state)  # the document as written loads
    check_load(Contingency, data.draw(mutated(state)))


@EXAMPLES
@given(st.data(), partition_states())
def test_partition_from_dict_refuses_or_round_trips_any_mutated_document(data, state) -> None:
    check_load(PartitionComparison, state)
    check_load(PartitionComparison, data.draw(mutated(state)))


def test_a_bad_unknown_setting_is_refused_as_a_from_dict_error() -> None:
    """Found by the fuzz: this one message lacked the ``from_dict:`` prefix."""
    state = Contingency().to_dict()
    with pytest.raises(ValueError, match=r"^from_dict: unknown must be 'error', 'ignore' or 'add', "):
        Contingency.from_dict({**state, "unknown": None})


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])
@pytest.mark.parametrize("value", [np.array([1, 2]), np.array([]), "nested"],
                         ids=["array", "empty array", "nested to the recursion limit"])
def test_values_no_json_holds_are_refused_as_from_dict_errors_in_every_place(cls, value) -> None:
    """Found by the fuzz: an array as the format or a setting raised numpy's "truth value is
    ambiguous"; a list nested almost as deep as ``json.loads`` allows raised RecursionError
    (the message showed its repr). Both now give ``from_dict:`` errors of bounded length."""
    if isinstance(value, str):
        value = _nested(sys.getrecursionlimit() - 10)
    state = (Contingency(["x"]).add_results(["x"], ["x"]) if cls is Contingency
             else PartitionComparison.from_labels(["x"], ["y"])).to_dict()
    for document in _placed(state, value):
        with pytest.raises((ValueError, TypeError), match=r"^from_dict: ") as refused:
            cls.from_dict(document)
        assert len(str(refused.value)) < 500


def _placed(state: dict[str, Any], value: Any) -> Iterator[Any]:
    """``state`` with ``value`` put in each place of it in turn (scores aside)."""
    for path in _paths(state):
        if path:
            document = copy.deepcopy(state)
            _at(document, path[:-1])[path[-1]] = value
            yield document


@EXAMPLES
@given(junk)
def test_from_dict_refuses_anything_that_is_not_a_document(value) -> None:
    check_load(Contingency, value)
    check_load(PartitionComparison, value)


@pytest.mark.parametrize("cls", [Contingency, PartitionComparison])
def test_huge_label_lists_are_refused_without_building_anything(cls: Any) -> None:
    """A million labels that no count backs: refused with the first label that has none."""
    state = (cls(["x"]) if cls is Contingency else cls.from_labels(["x"], ["y"])).to_dict()
    key = "categories" if cls is Contingency else "model_labels"
    state[key] = [*state[key], *range(10**6)]
    with pytest.raises(ValueError, match=r"^from_dict: "):
        cls.from_dict(state)


# The command line's readers ---------------------------------------------------------------------

lines = st.lists(st.text(alphabet=st.sampled_from("ab,\t #\r\n \x00é") | st.characters(),
                         max_size=20), max_size=8)


@EXAMPLES
@given(lines)
def test_read_decisions_yields_decisions_or_names_the_line(text_lines) -> None:
    reader = LabelReader(text_lines, "fuzz.tsv", "three-field", ["assigned", "correct"])
    try:
        cells = [cell for chunk in reader.chunks() for column in chunk.columns for cell in column]
    except ValueError as error:
        assert str(error).startswith("fuzz.tsv line "), repr(error)  # noqa: PT017 (either outcome)
        return
    for cell in cells:
        for category in (cell,) if isinstance(cell, str) else cell:
            assert category
            assert category == category.strip()
            assert "," not in category


@contextlib.contextmanager
def captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


def run_main(content: bytes, *options: str) -> tuple[int, str, str]:
    """``main`` on a file holding ``content``: exit status, standard output and error."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "decisions.tsv"
        path.write_bytes(content)
        with captured() as (out, err):
            status = main(["classify", str(path), *options])
    return status, out.getvalue(), err.getvalue()


@EXAMPLES
@given(st.one_of(st.binary(max_size=200),
                 lines.map(lambda parts: "\n".join(parts).encode("utf-8", "surrogatepass"))),
       st.sampled_from([(), ("--format", "json"), ("--figs", "1"), ("--figs", "0")]))
def test_main_answers_any_file_with_a_result_or_a_one_line_error(content, options) -> None:
    status, out, err = run_main(content, *options)
    assert status in (0, 2)
    if status == 2:
        assert err.startswith("contingency: ")
        assert err.count("\n") == 1
        assert out == ""
    elif "json" in options:
        scores = json.loads(out)  # the scores only (the state is --state's), valid JSON
        assert scores["n_results"] >= 1
        assert all(isinstance(row["support"], int) for row in scores["categories"])


#: Text holding every character the readers treat specially, and any other.
any_text = st.lists(st.text(alphabet=st.sampled_from('ab1,|\t #"{}[]:\r\n \x00é\ufeff')
                            | st.characters(), max_size=24), max_size=8)
FORMATS = ["csv", "tsv", "jsonl", "three-field"]


@EXAMPLES
@given(st.one_of(st.binary(max_size=300),
                 any_text.map(lambda parts: "\n".join(parts).encode("utf-8", "surrogatepass"))),
       st.sampled_from(FORMATS), st.booleans(), st.booleans())
@example(b"a\t\t", "three-field", False, False)  # (an empty field read as no label: ())
@example(b"a\tx,y\tz", "three-field", False, False)  # (commas split a single label)
def test_every_format_s_reader_yields_labels_or_names_the_file(content, fmt, named, multi) -> None:
    """Bytes through read_lines and LabelReader in each format: labels, or an InputError."""
    columns = ["assigned", "correct"] if named or fmt == "three-field" else ["2", "3"]
    try:
        reader = LabelReader(read_lines(io.BytesIO(content), "fuzz.txt"), "fuzz.txt", fmt,
                             columns, multi=multi)
        cells = [cell for chunk in reader.chunks() for column in chunk.columns for cell in column]
    except InputError as error:
        assert str(error).startswith("fuzz.txt"), repr(error)  # noqa: PT017 (either outcome)
        return
    for cell in cells:
        labels = cell if isinstance(cell, tuple) else (cell,)
        assert all(type(label) in (str, int) for label in labels)
        assert multi or not isinstance(cell, tuple)


@pytest.mark.parametrize("line", ["[" * 100_000, '{"a": ' + "1" * 5000 + ', "c": "x"}'],
                         ids=["nested past the recursion limit", "an integer of 5000 digits"])
def test_json_lines_past_python_s_limits_are_errors_naming_the_line(line) -> None:
    """Found by the fuzz: json.loads raised RecursionError (a traceback from the command line),
    and its digit limit a ValueError whose message named no line."""
    status, _, err = run_main(f'{{"a": "x", "c": "x"}}\n{line}\n'.encode(), "--input-format",
                              "jsonl", "--assigned", "a", "--correct", "c")
    assert status == 2
    assert err.startswith("contingency: ")
    assert " line 2: invalid JSON" in err


# Nothing named by the input runs -----------------------------------------------------------------

CANARY = "contingency_fuzz_canary"


@pytest.fixture
def canary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], bool]:
    """A module that leaves a mark when imported; returns whether it has been."""
    mark = tmp_path / "imported"
    (tmp_path / f"{CANARY}.py").write_text(
        f"import pathlib\npathlib.Path({str(mark)!r}).touch()\n"
        "class Boom:\n    def __reduce__(self):\n        return (print, ('boom',))\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, CANARY, raising=False)

    def touched() -> bool:
        return mark.exists() or CANARY in sys.modules

    return touched


class _Payload:
    """Unpickling this imports the canary (``__reduce__`` names it)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (__import__, (CANARY,))


PAYLOAD = pickle.dumps(_Payload())
HOSTILE = [
    CANARY,
    f"{CANARY}.Boom",
    f"__import__('{CANARY}')",
    "{0.__class__.__init__.__globals__}",
    "%(__class__)s",
    PAYLOAD.decode("latin-1"),
]


def test_from_dict_never_imports_or_runs_what_a_document_names(canary) -> None:
    documents: list[Any] = [PAYLOAD, {"py/object": f"{CANARY}.Boom"}, {"__reduce__": CANARY}]
    for cls, sample, labelled, key in (
            (Contingency, Contingency().add_results(["x"], ["y"]),
             Contingency().add_results(HOSTILE, HOSTILE[::-1]), "categories"),
            (PartitionComparison, PartitionComparison.from_labels(["x"], ["y"]),
             PartitionComparison.from_labels(HOSTILE, HOSTILE[::-1]), "model_labels")):
        state = sample.to_dict()
        for name in state:
            for value in [*HOSTILE, PAYLOAD, {"py/object": f"{CANARY}.Boom"}]:
                documents.append({**state, name: value})
        documents.append({**state, "format": f"{CANARY}.Boom/1"})
        documents.append({**state, CANARY: {"py/reduce": [CANARY, "Boom"]}})
        for document in documents:
            check_load(cls, document)
        # Labels that name modules, hold pickles or look like format strings stay plain text.
        assert set(cls.from_dict(labelled.to_dict()).to_dict()[key]) == set(HOSTILE)
    assert not canary()


def test_command_line_never_imports_or_runs_what_a_file_names(canary) -> None:
    text = "".join(f"d{i}\t{name.replace(',', ' ')}\t{name.replace(',', ' ')}\n"
                   for i, name in enumerate(HOSTILE) if "\t" not in name and "\n" not in name)
    status, out, err = run_main(text.encode("utf-8", "surrogatepass"))
    assert (status, err) == (0, "")
    assert "{0.__class__.__init__.__globals__}" in out  # printed as it is, never formatted
    status, out, _ = run_main(text.encode("utf-8"), "--format", "json")
    assert status == 0
    categories = [row["category"] for row in json.loads(out)["categories"]]
    assert "{0.__class__.__init__.__globals__}" in categories
    status, _, err = run_main(PAYLOAD)
    assert status == 2
    assert err.startswith("contingency: ")
    assert not canary()


@pytest.mark.parametrize("count", [2**63 - 1, 2**63, 10**309])
def test_counts_at_and_past_the_limit_in_a_document_are_refused_or_round_trip(count) -> None:
    """The issue's case: a micro_offset of 10**309 loaded, then to_dict raised OverflowError."""
    state = Contingency(["x"]).add_results(["x"], ["x"]).to_dict()
    for position in range(4):
        offset = [0, 0, 0, 0]
        offset[position] = count
        check_load(Contingency, {**state, "micro_offset": offset})
    partition = PartitionComparison.from_labels(["x"], ["y"]).to_dict()
    check_load(PartitionComparison, {**partition, "cells": [[0, 0, count]]})
