"""Encoded hand files (fastscore.io.write_encoded, ``fastscore encode``): the HandBatch columns in Parquet.

Scoring an encoded file gives the bytes that scoring the notation file it was
encoded from gives; bad rows keep their code and message, in order; rows that
are bad in the arrays themselves are flagged by the compiled row check, with
the row checks' messages numbered over the file.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
import reference
from click.testing import CliRunner

import fastscore
from fastscore import HandBatch, io, score_batch
from fastscore.cli import app
from fastscore.tiles import ErrorCode
from fastscore.waits import waits_batch

runner = CliRunner()

COLUMNS = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "error")


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def notation_records(n: int, seed: int) -> list[dict]:
    """``n`` winning hands as records, some bad in each way the parser and the row checks flag."""
    found = io.hand_records(fastscore.sample_winning(n, seed))
    for r in found:
        r["seat"], r["round"] = r["seat"] or "E", r["round"] or "E"
    found[3]["hand"] = "11m99m77p11s9s EE RR 333x"  # unknown letter
    found[10]["win"] = None  # no winning tile
    found[11]["hand"], found[11]["win"] = "11111m99m77p11s9s EE RR", "9s"  # a fifth copy
    found[12]["hand"], found[12]["win"] = "123m456p789s 234s G [555z]", "1m"  # not a win: a result, not an error
    found[13]["hand"], found[13]["win"] = "123m456p789s 234s G [555z]", "G"
    found[13]["closing"] = True  # Closing with an exposed set
    found[n - 1]["streak"] = 5000  # out of range
    return found


@pytest.fixture(scope="module")
def notation(tmp_path_factory):
    folder = tmp_path_factory.mktemp("encoded")
    path = folder / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(notation_records(5_000, 3)), path, row_group_size=1_500)
    return path


def test_schema_is_the_hand_batch_columns():
    schema = io.encoded_schema()
    assert tuple(schema.names) == io.ENCODED_COLUMNS
    assert schema.field("concealed").type == pa.binary(34) and schema.field("declared").type == pa.binary(10)
    assert [str(schema.field(k).type) for k in COLUMNS[2:]] == [
        "int8", "bool", "uint8", "uint8", "uint8", "int32", "bool", "uint8"]
    empty = HandBatch.empty(0)
    for name in COLUMNS:  # the same dtypes as HandBatch
        assert pa.from_numpy_dtype(getattr(empty, name).dtype) in (schema.field(name).type, pa.uint8(), pa.int8())


@pytest.mark.parametrize("chunk_rows", [700, 65_536])
def test_round_trip_keeps_every_column_and_message(notation, tmp_path, chunk_rows):
    encoded = tmp_path / "hands.enc.parquet"
    assert io.write_encoded(io.iter_batches(notation, chunk_rows=chunk_rows), encoded) == 5_000
    assert io.is_encoded(encoded) and not io.is_encoded(notation)
    meta = pq.read_metadata(encoded)
    assert [meta.row_group(g).num_rows for g in range(meta.num_row_groups)] == [5_000]  # ROW_GROUP_ROWS groups
    want = HandBatch.from_records(pq.read_table(notation).to_pylist())
    got = list(io.iter_batches(encoded, chunk_rows=1_234))
    for name in COLUMNS:
        assert np.array_equal(np.concatenate([getattr(b, name) for b in got]), getattr(want, name)), name
    messages = {}
    for k, b in enumerate(got):
        messages.update({1_234 * k + i: m for i, m in b.messages.items()})
    assert messages == want.messages  # "row N: ..." numbered over the file
    assert sorted(messages) == [3, 10, 11, 13, 4_999]
    assert messages[3].startswith("row 3: '333x'")
    assert messages[4_999] == "row 4999: streak 5000 is out of range (0 to 1000)"


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_scoring_the_encoded_file_writes_the_same_bytes(notation, tmp_path, fmt):
    encoded = tmp_path / "hands.enc.parquet"
    done = invoke("encode", notation, "-o", encoded, "--chunk-rows", 999)
    assert done.exit_code == 0, done.output
    assert "rows: 5,000  bad rows: 5" in done.output
    outputs = []
    for source, chunk in ((notation, 65_536), (encoded, 65_536), (encoded, 777)):
        out = tmp_path / f"{source.stem}-{chunk}.{fmt}"
        result = invoke("batch", source, "-o", out, "--chunk-rows", chunk)
        assert result.exit_code == 0, result.output
        assert "bad rows: 5" in result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    if fmt == "jsonl":
        errors = [json.loads(line)["error"] for line in outputs[1].decode().splitlines()]
        assert [i for i, e in enumerate(errors) if e] == [3, 10, 11, 13, 4_999]


@pytest.mark.parametrize("text", ["jsonl", "csv"])
def test_scoring_a_text_file_encoded_writes_the_same_bytes(tmp_path, text):
    """A bad row of a JSON lines or CSV file is named by its line ("hands.jsonl line 4: ..."); the encoded file
    keeps that message as it is, so scoring it writes what scoring the text file writes (not "row 3: hands.jsonl
    line 4: ...")."""
    table = pa.Table.from_pylist(notation_records(40, 5))
    source = tmp_path / f"hands.{text}"
    if text == "jsonl":
        source.write_text("".join(json.dumps(r) + "\n" for r in table.to_pylist()))
    else:
        pa_csv.write_csv(table.drop_columns(["events"]), source)
    encoded = tmp_path / "hands.enc.parquet"
    assert invoke("encode", source, "-o", encoded).exit_code == 0
    outputs = []
    for path in (source, encoded):
        out = tmp_path / f"{path.stem}-out.jsonl"
        result = invoke("batch", path, "-o", out, "--no-progress")
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    errors = {i: e for i, line in enumerate(outputs[1].decode().splitlines()) if (e := json.loads(line)["error"])}
    first = 2 if text == "csv" else 1  # the line of row 0 (a CSV file's first line is its header)
    assert sorted(errors) == [3, 10, 11, 13, 39]
    assert errors[3].startswith(f"hands.{text} line {3 + first}: '333x'")
    assert errors[39] == f"hands.{text} line {39 + first}: streak 5000 is out of range (0 to 1000)"


def test_encode_keeps_id_columns(tmp_path):
    """``encode --keep``: the IDs of a CSV or JSON lines file after the encoded hands; scoring the encoded file
    with ``--keep`` writes what scoring the text file with ``--keep`` writes (IDs of flagged rows too)."""
    records = notation_records(60, 9)
    for i, record in enumerate(records):
        record["game_id"], record["seat_id"] = f"g{i}", i % 4
    source = tmp_path / "ids.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    encoded = tmp_path / "ids.enc.parquet"
    refused = invoke("encode", source, "-o", encoded)  # unknown columns are refused, pointing to --keep
    assert refused.exit_code == 2 and "unknown key 'game_id'" in refused.stderr and "--keep" in refused.stderr
    assert invoke("encode", source, "-o", encoded, "--keep", "game_id,seat_id").exit_code == 0
    assert pq.read_schema(encoded).names[-2:] == ["game_id", "seat_id"]
    outputs = []
    for path in (source, encoded):
        out = tmp_path / f"{path.stem}.out.jsonl"
        assert invoke("batch", path, "-o", out, "--keep", "game_id,seat_id").exit_code == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    rows = [json.loads(line) for line in outputs[1].decode().splitlines()]
    assert [r["game_id"] for r in rows] == [f"g{i}" for i in range(60)] and rows[3]["seat_id"] == 3
    assert rows[3]["error"]  # a flagged row keeps its IDs
    sample = invoke("encode", "--sample", 5, "-o", tmp_path / "s.parquet", "--keep", "game_id")
    assert sample.exit_code == 2 and "--sample has none" in sample.stderr


def test_waits_of_the_encoded_file(tmp_path):
    records = io.hand_records(fastscore.sample_ready(3_000, 5))
    records[7]["hand"] = "123m 456x"
    source = tmp_path / "ready.parquet"
    pq.write_table(pa.Table.from_pylist(records), source)
    encoded = tmp_path / "ready.enc.parquet"
    assert invoke("encode", source, "-o", encoded, "--waits").exit_code == 0
    assert (pq.read_table(encoded).column("win").to_numpy() == -1).all()
    outs = []
    for path in (source, encoded):
        out = tmp_path / f"{path.stem}.waits.parquet"
        assert invoke("waits-batch", path, "-o", out).exit_code == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    # scoring hands encoded for waits (no winning tile in any row) stops before any row, saying so, as a notation
    # file without a win column does; from Python too
    scored = invoke("batch", encoded, "-o", tmp_path / "scored.parquet")
    assert scored.exit_code == 2 and "hands encoded for waits analysis" in scored.stderr and "waits-batch" in scored.stderr
    assert not (tmp_path / "scored.parquet").exists()
    with pytest.raises(ValueError, match="no row has a winning tile"):
        next(io.iter_batches(encoded, require_win=True))
    plain = tmp_path / "plain.enc.parquet"  # encoded without --waits: scored, each row without a winning tile flagged
    assert invoke("encode", source, "-o", plain).exit_code == 0
    assert invoke("batch", plain, "-o", tmp_path / "plain.parquet").exit_code == 0


def test_bad_arrays_are_flagged_in_order_with_file_row_numbers(tmp_path):
    batch = fastscore.sample_winning(10, 1)
    concealed = batch.concealed.copy()
    declared = batch.declared.copy()
    win = batch.win.copy()
    seat = batch.seat.copy()
    error = np.zeros(10, np.uint8)
    message = [None] * 10
    concealed[1, 0] = 5  # a fifth copy (and 17 tiles... the count comes first)
    concealed[2] = 0  # no tiles
    seat[4] = 7
    win[5] = 40
    declared[6, 0] = (1, 8)  # a sheung starting on 9m
    error[7], message[7] = ErrorCode.BAD_TOKEN, "'12x': unknown letter"
    error[8] = 200  # not an ErrorCode
    table = pa.table({
        "concealed": pa.FixedSizeBinaryArray.from_buffers(pa.binary(34), 10, [None, pa.py_buffer(concealed)]),
        "declared": pa.FixedSizeBinaryArray.from_buffers(pa.binary(10), 10, [None, pa.py_buffer(declared)]),
        "win": win, "seat": seat, "error": error, "message": pa.array(message, pa.string()),
    })
    table = table.set_column(0, "concealed", pa.concat_arrays([table.column(0).chunk(0).slice(0, 9),
                                                               pa.nulls(1, pa.binary(34))]))
    path = tmp_path / "bad.parquet"
    pq.write_table(table, path)
    batches = list(io.iter_batches(path, chunk_rows=4))
    messages = {}
    for k, b in enumerate(batches):
        messages.update({4 * k + i: m for i, m in b.messages.items()})
    assert sorted(messages) == [1, 2, 4, 5, 6, 7, 8, 9]
    assert messages[2].startswith("row 2: the hand holds ") and messages[2].endswith("a hand holds 16 before the win")
    assert messages[4] == "row 4: seat 7 is out of range (0 to 3)"
    assert messages[5] == "row 5: win 40 is out of range (-1 to 33)"
    assert messages[6].startswith("row 6: declared sheung 0 starts on 9m")
    assert messages[7] == "row 7: '12x': unknown letter"
    assert messages[8] == "row 8: unknown error code 200"
    assert messages[9] == "row 9: null concealed or declared"
    codes = np.concatenate([b.error for b in batches])
    assert codes.tolist() == [0, 3, 3, 0, 6, 5, 2, 1, 7, 7]  # counts are checked before copies (the row checks' order)
    result = score_batch(batches[0])
    assert result.error.tolist() == [0, 3, 3, 0] and result.messages == batches[0].messages


def test_fixed_size_lists_and_other_integer_types_are_read(tmp_path):
    batch = fastscore.sample_winning(300, 2)
    table = pa.table({
        "concealed": pa.FixedSizeListArray.from_arrays(pa.array(batch.concealed.reshape(-1)), 34),
        "declared": pa.FixedSizeListArray.from_arrays(pa.array(batch.declared.reshape(-1)), 10),
        "win": batch.win.astype(np.int64), "self_drawn": batch.self_drawn, "seat": batch.seat.astype(np.int32),
        "round": batch.round, "flowers": batch.flowers, "streak": batch.streak.astype(np.int64),
        "closing": batch.closing,
    })
    got = io.batch_from_encoded(table.slice(17))
    for name in COLUMNS:
        assert np.array_equal(getattr(got, name), getattr(batch, name)[17:]), name
    assert got.declared.shape == (283, 5, 2) and not got.error.any()


def test_missing_columns_take_defaults_and_nulls(tmp_path):
    batch = fastscore.sample_winning(20, 4)
    concealed = pa.FixedSizeBinaryArray.from_buffers(pa.binary(34), 20, [None, pa.py_buffer(batch.concealed.copy())])
    got = io.batch_from_encoded(pa.table({"concealed": concealed}), require_win=False)
    assert (got.win == -1).all() and (got.seat == 0).all()
    # Without the declared column a hand with declared sets holds 16 - 3k tiles: flagged.
    assert (got.error != 0).sum() == (batch.declared[:, :, 0] != 0).any(axis=1).sum()
    seat = pa.array([None] + [1] * 19, pa.uint8())
    win = pa.array(batch.win.tolist()[:-1] + [None], pa.int8())
    declared = pa.FixedSizeBinaryArray.from_buffers(pa.binary(10), 20, [None, pa.py_buffer(batch.declared.copy())])
    got = io.batch_from_encoded(pa.table({"concealed": concealed, "declared": declared, "win": win, "seat": seat}))
    assert got.seat.tolist() == [0] + [1] * 19
    assert got.error.tolist() == [0] * 19 + [ErrorCode.BAD_WIN] and got.messages == {19: "row 19: no winning tile"}


@pytest.mark.parametrize("table, match", [
    (pa.table({"concealed": ["11m"]}), r"column 'concealed' has type string; expected fixed_size_binary\(34\)"),
    (pa.table({"concealed": pa.array([b"\0" * 33], pa.binary(33))}), "fixed_size_binary"),
    (pa.table({"concealed": pa.array([b"\0" * 34], pa.binary(34)), "seat": ["E"]}), "column 'seat' has type string"),
    (pa.table({"concealed": pa.array([b"\0" * 34], pa.binary(34)), "seat": pa.array([300], pa.int32())}),
     "column 'seat'"),
    (pa.table({"hand": ["11m"]}), "no 'concealed' column"),
])
def test_bad_schema_raises(table, match):
    with pytest.raises(ValueError, match=match):
        io.batch_from_encoded(table)


def test_start_row_skips_rows(notation, tmp_path):
    encoded = tmp_path / "hands.enc.parquet"
    io.write_encoded(io.iter_batches(notation), encoded)
    whole = next(io.iter_batches(encoded, chunk_rows=10_000))
    rest = list(io.iter_batches(encoded, chunk_rows=2_000, start_row=4_000))
    assert sum(map(len, rest)) == 1_000
    assert np.array_equal(rest[0].concealed, whole.concealed[4_000:])
    assert rest[0].messages == {999: "row 4999: streak 5000 is out of range (0 to 1000)"}


def test_write_encoded_is_atomic_and_parquet_only(tmp_path):
    out = tmp_path / "x.parquet"

    def failing():
        yield fastscore.sample_winning(5, 0)
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        io.write_encoded(failing(), out)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="Parquet"):
        io.write_encoded(fastscore.sample_winning(5, 0), tmp_path / "x.jsonl")
    assert io.write_encoded(fastscore.sample_winning(5, 0), out) == 5
    assert invoke("encode", out, "-o", tmp_path / "y.csv").exit_code == 2


def test_encoded_batch_scores_as_the_batch():
    batch = fastscore.sample_winning(2_000, 9)
    table = io.encoded_table(batch)
    got = io.batch_from_encoded(table)
    a, b = score_batch(batch), score_batch(got)
    assert np.array_equal(a.payout, b.payout) and np.array_equal(a.row_points, b.row_points)
    w = waits_batch(io.batch_from_encoded(io.encoded_table(fastscore.sample_ready(500, 1)), require_win=False))
    assert (w.n_waits > 0).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_arrays_are_flagged_as_the_reference_flags_them(seed):
    """The compiled row check flags each row as the plain one of tests/reference.py does, chunk by chunk
    and whole (random arrays near the limits, many rows valid)."""
    from fastscore.checks import check_batch

    rng = np.random.default_rng(seed)
    n = 20_000
    base = fastscore.sample_winning(n, seed)
    concealed, declared = base.concealed.copy(), base.declared.copy()
    win, seat, streak, closing = base.win.copy(), base.seat.copy(), base.streak.copy(), base.closing.copy()
    pick = lambda: rng.random(n) < 0.02  # noqa: E731
    rows = pick()
    concealed[rows, rng.integers(0, 34, rows.sum())] += rng.integers(1, 3, rows.sum()).astype(np.uint8)
    rows = pick()
    declared[rows, rng.integers(0, 5, rows.sum())] = np.stack(
        [rng.integers(-1, 6, rows.sum()), rng.integers(-2, 36, rows.sum())], axis=1).astype(np.int8)
    rows = pick()
    win[rows] = rng.integers(-2, 36, rows.sum())
    rows = pick()
    seat[rows] = rng.integers(0, 6, rows.sum())
    rows = pick()
    streak[rows] = rng.integers(-3, 1003, rows.sum())
    closing |= pick()
    want = HandBatch(concealed, declared, win, base.self_drawn.copy(), seat, base.round.copy(), base.flowers.copy(),
                     streak, closing, base.events.copy(), np.zeros(n, np.uint8))
    for require_win in (True, False):
        expected = want.take(slice(None))
        if not require_win:
            expected.win[:] = -1
        check_batch(expected, require_win=require_win)
        plain = [reference.row_error(expected.concealed[i], expected.declared[i], expected.win[i], expected.seat[i],
                                     expected.round[i], expected.streak[i], expected.closing[i], require_win)
                 for i in range(n)]
        assert expected.error.tolist() == plain
        table = io.encoded_table(want)
        for chunk in (n, 999):  # parallel and serial kernels
            got = [io.batch_from_encoded(table.slice(s, chunk), require_win=require_win) for s in range(0, n, chunk)]
            assert np.concatenate([g.error for g in got]).tolist() == expected.error.tolist()
            messages = {}
            for k, g in enumerate(got):
                messages.update({chunk * k + i: f"row {chunk * k + i}: " + m.split(": ", 1)[1]
                                 for i, m in g.messages.items()})
            assert messages == expected.messages
        assert 0 < (expected.error != 0).sum() < n // 2


@pytest.mark.parametrize("waits", [False, True])
def test_encode_sample(tmp_path, waits):
    out = tmp_path / "sample.parquet"
    args = ["encode", "--sample", 3_000, "--seed", 4, "-o", out, "--chunk-rows", 1_000] + (["--waits"] if waits else [])
    assert invoke(*args).exit_code == 0
    want = (fastscore.sample_ready if waits else fastscore.sample_winning)(3_000, 4)
    got = next(io.iter_batches(out, require_win=not waits))
    for name in COLUMNS:
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert invoke("encode", "-o", out).exit_code == 2  # neither INPUT nor --sample
