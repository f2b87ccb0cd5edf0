"""``examples/simulate.py``: a numba simulation calling fastscore.nb inside ``@njit(parallel=True)``; every win
it declares is a legal win that the batch API scores with the same payout (RULES.md sections 3 to 6)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

import fastscore
from fastscore import HandBatch, score_batch

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "simulate.py"


def _example():
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
