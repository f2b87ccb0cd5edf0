"""Hand efficiency: shanten of 16- and 17-tile hands (LRC rules sections 2, 3 and 7).

The **shanten** of a hand is the least number of exchanges (one concealed tile
out, one tile in) that make it ready: 0 for a ready 16-tile hand (it has
waits, section 7), -1 for a complete 17-tile hand.  For a 17-tile hand (after
its draw, before its discard) it is the least shanten over its discards.
Every shape of section 3 counts, the declared sets fixed, and a kind held
four times (declared sets included) cannot be drawn.  The kernel is
:mod:`fastscore.kernels.shanten`; its numba-callable form is
:func:`fastscore.nb.shanten_hand`.

A 17-tile hand in a :class:`~fastscore.HandBatch` is a row built as for
scoring: 16 tiles, plus the drawn tile in ``win``.  A row with ``win`` -1 is
a 16-tile hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .batch import HandBatch
from .checks import flag_faults, kernel_columns
from .kernels.discards import discard_kernel
from .kernels.shanten import shanten_kernel
from .kernels.single import shanten_text
from .rules import resolve_rules
from .shanten_tables import class_tables, shanten_tables
from .tiles import MAX_DECLARED, N_KINDS, NO_SHAPE, TILE_NAMES, ErrorCode, HandError, SetKind, parse_hand, parse_tile

__all__ = ["NO_SHAPE", "SHAPE_NAMES", "DiscardResult", "Shanten", "ShantenResult", "discard_analysis", "discards",
           "shanten", "shanten_batch"]

#: The shapes of LRC rules section 3, in the order of :class:`ShantenResult`'s per-shape columns.
SHAPE_NAMES = ("standard", "nico_nico", "thirteen_orphans", "sixteen_orphans")


@dataclass
class ShantenResult:
    """Shanten of N hands (16 tiles, or 17 with the draw).

    Attributes
    ----------
    shanten : ndarray, shape (N,), int8
        Best over the shapes: 0 ready, -1 complete (17 tiles), k > 0 that many exchanges from ready.
    standard, nico_nico, thirteen_orphans, sixteen_orphans : ndarray, shape (N,), int8
        Shanten in each shape of LRC rules section 3; :data:`NO_SHAPE` (127) where the hand cannot
        take it (the special shapes with a declared set), and in flagged rows.
    error : ndarray, shape (N,), uint8
        :class:`~fastscore.ErrorCode` per row; ``messages`` maps row -> message.
    """

    shanten: np.ndarray
    standard: np.ndarray
    nico_nico: np.ndarray
    thirteen_orphans: np.ndarray
    sixteen_orphans: np.ndarray
    error: np.ndarray
    messages: dict

    def __len__(self) -> int:
        return self.shanten.shape[0]


class Shanten(NamedTuple):
    """Shanten of one hand (:func:`shanten`): best, then per shape (None: the hand cannot take the shape)."""

    shanten: int
    standard: int | None
    nico_nico: int | None
    thirteen_orphans: int | None
    sixteen_orphans: int | None


def shanten_batch(batch: HandBatch, rules=None) -> ShantenResult:
    """Shanten of every hand of a batch, best and per shape (LRC rules sections 2, 3, 7).

    Parameters
    ----------
    batch : HandBatch
        Rows with ``win`` -1 are 16-tile hands; rows with a winning tile are
        17-tile hands, the tile in ``win`` being the draw.  Every row is
        checked (:func:`fastscore.kernels.checks.row_fault`); a bad row is
        flagged in ``error`` with its message, and the rest are worked out.
    rules : RuleTable, profile name, path or None
        Only the shapes that win under this table count (``[win] shapes``; default the ``lrc`` profile,
        every shape): the others read :data:`NO_SHAPE` and the best is the least of the rest.

    Returns
    -------
    ShantenResult

    Raises
    ------
    ValueError
        If ``batch`` is not a HandBatch or a column has the wrong dtype or shape.
    RuleTableError
        ``rules`` cannot be loaded.
    """
    win_shapes = resolve_rules(rules).win_shapes_bits
    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _, error = columns
    n = len(batch)
    out = np.empty((n, 5), dtype=np.int8)
    codes = np.empty(n, dtype=np.uint8)
    number_table, honour_table = shanten_tables()
    shanten_kernel(concealed, declared, win, seat, round_wind, streak, closing, error, number_table, honour_table,
                   class_tables(), win_shapes, out, codes)
    messages = dict(batch.messages)
    new = flag_faults(columns, codes, require_win=False)
    if new:
        messages = dict(sorted({**messages, **new}.items()))
    return ShantenResult(out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4], codes, messages)


def hand_batch(hand: str, drawn=None, *, allow_16: bool = True) -> HandBatch:
    """A checked batch of one from a hand in hand notation (docs/formats.md): 16 tiles (with ``drawn``, a
    tile such as ``"5p"``, as the 17th), or 17 tiles written out (the highest kind is put in ``win``).
    ``allow_16`` False: the hand must have 17 tiles with ``drawn``.

    Raises
    ------
    HandError (a ValueError)
        Naming the bad token, a wrong tile count or a fifth copy.
    """
    if drawn is not None:
        parsed = parse_hand(hand)
    elif allow_16:
        try:
            parsed = parse_hand(hand)
        except HandError as exc:
            if exc.code != ErrorCode.TILE_COUNT:
                raise
            parsed = parse_hand(hand, 17)
    else:
        parsed = parse_hand(hand, 17)
    concealed = parsed.concealed.astype(np.uint8)[None, :].copy()
    declared = np.zeros((1, MAX_DECLARED, 2), dtype=np.int8)
    for k, (kind, tile) in enumerate(parsed.declared):
        declared[0, k] = (int(kind), tile)
    win = -1
    if drawn is not None:
        win = parse_tile(drawn)
    elif parsed.n_tiles == 17:
        win = int(np.flatnonzero(concealed[0])[-1])
        concealed[0, win] -= 1
    checked = HandBatch.from_arrays(concealed, declared, np.array([win], dtype=np.int8)).check(require_win=False)
    if checked.error[0]:
        raise HandError(ErrorCode(int(checked.error[0])), checked.messages[0].removeprefix("row 0: "))
    return checked


def shanten(hand: str, drawn=None, *, rules=None) -> Shanten:
    """Shanten of one hand, best and per shape (LRC rules sections 3, 7): a batch of one of :func:`shanten_batch`.

    Parameters
    ----------
    hand : str
        16 tiles in hand notation (docs/formats.md), or 17 (a hand after its draw).
    drawn : str, optional
        The 17th tile, for a 16-tile ``hand``.
    rules : RuleTable, profile name, path or None
        Only the shapes that win under this table count (``[win] shapes``; default every shape).

    Returns
    -------
    Shanten
        ``shanten`` 0 when ready, -1 when complete (17 tiles); a shape the hand cannot take, or that does
        not win under ``rules``, is None.

    Raises
    ------
    ValueError
        Invalid hand, naming the token (:class:`~fastscore.HandError`).
    RuleTableError
        ``rules`` cannot be loaded.

    Examples
    --------
    >>> shanten("123m456p789s11z 2345s 9m")          # one set short: two draws from complete
    Shanten(shanten=1, standard=1, nico_nico=7, thirteen_orphans=8, sixteen_orphans=8)
    >>> shanten("123m456p789s11z 2345s 9m", "1z").shanten    # discard 9m: ready on 2s and 5s
    0
    """
    # A plain ASCII str goes through one compiled call that parses and works it out; anything else, and any
    # hand that fails to parse or check, through the batch of one, which names the bad token.
    table = resolve_rules(rules)
    values = None
    if type(hand) is str and (drawn is None or type(drawn) is str) and (hand + (drawn or "")).isascii():
        text = (hand + (drawn or "")).encode()
        number_table, honour_table = shanten_tables()
        code, *found = shanten_text(text, len(hand), len(text), number_table, honour_table, table.win_shapes_bits)
        if code == 0:
            values = found
    if values is None:
        result = shanten_batch(hand_batch(hand, drawn), table)
        values = [int(column[0]) for column in (result.shanten, result.standard, result.nico_nico,
                                                result.thirteen_orphans, result.sixteen_orphans)]
    return Shanten(values[0], *(None if v == NO_SHAPE else v for v in values[1:]))


@dataclass
class DiscardResult:
    """Discard analysis of N 17-tile hands (:func:`discard_analysis`).

    Attributes
    ----------
    shanten : ndarray, shape (N, 34), int8
        ``shanten[i, x]``: shanten of hand ``i`` after discarding kind ``x`` (0: ready);
        :data:`NO_SHAPE` where ``x`` is not held (not a discard) and in flagged rows.
    useful : ndarray, shape (N, 34), int64
        Bitmask (bit ``t`` for kind ``t``) of the draws that would lower that shanten (useful draws).
    live_useful : ndarray, shape (N, 34), int16
        Live copies of the useful draws.
    live : ndarray, shape (N, 34), int16
        Live copies of each kind: 4 less the copies in the hand (declared sets and the draw included)
        and those ``seen``.
    ready_row, ready_discard : ndarray, shape (K,), int64
        The (row, discard) pairs that leave the hand ready, row by row, in tile order.
    waits : WaitsResult
        Their waits and both payouts (:func:`fastscore.waits_batch`), row ``k`` for pair ``k``.
    expected_discard, expected_self_draw : ndarray, shape (N, 34), float64
        For a discard that leaves the hand ready: the mean payout in points over its live waiting
        tiles (win on a discard / by self-draw; 0 when none is live); 0 elsewhere.
    error : ndarray, shape (N,), uint8
        :class:`~fastscore.ErrorCode` per row; ``messages`` maps row -> message.
    """

    shanten: np.ndarray
    useful: np.ndarray
    live_useful: np.ndarray
    live: np.ndarray
    ready_row: np.ndarray
    ready_discard: np.ndarray
    waits: object
    expected_discard: np.ndarray
    expected_self_draw: np.ndarray
    error: np.ndarray
    messages: dict

    def __len__(self) -> int:
        return self.shanten.shape[0]

    @property
    def best_shanten(self) -> np.ndarray:
        """``(N,) int8``: the least shanten over each hand's discards (the hand's own shanten, as
        :func:`shanten_batch` gives it); :data:`NO_SHAPE` in flagged rows."""
        return self.shanten.min(axis=1, initial=NO_SHAPE)  # a kind not held: NO_SHAPE, above every value


def _seen_rows(seen, n: int) -> np.ndarray:
    """``seen`` as ``(n, 34) int16``, checked: integers 0-4, shape (n, 34) or (34,)."""
    if seen is None:
        return np.zeros((n, N_KINDS), dtype=np.int16)
    seen = np.asarray(seen)
    if seen.shape == (N_KINDS,):
        seen = np.broadcast_to(seen, (n, N_KINDS))
    if seen.shape != (n, N_KINDS) or not np.issubdtype(seen.dtype, np.integer):
        raise ValueError(f"seen must be integer counts of shape ({n}, 34) or (34,), got {seen.shape} {seen.dtype}")
    if (seen < 0).any() or (seen > 4).any():
        raise ValueError("seen counts must be between 0 and 4")
    return np.ascontiguousarray(seen, dtype=np.int16)


def discard_analysis(batch: HandBatch, seen=None, rules=None) -> DiscardResult:
    """Every discard of every 17-tile hand of a batch: shanten after it, useful draws, live copies, and
    the waits and payouts of the discards that leave the hand ready (LRC rules sections 3, 7).

    Parameters
    ----------
    batch : HandBatch
        17-tile hands: 16 tiles as for scoring, the drawn tile in ``win``.  A row without a winning
        tile, or failing any other row check, is flagged in ``error`` and skipped.
    seen : array_like, shape (N, 34) or (34,), optional
        Copies of each kind visible elsewhere (discards, other players' exposed sets), not counting
        the hand's own tiles.  The discarded tile itself counts as seen for its waits' live copies.
    rules : RuleTable, profile name, path or None
        Rule table for the payouts and the shapes that win (``[win] shapes``); default the ``lrc`` profile.

    Returns
    -------
    DiscardResult

    Raises
    ------
    ValueError
        A batch column of the wrong dtype or shape; ``seen`` of the wrong shape, outside 0-4, or
        with more copies of a kind than the hand leaves (the first such row and tile named).
    """
    from .batch import held_counts
    from .waits import tile_efficiency, waits_batch

    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _, error = columns
    n = len(batch)
    seen_rows = _seen_rows(seen, n)
    shanten_out = np.empty((n, N_KINDS), dtype=np.int8)
    useful = np.empty((n, N_KINDS), dtype=np.int64)  # the kernel writes every value
    live_useful = np.empty((n, N_KINDS), dtype=np.int16)
    live = np.empty((n, N_KINDS), dtype=np.int16)
    codes = np.empty(n, dtype=np.uint8)
    number_table, honour_table = shanten_tables()
    discard_kernel(concealed, declared, win, seat, round_wind, streak, closing, error, seen_rows, number_table,
                   honour_table, resolve_rules(rules).win_shapes_bits, shanten_out, useful, live_useful, live, codes)
    messages = dict(batch.messages)
    new = flag_faults(columns, codes, require_win=True)
    if new:
        messages = dict(sorted({**messages, **new}.items()))
    if seen is not None:  # the row check keeps the copies held to 4 or fewer: only ``seen`` can exceed them
        held = held_counts(batch, with_win=True)
        over = (held + seen_rows > 4) & (codes == 0)[:, None]
        if over.any():
            i, t = (int(x) for x in np.argwhere(over)[0])
            raise ValueError(f"row {i}: {int(seen_rows[i, t])} {TILE_NAMES[t]} seen, but the hand holds "
                             f"{int(held[i, t])} of its 4 copies")
    # A flagged row's shanten are NO_SHAPE.  One flat search: 2-D np.nonzero costs 25x as much here.
    ready_row, ready_discard = np.divmod(np.flatnonzero(shanten_out.ravel() == 0), N_KINDS)
    # The hands left by the ready discards, as 16-tile rows for the waits kernel.
    hands16 = batch.take(ready_row)
    hands16.concealed[np.arange(ready_row.size), win[ready_row]] += 1
    hands16.concealed[np.arange(ready_row.size), ready_discard] -= 1
    hands16.win[:] = -1
    hands16.self_drawn[:] = False
    hands16.error[:] = 0
    hands16.messages = {}
    waits = waits_batch(hands16, rules)
    seen16 = seen_rows[ready_row].copy()
    seen16[np.arange(ready_row.size), ready_discard] += 1
    summary = tile_efficiency(hands16, waits, seen16)
    expected_discard = np.zeros((n, N_KINDS))
    expected_self_draw = np.zeros((n, N_KINDS))
    expected_discard[ready_row, ready_discard] = summary["expected_discard"]
    expected_self_draw[ready_row, ready_discard] = summary["expected_self_draw"]
    return DiscardResult(shanten_out, useful, live_useful, live, ready_row, ready_discard, waits, expected_discard,
                         expected_self_draw, codes, messages)


def discards(hand: str, drawn=None, *, seen=None, seat="E", round="E", flowers="", streak=0, closing=False,
             rules=None) -> list[dict]:
    """Every discard of one 17-tile hand, best first (LRC rules sections 3, 7): a batch of one of
    :func:`discard_analysis`.

    Parameters
    ----------
    hand : str
        17 tiles in hand notation (docs/formats.md), or 16 with ``drawn``.
    drawn : str, optional
        The drawn tile, for a 16-tile ``hand``.
    seen : str or array_like (34,), optional
        Tiles visible elsewhere: notation such as ``"1m1m5z"``, or counts.
    seat, round, flowers, streak, closing, rules
        As in :func:`fastscore.waits` (for the payouts).

    Returns
    -------
    list of dict
        One per distinct concealed kind, sorted by shanten, then most live useful draws, then tile:
        ``{"discard": tile, "shanten": int, "useful": [tiles], "live": int, "waits": {tile:
        {"discard": payout, "self_draw": payout}}, "expected_discard": float,
        "expected_self_draw": float}`` (``waits`` empty and expectations 0 unless ready).

    Raises
    ------
    ValueError
        Invalid hand, context or ``seen``, naming the token.
    """
    one = hand_batch(hand, drawn, allow_16=False)
    record = dict(hand=hand if drawn is not None else _sixteen_text(one), win=TILE_NAMES[int(one.win[0])],
                  seat=seat, round=round, flowers=flowers, streak=streak, closing=closing)
    batch = HandBatch.from_records([record])
    if batch.error[0]:
        raise HandError(ErrorCode(int(batch.error[0])), batch.messages[0].removeprefix("row 0: "))
    if isinstance(seen, str):
        from .tiles import _parse_tiles

        counts = np.zeros(N_KINDS, dtype=np.int16)
        for t in _parse_tiles("".join(seen.split()), seen):
            counts[t] += 1
        seen = counts
    result = discard_analysis(batch, None if seen is None else np.asarray(seen).reshape(1, N_KINDS), rules)
    pairs = {int(x): k for k, x in enumerate(result.ready_discard.tolist())}
    out = []
    for x in np.flatnonzero(result.shanten[0] != NO_SHAPE).tolist():
        useful = int(result.useful[0, x])
        k = pairs.get(x)
        out.append({
            "discard": TILE_NAMES[x],
            "shanten": int(result.shanten[0, x]),
            "useful": [TILE_NAMES[t] for t in range(N_KINDS) if useful >> t & 1],
            "live": int(result.live_useful[0, x]),
            "waits": {} if k is None else result.waits.waits_at(k),
            "expected_discard": float(result.expected_discard[0, x]),
            "expected_self_draw": float(result.expected_self_draw[0, x]),
        })
    out.sort(key=lambda d: (d["shanten"], -d["live"], TILE_NAMES.index(d["discard"])))
    return out


def _sixteen_text(one: HandBatch) -> str:
    """The 16 tiles of a batch of one (its concealed tiles and declared sets) in section 8 notation."""
    from .tiles import format_counts, format_set

    sets = [format_set(SetKind(int(k)), int(t)) for k, t in one.declared[0] if k]
    return " ".join([format_counts(one.concealed[0]), *sets])
