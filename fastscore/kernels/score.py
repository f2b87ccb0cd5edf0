"""The scoring kernel: every interpretation of one hand, scored (LRC rules sections 3 to 6).

:func:`interpret_hand` (:func:`fastscore.kernels.features.load_hand`, then
:func:`interpret_loaded`) is the single scoring code path.  The batch kernels
(:data:`fastscore.kernels.batch_loops.score_kernel`, and
:mod:`fastscore.waits`, which loads a hand once and scores each waiting tile)
run it for every hand and keep the best interpretation;
:func:`fastscore.interpretations` calls it for one hand and shows them all.

Compiled helpers are called with as few arrays as possible (the rule table
packed into one by :func:`fastscore.kernels.evaluate.pack_rules`, hand rows indexed
rather than sliced): numba counts the references of every array argument and
view on every call, a large share of the per-hand cost when measured.  The
hot helpers that take arrays (``load_hand``, :func:`interpret_loaded` and
what they call) are ``jit_inline``: numba inlines them into the per-block
loops (:func:`fastscore.kernels.batch_loops._score_block`, :func:`fastscore.kernels.waits._waits_block`), so that no
array goes through a call per hand or per wait.

Inlined, the scoring path takes numba most of a minute to compile into each
loop.  The single-hand kernels (:func:`interpret_hand`,
:mod:`fastscore.kernels.single`) run a second build of the same code
(:func:`fastscore._jit.twin`), :func:`interpret_called`, which calls
:data:`collect_interpretations_called`: both compiled once and shared, so that
the first ``fastscore.score`` and ``fastscore.waits`` of a fresh install
compile in about half a minute, not two.  Measured, a call per hand costs the
batch loops about a tenth of their speed, which is why they inline.

Standard decompositions are the product of the per-suit decomposition lists of
:mod:`fastscore.tables` (characters outermost, so they come out in LRC rules
9.13 order); each list entry is a packed word whose bits give that suit's
pongs, sheung starts and eyes, so each interpretation's
:class:`fastscore.kernels.features.Features` record is a few bit operations; the rows
it fires are the predicates of :mod:`fastscore.kernels.rows`, evaluated through the
registry's generated evaluators.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_block, jit_inline, twin
from ..tables import ENTRY_INFO_MASK, ENTRY_OFFSET_SHIFT, N_SHEUNGS_SHIFT, PONG_SHIFT, SHEUNG_SHIFT, STARTS_SHIFT
from ..tiles import MAX_DECLARED, N_KINDS, SetKind
from .decompose import (
    MAX_DECOMPOSITIONS,
    add_tile_codes,
    honour_summary_row,
    nico_pong_bits,
    shape_wins,
    sixteen_orphans_eyes_bits,
    special_masks,
    specials_possible,
    standard_from_info,
    thirteen_orphans_split_bits,
    without_win_code,
)
from .wait_shapes import wait_mask_info
from .evaluate import RP_COLUMN, RP_DOUBLE, RP_LIVE_HI, RP_N_COLUMNS, RP_ONCE, RP_WIN_SHAPES, double_points, \
    lowest_bit, next_row, points_of, resolve, row_value, totals
from .features import Shape, context, interpretation, load_hand, self_drawn_context, store_record
from .rows import DEALER_BITS, SELF_DRAWN_BITS, SELF_DRAWN_BITS_HI, evaluate_hand, evaluate_hand_called, \
    evaluate_interpretation, evaluate_interpretation_inline, evaluate_self_drawn, evaluate_self_drawn_called
from .bits import ctpop64

#: Room for every interpretation of one hand: standard decompositions, Nico
#: Nico, up to 13 Orphans splits (one per eyes), 16 Orphans.
MAX_INTERPRETATIONS = MAX_DECOMPOSITIONS + 15
# Columns of the per-interpretation info array.
(
    INFO_SHAPE,
    INFO_A,
    INFO_B,
    INFO_C,
    INFO_ROWS,
    INFO_POINTS,
    INFO_CHICKEN,
    INFO_TOTAL,
    INFO_LEGAL,
    INFO_PAYOUT,
    INFO_POINTS_SELF_DRAWN,
    INFO_PAYOUT_SELF_DRAWN,
    INFO_UNITS,
    INFO_SELF_DRAWN_ROWS,
    INFO_ROWS_HI,
    INFO_SELF_DRAWN_ROWS_HI,
    INFO_SCORING_SELF_DRAWN,
    INFO_SCORING_SELF_DRAWN_HI,
    INFO_UNITS_SELF_DRAWN,
    INFO_PARTNER,
) = range(20)
N_INFO = 20
#: The sheung counts of one suit in a decomposition word (seven starts, three bits each; fastscore.tables).
_SUIT_SHEUNGS = (1 << 21) - 1

STANDARD, NICO_NICO, THIRTEEN_ORPHANS, SIXTEEN_ORPHANS = (int(s) for s in Shape)
# SetKind values, as plain ints for the kernels.
SHEUNG, PONG, GONG, CONCEALED_GONG = (int(k) for k in tuple(SetKind)[1:])


@jit_inline
def held_four(concealed, declared, i, t):
    """Kind ``t`` is held four times by hand ``i`` of ``concealed`` (N, 34) and ``declared`` (N, 5, 2)."""
    n = np.int64(concealed[i, t])
    for k in range(MAX_DECLARED):
        kind = declared[i, k, 0]
        s = np.int64(declared[i, k, 1])
        if kind == SHEUNG:
            n += np.int64(s <= t) & np.int64(t <= s + 2)
        elif kind != 0 and s == t:
            n += 4 if kind >= GONG else 3
    return n >= 4


@jit_inline
def drop_held_fours(mask, concealed, declared, i):
    """``mask`` (bit t for tile t) without the kinds that hand ``i`` of ``concealed`` (N, 34) and
    ``declared`` (N, 5, 2) already holds four times (section 7).

    Per waiting kind rather than for all 34: a wait mask has a few bits, and
    most hands hold no kind four times.
    """
    left = mask
    while left:
        t = lowest_bit(left)
        left &= left - 1
        if held_four(concealed, declared, i, t):
            mask &= ~(np.int64(1) << t)
    return mask


@jit_inline
def _interpretation(info_out, j, shape, a, b, c, evaluated, f, live_hi, both):
    """Record interpretation ``j`` (shape, a, b, c) with the rows of scope ``interpretation`` that its
    features fire and their units (``evaluated``: :data:`fastscore.kernels.rows.evaluate_interpretation` of its
    record ``f``), and the rows that read ``self_drawn`` as they fire when ``f`` is won by self-draw
    (:data:`fastscore.kernels.rows.evaluate_self_drawn`; only with ``both``); ``live_hi`` is the high row
    word of the rows in force (``RP_LIVE_HI``), whose predicates alone run; :func:`interpret_loaded` scores it."""
    rows, rows_hi, units = evaluated
    if both:
        self_rows, self_rows_hi, _ = evaluate_self_drawn(self_drawn_context(f), live_hi)
        info_out[j, INFO_SELF_DRAWN_ROWS] = self_rows
        info_out[j, INFO_SELF_DRAWN_ROWS_HI] = self_rows_hi
    info_out[j, INFO_SHAPE] = shape
    info_out[j, INFO_A] = a
    info_out[j, INFO_B] = b
    info_out[j, INFO_C] = c
    info_out[j, INFO_ROWS] = rows
    info_out[j, INFO_ROWS_HI] = rows_hi
    info_out[j, INFO_UNITS] = units


@jit
def interpret_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events,
                   known_waits, rules, suit_entries, dec_words, counts, info_out, both=False):
    """Score every interpretation of one hand; return how many were written to ``info_out``.

    Parameters
    ----------
    concealed : (34,) uint8
        Concealed tiles, without the winning tile.
    declared : (5, 2) int8
        Declared sets as (SetKind, lowest tile); kind 0 pads.
    win : int
        Winning tile 0-33.
    self_drawn, closing : bool; seat, round_wind : int 0-3 (E S W N);
    flowers : int bitmask (bit n-1 = flower n); streak : int
    events : int bitmask of :class:`fastscore.events.Event`
    known_waits : int
        Number of waits of the 16 tiles if the caller knows it, else -1.
    rules : (K,) int64
        :func:`fastscore.kernels.evaluate.pack_rules` of :attr:`fastscore.rules.RuleTable.kernel_args`.
    suit_entries, dec_words : arrays
        :func:`fastscore.tables.kernel_tables`' second and third.
    counts : (34,) int64 scratch
    both : bool
        Also score each interpretation as won by self-draw (waits analysis);
        otherwise the self-draw columns repeat the given win.
    info_out : (MAX_INTERPRETATIONS, N_INFO) int64
        One row per interpretation, in LRC rules 9.13 order: shape, a, b, c
        (standard: the three suits' decomposition indices; Nico Nico: the pong;
        13 Orphans: eyes, set kind, set tile; 16 Orphans: eyes), scoring row
        bits (the low row word), points, chicken, total, legal, payout, the points and payout of
        the same interpretation won by self-draw, its units word
        (:data:`fastscore.kernels.rows.UNIT_SHIFT`), the rows flagged ``reads_self_drawn`` as they
        fire won by self-draw, then the high row words of the scoring rows and of those self-drawn rows
        (:data:`fastscore.kernels.rows.WORD_BITS`).
    """
    rows = concealed.reshape((1, N_KINDS))
    sets = declared.reshape((1,) + declared.shape)
    hand = load_hand(rows, sets, 0)
    return interpret_called(win, self_drawn, seat, round_wind, flowers, streak, closing, events, known_waits, rules,
                            suit_entries, dec_words, rows, sets, 0, counts, hand, info_out, both)


@jit_inline
def interpret_loaded(win, self_drawn, seat, round_wind, flowers, streak, closing, events, known_waits, rules,
                     suit_entries, dec_words, concealed, declared, i, counts, hand, info_out, both):
    """:func:`interpret_hand` after :func:`fastscore.kernels.features.load_hand` of hand ``i`` of ``concealed``
    (N, 34) and ``declared`` (N, 5, 2); ``hand`` is its :class:`fastscore.kernels.features.Hand` record and
    ``counts`` (34,) int64 scratch.

    The batch kernels load a hand once and call this (the waits kernel once
    per waiting tile): :func:`collect_interpretations`, then each
    interpretation scored (:func:`score_interpretation`).  The rows of scope
    ``hand`` are evaluated once, on the context record, those of scope
    ``interpretation`` once per interpretation (:mod:`fastscore.kernels.rows`).
    """
    ctx = context(hand, win, self_drawn, seat, round_wind, flowers, streak, closing, events)
    live_hi = rules[RP_LIVE_HI]
    hand_rows, hand_rows_hi, hand_units = evaluate_hand(ctx, live_hi)
    n = collect_interpretations(ctx, known_waits, rules[RP_WIN_SHAPES], live_hi, both and not self_drawn, suit_entries,
                                dec_words, concealed, declared, i, counts, hand, info_out, info_out, False)
    # Score every interpretation (section 6), here rather than in a helper: one call less per
    # interpretation for the arrays it would take.
    self_rows = hand_rows
    self_rows_hi = hand_rows_hi
    self_units = hand_units
    nico = -1
    if both and not self_drawn:
        # The same interpretations won by self-draw, for waits analysis: only the rows of scope hand change.
        self_rows, self_rows_hi, self_units = evaluate_hand(self_drawn_context(ctx), live_hi)
    for j in range(n):
        shape = info_out[j, INFO_SHAPE]
        rows = info_out[j, INFO_ROWS]
        rows_hi = info_out[j, INFO_ROWS_HI]
        units = info_out[j, INFO_UNITS]
        scoring, scoring_hi, pts, chicken, total, legal, payout = score_interpretation(
            rows | hand_rows, rows_hi | hand_rows_hi, units | hand_units, shape, round_wind, seat, streak, rules)
        info_out[j, INFO_ROWS] = scoring
        info_out[j, INFO_ROWS_HI] = scoring_hi
        info_out[j, INFO_UNITS] = units | hand_units
        info_out[j, INFO_POINTS] = pts
        info_out[j, INFO_CHICKEN] = 1 if chicken else 0
        info_out[j, INFO_TOTAL] = total
        info_out[j, INFO_LEGAL] = 1 if legal else 0
        info_out[j, INFO_PAYOUT] = payout
        info_out[j, INFO_PARTNER] = -1
        if shape == NICO_NICO:
            nico = j
        if both and not self_drawn:
            # The interpretation rows that read self_drawn fire as evaluated on the self-drawn record.
            own = (rows & ~SELF_DRAWN_BITS) | info_out[j, INFO_SELF_DRAWN_ROWS]
            own_hi = (rows_hi & ~SELF_DRAWN_BITS_HI) | info_out[j, INFO_SELF_DRAWN_ROWS_HI]
            scoring, scoring_hi, pts, _, _, _, payout = score_interpretation(
                own | self_rows, own_hi | self_rows_hi, units | self_units, shape, round_wind, seat, streak, rules)
            info_out[j, INFO_UNITS_SELF_DRAWN] = units | self_units
        else:
            info_out[j, INFO_UNITS_SELF_DRAWN] = units | hand_units
        info_out[j, INFO_SCORING_SELF_DRAWN] = scoring
        info_out[j, INFO_SCORING_SELF_DRAWN_HI] = scoring_hi
        info_out[j, INFO_POINTS_SELF_DRAWN] = pts
        info_out[j, INFO_PAYOUT_SELF_DRAWN] = payout
    if nico >= 0 and n > 1 and rules[RP_DOUBLE] != 0:
        double_interpretation(info_out, n, np.int64(nico), round_wind, seat, streak, rules)
    return n


@jit
def double_interpretation(info_out, n, a, round_wind, seat, streak, rules):
    """The double interpretation (``[totals] double_interpretation``): the Nico Nico interpretation ``a`` of
    the ``n`` of ``info_out`` (after :func:`interpret_loaded` scored them) takes the best standard
    interpretation's rows too (:func:`fastscore.kernels.evaluate.double_points`), for the win as made and
    as self-drawn; ``INFO_PARTNER`` names that standard interpretation (-1: none, nothing changes)."""
    b = best_interpretation(info_out, n, INFO_PAYOUT, INFO_POINTS, STANDARD)
    if b < 0:
        return
    pts = double_points(info_out[a, INFO_ROWS], info_out[a, INFO_ROWS_HI], info_out[a, INFO_POINTS],
                        info_out[b, INFO_ROWS], info_out[b, INFO_ROWS_HI], info_out[b, INFO_UNITS],
                        info_out[b, INFO_POINTS], rules)
    chicken, total, legal, payout = totals(pts, info_out[a, INFO_ROWS], round_wind, seat, streak, rules)
    info_out[a, INFO_PARTNER] = b
    info_out[a, INFO_POINTS] = pts
    info_out[a, INFO_CHICKEN] = 1 if chicken else 0
    info_out[a, INFO_TOTAL] = total
    info_out[a, INFO_LEGAL] = 1 if legal else 0
    info_out[a, INFO_PAYOUT] = payout
    b = best_interpretation(info_out, n, INFO_PAYOUT_SELF_DRAWN, INFO_POINTS_SELF_DRAWN, STANDARD)
    pts = double_points(info_out[a, INFO_SCORING_SELF_DRAWN], info_out[a, INFO_SCORING_SELF_DRAWN_HI],
                        info_out[a, INFO_POINTS_SELF_DRAWN], info_out[b, INFO_SCORING_SELF_DRAWN],
                        info_out[b, INFO_SCORING_SELF_DRAWN_HI], info_out[b, INFO_UNITS_SELF_DRAWN],
                        info_out[b, INFO_POINTS_SELF_DRAWN], rules)
    _, _, _, payout = totals(pts, info_out[a, INFO_SCORING_SELF_DRAWN], round_wind, seat, streak, rules)
    info_out[a, INFO_POINTS_SELF_DRAWN] = pts
    info_out[a, INFO_PAYOUT_SELF_DRAWN] = payout


@jit_inline
def score_interpretation(rows, rows_hi, units, shape, round_wind, seat, streak, rules):
    """Section 6 for one interpretation whose fired rows (both scopes) are the row words ``rows``, ``rows_hi``
    with units ``units``: ``(scoring rows, scoring rows_hi, points, chicken, total, legal, payout)``
    (``rules``: :func:`fastscore.kernels.evaluate.pack_rules`)."""
    scoring, scoring_hi = resolve(rows, rows_hi, shape, rules)
    pts = points_of(scoring, scoring_hi, units, rules)
    chicken, total, legal, payout = totals(pts, scoring, round_wind, seat, streak, rules)
    return scoring, scoring_hi, pts, chicken, total, legal, payout


@jit_inline
def only_wait(concealed, declared, i, win, counts, n_declared, j0, j1, j2, honours16, win_shapes):
    """The winning tile ``win`` is the only wait of hand ``i`` of ``concealed`` (N, 34), its 16 tiles, with
    ``declared`` (N, 5, 2) (4.1 ``single_wait``); ``j0``-``j2``: its suits' table info, ``honours16``: its
    honours' summary, ``counts``: (34,) int64 scratch; ``win_shapes``: the shapes that win (bit s for
    shape s): a kind that completes only a shape that does not win is no wait."""
    waits = wait_mask_info(concealed, i, counts, n_declared, j0, j1, j2, honours16, win_shapes)
    # The winning tile is a wait (and not held four times: the 17 tiles hold it); the others count
    # unless held four times.  Most hands have one wait or a second that is not held four times.
    others = waits & ~(np.int64(1) << win)
    return others == 0 or drop_held_fours(others, concealed, declared, i) == 0


@jit_inline
def collect_interpretations(ctx, known_waits, win_shapes, live_hi, both, suit_entries, dec_words, concealed,
                            declared, i, counts, hand, info_out, records, keep):
    """Every interpretation of the win ``ctx`` (:func:`fastscore.kernels.features.context`) of hand ``i`` of
    ``concealed`` (N, 34) and ``declared`` (N, 5, 2), loaded as ``hand``, in a shape that wins
    (``win_shapes``: bit s for shape s; the standard shape always wins): rows 0 .. n-1 of ``info_out``
    get its shape, a, b, c, and the rows of scope ``interpretation`` that it fires with their units (of the
    high row word, only those of ``live_hi``, the rows in force), and with ``both`` the rows that read
    ``self_drawn`` as they fire won by self-draw; returns n.

    ``known_waits``: the number of waits of the 16 tiles, or -1 to work out whether the winning tile is the
    only one.  With ``keep``, row j of ``records`` (K, :data:`fastscore.kernels.features.N_FIELDS`) also gets
    interpretation j's feature record (:func:`fastscore.kernels.features.store_record`).  ``counts`` is
    scratch for the single-wait test; the special shapes are read from masks of the kinds held once, twice,
    ... (:func:`fastscore.kernels.decompose.count_masks`), worked out only when the table hints allow one.
    """
    win = ctx.win
    # The suit codes of the 17 tiles: the winning tile adds to one of them.
    k0, k1, k2 = hand.k0, hand.k1, hand.k2
    c0, c1, c2 = add_tile_codes(k0, k1, k2, win)
    # The table reads that miss the cache are issued together, before anything waits on them (the
    # batch kernels have also asked for them a hand or two earlier,
    # :func:`fastscore.kernels.batch_loops.fetch_entries`): the three suits' entries with their
    # decomposition offsets (zero decompositions for an incomplete suit) and, for the single-wait
    # test, the entry of the winning tile's suit without it.
    e0 = suit_entries[c0]
    e1 = suit_entries[c1]
    e2 = suit_entries[c2]
    a0 = e0 >> ENTRY_OFFSET_SHIFT
    a1 = suit_entries[c0 + 1] >> ENTRY_OFFSET_SHIFT
    b0 = e1 >> ENTRY_OFFSET_SHIFT
    b1 = suit_entries[c1 + 1] >> ENTRY_OFFSET_SHIFT
    d0 = e2 >> ENTRY_OFFSET_SHIFT
    d1 = suit_entries[c2 + 1] >> ENTRY_OFFSET_SHIFT
    i0 = e0 & ENTRY_INFO_MASK
    i1 = e1 & ENTRY_INFO_MASK
    i2 = e2 & ENTRY_INFO_MASK
    j0 = i0
    j1 = i1
    j2 = i2
    if known_waits < 0:
        # The entry of the winning tile's suit without it, the suit whose code it changed (selects;
        # an honour changes none, and the entry read is unused).
        jw = suit_entries[without_win_code(k0, k1, k2, c0, c1, c2)] & ENTRY_INFO_MASK
        j0 = jw if c0 != k0 else i0
        j1 = jw if c1 != k1 else i1
        j2 = jw if c2 != k2 else i2
    honours16 = hand.honours
    n_declared = hand.n_declared
    honours = honours16 if win < 27 else honour_summary_row(concealed, i, win)
    h_ones, h_pairs, h_threes, h_fours, h_kinds, h_pair_mask, _, h_three_mask = honours
    n = 0

    # Standard decompositions (section 3), combined with the declared sets.
    if (a1 - a0) * (b1 - b0) * (d1 - d0) > 0 and standard_from_info(i0, i1, i2, h_ones, h_pairs, h_fours):
        single = known_waits == 1
        if known_waits < 0:
            single = only_wait(concealed, declared, i, win, counts, n_declared, j0, j1, j2, honours16, win_shapes)
        # Pongs of the concealed tiles and concealed gongs; the exposed declared pongs and gongs.
        hidden_pongs = h_three_mask | hand.concealed_gongs
        shown_pongs = hand.pongs & ~hand.concealed_gongs
        # At most one honour pair in a standard hand.
        honour_eyes = lowest_bit(h_pair_mask) if h_pair_mask else -1
        dm = hand.sheungs & 127
        dp = (hand.sheungs >> 7) & 127
        ds = (hand.sheungs >> 14) & 127
        for a in range(a0, a1):
            wa = dec_words[a]
            for b in range(b0, b1):
                wb = dec_words[b]
                for c in range(d0, d1):
                    wc = dec_words[c]
                    concealed_pongs = (
                        hidden_pongs
                        | ((wa >> PONG_SHIFT) & 511)
                        | (((wb >> PONG_SHIFT) & 511) << 9)
                        | (((wc >> PONG_SHIFT) & 511) << 18)
                    )
                    # At most one suit holds the eyes (position + 1 in the word's low bits); selects, not branches.
                    ea = wa & 15
                    eb = wb & 15
                    ec = wc & 15
                    eyes = honour_eyes
                    eyes = 17 + ec if ec else eyes
                    eyes = 8 + eb if eb else eyes
                    eyes = ea - 1 if ea else eyes
                    cm = (wa >> STARTS_SHIFT) & 127
                    cp = (wb >> STARTS_SHIFT) & 127
                    cs = (wc >> STARTS_SHIFT) & 127
                    n_sheungs = (
                        hand.n_sheungs
                        + ((wa >> N_SHEUNGS_SHIFT) & 7)
                        + ((wb >> N_SHEUNGS_SHIFT) & 7)
                        + ((wc >> N_SHEUNGS_SHIFT) & 7)
                    )
                    # Sheungs per start, three bits each, for the rows of the high word that count them.
                    sheung_counts = hand.sheung_counts + (
                        ((wa >> SHEUNG_SHIFT) & _SUIT_SHEUNGS)
                        | (((wb >> SHEUNG_SHIFT) & _SUIT_SHEUNGS) << 21)
                        | (((wc >> SHEUNG_SHIFT) & _SUIT_SHEUNGS) << 42)
                    )
                    f = interpretation(ctx, STANDARD, concealed_pongs | shown_pongs, concealed_pongs, hand.gongs,
                                       cm | dm, cp | dp, cs | ds, cm, cp, cs, n_sheungs, eyes, single, 0, 0, 0, 0, 0,
                                       sheung_counts)
                    if n < info_out.shape[0]:
                        _interpretation(info_out, n, STANDARD, a, b, c, evaluate_interpretation_inline(f, live_hi), f,
                                        live_hi, both)
                        if keep:
                            store_record(records, n, f)
                        n += 1

    # The special shapes need no declared set; the table hints rule most hands out at once.  A hand they
    # allow is read as masks of the kinds held once, twice, ... (no loop over the kinds).
    nico = thirteen = sixteen = False
    ones = twos = threes = fours = held = np.int64(0)
    if n_declared == 0 and win_shapes > 1:
        nico, thirteen, sixteen = specials_possible(i0, i1, i2, h_ones, h_threes, h_kinds)
        nico = nico and shape_wins(win_shapes, Shape.NICO_NICO)
        thirteen = thirteen and shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS)
        sixteen = sixteen and shape_wins(win_shapes, Shape.SIXTEEN_ORPHANS)
        if nico or thirteen or sixteen:
            ones, twos, threes, fours, held = special_masks(concealed, i, win)

    # Nico Nico (5.1): seven pairs and a pong, no declared set.
    pong = nico_pong_bits(ones, threes) if nico else -1
    if pong >= 0:
        # Whether the winning tile was the only wait, as for the standard shape (the wait rows of the
        # HK-style table read it in Nico Nico too); the test takes ``counts`` as scratch.
        single = known_waits == 1
        if known_waits < 0:
            single = only_wait(concealed, declared, i, win, counts, n_declared, j0, j1, j2, honours16, win_shapes)
        # A kind held four times is two pairs.
        f = interpretation(ctx, NICO_NICO, 1 << pong, 1 << pong, 0, 0, 0, 0, 0, 0, 0, 0, -1, single, ctpop64(fours), 0,
                           0, 0, twos | fours, 0)
        _interpretation(info_out, n, NICO_NICO, pong, 0, 0, evaluate_interpretation(f, live_hi), f, live_hi, both)
        if keep:
            store_record(records, n, f)
        n += 1

    # 13 Orphans (5.2, 9.11): every split into eyes and an extra set.
    k = np.int64(0)
    while thirteen:
        eyes, set_kind, set_tile = thirteen_orphans_split_bits(ones, twos, threes, fours, held, k)
        if eyes < 0:
            break
        pongs = np.int64(1) << set_tile if set_kind == PONG else 0
        sheung = np.int64(1) << (set_tile % 9) if set_kind == SHEUNG else 0
        suit = set_tile // 9
        sm = sheung if suit == 0 else 0
        sp = sheung if suit == 1 else 0
        ss = sheung if suit == 2 else 0
        f = interpretation(ctx, THIRTEEN_ORPHANS, pongs, pongs, 0, sm, sp, ss, sm, sp, ss, np.int64(sheung != 0),
                           eyes, 0, 0, 0, 0, 0, 0, 0)
        _interpretation(info_out, n, THIRTEEN_ORPHANS, eyes, set_kind, set_tile, evaluate_interpretation(f, live_hi), f,
                        live_hi, both)
        if keep:
            store_record(records, n, f)
        n += 1
        k += 1

    # 16 Orphans (5.2, 9.2): three orphan sheungs, the seven honours, eyes.
    eyes = sixteen_orphans_eyes_bits(twos, threes, fours, held) if sixteen else -1
    if eyes >= 0:
        f = interpretation(ctx, SIXTEEN_ORPHANS, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, eyes, 0, 0, held & 511, (held >> 9) & 511,
                           (held >> 18) & 511, 0, 0)
        _interpretation(info_out, n, SIXTEEN_ORPHANS, eyes, 0, 0, evaluate_interpretation(f, live_hi), f, live_hi,
                        both)
        if keep:
            store_record(records, n, f)
        n += 1
    return n


@jit_inline
def best_interpretation(info_out, n, payout_col=INFO_PAYOUT, points_col=INFO_POINTS, shape=-1):
    """Index of the best of the ``n`` interpretations of ``info_out`` (6: payout, then points, then order;
    only those of shape ``shape`` unless it is -1), or -1."""
    best = -1
    for j in range(n):
        if shape >= 0 and info_out[j, INFO_SHAPE] != shape:
            continue
        if best < 0 or info_out[j, payout_col] > info_out[best, payout_col] or (
                info_out[j, payout_col] == info_out[best, payout_col]
                and info_out[j, points_col] > info_out[best, points_col]):
            best = j
    return best


@jit_inline
def write_row_points(scoring, scoring_hi, units, rules, out, i):
    """Points of the ``scoring``, ``scoring_hi`` rows of one interpretation (its INFO_ROWS, INFO_ROWS_HI and
    INFO_UNITS after
    :func:`interpret_loaded`) added to row ``i`` of ``out`` (N, C), zeroed first, at each row's column
    (the rows in force of the table, :attr:`fastscore.rules.RuleTable.row_ids`); ``rules``:
    :func:`fastscore.kernels.evaluate.pack_rules`."""
    m = scoring
    m_hi = scoring_hi
    while m | m_hi:
        r, m, m_hi = next_row(m, m_hi)
        out[i, rules[RP_COLUMN + r]] += row_value(r, units, rules)


@jit_inline
def write_interpretation_points(info, j, rules, out, i):
    """:func:`write_row_points` of interpretation ``j`` of ``info`` (after :func:`interpret_loaded`) into
    row ``i`` of ``out`` (zeroed): with the rows of its partner in a double interpretation added, a row
    counted once (``RP_ONCE``, and the base and dealer rows, which the totals add once) that both score
    added once."""
    scoring = info[j, INFO_ROWS]
    scoring_hi = info[j, INFO_ROWS_HI]
    write_row_points(scoring, scoring_hi, info[j, INFO_UNITS], rules, out, i)
    b = info[j, INFO_PARTNER]
    if b >= 0:
        write_row_points(info[b, INFO_ROWS] & ~(scoring & (rules[RP_ONCE] | DEALER_BITS)),
                         info[b, INFO_ROWS_HI] & ~(scoring_hi & rules[RP_ONCE + 1]), info[b, INFO_UNITS], rules, out, i)


@jit
def make_scratch():
    """Per-thread scratch: counts (34,) int64, info (MAX_INTERPRETATIONS, N_INFO) int64, and 16 bytes
    (2,) int64 that :func:`fastscore.kernels.single.waits_hand` views as the columns of a batch of one."""
    return (
        np.zeros(N_KINDS, dtype=np.int64),
        np.zeros((MAX_INTERPRETATIONS, N_INFO), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@jit
def interpretations_kernel(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events,
                           rules, tables):
    """All interpretations of one hand: (n, info (K, N_INFO), row points (K, R)); ``rules``:
    :attr:`fastscore.rules.RuleTable.packed`."""
    _, suit_entries, dec_words = tables
    counts, info, _ = make_scratch()
    n = interpret_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events, -1,
                       rules, suit_entries, dec_words, counts, info)
    rows = np.zeros((n, rules[RP_N_COLUMNS]), dtype=np.int64)
    for j in range(n):
        write_interpretation_points(info, j, rules, rows, j)
    return n, info, rows


#: :func:`_interpretation` compiled once as a function of its own, for :data:`collect_interpretations_called`.
_interpretation_called = jit_block(twin(_interpretation, "called", evaluate_self_drawn=evaluate_self_drawn_called))
#: :func:`score_interpretation` compiled once as a function of its own, for :data:`interpret_called`.
_score_interpretation_called = jit_block(twin(score_interpretation, "called"))


@jit_inline
def _interpretation_shared(info_out, j, shape, a, b, c, evaluated, f, live_hi, both):
    """:func:`_interpretation` through its one called build (every number as int64: the shapes are
    constants, which numba would otherwise compile apart)."""
    rows, rows_hi, units = evaluated
    _interpretation_called(info_out, np.int64(j), np.int64(shape), np.int64(a), np.int64(b), np.int64(c),
                           (np.int64(rows), np.int64(rows_hi), np.int64(units)), f, np.int64(live_hi), np.bool_(both))


#: :func:`collect_interpretations` compiled once as a function of its own (not inlined), for
#: :data:`interpret_called`; it calls the rows' evaluator and :func:`_interpretation` rather than
#: inlining them.
collect_interpretations_called = jit_block(twin(collect_interpretations, "called",
                                                evaluate_interpretation_inline=evaluate_interpretation,
                                                _interpretation=_interpretation_shared))
#: :func:`interpret_loaded` calling :data:`collect_interpretations_called`, compiled once as a function of
#: its own: the single-hand kernels' build of the scoring path (the module docstring says why).
_interpret_called = jit_block(twin(interpret_loaded, "called",
                                   collect_interpretations=collect_interpretations_called,
                                   evaluate_hand=evaluate_hand_called,
                                   score_interpretation=_score_interpretation_called))


@jit_inline
def interpret_called(win, self_drawn, seat, round_wind, flowers, streak, closing, events, known_waits, rules,
                     suit_entries, dec_words, concealed, declared, i, counts, hand, info_out, both):
    """:func:`interpret_loaded` through its one shared build: the numbers are passed as int64 and bool
    (not as the callers' column dtypes or literals), so that every caller runs the same build."""
    return _interpret_called(np.int64(win), np.bool_(self_drawn), np.int64(seat), np.int64(round_wind),
                             np.int64(flowers), np.int64(streak), np.bool_(closing), np.int64(events),
                             np.int64(known_waits), rules, suit_entries, dec_words, concealed, declared,
                             np.int64(i), counts, hand, info_out, np.bool_(both))
