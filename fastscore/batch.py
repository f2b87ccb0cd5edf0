"""Columnar batches of hands and their validation (RULES.md section 2).

A :class:`HandBatch` holds N hands as arrays; every public scoring function
takes one.  Validation happens here, once, vectorised: a bad row gets an
:class:`~fastscore.tiles.ErrorCode` and a message naming the culprit, and is
skipped by the kernels; every other row is scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ._jit import jit_batch, prange

from .tiles import (
    MAX_DECLARED,
    N_KINDS,
    TILE_NAMES,
    ErrorCode,
    HandError,
    SetKind,
    parse_flowers,
    parse_hand,
    parse_tile,
    parse_wind,
)

__all__ = ["HandBatch", "RECORD_KEYS", "parse_record"]

#: Keys of a hand record (JSON lines, CSV columns, dicts).
RECORD_KEYS = ("hand", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing")
#: The array columns of a :class:`HandBatch`, in field order.
COLUMN_NAMES = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "error")


def _flag(value, field_name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if value is None or value == "":
        return False
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.strip().lower() in ("true", "1", "yes")
    raise HandError(ErrorCode.BAD_CONTEXT, f"{field_name} {value!r} is not true or false")


def _streak(value) -> int:
    if value is None or value == "":
        return 0
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
        raise HandError(ErrorCode.BAD_CONTEXT, f"streak {value!r} is not a whole number") from None
    if isinstance(value, float) and value != n or isinstance(value, bool):
        raise HandError(ErrorCode.BAD_CONTEXT, f"streak {value!r} is not a whole number")
    if not 0 <= n <= 1000:
        raise HandError(ErrorCode.BAD_CONTEXT, f"streak {n} is out of range (0 to 1000)")
    return n


def _missing_as(value, default):
    """``default`` for a missing field (None, or an empty CSV cell); any other value as given.

    Not ``value or default``: that read ``False``, ``0.0`` and ``[]`` as East without a word.
    """
    return default if value is None or (isinstance(value, str) and value == "") else value


def parse_record(record: Mapping, require_win: bool = True) -> tuple:
    """Parse one hand record into column values.

    Returns
    -------
    tuple
        (concealed (34,) uint8, declared (5, 2) int8, win, self_drawn, seat,
        round, flowers bitmask, streak, closing)

    Raises
    ------
    HandError (a ValueError)
        Naming the bad token or field.
    """
    if not isinstance(record, Mapping):
        raise HandError(ErrorCode.BAD_TOKEN, f"a hand record must be a mapping with keys {RECORD_KEYS}, got {type(record).__name__}")
    if "hand" not in record:
        raise HandError(ErrorCode.BAD_TOKEN, "record has no 'hand'")
    hand = parse_hand(record["hand"])
    win_text = record.get("win") if require_win else None
    if win_text is None or win_text == "":
        if require_win:
            raise HandError(ErrorCode.BAD_WIN, "record has no winning tile 'win'")
        win = -1
    else:
        if not isinstance(win_text, str):
            raise HandError(ErrorCode.BAD_WIN, f"winning tile {win_text!r} is not a tile")
        if win_text.strip().endswith("f"):
            raise HandError(ErrorCode.BAD_WIN, f"winning tile {win_text!r} is a flower; flowers never complete a hand")
        try:
            win = parse_tile(win_text)
        except HandError as exc:
            raise HandError(ErrorCode.BAD_WIN, f"winning tile: {exc}") from None
    declared = np.zeros((MAX_DECLARED, 2), dtype=np.int8)
    for k, (kind, tile) in enumerate(hand.declared):
        declared[k] = (kind, tile)
    flowers = 0
    for n in parse_flowers(record.get("flowers") or ""):
        flowers |= 1 << (n - 1)
    return (
        hand.concealed,
        declared,
        win,
        _flag(record.get("self_drawn", False), "self_drawn"),
        parse_wind(_missing_as(record.get("seat"), "E"), "seat"),
        parse_wind(_missing_as(record.get("round"), "E"), "round"),
        flowers,
        _streak(record.get("streak", 0)),
        _flag(record.get("closing", False), "closing"),
    )


def _text_values(field: np.ndarray):
    """A structured array's field as :meth:`HandBatch.from_arrow` takes it: text (``U``, object) as a
    list of str, bytes (``S``) decoded as UTF-8 (an undecodable byte becomes U+FFFD, and its row is
    flagged by the parser), numbers as they are."""
    if field.dtype.kind == "S":
        return [v.decode("utf-8", "replace") for v in field.tolist()]
    return field.tolist() if field.dtype.kind in "OU" else field


def decoded_records(records: list[dict], keys) -> list[dict]:
    """``records`` read from Arrow columns, with the values of ``keys`` (text columns stored as
    binary, so ``bytes``) decoded as UTF-8 as :func:`_text_values` decodes them (an undecodable
    byte becomes U+FFFD)."""
    keys = set(keys)
    if not keys:
        return records
    return [{k: v.decode("utf-8", "replace") if k in keys and isinstance(v, bytes) else v for k, v in r.items()}
            for r in records]


@dataclass(eq=False)  # == is identity: element-wise == of the columns has no truth value
class HandBatch:
    """N hands as columns (RULES.md section 2).

    Attributes
    ----------
    concealed : ndarray, shape (N, 34), uint8
        Concealed tile counts, without the winning tile (Tenhou order).
    declared : ndarray, shape (N, 5, 2), int8
        Declared sets as (SetKind, lowest tile); kind 0 pads unused slots.
    win : ndarray, shape (N,), int8
        Winning tile 0-33, or -1 for 16-tile hands awaiting waits analysis.
    self_drawn, closing : ndarray, shape (N,), bool
    seat, round : ndarray, shape (N,), uint8
        Winds 0-3 (E S W N).
    flowers : ndarray, shape (N,), uint8
        Bitmask, bit n-1 set when flower/season n is held.
    streak : ndarray, shape (N,), int32
        The dealer's streak.
    error : ndarray, shape (N,), uint8
        :class:`ErrorCode` of each row, 0 when valid.
    messages : dict
        Row number -> error message, for flagged rows.

    Notes
    -----
    The constructors (:meth:`from_records`, :meth:`from_arrays`,
    :meth:`from_arrow`, :meth:`from_structured`, the file readers of
    :mod:`fastscore.io` and the samplers of :mod:`fastscore.sample`) validate
    every row once and return a *sealed* batch: its columns are immutable
    (their memory is a ``bytes`` object, so numpy will neither write into them,
    make them writable again nor resize them), and the scoring functions trust
    it without running the row checks again.  Writing into a column raises
    ``ValueError: assignment destination is read-only``; :meth:`take` gives a
    writable copy.  A copy, a batch built directly (``HandBatch(...)``,
    :meth:`empty`) or one whose column was swapped or changed in place (new
    strides, say) is not sealed: the row checks of
    :func:`fastscore.checks.checked` then run on every call, so no bad row
    reaches the kernels, which do not check bounds.
    """

    concealed: np.ndarray
    declared: np.ndarray
    win: np.ndarray
    self_drawn: np.ndarray
    seat: np.ndarray
    round: np.ndarray
    flowers: np.ndarray
    streak: np.ndarray
    closing: np.ndarray
    error: np.ndarray
    messages: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return self.concealed.shape[0]

    def _seal(self, require_win: bool) -> "HandBatch":
        """Mark this batch validated (with ``require_win`` as given) and make its columns immutable; return it.

        Only for a batch whose rows :func:`validate` (or the compiled row checks) has just
        flagged.  Each column is replaced by a copy whose memory is a ``bytes`` object:
        numpy will not make such an array writable again nor resize it.  The arrays
        themselves (kept alive) and their addresses, shapes and strides are remembered,
        so that :meth:`is_sealed` notices any other change (a column swapped, its
        strides or state set).
        """
        for name in COLUMN_NAMES:
            setattr(self, name, _frozen(getattr(self, name)))
        # An attribute, not a dataclass field: asdict() and replace() see only the columns.
        self._sealed = (bool(require_win), tuple(_Layout(getattr(self, name)) for name in COLUMN_NAMES))
        return self

    def is_sealed(self, *, require_win: bool) -> bool:
        """True when the batch was validated at construction (for ``require_win``, or with a winning
        tile required, which is stricter) and its columns are still those immutable arrays."""
        sealed = self.__dict__.get("_sealed")
        if sealed is None or (require_win and not sealed[0]):
            return False
        return all(_Layout(getattr(self, name)) == layout for name, layout in zip(COLUMN_NAMES, sealed[1]))

    def _add_flags(self, rows, codes, messages) -> None:
        """Flag ``rows`` (row numbers) with ``codes`` (one, or one per row) and the matching ``messages``,
        sealed or not.

        A flagged row is skipped by the kernels, so a sealed batch stays sealed: its
        error column is replaced by a flagged immutable copy.
        """
        rows = list(rows)
        if not rows:
            return
        if self.is_sealed(require_win=False):
            error = self.error.copy()
            error[rows] = codes
            self.error = _frozen(error)
            k = COLUMN_NAMES.index("error")
            layouts = self._sealed[1]
            self._sealed = (self._sealed[0], layouts[:k] + (_Layout(self.error),) + layouts[k + 1:])
        else:
            self.error[rows] = codes
        for i, message in zip(rows, messages):
            self.messages[int(i)] = message

    def _read_only(self) -> "HandBatch":
        """This batch if its columns are all read-only, else a batch of read-only views of them
        (the kernels are compiled for read-only input columns only: one build each)."""
        if not any(getattr(self, name).flags.writeable for name in COLUMN_NAMES):
            return self
        views = {}
        for name in COLUMN_NAMES:
            view = getattr(self, name).view()
            view.flags.writeable = False
            views[name] = view
        return HandBatch(**views, messages=self.messages)

    @property
    def ok(self) -> np.ndarray:
        """``(N,) bool``: rows that passed validation."""
        return self.error == 0

    @classmethod
    def empty(cls, n: int) -> "HandBatch":
        """A batch of ``n`` zeroed rows (to be filled in)."""
        return cls(
            concealed=np.zeros((n, N_KINDS), dtype=np.uint8),
            declared=np.zeros((n, MAX_DECLARED, 2), dtype=np.int8),
            win=np.full(n, -1, dtype=np.int8),
            self_drawn=np.zeros(n, dtype=np.bool_),
            seat=np.zeros(n, dtype=np.uint8),
            round=np.zeros(n, dtype=np.uint8),
            flowers=np.zeros(n, dtype=np.uint8),
            streak=np.zeros(n, dtype=np.int32),
            closing=np.zeros(n, dtype=np.bool_),
            error=np.zeros(n, dtype=np.uint8),
        )

    @classmethod
    def from_records(cls, records: Iterable[Mapping], *, require_win: bool = True) -> "HandBatch":
        """Build a batch from hand records (dicts with the :data:`RECORD_KEYS`).

        ``win`` may be absent only when ``require_win`` is False (waits analysis).
        A record that cannot be parsed becomes a flagged row; nothing raises.
        Without ``require_win`` a record's ``win`` is ignored (16-tile hands).
        """
        records = list(records)
        batch = cls.empty(len(records))
        for i, record in enumerate(records):
            try:
                values = parse_record(record, require_win)
            except HandError as exc:
                batch.error[i] = exc.code
                batch.messages[i] = f"row {i}: {exc}"
                continue
            except (TypeError, ValueError, OverflowError) as exc:
                # A value of an unforeseen type (say an array as a flag): flag the row, never stop the batch.
                batch.error[i] = ErrorCode.BAD_CONTEXT
                batch.messages[i] = f"row {i}: unreadable record ({type(exc).__name__}: {exc})"
                continue
            (
                batch.concealed[i],
                batch.declared[i],
                batch.win[i],
                batch.self_drawn[i],
                batch.seat[i],
                batch.round[i],
                batch.flowers[i],
                batch.streak[i],
                batch.closing[i],
            ) = values
        validate(batch, require_win=require_win)
        return batch._seal(require_win)

    @classmethod
    def from_arrays(
        cls,
        concealed,
        declared=None,
        win=None,
        *,
        self_drawn=False,
        seat=0,
        round=0,
        flowers=0,
        streak=0,
        closing=False,
    ) -> "HandBatch":
        """Build a batch from arrays (research scripts); scalars broadcast.

        Parameters
        ----------
        concealed : array_like, shape (N, 34)
            Concealed tile counts 0-4 (any integer dtype).
        declared : array_like, shape (N, 5, 2), optional
            (SetKind, lowest tile) per declared set; default none.
        win : array_like, shape (N,), optional
            Winning tile 0-33.  Omitted, or -1 in every row: a batch of 16-tile
            hands for waits analysis (no row is flagged for lacking a winning
            tile; -1 in only some rows flags those rows).
        self_drawn, seat, round, flowers, streak, closing : scalar or (N,)
            As in :class:`HandBatch`; winds as 0-3.

        Raises
        ------
        ValueError
            If ``concealed`` is not a 2-D array with 34 columns (the whole
            batch is unusable); bad values in a row only flag that row.
        """
        raw = np.asarray(concealed)
        if raw.ndim != 2 or raw.shape[1] != N_KINDS:
            raise HandError(ErrorCode.BAD_ARRAY, f"concealed must have shape (N, 34), got {raw.shape}")
        if not (np.issubdtype(raw.dtype, np.integer) or raw.dtype == np.bool_):
            raise HandError(ErrorCode.BAD_ARRAY, f"concealed must hold integers, got dtype {raw.dtype}")
        n = raw.shape[0]
        batch = cls.empty(n)
        bad_counts = ((raw < 0) | (raw > 4)).any(axis=1)
        batch.concealed[:] = np.where(bad_counts[:, None], 0, raw).astype(np.uint8)
        for i in np.flatnonzero(bad_counts):
            t = int(np.flatnonzero((raw[i] < 0) | (raw[i] > 4))[0])
            i = int(i)
            batch.error[i] = ErrorCode.BAD_ARRAY
            batch.messages[int(i)] = f"row {i}: count {raw[i, t]} of {TILE_NAMES[t]} is out of range (0 to 4)"
        if declared is not None:
            d = np.asarray(declared)
            if d.shape != (n, MAX_DECLARED, 2) or not np.issubdtype(d.dtype, np.integer):
                raise HandError(ErrorCode.BAD_ARRAY, f"declared must be integers of shape ({n}, {MAX_DECLARED}, 2), got {d.shape} {d.dtype}")
            bad_slot = (d[:, :, 0] < 0) | (d[:, :, 0] > 4) | (d[:, :, 1] < 0) | (d[:, :, 1] >= N_KINDS)
            bad = bad_slot.any(axis=1)
            batch.declared[:] = np.where(bad[:, None, None], 0, d).astype(np.int8)
            for i in np.flatnonzero(bad & (batch.error == 0)):
                k = int(np.flatnonzero(bad_slot[i])[0])
                batch.error[i] = ErrorCode.BAD_SET
                batch.messages[int(i)] = (
                    f"row {i}: declared set {k} is (kind {d[i, k, 0]}, tile {d[i, k, 1]}); "
                    f"kind must be 0-4 (SetKind) and tile 0-33"
                )
        columns = dict(win=win if win is not None else -1, self_drawn=self_drawn, seat=seat, round=round,
                       flowers=flowers, streak=streak, closing=closing)
        for name, value in columns.items():
            target = getattr(batch, name)
            v = np.broadcast_to(np.asarray(value), (n,))
            if name in ("self_drawn", "closing"):
                target[:] = v.astype(np.bool_)
                continue
            if not np.issubdtype(v.dtype, np.integer):
                raise HandError(ErrorCode.BAD_ARRAY, f"{name} must hold integers, got dtype {v.dtype}")
            lo, hi = {"win": (-1, 33), "seat": (0, 3), "round": (0, 3), "flowers": (0, 255), "streak": (0, 1000)}[name]
            bad = (v < lo) | (v > hi)
            target[:] = np.where(bad, 0 if name != "win" else -1, v).astype(target.dtype)
            for i in np.flatnonzero(bad & (batch.error == 0)):
                batch.error[i] = ErrorCode.BAD_CONTEXT if name != "win" else ErrorCode.BAD_WIN
                batch.messages[int(i)] = f"row {i}: {name} {v[i]} is out of range ({lo} to {hi})"
        require_win = win is not None and bool((np.asarray(win) != -1).any())
        validate(batch, require_win=require_win)
        return batch._seal(require_win)

    @classmethod
    def from_arrow(cls, table, *, require_win: bool = True) -> "HandBatch":
        """Build a batch from a pyarrow Table or RecordBatch of hand records (:data:`RECORD_KEYS` columns).

        Notation strings are parsed by the compiled parser of :mod:`fastscore.fastparse`
        (same results and messages as :meth:`from_records`).  Text columns may be string,
        large_string or string_view, or binary, large_binary or binary_view (UTF-8 bytes; an
        undecodable byte reads as U+FFFD, which flags its row), plain or dictionary-encoded
        (:data:`fastscore.fastparse.ARROW_SCHEMA`).
        """
        from .fastparse import batch_from_arrow

        return batch_from_arrow(table, require_win=require_win)

    @classmethod
    def from_structured(cls, array, *, require_win: bool = True) -> "HandBatch":
        """Build a batch from a numpy structured array.

        Either record fields (``hand`` and optionally the other :data:`RECORD_KEYS`,
        strings / numbers as in a record), or array fields as taken by
        :meth:`from_arrays` (``concealed`` of shape (34,) per row, and optionally
        ``declared`` (5, 2), ``win``, ``self_drawn``, ``seat``, ``round``,
        ``flowers``, ``streak``, ``closing``).

        Text fields may be numpy ``U`` (str), ``S`` (bytes, read as UTF-8, as
        ``h5py`` and ``np.loadtxt`` give them) or object.

        Raises
        ------
        ValueError
            If ``array`` has neither a ``hand`` nor a ``concealed`` field.
        """
        array = np.asarray(array)
        names = array.dtype.names or ()
        if "hand" in names:
            import pyarrow as pa

            columns = {k: _text_values(array[k]) for k in RECORD_KEYS if k in names}
            return cls.from_arrow(pa.table(columns), require_win=require_win)
        if "concealed" in names:
            fields = {k: array[k] for k in ("declared", "win", "self_drawn", "seat", "round", "flowers", "streak",
                                            "closing") if k in names}
            return cls.from_arrays(array["concealed"], fields.pop("declared", None), fields.pop("win", None), **fields)
        raise HandError(ErrorCode.BAD_ARRAY, f"structured array needs a 'hand' or a 'concealed' field, got {names}")

    def take(self, rows) -> "HandBatch":
        """A new batch (a writable copy, not sealed) of the given rows (index array or slice).

        Each new row keeps its old row's message under its new row number (a row taken
        twice has it twice); the text is unchanged, so it still names the row of the
        input it came from (``"row 7: ..."``).
        """
        sub = {name: np.array(getattr(self, name)[rows]) for name in COLUMN_NAMES}
        messages = {}
        if self.messages:
            for new, old in enumerate(np.arange(len(self))[rows].tolist()):
                if old in self.messages:
                    messages[new] = self.messages[old]
        return HandBatch(**sub, messages=messages)


def _frozen(column: np.ndarray) -> np.ndarray:
    """An immutable C-contiguous copy of ``column``, its memory a ``bytes`` object."""
    return np.frombuffer(np.ascontiguousarray(column).tobytes(), dtype=column.dtype).reshape(column.shape)


class _Layout:
    """What :meth:`HandBatch.is_sealed` compares of a column: the array itself (kept alive here, so
    that no other array can take its identity or its memory), whether it is writable, its address,
    shape and strides."""

    __slots__ = ("column", "state")

    def __init__(self, column):
        self.column = column
        self.state = (column.flags.writeable, column.__array_interface__["data"][0], column.shape, column.strides) \
            if isinstance(column, np.ndarray) else None

    def __eq__(self, other) -> bool:
        return self.column is other.column and self.state == other.state


def _flag_rows(batch: HandBatch, bad: np.ndarray, code: ErrorCode, message: str) -> None:
    for i in np.flatnonzero(bad & (batch.error == 0)):
        batch.error[i] = code
        batch.messages[int(i)] = f"row {i}: {message}"


@jit_batch
def _held_kernel(concealed, declared, win, with_win, held):
    n = concealed.shape[0]
    for i in prange(n):
        for t in range(N_KINDS):
            held[i, t] = concealed[i, t]
        for k in range(declared.shape[1]):
            kind = declared[i, k, 0]
            # Clipped: rows with a tile out of range are flagged by validate, but must not index out of bounds here.
            t = min(max(np.int64(declared[i, k, 1]), 0), N_KINDS - 1)
            if kind == 1:
                held[i, t] += 1
                held[i, min(t + 1, N_KINDS - 1)] += 1
                held[i, min(t + 2, N_KINDS - 1)] += 1
            elif kind == 2:
                held[i, t] += 3
            elif kind == 3 or kind == 4:
                held[i, t] += 4
        if with_win and 0 <= win[i] < N_KINDS:
            held[i, win[i]] += 1


def held_counts(batch: HandBatch, with_win: bool = True) -> np.ndarray:
    """All tiles of every hand, declared sets (and the winning tile) included: ``(N, 34) int16``."""
    held = np.empty((len(batch), N_KINDS), dtype=np.int16)
    columns = batch._read_only()  # one build of the kernel, sealed batch or not
    _held_kernel(columns.concealed, columns.declared, columns.win, with_win, held)
    return held


def validate(batch: HandBatch, *, require_win: bool = True) -> None:
    """Flag invalid rows in place (RULES.md section 2), vectorised.

    Checks: every column in range (declared kinds 0-4 and tiles 0-33, winning
    tile -1 to 33, winds 0-3, streak 0-1000), so that a batch filled in by hand
    is safe for the kernels, which do not check bounds; declared sets well
    formed (a sheung of three number tiles of one suit), 16 tiles before the
    win, at most 4 of a kind counting declared sets and the winning tile,
    Closing only with a concealed hand, and a winning tile when ``require_win``.
    Idempotent: rows already flagged keep their first error.
    """
    kind = batch.declared[:, :, 0].astype(np.int64)
    tile = batch.declared[:, :, 1].astype(np.int64)
    bad_slot = (kind < 0) | (kind > 4) | (tile < 0) | (tile >= N_KINDS)
    for i in np.flatnonzero(bad_slot.any(axis=1) & (batch.error == 0)):
        k = int(np.flatnonzero(bad_slot[i])[0])
        batch.error[i] = ErrorCode.BAD_SET
        batch.messages[int(i)] = (
            f"row {i}: declared set {k} is (kind {kind[i, k]}, tile {tile[i, k]}); kind must be 0-4 (SetKind) and tile 0-33"
        )
    columns = (("win", ErrorCode.BAD_WIN, -1, N_KINDS - 1), ("seat", ErrorCode.BAD_CONTEXT, 0, 3),
               ("round", ErrorCode.BAD_CONTEXT, 0, 3), ("streak", ErrorCode.BAD_CONTEXT, 0, 1000))
    for name, code, lo, hi in columns:
        v = getattr(batch, name).astype(np.int64)
        for i in np.flatnonzero(((v < lo) | (v > hi)) & (batch.error == 0)):
            batch.error[i] = code
            batch.messages[int(i)] = f"row {i}: {name} {v[i]} is out of range ({lo} to {hi})"
    sheung = kind == SetKind.SHEUNG
    bad_sheung = sheung & ((tile >= 27) | (tile % 9 > 6))
    for i in np.flatnonzero(bad_sheung.any(axis=1) & (batch.error == 0)):
        k = int(np.flatnonzero(bad_sheung[i])[0])
        start = TILE_NAMES[tile[i, k]] if 0 <= tile[i, k] < N_KINDS else str(tile[i, k])
        batch.error[i] = ErrorCode.BAD_SET
        batch.messages[int(i)] = (
            f"row {i}: declared sheung {k} starts on {start}; a sheung is three number tiles of one suit, "
            f"so it starts on 1-7 of m, p or s (tile index t < 27 with t % 9 <= 6)"
        )
    n_declared = (kind != SetKind.NONE).sum(axis=1)
    n_tiles = batch.concealed.sum(axis=1, dtype=np.int64) + 3 * n_declared
    for i in np.flatnonzero((n_tiles != 16) & (batch.error == 0)):
        batch.error[i] = ErrorCode.TILE_COUNT
        batch.messages[int(i)] = f"row {i}: the hand holds {n_tiles[i]} tiles (a declared set counts 3); a hand holds 16 before the win"
    held = held_counts(batch)
    for i in np.flatnonzero((held > 4).any(axis=1) & (batch.error == 0)):
        t = int(np.flatnonzero(held[i] > 4)[0])
        batch.error[i] = ErrorCode.FIFTH_COPY
        batch.messages[int(i)] = (
            f"row {i}: {held[i, t]} copies of {TILE_NAMES[t]}, counting declared sets and the winning tile (at most 4)"
        )
    exposed = np.isin(kind, (SetKind.SHEUNG, SetKind.PONG, SetKind.GONG)).any(axis=1)
    _flag_rows(batch, batch.closing & exposed, ErrorCode.BAD_CONTEXT,
               "Closing declared with an exposed set (Closing needs a concealed hand)")
    if require_win:
        _flag_rows(batch, batch.win < 0, ErrorCode.BAD_WIN, "no winning tile")
