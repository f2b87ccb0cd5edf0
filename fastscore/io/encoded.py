"""Encoded hands: a Parquet file that holds the :class:`~fastscore.HandBatch` columns themselves.

A file of encoded hands (:data:`ENCODED_COLUMNS`, :func:`write_encoded`) holds
tile counts, declared sets and context instead of notation.
:func:`fastscore.io.iter_batches` recognises it by its ``concealed`` column
and takes the arrays as they are (:func:`batch_from_encoded`): no parsing;
rows flagged when the file was written keep their message, and a compiled
pass (:func:`fastscore.checks.check_batch`) flags the others as for any batch.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import numpy as np

from .._lock import OutputLock
from ..batch import HandBatch
from ..checks import check_batch
from ..tiles import MAX_DECLARED, ErrorCode
from .formats import file_format, is_empty, parquet_file
from .parts import naming_path
from .writer import _ParquetSink

__all__ = [
    "ENCODED_COLUMNS",
    "ENCODED_TAG",
    "batch_from_encoded",
    "encoded_schema",
    "encoded_table",
    "is_encoded",
    "write_encoded",
]

#: Columns of an encoded hand file (:func:`write_encoded`), in order: the :class:`~fastscore.HandBatch`
#: columns as Arrow types.  ``concealed`` is 34 bytes a row (tile counts, Tenhou order),
#: ``declared`` 10 bytes (5 declared sets as SetKind, lowest tile; int8, kind 0 pads), ``error`` the
#: :class:`~fastscore.ErrorCode` of a row flagged when it was encoded and ``message`` its message
#: without the ``row N:`` prefix (null for valid rows).  Reading also accepts ``concealed`` and
#: ``declared`` as fixed_size_list<uint8>[34] and fixed_size_list<int8>[10], the integer columns
#: as other integer types (cast safely: a value that does not fit is an error for the file), and
#: files without the context, ``error`` and ``message`` columns (defaults as
#: :meth:`HandBatch.from_arrays`).  Nulls in context columns read as the
#: defaults; a null ``concealed`` or ``declared`` flags the row.
ENCODED_COLUMNS = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak",
                   "closing", "events", "error", "message")

#: Schema metadata key and value that :func:`write_encoded` stores (reading needs only the ``concealed`` column).
ENCODED_TAG = (b"fastscore.encoding", b"hands/1")
#: Schema metadata of a file of 16-tile hands for waits analysis (``write_encoded(..., waits=True)``,
#: ``fastscore encode --waits``): no row has a winning tile, so scoring it is refused up front.
WAITS_TAG = (b"fastscore.win", b"none")

_ENCODED_WIDTH = {"concealed": 34, "declared": 10}
_ENCODED_DTYPE = {"concealed": np.uint8, "declared": np.int8, "win": np.int8, "self_drawn": np.bool_,
                  "seat": np.uint8, "round": np.uint8, "flowers": np.uint8, "streak": np.int32,
                  "closing": np.bool_, "events": np.uint16, "error": np.uint8}
_ENCODED_DEFAULT = {"win": -1, "self_drawn": False, "seat": 0, "round": 0, "flowers": 0, "streak": 0,
                    "closing": False, "events": 0, "error": 0}
_ROW_PREFIX = re.compile(r"row \d+: ")
#: A message that names its own line of a text file (``hands.jsonl line 2: ...``, as the JSON lines and CSV
#: readers write them) is kept as it is when read back: scoring the encoded file then writes what scoring
#: the text file writes.
_LINE_PREFIX = re.compile(r"[^']+? line \d+: ")


def encoded_schema():
    """The pyarrow schema of an encoded hand file (:data:`ENCODED_COLUMNS`)."""
    import pyarrow as pa

    return pa.schema([
        pa.field("concealed", pa.binary(34)),
        pa.field("declared", pa.binary(10)),
        pa.field("win", pa.int8()),
        pa.field("self_drawn", pa.bool_()),
        pa.field("seat", pa.uint8()),
        pa.field("round", pa.uint8()),
        pa.field("flowers", pa.uint8()),
        pa.field("streak", pa.int32()),
        pa.field("closing", pa.bool_()),
        pa.field("events", pa.uint16()),
        pa.field("error", pa.uint8()),
        pa.field("message", pa.string()),
    ], metadata=dict([ENCODED_TAG]))


def is_encoded(path: str | os.PathLike) -> bool:
    """True when ``path`` is a Parquet file of encoded hands (it has a ``concealed`` column)."""
    if file_format(path) != "parquet" or is_empty(path):
        return False
    with parquet_file(path) as pf:
        return "concealed" in pf.schema_arrow.names


def encoded_table(batch: HandBatch):
    """A batch as a pyarrow Table of :func:`encoded_schema`, its arrays' bytes without a per-row step."""
    import pyarrow as pa

    n = len(batch)
    schema = encoded_schema()
    arrays = []
    for field in schema:
        name = field.name
        if name == "message":
            messages: list = [None] * n
            for i, message in batch.messages.items():
                if batch.error[i]:
                    messages[i] = _ROW_PREFIX.sub("", message, count=1)
            arrays.append(pa.array(messages, pa.string()))
            continue
        values = np.ascontiguousarray(getattr(batch, name), dtype=_ENCODED_DTYPE[name])
        if name in _ENCODED_WIDTH:
            arrays.append(pa.FixedSizeBinaryArray.from_buffers(field.type, n, [None, pa.py_buffer(values)]))
        else:
            arrays.append(pa.array(values, field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _encoded_bytes(pa, column, name: str, n: int, bad: np.ndarray) -> np.ndarray:
    """``concealed`` / ``declared`` as a writable ``(n, width)`` array; null rows marked in ``bad``."""
    width = _ENCODED_WIDTH[name]
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    typ = array.type
    if pa.types.is_fixed_size_binary(typ) and typ.byte_width == width:
        data = np.frombuffer(array.buffers()[1], dtype=np.uint8)
        values = data[array.offset * width:(array.offset + n) * width].reshape(n, width)
    elif pa.types.is_fixed_size_list(typ) and typ.list_size == width and typ.value_type == pa.from_numpy_dtype(
            _ENCODED_DTYPE[name]):
        flat = array.flatten()  # the values of the rows in view (nulls included, as whatever they hold)
        if flat.null_count:
            raise ValueError(f"column {name!r} holds a null tile count or set inside a list")
        values = flat.to_numpy(zero_copy_only=False).view(np.uint8).reshape(n, width)
    else:
        raise ValueError(f"column {name!r} has type {typ}; expected fixed_size_binary({width}) "
                         f"(or fixed_size_list<{pa.from_numpy_dtype(_ENCODED_DTYPE[name])}>[{width}])")
    values = np.array(values, dtype=np.uint8)  # a writable copy: HandBatch columns are ordinary arrays
    if array.null_count:
        nulls = array.is_null().to_numpy(zero_copy_only=False)
        values[nulls] = 0
        bad |= nulls
    return values


def batch_from_encoded(table, *, require_win: bool = True) -> HandBatch:
    """Build a :class:`~fastscore.HandBatch` from a pyarrow Table of encoded hands, bad rows flagged.

    Columns as :data:`ENCODED_COLUMNS` (only ``concealed`` is required), taken
    as arrays: one copy per column, no step per row.  Rows flagged when the
    file was written keep their ``error`` and ``message`` (``row i:`` in front, counted in ``table``, unless
    the message names its line of the text file encoded, as the JSON lines and CSV readers write it); every other row
    goes through the compiled row check (:func:`fastscore.checks.check_batch`),
    which flags the bad ones with their messages (``row i:``, counted in
    ``table``).  With ``require_win`` False (waits analysis) ``win`` is ignored; None reads it where
    given (shanten).

    Raises
    ------
    ValueError
        No ``concealed`` column, or a column of another type (the message
        names it and the type expected); a value that does not fit its column's
        type in the batch (say a seat of 300).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    names = table.column_names
    if "concealed" not in names:
        raise ValueError(f"no 'concealed' column (found {', '.join(map(repr, names)) or 'none'}); "
                         f"encoded hand columns: {', '.join(ENCODED_COLUMNS)}")
    n = table.num_rows
    batch = HandBatch.empty(n)
    null_sets = np.zeros(n, dtype=np.bool_)
    batch.concealed = _encoded_bytes(pa, table.column("concealed"), "concealed", n, null_sets)
    if "declared" in names:
        batch.declared = _encoded_bytes(pa, table.column("declared"), "declared", n, null_sets).view(
            np.int8).reshape(n, MAX_DECLARED, 2)
    for name, default in _ENCODED_DEFAULT.items():
        if name not in names or (name == "win" and require_win is False):
            continue
        column = table.column(name)
        target = pa.from_numpy_dtype(_ENCODED_DTYPE[name])
        if not (column.type == target or (pa.types.is_integer(column.type) and name not in ("self_drawn", "closing"))
                or (pa.types.is_null(column.type))):
            raise ValueError(f"column {name!r} has type {column.type}; expected {target}")
        if pa.types.is_null(column.type):  # all null: the default
            continue
        try:
            column = column.cast(target)  # safe: a value that does not fit raises
        except pa.ArrowInvalid as exc:
            raise ValueError(f"column {name!r}: {exc}") from None
        if column.null_count:
            column = pc.fill_null(column, default)
        getattr(batch, name)[:] = column.to_numpy()
    codes = batch.error
    if codes.any():  # rows flagged when the file was written
        messages = table.column("message").to_pylist() if "message" in names else [None] * n
        for i in np.flatnonzero(codes).tolist():
            code = int(codes[i])
            if code in ErrorCode.__members__.values():
                message = messages[i] or ErrorCode(code).name
                batch.messages[i] = message if _LINE_PREFIX.match(message) else f"row {i}: {message}"
            else:
                codes[i] = ErrorCode.BAD_ARRAY
                batch.messages[i] = f"row {i}: unknown error code {code}" + (f" ({messages[i]})" if messages[i] else "")
    for i in np.flatnonzero(null_sets & (codes == 0)).tolist():
        codes[i] = ErrorCode.BAD_ARRAY
        batch.messages[i] = f"row {i}: null concealed or declared"
    batch.messages = dict(sorted(batch.messages.items()))
    return check_batch(batch, require_win=require_win)


def write_encoded(batches, path: str | os.PathLike, *, waits: bool = False, keep=None) -> int:
    """Write hands to ``path`` as an encoded Parquet file (:func:`encoded_schema`), atomically.

    Parameters
    ----------
    batches : HandBatch or iterable of HandBatch
        The rows, in order (for instance :func:`iter_batches` of a notation file).
    path : str or Path
        A ``.parquet`` / ``.pq`` file; written as ``.<name>.partial`` and renamed when complete,
        holding the output's lock (:mod:`fastscore._lock`) meanwhile.
    waits : bool
        16-tile hands for waits analysis, no winning tile in any row (``win`` -1): marked in the file
        (:data:`WAITS_TAG`), so that scoring it stops before any row with a message saying so.
    keep : pyarrow.Schema, optional
        Columns fastscore does not read, carried through (``fastscore encode --keep``): ``batches`` then
        yields ``(HandBatch, pyarrow.Table)`` pairs, as :func:`fastscore.io.iter_chunks` with ``keep``, and
        the tables' columns are written after the encoded ones (read back with ``--keep`` / ``keep=``).

    Returns
    -------
    int
        Rows written.  Row groups hold :data:`ROW_GROUP_ROWS` rows, so the same hands make the same bytes.

    Raises
    ------
    ValueError
        ``path`` is not a Parquet file name, or another run is writing it; a kept column named as an
        encoded one.

    Examples
    --------
    >>> write_encoded(iter_batches("hands.parquet"), "hands.enc.parquet")   # doctest: +SKIP
    """
    import pyarrow as pa

    if file_format(path) != "parquet":
        raise ValueError(f"{path}: encoded hands are written to Parquet (.parquet or .pq)")
    if isinstance(batches, HandBatch):
        batches = [batches]
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    schema = encoded_schema()
    if keep is not None:
        clash = [name for name in keep.names if name in ENCODED_COLUMNS]
        if clash:
            raise ValueError(f"--keep {clash[0]}: an encoded file has its own column {clash[0]!r}")
        schema = pa.schema([*schema, *keep], metadata=schema.metadata)
    else:
        batches = ((batch, None) for batch in batches)
    if waits:
        schema = schema.with_metadata({**schema.metadata, WAITS_TAG[0]: WAITS_TAG[1]})
    with OutputLock(path):  # the same lock as a ResultWriter of this output
        sink = _ParquetSink(partial, schema, options=_ENCODED_OPTIONS)
        rows = 0
        try:
            for batch, kept in batches:
                table = encoded_table(batch)
                if kept is not None:
                    table = pa.Table.from_arrays([*table.columns, *kept.columns], schema=schema)
                with naming_path(partial):  # a full disk's error names no file
                    sink.write(table)
                rows += len(batch)
            with naming_path(partial):
                sink.close()
            os.replace(partial, path)
        except BaseException:
            try:
                sink.close(flush=False)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(partial)
            raise
    return rows


#: Parquet options of encoded hand files: plain values (nearly every row's tile counts differ;
#: the declared sets compress as well without a dictionary), LZ4 (a third of the plain size, read
#: back at about 20 million rows a second), no statistics, page checksums (verified on reading).
_ENCODED_OPTIONS = {"compression": "lz4", "use_dictionary": False, "write_statistics": False,
                    "write_page_checksum": True}
