"""Scores comparing two partitions of one set, as pure functions of counts.

Glossary. The elements of a set are partitioned twice: by a *reference*
partition (the known classes) and by a *model* partition (the clusters an
algorithm made). Their contingency table has one row per reference cluster
and one column per model cluster; cell ``n[i, j]`` counts the elements in
reference cluster ``i`` and model cluster ``j``, row sums ``a[i]`` are the
reference cluster sizes and column sums ``b[j]`` the model cluster sizes,
and ``N`` is the number of elements.

Pair counting looks at the ``N (N - 1) / 2`` pairs of distinct elements, in a 2x2
table whose cells are named in :mod:`contingency.formulas.partition._pairs`
(``same_same``, ``same_reference_only``, ``same_model_only``, ``different_different``);
pair precision, recall, F1 and accuracy are the classification functions of that table.

Everything here depends on the table only through :class:`TableSums`: ``N``,
the numbers of clusters, three sums of ``C(n, 2)`` and three sums of
``n ln n`` (over cells, rows and columns). The accumulator
:class:`contingency.PartitionComparison` keeps exactly these sums up to date
in constant time per element; anyone with a table of their own gets them
from :func:`table_sums` (scikit-learn's ``contingency=`` idea)::

    >>> table = [[5, 1, 0],     # the worked 17-element example of the
    ...          [1, 4, 1],     # clustering-metrics article (seed 001):
    ...          [2, 0, 3]]     # rows = standard classes, columns = clusters
    >>> sums = table_sums(table)
    >>> round(normalized_mutual_information(sums), 12)
    0.364561771857
    >>> round(adjusted_rand_index(*pair_confusion(sums)), 12)
    0.242914979757

Exactness. Pair counts are Python integers, exact at any size. Each
``n ln n`` is the float64 product ``n * math.log(n)``, held as the exact
integer ``n ln n * 2**52`` (see :func:`n_log_n_fixed`): sums of such
integers are exact, so a sum depends only on the table, never on the order
in which the table was built, and differences such as ``MI * N`` are formed
exactly before the single rounding to float64.

Accuracy. Those differences still carry the rounding of every ``n ln n``
term, which cancellation can magnify (one cell of 10**15 beside small ones
left MI wrong by 5%). So every information score bounds that error from the
sums' own magnitudes (a shift and a comparison of integers) and uses the
O(1) value only when the bound is below 2**-43 of it; otherwise the same
difference of fine sums, whose terms carry 128 fractional bits
(:class:`FineSums`, passed as ``fine=``), still O(1); and where that bound
fails too (MI of 0 or nearly), it computes from the table's non-empty cells
(:class:`TableCells`, passed as ``cells=``) as sums of non-negative terms,
without cancellation. Every way the scores
agree with an exact computation to 1e-12 relative (1e-15 absolute below
1e-3) for any table of counts below 2**63 (the notes of the ``_information``
module give the bounds, and each score's docstring when a read costs O(cells))::

    >>> big = [[2, 2], [2**60, 0]]
    >>> round(homogeneity(table_sums(big), cells=table_cells(big)), 12)
    0.491588537504

Adjusted mutual information is held to 1e-12 relative near 0 too, where its
numerator ``MI - E[MI]`` cancels: when the float quotient's own bound is not
enough, it is computed in integers (:func:`precise_sums`, see
:func:`adjusted_mutual_information`).

References: W. M. Rand (1971), JASA 66, 846-850 (Rand index); L. Hubert and
P. Arabie (1985), J. Classification 2, 193-218 (adjusted Rand index);
E. B. Fowlkes and C. L. Mallows (1983), JASA 78, 553-569; N. X. Vinh,
J. Epps and J. Bailey (2010), JMLR 11, 2837-2854 (NMI variants, AMI);
M. Meila (2007), J. Multivariate Analysis 98, 873-895 (variation of
information); A. Rosenberg and J. Hirschberg (2007), EMNLP-CoNLL
(homogeneity, completeness, V-measure); H. Kim and H. Park (2007),
Bioinformatics 23, 1495-1502 and R package NMF (purity, entropy);
J. Kubina, Perl module Set::Partitions::Similarity (accuracy, "precision").

The implementation is split by subsystem, each module one responsibility:
``_sums`` (exact table sums), ``_pairs`` (pair counting), ``_information``
(MI and entropies from the sums), ``_cells`` (the same from the cells,
without cancellation), ``_expected`` (expected MI), ``_adjusted`` (AMI),
``_fine`` (``n ln n`` sums to ``2**-128`` a unit: MI and the entropies in
O(1) where float sums cancel), ``_precise`` (AMI at 256 bits, where floats
cancel), ``_matching`` (purity, R NMF's entropy) and ``_significance`` (the adjusted Rand index against
chance: its variance under the permutation model). Every public name is
imported from here.
"""

from __future__ import annotations

from contingency.formulas.partition._adjusted import adjusted_mutual_information
from contingency.formulas.partition._cells import CellsArgument, TableCells, table_cells
from contingency.formulas.partition._expected import expected_mutual_information
from contingency.formulas.partition._fine import (
    FINE_BITS,
    FineArgument,
    FineSums,
    fine_n_log_n,
    fine_n_log_n_sum,
    fine_step,
    fine_sums,
)
from contingency.formulas.partition._information import (
    AverageMethod,
    completeness,
    entropy,
    entropy_model,
    entropy_reference,
    homogeneity,
    mutual_information,
    normalized_mutual_information,
    v_measure,
    variation_of_information,
)
from contingency.formulas.partition._matching import (
    inverse_purity,
    majority_share,
    nmf_entropy,
    purity,
    purity_from_maxima,
)
from contingency.formulas.partition._pairs import (
    PairConfusion,
    adjusted_rand_index,
    adjusted_rand_index_from_sums,
    f1,
    fowlkes_mallows,
    jaccard,
    pair_confusion,
    precision,
    rand_index,
    recall,
)
from contingency.formulas.partition._precise import PreciseSums, precise_sums
from contingency.formulas.partition._significance import (
    AriSignificance,
    adjusted_rand_index_variance,
    ari_significance,
    margin_triples,
)
from contingency.formulas.partition._sums import (
    FIXED_POINT_BITS,
    TableSums,
    n_log_n_fixed,
    n_log_n_fixed_sum,
    pairs,
    same_cluster_pairs,
    same_cluster_triples,
    table_sums,
    triples,
)

__all__ = [
    "FINE_BITS",
    "FIXED_POINT_BITS",
    "AriSignificance",
    "AverageMethod",
    "CellsArgument",
    "FineArgument",
    "FineSums",
    "PairConfusion",
    "PreciseSums",
    "TableCells",
    "TableSums",
    "adjusted_mutual_information",
    "adjusted_rand_index",
    "adjusted_rand_index_from_sums",
    "adjusted_rand_index_variance",
    "ari_significance",
    "completeness",
    "entropy",
    "entropy_model",
    "entropy_reference",
    "expected_mutual_information",
    "f1",
    "fine_n_log_n",
    "fine_n_log_n_sum",
    "fine_step",
    "fine_sums",
    "fowlkes_mallows",
    "homogeneity",
    "inverse_purity",
    "jaccard",
    "majority_share",
    "margin_triples",
    "mutual_information",
    "n_log_n_fixed",
    "n_log_n_fixed_sum",
    "nmf_entropy",
    "normalized_mutual_information",
    "pair_confusion",
    "pairs",
    "precise_sums",
    "precision",
    "purity",
    "purity_from_maxima",
    "rand_index",
    "recall",
    "same_cluster_pairs",
    "same_cluster_triples",
    "table_cells",
    "table_sums",
    "triples",
    "v_measure",
    "variation_of_information",
]
