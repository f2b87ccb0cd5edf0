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

Everything streams: files are read and written :data:`DEFAULT_CHUNK_ROWS`
rows at a time, so memory does not grow with the file.  A bad record never
stops a run; it becomes a flagged row (``error != 0``) whose message names the
row (counted from 0 over the whole file) and, for unreadable JSON, the file
and line.  Writers write to a hidden ``.<name>.partial`` file beside the
output and rename it only when closed without an exception, so a failed run
never leaves a half-written result under the final name.

pyarrow is imported only when a Parquet file is read or written.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

from .batch import RECORD_KEYS, HandBatch
from .rules import ROW_IDS, SHAPE_NAMES
from .tiles import TILE_NAMES, WINDS, ErrorCode, SetKind, format_set

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "INPUT_SCHEMA",
    "SCORE_COLUMNS",
    "WAITS_COLUMNS",
    "ResultWriter",
    "count_rows",
    "file_format",
    "hand_records",
    "iter_batches",
    "open_writer",
    "read_records",
]

#: Rows per chunk when reading and writing (about 10 MB of hand arrays and
#: results per chunk; large enough that the per-chunk kernel call and file
#: write overheads vanish, small enough to keep memory flat).
DEFAULT_CHUNK_ROWS = 65_536

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
_BAD_JSON = "__error__"  # key of the sentinel record that stands for an unreadable JSON line


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


def count_rows(path: str | os.PathLike) -> int | None:
    """Rows in an input file when known without reading it (Parquet metadata), else None."""
    if file_format(path) != "parquet":
        return None
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def _check_chunk_rows(chunk_rows: int) -> int:
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    return int(chunk_rows)


def _missing_hand(path, found) -> ValueError:
    found = ", ".join(repr(c) for c in found) if found else "none"
    return ValueError(f"{path}: no 'hand' column (found {found}); expected columns: {INPUT_SCHEMA}")


def read_records(path: str | os.PathLike, chunk_rows: int = DEFAULT_CHUNK_ROWS) -> Iterator[list[dict]]:
    """Read hand records from a file, ``chunk_rows`` at a time, in file order.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl``/``.json``, ``.csv`` or ``.parquet`` file (see the module docstring).
    chunk_rows : int
        Records per chunk (the last chunk may be shorter).

    Yields
    ------
    list of dict
        Records with (a subset of) the :data:`fastscore.RECORD_KEYS`; CSV
        values are strings (empty means absent), JSON and Parquet values keep
        their types.  A JSON line that does not parse is yielded as
        ``{"__error__": "<file> line <n>: not valid JSON (...)"}``, which
        :func:`iter_batches` turns into a flagged row.  Blank JSON lines are
        skipped.

    Raises
    ------
    ValueError
        Unknown file type, or a CSV/Parquet file without a ``hand`` column
        (the message lists the expected columns, :data:`INPUT_SCHEMA`).
    OSError
        The file cannot be read.
    """
    chunk_rows = _check_chunk_rows(chunk_rows)
    kind = file_format(path)
    reader = {"jsonl": _read_jsonl, "csv": _read_csv, "parquet": _read_parquet}[kind]
    yield from reader(path, chunk_rows)


def _read_jsonl(path, chunk_rows: int) -> Iterator[list[dict]]:
    name = Path(path).name
    with open(path, encoding="utf-8-sig") as f:
        first = f.read(1)
        while first.isspace():
            first = f.read(1)
        f.seek(0)
        if first == "[":  # one JSON array of records (not streamed)
            try:
                records = json.load(f)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{name} line {exc.lineno}: not valid JSON ({exc.msg})") from None
            for start in range(0, len(records), chunk_rows):
                yield records[start:start + chunk_rows]
            return
        chunk: list = []
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                record = {_BAD_JSON: f"{name} line {line_no}: not valid JSON ({exc.msg})"}
            chunk.append(record)
            if len(chunk) == chunk_rows:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


def _read_csv(path, chunk_rows: int) -> Iterator[list[dict]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        names = [h.strip() for h in header] if header else []
        if "hand" not in names:
            raise _missing_hand(path, names)
        keep = [(names.index(k), k) for k in RECORD_KEYS if k in names]
        chunk: list = []
        for row in reader:
            if not row:
                continue
            chunk.append({k: (row[j] if j < len(row) else None) for j, k in keep})
            if len(chunk) == chunk_rows:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


def _read_parquet(path, chunk_rows: int) -> Iterator[list[dict]]:
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as pf:
        names = pf.schema_arrow.names
        if "hand" not in names:
            raise _missing_hand(path, names)
        columns = [k for k in RECORD_KEYS if k in names]
        # Batches may end at row-group boundaries; re-chunk to exactly chunk_rows.
        chunk: list = []
        for record_batch in pf.iter_batches(batch_size=chunk_rows, columns=columns):
            chunk.extend(record_batch.to_pylist())
            while len(chunk) >= chunk_rows:
                yield chunk[:chunk_rows]
                chunk = chunk[chunk_rows:]
        if chunk:
            yield chunk


def _renumber(batch: HandBatch, offset: int) -> None:
    """Rewrite ``row i:`` message prefixes to file row numbers (keys stay chunk rows)."""
    if not offset:
        return
    for i, message in batch.messages.items():
        prefix = f"row {i}: "
        if message.startswith(prefix):
            batch.messages[i] = f"row {offset + i}: {message[len(prefix):]}"


def iter_batches(
    path: str | os.PathLike, *, require_win: bool = True, chunk_rows: int = DEFAULT_CHUNK_ROWS
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
    offset = 0
    for records in read_records(path, chunk_rows):
        batch = HandBatch.from_records(records, require_win=require_win)
        for i, record in enumerate(records):
            if isinstance(record, Mapping) and _BAD_JSON in record:
                batch.error[i] = ErrorCode.BAD_TOKEN
                batch.messages[i] = f"row {i}: {record[_BAD_JSON]}"
        _renumber(batch, offset)
        offset += len(records)
        yield batch


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
        (:func:`fastscore.batch.parse_record`) as the same hand.
    """
    columns = _input_columns(batch)
    return [dict(zip(RECORD_KEYS, values)) for values in zip(*(columns[k] for k in RECORD_KEYS))]


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
    for r, name in enumerate(_row_columns(with_input)):
        columns[name] = result.row_points[:, r]
    return columns


def _waits_columns(result) -> dict:
    records = list(result.to_records())
    return {
        "n_waits": np.array([rec["n_waits"] for rec in records], dtype=np.int16),
        "waits_json": [json.dumps(rec["waits"], separators=(",", ":")) for rec in records],
        "error": [rec["error"] for rec in records],
    }


_INPUT_TYPES = {"self_drawn": "bool_", "closing": "bool_", "streak": "int32"}


def _arrow_schema(kind: str, with_input: bool):
    import pyarrow as pa

    fields = []
    if with_input:
        fields += [pa.field(k, getattr(pa, _INPUT_TYPES.get(k, "string"))()) for k in RECORD_KEYS]
    if kind == "score":
        fields += [
            pa.field("is_win", pa.bool_()),
            pa.field("shape", pa.dictionary(pa.int8(), pa.string())),
            pa.field("points", pa.int32()),
            pa.field("chicken", pa.bool_()),
            pa.field("total", pa.int32()),
            pa.field("legal", pa.bool_()),
            pa.field("payout", pa.int32()),
            pa.field("error", pa.string()),
        ]
        fields += [pa.field(name, pa.int16()) for name in _row_columns(with_input)]
    else:
        fields += [pa.field("n_waits", pa.int16()), pa.field("waits_json", pa.string()), pa.field("error", pa.string())]
    return pa.schema(fields)


class ResultWriter:
    """Writes result chunks to one file, atomically; made by :func:`open_writer`.

    Use as a context manager.  Each :meth:`write` appends one chunk; on a
    clean exit the hidden ``.<name>.partial`` file is renamed to the output
    path, on an exception it is deleted and the output path is left as it was.

    Attributes
    ----------
    path : Path
        The final output path.
    partial_path : Path
        Where rows go until :meth:`close`.
    kind : str
        ``"score"`` or ``"waits"``.
    format : str
        ``"jsonl"``, ``"csv"`` or ``"parquet"``.
    rows_written : int
    """

    def __init__(self, path, kind: str = "score", *, with_input: bool = False):
        if kind not in ("score", "waits"):
            raise ValueError(f"kind must be 'score' or 'waits', got {kind!r}")
        self.path = Path(path)
        self.kind = kind
        self.format = file_format(path)
        self.with_input = with_input
        self.partial_path = self.path.with_name(f".{self.path.name}.partial")
        self.rows_written = 0
        self.closed = False
        self._file = None
        self._csv = None
        self._parquet = None
        if self.format == "parquet":
            import pyarrow.parquet as pq

            self._schema = _arrow_schema(kind, with_input)
            self._parquet = pq.ParquetWriter(self.partial_path, self._schema)
        else:
            self._file = open(self.partial_path, "w", encoding="utf-8", newline="")
            if self.format == "csv":
                self._csv = csv.writer(self._file)
                header = list(RECORD_KEYS) if with_input else []
                header += list(SCORE_COLUMNS + _row_columns(with_input) if kind == "score" else WAITS_COLUMNS)
                self._csv.writerow(header)

    def __enter__(self) -> "ResultWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False

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
            inputs = _input_columns(batch)
        if self.format == "jsonl":
            self._write_jsonl(result, inputs)
        elif self.format == "csv":
            self._write_csv(result, inputs)
        else:
            self._write_parquet(result, inputs)
        self.rows_written += n

    def _write_jsonl(self, result, inputs) -> None:
        records = _score_records(result) if self.kind == "score" else list(result.to_records())
        if inputs is not None:
            keys = list(inputs)
            records = [{**dict(zip(keys, values)), **record}
                       for values, record in zip(zip(*inputs.values()), records)]
        lines = [json.dumps(record, separators=(",", ":")) for record in records]
        if lines:
            self._file.write("\n".join(lines) + "\n")

    def _write_csv(self, result, inputs) -> None:
        if self.kind == "score":
            columns = _score_columns(result, self.with_input)
            shapes = ("",) + SHAPE_NAMES
            columns["shape"] = [shapes[s + 1] for s in result.shape.tolist()]
            names = SCORE_COLUMNS + _row_columns(self.with_input)
        else:
            columns = _waits_columns(result)
            names = WAITS_COLUMNS
        cells = [_csv_column(inputs[k]) for k in RECORD_KEYS] if inputs is not None else []
        cells += [_csv_column(columns[name]) for name in names]
        self._csv.writerows(zip(*cells))

    def _write_parquet(self, result, inputs) -> None:
        import pyarrow as pa

        if self.kind == "score":
            columns = _score_columns(result, self.with_input)
            shape = result.shape
            columns["shape"] = pa.DictionaryArray.from_arrays(
                pa.array(np.where(shape < 0, 0, shape).astype(np.int8), mask=shape < 0),
                pa.array(SHAPE_NAMES, pa.string()),
            )
        else:
            columns = _waits_columns(result)
        arrays = []
        for field in self._schema:
            if inputs is not None and field.name in RECORD_KEYS:
                value = inputs[field.name]
            else:
                value = columns[field.name]
            if isinstance(value, np.ndarray):
                value = np.ascontiguousarray(value)
            arrays.append(value if isinstance(value, pa.Array) else pa.array(value, type=field.type))
        self._parquet.write_table(pa.Table.from_arrays(arrays, schema=self._schema))

    def close(self) -> None:
        """Finish the file and rename it to :attr:`path` (idempotent)."""
        if self.closed:
            return
        try:
            if self._parquet is not None:
                self._parquet.close()
            if self._file is not None:
                self._file.close()
            os.replace(self.partial_path, self.path)
        except BaseException:
            self.abort()
            raise
        self.closed = True

    def abort(self) -> None:
        """Discard the partial file; the output path is not touched (idempotent)."""
        if self.closed:
            return
        self.closed = True
        for handle in (self._parquet, self._file):
            if handle is not None:
                try:
                    handle.close()
                except Exception:  # noqa: BLE001 - already failing; removing the file is what matters
                    pass
        try:
            os.unlink(self.partial_path)
        except FileNotFoundError:
            pass


def _csv_column(values) -> list:
    """One column as CSV cells: booleans ``true``/``false``, None as empty."""
    if isinstance(values, np.ndarray):
        if values.dtype == np.bool_:
            return np.where(values, "true", "false").tolist()
        return values.tolist()
    return ["" if v is None else ("true" if v else "false") if isinstance(v, bool) else v for v in values]


def open_writer(path: str | os.PathLike, kind: str = "score", *, with_input: bool = False) -> ResultWriter:
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
        Unknown extension or kind.
    OSError
        The partial file cannot be created.

    Examples
    --------
    >>> with open_writer("scores.parquet") as out:                     # doctest: +SKIP
    ...     start = 0
    ...     for batch in iter_batches("hands.jsonl"):
    ...         out.write(score_batch(batch), start)
    ...         start += len(batch)
    """
    return ResultWriter(path, kind, with_input=with_input)

