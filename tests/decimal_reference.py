"""An 80-digit decimal oracle of the information scores of a contingency table.

Every quantity is computed from the textbook definition with
:class:`decimal.Decimal` at 80 significant digits (``Decimal.ln`` is
correctly rounded at that precision), from the exact integer counts, and
rounded once to float at the end. Cancellation in the definitions (MI's terms
have both signs) costs at most the digits that float64's cancellation would
cost, and 80 digits leave more than 60 of them after any table of counts below
``2**63``: the values are exact as far as a float64 can tell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, localcontext

PRECISION = 80

Table = Sequence[Sequence[int]]


def _cells(table: Table) -> tuple[list[tuple[int, int, int]], list[int], list[int], int]:
    rows = [sum(int(v) for v in row) for row in table]
    columns = [sum(int(row[j]) for row in table) for j in range(len(table[0]))] if table else []
    cells = [(int(v), rows[i], columns[j]) for i, row in enumerate(table)
             for j, v in enumerate(row) if v]
    return cells, rows, columns, sum(rows)


def information(table: Table) -> dict[str, float]:
    """Every information score of ``table`` (rows: reference, columns: model), in nats.

    Keys: ``mutual_information``, ``entropy_reference``, ``entropy_model``,
    ``conditional_reference`` (``H(R|M)``), ``conditional_model`` (``H(M|R)``),
    ``variation_of_information``, ``nmi_arithmetic``, ``nmi_geometric``,
    ``nmi_min``, ``nmi_max``, ``homogeneity``, ``completeness``,
    ``v_measure`` (beta 1), ``v_measure_2`` (beta 2), ``nmf_entropy``, with the
    degenerate-case conventions of :mod:`contingency.formulas.partition`.
    """
    cells, rows, columns, n = _cells(table)
    with localcontext() as context:
        context.prec = PRECISION
        if n == 0:
            zero = Decimal(0)
            mutual = reference = model = given_model = given_reference = zero
        else:
            total = Decimal(n)

            def entropy(sizes: list[int]) -> Decimal:
                return sum((Decimal(s) / total * (total / Decimal(s)).ln() for s in sizes if s),
                           Decimal(0))

            reference, model = entropy(rows), entropy(columns)
            mutual = sum((Decimal(c) / total * (Decimal(c * n) / Decimal(a * b)).ln()
                          for c, a, b in cells), Decimal(0))
            given_model = sum((Decimal(c) / total * (Decimal(b) / Decimal(c)).ln()
                               for c, a, b in cells), Decimal(0))
            given_reference = sum((Decimal(c) / total * (Decimal(a) / Decimal(c)).ln()
                                   for c, a, b in cells), Decimal(0))
        n_rows = sum(1 for s in rows if s)
        n_columns = sum(1 for s in columns if s)
        scores: dict[str, Decimal] = {
            "mutual_information": mutual,
            "entropy_reference": reference,
            "entropy_model": model,
            "conditional_reference": given_model,
            "conditional_model": given_reference,
            "variation_of_information": given_model + given_reference,
        }
        means = {"arithmetic": (reference + model) / 2, "geometric": (reference * model).sqrt(),
                 "min": min(reference, model), "max": max(reference, model)}
        for method, mean in means.items():
            if n_rows <= 1 and n_columns <= 1:
                value = Decimal(1)
            elif n_rows <= 1 or n_columns <= 1:
                value = Decimal(0)
            else:
                value = mutual / mean
            scores[f"nmi_{method}"] = value
        homogeneity = Decimal(1) if n_rows <= 1 else mutual / reference
        completeness = Decimal(1) if n_columns <= 1 else mutual / model
        scores["homogeneity"], scores["completeness"] = homogeneity, completeness
        for key, beta in (("v_measure", Decimal(1)), ("v_measure_2", Decimal(2))):
            denominator = beta * homogeneity + completeness
            scores[key] = (Decimal(0) if denominator == 0
                           else (1 + beta) * homogeneity * completeness / denominator)
        scores["nmf_entropy"] = (Decimal(0) if n == 0 or n_rows <= 1
                                 else given_model / Decimal(n_rows).ln())
        return {key: float(value) for key, value in scores.items()}


def relative_error(value: float, exact: float) -> float:
    """The error of ``value``: relative, or absolute (scaled by 1e3) when ``|exact| < 1e-3``.

    A result <= 1e-12 means "agrees to 1e-12 relative, or to 1e-15 absolute
    where the value is below 1e-3", the accuracy the formulas promise.
    """
    if math.isnan(value) or math.isnan(exact):
        return math.inf
    if abs(exact) < 1e-3:
        return abs(value - exact) * 1e3
    return abs(value - exact) / abs(exact)


def adjusted_mutual_information(table: Table) -> dict[str, float]:
    """AMI of ``table`` for each average method, from the definitions at 80 digits.

    ``E[MI]`` sums every term of every pair of a row and a column total with
    exact hypergeometric probabilities (``math.comb``), so the cost grows with
    ``N`` times the number of pairs: for tables of a few thousand elements.
    Keys ``arithmetic``, ``geometric``, ``min``, ``max``; the conventions of
    :func:`contingency.formulas.partition.adjusted_mutual_information`: 1
    with a single cluster on both sides (or no elements), 0 on one side, 1
    when numerator and denominator are both 0, 0 when the numerator alone is
    (below 1e-60 of MI: beyond what 80 digits resolve after cancellation).
    """
    cells, rows, columns, n = _cells(table)
    rows, columns = [s for s in rows if s], [s for s in columns if s]
    if len(rows) <= 1 or len(columns) <= 1:
        value = 1.0 if len(rows) <= 1 and len(columns) <= 1 else 0.0
        return dict.fromkeys(("arithmetic", "geometric", "min", "max"), value)
    with localcontext() as context:
        context.prec = PRECISION
        total = Decimal(n)

        def entropy(sizes: list[int]) -> Decimal:
            return sum((Decimal(s) / total * (total / Decimal(s)).ln() for s in sizes),
                       Decimal(0))

        reference, model = entropy(rows), entropy(columns)
        mutual = sum((Decimal(c) / total * (Decimal(c * n) / Decimal(a * b)).ln()
                      for c, a, b in cells), Decimal(0))
        expected = Decimal(0)
        for a in rows:
            for b in columns:
                draws = Decimal(math.comb(n, b))
                for k in range(max(1, a + b - n), min(a, b) + 1):
                    probability = Decimal(math.comb(a, k) * math.comb(n - a, b - k)) / draws
                    expected += probability * Decimal(k) / total * (Decimal(k * n)
                                                                    / Decimal(a * b)).ln()
        means = {"arithmetic": (reference + model) / 2, "geometric": (reference * model).sqrt(),
                 "min": min(reference, model), "max": max(reference, model)}
        zero = max(mutual, expected) * Decimal(10) ** -60
        scores = {}
        for method, mean in means.items():
            numerator, denominator = mutual - expected, mean - expected
            if abs(numerator) <= zero:
                scores[method] = 1.0 if abs(denominator) <= zero else 0.0
            else:
                scores[method] = float(numerator / denominator)
        return scores
