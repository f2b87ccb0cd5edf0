"""The win check per family of sampled winning hands, M hands/s: ``python scripts/win_check_families.py [N]``.

N hands (default 1e6) of ``sample_winning(N, seed=7, families=F)`` for ``mixed`` and each shape family,
best and median of 7 calls of ``fastscore.win_check``, numba's default threads; one JSON object.
"""
import json, sys, time

import numpy as np

import fastscore

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
figures = {}
for family in ("mixed", "standard", "nico_nico", "thirteen_orphans", "sixteen_orphans"):
    batch = fastscore.sample_winning(N, seed=7, families=family)
    assert fastscore.win_check(batch).all()  # compile or load; every sampled hand wins
    times = []
    for _ in range(7):
        start = time.perf_counter()
        fastscore.win_check(batch)
        times.append(time.perf_counter() - start)
    figures[family] = {"best": round(N / min(times) / 1e6, 1), "median": round(N / np.median(times) / 1e6, 1)}
print(json.dumps(figures))
