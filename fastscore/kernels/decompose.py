"""Kernels that recognise the shapes of a hand (LRC rules section 3); its waits are :mod:`fastscore.kernels.wait_shapes`'.

All functions are numba kernels over ``(34,) int64`` count vectors; they assume
valid input (at most 4 of a kind) and never allocate.  The standard shape is
looked up in the per-suit tables of :mod:`fastscore.tables` (its
decompositions are enumerated by :func:`fastscore.kernels.score.interpret_hand`);
Nico Nico, 13 Orphans and 16 Orphans are checked directly.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from .._jit import jit, jit_inline
from ..tiles import MAX_DECLARED, N_KINDS
from ..tables import (
    CODES_PER_WORD,
    HAS_NINE,
    HAS_ONE,
    ONES_SHIFT,
    ORPHAN_SUIT,
    POW5,
    THREES_SHIFT,
)
from .bits import BYTE_HIGHS, BYTE_ONES, LITTLE_ENDIAN, ctpop64, cttz64, gather_highs, load_u64
from .checks import concealed_words, words_tile_by_tile


class Shape(IntEnum):
    """Interpretation shapes (LRC rules section 3), in tie-break order."""

    STANDARD = 0
    NICO_NICO = 1
    THIRTEEN_ORPHANS = 2
    SIXTEEN_ORPHANS = 3


#: Every shape of section 3 wins: a ``win_shapes`` word with bit s set for :class:`Shape` s, the LRC
#: table's ``[win] shapes`` (:attr:`fastscore.rules.RuleTable.win_shapes_bits`).
ALL_WIN_SHAPES = (1 << len(Shape)) - 1


@jit_inline
def shape_wins(win_shapes, shape):
    """Shape ``shape`` (an int, :class:`Shape`) makes a win under ``win_shapes`` (bit s for shape s:
    :attr:`fastscore.rules.RuleTable.win_shapes_bits`; the standard shape always wins)."""
    return (win_shapes >> shape) & 1 != 0


#: The 13 terminals and honours, in tile order (13 Orphans, section 3).
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
#: Most standard decompositions one 17-tile hand can have (checked in tests).
MAX_DECOMPOSITIONS = 8


@jit_inline
def suit_code(counts, base):
    """Base-5 code of the 9 counts from ``base`` (the per-suit table index)."""
    # Independent products rather than Horner's chain: more work in flight per cycle.
    return (
        np.int64(counts[base])
        + 5 * np.int64(counts[base + 1])
        + 25 * np.int64(counts[base + 2])
        + 125 * np.int64(counts[base + 3])
        + 625 * np.int64(counts[base + 4])
        + 3125 * np.int64(counts[base + 5])
        + 15625 * np.int64(counts[base + 6])
        + 78125 * np.int64(counts[base + 7])
        + 390625 * np.int64(counts[base + 8])
    )


@jit_inline
def honour_summary(counts):
    """Counts of the honours of ``counts`` (34,), any integer dtype and strides: what
    :func:`honour_summary_row` gives for it as a one-row array, counted tile by tile."""
    return _honour_summary_tiles(np.ascontiguousarray(counts).reshape((1, N_KINDS)), 0, -1)


#: The high bit of each of the seven low bytes of a word (:func:`honour_summary_row`).
_HIGH7 = np.uint64(0x0080808080808080)


@jit_inline
def _bytes_equal(h, v):
    """Bit 7 of each of the seven low bytes of ``h`` (each below 128) set where the byte equals ``v``
    (:func:`_bytes_equal8`, the top byte left out)."""
    return _bytes_equal8(h, v) & _HIGH7


@jit_inline
def honour_summary_row(concealed, i, win):
    """Counts of the honours of row ``i`` of ``concealed`` (N, 34) uint8 with tile ``win`` added (-1: none):
    (kinds held once, twice, three times, four times, kinds held, bits 27-33 of the kinds held twice,
    the lowest kind held once or -1, bits 27-33 of the kinds held three times).

    The seven counts are read as one word and compared a byte at a time (SWAR).
    """
    if concealed.strides[1] != 1 or not LITTLE_ENDIAN:  # a strided view: tile by tile (the same for every row)
        return _honour_summary_tiles(concealed, i, win)
    w = np.int64(win)
    # Bytes 27 to 33 of the row in the word's low seven bytes, the winning tile added to its byte.
    h = (load_u64(concealed, i, 26) >> np.uint64(8)) + (np.uint64(w >= 27) << np.uint64(8 * ((w - 27) & 7)))
    once = _bytes_equal(h, 1)
    twice = _bytes_equal(h, 2)
    three = _bytes_equal(h, 3)
    single = 27 + cttz64(np.int64(once)) // 8 if once else -1  # the lowest (a select, not a branch)
    return (ctpop64(np.int64(once)), ctpop64(np.int64(twice)), ctpop64(np.int64(three)),
            ctpop64(np.int64(_bytes_equal(h, 4))), 7 - ctpop64(np.int64(_bytes_equal(h, 0))), gather_highs(twice) << 27,
            single, gather_highs(three) << 27)


@jit_inline
def _honour_summary_tiles(concealed, i, win):
    """:func:`honour_summary_row` tile by tile, for any integer array."""
    # Branch-free: honour counts are random, so branches on them mispredict.
    ones = 0
    twos = 0
    threes = 0
    fours = 0
    kinds = 0
    pair_mask = 0
    three_mask = 0
    single = -1
    for t in range(27, 34):
        c = np.int64(concealed[i, t]) + np.int64(win == t)
        is_one = np.int64(c == 1)
        is_two = np.int64(c == 2)
        ones += is_one
        twos += is_two
        is_three = np.int64(c == 3)
        threes += is_three
        fours += np.int64(c == 4)
        kinds += np.int64(c != 0)
        pair_mask |= is_two << t
        three_mask |= is_three << t
        single = t if is_one and single < 0 else single
    return ones, twos, threes, fours, kinds, pair_mask, single, three_mask


@jit
def standard_from_info(i0, i1, i2, honour_ones, honour_pairs, honour_fours):
    """The standard-shape test from the three suits' ``suit_info`` entries and the honour counts.

    Complete-as-sets is only ever set for codes of ``3k`` tiles and
    complete-with-eyes only for ``3k + 2``, so the suits' tile counts need no sum.
    """
    if honour_ones or honour_fours:
        return False
    if not ((i0 & 3) and (i1 & 3) and (i2 & 3)):
        return False
    return honour_pairs + ((i0 >> 1) & 1) + ((i1 >> 1) & 1) + ((i2 >> 1) & 1) == 1


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
    i0 = np.int64(suit_info[suit_code(counts, 0)])
    i1 = np.int64(suit_info[suit_code(counts, 9)])
    i2 = np.int64(suit_info[suit_code(counts, 18)])
    if not ((i0 & 3) and (i1 & 3) and (i2 & 3)):
        return False
    eyes = honour_eyes(counts)
    return eyes >= 0 and eyes + ((i0 >> 1) & 1) + ((i1 >> 1) & 1) + ((i2 >> 1) & 1) == 1


@jit
def _hint(info, shift, width):
    return (info >> shift) & ((1 << width) - 1)


@jit
def specials_possible(i0, i1, i2, honour_ones, honour_threes, honour_kinds):
    """Necessary conditions for Nico Nico, 13 Orphans and 16 Orphans of 17 concealed tiles.

    From the hints of the three suits' ``suit_info`` entries: (Nico Nico: no
    kind held once, exactly one three times; 13 Orphans: every terminal and
    honour held; 16 Orphans: every honour held, each number suit an orphan
    sheung shape).  The exact checks run only where these pass.
    """
    ones = honour_ones + _hint(i0, ONES_SHIFT, 4) + _hint(i1, ONES_SHIFT, 4) + _hint(i2, ONES_SHIFT, 4)
    threes = honour_threes + _hint(i0, THREES_SHIFT, 3) + _hint(i1, THREES_SHIFT, 3) + _hint(i2, THREES_SHIFT, 3)
    nico = ones == 0 and threes == 1
    ends = HAS_ONE | HAS_NINE
    thirteen = honour_kinds == 7 and (i0 & ends) == ends and (i1 & ends) == ends and (i2 & ends) == ends
    sixteen = honour_kinds == 7 and (i0 & i1 & i2 & ORPHAN_SUIT) != 0
    return nico, thirteen, sixteen


@jit
def _is_orphan(t):
    return t >= 27 or t % 9 == 0 or t % 9 == 8


@jit_inline
def add_tile_codes(c0, c1, c2, t):
    """The three suit codes ``c0``-``c2`` with tile ``t`` added to its suit (an honour adds to none).

    Branch-free: the winning tile's suit is random from hand to hand.
    """
    add = POW5[t % 9]
    return (c0 + add * np.int64(t < 9), c1 + add * np.int64((t >= 9) & (t < 18)),
            c2 + add * np.int64((t >= 18) & (t < 27)))


@jit_inline
def without_win_code(k0, k1, k2, c0, c1, c2):
    """Of the suit codes ``k0``-``k2`` (16 tiles), the one that the winning tile changed into ``c0``-``c2``
    (:func:`add_tile_codes`); ``k2`` when it changed none (an honour).  Selects, not branches."""
    return k0 if c0 != k0 else (k1 if c1 != k1 else k2)


@jit_inline
def is_win_hand_row(concealed, declared, i, w, suit_info, win_shapes):
    """True if hand ``i`` completes a shape of section 3 that wins (``win_shapes``: bit s for shape s; the
    standard shape always) with the winning tile ``w`` (the 17 - 3 x (declared sets) concealed tiles):
    ``concealed`` (N, 34) uint8, ``declared`` (N, 5, 2) int8, all checked
    (:func:`fastscore.kernels.checks.row_fault`); ``suit_info``: :func:`fastscore.tables.kernel_tables`'
    first table.  :func:`is_win_from_completeness` on the suits' entries."""
    c0, c1, c2 = add_tile_codes(row_code(concealed, i, 0), row_code(concealed, i, 9), row_code(concealed, i, 18), w)
    return is_win_from_completeness(concealed, declared, i, w, np.int64(suit_info[c0]) & 3,
                                    np.int64(suit_info[c1]) & 3, np.int64(suit_info[c2]) & 3, win_shapes)


#: ``code >> _WORD_SHIFT`` is code's word of :func:`fastscore.tables.completeness_bits` (a power of two codes).
_WORD_SHIFT = CODES_PER_WORD.bit_length() - 1


@jit_inline
def completeness(suit_bits, code):
    """Bits 0-1 of ``suit_info[code]`` (complete as sets; complete with eyes), read from
    :func:`fastscore.tables.completeness_bits` ``suit_bits``."""
    return np.int64((suit_bits[code >> _WORD_SHIFT] >> np.uint64(2 * (code & (CODES_PER_WORD - 1)))) & np.uint64(3))


@jit_inline
def is_win_row_bits(concealed, declared, i, w, suit_bits, win_shapes):
    """:func:`is_win_hand_row` reading the completeness bits from ``suit_bits``
    (:func:`fastscore.tables.completeness_bits`, 488 KB, which stays in L2 cache) rather than from
    ``suit_info`` (7.8 MB): the batch win check."""
    c0, c1, c2 = add_tile_codes(row_code(concealed, i, 0), row_code(concealed, i, 9), row_code(concealed, i, 18), w)
    return is_win_from_completeness(concealed, declared, i, w, completeness(suit_bits, c0),
                                    completeness(suit_bits, c1), completeness(suit_bits, c2), win_shapes)


@jit_inline
def is_win_from_completeness(concealed, declared, i, w, k0, k1, k2, win_shapes):
    """The win test of :func:`is_win_hand_row`, given ``k0``-``k2``, the completeness bits (bit 0: complete
    as sets, bit 1: with eyes) of the three number suits of the 17 tiles.

    The standard shape from those bits and the honours' counts; the special
    shapes (no declared set) from the counts, eight kinds at a time
    (:func:`special_win`), without a table.
    """
    h_ones, h_pairs, _, h_fours = honour_summary_row(concealed, i, w)[:4]
    if standard_from_info(k0, k1, k2, h_ones, h_pairs, h_fours):
        return True
    for k in range(MAX_DECLARED):
        if declared[i, k, 0] != 0:
            return False
    return special_win(count_words(concealed, i, w), win_shapes)


#: Bit t for each kind t of the 13 Orphans (the terminals and honours), and for each kind where a
#: sheung can start (1-7 of a number suit), in the 34-bit masks of :func:`special_win`.
ORPHAN_BITS = sum(1 << int(t) for t in ORPHANS)
SHEUNG_START_BITS = sum(1 << t for t in range(27) if t % 9 <= 6)
#: The seven honour kinds, bit t for tile t.
HONOUR_BITS = ((1 << 7) - 1) << 27


@jit_inline
def special_win(words, win_shapes):
    """Whether 17 concealed tiles, no declared set, make Nico Nico, 13 Orphans or 16 Orphans (section 3) that
    win under ``win_shapes``; ``words``: their counts, :func:`count_words`.

    The shapes' tests as the scoring kernel reads them (:func:`nico_pong_bits`,
    :func:`sixteen_orphans_eyes_bits`, a first :func:`thirteen_orphans_split_bits`), on the masks of
    :func:`count_masks`, each worked out only when needed: most hands that reach this are no Nico
    Nico and lack an honour.
    """
    ones = _mask_equal(words, 1)
    threes = _mask_equal(words, 3)
    if shape_wins(win_shapes, Shape.NICO_NICO) and nico_pong_bits(ones, threes) >= 0:
        return True
    held = ~_mask_equal(words, 0) & ((np.int64(1) << N_KINDS) - 1)
    if (held & HONOUR_BITS) != HONOUR_BITS:  # both Orphans shapes hold every honour
        return False
    twos = _mask_equal(words, 2)
    fours = _mask_equal(words, 4)
    if shape_wins(win_shapes, Shape.SIXTEEN_ORPHANS) and sixteen_orphans_eyes_bits(twos, threes, fours, held) >= 0:
        return True
    return shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS) \
        and thirteen_orphans_split_bits(ones, twos, threes, fours, held, np.int64(0))[0] >= 0


@jit
def count_masks(words):
    """The 34-bit int64 masks (bit t for kind t) of the kinds held once, twice, three and four times in
    ``words`` (:func:`count_words`, counts at most 4) and of the kinds held at all: ``(ones, twos, threes,
    fours, held)``.  Branch-free: the special shapes are tested on them without a loop over the kinds."""
    ones = _mask_equal(words, 1)
    twos = _mask_equal(words, 2)
    threes = _mask_equal(words, 3)
    fours = _mask_equal(words, 4)
    return ones, twos, threes, fours, ones | twos | threes | fours


@jit_inline
def add_tile_masks(ones, twos, threes, fours, held, t):
    """:func:`count_masks` ``(ones, twos, threes, fours, held)`` with one tile of kind ``t`` added (``t`` held
    at most three times): its bit moves up one mask."""
    bit = np.int64(1) << t
    return ((ones & ~bit) | (bit & ~held), (twos & ~bit) | (ones & bit), (threes & ~bit) | (twos & bit),
            (fours & ~bit) | (threes & bit), held | bit)


@jit
def special_masks(concealed, i, w):
    """:func:`count_masks` of row ``i`` of ``concealed`` (N, 34) with tile ``w`` added (-1: none): a called
    function, so that the kernels that inline the scoring path do not inline it too (cold compile)."""
    return count_masks(count_words(concealed, i, w))


@jit
def nico_pong_bits(ones, threes):
    """Tile of the Nico Nico pong (5.1: seven pairs and a pong; a kind held four times is two pairs) of 17
    concealed tiles, no declared set, from their :func:`count_masks`: no kind held once and exactly one
    held three times; else -1."""
    return cttz64(threes) if ones == 0 and ctpop64(threes) == 1 else np.int64(-1)


@jit
def sixteen_orphans_eyes_bits(twos, threes, fours, held):
    """Eyes tile of 17 concealed tiles, no declared set, that make 16 Orphans (section 3: every honour, each
    number suit an orphan sheung, one kind twice), from their :func:`count_masks`; else -1.  Each number
    suit's orphan sheung is then ``(held >> 9 * s) & 511``."""
    ok = (threes | fours) == 0 and ctpop64(twos) == 1 and (held & HONOUR_BITS) == HONOUR_BITS \
        and _orphan_sheung_bits(held & 511) and _orphan_sheung_bits((held >> 9) & 511) \
        and _orphan_sheung_bits((held >> 18) & 511)
    return cttz64(twos) if ok else np.int64(-1)


@jit
def thirteen_orphans_split_bits(ones, twos, threes, fours, held, k):
    """The ``k``-th 13 Orphans split (in 9.13 order: by the eyes' tile) of 17 concealed tiles, no declared
    set, from their :func:`count_masks`: ``(eyes, set_kind, set_tile)``, ``set_kind`` 2 for a pong and 1
    for a sheung, or ``(-1, 0, 0)``.

    After one of each of the 13 orphans, four tiles are left: an orphan for the eyes and one set.  The
    kinds left once, twice and three times are masks, so each candidate eyes is a few bit operations.
    The tiles must number 17 (every caller's hand has no declared set): the count of the four left is not
    checked again.
    """
    if (held & ORPHAN_BITS) != ORPHAN_BITS:
        return np.int64(-1), np.int64(0), np.int64(0)
    # The four tiles left once one of each orphan is set aside: each orphan's count drops by one.
    left1 = (ones & ~ORPHAN_BITS) | (twos & ORPHAN_BITS)
    left2 = (twos & ~ORPHAN_BITS) | (threes & ORPHAN_BITS)
    left3 = (threes & ~ORPHAN_BITS) | (fours & ORPHAN_BITS)
    candidates = (left1 | left2 | left3) & ORPHAN_BITS
    found = 0
    while candidates:
        e = cttz64(candidates)
        bit = np.int64(1) << e
        candidates &= candidates - 1
        # The three tiles other than one copy of e: e drops from its level to the one below.
        r1 = (left1 & ~bit) | (left2 & bit)
        r2 = (left2 & ~bit) | (left3 & bit)
        r3 = left3 & ~bit
        kind = 0
        tile = np.int64(0)
        if r3 != 0:
            kind = 2
            tile = cttz64(r3)
        elif r2 == 0 and _is_sheung_bits(r1):
            kind = 1
            tile = cttz64(r1)
        if kind:
            if found == k:
                return e, np.int64(kind), tile
            found += 1
    return np.int64(-1), np.int64(0), np.int64(0)


@jit_inline
def _is_sheung_bits(bits):
    """``bits`` (a 34-bit mask) is three kinds in a row that make a sheung (starting on 1-7 of a suit)."""
    t = cttz64(np.int64(bits)) & 63
    return bits != 0 and (bits >> t) == 7 and ((SHEUNG_START_BITS >> t) & 1) != 0


@jit_inline
def _orphan_sheung_bits(bits):
    """The 9-bit mask of a number suit's kinds held is an orphan sheung: three kinds, pairwise three or
    more apart."""
    return ctpop64(np.int64(bits)) == 3 and (bits & (bits >> 1)) == 0 and (bits & (bits >> 2)) == 0


@jit_inline
def count_words(concealed, i, w):
    """Row ``i`` of ``concealed`` (N, 34) uint8 with tile ``w`` added (-1: none), as the five uint64 words of
    :func:`fastscore.kernels.checks.concealed_words` (the count of kind ``8j + b`` in byte b of word j),
    for any strides (a row whose bytes are not contiguous is read tile by tile)."""
    if concealed.strides[1] == 1:
        w0, w1, w2, w3, w4 = concealed_words(concealed, i)
    else:
        w0, w1, w2, w3, w4 = words_tile_by_tile(concealed, i)
    q = w >> 3
    one = np.uint64(1) << np.uint64(8 * (w & 7))
    zero = np.uint64(0)
    return (w0 + (one if q == 0 else zero), w1 + (one if q == 1 else zero), w2 + (one if q == 2 else zero),
            w3 + (one if q == 3 else zero), w4 + (one if q == 4 else zero))


@jit_inline
def _mask_equal(words, v):
    """The 34-bit int64 mask of the counts in ``words`` (:func:`count_words`) equal to ``v``."""
    w0, w1, w2, w3, w4 = words
    return (gather_highs(_bytes_equal8(w0, v)) | (gather_highs(_bytes_equal8(w1, v)) << 8)
            | (gather_highs(_bytes_equal8(w2, v)) << 16) | (gather_highs(_bytes_equal8(w3, v)) << 24)
            | ((gather_highs(_bytes_equal8(w4, v)) & 3) << 32))


@jit_inline
def _bytes_equal8(h, v):
    """Bit 7 of each byte of ``h`` (each below 128) set where the byte equals ``v`` (below 128)."""
    x = h ^ (np.uint64(v) * BYTE_ONES)
    return ~(x + np.uint64(0x7F) * BYTE_ONES) & BYTE_HIGHS


@jit_inline
def fill_counts(concealed, i, counts, win):
    """Copy row ``i`` of ``concealed`` (N, 34) into ``counts`` (34,) int64, with tile ``win`` added (-1: none)."""
    for t in range(N_KINDS):
        counts[t] = concealed[i, t]
    if win >= 0:
        counts[win] += 1


@jit_inline
def row_code(concealed, i, base):
    """:func:`suit_code` of row ``i`` of a (N, 34) uint8 array."""
    if concealed.strides[1] != 1 or not LITTLE_ENDIAN:  # a strided view: tile by tile (the same for every row)
        code = np.int64(0)
        p = 1
        for k in range(9):
            code += p * np.int64(concealed[i, base + k])
            p *= 5
        return code
    return word_code(load_u64(concealed, i, base), concealed[i, base + 8])


@jit_inline
def word_code(w, ninth):
    """:func:`suit_code` of nine counts: eight as the bytes of ``w`` (uint64, the first in the lowest
    byte) and the ninth ``ninth``; folded in three steps (pairs of bytes, pairs of pairs, halves)."""
    w = (w & np.uint64(0x00FF00FF00FF00FF)) + np.uint64(5) * ((w >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF))
    w = (w & np.uint64(0x0000FFFF0000FFFF)) + np.uint64(25) * ((w >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF))
    return np.int64(w & np.uint64(0xFFFFFFFF)) + 625 * np.int64(w >> np.uint64(32)) + 390625 * np.int64(ninth)
