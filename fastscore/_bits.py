"""Bit counting on 64-bit words as single machine instructions (LLVM ``ctpop`` and ``cttz``).

A loop over the set bits ends after a number of rounds that depends on the
data, and the branch that ends it is mispredicted about once a call; rule
rows, pongs and waits are bit words counted several times a hand.
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic

__all__ = ["ctpop64", "cttz64"]


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
