"""Two classifiers on the same results: the paired table and McNemar's test, as pure functions of counts.

Glossary. Each result is scored for both models, *a* and *b*, as right or
wrong, and the paired table counts the four combinations::

                       b right          b wrong
        a right      both_right       only_a_right
        a wrong      only_b_right     both_wrong

Only the discordant cells, ``only_a_right`` and ``only_b_right``, tell the
models apart: McNemar's test asks whether, among the results exactly one
model got right, each model is as likely to be that one (``1/2``).

Three versions of the test (Fagerland, Lydersen and Laake 2013), with
``b = only_a_right``, ``c = only_b_right``, ``n = b + c`` and ``X ~
Binomial(n, 1/2)``:

- exact (conditional) binomial test: statistic ``min(b, c)``, two-sided
  p-value ``min(1, 2 P(X <= min(b, c)))``;
- mid-p: ``2 P(X <= min(b, c)) - P(X = min(b, c))``, the exact p-value with
  half the probability of the observed value taken out;
- asymptotic, with Edwards' continuity correction: statistic
  ``(|b - c| - 1)**2 / (b + c)``, p-value from the chi-square distribution
  with one degree of freedom. (As written by McNemar's users and by
  statsmodels, the correction is not clamped: ``b == c`` gives the statistic
  ``1 / (b + c)``, not 0.)

With no discordant result (``b == c == 0``) every version gives
``McNemar(0.0, 1.0)``: nothing tells the models apart (the asymptotic
statistic would be 0 / 0).

How the binomial tail is computed, to about 1e-14 relative at any count below
``2**63``: for ``n <= 64`` exactly (sums of integer binomial coefficients over
``2**n``, each p-value rounded once); beyond, the probability ``P(X = k)`` by
Loader's saddle-point form (Stirling's error and the deviance ``x ln(x / m) + m - x``,
each without cancellation); then ``P(X <= k)`` by summing the terms down from
``k`` while they fall fast (200 terms at most), and otherwise (``k`` near
``n / 2``, where they fall slowly for ``O(sqrt(n))`` terms) as the incomplete
beta integral ``P(X <= k) = (n - k) P(X = k) int_0^1 g(x) dx`` with ``g(x) =
(1 - x)**(n - k - 1) (1 + x)**k`` (the beta integrand at ``t = (1 - x) / 2``
over its value at ``t = 1/2``; its logarithm a sum of three terms of one
sign, formed without cancellation), integrated by Gauss-Legendre on 48 fixed
nodes over the interval where ``g`` falls from 1 to ``e**-45``. Either way
the cost is bounded whatever the counts (a few tens of microseconds): a read
is O(1).

References: Q. McNemar (1947), "Note on the sampling error of the difference
between correlated proportions or percentages", Psychometrika 12, 153-157;
A. L. Edwards (1948), Psychometrika 13, 185-187 (the continuity correction);
M. W. Fagerland, S. Lydersen and P. Laake (2013), "The McNemar test for
binary matched-pairs data: mid-p and asymptotic are better than exact
conditional", BMC Medical Research Methodology 13, 91; C. Loader (2000),
"Fast and accurate computation of binomial probabilities" (the saddle-point
form of the binomial probabilities).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from contingency.formulas._arguments import check_flag
from contingency.formulas._numeric import MAX_COUNT, check_count
from contingency.formulas._saddle import deviance, stirling_error
from contingency.formulas.intervals import wilson

__all__ = ["McNemar", "PairedTable", "binomial_half_tail", "check_mcnemar_options", "mcnemar",
           "newcombe_difference"]


class PairedTable(NamedTuple):
    """The paired table of two models on the same results (see the module's glossary).

    ``n_results`` is the total of its four cells.
    """

    both_right: int
    only_a_right: int
    only_b_right: int
    both_wrong: int

    @property
    def n_results(self) -> int:
        """The number of results: the four cells' total."""
        return self.both_right + self.only_a_right + self.only_b_right + self.both_wrong


class McNemar(NamedTuple):
    """McNemar's test: its statistic and two-sided p-value.

    The statistic is ``min(b, c)`` for the exact and mid-p tests and the
    continuity-corrected chi-square ``(|b - c| - 1)**2 / (b + c)`` for the
    asymptotic one (:func:`mcnemar`).
    """

    statistic: float
    pvalue: float


def check_mcnemar_options(exact: object, mid_p: object) -> None:
    """Refuse options of :func:`mcnemar` (and of the accumulators' read of the same name) other
    than ``True`` or ``False`` (``TypeError`` naming the call and the argument), and
    ``mid_p=True`` without ``exact=True`` (``ValueError``).

    >>> check_mcnemar_options(True, 1)
    Traceback (most recent call last):
    ...
    TypeError: mcnemar: mid_p must be True or False, not 1
    """
    check_flag(exact, "exact", "mcnemar")
    check_flag(mid_p, "mid_p", "mcnemar")
    if mid_p and not exact:
        raise ValueError("mcnemar: mid_p=True is a version of the exact test: pass exact=True "
                         "with it")


def mcnemar(only_a_right: int, only_b_right: int, *, exact: bool = True,
            mid_p: bool = False) -> McNemar:
    """McNemar's test of two models on the same results, from the two discordant counts.

    ``exact=True`` (the default) is the exact conditional binomial test,
    ``mid_p=True`` its mid-p version, ``exact=False`` the asymptotic test with
    continuity correction; the module's notes give each formula and when it
    is 0 / 0. Equal to ``statsmodels.stats.contingency_tables.mcnemar(table,
    exact=exact, correction=True)`` with ``table = [[both_right,
    only_a_right], [only_b_right, both_wrong]]`` (to about 1e-14 relative),
    where that one is defined. Counts are non-negative integers up to ``2**63 - 1``.

    >>> mcnemar(10, 3)              # 2 P(X <= 3), X ~ Binomial(13, 1/2): 2 x 378 / 8192
    McNemar(statistic=3.0, pvalue=0.09228515625)
    >>> mcnemar(10, 3, mid_p=True)  # (2 x 378 - 286) / 8192
    McNemar(statistic=3.0, pvalue=0.057373046875)
    >>> statistic, pvalue = mcnemar(10, 3, exact=False)   # (10 - 3 - 1)**2 / 13
    >>> statistic == 36 / 13, round(pvalue, 12)
    (True, 0.096092329456)
    >>> mcnemar(0, 0)
    McNemar(statistic=0.0, pvalue=1.0)
    """
    b = _check(only_a_right, "only_a_right")
    c = _check(only_b_right, "only_b_right")
    check_mcnemar_options(exact, mid_p)
    n = b + c
    if n == 0:  # no discordant result: nothing tells the models apart
        return McNemar(0.0, 1.0)
    if not exact:
        statistic = (abs(b - c) - 1) ** 2 / n  # exact integers, rounded once
        # The chi-square survival function with one degree of freedom: erfc(sqrt(x / 2)).
        return McNemar(statistic, math.erfc(math.sqrt(statistic / 2)))
    k = min(b, c)
    if 2 * k == n:  # b == c: the observed split is the likeliest; both p-values are 1
        return McNemar(float(k), 1.0)
    if n <= _EXACT_LIMIT:  # exact integers over 2**n, rounded once
        below, at = _exact_tail(k, n)
        return McNemar(float(k), math.ldexp(float(2 * below - at if mid_p else 2 * below), -n))
    lower, point = binomial_half_tail(k, n)
    pvalue = 2 * lower - point if mid_p else min(1.0, 2 * lower)
    return McNemar(float(k), pvalue)


def _check(value: object, name: str) -> int:
    count = check_count(value, name)
    if count > MAX_COUNT:
        raise ValueError(f"{name} must be at most 2**63 - 1, not {count}")
    return count


def binomial_half_tail(k: int, n: int) -> tuple[float, float]:
    """``(P(X <= k), P(X = k))`` for ``X ~ Binomial(n, 1/2)`` and ``0 <= k < n / 2``.

    To about 1e-14 relative, in bounded time (see the module's notes).

    >>> binomial_half_tail(3, 13)   # (1 + 13 + 78 + 286) / 8192 and 286 / 8192
    (0.046142578125, 0.034912109375)
    """
    if n <= _EXACT_LIMIT:  # exact integers over 2**n, rounded once
        below, at = _exact_tail(k, n)
        return math.ldexp(float(below), -n), math.ldexp(float(at), -n)
    point, log_point = _point(k, n)
    if k == 0:
        return point, point
    # The terms fall at least as fast as the ratio at k, P(X = k - 1) / P(X = k): summed
    # directly when that takes _DIRECT_TERMS terms at most.
    first = k / (n - k + 1)
    if k > _DIRECT_TERMS and _DIRECT_TERMS * math.log(first) > _NEGLIGIBLE_LOG:
        # They fall slowly (k within a few standard deviations of n / 2): the beta integral.
        return math.exp(log_point + math.log(_beta_integral(k, n))), point
    # Sum the terms down from k: P(X = i - 1) = P(X = i) i / (n - i + 1), relative to P(X = k).
    total = term = 1.0
    for i in range(k, 0, -1):
        term *= i / (n - i + 1)
        total += term
        ratio = (i - 1) / (n - i + 2)  # the next ratio: the rest is below term r / (1 - r)
        if term * ratio < _NEGLIGIBLE * total * (1.0 - ratio):
            break
    return point * total, point


#: The most terms summed directly; a tail that needs more is taken as an integral instead.
_DIRECT_TERMS = 200
#: A rest below this fraction of the sum is left out (the terms after it fall faster still).
_NEGLIGIBLE = 2.0**-56
_NEGLIGIBLE_LOG = math.log(_NEGLIGIBLE)
#: Up to this n, the tail and the term are sums of exact binomial coefficients over 2**n,
#: rounded once (beyond, exact coefficients cost more than Loader's form: tens of
#: microseconds at n = 1000).
_EXACT_LIMIT = 64


def _exact_tail(k: int, n: int) -> tuple[int, int]:
    """``(sum of C(n, i) for i <= k, C(n, k))``: the tail and the term, times ``2**n``, exactly."""
    term = math.comb(n, k)
    total, i = term, k
    while i > 0:
        term = term * i // (n - i + 1)
        i -= 1
        total += term
    return total, math.comb(n, k)


def _point(k: int, n: int) -> tuple[float, float]:
    """``P(X = k)`` for ``X ~ Binomial(n, 1/2)``, and its logarithm (finite even when it underflows)."""
    if k == 0:
        log_value = -n * _LOG_2
    else:
        half = n / 2
        offset = (2 * k - n) / 2  # k - n/2 from exact integers: k and n/2 as floats could lose it
        # Loader: ln P = stirling(n) - stirling(k) - stirling(n - k) - D(k, n/2) - D(n - k, n/2)
        #                - ln(2 pi k (n - k) / n) / 2.
        stirling = stirling_error([n, k, n - k]).tolist()
        deviances = deviance([k, n - k], [offset, -offset], [half, half]).tolist()
        exponent = (stirling[0] - stirling[1] - stirling[2]) - (deviances[0] + deviances[1])
        log_value = exponent - 0.5 * (_LOG_2PI + math.log(k) + math.log1p(-k / n))
    return math.exp(log_value), log_value


_LOG_2 = math.log(2.0)
_LOG_2PI = math.log(2.0 * math.pi)


#: Gauss-Legendre nodes and weights on [-1, 1]: the integrand is smooth (entire in x on the
#: interval) and falls by e**45 across it, which 48 nodes integrate to about 1e-14.
_SIZE = 48


@functools.cache
def _legendre() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The nodes and weights (made by the first exact test: numpy.polynomial costs
    milliseconds at import)."""
    nodes, weights = np.polynomial.legendre.leggauss(_SIZE)
    return nodes, weights

#: The integral stops where ln g is below this: the rest is below e**-45 of it.
_CUT = 45.0


def _beta_integral(k: int, n: int) -> float:
    """``(n - k) int_0^1 g(x) dx``: ``P(X <= k) / P(X = k)`` (the module's notes), for ``k < n / 2``.

    ``P(X <= k) = I_(1/2)(n - k, k + 1)``; with ``t = (1 - x) / 2`` the beta
    integral is ``2**-n int_0^1 (1 - x)**(n - k - 1) (1 + x)**k dx``, and ``1 /
    B(n - k, k + 1) = (n - k) C(n, k)``. Its integrand ``g`` has ``ln g =
    (n - k - 1) L(-x) + k L(x) - (n - 2k - 1) x``, ``L(x) = ln(1 + x) - x``:
    three terms of one sign. Since ``L(x) <= -0.3 x**2`` on [0, 1] (and
    ``L(-x) <= -x**2 / 2``), ``ln g <= -(n - 2k - 1) x - 0.3 (n - 1) x**2``, so
    the integral stops at the ``X`` where that bound reaches -45 (or at 1):
    the interval holds the whole fall of ``g``, which Gauss-Legendre
    integrates at fixed cost.
    """
    gap = n - 2 * k - 1
    quadratic = 0.3 * (n - 1)
    end = min(1.0, 2 * _CUT / (gap + math.sqrt(gap * gap + 4 * quadratic * _CUT)))
    nodes, weights = _legendre()
    x = (nodes + 1.0) * (end / 2)
    both = _log1p_minus(np.concatenate((-x, x)))  # L(-x) and L(x) in one pass
    log_g = (n - k - 1) * both[:_SIZE] + k * both[_SIZE:] - gap * x
    return (n - k) * (end / 2) * float(np.dot(weights, np.exp(log_g)))


#: 1/17, 1/15, ..., 1/3: with |v| < 1/19 the next term is below 1e-22 of the first.
_ATANH_ODD = tuple(1.0 / (2 * j + 1) for j in range(8, 0, -1))


def _log1p_minus(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``ln(1 + x) - x`` for ``-1 < x < 1``, without cancellation near 0.

    Where ``|x| < 0.1``: ``ln(1 + x) = 2 atanh(v)`` with ``v = x / (2 + x)``, so
    the value is ``-x**2 / (2 + x) + 2 (v**3 / 3 + v**5 / 5 + ...)``, whose second
    part is at most a sixtieth of the first; elsewhere ``log1p(x) - x`` loses at most a
    few bits.
    """
    v = x / (2.0 + x)
    square = v * v
    series = np.full_like(x, _ATANH_ODD[0])
    for coefficient in _ATANH_ODD[1:]:
        series = series * square + coefficient
    near = -x * x / (2.0 + x) + 2.0 * v * square * series
    with np.errstate(divide="ignore"):  # log1p(-1) is -inf, only at x = -1 (t = 0): g is 0 there
        far = np.log1p(x) - x
    result: NDArray[np.float64] = np.where(np.abs(x) < 0.1, near, far)
    return result


def newcombe_difference(table: PairedTable, z: float) -> tuple[float, float, float]:
    """The difference of the two models' accuracies and its interval: ``(low, estimate, high)``.

    The estimate is ``(b - c) / n`` (model a's accuracy ``(a + b) / n`` less
    model b's ``(a + c) / n``, from the paired table's cells ``a`` both right,
    ``b`` only a right, ``c`` only b right, ``d`` both wrong). The interval is
    Newcombe's method 10 for paired proportions: each accuracy's Wilson
    interval ``(l1, u1)`` and ``(l2, u2)`` (:func:`~contingency.formulas.intervals.wilson`),
    combined with the correlation of the two models' results
    ``phi = (a d - b c) / sqrt((a + b)(c + d)(a + c)(b + d))`` (0 when a
    margin is empty)::

        low  = D - sqrt((p1 - l1)**2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)**2)
        high = D + sqrt((u1 - p1)**2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)**2)

    Unlike the Wald interval ``D ± z sqrt(...)`` it stays within [-1, 1] and
    covers close to its level with few discordant results. ``z`` is the
    normal quantile of the level; the table must hold a result.

    Reference: R. G. Newcombe, "Improved confidence intervals for the
    difference between binomial proportions based on paired data",
    Statistics in Medicine 17 (1998) 2635-2650 (method 10).

    >>> low, estimate, high = newcombe_difference(PairedTable(3, 9, 0, 2), 1.959963984540054)
    >>> round(low, 4), round(estimate, 4), round(high, 4)
    (0.3178, 0.6429, 0.7968)
    """
    a, b, c, d = table
    n = a + b + c + d
    if n <= 0:
        raise ValueError("an interval of the difference of accuracies needs at least one result")
    p1, p2 = (a + b) / n, (a + c) / n
    estimate = (b - c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins else 0.0
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    # Each is a sum of squares less a product at most their sum (|phi| <= 1): rounding alone can
    # take it below zero, by an ulp.
    return (max(-1.0, estimate - math.sqrt(max(below, 0.0))), estimate,
            min(1.0, estimate + math.sqrt(max(above, 0.0))))
