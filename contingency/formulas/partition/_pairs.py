"""Pair counting: the four pair counts of a table and the scores of the 2x2 table they make.

Pair counting looks at the ``N (N - 1) / 2`` pairs of distinct elements::

                          same model cluster   different model clusters
    same reference            same_same          same_reference_only
    different reference     same_model_only      different_different

In the vocabulary of :mod:`contingency.formulas.classification` the pair
table is a 2x2 table whose "correct" side is the reference: ``a =
same_same``, ``b = same_model_only`` (put together wrongly), ``c =
same_reference_only`` (kept apart wrongly), ``d = different_different``.
Pair precision, recall, F1 and accuracy are those very functions. Every count
is an exact integer, computed from :class:`~contingency.formulas.partition.TableSums`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from contingency.formulas import classification
from contingency.formulas._numeric import divide
from contingency.formulas.partition._sums import (
    TableSums,
    table_sums,  # noqa: F401  (the docstrings' examples use it)
)

__all__ = ["PairConfusion", "adjusted_rand_index", "adjusted_rand_index_from_sums", "f1",
           "fowlkes_mallows", "jaccard", "pair_confusion", "precision", "rand_index", "recall"]

_new_tuple = tuple.__new__
_accuracy = classification.SCALAR["accuracy"]
_precision = classification.SCALAR["precision"]
_f1 = classification.SCALAR["f1"]


def _python_ints(a: object, b: object, c: object, d: object) -> bool:
    """Whether the four counts are Python ints: the pair table's own, scored by the scalar forms.

    Others (numpy integers, whose sums could wrap; floats; arrays) go through the
    classification functions' general path, which gives the same value for the same
    numbers (it calls the same scalar forms, after checks and a conversion).
    """
    return type(a) is int and type(b) is int and type(c) is int and type(d) is int


class PairConfusion(NamedTuple):
    """The pairs of distinct elements, by whether each partition puts them together.

    Unlike scikit-learn's ``pair_confusion_matrix``, which counts ordered
    pairs, each unordered pair counts once.
    """

    same_same: int
    same_reference_only: int
    same_model_only: int
    different_different: int


def pair_confusion(sums: TableSums) -> PairConfusion:
    """The four pair counts of a table, exactly.

    >>> pair_confusion(table_sums([[2, 0], [1, 1]]))
    PairConfusion(same_same=1, same_reference_only=1, same_model_only=2, different_different=2)
    """
    n, _, _, same_same, same_reference, same_model, _, _, _ = sums
    if type(n) is not int:  # a numpy integer would overflow n (n - 1)
        n = int(n)
    # The fields in order (same_same, same_reference_only, same_model_only,
    # different_different), built as PairConfusion(...) would build them, without the
    # Python frame of its generated __new__: this runs on every read after a change.
    return _new_tuple(PairConfusion, (same_same, same_reference - same_same,
                                      same_model - same_same,
                                      n * (n - 1) // 2 - same_reference - same_model + same_same))


def rand_index(same_same: int, same_reference_only: int, same_model_only: int,
               different_different: int) -> float:
    """Rand index (Set::Partitions::Similarity's *accuracy*): the share of pairs on which both agree.

    ``(same_same + different_different) / n_pairs``, which is
    :func:`contingency.formulas.classification.accuracy` of the pair table.
    With no pairs (fewer than two elements) it is 1, Perl's convention (the
    partitions cannot disagree), which is also scikit-learn's.

    >>> round(rand_index(1, 2, 2, 1), 12)       # [[1,2,3],[4]] vs [[1],[2,3,4]]
    0.333333333333
    >>> rand_index(0, 0, 0, 0)
    1.0
    """
    if _python_ints(same_same, same_reference_only, same_model_only, different_different):
        return _accuracy(same_same, same_model_only, same_reference_only, different_different,
                         "perl")
    return float(classification.accuracy(same_same, same_model_only, same_reference_only,
                                         different_different, zero_division="perl"))


def precision(same_same: int, same_reference_only: int, same_model_only: int,
              different_different: int) -> float:
    """Pair precision ``same_same / (same_same + same_model_only)``.

    Of the pairs the model joins, the share that the reference joins too.

    :func:`contingency.formulas.classification.precision` of the pair table,
    with Statistics::Contingency's convention for the undefined case (the
    model joins no pair): 1 when the reference joins none either (the two
    partitions are then identical: every element alone), else 0.

    >>> precision(1, 2, 2, 1), precision(0, 0, 0, 6), precision(0, 2, 0, 4)
    (0.3333333333333333, 1.0, 0.0)
    """
    if _python_ints(same_same, same_reference_only, same_model_only, different_different):
        return _precision(same_same, same_model_only, same_reference_only, different_different,
                          "perl")
    return float(classification.precision(same_same, same_model_only, same_reference_only,
                                          different_different, zero_division="perl"))


def recall(same_same: int, same_reference_only: int, same_model_only: int,
           different_different: int) -> float:
    """Pair recall ``same_same / (same_same + same_reference_only)``.

    Of the pairs the reference joins, the share that the model joins too.

    Recall of (reference, model) is precision of (model, reference), and is
    computed that way: :func:`contingency.formulas.classification.precision`
    of the transposed pair table. That gives the undefined case (the
    reference joins no pair) the same rule as :func:`precision`: 1 when the
    model joins none either, else 0. ``classification.recall``'s own Perl
    rule (1 whenever nothing is to be recalled) would score a model that
    joins elements the reference keeps apart with recall 1 while the swapped
    comparison's precision is 0; this way swapping the partitions always
    swaps precision and recall.

    >>> recall(3, 1, 0, 2), recall(0, 0, 2, 4), recall(0, 0, 0, 6)
    (0.75, 0.0, 1.0)
    """
    if _python_ints(same_same, same_reference_only, same_model_only, different_different):
        return _precision(same_same, same_reference_only, same_model_only, different_different,
                          "perl")
    return float(classification.precision(same_same, same_reference_only, same_model_only,
                                          different_different, zero_division="perl"))


def f1(same_same: int, same_reference_only: int, same_model_only: int,
       different_different: int) -> float:
    """Pair F1 ``2 same_same / (2 same_same + same_reference_only + same_model_only)``.

    :func:`contingency.formulas.classification.f1` of the pair table; 1 when
    neither partition joins any pair (they are then identical).

    >>> round(f1(1, 2, 2, 1), 12), f1(0, 0, 0, 6)
    (0.333333333333, 1.0)
    """
    if _python_ints(same_same, same_reference_only, same_model_only, different_different):
        return _f1(same_same, same_model_only, same_reference_only, different_different, "perl")
    return float(classification.f1(same_same, same_model_only, same_reference_only,
                                   different_different, zero_division="perl"))


def jaccard(same_same: int, same_reference_only: int, same_model_only: int,
            different_different: int) -> float:
    """Pair Jaccard index ``same_same / (same_same + same_reference_only + same_model_only)``.

    What Set::Partitions::Similarity calls *precision*. When no pair is
    joined by either partition the partitions are identical (every element
    alone, or fewer than two elements), and the index is 1, as in Perl
    ("a partition is equivalent to itself, even the empty partition").

    >>> jaccard(1, 2, 2, 1), jaccard(0, 0, 0, 0)
    (0.2, 1.0)
    """
    joined = same_same + same_reference_only + same_model_only
    # Undefined only when nothing is joined on either side: identical partitions.
    return float(divide(same_same, joined, 1.0))


def fowlkes_mallows(same_same: int, same_reference_only: int, same_model_only: int,
                    different_different: int) -> float:
    """Fowlkes-Mallows index ``sqrt(precision * recall)``, the geometric mean of pair precision and recall.

    It takes :func:`precision`'s and :func:`recall`'s conventions: 1 when
    neither partition joins any pair (identical partitions), 0 when only one
    of them does. scikit-learn's ``fowlkes_mallows_score`` returns 0 for two
    identical all-singleton partitions; here identical partitions always
    score 1.

    >>> round(fowlkes_mallows(1, 2, 2, 1), 12), fowlkes_mallows(0, 0, 0, 6)
    (0.333333333333, 1.0)
    """
    counts = (same_same, same_reference_only, same_model_only, different_different)
    return math.sqrt(precision(*counts)) * math.sqrt(recall(*counts))


def adjusted_rand_index(same_same: int, same_reference_only: int, same_model_only: int,
                        different_different: int) -> float:
    """Adjusted Rand index (Hubert and Arabie): the Rand index corrected for chance, at most 1.

    ``2 (a d - b c) / ((a + c)(c + d) + (a + b)(b + d))`` in the pair-table
    letters, computed with exact integers and rounded once. When the
    partitions disagree on no pair (``b == c == 0``: identical pair structure,
    which includes fewer than two elements and two single-cluster partitions)
    it is 1, scikit-learn's convention. :func:`adjusted_rand_index_from_sums`
    gives the same value from a table's sums.

    >>> round(adjusted_rand_index(1, 0, 1, 4), 12)    # [0,0,1,2] vs [0,0,1,1]
    0.571428571429
    >>> adjusted_rand_index(0, 0, 0, 0), adjusted_rand_index(6, 0, 0, 0)
    (1.0, 1.0)
    """
    a, b, c, d = same_same, same_model_only, same_reference_only, different_different
    if not type(a) is type(b) is type(c) is type(d) is int:  # numpy integers would overflow
        a, b, c, d = int(a), int(b), int(c), int(d)
    return _adjusted_rand(a, a + c, a + b, a + b + c + d)


def adjusted_rand_index_from_sums(sums: TableSums) -> float:
    """:func:`adjusted_rand_index` of a table, from its sums, without building the pair counts.

    >>> sums = table_sums([[2, 0], [1, 1]])
    >>> adjusted_rand_index_from_sums(sums) == adjusted_rand_index(*pair_confusion(sums))
    True
    """
    n, _, _, same_same, same_reference, same_model, _, _, _ = sums
    if type(n) is not int:  # a numpy integer would overflow n (n - 1)
        n, same_same, same_reference, same_model = (
            int(n), int(same_same), int(same_reference), int(same_model))
    return _adjusted_rand(same_same, same_reference, same_model, n * (n - 1) // 2)


def _adjusted_rand(same_same: int, same_reference: int, same_model: int, n_pairs: int) -> float:
    """The adjusted Rand index of exact pair sums: the one place its formula is written.

    With ``S = same_same``, ``R = same_reference``, ``M = same_model`` and
    ``P = n_pairs``, Hubert and Arabie's ``2 (a d - b c) / ((a + c)(c + d) +
    (a + b)(b + d))`` (``a = S``, ``b = M - S``, ``c = R - S``, ``d = P - R -
    M + S``) is, expanded, ``2 (S P - R M) / (P (R + M) - 2 R M)``: the same
    two integers, so the same rounding. It is 1 when ``b == c == 0`` (``S ==
    R == M``); otherwise the denominator, ``c**2 + b**2`` or more, is positive.
    """
    if same_same == same_reference == same_model:
        return 1.0
    product = same_reference * same_model
    return 2 * (same_same * n_pairs - product) / (n_pairs * (same_reference + same_model)
                                                 - 2 * product)

