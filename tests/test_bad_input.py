"""Invalid input at the public boundary (RULES.md sections 2, 8, 9.14, 9.15; STYLE.md "Errors").

The numba kernels do not check bounds, so every class of bad input must be
stopped here: a single hand raises a ``ValueError`` (a :class:`HandError` with
an :class:`ErrorCode`) whose message names the token, tile or field and what
is allowed; in a batch the same input flags its row (``is_win`` False,
``payout`` 0, ``error`` the message) and every other row is still scored, in
order.
"""

from __future__ import annotations

import numpy as np
import pytest

import fastscore
from fastscore import ErrorCode, HandBatch, HandError, parse_hand, score_batch
from fastscore.tiles import TILE_NAMES

SEED = "11m99m77p11s9s EE RR 333p"

# Two good rows that surround every bad one in the batch checks.
# Seed example (5.1), seat S, self-drawn: nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 = 52,
# + base 5 = 57.
GOOD_A = dict(hand=SEED, win="9s", self_drawn=True, seat="S", round="E")
GOOD_A_PAYOUT = 57
# 111m 222m 333m read as 123m x3 (or pongs) + 456p 789s... best: concealed_hand 5 + no_flowers 1
# + mixed_dragon_concealed 10 (123m 456p 789s) = 16, + base 5 = 21 (East round minimum 20: legal).
GOOD_B = dict(hand="111222333m456p78s EE", win="9s", seat="S", round="E")
GOOD_B_PAYOUT = 21

HAND_11 = "99m77p11s9s EE RR"  # 11 tiles; the fifth-copy cases below add 5 more


def case(id, code, fragments, *, waits_too=True, **kwargs):
    """One bad single hand: ``score(**kwargs)`` raises ``code`` with every fragment in its message.

    ``waits_too``: ``waits`` (no winning tile) raises the same for the same hand and context.
    """
    kwargs.setdefault("win", "9s")
    return pytest.param(kwargs, code, fragments, waits_too, id=id)


# fmt: off
CASES = [
    # unknown letters (case-sensitive: 'x', 'M', lowercase honour letters are not tiles)
    case("unknown-letter", ErrorCode.BAD_TOKEN, ["'333x'", "unknown letter 'x'", "suits m p s z", "E S W N Wh G R"],
         hand="11m99m77p11s9s EE RR 333x"),
    case("unknown-letter-inside-group", ErrorCode.BAD_TOKEN, ["'3x3p'", "unknown letter 'x'"],
         hand="11m99m77p11s9s EE RR 3x3p"),
    case("uppercase-suit", ErrorCode.BAD_TOKEN, ["'333M'", "unknown letter 'M'"], hand="11m99m77p11s9s EE RR 333M"),
    case("lowercase-honour", ErrorCode.BAD_TOKEN, ["'ee'", "unknown letter 'e'"], hand="11m99m77p11s9s ee RR 333p"),
    case("non-ascii-digit", ErrorCode.BAD_TOKEN, ["'٣٣٣p'", "unknown letter '٣'"], hand="11m99m77p11s9s EE RR ٣٣٣p"),
    case("superscript-digit", ErrorCode.BAD_TOKEN, ["'²²²p'", "unknown letter '²'"], hand="11m99m77p11s9s EE RR ²²²p"),
    # digits without a suit
    case("digits-no-suit", ErrorCode.BAD_TOKEN, ["'333'", "digits '333' have no suit letter", "m, p, s or z"],
         hand="11m99m77p11s9s EE RR 333"),
    case("digits-before-honour", ErrorCode.BAD_TOKEN, ["'33p3E'", "digits '3' have no suit letter"],
         hand="11m99m77p11s9s EE RR 33p3E"),
    # empty input
    case("empty", ErrorCode.TILE_COUNT, ["empty hand", "16 tiles"], hand=""),
    case("blank", ErrorCode.TILE_COUNT, ["empty hand", "16 tiles"], hand="  \t "),
    # wrong tile total (a declared set counts 3)
    case("15-tiles", ErrorCode.TILE_COUNT, ["holds 15 tiles", "16"], hand="11m99m77p11s9s EE RR 33p"),
    case("17-tiles", ErrorCode.TILE_COUNT, ["holds 17 tiles", "16"], hand="11m99m77p11s9s EE RR 3333p"),
    case("17-with-declared", ErrorCode.TILE_COUNT, ["holds 17 tiles", "a declared set counts 3"],
         hand="[123m] 99m77p11s9s EE RR 333p"),
    # 256 copies of 1m would wrap to 0 in a uint8 count vector: the count is checked before the cast.
    case("uint8-wrap", ErrorCode.TILE_COUNT, ["holds 272 tiles"], hand="1" * 256 + "m " + SEED),
    # a fifth copy: concealed, with a declared pong / sheung / concealed gong, or with the winning tile
    case("fifth-concealed", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "at most 4"], hand="11111m " + HAND_11),
    case("fifth-with-pong", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "declared sets", "at most 4"],
         hand="[111m] 11m " + HAND_11),
    case("fifth-with-sheung", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "at most 4"],
         hand="[123m] 1111m 77p11s9s EE RR"),
    case("fifth-with-concealed-gong", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "at most 4"],
         hand="(1111m) 1m " + HAND_11 + " G"),
    case("fifth-with-win", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "winning tile", "at most 4"], waits_too=False,
         hand="1111m " + HAND_11 + " G", win="1m"),
    case("fifth-gong-and-win", ErrorCode.FIFTH_COPY, ["5 copies of 1m", "at most 4"], waits_too=False,
         hand="(1111m) 99m77p11s9s EE RR 55p", win="1m"),
    # a bracketed set that is not a sheung, pong or gong
    case("set-not-a-run", ErrorCode.BAD_SET, ["'[124m]'", "sheung, pong or gong"], hand="[124m] 99m77p11s9s EE RR 3p"),
    case("set-two-tiles", ErrorCode.BAD_SET, ["'[11m]'", "sheung, pong or gong"], hand="[11m] 99m77p11s9s EE RR 333p"),
    case("set-five-tiles", ErrorCode.BAD_SET, ["'[11111m]'", "sheung, pong or gong"], hand="[11111m] 99m77p11s9s EE R"),
    case("sheung-crosses-suits", ErrorCode.BAD_SET, ["'[89m1p]'", "sheung, pong or gong"],
         hand="[89m1p] 99m77p11s9s EE RR 3p"),
    case("honour-sheung", ErrorCode.BAD_SET, ["'[ESW]'", "sheung, pong or gong"], hand="[ESW] 99m77p11s9s EE RR 3p"),
    case("empty-set", ErrorCode.BAD_SET, ["'[]'", "sheung, pong or gong"], hand="[] 99m77p11s9s EE RR 3p"),
    # a concealed gong that is not four of a kind
    case("concealed-gong-of-three", ErrorCode.BAD_SET, ["'(111m)'", "four of one kind"],
         hand="(111m) 99m77p11s9s EE RR 3p"),
    case("concealed-gong-run", ErrorCode.BAD_SET, ["'(1234m)'", "four of one kind"], hand="(1234m) 9m77p11s9s EE RR 3p"),
    # Closing with an exposed set (9.14); Closing with a concealed gong is valid (see below)
    case("closing-exposed-sheung", ErrorCode.BAD_CONTEXT, ["Closing", "exposed set", "concealed hand"],
         hand="[123m] 99m77p11s9s EE RR 33p", closing=True),
    case("closing-exposed-gong", ErrorCode.BAD_CONTEXT, ["Closing", "exposed set"],
         hand="[1111m] 99m77p11s9s EE RR 33p", closing=True),
    # seat or round out of range
    case("seat-letter", ErrorCode.BAD_CONTEXT, ["seat 'X'", "E, S, W or N"], hand=SEED, seat="X"),
    case("seat-4", ErrorCode.BAD_CONTEXT, ["seat 4", "E, S, W or N"], hand=SEED, seat=4),
    case("seat-lowercase", ErrorCode.BAD_CONTEXT, ["seat 's'", "E, S, W or N"], hand=SEED, seat="s"),
    case("seat-bool", ErrorCode.BAD_CONTEXT, ["seat True"], hand=SEED, seat=True),
    # falsy values are not "missing": only None and an empty string (a CSV cell) mean the default East
    case("seat-false", ErrorCode.BAD_CONTEXT, ["seat False", "E, S, W or N"], hand=SEED, seat=False),
    case("seat-float-zero", ErrorCode.BAD_CONTEXT, ["seat 0.0", "E, S, W or N"], hand=SEED, seat=0.0),
    case("round-empty-list", ErrorCode.BAD_CONTEXT, ["round []", "E, S, W or N"], hand=SEED, round=[]),
    case("round-dragon", ErrorCode.BAD_CONTEXT, ["round 'Wh'", "E, S, W or N"], hand=SEED, round="Wh"),
    case("round-negative", ErrorCode.BAD_CONTEXT, ["round -1", "E, S, W or N"], hand=SEED, round=-1),
    # a flower out of range or repeated
    case("flower-9", ErrorCode.BAD_CONTEXT, ["'9f'", "out of range", "1f-8f"], hand=SEED, flowers="9f"),
    case("flower-0", ErrorCode.BAD_CONTEXT, ["'0f'", "out of range", "1f-8f"], hand=SEED, flowers="2f0f"),
    case("flower-repeated", ErrorCode.BAD_CONTEXT, ["'1f'", "repeated"], hand=SEED, flowers="1f 1f"),
    case("flower-repeated-short", ErrorCode.BAD_CONTEXT, ["'3f'", "'33f'", "repeated"], hand=SEED, flowers="33f"),
    case("flower-not-notation", ErrorCode.BAD_CONTEXT, ["'E'", "1f..8f"], hand=SEED, flowers="E"),
    case("flower-not-string", ErrorCode.BAD_CONTEXT, ["flowers", "12", "'1f2f'"], hand=SEED, flowers=12),
    case("flower-in-hand", ErrorCode.BAD_TOKEN, ["'1f'", "flowers are not part of the hand"], hand=SEED + " 1f"),
    # a negative (or otherwise bad) streak
    case("streak-negative", ErrorCode.BAD_CONTEXT, ["streak -1", "0 to 1000"], hand=SEED, streak=-1),
    case("streak-too-big", ErrorCode.BAD_CONTEXT, ["streak 1001", "0 to 1000"], hand=SEED, streak=1001),
    case("streak-fraction", ErrorCode.BAD_CONTEXT, ["streak 1.5", "whole number"], hand=SEED, streak=1.5),
    case("streak-infinite", ErrorCode.BAD_CONTEXT, ["streak inf", "whole number"], hand=SEED, streak=float("inf")),
    case("streak-text", ErrorCode.BAD_CONTEXT, ["streak 'two'", "whole number"], hand=SEED, streak="two"),
    # a winning tile that is a flower, or not one tile
    case("win-flower", ErrorCode.BAD_WIN, ["'1f'", "flower"], waits_too=False, hand=SEED, win="1f"),
    case("win-season", ErrorCode.BAD_WIN, ["'5f'", "flower"], waits_too=False, hand=SEED, win="5f"),
    case("win-two-tiles", ErrorCode.BAD_WIN, ["'99s'", "not one tile", "'5p'"], waits_too=False, hand=SEED, win="99s"),
    case("win-red-five", ErrorCode.BAD_WIN, ["'0m' is not a tile"], waits_too=False, hand=SEED, win="0m"),
    case("win-ten", ErrorCode.BAD_WIN, ["'10s'", "not one tile"], waits_too=False, hand=SEED, win="10s"),
    # no winning tile: the argument (score) and the record key (a batch) are both 'win'
    case("win-none", ErrorCode.BAD_WIN, ["no winning tile", "'win' is missing or empty", "'9s'"], waits_too=False,
         hand=SEED, win=None),
    case("win-empty", ErrorCode.BAD_WIN, ["no winning tile", "'win' is missing or empty"], waits_too=False, hand=SEED,
         win=""),
    # a whole number is a tile index 0-33 (HandBatch.win; 9 is 1p); a float or a bool is not a tile
    case("win-not-string", ErrorCode.BAD_WIN, ["winning tile 9.0", "not a tile"], waits_too=False, hand=SEED, win=9.0),
    case("win-bool", ErrorCode.BAD_WIN, ["winning tile True", "not a tile"], waits_too=False, hand=SEED, win=True),
    case("win-index-out-of-range", ErrorCode.BAD_WIN, ["winning tile 34", "0 to 33"], waits_too=False, hand=SEED,
         win=34),
    # white space inside a group (9.15)
    case("split-group", ErrorCode.BAD_TOKEN, ["white space after digits '12'", "only between complete groups", "'123m'"],
         hand="12 3m 99m77p11s9s EE RR 3p"),
    case("split-group-in-set", ErrorCode.BAD_TOKEN, ["white space after digits '12'"],
         hand="[12 3m] 99m77p11s9s EE RR 3p"),
    case("space-inside-set", ErrorCode.BAD_TOKEN, ["'[1m 2m 3m]'", "white space inside a group"],
         hand="[1m 2m 3m] 99m77p11s9s EE RR 3p"),
    # 0m (red five), 8z, 9z
    case("red-five", ErrorCode.BAD_TOKEN, ["'0m' is not a tile", "5m"], hand="11m99m77p11s9s EE RR 330m"),
    case("8z", ErrorCode.BAD_TOKEN, ["'8z' is not a tile", "1z-7z"], hand="11m99m77p11s9s EE RR 338z"),
    case("9z", ErrorCode.BAD_TOKEN, ["'9z' is not a tile", "1z-7z"], hand="11m99m77p11s9s EE RR 339z"),
    # nested / unbalanced brackets
    case("unclosed", ErrorCode.BAD_TOKEN, ["unbalanced or nested bracket '['", "position 0"],
         hand="[123m 99m77p11s9s EE RR 3p"),
    case("unopened", ErrorCode.BAD_TOKEN, ["unbalanced or nested bracket ']'", "position 4"],
         hand="123m] 99m77p11s9s EE RR 3p"),
    case("nested", ErrorCode.BAD_TOKEN, ["unbalanced or nested bracket '['"], hand="[[123m]] 99m77p11s9s EE RR 3p"),
    case("mixed-nesting", ErrorCode.BAD_TOKEN, ["unbalanced or nested bracket '('"],
         hand="([1111m]) 99m77p11s9s EE RR 3p"),
    case("mismatched", ErrorCode.BAD_TOKEN, ["unbalanced or nested bracket '['", "position 0"],
         hand="[123m) 99m77p11s9s EE RR 3p"),
    # more than 5 declared sets
    case("six-declared", ErrorCode.TILE_COUNT, ["6 declared sets", "at most 5"],
         hand="[111m][222m][333m][444m][555m][666m]"),
    # not a string
    case("hand-none", ErrorCode.BAD_TOKEN, ["hand must be a string", "NoneType"], hand=None),
    case("hand-int", ErrorCode.BAD_TOKEN, ["hand must be a string", "int 123"], hand=123),
    case("hand-list", ErrorCode.BAD_TOKEN, ["hand must be a string", "list"], hand=["11m"]),
]
# fmt: on


def _waits_kwargs(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if k not in ("win", "self_drawn")}


@pytest.mark.parametrize(("kwargs", "code", "fragments", "waits_too"), CASES)
def test_single_hand_raises(kwargs, code, fragments, waits_too):
    with pytest.raises(ValueError) as info:
        fastscore.score(**kwargs)
    assert isinstance(info.value, HandError)
    assert info.value.code == code
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message
    assert not message.startswith("row ")  # the single-hand API drops the batch row prefix


@pytest.mark.parametrize(("kwargs", "code", "fragments", "waits_too"), [c for c in CASES if c.values[3]])
def test_waits_raises(kwargs, code, fragments, waits_too):
    with pytest.raises(ValueError) as info:
        fastscore.waits(**_waits_kwargs(kwargs))
    assert isinstance(info.value, HandError)
    assert info.value.code == code
    for fragment in fragments:
        assert fragment in str(info.value)


def _check_good_rows(records, bad_rows):
    """Rows other than ``bad_rows`` are GOOD_A / GOOD_B alternately; return the records of the bad rows."""
    good_payouts = iter([GOOD_A_PAYOUT, GOOD_B_PAYOUT] * len(records))
    bad = []
    for i, rec in enumerate(records):
        if i in bad_rows:
            assert rec["is_win"] is False
            assert rec["payout"] == 0
            assert rec["total"] == 0
            assert rec["shape"] is None
            assert rec["rows"] == {}
            assert rec["error"].startswith(f"row {i}: ")
            bad.append(rec)
        else:
            assert rec["error"] is None
            assert rec["is_win"] is True
            assert rec["payout"] == next(good_payouts)
    return bad


@pytest.mark.parametrize(("kwargs", "code", "fragments", "waits_too"), CASES)
def test_batch_flags_the_bad_row(kwargs, code, fragments, waits_too):
    records = [GOOD_A, GOOD_B, kwargs, GOOD_A, GOOD_B]
    batch = HandBatch.from_records(records)
    assert batch.error.tolist() == [0, 0, int(code), 0, 0]
    result = score_batch(batch)
    assert result.error.tolist() == [0, 0, int(code), 0, 0]
    (bad,) = _check_good_rows(list(result.to_records()), {2})
    for fragment in fragments:
        assert fragment in bad["error"]
    # the batch message is the single-hand message with the row number in front
    with pytest.raises(ValueError) as info:
        fastscore.score(**kwargs)
    assert bad["error"] == f"row 2: {info.value}"


@pytest.mark.parametrize(("kwargs", "code", "fragments", "waits_too"), [c for c in CASES if c.values[3]])
def test_waits_batch_flags_the_bad_row(kwargs, code, fragments, waits_too):
    good = _waits_kwargs(GOOD_A)
    records = [good, _waits_kwargs(kwargs), good]
    result = fastscore.waits_batch(HandBatch.from_records(records, require_win=False))
    assert result.error.tolist() == [0, int(code), 0]
    got = list(result.to_records())
    # seed hand, seat S: waits on 9s only; discard 40+1+10 = 51 + 5 = 56, self-draw 57
    for i in (0, 2):
        assert got[i] == {"waits": {"9s": {"discard": 56, "self_draw": 57}}, "n_waits": 1, "error": None}
    assert got[1]["waits"] == {} and got[1]["n_waits"] == 0
    for fragment in fragments:
        assert fragment in got[1]["error"]


def test_several_bad_rows_keep_their_own_messages():
    bad_1 = dict(hand="11m99m77p11s9s EE RR 333x", win="9s")
    bad_4 = dict(hand=SEED, win="9s", seat=7)
    records = [GOOD_A, bad_1, GOOD_B, GOOD_A, bad_4, GOOD_B]
    result = score_batch(HandBatch.from_records(records))
    bad = _check_good_rows(list(result.to_records()), {1, 4})
    assert bad[0]["error"] == "row 1: '333x': unknown letter 'x' (suits m p s z, honours E S W N Wh G R)"
    assert bad[1]["error"] == "row 4: seat 7 is not a wind (E, S, W or N)"


def test_record_that_is_not_a_mapping():
    result = score_batch(HandBatch.from_records([GOOD_A, "11m99m77p11s9s EE RR 333p", GOOD_B]))
    (bad,) = _check_good_rows(list(result.to_records()), {1})
    assert "must be a mapping" in bad["error"] and "str" in bad["error"]
    assert result.error[1] == ErrorCode.BAD_TOKEN


def test_record_without_hand_or_win():
    result = score_batch(HandBatch.from_records([GOOD_A, {"win": "9s"}, GOOD_B, {"hand": SEED}]))
    bad = _check_good_rows(list(result.to_records()), {1, 3})
    assert bad[0]["error"] == "row 1: record has no 'hand'"
    assert bad[1]["error"] == "row 3: no winning tile: 'win' is missing or empty (a tile such as '9s', or its index 0-33)"
    assert result.error.tolist() == [0, ErrorCode.BAD_TOKEN, 0, ErrorCode.BAD_WIN]


def test_unforeseen_value_types_flag_the_row_not_the_batch():
    # an array as a flag: comparing it raises inside the record parser; the batch must go on
    records = [GOOD_A, dict(GOOD_A, self_drawn=np.array([1, 0])), GOOD_B]
    result = score_batch(HandBatch.from_records(records))
    (bad,) = _check_good_rows(list(result.to_records()), {1})
    assert "unreadable record" in bad["error"]
    assert result.error[1] == ErrorCode.BAD_CONTEXT


def test_valid_edge_cases_are_not_errors():
    # Closing with a concealed gong is valid (9.14) and scores `closing`
    result = fastscore.score("(1111m) 234p 567s 999s EEE R", "R", closing=True, seat="S")
    assert result.is_win is True
    assert result.rows["closing"] == 5
    # Closing with Nico Nico is valid and never scores (5.1, 9.14): the seed example still pays 57
    assert fastscore.score(SEED, "9s", self_drawn=True, seat="S", closing=True).payout == 57
    # a streak for a non-East winner is valid and scores nothing (9.12)
    assert fastscore.score(SEED, "9s", self_drawn=True, seat="S", streak=3).payout == 57
    # a missing seat or round (None, or an empty CSV cell) is East: East wins the seed example, 56 + east_wins 5
    for missing in (None, ""):
        assert fastscore.score(SEED, "9s", self_drawn=True, seat=missing, round=missing).payout == 62
    # white space of any kind between groups is ignored
    assert fastscore.score(" 11m\t99m 77p11s9s\nEE RR   333p ", "9s", self_drawn=True, seat="S").payout == 57


# --------------------------------------------------------------------------------------------
# HandBatch.from_arrays: counts, declared sets and context columns as arrays
# --------------------------------------------------------------------------------------------

SEED_COUNTS = parse_hand(SEED).concealed
NINE_S = TILE_NAMES.index("9s")
# 123m 456p 789s 234s G + [555z] (white pong), as arrays
PONG_HAND = parse_hand("123m456p789s 234s G [555z]")


def _arrays(n=3):
    """n copies of the seed hand: win 9s, self-drawn, seat S (payout 57 each)."""
    return dict(
        concealed=np.tile(SEED_COUNTS, (n, 1)).astype(np.int64),
        declared=np.zeros((n, 5, 2), dtype=np.int64),
        win=np.full(n, NINE_S),
        self_drawn=True,
        seat=np.full(n, 1),
    )


def _from_arrays(a):
    return HandBatch.from_arrays(a.pop("concealed"), a.pop("declared"), a.pop("win"), **a)


def _check_array_batch(a, code, fragments):
    batch = _from_arrays(a)
    # A value that its column's dtype cannot hold is flagged as the batch is built; any other bad row
    # when a kernel reads it (or by check()).
    assert batch.check().error.tolist() == [0, int(code), 0]
    result = score_batch(batch)
    assert result.error.tolist() == [0, int(code), 0]
    got = list(result.to_records())
    for i in (0, 2):
        assert got[i]["error"] is None and got[i]["is_win"] is True and got[i]["payout"] == 57
    assert got[1]["is_win"] is False and got[1]["payout"] == 0 and got[1]["shape"] is None
    for fragment in ["row 1: ", *fragments]:
        assert fragment in got[1]["error"]
    # waits of the same batch skip the bad row too
    waits = fastscore.waits_batch(batch)
    assert waits.n_waits.tolist() == [1, 0, 1]
    assert waits.mask[1].any() == False  # noqa: E712
    return got[1]["error"]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_from_arrays_good_rows_any_integer_dtype(dtype):
    a = _arrays()
    a["concealed"] = a["concealed"].astype(dtype)
    a["declared"] = a["declared"].astype(dtype)
    a["win"] = a["win"].astype(dtype)
    result = score_batch(_from_arrays(a))
    assert result.payout.tolist() == [57, 57, 57]
    assert result.error.tolist() == [0, 0, 0]


# fmt: off
ARRAY_ROW_CASES = [
    # counts above 4 or negative
    pytest.param("concealed", (1, 0), 5, ErrorCode.BAD_ARRAY, ["count 5 of 1m", "0 to 4"], id="count-5"),
    pytest.param("concealed", (1, 0), 255, ErrorCode.BAD_ARRAY, ["count 255 of 1m", "0 to 4"], id="count-255"),
    pytest.param("concealed", (1, 33), -1, ErrorCode.BAD_ARRAY, ["count -1 of 7z", "0 to 4"], id="count-negative"),
    pytest.param("concealed", (1, 5), np.iinfo(np.int64).min, ErrorCode.BAD_ARRAY, ["of 6m", "0 to 4"],
                 id="count-int64-min"),
    # 256 + the seed's 16 tiles: in uint8 the 256 would wrap to 0
    pytest.param("concealed", (1, 3), 256, ErrorCode.BAD_ARRAY, ["count 256 of 4m", "0 to 4"], id="count-256"),
    # declared sets out of range
    pytest.param("declared", (1, 0, 0), 5, ErrorCode.BAD_SET, ["declared set 0", "kind 5", "kind must be 0-4"],
                 id="declared-kind-5"),
    pytest.param("declared", (1, 2, 0), -1, ErrorCode.BAD_SET, ["declared set 2", "kind -1"], id="declared-kind-negative"),
    pytest.param("declared", (1, 4, 1), 34, ErrorCode.BAD_SET, ["declared set 4", "tile 34", "tile 0-33"],
                 id="declared-tile-34"),
    pytest.param("declared", (1, 0, 1), -1, ErrorCode.BAD_SET, ["tile -1", "tile 0-33"], id="declared-tile-negative"),
    # context columns
    pytest.param("seat", 1, 7, ErrorCode.BAD_CONTEXT, ["seat 7", "0 to 3"], id="seat-7"),
    pytest.param("round", 1, -1, ErrorCode.BAD_CONTEXT, ["round -1", "0 to 3"], id="round-negative"),
    pytest.param("win", 1, 40, ErrorCode.BAD_WIN, ["win 40", "-1 to 33"], id="win-40"),
    pytest.param("win", 1, -1, ErrorCode.BAD_WIN, ["no winning tile"], id="win-missing"),
    pytest.param("streak", 1, -1, ErrorCode.BAD_CONTEXT, ["streak -1", "0 to 1000"], id="streak-negative"),
    pytest.param("streak", 1, 10**12, ErrorCode.BAD_CONTEXT, ["streak 1000000000000", "0 to 1000"], id="streak-huge"),
    pytest.param("flowers", 1, 256, ErrorCode.BAD_CONTEXT, ["flowers 256", "0 to 255"], id="flowers-256"),
]
# fmt: on


@pytest.mark.parametrize(("column", "index", "value", "code", "fragments"), ARRAY_ROW_CASES)
def test_from_arrays_flags_the_bad_row(column, index, value, code, fragments):
    a = _arrays()
    for name in ("streak", "round", "flowers"):
        a[name] = np.zeros(3, dtype=np.int64)
    a[column][index] = value
    _check_array_batch(a, code, fragments)


@pytest.mark.parametrize(
    ("start", "name"),
    [(7, "8m"), (8, "9m"), (16, "8p"), (26, "9s"), (27, "1z"), (31, "5z"), (33, "7z")],
)
def test_from_arrays_sheung_must_start_on_1_to_7_of_a_number_suit(start, name):
    # a declared sheung (kind 1) in place of the pong of 3p: the row is flagged before any kernel sees it
    a = _arrays()
    a["concealed"][1, TILE_NAMES.index("3p")] = 0
    a["declared"][1, 0] = (1, start)
    message = _check_array_batch(a, ErrorCode.BAD_SET, [f"declared sheung 0 starts on {name}", "1-7 of m, p or s"])
    assert message.startswith("row 1: ")


def test_from_arrays_fifth_copy_counts_declared_sets_and_win():
    # row 1: the seed hand's one 9s + a declared pong of 9s (the pong of 3p removed) + win 9s = 5 copies
    a = _arrays()
    a["concealed"][1, TILE_NAMES.index("3p")] = 0
    a["declared"][1, 0] = (2, NINE_S)
    _check_array_batch(a, ErrorCode.FIFTH_COPY, ["5 copies of 9s", "at most 4"])


def test_from_arrays_wrong_tile_total():
    a = _arrays()
    a["concealed"][1, 0] = 0
    _check_array_batch(a, ErrorCode.TILE_COUNT, ["holds 14 tiles", "16"])


def test_from_arrays_closing_with_exposed_set():
    a = _arrays()
    a["concealed"][1] = PONG_HAND.concealed
    a["declared"][1, 0] = PONG_HAND.declared[0]
    a["closing"] = np.array([False, True, False])
    _check_array_batch(a, ErrorCode.BAD_CONTEXT, ["Closing", "exposed set"])


# fmt: off
WHOLE_ARRAY_CASES = [
    pytest.param(dict(concealed=np.zeros(34, dtype=np.int64)), ["shape (N, 34)", "(34,)"], id="1-d"),
    pytest.param(dict(concealed=np.zeros((2, 33), dtype=np.int64)), ["shape (N, 34)", "(2, 33)"], id="33-columns"),
    pytest.param(dict(concealed=np.zeros((2, 34, 1), dtype=np.int64)), ["shape (N, 34)", "(2, 34, 1)"], id="3-d"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=np.float64)), ["integers", "float64"], id="float-counts"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=object)), ["integers", "object"], id="object-counts"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=np.int64), declared=np.zeros((2, 5), dtype=np.int64)),
                 ["declared", "(2, 5, 2)"], id="declared-shape"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=np.int64), declared=np.zeros((2, 5, 2), dtype=np.float32)),
                 ["declared", "integers", "float32"], id="declared-float"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=np.int64), win=np.array([1.0, 2.0])),
                 ["win", "integers", "float64"], id="win-float"),
    pytest.param(dict(concealed=np.zeros((2, 34), dtype=np.int64), seat="S"), ["seat", "integers"], id="seat-string"),
]
# fmt: on


@pytest.mark.parametrize(("kwargs", "fragments"), WHOLE_ARRAY_CASES)
def test_from_arrays_whole_array_problems_raise(kwargs, fragments):
    with pytest.raises(ValueError) as info:
        HandBatch.from_arrays(**kwargs)
    assert info.value.code == ErrorCode.BAD_ARRAY
    for fragment in fragments:
        assert fragment in str(info.value)


def test_from_arrays_column_of_wrong_length_raises():
    with pytest.raises(ValueError, match=r"win must be a scalar or of shape \(3,\) \(one value a row\), got \(2,\)"):
        HandBatch.from_arrays(np.zeros((3, 34), dtype=np.int64), win=np.array([1, 2]))


def test_check_batch_catches_a_batch_filled_in_by_hand():
    # HandBatch.empty(n) "to be filled in": the row checks stop out-of-range values before any kernel reads them.
    batch = HandBatch.empty(4)
    batch.concealed[:] = SEED_COUNTS
    batch.win[:] = NINE_S
    batch.declared[0, 0] = (2, 100)  # tile out of range: would write past the count vector
    batch.seat[1] = 9
    batch.streak[2] = -5
    fastscore.checks.check_batch(batch, require_win=True)
    assert batch.error.tolist() == [ErrorCode.BAD_SET, ErrorCode.BAD_CONTEXT, ErrorCode.BAD_CONTEXT, 0]
    assert batch.messages[0] == "row 0: declared set 0 is (kind 2, tile 100); kind must be 0-4 (SetKind) and tile 0-33"
    assert batch.messages[1] == "row 1: seat 9 is out of range (0 to 3)"
    assert batch.messages[2] == "row 2: streak -5 is out of range (0 to 1000)"
    assert score_batch(batch).payout.tolist() == [0, 0, 0, 61]  # row 3: seat E, discard: 56 + east_wins 5


UNVALIDATED_BATCH = """
import numpy as np
import fastscore
from fastscore import HandBatch
batch = HandBatch.empty(2)          # documented as "to be filled in"; nothing validates it afterwards
batch.concealed[:, 0] = 16
batch.win[:] = 0
batch.declared[1, 0] = (2, 120)     # a pong of tile 120: the kernels would write past the count vector
scores = fastscore.score_batch(batch)
waits = fastscore.waits_batch(batch)
print(scores.error.tolist(), waits.error.tolist())
"""


def test_scoring_an_unvalidated_batch_flags_rows_instead_of_crashing():
    """score_batch and waits_batch check a hand-filled batch before the kernels read it (fastscore.checks)."""
    import subprocess
    import sys

    # In a subprocess: an out-of-bounds write in a kernel may kill the interpreter.
    proc = subprocess.run([sys.executable, "-c", UNVALIDATED_BATCH], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # row 0: 16 copies of 1m (+ the win) -> FIFTH_COPY; row 1: declared tile 120 -> BAD_SET
    assert (ErrorCode.FIFTH_COPY, ErrorCode.BAD_SET) == (4, 2)
    assert proc.stdout.split("\n")[0] == "[4, 2] [4, 2]"
