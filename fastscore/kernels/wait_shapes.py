"""Kernels that find the waits of a 16-tile hand (LRC rules section 7): which kinds complete it.

Numba kernels over ``(34,) int64`` count vectors and batch rows, on the shape
tests of :mod:`fastscore.kernels.decompose` and the per-suit wait hints of
:mod:`fastscore.tables`: a quick screen of hands that cannot be ready
(:func:`maybe_ready`), the wait mask of a hand (:func:`wait_mask_info`), and the
special shapes' waits.  They assume valid input; the kernels never allocate (:func:`wait_mask`, a
(34,) helper called from Python, makes its row and scratch).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline
from ..tables import HAS_NINE, HAS_ONE, ONES_SHIFT, ORPHAN_SUIT, THREES_SHIFT, WAIT_EYES_SHIFT, WAIT_SETS_SHIFT
from ..tiles import MAX_DECLARED, N_KINDS
from .decompose import (
    ALL_WIN_SHAPES,
    HONOUR_BITS,
    ORPHAN_BITS,
    Shape,
    _hint,
    _is_orphan,
    add_tile_masks,
    fill_counts,
    honour_summary,
    honour_summary_row,
    row_code,
    shape_wins,
    sixteen_orphans_eyes_bits,
    special_masks,
    suit_code,
    thirteen_orphans_split_bits,
)
from .bits import ctpop64, cttz64


@jit
def wait_mask(counts16, n_declared, held16, suit_info, win_shapes=ALL_WIN_SHAPES):
    """Bitmask (bit t for tile t) of the waits of a 16-tile hand (section 7).

    counts16 : (34,) integers, any strides, the concealed tiles; held16 :
    (34,) int64, all 16 tiles with declared sets, for excluding kinds already
    held four times; win_shapes : the shapes that win (bit s for shape s).  Standard waits come from the
    per-suit wait masks; the special shapes are tried only when the per-suit hints and a count of the
    honours allow them.
    """
    i0 = np.int64(suit_info[suit_code(counts16, 0)])
    i1 = np.int64(suit_info[suit_code(counts16, 9)])
    i2 = np.int64(suit_info[suit_code(counts16, 18)])
    # The hand as a (1, 34) uint8 row, as the batch kernels read theirs, and the scratch they take.
    row = np.empty((1, N_KINDS), dtype=np.uint8)
    for t in range(N_KINDS):
        row[0, t] = counts16[t]
    waits = wait_mask_info(row, 0, np.empty(N_KINDS, dtype=np.int64), n_declared, i0, i1, i2,
                           honour_summary(counts16), win_shapes)
    return waits & ~fours_mask(held16)  # kinds already held four times


@jit
def fours_mask(held16):
    """Bitmask of the kinds held four times among ``held16`` (34,)."""
    fours = 0
    for t in range(N_KINDS):
        fours |= np.int64(held16[t] >= 4) << t
    return fours


@jit
def _suit_waits(info, eyes):
    """Tiles (9-bit) completing a suit whose ``suit_info`` entry is ``info`` when the rest holds ``eyes`` eyes.

    Only codes of ``3k + 2`` tiles have wait-as-sets bits and only ``3k + 1``
    codes wait-with-eyes bits, so the suit's tile count needs no test.
    Branch-free: ``eyes`` comes from table entries that may miss the cache.
    """
    sets = ((info >> WAIT_SETS_SHIFT) & 511) * np.int64(eyes == 1)
    return sets | ((info >> WAIT_EYES_SHIFT) & 511) * np.int64(eyes == 0)


@jit_inline
def wait_mask_info(concealed, i, counts, n_declared, i0, i1, i2, honours, win_shapes):
    """The kinds that complete the 16 tiles of row ``i`` of ``concealed`` (N, 34) into a shape that wins
    (``win_shapes``: bit s for shape s, :attr:`fastscore.rules.RuleTable.win_shapes_bits`), given the three
    suits' ``suit_info`` entries and ``honours``, the :func:`honour_summary_row` of the row: :func:`wait_mask`
    with the kinds already held four times still in (the batch kernels drop them per waiting kind,
    :func:`fastscore.kernels.score.drop_held_fours`).

    ``counts`` is (34,) int64 scratch: the row is copied there only for the 13 Orphans waits of a hand
    that holds every orphan (:func:`_thirteen_full_waits`); the other special waits read the row's count
    masks (:func:`fastscore.kernels.decompose.count_masks`).
    """
    h_ones, h_pairs, h_threes, h_fours, h_kinds, pair_mask, single, _ = honours
    ok0 = (i0 & 3) != 0
    ok1 = (i1 & 3) != 0
    ok2 = (i2 & 3) != 0
    e0 = (i0 >> 1) & 1
    e1 = (i1 >> 1) & 1
    e2 = (i2 >> 1) & 1
    mask = 0
    # A number tile of suit s: the other suits and the honours must already be complete.
    if h_ones == 0 and h_fours == 0:
        if ok1 and ok2:
            mask |= _suit_waits(i0, h_pairs + e1 + e2)
        if ok0 and ok2:
            mask |= _suit_waits(i1, h_pairs + e0 + e2) << 9
        if ok0 and ok1:
            mask |= _suit_waits(i2, h_pairs + e0 + e1) << 18
    # An honour tile: every number suit complete, the honours complete after the addition:
    # a single becomes the eyes, or a pair becomes a pong.
    if ok0 and ok1 and ok2 and h_fours == 0:
        suit_eyes = e0 + e1 + e2
        if h_ones == 1:
            if h_pairs + 1 + suit_eyes == 1:
                mask |= 1 << single
        elif h_ones == 0 and h_pairs - 1 + suit_eyes == 1:
            mask |= pair_mask
    if n_declared == 0 and win_shapes > 1:
        ones = h_ones + _hint(i0, ONES_SHIFT, 4) + _hint(i1, ONES_SHIFT, 4) + _hint(i2, ONES_SHIFT, 4)
        threes = h_threes + _hint(i0, THREES_SHIFT, 3) + _hint(i1, THREES_SHIFT, 3) + _hint(i2, THREES_SHIFT, 3)
        nico = ((ones == 0 and threes <= 2) or (ones == 1 and threes == 1)) and shape_wins(win_shapes, Shape.NICO_NICO)
        orphans = (h_kinds + _ends(i0) + _ends(i1) + _ends(i2) >= 12 or h_kinds >= 6) and (
            shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS) or shape_wins(win_shapes, Shape.SIXTEEN_ORPHANS))
        if nico or orphans:
            ones, twos, threes, fours, held = special_masks(concealed, i, -1)
            if nico:
                mask |= _nico_waits(ones, twos, threes)
            if orphans:
                mask |= _orphans_waits(ones, twos, threes, fours, held, i0, i1, i2, win_shapes)
                if (held & ORPHAN_BITS) == ORPHAN_BITS and shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS):
                    fill_counts(concealed, i, counts, -1)
                    mask |= _thirteen_full_waits(counts)
    return mask


@jit_inline
def maybe_ready(concealed, declared, i, suit_info):
    """False only if hand ``i`` (rows of ``concealed`` (N, 34) and ``declared`` (N, 5, 2)) has no wait.

    A cheap first pass of :func:`wait_mask` straight from the input rows: the
    standard waits from the three table entries and the honour counts, the
    special shapes from the table hints.  Kinds held four times are not
    taken off, so a True still needs :func:`wait_mask`.  Branch-free: the
    tests depend on table entries that miss the cache, and a mispredicted
    branch on them would wait for each miss in turn.
    """
    i0 = np.int64(suit_info[row_code(concealed, i, 0)])
    i1 = np.int64(suit_info[row_code(concealed, i, 9)])
    i2 = np.int64(suit_info[row_code(concealed, i, 18)])
    h_ones, h_pairs, h_threes, h_fours, h_kinds = honour_summary_row(concealed, i, -1)[:5]
    ok0 = np.int64((i0 & 3) != 0)
    ok1 = np.int64((i1 & 3) != 0)
    ok2 = np.int64((i2 & 3) != 0)
    e0 = (i0 >> 1) & 1
    e1 = (i1 >> 1) & 1
    e2 = (i2 >> 1) & 1
    # A number tile of one suit (as wait_mask_info): the others and the honours complete, then
    # that suit waits as sets (the eyes are elsewhere) or with the eyes (none elsewhere).
    clean = np.int64(h_ones == 0) & np.int64(h_fours == 0)
    x0 = h_pairs + e1 + e2
    x1 = h_pairs + e0 + e2
    x2 = h_pairs + e0 + e1
    s0 = ok1 & ok2 & np.int64(_suit_waits(i0, x0) != 0)
    s1 = ok0 & ok2 & np.int64(_suit_waits(i1, x1) != 0)
    s2 = ok0 & ok1 & np.int64(_suit_waits(i2, x2) != 0)
    number = clean & (s0 | s1 | s2)
    # An honour tile: every suit complete; a single becomes the eyes or a pair a pong.
    eyes = h_pairs + e0 + e1 + e2
    honour = ok0 & ok1 & ok2 & np.int64(h_fours == 0) & (
        (np.int64(h_ones == 1) & np.int64(eyes == 0)) | (clean & np.int64(h_pairs > 0) & np.int64(eyes == 2))
    )
    # The special shapes need no declared set.
    kinds = np.int64(0)
    for k in range(MAX_DECLARED):
        kinds |= np.int64(declared[i, k, 0])
    ones = h_ones + _hint(i0, ONES_SHIFT, 4) + _hint(i1, ONES_SHIFT, 4) + _hint(i2, ONES_SHIFT, 4)
    threes = h_threes + _hint(i0, THREES_SHIFT, 3) + _hint(i1, THREES_SHIFT, 3) + _hint(i2, THREES_SHIFT, 3)
    nico = (np.int64(ones == 0) & np.int64(threes <= 2)) | (np.int64(ones == 1) & np.int64(threes == 1))
    ends = _ends(i0) + _ends(i1) + _ends(i2)
    # 16 Orphans (as _orphans_waits): with six honours the wait is the seventh and every suit must already
    # be an orphan sheung shape; with all seven, at most one suit may be short of one.
    short = _suits_short_of_orphans(i0, i1, i2)
    sixteen = (np.int64(h_kinds == 6) & np.int64(short == 0)) | (np.int64(h_kinds == 7) & np.int64(short <= 1))
    orphans = np.int64(h_kinds + ends >= 12) | sixteen
    return (number | honour | (np.int64(kinds == 0) & (nico | orphans))) != 0


@jit_inline
def _suits_short_of_orphans(i0, i1, i2):
    """Number suits whose ``suit_info`` hint is not an orphan sheung shape (``ORPHAN_SUIT``, 16 Orphans)."""
    return np.int64((i0 & ORPHAN_SUIT) == 0) + np.int64((i1 & ORPHAN_SUIT) == 0) + np.int64((i2 & ORPHAN_SUIT) == 0)


@jit_inline
def _ends(info):
    """Terminals (the 1 and the 9) held in a suit, from its ``suit_info`` hints."""
    return np.int64((info & HAS_ONE) != 0) + np.int64((info & HAS_NINE) != 0)


@jit
def _nico_waits(ones, twos, threes):
    """Bitmask of the Nico Nico waits (seven pairs and a pong, 5.1) of 16 concealed tiles, no declared set,
    from their :func:`fastscore.kernels.decompose.count_masks` (the kinds held once, twice, three times).

    With no odd kind, any pair can become the pong; with one single and one
    three, only the single; with two threes, either three (four of a kind
    then counts as two pairs); anything else has no Nico Nico wait.
    """
    n_ones = ctpop64(ones)
    n_threes = ctpop64(threes)
    mask = twos if n_ones == 0 and n_threes == 0 else np.int64(0)
    mask = ones if n_ones == 1 and n_threes == 1 else mask
    return threes if n_ones == 0 and n_threes == 2 else mask


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
        mask |= ORPHAN_BITS
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
def _orphans_waits(ones, twos, threes, fours, held, i0, i1, i2, win_shapes):
    """Bitmask of the 13 and 16 Orphans waits of 16 concealed tiles, no declared set, of those of the two
    shapes that win (:func:`fastscore.kernels.decompose.shape_wins`), but for the 13 Orphans waits of a hand
    that already holds every orphan (:func:`_thirteen_full_waits`); from the 16 tiles'
    :func:`fastscore.kernels.decompose.count_masks` and ``i0``-``i2``, the suits' ``suit_info``.

    13 Orphans needs all 13 terminals and honours after the win, so with one
    missing only that tile can complete it.  16 Orphans likewise needs all
    seven honours, no kind three times, one twice (the eyes), and every number
    suit an orphan sheung shape (the ``ORPHAN_SUIT`` hint) after the win: with
    an honour missing only that tile can complete it, else with one suit short
    only that suit's tiles, with none only a kind held once (the new eyes), and
    only if no kind is held twice yet.  Each remaining candidate's 17 tiles are
    tested on their masks (:func:`fastscore.kernels.decompose.add_tile_masks`).
    """
    mask = np.int64(0)
    missing13 = ORPHAN_BITS & ~held
    if shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS) and missing13 != 0 and (missing13 & (missing13 - 1)) == 0:
        ones17, twos17, threes17, fours17, held17 = add_tile_masks(ones, twos, threes, fours, held, cttz64(missing13))
        if thirteen_orphans_split_bits(ones17, twos17, threes17, fours17, held17, np.int64(0))[0] >= 0:
            mask |= missing13
    missing16 = HONOUR_BITS & ~held
    # 16 Orphans holds no kind three times and at most 4 tiles of a number suit (its orphan sheung, perhaps
    # with the eyes).
    if not shape_wins(win_shapes, Shape.SIXTEEN_ORPHANS) or (missing16 & (missing16 - 1)) != 0 \
            or (threes | fours) != 0 or not (_suit_tiles(ones, twos, 0) <= 4 and _suit_tiles(ones, twos, 9) <= 4
                                             and _suit_tiles(ones, twos, 18) <= 4):
        return mask
    if missing16 != 0:
        candidates = missing16
    else:
        short = _suits_short_of_orphans(i0, i1, i2)
        if short >= 2:
            return mask
        if short == 1:
            base = 0 if (i0 & ORPHAN_SUIT) == 0 else (9 if (i1 & ORPHAN_SUIT) == 0 else 18)
            candidates = (np.int64(511) << base) & ~twos
        else:  # the win can only be the eyes: a kind held once, and none held twice yet
            candidates = ones if twos == 0 else np.int64(0)
    while candidates:
        t = cttz64(candidates)
        candidates &= candidates - 1
        _, twos17, threes17, fours17, held17 = add_tile_masks(ones, twos, threes, fours, held, t)
        if sixteen_orphans_eyes_bits(twos17, threes17, fours17, held17) >= 0:
            mask |= np.int64(1) << t
    return mask


@jit_inline
def _suit_tiles(ones, twos, base):
    """Tiles of the number suit starting at kind ``base`` held once or twice (masks of ``count_masks``)."""
    return ctpop64((ones >> base) & 511) + 2 * ctpop64((twos >> base) & 511)


@jit
def count_waits(counts16, n_declared, held16, suit_info, win_shapes=ALL_WIN_SHAPES):
    """Number of waits of a 16-tile hand (see :func:`wait_mask`)."""
    mask = wait_mask(counts16, n_declared, held16, suit_info, win_shapes)
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n
