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
from ..shanten_tables import DIST_BITS, DIST_MASK, ORPHAN_GAIN_SHIFT
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
    group_entry,
    held_histogram,
    honour_code,
    kind_masks,
    load_counts,
    make_shanten_scratch,
    nico_histogram_distance,
    orphan_eyes,
    orphan_gain,
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
_CLASS_DRAWS = 164  #: ``[_CLASS_DRAWS + 12 g + c]``: the draws outside group g that lower a class some best
#: reading of the other three groups to class c (field index 2 m + e) uses (to 212)
_NICO_DRAWS = 212  #: ``[_NICO_DRAWS + h]``: after the discard of a kind held h times, bit j set when the draw
#: of a kind held j times lowers Nico Nico's distance (-1: not worked out yet; to 217)
_PAIR_REVERSED = 217  #: ``[_PAIR_REVERSED + 4 g + h]``: :data:`_PAIR` with its fields in reverse order (to 233)
_REST_REVERSED = 233  #: ``[_REST_REVERSED + g]``: :data:`_REST` with its fields in reverse order (to 237)
_ALL_KINDS = np.int64((1 << N_KINDS) - 1)
_HONOURS = np.int64(((1 << 7) - 1) << 27)
_EVEN_FIELDS = np.uint64(sum(DIST_MASK << (10 * i) for i in range(6)))  # fields 0, 2, ..., 10
_SLOT_ONES = np.uint64(sum(1 << (10 * i) for i in range(6)))  # 1 in each 10-bit slot of an even field
#: ``_FIELDS_UP_TO[k, e]``: the fields (bit 5 f) of class (m sets, e' eyes) with m <= k and e' <= e
_FIELDS_UP_TO = np.array([[sum(1 << (DIST_BITS * (2 * m + e)) for m in range(k + 1) for e in range(ec + 1))
                           for ec in range(2)] for k in range(6)], dtype=np.uint64)


@jit_inline
def _reversed_fields(entry):
    """The 12 distance fields of ``entry`` in reverse order (field f moved to field 11 - f)."""
    out = np.uint64(0)
    for f in range(12):
        out |= ((entry >> np.uint64(DIST_BITS * f)) & np.uint64(DIST_MASK)) << np.uint64(DIST_BITS * (11 - f))
    return out


@jit_inline
def _fields_equal(a, b, d):
    """The fields f (bit 5 f) where field f of ``a`` plus field f of ``b`` equals ``d`` (0-31): the even and
    the odd fields summed apart in 10-bit slots, so that no sum (at most 62) reaches the next field."""
    pattern = np.uint64(d) * _SLOT_ONES
    below = np.uint64(63) * _SLOT_ONES  # a slot's difference (0-63) plus 63 sets its bit 6 unless 0
    bit6 = np.uint64(64) * _SLOT_ONES
    even = ((a & _EVEN_FIELDS) + (b & _EVEN_FIELDS)) ^ pattern
    odd = (((a >> np.uint64(DIST_BITS)) & _EVEN_FIELDS) + ((b >> np.uint64(DIST_BITS)) & _EVEN_FIELDS)) ^ pattern
    even_eq = ~((even + below) & bit6) & bit6
    odd_eq = ~((odd + below) & bit6) & bit6
    return (even_eq >> np.uint64(6)) | (odd_eq >> np.uint64(1))  # back to bit 5 f


@jit_inline
def _orphan_draws(work, at, entry, base):
    """For the number suit at ``base`` (entry ``entry``, the entry with its j-th kind drawn in
    ``work[0, at + j]``): the kinds whose draw raises the tiles of its best orphan sheung (by one: bit
    ``base + j``), and the kinds whose draw leaves a best orphan sheung holding a pair."""
    gain = orphan_gain(entry)
    raise_mask = np.int64(0)
    eyes_mask = np.int64(0)
    for j in range(9):
        drawn = np.uint64(work[0, at + j])
        raise_mask |= np.int64(orphan_gain(drawn) > gain) << (base + j)
        eyes_mask |= orphan_eyes(drawn) << (base + j)
    return raise_mask, eyes_mask


@jit_inline
def _sixteen_suit_draws(raise_mask, eyes_mask, eyes, eyes_elsewhere, base):
    """The kinds of the number suit at ``base`` whose draw lowers the 16 Orphans distance.

    That distance is 17 less the honours held, each suit's orphan sheung tiles and the eyes (1 when an
    honour pair or some suit's best orphan sheung gives them; :func:`fastscore.kernels.shanten.sixteen_distance`).
    A draw in this suit lowers it when the suit's tiles (``raise_mask``: one more) plus the eyes grow:
    with eyes elsewhere (``eyes_elsewhere``) only a raise does; else, when the suit now gives the eyes
    (``eyes``), a raise that keeps them (``eyes_mask``); else a raise or the eyes found."""
    if eyes_elsewhere:
        chosen = raise_mask
    elif eyes:
        chosen = raise_mask & eyes_mask
    else:
        chosen = raise_mask | eyes_mask
    return chosen & (np.int64(0x1FF) << base)


@jit_inline
def _drawn_entries(counts, declared_counts, work, code, entry, g, declared_group, number_table, honour_table, at):
    """Into ``work[0, at + j]``: the entry of group ``g`` (base-5 code ``code`` of ``counts``, entry
    ``entry``) with its j-th kind drawn, or ``entry`` for a kind without a free copy
    (:func:`fastscore.kernels.shanten.group_entry` for each draw).  A group without
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
def _class_draws(work, full, gx, c, rest):
    """The draws outside group ``gx`` that lower a class of their group which some best reading of the
    three groups other than gx, to class ``c`` (field index 2 m + e; ``rest`` their combination),
    uses: a class of group g whose distance, with the best of the other two to the rest of c, reaches
    rest's distance for c (the pairs' fields reversed in ``work[0, _PAIR_REVERSED ...]``, so that one
    shift lines up each class of g with the pair's rest of c and :func:`_fields_equal` tests all of
    them at once; the fields each draw lowers in ``work[0, _LOWERED ...]``)."""
    k = c // 2
    e_c = c % 2
    d = class_distance(rest, k, e_c)
    draws = np.int64(0)
    for g in range(4):
        if g == gx:
            continue
        a, b = _OTHERS[g, gx, 0], _OTHERS[g, gx, 1]
        # field f = 2 m + e of the pair's reversed fields shifted: the pair's class (k - m, e_c - e)
        shifted = np.uint64(work[0, _PAIR_REVERSED + 4 * a + b]) >> np.uint64(DIST_BITS * (11 - 2 * k - e_c))
        tight = _fields_equal(full[g], shifted, d) & _FIELDS_UP_TO[k, e_c]
        for t in range(9 * g, 9 * g + (9 if g < 3 else 7)):
            draws |= np.int64(np.uint64(work[0, _LOWERED + t]) & tight != 0) << t
    return draws


@jit
def discard_hand(counts, declared_counts, n_declared, live, number_table, honour_table, work, shanten, useful,
                 live_useful, win_shapes):
    """Discard analysis of one 17-tile hand, in place.

    counts : (34,) int64, the 17 concealed tiles (restored on return); declared_counts : (34,) int64,
    the copies in declared sets; n_declared : int; live : (34,) ints, live copies of each kind (0-4;
    read in full before any output is written, so it may be ``live_useful`` itself);
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
    groups as they are), the pairs of groups combined and each group's three others combined; per
    discard, the tight fields of its own group (from its entry and the other three combined) and the
    entries of its draws.  A best reading gives the discard's group gx a tight field f and the other
    three groups their best reading to the complement class c of f, so the useful draws outside gx
    depend only on (gx, c): worked out once per hand for each (gx, c) some discard needs
    (:func:`_class_draws`).  A special shape at the least distance: Nico Nico once per count the
    discard and a draw are held (it counts only how many kinds are held once, twice, ...), the 16
    Orphans draws as masks (honours, and the draws that raise a suit's orphan sheung or give the
    eyes), 13 Orphans per draw.  A discard leaves a special distance equal to the 17-tile hand's or one
    more, so a shape whose 17-tile distance is above a discard's standard distance is not tried.
    """
    n_sets = 5 - n_declared
    if n_declared != 0:
        for k in range(N_KINDS):
            work[0, k] = 4 - np.int64(declared_counts[k])
    codes = (suit_code(counts, 0), suit_code(counts, 9), suit_code(counts, 18), honour_code(counts))
    declared_groups = (group_declared(declared_counts, 0, 9), group_declared(declared_counts, 9, 9),
                       group_declared(declared_counts, 18, 9), group_declared(declared_counts, 27, 7))
    full = (group_entry(counts, work, codes[0], 0, declared_groups[0], number_table, honour_table),
            group_entry(counts, work, codes[1], 1, declared_groups[1], number_table, honour_table),
            group_entry(counts, work, codes[2], 2, declared_groups[2], number_table, honour_table),
            group_entry(counts, work, codes[3], 3, declared_groups[3], number_table, honour_table))
    class_done = np.int64(0)  # bit 12 g + c: _CLASS_DRAWS[12 g + c] worked out
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
            reversed_pair = np.int64(_reversed_fields(np.uint64(pair)))
            work[0, _PAIR_REVERSED + 4 * g + h] = reversed_pair
            work[0, _PAIR_REVERSED + 4 * h + g] = reversed_pair
    for g in range(4):
        a, b, c = _OTHERS[g, g, 0], _OTHERS[g, g, 1], _OTHERS[g, g, 2]
        rest = combine(np.uint64(work[0, _PAIR + 4 * a + b]), full[c])
        work[0, _REST + g] = np.int64(rest)
        work[0, _REST_REVERSED + g] = np.int64(_reversed_fields(rest))
    specials = n_declared == 0 and win_shapes != 1
    m1 = m2 = m3 = m4 = 0
    raise_up = eyes_up = np.int64(0)
    n17 = t17 = s17 = NOT_TAKEN
    nico_after = (NOT_TAKEN, NOT_TAKEN, NOT_TAKEN, NOT_TAKEN, NOT_TAKEN)
    floor = NOT_TAKEN  # no discard leaves a special distance below the 17-tile hand's
    if specials:
        m1, m2, m3, m4 = kind_masks(counts)
        n17, t17, s17 = special_distances(m1, m2, m3, m4, full[0], full[1], full[2], win_shapes)
        floor = min(n17, t17, s17)
        if n17 < NOT_TAKEN:
            for h in range(5):
                work[0, _NICO_DRAWS + h] = -1
            n1, n2, n3, n4 = held_histogram(m1, m2, m3, m4)
            # nico_after[h]: Nico Nico's distance after the discard of a kind held h times (1-4; a count
            # no kind is held has a meaningless entry, never read)
            nico_after = (NOT_TAKEN, nico_histogram_distance(n1 - 1, n2, n3, n4),
                          nico_histogram_distance(n1 + 1, n2 - 1, n3, n4),
                          nico_histogram_distance(n1, n2 + 1, n3 - 1, n4),
                          nico_histogram_distance(n1, n2, n3 + 1, n4 - 1))
        if floor < NOT_TAKEN:  # which draws raise each suit's orphan sheung, for 16 Orphans
            for g in range(3):
                r, e = _orphan_draws(work, _UP + 9 * g, full[g], 9 * g)
                raise_up |= r
                eyes_up |= e
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
        entry_x = group_entry(counts, work, code_x, gx, declared_groups[gx], number_table, honour_table)
        rest_x = np.uint64(work[0, _REST + gx])
        standard = final_distance(entry_x, rest_x, n_sets)
        e0 = entry_x if gx == 0 else full[0]
        e1 = entry_x if gx == 1 else full[1]
        e2 = entry_x if gx == 2 else full[2]
        special = nico = thirteen = sixteen = NOT_TAKEN
        k1 = k2 = k3 = k4 = 0
        if floor <= standard:  # the masks of the hand left by the discard: x held one time fewer
            held = counts[x] + 1
            bit = np.int64(1) << x
            k1 = m1 & ~bit if held == 1 else m1
            k2 = m2 & ~bit if held == 2 else m2
            k3 = m3 & ~bit if held == 3 else m3
            k4 = m4 & ~bit if held == 4 else m4
            # A discard leaves each special distance as the 17-tile hand's or one more: only a shape
            # that may be at the least distance is worked out.
            if n17 <= standard:  # Nico Nico counts only how many kinds are held once, twice, ...
                nico = nico_after[held]
            if t17 <= standard:
                thirteen = thirteen_distance(k1, k2, k3, k4)
            if s17 <= standard:
                sixteen = sixteen_distance(k1, k2, e0, e1, e2)
            special = min(nico, thirteen, sixteen)  # a shape that does not win: above every distance
        before = min(standard, special)
        shanten[x] = before - 1
        # The entries of the discard's group with each of its kinds drawn.
        _drawn_entries(counts, declared_counts, work, code_x, entry_x, gx, declared_groups[gx], number_table,
                       honour_table, _DRAWN)
        mask = 0
        if standard == before:
            # field f = 2 m + e of the rest's reversed fields shifted: the rest's class (n_sets - m, 1 - e)
            rest_shifted = np.uint64(work[0, _REST_REVERSED + gx]) >> np.uint64(DIST_BITS * (10 - 2 * n_sets))
            tight = _fields_equal(entry_x, rest_shifted, before) & _FIELDS_UP_TO[n_sets, 1]
            for j in range(n_kinds):  # a kind without a free copy: the entry unchanged, lowers nothing
                lowered = (entry_x & _DIST_BITS_ALL) - (np.uint64(work[0, _DRAWN + j]) & _DIST_BITS_ALL)
                mask |= np.int64(lowered & tight != 0) << (base + j)
            # A best reading of the hand gives group gx a tight class f and the other three groups
            # (whose entries the discard leaves as they are) the rest, class c = complement of f, at
            # their best for c (_REST).  So the useful draws outside gx are those that lower a class
            # of their group some best reading of the three to class c uses: per hand and (gx, c).
            fields = tight
            while fields != 0:
                f = cttz64(np.int64(fields)) // DIST_BITS
                fields &= fields - np.uint64(1)
                c = 2 * (n_sets - f // 2) + 1 - f % 2
                slot = 12 * gx + c
                if (class_done >> slot) & 1 == 0:
                    work[0, _CLASS_DRAWS + slot] = _class_draws(work, full, gx, c, rest_x)
                    class_done |= np.int64(1) << slot
                mask |= work[0, _CLASS_DRAWS + slot]
        if special == before:  # no declared set: a kind can be drawn unless held four times
            drawable = _ALL_KINDS & ~k4
            if nico == before:  # Nico Nico counts only how many kinds are held once, twice, ...
                h = counts[x] + 1
                classes = work[0, _NICO_DRAWS + h]
                if classes < 0:  # the first discard of a kind held h times: the same for the others
                    n1, n2, n3, n4 = held_histogram(k1, k2, k3, k4)
                    classes = 0
                    for held in range(4):  # a draw of a kind held ``held`` times
                        if nico_histogram_distance(n1 + (held == 0) - (held == 1), n2 + (held == 1) - (held == 2),
                                                   n3 + (held == 2) - (held == 3), n4 + (held == 3)) < before:
                            classes |= 1 << held
                    work[0, _NICO_DRAWS + h] = classes
                exactly = (_ALL_KINDS & ~k1, k1 & ~k2, k2 & ~k3, k3 & ~k4)
                for held in range(4):
                    if (classes >> held) & 1:
                        mask |= exactly[held] & drawable
            if sixteen == before:  # 16 Orphans: honours not held, an honour pair, each suit's orphan sheung
                raise_mask = raise_up
                eyes_mask = eyes_up
                if gx < 3:
                    r, e = _orphan_draws(work, _DRAWN, entry_x, base)
                    suit_bits = np.int64(0x1FF) << base
                    raise_mask = (raise_mask & ~suit_bits) | r
                    eyes_mask = (eyes_mask & ~suit_bits) | e
                y0 = orphan_eyes(e0)
                y1 = orphan_eyes(e1)
                y2 = orphan_eyes(e2)
                yh = np.int64((k2 & _HONOURS) != 0)
                draws = (_HONOURS & ~k1) | (_HONOURS & k1 & ~k2 if (y0 | y1 | y2 | yh) == 0 else 0)
                draws |= _sixteen_suit_draws(raise_mask, eyes_mask, y0, y1 | y2 | yh, 0)
                draws |= _sixteen_suit_draws(raise_mask, eyes_mask, y1, y0 | y2 | yh, 9)
                draws |= _sixteen_suit_draws(raise_mask, eyes_mask, y2, y0 | y1 | yh, 18)
                mask |= draws & drawable
            rest = drawable & ~mask
            while rest != 0 and thirteen == before:
                t = cttz64(rest)
                bit = np.int64(1) << t
                rest &= rest - 1
                held = counts[t]  # one more after the draw
                d1 = k1 | bit
                d2 = k2 | bit if held >= 1 else k2
                d3 = k3 | bit if held >= 2 else k3
                d4 = k4 | bit if held >= 3 else k4
                if thirteen_distance(d1, d2, d3, d4) < before:
                    mask |= bit
        useful[x] = mask
        live_useful[x] = ctpop64(mask & live1) + 2 * ctpop64(mask & live2) + 4 * ctpop64(mask & live4)
        counts[x] += 1


@jit_block
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
    for t in range(N_KINDS):  # the live copies, in live_useful until discard_hand has read them
        live_useful[t] = max(0, 4 - counts[t] - declared_counts[t] - np.int64(seen[t]))
    discard_hand(counts, declared_counts, n_declared, live_useful, number_table, honour_table, work, shanten, useful,
                 live_useful, win_shapes)
    return code


def _discard_rows(concealed, declared, win, seat, round_wind, streak, closing, error, seen, number_table,
                  honour_table, win_shapes, shanten, useful, live_useful, live, codes):
    """Every row of a batch of 17-tile hands (the draw in ``win``): :func:`discard_hand` into rows of
    ``shanten`` (N, 34) int8, ``useful`` (N, 34) int64, ``live_useful`` (N, 34) int16 and ``live`` (N, 34)
    int16 (4 less the copies held and ``seen`` (N, 34), at least 0); ``codes`` (N,) uint8 the row check
    (a winning tile required); ``win_shapes`` the shapes that win (bit s for shape s).  Every output
    value is written (a flagged row: shanten :data:`NO_SHAPE`, the rest 0), so they may be uninitialised."""
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
                useful[i, t] = 0
                live_useful[i, t] = 0
                live[i, t] = 0
            continue
        n_declared = load_counts(concealed, declared, win[i], i, counts, declared_counts)
        for t in range(N_KINDS):
            live[i, t] = max(0, 4 - counts[t] - declared_counts[t] - np.int64(seen[i, t]))
        discard_hand(counts, declared_counts, n_declared, live[i], number_table, honour_table, work, shanten[i],
                     useful[i], live_useful[i], win_shapes)


discard_kernel = jit_batch(_discard_rows)
