"""One hand, compiled: the row check, the win check, the score and the waits of one hand (LRC rules sections 2 to 7).

Plain numba functions over one hand's count vector, declared sets and
context numbers, for Python and for the caller's own ``@njit`` code
(:mod:`fastscore.nb`).  They run the batch kernels' own code:
:func:`win_check_hand` and :func:`score_hand` the row check
(:func:`fastscore.kernels.checks.hand_fault`), the win check
(:func:`fastscore.kernels.decompose.is_win_hand_row`) and the scoring path
(:func:`fastscore.kernels.score.interpret_loaded`, then the best
interpretation); :func:`waits_hand` the waits kernel's block
(:func:`fastscore.kernels.waits._waits_block`) on a batch of one.  They run
the build of that code that is compiled once and called
(:func:`fastscore.kernels.score.interpret_called`), not the one the batch
loops inline, so that they compile in about half a minute, not two.  Each takes
a ``scratch`` of :func:`fastscore.kernels.score.make_scratch`, made once by
the caller (one per thread) and reused: a call then allocates nothing.  The three
are compiled without numba's reference counting (:func:`fastscore._jit.jit_block`): in a
caller's ``@njit`` loop the reference counts of their arrays cost as much as the work
(``scripts/nb_loop.py``: 500 against 300 ns a scored hand).

:func:`score_text` and :func:`waits_text` parse the notation of one hand
with the compiled parser (:mod:`fastscore.kernels.parse`) in the same call:
one trip from Python into compiled code for :func:`fastscore.score` and
:func:`fastscore.waits`.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_block, jit_inline, twin
from ..tiles import MAX_DECLARED, N_KINDS
from .checks import FLAGGED, hand_fault
from .decompose import ALL_WIN_SHAPES, is_win_hand_row
from .features import load_hand_called
from .parse import _BYTE_CLASS, _BYTE_VALUE, _OK, _flowers, _hand_groups, _win
from .evaluate import RP_N_COLUMNS
from .score import (
    INFO_CHICKEN,
    INFO_LEGAL,
    INFO_PAYOUT,
    INFO_POINTS,
    INFO_SHAPE,
    INFO_TOTAL,
    best_interpretation,
    interpret_called,
    make_scratch,
    write_interpretation_points,
)
from .shanten import make_shanten_scratch, shanten_hand
from .waits import _waits_block_called

__all__ = ["score_hand", "score_text", "shanten_text", "waits_hand", "waits_text", "win_check_hand"]


@jit_inline
def _context_fits(win, seat, round_wind, flowers, streak):
    """The numbers fit the batch columns they stand for (int8, uint8, int32) without wrapping to another
    value; the row check then says whether they are valid."""
    return (-128 <= win <= 127) & (0 <= seat <= 255) & (0 <= round_wind <= 255) & (0 <= flowers <= 255) \
        & (-(1 << 31) <= streak < (1 << 31))


@jit_block
def win_check_hand(concealed, declared, win, suit_info, scratch, win_shapes=ALL_WIN_SHAPES):
    """Whether one hand with its winning tile completes a shape of section 3 that wins (LRC rules section 3):
    the win check alone, the row check included (seat, round and streak taken as valid).

    Parameters
    ----------
    concealed : (34,) uint8, C-contiguous
        Concealed tile counts before the win.
    declared : (5, 2) int8, C-contiguous
        Declared sets (kind, tile); kind 0 for an empty slot.
    win : int
        The winning tile, 0-33.
    suit_info : (5**9,) uint32
        :func:`fastscore.tables.kernel_tables`' first table.
    scratch : tuple
        :func:`fastscore.kernels.score.make_scratch`'s, as for the other calls (the win check no longer
        uses it: the special shapes are tested from the counts, :func:`fastscore.kernels.decompose.special_win`).
    win_shapes : int, optional
        The shapes that win, bit s for shape s: a rule table's
        :attr:`fastscore.rules.RuleTable.win_shapes_bits` (default 15, every shape, as the LRC table).

    Returns
    -------
    (code, is_win)
        ``code`` 0 for a valid hand, else nonzero (``is_win`` then False).
    """
    if not _context_fits(win, 0, 0, 0, 0):
        return np.int64(FLAGGED), False
    rows = concealed.reshape(1, N_KINDS)
    sets = declared.reshape(1, MAX_DECLARED, 2)
    code = hand_fault(rows, sets, 0, win, 0, 0, 0, False, True)
    if code != 0:
        return np.int64(code), False
    return np.int64(0), is_win_hand_row(rows, sets, 0, np.int64(win), suit_info, win_shapes)


@jit_block
def score_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, rules,
               suit_entries, dec_words, row_points, scratch, events=0):
    """Score one hand (LRC rules sections 2 to 6), the row check included.

    Parameters
    ----------
    concealed, declared, win
        As in :func:`win_check_hand`.
    self_drawn, closing : bool
    seat, round_wind : int
        Winds 0-3 (E S W N).
    flowers : int
        Bit mask of the flowers held (bit ``k`` for flower ``k + 1``).
    streak : int
        The dealer's streak, 0-1000.
    rules : (K,) int64
        The packed rule table, :attr:`fastscore.rules.RuleTable.packed`.
    suit_entries, dec_words : int64 arrays
        :func:`fastscore.tables.kernel_tables`' second and third tables.
    row_points : (R,) int16, C-contiguous
        Output: points of each row in force, in the table's :attr:`fastscore.RuleTable.row_ids` order
        (zeroed first); R at least the number of those rows (:data:`fastscore.nb.N_ROWS` is enough for
        every table; a shorter array raises ValueError).
    scratch : tuple
        :func:`fastscore.kernels.score.make_scratch`'s, reused from call to call.
    events : int, optional
        The win's timing events, bits of :class:`fastscore.events.Event` (default none); an event
        that cannot happen with the win scores nothing (:func:`fastscore.events.event_fault`).

    Returns
    -------
    (code, is_win, shape, points, chicken, total, legal, payout)
        ``code`` 0 for a valid hand, else nonzero (the row fails a check of
        :func:`fastscore.kernels.checks.row_fault`, or a number does not fit its
        batch column, e.g. a seat of 257: nothing is scored);
        ``shape`` a :class:`~fastscore.rules.Shape` value or -1; points,
        total and payout in points.
    """
    if row_points.shape[0] < rules[RP_N_COLUMNS]:  # the kernel writes each row at its column, unchecked
        raise ValueError("score_hand: row_points is shorter than the rule table's rows in force (nb.N_ROWS fits all)")
    for r in range(row_points.shape[0]):
        row_points[r] = 0
    code = np.int64(FLAGGED)
    rows = concealed.reshape(1, N_KINDS)
    sets = declared.reshape(1, MAX_DECLARED, 2)
    if _context_fits(win, seat, round_wind, flowers, streak):
        code = np.int64(hand_fault(rows, sets, 0, win, seat, round_wind, streak, closing, True))
    if code != 0:
        return code, False, np.int64(-1), np.int64(0), False, np.int64(0), False, np.int64(0)
    counts, info, _ = scratch
    # The path of every row of the scoring kernel (fastscore.kernels.batch_loops._score_block), in the build
    # that the waits of one hand also call.
    m = interpret_called(win, self_drawn, seat, round_wind, flowers, streak, closing, events, -1, rules,
                         suit_entries, dec_words, rows, sets, 0, counts, load_hand_called(rows, sets, np.int64(0)),
                         info, False)
    j = best_interpretation(info, m)
    if j < 0:
        return np.int64(0), False, np.int64(-1), np.int64(0), False, np.int64(0), False, np.int64(0)
    write_interpretation_points(info, j, rules, row_points.reshape(1, row_points.shape[0]), 0)
    return (np.int64(0), True, info[j, INFO_SHAPE], info[j, INFO_POINTS], info[j, INFO_CHICKEN] != 0,
            info[j, INFO_TOTAL], info[j, INFO_LEGAL] != 0, info[j, INFO_PAYOUT])


@jit_block
def waits_hand(concealed, declared, seat, round_wind, flowers, streak, closing, rules, suit_info, suit_entries,
               dec_words, mask, payout_discard, payout_self_draw, scratch, events=0):
    """The waits of one 16-tile hand and what each pays (LRC rules section 7, 9.10), the row check included.

    Parameters
    ----------
    concealed, declared, seat, round_wind, flowers, streak, closing, rules, suit_entries, dec_words, scratch, events
        As in :func:`score_hand` (no winning tile).
    suit_info : (5**9,) uint32
        :func:`fastscore.tables.kernel_tables`' first table.
    mask : (34,) bool, C-contiguous
        Output: ``mask[t]`` where tile kind ``t`` completes the hand.
    payout_discard, payout_self_draw : (34,) int32, C-contiguous
        Output: the payout in points of the win on ``t`` from a discard and by self-draw (0 where
        ``t`` is not a wait, or the win is not legal).

    Returns
    -------
    (code, n_waits)
        ``code`` 0 for a valid hand, else nonzero (nothing written but zeros); ``n_waits`` the
        number of waiting kinds.
    """
    mask[:] = False  # whatever their length: the reshapes below refuse one that is not 34
    payout_discard[:] = 0
    payout_self_draw[:] = 0
    if not _context_fits(-1, seat, round_wind, flowers, streak):
        return np.int64(FLAGGED), np.int64(0)
    # A batch of one, in the batch columns' dtypes, as views of the scratch's 16 bytes (no allocation, and
    # no reference counting: measured in a caller's @njit loop, those cost more than the waits).
    columns = scratch[2].view(np.uint8)
    win_column = columns[0:1].view(np.int8)
    win_column[0] = -1
    seat_column, round_column, flowers_column = columns[1:2], columns[2:3], columns[3:4]
    seat_column[0] = seat
    round_column[0] = round_wind
    flowers_column[0] = flowers
    error_column, codes = columns[5:6], columns[6:7]
    error_column[0] = 0
    closing_column = columns[7:8].view(np.bool_)
    closing_column[0] = closing
    streak_column = columns[8:12].view(np.int32)
    streak_column[0] = streak
    n_waits = columns[12:14].view(np.int16)
    n_waits[0] = 0
    events_column = columns[14:16].view(np.uint16)
    events_column[0] = events
    # The waits kernel's block with int64 bounds (not the literals 0 and 1, which numba would type apart),
    # in the build that calls the shared scoring path.
    _waits_block_called(concealed.reshape(1, N_KINDS), declared.reshape(1, MAX_DECLARED, 2), win_column,
                        seat_column, round_column, flowers_column, streak_column, closing_column, events_column,
                        error_column, rules, suit_info, suit_entries, dec_words, mask.reshape(1, N_KINDS),
                        payout_discard.reshape(1, N_KINDS), payout_self_draw.reshape(1, N_KINDS), n_waits, codes,
                        scratch, np.int64(0), np.int64(1))
    return np.int64(codes[0]), np.int64(n_waits[0])


@jit
def _parse_hand(data, hand_end):
    """``(code, concealed (34,) uint8, declared (5, 2) int8)`` of the hand ``data[:hand_end]``.

    Called, not inlined: the three text kernels share its one compiled build (a call costs
    nanoseconds; inlined, the parser was typed again in each kernel's cold compile)."""
    concealed = np.zeros(N_KINDS, dtype=np.uint8)
    declared = np.zeros((MAX_DECLARED, 2), dtype=np.int8)
    return _hand_groups(data, 0, hand_end, concealed, declared, _BYTE_CLASS, _BYTE_VALUE), concealed, declared


@jit
def score_text(data, hand_end, win_end, flowers_end, self_drawn, seat, round_wind, streak, closing, events, rules,
               suit_entries, dec_words, row_points):
    """Parse and score one hand written in notation (LRC rules section 8): :func:`score_hand`'s result.

    ``data`` (``bytes``, or a (B,) uint8 array) holds the ASCII text of the hand (bytes ``0:hand_end``),
    the winning tile (``hand_end:win_end``) and the flowers
    (``win_end:flowers_end``), one after another.  A nonzero code (the text
    does not parse, or the hand fails a row check) means the caller must
    parse the hand again in Python for the error message.
    """
    code, concealed, declared = _parse_hand(data, hand_end)
    win = np.int64(-1)
    if code == _OK:
        if win_end > hand_end:
            code, tile = _win(data, hand_end, win_end, _BYTE_CLASS, _BYTE_VALUE)
            win = np.int64(tile)
        else:
            code = 1  # no winning tile
    flowers = np.int64(0)
    if code == _OK and flowers_end > win_end:
        code, mask = _flowers(data, win_end, flowers_end)
        flowers = np.int64(mask)
    if code != _OK:
        return np.int64(code), False, np.int64(-1), np.int64(0), False, np.int64(0), False, np.int64(0)
    return score_hand(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, rules,
                      suit_entries, dec_words, row_points, make_scratch(), events)


@jit
def waits_text(data, hand_end, flowers_end, seat, round_wind, streak, closing, events, rules, suit_info,
               suit_entries, dec_words, mask, payout_discard, payout_self_draw):
    """Parse and analyse one 16-tile hand written in notation: :func:`waits_hand`'s result.

    ``data`` (``bytes``, or a (B,) uint8 array) holds the ASCII text of the hand (bytes ``0:hand_end``)
    and the flowers (``hand_end:flowers_end``).  A nonzero code: as in :func:`score_text`.
    """
    code, concealed, declared = _parse_hand(data, hand_end)
    flowers = np.int64(0)
    if code == _OK and flowers_end > hand_end:
        code, bits = _flowers(data, hand_end, flowers_end)
        flowers = np.int64(bits)
    if code != _OK:
        return np.int64(code), np.int64(0)
    return _waits_hand_inline(concealed, declared, seat, round_wind, flowers, streak, closing, rules, suit_info,
                              suit_entries, dec_words, mask, payout_discard, payout_self_draw, make_scratch(), events)


@jit
def shanten_text(data, hand_end, drawn_end, number_table, honour_table, win_shapes):
    """Parse one hand written in notation and work out its shanten (LRC rules sections 3, 7):
    :func:`fastscore.kernels.shanten.shanten_hand`'s result.

    ``data`` (``bytes``, or a (B,) uint8 array) holds the ASCII text of the hand (bytes ``0:hand_end``) and
    the drawn tile (``hand_end:drawn_end``, empty for none).  Without a drawn tile a hand of 17 tiles (declared sets
    counted as 3) has its highest kind taken as the draw.  ``win_shapes``: the shapes that win (bit s for
    shape s).  A nonzero code: as in :func:`score_text`.
    """
    code, concealed, declared = _parse_hand(data, hand_end)
    drawn = np.int64(-1)
    if code == _OK and drawn_end > hand_end:
        code, tile = _win(data, hand_end, drawn_end, _BYTE_CLASS, _BYTE_VALUE)
        drawn = np.int64(tile)
    if code != _OK:
        return np.int64(code), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    if drawn < 0:
        n_tiles = 0
        for t in range(N_KINDS):
            n_tiles += concealed[t]
        for k in range(MAX_DECLARED):
            n_tiles += 3 * (declared[k, 0] != 0)
        if n_tiles == 17:
            for t in range(N_KINDS - 1, -1, -1):
                if concealed[t] > 0:
                    drawn = np.int64(t)
                    concealed[t] -= 1
                    break
    code, best, standard, nico, thirteen, sixteen = shanten_hand(concealed, declared, drawn, number_table,
                                                                 honour_table, make_shanten_scratch(), win_shapes)
    return np.int64(code), np.int64(best), np.int64(standard), np.int64(nico), np.int64(thirteen), \
        np.int64(sixteen)


#: :func:`waits_hand` inlined into :func:`waits_text` (what ``fastscore.waits`` runs): a cold ``waits()`` then
#: compiles no ``waits_hand``, whose machine code (the called scoring path linked in) LLVM would build once
#: more (cold ``waits()`` after ``score()`` 8.7 -> 7.3 s). Inlining ``score_hand`` into ``score_text`` the
#: same way cost more than it saved (cold ``score()`` 27.5 -> 32.3 s).
_waits_hand_inline = jit_inline(twin(waits_hand, "inline"))
