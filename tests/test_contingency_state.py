"""Contingency's persistence: to_dict holds the state only, from_dict refuses what no calls make."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contingency import Contingency
from contingency._contingency_state import read_state
from contingency.formulas._numeric import MAX_SCALE
from tests.test_contingency_weights import float_weights, weighted_cases, weighted_stream
from tests.test_fuzz import contingency_states, mutated

#: A document the previous release (0.1.0.dev0) wrote, its scores block cut short.
VERSION_1 = {
    "format": "contingency.Contingency/1", "categories": ["x", "y", "z"], "declared": 2,
    "unknown": "add", "zero_division": 0.0, "verbose": False, "a": [2, 0, 0], "b": [0, 1, 1],
    "c": [1, 0, 0], "result_shapes": [[0, 1, 1, 1], [1, 1, 1, 1], [1, 2, 1, 1]],
    "micro_offset": [1, 1, 1, 1], "scores": {"n_results": 3},
}


def version_1_accumulator():
    s = Contingency(["x", "y"], unknown="add", zero_division=0.0)
    s.add_results([["x", "z"], "y", "x"], [["x"], "x", "x"])
    s.set_entries(*(cell + 1 for cell in s.micro_table))
    return s


@given(case=weighted_cases(), data=st.data())
def test_every_reachable_state_round_trips_through_json(case, data):
    cats, stream, weights = case
    s = weighted_stream(cats, stream, weights, unknown="add",
                        zero_division=data.draw(st.sampled_from(["perl", 0.0, 1.0, "nan"])))
    taken = data.draw(st.integers(0, len(stream)))
    s.remove_results([list(a) for a, _ in stream[:taken]], [list(c) for _, c in stream[:taken]],
                     weights=weights[:taken])
    s.add_result(data.draw(st.sampled_from(["new", *cats])), cats[0],
                 weight=data.draw(float_weights))
    if data.draw(st.booleans()):
        s.set_entries(*(int(cell) + 2 for cell in s.micro_table))
    document = json.loads(json.dumps(s.to_dict(), allow_nan=False))
    again = Contingency.from_dict(document)
    assert again == s
    assert again.to_dict() == s.to_dict()
    assert again.scores() == s.scores()


def test_to_dict_holds_the_state_only():
    s = Contingency(["x"]).add_results(["x"], ["x"])
    document = s.to_dict()
    assert document["format"] == "contingency.Contingency/2"
    assert set(document) == {"format", "categories", "declared", "unknown", "zero_division",
                             "scale", "a", "b", "c", "result_shapes", "micro_offset",
                             "confusion"}
    s.verbose = True  # a display option: not part of the state
    assert s.to_dict() == document
    assert Contingency.from_dict(document).verbose is False


def test_the_scale_is_the_least_unit_of_the_counts():
    s = Contingency()
    s.add_result("a", "a", weight=0.75)
    assert (s.to_dict()["scale"], s.to_dict()["a"]) == (2, [3])
    s.add_result("a", "a", weight=0.25)  # 1.0 in all: whole again
    assert (s.to_dict()["scale"], s.to_dict()["a"]) == (0, [1])
    assert s == Contingency().add_results(["a"], ["a"])


def test_numpy_integers_are_taken_in_every_count():
    document = version_1_accumulator().to_dict()
    numpy_document = {
        **document,
        "declared": np.int64(document["declared"]),
        "scale": np.uint8(0),
        "a": [np.int32(v) for v in document["a"]],
        "result_shapes": [[np.int64(v) for v in row] for row in document["result_shapes"]],
        "micro_offset": [np.int16(v) for v in document["micro_offset"]],
        "confusion": [[np.int64(v) for v in row] for row in document["confusion"]],
    }
    assert Contingency.from_dict(numpy_document) == version_1_accumulator()


def test_version_1_documents_are_refused_naming_the_format():
    """Format 1 has no confusion matrix of the single-label results: the counts do not give it."""
    for document in (VERSION_1, {k: v for k, v in VERSION_1.items() if k != "scores"}):
        with pytest.raises(ValueError, match=r"^from_dict: format 'contingency\.Contingency/1' "
                                             r"\(contingency 0\.1\.0\.dev0\) is not read: it "
                                             r"has no confusion matrix"):
            Contingency.from_dict(document)


def test_version_2_refuses_version_1_keys_and_other_formats():
    document = version_1_accumulator().to_dict()
    with pytest.raises(ValueError, match=r"from_dict: unknown keys \['scores', 'verbose'\]"):
        Contingency.from_dict({**document, "verbose": False, "scores": {}})
    with pytest.raises(ValueError, match=r"from_dict: format must be 'contingency\.Contingency/2', "
                                         r"not 'contingency\.Contingency/3'"):
        Contingency.from_dict({**document, "format": "contingency.Contingency/3"})


def two_categories(**changes):
    """The document of results ("p", "p") and ("q", "p") over categories p and q, changed as asked."""
    return {"format": "contingency.Contingency/2", "categories": ["p", "q"], "declared": 2,
            "unknown": "error", "zero_division": "perl", "scale": 0, "a": [1, 0],
            "b": [0, 1], "c": [1, 0], "result_shapes": [[0, 1, 1, 1], [1, 1, 1, 1]],
            "micro_offset": [0, 0, 0, 0], "confusion": [[0, 0, 1], [0, 1, 1]], **changes}


def test_the_two_category_document_is_what_its_results_make():
    made = Contingency(["p", "q"]).add_results(["p", "q"], ["p", "p"])
    assert made.to_dict() == two_categories()
    assert Contingency.from_dict(two_categories()) == made


@pytest.mark.parametrize(("changes", "match"), [
    # two assigned, two correct, none in common: four categories, with only two
    ({"result_shapes": [[0, 2, 2, 1], [0, 1, 1, 1]], "a": [0, 0], "b": [1, 2], "c": [1, 2]},
     r"result_shapes\[0\] = \[0, 2, 2, 1\] is not a possible result shape with 2 categories"),
    ({"result_shapes": [[0, 3, 1, 1], [1, 1, 1, 1]]}, "not a possible result shape"),
    ({"result_shapes": [[0, 1, 1, 1], [1, 1, 1, 0]]}, r"result_shapes\[1\] has a count of 0"),
    ({"result_shapes": [[1, 1, 1, 1], [1, 1, 1, 1]]}, "repeats the shape"),
    # one wrong result cannot give q both its b (assigned, not correct) and its c
    ({"b": [0, 1], "c": [0, 1]}, r"category 'q' has b \+ c = 2 but only 1 results have a cell "
                                 r"b or c to give it"),
    ({"a": [0, 1], "b": [1, 0]}, r"category 'q' has a = 1 but only 0 results|category 'p' has"),
    ({"a": [-1, 0]}, r"a\[0\] must be a non-negative integer count, not -1"),
    ({"a": [True, 0]}, r"a\[0\] must be a non-negative integer count, not True"),
    ({"a": [1.0, 0]}, r"a\[0\] must be a non-negative integer count, not 1.0"),
    ({"scale": -1}, "scale must be a non-negative integer count"),
    ({"scale": MAX_SCALE + 1}, f"scale is {MAX_SCALE + 1}; counts are kept in units down to"),
    ({"unknown": "maybe"}, "unknown must be 'error', 'ignore' or 'add', not 'maybe'"),
    ({"micro_offset": [0, 0, 0, 1.0]}, r"micro_offset\[3\] must be an integer, not 1.0"),
    ({"micro_offset": [0, 0, 0]}, "micro_offset must be a list of 4 integers"),
    ({"micro_offset": [0, 0, 0, -3]}, "makes the micro table negative"),
    ({"declared": 1, "a": [1, 0], "b": [0, 0], "c": [0, 0], "result_shapes": [[1, 1, 1, 1]]},
     "category 'q' was not declared and no result names it"),
])
def test_from_dict_refuses_states_no_calls_make(changes, match):
    with pytest.raises(ValueError, match=f"^from_dict: .*({match})"):
        Contingency.from_dict(two_categories(**changes))


def test_a_scaled_document_past_the_count_limit_is_refused():
    document = two_categories(scale=0, a=[2**63, 0], b=[0, 0], c=[0, 0],
                              result_shapes=[[1, 1, 1, 2**63]])
    with pytest.raises(ValueError, match=r"^from_dict: the accumulator would hold "
                                         r"9223372036854775808 results; at most 2\*\*63 - 1"):
        Contingency.from_dict(document)
    document = two_categories(scale=1, a=[2**64 - 1, 0], b=[0, 0], c=[0, 0],
                              result_shapes=[[1, 1, 1, 2**64 - 1]], confusion=[[0, 0, 2**64 - 1]])
    with pytest.raises(ValueError, match=r"^from_dict: the accumulator would hold "
                                         r"9223372036854775808 results"):  # 2**63 - 0.5, rounded up
        Contingency.from_dict(document)
    document = two_categories(scale=2, a=[2**64, 0], b=[0, 0], c=[0, 0],
                              result_shapes=[[1, 1, 1, 2**64]], confusion=[[0, 0, 2**64]])
    assert Contingency.from_dict(document).n_results == 2.0**62


def test_a_removal_that_leaves_a_category_more_cells_than_results_can_give_is_refused():
    """Found by test_every_accepted_removal_leaves_a_state_some_results_make: y's two c cells
    need two results with a correct category not assigned; removing ([], [x]) leaves one."""
    s = Contingency().add_results([[], [], []], [[], ["y"], ["x", "y"]])
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"^remove_result: a category would be named by more "
                                         r"results than the 1 that would remain"):
        s.remove_result([], ["x"])
    assert s.to_dict() == before
    s.remove_result([], ["y"])  # what was added can be taken back
    # (the same counts as these two results; the categories in another order)
    assert s.category_stats() == Contingency().add_results([[], []], [[], ["x", "y"]]).category_stats()
    # The same with one more result that names a category, but not with a c cell.
    t = Contingency().add_results([["z"], [], []], [[], ["y"], ["x", "y"]])
    before = t.to_dict()
    with pytest.raises(ValueError, match=r"^remove_result: a category would hold more c cells "
                                         r"than the 1 results that would remain can give it"):
        t.remove_result([], ["x"])
    assert t.to_dict() == before


# The reader: fast on plain documents, naming every problem as it always did ---------------------

#: Documents mutated from small ones and the refusals of the reader before it was one (two
#: readers until 9df1106: tests/golden/make_state_refusals.py), word for word.
REFUSALS = json.loads((Path(__file__).parent / "golden" / "state_refusals.json").read_text())


def _outcome(read, document):
    """What ``read`` makes of ``document``: its value, or the type and message of its refusal."""
    try:
        return read(document)
    except (ValueError, TypeError) as error:
        return type(error), str(error)


def _refused(outcome) -> bool:
    return type(outcome) is tuple  # (a State is a named tuple)


def numpy_values(document):
    """``document`` with every ``int`` (not ``bool``) that fits an int64 made a numpy integer."""
    if isinstance(document, dict):
        return {key: numpy_values(value) for key, value in document.items()}
    if isinstance(document, list):
        return [numpy_values(value) for value in document]
    if type(document) is int and -(2**63) <= document < 2**63:
        return np.int64(document)
    return document


def as_plain(outcome):
    """A refusal's message with numpy integers shown as the integers they hold."""
    if _refused(outcome):
        # (a numpy integer's value shown as the int's, and its type's name as int's)
        plain = re.sub(r"np\.int64\((-?\d+)\)", r"\1", outcome[1])
        return outcome[0], re.sub(r"\bnot int64\b", "not int", plain)
    return outcome


def test_a_document_holding_a_numpy_integer_already_is_refused_alike_in_both_forms():
    """Pinned from the exploring profile: a mutated document whose format is ``np.int64(2)``
    (the property compared the numpy form's message, made plain, with the plain form's)."""
    document = {**Contingency(["x"]).to_dict(), "format": np.int64(2)}
    outcome = _outcome(read_state, document)
    assert outcome[1] == ("from_dict: format must be 'contingency.Contingency/2', "
                          "not np.int64(2)")
    assert as_plain(_outcome(read_state, numpy_values(document))) == as_plain(outcome)
    # and a "document" that is an integer: its type named, int or np.int64
    assert as_plain(_outcome(read_state, numpy_values(0))) == as_plain(_outcome(read_state, 0))


@pytest.mark.parametrize(("base", "changes", "refusal"),
                         [case for case in REFUSALS["cases"] if case[0] != "grouped"])
def test_every_refusal_is_the_one_the_reader_always_gave(base, changes, refusal):
    """The first problem, in the reader's order, named word for word as before; the same from
    a reader that has read the categories list before, and with numpy integers for ints."""
    document = {**REFUSALS["bases"][base], **changes}
    expected = (ValueError, refusal.removeprefix("ValueError: "))
    assert _outcome(read_state, document) == expected
    known: dict = {}
    for _ in range(2):
        assert _outcome(partial(read_state, known=known), document) == expected
    assert as_plain(_outcome(read_state, numpy_values(document))) == expected
    with pytest.raises(ValueError) as refused:
        Contingency.from_dict(document)
    assert str(refused.value) == expected[1]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), contingency_states())
def test_the_reader_reads_documents_written_and_mutated_alike_in_every_form(data, document):
    """On a document as written (which it takes) and mutated ones: the same state or the same
    refusal with the categories list read before, and with numpy integers for ints (read value
    by value); the document is left as it was, and a state taken makes an accumulator whose
    document reads back as the same accumulator."""
    for candidate in (document, data.draw(mutated(document))):
        before = repr(candidate)
        outcome = _outcome(read_state, candidate)
        assert repr(candidate) == before
        if _refused(outcome):
            assert outcome[1].startswith("from_dict: ")
        else:
            taken = Contingency.from_dict(candidate)
            assert Contingency.from_dict(taken.to_dict()) == taken
        known: dict = {}  # a categories list read before: the same state from the cache
        for _ in range(2):
            assert _outcome(partial(read_state, known=known), candidate) == outcome
        # (as_plain on both sides: a mutated document may hold numpy integers already)
        assert as_plain(_outcome(read_state, numpy_values(candidate))) == as_plain(outcome)
    assert Contingency.from_dict(document).to_dict() == document


@pytest.mark.parametrize(("changes", "match"), [
    ({"a": [1, -1]}, r"a\[1\] must be a non-negative integer count, not -1"),
    ({"a": [0, 0]}, r"the a cells add up to 0 but the result shapes say 1"),
    ({"confusion": [[0, 0, 1], [0, 1, 1], [0, 1, 1]]}, r"confusion\[2\] repeats the pair"),
    ({"confusion": [[0, 0, 1], [1, 1, 1]]}, r"confusion holds 2 right and 0 wrong"),
    ({"confusion": [[0, 0, 1], [1, 0, 1]]}, r"category 'p' has b = 0 but its single-label"),
    ({"categories": ["p", "p"]}, r"categories has a repeated label \('p'\)"),
    ({"declared": 3}, r"declared is 3 but there are only 2 categories"),
    ({"zero_division": 0.5}, r"zero_division must be 'perl', 0.0, 1.0 or 'nan', not 0.5"),
])
def test_a_document_with_a_problem_is_refused_by_name(changes, match):
    with pytest.raises(ValueError, match=f"^from_dict: {match}"):
        Contingency.from_dict(two_categories(**changes))


def test_an_integer_zero_division_past_a_float_is_refused_by_name():
    """Found by the reader's tests: float(10**309) overflows, which escaped as a traceback."""
    with pytest.raises(ValueError, match=r"^from_dict: zero_division must be 'perl', 0.0, 1.0 or "
                                         r"'nan', not 1000000000"):
        Contingency.from_dict(two_categories(zero_division=10**309))
    with pytest.raises(ValueError, match=r"^zero_division must be"):
        Contingency(zero_division=10**309)


def test_values_of_other_types_are_taken_as_the_values_they_hold():
    """numpy counts, float and bool categories: read value by value, the same state as their
    plain form's."""
    made = Contingency([1.5, True]).add_results([1.5, True], [1.5, 1.5])
    assert Contingency.from_dict(made.to_dict()) == made
    plain = two_categories()
    assert read_state({**plain, "a": [np.int64(v) for v in plain["a"]]}) == read_state(plain)
    assert read_state(numpy_values(plain)) == read_state(plain)
