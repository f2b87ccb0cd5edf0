"""Benchmarks of :mod:`fastscore.dask`: a Parquet file in, Parquet results out, file to file.

Tasks ``score_parquet`` and ``waits_parquet`` (hands per second, reading,
parsing, scoring and writing included), by implementation:

``single``       the single-machine job, as ``fastscore batch IN -o OUT.parquet``
                 (``io.iter_batches``, ``score_batch``/``waits_batch``, ``io.open_writer``)
``inprocess``    :func:`fastscore.dask.score_parquet` without a cluster: the same
                 tasks one after another in this process (the partition plumbing alone)
``dask_local2``  :func:`fastscore.dask.score_parquet` on a ``LocalCluster`` of two
                 worker processes with one thread each, started and warmed before timing

``survey`` (hands of the space per second, each scored once per distinct
kind it holds) tallies the bamboo-and-honours space (:data:`SURVEY_SPACE`,
460,715 hands) with :func:`fastscore.survey.survey` (``single``), with
:func:`fastscore.dask.survey` in this process (``inprocess``) and on the
two-worker cluster (``dask_local2``), ranges of :data:`SURVEY_PARTITION` hands.

``partition_overhead`` runs :data:`OVERHEAD_ROWS` hands on the cluster as one
partition per worker and as partitions of 10 rows; ``extra_info`` holds
``s_per_partition`` and, for the small partitions, ``overhead_ms`` = the extra
wall time per added partition (times the two workers, so it is the cost of
one task).  Rounds are few and exact (``benchmark.pedantic``): each round
takes seconds.

Run: ``python3 -m pytest bench/test_bench_dask.py --benchmark-only -p no:cacheprovider``.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from benchlib import ready, run, warm, winning
from distributed import Client

from fastscore import io, score_batch, waits_batch
from fastscore.dask import local_cluster, plan_partitions, score_parquet, waits_parquet, warm_workers
from fastscore.dask.cluster import _warm
from fastscore.dask import survey as dask_survey
from fastscore.survey import survey

N = {"score": 100_000, "waits": 50_000}
PARTITION_ROWS = 12_500  # 8 or 4 partitions: whole ones per worker
ROUNDS = 3
WORKERS = 2
OVERHEAD_ROWS = 2_000
SMALL_PARTITION = 10
SURVEY_SPACE = dict(suits="s", honours=True)
SURVEY_HANDS = 460_715
SURVEY_PARTITION = 1 << 16  # 8 tasks


def _write(path, batch, row_group: int):
    pq.write_table(pa.Table.from_pylist(io.hand_records(batch)), path, row_group_size=row_group)
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    warm()
    _warm()  # the writer and the parallel kernels too, and numba's disk cache for the workers
    folder = tmp_path_factory.mktemp("bench-dask")
    return {
        "score": _write(folder / "winning.parquet", winning(N["score"]), PARTITION_ROWS),
        "waits": _write(folder / "ready.parquet", ready(N["waits"]), PARTITION_ROWS),
        "overhead": _write(folder / "overhead.parquet", winning(OVERHEAD_ROWS), SMALL_PARTITION),
    }


@pytest.fixture(scope="module")
def client(inputs):
    with local_cluster(WORKERS, dashboard_address=":0") as cluster, Client(cluster, set_as_default=False) as c:
        warm_workers(c)
        yield c


def _single(path, kind: str, out):
    """The single-machine job, file to file."""
    process = score_batch if kind == "score" else waits_batch
    with io.open_writer(out, kind) as writer:
        for batch in io.iter_batches(path, require_win=kind == "score"):
            writer.write(process(batch), writer.rows_written)


@pytest.mark.parametrize("kind", ["score", "waits"])
@pytest.mark.parametrize("impl", ["single", "inprocess", "dask_local2"])
def test_parquet_job(benchmark, request, inputs, tmp_path, kind, impl):
    source = inputs[kind]
    job = score_parquet if kind == "score" else waits_parquet
    if impl == "single":
        def fn():
            return _single(source, kind, tmp_path / "out.parquet")
    else:
        c = request.getfixturevalue("client") if impl == "dask_local2" else None
        # client=None with no default client: this process
        def fn():
            return job(source, tmp_path / "out", client=c, partition_rows=PARTITION_ROWS, overwrite=True)
    benchmark.extra_info.update(partition_rows=PARTITION_ROWS, workers=WORKERS if impl == "dask_local2" else 1)
    run(benchmark, fn, task=f"{kind}_parquet", impl=impl, family="mixed", n=N[kind], rounds=ROUNDS,
        group=f"{kind}_parquet")


@pytest.mark.parametrize("impl", ["single", "inprocess", "dask_local2"])
def test_survey(benchmark, request, inputs, impl):
    if impl == "single":
        def fn():
            return survey(**SURVEY_SPACE, progress=False)
    else:
        c = request.getfixturevalue("client") if impl == "dask_local2" else None

        def fn():
            return dask_survey(client=c, partition_hands=SURVEY_PARTITION, **SURVEY_SPACE)
    benchmark.extra_info.update(partition_hands=SURVEY_PARTITION, workers=WORKERS if impl == "dask_local2" else 1)
    result = run(benchmark, fn, task="survey", impl=impl, family="space_s_honours", n=SURVEY_HANDS, rounds=ROUNDS)
    assert result.hands == SURVEY_HANDS


@pytest.fixture(scope="module")
def one_partition_per_worker(inputs, client, tmp_path_factory):
    """Seconds for the overhead input as one partition per worker (the baseline of the overhead)."""
    import time

    out = tmp_path_factory.mktemp("overhead-baseline")
    score_parquet(inputs["overhead"], out, client=client, partition_rows=OVERHEAD_ROWS // WORKERS, overwrite=True)
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        score_parquet(inputs["overhead"], out, client=client, partition_rows=OVERHEAD_ROWS // WORKERS,
                      overwrite=True)
        best = min(best, time.perf_counter() - start)
    return best


def test_partition_overhead(benchmark, inputs, client, one_partition_per_worker, tmp_path):
    n_parts = len(plan_partitions(inputs["overhead"], SMALL_PARTITION))
    assert n_parts == OVERHEAD_ROWS // SMALL_PARTITION

    def fn():
        return score_parquet(inputs["overhead"], tmp_path / "out", client=client, partition_rows=SMALL_PARTITION,
                             overwrite=True)

    benchmark.extra_info.update(partitions=n_parts, partition_rows=SMALL_PARTITION, workers=WORKERS)
    run(benchmark, fn, task="partition_overhead", impl="dask_local2", family="mixed", n=OVERHEAD_ROWS,
        rounds=ROUNDS)
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["s_per_partition"] = mean / n_parts
    benchmark.extra_info["baseline_s"] = one_partition_per_worker
    benchmark.extra_info["overhead_ms"] = 1e3 * WORKERS * (mean - one_partition_per_worker) / (n_parts - WORKERS)
