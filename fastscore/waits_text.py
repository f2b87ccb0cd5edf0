"""The ``waits_json`` column of waits results, written by a compiled kernel (LRC rules section 7).

Row ``i``'s text is exactly
``json.dumps(result.waits_at(i), separators=(",", ":"))``, for example
``{"5p":{"discard":12,"self_draw":14},"8p":{"discard":9,"self_draw":11}}``
(tiles in kind order; ``{}`` for a hand that is not ready or a flagged row),
but two kernel passes (lengths, then bytes) over the ``(N, 34)`` arrays write
the whole column as Arrow string buffers: no Python per row.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_batch, prange
from .tiles import N_KINDS, TILE_NAMES

__all__ = ["waits_json_array"]

#: The two-byte name of every tile kind, row ``t`` for kind ``t``.
_NAMES = np.frombuffer("".join(TILE_NAMES).encode("ascii"), dtype=np.uint8).reshape(N_KINDS, 2).copy()
assert all(len(name) == 2 for name in TILE_NAMES)
#: Between a tile's name and its discard payout, and between the two payouts.
_AFTER_NAME = np.frombuffer(b'":{"discard":', dtype=np.uint8).copy()
_BETWEEN = np.frombuffer(b',"self_draw":', dtype=np.uint8).copy()


@jit
def _digits(v):
    """Characters of the decimal text of integer ``v`` (a minus sign included)."""
    n = 1
    if v < 0:
        n += 1
        v = -v
    while v >= 10:
        v //= 10
        n += 1
    return n


@jit
def _put(out, pos, v):
    """Write integer ``v`` in decimal at ``out[pos:]``; the position after it."""
    if v < 0:
        out[pos] = 45  # '-'
        pos += 1
        v = -v
    end = pos + _digits(v)
    k = end
    while True:
        k -= 1
        out[k] = 48 + v % 10
        v //= 10
        if v == 0:
            break
    return end


@jit_batch
def _lengths(mask, discard, self_draw, after_name, between, lengths):
    """``lengths[i]``: bytes of row ``i``'s text."""
    for i in prange(mask.shape[0]):
        total = 2  # {}
        count = 0
        for t in range(mask.shape[1]):
            if mask[i, t]:
                # "5p (3 bytes), after_name, discard, between, self_draw, }
                total += 3 + after_name.shape[0] + _digits(np.int64(discard[i, t])) + between.shape[0] \
                    + _digits(np.int64(self_draw[i, t])) + 1
                count += 1
        lengths[i] = total + max(count - 1, 0)  # commas between waits


@jit_batch
def _write(mask, discard, self_draw, names, after_name, between, offsets, out):
    """Row ``i``'s text into ``out[offsets[i]:offsets[i + 1]]``."""
    for i in prange(mask.shape[0]):
        pos = offsets[i]
        out[pos] = 123  # {
        pos += 1
        first = True
        for t in range(mask.shape[1]):
            if not mask[i, t]:
                continue
            if not first:
                out[pos] = 44  # ,
                pos += 1
            first = False
            out[pos] = 34  # "
            out[pos + 1] = names[t, 0]
            out[pos + 2] = names[t, 1]
            pos += 3
            for b in range(after_name.shape[0]):
                out[pos + b] = after_name[b]
            pos = _put(out, pos + after_name.shape[0], np.int64(discard[i, t]))
            for b in range(between.shape[0]):
                out[pos + b] = between[b]
            pos = _put(out, pos + between.shape[0], np.int64(self_draw[i, t]))
            out[pos] = 125  # }
            pos += 1
        out[pos] = 125  # }


def waits_json_array(mask: np.ndarray, payout_discard: np.ndarray, payout_self_draw: np.ndarray):
    """The ``waits_json`` texts of a waits result as a pyarrow ``large_string`` array.

    Parameters
    ----------
    mask : ndarray, shape (N, 34), bool
    payout_discard, payout_self_draw : ndarray, shape (N, 34), integer
        As :class:`fastscore.WaitsResult` (points).

    Returns
    -------
    pyarrow.LargeStringArray
        Row ``i``: ``json.dumps(waits_at(i), separators=(",", ":"))``.
    """
    import pyarrow as pa

    n = mask.shape[0]
    lengths = np.empty(n, dtype=np.int64)
    _lengths(mask, payout_discard, payout_self_draw, _AFTER_NAME, _BETWEEN, lengths)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    out = np.empty(int(offsets[-1]), dtype=np.uint8)
    _write(mask, payout_discard, payout_self_draw, _NAMES, _AFTER_NAME, _BETWEEN, offsets, out)
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(out))
