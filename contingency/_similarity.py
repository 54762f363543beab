"""Set::Partitions::Similarity's routines: accuracy, precision and distance of two partitions.

A partition is given as a list of subsets, each an iterable of hashable
elements (the Perl module's nested arrays): ``[["a", "b"], [1, 2]]`` is the
partition {{a, b}, {1, 2}} of {a, b, 1, 2}. Elements are compared as Python
values, so ``1`` and ``"1"`` are different elements (in Perl, whose elements
are strings, they are the same).

The routines count the pairs of distinct elements (see
:class:`contingency.PartitionComparison`, which they build): *accuracy* is
the share of pairs both partitions treat alike (the Rand index), *precision*
the share of pairs joined by either partition that both join (the pair
Jaccard index), *distance* is ``1 - accuracy``. All are symmetric in the two
partitions, and a partition is equivalent to itself, even the empty one
(accuracy and precision 1).

``check_validity=True`` checks both partitions first and raises
``ValueError`` with the Perl module's messages.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from contingency._inputs import are_disjoint, partition_subsets
from contingency._partition import PartitionComparison

__all__ = [
    "are_subsets_disjoint",
    "get_accuracy",
    "get_accuracy_and_precision",
    "get_distance",
    "get_precision",
]

Partition = Iterable[Iterable[Hashable]]


def are_subsets_disjoint(partition: Partition) -> bool:
    """True when no element occurs in two subsets: the check of a valid partition.

    An element repeated inside one subset does not make the subsets overlap.

    >>> are_subsets_disjoint([[1, 2, 3], [4]]), are_subsets_disjoint([[1, 2, 3], [4, 1]])
    (True, False)
    """
    return are_disjoint(partition_subsets(partition))


def get_accuracy_and_precision(first: Partition, second: Partition,
                               check_validity: bool = False) -> tuple[float, float]:
    """``(accuracy, precision)`` of two partitions of one set.

    >>> get_accuracy_and_precision([["a", "b"], [1, 2]], [["a", "b", 1], [2]])
    (0.5, 0.25)
    >>> get_accuracy_and_precision([[1, 2], [3, 4]], [[2, 1], [4, 3]]), get_accuracy_and_precision([], [])
    ((1.0, 1.0), (1.0, 1.0))
    >>> get_accuracy_and_precision([[1]], [[1, 2]], check_validity=True)
    Traceback (most recent call last):
    ...
    ValueError: partitions are invalid, they have different set elements.
    """
    comparison = PartitionComparison.from_partitions(first, second, check_validity)
    return comparison.accuracy, comparison.jaccard


def get_accuracy(first: Partition, second: Partition, check_validity: bool = False) -> float:
    """The accuracy of two partitions: the share of pairs of elements they treat alike.

    >>> round(get_accuracy([["a", "b"], ["c", "d"]], [["a", "b", "c", "d"]]), 15)
    0.333333333333333
    """
    return get_accuracy_and_precision(first, second, check_validity)[0]


def get_precision(first: Partition, second: Partition, check_validity: bool = False) -> float:
    """The precision of two partitions: of the pairs joined by either, the share both join.

    >>> get_precision([[1, 2, 3], [4]], [[1], [2, 3, 4]])
    0.2
    """
    return get_accuracy_and_precision(first, second, check_validity)[1]


def get_distance(first: Partition, second: Partition, check_validity: bool = False) -> float:
    """``1 - accuracy``: a metric on the partitions of a set, 0 for identical partitions.

    >>> round(get_distance([[1, 2, 3], [4]], [[1], [2, 3, 4]]), 15)
    0.666666666666667
    """
    return 1.0 - get_accuracy(first, second, check_validity)
