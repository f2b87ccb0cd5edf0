"""Hand records from Arrow tables and Python dicts, through the compiled parser (LRC rules sections 2 and 8).

:func:`columns_from_arrow` turns a pyarrow Table or RecordBatch of hand
records into the columns of a :class:`~fastscore.HandBatch` without a Python
call per row: the kernels of :mod:`fastscore.kernels.parse` read the notation
from the Arrow buffers.  Exactly the result of the plain Python parser
(:func:`fastscore.records.parse_records`), by construction:

* A row the kernels accept holds the values :func:`fastscore.records.parse_record`
  gives (the tests compare every column on random and valid hands).
* A row the kernels flag, or cannot decide, is parsed again by the Python
  parser: its code and message are the slow path's own.  Only these rows,
  rare in real files, touch Python.
* The row checks of :mod:`fastscore.checks` flag the rest, with their messages.

:func:`columns_from_records` does the same for a list of dicts (JSON lines,
CSV rows, a script's records) by way of an Arrow table.
"""

from __future__ import annotations

import numpy as np

from .checks import check_batch
from .kernels.parse import (
    _BAD_CONTEXT,
    _BAD_WIN,
    _BYTE_CLASS,
    _BYTE_VALUE,
    _BYTE_WIND,
    _HAND,
    _OK,
    _PARSE_ORDER,
    _WIN_COL,
    PARALLEL_MIN_ROWS,
    WIN_MISSING,
    _context_parallel,
    _context_serial,
    _hands_parallel,
    _hands_serial,
)
from .events import event_fault, event_faults, parse_events
from .records import DROP_HINT, COLUMN_NAMES, NO_WIN_MESSAGE, RECORD_KEYS, check_columns, decoded_records, empty_columns, flag_rows, \
    parse_records
from .tiles import N_KINDS, ErrorCode

__all__ = ["ARROW_SCHEMA", "columns_from_arrow", "columns_from_records", "is_text_type", "bytes_columns"]

#: The input columns and the Arrow types accepted, as named in error messages.
ARROW_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile such as '9s', or integer tile index 0-33; required for scoring), "
    "self_drawn (bool, or string true/false/1/0/yes/no, or integer 0/1), "
    "seat (string E/S/W/N or integer 0-3), round (string E/S/W/N or integer 0-3), "
    "flowers (string such as '1f5f', '15f' or '1f 5f'), "
    "streak (integer, whole float or string), "
    "closing (bool, or string true/false/1/0/yes/no, or integer 0/1), "
    "events (string of event names such as 'last_tile after_gong', a list of them, or integer bits); "
    "strings may be string, large_string, string_view, binary, large_binary or binary_view (UTF-8 bytes) "
    "or dictionary-encoded; "
    "a missing column takes its default; other columns are refused"
)

# Column -> the kinds of Arrow type it may have ("null" is an all-null column).
_ALLOWED = {
    "hand": ("string", "null"),
    "win": ("string", "int", "null"),
    "self_drawn": ("bool", "string", "int", "null"),
    "seat": ("string", "int", "null"),
    "round": ("string", "int", "null"),
    "flowers": ("string", "null"),
    "streak": ("int", "float", "string", "null"),
    "closing": ("bool", "string", "int", "null"),
    "events": ("string", "list", "int", "null"),
}
#: The record keys that the compiled parser reads (a code each, 8 to a row word); ``events`` is read
#: after it (:func:`_read_events`).
_PARSED_KEYS = RECORD_KEYS[:8]


_FLAG_WORDS = np.zeros((6, 5), dtype=np.uint8)
for _j, _w in enumerate((b"true", b"yes", b"1", b"false", b"no", b"0")):
    _FLAG_WORDS[_j, : len(_w)] = np.frombuffer(_w, dtype=np.uint8)


def _readonly(a: np.ndarray) -> np.ndarray:
    """A read-only view, so that every buffer has one numba type (one compiled kernel)."""
    a = a.view()
    a.flags.writeable = False
    return a


_NO_BYTES = _readonly(np.zeros(0, dtype=np.uint8))
_NO_OFF32 = _readonly(np.zeros(0, dtype=np.int32))
_NO_OFF64 = _readonly(np.zeros(0, dtype=np.int64))
_NO_INDEX = _readonly(np.zeros(0, dtype=np.int64))


def _schema_error(message: str) -> ValueError:
    return ValueError(f"{message}; expected columns: {ARROW_SCHEMA}")


def is_text_type(pa, typ) -> bool:
    """``typ`` is string, large_string, binary or large_binary: values and offsets in two buffers, as the
    kernels read them (a view type or a dictionary is not)."""
    return (pa.types.is_string(typ) or pa.types.is_large_string(typ) or pa.types.is_binary(typ)
            or pa.types.is_large_binary(typ))


def _type_test(pa, name: str, typ) -> bool:
    """``pa.types.<name>(typ)``, False where this pyarrow has no such test (the view types came in pyarrow 16)."""
    test = getattr(pa.types, name, None)
    return test is not None and test(typ)


def _is_view(pa, typ) -> bool:
    """string_view or binary_view."""
    return _type_test(pa, "is_string_view", typ) or _type_test(pa, "is_binary_view", typ)


def _is_bytes(pa, typ) -> bool:
    """binary, large_binary or binary_view: text as UTF-8 bytes, not checked by Arrow to be valid."""
    return pa.types.is_binary(typ) or pa.types.is_large_binary(typ) or _type_test(pa, "is_binary_view", typ)


def bytes_columns(pa, schema) -> list[str]:
    """Names of the text columns of ``schema`` stored as bytes: binary, large_binary or binary_view,
    plain or dictionary-encoded (their values read as Python ``bytes``)."""
    return [f.name for f in schema
            if _is_bytes(pa, f.type.value_type if pa.types.is_dictionary(f.type) else f.type)]


def _type_kind(pa, typ) -> str | None:
    if is_text_type(pa, typ) or _is_view(pa, typ):
        return "string"
    if pa.types.is_dictionary(typ):
        return "string" if _type_kind(pa, typ.value_type) == "string" else None
    if pa.types.is_null(typ):
        return "null"
    if pa.types.is_boolean(typ):
        return "bool"
    if pa.types.is_integer(typ):
        return "int"
    if pa.types.is_floating(typ):
        return "float"
    if (pa.types.is_list(typ) or pa.types.is_large_list(typ)) and _type_kind(pa, typ.value_type) in ("string", "null"):
        return "list"
    return None


def _as_table(pa, table_or_batch):
    if isinstance(table_or_batch, pa.RecordBatch):
        return pa.Table.from_batches([table_or_batch])
    if isinstance(table_or_batch, pa.Table):
        return table_or_batch
    raise TypeError(f"HandBatch.from_arrow takes a pyarrow Table or RecordBatch, got {type(table_or_batch).__name__}")


def _large_strings(pa, arr):
    """``arr`` (a text type of :func:`_type_kind`, or a dictionary of one) as large_string, or as
    large_binary if it holds bytes (which need not be valid UTF-8).  The values of a dictionary are
    cast first: pyarrow cannot decode a dictionary of string_view."""
    if pa.types.is_dictionary(arr.type):
        values = _large_strings(pa, arr.dictionary)
        return pa.DictionaryArray.from_arrays(arr.indices, values).cast(values.type)
    return arr.cast(pa.large_binary() if _is_bytes(pa, arr.type) else pa.large_string())


def _string_buffers(pa, arr):
    """``(data, offsets, validity, bit offset, index)`` of a string array: numpy views of its buffers.

    Offsets are int32 (string, binary) or int64 (large_string, large_binary, and
    the view types, which are cast to them).  ``index`` is empty but for a dictionary-encoded array
    (as ``fastscore batch`` reads the short columns of a Parquet file): then
    it holds the rows' indices (N,) int64, and data and offsets are the
    dictionary's, so that the strings are not copied out row by row.
    """
    n = len(arr)
    if pa.types.is_null(arr.type):  # all null
        return _NO_BYTES, np.zeros(n + 1, dtype=np.int32), np.zeros((n + 7) // 8, np.uint8), 0, _NO_INDEX
    index = _NO_INDEX
    rows = None  # the array whose validity bitmap marks the null rows
    if pa.types.is_dictionary(arr.type):
        if arr.dictionary.null_count:  # a null value in the dictionary: the plain strings
            return _string_buffers(pa, _large_strings(pa, arr))
        rows, arr = arr.indices, arr.dictionary
        values = np.frombuffer(rows.buffers()[1], dtype=np.dtype(rows.type.to_pandas_dtype()))
        index = values[rows.offset: rows.offset + n].astype(np.int64)
        _check_indices(index, len(arr), rows)
    if not is_text_type(pa, arr.type):
        arr = _large_strings(pa, arr)
    if rows is None:
        rows = arr
    _, offsets_buf, data_buf = arr.buffers()
    dtype = np.int64 if pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type) else np.int32
    offsets = np.frombuffer(offsets_buf, dtype=dtype)[arr.offset: arr.offset + len(arr) + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None and data_buf.size else _NO_BYTES
    validity = rows.buffers()[0]
    if validity is None or rows.null_count == 0:
        return data, offsets, _NO_BYTES, 0, index
    return data, offsets, np.frombuffer(validity, dtype=np.uint8), rows.offset, index


def _check_indices(index: np.ndarray, size: int, indices) -> None:
    """Raise ValueError when a row's dictionary index (``index``, of the Arrow array ``indices``) is
    outside its dictionary of ``size`` values: the compiled parser would read past the strings.
    pyarrow reads such indices from a damaged Parquet file without raising (null rows may hold any)."""
    bad = (index < 0) | (index >= size)
    if not bad.any():
        return
    if indices.null_count:
        bad &= indices.is_valid().to_numpy(zero_copy_only=False)
    rows = np.flatnonzero(bad)
    if rows.size:
        raise ValueError(f"row {int(rows[0])}: a dictionary index {int(index[rows[0]])} past the column's "
                         f"{size} values; the data is damaged")


def _check_columns(pa, table, require_win: bool):
    """The columns read, each with its kind of type; raises ValueError on a bad schema."""
    names = table.column_names
    if "hand" not in names:
        found = ", ".join(repr(c) for c in names) if names else "none"
        raise _schema_error(f"no 'hand' column (found {found})")
    check_columns(names, "table", hint=DROP_HINT)
    kinds = {}
    # With require_win False the winning tile is ignored (parse_record: 16-tile hands for waits); None
    # reads it where given.
    for name in RECORD_KEYS:
        if name not in names or (name == "win" and require_win is False):
            continue
        typ = table.schema.field(name).type
        kind = _type_kind(pa, typ)
        if kind not in _ALLOWED[name]:
            raise _schema_error(f"column {name!r} has type {typ}")
        kinds[name] = kind
    return kinds


def _numeric_columns(pa, table, kinds, batch, codes: np.ndarray, require_win: bool | None = True) -> None:
    """Bool, integer and float columns, vectorised: values into ``batch``, faults into ``codes``.

    A null reads as 0 (False), which is each field's default (``parse_record``); a null ``win`` is
    missing (``require_win``) or -1 (``require_win`` None: read where given).
    """
    import pyarrow.compute as pc

    for col, name in enumerate(_PARSED_KEYS):
        kind = kinds.get(name)
        if kind not in ("bool", "int", "float"):
            continue
        column = table.column(name)
        if column.null_count:
            column = pc.fill_null(column, False if kind == "bool" else 0)
        values = column.to_numpy()
        target = getattr(batch, name)
        if name == "win":  # a tile index (records.parse_win); a null is missing, or no win (require_win None)
            ok = (values >= 0) & (values < N_KINDS)
            target[:] = np.where(ok, values, -1)
            codes[~ok, col] = _BAD_WIN
            if table.column(name).null_count:
                null = ~table.column(name).is_valid().to_numpy(zero_copy_only=False)
                if require_win:
                    codes[null, col] = WIN_MISSING
                else:
                    target[null] = -1
            continue
        if kind == "bool":
            target[:] = values
            continue
        if name in ("self_drawn", "closing"):
            ok = (values == 0) | (values == 1)
        elif name in ("seat", "round"):
            ok = (values >= 0) & (values <= 3)  # bool seats are refused by the schema check
        elif kind == "float":
            with np.errstate(invalid="ignore"):
                ok = (values >= 0) & (values <= 1000) & (values == np.floor(values))  # NaN fails
        else:
            ok = (values >= 0) & (values <= 1000)
        if ok.all():
            target[:] = values
        else:
            target[:] = np.where(ok, values, 0)
            codes[~ok, col] = _BAD_CONTEXT


def _compiled_pass(pa, table, kinds, require_win: bool):
    """Run the row kernel over ``table``: ``(batch, codes (N, 8), code (N,))``.

    Rows with ``code != 0`` still need the Python parser; the others, the row
    checks (:func:`fastscore.checks.check_batch`).
    """
    n = table.num_rows
    batch = empty_columns(n)
    codes = np.zeros((n, len(_PARSED_KEYS)), dtype=np.uint8)
    code = np.zeros(n, dtype=np.uint8)
    if require_win and "win" not in kinds:
        codes[:, _WIN_COL] = WIN_MISSING
    _numeric_columns(pa, table, kinds, batch, codes, require_win)
    strings = [name for name in _PARSED_KEYS if kinds.get(name) in ("string", "null")]
    part = table.select(strings)
    if part.column(0).num_chunks > n // 4096 + 8:
        # Many tiny chunks: one kernel call beats thousands.  Dictionaries decoded first: pyarrow
        # cannot unify chunk dictionaries that hold a null.
        part = _plain_strings(pa, part).combine_chunks()
    start = 0
    for chunk in part.to_batches():  # "hand" is always among them
        stop = start + chunk.num_rows
        if stop == start:
            continue
        rows = slice(start, stop)
        parallel = stop - start >= PARALLEL_MIN_ROWS
        buffers = {name: _string_buffers(pa, chunk.column(name)) for name in strings}
        data, offsets, valid, bit0, index = buffers.pop("hand")
        hand_code = np.zeros(stop - start, dtype=np.uint8)
        (_hands_parallel if parallel else _hands_serial)(
            _readonly(data), _readonly(offsets), _readonly(valid), bit0, _readonly(index), _BYTE_CLASS, _BYTE_VALUE,
            batch.concealed[rows], batch.declared[rows], hand_code)
        codes[rows, _HAND] = hand_code
        # One offset type for all columns: two compiled kernels, not one per mix of string types.
        wide = any(b[1].dtype == np.int64 for b in buffers.values())
        no_offsets = _NO_OFF64 if wide else _NO_OFF32
        meta = np.zeros((len(_PARSED_KEYS), 2), dtype=np.int64)
        args = []
        for col, name in enumerate(_PARSED_KEYS[1:], start=1):
            if name in buffers:
                data, offsets, valid, bit0, index = buffers[name]
                meta[col] = (1, bit0)
                args += [_readonly(data), _readonly(offsets.astype(no_offsets.dtype, copy=False)), _readonly(valid),
                         _readonly(index)]
            else:
                args += [_NO_BYTES, no_offsets, _NO_BYTES, _NO_INDEX]
        (_context_parallel if parallel else _context_serial)(
            *args, meta, _PARSE_ORDER, _FLAG_WORDS, _BYTE_CLASS, _BYTE_VALUE, _BYTE_WIND, bool(require_win),
            batch.concealed[rows], batch.declared[rows], batch.win[rows], batch.self_drawn[rows], batch.seat[rows],
            batch.round[rows], batch.flowers[rows], batch.streak[rows], batch.closing[rows], codes[rows],
            codes[rows].view(np.uint64)[:, 0], code[rows])
        start = stop
    return batch, codes, code


def columns_from_arrow(table_or_batch, *, require_win: bool | None = True):
    """Parse hand records held in Arrow columns into batch columns, bad rows flagged, in compiled code.

    The same result as ``fastscore.records.parse_records(table.to_pylist(), require_win=...)``,
    column for column, error code for error code, message for message, at
    millions of rows a second: see the module docstring.

    Parameters
    ----------
    table_or_batch : pyarrow.Table or pyarrow.RecordBatch
        Columns named as :data:`fastscore.RECORD_KEYS` (:data:`ARROW_SCHEMA`):
        ``hand`` (string) is required; ``win``, ``self_drawn``, ``seat``,
        ``round``, ``flowers``, ``streak``, ``closing`` and ``events`` take the defaults
        of :func:`fastscore.records.parse_record` when absent (not self-drawn,
        seat and round East, no flowers, streak 0, no Closing, no event) and row by row
        when null.  Other columns are refused (:func:`fastscore.records.check_columns`), but for those
        of a fastscore result written with its input columns.  Chunked and sliced columns,
        string or large_string offsets and dictionary-encoded string columns
        are read in place.  Binary columns are read as UTF-8 text: a row
        with bytes that are not UTF-8 reads each as U+FFFD (as
        :meth:`~fastscore.HandBatch.from_structured` decodes ``S`` fields),
        which flags it.
    require_win : bool or None
        Flag rows without a winning tile (True for scoring).  When False
        (waits analysis) the ``win`` column is ignored and every ``win`` is -1.
        When None (shanten: 16- or 17-tile hands) it is read where given, -1 where null.

    Returns
    -------
    types.SimpleNamespace
        The fields of a :class:`~fastscore.HandBatch` (:func:`fastscore.records.empty_columns`),
        one row per input row; bad rows flagged with an :class:`~fastscore.tiles.ErrorCode` and a
        message ``"row i: ..."``.  ``HandBatch.from_arrow`` wraps them.

    Raises
    ------
    ValueError
        No ``hand`` column, a column fastscore does not read (the message names it), or a column of a
        type not listed in :data:`ARROW_SCHEMA` (the message lists the expected columns).
    TypeError
        ``table_or_batch`` is not a pyarrow Table or RecordBatch.

    Examples
    --------
    >>> import pyarrow as pa
    >>> b = columns_from_arrow(pa.table({"hand": ["11m99m77p11s9s EE RR 333p", "12 3m"], "win": ["9s", "1m"]}))
    >>> b.error.tolist(), int(b.concealed[0, 27])
    ([0, 1], 2)
    """
    import pyarrow as pa

    table = _as_table(pa, table_or_batch)
    kinds = _check_columns(pa, table, require_win)
    table = table.select(list(kinds))
    if table.num_rows == 0:
        return empty_columns(0)
    batch, _, code = _compiled_pass(pa, table, kinds, require_win)

    # Hand parsed, winning tile null or empty: parse_record's own message, without a re-parse.
    missing_win = np.flatnonzero(code == WIN_MISSING)
    if missing_win.size:
        _reset_rows(batch, missing_win)
        batch.error[missing_win] = ErrorCode.BAD_WIN
        for i in missing_win.tolist():
            batch.messages[i] = f"row {i}: {NO_WIN_MESSAGE}"
    # Other faults: the Python parser gives the row's values, code and message.
    flagged = np.flatnonzero((code != _OK) & (code != WIN_MISSING))
    if flagged.size:
        records = _plain_strings(pa, table).take(pa.array(flagged)).to_pylist()
        records = decoded_records(records, bytes_columns(pa, table.schema))
        _copy_rows(batch, flagged, parse_records(records, require_win=require_win))
    if "events" in kinds:  # the rows parsed here; the Python parser read the flagged rows' own
        _read_events(pa, table.column("events"), kinds["events"], batch, code == _OK, require_win)
    batch.messages = dict(sorted(batch.messages.items()))
    return check_batch(batch, require_win=require_win)


def _read_events(pa, column, kind: str, batch, rows: np.ndarray, require_win) -> None:
    """Fill ``batch.events`` at ``rows`` ((N,) bool, the rows the compiled parser read) from the
    ``events`` column, each distinct value parsed once (:func:`fastscore.events.parse_events`); flag a
    row whose events are unknown or cannot happen with its win (:func:`fastscore.events.event_fault`)."""
    import pyarrow.compute as pc

    n = len(column)
    rows = rows & (batch.error == 0)
    if kind == "int":
        values = pc.fill_null(column, 0).to_numpy()
        distinct, index = np.unique(values, return_inverse=True)
        distinct = distinct.tolist()
    elif kind == "list":
        values = [None if v is None else tuple(v) for v in column.to_pylist()]
        distinct = sorted(set(values), key=repr)
        where = {v: j for j, v in enumerate(distinct)}
        index = np.array([where[v] for v in values], dtype=np.int64)
        distinct = [None if v is None else list(v) for v in distinct]
    else:  # text (a dictionary column's values too)
        encoded = pc.dictionary_encode(column.cast(pa.large_string()) if kind == "string" else column)
        encoded = encoded.combine_chunks() if hasattr(encoded, "combine_chunks") else encoded
        distinct = encoded.dictionary.to_pylist() + [None]
        index = pc.fill_null(encoded.indices, len(distinct) - 1).to_numpy(zero_copy_only=False)
    bits, problem = np.zeros(len(distinct), dtype=np.int64), {}
    for j, value in enumerate(distinct):
        try:
            bits[j] = parse_events(value)
        except ValueError as exc:
            problem[j] = str(exc)
    events = bits[index] if n else np.zeros(0, dtype=np.int64)
    self_drawn = batch.self_drawn if require_win is not False else None
    bad = rows & (np.isin(index, list(problem)) | event_faults(events, self_drawn, batch.seat, batch.closing))
    good = rows & ~bad
    batch.events[good] = events[good]
    bad_rows = np.flatnonzero(bad)
    messages = {}
    for i in bad_rows.tolist():
        j = int(index[i])
        messages[i] = problem.get(j) or event_fault(int(events[i]), None if self_drawn is None else bool(self_drawn[i]),
                                                    int(batch.seat[i]), bool(batch.closing[i]))
    _reset_rows(batch, bad_rows)  # as the Python parser leaves a record it refuses
    batch.error[bad_rows] = ErrorCode.BAD_CONTEXT
    batch.messages.update({i: f"row {i}: {message}" for i, message in messages.items()})


def _plain_strings(pa, table):
    """``table`` with its view and dictionary columns cast to large_string (large_binary), chunk by
    chunk: pyarrow's ``take`` has no view kernel, nor unifies chunk dictionaries that hold a null."""
    columns = []
    for column in table.columns:
        typ = column.type
        if pa.types.is_dictionary(typ) or _is_view(pa, typ):
            chunks = [_large_strings(pa, chunk) for chunk in column.chunks]
            column = pa.chunked_array(chunks, chunks[0].type if chunks else pa.large_string())
        columns.append(column)
    return pa.Table.from_arrays(columns, names=table.column_names)


def _reset_rows(batch, rows: np.ndarray) -> None:
    """Give ``rows`` the values of :func:`fastscore.records.empty_columns` (what a row that fails to parse holds)."""
    empty = empty_columns(1)
    for name in COLUMN_NAMES:
        getattr(batch, name)[rows] = getattr(empty, name)[0]


def _copy_rows(batch, rows: np.ndarray, sub, columns=COLUMN_NAMES) -> None:
    """Copy the rows of ``sub`` (row j is ``rows[j]``) into ``batch``, renumbering messages."""
    for name in columns:
        getattr(batch, name)[rows] = getattr(sub, name)
    for j, message in sub.messages.items():
        i = int(rows[j])
        prefix = f"row {j}: "
        batch.messages[i] = f"row {i}: {message[len(prefix):]}" if message.startswith(prefix) else message


def columns_from_records(records, *, require_win: bool | None = True):
    """Hand records (dicts) into batch columns, through the compiled parser when they make an Arrow table.

    The records (dicts from JSON lines or CSV) become a pyarrow Table of their
    :data:`fastscore.RECORD_KEYS` (about 4 microseconds a row) parsed by
    :func:`columns_from_arrow`, which gives exactly the Python parser's result.
    Records that do not make a table of the types :data:`ARROW_SCHEMA`
    accepts (a row that is not a dict, a column of mixed or other types,
    text as ``bytes``) go through :func:`fastscore.records.parse_records` as they are.

    Returns
    -------
    types.SimpleNamespace
        As ``fastscore.records.parse_records(records, require_win=require_win)``: the
        same columns, error codes and messages.
    """
    import pyarrow as pa

    records = list(records)
    if records and all(type(r) is dict for r in records):
        try:
            # Every key of RECORD_KEYS present in any record (from_pylist would take the first record's keys).
            present = set().union(*records)
            table = pa.table({k: [r.get(k) for r in records] for k in RECORD_KEYS if k in present})
            table = table.select(list(_check_columns(pa, table, require_win)))
        except (pa.ArrowException, ValueError, TypeError, OverflowError):
            pass
        else:
            if not bytes_columns(pa, table.schema):  # from_records takes no bytes for text: it flags them
                batch = columns_from_arrow(table, require_win=require_win)
                if "hand" in table.column_names and table.column("hand").null_count == 0:
                    return batch  # every record has a hand
                return _with_missing_hands(batch, records, require_win)
    return parse_records(records, require_win=require_win)


def _with_missing_hands(batch, records, require_win: bool):
    """``batch`` with the records that have no 'hand' key flagged as :func:`fastscore.records.parse_records`
    flags them (the table read them as null hands, whose message differs)."""
    missing = [i for i, r in enumerate(records) if "hand" not in r]
    if missing:
        slow = parse_records([records[i] for i in missing], require_win=require_win)
        flag_rows(batch, missing, slow.error, [f"row {i}: {slow.messages[j].removeprefix(f'row {j}: ')}"
                                               for j, i in enumerate(missing)])
    return batch
