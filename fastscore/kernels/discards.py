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
from ..shanten_tables import DIST_BITS, ORPHAN_GAIN_SHIFT
from ..tables import POW5
from .bits import ctpop64, cttz64
from .checks import hand_fault, row_check_code
from .decompose import ALL_WIN_SHAPES, suit_code
from .shanten import (
    NO_SHAPE,
    NOT_TAKEN,
    capped_entry_into,
    class_distance,
    combine,
    final_distance,
    group_declared,
    held_histogram,
    honour_code,
    kind_masks,
    load_counts,
    make_shanten_scratch,
    nico_histogram_distance,
    sixteen_distance,
    special_distances,
    thirteen_distance,
)

__all__ = ["discard_kernel", "discard_hand", "discards_hand"]

_BLOCK = 64  # rows per parallel work item
_DIST_BITS_ALL = np.uint64((1 << ORPHAN_GAIN_SHIFT) - 1)  # a table entry's distance fields, below its orphan bits
#: ``_OTHERS[g, h]``: the two groups other than g and h (g != h); ``_OTHERS[g, g]``: the three other than g.
_OTHERS = np.array([[[k for k in range(4) if k not in (g, h)] + [-1] * (g != h) for h in range(4)] for g in range(4)],
                   dtype=np.int64)


#: Where :func:`discard_hand` keeps its per-hand values in row 0 of its ``work`` scratch (int64 holding
#: uint64 entries), past the caps (``work[0, :34]``) that
#: :func:`fastscore.kernels.shanten.capped_entry_into` reads:
_UP = 64  #: ``[_UP + t]``: the entry of kind t's group with t drawn, in the 17-tile hand
_LOWERED = 100  #: ``[_LOWERED + t]``: the distance fields that drawing t lowers (1 in each), in the 17-tile hand
_PAIR = 134  #: ``[_PAIR + 4 g + h]``: the min-plus combination of groups g and h of the 17-tile hand
_REST = 150  #: ``[_REST + g]``: the combination of the three groups other than g
_DRAWN = 154  #: ``[_DRAWN + j]``: the entry of the discard's group with its j-th kind drawn
_MEMO_N = 164  #: ``[_MEMO_N + g]``: how many entries of group g's discards :data:`_MEMO_KEY` holds
_MEMO_KEY = 168  #: ``[_MEMO_KEY + 9 g + k]``: the k-th distinct entry (distance fields) a discard leaves to group g
_MEMO_MASK = 204  #: ``[_MEMO_MASK + 9 g + k]``: the useful draws outside group g with that entry (to 240)
_ALL_KINDS = np.int64((1 << N_KINDS) - 1)


@jit_inline
def _group_entry(counts, work, code, g, declared_group, number_table, honour_table):
    """The entry of group ``g`` (0-2 the number suits, 3 the honours) for ``counts``: from the tables by
    ``code`` (its base-5 code), or for a group holding declared tiles from
    :func:`fastscore.kernels.shanten.capped_entry_into` (caps in ``work[0, :34]``)."""
    if declared_group:
        return capped_entry_into(counts, work, 9 * g, 9 if g < 3 else 7, g < 3)
    return number_table[code] if g < 3 else honour_table[code]


@jit_inline
def _drawn_entries(counts, declared_counts, work, code, entry, g, declared_group, number_table, honour_table, at):
    """Into ``work[0, at + j]``: the entry of group ``g`` (base-5 code ``code`` of ``counts``, entry
    ``entry``) with its j-th kind drawn, or ``entry`` for a kind without a free copy.  A group without
    declared tiles reads the tables with no branch, so that the reads overlap (they mostly miss the
    cache)."""
    base = 9 * g
    n_kinds = 9 if g < 3 else 7
    if declared_group:
        for j in range(n_kinds):
            t = base + j
            if counts[t] + declared_counts[t] >= 4:
                work[0, at + j] = np.int64(entry)
                continue
            counts[t] += 1
            work[0, at + j] = np.int64(capped_entry_into(counts, work, base, n_kinds, g < 3))
            counts[t] -= 1
    elif g < 3:
        for j in range(9):
            work[0, at + j] = np.int64(number_table[code + (POW5[j] if counts[base + j] < 4 else 0)])
    else:
        for j in range(7):
            work[0, at + j] = np.int64(honour_table[code + (POW5[j] if counts[base + j] < 4 else 0)])


@jit_inline
def _tight_fields(a, others, n_sets, d):
    """The distance fields of entry ``a`` (bit ``DIST_BITS * f`` for field f) whose class, completed
    by the matching class of ``others`` (the rest of the hand combined) to ``n_sets`` sets and one
    eyes, reaches the distance ``d``: the classes some best reading of the hand gives this group."""
    word = np.uint64(0)
    for m in range(n_sets + 1):
        if class_distance(a, m, 0) + class_distance(others, n_sets - m, 1) == d:
            word |= np.uint64(1) << np.uint64(DIST_BITS * 2 * m)
        if class_distance(a, m, 1) + class_distance(others, n_sets - m, 0) == d:
            word |= np.uint64(1) << np.uint64(DIST_BITS * (2 * m + 1))
    return word


@jit
def discard_hand(counts, declared_counts, n_declared, live, number_table, honour_table, work, shanten, useful,
                 live_useful, win_shapes):
    """Discard analysis of one 17-tile hand, in place.

    counts : (34,) int64, the 17 concealed tiles (restored on return); declared_counts : (34,) int64,
    the copies in declared sets; n_declared : int; live : (34,) ints, live copies of each kind (0-4);
    work : the (3, DP_STATES) int64 scratch of :func:`fastscore.kernels.shanten.capped_entry_into`
    (row 0 from :data:`_UP` also holds per-hand values).  Writes, for each kind ``x`` held:
    ``shanten[x]`` after discarding it, ``useful[x]`` the bitmask of kinds whose draw then lowers it
    (kinds with a free copy: fewer than 4 held after the discard, declared sets counted),
    ``live_useful[x]`` their live copies; for a kind not held ``shanten[x]`` is :data:`NO_SHAPE` and
    the others 0.  Only the shapes that win count (``win_shapes``: bit s for shape s; the standard
    shape always does).

    A draw lowers a distance by at most one, so only the shapes at the least distance are tried.
    The standard distance is a min-plus combination over the four groups (each number suit, the
    honours).  A draw changes one group g, and lowers each distance field of g's entry by 0 or 1; it
    lowers the hand's distance exactly when it lowers a field of g that some best reading uses (a
    *tight* field: with the other groups combined, it reaches the hand's distance).  So per hand,
    for each draw, the fields it lowers (the entries of the 17-tile hand; a discard leaves the other
    groups as they are), and per discard the tight fields of each group: the other three groups
    combined, from pairs combined once per hand (and once per distinct entry the discard leaves to its
    group: discards leaving the same entry share the useful draws outside it).  Only the discard's own
    group needs the entries of its draws again.  A special shape at the least distance: Nico Nico
    once per count a drawn kind is held (it counts only how many kinds are held once, twice, ...),
    the Orphans shapes per draw, from the masks of kinds held and the suits' entries.
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
    for g in range(4):
        work[0, _MEMO_N + g] = 0
    for g in range(4):  # each draw's group with the draw added, in the 17-tile hand
        _drawn_entries(counts, declared_counts, work, codes[g], full[g], g, declared_groups[g], number_table,
                       honour_table, _UP + 9 * g)
    for t in range(N_KINDS):  # a kind without a free copy has its group's entry: lowers nothing
        g = min(t // 9, 3)
        # 0 or 1 in each field (a draw lowers each distance by at most one): no borrow
        work[0, _LOWERED + t] = np.int64((full[g] & _DIST_BITS_ALL) - (np.uint64(work[0, _UP + t]) & _DIST_BITS_ALL))
    # The live copies as three bit planes (each count is 0 to 4), summed over a mask by popcounts.
    live1 = live2 = live4 = np.int64(0)
    for t in range(N_KINDS):
        n = np.int64(live[t])
        live1 |= (n & 1) << t
        live2 |= ((n >> 1) & 1) << t
        live4 |= ((n >> 2) & 1) << t
    for g in range(4):
        for h in range(g + 1, 4):
            pair = np.int64(combine(full[g], full[h]))
            work[0, _PAIR + 4 * g + h] = pair
            work[0, _PAIR + 4 * h + g] = pair
    for g in range(4):
        a, b, c = _OTHERS[g, g, 0], _OTHERS[g, g, 1], _OTHERS[g, g, 2]
        work[0, _REST + g] = np.int64(combine(np.uint64(work[0, _PAIR + 4 * a + b]), full[c]))
    specials = n_declared == 0 and win_shapes != 1
    m1 = m2 = m3 = m4 = 0
    if specials:
        m1, m2, m3, m4 = kind_masks(counts)
    for x in range(N_KINDS):
        shanten[x] = NO_SHAPE
        useful[x] = 0
        live_useful[x] = 0
        if counts[x] == 0:
            continue
        gx = min(x // 9, 3)
        base = 9 * gx
        n_kinds = 9 if gx < 3 else 7
        counts[x] -= 1
        code_x = codes[gx] - POW5[x - base]
        entry_x = _group_entry(counts, work, code_x, gx, declared_groups[gx], number_table, honour_table)
        rest_x = np.uint64(work[0, _REST + gx])
        standard = final_distance(entry_x, rest_x, n_sets)
        e0 = entry_x if gx == 0 else full[0]
        e1 = entry_x if gx == 1 else full[1]
        e2 = entry_x if gx == 2 else full[2]
        special = nico = thirteen = sixteen = NOT_TAKEN
        k1 = k2 = k3 = k4 = 0
        if specials:  # the masks of the hand left by the discard: x held one time fewer
            held = counts[x] + 1
            bit = np.int64(1) << x
            k1 = m1 & ~bit if held == 1 else m1
            k2 = m2 & ~bit if held == 2 else m2
            k3 = m3 & ~bit if held == 3 else m3
            k4 = m4 & ~bit if held == 4 else m4
            nico, thirteen, sixteen = special_distances(k1, k2, k3, k4, e0, e1, e2, win_shapes)
            special = min(nico, thirteen, sixteen)  # a shape that does not win: above every distance
        before = min(standard, special)
        shanten[x] = before - 1
        # The entries of the discard's group with each of its kinds drawn.
        _drawn_entries(counts, declared_counts, work, code_x, entry_x, gx, declared_groups[gx], number_table,
                       honour_table, _DRAWN)
        mask = 0
        if standard == before:
            tight = _tight_fields(entry_x, rest_x, n_sets, before)
            for j in range(n_kinds):  # a kind without a free copy: the entry unchanged, lowers nothing
                lowered = (entry_x & _DIST_BITS_ALL) - (np.uint64(work[0, _DRAWN + j]) & _DIST_BITS_ALL)
                mask |= np.int64(lowered & tight != 0) << (base + j)
            # The useful draws in the other groups depend on the discard only through its group's
            # entry: discards leaving the same entry (about half of them) share them.
            key = np.int64(entry_x & _DIST_BITS_ALL)
            n_memo = np.int64(work[0, _MEMO_N + gx])
            k = 0
            while k < n_memo and work[0, _MEMO_KEY + 9 * gx + k] != key:
                k += 1
            if k < n_memo:
                mask |= work[0, _MEMO_MASK + 9 * gx + k]
            else:
                outside = np.int64(0)
                for g in range(4):
                    if g == gx:
                        continue
                    a, b = _OTHERS[g, gx, 0], _OTHERS[g, gx, 1]
                    others = combine(entry_x, np.uint64(work[0, _PAIR + 4 * a + b]))
                    tight = np.int64(_tight_fields(full[g], others, n_sets, before))
                    for t in range(9 * g, 9 * g + (9 if g < 3 else 7)):
                        outside |= np.int64(work[0, _LOWERED + t] & tight != 0) << t
                work[0, _MEMO_KEY + 9 * gx + n_memo] = key
                work[0, _MEMO_MASK + 9 * gx + n_memo] = outside
                work[0, _MEMO_N + gx] = n_memo + 1
                mask |= outside
        if special == before:  # no declared set: a kind can be drawn unless held four times
            drawable = _ALL_KINDS & ~k4
            if nico == before:  # Nico Nico counts only how many kinds are held once, twice, ...
                n1, n2, n3, n4 = held_histogram(k1, k2, k3, k4)
                exactly = (_ALL_KINDS & ~k1, k1 & ~k2, k2 & ~k3, k3 & ~k4)
                for held in range(4):  # a draw of a kind held ``held`` times
                    if nico_histogram_distance(n1 + (held == 0) - (held == 1), n2 + (held == 1) - (held == 2),
                                               n3 + (held == 2) - (held == 3), n4 + (held == 3)) < before:
                        mask |= exactly[held] & drawable
            rest = drawable & ~mask
            while rest != 0 and (thirteen == before or sixteen == before):
                t = cttz64(rest)
                bit = np.int64(1) << t
                rest &= rest - 1
                held = counts[t]  # one more after the draw
                d1 = k1 | bit
                d2 = k2 | bit if held >= 1 else k2
                d3 = k3 | bit if held >= 2 else k3
                d4 = k4 | bit if held >= 3 else k4
                if thirteen == before and thirteen_distance(d1, d2, d3, d4) < before:
                    mask |= bit
                elif sixteen == before:
                    f0 = e0
                    f1 = e1
                    f2 = e2
                    if t < 27:
                        g = t // 9
                        drawn = np.uint64(work[0, _DRAWN + t - base]) if g == gx else np.uint64(work[0, _UP + t])
                        f0 = drawn if g == 0 else e0
                        f1 = drawn if g == 1 else e1
                        f2 = drawn if g == 2 else e2
                    if sixteen_distance(d1, d2, f0, f1, f2) < before:
                        mask |= bit
        useful[x] = mask
        live_useful[x] = ctpop64(mask & live1) + 2 * ctpop64(mask & live2) + 4 * ctpop64(mask & live4)
        counts[x] += 1


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
            t = cttz64(mask)
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
