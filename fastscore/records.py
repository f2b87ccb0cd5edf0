"""Hand records (dicts of notation strings) parsed into batch columns, in Python (LRC rules sections 2 and 8).

The plain parser: :func:`parse_record` reads one record, :func:`parse_records`
a list of them into the columns of a batch (a namespace of arrays, the
fields of :class:`fastscore.HandBatch`), bad records flagged.  The compiled
parser of :mod:`fastscore.arrow` gives the same columns, codes and messages
at millions of records a second and falls back on this one for the rows it
flags.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import SimpleNamespace

import numpy as np

from .checks import COLUMNS, check_batch
from .events import event_fault, parse_events
from .kernels.checks import MAX_STREAK
from .tiles import (
    MAX_DECLARED,
    TILE_NAMES,
    ErrorCode,
    HandError,
    parse_flowers,
    parse_hand,
    parse_tile,
    parse_wind,
)

__all__ = ["RECORD_KEYS", "COLUMN_NAMES", "check_columns", "parse_record", "parse_records", "empty_columns",
           "flag_rows", "text_values", "decoded_records", "parse_win"]

#: Keys of a hand record (JSON lines, CSV columns, dicts).
RECORD_KEYS = ("hand", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "events")

#: What an unknown column's message suggests, by caller: the readers of files (``fastscore batch``,
#: :func:`fastscore.io.iter_batches`), and the batch constructors of the Python API.
#: The message of a record (or a single call) without a winning tile: one wording for the Python and the
#: compiled parsers.
NO_WIN_MESSAGE = "no winning tile: 'win' is missing or empty (a tile such as '9s', or its index 0-33)"
KEEP_HINT = ("to copy a column fastscore does not read to the output, name it with --keep "
             "(Python: fastscore.io.iter_chunks(path, keep=[...]))")
DROP_HINT = ("drop the columns fastscore does not read before building the batch; results keep the input's "
             "row order, so they join back by position (BatchResult.to_arrow())")


def _result_columns() -> frozenset:
    """The columns of a fastscore result file written with its input columns (``batch --sample``):
    read back as input, they are skipped.  Their names are the writer's (:mod:`fastscore.io.schemas`)."""
    from .io.schemas import RESULT_COLUMNS

    return RESULT_COLUMNS


def unknown_columns(names, *, accepted=RECORD_KEYS, keep=()) -> list[str]:
    """The names of ``names`` that are neither ``accepted``, nor ``keep``, nor a result column
    (:func:`_result_columns`), in their order."""
    known = set(accepted) | set(keep)
    unknown = [name for name in names if name not in known]
    if unknown:
        results = _result_columns()
        unknown = [name for name in unknown if name not in results]
    return unknown


def check_columns(names, where: str, *, accepted=RECORD_KEYS, keep=(), require_win: bool = False,
                  hint: str = KEEP_HINT, what: str = "column") -> None:
    """Raise ValueError when the columns (or keys) ``names`` of an input include one that fastscore does
    not read, or (``require_win``) lack ``win``: the one check of every reader of hand records (CSV
    headers, JSON keys, Parquet schemas, Arrow tables, dicts), so that no column is dropped unread.

    Parameters
    ----------
    names : iterable of str
        The input's columns.
    where : str
        What the input is, the start of the message (a file name, ``"records"``).
    accepted : sequence of str
        The columns read: :data:`RECORD_KEYS`, or :data:`fastscore.io.ENCODED_COLUMNS`.
    keep : sequence of str
        Other columns the caller carries through (``--keep``).
    require_win : bool
        ``win`` is required (scoring, discard analysis; not waits nor shanten).
    hint : str
        What to do with a column fastscore does not read (:data:`KEEP_HINT`, :data:`DROP_HINT`).
    what : str
        ``"column"``, or ``"key"`` (JSON objects, dicts).

    Raises
    ------
    ValueError
        Naming the first unknown column, a close accepted name if there is one, and every accepted name.
        The columns of a fastscore result (``is_win`` ... ``error``, ``row_<id>``, ``rows``, ``n_waits``,
        ``waits``, ``waits_json``; :data:`fastscore.io.RESULT_COLUMNS`) are not unknown: a result written
        with its input columns reads back as input.
    """
    names = list(names)
    unknown = unknown_columns(names, accepted=accepted, keep=keep)
    if unknown:
        import difflib

        name = unknown[0]
        close = difflib.get_close_matches(str(name).lower(), accepted, n=1, cutoff=0.6)
        others = f" (and {', '.join(repr(k) for k in unknown[1:])})" if len(unknown) > 1 else ""
        raise ValueError(f"{where}: unknown {what} {name!r}{others}"
                         f"{f' (did you mean {close[0]!r}?)' if close else ''}; fastscore reads the {what}s "
                         f"{', '.join(accepted)}; {hint}")
    if require_win and "win" in accepted and "win" not in names:
        found = ", ".join(repr(c) for c in names) if names else "none"
        raise ValueError(f"{where}: no 'win' {what} (the winning tile; for discards-batch the drawn tile), which "
                         f"scoring and discard analysis need (found {found}); waits-batch and shanten-batch read "
                         f"hands without one")
#: The array columns of a :class:`~fastscore.HandBatch`, in field order.
COLUMN_NAMES = tuple(name for name, _, _ in COLUMNS)


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
    if not 0 <= n <= MAX_STREAK:
        raise HandError(ErrorCode.BAD_CONTEXT, f"streak {n} is out of range (0 to {MAX_STREAK})")
    return n


def _missing_as(value, default):
    """``default`` for a missing field (None, or an empty CSV cell); any other value as given.

    Not ``value or default``: that read ``False``, ``0.0`` and ``[]`` as East without a word.
    """
    return default if value is None or (isinstance(value, str) and value == "") else value


def parse_win(value) -> int:
    """The winning tile (0-33) of a record or an argument: notation (``"9s"``, ``"7z"``, ``"Wh"``; spaces
    around it ignored) or a tile index 0-33, as :attr:`fastscore.HandBatch.win` holds it (``26`` is 9s).

    The one conversion of a winning tile: :func:`parse_record` (records, files, :func:`fastscore.score`)
    and the compiled parser (which flags what it cannot read and leaves it to this) agree with it.

    Raises
    ------
    HandError (a ValueError)
        ``ErrorCode.BAD_WIN``: not one tile, a flower, an index out of range, another type (bool, float).
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if 0 <= value < len(TILE_NAMES):
            return int(value)
        raise HandError(ErrorCode.BAD_WIN, f"winning tile {value!r} is out of range (a tile index is 0 to "
                                           f"{len(TILE_NAMES) - 1}; or write the tile, e.g. '9s')")
    if not isinstance(value, str):
        raise HandError(ErrorCode.BAD_WIN, f"winning tile {value!r} is not a tile (write e.g. '9s', or a tile "
                                           f"index 0-33)")
    if value.strip().endswith("f"):
        raise HandError(ErrorCode.BAD_WIN, f"winning tile {value!r} is a flower; flowers never complete a hand")
    try:
        return parse_tile(value)
    except HandError as exc:
        raise HandError(ErrorCode.BAD_WIN, f"winning tile: {exc}") from None


def parse_record(record: Mapping, require_win: bool | None = True) -> tuple:
    """Parse one hand record into column values.

    ``require_win``: True, ``win`` is required (scoring, discards); False, it is ignored (waits: 16-tile
    hands, win -1); None, it is read where given, win -1 where not (shanten: 16 or 17 tiles).

    Returns
    -------
    tuple
        (concealed (34,) uint8, declared (5, 2) int8, win, self_drawn, seat,
        round, flowers bitmask, streak, closing, events bitmask)

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
    win_text = record.get("win") if require_win is not False else None
    if win_text is None or win_text == "":
        if require_win:
            raise HandError(ErrorCode.BAD_WIN, NO_WIN_MESSAGE)
        win = -1
    else:
        win = parse_win(win_text)
    declared = np.zeros((MAX_DECLARED, 2), dtype=np.int8)
    for k, (kind, tile) in enumerate(hand.declared):
        declared[k] = (kind, tile)
    flowers = 0
    for n in parse_flowers(record.get("flowers") or ""):
        flowers |= 1 << (n - 1)
    self_drawn = _flag(record.get("self_drawn", False), "self_drawn")
    seat = parse_wind(_missing_as(record.get("seat"), "E"), "seat")
    closing = _flag(record.get("closing", False), "closing")
    events = _events(record.get("events"))
    fault = event_fault(events, self_drawn if require_win is not False else None, seat, closing) if events else None
    if fault:
        raise HandError(ErrorCode.BAD_CONTEXT, fault)
    return (
        hand.concealed,
        declared,
        win,
        self_drawn,
        seat,
        parse_wind(_missing_as(record.get("round"), "E"), "round"),
        flowers,
        _streak(record.get("streak", 0)),
        closing,
        events,
    )


def _events(value) -> int:
    """The events bits of a record's ``events`` (:func:`fastscore.events.parse_events`).

    Raises
    ------
    HandError (a ValueError)
        ``ErrorCode.BAD_CONTEXT``, naming the unknown event.
    """
    try:
        return parse_events(value)
    except ValueError as exc:
        raise HandError(ErrorCode.BAD_CONTEXT, str(exc)) from None


def text_values(field: np.ndarray):
    """A structured array's field as :meth:`HandBatch.from_arrow` takes it: text (``U``, object) as a
    list of str, bytes (``S``) decoded as UTF-8 (an undecodable byte becomes U+FFFD, and its row is
    flagged by the parser), numbers as they are."""
    if field.dtype.kind == "S":
        return [v.decode("utf-8", "replace") for v in field.tolist()]
    return field.tolist() if field.dtype.kind in "OU" else field


def decoded_records(records: list[dict], keys) -> list[dict]:
    """``records`` read from Arrow columns, with the values of ``keys`` (text columns stored as
    binary, so ``bytes``) decoded as UTF-8 as :func:`text_values` decodes them (an undecodable
    byte becomes U+FFFD)."""
    keys = set(keys)
    if not keys:
        return records
    return [{k: v.decode("utf-8", "replace") if k in keys and isinstance(v, bytes) else v for k, v in r.items()}
            for r in records]


def empty_columns(n: int) -> SimpleNamespace:
    """The columns of ``n`` empty rows (zeros; ``win`` -1) and no messages, as attributes."""
    columns = {name: np.zeros((n, *shape), dtype=dtype) for name, dtype, shape in COLUMNS}
    columns["win"][:] = -1
    return SimpleNamespace(**columns, messages={})


def parse_records(records: Iterable[Mapping], *, require_win: bool | None = True) -> SimpleNamespace:
    """Parse hand records one by one in Python: the columns of :func:`empty_columns`, filled.

    A record that cannot be parsed, or whose hand breaks a row check
    (:func:`fastscore.checks.check_batch`), becomes a flagged row with its
    message (``"row i: ..."``); nothing raises.  Without ``require_win`` a
    record's ``win`` is ignored (16-tile hands).
    """
    records = list(records)
    batch = empty_columns(len(records))
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
            batch.events[i],
        ) = values
    return check_batch(batch, require_win=require_win)


def flag_rows(batch, rows, codes, messages) -> None:
    """Flag ``rows`` (row numbers) of ``batch`` (a :class:`~fastscore.HandBatch` or
    :func:`empty_columns`) in place with ``codes`` (one, or one per row) and the matching
    ``messages``; a row flagged already is flagged again (the parser's word wins)."""
    rows = list(rows)
    if not rows:
        return
    batch.error[rows] = codes
    for i, message in zip(rows, messages):
        batch.messages[int(i)] = message
    batch.messages = dict(sorted(batch.messages.items()))
