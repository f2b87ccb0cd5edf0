"""pyarrow Tables and numpy structured arrays in and out of the Python API."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

import fastscore
from fastscore.rules import ROW_IDS

SEED = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S")


def test_from_arrow_scores_like_from_records():
    # RULES.md 5.1 seed example: 40 + 1 + 1 + 10 = 52 points, total 57; the second row has 3 tiles.
    records = [SEED, dict(hand="123m", win="1m")]
    table = pa.table({k: [r.get(k) for r in records] for k in ("hand", "win", "self_drawn", "seat")})
    from_arrow = fastscore.score_batch(fastscore.HandBatch.from_arrow(table))
    assert from_arrow.payout.tolist() == [57, 0]
    assert list(from_arrow.to_records()) == list(fastscore.score_batch(fastscore.HandBatch.from_records(records)).to_records())
    assert from_arrow.messages[1].startswith("row 1: '123m' holds 3 tiles")


def test_from_structured_records_and_arrays():
    records = np.array([(SEED["hand"], "9s", True, "S")],
                       dtype=[("hand", "U40"), ("win", "U3"), ("self_drawn", "?"), ("seat", "U1")])
    assert fastscore.score_batch(fastscore.HandBatch.from_structured(records)).total.tolist() == [57]
    sample = fastscore.sample_winning(50, seed=4)
    arrays = np.zeros(50, dtype=[("concealed", "u1", (34,)), ("declared", "i1", (5, 2)), ("win", "i1")])
    arrays["concealed"], arrays["declared"], arrays["win"] = sample.concealed, sample.declared, sample.win
    got = fastscore.score_batch(fastscore.HandBatch.from_structured(arrays))
    # Context columns left at their defaults (discard, seat and round East, no flowers).
    expected = fastscore.HandBatch.from_arrays(sample.concealed, sample.declared, sample.win)
    assert (got.payout == fastscore.score_batch(expected).payout).all()
    assert got.is_win.all()


def test_from_structured_bytes_fields():
    """Text as numpy bytes (``S``, as h5py and np.loadtxt give it) reads as UTF-8; a row whose bytes
    do not decode is flagged, naming the bad character, and the other rows are scored."""
    as_bytes = np.array([(SEED["hand"].encode(), b"9s", True, b"S"), (b"11m99m77p11s9s EE RR 33\xffp", b"9s", False, b"E")],
                        dtype=[("hand", "S40"), ("win", "S3"), ("self_drawn", "?"), ("seat", "S1")])
    batch = fastscore.HandBatch.from_structured(as_bytes)
    assert batch.error.tolist()[0] == 0 and batch.error[1] != 0
    assert batch.messages[1].startswith("row 1: '33\ufffdp': unknown letter '\ufffd'")
    assert fastscore.score_batch(batch).total.tolist() == [57, 0]  # as the str record of the test above


def test_to_arrow_has_the_parquet_schema():
    result = fastscore.score_batch(fastscore.HandBatch.from_records([SEED]))
    table = result.to_arrow()
    assert table.schema.field("payout").type == pa.int32()
    assert table.schema.field("legal").type == pa.bool_()
    assert pa.types.is_dictionary(table.schema.field("shape").type)
    assert [n for n in table.column_names if n.startswith("row_")] == [f"row_{r}" for r in ROW_IDS[:45]]
    assert all(table.schema.field(f"row_{r}").type == pa.int16() for r in ROW_IDS[:45])
    # Values every row has are declared not null; shape (no interpretation) and error may be null.
    assert not any(table.schema.field(r).nullable for r in tuple(f"row_{r}" for r in ROW_IDS[:45]) + ("payout", "legal", "is_win"))
    assert table.schema.field("shape").nullable and table.schema.field("error").nullable
    row = table.to_pylist()[0]
    assert (row["payout"], row["shape"], row["row_nico_nico"], row["row_all_five_suits"]) == (57, "nico_nico", 40, 10)
    waits = fastscore.waits_batch(fastscore.HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]")],
                                                                   require_win=False)).to_arrow()
    assert waits.column("n_waits").to_pylist() == [2]
