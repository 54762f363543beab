"""A GroupedContingency's scores as plain data: by group, overall, the disparities, fairness.

:func:`summary` reads finished numbers through the accumulator's own reads
(``by_group``, ``group_min``, ``difference``, fairlearn's scores...) and
lays them out as JSON-safe data, which
:func:`contingency.report.grouped_report` renders; it computes nothing.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol, TypeVar

from contingency import report as _report
from contingency._group_keys import group_to_json, shown
from contingency._group_scores import Score, score_name, score_reader
from contingency._labels import label_to_json
from contingency.formulas.fairness import Method

__all__ = ["GroupedReads", "chosen_scores", "summary"]

_T = TypeVar("_T")


class GroupedReads(Protocol):
    """The reads :func:`summary` makes of a :class:`contingency.GroupedContingency` (besides
    fairlearn's scores, by name): this module lays out numbers, it does not know the class."""

    @property
    def n_results(self) -> int | float: ...
    def _per_group(self, read: Callable[[Any], _T]) -> dict[Hashable, _T]: ...
    def _reader(self, score: object, where: str | None = None) -> tuple[Score, Any]: ...
    def by_group(self, score: Score) -> dict[Hashable, float]: ...
    def overall_score(self, score: Score) -> float: ...
    def group_min(self, score: Score) -> float: ...
    def group_max(self, score: Score) -> float: ...
    def group_argmin(self, score: Score) -> Hashable: ...
    def group_argmax(self, score: Score) -> Hashable: ...
    def difference(self, score: Score, method: Method = "between_groups") -> float: ...
    def ratio(self, score: Score, method: Method = "between_groups") -> float: ...

_METHODS: tuple[Method, Method] = ("between_groups", "to_overall")
#: fairlearn's fairness scores of one category, each a method of GroupedContingency.
_FAIRNESS = ("demographic_parity_difference", "demographic_parity_ratio",
             "equalized_odds_difference", "equalized_odds_ratio",
             "equal_opportunity_difference", "equal_opportunity_ratio")


def chosen_scores(scores: Iterable[object], pos_label: Hashable | None,
                  where: str) -> list[Score]:
    """The scores named, in canonical form and without repeats; with ``pos_label`` (a category,
    checked by the caller), its selection rate and true and false positive rates after them.
    Errors name the read ``where``."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        raise ValueError(f"{where}: scores must be a list of scores, such as "
                         "['micro_f1', ('recall', 1)] (one score too: ['micro_f1']), not "
                         f"{reprlib.repr(scores)}")
    chosen = [score_reader(score, where)[0] for score in scores]
    if pos_label is not None:
        chosen += [(name, pos_label) for name in
                   ("selection_rate", "recall", "false_positive_rate")]
    return list(dict.fromkeys(chosen))


def summary(grouped: GroupedReads, scores: Iterable[object],
            pos_label: Hashable | None, where: str = "scores") -> dict[str, Any]:
    """What :meth:`GroupedContingency.scores <contingency.GroupedContingency.scores>` returns
    (``pos_label`` a category of ``grouped``, checked by the caller; errors name ``where``)."""
    chosen = chosen_scores(scores, pos_label, where)
    for score in chosen:  # each category named a category, before anything is read
        grouped._reader(score, where)
    names = [score_name(score) for score in chosen]
    by_group = [grouped.by_group(score) for score in chosen]
    sizes = grouped._per_group(operator.attrgetter("n_results"))
    rows = [{"group": group_to_json(key), "label": shown(key), "n_results": size,
             "values": {name: values[key] for name, values in zip(names, by_group)}}
            for key, size in sizes.items()]
    disparities = []
    if sizes:
        for score, name in zip(chosen, names):
            low, high = grouped.group_argmin(score), grouped.group_argmax(score)
            disparities.append({
                "score": name, "min": grouped.group_min(score), "min_group": group_to_json(low),
                "max": grouped.group_max(score), "max_group": group_to_json(high),
                "difference": {method: grouped.difference(score, method) for method in _METHODS},
                "ratio": {method: grouped.ratio(score, method) for method in _METHODS},
                "min_label": shown(low), "max_label": shown(high)})
    fairness = None
    if pos_label is not None and sizes:
        fairness = {"pos_label": label_to_json(pos_label, "pos_label"), **{
            name: {method: getattr(grouped, name)(pos_label, method) for method in _METHODS}
            for name in _FAIRNESS}}
    result: dict[str, Any] = _report.json_numbers({
        "scores": names,
        "n_results": grouped.n_results,
        "groups": rows,
        "overall": {name: grouped.overall_score(score) for score, name in zip(chosen, names)},
        "disparities": disparities,
        "fairness": fairness,
    })
    return result
