"""fastscore from your own numba code: one hand at a time inside ``@njit`` loops (LRC rules sections 2 to 7).

The functions below are compiled numba functions, the same code as the batch
kernels run for each row (:mod:`fastscore.kernels.single`); call them from
``@numba.njit`` functions (``parallel=True`` included) with no trip back to
Python, or from Python.  A hand is a count vector ``(34,) uint8`` of the
concealed tiles before the win and ``(5, 2) int8`` declared sets (kind,
tile), C-contiguous; the context is plain integers and booleans (a float is
truncated by numba, not refused).  Every function runs the row check first and
returns code 255 for a hand that fails it (nothing else is then meaningful); to
learn which check, build the hand with :meth:`fastscore.HandBatch.from_arrays`
and read ``.check().messages``.

From Python, for one hand held as arrays, a call of :func:`score_hand` costs
numba's dispatch and the hand's scoring (a few microseconds), far less than a
one-row :meth:`~fastscore.HandBatch.from_arrays` + :func:`~fastscore.score_batch`.
numba compiles one build per combination of argument types, once, and then
loads it from its cache: pass rows of C-contiguous ``uint8`` / ``int8`` arrays
and Python ``int`` and ``bool`` (or always the same numpy scalar types), or the
first call with each new combination compiles for a minute or more (or fails
to compile, with numba's TypingError).

- :func:`win_check_hand` ``(concealed, declared, win, suit_info, scratch, win_shapes=15) -> (code, is_win)``
- :func:`score_hand` ``(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak,
  closing, rules, suit_entries, dec_words, row_points, scratch, events=0) -> (code, is_win, shape, points,
  chicken, total, legal, payout)``
- :func:`waits_hand` ``(concealed, declared, seat, round_wind, flowers, streak, closing, rules,
  suit_info, suit_entries, dec_words, mask, payout_discard, payout_self_draw, scratch, events=0) -> (code,
  n_waits)``
- :func:`shanten_hand` ``(concealed, declared, win, number_table, honour_table, shanten_scratch,
  win_shapes=15) -> (code, best, standard, nico_nico, thirteen_orphans, sixteen_orphans)``: shanten of a
  16-tile hand (``win`` -1) or of a 17-tile hand (``win`` the drawn tile): 0 ready, -1 complete,
  :data:`NO_SHAPE` for a shape the hand cannot take or that does not win (LRC rules sections 3, 7;
  :mod:`fastscore.efficiency`).  Its tables come from :func:`shanten_tables`, its scratch from
  :func:`make_shanten_scratch` (numba-callable).
- :func:`discards_hand` ``(concealed, declared, win, seen, number_table, honour_table, shanten_scratch,
  shanten, useful, live_useful, win_shapes=15) -> code``: discard analysis of a 17-tile hand (``win`` the drawn tile):
  for each kind ``x`` held, ``shanten[x]`` after discarding it (:data:`NO_SHAPE` for a kind not held),
  ``useful[x]`` the bitmask of the draws that would then lower it, ``live_useful[x]`` their copies
  neither held nor in ``seen`` (34,); outputs ``(34,)`` int8, int64, int16 (:func:`fastscore.discards`).

``win_shapes`` is the shapes that make a win, bit s for shape s: a table's
:attr:`fastscore.rules.RuleTable.win_shapes_bits` (15, every shape, for ``lrc``; 1, the standard shape, for
the Taiwanese profiles); the packed rule array of :func:`rule_array` carries it for :func:`score_hand` and
:func:`waits_hand`.

``events`` is the win's timing events, bits of :class:`fastscore.events.Event` (0: none), as
:attr:`fastscore.HandBatch.events`; only the Taiwanese profiles score them, and leaving them out
scores the hand as :func:`fastscore.score` does without ``events``.

The rule table and the per-suit tables are arrays passed in: get them once,
in Python, with :func:`rule_array` and :func:`tables`.  ``scratch`` is
:func:`make_scratch`'s (numba-callable; a tuple of arrays whose contents are the kernels' own): make
one per thread, outside the loop, and pass it to every call.  A call then allocates nothing, and
the five functions above are compiled without numba's reference counting, so a call costs little
more than the batch kernels' work for one row (``scripts/nb_loop.py``; bench/README.md).
``examples/simulate.py`` is a complete simulation written this way.

Example
-------
>>> import numba, numpy as np
>>> from fastscore import nb
>>> rules, (suit_info, suit_entries, dec_words) = nb.rule_array(), nb.tables()
>>> @numba.njit
... def payouts(concealed, declared, win, rules, suit_entries, dec_words, out):
...     row_points = np.zeros(nb.N_ROWS, dtype=np.int16)  # made once, outside the loop
...     scratch = nb.make_scratch()
...     for i in range(concealed.shape[0]):
...         out[i] = nb.score_hand(concealed[i], declared[i], win[i], False, 0, 0, 0, 0, False, rules,
...                                suit_entries, dec_words, row_points, scratch)[-1]
"""

from __future__ import annotations

import numpy as np

from .kernels.discards import discards_hand
from .kernels.rows import N_ROWS  # the catalog's rows: room for the rows in force of every table
from .kernels.score import make_scratch
from .kernels.shanten import make_shanten_scratch, shanten_hand
from .kernels.single import score_hand, waits_hand, win_check_hand
from .shanten_tables import shanten_tables
from .rules import resolve_rules
from .tables import kernel_tables
from .tiles import NO_SHAPE

__all__ = ["NO_SHAPE", "N_ROWS", "discards_hand", "make_scratch", "make_shanten_scratch", "rule_array", "score_hand", "shanten_hand",
           "shanten_tables", "tables", "waits_hand", "win_check_hand"]


def rule_array(rules=None) -> np.ndarray:
    """``(K,) int64``: a rule table packed for :func:`score_hand` and :func:`waits_hand`.

    ``rules`` is a :class:`~fastscore.RuleTable`, a profile name (``"lrc"``, ``"taiwan"``), a path to a
    rules TOML file (:func:`fastscore.load_rules`), or None for the default ``lrc`` table.

    Raises
    ------
    fastscore.RuleTableError
        A rules file that does not load.
    """
    return resolve_rules(rules).packed


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(suit_info, suit_entries, dec_words)``: the per-suit tables the functions take
    (built once a process, cached on disk; read-only)."""
    return kernel_tables()
