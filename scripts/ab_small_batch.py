"""A/B of small batches, one JSON line: from_arrays + score_batch on 1 and 1,000 hands and 1e6, with the
parallel builds from LIMIT + 1 rows (fastscore._jit.SERIAL_MAX_ROWS).  Alternate runs:
``python scripts/ab_small_batch.py 1023; python scripts/ab_small_batch.py 511``.
"""
import sys, time, json, numpy as np, fastscore
from fastscore import HandBatch, score_batch, _jit
lim = int(sys.argv[1])
s = fastscore.sample_winning(1_000_000, seed=1)
arrays = (s.concealed.copy(), s.declared.copy(), s.win.copy())
small = tuple(a[:1000].copy() for a in arrays); one = tuple(a[:1].copy() for a in arrays)
_jit.SERIAL_MAX_ROWS = lim
for _ in range(3): score_batch(HandBatch.from_arrays(*small)); score_batch(HandBatch.from_arrays(*one))
def best(f, reps):
    ts=[]
    for _ in range(reps):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    return min(ts), float(np.median(ts))
b1, m1 = best(lambda: score_batch(HandBatch.from_arrays(*one)), 3000)
bk, mk = best(lambda: score_batch(HandBatch.from_arrays(*small)), 300)
bm, mm = best(lambda: score_batch(HandBatch.from_arrays(*arrays)), 5)
bs = s.take(slice(None))
kb, km = best(lambda: score_batch(bs), 5)
print(json.dumps({"serial_max": lim, "one_us_best": round(b1*1e6,1), "one_us_median": round(m1*1e6,1),
  "k1000_Mps_best": round(1000/bk/1e6,2), "k1000_Mps_median": round(1000/mk/1e6,2),
  "arrays_1e6_Mps": round(1e6/bm/1e6,2), "kernel_1e6_Mps": round(1e6/kb/1e6,2)}))
