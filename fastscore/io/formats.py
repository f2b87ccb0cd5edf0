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
import os
from pathlib import Path

__all__ = ["count_rows", "file_format", "is_empty", "parquet_file", "parquet_read_errors"]

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
        return pq.ParquetFile(path, read_dictionary=read_dictionary, metadata=metadata,
                              page_checksum_verification=True)
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

