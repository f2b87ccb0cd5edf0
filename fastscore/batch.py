"""Columnar batches of hands (LRC rules section 2).

A :class:`HandBatch` holds N hands as arrays; every public scoring function
takes one.  Its rows are checked by :mod:`fastscore.checks`: a bad row gets
an :class:`~fastscore.tiles.ErrorCode` and a message naming the culprit, and
is skipped by the kernels; every other row is scored.  Text is parsed by
:mod:`fastscore.arrow` (compiled) and :mod:`fastscore.records` (Python).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ._jit import jit_batch, prange
from .arrow import columns_from_arrow, columns_from_records
from .checks import check_batch, kernel_columns
from .events import ALL_EVENTS
from .kernels.checks import MAX_STREAK
from .records import (
    COLUMN_NAMES,
    DROP_HINT,
    RECORD_KEYS,
    check_columns,
    empty_columns,
    parse_records,
    text_values,
    unknown_columns,
)
from .tiles import MAX_DECLARED, N_KINDS, TILE_NAMES, ErrorCode, HandError

__all__ = ["HandBatch", "held_counts", "COMPILED_MIN_RECORDS"]

#: Fewer records than this are parsed in Python (a single call does not load pyarrow).
COMPILED_MIN_RECORDS = 32


def _check_keys(records: list) -> None:
    """Raise ValueError naming the first record with a key that is not a :data:`RECORD_KEYS` key."""
    # (dicts, the usual records, without the ABC check: a fifth of a 100,000-record batch's time)
    keys = set().union(*(records if all(type(r) is dict for r in records) else
                         (r for r in records if isinstance(r, Mapping))))
    if keys <= _RECORD_KEY_SET or not unknown_columns(keys):
        return
    for i, record in enumerate(records):
        if isinstance(record, Mapping) and unknown_columns(record):
            check_columns(record, f"record {i}", hint=DROP_HINT, what="key")


_RECORD_KEY_SET = frozenset(RECORD_KEYS)


@dataclass(eq=False)  # == is identity: element-wise == of the columns has no truth value
class HandBatch:
    """N hands as columns (LRC rules section 2): plain data.

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
    events : ndarray, shape (N,), uint16
        The win's timing events, a bit per :class:`fastscore.events.Event` (0: none).
    error : ndarray, shape (N,), uint8
        :class:`ErrorCode` of each row flagged so far, 0 otherwise.
    messages : dict
        Row number -> error message, for flagged rows.

    Notes
    -----
    Columns may hold any values: every kernel that reads a batch
    (:func:`fastscore.score_batch`, :func:`fastscore.win_check`,
    :func:`fastscore.waits_batch`) checks each row in its own loop
    (:func:`fastscore.kernels.checks.row_fault`) and flags a bad row in its result
    instead of reading it.  :meth:`from_arrays` keeps the caller's arrays
    where dtype and layout already fit (no copy, no check until scored); the
    text constructors (:meth:`from_records`, :meth:`from_arrow`, the file
    readers) own their arrays and flag bad rows once, as they parse.
    :meth:`check` flags the rows of any batch.
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
    events: np.ndarray
    error: np.ndarray
    messages: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return self.concealed.shape[0]

    @property
    def ok(self) -> np.ndarray:
        """``(N,) bool``: rows not flagged (so far; see :meth:`check`)."""
        return self.error == 0

    def check(self, *, require_win: bool = True) -> "HandBatch":
        """A batch of the same columns (not copied) with every bad row flagged, with its message.

        ``require_win``: a row without a winning tile is bad (False for waits analysis).
        The row checks are those the kernels run (:func:`fastscore.kernels.checks.row_fault`).

        Raises
        ------
        ValueError
            A column of the wrong dtype or shape.
        """
        checked = HandBatch(**{name: getattr(self, name) for name in COLUMN_NAMES[:-1]},
                            error=np.array(self.error, dtype=np.uint8), messages=dict(self.messages))
        return check_batch(checked, require_win=require_win)

    @classmethod
    def empty(cls, n: int) -> "HandBatch":
        """A batch of ``n`` zeroed rows (to be filled in)."""
        return cls(**vars(empty_columns(n)))

    @classmethod
    def from_records(cls, records: Iterable[Mapping], *, require_win: bool | None = True) -> "HandBatch":
        """Build a batch from hand records (dicts with the :data:`~fastscore.RECORD_KEYS`).

        Parsed by the compiled parser (:func:`fastscore.arrow.columns_from_records`)
        when there are :data:`COMPILED_MIN_RECORDS` or more and they make an Arrow
        table, else one by one in Python (:func:`fastscore.records.parse_records`):
        the same columns, codes and messages.
        ``win`` may be absent only when ``require_win`` is False (waits analysis) or None.
        A record that cannot be parsed, or whose hand breaks a row check, becomes a
        flagged row with its message; nothing raises.  With ``require_win`` False a
        record's ``win`` is ignored (16-tile hands); None reads it where given (a
        16-tile hand without one, a 17-tile hand with one: shanten).  A key that is not one of
        :data:`~fastscore.RECORD_KEYS` (``self_draw``, ``Seat``) raises ValueError naming it and
        the record, rather than being dropped unread (:func:`fastscore.records.check_columns`).
        """
        records = records if isinstance(records, list) else list(records)
        _check_keys(records)
        if len(records) < COMPILED_MIN_RECORDS:  # a table and the kernels cost more than they save
            return cls(**vars(parse_records(records, require_win=require_win)))
        return cls(**vars(columns_from_records(records, require_win=require_win)))

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
        events=0,
    ) -> "HandBatch":
        """Build a batch over arrays (research scripts); scalars broadcast.

        A column that already has its :class:`HandBatch` dtype and is C-contiguous
        is used as it is (no copy); others are converted.  Rows are checked when
        the batch is scored (every kernel checks each row); a value that does not
        fit the column's dtype (a count of 256, a seat of -1) is flagged here.

        Parameters
        ----------
        concealed : array_like, shape (N, 34)
            Concealed tile counts 0-4 (any integer dtype; uint8 is not copied).
        declared : array_like, shape (N, 5, 2), optional
            (SetKind, lowest tile) per declared set; default none.
        win : array_like, shape (N,), optional
            Winning tile 0-33.  Omitted, or -1 in every row: a batch of 16-tile
            hands for waits analysis.  -1 in only some rows flags those rows.
        self_drawn, seat, round, flowers, streak, closing, events : scalar or (N,)
            As in :class:`HandBatch`; winds as 0-3 (East South West North); flags
            as booleans or the integers 0 and 1; events as :class:`fastscore.events.Event` bits
            (not checked against the win: an event the win cannot have scores nothing).

        Raises
        ------
        ValueError
            If ``concealed`` is not a 2-D integer array with 34 columns, or another
            column has the wrong shape or a non-integer dtype (a bool is refused
            for the context columns but the flags: ``win=True`` is no tile), or a flag
            (``self_drawn``, ``closing``) holds a value other than True, False, 1
            and 0 (the whole batch is unusable; the message names the argument);
            other bad values in a row only flag that row.
        """
        raw = np.asarray(concealed)
        if raw.ndim != 2 or raw.shape[1] != N_KINDS:
            raise HandError(ErrorCode.BAD_ARRAY, f"concealed must have shape (N, 34), got {raw.shape}")
        if raw.size == 0:
            raw = raw.astype(_UINT8)  # no rows: nothing to misread (``np.asarray`` of an empty list is float64)
        if raw.dtype.kind not in _INTEGER_KINDS:
            raise HandError(ErrorCode.BAD_ARRAY, f"concealed must hold integers, got dtype {raw.dtype}")
        n = raw.shape[0]
        error = np.zeros(n, dtype=np.uint8)
        messages: dict[int, str] = {}
        columns = {"concealed": _column(raw, _UINT8, 0, 4, error, messages, "concealed")}
        if declared is None:
            columns["declared"] = np.zeros((n, MAX_DECLARED, 2), dtype=_INT8)
        else:
            d = np.asarray(declared)
            if d.size == 0 and d.shape == (n, MAX_DECLARED, 2):
                d = d.astype(_INT8)  # no rows: nothing to misread
            if d.shape != (n, MAX_DECLARED, 2) or d.dtype.kind not in "iu":
                raise HandError(ErrorCode.BAD_ARRAY, f"declared must be integers of shape ({n}, {MAX_DECLARED}, 2), got {d.shape} {d.dtype}")
            columns["declared"] = _column(d, _INT8, 0, N_KINDS - 1, error, messages, "declared")
        given = (-1 if win is None else win, self_drawn, seat, round, flowers, streak, closing, events)
        for (name, (dtype, lo, hi)), value in zip(_CONTEXT.items(), given):
            if type(value) is int or (type(value) is bool and dtype is _BOOL):  # the usual scalars, quickly
                if lo <= value <= hi:  # a flag: True, False, 1 or 0
                    columns[name] = _filled(n, dtype, value)
                    continue
            # A bool is a flag's value only: ``win=True`` is refused as a bool ``win`` array is, not read as tile 1.
            kinds = _INTEGER_KINDS if dtype is _BOOL else "iu"
            v = np.asarray(value)
            if v.ndim == 0 and v.dtype.kind in kinds and lo <= v <= hi:
                columns[name] = _filled(n, dtype, v)  # a scalar in range: one value for every row
                continue
            if v.ndim == 0:
                v = np.broadcast_to(v, (n,))
            elif v.shape != (n,):
                raise HandError(ErrorCode.BAD_ARRAY,
                                f"{name} must be a scalar or of shape ({n},) (one value a row), got {v.shape}")
            if n == 0:
                v = v.astype(dtype)  # no rows: nothing to misread (``np.asarray([])`` is float64)
            if dtype is _BOOL:
                columns[name] = _flags(v, name)
                continue
            if v.dtype.kind not in "iu":
                hint = " (winds as 0-3: East South West North)" if name in ("seat", "round") else ""
                raise HandError(ErrorCode.BAD_ARRAY, f"{name} must hold integers{hint}, got dtype {v.dtype}")
            columns[name] = _column(v, dtype, lo, hi, error, messages, name)
        if win is not None and n > 1:  # (one row has a winning tile or, for waits analysis, none)
            w = columns["win"]
            missing = w == -1
            if missing.any() and not missing.all():  # some rows with a winning tile, some without
                for i in np.flatnonzero(missing & (error == 0)).tolist():
                    error[i] = ErrorCode.BAD_WIN
                    messages[i] = f"row {i}: no winning tile"
        return cls(**columns, error=error, messages=dict(sorted(messages.items())) if messages else {})

    @classmethod
    def from_arrow(cls, table, *, require_win: bool = True) -> "HandBatch":
        """Build a batch from a pyarrow Table or RecordBatch of hand records (:data:`RECORD_KEYS` columns).

        Notation strings are parsed by the compiled parser (:func:`fastscore.arrow.columns_from_arrow`)
        (same results and messages as :meth:`from_records`).  Text columns may be string,
        large_string or string_view, or binary, large_binary or binary_view (UTF-8 bytes; an
        undecodable byte reads as U+FFFD, which flags its row), plain or dictionary-encoded
        (:data:`fastscore.arrow.ARROW_SCHEMA`).
        """
        return cls(**vars(columns_from_arrow(table, require_win=require_win)))

    @classmethod
    def from_structured(cls, array, *, require_win: bool = True) -> "HandBatch":
        """Build a batch from a numpy structured array.

        Either record fields (``hand`` and optionally the other :data:`RECORD_KEYS`,
        strings / numbers as in a record), or array fields as taken by
        :meth:`from_arrays` (``concealed`` of shape (34,) per row, and optionally
        ``declared`` (5, 2), ``win``, ``self_drawn``, ``seat``, ``round``,
        ``flowers``, ``streak``, ``closing``, ``events``).

        Text fields may be numpy ``U`` (str), ``S`` (bytes, read as UTF-8, as
        ``h5py`` and ``np.loadtxt`` give them) or object.

        Raises
        ------
        ValueError
            If ``array`` has neither a ``hand`` nor a ``concealed`` field.
        """
        array = np.asarray(array)
        names = array.dtype.names or ()
        if "hand" in names or "concealed" in names:
            check_columns(names, "structured array", accepted=RECORD_KEYS if "hand" in names else _ARRAY_FIELDS,
                          hint=DROP_HINT, what="field")
        if "hand" in names:
            import pyarrow as pa

            columns = {k: text_values(array[k]) for k in RECORD_KEYS if k in names}
            return cls.from_arrow(pa.table(columns), require_win=require_win)
        if "concealed" in names:
            fields = {k: array[k] for k in _ARRAY_FIELDS[1:] if k in names}
            return cls.from_arrays(array["concealed"], fields.pop("declared", None), fields.pop("win", None), **fields)
        raise HandError(ErrorCode.BAD_ARRAY, f"structured array needs a 'hand' or a 'concealed' field, got {names}")

    def take(self, rows) -> "HandBatch":
        """A new batch (a copy) of the given rows (index array or slice).

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


#: The fields of a structured array of arrays (:meth:`HandBatch.from_structured`).
_ARRAY_FIELDS = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing",
                 "events")

#: numpy dtype kinds that :meth:`HandBatch.from_arrays` takes as counts and scalars: integers and bool.
_INTEGER_KINDS = "iub"


def _filled(n: int, dtype, value) -> np.ndarray:
    """``(n,)`` of ``dtype``, every element ``value`` (zeros without a fill pass for 0 and False)."""
    if not value:
        return np.zeros(n, dtype=dtype)
    column = np.empty(n, dtype=dtype)
    column.fill(value)
    return column


# dtype objects, not scalar types: numpy compares and allocates with them without converting.
_UINT8, _INT8, _BOOL = np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.bool_)
#: dtype and range of the per-row columns of :meth:`HandBatch.from_arrays` (bool columns: no range), in
#: the order of its arguments.
_CONTEXT = {
    "win": (_INT8, -1, N_KINDS - 1),
    "self_drawn": (_BOOL, 0, 1),
    "seat": (_UINT8, 0, 3),
    "round": (_UINT8, 0, 3),
    "flowers": (_UINT8, 0, 255),
    "streak": (np.dtype(np.int32), 0, MAX_STREAK),
    "closing": (_BOOL, 0, 1),
    "events": (np.dtype(np.uint16), 0, ALL_EVENTS),
}


def _flags(v: np.ndarray, name: str) -> np.ndarray:
    """The flag column ``name`` (``self_drawn``, ``closing``) as a C-contiguous bool array: booleans, or
    integers 0 and 1, as the notation's true/false/1/0 (:func:`fastscore.records.parse_record`).

    Raises
    ------
    HandError (a ValueError)
        Another dtype (a float), or an integer other than 0 and 1 (``self_drawn=[2]`` must not mean True).
    """
    if v.dtype == np.bool_:
        return v if v.flags.c_contiguous else np.ascontiguousarray(v)
    if v.dtype.kind not in "iu":
        raise HandError(ErrorCode.BAD_ARRAY, f"{name} must hold booleans (or the integers 0 and 1), got dtype {v.dtype}")
    bad = (v != 0) & (v != 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise HandError(ErrorCode.BAD_ARRAY, f"{name} must be True or False (or 1 or 0); row {i} holds {v[i]}")
    return v.astype(np.bool_)


def _column(v: np.ndarray, dtype, lo: int, hi: int, error: np.ndarray, messages: dict, name: str) -> np.ndarray:
    """``v`` as a C-contiguous ``dtype`` array: ``v`` itself when it is one already (the kernels
    check its rows), else a converted copy in which every value outside ``lo``-``hi`` (which the
    conversion could wrap) is flagged in ``error``/``messages`` and replaced by a safe one."""
    if v.dtype == dtype or np.can_cast(v.dtype, dtype, casting="safe"):
        return np.ascontiguousarray(v, dtype=dtype)  # ``v`` itself when it fits already
    vi = v if v.dtype.kind == "i" or v.dtype.itemsize < 8 else v.astype(object)  # uint64 beyond int64
    if name == "declared":
        bad_slot = (vi[..., 0] < 0) | (vi[..., 0] > 4) | (vi[..., 1] < lo) | (vi[..., 1] > hi)
        bad = bad_slot.any(axis=1)
        for i in np.flatnonzero(bad & (error == 0)).tolist():
            k = int(np.flatnonzero(bad_slot[i])[0])
            error[i] = ErrorCode.BAD_SET
            messages[i] = (f"row {i}: declared set {k} is (kind {v[i, k, 0]}, tile {v[i, k, 1]}); "
                           f"kind must be 0-4 (SetKind) and tile 0-33")
        return np.where(bad[:, None, None], 0, v).astype(dtype)
    bad_value = (vi < lo) | (vi > hi)
    bad = bad_value.any(axis=1) if v.ndim == 2 else bad_value
    for i in np.flatnonzero(bad & (error == 0)).tolist():
        if name == "concealed":
            t = int(np.flatnonzero(bad_value[i])[0])
            error[i] = ErrorCode.BAD_ARRAY
            messages[i] = f"row {i}: count {v[i, t]} of {TILE_NAMES[t]} is out of range (0 to 4)"
        else:
            error[i] = ErrorCode.BAD_WIN if name == "win" else ErrorCode.BAD_CONTEXT
            messages[i] = f"row {i}: {name} {v[i]} is out of range ({lo} to {hi})"
    fill = bad[:, None] if v.ndim == 2 else bad
    return np.where(fill, -1 if name == "win" else 0, v).astype(dtype)


def held_counts(batch: HandBatch, with_win: bool = True) -> np.ndarray:
    """All tiles of every hand, declared sets (and the winning tile) included: ``(N, 34) int16``.

    Rows that fail the row checks (:func:`fastscore.kernels.checks.row_fault`) give meaningless counts.
    """
    concealed, declared, win = kernel_columns(batch)[:3]  # first: a non-batch gets its ValueError
    held = np.empty((concealed.shape[0], N_KINDS), dtype=np.int16)
    _held_kernel(concealed, declared, win, with_win, held)
    return held


@jit_batch
def _held_kernel(concealed, declared, win, with_win, held):
    n = concealed.shape[0]
    for i in prange(n):
        for t in range(N_KINDS):
            held[i, t] = concealed[i, t]
        for k in range(declared.shape[1]):
            kind = declared[i, k, 0]
            # Clipped: a row that fails the checks must not index out of bounds here.
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
