"""The expected mutual information of two partitions under the permutation model (Vinh et al.).

:func:`expected_mutual_information` sums, for every pair of distinct cluster
sizes, the hypergeometric expectation of a cell's MI term, without
cancellation and in bounded work at any count (its docstring says how).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from contingency.formulas._numeric import distinct_counts
from contingency.formulas._saddle import deviance, stirling_error
from contingency.formulas.partition._sums import as_counts, count_sum

__all__ = ["expected_mutual_information", "expected_mutual_information_and_terms"]

#: Each side's neglected hypergeometric tail mass is below 2**-TAIL_BITS (see below).
_TAIL_BITS = 128
_TAIL_LOG = _TAIL_BITS * math.log(2.0)
#: Work in chunks of about this many terms, to bound memory.
_CHUNK_TERMS = 1 << 21
#: A pair of sizes whose window holds more terms than this is summed on a grid (see below).
_WIDE_WINDOW = 1 << 11
#: The grid of a wide window has this many points on each side of its centre.
_GRID_HALF = 128


def expected_mutual_information(reference_sizes: ArrayLike, model_sizes: ArrayLike) -> float:
    """``E[MI]`` over all tables with these row and column sums (the permutation model), in nats.

    Vinh et al.'s formula: for every pair of sizes ``(a, b)`` the cell
    ``n`` follows the hypergeometric law of ``b`` draws from ``N`` elements of
    which ``a`` are marked, and contributes ``(n / N) ln(N n / (a b))``.

    How it is fast and why it loses nothing at double precision:

    1. Equal sizes are grouped: the work is per pair of *distinct* sizes,
       weighted by their multiplicities.
    2. Only the terms that can matter are summed. By Hoeffding (1963, section 6)
       the hypergeometric moment generating function is dominated by the
       binomial one, so Bernstein's inequality holds for it:
       ``P(|n - mu| >= t) <= 2 exp(-t**2 / (2 (v + t / 3)))`` with ``mu = a b / N``
       and ``v`` the binomial variance bound of the smallest of four equivalent
       draws (``n - mu`` is also ``(a - mu) - (a - n)``, ``(b - mu) - (b - n)``
       and ``(N - a - b + n) - (N - a - b + mu)``: at most twice the
       hypergeometric variance). Choosing ``t`` so that each tail is below
       ``2**-128`` and summing ``n`` in ``[mu - t, mu + t]`` leaves out a mass
       below ``2**-127`` per pair; since every term is at most
       ``(min(a, b) / N) ln N`` in size, the total left out is below
       ``K ln(N) 2**-127`` for ``K`` clusters, far below half a unit in the
       last place of any non-zero E[MI] (which is at least of order ``1 / N``).
    3. No cancellation. Since ``E[n] = mu`` exactly, ``E[(n / N) ln(n / mu)]``
       is ``E[D(n, mu)] / N`` with the deviance ``D(x, m) = x ln(x / m) + m - x
       >= 0`` (:func:`_deviance`): a sum of non-negative terms, where the plain
       form's terms have both signs and nearly cancel. Each ``n - mu`` is
       formed from exact integers (:func:`_counts_at`), so nothing depends on
       how well a float holds ``N``, ``a``, ``b`` or ``mu``.
    4. No large log-factorials. Probabilities are built outward from the mode
       with the ratio of neighbouring ones,
       ``P(n + 1) / P(n) = (a - n)(b - n) / ((n + 1)(N - a - b + n + 1))``,
       cumulated in log space, and normalised by their sum (which is 1 up to the
       neglected ``2**-127``). Differences of ``ln N!``-sized numbers, where
       float64 keeps only about 9 correct digits at ``N = 10**6`` (the source of
       scikit-learn's error of about 1e-9), never occur.
    5. Bounded work at any ``N``. A window wider than 2048 terms (a standard
       deviation of ``n`` above 53, so ``N`` above 10**4) is not summed term by
       term: :func:`_expected_wide` evaluates 257 points whatever the width,
       agrees with a 40-digit sum of every term to about 1e-15 relative, and
       has a discretisation error below ``exp(-490)`` of the value. So the work
       is at most 2048 terms per pair of distinct sizes: a 2 x 2 table with
       ``N`` near ``2**63`` costs 4 x 257 terms (it would be 4 x 10**10 term by
       term, and 213 GiB at once).

    Exactly 0 when a side has one cluster (every table is then the same).

    >>> round(expected_mutual_information([6, 6, 5], [8, 5, 4]), 12)
    0.151683707456
    >>> expected_mutual_information([4], [1, 3])
    0.0
    >>> 0 < expected_mutual_information([2**62, 2**62 - 1], [2**61, 2**63 - 1 - 2**61]) < 1e-18
    True
    """
    return expected_mutual_information_and_terms(reference_sizes, model_sizes)[0]


def expected_mutual_information_and_terms(reference_sizes: ArrayLike,
                                 model_sizes: ArrayLike) -> tuple[float, int]:
    """:func:`expected_mutual_information` and the number of terms it evaluated (the work done)."""
    reference = as_counts(reference_sizes, "reference_sizes").ravel()
    model = as_counts(model_sizes, "model_sizes").ravel()
    reference, model = reference[reference > 0], model[model > 0]
    n = count_sum(reference) if reference.size else 0
    n_model = count_sum(model) if model.size else 0
    if n != n_model:
        raise ValueError(f"reference_sizes and model_sizes must have the same total "
                         f"(they have {n} and {n_model})")
    if reference.size <= 1 or model.size <= 1:
        return 0.0, 0
    a_sizes, a_multiplicity = distinct_counts(reference)
    b_sizes, b_multiplicity = distinct_counts(model)
    # Exact integer arithmetic, in int64 when every product a b fits, else in Python ints.
    fits = n < 2**62 and float(a_sizes[-1]) * float(b_sizes[-1]) < 2.0**62
    exact: Any = np.int64 if fits else object
    a_exact = np.repeat(a_sizes, b_sizes.size).astype(exact)
    b_exact = np.tile(b_sizes, a_sizes.size).astype(exact)
    a, b = a_exact.astype(np.float64), b_exact.astype(np.float64)
    weight = np.outer(a_multiplicity, b_multiplicity).ravel().astype(np.float64)
    total = float(n)
    p_a, p_b = a / total, b / total
    variance = np.minimum(np.minimum(b, total - b) * p_a * (1 - p_a),
                          np.minimum(a, total - a) * p_b * (1 - p_b))
    third = _TAIL_LOG / 3
    reach = third + np.sqrt(third * third + 2 * _TAIL_LOG * variance) + 1.0  # +1: rounding slack

    # Each pair's window, from exact integers: n from low to low + span, summed outward
    # from low + pivot, the mode.
    product = a_exact * b_exact
    centre, remainder = product // n, product % n  # mu = centre + remainder / N
    far = np.floor(reach).astype(np.int64).astype(exact)
    low = np.maximum(np.maximum(a_exact - (n - b_exact), 0), centre - far)
    high = np.minimum(np.minimum(a_exact, b_exact), centre + 1 + far)
    mode = (a_exact + 1) * (b_exact + 1) // (n + 2)
    span = (high - low).astype(np.float64)
    pivot = (np.minimum(np.maximum(mode, low), high) - low).astype(np.float64)

    parts: list[float] = []
    terms = 0
    wide = np.flatnonzero(span >= _WIDE_WINDOW)
    step = max(1, _CHUNK_TERMS // (2 * _GRID_HALF + 1))
    for begin in range(0, wide.size, step):
        chosen = wide[begin:begin + step]
        parts.append(_expected_wide(a_exact[chosen], b_exact[chosen], centre[chosen],
                                    remainder[chosen], weight[chosen], reach[chosen], n))
        terms += chosen.size * (2 * _GRID_HALF + 1)
    narrow = np.flatnonzero(span < _WIDE_WINDOW)
    # Pairs are processed in groups of similar width (powers of two), each as a
    # dense 2-D array: rows are pairs, columns are the n of the window.
    group = np.ceil(np.log2(span[narrow] + 1)).astype(np.int64)
    for g in np.unique(group).tolist():
        members = narrow[group == g]
        width = int(span[members].max()) + 1
        step = max(1, _CHUNK_TERMS // width)
        for begin in range(0, members.size, step):
            chosen = members[begin:begin + step]
            counts = _counts_at(a_exact[chosen], b_exact[chosen], low[chosen], centre[chosen],
                                remainder[chosen], n)
            parts.append(_expected_part(counts, weight[chosen], span[chosen], pivot[chosen],
                                        width, total))
            terms += chosen.size * width
    return max(math.fsum(parts), 0.0), terms


def _counts_at(a: NDArray[Any], b: NDArray[Any], start: NDArray[Any], centre: NDArray[Any],
               remainder: NDArray[Any], n: int) -> NDArray[np.float64]:
    """For each pair and its count ``start``: ``start``, ``a - start``, ``b - start``,
    ``N - a - b + start``, ``start - mu`` and ``mu = centre + remainder / N = a b / N``.

    A (6, pairs) float array. The arguments are exact integers (int64, or
    Python ints in object arrays), so each count is formed exactly and rounded
    once: a small one is exact and a large one within 2**-53 of its value,
    however large ``N`` is; ``start - mu`` is the small exact ``start -
    centre`` less ``remainder / N``.
    """
    fraction = remainder.astype(np.float64) / float(n)
    columns = [start, a - start, b - start, (start - a) + (n - b)]
    return np.array([*(np.asarray(column, dtype=np.float64) for column in columns),
                     (start - centre).astype(np.float64) - fraction,
                     centre.astype(np.float64) + fraction], dtype=np.float64).reshape(6, -1)


def _expected_part(counts: NDArray[np.float64], weight: NDArray[np.float64],
                   span: NDArray[np.float64], pivot: NDArray[np.float64], width: int,
                   total: float) -> float:
    """The E[MI] contribution of some pairs of sizes, each summed over every count of its window."""
    first, second, third, fourth, deviation, mean = (column[:, None] for column in counts)
    k = np.arange(width, dtype=np.float64)[None, :]
    inside = k <= span[:, None]
    m2 = pivot[:, None]
    n = first + k
    # log P(n + 1) / P(n) for the n of the window (garbage past the window, masked below).
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(((second - k) * (third - k)) / ((n + 1) * (fourth + k + 1)))
    step_up = np.where((k >= m2) & (k < span[:, None]), ratio, 0.0)
    step_down = np.where((k < m2) & inside, ratio, 0.0)
    # log P(n) - log P(mode): partial sums start at the mode, where they are small.
    above = np.cumsum(step_up, axis=1)
    log_up = np.zeros_like(above)
    log_up[:, 1:] = above[:, :-1]
    log_down = np.cumsum(step_down[:, ::-1], axis=1)[:, ::-1]
    log_p = np.where(inside, log_up - log_down, -np.inf)
    probability = np.exp(log_p)
    probability /= probability.sum(axis=1, keepdims=True)
    term = np.where(inside, deviance(np.where(inside, n, 1.0), deviation + k, mean), 0.0)
    contribution = (probability * term).sum(axis=1) / total
    return math.fsum((weight * contribution).tolist())


def _expected_wide(a: NDArray[Any], b: NDArray[Any], centre: NDArray[Any],
                   remainder: NDArray[Any], weight: NDArray[np.float64],
                   reach: NDArray[np.float64], n: int) -> float:
    """The E[MI] contribution of pairs of sizes with wide windows, each from 257 points.

    A window of 2048 terms or more spans ``2 (13.3 sqrt(v) + 30)`` with ``v``
    at most twice the variance ``sigma**2`` of ``n``, so ``sigma`` is above 53;
    each ``m_i`` below is at least ``sigma**2``, so every count on the grid
    is more than 1700 away from the ends of its support.

    - The probabilities come from Loader's (2000) saddle-point form of the
      binomial law, of which the hypergeometric is a ratio:
      ``ln P(n) = const - sum_i [s(x_i) + D(x_i, m_i)] - ln(x_1 x_2 x_3 x_4) / 2``
      over ``(x_i, m_i)`` = ``(n, mu)``, ``(a - n, a - mu)``, ``(b - n, b - mu)``,
      ``(N - a - b + n, N - a - b + mu)``, with ``s`` the error of Stirling's
      formula (:func:`_stirling_error`) and ``D`` the deviance
      (:func:`_deviance`). Every ``x_i - m_i`` is ``+-(n - mu)``, so each
      ``ln P`` is accurate to a few units of 2**-52, with no ``ln N!``-sized
      differences, at any ``N`` below 2**63.
    - The sum over every count of the window is replaced by the sum over every
      ``step``-th one, ``c + j step`` for ``|j| <= 128`` around ``c = floor(mu)``
      with ``step = ceil(reach / 128)``, normalised by the same sum of
      probabilities. Both sums are trapezoid rules of one smooth, nearly
      Gaussian integrand, whose error (Poisson summation) is of relative order
      ``exp(-2 pi**2 (sigma / step)**2)``; ``sigma / step`` is above 5 on every
      wide window, which puts that below ``exp(-490)``. Against a 40-digit sum
      of every term the result agrees to about 1e-15 relative (tests/test_abuse.py).
    """
    steps = np.maximum(np.ceil(reach / _GRID_HALF), 1.0)
    start = centre - (_GRID_HALF * steps).astype(np.int64).astype(centre.dtype)
    first, second, third, fourth, deviation, _ = (
        column[:, None] for column in _counts_at(a, b, start, centre, remainder, n))
    shift = np.arange(2 * _GRID_HALF + 1, dtype=np.float64)[None, :] * steps[:, None]
    counts = (first + shift, second - shift, third - shift, fourth + shift)
    deviation = deviation + shift  # n - mu
    # Paired as (1, 4) and (2, 3), which swapping a and b leaves alone: E[MI] is symmetric.
    stirling = [stirling_error(x) for x in counts]
    deviances = [deviance(x, sign * deviation) for x, sign in zip(counts, (1, -1, -1, 1))]
    log_p = -((stirling[0] + stirling[3]) + (stirling[1] + stirling[2])
              + (deviances[0] + deviances[3]) + (deviances[1] + deviances[2])
              + 0.5 * (np.log(counts[0] * counts[3]) + np.log(counts[1] * counts[2])))
    probability = np.exp(log_p - log_p.max(axis=1, keepdims=True))
    contribution = (probability * deviances[0]).sum(axis=1) / probability.sum(axis=1) / float(n)
    return math.fsum((weight * contribution).tolist())


