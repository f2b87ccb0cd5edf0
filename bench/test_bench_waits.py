"""Benchmarks of :func:`fastscore.waits_batch` against brute force, the reference, and on hands with no wait.

* ready hands (``sample_ready``) at 1e3, 1e5, 1e6, ``jit_parallel`` and ``jit``;
* the brute-force baseline at 1e4: each of the 34 kinds as the winning tile,
  one ``score_batch`` call per kind (34 calls on N hands; it scores discards
  only, where ``waits_batch`` also scores the self-draw of every wait);
* ``tests/reference.py``'s ``waits`` at 100 hands;
* hands that are not ready (a ready hand with one more tile swapped, checked
  to have no wait), to show the early exit before any scoring.
"""

from __future__ import annotations

import numpy as np
import pytest
from benchlib import not_ready, notation, ready, reference, run, size_id, warm, with_win

from fastscore import score_batch, waits_batch
from fastscore._jit import PARALLEL_MIN_ROWS

SIZES = (1_000, 100_000, 1_000_000)
ROUNDS = {100_000: 3, 1_000_000: 2}
#: Hands that are not ready take about 50 ms a million: more rounds steady the mean on a shared machine.
NOT_READY_ROUNDS = {100_000: 20, 1_000_000: 10}
BRUTE_FORCE_N = 10_000
REFERENCE_N = 100
NOT_READY_SIZES = (100_000, 1_000_000)


def warm_parallel(batch):
    """Load the parallel waits kernel (numba's disk cache) outside the timing.

    ``benchlib.warm`` analyses 64 hands, which run the serial kernel; the
    first big batch would otherwise time the loading of the parallel one.
    """
    if len(batch) >= PARALLEL_MIN_ROWS:
        waits_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)))


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("n", SIZES, ids=size_id)
def test_waits_batch(benchmark, n, impl):
    batch = ready(n)
    warm()
    warm_parallel(batch)
    result = run(benchmark, lambda: waits_batch(batch), task="waits", impl=impl, family="mixed", n=n,
                 rounds=ROUNDS.get(n))
    assert (result.n_waits > 0).all()


def test_waits_bruteforce(benchmark):
    """34 score_batch calls, one per candidate winning tile: the baseline the waits kernel must beat."""
    batch = ready(BRUTE_FORCE_N)
    candidates = [with_win(batch, t) for t in range(34)]
    warm()
    score_batch(candidates[0].take(np.arange(PARALLEL_MIN_ROWS)))  # the parallel kernel, outside the timing
    result = run(benchmark, lambda: [score_batch(b) for b in candidates], task="waits", impl="bruteforce",
                 family="mixed", n=BRUTE_FORCE_N, rounds=3)
    mask = np.stack([r.is_win for r in result], axis=1)
    assert (mask == waits_batch(batch).mask).all(), "brute-force waits differ from waits_batch"


def test_waits_reference(benchmark):
    batch = ready(REFERENCE_N)
    rows = notation(batch)
    ref = reference()
    result = run(benchmark, lambda: [ref.waits(hand, **ctx) for hand, _, ctx in rows], task="waits",
                 impl="reference", family="mixed", n=REFERENCE_N, rounds=3)
    fast = waits_batch(batch)
    assert [set(r) for r in result] == [set(fast.waits_at(i)) for i in range(REFERENCE_N)]


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("n", NOT_READY_SIZES, ids=size_id)
def test_waits_not_ready(benchmark, n, impl):
    batch = not_ready(n)
    warm()
    warm_parallel(batch)
    result = run(benchmark, lambda: waits_batch(batch), task="waits_not_ready", impl=impl, family="not_ready",
                 n=n, rounds=NOT_READY_ROUNDS.get(n))
    assert (result.n_waits == 0).all()
