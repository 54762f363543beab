"""The compiled score counts against their pure-Python reference: the same streams, every state equal.

contingency/_kernel_scores.pxi (``KernelScoreCounts``) and
contingency/_score_counts.py (``ScoreCounts``, the specification) hold
ThresholdContingency's counts. Every change here goes to both, and after each
one every part of the state is compared (keys, positive and negative weights,
``P``, ``N``, the running ``2U`` and tied pairs, the weight at each key and at
a key that is absent), refusals (type and message) are the same, every O(1)
read of two ThresholdContingency objects that differ only in their counts is
the same float, and the running sums are recomputed from the counts with
Python integers (an oracle independent of both). The running sums of the
Brier score's and the log loss's terms are read after every step and compared
with the formulas on the columns, bit for bit, on both. The streams cross int64 (a
total of units past ``2**63 - 1``, where the reference's counts become Python
ints and the kernel hands its state to them) and come back under it by removals:
the state, its representation (the columns' dtypes) included, is the same at
every step.
"""

from __future__ import annotations

import math
import pickle
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from contingency import ThresholdContingency
from contingency._score_counts import TERM_LOSSES, ScoreCounts
from contingency.formulas import curves
from contingency.formulas._numeric import MAX_COUNT
from tests.compiled import compiled, needs_kernel

KERNEL = compiled("KernelScoreCounts")
IMPLEMENTATIONS = [pytest.param(ScoreCounts, id="reference"),
                   pytest.param(KERNEL, id="kernel", marks=needs_kernel)]

#: Scores with many ties (a pool of a few) and some distinct ones.
SCORES = st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5000000000000001, 0.75, 1.0]),
                   st.floats(0, 1))
#: Weights of one result as users pass them: small, large, up to the limit and past it, and
#: fractional ones (each refines the counts' unit: 2**-1 ... 2**-40, and 2**40 + 0.5 needs 41 bits).
WEIGHTS = st.sampled_from([1, 1, 1, 2, 3, 2**40, 2**62, MAX_COUNT - 1, MAX_COUNT,
                           0.5, 0.25, 1.375, 2.0**-40, 2.0**40 + 0.5, 1 / 3, 2.0**62 + 2048])
#: Weights of a unit step of the counts themselves, removals and past-int64 ones included.
STEP_WEIGHTS = st.sampled_from([1, 1, -1, 2, -3, 2**40, 2**62, -(2**62), MAX_COUNT,
                                MAX_COUNT + 1, -MAX_COUNT, -(2**63), -(2**70), 2**70])


def state(counts: Any) -> dict[str, Any]:
    """Every part of a score counts object's state, as plain data."""
    keys, pos, neg = counts.columns()
    return {
        "totals": (counts.positives, counts.negatives, len(counts)),
        "scale": counts.scale,
        "running": (counts.twice_u, counts.shared),
        "types": tuple(type(x).__name__ for x in (counts.positives, counts.negatives,
                                                 counts.twice_u, counts.shared)),
        "columns": (keys.tolist(), pos.tolist(), neg.tolist()),
        "dtypes": (keys.dtype, pos.dtype, neg.dtype),
        "at": [counts.at(key) for key in keys.tolist()[:50]] + [counts.at(-1.0), counts.at(2.0)],
    }


def recomputed(counts: Any) -> tuple[int, int, int, int]:
    """``(P, N, 2U, shared)`` from the columns with Python integers, by the definition."""
    _, pos, neg = (column.tolist() for column in counts.columns())
    twice_u = shared = below = 0
    for p, n in zip(pos, neg):  # keys ascending: ``below`` is the negatives under this key
        twice_u += p * (2 * below + n)
        shared += p * n
        below += n
    return sum(pos), sum(neg), twice_u, shared


def assert_same(reference: Any, kernel: Any) -> None:
    assert state(kernel) == state(reference)
    assert recomputed(reference) == (reference.positives, reference.negatives,
                                     reference.twice_u, reference.shared)
    assert all(n for pair in zip(*reference.columns()[1:]) for n in [pair[0] or pair[1]])


def outcome(call: Any) -> tuple[str, str | None]:
    """``("ok", None)`` or the refusal ``(type name, message)``."""
    try:
        call()
    except (ValueError, TypeError, OverflowError) as error:
        return type(error).__name__, str(error)
    return "ok", None


def _call(name: str, *arguments: Any, **keywords: Any) -> Any:
    """The call ``curve.name(*arguments, **keywords)`` as a function of ``curve`` (its arguments
    bound now, not when a loop has moved on)."""
    return lambda curve: getattr(curve, name)(*arguments, **keywords)


def reads(curve: ThresholdContingency) -> dict[str, Any]:
    """The reads served by the counts' running sums and columns (``repr``: NaN equals NaN)."""
    found: dict[str, Any] = {"n": (curve.positives, curve.negatives, curve.n_results)}
    for name, read in [("roc_auc", curve.roc_auc), ("bound", lambda: curve.roc_auc_bound()),
                       ("average_precision", lambda: curve.average_precision()),
                       ("brier_score", lambda: curve.brier_score()),
                       ("log_loss", lambda: curve.log_loss()),
                       ("calibration_error", lambda: curve.calibration_error()),
                       ("calibration_error_4_l2", lambda: curve.calibration_error(4, norm="l2")),
                       ("counts", lambda: [c.tolist() for c in curve.counts()])]:
        try:
            found[name] = repr(read())
        except ValueError as error:
            found[name] = str(error)
    return found


def formula_terms(counts: Any) -> dict[str, float | None]:
    """What ``counts.term_sum`` must give, from the columns: math.fsum of the formula's terms, or
    ``None`` where the running sums do not serve (no key, a key outside [0, 1], past int64);
    and what the running bins of ``calibration_error`` (15, "l1") read: the formula on the
    columns, or ``None`` where they do not serve (also a total of 2**53 units or more, or a
    score in (0, 2**-500), where the formula rounds its products)."""
    keys, pos, neg = counts.columns()
    total = counts.positives + counts.negatives
    if not keys.size or keys[0] < 0 or keys[-1] > 1 or total > MAX_COUNT:
        return {**dict.fromkeys(TERM_LOSSES), "calibration": None}
    exact_bins = total < 2**53 and not ((keys > 0) & (keys < 2.0**-500)).any()
    return {"brier_score": math.fsum(curves.brier_terms(keys, pos, neg)),
            "log_loss": math.fsum(curves.log_loss_terms(keys, pos, neg)),
            "calibration": curves.calibration_error(keys[::-1], pos[::-1], neg[::-1])
            if exact_bins else None}


def running_sums(counts: Any) -> dict[str, float | None]:
    """The running reads of the counts themselves: each sum of terms, the bins of 15 ("l1")."""
    bins = counts.calibration_bins(15)
    return {**{name: counts.term_sum(name) for name in TERM_LOSSES},
            "calibration": None if bins is None
            else bins.read(counts.positives + counts.negatives, "l1")}


def assert_running_reads_are_the_formulas(curve: ThresholdContingency) -> None:
    """brier_score(), log_loss() and calibration_error() (the running sums and bins in exact mode)
    equal the formulas on the columns the reads take, bit for bit, or both refuse with the same
    message."""
    columns = curve._columns()
    for read, formula in [(curve.brier_score, curves.brier_score),
                          (curve.log_loss, curves.log_loss),
                          (curve.calibration_error, curves.calibration_error),
                          (partial(curve.calibration_error, 4, norm="l2"),
                           partial(curves.calibration_error, n_bins=4, norm="l2")),
                          (partial(curve.calibration_error, 10, norm="max"),
                           partial(curves.calibration_error, n_bins=10, norm="max")),
                          # the default eps by value (the running sum), another (the columns)
                          (partial(curve.log_loss, eps=curves.LOG_LOSS_EPS), curves.log_loss),
                          (partial(curve.log_loss, eps=1e-15),
                           partial(curves.log_loss, eps=1e-15))]:
        expected = outcome(lambda: formula(*columns))  # noqa: B023
        if curve.bins is not None:
            assert outcome(read)[0] == "ValueError"
        elif expected[0] != "ok":
            assert outcome(read) == expected
        else:
            assert read() == formula(*columns)


# The stateful differential test ------------------------------------------------------------------

@settings(max_examples=120, stateful_step_count=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
class ScoresKernelAgainstReference(RuleBasedStateMachine):
    """Two ThresholdContingency objects, one on each implementation, fed the same stream."""

    @initialize(bins=st.sampled_from([None, None, 4, 64, [0.0, 0.3, 0.5, 1.0]]))
    def start(self, bins: Any) -> None:
        self.bins = bins
        self.reference, self.kernel = self.fresh()

    def fresh(self) -> tuple[ThresholdContingency, ThresholdContingency]:
        reference, kernel = ThresholdContingency(bins=self.bins), ThresholdContingency(bins=self.bins)
        reference._counts, kernel._counts = ScoreCounts(), KERNEL()
        return reference, kernel

    def both(self, call: Any) -> None:
        """Run ``call`` on both; both must succeed, or both refuse it with the same error."""
        assert outcome(lambda: call(self.reference)) == outcome(lambda: call(self.kernel))

    @rule(score=SCORES, positive=st.booleans(), weight=WEIGHTS)
    def add(self, score: float, positive: bool, weight: int) -> None:
        self.both(lambda c: c.add(score, positive, weight=weight))

    @rule(score=SCORES, positive=st.booleans(), weight=WEIGHTS)
    def remove(self, score: float, positive: bool, weight: int) -> None:
        self.both(lambda c: c.remove(score, positive, weight=weight))

    @rule(take=st.integers(0, 5))
    def remove_what_is_there(self, take: int) -> None:
        keys, pos, neg = (c.tolist() for c in self.reference.counts())
        for key, p, n in list(zip(keys, pos, neg))[:take]:
            if p:
                self.both(_call("remove", key, True, weight=p))
            if n:
                self.both(_call("remove", key, False, weight=n))

    @rule(results=st.lists(st.tuples(SCORES, st.booleans(),
                                     st.sampled_from([1, 2, 2**61, 0.5, 0.125, 2.5])),
                           max_size=10), remove=st.booleans())
    def batch(self, results: list[tuple[float, bool, int]], remove: bool) -> None:
        scores, correct, weights = ([r[i] for r in results] for i in range(3))
        if remove:
            self.both(lambda c: c.remove_results(scores, correct, sample_weight=weights))
        else:
            self.both(lambda c: c.add_results(scores, correct, sample_weight=weights))

    @rule(size=st.integers(100, 400), seed=st.integers(0, 3), remove=st.booleans())
    def many_distinct(self, size: int, seed: int, remove: bool) -> None:
        """Hundreds of distinct scores one by one (blocks split), then maybe taken back (blocks go)."""
        rng = np.random.default_rng(seed)
        scores, correct = rng.random(size).tolist(), (rng.random(size) < 0.4).tolist()
        for score, positive in zip(scores, correct):
            self.both(_call("add", score, positive))
        if remove:
            for score, positive in zip(scores[::-1], correct[::-1]):
                self.both(_call("remove", score, positive))

    @rule(results=st.lists(st.tuples(SCORES, st.booleans()), max_size=12))
    def merge(self, results: list[tuple[float, bool]]) -> None:
        other = ThresholdContingency(bins=self.bins)
        for score, positive in results:
            other.add(score, positive)
        self.both(lambda c: c.merge(other))

    @rule(size=st.integers(1600, 2400), seed=st.integers(0, 3), keep=st.integers(0, 20))
    def cross_int64_and_back(self, size: int, seed: int, keep: int) -> None:
        """Results of weight 1/3 (6004799503160661 units of 2**-54): a batch or a loop of them
        takes the total of units past int64, their removal (all but ``keep``) brings it back."""
        rng = np.random.default_rng(seed)
        scores = np.round(rng.random(size), 2).tolist()
        correct = (rng.random(size) < 0.4).tolist()
        weights = [1 / 3] * size
        if seed % 2:
            self.both(lambda c: c.add_results(scores, correct, sample_weight=weights))
        else:
            for score, positive in zip(scores, correct):
                self.both(_call("add", score, positive, weight=1 / 3))
        self.same_state_and_reads()
        for score, positive in zip(scores[keep:], correct[keep:]):
            self.both(_call("remove", score, positive, weight=1 / 3))

    @rule()
    def merge_itself(self) -> None:
        self.both(lambda c: c.merge(c.copy()))

    @rule()
    def remove_everything(self) -> None:
        scores, pos, neg = self.reference.counts()
        both_weights = np.concatenate([pos, neg])
        if both_weights.size and int(both_weights.sum()) <= MAX_COUNT:
            self.both(lambda c: c.remove_results(np.concatenate([scores, scores]),
                                                 [1] * pos.size + [0] * neg.size,
                                                 sample_weight=both_weights))

    @rule()
    def copy_pickle_and_documents(self) -> None:
        reference, kernel = self.reference.copy(), self.kernel.copy()
        assert type(kernel._counts) is KERNEL
        for original in (reference, kernel):
            twin = pickle.loads(pickle.dumps(original))
            assert twin == original
            assert state(twin._counts) == state(original._counts)
            # a document holds the counts in their least unit: the same weights, maybe coarser
            loaded = ThresholdContingency.from_dict(original.to_dict())
            assert loaded == original
            assert all(np.array_equal(a, b) for a, b in zip(loaded.counts(), original.counts()))
            assert ({k: v for k, v in reads(loaded).items() if k not in ("counts", "n")}
                    == {k: v for k, v in reads(original).items() if k not in ("counts", "n")})
            # The weights: an int where the document's unit is whole, the original's float (a
            # fractional weight was counted) rounded once from the same exact count.
            assert [float(x) for x in reads(loaded)["n"]] == [float(x) for x in reads(original)["n"]]
        self.reference, self.kernel = reference, kernel

    @rule()
    def reset(self) -> None:
        self.both(lambda c: c.reset())

    @invariant()
    def same_state_and_reads(self) -> None:
        assert_same(self.reference._counts, self.kernel._counts)
        assert reads(self.kernel) == reads(self.reference)
        for curve in (self.reference, self.kernel):
            assert_running_reads_are_the_formulas(curve)
        assert self.reference._counts.__getstate__() == self.kernel._counts.__getstate__()


TestScoresKernelAgainstReference = needs_kernel(ScoresKernelAgainstReference.TestCase)


# Streams of the counts themselves, as property tests -------------------------------------------

#: The unit of a step's weights, ``2**-scale``: finer than the counts' unit refines them first.
STEP_SCALES = st.sampled_from([0, 0, 0, 1, 3, 40, 62, 128])
#: Keys: scores, and some outside [0, 1] (no probability: the running sums stand down).
KEYS = st.one_of(SCORES, st.sampled_from([-0.5, 1.5, 1e300]))
_STEP = st.one_of(
    st.tuples(st.just("unit"), KEYS, st.booleans(), STEP_WEIGHTS, STEP_SCALES),
    st.tuples(st.just("batch"), st.lists(st.tuples(KEYS, st.integers(0, 3), st.integers(0, 3)),
                                         min_size=1, max_size=8),
              st.sampled_from([1, -1]), st.sampled_from([1, 2**40, 2**61]), STEP_SCALES),
    st.tuples(st.just("read")),  # the sums of terms read (made, if they were not) on both
)


def _batch(results: list[tuple[float, int, int]], scale: int) -> tuple[Any, Any, Any]:
    """A coded batch: keys ascending and distinct, weights summed per key."""
    found: dict[float, list[int]] = {}
    for key, p, n in results:
        pair = found.setdefault(key + 0.0, [0, 0])
        pair[0] += p * scale
        pair[1] += n * scale
    keys = sorted(found)
    return (np.array(keys, dtype=np.float64), np.array([found[k][0] for k in keys], dtype=np.int64),
            np.array([found[k][1] for k in keys], dtype=np.int64))


def _run(counts: Any, step: tuple[Any, ...]) -> None:
    unit = step[4] if len(step) > 4 else 0
    if step[0] == "read":
        assert running_sums(counts) == formula_terms(counts)
    elif step[0] == "unit":
        _, key, positive, weight = step[:4]
        counts.apply(key, positive, weight, None, 1, unit)
    else:
        _, results, sign, multiple = step[:4]
        counts.apply(batch=_batch(results, multiple), sign=sign, scale=unit)


@needs_kernel
@given(st.lists(_STEP, max_size=40))
@example([("unit", 0.5, True, MAX_COUNT), ("unit", 0.5, False, 1), ("unit", 0.25, False, -1)])
@example([("unit", 0.5, True, 2**62), ("unit", 0.5, False, 2**62 - 1), ("unit", 0.1, False, 1),
          ("unit", 0.5, True, -(2**62)), ("unit", 0.7, True, 2**62)])
@example([("unit", 0.5, True, 1), ("unit", 0.5, True, -(2**63))])
@example([("unit", 0.5, True, 1), ("unit", 0.5, True, 2**70), ("unit", 0.5, False, -(2**70))])
@example([("batch", [(0.5, 3, 3)], 1, 2**61), ("batch", [(0.5, 0, 1), (0.9, 1, 0)], 1, 2**61)])
@example([("unit", 0.5, True, 3, 0), ("unit", 0.25, False, 1, 2), ("unit", 0.5, True, -1, 0),
          ("unit", 0.25, False, -1, 2), ("unit", 0.5, True, -8, 2)])
@example([("unit", 0.5, True, 2**61, 0), ("unit", 0.2, False, 1, 3)])  # refined past int64
@example([("unit", 0.5, True, 1, 0), ("unit", 0.7, False, -1, 40)])  # refined, refused, undone
@example([("unit", 0.5, True, 1, 1), ("batch", [(0.5, 3, 0)], -1, 2**61, 0)])  # shifted past int64
# past int64 by a unit step, by a batch, by a refinement, and back by removals
@example([("unit", 0.5, True, 2**62, 1), ("unit", 0.3, False, 2**62, 1), ("unit", 0.3, False, 2**62, 1),
          ("unit", 0.1, True, 1, 0), ("unit", 0.3, False, -(2**62), 1), ("unit", 0.5, True, -1, 1)])
@example([("batch", [(0.5, 3, 3), (0.1, 1, 0)], 1, 2**61, 3), ("unit", 0.5, False, 1, 0),
          ("batch", [(0.5, 2, 3)], -1, 2**61, 3), ("batch", [(0.5, 1, 0)], -1, 2**61, 3)])
@example([("unit", 0.5, True, MAX_COUNT, 0), ("unit", 0.2, False, 1, 1)])  # refused: undone
@example([("unit", 0.5, True, MAX_COUNT, 0), ("unit", 0.2, False, -1, 1),  # refused removal
          ("unit", 0.2, False, 2**70, 128), ("unit", 0.5, True, -(2**70), 64),
          ("unit", 0.2, False, -(2**70), 128)])
@example([("unit", 0.5, True, 2**70, 128), ("batch", [(0.5, 1, 1)], 1, 2**61, 62),
          ("unit", 0.5, True, -(2**70), 128), ("batch", [(0.5, 1, 1)], -1, 2**61, 62)])
# the sums of terms made, kept through a change of a key's count, dropped by a refinement and by a
# key outside [0, 1], and made again
@example([("unit", 0.5, True, 1), ("read",), ("unit", 0.5, True, 2), ("unit", 0.1, False, 1),
          ("read",), ("unit", 0.5, True, 1, 2), ("read",), ("unit", 1.5, False, 1), ("read",),
          ("unit", 1.5, False, -1), ("unit", 0.5, True, -1, 1), ("read",)])
def test_every_state_of_a_stream_is_the_same_on_both(steps: list[tuple[Any, ...]]) -> None:
    reference, kernel = ScoreCounts(), KERNEL()
    for step in steps:
        results = [outcome(partial(_run, c, step)) for c in (reference, kernel)]
        assert results[0] == results[1]
        assert_same(reference, kernel)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_the_largest_2u_is_exact_past_int64(implementation: Any) -> None:
    """P = N = 2**62 - 1 (P + N just under the limit), every positive above every negative:
    2U = 2 P N, about 2**125, held exactly (128 bits in the kernel), and the AUC is 1."""
    counts = implementation()
    half = 2**62 - 1
    counts.apply(0.2, False, half)
    counts.apply(0.8, True, half)
    assert counts.twice_u == 2 * half * half > 2**124
    counts.apply(0.2, True, 1)  # a positive tied with every negative: half-units
    assert (counts.twice_u, counts.shared) == (2 * half * half + half, half)
    assert counts.positives + counts.negatives == MAX_COUNT
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1 are supported"):
        counts.apply(0.9, True, 1)
    counts.apply(0.2, False, -1)
    counts.apply(0.9, True, 1)  # back to the limit, the new positive above every negative
    assert counts.twice_u == 2 * half * (half - 1) + (half - 1) + 2 * (half - 1)
    assert recomputed(counts) == (counts.positives, counts.negatives, counts.twice_u, counts.shared)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("size", [1, 3, 50, 2000])
def test_a_batch_into_a_large_state_is_the_loop_of_its_unit_steps(implementation: Any,
                                                                  size: int) -> None:
    """Small batches into a large state take unit steps, large ones a merge: the same state
    as adding each result by itself, as the reference's, and taken back, the state before."""
    rng = np.random.default_rng(size)
    base = np.unique(rng.random(5000))
    base_pos = np.ones(base.size, dtype=np.int64)
    base_neg = rng.integers(0, 3, base.size).astype(np.int64)
    counts, looped, reference = implementation(), implementation(), ScoreCounts()
    for batched in (counts, reference):
        batched.apply(batch=(base, base_pos, base_neg), sign=1)
    for key, n in zip(base.tolist(), base_neg.tolist()):
        looped.apply(key, True, 1)
        if n:
            looped.apply(key, False, n)
    before = state(counts)
    assert state(looped) == before == state(reference)
    keys = np.unique(np.concatenate([rng.choice(base, size // 2 + 1), rng.random(size)]))
    pos, neg = rng.integers(0, 4, keys.size).astype(np.int64), np.ones(keys.size, dtype=np.int64)
    for batched in (counts, reference):
        batched.apply(batch=(keys, pos, neg), sign=1)
    for key, p in zip(keys.tolist(), pos.tolist()):
        if p:
            looped.apply(key, True, p)
        looped.apply(key, False, 1)
    assert state(counts) == state(looped) == state(reference)
    assert recomputed(counts) == (counts.positives, counts.negatives, counts.twice_u, counts.shared)
    for batched in (counts, reference):
        batched.apply(batch=(keys, pos, neg), sign=-1)
    assert state(counts) == before == state(reference)


@needs_kernel
@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=600),
       st.integers(0, 599))
def test_a_stream_of_distinct_scores_and_its_removals(results: list[tuple[float, bool]],
                                                      cut: int) -> None:
    """Past the kernel's block size (128 keys): splits, then removals that empty blocks."""
    reference, kernel = ScoreCounts(), KERNEL()
    for score, positive in results:
        for counts in (reference, kernel):
            counts.apply(score + 0.0, positive, 1)
    assert_same(reference, kernel)
    for score, positive in results[: cut % len(results) + 1]:
        for counts in (reference, kernel):
            counts.apply(score + 0.0, positive, -1)
    assert_same(reference, kernel)


@needs_kernel
@pytest.mark.parametrize("bins", [None, 8])
def test_a_stream_past_int64_and_back_is_the_same_on_both(bins: Any) -> None:
    """2,000 results of weight 1/3 one by one: the total of units passes int64 near the 1,536th
    (the counts become Python ints, object columns), every state equal to the reference's; a
    batch of the same weights on top; then every removal, back under int64 (int64 columns)."""
    rng = np.random.default_rng(5)
    scores, correct = np.round(rng.random(2000), 3).tolist(), (rng.random(2000) < 0.3).tolist()
    reference, kernel = ThresholdContingency(bins=bins), ThresholdContingency(bins=bins)
    reference._counts, kernel._counts = ScoreCounts(), KERNEL()
    dtypes = []
    for score, positive in zip(scores, correct):
        for curve in (reference, kernel):
            curve.add(score, positive, weight=1 / 3)
        assert_same(reference._counts, kernel._counts)
        dtypes.append(kernel._counts.columns()[1].dtype)
    assert dtypes[0] == np.int64
    assert dtypes[-1].kind == "O"
    assert reads(kernel) == reads(reference)
    for curve in (reference, kernel):
        curve.add_results(scores, correct, sample_weight=[1 / 3] * len(scores))
        curve.remove_results(scores, correct, sample_weight=[1 / 3] * len(scores))
    assert_same(reference._counts, kernel._counts)
    for score, positive in zip(scores[::-1], correct[::-1]):
        for curve in (reference, kernel):
            curve.remove(score, positive, weight=1 / 3)
        assert_same(reference._counts, kernel._counts)
        dtypes.append(kernel._counts.columns()[1].dtype)
    assert dtypes[-2] == np.int64
    assert len(kernel._counts) == 0


def test_the_process_uses_the_kernel_when_it_is_built() -> None:
    from contingency import _backend

    chosen = ThresholdContingency()._counts
    if _backend.IMPLEMENTATION == "kernel":
        assert type(chosen) is KERNEL
    else:
        assert type(chosen) is ScoreCounts


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_finer_unit_multiplies_every_count_and_keeps_every_ratio(implementation: Any) -> None:
    """0.25 refines the unit to 2**-2: P, N, every count times 4, 2U and the tied pairs times 16;
    a refused change after a refinement leaves the unit as it was; coarser weights are shifted."""
    counts = implementation()
    counts.apply(0.8, True, 1)
    counts.apply(0.4, False, 3)
    counts.apply(0.4, True, 2)
    before = (counts.positives, counts.negatives, counts.twice_u, counts.shared)
    counts.apply(0.1, False, 1, None, 1, 2)  # a negative of weight 0.25
    assert counts.scale == 2
    assert (counts.positives, counts.negatives) == (4 * before[0], 4 * before[1] + 1)
    assert counts.twice_u == 16 * before[2] + 2 * 4 * 3  # both positives above the new negative
    assert counts.shared == 16 * before[3]
    assert recomputed(counts) == (counts.positives, counts.negatives, counts.twice_u, counts.shared)
    with pytest.raises(ValueError, match=r"there are 0 negative results of score 0\.7, not 0\.125"):
        counts.apply(0.7, False, -1, None, 1, 3)
    assert counts.scale == 2  # the refinement to 2**-3 was undone
    counts.apply(0.1, False, 1)  # a whole weight: 4 units
    with pytest.raises(ValueError, match=r"there are 1\.25 negative results of score 0\.1, not 2 to"):
        counts.apply(0.1, False, -2)
    assert counts.columns()[2].tolist() == [5, 12, 0]
    other = implementation()  # the same weights in whole units and quarters: equal
    other.apply(0.8, True, 1)
    other.apply(0.4, False, 3)
    other.apply(0.4, True, 2)
    other.apply(0.1, False, 1)
    assert other != counts
    other.apply(0.1, False, 1, None, 1, 2)
    assert other == counts
    assert other.scale == 2


# The running Brier score and log loss on each implementation -------------------------------------

#: One step of a stream of a ThresholdContingency: an add or a remove (a fractional weight
#: among them), a batch, a merge, a copy, a pickle, a document, or taking back what is there.
_CURVE_STEP = st.one_of(
    st.tuples(st.sampled_from(["add", "add", "add", "remove"]), SCORES, st.booleans(),
              st.sampled_from([1, 1, 2, 3, 0.5, 0.25, 1.375, 1 / 3, 2**40])),
    st.tuples(st.just("batch"), st.lists(st.tuples(SCORES, st.booleans()), max_size=8),
              st.sampled_from([1, 0.125])),
    st.tuples(st.just("merge"), st.lists(st.tuples(SCORES, st.booleans()), max_size=6)),
    st.tuples(st.sampled_from(["copy", "pickle", "document", "take_back", "merge_itself"])),
)


def _curve_step(curve: ThresholdContingency, step: tuple[Any, ...]) -> ThresholdContingency:
    """``curve`` after ``step`` (a new object for a copy, a pickle or a document)."""
    kind = step[0]
    if kind in ("add", "remove"):
        outcome(lambda: getattr(curve, kind)(step[1], step[2], weight=step[3]))
    elif kind == "batch":
        curve.add_results([s for s, _ in step[1]], [c for _, c in step[1]],
                          sample_weight=[step[2]] * len(step[1]))
    elif kind == "merge":
        other = ThresholdContingency()
        other._counts = type(curve._counts)()
        other.add_results([s for s, _ in step[1]], [c for _, c in step[1]])
        curve.merge(other)
    elif kind == "merge_itself":
        curve.merge(curve.copy())
    elif kind == "take_back":
        keys, pos, neg = (c.tolist() for c in curve.counts())
        for key, p, n in list(zip(keys, pos, neg))[:3]:
            for positive, weight in ((True, p), (False, n)):
                if weight:
                    curve.remove(key, positive, weight=weight)
    else:
        twin = (curve.copy() if kind == "copy" else pickle.loads(pickle.dumps(curve))
                if kind == "pickle" else ThresholdContingency.from_dict(curve.to_dict()))
        if kind != "copy":  # a loaded state is the process's class: held here by the one tested
            counts = type(curve._counts)()
            counts.__setstate__(twin._counts.__getstate__())
            twin._counts = counts
        assert twin == curve
        return twin
    return curve


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=60, deadline=None)
@given(steps=st.lists(_CURVE_STEP, max_size=30), read_every=st.integers(1, 3))
@example(steps=[("add", 0.5, True, 1), ("add", 0.5, True, 1), ("add", 0.5, True, -1)],
         read_every=1)  # a key's old term taken back: one positive at 0.5, not 1 + 2
@example(steps=[("add", 0.25, False, 3), ("add", 0.75, True, 0.5), ("remove", 0.25, False, 1)],
         read_every=1)  # the refinement to 2**-1 drops the sums; the next read makes them again
def test_the_running_probability_reads_are_the_formulas_after_every_step(
        implementation: Any, steps: list[tuple[Any, ...]], read_every: int) -> None:
    """Random streams (adds, removes, fractional weights, batches, merges, copies, pickles,
    documents): after every step read (the sums made by the first read, then kept by the write;
    read after every ``read_every``-th step, so that some writes find no sums), brier_score(),
    log_loss() and calibration_error() (three numbers of bins, three norms) equal the formulas
    on the columns, bit for bit."""
    curve = ThresholdContingency()
    curve._counts = implementation()
    for number, step in enumerate(steps):
        curve = _curve_step(curve, step)
        if number % read_every == 0:
            assert_running_reads_are_the_formulas(curve)
    assert_running_reads_are_the_formulas(curve)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_the_running_sums_round_once_to_even(implementation: Any) -> None:
    """The Brier score's terms of negatives (weight s² each): 1 at score 1, 2**-53 (two at 2**-27),
    2**-1000 (at 2**-500): the exact sum 1 + 2**-53 is a tie (to even: 1), and a bit a thousand
    binades below it rounds up; taken back, the tie again. As math.fsum, on both."""
    counts = implementation()
    counts.apply(1.0, False, 1)
    assert counts.term_sum("brier_score") == 1.0
    counts.apply(2.0**-27, False, 2)
    assert counts.term_sum("brier_score") == 1.0 == math.fsum([1.0, 2.0**-53])
    counts.apply(2.0**-500, False, 1)
    assert counts.term_sum("brier_score") == 1.0 + 2.0**-52
    counts.apply(2.0**-500, False, -1)
    assert counts.term_sum("brier_score") == 1.0
    counts.apply(0.0, True, 1)  # (1 - 0)² = 1: 2 + 2**-53, exact below the tie of its binade
    assert counts.term_sum("brier_score") == 2.0
    counts.apply(1.0, False, -1)
    counts.apply(0.0, True, -1)
    assert counts.term_sum("brier_score") == 2.0**-53
    counts.apply(2.0**-537, False, 1)  # 2**-1074, the least subnormal: below half an ulp
    assert counts.term_sum("brier_score") == 2.0**-53 == math.fsum([2.0**-53, 5e-324])
    counts.apply(2.0**-27, False, -2)
    assert counts.term_sum("brier_score") == 5e-324


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_the_bins_of_the_last_few_numbers_of_bins_are_kept(implementation: Any) -> None:
    """calibration_error read after every add for three numbers of bins in turn (their bins
    kept through the adds), then six (more than MAX_KEPT: the oldest made goes): each read the
    formula's, bit for bit; and after a tiny score, whose products the formula rounds, the read
    sums the columns, as the formula does."""
    from contingency._calibration_bins import MAX_KEPT

    rng = np.random.default_rng(3)
    curve = ThresholdContingency()
    curve._counts = implementation()
    for step, (score, positive) in enumerate(zip(rng.random(60).tolist(),
                                                 (rng.random(60) < 0.5).tolist())):
        curve.add(score, positive, weight=1 + step % 3)
        n_bins = 1 + step % (3 if step < 40 else 6)
        assert curve.calibration_error(n_bins) == curves.calibration_error(
            *curve._columns(), n_bins=n_bins)
        if implementation is ScoreCounts:
            assert len(curve._counts._bins) == min(3 if step < 40 else MAX_KEPT, step + 1)
    curve.add(1e-300, True)
    assert curve._counts.calibration_bins(6) is None
    assert curve.calibration_error(6) == curves.calibration_error(*curve._columns(), n_bins=6)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_document_of_whole_counts_past_2_53_after_a_fractional_weight_reads_alike(implementation):
    """Pinned from the exploring profile (the stateful test's steps): two halves, then 2**62 at
    one score. The document's unit is whole again, so its weights read as ints; the original's
    read as floats (a fractional weight was counted): the same exact counts, rounded once."""
    curve = ThresholdContingency()
    curve._counts = implementation()
    curve.add(0.0, False, weight=0.5)
    curve.merge(curve.copy())
    curve.add(0.0, False, weight=4_611_686_018_427_387_904)
    loaded = ThresholdContingency.from_dict(curve.to_dict())
    assert loaded == curve
    assert loaded.n_results == 2**62 + 1
    assert type(loaded.n_results) is int
    assert curve.n_results == float(2**62 + 1)
    assert type(curve.n_results) is float
