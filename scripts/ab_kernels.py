"""A/B timing of the kernels on built batches, ns a hand: ``PYTHONPATH=CHECKOUT python scripts/ab_kernels.py THREADS [N]``.

N sampled winning hands (default 1e6; bench/README.md uses 5e4, which stays in cache) and N / 5 ready hands.
"""
import json, sys, time, numba
import fastscore
from fastscore import score_batch, win_check, waits_batch
numba.set_num_threads(int(sys.argv[1]))
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
s = fastscore.sample_winning(N, seed=1)
r = fastscore.sample_ready(N // 5, seed=1)
score_batch(s); win_check(s); waits_batch(r)  # compile or load the kernels
def best(f, k=9):
    ts = []
    for _ in range(k):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)
print(json.dumps({"score_ns": round(best(lambda: score_batch(s)) / N * 1e9, 1),
                  "win_check_ns": round(best(lambda: win_check(s)) / N * 1e9, 1),
                  "waits_ns": round(best(lambda: waits_batch(r), 3) / (N // 5) * 1e9, 1)}))
