"""contingency.dask: the accumulators of a Dask DataFrame or Bag equal those one process builds.

Small frames run on Dask's synchronous scheduler against an ``add_result``
loop (hypothesis draws the rows, the partitioning and the fan-in of the
tree). The integration tests start a real two-process
``dask.distributed.LocalCluster`` on loopback, evaluate 10**6 rows read from
Parquet files, compare with the one-process accumulators exactly, and kill a
worker process in the middle of a run.
"""

from __future__ import annotations

import itertools
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import dask
import dask.bag as db
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dask.delayed import Delayed
from hypothesis import example, given, settings
from hypothesis import strategies as st

from contingency import Contingency, PartitionComparison
from contingency.dask import classify, compare

POOL = ["sports", "politics", "science", "arts", "x"]


@pytest.fixture(autouse=True)
def _synchronous_scheduler(request):
    """Unit tests run on the synchronous scheduler; the cluster tests bring their own client."""
    if "cluster" in request.fixturenames:
        yield
        return
    with dask.config.set(scheduler="sync"):
        yield


def _frame(columns: dict[str, list[Any]], npartitions: int) -> dd.DataFrame:
    return dd.from_pandas(pd.DataFrame(columns), npartitions=npartitions, sort=False)


def _loop(categories: Any, assigned: list[Any], correct: list[Any], weights: Any = None,
          **settings: Any) -> Contingency:
    """The one-process oracle: add_result, one row at a time."""
    expected = Contingency(categories, **settings)
    for row, (chosen, truth) in enumerate(zip(assigned, correct)):
        expected.add_result(chosen, truth, weight=1 if weights is None else weights[row])
    return expected


# Small frames against an add_result loop -------------------------------------------------------

single_rows = st.lists(st.tuples(st.sampled_from(POOL), st.sampled_from(POOL)), min_size=1,
                       max_size=40)
declared = st.one_of(st.none(), st.lists(st.sampled_from(POOL), unique=True, max_size=4))
policies = st.sampled_from(["add", "ignore"])


@settings(max_examples=25)
@given(single_rows, declared, policies, st.integers(1, 5), st.integers(2, 4))
def test_classify_single_label_equals_an_add_result_loop(rows, categories, unknown, parts, fan_in):
    assigned, correct = [r[0] for r in rows], [r[1] for r in rows]
    frame = _frame({"assigned": assigned, "correct": correct}, parts)
    found = classify(frame, assigned="assigned", correct="correct", categories=categories,
                     unknown=unknown, zero_division=0.0, split_every=fan_in)
    assert found == _loop(categories, assigned, correct, unknown=unknown, zero_division=0.0)
    assert found.zero_division == 0.0


cell = st.lists(st.sampled_from([*POOL, ""]), max_size=4).map("|".join)


@settings(max_examples=25)
@given(st.lists(st.tuples(cell, cell), min_size=1, max_size=40), declared, policies,
       st.integers(1, 5))
@example(rows=[("a|a|", "|b"), ("", "")], categories=None, unknown="add", parts=2)
def test_classify_multi_label_cells_equal_an_add_result_loop(rows, categories, unknown, parts):
    """Cells split by label_sep: repeated categories count once, empty pieces are skipped."""
    assigned, correct = [r[0] for r in rows], [r[1] for r in rows]
    frame = _frame({"p": assigned, "t": correct}, parts)
    found = classify(frame, assigned="p", correct="t", label_sep="|", categories=categories,
                     unknown=unknown)

    def pieces(cells: list[str]) -> list[list[str]]:
        return [[piece for piece in text.split("|") if piece] for text in cells]

    assert found == _loop(categories, pieces(assigned), pieces(correct), unknown=unknown)


weight = st.one_of(st.integers(0, 3), st.sampled_from([0.0, 0.25, 1.5, 0.1, 1e-3]))


@settings(max_examples=25)
@given(st.lists(st.tuples(cell, cell, weight), min_size=1, max_size=30), st.booleans(),
       st.integers(1, 4))
@example(rows=[("a", "b", 0), ("b", "b", 0.1)], multi_label=False, parts=2)
def test_classify_weights_equal_an_add_result_loop_with_weights(rows, multi_label, parts):
    """Weights (integers, floats, zeros) are counted exactly as add_result's weight counts them."""
    assigned = [r[0] if multi_label else r[0].split("|")[0] for r in rows]
    correct = [r[1] if multi_label else r[1].split("|")[0] for r in rows]
    weights = [r[2] for r in rows]
    frame = _frame({"p": assigned, "t": correct, "w": weights}, parts)
    found = classify(frame, assigned="p", correct="t", weights="w",
                     label_sep="|" if multi_label else None)
    if multi_label:
        assigned, correct = ([[x for x in text.split("|") if x] for text in side]
                             for side in (assigned, correct))
    assert found == _loop(None, assigned, correct, weights=weights)


def test_classify_multi_label_builds_indicator_matrices_in_chunks(monkeypatch):
    """A partition larger than one indicator chunk is counted chunk by chunk, to the same state."""
    import contingency.dask as module

    monkeypatch.setattr(module, "_CHUNK_CELLS", 6)  # two categories a chunk of three rows
    assigned = ["a|b", "b", "", "a", "b|c", "c", "a|c"]
    correct = ["a", "b|c", "c", "", "b", "a|b", "a"]
    found = classify(_frame({"p": assigned, "t": correct}, 2), assigned="p", correct="t",
                     label_sep="|")
    split = [[[x for x in text.split("|") if x] for text in side] for side in (assigned, correct)]
    assert found == _loop(None, *split)


@settings(max_examples=25)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, "a", "b"]), st.sampled_from([7, 8, 9]),
                          st.integers(0, 3)), min_size=1, max_size=40),
       st.booleans(), st.integers(1, 5), st.integers(2, 4))
def test_compare_equals_add_many_in_one_process(rows, weighted, parts, fan_in):
    reference = [str(r[0]) for r in rows]
    model = [r[1] for r in rows]
    weights = [r[2] for r in rows]
    columns = {"known": reference, "cluster": model, "w": weights}
    found = compare(_frame(columns, parts), reference="known", model="cluster",
                    weights="w" if weighted else None, split_every=fan_in)
    expected = PartitionComparison().add_many(reference, model, weights if weighted else None)
    assert found == expected
    assert found.pair_confusion() == expected.pair_confusion()


def test_mixed_and_integer_labels_take_the_general_path():
    assigned = [1, "a", 2, "a", 1]
    correct = ["a", "a", 2, 1, 1]
    with dask.config.set({"dataframe.convert-string": False}):  # else Dask makes them strings
        frame = _frame({"p": assigned, "t": correct}, 2)
    assert classify(frame, assigned="p", correct="t") == _loop(None, assigned, correct)
    integers = _frame({"p": [3, 1, 3, 2], "t": [1, 1, 3, 3]}, 3)
    assert classify(integers, assigned="p", correct="t") == _loop(None, [3, 1, 3, 2], [1, 1, 3, 3])
    assert compare(frame, reference="p", model="t") == PartitionComparison.from_labels(
        assigned, correct)


def test_categorical_columns_are_read_through_their_dictionary():
    rows = pd.DataFrame({"p": pd.Categorical(["b", "a", "b"]), "t": pd.Categorical(["a", "a", "c"])})
    frame = dd.from_pandas(rows, npartitions=2, sort=False)
    assert classify(frame, assigned="p", correct="t") == _loop(None, ["b", "a", "b"], ["a", "a", "c"])
    assert compare(frame, reference="p", model="t") == PartitionComparison.from_labels(
        ["b", "a", "b"], ["a", "a", "c"])


def test_a_bag_of_records():
    records = [{"p": "a|b", "t": "a", "r": "x", "m": 1}, {"p": "b", "t": "b|c", "r": "y", "m": 1},
               {"p": "", "t": "c", "r": "y", "m": 2}]
    bag = db.from_sequence(records, npartitions=2)
    assert classify(bag, assigned="p", correct="t", label_sep="|") == _loop(
        None, [["a", "b"], ["b"], []], [["a"], ["b", "c"], ["c"]])
    assert classify(bag, assigned="t", correct="p") == _loop(None, ["a", "b|c", "c"],
                                                             ["a|b", "b", ""])
    assert compare(bag, reference="r", model="m") == PartitionComparison.from_labels(
        ["x", "y", "y"], [1, 1, 2])
    # Records that already hold lists of categories: the batch path for sequences.
    lists = db.from_sequence([(["a", "b"], ["a"]), (["c"], [])], npartitions=2)
    assert classify(lists, assigned=0, correct=1) == _loop(None, [["a", "b"], ["c"]], [["a"], []])
    assert compare(db.from_sequence([], npartitions=1), reference=0, model=1) == PartitionComparison()


@pytest.mark.parametrize("label_sep", [None, "|"])
def test_mixed_int_and_float_weights_of_a_bag_are_counted_exactly(label_sep):
    """A partition's weights mixing Python ints and floats are not rounded (a float array would)."""
    rows = [("a", "a", 2**60 + 1), ("b", "a", 0.5), ("a", "b", 2**53 + 1), ("b", "b", 1.0)]
    records = [{"p": p, "t": t, "w": w} for p, t, w in rows]
    found = classify(db.from_sequence(records, npartitions=1), assigned="p", correct="t",
                     weights="w", label_sep=label_sep)
    assigned, correct, weights = (list(column) for column in zip(*rows))
    if label_sep:
        assigned, correct = [[x] for x in assigned], [[x] for x in correct]
    assert found == _loop(None, assigned, correct, weights=weights)


def test_the_lazy_variant_computes_to_the_accumulator_with_other_work():
    frame = _frame({"p": ["a", "b", "b"], "t": ["a", "a", "b"]}, 2)
    lazy_classify = classify(frame, assigned="p", correct="t", compute=False)
    lazy_compare = compare(frame, reference="p", model="t", compute=False)
    assert isinstance(lazy_classify, Delayed)
    found, comparison = dask.compute(lazy_classify, lazy_compare)
    assert found == _loop(None, ["a", "b", "b"], ["a", "a", "b"])
    assert comparison == PartitionComparison.from_labels(["a", "b", "b"], ["a", "a", "b"])


def test_what_travels_is_the_counts_not_the_rows():
    """The pickled state of a partition's accumulator does not grow with its rows."""
    rng = np.random.default_rng(5)
    names = np.array(POOL)
    sizes = []
    for n in (1_000, 100_000):
        frame = _frame({"p": names[rng.integers(0, 5, n)], "t": names[rng.integers(0, 5, n)],
                        "c": rng.integers(0, 20, n)}, 1)
        found = classify(frame, assigned="p", correct="t")
        comparison = compare(frame, reference="p", model="c")
        sizes.append((len(pickle.dumps(found)), len(pickle.dumps(comparison))))
        assert pickle.loads(pickle.dumps(found)) == found
        assert pickle.loads(pickle.dumps(comparison)) == comparison
    (small_c, small_p), (large_c, large_p) = sizes
    assert large_c < 2 * small_c < 4096
    assert large_p < 2 * small_p < 16384


# Errors: named, raised before any work where they can be -----------------------------------------


def test_errors_name_the_argument_the_column_and_the_partition():
    frame = _frame({"p": ["a", "b", "c", None], "t": ["a", "b", "c", "a"]}, 2)
    with pytest.raises(ValueError, match=r"the frame has no column 'missing'"):
        classify(frame, assigned="missing", correct="t")
    with pytest.raises(ValueError, match=r"partition 1: column 'p'\[1\]: None is not a valid label"):
        classify(frame, assigned="p", correct="t")
    with pytest.raises(ValueError, match=r"partition 1: column 'p'\[1\]: None"):
        classify(frame, assigned="p", correct="t", label_sep="|")
    with pytest.raises(ValueError, match=r"partition 1: column 'p'\[1\]: None"):
        compare(frame, reference="p", model="t")
    declared = _frame({"p": ["a", "b"], "t": ["a", "zebra"]}, 2)
    with pytest.raises(ValueError, match=r"partition 1: .*unknown category 'zebra'"):
        classify(declared, assigned="p", correct="t", categories=["a", "b"])
    with pytest.raises(ValueError, match=r"partition 1: column 't': unknown category 'zebra'"):
        classify(declared, assigned="p", correct="t", categories=["a", "b"], label_sep=",")
    with pytest.raises(ValueError, match="verbose"):
        classify(declared, assigned="p", correct="t", verbose=True)
    with pytest.raises(ValueError, match="unknown must be"):
        classify(declared, assigned="p", correct="t", unknown="sometimes")
    with pytest.raises(ValueError, match="label_sep must be a non-empty string"):
        classify(declared, assigned="p", correct="t", label_sep="")
    with pytest.raises(ValueError, match="split_every must be an integer of at least 2"):
        compare(declared, reference="p", model="t", split_every=1)
    with pytest.raises(TypeError, match="frame must be a Dask DataFrame or Bag, not DataFrame"):
        compare(pd.DataFrame({"p": [1]}), reference="p", model="p")
    numbers = _frame({"p": [1, 2], "t": [1, 2], "w": [1, -1]}, 2)
    with pytest.raises(TypeError, match=r"partition \d: column 'p': with label_sep every cell"):
        classify(numbers, assigned="p", correct="t", label_sep="|")
    with pytest.raises(ValueError, match=r"partition 1: column 'w': weights\[0\] must be a non-negative"):
        compare(numbers, reference="p", model="t", weights="w")
    with pytest.raises(ValueError, match=r"partition 1: column 'w': weights\[0\] must be a finite non-neg"):
        classify(numbers, assigned="p", correct="t", weights="w")
    with pytest.raises(ValueError, match=r"the frame has no column 'weight'"):
        classify(numbers, assigned="p", correct="t", weights="weight")
    with pytest.raises(ValueError, match=r"partition 0: a record has no field 'q'"):
        compare(db.from_sequence([{"p": 1}], npartitions=1), reference="p", model="q")


def test_importing_contingency_does_not_import_dask():
    code = ("import sys, contingency; "
            "assert not [m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed', 'pandas', 'pyarrow')], sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=Path(__file__).resolve().parent.parent)


# A real two-process cluster ------------------------------------------------------------------

N_ROWS = 1_000_000
N_FILES = 8
TOPICS = np.array(["world", "sports", "business", "science", "health", "arts", "travel",
                   "late-topic"])


def _cells(masks: np.ndarray) -> Any:
    """Cells ``"world|science"`` for bit masks over TOPICS, gathered by Arrow from the 256 distinct ones."""
    pool = ["|".join(TOPICS[[j for j in range(len(TOPICS)) if mask >> j & 1]])
            for mask in range(1 << len(TOPICS))]
    return pa.DictionaryArray.from_arrays(masks, pool).cast(pa.string())


def _dataset(n: int, seed: int = 13) -> dict[str, np.ndarray]:
    """n rows: single-label decisions, multi-label cells, classes, clusters, weights (numpy only).

    The last topic occurs only in the last 2000 rows, so the open category set
    grows in the last partition.
    """
    rng = np.random.default_rng(seed)
    k = len(TOPICS) - 1
    assigned = rng.integers(0, k, n)
    correct = np.where(rng.random(n) < 0.7, assigned, rng.integers(0, k, n))
    assigned[-2000:-1000] = k
    correct[-1500:] = k
    bits = 1 << np.arange(len(TOPICS))
    chosen = rng.random((n, len(TOPICS))) < 0.2
    truth = np.where(rng.random((n, len(TOPICS))) < 0.8, chosen,
                     rng.random((n, len(TOPICS))) < 0.2)
    chosen[:-2000, -1] = truth[:-2000, -1] = False
    classes = rng.integers(0, 40, n)
    clusters = np.where(rng.random(n) < 0.6, classes // 2, rng.integers(0, 30, n))
    return {"assigned": TOPICS[assigned], "correct": TOPICS[correct],
            "assigned_set": chosen, "correct_set": truth,
            "assigned_cells": _cells(chosen.astype(np.int64) @ bits),
            "correct_cells": _cells(truth.astype(np.int64) @ bits),
            "known": np.array([f"class-{c}" for c in range(40)])[classes], "cluster": clusters,
            "weight": rng.choice([0.0, 0.5, 1.0, 2.25], n)}


def _multi_label_oracle(chosen: np.ndarray, truth: np.ndarray) -> Contingency:
    """One process, one batch: indicator matrices, columns in the order an add_result loop meets them."""
    k = chosen.shape[1]
    first = []
    for j in range(k):
        keys = [2 * int(np.argmax(side[:, j])) * k + offset * k + j
                for offset, side in enumerate((chosen, truth)) if side[:, j].any()]
        first.append(min(keys) if keys else None)
    order = sorted((j for j in range(k) if first[j] is not None), key=lambda j: first[j])
    batch = Contingency(TOPICS[order].tolist()).add_results(chosen[:, order], truth[:, order])
    return Contingency()._add_counts(batch)  # an open accumulator with the batch's counts


@pytest.fixture(scope="module")
def parquet_data(tmp_path_factory) -> tuple[Path, dict[str, np.ndarray]]:
    data = _dataset(N_ROWS)
    folder = tmp_path_factory.mktemp("parquet")
    table = pa.table({name: values for name, values in data.items()
                      if name not in ("assigned_set", "correct_set")})
    bounds = np.linspace(0, N_ROWS, N_FILES + 1).astype(int)
    for number, (start, stop) in enumerate(itertools.pairwise(bounds)):
        pq.write_table(table.slice(start, stop - start), folder / f"part-{number:02d}.parquet")
    return folder, data


@pytest.fixture(scope="module")
def one_process(parquet_data) -> dict[str, Any]:
    """The accumulators one process builds from the whole data set (batch paths, no Dask)."""
    data = parquet_data[1]
    return {"single": Contingency().add_results(data["assigned"], data["correct"]),
            "weighted": Contingency().add_results(data["assigned"], data["correct"],
                                                  weights=data["weight"]),
            "multi": _multi_label_oracle(data["assigned_set"], data["correct_set"]),
            "clustering": PartitionComparison().add_many(data["known"], data["cluster"])}


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=":0",
                                  silence_logs=50) as local, distributed.Client(local) as client:
        yield client


def test_a_two_worker_cluster_gives_the_one_process_accumulators(cluster, parquet_data, one_process):
    folder, data = parquet_data
    frame = dd.read_parquet(str(folder))
    assert frame.npartitions >= N_FILES
    assert len(cluster.scheduler_info()["workers"]) == 2
    single, weighted, multi, clustering = dask.compute(
        classify(frame, assigned="assigned", correct="correct", compute=False),
        classify(frame, assigned="assigned", correct="correct", weights="weight", compute=False),
        classify(frame, assigned="assigned_cells", correct="correct_cells", label_sep="|",
                 compute=False),
        compare(frame, reference="known", model="cluster", compute=False))

    assert single == one_process["single"]
    assert "late-topic" in single.categories
    assert list(single.categories) == sorted(single.categories)
    assert single.n_results == N_ROWS
    assert weighted == one_process["weighted"]
    assert weighted.n_results == float(data["weight"].sum())
    assert multi == one_process["multi"]
    assert "late-topic" in multi.categories
    assert clustering == one_process["clustering"]
    assert clustering.pair_confusion() == one_process["clustering"].pair_confusion()
    # The oracle's construction is an add_result loop's state (checked on a slice, rows
    # from the end so that the late topic is in it).
    tail = slice(N_ROWS - 3000, N_ROWS)
    loop = _loop(None, *([cell.split("|") if cell else [] for cell in data[side][tail].to_pylist()]
                         for side in ("assigned_cells", "correct_cells")))
    assert loop == _multi_label_oracle(data["assigned_set"][tail], data["correct_set"][tail])


def test_a_worker_killed_mid_run_is_survived_and_nothing_counts_twice(cluster, parquet_data, one_process,
                                                                     tmp_path):
    """A task kills its own worker process once (a marker file remembers it); Dask reruns what was lost."""
    folder = parquet_data[0]
    marker = str(tmp_path / "killed")

    def kill_once(part: pd.DataFrame, partition_info: Any = None) -> pd.DataFrame:
        if (partition_info is not None and partition_info["number"] == N_FILES - 2
                and not os.path.exists(marker)):
            with open(marker, "w") as record:
                record.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return part

    frame = dd.read_parquet(str(folder)).map_partitions(kill_once)
    single, clustering = dask.compute(
        classify(frame, assigned="assigned", correct="correct", compute=False),
        compare(frame, reference="known", model="cluster", compute=False))

    killed = int(Path(marker).read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)  # that worker process is gone
    assert single == one_process["single"]
    assert single.n_results == N_ROWS
    assert clustering == one_process["clustering"]
    assert clustering.n_elements == N_ROWS


def test_an_object_column_of_integers_past_int64_is_counted_as_labels() -> None:
    """Arrow's conversion raised OverflowError for an integer past int64 (issue 31, item 9: the
    column then goes to the accumulators, which check each label as every path does)."""
    frame = pd.DataFrame({"p": pd.Series([1, 2**70, 2**70], dtype=object),
                          "t": pd.Series([1, 2**70, 1], dtype=object)})
    with dask.config.set({"scheduler": "sync", "dataframe.convert-string": False}):
        result = classify(dd.from_pandas(frame, npartitions=2), assigned="p", correct="t")
    assert result == Contingency().add_results([1, 2**70, 2**70], [1, 2**70, 1])


# curves: ThresholdContingency and MulticlassThresholdContingency by partition ----------------------


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0]), st.booleans(),
                          st.sampled_from([1, 2, 3, 0.5, 0.125, 2.25])), min_size=1, max_size=40),
       st.integers(1, 5), st.integers(2, 4), st.sampled_from([None, 4]))
def test_curves_equal_one_process_and_merge_exactly(rows, parts, fan_in, bins) -> None:
    from contingency import ThresholdContingency
    from contingency.dask import curves

    frame = pd.DataFrame(rows, columns=["p", "truth", "w"])
    result = curves(dd.from_pandas(frame, npartitions=parts), score="p", correct="truth",
                    weights="w", split_every=fan_in, bins=bins)
    one_process = ThresholdContingency(bins=bins)
    for score, truth, weight in rows:
        one_process.add(score, truth, weight=weight)
    assert result == one_process


def test_curves_of_several_classes_and_of_indicators_equal_one_process() -> None:
    from contingency import MulticlassThresholdContingency
    from contingency.dask import curves

    rng = np.random.default_rng(5)
    scores = np.round(rng.random((90, 3)), 2)
    frame = pd.DataFrame(scores, columns=["cat", "dog", "owl"])
    frame["truth"] = np.array(["cat", "dog", "owl"])[rng.integers(0, 3, 90)]
    for name in ("cat", "dog", "owl"):
        frame[f"is_{name}"] = (rng.random(90) < 0.4).astype(int)
    data = dd.from_pandas(frame, npartitions=4)
    result = curves(data, score=["cat", "dog", "owl"], correct="truth")
    one_process = MulticlassThresholdContingency(["cat", "dog", "owl"])
    one_process.add_results(scores, frame["truth"])
    assert result == one_process
    assert result.top_k_accuracy(2) == one_process.top_k_accuracy(2)
    indicators = curves(data, score=["cat", "dog", "owl"], classes=["c", "d", "o"],
                        correct=["is_cat", "is_dog", "is_owl"])
    expected = MulticlassThresholdContingency(["c", "d", "o"], multilabel=True)
    expected.add_results(scores, frame[["is_cat", "is_dog", "is_owl"]].to_numpy())
    assert indicators == expected
    lazy = curves(data, score="cat", correct="truth", pos_label="cat", compute=False)
    assert isinstance(lazy, Delayed)


def test_curves_errors_name_the_column_and_the_partition() -> None:
    from contingency.dask import curves

    frame = pd.DataFrame({"p": [0.1, 0.2, float("nan"), 0.4], "truth": [0, 1, 0, 1]})
    data = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(ValueError, match=r"curves: partition 1: add_results: scores\[0\] must be a finite"):
        curves(data, score="p", correct="truth")
    with pytest.raises(ValueError, match="curves: the frame has no column 'q'"):
        curves(data, score="q", correct="truth")
    with pytest.raises(ValueError, match="bins"):
        curves(data, score="p", correct="truth", bins=0)
