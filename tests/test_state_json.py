"""contingency._state_json: the shared from_dict checks, every error prefixed "from_dict: "."""

from __future__ import annotations

import pytest

from contingency._state_json import check_state, count_from_json, labels_from_json, state_error

KEYS = ("format", "labels", "cells")
STATE = {"format": "demo/1", "labels": ["a"], "cells": []}


def test_a_valid_state_is_returned():
    assert check_state(STATE, KEYS, "demo/1") is STATE
    # derived keys may be there or not
    assert check_state({**STATE, "scores": {}}, KEYS, "demo/1", derived=("scores",))
    assert check_state(STATE, KEYS, "demo/1", derived=("scores",))


@pytest.mark.parametrize(("data", "message"), [
    ({"format": "demo/1", "labels": []}, r"^from_dict: missing keys \['cells'\]$"),
    ({**STATE, "extra": 1}, r"^from_dict: unknown keys \['extra'\]$"),
    ({**STATE, "format": "demo/2"}, r"^from_dict: format must be 'demo/1', not 'demo/2'$"),
])
def test_bad_states_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        check_state(data, KEYS, "demo/1")


def test_a_state_must_be_a_mapping():
    with pytest.raises(TypeError, match=r"^from_dict: needs a mapping, not list$"):
        check_state([], KEYS, "demo/1")


def test_labels():
    assert labels_from_json(["a", 1, 2.5, False], "labels") == ["a", 1, 2.5, False]
    with pytest.raises(ValueError, match=r"^from_dict: labels has a repeated label \(True\)$"):
        labels_from_json([1, True], "labels")  # equal as dictionary keys: one label
    with pytest.raises(ValueError, match=r"^from_dict: labels must be a list$"):
        labels_from_json("ab", "labels")
    with pytest.raises(ValueError, match=r"^from_dict: labels has a repeated label \('a'\)$"):
        labels_from_json(["a", "b", "a"], "labels")
    with pytest.raises(ValueError, match=r"^from_dict: labels\[1\]: None is not a label"):
        labels_from_json(["a", None], "labels")


def test_counts():
    assert count_from_json(2**70, "cells[0]") == 2**70
    for bad in (-1, 1.0, "3", None, True):
        with pytest.raises(ValueError, match=r"^from_dict: cells\[0\] must be a non-negative"):
            count_from_json(bad, "cells[0]")


def test_state_error():
    assert str(state_error("x")) == "from_dict: x"
