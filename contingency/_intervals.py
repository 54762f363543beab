"""The accumulators' confidence intervals: which counts each score's interval reads, in one place.

:func:`contingency_interval` serves :meth:`contingency.Contingency.interval`:
it names, for each score, the counts its interval is a function of and the
assumptions they must meet, and calls :mod:`contingency.formulas.intervals`.
The estimate is the score as its own read computes it, bit for bit.

- Proportions of results (:data:`contingency.formulas.intervals.SHARES`): a
  category's precision, recall, specificity, accuracy, error and Jaccard
  index (each result one trial, any results), subset accuracy (any
  results); micro precision, recall and F1 of single-label results (the
  share of results right), and micro and macro accuracy and error and the
  Hamming loss of single-label results (``1 - 2 w / K`` and ``2 w / K`` of
  the share ``w`` of results wrong; with one category, a point: no result can
  be wrong). Every method.
- A category's F1 (any results): ``"delta"``, ``"posterior"``, or any
  method of proportions through its Jaccard index ``J = a / (a + b + c)``
  (the share of hits among the results naming it), mapped by
  ``F1 = 2J / (1 + J)``.
- Macro precision, recall and F1 of single-label results: ``"delta"``, from
  running sums (:meth:`contingency._counts.Counts.variance_sums`,
  :meth:`~contingency._counts.Counts.f1_coupling`), O(categories changed; for
  macro F1, times the categories each is confused with).

Refused, with a message naming the reason (:class:`IntervalRefused`, a
``ValueError``): a score without a method here, a method that does not apply
to the score, results that break the method's assumption (several
categories per result where the method pools decisions or needs one
confusion matrix), fractional weights (a weight is a number of repeats, so
the counts must be whole), a micro table set by ``set_entries`` (no results
behind it), no results, and an undefined score (no trial).

:func:`partition_interval` serves :meth:`contingency.PartitionComparison.interval`:
the Rand index (and distance), pair precision, recall, F1 and Jaccard index by
the delta method of U-statistics (:func:`contingency.formulas.intervals.pair_variance`),
O(non-empty cells) a read; every other score refused with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from contingency._changes import HIT, MISS
from contingency._confusion import category_cells, count_columns
from contingency._labels import label_to_json, not_a_category
from contingency._registry import (
    TABLE,
    category_interval_names,
    interval_names,
    macro_interval_names,
    report_names,
)
from contingency._table import PAIR_LOW, PAIR_SHIFT
from contingency.formulas import intervals as _formulas
from contingency.formulas._arguments import check_choice
from contingency.formulas._numeric import EXACT_FLOAT_BOUND, average, shown
from contingency.formulas.intervals import Interval
from contingency.report import Bounds, Records

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from contingency._counts import Counts
    from contingency.formulas._numeric import ZeroDivision

__all__ = ["IntervalRefused", "Score", "check_level_and_method", "contingency_interval",
           "interval_request", "paired_block", "partition_block", "partition_interval",
           "scores_block"]

#: A score: the name of an accumulator's score property, or ``(score, category)`` for one category.
Score = str | tuple[str, Hashable]


class ContingencyReads(Protocol):
    """What the intervals read of a :class:`contingency.Contingency` (besides score properties by name)."""

    _counts: Counts
    _zero_division: ZeroDivision

    @property
    def categories(self) -> tuple[Hashable, ...]: ...
    @property
    def subset_accuracy(self) -> float: ...

    def _orders(self) -> tuple[list[Hashable], tuple[Hashable, ...], NDArray[np.intp]]: ...


class PartitionReads(Protocol):
    """What the intervals read of a :class:`contingency.PartitionComparison` (besides scores by name)."""

    @property
    def n_elements(self) -> int: ...
    @property
    def rand_index(self) -> float: ...
    @property
    def distance(self) -> float: ...

    def _information_cells(self) -> tuple[NDArray[Any], ...]: ...


class IntervalRefused(ValueError):
    """An interval that cannot be given: the message names the score and the reason.

    Raised by every ``interval`` read (and by ``scores(intervals=...)`` where it
    must refuse), importable as ``contingency.IntervalRefused``; a ``ValueError``,
    so code that catches ``ValueError`` catches it too.
    """


IntervalRefused.__module__ = "contingency"  # its public home, as tracebacks show it


def _refuse(score: object, reason: str, where: str = "interval") -> IntervalRefused:
    return IntervalRefused(f"{where}({score!r}): {reason}")


def _check_method(method: object, where: str = "interval") -> str:
    return check_choice(method, "method", _formulas.METHODS, where)  # type: ignore[return-value]


def check_level_and_method(level: object, method: object, where: str) -> tuple[float, str]:
    """An interval read's ``level`` and ``method`` checked as :meth:`contingency.Contingency.interval`
    checks them, a bad one refused naming the read ``where`` (a read of several intervals, such as
    :meth:`contingency.GroupedContingency.interval_by_group`, checks them so before any is read).

    >>> check_level_and_method(0.9, "wilson", "interval_by_group")
    (0.9, 'wilson')
    >>> check_level_and_method(0.9, "bayes", "groups_apart")
    Traceback (most recent call last):
    ...
    ValueError: groups_apart: method must be one of 'wilson', 'agresti_coull', 'clopper_pearson', \
'jeffreys', 'delta', 'posterior', not 'bayes'
    """
    return _formulas.check_level(level, "level", where), _check_method(method, where)


def _score_name(score: object) -> object:
    """``score`` as a Python ``str`` if it is a string (``np.str_`` included), else itself."""
    return str(score) if isinstance(score, str) else score


def _check_arguments(level: Any, method: Any, seed: Any, draws: Any
                     ) -> tuple[float, str, int | None, int]:
    """Every argument of an interval read checked, before any cache or count is read: a read
    answers or refuses an argument alike whatever came before it. Each test is a fast check of
    the common type, then the full one (which names the argument) for anything else."""
    # A float level met before was checked then (LEVELS_SEEN); only a float is: 0.375 + 0j
    # equals 0.375 and hashes alike.
    if type(level) is not float or level not in _formulas.LEVELS_SEEN:
        level = _formulas.check_level(level, "level", "interval")
    if type(method) is not str or method not in _formulas.METHODS:
        method = _check_method(method)
    if type(draws) is not int or not 0 < draws <= _formulas.MAX_DRAWS:
        draws = _checked("draws", _formulas.check_draws, draws)
    if seed is not None and (type(seed) is not int or seed < 0):
        seed = _checked("seed", _formulas.check_seed, seed)
    return level, method, seed, draws


def _checked(name: str, check: Callable[[Any], Any], value: Any) -> Any:
    try:
        return check(value)
    except ValueError as problem:
        raise ValueError(f"interval: {problem}") from None


def _whole(counts: Counts, score: object) -> int:
    """The shift that makes the counts whole (0 unless a finer unit was used), or refuse."""
    if not counts.scale:
        return 0
    if counts.exponent():
        raise _refuse(score, "fractional weights were counted; an interval takes each weight as "
                      "a number of repeats of its result, so it needs whole counts")
    return counts.scale


def _not_single_label(counts: Counts) -> str:
    shapes = counts.shapes
    other = counts.n - shapes.get(HIT, 0) - shapes.get(MISS, 0)
    if not other:
        return ""
    verb = "is" if other == 1 else "are"
    return (f"{other} of the {counts.reported(counts.n)} results {verb} not single-label (one "
            "category assigned and one correct)")


def _bounded(estimate: float, low: float, high: float) -> Interval:
    """The interval, stretched to hold the estimate (a rounding, or a posterior's tail at 0 or 1)."""
    return _new_interval(Interval, (low if low <= estimate else estimate, estimate,
                                    high if high >= estimate else estimate))


_new_interval = tuple.__new__  # Interval's own __new__ is a Python call: this is its body


def _proportion(score: object, estimate: float, successes: int, trials: int, level: float,
                method: str, seed: int | None, draws: int,
                transform: Callable[[float], float] | None = None) -> Interval:
    """The interval of ``transform(successes / trials)``, ``transform`` increasing (default: none)."""
    if method == "wilson":  # the default, without the dispatch
        low, high = _formulas.wilson(successes, trials, _formulas.normal_quantile(level))
    else:
        low, high = _formulas.proportion_bounds(successes, trials, level, method, seed=seed,
                                                draws=draws)
    if transform is not None:
        low, high = transform(low), transform(high)
    return _bounded(estimate, low, high)


def _f1_of_jaccard(share: Any) -> Any:
    """F1 = 2J / (1 + J) of a Jaccard index J: increasing, so it maps J's bounds to F1's."""
    return 2 * share / (1 + share)


# Contingency --------------------------------------------------------------------------------

# Which scores have an interval, and how each is read: the registry of scores
# (contingency._registry: interval_names, category_interval_names, each row's trial).


def _scores_with_intervals() -> str:
    names = ", ".join(interval_names())
    return f"{names}, and (score, category) for score in {', '.join(category_interval_names())}"


def contingency_interval(contingency: ContingencyReads, score: object, level: Any, method: Any,
                         seed: int | None, draws: Any) -> Interval:
    """:meth:`contingency.Contingency.interval`: see the module's docstring for what each score reads."""
    level, method, seed, draws = _check_arguments(level, method, seed, draws)
    counts = contingency._counts
    asked, kind, reads = interval_request(score, method)
    if kind == "share":
        return _micro(contingency, counts, asked, reads, level, method, seed, draws)
    if kind == "macro":
        return _macro(contingency, counts, asked, level)
    if kind == "decisions":
        return _decisions(contingency, counts, asked, reads, level, method, seed, draws)
    if kind == "category":
        return _category(contingency, counts, asked, level, method, seed, draws)
    return _subset_accuracy(contingency, counts, level, method, seed, draws)


def interval_request(score: object, method: str, where: str = "interval",
                     counts: Counts | None = None) -> tuple[Any, str, str | None]:
    """The score an interval read is asked for, its kind (``"share"``, ``"macro"``,
    ``"decisions"``, ``"results"`` or ``"category"``) and what it reads; refused
    (:class:`IntervalRefused`, naming the read ``where``) when no counts would give it an
    interval: a score without one, a form that is no score, a method that does not apply to it,
    and, given ``counts`` (the whole's, for a read of each group's interval), a category they
    lack. What a group's counts decide (no results, an undefined score...) is left to them.

    >>> interval_request("macro_f1", "delta")[1]
    'macro'
    >>> interval_request("macro_f11", "wilson", "interval_by_group")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    contingency.IntervalRefused: interval_by_group('macro_f11'): no interval for this score ...
    """
    if type(score) is not str:
        score = _score_name(score)
    if type(score) is str:
        how = interval_names().get(score)
        if how is None:
            raise _refuse(score, f"no interval for this score (see the docs' page on intervals); "
                          f"intervals exist for {_scores_with_intervals()}", where)
        kind, reads = how
        if kind == "macro" and method != "delta":
            raise _refuse(score, f"method {method!r} does not apply: a macro average is not a "
                          "proportion of results; its interval is method='delta' (Takahashi et "
                          "al.)", where)
        return score, kind, reads
    if (isinstance(score, tuple) and len(score) == 2 and isinstance(score[0], str)
            and score[0] in category_interval_names()):
        if counts is not None:
            _known_category(score, counts, where)
        return score, "category", None
    raise _refuse(score, "a score is the name of a score property ('micro_f1', 'macro_f1', ...) "
                  f"or (score, category); intervals exist for {_scores_with_intervals()}", where)


def _no_results(counts: Counts, score: object) -> None:
    if not counts.n:
        raise _refuse(score, "there are no results")


#: Why no micro interval exists once set_entries has set the micro table.
_SET_ENTRIES = "set_entries set the micro table, and no results are known behind its cells"


def _micro(contingency: ContingencyReads, counts: Counts, score: str, name: str | None,
           level: float, method: str, seed: int | None, draws: int) -> Interval:
    """Micro precision, recall or F1 of single-label results: each the share of results right."""
    n = counts.n
    a, miss = counts.hits_and_misses()
    if not n or n != a + miss or any(counts.offset):
        _no_results(counts, score)
        problem = _not_single_label(counts)
        if problem:
            raise _refuse(score, f"{problem}; the micro table then pools several decisions per "
                          "result, which are not independent trials: ask for a category's "
                          "interval, ('precision', category), or for subset_accuracy")
        raise _refuse(score, _SET_ENTRIES)
    shift = _whole(counts, score) if counts.scale else 0
    estimate = counts.micro_score(name, contingency._zero_division)  # type: ignore[arg-type]
    # Single-label results, no set_entries: the micro table's a is the results right (the hits),
    # a + b = a + c = n.
    if method != "wilson":
        return _proportion(score, estimate, a >> shift, n >> shift, level, method, seed, draws)
    # The default, written out: a micro read in a loop should cost a few plain reads.
    low, high = _formulas.wilson(a >> shift, n >> shift, _formulas.LEVELS_SEEN.get(level)
                                 or _formulas.normal_quantile(level))
    return _new_interval(Interval, (low if low <= estimate else estimate, estimate,
                                    high if high >= estimate else estimate))


def _decisions(contingency: ContingencyReads, counts: Counts, score: str, side: str | None,
               level: float, method: str, seed: int | None, draws: int) -> Interval:
    """Accuracy and error of the K n decisions of single-label results, from the results' share."""
    _no_results(counts, score)
    problem = _not_single_label(counts)
    if problem:
        raise _refuse(score, f"{problem}; the decisions of one result about the K categories "
                      "are not independent trials: ask for a category's interval, ('accuracy', "
                      "category), or for subset_accuracy")
    if score.startswith("micro") and any(counts.offset):
        raise _refuse(score, _SET_ENTRIES)
    shift = _whole(counts, score)
    estimate = getattr(contingency, score)
    # A single-label result right gives K decisions right; one wrong gives 2 wrong and K - 2
    # right: with w the share of results wrong, error = 2 w / K, accuracy = 1 - 2 w / K.
    right, n, k = counts.pooled()[0] >> shift, counts.n >> shift, len(counts.a)
    if k < 2:
        # One category: a wrong single-label result would name a second one, so w is 0 by
        # construction and the score a constant (accuracy 1, error 0), not an estimate: its
        # interval is the point. (The map of slope 2 / K > 1 would stretch w's interval, which
        # has width for any finite n, past [0, 1].)
        return _new_interval(Interval, (estimate, estimate, estimate))
    if side == "right":
        return _proportion(score, estimate, right, n, level, method, seed, draws,
                           lambda share: 1.0 - 2.0 / k + 2.0 / k * share)
    return _proportion(score, estimate, n - right, n, level, method, seed, draws,
                       lambda share: 2.0 / k * share)


def _subset_accuracy(contingency: ContingencyReads, counts: Counts, level: float, method: str,
                     seed: int | None, draws: int) -> Interval:
    """The share of results whose assigned set is the correct one: any results."""
    score = "subset_accuracy"
    _no_results(counts, score)
    shift = _whole(counts, score)
    exact = sum(count for (both, assigned, correct), count in counts.shapes.items()
                if both == assigned == correct)
    return _proportion(score, contingency.subset_accuracy, exact >> shift, counts.n >> shift,
                       level, method, seed, draws)


def _macro(contingency: ContingencyReads, counts: Counts, score: str, level: float,
           from_cells: tuple[Sequence[Hashable], tuple[list[int], ...], NDArray[np.intp]] | None = None
           ) -> Interval:
    """Macro precision, recall or F1 of single-label results by the delta method, from running sums
    (the one method that applies: :func:`interval_request`).

    With ``from_cells`` (the categories, in order, their cells :func:`category_cells`, and
    where each is in table order),
    from the cells instead, at once
    (:func:`_macro_from_cells`): the same interval, bit for bit, without making the
    running sums (what :func:`scores_block` asks, once, of a table of a million categories).
    """
    _no_results(counts, score)
    problem = _not_single_label(counts)
    if problem:
        raise _refuse(score, f"{problem}; the delta method of a macro average needs single-label "
                      "results (one confusion matrix, a multinomial sample): ask for each "
                      "category's interval instead")
    _whole(counts, score)
    name = macro_interval_names()[score]
    if from_cells is None:
        estimate = getattr(contingency, score)
        # the categories the read averaged (its running sums made by the read)
        averaged = counts.macro_sums(name, contingency._zero_division)[1]  # type: ignore[index]
    else:
        estimate, averaged, total = _macro_from_cells(contingency, counts, name, *from_cells)
    if not averaged:
        raise _refuse(score, "undefined: no category has a defined value")
    if from_cells is None:
        total = counts.variance_sums(name).total
        if name == "f1":
            total += 2 * counts.f1_coupling().total
    variance = _formulas.macro_variance_value(total, name, averaged, counts.scale)
    low, high = _formulas.normal_bounds(estimate, variance, _formulas.normal_quantile(level))
    return _bounded(estimate, low, high)


def _macro_from_cells(contingency: ContingencyReads, counts: Counts, name: str,
                      order: Sequence[Hashable], cells: tuple[list[int], ...],
                      places: NDArray[np.intp]) -> tuple[float, int, int]:
    """The macro average of ``name``, the categories it averages, and ``K² Var`` as the exact
    integer the running sums hold: each from the categories' cells, at once (the score's
    vector form, :func:`contingency.formulas._numeric.average`,
    :func:`contingency.formulas.intervals.macro_variance_sum`), so equal to the running
    sums' bit for bit."""
    mode = contingency._zero_division
    a, b, c, d = cells
    formula = TABLE[name].formula
    values = formula(*count_columns(counts, (a, b, c, d)), zero_division=mode)
    empty = float(formula(0, 0, 0, 0, zero_division=mode))
    estimate = average(values, empty=empty)
    averaged = int(np.count_nonzero(values == values))  # NaN: undefined in "nan" mode
    confusion: dict[tuple[int, int], int] = {}
    if name == "f1":  # the wrong results by (correct, assigned) position in ``order``
        position = np.full(len(counts.names), -1, dtype=np.int64)
        codes = np.fromiter(counts.ids.values(), dtype=np.int64,
                            count=len(counts.ids))  # (the codes in table order)
        position[codes[places]] = np.arange(len(order))
        keys, pair_counts = counts.pairs.arrays()
        keys = np.asarray(keys, dtype=np.int64)
        truth, chosen = position[keys >> PAIR_SHIFT], position[keys & PAIR_LOW]
        wrong = truth != chosen
        confusion = dict(zip(zip(truth[wrong].tolist(), chosen[wrong].tolist()),
                             np.asarray(pair_counts, dtype=object)[wrong].tolist()))
    total = _formulas.macro_variance_sum(a, b, c, name, confusion, counts.scale)
    return estimate, averaged, total


def _known_category(score: tuple[str, Hashable], counts: Counts, where: str = "interval") -> None:
    """Refuse ``(score, category)`` whose category is none of ``counts``'."""
    try:
        known = score[1] in counts.a
    except TypeError:
        known = False
    if not known:
        raise _refuse(score, not_a_category(shown(score[1]), counts.a), where)


def _category(contingency: ContingencyReads, counts: Counts, score: tuple[str, Hashable],
              level: float, method: str, seed: int | None, draws: int) -> Interval:
    """One category's score: a proportion of results, or F1 (delta method or posterior)."""
    name, label = score
    _known_category(score, counts)
    _no_results(counts, score)
    shift = _whole(counts, score)
    a, b, c = counts.a[label] >> shift, counts.b[label] >> shift, counts.c[label] >> shift
    d = (counts.n >> shift) - a - b - c
    mode = contingency._zero_division
    if name == "f1":
        if not a + b + c:
            raise _refuse(score, f"F1 of {label!r} is undefined: no result names it")
        estimate = TABLE["f1"].scalar(a, b, c, d, mode)
        if method == "delta":
            variance = _formulas.f1_variance(a, b, c)
            low, high = _formulas.normal_bounds(estimate, variance,
                                                _formulas.normal_quantile(level))
            return _bounded(estimate, low, high)
        if method == "posterior":
            return _bounded(estimate, *_formulas.f1_posterior(a, b, c, level, seed=seed,
                                                             draws=draws))
        # Of the a + b + c results naming the category, a are hits: a binomial share, the
        # Jaccard index J, and F1 = 2J / (1 + J) is increasing in it.
        return _proportion(score, estimate, a, a + b + c, level, method, seed, draws,
                           _f1_of_jaccard)
    successes, trials = _formulas.SHARES[name](a, b, c, d)
    if not trials:
        raise _refuse(score, f"{name} of {label!r} is undefined: {TABLE[name].trial}")
    estimate = TABLE[name].scalar(a, b, c, d, mode)
    return _proportion(score, estimate, successes, trials, level, method, seed, draws)


# The intervals block of scores() ------------------------------------------------------------

#: The methods of :func:`scores_block`: Wilson's, but the delta method for the macro averages.
BLOCK_METHODS = {"categories, micro, subset accuracy": "wilson", "macro averages": "delta"}


def _bounds(read: Callable[[], Interval]) -> list[float] | None:
    """``[low, high]`` of an interval read, or ``None`` where it is refused."""
    try:
        low, _, high = read()
    except IntervalRefused:
        return None
    return [low, high]


#: The methods of :func:`paired_block`: :data:`BLOCK_METHODS`' for each model's scores, and
#: Newcombe's method 10 for the difference of accuracies.
PAIRED_METHODS = {"micro, subset accuracy, hamming loss": "wilson", "macro averages": "delta",
                  "accuracy difference": "newcombe"}


def paired_block(models: dict[str, ContingencyReads], names: Sequence[str], level: float,
                 difference: Callable[[float], Interval]) -> dict[str, Any]:
    """The ``intervals`` block of :meth:`contingency.PairedComparison.scores`.

    For each model (``{"a": model, "b": model}``), ``[low, high]`` of each of
    ``names`` that has an interval (``None`` where refused), by Wilson's
    method but the macro averages by the delta method, as :func:`scores_block`
    reads them; ``accuracy_difference``, ``difference(level)`` as
    ``{"low", "estimate", "high"}`` (``None`` where it is refused: no result).
    """
    level = _formulas.check_level(level, "intervals")
    macros, known = macro_interval_names(), interval_names()

    def one(model: ContingencyReads, name: str) -> list[float] | None:
        method = "delta" if name in macros else "wilson"
        return _bounds(lambda: contingency_interval(model, name, level, method, 0, 10_000))

    try:
        between: dict[str, float] | None = difference(level)._asdict()
    except ValueError:  # no result: no difference of accuracies
        between = None
    return {"level": level, "methods": dict(PAIRED_METHODS),
            **{key: {name: one(model, name) for name in names if name in known}
               for key, model in models.items()},
            "accuracy_difference": between}


def scores_block(contingency: ContingencyReads, level: float, where: str = "scores"
                 ) -> dict[str, Any]:
    """The ``intervals`` block of :meth:`contingency.Contingency.scores`: ``[low, high]`` or ``None``.

    Per category (in table order) and for the micro and macro averages:
    precision, recall and F1, by Wilson's method (a category's F1 through
    its Jaccard index) but the macro averages by the delta method; subset
    accuracy by Wilson's. ``None`` where the interval is refused (see
    :func:`contingency_interval`). The categories' intervals are a
    :class:`contingency.report.Records` of :class:`contingency.report.Bounds`
    columns (:func:`_category_bounds`).
    """
    level = _formulas.check_level(level, "intervals", where)

    def one(score: Score) -> list[float] | None:
        method = "delta" if score in macro_interval_names() else "wilson"
        return _bounds(lambda: contingency_interval(contingency, score, level, method, 0, 10_000))

    def macro(score: str) -> list[float] | None:  # from the cells: no running sums made
        return _bounds(lambda: _macro(contingency, counts, score, level, (order, cells, places)))

    names = report_names()
    macros = macro_interval_names()
    _, order, places = contingency._orders()  # (the categories, and where they are in the table)
    counts = contingency._counts
    cells = category_cells(counts, order, places)  # (read once: O(K))
    return {
        "level": level,
        "methods": dict(BLOCK_METHODS),
        "categories": Records("category", [label_to_json(label, "category") for label in order],
                              names, _category_bounds(contingency, order, cells, level, one,
                                                      names)),
        "micro": {name: one(f"micro_{name}") for name in names},
        "macro": ({name: macro(f"macro_{name}") if f"macro_{name}" in macros else None
                   for name in names} if order else None),
        "subset_accuracy": one("subset_accuracy"),
    }


def _category_bounds(contingency: ContingencyReads, order: Sequence[Hashable],
                     cells: tuple[list[int], ...], level: float,
                     one: Callable[[Score], list[float] | None], names: Sequence[str]
                     ) -> list[Bounds]:
    """Wilson intervals of each category's scores ``names`` (precision, recall, F1), as
    :class:`Bounds` columns (NaN for a score with no category interval).

    What :func:`_category` gives one category at a time (``one``), bit for bit,
    on whole columns with :func:`contingency.formulas.intervals.wilson_columns`
    and the vector forms of the scores: a table of a million categories
    costs a few numpy passes, not three million reads. Counts past ``2**53``
    take ``one`` per category.
    """
    counts = contingency._counts
    size = len(order)
    if not counts.n or (counts.scale and counts.exponent()):  # every interval refused
        empty = np.full(size, np.nan)
        return [Bounds(empty, empty)] * len(names)
    shift = counts.scale
    whole = [[count >> shift for count in column] for column in cells] if shift else cells
    if (counts.n >> shift) >= EXACT_FLOAT_BOUND:  # (a + b + c <= n: a result, one cell at most)
        return [_bounds_column([one((name, label)) for label in order]) for name in names]
    a, b, c, d = (np.array(column, dtype=np.int64) for column in whole)
    z, mode = _formulas.normal_quantile(level), contingency._zero_division
    columns = []
    for name in names:
        if name not in category_interval_names():
            nothing = np.full(size, np.nan)
            columns.append(Bounds(nothing, nothing))
            continue
        estimate = TABLE[name].formula(a, b, c, d, zero_division=mode)
        # F1 through the Jaccard index's share (see _category); the others are shares.
        share: Callable[..., tuple[Any, Any]] = _formulas.SHARES["jaccard" if name == "f1" else name]
        successes, trials = share(a, b, c, d)
        low, high = _formulas.wilson_columns(successes, trials, z)
        if name == "f1":  # through the Jaccard index (see _category)
            low, high = _f1_of_jaccard(low), _f1_of_jaccard(high)
        with np.errstate(invalid="ignore"):  # NaN where refused stays NaN
            low = np.where(low <= estimate, low, estimate)  # _bounded, a column at a time
            high = np.where(high >= estimate, high, estimate)
        refused = trials == 0
        columns.append(Bounds(np.where(refused, np.nan, low), np.where(refused, np.nan, high)))
    return columns


def _bounds_column(bounds: list[list[float] | None]) -> Bounds:
    low = np.array([np.nan if pair is None else pair[0] for pair in bounds], dtype=np.float64)
    high = np.array([np.nan if pair is None else pair[1] for pair in bounds], dtype=np.float64)
    return Bounds(low, high)


# PartitionComparison ------------------------------------------------------------------------

#: The pair-counting scores with an interval, and the ratio of pair counts each is
#: (:data:`contingency.formulas.intervals.PAIR_RATIOS`); distance is ``1 - rand_index``.
_PAIR_INTERVALS = {"rand_index": "rand_index", "accuracy": "rand_index", "distance": "rand_index",
                   "precision": "precision", "recall": "recall", "f1": "f1", "jaccard": "jaccard"}
_PAIRS = ("its pairs of elements are not independent trials (two pairs that share an element "
          "share its labels), so a binomial interval over the N (N - 1) / 2 pairs would be far "
          "too narrow")
_PARTITION_REFUSED = {
    "adjusted_rand_index": "no interval method here for the adjusted Rand index (a ratio of "
                           "products of pair counts); its significance against chance is another "
                           "question than its interval",
    "fowlkes_mallows": "no interval method here for the Fowlkes-Mallows index (a geometric mean "
                       "of two ratios of pair counts)",
    "purity": "no interval: purity's clusters are matched to classes by the same elements it "
              "counts (a maximum per cluster), so its share is biased upward and is not a "
              "proportion of independent trials",
    "inverse_purity": "no interval: like purity, a maximum per class over the elements it counts",
}


def partition_interval(comparison: PartitionReads, score: object, level: object,
                       method: object) -> Interval:
    """:meth:`contingency.PartitionComparison.interval`: pair-counting ratios by the delta method."""
    level = _formulas.check_level(level, "level", "interval")
    method = _check_method(method)
    score = _score_name(score)
    if type(score) is not str or score not in _PAIR_INTERVALS:
        reason = (_PARTITION_REFUSED.get(score, "no interval method here for this score "
                                     "(information and matching scores have none)")
                  if type(score) is str else "a score is the name of a score property")
        raise _refuse(score, reason + f"; intervals exist for {', '.join(_PAIR_INTERVALS)}")
    if method != "delta":
        raise _refuse(score, f"method {method!r} does not apply: {_PAIRS}; the interval of a "
                      "pair-counting score is method='delta' (the pair counts are U-statistics "
                      "of the elements)")
    name = _PAIR_INTERVALS[score]
    if comparison.n_elements < 2:
        raise _refuse(score, "there are fewer than two elements, so no pairs")
    from contingency.formulas.partition import TableCells

    try:
        variance = _formulas.pair_variance(TableCells(*comparison._information_cells()), name)
    except ValueError:
        raise _refuse(score, f"{score} is undefined: no pair in its denominator") from None
    z = _formulas.normal_quantile(level)
    if score == "distance":
        rand = comparison.rand_index
        low, high = _formulas.normal_bounds(rand, variance, z)
        return _bounded(comparison.distance, 1.0 - high, 1.0 - low)
    estimate = getattr(comparison, score)
    return _bounded(estimate, *_formulas.normal_bounds(estimate, variance, z))


def partition_block(comparison: PartitionReads, level: float, where: str = "scores"
                    ) -> dict[str, Any]:
    """The ``intervals`` block of :meth:`contingency.PartitionComparison.scores` (``None`` where
    refused); a bad level refused naming the read ``where``."""
    level = _formulas.check_level(level, "intervals", where)
    block: dict[str, Any] = {"level": level, "method": "delta"}
    for score in ("rand_index", "precision", "recall", "f1", "jaccard"):
        block[score] = _bounds(lambda score=score: partition_interval(  # type: ignore[misc]
            comparison, score, level, "delta"))
    return block
