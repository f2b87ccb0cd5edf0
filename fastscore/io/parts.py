"""Resumable writing: the hidden parts folder of a result file, its ``job.json``, and resuming.

Used by :class:`fastscore.io.ResultWriter` opened with a ``job``
(``open_writer(..., job=...)``, the ``--resume`` of the ``batch`` commands;
every format).  An interrupted run (an exception, Ctrl-C, a killed process)
must be able to keep its finished chunks, yet a Parquet file cut off before
its footer cannot be read at all.  So each chunk goes to its own small file
in a hidden folder beside the output::

    .out.parquet.parts/
        job.json                                             what makes the rows (below)
        part-000000000000-000000065536-3f2a9c0d1e4b5a67.parquet  rows [0, 65536) of the output
        part-000000065536-000000131072-0b1c2d3e4f506172.parquet  rows [65536, 131072)
        .part-000000131072-000000196608.parquet.partial          (being written)

A part is written under a ``.partial`` name and renamed when complete, so a
part under its own name is always whole; its name ends with the first 16 hex
digits of the SHA-256 of its bytes, checked when a run resumes, so a part
changed since (a flipped bit, in any format) is redone rather than copied.  Each chunk also goes on to
``.out.parquet.partial``, as without parts (Parquet: in row groups of
:data:`fastscore.io.ROW_GROUP_ROWS`); a resumed run first copies the kept parts, in row
order, into a new ``.out.parquet.partial``.  When the last chunk is written
that file is renamed to ``out.parquet`` and the folder is removed.  The
output name therefore appears only when the file is complete, and its bytes
are those of an uninterrupted run.  A Parquet score part with row points (``--rows dense``: the
``row_<id>`` columns of the table's rows in force; ``sparse``: the ``rows`` map) holds them packed into one
``fixed_size_binary(2 R)`` column ``row_points`` (int16 little-endian, the table's
:attr:`~fastscore.RuleTable.row_ids` order): encoding 45 columns (or a map) costs as much as the output's own encoding, and parts
are read back only when resuming.  ``job.json`` records the output's kind, format and
columns and the caller's ``job`` (the CLI: the input's resolved path, size
and SHA-256 digest, or the ``--sample`` size and seed; the rule table's
content hash; not the chunk size; :func:`fastscore.jobs.job_description`).
On resuming, a ``job.json`` that differs
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
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..rules import default_rules
from .schemas import ROW_COLUMNS, _parquet_options, _rows_array, row_columns

__all__ = ["PartsFolder", "naming_path"]

_JOB_FILE = "job.json"  # a parts folder's description of its job
_PARTS_VERSION = 3  # layout of a parts folder; a resumed run must find the same (2: digests in part names;
# 3: the output columns row_<id>, rows, waits)
# Rows [first, stop) of the output, and the first 16 hex digits of the SHA-256 of the part's bytes.
_PART_NAME = re.compile(r"part-(\d{12})-(\d{12})-([0-9a-f]{16})\.(?:parquet|jsonl|csv)")
_PART_SUFFIX = {"parquet": ".parquet", "jsonl": ".jsonl", "csv": ".csv"}
_PACKED = "row_points"  # the packed row-point column of a Parquet score part


def _same_columns(a, b) -> bool:
    """The two pyarrow schemas have the same column names and types, in order.  Whether a column may
    be null is not compared: parts written before the output declared its always-valued columns not
    null (fastscore 0.1, stop 12) hold no nulls there, and read back with the new schema."""
    return [(f.name, f.type) for f in a] == [(f.name, f.type) for f in b]


_ROW_POINT_COLUMNS = frozenset(ROW_COLUMNS + ("rows",))  # what a part packs: the dense or sparse row points


def _packed_schema(schema, row_ids: tuple):
    """The schema of a Parquet score part: ``schema`` with its row-point columns packed into one."""
    import pyarrow as pa

    rows = _ROW_POINT_COLUMNS
    return pa.schema([f for f in schema if f.name not in rows] + [pa.field(_PACKED, pa.binary(2 * len(row_ids)))])


def _packed(table, result):
    """A score chunk as its part holds it: the row-point columns (dense or sparse) as one column of
    ``fixed_size_binary(2 R)``, the row's R int16 points (little-endian, ``result.row_ids`` order),
    taken from ``result.row_points`` without a copy.  Encoding R Parquet columns, or the sparse
    map, costs as much as the final file; a part is read back only by a resumed run."""
    import pyarrow as pa

    points = np.ascontiguousarray(result.row_points, dtype="<i2")
    packed = pa.FixedSizeBinaryArray.from_buffers(pa.binary(2 * points.shape[1]), len(points),
                                                  [None, pa.py_buffer(points)])
    return table.drop_columns([c for c in table.column_names if c in _ROW_POINT_COLUMNS]).append_column(_PACKED, packed)


def _unpacked(table, schema, row_ids: tuple):
    """A part read back (:func:`_packed`) as the output's columns (``schema``), its rows ``row_ids``."""
    import pyarrow as pa

    n = table.num_rows
    column = table.column(_PACKED).combine_chunks()
    width = 2 * len(row_ids)
    data = np.frombuffer(column.buffers()[1], dtype=np.uint8)[column.offset * width:(column.offset + n) * width]
    points = data.view("<i2").reshape(n, len(row_ids))
    columns = {name: points[:, r] for r, name in enumerate(row_columns(row_ids))}
    if "rows" in schema.names:  # the sparse map, built again from the points
        columns["rows"] = _rows_array(points, row_ids)
    arrays = [(columns[f.name] if f.name == "rows" else pa.array(np.ascontiguousarray(columns[f.name]), f.type))
              if f.name in columns else table.column(f.name) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


class PartsFolder:
    """The parts folder ``.<name>.parts`` of the output ``path`` (module docstring).

    Parameters
    ----------
    path : Path
        The output file.
    format : str
        ``"jsonl"``, ``"csv"`` or ``"parquet"``.
    kind : str
        ``"score"`` or ``"waits"``.
    schema : pyarrow.Schema or None
        The output's Parquet schema (None for the other formats).

    Attributes
    ----------
    path : Path
        The folder.
    parts : list of (int, int, Path)
        Completed parts, in row order: first row, stop row, file.
    removed : bool
        An interrupted run's folder was found and removed (:meth:`open` without ``resume``).
    temp : Path or None
        The part being written.
    """

    def __init__(self, path: Path, format: str, kind: str, schema, row_ids=None):
        self.output = path
        self.path = path.with_name(f".{path.name}.parts")
        self.format = format
        self.schema = schema
        # Parquet score parts with row points hold them as one packed column (see _packed).
        self.packed = schema is not None and kind == "score" and bool(_ROW_POINT_COLUMNS & set(schema.names))
        # The rows of the packed row points (the table's rows in force; default the default table's).
        self.row_ids = tuple(row_ids) if row_ids is not None else default_rules().row_ids
        self.part_schema = _packed_schema(schema, self.row_ids) if self.packed else schema
        self.parts: list[tuple[int, int, Path]] = []
        self.temp: Path | None = None
        self.removed = False

    @property
    def kept_rows(self) -> int:
        """Rows held by the completed parts: what a resumed run keeps."""
        return self.parts[-1][1] if self.parts else 0

    def part_data(self, data, result):
        """The chunk ``data`` (as the output holds it) as its part holds it."""
        return _packed(data, result) if self.packed else data

    def open(self, manifest: dict, resume: bool, partial_path: Path) -> None:
        """Create the folder with its ``job.json`` (``manifest``: the output's kind, format and columns and
        the caller's job), or (``resume``) take up an interrupted run's; ``partial_path`` is the
        output's partial file, removed first."""
        manifest = {"fastscore_parts": _PARTS_VERSION, **manifest}
        try:
            text = json.dumps(manifest, indent=1, sort_keys=True)
        except TypeError as exc:
            raise ValueError(f"{self.output}: the job description must be JSON data ({exc})") from None
        folder = self.path
        try:
            os.unlink(partial_path)  # left by a run killed while joining its parts
        except FileNotFoundError:
            pass
        if folder.is_dir() and not (folder / _JOB_FILE).is_file():
            shutil.rmtree(folder)  # killed before its job.json was written: holds no parts
        elif folder.is_dir() and not resume:
            shutil.rmtree(folder)
            self.removed = True
        if folder.is_dir():
            self._check_manifest(json.loads(text))
            self.parts = self._scan_parts()
            return
        folder.mkdir()
        temp = folder / f".{_JOB_FILE}.partial"
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, folder / _JOB_FILE)

    def _check_manifest(self, manifest: dict) -> None:
        where = self.path / _JOB_FILE
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
            raise ValueError(f"{self.output}: cannot resume: this job differs from the interrupted run in "
                             f"{self.path.name} ({'; '.join(changed)}); run again without --resume "
                             f"to start over")

    def _scan_parts(self) -> list[tuple[int, int, Path]]:
        """The interrupted run's complete parts from row 0 on, without gaps; removes anything else."""
        suffix = _PART_SUFFIX[self.format]
        found, stray = [], []
        for p in self.path.iterdir():
            match = _PART_NAME.fullmatch(p.name)
            if match and p.suffix == suffix:
                found.append((int(match[1]), int(match[2]), match[3], p))
            elif p.name != _JOB_FILE:
                stray.append(p)  # a part being written when the run stopped
        parts, row = [], 0
        for first, stop, digest, p in sorted(found):
            if first == row and stop > first and self._part_is_complete(p, stop - first, digest):
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

    def _part_is_complete(self, path: Path, rows: int, digest: str) -> bool:
        """The part's bytes have the digest of its name (not a bit changed since it was written), and
        it reads back with ``rows`` rows (and, for Parquet, the output's schema)."""
        try:
            with open(path, "rb") as f:
                if hashlib.file_digest(f, "sha256").hexdigest()[:16] != digest:
                    return False
            if self.format == "parquet":
                import pyarrow.parquet as pq

                meta = pq.read_metadata(path)
                return meta.num_rows == rows and _same_columns(meta.schema.to_arrow_schema(), self.part_schema)
            if self.format == "jsonl":
                return path.read_bytes().count(b"\n") == rows  # one line per row (JSON escapes newlines)
            with open(path, encoding="utf-8", newline="") as f:
                return sum(1 for _ in csv.reader(f)) == rows
        except Exception:  # noqa: BLE001 - any unreadable part is redone
            return False

    def write(self, data, first: int, n: int) -> None:
        """Write rows ``[first, first + n)`` (``data``: :meth:`part_data`) as a part, atomically."""
        stop = first + n
        suffix = _PART_SUFFIX[self.format]
        self.temp = self.path / f".part-{first:012d}-{stop:012d}{suffix}.partial"
        with naming_path(self.temp):
            if self.format == "parquet":
                import pyarrow.parquet as pq

                pq.write_table(data, self.temp, **_parquet_options(self.part_schema, part=True))
                with open(self.temp, "rb") as f:  # read back from the page cache: a few ms a part
                    digest = hashlib.file_digest(f, "sha256").hexdigest()
            else:
                self.temp.write_bytes(data)
                digest = hashlib.sha256(data).hexdigest()
        path = self.path / f"part-{first:012d}-{stop:012d}-{digest[:16]}{suffix}"
        os.replace(self.temp, path)
        self.temp = None
        self.parts.append((first, stop, path))

    def copy_to(self, sink) -> None:
        """Write the kept parts, in row order, to ``sink`` (the output's: a Parquet sink or a binary file)."""
        for _, _, path in self.parts:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                table = pq.read_table(path, schema=self.part_schema, page_checksum_verification=True)
                sink.write(_unpacked(table, self.schema, self.row_ids) if self.packed else table)
            else:
                with open(path, "rb") as f:
                    shutil.copyfileobj(f, sink)


@contextlib.contextmanager
def naming_path(path: Path):
    """Raise an OSError of writing ``path`` with the path at the start of its message when it does not
    name it already (the error of a full disk, ``[Errno 28] No space left on device``, names no file);
    its ``errno`` is kept."""
    try:
        yield
    except OSError as exc:
        if str(path) in str(exc):
            raise
        named = OSError(f"{path}: {exc.strerror or exc}")
        named.errno = exc.errno
        raise named from exc


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
