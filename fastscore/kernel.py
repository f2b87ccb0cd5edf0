"""The scoring kernel: every interpretation of one hand, scored (RULES.md sections 3 to 6).

:func:`interpret_hand` is the single scoring code path.  The batch kernels
(:data:`score_kernel`, and :mod:`fastscore.waits`) call it for every hand and
keep the best interpretation; :func:`fastscore.interpretations` calls it for
one hand and shows them all.

Standard decompositions are the product of the per-suit decomposition lists of
:mod:`fastscore.tables` (characters outermost, so they come out in RULES.md
9.13 order); each list entry is a packed word whose bits give that suit's
pongs, sheung starts and eyes, so the rows are a few bit operations.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_parallel, prange
from .decompose import (
    MAX_DECOMPOSITIONS,
    N_KINDS,
    count_waits,
    is_standard,
    nico_pong,
    orphan_sheung,
    sixteen_orphans_eyes,
    suit_code,
    thirteen_orphans_split,
)
from .evaluate import (
    ALL_PONGS,
    CONCEALED_HAND,
    CONCEALED_SELF_DRAW,
    SELF_DRAW,
    ALL_SHEUNG_NFNH,
    GOOD_EYES,
    N_ROWS,
    NICO_NICO,
    NICO_NICO_SHAPE,
    NICO_QUAD_PAIRS,
    NO_FLOWERS,
    NO_HONOURS,
    QUAD_UNITS_SHIFT,
    SINGLE_WAIT,
    SISTER_SHEUNGS,
    SIXTEEN_ORPHANS,
    SIXTEEN_SHAPE,
    STANDARD,
    STEP_UP_MIXED,
    THIRTEEN_ORPHANS,
    THIRTEEN_SHAPE,
    bit,
    context_rows,
    honour_pong_rows,
    is_good_eyes_tile,
    lowest_bit,
    points_of,
    popcount,
    resolve,
    row_value,
    sheung_rows,
    suit_word,
    totals,
)
from .tables import N_SHEUNGS_SHIFT, PONG_SHIFT, STARTS_SHIFT

#: Room for every interpretation of one hand: standard decompositions, Nico
#: Nico, up to 13 Orphans splits (one per eyes), 16 Orphans.
MAX_INTERPRETATIONS = MAX_DECOMPOSITIONS + 15
# Columns of the per-interpretation info array.
(
    INFO_SHAPE,
    INFO_A,
    INFO_B,
    INFO_C,
    INFO_ROWS,
    INFO_UNITS,
    INFO_HAND_UNITS,
    INFO_POINTS,
    INFO_CHICKEN,
    INFO_TOTAL,
    INFO_LEGAL,
    INFO_PAYOUT,
    INFO_POINTS_SELF_DRAWN,
    INFO_PAYOUT_SELF_DRAWN,
) = range(14)
N_INFO = 14

SHEUNG, PONG, GONG, CONCEALED_GONG = 1, 2, 3, 4


@jit
def load_hand(concealed, declared, counts, held):
    """Fill ``counts`` with the concealed tiles and ``held`` with all 16 tiles.

    Returns (declared sets, any exposed, bits of declared pongs/gongs by tile,
    declared sheung starts as three 7-bit masks m | p << 7 | s << 14, declared
    sheungs).
    """
    n_declared = 0
    exposed = False
    pongs = 0
    starts = 0
    n_sheungs = 0
    for t in range(N_KINDS):
        counts[t] = concealed[t]
        held[t] = concealed[t]
    for k in range(declared.shape[0]):
        kind = declared[k, 0]
        t = np.int64(declared[k, 1])
        if kind == 0:
            continue
        n_declared += 1
        if kind != CONCEALED_GONG:
            exposed = True
        if kind == SHEUNG:
            held[t] += 1
            held[t + 1] += 1
            held[t + 2] += 1
            starts |= 1 << (7 * (t // 9) + t % 9)
            n_sheungs += 1
        else:
            held[t] += 4 if kind >= GONG else 3
            pongs |= 1 << t
    return n_declared, exposed, pongs, starts, n_sheungs


@jit
def _finish(j, shape, a, b, c, rows, units, hand_units, seat, round_wind, streak, rule_args, info_out, both):
    points_t, tiers, replacers, replaces_bits, shape_bits, minimum, chicken_points = rule_args
    scoring = resolve(rows, shape, replacers, replaces_bits, shape_bits)
    pts = points_of(scoring, units, hand_units, points_t, tiers)
    chicken, total, legal, payout = totals(pts, round_wind, seat, streak, points_t, minimum, chicken_points)
    info_out[j, INFO_SHAPE] = shape
    info_out[j, INFO_A] = a
    info_out[j, INFO_B] = b
    info_out[j, INFO_C] = c
    info_out[j, INFO_ROWS] = scoring
    info_out[j, INFO_UNITS] = units
    info_out[j, INFO_HAND_UNITS] = hand_units
    info_out[j, INFO_POINTS] = pts
    info_out[j, INFO_CHICKEN] = 1 if chicken else 0
    info_out[j, INFO_TOTAL] = total
    info_out[j, INFO_LEGAL] = 1 if legal else 0
    info_out[j, INFO_PAYOUT] = payout
    # The same interpretation won by self-draw, for waits analysis: only the 4.1 rows change.
    if both and not (rows >> SELF_DRAW) & 1:
        rows_self = (rows & ~bit(CONCEALED_HAND)) | bit(SELF_DRAW)
        if (rows >> CONCEALED_HAND) & 1:
            rows_self |= bit(CONCEALED_SELF_DRAW)
        scoring = resolve(rows_self, shape, replacers, replaces_bits, shape_bits)
        pts = points_of(scoring, units, hand_units, points_t, tiers)
        payout = totals(pts, round_wind, seat, streak, points_t, minimum, chicken_points)[3]
    info_out[j, INFO_POINTS_SELF_DRAWN] = pts
    info_out[j, INFO_PAYOUT_SELF_DRAWN] = payout


@jit
def interpret_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, known_waits,
                   rule_args, tables, counts, held, info_out, both=False):
    """Score every interpretation of one hand; return how many were written to ``info_out``.

    Parameters
    ----------
    concealed : (34,) uint8
        Concealed tiles, without the winning tile.
    declared : (5, 2) int8
        Declared sets as (SetKind, lowest tile); kind 0 pads.
    win : int
        Winning tile 0-33.
    self_drawn, closing : bool; seat, round_wind : int 0-3 (E S W N);
    flowers : int bitmask (bit n-1 = flower n); streak : int
    known_waits : int
        Number of waits of the 16 tiles if the caller knows it, else -1.
    rule_args : tuple
        :attr:`fastscore.rules.RuleTable.kernel_args`.
    tables : tuple
        :func:`fastscore.tables.suit_tables`.
    counts, held : (34,) int64 scratch
    both : bool
        Also score each interpretation as won by self-draw (waits analysis);
        otherwise the self-draw columns repeat the given win.
    info_out : (MAX_INTERPRETATIONS, N_INFO) int64
        One row per interpretation, in RULES.md 9.13 order: shape, a, b, c
        (standard: the three suits' decomposition indices; Nico Nico: the pong;
        13 Orphans: eyes, set kind, set tile; 16 Orphans: eyes), scoring row
        bits, units, hand units, points, chicken, total, legal, payout, and
        the points and payout of the same interpretation won by self-draw.
    """
    suit_info, dec_offset, dec_words = tables
    n_declared, exposed, declared_pongs, declared_starts, declared_sheungs = load_hand(concealed, declared, counts, held)
    held[win] += 1
    word = suit_word(held)
    held[win] -= 1
    base_rows, hand_units = context_rows(word, self_drawn, not exposed, closing, flowers, seat, streak)
    counts[win] += 1
    n = 0

    # Standard decompositions (section 3), combined with the declared sets.
    if is_standard(counts, suit_info):
        n_waits = known_waits
        if n_waits < 0:
            counts[win] -= 1
            n_waits = count_waits(counts, n_declared, held, suit_info)
            counts[win] += 1
        rows_std = base_rows | (bit(SINGLE_WAIT) if n_waits == 1 else 0)
        nfnh = (base_rows >> NO_HONOURS) & (base_rows >> NO_FLOWERS) & 1
        honour_pongs = declared_pongs
        honour_eyes = -1
        for t in range(27, 34):
            if counts[t] == 3:
                honour_pongs |= 1 << t
            elif counts[t] == 2:
                honour_eyes = t
        c0 = suit_code(counts, 0)
        c1 = suit_code(counts, 9)
        c2 = suit_code(counts, 18)
        dm = declared_starts & 127
        dp = (declared_starts >> 7) & 127
        ds = (declared_starts >> 14) & 127
        for a in range(dec_offset[c0], dec_offset[c0 + 1]):
            wa = dec_words[a]
            for b in range(dec_offset[c1], dec_offset[c1 + 1]):
                wb = dec_words[b]
                for c in range(dec_offset[c2], dec_offset[c2 + 1]):
                    wc = dec_words[c]
                    pongs = (
                        honour_pongs
                        | ((wa >> PONG_SHIFT) & 511)
                        | (((wb >> PONG_SHIFT) & 511) << 9)
                        | (((wc >> PONG_SHIFT) & 511) << 18)
                    )
                    eyes = honour_eyes
                    if wa & 15:
                        eyes = (wa & 15) - 1
                    elif wb & 15:
                        eyes = 9 + (wb & 15) - 1
                    elif wc & 15:
                        eyes = 18 + (wc & 15) - 1
                    cm = (wa >> STARTS_SHIFT) & 127
                    cp = (wb >> STARTS_SHIFT) & 127
                    cs = (wc >> STARTS_SHIFT) & 127
                    n_sheungs = (
                        declared_sheungs
                        + ((wa >> N_SHEUNGS_SHIFT) & 7)
                        + ((wb >> N_SHEUNGS_SHIFT) & 7)
                        + ((wc >> N_SHEUNGS_SHIFT) & 7)
                    )
                    rows, units = honour_pong_rows(pongs, eyes, seat, round_wind)
                    rows |= rows_std | sheung_rows(cm | dm, cp | dp, cs | ds, cm, cp, cs, n_sheungs)
                    if popcount(pongs) == 5:
                        rows |= bit(ALL_PONGS)
                    # all_sheung_nfnh needs no flowers and no honours (9.7); All Step-Up replaces it.
                    if n_sheungs == 5 and nfnh:
                        rows |= bit(ALL_SHEUNG_NFNH)
                    if is_good_eyes_tile(eyes):
                        rows |= bit(GOOD_EYES)
                    if n < info_out.shape[0]:
                        _finish(n, STANDARD, a, b, c, rows, units, hand_units, seat, round_wind, streak, rule_args,
                                info_out, both)
                        n += 1

    # Nico Nico (5.1): seven pairs and a pong, no declared set.
    pong = nico_pong(counts, n_declared)
    if pong >= 0:
        quads = 0
        for t in range(N_KINDS):
            if counts[t] == 4:
                quads += 1
        rows, units = honour_pong_rows(1 << pong, -1, seat, round_wind)
        rows |= base_rows | bit(NICO_NICO)
        if quads:
            rows |= bit(NICO_QUAD_PAIRS)
            units |= quads << QUAD_UNITS_SHIFT
        if is_good_eyes_tile(win):
            rows |= bit(GOOD_EYES)
        _finish(n, NICO_NICO_SHAPE, pong, 0, 0, rows, units, hand_units, seat, round_wind, streak, rule_args, info_out, both)
        n += 1

    # 13 Orphans (5.2, 9.11): every split into eyes and an extra set.
    k = 0
    while True:
        eyes, set_kind, set_tile = thirteen_orphans_split(counts, n_declared, k)
        if eyes < 0:
            break
        units = 0
        rows = base_rows | bit(THIRTEEN_ORPHANS)
        if set_kind == PONG:
            pong_rows, units = honour_pong_rows(1 << set_tile, -1, seat, round_wind)
            rows |= pong_rows
        _finish(n, THIRTEEN_SHAPE, eyes, set_kind, set_tile, rows, units, hand_units, seat, round_wind, streak,
                rule_args, info_out, both)
        n += 1
        k += 1

    # 16 Orphans (5.2, 9.2): three orphan sheungs, the seven honours, eyes.
    eyes = sixteen_orphans_eyes(counts, n_declared)
    if eyes >= 0:
        rows = base_rows | bit(SIXTEEN_ORPHANS)
        if is_good_eyes_tile(eyes):
            rows |= bit(GOOD_EYES)
        counts[eyes] -= 1
        m0 = orphan_sheung(counts, 0)
        m1 = orphan_sheung(counts, 9)
        m2 = orphan_sheung(counts, 18)
        counts[eyes] += 1
        if m0 == m1 and m1 == m2:
            rows |= bit(SISTER_SHEUNGS)
        lo0 = _lowest(m0)
        lo1 = _lowest(m1)
        lo2 = _lowest(m2)
        distinct = lo0 != lo1 and lo1 != lo2 and lo0 != lo2
        if distinct and max(lo0, max(lo1, lo2)) - min(lo0, min(lo1, lo2)) == 2:
            rows |= bit(STEP_UP_MIXED)
        _finish(n, SIXTEEN_SHAPE, eyes, 0, 0, rows, 0, hand_units, seat, round_wind, streak, rule_args, info_out, both)
        n += 1
    counts[win] -= 1
    return n


@jit
def _lowest(mask):
    for i in range(9):
        if mask & (1 << i):
            return i
    return -1


@jit
def best_interpretation(info_out, n, payout_col=INFO_PAYOUT, points_col=INFO_POINTS):
    """Index of the best interpretation (6: payout, then points, then order), or -1."""
    best = -1
    for j in range(n):
        if best < 0:
            best = j
        elif info_out[j, payout_col] > info_out[best, payout_col]:
            best = j
        elif info_out[j, payout_col] == info_out[best, payout_col] and info_out[j, points_col] > info_out[best, points_col]:
            best = j
    return best


@jit
def write_row_points(info_row, rule_args, out):
    """Points of the scoring rows of one interpretation into ``out`` (R,), which must be zeroed."""
    points_t = rule_args[0]
    tiers = rule_args[1]
    m = info_row[INFO_ROWS]
    while m:
        r = lowest_bit(m)
        out[r] = row_value(r, info_row[INFO_UNITS], info_row[INFO_HAND_UNITS], points_t, tiers)
        m &= m - 1


@jit
def make_scratch():
    """Per-thread scratch: counts, held (34,) int64 and info (MAX_INTERPRETATIONS, N_INFO) int64."""
    return (
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros((MAX_INTERPRETATIONS, N_INFO), dtype=np.int64),
    )


BLOCK = 256


def _score_rows(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, ok, rule_args,
                tables, payout, total, points, legal, is_win, chicken, shape, row_points):
    """Score N hands, keeping each hand's best interpretation.

    Inputs are the :class:`fastscore.HandBatch` columns; rows with ``ok`` False
    are skipped (left zero, shape -1).  Outputs are filled in place and must
    be zeroed on entry (only scoring rows of ``row_points`` are written).  Compiled
    twice from this one function: :data:`score_kernel` (parallel) and
    :data:`score_kernel_serial` (small batches: no thread start-up).
    """
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        counts, held, info = make_scratch()
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            shape[i] = -1
            if not ok[i]:
                continue
            m = interpret_hand(concealed[i], declared[i], win[i], self_drawn[i], seat[i], round_wind[i], flowers[i],
                               streak[i], closing[i], -1, rule_args, tables, counts, held, info)
            j = best_interpretation(info, m)
            if j < 0:
                continue
            is_win[i] = True
            shape[i] = info[j, INFO_SHAPE]
            points[i] = info[j, INFO_POINTS]
            chicken[i] = info[j, INFO_CHICKEN] != 0
            total[i] = info[j, INFO_TOTAL]
            legal[i] = info[j, INFO_LEGAL] != 0
            payout[i] = info[j, INFO_PAYOUT]
            write_row_points(info[j], rule_args, row_points[i])


score_kernel = jit_parallel(_score_rows)
score_kernel_serial = jit(_score_rows)
#: Batches smaller than this run on the serial kernel.
PARALLEL_MIN_ROWS = 4 * BLOCK


@jit
def interpretations_kernel(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, rule_args,
                           tables):
    """All interpretations of one hand: (n, info (K, N_INFO), row points (K, R))."""
    counts, held, info = make_scratch()
    n = interpret_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, -1,
                       rule_args, tables, counts, held, info)
    rows = np.zeros((n, N_ROWS), dtype=np.int64)
    for j in range(n):
        write_row_points(info[j], rule_args, rows[j])
    return n, info, rows
