"""The discard analysis kernel of 17-tile hands (after the draw, before the discard; LRC rules sections 3, 7).

For every distinct concealed kind of a hand: the shanten after discarding it
(:mod:`fastscore.kernels.shanten`), the kinds whose draw would then lower it
(the useful draws: the 17 tiles after that draw are complete or have a
discard to a lower shanten, which is to say their distance to a complete
hand is one less) and how many copies of those are live (neither held nor
seen).  The waits and payouts of the discards that leave the hand ready are
worked out afterwards by the waits kernel (:func:`fastscore.discard_analysis`).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_batch, jit_block, jit_inline, prange
from ..tiles import N_KINDS
from .checks import hand_fault, row_check_code
from .decompose import ALL_WIN_SHAPES, suit_code
from .shanten import (
    NO_SHAPE,
    capped_entry_into,
    combine,
    entry_distances,
    final_distance,
    group_declared,
    hand_distances,
    honour_code,
    load_counts,
    make_shanten_scratch,
)

__all__ = ["discard_kernel", "discard_hand", "discards_hand"]

_BLOCK = 64  # rows per parallel work item
_POW5 = np.array([5**i for i in range(9)], dtype=np.int64)
_DIST_BITS_ALL = np.uint64((1 << 60) - 1)  # the distance fields of a table entry


#: Where :func:`discard_hand` keeps, in row 0 of its ``work`` scratch, the entry of each draw's group
#: with the draw added (34 int64 holding the uint64 entries): past the caps (``work[0, :34]``) that
#: :func:`fastscore.kernels.shanten.capped_entry_into` reads.
_UP = 64


@jit_inline
def _group_entry(counts, work, code, g, declared_group, number_table, honour_table):
    """The entry of group ``g`` (0-2 the number suits, 3 the honours) for ``counts``: from the tables by
    ``code`` (its base-5 code), or for a group holding declared tiles from
    :func:`fastscore.kernels.shanten.capped_entry_into` (caps in ``work[0, :34]``)."""
    if declared_group:
        return capped_entry_into(counts, work, 9 * g, 9 if g < 3 else 7, g < 3)
    return number_table[code] if g < 3 else honour_table[code]


@jit
def discard_hand(counts, declared_counts, n_declared, live, number_table, honour_table, work, shanten, useful,
                 live_useful, win_shapes):
    """Discard analysis of one 17-tile hand, in place.

    counts : (34,) int64, the 17 concealed tiles (restored on return); declared_counts : (34,) int64,
    the copies in declared sets; n_declared : int; live : (34,) ints, live copies of each kind;
    work : the (3, DP_STATES) int64 scratch of :func:`fastscore.kernels.shanten.capped_entry_into`
    (row 0 from :data:`_UP` also holds the draws' entries).  Writes, for each kind ``x`` held:
    ``shanten[x]`` after discarding it, ``useful[x]`` the bitmask of kinds whose draw then lowers it
    (kinds with a free copy: fewer than 4 held after the discard, declared sets counted),
    ``live_useful[x]`` their live copies; for a kind not held ``shanten[x]`` is :data:`NO_SHAPE` and
    the others 0.  Only the shapes that win count (``win_shapes``: bit s for shape s; the standard
    shape always does).

    A draw lowers the distance of a shape by at most one, so only the shapes at the least distance
    are tried.  The standard shape is updated for the one group a draw changes: its table entry
    (skipped when unchanged), against the other three groups combined once per discard.  A discard
    and a draw in different groups change one group each, so the entry of a draw's group with the
    draw added is looked up once per hand, not once per discard; only a draw in the discard's own
    group needs an entry of its own.  A special shape at the least distance is worked out afresh for
    each draw.
    """
    n_sets = 5 - n_declared
    if n_declared != 0:
        for k in range(N_KINDS):
            work[0, k] = 4 - np.int64(declared_counts[k])
    codes = (suit_code(counts, 0), suit_code(counts, 9), suit_code(counts, 18), honour_code(counts))
    declared_groups = (group_declared(declared_counts, 0, 9), group_declared(declared_counts, 9, 9),
                       group_declared(declared_counts, 18, 9), group_declared(declared_counts, 27, 7))
    full = (_group_entry(counts, work, codes[0], 0, declared_groups[0], number_table, honour_table),
            _group_entry(counts, work, codes[1], 1, declared_groups[1], number_table, honour_table),
            _group_entry(counts, work, codes[2], 2, declared_groups[2], number_table, honour_table),
            _group_entry(counts, work, codes[3], 3, declared_groups[3], number_table, honour_table))
    for t in range(N_KINDS):  # each draw's group with the draw added, in the 17-tile hand
        if counts[t] + declared_counts[t] >= 4:
            continue
        g = min(t // 9, 3)
        counts[t] += 1
        work[0, _UP + t] = np.int64(_group_entry(counts, work, codes[g] + _POW5[t - 9 * g], g, declared_groups[g],
                                                 number_table, honour_table))
        counts[t] -= 1
    for x in range(N_KINDS):
        shanten[x] = NO_SHAPE
        useful[x] = 0
        live_useful[x] = 0
        if counts[x] == 0:
            continue
        gx = min(x // 9, 3)
        counts[x] -= 1
        code_x = codes[gx] - _POW5[x - 9 * gx]
        entry_x = _group_entry(counts, work, code_x, gx, declared_groups[gx], number_table, honour_table)
        e0 = entry_x if gx == 0 else full[0]
        e1 = entry_x if gx == 1 else full[1]
        e2 = entry_x if gx == 2 else full[2]
        eh = entry_x if gx == 3 else full[3]
        standard, nico, thirteen, sixteen = entry_distances(counts, n_declared, e0, e1, e2, eh, win_shapes)
        special = min(nico, thirteen, sixteen)  # a shape that does not win: above every distance
        before = min(standard, special)
        shanten[x] = before - 1
        # Each group's companions, combined: the standard distance after a draw in group g is
        # final_distance(new entry of g, others of g).  Only needed when the standard shape is at the least.
        o0 = o1 = o2 = oh = np.uint64(0)
        if standard == before:
            e01 = combine(e0, e1)
            o0 = combine(combine(e1, e2), eh)
            o1 = combine(combine(e0, e2), eh)
            o2 = combine(e01, eh)
            oh = combine(e01, e2)
        mask = 0
        n_live = 0
        for t in range(N_KINDS):
            if counts[t] + declared_counts[t] >= 4:
                continue
            lower = False
            if standard == before:
                g = min(t // 9, 3)
                old = e0 if g == 0 else (e1 if g == 1 else (e2 if g == 2 else eh))
                others = o0 if g == 0 else (o1 if g == 1 else (o2 if g == 2 else oh))
                if g != gx:
                    new = np.uint64(work[0, _UP + t])
                elif t == x:
                    new = full[g]
                else:
                    counts[t] += 1
                    new = _group_entry(counts, work, code_x + _POW5[t - 9 * g], g, declared_groups[g], number_table,
                                       honour_table)
                    counts[t] -= 1
                if (new ^ old) & _DIST_BITS_ALL != 0:
                    lower = final_distance(new, others, n_sets) < before
            if not lower and special == before:
                counts[t] += 1
                _, nico2, thirteen2, sixteen2 = hand_distances(counts, declared_counts, n_declared, number_table,
                                                               honour_table, work, win_shapes)
                counts[t] -= 1
                lower = min(nico2, thirteen2, sixteen2) < before
            if lower:
                mask |= np.int64(1) << t
                n_live += live[t]
        useful[x] = mask
        live_useful[x] = n_live
        counts[x] += 1


@jit
def _lowest_bit(mask):
    """Index of the lowest set bit of a nonzero int64."""
    t = 0
    while (mask >> t) & 1 == 0:
        t += 1
    return t


@jit
def discards_hand(concealed, declared, win, seen, number_table, honour_table, scratch, shanten, useful, live_useful,
                  win_shapes=ALL_WIN_SHAPES):
    """Discard analysis of one 17-tile hand, the row check included (numba-callable; :mod:`fastscore.nb`).

    concealed : (34,) uint8, C-contiguous, the 16 tiles before the draw; declared : (5, 2) int8; win : the
    drawn tile (0-33); seen : (34,) ints, copies seen elsewhere (discards, others' sets); number_table,
    honour_table : :func:`fastscore.shanten_tables.shanten_tables`; scratch :
    :func:`fastscore.kernels.shanten.make_shanten_scratch`'s.  Fills ``shanten`` (34,) int8, ``useful``
    (34,) int64 and ``live_useful`` (34,) int16 as :func:`discard_hand` (live copies: 4 less those held,
    declared sets included, and those seen, at least 0); returns the row check's code (0: valid; else
    ``shanten`` is all :data:`NO_SHAPE`).  ``win_shapes``: the shapes that win, bit s for shape s (a rule
    table's :attr:`fastscore.rules.RuleTable.win_shapes_bits`; default 15, every shape).
    """
    rows = concealed.reshape((1, N_KINDS))
    decl = declared.reshape((1, declared.shape[0], 2))
    code = hand_fault(rows, decl, 0, win, 0, 0, 0, False, True)
    if code != 0:
        for t in range(N_KINDS):
            shanten[t] = NO_SHAPE
            useful[t] = 0
            live_useful[t] = 0
        return code
    counts, declared_counts, work = scratch
    n_declared = load_counts(rows, decl, win, 0, counts, declared_counts)
    # discard_hand sums the live copies of the useful draws from a (34,) vector; ``seen`` stands in for it
    # (no scratch left for another), and the sums are then worked out from the useful-draw masks.
    discard_hand(counts, declared_counts, n_declared, seen, number_table, honour_table, work, shanten, useful,
                 live_useful, win_shapes)
    for x in range(N_KINDS):
        mask = useful[x]
        n_live = 0
        while mask != 0:
            t = _lowest_bit(mask)
            mask &= mask - 1
            n_live += max(0, 4 - counts[t] - declared_counts[t] - np.int64(seen[t]))
        live_useful[x] = n_live
    return code


def _discard_rows(concealed, declared, win, seat, round_wind, streak, closing, error, seen, number_table,
                  honour_table, win_shapes, shanten, useful, live_useful, live, codes):
    """Every row of a batch of 17-tile hands (the draw in ``win``): :func:`discard_hand` into rows of
    ``shanten`` (N, 34) int8, ``useful`` (N, 34) int64, ``live_useful`` (N, 34) int16 and ``live`` (N, 34)
    int16 (4 less the copies held and ``seen`` (N, 34), at least 0); ``codes`` (N,) uint8 the row check
    (a winning tile required); ``win_shapes`` the shapes that win (bit s for shape s)."""
    n = concealed.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        _discard_block(concealed, declared, win, seat, round_wind, streak, closing, error, seen, number_table,
                       honour_table, win_shapes, shanten, useful, live_useful, live, codes, make_shanten_scratch(),
                       b * _BLOCK, min(n, (b + 1) * _BLOCK))


@jit_block
def _discard_block(concealed, declared, win, seat, round_wind, streak, closing, error, seen, number_table,
                   honour_table, win_shapes, shanten, useful, live_useful, live, codes, scratch, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_discard_rows` (:func:`fastscore._jit.jit_block`), with
    :func:`make_shanten_scratch`'s ``scratch``."""
    counts, declared_counts, work = scratch
    for i in range(lo, hi):
        code = row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, True, i)
        codes[i] = code
        if code != 0:
            for t in range(N_KINDS):
                shanten[i, t] = NO_SHAPE
            continue
        n_declared = load_counts(concealed, declared, win[i], i, counts, declared_counts)
        for t in range(N_KINDS):
            live[i, t] = max(0, 4 - counts[t] - declared_counts[t] - np.int64(seen[i, t]))
        discard_hand(counts, declared_counts, n_declared, live[i], number_table, honour_table, work, shanten[i],
                     useful[i], live_useful[i], win_shapes)


discard_kernel = jit_batch(_discard_rows)
