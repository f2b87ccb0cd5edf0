"""Rule rows as predicates over one interpretation, and the section 6 totals.

Each row's predicate sets ``units[row]``: 0 when the row does not fire,
otherwise how many times it scores (``wind_pong`` counts seat and round
bonuses, ``seat_flower`` each flower, ...).  Values, replacement and which
shapes take which rows are data from the rule table (:mod:`fastscore.rules`),
resolved in one generic pass by :func:`resolve`.
"""

from __future__ import annotations

from ._jit import jit
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

STANDARD = int(Shape.STANDARD)
NICO_NICO_SHAPE = int(Shape.NICO_NICO)
THIRTEEN_SHAPE = int(Shape.THIRTEEN_ORPHANS)
SIXTEEN_SHAPE = int(Shape.SIXTEEN_ORPHANS)

# Hand-wide feature word (same for every interpretation of a hand).
SUIT_M, SUIT_P, SUIT_S, SUIT_WIND = 1, 2, 4, 8
DRAGON_WH, DRAGON_G, DRAGON_R = 16, 32, 64
HONOURS = SUIT_WIND | DRAGON_WH | DRAGON_G | DRAGON_R


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


@jit
def context_units(units, word, self_drawn, concealed, closing, flowers, seat):
    """Rows that depend only on the hand, not on the interpretation (4.1 to 4.3).

    ``flowers`` is a bitmask: bit n-1 for flower/season n.
    """
    for r in range(N_ROWS):
        units[r] = 0
    units[SELF_DRAW] = 1 if self_drawn else 0
    units[CONCEALED_HAND] = 1 if concealed and not self_drawn else 0
    units[CONCEALED_SELF_DRAW] = 1 if concealed and self_drawn else 0
    units[CLOSING] = 1 if closing else 0
    no_flowers = flowers == 0
    units[NO_FLOWERS] = 1 if no_flowers else 0
    units[SEAT_FLOWER] = ((flowers >> seat) & 1) + ((flowers >> (seat + 4)) & 1)
    units[FLOWER_SET] = (1 if flowers & 0x0F == 0x0F else 0) + (1 if flowers & 0xF0 == 0xF0 else 0)
    n_suits = (word & 1) + ((word >> 1) & 1) + ((word >> 2) & 1)
    has_dragon = word & (DRAGON_WH | DRAGON_G | DRAGON_R)
    units[ALL_FIVE_SUITS] = 1 if n_suits == 3 and word & SUIT_WIND and has_dragon else 0
    no_honours = (word & HONOURS) == 0
    units[NO_HONOURS] = 1 if no_honours else 0
    units[NO_FLOWER_NO_HONOUR] = 1 if no_honours and no_flowers else 0
    units[SEMI_PURE] = 1 if n_suits == 1 and not no_honours else 0
    units[PURE] = 1 if n_suits == 1 and no_honours else 0
    units[JADE] = 1 if word == SUIT_S | DRAGON_G else 0
    units[RUBY] = 1 if word == SUIT_M | DRAGON_R else 0
    units[SAPPHIRE] = 1 if word == SUIT_M | DRAGON_WH else 0
    units[DIAMOND] = 1 if word == SUIT_P | DRAGON_WH else 0
    units[ALL_HONOURS] = 1 if n_suits == 0 else 0


@jit
def honour_pong_units(units, pong_tile, seat, round_wind):
    """Add one honour pong or gong to ``wind_pong`` / ``dragon_pong`` (4.4)."""
    if 27 <= pong_tile <= 30:
        w = pong_tile - 27
        units[WIND_PONG] += 1 + (1 if w == seat else 0) + (1 if w == round_wind else 0)
    elif pong_tile >= 31:
        units[DRAGON_PONG] += 1


@jit
def is_good_eyes_tile(tile):
    """A 2, 5 or 8 number tile (4.5 ``good_eyes``)."""
    return tile < 27 and tile % 9 in (1, 4, 7)


@jit
def honour_combination_units(units, pongs, eyes):
    """Wind and dragon combination rows (4.4, 9.9); ``pongs`` (34,) counts pongs and gongs."""
    wind_pongs = pongs[27] + pongs[28] + pongs[29] + pongs[30]
    dragon_pongs = pongs[31] + pongs[32] + pongs[33]
    eyes_wind = 27 <= eyes <= 30
    eyes_dragon = eyes >= 31
    units[LITTLE_THREE_WINDS] = 1 if wind_pongs == 2 and eyes_wind else 0
    units[BIG_THREE_WINDS] = 1 if wind_pongs == 3 and not eyes_wind else 0
    units[LITTLE_FOUR_WINDS] = 1 if wind_pongs == 3 and eyes_wind else 0
    units[BIG_FOUR_WINDS] = 1 if wind_pongs == 4 else 0
    units[LITTLE_THREE_DRAGONS] = 1 if dragon_pongs == 2 and eyes_dragon else 0
    units[BIG_THREE_DRAGONS] = 1 if dragon_pongs == 3 else 0


@jit
def _has(sheungs, suit, x):
    return sheungs[9 * suit + x] > 0


@jit
def sheung_units(units, sheungs, concealed_sheungs, n_sheungs):
    """Sister, step-up, All Step-Up and dragon rows (4.5, 9.1 to 9.3, 9.8, 9.16, 9.17).

    sheungs, concealed_sheungs : (34,) counts of sheungs by lowest tile, all
    and not exposed; n_sheungs : sheungs in the interpretation.
    """
    if n_sheungs < 3:
        return
    for x in range(7):
        if _has(sheungs, 0, x) and _has(sheungs, 1, x) and _has(sheungs, 2, x):
            units[SISTER_SHEUNGS] = 1
    for x in range(5):
        for s in range(3):
            if _has(sheungs, s, x) and _has(sheungs, s, x + 1) and _has(sheungs, s, x + 2):
                units[STEP_UP_PURE] = 1
            for s2 in range(3):
                s3 = 3 - s - s2
                if s2 != s and s3 != s and s3 != s2:
                    if _has(sheungs, s, x) and _has(sheungs, s2, x + 1) and _has(sheungs, s3, x + 2):
                        units[STEP_UP_MIXED] = 1
    if n_sheungs == 5:
        # Lowest numbers exactly x .. x+4, one sheung each (9.8).
        for x in range(3):
            suits = 0
            ok = True
            for k in range(5):
                n = sheungs[x + k] + sheungs[9 + x + k] + sheungs[18 + x + k]
                if n != 1:
                    ok = False
                    break
                for s in range(3):
                    if sheungs[9 * s + x + k]:
                        suits |= 1 << s
            if ok:
                if suits == 7:
                    units[ALL_STEP_UP_MIXED] = 1
                elif suits in (1, 2, 4):
                    units[ALL_STEP_UP_PURE] = 1
    for s in range(3):
        if _has(sheungs, s, 0) and _has(sheungs, s, 3) and _has(sheungs, s, 6):
            units[PURE_DRAGON] = 1
        if _has(concealed_sheungs, s, 0) and _has(concealed_sheungs, s, 3) and _has(concealed_sheungs, s, 6):
            units[PURE_DRAGON_CONCEALED] = 1
        for s2 in range(3):
            s3 = 3 - s - s2
            if s2 != s and s3 != s and s3 != s2:
                if _has(sheungs, s, 0) and _has(sheungs, s2, 3) and _has(sheungs, s3, 6):
                    units[MIXED_DRAGON] = 1
                if _has(concealed_sheungs, s, 0) and _has(concealed_sheungs, s2, 3) and _has(concealed_sheungs, s3, 6):
                    units[MIXED_DRAGON_CONCEALED] = 1


@jit
def resolve(units, shape, row_points, points, tiers, replaces_ptr, replaces_idx, order, shape_mask):
    """Turn ``units`` into ``row_points`` (R,) and return the interpretation's points (6.1).

    A row scores when it fires, its shape takes it, and no scoring row replaces
    it; rows are visited replacing-first (``order``), each naming the rows it
    replaces in ``replaces_idx[replaces_ptr[r]:replaces_ptr[r + 1]]``.  Dealer
    rows are listed but not summed.
    """
    n = units.shape[0]
    for r in range(n):
        row_points[r] = 1 if units[r] > 0 and shape_mask[shape, r] else 0
    for k in range(n):
        r = order[k]
        if row_points[r]:
            for q in range(replaces_ptr[r], replaces_ptr[r + 1]):
                row_points[replaces_idx[q]] = 0
    total = 0
    for r in range(n):
        if row_points[r]:
            u = units[r]
            if tiers[r, 0] or tiers[r, 1] or tiers[r, 2]:
                v = tiers[r, min(u, 3) - 1]
            else:
                v = points[r] * u
            row_points[r] = v
            if r != MAHJONG_BASE and r != EAST_WINS and r != STREAK_BONUS:
                total += v
    return total


@jit
def totals(points, round_wind, seat, streak, rule_points, minimum, chicken_points):
    """Section 6: (chicken, total, legal, payout) of one interpretation's ``points``."""
    chicken = points == chicken_points
    total = minimum[round_wind] if chicken else points + rule_points[MAHJONG_BASE]
    legal = chicken or total >= minimum[round_wind]
    payout = 0
    if legal:
        payout = total
        if seat == 0:
            payout += rule_points[EAST_WINS] + rule_points[STREAK_BONUS] * streak
    return chicken, total, legal, payout
