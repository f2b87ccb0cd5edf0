"""The fastscore command line (fastscore.cli), through click's CliRunner."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import HandBatch, score_batch
from fastscore.cli import app
from fastscore.waits import waits_batch
from messages import as_read_from

runner = CliRunner()

NICO = "11m99m77p11s9s EE RR 333p"
# self_draw 1 + no_flowers 1 + all_five_suits 10 + nico_nico 40 = 52 points, + mahjong_base 5 = 57
NICO_ROWS = {"nico_nico": 40, "no_flowers": 1, "self_draw": 1, "all_five_suits": 10, "mahjong_base": 5}

# Row 2 is bad (unknown letter); row 4 does not win (a result).
RECORDS = [
    {"hand": NICO, "win": "9s", "self_drawn": True, "seat": "S"},
    {"hand": "111222333m456p78s EE", "win": "9s", "seat": "S"},
    {"hand": "11m99m77p11s9s EE RR 333x", "win": "9s"},
    {"hand": "123m456p789s 234s G [555z]", "win": "G", "self_drawn": True, "flowers": "1f5f", "streak": 2},
    {"hand": "123m456p789s 234s G [555z]", "win": "1m", "seat": "W", "round": "N"},
]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize("command", ["batch", "waits-batch", "encode"])
def test_chunk_rows_default_is_the_readers(command):
    """The CLI keeps its own copy of the chunk size (so that ``--help`` imports nothing heavy); it is io's."""
    from fastscore import cli, io

    assert cli._DEFAULT_CHUNK_ROWS == io.DEFAULT_CHUNK_ROWS
    option = next(p for p in app.commands[command].params if p.name == "chunk_rows")
    assert option.default == io.DEFAULT_CHUNK_ROWS


# --------------------------------------------------------------------------- score


def test_score_json():
    result = invoke("score", NICO, "--win", "9s", "--self-drawn", "--seat", "S", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["total"] == 57 and data["payout"] == 57 and data["points"] == 52
    assert data["rows"] == NICO_ROWS
    assert data["shape"] == "nico_nico" and data["legal"] is True and data["chicken"] is False
    assert data == fastscore.score(NICO, "9s", self_drawn=True, seat="S").to_dict()


def test_score_table():
    result = invoke("score", NICO, "--win", "9s", "--self-drawn", "--seat", "S")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for rid, points in NICO_ROWS.items():
        line = next(line for line in out.splitlines() if f" {rid} " in line)
        assert f" {points} " in line and "[seed]" in line  # row, points, source (LRC rules 4.x [seed])
    assert "shape    nico_nico" in out
    assert "total    57  (legal: round minimum 20)" in out
    assert "payout   57" in out
    # A wind with spaces around it, as a CSV cell may hold one: the South round's minimum, from the rule table.
    south = invoke("score", NICO, "--win", "9s", "--self-drawn", "--seat", "S", "--round", " S ")
    assert south.exit_code == 0, south.output
    minimum = int(fastscore.load_rules().minimum[1])
    assert f"total    57  (legal: round minimum {minimum})" in south.stdout and "round S," in south.stdout


def test_score_context_options():
    args = ["score", "123m456p789s 234s G [555z]", "--win", "G", "--self-drawn", "--flowers", "1f5f",
            "--streak", "2", "--seat", "E", "--round", "S", "--json"]
    data = json.loads(invoke(*args).stdout)
    expected = fastscore.score("123m456p789s 234s G [555z]", "G", self_drawn=True, flowers="1f5f", streak=2,
                               seat="E", round="S")
    assert data == expected.to_dict()
    assert "streak_bonus" in data["rows"] and "east_wins" in data["rows"]


def test_score_with_rules_file(tmp_path):
    text = (Path(fastscore.__file__).parent / "rules.toml").read_text()
    marker = 'id = "nico_nico"\npoints = 40'
    assert marker in text
    rules = tmp_path / "house.toml"
    rules.write_text(text.replace(marker, 'id = "nico_nico"\npoints = 30'))
    data = json.loads(invoke("score", NICO, "--win", "9s", "--self-drawn", "--seat", "S", "--rules", rules,
                             "--json").stdout)
    assert data["rows"]["nico_nico"] == 30 and data["total"] == 47


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "11m99m77p11s9s EE RR 333x", "--win", "9s"], "'333x'"),
        (["score", NICO, "--win", "9x"], "winning tile"),
        (["score", NICO, "--win", "9s", "--seat", "X"], "seat 'X' is not a wind"),
        (["score", NICO, "--win", "9s", "--flowers", "9f"], "out of range (1f-8f)"),
        (["interpretations", "11m99m77p", "--win", "9s"], "holds 6 tiles"),
        (["waits", "11m99m77p"], "holds 6 tiles"),
    ],
)
def test_invalid_input_exits_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.startswith("error: ")
    assert result.stdout == ""


def test_bad_rules_file_exits_2(tmp_path):
    rules = tmp_path / "bad.toml"
    rules.write_text("[[row]]\nid = 'nope'\npoints = 1\n")
    result = invoke("score", NICO, "--win", "9s", "--rules", rules)
    assert result.exit_code == 2 and "unknown row id 'nope'" in result.stderr


def test_non_winning_hand_is_a_result():
    result = invoke("score", "123m456p789s 234s G [555z]", "--win", "1m")
    assert result.exit_code == 0
    assert "not a winning hand" in result.stdout and "payout 0" in result.stdout
    data = json.loads(invoke("score", "123m456p789s 234s G [555z]", "--win", "1m", "--json").stdout)
    assert data["is_win"] is False and data["payout"] == 0


def test_interpretations():
    hand = "111222333m456p78s EE"
    result = invoke("interpretations", hand, "--win", "9s", "--seat", "S")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{hand} + 9s (on a discard); seat S, round E, flowers none"
    drawn = invoke("interpretations", hand, "--win", "9s", "--seat", "S", "--self-drawn")
    assert drawn.stdout.splitlines()[0] == f"{hand} + 9s (self-drawn); seat S, round E, flowers none"
    # three pongs of 1m 2m 3m: concealed_hand 5 + no_flowers 1 = 6, + base 5 = 11 (below 20: not legal)
    assert "  1. standard: 111m 222m 333m 456p 789s 11z (eyes)" in lines
    assert "     points 6, total 11, not legal, payout 0" in lines
    # three 123m sheungs: 5 + 1 + mixed_dragon_concealed 10 = 16, + 5 = 21: the one the hand scores
    assert "* 2. standard: 123m 123m 123m 456p 789s 11z (eyes)" in lines
    assert "     points 16, total 21, legal, payout 21" in lines
    data = json.loads(invoke("interpretations", hand, "--win", "9s", "--seat", "S", "--json").stdout)
    assert [d["payout"] for d in data] == [0, 21]
    assert [d.pop("scores") for d in data] == [False, True]  # the 21-point reading is the one scored
    assert data == fastscore.interpretations(hand, "9s", seat="S")
    # Honours come back in one form, z digits, however they were written: EE and RR as 11z and 777z.
    assert data[1]["groups"] == ["123m", "123m", "123m", "456p", "789s", "11z (eyes)"]
    honours = json.loads(invoke("interpretations", "123m456p789s EE RRR 22s", "--win", "2s", "--json").stdout)
    assert [d["groups"] for d in honours] == [["123m", "456p", "222s", "789s", "11z (eyes)", "777z"]]


# --------------------------------------------------------------------------- batch


def expected_records(records=RECORDS):
    return list(score_batch(HandBatch.from_records(records)).to_records())


@pytest.mark.parametrize("ext", ["jsonl", "csv", "parquet"])
def test_batch_file_to_file(tmp_path, ext):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    out = tmp_path / f"scores.{ext}"
    result = invoke("batch", source, "-o", out, "--chunk-rows", "2")
    assert result.exit_code == 0, result.output
    # A run under a second prints no rate (it would measure start-up).
    assert "rows: 5  bad rows: 1  time: " in result.stdout and "hands per second" not in result.stdout
    assert "bad hands.jsonl line 3: '333x'" in result.stderr  # record 2 (from 0) is the file's line 3
    expected = as_read_from(expected_records(), "hands.jsonl", 1)
    if ext == "jsonl":
        got = [json.loads(line) for line in out.read_text().splitlines()]
        assert got == expected
    elif ext == "parquet":
        table = pq.read_table(out)
        assert table.schema.field("payout").type == pa.int32()
        assert table.column("total").to_pylist() == [r["total"] for r in expected]
        assert table.column("error").to_pylist() == [r["error"] for r in expected]
    else:
        lines = out.read_text().splitlines()
        assert len(lines) == 6 and lines[1].startswith("true,nico_nico,52,false,57,true,57,,")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_batch_reads_csv_and_parquet(tmp_path, ext):
    rows = [{k: ("" if r.get(k) is None else str(r.get(k)).lower() if isinstance(r.get(k), bool) else str(r.get(k)))
             for k in ("hand", "win", "self_drawn", "seat", "round", "flowers", "streak")} for r in RECORDS]
    source = tmp_path / f"hands.{ext}"
    if ext == "csv":
        with open(source, "w", newline="") as f:
            writer = csv.DictWriter(f, list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    else:
        pq.write_table(pa.Table.from_pylist(rows), source)
    out = tmp_path / "scores.jsonl"
    result = invoke("batch", source, "-o", out)
    assert result.exit_code == 0, result.output
    expected = expected_records() if ext == "parquet" else as_read_from(expected_records(), "hands.csv", 2)
    assert [json.loads(line) for line in out.read_text().splitlines()] == expected


def test_batch_summary_only(tmp_path):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    result = invoke("batch", source)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "rows: 5  bad rows: 1" in out
    assert "nico_nico" in out and "standard" in out and "no win" in out
    # 3 of 4 scored rows are legal (payouts 57, 21, and the dealer hand); the non-win is not
    expected = expected_records()
    payouts = [r["payout"] for r in expected if r["error"] is None]
    assert "legal: 75.0% of scored rows (3)" in out
    assert f"mean payout: {sum(payouts) / 4:.2f} per scored row, {sum(payouts) / 3:.2f} per legal hand" in out
    assert "top 10 rows by frequency" in out and "mahjong_base" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl"]


def test_batch_summary_of_no_scored_row(tmp_path):
    """No row, or only flagged ones: no shares, means or row tallies of nothing (once "mean payout: 0.00")."""
    for name, text, said in (("empty.jsonl", "", "no row scored"),
                             ("bad.jsonl", '{"hand": "123x", "win": "9s"}\n', "no row scored (1 flagged)")):
        source = tmp_path / name
        source.write_text(text)
        result = invoke("batch", source, "-o", tmp_path / f"{name}.out.jsonl", "--no-progress")
        assert result.exit_code == 0, result.output
        assert said in result.stdout and "mean payout" not in result.stdout and "top 10" not in result.stdout


def test_batch_missing_hand_column(tmp_path):
    source = tmp_path / "hands.csv"
    source.write_text("tiles,win\n11m99m77p11s9s EE RR 333p,9s\n")
    out = tmp_path / "scores.parquet"
    result = invoke("batch", source, "-o", out)
    assert result.exit_code == 2
    assert "no 'hand' column" in result.stderr and "self_drawn" in result.stderr and "closing" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.csv"]  # no output, no partial file


@pytest.mark.parametrize("ext", [".jsonl", ".csv", ".parquet"])
@pytest.mark.parametrize("command", ["batch", "waits-batch"])
def test_empty_input_file_is_no_rows(tmp_path, ext, command):
    """A file of 0 bytes is an input of no rows in every format: exit 0 and an output of no rows."""
    source = tmp_path / f"hands{ext}"
    source.write_bytes(b"")
    out = tmp_path / "out.parquet"
    result = invoke(command, source, "-o", out, "--no-progress")
    assert result.exit_code == 0, result.output
    assert "rows: 0  bad rows: 0" in result.stdout
    table = pq.read_table(out)
    assert table.num_rows == 0
    assert ("payout" if command == "batch" else "n_waits") in table.column_names


def test_csv_row_with_a_field_more_or_less_than_the_header_is_flagged(tmp_path):
    """No field is dropped and none defaulted: such a row is flagged, naming the line; the other rows are scored."""
    source = tmp_path / "hands.csv"
    source.write_text(f"hand,win,seat\n{NICO},9s,S,x\n{NICO},9s,E\n{NICO},9s\n")
    out = tmp_path / "scores.jsonl"
    result = invoke("batch", source, "-o", out, "--no-progress")
    assert result.exit_code == 0
    first, second, third = [json.loads(line) for line in out.read_text().splitlines()]
    assert first["error"] == "hands.csv line 2: 4 fields, the header names 3" and not first["is_win"]
    # no_flowers 1 + all_five_suits 10 + nico_nico 40 = 51 points, + mahjong_base 5 = 56 (+ east_wins 5 paid)
    assert second["error"] is None and second["total"] == 56 and second["payout"] == 61
    assert third["error"] == "hands.csv line 4: 2 fields, the header names 3" and not third["is_win"]


@pytest.mark.parametrize("ext, text", [(".csv", "\n\n"), (".jsonl", "\n  \n")])
def test_file_of_blank_lines_is_no_rows(tmp_path, ext, text):
    source = tmp_path / f"hands{ext}"
    source.write_text(text)
    result = invoke("batch", source, "-o", tmp_path / "out.jsonl", "--no-progress")
    assert result.exit_code == 0 and "rows: 0  bad rows: 0" in result.stdout
    assert (tmp_path / "out.jsonl").read_text() == ""


def test_whole_file_problems_name_the_file(tmp_path):
    """A file that is not Parquet and an output folder that does not exist: exit 2, no output, the path named."""
    garbage = tmp_path / "hands.parquet"
    garbage.write_bytes(b"not a parquet file at all")
    result = invoke("batch", garbage, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2 and f"{garbage}: not a readable Parquet file" in result.stderr
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    for command in ("batch", "waits-batch", "encode"):
        missing = tmp_path / "no" / "such" / "out.parquet"
        result = invoke(command, source, "-o", missing)
        assert result.exit_code == 2 and f"the folder {missing.parent} does not exist" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl", "hands.parquet"]
    typed = tmp_path / "typed.parquet"
    pq.write_table(pa.table({"hand": ["11m99m77p11s9s EE RR 333p"], "win": [[9]]}), typed)
    result = invoke("batch", typed, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2 and f"{typed}: column 'win' has type list" in result.stderr
    assert not (tmp_path / "out.parquet").exists()


def test_encoded_file_without_declared_sets_is_refused(tmp_path):
    """Read without its ``declared`` column, every hand with a set would change: the file is refused."""
    encoded = tmp_path / "hands.enc.parquet"
    fastscore.io.write_encoded(HandBatch.from_records(RECORDS[:1]), encoded)
    pq.write_table(pq.read_table(encoded).drop(["declared"]), encoded)
    result = invoke("batch", encoded, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2 and "need a 'declared' column" in result.stderr
    assert not (tmp_path / "out.parquet").exists()


def test_version():
    from importlib.metadata import version

    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"fastscore {version('fastscore')}"


def test_batch_argument_errors(tmp_path):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    assert invoke("batch").exit_code == 2
    both = invoke("batch", source, "--sample", "5")
    assert both.exit_code == 2 and "not both" in both.stderr
    same = invoke("batch", source, "-o", source)
    assert same.exit_code == 2 and "replace the input" in same.stderr
    bad_ext = invoke("batch", source, "-o", tmp_path / "out.txt")
    assert bad_ext.exit_code == 2 and "unknown file type" in bad_ext.stderr
    missing = invoke("batch", tmp_path / "nope.jsonl")
    assert missing.exit_code == 2 and "nope.jsonl" in missing.stderr
    for command in ("batch", "waits-batch", "encode"):  # --seed would be ignored: an error, not silence
        seeded = invoke(command, source, "--seed", "5", "-o", tmp_path / "seeded.parquet")
        assert seeded.exit_code == 2 and "--seed goes with --sample" in seeded.stderr
    assert not (tmp_path / "seeded.parquet").exists()


def test_batch_progress_bar(tmp_path):
    source = write_jsonl(tmp_path / "hands.jsonl", RECORDS)
    shown = invoke("batch", source, "--progress")
    assert shown.exit_code == 0 and "rows/s" in shown.stderr and "%" not in shown.stderr  # no total known
    hidden = invoke("batch", source)  # stderr is not a terminal
    assert "rows/s" not in hidden.stderr


def test_batch_progress_total_from_parquet(tmp_path):
    source = tmp_path / "hands.parquet"
    pq.write_table(pa.Table.from_pylist([{"hand": r["hand"], "win": r["win"]} for r in RECORDS]), source)
    shown = invoke("batch", source, "--progress")
    assert shown.exit_code == 0 and "100%" in shown.stderr and "rows/s" in shown.stderr  # total from metadata


def test_batch_sample(tmp_path):
    from fastscore import sample
    out = tmp_path / "sample.parquet"
    result = invoke("batch", "--sample", "300", "--seed", "5", "-o", out, "--chunk-rows", "128")
    assert result.exit_code == 0, result.output
    assert "rows: 300  bad rows: 0" in result.stdout
    expected = score_batch(sample.sample_winning(300, 5))
    table = pq.read_table(out)
    assert table.column("total").to_pylist() == expected.total.tolist()
    assert table.column("payout").to_pylist() == expected.payout.tolist()
    assert table.column("row_closing").to_pylist() == expected.row_points[:, fastscore.ROW_IDS.index("closing")].tolist()
    assert table.schema.field("closing").type == pa.bool_()  # the input column, beside it
    # the generated hands are in the file and score the same when read back
    again = invoke("batch", out, "-o", tmp_path / "again.jsonl")
    assert again.exit_code == 0, again.output
    rescored = [json.loads(line) for line in (tmp_path / "again.jsonl").read_text().splitlines()]
    assert rescored == list(expected.to_records())


# --------------------------------------------------------------------------- waits


def test_waits_table_and_json():
    hand = "2333444555666789p"
    result = invoke("waits", hand, "--seat", "S", "--round", "N")
    assert result.exit_code == 0, result.output
    expected = fastscore.waits(hand, seat="S", round="N")
    assert len(expected) == 6
    for tile, payouts in expected.items():
        line = next(line for line in result.stdout.splitlines() if f" {tile} " in line)
        assert line.split()[1::2][:3] == [tile, str(payouts["discard"]), str(payouts["self_draw"])]
    assert "6 wait(s)" in result.stdout
    data = json.loads(invoke("waits", hand, "--seat", "S", "--round", "N", "--json").stdout)
    assert data == expected
    # nico nico hand waiting on 9s, seat S: 40 + 1 + 10 = 51, + base 5 = 56; self-draw +1 = 57
    assert json.loads(invoke("waits", NICO, "--seat", "S", "--json").stdout) == {"9s": {"discard": 56, "self_draw": 57}}


def test_waits_not_ready():
    result = invoke("waits", "135m456p789s234s G [555z]")
    assert result.exit_code == 0 and "not ready" in result.stdout


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_waits_batch(tmp_path, ext):
    records = [{"hand": NICO, "seat": "S"}, {"hand": "1m 2m"}, {"hand": "2333444555666789p", "round": "N"}]
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    out = tmp_path / f"waits.{ext}"
    result = invoke("waits-batch", source, "-o", out, "--chunk-rows", "2")
    assert result.exit_code == 0, result.output
    assert "rows: 3  bad rows: 1" in result.stdout and "ready: 100.0% of analysed rows (2)" in result.stdout
    expected = list(waits_batch(HandBatch.from_records(records, require_win=False)).to_records())
    expected = as_read_from(expected, "hands.jsonl", 1)  # the bad row: "hands.jsonl line 2: ..."
    waits = [[{"tile": t, **p} for t, p in r["waits"].items()] for r in expected]  # as the output lists them
    if ext == "jsonl":
        got = [json.loads(line) for line in out.read_text().splitlines()]
        assert [g["waits"] for g in got] == waits and [g["n_waits"] for g in got] == [1, 0, 6]
        assert [g["error"] for g in got] == [r["error"] for r in expected]
        assert got[1]["error"].startswith("hands.jsonl line 2: ")
    else:
        table = pq.read_table(out)
        assert table.schema.field("n_waits").type == pa.int16()
        assert table.column("waits").to_pylist() == waits
    assert waits[0] == [{"tile": "9s", "discard": 56, "self_draw": 57}]  # seat S: 40 + 1 + 10 + base 5; +1 self-draw


def test_waits_batch_sample(tmp_path):
    from fastscore import sample
    out = tmp_path / "ready.jsonl"
    result = invoke("waits-batch", "--sample", "200", "--seed", "2", "-o", out)
    assert result.exit_code == 0, result.output
    assert "rows: 200  bad rows: 0" in result.stdout and "ready: 100.0%" in result.stdout
    expected = list(waits_batch(sample.sample_ready(200, 2)).to_records())
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [{k: g[k] for k in ("n_waits", "error")} for g in got] == [{k: r[k] for k in ("n_waits", "error")}
                                                                       for r in expected]
    assert [g["waits"] for g in got] == [[{"tile": t, **p} for t, p in r["waits"].items()] for r in expected]
    assert "win" not in got[0] and got[0]["hand"]  # no win column: waits analysis has none (it was all null)


def test_help_lists_commands():
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("score", "interpretations", "batch", "waits", "waits-batch"):
        assert command in result.stdout
    bare = invoke()  # no command: the same help on stdout, and the exit status of a usage error
    assert bare.exit_code == 2 and bare.stdout == result.stdout


def test_ctrl_c_in_any_command_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sys.modules["fastscore.score"], "score", interrupted)  # the module, not fastscore.score()
    result = invoke("score", NICO, "--win", "9s")
    assert result.exit_code == 130 and result.stderr.strip().endswith("interrupted")
    assert "Aborted" not in result.output


def test_an_empty_round_is_east():
    """``--round ''`` reads as East, as in ``fastscore.score`` (and a CSV cell left empty)."""
    result = invoke("score", NICO, "--win", "9s", "--round", "")
    assert result.exit_code == 0, result.output
    assert "round E," in result.stdout and "total    56  (legal: round minimum 20)" in result.stdout


def test_score_does_not_import_pyarrow():
    """Start-up stays light: the single-hand commands never load pyarrow or the progress bar."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from fastscore.cli import app\n"
        "r = CliRunner().invoke(app, ['score', '11m99m77p11s9s EE RR 333p', '--win', '9s', '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in ('pyarrow', 'rich.progress', 'tqdm') if m in sys.modules))\n"
    )
    root = Path(fastscore.__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.stdout.strip() == "[]"


def test_batch_lists_five_bad_rows_and_counts_the_rest(tmp_path):
    path = tmp_path / "hands.jsonl"
    good = {"hand": "11m99m77p11s9s EE RR 333p", "win": "9s"}
    records = [good] + [{"hand": "xyz", "win": "9s"}] * 8 + [good]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(app, ["batch", str(path)])
    assert result.exit_code == 0, result.output
    bad = [line for line in result.stderr.splitlines() if line.startswith("bad ")]
    # records 1 to 5 of the file (from 0) are its lines 2 to 6
    assert [line.split(":")[0] for line in bad] == [f"bad hands.jsonl line {n}" for n in range(2, 7)]
    assert "... and 3 more bad rows (see the error column of the output)" in result.stderr
    assert "rows: 10  bad rows: 8" in result.stdout


@pytest.mark.parametrize("command", ["batch", "waits-batch"])
def test_pipeline_runs_under_numbas_workqueue_threading_layer(tmp_path, command):
    """numba's fallback threading layer aborts when two threads run parallel kernels at once; the
    command line then reads and encodes on its own thread, with the same output as under OpenMP."""
    outputs = {}
    for layer in ("workqueue", "default"):
        out = tmp_path / f"{layer}.parquet"
        env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
        run = subprocess.run([sys.executable, "-m", "fastscore.cli", command, "--sample", "30000",
                              "--chunk-rows", "6000", "-o", str(out), "--no-progress"],
                             capture_output=True, text=True, timeout=600, env=env)
        assert run.returncode == 0, run.stderr
        outputs[layer] = pq.read_table(out)
    assert outputs["workqueue"].num_rows == 30_000
    assert outputs["workqueue"].equals(outputs["default"])


# --------------------------------------------------------------------------- small things of a first trial (issue 20)


@pytest.mark.parametrize("command", ["batch", "waits-batch", "encode"])
def test_a_missing_input_file_says_so(tmp_path, command):
    missing = tmp_path / "nope.jsonl"
    result = invoke(command, missing, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2 and f"error: no such file: {missing}" in result.stderr
    assert "Errno" not in result.stderr


def test_help_shows_each_summary_in_full():
    text = " ".join(invoke("--help").output.split())
    for name, command in app.commands.items():
        first = command.get_short_help_str(limit=1_000)
        assert f"{name} {first}" in text and "..." not in first


def test_no_rate_for_a_run_under_a_second(tmp_path):
    from fastscore._display import totals_line

    result = invoke("batch", write_jsonl(tmp_path / "hands.jsonl", RECORDS[:3]))
    assert result.exit_code == 0 and "rows: 3" in result.output
    assert "hands per second" not in result.output  # 3 rows measure start-up, not speed
    assert totals_line(3_000_000, 2, 1.5) == "rows: 3,000,000  bad rows: 2  time: 1.50 s  hands per second: 2,000,000"
