"""The compiled row check (LRC rules section 2): :func:`row_fault`, run by every batch kernel on each row it reads.

The numba kernels do not check array bounds.  Every batch kernel (scoring,
the win check, waits) runs :func:`row_fault` on each row inside its own loop,
where the row is already in cache, and skips a row that fails it; so does
:func:`fastscore.checks.check_batch` (through :func:`_flags`), which the text
constructors and the file readers call once after parsing.  :func:`row_fault`
only says whether a row is bad, in straight-line code (about 20 ns a row): a
declared slot and the winning tile look up, in small tables, whether they are
valid and which copies they add, and the counts are tested eight kinds to a
uint64.  For the rows it flags, and only those, :func:`_fault` works out which
check failed and where, and :func:`fastscore.checks.fault_message` writes the
message (the Python side, :mod:`fastscore.checks`).

A fault is an int64: the :class:`~fastscore.tiles.ErrorCode` in bits 0-7, the
culprit's position (declared set slot, or tile) in bits 8-15, and which check
of that code failed in bits 16-23 (the ``_SUB_*`` values below).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_batch, jit_inline, prange
from ..tiles import MAX_DECLARED, N_KINDS, ErrorCode, SetKind
from .bits import BYTE_HIGHS, BYTE_ONES, LITTLE_ENDIAN, cttz64, load_u64

__all__ = ["FLAGGED", "MAX_STREAK", "hand_fault", "row_fault"]

#: Largest dealer streak a row may carry.
MAX_STREAK = 1000
_BLOCK = 1024  # rows per parallel work item of :func:`_flags`
#: What :func:`row_fault` returns for a bad row, and a batch kernel writes in its error column until
#: :func:`fastscore.checks.flag_faults` replaces it by the row's ErrorCode (never seen outside the wrappers).
FLAGGED = 255

# Compile-time constants of the kernels, from the enums (defined once, in fastscore.tiles).
_BAD_SET = int(ErrorCode.BAD_SET)
_BAD_WIN = int(ErrorCode.BAD_WIN)
_BAD_CONTEXT = int(ErrorCode.BAD_CONTEXT)
_TILE_COUNT = int(ErrorCode.TILE_COUNT)
_FIFTH_COPY = int(ErrorCode.FIFTH_COPY)
_SHEUNG = int(SetKind.SHEUNG)
_PONG = int(SetKind.PONG)
_GONG = int(SetKind.GONG)
_CONCEALED_GONG = int(SetKind.CONCEALED_GONG)
# Which check of a code failed (bits 16-23 of a fault).
_SUB_RANGE, _SUB_SHEUNG = 0, 1  # BAD_SET: slot out of range; a sheung that does not start on 1-7 of a suit
_SUB_WIN_RANGE, _SUB_NO_WIN = 0, 1  # BAD_WIN
_SUB_SEAT, _SUB_ROUND, _SUB_STREAK, _SUB_CLOSING = 0, 1, 2, 3  # BAD_CONTEXT


# SWAR constants: eight tile counts (bytes) of a row tested and summed at once.
_PLUS_123 = np.uint64(0x7B7B7B7B7B7B7B7B)  # a byte of 5 or more (up to 127) reaches 128 when 123 is added
_SHIFT_56 = np.uint64(56)


@jit_inline
def _over_four(w):
    """Some byte of the uint64 ``w`` is above 4 (a byte of 128 or more sets its own high bit)."""
    return ((w | (w + _PLUS_123)) & BYTE_HIGHS) != np.uint64(0)


@jit_inline
def _high(w):
    """The high bit of each byte of ``w | (w + 123 per byte)``: set where a byte of ``w`` is above 4
    (:func:`_over_four` before its mask, to test several words with one mask)."""
    return w | (w + _PLUS_123)


@jit_inline
def _byte_sum(w):
    """The sum of the eight bytes of ``w``, each at most 4 (so the sum fits a byte)."""
    return np.int64((w * BYTE_ONES) >> _SHIFT_56)


_ZERO = np.uint64(0)
_BYTE = np.uint64(8)


@jit_inline
def concealed_words(concealed, i):
    """Row ``i`` of ``concealed`` (N, 34) uint8, C-contiguous, as five uint64 words, byte ``t % 8`` of
    word ``t // 8`` holding the count of kind ``t`` (the last word holds kinds 32 and 33)."""
    if LITTLE_ENDIAN:  # rows are C-contiguous (fastscore.checks.kernel_columns): eight counts a load
        return (load_u64(concealed, i, 0), load_u64(concealed, i, 8), load_u64(concealed, i, 16),
                load_u64(concealed, i, 24), np.uint64(concealed[i, 32]) | (np.uint64(concealed[i, 33]) << _BYTE))
    return words_tile_by_tile(concealed, i)


@jit_inline
def words_tile_by_tile(concealed, i):
    """:func:`concealed_words` read one count at a time: for any byte order and any strides."""
    w0 = w1 = w2 = w3 = _ZERO
    for t in range(8):
        shift = np.uint64(8 * t)
        w0 |= np.uint64(concealed[i, t]) << shift
        w1 |= np.uint64(concealed[i, 8 + t]) << shift
        w2 |= np.uint64(concealed[i, 16 + t]) << shift
        w3 |= np.uint64(concealed[i, 24 + t]) << shift
    return w0, w1, w2, w3, np.uint64(concealed[i, 32]) | (np.uint64(concealed[i, 33]) << _BYTE)


@jit_inline
def _concealed_summary(concealed, i, w0, w1, w2, w3, w4):
    """(tiles, lowest kind held more than 4 times or N_KINDS) of row ``i`` of ``concealed`` (N, 34) uint8,
    given its :func:`concealed_words`."""
    if not (_over_four(w0) | _over_four(w1) | _over_four(w2) | _over_four(w3) | _over_four(w4)):
        return _byte_sum(w0) + _byte_sum(w1) + _byte_sum(w2) + _byte_sum(w3) + _byte_sum(w4), N_KINDS
    # A count above 4: tile by tile.
    total = 0
    fifth = N_KINDS
    for t in range(N_KINDS):
        c = np.int64(concealed[i, t])
        total += c
        if c > 4 and fifth == N_KINDS:
            fifth = t
    return total, fifth


# Tables of the row check: a declared slot, read as ``kind | tile << 8`` (both bytes as stored),
# looks up its row of _COPIES in _SLOT_ROWS; the winning tile its row in _WIN_ROWS.
_EMPTY, _BAD_SLOT = 0, 255  # slot rows: no set (kind 0, a tile 0-33); out of range, or a bad sheung
_ONE_COPY = 5  # rows 5 * 34 + t: one copy of t (the winning tile)
#: The slot rows below this are exposed sets (kinds 1-3; a concealed gong is kind 4).
_EXPOSED_BELOW = _CONCEALED_GONG * N_KINDS


def _slot_rows() -> np.ndarray:
    """``(65536,) uint8``: the row of :data:`_COPIES` of a declared slot ``kind | tile << 8``:
    ``kind * 34 + tile`` for a set, :data:`_EMPTY` for kind 0 at a tile 0-33, :data:`_BAD_SLOT`
    for a kind or tile out of range or a sheung that cannot start at its tile."""
    rows = np.full(1 << 16, _BAD_SLOT, dtype=np.uint8)
    for t in range(N_KINDS):
        rows[t << 8] = _EMPTY
        for kind in (_SHEUNG, _PONG, _GONG, _CONCEALED_GONG):
            if kind != _SHEUNG or (t < 27 and t % 9 <= 6):
                rows[kind | t << 8] = kind * N_KINDS + t
    return rows


def _win_rows() -> np.ndarray:
    """``(256,) uint8``: the row of :data:`_COPIES` of a winning tile (its byte as stored): one copy
    of ``t`` for 0-33, none for -1 (no winning tile) and out of range."""
    rows = np.full(256, _BAD_SLOT, dtype=np.uint8)
    rows[:N_KINDS] = _ONE_COPY * N_KINDS + np.arange(N_KINDS)
    return rows


def _copies_table() -> np.ndarray:
    """``(256, 5) uint64``: row ``kind * 34 + t`` holds the copies that a declared set of ``kind``
    (1-4) at tile ``t`` adds, as bytes laid out as :func:`concealed_words`'s five words; row
    ``5 * 34 + t`` one copy of ``t`` (the winning tile); every other row none."""
    counts = np.zeros((256, 40), dtype=np.uint64)  # 40 bytes: five words of eight counts
    for t in range(N_KINDS):
        if t < 27 and t % 9 <= 6:
            counts[_SHEUNG * N_KINDS + t, t:t + 3] = 1
        counts[_PONG * N_KINDS + t, t] = 3
        counts[_GONG * N_KINDS + t, t] = counts[_CONCEALED_GONG * N_KINDS + t, t] = 4
        counts[_ONE_COPY * N_KINDS + t, t] = 1
    shifts = (np.arange(40, dtype=np.uint64) % np.uint64(8)) * np.uint64(8)
    return np.ascontiguousarray((counts << shifts).reshape(256, 5, 8).sum(axis=2, dtype=np.uint64))


_SLOT_ROWS = _slot_rows()
_WIN_ROWS = _win_rows()
_COPIES = _copies_table()


@jit_inline
def _lowest_over_four(w, base, fifth):
    """``fifth``, or ``base`` + the lowest byte of ``w`` above 4 when that is lower."""
    m = (w | (w + _PLUS_123)) & BYTE_HIGHS
    t = base + (cttz64(np.int64(m)) >> 3)
    return t if (m != _ZERO) & (t < fifth) else fifth


@jit
def _fault(concealed, declared, win, seat, round_wind, streak, closing, require_win, i):
    """The fault of row ``i``, which :func:`row_fault` flagged: ``code | position << 8 | check << 16``
    (module docstring), the first check of :func:`row_fault`'s order that fails; a plain call, for
    the rare bad row."""
    # Every check is worked out first, without a branch (the rows of a batch differ at random, and
    # mispredicted branches cost more than the checks); the first that fails is picked at the end.
    bad_slot = MAX_DECLARED  # the lowest declared slot out of range
    bad_sheung = MAX_DECLARED  # the lowest declared sheung that does not start on 1-7 of a suit
    n_declared = 0
    exposed = False
    for k in range(MAX_DECLARED - 1, -1, -1):
        kind = np.int64(declared[i, k, 0])
        t = np.int64(declared[i, k, 1])
        bad_slot = k if (kind < 0) | (kind > 4) | (t < 0) | (t >= N_KINDS) else bad_slot
        bad_sheung = k if (kind == _SHEUNG) & ((t >= 27) | (t % 9 > 6)) else bad_sheung
        n_declared += kind != 0
        exposed |= (kind != 0) & (kind != _CONCEALED_GONG)
    w = np.int64(win[i])
    w0, w1, w2, w3, w4 = concealed_words(concealed, i)
    total, fifth = _concealed_summary(concealed, i, w0, w1, w2, w3, w4)
    fault = 0
    if bad_slot < MAX_DECLARED:
        fault = _BAD_SET | (bad_slot << 8) | (_SUB_RANGE << 16)
    elif w < -1 or w >= N_KINDS:
        fault = _BAD_WIN | (_SUB_WIN_RANGE << 16)
    elif seat[i] > 3:
        fault = _BAD_CONTEXT | (_SUB_SEAT << 16)
    elif round_wind[i] > 3:
        fault = _BAD_CONTEXT | (_SUB_ROUND << 16)
    elif streak[i] < 0 or streak[i] > MAX_STREAK:
        fault = _BAD_CONTEXT | (_SUB_STREAK << 16)
    elif bad_sheung < MAX_DECLARED:
        fault = _BAD_SET | (bad_sheung << 8) | (_SUB_SHEUNG << 16)
    elif total + 3 * n_declared != 16:
        fault = _TILE_COUNT
    else:
        # The copies of the declared sets and the winning tile (every slot is valid here), as bytes
        # added to the concealed counts, looked at eight kinds at a time.  ``fifth`` already names any
        # concealed count above 4.
        r0, r1, r2, r3, r4 = (_slot_row(declared, i, 0), _slot_row(declared, i, 1), _slot_row(declared, i, 2),
                              _slot_row(declared, i, 3), _slot_row(declared, i, 4))
        rw = np.uint64(_WIN_ROWS[np.uint8(win[i])])
        d0 = _copies(_ZERO, r0, r1, r2, r3, r4, rw, 0)
        d1 = _copies(_ZERO, r0, r1, r2, r3, r4, rw, 1)
        d2 = _copies(_ZERO, r0, r1, r2, r3, r4, rw, 2)
        d3 = _copies(_ZERO, r0, r1, r2, r3, r4, rw, 3)
        d4 = _copies(_ZERO, r0, r1, r2, r3, r4, rw, 4)
        fifth = _lowest_over_four(w0 + d0, 0, fifth)
        fifth = _lowest_over_four(w1 + d1, 8, fifth)
        fifth = _lowest_over_four(w2 + d2, 16, fifth)
        fifth = _lowest_over_four(w3 + d3, 24, fifth)
        fifth = _lowest_over_four(w4 + d4, 32, fifth)
        if fifth < N_KINDS:
            fault = _FIFTH_COPY | (fifth << 8)
        elif closing[i] and exposed:
            fault = _BAD_CONTEXT | (_SUB_CLOSING << 16)
        elif require_win and w < 0:
            fault = _BAD_WIN | (_SUB_NO_WIN << 16)
    return fault


@jit_inline
def _row_values(concealed, declared, win, seat, round_wind, streak, closing, i):
    """Everything :func:`row_fault` reads of row ``i``, as scalars, in straight-line code: the
    concealed counts as five words, the declared slots' and the winning tile's rows of
    :data:`_COPIES`, win, seat, round, streak and closing."""
    w0, w1, w2, w3, w4 = concealed_words(concealed, i)
    return (w0, w1, w2, w3, w4, _slot_row(declared, i, 0), _slot_row(declared, i, 1), _slot_row(declared, i, 2),
            _slot_row(declared, i, 3), _slot_row(declared, i, 4), np.uint64(_WIN_ROWS[np.uint8(win[i])]),
            np.int64(win[i]), np.int64(seat[i]), np.int64(round_wind[i]), np.int64(streak[i]), closing[i])


@jit_inline
def _slot_row(declared, i, k):
    """The :data:`_SLOT_ROWS` entry (as uint64) of declared slot ``k`` of row ``i``."""
    kind = np.uint16(np.uint8(declared[i, k, 0]))
    tile = np.uint16(np.uint8(declared[i, k, 1]))
    return np.uint64(_SLOT_ROWS[kind | (tile << np.uint16(8))])


@jit_inline
def _copies(w, r0, r1, r2, r3, r4, rw, j):
    """Word ``j`` of the counts with the copies of :data:`_COPIES` rows ``r0``-``r4`` and ``rw``
    added to ``w`` (eight kinds at a time)."""
    return w + _COPIES[r0, j] + _COPIES[r1, j] + _COPIES[r2, j] + _COPIES[r3, j] + _COPIES[r4, j] + _COPIES[rw, j]


@jit_inline
def _is_set(r):
    """1 where ``r`` (a slot's row of :data:`_COPIES`) is a declared set, else 0."""
    return np.int64((r != _ZERO) & (r != np.uint64(_BAD_SLOT)))


@jit_inline
def _values_fault(w0, w1, w2, w3, w4, r0, r1, r2, r3, r4, rw, w, seat, round_wind, streak, closing, require_win):
    """:func:`row_fault` on the scalars of :func:`_row_values`: 0 or :data:`FLAGGED`.  Every check is
    worked out without a branch (rows differ at random, and mispredicted branches cost more than
    the checks)."""
    bad_row = np.uint64(_BAD_SLOT)
    bad = (r0 == bad_row) | (r1 == bad_row) | (r2 == bad_row) | (r3 == bad_row) | (r4 == bad_row)
    exposed_below = np.uint64(_EXPOSED_BELOW)
    exposed = ((r0 != _ZERO) & (r0 < exposed_below)) | ((r1 != _ZERO) & (r1 < exposed_below)) \
        | ((r2 != _ZERO) & (r2 < exposed_below)) | ((r3 != _ZERO) & (r3 < exposed_below)) \
        | ((r4 != _ZERO) & (r4 < exposed_below))
    bad |= (w < -1) | (w >= N_KINDS) | (seat > 3) | (round_wind > 3) | (streak < 0) | (streak > MAX_STREAK)
    bad |= (closing & exposed) | (require_win & (w < 0))
    bad |= ((_high(w0) | _high(w1) | _high(w2) | _high(w3) | _high(w4)) & BYTE_HIGHS) != _ZERO
    # Each count is at most 4 here, so the five words add without a carry between bytes.
    n_sets = _is_set(r0) + _is_set(r1) + _is_set(r2) + _is_set(r3) + _is_set(r4)
    bad |= _byte_sum(w0 + w1 + w2 + w3 + w4) + 3 * n_sets != 16
    # The copies of the declared sets and of the winning tile added to the concealed counts, by
    # table (a slot out of range adds none: the row is bad already), eight kinds at a time.
    high = _high(_copies(w0, r0, r1, r2, r3, r4, rw, 0)) | _high(_copies(w1, r0, r1, r2, r3, r4, rw, 1)) \
        | _high(_copies(w2, r0, r1, r2, r3, r4, rw, 2)) | _high(_copies(w3, r0, r1, r2, r3, r4, rw, 3)) \
        | _high(_copies(w4, r0, r1, r2, r3, r4, rw, 4))
    bad |= (high & BYTE_HIGHS) != _ZERO
    return FLAGGED if bad else 0


@jit_inline
def row_fault(concealed, declared, win, seat, round_wind, streak, closing, require_win, i):
    """The first failing check of row ``i`` of the batch columns, as a fault (0: the row is valid).

    Parameters
    ----------
    concealed : (N, 34) uint8; declared : (N, 5, 2) int8; win : (N,) int8;
    seat, round_wind : (N,) uint8; streak : (N,) int32; closing : (N,) bool
        :class:`~fastscore.HandBatch` columns, any values.
    require_win : bool
        A row needs a winning tile (scoring, the win check).
    i : int
        The row.

    Returns
    -------
    int
        0 for a valid row, :data:`FLAGGED` for a row that fails a check; :func:`_fault`
        then says which, in this order: declared kinds 0-4 and tiles 0-33 (``BAD_SET``);
        winning tile -1 to 33 (``BAD_WIN``); seat, round 0-3 and streak 0-1000
        (``BAD_CONTEXT``); a declared sheung starting on 1-7 of a number suit
        (``BAD_SET``); 16 tiles before the win, a declared set counting 3
        (``TILE_COUNT``); at most 4 copies of a kind with the declared sets and the
        winning tile (``FIFTH_COPY``, naming the lowest such kind); Closing only with a
        concealed hand (``BAD_CONTEXT``); a winning tile when ``require_win`` (``BAD_WIN``).
    """
    # Arrays are read by one straight-line helper and the checks run on scalars: array variables
    # in branchy inlined code cost atomic reference counts on every row (measured: 150 ns a row).
    w0, w1, w2, w3, w4, r0, r1, r2, r3, r4, rw, w, s, r, st, c = _row_values(
        concealed, declared, win, seat, round_wind, streak, closing, i)
    return _values_fault(w0, w1, w2, w3, w4, r0, r1, r2, r3, r4, rw, w, s, r, st, c, require_win)


@jit_inline
def row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, require_win, i):
    """The code a batch kernel writes for row ``i``: ``error[i]`` (N,) uint8 for a row flagged already
    (by the reader), else :func:`row_fault`'s low byte (0: valid, :data:`FLAGGED`: failed a check)."""
    code = error[i]
    if code == 0:
        code = row_fault(concealed, declared, win, seat, round_wind, streak, closing, require_win, i) & 255
    return code


@jit_inline
def hand_fault(concealed, declared, i, win, seat, round_wind, streak, closing, require_win):
    """:func:`row_fault` of hand ``i`` of ``concealed`` (N, 34) and ``declared`` (N, 5, 2), its context
    given as numbers (for one hand, :mod:`fastscore.kernels.single`): ``win`` -128 to 127, ``seat``,
    ``round_wind`` 0 to 255 and ``streak`` int32 (the batch columns' ranges), ``closing`` bool."""
    w0, w1, w2, w3, w4 = concealed_words(concealed, i)
    return _values_fault(w0, w1, w2, w3, w4, _slot_row(declared, i, 0), _slot_row(declared, i, 1),
                         _slot_row(declared, i, 2), _slot_row(declared, i, 3), _slot_row(declared, i, 4),
                         np.uint64(_WIN_ROWS[np.uint8(np.int8(win))]), np.int64(win), np.int64(seat),
                         np.int64(round_wind), np.int64(streak), closing, require_win)


@jit_batch
def _flags(concealed, declared, win, seat, round_wind, streak, closing, require_win, error, flags):
    """``flags[i]``: :func:`row_fault` of every row not flagged yet (``error[i] == 0``; 0 or
    :data:`FLAGGED`), else 0."""
    n = concealed.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            flags[i] = 0 if error[i] else row_fault(concealed, declared, win, seat, round_wind, streak, closing,
                                                    require_win, i)


@jit
def _faults_of(concealed, declared, win, seat, round_wind, streak, closing, require_win, rows, faults):
    """``faults[j]``: the fault (code and place) of row ``rows[j]``, which :func:`row_fault` flagged."""
    for j in range(rows.shape[0]):
        faults[j] = _fault(concealed, declared, win, seat, round_wind, streak, closing, require_win, rows[j])


@jit
def first_flagged(codes):
    """Index of the first row of ``codes`` ((N,) uint8, a batch kernel's error codes) marked
    :data:`FLAGGED`, or -1: one pass without temporaries, for the common case of a batch with no bad row."""
    for i in range(codes.shape[0]):
        if codes[i] == FLAGGED:
            return i
    return -1
