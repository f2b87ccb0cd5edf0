"""File formats of hand records and results: which format a file is, and opening Parquet input.

Inputs and outputs are chosen by file extension:

==================  ==========================================================
extension           format
==================  ==========================================================
``.jsonl``          JSON lines, one record (object) per line
``.json``           JSON lines too; or one JSON array of records (read whole)
``.csv``            comma-separated, one header line
``.parquet``        Apache Parquet (``.pq`` also accepted)
==================  ==========================================================

pyarrow is imported only when a Parquet file is read or written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

__all__ = ["COLUMNS_KEY", "check_columns_digest", "columns_digest", "count_rows", "file_format", "is_empty",
           "parquet_file", "parquet_read_errors"]

_FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


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
def parquet_read_errors(path: str | os.PathLike, row_groups=None):
    """Raise a read error of the Parquet file ``path`` (a damaged page, a page whose checksum does not
    match) as a ValueError that names it, and the row groups being read (a sequence of int) when given."""
    import pyarrow as pa

    try:
        yield
    except FileNotFoundError:
        raise
    except (OSError, pa.ArrowException) as exc:
        where = ""
        if row_groups is not None and len(row_groups):
            groups = list(row_groups)
            where = (f" of row group {groups[0]}" if len(groups) == 1
                     else f" of row groups {groups[0]} to {groups[-1]}")
        raise ValueError(f"{path}: cannot read the Parquet data{where} ({exc}); the file is damaged") from None


#: Footer key of the Parquet files fastscore writes: a digest of their columns (:func:`columns_digest`).
COLUMNS_KEY = b"fastscore.columns_sha256"


def columns_digest(metadata) -> bytes:
    """SHA-256 (hex) of a Parquet footer's columns: each column's path, physical type and levels, and
    the Arrow schema pyarrow stored beside them.  Page checksums do not cover the footer; this
    digest, written in the footer by fastscore (:data:`COLUMNS_KEY`), tells a footer whose bit
    flipped (a column renamed, a type changed) from the one written."""
    digest = hashlib.sha256()
    schema = metadata.schema
    for i in range(len(schema)):
        column = schema.column(i)
        digest.update(repr((column.path, column.physical_type, column.max_definition_level,
                            column.max_repetition_level)).encode())
    digest.update((metadata.metadata or {}).get(b"ARROW:schema", b""))
    return digest.hexdigest().encode()


def check_columns_digest(path, metadata) -> None:
    """Raise ValueError when the Parquet footer ``metadata`` of ``path`` holds a :data:`COLUMNS_KEY`
    that does not match its columns (files without one, not written by fastscore, pass)."""
    written = (metadata.metadata or {}).get(COLUMNS_KEY)
    if written is not None and written != columns_digest(metadata):
        raise ValueError(f"{path}: its column names or types differ from those it was written with "
                         f"(a damaged footer); the file cannot be trusted")


def parquet_file(path: str | os.PathLike, read_dictionary: list[str] | None = None, metadata=None):
    """``pyarrow.parquet.ParquetFile(path, read_dictionary=..., metadata=...)`` of an input file
    (``metadata``: the file's footer read already, not read again), verifying page checksums.

    Every Parquet file fastscore writes carries a CRC-32 checksum in each page header; a page whose
    bytes changed (a flipped bit) then fails to read and the read stops with a ValueError naming
    the file and row group (:func:`parquet_read_errors`).  Files written without checksums
    (pyarrow's default, most other writers') are read unchecked: a flipped bit in a value is
    then read as another value, unless it breaks the page's encoding or compression.

    Raises
    ------
    ValueError
        The file is not Parquet (or is damaged); the message names it.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path, read_dictionary=read_dictionary, metadata=metadata,
                            page_checksum_verification=True)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:  # not Parquet, cut short, a damaged footer
        raise ValueError(f"{path}: not a readable Parquet file ({exc})") from None
    if metadata is None:
        check_columns_digest(path, pf.metadata)
    return pf


def count_rows(path: str | os.PathLike) -> int | None:
    """Rows in an input file when known without reading it (Parquet metadata, or an empty file), else None."""
    kind = file_format(path)
    if is_empty(path):
        return 0
    if kind != "parquet":
        return None
    with parquet_file(path) as pf:
        return pf.metadata.num_rows

