"""Bit counting on 64-bit words as single machine instructions (LLVM ``ctpop``, ``cttz``); an unaligned load.

A loop over the set bits ends after a number of rounds that depends on the
data, and the branch that ends it is mispredicted about once a call; rule
rows, pongs and waits are bit words counted several times a hand.
"""

from __future__ import annotations

import sys

from numba import types
from numba.extending import intrinsic

__all__ = ["LITTLE_ENDIAN", "ctpop64", "cttz64", "load_u64"]

#: :func:`load_u64` reads byte ``j`` into the word's lowest byte only on a little-endian machine.
LITTLE_ENDIAN = sys.byteorder == "little"


@intrinsic
def ctpop64(typingctx, x):
    """Number of set bits of the int64 ``x``."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def cttz64(typingctx, x):
    """Index of the lowest set bit of the int64 ``x`` (64 for 0)."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return types.int64(types.int64), codegen


@intrinsic
def load_u64(typingctx, arr, i, j):
    """The 8 bytes ``arr[i, j:j + 8]`` of a 2-D uint8 array as one uint64 (an unaligned load):
    ``arr[i, j]`` in the lowest byte where :data:`LITTLE_ENDIAN`.

    The caller guarantees that the row's bytes are contiguous (``arr.strides[1] == 1``)
    and that ``j + 8 <= arr.shape[1]``: no bounds are checked.
    """
    if not (isinstance(arr, types.Array) and arr.ndim == 2 and arr.dtype == types.uint8):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        ary = context.make_array(signature.args[0])(context, builder, args[0])
        row = builder.mul(context.cast(builder, args[1], signature.args[1], types.intp),
                          builder.extract_value(ary.strides, 0))
        offset = builder.add(row, context.cast(builder, args[2], signature.args[2], types.intp))
        byte = builder.gep(ary.data, [offset])
        word = builder.bitcast(byte, ir.IntType(64).as_pointer())
        value = builder.load(word, align=1)
        return value

    return types.uint64(arr, i, j), codegen
