"""The shapes that make a win, per rule table (``[win] shapes``; docs/rules.md, "Shapes"): the LRC table wins
every shape of section 3, the Taiwanese profiles only the standard one (docs/profiles/taiwan.md).

A shape that does not win is no interpretation, no wait and no shanten, on every path: scoring, the win
check, waits (and so ``single_wait``), shanten, discards and the survey.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numba
import numpy as np
import pytest

import fastscore
import reference
from fastscore import HandBatch, RuleTableError, load_rules, nb, score, shanten, waits
from fastscore.kernels.bits import ctpop64
from fastscore.kernels.decompose import (count_masks, count_words, nico_pong_bits, sixteen_orphans_eyes_bits,
                                         special_win, thirteen_orphans_split_bits)
from fastscore.kernels.shanten import NO_SHAPE
from fastscore.profiles import PROFILES
from fastscore.survey import survey
from fastscore.survey.tally import SHAPE_KEYS
from fastscore.tiles import parse_hand, parse_tile
from test_survey import assert_tally_equal, brute_force, space_options

ROOT = Path(__file__).resolve().parents[1]
TAIWAN_TOML = ROOT / "fastscore" / "profiles" / "taiwan.toml"

NICO = "11m33m55m77p99p22s44s66s"  # eight pairs: any of them makes Nico Nico (seven pairs and a pong)
# 789m 789m 555p 111p 12p + the South eyes: the standard shape waits on 3p only; Nico Nico (77 88 99m,
# 11 11p, 555p, 22z) also on 2p, the single 2p.
EDGE_AND_NICO = "778899m11112555p22z"


def one_batch(hand: str, win: str) -> HandBatch:
    parsed = parse_hand(hand)
    declared = np.zeros((1, 5, 2), dtype=np.int8)
    return HandBatch.from_arrays(parsed.concealed.astype(np.uint8)[None], declared,
                                 np.array([parse_tile(win)], dtype=np.int8))


# ---------------------------------------------------------------------------------------------- the table

def test_tables_say_which_shapes_win():
    assert load_rules().win_shapes.all() and load_rules().win_shapes_bits == 15
    for name in PROFILES:
        if name.startswith("taiwan"):
            table = load_rules(name)
            assert table.win_shapes.tolist() == [True, False, False, False] and table.win_shapes_bits == 1
            assert table.to_dict()["win"] == {"shapes": ["standard"]}


@pytest.mark.parametrize("shapes, message", [
    ('["standard", "seven_pairs"]', "unknown shape 'seven_pairs'"),
    ('["nico_nico"]', "must include 'standard'"),
    ('"standard"', "shapes must be a list of names"),
])
def test_bad_win_shapes_are_refused(tmp_path, shapes, message):
    text = TAIWAN_TOML.read_text()
    text, n = re.subn(r'\[win\]\nshapes = \[[^\]]*\]', f"[win]\nshapes = {shapes}", text)
    assert n == 1
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(RuleTableError, match=re.escape(message)):
        load_rules(path)


def test_a_table_without_win_shapes_wins_every_shape(tmp_path):
    text, n = re.subn(r"\[win\]\nshapes = [^\n]*\n", "", TAIWAN_TOML.read_text())
    assert n == 1
    path = tmp_path / "t.toml"
    path.write_text(text)
    assert load_rules(path).win_shapes_bits == 15
    assert score(NICO, "6s", rules=path).is_win


# ---------------------------------------------------------------------------------------------- scoring

def test_nico_nico_wins_under_lrc_only():
    # LRC: nico_nico 40 + no_flower_no_honour 5 + mahjong_base 5 + east_wins 5 (East seat) = 55.
    lrc = score(NICO, "6s")
    assert lrc.is_win and lrc.shape == "nico_nico" and lrc.payout == 55
    taiwan = score(NICO, "6s", rules="taiwan")
    assert not taiwan.is_win and taiwan.shape is None and taiwan.payout == 0 and taiwan.rows == {}
    assert fastscore.interpretations(NICO, "6s", rules="taiwan") == []
    batch = one_batch(NICO, "6s")
    assert fastscore.win_check(batch).tolist() == [True]
    assert fastscore.win_check(batch, rules="taiwan").tolist() == [False]
    assert fastscore.score_batch(batch, rules="taiwan").is_win.tolist() == [False]
    suit_info = nb.tables()[0]
    args = (batch.concealed[0], batch.declared[0], int(batch.win[0]), suit_info, nb.make_scratch())
    assert nb.win_check_hand(*args) == (0, True)
    assert nb.win_check_hand(*args, load_rules("taiwan").win_shapes_bits) == (0, False)


def test_single_wait_counts_only_the_waits_of_winning_shapes():
    # LRC: 3p and 2p (Nico Nico) both wait, so no single_wait: on 3p concealed_hand 5 + no_flowers 1 +
    # mahjong_base 5 = 11, under the West round's minimum of 24, so it pays 0.
    lrc = score(EDGE_AND_NICO, "3p", seat="N", round="W")
    assert lrc.rows == {"concealed_hand": 5, "no_flowers": 1, "mahjong_base": 5} and lrc.payout == 0
    assert set(waits(EDGE_AND_NICO, seat="N", round="W")) == {"2p", "3p"}
    # taiwan: 3p is the only wait (du ting): concealed_hand 1 + single_wait 1 = 2 on a discard,
    # concealed_self_draw 3 + single_wait 1 = 4 by self-draw.
    taiwan = score(EDGE_AND_NICO, "3p", seat="N", round="W", rules="taiwan")
    assert taiwan.rows == {"concealed_hand": 1, "single_wait": 1} and taiwan.payout == 2
    assert waits(EDGE_AND_NICO, seat="N", round="W", rules="taiwan") == {"3p": {"discard": 2, "self_draw": 4}}
    assert reference.waits(EDGE_AND_NICO, seat="N", round="W", rules_path=TAIWAN_TOML) == \
        {"3p": {"discard": 2, "self_draw": 4}}


def test_sampled_special_shapes_are_no_win_under_taiwan():
    wins = fastscore.sample_winning(3000, seed=5, families=["nico_nico", "thirteen_orphans", "sixteen_orphans"])
    lrc = fastscore.score_batch(wins)
    taiwan = fastscore.score_batch(wins, rules="taiwan")
    special = lrc.shape != int(fastscore.Shape.STANDARD)
    assert special.sum() > 2500 and lrc.is_win.all()
    # A special hand that also reads as a standard one still wins, in the standard shape.
    assert (taiwan.is_win == ~special | (taiwan.shape == int(fastscore.Shape.STANDARD))).all()
    assert not taiwan.is_win[special].all() and (taiwan.shape[taiwan.is_win] == 0).all()
    np.testing.assert_array_equal(fastscore.win_check(wins, rules="taiwan"), taiwan.is_win)


# ---------------------------------------------------------------------------------------------- efficiency

def test_shanten_counts_only_winning_shapes():
    assert shanten(NICO) == (0, 4, 0, 11, 10)  # ready for Nico Nico, 4 exchanges from a standard hand
    assert shanten(NICO, rules="taiwan") == (4, 4, None, None, None)
    batch = one_batch(NICO, "6s")
    batch.win[:] = -1
    result = fastscore.shanten_batch(batch, rules="taiwan")
    assert (result.shanten[0], result.standard[0], result.nico_nico[0]) == (4, 4, NO_SHAPE)
    # The numba-callable form takes the table's bits (1: the standard shape only).
    number_table, honour_table = nb.shanten_tables()
    hand = one_batch(NICO, "6s")
    for bits, expected in ((15, (0, 0, 4, 0, 11, 10)), (1, (0, 4, 4, NO_SHAPE, NO_SHAPE, NO_SHAPE))):
        assert nb.shanten_hand(hand.concealed[0], hand.declared[0], -1, number_table, honour_table,
                               nb.make_shanten_scratch(), bits) == expected


def test_discards_count_only_winning_shapes():
    # 17 tiles: NICO and East; discarding East leaves Nico Nico ready (LRC) but 4 from a standard hand.
    lrc = {d["discard"]: d for d in fastscore.discards(NICO + "1z")}
    taiwan = {d["discard"]: d for d in fastscore.discards(NICO + "1z", rules="taiwan")}
    assert lrc["1z"]["shanten"] == 0 and len(lrc["1z"]["waits"]) == 8
    assert taiwan["1z"]["shanten"] == 4 and taiwan["1z"]["waits"] == {}
    assert min(d["shanten"] for d in taiwan.values()) == shanten(NICO + "1z", rules="taiwan").shanten


# ---------------------------------------------------------------------------------------------- survey

#: Pairs of souzu and seven more souzu tiles (the survey's space is the standard hands): a third of the
#: scorings pay best as Nico Nico under LRC, in the standard shape under taiwan, some with a single wait.
PAIRS = ("s", False, "1133557799s")


def test_survey_under_taiwan_against_the_reference():
    result = survey(**space_options(PAIRS), rules="taiwan", progress=False)
    expected = brute_force(PAIRS, score_one=functools.partial(reference.score, rules_path=TAIWAN_TOML))
    assert_tally_equal(result.tally, expected)
    lrc = survey(**space_options(PAIRS), progress=False)
    nico = SHAPE_KEYS.index("nico_nico")
    assert lrc.tally.shapes[0, nico] > 0 and result.tally.shapes[0, nico] == 0


def test_sampled_survey_has_no_win_for_special_shapes_under_taiwan():
    result = survey(sample=2000, seed=4, rules="taiwan", compare="lrc", progress=False)
    no_win = SHAPE_KEYS.index("no_win")
    taiwan = fastscore.score_batch(fastscore.sample_winning(2000, seed=4), rules="taiwan")
    assert result.tally.shapes[0, no_win] == (~taiwan.is_win).sum() > 0
    assert result.compare.shapes[0, no_win] == 0


@pytest.mark.parametrize("space", [dict(space_options(PAIRS)), dict(sample=2000, seed=4)], ids=["space", "sample"])
def test_survey_compares_tables_with_other_shapes(space):
    """Each table takes its own shapes and single waits when the two differ."""
    for main, other in (("lrc", "taiwan"), ("taiwan", "lrc")):
        both = survey(**space, rules=main, compare=other, progress=False)
        assert_tally_equal(both.tally, survey(**space, rules=main, progress=False).tally)
        assert_tally_equal(both.compare, survey(**space, rules=other, progress=False).tally)


@numba.njit
def _special_wins(rows, wins, win_shapes, strided):
    out = np.empty(rows.shape[0], dtype=np.bool_)
    for i in range(rows.shape[0]):
        out[i] = special_win(count_words(strided if strided.shape[0] else rows, i, wins[i]), win_shapes)
    return out


#: The ten orphan sheungs of a suit (16 Orphans): three numbers, pairwise three or more apart (0-based).
_ORPHAN_SHEUNGS = [(a, b, c) for a in range(9) for b in range(a + 3, 9) for c in range(b + 3, 9)]


def _near_special_hands(n: int, seed: int) -> np.ndarray:
    """``n`` 17-tile count vectors near the special shapes: each starts from a Nico Nico, 13 Orphans or
    16 Orphans hand (a random one) and has 0-2 tiles moved to random kinds (at most 4 of a kind)."""
    rng = np.random.default_rng(seed)
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    rows = np.zeros((n, 34), dtype=np.int64)
    for i in range(n):
        c = rows[i]
        shape = rng.integers(3)
        if shape == 0:  # seven pairs and a pong
            kinds = rng.choice(34, 8, replace=False)
            c[kinds[:7]] += 2
            c[kinds[7]] += 3
            if rng.random() < 0.3:  # a kind four times (two pairs)
                c[kinds[0]] = 4
                c[kinds[1]] = 0
        elif shape == 1:  # one of each orphan, an orphan for the eyes, a set
            c[orphans] += 1
            c[rng.choice(orphans)] += 1
            t = int(rng.integers(27))
            if rng.random() < 0.5 and t % 9 <= 6:
                c[t:t + 3] += 1
            else:
                c[t] += 3
        else:  # an orphan sheung per suit, the honours, eyes
            for s in range(3):
                c[9 * s + np.array(_ORPHAN_SHEUNGS[rng.integers(len(_ORPHAN_SHEUNGS))])] += 1
            c[27:] += 1
            c[rng.choice(np.flatnonzero(c))] += 1
        for _ in range(int(rng.integers(3))):
            src = rng.choice(np.flatnonzero(c))
            dst = int(rng.integers(34))
            if c[dst] < 4:
                c[src] -= 1
                c[dst] += 1
    return rows


@numba.njit
def _special_splits(rows):
    """Per 17-tile row (no declared set): the Nico Nico pong, its kinds held four times and its pairs
    mask; the 16 Orphans eyes; and up to four 13 Orphans splits (eyes, set kind, set tile), -1 padded."""
    out = np.full((rows.shape[0], 16), -1, dtype=np.int64)
    for i in range(rows.shape[0]):
        ones, twos, threes, fours, held = count_masks(count_words(rows, i, np.int64(-1)))
        out[i, 0] = nico_pong_bits(ones, threes)
        out[i, 1] = ctpop64(fours)
        out[i, 2] = twos | fours
        out[i, 3] = sixteen_orphans_eyes_bits(twos, threes, fours, held)
        for k in range(4):
            e, kind, tile = thirteen_orphans_split_bits(ones, twos, threes, fours, held, np.int64(k))
            out[i, 4 + 3 * k] = e
            out[i, 5 + 3 * k] = kind
            out[i, 6 + 3 * k] = tile
    return out


def test_special_interpretations_by_masks_match_the_reference():
    """4,000 hands near Nico Nico, 13 and 16 Orphans: the scoring kernels' special shapes read from count
    masks (:func:`fastscore.kernels.decompose.count_masks`: the Nico Nico pong and pairs, the 16 Orphans eyes,
    every 13 Orphans split in the 9.13 order) agree with the reference's interpretations (section 3)."""
    hands = _near_special_hands(4_000, seed=22)
    hands = hands[(hands <= 4).all(axis=1) & (hands.sum(axis=1) == 17)]
    got = _special_splits(hands.astype(np.uint8))
    seen = {"nico": 0, "thirteen": 0, "sixteen": 0}
    for c, row in zip(hands.tolist(), got.tolist()):
        nico = reference.nico_nico_interpretations(c, [])
        # Seven pairs and a pong: the pong, the kinds held four times (two pairs each), every pair.
        assert row[0] == (nico[0].pongs[0] if nico else -1), c
        if nico:
            seen["nico"] += 1
            assert row[1] == nico[0].quads, c
            assert row[2] == sum(1 << t for t in range(34) if c[t] in (2, 4)), c
        sixteen = reference.sixteen_orphans_interpretations(c, [])
        assert row[3] == (sixteen[0].eyes if sixteen else -1), c
        seen["sixteen"] += bool(sixteen)
        thirteen = [(i.eyes, 2 if i.pongs else 1, i.order_key[2][0])  # eyes, pong (2) or sheung (1), its tile
                    for i in reference.thirteen_orphans_interpretations(c, [])]
        splits = [tuple(row[4 + 3 * k:7 + 3 * k]) for k in range(4) if row[4 + 3 * k] >= 0]
        assert splits == thirteen, c
        assert all(row[4 + 3 * k] == -1 for k in range(len(splits), 4)), c  # none after the last
        seen["thirteen"] += bool(thirteen)
    assert min(seen.values()) > 300, seen  # every shape common among the hands


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_special_win_matches_the_reference_shapes(layout):
    """4,000 hands near Nico Nico, 13 and 16 Orphans (from the shapes, 0-2 tiles moved), every winning tile
    they hold, each shape alone and all three: the win check's table-free special test
    (:func:`fastscore.kernels.decompose.special_win`, section 3) agrees with the reference's shapes."""
    hands = _near_special_hands(4_000, seed=21)
    hands = hands[(hands <= 4).all(axis=1) & (hands.sum(axis=1) == 17)]
    rows, wins, want = [], [], {s: [] for s in (1, 2, 3, 14)}
    names = {1: ("nico_nico",), 2: ("thirteen_orphans",), 3: ("sixteen_orphans",),
             14: ("nico_nico", "thirteen_orphans", "sixteen_orphans")}
    for c in hands:
        for w in np.flatnonzero(c):
            row = c.copy()
            row[w] -= 1
            rows.append(row)
            wins.append(w)
            for s, shapes in names.items():
                want[s].append(reference.has_any_shape(c.tolist(), [], shapes=shapes))
    rows = np.array(rows, dtype=np.uint8)
    wins = np.array(wins, dtype=np.int64)
    strided = np.empty((0, 34), dtype=np.uint8)
    if layout == "strided":
        wide = np.zeros((len(rows), 68), dtype=np.uint8)
        wide[:, ::2] = rows
        strided = wide[:, ::2]
    assert sum(want[14]) > len(rows) // 4 and len(rows) - sum(want[14]) > len(rows) // 4  # both answers common
    for s in names:
        # win_shapes bit 0 is the standard shape (always on); 1 << shape for each special shape.
        bits = 1 | (s if s == 14 else 1 << s)
        got = _special_wins(rows, wins, bits, strided)
        np.testing.assert_array_equal(got, np.array(want[s]), err_msg=str(names[s]))
