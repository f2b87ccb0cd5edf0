"""``score_batch`` (``rows=False, out=``) on about 1e6 rows made of K distinct sampled winning hands repeated,
shuffled or in order, at 1 and 2 threads, ns a hand: ``python scripts/score_repeats.py [K ...]``.

Small K keeps the tables the hands read in cache; shuffled rows keep the branch predictors from learning
the sequence (in order they repeat every K rows).  Best of 5 calls.  One JSON line per K.
"""
import json
import sys
import time

import numba
import numpy as np

import fastscore
from fastscore import HandBatch, score_batch

for k in [int(a) for a in sys.argv[1:]] or [100, 1000, 4000, 1_000_000]:
    reps = max(1, 1_000_000 // k)
    distinct = fastscore.sample_winning(k, seed=1)
    rows = np.tile(np.arange(k), reps)
    figures = {"k": k}
    for order, index in (("in_order", rows), ("shuffled", np.random.default_rng(0).permutation(rows))):
        batch = HandBatch.from_arrays(distinct.concealed[index], distinct.declared[index], distinct.win[index])
        result = score_batch(batch, rows=False)
        for threads in (1, 2):
            numba.set_num_threads(threads)
            best = 1e9
            for _ in range(5):
                t = time.perf_counter()
                score_batch(batch, rows=False, out=result)
                best = min(best, time.perf_counter() - t)
            figures[f"{order}_{threads}_thread_ns"] = round(best / len(index) * 1e9, 1)
    print(json.dumps(figures), flush=True)
