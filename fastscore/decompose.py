"""Kernels that recognise the shapes of a hand (RULES.md section 3) and find its waits (section 7).

All functions are numba kernels over ``(34,) int64`` count vectors; they assume
valid input (at most 4 of a kind) and never allocate.  The standard shape is
looked up in the per-suit tables of :mod:`fastscore.tables` (its
decompositions are enumerated by :func:`fastscore.kernel.interpret_hand`);
Nico Nico, 13 Orphans and 16 Orphans are checked directly.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .tables import COMPLETE_EYES, COMPLETE_SETS, WAIT_EYES_SHIFT, WAIT_SETS_SHIFT

N_KINDS = 34
#: The 13 terminals and honours, in tile order (13 Orphans, section 3).
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
#: Most standard decompositions one 17-tile hand can have (checked in tests).
MAX_DECOMPOSITIONS = 8


@jit
def suit_code(counts, base):
    """Base-5 code of the 9 counts from ``base`` (the per-suit table index)."""
    code = 0
    for i in range(8, -1, -1):
        code = code * 5 + counts[base + i]
    return code


@jit
def honour_eyes(counts):
    """Number of honour pairs, or -1 if an honour count of 1 or 4 breaks the standard shape."""
    pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 1 or c == 4:
            return -1
        if c == 2:
            pairs += 1
    return pairs


@jit
def is_standard(counts, suit_info):
    """True if ``counts`` splits into sets and exactly one eyes (section 3, standard shape)."""
    eyes = honour_eyes(counts)
    if eyes < 0:
        return False
    for s in range(3):
        n = 0
        for i in range(9):
            n += counts[9 * s + i]
        r = n % 3
        if r == 1:
            return False
        info = suit_info[suit_code(counts, 9 * s)]
        if r == 2:
            eyes += 1
            if not info & COMPLETE_EYES:
                return False
        elif not info & COMPLETE_SETS:
            return False
    return eyes == 1


@jit
def nico_pong(counts, n_declared):
    """Tile of the Nico Nico pong, or -1 if the hand is not Nico Nico (seven pairs + a pong)."""
    if n_declared:
        return -1
    pong = -1
    for t in range(N_KINDS):
        c = counts[t]
        if c == 1:
            return -1
        if c == 3:
            if pong >= 0:
                return -1
            pong = t
    return pong


@jit
def _is_orphan(t):
    return t >= 27 or t % 9 == 0 or t % 9 == 8


@jit
def thirteen_orphans_split(counts, n_declared, k):
    """The ``k``-th 13 Orphans split (in 9.13 order) as (eyes, set_kind, set_tile), or (-1, 0, 0).

    ``set_kind`` is 2 for a pong, 1 for a sheung.  After one of each of the 13
    orphans, four tiles are left: an orphan for the eyes and one set.
    """
    if n_declared:
        return -1, 0, 0
    x0 = -1
    x1 = -1
    x2 = -1
    x3 = -1
    n = 0
    for t in range(N_KINDS):
        c = counts[t]
        if _is_orphan(t):
            if c == 0:
                return -1, 0, 0
            c -= 1
        for _ in range(c):
            if n == 0:
                x0 = t
            elif n == 1:
                x1 = t
            elif n == 2:
                x2 = t
            elif n == 3:
                x3 = t
            n += 1
    if n != 4:
        return -1, 0, 0
    found = 0
    previous = -1
    for e in (x0, x1, x2, x3):
        if e == previous or not _is_orphan(e):
            continue
        previous = e
        # The three extra tiles other than one copy of e, in order.
        r0 = -1
        r1 = -1
        r2 = -1
        skipped = False
        for x in (x0, x1, x2, x3):
            if x == e and not skipped:
                skipped = True
            elif r0 < 0:
                r0 = x
            elif r1 < 0:
                r1 = x
            else:
                r2 = x
        if r0 == r1 and r1 == r2:
            kind = 2
        elif r0 < 27 and r0 % 9 <= 6 and r1 == r0 + 1 and r2 == r0 + 2:
            kind = 1
        else:
            continue
        if found == k:
            return e, kind, r0
        found += 1
    return -1, 0, 0


@jit
def orphan_sheung(counts, base):
    """Bitmask of the orphan sheung held in the suit at ``base`` (three tiles, pairwise 3+ apart), or 0."""
    mask = 0
    n = 0
    for i in range(9):
        c = counts[base + i]
        if c > 1:
            return 0
        if c == 1:
            mask |= 1 << i
            n += 1
    if n != 3:
        return 0
    last = -3
    for i in range(9):
        if mask & (1 << i):
            if i - last < 3:
                return 0
            last = i
    return mask


@jit
def sixteen_orphans_eyes(counts, n_declared):
    """Eyes tile of a 16 Orphans hand, or -1 (section 3: three orphan sheungs, 7 honours, one more).

    One pass: every kind at most twice and exactly one kind twice (the eyes),
    each honour present, each number suit's kinds an orphan sheung.
    """
    if n_declared:
        return -1
    eyes = -1
    for t in range(27, 34):
        c = counts[t]
        if c == 0 or c > 2:
            return -1
        if c == 2:
            if eyes >= 0:
                return -1
            eyes = t
    for base in range(0, 27, 9):
        last = -3
        kinds = 0
        for i in range(9):
            c = counts[base + i]
            if c == 0:
                continue
            if c > 2 or i - last < 3:
                return -1
            if c == 2:
                if eyes >= 0:
                    return -1
                eyes = base + i
            last = i
            kinds += 1
        if kinds != 3:
            return -1
    return eyes


@jit
def is_special(counts):
    """True if the 17 concealed tiles (no declared set) make Nico Nico, 13 or 16 Orphans."""
    return (
        nico_pong(counts, 0) >= 0
        or thirteen_orphans_split(counts, 0, 0)[0] >= 0
        or sixteen_orphans_eyes(counts, 0) >= 0
    )


@jit
def is_win(counts, n_declared, suit_info):
    """True if the 17 - 3 x ``n_declared`` concealed tiles complete any shape of section 3."""
    if is_standard(counts, suit_info):
        return True
    return n_declared == 0 and is_special(counts)


@jit
def wait_mask(counts16, n_declared, held16, suit_info):
    """Bitmask (bit t for tile t) of the waits of a 16-tile hand (section 7).

    counts16 : (34,) int64, concealed tiles (restored on return); held16 :
    (34,) int64, all 16 tiles with declared sets, for excluding kinds already
    held four times.  Standard waits come from the per-suit wait masks; the
    special shapes are tried tile by tile only when a cheap count allows them.
    """
    mask = 0
    r0, i0 = _suit_state(counts16, 0, suit_info)
    r1, i1 = _suit_state(counts16, 9, suit_info)
    r2, i2 = _suit_state(counts16, 18, suit_info)
    residue = (r0, r1, r2)
    info = (i0, i1, i2)
    h_eyes = honour_eyes(counts16)
    # A number tile of suit s: the other suits and the honours must already be complete.
    if h_eyes >= 0:
        for s in range(3):
            eyes = h_eyes
            ok = True
            for s2 in range(3):
                if s2 == s:
                    continue
                if residue[s2] == 1:
                    ok = False
                elif residue[s2] == 2:
                    eyes += 1
                    ok = ok and (info[s2] & COMPLETE_EYES) != 0
                else:
                    ok = ok and (info[s2] & COMPLETE_SETS) != 0
            if not ok or eyes > 1:
                continue
            if eyes == 1 and residue[s] == 2:
                mask |= ((info[s] >> WAIT_SETS_SHIFT) & 511) << (9 * s)
            elif eyes == 0 and residue[s] == 1:
                mask |= ((info[s] >> WAIT_EYES_SHIFT) & 511) << (9 * s)
    # An honour tile: every number suit complete, the honours complete after the addition.
    suit_eyes = 0
    ok = True
    for s in range(3):
        if residue[s] == 1:
            ok = False
        elif residue[s] == 2:
            suit_eyes += 1
            ok = ok and (info[s] & COMPLETE_EYES) != 0
        else:
            ok = ok and (info[s] & COMPLETE_SETS) != 0
    if ok and suit_eyes <= 1:
        mask |= _honour_waits(counts16, suit_eyes)
    if n_declared == 0:
        mask |= _nico_waits(counts16) | _orphans_waits(counts16)
    for t in range(N_KINDS):
        if held16[t] >= 4:
            mask &= ~(1 << t)
    return mask


@jit
def _suit_state(counts, base, suit_info):
    """(tile count mod 3, table entry) of the suit at ``base``."""
    n = 0
    for i in range(9):
        n += counts[base + i]
    return n % 3, np.int64(suit_info[suit_code(counts, base)])


@jit
def _honour_waits(counts16, suit_eyes):
    """Bitmask of honour tiles that complete the honours (each kind 0, 2 or 3, one eyes in all).

    Adding a tile turns a single into a pair or a pair into a pong; a kind of
    one tile (or four) anywhere else makes the honours incomplete.
    """
    singles = 0
    single = -1
    bad = 0
    pairs = 0
    pair_mask = 0
    for t in range(27, 34):
        c = counts16[t]
        if c == 1:
            singles += 1
            single = t
        elif c == 4:
            bad += 1
        elif c == 2:
            pairs += 1
            pair_mask |= 1 << t
    if bad:
        return 0
    if singles == 1:
        return (1 << single) if pairs + 1 + suit_eyes == 1 else 0
    if singles == 0 and pairs - 1 + suit_eyes == 1:
        return pair_mask
    return 0


@jit
def _nico_waits(counts16):
    """Bitmask of the Nico Nico waits of 16 concealed tiles (seven pairs and a pong, 5.1).

    With no odd kind, any pair can become the pong; with one single and one
    three, only the single; with two threes, either three (four of a kind
    then counts as two pairs); anything else has no Nico Nico wait.
    """
    ones = 0
    threes = 0
    single = 0
    three_mask = 0
    pairs_mask = 0
    for t in range(N_KINDS):
        c = counts16[t]
        is_one = 1 if c == 1 else 0
        is_three = 1 if c == 3 else 0
        ones += is_one
        threes += is_three
        single += is_one * t
        three_mask |= is_three << t
        pairs_mask |= (1 if c == 2 else 0) << t
    if ones == 0 and threes == 0:
        return pairs_mask
    if ones == 1 and threes == 1:
        return 1 << single
    if ones == 0 and threes == 2:
        return three_mask
    return 0


@jit
def _thirteen_full_waits(counts16):
    """13 Orphans waits of 16 tiles holding every orphan: the three extra tiles
    plus the winning tile must be an orphan eyes and one set."""
    y0 = -1
    y1 = -1
    y2 = -1
    n = 0
    for t in range(N_KINDS):
        c = counts16[t] - (1 if _is_orphan(t) else 0)
        for _ in range(c):
            if n == 0:
                y0 = t
            elif n == 1:
                y1 = t
            else:
                y2 = t
            n += 1
    if n != 3:
        return 0
    mask = 0
    # The winning tile is the eyes orphan and the extras are a set.
    if (y0 == y1 and y1 == y2) or (y0 < 27 and y0 % 9 <= 6 and y1 == y0 + 1 and y2 == y0 + 2):
        for o in ORPHANS:
            mask |= 1 << o
    # One extra is the eyes orphan; the other two and the winning tile are a set.
    for k in range(3):
        e = y0 if k == 0 else (y1 if k == 1 else y2)
        if not _is_orphan(e):
            continue
        u = y1 if k == 0 else y0
        v = y1 if k == 2 else y2
        if u == v:
            mask |= 1 << u
        elif u < 27 and u // 9 == v // 9:
            if v == u + 1:
                if u % 9 >= 1:
                    mask |= 1 << (u - 1)
                if u % 9 <= 6:
                    mask |= 1 << (u + 2)
            elif v == u + 2:
                mask |= 1 << (u + 1)
    return mask


@jit
def _orphans_waits(counts16):
    """Bitmask of the 13 and 16 Orphans waits of 16 concealed tiles.

    13 Orphans needs all 13 terminals and honours after the win, so with one
    missing only that tile can complete it, with two or more none; 16 Orphans
    likewise needs all seven honours.  Only the remaining candidates are tried.
    """
    missing13 = 0
    last13 = -1
    for o in ORPHANS:
        if counts16[o] == 0:
            missing13 += 1
            last13 = o
    missing16 = 0
    last16 = -1
    for t in range(27, 34):
        if counts16[t] == 0:
            missing16 += 1
            last16 = t
    if missing16 <= 1:
        # 16 Orphans holds at most 4 tiles of a number suit and no kind three times.
        for base in range(0, 27, 9):
            n = 0
            for i in range(9):
                n += counts16[base + i]
                if counts16[base + i] > 2:
                    missing16 = 2
            if n > 4:
                missing16 = 2
        for t in range(27, 34):
            if counts16[t] > 2:
                missing16 = 2
    mask = 0
    if missing13 == 1:
        counts16[last13] += 1
        if thirteen_orphans_split(counts16, 0, 0)[0] >= 0:
            mask |= 1 << last13
        counts16[last13] -= 1
    elif missing13 == 0:
        mask |= _thirteen_full_waits(counts16)
    if missing16 <= 1:
        for t in range(N_KINDS):
            if (missing16 == 1 and t != last16) or counts16[t] > 1:
                continue
            counts16[t] += 1
            if sixteen_orphans_eyes(counts16, 0) >= 0:
                mask |= 1 << t
            counts16[t] -= 1
    return mask


@jit
def count_waits(counts16, n_declared, held16, suit_info):
    """Number of waits of a 16-tile hand (see :func:`wait_mask`)."""
    mask = wait_mask(counts16, n_declared, held16, suit_info)
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n
