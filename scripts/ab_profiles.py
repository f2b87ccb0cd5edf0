"""``score_batch`` (``rows=False, out=``) on 1e6 ``sample_winning(seed=1)`` hands under several rule tables, ns a
hand, best of 7: ``PYTHONPATH=CHECKOUT python scripts/ab_profiles.py THREADS TABLE ...`` (a profile name or a
rules file, e.g. ``lrc taiwan taiwan-masters tests/data/hk_rows.toml``).  One JSON line."""
import json, sys, time, numba
import fastscore
from fastscore import score_batch
numba.set_num_threads(int(sys.argv[1]))
N = 1_000_000
s = fastscore.sample_winning(N, seed=1)
out = {}
for name in sys.argv[2:]:
    r = score_batch(s, rules=name, rows=False)
    best = 1e9
    for _ in range(7):
        t = time.perf_counter(); score_batch(s, rules=name, rows=False, out=r); best = min(best, time.perf_counter() - t)
    out[name.split("/")[-1]] = round(best / N * 1e9, 1)
print(json.dumps(out))
