"""``waits_batch`` per family of sampled ready hands, ns a hand: ``python scripts/waits_families.py [N]``.

N hands (default 2e5) of ``sample_ready(N, seed=7, families=F)`` for ``mixed`` and each shape family
(the sampled winning hands with their winning tile taken off), best of 5 calls, numba's default threads;
one JSON object.
"""
import json, sys, time

import fastscore

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
figures = {}
for family in ("mixed", "standard", "nico_nico", "thirteen_orphans", "sixteen_orphans"):
    batch = fastscore.sample_ready(N, seed=7, families=family)
    assert (fastscore.waits_batch(batch).n_waits > 0).all()  # compile or load; every sampled hand is ready
    times = []
    for _ in range(5):
        start = time.perf_counter()
        fastscore.waits_batch(batch)
        times.append(time.perf_counter() - start)
    figures[family] = round(min(times) / N * 1e9, 1)
print(json.dumps(figures))
