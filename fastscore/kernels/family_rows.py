"""The predicates of the catalog rows beyond the LRC rules: the rows of the Taiwanese tai tables
(docs/profiles/taiwan.md), not in force in the LRC table.

Each predicate reads one :class:`fastscore.kernels.features.Features` record and returns the row's units,
as those of :mod:`fastscore.kernels.rows`, whose registry lists them.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..events import Event
from .bits import ctpop64
from .features import HONOURS

__all__ = ["concealed_pong_count", "three_concealed_pongs", "four_concealed_pongs", "five_concealed_pongs",
           "round_wind_pong", "seat_wind_pong", "ping_hu", "all_exposed", "eight_flowers", "dealer", "dealer_streak",
           "last_tile_draw", "last_tile_discard", "after_gong", "robbing_gong", "heavenly_win", "earthly_win",
           "heavenly_ready", "earthly_ready"]

# Event bits as plain ints (numba freezes module globals as constants).
_LAST_TILE, _AFTER_GONG, _ROBBING_GONG = int(Event.LAST_TILE), int(Event.AFTER_GONG), int(Event.ROBBING_GONG)
_HEAVENLY, _EARTHLY = int(Event.HEAVENLY), int(Event.EARTHLY)
_READY_FIRST, _READY_EARLY = int(Event.READY_FIRST), int(Event.READY_EARLY)


@jit_inline
def _win_in_concealed_sheung(f):
    """The winning tile can be read as completing one of the interpretation's concealed sheungs."""
    w = f.win
    suit = w // 9
    starts = f.concealed_m if suit == 0 else (f.concealed_p if suit == 1 else f.concealed_s)
    # Sheungs starting at numbers n-2 .. n hold number n (bits of the 7-bit start mask).
    return np.int64(w < 27) & np.int64((starts & ((7 << (w % 9)) >> 2)) != 0)


@jit_inline
def concealed_pong_count(f):
    """Concealed pongs and gongs of the interpretation as the Taiwanese family counts them: a pong that a
    discard completes is exposed, unless the winning tile can be read as completing a concealed sheung."""
    claimed = ((f.concealed_pongs >> f.win) & 1) & (1 - f.self_drawn) & (1 - _win_in_concealed_sheung(f))
    return ctpop64(np.int64(f.concealed_pongs)) - claimed


@jit_inline
def three_concealed_pongs(f):
    """Three concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 3)


@jit_inline
def four_concealed_pongs(f):
    """Four concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 4)


@jit_inline
def five_concealed_pongs(f):
    """Five concealed pongs (:func:`concealed_pong_count`)."""
    return np.int64(concealed_pong_count(f) == 5)


@jit_inline
def round_wind_pong(f):
    """A pong or gong of the round wind."""
    return (f.pongs >> (27 + f.round_wind)) & 1


@jit_inline
def seat_wind_pong(f):
    """A pong or gong of the winner's seat wind."""
    return (f.pongs >> (27 + f.seat)) & 1


@jit_inline
def _two_sided_win(f):
    """The winning tile completes a concealed sheung of the interpretation at an end whose other two tiles
    were open on both sides (not a 12 or an 89): a two-sided wait."""
    w = f.win
    n = w % 9
    suit = w // 9
    starts = f.concealed_m if suit == 0 else (f.concealed_p if suit == 1 else f.concealed_s)
    low = ((starts >> n) & 1) & np.int64(n <= 5)  # the win is the low end of n, n+1, n+2; n+1, n+2 not 8 9
    high = ((starts >> max(n - 2, 0)) & 1) & np.int64(n >= 3)  # the high end of n-2 .. n; n-2, n-1 not 1 2
    return np.int64(w < 27) & (low | high)


@jit_inline
def ping_hu(f):
    """Five sheungs, no honour and no flower, won on a discard that completes a two-sided wait."""
    return (np.int64(f.n_sheungs == 5) & np.int64((f.word & HONOURS) == 0) & np.int64(f.flowers == 0) & (1 - f.self_drawn)
            & _two_sided_win(f))


@jit_inline
def all_exposed(f):
    """Five exposed declared sets, the eyes completed on a discard."""
    return np.int64(f.exposed_sets == 5) & (1 - f.self_drawn)


@jit_inline
def eight_flowers(f):
    """All eight flowers and seasons."""
    return np.int64(f.flowers == 0xFF)


@jit_inline
def dealer(f):
    """The winner is the dealer (East seat)."""
    return np.int64(f.seat == 0)


@jit_inline
def dealer_streak(f):
    """One unit per dealer streak, for the dealer (East seat)."""
    return f.streak * np.int64(f.seat == 0)


# ---------------------------------------------------------------------------------------------- timing events
# Each reads the win's events (fastscore.events) and the way it was won, so that an event the win cannot
# have (after_gong on a discard) scores nothing, and waits analysis, scoring both ways, counts it only
# in the way it can happen.

@jit_inline
def _event(f, bit):
    return np.int64((f.events & bit) != 0)


@jit_inline
def last_tile_draw(f):
    """Self-drew the last tile of the wall."""
    return f.self_drawn & _event(f, _LAST_TILE)


@jit_inline
def last_tile_discard(f):
    """Won on the discard after the last tile of the wall was drawn."""
    return (1 - f.self_drawn) & _event(f, _LAST_TILE)


@jit_inline
def after_gong(f):
    """Self-drew the winning tile as the replacement tile after a gong."""
    return f.self_drawn & _event(f, _AFTER_GONG)


@jit_inline
def robbing_gong(f):
    """Won on the tile another player added to an exposed pong to make a gong."""
    return (1 - f.self_drawn) & _event(f, _ROBBING_GONG)


@jit_inline
def heavenly_win(f):
    """The dealer (East seat) won by self-draw on the dealt tiles."""
    return f.self_drawn & np.int64(f.seat == 0) & _event(f, _HEAVENLY)


@jit_inline
def earthly_win(f):
    """Won on the first discard of the hand, or by self-draw on one's first draw, before any claim."""
    return _event(f, _EARTHLY)


@jit_inline
def heavenly_ready(f):
    """Ready (Closing) declared with the first discard of the hand."""
    return f.closing & _event(f, _READY_FIRST)


@jit_inline
def earthly_ready(f):
    """Ready (Closing) declared in the first go-around, before any claim."""
    return f.closing & _event(f, _READY_EARLY)
