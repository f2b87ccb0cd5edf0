"""fastscore.tiles: the tile table, notation parse/format (RULES.md sections 1, 8, 9.15)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastscore
from fastscore import ErrorCode, HandError, SetKind, parse_hand, parse_tile
from fastscore.tiles import HONOUR_LETTERS, TILE_NAMES, format_counts, format_set, format_tile, parse_flowers
from strategies import winning_hands

SEED = "11m99m77p11s9s EE RR 333p"
FILLER_13 = "123m456p789s123s4s"  # 13 concealed tiles: with one declared set, a 16-tile hand


# --------------------------------------------------------------------------------------------
# The tile table (section 1)
# --------------------------------------------------------------------------------------------


def test_tile_table_is_tenhou_order():
    assert len(TILE_NAMES) == 34
    assert TILE_NAMES[:9] == tuple(f"{n}m" for n in range(1, 10))
    assert TILE_NAMES[9:18] == tuple(f"{n}p" for n in range(1, 10))
    assert TILE_NAMES[18:27] == tuple(f"{n}s" for n in range(1, 10))
    assert TILE_NAMES[27:] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")


@pytest.mark.parametrize("tile", range(34))
def test_parse_tile_inverts_format_tile(tile):
    assert parse_tile(format_tile(tile)) == tile
    assert parse_tile(f" {format_tile(tile)} ") == tile


@pytest.mark.parametrize(
    ("letter", "tile"), [("E", 27), ("S", 28), ("W", 29), ("N", 30), ("Wh", 31), ("G", 32), ("R", 33)]
)
def test_honour_letters(letter, tile):
    assert parse_tile(letter) == tile
    assert HONOUR_LETTERS[tile - 27] == letter
    assert parse_tile(f"{tile - 26}z") == tile


@pytest.mark.parametrize("text", ["s", "e", "wh", "WH", "5", "5x", "55p", "", "0p", "8z", "9z", "1f", "Whh", "5 p"])
def test_parse_tile_rejects(text):
    with pytest.raises(HandError) as info:
        parse_tile(text)
    assert info.value.code in (ErrorCode.BAD_TOKEN, ErrorCode.BAD_WIN)
    assert repr(text) in str(info.value) or repr(text.strip()) in str(info.value)


# --------------------------------------------------------------------------------------------
# Parse / format round trips
# --------------------------------------------------------------------------------------------

# fmt: off
ROUND_TRIPS = [
    # input, canonical format_counts of the concealed tiles
    (SEED, "1199m33377p119s1177z"),
    ("1199m33377p119s1177z", "1199m33377p119s1177z"),
    ("123m456p789s 234s G [555z]", "123m456p234789s6z"),
    ("WhWhWhW WWW EEE SSS NNN", "1112223333444555z"),
    ("123s SSS 456s NNN 789s E", "123456789s1222444z"),
    ("9m8m7m 9p8p7p 9s8s7s 1z2z3z4z5z6z7z", "789m789p789s1234567z"),
    ("(1111m) [999s] 55p 123m 456p 78s", "123m45556p78s"),
]
# fmt: on


@pytest.mark.parametrize(("text", "canonical"), ROUND_TRIPS)
def test_format_counts_of_parsed_hand(text, canonical):
    hand = parse_hand(text)
    assert format_counts(hand.concealed) == canonical
    again = parse_hand(canonical + "".join(f" {format_set(k, t)}" for k, t in hand.declared))
    assert np.array_equal(again.concealed, hand.concealed)
    assert again.declared == hand.declared
    assert again.n_tiles == 16


def test_parsed_hand_fields():
    hand = parse_hand("123m456p789s 234s G [555z]")
    assert hand.concealed.dtype == np.uint8
    assert hand.concealed.shape == (34,)
    assert hand.declared == ((SetKind.PONG, 31),)
    assert hand.n_tiles == 16
    assert format_counts(np.zeros(34, dtype=np.uint8)) == ""


@st.composite
def count_vectors(draw):
    """A (34,) uint8 vector of 16 tiles, at most 4 of a kind."""
    counts = np.zeros(34, dtype=np.uint8)
    for tile in draw(st.lists(st.integers(0, 33), min_size=16, max_size=16)):
        while counts[tile] == 4:  # a full kind: take the next one
            tile = (tile + 1) % 34
        counts[tile] += 1
    return counts


@given(count_vectors())
def test_count_vector_round_trip(counts):
    text = format_counts(counts)
    hand = parse_hand(text)
    assert np.array_equal(hand.concealed, counts)
    assert hand.declared == ()
    assert format_counts(hand.concealed) == text


# --------------------------------------------------------------------------------------------
# Honour letters: Wh before W, case-sensitive S vs s (9.15)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("WWh", [29, 31]),
        ("WhW", [31, 29]),
        ("WWhW", [29, 31, 29]),
        ("WhWh", [31, 31]),
        ("1sS", [18, 28]),
        ("S1s", [28, 18]),
        ("11sSS", [18, 18, 28, 28]),
        ("NWhG", [30, 31, 32]),
    ],
)
def test_honour_letter_reading(text, tiles):
    # 16 tiles: the group under test + filler of distinct number tiles
    filler = [t for t in range(27) if t not in tiles][: 16 - len(tiles)]
    hand = parse_hand(text + " " + format_counts(np.bincount(filler, minlength=34)))
    expected = np.bincount(tiles + filler, minlength=34)
    assert np.array_equal(hand.concealed, expected)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Ss 123m456p789s123s", "suit letter 's' has no digits before it"),
        ("1S 123m456p789s123s4s", "digits '1' have no suit letter"),
        ("Whh 123m456p789s123s", "unknown letter 'h'"),
        ("wh 123m456p789s123s4s", "unknown letter 'w'"),
        ("WH 123m456p789s123s4s", "unknown letter 'H'"),
        ("e 123m456p789s123s4s5s", "unknown letter 'e'"),
    ],
)
def test_honour_letters_are_case_sensitive(text, fragment):
    with pytest.raises(HandError) as info:
        parse_hand(text)
    assert info.value.code == ErrorCode.BAD_TOKEN
    assert fragment in str(info.value)


# --------------------------------------------------------------------------------------------
# Declared sets in either notation (9.15)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notations", "expected"),
    [
        (["[EEE]", "[111z]", "[1z1z1z]", "[E1zE]"], (SetKind.PONG, 27)),
        (["[RRR]", "[777z]"], (SetKind.PONG, 33)),
        (["(WhWhWhWh)", "(5555z)", "(Wh5zWh5z)"], (SetKind.CONCEALED_GONG, 31)),
        (["[WhWhWhWh]", "[5555z]"], (SetKind.GONG, 31)),
        (["[1m2m3m]", "[123m]", "[312m]", "[2m13m]"], (SetKind.SHEUNG, 0)),
        (["[789s]", "[7s8s9s]"], (SetKind.SHEUNG, 24)),
        (["[7777p]", "[77p77p]"], (SetKind.GONG, 15)),
        (["(9999s)"], (SetKind.CONCEALED_GONG, 26)),
    ],
)
def test_declared_set_notations(notations, expected):
    for text in notations:
        hand = parse_hand(f"{text} {FILLER_13}")
        assert hand.declared == (expected,)
        assert hand.n_tiles == 16
    # format_set writes the canonical form, which parses back to the same set
    assert parse_hand(f"{format_set(*expected)} {FILLER_13}").declared == (expected,)


@pytest.mark.parametrize("kind", [SetKind.SHEUNG, SetKind.PONG, SetKind.GONG, SetKind.CONCEALED_GONG])
def test_format_set_round_trip_every_set(kind):
    tiles = [t for t in range(27) if t % 9 <= 6] if kind == SetKind.SHEUNG else range(34)
    for tile in tiles:
        text = format_set(kind, tile)
        assert text[0] == ("(" if kind == SetKind.CONCEALED_GONG else "[")
        assert parse_hand(f"{text} {FILLER_13}").declared == ((kind, tile),)


def test_declared_set_notations_score_the_same():
    # [EEE] pong + 123m 456p 789s 234s + G, won on G (GG eyes): every notation gives the same Score
    scores = {
        text: fastscore.score(f"{text} 123m456p789s234s G", "G", seat="S")
        for text in ("[EEE]", "[111z]", "[1z1z1z]", "[E1zE]")
    }
    # single_wait 1 (only G completes) + no_flowers 1 + all_five_suits 10 + wind_pong 2 (East pong 1, +1 round
    # wind E; seat is S) + mixed_dragon_concealed 10 (123m 456p 789s) = 24, + base 5 = 29
    first = scores["[EEE]"]
    assert first.rows == {"single_wait": 1, "no_flowers": 1, "all_five_suits": 10, "wind_pong": 2,
                          "mixed_dragon_concealed": 10, "mahjong_base": 5}
    assert first.total == 29
    assert all(s == first for s in scores.values())


# --------------------------------------------------------------------------------------------
# Flowers: 1f2f, 12f, 1f 2f (9.15)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["2f6f", "26f", "2f 6f", "6f2f", "62f", " 6f  2f ", "2f\t6f"])
def test_flower_notations(text):
    assert parse_flowers(text) == (2, 6)


def test_flowers_empty_and_all():
    assert parse_flowers("") == ()
    assert parse_flowers(None) == ()
    assert parse_flowers("12345678f") == (1, 2, 3, 4, 5, 6, 7, 8)
    assert parse_flowers("1f2f3f4f 5f6f7f8f") == (1, 2, 3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize("text", ["2f6f", "26f", "2f 6f"])
def test_flower_notations_score_the_same(text):
    # Seed hand, seat S, self-drawn, flower 2 and season 6 (both South's):
    # nico_nico 40 + self_draw 1 + all_five_suits 10 + seat_flower 2x1 = 53 (no_flowers gone), + base 5 = 58
    result = fastscore.score(SEED, "9s", self_drawn=True, seat="S", flowers=text)
    assert result.rows == {"self_draw": 1, "seat_flower": 2, "all_five_suits": 10, "nico_nico": 40, "mahjong_base": 5}
    assert result.payout == 58


# --------------------------------------------------------------------------------------------
# Tile order invariance
# --------------------------------------------------------------------------------------------


def _sorted_declared(hand):
    return sorted((int(k), int(t)) for k, t in hand.declared)


@pytest.mark.parametrize(
    "text",
    [
        "333p RR EE 9s11s 77p 99m11m",
        "RREE 333p77p 9s 1s1s 9m1m9m1m",
        "7z7z1z1z 9s11s 3p7p3p7p3p 9191m",
    ],
)
def test_seed_example_in_any_order(text):
    hand, seed = parse_hand(text), parse_hand(SEED)
    assert np.array_equal(hand.concealed, seed.concealed)
    assert hand.declared == seed.declared == ()
    assert fastscore.score(text, "9s", self_drawn=True, seat="S").total == 57


def _tile_text(tile: int, rng: random.Random) -> str:
    if tile >= 27 and rng.random() < 0.5:
        return HONOUR_LETTERS[tile - 27]
    return TILE_NAMES[tile]


def _set_text(kind: SetKind, tile: int, rng: random.Random) -> str:
    tiles = [tile, tile + 1, tile + 2] if kind == SetKind.SHEUNG else [tile] * (3 if kind == SetKind.PONG else 4)
    rng.shuffle(tiles)
    body = "".join(_tile_text(t, rng) for t in tiles)
    return f"({body})" if kind == SetKind.CONCEALED_GONG else f"[{body}]"


def rewrite(hand_text: str, rng: random.Random) -> str:
    """The same 16 tiles, shuffled, each tile in a random notation, groups in random order."""
    hand = parse_hand(hand_text)
    tiles = [t for t in range(34) for _ in range(int(hand.concealed[t]))]
    rng.shuffle(tiles)
    groups, i = [], 0
    while i < len(tiles):
        size = rng.randint(1, 5)
        groups.append("".join(_tile_text(t, rng) for t in tiles[i : i + size]))
        i += size
    groups += [_set_text(SetKind(k), t, rng) for k, t in hand.declared]
    rng.shuffle(groups)
    return rng.choice([" ", "  ", "\t"]).join(groups)


@given(winning_hands(), st.randoms(use_true_random=False))
def test_tile_order_invariance(drawn, rng):
    hand_text, win, ctx = drawn
    other = rewrite(hand_text, rng)
    a, b = parse_hand(hand_text), parse_hand(other)
    assert np.array_equal(a.concealed, b.concealed)
    assert _sorted_declared(a) == _sorted_declared(b)
    assert fastscore.score(hand_text, win, **ctx) == fastscore.score(other, win, **ctx)


def test_long_bad_hand_message_is_cut_and_the_split_check_is_linear():
    from fastscore.tiles import _SPLIT_GROUP, parse_hand

    with pytest.raises(ValueError) as info:
        parse_hand("1" * 200_000 + "m")  # the split search used to rescan the digit run from every start
    message = str(info.value)
    assert message.startswith("'" + "1" * 60 + "'... (200,001 characters) holds 200000 tiles")
    assert len(message) < 200
    # the search still finds the first run of digits followed by white space, whole
    assert _SPLIT_GROUP.search("123m 45 6p").group(1) == "45"
    assert _SPLIT_GROUP.search("12 3m").group(1) == "12"
    assert _SPLIT_GROUP.search("123m 456p") is None
