"""``fastscore batch`` end to end, for alternated A/B runs: ``PYTHONPATH=CHECKOUT python scripts/ab_e2e.py [none dense sparse]``.

1e6 encoded winning hands (``/tmp/e2e/hands.enc.parquet``, made by ``scripts/e2e_batch.py``) scored
Parquet to Parquet in this process, once to load the kernels, then 5 runs per ``--rows`` layout; prints
one ``RESULT`` line: M rows/s (min-max, and the best three) and the process CPU seconds of a run.
Run it in turn for each checkout (each with its own ``FASTSCORE_CACHE``) and compare the ranges.
"""
import json
import sys
import time

from fastscore.cli import app

SOURCE = "/tmp/e2e/hands.enc.parquet"


def batch(rows):
    app(["batch", SOURCE, "-o", f"/tmp/e2e/out-{rows}.parquet", "--no-progress", "--rows", rows],
        standalone_mode=False)


batch("none")
out = {}
for rows in sys.argv[1:] or ["none", "dense", "sparse"]:
    runs = []
    for _ in range(5):
        wall, cpu = time.perf_counter(), time.process_time()
        batch(rows)
        runs.append((1.0 / (time.perf_counter() - wall), time.process_time() - cpu))
    runs.sort()
    out[rows] = (f"{runs[0][0]:.2f}-{runs[-1][0]:.2f} M/s (best 3: {runs[2][0]:.2f}..{runs[-1][0]:.2f}), "
                 f"cpu {min(r[1] for r in runs):.2f}-{max(r[1] for r in runs):.2f}")
print("RESULT", json.dumps(out))
