"""Set::Partitions::Similarity's routines: every example of the module's documentation (seed 000)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from contingency import (
    PartitionComparison,
    are_subsets_disjoint,
    get_accuracy,
    get_accuracy_and_precision,
    get_distance,
    get_precision,
)


def perl(value: float) -> str:
    """A number as Perl prints it (``%.15g``)."""
    return f"{value:.15g}"


def test_synopsis():
    assert get_accuracy_and_precision([["a", "b"], [1, 2]], [["a", "b", 1], [2]]) == (0.5, 0.25)
    # a partition is equivalent to itself, even the empty partition
    assert get_accuracy_and_precision([[1, 2], [3, 4]], [[2, 1], [4, 3]]) == (1, 1)
    assert get_accuracy_and_precision([], []) == (1, 1)
    # accuracy and precision are symmetric functions
    p, q = [[1, 2, 3], [4]], [[1], [2, 3, 4]]
    for first, second in ((p, q), (q, p)):
        accuracy, precision = get_accuracy_and_precision(first, second)
        assert (perl(accuracy), perl(precision)) == ("0.333333333333333", "0.2")
    with pytest.raises(ValueError) as error:
        get_accuracy_and_precision([[1]], [[1, 2]], 1)
    assert str(error.value) == "partitions are invalid, they have different set elements."


def test_routine_examples():
    assert are_subsets_disjoint([[1, 2, 3], [4]]) is True
    assert are_subsets_disjoint([[1, 2, 3], [4, 1]]) is False
    assert perl(get_accuracy([["a", "b"], ["c", "d"]], [["a", "b", "c", "d"]])) == "0.333333333333333"
    assert perl(get_accuracy([["a", "b", "c", "d"]], [["a", "b"], ["c", "d"]])) == "0.333333333333333"
    for first, second in (([[1, 2], [3, 4]], [[1], [2], [3], [4]]),
                          ([[1], [2], [3], [4]], [[1, 2], [3, 4]])):
        accuracy, precision = get_accuracy_and_precision(first, second)
        assert (perl(accuracy), precision) == ("0.666666666666667", 0)
    assert perl(get_distance([[1, 2, 3], [4]], [[1], [2, 3, 4]])) == "0.666666666666667"
    assert perl(get_precision([[1, 2, 3], [4]], [[1], [2, 3, 4]])) == "0.2"


PERL_DISTANCES = {1: "1", 2: "0.998043052837573", 4: "0.99412915851272",
                  8: "0.986301369863014", 16: "0.970645792563601", 32: "0.939334637964775",
                  64: "0.876712328767123", 128: "0.75146771037182", 256: "0.500978473581213",
                  512: "0"}


def test_512_element_distance_table():
    whole = [list(range(512))]
    for size, printed in PERL_DISTANCES.items():
        parts = [list(range(size * k, size * k + size)) for k in range(512 // size)]
        assert perl(get_distance(whole, parts, True)) == printed, size


def test_validity_messages():
    calls = [
        (lambda: get_accuracy([[1, 2], [2]], [[1, 2]], check_validity=True),
         "first partition is an invalid partition, an element occurs in two or more subsets."),
        (lambda: get_precision([[1, 2]], [[1], [1, 2]], check_validity=True),
         "second partition is an invalid partition, an element occurs in two or more subsets."),
        (lambda: get_distance([[1, 2]], [[1], [3]], check_validity=True),
         "partitions are invalid, they have different set elements."),
    ]
    for call, message in calls:
        with pytest.raises(ValueError) as error:
            call()
        assert str(error.value) == message
    # a repeated element inside one subset is not an overlap (as in Perl)
    assert get_accuracy([[1, 1, 2]], [[1, 2]], check_validity=True) == 1.0


def test_without_validity_check():
    # an element listed twice counts in its last subset; a missing element cannot be placed
    assert get_accuracy([[1, 2], [2]], [[1], [2]]) == 1.0
    with pytest.raises(ValueError, match="element 3 occurs only in the second partition"):
        get_accuracy([[1, 2]], [[1], [2, 3]])
    with pytest.raises(ValueError, match="element 2 occurs only in the first partition"):
        get_accuracy([[1, 2]], [[1]])


def test_bad_partitions():
    with pytest.raises(TypeError, match="subset 0: a subset must be an iterable of elements, "
                                        "not str"):
        get_accuracy(["ab"], [["a", "b"]])
    with pytest.raises(TypeError, match="the first partition must be an iterable of subsets"):
        get_accuracy(3, [[1]])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="first partition, subset 0: label \\[1\\] is unhashable"):
        get_accuracy([[[1]]], [[1]])
    with pytest.raises(ValueError, match="second partition, subset 1: None is not a valid label"):
        get_accuracy([[1, 2]], [[1], [None]])
    with pytest.raises(TypeError, match="partition, subset 0: label"):
        are_subsets_disjoint([[{1}]])


def brute_force(first, second):
    """Perl's definitions read literally: every pair of distinct elements."""
    where_first = {e: k for k, subset in enumerate(first) for e in subset}
    where_second = {e: k for k, subset in enumerate(second) for e in subset}
    agree = joined = both = 0
    pairs = list(itertools.combinations(sorted(where_first), 2))
    for x, y in pairs:
        same_first = where_first[x] == where_first[y]
        same_second = where_second[x] == where_second[y]
        agree += same_first == same_second
        joined += same_first or same_second
        both += same_first and same_second
    return (agree / len(pairs) if pairs else 1.0), (both / joined if joined else 1.0)


@st.composite
def two_partitions(draw):
    elements = draw(st.lists(st.integers(0, 30), unique=True, max_size=14))
    partitions = []
    for _ in range(2):
        blocks = draw(st.lists(st.integers(0, 4), min_size=len(elements), max_size=len(elements)))
        partitions.append([[e for e, b in zip(elements, blocks) if b == block]
                           for block in sorted(set(blocks))])
    return partitions


@given(two_partitions())
def test_matches_the_definitions_and_is_symmetric(partitions):
    first, second = partitions
    accuracy, precision = get_accuracy_and_precision(first, second, check_validity=True)
    expected = brute_force(first, second)
    assert abs(accuracy - expected[0]) < 1e-15
    assert abs(precision - expected[1]) < 1e-15
    assert get_accuracy_and_precision(second, first) == (accuracy, precision)
    assert get_distance(first, second) == 1.0 - accuracy
    comparison = PartitionComparison.from_partitions(first, second)
    assert comparison.accuracy == accuracy
    assert comparison.jaccard == precision
