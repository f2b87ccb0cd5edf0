"""Kernels that find the interpretations of a hand (RULES.md section 3) and its waits (section 7).

All functions are numba kernels over ``(34,) int64`` count vectors; they assume
valid input (at most 4 of a kind) and never allocate, except where stated.

A standard decomposition is stored per tile: ``eyes`` (the eyes tile index),
``pongs[t]`` (0/1, a concealed pong of tile t) and ``sheungs[t]`` (0-4 concealed
sheungs starting at tile t).  Decompositions come out in the RULES.md 9.13 order:
their groups written as sorted tile-index tuples, compared lexicographically.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

N_KINDS = 34
#: The 13 terminals and honours, in tile order (13 Orphans, section 3).
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
#: Most standard decompositions one 17-tile hand can have (checked in tests).
MAX_DECOMPOSITIONS = 64


@jit
def sets_complete(counts, start):
    """True if the 9 number tiles from ``start`` split into sheungs and pongs only."""
    c0 = 0
    c1 = 0
    # Greedy: at the lowest tile a pong and three sheungs are interchangeable.
    rem = np.empty(9, dtype=np.int64)
    for i in range(9):
        rem[i] = counts[start + i]
    for i in range(9):
        c0 = rem[i]
        if c0 >= 3:
            c0 -= 3
        if c0 > 0:
            if i > 6:
                return False
            c1 = c0
            if rem[i + 1] < c1 or rem[i + 2] < c1:
                return False
            rem[i + 1] -= c1
            rem[i + 2] -= c1
    return True


@jit
def is_standard(counts):
    """True if ``counts`` splits into sets and exactly one eyes (section 3, standard shape)."""
    eyes_suit = -1
    for s in range(3):
        total = 0
        for i in range(9):
            total += counts[9 * s + i]
        r = total % 3
        if r == 1:
            return False
        if r == 2:
            if eyes_suit >= 0:
                return False
            eyes_suit = s
    honour_pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 1 or c == 4:
            return False
        if c == 2:
            honour_pairs += 1
    if honour_pairs + (1 if eyes_suit >= 0 else 0) != 1:
        return False
    for s in range(3):
        if s != eyes_suit and not sets_complete(counts, 9 * s):
            return False
    if eyes_suit < 0:
        return True
    base = 9 * eyes_suit
    for i in range(9):
        if counts[base + i] >= 2:
            counts[base + i] -= 2
            ok = sets_complete(counts, base)
            counts[base + i] += 2
            if ok:
                return True
    return False


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
def thirteen_orphans_split(counts, n_declared, k):
    """The ``k``-th 13 Orphans split (in 9.13 order) as (eyes, set_kind, set_tile), or (-1, 0, 0).

    ``set_kind`` is 2 for a pong, 1 for a sheung.
    """
    if n_declared:
        return -1, 0, 0
    for o in ORPHANS:
        if counts[o] == 0:
            return -1, 0, 0
    found = 0
    rem = np.empty(N_KINDS, dtype=np.int64)
    for e in ORPHANS:
        if counts[e] < 2:
            continue
        for t in range(N_KINDS):
            rem[t] = counts[t]
        for o in ORPHANS:
            rem[o] -= 1
        rem[e] -= 1
        # The three tiles left must be one pong or one sheung.
        for t in range(N_KINDS):
            if rem[t] == 3:
                if found == k:
                    return e, 2, t
                found += 1
                break
            if rem[t] > 0:
                if t < 27 and t % 9 <= 6 and rem[t] == 1 and rem[t + 1] == 1 and rem[t + 2] == 1:
                    if found == k:
                        return e, 1, t
                    found += 1
                break
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
    """Eyes tile of a 16 Orphans hand, or -1 (section 3: three orphan sheungs, 7 honours, one more)."""
    if n_declared:
        return -1
    for e in range(N_KINDS):
        if counts[e] != 2:
            continue
        counts[e] -= 1
        ok = True
        for t in range(27, 34):
            if counts[t] != 1:
                ok = False
        if ok:
            for s in range(3):
                if orphan_sheung(counts, 9 * s) == 0:
                    ok = False
        counts[e] += 1
        if ok:
            return e
    return -1


@jit
def is_win(counts, n_declared):
    """True if the 17 - 3 x ``n_declared`` concealed tiles complete any shape of section 3."""
    if is_standard(counts):
        return True
    if n_declared:
        return False
    return (
        nico_pong(counts, 0) >= 0
        or thirteen_orphans_split(counts, 0, 0)[0] >= 0
        or sixteen_orphans_eyes(counts, 0) >= 0
    )


@jit
def count_waits(counts16, n_declared, held16, limit):
    """Number of tile kinds completing the 16-tile hand (section 7), counting up to ``limit``.

    counts16 : (34,) int64, concealed tiles; held16 : (34,) int64, all 16 tiles
    (declared sets included), for excluding kinds already held four times.
    """
    n = 0
    for t in range(N_KINDS):
        if held16[t] >= 4:
            continue
        counts16[t] += 1
        ok = is_win(counts16, n_declared)
        counts16[t] -= 1
        if ok:
            n += 1
            if n >= limit:
                return n
    return n


@jit
def standard_decompositions(counts, eyes_out, pongs_out, sheungs_out):
    """Every standard decomposition of ``counts`` into sets and one eyes, in 9.13 order.

    Parameters
    ----------
    counts : (34,) int64
        Concealed tiles with the winning tile; restored on return.
    eyes_out : (M,) int64; pongs_out, sheungs_out : (M, 34) int64
        Filled with the first M decompositions.

    Returns
    -------
    int
        Number of decompositions written (at most M).
    """
    if not is_standard(counts):
        return 0
    cap = eyes_out.shape[0]
    opt = np.zeros(N_KINDS + 1, dtype=np.int64)
    e_at = np.zeros(N_KINDS, dtype=np.int64)
    p_at = np.zeros(N_KINDS, dtype=np.int64)
    s_at = np.zeros(N_KINDS, dtype=np.int64)
    n = 0
    eyes_used = 0
    i = 0
    while True:
        if i == N_KINDS:
            if eyes_used == 1 and n < cap:
                for t in range(N_KINDS):
                    pongs_out[n, t] = p_at[t]
                    sheungs_out[n, t] = s_at[t]
                    if e_at[t]:
                        eyes_out[n] = t
                n += 1
            i -= 1
            counts[i] = 2 * e_at[i] + 3 * p_at[i] + s_at[i]
            if s_at[i]:
                counts[i + 1] += s_at[i]
                counts[i + 2] += s_at[i]
            eyes_used -= e_at[i]
            continue
        advanced = False
        c = counts[i]
        while opt[i] < 4:
            o = opt[i]
            opt[i] += 1
            e = 1 if o < 2 else 0
            p = 1 if o % 2 == 0 else 0
            s = c - 2 * e - 3 * p
            if s < 0 or eyes_used + e > 1:
                continue
            if s > 0 and (i >= 27 or i % 9 > 6 or counts[i + 1] < s or counts[i + 2] < s):
                continue
            e_at[i] = e
            p_at[i] = p
            s_at[i] = s
            eyes_used += e
            counts[i] = 0
            if s:
                counts[i + 1] -= s
                counts[i + 2] -= s
            i += 1
            opt[i] = 0
            advanced = True
            break
        if not advanced:
            if i == 0:
                break
            i -= 1
            counts[i] = 2 * e_at[i] + 3 * p_at[i] + s_at[i]
            if s_at[i]:
                counts[i + 1] += s_at[i]
                counts[i + 2] += s_at[i]
            eyes_used -= e_at[i]
    return n
