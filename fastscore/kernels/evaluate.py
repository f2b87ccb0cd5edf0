"""Replacement and the section 6 totals, generic over the rows of :mod:`fastscore.kernels.rows`.

An interpretation's rows are two row words, ``rows`` and ``rows_hi``: row ``ROW_IDS[r]``
(:data:`fastscore.kernels.rows.ROW_IDS`) is bit ``r`` of ``rows`` for the first
:data:`fastscore.kernels.rows.WORD_BITS` rows, bit ``r - WORD_BITS`` of ``rows_hi`` for
the others; the rows that count units carry them in
their fields of one units word (:data:`fastscore.kernels.rows.UNIT_SHIFT`, ``UNIT_MASK``).  Values, replacement and which shapes
take which rows are data from the rule table (:mod:`fastscore.rules`),
packed by :func:`pack_rules` and resolved in one generic pass,
:func:`resolve`; a row's value is read by :func:`row_value` (points x units,
or the tier for a tiered row).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from .bits import ctpop64, cttz64
from .rows import DEALER_BITS, EAST_WINS, MAHJONG_BASE, N_ROWS, ROW_TIERS, STREAK_BONUS, UNIT_MASK, UNIT_SHIFT, WORD_BITS

#: Most tiers of a tiered row (the width of :attr:`fastscore.rules.RuleTable.tiers`).
MAX_TIERS = 3


@jit
def bit(r):
    return 1 << r


@jit
def popcount(x):
    """Number of set bits of ``x`` (one instruction; no loop to mispredict)."""
    return ctpop64(np.int64(x))


# Layout of the packed rule array of :func:`pack_rules`: points (R,), tiers (R, 3)
# row-major, replaces_bits (R, 2) (the two row words of the rows row r replaces),
# shape_bits (4, 2), minimum (4,), chicken points,
# each row's units shift (R,), units mask (R,) and number of tiers (R,) (from the
# registry of fastscore.kernels.rows), each row's column of a row-points array (R,;
# -1 for a row not in force) and the number of columns, the payout's base and unit,
# the shapes that win (bit s for shape s), the high row word of the rows in force,
# the double interpretation (0 or 1) and the two row words of its rows counted once,
# the two row words of the replacers, the number of replacers K, the replacers (K,), then for each k
# the two row words of replacers k to K-1 ((K,) low words, then (K,) high words).
RP_POINTS = 0
RP_TIERS = N_ROWS
RP_REPLACES = (1 + MAX_TIERS) * N_ROWS
RP_SHAPES = RP_REPLACES + 2 * N_ROWS
RP_MINIMUM = RP_SHAPES + 8
RP_CHICKEN = RP_MINIMUM + 4
RP_UNIT_SHIFT = RP_CHICKEN + 1
RP_UNIT_MASK = RP_UNIT_SHIFT + N_ROWS
RP_N_TIERS = RP_UNIT_MASK + N_ROWS
RP_COLUMN = RP_N_TIERS + N_ROWS
RP_N_COLUMNS = RP_COLUMN + N_ROWS
RP_PAY_BASE = RP_N_COLUMNS + 1
RP_PAY_UNIT = RP_PAY_BASE + 1
RP_WIN_SHAPES = RP_PAY_UNIT + 1
RP_LIVE_HI = RP_WIN_SHAPES + 1
RP_DOUBLE = RP_LIVE_HI + 1
RP_ONCE = RP_DOUBLE + 1
RP_REPLACER_BITS = RP_ONCE + 2
RP_N_REPLACERS = RP_REPLACER_BITS + 2
RP_REPLACERS = RP_N_REPLACERS + 1


@jit
def pack_rules(rule_args):
    """The rule arrays of :attr:`fastscore.rules.RuleTable.kernel_args` packed into one int64 array.

    The kernels pack once per call and hand the one array down: every array
    passed to a compiled helper costs reference counting on each call.
    """
    (points, tiers, replacers, replaces_bits, shape_bits, minimum, chicken_points, columns, pay_base, pay_unit,
     win_shapes, double, once) = rule_args
    k = replacers.shape[0]
    out = np.zeros(RP_REPLACERS + 3 * k, dtype=np.int64)
    n_columns = 0
    live_hi = 0
    for r in range(N_ROWS):
        out[RP_POINTS + r] = points[r]
        for j in range(MAX_TIERS):
            out[RP_TIERS + MAX_TIERS * r + j] = tiers[r, j]
        out[RP_REPLACES + 2 * r] = replaces_bits[r, 0]
        out[RP_REPLACES + 2 * r + 1] = replaces_bits[r, 1]
        out[RP_UNIT_SHIFT + r] = UNIT_SHIFT[r]
        out[RP_UNIT_MASK + r] = UNIT_MASK[r]
        out[RP_N_TIERS + r] = ROW_TIERS[r]
        out[RP_COLUMN + r] = columns[r]
        n_columns = max(n_columns, columns[r] + 1)
        if r >= WORD_BITS and columns[r] >= 0:
            live_hi |= 1 << (r - WORD_BITS)
    for x in range(4):
        out[RP_SHAPES + 2 * x] = shape_bits[x, 0]
        out[RP_SHAPES + 2 * x + 1] = shape_bits[x, 1]
        out[RP_MINIMUM + x] = minimum[x]
    out[RP_CHICKEN] = chicken_points
    out[RP_N_COLUMNS] = n_columns
    out[RP_PAY_BASE] = pay_base
    out[RP_PAY_UNIT] = pay_unit
    out[RP_WIN_SHAPES] = win_shapes
    out[RP_LIVE_HI] = live_hi
    out[RP_DOUBLE] = double
    out[RP_ONCE] = once[0]
    out[RP_ONCE + 1] = once[1]
    out[RP_N_REPLACERS] = k
    for j in range(k):
        out[RP_REPLACERS + j] = replacers[j]
    later = 0
    later_hi = 0
    for j in range(k - 1, -1, -1):
        r = replacers[j]
        if r < WORD_BITS:
            later |= 1 << r
        else:
            later_hi |= 1 << (r - WORD_BITS)
        out[RP_REPLACERS + k + j] = later
        out[RP_REPLACERS + 2 * k + j] = later_hi
    out[RP_REPLACER_BITS] = later
    out[RP_REPLACER_BITS + 1] = later_hi
    return out


@jit_inline
def row_bit(rows, rows_hi, r):
    """Bit of catalog row ``r`` in the row words ``rows``, ``rows_hi`` (0 or 1); branch-free."""
    high = r >= WORD_BITS
    word = rows_hi if high else rows
    return (word >> (r - WORD_BITS if high else r)) & 1


@jit_inline
def next_row(m, m_hi):
    """The lowest row of the two row words ``m``, ``m_hi`` (not both 0) and the words without it: ``(r, m,
    m_hi)``.  Branch-free, so that a loop over the rows of both words mispredicts once, at its end."""
    low = m != 0
    x = m if low else m_hi
    r = cttz64(np.int64(x)) + (0 if low else WORD_BITS)
    x &= x - 1
    return r, (x if low else m), (m_hi if low else x)


@jit_inline
def resolve(rows, rows_hi, shape, rules):
    """Rows that score, as two row words: fired, taken by the shape, not replaced by a scoring row.

    ``rules`` is :func:`pack_rules`' array: its replacers list the rows that
    replace others, replacing-first; its replaces_bits[r] the rows row r
    replaces; its shape_bits[shape] the rows a shape takes.

    A replaced row replaces nothing, so the order matters only when one scoring replacer replaces another.
    Most hands have no such pair: the rows that the scoring replacers replace, all at once (a loop over the
    few replacers that score, no dependency from one to the next).  Otherwise the list in order.
    """
    scoring = rows & rules[RP_SHAPES + 2 * shape]
    scoring_hi = rows_hi & rules[RP_SHAPES + 2 * shape + 1]
    fire = scoring & rules[RP_REPLACER_BITS]
    fire_hi = scoring_hi & rules[RP_REPLACER_BITS + 1]
    gone = np.int64(0)
    gone_hi = np.int64(0)
    m = fire
    m_hi = fire_hi
    while m | m_hi:
        r, m, m_hi = next_row(m, m_hi)
        gone |= rules[RP_REPLACES + 2 * r]
        gone_hi |= rules[RP_REPLACES + 2 * r + 1]
    if ((gone & fire) | (gone_hi & fire_hi)) == 0:
        return scoring & ~gone, scoring_hi & ~gone_hi
    n = rules[RP_N_REPLACERS]
    for k in range(n):
        # No replacer left among the scoring rows: the rest of the list changes nothing.
        if ((scoring & rules[RP_REPLACERS + n + k]) | (scoring_hi & rules[RP_REPLACERS + 2 * n + k])) == 0:
            break
        r = rules[RP_REPLACERS + k]
        # Branch-free: clear the replaced rows when row r scores.
        fires = -row_bit(scoring, scoring_hi, r)
        scoring &= ~(rules[RP_REPLACES + 2 * r] & fires)
        scoring_hi &= ~(rules[RP_REPLACES + 2 * r + 1] & fires)
    return scoring, scoring_hi


@jit_inline
def row_value(r, units, rules):
    """Points of row ``r`` given the units word ``units`` of its interpretation (``rules``: :func:`pack_rules`):
    points x the row's units (1 for a row of one unit), or, for a tiered row, the tier of that many units
    (the last tier for more)."""
    # One return, so that numba can drop the reference counting of ``rules``.
    mask = rules[RP_UNIT_MASK + r]
    n = ((units >> rules[RP_UNIT_SHIFT + r]) & mask) | np.int64(mask == 0)
    n_tiers = rules[RP_N_TIERS + r]
    value = rules[RP_POINTS + r] * n
    if n_tiers:
        value = rules[RP_TIERS + MAX_TIERS * r + min(n, n_tiers) - 1]
    return value


@jit
def lowest_bit(m):
    """Index of the lowest set bit of ``m`` (0 < m < 2**63): one instruction."""
    return cttz64(np.int64(m))


@jit_inline
def points_of(scoring, scoring_hi, units, rules):
    """Section 6.1: the sum of the ``scoring``, ``scoring_hi`` rows (two row words), dealer rows excluded,
    given the units word ``units`` (``rules``: :func:`pack_rules`)."""
    total = 0
    m = scoring & ~DEALER_BITS
    m_hi = scoring_hi
    while m | m_hi:
        r, m, m_hi = next_row(m, m_hi)
        total += row_value(r, units, rules)
    return total


@jit_inline
def double_points(a_scoring, a_scoring_hi, a_points, b_scoring, b_scoring_hi, b_units, b_points, rules):
    """Points of a double interpretation (``[totals] double_interpretation``): reading A's ``a_points`` plus
    reading B's ``b_points``, less B's value of each row counted once (``RP_ONCE``) that both score
    (``a_scoring``, ``a_scoring_hi`` and ``b_scoring``, ``b_scoring_hi``: their scoring rows as two row words;
    ``b_units``: B's units word)."""
    once = a_scoring & b_scoring & rules[RP_ONCE]
    once_hi = a_scoring_hi & b_scoring_hi & rules[RP_ONCE + 1]
    return a_points + b_points - points_of(once, once_hi, b_units, rules)


@jit_inline
def totals(points, scoring, round_wind, seat, streak, rules):
    """Section 6: (chicken, total, legal, payout) of one interpretation's ``points`` (``rules``: :func:`pack_rules`).

    ``scoring`` is the low word of its scoring rows: the base (``mahjong_base``) adds when it scores, so a row
    that replaces it (hk-taiwanese ``great_chicken``) takes it away.  A table without the Chicken rule has
    chicken points -1 (never met); the payout is the table's base plus its unit x the total (0 and 1 in the
    LRC table), plus the dealer rows for East."""
    minimum = rules[RP_MINIMUM + round_wind]
    chicken = points == rules[RP_CHICKEN]
    base = rules[RP_POINTS + MAHJONG_BASE] * ((scoring >> MAHJONG_BASE) & 1)
    total = minimum if chicken else points + base
    legal = chicken or total >= minimum
    payout = 0
    if legal:
        payout = rules[RP_PAY_BASE] + rules[RP_PAY_UNIT] * total
        if seat == 0:
            payout += rules[RP_POINTS + EAST_WINS] + rules[RP_POINTS + STREAK_BONUS] * streak
    return chicken, total, legal, payout
