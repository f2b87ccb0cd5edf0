"""The ``hk-taiwanese`` profile (docs/profiles/hk-taiwanese.md): the source's own engine tests, the double
interpretation (雙食) through every path, and the true solo (獨獨).

The source is AngusCYMan/HK-style-Taiwanese-Mahjong-Scoring-Guide, ``calculator/engine.test.ts`` at commit
e76af4b719ea582276f100d81915694ce71fdc18; each case below names its block. Points are fan; every total is
written out row by row, base 5 included.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import fastscore
import reference
from fastscore import HandBatch, score_batch, waits_batch
from fastscore.rules import RuleTableError, load_rules
from fastscore.survey import SHAPE_KEYS, survey
from strategies import counts
from test_survey import assert_tally_equal, brute_force

PROFILE = "hk-taiwanese"
PATH = str(resources.files("fastscore").joinpath(fastscore.rules.PROFILES[PROFILE]))
SOURCE = "AngusCYMan/HK-style-Taiwanese-Mahjong-Scoring-Guide calculator/engine.test.ts @ e76af4b7"

# (source block, record, expected rows, the source's total): the expressible blocks of the source's tests.
ENGINE_TESTS = [
    # "1. 雙食: 萬 11 22 33 44 55 66 88 999, winning on 8萬 by discard."  Nico Nico (A) and the standard
    # reading 123m 123m 456m 456m 999m 88m (B) add up.  A: nico_nico 40 + pure 80 + no_flower_no_honour 5
    # + false_solo 1 (waits 7m and 8m) = 126.  B: pure 80 + no_flower_no_honour 5 + good_eyes 2 + false_solo 1
    # + pure_double_chow 3 x 2 = 94.  126 + 94 + base 5 = 225.
    ("1", dict(hand="1122334455668999m", win="8m", seat="S"),
     {"nico_nico": 40, "pure": 160, "no_flower_no_honour": 10, "false_solo": 2, "good_eyes": 2,
      "pure_double_chow": 6, "mahjong_base": 5}, 225),
    # "2. 無字花大平胡": all_sheung_nfnh 15 (replacing all_sheungs, no_flower_no_honour, no_flowers) + base 5 = 20.
    ("2", dict(hand="123m34556799p23467s", win="8s", seat="S"), {"all_sheung_nfnh": 15, "mahjong_base": 5}, 20),
    # "3. 大四喜", 5m on a lone wait, seat East (the source's default seat; fastscore's dealer is East, so
    # dealer 1 more than the source's 155, whose dealer flag is off): semi_pure 30 + good_eyes 2
    # + true_solo 2 (the eyes) + four_concealed_pongs 30 + seat_wind_pong 2 + non_seat_wind_pong 1 x 3
    # + big_four_winds 80 + no_flowers 1 + base 5 + dealer 1 = 156.
    ("3", dict(hand="1235m EEESSSWWWNNN", win="5m", seat="E"),
     {"semi_pure": 30, "good_eyes": 2, "true_solo": 2, "four_concealed_pongs": 30, "seat_wind_pong": 2,
      "non_seat_wind_pong": 3, "big_four_winds": 80, "no_flowers": 1, "mahjong_base": 5, "dealer": 1}, 155),
    # "4. 十三么": thirteen_orphans 80 + no_flowers 1 + base 5 = 86.
    ("4", dict(hand="19m19p1239s ESWN RRGWh", win="4s", seat="S"),
     {"thirteen_orphans": 80, "no_flowers": 1, "mahjong_base": 5}, 86),
    # "6. 對碰 and 暗刻": no_flower_no_honour 5 + good_eyes 2 + pung_wait 2 + two_concealed_pongs 3 (777s is
    # claimed) + double_mixed_chow 2 (234m, 234p) + base 5 = 19.
    ("6", dict(hand="111234m234999p5577s", win="7s", seat="S"),
     {"no_flower_no_honour": 5, "good_eyes": 2, "pung_wait": 2, "two_concealed_pongs": 3, "double_mixed_chow": 2,
      "mahjong_base": 5}, 19),
    # "7. Melds: 3 exposed melds -> 七只內; dealer streak 2 -> 5番.": missing_one_suit 5 + dragon_pong 2 x 2
    # + little_three_dragons 20 + linear_chows 2 + seat_flower_outside_set 2 (5f, East's) + mixed_flower 1 (2f)
    # + seven_tile_hand 20 + base 5 + dealer 1 + dealer_streak 2 x 2 = 64.
    ("7", dict(hand="78m234s WhWh [RRR] [123m] [GGG]", win="9m", seat="E", streak=2, flowers="2f5f"),
     {"missing_one_suit": 5, "dragon_pong": 4, "little_three_dragons": 20, "linear_chows": 2,
      "seat_flower_outside_set": 2, "mixed_flower": 1, "seven_tile_hand": 20, "mahjong_base": 5, "dealer": 1,
      "dealer_streak": 4}, 64),
    # "8. 間間胡": all_concealed_pongs 100 + good_eyes 2 + pung_wait 2 + dragon_pong 2 + no_flowers 1 + base 5
    # = 112.
    ("8", dict(hand="222555m333p66688s RR", win="R", self_drawn=True, seat="S"),
     {"all_concealed_pongs": 100, "good_eyes": 2, "pung_wait": 2, "dragon_pong": 2, "no_flowers": 1,
      "mahjong_base": 5}, 112),
]


@pytest.mark.parametrize("block, record, expected, source_total", ENGINE_TESTS, ids=[c[0] for c in ENGINE_TESTS])
def test_the_source_engine_tests(block, record, expected, source_total):
    got = fastscore.score(rules=PROFILE, **record)
    assert got.rows == expected
    # one disagreement, block 3: seat East is fastscore's dealer (dealer 1), not the source's
    dealer = 1 if block == "3" else 0
    assert got.total == got.payout == sum(expected.values()) == source_total + dealer
    assert reference.score(rules_path=PATH, **record)["total"] == got.total


def test_the_batch_and_the_single_call_agree():
    batch = HandBatch.from_records([record for _, record, _, _ in ENGINE_TESTS])
    result = score_batch(batch, rules=PROFILE)
    assert result.total.tolist() == [sum(expected.values()) for _, _, expected, _ in ENGINE_TESTS]
    for i, (_, _, expected, _) in enumerate(ENGINE_TESTS):
        assert {rid: int(p) for rid, p in zip(result.row_ids, result.row_points[i]) if p} == expected
    assert result.shape[0] == 1  # the double interpretation reports the Nico Nico shape


def test_the_double_interpretation_pays_every_wait():
    # 1122334455668999m (16 tiles) waits on 7m and 8m.  On 8m: 225 (engine test 1), self-drawn the same (no row reads
    # it).  On 7m there is no Nico Nico: 123m 123m 456m 456m 789m 99m, pure 80 + all_sheung_nfnh 15 (five
    # sheungs, no honour, no flower) + pure_double_chow 3 x 2 + pure_dragon_concealed 20 + linear_chows 2
    # (123m with 789m) + base 5 = 128.
    got = fastscore.waits("1122334455668999m", seat="S", rules=PROFILE)
    assert got == {"7m": {"discard": 128, "self_draw": 128}, "8m": {"discard": 225, "self_draw": 225}}
    assert got == reference.waits("1122334455668999m", seat="S", rules_path=PATH)
    batch = HandBatch.from_records([dict(hand="1122334455668999m", seat="S")], require_win=False)
    result = waits_batch(batch, rules=PROFILE)
    assert (int(result.payout_discard[0, 6]), int(result.payout_discard[0, 7])) == (128, 225)


def test_the_survey_counts_the_double_interpretation():
    """Every hand of 11 22 33 44 55 66 99m and three more characters, won on each of its kinds: the survey's
    tallies equal the reference's, scored one by one (the space holds engine test 1)."""
    space = ("m", False, "11223344556699m")
    result = survey(suits="m", honours=False, fixed=counts("11223344556699m"), rules=PATH, progress=False)
    expected = brute_force(space, score_one=lambda hand, win: reference.score(hand, win, rules_path=PATH))
    assert_tally_equal(result.tally, expected)
    assert result.tally.shapes[0][SHAPE_KEYS.index("nico_nico")] > 0  # Nico Nico wins, the doubles among them


def test_a_table_without_the_double_interpretation_pays_the_better_reading():
    text = Path(PATH).read_text(encoding="utf-8").replace("double_interpretation = true", "double_interpretation = false")
    text = re.sub(r"\ncounted_once = .*", "", text)
    table = fastscore.rules._parse_content("single.toml", text.encode())
    # Nico Nico alone: 126 + base 5 = 131.
    assert fastscore.score("1122334455668999m", "8m", seat="S", rules=table).total == 131


@pytest.mark.parametrize("totals, message", [
    ('double_interpretation = true\ncounted_once = ["no_such_row"]', "counted_once: unknown row id 'no_such_row'"),
    ('double_interpretation = true\ncounted_once = ["pure"]', "counted_once: row 'pure' is not in force"),
    ('counted_once = ["no_flowers"]', "counted_once needs double_interpretation = true"),
    ('double_interpretation = true\ncounted_once = ["no_flowers", "no_flowers"]',
     "counted_once names row 'no_flowers' twice"),
    ('double_interpretation = "yes"', "double_interpretation must be true or false"),
])
def test_bad_double_interpretation_options_are_named(totals, message, tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(f'[totals]\n{totals}\n\n[[row]]\nid = "no_flowers"\npoints = 1\n')
    with pytest.raises(RuleTableError, match=message):
        load_rules(path)


def test_the_double_interpretation_needs_nico_nico_to_win(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[totals]\ndouble_interpretation = true\n\n[win]\nshapes = ["standard"]\n\n'
                    '[[row]]\nid = "no_flowers"\npoints = 1\n')
    with pytest.raises(RuleTableError, match="double_interpretation needs 'nico_nico'"):
        load_rules(path)


# (record, expected rows): the true solo (b-1) needs a closed place for the winning tile.
TRUE_SOLO = [
    # 12m waits on 3m alone (the edge): true_solo 2 + non_seat_wind_pong 1 (East, seat South) + no_flowers 1
    # + base 5 = 9.
    (dict(hand="12m567p789p234s EEE NN", win="3m", seat="S"),
     {"true_solo": 2, "non_seat_wind_pong": 1, "no_flowers": 1, "mahjong_base": 5}),
    # 23m with the four 1m declared as a gong waits on 4m alone, the open end: no wait row.
    # missing_one_suit 5 (m and p) + non_seat_wind_pong 1 + no_flowers 1 + base 5 = 12.
    (dict(hand="23m567p789p EEE NN [1111m]", win="4m", seat="S"),
     {"missing_one_suit": 5, "non_seat_wind_pong": 1, "no_flowers": 1, "mahjong_base": 5}),
    # Nico Nico waiting on R alone: nico_nico 40 + true_solo 2 + semi_pure 30 + non_seat_wind_pong 1
    # + no_flowers 1 + base 5 = 79.
    (dict(hand="1133557799m EEE GG R", win="R", seat="S"),
     {"nico_nico": 40, "true_solo": 2, "semi_pure": 30, "non_seat_wind_pong": 1, "no_flowers": 1,
      "mahjong_base": 5}),
    # Nico Nico of three suits, no honour, flower 1f, seat South, waiting on 9s alone: nico_nico 40
    # + true_solo 2 + no_honours 1 (the source's Nico Nico reading takes b-3) + mixed_flower 1 + base 5 = 49.
    (dict(hand="113366m5577p22444s9s", win="9s", seat="S", flowers="1f"),
     {"nico_nico": 40, "true_solo": 2, "no_honours": 1, "mixed_flower": 1, "mahjong_base": 5}),
]


@pytest.mark.parametrize("record, expected", TRUE_SOLO)
def test_the_true_solo(record, expected):
    got = fastscore.score(rules=PROFILE, **record)
    assert got.rows == expected and got.total == sum(expected.values())
    assert reference.score(rules_path=PATH, **record)["rows"] == expected


# (record, expected rows): the event rows of the source (e-1, e-4, e-5), on 12m 567p 789p 234s EEE NN,
# seat South: true_solo 2 (3m is the edge) + non_seat_wind_pong 1 + no_flowers 1 + base 5 = 9, plus the event.
EVENTS = [
    (dict(win="3m", self_drawn=True, events="after_flower"), 9 + 1),   # after_flower 1
    (dict(win="3m", events="double_win"), 9 + 5),                      # double_win 5
    (dict(win="3m", events="triple_win"), 9 + 10),                     # triple_win 10
    (dict(win="3m", events="double_win", self_drawn=True), None),      # refused: others win on a discard only
]


@pytest.mark.parametrize("record, total", EVENTS)
def test_the_event_rows(record, total):
    record = dict(hand="12m567p789p234s EEE NN", seat="S", **record)
    if total is None:
        with pytest.raises(ValueError, match="need a win on a discard"):
            fastscore.score(rules=PROFILE, **record)
        return
    got = fastscore.score(rules=PROFILE, **record)
    assert got.total == total and got.rows[record["events"]] == total - 9
    assert reference.score(rules_path=PATH, **record)["total"] == total
    batch = HandBatch.from_records([record])
    assert batch.events.dtype == np.uint16 and int(score_batch(batch, rules=PROFILE).total[0]) == total


def test_waits_pay_the_events_above_the_first_eight_bits():
    # 12m 567p 789p 234s EEE NN waits on 3m alone, seat South: 9 as above; double_win (bit 512) adds 5 on a
    # discard and nothing self-drawn (the single call's compiled path and the batch alike).
    hand = "12m567p789p234s EEE NN"
    assert fastscore.waits(hand, seat="S", events="double_win", rules=PROFILE) == {
        "3m": {"discard": 14, "self_draw": 9}}
    batch = HandBatch.from_records([dict(hand=hand, seat="S", events="double_win")], require_win=False)
    result = waits_batch(batch, rules=PROFILE)
    assert (int(result.payout_discard[0, 2]), int(result.payout_self_draw[0, 2])) == (14, 9)


# (record, expected rows): 大雞胡 (p-1), the declared event great_chicken.  The profile has great_chicken
# replace every pattern row and the base; the flower, hand-size, 求人, event and dealer rows still add.
GREAT_CHICKEN = [
    # 12m 567p 789p 234s EEE NN on 3m, seat South: 9 without the event (true_solo 2 + non_seat_wind_pong 1
    # + no_flowers 1 + base 5); with it great_chicken 30 + no_flowers 1 = 31.
    (dict(hand="12m567p789p234s EEE NN", win="3m", seat="S"), {"great_chicken": 30, "no_flowers": 1}),
    # The same hand for East with a streak of 1, flowers 2f 3f (not East's number), self-drawn after a
    # flower: great_chicken 30 + dealer 1 + dealer_streak 2 + mixed_flower 2 + after_flower 1 = 36.
    (dict(hand="12m567p789p234s EEE NN", win="3m", seat="E", streak=1, flowers="2f 3f", self_drawn=True,
          events="after_flower"),
     {"great_chicken": 30, "dealer": 1, "dealer_streak": 2, "mixed_flower": 2, "after_flower": 1}),
    # 11223344556688m 99m on 9m reads as Nico Nico and as a standard hand: 雙食 pays 235 without the event.
    # With it each reading is great_chicken 30 + no_flowers 1, both rows counted once: 31.
    (dict(hand="11223344556688m 99m", win="9m", seat="S"), {"great_chicken": 30, "no_flowers": 1}),
]


@pytest.mark.parametrize("record, expected", GREAT_CHICKEN)
def test_the_great_chicken(record, expected):
    record = dict(record)
    events = " ".join(["great_chicken"] + record.pop("events", "").split())
    without = fastscore.score(rules=PROFILE, **record)
    assert "great_chicken" not in without.rows and without.rows["mahjong_base"] == 5
    record = dict(record, events=events)
    got = fastscore.score(rules=PROFILE, **record)
    assert got.rows == expected and got.total == got.payout == sum(expected.values())
    assert reference.score(rules_path=PATH, **record)["rows"] == expected
    batch = score_batch(HandBatch.from_records([record]), rules=PROFILE)
    assert int(batch.total[0]) == sum(expected.values())
    # The base's column is 0 with the event: the row does not score, and the total does not take it.
    assert int(batch.row_points[0, batch.row_ids.index("mahjong_base")]) == 0


def test_the_great_chicken_in_waits():
    # 12m 567p 789p 234s EEE NN waits on 3m alone, seat South: great_chicken 30 + no_flowers 1 = 31 either way
    # (the profile has no self-draw row).
    hand = "12m567p789p234s EEE NN"
    assert fastscore.waits(hand, seat="S", events="great_chicken", rules=PROFILE) == {
        "3m": {"discard": 31, "self_draw": 31}}


def test_the_profile_is_listed_and_printed():
    table = load_rules(PROFILE)
    assert table.name == PROFILE and table.double and "mahjong_base" in table.row_ids
    assert "single_wait" not in table.row_ids and "true_solo" in table.row_ids
    data = table.to_dict()
    assert data["totals"]["double_interpretation"] is True and "flower_set" in data["totals"]["counted_once"]
    assert np.all(table.minimum == 0) and not table.chicken_rule
