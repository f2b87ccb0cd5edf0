"""The win check alone (:func:`fastscore.win_check`: :func:`fastscore.decompose.is_win_row` per hand)
agrees with the scoring kernel's ``is_win`` (RULES.md section 3) on every shape, winning or not."""

from __future__ import annotations

import numpy as np
import pytest

from fastscore import sample_ready, score_batch, win_check
from fastscore.batch import held_counts, validate
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
            validate(batch, require_win=True)
            expected = score_batch(batch).is_win
            got = win_check(batch)
            # Rows already holding four of the tile are flagged and left False by both.
            assert (batch.error[held[:, tile] >= 4] != 0).all()
            np.testing.assert_array_equal(got, expected)
            wins += int(expected.sum())
        assert 0 < wins < 34 * n  # both outcomes occur
