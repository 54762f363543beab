"""contingency._state_json: the shared from_dict checks, every error prefixed "from_dict: "."""

from __future__ import annotations

import numpy as np
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
    ({**STATE, "format": ["demo/1"]}, r"^from_dict: format must be 'demo/1', not \['demo/1'\]$"),
    # the format is checked first: a document of another version is named as such
    ({"format": "demo/0", "x": 1}, r"^from_dict: format must be 'demo/1', not 'demo/0'$"),
])
def test_bad_states_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        check_state(data, KEYS, "demo/1")


def test_earlier_formats_are_read_or_refused_naming_the_version():
    earlier = {"demo/0": None, "demo/00": "its counts were halved"}
    old = {**STATE, "format": "demo/0"}
    assert check_state(old, KEYS, "demo/1", earlier=earlier) is old
    with pytest.raises(ValueError, match=r"^from_dict: missing keys \['cells'\]$"):
        check_state({"format": "demo/0", "labels": []}, KEYS, "demo/1", earlier=earlier)
    with pytest.raises(ValueError, match=r"^from_dict: format 'demo/00' \(contingency 0\.1\.0\.dev0\) "
                                         r"is not read: its counts were halved$"):
        check_state({**STATE, "format": "demo/00"}, KEYS, "demo/1", earlier=earlier)
    with pytest.raises(ValueError, match=r"^from_dict: format must be 'demo/1', not 'demo/0'$"):
        check_state(old, KEYS, "demo/1")  # not listed: refused as any other format


def test_a_state_must_be_a_mapping():
    with pytest.raises(TypeError, match=r"^from_dict: needs a mapping, not list$"):
        check_state([], KEYS, "demo/1")


def test_labels():
    assert labels_from_json(["a", 1, 2.5, False], "labels") == ["a", 1, 2.5, False]
    numpy_labels = labels_from_json([np.int64(3), np.float64(0.5), np.str_("s")], "labels")
    assert numpy_labels == [3, 0.5, "s"]
    assert [type(label) for label in numpy_labels] == [int, float, str]
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
    for good in (np.int64(5), np.uint64(2**64 - 1), np.int8(0)):
        assert count_from_json(good, "cells[0]") == int(good)
        assert type(count_from_json(good, "cells[0]")) is int
    for bad in (-1, np.int64(-1), 1.0, np.float64(1), "3", None, True, np.bool_(True)):
        with pytest.raises(ValueError, match=r"^from_dict: cells\[0\] must be a non-negative"):
            count_from_json(bad, "cells[0]")


def test_signed_integers_follow_the_same_rule():
    for good in (-3, 0, 2**70, np.int64(-5), np.uint8(4)):
        assert count_from_json(good, "micro_offset[0]", signed=True) == int(good)
        assert type(count_from_json(good, "micro_offset[0]", signed=True)) is int
    for bad in (1.0, -2.0, np.float64(-1), "3", None, False, np.bool_(False)):
        with pytest.raises(ValueError, match=r"^from_dict: micro_offset\[0\] must be an integer, "):
            count_from_json(bad, "micro_offset[0]", signed=True)


def test_state_error():
    assert str(state_error("x")) == "from_dict: x"
