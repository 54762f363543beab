"""Stateful property tests: random interleavings of every update, checked against naive models.

Two hypothesis ``RuleBasedStateMachine`` classes drive ``Contingency`` and
``PartitionComparison`` through random sequences of single and batch adds (every
input form), removes of results known to be present, merges, copies, resets,
``set_entries``, ``to_dict``/``from_dict`` and pickle round trips. After every
step an invariant compares the accumulator with a deliberately naive model
(a list of results with ``fractions.Fraction`` sums, a ``Counter`` of label
pairs with brute-force formulas) and with scikit-learn where it has the number.

The ``Contingency`` machines use ``zero_division=0.0`` so that the model's
formulas need no NaN handling: a ratio with a zero denominator is 0. Float
weights are dyadic (0.25, 0.5, 1.5) so that their sums are exact in binary and
the model can compare cells exactly.

Size: as many examples per machine as the hypothesis profile of tests/conftest.py
gives (100 in the default, derandomized profile; 300 with
``HYPOTHESIS_PROFILE=explore``), of at most ``CONTINGENCY_STATEFUL_STEPS=20``
steps; a nightly-sized run sets these environment variables higher, e.g.
``CONTINGENCY_STATEFUL_EXAMPLES=2000 CONTINGENCY_STATEFUL_STEPS=50``. The
peers' values of a partition state are computed once per distinct state
(:func:`_partition_expectations`).
"""

from __future__ import annotations

import functools
import math
import os
import pickle
import warnings
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sklearn import metrics as sklearn_metrics

from contingency import Contingency, PartitionComparison

#: As many examples as the hypothesis profile gives every property test (tests/conftest.py: 100
#: in the default, derandomized profile; 300 in HYPOTHESIS_PROFILE=explore), unless set here.
EXAMPLES = int(os.environ.get("CONTINGENCY_STATEFUL_EXAMPLES", settings().max_examples))
STEPS = int(os.environ.get("CONTINGENCY_STATEFUL_STEPS", "20"))
STATEFUL_SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

CATS = ["a", "b", "c"]
BRUTE_FORCE_LIMIT = 60
WEIGHTS = st.sampled_from([1, 2, 3, 0.5, 0.25, 1.5])
INT_WEIGHTS = st.integers(min_value=1, max_value=3)
SIDE = st.frozensets(st.sampled_from(CATS), max_size=3)
SINGLE = st.sampled_from(CATS)
RESULT = st.tuples(SIDE, SIDE)
SINGLE_RESULT = st.tuples(SINGLE, SINGLE)
FORMS = st.sampled_from(["str", "list", "set", "mapping"])


def _ratio(num: Fraction, den: Fraction) -> Fraction:
    return num / den if den else Fraction(0)


def _close(got: float, want: Fraction | float, what: str) -> None:
    assert math.isclose(got, float(want), rel_tol=1e-12, abs_tol=1e-12), (what, got, float(want))


def _as_form(side: frozenset[str], form: str) -> Any:
    """The same result side in one of the input forms add_result takes."""
    if form == "str" and len(side) == 1:
        return next(iter(side))
    if form == "set":
        return set(side)
    if form == "mapping":
        return dict.fromkeys(sorted(side), 1)
    return sorted(side)


class RoundTrips(RuleBasedStateMachine):
    """The rules both machines share: the accumulator through to_dict/from_dict and pickle."""

    acc: Any

    @rule()
    def dict_round_trip(self) -> None:
        doc = self.acc.to_dict()
        self.acc = type(self.acc).from_dict(doc)
        assert self.acc.to_dict() == doc

    @rule()
    def pickle_round_trip(self) -> None:
        doc = self.acc.to_dict()
        self.acc = pickle.loads(pickle.dumps(self.acc))
        assert self.acc.to_dict() == doc


class ContingencyMachine(RoundTrips):
    """Contingency over declared categories ["a", "b", "c"] against a list-of-results model."""

    categories: list[str] | None = CATS

    def __init__(self) -> None:
        super().__init__()
        self.acc = Contingency(self.categories, zero_division=0.0)
        # The model: every result present, with its weight (as a Fraction).
        self.model: list[tuple[frozenset[str], frozenset[str], Fraction]] = []
        # set_entries replaces the micro table: the model keeps the offset it implies.
        self.offset = [Fraction(0)] * 4

    # -- helpers -------------------------------------------------------------------
    def _add_model(self, assigned: frozenset[str], correct: frozenset[str], weight: float) -> None:
        self.model.append((frozenset(assigned), frozenset(correct), Fraction(weight)))

    def _fresh(self, results: list[tuple[frozenset[str], frozenset[str]]]) -> Contingency:
        other = Contingency(self.categories, zero_division=0.0)
        for assigned, correct in results:
            other.add_result(sorted(assigned), sorted(correct))
        return other

    def _known(self) -> list[str]:
        if self.categories is not None:
            return list(self.categories)
        return sorted({lab for x, y, _ in self.model for lab in x | y} | set(self.acc.categories))

    def _cells(self) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
        cells = {cat: [Fraction(0)] * 3 for cat in self._known()}
        for assigned, correct, w in self.model:
            for cat in assigned & correct:
                cells[cat][0] += w
            for cat in assigned - correct:
                cells[cat][1] += w
            for cat in correct - assigned:
                cells[cat][2] += w
        return {cat: (v[0], v[1], v[2]) for cat, v in cells.items()}

    # -- rules ---------------------------------------------------------------------
    @rule(result=RESULT, form=FORMS, weight=WEIGHTS, keyword=st.booleans())
    def add_result(
        self, result: tuple[frozenset[str], frozenset[str]], form: str, weight: float, keyword: bool
    ) -> None:
        assigned, correct = result
        if keyword or weight != 1:
            self.acc.add_result(_as_form(assigned, form), _as_form(correct, form), weight=weight)
        else:
            self.acc.add_result(_as_form(assigned, form), _as_form(correct, form))
        self._add_model(assigned, correct, weight)

    @rule(results=st.lists(RESULT, min_size=2, max_size=6),
          forms=st.lists(st.sampled_from(["str", "list", "set"]), min_size=6, max_size=6))
    def add_several_between_reads(
        self, results: list[tuple[frozenset[str], frozenset[str]]], forms: list[str]
    ) -> None:
        """Several results with no read between them: each is in the counts as soon as it is
        added (no buffer between a result and the counts)."""
        counts = self.acc._counts
        for (assigned, correct), form in zip(results, forms):
            before = counts.n
            self.acc.add_result(_as_form(assigned, form), _as_form(correct, form))
            self._add_model(assigned, correct, 1)
            assert counts.n == before + (1 << counts.scale)

    @rule(results=st.lists(RESULT, max_size=5), weights=st.none() | st.just("ints") | st.just("floats"))
    def add_results_sequences(
        self, results: list[tuple[frozenset[str], frozenset[str]]], weights: str | None
    ) -> None:
        ws: list[float] = [1] * len(results)
        if weights == "ints":
            ws = [i % 3 + 1 for i in range(len(results))]
        elif weights == "floats":
            ws = [0.5 * (i % 3 + 1) for i in range(len(results))]
        self.acc.add_results(
            [sorted(x) for x, _ in results], [sorted(y) for _, y in results], None if weights is None else ws
        )
        for (x, y), w in zip(results, ws):
            self._add_model(x, y, w)

    @rule(results=st.lists(SINGLE_RESULT, min_size=1, max_size=6), weighted=st.booleans())
    def add_results_numpy_labels(self, results: list[tuple[str, str]], weighted: bool) -> None:
        assigned = np.array([x for x, _ in results])
        correct = np.array([y for _, y in results])
        ws = np.array([i % 2 + 1 for i in range(len(results))], dtype=np.int64)
        self.acc.add_results(assigned, correct, ws if weighted else None)
        for (x, y), w in zip(results, ws if weighted else [1] * len(results)):
            self._add_model(frozenset([x]), frozenset([y]), int(w))

    @precondition(lambda self: self.categories is not None)
    @rule(results=st.lists(RESULT, min_size=1, max_size=5), weighted=st.booleans())
    def add_results_indicator(
        self, results: list[tuple[frozenset[str], frozenset[str]]], weighted: bool
    ) -> None:
        cats = list(self.acc.categories)
        assigned = np.array([[cat in x for cat in cats] for x, _ in results], dtype=np.int8)
        correct = np.array([[cat in y for cat in cats] for _, y in results], dtype=np.int8)
        ws = [0.25 * (i % 4 + 1) for i in range(len(results))]
        self.acc.add_results(assigned, correct, ws if weighted else None)
        for (x, y), w in zip(results, ws if weighted else [1] * len(results)):
            self._add_model(x, y, w)

    @precondition(lambda self: self.model)
    @rule(data=st.data(), form=FORMS)
    def remove_result(self, data: st.DataObject, form: str) -> None:
        i = data.draw(st.integers(0, len(self.model) - 1))
        assigned, correct, w = self.model.pop(i)
        weight: float = int(w) if w.denominator == 1 else float(w)
        self.acc.remove_result(_as_form(assigned, form), _as_form(correct, form), weight=weight)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def remove_results(self, data: st.DataObject) -> None:
        idx = data.draw(st.lists(st.integers(0, len(self.model) - 1), min_size=1, max_size=4, unique=True))
        picked = [self.model[i] for i in idx]
        weights = [int(w) if w.denominator == 1 else float(w) for _, _, w in picked]
        self.acc.remove_results([sorted(x) for x, _, _ in picked], [sorted(y) for _, y, _ in picked], weights)
        for i in sorted(idx, reverse=True):
            del self.model[i]

    @rule(results=st.lists(RESULT, max_size=4))
    def merge(self, results: list[tuple[frozenset[str], frozenset[str]]]) -> None:
        self.acc.merge(self._fresh(results))
        for x, y in results:
            self._add_model(x, y, 1)

    @rule()
    def copy(self) -> None:
        before = self.acc.to_dict()
        clone = self.acc.copy()
        clone.add_result("a", "b")  # the copy is independent of the original
        clone.remove_result("a", "b")
        assert self.acc.to_dict() == before
        self.acc = clone

    @rule()
    def reset(self) -> None:
        self.acc.reset()
        self.model.clear()
        self.offset = [Fraction(0)] * 4

    @rule(extra=st.tuples(*[st.integers(0, 20)] * 4))
    def set_entries(self, extra: tuple[int, int, int, int]) -> None:
        # At least the results' own micro table, so that removing any of them stays
        # possible (set_entries tables too small to remove from are refused, by design).
        current = self._micro_from_results()
        entries = [math.ceil(c) + e for c, e in zip(current, extra)]
        self.acc.set_entries(*entries)
        self.offset = [Fraction(e) - c for e, c in zip(entries, current)]

    # -- the model's numbers ---------------------------------------------------------
    def _micro_from_results(self) -> list[Fraction]:
        cells = self._cells()
        n = sum((w for _, _, w in self.model), Fraction(0))
        a = sum((v[0] for v in cells.values()), Fraction(0))
        b = sum((v[1] for v in cells.values()), Fraction(0))
        c = sum((v[2] for v in cells.values()), Fraction(0))
        d = n * len(cells) - a - b - c
        return [a, b, c, d]

    @invariant()
    def matches_model(self) -> None:
        acc = self.acc
        cells = self._cells()
        n = sum((w for _, _, w in self.model), Fraction(0))
        assert Fraction(acc.n_results) == n
        if not acc.categories:  # an open set before its first label: Perl's "no category" error
            assert not any(x or y for x, y, _ in self.model)
            return
        stats = acc.category_stats()
        for cat, (a, b, c) in cells.items():
            if cat not in stats:  # an open set may not yet know a category
                assert (a, b, c) == (0, 0, 0)
                continue
            got = stats[cat]
            assert (Fraction(got["a"]), Fraction(got["b"]), Fraction(got["c"])) == (a, b, c), cat
        if self.categories is None:
            assert set(stats) <= set(cells)

        # micro scores from the micro table (results plus any set_entries offset)
        ma, mb, mc, _ = [x + o for x, o in zip(self._micro_from_results(), self.offset)]
        precision, recall = _ratio(ma, ma + mb), _ratio(ma, ma + mc)
        _close(acc.micro_precision, precision, "micro_precision")
        _close(acc.micro_recall, recall, "micro_recall")
        _close(acc.micro_f1, _ratio(2 * precision * recall, precision + recall), "micro_f1")

        # macro F1: the mean of the per-category F1 over the categories known
        f1s = []
        for cat in stats:
            a, b, c = cells[cat]
            p, r = _ratio(a, a + b), _ratio(a, a + c)
            f1s.append(_ratio(2 * p * r, p + r))
        if f1s:
            _close(acc.macro_f1, sum(f1s, Fraction(0)) / len(f1s), "macro_f1")

        if n:
            exact = sum((w for x, y, w in self.model if x == y), Fraction(0))
            _close(acc.subset_accuracy, exact / n, "subset_accuracy")
            if stats:
                wrong = sum((v[1] + v[2] for cat, v in cells.items() if cat in stats), Fraction(0))
                _close(acc.hamming_loss, wrong / (n * len(stats)), "hamming_loss")

        single = self.model and all(len(x) == 1 and len(y) == 1 for x, y, _ in self.model)
        if single:
            labels = list(acc.categories)
            y_pred = [next(iter(x)) for x, _, _ in self.model]
            y_true = [next(iter(y)) for _, y, _ in self.model]
            sw = [float(w) for _, _, w in self.model]
            with warnings.catch_warnings():  # "a single label was found": labels= is given
                warnings.simplefilter("ignore", UserWarning)
                want = sklearn_metrics.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sw)
            np.testing.assert_allclose(acc.confusion_matrix(), want, rtol=0, atol=1e-12)


class OpenContingencyMachine(ContingencyMachine):
    """The same machine over an open category set (categories=None)."""

    categories = None


class PartitionMachine(RoundTrips):
    """PartitionComparison against a Counter of (reference, model) pairs."""

    REF = st.sampled_from(["x", "y", "z"])
    MOD = st.sampled_from([1, 2, 3])

    def __init__(self) -> None:
        super().__init__()
        self.acc = PartitionComparison()
        self.model: Counter[tuple[str, int]] = Counter()

    @rule(ref=REF, mod=MOD)
    def add(self, ref: str, mod: int) -> None:
        self.acc.add(ref, mod)
        self.model[ref, mod] += 1

    @precondition(lambda self: +self.model)
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        ref, mod = data.draw(st.sampled_from(sorted((+self.model).keys())))
        self.acc.remove(ref, mod)
        self.model[ref, mod] -= 1

    @rule(pairs=st.lists(st.tuples(REF, MOD), max_size=6), weighted=st.booleans(), as_numpy=st.booleans())
    def add_many(self, pairs: list[tuple[str, int]], weighted: bool, as_numpy: bool) -> None:
        ws = [i % 3 + 1 for i in range(len(pairs))]
        refs: Any = [r for r, _ in pairs]
        mods: Any = [m for _, m in pairs]
        if as_numpy and pairs:
            refs, mods = np.array(refs), np.array(mods, dtype=np.int64)
        self.acc.add_many(refs, mods, ws if weighted else None)
        for (r, m), w in zip(pairs, ws if weighted else [1] * len(pairs)):
            self.model[r, m] += w

    @precondition(lambda self: +self.model)
    @rule(data=st.data())
    def remove_many(self, data: st.DataObject) -> None:
        present = sorted((+self.model).items())
        picked = data.draw(st.lists(st.sampled_from(present), min_size=1, max_size=3, unique=True))
        weights = [data.draw(st.integers(1, count)) for _, count in picked]
        self.acc.remove_many([r for (r, _), _ in picked], [m for (_, m), _ in picked], weights)
        for ((r, m), _), w in zip(picked, weights):
            self.model[r, m] -= w

    @rule(pairs=st.lists(st.tuples(REF, MOD), max_size=4))
    def merge(self, pairs: list[tuple[str, int]]) -> None:
        other = PartitionComparison()
        for r, m in pairs:
            other.add(r, m)
            self.model[r, m] += 1
        self.acc.merge(other)

    @rule()
    def copy(self) -> None:
        before = self.acc.to_dict()
        clone = self.acc.copy()
        clone.add("x", 1)
        assert self.acc.to_dict() == before
        clone.remove("x", 1)
        self.acc = clone

    @rule()
    def reset(self) -> None:
        self.acc.reset()
        self.model.clear()

    @rule()
    def switch_fine_sums_on(self) -> None:
        # What the first information read the float sums cannot settle does; from here on
        # the write path steps the fine sums too (the invariant recomputes them).
        self.acc._fallback_cells()

    @invariant()
    def fine_sums_equal_the_sums_recomputed_from_the_table(self) -> None:
        from contingency._running_sums import FineRunningSums
        from contingency.formulas.partition import fine_sums

        sums = self.acc._sums
        if isinstance(sums, FineRunningSums):
            counts = +self.model
            references = sorted({r for r, _ in counts})
            models = sorted({m for _, m in counts})
            table = [[counts[r, m] for m in models] for r in references] or [[0]]
            assert sums.fine_sums() == fine_sums(table)

    @invariant()
    def matches_model(self) -> None:
        counts = +self.model
        n = sum(counts.values())
        assert self.acc.n_elements == n
        rows, cols, table = self.acc.contingency_table()
        got = {
            (r, c): int(table[i, j]) for i, r in enumerate(rows) for j, c in enumerate(cols) if table[i, j]
        }
        assert got == dict(counts)
        pairs, peers = _partition_expectations(tuple(sorted(counts.items())))
        pc = self.acc.pair_confusion()
        assert (pc.same_same, pc.same_reference_only, pc.same_model_only, pc.different_different) == pairs
        for name, want in peers.items():
            value = getattr(self.acc, name)
            _close(value() if callable(value) else value, want, name)


@functools.cache
def _partition_expectations(
        counts: tuple[tuple[tuple[str, int], int], ...]) -> tuple[tuple[int, ...], dict[str, float]]:
    """The pair counts and scikit-learn's scores of a state (its sorted (pair, count) items).

    A function of the state alone, so computed once per distinct state: the machines revisit
    states (copies, round trips, a remove undoing an add) and the examples share small ones,
    and scikit-learn's input checks were most of the run's time.
    """
    n = sum(k for _, k in counts)
    # pair counts by brute-force enumeration of the expanded elements while small,
    # by C(n, 2) sums over the Counter beyond
    elements = [pair for pair, k in counts for _ in range(k)]
    same_same = same_ref = same_mod = diff = 0
    for i in range(len(elements) if n <= BRUTE_FORCE_LIMIT else 0):
        for j in range(i + 1, len(elements)):
            sr = elements[i][0] == elements[j][0]
            sm = elements[i][1] == elements[j][1]
            same_same += sr and sm
            same_ref += sr and not sm
            same_mod += sm and not sr
            diff += not sr and not sm
    if n > BRUTE_FORCE_LIMIT:
        ref_sizes, mod_sizes = Counter[str](), Counter[int]()
        for (r, m), k in counts:
            ref_sizes[r] += k
            mod_sizes[m] += k
        same_same = sum(math.comb(k, 2) for _, k in counts)
        same_ref = sum(math.comb(k, 2) for k in ref_sizes.values()) - same_same
        same_mod = sum(math.comb(k, 2) for k in mod_sizes.values()) - same_same
        diff = math.comb(n, 2) - same_same - same_ref - same_mod
    pairs = (same_same, same_ref, same_mod, diff)
    if n < 2:
        return pairs, {}
    ref = [r for r, _ in elements]
    mod = [m for _, m in elements]
    peers = {
        "rand_index": sklearn_metrics.rand_score(ref, mod),
        "adjusted_rand_index": sklearn_metrics.adjusted_rand_score(ref, mod),
        "mutual_information": sklearn_metrics.mutual_info_score(ref, mod),
        "normalized_mutual_information": sklearn_metrics.normalized_mutual_info_score(ref, mod),
        "adjusted_mutual_information": sklearn_metrics.adjusted_mutual_info_score(ref, mod),
    }
    # (what homogeneity_score, completeness_score and v_measure_score each compute and pick from)
    peers["homogeneity"], peers["completeness"], peers["v_measure"] = (
        sklearn_metrics.homogeneity_completeness_v_measure(ref, mod))
    if same_same:  # without a pair together in both, docs/metrics.md documents 1 where sklearn gives 0
        peers["fowlkes_mallows"] = sklearn_metrics.fowlkes_mallows_score(ref, mod)
    return pairs, peers


TestContingencyStateful = ContingencyMachine.TestCase
TestContingencyStateful.settings = STATEFUL_SETTINGS
TestOpenContingencyStateful = OpenContingencyMachine.TestCase
TestOpenContingencyStateful.settings = STATEFUL_SETTINGS
TestPartitionStateful = PartitionMachine.TestCase
TestPartitionStateful.settings = STATEFUL_SETTINGS
