"""Shanten (RULES.md sections 2, 3, 7) against brute force: distances to every target hand, the
exchange recursion (0 exactly when ready; k > 0 exactly when the best exchange reaches k - 1) and
waits (section 7)."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given

import fastscore
import reference
from fastscore import HandBatch, SetKind
from fastscore.efficiency import NO_SHAPE, shanten, shanten_batch
from fastscore.kernels.shanten import capped_entry, combine
from fastscore.sample import FAMILIES
from fastscore.shanten_tables import class_tables, shanten_tables
from reference_shanten import declared_copies, exchange_neighbours, standard_distance
from strategies import random_hands, ready_hands, winning_hands

N = 34
ENTRY_BITS = (1 << 60) - 1


def declared_array(declared) -> np.ndarray:
    out = np.zeros((5, 2), dtype=np.int8)
    for k, (kind, tile) in enumerate(declared):
        out[k] = (int(kind), tile)
    return out


def batch_of(rows, declared=(), win=None) -> HandBatch:
    """A batch of count rows (N, 34) sharing one list of declared sets; ``win`` -1 (16 tiles) or a column."""
    rows = np.asarray(rows, dtype=np.uint8).reshape(-1, N)
    decl = np.broadcast_to(declared_array(declared), (rows.shape[0], 5, 2)).copy()
    win = np.full(rows.shape[0], -1, dtype=np.int8) if win is None else np.asarray(win, dtype=np.int8)
    return HandBatch.from_arrays(rows, decl, win)


def checked_shanten(batch) -> np.ndarray:
    result = shanten_batch(batch)
    assert not result.error.any(), result.messages
    return result.shanten.astype(int)


# --- hand-worked cases --------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, drawn, expected", [
    # 123m 456p 789s 234s and eyes 11z; 5s and 9m left over: one set short, two tiles to draw (5s + 55s or
    # 34s/67s..., or 9m + 99m/78m...) -> distance 2, shanten 1.  Nothing special is close.
    # 123m 456p 789s 234s and eyes 11z; 5s and 9m left over: one set short, two tiles to draw (5s + 55s or
    # 34s..., or 9m + 99m/78m) -> distance 2, shanten 1.
    pytest.param("123m456p789s11z 2345s 9m", None, (1, 1, 7, 8, 8), id="standard-one-away"),
    # The same with 1z drawn: discarding 9m leaves 123m 456p 789s 111z 2345s, ready on 2s/5s: shanten 0.
    pytest.param("123m456p789s11z 2345s 9m", "1z", (0, 0, 6, 8, 8), id="standard-17-ready-after-discard"),
    # 16 Orphans (159 in each suit, seven honours) waits on any of its 16 tiles for the eyes: ready.
    # 13 Orphans: all 13 orphans, 5m5p5s cannot make a set and no orphan is spare for the eyes: keeps
    # 13 + 1 of 17 -> distance 3, shanten 2.
    pytest.param("19m19p19s1234567z 5m5p5s", None, (0, 10, 8, 2, 0), id="sixteen-orphans-ready"),
    # Eight pairs: drawing a third tile of any pair makes the pong of Nico Nico: ready.
    pytest.param("11m22m33m44p55p66s77s 1z1z", None, (0, 2, 0, 10, 11), id="nico-eight-pairs"),
    # Four declared sets, 1234p: 123p + 4p (eyes wait) or 234p + 1p: ready on 1p and 4p.
    pytest.param("[123m][456m][789m][EEE] 1p2p3p4p", None, (0, 0, None, None, None), id="declared-ready"),
    # Four declared sets, 234p and a single 1z (East): with no limit it waits on 1z for the eyes, but [EEE]
    # and the 1z held are all four East: no wait.  Best: discard 1z, draw a pair (two tiles): shanten 1.
    pytest.param("[123m][456m][789m][EEE] 1z2p3p4p", None, (1, 1, None, None, None), id="four-copies-single"),
    # 2p3p + eyes 9s9s: 1p is all in the concealed gong, so the wait is 4p alone: ready.
    pytest.param("(1111p)[567m][567m][EEE] 2p3p9s9s", None, (0, 0, None, None, None), id="gong-one-side"),
    # 2p3p with every 1p in the gong and every 4p in [444p] (with... three of them; the fourth not held):
    # [444p] holds three 4p, so one 4p is still free: ready on 4p.
    pytest.param("(1111p)[444p][567m][EEE] 2p3p9s9s", None, (0, 0, None, None, None), id="one-4p-left"),
    # Both sides gone: (1111p) and (4444p).  23p can only become 222p or 333p (two draws each, keeping 99s)
    # or 2p/3p as eyes with 999s (two draws): distance 2, shanten 1, though a formula ignoring the limit
    # says 0.
    pytest.param("(1111p)(4444p)[567m] 2p3p9s9s 1s1s1s", None, (1, 1, None, None, None), id="four-copies-limit"),
])
def test_worked_cases(hand, drawn, expected):
    assert tuple(shanten(hand, drawn)) == expected


def test_seventeen_tiles_written_out_match_the_draw_argument():
    assert shanten("123m456p789s11z 2345s 9m 1z") == shanten("123m456p789s11z 2345s 9m", "1z")


def test_complete_hand_is_minus_one():
    # 123m 456p 789s 234s 111z pong, 99m eyes: complete.
    assert shanten("123m456p789s111z 234s 99m").shanten == -1


@pytest.mark.parametrize("hand, token", [
    ("123m456p789s11z 2345s 9x", "9x"),
    ("123m456p789s11z 2345s", "15 tiles"),
    ("11111m456p789s11z 234s", "5 copies of 1m"),
])
def test_bad_hands_raise_naming_the_token(hand, token):
    with pytest.raises(ValueError, match=token):
        shanten(hand)


def test_batch_flags_bad_rows_and_works_out_the_rest():
    rows = np.zeros((3, N), dtype=np.uint8)
    rows[0, :16] = 1
    rows[1, :15] = 1  # 15 tiles
    rows[2, 27:34] = 2
    rows[2, 0:2] = 1
    result = shanten_batch(batch_of(rows))
    assert list(result.error) == [0, fastscore.ErrorCode.TILE_COUNT, 0]
    assert "15 tiles" in result.messages[1] and result.shanten[1] == NO_SHAPE
    # Seven honour pairs + 1m 2m: Nico Nico needs the pong: draw a 1m/2m pair partner... 7 pairs kept (14)
    # plus one more of a pair (3) -> 15 kept; 17 - 15 = 2 -> shanten 1.
    assert result.nico_nico[2] == 1


# --- the tables ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_kinds", [9, 7])
def test_tables_match_the_direct_programme(n_kinds):
    """Each table entry (limit 4 everywhere) equals the dynamic programme of :func:`capped_entry`."""
    number, honour = shanten_tables()
    table = number if n_kinds == 9 else honour
    rng = np.random.default_rng(5)
    caps = np.full(N, 4, dtype=np.int64)
    base = 0 if n_kinds == 9 else 27
    for code in [0, table.shape[0] - 1, *rng.integers(0, table.shape[0], 1500)]:
        counts = np.zeros(N, dtype=np.int64)
        digits = [(int(code) // 5**i) % 5 for i in range(n_kinds)]
        counts[base:base + n_kinds] = digits
        assert int(table[code]) & ENTRY_BITS == int(capped_entry(counts, caps, base, n_kinds, n_kinds == 9)), digits


def test_class_tables_hold_every_entry_and_every_combination():
    """Each code's class holds its entry, and the pair tables hold the kernel's ``combine`` of the two
    classes (every pair of number classes with the honour classes; 3,000 pairs of number classes)."""
    number, honour = shanten_tables()
    number_ids, honour_ids, number_classes, number_pairs, honour_pairs = class_tables()
    np.testing.assert_array_equal(number_classes[number_ids], number)
    honour_classes = np.unique(honour)
    np.testing.assert_array_equal(honour_classes[honour_ids], honour)
    nv, hv = len(number_classes), len(honour_classes)
    assert number_pairs.shape == (nv, nv) and honour_pairs.shape == (nv, hv)
    for a in range(nv):
        for h in range(hv):
            assert honour_pairs[a, h] == combine(number_classes[a], honour_classes[h])
    rng = np.random.default_rng(6)
    for a, b in rng.integers(0, nv, (3000, 2)):
        assert number_pairs[a, b] == combine(number_classes[a], number_classes[b])


@pytest.mark.parametrize("rules", ["lrc", "taiwan"])
@pytest.mark.parametrize("n_tiles", [16, 17])
def test_batch_by_class_matches_the_table_path(rules, n_tiles):
    """The batch kernel reads hands without declared sets by class (``row_distances``); the numba-callable
    ``shanten_hand`` works them out from the entries (``hand_distances``): the same on 20,000 dealt hands."""
    import numba

    from fastscore import nb
    from fastscore.rules import resolve_rules
    from fastscore.sample import sample_dealt

    @numba.njit
    def all_shanten(concealed, declared, win, number_table, honour_table, win_shapes):
        scratch = nb.make_shanten_scratch()
        out = np.empty((concealed.shape[0], 6), dtype=np.int64)
        for i in range(concealed.shape[0]):
            out[i] = np.array(nb.shanten_hand(concealed[i], declared[i], win[i], number_table, honour_table,
                                              scratch, win_shapes))
        return out

    batch = sample_dealt(20_000, seed=12, n_tiles=n_tiles)
    table = resolve_rules(rules)
    got = all_shanten(batch.concealed, batch.declared, batch.win, *shanten_tables(), table.win_shapes_bits)
    result = shanten_batch(batch, rules=rules)
    assert not result.error.any() and not got[:, 0].any()
    for j, column in enumerate((result.shanten, result.standard, result.nico_nico, result.thirteen_orphans,
                                result.sixteen_orphans), start=1):
        np.testing.assert_array_equal(got[:, j], column)
    assert (result.shanten <= 1).any() and (result.shanten >= 4).any()  # near-ready and far hands both


# --- brute force: every target hand -------------------------------------------------------------------

def _suit_and_honour_hands(declared, n_tiles):
    """Every multiset of ``n_tiles`` concealed tiles from 1m-9m and the honours that keeps 4 copies."""
    caps = [4 - c for c in declared_copies(declared)]
    kinds = list(range(9)) + list(range(27, 34))
    for combo in combinations_with_replacement(kinds, n_tiles):
        counts = [0] * N
        for t in combo:
            counts[t] += 1
        if all(counts[t] <= caps[t] for t in kinds):
            yield counts


@pytest.mark.parametrize("declared", [
    [(SetKind.PONG, 0), (SetKind.SHEUNG, 6), (SetKind.PONG, 27), (SetKind.GONG, 19)],
    [(SetKind.SHEUNG, 1), (SetKind.SHEUNG, 1), (SetKind.CONCEALED_GONG, 4), (SetKind.PONG, 31)],
], ids=["pong-1m-789m-EEE-2222s", "234m-234m-5555m-WhWhWh"])
def test_exhaustive_one_suit_and_honours(declared):
    """Every 16-tile hand of four declared sets plus four concealed tiles of 1m-9m and honours: the
    standard shanten equals the brute-force distance less one, and 0 exactly when the hand has waits."""
    hands = list(_suit_and_honour_hands(declared, 4))
    assert len(hands) > 1000
    batch = batch_of(hands, declared)
    result = shanten_batch(batch)
    assert not result.error.any()
    expected = np.array([standard_distance(h, declared) - 1 for h in hands])
    np.testing.assert_array_equal(result.standard, expected)
    np.testing.assert_array_equal(result.shanten, expected)
    assert (result.nico_nico == NO_SHAPE).all()
    waits = fastscore.waits_batch(batch)
    np.testing.assert_array_equal(result.shanten == 0, waits.n_waits > 0)


def _random_declared_hand(rng, n_declared, pool):
    held = [0] * N
    declared = []
    while len(declared) < n_declared:
        if rng.random() < 0.5:
            t = rng.randrange(N)
            kind = rng.choice([SetKind.PONG, SetKind.GONG, SetKind.CONCEALED_GONG])
            n = 3 if kind == SetKind.PONG else 4
            if held[t] + n > 4:
                continue
            held[t] += n
        else:
            t = rng.choice([x for x in range(27) if x % 9 <= 6])
            kind = SetKind.SHEUNG
            if any(held[t + i] >= 4 for i in range(3)):
                continue
            for i in range(3):
                held[t + i] += 1
        declared.append((kind, t))
    concealed = [0] * N
    left = 16 - 3 * n_declared
    while left:
        t = rng.choice(pool)
        if held[t] < 4:
            held[t] += 1
            concealed[t] += 1
            left -= 1
    return concealed, declared


@pytest.mark.parametrize("n_declared", [3, 4])
def test_random_declared_hands_match_brute_force(n_declared):
    rng = random.Random(n_declared)
    for trial in range(120):
        pool = list(range(N)) if trial % 2 else list(range(9, 18)) + list(range(27, 34))
        concealed, declared = _random_declared_hand(rng, n_declared, pool)
        result = shanten_batch(batch_of([concealed], declared))
        assert result.standard[0] == standard_distance(concealed, declared) - 1, (concealed, declared)


# --- brute force: the exchange recursion --------------------------------------------------------------

def _exchanged(batch, rng, n_exchanges):
    """Each hand of ``batch`` after ``n_exchanges`` random exchanges (a concealed tile out, a free kind in)."""
    out = batch.take(np.arange(len(batch)))
    for i in range(len(out)):
        held = np.array(reference.held_counts(list(out.concealed[i]), _declared_of(out, i)))
        for _ in range(n_exchanges):
            tiles = np.flatnonzero(out.concealed[i])
            t_out = int(rng.choice(tiles))
            free = np.flatnonzero(held < 4)
            t_in = int(rng.choice(free))
            out.concealed[i, t_out] -= 1
            out.concealed[i, t_in] += 1
            held[t_out] -= 1
            held[t_in] += 1
    return out


def _declared_of(batch, i):
    return tuple((SetKind(int(k)), int(t)) for k, t in batch.declared[i] if k)


def check_exchange_recursion(batch):
    """For every hand: shanten 0 exactly when it has waits; shanten k > 0 exactly when the least shanten
    over every single exchange is k - 1.  Returns the shanten found."""
    values = checked_shanten(batch)
    waits = fastscore.waits_batch(batch)
    np.testing.assert_array_equal(values == 0, waits.n_waits > 0)
    for i in range(len(batch)):
        declared = _declared_of(batch, i)
        neighbours = list(exchange_neighbours([int(c) for c in batch.concealed[i]], declared))
        least = checked_shanten(batch_of(neighbours, declared)).min()
        if values[i] > 0:
            assert least == values[i] - 1, (i, batch.concealed[i], declared, values[i], least)
        else:
            assert least >= 0
    return values


@pytest.mark.parametrize("family", FAMILIES)
def test_exchange_recursion_near_ready(family):
    """Ready hands of each family after 0 to 3 random exchanges (shanten up to about 3)."""
    rng = np.random.default_rng(7)
    ready = fastscore.sample_ready(40, seed=3, families=(family,))
    found = []
    for n_exchanges in range(4):
        found.extend(check_exchange_recursion(_exchanged(ready, rng, n_exchanges)))
    found = np.array(found)
    assert (found == 0).sum() >= 40 and (found == 1).any() and (found == 2).any()


def test_exchange_recursion_random_seeded():
    """Random 16-tile concealed hands (mostly far from ready) and one-suit-heavy ones."""
    rng = np.random.default_rng(11)
    rows = []
    for j in range(150):
        kinds = np.arange(N) if j % 3 else np.r_[0:9, 27:34]
        counts = np.zeros(N, dtype=np.uint8)
        while counts.sum() < 16:
            t = rng.choice(kinds)
            if counts[t] < 4:
                counts[t] += 1
        rows.append(counts)
    check_exchange_recursion(batch_of(rows))


# --- 17-tile hands ------------------------------------------------------------------------------------

def test_seventeen_tiles_is_least_over_discards():
    rng = np.random.default_rng(2)
    winning = fastscore.sample_winning(200, seed=5)
    hands = _exchanged(winning, rng, 1)
    values = checked_shanten(hands)
    for i in range(len(hands)):
        counts = hands.concealed[i].astype(int)
        counts[hands.win[i]] += 1
        discards = []
        for t in np.flatnonzero(counts):
            c = counts.copy()
            c[t] -= 1
            discards.append(c)
        best16 = checked_shanten(batch_of(discards, _declared_of(hands, i))).min()
        complete = reference.has_any_shape(list(counts), _declared_of(hands, i))
        assert values[i] == (-1 if complete else best16)


# --- hypothesis ---------------------------------------------------------------------------------------

@given(ready_hands())
def test_ready_hands_are_zero(case):
    hand, _ = case
    assert shanten(hand).shanten == 0


@given(winning_hands())
def test_winning_hands_are_minus_one(case):
    hand, win, _ = case
    assert shanten(hand, win).shanten == -1


@given(random_hands())
def test_random_hands_match_the_exchange_recursion(case):
    hand, _, _ = case
    batch = fastscore.efficiency.hand_batch(hand)
    check_exchange_recursion(batch)


def test_numba_callable_shanten_hand_matches_the_batch():
    import numba

    from fastscore import nb

    @numba.njit
    def all_shanten(concealed, declared, win, number_table, honour_table):
        scratch = nb.make_shanten_scratch()
        out = np.empty((concealed.shape[0], 6), dtype=np.int64)
        for i in range(concealed.shape[0]):
            out[i] = np.array(nb.shanten_hand(concealed[i], declared[i], win[i], number_table, honour_table,
                                              scratch))
        return out

    batch = fastscore.sample_winning(300, seed=8)
    batch.win[::2] = -1  # half 16-tile hands (the rest 17 tiles, the draw in win)
    batch.concealed[1, 0] += 1  # two bad rows: 17 + 1 tiles, 16 + 1 tiles without a draw
    batch.concealed[2, 0] += 1
    number_table, honour_table = nb.shanten_tables()
    got = all_shanten(batch.concealed, batch.declared, batch.win, number_table, honour_table)
    result = shanten_batch(batch)
    np.testing.assert_array_equal(got[:, 0] != 0, result.error != 0)
    ok = result.error == 0
    assert list(np.flatnonzero(~ok)) == [1, 2]
    for j, column in enumerate((result.shanten, result.standard, result.nico_nico, result.thirteen_orphans,
                                result.sixteen_orphans), start=1):
        np.testing.assert_array_equal(got[ok, j], column[ok])


def test_single_call_matches_the_batch():
    """``shanten(text)`` (one compiled call that parses and works out) against the batch of the same rows:
    16-tile hands, 17-tile hands written out and with the draw apart, with declared sets."""
    from fastscore.tiles import format_counts, format_set

    batch = fastscore.sample_winning(2_000, seed=21)
    batch.win[::3] = -1  # a third 16-tile hands, the rest 17 tiles
    result = shanten_batch(batch)
    assert not result.error.any()
    for i in range(len(batch)):
        sets = " ".join(format_set(SetKind(int(k)), int(t)) for k, t in batch.declared[i] if k)
        hand = (format_counts(batch.concealed[i]) + " " + sets).strip()
        drawn = None if batch.win[i] < 0 else fastscore.tiles.format_tile(int(batch.win[i]))
        expected = tuple(None if int(c[i]) == NO_SHAPE else int(c[i])
                         for c in (result.shanten, result.standard, result.nico_nico, result.thirteen_orphans,
                                   result.sixteen_orphans))
        assert tuple(shanten(hand, drawn)) == expected, (hand, drawn)
        if drawn is not None and i % 2:  # the draw written out: the highest kind is taken as the draw
            counts = batch.concealed[i].copy()
            counts[batch.win[i]] += 1
            high = int(np.flatnonzero(counts)[-1])
            counts[high] -= 1
            written = (format_counts(counts) + " " + sets).strip()
            high_text = fastscore.tiles.format_tile(high)
            assert shanten(written + " " + high_text) == shanten(written, high_text)
