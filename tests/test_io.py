"""fastscore.io: chunked readers and atomic writers, checked against score_batch / waits_batch."""

from __future__ import annotations

import csv
import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fastscore import HandBatch, score_batch
from fastscore.tiles import ErrorCode
from fastscore.io import (
    DEFAULT_CHUNK_ROWS,
    INPUT_SCHEMA,
    ROW_COLUMNS,
    SCORE_COLUMNS,
    count_rows,
    file_format,
    hand_file,
    hand_records,
    iter_batches,
    open_writer,
    read_records,
    row_columns,
)
from fastscore.waits import waits_batch
from messages import as_read_from

# fmt: off
# Records in file order; row 3 is bad (unknown letter), the rest score.
RECORDS = [
    # nico nico: self_draw 1 + no_flowers 1 + all_five_suits 10 + nico_nico 40 = 52, + base 5 = 57
    {"hand": "11m99m77p11s9s EE RR 333p", "win": "9s", "self_drawn": "true", "seat": "S", "round": "E",
     "flowers": "", "streak": "0", "closing": "false"},
    # concealed_hand 5 + no_flowers 1 + mixed_dragon_concealed 10 = 16, + base 5 = 21 (legal in East)
    {"hand": "111222333m456p78s EE", "win": "9s", "self_drawn": "false", "seat": "S", "round": "E",
     "flowers": "", "streak": "0", "closing": "false"},
    # a dealer hand with flowers and a streak (seat E gets east_wins and streak_bonus)
    {"hand": "123m456p789s 234s G [555z]", "win": "G", "self_drawn": "true", "seat": "E", "round": "S",
     "flowers": "1f5f", "streak": "2", "closing": "false"},
    {"hand": "11m99m77p11s9s EE RR 333x", "win": "9s", "self_drawn": "false", "seat": "E", "round": "E",
     "flowers": "", "streak": "0", "closing": "false"},
    # not a win: 1m does not complete this hand (a result, not an error)
    {"hand": "123m456p789s 234s G [555z]", "win": "1m", "self_drawn": "false", "seat": "W", "round": "N",
     "flowers": "", "streak": "0", "closing": "false"},
]
# fmt: on
BAD_ROW = 3

#: The dense row columns of the default (lrc) table: its 45 rows.
LRC_COLUMNS = row_columns()
assert len(LRC_COLUMNS) == 45 and set(LRC_COLUMNS) <= set(ROW_COLUMNS)


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def write_csv(path, records, extra_column=False):
    # extra_column: a 'comment' column fastscore does not read (an error unless kept: test_read_records_keeps_...)
    keys = list(records[0]) + (["comment"] if extra_column else [])
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, keys)
        writer.writeheader()
        for r in records:
            writer.writerow({**r, **({"comment": "ignored"} if extra_column else {})})
    return path


def write_parquet(path, records, row_group_size=None):
    table = pa.Table.from_pylist(records, schema=pa.schema([(k, pa.string()) for k in records[0]]))
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


WRITE_INPUT = {"jsonl": write_jsonl, "csv": write_csv, "parquet": write_parquet}


def expected_result():
    return score_batch(HandBatch.from_records(RECORDS))


def concat(results):
    """Score chunks as one list of records (to_records, in order)."""
    return [rec for result in results for rec in result.to_records()]


def test_default_chunk_rows():
    assert DEFAULT_CHUNK_ROWS == 65_536


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("chunk_rows", [1, 2, 5, DEFAULT_CHUNK_ROWS])
def test_iter_batches_matches_score_batch(tmp_path, ext, chunk_rows):
    path = WRITE_INPUT[ext](tmp_path / f"hands.{ext}", RECORDS)
    batches = list(iter_batches(path, chunk_rows=chunk_rows))
    assert [len(b) for b in batches] == [min(chunk_rows, len(RECORDS) - s) for s in range(0, len(RECORDS), chunk_rows)]
    got = concat(score_batch(b) for b in batches)
    expected = list(expected_result().to_records())
    first_line = {"jsonl": 1, "csv": 2}.get(ext)
    assert got == (expected if first_line is None else as_read_from(expected, f"hands.{ext}", first_line))
    assert [r["total"] for r in got][:2] == [57, 21]
    assert got[0]["rows"] == {"self_draw": 1, "no_flowers": 1, "all_five_suits": 10, "nico_nico": 40, "mahjong_base": 5}
    assert [r["error"] is not None for r in got] == [i == BAD_ROW for i in range(len(RECORDS))]
    # the message names the file's row (Parquet) or line (JSON lines from line 1, CSV after its header line),
    # whatever chunk it fell in
    where = {"parquet": f"row {BAD_ROW}", "jsonl": f"hands.jsonl line {BAD_ROW + 1}",
             "csv": f"hands.csv line {BAD_ROW + 2}"}
    assert got[BAD_ROW]["error"].startswith(f"{where[ext]}: '333x'")
    assert got[4]["is_win"] is False and got[4]["error"] is None


def test_bad_json_line_is_a_flagged_row(tmp_path):
    path = tmp_path / "hands.jsonl"
    lines = [json.dumps(r) for r in RECORDS[:2]] + ["{not json", "", json.dumps(RECORDS[2])]
    path.write_text("\n".join(lines) + "\n")
    batches = list(iter_batches(path, chunk_rows=2))
    assert [len(b) for b in batches] == [2, 2]  # the blank line is skipped
    got = concat(score_batch(b) for b in batches)
    assert [r["total"] for r in got] == [57, 21, 0, got[3]["total"]]
    assert got[3]["is_win"] and got[3]["error"] is None
    assert got[2]["error"].startswith("hands.jsonl line 3: not valid JSON")
    assert got[3]["error"] is None  # line 5, after the blank line 4
    assert batches[1].error.tolist()[0] != 0


@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_messages_name_the_line_a_reader_sees_in_an_editor(tmp_path, chunk_rows):
    """A bad record is named by its line in the file (blank lines counted, a CSV header being line 1), in
    any chunk, also when a run starts after the first records (resume)."""
    seed, bad = "11m99m77p11s9s EE RR 333p", "11m99m77p11s9s EE RR 333x"
    jsonl = tmp_path / "hands.jsonl"
    good_line, bad_line = json.dumps({"hand": seed, "win": "9s"}), json.dumps({"hand": bad, "win": "9s"})
    jsonl.write_text("\n".join([good_line, "", "", good_line, bad_line]) + "\n")  # the bad record on line 5
    csv_path = tmp_path / "hands.csv"
    csv_path.write_text(f"hand,win\n\n{seed},9s\n{bad},9s\n\n{seed},9s\n")
    for path, line, start in ((jsonl, 5, 0), (jsonl, 5, 2), (csv_path, 4, 0), (csv_path, 4, 1)):
        messages = [m for b in iter_batches(path, chunk_rows=chunk_rows, start_row=start) for m in b.messages.values()]
        assert messages == [f"{path.name} line {line}: '333x': unknown letter 'x' "
                            f"(suits m p s z, honours E S W N Wh G R)"], (path.name, start)


def test_json_array_file(tmp_path):
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(RECORDS, indent=1))
    got = concat(score_batch(b) for b in iter_batches(path, chunk_rows=2))
    assert got == list(expected_result().to_records())


def test_typed_records_json_and_parquet(tmp_path):
    """JSON and Parquet values may be typed (bool, int) instead of strings."""
    typed = [{"hand": "11m99m77p11s9s EE RR 333p", "win": "9s", "self_drawn": True, "seat": "S", "streak": 0,
              "closing": False}]
    for path in (write_jsonl(tmp_path / "t.jsonl", typed), tmp_path / "t.parquet"):
        if path.suffix == ".parquet":
            pq.write_table(pa.Table.from_pylist(typed), path)
        (result,) = [score_batch(b) for b in iter_batches(path)]
        assert result.total.tolist() == [57]


def test_read_records_chunks_and_columns(tmp_path):
    path = write_csv(tmp_path / "hands.csv", RECORDS, extra_column=True)
    with pytest.raises(ValueError, match="hands.csv: unknown column 'comment'; fastscore reads the columns hand, "
                                         "win, self_drawn, seat, round, flowers, streak, closing, events; .* --keep"):
        list(read_records(path, chunk_rows=2))  # a column fastscore does not read is not dropped unread
    chunks = list(read_records(path, chunk_rows=2, keep=["comment"]))
    assert [len(c) for c in chunks] == [2, 2, 1]
    assert chunks[0][0]["comment"] == "ignored"  # kept: the records carry it
    assert chunks[0][0]["hand"] == RECORDS[0]["hand"]


def test_parquet_row_groups_are_rechunked(tmp_path):
    path = write_parquet(tmp_path / "hands.parquet", RECORDS * 3, row_group_size=2)
    assert [len(c) for c in read_records(path, chunk_rows=4)] == [4, 4, 4, 3]
    assert count_rows(path) == 15
    assert count_rows(write_jsonl(tmp_path / "h.jsonl", RECORDS)) is None


@pytest.mark.parametrize("text_type", [pa.string(), pa.binary()], ids=str)
@pytest.mark.parametrize("options", [{"row_group_size": 4}, {"use_dictionary": False}], ids=["dictionary", "plain"])
def test_parquet_short_string_columns_are_read_as_dictionaries(tmp_path, options, text_type):
    """The string columns but the hand come to the parser as Arrow dictionaries (hand_file) when the
    file stores them dictionary-encoded, as strings when it stores them plain; the batches are those
    of the records either way, nulls and empty strings included, across row groups and chunks.  Text
    stored as binary (UTF-8 bytes) reads the same, and read_records gives it as str."""
    records = RECORDS * 3 + [{**RECORDS[0], "win": None, "seat": "", "flowers": None, "streak": None}]
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(records, schema=pa.schema([(k, text_type) for k in RECORDS[0]])), path,
                   **options)
    with hand_file(path) as (pf, columns, encoded):
        first = next(pf.iter_batches(batch_size=3, columns=columns))
    assert not encoded and columns == list(RECORDS[0])
    assert first.schema.field("hand").type == text_type
    assert [r for chunk in read_records(path, 5) for r in chunk] == records
    stored_plain = options.get("use_dictionary") is False
    assert all(pa.types.is_dictionary(first.schema.field(c).type) != stored_plain for c in columns[1:])
    got = list(iter_batches(path, chunk_rows=5))
    want = HandBatch.from_records(records)
    for name in ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing",
                 "error"):
        assert np.array_equal(np.concatenate([getattr(b, name) for b in got]), getattr(want, name)), name
    assert [b.error.tolist() for b in got][3] == [ErrorCode.BAD_WIN]  # the last row: no winning tile
    assert want.messages[BAD_ROW].startswith(f"row {BAD_ROW}: '333x'")
    assert [m for b in got for m in b.messages.values()] == list(want.messages.values())


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_missing_hand_column_lists_the_schema(tmp_path, ext):
    records = [{k: v for k, v in r.items() if k != "hand"} for r in RECORDS]
    path = WRITE_INPUT[ext](tmp_path / f"hands.{ext}", records)
    with pytest.raises(ValueError, match="no 'hand' column") as info:
        list(read_records(path))
    assert INPUT_SCHEMA in str(info.value)
    for column in ("hand", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing"):
        assert column in str(info.value)


@pytest.mark.parametrize("columns, match", [
    ({"hand": pa.array([1]), "win": pa.array(["9s"])}, "column 'hand' has type int64"),
    ({"hand": pa.array(["11m99m77p11s9s EE RR 333p"]), "win": pa.array(["9s"]), "seat": pa.array([[1]])},
     "column 'seat' has type list"),
    ({"concealed": pa.array(["11m"]), "declared": pa.array([bytes(10)], pa.binary(10)),
      "win": pa.array([1], pa.int8())},
     "column 'concealed' has type string"),
], ids=["hand", "seat", "encoded"])
def test_parquet_column_of_a_wrong_type_names_the_file(tmp_path, columns, match):
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table(columns), path)
    with pytest.raises(ValueError, match=match) as info:
        list(iter_batches(path))
    assert str(info.value).startswith(f"{path}: column ")


def test_read_records_decodes_only_the_text_columns_stored_as_bytes(tmp_path):
    """binary is text the parser reads (decoded, an undecodable byte as U+FFFD); fixed_size_binary is not
    (iter_batches refuses it) and stays bytes."""
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"hand": pa.array([b"11m99m77p11s9s EE RR 333\xffp"], pa.binary()),
                             "win": pa.array([b"9s"], pa.binary(2))}), path)
    assert list(read_records(path)) == [[{"hand": "11m99m77p11s9s EE RR 333\ufffdp", "win": b"9s"}]]


def test_long_csv_fields_are_read_and_flagged_in_line(tmp_path):
    """Fields over the csv module's default size limit (131,072 characters) are read, so the parser
    flags their record and every later row stays in line with its record, also when the long field
    is quoted across lines (the csv module, refusing it, would lose where the record ends)."""
    seed, other = "11m99m77p11s9s EE RR 333p", "[234m] [567p] 88p 123s 456s WW"
    path = tmp_path / "hands.csv"
    path.write_text(f'hand,win\n{seed},9s\n"{"x" * 140_000}\n{seed},1s\nend",9s\n{"1m" * 70_000},9s\n{other},8p\n')
    batch = next(iter_batches(path))
    assert len(batch) == 4 and batch.error.tolist()[0] == 0 and batch.error.tolist()[3] == 0
    # the quoted field starts on line 3 (header line 1, the first record line 2) and spans three lines
    assert batch.error[1] != 0 and batch.messages[1].startswith("hands.csv line 3: 'xxxx")
    assert batch.messages[2].startswith("hands.csv line 6: ")
    assert batch.error[2] != 0 and "(140,000 characters) holds" in batch.messages[2]
    # Row 0: Nico Nico, 51 points + mahjong_base 5 = 56.  Row 3: the sheungs 234m 567p 123s 456s, eyes 88p,
    # pong WW, won on 8p: Chicken (1 point, no_flowers) -> total the round minimum, 20.
    assert score_batch(batch).total.tolist() == [56, 0, 0, 20]


def test_a_csv_line_the_csv_module_refuses_stops_the_file(tmp_path, monkeypatch):
    """Where the next record starts is unknown after such a line: the file stops, naming the line."""
    import csv

    monkeypatch.setattr("fastscore.io.text._CSV_FIELD_LIMIT", 1_000)
    limit = csv.field_size_limit(1_000)  # what a smaller limit left by someone else would do
    try:
        path = tmp_path / "hands.csv"
        path.write_text(f"hand,win\n11m99m77p11s9s EE RR 333p,9s\n{'1m' * 1_000},9s\n")
        with pytest.raises(ValueError, match=r"hands\.csv line 3: field larger than field limit \(1000\)"):
            list(iter_batches(path))
    finally:
        csv.field_size_limit(limit)


def test_damaged_parquet_data_is_an_error_naming_the_file(tmp_path):
    path = write_parquet(tmp_path / "hands.parquet", [dict(r, hand=f"{r['hand']} {'x' * k}") for k in range(5000)
                                                      for r in RECORDS[:1]])
    data = bytearray(path.read_bytes())
    footer = pq.read_metadata(path).serialized_size + 8
    assert len(data) > 20 * footer
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(bytes(data[:len(data) // 3]) + bytes(500) + bytes(data[len(data) // 3 + 500:]))
    with pytest.raises(ValueError, match=r"damaged\.parquet: cannot read the Parquet data"):
        list(iter_batches(damaged))
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(bytes(data[:-footer // 2]) + bytes(data[-8:]))  # half the footer gone, the magic kept
    with pytest.raises(ValueError, match=r"cut\.parquet: not a readable Parquet file"):
        list(iter_batches(cut))


def test_a_column_named_twice_is_an_error(tmp_path):
    """Two ``win`` columns: the reader does not pick one (either choice scores other hands)."""
    csv_path = tmp_path / "hands.csv"
    csv_path.write_text("hand,win,comment,win\n11m99m77p11s9s EE RR 333p,9s,x,1m\n")
    with pytest.raises(ValueError, match="the column 'win' appears more than once"):
        list(read_records(csv_path))
    table = pa.Table.from_arrays([pa.array(["11m99m77p11s9s EE RR 333p"]), pa.array(["9s"]), pa.array(["1m"])],
                                 names=["hand", "win", "win"])
    parquet_path = tmp_path / "hands.parquet"
    pq.write_table(table, parquet_path)
    with pytest.raises(ValueError, match="the column 'win' appears more than once"):
        list(iter_batches(parquet_path))
    # An unknown column named twice is refused like any unknown column, in CSV and in Parquet ('message'
    # is a column of encoded files, not of notation ones); kept, its two copies are an error too.
    csv_path.write_text("hand,win,comment,comment\n11m99m77p11s9s EE RR 333p,9s,x,y\n")
    with pytest.raises(ValueError, match="unknown column 'comment'"):
        list(read_records(csv_path))
    with pytest.raises(ValueError, match="the column 'comment' appears more than once"):
        list(read_records(csv_path, keep=["comment"]))
    table = pa.Table.from_arrays([pa.array(["11m99m77p11s9s EE RR 333p"]), pa.array(["9s"]), pa.array(["a"]),
                                  pa.array(["b"])], names=["hand", "win", "message", "message"])
    pq.write_table(table, parquet_path)
    with pytest.raises(ValueError, match="unknown column 'message'"):
        next(iter_batches(parquet_path))


def test_unknown_extension_and_bad_chunk_rows(tmp_path):
    with pytest.raises(ValueError, match="unknown file type '.txt'"):
        file_format(tmp_path / "hands.txt")
    with pytest.raises(ValueError, match="unknown file type"):
        open_writer(tmp_path / "out.xlsx")
    with pytest.raises(ValueError, match="chunk_rows must be a positive integer"):
        list(read_records(write_jsonl(tmp_path / "h.jsonl", RECORDS), chunk_rows=0))
    with pytest.raises(ValueError, match="kind must be"):
        open_writer(tmp_path / "out.jsonl", kind="scores")


# --------------------------------------------------------------------------- writers


def write_scores(path, chunk_rows=2, **kwargs):
    source = write_parquet(path.parent / "in.parquet", RECORDS)  # bad rows named "row i:", as from the records
    with open_writer(path, **kwargs) as out:
        for batch in iter_batches(source, chunk_rows=chunk_rows):
            out.write(score_batch(batch), out.rows_written, **({"batch": batch} if kwargs.get("with_input") else {}))
    return path


def test_jsonl_writer_round_trip(tmp_path):
    path = write_scores(tmp_path / "out.jsonl")
    lines = path.read_text().splitlines()
    got = [json.loads(line) for line in lines]
    assert got == list(expected_result().to_records())  # the same records, rows as an object (sparse)
    assert list(got[0]) == list(SCORE_COLUMNS) + ["rows"]  # the columns of every format, in order
    assert got[0]["rows"]["nico_nico"] == 40


def test_csv_writer_round_trip(tmp_path):
    path = write_scores(tmp_path / "out.csv")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == list(SCORE_COLUMNS) + list(LRC_COLUMNS)
    expected = expected_result()
    assert len(rows) == 1 + len(RECORDS)
    for i, row in enumerate(rows[1:]):
        record = dict(zip(rows[0], row))
        assert record["is_win"] == ("true" if expected.is_win[i] else "false")
        assert record["legal"] == ("true" if expected.legal[i] else "false")
        assert record["shape"] == (expected.shape_name(i) or "")
        assert int(record["total"]) == expected.total[i] and int(record["payout"]) == expected.payout[i]
        assert int(record["points"]) == expected.points[i]
        assert [int(record[f"row_{rid}"]) for rid in expected.row_ids] == expected.row_points[i].tolist()
        assert record["error"] == (expected.messages[i] if expected.error[i] else "")
    assert rows[1][:8] == ["true", "nico_nico", "52", "false", "57", "true", "57", ""]


def test_parquet_writer_schema_and_values(tmp_path):
    path = write_scores(tmp_path / "out.parquet")
    table = pq.read_table(path)
    schema = table.schema
    assert schema.names == list(SCORE_COLUMNS) + list(LRC_COLUMNS)
    for name in ("payout", "total", "points"):
        assert schema.field(name).type == pa.int32()
    for name in ("legal", "is_win", "chicken"):
        assert schema.field(name).type == pa.bool_()
    assert schema.field("shape").type == pa.dictionary(pa.int8(), pa.string())
    assert schema.field("error").type == pa.string()
    assert all(schema.field(name).type == pa.int16() for name in LRC_COLUMNS)

    expected = expected_result()
    assert table.column("total").to_pylist() == expected.total.tolist()
    assert table.column("payout").to_pylist() == expected.payout.tolist()
    assert table.column("is_win").to_pylist() == expected.is_win.tolist()
    assert table.column("shape").to_pylist() == [expected.shape_name(i) for i in range(len(expected))]
    assert table.column("error").to_pylist() == [expected.messages.get(i) for i in range(len(expected))]
    assert table.column("error").null_count == len(RECORDS) - 1
    rows = np.column_stack([table.column(name).to_numpy() for name in LRC_COLUMNS])
    np.testing.assert_array_equal(rows, expected.row_points)
    assert table.column("row_nico_nico").to_pylist()[0] == 40


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_output_with_input_reads_back_as_input(tmp_path, ext):
    path = write_scores(tmp_path / f"out.{ext}", with_input=True)
    again = concat(score_batch(b) for b in iter_batches(path, chunk_rows=3))
    expected = list(expected_result().to_records())
    for i, (a, b) in enumerate(zip(again, expected)):
        if i == BAD_ROW:  # a bad row keeps no hand: it stays flagged, unscored, named by its row or line
            where = {"parquet": f"row {i}", "jsonl": f"out.jsonl line {i + 1}", "csv": f"out.csv line {i + 2}"}
            assert a["error"].startswith(f"{where[ext]}: ")
            assert (a["is_win"], a["payout"], a["rows"]) == (False, 0, {})
        else:
            assert a == b
    if ext == "parquet":
        schema = pq.read_schema(path)
        assert schema.field("closing").type == pa.bool_()  # the input column
        assert schema.field("row_closing").type == pa.int16()  # the row points
        assert schema.field("streak").type == pa.int32()


def test_hand_records_round_trip_sample():
    from fastscore import sample
    batch = sample.sample_winning(3000, 11)
    again = HandBatch.from_records(hand_records(batch))
    for name in ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "events",
                 "error"):
        np.testing.assert_array_equal(getattr(again, name), getattr(batch, name), err_msg=name)


def test_hand_records_format():
    batch = HandBatch.from_records(RECORDS)
    records = hand_records(batch)
    assert records[2] == {"hand": "123m456p234789s6z [555z]", "win": "6z", "self_drawn": True, "seat": "E",
                          "round": "S", "flowers": "1f5f", "streak": 2, "closing": False, "events": None}
    assert records[BAD_ROW] == dict.fromkeys(records[0])


def test_failed_write_leaves_no_partial_file(tmp_path):
    path = tmp_path / "out.parquet"
    path.write_bytes(b"previous contents")
    result = expected_result()
    with pytest.raises(RuntimeError, match="boom"):
        with open_writer(path) as out:
            out.write(result, 0)
            assert out.partial_path.exists() and out.partial_path.name == ".out.parquet.partial"
            raise RuntimeError("boom")
    assert path.read_bytes() == b"previous contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.parquet"]


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_failed_write_removes_partial_for_every_format(tmp_path, ext):
    path = tmp_path / f"out.{ext}"
    with pytest.raises(ValueError, match="input order"):
        with open_writer(path) as out:
            out.write(expected_result(), 0)
            out.write(expected_result(), 0)  # out of order
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("job", [None, {"input": "x"}])
def test_error_of_the_writing_thread_is_raised_and_cleans_up(tmp_path, monkeypatch, job):
    """Chunks are written on a background thread; its error comes back from write or close."""
    from fastscore import io

    def broken(self, table):
        raise OSError("disk full")

    path = tmp_path / "out.parquet"
    monkeypatch.setattr(io.writer._ParquetSink, "write", broken)
    with pytest.raises(OSError, match="disk full"):
        with open_writer(path, job=job) as out:
            for start in range(3):
                out.write(expected_result(), out.rows_written)
    assert not path.exists() and not (tmp_path / ".out.parquet.partial").exists()
    assert not any(p.name.endswith(".partial") for p in tmp_path.rglob("*"))


def test_parquet_output_options(tmp_path):
    """Statistics for the result columns, none for the 45 row-point columns; the row points
    dictionary-encoded (a few bits a row); the schema as documented."""
    path = tmp_path / "out.parquet"
    with open_writer(path) as out:
        out.write(expected_result(), 0)
    meta = pq.read_metadata(path)
    names = meta.schema.to_arrow_schema().names
    stats = {names[c]: meta.row_group(0).column(c).statistics for c in range(meta.num_columns)}
    assert stats["payout"] is not None and stats["payout"].has_min_max
    assert all(stats[name] is None or not stats[name].has_min_max for name in LRC_COLUMNS)
    column = meta.row_group(0).column(names.index("row_nico_nico"))
    assert "RLE_DICTIONARY" in column.encodings or "PLAIN_DICTIONARY" in column.encodings


def test_empty_output_is_a_valid_file(tmp_path):
    with open_writer(tmp_path / "out.parquet"):
        pass
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.num_rows == 0 and table.schema.field("payout").type == pa.int32()


# --------------------------------------------------------------------------- waits


WAITS_RECORDS = [
    {"hand": "11m99m77p11s9s EE RR 333p", "seat": "S"},  # nico nico waiting on 9s
    {"hand": "2333444555666789p", "seat": "S", "round": "N"},  # pure, six waits
    {"hand": "1m 2m"},  # bad: 2 tiles
    {"hand": "135m456p789s234s G [555z]"},  # not ready: no tile completes it
]


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_waits_writer(tmp_path, ext):
    source = write_jsonl(tmp_path / "in.jsonl", WAITS_RECORDS)
    expected = list(waits_batch(HandBatch.from_records(WAITS_RECORDS, require_win=False)).to_records())
    path = tmp_path / f"out.{ext}"
    with open_writer(path, kind="waits") as out:
        for batch in iter_batches(source, require_win=False, chunk_rows=3):
            out.write(waits_batch(batch), out.rows_written)
    # nico_nico 40 + no_flowers 1 + all_five_suits 10 = 51, + base 5 = 56; self-draw +1 = 57
    assert expected[0]["waits"] == {"9s": {"discard": 56, "self_draw": 57}}
    assert expected[1]["n_waits"] == 6 and expected[2]["error"].startswith("row 2:")
    assert expected[3] == {"waits": {}, "n_waits": 0, "error": None}
    expected = as_read_from(expected, "in.jsonl", 1)  # read from the file: record 2 is "in.jsonl line 3: ..."
    if ext == "jsonl":
        got = [json.loads(line) for line in path.read_text().splitlines()]
    elif ext == "csv":
        with open(path, newline="") as f:
            got = [{"n_waits": int(r["n_waits"]), "waits": json.loads(r["waits"]), "error": r["error"] or None}
                   for r in csv.DictReader(f)]
    else:
        table = pq.read_table(path)
        # n_waits and waits always have a value (0 and [] on a flagged row), so they are stored not null.
        wait = pa.struct([pa.field("tile", pa.string(), nullable=False), pa.field("discard", pa.int32(), nullable=False),
                          pa.field("self_draw", pa.int32(), nullable=False)])
        assert table.schema == pa.schema([pa.field("n_waits", pa.int16(), nullable=False),
                                          pa.field("waits", pa.list_(pa.field("element", wait, nullable=False)),
                                                   nullable=False),
                                          ("error", pa.string())])
        got = table.to_pylist()
    assert [list(r) for r in got] == [["n_waits", "waits", "error"]] * len(got)  # in every format
    # the waits of to_records ({tile: payouts}) as the output's list of {tile, discard, self_draw}
    assert [{"n_waits": r["n_waits"], "waits": [{"tile": t, **p} for t, p in r["waits"].items()], "error": r["error"]}
            for r in expected] == got


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_bad_utf8_byte_flags_its_row_only(tmp_path, suffix):
    """Bytes that are not UTF-8 read as U+FFFD: that row is flagged, every other row is read."""
    path = tmp_path / f"hands{suffix}"
    good = "11m99m77p11s9s EE RR 333p"
    if suffix == ".jsonl":
        lines = [json.dumps({"hand": good, "win": "9s"}).encode(), b"\xff\xfe not json",
                 b'{"hand": "11m99m77p11s9s EE RR 333\xffp", "win": "9s"}', json.dumps({"hand": good, "win": "9s"}).encode()]
    else:
        lines = [b"hand,win", f"{good},9s".encode(), f"{good[:-1]}\xff,9s".encode("latin-1"), f"{good},9s".encode()]
    path.write_bytes(b"\n".join(lines) + b"\n")
    batch = next(iter_batches(path))
    expected_bad = [1, 2] if suffix == ".jsonl" else [1]
    assert np.flatnonzero(batch.error).tolist() == expected_bad
    assert "\ufffd" in batch.messages[expected_bad[-1]]
    assert len(batch) == (4 if suffix == ".jsonl" else 3)


def test_row_counts_count_the_hands_each_row_scores_in():
    result = expected_result()
    counts = dict(zip(result.row_ids, result.row_counts().tolist()))
    # Rows 0-2 are wins (each takes mahjong_base); row 3 is flagged and row 4 is not a win: they score no row.
    assert counts["mahjong_base"] == 3
    assert counts["no_flowers"] == 2  # rows 0 and 1 (row 2 holds flowers 1 and 5)
    assert counts["nico_nico"] == 1  # row 0
    assert counts["mixed_dragon_concealed"] == 2  # rows 1 and 2 (123m 456p 789s concealed in both)
    slow = {rid: sum(rid in result.score_at(i).rows for i in range(len(result))) for rid in result.row_ids}
    assert counts == slow


def test_read_ahead_keeps_order_and_raises_where_the_source_stopped():
    from fastscore.io import read_ahead

    assert list(read_ahead(iter(range(7)))) == list(range(7))
    assert list(read_ahead([])) == []

    def failing():
        yield 1
        yield 2
        raise ValueError("row 2: unreadable")

    got = []
    with pytest.raises(ValueError, match="row 2: unreadable"):
        for item in read_ahead(failing()):
            got.append(item)
    assert got == [1, 2]


def test_read_ahead_reads_one_chunk_ahead_and_stops_when_closed():
    from fastscore.io import read_ahead

    pulled = []

    def source():
        for i in range(100):
            pulled.append(i)
            yield i

    reader = read_ahead(source())
    assert next(reader) == 0
    reader.close()  # waits for the chunk being read, reads no more
    assert pulled in ([0], [0, 1])


def test_writer_keeps_the_input_columns_of_a_batch_changed_after_write(tmp_path):
    """The chunk is encoded on the writer's thread; the input columns are taken when ``write`` is called."""
    tables = []
    for change in (False, True):
        batch = HandBatch.from_records(RECORDS).take(np.arange(len(RECORDS)))  # a writable copy
        path = tmp_path / f"out{int(change)}.parquet"
        with open_writer(path, "score", with_input=True) as writer:
            writer.write(score_batch(batch), 0, batch=batch)
            if change:  # the caller reuses its batch for the next chunk at once
                batch.win[:] = 0
                batch.concealed[:] = 0
        tables.append(pq.read_table(path))
    assert tables[1].column("win").to_pylist() == ["9s", "9s", "6z", None, "1m"]  # row 3 is flagged
    assert tables[1].equals(tables[0])


def test_an_interrupted_wait_leaves_the_chunk_for_abort(tmp_path, monkeypatch):
    """Ctrl-C while ``write`` or ``close`` waits for the writer's thread: ``abort`` waits for the chunk
    before it closes the output, instead of closing it under the thread."""
    import threading
    from concurrent.futures import Future

    from fastscore import io

    release = threading.Event()
    real_write = io.writer._ParquetSink.write

    def slow_write(self, table):
        assert release.wait(30)
        real_write(self, table)

    monkeypatch.setattr(io.writer._ParquetSink, "write", slow_write)
    path = tmp_path / "out.parquet"
    writer = open_writer(path, "score", job={"test": 1})
    writer.write(expected_result(), 0)
    future = writer._in_flight
    real_result = Future.result

    def interrupted(self, timeout=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(Future, "result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        writer._wait()
    assert writer._in_flight is future and not future.done()
    monkeypatch.setattr(Future, "result", real_result)
    threading.Timer(0.3, release.set).start()
    writer.abort()  # waits for the chunk, then discards the partial output
    assert future.done() and future.exception() is None
    assert not path.exists() and not writer.partial_path.exists()
    (part,) = [p.name for p in writer.parts_path.glob("part-*")]
    assert re.fullmatch(f"part-{0:012d}-{len(RECORDS):012d}-[0-9a-f]{{16}}\\.arrow", part), part
