"""Public scoring API: :func:`score_batch`, :func:`win_check`, :func:`score` (one hand, one compiled call)
and :func:`interpretations` (one hand, every reading).

There is one scoring code path, :func:`fastscore.kernels.score.interpret_loaded`
(after :func:`fastscore.kernels.features.load_hand`); everything here
validates, allocates, calls the kernels and packs results.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .batch import HandBatch
from .checks import flag_faults, kernel_columns
from .events import checked_events
from .kernels.checks import MAX_STREAK
from .kernels.score import (
    INFO_A,
    INFO_C,
    INFO_CHICKEN,
    INFO_LEGAL,
    INFO_PAYOUT,
    INFO_POINTS,
    INFO_SHAPE,
    INFO_TOTAL,
    interpretations_kernel,
)
from .kernels.batch_loops import count_scoring_rows, score_kernel, win_check_kernel
from .kernels.single import score_text
from .rules import ROW_IDS, SHAPE_NAMES, RuleTable, Shape, default_rules, resolve_rules, try_resolve_rules
from .tables import completeness_bits, kernel_tables, word_groups
from .tiles import TILE_NAMES, WIND_INDEX, ErrorCode, HandError, SetKind, format_set

__all__ = ["Score", "BatchResult", "score", "score_batch", "interpretations", "win_check"]


def _rows_dict(row_points, row_ids=ROW_IDS) -> dict[str, int]:
    return {row_ids[r]: int(v) for r, v in enumerate(row_points) if v}


@dataclass(frozen=True)
class Score:
    """The score of one hand (LRC rules section 6).

    Attributes
    ----------
    is_win : bool
        The hand has an interpretation (section 3).
    shape : str or None
        ``"standard"``, ``"nico_nico"``, ``"thirteen_orphans"``, ``"sixteen_orphans"``.
    rows : dict
        Row id -> points (LRC rules row ids; dealer rows included, 9.12).
    points : int
        Sum of the rows before the base (6.1).
    chicken, legal : bool
    total, payout : int
        Points, base included (6.2); what the winner is paid (6.4; 0 if not legal).
    """

    is_win: bool
    shape: str | None
    rows: dict = field(default_factory=dict)
    points: int = 0
    chicken: bool = False
    total: int = 0
    legal: bool = False
    payout: int = 0

    def to_dict(self) -> dict:
        """``{is_win, shape, rows, points, chicken, total, legal, payout}``."""
        return {
            "is_win": self.is_win,
            "shape": self.shape,
            "rows": dict(self.rows),
            "points": self.points,
            "chicken": self.chicken,
            "total": self.total,
            "legal": self.legal,
            "payout": self.payout,
        }


def _new_score(**fields) -> Score:
    """``Score(**fields)`` for all eight fields, without the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` a field: a fifth of a single call's time); the object is the same."""
    score = object.__new__(Score)
    score.__dict__.update(fields)
    return score


@dataclass
class BatchResult:
    """Scores of N hands, as columns.

    Attributes
    ----------
    payout, total, points : ndarray, shape (N,), int32
        Section 6 values of each hand's best interpretation (0 for non-wins and bad rows).
    legal, is_win, chicken : ndarray, shape (N,), bool
    shape : ndarray, shape (N,), int8
        :class:`~fastscore.rules.Shape` value, -1 for no interpretation.
    row_points : ndarray, shape (N, R), int16
        Points per row in force in the rule table, columns in :attr:`row_ids` order (the 45
        :data:`fastscore.ROW_IDS` of the LRC rules for the default table); no columns (R = 0) from
        ``score_batch(..., rows=False)``.
    error : ndarray, shape (N,), uint8
        :class:`~fastscore.ErrorCode` per row (0: scored).
    messages : dict
        Row number -> error message for flagged rows.
    row_ids : tuple of str
        The ids of the rows in force in the rule table (:attr:`fastscore.RuleTable.row_ids`): the
        columns of :attr:`row_points`.
    """

    payout: np.ndarray
    total: np.ndarray
    points: np.ndarray
    legal: np.ndarray
    is_win: np.ndarray
    chicken: np.ndarray
    shape: np.ndarray
    row_points: np.ndarray
    error: np.ndarray
    messages: dict
    row_ids: tuple

    def to_arrow(self):
        """The result as a pyarrow Table, with the Parquet output schema of ``fastscore batch``."""
        from .io import result_table

        return result_table(self, "score")

    def __len__(self) -> int:
        return self.payout.shape[0]

    def row_counts(self) -> np.ndarray:
        """``(R,) int64``: the number of hands in which each row scores (a nonzero entry of
        :attr:`row_points`), in :attr:`row_ids` order.  From :func:`score_batch`, flagged
        rows and non-wins have all-zero row points, so they count in no row."""
        counts = np.zeros(len(self.row_ids), dtype=np.int64)
        count_scoring_rows(self.row_points, counts)
        return counts

    def shape_name(self, i: int) -> str | None:
        s = int(self.shape[i])
        return SHAPE_NAMES[s] if s >= 0 else None

    def score_at(self, i: int) -> Score:
        """Row ``i`` as a :class:`Score` (bad rows look like non-wins; see :attr:`error`)."""
        return Score(
            is_win=bool(self.is_win[i]),
            shape=self.shape_name(i),
            rows=_rows_dict(self.row_points[i], self.row_ids),
            points=int(self.points[i]),
            chicken=bool(self.chicken[i]),
            total=int(self.total[i]),
            legal=bool(self.legal[i]),
            payout=int(self.payout[i]),
        )

    def to_records(self) -> Iterator[dict]:
        """One :meth:`Score.to_dict` per row plus ``error`` (None, or the message)."""
        for i in range(len(self)):
            record = self.score_at(i).to_dict()
            record["error"] = self.messages.get(i) if self.error[i] else None
            yield record


#: The arrays of a :class:`BatchResult` and their dtypes, in field order, as :func:`score_batch` makes them (and
#: checks ``out``): dtype objects, not scalar types, which numpy allocates with without converting.
_OUT_DTYPES = {name: np.dtype(dtype) for name, dtype in (
    ("payout", np.int32), ("total", np.int32), ("points", np.int32), ("legal", np.bool_), ("is_win", np.bool_),
    ("chicken", np.bool_), ("shape", np.int8), ("row_points", np.int16), ("error", np.uint8))}


def score_batch(batch: HandBatch, rules=None, *, rows: bool = True, out: BatchResult | None = None) -> BatchResult:
    """Score every hand of a batch with one parallel kernel (LRC rules sections 3 to 6).

    Parameters
    ----------
    batch : HandBatch
        N hands; flagged rows (``batch.error != 0``) are skipped and keep their error.
    rules : RuleTable, str, path or None
        Rule table, profile name (``"lrc"``, ``"taiwan"``) or path; default the ``lrc`` profile.
    rows : bool
        Work out each hand's points per row (``row_points``, (N, R) int16). False: only the totals
        (payout, total, points, legal, chicken, shape), the same values, faster; ``row_points`` is then
        (N, 0) and ``row_ids`` empty.
    out : BatchResult, optional
        The result of an earlier call with as many hands and the same ``rows`` and table: its arrays
        are overwritten and it is returned, so that a loop scoring batch after batch allocates nothing.
        Every value is written again (nothing stays from the earlier batch).

    Returns
    -------
    BatchResult
        Columns of length N, in input order (``out`` when given).

    Raises
    ------
    ValueError
        ``out`` does not fit: another number of hands, of row columns or another type.
    """
    table = resolve_rules(rules)
    columns = kernel_columns(batch)
    concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, events, error = columns
    n = len(batch)
    row_ids = table.row_ids if rows else ()
    if out is None:
        # The kernel writes every value of every row: nothing to zero.
        out = BatchResult(*[np.empty(shape, dtype) for _, shape, dtype in _out_layout(n, len(row_ids))],
                          dict(batch.messages), row_ids)
    else:
        _check_out(out, n, len(row_ids))
        out.messages = dict(batch.messages)
        out.row_ids = row_ids
    score_kernel(
        concealed,
        declared,
        win,
        self_drawn,
        seat,
        round_wind,
        flowers,
        streak,
        closing,
        events,
        error,
        table.packed,
        kernel_tables(),
        out.payout,
        out.total,
        out.points,
        out.legal,
        out.is_win,
        out.chicken,
        out.shape,
        out.row_points,
        out.error,
    )
    new = flag_faults(columns, out.error, require_win=True)
    if new:
        out.messages = dict(sorted({**out.messages, **new}.items()))
    return out


@lru_cache(maxsize=64)
def _out_layout(n: int, n_columns: int) -> tuple:
    """``(name, shape, dtype)`` of each array of a :class:`BatchResult` of ``n`` hands and ``n_columns`` row
    columns, in the order of its fields (:data:`_OUT_DTYPES`' order)."""
    return tuple((name, (n, n_columns) if name == "row_points" else (n,), dtype) for name, dtype in _OUT_DTYPES.items())


def _check_out(out, n: int, n_columns: int) -> None:
    """Raise ValueError unless ``out`` is a :class:`BatchResult` whose arrays the score kernel can fill
    for ``n`` hands and ``n_columns`` row columns."""
    if not isinstance(out, BatchResult):
        raise ValueError(f"out must be a BatchResult of an earlier score_batch call, got {type(out).__name__}")
    for name, shape, dtype in _out_layout(n, n_columns):
        array = getattr(out, name)
        if not (isinstance(array, np.ndarray) and array.dtype == dtype and array.shape == shape
                and array.flags.c_contiguous and array.flags.writeable):
            raise ValueError(f"out.{name} must be a writable C-contiguous {np.dtype(dtype).name} array of shape "
                             f"{shape} for this batch (as score_batch made it with the same rows= and table), got "
                             f"{getattr(array, 'dtype', type(array).__name__)} {getattr(array, 'shape', '')}")


def win_check(batch: HandBatch, rules=None) -> np.ndarray:
    """Which hands are wins: the win check alone, without scoring (LRC rules section 3).

    Parameters
    ----------
    batch : HandBatch
        N hands with their winning tiles; flagged rows (``batch.error != 0``) are skipped.
    rules : RuleTable, profile name, path or None
        The table whose ``[win] shapes`` make a win (default: the ``lrc`` profile, every shape).

    Returns
    -------
    (N,) bool
        ``True`` where the 16 tiles and the winning tile make some shape of
        section 3 (standard, Nico Nico, 13 Orphans, 16 Orphans) that the table lets win: the rows
        with ``score_batch(batch, rules).is_win``.  ``False`` for flagged rows.

    Raises
    ------
    ValueError
        A column of the wrong dtype or shape (:func:`fastscore.checks.kernel_columns`).
    RuleTableError
        ``rules`` cannot be loaded.
    """
    table = resolve_rules(rules)
    concealed, declared, win, _, seat, round_wind, _, streak, closing, _, error = kernel_columns(batch)
    out = np.zeros(len(batch), dtype=_OUT_DTYPES["is_win"])
    codes = np.empty(len(batch), dtype=_OUT_DTYPES["error"])
    win_check_kernel(concealed, declared, win, seat, round_wind, streak, closing, error, completeness_bits(),
                     table.win_shapes_bits, out, codes)
    return out


def _single(hand, win, self_drawn, seat, round, flowers, streak, closing, events=None) -> HandBatch:
    """A validated batch of one hand; raises ``ValueError`` naming the bad token."""
    record = dict(hand=hand, win=win, self_drawn=self_drawn, seat=seat, round=round,
                  flowers=flowers, streak=streak, closing=closing, events=events)
    batch = HandBatch.from_records([record])
    if batch.error[0]:
        raise HandError(ErrorCode(int(batch.error[0])), batch.messages[0].removeprefix("row 0: "))
    return batch


#: :func:`score`'s per-thread arrays: its row-points array by length (a call allocates none).
_LOCAL = threading.local()


def score(hand: str, win: str, *, self_drawn=False, seat="E", round="E", flowers="", streak=0,
          closing=False, events=None, rules=None) -> Score:
    """Score one winning hand (LRC rules sections 3 to 6), in one compiled call that parses and scores
    (:func:`fastscore.kernels.single.score_text`; a batch of one for other argument types and errors).

    Parameters
    ----------
    hand : str
        The 16 tiles before the win in hand notation (docs/formats.md).
    win : str or int
        The winning tile, e.g. ``"9s"``; or its tile index 0-33 as :attr:`HandBatch.win` holds it
        (``26`` is 9s; :func:`fastscore.records.parse_win`).
    self_drawn : bool
        Won by self-draw rather than on a discard (also ``1``/``0`` and the notation's
        ``"true"``/``"false"``/``"yes"``/``"no"``; ``2`` is refused).  For every context argument,
        None means its default, as a null or empty field does in a record.
    seat, round : str or int
        ``"E" "S" "W" "N"`` (upper case, as in hand notation; ``"s"`` is refused), or 0-3 in that
        order as :class:`HandBatch` holds winds (``seat=1`` is ``seat="S"``).
    flowers : str
        Flowers and seasons held, e.g. ``"1f5f"``.
    streak : int
        The dealer's streak (consecutive earlier wins).
    closing : bool
        Closing was declared (needs a concealed hand).
    events : str, list of str or None
        The win's timing events (:mod:`fastscore.events`), e.g. ``"last_tile"`` or
        ``["after_gong", "last_tile"]``; default none.  Only the Taiwanese profiles score them.
    rules : RuleTable, str, path or None
        Rule table, profile name (``"lrc"``, ``"taiwan"``) or path; default the ``lrc`` profile.

    Returns
    -------
    Score
        Points in points; ``payout`` 0 for an illegal or non-winning hand.

    Raises
    ------
    ValueError
        Invalid hand or context; the message names the token and the reason (an unknown event,
        or an event that cannot happen with this win).

    Examples
    --------
    >>> score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S").total
    57
    """
    table = default_rules() if rules is None else try_resolve_rules(rules)
    # The common call (plain str, bool and int arguments, ASCII text) goes through one compiled call that
    # parses and scores; anything else, and any hand that fails to parse or check, through the batch of
    # one, which gives the same score and names the bad token.
    if (table is not None and type(hand) is str and type(win) is str and type(flowers) is str
            and type(self_drawn) is bool and type(closing) is bool and type(streak) is int
            and 0 <= streak <= MAX_STREAK and type(seat) is str and type(round) is str
            and seat in WIND_INDEX and round in WIND_INDEX and (events is None or type(events) is str)):
        bits = checked_events(events, self_drawn, WIND_INDEX[seat], closing) if events else 0
        text = hand + win + flowers
        if text.isascii():
            _, suit_entries, dec_words = kernel_tables()
            row_ids = table.row_ids
            # This thread's row-points array of this length, taken out while in use (a signal handler that
            # scores a hand meanwhile makes its own).
            arrays = _LOCAL.__dict__
            row_points = arrays.pop(len(row_ids), None)
            if row_points is None:
                row_points = np.empty(len(row_ids), dtype=_OUT_DTYPES["row_points"])
            code, is_win, shape, points, chicken, total, legal, payout = score_text(
                text.encode(), len(hand), len(hand) + len(win), len(text),
                self_drawn, WIND_INDEX[seat], WIND_INDEX[round], streak, closing, bits, table.packed, suit_entries,
                dec_words, row_points)
            if code == 0:  # numba returns Python ints and bools
                values = row_points.tolist()
                rows = {row_ids[r]: values[r] for r in row_points.nonzero()[0].tolist()}
                arrays[len(row_ids)] = row_points
                return _new_score(is_win=is_win, shape=SHAPE_NAMES[shape] if shape >= 0 else None, rows=rows,
                                  points=points, chicken=chicken, total=total, legal=legal, payout=payout)
    return score_batch(_single(hand, win, self_drawn, seat, round, flowers, streak, closing, events),
                       rules if table is None else table).score_at(0)


def _groups(info_row, counts, declared) -> list[str]:
    """Readable groups of one interpretation, e.g. ``['11m (eyes)', '123p', '[234s]']``.

    ``counts`` is the (34,) concealed tiles with the winning tile.
    """
    shape = Shape(int(info_row[INFO_SHAPE]))
    a, b, c = (int(v) for v in info_row[INFO_A : INFO_C + 1])
    if shape == Shape.NICO_NICO:
        return [f"seven pairs + {format_set(SetKind.PONG, a)[1:-1]}"]
    if shape == Shape.THIRTEEN_ORPHANS:
        return [f"13 orphans, eyes {TILE_NAMES[a]}, extra {format_set(SetKind(b), c)[1:-1]}"]
    if shape == Shape.SIXTEEN_ORPHANS:
        return [f"16 orphans, eyes {TILE_NAMES[a]}"]
    dec_words = kernel_tables()[2]
    groups = []
    for index, base in ((a, 0), (b, 9), (c, 18)):
        groups += word_groups(int(dec_words[index]), base)
    for t in range(27, 34):
        if counts[t] == 2:
            groups.append(("eyes", t))
        elif counts[t] == 3:
            groups.append(("pong", t))
    text = []
    for kind, tile in groups:
        if kind == "eyes":
            text.append(f"{TILE_NAMES[tile][0] * 2}{TILE_NAMES[tile][1]} (eyes)")
        else:
            text.append(format_set(SetKind.PONG if kind == "pong" else SetKind.SHEUNG, tile)[1:-1])
    return text + [format_set(SetKind(int(k)), int(t)) for k, t in declared if k]


def interpretations(hand: str, win: str, *, self_drawn=False, seat="E", round="E", flowers="", streak=0,
                    closing=False, events=None, rules=None) -> list[dict]:
    """Every interpretation of one winning hand, scored (LRC rules sections 3, 6, 9.13).

    Same parameters and errors as :func:`score`.  Returns one dict per
    interpretation, in tie-break order: ``shape``, ``groups`` (readable sets,
    exposed ones in brackets), ``rows``, ``points``, ``chicken``, ``total``,
    ``legal``, ``payout``.  The hand's score is the best of them.
    """
    batch = _single(hand, win, self_drawn, seat, round, flowers, streak, closing, events)
    table: RuleTable = resolve_rules(rules)
    n, info, rows = interpretations_kernel(
        batch.concealed[0], batch.declared[0], int(batch.win[0]), bool(batch.self_drawn[0]), int(batch.seat[0]),
        int(batch.round[0]), int(batch.flowers[0]), int(batch.streak[0]), bool(batch.closing[0]), int(batch.events[0]),
        table.packed,
        kernel_tables(),
    )
    counts = batch.concealed[0].astype(np.int64)
    counts[batch.win[0]] += 1
    return [
        {
            "shape": SHAPE_NAMES[int(info[j, INFO_SHAPE])],
            "groups": _groups(info[j], counts, batch.declared[0]),
            "rows": _rows_dict(rows[j], table.row_ids),
            "points": int(info[j, INFO_POINTS]),
            "chicken": bool(info[j, INFO_CHICKEN]),
            "total": int(info[j, INFO_TOTAL]),
            "legal": bool(info[j, INFO_LEGAL]),
            "payout": int(info[j, INFO_PAYOUT]),
        }
        for j in range(n)
    ]
