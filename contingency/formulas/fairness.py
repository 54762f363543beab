"""Group fairness: the rates of one category's 2x2 table, and the disparities of a score across groups.

The rates take one category's cells, in the glossary of
:mod:`contingency.formulas.classification` (``a`` true positives, ``b`` false
positives, ``c`` false negatives, ``d`` true negatives, for the category taken
as the positive outcome):

- :func:`selection_rate` ``(a + b) / n``: how often the outcome was given;
- :func:`false_positive_rate` ``b / (b + d)``: how often it was given wrongly.
  (The true positive rate is :func:`~contingency.formulas.classification.recall`.)

The disparities compare one score's values in several groups (a group is any
slice of the results: a country, a device, a demographic group), as fairlearn's
``MetricFrame`` names and defines them (Weerts et al., "Fairlearn: Assessing and
Improving Fairness of AI Systems", JMLR 24(257), 2023). Each of them depends on
the values through their least and greatest only, which is why they take those
(:func:`extremes` finds them): an accumulator that keeps the two up to date reads
a disparity in time independent of the number of groups.

- :func:`difference` ``"between_groups"``: greatest minus least; ``"to_overall"``:
  the largest distance of a group's value to the value over all groups;
- :func:`ratio` ``"between_groups"``: least over greatest; ``"to_overall"``: the
  least of each group's value over the overall one, taken below 1 (``x`` or ``1/x``);
- :func:`worst_case`: fairlearn's ``agg`` for equalized odds, the larger of two
  differences (``"worst_case"``, its default) or their mean (``"mean"``, NaN left
  out as pandas leaves it out); for ratios, the smaller of the two.

NaN values are left out, as pandas' ``min`` and ``max`` leave them out (NaN only
when every value is NaN). A ratio whose denominator is 0 is undefined when its
numerator is 0 too: ``zero_division`` decides it (Perl mode gives 1, no disparity;
fairlearn gives NaN, ``zero_division="nan"``); a non-zero number over 0 is an
infinity, as in fairlearn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Literal

from numpy.typing import ArrayLike

from contingency.formulas._arguments import check_choice
from contingency.formulas._numeric import ZeroDivision, check_zero_division, undefined_value
from contingency.formulas.classification import Floats, _elementwise

__all__ = [
    "SCALAR",
    "Method",
    "check_agg",
    "check_method",
    "difference",
    "extremes",
    "false_positive_rate",
    "ratio",
    "selection_rate",
    "worst_case",
]

#: How a disparity compares the groups: with each other, or each with the overall value.
Method = Literal["between_groups", "to_overall"]
_METHODS = ("between_groups", "to_overall")
_NAN = float("nan")


def _rate(part: Any, whole: Any, mode: ZeroDivision, perl: float) -> float:
    """``part / whole``, rounded once (exact integer counts divide exactly); ``perl`` or
    ``zero_division`` when ``whole`` is 0."""
    return part / whole if whole else undefined_value(mode, perl)


def _selection_rate(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    # No result at all: nothing was selected, so Perl mode says 0.
    return _rate(a + b, a + b + c + d, mode, 0.0)


def _false_positive_rate(a: Any, b: Any, c: Any, d: Any, mode: ZeroDivision) -> float:
    # No negative result: no false positive could happen, so Perl mode says 0 (as scikit-learn's
    # normalised confusion matrix, which fairlearn reads, gives 0 too).
    return _rate(b, b + d, mode, 0.0)


#: The scalar form of each rate, ``(a, b, c, d, mode) -> float`` with ``mode`` checked.
SCALAR = {"selection_rate": _selection_rate, "false_positive_rate": _false_positive_rate}


def selection_rate(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
                   zero_division: ZeroDivision = "perl") -> Floats:
    """The selection rate ``(a + b) / (a + b + c + d)``: the share of results given the category.

    fairlearn's ``selection_rate`` of the category as ``pos_label`` (weights
    included, as ``sample_weight``). Undefined with no result: 0 in Perl mode
    (nothing was selected), else ``zero_division``.

    >>> float(selection_rate(3, 1, 2, 4))
    0.4
    >>> float(selection_rate(0, 0, 0, 0)), float(selection_rate(0, 0, 0, 0, zero_division="nan"))
    (0.0, nan)
    """
    return _elementwise(_selection_rate, (a, b, c, d), zero_division)


def false_positive_rate(a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, *,
                        zero_division: ZeroDivision = "perl") -> Floats:
    """The false positive rate ``b / (b + d)``: the share of negative results given the category.

    fairlearn's ``false_positive_rate`` (1 - specificity). Undefined with no
    negative result (``b + d == 0``): 0 in Perl mode, as fairlearn gives, else
    ``zero_division``.

    >>> float(false_positive_rate(3, 1, 2, 4))
    0.2
    >>> float(false_positive_rate(5, 0, 1, 0)), float(false_positive_rate(5, 0, 1, 0, zero_division=1.0))
    (0.0, 1.0)
    """
    return _elementwise(_false_positive_rate, (a, b, c, d), zero_division)


def extremes(values: Iterable[float]) -> tuple[float, float]:
    """The least and the greatest of ``values``, NaN left out (``(nan, nan)`` if nothing is left).

    >>> extremes([0.5, float("nan"), 0.25, 0.75])
    (0.25, 0.75)
    >>> extremes([float("nan")])
    (nan, nan)
    """
    kept = [float(value) for value in values if value == value]
    return (min(kept), max(kept)) if kept else (_NAN, _NAN)


def check_method(method: object, where: str | None = None) -> Method:
    """``method`` if it is ``"between_groups"`` or ``"to_overall"``, else ``ValueError`` naming it
    and the call ``where``."""
    return check_choice(method, "method", _METHODS, where)  # type: ignore[return-value]


def check_agg(agg: object, where: str | None = None) -> Literal["worst_case", "mean"]:
    """``agg`` if it is ``"worst_case"`` or ``"mean"``, else ``ValueError`` naming it and the call
    ``where``."""
    return check_choice(agg, "agg", ("worst_case", "mean"), where)  # type: ignore[return-value]


def difference(least: float, greatest: float, overall: float = _NAN, *,
               method: Method = "between_groups") -> float:
    """fairlearn's ``MetricFrame.difference`` of a score, from its least and greatest group value.

    ``"between_groups"``: ``greatest - least``, the largest difference between
    two groups. ``"to_overall"``: ``max |value - overall|`` over the groups,
    which is ``max(greatest - overall, overall - least)`` since the distance is
    convex (``overall`` is the score of every result together).

    >>> difference(0.25, 0.75), difference(0.25, 0.75, 0.375, method="to_overall")
    (0.5, 0.375)
    """
    if check_method(method) == "between_groups":
        return float(greatest) - float(least)
    return max(abs(float(greatest) - float(overall)), abs(float(least) - float(overall)))


def _quotient(numerator: float, denominator: float, mode: ZeroDivision) -> float:
    """``numerator / denominator``; ``x / 0`` is ``±inf`` (as in numpy), ``0 / 0`` undefined."""
    if denominator == 0:
        if numerator == 0:  # every value equal (0): Perl mode says no disparity
            return undefined_value(mode, 1.0)
        return math.copysign(math.inf, numerator) * math.copysign(1.0, denominator)
    return numerator / denominator


def _below_one(value: float, overall: float, mode: ZeroDivision) -> float:
    """fairlearn's ``to_overall`` ratio of one group: ``value / overall``, or its inverse when above 1."""
    quotient = _quotient(value, overall, mode)
    return 1 / quotient if quotient > 1 else quotient


def ratio(least: float, greatest: float, overall: float = _NAN, *,
          method: Method = "between_groups", zero_division: ZeroDivision = "perl") -> float:
    """fairlearn's ``MetricFrame.ratio`` of a score, from its least and greatest group value.

    ``"between_groups"``: ``least / greatest``. ``"to_overall"``: the least,
    over the groups, of ``value / overall`` taken below 1 (its inverse when it
    is above 1). That function of the value rises up to ``overall`` and falls
    after it, so its least is reached at the least or the greatest value.
    ``0 / 0`` (every value 0) is undefined: ``zero_division`` decides, 1 in Perl
    mode; a non-zero number over 0 is an infinity, as in fairlearn (whose ``to_overall`` turns
    ``+inf`` into 0).

    >>> ratio(0.25, 0.75), ratio(0.25, 0.75, 0.5, method="to_overall")
    (0.3333333333333333, 0.5)
    >>> ratio(0.0, 0.0), ratio(0.0, 0.0, zero_division="nan")
    (1.0, nan)
    """
    mode = check_zero_division(zero_division)
    low, high = float(least), float(greatest)
    if check_method(method) == "between_groups":
        return _quotient(low, high, mode)
    kept = [value for value in (_below_one(low, float(overall), mode),
                                _below_one(high, float(overall), mode)) if value == value]
    return min(kept) if kept else _NAN


def worst_case(first: float, second: float, *, agg: Literal["worst_case", "mean"] = "worst_case",
               larger: bool = True) -> float:
    """Two disparities made one, as fairlearn's equalized odds do with ``agg``.

    ``"worst_case"`` (fairlearn's default): the larger of two differences
    (``larger=True``) or the smaller of two ratios (``larger=False``);
    ``"mean"``: their mean, NaN left out as pandas' ``mean`` leaves it out (the
    mean of the one defined value; NaN only when both are NaN), which is what
    fairlearn averages when one disparity is undefined (``zero_division="nan"``).

    >>> worst_case(0.25, 0.5), worst_case(0.25, 0.5, larger=False), worst_case(0.25, 0.5, agg="mean")
    (0.5, 0.25, 0.375)
    >>> worst_case(0.25, float("nan"), agg="mean"), worst_case(float("nan"), float("nan"), agg="mean")
    (0.25, nan)
    """
    agg = check_agg(agg)
    pair = [float(first), float(second)]
    if agg == "mean":
        kept = [value for value in pair if value == value]
        return sum(kept) / len(kept) if kept else _NAN
    # Python's max and min, as fairlearn applies them to its two values.
    return max(pair) if larger else min(pair)
