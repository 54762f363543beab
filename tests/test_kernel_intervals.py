"""Contingency.interval's compiled read against its reference: the same interval or refusal.

contingency/_kernel_intervals.pxi reads Wilson's interval of a micro share
(``micro_precision``, ``micro_recall``, ``micro_f1`` of single-label results)
in C and hands every other read to the method written in Python
(``interval_reference``, contingency/_intervals.py: the specification). Here:

- the C form of Wilson's bounds against
  :func:`contingency.formulas.intervals.wilson`, double for double, on a grid
  of counts and levels and on counts up to ``2**53`` (past it the fast path
  takes the reference);
- the compiled method against the reference on the same accumulator, and on
  an accumulator on the reference core fed the same stream: streams of
  single-label results of any weight up to the count limit, with what makes
  the reference refuse or read otherwise (results that are not single-label,
  ``set_entries``, fractional weights, no result), every ``zero_division``
  mode, and every argument the method takes, good and bad (each refusal the
  same type and message);
- that the common read is served in C (no Python frame) and the others by the
  reference; that a change of the registry of scores reaches the compiled read;
  that the compiled method is presented as the reference (signature, locked
  subclass).

These run in both modes (under ``CONTINGENCY_PURE_PYTHON=1`` the kernel's
method is taken from the kernel module and given accumulators on the
kernel's core), but those of the method as ``Contingency`` presents it, run
where the process uses the kernel. The stateful test of
tests/test_kernel_counts.py reads these intervals after every step on both
cores too.
"""

from __future__ import annotations

import inspect
import math
import pickle
from collections.abc import Callable
from functools import partial
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from contingency import Contingency, _backend, _registry
from contingency._contingency import interval_reference
from contingency._counts_reference import CountsCore
from contingency.formulas import intervals as formulas
from contingency.formulas._numeric import MAX_COUNT
from tests.served import python_calls
from tests.test_kernel_counts import KERNEL, LARGE, MODES, needs_kernel, on_core, run, same_float

#: The tests of the method as Contingency presents it: this process reads intervals with the
#: kernel's (not with CONTINGENCY_PURE_PYTHON=1, where Contingency.interval is the reference).
compiled_method = pytest.mark.skipif(Contingency.interval is interval_reference,
                                     reason="this process reads intervals with the reference")
pytestmark = needs_kernel


def _compiled_interval() -> Any:
    """The kernel's interval, also where this process reads intervals with the reference
    (given what contingency._backend gives it, but no call from the registry: the test of that
    runs where the process uses the kernel)."""
    if Contingency.interval is not interval_reference or KERNEL is None:
        return Contingency.interval
    from contingency import _kernel
    return _kernel.compiled_interval(interval_reference, formulas.Interval, formulas.LEVELS_SEEN,
                                     _registry.interval_names, formulas.MAX_DRAWS)


#: The kernel's interval: Contingency.interval where this process uses the kernel.
COMPILED = _compiled_interval()


def on_kernel(categories: Any = None, **options: Any) -> Contingency:
    """An accumulator whose counts stand on the kernel's core (this process's or not)."""
    return on_core(KERNEL, categories, **options)

#: The reads the kernel serves in C (at Wilson's method, a float level met before).
SERVED = ("micro_precision", "micro_recall", "micro_f1")
LEVELS = [0.95, 0.5, 0.8, 0.9, 0.99, 0.999, 1e-300, 0.9999999999999999, 2.0**-1074]


def shown(read: Callable[[], Any]) -> Any:
    """An interval read as compared: each bound by its exact digits, a refusal as (type, message)."""
    try:
        interval = read()
    except (ValueError, TypeError) as error:
        return (type(error).__name__, str(error))
    assert type(interval) is formulas.Interval
    return [bound.hex() for bound in interval]


# The C form of Wilson's bounds -----------------------------------------------------------------


def _python_and_c(successes: int, trials: int, z: float) -> tuple[tuple[float, float], ...]:
    from contingency._kernel import wilson_bounds
    return formulas.wilson(successes, trials, z), wilson_bounds(successes, trials, z)


def test_the_c_wilson_bounds_are_pythons_on_a_grid() -> None:
    """Every count up to 40 trials, and shares of large counts, at every level here."""
    pairs = [(s, n) for n in range(1, 41) for s in range(n + 1)]
    for n in (97, 1000, 12345, 10**6, 2**31 + 11, 10**15 + 37, 2**53 - 1):
        pairs += [(s, n) for s in sorted({0, 1, 2, n // 7, n // 3, n // 2, (n + 1) // 2, n - 2,
                                          n - 1, n})]
    compared = 0
    for level in LEVELS:
        z = formulas.normal_quantile(level)
        for successes, trials in pairs:
            python, compiled = _python_and_c(successes, trials, z)
            assert all(map(same_float, python, compiled)), (successes, trials, level)
            compared += 1
    assert compared > 7000


SHARES = st.integers(1, 2**53 - 1).flatmap(
    lambda trials: st.tuples(st.one_of(st.integers(0, trials),
                                       st.sampled_from([0, 1, trials // 2, (trials + 1) // 2,
                                                        trials - 1, trials])),
                             st.just(trials)))


@settings(max_examples=1000)
@example(share=(1, 2), level=0.95)
@example(share=(2**52, 2**53 - 1), level=0.9999999999999999)
@example(share=(3, 7), level=1e-300)  # z = -0.0
@given(share=st.one_of(SHARES, st.integers(1, 60).flatmap(
    lambda trials: st.tuples(st.integers(0, trials), st.just(trials)))),
    level=st.one_of(st.sampled_from(LEVELS),
                    st.floats(0.0, 1.0, exclude_min=True, exclude_max=True)))
def test_the_c_wilson_bounds_are_pythons(share: tuple[int, int], level: float) -> None:
    successes, trials = share
    python, compiled = _python_and_c(successes, trials, formulas.normal_quantile(level))
    assert all(map(same_float, python, compiled))


def test_the_c_wilson_bounds_take_the_counts_the_fast_path_gives() -> None:
    from contingency._kernel import wilson_bounds
    for successes, trials in [(0, 0), (3, 2), (-1, 4), (2**53, 2**53)]:
        with pytest.raises(ValueError, match="wilson_bounds"):
            wilson_bounds(successes, trials, 1.96)


# The compiled method against the reference -----------------------------------------------------

LABELS = st.sampled_from(["x", "y", "z", 1])
#: Results of one stream: single-label ones of any weight (up to the count limit: some are
#: refused), and the steps after which the reference refuses or reads otherwise.
STEPS = st.one_of(
    st.tuples(st.just("add"), LABELS, LABELS, st.sampled_from([1, 1, 1, 2, 5, *LARGE])),
    st.tuples(st.just("remove"), LABELS, LABELS, st.sampled_from([1, 2**53 + 1, MAX_COUNT])),
    st.tuples(st.just("add"), st.frozensets(LABELS, max_size=2), LABELS, st.just(1)),
    st.tuples(st.just("add"), LABELS, LABELS, st.sampled_from([0.5, 0.25])),
    st.tuples(st.just("set_entries"), st.integers(0, 3), st.integers(0, 3), st.just(0)),
)
LEVEL_ARGUMENTS = st.sampled_from([*LEVELS, 0.95, 0.95, 0.0, 1.0, -0.5, 1, 1.5, float("nan"),
                                   np.float64(0.95), np.float32(0.5), "0.95", True, 0.95 + 0j,
                                   None])
METHODS = st.sampled_from(["wilson", "wilson", "agresti_coull", "clopper_pearson", "jeffreys",
                           "delta", "posterior", "Wilson", "", None, 3, ["wilson"]])
SEEDS = st.sampled_from([0, None, 7, 2**70, -1, True, np.int64(3), 1.5, "0"])
#: (formulas.MAX_DRAWS itself at Wilson's method only, in the examples: a posterior of 10**7 draws
#: takes a second)
DRAWS = st.sampled_from([10_000, 50, 1, formulas.MAX_DRAWS + 1, 0, -3, 2**70,
                         -(2**70), True, np.int64(50), 2.0, "50"])
SCORES = st.sampled_from([*SERVED, *SERVED, "micro_accuracy", "micro_error", "hamming_loss",
                          "subset_accuracy", "macro_f1", "macro_precision", "micro_jaccard",
                          "precision", "nope", ("precision", "x"), ("f1", "y"), ("recall", "w"),
                          3, None, ["micro_f1"]])
READS = st.tuples(SCORES, st.fixed_dictionaries({}, optional={
    "level": LEVEL_ARGUMENTS, "method": METHODS, "seed": SEEDS, "draws": DRAWS}))


def _feed(accumulator: Contingency, steps: list[tuple[Any, Any, Any, Any]]) -> list[Any]:
    outcomes = []
    for step, first, second, third in steps:
        if step == "set_entries":
            outcomes.append(run(accumulator, "set_entries", first, second, third, 0))
        else:
            outcomes.append(run(accumulator, f"{step}_result", first, second, weight=third))
    return outcomes


def _compare(steps: list[Any], mode: Any, reads: list[tuple[Any, dict[str, Any]]]) -> None:
    """The same stream into an accumulator on the kernel's core and one on the reference's;
    each read by the compiled method and the reference on the first, the reference on the
    second: all the same."""
    kernel = on_kernel(["x", "y"], unknown="add", zero_division=mode)
    reference = on_core(CountsCore, ["x", "y"], unknown="add", zero_division=mode)
    assert _feed(kernel, steps) == _feed(reference, steps)
    for score, arguments in reads:
        compiled = shown(partial(COMPILED, kernel, score, **arguments))
        assert compiled == shown(partial(interval_reference, kernel, score, **arguments))
        assert compiled == shown(partial(interval_reference, reference, score, **arguments))


@settings(max_examples=300, deadline=None)
@example(steps=[("add", "x", "x", 1), ("add", "x", "y", 2)], mode="perl",
         reads=[("micro_precision", {}), ("micro_f1", {"level": 0.9}), ("micro_f1", {"level": 0.9})])
@example(steps=[("add", "x", "x", MAX_COUNT)], mode="perl",  # n past 2**53: the reference's
         reads=[("micro_precision", {}), ("micro_recall", {"level": 0.5})])
@example(steps=[("add", "x", "x", 2**53 - 1), ("add", "y", "x", 1)], mode=0.0,  # n = 2**53
         reads=[("micro_precision", {}), ("micro_precision", {"draws": formulas.MAX_DRAWS})])
@example(steps=[("add", "x", "x", 2**53 - 2), ("add", "y", "x", 1)], mode=1.0,  # just below it
         reads=[("micro_precision", {}), ("micro_f1", {"seed": None})])
@example(steps=[("add", "x", "y", 1), ("set_entries", 1, 0, 0)], mode="nan",
         reads=[("micro_precision", {})])
@example(steps=[("add", "x", "x", 1), ("remove", "x", "x", 1)], mode="perl",  # no result
         reads=[("micro_recall", {})])
@example(steps=[("add", "x", "x", 1), ("add", frozenset({"x", "y"}), "x", 1)], mode="perl",
         reads=[("micro_recall", {})])
@example(steps=[("add", "x", "x", 0.5)], mode="perl", reads=[("micro_f1", {})])  # scale > 0
@example(steps=[("add", "x", "y", 3)], mode="perl",  # every check refuses, in its order
         reads=[("micro_f1", {"level": 1.0, "method": "nope", "seed": -1, "draws": 0}),
                ("micro_f1", {"method": "nope", "seed": -1, "draws": 0}),
                ("micro_f1", {"seed": -1, "draws": 0}), ("micro_f1", {"seed": -1}),
                ("micro_f1", {"draws": 2**70}), ("micro_f1", {"draws": -(2**70)}),
                ("micro_f1", {"level": float("nan")}), ("micro_f1", {"level": True})])
@given(steps=st.lists(STEPS, max_size=8), mode=st.sampled_from(MODES),
       reads=st.lists(READS, min_size=1, max_size=6))
def test_the_compiled_interval_is_the_references(steps: list[Any], mode: Any,
                                                 reads: list[tuple[Any, dict[str, Any]]]) -> None:
    _compare(steps, mode, reads)


@settings(max_examples=200, deadline=None)
@given(results=st.lists(st.tuples(LABELS, LABELS, st.sampled_from([1, 3, *LARGE])), min_size=1,
                        max_size=6),
       mode=st.sampled_from(MODES), level=st.sampled_from(LEVELS),
       score=st.sampled_from(SERVED))
def test_the_served_reads_of_any_counts_are_the_references(results: list[Any], mode: Any,
                                                          level: float, score: str) -> None:
    """Single-label results only, of weights up to the count limit: the reads the C serves,
    at every level here (met twice: the second read finds its z kept)."""
    steps = [("add", assigned, correct, weight) for assigned, correct, weight in results]
    _compare(steps, mode, [(score, {"level": level}), (score, {"level": level}), (score, {})])


# Which reads the C serves ----------------------------------------------------------------------


@pytest.mark.skipif(_backend.IMPLEMENTATION != "kernel", reason="the kernel is not loaded")
def test_an_accumulator_read_from_its_document_or_a_pickle_is_served_in_c_too() -> None:
    """The counts a document or a pickle brings back hold no set_entries offset as the counts
    fed the same results do (the shared empty one): their Wilson read is served in C alike."""
    s = Contingency(["x", "y"]).add_results(["x", "y", "x"], ["x", "x", "y"])
    s.interval("micro_f1", level=0.9)  # (a level is met by the reference first)
    for again in (Contingency.from_dict(s.to_dict()), pickle.loads(pickle.dumps(s)), s.copy()):
        assert again._counts.offset == s._counts.offset == (0, 0, 0, 0)
        assert again.interval("micro_f1", level=0.9) == s.interval("micro_f1", level=0.9)
        assert python_calls(partial(again.interval, "micro_f1", level=0.9)) == []


def test_the_common_reads_are_served_in_c_and_the_rest_by_the_reference() -> None:
    s = on_kernel(["x", "y"]).add_results(["x", "y", "x"], ["x", "x", "y"])
    read = partial(COMPILED, s)
    read("micro_f1", level=0.9)  # (a level is met by the reference first)
    for score in SERVED:
        assert python_calls(partial(read, score)) == [], score
        assert python_calls(partial(read, score, level=0.9, method="wilson", seed=None,
                                     draws=formulas.MAX_DRAWS)) == []
    formulas.LEVELS_SEEN.pop(0.625, None)
    for score, arguments in [("micro_f1", {"level": 0.625}), ("micro_f1", {"method": "delta"}),
                             ("micro_accuracy", {}), (("precision", "x"), {}),
                             ("micro_f1", {"seed": np.int64(1)}),
                             ("micro_f1", {"draws": np.int64(20)})]:
        assert "contingency_interval" in python_calls(partial(read, score, **arguments)), \
            (score, arguments)
    assert python_calls(partial(read, "micro_f1", level=0.625)) == []  # (now met)
    s.set_entries(1, 1, 1, 1)
    assert "contingency_interval" in python_calls(partial(read, "micro_f1"))


@compiled_method
def test_a_change_of_the_registry_reaches_the_compiled_read() -> None:
    """A row replaced (a micro share no longer one; another scalar form of recall): the
    compiled read follows the registry as the reference does, and again once it is restored."""
    s = Contingency(["x", "y"]).add_results(["x", "y", "x"], ["x", "x", "y"])
    before = {score: shown(partial(s.interval, score)) for score in SERVED}
    precision, recall = _registry.TABLE["precision"], _registry.TABLE["recall"]

    def recall_scalar(a: Any, b: Any, c: Any, d: Any, mode: Any) -> float:
        return 0.5 * recall.scalar(a, b, c, d, mode)

    try:
        _registry.register(attrs.evolve(precision, single_label_share=False))
        _registry.register(attrs.evolve(recall, scalar=recall_scalar))
        for score in SERVED:
            compiled = shown(partial(s.interval, score))
            assert compiled == shown(partial(interval_reference, s, score))
        assert shown(partial(s.interval, "micro_precision"))[0] == "IntervalRefused"
        assert float.fromhex(shown(partial(s.interval, "micro_recall"))[1]) == 0.5 * s.micro_recall
    finally:
        _registry.register(precision)
        _registry.register(recall)
    assert {score: shown(partial(s.interval, score)) for score in SERVED} == before


@compiled_method
def test_the_compiled_method_is_presented_as_the_reference() -> None:
    assert Contingency.interval is not interval_reference  # (the kernel is built)
    assert inspect.signature(Contingency.interval) == inspect.signature(interval_reference)
    assert Contingency.interval.__doc__ == interval_reference.__doc__
    assert Contingency.interval.__qualname__ == "Contingency.interval"
    locked = Contingency(["x", "y"], thread_safe=True).add_results(["x", "y"], ["x", "x"])
    plain = Contingency(["x", "y"]).add_results(["x", "y"], ["x", "x"])
    assert locked.interval("micro_f1") == plain.interval("micro_f1")
    with pytest.raises(TypeError):
        plain.interval()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        plain.interval("micro_f1", 0.95)  # type: ignore[misc]


@compiled_method
def test_an_interval_read_is_a_new_interval_each_time() -> None:
    s = Contingency(["x", "y"]).add_results(["x", "y", "x"], ["x", "x", "y"])
    first, second = s.interval("micro_f1"), s.interval("micro_f1")
    assert first == second
    assert first is not second
    assert hash(first) == hash(tuple(first))
    assert first.low <= first.estimate <= first.high
    assert math.isfinite(first.high)
    assert first._asdict()["estimate"] == s.micro_f1
