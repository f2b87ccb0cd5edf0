"""``examples/simulate.py``: a numba simulation calling fastscore.nb inside ``@njit(parallel=True)``; every win
it declares is a legal win that the batch API scores with the same payout (RULES.md sections 3 to 6)."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import numpy as np

import fastscore
from fastscore import HandBatch, score_batch

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "simulate.py"


@functools.cache
def _example():
    """The example module, loaded once (its functions compile once for the whole file)."""
    spec = importlib.util.spec_from_file_location("simulate_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_simulated_wins_are_scored_as_score_batch_scores_them():
    out = _example().run(400, seed=5)
    won = np.flatnonzero(out["winner"] >= 0)
    assert won.size >= 10  # about 9% of the games end in a win with this policy
    batch = HandBatch.from_arrays(out["final"][won], None, out["win_tile"][won].astype(np.int8),
                                  self_drawn=out["self_drawn"][won], seat=out["winner"][won].astype(np.uint8))
    scored = score_batch(batch)
    assert not scored.error.any()
    assert scored.is_win.all() and scored.legal.all()
    np.testing.assert_array_equal(scored.payout, out["payout"][won])
    # Each winner holds 16 tiles before the win, and the wall holds 4 copies of each kind.
    assert (out["final"][won].sum(axis=1) == 16).all()


def test_simulation_is_reproducible():
    example = _example()
    a, b = example.run(50, seed=9), example.run(50, seed=9)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert fastscore.nb.rule_array().dtype == np.int64


def test_greedy_player_gets_ready_sooner_than_random_discards():
    """East discarding by shanten, then live useful draws, gets ready sooner and more often, and wins more,
    than East discarding at random, on the same walls (the other seats play the simple policy)."""
    example = _example()
    greedy = example.run(300, seed=11, policy="greedy")
    random = example.run(300, seed=11, policy="random")
    g, r = example.summary(greedy), example.summary(random)
    assert g["turns_to_ready"] < r["turns_to_ready"] - 1
    assert g["ready_rate"] > r["ready_rate"] + 0.1
    assert g["win_rate"] > r["win_rate"]
    for out in (greedy, random):
        ready, turns = out["ready_turn"], out["turns"]
        # A seat gets ready at most at its last discard, and a winner was ready before its win.
        assert ((ready == -1) | ((ready >= 0) & (ready <= turns))).all()
        assert (ready[np.arange(len(ready)), np.maximum(out["winner"], 0)][out["winner"] >= 0] >= 0).all()
        assert (turns.sum(axis=1) <= 136 - 64 - 16).all()


def test_greedy_discard_is_a_best_discard_of_fastscore_discards():
    """The greedy choice has the least shanten and, among those, the most live useful draws that
    :func:`fastscore.discards` reports for the same hand and seen tiles."""
    example = _example()
    number_table, honour_table = fastscore.nb.shanten_tables()
    scratch = fastscore.nb.make_shanten_scratch()
    shanten = np.zeros(34, dtype=np.int8)
    useful = np.zeros(34, dtype=np.int64)
    live_useful = np.zeros(34, dtype=np.int16)
    rng = np.random.default_rng(3)
    names = fastscore.tiles.TILE_NAMES
    for _ in range(40):
        wall = rng.permutation(np.repeat(np.arange(34), 4))
        concealed = np.bincount(wall[:16], minlength=34).astype(np.uint8)
        tile = int(wall[16])
        seen = np.bincount(wall[17:17 + int(rng.integers(0, 30))], minlength=34).astype(np.uint8)
        out = example._greedy_discard(concealed, np.zeros((5, 2), np.int8), tile, seen, number_table, honour_table,
                                      scratch, shanten, useful, live_useful)
        hand = "".join(names[t] for t in np.repeat(np.arange(34), concealed))
        table = fastscore.discards(hand, names[tile], seen=seen)
        chosen = next(d for d in table if d["discard"] == names[out])
        assert (chosen["shanten"], chosen["live"]) == (table[0]["shanten"], table[0]["live"])
