"""A fast safety check of hand-built batches before they reach the kernels (RULES.md section 2).

The numba kernels do not check array bounds.  :func:`checked` makes sure every
column has the dtype and shape the kernels expect.  A sealed batch (validated
when it was built, :class:`fastscore.HandBatch`) is trusted as it is; any other
goes through :func:`_row_errors`, a compiled pass doing
:func:`fastscore.batch.validate`'s checks in its order, and only when it finds
a row that was not flagged yet does the slower
:func:`~fastscore.batch.validate` run, on a copy, to write the messages.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit_batch, prange
from .batch import HandBatch, validate
from .tiles import MAX_DECLARED, N_KINDS, ErrorCode, HandError

__all__ = ["checked"]

#: (column, dtype, shape after N) the kernels are compiled for.
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


@jit_batch
def _row_errors(concealed, declared, win, seat, round_wind, streak, closing, require_win, error):
    """First failing check of every row, in :func:`validate`'s order, as an ErrorCode (0: valid)."""
    n = concealed.shape[0]
    for i in prange(n):
        if error[i]:
            continue
        code = 0
        n_declared = 0
        exposed = False
        for k in range(MAX_DECLARED):
            kind = declared[i, k, 0]
            t = declared[i, k, 1]
            if kind < 0 or kind > 4 or t < 0 or t >= N_KINDS:
                code = 2  # BAD_SET
            elif kind != 0:
                n_declared += 1
                if kind != 4:
                    exposed = True
        if code == 0 and not (-1 <= win[i] < N_KINDS):
            code = 5  # BAD_WIN
        if code == 0 and not (0 <= seat[i] <= 3 and 0 <= round_wind[i] <= 3 and 0 <= streak[i] <= 1000):
            code = 6  # BAD_CONTEXT
        if code == 0:
            for k in range(MAX_DECLARED):
                if declared[i, k, 0] == 1 and (declared[i, k, 1] >= 27 or declared[i, k, 1] % 9 > 6):
                    code = 2  # BAD_SET: a sheung must start on 1-7 of a number suit
        if code == 0:
            total = 3 * n_declared
            for t in range(N_KINDS):
                total += concealed[i, t]
            if total != 16:
                code = 3  # TILE_COUNT
        if code == 0:
            held = np.zeros(N_KINDS, dtype=np.int64)
            for t in range(N_KINDS):
                held[t] = concealed[i, t]
            for k in range(MAX_DECLARED):
                kind = declared[i, k, 0]
                t = np.int64(declared[i, k, 1])
                if kind == 1:
                    held[t] += 1
                    held[t + 1] += 1
                    held[t + 2] += 1
                elif kind == 2:
                    held[t] += 3
                elif kind >= 3:
                    held[t] += 4
            if win[i] >= 0:
                held[win[i]] += 1
            for t in range(N_KINDS):
                if held[t] > 4:
                    code = 4  # FIFTH_COPY
        if code == 0 and closing[i] and exposed:
            code = 6  # BAD_CONTEXT
        if code == 0 and require_win and win[i] < 0:
            code = 5  # BAD_WIN
        error[i] = code


def row_errors(batch: HandBatch, *, require_win: bool) -> np.ndarray:
    """``(N,) uint8``: the first failing check of every row (an ErrorCode, 0: valid) in
    :func:`validate`'s order; rows already flagged keep their code.  Columns must have the
    dtypes and shapes of :data:`COLUMNS` (see :func:`checked`)."""
    codes = batch.error.copy()
    _row_errors(batch.concealed, batch.declared, batch.win, batch.seat, batch.round, batch.streak, batch.closing,
                require_win, codes)
    return codes


def checked(batch: HandBatch, *, require_win: bool) -> HandBatch:
    """``batch`` when every row is safe to score, else a validated copy with the bad rows flagged;
    in both cases with read-only columns (views where they were writable), the only
    kind of input column the kernels are compiled for.

    A sealed batch (validated when it was built, see :class:`~fastscore.HandBatch`) is
    not checked again; any other batch goes through the compiled row checks.

    Raises
    ------
    ValueError
        If a column has the wrong dtype or shape (the message names the column
        and what is expected): such a batch cannot be scored row by row.
    """
    if not isinstance(batch, HandBatch):
        raise HandError(ErrorCode.BAD_ARRAY, f"expected a HandBatch, got {type(batch).__name__}")
    n = batch.concealed.shape[0] if isinstance(batch.concealed, np.ndarray) and batch.concealed.ndim else -1
    for name, dtype, shape in COLUMNS:
        column = getattr(batch, name)
        if not isinstance(column, np.ndarray) or column.dtype != dtype or column.shape != (n, *shape):
            got = f"{column.dtype} {column.shape}" if isinstance(column, np.ndarray) else type(column).__name__
            raise HandError(
                ErrorCode.BAD_ARRAY,
                f"HandBatch column {name!r} must be {np.dtype(dtype)} of shape (N, {', '.join(map(str, shape))})"
                .replace(", )", ")") + f", got {got}; build batches with HandBatch.from_records or from_arrays",
            )
    if not batch.is_sealed(require_win=require_win):  # else validated when it was built (HandBatch, Notes)
        codes = row_errors(batch, require_win=require_win)
        if not (codes == batch.error).all():
            batch = batch.take(slice(None))
            validate(batch, require_win=require_win)
    return batch._read_only()
