"""The predicates of the catalog rows beyond the LRC rules: the rows of the Taiwanese tai tables
(docs/profiles/taiwan.md) and of the HK-style Taiwanese table (docs/profiles/hk-taiwanese.md), not in force
in the LRC table.

Each predicate reads one :class:`fastscore.kernels.features.Features` record and returns the row's units,
as those of :mod:`fastscore.kernels.rows`, whose registry lists them.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..events import Event
from .bits import ctpop64
from .decompose import HONOUR_BITS, ORPHAN_BITS
from .features import HONOURS, SUIT_M, SUIT_P, SUIT_S, Shape

__all__ = ["concealed_pong_count", "three_concealed_pongs", "four_concealed_pongs", "five_concealed_pongs",
           "round_wind_pong", "seat_wind_pong", "ping_hu", "all_exposed", "eight_flowers", "dealer", "dealer_streak",
           "last_tile_draw", "last_tile_discard", "after_gong", "robbing_gong", "heavenly_win", "earthly_win",
           "heavenly_ready", "earthly_ready", "missing_one_suit", "all_sheungs", "two_concealed_pongs",
           "non_seat_wind_pong", "concealed_gong", "seven_tile_hand", "ten_tile_hand", "semi_beggar",
           "all_concealed_pongs", "mixed_flower", "seat_flower_outside_set", "all_simples", "mixed_terminals",
           "pure_terminals", "mixed_outside", "pure_outside", "mixed_with_x", "pure_with_x", "linear_pongs",
           "double_brothers", "small_triple_brothers", "big_triple_brothers", "small_triple_sisters",
           "big_triple_sisters", "mixed_straight", "mixed_straight_concealed", "false_solo", "pung_wait",
           "super_eight_pairs", "human_win", "has_event", "near_pongs", "straight_starts", "few_starts"]

# Event bits as plain ints (numba freezes module globals as constants).
_LAST_TILE, _AFTER_GONG, _ROBBING_GONG = int(Event.LAST_TILE), int(Event.AFTER_GONG), int(Event.ROBBING_GONG)
_HEAVENLY, _EARTHLY = int(Event.HEAVENLY), int(Event.EARTHLY)
_READY_FIRST, _READY_EARLY, _HUMAN = int(Event.READY_FIRST), int(Event.READY_EARLY), int(Event.HUMAN)


@jit_inline
def _win_in_concealed_sheung(f):
    """The winning tile can be read as completing one of the interpretation's concealed sheungs."""
    w = f.win
    suit = w // 9
    starts = f.concealed_m if suit == 0 else (f.concealed_p if suit == 1 else f.concealed_s)
    # Sheungs starting at numbers n-2 .. n hold number n (bits of the 7-bit start mask).
    return np.int64(w < 27) & np.int64((starts & ((7 << (w % 9)) >> 2)) != 0)


@jit_inline
def concealed_pong_count(f):
    """Concealed pongs and gongs of the interpretation as the Taiwanese family counts them: a pong that a
    discard completes is exposed, unless the winning tile can be read as completing a concealed sheung."""
    claimed = ((f.concealed_pongs >> f.win) & 1) & (1 - f.self_drawn) & (1 - _win_in_concealed_sheung(f))
    return ctpop64(np.int64(f.concealed_pongs)) - claimed


@jit_inline
def three_concealed_pongs(f):
    """Three concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 3)


@jit_inline
def four_concealed_pongs(f):
    """Four concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 4)


@jit_inline
def five_concealed_pongs(f):
    """Five concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 5)


@jit_inline
def round_wind_pong(f):
    """A pong or gong of the round wind."""
    return (f.pongs >> (27 + f.round_wind)) & 1


@jit_inline
def seat_wind_pong(f):
    """A pong or gong of the winner's seat wind."""
    return (f.pongs >> (27 + f.seat)) & 1


@jit_inline
def _two_sided_win(f):
    """The winning tile completes a concealed sheung of the interpretation at an end whose other two tiles
    were open on both sides (not a 12 or an 89): a two-sided wait."""
    w = f.win
    n = w % 9
    suit = w // 9
    starts = f.concealed_m if suit == 0 else (f.concealed_p if suit == 1 else f.concealed_s)
    low = ((starts >> n) & 1) & np.int64(n <= 5)  # the win is the low end of n, n+1, n+2; n+1, n+2 not 8 9
    high = ((starts >> max(n - 2, 0)) & 1) & np.int64(n >= 3)  # the high end of n-2 .. n; n-2, n-1 not 1 2
    return np.int64(w < 27) & (low | high)


@jit_inline
def ping_hu(f):
    """Five sheungs, no honour and no flower, won on a discard that completes a two-sided wait."""
    return (np.int64(f.n_sheungs == 5) & np.int64((f.word & HONOURS) == 0) & np.int64(f.flowers == 0) & (1 - f.self_drawn)
            & _two_sided_win(f))


@jit_inline
def all_exposed(f):
    """Five exposed declared sets, the eyes completed on a discard."""
    return np.int64(f.exposed_sets == 5) & (1 - f.self_drawn)


@jit_inline
def eight_flowers(f):
    """All eight flowers and seasons."""
    return np.int64(f.flowers == 0xFF)


@jit_inline
def dealer(f):
    """The winner is the dealer (East seat)."""
    return np.int64(f.seat == 0)


@jit_inline
def dealer_streak(f):
    """One unit per dealer streak, for the dealer (East seat)."""
    return f.streak * np.int64(f.seat == 0)


# ---------------------------------------------------------------------------------------------- timing events
# Each reads the win's events (fastscore.events) and the way it was won, so that an event the win cannot
# have (after_gong on a discard) scores nothing, and waits analysis, scoring both ways, counts it only
# in the way it can happen.

@jit_inline
def has_event(f, bit):
    """1 when the record's ``events`` hold the event ``bit`` (a :class:`fastscore.events.Event` value), else 0."""
    return np.int64((f.events & bit) != 0)


@jit_inline
def last_tile_draw(f):
    """Self-drew the last tile of the wall."""
    return f.self_drawn & has_event(f, _LAST_TILE)


@jit_inline
def last_tile_discard(f):
    """Won on the discard after the last tile of the wall was drawn."""
    return (1 - f.self_drawn) & has_event(f, _LAST_TILE)


@jit_inline
def after_gong(f):
    """Self-drew the winning tile as the replacement tile after a gong."""
    return f.self_drawn & has_event(f, _AFTER_GONG)


@jit_inline
def robbing_gong(f):
    """Won on the tile another player added to an exposed pong to make a gong."""
    return (1 - f.self_drawn) & has_event(f, _ROBBING_GONG)


@jit_inline
def heavenly_win(f):
    """The dealer (East seat) won by self-draw on the dealt tiles."""
    return f.self_drawn & np.int64(f.seat == 0) & has_event(f, _HEAVENLY)


@jit_inline
def earthly_win(f):
    """Won on the first discard of the hand, or by self-draw on one's first draw, before any claim."""
    return has_event(f, _EARTHLY)


@jit_inline
def heavenly_ready(f):
    """Ready (Closing) declared with the first discard of the hand."""
    return f.closing & has_event(f, _READY_FIRST)


@jit_inline
def earthly_ready(f):
    """Ready (Closing) declared in the first go-around, before any claim."""
    return f.closing & has_event(f, _READY_EARLY)


# ---------------------------------------------------------------------------------------------- HK-style Taiwanese

@jit_inline
def missing_one_suit(f):
    """Exactly two of the three number suits; honours allowed (hk-taiwanese o-1)."""
    w = f.word
    return np.int64(np.int64((w & SUIT_M) != 0) + np.int64((w & SUIT_P) != 0) + np.int64((w & SUIT_S) != 0) == 2)


@jit_inline
def all_sheungs(f):
    """Five sheungs, declared ones included; any eyes, any wait (hk-taiwanese b-5)."""
    return np.int64(f.n_sheungs == 5)


@jit_inline
def two_concealed_pongs(f):
    """Two concealed pongs (:func:`concealed_pong_count`; hk-taiwanese d-1)."""
    return np.int64(concealed_pong_count(f) == 2)


@jit_inline
def non_seat_wind_pong(f):
    """One unit per pong or gong of a wind other than the winner's seat wind (hk-taiwanese f-2)."""
    return ctpop64(np.int64((f.pongs >> 27) & 15 & ~(1 << f.seat)))


@jit_inline
def _concealed_gongs(f):
    """Declared concealed gongs: declared gongs that are not exposed."""
    return ctpop64(np.int64(f.gongs & f.concealed_pongs))


@jit_inline
def concealed_gong(f):
    """One unit per declared concealed gong (hk-taiwanese f-8)."""
    return _concealed_gongs(f)


@jit_inline
def seven_tile_hand(f):
    """Three or more declared sets, concealed gongs included: seven or fewer concealed tiles before the win
    (hk-taiwanese e-6)."""
    return np.int64(f.exposed_sets + _concealed_gongs(f) >= 3)


@jit_inline
def ten_tile_hand(f):
    """Exactly two declared sets, concealed gongs included: ten concealed tiles before the win
    (hk-taiwanese e-7)."""
    return np.int64(f.exposed_sets + _concealed_gongs(f) == 2)


@jit_inline
def semi_beggar(f):
    """Five exposed declared sets, won by self-draw (hk-taiwanese e-8; on a discard: ``all_exposed``)."""
    return np.int64(f.exposed_sets == 5) & f.self_drawn


@jit_inline
def all_concealed_pongs(f):
    """Five concealed pongs or concealed gongs, won by self-draw (hk-taiwanese p-6)."""
    return np.int64(ctpop64(np.int64(f.concealed_pongs)) == 5) & f.self_drawn


@jit_inline
def _loose_flowers(f):
    """The flowers that are in no complete set of four (bits as ``f.flowers``)."""
    low = f.flowers & 0x0F
    high = f.flowers & 0xF0
    return low * np.int64(low != 0x0F) | high * np.int64(high != 0xF0)


@jit_inline
def mixed_flower(f):
    """One unit per flower that is in no complete set and is not of the seat's number (hk-taiwanese f-1)."""
    seat_bits = np.int64(0x11) << f.seat
    return ctpop64(np.int64(_loose_flowers(f) & ~seat_bits))


@jit_inline
def seat_flower_outside_set(f):
    """One unit per flower of the seat's number that is in no complete set (hk-taiwanese f-5)."""
    seat_bits = np.int64(0x11) << f.seat
    return ctpop64(np.int64(_loose_flowers(f) & seat_bits))


# Tile kinds as 34-bit masks (bit t for tile t).
_TERMINALS = sum(1 << (9 * s + n) for s in range(3) for n in (0, 8))
_SIMPLES = sum(1 << (9 * s + n) for s in range(3) for n in range(1, 8))
#: Bit n of each number suit's 9 bits: the tiles numbered n + 1.
_EACH_SUIT = 1 | 1 << 9 | 1 << 18
_THIRTEEN, _SIXTEEN, _NICO, _STANDARD = int(Shape.THIRTEEN_ORPHANS), int(Shape.SIXTEEN_ORPHANS), \
    int(Shape.NICO_NICO), int(Shape.STANDARD)


@jit_inline
def _sheung_tiles(starts, suit):
    """The tiles of the sheungs starting at the 7-bit ``starts`` of number suit ``suit``, as a 34-bit mask."""
    return (starts | starts << 1 | starts << 2) << (9 * suit)


@jit_inline
def _kinds(f):
    """The tile kinds of the interpretation, declared sets included, as a 34-bit mask (every shape; branch-free)."""
    eyes = np.int64(f.eyes >= 0) << (f.eyes & 63)
    sixteen = HONOUR_BITS | f.orphans_m | f.orphans_p << 9 | f.orphans_s << 18
    return (f.pongs | f.pairs | eyes | _sheung_tiles(f.sheungs_m, 0) | _sheung_tiles(f.sheungs_p, 1)
            | _sheung_tiles(f.sheungs_s, 2) | np.int64(f.shape == _THIRTEEN) * ORPHAN_BITS
            | np.int64(f.shape == _SIXTEEN) * sixteen)


@jit_inline
def all_simples(f):
    """Every tile a number 2 to 8 (hk-taiwanese t-1)."""
    return np.int64((_kinds(f) & (_TERMINALS | HONOUR_BITS)) == 0)


@jit_inline
def mixed_terminals(f):
    """Every tile a 1, a 9 or an honour, with at least one honour and one terminal (hk-taiwanese t-4)."""
    k = _kinds(f)
    return np.int64((k & _SIMPLES) == 0) & np.int64((k & HONOUR_BITS) != 0) & np.int64((k & _TERMINALS) != 0)


@jit_inline
def pure_terminals(f):
    """Every tile a 1 or a 9 (hk-taiwanese t-5)."""
    return np.int64((_kinds(f) & ~_TERMINALS) == 0)


@jit_inline
def few_starts(f):
    """Gate of the terminal and outside rows (:attr:`fastscore.kernels.rows.Row.gate`): no sheung starts at a
    number from 2 to 6, so that every sheung holds a 1 or a 9 (1 or 0)."""
    return np.int64(((f.sheungs_m | f.sheungs_p | f.sheungs_s) & 62) == 0)


@jit_inline
def _outside(f):
    """Standard shape: every group (sets and eyes, declared ones included) holds a 1, a 9 or an honour."""
    starts = f.sheungs_m | f.sheungs_p | f.sheungs_s
    eyes = np.int64(1) << (f.eyes & 63)
    return (np.int64(f.shape == _STANDARD) & np.int64((f.pongs & _SIMPLES) == 0) & np.int64((starts & ~65) == 0)
            & np.int64((eyes & ORPHAN_BITS) != 0))


@jit_inline
def mixed_outside(f):
    """Every group holds a 1, a 9 or an honour, and the hand holds an honour (hk-taiwanese t-2)."""
    return _outside(f) & np.int64((f.word & HONOURS) != 0)


@jit_inline
def pure_outside(f):
    """Every group holds a 1 or a 9: no honour (hk-taiwanese t-3)."""
    return _outside(f) & np.int64((f.word & HONOURS) == 0)


@jit_inline
def _with_x(f):
    """Standard shape: for one number X from 2 to 8, every group of number tiles (declared sets and the eyes
    included) holds a tile numbered X."""
    # The numbers X (bit x for number x + 1, 2 to 8) that each kind of group allows, all at once.
    # Pongs: every number pong has number X, so their numbers are X alone (or there is none).
    numbers = (f.pongs | (f.pongs >> 9) | (f.pongs >> 18)) & 511
    by_pongs = (numbers | -np.int64(numbers == 0)) & -np.int64((numbers & (numbers - 1)) == 0)
    # Sheungs: the sheung starting at k holds X when k <= X <= k + 2, so the highest start <= X <= the
    # lowest start + 2: below the highest start (``down >> 1``) and from the lowest start + 3 (``up << 3``) are out.
    starts = f.sheungs_m | f.sheungs_p | f.sheungs_s
    down = starts | (starts >> 1)
    down |= down >> 2
    down |= down >> 4
    up = starts | (starts << 1)
    up |= up << 2
    up |= up << 4
    by_sheungs = ~(down >> 1) & ~(up << 3)
    # Eyes of a number suit: their number.
    number_eyes = np.int64(f.eyes >= 0) & np.int64(f.eyes < 27)
    by_eyes = (np.int64(1) << (f.eyes % 9 * number_eyes)) | -(1 - number_eyes)
    return np.int64((by_pongs & by_sheungs & by_eyes & 254) != 0) & np.int64(f.shape == _STANDARD)


@jit_inline
def mixed_with_x(f):
    """Every number group holds the same number X (2 to 8), and some group is of honours (hk-taiwanese x-1)."""
    return _with_x(f) & np.int64((f.word & HONOURS) != 0)


@jit_inline
def pure_with_x(f):
    """Every group holds the same number X (2 to 8): no honour (hk-taiwanese x-2)."""
    return _with_x(f) & np.int64((f.word & HONOURS) == 0)


@jit_inline
def near_pongs(f):
    """Gate of the rows of pongs of related numbers (:attr:`fastscore.kernels.rows.Row.gate`): pongs or gongs of
    one number in two suits, or two in one suit at most two numbers apart, or of its 1 and its 9 (1 or 0)."""
    m = f.pongs & 511
    p = (f.pongs >> 9) & 511
    s = (f.pongs >> 18) & 511
    near = (m & ((m >> 1) | (m >> 2) | (m >> 8))) | (p & ((p >> 1) | (p >> 2) | (p >> 8))) \
        | (s & ((s >> 1) | (s >> 2) | (s >> 8)))
    return np.int64(((m & p) | (m & s) | (p & s) | near) != 0)


@jit_inline
def linear_pongs(f):
    """One unit per number suit with a pong or gong of its 1 and one of its 9 (hk-taiwanese h-2)."""
    ones = f.pongs & _EACH_SUIT
    nines = (f.pongs >> 8) & _EACH_SUIT
    return ctpop64(np.int64(ones & nines))


@jit_inline
def _brothers(f):
    """Per number (9 bits, bit n for number n + 1): pongs of it in three suits; in two suits with the eyes of
    that number in the third."""
    m = f.pongs & 511
    p = (f.pongs >> 9) & 511
    s = (f.pongs >> 18) & 511
    eyes = np.int64(f.eyes >= 0) & np.int64(f.eyes < 27)
    bit = eyes << (f.eyes % 9)
    em = bit * np.int64(f.eyes // 9 == 0)
    ep = bit * np.int64(f.eyes // 9 == 1)
    es = bit * np.int64(f.eyes // 9 == 2)
    three = m & p & s
    small = (m & p & es) | (m & s & ep) | (p & s & em)
    two = ((m & p) | (m & s) | (p & s)) & ~three
    return three, small, two


@jit_inline
def big_triple_brothers(f):
    """Pongs or gongs of one number in all three suits (hk-taiwanese h-5)."""
    return np.int64(_brothers(f)[0] != 0)


@jit_inline
def small_triple_brothers(f):
    """Pongs of one number in two suits and the eyes of that number in the third (hk-taiwanese h-4)."""
    return np.int64(_brothers(f)[1] != 0)


@jit_inline
def double_brothers(f):
    """One unit per number with pongs in exactly two suits, the eyes not that number in the third
    (hk-taiwanese h-3)."""
    _, small, two = _brothers(f)
    return ctpop64(np.int64(two & ~small))


@jit_inline
def _sisters(x):
    """Starts of three pongs of consecutive numbers in one suit's 9-bit pong mask ``x``."""
    return x & (x >> 1) & (x >> 2)


@jit_inline
def big_triple_sisters(f):
    """Pongs or gongs of three consecutive numbers in one suit (hk-taiwanese h-7)."""
    m = f.pongs & 511
    p = (f.pongs >> 9) & 511
    s = (f.pongs >> 18) & 511
    return np.int64((_sisters(m) | _sisters(p) | _sisters(s)) != 0)


@jit_inline
def small_triple_sisters(f):
    """The eyes and pongs of the other two numbers of a run of three consecutive numbers, in a suit without
    big triple sisters (hk-taiwanese h-6)."""
    number = np.int64(f.eyes >= 0) & np.int64(f.eyes < 27)
    suit = f.eyes // 9 * number
    n = f.eyes % 9 * number
    x = (f.pongs >> (9 * suit)) & 511
    with_eyes = x | (number << n)
    runs = _sisters(with_eyes) & (((7 << n) >> 2) & 511)
    return number & np.int64(runs != 0) & np.int64(_sisters(x) == 0)


@jit_inline
def _mixed_straight(m, p, s):
    """Sheungs 123, 456 and 789 (starts 0, 3, 6 of the 7-bit masks) in the number suits, not all in one."""
    ones = (m & 1) + (p & 1) + (s & 1)
    fours = ((m >> 3) & 1) + ((p >> 3) & 1) + ((s >> 3) & 1)
    sevens = ((m >> 6) & 1) + ((p >> 6) & 1) + ((s >> 6) & 1)
    pure = np.int64((m & 73) == 73) + np.int64((p & 73) == 73) + np.int64((s & 73) == 73)
    return np.int64(ones * fours * sevens > pure)


@jit_inline
def straight_starts(f):
    """Gate of the mixed straight rows (:attr:`fastscore.kernels.rows.Row.gate`): sheungs, concealed or not,
    start at 1, 4 and 7 of some suits (1 or 0)."""
    starts = f.sheungs_m | f.sheungs_p | f.sheungs_s | f.concealed_m | f.concealed_p | f.concealed_s
    return np.int64((starts & 73) == 73)


@jit_inline
def mixed_straight(f):
    """123, 456 and 789 in two or three suits (hk-taiwanese dr-1)."""
    return _mixed_straight(f.sheungs_m, f.sheungs_p, f.sheungs_s)


@jit_inline
def mixed_straight_concealed(f):
    """123, 456 and 789 in two or three suits, all three concealed (hk-taiwanese dr-3)."""
    return _mixed_straight(f.concealed_m, f.concealed_p, f.concealed_s)


@jit_inline
def false_solo(f):
    """The winning tile completes the eyes (standard shape) or a pair (Nico Nico), and the 16 tiles had more
    than one wait (hk-taiwanese b-2)."""
    eyes = np.int64(f.shape == _STANDARD) & np.int64(f.eyes == f.win)
    pair = np.int64(f.shape == _NICO) & ((f.pairs >> f.win) & 1)
    return (eyes | pair) & (1 - f.single_wait)


@jit_inline
def pung_wait(f):
    """Standard shape: the winning tile completes a concealed pong, and the 16 tiles had more than one wait
    (hk-taiwanese b-8)."""
    return np.int64(f.shape == _STANDARD) & ((f.concealed_pongs >> f.win) & 1) & (1 - f.single_wait)


@jit_inline
def super_eight_pairs(f):
    """Nico Nico whose 16 tiles were eight pairs: the winning tile makes the pong (hk-taiwanese p-5)."""
    return np.int64(f.shape == _NICO) & ((f.pongs >> f.win) & 1)


@jit_inline
def human_win(f):
    """Won in the first go-around after the dealer's first discard, before any claim (event ``human``;
    mahjong16 ``ren_hu``, hk-taiwanese e-11)."""
    return has_event(f, _HUMAN)
