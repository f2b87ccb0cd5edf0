"""A catalog of more than 63 rows: the rows of the high row word (``fastscore.kernels.rows.WORD_BITS``) score
through every path, worked from the HK-style Taiwanese table (docs/profiles/hk-taiwanese.md).

The table is tests/data/hk_rows.toml: the source's values for the rows the catalog has. The hands are the
source's engine tests (docs/profiles/hk-taiwanese.md, section 5; ``calculator/engine.test.ts`` of
AngusCYMan/HK-style-Taiwanese-Mahjong-Scoring-Guide at e76af4b7) and hands made for the rows they miss.
Where the source scores a row that the catalog lacks, the comment says which and by how much we differ.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import fastscore
from fastscore import HandBatch, score_batch, waits_batch
from fastscore.kernels import rows

HK_ROWS = Path(__file__).parent / "data" / "hk_rows.toml"

# (record, expected total, expected rows): each total is base 5 plus the rows, written out.
CASES = [
    # engine test 6: 111m 234m 234p 999p 55s + 777s on a discard, seat South.
    # no_flower_no_honour 5 + good_eyes 2 (55s) + two_concealed_pongs 3 (111m, 999p: 777s is claimed)
    # + pung_wait 2 (waits 5s and 7s) + double_mixed_chow 2 (234m, 234p) + base 5 = 19, the source's total.
    (dict(hand="111234m234999p5577s", win="7s", seat="S"), 19,
     {"no_flower_no_honour": 5, "good_eyes": 2, "two_concealed_pongs": 3, "pung_wait": 2, "double_mixed_chow": 2,
      "mahjong_base": 5}),
    # engine test 2: five sheungs, no honour, no flower, two-sided on 8s: all_sheung_nfnh 15 (replacing
    # all_sheungs and no_flower_no_honour) + base 5 = 20, the source's total.
    (dict(hand="123m34556799p23467s", win="8s", seat="S"), 20, {"all_sheung_nfnh": 15, "mahjong_base": 5}),
    # engine test 4: 13 Orphans, eyes RR, with 234s: thirteen_orphans 80 + no_flowers 1 + base 5 = 86, the
    # source's total.
    (dict(hand="19m19p1239s ESWN RRGWh", win="4s", seat="S"), 86,
     {"thirteen_orphans": 80, "no_flowers": 1, "mahjong_base": 5}),
    # engine test 3: four wind pongs, 123m, eyes 5m on a lone wait, seat East (fastscore's dealer).
    # semi_pure 30 + good_eyes 2 + single_wait 2 + four_concealed_pongs 30 + seat_wind_pong 2 (East)
    # + non_seat_wind_pong 3 x 1 (S, W, N) + big_four_winds 80 + no_flowers 1 + base 5 + dealer 1 = 156
    # (the source's 155 has no dealer for seat East).
    (dict(hand="1235m EEESSSWWWNNN", win="5m", seat="E"), 156,
     {"semi_pure": 30, "good_eyes": 2, "single_wait": 2, "four_concealed_pongs": 30, "seat_wind_pong": 2,
      "non_seat_wind_pong": 3, "big_four_winds": 80, "no_flowers": 1, "mahjong_base": 5, "dealer": 1}),
    # engine test 7: three exposed sets, flowers 2f (a mixed flower) and 5f (East's flower), dealer streak 2.
    # missing_one_suit 5 + dragon_pong 2 x 2 + little_three_dragons 20 + seven_tile_hand 20 + mixed_flower 1
    # + seat_flower_outside_set 2 + linear_chows 2 (123m with 789m) + base 5 + dealer 1 + dealer_streak 2 x 2
    # = 64, the source's total.
    (dict(hand="78m234s WhWh [RRR] [123m] [GGG]", win="9m", seat="E", streak=2, flowers="2f5f"), 64,
     {"missing_one_suit": 5, "dragon_pong": 4, "little_three_dragons": 20, "seven_tile_hand": 20,
      "mixed_flower": 1, "seat_flower_outside_set": 2, "linear_chows": 2, "mahjong_base": 5, "dealer": 1,
      "dealer_streak": 4}),
    # engine test 8: five concealed pongs, self-drawn: all_concealed_pongs 100 (replacing all_pongs and
    # five_concealed_pongs) + good_eyes 2 + pung_wait 2 (waits 8s and R) + dragon_pong 2 + no_flowers 1
    # + base 5 = 112, the source's total.
    (dict(hand="222555m333p66688s RR", win="R", self_drawn=True, seat="S"), 112,
     {"all_concealed_pongs": 100, "good_eyes": 2, "pung_wait": 2, "dragon_pong": 2, "no_flowers": 1,
      "mahjong_base": 5}),
    # five sheungs, 123m 456m 789p among them, no honour, no flower: all_sheung_nfnh 15 (replacing all_sheungs
    # and no_flower_no_honour) + mixed_straight_concealed 15 + double_mixed_chow 2 (123m, 123p) + linear_chows 2
    # (123p with 789p) + good_eyes 2 + base 5 = 41.
    (dict(hand="123m456m123p78p234s55s", win="9p", seat="S"), 41,
     {"all_sheung_nfnh": 15, "mixed_straight_concealed": 15, "double_mixed_chow": 2, "linear_chows": 2,
      "good_eyes": 2, "mahjong_base": 5}),
    # the same with flowers 1f-4f and 6f, seat South: flower_set 10 + seat_flower_outside_set 2 (6f; the set's
    # 2f scores nothing) + all_sheungs 3 + mixed_straight_concealed 15 + double_mixed_chow 2 + linear_chows 2
    # + good_eyes 2 + base 5 = 41.
    (dict(hand="123m456m123p78p234s55s", win="9p", seat="S", flowers="1f2f3f4f6f"), 41,
     {"flower_set": 10, "seat_flower_outside_set": 2, "all_sheungs": 3, "mixed_straight_concealed": 15,
      "double_mixed_chow": 2, "linear_chows": 2, "good_eyes": 2, "mahjong_base": 5}),
    # five exposed sets, self-drawn on a lone wait: semi_beggar 10 + seven_tile_hand 20 + single_wait 2
    # + good_eyes 2 + mixed_straight 8 (123p 456p 789s, declared) + non_seat_wind_pong 1 (East, seat South)
    # + no_flowers 1 + base 5 = 49.
    (dict(hand="5m [123p] [456p] [789s] [EEE] [999m]", win="5m", self_drawn=True, seat="S"), 49,
     {"semi_beggar": 10, "seven_tile_hand": 20, "single_wait": 2, "good_eyes": 2, "mixed_straight": 8,
      "non_seat_wind_pong": 1, "no_flowers": 1, "mahjong_base": 5}),
    # the same on a discard: all_exposed 15 in place of semi_beggar: 15 + 20 + 2 + 2 + 8 + 1 + 1 + 5 = 54.
    (dict(hand="5m [123p] [456p] [789s] [EEE] [999m]", win="5m", seat="S"), 54,
     {"all_exposed": 15, "seven_tile_hand": 20, "single_wait": 2, "good_eyes": 2, "mixed_straight": 8,
      "non_seat_wind_pong": 1, "no_flowers": 1, "mahjong_base": 5}),
    # a concealed gong and an exposed pong: ten_tile_hand 10 + concealed_gong 2 x 1 + non_seat_wind_pong 1
    # (West) + good_eyes 2 + no_flowers 1 + base 5 = 21 (one concealed pong, the gong: no two_concealed_pongs).
    (dict(hand="23456m789p55s (1111s) [WWW]", win="7m", seat="S"), 21,
     {"ten_tile_hand": 10, "concealed_gong": 2, "non_seat_wind_pong": 1, "good_eyes": 2, "no_flowers": 1,
      "mahjong_base": 5}),
    # 345m 456m 55m 555p 456s 567s: every group holds a 5, every tile 2-8: pure_with_x 30 + all_simples 5
    # + double_mixed_chow 2 (456m, 456s) + no_flower_no_honour 5 + good_eyes 2 (55m) + base 5 = 49 (waits 4s 7s:
    # no wait row).
    (dict(hand="34455556m555p45566s", win="7s", seat="S"), 49,
     {"pure_with_x": 30, "all_simples": 5, "double_mixed_chow": 2, "no_flower_no_honour": 5, "good_eyes": 2,
      "mahjong_base": 5}),
    # 111m 999m 999p EEE NNN, eyes 11p, N on a discard (waits 1p and N): mixed_terminals 30 (mixed_outside
    # replaced) + all_pongs 30 + four_concealed_pongs 30 (NNN claimed) + pung_wait 2 + non_seat_wind_pong 2 x 1
    # + missing_one_suit 5 + linear_pongs 3 (111m, 999m) + double_brothers 3 (999m, 999p) + no_flowers 1
    # + base 5 = 111.
    (dict(hand="111999m11999pEEENN", win="N", seat="S"), 111,
     {"mixed_terminals": 30, "all_pongs": 30, "four_concealed_pongs": 30, "pung_wait": 2, "non_seat_wind_pong": 2,
      "missing_one_suit": 5, "linear_pongs": 3, "double_brothers": 3, "no_flowers": 1, "mahjong_base": 5}),
    # 333m 333p and eyes 33s: small_triple_brothers 10 + two_concealed_pongs 3 + single_wait 2 (3s alone)
    # + no_flower_no_honour 5 + base 5 = 25.
    (dict(hand="333456m333789p3567s", win="3s", seat="S"), 25,
     {"small_triple_brothers": 10, "two_concealed_pongs": 3, "single_wait": 2, "no_flower_no_honour": 5,
      "mahjong_base": 5}),
    # 444555666m read as three 456m beats three pongs (big_triple_sisters 15 + three_concealed_pongs 10
    # + no_flower_no_honour 5 + base 5 = 35): pure_triple_chow 15 + all_sheung_nfnh 15
    # + mixed_straight_concealed 15 (123p 456m 789s) + base 5 = 50.
    (dict(hand="444555666m23p78999s", win="1p", seat="S"), 50,
     {"pure_triple_chow": 15, "all_sheung_nfnh": 15, "mixed_straight_concealed": 15, "mahjong_base": 5}),
    # with 444m and 555m declared the pongs stay: big_triple_sisters 15 + ten_tile_hand 10 + no_flowers 1
    # + base 5 = 31 (waits 1p 4p).
    (dict(hand="666m23p789s EE [444m] [555m]", win="1p", seat="S"), 31,
     {"big_triple_sisters": 15, "ten_tile_hand": 10, "no_flowers": 1, "mahjong_base": 5}),
    # 123m 456m 789p concealed, two suits: mixed_straight_concealed 15 + all_sheungs 3 + single_wait 2 (E)
    # + no_flowers 1 + base 5 = 26.
    (dict(hand="123456m789p234678sE", win="E", seat="S"), 26,
     {"mixed_straight_concealed": 15, "all_sheungs": 3, "single_wait": 2, "no_flowers": 1, "mahjong_base": 5}),
    # the same with 789p declared: mixed_straight 8 + 3 + 2 + 1 + 5 = 19.
    (dict(hand="123456m234678sE [789p]", win="E", seat="S"), 19,
     {"mixed_straight": 8, "all_sheungs": 3, "single_wait": 2, "no_flowers": 1, "mahjong_base": 5}),
    # eight pairs, 8s makes the pong: super_eight_pairs 50 (nico_nico replaced) + no_flower_no_honour 5
    # + base 5 = 60.
    (dict(hand="1122m3344p55667788s", win="8s", seat="S"), 60,
     {"super_eight_pairs": 50, "no_flower_no_honour": 5, "mahjong_base": 5}),
    # 2345p waits 2p and 5p; 5p completes the eyes 55p: false_solo 1 + pure_dragon_concealed 20 (123 456 789m)
    # + all_sheung_nfnh 15 (five sheungs, no honour, no flower) + linear_chows 2 (123m with 789m) + good_eyes 2
    # + base 5 = 45.
    (dict(hand="123456789m2345p678s", win="5p", seat="S"), 45,
     {"false_solo": 1, "pure_dragon_concealed": 20, "all_sheung_nfnh": 15, "linear_chows": 2, "good_eyes": 2,
      "mahjong_base": 5}),
    # 123m twice, 456p, 789s, 234s, eyes 55s (waits 2s and 5s; 5s completes the eyes): pure_double_chow 3
    # + all_sheung_nfnh 15 + mixed_straight_concealed 15 (123m 456p 789s) + false_solo 1 + good_eyes 2 + base 5
    # = 41.
    (dict(hand="112233m456p234789s5s", win="5s", seat="S"), 41,
     {"pure_double_chow": 3, "all_sheung_nfnh": 15, "mixed_straight_concealed": 15, "false_solo": 1,
      "good_eyes": 2, "mahjong_base": 5}),
    # 123m twice, 123p, 123s (four sheungs at one start; sister_sheungs replaced), 999p, eyes 55s on a lone
    # wait: quadruple_mixed_chow 20 + single_wait 2 + good_eyes 2 + no_flower_no_honour 5 + base 5 = 34.
    (dict(hand="112233m123999p1235s", win="5s", seat="S"), 34,
     {"quadruple_mixed_chow": 20, "single_wait": 2, "good_eyes": 2, "no_flower_no_honour": 5, "mahjong_base": 5}),
    # 111m 999m 111p 999p 999s, eyes 11s, 9s on a discard: pure_terminals 80 + all_pongs 30
    # + four_concealed_pongs 30 + pung_wait 2 + linear_pongs 3 x 2 (m, p) + small_triple_brothers 10 (the 1s)
    # + big_triple_brothers 15 (the 9s) + no_flower_no_honour 5 + base 5 = 183.
    (dict(hand="111999m111999p1199s", win="9s", seat="S"), 183,
     {"pure_terminals": 80, "all_pongs": 30, "four_concealed_pongs": 30, "pung_wait": 2, "linear_pongs": 6,
      "small_triple_brothers": 10, "big_triple_brothers": 15, "no_flower_no_honour": 5, "mahjong_base": 5}),
]


@pytest.mark.parametrize("record, total, expected", CASES)
def test_worked_cases(record, total, expected):
    got = fastscore.score(rules=HK_ROWS, **record)
    assert got.rows == expected
    assert got.total == got.payout == total == sum(expected.values())


def test_the_batch_and_the_single_call_agree():
    batch = HandBatch.from_records([record for record, _, _ in CASES])
    result = score_batch(batch, rules=HK_ROWS)
    assert result.total.tolist() == [total for _, total, _ in CASES]
    for i, (_, _, expected) in enumerate(CASES):
        got = {rid: int(p) for rid, p in zip(result.row_ids, result.row_points[i]) if p}
        assert got == expected


def test_the_catalog_uses_both_row_words():
    # the hk-taiwanese profile has every row of the high word in force
    table = fastscore.load_rules("hk-taiwanese")
    high = [rid for rid in table.row_ids if rows.BIT[rid] >= rows.WORD_BITS]
    assert rows.N_ROWS > rows.WORD_BITS and len(high) == rows.N_ROWS - rows.WORD_BITS == 42
    # the LRC table has no row of the high word in force: its kernels skip those predicates
    assert all(rows.BIT[rid] < rows.WORD_BITS for rid in fastscore.load_rules().row_ids)


def test_waits_pay_the_rows_of_the_high_word():
    # 111234m 234999p 55s 77s waits on 5s and 7s, seat South; either completes a pong (pung_wait 2), and
    # 234m with 234p is double_mixed_chow 2.  On 7s by discard: 19 (the first case).  7s self-drawn: 777s is
    # concealed, three_concealed_pongs 10 in place of two_concealed_pongs 3: no_flower_no_honour 5
    # + good_eyes 2 + 10 + 2 + 2 + base 5 = 26.  On 5s the eyes are 77s (no good_eyes): by discard 555s is
    # claimed, two_concealed_pongs 3 + 5 + 2 + 2 + base 5 = 17; self-drawn 10 + 5 + 2 + 2 + 5 = 24.
    got = fastscore.waits("111234m234999p5577s", seat="S", rules=HK_ROWS)
    assert got == {"5s": {"discard": 17, "self_draw": 24}, "7s": {"discard": 19, "self_draw": 26}}
    batch = HandBatch.from_records([dict(hand="111234m234999p5577s", seat="S")], require_win=False)
    result = waits_batch(batch, rules=HK_ROWS)
    five_s, seven_s = 18 + 4, 18 + 6
    assert (int(result.payout_discard[0, five_s]), int(result.payout_self_draw[0, five_s])) == (17, 24)
    assert (int(result.payout_discard[0, seven_s]), int(result.payout_self_draw[0, seven_s])) == (19, 26)


def test_the_survey_tallies_the_rows_of_the_high_word():
    """A sampled survey under the test table tallies rows of the high word (its kernel re-evaluates the rows
    that read the winning tile, two_concealed_pongs among them, for each winning kind)."""
    result = fastscore.survey(sample=3000, seed=3, rules=str(HK_ROWS), progress=False)
    tallied = dict(result.top_rows(100, weighted=False))
    assert {"two_concealed_pongs", "missing_one_suit", "non_seat_wind_pong"} <= set(tallied)
