"""Confidence intervals of scores, as pure functions of counts: proportions, F1, macro averages.

Glossary: the cells ``a b c d`` of :mod:`contingency.formulas.classification`;
a *proportion* is ``successes / trials`` of independent trials (results);
``z`` is the standard normal quantile of a two-sided ``level``,
``z = -Phi^-1((1 - level) / 2)`` (:func:`normal_quantile`, from the standard
library's :class:`statistics.NormalDist`, computed from the tail).

Proportions (each a function of ``(successes, trials)``; ``p = successes / trials``,
``n = trials``):

- :func:`wilson` (Wilson 1927): the ``p`` whose score test does not reject,
  ``(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``;
- :func:`agresti_coull` (Agresti and Coull 1998): the Wald interval around
  ``p~ = (successes + z²/2) / (n + z²)`` with ``n~ = n + z²`` trials;
- :func:`clopper_pearson` (Clopper and Pearson 1934): the exact interval,
  quantiles of Beta(s, n - s + 1) and Beta(s + 1, n - s);
- :func:`jeffreys` (Brown, Cai and DasGupta 2001): the equal-tailed interval of
  the posterior Beta(s + 1/2, n - s + 1/2) under Jeffreys' prior, 0 and 1 at
  the ends (no success, no failure) as they advise;
- :func:`wald`: ``p ± z sqrt(p (1 - p) / n)``, the delta method of a proportion;
- :func:`proportion_posterior`: equal-tailed quantiles of draws from
  Beta(s + 1, n - s + 1), the uniform prior of Goutte and Gaussier (2005).

F1 and the macro averages, by the delta method on the multinomial counts
(the variance of a smooth function ``g`` of the cell shares ``p`` of ``n``
independent results is ``grad g' (diag p - p p') grad g / n``):

- :func:`f1_variance` of one 2 x 2 table: ``4 a (b + c)(a + b + c) / (2a + b + c)**4``;
- :func:`precision_variance` and :func:`recall_variance`: the binomial
  ``P (1 - P) / (a + b)`` and ``R (1 - R) / (a + c)``;
- :func:`macro_variance`: macro F1, precision or recall of a K x K confusion
  matrix of single-label results (Takahashi, Yamamoto, Kuchiba and Koyama 2022);
  the derivation, and the form an accumulator keeps running, are in its docstring;
- :func:`f1_posterior`: draws of ``2U / (2U + V + W)`` with ``U, V, W`` gamma
  variates of shapes ``a + 1, b + 1, c + 1`` (Goutte and Gaussier 2005: F1
  under a uniform Dirichlet posterior on the table).

Pair-counting scores of two partitions (Rand index, pair precision, recall,
F1, Jaccard): :func:`pair_variance`, the delta method of a ratio of two
U-statistics over the pairs of elements (Hoeffding 1948), from the table's
non-empty cells (:data:`PAIR_RATIOS` names each score's two pair counts).

:func:`normal_bounds` turns an estimate and its variance into bounds, clipped
to [0, 1]. Every bound function returns ``(low, high)``; :class:`Interval`
adds the estimate. SciPy is needed by the beta quantiles only
(:func:`beta_quantile`, the ``stats`` extra), imported by the first call.

References: E. B. Wilson, JASA 22 (1927) 209-212; A. Agresti and B. A. Coull,
The American Statistician 52 (1998) 119-126; C. J. Clopper and E. S. Pearson,
Biometrika 26 (1934) 404-413; L. D. Brown, T. T. Cai and A. DasGupta,
Statistical Science 16 (2001) 101-133; C. Goutte and E. Gaussier, ECIR 2005,
LNCS 3408, 345-359; K. Takahashi, K. Yamamoto, A. Kuchiba and T. Koyama,
Applied Intelligence 52 (2022) 4961-4972; W. Hoeffding, "A class of
statistics with asymptotically normal distribution", Annals of Mathematical
Statistics 19 (1948) 293-325.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from contingency.formulas._arguments import call_prefix, check_choice
from contingency.formulas._numeric import EXACT_FLOAT_BOUND, shown
from contingency.formulas._saddle import deviance
from contingency.formulas.partition import TableCells

__all__ = [
    "LEVELS_SEEN",
    "MAX_DRAWS",
    "METHODS",
    "PAIR_RATIOS",
    "PROPORTION_METHODS",
    "SHARES",
    "VARIANCES",
    "Interval",
    "agresti_coull",
    "beta_quantile",
    "check_draws",
    "check_level",
    "check_seed",
    "clopper_pearson",
    "f1_posterior",
    "f1_slope",
    "f1_variance",
    "jeffreys",
    "macro_variance",
    "normal_bounds",
    "normal_quantile",
    "pair_variance",
    "precision_variance",
    "proportion_bounds",
    "proportion_posterior",
    "recall_variance",
    "variance_bits",
    "wald",
    "wilson",
    "wilson_columns",
]


class Interval(NamedTuple):
    """A confidence interval: ``low <= estimate <= high``, where ``estimate`` is the score as read."""

    low: float
    estimate: float
    high: float


#: The methods of proportions, in the order the docs present them.
PROPORTION_METHODS = ("wilson", "agresti_coull", "clopper_pearson", "jeffreys", "delta", "posterior")
#: Every method name an accumulator's ``interval`` takes.
METHODS = PROPORTION_METHODS
_STATS = 'clopper_pearson and jeffreys intervals need SciPy: python -m pip install "contingency[stats]"'

#: Each proportion score of one 2 x 2 table as ``(successes, trials)`` of its cells ``a b c d``:
#: the one place that says which results a share counts. Each trial is one result: precision
#: counts the results that assigned the category, recall those that have it as correct,
#: specificity those that do not, accuracy and error every result, Jaccard those naming it.
SHARES: dict[str, Callable[[int, int, int, int], tuple[int, int]]] = {
    "precision": lambda a, b, c, d: (a, a + b),
    "recall": lambda a, b, c, d: (a, a + c),
    "specificity": lambda a, b, c, d: (d, d + b),
    "accuracy": lambda a, b, c, d: (a + d, a + b + c + d),
    "error": lambda a, b, c, d: (b + c, a + b + c + d),
    "jaccard": lambda a, b, c, d: (a, a + b + c),
}


def check_level(level: object, name: str = "level", where: str | None = None) -> float:
    """``level`` as a float if it is a number strictly between 0 and 1, else ``ValueError``
    naming it as ``name`` (``intervals`` for the ``scores(intervals=...)`` of the accumulators)
    and the call ``where``.

    >>> check_level(0.95)
    0.95
    >>> check_level(1)
    Traceback (most recent call last):
    ...
    ValueError: level must be a number between 0 and 1 (exclusive), such as 0.95, not 1
    """
    if (isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating))
            or not 0 < level < 1):
        raise ValueError(f"{call_prefix(where)}{name} must be a number between 0 and 1 "
                         f"(exclusive), such as 0.95, not {shown(level)}")
    return float(level)


#: ``z`` of each level met so far (checked when first met): its keys are levels known good.
LEVELS_SEEN: dict[float, float] = {}


def normal_quantile(level: float) -> float:
    """The two-sided standard normal quantile ``z`` of ``level``: ``P(|Z| <= z) = level``.

    Computed from the tail, ``z = -Phi^-1((1 - level) / 2)``: ``1 - level`` is
    exact for every level from 1/2 on (Sterbenz), and the quantile of a small
    probability keeps its relative accuracy, where ``Phi^-1(0.5 + level / 2)``
    would round the tail away first (``z`` off by 2e-6 at ``1 - 1e-12``). Every
    level ``check_level`` takes has one, the largest double below 1 included.

    >>> round(normal_quantile(0.95), 10)
    1.9599639845
    >>> round(normal_quantile(0.9999999999999999), 6)  # the largest double below 1
    8.292361
    """
    # Only a float is answered from the cache: 0.375 + 0j is equal to 0.375, and refused.
    z = LEVELS_SEEN.get(level) if type(level) is float else None
    if z is None:
        level = check_level(level)
        if len(LEVELS_SEEN) >= 64:  # a loop over many levels keeps no more than these
            LEVELS_SEEN.clear()
        from statistics import NormalDist  # (statistics costs milliseconds at import)

        z = LEVELS_SEEN[level] = -NormalDist().inv_cdf((1.0 - level) / 2)
    return z


def _share(successes: int, trials: int) -> float:
    return successes / trials  # two ints: correctly rounded at any size


def wilson(successes: int, trials: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials``: ``(low, high)``.

    The bounds are the roots ``x`` of ``(x - p)**2 = z**2 x (1 - x) / n``:
    ``(p + z²/2n ± z sqrt(p (1 - p)/n + z²/4n²)) / (1 + z²/n)``. The bound
    nearer 0 (or 1) is computed from the other through the product of the
    roots, ``p² / (1 + z²/n)`` (of ``1 - p`` for the upper side), so it keeps
    its relative accuracy however small it is; the bounds are exactly 0 with
    no success and 1 with no failure. It covers close to ``level`` even for
    few trials and shares near 0 or 1, where the Wald interval fails: the
    default of every accumulator. Needs ``trials > 0``.

    Reference: E. B. Wilson, "Probable inference, the law of succession, and
    statistical inference", JASA 22 (1927) 209-212.

    >>> [round(bound, 6) for bound in wilson(8, 10, 1.959963984540054)]
    [0.490162, 0.943318]
    >>> wilson(0, 5, 2.0)[0], wilson(5, 5, 2.0)[1]
    (0.0, 1.0)
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    # Counts below 2**53 are exact floats, and a float quotient is correctly rounded, as the
    # quotient of two ints is at any size (but slower): the same shares either way.
    t = float(trials) if trials < EXACT_FLOAT_BOUND else trials
    p = successes / t
    q = (trials - successes) / t
    z2n = z * z / t
    spread = z * math.sqrt(p * q / t + z2n / (4 * t))
    # The roots' product is p² / (1 + z²/n): the bound near 0 is p² over the other bound's
    # numerator, without the cancellation of p + z²/2n - spread (likewise with q near 1).
    if successes * 2 <= trials:
        far = p + z2n / 2 + spread
        low, high = (p * p / far if successes else 0.0), far / (1.0 + z2n)
    else:
        far = q + z2n / 2 + spread
        low, high = (p + z2n / 2 - spread) / (1.0 + z2n), (1.0 - q * q / far if q else 1.0)
    return (low if low > 0.0 else 0.0), (high if high < 1.0 else 1.0)


def wilson_columns(successes: ArrayLike, trials: ArrayLike, z: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilson` of each pair of two columns of counts: ``(low, high)``, NaN where ``trials`` is 0.

    The very operations of :func:`wilson`, in its order, on the same doubles,
    so each bound is :func:`wilson`'s bit for bit (a test compares them); for
    counts below ``2**53`` (exact doubles; the caller takes :func:`wilson`
    past them). What a table of a million categories' intervals costs in
    numpy rather than in a million calls.

    >>> low, high = wilson_columns([8, 0, 0], [10, 5, 0], 1.959963984540054)
    >>> [round(bound, 6) for bound in low[:2].tolist()], bool(high[1] == wilson(0, 5, 1.959963984540054)[1])
    ([0.490162, 0.0], True)
    >>> bool(np.isnan(low[2]) and np.isnan(high[2]))
    True
    """
    s = np.asarray(successes, dtype=np.int64)
    n = np.asarray(trials, dtype=np.int64)
    if s.size and (int(n.max()) >= EXACT_FLOAT_BOUND or int(s.min()) < 0 or bool((s > n).any())):
        raise ValueError("wilson_columns takes counts 0 <= successes <= trials < 2**53")
    t = n.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # no trial: NaN, set below
        p = s / t
        q = (n - s) / t
        z2n = z * z / t
        spread = z * np.sqrt(p * q / t + z2n / (4 * t))
        # As in wilson: the bound near 0 (near 1) from the roots' product p² / (1 + z²/n).
        far = np.where(s * 2 <= n, p, q) + z2n / 2 + spread
        low = np.where(s * 2 <= n, np.where(s != 0, p * p / far, 0.0),
                       (p + z2n / 2 - spread) / (1.0 + z2n))
        high = np.where(s * 2 <= n, far / (1.0 + z2n), np.where(q != 0, 1.0 - q * q / far, 1.0))
    low = np.where(low > 0.0, low, 0.0)
    high = np.where(high < 1.0, high, 1.0)
    undefined = n <= 0
    return np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)


def agresti_coull(successes: int, trials: int, z: float) -> tuple[float, float]:
    """The Agresti-Coull interval: Wald's around ``(s + z²/2) / (n + z²)`` with ``n + z²`` trials.

    ``p~ ± z sqrt(p~ (1 - p~) / (n + z²))``, clipped to [0, 1]. Simple and
    slightly conservative; close to Wilson's for 40 trials or more.

    Reference: A. Agresti and B. A. Coull, "Approximate is better than 'exact'
    for interval estimation of binomial proportions", The American
    Statistician 52 (1998) 119-126.

    >>> [round(bound, 6) for bound in agresti_coull(8, 10, 1.959963984540054)]
    [0.479368, 0.954113]
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    z2 = z * z
    tilde = trials + z2
    centre = (successes + z2 / 2) / tilde
    spread = z * math.sqrt(centre * (1.0 - centre) / tilde)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def wald(successes: int, trials: int, z: float) -> tuple[float, float]:
    """The Wald interval ``p ± z sqrt(p (1 - p) / n)``, clipped to [0, 1]: the delta method.

    Zero width with no success or no failure, and short of ``level`` for few
    trials or shares near 0 or 1 (Brown, Cai and DasGupta 2001): prefer
    :func:`wilson`. It is the interval of micro F1 of single-label results in
    Takahashi et al. (2022), whose micro F1 is the share of results right.

    >>> [round(bound, 6) for bound in wald(8, 10, 1.959963984540054)]
    [0.552082, 1.0]
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    p = _share(successes, trials)
    return normal_bounds(p, p * _share(trials - successes, trials) / trials, z)


#: From this many of each (``min(alpha, beta)``), :func:`beta_quantile` takes the tails from
#: Temme's uniform form (:func:`_uniform_tail`): 1e-14 of the tail there (a test compares it
#: with a 40-digit quadrature), better beyond; below, Boost's, which is good there.
UNIFORM_FROM = 2**30


def beta_quantile(probability: float, alpha: float | Fraction, beta: float | Fraction, *,
                  upper: bool = False) -> float:
    """The ``probability`` quantile of Beta(alpha, beta) (``upper``: of the upper tail).

    The root ``x`` of ``P(X <= x) = probability`` (``P(X >= x)`` with ``upper``),
    to the last bit the tail can tell: Brent's method from a bracket grown
    around a start, then bisection of the doubles next to it. The tail is
    SciPy's regularized incomplete beta function (``special.betainc``,
    ``betaincc``: Boost's ``ibeta``) while ``min(alpha, beta) < 2**30``, and
    Temme's uniform asymptotic form from there on (:func:`_uniform_tail`), where
    Boost's is not reliable (NaN within 0.05 standard deviations of the mean past
    ``2**55``; 7e-5 off at ``alpha == beta == 2**39``). SciPy's own quantile
    (``ibeta_inv``) is only the start below ``2**30``: its iteration stops short
    (7e-12 of the bound for one success in ``2**20`` results, 21% for 100
    successes in ``2**62``, and the bound past the estimate at ``2**54``).
    ``alpha`` and ``beta`` are taken exactly (a ``Fraction`` for a half-integer
    past ``2**52``). A few tens of evaluations: under a millisecond.

    SciPy is imported here, at the first call: without it this raises
    ``ImportError`` naming the ``stats`` extra.

    >>> round(beta_quantile(0.025, 8, 3), 12), round(beta_quantile(0.025, 9, 2, upper=True), 12)
    (0.443904537692, 0.974789273673)
    """
    try:
        from scipy import optimize, special  # type: ignore[import-untyped, unused-ignore]
        from scipy.stats import beta as beta_distribution  # type: ignore[import-untyped, unused-ignore]
    except ImportError as missing:
        raise ImportError(_STATS) from missing
    tail: Callable[[float], float]
    if min(alpha, beta) >= UNIFORM_FROM:
        shapes = Fraction(alpha), Fraction(beta)

        def tail(x: float) -> float:
            return _uniform_tail(*shapes, x, upper=upper)

        mean = float(shapes[0] / (shapes[0] + shapes[1]))
        from statistics import NormalDist

        z = NormalDist().inv_cdf(probability)  # the normal approximation: within O(1/n)
        start = mean + (-z if upper else z) * math.sqrt(mean * (1.0 - mean) / float(sum(shapes)))
    else:
        a, b = float(alpha), float(beta)

        def tail(x: float) -> float:
            return float(special.betaincc(a, b, x) if upper else special.betainc(a, b, x))

        start = float(beta_distribution.isf(probability, a, b) if upper
                      else beta_distribution.ppf(probability, a, b))
    if not 0.0 < start < 1.0:  # (NaN where Boost's iteration fails)
        start = float(Fraction(alpha) / (Fraction(alpha) + Fraction(beta)))

    def excess(x: float) -> float:  # increasing in x; 0 at the quantile
        return probability - tail(x) if upper else tail(x) - probability

    at_start = excess(start)
    if at_start == 0.0:
        return start
    # A bracket around the start: steps of 2**-44, 2**-38, ... of the way to 0 (or to 1), where
    # excess is of known sign (-probability, or probability - 1, at 0; the opposite at 1).
    low, high, step = start, start, 2.0**-44
    if at_start > 0.0:  # the root is below the start
        while True:
            high, low = low, (start - start * step if step < 1.0 else 0.0)
            if low == 0.0 or excess(low) <= 0.0:
                break
            step *= 64.0
    else:
        while True:
            low, high = high, (start + (1.0 - start) * step if step < 1.0 else 1.0)
            if high == 1.0 or excess(high) >= 0.0:
                break
            step *= 64.0
    root = float(optimize.brentq(excess, low, high, xtol=1e-300, rtol=4 * 2.0**-52))
    return _last_bits(excess, root)


def _uniform_tail(a: Fraction, b: Fraction, x: float, *, upper: bool) -> float:
    """``P(X <= x)`` (``upper``: ``P(X >= x)``) of ``X ~ Beta(a, b)``, by Temme's uniform form.

    With ``r = a + b`` and ``w`` the signed root of the deviance, ``w²/2 =
    D(a, r x) + D(b, r (1 - x))`` (:func:`contingency.formulas._saddle.deviance`,
    without cancellation; ``w`` of the sign of ``x - a / r``), and ``u = (r x - a)
    / sqrt(a b / r)`` the standardized distance: ``P(X <= x) = Phi(w) + phi(w) (1/w
    - 1/u)``, the first term of Temme's expansion, as Lugannani and Rice write it.
    What the next terms add falls fast with ``min(a, b)``: against a 40-digit
    quadrature, 1e-7 of the tail at ``2**10``, 4e-12 at ``2**20``, within 1e-14
    from ``2**30`` on (tests), and a quantile, where the tail's slope is the
    density, is far closer still. ``r x - a`` is taken exactly from ``x`` and
    the exact shapes: as a float product, ``r x`` would be 512 off at ``2**62``,
    1e-7 of the distance from the mean that the tail is a function of.

    References: N. M. Temme, "Asymptotic inversion of the incomplete beta
    function", J. Comput. Appl. Math. 41 (1992) 145-157; R. Lugannani and S. Rice,
    "Saddle point approximation for the distribution of the sum of independent
    random variables", Adv. Appl. Prob. 12 (1980) 475-490.
    """
    if not 0.0 < x < 1.0:
        return float((x >= 1.0) != upper)  # P(X <= 0) = 0, P(X >= 0) = 1, and so on
    total = a + b
    gap = a - total * Fraction(x)  # a - r x, exactly
    if not gap:  # x is the mean, where the form is 0/0: the next double down instead
        x = math.nextafter(x, 0.0)
        gap = a - total * Fraction(x)
    at = total * Fraction(x)
    deviances = deviance([float(a), float(b)], [float(gap), -float(gap)],
                         [float(at), float(total - at)])
    w = math.copysign(math.sqrt(2.0 * float(deviances.sum())), -float(gap))
    u = -float(gap) / math.sqrt(float(a * b / total))
    correction = math.exp(-0.5 * w * w) / _SQRT_2PI * (1.0 / w - 1.0 / u)
    if upper:
        return 0.5 * math.erfc(w / _SQRT_2) - correction
    return 0.5 * math.erfc(-w / _SQRT_2) + correction


_SQRT_2 = math.sqrt(2.0)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.int64))


def _double(bits: int) -> float:
    return float(np.int64(bits).view(np.float64))


_ONE_BITS = _bits(1.0)


def _last_bits(excess: Callable[[float], float], root: float) -> float:
    """The double in [0, 1] where ``excess`` (increasing, negative at 0, positive at 1) changes
    sign, from ``root`` a few units in the last place off (Brent's tolerance, ``4 * 2**-52`` of
    the root, is 8 of them below 1): the doubles' bit patterns, in order, bisected."""
    low = high = _bits(root)
    step = 1
    while low > 0 and excess(_double(low)) > 0.0:
        low, step = max(0, low - step), step * 2
    step = 1
    while high < _ONE_BITS and excess(_double(high)) < 0.0:
        high, step = min(_ONE_BITS, high + step), step * 2
    while high - low > 1:
        middle = (low + high) // 2
        if excess(_double(middle)) < 0.0:
            low = middle
        else:
            high = middle
    below, above = _double(low), _double(high)
    return below if abs(excess(below)) <= abs(excess(above)) else above


def clopper_pearson(successes: int, trials: int, level: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval: Beta(s, n - s + 1) and Beta(s + 1, n - s) quantiles.

    Its coverage is at least ``level`` for every true share, so it is wider
    than the others (conservative): prefer it when falling short of the
    nominal level is not acceptable. 0 with no success, 1 with no failure.
    Needs SciPy (``contingency[stats]``).

    Reference: C. J. Clopper and E. S. Pearson, "The use of confidence or
    fiducial limits illustrated in the case of the binomial", Biometrika 26
    (1934) 404-413.
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    tail = (1.0 - check_level(level)) / 2
    failures = trials - successes
    low = beta_quantile(tail, successes, failures + 1) if successes else 0.0
    high = beta_quantile(tail, successes + 1, failures, upper=True) if failures else 1.0
    return low, high


def jeffreys(successes: int, trials: int, level: float) -> tuple[float, float]:
    """The Jeffreys interval: equal tails of Beta(s + 1/2, n - s + 1/2), 0 and 1 at the ends.

    The posterior of the share under Jeffreys' prior Beta(1/2, 1/2); its
    coverage is close to ``level`` on average, like Wilson's, with equal tails.
    As Brown, Cai and DasGupta advise, the lower bound is 0 with no success and
    the upper bound 1 with no failure (statsmodels' ``proportion_confint``
    leaves the quantiles there). Needs SciPy (``contingency[stats]``).

    Reference: L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for
    a binomial proportion", Statistical Science 16 (2001) 101-133.
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    tail = (1.0 - check_level(level)) / 2
    failures = trials - successes
    shapes = Fraction(2 * int(successes) + 1, 2), Fraction(2 * int(failures) + 1, 2)  # (exact)
    low = beta_quantile(tail, *shapes) if successes else 0.0
    high = beta_quantile(tail, *shapes, upper=True) if failures else 1.0
    return low, high


def _generator(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


def _quantiles(draws: Any, level: float) -> tuple[float, float]:
    """The equal-tailed ``level`` interval of the draws."""
    tail = (1.0 - level) / 2
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    return float(low), float(high)


#: The most draws a posterior interval takes: 10**7 float64 draws are 80 MB an array (F1's
#: posterior holds four at once); the quantiles of so many are already within about 1e-4.
MAX_DRAWS = 10**7


def check_draws(draws: object) -> int:
    """``draws`` as an int if it is a whole number from 1 to :data:`MAX_DRAWS`, else ``ValueError``.

    >>> check_draws(np.int64(500))
    500
    >>> check_draws(10**12)
    Traceback (most recent call last):
    ...
    ValueError: draws must be a whole number from 1 to 10000000, not 1000000000000
    """
    if (isinstance(draws, (bool, np.bool_)) or not isinstance(draws, (int, np.integer))
            or not 1 <= draws <= MAX_DRAWS):
        raise ValueError(f"draws must be a whole number from 1 to {MAX_DRAWS}, not {draws!r}")
    return int(draws)


def check_seed(seed: object) -> int | None:
    """``seed`` as an int if it is a non-negative whole number (numpy's seeds), ``None`` if None,
    else ``ValueError``.

    >>> check_seed(np.uint8(7)), check_seed(None)
    (7, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None or a non-negative whole number, not -1
    """
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be None or a non-negative whole number, not {seed!r}")
    return int(seed)


def proportion_posterior(successes: int, trials: int, level: float, *, seed: int | None = 0,
                         draws: int = 10_000) -> tuple[float, float]:
    """Equal tails of ``draws`` draws from Beta(s + 1, n - s + 1), the uniform prior's posterior.

    Goutte and Gaussier's posterior of precision and recall (their λ = 1: the
    posterior's mode is the observed share). The same counts and ``seed`` give
    the same bounds (numpy's ``default_rng``); :func:`jeffreys` gives exact
    quantiles of a posterior without drawing.

    >>> proportion_posterior(8, 10, 0.95, seed=1) == proportion_posterior(8, 10, 0.95, seed=1)
    True
    """
    sample = _generator(check_seed(seed)).beta(successes + 1.0, trials - successes + 1.0,
                                               size=check_draws(draws))
    return _quantiles(sample, level)


def proportion_bounds(successes: int, trials: int, level: float, method: str, *,
                      seed: int | None = 0, draws: int = 10_000) -> tuple[float, float]:
    """The ``level`` interval of ``successes / trials`` by ``method`` (one of :data:`PROPORTION_METHODS`).

    >>> [round(x, 6) for x in proportion_bounds(8, 10, 0.95, "wilson")]
    [0.490162, 0.943318]
    >>> proportion_bounds(8, 10, 0.95, "bayes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: proportion_bounds: method must be one of 'wilson', 'agresti_coull', ..., not 'bayes'
    """
    method = check_choice(method, "method", PROPORTION_METHODS,  # type: ignore[assignment]
                          "proportion_bounds")
    if method == "wilson":
        return wilson(successes, trials, normal_quantile(level))
    if method == "agresti_coull":
        return agresti_coull(successes, trials, normal_quantile(level))
    if method == "delta":
        return wald(successes, trials, normal_quantile(level))
    if method == "clopper_pearson":
        return clopper_pearson(successes, trials, level)
    if method == "jeffreys":
        return jeffreys(successes, trials, level)
    return proportion_posterior(successes, trials, level, seed=seed, draws=draws)


def normal_bounds(estimate: float, variance: float, z: float) -> tuple[float, float]:
    """``estimate ± z sqrt(variance)``, clipped to [0, 1] (every score here lies in it).

    >>> normal_bounds(0.5, 0.01, 2.0)
    (0.3, 0.7)
    """
    spread = z * math.sqrt(variance)
    return max(0.0, estimate - spread), min(1.0, estimate + spread)


# The delta method ---------------------------------------------------------------------------


def f1_variance(a: int, b: int, c: int) -> float:
    """The delta-method variance of F1 = ``2a / (2a + b + c)`` of one table: ``4a(b+c)(a+b+c) / (2a+b+c)**4``.

    With the table's cells multinomial over ``n`` results and shares ``p``,
    the gradient of F1 is ``2(p_b + p_c)/S²`` in ``p_a``, ``-2 p_a / S²`` in
    ``p_b`` and ``p_c`` and 0 in ``p_d`` (``S = 2p_a + p_b + p_c``); F1 does
    not change when every share is scaled, so ``sum p_i g_i = 0`` and the
    variance is ``sum p_i g_i² / n``, which in counts is the expression above:
    neither ``d`` nor ``n`` appears. 0 when F1 is 0 or 1 (no correct
    assignment, or no error) and for an empty table (F1 then constant).

    >>> f1_variance(8, 2, 2)  # 4 * 8 * 4 * 12 / 20**4
    0.0096
    """
    if not a or not b + c:
        return 0.0
    s = 2 * a + b + c
    return 4 * a * (b + c) * (a + b + c) / (s * s * s * s)


def precision_variance(a: int, b: int, c: int) -> float:
    """The variance of precision ``a / (a + b)``: the binomial ``P (1 - P) / (a + b)`` = ``a b / (a + b)**3``.

    >>> precision_variance(8, 2, 5)
    0.016
    """
    if not a or not b:
        return 0.0
    q = a + b
    return a * b / (q * q * q)


def recall_variance(a: int, b: int, c: int) -> float:
    """The variance of recall ``a / (a + c)``: ``a c / (a + c)**3``.

    >>> recall_variance(8, 5, 2)
    0.016
    """
    return precision_variance(a, c, b)


#: Each per-table score's delta-method variance in counts, ``(a, b, c) -> float``.
VARIANCES: dict[str, Callable[[int, int, int], float]] = {
    "precision": precision_variance,
    "recall": recall_variance,
    "f1": f1_variance,
}


def f1_slope(a: int, b: int, c: int) -> float:
    """``v = F1 / (2a + b + c) = 2a / (2a + b + c)**2``, the factor of a category in macro F1's coupling.

    >>> f1_slope(1, 1, 0)
    0.2222222222222222
    """
    if not a:
        return 0.0
    s = 2 * a + b + c
    return 2 * a / (s * s)


def variance_bits(score: str, scale: int = 0) -> int:
    """The exponent ``e`` at which every variance term of ``score`` is an integer, ``term * 2**e``.

    Counts in units of ``2**-scale`` are below ``2**(63 + scale)``. A precision
    or recall term ``a b / (a + b)**3`` is then at least ``2**-(129 + 2 scale)``
    and, a double, has its last bit worth at least ``2**-(181 + 2 scale)``:
    ``192 + 2 scale`` bits hold it. F1's term is at least ``2**-(133 + 2 scale)``,
    and its slope :func:`f1_slope` at least ``2**-(131 + 2 scale)``: each is
    held in ``192 + 2 scale`` bits, and the products of two slopes in twice
    that, the unit of every F1 sum.
    """
    base = 192 + 2 * scale
    return 2 * base if score == "f1" else base


def _scaled(value: float, bits: int) -> int:
    """``value * 2**bits``, exactly: an integer (see :func:`variance_bits`)."""
    return int(math.ldexp(value, bits))


def macro_variance(a: ArrayLike, b: ArrayLike, c: ArrayLike, score: str, *,
                   confusion: Mapping[tuple[int, int], int] | None = None,
                   averaged: int | None = None) -> float:
    """The delta-method variance of macro precision, recall or F1 of single-label results.

    ``a``, ``b``, ``c`` are the categories' cells (``a_k`` the results right
    in category ``k``, ``b_k`` those wrongly assigned it, ``c_k`` those
    wrongly not assigned it); macro F1 also needs ``confusion``, the wrong
    results by ``(correct, assigned)`` pair of category positions (the
    off-diagonal cells of the confusion matrix; the diagonal is ``a``). The
    average is over ``averaged`` categories (default: all of them, as every
    ``zero_division`` but ``"nan"`` averages).

    Derivation. The results are a multinomial sample of ``n`` over the cells
    of the K x K confusion matrix, with shares ``p_ij`` (``i`` correct, ``j``
    assigned). For ``g(p) = (1/K) sum_k score_k(p)`` the delta method gives
    ``Var = (sum_ij p_ij g_ij² - (sum_ij p_ij g_ij)²) / n`` with ``g_ij`` the
    partial derivatives; every score here is unchanged when all shares are
    scaled, so ``sum p_ij g_ij = 0``. With ``t_k``, ``q_k`` the shares of
    results correct in and assigned to ``k`` and ``s_k = t_k + q_k``:

    - precision ``P_k = p_kk / q_k`` depends on column ``k`` only:
      ``g_ij = (δ_ij - P_j) / (K q_j)``, and the sum falls apart by column into
      ``Var = (1/K²) sum_k P_k (1 - P_k) / Q_k``, ``Q_k = a_k + b_k`` in counts:
      the binomial variances, averaged (:func:`precision_variance`); recall
      likewise by row;
    - F1 ``F_k = 2 p_kk / s_k``: ``g_ij = (2 δ_ij / s_i - u_i - u_j) / K`` with
      ``u_k = F_k / s_k``. Expanding the square, in counts (``S_k = 2a_k + b_k + c_k``,
      ``v_k = F_k / S_k = 2a_k / S_k²``, ``N_ij`` the wrong results correct in
      ``i`` and assigned ``j``)::

          K² Var = sum_k a_k (2/S_k - 2v_k)² + sum_(i≠j) N_ij (v_i + v_j)²
                 = sum_k 4 a_k (b_k + c_k)(a_k + b_k + c_k) / S_k**4    (f1_variance)
                   + 2 sum_(i≠j) N_ij v_i v_j                           (the coupling)

      since the row and column of category ``k`` outside the diagonal sum to
      ``c_k`` and ``b_k``. ``n`` has cancelled: the first sum is a sum over
      categories of functions of one category's cells, which an accumulator
      keeps running like its macro averages; the coupling joins the two
      categories of each kind of error, and changes with a category's ``v_k``
      by ``Δv_k sum_l (N_kl + N_lk) v_l``: kept running too, at a cost of the
      category's confusion partners. This is Takahashi et al.'s variance
      (their ``2 (a + b) / (n r²)``), written in counts.

    Exactness: each term and slope is a double held as an exact integer
    (:func:`variance_bits`), the sums are exact integers, rounded once: the
    value depends on the counts only, not on the order of any update.

    A category whose score is undefined (nothing assigned, say) has a
    constant value and contributes nothing. Reference: K. Takahashi et al.,
    Applied Intelligence 52 (2022) 4961-4972, section 3.

    >>> # correct x: 8 right, 2 taken for y; correct y: 1 taken for x, 9 right
    >>> round(macro_variance([8, 9], [1, 2], [2, 1], "f1", confusion={(0, 1): 2, (1, 0): 1}), 9)
    0.00640529
    """
    columns = [[int(value) for value in np.asarray(cells).ravel().tolist()] for cells in (a, b, c)]
    count = len(columns[0]) if averaged is None else averaged
    if not count:
        raise ValueError("a macro average needs at least one category")
    total = macro_variance_sum(columns[0], columns[1], columns[2], score, confusion or {}, 0)
    return macro_variance_value(total, score, count, 0)


def macro_variance_sum(a: Sequence[int], b: Sequence[int], c: Sequence[int], score: str,
                       confusion: Mapping[tuple[int, int], int], scale: int) -> int:
    """``K² Var`` of :func:`macro_variance` as the exact integer ``K² Var * 2**variance_bits``.

    ``a``, ``b``, ``c`` are the categories' cells (exact counts), in the order
    ``confusion``'s positions refer to. What an accumulator's running sums hold,
    from scratch.
    """
    bits = variance_bits(score, scale)
    total = sum(map(int, map(math.ldexp, _each(a, b, c, score), repeat(bits))))  # (_scaled, in C)
    if score == "f1":
        half = bits // 2
        slopes = list(map(int, map(math.ldexp, _each(a, b, c, "slope"), repeat(half))))
        total += 2 * sum(count * slopes[i] * slopes[j] for (i, j), count in confusion.items()
                         if i != j)
    return total


#: From this many categories, :func:`_each` computes the terms on whole columns.
VECTOR_ROWS = 256
#: Each ``(a, b, c) -> float`` of :func:`macro_variance_sum` by name, and its form on columns:
#: the very operations of the scalar one on the same doubles, for ``2a + b + c < 2**13``, where
#: every product and power of counts the scalar forms take exactly is below ``2**53`` (a double
#: exactly) and one correctly rounded division gives the same quotient bit for bit.
_TERMS: dict[str, Callable[[int, int, int], float]] = {**VARIANCES, "slope": f1_slope}


def _shares_of_counts(numerator: Any, denominator: Any) -> Any:
    with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 where the term is 0
        quotient = numerator.astype(np.float64) / denominator.astype(np.float64)
    return np.where(numerator == 0, 0.0, quotient)


_TERM_COLUMNS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "precision": lambda a, b, c: _shares_of_counts(a * b, (a + b) ** 3),
    "recall": lambda a, b, c: _shares_of_counts(a * c, (a + c) ** 3),
    "f1": lambda a, b, c: _shares_of_counts(4 * a * (b + c) * (a + b + c), (2 * a + b + c) ** 4),
    "slope": lambda a, b, c: _shares_of_counts(2 * a, (2 * a + b + c) ** 2),
}


def _each(a: Sequence[int], b: Sequence[int], c: Sequence[int], name: str) -> list[float]:
    """``_TERMS[name]`` of each category's cells, on whole columns when there are many small ones."""
    if len(a) >= VECTOR_ROWS:
        try:
            columns = [np.array(column, dtype=np.int64) for column in (a, b, c)]
        except OverflowError:  # a count past int64: the scalar forms, in Python integers
            pass
        else:
            if max(int(column.max()) for column in columns) < 1 << 13 and int(
                    (2 * columns[0] + columns[1] + columns[2]).max()) < 1 << 13:
                values: list[float] = _TERM_COLUMNS[name](*columns).tolist()
                return values
    return list(map(_TERMS[name], a, b, c))


def macro_variance_value(total: int, score: str, averaged: int, scale: int) -> float:
    """The variance of a macro average from :func:`macro_variance_sum`'s integer, rounded once.

    Counts in units of ``2**-scale`` (whole counts kept finer): each term is of
    degree -1 in the counts, so the variance in results is ``2**scale`` times
    the variance in units.
    """
    return total / (averaged * averaged << (variance_bits(score, scale) - scale))


# Posterior of F1 ----------------------------------------------------------------------------


def f1_posterior(a: int, b: int, c: int, level: float, *, seed: int | None = 0,
                 draws: int = 10_000) -> tuple[float, float]:
    """Equal tails of F1's posterior: draws of ``2U / (2U + V + W)``, ``U, V, W`` gamma variates.

    Goutte and Gaussier's model: the table's cells multinomial, a uniform
    Dirichlet prior (λ = 1) on their shares; the posterior of the shares is
    Dirichlet(a + 1, b + 1, c + 1, d + 1), and F1 depends on the first three
    only, so it is ``2U / (2U + V + W)`` with independent ``U ~ Gamma(a + 1)``,
    ``V ~ Gamma(b + 1)``, ``W ~ Gamma(c + 1)`` (the shared scale cancels).
    ``draws`` draws from numpy's ``default_rng(seed)``: the same counts and seed
    give the same bounds. Unlike the delta method's, the interval has width
    when F1 is 0 or 1.

    Reference: C. Goutte and E. Gaussier, "A probabilistic interpretation of
    precision, recall and F-score, with implication for evaluation", ECIR 2005,
    LNCS 3408, 345-359.

    >>> low, high = f1_posterior(8, 2, 2, 0.95, seed=7)
    >>> 0.4 < low < 0.8 < high < 0.95
    True
    """
    generator, draws = _generator(check_seed(seed)), check_draws(draws)
    u = generator.standard_gamma(a + 1.0, size=draws)
    v = generator.standard_gamma(b + 1.0, size=draws)
    w = generator.standard_gamma(c + 1.0, size=draws)
    return _quantiles(2 * u / (2 * u + v + w), level)


# Pair-counting scores of two partitions -----------------------------------------------------

#: Each pair-counting score as the ratio of two pair counts, each written as the pairs an
#: element makes with the others: ``(same_same, same_reference, same_model, all)``
#: coefficients of the numerator and of the denominator. An element in cell ``n`` of row
#: (reference cluster) size ``a`` and column (model cluster) size ``b``, among ``N``
#: elements, is in the same cell as ``n - 1`` others, the same reference cluster as ``a - 1``,
#: the same model cluster as ``b - 1``, and pairs with ``N - 1``; the pairs on which the
#: partitions agree are ``2 (n - 1) + (N - 1) - (a - 1) - (b - 1)`` of them.
PAIR_RATIOS: dict[str, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] = {
    "rand_index": ((2, -1, -1, 1), (0, 0, 0, 1)),
    "precision": ((1, 0, 0, 0), (0, 0, 1, 0)),
    "recall": ((1, 0, 0, 0), (0, 1, 0, 0)),
    "f1": ((2, 0, 0, 0), (0, 1, 1, 0)),
    "jaccard": ((1, 0, 0, 0), (-1, 1, 1, 0)),
}


def pair_variance(cells: TableCells, score: str) -> float:
    """The delta-method variance of a pair-counting score (:data:`PAIR_RATIOS`) of ``cells``' table.

    The pairs of elements are not independent (two pairs sharing an element
    share its labels), but a pair count is a U-statistic of the elements:
    with the elements independent draws, each carrying its two labels (a
    fixed clustering applied to each), Hoeffding's projection gives the
    variance of a ratio ``S = U / V`` of two such counts as
    ``(4 / N) mean_e psi_e²``, ``psi_e = (u_e - S v_e) / mean(v)``, where
    ``u_e`` and ``v_e`` are the numerator's and denominator's pairs that
    element ``e`` makes with the others (``S`` the ratio of their sums, so
    ``psi`` has mean 0). Every element of one cell has the same ``psi``: the
    sum is over the non-empty cells. Computed in float64 (counts below
    ``2**53`` exactly). ``ValueError`` when the score is undefined (no pair in
    its denominator).

    Reference: W. Hoeffding, Annals of Mathematical Statistics 19 (1948)
    293-325; the ratio by the delta method.

    >>> from contingency.formulas.partition import table_cells
    >>> round(pair_variance(table_cells([[20, 5], [5, 20]]), "rand_index"), 6)
    0.004798
    """
    numerator, denominator = PAIR_RATIOS[score]
    counts = np.asarray(cells.counts, dtype=np.float64)
    total = float(counts.sum())
    others = np.stack([counts - 1, np.asarray(cells.row_sizes, dtype=np.float64) - 1,
                       np.asarray(cells.column_sizes, dtype=np.float64) - 1,
                       np.full_like(counts, total - 1)])
    u = np.asarray(numerator, dtype=np.float64) @ others
    v = np.asarray(denominator, dtype=np.float64) @ others
    pairs_v = float(counts @ v)  # twice the denominator's pairs
    if total < 2 or pairs_v <= 0:
        raise ValueError(f"{score} of two partitions is undefined: no pair in its denominator")
    ratio = float(counts @ u) / pairs_v
    psi = (u - ratio * v) / (pairs_v / total)
    return 4.0 / total * float(counts @ (psi * psi)) / total
