"""Streaming, chunked reading of hand records and writing of results.

Inputs and outputs are chosen by file extension:

==================  ==========================================================
extension           format
==================  ==========================================================
``.jsonl``          JSON lines, one record (object) per line
``.json``           JSON lines too; or one JSON array of records (read whole)
``.csv``            comma-separated, one header line
``.parquet``        Apache Parquet (``.pq`` also accepted)
==================  ==========================================================

Input records have the columns of :data:`fastscore.RECORD_KEYS`
(:data:`INPUT_SCHEMA`): ``hand`` is required, ``win`` is required for scoring
(not for waits analysis), the others default to the RULES.md section 2 context
(seat and round East, no flowers, streak 0, not self-drawn, no Closing).
Unknown columns are ignored, so a result file written with its input
columns (:func:`open_writer` with ``with_input=True``) reads back as input.

Parsing is compiled for every format: Parquet notation columns go straight
to :meth:`fastscore.HandBatch.from_arrow`; JSON lines and CSV records
are read by Python's ``json`` and ``csv`` (a few microseconds a row) and
parsed through the same kernels (:meth:`fastscore.HandBatch.from_records`).

Everything streams: files are read and written :data:`DEFAULT_CHUNK_ROWS`
rows at a time, so memory does not grow with the file.  A bad record never
stops a run; it becomes a flagged row (``error != 0``) whose message names the
row (counted from 0 over the whole file) and, for unreadable JSON, the file
and line.  Writers write to a hidden ``.<name>.partial`` file beside the
output and rename it only when closed without an exception, so a failed run
never leaves a half-written result under the final name.  A writer holds
``.<name>.lock`` beside the output while it is open (:mod:`fastscore._lock`): a
second writer of the same output, in this process or another, stops with a
ValueError before it touches anything.

Output files are deterministic: the same rows give the same bytes whatever
the chunk size (and the thread count).  JSON lines and CSV are written row by
row; Parquet row groups hold :data:`ROW_GROUP_ROWS` rows each (the last may
be shorter), rows being buffered across chunks, never one group per chunk.
Parquet results are dictionary-encoded and snappy-compressed, with statistics
for every column but the row points (:func:`_parquet_options`).  Writers
build, encode and write each chunk on one background thread, in order, while
the caller computes the next (a resumable writer's part on a second thread,
beside it); an error there is raised by the next ``write`` or by ``close``.
:func:`read_ahead` does the same for reading: the command line reads and
parses the next chunk while it scores the current one.

Encoded hands (:data:`ENCODED_COLUMNS`, :func:`write_encoded`): a Parquet
file may hold the :class:`~fastscore.HandBatch` columns themselves instead of
notation.  :func:`iter_batches` recognises it by its ``concealed`` column and
takes the arrays as they are (:func:`batch_from_encoded`): no parsing; rows
flagged when the file was written keep their message, and a compiled pass
with :func:`fastscore.batch.validate` flags the others as for any batch.

Resuming (``open_writer(..., job=...)``, the ``--resume`` of the ``batch``
commands; every format).  An interrupted run (an exception, Ctrl-C, a killed
process) must be able to keep its finished chunks, yet a Parquet file cut
off before its footer cannot be read at all.  So each chunk goes to its own
small file in a hidden folder beside the output::

    .out.parquet.parts/
        job.json                                what makes the rows (below)
        part-000000000000-000000065536.parquet  rows [0, 65536) of the output
        part-000000065536-000000131072.parquet  rows [65536, 131072)
        .part-000000131072-000000196608.parquet.partial  (being written)

A part is written under a ``.partial`` name and renamed when complete, so a
part under its own name is always whole.  Each chunk also goes on to
``.out.parquet.partial``, as without parts (Parquet: in row groups of
:data:`ROW_GROUP_ROWS`); a resumed run first copies the kept parts, in row
order, into a new ``.out.parquet.partial``.  When the last chunk is written
that file is renamed to ``out.parquet`` and the folder is removed.  The
output name therefore appears only when the file is complete, and its bytes
are those of an uninterrupted run.  A Parquet score part holds the 45
row-point columns packed into one ``fixed_size_binary(90)`` column
``row_points`` (int16 little-endian, :data:`fastscore.ROW_IDS` order):
encoding 45 columns costs as much as the output's own encoding, and parts
are read back only when resuming.  ``job.json`` records the output's kind, format and
columns and the caller's ``job`` (the CLI: the input's resolved path, size
and modification time, or the ``--sample`` size and seed; the rule table's
content hash; not the chunk size).  On resuming, a ``job.json`` that differs
is an error naming the differences; otherwise the parts that run from row 0 without a gap and
read back whole (Parquet footer and row count; line count) are kept, anything
else in the folder is deleted, and the caller reads its input from row
:attr:`ResultWriter.rows_written` (``iter_batches(..., start_row=...)``:
whole Parquet row groups are skipped unread).  Parts are named by rows, not
chunk numbers, so a resumed run may use another chunk size.  An interrupted
writer keeps its folder only when it holds a part; a run without
``resume`` removes an old folder first (:attr:`ResultWriter.removed_parts`).
Parts are renamed, not ``fsync``-ed: a killed process
loses nothing, a machine that loses power may lose the last parts (they
are then redone).  Tests: ``tests/test_resume.py`` (SIGKILL, Ctrl-C,
damaged parts, every format) and ``tests/test_determinism.py``.

pyarrow is imported only when a Parquet file is read or written.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import shutil
from collections.abc import Iterator, Mapping
from io import StringIO
from pathlib import Path

import numpy as np

from ._jit import threads_may_share_kernels
from ._lock import OutputLock
from .arrow import bytes_columns, is_text_type
from .batch import HandBatch
from .records import RECORD_KEYS, decoded_records, flag_rows
from .checks import check_batch
from .rules import ROW_IDS, SHAPE_NAMES
from .tiles import MAX_DECLARED, TILE_NAMES, WINDS, ErrorCode, SetKind, format_set

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "INPUT_SCHEMA",
    "ROW_GROUP_ROWS",
    "SCORE_COLUMNS",
    "WAITS_COLUMNS",
    "ResultWriter",
    "ENCODED_COLUMNS",
    "batch_from_encoded",
    "count_rows",
    "encoded_schema",
    "encoded_table",
    "is_encoded",
    "file_format",
    "batch_from_table",
    "hand_columns",
    "hand_file",
    "hand_records",
    "iter_batches",
    "open_writer",
    "read_ahead",
    "read_records",
    "write_encoded",
]

#: Rows per chunk when reading and writing (about 10 MB of hand arrays and
#: results per chunk; large enough that the per-chunk kernel call and file
#: write overheads vanish, small enough to keep memory flat).
DEFAULT_CHUNK_ROWS = 65_536

#: Rows per row group of a Parquet result file (the last may be shorter).  Rows
#: are buffered across chunks, so the row groups, and the file's bytes, do not
#: depend on the chunk size.
ROW_GROUP_ROWS = 65_536

#: The input columns, as named in error messages.
INPUT_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile, required for scoring, e.g. '9s'), "
    "self_drawn (true/false), seat (E/S/W/N), round (E/S/W/N), flowers (e.g. '1f5f'), "
    "streak (integer), closing (true/false); other columns are ignored"
)

#: Columns of a score result file (CSV and Parquet), in order; then one
#: column per row id of :data:`fastscore.ROW_IDS` (points of that row).
SCORE_COLUMNS = ("is_win", "shape", "points", "chicken", "total", "legal", "payout", "error")

#: Columns of a waits result file (CSV and Parquet).  ``waits_json`` is the
#: JSON object ``{tile: {"discard": payout, "self_draw": payout}}``.
WAITS_COLUMNS = ("n_waits", "waits_json", "error")

_FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
_BAD_RECORD = "__error__"  # key of the sentinel record that stands for an unreadable JSON line or CSV row
_JOB_FILE = "job.json"  # a parts folder's description of its job
_PARTS_VERSION = 1  # layout of a parts folder; a resumed run must find the same
_PART_NAME = re.compile(r"part-(\d{12})-(\d{12})\.(?:parquet|jsonl|csv)")  # rows [first, stop) of the output
_PART_SUFFIX = {"parquet": ".parquet", "jsonl": ".jsonl", "csv": ".csv"}


def file_format(path: str | os.PathLike) -> str:
    """``"jsonl"``, ``"csv"`` or ``"parquet"``, from the file extension.

    Raises
    ------
    ValueError
        For any other extension, listing the supported ones.
    """
    suffix = Path(path).suffix.lower()
    try:
        return _FORMATS[suffix]
    except KeyError:
        raise ValueError(
            f"{path}: unknown file type {suffix or '(no extension)'!r}; use one of {', '.join(_FORMATS)}"
        ) from None


def is_empty(path: str | os.PathLike) -> bool:
    """True for an input file of 0 bytes: any format reads it as no rows."""
    return os.path.getsize(path) == 0


@contextlib.contextmanager
def parquet_read_errors(path: str | os.PathLike):
    """Raise a read error of the Parquet file ``path`` (damaged pages, say) as a ValueError that names it."""
    import pyarrow as pa

    try:
        yield
    except FileNotFoundError:
        raise
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"{path}: cannot read the Parquet data ({exc})") from None


def parquet_file(path: str | os.PathLike, read_dictionary: list[str] | None = None, metadata=None):
    """``pyarrow.parquet.ParquetFile(path, read_dictionary=..., metadata=...)`` of an input file
    (``metadata``: the file's footer read already, not read again).

    Raises
    ------
    ValueError
        The file is not Parquet (or is damaged); the message names it.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path, read_dictionary=read_dictionary, metadata=metadata)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:  # not Parquet, cut short, a damaged footer
        raise ValueError(f"{path}: not a readable Parquet file ({exc})") from None


def count_rows(path: str | os.PathLike) -> int | None:
    """Rows in an input file when known without reading it (Parquet metadata, or an empty file), else None."""
    kind = file_format(path)
    if is_empty(path):
        return 0
    if kind != "parquet":
        return None
    with parquet_file(path) as pf:
        return pf.metadata.num_rows


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
    name = Path(path).name
    with open(path, encoding="utf-8-sig", errors="replace") as f:  # a bad byte spoils its row only
        first = f.read(1)
        while first.isspace():
            first = f.read(1)
        f.seek(0)
        if first == "[":  # one JSON array of records (not streamed)
            try:
                records = json.load(f)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{name} line {exc.lineno}: not valid JSON ({exc.msg})") from None
            for start in range(start_row, len(records), chunk_rows):
                yield records[start:start + chunk_rows]
            return
        chunk: list = []
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            if start_row:
                start_row -= 1
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                record = {_BAD_RECORD: f"{name} line {line_no}: not valid JSON ({exc.msg})"}
            chunk.append(record)
            if len(chunk) == chunk_rows:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


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
    """A validated batch from a table of :func:`hand_columns`: encoded hands taken as they are
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
        batches = pf.iter_batches(batch_size=chunk_rows, columns=columns, row_groups=groups)
        for record_batch in _named_errors(path, batches):
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


def _named_errors(path, batches):
    """``batches`` (record batches read from the Parquet file ``path``), a read error raised as
    :func:`parquet_read_errors` raises it."""
    with parquet_read_errors(path):
        yield from batches


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
    """Read a file of hand records as validated :class:`~fastscore.HandBatch` chunks.

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


_END = object()


def read_ahead(chunks: Iterator) -> Iterator:
    """The items of ``chunks``, each next one computed on a background thread while the caller
    works on the current one (at most one ahead).

    For a pipeline of chunks (:func:`iter_batches`: read, parse and validate; the caller:
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


def _format_blocks(concealed: np.ndarray) -> list[str]:
    """Tenhou notation of each row of ``(N, 34)`` counts (one string per row), formatting
    each distinct per-suit count vector once."""
    n = concealed.shape[0]
    parts = []
    for suit, base, size in (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7)):
        keys = concealed[:, base:base + size].astype(np.int64) @ (5 ** np.arange(size, dtype=np.int64))  # counts 0-4
        unique, inverse = np.unique(keys, return_inverse=True)
        texts = []
        for key in unique.tolist():
            digits = "".join(str(d + 1) * (key // 5**d % 5) for d in range(size))
            texts.append(digits + suit if digits else "")
        parts.append([texts[k] for k in inverse.reshape(n).tolist()])
    return ["".join(row) for row in zip(*parts)]


_SET_TEXT = [[""] * len(TILE_NAMES)] + [
    [format_set(kind, t) if kind != SetKind.SHEUNG or (t < 27 and t % 9 < 7) else "" for t in range(len(TILE_NAMES))]
    for kind in list(SetKind)[1:]
]
_FLOWER_TEXT = ["".join(f"{n}f" for n in range(1, 9) if bits >> (n - 1) & 1) for bits in range(256)]


def _input_columns(batch: HandBatch) -> dict[str, list]:
    """The batch as input-record columns (see :func:`hand_records`)."""
    hands = _format_blocks(batch.concealed)
    if (batch.declared[:, :, 0] != 0).any():
        kinds = batch.declared[:, :, 0].tolist()
        tiles = batch.declared[:, :, 1].tolist()
        for i in np.flatnonzero((batch.declared[:, :, 0] != 0).any(axis=1)).tolist():
            sets = [_SET_TEXT[k][t] for k, t in zip(kinds[i], tiles[i]) if k]
            hands[i] = " ".join([hands[i]] + sets) if hands[i] else " ".join(sets)
    winds = list(WINDS)
    columns = {
        "hand": hands,
        "win": [TILE_NAMES[t] if t >= 0 else None for t in batch.win.tolist()],
        "self_drawn": batch.self_drawn.tolist(),
        "seat": [winds[w] for w in batch.seat.tolist()],
        "round": [winds[w] for w in batch.round.tolist()],
        "flowers": [_FLOWER_TEXT[f] for f in batch.flowers.tolist()],
        "streak": batch.streak.tolist(),
        "closing": batch.closing.tolist(),
    }
    for i in np.flatnonzero(batch.error).tolist():
        for values in columns.values():
            values[i] = None
    return columns


def hand_records(batch: HandBatch) -> list[dict]:
    """The rows of a batch as input records (normalised notation), e.g. to save generated hands.

    Returns
    -------
    list of dict
        ``{hand, win, self_drawn, seat, round, flowers, streak, closing}`` per
        row, ``hand`` like ``"11m99p [234s]"``, ``win`` None when absent
        (-1); flagged rows have every value None.  Each record reads back
        (:func:`fastscore.records.parse_record`) as the same hand.
    """
    columns = _input_columns(batch)
    return [dict(zip(RECORD_KEYS, values)) for values in zip(*(columns[k] for k in RECORD_KEYS))]


# --------------------------------------------------------------------------- encoded hands

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
                   "closing", "error", "message")

#: Schema metadata key and value that :func:`write_encoded` stores (reading needs only the ``concealed`` column).
ENCODED_TAG = (b"fastscore.encoding", b"hands/1")

_ENCODED_WIDTH = {"concealed": 34, "declared": 10}
_ENCODED_DTYPE = {"concealed": np.uint8, "declared": np.int8, "win": np.int8, "self_drawn": np.bool_,
                  "seat": np.uint8, "round": np.uint8, "flowers": np.uint8, "streak": np.int32,
                  "closing": np.bool_, "error": np.uint8}
_ENCODED_DEFAULT = {"win": -1, "self_drawn": False, "seat": 0, "round": 0, "flowers": 0, "streak": 0,
                    "closing": False, "error": 0}
_ROW_PREFIX = re.compile(r"row \d+: ")


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
    file was written keep their ``error`` and ``message``; every other row
    goes through the compiled row check (:func:`fastscore.checks.check_batch`),
    which flags the bad ones with their messages (``row i:``, counted in
    ``table``).  Without ``require_win`` (waits analysis) ``win`` is ignored.

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
        if name not in names or (name == "win" and not require_win):
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
                batch.messages[i] = f"row {i}: {messages[i] or ErrorCode(code).name}"
            else:
                codes[i] = ErrorCode.BAD_ARRAY
                batch.messages[i] = f"row {i}: unknown error code {code}" + (f" ({messages[i]})" if messages[i] else "")
    for i in np.flatnonzero(null_sets & (codes == 0)).tolist():
        codes[i] = ErrorCode.BAD_ARRAY
        batch.messages[i] = f"row {i}: null concealed or declared"
    batch.messages = dict(sorted(batch.messages.items()))
    return check_batch(batch, require_win=require_win)


def write_encoded(batches, path: str | os.PathLike) -> int:
    """Write hands to ``path`` as an encoded Parquet file (:func:`encoded_schema`), atomically.

    Parameters
    ----------
    batches : HandBatch or iterable of HandBatch
        The rows, in order (for instance :func:`iter_batches` of a notation file).
    path : str or Path
        A ``.parquet`` / ``.pq`` file; written as ``.<name>.partial`` and renamed when complete,
        holding the output's lock (:mod:`fastscore._lock`) meanwhile.

    Returns
    -------
    int
        Rows written.  Row groups hold :data:`ROW_GROUP_ROWS` rows, so the same hands make the same bytes.

    Raises
    ------
    ValueError
        ``path`` is not a Parquet file name, or another run is writing it.

    Examples
    --------
    >>> write_encoded(iter_batches("hands.parquet"), "hands.enc.parquet")   # doctest: +SKIP
    """
    if file_format(path) != "parquet":
        raise ValueError(f"{path}: encoded hands are written to Parquet (.parquet or .pq)")
    if isinstance(batches, HandBatch):
        batches = [batches]
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    schema = encoded_schema()
    with OutputLock(path):  # the same lock as a ResultWriter of this output
        sink = _ParquetSink(partial, schema, options=_ENCODED_OPTIONS)
        rows = 0
        try:
            for batch in batches:
                sink.write(encoded_table(batch))
                rows += len(batch)
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
#: back at about 20 million rows a second), no statistics.
_ENCODED_OPTIONS = {"compression": "lz4", "use_dictionary": False, "write_statistics": False}


# --------------------------------------------------------------------------- writers


def _errors(result) -> list:
    """Error message per row (None for scored rows)."""
    errors: list = [None] * len(result)
    for i in np.flatnonzero(result.error):
        errors[i] = result.messages.get(int(i)) or ErrorCode(int(result.error[i])).name
    return errors


def _score_records(result) -> list[dict]:
    """``list(result.to_records())`` for a :class:`~fastscore.BatchResult`, built from
    its columns in one pass (a test checks the two agree)."""
    n = len(result)
    names = (None,) + SHAPE_NAMES
    rows: list[dict] = [{} for _ in range(n)]
    hit_rows, hit_cols = np.nonzero(result.row_points)
    for i, r, v in zip(hit_rows.tolist(), hit_cols.tolist(), result.row_points[hit_rows, hit_cols].tolist()):
        rows[i][ROW_IDS[r]] = v
    columns = zip(
        result.is_win.tolist(), [names[s + 1] for s in result.shape.tolist()], rows, result.points.tolist(),
        result.chicken.tolist(), result.total.tolist(), result.legal.tolist(), result.payout.tolist(), _errors(result),
    )
    keys = ("is_win", "shape", "rows", "points", "chicken", "total", "legal", "payout", "error")
    return [dict(zip(keys, values)) for values in columns]


def _row_columns(with_input: bool) -> tuple[str, ...]:
    """Names of the row-point columns: the row ids, or ``rows.<id>`` beside input
    columns (the row id ``closing`` would clash with the input column ``closing``)."""
    return tuple(f"rows.{rid}" for rid in ROW_IDS) if with_input else ROW_IDS


def _score_columns(result, with_input: bool) -> dict:
    """Result columns as numpy arrays / lists, keyed by output column name."""
    columns = {
        "is_win": result.is_win,
        "shape": result.shape,
        "points": result.points,
        "chicken": result.chicken,
        "total": result.total,
        "legal": result.legal,
        "payout": result.payout,
        "error": _errors(result),
    }
    points = np.ascontiguousarray(result.row_points.T)  # one copy: each row id's points contiguous
    for r, name in enumerate(_row_columns(with_input)):
        columns[name] = points[r]
    return columns


def _waits_columns(result) -> dict:
    """``waits_json`` as a pyarrow string array written by a compiled kernel (each row the text of
    ``json.dumps(result.waits_at(i), separators=(",", ":"))``; :mod:`fastscore.waits_text`)."""
    import pyarrow as pa

    from .waits_text import waits_json_array

    return {
        "n_waits": np.asarray(result.n_waits, dtype=np.int16),
        "waits_json": waits_json_array(result.mask, result.payout_discard, result.payout_self_draw).cast(pa.string()),
        "error": _errors(result),
    }


_INPUT_TYPES = {"self_drawn": "bool_", "closing": "bool_", "streak": "int32"}


def _same_columns(a, b) -> bool:
    """The two pyarrow schemas have the same column names and types, in order.  Whether a column may
    be null is not compared: parts written before the output declared its always-valued columns not
    null (fastscore 0.1, stop 12) hold no nulls there, and read back with the new schema."""
    return [(f.name, f.type) for f in a] == [(f.name, f.type) for f in b]


def _arrow_schema(kind: str, with_input: bool):
    """The output schema.  Columns that always have a value (0 or False on a flagged row) are
    declared not null: Parquet then stores no null flags for them, which also makes the file
    about a tenth quicker to write.  ``shape`` (no interpretation), ``error``, ``waits_json``
    and the input columns may be null."""
    import pyarrow as pa

    fields = []
    if with_input:
        fields += [pa.field(k, getattr(pa, _INPUT_TYPES.get(k, "string"))()) for k in RECORD_KEYS]
    if kind == "score":
        fields += [
            pa.field("is_win", pa.bool_(), nullable=False),
            pa.field("shape", pa.dictionary(pa.int8(), pa.string())),
            pa.field("points", pa.int32(), nullable=False),
            pa.field("chicken", pa.bool_(), nullable=False),
            pa.field("total", pa.int32(), nullable=False),
            pa.field("legal", pa.bool_(), nullable=False),
            pa.field("payout", pa.int32(), nullable=False),
            pa.field("error", pa.string()),
        ]
        fields += [pa.field(name, pa.int16(), nullable=False) for name in _row_columns(with_input)]
    else:
        fields += [pa.field("n_waits", pa.int16(), nullable=False), pa.field("waits_json", pa.string()),
                   pa.field("error", pa.string())]
    return pa.schema(fields)


def _result_table(result, kind: str, schema, inputs=None):
    import pyarrow as pa

    if kind == "score":
        columns = _score_columns(result, inputs is not None)
        shape = result.shape
        columns["shape"] = pa.DictionaryArray.from_arrays(
            pa.array(np.where(shape < 0, 0, shape).astype(np.int8), mask=shape < 0),
            pa.array(SHAPE_NAMES, pa.string()),
        )
    else:
        columns = _waits_columns(result)
    arrays = []
    for field in schema:
        if inputs is not None and field.name in RECORD_KEYS:
            value = inputs[field.name]
        else:
            value = columns[field.name]
        if isinstance(value, np.ndarray):
            value = np.ascontiguousarray(value)
        arrays.append(value if isinstance(value, pa.Array) else pa.array(value, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


_PACKED = "row_points"  # the packed row-point column of a Parquet score part


def _packed_schema(schema, with_input: bool):
    """The schema of a Parquet score part: ``schema`` with its row-point columns packed into one."""
    import pyarrow as pa

    rows = set(_row_columns(with_input))
    return pa.schema([f for f in schema if f.name not in rows] + [pa.field(_PACKED, pa.binary(2 * len(ROW_IDS)))])


def result_table(result, kind: str = "score"):
    """A :class:`~fastscore.BatchResult` (``kind="score"``) or :class:`~fastscore.WaitsResult`
    (``kind="waits"``) as a pyarrow Table with the Parquet output schema of ``fastscore batch``."""
    return _result_table(result, kind, _arrow_schema(kind, False))


def _parquet_options(schema, part: bool = False) -> dict:
    """``pyarrow.parquet.ParquetWriter`` options of a result file (``part``: of a resumable run's part).

    The output: dictionary encoding everywhere (the row-point columns are almost all 0, a
    few bits a row run-length encoded), snappy, statistics only for the columns other than
    the row points (45 columns of statistics cost more than their encoding and no reader
    filters on them).  A part is read back only by a resumed run: plain values (dictionary
    encoding only for strings), no statistics.
    """
    import pyarrow as pa

    rows = set(ROW_IDS) | {f"rows.{rid}" for rid in ROW_IDS}
    if part:
        strings = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_dictionary(f.type)]
        return {"compression": "snappy", "use_dictionary": strings, "write_statistics": False}
    return {"compression": "snappy", "use_dictionary": True,
            "write_statistics": [f.name for f in schema if f.name not in rows]}


class _ParquetSink:
    """A Parquet file written in row groups of :data:`ROW_GROUP_ROWS` rows (the last may be
    shorter), whatever the sizes of the tables given: the same rows make the same bytes."""

    def __init__(self, path, schema, options: dict | None = None):
        import pyarrow.parquet as pq

        self._writer = pq.ParquetWriter(path, schema, **(_parquet_options(schema) if options is None else options))
        self._pending: list = []  # tables not yet written, fewer than ROW_GROUP_ROWS rows in all
        self._rows = 0

    def write(self, table) -> None:
        if not table.num_rows:
            return
        self._pending.append(table)
        self._rows += table.num_rows
        if self._rows >= ROW_GROUP_ROWS:
            self._flush(self._rows - self._rows % ROW_GROUP_ROWS)

    def _flush(self, rows: int) -> None:
        import pyarrow as pa

        # One contiguous table, so that the pages do not depend on how the rows arrived.
        table = pa.concat_tables(self._pending).combine_chunks()
        for start in range(0, rows, ROW_GROUP_ROWS):
            self._writer.write_table(table.slice(start, min(ROW_GROUP_ROWS, rows - start)),
                                     row_group_size=ROW_GROUP_ROWS)
        rest = table.slice(rows)
        self._pending = [rest] if rest.num_rows else []
        self._rows = rest.num_rows

    def close(self, flush: bool = True) -> None:
        if flush and self._rows:
            self._flush(self._rows)
        self._pending, self._rows = [], 0
        self._writer.close()


class ResultWriter:
    """Writes result chunks to one file, atomically; made by :func:`open_writer`.

    Use as a context manager.  Each :meth:`write` appends one chunk; on a
    clean exit the hidden ``.<name>.partial`` file is renamed to the output
    path, on an exception it is deleted and the output path is left as it was.
    With a ``job`` (resumable writing, see the module docstring) each chunk
    also goes to its own part file in :attr:`parts_path`; on an exception the
    parts written so far are kept for a resumed run.  Chunks are built, encoded
    and written on a background thread, in order (the parts on a second one).

    Attributes
    ----------
    path : Path
        The final output path.
    partial_path : Path
        Where rows go until :meth:`close` (a resumed run: after its kept parts).
    parts_path : Path or None
        The folder ``.<name>.parts`` of completed chunks, with a ``job``; else None.
    kind : str
        ``"score"`` or ``"waits"``.
    format : str
        ``"jsonl"``, ``"csv"`` or ``"parquet"``.
    rows_written : int
        Rows in the output so far, the resumed ones included: the file row
        number of the next chunk's first row.
    resumed_rows : int
        Rows recovered from an interrupted run's parts (``resume=True``); 0 otherwise.
    removed_parts : bool
        True when an interrupted run's parts folder was found and removed (a
        ``job`` without ``resume``).
    """

    def __init__(self, path, kind: str = "score", *, with_input: bool = False, job: Mapping | None = None,
                 resume: bool = False):
        if kind not in ("score", "waits"):
            raise ValueError(f"kind must be 'score' or 'waits', got {kind!r}")
        if resume and job is None:
            raise ValueError(f"{path}: resume=True needs the job's description (job=...)")
        self.path = Path(path)
        self.kind = kind
        self.format = file_format(path)
        self.with_input = with_input
        self.partial_path = self.path.with_name(f".{self.path.name}.partial")
        self.parts_path = self.path.with_name(f".{self.path.name}.parts") if job is not None else None
        self.rows_written = 0
        self.resumed_rows = 0
        self.removed_parts = False
        self.closed = False
        self._schema = _arrow_schema(kind, with_input) if self.format == "parquet" else None
        # Parquet score parts hold the row points as one packed column (see _packed).
        self._part_schema = _packed_schema(self._schema, with_input) if self._schema is not None and kind == "score" \
            else self._schema
        self._sink = None  # the file at partial_path: a _ParquetSink or a binary file
        self._parts: list[tuple[int, int, Path]] = []  # (first row, stop row, path) of completed parts
        self._temp: Path | None = None  # the part being written
        self._pool = None  # the thread that writes chunks (started by the first write)
        self._part_pool = None  # the thread that writes parts, beside it (with a job)
        self._in_flight = None  # the Future of the chunk being written
        # Before anything is touched: a second run given the same output stops here.
        self._lock = OutputLock(self.path)
        if job is not None:
            try:
                self._open_parts(job, resume)
            except BaseException:
                self._lock.release()
                raise
        try:
            self._sink = self._open_sink()
            if self._parts:  # resumed: the interrupted run's rows first
                self._copy_parts()
        except BaseException:
            self.abort()
            raise

    @property
    def kept_rows(self) -> int:
        """Rows held by the completed parts (with a ``job``): what a resumed run keeps."""
        return self._parts[-1][1] if self._parts else 0

    def __enter__(self) -> "ResultWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False

    def _columns(self) -> list[str]:
        """Column names of the output (CSV header; Parquet schema)."""
        names = list(RECORD_KEYS) if self.with_input else []
        return names + list(SCORE_COLUMNS + _row_columns(self.with_input) if self.kind == "score" else WAITS_COLUMNS)

    def _open_sink(self):
        """Open :attr:`partial_path` for the whole output (CSV: with its header line)."""
        if self.format == "parquet":
            return _ParquetSink(self.partial_path, self._schema)
        sink = open(self.partial_path, "wb")
        if self.format == "csv":
            sink.write(_csv_text([self._columns()]))
        return sink

    def write(self, result, first_row_index: int | None = None, batch: HandBatch | None = None) -> None:
        """Append one chunk of results.

        Parameters
        ----------
        result : BatchResult or WaitsResult
            The chunk (a :class:`~fastscore.BatchResult` for ``kind="score"``,
            a ``WaitsResult`` for ``kind="waits"``).
        first_row_index : int, optional
            File row number of the chunk's first row; must equal
            :attr:`rows_written` (chunks are written in input order).
        batch : HandBatch, optional
            The hands of the chunk; required when the writer was opened with
            ``with_input=True`` (their records are written first).

        The chunk is encoded and written on the writer's thread while the
        caller goes on; its arrays are used in place, so leave them unchanged
        until the next :meth:`write` or :meth:`close` returns (the results
        of ``score_batch`` and ``waits_batch`` are never changed after).
        An error of that thread is raised by the next ``write`` or ``close``.

        Raises
        ------
        ValueError
            Chunk out of order, missing or mismatched ``batch``, or a closed writer.
        """
        if self.closed:
            raise ValueError(f"{self.path}: writer is closed")
        if first_row_index is not None and first_row_index != self.rows_written:
            raise ValueError(
                f"{self.path}: chunks must be written in input order: expected first row "
                f"{self.rows_written}, got {first_row_index}"
            )
        n = len(result)
        inputs = None
        if self.with_input:
            if batch is None or len(batch) != n:
                raise ValueError(f"{self.path}: with_input=True needs the chunk's HandBatch of {n} rows")
            inputs = _input_columns(batch)  # here: the caller may change its batch once write returns
        # Encoding and writing overlap the caller's next chunk, on one thread, in order; at most
        # one chunk waits.  The chunk's table is built there too (pyarrow, numpy copies and file
        # writes release the GIL), unless building it runs a parallel kernel (waits_json) that
        # numba's threading layer cannot run beside the caller's.
        data = None if threads_may_share_kernels() else self._encode(result, inputs)
        self._wait()
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(1, thread_name_prefix="fastscore-writer")
            if self.parts_path is not None:
                self._part_pool = ThreadPoolExecutor(1, thread_name_prefix="fastscore-parts")
        self._in_flight = self._pool.submit(self._write_chunk, result, inputs, data, self._part_pool,
                                            self.rows_written, n)
        self.rows_written += n

    def _encode(self, result, inputs):
        """The chunk as the output holds it: JSON lines or CSV bytes, or a pyarrow Table."""
        if self.format == "jsonl":
            return self._jsonl_bytes(result, inputs)
        if self.format == "csv":
            return self._csv_bytes(result, inputs)
        return self._parquet_table(result, inputs)

    def _write_chunk(self, result, inputs, data, part_pool, first: int, n: int) -> None:
        # ``part_pool`` is passed, not read from self: abort() may clear that attribute meanwhile.
        if data is None:
            data = self._encode(result, inputs)
        part = None
        if self.parts_path is not None and n:
            # The part and the output are written at once, on two threads (both release the GIL).
            data_part = self._packed(data, result) if self._part_schema is not self._schema else data
            part = part_pool.submit(self._write_part, data_part, first, n)
        try:
            self._sink.write(data)
        except BaseException:
            if part is not None:
                from concurrent.futures import wait

                wait([part])  # the output's error is the one raised
            raise
        if part is not None:
            part.result()

    def _wait(self) -> None:
        """Wait for the chunk being written; raise its error.  The chunk stays in flight until
        it is done, so that an interrupted wait (Ctrl-C) leaves :meth:`abort` something to wait for."""
        future = self._in_flight
        if future is not None:
            try:
                future.result()
            finally:
                if future.done():
                    self._in_flight = None

    def _jsonl_bytes(self, result, inputs) -> bytes:
        records = _score_records(result) if self.kind == "score" else list(result.to_records())
        if inputs is not None:
            keys = list(inputs)
            records = [{**dict(zip(keys, values)), **record}
                       for values, record in zip(zip(*inputs.values()), records)]
        return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records).encode("utf-8")

    def _csv_bytes(self, result, inputs) -> bytes:
        if self.kind == "score":
            columns = _score_columns(result, self.with_input)
            shapes = ("",) + SHAPE_NAMES
            columns["shape"] = [shapes[s + 1] for s in result.shape.tolist()]
            names = SCORE_COLUMNS + _row_columns(self.with_input)
        else:
            columns = _waits_columns(result)
            columns["waits_json"] = columns["waits_json"].to_pylist()
            names = WAITS_COLUMNS
        cells = [_csv_column(inputs[k]) for k in RECORD_KEYS] if inputs is not None else []
        cells += [_csv_column(columns[name]) for name in names]
        return _csv_text(zip(*cells))

    def _parquet_table(self, result, inputs):
        return _result_table(result, self.kind, self._schema, inputs)

    def _packed(self, table, result):
        """A score chunk as its part holds it: the row-point columns as one column of
        ``fixed_size_binary(90)``, the row's 45 int16 points (little-endian, :data:`ROW_IDS` order),
        taken from ``result.row_points`` without a copy.  Encoding 45 Parquet columns costs as
        much as the final file; a part is read back only by a resumed run."""
        import pyarrow as pa

        points = np.ascontiguousarray(result.row_points, dtype="<i2")
        packed = pa.FixedSizeBinaryArray.from_buffers(pa.binary(2 * len(ROW_IDS)), len(points),
                                                      [None, pa.py_buffer(points)])
        return table.drop_columns(list(_row_columns(self.with_input))).append_column(_PACKED, packed)

    def _unpacked(self, table):
        """A part read back (:meth:`_packed`) as the output's columns."""
        import pyarrow as pa

        n = table.num_rows
        column = table.column(_PACKED).combine_chunks()
        width = 2 * len(ROW_IDS)
        data = np.frombuffer(column.buffers()[1], dtype=np.uint8)[column.offset * width:(column.offset + n) * width]
        points = data.view("<i2").reshape(n, len(ROW_IDS))
        columns = {name: points[:, r] for r, name in enumerate(_row_columns(self.with_input))}
        arrays = [pa.array(np.ascontiguousarray(columns[f.name]), f.type) if f.name in columns else table.column(f.name)
                  for f in self._schema]
        return pa.Table.from_arrays(arrays, schema=self._schema)

    # ----------------------------------------------------------------------- parts (resumable writing)

    def _open_parts(self, job: Mapping, resume: bool) -> None:
        """Create :attr:`parts_path` with its ``job.json``, or (``resume``) take up an interrupted run's."""
        manifest = {"fastscore_parts": _PARTS_VERSION, "kind": self.kind, "format": self.format,
                    "with_input": self.with_input, "columns": self._columns(), "job": dict(job)}
        try:
            text = json.dumps(manifest, indent=1, sort_keys=True)
        except TypeError as exc:
            raise ValueError(f"{self.path}: the job description must be JSON data ({exc})") from None
        folder = self.parts_path
        try:
            os.unlink(self.partial_path)  # left by a run killed while joining its parts
        except FileNotFoundError:
            pass
        if folder.is_dir() and not (folder / _JOB_FILE).is_file():
            shutil.rmtree(folder)  # killed before its job.json was written: holds no parts
        elif folder.is_dir() and not resume:
            shutil.rmtree(folder)
            self.removed_parts = True
        if folder.is_dir():
            self._check_manifest(json.loads(text))
            self._parts = self._scan_parts()
            self.resumed_rows = self.rows_written = self._parts[-1][1] if self._parts else 0
            return
        folder.mkdir()
        temp = folder / f".{_JOB_FILE}.partial"
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, folder / _JOB_FILE)

    def _check_manifest(self, manifest: dict) -> None:
        where = self.parts_path / _JOB_FILE
        try:
            old = json.loads(where.read_text(encoding="utf-8"))
            if not isinstance(old, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            raise ValueError(f"{where}: cannot read the interrupted run's description ({exc}); "
                             f"run again without --resume to start over") from None
        old, new = _flatten(old), _flatten(manifest)
        changed = [f"{key} was {old.get(key, '(absent)')}, now {new.get(key, '(absent)')}"
                   for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]
        if changed:
            raise ValueError(f"{self.path}: cannot resume: this job differs from the interrupted run in "
                             f"{self.parts_path.name} ({'; '.join(changed)}); run again without --resume "
                             f"to start over")

    def _scan_parts(self) -> list[tuple[int, int, Path]]:
        """The interrupted run's complete parts from row 0 on, without gaps; removes anything else."""
        suffix = _PART_SUFFIX[self.format]
        found, stray = [], []
        for p in self.parts_path.iterdir():
            match = _PART_NAME.fullmatch(p.name)
            if match and p.suffix == suffix:
                found.append((int(match[1]), int(match[2]), p))
            elif p.name != _JOB_FILE:
                stray.append(p)  # a part being written when the run stopped
        parts, row = [], 0
        for first, stop, p in sorted(found):
            if first == row and stop > first and self._part_is_complete(p, stop - first):
                parts.append((first, stop, p))
                row = stop
            else:
                stray.append(p)
        for p in stray:
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink()
        return parts

    def _part_is_complete(self, path: Path, rows: int) -> bool:
        """The part reads back with ``rows`` rows (and, for Parquet, the output's schema)."""
        try:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                meta = pq.read_metadata(path)
                return meta.num_rows == rows and _same_columns(meta.schema.to_arrow_schema(), self._part_schema)
            if self.format == "jsonl":
                return path.read_bytes().count(b"\n") == rows  # one line per row (JSON escapes newlines)
            with open(path, encoding="utf-8", newline="") as f:
                return sum(1 for _ in csv.reader(f)) == rows
        except Exception:  # noqa: BLE001 - any unreadable part is redone
            return False

    def _write_part(self, data, first: int, n: int) -> None:
        stop = first + n
        path = self.parts_path / f"part-{first:012d}-{stop:012d}{_PART_SUFFIX[self.format]}"
        self._temp = path.with_name(f".{path.name}.partial")
        if self.format == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(data, self._temp, **_parquet_options(self._part_schema, part=True))
        else:
            self._temp.write_bytes(data)
        os.replace(self._temp, path)
        self._temp = None
        self._parts.append((first, stop, path))

    def _copy_parts(self) -> None:
        """Write the resumed parts, in row order, to the output sink (before this run's chunks)."""
        for _, _, path in self._parts:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                table = pq.read_table(path, schema=self._part_schema)
                self._sink.write(self._unpacked(table) if self._part_schema is not self._schema else table)
            else:
                with open(path, "rb") as f:
                    shutil.copyfileobj(f, self._sink)

    # ----------------------------------------------------------------------- finishing

    def close(self) -> None:
        """Finish the file and rename it to :attr:`path` (idempotent); with a ``job``, remove
        :attr:`parts_path` after."""
        if self.closed:
            return
        try:
            self._wait()
            self._sink.close()
            os.replace(self.partial_path, self.path)
        except BaseException:
            self.abort()
            raise
        self.closed = True
        self._stop_pool()
        if self.parts_path is not None:
            shutil.rmtree(self.parts_path, ignore_errors=True)
        self._lock.release()

    def abort(self) -> None:
        """Discard the partial file; the output path is not touched (idempotent).  With a ``job``,
        the completed parts are kept for a resumed run (the folder goes when it holds none)."""
        if self.closed:
            return
        self.closed = True
        future = self._in_flight
        try:
            self._wait()
        except BaseException:  # noqa: BLE001 - already failing (a second Ctrl-C: the chunk may still be written)
            pass
        self._stop_pool()
        idle = future is None or future.done()  # else the threads still write the sink and a part
        if self._sink is not None and idle:
            try:
                self._sink.close(flush=False) if isinstance(self._sink, _ParquetSink) else self._sink.close()
            except Exception:  # noqa: BLE001 - already failing; removing the file is what matters
                pass
        for path in (self._temp if idle else None, self.partial_path):
            if path is not None:
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass
        if self.parts_path is not None and not self._parts and idle:
            shutil.rmtree(self.parts_path, ignore_errors=True)
        if idle:  # else the threads still write: the lock goes when the process ends
            self._lock.release()

    def _stop_pool(self) -> None:
        for pool in (self._pool, self._part_pool):
            if pool is not None:
                pool.shutdown(wait=False)
        self._pool = self._part_pool = None


def _flatten(data: Mapping, prefix: str = "") -> dict:
    """``{"job": {"input": {"size": 3}}}`` -> ``{"input.size": 3}`` (the top ``job.`` dropped)."""
    flat = {}
    for key, value in data.items():
        name = f"{prefix}{key}" if prefix or key != "job" else ""
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{name}." if name else ""))
        else:
            flat[name] = value
    return flat


def _csv_text(rows) -> bytes:
    """CSV lines (``\\r\\n`` ends, as :func:`csv.writer`) of an iterable of rows, as UTF-8."""
    buffer = StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _csv_column(values) -> list:
    """One column as CSV cells: booleans ``true``/``false``, None as empty."""
    if isinstance(values, np.ndarray):
        if values.dtype == np.bool_:
            return np.where(values, "true", "false").tolist()
        return values.tolist()
    return ["" if v is None else ("true" if v else "false") if isinstance(v, bool) else v for v in values]


def open_writer(
    path: str | os.PathLike,
    kind: str = "score",
    *,
    with_input: bool = False,
    job: Mapping | None = None,
    resume: bool = False,
) -> ResultWriter:
    """Open a result file for chunked, atomic writing; the format follows the extension.

    Parameters
    ----------
    path : str or Path
        ``.jsonl``/``.json``, ``.csv`` or ``.parquet``/``.pq``.  Its folder must exist.
    kind : {"score", "waits"}
        What is written: :class:`~fastscore.BatchResult` chunks from
        :func:`~fastscore.score_batch`, or ``WaitsResult`` chunks from
        ``fastscore.waits_batch``.
    with_input : bool
        Also write each row's hand record (columns :data:`fastscore.RECORD_KEYS`,
        first); :meth:`ResultWriter.write` then needs the chunk's batch.  The
        file then reads back as input.  CSV and Parquet row-point columns are
        then named ``rows.<id>``, since row id ``closing`` is also an input column.
    job : mapping, optional
        Write resumably (module docstring, "Resuming"): a JSON-able description
        of what makes the rows (input file and its size and time, rule table
        hash, ...), kept in ``.<name>.parts/job.json``.  Without ``resume``, a
        parts folder left by an interrupted run is removed first
        (:attr:`ResultWriter.removed_parts`).
    resume : bool
        With ``job``: take up the completed parts of an interrupted run of the
        same job (none found: start at row 0).  The caller continues from input
        row :attr:`ResultWriter.rows_written`
        (``iter_batches(..., start_row=writer.rows_written)``).

    Returns
    -------
    ResultWriter
        A context manager; rows keep the order they are written in.

    Layout per format, ``kind="score"``:

    - JSON lines: one :meth:`~fastscore.BatchResult.to_records` object per
      line (``rows`` a nested object of the non-zero rows, ``error`` null or the message).
    - CSV: columns :data:`SCORE_COLUMNS` then one column per row id of
      :data:`fastscore.ROW_IDS`; booleans ``true``/``false``, empty ``shape``
      for no interpretation, empty ``error`` for scored rows.
    - Parquet: ``is_win``/``chicken``/``legal`` bool, ``shape``
      dictionary<int8, string> (null: no interpretation),
      ``points``/``total``/``payout`` int32 (points), ``error`` string (null:
      scored), one int16 column per row id.

    ``kind="waits"``: JSON lines as ``WaitsResult.to_records()``
    (``{"waits": {tile: {"discard": p, "self_draw": p}}, "n_waits", "error"}``);
    CSV and Parquet columns :data:`WAITS_COLUMNS` (Parquet ``n_waits`` int16,
    ``waits_json`` and ``error`` string).

    Raises
    ------
    ValueError
        Unknown extension or kind; ``job`` not JSON-able; with ``resume``, an
        interrupted run whose ``job.json`` differs from ``job`` (the message
        lists the differences) or cannot be read.
    OSError
        The partial file or the parts folder cannot be created.

    Examples
    --------
    >>> with open_writer("scores.parquet") as out:                     # doctest: +SKIP
    ...     start = 0
    ...     for batch in iter_batches("hands.jsonl"):
    ...         out.write(score_batch(batch), start)
    ...         start += len(batch)
    """
    return ResultWriter(path, kind, with_input=with_input, job=job, resume=resume)

