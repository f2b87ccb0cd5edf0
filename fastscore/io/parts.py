"""Resumable writing: the hidden parts folder of a result file, its ``job.json``, and resuming.

Used by :class:`fastscore.io.ResultWriter` opened with a ``job``
(``open_writer(..., job=...)``, the ``--resume`` of the ``batch`` commands;
every format).  An interrupted run (an exception, Ctrl-C, a killed process)
must be able to keep its finished chunks, yet a Parquet file cut off before
its footer cannot be read at all.  So each chunk goes to its own small file
in a hidden folder beside the output::

    .out.parquet.parts/
        job.json                                             what makes the rows (below)
        part-000000000000-000000065536-3f2a9c0d1e4b5a67.arrow  rows [0, 65536) of the output
        part-000000065536-000000131072-0b1c2d3e4f506172.arrow  rows [65536, 131072)
        .part-000000131072-000000196608.arrow.partial          (being written)

A part is written under a ``.partial`` name and renamed when complete, so a
part under its own name is always whole; its name ends with the first 16 hex
digits of the SHA-256 of its bytes, checked when a run resumes, so a part
changed since (a flipped bit, in any format) is redone rather than copied.  Each chunk also goes on to
``.out.parquet.partial``, as without parts (Parquet: in row groups of
:data:`fastscore.io.ROW_GROUP_ROWS`); a resumed run first copies the kept parts, in row
order, into a new ``.out.parquet.partial``.  When the last chunk is written
that file is renamed to ``out.parquet`` and the folder is removed.  The
output name therefore appears only when the file is complete, and its bytes
are those of an uninterrupted run.  The parts of a Parquet output are Arrow IPC files
(``.arrow``, the output's own columns, LZ4-compressed buffers): writing one takes about half the CPU
of a Parquet part, which cost half to all of the output's own encoding (bench/README, 2026-12-05);
parts are read back only when resuming.  ``job.json`` records the output's kind, format and
columns and the caller's ``job`` (the CLI: the input's resolved path, size
and SHA-256 digest, or the ``--sample`` size and seed; the rule table's
content hash; not the chunk size; :func:`fastscore.jobs.job_description`).
On resuming, a ``job.json`` that differs
is an error naming the differences; otherwise the parts that run from row 0 without a gap and
read back whole (Arrow schema and row count; line count) are kept, anything
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

__all__ = ["PartsFolder", "naming_path"]

_JOB_FILE = "job.json"  # a parts folder's description of its job
_PARTS_VERSION = 4  # layout of a parts folder; a resumed run must find the same (2: digests in part names;
# 3: the output columns row_<id>, rows, waits; 4: a Parquet output's parts are Arrow IPC files)
# Rows [first, stop) of the output, and the first 16 hex digits of the SHA-256 of the part's bytes.
_PART_NAME = re.compile(r"part-(\d{12})-(\d{12})-([0-9a-f]{16})\.(?:arrow|jsonl|csv)")
_PART_SUFFIX = {"parquet": ".arrow", "jsonl": ".jsonl", "csv": ".csv"}
#: How a Parquet output's part is written: LZ4 (fast, and the row points are mostly 0), compressed on
#: the thread that writes the part (it runs beside the scoring and the output's writer), not a pool.
_IPC_OPTIONS = {"compression": "lz4", "use_threads": False}


def _same_columns(a, b) -> bool:
    """The two pyarrow schemas have the same column names and types, in order."""
    return [(f.name, f.type) for f in a] == [(f.name, f.type) for f in b]


def _ipc_bytes(table):
    """``table`` as the bytes of an Arrow IPC file (:data:`_IPC_OPTIONS`)."""
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema, options=pa.ipc.IpcWriteOptions(**_IPC_OPTIONS)) as writer:
        writer.write_table(table)
    return sink.getvalue()


def _read_ipc(path: Path):
    """The table of the Arrow IPC part ``path``."""
    import pyarrow as pa

    with pa.OSFile(str(path), "rb") as source:  # read into memory of its own: valid once the file is closed
        return pa.ipc.open_file(source).read_all()


class PartsFolder:
    """The parts folder ``.<name>.parts`` of the output ``path`` (module docstring).

    Parameters
    ----------
    path : Path
        The output file.
    format : str
        ``"jsonl"``, ``"csv"`` or ``"parquet"``.
    schema : pyarrow.Schema or None
        The output's Parquet schema, which its parts hold too (None for the other formats).

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

    def __init__(self, path: Path, format: str, schema):
        self.output = path
        self.path = path.with_name(f".{path.name}.parts")
        self.format = format
        self.schema = schema
        self.parts: list[tuple[int, int, Path]] = []
        self.temp: Path | None = None
        self.removed = False

    @property
    def kept_rows(self) -> int:
        """Rows held by the completed parts: what a resumed run keeps."""
        return self.parts[-1][1] if self.parts else 0

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
                table = _read_ipc(path)
                return table.num_rows == rows and _same_columns(table.schema, self.schema)
            if self.format == "jsonl":
                return path.read_bytes().count(b"\n") == rows  # one line per row (JSON escapes newlines)
            with open(path, encoding="utf-8", newline="") as f:
                return sum(1 for _ in csv.reader(f)) == rows
        except Exception:  # noqa: BLE001 - any unreadable part is redone
            return False

    def write(self, data, first: int, n: int) -> None:
        """Write rows ``[first, first + n)`` (``data``: the chunk as the output holds it: a pyarrow Table
        for Parquet, else bytes) as a part, atomically."""
        stop = first + n
        suffix = _PART_SUFFIX[self.format]
        self.temp = self.path / f".part-{first:012d}-{stop:012d}{suffix}.partial"
        with naming_path(self.temp):
            if self.format == "parquet":
                data = _ipc_bytes(data)
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
                sink.write(_read_ipc(path))
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
