"""A/B timing of the kernels on built batches, ns a hand: ``PYTHONPATH=CHECKOUT python scripts/ab_kernels.py THREADS``."""
import json, sys, time, numba
import fastscore
from fastscore import score_batch, win_check, waits_batch
numba.set_num_threads(int(sys.argv[1]))
s = fastscore.sample_winning(1_000_000, seed=1)
r = fastscore.sample_ready(200_000, seed=1)
score_batch(s); win_check(s); waits_batch(r)  # compile or load the kernels
def best(f, k=5):
    ts = []
    for _ in range(k):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)
print(json.dumps({"score_ns": round(best(lambda: score_batch(s)) / 1e6 * 1e9, 1),
                  "win_check_ns": round(best(lambda: win_check(s)) / 1e6 * 1e9, 1),
                  "waits_ns": round(best(lambda: waits_batch(r), 3) / 2e5 * 1e9, 1)}))
