"""Worked cases: hands scored by hand from RULES.md, row by row.

Every case states its row-by-row sum in a comment and the RULES.md section it
exercises.  ``points`` is the sum of the rows other than ``mahjong_base``,
``east_wins`` and ``streak_bonus`` (section 6.1); ``total`` is ``points + 5``,
or the round minimum for a Chicken (exactly 1 point: East 20, South 22,
West 24, North 26); ``payout`` is ``total`` plus the dealer rows for a legal
win, else 0.

Hand notation (section 8): the hand string holds the 16 tiles before the win;
concealed tiles + winning tile + 3 x declared sets = 17.  Unless a comment says
otherwise: no flowers, discard win, no Closing, streak 0.

"Waits" in a comment lists every tile kind that completes the 16 tiles (section
4.1 ``single_wait``: exactly one kind, kinds already held four times excluded).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fastscore import score

RULES_TOML = Path(__file__).resolve().parents[1] / "fastscore" / "rules.toml"

SCORE_KEYS = {"is_win", "shape", "rows", "points", "chicken", "total", "legal", "payout"}


def ctx(**kwargs):
    """Keyword arguments of ``score`` (defaults: discard, seat E, round E, no flowers)."""
    return kwargs


# fmt: off
# (hand, win, context, shape, points, total, payout, rows)
CASES = [
    # ------------------------------------------------------------------------------------
    # 5.1 Nico Nico
    # ------------------------------------------------------------------------------------
    # 5.1 seed example (South, self-drawn, no flowers, five suits, win 9s not 2/5/8, pong 333p
    # not an honour): nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 = 52; total 57.
    # The 16 tiles wait on 9s only, but Nico Nico never takes single_wait (5.1).
    pytest.param("11m99m77p11s9s EE RR 333p", "9s", ctx(self_drawn=True, seat="S", round="E"),
                 "nico_nico", 52, 57, 57,
                 {"nico_nico": 40, "no_flowers": 1, "self_draw": 1, "all_five_suits": 10, "mahjong_base": 5},
                 id="nico-nico-seed"),
    # 4.6 one four-of-a-kind as two pairs (1111m): nico_nico 40 + nico_quad_pairs 10 + no_flowers 1
    # = 51; total 56 (no dragon: not five suits; win 3p: no good_eyes).
    pytest.param("1111m 3p 66p 99s EE NN 777s", "3p", ctx(seat="W", round="S"),
                 "nico_nico", 51, 56, 56,
                 {"nico_nico": 40, "nico_quad_pairs": 10, "no_flowers": 1, "mahjong_base": 5},
                 id="nico-one-quad-pair"),
    # 4.6 two quads (1111m 5555p) + 5.1 good_eyes from the winning tile 2s: nico_nico 40 +
    # nico_quad_pairs 25 + no_flowers 1 + good_eyes 2 = 68; total 73 (no wind: not five suits).
    pytest.param("1111m 5555p 2s 88s GG 333s", "2s", ctx(seat="N", round="N"),
                 "nico_nico", 68, 73, 73,
                 {"nico_nico": 40, "nico_quad_pairs": 25, "no_flowers": 1, "good_eyes": 2, "mahjong_base": 5},
                 id="nico-two-quad-pairs-good-eyes"),
    # 4.6 three quads [default 45] + 9.19 dragon pong RRR: nico_nico 40 + nico_quad_pairs 45 +
    # self_draw 1 + no_flowers 1 + all_five_suits 10 + dragon_pong 2 = 99; total 104.
    pytest.param("1111m 9999p 5555s E RRR", "E", ctx(self_drawn=True, seat="S", round="E"),
                 "nico_nico", 99, 104, 104,
                 {"nico_nico": 40, "nico_quad_pairs": 45, "self_draw": 1, "no_flowers": 1,
                  "all_five_suits": 10, "dragon_pong": 2, "mahjong_base": 5},
                 id="nico-three-quad-pairs"),
    # 9.19 Nico Nico pong of East by East in the East round: wind_pong 1 + seat 1 + round 1 = 3.
    # 5.1 holding 22p and 88p is not good_eyes (win Wh).  nico_nico 40 + no_flowers 1 +
    # all_five_suits 10 + wind_pong 3 = 54; total 59; + east_wins 5 + streak_bonus 5 = 69.
    pytest.param("11m44m22p88p33s77s Wh EEE", "Wh", ctx(seat="E", round="E", streak=1),
                 "nico_nico", 54, 59, 69,
                 {"nico_nico": 40, "no_flowers": 1, "all_five_suits": 10, "wind_pong": 3,
                  "mahjong_base": 5, "east_wins": 5, "streak_bonus": 5},
                 id="nico-east-pong-dealer-streak"),
    # 9.5 a Nico Nico of bamboo with a green pair is Jade; 5.1 pairs 22s 55s 88s held but the
    # winning tile 9s is not 2/5/8; 5f is East's season (seat S): no seat_flower, no no_flowers.
    # nico_nico 40 + semi_pure 30 + jade 20 = 90; total 95.
    pytest.param("112233s 55s 88s 9s 777s GG", "9s", ctx(seat="S", round="W", flowers="5f"),
                 "nico_nico", 90, 95, 95,
                 {"nico_nico": 40, "semi_pure": 30, "jade": 20, "mahjong_base": 5},
                 id="nico-jade-no-good-eyes"),
    # 9.4 the winning tile 5p completes the pong 555p: good_eyes still counts.
    # nico_nico 40 + self_draw 1 + no_flowers 1 + good_eyes 2 = 44; total 49.
    pytest.param("11m99m 44p55p 33s77s SS NN", "5p", ctx(self_drawn=True, seat="N", round="S"),
                 "nico_nico", 44, 49, 49,
                 {"nico_nico": 40, "self_draw": 1, "no_flowers": 1, "good_eyes": 2, "mahjong_base": 5},
                 id="nico-good-eyes-win-completes-pong"),
    # 9.14 Closing is valid with Nico Nico, which never scores it (5.1): same 44; total 49.
    pytest.param("11m99m 44p55p 33s77s SS NN", "5p", ctx(self_drawn=True, seat="N", round="S", closing=True),
                 "nico_nico", 44, 49, 49,
                 {"nico_nico": 40, "self_draw": 1, "no_flowers": 1, "good_eyes": 2, "mahjong_base": 5},
                 id="nico-closing-not-scored"),
    # 4.3 all_honours in Nico Nico (EEEE as two pairs, pong RRR): nico_nico 40 + nico_quad_pairs 10 +
    # self_draw 1 + no_flowers 1 + all_honours 140 + dragon_pong 2 = 194; total 199 (9.6: not semi_pure).
    pytest.param("EEEE SS WW NN WhWh G RRR", "G", ctx(self_drawn=True, seat="W", round="N"),
                 "nico_nico", 194, 199, 199,
                 {"nico_nico": 40, "nico_quad_pairs": 10, "self_draw": 1, "no_flowers": 1,
                  "all_honours": 140, "dragon_pong": 2, "mahjong_base": 5},
                 id="nico-all-honours"),

    # ------------------------------------------------------------------------------------
    # 5.2 / 9.11 13 Orphans
    # ------------------------------------------------------------------------------------
    # 9.11 eyes 9p, extra set RRR (four red in all); 4f is North's flower (seat N).
    # thirteen_orphans 80 + concealed_hand 5 + seat_flower 1 + all_five_suits 10 + dragon_pong 2
    # = 98; total 103.  Waits only 1m, but Orphans never take single_wait.
    pytest.param("9m 199p 19s ESWN WhG RRRR", "1m", ctx(seat="N", round="W", flowers="4f"),
                 "thirteen_orphans", 98, 103, 103,
                 {"thirteen_orphans": 80, "concealed_hand": 5, "seat_flower": 1, "all_five_suits": 10,
                  "dragon_pong": 2, "mahjong_base": 5},
                 id="thirteen-orphans-dragon-pong-extra"),
    # 9.11 / 9.19 eyes 1s, extra set EEE (four East) by East in the East round, self-drawn, Closing:
    # thirteen_orphans 80 + concealed_self_draw 10 + closing 5 + no_flowers 1 + all_five_suits 10 +
    # wind_pong 3 = 109; total 114; + east_wins 5 = 119.
    pytest.param("1m 19p 119s EEEE SWN WhGR", "9m", ctx(self_drawn=True, seat="E", round="E", closing=True),
                 "thirteen_orphans", 109, 114, 119,
                 {"thirteen_orphans": 80, "concealed_self_draw": 10, "closing": 5, "no_flowers": 1,
                  "all_five_suits": 10, "wind_pong": 3, "mahjong_base": 5, "east_wins": 5},
                 id="thirteen-orphans-east-pong-closing"),
    # 9.11 extra set a sheung reusing an orphan (789m), eyes 1p; 2f and 6f are South's.
    # thirteen_orphans 80 + concealed_hand 5 + seat_flower 2 + all_five_suits 10 = 97; total 102.
    pytest.param("1799m 119p 19s ESWN WhGR", "8m", ctx(seat="S", round="S", flowers="2f6f"),
                 "thirteen_orphans", 97, 102, 102,
                 {"thirteen_orphans": 80, "concealed_hand": 5, "seat_flower": 2, "all_five_suits": 10,
                  "mahjong_base": 5},
                 id="thirteen-orphans-sheung-extra"),

    # ------------------------------------------------------------------------------------
    # 5.2 / 9.2 16 Orphans
    # ------------------------------------------------------------------------------------
    # 4.5 sister 258m 258p 258s, eyes 5s (good_eyes, 9.18): sixteen_orphans 50 + concealed_hand 5 +
    # no_flowers 1 + all_five_suits 10 + sister_sheungs 10 + good_eyes 2 = 78; total 83.
    pytest.param("258m 258p 255s ESWN WhGR", "8s", ctx(seat="W", round="W"),
                 "sixteen_orphans", 78, 83, 83,
                 {"sixteen_orphans": 50, "concealed_hand": 5, "no_flowers": 1, "all_five_suits": 10,
                  "sister_sheungs": 10, "good_eyes": 2, "mahjong_base": 5},
                 id="sixteen-orphans-sister-good-eyes"),
    # 9.2 step-up 149m 258p 369s (lowest 1, 2, 3), eyes green, self-drawn, Closing; 4f and 8f are
    # North's.  sixteen_orphans 50 + concealed_self_draw 10 + closing 5 + seat_flower 2 +
    # all_five_suits 10 + step_up_mixed 5 = 82; total 87.
    pytest.param("19m 258p 369s ESWN WhGGR", "4m", ctx(self_drawn=True, seat="N", round="N",
                                                        flowers="4f 8f", closing=True),
                 "sixteen_orphans", 82, 87, 87,
                 {"sixteen_orphans": 50, "concealed_self_draw": 10, "closing": 5, "seat_flower": 2,
                  "all_five_suits": 10, "step_up_mixed": 5, "mahjong_base": 5},
                 id="sixteen-orphans-step-up-closing"),
    # 147m 369p 158s: no sister, no step-up (lowest 1, 3, 1); eyes 9p not good.  sixteen_orphans 50 +
    # concealed_hand 5 + no_flowers 1 + all_five_suits 10 = 66; total 71; + east 5 + streak 3 x 5 = 91.
    pytest.param("147m 3699p 58s ESWN WhGR", "1s", ctx(seat="E", round="S", streak=3),
                 "sixteen_orphans", 66, 71, 91,
                 {"sixteen_orphans": 50, "concealed_hand": 5, "no_flowers": 1, "all_five_suits": 10,
                  "mahjong_base": 5, "east_wins": 5, "streak_bonus": 15},
                 id="sixteen-orphans-plain-dealer-streak"),

    # ------------------------------------------------------------------------------------
    # 6 Chicken, legality, best interpretation
    # ------------------------------------------------------------------------------------
    # Base hand for the Chickens: [123m] [456p] 789p + 34567s (waits 2s 5s 8s) + NN eyes.  Exposed,
    # honours present, no dragon, no step-up, no Pure/Mixed Dragon (123m 456p 789p: two suits only).
    # 6.2 East round: no_flowers 1 = 1 -> Chicken, total 20.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(seat="S", round="E"),
                 "standard", 1, 20, 20,
                 {"no_flowers": 1, "mahjong_base": 5},
                 id="chicken-east-round"),
    # 6.2 South round: self_draw 1 (3f is West's flower) = 1 -> Chicken, total 22.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(self_drawn=True, seat="S", round="S", flowers="3f"),
                 "standard", 1, 22, 22,
                 {"self_draw": 1, "mahjong_base": 5},
                 id="chicken-south-round-self-draw"),
    # 6.2 West round: seat_flower 1 (2f, seat S) = 1 -> Chicken, total 24.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(seat="S", round="W", flowers="2f"),
                 "standard", 1, 24, 24,
                 {"seat_flower": 1, "mahjong_base": 5},
                 id="chicken-west-round-seat-flower"),
    # 6.2 North round, "wait bonuses included": 68s waits on 7s only -> single_wait 1 = 1;
    # Chicken, total 26.  (NN pair in the North round scores nothing, 4.4.)
    pytest.param("[123m] [456p] 789p 345s 68s NN", "7s", ctx(seat="S", round="N", flowers="3f"),
                 "standard", 1, 26, 26,
                 {"single_wait": 1, "mahjong_base": 5},
                 id="chicken-north-round-single-wait"),
    # 6.4 Chicken by East with streak 2: no_flowers 1 -> total 20, then east_wins 5 + streak 10 = 35.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(seat="E", round="E", streak=2),
                 "standard", 1, 20, 35,
                 {"no_flowers": 1, "mahjong_base": 5, "east_wins": 5, "streak_bonus": 10},
                 id="chicken-east-dealer-streak"),
    # 4.4 wind_pong of a wind that is neither seat (N) nor round (S): 1; 7f is West's season.
    # wind_pong 1 = 1 -> Chicken, total 22.
    pytest.param("[WWW] [456p] 789p 345s 67s 11m", "8s", ctx(seat="N", round="S", flowers="7f"),
                 "standard", 1, 22, 22,
                 {"wind_pong": 1, "mahjong_base": 5},
                 id="chicken-plain-wind-pong"),
    # 9.21 the Chicken above lost by self-draw: self_draw 1 + no_flowers 1 = 2; total 7 < 20: illegal.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 2, 7, 0,
                 {"self_draw": 1, "no_flowers": 1, "mahjong_base": 5},
                 id="chicken-lost-by-self-draw"),
    # 6.2 zero points is no Chicken: 0; total 5 < 20: illegal, rows still show the base.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(seat="S", round="E", flowers="3f"),
                 "standard", 0, 5, 0,
                 {"mahjong_base": 5},
                 id="zero-points-not-chicken"),
    # 9.12 illegal win by East with streak: rows still list east_wins and streak_bonus.
    # self_draw 1 + no_flowers 1 = 2; total 7 < 22: payout 0.
    pytest.param("[123m] [456p] 789p 345s 67s NN", "8s", ctx(self_drawn=True, seat="E", round="S", streak=1),
                 "standard", 2, 7, 0,
                 {"self_draw": 1, "no_flowers": 1, "mahjong_base": 5, "east_wins": 5, "streak_bonus": 5},
                 id="below-minimum-dealer-rows-listed"),
    # 6 best interpretation = highest payout, not highest points.  222333444m as 234m x 3:
    # single_wait 1 (N) + step_up_mixed 5 (234m 345p 456s) = 6 -> total 11, illegal, payout 0;
    # as 222m 333m 444m: single_wait 1 = 1 -> Chicken 20.  The Chicken pays more and is chosen.
    pytest.param("[345p] [456s] 222333444m N", "N", ctx(seat="S", round="E", flowers="3f"),
                 "standard", 1, 20, 20,
                 {"single_wait": 1, "mahjong_base": 5},
                 id="chicken-beats-more-points-illegal"),
    # 3 / 6 two decompositions: 111m 222m 333m pongs: all_pongs 30 + single_wait 1 + good_eyes 2 (55s)
    # + no_flower_no_honour 5 = 38 (total 43); 123m x 3 would make 8.  Best: 43.
    pytest.param("[777s] [999p] 111222333m 5s", "5s", ctx(seat="S", round="E"),
                 "standard", 38, 43, 43,
                 {"all_pongs": 30, "single_wait": 1, "good_eyes": 2, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="pongs-beat-sheungs"),
    # 3 / 6 two decompositions: 234m x 3 + 345p 456s: concealed_hand 5 + single_wait 1 (9s) +
    # all_sheung_nfnh 15 + step_up_mixed 5 = 26 (total 31); as 222m 333m 444m: 5 + 1 +
    # no_flower_no_honour 5 = 11.  Best: 31.
    pytest.param("222333444m 345p 456s 9s", "9s", ctx(seat="S", round="S"),
                 "standard", 26, 31, 31,
                 {"concealed_hand": 5, "single_wait": 1, "all_sheung_nfnh": 15, "step_up_mixed": 5, "mahjong_base": 5},
                 id="sheungs-beat-pongs"),
    # 3 / 6 Nico Nico against standard: as standard (123m 123m 789s 789s 444p + 55p) concealed_hand 5 +
    # no_flower_no_honour 5 + good_eyes 2 = 12 (waits 6s, 9s); as Nico Nico: nico_nico 40 +
    # no_flower_no_honour 5 (9.7, S false) = 45, total 50.  Best: Nico Nico.
    pytest.param("112233m 7788s 9s 55p 444p", "9s", ctx(seat="S", round="E"),
                 "nico_nico", 45, 50, 50,
                 {"nico_nico": 40, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="nico-beats-standard"),

    # ------------------------------------------------------------------------------------
    # 4.1 Win and concealment, 4.2 flowers
    # ------------------------------------------------------------------------------------
    # 4.1 concealed_self_draw replaces self_draw: concealed_self_draw 10 + no_flowers 1 +
    # dragon_pong 2 + good_eyes 2 (55s; waits 2s, 5s) = 15; total 20 = the minimum: legal.
    pytest.param("123m 456p 789p GGG 234s 5s", "5s", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 15, 20, 20,
                 {"concealed_self_draw": 10, "no_flowers": 1, "dragon_pong": 2, "good_eyes": 2, "mahjong_base": 5},
                 id="concealed-self-draw-exact-minimum"),
    # 4.1 the same on a discard: concealed_hand 5 + no_flowers 1 + dragon_pong 2 + good_eyes 2 = 10;
    # total 15 < 20: illegal.
    pytest.param("123m 456p 789p GGG 234s 5s", "5s", ctx(seat="S", round="E"),
                 "standard", 10, 15, 0,
                 {"concealed_hand": 5, "no_flowers": 1, "dragon_pong": 2, "good_eyes": 2, "mahjong_base": 5},
                 id="concealed-hand-below-minimum"),
    # 9.14 a concealed gong keeps the hand concealed and allows Closing; a gong is a pong (2).
    # concealed_hand 5 + closing 5 + no_flowers 1 + dragon_pong 2 + good_eyes 2 = 15; total 20.
    pytest.param("123m 456p 789p (GGGG) 234s 5s", "5s", ctx(seat="W", round="E", closing=True),
                 "standard", 15, 20, 20,
                 {"concealed_hand": 5, "closing": 5, "no_flowers": 1, "dragon_pong": 2, "good_eyes": 2,
                  "mahjong_base": 5},
                 id="closing-with-concealed-gong"),
    # 4.1 Closing, self-drawn on the other wait 2s (eyes 22s, 345s): concealed_self_draw 10 +
    # closing 5 + no_flowers 1 + dragon_pong 2 + good_eyes 2 = 20; total 25.
    pytest.param("123m 456p 789p GGG 234s 5s", "2s", ctx(self_drawn=True, seat="S", round="S", closing=True),
                 "standard", 20, 25, 25,
                 {"concealed_self_draw": 10, "closing": 5, "no_flowers": 1, "dragon_pong": 2, "good_eyes": 2,
                  "mahjong_base": 5},
                 id="closing-concealed-self-draw"),
    # 4.1 single_wait when the other kind is held four times: 45s waits on 3s and 6s, but all four
    # 3s are in [3333s]; 1f is East's.  single_wait 1 = 1 -> Chicken, West round 24.
    pytest.param("[3333s] 234m 456p 789p 45s NN", "6s", ctx(seat="S", round="W", flowers="1f"),
                 "standard", 1, 24, 24,
                 {"single_wait": 1, "mahjong_base": 5},
                 id="single-wait-other-kind-exhausted"),
    # 4.1 near miss: with [333s] the hand waits on 3s and 6s: no single_wait.  0; total 5: illegal.
    pytest.param("[333s] 234m 456p 789p 45s NN", "6s", ctx(seat="S", round="W", flowers="1f"),
                 "standard", 0, 5, 0,
                 {"mahjong_base": 5},
                 id="two-sided-wait-no-single-wait"),
    # 4.2 every flower and season (written "12345678f"), seat S holds 2f and 6f:
    # concealed_self_draw 10 + seat_flower 2 + flower_set 2 x 10 + dragon_pong 2 + good_eyes 2 = 36; total 41.
    pytest.param("123m 456p 789p GGG 234s 5s", "5s", ctx(self_drawn=True, seat="S", round="E", flowers="12345678f"),
                 "standard", 36, 41, 41,
                 {"concealed_self_draw": 10, "seat_flower": 2, "flower_set": 20, "dragon_pong": 2, "good_eyes": 2,
                  "mahjong_base": 5},
                 id="all-eight-flowers"),
    # 4.2 near miss: three flowers and a season are no flower_set; 2f is South's.
    # concealed_self_draw 10 + seat_flower 1 + dragon_pong 2 + good_eyes 2 = 15; total 20.
    pytest.param("123m 456p 789p GGG 234s 5s", "5s", ctx(self_drawn=True, seat="S", round="E", flowers="1f2f3f8f"),
                 "standard", 15, 20, 20,
                 {"concealed_self_draw": 10, "seat_flower": 1, "dragon_pong": 2, "good_eyes": 2, "mahjong_base": 5},
                 id="three-flowers-one-season-no-set"),

    # ------------------------------------------------------------------------------------
    # 4.3 / 9.7 suit composition
    # ------------------------------------------------------------------------------------
    # 9.7 no honours, a flower: no_honours 1 alone (all five sets sheungs but F false) -> Chicken 22.
    pytest.param("[123m] [456p] 789p 345s 67s 99m", "8s", ctx(seat="S", round="S", flowers="3f"),
                 "standard", 1, 22, 22,
                 {"no_honours": 1, "mahjong_base": 5},
                 id="no-honours-with-flower-chicken"),
    # 9.7 H and F, one pong (444p) so not S: no_flower_no_honour 5 replaces no_flowers and no_honours.
    # concealed_self_draw 10 + no_flower_no_honour 5 = 15; total 20.
    pytest.param("123m 444p 789p 345s 67s 99m", "8s", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 15, 20, 20,
                 {"concealed_self_draw": 10, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="no-flower-no-honour-one-pong"),
    # 9.7 H, F and S: all_sheung_nfnh 15 alone.  concealed_hand 5 + all_sheung_nfnh 15 = 20; total 25.
    pytest.param("123m 456p 789p 345s 67s 99m", "8s", ctx(seat="S", round="E"),
                 "standard", 20, 25, 25,
                 {"concealed_hand": 5, "all_sheung_nfnh": 15, "mahjong_base": 5},
                 id="all-sheung-nfnh-alone"),
    # 9.7 P: pure 90 replaces all_sheung_nfnh, no_flowers still adds; 4.5 pure_dragon (all three exposed).
    # 2345678s waits 2s 5s 8s.  pure 90 + no_flowers 1 + good_eyes 2 + pure_dragon 10 = 103; total 108.
    pytest.param("[123s] [456s] [789s] 2345678s", "5s", ctx(seat="W", round="N"),
                 "standard", 103, 108, 108,
                 {"pure": 90, "no_flowers": 1, "good_eyes": 2, "pure_dragon": 10, "mahjong_base": 5},
                 id="pure-no-flowers-adds"),
    # 9.7 P with a flower (1f, East's; seat W): pure 90 + good_eyes 2 + pure_dragon 10 = 102; total 107.
    pytest.param("[123s] [456s] [789s] 2345678s", "5s", ctx(seat="W", round="N", flowers="1f"),
                 "standard", 102, 107, 107,
                 {"pure": 90, "good_eyes": 2, "pure_dragon": 10, "mahjong_base": 5},
                 id="pure-with-flower"),
    # 4.3 near miss for pure: an East pair makes it semi_pure (single wait on E).
    # semi_pure 30 + no_flowers 1 + single_wait 1 + pure_dragon 10 = 42; total 47.
    pytest.param("[123s] [456s] [789s] 234s 678s E", "E", ctx(seat="W", round="N"),
                 "standard", 42, 47, 47,
                 {"semi_pure": 30, "no_flowers": 1, "single_wait": 1, "pure_dragon": 10, "mahjong_base": 5},
                 id="semi-pure-not-pure"),
    # 4.3 all_five_suits in the standard shape; 4.5 mixed_dragon_concealed (123m 456p 789s).
    # all_five_suits 10 + mixed_dragon_concealed 10 + wind_pong 1 (E; seat N, round S) + dragon_pong 2 +
    # single_wait 1 (2p) + good_eyes 2 + no_flowers 1 = 27; total 32.
    pytest.param("[EEE] [RRR] 123m 456p 789s 2p", "2p", ctx(seat="N", round="S"),
                 "standard", 27, 32, 32,
                 {"all_five_suits": 10, "mixed_dragon_concealed": 10, "wind_pong": 1, "dragon_pong": 2,
                  "single_wait": 1, "good_eyes": 2, "no_flowers": 1, "mahjong_base": 5},
                 id="all-five-suits-standard"),
    # 4.3 near miss for all_honours (a 9m pair), so all_pongs scores; semi_pure (one number suit).
    # all_pongs 30 + wind_pong 2 (E, S; seat W, round N) + big_three_dragons 40 + single_wait 1 +
    # no_flowers 1 + semi_pure 30 = 104; total 109.
    pytest.param("[111z] [SSS] [WhWhWh] 666z RRR 9m", "9m", ctx(seat="W", round="N"),
                 "standard", 104, 109, 109,
                 {"all_pongs": 30, "wind_pong": 2, "big_three_dragons": 40, "single_wait": 1, "no_flowers": 1,
                  "semi_pure": 30, "mahjong_base": 5},
                 id="honour-pongs-and-a-number-pair"),
    # 4.3 all_honours replaces all_pongs; stacks with little_three_winds (EEE SSS + NN) and
    # big_three_dragons.  all_honours 140 + little_three_winds 15 + big_three_dragons 40 +
    # single_wait 1 + no_flowers 1 = 197; total 202.
    pytest.param("[EEE] [SSS] [WhWhWh] GGG RRR N", "N", ctx(seat="W", round="N"),
                 "standard", 197, 202, 202,
                 {"all_honours": 140, "little_three_winds": 15, "big_three_dragons": 40, "single_wait": 1,
                  "no_flowers": 1, "mahjong_base": 5},
                 id="all-honours-replaces-all-pongs"),
    # 4.3 Jade (bamboo + green pong) with Pure Dragon Concealed (123s 456s 789s).  1234556789s + X
    # makes three sets and eyes only for X = 5s: single wait.  semi_pure 30 + jade 20 +
    # pure_dragon_concealed 20 + dragon_pong 2 + good_eyes 2 + no_flowers 1 + single_wait 1 = 76; total 81.
    pytest.param("[GGG] [234s] 123s 456s 789s 5s", "5s", ctx(seat="S", round="S"),
                 "standard", 76, 81, 81,
                 {"semi_pure": 30, "jade": 20, "pure_dragon_concealed": 20, "dragon_pong": 2, "good_eyes": 2,
                  "no_flowers": 1, "single_wait": 1, "mahjong_base": 5},
                 id="jade"),
    # 4.3 near miss for Jade: an East pair (no winds allowed).  semi_pure 30 + pure_dragon_concealed 20 +
    # dragon_pong 2 + single_wait 1 + no_flowers 1 = 54; total 59.
    pytest.param("[GGG] [234s] 123s 456s 789s E", "E", ctx(seat="S", round="S"),
                 "standard", 54, 59, 59,
                 {"semi_pure": 30, "pure_dragon_concealed": 20, "dragon_pong": 2, "single_wait": 1,
                  "no_flowers": 1, "mahjong_base": 5},
                 id="jade-near-miss-wind-pair"),
    # 4.3 Ruby (characters + red pong); 9.12 a streak for a non-East winner scores nothing.
    # Waits 1m 2m 4m 5m 7m 8m.  ruby 20 + semi_pure 30 + dragon_pong 2 + good_eyes 2 (55m) + no_flowers 1 = 55;
    # total 60.
    pytest.param("[RRR] [111m] 234m 678m 999m 5m", "5m", ctx(seat="W", round="W", streak=2),
                 "standard", 55, 60, 60,
                 {"ruby": 20, "semi_pure": 30, "dragon_pong": 2, "good_eyes": 2, "no_flowers": 1, "mahjong_base": 5},
                 id="ruby-streak-ignored-for-non-east"),
    # 4.3 / 9.5 Sapphire with white as the eyes (no dragon_pong for a pair, 4.4); single wait on Wh
    # (3m is held four times).  sapphire 20 + semi_pure 30 + self_draw 1 + single_wait 1 + no_flowers 1
    # + pure_dragon 10 ([123m] exposed) = 63; total 68; + east_wins 5 + streak_bonus 5 = 78.
    pytest.param("[1m2m3m] 456m 789m 333m 999m Wh", "Wh", ctx(self_drawn=True, seat="E", round="N", streak=1),
                 "standard", 63, 68, 78,
                 {"sapphire": 20, "semi_pure": 30, "self_draw": 1, "single_wait": 1, "no_flowers": 1,
                  "pure_dragon": 10, "mahjong_base": 5, "east_wins": 5, "streak_bonus": 5},
                 id="sapphire-white-eyes"),
    # 4.3 Diamond (dots + white pong); waits 2p 9p.  diamond 20 + semi_pure 30 +
    # dragon_pong 2 + good_eyes 2 (22p) + no_flowers 1 = 55; total 60.
    pytest.param("[WhWhWh] 111p 345p 678p 22p 99p", "9p", ctx(seat="S", round="E"),
                 "standard", 55, 60, 60,
                 {"diamond": 20, "semi_pure": 30, "dragon_pong": 2, "good_eyes": 2, "no_flowers": 1, "mahjong_base": 5},
                 id="diamond"),
    # 4.3 near miss for Diamond: dots with green.  semi_pure 30 + dragon_pong 2 + good_eyes 2 +
    # no_flowers 1 = 35; total 40.
    pytest.param("[GGG] 111p 345p 678p 22p 99p", "9p", ctx(seat="S", round="E"),
                 "standard", 35, 40, 40,
                 {"semi_pure": 30, "dragon_pong": 2, "good_eyes": 2, "no_flowers": 1, "mahjong_base": 5},
                 id="diamond-near-miss-green"),

    # ------------------------------------------------------------------------------------
    # 4.4 / 9.9 honours
    # ------------------------------------------------------------------------------------
    # 4.4 big_four_winds replaces every wind_pong point (would be 2+2+1+1 for seat E, round S).
    # big_four_winds 60 + single_wait 1 (5m) + no_flowers 1 + good_eyes 2 = 64; total 69;
    # + east_wins 5 + streak_bonus 10 = 84.
    pytest.param("[EEE] [SSS] [WWW] NNN 123p 5m", "5m", ctx(seat="E", round="S", streak=2),
                 "standard", 64, 69, 84,
                 {"big_four_winds": 60, "single_wait": 1, "no_flowers": 1, "good_eyes": 2,
                  "mahjong_base": 5, "east_wins": 5, "streak_bonus": 10},
                 id="big-four-winds-dealer"),
    # 4.4 little_four_winds (NN eyes), seat and round North: no wind_pong.  little_four_winds 50 +
    # single_wait 1 + no_flowers 1 + semi_pure 30 = 82; total 87.
    pytest.param("[EEE] [SSS] [WWW] 123p 789p N", "N", ctx(seat="N", round="N"),
                 "standard", 82, 87, 87,
                 {"little_four_winds": 50, "single_wait": 1, "no_flowers": 1, "semi_pure": 30, "mahjong_base": 5},
                 id="little-four-winds"),
    # 4.4 big_three_winds (eyes 22p, not a wind) replaces wind_pong (2+2+1 for seat S, round W);
    # 6f is South's.  big_three_winds 30 + single_wait 1 + good_eyes 2 + seat_flower 1 = 34; total 39.
    pytest.param("[SSS] [WWW] NNN 456m 789s 2p", "2p", ctx(seat="S", round="W", flowers="6f"),
                 "standard", 34, 39, 39,
                 {"big_three_winds": 30, "single_wait": 1, "good_eyes": 2, "seat_flower": 1, "mahjong_base": 5},
                 id="big-three-winds"),
    # 4.4 little_three_winds replaces wind_pong incl. seat and round bonuses (EEE would be 3, NNN 1).
    # little_three_winds 15 + single_wait 1 + pure_dragon_concealed 20 + semi_pure 30 + no_flowers 1
    # = 67; total 72; + east_wins 5 = 77.
    pytest.param("[EEE] [NNN] 123m 456m 789m S", "S", ctx(seat="E", round="E"),
                 "standard", 67, 72, 77,
                 {"little_three_winds": 15, "single_wait": 1, "pure_dragon_concealed": 20, "semi_pure": 30,
                  "no_flowers": 1, "mahjong_base": 5, "east_wins": 5},
                 id="little-three-winds-dealer"),
    # 4.4 near miss: two wind pongs with dragon eyes is no little_three_winds.  wind_pong 4
    # (EEE 1 + round 1, NNN 1 + seat 1) + single_wait 1 + pure_dragon_concealed 20 + semi_pure 30 +
    # no_flowers 1 = 56; total 61 (winds present: not Ruby).
    pytest.param("[EEE] [NNN] 123m 456m 789m R", "R", ctx(seat="N", round="E"),
                 "standard", 56, 61, 61,
                 {"wind_pong": 4, "single_wait": 1, "pure_dragon_concealed": 20, "semi_pure": 30, "no_flowers": 1,
                  "mahjong_base": 5},
                 id="two-wind-pongs-dragon-eyes"),
    # 4.4 double wind: concealed EEE for East in the East round = 3.  concealed_self_draw 10 +
    # wind_pong 3 + single_wait 1 (1s) + no_flowers 1 = 15; total 20; + east_wins 5 = 25.
    pytest.param("EEE 234m 456p 678s 999s 1s", "1s", ctx(self_drawn=True, seat="E", round="E"),
                 "standard", 15, 20, 25,
                 {"concealed_self_draw": 10, "wind_pong": 3, "single_wait": 1, "no_flowers": 1,
                  "mahjong_base": 5, "east_wins": 5},
                 id="double-wind-pong-dealer"),
    # 4.4 big_three_dragons replaces dragon_pong (6); waits 6s only.  big_three_dragons 40 +
    # single_wait 1 + no_flowers 1 + semi_pure 30 = 72; total 77.
    pytest.param("[WhWhWh] [GGG] RRR 234s 567s 6s", "6s", ctx(seat="S", round="E"),
                 "standard", 72, 77, 77,
                 {"big_three_dragons": 40, "single_wait": 1, "no_flowers": 1, "semi_pure": 30, "mahjong_base": 5},
                 id="big-three-dragons"),
    # 4.4 little_three_dragons (RR eyes) replaces dragon_pong (4).  little_three_dragons 20 +
    # single_wait 1 + no_flowers 1 = 22; total 27.
    pytest.param("[WhWhWh] [GGG] R 234s 567s 999m", "R", ctx(seat="W", round="S"),
                 "standard", 22, 27, 27,
                 {"little_three_dragons": 20, "single_wait": 1, "no_flowers": 1, "mahjong_base": 5},
                 id="little-three-dragons"),
    # 4.4 near miss: two dragon pongs with wind eyes.  dragon_pong 4 + single_wait 1 + no_flowers 1 +
    # all_five_suits 10 = 16; total 21.
    pytest.param("[WhWhWh] [GGG] E 234s 567p 999m", "E", ctx(seat="S", round="E"),
                 "standard", 16, 21, 21,
                 {"dragon_pong": 4, "single_wait": 1, "no_flowers": 1, "all_five_suits": 10, "mahjong_base": 5},
                 id="two-dragon-pongs-wind-eyes"),

    # ------------------------------------------------------------------------------------
    # 4.5 sets
    # ------------------------------------------------------------------------------------
    # 4.5 all_pongs (shanpon wait 22m / 33p).  all_pongs 30 + good_eyes 2 (22m) +
    # no_flower_no_honour 5 = 37; total 42.
    pytest.param("[111m] [999p] 555s 777s 22m 33p", "3p", ctx(seat="N", round="E"),
                 "standard", 37, 42, 42,
                 {"all_pongs": 30, "good_eyes": 2, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="all-pongs"),
    # 4.5 near miss: four pongs and a sheung.  concealed_self_draw 10 + no_flower_no_honour 5 +
    # good_eyes 2 = 17; total 22.
    pytest.param("111m 999p 555s 789s 22m 33p", "3p", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 17, 22, 22,
                 {"concealed_self_draw": 10, "no_flower_no_honour": 5, "good_eyes": 2, "mahjong_base": 5},
                 id="four-pongs-one-sheung"),
    # 9.1 sister (123m 123p 123s) and step-up mixed (234m 345p + 123s) both score, sharing 123s.
    # single_wait 1 (5s) + all_sheung_nfnh 15 + sister_sheungs 10 + step_up_mixed 5 + good_eyes 2
    # = 33; total 38.
    pytest.param("[123m] [234m] 123p 345p 123s 5s", "5s", ctx(seat="N", round="W"),
                 "standard", 33, 38, 38,
                 {"single_wait": 1, "all_sheung_nfnh": 15, "sister_sheungs": 10, "step_up_mixed": 5, "good_eyes": 2,
                  "mahjong_base": 5},
                 id="sister-and-step-up"),
    # 4.5 near miss for sister: 123m 123p 234s (no step-up: lowest 1, 1, 2, 6, 7).
    # all_sheung_nfnh 15 + single_wait 1 (9m) = 16; total 21.
    pytest.param("[123m] [123p] 234s 678s 789p 9m", "9m", ctx(seat="S", round="E"),
                 "standard", 16, 21, 21,
                 {"all_sheung_nfnh": 15, "single_wait": 1, "mahjong_base": 5},
                 id="sister-near-miss"),
    # 9.17 step_up_mixed in any suit order (234s 345p 456m).  concealed_self_draw 10 + single_wait 1
    # (9p) + step_up_mixed 5 + dragon_pong 2 + no_flowers 1 = 19; total 24.
    pytest.param("234s 345p 456m RRR 789m 9p", "9p", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 19, 24, 24,
                 {"concealed_self_draw": 10, "single_wait": 1, "step_up_mixed": 5, "dragon_pong": 2, "no_flowers": 1,
                  "mahjong_base": 5},
                 id="step-up-mixed-any-suit-order"),
    # 4.5 near miss (234s 345p 567m: lowest 2, 3, 5) and 6.3 one point short: concealed_self_draw 10 +
    # single_wait 1 + dragon_pong 2 + no_flowers 1 = 14; total 19 < 20: illegal.
    pytest.param("234s 345p 567m RRR 789m 9p", "9p", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 14, 19, 0,
                 {"concealed_self_draw": 10, "single_wait": 1, "dragon_pong": 2, "no_flowers": 1, "mahjong_base": 5},
                 id="step-up-near-miss-total-19"),
    # 4.5 step_up_pure (234s 345s 456s) replaces step_up_mixed (234s 345m 456p); 9.8 lowest numbers
    # 2, 3, 3, 4, 4 repeat: no All Step-Up.  single_wait 1 (9m) + all_sheung_nfnh 15 + step_up_pure 15
    # = 31; total 36.
    pytest.param("[345m] [456p] 234s345s456s 9m", "9m", ctx(seat="S", round="S"),
                 "standard", 31, 36, 36,
                 {"single_wait": 1, "all_sheung_nfnh": 15, "step_up_pure": 15, "mahjong_base": 5},
                 id="step-up-pure-replaces-mixed"),
    # 4.5 near miss for step_up_pure: 234s 345s 567s.  concealed_self_draw 10 + single_wait 1 (9p) +
    # no_flower_no_honour 5 (pongs) = 16; total 21.
    pytest.param("234s 345s 567s 111m 555p 9p", "9p", ctx(self_drawn=True, seat="S", round="E"),
                 "standard", 16, 21, 21,
                 {"concealed_self_draw": 10, "single_wait": 1, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="step-up-pure-near-miss"),
    # 4.5 / 9.16 all_step_up_mixed (123m 234p 345s 456m 567p) replaces all_sheung_nfnh, which falls
    # back to no_flower_no_honour.  single_wait 1 (9s) + no_flower_no_honour 5 + all_step_up_mixed 20
    # = 26; total 31; + east_wins 5 = 36.
    pytest.param("[1m2m3m] [234p] 345s 456m 567p 9s", "9s", ctx(seat="E", round="S"),
                 "standard", 26, 31, 36,
                 {"single_wait": 1, "no_flower_no_honour": 5, "all_step_up_mixed": 20, "mahjong_base": 5,
                  "east_wins": 5},
                 id="all-step-up-mixed"),
    # 9.16 all_step_up_pure with honour eyes: semi_pure still adds.  single_wait 1 (N) + no_flowers 1 +
    # semi_pure 30 + all_step_up_pure 90 = 122; total 127.
    pytest.param("[123s] [234s] [345s] 456s 567s N", "N", ctx(seat="S", round="E"),
                 "standard", 122, 127, 127,
                 {"single_wait": 1, "no_flowers": 1, "semi_pure": 30, "all_step_up_pure": 90, "mahjong_base": 5},
                 id="all-step-up-pure-semi-pure"),
    # 9.16 all_step_up_pure replaces pure; no flowers, no honours -> no_flower_no_honour 5.
    # single_wait 1 (9s) + all_step_up_pure 90 + no_flower_no_honour 5 = 96; total 101.
    pytest.param("[123s] [234s] [345s] 456s 567s 9s", "9s", ctx(seat="S", round="E"),
                 "standard", 96, 101, 101,
                 {"single_wait": 1, "all_step_up_pure": 90, "no_flower_no_honour": 5, "mahjong_base": 5},
                 id="all-step-up-pure-replaces-pure"),
    # 4.5 / 9.8 a five-chain in exactly two suits is not All Step-Up: step_up_pure (123m 234m 345m).
    # single_wait 1 (9s) + all_sheung_nfnh 15 + step_up_pure 15 = 31; total 36.
    pytest.param("[123m] [234m] 345m 456p 567p 9s", "9s", ctx(seat="W", round="W"),
                 "standard", 31, 36, 36,
                 {"single_wait": 1, "all_sheung_nfnh": 15, "step_up_pure": 15, "mahjong_base": 5},
                 id="five-chain-two-suits"),
    # 4.5 pure_dragon_concealed (123p 456p 789p); waits 6s 9s.  concealed_hand 5 + all_sheung_nfnh 15 +
    # pure_dragon_concealed 20 = 40; total 45.
    pytest.param("123p 456p 789p 345m 678s 9s", "9s", ctx(seat="S", round="S"),
                 "standard", 40, 45, 45,
                 {"concealed_hand": 5, "all_sheung_nfnh": 15, "pure_dragon_concealed": 20, "mahjong_base": 5},
                 id="pure-dragon-concealed"),
    # 4.5 near miss: [123p] exposed -> pure_dragon 10.  all_sheung_nfnh 15 + pure_dragon 10 = 25; total 30.
    pytest.param("[123p] 456p 789p 345m 678s 9s", "9s", ctx(seat="S", round="S"),
                 "standard", 25, 30, 30,
                 {"all_sheung_nfnh": 15, "pure_dragon": 10, "mahjong_base": 5},
                 id="pure-dragon-one-exposed"),
    # 9.3 two copies of 123p, one exposed, one concealed: the concealed one is used.
    # all_sheung_nfnh 15 + pure_dragon_concealed 20 = 35; total 40.
    pytest.param("[123p] 123p 456p 789p 678s 9s", "9s", ctx(seat="N", round="E"),
                 "standard", 35, 40, 40,
                 {"all_sheung_nfnh": 15, "pure_dragon_concealed": 20, "mahjong_base": 5},
                 id="pure-dragon-concealed-copy-used"),
    # 9.3 Pure Dragon (123m 456m 789m, concealed) and Mixed Dragon (123m [456p] 789s, one exposed)
    # both score, sharing 123m.  single_wait 1 (2p) + good_eyes 2 + all_sheung_nfnh 15 +
    # pure_dragon_concealed 20 + mixed_dragon 5 = 43; total 48; + east_wins 5 = 53.
    pytest.param("[456p] 123m 456m 789m 789s 2p", "2p", ctx(seat="E", round="E"),
                 "standard", 43, 48, 53,
                 {"single_wait": 1, "good_eyes": 2, "all_sheung_nfnh": 15, "pure_dragon_concealed": 20,
                  "mixed_dragon": 5, "mahjong_base": 5, "east_wins": 5},
                 id="pure-and-mixed-dragon"),
    # 4.5 mixed_dragon_concealed (123m 456p 789s); no wind: not all_five_suits; waits 5p 8p.
    # concealed_hand 5 + mixed_dragon_concealed 10 + dragon_pong 2 + no_flowers 1 = 18; total 23.
    pytest.param("123m 456p 789s WhWhWh 67p 11s", "8p", ctx(seat="W", round="E"),
                 "standard", 18, 23, 23,
                 {"concealed_hand": 5, "mixed_dragon_concealed": 10, "dragon_pong": 2, "no_flowers": 1,
                  "mahjong_base": 5},
                 id="mixed-dragon-concealed"),
    # 9.17 / 4.5 the all-concealed assignment 123s 456p 789m replaces mixed_dragon ([123m] 456p 789s).
    # mixed_dragon_concealed 10 + all_sheung_nfnh 15 + single_wait 1 (5p) + good_eyes 2 = 28; total 33.
    pytest.param("[123m] 123s 456p 789m 789s 5p", "5p", ctx(seat="S", round="W"),
                 "standard", 28, 33, 33,
                 {"mixed_dragon_concealed": 10, "all_sheung_nfnh": 15, "single_wait": 1, "good_eyes": 2,
                  "mahjong_base": 5},
                 id="mixed-dragon-concealed-assignment-chosen"),
]
# fmt: on

NOT_A_WIN = {
    "is_win": False,
    "shape": None,
    "rows": {},
    "points": 0,
    "chicken": False,
    "total": 0,
    "legal": False,
    "payout": 0,
}

# (hand, win, context): 16 valid tiles that make no shape of section 3.
NON_WINNING = [
    # 3 no shape: 1m 1m 2m 3m, 456p 789s EE 234s and the singles 5p 8p.
    pytest.param("123m 456p 789s 11z 234s 5p 8p", "1m", ctx(seat="S"), id="no-shape"),
    # 5.1 a declared gong breaks Nico Nico (seven pairs + (3333p)); no standard split either.
    pytest.param("(3333p) 11m 99m 77s 11s EE RR 9s", "9s", ctx(self_drawn=True, seat="S"), id="nico-broken-by-gong"),
    # 5.2 13 Orphans whose extra tiles 2m 4m 5m are no set.
    pytest.param("1m9m1p9p1s9s ESWN WhGR 24m 9s", "5m", ctx(seat="W"), id="thirteen-orphans-broken"),
    # 3 16 Orphans needs numbers at least 3 apart: 146m is no orphan sheung.
    pytest.param("146m 258p 369s ESWN WhGR", "E", ctx(seat="N"), id="sixteen-orphans-146m"),
]


def expected_dict(shape, points, total, payout, rows):
    return {
        "is_win": True,
        "shape": shape,
        "rows": rows,
        "points": points,
        "chicken": points == 1,  # 6.2: exactly 1 point
        "total": total,
        "legal": payout > 0,  # a legal win pays at least the round minimum
        "payout": payout,
    }


@pytest.mark.parametrize(("hand", "win", "context", "shape", "points", "total", "payout", "rows"), CASES)
def test_worked_case(hand, win, context, shape, points, total, payout, rows):
    result = score(hand, win, **context)
    expected = expected_dict(shape, points, total, payout, rows)
    assert result.rows == rows
    assert result.points == points
    assert result.total == total
    assert result.payout == payout
    assert result.legal == expected["legal"]
    assert result.chicken == expected["chicken"]
    assert result.shape == shape
    assert result.is_win is True
    assert result.to_dict() == expected


@pytest.mark.parametrize(("hand", "win", "context"), NON_WINNING)
def test_non_winning_hand(hand, win, context):
    result = score(hand, win, **context)
    assert result.is_win is False
    assert result.rows == {}
    assert result.payout == 0
    assert result.to_dict() == NOT_A_WIN


def test_case_table_sums():
    """Each worked case is consistent with section 6 arithmetic (guards typos in the table)."""
    minimum = {"E": 20, "S": 22, "W": 24, "N": 26}
    for param in CASES:
        hand, win, context, shape, points, total, payout, rows = param.values
        dealer = {"mahjong_base", "east_wins", "streak_bonus"}
        assert sum(v for k, v in rows.items() if k not in dealer) == points, param.id
        assert rows["mahjong_base"] == 5, param.id
        round_min = minimum[context.get("round", "E")]
        assert total == (round_min if points == 1 else points + 5), param.id
        extra = rows.get("east_wins", 0) + rows.get("streak_bonus", 0)
        assert payout == (total + extra if (points == 1 or total >= round_min) else 0), param.id


def test_to_dict_keys():
    result = score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S")
    assert set(result.to_dict()) == SCORE_KEYS


def test_at_least_seventy_worked_cases():
    assert len(CASES) + len(NON_WINNING) >= 70


# ----------------------------------------------------------------------------------------
# A custom rule table (rules.toml header: copy, change a value, pass it as rules=)
# ----------------------------------------------------------------------------------------


def _changed_table(tmp_path, pattern, replacement):
    text = RULES_TOML.read_text()
    changed, n = re.subn(pattern, replacement, text, count=1)
    assert n == 1, f"pattern {pattern!r} not found in rules.toml"
    path = tmp_path / "rules.toml"
    path.write_text(changed)
    return path


def test_custom_rules_nico_nico_value(tmp_path):
    # nico_nico 40 -> 50: the seed example 52 + 10 = 62 points; total 67.
    path = _changed_table(tmp_path, r'(id = "nico_nico"\npoints = )40', r"\g<1>50")
    result = score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S", round="E", rules=path)
    assert result.rows["nico_nico"] == 50
    assert result.points == 62
    assert result.total == 67
    assert result.payout == 67
    # the shipped table is untouched
    assert score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S", round="E").total == 57


def test_custom_rules_round_minimum(tmp_path):
    # East round minimum 20 -> 30: the East-round Chicken pays 30.
    path = _changed_table(tmp_path, r"minimum = \[20,", "minimum = [30,")
    result = score("[123m] [456p] 789p 345s 67s NN", "8s", seat="S", round="E", rules=path)
    assert result.chicken is True
    assert result.total == 30
    assert result.payout == 30


# ----------------------------------------------------------------------------------------
# Invalid input (sections 2, 8, 9.14, 9.15): the error names the bad token
# ----------------------------------------------------------------------------------------

# (hand, win, context, token regex)
INVALID = [
    # 8 an unknown letter
    pytest.param("123m 456p 789s 234s QQ 55p", "5p", ctx(), "Q", id="unknown-letter"),
    # 8 a digit with no suit
    pytest.param("123m 456p 789s 234s 11z 55", "5p", ctx(), "55", id="digits-without-suit"),
    # 9.15 white space inside a group
    pytest.param("12 3m 456p 789s 234s 11z 55p", "5p", ctx(), "12", id="split-group"),
    # 9.15 0 (red five) is not a tile
    pytest.param("123m 406p 789s 234s 11z 55p", "5p", ctx(), r"406p|0p", id="zero-red-five"),
    pytest.param("123m 456p 789s 234s 11z 5p 0m", "5p", ctx(), "0m", id="zero-m"),
    # 9.15 8z and 9z do not exist
    pytest.param("123m 456p 789s 234s 88z 55p", "5p", ctx(), "8z", id="eight-z"),
    pytest.param("123m 456p 789s 234s 11z 55p", "9z", ctx(), "9z", id="nine-z-win"),
    # 2 / 8 wrong tile counts (13 and 17 tiles before the win; the message names a count)
    pytest.param("123m 456p 789s 234s 5p", "5p", ctx(), r"1[3-7]", id="too-few-tiles"),
    pytest.param("123m 456p 789s 234s 11z 555p", "5p", ctx(), r"1[6-8]", id="too-many-tiles"),
    # 2 a fifth copy: in the concealed tiles, with a declared set, with the winning tile
    pytest.param("11111m 456p 789s 234s 55p", "5p", ctx(), "1m", id="fifth-copy-concealed"),
    pytest.param("[7777p] 7p 123m 456m 789s 11s 5s", "5s", ctx(), "7p", id="fifth-copy-with-gong"),
    pytest.param("[666s] 66s 123m 456m 789p 55p", "5p", ctx(), "6s", id="fifth-copy-with-pong"),
    pytest.param("4444p 123m 456m 789s 11z 5s", "4p", ctx(), "4p", id="fifth-copy-via-winning-tile"),
    # 8 / 9.15 a declared set that is no sheung, pong or gong
    pytest.param("[124m] 456p 789s 234s 11z 55p", "5p", ctx(), "124m", id="bad-bracket-set"),
    pytest.param("[1m2p3s] 456p 789s 234s 11z 55p", "5p", ctx(), "1m2p3s", id="sheung-across-suits"),
    # 9.15 (...) must be a gong
    pytest.param("(777m) 456p 789s 234s 11z 55p", "5p", ctx(), "777m", id="concealed-set-not-gong"),
    # 4.1 / 9.14 Closing with an exposed set
    pytest.param("[123m] 456p 789s 234s 11z 55p", "5p", ctx(closing=True), r"(?i)closing|123m",
                 id="closing-with-exposed-set"),
    # 9.15 flowers: repeated, out of range, inside the hand string; a flower as the winning tile
    pytest.param("123m 456p 789s 234s 11z 55p", "5p", ctx(flowers="1f1f"), "1f", id="flower-repeated"),
    pytest.param("123m 456p 789s 234s 11z 55p", "5p", ctx(flowers="12f2f"), "2f", id="flower-repeated-grouped"),
    pytest.param("123m 456p 789s 234s 11z 55p", "5p", ctx(flowers="9f"), "9f", id="flower-out-of-range"),
    pytest.param("123m 456p 789s 234s 11z 55p", "5p", ctx(flowers="0f"), "0f", id="flower-zero"),
    pytest.param("123m 456p 789s 234s 11z 55p 3f", "5p", ctx(), "3f", id="flower-in-hand"),
    pytest.param("123m 456p 789s 234s 11z 55p", "1f", ctx(), "1f", id="winning-tile-flower"),
]


def test_invalid_table_base_hand_is_valid():
    """The hand most invalid rows start from is itself valid input (a win: 555p, eyes 11z)."""
    assert score("123m 456p 789s 234s 11z 55p", "5p").is_win is True


@pytest.mark.parametrize(("hand", "win", "context", "token"), INVALID)
def test_invalid_input(hand, win, context, token):
    with pytest.raises(ValueError, match=token):
        score(hand, win, **context)
