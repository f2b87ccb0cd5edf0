"""Streaming, chunked reading of hand records and writing of results.

One module per job:

====================================  ================================================================
module                                what it holds
====================================  ================================================================
:mod:`fastscore.io.formats`           file formats by extension, Parquet input opening and its errors
:mod:`fastscore.io.readers`           hand records from JSON lines, CSV and Parquet; ``check_input``
                                      (every column read or kept); ``iter_batches``, ``iter_chunks``
                                      (with the ``keep`` columns); ``read_ahead``
:mod:`fastscore.io.text`              JSON lines and CSV records read as dicts, chunk by chunk
:mod:`fastscore.io.encoded`           encoded hands: the ``HandBatch`` columns as a Parquet file
:mod:`fastscore.io.schemas`           result columns and schemas, result tables, input records
:mod:`fastscore.io.writer`            ``ResultWriter`` / ``open_writer``: chunked, atomic, deterministic
:mod:`fastscore.io.parts`             the parts folder of a resumable writer, ``job.json``, resuming
====================================  ================================================================

Inputs and outputs are chosen by file extension (``.jsonl``/``.json``,
``.csv``, ``.parquet``/``.pq``; :func:`file_format`).  Everything streams,
:data:`DEFAULT_CHUNK_ROWS` rows at a time; a bad record never stops a run.
The job that reads, scores, writes and resumes is :mod:`fastscore.jobs`.

pyarrow is imported only when a Parquet file is read or written.
"""

from .encoded import (
    ENCODED_COLUMNS,
    ENCODED_TAG,
    batch_from_encoded,
    encoded_schema,
    encoded_table,
    is_encoded,
    write_encoded,
)
from .formats import count_rows, file_format, is_empty, parquet_file, parquet_read_errors
from .readers import (
    DEFAULT_CHUNK_ROWS,
    INPUT_SCHEMA,
    batch_from_table,
    check_input,
    check_keep,
    hand_columns,
    hand_file,
    iter_batches,
    iter_chunks,
    read_ahead,
    read_records,
)
from .schemas import (
    DISCARDS_COLUMNS,
    RESULT_COLUMNS,
    ROW_COLUMNS,
    ROWS_LAYOUTS,
    SCORE_COLUMNS,
    SHANTEN_COLUMNS,
    WAITS_COLUMNS,
    WAITS_JSON,
    hand_records,
    result_columns,
    row_columns,
    result_table,
)
from .writer import ROW_GROUP_ROWS, ResultWriter, open_writer

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "DISCARDS_COLUMNS",
    "INPUT_SCHEMA",
    "ROW_GROUP_ROWS",
    "RESULT_COLUMNS",
    "ROW_COLUMNS",
    "ROWS_LAYOUTS",
    "SCORE_COLUMNS",
    "SHANTEN_COLUMNS",
    "WAITS_COLUMNS",
    "WAITS_JSON",
    "ResultWriter",
    "ENCODED_COLUMNS",
    "batch_from_encoded",
    "count_rows",
    "encoded_schema",
    "encoded_table",
    "is_encoded",
    "file_format",
    "batch_from_table",
    "check_input",
    "check_keep",
    "hand_columns",
    "hand_file",
    "hand_records",
    "iter_batches",
    "iter_chunks",
    "open_writer",
    "read_ahead",
    "read_records",
    "result_columns",
    "row_columns",
    "result_table",
    "write_encoded",
]
