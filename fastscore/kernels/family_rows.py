"""The predicates of the catalog rows beyond the LRC rules: the rows of the Taiwanese tai tables
(docs/profiles/taiwan.md), not in force in the LRC table.

Each predicate reads one :class:`fastscore.kernels.features.Features` record and returns the row's units,
as those of :mod:`fastscore.kernels.rows`, whose registry lists them.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from .bits import ctpop64
from .features import HONOURS

__all__ = ["concealed_pong_count", "three_concealed_pongs", "four_concealed_pongs", "five_concealed_pongs",
           "round_wind_pong", "seat_wind_pong", "ping_hu", "all_exposed", "eight_flowers", "dealer", "dealer_streak"]


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
