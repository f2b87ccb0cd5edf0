"""The kernels read a hand straight from its (N, 34) uint8 row, several counts per machine word
(:func:`fastscore.kernels.decompose.row_code`, :func:`fastscore.kernels.decompose.honour_summary_row`).  These
tests hold those word-at-a-time reads to the tile-by-tile definitions on every input they can take."""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest

from fastscore.kernels.decompose import _honour_summary_tiles, honour_summary_row, row_code, suit_code


@numba.njit
def _honour_mismatches(rows, wins, strided):
    """Rows (of ``rows`` (N, 34) uint8) where the word read and the tile loop disagree, for each winning tile."""
    bad = 0
    for i in range(rows.shape[0]):
        for w in wins:
            got = honour_summary_row(strided if strided.shape[0] else rows, i, w)
            want = _honour_summary_tiles(rows, i, w)
            if got != want:
                bad += 1
    return bad


def _all_honour_rows() -> np.ndarray:
    """Every vector of seven honour counts 0-4 (5**7 = 78,125 rows), suits random."""
    counts = np.array(list(itertools.product(range(5), repeat=7)), dtype=np.uint8)
    rows = np.random.default_rng(3).integers(0, 5, size=(len(counts), 34)).astype(np.uint8)
    rows[:, 27:] = counts
    return rows


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_honour_summary_row_matches_the_tile_loop_on_every_honour_count(layout):
    """All 78,125 honour count vectors x no winning tile, a number tile, and each of the seven honours:
    kinds held once, twice, three and four times, kinds held, the pair and pong masks, the lowest
    single.  The strided layout takes the tile loop itself (the 8-byte read needs contiguous rows)."""
    rows = _all_honour_rows()
    wins = np.array([-1, 4, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
    strided = np.empty((0, 34), dtype=np.uint8)
    if layout == "strided":
        wide = np.zeros((len(rows), 68), dtype=np.uint8)
        wide[:, ::2] = rows
        strided = wide[:, ::2]
    assert _honour_mismatches(rows, wins, strided) == 0


def test_honour_summary_row_values_of_one_row():
    # Honours 27-33 held 0, 1, 2, 3, 4, 1, 2 (+ the winning 27): once 28, 32 and 27 after the win;
    # twice 29, 33; three times 30; four times 31; kinds held 7.
    row = np.zeros((1, 34), dtype=np.uint8)
    row[0, 27:] = [0, 1, 2, 3, 4, 1, 2]
    ones, twos, threes, fours, kinds, pairs, single, pongs = honour_summary_row(row, 0, 27)
    assert (ones, twos, threes, fours, kinds) == (3, 2, 1, 1, 7)
    assert pairs == (1 << 29) | (1 << 33) and pongs == 1 << 30 and single == 27


@numba.njit
def _codes(rows):
    out = np.empty((rows.shape[0], 3), dtype=np.int64)
    counts = np.empty(34, dtype=np.int64)
    for i in range(rows.shape[0]):
        for t in range(34):
            counts[t] = rows[i, t]
        for s in range(3):
            out[i, s] = row_code(rows, i, 9 * s) - suit_code(counts, 9 * s)
    return out


def test_row_code_matches_suit_code():
    """The three suit codes of 100,000 random rows, from the 8-byte read, equal the base-5 sums."""
    rows = np.random.default_rng(5).integers(0, 5, size=(100_000, 34)).astype(np.uint8)
    assert not _codes(rows).any()


def test_count_waits_takes_a_strided_count_vector():
    """The (34,) helpers (``count_waits``, ``wait_mask``, ``honour_summary``) take any strides, as before the
    row reads: on 200 ready hands a strided view gives the waits of ``waits_batch``."""
    from fastscore import sample_ready, waits_batch
    from fastscore.batch import held_counts
    from fastscore.kernels.wait_shapes import count_waits
    from fastscore.tables import kernel_tables

    batch = sample_ready(200, seed=11)
    held = held_counts(batch, with_win=False).astype(np.int64)
    wide = np.zeros((len(batch), 68), dtype=np.int64)
    wide[:, ::2] = batch.concealed
    n_declared = (batch.declared[:, :, 0] != 0).sum(axis=1)
    suit_info = kernel_tables()[0]
    got = [count_waits(wide[i, ::2], int(n_declared[i]), held[i], suit_info) for i in range(len(batch))]
    assert got == waits_batch(batch).n_waits.tolist()
    assert sum(got) > 0
