"""The feature record: what the row predicates of :mod:`fastscore.kernels.rows` read (LRC rules sections 2 to 4).

One interpretation of one win is summarised in a :class:`Features` record, a
``NamedTuple`` of int64 fields that numba keeps in registers: the hand's
context (suit word, self-draw, concealment, Closing, flowers, seat, round,
streak, winning tile) and the interpretation (shape, pongs by tile, sheung
starts per suit, eyes, whether the winning tile is the only wait, ...).
:func:`context` fills the context fields once per win, :func:`interpretation`
adds one interpretation's fields; the scoring kernel
(:func:`fastscore.kernels.score.interpret_loaded`) works out the values from the
per-suit tables.

:func:`load_hand` reads what the kernels need of one hand row once, as a
:class:`Hand` record.

Tiles are indexed 0-33 (LRC rules section 1): ``1m``-``9m`` 0-8, ``1p``-``9p``
9-17, ``1s``-``9s`` 18-26, winds E S W N 27-30, dragons white, green, red 31-33.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._jit import jit, jit_block, jit_inline, twin
from ..tiles import MAX_DECLARED, SetKind
from .decompose import Shape, honour_summary_row, row_code

__all__ = ["Shape", "SHAPE_NAMES", "Features", "Hand", "N_FIELDS", "context", "interpretation", "load_hand",
           "record_with_win", "store_record", "tile_word", "suit_word"]


SHAPE_NAMES = tuple(s.name.lower() for s in Shape)

# The suit word: a bit per suit (and per dragon kind) present among the tiles (LRC rules 4.3).
SUIT_M, SUIT_P, SUIT_S, SUIT_WIND = 1, 2, 4, 8
DRAGON_WH, DRAGON_G, DRAGON_R = 16, 32, 64
HONOURS = SUIT_WIND | DRAGON_WH | DRAGON_G | DRAGON_R

#: The suit word bit of each tile (:func:`tile_word`).
TILE_WORDS = np.array([1 << (t // 9) for t in range(27)] + [SUIT_WIND] * 4 + [DRAGON_WH, DRAGON_G, DRAGON_R],
                      dtype=np.int64)

_SHEUNG, _GONG, _CONCEALED_GONG = int(SetKind.SHEUNG), int(SetKind.GONG), int(SetKind.CONCEALED_GONG)


class Features(NamedTuple):
    """One interpretation of one win, as the row predicates read it (all fields int64).

    Context (the same for every interpretation of a win; :func:`context`):

    word : suit word of the 17 tiles, declared sets included: bits ``SUIT_M``,
        ``SUIT_P``, ``SUIT_S``, ``SUIT_WIND``, ``DRAGON_WH``, ``DRAGON_G``, ``DRAGON_R``.
    self_drawn, concealed, closing : 0 or 1 (concealed: no exposed declared set, LRC rules 2).
    flowers : bit n-1 for flower/season n.
    seat, round_wind : 0-3 (E S W N).
    streak : the dealer's streak.
    win : the winning tile 0-33.

    Interpretation (:func:`interpretation`; 0, or -1 for tiles, in a context record):

    shape : :class:`Shape`.
    pongs : bit t for each pong or gong of tile t, exposed or concealed.
    concealed_pongs : bit t for each pong or gong of tile t that is not an exposed declared set.
    gongs : bit t for each declared gong (exposed or concealed).
    sheungs_m, sheungs_p, sheungs_s : bit k for a sheung starting at number k+1 of
        that suit (7 bits), exposed or concealed.
    concealed_m, concealed_p, concealed_s : the same for the sheungs that are not exposed.
    n_sheungs : sheungs in all (a repeated sheung counts twice).
    eyes : the eyes tile, or -1 (Nico Nico).
    single_wait : 1 when the winning tile is the only wait of the 16 tiles (standard shape, LRC rules 4.1).
    quads : kinds held four times (Nico Nico).
    orphans_m, orphans_p, orphans_s : bit k for number k+1 in that suit's orphan sheung (16 Orphans, 9 bits).

    exposed_sets : the number of exposed declared sets (a context field, last so that the record
        columns above keep their places).
    events : the win's timing events, bits of :class:`fastscore.events.Event` (a context field).
    pairs : Nico Nico: bit t for each kind held as a pair or as two (four of a kind); 0 otherwise.
    sheung_counts : standard shape: how many sheungs (declared ones included) start at each number of each
        suit, three bits each, at bit ``3 * (7 * suit + start)``; 0 otherwise.
    """

    word: int
    self_drawn: int
    concealed: int
    closing: int
    flowers: int
    seat: int
    round_wind: int
    streak: int
    win: int
    shape: int
    pongs: int
    concealed_pongs: int
    gongs: int
    sheungs_m: int
    sheungs_p: int
    sheungs_s: int
    concealed_m: int
    concealed_p: int
    concealed_s: int
    n_sheungs: int
    eyes: int
    single_wait: int
    quads: int
    orphans_m: int
    orphans_p: int
    orphans_s: int
    exposed_sets: int
    events: int
    pairs: int
    sheung_counts: int


class Hand(NamedTuple):
    """What the kernels read of one 16-tile hand row (:func:`load_hand`).

    n_declared : declared sets; exposed : any of them exposed (bool); n_exposed : how many are exposed;
    pongs : bit t for each declared pong or gong of tile t; concealed_gongs,
    gongs : bit t for each declared concealed gong / gong; sheungs : declared
    sheung starts as three 7-bit masks ``m | p << 7 | s << 14``; n_sheungs :
    declared sheungs; word : suit word of the 16 tiles; k0, k1, k2 : the base-5
    codes of the concealed tiles of each number suit; honours : the concealed
    honours' :func:`fastscore.kernels.decompose.honour_summary_row`; sheung_counts : the declared
    sheungs of each start of each suit, three bits each (:attr:`Features.sheung_counts`).
    """

    n_declared: int
    exposed: bool
    n_exposed: int
    pongs: int
    concealed_gongs: int
    gongs: int
    sheungs: int
    n_sheungs: int
    word: int
    k0: int
    k1: int
    k2: int
    honours: tuple
    sheung_counts: int


@jit
def tile_word(t):
    """The suit word bit of tile ``t`` (a table read: the tile's kind is random from hand to hand)."""
    return TILE_WORDS[t]


@jit
def suit_word(held):
    """Suit word of the tiles ``held`` (34,) counts."""
    word = 0
    for s in range(3):
        for i in range(9):
            if held[9 * s + i]:
                word |= 1 << s
                break
    for t in range(27, 31):
        if held[t]:
            word |= SUIT_WIND
    for d in range(3):
        if held[31 + d]:
            word |= DRAGON_WH << d
    return word


@jit_inline
def load_hand(concealed, declared, i):
    """The :class:`Hand` record of hand ``i`` of ``concealed`` (N, 34) uint8 and ``declared`` (N, 5, 2) int8.

    The kinds held four times are not worked out here but for the few waits
    that need it (:func:`fastscore.kernels.score.drop_held_fours`); the special shapes read the row's
    count masks (:func:`fastscore.kernels.decompose.special_masks`), and the counts are copied to a (34,)
    vector only for the 13 Orphans waits of a hand holding every orphan
    (:func:`fastscore.kernels.wait_shapes.wait_mask_info`).
    """
    # Rows are indexed here rather than passed as views: a view costs reference counting.
    n_declared = 0
    n_exposed = 0
    pongs = 0
    concealed_gongs = 0
    gongs = 0
    starts = 0
    sheung_counts = 0
    n_sheungs = 0
    word = 0
    for k in range(MAX_DECLARED):
        kind = declared[i, k, 0]
        t = np.int64(declared[i, k, 1])
        if kind == 0:
            continue
        n_declared += 1
        word |= tile_word(t)
        n_exposed += np.int64(kind != _CONCEALED_GONG)
        if kind == _SHEUNG:
            starts |= 1 << (7 * (t // 9) + t % 9)
            sheung_counts += 1 << (3 * (7 * (t // 9) + t % 9))
            n_sheungs += 1
        else:
            pongs |= 1 << t
            gongs |= np.int64(kind >= _GONG) << t
            concealed_gongs |= np.int64(kind == _CONCEALED_GONG) << t
    c0 = row_code(concealed, i, 0)
    c1 = row_code(concealed, i, 9)
    c2 = row_code(concealed, i, 18)
    # np.int64 arguments: one build of tile_word, not one per literal (cold compile).
    word |= (np.int64(c0 != 0) * tile_word(np.int64(0)) | np.int64(c1 != 0) * tile_word(np.int64(9))
             | np.int64(c2 != 0) * tile_word(np.int64(18)))
    winds = concealed[i, 27] | concealed[i, 28] | concealed[i, 29] | concealed[i, 30]
    word |= np.int64(winds != 0) * SUIT_WIND
    word |= np.int64(concealed[i, 31] != 0) * DRAGON_WH | np.int64(concealed[i, 32] != 0) * DRAGON_G
    word |= np.int64(concealed[i, 33] != 0) * DRAGON_R
    return Hand(n_declared, n_exposed > 0, n_exposed, pongs, concealed_gongs, gongs, starts, n_sheungs, word, c0, c1, c2,
                honour_summary_row(concealed, i, -1), sheung_counts)


@jit_inline
def context(hand, win, self_drawn, seat, round_wind, flowers, streak, closing, events):
    """The context of one win of ``hand`` (a :class:`Hand`) on tile ``win``, as a :class:`Features`
    record whose interpretation fields are blank (shape -1, eyes -1, the rest 0)."""
    return Features(
        word=hand.word | tile_word(win), self_drawn=np.int64(self_drawn), concealed=np.int64(not hand.exposed),
        closing=np.int64(closing), flowers=np.int64(flowers), seat=np.int64(seat),
        round_wind=np.int64(round_wind), streak=np.int64(streak), win=np.int64(win),
        shape=-1, pongs=0, concealed_pongs=0, gongs=0, sheungs_m=0, sheungs_p=0, sheungs_s=0,
        concealed_m=0, concealed_p=0, concealed_s=0, n_sheungs=0, eyes=-1, single_wait=0, quads=0,
        orphans_m=0, orphans_p=0, orphans_s=0, exposed_sets=np.int64(hand.n_exposed), events=np.int64(events),
        pairs=0, sheung_counts=0,
    )


@jit_inline
def interpretation(ctx, shape, pongs, concealed_pongs, gongs, sheungs_m, sheungs_p, sheungs_s, concealed_m,
                   concealed_p, concealed_s, n_sheungs, eyes, single_wait, quads, orphans_m, orphans_p, orphans_s,
                   pairs, sheung_counts):
    """The record of one interpretation: the context fields of ``ctx`` (from :func:`context`) and the
    interpretation's fields as given (see :class:`Features`)."""
    return Features(
        word=ctx.word, self_drawn=ctx.self_drawn, concealed=ctx.concealed, closing=ctx.closing,
        flowers=ctx.flowers, seat=ctx.seat, round_wind=ctx.round_wind, streak=ctx.streak, win=ctx.win,
        shape=np.int64(shape), pongs=np.int64(pongs), concealed_pongs=np.int64(concealed_pongs),
        gongs=np.int64(gongs), sheungs_m=np.int64(sheungs_m), sheungs_p=np.int64(sheungs_p),
        sheungs_s=np.int64(sheungs_s), concealed_m=np.int64(concealed_m), concealed_p=np.int64(concealed_p),
        concealed_s=np.int64(concealed_s), n_sheungs=np.int64(n_sheungs), eyes=np.int64(eyes),
        single_wait=np.int64(single_wait), quads=np.int64(quads), orphans_m=np.int64(orphans_m),
        orphans_p=np.int64(orphans_p), orphans_s=np.int64(orphans_s), exposed_sets=ctx.exposed_sets,
        events=ctx.events, pairs=np.int64(pairs), sheung_counts=np.int64(sheung_counts),
    )


@jit_inline
def self_drawn_context(ctx):
    """``ctx`` won by self-draw instead (waits analysis scores both wins of one completion)."""
    return Features(
        word=ctx.word, self_drawn=1, concealed=ctx.concealed, closing=ctx.closing, flowers=ctx.flowers,
        seat=ctx.seat, round_wind=ctx.round_wind, streak=ctx.streak, win=ctx.win, shape=ctx.shape,
        pongs=ctx.pongs, concealed_pongs=ctx.concealed_pongs, gongs=ctx.gongs, sheungs_m=ctx.sheungs_m,
        sheungs_p=ctx.sheungs_p, sheungs_s=ctx.sheungs_s, concealed_m=ctx.concealed_m, concealed_p=ctx.concealed_p,
        concealed_s=ctx.concealed_s, n_sheungs=ctx.n_sheungs, eyes=ctx.eyes, single_wait=ctx.single_wait,
        quads=ctx.quads, orphans_m=ctx.orphans_m, orphans_p=ctx.orphans_p, orphans_s=ctx.orphans_s,
        exposed_sets=ctx.exposed_sets, events=ctx.events, pairs=ctx.pairs, sheung_counts=ctx.sheung_counts,
    )


#: Fields of a :class:`Features` record (columns of a records array, :func:`store_record`).
N_FIELDS = len(Features._fields)


@jit_inline
def store_record(records, j, f):
    """Write record ``f`` into row ``j`` of ``records`` (K, :data:`N_FIELDS`) int64, fields in :class:`Features` order."""
    for k in range(N_FIELDS):
        records[j, k] = f[k]


@jit_inline
def record_with_win(records, j, win, single_wait):
    """Row ``j`` of ``records`` (:func:`store_record`) as a :class:`Features` record, won on tile ``win``
    with ``single_wait`` instead: the record of the same interpretation of the same 17 tiles won on
    another of their kinds (the survey, :mod:`fastscore.kernels.survey`)."""
    return Features(
        word=records[j, 0], self_drawn=records[j, 1], concealed=records[j, 2], closing=records[j, 3],
        flowers=records[j, 4], seat=records[j, 5], round_wind=records[j, 6], streak=records[j, 7],
        win=np.int64(win), shape=records[j, 9], pongs=records[j, 10], concealed_pongs=records[j, 11],
        gongs=records[j, 12], sheungs_m=records[j, 13], sheungs_p=records[j, 14], sheungs_s=records[j, 15],
        concealed_m=records[j, 16], concealed_p=records[j, 17], concealed_s=records[j, 18],
        n_sheungs=records[j, 19], eyes=records[j, 20], single_wait=np.int64(single_wait), quads=records[j, 22],
        orphans_m=records[j, 23], orphans_p=records[j, 24], orphans_s=records[j, 25], exposed_sets=records[j, 26],
        events=records[j, 27], pairs=records[j, 28], sheung_counts=records[j, 29],
    )


#: :func:`load_hand` compiled once as a function of its own, for the single-hand kernels
#: (:mod:`fastscore.kernels.single`), which call it rather than each inlining it.
load_hand_called = jit_block(twin(load_hand, "called"))
