"""Exhaustive waits analysis of 16-tile hands (RULES.md section 7, 9.10).

For every hand, every tile kind that completes it into any shape of section 3
(kinds already held four times excluded), with the payout of that win on a
discard and on a self-draw.  The kernel scores each completion with the same
code as :func:`fastscore.score_batch` (:func:`fastscore.kernels.score.interpret_loaded`,
the body of :func:`fastscore.kernels.score.interpret_hand`), loading each hand once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ._jit import jit, jit_batch, prange
from .batch import HandBatch, held_counts
from .checks import flag_faults, kernel_columns
from .kernels.bits import prefetch
from .kernels.checks import row_fault
from .kernels.decompose import add_tile_codes
from .kernels.evaluate import lowest_bit, pack_rules, popcount
from .kernels.features import load_hand
from .kernels.score import (
    BLOCK,
    INFO_PAYOUT,
    INFO_PAYOUT_SELF_DRAWN,
    INFO_POINTS_SELF_DRAWN,
    best_interpretation,
    drop_held_fours,
    interpret_loaded,
    make_scratch,
)
from .kernels.wait_shapes import maybe_ready, wait_mask_info
from .rules import resolve_rules
from .tables import kernel_tables
from .tiles import N_KINDS, TILE_NAMES, ErrorCode, HandError

__all__ = ["WaitsResult", "waits", "waits_batch", "tile_efficiency"]


def _waits_rows(concealed, declared, win, seat, round_wind, flowers, streak, closing, error, rule_args, tables,
                mask, payout_discard, payout_self_draw, n_waits, codes):
    """Fill the ``(N, 34)`` waits mask and payouts and ``(N,)`` wait counts in place.

    Most hands that are not ready leave after :func:`fastscore.kernels.wait_shapes.maybe_ready`
    (table lookups straight from the input rows), the rest after the wait
    mask, before any scoring; a ready hand is loaded once and
    :func:`fastscore.kernels.score.interpret_loaded` scores each waiting tile.
    Compiled as :data:`waits_kernel`, serial for small batches and parallel for large ones.
    """
    rules = pack_rules(rule_args)
    suit_info, suit_entries, dec_words = tables
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        _waits_block(concealed, declared, win, seat, round_wind, flowers, streak, closing, error, rules, suit_info,
                     suit_entries, dec_words, mask, payout_discard, payout_self_draw, n_waits, codes, b * BLOCK,
                     min(n, (b + 1) * BLOCK))


@jit
def _waits_block(concealed, declared, win, seat, round_wind, flowers, streak, closing, error, rules, suit_info,
                 suit_entries, dec_words, mask, payout_discard, payout_self_draw, n_waits, codes, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_waits_rows`, a plain compiled function called once per block
    (the ``jit_inline`` helpers then pass no array through a call)."""
    counts, info = make_scratch()
    for i in range(lo, hi):
        code = error[i]
        if code == 0:
            # The row checks (a given winning tile counts among the copies held; none is required).
            code = row_fault(concealed, declared, win, seat, round_wind, streak, closing, False, i) & 255
        codes[i] = code
        if code != 0 or not maybe_ready(concealed, declared, i, suit_info):
            continue
        hand = load_hand(concealed, declared, i)
        bits = wait_mask_info(concealed, i, counts, hand.n_declared, np.int64(suit_info[hand.k0]),
                              np.int64(suit_info[hand.k1]), np.int64(suit_info[hand.k2]), hand.honours)
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
            m = interpret_loaded(t, False, seat[i], round_wind[i], flowers[i], streak[i], closing[i], found,
                                 rules, suit_entries, dec_words, concealed, declared, i, counts, hand, info,
                                 True)
            payout_discard[i, t] = info[best_interpretation(info, m), INFO_PAYOUT]
            best = best_interpretation(info, m, INFO_PAYOUT_SELF_DRAWN, INFO_POINTS_SELF_DRAWN)
            payout_self_draw[i, t] = info[best, INFO_PAYOUT_SELF_DRAWN]


waits_kernel = jit_batch(_waits_rows)


@dataclass
class WaitsResult:
    """Waits of N 16-tile hands.

    Attributes
    ----------
    mask : ndarray, shape (N, 34), bool
        ``mask[i, t]``: tile kind ``t`` completes hand ``i``.
    payout_discard, payout_self_draw : ndarray, shape (N, 34), int32
        Payout in points of the win on ``t`` from a discard / by self-draw
        (0 where not a wait, or where the completion is not legal, 9.10).
    n_waits : ndarray, shape (N,), int16
        Number of waiting kinds.
    error : ndarray, shape (N,), uint8
        :class:`~fastscore.ErrorCode` per row; ``messages`` maps row -> message.
    """

    mask: np.ndarray
    payout_discard: np.ndarray
    payout_self_draw: np.ndarray
    n_waits: np.ndarray
    error: np.ndarray
    messages: dict

    def to_arrow(self):
        """The result as a pyarrow Table, with the Parquet output schema of ``fastscore waits-batch``."""
        from .io import result_table

        return result_table(self, "waits")

    def __len__(self) -> int:
        return self.mask.shape[0]

    def waits_at(self, i: int) -> dict:
        """Row ``i`` as ``{tile: {"discard": payout, "self_draw": payout}}``."""
        return {
            TILE_NAMES[t]: {"discard": int(self.payout_discard[i, t]), "self_draw": int(self.payout_self_draw[i, t])}
            for t in np.flatnonzero(self.mask[i])
        }

    def to_records(self) -> Iterator[dict]:
        """One ``{"waits", "n_waits", "error"}`` dict per row."""
        for i in range(len(self)):
            yield {
                "waits": self.waits_at(i),
                "n_waits": int(self.n_waits[i]),
                "error": self.messages.get(i) if self.error[i] else None,
            }


def waits_batch(batch: HandBatch, rules=None) -> WaitsResult:
    """Waits and their payouts for every 16-tile hand of a batch (RULES.md section 7).

    Parameters
    ----------
    batch : HandBatch
        16-tile hands, built without a winning tile:
        ``HandBatch.from_records(records, require_win=False)`` (likewise
        ``from_arrow``; a record's ``win`` is then ignored), ``from_arrays``
        without ``win`` (or ``win`` -1 in every row), :func:`fastscore.sample_ready`,
        or ``fastscore.io.iter_batches(path, require_win=False)``.  A batch built
        for scoring flags rows without a winning tile and counts a given winning
        tile among the copies held.  Flagged rows are skipped.
    rules : RuleTable, path or None
        Rule table; default the packaged one.

    Returns
    -------
    WaitsResult
    """
    table = resolve_rules(rules)
    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, flowers, streak, closing, error = columns
    n = len(batch)
    out = WaitsResult(
        mask=np.zeros((n, N_KINDS), dtype=np.bool_),
        payout_discard=np.zeros((n, N_KINDS), dtype=np.int32),
        payout_self_draw=np.zeros((n, N_KINDS), dtype=np.int32),
        n_waits=np.zeros(n, dtype=np.int16),
        error=np.empty(n, dtype=np.uint8),  # the kernel writes every row's code
        messages=dict(batch.messages),
    )
    waits_kernel(
        concealed, declared, win, seat, round_wind, flowers, streak, closing, error, table.kernel_args,
        kernel_tables(), out.mask, out.payout_discard, out.payout_self_draw, out.n_waits, out.error,
    )
    new = flag_faults(columns, out.error, require_win=False)
    if new:
        out.messages = dict(sorted({**out.messages, **new}.items()))
    return out


def waits(hand: str, *, seat="E", round="E", flowers="", streak=0, closing=False, rules=None) -> dict:
    """The waits of one 16-tile hand and what each would pay (RULES.md section 7): a batch of one.

    Parameters
    ----------
    hand : str
        The 16 tiles in RULES.md section 8 notation.
    seat, round, flowers, streak, closing, rules
        As in :func:`fastscore.score`.

    Returns
    -------
    dict
        ``{tile: {"discard": payout, "self_draw": payout}}`` in tile order,
        payouts in points; empty when the hand is not ready.

    Raises
    ------
    ValueError
        Invalid hand or context, naming the token.

    Examples
    --------
    >>> waits("123m456p 11z 56s [777m] [999s]", seat="S")
    {'4s': {'discard': 20, 'self_draw': 0}, '7s': {'discard': 20, 'self_draw': 0}}
    """
    record = dict(hand=hand, seat=seat, round=round, flowers=flowers, streak=streak, closing=closing)
    batch = HandBatch.from_records([record], require_win=False)
    if batch.error[0]:
        raise HandError(ErrorCode(int(batch.error[0])), batch.messages[0].removeprefix("row 0: "))
    return waits_batch(batch, rules).waits_at(0)


def tile_efficiency(batch: HandBatch, result: WaitsResult, seen=None) -> dict:
    """The summary a simulation needs from a waits analysis.

    Parameters
    ----------
    batch : HandBatch
        The N hands given to :func:`waits_batch`.
    result : WaitsResult
        Its result.
    seen : array_like, shape (N, 34) or (34,), optional
        Copies of each kind already visible to the player (discards, other
        players' exposed sets), not counting the player's own hand.

    Returns
    -------
    dict of ndarrays, each shape (N,)
        ``n_waits`` (int16, waiting kinds), ``live_tiles`` (int16, copies of
        waiting kinds neither in the hand nor seen), ``expected_discard`` and
        ``expected_self_draw`` (float64, mean payout in points over the live
        tiles, 0 when none is live).

    Raises
    ------
    ValueError
        If ``batch`` and ``result`` differ in length, or ``seen`` has the wrong
        shape, a value outside 0-4, or more copies of a kind seen than the hand
        leaves (4 less those it holds; the first such row and tile named).
    """
    n = len(result)
    if len(batch) != n:
        raise ValueError(f"batch has {len(batch)} rows but result has {n}: pass the batch given to waits_batch")
    seen = np.zeros((n, N_KINDS), dtype=np.int16) if seen is None else np.asarray(seen)
    seen = np.broadcast_to(seen, (n, N_KINDS)) if seen.shape == (N_KINDS,) else seen
    if seen.shape != (n, N_KINDS) or not np.issubdtype(seen.dtype, np.integer):
        raise ValueError(f"seen must be integer counts of shape ({n}, 34) or (34,), got {seen.shape} {seen.dtype}")
    if (seen < 0).any() or (seen > 4).any():
        raise ValueError("seen counts must be between 0 and 4")
    live = 4 - held_counts(batch, with_win=False) - seen
    over = (live < 0) & (result.error == 0)[:, None]
    if over.any():
        i, t = (int(x) for x in np.argwhere(over)[0])
        raise ValueError(f"row {i}: {int(seen[i, t])} {TILE_NAMES[t]} seen, but the hand holds "
                         f"{4 - int(live[i, t]) - int(seen[i, t])} of its 4 copies")
    live = np.clip(live, 0, 4) * result.mask
    n_live = live.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        discard = np.where(n_live > 0, (live * result.payout_discard).sum(axis=1) / n_live, 0.0)
        self_draw = np.where(n_live > 0, (live * result.payout_self_draw).sum(axis=1) / n_live, 0.0)
    return {
        "n_waits": result.n_waits.copy(),
        "live_tiles": n_live.astype(np.int16),
        "expected_discard": discard,
        "expected_self_draw": self_draw,
    }
