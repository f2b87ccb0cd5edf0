"""Rule rows as bit predicates over one interpretation, and the section 6 totals.

An interpretation's rows are a 64-bit word, bit ``r`` for row ``ROW_IDS[r]``.
The predicates set the bits of the rows that fire; a few rows also carry a
number of units (``wind_pong`` counts seat and round bonuses, ``seat_flower``
each flower, ...).  Values, replacement and which shapes take which rows are
data from the rule table (:mod:`fastscore.rules`), resolved in one generic
pass by :func:`resolve`.
"""

from __future__ import annotations

import numpy as np

from ._bits import ctpop64, cttz64
from ._jit import jit, jit_inline
from .rules import ROW_IDS, Shape

# Row indices as compile-time constants for the kernels.
(
    SELF_DRAW,
    CONCEALED_HAND,
    CONCEALED_SELF_DRAW,
    SINGLE_WAIT,
    CLOSING,
    NO_FLOWERS,
    SEAT_FLOWER,
    FLOWER_SET,
    ALL_FIVE_SUITS,
    NO_HONOURS,
    NO_FLOWER_NO_HONOUR,
    ALL_SHEUNG_NFNH,
    SEMI_PURE,
    PURE,
    JADE,
    RUBY,
    SAPPHIRE,
    DIAMOND,
    ALL_HONOURS,
    WIND_PONG,
    DRAGON_PONG,
    LITTLE_THREE_WINDS,
    BIG_THREE_WINDS,
    LITTLE_FOUR_WINDS,
    BIG_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    BIG_THREE_DRAGONS,
    ALL_PONGS,
    SISTER_SHEUNGS,
    STEP_UP_MIXED,
    STEP_UP_PURE,
    ALL_STEP_UP_MIXED,
    ALL_STEP_UP_PURE,
    PURE_DRAGON_CONCEALED,
    PURE_DRAGON,
    MIXED_DRAGON_CONCEALED,
    MIXED_DRAGON,
    GOOD_EYES,
    NICO_NICO,
    NICO_QUAD_PAIRS,
    THIRTEEN_ORPHANS,
    SIXTEEN_ORPHANS,
    MAHJONG_BASE,
    EAST_WINS,
    STREAK_BONUS,
) = range(len(ROW_IDS))
N_ROWS = len(ROW_IDS)
DEALER_BITS = (1 << MAHJONG_BASE) | (1 << EAST_WINS) | (1 << STREAK_BONUS)
#: The rows whose value depends on units (:func:`row_value`).
UNIT_ROWS = (1 << WIND_PONG) | (1 << DRAGON_PONG) | (1 << NICO_QUAD_PAIRS) | (1 << SEAT_FLOWER) | (1 << FLOWER_SET) \
    | (1 << STREAK_BONUS)

STANDARD = int(Shape.STANDARD)
NICO_NICO_SHAPE = int(Shape.NICO_NICO)
THIRTEEN_SHAPE = int(Shape.THIRTEEN_ORPHANS)
SIXTEEN_SHAPE = int(Shape.SIXTEEN_ORPHANS)

# Hand-wide suit word (same for every interpretation of a hand).
SUIT_M, SUIT_P, SUIT_S, SUIT_WIND = 1, 2, 4, 8
DRAGON_WH, DRAGON_G, DRAGON_R = 16, 32, 64
HONOURS = SUIT_WIND | DRAGON_WH | DRAGON_G | DRAGON_R

# Units of the multi-unit rows that vary by interpretation, packed in one int:
# wind_pong units in bits 0-7, dragon_pong in 8-15, nico_quad_pairs in 16-23.
WIND_UNITS_SHIFT, DRAGON_UNITS_SHIFT, QUAD_UNITS_SHIFT = 0, 8, 16
# Units fixed for the hand: seat_flower bits 0-7, flower_set 8-15, streak_bonus 16-31.
SEAT_FLOWER_SHIFT, FLOWER_SET_SHIFT, STREAK_SHIFT = 0, 8, 16


@jit
def bit(r):
    return 1 << r


@jit
def popcount(x):
    """Number of set bits of ``x`` (one instruction; no loop to mispredict)."""
    return ctpop64(np.int64(x))


def _suit_word_rows() -> np.ndarray:
    """The rows of each of the 128 suit words (4.2, 4.3): built once, read by :func:`context_rows`."""
    jewels = {SUIT_S | DRAGON_G: JADE, SUIT_M | DRAGON_R: RUBY, SUIT_M | DRAGON_WH: SAPPHIRE,
              SUIT_P | DRAGON_WH: DIAMOND}
    table = np.zeros(128, dtype=np.int64)
    for word in range(128):
        rows = 0
        n_suits = (word & 1) + ((word >> 1) & 1) + ((word >> 2) & 1)
        no_honours = (word & HONOURS) == 0
        if n_suits == 3 and word & SUIT_WIND and word & (DRAGON_WH | DRAGON_G | DRAGON_R):
            rows |= 1 << ALL_FIVE_SUITS
        if no_honours:
            rows |= 1 << NO_HONOURS
        if n_suits == 1:
            rows |= 1 << (PURE if no_honours else SEMI_PURE)
        if n_suits == 0:
            rows |= 1 << ALL_HONOURS
        if word in jewels:
            rows |= 1 << jewels[word]
        table[word] = rows
    return table


#: :func:`_suit_word_rows`, a compile-time constant of the kernels.
SUIT_WORD_ROWS = _suit_word_rows()


@jit
def context_rows(word, self_drawn, concealed, closing, flowers, seat, streak):
    """Rows that depend only on the hand, not on the interpretation (4.1 to 4.3, 4.7).

    ``word`` is the suit word of the 17 tiles; ``flowers`` a bitmask (bit n-1
    for flower/season n).  Returns (row bits, hand units).  Branch-free (the
    suit word's rows from :data:`SUIT_WORD_ROWS`): the context is random
    from hand to hand, and branches on it were mispredicted.
    """
    drawn = np.int64(self_drawn)
    hidden = np.int64(concealed)
    f = np.int64(flowers)
    no_flowers = np.int64(f == 0)
    seat_flowers = ((f >> seat) & 1) + ((f >> (seat + 4)) & 1)
    flower_sets = np.int64((f & 0x0F) == 0x0F) + np.int64((f & 0xF0) == 0xF0)
    suit_rows = SUIT_WORD_ROWS[word & 127]
    east = np.int64(seat == 0)
    rows = (
        suit_rows
        | bit(MAHJONG_BASE)
        | (drawn << SELF_DRAW)
        | ((drawn & hidden) << CONCEALED_SELF_DRAW)
        | (((1 - drawn) & hidden) << CONCEALED_HAND)
        | (np.int64(closing) << CLOSING)
        | (no_flowers << NO_FLOWERS)
        | (np.int64(seat_flowers != 0) << SEAT_FLOWER)
        | (np.int64(flower_sets != 0) << FLOWER_SET)
        | ((((suit_rows >> NO_HONOURS) & 1) & no_flowers) << NO_FLOWER_NO_HONOUR)
        | (east << EAST_WINS)
        | ((east & np.int64(streak > 0)) << STREAK_BONUS)
    )
    units = (seat_flowers << SEAT_FLOWER_SHIFT) | (flower_sets << FLOWER_SET_SHIFT) | (np.int64(streak) << STREAK_SHIFT)
    return rows, units


@jit
def honour_pong_rows(pongs, eyes, seat, round_wind):
    """``wind_pong``, ``dragon_pong`` and the combination rows (4.4, 9.9, 9.19).

    ``pongs`` has bit t for each pong or gong of tile t; ``eyes`` is the eyes
    tile or -1.  Returns (row bits, interpretation units).
    """
    rows = 0
    wind = (pongs >> 27) & 15
    dragon = (pongs >> 31) & 7
    n_wind = popcount(wind)
    n_dragon = popcount(dragon)
    units = 0
    if wind:
        rows |= bit(WIND_PONG)
        units |= (n_wind + ((wind >> seat) & 1) + ((wind >> round_wind) & 1)) << WIND_UNITS_SHIFT
    if dragon:
        rows |= bit(DRAGON_PONG)
        units |= n_dragon << DRAGON_UNITS_SHIFT
    eyes_wind = 27 <= eyes <= 30
    if n_wind == 2 and eyes_wind:
        rows |= bit(LITTLE_THREE_WINDS)
    elif n_wind == 3:
        rows |= bit(LITTLE_FOUR_WINDS) if eyes_wind else bit(BIG_THREE_WINDS)
    elif n_wind == 4:
        rows |= bit(BIG_FOUR_WINDS)
    if n_dragon == 2 and eyes >= 31:
        rows |= bit(LITTLE_THREE_DRAGONS)
    elif n_dragon == 3:
        rows |= bit(BIG_THREE_DRAGONS)
    return rows, units


#: Bit t set for the 2, 5 and 8 of each number suit.
GOOD_EYES_TILES = sum(1 << (9 * s + i) for s in range(3) for i in (1, 4, 7))


@jit
def is_good_eyes_tile(tile):
    """A 2, 5 or 8 number tile (4.5 ``good_eyes``); ``tile`` -1 for none.  Branch-free."""
    return (np.int64(tile >= 0) & (GOOD_EYES_TILES >> (np.int64(tile) & 63))) != 0


@jit
def _rises(a, b, c, x):
    """Sheung starts ``a`` at x, ``b`` at x+1, ``c`` at x+2 for some x (7-bit masks)."""
    return (a & (b >> 1) & (c >> 2)) != 0


@jit
def sheung_rows(m, p, s, cm, cp, cs, n_sheungs):
    """Sister, step-up, All Step-Up and dragon rows (4.5, 9.1 to 9.3, 9.8, 9.16, 9.17).

    m, p, s : 7-bit masks of the sheung starts held in each number suit;
    cm, cp, cs : the same for concealed sheungs; n_sheungs : sheungs in all.
    """
    # Every row here needs three sheungs or more, so fewer fire none; no early return for them, though:
    # a branch on the number of sheungs would be mispredicted from hand to hand.
    rows = 0
    if m & p & s:
        rows |= bit(SISTER_SHEUNGS)
    if _rises(m, m, m, 0) | _rises(p, p, p, 0) | _rises(s, s, s, 0):
        rows |= bit(STEP_UP_PURE)
    # | rather than ``or``: each ``or`` is a branch, and these bits are random from hand to hand.
    if (
        _rises(m, p, s, 0) | _rises(m, s, p, 0) | _rises(p, m, s, 0)
        | _rises(p, s, m, 0) | _rises(s, m, p, 0) | _rises(s, p, m, 0)
    ):
        rows |= bit(STEP_UP_MIXED)
    if n_sheungs == 5:
        # Five lowest numbers exactly x .. x+4, one sheung each (9.8).
        union = m | p | s
        if popcount(union) == 5 and (union == 31 or union == 62 or union == 124):
            n_suits = (1 if m else 0) + (1 if p else 0) + (1 if s else 0)
            if n_suits == 3:
                rows |= bit(ALL_STEP_UP_MIXED)
            elif n_suits == 1:
                rows |= bit(ALL_STEP_UP_PURE)
    dragon = 1 | 8 | 64  # starts 1, 4, 7
    if (m & dragon) == dragon or (p & dragon) == dragon or (s & dragon) == dragon:
        rows |= bit(PURE_DRAGON)
    if (cm & dragon) == dragon or (cp & dragon) == dragon or (cs & dragon) == dragon:
        rows |= bit(PURE_DRAGON_CONCEALED)
    if _mixed_dragon(m, p, s):
        rows |= bit(MIXED_DRAGON)
    if _mixed_dragon(cm, cp, cs):
        rows |= bit(MIXED_DRAGON_CONCEALED)
    return rows


@jit
def _mixed_dragon(m, p, s):
    """123, 456, 789 each in a different suit, any assignment (9.17)."""
    # Bits 0, 3, 6: the 123, 456 and 789 starts; branch-free.
    m1, m4, m7 = m & 1, (m >> 3) & 1, (m >> 6) & 1
    p1, p4, p7 = p & 1, (p >> 3) & 1, (p >> 6) & 1
    s1, s4, s7 = s & 1, (s >> 3) & 1, (s >> 6) & 1
    a = m1 & ((p4 & s7) | (s4 & p7))
    b = p1 & ((m4 & s7) | (s4 & m7))
    c = s1 & ((m4 & p7) | (p4 & m7))
    return (a | b | c) != 0


# Layout of the packed rule array of :func:`pack_rules`: points (R,), tiers (R, 3)
# row-major, replaces_bits (R,), shape_bits (4,), minimum (4,), chicken points,
# the number of replacers K, the replacers (K,), then for each k the bits of
# replacers k to K-1 (K,).
RP_POINTS = 0
RP_TIERS = N_ROWS
RP_REPLACES = 4 * N_ROWS
RP_SHAPES = 5 * N_ROWS
RP_MINIMUM = RP_SHAPES + 4
RP_CHICKEN = RP_MINIMUM + 4
RP_N_REPLACERS = RP_CHICKEN + 1
RP_REPLACERS = RP_N_REPLACERS + 1


@jit
def pack_rules(rule_args):
    """The rule arrays of :attr:`fastscore.rules.RuleTable.kernel_args` packed into one int64 array.

    The kernels pack once per call and hand the one array down: every array
    passed to a compiled helper costs reference counting on each call.
    """
    points, tiers, replacers, replaces_bits, shape_bits, minimum, chicken_points = rule_args
    k = replacers.shape[0]
    out = np.zeros(RP_REPLACERS + 2 * k, dtype=np.int64)
    for r in range(N_ROWS):
        out[RP_POINTS + r] = points[r]
        for j in range(3):
            out[RP_TIERS + 3 * r + j] = tiers[r, j]
        out[RP_REPLACES + r] = replaces_bits[r]
    for x in range(4):
        out[RP_SHAPES + x] = shape_bits[x]
        out[RP_MINIMUM + x] = minimum[x]
    out[RP_CHICKEN] = chicken_points
    out[RP_N_REPLACERS] = k
    for j in range(k):
        out[RP_REPLACERS + j] = replacers[j]
    later = 0
    for j in range(k - 1, -1, -1):
        later |= 1 << replacers[j]
        out[RP_REPLACERS + k + j] = later
    return out


@jit_inline
def resolve(rows, shape, rules):
    """Rows that score: fired, taken by the shape, not replaced by a scoring row.

    ``rules`` is :func:`pack_rules`' array: its replacers list the rows that
    replace others, replacing-first; its replaces_bits[r] the rows row r
    replaces; its shape_bits[shape] the rows a shape takes.
    """
    scoring = rows & rules[RP_SHAPES + shape]
    n = rules[RP_N_REPLACERS]
    for k in range(n):
        # No replacer left among the scoring rows: the rest of the list changes nothing.
        if (scoring & rules[RP_REPLACERS + n + k]) == 0:
            break
        r = rules[RP_REPLACERS + k]
        # Branch-free: clear the replaced rows when row r scores.
        scoring &= ~(rules[RP_REPLACES + r] & -((scoring >> r) & 1))
    return scoring


@jit_inline
def row_value(r, units, hand_units, rules):
    """Points of row ``r`` given the interpretation's and the hand's units (``rules``: :func:`pack_rules`)."""
    # One return, so that numba can drop the reference counting of ``rules``.
    value = rules[RP_POINTS + r]
    if not (UNIT_ROWS >> r) & 1:
        pass
    elif r == WIND_PONG:
        value *= (units >> WIND_UNITS_SHIFT) & 255
    elif r == DRAGON_PONG:
        value *= (units >> DRAGON_UNITS_SHIFT) & 255
    elif r == NICO_QUAD_PAIRS:
        value = rules[RP_TIERS + 3 * r + min((units >> QUAD_UNITS_SHIFT) & 255, 3) - 1]
    elif r == SEAT_FLOWER:
        value *= (hand_units >> SEAT_FLOWER_SHIFT) & 255
    elif r == FLOWER_SET:
        value *= (hand_units >> FLOWER_SET_SHIFT) & 255
    elif r == STREAK_BONUS:
        value *= (hand_units >> STREAK_SHIFT) & 65535
    return value


@jit
def lowest_bit(m):
    """Index of the lowest set bit of ``m`` (0 < m < 2**63): one instruction."""
    return cttz64(np.int64(m))


@jit_inline
def points_of(scoring, units, hand_units, rules):
    """Section 6.1: the sum of the scoring rows, dealer rows excluded (``rules``: :func:`pack_rules`)."""
    total = 0
    m = scoring & ~DEALER_BITS
    while m:
        total += row_value(lowest_bit(m), units, hand_units, rules)
        m &= m - 1
    return total


@jit_inline
def totals(points, round_wind, seat, streak, rules):
    """Section 6: (chicken, total, legal, payout) of one interpretation's ``points`` (``rules``: :func:`pack_rules`)."""
    minimum = rules[RP_MINIMUM + round_wind]
    chicken = points == rules[RP_CHICKEN]
    total = minimum if chicken else points + rules[RP_POINTS + MAHJONG_BASE]
    legal = chicken or total >= minimum
    payout = 0
    if legal:
        payout = total
        if seat == 0:
            payout += rules[RP_POINTS + EAST_WINS] + rules[RP_POINTS + STREAK_BONUS] * streak
    return chicken, total, legal, payout


#: The suit word bit of each tile (:func:`tile_word`).
TILE_WORDS = np.array([1 << (t // 9) for t in range(27)] + [SUIT_WIND] * 4 + [DRAGON_WH, DRAGON_G, DRAGON_R],
                      dtype=np.int64)


@jit
def tile_word(t):
    """The suit word bit of tile ``t`` (a table read: the tile's kind is random from hand to hand)."""
    return TILE_WORDS[t]


@jit
def suit_word(held):
    """Bit word of the suits and dragon kinds present among ``held`` (34,) tile counts."""
    word = 0
    for s in range(3):
        for i in range(9):
            if held[9 * s + i]:
                word |= 1 << s
                break
    for t in range(27, 31):
        if held[t]:
            word |= SUIT_WIND
    for d in range(3):
        if held[31 + d]:
            word |= DRAGON_WH << d
    return word
