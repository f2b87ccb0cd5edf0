"""Where a cold compile goes: ``NUMBA_CACHE_DIR=EMPTY_DIR python scripts/compile_profile.py [score|waits|all]``.

Calls ``fastscore.score`` (or ``fastscore.waits``; ``all``: ``score``, then ``waits``, then
``sample_winning(10)``, each step timed) once on an empty numba cache and prints, from numba's
own records, the seconds of each compiled function (its pipeline passes, callees' compiles included),
the seconds of each pass summed over every function (nested compiles counted at each level), and the
time spent in LLVM (``numba:llvm_lock`` events).
"""
import collections, gc, sys, time

from numba.core import event
from numba.core.dispatcher import Dispatcher

import fastscore

HAND = "1m2m3m 4p5p6p 7s8s9s 1z1z1z 2m3m4m 5s"
what = sys.argv[1] if len(sys.argv) > 1 else "score"
start = time.perf_counter()
STEPS = {"score": lambda: fastscore.score(HAND, "5s"), "waits": lambda: fastscore.waits(HAND),
         "sample_winning": lambda: fastscore.sample_winning(10, seed=1)}
steps = list(STEPS) if what == "all" else [what]
with event.install_recorder("numba:llvm_lock") as llvm:
    for step in steps:
        begun = time.perf_counter()
        STEPS[step]()
        print(f"{step}: {time.perf_counter() - begun:.1f} s")
total = time.perf_counter() - start
llvm_s, opened = 0.0, None
for ts, ev in llvm.buffer:
    if ev.is_start:
        opened = ts
    else:
        llvm_s += ts - opened
print(f"{what}(): {total:.1f} s cold, LLVM {llvm_s:.1f} s")
per_function, per_pass = [], collections.defaultdict(float)
for obj in gc.get_objects():
    if isinstance(obj, Dispatcher):
        for result in obj.overloads.values():
            seconds = 0.0
            for passes in (result.metadata or {}).get("pipeline_times", {}).values():
                for name, t in passes.items():
                    per_pass[name] += t.init + t.run + t.finalize
                    seconds += t.init + t.run + t.finalize
            per_function.append((seconds, obj.py_func.__qualname__))
for seconds, name in sorted(per_function, reverse=True)[:12]:
    print(f"{seconds:8.1f} s  {name}")
print("passes, summed over functions:")
for name, seconds in sorted(per_pass.items(), key=lambda kv: -kv[1])[:6]:
    print(f"{seconds:8.1f} s  {name}")
