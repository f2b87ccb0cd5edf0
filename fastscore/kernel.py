"""The scoring kernel: every interpretation of one hand, scored (RULES.md sections 3 to 6).

:func:`interpret_hand` is the single scoring code path.  The batch kernel
(:func:`score_kernel`) calls it for every hand in parallel and keeps the best
interpretation; :func:`fastscore.interpretations` calls it for one hand and
shows them all.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_parallel, prange
from .decompose import (
    MAX_DECOMPOSITIONS,
    N_KINDS,
    count_waits,
    nico_pong,
    orphan_sheung,
    sixteen_orphans_eyes,
    standard_decompositions,
    thirteen_orphans_split,
)
from .evaluate import (
    ALL_PONGS,
    ALL_SHEUNG_NFNH,
    EAST_WINS,
    GOOD_EYES,
    MAHJONG_BASE,
    N_ROWS,
    NICO_NICO,
    NICO_NICO_SHAPE,
    NICO_QUAD_PAIRS,
    NO_FLOWERS,
    NO_HONOURS,
    SINGLE_WAIT,
    SISTER_SHEUNGS,
    SIXTEEN_ORPHANS,
    SIXTEEN_SHAPE,
    STANDARD,
    STEP_UP_MIXED,
    STREAK_BONUS,
    THIRTEEN_ORPHANS,
    THIRTEEN_SHAPE,
    context_units,
    honour_combination_units,
    honour_pong_units,
    is_good_eyes_tile,
    resolve,
    sheung_units,
    suit_word,
    totals,
)

#: Room for every interpretation of one hand: standard decompositions, Nico
#: Nico, up to 13 Orphans splits (one per eyes), 16 Orphans.
MAX_INTERPRETATIONS = MAX_DECOMPOSITIONS + 15
# Columns of the per-interpretation info array.
INFO_SHAPE, INFO_A, INFO_B, INFO_C, INFO_POINTS, INFO_CHICKEN, INFO_TOTAL, INFO_LEGAL, INFO_PAYOUT = range(9)
N_INFO = 9

SHEUNG, PONG, GONG, CONCEALED_GONG = 1, 2, 3, 4


@jit
def _finish(j, shape, a, b, c, units, seat, round_wind, streak, rule_args, rows_out, info_out):
    points_t, tiers, replaces_ptr, replaces_idx, order, shape_mask, minimum, chicken_points = rule_args
    units[MAHJONG_BASE] = 1
    units[EAST_WINS] = 1 if seat == 0 else 0
    units[STREAK_BONUS] = streak if seat == 0 else 0
    pts = resolve(units, shape, rows_out[j], points_t, tiers, replaces_ptr, replaces_idx, order, shape_mask)
    chicken, total, legal, payout = totals(pts, round_wind, seat, streak, points_t, minimum, chicken_points)
    info_out[j, INFO_SHAPE] = shape
    info_out[j, INFO_A] = a
    info_out[j, INFO_B] = b
    info_out[j, INFO_C] = c
    info_out[j, INFO_POINTS] = pts
    info_out[j, INFO_CHICKEN] = 1 if chicken else 0
    info_out[j, INFO_TOTAL] = total
    info_out[j, INFO_LEGAL] = 1 if legal else 0
    info_out[j, INFO_PAYOUT] = payout


@jit
def load_hand(concealed, declared, counts, held):
    """Fill ``counts`` with the concealed tiles and ``held`` with all 16 tiles.

    Returns (number of declared sets, whether any is exposed).
    """
    n_declared = 0
    exposed = False
    for t in range(N_KINDS):
        counts[t] = concealed[t]
        held[t] = concealed[t]
    for k in range(declared.shape[0]):
        kind = declared[k, 0]
        t = declared[k, 1]
        if kind == 0:
            continue
        n_declared += 1
        if kind != CONCEALED_GONG:
            exposed = True
        if kind == SHEUNG:
            held[t] += 1
            held[t + 1] += 1
            held[t + 2] += 1
        else:
            held[t] += 4 if kind >= GONG else 3
    return n_declared, exposed


@jit
def interpret_hand(
    concealed,
    declared,
    win,
    self_drawn,
    seat,
    round_wind,
    flowers,
    streak,
    closing,
    known_waits,
    rule_args,
    tables,
    counts,
    held,
    eyes_buf,
    pongs_buf,
    sheungs_buf,
    base_units,
    units,
    pongs,
    sheungs,
    rows_out,
    info_out,
):
    """Score every interpretation of one hand; return how many were written.

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
    counts .. sheungs : scratch arrays (see :func:`make_scratch`).
    rows_out : (K, R) int64 and info_out : (K, 9) int64
        Row points and (shape, a, b, c, points, chicken, total, legal, payout)
        of each interpretation, in RULES.md 9.13 order.
    """
    n_declared, exposed = load_hand(concealed, declared, counts, held)
    held[win] += 1
    word = suit_word(held)
    held[win] -= 1
    context_units(base_units, word, self_drawn, not exposed, closing, flowers, seat)
    counts[win] += 1

    n = 0
    n_waits = known_waits
    # Standard decompositions (section 3), combined with the declared sets.
    nd = standard_decompositions(counts, tables, eyes_buf, pongs_buf, sheungs_buf)
    if nd and n_waits < 0:
        counts[win] -= 1
        n_waits = count_waits(counts, n_declared, held, tables[0])
        counts[win] += 1
    for j in range(nd):
        for r in range(N_ROWS):
            units[r] = base_units[r]
        units[SINGLE_WAIT] = 1 if n_waits == 1 else 0
        n_pongs = 0
        n_sheungs = 0
        for t in range(N_KINDS):
            pongs[t] = pongs_buf[j, t]
            sheungs[t] = sheungs_buf[j, t]
        for k in range(declared.shape[0]):
            kind = declared[k, 0]
            if kind == SHEUNG:
                sheungs[declared[k, 1]] += 1
            elif kind != 0:
                pongs[declared[k, 1]] += 1
        for t in range(N_KINDS):
            n_pongs += pongs[t]
            n_sheungs += sheungs[t]
            if pongs[t] and t >= 27:
                honour_pong_units(units, t, seat, round_wind)
        eyes = eyes_buf[j]
        honour_combination_units(units, pongs, eyes)
        units[ALL_PONGS] = 1 if n_pongs == 5 else 0
        # all_sheung_nfnh needs no flowers and no honours (9.7); All Step-Up replaces it.
        units[ALL_SHEUNG_NFNH] = 1 if n_sheungs == 5 and units[NO_HONOURS] and units[NO_FLOWERS] else 0
        sheung_units(units, sheungs, sheungs_buf[j], n_sheungs)
        units[GOOD_EYES] = 1 if is_good_eyes_tile(eyes) else 0
        _finish(n, STANDARD, j, eyes, 0, units, seat, round_wind, streak, rule_args, rows_out, info_out)
        n += 1

    # Nico Nico (5.1): seven pairs and a pong, no declared set.
    pong = nico_pong(counts, n_declared)
    if pong >= 0:
        for r in range(N_ROWS):
            units[r] = base_units[r]
        quads = 0
        for t in range(N_KINDS):
            if counts[t] == 4:
                quads += 1
        units[NICO_NICO] = 1
        units[NICO_QUAD_PAIRS] = quads
        honour_pong_units(units, pong, seat, round_wind)
        units[GOOD_EYES] = 1 if is_good_eyes_tile(win) else 0
        _finish(n, NICO_NICO_SHAPE, pong, 0, 0, units, seat, round_wind, streak, rule_args, rows_out, info_out)
        n += 1

    # 13 Orphans (5.2, 9.11): every split into eyes and an extra set.
    k = 0
    while True:
        eyes, set_kind, set_tile = thirteen_orphans_split(counts, n_declared, k)
        if eyes < 0:
            break
        for r in range(N_ROWS):
            units[r] = base_units[r]
        units[THIRTEEN_ORPHANS] = 1
        if set_kind == PONG:
            honour_pong_units(units, set_tile, seat, round_wind)
        _finish(n, THIRTEEN_SHAPE, eyes, set_kind, set_tile, units, seat, round_wind, streak, rule_args, rows_out, info_out)
        n += 1
        k += 1

    # 16 Orphans (5.2, 9.2): three orphan sheungs, the seven honours, eyes.
    eyes = sixteen_orphans_eyes(counts, n_declared)
    if eyes >= 0:
        for r in range(N_ROWS):
            units[r] = base_units[r]
        units[SIXTEEN_ORPHANS] = 1
        units[GOOD_EYES] = 1 if is_good_eyes_tile(eyes) else 0
        counts[eyes] -= 1
        m0 = orphan_sheung(counts, 0)
        m1 = orphan_sheung(counts, 9)
        m2 = orphan_sheung(counts, 18)
        counts[eyes] += 1
        units[SISTER_SHEUNGS] = 1 if m0 == m1 and m1 == m2 else 0
        lo0 = _lowest(m0)
        lo1 = _lowest(m1)
        lo2 = _lowest(m2)
        lo_min = min(lo0, min(lo1, lo2))
        lo_max = max(lo0, max(lo1, lo2))
        distinct = lo0 != lo1 and lo1 != lo2 and lo0 != lo2
        units[STEP_UP_MIXED] = 1 if distinct and lo_max - lo_min == 2 else 0
        _finish(n, SIXTEEN_SHAPE, eyes, 0, 0, units, seat, round_wind, streak, rule_args, rows_out, info_out)
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
def best_interpretation(info_out, n):
    """Index of the best interpretation (6: payout, then points, then order), or -1."""
    best = -1
    for j in range(n):
        if best < 0:
            best = j
        elif info_out[j, INFO_PAYOUT] > info_out[best, INFO_PAYOUT]:
            best = j
        elif (
            info_out[j, INFO_PAYOUT] == info_out[best, INFO_PAYOUT]
            and info_out[j, INFO_POINTS] > info_out[best, INFO_POINTS]
        ):
            best = j
    return best


@jit
def make_scratch():
    """Per-thread scratch: counts, held, eyes_buf, pongs_buf, sheungs_buf, base_units, units, pongs, sheungs, rows, info."""
    return (
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros(MAX_DECOMPOSITIONS, dtype=np.int64),
        np.zeros((MAX_DECOMPOSITIONS, N_KINDS), dtype=np.int64),
        np.zeros((MAX_DECOMPOSITIONS, N_KINDS), dtype=np.int64),
        np.zeros(N_ROWS, dtype=np.int64),
        np.zeros(N_ROWS, dtype=np.int64),
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros((MAX_INTERPRETATIONS, N_ROWS), dtype=np.int64),
        np.zeros((MAX_INTERPRETATIONS, N_INFO), dtype=np.int64),
    )


BLOCK = 256


def _score_rows(
    concealed,
    declared,
    win,
    self_drawn,
    seat,
    round_wind,
    flowers,
    streak,
    closing,
    ok,
    rule_args,
    tables,
    payout,
    total,
    points,
    legal,
    is_win,
    chicken,
    shape,
    row_points,
):
    """Score N hands, keeping each hand's best interpretation.

    Inputs are the :class:`fastscore.HandBatch` columns; rows with ``ok`` False
    are skipped (left zero, shape -1).  Outputs are filled in place.  Compiled
    twice from this one function: :data:`score_kernel` (parallel) and
    :data:`score_kernel_serial` (small batches: no thread start-up).
    """
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        counts, held, eyes_buf, pongs_buf, sheungs_buf, base_units, units, pongs, sheungs, rows, info = make_scratch()
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            shape[i] = -1
            if not ok[i]:
                continue
            m = interpret_hand(
                concealed[i],
                declared[i],
                win[i],
                self_drawn[i],
                seat[i],
                round_wind[i],
                flowers[i],
                streak[i],
                closing[i],
                -1,
                rule_args,
                tables,
                counts,
                held,
                eyes_buf,
                pongs_buf,
                sheungs_buf,
                base_units,
                units,
                pongs,
                sheungs,
                rows,
                info,
            )
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
            for r in range(rows.shape[1]):
                row_points[i, r] = rows[j, r]


score_kernel = jit_parallel(_score_rows)
score_kernel_serial = jit(_score_rows)
#: Batches smaller than this run on the serial kernel.
PARALLEL_MIN_ROWS = 4 * BLOCK


@jit
def interpretations_kernel(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, rule_args,
                           tables):
    """All interpretations of one hand: (n, rows (K, R), info (K, 9), eyes_buf, pongs_buf, sheungs_buf)."""
    counts, held, eyes_buf, pongs_buf, sheungs_buf, base_units, units, pongs, sheungs, rows, info = make_scratch()
    n = interpret_hand(
        concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, -1, rule_args, tables,
        counts, held, eyes_buf, pongs_buf, sheungs_buf, base_units, units, pongs, sheungs, rows, info,
    )
    return n, rows, info, eyes_buf, pongs_buf, sheungs_buf
