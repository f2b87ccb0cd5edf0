"""Hand efficiency: shanten of 16- and 17-tile hands (RULES.md sections 2, 3 and 7).

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
from .kernels.shanten import NO_SHAPE, shanten_kernel
from .shanten_tables import shanten_tables
from .tiles import MAX_DECLARED, ErrorCode, HandError, parse_hand, parse_tile

__all__ = ["NO_SHAPE", "SHAPE_NAMES", "Shanten", "ShantenResult", "shanten", "shanten_batch"]

#: The shapes of RULES.md section 3, in the order of :class:`ShantenResult`'s per-shape columns.
SHAPE_NAMES = ("standard", "nico_nico", "thirteen_orphans", "sixteen_orphans")


@dataclass
class ShantenResult:
    """Shanten of N hands (16 tiles, or 17 with the draw).

    Attributes
    ----------
    shanten : ndarray, shape (N,), int8
        Best over the shapes: 0 ready, -1 complete (17 tiles), k > 0 that many exchanges from ready.
    standard, nico_nico, thirteen_orphans, sixteen_orphans : ndarray, shape (N,), int8
        Shanten in each shape of RULES.md section 3; :data:`NO_SHAPE` (127) where the hand cannot
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


def shanten_batch(batch: HandBatch) -> ShantenResult:
    """Shanten of every hand of a batch, best and per shape (RULES.md sections 2, 3, 7).

    Parameters
    ----------
    batch : HandBatch
        Rows with ``win`` -1 are 16-tile hands; rows with a winning tile are
        17-tile hands, the tile in ``win`` being the draw.  Every row is
        checked (:func:`fastscore.kernels.checks.row_fault`); a bad row is
        flagged in ``error`` with its message, and the rest are worked out.

    Returns
    -------
    ShantenResult

    Raises
    ------
    ValueError
        If ``batch`` is not a HandBatch or a column has the wrong dtype or shape.
    """
    columns = kernel_columns(batch)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, error = columns
    n = len(batch)
    out = np.empty((n, 5), dtype=np.int8)
    codes = np.empty(n, dtype=np.uint8)
    number_table, honour_table = shanten_tables()
    shanten_kernel(concealed, declared, win, seat, round_wind, streak, closing, error, number_table, honour_table,
                   out, codes)
    messages = dict(batch.messages)
    new = flag_faults(columns, codes, require_win=False)
    if new:
        messages = dict(sorted({**messages, **new}.items()))
    return ShantenResult(out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4], codes, messages)


def hand_batch(hand: str, drawn=None, *, allow_16: bool = True) -> HandBatch:
    """A checked batch of one from a hand in RULES.md section 8 notation: 16 tiles (with ``drawn``, a
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


def shanten(hand: str, drawn=None) -> Shanten:
    """Shanten of one hand, best and per shape (RULES.md sections 3, 7): a batch of one of :func:`shanten_batch`.

    Parameters
    ----------
    hand : str
        16 tiles in RULES.md section 8 notation, or 17 (a hand after its draw).
    drawn : str, optional
        The 17th tile, for a 16-tile ``hand``.

    Returns
    -------
    Shanten
        ``shanten`` 0 when ready, -1 when complete (17 tiles); a shape the hand cannot take is None.

    Raises
    ------
    ValueError
        Invalid hand, naming the token (:class:`~fastscore.HandError`).

    Examples
    --------
    >>> shanten("123m456p789s11z 2345s 9m")    # 17 tiles: discard 9m, ready on 2s 5s (eyes) ...
    Shanten(shanten=0, standard=0, nico_nico=6, thirteen_orphans=9, sixteen_orphans=9)
    """
    result = shanten_batch(hand_batch(hand, drawn))
    values = [int(column[0]) for column in (result.shanten, result.standard, result.nico_nico,
                                            result.thirteen_orphans, result.sixteen_orphans)]
    return Shanten(values[0], *(None if v == NO_SHAPE else v for v in values[1:]))
