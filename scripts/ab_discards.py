"""A/B timing of the discard analysis kernel, CPU seconds for 1e4 dealt 17-tile hands, one JSON line.

Run in alternating processes for two checkouts, one thread:
``NUMBA_NUM_THREADS=1 PYTHONPATH=OLD python scripts/ab_discards.py; NUMBA_NUM_THREADS=1 PYTHONPATH=NEW python scripts/ab_discards.py``.
"""
import json
import time

import numpy as np

from fastscore import HandBatch, discard_analysis

N = 10_000
rng = np.random.default_rng(20261202)
wall = np.repeat(np.arange(34, dtype=np.int64), 4)
tiles = wall[np.argsort(rng.random((N, 136)), axis=1)[:, :17]]
concealed = np.zeros((N, 34), dtype=np.uint8)
np.add.at(concealed, (np.repeat(np.arange(N), 16), tiles[:, :16].ravel()), 1)
batch = HandBatch.from_arrays(concealed, win=tiles[:, 16].astype(np.int8))
discard_analysis(batch)  # compile or load
times = []
for _ in range(5):
    t = time.process_time()
    discard_analysis(batch)
    times.append(time.process_time() - t)
print(json.dumps({"discards_us_per_hand": round(min(times) / N * 1e6, 2)}))
