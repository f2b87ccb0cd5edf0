"""The survey kernel: every win of each set of 17 tiles, scored once and tallied (LRC rules sections 3 to 6).

A survey scores each hand of its space (17 concealed tiles with the
winning tile, and declared sets) once per distinct kind it holds, that kind
the winning tile.  Those wins share everything but the winning tile: the
17 tiles, hence their interpretations (section 3) and every feature of the
records but ``win`` and ``single_wait`` (:mod:`fastscore.kernels.features`).
So :func:`survey_kernel` collects a hand's interpretations once
(:func:`fastscore.kernels.score.collect_interpretations`), and for each
winning kind works out only whether it is the hand's only wait and evaluates
again only the rows that read the winning tile
(:attr:`fastscore.kernels.rows.Row.reads_win`, :data:`fastscore.kernels.rows.evaluate_win`)
before the section 6 totals.  The results are those of
:func:`fastscore.score_batch` on every (hand, winning kind) scoring, which the
tests check.  The tallies are added in the kernel, in fixed stripes of
hands: exact integer sums, the same for any thread count.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_batch, jit_block, jit_inline, prange
from ..tables import ENTRY_INFO_MASK
from ..tiles import MAX_DECLARED, N_KINDS
from .decompose import honour_summary_row, row_code
from .evaluate import RP_DOUBLE, RP_LIVE_HI, RP_WIN_SHAPES, double_points, lowest_bit, pack_rules, row_value, totals
from .features import N_FIELDS, context, load_hand, record_with_win
from .rows import WIN_BITS, WIN_BITS_HI, WIN_UNITS, WORD_BITS, evaluate_hand, evaluate_win
from .score import (
    INFO_ROWS,
    INFO_ROWS_HI,
    INFO_SHAPE,
    INFO_UNITS,
    MAX_INTERPRETATIONS,
    NICO_NICO,
    STANDARD,
    collect_interpretations,
    make_scratch,
    only_wait,
    score_interpretation,
)

__all__ = ["survey_kernel"]


def _survey_rows(full, declared, multiplicity, share, win, sampled, self_drawn, seat, round_wind, flowers, rule_args,
                 other_args, compare, tables, offsets, payout, payout_other, w_unweighted, w_weighted, total_acc,
                 rows_acc, shapes_acc, chicken_acc, illegal_acc):
    """Score and tally every win of N hands under one rule table (two with ``compare``).

    Parameters
    ----------
    full : (N, 34) uint8
        Each hand's concealed tiles with the winning tile (valid hands: not checked).
    declared : (N, 5, 2) int8
        Declared sets (kind 0 pads).
    multiplicity, share : (N,) int64
        Weights: a hand's multiplicity in its space, and its share of the unit (``win`` -1).
    win : (N,) int64
        Per hand: -1, each distinct kind of the hand wins once, weight ``share * count`` unweighted and
        that times the multiplicity weighted; else only that tile (a hand not holding it is skipped),
        weight 1 and ``multiplicity * count``.
    sampled : bool
        Every scoring weighs 1 in both weightings (a sampled hand counts once; ``win`` must be a tile).
    self_drawn : (N,) bool; seat, round_wind : (N,) int64 0-3; flowers : (N,) int64 bitmask
        The context of each hand's wins (no streak, no Closing).
    rule_args, other_args : tuples
        :attr:`fastscore.rules.RuleTable.kernel_args` of the table and of the compared one
        (read only with ``compare``).
    tables : tuple
        :func:`fastscore.tables.kernel_tables`.
    offsets : (N + 1,) int64
        Hand i's wins are scorings ``offsets[i]`` .. ``offsets[i + 1] - 1``, by kind.
    payout, payout_other, w_unweighted, w_weighted : (M,) int64
        Outputs per scoring: the payout under each table (-1: no win; ``payout_other`` written only with
        ``compare``) and the two weights.
    total_acc (S, 2, 2), rows_acc (S, 2, 2, R), shapes_acc (S, 2, 2, 5), chicken_acc (S, 2, 2), illegal_acc (S, 2, 2) : int64
        Tallies added to, per stripe, table (0: ``rule_args``, 1: ``other_args``) and weighting
        (:data:`fastscore.survey.tally.WEIGHTINGS`); see :class:`fastscore.survey.tally.Tally`.
    """
    rules = pack_rules(rule_args)
    other = pack_rules(other_args)
    _, suit_entries, dec_words = tables
    n = full.shape[0]
    n_stripes = total_acc.shape[0]
    step = (n + n_stripes - 1) // n_stripes
    for s in prange(n_stripes):
        _survey_stripe(full, declared, multiplicity, share, win, sampled, self_drawn, seat, round_wind, flowers, rules,
                       other, compare, suit_entries, dec_words, offsets, payout, payout_other, w_unweighted,
                       w_weighted, total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc, _stripe_scratch(), s,
                       s * step, min(n, (s + 1) * step))


@jit
def _stripe_scratch():
    """The scratch of one :func:`_survey_stripe`: ``make_scratch``'s counts and info, the interpretations'
    records, the hand being scored as a batch of one (its tiles and its declared sets), the win rows of
    each interpretation for each distinct pattern met in a hand (at most one per kind; columns 0-2: the two
    row words and the units, 3-5 those of the compared table where its shapes that win differ, which changes
    single waits), and the results of each pattern under each table (:func:`_best`)."""
    counts, info, _ = make_scratch()
    return (counts, info, np.zeros((MAX_INTERPRETATIONS, N_FIELDS), dtype=np.int64),
            np.zeros((1, N_KINDS), dtype=np.uint8), np.zeros((1, MAX_DECLARED, 2), dtype=np.int8),
            np.zeros((N_KINDS + 1, MAX_INTERPRETATIONS, 6), dtype=np.int64),
            np.zeros((N_KINDS + 1, 2, 6), dtype=np.int64))


@jit_block
def _survey_stripe(full, declared, multiplicity, share, win, sampled, self_drawn, seat, round_wind, flowers, rules,
                   other, compare, suit_entries, dec_words, offsets, payout, payout_other, w_unweighted, w_weighted,
                   total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc, scratch, s, lo, hi):
    """Hands ``lo`` to ``hi`` of :func:`_survey_rows`, tallied into stripe ``s`` (one call per stripe, without
    reference counting: :func:`fastscore._jit.jit_block`); ``scratch`` is :func:`_stripe_scratch`'s."""
    counts, info, records, row, sets, patterns, results = scratch
    # The interpretations are collected in the shapes that win under either table; each table's best
    # (_best) takes only its own, and a single wait counts only its own shapes' waits.
    shapes = rules[RP_WIN_SHAPES]
    shapes_other = other[RP_WIN_SHAPES] if compare else shapes
    split = shapes_other != shapes
    live_hi = rules[RP_LIVE_HI] | (other[RP_LIVE_HI] if compare else 0)
    for i in range(lo, hi):
        for t in range(N_KINDS):
            row[0, t] = full[i, t]
        for k in range(MAX_DECLARED):
            sets[0, k, 0] = declared[i, k, 0]
            sets[0, k, 1] = declared[i, k, 1]
        win_tile = win[i]
        hand_seat = seat[i]
        hand_round = round_wind[i]
        first = win_tile
        if first < 0:
            first = 0
            while row[0, first] == 0:
                first += 1
        elif row[0, first] == 0:
            continue
        # The interpretations of the 17 tiles, collected as won on ``first`` (no single-wait test yet).
        row[0, first] -= 1
        hand = load_hand(row, sets, 0)
        ctx = context(hand, first, self_drawn[i], hand_seat, hand_round, flowers[i], 0, False, 0)
        hand_rows, hand_rows_hi, hand_units = evaluate_hand(ctx, live_hi)
        m = collect_interpretations(ctx, 0, shapes | shapes_other, live_hi, False, suit_entries, dec_words, row, sets,
                                    0, counts, hand, info, records, True)
        row[0, first] += 1
        # The shapes whose records read the single wait: standard and Nico Nico.
        waits_read = False
        for j in range(m):
            waits_read |= _reads_wait(info[j, INFO_SHAPE])
        # The suits' table info of the 17 tiles: the winning tile's suit changes, the others not.
        f0 = suit_entries[row_code(row, 0, 0)] & ENTRY_INFO_MASK
        f1 = suit_entries[row_code(row, 0, 9)] & ENTRY_INFO_MASK
        f2 = suit_entries[row_code(row, 0, 18)] & ENTRY_INFO_MASK
        honours17 = honour_summary_row(row, 0, -1)
        out = offsets[i]
        n_known = 0
        for t in range(N_KINDS):
            c = np.int64(full[i, t])
            if c == 0 or (win_tile >= 0 and t != win_tile):
                continue
            single = False
            single_other = False
            if waits_read:  # 4.1 single_wait: is t the only wait of the other 16 tiles?
                row[0, t] -= 1
                j0 = f0
                j1 = f1
                j2 = f2
                if t < 9:
                    j0 = suit_entries[row_code(row, 0, 0)] & ENTRY_INFO_MASK
                elif t < 18:
                    j1 = suit_entries[row_code(row, 0, 9)] & ENTRY_INFO_MASK
                elif t < 27:
                    j2 = suit_entries[row_code(row, 0, 18)] & ENTRY_INFO_MASK
                honours16 = honours17 if t < 27 else honour_summary_row(row, 0, -1)
                single = only_wait(row, sets, 0, t, counts, hand.n_declared, j0, j1, j2, honours16, shapes)
                single_other = single
                if split:
                    single_other = only_wait(row, sets, 0, t, counts, hand.n_declared, j0, j1, j2, honours16,
                                             shapes_other)
                row[0, t] += 1
            if sampled:
                wu = np.int64(1)
                ww = np.int64(1)
            elif win_tile < 0:
                wu = share[i] * c
                ww = multiplicity[i] * share[i] * c
            else:
                wu = np.int64(1)
                ww = multiplicity[i] * c
            w_unweighted[out] = wu
            w_weighted[out] = ww
            # The win rows of every interpretation won on t.  A kind whose win rows equal an earlier kind's
            # of this hand has its results: nothing else differs (Row.reads_win, tested).
            for j in range(m):
                win_rows, win_rows_hi, win_units = evaluate_win(
                    record_with_win(records, j, t, single and _reads_wait(info[j, INFO_SHAPE])), live_hi)
                patterns[n_known, j, 0] = win_rows
                patterns[n_known, j, 1] = win_rows_hi
                patterns[n_known, j, 2] = win_units
                if split:
                    win_rows, win_rows_hi, win_units = evaluate_win(
                        record_with_win(records, j, t, single_other and _reads_wait(info[j, INFO_SHAPE])),
                        live_hi)
                patterns[n_known, j, 3] = win_rows
                patterns[n_known, j, 4] = win_rows_hi
                patterns[n_known, j, 5] = win_units
            k = 0
            while k < n_known:
                j = 0
                while j < m and patterns[k, j, 0] == patterns[n_known, j, 0] \
                        and patterns[k, j, 1] == patterns[n_known, j, 1] \
                        and patterns[k, j, 2] == patterns[n_known, j, 2] \
                        and patterns[k, j, 3] == patterns[n_known, j, 3] \
                        and patterns[k, j, 4] == patterns[n_known, j, 4] \
                        and patterns[k, j, 5] == patterns[n_known, j, 5]:
                    j += 1
                if j == m:
                    break
                k += 1
            if k == n_known:  # a new pattern: score it under each table
                _best(info, patterns, k, m, hand_rows, hand_rows_hi, hand_units, hand_seat, hand_round, rules, results,
                      0)
                if compare:
                    _best(info, patterns, k, m, hand_rows, hand_rows_hi, hand_units, hand_seat, hand_round, other,
                          results, 1)
                n_known += 1
            payout[out] = _tally(results, k, 0, wu, ww, total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc, s)
            if compare:
                payout_other[out] = _tally(results, k, 1, wu, ww, total_acc, rows_acc, shapes_acc, chicken_acc,
                                           illegal_acc, s)
            out += 1


@jit_inline
def _reads_wait(shape):
    """A record of this shape carries the single wait (standard and Nico Nico; collect_interpretations)."""
    return shape == STANDARD or shape == NICO_NICO


# Columns of a result of :func:`_best`.
R_SHAPE, R_PAYOUT, R_CHICKEN, R_LEGAL, R_ROWS, R_ROWS_HI = range(6)


@jit_inline
def _best(info, patterns, k, m, hand_rows, hand_rows_hi, hand_units, seat, round_wind, rules, results, table):
    """``results[k, table]`` gets the best of the ``m`` interpretations (``info``) in a shape that wins under
    ``rules``, with the win rows of pattern ``k`` for that table (columns ``3 table`` to ``3 table + 2``)
    (section 6: payout, then points, then order): its shape (-1: none), payout, chicken and legal (0 or 1),
    and the rows it scores with non-zero points (two row words)."""
    best_shape = -1
    best_payout = np.int64(0)
    best_points = np.int64(0)
    best_scoring = np.int64(0)
    best_scoring_hi = np.int64(0)
    best_units = np.int64(0)
    best_chicken = False
    best_legal = False
    # The double interpretation: the Nico Nico one (a_*) and the best standard one (b_*).
    double = rules[RP_DOUBLE] != 0
    a_points = np.int64(-1)
    a_scoring = np.int64(0)
    a_scoring_hi = np.int64(0)
    a_units = np.int64(0)
    b_points = np.int64(-1)
    b_payout = np.int64(0)
    b_scoring = np.int64(0)
    b_scoring_hi = np.int64(0)
    b_units = np.int64(0)
    wins = rules[RP_WIN_SHAPES]
    for j in range(m):
        shape = info[j, INFO_SHAPE]
        if ((wins >> shape) & 1) == 0:
            continue
        rows = ((info[j, INFO_ROWS] | hand_rows) & ~WIN_BITS) | patterns[k, j, 3 * table]
        rows_hi = ((info[j, INFO_ROWS_HI] | hand_rows_hi) & ~WIN_BITS_HI) | patterns[k, j, 3 * table + 1]
        units = ((info[j, INFO_UNITS] | hand_units) & ~WIN_UNITS) | patterns[k, j, 3 * table + 2]
        scoring, scoring_hi, points, chicken, _, legal, pay = score_interpretation(rows, rows_hi, units, shape,
                                                                                  round_wind, seat, 0, rules)
        if best_shape < 0 or pay > best_payout or (pay == best_payout and points > best_points):
            best_shape = shape
            best_payout = pay
            best_points = points
            best_scoring = scoring
            best_scoring_hi = scoring_hi
            best_units = units
            best_chicken = chicken
            best_legal = legal
        if double and shape == NICO_NICO:
            a_points, a_scoring, a_scoring_hi, a_units = points, scoring, scoring_hi, units
        if double and shape == STANDARD and (
                b_points < 0 or pay > b_payout or (pay == b_payout and points > b_points)):
            b_points, b_payout, b_scoring, b_scoring_hi, b_units = points, pay, scoring, scoring_hi, units
    tallied, tallied_hi = _tallied(best_scoring, best_scoring_hi, best_units, rules)
    if a_points >= 0 and b_points >= 0:
        points = double_points(a_scoring, a_scoring_hi, a_points, b_scoring, b_scoring_hi, b_units, b_points, rules)
        best_chicken, _, best_legal, best_payout = totals(points, a_scoring, round_wind, seat, 0, rules)
        best_shape = NICO_NICO
        tallied, tallied_hi = _tallied(a_scoring, a_scoring_hi, a_units, rules)
        more, more_hi = _tallied(b_scoring, b_scoring_hi, b_units, rules)
        tallied |= more
        tallied_hi |= more_hi
    results[k, table, R_SHAPE] = best_shape
    results[k, table, R_PAYOUT] = best_payout if best_shape >= 0 else -1
    results[k, table, R_CHICKEN] = best_chicken
    results[k, table, R_LEGAL] = best_legal
    results[k, table, R_ROWS] = tallied
    results[k, table, R_ROWS_HI] = tallied_hi


@jit_inline
def _tallied(scoring, scoring_hi, units, rules):
    """The rows of ``scoring``, ``scoring_hi`` (two row words) whose value under ``units`` is not 0: a row
    valued 0 by the table is not tallied as scoring."""
    tallied = np.int64(0)
    left = scoring
    while left:
        r = lowest_bit(left)
        left &= left - 1
        if row_value(r, units, rules) != 0:
            tallied |= np.int64(1) << r
    tallied_hi = np.int64(0)
    left = scoring_hi
    while left:
        r = lowest_bit(left)
        left &= left - 1
        if row_value(WORD_BITS + r, units, rules) != 0:
            tallied_hi |= np.int64(1) << r
    return tallied, tallied_hi


@jit_inline
def _tally(results, k, table, wu, ww, total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc, s):
    """Add result ``results[k, table]`` (:func:`_best`) with weights ``wu``, ``ww`` to ``[s, table]`` of the
    accumulators; returns its payout (-1: no win)."""
    shape = results[k, table, R_SHAPE]
    total_acc[s, table, 0] += wu
    total_acc[s, table, 1] += ww
    shapes_acc[s, table, 0, shape + 1] += wu
    shapes_acc[s, table, 1, shape + 1] += ww
    if shape >= 0:
        if results[k, table, R_CHICKEN]:
            chicken_acc[s, table, 0] += wu
            chicken_acc[s, table, 1] += ww
        if not results[k, table, R_LEGAL]:
            illegal_acc[s, table, 0] += wu
            illegal_acc[s, table, 1] += ww
        left = results[k, table, R_ROWS]
        while left:
            r = lowest_bit(left)
            left &= left - 1
            rows_acc[s, table, 0, r] += wu
            rows_acc[s, table, 1, r] += ww
        left = results[k, table, R_ROWS_HI]
        while left:
            r = WORD_BITS + lowest_bit(left)
            left &= left - 1
            rows_acc[s, table, 0, r] += wu
            rows_acc[s, table, 1, r] += ww
    return results[k, table, R_PAYOUT]


#: :func:`_survey_rows`, serial for small batches and parallel for large ones (:class:`fastscore._jit.BatchKernel`).
survey_kernel = jit_batch(_survey_rows)
