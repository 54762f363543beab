"""Write state_refusals.json: documents and the refusals of the from_dict reader before it was one.

Until 9df1106 ``Contingency.from_dict`` had two readers of a document, a
bulk one that gave up at the first doubt and one that named the problem
(``_read_each``); the one reader that replaced them must refuse every
document with the same words. This script pins what the old reader said:
``from_dict`` documents mutated by the fuzz's mutations (tests/test_fuzz.py)
from two small documents, one per kind of message (and one with several
changes, whose first problem is the one named), with hand-made ones for the
messages the mutations seldom reach; and the same for small
``GroupedContingency`` documents. Only documents of JSON values are kept.

Run it in a worktree of that commit, from its root::

    git worktree add /tmp/old 9df1106 && cd /tmp/old && (build the kernel: docs/performance.md)
    PYTHONPATH=$PWD python /path/to/tests/golden/make_state_refusals.py 20000 > state_refusals.json
"""

from __future__ import annotations

import json
import re
import sys

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from contingency import Contingency, GroupedContingency
from tests.test_contingency_state import two_categories, version_1_accumulator
from tests.test_fuzz import mutated

BASES = {"two": two_categories(), "three": version_1_accumulator().to_dict()}
GROUPED = GroupedContingency(["x", "y"], unknown="add").add_results(
    ["x", ["x", "y"], "y", "z"], ["x", ["y"], "x", "z"], groups=["g", "g", "h", "h"]).to_dict()

#: Hand-made changes of BASES: messages the mutations seldom reach, several problems at once.
EXTRA = [
    ("two", {"confusion": [[0, 1, 1], [1, 1, 1]]}),
    ("two", {"a": [0, 1], "confusion": [[0, 1, 1], [0, 0, 1]]}),
    ("two", {"c": [0, 1]}),
    ("two", {"a": [1, 0], "b": [1, 0], "c": [0, 1], "result_shapes": [[0, 0, 1, 1], [1, 2, 1, 1]],
             "confusion": []}),
    ("three", {"b": [0, 1, 0], "c": [1, 0, -1]}),
    ("three", {"declared": 0, "b": [0, 1, 0], "a": [2, 0, 9]}),
    ("two", {"result_shapes": [[0, 1, 1, 1], [0, 1, 1, 1], [9, 1, 1, 1]]}),
    ("two", {"result_shapes": [[0, 1, 1, 1], [1, 1, 1, 1], "x"], "micro_offset": "x"}),
    ("two", {"micro_offset": [0, 0, 0, -1.5], "a": [5, 0]}),
    ("two", {"confusion": [[0, 0, 1], [0, 1, 1], [0, 1, 1], [0, 9, 0]]}),
    ("two", {"confusion": [[0, 0, 1], [0, 1, 1], [0, 9, 0], [0, 1, 1]]}),
    ("two", {"confusion": [[0, 0, 1], [0, 1, 10**700]]}),
    ("two", {"result_shapes": [[0, 1, 1, 1], [1, 1, 1, 10**700]]}),
    ("two", {"a": [10**700, 0]}),
    ("two", {"micro_offset": [0, -(10**700), 0, 0]}),
    ("two", {"scale": 10**700}),
    ("two", {"declared": 10**700}),
    ("two", {"scale": 129}),
    ("two", {"zero_division": "NaN"}),
    ("two", {"categories": [1, True]}),
    ("two", {"categories": ["p", 10**700]}),
]


def kind(message: str) -> str:
    """The message with what it shows of the document left out: one per kind of refusal."""
    message = message.split(", not ")[0]
    message = re.sub(r" = .* (is not|names no)", r" = R \1", message)
    message = re.sub(r"\(group .*?\)", "(group G)", message)
    message = re.sub(r"(category|label|pair|shape|offset) .*? (has|was|makes)", r"\1 L \2", message)
    message = re.sub(r": .* is not a label", ": X is not a label", message)
    message = re.sub(r"repeated label \(.*\)", "repeated label (X)", message)
    message = re.sub(r"'[^']*'", "Q", message)
    return re.sub(r"-?\d+", "N", message)


def refusal(cls: type, document: object) -> str | None:
    try:
        cls.from_dict(document)  # type: ignore[attr-defined]
    except (ValueError, TypeError) as error:
        return f"{type(error).__name__}: {error}"
    except OverflowError:  # (a crash of check_zero_division, not a refusal)
        return None
    return None


def as_json(document: object) -> object:
    try:
        return json.loads(json.dumps(document, allow_nan=False))
    except (TypeError, ValueError):
        return None


def main(examples: int) -> None:
    found: dict[str, tuple[int, object]] = {}

    def keep(key: str, entry: object) -> None:
        size = len(json.dumps(entry))
        if size <= 1500 and (key not in found or size < found[key][0]):
            found[key] = (size, entry)

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None,
              database=None, derandomize=True, phases=[Phase.generate])
    @given(st.sampled_from(["two", "three", "grouped"]), st.data())
    def collect(name: str, data: st.DataObject) -> None:
        base = GROUPED if name == "grouped" else BASES[name]
        document = as_json(data.draw(mutated(base)))
        if name == "grouped":
            message = refusal(GroupedContingency, document)
            if message is not None:
                keep("grouped " + kind(message), ["grouped", document, message])
            return
        if not isinstance(document, dict) or set(document) != set(base):
            return
        message = refusal(Contingency, document)
        if message is None:
            return
        changes = {key: document[key] for key in base
                   if json.dumps(document[key]) != json.dumps(base[key])}
        keep(kind(message), [name, changes, message])
        if len(changes) > 1:
            keep(kind(message) + " (several)", [name, changes, message])

    collect()
    cases = [entry for _, entry in sorted(found.values(), key=lambda item: json.dumps(item[1]))]
    for name, changes in EXTRA:
        message = refusal(Contingency, {**BASES[name], **changes})
        assert message is not None
        cases.append([name, changes, message])
    write({"bases": {**BASES, "grouped": GROUPED}, "cases": cases})


def write(data: dict[str, list[object] | dict[str, object]]) -> None:
    """The file's layout: each base and each case on a line of its own."""
    bases = ",\n".join(f"  {json.dumps(name)}: {json.dumps(base)}"
                       for name, base in data["bases"].items())  # type: ignore[union-attr]
    cases = ",\n".join(f"  {json.dumps(case)}" for case in data["cases"])
    sys.stdout.write(f'{{"bases": {{\n{bases}\n}},\n"cases": [\n{cases}\n]}}\n')


if __name__ == "__main__":
    main(int(sys.argv[1]))
