"""Dump the output arrays of the kernels and of the small-batch path, to compare two checkouts:

    PYTHONPATH=OLD python scripts/dump_outputs.py old.npz
    PYTHONPATH=NEW python scripts/dump_outputs.py new.npz
    python scripts/dump_outputs.py --compare old.npz new.npz

(give each checkout its own ``FASTSCORE_CACHE``; not ``NUMBA_CACHE_DIR``, which can load
another checkout's stale kernels: bench/README.md).  Arrays: ``score_batch``, ``win_check``,
``waits_batch``, ``shanten_batch`` and ``discard_analysis`` under ``lrc`` and ``taiwan`` on sampled
winning (every family), special-shape, ready and dealt 16- and 17-tile hands; ``HandBatch.from_arrays``
from uint8, int64, lists and scalars, with bad rows, at 1 to 3,000 rows (codes, messages, the
exceptions of refused arguments).  About 4 minutes once the kernels are compiled.  ``DUMP_RULES=lrc,hk-taiwanese``
(comma-separated profiles or rules files) replaces the two tables.
"""
import json, os, sys
import numpy as np

if sys.argv[1] == "--compare":
    a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
    assert sorted(a.files) == sorted(b.files), set(a.files) ^ set(b.files)
    bad = [k for k in a.files if not (a[k].shape == b[k].shape and np.array_equal(a[k], b[k]))]
    print(len(a.files), "arrays,", sum(a[k].size for k in a.files), "values; differ:", bad)
    sys.exit(1 if bad else 0)

import fastscore
from fastscore import HandBatch, discard_analysis, score_batch, shanten_batch, waits_batch, win_check
from fastscore.sample import sample_dealt

out = {}
wins = fastscore.sample_winning(200_000, seed=3)
spec = fastscore.sample_winning(20_000, seed=4, families=["nico_nico", "thirteen_orphans", "sixteen_orphans"])
ready = fastscore.sample_ready(50_000, seed=3)
d16 = sample_dealt(200_000, seed=3, n_tiles=16)
d17 = sample_dealt(20_000, seed=3, n_tiles=17)
for rules in os.environ.get("DUMP_RULES", "lrc,taiwan").split(","):
    for name, b in (("wins", wins), ("spec", spec)):
        r = score_batch(b, rules=rules)
        for f in ("payout", "total", "points", "legal", "is_win", "chicken", "shape", "row_points", "error"):
            out[f"{rules}/{name}/score/{f}"] = getattr(r, f)
        out[f"{rules}/{name}/win_check"] = win_check(b, rules=rules)
    w = waits_batch(ready, rules=rules)
    for f in ("mask", "payout_discard", "payout_self_draw", "n_waits", "error"):
        if hasattr(w, f): out[f"{rules}/waits/{f}"] = getattr(w, f)
    for name, b in (("d16", d16), ("d17", d17), ("wins", wins), ("spec", spec)):
        s = shanten_batch(b, rules=rules)
        for f in ("shanten", "standard", "nico_nico", "thirteen_orphans", "sixteen_orphans", "error"):
            out[f"{rules}/{name}/shanten/{f}"] = getattr(s, f)
    for name, b in (("d17", d17.take(slice(0, 3000))), ("spec", spec.take(slice(0, 3000)))):
        a = discard_analysis(b, rules=rules)
        for f in ("shanten", "useful", "live_useful", "live", "ready_row", "ready_discard", "expected_discard", "expected_self_draw", "error"):
            out[f"{rules}/{name}/discards/{f}"] = getattr(a, f)
w = fastscore.sample_winning(3000, seed=7)
r = fastscore.sample_ready(1000, seed=7)
c, d, win = w.concealed.astype(np.int64), w.declared.astype(np.int32), w.win.astype(np.int64)
rng = np.random.default_rng(1)
c2 = c.copy(); c2[rng.integers(0, 3000, 50), rng.integers(0, 34, 50)] = 5
win2 = win.copy(); win2[rng.integers(0, 3000, 30)] = 40; win2[rng.integers(0, 3000, 30)] = -1
seat = rng.integers(0, 5, 3000); flowers = rng.integers(0, 256, 3000); streak = rng.integers(0, 4, 3000)
sd = rng.integers(0, 2, 3000).astype(bool)
variants = {
  "plain": lambda: HandBatch.from_arrays(w.concealed, w.declared, w.win),
  "int64": lambda: HandBatch.from_arrays(c, d, win),
  "bad": lambda: HandBatch.from_arrays(c2, d, win2, seat=seat, flowers=flowers, streak=streak, self_drawn=sd),
  "ctx": lambda: HandBatch.from_arrays(c, d, win, seat=np.uint8(2), round=1, self_drawn=True, closing=0, streak=np.int64(3)),
  "lists": lambda: HandBatch.from_arrays(c[:20].tolist(), d[:20].tolist(), win[:20].tolist(), seat=seat[:20].tolist()),
}
for name, make in variants.items():
    for n in (1, 2, 7, 600, 3000):
        try:
            b = make()
        except Exception as e:
            out[f"{name}/{n}/exc"] = np.array(repr(e)); continue
        b = b.take(slice(0, n)) if n < len(b) else b
        res = score_batch(b)
        for f in ("payout", "total", "shape", "row_points", "error"):
            out[f"{name}/{n}/{f}"] = getattr(res, f)
        out[f"{name}/{n}/messages"] = np.array(json.dumps(res.messages))
        out[f"{name}/{n}/batch_messages"] = np.array(json.dumps(b.messages))
        out[f"{name}/{n}/batch_error"] = b.error
        out[f"{name}/{n}/win_check"] = win_check(b)
for n in (1, 5, 1000):
    b = HandBatch.from_arrays(r.concealed[:n], r.declared[:n], seat=1)
    res = waits_batch(b)
    for f in ("mask", "payout_discard", "payout_self_draw", "n_waits", "error"):
        out[f"waits/{n}/{f}"] = getattr(res, f)
    one = HandBatch.from_arrays(r.concealed[:n], r.declared[:n], np.full(n, -1))
    out[f"waits/{n}/minus1"] = waits_batch(one).n_waits
# direct from_arrays errors
for bad in [dict(self_drawn=[2]), dict(win=np.zeros(3)), dict(seat=np.zeros(2))]:
    try:
        HandBatch.from_arrays(c[:3], d[:3], **({"win": win[:3]} | bad))
        out[f"exc/{sorted(bad)}"] = np.array("none")
    except Exception as e:
        out[f"exc/{sorted(bad)}"] = np.array(repr(e))
np.savez(sys.argv[1], **out)
print(len(out), "arrays")
