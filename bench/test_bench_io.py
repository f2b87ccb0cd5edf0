"""End-to-end benchmarks of ``fastscore batch`` on Parquet files (read, parse, score, write).

* notation strings (``hand``, ``win``, ... columns) to a Parquet result file;
* encoded hands (``fastscore encode``, :data:`fastscore.io.ENCODED_COLUMNS`) to a Parquet result file;
* the output writer alone: an already built result table written as ``fastscore batch`` writes it,
  and the same table in the cheapest Parquet pyarrow writes (plain values, no compression).  The
  writer encodes one file on one thread (pyarrow's Parquet writer has no threaded column
  encoding), so its rate bounds both end-to-end figures whatever else is made faster.

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
# The writer alone is held to the end-to-end target it bounds: the encoded one, the higher.
TARGETS.setdefault("write_output", 8e6)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The same 1e6 hands as a notation Parquet file and as an encoded one."""
    folder = tmp_path_factory.mktemp("bench_io")
    batch = winning(N)
    notation = folder / "hands.parquet"
    pq.write_table(pa.table(io.schemas._input_columns(batch)), notation, row_group_size=io.ROW_GROUP_ROWS)
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


#: ``pyarrow.parquet.ParquetWriter`` options: those of ``fastscore batch``'s output, and the cheapest
#: to encode (plain values, no compression, no statistics: about 28 times the file).
WRITER_OPTIONS = {"output": None, "plain_uncompressed": {"compression": "none", "use_dictionary": False,
                                                         "write_statistics": False}}


@pytest.mark.parametrize("options", list(WRITER_OPTIONS))
@pytest.mark.parametrize("n", [N], ids=size_id)
def test_output_writer_alone(benchmark, tmp_path, options, n):
    """Writing the score output of ``n`` hands, the table already built: the one step of
    ``fastscore batch`` that cannot use the second core (see the module docstring)."""
    from fastscore import score_batch

    warm()
    table = io.result_table(score_batch(winning(n)))
    out = tmp_path / "out.parquet"

    def write():
        sink = io.writer._ParquetSink(out, table.schema, WRITER_OPTIONS[options])
        for start in range(0, n, io.DEFAULT_CHUNK_ROWS):  # chunk by chunk, as the command writes
            sink.write(table.slice(start, io.DEFAULT_CHUNK_ROWS))
        sink.close()

    run(benchmark, write, task="write_output", impl="pyarrow (1t)", family=options, n=n, rounds=ROUNDS,
        group="batch_io")
    benchmark.extra_info["rows_per_s"] = benchmark.extra_info["hands_per_s"]
    benchmark.extra_info["bytes_per_row"] = out.stat().st_size / n
    # Compared with ``shape`` decoded: plain values read back with a dictionary of their own per row group.
    plain = pa.schema([f.with_type(pa.string()) if f.name == "shape" else f for f in table.schema])
    assert pq.read_table(out).cast(plain).equals(table.cast(plain))
