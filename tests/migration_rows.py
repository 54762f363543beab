"""The rows of docs/migration.md as data: each peer call, our translation, and the check of both.

Every row of every comparison table of the guide is one :class:`Row` here: its
section (the guide's ``##`` heading), the peer's cell and our cell exactly as the
guide writes them, and a check that runs the peer and our translation on each
input the row covers and asserts that they agree to 1e-12 relative, or differ
exactly as the row says. tests/test_migration.py runs every check and compares
this table with the guide's, so that neither can change without the other.

Peers are run live where the test extra installs them (scikit-learn, river, the
jaccard-concentration-index package); the others through golden files the real
peer wrote, with the inputs stored beside the outputs so that our side is
recomputed here (Statistics::Contingency: tests/golden/perl; R's NMF package:
tests/golden/nmf; torchmetrics: tests/golden/torchmetrics). Set::Partitions::Similarity
is checked against the outputs its documentation prints and against its
definitions (there is no golden file from the Perl module).

Random inputs are drawn from seeded generators (:func:`cases`), so every run sees
the same inputs; the kinds are those the issue names: binary labels, multiclass
1-d labels, multi-label indicator matrices, sample weights, and a category
absent from one side (predicted and never true, true and never predicted).
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import math
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jaccard_concentration_index as jci_package
import numpy as np
import pytest
import river.metrics
from sklearn import metrics as sk
from sklearn.preprocessing import label_binarize

import contingency
from contingency import (
    Contingency,
    PartitionComparison,
    are_subsets_disjoint,
    get_accuracy,
    get_accuracy_and_precision,
    get_distance,
    get_precision,
)
from tests.test_perl_golden import python_argument as perl_argument
from tests.test_perl_golden import replay as perl_replay
from tests.test_perl_golden import values as perl_floats

GOLDEN = Path(__file__).parent / "golden"

#: Relative tolerance of every comparison with a peer computing in float64.
REL = 1e-12
#: Absolute tolerance next to zero, where a relative one means nothing: a peer's
#: score near 0 (an adjusted index at chance) is a difference of nearly equal floats.
ABS = 1e-14


# The table ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of a table of docs/migration.md and the check that runs it."""

    section: str
    peer: str
    ours: str
    kinds: tuple[str, ...]
    check: Callable[[Any], None]
    inputs: Callable[[], Iterable[Any]]
    #: A real bug of the library this row shows: the test is a strict xfail with this reason.
    bug: str | None = None

    @property
    def id(self) -> str:
        return f"{self.section}: {self.peer}"


ROWS: list[Row] = []

#: Headings of docs/migration.md whose tables are not comparisons of calls, with the reason.
EXCLUDED_SECTIONS = {
    "Migration guide": "the table of argument orders compares no numbers: it says which "
                       "argument each library takes first",
}


def row(section: str, peer: str, ours: str, *, kinds: Sequence[str],
        inputs: Callable[[], Iterable[Any]] | None = None,
        bug: str | None = None) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    """Register the decorated check as the row ``(peer, ours)`` of ``section``.

    The check is called once per input: by default the random :func:`cases` of
    each of ``kinds``; ``inputs`` gives other inputs (a golden file's scenarios).
    """
    def register(check: Callable[[Any], None]) -> Callable[[Any], None]:
        source = inputs if inputs is not None else (lambda: cases(*kinds))
        ROWS.append(Row(section, peer, ours, tuple(kinds), check, source, bug))
        return check
    return register


# Inputs ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One pair of label arrays (truth first, as scikit-learn takes them) and its weights."""

    kind: str
    y_true: Any
    y_pred: Any
    sample_weight: list[int] | None = None

    @property
    def indicators(self) -> bool:
        return np.ndim(self.y_true) == 2


#: The number of random inputs drawn of each kind.
COUNT = 30
#: The kinds of classification input; the partition kinds follow.
LABEL_KINDS = ("binary", "multiclass", "weights", "absent")
INDICATOR_KINDS = ("indicators", "indicator weights")
PARTITION_KINDS = ("partitions", "partition weights", "partition edges")
NAMES = ("ant", "bee", "cat", "dog", "eel", "fox")


def _labels(rng: np.random.Generator, n: int, k: int, strings: bool) -> list[Any]:
    codes = rng.integers(0, k, n).tolist()
    return [NAMES[code] for code in codes] if strings else codes


def _draw(kind: str, rng: np.random.Generator, i: int) -> Case:
    n = int(rng.integers(1, 40))
    weights = rng.integers(0, 9, n).tolist() if "weights" in kind else None
    if kind == "binary":
        return Case(kind, rng.integers(0, 2, n).tolist(), rng.integers(0, 2, n).tolist())
    if kind in ("multiclass", "weights"):
        k = int(rng.integers(3, 7))
        strings = i % 2 == 1
        return Case(kind, _labels(rng, n, k, strings), _labels(rng, n, k, strings), weights)
    if kind == "absent":
        # Labels 0..k-1 on both sides, k predicted and never true, k + 1 true and never predicted.
        k = int(rng.integers(2, 5))
        y_true, y_pred = _labels(rng, n, k, False), _labels(rng, n, k, False)
        y_pred[rng.integers(0, n)] = k
        y_true[rng.integers(0, n)] = k + 1
        return Case(kind, y_true, y_pred)
    if kind in INDICATOR_KINDS:
        width = int(rng.integers(2, 6))
        y_true, y_pred = rng.integers(0, 2, (n, width)), rng.integers(0, 2, (n, width))
        if i % 3 == 0:
            y_pred[:, 0] = 0  # a column no result predicts
            y_true[0] = 0  # a result with no true label
        return Case(kind, y_true, y_pred, weights)
    if kind in ("partitions", "partition weights"):
        k_true, k_pred = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        return Case(kind, _labels(rng, n, k_true, i % 2 == 1), _labels(rng, n, k_pred, False),
                    weights if kind == "partition weights" else None)
    raise AssertionError(kind)


#: Fixed inputs at the edges of each kind, ahead of the random ones.
EDGES: dict[str, list[Case]] = {
    "binary": [Case("binary", [1], [1]), Case("binary", [0, 0, 0], [0, 0, 0]),
               Case("binary", [1, 1], [0, 0]), Case("binary", [0, 1, 1, 0], [0, 1, 1, 0])],
    "multiclass": [Case("multiclass", ["cat"], ["dog"]),
                   Case("multiclass", [2, 0, 1, 2], [2, 1, 1, 0])],
    "partition edges": [
        Case("partition edges", [], []),
        Case("partition edges", [0], [0]),
        Case("partition edges", [0, 0, 0, 0], [1, 1, 1, 1]),
        Case("partition edges", [0, 1, 2, 3], [0, 1, 2, 3]),  # identical, all singletons
        Case("partition edges", [0, 1, 2, 3], [5, 5, 5, 5]),
        Case("partition edges", [0, 0, 1, 1], [0, 1, 0, 1]),
        Case("partition edges", ["a", "a", "b"], [7, 7, 7]),
    ],
}


def cases(*kinds: str) -> Iterator[Case]:
    """The inputs of each kind: the fixed edge cases, then :data:`COUNT` seeded random draws."""
    for kind in kinds:
        yield from EDGES.get(kind, [])
        if kind == "partition edges":
            continue
        rng = np.random.default_rng([20, *map(ord, kind)])
        for i in range(COUNT):
            yield _draw(kind, rng, i)


# Comparisons -------------------------------------------------------------------------------------


def same(ours: Any, peer: Any, what: str = "") -> None:
    """``ours`` equals the peer's number (or array) to :data:`REL` relative; NaN equals NaN."""
    ours_array = np.asarray(ours, dtype=float)
    peer_array = np.asarray(peer, dtype=float)
    assert ours_array.shape == peer_array.shape, (what, ours, peer)
    close = np.isclose(ours_array, peer_array, rtol=REL, atol=ABS, equal_nan=True)
    assert bool(np.all(close)), (what, ours, peer)


def quietly(function: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """A peer's call with its warnings silenced (its number stands; pytest treats warnings
    as errors): scikit-learn warns of undefined scores, of a label only one side has..."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **options)


def raises_both(ours: Callable[[], Any], peer: Callable[[], Any]) -> None:
    """Both refuse the input with a ValueError."""
    with pytest.raises(ValueError):
        quietly(peer)
    with pytest.raises(ValueError):
        ours()


def agree(ours: Callable[[], Any], peer: Callable[[], Any], what: str = "") -> None:
    """The same number, or both refuse the input with a ValueError."""
    try:
        expected = quietly(peer)
    except ValueError:
        with pytest.raises(ValueError):
            ours()
        return
    same(ours(), expected, what)


def from_labels(case: Case, zero_division: Any = 0.0) -> Contingency:
    """The scikit-learn section's accumulator: ``Contingency.from_labels(y_true, y_pred)``
    with the case's weights, ``zero_division=0.0`` (scikit-learn's default numbers)."""
    return Contingency.from_labels(case.y_true, case.y_pred, sample_weight=case.sample_weight,
                                   zero_division=zero_division)


def some_labels(s: Contingency, case: Case, rng: np.random.Generator) -> list[Any]:
    """A random non-empty selection of the categories, in a random order: scikit-learn's
    ``labels`` (column numbers of indicator matrices)."""
    pool = list(range(case.y_true.shape[1])) if case.indicators else list(s.categories)
    size = int(rng.integers(1, len(pool) + 1))
    return [pool[i] for i in rng.permutation(len(pool))[:size]]


def rng_of(case: Case) -> np.random.Generator:
    """A generator seeded by the case, for the options a check draws for it."""
    return np.random.default_rng([len(case.y_true), *map(ord, case.kind)])


# Statistics::Contingency (Perl): the golden file of the real module -----------------------------

PERL = "Statistics::Contingency (Perl)"
PERL_GOLDEN = json.loads((GOLDEN / "perl" / "statistics_contingency.json").read_text("utf-8"))
PERL_SCORES = ("accuracy", "error", "precision", "recall", "F1")


def perl_scenarios(keep: Callable[[dict[str, Any]], bool] = lambda scenario: True,
                   ) -> Callable[[], list[dict[str, Any]]]:
    """The golden scenarios ``keep`` selects (inputs and the Perl module's outputs)."""
    return lambda: [scenario for scenario in PERL_GOLDEN["scenarios"] if keep(scenario)]


def perl_macro_close(ours: float, golden: str | list[str], k: int) -> bool:
    """Perl sums a macro average in hash order; we sum exactly and round once: equal to one of
    Perl's values to a few ulp (tests/test_perl_golden.py)."""
    return any(math.isclose(ours, v, rel_tol=4e-16 * max(k, 1), abs_tol=1e-300)
               for v in perl_floats(golden))


def perl_cells(stats: dict[str, Any]) -> list[int]:
    return [stats[cell] for cell in "abcd"]


@row(PERL, "`my $s = Statistics::Contingency->new(categories => \\@all, verbose => 1)`",
     "`s = Contingency(all, verbose=True)` (one line per result, as Perl's: the categories "
     "counted, where Perl's line also lists a hash's keys whose value is false)",
     kinds=("perl golden",), inputs=perl_scenarios(lambda sc: not sc["has_unknown"]))
def _perl_new(scenario: dict[str, Any]) -> None:
    categories = scenario.get("categories", scenario.get("categories_hash"))
    s = Contingency(categories, verbose=True)
    for number, step in enumerate(scenario["steps"]):
        if step[0] == "set_entries":
            s.set_entries(*step[1:])
            continue
        arguments = [perl_argument(arg) for arg in step[1:]]
        name = f"result {number}" if number % 2 else None  # Perl prints no name as ""
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            s.add_result(*arguments, name)
        # Perl's line, "$name: assigned=(@keys) correct=(@keys)", over the categories counted
        # (in the order given; Perl's hash order is random).
        shown = [" ".join(dict.fromkeys(key for key, on in arg.items() if on))
                 if isinstance(arg, dict) else arg if isinstance(arg, str)
                 else " ".join(dict.fromkeys(arg)) for arg in arguments]
        assert printed.getvalue() == \
            f"{name or ''}: assigned=({shown[0]}) correct=({shown[1]})\n"
    assert set(s.categories) == set(categories)
    assert s.n_results == scenario["n_results"]
    assert s.micro_table == tuple(perl_cells(scenario["micro"]))


@row(PERL, "`$s->add_result($assigned, $correct, $name)` (array refs, hash refs or one category)",
     "`s.add_result(assigned, correct, name)` (an iterable, a mapping or one category)",
     kinds=("perl golden",), inputs=perl_scenarios())
def _perl_add_result(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    micro = scenario["micro"]
    assert s.n_results == scenario["n_results"]
    assert s.micro_table == tuple(perl_cells(micro))
    if "error_message" not in scenario["category_stats"]:
        stats = s.category_stats()
        for category, expected in scenario["category_stats"].items():
            assert perl_cells(stats[category]) == perl_cells(expected), category


@row(PERL, "`$s->set_entries($a, $b, $c, $d)`", "`s.set_entries(a, b, c, d)`",
     kinds=("perl golden",),
     inputs=perl_scenarios(lambda sc: any(step[0] == "set_entries" for step in sc["steps"])))
def _perl_set_entries(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    assert s.micro_table == tuple(perl_cells(scenario["micro"]))
    for name in PERL_SCORES:
        assert getattr(s, f"micro_{name.lower()}") == float(scenario["micro"][name]), name


@row(PERL, "`$s->micro_precision`, `micro_recall`, `micro_F1`, `micro_accuracy`, `micro_error`",
     "`s.micro_precision`, `s.micro_recall`, `s.micro_f1`, `s.micro_accuracy`, `s.micro_error`",
     kinds=("perl golden",), inputs=perl_scenarios())
def _perl_micro(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    for name in PERL_SCORES:  # to the last bit: micro figures do not depend on hash order
        assert getattr(s, f"micro_{name.lower()}") == float(scenario["micro"][name]), name


@row(PERL, "`$s->macro_precision`, ..., `macro_F1`, ...", "`s.macro_precision`, ..., `s.macro_f1`, ...",
     kinds=("perl golden",), inputs=perl_scenarios())
def _perl_macro(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    if "error_message" in scenario["macro"]:
        with pytest.raises(ValueError, match=f"^{scenario['macro']['error_message']}$"):
            _ = s.macro_f1
        return
    for name in PERL_SCORES:
        ours = getattr(s, f"macro_{name.lower()}")
        assert perl_macro_close(ours, scenario["macro"][name], len(s.categories)), name


@row(PERL, "`$s->stats_table($figs)`",
     "`s.stats_table(figs)` (`figs` < 1 raises `ValueError`, where Perl reads 0 as 3 and "
     "prints a negative one's format literally)",
     kinds=("perl golden",), inputs=perl_scenarios())
def _perl_stats_table(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    if "error_message" in scenario["stats_table"]:
        with pytest.raises(ValueError, match=f"^{scenario['stats_table']['error_message']}$"):
            s.stats_table()
        return
    for figs, tables in scenario["stats_table"].items():
        if int(figs) >= 1:
            assert s.stats_table(int(figs)) in tables, figs
        else:  # the documented difference
            if int(figs) == 0:
                assert s.stats_table(3) in tables
            with pytest.raises(ValueError, match="figs must be an integer >= 1"):
                s.stats_table(int(figs))


@row(PERL, "`$s->category_stats`",
     "`s.category_stats()` (the key Perl calls `F1` is `f1`; `support` and `specificity` are "
     "added)",
     kinds=("perl golden",), inputs=perl_scenarios())
def _perl_category_stats(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario)
    if "error_message" in scenario["category_stats"]:
        with pytest.raises(ValueError, match=f"^{scenario['category_stats']['error_message']}$"):
            s.category_stats()
        return
    stats = s.category_stats()
    assert set(stats) == set(scenario["category_stats"])
    for category, expected in scenario["category_stats"].items():
        ours = stats[category]
        assert set(ours) == {"a", "b", "c", "d", "accuracy", "error", "precision", "recall", "f1",
                             "support", "specificity"}
        assert perl_cells(ours) == perl_cells(expected)
        for name in PERL_SCORES:
            assert ours[name.lower()] == float(expected[name]), (category, name)
        assert ours["support"] == ours["a"] + ours["c"]


@row(PERL, "a category outside `categories` is skipped",
     "`unknown=\"error\"` by default: `ValueError` naming it; `unknown=\"ignore\"` is Perl's "
     "behaviour",
     kinds=("perl golden",), inputs=perl_scenarios(lambda sc: sc["has_unknown"]))
def _perl_unknown(scenario: dict[str, Any]) -> None:
    s = perl_replay(scenario, unknown="ignore")
    assert s.micro_table == tuple(perl_cells(scenario["micro"]))
    assert s.n_results == scenario["n_results"]
    categories = scenario.get("categories", scenario.get("categories_hash"))
    strict = Contingency(categories)
    for step in scenario["steps"]:
        if step[0] == "set_entries":
            strict.set_entries(*step[1:])
            continue
        arguments = [perl_argument(arg) for arg in step[1:]]
        names = [name for arg in arguments  # a mapping's keys with a false value name nothing
                 for name in ([arg] if isinstance(arg, str) else
                              [key for key, on in arg.items() if on] if isinstance(arg, dict)
                              else arg)]
        outside = [name for name in names if name not in set(categories)]
        if outside:
            before = strict.to_dict()
            with pytest.raises(ValueError, match=r"unknown category") as error:
                strict.add_result(*arguments)
            assert any(repr(name) in str(error.value) or name in str(error.value)
                       for name in outside), str(error.value)
            assert strict.to_dict() == before  # refused whole: the counts are as they were
            return
        strict.add_result(*arguments)
    # Only keys with a false value name undeclared categories: nothing to refuse.
    assert strict.micro_table == tuple(perl_cells(scenario["micro"]))


# Set::Partitions::Similarity (Perl): its documentation's examples and its definitions -------------

SIMILARITY = "Set::Partitions::Similarity (Perl)"
#: The examples the module's documentation prints (Perl prints floats with %.15g):
#: (routine, first, second, printed result).
SIMILARITY_DOCUMENTED: list[tuple[str, Any, Any, Any]] = [
    ("getAccuracyAndPrecision", [["a", "b"], [1, 2]], [["a", "b", 1], [2]], ("0.5", "0.25")),
    ("getAccuracyAndPrecision", [[1, 2], [3, 4]], [[2, 1], [4, 3]], ("1", "1")),
    ("getAccuracyAndPrecision", [], [], ("1", "1")),
    ("getAccuracyAndPrecision", [[1, 2, 3], [4]], [[1], [2, 3, 4]], ("0.333333333333333", "0.2")),
    ("getAccuracyAndPrecision", [[1], [2, 3, 4]], [[1, 2, 3], [4]], ("0.333333333333333", "0.2")),
    ("getAccuracyAndPrecision", [[1, 2], [3, 4]], [[1], [2], [3], [4]],
     ("0.666666666666667", "0")),
    ("getAccuracy", [["a", "b"], ["c", "d"]], [["a", "b", "c", "d"]], "0.333333333333333"),
    ("getAccuracy", [["a", "b", "c", "d"]], [["a", "b"], ["c", "d"]], "0.333333333333333"),
    ("getDistance", [[1, 2, 3], [4]], [[1], [2, 3, 4]], "0.666666666666667"),
    ("getPrecision", [[1, 2, 3], [4]], [[1], [2, 3, 4]], "0.2"),
    *[("getDistance", [list(range(512))],
       [list(range(size * k, size * k + size)) for k in range(512 // size)], printed)
      for size, printed in {1: "1", 2: "0.998043052837573", 4: "0.99412915851272",
                            8: "0.986301369863014", 16: "0.970645792563601",
                            32: "0.939334637964775", 64: "0.876712328767123",
                            128: "0.75146771037182", 256: "0.500978473581213",
                            512: "0"}.items()],
]


def perl_printed(value: float) -> str:
    """A number as Perl prints it (``%.15g``)."""
    return f"{value:.15g}"


def two_partitions() -> Iterator[tuple[list[list[int]], list[list[int]]]]:
    """Seeded random pairs of partitions of one set of up to 14 elements."""
    rng = np.random.default_rng(2020)
    for _ in range(COUNT):
        elements = rng.permutation(31)[:int(rng.integers(0, 15))].tolist()
        pair = []
        for _side in range(2):
            blocks = rng.integers(0, 5, len(elements)).tolist()
            pair.append([[e for e, b in zip(elements, blocks) if b == block]
                         for block in sorted(set(blocks))])
        yield pair[0], pair[1]


def pair_definitions(first: list[list[int]], second: list[list[int]]) -> tuple[float, float]:
    """The module's definitions read literally over every pair of distinct elements: the share
    of pairs on which the partitions agree, and pairs together in both over pairs together in
    either (1 when there is no pair, as the module says of the empty partition)."""
    where = [{e: k for k, subset in enumerate(p) for e in subset} for p in (first, second)]
    pairs = list(itertools.combinations(sorted(where[0]), 2))
    agree = sum((where[0][x] == where[0][y]) == (where[1][x] == where[1][y]) for x, y in pairs)
    joined = sum(where[0][x] == where[0][y] or where[1][x] == where[1][y] for x, y in pairs)
    both = sum(where[0][x] == where[0][y] and where[1][x] == where[1][y] for x, y in pairs)
    return (agree / len(pairs) if pairs else 1.0), (both / joined if joined else 1.0)


def similarity_inputs(routine: str) -> Callable[[], list[Any]]:
    """The documented examples of ``routine``, then random pairs checked by the definitions."""
    def inputs() -> list[Any]:
        documented = [example for example in SIMILARITY_DOCUMENTED if example[0] == routine]
        return [*documented, *(("definition", p, q, None) for p, q in two_partitions())]
    return inputs


def similarity_check(ours: Callable[..., Any], expected: Callable[[tuple[float, float]], Any],
                     ) -> Callable[[tuple[str, Any, Any, Any]], None]:
    def check(example: tuple[str, Any, Any, Any]) -> None:
        routine, first, second, printed = example
        value = ours(first, second, True)
        if routine != "definition":  # the documentation's printed result
            shown = tuple(map(perl_printed, value)) if isinstance(value, tuple) else \
                perl_printed(value)
            assert shown == printed, (first, second, shown, printed)
        else:
            same(value, expected(pair_definitions(first, second)))
            same(ours(second, first, False), value)  # symmetric, with or without the check
    return check


@row(SIMILARITY, "`areSubsetsDisjoint($p)`", "`are_subsets_disjoint(p)`",
     kinds=("documented examples", "definition"),
     inputs=lambda: [([[1, 2, 3], [4]], True), ([[1, 2, 3], [4, 1]], False), ([], True),
                     ([[1, 1, 2]], True), *((p, True) for p, _ in two_partitions()),
                     *(([*p, [p[0][0]]], False) for p, _ in two_partitions() if p)])
def _similarity_disjoint(example: tuple[Any, bool]) -> None:
    partition, disjoint = example
    assert are_subsets_disjoint(partition) is disjoint


_similarity_accuracy = row(
    SIMILARITY, "`getAccuracy($p, $q, $checkValidity)`",
    "`get_accuracy(p, q, check_validity)` (the Rand index)",
    kinds=("documented examples", "definition"), inputs=similarity_inputs("getAccuracy"),
)(similarity_check(get_accuracy, lambda definitions: definitions[0]))
_similarity_precision = row(
    SIMILARITY, "`getPrecision($p, $q, $checkValidity)`",
    "`get_precision(p, q, check_validity)` (the pair Jaccard index)",
    kinds=("documented examples", "definition"), inputs=similarity_inputs("getPrecision"),
)(similarity_check(get_precision, lambda definitions: definitions[1]))
_similarity_both = row(
    SIMILARITY, "`getAccuracyAndPrecision($p, $q, $checkValidity)`",
    "`get_accuracy_and_precision(p, q, check_validity)`",
    kinds=("documented examples", "definition"),
    inputs=similarity_inputs("getAccuracyAndPrecision"),
)(similarity_check(get_accuracy_and_precision, lambda definitions: definitions))
_similarity_distance = row(
    SIMILARITY, "`getDistance($p, $q, $checkValidity)`", "`get_distance(p, q, check_validity)`",
    kinds=("documented examples", "definition"), inputs=similarity_inputs("getDistance"),
)(similarity_check(get_distance, lambda definitions: 1.0 - definitions[0]))


# R package NMF: the golden file of the real package ---------------------------------------------

NMF = "R package NMF: `purity` and `entropy`"
NMF_GOLDEN = json.loads((GOLDEN / "nmf" / "nmf.json").read_text("utf-8"))


def nmf_cases(keep: Callable[[dict[str, Any]], bool]) -> Callable[[], list[dict[str, Any]]]:
    return lambda: [case for case in NMF_GOLDEN["cases"] if keep(case)]


def one_class(case: dict[str, Any]) -> bool:
    return len(set(case["classes"])) == 1


@row(NMF, "`purity(clusters, classes)`", "`PartitionComparison.from_labels(classes, clusters).purity`",
     kinds=("nmf golden",), inputs=nmf_cases(lambda case: True))
def _nmf_purity(case: dict[str, Any]) -> None:
    p = PartitionComparison.from_labels(case["classes"], case["clusters"])
    same(p.purity, float(case["purity"]))


@row(NMF, "`entropy(clusters, classes)`",
     "`PartitionComparison.from_labels(classes, clusters).entropy`",
     kinds=("nmf golden",), inputs=nmf_cases(lambda case: not one_class(case)))
def _nmf_entropy(case: dict[str, Any]) -> None:
    p = PartitionComparison.from_labels(case["classes"], case["clusters"])
    same(p.entropy, float(case["entropy"]))


@row(NMF, "`entropy` with a single class (R gives `NaN`)", "`0.0`: no uncertainty about the class",
     kinds=("nmf golden",), inputs=nmf_cases(one_class))
def _nmf_entropy_one_class(case: dict[str, Any]) -> None:
    assert math.isnan(float(case["entropy"]))
    assert PartitionComparison.from_labels(case["classes"], case["clusters"]).entropy == 0.0


# jaccard-concentration-index (PyPI): the package, live -----------------------------------------

JCI = "jaccard-concentration-index (PyPI)"


def jci_inputs() -> Iterator[tuple[Case, dict[str, Any]]]:
    """Random partitions (and the edges), with the package's options drawn for each."""
    for i, case in enumerate(cases(*PARTITION_KINDS)):
        if case.sample_weight is not None:
            continue
        rng = rng_of(case)
        labels = sorted(set(case.y_true), key=str)
        options: dict[str, Any] = {}
        if i % 3 == 1:  # a cluster label of y_pred as noise (once in a while, every element)
            options["noise_label"] = case.y_pred[0]
        if i % 2 == 0:
            options["return_all"] = True
        if i % 4 == 3:
            options["ordered_labels"] = [labels[k] for k in rng.permutation(len(labels))]
        yield case, options


def jci_peer(case: Case, options: dict[str, Any]) -> Callable[[], Any]:
    """The package's call (it takes numpy arrays)."""
    return functools.partial(jci_package.jaccard_concentration_index, np.array(case.y_true),
                             np.array(case.y_pred), **options)


def all_noise(case: Case, options: dict[str, Any]) -> bool:
    """No element, or every element in the noise cluster: both refuse."""
    return not case.y_pred or set(case.y_pred) == {options.get("noise_label", object())}


def same_jci(ours: Any, peer: Any) -> None:
    """A score, or the ``return_all`` dictionary, equal to the package's."""
    if not isinstance(peer, dict):
        same(ours, peer)
        return
    assert set(ours) == set(peer)
    for key, value in peer.items():
        if key == "cluster_results":
            assert len(ours[key]) == len(value)
            for our_cluster, their_cluster in zip(ours[key], value):
                assert set(our_cluster) == set(their_cluster)
                for name, number in their_cluster.items():
                    if name == "closest_label":
                        assert our_cluster[name] == number
                    else:
                        same(our_cluster[name], number, name)
        else:
            same(ours[key], value, key)


@row(JCI, "`jaccard_concentration_index(y_true, y_pred, noise_label=None, return_all=False, "
          "ordered_labels=())`",
     "`contingency.jaccard_concentration_index(y_true, y_pred, noise_label=None, "
     "return_all=False, ordered_labels=())`",
     kinds=("partitions", "partition edges"),
     inputs=jci_inputs)
def _jci_function(example: tuple[Case, dict[str, Any]]) -> None:
    case, options = example
    ours = functools.partial(contingency.jaccard_concentration_index, case.y_true, case.y_pred,
                             **options)
    if all_noise(case, options):
        raises_both(ours, jci_peer(case, options))
    else:
        same_jci(ours(), jci_peer(case, options)())


@row(JCI, "(from labels only)",
     "`PartitionComparison.from_labels(y_true, y_pred).jaccard_concentration_index(noise_label=None)`",
     kinds=("partitions", "partition edges"), inputs=jci_inputs)
def _jci_method(example: tuple[Case, dict[str, Any]]) -> None:
    case, options = example
    p = PartitionComparison.from_labels(case.y_true, case.y_pred)
    ours = functools.partial(p.jaccard_concentration_index, **options)
    if all_noise(case, options):
        raises_both(ours, jci_peer(case, options))
    else:
        same_jci(ours(), jci_peer(case, options)())


def concentration_inputs() -> Iterator[tuple[Any, dict[str, Any]]]:
    rng = np.random.default_rng(2021)
    for i in range(COUNT):
        values = rng.random(int(rng.integers(1, 9)))
        if i % 5 == 0:
            values[rng.integers(0, len(values))] = 0.0
        options = {"single_index": bool(i % 2), "size_invariance": i % 3 != 0,
                   "virtual_length": int(rng.integers(0, 3)) * (len(values) + int(rng.integers(0, 4)))}
        yield values, options
    yield np.array([1.0]), {}
    yield np.array([0.5, 0.5]), {"single_index": True}


@row(JCI, "`concentration(values, single_index=False, size_invariance=True, virtual_length=0)`",
     "`contingency.concentration(values, single_index=False, size_invariance=True, "
     "virtual_length=0)`",
     kinds=("random values",),
     inputs=concentration_inputs)
def _jci_concentration(example: tuple[Any, dict[str, Any]]) -> None:
    values, options = example
    peer = quietly(jci_package.concentration, values, **options)
    same(contingency.concentration(values, **options), peer)


# scikit-learn: classification, live -------------------------------------------------------------

SKLEARN = "scikit-learn"
SINGLE = LABEL_KINDS
EVERY = LABEL_KINDS + INDICATOR_KINDS


def named(s: Contingency) -> set[Any]:
    """The categories some result names (as assigned or as correct)."""
    return {k for k, cells in s.category_stats().items() if cells["a"] + cells["b"] + cells["c"]}


def sk_averages(case: Case, s: Contingency) -> list[Any]:
    """The averages scikit-learn takes for this input: ``"samples"`` of indicator matrices
    only, ``"binary"`` of two categories at most."""
    averages: list[Any] = [None, "micro", "macro", "weighted"]
    if case.indicators:
        averages.append("samples")
    elif len(s.categories) <= 2:
        averages.append("binary")
    return averages


@row(SKLEARN, "`precision_recall_fscore_support(y_true, y_pred, beta=b, average=avg, labels=labels)`",
     "`s.precision(avg, labels=labels)`, `s.recall(...)`, `s.f_beta(b, avg, labels=labels)`; "
     "`avg=None`: arrays in the order of `s.categories` (or `labels`), supports in "
     "`s.category_stats()`; `avg=\"samples\"` with `labels` that leave out a category results "
     "name raises `ValueError` (results are not kept one by one)",
     kinds=EVERY)
def _sk_prfs(case: Case) -> None:
    s = from_labels(case)
    rng = rng_of(case)
    beta = float(rng.choice([0.5, 1.0, 2.0]))
    pos_label = s.categories[-1] if s.categories else 1  # for average="binary"
    for average in sk_averages(case, s):
        for labels in (None, some_labels(s, case, rng)):
            if average == "binary" and labels is not None:
                continue  # scikit-learn ignores labels with average="binary"
            if average == "samples" and labels is not None and not named(s) <= set(labels):
                # The documented difference: each result's own categories are not kept.
                with pytest.raises(ValueError, match="samples"):
                    s.precision(average, labels=labels)
                continue
            peer = quietly(sk.precision_recall_fscore_support, case.y_true, case.y_pred,
                           beta=beta, average=average, labels=labels, pos_label=pos_label,
                           sample_weight=case.sample_weight, zero_division=0.0)
            options = {"labels": labels}
            if average == "binary":
                options["pos_label"] = pos_label  # elsewhere it plays no part (and we warn)
            ours = (s.precision(average, **options), s.recall(average, **options),
                    s.f_beta(beta, average, **options))
            for name, mine, theirs in zip(("precision", "recall", "f_beta"), ours, peer):
                same(mine, theirs, f"{name} {average} {labels}")
            if average is None:
                stats = s.category_stats()
                order = s.categories if labels is None else labels
                if case.indicators:
                    order = [s.categories[k] for k in (range(len(s.categories))
                                                       if labels is None else labels)]
                same([stats[label]["support"] for label in order], peer[3], "support")


@row(SKLEARN, "`precision_score(y_true, y_pred)` (`average=\"binary\"`, `pos_label=1`), "
              "`recall_score`, `f1_score`, `fbeta_score`",
     "`s.precision(\"binary\", pos_label=1)`, `s.recall(...)`, `s.f1(...)`, "
     "`s.f_beta(beta, \"binary\", ...)`: scikit-learn's checks (two categories at most, "
     "`pos_label` one of them)",
     kinds=("binary", "multiclass"))
def _sk_binary(case: Case) -> None:
    s = from_labels(case)
    for pos_label in (1, 0):
        options = {"pos_label": pos_label, "sample_weight": case.sample_weight,
                   "zero_division": 0.0}
        calls = [(functools.partial(sk.precision_score, **options),
                  functools.partial(s.precision, "binary", pos_label=pos_label)),
                 (functools.partial(sk.recall_score, **options),
                  functools.partial(s.recall, "binary", pos_label=pos_label)),
                 (functools.partial(sk.f1_score, **options),
                  functools.partial(s.f1, "binary", pos_label=pos_label)),
                 (functools.partial(sk.fbeta_score, beta=2.0, **options),
                  functools.partial(s.f_beta, 2.0, "binary", pos_label=pos_label))]
        for peer, ours in calls:
            if case.kind == "binary":
                same(ours(), quietly(peer, case.y_true, case.y_pred))
            else:  # more than two categories, or pos_label not among them
                raises_both(ours, functools.partial(peer, case.y_true, case.y_pred))


@row(SKLEARN, "`precision_score(y_true, y_pred, average=\"micro\")`, `recall_score`, `f1_score`",
     "`s.micro_precision`, `s.micro_recall`, `s.micro_f1`", kinds=EVERY)
def _sk_micro(case: Case) -> None:
    s = from_labels(case)
    for peer, ours in ((sk.precision_score, s.micro_precision), (sk.recall_score, s.micro_recall),
                       (sk.f1_score, s.micro_f1)):
        same(ours, quietly(peer, case.y_true, case.y_pred, average="micro",
                           sample_weight=case.sample_weight, zero_division=0.0))


@row(SKLEARN, "`f1_score(y_true, y_pred, average=\"macro\")` (also `\"weighted\"`, `\"samples\"`)",
     "`s.macro_f1` (`s.weighted_f1`, `s.samples_f1`)", kinds=EVERY)
def _sk_f1_averages(case: Case) -> None:
    s = from_labels(case)
    averages = ["macro", "weighted"] + (["samples"] if case.indicators else [])
    for average in averages:
        same(getattr(s, f"{average}_f1"),
             quietly(sk.f1_score, case.y_true, case.y_pred, average=average,
                     sample_weight=case.sample_weight, zero_division=0.0), average)


@row(SKLEARN, "`fbeta_score(y_true, y_pred, beta=2.0, average=\"macro\")`",
     "`s.f_beta(2.0, average=\"macro\")`", kinds=EVERY)
def _sk_fbeta(case: Case) -> None:
    same(from_labels(case).f_beta(2.0, average="macro"),
         quietly(sk.fbeta_score, case.y_true, case.y_pred, beta=2.0, average="macro",
                 sample_weight=case.sample_weight, zero_division=0.0))


@row(SKLEARN, "`accuracy_score(Y_true, Y_pred)` (indicator matrices: exact match)",
     "`s.subset_accuracy`", kinds=EVERY)
def _sk_accuracy(case: Case) -> None:
    same(from_labels(case).subset_accuracy,
         sk.accuracy_score(case.y_true, case.y_pred, sample_weight=case.sample_weight))


@row(SKLEARN, "`hamming_loss(y_true, y_pred)` of 1-d labels (the share of wrong results)",
     "`s.error_rate` (`s.hamming_loss` is the indicator matrices' form: (b + c) / (K n), "
     "another number)",
     kinds=SINGLE)
def _sk_hamming_1d(case: Case) -> None:
    s = from_labels(case)
    peer = sk.hamming_loss(case.y_true, case.y_pred, sample_weight=case.sample_weight)
    same(s.error_rate, peer)
    if len(s.categories) > 2 and peer:  # the per-decision form differs: it divides by K too
        assert not math.isclose(s.hamming_loss, peer)


@row(SKLEARN, "`hamming_loss(Y_true, Y_pred)` of indicator matrices",
     "`s.hamming_loss` (the share of wrong (result, category) decisions)",
     kinds=INDICATOR_KINDS)
def _sk_hamming_indicators(case: Case) -> None:
    same(from_labels(case).hamming_loss,
         sk.hamming_loss(case.y_true, case.y_pred, sample_weight=case.sample_weight))


@row(SKLEARN, "`matthews_corrcoef(y_true, y_pred)` (binary or multiclass labels)",
     "`s.matthews_corrcoef()` (`\"multiclass\"`, the default: on two categories the binary "
     "correlation; `\"micro\"`, the pooled 2x2 table, is another number)",
     kinds=SINGLE)
def _sk_matthews(case: Case) -> None:
    same(from_labels(case).matthews_corrcoef(),
         quietly(sk.matthews_corrcoef, case.y_true, case.y_pred,
                 sample_weight=case.sample_weight))


REPORT_ROW = r"^\s*(\S.*?)\s+(\d\.\d+)\s+(\d\.\d+)\s+(\d\.\d+)\s+(\d+)$"


@row(SKLEARN, "`classification_report(y_true, y_pred)`",
     "`print(s.report())` (the same figures, with a `micro avg` row where scikit-learn prints "
     "`accuracy` for 1-d labels, and a `samples avg` row)",
     kinds=EVERY)
def _sk_report(case: Case) -> None:
    s = from_labels(case)
    digits = 3
    peer = quietly(sk.classification_report, case.y_true, case.y_pred, digits=digits,
                   output_dict=True, sample_weight=case.sample_weight, zero_division=0.0)
    if "accuracy" in peer:  # 1-d labels: micro precision = recall = F1 = accuracy
        total = sum(case.sample_weight) if case.sample_weight is not None else len(case.y_true)
        peer["micro avg"] = {"precision": peer["accuracy"], "recall": peer["accuracy"],
                             "f1-score": peer["accuracy"], "support": total}
    printed = {}
    for line in s.report(digits).splitlines():
        match = re.match(REPORT_ROW, line)
        if match:
            printed[match.group(1)] = [float(x) for x in match.group(2, 3, 4)] + \
                [int(match.group(5))]
    names = {str(k) for k in peer if k != "accuracy"} - {"samples avg"}
    assert names <= set(printed), (names, set(printed))
    for name in names:
        figures = peer[name]
        expected = [figures["precision"], figures["recall"], figures["f1-score"]]
        # The report prints each figure rounded to ``digits``: to that rounding, the peer's.
        for mine, theirs in zip(printed[name][:3], expected):
            assert abs(mine - theirs) <= 0.5 * 10**-digits + 1e-12, (name, mine, theirs)
        assert printed[name][3] == figures["support"], name
    if case.indicators:
        samples = [s.samples_precision, s.samples_recall, s.samples_f1]
        same(printed["samples avg"][:3], [round(x, digits) for x in samples])


@row(SKLEARN, "`confusion_matrix(y_true, y_pred, labels=labels, normalize=None)`",
     "`s.confusion_matrix(labels, normalize=None)` (single-label results; "
     "`s.confusion_cells(labels)`: the non-empty cells; `labels` naming no true category give "
     "empty rows, where scikit-learn raises)",
     kinds=SINGLE)
def _sk_confusion_matrix(case: Case) -> None:
    s = from_labels(case)
    rng = rng_of(case)
    for labels in (None, some_labels(s, case, rng)):
        if not set(labels or ()) & set(case.y_true) and labels is not None:
            # No label of y_true: scikit-learn refuses; here every row is empty.
            with pytest.raises(ValueError, match="must be in y_true"):
                quietly(sk.confusion_matrix, case.y_true, case.y_pred, labels=labels)
            for normalize in (None, "true", "pred", "all"):
                assert not s.confusion_matrix(labels, normalize=normalize).any()
            continue
        for normalize in (None, "true", "pred", "all"):
            peer = quietly(sk.confusion_matrix, case.y_true, case.y_pred, labels=labels,
                           sample_weight=case.sample_weight, normalize=normalize)
            same(s.confusion_matrix(labels, normalize=normalize), peer, str(normalize))
        order, rows, columns, counts = s.confusion_cells(labels)
        dense = np.zeros((len(order), len(order)), dtype=np.int64)
        dense[rows, columns] = counts
        assert bool(np.all(counts != 0))
        assert np.array_equal(dense, quietly(sk.confusion_matrix, case.y_true, case.y_pred,
                                             labels=labels, sample_weight=case.sample_weight))


@row(SKLEARN, "`multilabel_confusion_matrix(y_true, y_pred, labels=labels)`",
     "`s.multilabel_confusion_matrix(labels)` (`samplewise=True` raises `ValueError`: results "
     "are not kept one by one)",
     kinds=EVERY)
def _sk_multilabel_confusion_matrix(case: Case) -> None:
    s = from_labels(case)
    for labels in (None, some_labels(s, case, rng_of(case))):
        peer = sk.multilabel_confusion_matrix(case.y_true, case.y_pred, labels=labels,
                                              sample_weight=case.sample_weight)
        assert np.array_equal(s.multilabel_confusion_matrix(labels), peer)
    with pytest.raises(ValueError, match="samplewise"):
        s.multilabel_confusion_matrix(samplewise=True)


@row(SKLEARN, "`cohen_kappa_score(y_true, y_pred, labels=labels, weights=None)`",
     "`s.cohen_kappa(labels, weights=None)` (also `\"linear\"`, `\"quadratic\"`; where kappa is "
     "undefined, `zero_division` stands for scikit-learn's `replace_undefined_by`, also for "
     "`labels` naming no true category, where scikit-learn raises)",
     kinds=SINGLE)
def _sk_cohen_kappa(case: Case) -> None:
    rng = rng_of(case)
    for mode in (0.0, "nan"):
        s = from_labels(case, zero_division=mode)
        for labels in (None, some_labels(s, case, rng)):
            for weights in (None, "linear", "quadratic"):
                if not set(labels or case.y_true) & set(case.y_true):
                    # No label of y_true: scikit-learn refuses; here kappa is undefined.
                    with pytest.raises(ValueError, match="must be present in `y1`"):
                        quietly(sk.cohen_kappa_score, case.y_true, case.y_pred, labels=labels)
                    same(s.cohen_kappa(labels, weights=weights), float(mode))
                    continue
                agree(functools.partial(s.cohen_kappa, labels, weights=weights),
                      functools.partial(sk.cohen_kappa_score, case.y_true, case.y_pred,
                                        labels=labels, weights=weights,
                                        sample_weight=case.sample_weight,
                                        replace_undefined_by=float(mode)),
                      f"{labels} {weights}")


@row(SKLEARN, "`balanced_accuracy_score(y_true, y_pred, adjusted=False)`",
     "`s.balanced_accuracy(adjusted=False)` (`adjusted=True` with one true category: "
     "`zero_division`, where scikit-learn divides by zero: `nan` or `-inf`)", kinds=SINGLE)
def _sk_balanced_accuracy(case: Case) -> None:
    for mode in (0.0, "nan"):
        s = from_labels(case, zero_division=mode)
        for adjusted in (False, True):
            peer = quietly(sk.balanced_accuracy_score, case.y_true, case.y_pred,
                           adjusted=adjusted, sample_weight=case.sample_weight)
            if adjusted and len(set(np.repeat(case.y_true, case.sample_weight or 1))) == 1:
                # Chance is 1 / 1: scikit-learn's (recall - 1) / (1 - 1).
                assert not math.isfinite(peer)
                same(s.balanced_accuracy(adjusted=True), float(mode))
            else:
                same(s.balanced_accuracy(adjusted=adjusted), peer, str(adjusted))


@row(SKLEARN, "`jaccard_score(y_true, y_pred, average=\"macro\")`", "`s.jaccard(\"macro\")`",
     kinds=EVERY)
def _sk_jaccard(case: Case) -> None:
    s = from_labels(case)
    for average in ("macro", "micro", "weighted") + (("samples",) if case.indicators else ()):
        same(s.jaccard(average),
             quietly(sk.jaccard_score, case.y_true, case.y_pred, average=average,
                     sample_weight=case.sample_weight, zero_division=0.0), average)


@row(SKLEARN, "`f1_score(..., zero_division=0)`", "`Contingency(..., zero_division=0.0)`",
     kinds=EVERY)
def _sk_zero_division(case: Case) -> None:
    for theirs, ours in ((0, 0.0), (1, 1.0), (np.nan, "nan")):
        s = from_labels(case, zero_division=ours)
        for average in sk_averages(case, s):
            # average="binary" scores the last category (scikit-learn's pos_label).
            options = {"pos_label": s.categories[-1]} if average == "binary" else {}
            peer = quietly(sk.precision_recall_fscore_support, case.y_true, case.y_pred,
                           average=average, **options, sample_weight=case.sample_weight,
                           zero_division=theirs)
            mine = (s.precision(average, **options), s.recall(average, **options),
                    s.f1(average, **options))
            same(mine, peer[:3], f"{average} {ours}")


# scikit-learn: clustering, live ------------------------------------------------------------------


def partition(case: Case) -> tuple[PartitionComparison, Any, Any]:
    """``PartitionComparison.from_labels(labels_true, labels_pred)`` and the labels scikit-learn
    is given: with weights, each element repeated its weight's number of times (scikit-learn's
    clustering scores take no weights; an integer weight is that many elements)."""
    p = PartitionComparison.from_labels(case.y_true, case.y_pred, sample_weight=case.sample_weight)
    if case.sample_weight is None:
        return p, case.y_true, case.y_pred
    return (p, np.repeat(case.y_true, case.sample_weight).tolist(),
            np.repeat(case.y_pred, case.sample_weight).tolist())


def partition_row(peer: str, ours: str, score: Callable[[PartitionComparison, Any, Any], None],
                  section: str = SKLEARN) -> None:
    """A row checked on every partition kind by ``score(p, labels_true, labels_pred)``."""
    def check(case: Case) -> None:
        score(*partition(case))
    row(section, peer, ours, kinds=PARTITION_KINDS)(check)


AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")

partition_row("`rand_score(labels_true, labels_pred)`", "`p.rand_index`",
              lambda p, t, m: same(p.rand_index, sk.rand_score(t, m)))
partition_row("`adjusted_rand_score(labels_true, labels_pred)`", "`p.adjusted_rand_index`",
              lambda p, t, m: same(p.adjusted_rand_index, sk.adjusted_rand_score(t, m)))


def _mutual_information(p: PartitionComparison, labels_true: Any, labels_pred: Any) -> None:
    if not len(labels_true):  # scikit-learn takes log(0) of no elements: a math domain error
        with pytest.raises(ValueError, match="math domain error"):
            sk.mutual_info_score(labels_true, labels_pred)
        assert p.mutual_information() == 0.0
    else:
        same(p.mutual_information(), sk.mutual_info_score(labels_true, labels_pred))


partition_row("`mutual_info_score(labels_true, labels_pred)`",
              "`p.mutual_information()` (0.0 of no elements, where scikit-learn raises)",
              _mutual_information)


def _normalized_mutual_information(p: PartitionComparison, labels_true: Any, labels_pred: Any,
                                   ) -> None:
    for method in AVERAGE_METHODS:
        same(p.normalized_mutual_information(method),
             sk.normalized_mutual_info_score(labels_true, labels_pred, average_method=method),
             method)


def _adjusted_mutual_information(p: PartitionComparison, labels_true: Any, labels_pred: Any,
                                 ) -> None:
    for method in AVERAGE_METHODS:
        same(p.adjusted_mutual_information(method),
             sk.adjusted_mutual_info_score(labels_true, labels_pred, average_method=method),
             method)


partition_row(
    "`normalized_mutual_info_score(labels_true, labels_pred, average_method=\"arithmetic\")`",
    "`p.normalized_mutual_information(\"arithmetic\")`", _normalized_mutual_information)
partition_row(
    "`adjusted_mutual_info_score(labels_true, labels_pred, average_method=\"arithmetic\")`",
    "`p.adjusted_mutual_information(\"arithmetic\")`", _adjusted_mutual_information)


def _hcv(p: PartitionComparison, labels_true: Any, labels_pred: Any) -> None:
    for beta in (1.0, 0.5, 2.0):
        same((p.homogeneity, p.completeness, p.v_measure(beta)),
             sk.homogeneity_completeness_v_measure(labels_true, labels_pred, beta=beta), str(beta))


partition_row("`homogeneity_completeness_v_measure(labels_true, labels_pred, beta=1.0)`",
              "`p.homogeneity, p.completeness, p.v_measure(1.0)`", _hcv)


def all_singletons_both(labels_true: Any, labels_pred: Any) -> bool:
    """Every element alone in both partitions (so the partitions are identical), or none."""
    return len(set(labels_true)) == len(labels_true) == len(set(labels_pred))


def _fowlkes_mallows(p: PartitionComparison, labels_true: Any, labels_pred: Any) -> None:
    peer = sk.fowlkes_mallows_score(labels_true, labels_pred)
    if all_singletons_both(labels_true, labels_pred):
        assert (p.fowlkes_mallows, peer) == (1.0, 0.0)  # the documented difference
    else:
        same(p.fowlkes_mallows, peer)


partition_row("`fowlkes_mallows_score(labels_true, labels_pred)`",
              "`p.fowlkes_mallows` (1 for identical all-singleton partitions and for none, where "
              "scikit-learn gives 0)", _fowlkes_mallows)


def _pair_confusion(p: PartitionComparison, labels_true: Any, labels_pred: Any) -> None:
    (apart, pred_only), (true_only, together) = sk.pair_confusion_matrix(labels_true, labels_pred)
    pairs = p.pair_confusion()
    assert (2 * pairs.same_same, 2 * pairs.same_reference_only, 2 * pairs.same_model_only,
            2 * pairs.different_different) == (together, true_only, pred_only, apart)


partition_row("`pair_confusion_matrix(labels_true, labels_pred)` (ordered pairs)",
              "`p.pair_confusion()` (unordered pairs: half of each cell)", _pair_confusion)


def _contingency_matrix(p: PartitionComparison, labels_true: Any, labels_pred: Any) -> None:
    from sklearn.metrics.cluster import contingency_matrix

    rows, columns, table = p.contingency_table()
    # scikit-learn's rows and columns follow the sorted labels (np.unique).
    assert list(rows) == np.unique(labels_true).tolist()
    assert list(columns) == np.unique(labels_pred).tolist()
    assert np.array_equal(table, contingency_matrix(labels_true, labels_pred))
    row_labels, column_labels, i, j, counts = p.contingency_cells()
    assert (row_labels, column_labels) == (rows, columns)
    sparse = contingency_matrix(labels_true, labels_pred, sparse=True).tocoo()
    ours = sorted(zip(map(int, i), map(int, j), map(int, counts)))
    assert ours == sorted(zip(map(int, sparse.row), map(int, sparse.col), map(int, sparse.data)))


partition_row("`contingency_matrix(labels_true, labels_pred)`",
              "`p.contingency_table()` (row labels, column labels, counts); with `sparse=True`, "
              "`p.contingency_cells()` (labels, then the non-empty cells' rows, columns and counts)",
              _contingency_matrix)


# river: live, on streams with reverts -----------------------------------------------------------

RIVER = "river"
#: A stream step: ("update" or "revert", y_true, y_pred, weight).
Step = tuple[str, Any, Any, int]


def streams(weighted: bool) -> Iterator[list[Step]]:
    """Seeded streams of results, truth first as river takes them; about one step in four
    reverts an earlier result (river's ``revert``), so categories come and go. Binary,
    multiclass (integers and strings), integer weights where ``weighted``."""
    rng = np.random.default_rng([21, int(weighted)])
    for i in range(COUNT):
        k = 2 if i % 3 == 0 else int(rng.integers(3, 6))
        strings = i % 3 == 2
        live: list[tuple[Any, Any, int]] = []
        steps: list[Step] = []
        for _ in range(int(rng.integers(1, 40))):
            if live and rng.random() < 0.25:
                y_true, y_pred, w = live.pop(int(rng.integers(0, len(live))))
                steps.append(("revert", y_true, y_pred, w))
            else:
                y_true, y_pred = (_labels(rng, 1, k, strings)[0] for _side in "tp")
                w = int(rng.integers(1, 5)) if weighted else 1
                live.append((y_true, y_pred, w))
                steps.append(("update", y_true, y_pred, w))
        yield steps


def singletons(p: PartitionComparison) -> bool:
    """Every element alone in both partitions (or no element): no pair together on either
    side, where the Fowlkes-Mallows index is 0/0 (1 here, 0 for scikit-learn and river)."""
    return p.n_reference_clusters == p.n_model_clusters == p.n_elements


def river_stream_check(make: Callable[[], Any], read: Callable[[Any], float],
                       differs: Callable[[Any], tuple[float, float] | None] = lambda _: None,
                       *, clustering: bool = False) -> Callable[[list[Step]], None]:
    """Feed a river metric and our accumulator the same stream, comparing after every step."""
    def check(stream: list[Step]) -> None:
        metric = make()
        ours: Any = PartitionComparison() if clustering else Contingency(zero_division=0.0)
        for n, (action, y_true, y_pred, w) in enumerate(stream):
            getattr(metric, action)(y_true, y_pred, w=w)
            if clustering:  # p.add(y_true, y_pred) / p.remove(...): one element each
                (ours.add if action == "update" else ours.remove)(y_true, y_pred)
            elif action == "update":
                ours.add_result(y_pred, y_true, weight=w)
            else:
                ours.remove_result(y_pred, y_true, weight=w)
            what = f"{metric.__class__.__name__} at step {n}"
            documented = differs(ours)
            if documented is None:
                same(read(ours), metric.get(), what)
            else:  # the row's documented difference: exactly these two numbers
                assert (read(ours), metric.get()) == documented, what
    return check


def river_row(peer: str, ours: str, pairs: Sequence[tuple[Any, ...]], *,
              clustering: bool = False) -> None:
    """A river row: each (metric factory, our read[, documented difference]) checked along
    every stream."""
    checks = [river_stream_check(*pair, clustering=clustering) for pair in pairs]

    def check(stream: list[Step]) -> None:
        for one in checks:
            one(stream)

    kinds = ("streams", "revert") if clustering else \
        ("binary stream", "multiclass stream", "weights", "revert")
    row(RIVER, peer, ours, kinds=kinds,
        inputs=(lambda: streams(False)) if clustering else
        (lambda: itertools.chain(streams(False), streams(True))))(check)


river_row("`m = metrics.MacroF1(); m.update(y_true, y_pred); m.get()`",
          "`s = Contingency(zero_division=0.0); s.add_result(y_pred, y_true); s.macro_f1`",
          [(river.metrics.MacroF1, lambda s: s.macro_f1)])
river_row("`m.update(y_true, y_pred, w)`", "`s.add_result(y_pred, y_true, weight=w)`",
          [(river.metrics.MacroF1, lambda s: s.macro_f1),
           (river.metrics.WeightedPrecision, lambda s: s.weighted_precision)])
river_row("`metrics.MicroF1`, `MicroPrecision`, `MicroRecall`",
          "`s.micro_f1`, `s.micro_precision`, `s.micro_recall`",
          [(river.metrics.MicroF1, lambda s: s.micro_f1),
           (river.metrics.MicroPrecision, lambda s: s.micro_precision),
           (river.metrics.MicroRecall, lambda s: s.micro_recall)])
river_row("`metrics.MacroPrecision`, `MacroRecall`", "`s.macro_precision`, `s.macro_recall`",
          [(river.metrics.MacroPrecision, lambda s: s.macro_precision),
           (river.metrics.MacroRecall, lambda s: s.macro_recall)])
river_row("`metrics.WeightedF1`, `WeightedPrecision`, `WeightedRecall`",
          "`s.weighted_f1`, `s.weighted_precision`, `s.weighted_recall`",
          [(river.metrics.WeightedF1, lambda s: s.weighted_f1),
           (river.metrics.WeightedPrecision, lambda s: s.weighted_precision),
           (river.metrics.WeightedRecall, lambda s: s.weighted_recall)])
river_row("`metrics.MacroFBeta(beta=2)`", "`s.f_beta(2.0, average=\"macro\")`",
          [(lambda: river.metrics.MacroFBeta(beta=2), lambda s: s.f_beta(2.0, average="macro"))])
river_row("`m.revert(y_true, y_pred)`", "`s.remove_result(y_pred, y_true)`",
          [(river.metrics.MacroF1, lambda s: s.macro_f1),
           (river.metrics.MicroF1, lambda s: s.micro_f1)])
river_row("`metrics.AdjustedRand().update(y_true, y_pred)`",
          "`p = PartitionComparison(); p.add(y_true, y_pred); p.adjusted_rand_index`",
          [(river.metrics.AdjustedRand, lambda p: p.adjusted_rand_index)], clustering=True)
river_row("`metrics.Rand`, `MutualInfo`, `NormalizedMutualInfo`, `AdjustedMutualInfo`",
          "`p.rand_index`, `p.mutual_information()`, `p.normalized_mutual_information()`, "
          "`p.adjusted_mutual_information()`",
          [(river.metrics.Rand, lambda p: p.rand_index),
           (river.metrics.MutualInfo, lambda p: p.mutual_information()),
           (river.metrics.NormalizedMutualInfo, lambda p: p.normalized_mutual_information()),
           (river.metrics.AdjustedMutualInfo, lambda p: p.adjusted_mutual_information())],
          clustering=True)
river_row("`metrics.Homogeneity`, `Completeness`, `VBeta(beta=1.0)`, `FowlkesMallows`",
          "`p.homogeneity`, `p.completeness`, `p.v_measure(1.0)`, `p.fowlkes_mallows` (1 for "
          "identical all-singleton partitions and for none, where river gives 0)",
          [(river.metrics.Homogeneity, lambda p: p.homogeneity),
           (river.metrics.Completeness, lambda p: p.completeness),
           (lambda: river.metrics.VBeta(beta=1.0), lambda p: p.v_measure(1.0)),
           (river.metrics.FowlkesMallows, lambda p: p.fowlkes_mallows,
            lambda p: (1.0, 0.0) if singletons(p) else None)],
          clustering=True)


# torchmetrics: golden files of the real package (tests/golden/make_torchmetrics.py) -------------

TORCH = "torchmetrics"
TORCH_CLASSIFICATION = json.loads((GOLDEN / "torchmetrics" / "classification.json").read_text("utf-8"))
TORCH_CLUSTERING = json.loads((GOLDEN / "torchmetrics" / "clustering.json").read_text("utf-8"))
#: torchmetrics computes some scores in float32 whatever the default dtype: to its precision.
FLOAT32_REL = 2.0**-20


def torch_cases(golden: dict[str, Any], *names: str) -> Callable[[], list[dict[str, Any]]]:
    """The golden cases in which torchmetrics computed each of ``names``."""
    return lambda: [case for case in golden["cases"]
                    if "preds" in case and all(n in case["outputs"] for n in names)]


def same_as_torch(ours: Any, output: dict[str, Any], what: str = "") -> None:
    """Our number against torchmetrics': to 1e-12 where it computed in float64, to float32's
    precision where it computed in float32."""
    if output["dtype"] == "float64":
        same(ours, output["value"], what)
    else:
        assert output["dtype"] == "float32", output
        close = np.isclose(np.asarray(ours, dtype=float), np.asarray(output["value"], dtype=float),
                           rtol=FLOAT32_REL, atol=FLOAT32_REL)
        assert bool(np.all(close)), (what, ours, output["value"])


def torch_row(peer: str, ours: str, names: Sequence[str],
              read: Callable[[dict[str, Any]], Sequence[Any]], *,
              golden: dict[str, Any] = TORCH_CLASSIFICATION, kinds: Sequence[str],
              differs: Callable[[dict[str, Any], str], Any] = lambda case, name: None,
              ) -> None:
    """A torchmetrics row: ``read(case)`` gives our numbers for the outputs ``names``.

    Where ``differs(case, name)`` is not None, the row's documented difference: a pair
    (ours, torchmetrics') that the two numbers must be exactly, or ``"scikit-learn"``:
    ours is scikit-learn's (run here on the stored inputs), where torchmetrics' is not."""
    def check(case: dict[str, Any]) -> None:
        for name, mine in zip(names, read(case), strict=True):
            theirs = case["outputs"][name]["value"]
            documented = differs(case, name)
            if documented is None:
                same_as_torch(mine, case["outputs"][name], name)
            elif documented == "scikit-learn":
                assert not math.isclose(mine, theirs, abs_tol=ABS), (name, mine, theirs)
                same(mine, quietly(SKLEARN_PEERS[name], case["target"], case["preds"]), name)
            else:
                assert (mine, theirs) == documented, (name, mine, theirs)
    row(TORCH, peer, ours, kinds=kinds, inputs=torch_cases(golden, *names))(check)


#: scikit-learn's function of each torchmetrics name whose number differs by design.
SKLEARN_PEERS: dict[str, Callable[[Any, Any], float]] = {
    "MulticlassMatthewsCorrCoef(num_classes=2)": sk.matthews_corrcoef,
    "NormalizedMutualInfoScore(average_method='arithmetic')": sk.normalized_mutual_info_score,
    "AdjustedMutualInfoScore": sk.adjusted_mutual_info_score,
    "VMeasureScore(beta=1.0)": sk.v_measure_score,
}


def seen(case: dict[str, Any]) -> Contingency:
    """``Contingency(zero_division=0.0)`` fed the case: the categories some result names."""
    return Contingency(zero_division=0.0).add_results(case["preds"], case["target"])


def declared(case: dict[str, Any]) -> Contingency:
    """``Contingency(range(K), zero_division=0.0)`` fed the case (class indices, or indicator
    matrices whose columns are the classes): every class declared."""
    k = case.get("num_classes", case.get("num_labels"))
    return Contingency(range(k), zero_division=0.0).add_results(np.array(case["preds"]),
                                                                np.array(case["target"]))


LABEL_CASES = ("binary", "multiclass", "absent")

torch_row("`m = MulticlassF1Score(num_classes=K, average=\"macro\"); m.update(preds, target); "
          "m.compute()`",
          "`s = Contingency(zero_division=0.0); s.add_results(preds, target); s.macro_f1` (the "
          "classes some result names: torchmetrics leaves the others out of a macro average)",
          ["MulticlassF1Score(average='macro')"], lambda case: [seen(case).macro_f1],
          kinds=LABEL_CASES)
torch_row("`MulticlassPrecision(num_classes=K, average=\"micro\")`, `MulticlassRecall(...)`",
          "`s.micro_precision`, `s.micro_recall`",
          ["MulticlassPrecision(average='micro')", "MulticlassRecall(average='micro')"],
          lambda case: [seen(case).micro_precision, seen(case).micro_recall], kinds=LABEL_CASES)
torch_row("`MulticlassFBetaScore(beta=2.0, num_classes=K, average=\"weighted\")`",
          "`s.f_beta(2.0, average=\"weighted\")`",
          ["MulticlassFBetaScore(beta=2.0, average='weighted')"],
          lambda case: [seen(case).f_beta(2.0, average="weighted")], kinds=LABEL_CASES)
torch_row("`MulticlassF1Score(num_classes=K, average=\"none\")`",
          "`Contingency(range(K), zero_division=0.0)`, then `s.f1(None)` (or "
          "`s.category_stats()`): one per class, 0.0 for a class no result names",
          ["MulticlassF1Score(average='none')"],
          lambda case: [declared(case).f1(None)], kinds=LABEL_CASES)
torch_row("`MultilabelF1Score(num_labels=K, average=\"micro\")` on 0/1 indicator tensors",
          "`s.add_results(preds, target)` on 0/1 indicator matrices; `s.micro_f1`",
          ["MultilabelF1Score(average='micro')"],
          lambda case: [declared(case).micro_f1],
          kinds=("indicators",))


def _multilabel(case: dict[str, Any]) -> list[float]:
    s = declared(case)
    return [s.subset_accuracy, s.hamming_loss]


torch_row("`MultilabelExactMatch(num_labels=K)`, `MultilabelHammingDistance(num_labels=K, "
          "average=\"micro\")`",
          "`s.subset_accuracy`, `s.hamming_loss`",
          ["MultilabelExactMatch", "MultilabelHammingDistance(average='micro')"], _multilabel,
          kinds=("indicators",))


def one_sided(case: dict[str, Any], name: str) -> str | None:
    """A 2 x 2 table with an empty row or column (one side names one class): the correlation
    is 0/0, which scikit-learn and ``zero_division=0.0`` make 0, and torchmetrics a limit
    taken with float32's epsilon (1 when every result is right)."""
    sides = (set(case["preds"]), set(case["target"]))
    return "scikit-learn" if min(map(len, sides)) < 2 else None


torch_row("`MulticlassMatthewsCorrCoef(num_classes=2)` on a binary task",
          "`s.matthews_corrcoef()` (scikit-learn's: where one side names one class, "
          "`zero_division`, and torchmetrics a limit)",
          ["MulticlassMatthewsCorrCoef(num_classes=2)"],
          lambda case: [seen(case).matthews_corrcoef()], kinds=("binary",), differs=one_sided)


@row(TORCH, "`m.reset()`", "`s.reset()`", kinds=("reset",),
     inputs=lambda: [case for case in TORCH_CLASSIFICATION["cases"] if case["kind"] == "reset"])
def _torch_reset(case: dict[str, Any]) -> None:
    """update, compute, reset, update, compute: the second value is the second batch's alone."""
    s = Contingency(zero_division=0.0)
    outputs = case["outputs"]["MulticlassF1Score(average='macro')"]
    for (preds, target), output in zip(case["batches"], outputs, strict=True):
        s.add_results(preds, target)
        same_as_torch(s.macro_f1, output)
        s.reset()
        assert s == Contingency(zero_division=0.0)


def torch_partition(case: dict[str, Any]) -> PartitionComparison:
    """``PartitionComparison.from_labels(target, preds)``: the truth first here."""
    return PartitionComparison.from_labels(case["target"], case["preds"])


torch_row("`functional.clustering.adjusted_rand_score(preds, target)`",
          "`PartitionComparison.from_labels(target, preds).adjusted_rand_index`",
          ["functional.clustering.adjusted_rand_score"],
          lambda case: [torch_partition(case).adjusted_rand_index],
          golden=TORCH_CLUSTERING, kinds=("partitions", "partition edges"))


def torch_limits(case: dict[str, Any], name: str) -> Any:
    """The limit cases torchmetrics decides otherwise than scikit-learn (whose numbers these
    are): NMI and AMI of two one-cluster partitions, AMI of two all-singleton ones (1 there,
    0 in torchmetrics), V-measure where homogeneity and completeness are 0 (0 there, 1 in
    torchmetrics), Fowlkes-Mallows of two all-singleton partitions (1 here, 0 in both)."""
    p = torch_partition(case)
    one_cluster = p.n_reference_clusters == p.n_model_clusters == 1
    singletons_both = singletons(p)
    if name == "NormalizedMutualInfoScore(average_method='arithmetic')" and one_cluster:
        return "scikit-learn"
    if name == "AdjustedMutualInfoScore" and (one_cluster or singletons_both):
        return "scikit-learn"
    if name == "VMeasureScore(beta=1.0)" and p.homogeneity == p.completeness == 0:
        return "scikit-learn"
    if name == "FowlkesMallowsIndex" and singletons_both:
        return (1.0, 0.0)
    return None


torch_row("`clustering.NormalizedMutualInfoScore(average_method=\"arithmetic\")`, "
          "`AdjustedMutualInfoScore`, `MutualInfoScore`, `RandScore`",
          "`p.normalized_mutual_information()`, `p.adjusted_mutual_information()`, "
          "`p.mutual_information()`, `p.rand_index` (scikit-learn's 1 where both partitions "
          "are one cluster, for AMI also all singletons: torchmetrics gives 0)",
          ["NormalizedMutualInfoScore(average_method='arithmetic')", "AdjustedMutualInfoScore",
           "MutualInfoScore", "RandScore"],
          lambda case: [(p := torch_partition(case)).normalized_mutual_information(),
                        p.adjusted_mutual_information(), p.mutual_information(), p.rand_index],
          golden=TORCH_CLUSTERING, kinds=("partitions", "partition edges"), differs=torch_limits)
torch_row("`clustering.HomogeneityScore`, `CompletenessScore`, `VMeasureScore(beta=1.0)`, "
          "`FowlkesMallowsIndex`",
          "`p.homogeneity`, `p.completeness`, `p.v_measure(1.0)`, `p.fowlkes_mallows` "
          "(scikit-learn's V-measure, 0 where homogeneity and completeness are 0: torchmetrics "
          "gives 1; Fowlkes-Mallows 1 for identical all-singleton partitions: torchmetrics "
          "gives 0)",
          ["HomogeneityScore", "CompletenessScore", "VMeasureScore(beta=1.0)",
           "FowlkesMallowsIndex"],
          lambda case: [(p := torch_partition(case)).homogeneity, p.completeness,
                        p.v_measure(1.0), p.fowlkes_mallows],
          golden=TORCH_CLUSTERING, kinds=("partitions", "partition edges"), differs=torch_limits)


# Scored results: ThresholdContingency against scikit-learn and river ------------------------------

SCORED = "Scored results: ThresholdContingency"


@dataclass(frozen=True)
class ScoredCase:
    """Scores of a binary task and their truth (scikit-learn's order), weights and a label."""

    kind: str
    y_true: list[int]
    y_score: list[float]
    sample_weight: list[int] | list[float] | None = None

    def curve(self, **settings: Any) -> contingency.ThresholdContingency:
        """``c = ThresholdContingency(...); c.add_results(y_score, y_true, sample_weight=w)``."""
        c = contingency.ThresholdContingency(**settings)
        c.add_results(self.y_score, self.y_true, sample_weight=self.sample_weight)
        return c


def scored_cases(*kinds: str) -> Iterator[ScoredCase]:
    """Seeded scored inputs: distinct scores, many ties (scores in sixths), integer weights
    (zeros included), fractional weights (multiples of 1/8, zeros included), and
    probabilities; both classes present in every case."""
    for kind in kinds:
        rng = np.random.default_rng([32, *map(ord, kind)])
        for _ in range(COUNT):
            n = int(rng.integers(2, 60))
            y = rng.integers(0, 2, n)
            y[0], y[-1] = 0, 1
            scores = rng.integers(0, 7, n) / 6.0 if kind == "ties" else rng.random(n)
            weights = (rng.integers(0, 5, n).tolist() if kind == "weights"
                       else (rng.integers(0, 17, n) / 8).tolist() if kind == "fractional weights"
                       else None)
            if weights is not None:
                weights[0] = weights[-1] = 1
            yield ScoredCase(kind, y.tolist(), scores.tolist(), weights)


SCORED_KINDS = ("distinct", "ties", "weights", "fractional weights")


def scored_row(peer: str, ours: str, kinds: Sequence[str] = SCORED_KINDS
               ) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    return row(SCORED, peer, ours, kinds=kinds, inputs=lambda: scored_cases(*kinds))


@scored_row("`roc_auc_score(y_true, y_score, sample_weight=w, max_fpr=m)`",
            "`c = ThresholdContingency(); c.add_results(y_score, y_true, sample_weight=w); "
            "c.roc_auc(max_fpr=m)`")
def _roc_auc(case: ScoredCase) -> None:
    c = case.curve()
    for max_fpr in (None, 0.2, 0.5, 1.0):
        same(c.roc_auc(max_fpr=max_fpr), sk.roc_auc_score(
            case.y_true, case.y_score, sample_weight=case.sample_weight, max_fpr=max_fpr))


@scored_row("`roc_curve(y_true, y_score, drop_intermediate=d)`",
            "`c.roc_curve(drop_intermediate=d)` (with weights whose float sums round, such as "
            "0.1, scikit-learn may keep a point where the curve does not turn, which exact "
            "counts drop: its points include ours)")
def _roc_curve(case: ScoredCase) -> None:
    c = case.curve()
    for drop in (True, False):
        for ours, theirs in zip(c.roc_curve(drop_intermediate=drop), sk.roc_curve(
                case.y_true, case.y_score, sample_weight=case.sample_weight,
                drop_intermediate=drop), strict=True):
            same(ours, theirs)


@scored_row("`precision_recall_curve(y_true, y_score)`, `average_precision_score`",
            "`c.precision_recall_curve()`, `c.average_precision()`")
def _precision_recall(case: ScoredCase) -> None:
    c = case.curve()
    for ours, theirs in zip(c.precision_recall_curve(), sk.precision_recall_curve(
            case.y_true, case.y_score, sample_weight=case.sample_weight), strict=True):
        same(ours, theirs)
    same(c.average_precision(), sk.average_precision_score(
        case.y_true, case.y_score, sample_weight=case.sample_weight))


@scored_row("`det_curve(y_true, y_score)`", "`c.det_curve()`")
def _det_curve(case: ScoredCase) -> None:
    for ours, theirs in zip(case.curve().det_curve(), sk.det_curve(
            case.y_true, case.y_score, sample_weight=case.sample_weight), strict=True):
        same(ours, theirs)


@scored_row("`brier_score_loss(y_true, y_prob)`, `log_loss(y_true, y_prob)`",
            "`c.brier_score()`, `c.log_loss()` (exact mode: the scores are probabilities)")
def _probabilities(case: ScoredCase) -> None:
    c = case.curve()
    same(c.brier_score(), sk.brier_score_loss(case.y_true, case.y_score,
                                            sample_weight=case.sample_weight))
    same(c.log_loss(), sk.log_loss(case.y_true, case.y_score, sample_weight=case.sample_weight))


@scored_row("`calibration.calibration_curve(y_true, y_prob, n_bins=n, strategy=s)`",
            "`c.calibration_curve(n, strategy=s)`", kinds=("distinct", "ties"))
def _calibration(case: ScoredCase) -> None:
    from sklearn.calibration import calibration_curve

    c = case.curve()
    for n_bins in (3, 5):
        for strategy in ("uniform", "quantile"):
            for ours, theirs in zip(c.calibration_curve(n_bins, strategy=strategy),
                                    calibration_curve(case.y_true, case.y_score, n_bins=n_bins,
                                                      strategy=strategy), strict=True):
                same(ours, theirs)


@scored_row("`roc_curve(y_true, y_score, pos_label=\"spam\")`, `roc_auc_score` of labels",
            "`ThresholdContingency(pos_label=\"spam\")`: every other label is negative")
def _pos_label(case: ScoredCase) -> None:
    labels = ["spam" if y else ("ham", "eggs")[i % 2] for i, y in enumerate(case.y_true)]
    c = contingency.ThresholdContingency(pos_label="spam")
    c.add_results(case.y_score, labels, sample_weight=case.sample_weight)
    for ours, theirs in zip(c.roc_curve(), sk.roc_curve(
            labels, case.y_score, pos_label="spam", sample_weight=case.sample_weight),
            strict=True):
        same(ours, theirs)


@scored_row("`roc_auc_score` with one class absent (a warning, then NaN)",
            "`ThresholdContingency(zero_division=\"nan\")` (the default, `\"perl\"`, raises "
            "`ValueError` naming the absent class)", kinds=("distinct",))
def _one_class(case: ScoredCase) -> None:
    positives = [s for s, y in zip(case.y_score, case.y_true, strict=True) if y]
    truth = [1] * len(positives)
    c = contingency.ThresholdContingency(zero_division="nan")
    c.add_results(positives, truth)
    same(c.roc_auc(), quietly(sk.roc_auc_score, truth, positives))
    perl = contingency.ThresholdContingency()
    perl.add_results(positives, truth)
    with pytest.raises(ValueError, match="no negative result"):
        perl.roc_auc()


def _river_scored(case: ScoredCase) -> list[tuple[float, int]]:
    return list(zip(case.y_score, case.y_true, strict=True))


@row("river", "`m = metrics.ROCAUC(); m.update(y_true, y_score); m.get()`",
     "`c = ThresholdContingency(zero_division=\"nan\"); c.add(y_score, y_true); c.roc_auc()` "
     "(exact: river's ROCAUC is an approximation over `n_thresholds` fixed thresholds, and "
     "differs; ours is scikit-learn's `roc_auc_score` of the results so far)",
     kinds=("distinct",), inputs=lambda: scored_cases("distinct"))
def _river_rocauc(case: ScoredCase) -> None:
    metric = river.metrics.ROCAUC()
    c = contingency.ThresholdContingency(zero_division="nan")
    seen: list[tuple[float, int]] = []
    apart = 0.0
    for score, label in _river_scored(case):
        metric.update(bool(label), score)
        c.add(score, label)
        seen.append((score, label))
        if len({y for _, y in seen}) == 2:
            exact = sk.roc_auc_score([y for _, y in seen], [s for s, _ in seen])
            same(c.roc_auc(), exact)
            apart = max(apart, abs(metric.get() - exact))
    assert apart > 0 or len(seen) < 6, "river's ROCAUC gave every exact AUC: update the row"


@row("river", "`m = metrics.RollingROCAUC(window_size=k)`: `m.update(y_true, y_score)`",
     "`c.add(y_score, y_true)`, then `c.remove(...)` of the result `k` back; `c.roc_auc()` "
     "(a tied positive-negative pair counts half, as in scikit-learn: river's RollingROCAUC "
     "differs where the window holds one)",
     kinds=("distinct", "ties"), inputs=lambda: scored_cases("distinct", "ties"))
def _river_rolling(case: ScoredCase) -> None:
    k = 7
    metric = river.metrics.RollingROCAUC(window_size=k)
    c = contingency.ThresholdContingency(zero_division=0.0)
    stream = _river_scored(case)
    for i, (score, label) in enumerate(stream):
        metric.update(bool(label), score)
        c.add(score, label)
        if i >= k:
            c.remove(*stream[i - k])
        window = stream[max(0, i - k + 1):i + 1]
        if len({y for _, y in window}) == 2:
            same(c.roc_auc(), sk.roc_auc_score([y for _, y in window], [s for s, _ in window]))
            tied = {s for s, y in window if y} & {s for s, y in window if not y}
            if not tied:  # river agrees unless a positive and a negative tie in the window
                same(c.roc_auc(), metric.get(), f"step {i}")


# torchmetrics' binary curves: its golden file (tests/golden/torchmetrics/curves.json) ---------------

TORCH_CURVES = json.loads((GOLDEN / "torchmetrics" / "curves.json").read_text("utf-8"))


def _torch_curve(case: dict[str, Any]) -> contingency.ThresholdContingency:
    """``c.add_results(preds, target)``: the scores first."""
    c = contingency.ThresholdContingency()
    c.add_results(case["preds"], case["target"])
    return c


def _torch_value(case: dict[str, Any], name: str) -> float:
    stored = case["outputs"][name]
    assert stored["dtype"] == "float64"  # the file was made with float64 as the default dtype
    return float(stored["value"])


@row(TORCH, "`m = BinaryAUROC(max_fpr=m); m.update(preds, target); m.compute()`",
     "`c = ThresholdContingency(); c.add_results(preds, target); c.roc_auc(max_fpr=m)`",
     kinds=("golden",), inputs=lambda: TORCH_CURVES["cases"])
def _torch_auroc(case: dict[str, Any]) -> None:
    c = _torch_curve(case)
    same(c.roc_auc(), _torch_value(case, "BinaryAUROC()"))
    same(c.roc_auc(max_fpr=case["max_fpr"]),
         _torch_value(case, f"BinaryAUROC(max_fpr={case['max_fpr']})"))


@row(TORCH, "`BinaryAveragePrecision()`", "`c.average_precision()`",
     kinds=("golden",), inputs=lambda: TORCH_CURVES["cases"])
def _torch_average_precision(case: dict[str, Any]) -> None:
    same(_torch_curve(case).average_precision(), _torch_value(case, "BinaryAveragePrecision()"))


@row(TORCH, "`BinaryCalibrationError(n_bins=n, norm=k)`",
     "`c.calibration_error(n, norm=k)` (`n` the bins' edges where torch's `linspace` rounds "
     "an edge unlike numpy's)", kinds=("golden",), inputs=lambda: TORCH_CURVES["cases"])
def _torch_calibration(case: dict[str, Any]) -> None:
    c = _torch_curve(case)
    for name in case["outputs"]:
        if name.startswith("BinaryCalibrationError"):
            n_bins = name.split("n_bins=")[1].split(",")[0]
            norm = name.split("norm='")[1].split("'")[0]
            edges = np.array(case["edges"][n_bins])
            same(c.calibration_error(edges, norm=norm), _torch_value(case, name), name)


# Scored results with several classes: MulticlassThresholdContingency against scikit-learn --------

MULTICLASS_SCORED = "Scored results with several classes: MulticlassThresholdContingency"


@dataclass(frozen=True)
class MulticlassScoredCase:
    """An (n, K) matrix of probabilities (rows sum to 1; ties in the "ties" kind), labels, weights."""

    kind: str
    classes: list[Any]
    y_true: list[Any]
    y_score: Any
    sample_weight: list[int] | None = None

    def curves(self) -> contingency.MulticlassThresholdContingency:
        """``c = MulticlassThresholdContingency(classes); c.add_results(y_score, y_true, ...)``."""
        c = contingency.MulticlassThresholdContingency(self.classes)
        c.add_results(self.y_score, self.y_true, sample_weight=self.sample_weight)
        return c


def multiclass_scored_cases(*kinds: str) -> Iterator[MulticlassScoredCase]:
    """Seeded inputs of 3 to 6 classes (every class present), string or integer labels."""
    for kind in kinds:
        rng = np.random.default_rng([32, 3, *map(ord, kind)])
        for i in range(COUNT):
            k = int(rng.integers(3, 7))
            n = int(rng.integers(k + 2, 60))
            raw = (rng.integers(1, 4, (n, k)) if kind == "ties" else rng.random((n, k))) + 0.0
            scores = raw / raw.sum(axis=1, keepdims=True)
            codes = rng.integers(0, k, n)
            codes[:k] = np.arange(k)
            classes: list[Any] = list(NAMES[:k]) if i % 2 else list(range(k))
            weights = rng.integers(1, 5, n).tolist() if kind == "weights" else None
            yield MulticlassScoredCase(kind, classes, [classes[c] for c in codes], scores, weights)


def multiclass_row(peer: str, ours: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    kinds = ("distinct", "ties", "weights")
    return row(MULTICLASS_SCORED, peer, ours, kinds=kinds,
               inputs=lambda: multiclass_scored_cases(*kinds))


@multiclass_row("`roc_auc_score(y_true, y_score, multi_class=\"ovr\", average=a, labels=classes)`",
                "`c = MulticlassThresholdContingency(classes); c.add_results(y_score, y_true); "
                "c.roc_auc(a)` (`a` one of `\"macro\"`, `\"weighted\"`, `\"micro\"`, `None`; the "
                "rows need not sum to 1, which scikit-learn requires)")
def _multiclass_roc_auc(case: MulticlassScoredCase) -> None:
    c = case.curves()
    for average in ("macro", "weighted", "micro"):
        same(c.roc_auc(average), sk.roc_auc_score(
            case.y_true, case.y_score, multi_class="ovr", average=average, labels=case.classes,
            sample_weight=case.sample_weight), str(average))
    truth = label_binarize(case.y_true, classes=case.classes)
    same(c.roc_auc(None), sk.roc_auc_score(truth, case.y_score, average=None,
                                           sample_weight=case.sample_weight))


@multiclass_row("`roc_auc_score(..., multi_class=\"ovo\")` (Hand and Till)",
                "refused by name: one-vs-one needs column `j` among the results of classes `j` and "
                "`k` alone, which one-vs-rest tables do not keep")
def _multiclass_ovo(case: MulticlassScoredCase) -> None:
    # the difference the row states: the peer gives a number, ours refuses it by name
    assert 0 <= sk.roc_auc_score(case.y_true, case.y_score, multi_class="ovo",
                                 labels=case.classes) <= 1
    with pytest.raises(ValueError, match=r"multi_class='ovo' \(Hand and Till\)"):
        case.curves().roc_auc(multi_class="ovo")


@multiclass_row("`average_precision_score(y_true, y_score, average=a)` (y_true labels or "
                "`label_binarize(y_true, classes=classes)`)", "`c.average_precision(a)`")
def _multiclass_average_precision(case: MulticlassScoredCase) -> None:
    c = case.curves()
    truth = label_binarize(case.y_true, classes=case.classes)
    for average in ("macro", "weighted", "micro", None):
        same(c.average_precision(average), sk.average_precision_score(
            truth, case.y_score, average=average, sample_weight=case.sample_weight), str(average))


@multiclass_row("`top_k_accuracy_score(y_true, y_score, k=k, labels=classes, normalize=b)`",
                "`c.top_k_accuracy(k, normalize=b)` (every `k` from one state: the weight of "
                "results by the rank of their correct class; ties as scikit-learn breaks them)")
def _multiclass_top_k(case: MulticlassScoredCase) -> None:
    c = case.curves()
    for k in range(1, len(case.classes)):
        for normalize in (True, False):
            same(c.top_k_accuracy(k, normalize=normalize), sk.top_k_accuracy_score(
                case.y_true, case.y_score, k=k, labels=case.classes, normalize=normalize,
                sample_weight=case.sample_weight), f"k={k}")


@multiclass_row("`roc_curve(label_binarize(y_true, classes=classes)[:, j], y_score[:, j])`",
                "`c.one_vs_rest(classes[j]).roc_curve()` (every read of `ThresholdContingency`, "
                "per class; `c.micro()` for the raveled matrices)")
def _multiclass_one_vs_rest(case: MulticlassScoredCase) -> None:
    c = case.curves()
    truth = label_binarize(case.y_true, classes=case.classes)
    for j, label in enumerate(case.classes):
        for ours, theirs in zip(c.one_vs_rest(label).roc_curve(), sk.roc_curve(
                truth[:, j], case.y_score[:, j], sample_weight=case.sample_weight), strict=True):
            same(ours, theirs)
    weights = None if case.sample_weight is None else np.repeat(case.sample_weight, len(case.classes))
    for ours, theirs in zip(c.micro().precision_recall_curve(), sk.precision_recall_curve(
            truth.ravel(), case.y_score.ravel(), sample_weight=weights), strict=True):
        same(ours, theirs)
