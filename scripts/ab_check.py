"""ns a row of the row check alone, 1 thread, over N sampled rows: ``PYTHONPATH=CHECKOUT python scripts/ab_check.py N``
(old checks.row_errors, new kernels.checks._flags)."""
import sys, time, numpy as np, numba, fastscore
numba.set_num_threads(1)
N = int(sys.argv[1])
s = fastscore.sample_winning(N, seed=1)
try:
    from fastscore.kernels import checks as kc
    from fastscore.checks import kernel_columns
    c, d, w, _, se, ro, _, st, cl, err = kernel_columns(s)
    flags = np.zeros(N, np.uint8)
    f = lambda: kc._flags(c, d, w, se, ro, st, cl, True, err, flags)
except ImportError:
    from fastscore import checks
    f = lambda: checks.row_errors(s, require_win=True)
f()
ts = []
for _ in range(7):
    t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
print(round(min(ts) / N * 1e9, 1))
