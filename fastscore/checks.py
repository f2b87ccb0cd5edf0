"""The row check's Python side: the columns the kernels take, and the messages of flagged rows (LRC rules section 2).

The check itself is compiled, in :mod:`fastscore.kernels.checks`: every batch
kernel (scoring, the win check, waits) runs
:func:`~fastscore.kernels.checks.row_fault` on each row it reads and flags a
row that fails it.  Here: :data:`COLUMNS` and :func:`kernel_columns` (a
batch's columns as the kernels take them), :func:`check_batch` (flag the bad
rows of a batch the caller owns, once after parsing: the text constructors
and the file readers), :func:`flag_faults` (name the rows a batch kernel
flagged) and :func:`fault_message` (the message of a fault, for the flagged
rows only).
"""

from __future__ import annotations

import operator
from functools import lru_cache

import numpy as np

from .kernels.checks import (
    _BAD_CONTEXT,
    _BAD_SET,
    _BAD_WIN,
    _SUB_CLOSING,
    _SUB_RANGE,
    _SUB_WIN_RANGE,
    _TILE_COUNT,
    FLAGGED,
    MAX_STREAK,
    _faults_of,
    _flags,
    first_flagged,
    row_fault,
)
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
    ("events", np.uint16, ()),
    ("error", np.uint8, ()),
)


def kernel_columns(batch) -> tuple:
    """The batch's columns as the kernels take them, in :data:`COLUMNS` order: writable C-contiguous
    arrays, so that each kernel has one compiled build whatever the caller's arrays.  A batch's own
    columns are passed as they are (the kernels only read them); a read-only column (an Arrow
    buffer, a read-only memory map) is copied, and a ``concealed`` whose rows are not contiguous too.

    Raises
    ------
    ValueError
        If ``batch`` is not a :class:`~fastscore.HandBatch`, or a column has the wrong dtype or
        shape (the message names the column and what is expected): such a batch cannot be
        checked row by row.
    """
    try:
        columns = _get_columns(batch)
    except AttributeError:
        raise HandError(ErrorCode.BAD_ARRAY, f"expected a HandBatch, got {type(batch).__name__}") from None
    # The common case, in one comparison of a whole tuple (a microsecond counts for a batch of one):
    # every column a writable array of its dtype and shape, the rows of ``concealed`` contiguous.
    first = columns[0]
    try:
        if (tuple([(type(c), c.dtype, c.shape, c.flags.writeable) for c in columns]) == _signature(first.shape[0])
                and first.strides[1] == 1):
            return columns
    except (AttributeError, IndexError, TypeError):  # a column that is no array, or a 0-d ``concealed``
        pass
    columns = list(columns)
    n = first.shape[0] if isinstance(first, np.ndarray) and first.ndim else -1
    for k, (column, (name, dtype, shape)) in enumerate(zip(columns, _EXPECTED)):
        if not isinstance(column, np.ndarray) or column.dtype != dtype or column.shape != (n, *shape):
            got = f"{column.dtype} {column.shape}" if isinstance(column, np.ndarray) else type(column).__name__
            raise HandError(
                ErrorCode.BAD_ARRAY,
                f"HandBatch column {name!r} must be {dtype} of shape (N, {', '.join(map(str, shape))})"
                .replace(", )", ")") + f", got {got}; build batches with HandBatch.from_records or from_arrays",
            )
        if not column.flags.writeable:
            columns[k] = np.array(column)  # the kernels' one build takes writable arrays
    if first.strides[1] != 1:
        columns[0] = np.ascontiguousarray(first)  # the kernels load a row's counts eight at a time
    return tuple(columns)


_NAMES = tuple(name for name, _, _ in COLUMNS)
_EXPECTED = tuple((name, np.dtype(dtype), shape) for name, dtype, shape in COLUMNS)  # dtype objects: fast ==
_get_columns = operator.attrgetter(*_NAMES)


@lru_cache(maxsize=64)
def _signature(n: int) -> tuple:
    """``(type, dtype, shape, writeable)`` of each of the :data:`COLUMNS` of an ``n``-row batch as the
    kernels take it (:func:`kernel_columns`' common case)."""
    return tuple((np.ndarray, dtype, (n, *shape), True) for _, dtype, shape in _EXPECTED)


def fault_message(columns: tuple, i: int, fault: int) -> str:
    """The message of row ``i`` of a batch's :func:`kernel_columns` for its fault (nonzero, from
    :func:`fastscore.kernels.checks._fault`): ``"row i: ..."``, naming the culprit and the rule it breaks."""
    concealed, declared, win, _, seat, round_wind, _, streak, _, _, _ = columns
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
    column the kernel wrote (the batch's own flags, its :func:`~fastscore.kernels.checks.row_fault` marks, or 0).
    Costs nothing when no row was flagged (most of the time).
    """
    if first_flagged(codes) < 0:
        return {}
    rows = np.flatnonzero(codes == FLAGGED)
    faults = _faults_at(columns, rows, require_win)
    codes[rows] = faults & 255
    return {i: fault_message(columns, i, f) for i, f in zip(rows.tolist(), faults.tolist())}


def _faults_at(columns: tuple, rows: np.ndarray, require_win: bool) -> np.ndarray:
    """``(len(rows),) int64``: the faults of ``rows``, each flagged by :func:`~fastscore.kernels.checks.row_fault`."""
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _, _ = columns
    faults = np.empty(rows.shape[0], dtype=np.int64)
    _faults_of(concealed, declared, win, seat, round_wind, streak, closing, bool(require_win),
               rows.astype(np.int64), faults)
    return faults


def check_batch(batch, *, require_win: bool):
    """Flag, in place, every row of ``batch`` that fails :func:`~fastscore.kernels.checks.row_fault`, with its
    message; return ``batch``.

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
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _, error = columns
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
