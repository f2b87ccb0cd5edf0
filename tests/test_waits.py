"""Waits (RULES.md section 7) against brute force: add each of the 34 kinds and check for a win."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastscore
from fastscore import win_check
from fastscore.checks import check_batch
from fastscore.sample import FAMILIES


def brute_force_mask(batch) -> np.ndarray:
    """(N, 34) bool: kind t completes the hand (any shape) and is not already held four times.

    Each kind in turn as the winning tile, through the win check alone (:func:`fastscore.win_check`);
    a fifth copy is flagged by the row checks and reads False.
    """
    out = np.zeros((len(batch), 34), dtype=bool)
    for t in range(34):
        with_t = batch.take(np.arange(len(batch)))  # an index array copies the columns
        with_t.win[:] = t
        check_batch(with_t, require_win=True)
        out[:, t] = win_check(with_t)
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_waits_mask_matches_brute_force(family):
    batch = fastscore.sample_ready(3000, seed=11, families=(family,))
    result = fastscore.waits_batch(batch)
    expected = brute_force_mask(batch)
    assert (result.mask == expected).all()
    assert (result.n_waits == expected.sum(axis=1)).all()
    assert (result.n_waits >= 1).all()  # every sampled ready hand waits on its removed tile


@given(st.lists(st.integers(0, 33), min_size=16, max_size=16))
def test_random_hands_waits_match_brute_force(tiles):
    counts = np.bincount(tiles, minlength=34)
    if counts.max() > 4:
        counts = np.minimum(counts, 4)
        counts[0] += 16 - counts.sum()  # keep 16 tiles; may itself exceed 4, then skip
    if counts.max() > 4:
        return
    batch = fastscore.HandBatch.from_arrays(counts[None, :])
    result = fastscore.waits_batch(batch)
    assert (result.mask == brute_force_mask(batch)).all()


def test_payouts_are_scores_of_each_completion():
    """Each wait's payouts are what score_batch pays for that completion (discard and self-draw)."""
    batch = fastscore.sample_ready(500, seed=3)
    result = fastscore.waits_batch(batch)
    rows, tiles = np.nonzero(result.mask)
    for self_drawn, column in ((False, result.payout_discard), (True, result.payout_self_draw)):
        full = batch.take(rows)
        full.win[:] = tiles
        full.self_drawn[:] = self_drawn
        scored = fastscore.score_batch(full)
        assert scored.is_win.all()
        assert (scored.payout == column[rows, tiles]).all()


def test_tile_efficiency_counts_live_tiles():
    # 123m456p 11z 56s [777m] [999s] waits on 4s and 7s: 4 + 4 copies live; with one 4s seen, 7.
    batch = fastscore.HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]", seat="S")], require_win=False)
    result = fastscore.waits_batch(batch)
    seen = np.zeros(34, dtype=np.int64)
    seen[21] = 1  # one 4s already discarded
    summary = fastscore.tile_efficiency(batch, result, seen)
    assert summary["n_waits"].tolist() == [2]
    assert summary["live_tiles"].tolist() == [7]
    # Both waits are a Chicken on a discard (20) and illegal when self-drawn (0), RULES.md 9.21.
    assert summary["expected_discard"].tolist() == [20.0]
    assert summary["expected_self_draw"].tolist() == [0.0]


def test_tile_efficiency_refuses_inconsistent_input():
    batch = fastscore.HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]", seat="S")], require_win=False)
    result = fastscore.waits_batch(batch)
    # The hand holds one 5s (the 56s): at most three more can have been seen.
    seen = np.zeros(34, dtype=np.int64)
    seen[22] = 4
    with pytest.raises(ValueError, match="row 0: 4 5s seen, but the hand holds 1 of its 4 copies"):
        fastscore.tile_efficiency(batch, result, seen)
    seen[22] = 3  # all other copies seen: valid; the waits 4s and 7s keep their 4 + 4 live copies
    assert fastscore.tile_efficiency(batch, result, seen)["live_tiles"].tolist() == [8]
    two = fastscore.sample_ready(2, seed=1)
    with pytest.raises(ValueError, match="batch has 2 rows but result has 1"):
        fastscore.tile_efficiency(two, result)


def waits_against_reference(n: int, seed: int) -> int:
    """``waits_batch`` on ``n`` sampled ready hands (every family of the mixed blend) against
    ``reference.waits`` (34 kinds added one by one, each scored by the reference scorer, RULES.md 7):
    the same waits and both payouts.  Returns the number of waits compared."""
    import reference
    from fastscore import io

    batch = fastscore.sample_ready(n, seed=seed)
    result = fastscore.waits_batch(batch)
    assert not result.error.any()
    compared = 0
    for i, record in enumerate(io.hand_records(batch)):
        ctx = {k: record[k] for k in ("seat", "round", "flowers", "streak", "closing")}
        assert result.waits_at(i) == reference.waits(record["hand"], **ctx), record
        compared += int(result.n_waits[i])
    return compared


def test_waits_batch_matches_reference_brute_force():
    assert waits_against_reference(2_000, seed=21) > 2_000


@pytest.mark.slow
def test_waits_batch_matches_reference_brute_force_many():
    """The benchmark-sized run of the waits issue: 50,000 ready hands (about a minute)."""
    assert waits_against_reference(50_000, seed=22) > 50_000
