"""The win check alone (:func:`fastscore.win_check`: :func:`fastscore.kernels.decompose.is_win_row_bits` per hand)
agrees with the scoring kernel's ``is_win`` (RULES.md section 3) on every shape, winning or not."""

from __future__ import annotations

import numpy as np
import pytest

from fastscore import sample_ready, score_batch, win_check
from fastscore.batch import held_counts
from fastscore.checks import check_batch
from fastscore.sample import FAMILIES


@pytest.mark.parametrize("family", FAMILIES)
def test_win_check_matches_scoring_for_every_winning_tile(family):
    """Each ready hand with each of the 34 kinds as the winning tile: some complete it, most do not.

    1,200 rows of 16 tiles (600 for the serial build, 1,200 for the parallel one) x 34 kinds.
    """
    for n in (600, 1_200):
        ready = sample_ready(n, seed=7, families=(family,))
        held = held_counts(ready, with_win=False)
        wins = 0
        for tile in range(34):
            batch = ready.take(np.arange(n))
            batch.win[:] = tile
            check_batch(batch, require_win=True)
            expected = score_batch(batch).is_win
            got = win_check(batch)
            # Rows already holding four of the tile are flagged and left False by both.
            assert (batch.error[held[:, tile] >= 4] != 0).all()
            np.testing.assert_array_equal(got, expected)
            wins += int(expected.sum())
        assert 0 < wins < 34 * n  # both outcomes occur


def strided_copy(batch):
    """``batch`` with its ``concealed`` column a strided view (every other column of a wider array)."""
    import dataclasses

    from fastscore import HandBatch

    wide = np.zeros((len(batch), 68), dtype=np.uint8)
    wide[:, ::2] = batch.concealed
    columns = {f.name: getattr(batch, f.name) for f in dataclasses.fields(HandBatch)}
    copy = HandBatch(**{**columns, "concealed": wide[:, ::2]})
    assert copy.concealed.strides[1] == 2
    return copy


def test_strided_concealed_column_gives_the_same_answers():
    """The kernels read a contiguous row's counts eight at a time; a strided ``concealed`` view
    goes tile by tile, with the same results (3,000 rows: the parallel builds)."""
    from fastscore import waits_batch

    ready = sample_ready(3_000, seed=11)
    expected = waits_batch(ready)
    assert expected.n_waits.min() > 0
    got = waits_batch(strided_copy(ready))
    np.testing.assert_array_equal(got.mask, expected.mask)
    np.testing.assert_array_equal(got.payout_discard, expected.payout_discard)

    wins = ready.take(np.arange(len(ready)))
    wins.win[:] = expected.mask.argmax(axis=1)  # the first kind each hand waits on
    check_batch(wins, require_win=True)
    assert win_check(wins).all() and win_check(strided_copy(wins)).all()
    wins.win[:] = (wins.win + 1) % 34  # mostly not wins now
    check_batch(wins, require_win=True)
    expected_wins = win_check(wins)
    assert 0 < expected_wins.sum() < len(wins)
    np.testing.assert_array_equal(win_check(strided_copy(wins)), expected_wins)
