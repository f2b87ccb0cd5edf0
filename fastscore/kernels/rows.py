"""The scoring rows of LRC rules section 4: one predicate per row and the one registry of rows.

Each predicate (``jit_inline``: inlined into the evaluators) reads one
:class:`fastscore.kernels.features.Features` record and returns the row's *units* as an int64: 0 when the row does not fire, 1 for
most rows, a count for the rows that score per item (``wind_pong``: its wind
pongs plus the seat and round bonuses; ``nico_quad_pairs``: the quads, whose
value is read from the rule table's tiers; ``streak_bonus``: the streak).

:data:`REGISTRY` lists the rows in LRC rules order.  Everything else about a
row is derived from it: :data:`ROW_IDS` (the column order of every row-points
array and output), each row's bit in a row word (its position), the units
fields of the rows that count units, the rows added after the Chicken (section 6),
the tiered rows, and the compiled evaluators.  The *values* (points,
``replaces``, the shapes the rules take, sources) are data in ``rules.toml``
(:mod:`fastscore.rules`).

Adding a row: a predicate (here for the LRC rows, in :mod:`fastscore.kernels.family_rows` for the
others) and a :class:`Row` entry here, an entry in the profiles that use it, a predicate in
``tests/reference.py`` (every row of a packaged profile), and tests.

Evaluators: :func:`fastscore.kernels.codegen.evaluator` generates, from the registry,
a compiled function that calls every predicate of a set of rows in turn and
returns ``(rows, rows_hi, units)``: the bit of each row ``r`` that fires set in the two
row words (bit ``r`` of ``rows`` for the first :data:`WORD_BITS` rows, bit
``r - WORD_BITS`` of ``rows_hi`` for the others, evaluated only when a table
has one of them in force), and ``units`` a word holding the units of the rows that count them (a
field per :data:`UNIT_ROWS` row, :data:`UNIT_SHIFT` and :data:`UNIT_MASK`; 0
for the rows not evaluated).  The scoring kernel evaluates the ``hand`` rows
once per win (:data:`evaluate_hand`) and the ``interpretation`` rows once per
interpretation (:data:`evaluate_interpretation`).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .._jit import jit_inline
from .bits import ctpop64, cttz64
from .codegen import evaluator
from .family_rows import after_gong, all_concealed_pongs, all_exposed, all_sheungs, concealed_gong, dealer, \
    dealer_streak, earthly_ready, earthly_win, eight_flowers, five_concealed_pongs, four_concealed_pongs, \
    heavenly_ready, heavenly_win, last_tile_discard, last_tile_draw, missing_one_suit, mixed_flower, \
    non_seat_wind_pong, ping_hu, robbing_gong, round_wind_pong, seat_flower_outside_set, seat_wind_pong, \
    semi_beggar, seven_tile_hand, ten_tile_hand, three_concealed_pongs, two_concealed_pongs, all_simples, \
    mixed_terminals, pure_terminals, mixed_outside, pure_outside, mixed_with_x, pure_with_x, linear_pongs, \
    double_brothers, small_triple_brothers, big_triple_brothers, small_triple_sisters, big_triple_sisters, \
    mixed_straight, mixed_straight_concealed, false_solo, pung_wait, super_eight_pairs, human_win, \
    near_pongs, straight_starts, few_starts
from .hk_rows import after_flower, double_win, great_chicken, triple_win, true_solo, pure_double_chow, \
    pure_triple_chow, pure_quadruple_chow, double_mixed_chow, quadruple_mixed_chow, quintuple_mixed_chow, \
    linear_chows, repeated_start
from .features import DRAGON_G, DRAGON_R, DRAGON_WH, HONOURS, SHAPE_NAMES, SUIT_M, SUIT_P, SUIT_S, SUIT_WIND, \
    Shape

__all__ = ["Row", "REGISTRY", "ROW_IDS", "N_ROWS", "DEALER_ROWS", "TIERED_ROWS", "MAX_UNITS", "UNIT_ROWS", "UNIT_SHIFT",
           "UNIT_MASK", "WIN_BITS", "WIN_UNITS", "SELF_DRAWN_BITS",
           "evaluate", "evaluate_hand", "evaluate_hand_called", "evaluate_interpretation", "evaluate_self_drawn",
           "evaluate_self_drawn_called", "evaluate_win"]

STANDARD, NICO_NICO, THIRTEEN, SIXTEEN = (int(s) for s in Shape)
ALL_SHAPES = tuple(SHAPE_NAMES)
HAND, INTERPRETATION = "hand", "interpretation"


# ---------------------------------------------------------------------------------------------- helpers

@jit_inline
def popcount(x):
    """Number of set bits of ``x`` (one instruction)."""
    return ctpop64(np.int64(x))


@jit_inline
def _n_suits(word):
    """Number suits present in a suit word (0-3)."""
    return (word & SUIT_M) + ((word >> 1) & 1) + ((word >> 2) & 1)


@jit_inline
def _no_honours(word):
    return np.int64((word & HONOURS) == 0)


@jit_inline
def _winds(f):
    """Bits 0-3: the wind pongs (E S W N) of ``f``."""
    return (f.pongs >> 27) & 15


@jit_inline
def _dragons(f):
    """Bits 0-2: the dragon pongs (white, green, red) of ``f``."""
    return (f.pongs >> 31) & 7


@jit_inline
def _eyes_wind(f):
    return np.int64(27 <= f.eyes) & np.int64(f.eyes <= 30)


@jit_inline
def _rises(a, b, c):
    """Sheung starts ``a`` at x, ``b`` at x+1, ``c`` at x+2 for some x (7-bit masks)."""
    return np.int64((a & (b >> 1) & (c >> 2)) != 0)


@jit_inline
def _mixed_dragon(m, p, s):
    """123, 456, 789 each in a different suit, any assignment (9.17); branch-free."""
    # Bits 0, 3, 6: the 123, 456 and 789 starts.
    m1, m4, m7 = m & 1, (m >> 3) & 1, (m >> 6) & 1
    p1, p4, p7 = p & 1, (p >> 3) & 1, (p >> 6) & 1
    s1, s4, s7 = s & 1, (s >> 3) & 1, (s >> 6) & 1
    a = m1 & ((p4 & s7) | (s4 & p7))
    b = p1 & ((m4 & s7) | (s4 & m7))
    c = s1 & ((m4 & p7) | (p4 & m7))
    return np.int64((a | b | c) != 0)


_DRAGON_STARTS = 1 | 8 | 64  # sheungs 123, 456, 789


@jit_inline
def _pure_dragon(m, p, s):
    d = _DRAGON_STARTS
    return np.int64(((m & d) == d) | ((p & d) == d) | ((s & d) == d))


#: Bit t set for the 2, 5 and 8 of each number suit.
GOOD_EYES_TILES = sum(1 << (9 * s + i) for s in range(3) for i in (1, 4, 7))


@jit_inline
def is_good_eyes_tile(tile):
    """A 2, 5 or 8 number tile (4.5 ``good_eyes``); ``tile`` -1 for none.  Branch-free."""
    return np.int64((np.int64(tile >= 0) & (GOOD_EYES_TILES >> (np.int64(tile) & 63))) != 0)


# ---------------------------------------------------------------------------------------------- 4.1

@jit_inline
def self_draw(f):
    """4.1: the winning tile was self-drawn."""
    return f.self_drawn


@jit_inline
def concealed_hand(f):
    """4.1: a concealed hand won on a discard."""
    return (1 - f.self_drawn) & f.concealed


@jit_inline
def concealed_self_draw(f):
    """4.1: a concealed hand, self-drawn."""
    return f.self_drawn & f.concealed


@jit_inline
def single_wait(f):
    """4.1, 9.10: the winning tile is the only wait of the 16 tiles."""
    return f.single_wait


@jit_inline
def closing(f):
    """4.1: Closing was declared."""
    return f.closing


# ---------------------------------------------------------------------------------------------- 4.2

@jit_inline
def no_flowers(f):
    """4.2: no flower or season."""
    return np.int64(f.flowers == 0)


@jit_inline
def seat_flower(f):
    """4.2: one unit per flower or season of the winner's seat."""
    return ((f.flowers >> f.seat) & 1) + ((f.flowers >> (f.seat + 4)) & 1)


@jit_inline
def flower_set(f):
    """4.2: one unit for all four flowers, one for all four seasons."""
    return np.int64((f.flowers & 0x0F) == 0x0F) + np.int64((f.flowers & 0xF0) == 0xF0)


# ---------------------------------------------------------------------------------------------- 4.3

@jit_inline
def all_five_suits(f):
    """4.3: a tile of each of the five suits."""
    w = f.word
    return np.int64(_n_suits(w) == 3) & np.int64((w & SUIT_WIND) != 0) & np.int64((w & (DRAGON_WH | DRAGON_G | DRAGON_R)) != 0)


@jit_inline
def no_honours(f):
    """4.3: no wind or dragon."""
    return _no_honours(f.word)


@jit_inline
def no_flower_no_honour(f):
    """4.3, 9.7: no flowers and no honours."""
    return _no_honours(f.word) & np.int64(f.flowers == 0)


@jit_inline
def all_sheung_nfnh(f):
    """4.3, 9.7: five sheungs, no flowers, no honours (standard shape)."""
    return np.int64(f.n_sheungs == 5) & _no_honours(f.word) & np.int64(f.flowers == 0)


@jit_inline
def semi_pure(f):
    """4.3, 9.6: one number suit plus honours."""
    return np.int64(_n_suits(f.word) == 1) & (1 - _no_honours(f.word))


@jit_inline
def pure(f):
    """4.3: one number suit only."""
    return np.int64(_n_suits(f.word) == 1) & _no_honours(f.word)


@jit_inline
def jade(f):
    """4.3: bamboo and green dragons only."""
    return np.int64((f.word & 127) == SUIT_S | DRAGON_G)


@jit_inline
def ruby(f):
    """4.3: characters and red dragons only."""
    return np.int64((f.word & 127) == SUIT_M | DRAGON_R)


@jit_inline
def sapphire(f):
    """4.3: characters and white dragons only."""
    return np.int64((f.word & 127) == SUIT_M | DRAGON_WH)


@jit_inline
def diamond(f):
    """4.3: dots and white dragons only."""
    return np.int64((f.word & 127) == SUIT_P | DRAGON_WH)


@jit_inline
def all_honours(f):
    """4.3: winds and dragons only."""
    return np.int64(_n_suits(f.word) == 0)


# ---------------------------------------------------------------------------------------------- 4.4

@jit_inline
def wind_pong(f):
    """4.4, 9.19: one unit per wind pong or gong, one more for the seat wind's, one more for the round wind's."""
    wind = _winds(f)
    return popcount(wind) + ((wind >> f.seat) & 1) + ((wind >> f.round_wind) & 1)


@jit_inline
def dragon_pong(f):
    """4.4: one unit per dragon pong or gong."""
    return popcount(_dragons(f))


@jit_inline
def little_three_winds(f):
    """4.4, 9.9: two wind pongs and eyes of a third wind."""
    return np.int64(popcount(_winds(f)) == 2) & _eyes_wind(f)


@jit_inline
def big_three_winds(f):
    """4.4: three wind pongs, eyes not a wind."""
    return np.int64(popcount(_winds(f)) == 3) & (1 - _eyes_wind(f))


@jit_inline
def little_four_winds(f):
    """4.4: three wind pongs and eyes of the fourth wind."""
    return np.int64(popcount(_winds(f)) == 3) & _eyes_wind(f)


@jit_inline
def big_four_winds(f):
    """4.4: four wind pongs."""
    return np.int64(popcount(_winds(f)) == 4)


@jit_inline
def little_three_dragons(f):
    """4.4: two dragon pongs and eyes of the third dragon."""
    return np.int64(popcount(_dragons(f)) == 2) & np.int64(f.eyes >= 31)


@jit_inline
def big_three_dragons(f):
    """4.4: three dragon pongs."""
    return np.int64(popcount(_dragons(f)) == 3)


# ---------------------------------------------------------------------------------------------- 4.5

@jit_inline
def all_pongs(f):
    """4.5: five pongs or gongs."""
    return np.int64(popcount(f.pongs) == 5)


@jit_inline
def sister_sheungs(f):
    """4.5, 9.1: three sheungs with the same numbers, one per number suit (16 Orphans: its orphan sheungs)."""
    orphans = np.int64(f.orphans_m != 0) & np.int64(f.orphans_m == f.orphans_p) & np.int64(f.orphans_p == f.orphans_s)
    return np.int64((f.sheungs_m & f.sheungs_p & f.sheungs_s) != 0) | orphans


@jit_inline
def step_up_mixed(f):
    """4.5, 9.2, 9.17: three sheungs in three suits whose lowest numbers rise by one, any suit order."""
    m, p, s = f.sheungs_m, f.sheungs_p, f.sheungs_s
    # | rather than ``or``: each ``or`` is a branch, and these bits are random from hand to hand.
    rises = (_rises(m, p, s) | _rises(m, s, p) | _rises(p, m, s) | _rises(p, s, m) | _rises(s, m, p)
             | _rises(s, p, m))
    # 16 Orphans (9.2): the lowest numbers of the three orphan sheungs, distinct and spanning two (9 for none).
    lo0 = cttz64(f.orphans_m | 512)
    lo1 = cttz64(f.orphans_p | 512)
    lo2 = cttz64(f.orphans_s | 512)
    distinct = np.int64(lo0 != lo1) & np.int64(lo1 != lo2) & np.int64(lo0 != lo2)
    orphans = distinct & np.int64(max(lo0, max(lo1, lo2)) - min(lo0, min(lo1, lo2)) == 2)
    return rises | orphans


@jit_inline
def step_up_pure(f):
    """4.5: three sheungs in one suit whose lowest numbers rise by one."""
    m, p, s = f.sheungs_m, f.sheungs_p, f.sheungs_s
    return _rises(m, m, m) | _rises(p, p, p) | _rises(s, s, s)


@jit_inline
def _all_step_up_suits(f):
    """Number suits of a five-sheung All Step-Up (lowest numbers exactly x .. x+4, 9.8), else 0."""
    union = f.sheungs_m | f.sheungs_p | f.sheungs_s
    chain = np.int64(f.n_sheungs == 5) & np.int64(popcount(union) == 5) \
        & np.int64((union == 31) | (union == 62) | (union == 124))
    n_suits = np.int64(f.sheungs_m != 0) + np.int64(f.sheungs_p != 0) + np.int64(f.sheungs_s != 0)
    return chain * n_suits


@jit_inline
def all_step_up_mixed(f):
    """4.5, 9.8, 9.16: five sheungs rising by one, in all three number suits."""
    return np.int64(_all_step_up_suits(f) == 3)


@jit_inline
def all_step_up_pure(f):
    """4.5, 9.8, 9.16: five sheungs rising by one, in one suit."""
    return np.int64(_all_step_up_suits(f) == 1)


@jit_inline
def pure_dragon_concealed(f):
    """4.5, 9.3: 123, 456, 789 of one suit, all three concealed."""
    return _pure_dragon(f.concealed_m, f.concealed_p, f.concealed_s)


@jit_inline
def pure_dragon(f):
    """4.5: 123, 456, 789 of one suit."""
    return _pure_dragon(f.sheungs_m, f.sheungs_p, f.sheungs_s)


@jit_inline
def mixed_dragon_concealed(f):
    """4.5, 9.17: 123, 456, 789 each in a different suit, all three concealed."""
    return _mixed_dragon(f.concealed_m, f.concealed_p, f.concealed_s)


@jit_inline
def mixed_dragon(f):
    """4.5, 9.17: 123, 456, 789 each in a different suit."""
    return _mixed_dragon(f.sheungs_m, f.sheungs_p, f.sheungs_s)


@jit_inline
def good_eyes(f):
    """4.5, 9.18: the eyes are a 2, 5 or 8 number tile (Nico Nico: the winning tile, 5.1, 9.4)."""
    return is_good_eyes_tile(f.win if f.shape == NICO_NICO else f.eyes)


# ---------------------------------------------------------------------------------------------- 4.6

@jit_inline
def nico_nico(f):
    """4.6: the Nico Nico shape."""
    return np.int64(f.shape == NICO_NICO)


@jit_inline
def nico_quad_pairs(f):
    """4.6: one unit per four of a kind held as two pairs (the value is the table's tier for that many)."""
    return f.quads * np.int64(f.shape == NICO_NICO)


@jit_inline
def thirteen_orphans(f):
    """4.6: the 13 Orphans shape."""
    return np.int64(f.shape == THIRTEEN)


@jit_inline
def sixteen_orphans(f):
    """4.6: the 16 Orphans shape."""
    return np.int64(f.shape == SIXTEEN)


# ---------------------------------------------------------------------------------------------- 4.7

@jit_inline
def mahjong_base(f):
    """4.7: every win."""
    return np.int64(1)


@jit_inline
def east_wins(f):
    """4.7: the winner is East."""
    return np.int64(f.seat == 0)


@jit_inline
def streak_bonus(f):
    """4.7: one unit per dealer streak, for East."""
    return f.streak * np.int64(f.seat == 0)


# ---------------------------------------------------------------------------------------------- registry

class Row(NamedTuple):
    """One scoring row of LRC rules section 4.

    Attributes
    ----------
    id : str
        The LRC rules row id (the ``rules.toml`` entry and the output column).
    predicate : compiled function
        ``predicate(f)`` of a :class:`~fastscore.kernels.features.Features` record: the row's units (int64, 0: no).
    max_units : int
        A bound on the row's units: at least the most of one valid hand (it bounds the row's points in the
        int16 row-points columns), and of any record for the rows that count per number or per suit.
    shapes : tuple of str
        Shapes whose record carries what the predicate reads (section 5); the
        rule table's ``shapes`` choose among them (all of them when it names none).
    scope : str
        ``"hand"``: reads only the context fields of the record (the same for
        every interpretation; evaluated once per win), else ``"interpretation"``.
        A row of interpretation scope reads ``self_drawn`` only if flagged ``reads_self_drawn``.
    tiers : int
        0: the value is points x units; n > 0: the table gives n values, for 1 to n units.
    after_chicken : bool
        Added after the Chicken, not part of ``points`` (section 6: the base and dealer rows).
    reads_win : bool
        The predicate reads the record's ``win`` or ``single_wait`` field: the
        only fields that differ between the wins of one set of 17 tiles on its
        different kinds (the survey scores such a set's interpretations once and
        evaluates only these rows again for each winning kind, :mod:`fastscore.kernels.survey`).
    reads_self_drawn : bool
        A row of scope ``interpretation`` that reads ``self_drawn`` (one unit at most): waits analysis,
        which scores each completion won both ways, evaluates these rows again on the self-drawn record
        (:data:`evaluate_self_drawn`).
    gate : compiled function or None
        ``gate(f)``, 1 or 0: a cheap test that holds whenever the predicate fires, shared by rows that seldom
        fire.  The evaluators run the rows of one gate only when it holds
        (:func:`fastscore.kernels.codegen.evaluator`); ``tests/test_rows.py`` checks each gate against its rows.
    """

    id: str
    predicate: Callable
    max_units: int = 1
    shapes: tuple = ALL_SHAPES
    scope: str = INTERPRETATION
    tiers: int = 0
    after_chicken: bool = False
    reads_win: bool = False
    reads_self_drawn: bool = False
    gate: Callable | None = None


_STD = ("standard",)
_HONOUR_SETS = ("standard", "nico_nico", "thirteen_orphans")

#: Every row, in LRC rules order: the column order of every row-points array.
# fmt: off
REGISTRY = (
    # 4.1 Win and concealment
    Row("self_draw", self_draw, scope=HAND),
    Row("concealed_hand", concealed_hand, scope=HAND),
    Row("concealed_self_draw", concealed_self_draw, scope=HAND),
    Row("single_wait", single_wait, shapes=_STD, reads_win=True),
    Row("closing", closing, scope=HAND),
    # 4.2 Flowers
    Row("no_flowers", no_flowers, scope=HAND),
    Row("seat_flower", seat_flower, max_units=2, scope=HAND),
    Row("flower_set", flower_set, max_units=2, scope=HAND),
    # 4.3 Suit composition
    Row("all_five_suits", all_five_suits, scope=HAND),
    Row("no_honours", no_honours, scope=HAND),
    Row("no_flower_no_honour", no_flower_no_honour, scope=HAND),
    Row("all_sheung_nfnh", all_sheung_nfnh, shapes=_STD),
    Row("semi_pure", semi_pure, scope=HAND),
    Row("pure", pure, scope=HAND),
    Row("jade", jade, scope=HAND),
    Row("ruby", ruby, scope=HAND),
    Row("sapphire", sapphire, scope=HAND),
    Row("diamond", diamond, scope=HAND),
    Row("all_honours", all_honours, scope=HAND),
    # 4.4 Honours (four wind pongs, each of the seat and round wind: 4 + 1 + 1; 12 bounds it)
    Row("wind_pong", wind_pong, max_units=12, shapes=_HONOUR_SETS),
    Row("dragon_pong", dragon_pong, max_units=3, shapes=_HONOUR_SETS),
    Row("little_three_winds", little_three_winds, shapes=_STD),
    Row("big_three_winds", big_three_winds, shapes=_STD),
    Row("little_four_winds", little_four_winds, shapes=_STD),
    Row("big_four_winds", big_four_winds, shapes=_STD),
    Row("little_three_dragons", little_three_dragons, shapes=_STD),
    Row("big_three_dragons", big_three_dragons, shapes=_STD),
    # 4.5 Sets
    Row("all_pongs", all_pongs, shapes=_STD),
    Row("sister_sheungs", sister_sheungs, shapes=("standard", "sixteen_orphans")),
    Row("step_up_mixed", step_up_mixed, shapes=("standard", "sixteen_orphans")),
    Row("step_up_pure", step_up_pure, shapes=_STD),
    Row("all_step_up_mixed", all_step_up_mixed, shapes=_STD),
    Row("all_step_up_pure", all_step_up_pure, shapes=_STD),
    Row("pure_dragon_concealed", pure_dragon_concealed, shapes=_STD),
    Row("pure_dragon", pure_dragon, shapes=_STD),
    Row("mixed_dragon_concealed", mixed_dragon_concealed, shapes=_STD),
    Row("mixed_dragon", mixed_dragon, shapes=_STD),
    Row("good_eyes", good_eyes, shapes=("standard", "nico_nico", "sixteen_orphans"), reads_win=True),
    # 4.6 Special hand values
    Row("nico_nico", nico_nico, shapes=("nico_nico",)),
    Row("nico_quad_pairs", nico_quad_pairs, max_units=3, shapes=("nico_nico",), tiers=3),
    Row("thirteen_orphans", thirteen_orphans, shapes=("thirteen_orphans",)),
    Row("sixteen_orphans", sixteen_orphans, shapes=("sixteen_orphans",)),
    # 4.7 Base and dealer (a streak of at most 1000, checked at the input)
    Row("mahjong_base", mahjong_base, scope=HAND, after_chicken=True),
    Row("east_wins", east_wins, scope=HAND, after_chicken=True),
    Row("streak_bonus", streak_bonus, max_units=1000, scope=HAND, after_chicken=True),
    # The Taiwanese family (docs/profiles/): rows the LRC table does not use
    Row("three_concealed_pongs", three_concealed_pongs, shapes=_STD, reads_win=True, reads_self_drawn=True),
    Row("four_concealed_pongs", four_concealed_pongs, shapes=_STD, reads_win=True, reads_self_drawn=True),
    Row("five_concealed_pongs", five_concealed_pongs, shapes=_STD, reads_win=True, reads_self_drawn=True),
    Row("round_wind_pong", round_wind_pong, shapes=_HONOUR_SETS),
    Row("seat_wind_pong", seat_wind_pong, shapes=_HONOUR_SETS),
    Row("ping_hu", ping_hu, shapes=_STD, reads_win=True, reads_self_drawn=True),
    Row("all_exposed", all_exposed, scope=HAND),
    Row("eight_flowers", eight_flowers, scope=HAND),
    Row("dealer", dealer, scope=HAND),
    Row("dealer_streak", dealer_streak, max_units=1000, scope=HAND),
    # Timing events (fastscore.events)
    Row("last_tile_draw", last_tile_draw, scope=HAND),
    Row("last_tile_discard", last_tile_discard, scope=HAND),
    Row("after_gong", after_gong, scope=HAND),
    Row("robbing_gong", robbing_gong, scope=HAND),
    Row("heavenly_win", heavenly_win, scope=HAND),
    Row("earthly_win", earthly_win, scope=HAND),
    Row("heavenly_ready", heavenly_ready, scope=HAND),
    Row("earthly_ready", earthly_ready, scope=HAND),
    # HK-style Taiwanese (docs/profiles/hk-taiwanese.md): the first rows of the high row word
    Row("missing_one_suit", missing_one_suit, scope=HAND),
    Row("all_sheungs", all_sheungs, shapes=_STD),
    Row("two_concealed_pongs", two_concealed_pongs, shapes=_STD, reads_win=True, reads_self_drawn=True),
    Row("non_seat_wind_pong", non_seat_wind_pong, max_units=3, shapes=_HONOUR_SETS),
    Row("concealed_gong", concealed_gong, max_units=5, shapes=_STD),
    Row("seven_tile_hand", seven_tile_hand, shapes=_STD),
    Row("ten_tile_hand", ten_tile_hand, shapes=_STD),
    Row("semi_beggar", semi_beggar, scope=HAND),
    Row("all_concealed_pongs", all_concealed_pongs, shapes=_STD, reads_self_drawn=True),
    Row("mixed_flower", mixed_flower, max_units=6, scope=HAND),
    Row("seat_flower_outside_set", seat_flower_outside_set, max_units=2, scope=HAND),
    Row("all_simples", all_simples),
    Row("mixed_terminals", mixed_terminals, gate=few_starts),
    Row("pure_terminals", pure_terminals, gate=few_starts),
    Row("mixed_outside", mixed_outside, shapes=_STD, gate=few_starts),
    Row("pure_outside", pure_outside, shapes=_STD, gate=few_starts),
    Row("mixed_with_x", mixed_with_x, shapes=_STD),
    Row("pure_with_x", pure_with_x, shapes=_STD),
    Row("linear_pongs", linear_pongs, max_units=3, shapes=_STD, gate=near_pongs),
    Row("double_brothers", double_brothers, max_units=9, shapes=_STD, gate=near_pongs),
    Row("small_triple_brothers", small_triple_brothers, shapes=_STD, gate=near_pongs),
    Row("big_triple_brothers", big_triple_brothers, shapes=_STD, gate=near_pongs),
    Row("small_triple_sisters", small_triple_sisters, shapes=_STD, gate=near_pongs),
    Row("big_triple_sisters", big_triple_sisters, shapes=_STD, gate=near_pongs),
    Row("mixed_straight", mixed_straight, shapes=_STD, gate=straight_starts),
    Row("mixed_straight_concealed", mixed_straight_concealed, shapes=_STD, gate=straight_starts),
    Row("false_solo", false_solo, shapes=("standard", "nico_nico"), reads_win=True),
    Row("pung_wait", pung_wait, shapes=_STD, reads_win=True),
    Row("super_eight_pairs", super_eight_pairs, shapes=("nico_nico",), reads_win=True),
    # Timing events (fastscore.events), continued
    Row("human_win", human_win, scope=HAND),
    # HK-style Taiwanese, continued: the rows that count identical sheungs (fastscore.kernels.hk_rows)
    Row("pure_double_chow", pure_double_chow, max_units=21, shapes=_STD, gate=repeated_start),
    Row("pure_triple_chow", pure_triple_chow, shapes=_STD, gate=repeated_start),
    Row("pure_quadruple_chow", pure_quadruple_chow, shapes=_STD, gate=repeated_start),
    Row("double_mixed_chow", double_mixed_chow, max_units=7, shapes=_STD, gate=repeated_start),
    Row("quadruple_mixed_chow", quadruple_mixed_chow, shapes=_STD, gate=repeated_start),
    Row("quintuple_mixed_chow", quintuple_mixed_chow, shapes=_STD, gate=repeated_start),
    Row("linear_chows", linear_chows, max_units=21, shapes=_STD),
    # HK-style Taiwanese, continued (fastscore.kernels.hk_rows)
    Row("true_solo", true_solo, shapes=("standard", "nico_nico"), reads_win=True),
    # Timing events (fastscore.events), continued
    Row("after_flower", after_flower, scope=HAND),
    Row("double_win", double_win, scope=HAND),
    Row("triple_win", triple_win, scope=HAND),
    # A declared win (fastscore.events)
    Row("great_chicken", great_chicken, scope=HAND),
)
# fmt: on

# ---------------------------------------------------------------------------------------------- derived

#: Row ids in registry order: bit ``r`` of a row word and column ``r`` of every ``(N, R)`` row-points array.
ROW_IDS = tuple(row.id for row in REGISTRY)
N_ROWS = len(ROW_IDS)
#: Row id -> its bit index.
BIT = {rid: r for r, rid in enumerate(ROW_IDS)}
#: Bits of a row word: catalog row ``r`` is bit ``r % WORD_BITS`` of word ``r // WORD_BITS`` (two words, ``rows``
#: and ``rows_hi``: at most 126 rows; bit 63 stays clear, so a word is a non-negative int64).
WORD_BITS = 63


def bit_words(indices) -> tuple[int, int]:
    """The two row words (low, high) with the bits of the catalog rows ``indices`` set."""
    indices = set(indices)
    low = sum(1 << r for r in indices if r < WORD_BITS)
    high = sum(1 << (r - WORD_BITS) for r in indices if r >= WORD_BITS)
    return low, high


#: Rows added after the Chicken (section 6): not part of ``points`` (all in the low word).
DEALER_ROWS = tuple(row.id for row in REGISTRY if row.after_chicken)
DEALER_BITS = bit_words(BIT[rid] for rid in DEALER_ROWS)[0]
#: Row id -> number of tiers, for the rows whose ``points`` is a list of tiers.
TIERED_ROWS = {row.id: row.tiers for row in REGISTRY if row.tiers}
#: Row id -> most units in one valid hand.
MAX_UNITS = {row.id: row.max_units for row in REGISTRY}
#: Bits of the rows evaluated once per win (scope ``hand``) in the two row words.
HAND_BITS, HAND_BITS_HI = bit_words(r for r, row in enumerate(REGISTRY) if row.scope == HAND)
#: Bits of the rows that read the winning tile (:attr:`Row.reads_win`) in the two row words, and their fields of a
#: units word.
WIN_BITS, WIN_BITS_HI = bit_words(r for r, row in enumerate(REGISTRY) if row.reads_win)
#: Bits of the rows of scope ``interpretation`` that read ``self_drawn`` (:attr:`Row.reads_self_drawn`).
SELF_DRAWN_BITS, SELF_DRAWN_BITS_HI = bit_words(r for r, row in enumerate(REGISTRY) if row.reads_self_drawn)
#: Indices of the rows that count units (more than one unit possible): each has a field of a units word.
UNIT_ROWS = tuple(r for r, row in enumerate(REGISTRY) if row.max_units > 1)
#: ``UNIT_SHIFT[r]``, ``UNIT_MASK[r]``: row r's field of a units word (its units: ``(units >> shift) & mask``);
#: mask 0 for a row of one unit.  Fields are as wide as the row's ``max_units`` needs.
UNIT_SHIFT = np.zeros(N_ROWS, dtype=np.int64)
UNIT_MASK = np.zeros(N_ROWS, dtype=np.int64)
_shift = 0
for _r in UNIT_ROWS:
    UNIT_SHIFT[_r] = _shift
    UNIT_MASK[_r] = (1 << REGISTRY[_r].max_units.bit_length()) - 1
    _shift += REGISTRY[_r].max_units.bit_length()
#: Bits of a units word in use.
UNIT_BITS = _shift
WIN_UNITS = sum(int(UNIT_MASK[r]) << int(UNIT_SHIFT[r]) for r, row in enumerate(REGISTRY) if row.reads_win)
#: ``ROW_TIERS[r]``: number of tiers of row r (0: points x units).
ROW_TIERS = np.array([row.tiers for row in REGISTRY], dtype=np.int64)
#: ``SHAPE_ROWS[shape]``: the two row words of the rows whose predicate applies to that shape (:attr:`Row.shapes`).
SHAPE_ROWS = np.array([bit_words(r for r, row in enumerate(REGISTRY) if name in row.shapes) for name in SHAPE_NAMES],
                      dtype=np.int64)

# The bits the section 6 totals read by name.
MAHJONG_BASE, EAST_WINS, STREAK_BONUS = BIT["mahjong_base"], BIT["east_wins"], BIT["streak_bonus"]


def _check_registry() -> None:
    assert len(set(ROW_IDS)) == N_ROWS <= 2 * WORD_BITS, "row ids must be unique, at most 126 rows (two row words)"
    assert all(BIT[rid] < WORD_BITS for rid in DEALER_ROWS), "the dealer rows must be in the low row word"
    assert UNIT_BITS <= 63, "the units of every row must fit one int64"
    for row in REGISTRY:
        assert row.scope in (HAND, INTERPRETATION), row
        assert set(row.shapes) <= set(SHAPE_NAMES), row
        assert row.tiers == 0 or row.tiers == row.max_units, row
        assert not row.reads_self_drawn or (row.scope == INTERPRETATION and row.max_units == 1), row


_check_registry()


# ---------------------------------------------------------------------------------------------- evaluators

def _evaluator(name: str, scopes, inline: bool = False, reads_win: bool = False, self_drawn: bool = False):
    """:func:`fastscore.kernels.codegen.evaluator` of the registry rows of the given scopes (only those that
    read the winning tile with ``reads_win``, only those that read ``self_drawn`` with ``self_drawn``)."""
    bits = [r for r, row in enumerate(REGISTRY) if row.scope in scopes and (row.reads_win or not reads_win)
            and (row.reads_self_drawn or not self_drawn)]
    return evaluator(name, {r: REGISTRY[r].predicate for r in bits},
                     {r: int(UNIT_SHIFT[r]) for r in bits if UNIT_MASK[r]}, WORD_BITS, inline,
                     {r: REGISTRY[r].gate for r in bits if REGISTRY[r].gate is not None})


#: Every row: ``evaluate(f, hi) -> (rows, rows_hi, units)`` (tests, and one-off evaluation).
evaluate = _evaluator("evaluate", (HAND, INTERPRETATION))
#: The rows of scope ``hand``, once per win (inlined: one call site).
evaluate_hand = _evaluator("evaluate_hand", (HAND,), inline=True)
#: The rows of scope ``interpretation``, once per interpretation: called for the special shapes ...
evaluate_interpretation = _evaluator("evaluate_interpretation", (INTERPRETATION,))
#: ... and inlined into the loop over standard decompositions, the hot path.
evaluate_interpretation_inline = _evaluator("evaluate_interpretation_inline", (INTERPRETATION,), inline=True)
#: The rows of scope ``interpretation`` that read ``self_drawn``: waits analysis evaluates them again on the
#: self-drawn record of each interpretation.
evaluate_self_drawn = _evaluator("evaluate_self_drawn", (INTERPRETATION,), inline=True, self_drawn=True)
#: Called (not inlined) builds of :data:`evaluate_hand` and :data:`evaluate_self_drawn`, for the single-hand
#: build of the scoring path (:data:`fastscore.kernels.score.interpret_called`): one compile each.
evaluate_hand_called = _evaluator("evaluate_hand_called", (HAND,))
evaluate_self_drawn_called = _evaluator("evaluate_self_drawn_called", (INTERPRETATION,), self_drawn=True)
#: The rows that read the winning tile, of either scope: the survey evaluates them again for each winning kind.
evaluate_win = _evaluator("evaluate_win", (HAND, INTERPRETATION), inline=True, reads_win=True)
