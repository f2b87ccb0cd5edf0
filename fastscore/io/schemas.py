"""Result columns and schemas: what a score, waits, shanten or discards result file holds, and the input
columns beside it.

One layout in every format and input mode (the table of ``docs/formats.md``, "Output columns"):
a score result has the columns :data:`SCORE_COLUMNS`, then its row points as
:func:`rows_layout` chooses: ``"dense"``, one int16 column ``row_<id>`` per row in force in its rule
table (:func:`row_columns`, in :data:`fastscore.ROW_IDS` order); ``"sparse"``, one column ``rows`` holding only
the rows that scored (Parquet ``map<string, int16>``, JSON lines an object, CSV its JSON text;
``Score.rows``); ``"none"``.  A waits result has :data:`WAITS_COLUMNS`: ``waits`` is the list
of ``{tile, discard, self_draw}`` (Parquet ``list<struct<tile: string, discard: int32,
self_draw: int32>>``, JSON lines a list of objects, CSV its JSON text), optionally followed by
the older ``waits_json`` text.  A shanten result has :data:`SHANTEN_COLUMNS` (int8, null where the
hand cannot take the shape), a discards result :data:`DISCARDS_COLUMNS`: ``discards`` is the list of
every held kind's discard (:func:`_discards_type`; JSON lines a list of objects, CSV its JSON text).
:func:`result_columns` gives the names in order, :func:`result_table`
a result as the pyarrow Table of the Parquet output, and :func:`hand_records` a batch as input
records (normalised notation).  Parquet results are dictionary-encoded and snappy-compressed,
with statistics for every column but the row points and the nested ones (:func:`_parquet_options`).
"""

from __future__ import annotations

import json

import numpy as np

from ..batch import HandBatch
from ..events import ALL_EVENTS, events_text
from ..records import RECORD_KEYS
from ..rules import ROW_IDS, SHAPE_NAMES
from ..tiles import NO_SHAPE, TILE_NAMES, WINDS, ErrorCode, SetKind, format_set

__all__ = ["DISCARDS_COLUMNS", "KINDS", "REQUIRE_WIN", "RESULT_COLUMNS", "ROWS_LAYOUTS", "ROW_COLUMNS",
           "SCORE_COLUMNS", "SHANTEN_COLUMNS", "WAITS_COLUMNS", "WAITS_JSON", "hand_records", "input_keys",
           "result_columns", "result_table", "row_columns", "rows_layout"]

#: The kinds of result (and of job, :mod:`fastscore.jobs`): of :func:`fastscore.score_batch`,
#: :func:`fastscore.waits_batch`, :func:`fastscore.shanten_batch` and :func:`fastscore.discard_analysis`.
KINDS = ("score", "waits", "shanten", "discards")

#: How the input rows of each kind read ``win``, as the readers' ``require_win``: required (True: the winning
#: tile of score, the drawn tile of discards), ignored (False: waits, 16-tile hands) or read where given
#: (None: shanten, a row with one a 17-tile hand).  The input columns of a kind that requires it include it
#: (:func:`input_keys`).
REQUIRE_WIN = {"score": True, "waits": False, "shanten": None, "discards": True}

#: Columns of a score result, in order, in every format; then its row points (:func:`rows_layout`).
SCORE_COLUMNS = ("is_win", "shape", "points", "chicken", "total", "legal", "payout", "error")

#: The dense row-point column of every row of the catalog, :data:`fastscore.ROW_IDS`: ``row_self_draw`` ...
#: (prefixed: the row id ``closing`` is also an input column, a bool).  A result holds those of its rule
#: table's rows in force, in this order (:func:`row_columns`).
ROW_COLUMNS = tuple(f"row_{rid}" for rid in ROW_IDS)


def row_columns(row_ids=None) -> tuple[str, ...]:
    """The dense row-point columns of a result over the rows ``row_ids`` (a rule table's
    :attr:`~fastscore.RuleTable.row_ids`; default: the default table's, the 45 LRC rows)."""
    if row_ids is None:
        from ..rules import default_rules

        row_ids = default_rules().row_ids
    return tuple(f"row_{rid}" for rid in row_ids)

#: The row-point layouts of a score result (:func:`rows_layout`).
ROWS_LAYOUTS = ("dense", "sparse", "none")

#: Columns of a waits result, in order, in every format.  ``waits``: the waiting tiles in kind
#: order, each ``{tile, discard, self_draw}`` (payouts in points).
WAITS_COLUMNS = ("n_waits", "waits", "error")

#: Columns of a shanten result, in order, in every format (int8; :class:`fastscore.ShantenResult`): the
#: best shanten (0 ready, -1 complete), then per shape; null where the hand cannot take the shape (a
#: special shape with a declared set) and, like every shanten, in flagged rows.
SHANTEN_COLUMNS = ("shanten", "shanten_standard", "shanten_nico_nico", "shanten_thirteen_orphans",
                   "shanten_sixteen_orphans", "error")

#: Columns of a discards result, in order, in every format (:class:`fastscore.DiscardResult`): ``shanten``
#: the least over the discards (int8, null in flagged rows); ``discards`` one entry per held kind, in
#: kind order, ``{tile, shanten, useful, live_useful, waits, expected_discard, expected_self_draw}``.
DISCARDS_COLUMNS = ("shanten", "discards", "error")

#: The optional text column of a waits result (``waits-batch --waits-json``), after ``waits``: the JSON
#: object ``{tile: {"discard": payout, "self_draw": payout}}`` (:meth:`fastscore.WaitsResult.waits_at`).
WAITS_JSON = "waits_json"

#: The columns of a result file beside its input columns (``batch --sample``), in every format: read
#: back as input, a result's columns are skipped, not refused (:func:`fastscore.records.check_columns`).
#: Also the ``rows.<id>`` row-point columns of files written by earlier versions.
RESULT_COLUMNS = frozenset(SCORE_COLUMNS + WAITS_COLUMNS + SHANTEN_COLUMNS + DISCARDS_COLUMNS + ROW_COLUMNS
                           + ("rows", WAITS_JSON) + tuple(f"rows.{rid}" for rid in ROW_IDS))


def rows_layout(rows: str | None, format: str) -> str:
    """The row-point layout of a score result: ``rows`` checked, or by default ``"dense"`` (CSV and
    Parquet) or ``"sparse"`` (JSON lines: an object of the rows that scored, as :meth:`~fastscore.Score.to_dict`).

    Raises
    ------
    ValueError
        ``rows`` not one of :data:`ROWS_LAYOUTS` (nor None).
    """
    if rows is None:
        return "sparse" if format == "jsonl" else "dense"
    if rows not in ROWS_LAYOUTS:
        raise ValueError(f"rows must be one of {', '.join(ROWS_LAYOUTS)}, got {rows!r}")
    return rows


def result_columns(kind: str, rows: str = "dense", waits_json: bool = False, row_ids=None) -> tuple[str, ...]:
    """Names of a result's own columns, in order (after the kept and the input columns).

    ``kind="score"``: :data:`SCORE_COLUMNS` then :func:`row_columns` of ``row_ids`` (the rule table's rows
    in force; default the LRC table's) (``rows="dense"``), ``rows``
    (``"sparse"``) or nothing (``"none"``).  ``kind="waits"``: :data:`WAITS_COLUMNS`, with
    :data:`WAITS_JSON` after ``waits`` when ``waits_json``.  ``"shanten"``: :data:`SHANTEN_COLUMNS`;
    ``"discards"``: :data:`DISCARDS_COLUMNS`.
    """
    if kind == "score":
        return SCORE_COLUMNS + {"dense": row_columns(row_ids) if rows == "dense" else (), "sparse": ("rows",),
                                "none": ()}[rows]
    if kind == "shanten":
        return SHANTEN_COLUMNS
    if kind == "discards":
        return DISCARDS_COLUMNS
    return ("n_waits", "waits") + ((WAITS_JSON,) if waits_json else ()) + ("error",)


def input_keys(kind: str) -> tuple[str, ...]:
    """The input columns written beside a result (``with_input``): :data:`fastscore.RECORD_KEYS`; for waits and
    shanten (16-tile hands: ``win`` not required, :data:`REQUIRE_WIN`) without ``win`` (the column would be
    all null)."""
    return RECORD_KEYS if REQUIRE_WIN[kind] else tuple(k for k in RECORD_KEYS if k != "win")


_SET_TEXT = [[""] * len(TILE_NAMES)] + [
    [format_set(kind, t) if kind != SetKind.SHEUNG or (t < 27 and t % 9 < 7) else "" for t in range(len(TILE_NAMES))]
    for kind in list(SetKind)[1:]
]
_FLOWER_TEXT = ["".join(f"{n}f" for n in range(1, 9) if bits >> (n - 1) & 1) for bits in range(256)]
_EVENT_TEXT = [events_text(bits) or None for bits in range(ALL_EVENTS + 1)]
_TEXTS: dict = {}  # pyarrow lookup arrays of the texts above (built once, when first needed)


def _texts():
    """The lookup arrays of :func:`_input_arrays`: set texts by
    ``kind * 34 + tile`` (null: no set); tile names; winds; flower texts."""
    import pyarrow as pa

    if not _TEXTS:
        _TEXTS["sets"] = pa.array([text or None for row in _SET_TEXT for text in row], pa.string())
        _TEXTS["tiles"] = pa.array(TILE_NAMES, pa.string())
        _TEXTS["winds"] = pa.array(list(WINDS), pa.string())
        _TEXTS["flowers"] = pa.array(_FLOWER_TEXT, pa.string())
        _TEXTS["events"] = pa.array(_EVENT_TEXT, pa.string())
    return _TEXTS


def _take(values, index: np.ndarray, size: int, mask=None):
    """``values[index]`` as a pyarrow array (an index outside ``[0, size)``, only on flagged rows, reads 0)."""
    import pyarrow as pa

    index = np.where((index >= 0) & (index < size), index, 0).astype(np.int32)
    return values.take(pa.array(index, mask=mask))


#: The characters of a hand's concealed tiles, in the order written: the digits of each suit, then its letter.
_CONCEALED_CHARS = np.frombuffer(b"123456789m123456789p123456789s1234567z", dtype=np.uint8)
_SUIT_LETTERS = (9, 19, 29, 37)  # the letters' places in _CONCEALED_CHARS


def _concealed_texts(concealed: np.ndarray):
    """Tenhou notation of each row of ``(N, 34)`` counts (``"1199m77p"``) as a pyarrow string array, built
    by numpy: each digit repeated by its count, each suit's letter once after a suit held."""
    import pyarrow as pa

    n = concealed.shape[0]
    counts = np.zeros((n, len(_CONCEALED_CHARS)), dtype=np.int64)
    held = np.delete(np.arange(len(_CONCEALED_CHARS)), _SUIT_LETTERS)
    counts[:, held] = np.minimum(concealed, 4)  # more only on flagged rows
    for letter, (base, size) in zip(_SUIT_LETTERS, ((0, 9), (9, 9), (18, 9), (27, 7))):
        counts[:, letter] = concealed[:, base:base + size].any(axis=1)
    data = np.repeat(np.broadcast_to(_CONCEALED_CHARS, counts.shape).reshape(-1), counts.reshape(-1))
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(counts.sum(axis=1), out=offsets[1:])
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def _input_arrays(batch: HandBatch) -> dict:
    """The batch as input-record columns (see :func:`hand_records`), pyarrow arrays of the Parquet input
    types, built by numpy and pyarrow's kernels (no Python per row): the hand is its concealed tiles
    (:func:`_concealed_texts`) and its declared sets, joined; flagged rows null in every column."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = _texts()
    n = len(batch)
    bad = batch.error != 0
    concealed = _concealed_texts(batch.concealed)
    # Never null (a hand holds a concealed tile; "" only on flagged rows): pyarrow 26's join drops a row
    # whose values are all null.
    parts = [concealed]
    if (batch.declared[:, :, 0] != 0).any():
        kinds = batch.declared[:, :, 0].astype(np.int32)
        tiles = batch.declared[:, :, 1].astype(np.int32)
        ok = (kinds >= 0) & (kinds < len(_SET_TEXT)) & (tiles >= 0) & (tiles < len(TILE_NAMES))
        index = np.where(ok, kinds * len(TILE_NAMES) + tiles, 0)
        parts += [_take(texts["sets"], index[:, k], len(texts["sets"])) for k in range(kinds.shape[1])]
    hands = pc.binary_join_element_wise(*parts, " ", null_handling="skip") if len(parts) > 1 else parts[0]
    hands = pc.if_else(pa.array(bad), pa.nulls(n, pa.string()), hands)
    win = batch.win.astype(np.int32)
    return {
        "hand": hands,
        "win": _take(texts["tiles"], win, len(TILE_NAMES), mask=bad | (win < 0)),
        "self_drawn": pa.array(batch.self_drawn.astype(np.bool_), mask=bad),
        "seat": _take(texts["winds"], batch.seat.astype(np.int32), 4, mask=bad),
        "round": _take(texts["winds"], batch.round.astype(np.int32), 4, mask=bad),
        "flowers": _take(texts["flowers"], batch.flowers.astype(np.int32), 256, mask=bad),
        "streak": pa.array(batch.streak.astype(np.int32), mask=bad),
        "closing": pa.array(batch.closing.astype(np.bool_), mask=bad),
        "events": _take(texts["events"], batch.events.astype(np.int32), ALL_EVENTS + 1, mask=bad),
    }


def _input_columns(batch: HandBatch) -> dict[str, list]:
    """The batch as input-record columns of Python values (see :func:`hand_records`)."""
    return {name: values.to_pylist() for name, values in _input_arrays(batch).items()}


def hand_records(batch: HandBatch) -> list[dict]:
    """The rows of a batch as input records (normalised notation), e.g. to save generated hands.

    Returns
    -------
    list of dict
        ``{hand, win, self_drawn, seat, round, flowers, streak, closing, events}`` per
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


def _hits(mask: np.ndarray):
    """``(offsets, flat indices, columns)`` of the nonzero entries of the ``(N, K)`` array ``mask``, row by
    row: row ``i``'s are ``[offsets[i], offsets[i + 1])`` (int32 offsets and columns; compiled,
    :func:`fastscore.kernels.layout.nonzero_by_row`)."""
    from ..kernels.layout import nonzero_by_row

    offsets = np.empty(mask.shape[0] + 1, dtype=np.int32)
    flat, columns = nonzero_by_row(np.ascontiguousarray(mask), offsets)
    return offsets, flat, columns


def _row_hits(row_points: np.ndarray):
    """``(offsets, columns, points)`` of the rows that scored in ``row_points`` ``(N, R) int16``, row by row
    in column order (int32 offsets and column indices, int16 points; :func:`_hits`)."""
    points = np.ascontiguousarray(row_points)
    offsets, flat, cols = _hits(points)
    return offsets, cols, points.reshape(-1)[flat]


def _wait_hits(result):
    """``(offsets, tiles, discard, self_draw)`` of the waits, row by row in kind order (:func:`_hits`)."""
    offsets, flat, tiles = _hits(np.ascontiguousarray(result.mask, dtype=np.bool_))
    return (offsets, tiles, np.ascontiguousarray(result.payout_discard).reshape(-1)[flat],
            np.ascontiguousarray(result.payout_self_draw).reshape(-1)[flat])


def _nested(offsets, items: list) -> list:
    """``items`` cut into one list per row by ``offsets``."""
    bounds = offsets.tolist()
    return [items[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _score_values(result, rows: str) -> dict:
    """The result's own columns as Python values (JSON lines and CSV), keyed by :func:`result_columns`
    name: ``rows`` (sparse) a dict per row of the rows that scored, as :attr:`fastscore.Score.rows`."""
    names = (None,) + SHAPE_NAMES
    columns = {
        "is_win": result.is_win.tolist(),
        "shape": [names[s + 1] for s in result.shape.tolist()],
        "points": result.points.tolist(),
        "chicken": result.chicken.tolist(),
        "total": result.total.tolist(),
        "legal": result.legal.tolist(),
        "payout": result.payout.tolist(),
        "error": _errors(result),
    }
    if rows == "dense":
        points = np.ascontiguousarray(result.row_points.T)
        columns.update((name, points[r].tolist()) for r, name in enumerate(row_columns(result.row_ids)))
    elif rows == "sparse":
        offsets, cols, points = _row_hits(result.row_points)
        ids = [result.row_ids[c] for c in cols.tolist()]
        columns["rows"] = [dict(pairs) for pairs in _nested(offsets, list(zip(ids, points.tolist())))]
    return columns


def _waits_values(result, waits_json: bool) -> dict:
    """The result's own columns as Python values (JSON lines and CSV): ``waits`` a list per row of
    ``{"tile", "discard", "self_draw"}`` dicts."""
    offsets, tiles, discard, self_draw = _wait_hits(result)
    waits = [{"tile": TILE_NAMES[t], "discard": d, "self_draw": s}
             for t, d, s in zip(tiles.tolist(), discard.tolist(), self_draw.tolist())]
    columns = {"n_waits": np.asarray(result.n_waits).tolist(), "waits": _nested(offsets, waits), "error": _errors(result)}
    if waits_json:
        columns[WAITS_JSON] = _waits_json(result).to_pylist()
    return columns


def _shanten_arrays(result, kind: str) -> dict:
    """The int8 shanten columns of a shanten or discards result, each ``(values, null mask)``: null where
    the value is :data:`~fastscore.efficiency.NO_SHAPE` (a shape the hand cannot take; a flagged row)."""
    if kind == "shanten":
        values = (result.shanten, result.standard, result.nico_nico, result.thirteen_orphans, result.sixteen_orphans)
    else:
        values = (result.best_shanten,)
    return {name: (v, v == NO_SHAPE) for name, v in zip(SHANTEN_COLUMNS, values)}


def _with_nulls(values: np.ndarray, null: np.ndarray) -> list:
    return [None if n else v for v, n in zip(values.tolist(), null.tolist())]


class _Discards:
    """A discards result's ``discards`` entries as flat arrays, in row then kind order (one per held kind of
    each analysed row): ``offsets`` (N + 1) cut them into rows; ``useful_offsets``/``useful_tiles`` and
    ``wait_offsets``/``wait_tiles``/``wait_discard``/``wait_self_draw`` cut the useful draws and the
    waits into entries (:func:`_hits`)."""

    def __init__(self, result):
        ok = np.asarray(result.error) == 0
        self.offsets, flat, self.tiles = _hits((result.shanten != NO_SHAPE) & ok[:, None])
        self.shanten = result.shanten.reshape(-1)[flat]
        self.live_useful = result.live_useful.reshape(-1)[flat]
        self.expected_discard = result.expected_discard.reshape(-1)[flat]
        self.expected_self_draw = result.expected_self_draw.reshape(-1)[flat]
        bits = (result.useful.reshape(-1)[flat][:, None] >> np.arange(len(TILE_NAMES), dtype=np.int64)) & 1
        self.useful_offsets, _, self.useful_tiles = _hits(bits.astype(np.bool_))
        # The ready discards (DiscardResult.ready_row/ready_discard) are the entries of shanten 0, in the
        # same order: entry k's waits are result.waits' row k.
        ready = np.flatnonzero(self.shanten == 0)
        assert ready.size == len(result.waits)
        offsets, self.wait_tiles, self.wait_discard, self.wait_self_draw = _wait_hits(result.waits)
        counts = np.zeros(self.shanten.size, dtype=np.int32)
        counts[ready] = np.diff(offsets)
        self.wait_offsets = np.zeros(self.shanten.size + 1, dtype=np.int32)
        np.cumsum(counts, out=self.wait_offsets[1:])


def _discards_values(result) -> dict:
    """The result's own columns as Python values (JSON lines and CSV): ``discards`` a list per row of
    ``{"tile", "shanten", "useful", "live_useful", "waits", "expected_discard", "expected_self_draw"}``."""
    d = _Discards(result)
    useful = _nested(d.useful_offsets, [TILE_NAMES[t] for t in d.useful_tiles.tolist()])
    waits = _nested(d.wait_offsets, [{"tile": TILE_NAMES[t], "discard": a, "self_draw": b} for t, a, b in
                                     zip(d.wait_tiles.tolist(), d.wait_discard.tolist(), d.wait_self_draw.tolist())])
    entries = [{"tile": TILE_NAMES[t], "shanten": s, "useful": u, "live_useful": live, "waits": w,
                "expected_discard": ed, "expected_self_draw": es}
               for t, s, u, live, w, ed, es in zip(d.tiles.tolist(), d.shanten.tolist(), useful,
                                                  d.live_useful.tolist(), waits, d.expected_discard.tolist(),
                                                  d.expected_self_draw.tolist())]
    (shanten, null), = _shanten_arrays(result, "discards").values()
    return {"shanten": _with_nulls(shanten, null), "discards": _nested(d.offsets, entries), "error": _errors(result)}


def result_values(result, kind: str, rows: str = "dense", waits_json: bool = False) -> dict:
    """A result's own columns (:func:`result_columns`) as lists of Python values, JSON-able."""
    if kind == "score":
        return _score_values(result, rows)
    if kind == "waits":
        return _waits_values(result, waits_json)
    if kind == "shanten":
        columns = {name: _with_nulls(*pair) for name, pair in _shanten_arrays(result, kind).items()}
        return {**columns, "error": _errors(result)}
    return _discards_values(result)


def _waits_json(result):
    """``waits_json`` as a pyarrow string array written by a compiled kernel (each row the text of
    ``json.dumps(result.waits_at(i), separators=(",", ":"))``; :mod:`fastscore.waits_text`)."""
    import pyarrow as pa

    from ..waits_text import waits_json_array

    return waits_json_array(result.mask, result.payout_discard, result.payout_self_draw).cast(pa.string())


def csv_cell(value):
    """A nested value (the ``rows`` dict, the ``waits`` or ``discards`` list) as its CSV cell: compact JSON text."""
    return json.dumps(value, separators=(",", ":"))


# --------------------------------------------------------------------------- Parquet


def _rows_type():
    import pyarrow as pa

    return pa.map_(pa.string(), pa.int16())


def _waits_type():
    import pyarrow as pa

    wait = pa.struct([pa.field("tile", pa.string(), nullable=False), pa.field("discard", pa.int32(), nullable=False),
                      pa.field("self_draw", pa.int32(), nullable=False)])
    return pa.list_(pa.field("element", wait, nullable=False))  # Parquet's name: the schema reads back the same


def _discards_type():
    """``list<struct<tile: string, shanten: int8, useful: list<string>, live_useful: int16, waits: (as
    :func:`_waits_type`), expected_discard: double, expected_self_draw: double>>``, nothing null."""
    import pyarrow as pa

    entry = pa.struct([
        pa.field("tile", pa.string(), nullable=False), pa.field("shanten", pa.int8(), nullable=False),
        pa.field("useful", pa.list_(pa.field("element", pa.string(), nullable=False)), nullable=False),
        pa.field("live_useful", pa.int16(), nullable=False), pa.field("waits", _waits_type(), nullable=False),
        pa.field("expected_discard", pa.float64(), nullable=False),
        pa.field("expected_self_draw", pa.float64(), nullable=False),
    ])
    return pa.list_(pa.field("element", entry, nullable=False))


_ROW_NAMES = {}  # pyarrow arrays of the row ids (by table's rows) and the tile names (taken from, per chunk)
_TILE_NAMES = None


def _rows_array(row_points: np.ndarray, row_ids: tuple):
    """The sparse ``rows`` column of ``row_points`` ``(N, R) int16`` over the rows ``row_ids``: a
    ``map<string, int16>`` per row, of the rows that scored."""
    import pyarrow as pa

    names = _ROW_NAMES.get(row_ids)
    if names is None:
        names = _ROW_NAMES[row_ids] = pa.array(row_ids, pa.string())
    offsets, cols, points = _row_hits(row_points)
    return pa.MapArray.from_arrays(pa.array(offsets), names.take(pa.array(cols)), pa.array(points),
                                   type=_rows_type())


def _tile_names(tiles: np.ndarray):
    """The names of the tile indices ``tiles`` as a pyarrow string array."""
    import pyarrow as pa

    global _TILE_NAMES
    if _TILE_NAMES is None:
        _TILE_NAMES = pa.array(TILE_NAMES, pa.string())
    return _TILE_NAMES.take(pa.array(tiles))


def _waits_list(offsets, tiles, discard, self_draw):
    """A ``waits`` list array (:func:`_waits_type`) cut by ``offsets`` from the flat waits (:func:`_wait_hits`)."""
    import pyarrow as pa

    kind = _waits_type()
    waits = pa.StructArray.from_arrays(
        [_tile_names(tiles), pa.array(discard.astype(np.int32)), pa.array(self_draw.astype(np.int32))],
        fields=list(kind.value_type))
    return pa.ListArray.from_arrays(pa.array(offsets), waits, type=kind)


def _waits_array(result):
    """The ``waits`` column: a list per row of ``{tile, discard, self_draw}`` structs, in kind order."""
    return _waits_list(*_wait_hits(result))


def _discards_array(result):
    """The ``discards`` column (:func:`_discards_type`): a list per row of one struct per held kind."""
    import pyarrow as pa

    d = _Discards(result)
    kind = _discards_type()
    fields = list(kind.value_type)
    useful = pa.ListArray.from_arrays(pa.array(d.useful_offsets), _tile_names(d.useful_tiles),
                                      type=fields[2].type)
    waits = _waits_list(d.wait_offsets, d.wait_tiles, d.wait_discard, d.wait_self_draw)
    entries = pa.StructArray.from_arrays(
        [_tile_names(d.tiles), pa.array(d.shanten, pa.int8()), useful, pa.array(d.live_useful, pa.int16()), waits,
         pa.array(d.expected_discard, pa.float64()), pa.array(d.expected_self_draw, pa.float64())], fields=fields)
    return pa.ListArray.from_arrays(pa.array(d.offsets), entries, type=kind)


_INPUT_TYPES = {"self_drawn": "bool_", "closing": "bool_", "streak": "int32"}


def _arrow_schema(kind: str, with_input: bool, kept=None, rows: str = "dense", waits_json: bool = False,
                  row_ids=None):
    """The output schema.  Columns that always have a value (0 or False on a flagged row; an empty
    ``rows`` map or ``waits`` list) are declared not null: Parquet then stores no null flags for them,
    which also makes the file about a tenth quicker to write.  ``shape`` (no interpretation),
    ``error``, the shanten columns and the input columns may be null."""
    import pyarrow as pa

    fields = list(kept) if kept is not None else []  # the kept input columns (--keep), first
    if with_input:
        fields += [pa.field(k, getattr(pa, _INPUT_TYPES.get(k, "string"))()) for k in input_keys(kind)]
    types = {
        "is_win": pa.bool_(), "shape": pa.dictionary(pa.int8(), pa.string()), "points": pa.int32(),
        "chicken": pa.bool_(), "total": pa.int32(), "legal": pa.bool_(), "payout": pa.int32(),
        "error": pa.string(), "rows": _rows_type(), "n_waits": pa.int16(), "waits": _waits_type(),
        WAITS_JSON: pa.string(), "discards": _discards_type(),
        **{name: pa.int8() for name in SHANTEN_COLUMNS[:-1]},
    }
    nullable = {"shape", "error", *SHANTEN_COLUMNS}
    for name in result_columns(kind, rows, waits_json, row_ids):
        fields.append(pa.field(name, types.get(name, pa.int16()), nullable=name in nullable))
    return pa.schema(fields)


def _by_row_id(row_points: np.ndarray) -> np.ndarray:
    """``row_points`` (N, R) as (R, N): each row id's points contiguous, one column each
    (:func:`fastscore.kernels.layout.transpose_rows`)."""
    from ..kernels.layout import transpose_rows

    points = np.ascontiguousarray(row_points)
    out = np.empty(points.shape[::-1], dtype=points.dtype)
    transpose_rows(points, out)
    return out


def _result_table(result, kind: str, schema, inputs=None):
    """The chunk as a pyarrow Table of ``schema`` (:func:`_arrow_schema`: which columns it holds)."""
    import pyarrow as pa

    with_input = inputs is not None and "hand" in inputs  # else no inputs, or only the kept columns
    names = set(schema.names)
    if kind == "score":
        columns = {"is_win": result.is_win, "points": result.points, "chicken": result.chicken,
                   "total": result.total, "legal": result.legal, "payout": result.payout, "error": _errors(result)}
        shape = result.shape
        columns["shape"] = pa.DictionaryArray.from_arrays(
            pa.array(np.where(shape < 0, 0, shape).astype(np.int8), mask=shape < 0),
            pa.array(SHAPE_NAMES, pa.string()),
        )
        dense = row_columns(result.row_ids)
        if dense and dense[0] in names:
            points = _by_row_id(result.row_points)
            columns.update((name, points[r]) for r, name in enumerate(dense))
        if "rows" in names:
            columns["rows"] = _rows_array(result.row_points, result.row_ids)
    elif kind == "waits":
        columns = {"n_waits": np.asarray(result.n_waits, dtype=np.int16), "waits": _waits_array(result),
                   "error": _errors(result)}
        if WAITS_JSON in names:
            columns[WAITS_JSON] = _waits_json(result)
    else:
        columns = {name: pa.array(values, pa.int8(), mask=null) for name, (values, null) in
                   _shanten_arrays(result, kind).items()}
        columns["error"] = _errors(result)
        if kind == "discards":
            columns["discards"] = _discards_array(result)
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


def result_table(result, kind: str = "score", *, rows: str = "dense", waits_json: bool = False):
    """A result as a pyarrow Table with the Parquet output schema of ``fastscore batch`` / ``waits-batch`` /
    ``shanten-batch`` / ``discards-batch``.

    Parameters
    ----------
    result : BatchResult, WaitsResult, ShantenResult or DiscardResult
        Of :func:`~fastscore.score_batch` (``kind="score"``), :func:`~fastscore.waits_batch` (``"waits"``),
        :func:`~fastscore.shanten_batch` (``"shanten"``) or :func:`~fastscore.discard_analysis` (``"discards"``).
    rows : {"dense", "sparse", "none"}
        Score: the row points as int16 columns ``row_<id>``, one per row in force in the result's
        table (:attr:`fastscore.BatchResult.row_ids`), one ``rows`` column
        ``map<string, int16>`` of the rows that scored, or none (:func:`result_columns`).
    waits_json : bool
        Waits: also the ``waits_json`` text column.

    Returns
    -------
    pyarrow.Table
        N rows, columns :func:`result_columns` (types: ``docs/formats.md``, "Output columns").

    Raises
    ------
    ValueError
        ``rows`` not one of :data:`ROWS_LAYOUTS`.
    """
    row_ids = getattr(result, "row_ids", None)
    return _result_table(result, kind, _arrow_schema(kind, False, rows=rows_layout(rows, "parquet"),
                                                     waits_json=waits_json, row_ids=row_ids))


def _parquet_options(schema) -> dict:
    """``pyarrow.parquet.ParquetWriter`` options of a result file.

    Dictionary encoding everywhere (the row-point columns are almost all 0, a few bits a row
    run-length encoded), snappy, statistics only for the flat columns other than the row points
    (dozens of columns of statistics cost more than their encoding and no reader filters on them;
    nor on the ``rows``, ``waits`` and ``discards`` entries), and page checksums (CRC-32 of each
    page), which fastscore's readers verify (:func:`fastscore.io.formats.parquet_file`).  (A
    resumable run's parts are Arrow IPC files: :mod:`fastscore.io.parts`.)
    """
    skip = set(ROW_COLUMNS) | {"rows", "waits", "discards"}
    return {"compression": "snappy", "use_dictionary": True,
            "write_statistics": [f.name for f in schema if f.name not in skip], "write_page_checksum": True}
