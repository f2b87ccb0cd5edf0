"""A/B timing of the user path, one JSON line: arrays to results (1e6, 1,000, 1 hand), the kernel alone.

Run it in alternating processes for two checkouts, e.g.
``PYTHONPATH=OLD python scripts/ab_user_path.py 1000000; PYTHONPATH=NEW python scripts/ab_user_path.py 1000000``.
"""
import json, sys, time
import numpy as np
import fastscore
from fastscore import HandBatch, score_batch, waits_batch, win_check

def best(f, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
s = fastscore.sample_winning(N, seed=1)
r = fastscore.sample_ready(N // 5, seed=1)
arrays = (s.concealed.copy(), s.declared.copy(), s.win.copy())
small = tuple(a[:1000].copy() for a in arrays)
one = tuple(a[:1].copy() for a in arrays)
score_batch(s); waits_batch(r); win_check(s)
score_batch(HandBatch.from_arrays(*small)); score_batch(HandBatch.from_arrays(*one))
out = {}
out["kernel_score_1e6"] = N / best(lambda: score_batch(s), 5)
out["arrays_score_1e6"] = N / best(lambda: score_batch(HandBatch.from_arrays(*arrays)), 5)
out["arrays_score_1000"] = 1000 / best(lambda: score_batch(HandBatch.from_arrays(*small)), 50)
out["arrays_score_1_us"] = 1e6 * best(lambda: score_batch(HandBatch.from_arrays(*one)), 2000)
out["win_check_1e6"] = N / best(lambda: win_check(s), 5)
out["waits_2e5"] = (N // 5) / best(lambda: waits_batch(r), 5)
fastscore.score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S")
out["score_call_us"] = 1e6 * best(lambda: fastscore.score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S"), 500)
print(json.dumps({k: round(v, 1) for k, v in out.items()}))
