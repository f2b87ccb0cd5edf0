"""The row check: one compiled check of a hand's columns, and the messages of flagged rows (RULES.md section 2).

The numba kernels do not check array bounds.  Every batch kernel (scoring,
the win check, waits) runs :func:`row_fault` on each row inside its own loop,
where the row is already in cache, and skips a row that fails it; so does
:func:`check_batch`, which the text constructors and the file readers call
once after parsing.  Only the rows it flags get a message, written by
:func:`fault_message` from the fault's code and location.

A fault is an int64: the :class:`~fastscore.tiles.ErrorCode` in bits 0-7, the
culprit's position (declared set slot, or tile) in bits 8-15, and which check
of that code failed in bits 16-23 (the ``_SUB_*`` values below).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit_batch, jit_inline, prange
from .tiles import MAX_DECLARED, N_KINDS, TILE_NAMES, ErrorCode, HandError, SetKind

__all__ = ["COLUMNS", "row_fault", "check_batch", "fault_message", "kernel_columns"]

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

# Compile-time constants of the kernels, from the enums (defined once, in fastscore.tiles).
_BAD_SET = int(ErrorCode.BAD_SET)
_BAD_WIN = int(ErrorCode.BAD_WIN)
_BAD_CONTEXT = int(ErrorCode.BAD_CONTEXT)
_TILE_COUNT = int(ErrorCode.TILE_COUNT)
_FIFTH_COPY = int(ErrorCode.FIFTH_COPY)
_SHEUNG = int(SetKind.SHEUNG)
_PONG = int(SetKind.PONG)
_CONCEALED_GONG = int(SetKind.CONCEALED_GONG)
# Which check of a code failed (bits 16-23 of a fault).
_SUB_RANGE, _SUB_SHEUNG = 0, 1  # BAD_SET: slot out of range; a sheung that does not start on 1-7 of a suit
_SUB_WIN_RANGE, _SUB_NO_WIN = 0, 1  # BAD_WIN
_SUB_SEAT, _SUB_ROUND, _SUB_STREAK, _SUB_CLOSING = 0, 1, 2, 3  # BAD_CONTEXT


@jit_inline
def _copies(declared, i, t):
    """Copies of tile ``t`` in the declared sets of row ``i`` (slots already checked in range)."""
    n = 0
    for k in range(MAX_DECLARED):
        kind = declared[i, k, 0]
        s = np.int64(declared[i, k, 1])
        if kind == _SHEUNG:
            n += np.int64(s <= t) & np.int64(t <= s + 2)
        elif kind != 0 and s == t:
            n += 3 if kind == _PONG else 4
    return n


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
        ``code | position << 8 | check << 16`` (module docstring).  Checks, in
        order: declared kinds 0-4 and
        tiles 0-33 (``BAD_SET``); winning tile -1 to 33 (``BAD_WIN``); seat,
        round 0-3 and streak 0-1000 (``BAD_CONTEXT``); a declared sheung
        starting on 1-7 of a number suit (``BAD_SET``); 16 tiles before the
        win, a declared set counting 3 (``TILE_COUNT``); at most 4 copies of a
        kind with the declared sets and the winning tile (``FIFTH_COPY``);
        Closing only with a concealed hand (``BAD_CONTEXT``); a winning tile
        when ``require_win`` (``BAD_WIN``).
    """
    total = 0
    fifth = N_KINDS  # the lowest kind held more than 4 times
    for t in range(N_KINDS):
        c = concealed[i, t]
        total += c
        if c > 4 and fifth == N_KINDS:
            fifth = t
    n_declared = 0
    exposed = False
    for k in range(MAX_DECLARED):
        kind = declared[i, k, 0]
        t = declared[i, k, 1]
        if kind < 0 or kind > 4 or t < 0 or t >= N_KINDS:
            return _BAD_SET | (k << 8) | (_SUB_RANGE << 16)
        if kind != 0:
            n_declared += 1
            exposed |= kind != _CONCEALED_GONG
    w = np.int64(win[i])
    if w < -1 or w >= N_KINDS:
        return _BAD_WIN | (_SUB_WIN_RANGE << 16)
    if seat[i] > 3:
        return _BAD_CONTEXT | (_SUB_SEAT << 16)
    if round_wind[i] > 3:
        return _BAD_CONTEXT | (_SUB_ROUND << 16)
    if streak[i] < 0 or streak[i] > MAX_STREAK:
        return _BAD_CONTEXT | (_SUB_STREAK << 16)
    for k in range(MAX_DECLARED):
        t = declared[i, k, 1]
        if declared[i, k, 0] == _SHEUNG and (t >= 27 or t % 9 > 6):
            return _BAD_SET | (k << 8) | (_SUB_SHEUNG << 16)
    if total + 3 * n_declared != 16:
        return _TILE_COUNT
    # Beyond the concealed counts, only a kind of a declared set or the winning tile can pass 4 copies.
    for k in range(MAX_DECLARED):
        kind = declared[i, k, 0]
        if kind == 0:
            continue
        s = np.int64(declared[i, k, 1])
        for t in range(s, s + (3 if kind == _SHEUNG else 1)):
            if t < fifth and concealed[i, t] + _copies(declared, i, t) + np.int64(w == t) > 4:
                fifth = t
    if w >= 0 and w < fifth and concealed[i, w] + _copies(declared, i, w) + 1 > 4:
        fifth = w
    if fifth < N_KINDS:
        return _FIFTH_COPY | (fifth << 8)
    if closing[i] and exposed:
        return _BAD_CONTEXT | (_SUB_CLOSING << 16)
    if require_win and w < 0:
        return _BAD_WIN | (_SUB_NO_WIN << 16)
    return 0


@jit_batch
def _faults(concealed, declared, win, seat, round_wind, streak, closing, require_win, error, faults):
    """``faults[i]``: :func:`row_fault` of every row not flagged yet (``error[i] == 0``), else 0."""
    for i in prange(concealed.shape[0]):
        faults[i] = 0 if error[i] else row_fault(concealed, declared, win, seat, round_wind, streak, closing,
                                                 require_win, i)


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
        if column.flags.writeable:
            column = column.view()
            column.flags.writeable = False
        views.append(column)
    return tuple(views)


def fault_message(batch, i: int, fault: int) -> str:
    """The message of row ``i`` of ``batch`` for its :func:`row_fault` ``fault`` (nonzero):
    ``"row i: ..."``, naming the culprit and the rule it breaks."""
    code = fault & 255
    where = (fault >> 8) & 255
    check = (fault >> 16) & 255
    if code == _BAD_SET and check == _SUB_RANGE:
        kind, tile = (int(v) for v in batch.declared[i, where])
        text = f"declared set {where} is (kind {kind}, tile {tile}); kind must be 0-4 (SetKind) and tile 0-33"
    elif code == _BAD_SET:
        text = (f"declared sheung {where} starts on {TILE_NAMES[int(batch.declared[i, where, 1])]}; a sheung is "
                f"three number tiles of one suit, so it starts on 1-7 of m, p or s (tile index t < 27 with "
                f"t % 9 <= 6)")
    elif code == _BAD_WIN and check == _SUB_WIN_RANGE:
        text = f"win {int(batch.win[i])} is out of range (-1 to {N_KINDS - 1})"
    elif code == _BAD_WIN:
        text = "no winning tile"
    elif code == _BAD_CONTEXT and check == _SUB_CLOSING:
        text = "Closing declared with an exposed set (Closing needs a concealed hand)"
    elif code == _BAD_CONTEXT:
        name, hi = (("seat", 3), ("round", 3), ("streak", MAX_STREAK))[check]
        text = f"{name} {int(getattr(batch, name)[i])} is out of range (0 to {hi})"
    elif code == _TILE_COUNT:
        n_tiles = int(batch.concealed[i].sum()) + 3 * int((batch.declared[i, :, 0] != 0).sum())
        text = f"the hand holds {n_tiles} tiles (a declared set counts 3); a hand holds 16 before the win"
    else:  # FIFTH_COPY
        held = int(batch.concealed[i, where]) + int(batch.win[i] == where)
        for kind, s in batch.declared[i].tolist():
            if kind == SetKind.SHEUNG:
                held += s <= where <= s + 2
            elif kind and s == where:
                held += 3 if kind == SetKind.PONG else 4
        text = f"{held} copies of {TILE_NAMES[where]}, counting declared sets and the winning tile (at most 4)"
    return f"row {i}: {text}"


def flag_faults(batch, codes: np.ndarray, *, require_win: bool) -> dict[int, str]:
    """Messages of the rows a kernel flagged: those with ``codes[i]`` set and ``batch.error[i]`` not.

    ``codes`` is the ``(N,) uint8`` error column a batch kernel wrote (its own
    :func:`row_fault` codes, and the batch's flags where it had them).  Returns
    ``{row: message}`` for the newly flagged rows only (none, most of the time).
    """
    new = np.flatnonzero(codes != batch.error)
    if new.size == 0:
        return {}
    sub = batch.take(new)
    faults = _row_faults(sub, require_win)
    return {int(i): fault_message(batch, int(i), int(f)) for i, f in zip(new.tolist(), faults.tolist())}


def _row_faults(batch, require_win: bool) -> np.ndarray:
    """``(N,) int64``: :func:`row_fault` of every row of ``batch`` not flagged yet (0 where flagged)."""
    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, error = columns
    faults = np.empty(columns[0].shape[0], dtype=np.int64)
    _faults(concealed, declared, win, seat, round_wind, streak, closing, bool(require_win), error, faults)
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
    faults = _row_faults(batch, require_win)
    bad = np.flatnonzero(faults)
    if bad.size:
        batch.error[bad] = faults[bad] & 255
        for i in bad.tolist():
            batch.messages[i] = fault_message(batch, i, int(faults[i]))
        batch.messages = dict(sorted(batch.messages.items()))
    return batch
