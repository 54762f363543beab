"""The scores a GroupedContingency reads by name: a Contingency property, or (score, category).

A score is named once, by :func:`score_reader`, which gives its canonical
form and how to read it from a :class:`~contingency.Contingency` in O(1);
:func:`score_name` is how tables and plots write it.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Hashable

from contingency._contingency import Contingency
from contingency._labels import check_label
from contingency._registry import TABLE, property_names
from contingency.formulas._arguments import call_prefix
from contingency.formulas._numeric import ZeroDivision

__all__ = ["DEFAULT_SCORES", "Score", "score_name", "score_reader"]

#: A score: the name of a Contingency property, or (score, category) for one category.
Score = str | tuple[str, Hashable]
#: The scores of :meth:`GroupedContingency.report` and :meth:`~GroupedContingency.scores` by default.
DEFAULT_SCORES: tuple[Score, ...] = ("micro_f1", "macro_precision", "macro_recall", "macro_f1")


def score_reader(score: object, where: str | None = None
                 ) -> tuple[Score, Callable[[Contingency], float]]:
    """The one reading of a score's name: its canonical form, and how to read it from a Contingency.

    ``score`` is the name of a score property of
    :class:`~contingency.Contingency` (the registry's
    :func:`~contingency._registry.property_names`: ``"macro_f1"``,
    ``"micro_precision"``, ``"subset_accuracy"``...), or a pair ``(name,
    category)`` naming a table score of the registry (``"precision"``,
    ``"recall"`` (the true positive rate), ``"f1"``, ``"selection_rate"``,
    ``"false_positive_rate"``...) of one category's 2x2 table, the category
    taken as the positive outcome. Its reader costs O(1) (O(result shapes) for
    the samples averages). A name of neither kind is refused naming the read ``where``.

    An accumulator without a result reads every score by ``zero_division``'s
    conventions for no result, whether its categories were declared or not:
    an empty group of an open category set (a declared group before its first
    result) has no category, over which Perl mode's averages would die
    (Statistics::Contingency's "No category information"); it reads what an
    empty accumulator reads with any declared categories, each one's 0 / 0 alike.

    >>> empty = Contingency(unknown="add")
    >>> score_reader("macro_f1")[1](empty), score_reader("macro_error")[1](empty)
    (1.0, 0.0)

    >>> from contingency import Contingency
    >>> s = Contingency().add_results([1, 1, 0], [1, 0, 0])
    >>> key, read = score_reader(["recall", 1])
    >>> key, read(s)
    (('recall', 1), 1.0)
    >>> score_reader("macro_f2")
    Traceback (most recent call last):
    ...
    ValueError: score 'macro_f2' is neither a score property of Contingency (micro_precision, micro_recall, \
micro_f1, micro_accuracy, micro_error, macro_precision, macro_recall, macro_f1, macro_accuracy, macro_error, \
weighted_precision, weighted_recall, weighted_f1, samples_precision, samples_recall, samples_f1, \
subset_accuracy, error_rate, hamming_loss) nor (score, category) with a score among precision, recall, f1, \
accuracy, error, jaccard, specificity, selection_rate, false_positive_rate
    """
    properties = property_names()
    if isinstance(score, str) and score in properties:
        return score, _property_reader(score)
    if isinstance(score, (tuple, list)) and len(score) == 2 and isinstance(score[0], str):
        name, category = score
        row = TABLE.get(name)
        if row is not None:
            category = check_label(category, f"{call_prefix(where)}score {name!r}: category")
            return (name, category), _category_reader(row.scalar, category)
    raise ValueError(
        f"{call_prefix(where)}score {score!r} is neither a score property of Contingency "
        f"({', '.join(properties)}) "
        f"nor (score, category) with a score among {', '.join(TABLE)}")


@functools.cache
def _empty_with_a_category(zero_division: ZeroDivision) -> Contingency:
    """An empty accumulator with one category: its averages over categories are each category's
    value for no result, which every empty accumulator with categories shares (never written)."""
    return Contingency([0], zero_division=zero_division)


def _property_reader(name: str) -> Callable[[Contingency], float]:
    attribute = operator.attrgetter(name)

    def read(accumulator: Contingency) -> float:
        counts = accumulator._counts
        if not counts.n and not counts.a:
            # No result and no category (an open set's empty group): the averages over
            # categories are undefined as for any empty table, not Perl's die over no category
            # (docs/grouped.md: empty declared groups are scored by zero_division's conventions).
            accumulator = _empty_with_a_category(accumulator.zero_division)
        return float(attribute(accumulator))
    return read


def _category_reader(formula: Callable[..., float], category: Hashable
                     ) -> Callable[[Contingency], float]:
    def read(accumulator: Contingency) -> float:
        counts = accumulator._counts
        a, b, c = counts.a.get(category, 0), counts.b.get(category, 0), counts.c.get(category, 0)
        return float(formula(a, b, c, counts.n - a - b - c, accumulator.zero_division))
    return read


def score_name(score: Score) -> str:
    """How tables and plots name a score: its name, with the category in parentheses.

    >>> score_name("macro_f1"), score_name(("recall", 1))
    ('macro_f1', 'recall(1)')
    """
    return score if isinstance(score, str) else f"{score[0]}({score[1]})"
