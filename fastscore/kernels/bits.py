"""Bit counting on 64-bit words as single machine instructions (LLVM ``ctpop``, ``cttz``); an unaligned
load; a cache prefetch hint; the constants of byte-wise (SWAR) tests on eight tile counts at once.

A loop over the set bits ends after a number of rounds that depends on the
data, and the branch that ends it is mispredicted about once a call; rule
rows, pongs and waits are bit words counted several times a hand.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import types
from numba.extending import intrinsic

from .._jit import jit_inline

__all__ = ["BYTE_HIGHS", "BYTE_ONES", "LITTLE_ENDIAN", "ctpop64", "cttz64", "gather_highs", "load_u64", "prefetch"]

#: :func:`load_u64` reads byte ``j`` into the word's lowest byte only on a little-endian machine.
LITTLE_ENDIAN = sys.byteorder == "little"
#: One in each byte of a word: ``k * BYTE_ONES`` puts ``k`` in every byte; ``(w * BYTE_ONES) >> 56`` sums
#: the bytes of ``w`` (when the sum fits a byte).
BYTE_ONES = np.uint64(0x0101010101010101)
#: The high bit of each byte: a byte test leaves its answer there.
BYTE_HIGHS = np.uint64(0x8080808080808080)
#: Multiplying the bits 0, 8, ..., 56 of a word by it puts them in order in its top byte.
_GATHER = np.uint64(0x0102040810204080)


@jit_inline
def gather_highs(high):
    """The high bits of the eight bytes of the uint64 ``high`` (bits 7, 15, ..., 63; no other bit set)
    as an 8-bit int64, bit j for byte j."""
    return np.int64(((high >> np.uint64(7)) * _GATHER) >> np.uint64(56))


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
def prefetch(typingctx, arr, i):
    """Ask the CPU to start fetching ``arr[i]`` of a 1-D array into the cache (LLVM ``prefetch``); returns
    at once.  A hint, not a load: no bounds are checked, and an address outside the array faults nothing.
    """
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils

        ary = context.make_array(signature.args[0])(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        byte_ptr = ir.IntType(8).as_pointer()
        address = builder.bitcast(builder.gep(ary.data, [index]), byte_ptr)
        i32 = ir.IntType(32)
        # The unsuffixed name: LLVM renames it to its pointer type's overload (p0i8 or p0) on every version.
        hint = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]), "llvm.prefetch")
        # A read (0), kept in every cache level (3), of data (1).
        builder.call(hint, [address, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(arr, i), codegen


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
