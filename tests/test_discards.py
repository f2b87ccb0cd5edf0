"""Discard analysis of 17-tile hands (RULES.md sections 3, 7) against brute force: the shanten after each
discard, the useful draws (every draw tried, then every discard of the 17 tiles), the live copies, and
the waits and payouts of the discards that leave the hand ready."""

from __future__ import annotations

import numpy as np
import pytest

import fastscore
import reference
from fastscore import HandBatch
from fastscore.efficiency import NO_SHAPE, discard_analysis, discards, shanten_batch

N = 34


def _with_exchanges(batch, rng, n_exchanges):
    out = batch.take(np.arange(len(batch)))
    for i in range(len(out)):
        for _ in range(n_exchanges):
            held = fastscore.batch.held_counts(out.take([i]))[0]
            t_out = int(rng.choice(np.flatnonzero(out.concealed[i])))
            t_in = int(rng.choice(np.flatnonzero(held < 4)))
            out.concealed[i, t_out] -= 1
            out.concealed[i, t_in] += 1
    return out


def _shanten16(rows, declared):
    batch = HandBatch.from_arrays(np.asarray(rows, dtype=np.uint8),
                                  np.broadcast_to(declared, (len(rows), 5, 2)).copy())
    result = shanten_batch(batch)
    assert not result.error.any()
    return result.shanten.astype(int)


def brute_force(batch, i):
    """(shanten per discard, useful-draw mask per discard) of row ``i``, by trying every discard, then
    every draw with a free copy, then every discard of those 17 tiles (or the reference win check)."""
    counts = batch.concealed[i].astype(int)
    counts[batch.win[i]] += 1
    declared = batch.declared[i]
    decl_list = tuple((fastscore.SetKind(int(k)), int(t)) for k, t in declared if k)
    decl_copies = np.array(reference.held_counts([0] * N, decl_list))
    shanten = {}
    useful = {}
    for x in np.flatnonzero(counts):
        h16 = counts.copy()
        h16[x] -= 1
        before = _shanten16([h16], declared)[0]
        shanten[int(x)] = before
        mask = 0
        for t in range(N):
            if h16[t] + decl_copies[t] >= 4:
                continue
            h17 = h16.copy()
            h17[t] += 1
            if reference.has_any_shape(list(h17), decl_list):
                mask |= 1 << t
                continue
            rows = []
            for y in np.flatnonzero(h17):
                r = h17.copy()
                r[y] -= 1
                rows.append(r)
            if _shanten16(rows, declared).min() < before:
                mask |= 1 << t
        useful[int(x)] = mask
    return shanten, useful


@pytest.mark.parametrize("n_exchanges", [0, 1, 2])
def test_useful_draws_match_brute_force(n_exchanges):
    rng = np.random.default_rng(n_exchanges)
    winning = fastscore.sample_winning(20, seed=20 + n_exchanges)
    batch = _with_exchanges(winning, rng, n_exchanges)
    result = discard_analysis(batch)
    assert not result.error.any(), result.messages
    for i in range(len(batch)):
        shanten, useful = brute_force(batch, i)
        for x in range(N):
            if x in shanten:
                assert result.shanten[i, x] == shanten[x], (i, x)
                assert result.useful[i, x] == useful[x], (i, x, bin(result.useful[i, x]), bin(useful[x]))
                live = sum(int(result.live[i, t]) for t in range(N) if useful[x] >> t & 1)
                assert result.live_useful[i, x] == live
            else:
                assert result.shanten[i, x] == NO_SHAPE and result.useful[i, x] == 0


def test_ready_discards_carry_their_waits_and_payouts():
    rng = np.random.default_rng(4)
    batch = _with_exchanges(fastscore.sample_winning(60, seed=9), rng, 1)
    seen = np.zeros((len(batch), N), dtype=np.int16)
    result = discard_analysis(batch, seen)
    assert result.ready_row.size > 20
    for k, (i, x) in enumerate(zip(result.ready_row, result.ready_discard)):
        hand = batch.take([i])
        hand.concealed[0, hand.win[0]] += 1
        hand.concealed[0, x] -= 1
        hand.win[:] = -1
        expected = fastscore.waits_batch(hand)
        np.testing.assert_array_equal(result.waits.mask[k], expected.mask[0])
        np.testing.assert_array_equal(result.waits.payout_discard[k], expected.payout_discard[0])
        # Ready: the useful draws are exactly the waits.
        assert result.useful[i, x] == sum(1 << int(t) for t in np.flatnonzero(expected.mask[0]))
        live = result.live[i] * expected.mask[0]
        if live.sum():
            mean = (live * expected.payout_discard[0]).sum() / live.sum()
            assert result.expected_discard[i, x] == pytest.approx(mean)


def test_worked_hand():
    # 123m 456p 789s 111z 2345s 9m (1z drawn), 5s5s seen elsewhere.
    # Discard 9m: 123m 456p 789s 111z + 2345s, ready on 2s (345s + 2s eyes) and 5s (234s + 5s eyes):
    # live 2s: 4 - 1 held = 3; 5s: 4 - 1 held - 2 seen = 1; four live tiles.
    # Discard 2s or 5s: ready on 9m alone (three live).  Every other discard leaves shanten 1.
    rows = discards("123m456p789s11z 2345s 9m", "1z", seen="5s5s")
    best = rows[0]
    assert best["discard"] == "9m" and best["shanten"] == 0
    assert best["useful"] == ["2s", "5s"] and best["live"] == 4
    assert set(best["waits"]) == {"2s", "5s"}
    assert [r["discard"] for r in rows[1:3]] == ["2s", "5s"]
    assert all(r["useful"] == ["9m"] and r["live"] == 3 for r in rows[1:3])
    assert all(r["shanten"] == 1 for r in rows[3:])
    # Both waits pay the same here, so the mean over live tiles is that payout.
    assert best["expected_discard"] == best["waits"]["2s"]["discard"] == best["waits"]["5s"]["discard"]


def test_seventeen_tiles_written_out():
    assert discards("123m456p789s11z 2345s 9m 1z") == discards("123m456p789s11z 2345s 9m", "1z")


def test_rows_without_a_draw_are_flagged():
    batch = fastscore.sample_ready(3, seed=1)
    result = discard_analysis(batch)
    assert (result.error == fastscore.ErrorCode.BAD_WIN).all()
    assert "no winning tile" in result.messages[0]


@pytest.mark.parametrize("seen, message", [
    (np.full(N, 5), "between 0 and 4"),
    (np.zeros((2, N)), "shape"),
])
def test_bad_seen_raises(seen, message):
    batch = fastscore.sample_winning(3, seed=1)
    with pytest.raises(ValueError, match=message):
        discard_analysis(batch, seen)


def test_seen_beyond_what_the_hand_leaves_names_row_and_tile():
    batch = fastscore.sample_winning(1, seed=1)
    t = int(np.flatnonzero(batch.concealed[0])[0])
    seen = np.zeros(N, dtype=np.int16)
    seen[t] = 4
    with pytest.raises(ValueError, match=f"row 0: 4 {fastscore.TILE_NAMES[t]} seen"):
        discard_analysis(batch, seen)


def test_numba_callable_discards_hand_matches_discard_analysis():
    """``fastscore.nb.discards_hand`` (one hand, for numba code) gives the batch analysis' shanten, useful
    draws and live useful copies, declared sets and seen tiles included, and flags a hand without a draw."""
    import fastscore.nb

    rng = np.random.default_rng(7)
    batch = _with_exchanges(fastscore.sample_winning(60, seed=7), rng, 1)
    held = fastscore.batch.held_counts(batch, with_win=True)
    seen = np.minimum(rng.integers(0, 3, size=(len(batch), N)), 4 - held).astype(np.uint8)
    result = discard_analysis(batch, seen=seen)
    assert not result.error.any(), result.messages
    number_table, honour_table = fastscore.nb.shanten_tables()
    scratch = fastscore.nb.make_shanten_scratch()
    shanten = np.zeros(N, dtype=np.int8)
    useful = np.zeros(N, dtype=np.int64)
    live_useful = np.zeros(N, dtype=np.int16)
    assert (batch.declared[:, :, 0] != 0).any()  # some rows with declared sets
    for i in range(len(batch)):
        code = fastscore.nb.discards_hand(batch.concealed[i], batch.declared[i], int(batch.win[i]), seen[i],
                                          number_table, honour_table, scratch, shanten, useful, live_useful)
        assert code == 0
        np.testing.assert_array_equal(shanten, result.shanten[i])
        np.testing.assert_array_equal(useful, result.useful[i])
        np.testing.assert_array_equal(live_useful, result.live_useful[i])
    code = fastscore.nb.discards_hand(batch.concealed[0], batch.declared[0], -1, seen[0], number_table, honour_table,
                                      scratch, shanten, useful, live_useful)
    assert code != 0 and (shanten == NO_SHAPE).all()
