"""Result columns and schemas: what a score or waits result file holds, and the input columns beside it.

A score result has the columns :data:`SCORE_COLUMNS` and one int16 column per
row id of :data:`fastscore.ROW_IDS`; a waits result :data:`WAITS_COLUMNS`.
:func:`result_table` gives a result as the pyarrow Table of the Parquet
output, and :func:`hand_records` a batch as input records (normalised
notation).  Parquet results are dictionary-encoded and snappy-compressed,
with statistics for every column but the row points (:func:`_parquet_options`).
"""

from __future__ import annotations

import numpy as np

from ..batch import HandBatch
from ..records import RECORD_KEYS
from ..rules import ROW_IDS, SHAPE_NAMES
from ..tiles import TILE_NAMES, WINDS, ErrorCode, SetKind, format_set

__all__ = ["RESULT_COLUMNS", "SCORE_COLUMNS", "WAITS_COLUMNS", "hand_records", "result_table"]

#: Columns of a score result file (CSV and Parquet), in order; then one
#: column per row id of :data:`fastscore.ROW_IDS` (points of that row).
SCORE_COLUMNS = ("is_win", "shape", "points", "chicken", "total", "legal", "payout", "error")

#: Columns of a waits result file (CSV and Parquet).  ``waits_json`` is the
#: JSON object ``{tile: {"discard": payout, "self_draw": payout}}``.
WAITS_COLUMNS = ("n_waits", "waits_json", "error")

#: The columns of a result file beside its input columns (``batch --sample``), in every format (JSON
#: lines: ``rows`` and ``waits`` objects; CSV and Parquet: ``rows.<id>``): read back as input, a
#: result's columns are skipped, not refused (:func:`fastscore.records.check_columns`).  A bare row id
#: (``self_draw``) is not among them: it names a result column only in files without input columns.
RESULT_COLUMNS = frozenset(SCORE_COLUMNS + WAITS_COLUMNS + ("rows", "waits") + tuple(f"rows.{rid}" for rid in ROW_IDS))


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

    from ..waits_text import waits_json_array

    return {
        "n_waits": np.asarray(result.n_waits, dtype=np.int16),
        "waits_json": waits_json_array(result.mask, result.payout_discard, result.payout_self_draw).cast(pa.string()),
        "error": _errors(result),
    }


_INPUT_TYPES = {"self_drawn": "bool_", "closing": "bool_", "streak": "int32"}


def _arrow_schema(kind: str, with_input: bool, kept=None):
    """The output schema.  Columns that always have a value (0 or False on a flagged row) are
    declared not null: Parquet then stores no null flags for them, which also makes the file
    about a tenth quicker to write.  ``shape`` (no interpretation), ``error``, ``waits_json``
    and the input columns may be null."""
    import pyarrow as pa

    fields = list(kept) if kept is not None else []  # the kept input columns (--keep), first
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

    with_input = inputs is not None and "hand" in inputs  # else no inputs, or only the kept columns
    if kind == "score":
        columns = _score_columns(result, with_input)
        shape = result.shape
        columns["shape"] = pa.DictionaryArray.from_arrays(
            pa.array(np.where(shape < 0, 0, shape).astype(np.int8), mask=shape < 0),
            pa.array(SHAPE_NAMES, pa.string()),
        )
    else:
        columns = _waits_columns(result)
    arrays = []
    kept = inputs.get("__kept__") if inputs is not None else None  # the kept columns (ResultWriter.write)
    for field in schema:
        if kept is not None and field.name in kept.column_names:
            value = kept.column(field.name).combine_chunks()
        elif with_input and field.name in RECORD_KEYS:
            value = inputs[field.name]
        else:
            value = columns[field.name]
        if isinstance(value, np.ndarray):
            value = np.ascontiguousarray(value)
        arrays.append(value if isinstance(value, pa.Array) else pa.array(value, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)



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
    encoding only for strings), no statistics.  Both carry page checksums (CRC-32 of each page),
    which fastscore's readers verify (:func:`fastscore.io.formats.parquet_file`).
    """
    import pyarrow as pa

    rows = set(ROW_IDS) | {f"rows.{rid}" for rid in ROW_IDS}
    if part:
        strings = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_dictionary(f.type)]
        return {"compression": "snappy", "use_dictionary": strings, "write_statistics": False,
                "write_page_checksum": True}
    return {"compression": "snappy", "use_dictionary": True,
            "write_statistics": [f.name for f in schema if f.name not in rows], "write_page_checksum": True}
