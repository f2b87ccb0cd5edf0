"""End-to-end ``fastscore batch`` on 1e6 rows, Parquet to Parquet, beside the output writer alone, per
``--rows`` layout; one JSON object.  ``python scripts/e2e_batch.py [dense sparse none]``.

Wall-clock rows/s and the CPU seconds of the whole process (all threads) for notation and encoded
inputs; ``writer-<rows>``: the built result table written as the command writes it (one thread).
The inputs are made once in /tmp/e2e.
"""
import json
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import fastscore
from fastscore import io, score_batch
from fastscore.cli import app

N = 1_000_000
folder = Path("/tmp/e2e")
folder.mkdir(exist_ok=True)
encoded, notation = folder / "hands.enc.parquet", folder / "hands.parquet"
if not encoded.exists():
    hands = fastscore.sample_winning(N, seed=3)
    pq.write_table(pa.table(io.schemas._input_columns(hands)), notation, row_group_size=io.ROW_GROUP_ROWS)
    io.write_encoded(hands, encoded)


def batch(source, rows):
    app(["batch", str(source), "-o", str(folder / "out.parquet"), "--no-progress", "--rows", rows],
        standalone_mode=False)


batch(encoded, "none")  # load the kernels
figures = {}
for rows in sys.argv[1:] or ["dense", "sparse", "none"]:
    for name, source in (("encoded", encoded), ("notation", notation)):
        best = None
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            batch(source, rows)
            run = (time.perf_counter() - wall, time.process_time() - cpu)
            best = run if best is None or run[0] < best[0] else best
        figures[f"{name}-{rows}"] = {"M_rows_per_s": round(N / best[0] / 1e6, 2), "cpu_s": round(best[1], 2)}
    table = io.result_table(score_batch(fastscore.sample_winning(N, seed=3)), rows=rows)
    best = None
    for _ in range(3):
        wall = time.perf_counter()
        sink = io.writer._ParquetSink(folder / "writer.parquet", table.schema, None)
        for start in range(0, N, io.DEFAULT_CHUNK_ROWS):
            sink.write(table.slice(start, io.DEFAULT_CHUNK_ROWS))
        sink.close()
        best = min(best or 1e9, time.perf_counter() - wall)
    figures[f"writer-{rows}"] = {"M_rows_per_s": round(N / best / 1e6, 2)}
print(json.dumps(figures))
