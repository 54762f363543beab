"""A 40-digit oracle of beta quantiles at any count: quadrature of the density, Newton's method.

The tail ``I_x(a, b)`` (or ``1 - I_x(a, b)``) is the integral of the beta
density written in logarithms, ``exp(ln Γ(a + b) - ln Γ(a) - ln Γ(b) + (a - 1)
ln t + (b - 1) ln(1 - t))`` (mpmath's ``loggamma``, tanh-sinh quadrature), at 40
digits: at ``a + b`` near ``2**63`` the huge terms cancel about 19 digits and
leave 20. The integral runs from ``x`` over 80 of the density's scales (its
standard deviation, and the gamma-like scales ``x / sqrt(a)`` and
``(1 - x) / sqrt(b)`` near the ends), past which it is below ``e**-80`` of its
value at ``x``. The quantile is the root of ``tail = p``, by Newton's method
safeguarded by bisection in [0, 1]: a start far off costs time, never the
answer. Independent of SciPy and of the code it checks.
"""

from __future__ import annotations

from mpmath import mp, mpf

DIGITS = 40


def tail_and_density(a: float, b: float, x: mpf, *, upper: bool) -> tuple[mpf, mpf]:
    """``(P(X <= x), density at x)`` of ``X ~ Beta(a, b)`` (``upper``: ``P(X >= x)``)."""
    a, b = mpf(a), mpf(b)
    if not 0 < x < 1:
        return (mpf(0) if (x <= 0) != upper else mpf(1)), mpf(0)
    log_norm = mp.loggamma(a + b) - mp.loggamma(a) - mp.loggamma(b)

    def density(t: mpf) -> mpf:  # (a power of 0 where a or b is 1: 0 * ln 0 is no term)
        return mp.exp(log_norm + (a - 1 and (a - 1) * mp.log(t)) + (b - 1 and (b - 1) * mp.log1p(-t)))

    sd = mp.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    reach = 80 * (sd + x / mp.sqrt(a) + (1 - x) / mp.sqrt(b))
    if upper:
        end = min(mpf(1), x + reach)
        points = sorted({x, *(p for p in (x + sd / 8, x + sd, x + 8 * sd) if x < p < end), end})
    else:
        end = max(mpf(0), x - reach)
        points = sorted({end, *(p for p in (x - 8 * sd, x - sd, x - sd / 8) if end < p < x), x})
    return mp.quad(density, points), density(x)


def beta_quantile(p: float, a: float, b: float, start: float, *, upper: bool = False) -> float:
    """The ``p`` quantile of Beta(a, b) (``upper``: of its upper tail), rounded once to float."""
    with mp.workdps(DIGITS):
        target, low, high = mpf(p), mpf(0), mpf(1)
        x = mpf(start) if 0 < start < 1 else mpf(a) / (mpf(a) + b)
        for _ in range(500):
            tail, density = tail_and_density(a, b, x, upper=upper)
            excess, slope = (target - tail, density) if upper else (tail - target, density)
            if excess == 0:
                return float(x)
            if excess < 0:  # (excess increases with x)
                low = x
            else:
                high = x
            new = x - excess / slope if slope else mpf(-1)
            if abs(new - x) <= abs(x) * mpf(10) ** (12 - DIGITS):  # (doubles hold 17 digits)
                return float(new)
            if not low < new < high:  # Newton left the bracket: bisect (geometrically near 0)
                new = mp.sqrt(low * high) if low > 0 else high / 64
            x = new
    raise ArithmeticError(f"no quantile found for p={p}, a={a}, b={b}")
