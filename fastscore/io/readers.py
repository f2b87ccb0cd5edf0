"""Reading hand records, chunk by chunk, as :class:`~fastscore.HandBatch` es with their bad rows flagged.

Input records have the columns of :data:`fastscore.RECORD_KEYS`
(:data:`INPUT_SCHEMA`): ``hand`` is required, ``win`` is required for scoring
(not for waits analysis), the others default to the LRC rules section 2 context
(seat and round East, no flowers, streak 0, not self-drawn, no Closing).
A column fastscore does not read is an error naming it
(:func:`fastscore.records.check_columns`, :func:`check_input`), unless it is
named in ``keep``: its values are then carried through, chunk by chunk, beside
the hands (:func:`iter_chunks`) and written beside the results.  The columns of
a fastscore result are skipped, so a result file written with its input
columns (:func:`fastscore.io.open_writer` with ``with_input=True``) reads back as input.
JSON lines have no header: the first record's keys are checked as a header
(an unknown key there stops the file); a later record with an unknown key is
a flagged row naming the key.

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
becomes a flagged row (``error != 0``) whose message names the file and line
of a JSON lines or CSV record, or the row (counted from 0 over the whole file)
of a Parquet file.
:func:`read_ahead` reads and parses the next chunk on a background thread
while the caller scores the current one.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from collections.abc import Iterator, Mapping

import numpy as np

from .._jit import threads_may_share_kernels
from ..arrow import bytes_columns, is_text_type
from ..batch import HandBatch
from ..records import RECORD_KEYS, check_columns, decoded_records, flag_rows
from ..rules import default_rules
from ..tiles import ErrorCode
from .encoded import ENCODED_COLUMNS, WAITS_TAG, batch_from_encoded
from .formats import file_format, is_empty, parquet_file, parquet_read_errors
from .schemas import RESULT_COLUMNS
from .text import INPUT_SCHEMA, _BAD_RECORD, _csv_header, _first_json_record, _json_type, _kept_json_values, _missing_hand, _no_duplicates, _read_csv, \
    _read_jsonl

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "INPUT_SCHEMA",
    "batch_from_table",
    "check_input",
    "check_keep",
    "hand_columns",
    "hand_file",
    "iter_batches",
    "iter_chunks",
    "read_ahead",
    "read_records",
    "read_row_groups",
]

#: Rows per chunk when reading and writing (about 10 MB of hand arrays and
#: results per chunk; large enough that the per-chunk kernel call and file
#: write overheads vanish, small enough to keep memory flat).
DEFAULT_CHUNK_ROWS = 65_536

#: Rows per row group of a Parquet result file (the last may be shorter).  Rows


def _check_chunk_rows(chunk_rows: int) -> int:
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    return int(chunk_rows)


def read_records(
    path: str | os.PathLike, chunk_rows: int = DEFAULT_CHUNK_ROWS, *, start_row: int = 0, keep=(),
    require_win: bool = False, _lines: list | None = None,
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
    keep : sequence of str
        Columns fastscore does not read that the records carry (:func:`check_input`).
    require_win : bool
        A file without a ``win`` column is refused (:func:`check_input`).

    Yields
    ------
    list of dict
        Records with (a subset of) the :data:`fastscore.RECORD_KEYS`; CSV
        values are strings (empty means absent), JSON and Parquet values keep
        their types (Parquet text stored as binary is decoded as UTF-8, an
        undecodable byte as U+FFFD).  A JSON line that does not parse is yielded as
        ``{"__error__": "<file> line <n>: not valid JSON (...)"}``, which
        :func:`iter_batches` turns into a flagged row, and so is a CSV row
        whose number of fields is not the header's, and a JSON record after the
        first with a key that is neither read nor kept.  Blank JSON lines are skipped.  An
        empty file (0 bytes) of any format yields nothing.

    Raises
    ------
    ValueError
        As :func:`check_input`: unknown file type, a file without a ``hand`` column
        (the message lists the expected columns, :data:`INPUT_SCHEMA`), with a column
        fastscore does not read, or without ``win`` where it is required.
    OSError
        The file cannot be read.
    """
    chunk_rows = _check_chunk_rows(chunk_rows)
    if isinstance(start_row, bool) or not isinstance(start_row, (int, np.integer)) or start_row < 0:
        raise ValueError(f"start_row must be an integer at least 0, got {start_row!r}")
    kind = file_format(path)
    keep = tuple(keep)
    check_input(path, keep=keep, require_win=require_win)
    if is_empty(path):
        return
    if kind == "jsonl":  # _lines: refilled with each chunk's line numbers (iter_chunks' messages)
        yield from _read_jsonl(path, chunk_rows, int(start_row), keep, _lines)
    elif kind == "csv":
        yield from _read_csv(path, chunk_rows, int(start_row), keep, _lines)
    else:
        yield from _read_parquet(path, chunk_rows, int(start_row), keep)


def check_input(path: str | os.PathLike, *, keep=(), require_win: bool = True):
    """Check the columns of the input file ``path`` before any row is read (a CSV header, the first JSON
    record's keys, a Parquet footer), and give the pyarrow schema of its ``keep`` columns.

    Every column must be one fastscore reads (:data:`fastscore.RECORD_KEYS`; the
    :data:`~fastscore.io.ENCODED_COLUMNS` of encoded hands), a column of a fastscore result
    (skipped), or one of ``keep``: nothing is dropped unread.  JSON lines have no header: the
    first record stands for it (a later record with an unknown key is a flagged row), but a kept
    key is looked for in every record.

    Parameters
    ----------
    path : str or Path
        The input.
    keep : sequence of str
        Columns fastscore does not read, carried through to the output (``--keep``).
    require_win : bool
        A ``win`` column is required (scoring).

    Returns
    -------
    pyarrow.Schema
        The types of the kept columns: a Parquet file's own, ``string`` in CSV; in JSON lines
        those of each key's first value that is not null (a string, number or boolean; string when
        every value is null).
        Empty for no ``keep``.

    Raises
    ------
    ValueError
        Unknown file type; no ``hand`` column; a column fastscore does not read (naming it and
        the columns it reads); no ``win`` column with ``require_win`` (or encoded hands written for
        waits analysis: :func:`hand_columns`); a kept column the file
        does not have, or one fastscore reads (``hand``) or writes (``error``).
    OSError
        The file cannot be read (FileNotFoundError: it does not exist).
    """
    import pyarrow as pa

    kind = file_format(path)
    keep = check_keep(keep)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    if is_empty(path):
        return pa.schema([pa.field(k, pa.string()) for k in keep])
    if kind == "parquet":
        with parquet_file(path) as pf:
            schema = pf.schema_arrow
        hand_columns(path, schema.names, keep=keep, require_win=require_win, metadata=schema.metadata)
        return pa.schema([schema.field(k) for k in keep])
    if kind == "csv":
        names = _csv_header(path)
        if names is None:
            return pa.schema([pa.field(k, pa.string()) for k in keep])
        _check_names(path, names, keep, require_win)
        return pa.schema([pa.field(k, pa.string()) for k in keep])
    first = _first_json_record(path)
    if first is None:
        return pa.schema([pa.field(k, pa.string()) for k in keep])
    # A kept key may be missing (or null) in the first record, as when a writer drops null keys: found in
    # the later records, with the type of its first value that is not null.
    values = {k: first[k] for k in keep if first.get(k) is not None}
    later = [k for k in keep if k not in values]
    if later:
        values.update(_kept_json_values(path, later))
    names = list(first) + [k for k in keep if k in values and k not in first]
    _check_names(path, names, keep, require_win, what="key")
    return pa.schema([pa.field(k, _json_type(pa, path, k, values.get(k))) for k in keep])


def check_keep(keep) -> tuple[str, ...]:
    """``keep`` (a sequence of column names; or one string ``"game_id,seed"``, as ``--keep`` takes it)
    as a tuple of names.

    Raises
    ------
    ValueError
        An empty name, one given twice, or one that fastscore reads or writes itself (a
        :data:`fastscore.RECORD_KEYS` key, a result column): the output would hold it twice.
    """
    if isinstance(keep, str):
        keep = keep.split(",")
    names = tuple(str(k).strip() for k in keep)
    for name in names:
        if not name:
            raise ValueError(f"--keep {','.join(names)}: an empty column name")
        if names.count(name) > 1:
            raise ValueError(f"--keep {','.join(names)}: the column {name!r} is named twice")
        # (The bare ids of the default table's rows: columns of files written by earlier versions; a
        # game log's own column named like another table's row, e.g. dealer, may be kept.)
        if name in RECORD_KEYS or name in RESULT_COLUMNS or name in default_rules().row_ids:
            raise ValueError(f"--keep {name}: fastscore {'reads' if name in RECORD_KEYS else 'writes'} the column "
                             f"{name!r} itself; --keep copies columns it does not read (such as game_id)")
    return names


def _check_names(path, names, keep, require_win: bool, what: str = "column") -> None:
    """The check of a notation file's columns ``names`` (:func:`check_input`): ``hand``, then the
    columns fastscore reads or skips and ``keep``, then ``win``."""
    if "hand" not in names:
        raise _missing_hand(path, names)
    _no_duplicates(path, names, RECORD_KEYS + tuple(keep))
    missing = [k for k in keep if k not in names]
    if missing:
        raise ValueError(f"{path}: --keep {missing[0]}: the input has no {what} {missing[0]!r} "
                         f"(its {what}s: {', '.join(repr(n) for n in names)})")
    check_columns(names, str(path), keep=keep, require_win=require_win, what=what)


def hand_columns(path, names, *, keep=(), require_win: bool = False, metadata=None) -> tuple[list[str], bool]:
    """The columns to read from a Parquet file of hands whose columns are ``names`` (those of
    ``keep`` last), and whether they are encoded hands (a ``concealed`` column) rather than
    notation records.

    Raises
    ------
    ValueError
        Neither a ``concealed`` nor a ``hand`` column; a column fastscore does not read and
        ``keep`` does not name, or a kept column the file does not have; no ``win`` column with
        ``require_win`` (:func:`fastscore.records.check_columns`), or with ``require_win`` True
        encoded hands written for waits analysis (the file's schema ``metadata`` holds
        :data:`~fastscore.io.encoded.WAITS_TAG`: no row has a winning tile).
    """
    names = list(names)
    keep = tuple(keep)
    _no_duplicates(path, names, (ENCODED_COLUMNS if "concealed" in names else RECORD_KEYS) + keep)
    if "concealed" in names:
        if "declared" not in names:
            # Read without it, every hand with a declared set would silently become a different hand.
            raise ValueError(f"{path}: encoded hands need a 'declared' column next to 'concealed' "
                             f"(found {', '.join(repr(c) for c in names)})")
        missing = [k for k in keep if k not in names]
        if missing:
            raise ValueError(f"{path}: --keep {missing[0]}: the input has no column {missing[0]!r} "
                             f"(its columns: {', '.join(repr(n) for n in names)})")
        check_columns(names, str(path), accepted=ENCODED_COLUMNS, keep=keep, require_win=require_win)
        if require_win is True and (metadata or {}).get(WAITS_TAG[0]) == WAITS_TAG[1]:
            raise ValueError(f"{path}: hands encoded for waits analysis (`fastscore encode --waits`): no row has a "
                             f"winning tile; find their waits with `fastscore waits-batch`, or encode the hands "
                             f"with their winning tiles to score them")
        return [k for k in ENCODED_COLUMNS if k in names] + list(keep), True
    _check_names(path, names, keep, require_win)
    return [k for k in RECORD_KEYS if k in names] + list(keep), False


@contextlib.contextmanager
def hand_file(path: str | os.PathLike, *, keep=(), require_win: bool = False):
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
    columns, encoded = hand_columns(path, schema.names, keep=keep, require_win=require_win, metadata=schema.metadata)
    short = []
    if not encoded and metadata.num_row_groups:
        group = metadata.row_group(0)
        stored = {group.column(j).path_in_schema: group.column(j).has_dictionary_page
                  for j in range(group.num_columns)}
        short = [c for c in columns if c != "hand" and c not in keep and stored.get(c) and is_text_type(pa, schema.field(c).type)]
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


def _parquet_tables(path, chunk_rows: int, start_row: int, keep=(), require_win: bool = False):
    """The hand columns (:func:`hand_columns`, and ``keep``) of a Parquet file as pyarrow Tables of exactly
    ``chunk_rows`` rows (the last shorter), each with whether they are encoded hands."""
    import pyarrow as pa

    with hand_file(path, keep=keep, require_win=require_win) as (pf, columns, encoded):
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


def _read_parquet(path, chunk_rows: int, start_row: int, keep=()) -> Iterator[list[dict]]:
    import pyarrow as pa

    for table, _ in _parquet_tables(path, chunk_rows, start_row, keep):
        yield decoded_records(table.to_pylist(), bytes_columns(pa, table.schema))


def _renumber(batch: HandBatch, offset: int) -> None:
    """Rewrite ``row i:`` message prefixes to file row numbers (keys stay chunk rows)."""
    if not offset:
        return
    for i, message in batch.messages.items():
        prefix = f"row {i}: "
        if message.startswith(prefix):
            batch.messages[i] = f"row {offset + i}: {message[len(prefix):]}"


def _by_line(batch: HandBatch, name: str, lines: list) -> None:
    """Rewrite ``row i:`` message prefixes to ``<file> line <n>:``, ``lines[i]`` being row i's line
    (a message that already names its line keeps only that)."""
    for i, message in batch.messages.items():
        prefix = f"row {i}: "
        if message.startswith(prefix):
            rest = message[len(prefix):]
            batch.messages[i] = rest if rest.startswith(f"{name} line ") else f"{name} line {lines[i]}: {rest}"


def iter_batches(
    path: str | os.PathLike, *, require_win: bool = True, chunk_rows: int = DEFAULT_CHUNK_ROWS, start_row: int = 0
) -> Iterator[HandBatch]:
    """Read a file of hand records as :class:`~fastscore.HandBatch` chunks, bad rows flagged: the
    batches of :func:`iter_chunks` without kept columns (every column must be one fastscore reads)."""
    for batch, _ in iter_chunks(path, require_win=require_win, chunk_rows=chunk_rows, start_row=start_row):
        yield batch


def iter_chunks(
    path: str | os.PathLike, *, require_win: bool = True, chunk_rows: int = DEFAULT_CHUNK_ROWS, start_row: int = 0,
    keep=(),
) -> Iterator[tuple[HandBatch, object]]:
    """Read a file of hand records as :class:`~fastscore.HandBatch` chunks, bad rows flagged.

    Parameters
    ----------
    path : str or Path
        Input file (see :func:`read_records`).
    require_win : bool or None
        Flag rows without a winning tile (True for scoring and discards); ignore ``win`` (False, waits
        analysis); or read it where given (None, shanten: 16- or 17-tile hands).
    chunk_rows : int
        Rows per batch (the last may be shorter).
    start_row : int
        Begin at this file row (to resume a run; see :func:`read_records`);
        row numbers in messages still count from the file's first row.
    keep : sequence of str
        Columns fastscore does not read, to carry through (:func:`check_input`).

    Yields
    ------
    (HandBatch, pyarrow.Table or None)
        One per chunk, rows in file order: the hands, and the chunk's ``keep`` columns (the
        schema :func:`check_input` gives; a JSON record without the key, or a flagged CSV or
        JSON row, holds null), or None without ``keep``.  Bad rows are flagged, not raised;
        their messages name the record's line in a JSON lines or CSV file (from 1, a CSV
        header being line 1; blank lines counted), e.g.
        ``"hands.csv line 70002: 'xx': unknown letter 'x' ..."`` or
        ``"hands.jsonl line 7: not valid JSON (...)"``, and count rows from 0 over the whole
        file for Parquet (or a file that is one JSON array), e.g. ``"row 70000: ..."``.

    Raises
    ------
    ValueError, OSError
        As :func:`read_records`: the file as a whole cannot be used; a kept JSON value of another
        type than its first value's.
    """
    offset = start_row
    keep = check_keep(keep)
    schema = check_input(path, keep=keep, require_win=require_win) if keep else None
    if file_format(path) == "parquet" and not is_empty(path):
        for table, encoded in _parquet_tables(path, _check_chunk_rows(chunk_rows), start_row, keep, require_win):
            kept = table.select(list(keep)) if keep else None
            batch = batch_from_table(table.drop_columns(list(keep)) if keep else table, encoded=encoded,
                                     require_win=require_win, path=path)
            _renumber(batch, offset)
            offset += table.num_rows
            yield batch, kept
        return

    lines: list = []
    for records in read_records(path, chunk_rows, start_row=start_row, keep=keep, require_win=require_win,
                                _lines=lines):
        kept = _kept_table(path, records, schema, offset, lines) if keep else None
        bad = [i for i, record in enumerate(records) if isinstance(record, Mapping) and _BAD_RECORD in record]
        messages = [f"row {i}: {records[i][_BAD_RECORD]}" for i in bad]
        for i in bad:
            records[i] = {}  # flagged below; no key the parser does not read
        batch = HandBatch.from_records(records, require_win=require_win)  # JSON / CSV values parsed in compiled code
        flag_rows(batch, bad, ErrorCode.BAD_TOKEN, messages)
        if lines:
            _by_line(batch, Path(path).name, lines)
        else:
            _renumber(batch, offset)
        offset += len(records)
        yield batch, kept


def _kept_table(path, records: list, schema, offset: int, lines: list | None = None):
    """The kept columns (``schema``) of a chunk of records, taken out of the records (an error names the
    value's line of the file, ``lines``, or its row from ``offset``)."""
    import pyarrow as pa

    columns = []
    for field in schema:
        values = [r.pop(field.name, None) if isinstance(r, dict) else None for r in records]
        takes = _KEPT_VALUES.get(str(field.type))
        bad = None if takes is None else next(
            (i for i, v in enumerate(values)
             if v is not None and (not isinstance(v, takes) or (isinstance(v, bool) and takes is not bool))), None)
        if bad is None:
            try:
                columns.append(pa.array(values, type=field.type))
                continue
            except (pa.ArrowException, TypeError, ValueError, OverflowError):  # an int beyond int64
                bad = next((i for i, v in enumerate(values) if not _fits(pa, v, field.type)), 0)
        where = f"line {lines[bad]:,}" if lines else f"row {offset + bad:,}"
        raise ValueError(f"{path}: {where}: the kept column {field.name!r} holds {values[bad]!r}, not of "
                         f"type {field.type}, the type of its first value; give each kept column one type")
    return pa.Table.from_arrays(columns, schema=schema)


#: The Python values (from JSON lines or CSV) a kept column of each Arrow type takes.  Checked before
#: pyarrow converts them: pyarrow would truncate a JSON 2.5 into an int64 column and read true as 1.
_KEPT_VALUES = {"string": str, "int64": int, "double": (float, int), "bool": bool}


def _fits(pa, value, type_) -> bool:
    """Whether ``value`` converts to an Arrow value of ``type_``."""
    try:
        pa.array([value], type=type_)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return False
    return True


def read_row_groups(path: str | os.PathLike, row_groups, *, skip: int, rows: int, offset: int,
                    require_win: bool = True, keep=()):
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
    keep : sequence of str
        Columns to carry through (:func:`iter_chunks`).

    Returns
    -------
    HandBatch, or (HandBatch, pyarrow.Table) with ``keep``
        ``rows`` rows, bad ones flagged; and their kept columns.

    Raises
    ------
    ValueError
        As :func:`hand_file` and :func:`batch_from_table`; a damaged file (:func:`parquet_read_errors`).
    """
    keep = list(keep)
    with hand_file(path, keep=keep, require_win=require_win) as (pf, columns, encoded):
        with parquet_read_errors(path, row_groups):
            table = pf.read_row_groups(list(row_groups), columns=columns).slice(skip, rows)
    batch = batch_from_table(table.drop_columns(keep) if keep else table, encoded=encoded,
                             require_win=require_win, path=path)
    _renumber(batch, offset)
    return (batch, table.select(keep)) if keep else batch


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
