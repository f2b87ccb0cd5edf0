"""The row check: one compiled check of a hand's columns, and the messages of flagged rows (RULES.md section 2).

The numba kernels do not check array bounds.  Every batch kernel (scoring,
the win check, waits) runs :func:`row_fault` on each row inside its own loop,
where the row is already in cache, and skips a row that fails it; so does
:func:`check_batch`, which the text constructors and the file readers call
once after parsing.  :func:`row_fault` only says whether a row is bad (straight
-line code, no call: a few nanoseconds a row); for the rows it flags, and only
those, :func:`_fault` works out which check failed and where, and
:func:`fault_message` writes the message.

A fault is an int64: the :class:`~fastscore.tiles.ErrorCode` in bits 0-7, the
culprit's position (declared set slot, or tile) in bits 8-15, and which check
of that code failed in bits 16-23 (the ``_SUB_*`` values below).
"""

from __future__ import annotations

import numpy as np

from ._bits import LITTLE_ENDIAN, cttz64, load_u64
from ._jit import jit, jit_batch, jit_inline, prange
from .tiles import MAX_DECLARED, N_KINDS, TILE_NAMES, ErrorCode, HandError, SetKind

__all__ = ["COLUMNS", "FLAGGED", "row_fault", "check_batch", "flag_faults", "fault_message", "kernel_columns"]

#: (column, dtype, shape after N) of a :class:`~fastscore.HandBatch`: what the kernels are compiled for.
COLUMNS = (
    ("concealed", np.uint8, (N_KINDS,)),
    ("declared", np.int8, (MAX_DECLARED, 2)),
    ("win", np.int8, ()),
    ("self_drawn", np.bool_, ()),
    ("seat", np.uint8, ()),
    ("round", np.uint8, ()),
    ("flowers", np.uint8, ()),
    ("streak", np.int32, ()),
    ("closing", np.bool_, ()),
    ("error", np.uint8, ()),
)
#: Largest dealer streak a row may carry.
MAX_STREAK = 1000
_BLOCK = 1024  # rows per parallel work item of :func:`_flags`
#: What :func:`row_fault` returns for a bad row, and a batch kernel writes in its error column until
#: :func:`flag_faults` replaces it by the row's ErrorCode (never seen outside the wrappers).
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
_HIGH_BITS = np.uint64(0x8080808080808080)
_BYTE_ONES = np.uint64(0x0101010101010101)
_SHIFT_56 = np.uint64(56)


@jit_inline
def _over_four(w):
    """Some byte of the uint64 ``w`` is above 4 (a byte of 128 or more sets its own high bit)."""
    return ((w | (w + _PLUS_123)) & _HIGH_BITS) != np.uint64(0)


@jit_inline
def _byte_sum(w):
    """The sum of the eight bytes of ``w``, each at most 4 (so the sum fits a byte)."""
    return np.int64((w * _BYTE_ONES) >> _SHIFT_56)


_ZERO = np.uint64(0)
_BYTE = np.uint64(8)


@jit_inline
def _concealed_words(concealed, i):
    """Row ``i`` of ``concealed`` (N, 34) uint8, C-contiguous, as five uint64 words, byte ``t % 8`` of
    word ``t // 8`` holding the count of kind ``t`` (the last word holds kinds 32 and 33)."""
    if LITTLE_ENDIAN:  # rows are C-contiguous (kernel_columns): eight counts a load
        return (load_u64(concealed, i, 0), load_u64(concealed, i, 8), load_u64(concealed, i, 16),
                load_u64(concealed, i, 24), np.uint64(concealed[i, 32]) | (np.uint64(concealed[i, 33]) << _BYTE))
    w0 = w1 = w2 = w3 = w4 = _ZERO
    for t in range(8):  # byte by byte
        shift = np.uint64(8 * t)
        w0 |= np.uint64(concealed[i, t]) << shift
        w1 |= np.uint64(concealed[i, 8 + t]) << shift
        w2 |= np.uint64(concealed[i, 16 + t]) << shift
        w3 |= np.uint64(concealed[i, 24 + t]) << shift
    return w0, w1, w2, w3, np.uint64(concealed[i, 32]) | (np.uint64(concealed[i, 33]) << _BYTE)


@jit_inline
def _concealed_summary(concealed, i, w0, w1, w2, w3, w4):
    """(tiles, lowest kind held more than 4 times or N_KINDS) of row ``i`` of ``concealed`` (N, 34) uint8,
    given its :func:`_concealed_words`."""
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


@jit_inline
def _add_at(d0, d1, d2, d3, d4, t, add):
    """The byte vector ``d0``-``d4`` (as :func:`_concealed_words`) with the bytes of ``add`` added from
    kind ``t`` on (``add``'s lowest byte to kind ``t``, the next to ``t + 1``...).  Selects, not branches."""
    q = t >> 3
    shift = np.uint64((t & 7) * 8)
    lo = add << shift
    hi = (add >> np.uint64(1)) >> (np.uint64(63) - shift)  # add >> (64 - shift): 0 when shift is 0
    d0 += lo if q == 0 else _ZERO
    d1 += (lo if q == 1 else _ZERO) + (hi if q == 0 else _ZERO)
    d2 += (lo if q == 2 else _ZERO) + (hi if q == 1 else _ZERO)
    d3 += (lo if q == 3 else _ZERO) + (hi if q == 2 else _ZERO)
    d4 += (lo if q == 4 else _ZERO) + (hi if q == 3 else _ZERO)
    return d0, d1, d2, d3, d4


@jit_inline
def _lowest_over_four(w, base, fifth):
    """``fifth``, or ``base`` + the lowest byte of ``w`` above 4 when that is lower."""
    m = (w | (w + _PLUS_123)) & _HIGH_BITS
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
    w0, w1, w2, w3, w4 = _concealed_words(concealed, i)
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
        # The copies of the declared sets and the winning tile, as bytes added to the concealed counts
        # (every index is in range here: slots checked, a sheung starts below kind 25), looked at eight
        # kinds at a time.  ``fifth`` already names any concealed count above 4.
        d0 = d1 = d2 = d3 = d4 = _ZERO
        for k in range(MAX_DECLARED):
            kind = np.int64(declared[i, k, 0])
            add = np.uint64(0x010101 * np.int64(kind == _SHEUNG) + 3 * np.int64(kind == _PONG)
                            + 4 * np.int64(kind >= _GONG))
            d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, np.int64(declared[i, k, 1]), add)
        d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, max(w, 0), np.uint64(w >= 0))
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


@jit
def _row_values(concealed, declared, win, seat, round_wind, streak, closing, i):
    """Everything :func:`row_fault` reads of row ``i``, as scalars, in straight-line code: the
    concealed counts as five words, the declared slots' kinds and tiles, win, seat, round, streak
    and closing."""
    w0, w1, w2, w3, w4 = _concealed_words(concealed, i)
    return (w0, w1, w2, w3, w4,
            np.int64(declared[i, 0, 0]), np.int64(declared[i, 0, 1]), np.int64(declared[i, 1, 0]),
            np.int64(declared[i, 1, 1]), np.int64(declared[i, 2, 0]), np.int64(declared[i, 2, 1]),
            np.int64(declared[i, 3, 0]), np.int64(declared[i, 3, 1]), np.int64(declared[i, 4, 0]),
            np.int64(declared[i, 4, 1]),
            np.int64(win[i]), np.int64(seat[i]), np.int64(round_wind[i]), np.int64(streak[i]), closing[i])


@jit_inline
def _slot(kind, t):
    """One declared slot: (out of range or a bad sheung start, a set, an exposed set, its copies as
    bytes from kind ``t`` on)."""
    bad = (kind < 0) | (kind > 4) | (t < 0) | (t >= N_KINDS) | ((kind == _SHEUNG) & ((t >= 27) | (t % 9 > 6)))
    copies = np.uint64(0x010101 * np.int64(kind == _SHEUNG) + 3 * np.int64(kind == _PONG)
                       + 4 * np.int64(kind >= _GONG))
    return bad, np.int64(kind != 0), (kind != 0) & (kind != _CONCEALED_GONG), copies


@jit
def _values_fault(w0, w1, w2, w3, w4, k0, t0, k1, t1, k2, t2, k3, t3, k4, t4, w, seat, round_wind, streak,
                  closing, require_win):
    """:func:`row_fault` on the scalars of :func:`_row_values`: 0 or :data:`FLAGGED`.  Every check is
    worked out without a branch (rows differ at random, and mispredicted branches cost more than
    the checks)."""
    b0, n0, e0, c0 = _slot(k0, t0)
    b1, n1, e1, c1 = _slot(k1, t1)
    b2, n2, e2, c2 = _slot(k2, t2)
    b3, n3, e3, c3 = _slot(k3, t3)
    b4, n4, e4, c4 = _slot(k4, t4)
    exposed = e0 | e1 | e2 | e3 | e4
    bad = b0 | b1 | b2 | b3 | b4
    bad |= (w < -1) | (w >= N_KINDS) | (seat > 3) | (round_wind > 3) | (streak < 0) | (streak > MAX_STREAK)
    bad |= (closing & exposed) | (require_win & (w < 0))
    bad |= _over_four(w0) | _over_four(w1) | _over_four(w2) | _over_four(w3) | _over_four(w4)
    total = _byte_sum(w0) + _byte_sum(w1) + _byte_sum(w2) + _byte_sum(w3) + _byte_sum(w4)
    bad |= total + 3 * (n0 + n1 + n2 + n3 + n4) != 16
    # The copies of the declared sets and of the winning tile, added to the concealed counts as bytes
    # and looked at eight kinds at a time (a slot out of range adds nowhere or at a wrong place,
    # harmlessly: the row is bad already).
    d0 = d1 = d2 = d3 = d4 = _ZERO
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, t0, c0)
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, t1, c1)
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, t2, c2)
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, t3, c3)
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, t4, c4)
    d0, d1, d2, d3, d4 = _add_at(d0, d1, d2, d3, d4, max(w, 0), np.uint64(w >= 0))
    bad |= _over_four(w0 + d0) | _over_four(w1 + d1) | _over_four(w2 + d2) | _over_four(w3 + d3) \
        | _over_four(w4 + d4)
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
    w0, w1, w2, w3, w4, k0, t0, k1, t1, k2, t2, k3, t3, k4, t4, w, s, r, st, c = _row_values(
        concealed, declared, win, seat, round_wind, streak, closing, i)
    return _values_fault(w0, w1, w2, w3, w4, k0, t0, k1, t1, k2, t2, k3, t3, k4, t4, w, s, r, st, c, require_win)


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


def kernel_columns(batch) -> tuple:
    """The batch's columns as the kernels take them: read-only views (one compiled build of each
    kernel, whatever the caller's arrays), in :data:`COLUMNS` order.

    Raises
    ------
    ValueError
        If ``batch`` is not a :class:`~fastscore.HandBatch`, or a column has the wrong dtype or
        shape (the message names the column and what is expected): such a batch cannot be
        checked row by row.
    """
    if not all(hasattr(batch, name) for name, _, _ in COLUMNS):
        raise HandError(ErrorCode.BAD_ARRAY, f"expected a HandBatch, got {type(batch).__name__}")
    n = batch.concealed.shape[0] if isinstance(batch.concealed, np.ndarray) and batch.concealed.ndim else -1
    views = []
    for name, dtype, shape in COLUMNS:
        column = getattr(batch, name)
        if not isinstance(column, np.ndarray) or column.dtype != dtype or column.shape != (n, *shape):
            got = f"{column.dtype} {column.shape}" if isinstance(column, np.ndarray) else type(column).__name__
            raise HandError(
                ErrorCode.BAD_ARRAY,
                f"HandBatch column {name!r} must be {np.dtype(dtype)} of shape (N, {', '.join(map(str, shape))})"
                .replace(", )", ")") + f", got {got}; build batches with HandBatch.from_records or from_arrays",
            )
        if name == "concealed" and column.ndim == 2 and column.strides[1] != 1:
            column = np.ascontiguousarray(column)  # the kernels load a row's counts eight at a time
        if column.flags.writeable:
            column = column.view()
            column.flags.writeable = False
        views.append(column)
    return tuple(views)


def fault_message(columns: tuple, i: int, fault: int) -> str:
    """The message of row ``i`` of a batch's :func:`kernel_columns` for its fault (nonzero, from
    :func:`_fault`): ``"row i: ..."``, naming the culprit and the rule it breaks."""
    concealed, declared, win, _, seat, round_wind, _, streak, _, _ = columns
    code = fault & 255
    where = (fault >> 8) & 255
    check = (fault >> 16) & 255
    if code == _BAD_SET and check == _SUB_RANGE:
        kind, tile = (int(v) for v in declared[i, where])
        text = f"declared set {where} is (kind {kind}, tile {tile}); kind must be 0-4 (SetKind) and tile 0-33"
    elif code == _BAD_SET:
        text = (f"declared sheung {where} starts on {TILE_NAMES[int(declared[i, where, 1])]}; a sheung is "
                f"three number tiles of one suit, so it starts on 1-7 of m, p or s (tile index t < 27 with "
                f"t % 9 <= 6)")
    elif code == _BAD_WIN and check == _SUB_WIN_RANGE:
        text = f"win {int(win[i])} is out of range (-1 to {N_KINDS - 1})"
    elif code == _BAD_WIN:
        text = "no winning tile"
    elif code == _BAD_CONTEXT and check == _SUB_CLOSING:
        text = "Closing declared with an exposed set (Closing needs a concealed hand)"
    elif code == _BAD_CONTEXT:
        name, column, hi = (("seat", seat, 3), ("round", round_wind, 3), ("streak", streak, MAX_STREAK))[check]
        text = f"{name} {int(column[i])} is out of range (0 to {hi})"
    elif code == _TILE_COUNT:
        n_tiles = int(concealed[i].sum()) + 3 * int((declared[i, :, 0] != 0).sum())
        text = f"the hand holds {n_tiles} tiles (a declared set counts 3); a hand holds 16 before the win"
    else:  # FIFTH_COPY
        held = int(concealed[i, where]) + int(win[i] == where)
        for kind, s in declared[i].tolist():
            if kind == SetKind.SHEUNG:
                held += s <= where <= s + 2
            elif kind and s == where:
                held += 3 if kind == SetKind.PONG else 4
        text = f"{held} copies of {TILE_NAMES[where]}, counting declared sets and the winning tile (at most 4)"
    return f"row {i}: {text}"


def flag_faults(columns: tuple, codes: np.ndarray, *, require_win: bool) -> dict[int, str]:
    """Name the rows a batch kernel flagged: ``codes[i]`` :data:`FLAGGED` becomes the row's
    :class:`~fastscore.tiles.ErrorCode`, in place; returns ``{row: message}`` for those rows.

    ``columns`` are the batch's :func:`kernel_columns`; ``codes`` the ``(N,) uint8`` error
    column the kernel wrote (the batch's own flags, its :func:`row_fault` marks, or 0).
    Costs nothing when no row was flagged (most of the time).
    """
    rows = np.flatnonzero(codes == FLAGGED)
    if rows.size == 0:
        return {}
    faults = _faults_at(columns, rows, require_win)
    codes[rows] = faults & 255
    return {i: fault_message(columns, i, f) for i, f in zip(rows.tolist(), faults.tolist())}


def _faults_at(columns: tuple, rows: np.ndarray, require_win: bool) -> np.ndarray:
    """``(len(rows),) int64``: the faults of ``rows``, each flagged by :func:`row_fault`."""
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _ = columns
    faults = np.empty(rows.shape[0], dtype=np.int64)
    _faults_of(concealed, declared, win, seat, round_wind, streak, closing, bool(require_win),
               rows.astype(np.int64), faults)
    return faults


def check_batch(batch, *, require_win: bool):
    """Flag, in place, every row of ``batch`` that fails :func:`row_fault`, with its message; return ``batch``.

    For a batch whose arrays the caller owns (the text constructors and file
    readers run it once, after parsing).  Rows already flagged keep their
    first error.  The scoring functions do not need it: their kernels run the
    same check on every row.

    Raises
    ------
    ValueError
        A column of the wrong dtype or shape (:func:`kernel_columns`).
    """
    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, error = columns
    flags = np.zeros(concealed.shape[0], dtype=np.uint8)
    _flags(concealed, declared, win, seat, round_wind, streak, closing, bool(require_win), error, flags)
    bad = np.flatnonzero(flags)
    if bad.size:
        faults = _faults_at(columns, bad, require_win)
        batch.error[bad] = faults & 255
        for i, fault in zip(bad.tolist(), faults.tolist()):
            batch.messages[i] = fault_message(columns, i, fault)
        batch.messages = dict(sorted(batch.messages.items()))
    return batch
