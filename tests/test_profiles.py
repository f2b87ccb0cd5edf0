"""Rule profiles: packaged tables known by name, rows in force, the taiwan profile's rows and totals
(docs/profiles/taiwan.md; the LRC table is tests/test_rules.py's)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import RuleTableError, load_rules, score, score_batch, waits
from fastscore.cli import app
from fastscore.profiles import PROFILES
from fastscore.survey.report import markdown
from fastscore.rules import ROW_IDS, default_rules

TAIWAN = dict(rules="taiwan")


APP_PROFILES = ["taiwan", "taiwan-masters", "taiwan-mj888", "taiwan-zhaishenye", "taiwan-star31", "taiwan-zhonghua"]


def test_the_profiles_are_known_by_name_and_lrc_is_the_default():
    assert list(PROFILES) == ["lrc", *APP_PROFILES, "hk-taiwanese"]
    assert load_rules("lrc") is default_rules() is fastscore.rules.resolve_rules(None)
    lrc, taiwan = load_rules("lrc"), load_rules("taiwan")
    assert (lrc.name, taiwan.name) == ("lrc", "taiwan")
    # The LRC table keeps its 45 rows, in their order, as the first rows of the catalog.
    assert lrc.row_ids == ROW_IDS[:45] and lrc.in_force.sum() == 45
    assert not taiwan.chicken_rule and taiwan.minimum.tolist() == [0, 0, 0, 0]
    assert {"three_concealed_pongs", "ping_hu", "dealer_streak", "round_wind_pong"} <= set(taiwan.row_ids)
    assert "mahjong_base" not in taiwan.row_ids and "east_wins" not in taiwan.row_ids


def test_an_unknown_profile_is_named():
    known = ("lrc, taiwan, taiwan-masters, taiwan-mj888, taiwan-zhaishenye, taiwan-star31, taiwan-zhonghua, "
             "hk-taiwanese")
    with pytest.raises(RuleTableError, match=rf"unknown profile 'taiwn' \(known: {known}\)"):
        fastscore.rules.profile("taiwn")


def test_a_bare_name_that_is_no_profile_and_no_file_is_named_as_a_profile(tmp_path, monkeypatch):
    # rules="taiwn" is a misspelt profile more likely than a file: the message lists the profiles, from
    # load_rules and from score's rules= (the command line's --rules takes a FILE, --profile a checked choice).
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuleTableError, match=r"unknown profile 'taiwn' \(known: lrc, taiwan, .*\), and no file of"):
        load_rules("taiwn")
    with pytest.raises(ValueError, match=r"unknown profile 'taiwn' \(known: lrc, "):
        fastscore.score("11m99m77p11s9s EE RR 333p", "9s", rules="taiwn")
    packaged = resources.files("fastscore").joinpath("rules.toml")
    (tmp_path / "taiwn").write_bytes(packaged.read_bytes())  # a file of that name is still read as a table
    assert load_rules("taiwn").row_ids == load_rules(None).row_ids


def test_the_lrc_profile_scores_as_the_default_table():
    hands = fastscore.sample_winning(3_000, seed=21)
    a, b = score_batch(hands), score_batch(hands, rules="lrc")
    for name in ("payout", "total", "points", "legal", "is_win", "chicken", "shape", "row_points", "error"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.row_ids == b.row_ids == default_rules().row_ids


# ---------------------------------------------------------------------------------------------- taiwan rows

def test_ping_hu_two_sided_discard():
    # 123m 456m 789p 234s 55s + 67p waiting on 5p or 8p, won on 5p from a discard, South seat, no flowers:
    # ping_hu 2 + concealed_hand (menqing) 1 = 3 tai; no minimum, payout 0 + 1 x 3.
    s = score("123m456m789p234s55s67p", "5p", seat="S", **TAIWAN)
    assert s.rows == {"ping_hu": 2, "concealed_hand": 1}
    assert (s.points, s.total, s.legal, s.chicken, s.payout) == (3, 3, True, False, 3)


def test_ping_hu_needs_a_two_sided_wait():
    # 12p waits on 3p only (an edge wait): no ping_hu; single_wait 1 + concealed_hand 1 = 2.
    s = score("123m456m789p234s55s12p", "3p", seat="S", **TAIWAN)
    assert s.rows == {"single_wait": 1, "concealed_hand": 1}
    assert s.total == 2


def test_a_pong_completed_by_a_discard_is_not_concealed():
    # 111m 222p 333s 789s 55m 99p, waits 5m and 9p.  On a discard of 9p the 999p pong is exposed:
    # three concealed pongs (111m 222p 333s) 2 + concealed_hand 1 = 3.
    hand = "111m222p333s789s55m99p"
    s = score(hand, "9p", seat="S", **TAIWAN)
    assert s.rows == {"three_concealed_pongs": 2, "concealed_hand": 1} and s.total == 3
    # Self-drawn, all four pongs are concealed: four_concealed_pongs 5 + concealed_self_draw 3 = 8.
    s = score(hand, "9p", self_drawn=True, seat="S", **TAIWAN)
    assert s.rows == {"four_concealed_pongs": 5, "concealed_self_draw": 3} and s.total == 8
    # Waits analysis scores both wins of each wait from one pass: the same 3 and 8 for 9p.
    assert waits(hand, seat="S", **TAIWAN)["9p"] == {"discard": 3, "self_draw": 8}


def test_a_winning_tile_that_can_complete_a_sheung_keeps_the_pong_concealed():
    # 11123m 222p 333s 999s 55p won on 1m from a discard: 111m + 123m, and the 1m taken is read as the one
    # that completes 123m, so the four pongs 111m 222p 333s 999s are concealed: four_concealed_pongs 5 +
    # concealed_hand 1 = 6 (mahjong16 counts three here: docs/profiles/taiwan.md).
    s = score("11123m222p333s999s55p", "1m", seat="S", **TAIWAN)
    assert s.rows == {"four_concealed_pongs": 5, "concealed_hand": 1} and s.total == 6


def test_dealer_scores_two_n_plus_one():
    # The ping_hu hand won by the dealer (East seat) on a streak of 2: dealer 1 + dealer_streak 2 x 2 +
    # ping_hu 2 + concealed_hand 1 = 8.
    s = score("123m456m789p234s55s67p", "5p", seat="E", streak=2, **TAIWAN)
    assert s.rows == {"dealer": 1, "dealer_streak": 4, "ping_hu": 2, "concealed_hand": 1} and s.total == 8


def test_wind_and_dragon_pongs():
    # East seat in the East round with an exposed [EEE]: round_wind_pong 1 + seat_wind_pong 1, dealer 1;
    # RRR and GGG pongs with WhWh eyes: little_three_dragons 4 (replaces dragon_pong 2 x 1); 123m 45p won on 6p.
    s = score("RRR GGG 123m 45p WhWh [EEE]", "6p", seat="E", **TAIWAN)
    assert s.rows == {"dealer": 1, "round_wind_pong": 1, "seat_wind_pong": 1, "little_three_dragons": 4}
    assert s.total == 7  # 1 + 1 + 1 + 4; not concealed (an exposed set), won on a discard
    # South seat, East round: only the round wind's pong scores; 1 + 4 = 5.
    s = score("RRR GGG 123m 45p WhWh [EEE]", "6p", seat="S", **TAIWAN)
    assert s.rows == {"round_wind_pong": 1, "little_three_dragons": 4} and s.total == 5


def test_flowers():
    # The ping_hu-less edge-wait hand with flowers 1f 5f 6f 7f 8f, South seat: seat_flower for 6f (South's
    # season) 1 + flower_set for 5f-8f 2 + single_wait 1 + concealed_hand 1 = 5.
    s = score("123m456m789p234s55s12p", "3p", seat="S", flowers="1f5f6f7f8f", **TAIWAN)
    assert s.rows == {"seat_flower": 1, "flower_set": 2, "single_wait": 1, "concealed_hand": 1} and s.total == 5
    # All eight: seat_flower 2 (2f, 6f) + flower_set 2 x 2 + eight_flowers 8 + single_wait 1 + concealed_hand 1 = 16.
    s = score("123m456m789p234s55s12p", "3p", seat="S", flowers="1f2f3f4f5f6f7f8f", **TAIWAN)
    assert s.rows == {"seat_flower": 2, "flower_set": 4, "eight_flowers": 8, "single_wait": 1, "concealed_hand": 1}
    assert s.total == 16


def test_all_exposed():
    # Five exposed sets and a single 5s, won on a discard of 5s: all_exposed 1 + single_wait 1 = 2.
    hand = "5s [123m] [456m] [789p] [234s] [777s]"
    assert score(hand, "5s", seat="S", **TAIWAN).rows == {"all_exposed": 1, "single_wait": 1}
    # Self-drawn: no all_exposed; self_draw 1 + single_wait 1 = 2.
    assert score(hand, "5s", self_drawn=True, seat="S", **TAIWAN).rows == {"self_draw": 1, "single_wait": 1}


def test_payout_base_and_unit_from_a_user_profile(tmp_path):
    text = (Path(fastscore.__file__).parent / "profiles" / "taiwan.toml").read_text()
    path = tmp_path / "club.toml"
    path.write_text(text.replace("base = 0\nunit = 1", "base = 50\nunit = 20"))
    table = load_rules(path)
    assert table.name == "taiwan" and (table.pay_base, table.pay_unit) == (50, 20)  # [profile] name, not the file's
    # The ping_hu hand: 3 tai -> 50 + 20 x 3 = 110.
    s = score("123m456m789p234s55s67p", "5p", seat="S", rules=path)
    assert (s.total, s.payout) == (3, 110)


@pytest.mark.parametrize("change, message", [
    (("chicken = false", "chicken = \"no\""), "[totals] chicken must be true or false"),
    (("unit = 1", "unit = 1.5"), "[payout] unit: points must be an integer"),
    (("[profile]", "profile = 3\n[x]"), "[profile] must be a table"),
])
def test_profile_options_are_checked(tmp_path, change, message):
    text = (Path(fastscore.__file__).parent / "profiles" / "taiwan.toml").read_text()
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(*change, 1))
    with pytest.raises(RuleTableError) as info:
        load_rules(path)
    assert message in str(info.value)


def test_batch_columns_are_the_profiles_rows():
    hands = fastscore.sample_winning(2_000, seed=4)
    result = score_batch(hands, rules="taiwan")
    taiwan = load_rules("taiwan")
    assert result.row_ids == taiwan.row_ids and result.row_points.shape == (2_000, len(taiwan.row_ids))
    # Every row agrees with the one-hand call and sums to the total (no base, no minimum, no Chicken).
    assert np.array_equal(result.row_points.sum(axis=1, dtype=np.int64)[result.is_win], result.total[result.is_win])
    assert not result.chicken.any() and result.legal[result.is_win].all()
    table = result.to_arrow()
    assert [n for n in table.column_names if n.startswith("row_")] == [f"row_{r}" for r in taiwan.row_ids]


# ---------------------------------------------------------------------------------------------- app tables

# The tai tables of mahjong16 (repository yuweiiihuang/mahjong16), one flat {key: tai} JSON file each; values in
# the order of SOURCE_PROFILES:
#   taiwan_base       configs/profiles/taiwan_base.json @ 3cc450d3095ca6f14909992817ec51b5913649d8
#   mahjong_masters   configs/profiles/mahjong_masters.json @ 489fd9c383cfe3b587a3001c45bb8bd5971bba9a
#   mj888             configs/profiles/mj888.json @ 3cc450d3095ca6f14909992817ec51b5913649d8
#   zhaishenye        configs/profiles/zhaishenye.json @ 489fd9c383cfe3b587a3001c45bb8bd5971bba9a
#   gametower_star31  configs/scoring/profiles/gametower_star31.json @ 5a4d65df1e2bafff8c8efe287ee4baf707ec91e5
#   zhonghua          configs/scoring/profiles/zhonghua.json @ dd5635165b25b65a27fdecb583713ca118646b9f
SOURCE_PROFILES = {"taiwan": "taiwan_base", "taiwan-masters": "mahjong_masters", "taiwan-mj888": "mj888",
                   "taiwan-zhaishenye": "zhaishenye", "taiwan-star31": "gametower_star31",
                   "taiwan-zhonghua": "zhonghua"}
MAHJONG16_TABLES = {
    "dealer": (1, 1, 1, 1, 1, 1),
    "quan_feng_ke": (1, 1, 1, 0, 1, 1),
    "men_feng_ke": (1, 1, 1, 0, 1, 1),
    "zheng_hua": (1, 1, 1, 0, 1, 1),
    "hua_gang": (2, 1, 1, 2, 2, 2),
    "zimo": (1, 1, 1, 2, 1, 1),
    "menqing": (1, 1, 1, 2, 1, 1),
    "menqing_zimo": (3, 3, 3, 5, 3, 3),
    "ping_hu": (2, 2, 2, 3, 2, 2),
    "dragon_pung": (1, 1, 1, 2, 1, 1),
    "san_an_ke": (2, 2, 2, 3, 2, 2),
    "si_an_ke": (5, 5, 5, 7, 5, 5),
    "wu_an_ke": (8, 8, 8, 12, 8, 8),
    "peng_peng_hu": (4, 4, 4, 6, 4, 4),
    "hun_yi_se": (4, 4, 4, 6, 4, 4),
    "qing_yi_se": (8, 8, 8, 12, 8, 8),
    "zi_yi_se": (0, 16, 8, 16, 0, 8),
    "xiao_san_yuan": (4, 4, 4, 6, 4, 4),
    "da_san_yuan": (8, 8, 8, 12, 8, 8),
    "xiao_si_xi": (8, 8, 8, 12, 8, 8),
    "da_si_xi": (16, 16, 16, 24, 16, 16),
    "du_ting": (1, 1, 1, 2, 1, 1),
    "ting": (0, 0, 0, 2, 1, 0),
    "quan_qiu_ren": (1, 1, 1, 3, 1, 2),
    "he_di": (1, 1, 1, 2, 0, 1),
    "hai_di": (1, 2, 1, 2, 1, 1),
    "qiang_gang": (1, 1, 1, 2, 1, 1),
    "gang_shang": (2, 2, 2, 4, 2, 2),
    "qi_qiang_yi": (8, 0, 0, 16, 0, 0),
    "ba_xian": (8, 8, 8, 16, 8, 8),
    "di_ting": (8, 4, 8, 0, 4, 4),
    "tian_ting": (16, 8, 0, 8, 8, 8),
    "ren_hu": (0, 16, 0, 16, 0, 16),
    "di_hu": (16, 16, 16, 24, 16, 16),
    "tian_hu": (32, 16, 24, 36, 24, 16),
}
# mahjong16 key -> our row (docs/profiles/taiwan.md, "Rows").  `dealer` is 2n + 1 in every table, whatever its
# value: `dealer` 1 and `dealer_streak` 2 a streak.  `ting` is the `closing` row; `qi_qiang_yi` is
# not in the catalog (None).
ROW_OF_KEY = {
    "zimo": "self_draw", "menqing": "concealed_hand", "menqing_zimo": "concealed_self_draw", "du_ting": "single_wait",
    "quan_qiu_ren": "all_exposed", "ping_hu": "ping_hu", "dealer": "dealer", "zheng_hua": "seat_flower",
    "hua_gang": "flower_set", "ba_xian": "eight_flowers", "quan_feng_ke": "round_wind_pong",
    "men_feng_ke": "seat_wind_pong", "dragon_pung": "dragon_pong", "xiao_san_yuan": "little_three_dragons",
    "da_san_yuan": "big_three_dragons", "xiao_si_xi": "little_four_winds", "da_si_xi": "big_four_winds",
    "peng_peng_hu": "all_pongs", "san_an_ke": "three_concealed_pongs", "si_an_ke": "four_concealed_pongs",
    "wu_an_ke": "five_concealed_pongs", "hun_yi_se": "semi_pure", "qing_yi_se": "pure", "zi_yi_se": "all_honours",
    "ting": "closing", "hai_di": "last_tile_draw", "he_di": "last_tile_discard", "gang_shang": "after_gong",
    "qiang_gang": "robbing_gong", "tian_hu": "heavenly_win", "di_hu": "earthly_win", "tian_ting": "heavenly_ready",
    "di_ting": "earthly_ready", "ren_hu": "human_win", "qi_qiang_yi": None,
}


@pytest.mark.parametrize("name", APP_PROFILES)
def test_each_app_profile_is_its_mahjong16_table(name):
    column = list(SOURCE_PROFILES.values()).index(SOURCE_PROFILES[name])
    # A key at 0 is not defined in mahjong16 (never in the breakdown): its row is left out, not in force.
    expected = {ROW_OF_KEY[key]: values[column] for key, values in MAHJONG16_TABLES.items()
                if ROW_OF_KEY[key] is not None and values[column] != 0}
    expected["dealer"], expected["dealer_streak"] = 1, 2
    table = load_rules(name)
    assert {rid: table.value(rid) for rid in table.row_ids} == expected
    assert table.name == name and SOURCE_PROFILES[name] in table.title
    assert not table.chicken_rule and table.minimum.tolist() == [0, 0, 0, 0]
    assert (table.pay_base, table.pay_unit) == (0, 1)
    # What replaces what is taiwan's, less the rows not in force.
    replaces = {r["id"]: r["replaces"] for r in table.to_dict()["rows"]}
    taiwan = {r["id"]: [t for t in r["replaces"] if t in table.row_ids] for r in load_rules("taiwan").to_dict()["rows"]}
    assert replaces == {rid: taiwan.get(rid, []) for rid in table.row_ids}


# An all-honours hand: RRR G concealed, [EEE] [SSS] [WWW] [NNN] exposed, won on a discard of G (the only wait),
# South seat.  The row-by-row sums, per profile:
ALL_HONOURS_ROWS = {
    # big_four_winds 16 (replaces the wind pongs) + dragon_pong 1 + all_pongs 4 + single_wait 1 = 22; all_honours
    # is 0 (not in force) in taiwan_base and gametower_star31.
    "taiwan": {"big_four_winds": 16, "dragon_pong": 1, "all_pongs": 4, "single_wait": 1},
    "taiwan-star31": {"big_four_winds": 16, "dragon_pong": 1, "all_pongs": 4, "single_wait": 1},
    # 16 + 1 + 4 + 1 + all_honours 16 = 38
    "taiwan-masters": {"big_four_winds": 16, "dragon_pong": 1, "all_pongs": 4, "single_wait": 1, "all_honours": 16},
    # 16 + 1 + 4 + 1 + all_honours 8 = 30
    "taiwan-mj888": {"big_four_winds": 16, "dragon_pong": 1, "all_pongs": 4, "single_wait": 1, "all_honours": 8},
    "taiwan-zhonghua": {"big_four_winds": 16, "dragon_pong": 1, "all_pongs": 4, "single_wait": 1, "all_honours": 8},
    # big_four_winds 24 + dragon_pong 2 + all_pongs 6 + single_wait 2 + all_honours 16 = 50
    "taiwan-zhaishenye": {"big_four_winds": 24, "dragon_pong": 2, "all_pongs": 6, "single_wait": 2,
                          "all_honours": 16},
}
ALL_HONOURS_TOTALS = {"taiwan": 22, "taiwan-star31": 22, "taiwan-masters": 38, "taiwan-mj888": 30,
                      "taiwan-zhonghua": 30, "taiwan-zhaishenye": 50}


@pytest.mark.parametrize("name", APP_PROFILES)
def test_all_honours_per_app_profile(name):
    s = score("RRR G [EEE] [SSS] [WWW] [NNN]", "G", seat="S", rules=name)
    assert s.rows == ALL_HONOURS_ROWS[name]
    assert (s.total, s.payout, s.legal) == (ALL_HONOURS_TOTALS[name], ALL_HONOURS_TOTALS[name], True)


@pytest.mark.parametrize("name", ["taiwan-masters", "taiwan-mj888"])
def test_a_flower_set_is_one_tai_in_masters_and_mj888(name):
    # The edge-wait hand with flowers 1f 5f 6f 7f 8f, South seat: seat_flower (6f) 1 + flower_set (5f-8f) 1 +
    # single_wait 1 + concealed_hand 1 = 4 (5 under taiwan: flower_set 2).
    s = score("123m456m789p234s55s12p", "3p", seat="S", flowers="1f5f6f7f8f", rules=name)
    assert s.rows == {"seat_flower": 1, "flower_set": 1, "single_wait": 1, "concealed_hand": 1} and s.total == 4


def test_zhaishenye_values():
    zhaishenye = dict(rules="taiwan-zhaishenye")
    # The ping_hu hand: ping_hu 3 + concealed_hand 2 = 5 (taiwan 2 + 1 = 3).
    s = score("123m456m789p234s55s67p", "5p", seat="S", **zhaishenye)
    assert s.rows == {"ping_hu": 3, "concealed_hand": 2} and s.total == 5
    # Self-drawn four concealed pongs (the pong test's hand): four_concealed_pongs 7 + concealed_self_draw 5 = 12
    # (taiwan 5 + 3 = 8).
    s = score("111m222p333s789s55m99p", "9p", self_drawn=True, seat="S", **zhaishenye)
    assert s.rows == {"four_concealed_pongs": 7, "concealed_self_draw": 5} and s.total == 12
    # No seat_flower: flowers 1f 5f 6f 7f 8f on the edge-wait hand, South seat: flower_set 2 + single_wait 2 +
    # concealed_hand 2 = 6 (taiwan: seat_flower 1 + 2 + 1 + 1 = 5).
    s = score("123m456m789p234s55s12p", "3p", seat="S", flowers="1f5f6f7f8f", **zhaishenye)
    assert s.rows == {"flower_set": 2, "single_wait": 2, "concealed_hand": 2} and s.total == 6
    # No wind pong rows: the dealer's exposed [EEE] in the East round scores nothing; dealer 1 +
    # little_three_dragons 6 = 7 (taiwan: dealer 1 + round_wind_pong 1 + seat_wind_pong 1 + 4 = 7).
    s = score("RRR GGG 123m 45p WhWh [EEE]", "6p", seat="E", **zhaishenye)
    assert s.rows == {"dealer": 1, "little_three_dragons": 6} and s.total == 7
    # The dealer is 2n + 1 here too: streak 2, dealer 1 + dealer_streak 4 + ping_hu 3 + concealed_hand 2 = 10.
    s = score("123m456m789p234s55s67p", "5p", seat="E", streak=2, **zhaishenye)
    assert s.rows == {"dealer": 1, "dealer_streak": 4, "ping_hu": 3, "concealed_hand": 2} and s.total == 10


def test_zhonghua_all_exposed_is_two_tai():
    # Five exposed sets and a single 5s, won on a discard of 5s: all_exposed 2 + single_wait 1 = 3 (taiwan 1 + 1).
    s = score("5s [123m] [456m] [789p] [234s] [777s]", "5s", seat="S", rules="taiwan-zhonghua")
    assert s.rows == {"all_exposed": 2, "single_wait": 1} and s.total == 3


def test_star31_differs_from_taiwan_only_in_timing_rows():
    # gametower_star31 differs from taiwan_base only in timing rows: ting (closing) 1, no he_di, tian_hu 24,
    # tian_ting 8, di_ting 4.  Hands without Closing and without events score the same under both.
    star31, taiwan = load_rules("taiwan-star31"), load_rules("taiwan")
    timing = {"closing", "last_tile_discard", "heavenly_win", "heavenly_ready", "earthly_ready"}
    assert set(star31.row_ids) ^ set(taiwan.row_ids) == {"closing", "last_tile_discard"}
    assert all(star31.value(r) == taiwan.value(r) for r in star31.row_ids if r not in timing)
    hands = fastscore.sample_winning(2_000, seed=31)
    hands.closing[:] = False
    a, b = score_batch(hands, rules="taiwan"), score_batch(hands, rules="taiwan-star31")
    for field in ("payout", "total", "is_win"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.total[a.is_win].sum() > 0
    # The dealer's heavenly win, ready declared with the first discard: concealed_self_draw 3
    # + four_concealed_pongs 5 + single_wait 1 + dealer 1 = 10, then heavenly_win 32 + heavenly_ready 16 = 58 under
    # taiwan, heavenly_win 24 + heavenly_ready 8 + closing 1 = 43 under star31.
    hand = dict(self_drawn=True, seat="E", closing=True, events="heavenly ready_first")
    assert score("111122223333m 444p E", "E", rules="taiwan", **hand).total == 58
    s = score("111122223333m 444p E", "E", rules="taiwan-star31", **hand)
    assert s.rows == {"concealed_self_draw": 3, "four_concealed_pongs": 5, "single_wait": 1, "dealer": 1,
                      "heavenly_win": 24, "heavenly_ready": 8, "closing": 1}
    assert s.total == 43


@pytest.mark.parametrize("name", APP_PROFILES[1:])
def test_app_profiles_score_the_same_units_as_taiwan(name):
    # The same predicates and replacements, other values: each row that both profiles have in force scores the
    # same units per hand (points / value), and the total is the sum of the rows (no base, minimum or Chicken).
    hands = fastscore.sample_winning(3_000, seed=7)
    ours, theirs = score_batch(hands, rules=name), score_batch(hands, rules="taiwan")
    table, taiwan = load_rules(name), load_rules("taiwan")
    assert ours.row_ids == table.row_ids
    assert np.array_equal(ours.row_points.sum(axis=1, dtype=np.int64), ours.total)
    assert ours.legal[ours.is_win].all() and not ours.chicken.any()
    shared = [rid for rid in table.row_ids if rid in taiwan.row_ids]
    for rid in shared:
        a = ours.row_points[:, ours.row_ids.index(rid)].astype(np.int64) * taiwan.value(rid)
        b = theirs.row_points[:, theirs.row_ids.index(rid)].astype(np.int64) * table.value(rid)
        assert np.array_equal(a, b), rid
    assert ours.row_points.any(axis=0).sum() >= 5  # the sample scores several rows


# ---------------------------------------------------------------------------------------------- command line

def test_cli_score_with_a_profile_prints_its_rows():
    run = CliRunner().invoke(app, ["score", "123m456m789p234s55s67p", "--win", "5p", "--seat", "S", "--profile",
                                   "taiwan", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["rows"] == {"ping_hu": 2, "concealed_hand": 1} and data["total"] == 3


def test_cli_profile_and_rules_together_are_refused(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text((Path(fastscore.__file__).parent / "rules.toml").read_text())
    run = CliRunner().invoke(app, ["score", "123m456m789p234s55s67p", "--win", "5p", "--profile", "taiwan",
                                   "--rules", str(path)])
    assert run.exit_code == 2 and "not both" in run.output


def test_cli_rules_prints_a_profile():
    run = CliRunner().invoke(app, ["rules", "--profile", "taiwan"])
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[0].startswith("rule table: profile taiwan")
    assert any(line.split()[:2] == ["three_concealed_pongs", "2"] for line in lines)
    assert "no Chicken rule" in run.output
    assert not any(line.split()[:1] == ["mahjong_base"] for line in lines)


def test_cli_batch_with_a_profile_writes_its_rows(tmp_path):
    source = tmp_path / "hands.jsonl"
    source.write_text(json.dumps({"hand": "123m456m789p234s55s67p", "win": "5p", "seat": "S"}) + "\n")
    out = tmp_path / "out.csv"
    run = CliRunner().invoke(app, ["batch", str(source), "-o", str(out), "--profile", "taiwan"])
    assert run.exit_code == 0, run.output
    header, row = out.read_text().splitlines()
    names = header.split(",")
    assert [n for n in names if n.startswith("row_")] == [f"row_{r}" for r in load_rules("taiwan").row_ids]
    values = dict(zip(names, row.split(",")))
    assert (values["total"], values["row_ping_hu"], values["row_concealed_hand"]) == ("3", "2", "1")


def test_a_row_left_out_of_a_table_is_not_in_force(tmp_path):
    import re

    text = (Path(fastscore.__file__).parent / "rules.toml").read_text()
    text, n = re.subn(r'\[\[row\]\]\nid = "good_eyes"\n.*?(?=\n\[\[row\]\]|\n#)', "", text, flags=re.S)
    assert n == 1
    path = tmp_path / "no_good_eyes.toml"
    path.write_text(text)
    table = load_rules(path)
    assert "good_eyes" not in table.row_ids and len(table.row_ids) == 44
    # 55s eyes: good_eyes 2 under the LRC table; without the row the same rows less it, 2 points less.
    full = score("123m456m789p234s55s67p", "5p", seat="S")
    less = score("123m456m789p234s55s67p", "5p", seat="S", rules=path)
    assert full.rows["good_eyes"] == 2
    assert less.rows == {k: v for k, v in full.rows.items() if k != "good_eyes"} and less.points == full.points - 2


@pytest.mark.parametrize("name", APP_PROFILES)
def test_the_profile_docs_explain_every_row(name):
    # Each row in force has its line in the doc's row table, with its points first: "| `pure` | 8 | ...".
    root = Path(__file__).resolve().parents[1]
    lines = (root / "docs" / "profiles" / f"{name}.md").read_text().splitlines()
    table = load_rules(name)
    for rid in table.row_ids:
        line = next((line for line in lines if line.startswith(f"| `{rid}` |")), None)
        assert line is not None, rid
        assert int(line.split("|")[2].split()[0]) == table.value(rid), (rid, line)


# mahjong16's own scoring tests that state a legal hand (docs/profiles/taiwan.md, "Checked against mahjong16's
# own tests"): repository yuweiiihuang/mahjong16, tests/test_scoring.py @ 097843b1 (S*) and
# tests/scoring/test_engine_regression.py @ 022e0379 (R2).  Their winner is not the dealer: seat S here.
# (case, hand, win, self-drawn, the rows their test asserts as {our row: tai} with None for "absent",
#  our rows in full with the row-by-row sum)
MAHJONG16_CASES = [
    ("S1", "111122223333m 444p E", "E", True, {"concealed_self_draw": 3, "concealed_hand": None, "self_draw": None},
     {"concealed_self_draw": 3, "four_concealed_pongs": 5, "single_wait": 1}),  # 3 + 5 + 1 = 9
    ("S2", "12456m 234567p 99s [111m]", "3m", True, {"self_draw": 1, "concealed_hand": None},
     {"self_draw": 1, "single_wait": 1}),  # 1 + 1 = 2
    ("S6", "33355m 22233p [111m] [444m]", "3p", False, {"all_pongs": 4},
     {"all_pongs": 4}),  # 333p completed by the discard: two concealed pongs, no row; 4
    ("S15", "111122223333m 444p E", "E", False, {"single_wait": 1},
     {"concealed_hand": 1, "single_wait": 1, "four_concealed_pongs": 5}),  # 1 + 1 + 5 = 7
    ("S17", "2223334445566m [111m]", "6m", False, {},
     {"pure": 8, "all_pongs": 4, "three_concealed_pongs": 2}),  # 8 + 4 + 2 = 14
    ("R2", "1112229m 333444p 555s", "9m", True, {"all_pongs": 4, "ping_hu": None},
     {"concealed_self_draw": 3, "single_wait": 1, "all_pongs": 4, "five_concealed_pongs": 8}),  # 3+1+4+8 = 16
]


@pytest.mark.parametrize("case, hand, win, self_drawn, asserted, ours", MAHJONG16_CASES, ids=[c[0] for c in MAHJONG16_CASES])
def test_mahjong16_cases(case, hand, win, self_drawn, asserted, ours):
    s = score(hand, win, self_drawn=self_drawn, seat="S", **TAIWAN)
    for rid, tai in asserted.items():
        assert s.rows.get(rid) == tai, (case, rid)
    assert s.rows == ours and s.total == sum(ours.values())


def test_survey_compares_profiles():
    result = fastscore.survey(sample=3_000, seed=3, compare="taiwan", progress=False)
    taiwan, lrc = load_rules("taiwan"), default_rules()
    compared = {rid for rid, _ in result.top_rows(len(ROW_IDS), table="compare")}
    assert compared <= set(taiwan.row_ids) and {rid for rid, _ in result.top_rows(len(ROW_IDS))} <= set(lrc.row_ids)
    assert {"concealed_hand", "three_concealed_pongs", "ping_hu"} <= compared
    # No Chicken and no minimum under taiwan: every win is legal.
    assert result.chicken_fraction(table="compare") == 0 and result.illegal_fraction(table="compare") == 0
    assert result.chicken_fraction() > 0
    # The report's comparison names every setting that differs, and only those.
    text = markdown(result, plots=False).split("## Comparison")[1]
    assert "| round minimum (E S W N) | 20 22 24 26 | 0 0 0 0 | |" in text
    assert "| Chicken rule | on | off | |" in text
    assert "| shapes that win | standard, nico_nico, thirteen_orphans, sixteen_orphans | standard | |" in text
    assert f"| rows in force | 45 | {len(taiwan.row_ids)} | |" in text
    assert "payout of a legal win" not in text  # 0 + 1 x points under both


def test_a_writer_refuses_a_chunk_of_another_tables_rows(tmp_path):
    from fastscore.io import open_writer

    result = score_batch(fastscore.sample_winning(10, seed=1), rules="taiwan")
    with pytest.raises(ValueError, match="rows in force are not the writer's"):
        with open_writer(tmp_path / "out.csv") as out:  # opened for the default table's rows
            out.write(result, 0)
    with open_writer(tmp_path / "out.csv", row_ids=result.row_ids) as out:
        out.write(result, 0)
    header = (tmp_path / "out.csv").read_text().splitlines()[0].split(",")
    assert [n for n in header if n.startswith("row_")] == [f"row_{r}" for r in result.row_ids]


def test_keep_takes_a_column_named_like_another_tables_row():
    from fastscore.io import check_keep

    assert check_keep("dealer,game_id") == ("dealer", "game_id")  # dealer: a taiwan row, a common log column
    with pytest.raises(ValueError, match="writes the column 'nico_nico' itself"):
        check_keep("nico_nico")  # a bare LRC row id: a column of files of earlier versions


def test_score_hand_refuses_a_short_row_points_array():
    from fastscore import nb

    rules, (_, suit_entries, dec_words) = nb.rule_array("taiwan"), nb.tables()
    batch = fastscore.sample_winning(1, seed=2)
    args = (batch.concealed[0], batch.declared[0], int(batch.win[0]), False, 0, 0, 0, 0, False, rules, suit_entries,
            dec_words)
    with pytest.raises(ValueError, match="row_points is shorter"):
        nb.score_hand(*args, np.zeros(len(load_rules("taiwan").row_ids) - 1, dtype=np.int16), nb.make_scratch())
    row_points = np.zeros(len(load_rules("taiwan").row_ids), dtype=np.int16)
    assert nb.score_hand(*args, row_points, nb.make_scratch())[0] == 0
