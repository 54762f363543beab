#!/usr/bin/env python3
"""Regenerate the Perl Statistics::Contingency golden file.

This script builds a deterministic list of scenarios (hand-written edge cases
followed by streams drawn from ``random.Random`` with fixed seeds), feeds them
to ``statistics_contingency.pl`` (which drives the real Perl module
Statistics::Contingency) once per ``PERL_HASH_SEED`` value, merges the runs and
writes ``statistics_contingency.json`` next to this file.

Perl's macro averages sum the per-category values in hash order, so the last
bits of a macro value (and, rarely, a rounded ``stats_table`` digit) can depend
on the hash seed.  Wherever runs under different seeds disagree, the distinct
values are all kept (as a sorted list); nothing is chosen silently.

Requirements: ``perl`` on PATH with Statistics::Contingency and JSON::PP
(Debian: ``apt-get install libstatistics-contingency-perl``).  The script
fails loudly if they are missing.

Run from the repository root::

    python tests/golden/perl/generate.py
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeAlias

HERE = Path(__file__).resolve().parent
PERL_SCRIPT = HERE / "statistics_contingency.pl"
OUTPUT = HERE / "statistics_contingency.json"

#: ``PERL_HASH_SEED`` values (hex strings, as Perl reads them).  Perl only
#: uses a few low bits of the hash to pick a bucket in small hashes, and short
#: seeds such as "1".."7" are left-aligned, so they barely change the order;
#: these spread-out 64-bit seeds give genuinely different iteration orders.
HASH_SEEDS: tuple[str, ...] = (
    "0",
    "11111111",
    "22222222",
    "33333333",
    "9e3779b97f4a7c15",
    "bf58476d1ce4e5b9",
    "94d049bb133111eb",
    "d6e8feb86659fd93",
    "a0761d6478bd642f",
    "e7037ed1a0b428db",
    "8ebc6af09c88c6e3",
    "589965cc75374cc3",
    "1d8e4e27c47d124f",
    "c2b2ae3d27d4eb4f",
    "165667b19e3779f9",
    "27d4eb2f165667c5",
)

DEFAULT_FIGS: list[int] = [1, 2, 3, 4, 5, 6]
EXTRA_FIGS: list[int] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 17, 20]
METRICS: tuple[str, ...] = ("accuracy", "error", "precision", "recall", "F1")
CELLS: tuple[str, ...] = ("a", "b", "c", "d")

Json: TypeAlias = Any
Arg: TypeAlias = str | list[str] | dict[str, dict[str, Json]]
Step: TypeAlias = list[Json]

#: Values that are false in Perl (JSON null decodes to undef, false to a false
#: JSON::PP::Boolean, 0.0 to the number 0) and values that are true in Perl
#: (note "0.0", "00" and " " are true strings; only "" and "0" are false).
PERL_FALSE: tuple[Json, ...] = (0, "", "0", None, False, 0.0)
PERL_TRUE: tuple[Json, ...] = (1, 1, 1, "1", "yes", 2, "0.0", "00", " ", -1, 0.5, True, "a")


# ---------------------------------------------------------------------------
# Scenario construction
# ---------------------------------------------------------------------------


def arg_names(arg: Arg) -> list[str]:
    """All category names mentioned by an add_result argument (any value)."""
    if isinstance(arg, str):
        return [arg]
    if isinstance(arg, list):
        return list(arg)
    return list(arg["hash"])


class Scenarios:
    """Collects scenarios, checking ids are unique and computing has_unknown."""

    def __init__(self) -> None:
        self.items: list[dict[str, Json]] = []
        self._ids: set[str] = set()

    def add(
        self,
        sid: str,
        categories: Sequence[str] | dict[str, Json],
        steps: Iterable[Step],
        figs: Sequence[int] = DEFAULT_FIGS,
    ) -> None:
        if sid in self._ids:
            raise ValueError(f"duplicate scenario id {sid!r}")
        self._ids.add(sid)
        steps = [list(step) for step in steps]
        declared = set(categories)
        if "error_message" in declared:
            raise ValueError("'error_message' is reserved in category_stats")
        unknown = False
        for step in steps:
            if step[0] == "add":
                if len(step) != 3:
                    raise ValueError(f"{sid}: bad add step {step!r}")
                for arg in step[1:]:
                    if any(name not in declared for name in arg_names(arg)):
                        unknown = True
            elif step[0] == "set_entries":
                if len(step) != 5 or not all(type(v) is int and v >= 0 for v in step[1:]):
                    raise ValueError(f"{sid}: bad set_entries step {step!r}")
            else:
                raise ValueError(f"{sid}: unknown step {step!r}")
        scenario: dict[str, Json] = {"id": sid}
        if isinstance(categories, dict):
            scenario["categories_hash"] = dict(categories)
        else:
            scenario["categories"] = list(categories)
        scenario["steps"] = steps
        scenario["figs"] = list(figs)
        scenario["has_unknown"] = unknown
        self.items.append(scenario)


def add(assigned: Arg, correct: Arg) -> Step:
    return ["add", assigned, correct]


def set_entries(a: int, b: int, c: int, d: int) -> Step:
    return ["set_entries", a, b, c, d]


def steps_from_cells(cells: dict[str, str]) -> list[Step]:
    """Build add steps giving each category an exact a/b/c/d sequence.

    ``cells`` maps a category to a string over "abcd" (all the same length);
    result j puts the category in cell ``cells[cat][j]``.
    """
    lengths = {len(seq) for seq in cells.values()}
    if len(lengths) > 1:
        raise ValueError("cell strings must have the same length")
    n = lengths.pop() if lengths else 0
    steps: list[Step] = []
    for j in range(n):
        assigned = [cat for cat, seq in cells.items() if seq[j] in "ab"]
        correct = [cat for cat, seq in cells.items() if seq[j] in "ac"]
        steps.append(add(assigned, correct))
    return steps


def cells(a: int, b: int, c: int, d: int) -> str:
    return "a" * a + "b" * b + "c" * c + "d" * d


def hand_written(sc: Scenarios) -> None:
    """Edge cases chosen by hand."""
    abc = ["a", "b", "c"]

    # --- Empty / degenerate objects -------------------------------------
    sc.add("no-results", abc, [])
    sc.add("no-results-one-category", ["x"], [], EXTRA_FIGS)
    sc.add("empty-categories", [], [])
    sc.add("empty-categories-hash", {}, [])
    sc.add("empty-categories-set-entries", [], [set_entries(1, 2, 3, 4)])
    sc.add("empty-categories-set-entries-zero", [], [set_entries(0, 0, 0, 0)])
    sc.add("empty-categories-add-empty", [], [add([], []), add([], [])])
    sc.add("empty-categories-add-unknown", [], [add("a", "b"), add(["a"], "a")])
    sc.add(
        "empty-categories-add-then-set-entries",
        [],
        [add("a", "a"), set_entries(5, 0, 0, 1), add(["b"], [])],
    )

    # --- set_entries interplay --------------------------------------------
    sc.add("set-entries-only", ["a", "b"], [set_entries(3, 1, 2, 10)])
    sc.add("set-entries-all-zero", abc, [set_entries(0, 0, 0, 0)])
    sc.add(
        "set-entries-then-add",
        abc,
        [set_entries(3, 1, 2, 10), add("a", "a"), add("b", "c"), add([], "a")],
    )
    sc.add(
        "add-set-entries-add",
        abc,
        [add("a", "a"), add("b", "a"), set_entries(7, 0, 1, 100), add(["a", "c"], "c")],
    )
    sc.add(
        "set-entries-twice",
        abc,
        [set_entries(1, 2, 3, 4), add("a", "b"), set_entries(9, 8, 7, 6)],
    )
    sc.add(
        "add-then-set-entries-zero",
        abc,
        [add("a", "a"), add("b", "c"), add("c", "c"), set_entries(0, 0, 0, 0)],
    )

    # --- Whole-stream extremes --------------------------------------------
    cats4 = ["w", "x", "y", "z"]
    rng = random.Random(11)
    labels = [rng.choice(cats4) for _ in range(20)]
    sc.add("all-perfect-single", cats4, [add(lab, lab) for lab in labels])
    multi = [sorted(rng.sample(cats4, rng.randint(0, 4))) for _ in range(20)]
    sc.add("all-perfect-multi", cats4, [add(m, list(m)) for m in multi])
    sc.add("all-perfect-one-result", cats4, [add("x", "x")])
    sc.add("nothing-assigned", cats4, [add([], lab) for lab in labels])
    sc.add("nothing-assigned-multi", cats4, [add([], m) for m in multi])
    sc.add("everything-assigned", cats4, [add(list(cats4), lab) for lab in labels])
    sc.add("everything-assigned-and-correct", cats4, [add(list(cats4), list(cats4))] * 5)
    sc.add("nothing-correct", cats4, [add(lab, []) for lab in labels])
    sc.add("all-wrong-single", ["p", "q"], [add("p", "q"), add("q", "p")] * 4)
    sc.add(
        "category-never-seen",
        ["a", "b", "never"],
        [add("a", "a"), add("b", "a"), add("b", "b"), add("a", ["a", "b"])],
    )
    sc.add(
        "one-category",
        ["only"],
        [add("only", "only"), add([], "only"), add("only", []), add([], [])],
    )
    sc.add("one-category-perfect", ["only"], [add("only", "only")] * 3)

    # --- Empty lists, duplicates, string vs list -----------------------------
    sc.add("empty-lists-both-sides", abc, [add([], [])] * 3)
    sc.add("empty-assigned-list", abc, [add([], "a"), add([], ["b", "c"]), add([], [])])
    sc.add("empty-correct-list", abc, [add("a", []), add(["b", "c"], []), add("a", "a")])
    dup_steps = [add(["a", "a", "b"], ["b", "b"]), add(["c", "c", "c"], ["c"]), add(["a", "a"], [])]
    sc.add("duplicates-in-lists", abc, dup_steps)
    sc.add("duplicates-removed", abc, [add(["a", "b"], ["b"]), add(["c"], ["c"]), add(["a"], [])])
    sc.add("single-strings", abc, [add("a", "a"), add("b", "a"), add("c", "b")])
    sc.add("one-element-lists", abc, [add(["a"], ["a"]), add(["b"], ["a"]), add(["c"], ["b"])])
    sc.add(
        "one-element-hashes",
        abc,
        [
            add({"hash": {"a": 1}}, {"hash": {"a": 1}}),
            add({"hash": {"b": 1}}, {"hash": {"a": 1}}),
            add({"hash": {"c": 1}}, {"hash": {"b": 1}}),
        ],
    )

    # --- Hash form with false and true values --------------------------------
    sc.add(
        "hash-false-values",
        ["a", "b", "c", "d"],
        [
            add({"hash": {"a": 1, "b": 0, "c": "", "d": "0"}}, {"hash": {"a": 1, "b": 1, "c": 0, "d": "0"}}),
            add(
                {"hash": {"a": 0, "b": "", "c": "0", "d": None}},
                {"hash": {"a": "", "b": "1", "c": False, "d": 0.0}},
            ),
            add({"hash": {}}, {"hash": {"a": "0", "b": "0", "c": "0", "d": "0"}}),
        ],
    )
    sc.add(
        "hash-true-strings",
        ["a", "b", "c", "d", "e"],
        [
            add(
                {"hash": {"a": "0.0", "b": "00", "c": " ", "d": "yes", "e": -1}},
                {"hash": {"a": 1, "b": 0.5, "c": True, "d": "0", "e": 2}},
            ),
            add({"hash": {"a": "0.0", "b": 0}}, {"hash": {"a": "0E0", "b": "false"}}),
        ],
    )
    sc.add(
        "hash-vs-list-mixed",
        abc,
        [
            add({"hash": {"a": 1, "b": 1}}, ["a"]),
            add("c", {"hash": {"c": 1, "a": 0}}),
            add(["a", "b", "c"], {"hash": {"b": "x"}}),
            add({"hash": {"a": "0"}}, "a"),
        ],
    )
    sc.add(
        "hash-unknown-false-keys",
        abc,
        [add({"hash": {"a": 1, "zz": 0}}, {"hash": {"a": 1, "yy": ""}}), add("b", "c")],
    )

    # --- Categories given as a hashref / unusual names ------------------------
    sc.add(
        "categories-hash",
        {"a": 1, "b": 0, "c": None, "d": ""},
        [add("a", "a"), add("b", "a"), add(["c", "d"], "d"), add([], "b")],
    )
    sc.add("categories-hash-one", {"solo": 1}, [add("solo", "solo"), add([], "solo")])
    sc.add(
        "categories-duplicated-in-list",
        ["a", "b", "a", "c", "b"],
        [add("a", "a"), add("b", "c"), add(["a", "c"], "c")],
    )
    odd = ["", "0", "00", "0.0", " ", "a b", "1", "10", "é", "日本", "x\ty", "UPPER", "upper"]
    rng = random.Random(12)
    sc.add(
        "odd-category-names",
        odd,
        [add(rng.sample(odd, rng.randint(0, 3)), rng.sample(odd, rng.randint(0, 3))) for _ in range(30)]
        + [add("", ""), add("0", "0"), add("0", ""), add({"hash": {"": 1, "0": 1}}, [""])],
    )
    sc.add(
        "unknown-categories",
        abc,
        [add("a", "a"), add("zzz", "a"), add(["a", "q"], ["q", "b"]), add({"hash": {"nope": 1}}, "c")],
    )
    sc.add("unknown-only", abc, [add("x", "y"), add(["x", "y"], "z")])

    # --- Contingency-table branches (micro via set_entries) ------------------
    for mask in range(16):
        bits = [(mask >> (3 - i)) & 1 for i in range(4)]
        entries = [v * b for v, b in zip((2, 3, 5, 7), bits, strict=True)]
        tag = "".join(str(b) for b in bits)
        sc.add(f"micro-pattern-{tag}", ["a", "b"], [set_entries(*entries)])
    # Same branches per category (macro == category value with one category).
    for mask in range(1, 16):
        bits = [(mask >> (3 - i)) & 1 for i in range(4)]
        counts = [v * b for v, b in zip((2, 3, 1, 4), bits, strict=True)]
        tag = "".join(str(b) for b in bits)
        sc.add(f"category-pattern-{tag}", ["x"], steps_from_cells({"x": cells(*counts)}))
    # All 15 non-empty patterns at once, one category per pattern.
    pattern_cells: dict[str, str] = {}
    for mask in range(1, 16):
        bits = [(mask >> (3 - i)) & 1 for i in range(4)]
        share, extra = divmod(12, sum(bits))
        counts = [share * bit for bit in bits]
        counts[bits.index(1)] += extra  # every category covers the same 12 results
        pattern_cells["p" + "".join(str(bit) for bit in bits)] = cells(*counts)
    sc.add("all-category-patterns", list(pattern_cells), steps_from_cells(pattern_cells))

    # --- Large counts ----------------------------------------------------------
    big = 10**12
    for i, vals in enumerate(
        [
            (big, 0, 1, 7),
            (0, 0, 0, big),
            (big, big, big, big),
            (1, big, big, 0),
            (big, 1, 1, big),
            (7, 0, big, 1),
            (10**15, 3, 10**15 - 1, 10**14),
            (2**53, 1, 1, 1),
            (2**53 + 1, 2**53 + 1, 3, 2**53 - 1),
            (3, 2**53 + 1, 2**53 + 1, 5),
        ]
    ):
        sc.add(f"large-counts-{i}", ["a", "b"], [set_entries(*vals)], EXTRA_FIGS)
    sc.add("large-counts-then-add", ["a", "b"], [set_entries(big, 0, 1, 7), add("a", "b")], EXTRA_FIGS)

    # --- Significant-figure formatting --------------------------------------
    # Micro precision = 1/(1 + b/a), recall = 1/(1 + c/a), error = (b+c)/n.
    sig_tables: list[tuple[str, tuple[int, int, int, int]]] = [
        ("one", (5, 0, 0, 0)),
        ("zero", (0, 4, 4, 0)),
        ("tenth", (1, 9, 0, 90)),
        ("hundredth", (1, 99, 0, 0)),
        ("thousandth", (1, 999, 0, 0)),
        ("1e-4", (1, 9999, 9999, 0)),
        ("1e-5", (1, 99999, 0, 0)),
        ("1e-6", (1, 999999, 0, 0)),
        ("1e-7", (1, 9999999, 9999999, 0)),
        ("1e-8", (1, 99999999, 0, 10**12)),
        ("1e-9", (1, 999999999, 0, 0)),
        ("0.0005", (1, 1999, 1999, 0)),
        ("0.3125", (5, 11, 11, 0)),
        ("0.0625", (1, 15, 15, 0)),
        ("0.125", (1, 7, 7, 0)),
        ("0.25", (1, 3, 3, 0)),
        ("0.375", (3, 5, 5, 0)),
        ("0.5", (1, 1, 1, 0)),
        ("0.999951", (999951, 49, 49, 0)),
        ("0.99995", (99995, 5, 5, 0)),
        ("0.9995", (9995, 5, 5, 0)),
        ("0.995", (995, 5, 5, 0)),
        ("0.95", (95, 5, 5, 0)),
        ("0.9999999", (9999999, 1, 1, 0)),
        ("0.099999", (99999, 900001, 900001, 0)),
        ("0.0999999", (999999, 9000001, 0, 0)),
        ("0.00999999", (999999, 99000001, 0, 0)),
        ("0.015", (3, 197, 197, 0)),
        ("0.0015", (3, 1997, 1997, 0)),
        ("0.45", (9, 11, 11, 0)),
        ("one-third", (1, 2, 2, 0)),
        ("two-thirds", (2, 1, 1, 0)),
        ("error-tiny", (10**9, 0, 1, 10**9)),
        ("error-0.001", (500, 1, 0, 499)),
        ("error-0.1", (5, 0, 1, 4)),
        ("error-just-under-1", (1, 99999, 99999, 0)),
    ]
    for name, vals in sig_tables:
        sc.add(f"sigfigs-micro-{name}", ["a"], [set_entries(*vals)], EXTRA_FIGS)
    # The same kind of values reached through per-category (macro) tables.
    macro_tables: list[tuple[str, tuple[int, int, int, int]]] = [
        ("tenth", (1, 9, 9, 1)),
        ("hundredth", (1, 99, 0, 0)),
        ("thousandth", (1, 999, 0, 0)),
        ("0.0005", (1, 1999, 0, 0)),
        ("0.3125", (5, 11, 11, 0)),
        ("0.0625", (1, 15, 15, 3)),
        ("0.9995", (1999, 1, 1, 0)),
        ("one-third", (1, 2, 2, 1)),
    ]
    for name, vals in macro_tables:
        sc.add(f"sigfigs-macro-{name}", ["x"], steps_from_cells({"x": cells(*vals)}), EXTRA_FIGS)
    # Macro recall 0.99995 (rounds to 1.000 at 3 figs) without 20000 results:
    # 199 categories with recall 1 plus one with recall 0.99.
    wide = {f"r{i:03d}": "d" * 100 for i in range(1, 200)}
    wide["r000"] = cells(99, 0, 1, 0)
    sc.add("sigfigs-macro-recall-0.99995", sorted(wide), steps_from_cells(wide), EXTRA_FIGS)
    # Two categories averaging to a power of ten or a rounding boundary.
    sc.add(
        "sigfigs-macro-average-0.05",
        ["x", "y"],
        steps_from_cells({"x": cells(1, 9, 9, 1), "y": cells(0, 10, 10, 0)}),
        EXTRA_FIGS,
    )
    sc.add(
        "sigfigs-macro-average-0.9995",
        ["x", "y"],
        steps_from_cells({"x": cells(999, 1, 1, 999), "y": cells(1000, 0, 0, 1000)}),
        EXTRA_FIGS,
    )
    # figs <= 0: 0 (and "false") means the default 3; negative figs give a
    # negative precision, which Perl's sprintf prints literally ("%.-1f").
    sc.add("figs-zero-and-negative", abc, [add("a", "a"), add("b", "a"), add("c", "c")], [0, -1, -2, -3, -10])
    sc.add("figs-negative-small-values", ["a"], [set_entries(1, 999, 0, 0)], [-1, -2, -3, -4])
    sc.add("figs-default-only", abc, [add("a", "b")], [0])
    sc.add("figs-large", abc, [add("a", "b"), add("a", "a"), add("c", ["a", "c"])], [15, 17, 20, 25, 30])

    # --- Many categories (table widths, long hash orders) ---------------------
    for k, n, seed in ((40, 120, 21), (60, 80, 22), (100, 50, 23), (25, 300, 24)):
        cats = [f"cat{i:03d}" for i in range(k)]
        rng = random.Random(seed)
        steps = []
        for _ in range(n):
            correct = rng.sample(cats, rng.randint(1, 3))
            assigned = correct[:] if rng.random() < 0.4 else rng.sample(cats, rng.randint(0, 3))
            steps.append(add(assigned, correct))
        sc.add(f"many-categories-{k}", cats, steps)


# ---------------------------------------------------------------------------
# Random scenarios
# ---------------------------------------------------------------------------

NAME_POOLS: tuple[tuple[str, ...], ...] = (
    tuple("abcdefghijklmnopqrstuvwxyz"),
    (
        "sports",
        "politics",
        "science",
        "arts",
        "business",
        "health",
        "travel",
        "food",
        "music",
        "film",
        "tech",
        "weather",
        "crime",
        "education",
        "religion",
    ),
    tuple(str(i) for i in range(20)),
    ("A", "a", "B", "b", "x y", "x-y", "x_y", "0", "", "é", "ü", "日本", "Ωmega", "tab\t", "nl\n"),
)


def pick_categories(rng: random.Random, k: int) -> list[str]:
    pool = rng.choice(NAME_POOLS)
    if k > len(pool):
        pool = tuple(f"c{i}" for i in range(k))
    return rng.sample(pool, k)


def render(rng: random.Random, names: list[str], universe: list[str], style: str) -> Arg:
    """Render a set of names as a string, list or {"hash": ...} argument."""
    if style == "mixed":
        style = rng.choice(("string", "list", "hash"))
    if style == "string" and len(names) == 1:
        return names[0]
    if style == "hash":
        table: dict[str, Json] = {name: rng.choice(PERL_TRUE) for name in names}
        for other in universe:
            if other not in table and rng.random() < 0.3:
                table[other] = rng.choice(PERL_FALSE)
        keys = list(table)
        rng.shuffle(keys)
        return {"hash": {key: table[key] for key in keys}}
    out = list(names)
    if out and rng.random() < 0.1:
        out.append(rng.choice(out))  # duplicate inside a list
    rng.shuffle(out)
    return out


def random_figs(rng: random.Random) -> list[int]:
    figs = sorted(rng.sample(range(1, 7), rng.randint(2, 4)))
    if rng.random() < 0.1:
        figs.append(rng.choice((0, 7, 8, 10)))
    return figs


def maybe_hash_categories(rng: random.Random, cats: list[str]) -> list[str] | dict[str, Json]:
    if rng.random() < 0.15:
        return {cat: rng.choice((1, 0, "", None, "x")) for cat in cats}
    return cats


def insert_set_entries(rng: random.Random, steps: list[Step], count: int) -> None:
    for _ in range(count):
        where = rng.randint(0, len(steps))
        scale = rng.choice((1, 10, 1000, 10**6))
        vals = [rng.randint(0, scale) if rng.random() < 0.8 else 0 for _ in range(4)]
        steps.insert(where, set_entries(*vals))


def single_label(sc: Scenarios, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        k = rng.randint(1, 12)
        cats = pick_categories(rng, k)
        n = rng.choice((0, 1, 2, 3, 5, 10, 20, 40, 80, 200, rng.randint(0, 120)))
        accuracy = rng.choice((0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97, 1.0))
        style = rng.choice(("string", "string", "list", "hash", "mixed"))
        skew = rng.random() < 0.3  # most results in one category
        steps: list[Step] = []
        for _ in range(n):
            correct = cats[0] if skew and rng.random() < 0.7 else rng.choice(cats)
            if rng.random() < accuracy:
                assigned = [correct]
            elif rng.random() < 0.15:
                assigned = []
            else:
                assigned = [rng.choice(cats)]
            steps.append(add(render(rng, assigned, cats, style), render(rng, [correct], cats, style)))
        sc.add(f"single-label-{i:03d}", maybe_hash_categories(rng, cats), steps, random_figs(rng))


def multi_label(sc: Scenarios, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        k = rng.randint(1, 15)
        cats = pick_categories(rng, k)
        n = rng.choice((1, 3, 5, 10, 20, 40, 80, 150, rng.randint(0, 100)))
        quality = rng.choice((0.0, 0.3, 0.6, 0.9, 1.0))
        style = rng.choice(("list", "list", "hash", "mixed"))
        steps: list[Step] = []
        for _ in range(n):
            correct = rng.sample(cats, rng.randint(0, min(4, k)))
            if rng.random() < quality:
                assigned = list(correct)
            else:
                assigned = rng.sample(cats, rng.randint(0, min(4, k)))
            steps.append(add(render(rng, assigned, cats, style), render(rng, correct, cats, style)))
        sc.add(f"multi-label-{i:03d}", maybe_hash_categories(rng, cats), steps, random_figs(rng))


def with_unknown(sc: Scenarios, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        k = rng.randint(1, 10)
        cats = pick_categories(rng, k)
        extra = [f"unknown{j}" for j in range(rng.randint(1, 4))]
        universe = cats + extra
        n = rng.randint(1, 80)
        style = rng.choice(("string", "list", "hash", "mixed"))
        steps: list[Step] = []
        for _ in range(n):
            correct = rng.sample(universe, rng.randint(0, min(3, len(universe))))
            assigned = (
                list(correct)
                if rng.random() < 0.5
                else rng.sample(universe, rng.randint(0, min(3, len(universe))))
            )
            steps.append(add(render(rng, assigned, universe, style), render(rng, correct, universe, style)))
        # Guarantee at least one unknown name appears.
        steps.insert(
            rng.randint(0, len(steps)),
            add(render(rng, [extra[0]], universe, style), render(rng, [cats[0]], universe, style)),
        )
        if rng.random() < 0.2:
            insert_set_entries(rng, steps, 1)
        sc.add(f"unknown-{i:03d}", maybe_hash_categories(rng, cats), steps, random_figs(rng))


def with_set_entries(sc: Scenarios, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        k = rng.randint(1, 8)
        cats = pick_categories(rng, k)
        n = rng.randint(0, 60)
        style = rng.choice(("string", "list", "hash", "mixed"))
        steps: list[Step] = []
        for _ in range(n):
            correct = rng.sample(cats, rng.randint(0, min(3, k)))
            assigned = list(correct) if rng.random() < 0.6 else rng.sample(cats, rng.randint(0, min(3, k)))
            steps.append(add(render(rng, assigned, cats, style), render(rng, correct, cats, style)))
        insert_set_entries(rng, steps, rng.randint(1, 3))
        sc.add(f"set-entries-{i:03d}", maybe_hash_categories(rng, cats), steps, random_figs(rng))


def build_scenarios() -> list[dict[str, Json]]:
    sc = Scenarios()
    hand_written(sc)
    single_label(sc, 140, seed=1001)
    multi_label(sc, 140, seed=2002)
    with_unknown(sc, 60, seed=3003)
    with_set_entries(sc, 60, seed=4004)
    return sc.items


# ---------------------------------------------------------------------------
# Running Perl
# ---------------------------------------------------------------------------


def check_perl() -> str:
    perl = shutil.which("perl")
    if perl is None:
        sys.exit("error: perl not found on PATH (needed to regenerate the golden file)")
    probe = subprocess.run(
        [perl, "-MStatistics::Contingency", "-MJSON::PP", "-e", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        sys.exit(
            "error: Perl modules Statistics::Contingency and JSON::PP are required "
            "(Debian: apt-get install libstatistics-contingency-perl):\n" + probe.stderr
        )
    return perl


def run_perl(perl: str, payload: bytes, seed: str) -> dict[str, Json]:
    env = dict(os.environ)
    env.update(PERL_HASH_SEED=seed, PERL_PERTURB_KEYS="0", LC_ALL="C")
    env.pop("PERL_HASH_SEED_DEBUG", None)
    proc = subprocess.run([perl, str(PERL_SCRIPT)], input=payload, capture_output=True, env=env, check=False)
    if proc.returncode != 0 or proc.stderr:
        raise RuntimeError(
            f"perl failed (seed {seed}, exit {proc.returncode}):\n{proc.stderr.decode(errors='replace')}"
        )
    result: dict[str, Json] = json.loads(proc.stdout)
    return result


# ---------------------------------------------------------------------------
# Merging runs
# ---------------------------------------------------------------------------


def distinct_floats(values: list[str], where: str) -> str | list[str]:
    for value in values:
        if not isinstance(value, str):
            raise TypeError(f"{where}: expected a %.17g string, got {value!r}")
        float(value)
    unique = sorted(set(values), key=lambda s: (float(s), s))
    return unique[0] if len(unique) == 1 else unique


def same(values: list[Json], where: str) -> Json:
    first = values[0]
    if any(v != first for v in values[1:]):
        raise RuntimeError(
            f"{where}: runs disagree on a value that must not depend on hash order: {values!r}"
        )
    return first


def merge_metric_table(tables: list[dict[str, Json]], where: str, with_cells: bool) -> dict[str, Json]:
    if "error_message" in tables[0]:
        return {"error_message": same([t.get("error_message") for t in tables], where)}
    same([sorted(t) for t in tables], where + " keys")
    out: dict[str, Json] = {}
    if with_cells:
        for cell in CELLS:
            values = [t[cell] for t in tables]
            if any(type(v) is not int for v in values):
                raise TypeError(f"{where}.{cell}: expected integers, got {values!r}")
            out[cell] = same(values, f"{where}.{cell}")
    for metric in METRICS:
        out[metric] = distinct_floats([t[metric] for t in tables], f"{where}.{metric}")
    return out


def merge(scenario: dict[str, Json], results: list[dict[str, Json]]) -> dict[str, Json]:
    sid = scenario["id"]
    same([r["id"] for r in results] + [sid], f"{sid}: id")
    merged = dict(scenario)
    merged["n_results"] = same([r["n_results"] for r in results], f"{sid}: n_results")
    merged["micro"] = merge_metric_table([r["micro"] for r in results], f"{sid}: micro", True)
    merged["macro"] = merge_metric_table([r["macro"] for r in results], f"{sid}: macro", False)

    stats = [r["category_stats"] for r in results]
    if "error_message" in stats[0]:
        merged["category_stats"] = {
            "error_message": same([s.get("error_message") for s in stats], f"{sid}: category_stats")
        }
    else:
        names = same([sorted(s) for s in stats], f"{sid}: category names")
        merged["category_stats"] = {
            name: merge_metric_table([s[name] for s in stats], f"{sid}: category_stats[{name!r}]", True)
            for name in names
        }

    tables = [r["stats_table"] for r in results]
    if "error_message" in tables[0]:
        merged["stats_table"] = {
            "error_message": same([t.get("error_message") for t in tables], f"{sid}: stats_table")
        }
    else:
        keys = [str(f) for f in dict.fromkeys(scenario["figs"])]
        same([sorted(t) for t in tables] + [sorted(keys)], f"{sid}: stats_table keys")
        merged["stats_table"] = {key: sorted({t[key] for t in tables}) for key in keys}
    return merged


def hash_order_dependent(scenario: dict[str, Json]) -> list[str]:
    """Names of the output fields whose value differs between hash seeds."""
    fields: list[str] = []
    for section in ("micro", "macro"):
        for key, value in scenario[section].items():
            if isinstance(value, list):
                fields.append(f"{section}.{key}")
    stats = scenario["category_stats"]
    if "error_message" not in stats:
        for name, table in stats.items():
            for key, value in table.items():
                if isinstance(value, list):
                    fields.append(f"category_stats[{name!r}].{key}")
    tables = scenario["stats_table"]
    if "error_message" not in tables:
        for key, value in tables.items():
            if len(value) > 1:
                fields.append(f"stats_table.{key}")
    return fields


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def dump(value: Json, indent: int = 0, width: int = 160) -> str:
    """JSON with one space of indentation, short containers kept on one line."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (list, dict)) or not value or len(flat) + indent <= width:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, list):
        items = [pad + dump(item, indent + 1, width) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [
        pad + json.dumps(key, ensure_ascii=False) + ": " + dump(item, indent + 1, width)
        for key, item in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def main() -> int:
    perl = check_perl()
    if not PERL_SCRIPT.is_file():
        sys.exit(f"error: missing {PERL_SCRIPT}")
    scenarios = build_scenarios()
    payload = json.dumps(scenarios, ensure_ascii=False).encode("utf-8")

    runs = [run_perl(perl, payload, seed) for seed in HASH_SEEDS]
    perl_version = same([run["perl_version"] for run in runs], "perl_version")
    module_version = same([run["module_version"] for run in runs], "module_version")
    for seed, run in zip(HASH_SEEDS, runs, strict=True):
        if len(run["results"]) != len(scenarios):
            raise RuntimeError(f"seed {seed}: expected {len(scenarios)} results, got {len(run['results'])}")

    merged = [merge(scenario, [run["results"][i] for run in runs]) for i, scenario in enumerate(scenarios)]
    document = {
        "perl_version": perl_version,
        "module_version": module_version,
        "perl_hash_seeds": list(HASH_SEEDS),
        "scenarios": merged,
    }
    OUTPUT.write_text(dump(document) + "\n", encoding="utf-8")

    dependent = {s["id"]: hash_order_dependent(s) for s in merged}
    dependent = {sid: fields for sid, fields in dependent.items() if fields}
    print(f"wrote {OUTPUT} ({len(merged)} scenarios, {OUTPUT.stat().st_size} bytes)")
    print(f"Perl {perl_version}, Statistics::Contingency {module_version}, {len(HASH_SEEDS)} hash seeds")
    print(f"{len(dependent)} scenarios have hash-order-dependent outputs")
    for sid, fields in dependent.items():
        print(f"  {sid}: {', '.join(fields)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
