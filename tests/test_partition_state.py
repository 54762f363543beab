"""PartitionComparison.to_dict()/from_dict(): the state only, format /2, every reachable state
round trips (JSON and pickle), every malformed document is refused with a from_dict: message.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contingency import PartitionComparison
from contingency.formulas._numeric import MAX_COUNT
from tests.strategies_partition import LABEL_POOL

FORMAT = "contingency.PartitionComparison/2"
VALID = {"format": FORMAT, "reference_labels": ["x", "y"], "model_labels": [1],
         "cells": [[0, 0, 2], [1, 0, 1]]}

label = st.sampled_from([*LABEL_POOL, 2.5, True, -7, "ü"])
operation = st.one_of(
    st.tuples(st.just("add"), label, label),
    st.tuples(st.just("remove"), st.integers(0, 50)),
    st.tuples(st.just("add_many"), st.lists(st.tuples(label, label, st.integers(0, 4)),
                                             max_size=8)),
    st.tuples(st.just("remove_many"), st.integers(0, 50), st.integers(1, 3)),
    st.tuples(st.just("merge"), st.lists(st.tuples(label, label), max_size=5)),
    st.tuples(st.just("huge"), st.integers(1, 2**62), label, label),
    st.tuples(st.just("reset")),
)


def elements(comparison: PartitionComparison) -> list[tuple[object, object]]:
    state = comparison.to_dict()
    return [(state["reference_labels"][r], state["model_labels"][m])
            for r, m, _ in state["cells"]]


def play(operations) -> PartitionComparison:
    """An accumulator in a state reached by a sequence of public calls."""
    comparison = PartitionComparison()
    for op in operations:
        present = elements(comparison)
        room = MAX_COUNT - comparison.n_elements  # a call past the limit is refused: not played
        if op[0] == "add" and room:
            comparison.add(op[1], op[2])
        elif op[0] == "remove" and present:
            comparison.remove(*present[op[1] % len(present)])
        elif op[0] == "add_many" and op[1] and sum(w for _, _, w in op[1]) <= room:
            reference, model, weights = zip(*op[1])
            comparison.add_many(list(reference), list(model), weights=list(weights))
        elif op[0] == "remove_many" and present:
            reference, model = present[op[1] % len(present)]
            state = comparison.to_dict()
            counts = {(state["reference_labels"][r], state["model_labels"][m]): n
                      for r, m, n in state["cells"]}
            weight = min(op[2], counts[reference, model])
            comparison.remove_many([reference], [model], weights=[weight])
        elif op[0] == "merge" and len(op[1]) <= room:
            other = PartitionComparison()
            for r, m in op[1]:
                other.add(r, m)
            comparison = comparison + other if op[1] else comparison.copy()
        elif op[0] == "huge" and op[1] <= room:
            comparison.add_many([op[2]], [op[3]], weights=[op[1]])
        elif op[0] == "reset":
            comparison.reset()
    return comparison


def assert_identical(rebuilt: PartitionComparison, original: PartitionComparison) -> None:
    assert rebuilt == original
    assert rebuilt.to_dict() == original.to_dict()
    assert rebuilt.table_sums() == original.table_sums()
    assert rebuilt.pair_confusion() == original.pair_confusion()
    assert rebuilt.homogeneity == original.homogeneity
    assert rebuilt.purity == original.purity
    assert rebuilt.scores() == original.scores()  # every score, at any count


@given(st.lists(operation, max_size=12))
@example([])
@example([("add", "a", 1), ("remove", 0)])
@example([("huge", 2**62, "big", "big"), ("huge", 2**62 - 1, "big", "big"), ("add", "a", "a")])
# A huge cluster beside a small one: adjusted MI warned (log2 of a window of width 0).
@example([("add", 0, 0), ("huge", 952_781_887_828_138_944, "big", "big")])
@example([("huge", 10**13, 0, 0), ("huge", 10**13, 0, 1), ("huge", 10**13, 1, 0),
          ("huge", 10**13, 1, 1)])  # adjusted MI took about a minute here (issue 14)
def test_every_reachable_state_round_trips_through_json_and_pickle(operations):
    comparison = play(operations)
    state = comparison.to_dict()
    assert set(state) == {"format", "reference_labels", "model_labels", "cells"}  # no scores
    assert state["format"] == FORMAT
    rebuilt = PartitionComparison.from_dict(json.loads(json.dumps(state, allow_nan=False)))
    assert_identical(rebuilt, comparison)
    unpickled = pickle.loads(pickle.dumps(comparison))
    assert_identical(unpickled, comparison)
    if comparison.n_elements == MAX_COUNT:
        return
    for copy in (rebuilt, unpickled):  # both keep streaming like the original
        copy.add("next", "next")
        assert copy.n_elements == comparison.n_elements + 1
        copy.remove("next", "next")
        assert_identical(copy, comparison)


def test_a_format_1_document_of_0_1_0_dev0_is_read_as_it_is():
    # What 0.1.0.dev0's to_dict wrote for from_labels(["x", "x", "y"], [1, 1, 1]).
    old = {"format": "contingency.PartitionComparison/1", "reference_labels": ["x", "y"],
           "model_labels": [1], "cells": [[0, 0, 2], [1, 0, 1]]}
    read = PartitionComparison.from_dict(old)
    assert read == PartitionComparison.from_labels(["x", "x", "y"], [1, 1, 1])
    assert read.to_dict() == {**old, "format": FORMAT}
    with pytest.raises(ValueError, match=r"^from_dict: missing keys \['cells'\]$"):
        PartitionComparison.from_dict({k: v for k, v in old.items() if k != "cells"})


@pytest.mark.parametrize("version", ["contingency.PartitionComparison/3",
                                     "contingency.Contingency/2", 2, None])
def test_other_formats_are_refused_naming_the_format(version):
    with pytest.raises(ValueError, match=f"^from_dict: format must be '{FORMAT}', not "
                                         f"{version!r}$"):
        PartitionComparison.from_dict({**VALID, "format": version})


#: The count limit's message, the same on every path (formulas._numeric.check_room).
LIMIT = r"the accumulator would hold \d+ elements; at most 2\*\*63 - 1 are supported"

MALFORMED = [
    ({"format": FORMAT}, r"missing keys \['cells', 'model_labels', 'reference_labels'\]"),
    ({**VALID, "scores": {}}, r"unknown keys \['scores'\]"),
    ({**VALID, 3: 1}, r"unknown keys \[3\]"),
    ({**VALID, "reference_labels": "xy"}, "reference_labels must be a list"),
    ({**VALID, "reference_labels": ("x", "y")}, "reference_labels must be a list"),
    ({**VALID, "reference_labels": ["x", ["y"]]}, r"reference_labels\[1\]: \['y'\] is not a label"),
    ({**VALID, "reference_labels": ["x", float("nan")]}, r"reference_labels\[1\]: nan is not"),
    ({**VALID, "reference_labels": ["x", 1.0, True]}, r"reference_labels has a repeated label \(True\)"),
    ({**VALID, "model_labels": [1, 1.0]}, r"model_labels has a repeated label \(1.0\)"),
    ({**VALID, "cells": {"0": 1}}, "cells must be a list"),
    ({**VALID, "cells": [(0, 0, 2), [1, 0, 1]]}, r"cells\[0\] must be \[row, column, count\]"),
    ({**VALID, "cells": [[0, 0, 2, 1], [1, 0, 1]]}, r"cells\[0\] must be \[row, column, count\]"),
    ({**VALID, "cells": [[0, 0, True], [1, 0, 1]]}, r"cells\[0\] must be a non-negative integer"),
    ({**VALID, "cells": [[0, 0, "2"], [1, 0, 1]]}, r"cells\[0\] must be a non-negative integer"),
    ({**VALID, "cells": [[0, 0, 2.0], [1, 0, 1]]}, r"cells\[0\] must be a non-negative integer"),
    ({**VALID, "cells": [[0, 0, -2], [1, 0, 1]]}, r"cells\[0\] must be a non-negative integer"),
    ({**VALID, "cells": [[-1, 0, 2], [1, 0, 1]]}, r"cells\[0\] must be a non-negative integer"),
    ({**VALID, "cells": [[0, 0, 2], [2, 0, 1]]}, r"cells\[1\] = \[2, 0, 1\] points outside"),
    ({**VALID, "cells": [[0, 0, 2], [1, 0, 0]]}, r"cells\[1\] has count 0"),
    ({**VALID, "cells": [[0, 0, 2], [0, 0, 2], [1, 0, 1]]}, r"cells\[1\] repeats the cell \(0, 0\)"),
    ({**VALID, "cells": [[0, 0, 2]]}, "reference label 'y' has no elements"),
    ({**VALID, "model_labels": [1, 2]}, "model label 2 has no elements"),
    ({**VALID, "cells": [[0, 0, 2**63], [1, 0, 1]]}, LIMIT),
    ({**VALID, "cells": [[0, 0, 2**62], [1, 0, 2**62]]}, LIMIT),
    ({**VALID, "cells": [[0, 0, 10**400], [1, 0, 1]]}, LIMIT),
]


@pytest.mark.parametrize(("document", "message"), MALFORMED)
def test_malformed_documents_are_refused_with_a_from_dict_message(document, message):
    with pytest.raises(ValueError, match=f"^from_dict: {message}"):
        PartitionComparison.from_dict(document)


def test_the_limit_itself_is_accepted():
    at_limit = {**VALID, "cells": [[0, 0, MAX_COUNT - 1], [1, 0, 1]]}
    assert PartitionComparison.from_dict(at_limit).n_elements == MAX_COUNT


def test_numpy_integers_are_accepted_wherever_integers_are():
    document = {"format": FORMAT, "reference_labels": ["x", np.int64(7)],
                "model_labels": [np.uint8(1)],
                "cells": [[np.int64(0), np.int32(0), np.uint64(2)], [1, 0, np.int16(1)]]}
    read = PartitionComparison.from_dict(document)
    assert read == PartitionComparison.from_labels(["x", "x", 7], [1, 1, 1])
    assert json.dumps(read.to_dict())  # the labels came back as Python ints


def test_labels_and_cells_in_any_order_give_the_same_accumulator():
    shuffled = {**VALID, "reference_labels": ["y", "x"], "cells": [[0, 0, 1], [1, 0, 2]]}
    assert PartitionComparison.from_dict(shuffled) == PartitionComparison.from_dict(VALID)
    assert PartitionComparison.from_dict(shuffled).to_dict() == VALID


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**64) | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=12)


@given(st.dictionaries(st.sampled_from(["format", "reference_labels", "model_labels", "cells",
                                        "scores"]), json_value),
       st.booleans())
def test_fuzzed_documents_are_read_or_refused_with_a_from_dict_message(document, complete):
    if complete:  # most of a valid document, so that the checks past the keys are reached
        document = {**VALID, **{k: v for k, v in document.items() if k != "scores"}}
    try:
        read = PartitionComparison.from_dict(document)
    except (ValueError, TypeError) as error:
        message = str(error)
    else:
        assert PartitionComparison.from_dict(read.to_dict()) == read
        return
    assert message.startswith("from_dict: ")
