"""``score_batch`` per family of sampled winning hands, ns a hand: ``python scripts/score_families.py [N]``.

N hands (default 1e6) of ``sample_winning(N, seed=7, families=F)`` for ``mixed`` and each family of
``fastscore.sample.FAMILIES``, ``rows=False``, best of 5 calls, numba's default threads; one JSON object.
"""
import json, sys, time

import fastscore
from fastscore.sample import FAMILIES

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
figures = {}
for family in FAMILIES:
    batch = fastscore.sample_winning(N, seed=7, families=family)
    fastscore.score_batch(batch, rows=False)  # compile or load the kernels
    times = []
    for _ in range(5):
        start = time.perf_counter()
        fastscore.score_batch(batch, rows=False)
        times.append(time.perf_counter() - start)
    figures[family] = round(min(times) / N * 1e9, 1)
print(json.dumps(figures))
