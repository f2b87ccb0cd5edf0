"""Exhaustive waits analysis of 16-tile hands (LRC rules section 7, 9.10).

For every hand, every tile kind that completes it into any shape of section 3
(kinds already held four times excluded), with the payout of that win on a
discard and on a self-draw.  The kernel scores each completion with the same
code as :func:`fastscore.score_batch` (:func:`fastscore.kernels.score.interpret_loaded`,
the body of :func:`fastscore.kernels.score.interpret_hand`), loading each hand once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .batch import HandBatch, held_counts
from .checks import flag_faults, kernel_columns
from .events import checked_events
from .kernels.checks import MAX_STREAK
from .kernels.single import waits_text
from .kernels.waits import waits_kernel
from .rules import default_rules, resolve_rules, try_resolve_rules
from .tables import kernel_tables
from .tiles import N_KINDS, TILE_NAMES, WIND_INDEX, ErrorCode, HandError

__all__ = ["WaitsResult", "waits", "waits_batch", "tile_efficiency"]

#: dtype objects of the :class:`WaitsResult` arrays, not scalar types: numpy allocates with them without converting.
_MASK, _PAYOUT, _N_WAITS, _CODE = np.dtype(np.bool_), np.dtype(np.int32), np.dtype(np.int16), np.dtype(np.uint8)

#: :func:`waits`' per-thread output arrays (a call allocates none).
_LOCAL = threading.local()


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
    """Waits and their payouts for every 16-tile hand of a batch (LRC rules section 7).

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
    concealed, declared, win, _, seat, round_wind, flowers, streak, closing, events, error = columns
    n = len(batch)
    out = WaitsResult(
        mask=np.zeros((n, N_KINDS), dtype=_MASK),
        payout_discard=np.zeros((n, N_KINDS), dtype=_PAYOUT),
        payout_self_draw=np.zeros((n, N_KINDS), dtype=_PAYOUT),
        n_waits=np.zeros(n, dtype=_N_WAITS),
        error=np.empty(n, dtype=_CODE),  # the kernel writes every row's code
        messages=dict(batch.messages),
    )
    waits_kernel(
        concealed, declared, win, seat, round_wind, flowers, streak, closing, events, error, table.packed,
        kernel_tables(), out.mask, out.payout_discard, out.payout_self_draw, out.n_waits, out.error,
    )
    new = flag_faults(columns, out.error, require_win=False)
    if new:
        out.messages = dict(sorted({**out.messages, **new}.items()))
    return out


def waits(hand: str, *, seat="E", round="E", flowers="", streak=0, closing=False, events=None, rules=None) -> dict:
    """The waits of one 16-tile hand and what each would pay (LRC rules section 7), in one compiled call
    (:func:`fastscore.kernels.single.waits_text`; a batch of one for other argument types and errors).

    Parameters
    ----------
    hand : str
        The 16 tiles in hand notation (docs/formats.md).
    seat, round, flowers, streak, closing, events, rules
        As in :func:`fastscore.score`; an event that needs one way of winning (``after_gong``,
        ``robbing_gong``, ``heavenly``) counts only in that way's payout.

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
    table = default_rules() if rules is None else try_resolve_rules(rules)
    # As in fastscore.score: the common call in one compiled call, anything else through a batch of one.
    if (table is not None and type(hand) is str and type(flowers) is str and type(closing) is bool
            and type(streak) is int and 0 <= streak <= MAX_STREAK and type(seat) is str and type(round) is str and seat in WIND_INDEX
            and round in WIND_INDEX and (events is None or type(events) is str)):
        bits = checked_events(events, None, WIND_INDEX[seat], closing) if events else 0
        text = hand + flowers
        if text.isascii():
            # This thread's output arrays, taken out while in use (a signal handler that asks for waits
            # meanwhile makes its own): the mask, and both payouts as the rows of one (2, 34) array.
            arrays = _LOCAL.__dict__.pop("waits", None)
            if arrays is None:
                payouts = np.empty((2, N_KINDS), dtype=_PAYOUT)
                arrays = (np.empty(N_KINDS, dtype=_MASK), payouts, payouts[0], payouts[1])
            mask, payouts, discard, self_draw = arrays
            code, n_waits = waits_text(text.encode(), len(hand), len(text), WIND_INDEX[seat],
                                       WIND_INDEX[round], streak, closing, bits, table.packed, *kernel_tables(), mask,
                                       discard, self_draw)
            if code == 0:  # (lists: no boolean indexing, a few microseconds a call)
                result = {}
                if n_waits:
                    discards, self_draws = payouts.tolist()
                    result = {TILE_NAMES[t]: {"discard": discards[t], "self_draw": self_draws[t]}
                              for t in mask.nonzero()[0].tolist()}
                _LOCAL.waits = arrays
                return result
    record = dict(hand=hand, seat=seat, round=round, flowers=flowers, streak=streak, closing=closing, events=events)
    batch = HandBatch.from_records([record], require_win=False)
    if batch.error[0]:
        raise HandError(ErrorCode(int(batch.error[0])), batch.messages[0].removeprefix("row 0: "))
    return waits_batch(batch, rules if table is None else table).waits_at(0)


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
