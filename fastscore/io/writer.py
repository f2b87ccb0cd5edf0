"""Result writers: chunked, atomic, deterministic output of score, waits, shanten and discards results.

Writers write to a hidden ``.<name>.partial`` file beside the output and
rename it only when closed without an exception, so a failed run never leaves
a half-written result under the final name.  A writer holds ``.<name>.lock``
beside the output while it is open (:mod:`fastscore._lock`): a second writer
of the same output, in this process or another, stops with a ValueError
before it touches anything.

Output files are deterministic: the same rows give the same bytes whatever
the chunk size (and the thread count).  JSON lines and CSV are written row by
row; Parquet row groups hold :data:`ROW_GROUP_ROWS` rows each (the last may
be shorter), rows being buffered across chunks, never one group per chunk.
Writers build, encode and write each chunk on one background thread, in
order, while the caller computes the next (a resumable writer's part on a
second thread, beside it); an error there is raised by the next ``write`` or
by ``close``.  Resumable writing (a ``job``): :mod:`fastscore.io.parts`.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections.abc import Mapping
from io import StringIO
from pathlib import Path

import numpy as np

from .._jit import threads_may_share_kernels
from .._lock import OutputLock
from ..batch import HandBatch
from ..rules import default_rules
from .formats import COLUMNS_KEY, columns_digest, file_format
from .parts import PartsFolder, naming_path
from .schemas import (
    KINDS,
    _arrow_schema,
    _input_arrays,
    _input_columns,
    _parquet_options,
    _result_table,
    csv_cell,
    input_keys,
    result_columns,
    result_values,
    rows_layout,
)

__all__ = ["ROW_GROUP_ROWS", "ResultWriter", "open_writer"]

#: are buffered across chunks, so the row groups, and the file's bytes, do not
#: depend on the chunk size.
ROW_GROUP_ROWS = 65_536


def _columns_digest_of(schema, options: dict) -> bytes:
    """The :func:`~fastscore.io.formats.columns_digest` of a Parquet file written with ``schema`` and
    ``options``: that of an empty file written so to memory (about a millisecond), so that it is
    the footer's own description of the columns, as a reader will find it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    key = (schema, repr(sorted(options.items())))
    digest = _DIGESTS.get(key)
    if digest is None:
        sink = pa.BufferOutputStream()
        pq.ParquetWriter(sink, schema, **options).close()
        digest = _DIGESTS[key] = columns_digest(pq.read_metadata(pa.BufferReader(sink.getvalue())))
    return digest


_DIGESTS: dict = {}  # (schema, options) -> digest: a writer is opened per chunk of a Dask job


class _ParquetSink:
    """A Parquet file written in row groups of :data:`ROW_GROUP_ROWS` rows (the last may be
    shorter), whatever the sizes of the tables given: the same rows make the same bytes."""

    def __init__(self, path, schema, options: dict | None = None):
        import pyarrow.parquet as pq

        options = _parquet_options(schema) if options is None else options
        self._writer = pq.ParquetWriter(path, schema, **options)
        self._writer.add_key_value_metadata({COLUMNS_KEY: _columns_digest_of(schema, options)})
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
        ``"score"``, ``"waits"``, ``"shanten"`` or ``"discards"`` (:data:`fastscore.io.schemas.KINDS`).
    rows : str or None
        The row-point layout of a score output (``"dense"``, ``"sparse"``, ``"none"``;
        :func:`fastscore.io.schemas.rows_layout`); None for the other kinds.
    waits_json : bool
        A waits output also holds the ``waits_json`` text column.
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
                 resume: bool = False, lock: OutputLock | None = None, kept=None, rows: str | None = None,
                 waits_json: bool = False, row_ids=None):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if kind != "score" and rows is not None:
            raise ValueError(f"{path}: rows={rows!r} is for score results (a {kind} result has no row points)")
        if kind != "waits" and waits_json:
            raise ValueError(f"{path}: waits_json=True is for waits results")
        if resume and job is None:
            raise ValueError(f"{path}: resume=True needs the job's description (job=...)")
        self.path = Path(path)
        self.kind = kind
        self.format = file_format(path)
        self.rows = rows_layout(rows, self.format) if kind == "score" else None
        self.waits_json = bool(waits_json)
        # The rule table's rows in force: the dense row-point columns (None: the default table's).
        self.row_ids = tuple(row_ids) if row_ids is not None else None
        self.with_input = with_input
        self.kept = kept if kept is not None and len(kept) else None  # the kept columns' pyarrow schema
        self.partial_path = self.path.with_name(f".{self.path.name}.partial")
        self.rows_written = 0
        self.resumed_rows = 0
        self.removed_parts = False
        self.closed = False
        self._schema = (_arrow_schema(kind, with_input, self.kept, self.rows, self.waits_json, self.row_ids)
                        if self.format == "parquet" else None)
        # The parts folder (with a job): completed chunks, for a resumed run.
        self._folder = PartsFolder(self.path, self.format, self._schema) if job is not None else None
        self.parts_path = self._folder.path if self._folder is not None else None
        self._sink = None  # the file at partial_path: a _ParquetSink or a binary file
        self._pool = None  # the thread that writes chunks (started by the first write)
        self._part_pool = None  # the thread that writes parts, beside it (with a job)
        self._in_flight = None  # the Future of the chunk being written
        # Before anything is touched: a second run given the same output stops here (or the caller
        # took the lock already, before anything slow).
        self._lock = lock if lock is not None else OutputLock(self.path)
        if job is not None:
            try:
                self._open_parts(job, resume)
            except BaseException:
                self._lock.release()
                raise
        try:
            self._sink = self._open_sink()
            if self._folder is not None and self._folder.parts:  # resumed: the interrupted run's rows first
                with naming_path(self.partial_path):
                    self._folder.copy_to(self._sink)
        except BaseException:
            self.abort()
            raise

    @property
    def kept_rows(self) -> int:
        """Rows held by the completed parts (with a ``job``): what a resumed run keeps."""
        return self._folder.kept_rows if self._folder is not None else 0

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
        names = list(self.kept.names) if self.kept is not None else []
        names += list(input_keys(self.kind)) if self.with_input else []
        return names + list(result_columns(self.kind, self.rows, self.waits_json, self.row_ids))

    def _open_parts(self, job: Mapping, resume: bool) -> None:
        """Create :attr:`parts_path` with its ``job.json``, or (``resume``) take up an interrupted run's."""
        manifest = {"kind": self.kind, "format": self.format, "with_input": self.with_input,
                    "columns": self._columns(), "job": dict(job)}
        self._folder.open(manifest, resume, self.partial_path)
        self.removed_parts = self._folder.removed
        self.resumed_rows = self.rows_written = self._folder.kept_rows

    def _open_sink(self):
        """Open :attr:`partial_path` for the whole output (CSV: with its header line)."""
        if self.format == "parquet":
            return _ParquetSink(self.partial_path, self._schema)
        sink = open(self.partial_path, "wb")
        if self.format == "csv":
            sink.write(_csv_text([self._columns()]))
        return sink

    def write(self, result, first_row_index: int | None = None, batch: HandBatch | None = None, kept=None) -> None:
        """Append one chunk of results.

        Parameters
        ----------
        result : BatchResult, WaitsResult, ShantenResult or DiscardResult
            The chunk (a :class:`~fastscore.BatchResult` for ``kind="score"``,
            a ``WaitsResult`` for ``"waits"``, a ``ShantenResult`` for ``"shanten"``,
            a ``DiscardResult`` for ``"discards"``).
        first_row_index : int, optional
            File row number of the chunk's first row; must equal
            :attr:`rows_written` (chunks are written in input order).
        batch : HandBatch, optional
            The hands of the chunk; required when the writer was opened with
            ``with_input=True`` (their records are written first).
        kept : pyarrow.Table, optional
            The chunk's kept input columns (:func:`fastscore.io.iter_chunks`), required when
            the writer was opened with ``kept``: written first, as they are.

        The chunk is encoded and written on the writer's thread while the
        caller goes on; its arrays are used in place, so leave them unchanged
        until the next :meth:`write` or :meth:`close` returns (the results
        of ``score_batch``, ``waits_batch``, ``shanten_batch`` and ``discard_analysis`` are never changed
        after).
        An error of that thread is raised by the next ``write`` or ``close``.

        Raises
        ------
        ValueError
            Chunk out of order, missing or mismatched ``batch``, a score chunk whose rows in force
            (``result.row_ids``) are not the writer's (``row_ids``), or a closed writer.
        """
        if self.closed:
            raise ValueError(f"{self.path}: writer is closed")
        if self.kind == "score" and self.rows != "none":
            expected = self.row_ids if self.row_ids is not None else default_rules().row_ids
            if tuple(result.row_ids) != expected:
                raise ValueError(f"{self.path}: the chunk was scored under a table whose rows in force are not the "
                                 f"writer's ({len(result.row_ids)} rows against {len(expected)}); open the writer "
                                 "with row_ids=table.row_ids")
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
            # here: the caller may change its batch once write returns (Parquet: pyarrow arrays)
            columns = _input_arrays(batch) if self.format == "parquet" else _input_columns(batch)
            inputs = {k: columns[k] for k in input_keys(self.kind)}
        if self.kept is not None:
            if kept is None or kept.num_rows != n or kept.schema.names != self.kept.names:
                raise ValueError(f"{self.path}: the writer keeps the columns {', '.join(self.kept.names)}; "
                                 f"write needs them for the chunk's {n} rows (kept=...)")
            kept = kept.cast(self.kept)
            inputs = {"__kept__": kept, **(inputs or {})}
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
            part = part_pool.submit(self._folder.write, data, first, n)
        try:
            with naming_path(self.partial_path):
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
        columns = result_values(result, self.kind, self.rows, self.waits_json)
        names = result_columns(self.kind, self.rows, self.waits_json, self.row_ids)
        records = [dict(zip(names, values)) for values in zip(*(columns[k] for k in names))]
        inputs, kept = _split_kept(inputs)
        if inputs:
            keys = list(inputs)
            records = [{**dict(zip(keys, values)), **record}
                       for values, record in zip(zip(*inputs.values()), records)]
        if kept is not None:  # first, as the user's own columns; a value JSON has no type for (a date) as text
            records = [{**values, **record} for values, record in zip(kept.to_pylist(), records)]
            return "".join(json.dumps(record, separators=(",", ":"), default=str) + "\n"
                           for record in records).encode("utf-8")
        return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records).encode("utf-8")

    def _csv_bytes(self, result, inputs) -> bytes:
        columns = result_values(result, self.kind, self.rows, self.waits_json)
        for name in ("rows", "waits", "discards"):  # nested values: their JSON text
            if name in columns:
                columns[name] = [csv_cell(value) for value in columns[name]]
        inputs, kept = _split_kept(inputs)
        cells = [_csv_column(column.to_pylist()) for column in kept.columns] if kept is not None else []
        cells += [_csv_column(inputs[k]) for k in input_keys(self.kind)] if inputs else []
        cells += [_csv_column(columns[name]) for name in result_columns(self.kind, self.rows, self.waits_json, self.row_ids)]
        return _csv_text(zip(*cells))

    def _parquet_table(self, result, inputs):
        return _result_table(result, self.kind, self._schema, inputs)

    # ----------------------------------------------------------------------- finishing

    def close(self) -> None:
        """Finish the file and rename it to :attr:`path` (idempotent); with a ``job``, remove
        :attr:`parts_path` after."""
        if self.closed:
            return
        try:
            self._wait()
            with naming_path(self.partial_path):
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
        temp = self._folder.temp if self._folder is not None and idle else None
        for path in (temp, self.partial_path):
            if path is not None:
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass
        if self._folder is not None and not self._folder.parts and idle:
            shutil.rmtree(self.parts_path, ignore_errors=True)
        if idle:  # else the threads still write: the lock goes when the process ends
            self._lock.release()

    def _stop_pool(self) -> None:
        for pool in (self._pool, self._part_pool):
            if pool is not None:
                pool.shutdown(wait=False)
        self._pool = self._part_pool = None

def _split_kept(inputs):
    """``(input columns or None, kept columns' Table or None)`` of :meth:`ResultWriter.write`'s ``inputs``."""
    if inputs is None or "__kept__" not in inputs:
        return inputs, None
    inputs = dict(inputs)
    kept = inputs.pop("__kept__")
    return inputs or None, kept


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
    lock: OutputLock | None = None,
    kept=None,
    rows: str | None = None,
    waits_json: bool = False,
    row_ids=None,
) -> ResultWriter:
    """Open a result file for chunked, atomic writing; the format follows the extension.

    Parameters
    ----------
    path : str or Path
        ``.jsonl``/``.json``, ``.csv`` or ``.parquet``/``.pq``.  Its folder must exist.
    kind : {"score", "waits", "shanten", "discards"}
        What is written: :class:`~fastscore.BatchResult` chunks from
        :func:`~fastscore.score_batch`, ``WaitsResult`` chunks from
        ``fastscore.waits_batch``, ``ShantenResult`` chunks from ``fastscore.shanten_batch``,
        ``DiscardResult`` chunks from ``fastscore.discard_analysis``.
    with_input : bool
        Also write each row's hand record (columns :data:`fastscore.RECORD_KEYS`,
        first; for waits and shanten without ``win``, as their 16-tile hands have none); :meth:`ResultWriter.write`
        then needs the chunk's batch.  The file then reads back as input (the result columns are skipped).
    kept : pyarrow.Schema, optional
        Input columns carried through (``--keep``; :func:`fastscore.io.check_input` gives
        their schema): written first, before any other column, in every format (Parquet
        with these types; CSV as text; JSON lines as JSON values), one value per row;
        :meth:`ResultWriter.write` then needs each chunk's (``kept=``).
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
    rows : {"dense", "sparse", "none"}, optional
        ``kind="score"``: the row points as int16 columns ``row_<id>`` (``"dense"``), as one
        column ``rows`` of the rows that scored (``"sparse"``: Parquet ``map<string, int16>``,
        JSON lines an object, CSV its JSON text), or not at all (``"none"``).  Default: dense in
        CSV and Parquet, sparse in JSON lines.
    waits_json : bool
        ``kind="waits"``: also the column ``waits_json``, the JSON text
        ``{tile: {"discard": p, "self_draw": p}}``, after ``waits``.
    row_ids : tuple of str, optional
        ``kind="score"``: the rows in force of the rule table that scores the chunks
        (:attr:`fastscore.RuleTable.row_ids`), one dense column each; default the ``lrc`` table's 45.

    Returns
    -------
    ResultWriter
        A context manager; rows keep the order they are written in.

    The same columns, in the same order, in every format
    (:func:`fastscore.io.schemas.result_columns`; types in ``docs/formats.md``, "Output columns"):
    score :data:`~fastscore.io.SCORE_COLUMNS` then the row points; waits
    :data:`~fastscore.io.WAITS_COLUMNS` (``waits`` a list of ``{tile, discard, self_draw}``); shanten
    :data:`~fastscore.io.SHANTEN_COLUMNS`; discards :data:`~fastscore.io.DISCARDS_COLUMNS`.
    JSON lines: one object per line, ``null`` for a missing value.  CSV: booleans
    ``true``/``false``, an empty cell for a missing value, ``rows``, ``waits`` and ``discards`` as JSON text.
    Parquet: the types of :func:`fastscore.io.result_table`.

    Raises
    ------
    ValueError
        Unknown extension or kind; ``rows`` unknown or given for waits, ``waits_json`` for
        score; ``job`` not JSON-able; with ``resume``, an
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
    return ResultWriter(path, kind, with_input=with_input, job=job, resume=resume, lock=lock, kept=kept, rows=rows,
                        waits_json=waits_json, row_ids=row_ids)

