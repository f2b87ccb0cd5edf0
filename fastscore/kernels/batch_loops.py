"""The scoring and win-check batch kernels: their per-block row loops (LRC rules sections 2 to 6).

:data:`score_kernel` runs :func:`fastscore.kernels.score.interpret_loaded` on every row that passes the
row check (:func:`fastscore.kernels.checks.row_check_code`) and keeps each hand's best interpretation;
:data:`win_check_kernel` runs the win check alone
(:func:`fastscore.kernels.decompose.is_win_row_bits`).  Both are compiled serial and parallel
(:class:`fastscore._jit.BatchKernel`); :mod:`fastscore.score` calls them.  The per-block loops inline
the whole scoring path (the module docstring of :mod:`fastscore.kernels.score` says why).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_batch, jit_block, jit_inline, prange
from ..tables import ENTRY_OFFSET_SHIFT
from .bits import prefetch
from .checks import row_check_code
from .decompose import add_tile_codes, is_win_row_bits, row_code, without_win_code
from .features import load_hand
from .score import (
    INFO_CHICKEN,
    INFO_LEGAL,
    INFO_PAYOUT,
    INFO_POINTS,
    INFO_SHAPE,
    INFO_TOTAL,
    best_interpretation,
    interpret_loaded,
    make_scratch,
    write_interpretation_points,
)

__all__ = ["BLOCK", "count_scoring_rows", "score_kernel", "win_check_kernel"]


@jit_inline
def fetch_entries(concealed, win, i, suit_entries):
    """Start fetching into the cache the ``suit_entries`` that :func:`interpret_loaded` reads for hand ``i``
    of ``concealed`` (N, 34) and ``win`` (N,); returns the hand's three suit codes with the winning tile.

    Prefetches only (:func:`fastscore.kernels.bits.prefetch`): a row that failed the checks fetches nothing harmful.
    """
    k0 = row_code(concealed, i, 0)
    k1 = row_code(concealed, i, 9)
    k2 = row_code(concealed, i, 18)
    c0, c1, c2 = add_tile_codes(k0, k1, k2, np.int64(win[i]))
    prefetch(suit_entries, c0)
    prefetch(suit_entries, c1)
    prefetch(suit_entries, c2)
    prefetch(suit_entries, without_win_code(k0, k1, k2, c0, c1, c2))
    return c0, c1, c2


@jit_inline
def fetch_decompositions(suit_entries, dec_words, c0, c1, c2):
    """Start fetching the first decomposition words of the suit codes ``c0``-``c2`` (from :func:`fetch_entries`
    a hand earlier, so that their entries are cached by now)."""
    # The codes of a row that failed the checks may lie past the table: clamped, since these are loads.
    last = suit_entries.shape[0] - 1
    prefetch(dec_words, suit_entries[min(c0, last)] >> ENTRY_OFFSET_SHIFT)
    prefetch(dec_words, suit_entries[min(c1, last)] >> ENTRY_OFFSET_SHIFT)
    prefetch(dec_words, suit_entries[min(c2, last)] >> ENTRY_OFFSET_SHIFT)


#: Rows per parallel work item of the batch kernels (also :mod:`fastscore.kernels.waits`').
BLOCK = 256


def _score_rows(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events, error,
                rules, tables, payout, total, points, legal, is_win, chicken, shape, row_points, codes):
    """Score N hands, keeping each hand's best interpretation.

    Inputs are the :class:`fastscore.HandBatch` columns, any values: each row
    not flagged in ``error`` goes through :func:`fastscore.kernels.checks.row_fault`
    first, and ``codes`` (N,) uint8 gets every row's error code (``error``'s,
    the check's, or 0).  Flagged rows and non-wins get zeros (shape -1).
    Every output value of every row is written (the outputs may be
    uninitialised or reused); ``row_points`` (N, R) int16 has a column per row
    in force, or none (R = 0): the row points are then not worked out.
    ``rules`` is the table packed, :attr:`fastscore.rules.RuleTable.packed`
    (one array: each array or tuple item costs the call a type check).  Compiled
    as :data:`score_kernel`, serial for small batches (no thread start-up) and parallel for large ones.
    """
    _, suit_entries, dec_words = tables
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        counts, info, _ = make_scratch()
        _score_block(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events, error,
                     rules, suit_entries, dec_words, payout, total, points, legal, is_win, chicken, shape,
                     row_points, codes, counts, info, b * BLOCK, min(n, (b + 1) * BLOCK))


@jit_block
def _score_block(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events, error,
                 rules, suit_entries, dec_words, payout, total, points, legal, is_win, chicken, shape, row_points,
                 codes, counts, info, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_score_rows`, with :func:`make_scratch`'s ``counts`` and ``info``.

    A plain compiled function without reference counting (:func:`fastscore._jit.jit_block`), called
    once per block, so that the parallel build's loop body stays one call.
    """
    # A software pipeline: while hand i is scored, the table entries of hand i + 2 and then the
    # decompositions of hand i + 1 are fetched.  A hand's own reads would otherwise wait for the memory
    # one after another; the next hand's reads are too far ahead in the code for the CPU to start early.
    q0, q1, q2 = fetch_entries(concealed, win, min(lo + 1, hi - 1), suit_entries)
    n_columns = row_points.shape[1]
    for i in range(lo, hi):
        fetch_decompositions(suit_entries, dec_words, q0, q1, q2)
        q0, q1, q2 = fetch_entries(concealed, win, min(i + 2, hi - 1), suit_entries)
        # Every output of the row, as for a hand that is no win; a win overwrites them.
        shape[i] = -1
        payout[i] = 0
        total[i] = 0
        points[i] = 0
        legal[i] = False
        is_win[i] = False
        chicken[i] = False
        for r in range(n_columns):
            row_points[i, r] = 0
        code = row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, True, i)
        codes[i] = code
        if code != 0:
            continue
        # interpret_hand, inlined by hand: one call level less for the arrays passed down.
        hand = load_hand(concealed, declared, i)
        m = interpret_loaded(win[i], self_drawn[i], seat[i], round_wind[i], flowers[i], streak[i], closing[i],
                             events[i], -1, rules, suit_entries, dec_words, concealed, declared, i, counts, hand, info,
                             False)
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
        if n_columns != 0:
            write_interpretation_points(info, j, rules, row_points, i)


#: :func:`_score_rows`, serial for small batches and parallel for large ones (:class:`fastscore._jit.BatchKernel`).
score_kernel = jit_batch(_score_rows)


def _win_check_rows(concealed, declared, win, seat, round_wind, streak, closing, error, suit_bits, win_shapes,
                    is_win, codes):
    """``is_win[i]``: hand ``i`` completes a shape of section 3 that wins
    (:func:`fastscore.kernels.decompose.is_win_row_bits`).

    The win check alone, without scoring (LRC rules section 3).

    Parameters
    ----------
    concealed : (N, 34) uint8; declared : (N, 5, 2) int8; win : (N,) int8; seat, round_wind : (N,) uint8;
    streak : (N,) int32; closing : (N,) bool
        :class:`fastscore.HandBatch` columns, any values: each row not flagged in ``error`` goes
        through :func:`fastscore.kernels.checks.row_fault` first (a winning tile required).
    error : (N,) uint8
        Rows flagged already (skipped).
    suit_bits : (ceil(5**9 / 32),) uint64
        :func:`fastscore.tables.completeness_bits`.
    win_shapes : int
        The shapes that win, bit s for shape s (:attr:`fastscore.rules.RuleTable.win_shapes_bits`).
    is_win : (N,) bool
        Output, written in place for the rows that pass the check.
    codes : (N,) uint8
        Output: every row's error code (``error``'s, the check's, or 0).
    """
    n = concealed.shape[0]
    for b in prange((n + BLOCK - 1) // BLOCK):
        _win_check_block(concealed, declared, win, seat, round_wind, streak, closing, error, suit_bits, win_shapes,
                         is_win, codes, b * BLOCK, min(n, (b + 1) * BLOCK))


@jit_block
def _win_check_block(concealed, declared, win, seat, round_wind, streak, closing, error, suit_bits, win_shapes,
                     is_win, codes, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_win_check_rows`."""
    for i in range(lo, hi):
        code = row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, True, i)
        codes[i] = code
        if code == 0:
            is_win[i] = is_win_row_bits(concealed, declared, i, np.int64(win[i]), suit_bits, win_shapes)


#: :func:`_win_check_rows`, serial for small batches and parallel for large ones.
win_check_kernel = jit_batch(_win_check_rows)


@jit
def count_scoring_rows(row_points, counts):
    """Add to ``counts`` (R,) int64 the number of hands of ``row_points`` (N, R) int16 in which each row scores."""
    for i in range(row_points.shape[0]):
        for r in range(row_points.shape[1]):
            counts[r] += row_points[i, r] != 0
