"""The predicates of the catalog rows added for the HK-style Taiwanese table (docs/profiles/hk-taiwanese.md)
after those of :mod:`fastscore.kernels.family_rows`, and the rows that count identical sheungs.

Each predicate reads one :class:`fastscore.kernels.features.Features` record and returns the row's units,
as those of :mod:`fastscore.kernels.rows`, whose registry lists them.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..events import Event
from .bits import ctpop64
from .family_rows import has_event
from .features import Shape

__all__ = ["true_solo", "after_flower", "double_win", "triple_win", "great_chicken", "pure_double_chow",
           "pure_triple_chow", "pure_quadruple_chow", "double_mixed_chow", "quadruple_mixed_chow",
           "quintuple_mixed_chow", "linear_chows", "repeated_start"]

_NICO, _STANDARD = int(Shape.NICO_NICO), int(Shape.STANDARD)
# Event bits as plain ints (numba freezes module globals as constants).
_AFTER_FLOWER, _DOUBLE_WIN, _TRIPLE_WIN = int(Event.AFTER_FLOWER), int(Event.DOUBLE_WIN), int(Event.TRIPLE_WIN)
_GREAT_CHICKEN = int(Event.GREAT_CHICKEN)


@jit_inline
def true_solo(f):
    """hk-taiwanese b-1 (獨獨): the winning tile was the only wait of the 16 tiles (every shape that wins
    counted, as ``single_wait``) and the interpretation can read it in a group that is not open: in the
    standard shape the eyes, a concealed pong, the middle of a concealed sheung, or the 3 of a 123 or the
    7 of a 789 (not the open end of a sheung); in Nico Nico every group (its pairs and its pong)."""
    w = f.win
    n = w % 9
    suit = w // 9
    starts = f.concealed_m if suit == 0 else (f.concealed_p if suit == 1 else f.concealed_s)
    # Start n - 1 holds n in the middle; start 0 holds a 3 (n = 2) and start 6 a 7 (n = 6) at the edge.
    middle = ((starts << 1) >> n) & 1
    edge = (np.int64(n == 2) & starts) | (np.int64(n == 6) & (starts >> 6))
    closed = np.int64(f.eyes == w) | ((f.concealed_pongs >> w) & 1) | (np.int64(w < 27) & (middle | edge) & 1)
    shape = (np.int64(f.shape == _STANDARD) & closed) | np.int64(f.shape == _NICO)
    return f.single_wait & shape


@jit_inline
def after_flower(f):
    """hk-taiwanese e-1 (花上食胡): self-drew the winning tile as the replacement tile after a flower (event
    ``after_flower``)."""
    return f.self_drawn & has_event(f, _AFTER_FLOWER)


@jit_inline
def double_win(f):
    """hk-taiwanese e-4 (雙響): won on a discard that one other player also wins on (event ``double_win``)."""
    return (1 - f.self_drawn) & has_event(f, _DOUBLE_WIN)


@jit_inline
def triple_win(f):
    """hk-taiwanese e-5 (三響): won on a discard that both other players also win on (event ``triple_win``)."""
    return (1 - f.self_drawn) & has_event(f, _TRIPLE_WIN)


@jit_inline
def great_chicken(f):
    """hk-taiwanese p-1 (大雞胡): the winner declared the win a Great Chicken (event ``great_chicken``).  The
    profile has it replace the pattern rows and the base (``mahjong_base``)."""
    return has_event(f, _GREAT_CHICKEN)


# ---------------------------------------------------------------------------------------------- sheung counts

@jit_inline
def _sheungs_at(f, suit, start):
    """How many sheungs of the interpretation (declared ones included) start at ``start`` (0-6) in ``suit``."""
    return (f.sheung_counts >> (3 * (7 * suit + start))) & 7


#: The seven three-bit fields (one per start) of one suit in ``sheung_counts``.
_FIELDS = (1 << 21) - 1
#: The low bit of each of the seven 3-bit fields of one suit.
_LOW = sum(1 << (3 * k) for k in range(7))


@jit_inline
def _suit_counts(f):
    """The sheung counts of the three number suits, each seven 3-bit fields (start 0 lowest)."""
    c = f.sheung_counts
    return c & _FIELDS, (c >> 21) & _FIELDS, (c >> 42) & _FIELDS


@jit_inline
def _equal(x, v):
    """The low bit of each 3-bit field of ``x`` that equals ``v`` (0-7)."""
    t = ~(x ^ (_LOW * v))
    return t & (t >> 1) & (t >> 2) & _LOW


@jit_inline
def _nonzero(x):
    """The low bit of each 3-bit field of ``x`` that is not 0."""
    return (x | (x >> 1) | (x >> 2)) & _LOW


@jit_inline
def repeated_start(f):
    """Gate of the rows that count identical sheungs (:attr:`fastscore.kernels.rows.Row.gate`): two sheungs or
    more start at one number, in one suit or in two (1 or 0; no sum, so no field can carry into the next)."""
    m, p, s = _suit_counts(f)
    any_suit = m | p | s
    two = ((any_suit >> 1) | (any_suit >> 2)) & _LOW
    nm = _nonzero(m)
    np_ = _nonzero(p)
    ns = _nonzero(s)
    return np.int64((two | (nm & np_) | (nm & ns) | (np_ & ns)) != 0)


@jit_inline
def pure_double_chow(f):
    """One unit per suit holding exactly two identical sheungs, at a start with at most three sheungs in all
    (hk-taiwanese s-1)."""
    m, p, s = _suit_counts(f)
    # at most three at the start: bit 2 of the field's sum is clear (a hand has at most five sheungs)
    few = ~((m + p + s) >> 2) & _LOW
    return ctpop64(np.int64(_equal(m, 2) & few)) + ctpop64(np.int64(_equal(p, 2) & few)) \
        + ctpop64(np.int64(_equal(s, 2) & few))


@jit_inline
def pure_triple_chow(f):
    """Three identical sheungs, and no fourth sheung at that start (hk-taiwanese s-2)."""
    m, p, s = _suit_counts(f)
    return np.int64(((_equal(m, 3) | _equal(p, 3) | _equal(s, 3)) & _equal(m + p + s, 3)) != 0)


@jit_inline
def pure_quadruple_chow(f):
    """Four identical sheungs (hk-taiwanese s-3)."""
    m, p, s = _suit_counts(f)
    return np.int64((_equal(m, 4) | _equal(p, 4) | _equal(s, 4)) != 0)


@jit_inline
def double_mixed_chow(f):
    """One unit per start with two or three sheungs in exactly two suits (hk-taiwanese s-4)."""
    m, p, s = _suit_counts(f)
    total = m + p + s
    two_or_three = (total >> 1) & ~(total >> 2) & _LOW
    return ctpop64(np.int64(_equal(_nonzero(m) + _nonzero(p) + _nonzero(s), 2) & two_or_three))


@jit_inline
def quadruple_mixed_chow(f):
    """Four sheungs starting at one number, in any suits (hk-taiwanese s-6)."""
    m, p, s = _suit_counts(f)
    return np.int64(_equal(m + p + s, 4) != 0)


@jit_inline
def quintuple_mixed_chow(f):
    """Five sheungs starting at one number (hk-taiwanese s-7)."""
    m, p, s = _suit_counts(f)
    return np.int64(_equal(m + p + s, 5) != 0)


@jit_inline
def linear_chows(f):
    """Per suit, one unit per 123 with a 789 of that suit: min(123s, 789s) (hk-taiwanese h-1)."""
    units = np.int64(0)
    for suit in range(3):
        units += min(_sheungs_at(f, suit, 0), _sheungs_at(f, suit, 6))
    return units
