"""Benchmarks of :func:`fastscore.score_batch` and of the win check alone (:func:`fastscore.win_check`).

Implementations: ``jit_parallel`` (default threads), ``jit`` (one thread),
``reference`` (``tests/reference.py``, rows turned into notation before
timing).  Batch sizes 1, 1e3, 1e5, 1e6 of the ``mixed`` blend; every family
of :data:`fastscore.sample.FAMILIES` at 1e5 (the reference at 1e3); every
packaged profile (``--profile``) at 1e5, group ``score_profile``, to compare
their rates in one run.
"""

from __future__ import annotations

import numpy as np
import pytest
from benchlib import notation, reference, run, size_id, warm, winning

from fastscore import score_batch, win_check
from fastscore._jit import PARALLEL_MIN_ROWS
from fastscore.profiles import PROFILES
from fastscore.sample import FAMILIES

SIZES = (1, 1_000, 100_000, 1_000_000)
#: Exact rounds (benchmark.pedantic) for the big batches; smaller ones are calibrated.
ROUNDS = {100_000: 5, 1_000_000: 3}
#: The win check takes about 20 ms a million hands: more rounds steady its mean on a shared machine.
WIN_CHECK_ROUNDS = {100_000: 20, 1_000_000: 10}
FAMILY_N = 100_000
REFERENCE_SIZES = (1, 1_000)
REFERENCE_FAMILY_N = 1_000


def warm_parallel(batch):
    """Load the parallel scoring kernel (numba's disk cache) outside the timing.

    ``benchlib.warm`` scores 64 hands, which run the serial kernel; the first
    big batch would otherwise time the loading of the parallel one.
    """
    if len(batch) >= PARALLEL_MIN_ROWS:
        score_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)))


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("n", SIZES, ids=size_id)
def test_score_batch(benchmark, n, impl):
    batch = winning(n)
    warm()
    warm_parallel(batch)
    result = run(benchmark, lambda: score_batch(batch), task="score", impl=impl, family="mixed", n=n,
                 rounds=ROUNDS.get(n))
    assert result.is_win.all()


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
# The taiwan-* app profiles have taiwan's rows with other values: they run at taiwan's speed.
@pytest.mark.parametrize("profile", [name for name in PROFILES if not name.startswith("taiwan-")])
def test_score_profile(benchmark, profile, impl):
    batch = winning(FAMILY_N)
    warm()
    warm_parallel(batch)
    score_batch(batch.take(np.arange(64)), rules=profile)  # the profile's table loaded outside the timing
    result = run(benchmark, lambda: score_batch(batch, rules=profile), task="score", impl=impl, family=profile,
                 n=FAMILY_N, rounds=ROUNDS[FAMILY_N], group="score_profile")
    # The Taiwanese profiles win the standard shape only: a sampled special-shape hand is no win there.
    np.testing.assert_array_equal(result.is_win, win_check(batch, rules=profile))
    # The mixed blend's special-shape families (nico_nico, thirteen_orphans, sixteen_orphans) are 15%.
    assert result.is_win.mean() > 0.8


@pytest.mark.parametrize("n", REFERENCE_SIZES, ids=size_id)
def test_score_reference(benchmark, n):
    rows = notation(winning(n))
    ref = reference()
    result = run(benchmark, lambda: [ref.score(hand, win, **ctx) for hand, win, ctx in rows],
                 task="score", impl="reference", family="mixed", n=n, rounds=2 if n >= 1000 else None)
    assert all(r["is_win"] for r in result)


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("family", FAMILIES)
def test_score_family(benchmark, family, impl):
    batch = winning(FAMILY_N, family)
    warm()
    warm_parallel(batch)
    result = run(benchmark, lambda: score_batch(batch), task="score", impl=impl, family=family, n=FAMILY_N,
                 rounds=ROUNDS[FAMILY_N], group="score-by-family")
    assert result.is_win.all()


@pytest.mark.parametrize("family", FAMILIES)
def test_score_family_reference(benchmark, family):
    rows = notation(winning(REFERENCE_FAMILY_N, family))
    ref = reference()
    result = run(benchmark, lambda: [ref.score(hand, win, **ctx) for hand, win, ctx in rows],
                 task="score", impl="reference", family=family, n=REFERENCE_FAMILY_N, rounds=1,
                 group="score-by-family")
    assert all(r["is_win"] for r in result)


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("n", SIZES[1:], ids=size_id)
def test_win_check(benchmark, n, impl):
    """:func:`fastscore.win_check` on a built batch: 17 tiles (concealed + winning tile), no scoring."""
    batch = winning(n)
    # Load both builds and the win-check table outside the timing.
    win_check(batch.take(slice(0, 8)))
    win_check(batch.take(np.arange(min(n, 2048))))
    result = run(benchmark, lambda: win_check(batch), task="win_check", impl=impl, family="mixed",
                 n=n, rounds=WIN_CHECK_ROUNDS.get(n))
    assert result.all()
