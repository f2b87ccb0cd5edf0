"""End-to-end benchmarks of ``fastscore batch`` on Parquet files (read, parse, score, write).

* notation strings (``hand``, ``win``, ... columns) to a Parquet result file;
* encoded hands (``fastscore encode``, :data:`fastscore.io.ENCODED_COLUMNS`) to a Parquet result file;

1e6 mixed winning hands each, through the command line's ``app`` in this
process (kernels already loaded), with the output written resumably as the
command always does (a part per chunk, the output file beside it).
Throughput counts rows of the input; the issue targets are 2 M rows/s
(notation) and 8 M rows/s (encoded) on 2 cores.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from benchlib import TARGETS, run, size_id, warm, winning

from fastscore import io
from fastscore.cli import app

N = 1_000_000
ROUNDS = 3
TARGETS.setdefault("batch_parquet", 2e6)
TARGETS.setdefault("batch_encoded", 8e6)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The same 1e6 hands as a notation Parquet file and as an encoded one."""
    folder = tmp_path_factory.mktemp("bench_io")
    batch = winning(N)
    notation = folder / "hands.parquet"
    pq.write_table(pa.table(io._input_columns(batch)), notation, row_group_size=io.ROW_GROUP_ROWS)
    encoded = folder / "hands.enc.parquet"
    io.write_encoded(batch, encoded)
    return folder, {"batch_parquet": notation, "batch_encoded": encoded}


@pytest.mark.parametrize("task", ["batch_parquet", "batch_encoded"])
@pytest.mark.parametrize("n", [N], ids=size_id)
def test_batch_parquet_to_parquet(benchmark, inputs, task, n):
    folder, sources = inputs
    source, out = sources[task], folder / f"{task}.out.parquet"
    warm()

    def batch():
        status = app(["batch", str(source), "-o", str(out), "--no-progress"], standalone_mode=False)
        assert not status

    run(benchmark, batch, task=task, impl="jit_parallel", family="mixed", n=n, rounds=ROUNDS, group="batch_io")
    benchmark.extra_info["rows_per_s"] = benchmark.extra_info["hands_per_s"]
    assert pq.read_metadata(out).num_rows == n
