"""The output schema (issue #20 points 4 and 5): the same row-point names in every format and input
mode, read by DuckDB without quoting; dense, sparse or no row columns; waits as typed columns."""

from __future__ import annotations

import csv
import json

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import ROW_IDS, HandBatch, sample, score_batch, waits_batch
from fastscore.cli import app
from fastscore.io import RESULT_COLUMNS, ROW_COLUMNS, SCORE_COLUMNS, iter_batches, open_writer, result_columns, \
    row_columns

NICO = "11m99m77p11s9s EE RR 333p"
# Worked by hand (RULES.md section 4): self_draw 1 + no_flowers 1 + all_five_suits 10 + nico_nico 40
# = 52 points; + mahjong_base 5 = 57 total, paid 57 (seat S: not the dealer, so no east_wins).
NICO_ROWS = {"self_draw": 1, "no_flowers": 1, "all_five_suits": 10, "nico_nico": 40, "mahjong_base": 5}
RECORDS = [
    {"hand": NICO, "win": "9s", "self_drawn": True, "seat": "S"},
    {"hand": "1m 2m", "win": "9s"},  # bad: 2 tiles
    {"hand": NICO, "win": "1p", "closing": True},  # not a win
]


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def csv_rows(path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def csv_header(path) -> list[str]:
    with open(path, newline="") as f:
        return next(csv.reader(f))


def sql(query: str) -> list[tuple]:
    return duckdb.sql(query).fetchall()


# --------------------------------------------------------------------------- names


def test_row_columns_are_plain_sql_names_distinct_from_the_input_columns():
    assert ROW_COLUMNS == tuple(f"row_{rid}" for rid in ROW_IDS)  # every row of the catalog
    assert row_columns() == ROW_COLUMNS[:45] == result_columns("score")[len(SCORE_COLUMNS):]  # the lrc table's
    assert all(name.isidentifier() for name in ROW_COLUMNS + SCORE_COLUMNS)  # no dots, no quoting in SQL
    assert not set(ROW_COLUMNS) & set(fastscore.RECORD_KEYS)  # closing the input, row_closing the points
    assert result_columns("score", "sparse") == SCORE_COLUMNS + ("rows",)
    assert result_columns("score", "none") == SCORE_COLUMNS
    assert result_columns("waits", waits_json=True) == ("n_waits", "waits", "waits_json", "error")


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("rows", ["dense", "sparse", "none"])
def test_same_columns_in_every_format_and_input_mode(tmp_path, ext, rows):
    """A file's own columns do not depend on its format nor on whether it holds the input (--sample)."""
    batch = HandBatch.from_records(RECORDS)
    names = []
    for with_input in (False, True):
        path = tmp_path / f"out-{with_input}.{ext}"
        with open_writer(path, rows=rows, with_input=with_input) as out:
            out.write(score_batch(batch), 0, batch=batch if with_input else None)
        if ext == "jsonl":
            got = list(json.loads(path.read_text().splitlines()[0]))
        elif ext == "csv":
            got = csv_header(path)
        else:
            got = pq.read_schema(path).names
        names.append(got[len(fastscore.RECORD_KEYS) if with_input else 0:])
        if with_input:
            assert got[:len(fastscore.RECORD_KEYS)] == list(fastscore.RECORD_KEYS)
    assert names[0] == names[1] == list(result_columns("score", rows))


# --------------------------------------------------------------------------- DuckDB


def test_duckdb_reads_the_row_points_dense_and_sparse(tmp_path):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    for rows in ("dense", "sparse"):
        out = tmp_path / f"{rows}.parquet"
        assert invoke("batch", source, "-o", out, "--rows", rows).exit_code == 0
    dense, sparse = f"'{tmp_path / 'dense.parquet'}'", f"'{tmp_path / 'sparse.parquet'}'"
    assert sql(f"SELECT row_self_draw, row_nico_nico, row_closing, total, payout FROM {dense}") == [
        (1, 40, 0, 57, 57), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0)]
    assert sql(f"SELECT rows['nico_nico'], rows['self_draw'], rows['closing'], cardinality(rows) FROM {sparse}") == [
        (40, 1, None, 5), (None, None, None, 0), (None, None, None, 0)]  # only the rows that scored
    assert sql(f"SELECT sum(row_nico_nico) FROM {dense}") == sql(f"SELECT sum(coalesce(rows['nico_nico'], 0)) FROM {sparse}")
    assert dict(sql(f"SELECT unnest(map_keys(rows)), unnest(map_values(rows)) FROM {sparse}")) == NICO_ROWS


def test_duckdb_reads_a_sample_output_with_its_input_columns(tmp_path):
    out = tmp_path / "sample.parquet"
    assert invoke("batch", "--sample", 200, "--seed", 3, "-o", out).exit_code == 0
    expected = score_batch(sample.sample_winning(200, 3))
    got = sql(f"SELECT closing, row_closing, row_self_draw, self_drawn FROM '{out}'")  # no quoting, no table.column
    assert [g[1] for g in got] == expected.row_points[:, ROW_IDS.index("closing")].tolist()
    assert [g[2] for g in got] == expected.row_points[:, ROW_IDS.index("self_draw")].tolist()
    assert all(isinstance(g[0], bool) for g in got)


def test_duckdb_reads_the_waits(tmp_path):
    records = [{"hand": NICO, "seat": "S"}, {"hand": "1m 2m"}, {"hand": "2333444555666789p", "round": "N"}]
    out = tmp_path / "waits.parquet"
    assert invoke("waits-batch", write_jsonl(tmp_path / "hands.jsonl", records), "-o", out).exit_code == 0
    # seat S, 9s: nico_nico 40 + no_flowers 1 + all_five_suits 10 = 51, + base 5 = 56; self-drawn + 1 = 57
    assert sql(f"SELECT w.tile, w.discard, w.self_draw FROM (SELECT unnest(waits) AS w FROM '{out}' LIMIT 1)") == [
        ("9s", 56, 57)]
    per_row = sql(f"SELECT n_waits, len(waits), error IS NULL FROM '{out}'")
    assert per_row == [(1, 1, True), (0, 0, False), (6, 6, True)]
    expected = waits_batch(HandBatch.from_records(records, require_win=False))
    tiles = sql(f"SELECT [w.tile FOR w IN waits] FROM '{out}'")
    assert [t[0] for t in tiles] == [list(expected.waits_at(i)) for i in range(3)]
    # the 34-wide payouts of the result, as SQL reads them
    pays = sql(f"SELECT w.tile, w.discard, w.self_draw FROM (SELECT unnest(waits) AS w FROM '{out}') ")
    index = {name: t for t, name in enumerate(fastscore.TILE_NAMES)}
    assert sorted(pays) == sorted((tile, int(expected.payout_discard[i, index[tile]]),
                                   int(expected.payout_self_draw[i, index[tile]]))
                                  for i in range(3) for tile in expected.waits_at(i))


# --------------------------------------------------------------------------- sparse = dense


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_sparse_rows_are_the_nonzero_dense_rows(tmp_path, ext):
    batch = sample.sample_winning(3_000, 8)
    result = score_batch(batch)
    path = tmp_path / f"sparse.{ext}"
    with open_writer(path, rows="sparse") as out:
        out.write(result, 0)
    if ext == "jsonl":
        got = [json.loads(line)["rows"] for line in path.read_text().splitlines()]
    elif ext == "csv":
        got = [json.loads(r["rows"]) for r in csv_rows(path)]
    else:
        assert pq.read_schema(path).field("rows").type == pa.map_(pa.string(), pa.int16())
        got = [dict(pairs) for pairs in pq.read_table(path).column("rows").to_pylist()]
    assert got == [result.score_at(i).rows for i in range(len(result))]  # Score.rows: its order, its values
    dense = np.zeros_like(result.row_points)
    for i, rows in enumerate(got):
        for rid, points in rows.items():
            dense[i, ROW_IDS.index(rid)] = points
    np.testing.assert_array_equal(dense, result.row_points)
    assert sum(len(r) for r in got) == np.count_nonzero(result.row_points)


def test_no_rows_leaves_the_totals(tmp_path):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    out = tmp_path / "none.csv"
    result = invoke("batch", source, "-o", out, "--rows", "none")
    assert result.exit_code == 0
    # Without row columns the job does not work the rows out, and its summary says so.
    assert "rows by frequency: not worked out" in result.output
    rows = csv_rows(out)
    assert list(rows[0]) == list(SCORE_COLUMNS)
    assert [(r["points"], r["total"], r["payout"]) for r in rows] == [("52", "57", "57"), ("0", "0", "0"),
                                                                       ("0", "0", "0")]


# --------------------------------------------------------------------------- read back as input


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("rows", ["dense", "sparse"])
def test_a_result_read_back_as_input_skips_its_result_columns(tmp_path, ext, rows):
    out = tmp_path / f"sample.{ext}"
    assert invoke("batch", "--sample", 50, "--seed", 1, "-o", out, "--rows", rows).exit_code == 0
    again = tmp_path / "again.jsonl"
    result = invoke("batch", out, "-o", again)
    assert result.exit_code == 0, result.output
    expected = list(score_batch(sample.sample_winning(50, 1)).to_records())
    assert [json.loads(line) for line in again.read_text().splitlines()] == expected
    waits = tmp_path / f"waits.{ext}"
    assert invoke("waits-batch", "--sample", 20, "--seed", 1, "-o", waits, "--waits-json").exit_code == 0
    assert invoke("waits-batch", waits, "-o", tmp_path / "w.jsonl").exit_code == 0
    # a misspelt input column is still refused
    assert {"row_self_draw", "rows", "waits", "waits_json"} <= RESULT_COLUMNS and "row_self_drawn" not in RESULT_COLUMNS


# --------------------------------------------------------------------------- waits


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_waits_json_column_is_an_option(tmp_path, ext):
    batch = sample.sample_ready(500, 4)
    result = waits_batch(batch)
    plain, with_text = tmp_path / f"plain.{ext}", tmp_path / f"text.{ext}"
    for path, waits_json in ((plain, False), (with_text, True)):
        with open_writer(path, "waits", waits_json=waits_json, with_input=True) as out:
            out.write(result, 0, batch=batch)
    if ext == "parquet":
        table = pq.read_table(with_text)
        assert "waits_json" not in pq.read_schema(plain).names
        texts = table.column("waits_json").to_pylist()
    elif ext == "csv":
        texts = [r["waits_json"] for r in csv_rows(with_text)]
    else:
        texts = [json.loads(line)["waits_json"] for line in with_text.read_text().splitlines()]
    assert texts == [json.dumps(result.waits_at(i), separators=(",", ":")) for i in range(len(result))]


def test_waits_output_has_no_all_null_column(tmp_path):
    """A waits result of generated hands holds no ``win`` column (waits analysis has no winning tile)."""
    out = tmp_path / "waits.parquet"
    assert invoke("waits-batch", "--sample", 300, "--seed", 9, "-o", out).exit_code == 0
    table = pq.read_table(out)
    assert "win" not in table.column_names
    # every column but events (null: no timing event) and error (null: the row was analysed) has values
    assert [name for name in table.column_names
            if table.column(name).null_count == table.num_rows] == ["events", "error"]


def test_rows_option_errors(tmp_path):
    with pytest.raises(ValueError, match="rows must be one of dense, sparse, none"):
        open_writer(tmp_path / "a.parquet", rows="wide")
    with pytest.raises(ValueError, match="is for score results"):
        open_writer(tmp_path / "b.parquet", "waits", rows="dense")
    with pytest.raises(ValueError, match="waits_json=True is for waits results"):
        open_writer(tmp_path / "c.parquet", waits_json=True)
    bad = invoke("batch", "--sample", 5, "-o", tmp_path / "d.parquet", "--rows", "wide")
    assert bad.exit_code == 2 and "wide" in bad.output
    assert invoke("waits-batch", "--sample", 5, "--rows", "dense").exit_code == 2  # not a waits-batch option
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize(("kind", "layout"), [("score", {"rows": "sparse"}), ("score", {"rows": "none"}),
                                              ("waits", {"waits_json": True})])
def test_same_bytes_for_any_chunk_size(tmp_path, kind, layout):
    records = fastscore.io.hand_records(sample.sample_winning(5_000, 6))
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    process = score_batch if kind == "score" else waits_batch
    files = []
    for chunk_rows in (333, 5_000):
        path = tmp_path / f"out-{chunk_rows}.parquet"
        with open_writer(path, kind, **layout) as out:
            for batch in iter_batches(source, chunk_rows=chunk_rows, require_win=kind == "score"):
                out.write(process(batch), out.rows_written)
        files.append(path.read_bytes())
    assert files[0] == files[1]


def test_dask_path_writes_the_single_machine_layout(tmp_path):
    """score_parquet without a client (its tasks in this process) takes rows= as the writer does."""
    from fastscore.dask import score_parquet

    source = tmp_path / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(fastscore.io.hand_records(sample.sample_winning(2_000, 2))), source)
    single = tmp_path / "single.parquet"
    assert invoke("batch", source, "-o", single, "--rows", "sparse").exit_code == 0
    done = score_parquet(source, tmp_path / "out", rows="sparse", partition_rows=700)
    got = pa.concat_tables([pq.read_table(path) for path in done.paths])
    assert got.equals(pq.read_table(single)) and got.schema.field("rows").type == pa.map_(pa.string(), pa.int16())
