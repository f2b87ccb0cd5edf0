"""The predicates of the catalog rows added for the HK-style Taiwanese table (docs/profiles/hk-taiwanese.md)
after those of :mod:`fastscore.kernels.family_rows`.

Each predicate reads one :class:`fastscore.kernels.features.Features` record and returns the row's units,
as those of :mod:`fastscore.kernels.rows`, whose registry lists them.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_inline
from ..events import Event
from .family_rows import has_event
from .features import Shape

__all__ = ["true_solo", "after_flower", "double_win", "triple_win", "great_chicken"]

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
