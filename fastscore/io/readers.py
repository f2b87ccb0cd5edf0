"""Reading hand records, chunk by chunk, as :class:`~fastscore.HandBatch` es with their bad rows flagged.

Input records have the columns of :data:`fastscore.RECORD_KEYS`
(:data:`INPUT_SCHEMA`): ``hand`` is required, ``win`` is required for scoring
(not for waits analysis), the others default to the RULES.md section 2 context
(seat and round East, no flowers, streak 0, not self-drawn, no Closing).
Unknown columns are ignored, so a result file written with its input
columns (:func:`fastscore.io.open_writer` with ``with_input=True``) reads back as input.

Parsing is compiled for every format: Parquet notation columns go straight
to :meth:`fastscore.HandBatch.from_arrow`; JSON lines and CSV records
are read by Python's ``json`` and ``csv`` (a few microseconds a row) and
parsed through the same kernels (:meth:`fastscore.HandBatch.from_records`).
JSON lines are read as bytes and end at ``\n`` only: a carriage return is
JSON whitespace, and may sit inside a record.  Parquet page checksums are
verified where the file has them (:func:`fastscore.io.formats.parquet_file`).
A Parquet file of encoded hands (:mod:`fastscore.io.encoded`) is recognised by
its ``concealed`` column and taken as it is.

Everything streams: files are read :data:`DEFAULT_CHUNK_ROWS` rows at a time,
so memory does not grow with the file.  A bad record never stops a run; it
becomes a flagged row (``error != 0``) whose message names the row (counted
from 0 over the whole file) and, for unreadable JSON, the file and line.
:func:`read_ahead` reads and parses the next chunk on a background thread
while the caller scores the current one.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import itertools
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

from .._jit import threads_may_share_kernels
from ..arrow import bytes_columns, is_text_type
from ..batch import HandBatch
from ..records import RECORD_KEYS, decoded_records, flag_rows
from ..tiles import ErrorCode
from .encoded import ENCODED_COLUMNS, batch_from_encoded
from .formats import file_format, is_empty, parquet_file, parquet_read_errors

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "INPUT_SCHEMA",
    "batch_from_table",
    "hand_columns",
    "hand_file",
    "iter_batches",
    "read_ahead",
    "read_records",
    "read_row_groups",
]

#: Rows per chunk when reading and writing (about 10 MB of hand arrays and
#: results per chunk; large enough that the per-chunk kernel call and file
#: write overheads vanish, small enough to keep memory flat).
DEFAULT_CHUNK_ROWS = 65_536

#: Rows per row group of a Parquet result file (the last may be shorter).  Rows

#: The input columns, as named in error messages.
INPUT_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile, required for scoring, e.g. '9s'), "
    "self_drawn (true/false), seat (E/S/W/N), round (E/S/W/N), flowers (e.g. '1f5f'), "
    "streak (integer), closing (true/false); other columns are ignored"
)


_BAD_RECORD = "__error__"  # key of the sentinel record that stands for an unreadable JSON line or CSV row


def _check_chunk_rows(chunk_rows: int) -> int:
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    return int(chunk_rows)


def _missing_hand(path, found) -> ValueError:
    found = ", ".join(repr(c) for c in found) if found else "none"
    return ValueError(f"{path}: no 'hand' column (found {found}); expected columns: {INPUT_SCHEMA}")


def read_records(
    path: str | os.PathLike, chunk_rows: int = DEFAULT_CHUNK_ROWS, *, start_row: int = 0
) -> Iterator[list[dict]]:
    """Read hand records from a file, ``chunk_rows`` at a time, in file order.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl``/``.json``, ``.csv`` or ``.parquet`` file (see the module docstring).
    chunk_rows : int
        Records per chunk (the last chunk may be shorter).
    start_row : int
        Skip the file's first ``start_row`` records (to resume a run): Parquet
        row groups before it are not read, JSON lines before it are not
        parsed.  Blank JSON lines and empty CSV lines do not count as records.

    Yields
    ------
    list of dict
        Records with (a subset of) the :data:`fastscore.RECORD_KEYS`; CSV
        values are strings (empty means absent), JSON and Parquet values keep
        their types (Parquet text stored as binary is decoded as UTF-8, an
        undecodable byte as U+FFFD).  A JSON line that does not parse is yielded as
        ``{"__error__": "<file> line <n>: not valid JSON (...)"}``, which
        :func:`iter_batches` turns into a flagged row, and so is a CSV row
        whose number of fields is not the header's.  Blank JSON lines are skipped.  An
        empty file (0 bytes) of any format yields nothing.

    Raises
    ------
    ValueError
        Unknown file type, or a CSV/Parquet file without a ``hand`` column
        (the message lists the expected columns, :data:`INPUT_SCHEMA`).
    OSError
        The file cannot be read.
    """
    chunk_rows = _check_chunk_rows(chunk_rows)
    if isinstance(start_row, bool) or not isinstance(start_row, (int, np.integer)) or start_row < 0:
        raise ValueError(f"start_row must be an integer at least 0, got {start_row!r}")
    kind = file_format(path)
    if is_empty(path):
        return
    reader = {"jsonl": _read_jsonl, "csv": _read_csv, "parquet": _read_parquet}[kind]
    yield from reader(path, chunk_rows, int(start_row))


def _read_jsonl(path, chunk_rows: int, start_row: int) -> Iterator[list[dict]]:
    # Read as bytes: a record ends at "\n" only.  In text mode Python also ends lines at a lone
    # "\r", which JSON allows inside a record as whitespace: one record would become two rows and
    # every later row would move down one.  A "\r\n" ending is whitespace to json.loads.
    name = Path(path).name
    with open(path, "rb") as f:
        lines = _numbered_lines(f)
        head = list(itertools.islice(lines, 2))  # the first two records: is the file one JSON array?
        if not head:
            return
        array = _json_array(f, head, name) if head[0][1].lstrip().startswith(b"[") else None
        if array is not None:  # one JSON array of records (read whole, not streamed)
            for start in range(start_row, len(array), chunk_rows):
                yield [_json_record(value, f"{name} record {start + i}")
                       for i, value in enumerate(array[start:start + chunk_rows])]
            return
        chunk: list = []
        for line_no, line in itertools.chain(head, lines):
            if start_row:
                start_row -= 1
                continue
            try:
                record = _json_record(json.loads(_text(line)), f"{name} line {line_no}")
            except json.JSONDecodeError as exc:
                record = {_BAD_RECORD: f"{name} line {line_no}: not valid JSON ({exc.msg})"}
            chunk.append(record)
            if len(chunk) == chunk_rows:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


def _text(data: bytes) -> str:
    """Bytes of a JSON lines file as text: a leading byte-order mark dropped, a bad byte as U+FFFD
    (it spoils its record only)."""
    return data.decode("utf-8-sig", errors="replace")


def _numbered_lines(f) -> Iterator[tuple[int, bytes]]:
    """The lines of the binary file ``f`` that are not blank, with their numbers from 1; a UTF-8
    byte-order mark at the start of the file is dropped."""
    for line_no, line in enumerate(f, start=1):
        if line_no == 1 and line.startswith(codecs.BOM_UTF8):
            line = line[len(codecs.BOM_UTF8):]
        if line.strip():
            yield line_no, line


def _json_record(value, where: str):
    """A parsed JSON record; a value that is not an object as a flagged record naming ``where``."""
    if isinstance(value, dict):
        return value
    return {_BAD_RECORD: f"{where}: not a JSON object (a JSON {_JSON_TYPES.get(type(value), 'value')})"}


_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


def _json_array(f, head: list, name: str) -> list | None:
    """The records of a file that is one JSON array, else None; ``head``: its first two non-blank
    lines, the first starting with ``[``.

    The first line a whole JSON value and more lines after it: JSON lines whose first record
    is not an object (flagged; the others read as usual).  The first line a whole array and
    nothing after it: a one-line array of records.  Otherwise the array spans lines and the
    file is read whole.

    Raises
    ------
    ValueError
        The file is not valid JSON (naming the line).
    """
    try:
        value = json.loads(_text(head[0][1]))
    except json.JSONDecodeError:
        pass
    else:
        return value if len(head) == 1 and isinstance(value, list) else None
    f.seek(0)
    try:
        return json.loads(_text(f.read()))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} line {exc.lineno}: not valid JSON ({exc.msg})") from None


def _no_duplicates(path, names, wanted) -> None:
    """Raise ValueError when a column of ``wanted`` appears more than once in ``names``: which of
    the two holds the hands is not for the reader to guess."""
    twice = sorted({k for k in names if k in wanted and names.count(k) > 1})
    if twice:
        raise ValueError(f"{path}: the column{'s' if len(twice) > 1 else ''} {', '.join(repr(k) for k in twice)} "
                         f"appear{'' if len(twice) > 1 else 's'} more than once among its columns")


def _read_csv(path, chunk_rows: int, start_row: int) -> Iterator[list[dict]]:
    name = Path(path).name
    # The csv module refuses fields over 131,072 characters by default, and after refusing one it
    # cannot find where the record ends (a quoted field may span lines): long fields are read, and
    # the parser flags the record as any other bad hand.
    csv.field_size_limit(max(csv.field_size_limit(), _CSV_FIELD_LIMIT))
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        reader = csv.reader(f)
        try:
            header = next((row for row in reader if row), None)  # the first line that is not empty
        except csv.Error as exc:
            raise ValueError(f"{path} line {reader.line_num}: {exc}") from None
        if header is None:
            return  # only empty lines: no records, as a JSON lines file of blank lines
        names = [h.strip() for h in header]
        if "hand" not in names:
            raise _missing_hand(path, names)
        _no_duplicates(path, names, RECORD_KEYS)
        keep = [(names.index(k), k) for k in RECORD_KEYS if k in names]
        chunk: list = []
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                # Where the next record starts is unknown: the file stops here, named, rather than
                # its later rows being read out of line with its records.
                raise ValueError(f"{path} line {reader.line_num}: {exc}") from None
            if not row:
                continue
            if start_row:
                start_row -= 1
                continue
            if len(row) != len(names):
                # A field the header does not name, or one missing (a cut line): the row is flagged rather
                # than a field dropped or a value defaulted.
                chunk.append({_BAD_RECORD: f"{name} line {reader.line_num}: {len(row)} field{'s' if len(row) != 1 else ''}, "
                                         f"the header names {len(names)}"})
            else:
                chunk.append({k: row[j] for j, k in keep})
            if len(chunk) == chunk_rows:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


#: The csv module's field size limit while fastscore reads CSV (its default is 131,072).
_CSV_FIELD_LIMIT = 2**31 - 1


def hand_columns(path, names) -> tuple[list[str], bool]:
    """The columns to read from a Parquet file of hands whose columns are ``names``, and whether
    they are encoded hands (a ``concealed`` column) rather than notation records.

    Raises
    ------
    ValueError
        Neither a ``concealed`` nor a ``hand`` column.
    """
    names = list(names)
    _no_duplicates(path, names, ENCODED_COLUMNS if "concealed" in names else RECORD_KEYS)
    if "concealed" in names:
        if "declared" not in names:
            # Read without it, every hand with a declared set would silently become a different hand.
            raise ValueError(f"{path}: encoded hands need a 'declared' column next to 'concealed' "
                             f"(found {', '.join(repr(c) for c in names)})")
        return [k for k in ENCODED_COLUMNS if k in names], True
    if "hand" not in names:
        raise _missing_hand(path, names)
    return [k for k in RECORD_KEYS if k in names], False


@contextlib.contextmanager
def hand_file(path: str | os.PathLike):
    """Open the Parquet file of hands ``path``: yields ``(ParquetFile, columns, encoded)``, the
    columns to read and whether they are encoded hands (:func:`hand_columns`).

    The string columns of notation records but ``hand`` (the winning tile, winds, flowers: a
    few distinct values) that the file stores dictionary-encoded (any Parquet writer's
    default) are read as Arrow dictionaries: the compiled parser reads their values through
    the indices (:meth:`fastscore.HandBatch.from_arrow`) rather than a copy of every
    row's string.  A column stored plain is read as strings (a dictionary would be built by
    hashing every row).

    Raises
    ------
    ValueError
        As :func:`parquet_file` and :func:`hand_columns`.
    """
    import pyarrow as pa


    with parquet_file(path) as pf:
        schema, metadata = pf.schema_arrow, pf.metadata
    columns, encoded = hand_columns(path, schema.names)
    short = []
    if not encoded and metadata.num_row_groups:
        group = metadata.row_group(0)
        stored = {group.column(j).path_in_schema: group.column(j).has_dictionary_page
                  for j in range(group.num_columns)}
        short = [c for c in columns if c != "hand" and stored.get(c) and is_text_type(pa, schema.field(c).type)]
    with parquet_file(path, read_dictionary=short or None, metadata=metadata) as pf:
        yield pf, columns, encoded


def batch_from_table(table, *, encoded: bool, require_win: bool = True, path=None) -> HandBatch:
    """A batch, bad rows flagged, from a table of :func:`hand_columns`: encoded hands taken as they are
    (:func:`batch_from_encoded`), notation parsed by the compiled parser straight from the Arrow
    buffers (:meth:`fastscore.HandBatch.from_arrow`).  Messages count rows from 0 in ``table``.

    Raises
    ------
    ValueError
        A column of a type the parser does not take, or encoded values it cannot read; the message
        starts with ``path``, the file the table was read from, when given.
    """

    try:
        if encoded:
            return batch_from_encoded(table, require_win=require_win)
        return HandBatch.from_arrow(table, require_win=require_win)
    except ValueError as exc:
        if path is None:
            raise
        raise ValueError(f"{path}: {exc}") from None


def _parquet_tables(path, chunk_rows: int, start_row: int):
    """The hand columns (:func:`hand_columns`) of a Parquet file as pyarrow Tables of exactly
    ``chunk_rows`` rows (the last shorter), each with whether they are encoded hands."""
    import pyarrow as pa

    with hand_file(path) as (pf, columns, encoded):
        groups = list(range(pf.metadata.num_row_groups))
        while groups and start_row >= pf.metadata.row_group(groups[0]).num_rows:  # skip whole row groups
            start_row -= pf.metadata.row_group(groups.pop(0)).num_rows
        if not groups:
            return
        # Batches may end at row-group boundaries; re-chunk to exactly chunk_rows.
        pending: list = []
        pending_rows = 0
        for record_batch in _group_batches(path, pf, groups, chunk_rows, columns):
            if start_row:
                skip = min(start_row, record_batch.num_rows)
                record_batch, start_row = record_batch.slice(skip), start_row - skip
            pending.append(record_batch)
            pending_rows += record_batch.num_rows
            while pending_rows >= chunk_rows:
                table = pa.Table.from_batches(pending)
                yield table.slice(0, chunk_rows), encoded
                rest = table.slice(chunk_rows)
                pending, pending_rows = rest.to_batches(), rest.num_rows
        if pending_rows:
            yield pa.Table.from_batches(pending), encoded


def _group_batches(path, pf, groups, batch_size: int, columns):
    """The record batches of the row groups ``groups`` of the ParquetFile ``pf``, group by group, a read
    error (a damaged page) raised as :func:`parquet_read_errors` raises it, naming the row group."""
    for group in groups:
        with parquet_read_errors(path, [group]):
            yield from pf.iter_batches(batch_size=batch_size, columns=columns, row_groups=[group])


def _read_parquet(path, chunk_rows: int, start_row: int) -> Iterator[list[dict]]:
    import pyarrow as pa


    for table, _ in _parquet_tables(path, chunk_rows, start_row):
        yield decoded_records(table.to_pylist(), bytes_columns(pa, table.schema))


def _renumber(batch: HandBatch, offset: int) -> None:
    """Rewrite ``row i:`` message prefixes to file row numbers (keys stay chunk rows)."""
    if not offset:
        return
    for i, message in batch.messages.items():
        prefix = f"row {i}: "
        if message.startswith(prefix):
            batch.messages[i] = f"row {offset + i}: {message[len(prefix):]}"


def iter_batches(
    path: str | os.PathLike, *, require_win: bool = True, chunk_rows: int = DEFAULT_CHUNK_ROWS, start_row: int = 0
) -> Iterator[HandBatch]:
    """Read a file of hand records as :class:`~fastscore.HandBatch` chunks, bad rows flagged.

    Parameters
    ----------
    path : str or Path
        Input file (see :func:`read_records`).
    require_win : bool
        Flag rows without a winning tile (True for scoring; False for waits analysis).
    chunk_rows : int
        Rows per batch (the last may be shorter).
    start_row : int
        Begin at this file row (to resume a run; see :func:`read_records`);
        row numbers in messages still count from the file's first row.

    Yields
    ------
    HandBatch
        One per chunk, rows in file order.  Bad rows are flagged, not raised;
        their messages count rows from 0 over the whole file, e.g.
        ``"row 70000: 'xx': unknown letter 'x' ..."`` or
        ``"row 6: hands.jsonl line 7: not valid JSON (...)"``.

    Raises
    ------
    ValueError, OSError
        As :func:`read_records`: the file as a whole cannot be used.
    """
    offset = start_row
    if file_format(path) == "parquet" and not is_empty(path):
        for table, encoded in _parquet_tables(path, _check_chunk_rows(chunk_rows), start_row):
            batch = batch_from_table(table, encoded=encoded, require_win=require_win, path=path)
            _renumber(batch, offset)
            offset += table.num_rows
            yield batch
        return

    for records in read_records(path, chunk_rows, start_row=start_row):
        batch = HandBatch.from_records(records, require_win=require_win)  # JSON / CSV values parsed in compiled code
        bad = [i for i, record in enumerate(records) if isinstance(record, Mapping) and _BAD_RECORD in record]
        flag_rows(batch, bad, ErrorCode.BAD_TOKEN, [f"row {i}: {records[i][_BAD_RECORD]}" for i in bad])
        _renumber(batch, offset)
        offset += len(records)
        yield batch


def read_row_groups(path: str | os.PathLike, row_groups, *, skip: int, rows: int, offset: int,
                    require_win: bool = True) -> HandBatch:
    """Rows ``skip`` to ``skip + rows`` of the row groups ``row_groups`` of a Parquet file of hands, as one
    batch (bad rows flagged), parsed exactly as :func:`iter_batches` parses them (a Dask partition,
    :class:`fastscore.dask.Partition`).

    Parameters
    ----------
    path : str or Path
        A Parquet file of notation records or of encoded hands.
    row_groups : sequence of int
        Consecutive row groups that hold the rows.
    skip, rows : int
        Rows to drop from the start of the first row group, rows to keep.
    offset : int
        File row number of the first row kept: messages count rows from 0 over the whole input.
    require_win : bool
        As :func:`iter_batches`.

    Returns
    -------
    HandBatch
        ``rows`` rows, bad ones flagged.

    Raises
    ------
    ValueError
        As :func:`hand_file` and :func:`batch_from_table`; a damaged file (:func:`parquet_read_errors`).
    """
    with hand_file(path) as (pf, columns, encoded):
        with parquet_read_errors(path, row_groups):
            table = pf.read_row_groups(list(row_groups), columns=columns)
    batch = batch_from_table(table.slice(skip, rows), encoded=encoded, require_win=require_win, path=path)
    _renumber(batch, offset)
    return batch


_END = object()


def read_ahead(chunks: Iterator) -> Iterator:
    """The items of ``chunks``, each next one computed on a background thread while the caller
    works on the current one (at most one ahead).

    For a pipeline of chunks (:func:`iter_batches`: read, parse and check; the caller:
    score and write): Parquet reading and the compiled parser release the GIL, so reading
    overlaps the caller's kernels and the writer's encoding.  Items come in order; an
    exception raised by ``chunks`` is raised here, at the item it stopped at.  Closing
    the generator early waits for the read in progress (one chunk).  Under numba's
    ``workqueue`` threading layer, where two threads may not run parallel kernels at
    once (:func:`fastscore._jit.threads_may_share_kernels`), the items are computed
    in the caller's thread, as they are asked for.
    """
    from concurrent.futures import ThreadPoolExecutor

    if not threads_may_share_kernels():
        yield from chunks
        return
    it = iter(chunks)
    with ThreadPoolExecutor(1, thread_name_prefix="fastscore-reader") as pool:
        future = pool.submit(next, it, _END)
        while True:
            item = future.result()
            if item is _END:
                return
            future = pool.submit(next, it, _END)
            yield item
