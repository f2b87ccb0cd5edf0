"""The waits kernel: every tile that completes a 16-tile hand, with both payouts (LRC rules section 7, 9.10).

For every hand, every tile kind that completes it into any shape of section 3
(kinds already held four times excluded), with the payout of that win on a
discard and on a self-draw, scored by the same code as the scoring kernel
(:func:`fastscore.kernels.score.interpret_loaded`), the hand loaded once.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit_batch, jit_block, jit_inline, prange, twin
from .bits import prefetch
from .checks import row_check_code
from .decompose import add_tile_codes
from .evaluate import RP_WIN_SHAPES, lowest_bit, popcount
from .features import load_hand, load_hand_called
from .batch_loops import BLOCK
from .score import (
    INFO_PAYOUT,
    INFO_PAYOUT_SELF_DRAWN,
    INFO_POINTS_SELF_DRAWN,
    best_interpretation,
    drop_held_fours,
    interpret_called,
    interpret_loaded,
    make_scratch,
)
from .wait_shapes import maybe_ready, wait_mask_info

__all__ = ["waits_kernel"]


def _waits_rows(concealed, declared, win, seat, round_wind, flowers, streak, closing, events, error, rules, tables,
                mask, payout_discard, payout_self_draw, n_waits, codes):
    """Fill the ``(N, 34)`` waits mask and payouts and ``(N,)`` wait counts in place.

    Most hands that are not ready leave after :func:`fastscore.kernels.wait_shapes.maybe_ready`
    (table lookups straight from the input rows), the rest after the wait
    mask, before any scoring; a ready hand is loaded once and
    :func:`fastscore.kernels.score.interpret_loaded` scores each waiting tile.
    ``rules``: :attr:`fastscore.rules.RuleTable.packed`.
    Compiled as :data:`waits_kernel`, serial for small batches and parallel for large ones.
    """
    suit_info, suit_entries, dec_words = tables
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        _waits_block(concealed, declared, win, seat, round_wind, flowers, streak, closing, events, error, rules, suit_info,
                     suit_entries, dec_words, mask, payout_discard, payout_self_draw, n_waits, codes, make_scratch(),
                     b * BLOCK, min(n, (b + 1) * BLOCK))


@jit_block
def _waits_block(concealed, declared, win, seat, round_wind, flowers, streak, closing, events, error, rules, suit_info,
                 suit_entries, dec_words, mask, payout_discard, payout_self_draw, n_waits, codes, scratch, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_waits_rows`, a compiled function without reference counting
    (:func:`fastscore._jit.jit_block`) called once per block; ``scratch`` is :func:`make_scratch`'s."""
    counts, info, _ = scratch
    for i in range(lo, hi):
        # A given winning tile counts among the copies held; none is required.
        code = row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, False, i)
        codes[i] = code
        if code != 0 or not maybe_ready(concealed, declared, i, suit_info):
            continue
        hand = load_hand(concealed, declared, i)
        bits = wait_mask_info(concealed, i, counts, hand.n_declared, np.int64(suit_info[hand.k0]),
                              np.int64(suit_info[hand.k1]), np.int64(suit_info[hand.k2]), hand.honours,
                              rules[RP_WIN_SHAPES])
        bits = drop_held_fours(bits, concealed, declared, i)
        if bits == 0:
            continue
        found = popcount(bits)
        n_waits[i] = found
        # The suit entries that each waiting tile makes, asked for all at once before the first is scored.
        left = bits
        while left:
            t = lowest_bit(left)
            left &= left - 1
            c0, c1, c2 = add_tile_codes(hand.k0, hand.k1, hand.k2, t)
            prefetch(suit_entries, c0)
            prefetch(suit_entries, c1)
            prefetch(suit_entries, c2)
        left = bits
        while left:
            t = lowest_bit(left)
            left &= left - 1
            mask[i, t] = True
            # One pass scores the win on a discard and, per interpretation, by self-draw.
            m = interpret_loaded(t, False, seat[i], round_wind[i], flowers[i], streak[i], closing[i], events[i],
                                 found, rules, suit_entries, dec_words, concealed, declared, i, counts, hand, info,
                                 True)
            payout_discard[i, t] = info[best_interpretation(info, m), INFO_PAYOUT]
            best = best_interpretation(info, m, INFO_PAYOUT_SELF_DRAWN, INFO_POINTS_SELF_DRAWN)
            payout_self_draw[i, t] = info[best, INFO_PAYOUT_SELF_DRAWN]


waits_kernel = jit_batch(_waits_rows)


@jit_inline
def _may_wait(concealed, declared, i, suit_info):
    """:func:`fastscore.kernels.wait_shapes.maybe_ready` for one hand: True.  That first pass is worth
    its code only over many hands that are not ready; the wait mask decides the same either way."""
    return True


#: :func:`_waits_block` for :func:`fastscore.kernels.single.waits_hand`: the single-hand kernels' build
#: of the scoring path (:func:`fastscore.kernels.score.interpret_called`) and of ``load_hand``, called
#: rather than inlined, and no first pass.
_waits_block_called = jit_block(twin(_waits_block, "called", interpret_loaded=interpret_called,
                                     load_hand=load_hand_called, maybe_ready=_may_wait))
