"""Benchmarks of shanten (:func:`fastscore.shanten_batch`) and discard analysis (:func:`fastscore.discard_analysis`).

* shanten of random 16-tile hands dealt from a shuffled wall (no declared set), 1e6 hands,
  ``jit_parallel`` and ``jit``; issue #22's target is 20 M hands/s on 2 threads; and under the ``taiwan``
  profile (the standard shape only);
* the readiness of the same hands by the waits kernel (a cheaper question, for scale);
* discard analysis of random 17-tile hands dealt from a shuffled wall, 1e4 hands (target 1 M/s), and
  by brute force with the shanten kernel (every discard, then every draw) on 1e3 of them, for scale;
* shanten of 1e5 hands of four declared sets and four concealed tiles, and the brute force of
  ``tests/reference_shanten.py`` (every target listed) on 300 of them: the ``x ref`` ratio;
* :func:`fastscore.shanten`, one hand a call from notation;
* ``xiangting`` (nyanten's Rust port, one call a hand from Python) on 14-tile hands, a peer
  benchmark (``peers("xiangting")``: run where it is installed, see ``conftest.py``).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from benchlib import SEED, reference_shanten, run, size_id

from fastscore import HandBatch, discard_analysis, shanten, shanten_batch, waits_batch
from fastscore._jit import PARALLEL_MIN_ROWS
from fastscore.tiles import SetKind, format_counts

N_SHANTEN = 1_000_000
N_DISCARDS = 10_000


@functools.cache
def dealt(n: int, n_tiles: int, seed: int = SEED) -> HandBatch:
    """``n`` hands of ``n_tiles`` tiles (16, or 17 with the last in ``win``) dealt from shuffled walls."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(34, dtype=np.int64), 4)
    tiles = wall[np.argsort(rng.random((n, 136)), axis=1)[:, :n_tiles]]
    concealed = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(concealed, (np.repeat(np.arange(n), 16), tiles[:, :16].ravel()), 1)
    win = tiles[:, 16].astype(np.int8) if n_tiles == 17 else np.full(n, -1, dtype=np.int8)
    return HandBatch.from_arrays(concealed, win=win)


@pytest.mark.parametrize("impl", ["jit_parallel", "jit"])
@pytest.mark.parametrize("n", [N_SHANTEN], ids=size_id)
def test_shanten_dealt(benchmark, n, impl):
    batch = dealt(n, 16)
    shanten_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)))  # compile or load both builds outside the timing
    shanten_batch(batch.take(np.arange(64)))
    result = run(benchmark, lambda: shanten_batch(batch), task="shanten", impl=impl, family="dealt", n=n, rounds=3)
    assert not result.error.any() and (result.shanten >= 0).all()


def test_shanten_dealt_standard_shape_only(benchmark):
    """The same hands under the ``taiwan`` profile, where only the standard shape wins (the special shapes
    are not worked out)."""
    batch = dealt(N_SHANTEN, 16)
    shanten_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)), rules="taiwan")
    result = run(benchmark, lambda: shanten_batch(batch, rules="taiwan"), task="shanten", impl="jit_parallel",
                 family="dealt, taiwan", n=N_SHANTEN, rounds=3)
    assert not result.error.any() and (result.shanten == result.standard).all()


def test_waits_of_dealt_hands(benchmark):
    """Only whether each dealt hand is ready (shanten 0), by the waits kernel, for scale."""
    batch = dealt(N_SHANTEN, 16)
    waits_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)))
    result = run(benchmark, lambda: waits_batch(batch), task="shanten", impl="waits_kernel", family="dealt",
                 n=N_SHANTEN, rounds=3)
    assert ((result.n_waits > 0) == (shanten_batch(batch).shanten == 0)).all()


@pytest.mark.parametrize("impl", ["jit_parallel"])
def test_discard_analysis_dealt(benchmark, impl):
    batch = dealt(N_DISCARDS, 17)
    discard_analysis(batch.take(np.arange(PARALLEL_MIN_ROWS)))
    result = run(benchmark, lambda: discard_analysis(batch), task="discards", impl=impl, family="dealt",
                 n=N_DISCARDS, rounds=3)
    assert not result.error.any()


def _discards_by_brute_force(batch: HandBatch):
    """Discard analysis by brute force with the shanten kernel: the shanten of every 16-tile hand a discard
    leaves, and of every 17-tile hand a draw then makes (the least over its discards; -1 complete), in two
    :func:`shanten_batch` calls.  Returns ``(shanten (N, 34) int8, useful (N, 34) int64)`` as
    :func:`discard_analysis` gives them for hands without declared sets."""
    n = len(batch)
    held = batch.concealed.astype(np.int64)
    held[np.arange(n), batch.win] += 1
    row, discard = np.nonzero(held)
    left = held[row].copy()
    left[np.arange(row.size), discard] -= 1  # the 16 tiles a discard leaves
    after = shanten_batch(HandBatch.from_arrays(left.astype(np.uint8))).shanten
    which, draw = np.nonzero(left < 4)  # a draw with a free copy: the 16 tiles left and the draw in ``win``
    then = shanten_batch(HandBatch.from_arrays(left[which].astype(np.uint8), win=draw.astype(np.int8))).shanten
    shanten_out = np.full((n, 34), 127, dtype=np.int8)
    shanten_out[row, discard] = after
    useful = np.zeros((n, 34), dtype=np.int64)
    lower = then < after[which]
    np.bitwise_or.at(useful, (row[which[lower]], discard[which[lower]]), np.int64(1) << draw[lower].astype(np.int64))
    return shanten_out, useful


def test_discard_analysis_brute_force(benchmark):
    """The same analysis by brute force with the shanten kernel (every discard, then every draw: about 480
    shanten a hand), 1e3 of the same hands, for scale; its results must equal :func:`discard_analysis`'s."""
    batch = dealt(N_DISCARDS, 17).take(np.arange(1_000))
    result = run(benchmark, lambda: _discards_by_brute_force(batch), task="discards", impl="bruteforce",
                 family="dealt", n=len(batch), rounds=3)
    analysis = discard_analysis(batch)
    assert (result[0] == analysis.shanten).all() and (result[1] == analysis.useful).all()


#: Four declared sets (1m pong, 789m, East pong, 2s gong) and four concealed tiles: one concealed set and
#: the eyes, the only hands brute force (tests/reference_shanten.py, every target listed) handles quickly.
DECLARED4 = [(SetKind.PONG, 0), (SetKind.SHEUNG, 6), (SetKind.PONG, 27), (SetKind.GONG, 19)]


@functools.cache
def declared4(n: int) -> HandBatch:
    """``n`` hands of :data:`DECLARED4` and four concealed tiles drawn from the copies left."""
    rng = np.random.default_rng(SEED)
    left = 4 - np.bincount([t for kind, tile in DECLARED4 for t in
                            ([tile] * (4 if kind == SetKind.GONG else 3) if kind != SetKind.SHEUNG
                             else [tile, tile + 1, tile + 2])], minlength=34)
    wall = np.repeat(np.arange(34), left)
    tiles = wall[np.argsort(rng.random((n, wall.size)), axis=1)[:, :4]]
    concealed = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(concealed, (np.repeat(np.arange(n), 4), tiles.ravel()), 1)
    declared = np.zeros((n, 5, 2), dtype=np.int8)
    declared[:, :4] = np.array([(int(kind), tile) for kind, tile in DECLARED4], dtype=np.int8)
    return HandBatch.from_arrays(concealed, declared)


def test_shanten_declared_sets(benchmark):
    """``shanten_batch`` on 1e5 hands of four declared sets (:data:`DECLARED4`), for the brute-force ratio."""
    batch = declared4(100_000)
    shanten_batch(batch.take(np.arange(PARALLEL_MIN_ROWS)))
    result = run(benchmark, lambda: shanten_batch(batch), task="shanten", impl="jit_parallel", family="4 declared",
                 n=len(batch), rounds=3)
    assert not result.error.any()


def test_shanten_declared_sets_brute_force(benchmark):
    """The brute-force distance of ``tests/reference_shanten.py`` (every target of one set and the eyes
    listed) on 300 of the same hands, one Python call a hand; it must equal ``shanten_batch``'s shanten + 1."""
    brute = reference_shanten()
    batch = declared4(100_000).take(np.arange(300))
    rows = [row.tolist() for row in batch.concealed]
    result = run(benchmark, lambda: [brute.standard_distance(row, DECLARED4) for row in rows], task="shanten",
                 impl="reference", family="4 declared", n=len(rows), rounds=3)
    assert np.array_equal(np.array(result) - 1, shanten_batch(batch).shanten)


def test_shanten_single_call(benchmark):
    """:func:`fastscore.shanten` one hand a call from notation, 1,000 different dealt 16-tile hands."""
    hands = [format_counts(row) for row in dealt(1_000, 16).concealed]
    result = run(benchmark, lambda: [shanten(h) for h in hands], task="shanten", impl="shanten()", family="dealt",
                 n=len(hands), rounds=3)
    assert [r.shanten for r in result] == shanten_batch(dealt(1_000, 16)).shanten.tolist()


@pytest.mark.peers("xiangting")
def test_xiangting_14_tiles(benchmark):
    """nyanten's Rust port from Python, one call a hand, 14-tile riichi hands dealt from shuffled walls
    (its only size)."""
    from importlib.metadata import version

    import xiangting

    rng = np.random.default_rng(SEED)
    wall = np.repeat(np.arange(34), 4)
    hands = [np.bincount(wall[rng.permutation(136)[:14]], minlength=34).tolist() for _ in range(10_000)]
    four = xiangting.PlayerCount.FOUR
    result = run(benchmark, lambda: [xiangting.calculate_replacement_number(h, four) for h in hands],
                 task="shanten", impl=f"xiangting {version('xiangting')}", family="dealt14", n=len(hands), rounds=3)
    assert min(result) >= 0 and max(result) <= 7  # replacement number = shanten + 1
