"""Input columns: none dropped unread (a misspelt column is an error, not a default), and kept ones
carried through (``--keep``) into every output format, joined back by ID (issue 20, points 1 and 3)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from fastscore import HandBatch, io, score_batch
from fastscore.cli import app

runner = CliRunner()

NICO = "11m99m77p11s9s EE RR 333p"  # by South, self-drawn: 57; on a discard: 56
CHICKEN = "[234m] [567p] 88p 123s 456s WW"
ACCEPTED = "hand, win, self_drawn, seat, round, flowers, streak, closing"


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def write(path: Path, records: list[dict]) -> Path:
    """``records`` as JSON lines, CSV (the first record's keys as the header) or Parquet, by extension."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    elif path.suffix == ".csv":
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, list(records[0]))
            writer.writeheader()
            writer.writerows(records)
    else:
        pq.write_table(pa.Table.from_pylist(records), path)
    return path


def read(path: Path) -> list[dict]:
    """An output file's rows (CSV values as text)."""
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines()]
    if path.suffix == ".csv":
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    return pq.read_table(path).to_pylist()


# --------------------------------------------------------------------------- point 1: no silent misreads


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("column, close", [("self_draw", "self_drawn"), ("selfdrawn", "self_drawn"),
                                           ("Seat", "seat")])
def test_a_misspelt_column_stops_the_job_before_any_row(tmp_path, ext, column, close):
    """``hand,win,self_draw,seat`` once scored every hand as a discard win without a word."""
    value = "S" if column == "Seat" else "true"
    source = write(tmp_path / f"hands.{ext}", [{"hand": NICO, "win": "9s", column: value}])
    out = tmp_path / "out.parquet"
    result = invoke("batch", source, "-o", out)
    assert result.exit_code == 2, result.output
    assert f"unknown {'key' if ext == 'jsonl' else 'column'} {column!r} (did you mean {close!r}?)" in result.stderr
    assert ACCEPTED in result.stderr and "--keep" in result.stderr
    assert "rows:" not in result.output  # nothing scored
    assert sorted(p.name for p in tmp_path.iterdir()) == [source.name]  # no output, no parts, no lock


def test_from_records_names_an_unknown_key():
    few = [{"hand": NICO, "win": "9s", "self_draw": True}]
    with pytest.raises(ValueError, match=r"record 0: unknown key 'self_draw' \(did you mean 'self_drawn'\?\)"):
        HandBatch.from_records(few)
    many = [{"hand": NICO, "win": "9s"}] * 40 + [{"hand": NICO, "win": "9s", "Seat": "S"}]  # the compiled path
    with pytest.raises(ValueError, match=f"record 40: unknown key 'Seat' .*fastscore reads the keys {ACCEPTED}"):
        HandBatch.from_records(many)
    with pytest.raises(ValueError, match="table: unknown column 'selfdrawn'"):
        HandBatch.from_arrow(pa.table({"hand": [NICO], "win": ["9s"], "selfdrawn": [True]}))


def test_a_missing_win_column_stops_a_scoring_job(tmp_path):
    for ext in ("csv", "jsonl", "parquet"):
        source = write(tmp_path / f"ready.{ext}", [{"hand": NICO, "seat": "S"}])
        result = invoke("batch", source)
        assert result.exit_code == 2, result.output
        assert "no 'win' " in result.stderr and "rows:" not in result.output
        assert invoke("waits-batch", source).exit_code == 0  # waits need no winning tile


def test_a_later_json_record_with_an_unknown_key_is_a_flagged_row(tmp_path):
    """JSON lines have no header: the first record stands for it; a later odd record is flagged, named."""
    source = write(tmp_path / "hands.jsonl", [{"hand": NICO, "win": "9s"}, {"hand": NICO, "win": "9s", "sef": 1},
                                             {"hand": NICO, "win": "9s"}])
    out = tmp_path / "out.jsonl"
    assert invoke("batch", source, "-o", out).exit_code == 0
    rows = read(out)
    assert [r["error"] is None for r in rows] == [True, False, True]
    assert rows[1]["error"].startswith("hands.jsonl line 2: unknown key 'sef'")


@pytest.mark.parametrize("array", [False, True])
def test_a_json_record_with_a_key_given_twice_is_a_flagged_row(tmp_path, array):
    """``{"seat": "S", "seat": "N"}``: json would keep the last value; which one the writer meant is not for the
    reader to guess (a CSV or Parquet column named twice stops the file)."""
    good = f'{{"hand": "{NICO}", "win": "9s", "seat": "S"}}'
    twice = f'{{"hand": "{NICO}", "win": "9s", "seat": "S", "seat": "N"}}'
    source = tmp_path / "hands.jsonl"
    source.write_text(f"[{good}, {twice}, {good}]\n" if array else f"{good}\n{twice}\n{good}\n")
    out = tmp_path / "out.jsonl"
    assert invoke("batch", source, "-o", out).exit_code == 0
    rows = read(out)
    assert [r["payout"] for r in rows] == [56, 0, 56]  # NICO by South on a discard: 51 + base 5
    where = "record 1" if array else "line 2"
    assert rows[1]["error"].endswith(f"hands.jsonl {where}: the key 'seat' is given twice")


def test_a_result_written_with_its_input_reads_back(tmp_path):
    """The columns of a fastscore result are skipped, not refused (``batch --sample`` output as input)."""
    sample = tmp_path / "sample.csv"
    assert invoke("batch", "--sample", 20, "-o", sample).exit_code == 0
    again = tmp_path / "again.csv"
    assert invoke("batch", sample, "-o", again).exit_code == 0
    assert [r["payout"] for r in read(again)] == [r["payout"] for r in read(sample)]


# --------------------------------------------------------------------------- point 3: IDs carried through


RECORDS = [{"game_id": f"g{i}", "seed": 100 + i, "hand": hand, "win": win, "self_drawn": drawn, "seat": "S"}
           for i, (hand, win, drawn) in enumerate([(NICO, "9s", True), (CHICKEN, "8p", False), ("12 3m", "9s", False),
                                                    (NICO, "9s", False)])]
PAYOUTS = [57, 20, 0, 56]  # row 2 is bad


@pytest.mark.parametrize("output_ext", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("input_ext", ["jsonl", "csv", "parquet"])
def test_keep_copies_the_named_columns_row_for_row(tmp_path, input_ext, output_ext):
    source = write(tmp_path / f"hands.{input_ext}", RECORDS)
    assert invoke("batch", source).exit_code == 2  # game_id and seed unknown without --keep
    out = tmp_path / f"out.{output_ext}"
    result = invoke("batch", source, "-o", out, "--keep", "game_id,seed", "--chunk-rows", 3)
    assert result.exit_code == 0, result.output
    rows = read(out)
    assert list(rows[0])[:3] == ["game_id", "seed", "is_win"]  # the kept columns first
    assert [r["game_id"] for r in rows] == ["g0", "g1", "g2", "g3"]  # bad row 2 keeps its ID
    seeds = [r["seed"] for r in rows]
    assert seeds == ([str(s) for s in (100, 101, 102, 103)] if "csv" in (input_ext, output_ext) else [100, 101, 102, 103])
    assert [int(r["payout"]) for r in rows] == PAYOUTS
    # The result columns are those of a run without --keep on the same hands.
    plain = tmp_path / f"plain_out.{output_ext}"
    (tmp_path / "plain").mkdir()  # the same file name: a message names the file and line of its row
    write(tmp_path / "plain" / f"hands.{input_ext}", [{k: v for k, v in r.items() if k not in ("game_id", "seed")}
                                                     for r in RECORDS])
    assert invoke("batch", tmp_path / "plain" / f"hands.{input_ext}", "-o", plain, "--chunk-rows", 3).exit_code == 0
    assert [{k: v for k, v in r.items() if k not in ("game_id", "seed")} for r in rows] == read(plain)


def test_keep_in_waits_batch_and_a_join_on_the_kept_id(tmp_path):
    source = write(tmp_path / "ready.parquet", [{"game_id": 7 - i, "hand": "123m456p 11z 56s [777m] [999s]"}
                                                          for i in range(3)])
    out = tmp_path / "waits.parquet"
    assert invoke("waits-batch", source, "-o", out, "--keep", "game_id").exit_code == 0
    # pyarrow's join takes no list column (waits) beside the key: select the flat ones
    joined = pq.read_table(source).join(pq.read_table(out, columns=["game_id", "n_waits"]), "game_id").sort_by("game_id")
    assert joined.column("game_id").to_pylist() == [5, 6, 7]
    assert joined.column("n_waits").to_pylist() == [2, 2, 2]  # 4s and 7s
    import duckdb  # SQL joins the waits themselves

    tiles = duckdb.sql(f"SELECT h.game_id, [w.tile FOR w IN o.waits] FROM '{source}' h JOIN '{out}' o USING (game_id) "
                       f"ORDER BY h.game_id").fetchall()
    assert tiles == [(5, ["4s", "7s"]), (6, ["4s", "7s"]), (7, ["4s", "7s"])]
    assert pq.read_schema(out).field("game_id").type == pa.int64()  # the input's type


def test_keep_errors(tmp_path):
    source = write(tmp_path / "hands.csv", RECORDS)
    missing = invoke("batch", source, "--keep", "game_id,seed,table_id")
    assert missing.exit_code == 2 and "the input has no column 'table_id'" in missing.stderr
    read_itself = invoke("batch", source, "--keep", "game_id,seed,hand")
    assert read_itself.exit_code == 2 and "fastscore reads the column 'hand' itself" in read_itself.stderr
    clash = invoke("batch", write(tmp_path / "p.csv", [{**RECORDS[0], "payout": 1}]), "--keep", "game_id,seed,payout")
    assert clash.exit_code == 2 and "fastscore writes the column 'payout' itself" in clash.stderr
    sample = invoke("batch", "--sample", 5, "--keep", "game_id")
    assert sample.exit_code == 2 and "--sample has none" in sample.stderr
    typed = write(tmp_path / "typed.jsonl", [{**RECORDS[0], "seed": 1}, {**RECORDS[1], "seed": "x"}])
    mixed = invoke("batch", typed, "-o", tmp_path / "typed.parquet", "--keep", "game_id,seed")
    assert mixed.exit_code == 2 and "the kept column 'seed' holds 'x', not of type int64" in mixed.stderr
    assert "typed.jsonl: line 2: the kept column" in mixed.stderr  # the value's line, as every message names it
    # a JSON 2.5 or true in an int64 column is refused, not truncated to 2 or read as 1 (pyarrow would)
    for value, line in ((2.5, 3), (True, 3)):
        typed = write(tmp_path / "typed.jsonl", [{**RECORDS[0], "seed": 1}, {**RECORDS[1], "seed": None},
                                                 {**RECORDS[0], "seed": value}])
        mixed = invoke("batch", typed, "-o", tmp_path / "typed.parquet", "--keep", "game_id,seed")
        assert mixed.exit_code == 2 and f"typed.jsonl: line {line}: the kept column 'seed' holds {value!r}, not of " \
                                        f"type int64" in mixed.stderr


def test_kept_json_key_missing_from_the_first_record(tmp_path):
    """A writer that drops null keys leaves a kept key out of some records, the first among them: the key is
    looked for in every record, typed by its first value that is not null; a record without it keeps null."""
    records = [{**RECORDS[0], "game_id": 1}, {**RECORDS[1], "game_id": 2, "note": None},
               {**RECORDS[0], "game_id": 3, "note": 7}, {**RECORDS[1], "game_id": 4}]
    for record in records:
        del record["seed"]
    source = write(tmp_path / "sparse.jsonl", records)
    out = tmp_path / "sparse.parquet"
    done = invoke("batch", source, "-o", out, "--keep", "game_id,note")
    assert done.exit_code == 0, done.output
    table = pq.read_table(out)
    assert table.column("note").to_pylist() == [None, None, 7, None] and table.schema.field("note").type == pa.int64()
    assert table.column("error").to_pylist() == [None] * 4
    missing = invoke("batch", source, "-o", out, "--keep", "game_id,nots")  # in no record: refused as before
    assert missing.exit_code == 2 and "the input has no key 'nots'" in missing.stderr


def test_keep_survives_resume(tmp_path, monkeypatch):
    """The kept columns are part of the job (job.json): a resumed run writes the same file, and a resume
    with other kept columns is refused."""
    import importlib

    records = [{**RECORDS[i % 4], "game_id": f"g{i}", "seed": i} for i in range(40)]
    source = write(tmp_path / "hands.jsonl", records)
    reference = tmp_path / "reference.parquet"
    assert invoke("batch", source, "-o", reference, "--keep", "game_id,seed", "--chunk-rows", 7).exit_code == 0
    module = importlib.import_module("fastscore.score")
    real, calls = module.score_batch, 0

    def interrupted(batch, rules=None):
        nonlocal calls
        calls += 1
        if calls > 3:  # the warm-up call and two chunks
            raise KeyboardInterrupt
        return real(batch, rules)

    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        patch.setattr(module, "score_batch", interrupted)
        assert invoke("batch", source, "-o", out, "--keep", "game_id,seed", "--chunk-rows", 7).exit_code == 130
    other = invoke("batch", source, "-o", out, "--keep", "seed,game_id", "--chunk-rows", 7, "--resume")
    assert other.exit_code == 2 and "cannot resume" in other.stderr and "keep was" in other.stderr
    resumed = invoke("batch", source, "-o", out, "--keep", "game_id,seed", "--chunk-rows", 5, "--resume")
    assert resumed.exit_code == 0 and "resuming at row 14" in resumed.stderr
    assert out.read_bytes() == reference.read_bytes()


def test_python_results_join_back_by_row_order():
    """The Python API: build the batch from the columns fastscore reads; the result table's rows are the
    input's, so an ID column joins it back without a loop."""
    table = pa.Table.from_pylist(RECORDS)
    result = score_batch(HandBatch.from_arrow(table.select(["hand", "win", "self_drawn", "seat"])))
    scored = result.to_arrow().add_column(0, "game_id", table.column("game_id"))
    joined = table.join(scored.select(["game_id", "payout"]), "game_id").sort_by("game_id")
    assert joined.column("payout").to_pylist() == PAYOUTS
    assert joined.column("seed").to_pylist() == [100, 101, 102, 103]


def test_iter_chunks_gives_the_kept_columns(tmp_path):
    source = write(tmp_path / "hands.csv", RECORDS)
    schema = io.check_input(source, keep=["seed", "game_id"])
    assert schema.names == ["seed", "game_id"] and schema.field("seed").type == pa.string()  # CSV is text
    with pytest.raises(ValueError, match="unknown column 'game_id'"):
        io.check_input(source, keep=["seed"])  # game_id is neither read nor kept
    chunks = list(io.iter_chunks(source, keep=["game_id", "seed"], chunk_rows=3))
    assert [kept.column("game_id").to_pylist() for _, kept in chunks] == [["g0", "g1", "g2"], ["g3"]]
    assert [b.error.tolist() for b, _ in chunks] == [[0, 0, 1], [0]]


def test_keep_in_a_dask_dataset(tmp_path):
    """``score_parquet(keep=...)`` (``--dask``) writes the kept columns first in every part; without a
    cluster its tasks run in this process."""
    pytest.importorskip("distributed")
    from fastscore.dask import plan_partitions, score_parquet

    folder = tmp_path / "hands"
    folder.mkdir()
    write(folder / "part.0.parquet", RECORDS[:2])
    write(folder / "part.1.parquet", RECORDS[2:])
    with pytest.raises(ValueError, match="unknown column 'game_id'"):
        plan_partitions(folder, 2, keep=["seed"], require_win=True)
    done = score_parquet(folder, tmp_path / "scores", keep=["game_id", "seed"], partition_rows=2)
    table = pq.read_table(tmp_path / "scores")
    assert table.column_names[:3] == ["game_id", "seed", "is_win"] and len(done.paths) == 2
    assert table.column("game_id").to_pylist() == ["g0", "g1", "g2", "g3"]
    assert table.column("payout").to_pylist() == PAYOUTS
